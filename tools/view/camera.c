/* The viewer's camera: world <-> screen, zoom about the cursor, and framing the scene. */
#include "view.h"

#include <math.h>

sinew_vec2 view_to_screen(const view_camera *c, sinew_vec2 p)
{
	float x = (p.x - c->center.x) * c->scale + 0.5f * (float)c->width;
	float dy = (p.y - c->center.y) * c->scale;
	float y = 0.5f * (float)c->height + (c->y_down ? dy : -dy);
	return sinew_v2(x, y);
}

sinew_vec2 view_to_world(const view_camera *c, float x, float y)
{
	float dy = (y - 0.5f * (float)c->height) / c->scale;
	return sinew_v2(c->center.x + (x - 0.5f * (float)c->width) / c->scale, c->center.y + (c->y_down ? dy : -dy));
}

void view_zoom_at(view_camera *c, float factor, float x, float y)
{
	sinew_vec2 before = view_to_world(c, x, y);
	c->scale = sinew_clampf(c->scale * factor, 1e-4f, 1e5f);
	sinew_vec2 after = view_to_world(c, x, y);
	c->center = sinew_add(c->center, sinew_sub(before, after));
}

static bool finite_box(sinew_aabb b)
{
	return sinew_vec2_is_valid(b.lower) && sinew_vec2_is_valid(b.upper) && b.lower.x <= b.upper.x &&
	       b.lower.y <= b.upper.y;
}

/* The moving bodies' box, and the static bodies' box clipped to a margin around it: a long ground
 * must not shrink a small pyramid to a speck. Everything static when nothing moves. */
static bool scene_box(sinew_world_id world, sinew_aabb *out)
{
	enum { MAX_BODIES = 1 << 16 };
	static sinew_body_id ids[MAX_BODIES];
	int n = sinew_world_get_bodies(world, ids, MAX_BODIES);
	bool moving_any = false, still_any = false;
	sinew_aabb moving = {{0, 0}, {0, 0}}, still = {{0, 0}, {0, 0}};
	for (int i = 0; i < n; ++i) {
		if (sinew_body_get_type(ids[i]) == SINEW_STATIC_BODY || sinew_body_get_shape_count(ids[i]) == 0) continue;
		sinew_aabb b = sinew_body_compute_aabb(ids[i]);
		if (!finite_box(b)) continue;
		moving = moving_any ? sinew_aabb_union(moving, b) : b;
		moving_any = true;
	}
	sinew_vec2 size = sinew_sub(moving.upper, moving.lower);
	sinew_vec2 pad = sinew_scale(0.25f, size);
	sinew_aabb near = {sinew_sub(moving.lower, pad), sinew_add(moving.upper, pad)};
	for (int i = 0; i < n; ++i) {
		if (sinew_body_get_type(ids[i]) != SINEW_STATIC_BODY || sinew_body_get_shape_count(ids[i]) == 0) continue;
		sinew_aabb b = sinew_body_compute_aabb(ids[i]);
		if (!finite_box(b)) continue;
		if (moving_any) {
			if (!sinew_aabb_overlaps(near, b)) continue;
			b.lower = sinew_vmax(b.lower, near.lower);
			b.upper = sinew_vmin(b.upper, near.upper);
		}
		still = still_any ? sinew_aabb_union(still, b) : b;
		still_any = true;
	}
	if (!moving_any && !still_any) return false;
	*out = moving_any && still_any ? sinew_aabb_union(moving, still) : (moving_any ? moving : still);
	return true;
}

void view_frame_scene(viewer *v)
{
	view_camera *c = &v->camera;
	float lpm = sinew_world_get_length_units_per_meter(v->world);
	sinew_aabb box;
	if (!scene_box(v->world, &box)) {
		box.lower = sinew_v2(-10.0f * lpm, -10.0f * lpm);
		box.upper = sinew_v2(10.0f * lpm, 10.0f * lpm);
	}
	c->y_down = sinew_world_get_gravity(v->world).y > 0.0f;
	c->center = sinew_scale(0.5f, sinew_add(box.lower, box.upper));
	float w = sinew_maxf(box.upper.x - box.lower.x, 0.5f * lpm), h = sinew_maxf(box.upper.y - box.lower.y, 0.5f * lpm);
	float margin = 40.0f, status = 28.0f; /* the status line covers the bottom */
	float sx = ((float)c->width - 2.0f * margin) / w, sy = ((float)c->height - 2.0f * margin - status) / h;
	c->scale = sinew_maxf(sinew_minf(sx, sy), 1e-4f);
	/* centre the box in the part of the window above the status line */
	c->center.y += (c->y_down ? 0.5f : -0.5f) * status / c->scale;
}
