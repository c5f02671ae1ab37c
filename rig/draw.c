/* rig/draw.c: the animated figure with its own look — the spine and limbs as capsules limb_width
 * wide with round caps, and the head as a ring of the same width (drawn as short capsules round
 * the head circle, since the debug draw's circle outline is one pixel wide). */
#include "internal.h"

#include <math.h>

#define RING_SEGMENTS 36

static const sinew_color ink = {0.08f, 0.08f, 0.1f, 1.0f};

static void ring(const sinew_debug_draw *draw, sinew_vec2 center, float radius, float half_width)
{
	sinew_vec2 previous = sinew_v2(center.x + radius, center.y);
	for (int i = 1; i <= RING_SEGMENTS; ++i) {
		float a = 2.0f * SINEW_PI * (float)i / (float)RING_SEGMENTS;
		sinew_vec2 p = sinew_v2(center.x + radius * cosf(a), center.y + radius * sinf(a));
		draw->draw_solid_capsule(previous, p, half_width, ink, ink, draw->context);
		previous = p;
	}
}

void sinew_rig_draw(const sinew_rig *rig, const sinew_debug_draw *draw)
{
	if (rig == NULL || draw == NULL || !rig->visible) return;
	float half = 0.5f * rig->skeleton.limb_width;
	if (draw->draw_solid_capsule != NULL) {
		for (int i = 0; i < SINEW_PART_COUNT; ++i) {
			if (i == SINEW_PART_HEAD) continue;
			draw->draw_solid_capsule(rig->parts[i].origin, rig->parts[i].tip, half, ink, ink, draw->context);
		}
	}
	sinew_vec2 head = rig->parts[SINEW_PART_HEAD].center;
	if (draw->draw_solid_capsule != NULL && half > 0.0f) ring(draw, head, rig->skeleton.head_radius, half);
	else if (draw->draw_circle != NULL) draw->draw_circle(head, rig->skeleton.head_radius, ink, draw->context);
}
