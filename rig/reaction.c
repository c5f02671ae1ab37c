/* rig/reaction.c: hit reactions (docs/rig.md, "Reactions"). A hit turns the part's primary joint
 * away from the impact by 0.35 rad at 400 length units / s, in proportion to the speed and at most
 * 0.6 rad; the secondary joint (the upper bone of a hit lower limb) turns the same way at 0.4 of
 * that, with a 0.25 s decay. The offset is angle * strength, and strength falls linearly from 1 to
 * 0 over the joint's decay time (head 0.5 s, torso and upper limbs 0.4 s, lower limbs 0.35 s). A
 * new hit on a joint keeps the stronger of the two angles and resets the strength to 1, so repeated
 * hits never add up past the cap. Offsets are added to the bones' rotations after IK, while
 * ANIMATED; the torso's tilts the upper body about the hips while the legs keep their IK directions
 * (the feet stay planted).
 *
 * Direction. The push is taken into the rig frame (so a LEFT rig flinches as the mirror of a
 * RIGHT one) and then across the bone: a positive rotation moves the bone's tip along the bone's
 * left-hand normal (+y of the bone's frame, y down), so the sign of the push along that normal is
 * the sign of the flinch. A push along the bone itself (a head-on hit) has no such sign: then the
 * part turns towards its own side, left parts towards -x of the rig frame, right parts towards +x,
 * and the head and torso back (-x). */
#include "internal.h"

#include <math.h>
#include <string.h>

#define REACTION_BASE_ANGLE 0.35f
#define REACTION_REFERENCE_SPEED 400.0f
#define REACTION_MAX_ANGLE 0.6f
#define REACTION_SECONDARY_SCALE 0.4f
#define REACTION_SECONDARY_DECAY 0.25f
/* |push across the bone| / |push| below this is a head-on hit (about 0.06 degrees). */
#define REACTION_HEAD_ON 1e-3f
/* Strength at or below this has decayed (float steps of dt / decay do not land on 0 exactly). */
#define REACTION_DONE 1e-4f

static float primary_decay(sinew_rig_part part)
{
	switch (part) {
	case SINEW_PART_HEAD: return 0.5f;
	case SINEW_PART_LEFT_LOWER_ARM:
	case SINEW_PART_RIGHT_LOWER_ARM:
	case SINEW_PART_LEFT_LOWER_LEG:
	case SINEW_PART_RIGHT_LOWER_LEG: return 0.35f;
	case SINEW_PART_TORSO:
	case SINEW_PART_LEFT_UPPER_ARM:
	case SINEW_PART_RIGHT_UPPER_ARM:
	case SINEW_PART_LEFT_UPPER_LEG:
	case SINEW_PART_RIGHT_UPPER_LEG:
	case SINEW_PART_COUNT: break;
	}
	return 0.4f;
}

/* The upper bone of a lower limb, or -1. */
static int secondary_of(sinew_rig_part part)
{
	switch (part) {
	case SINEW_PART_LEFT_LOWER_ARM:
	case SINEW_PART_RIGHT_LOWER_ARM:
	case SINEW_PART_LEFT_LOWER_LEG:
	case SINEW_PART_RIGHT_LOWER_LEG: return (int)part - 1;
	case SINEW_PART_TORSO:
	case SINEW_PART_HEAD:
	case SINEW_PART_LEFT_UPPER_ARM:
	case SINEW_PART_RIGHT_UPPER_ARM:
	case SINEW_PART_LEFT_UPPER_LEG:
	case SINEW_PART_RIGHT_UPPER_LEG:
	case SINEW_PART_COUNT: break;
	}
	return -1;
}

/* -1 for the left parts, the head and the torso (they fall back), +1 for the right parts. */
static float side_of(sinew_rig_part part)
{
	bool right = part == SINEW_PART_RIGHT_UPPER_ARM || part == SINEW_PART_RIGHT_LOWER_ARM ||
	             part == SINEW_PART_RIGHT_UPPER_LEG || part == SINEW_PART_RIGHT_LOWER_LEG;
	return right ? 1.0f : -1.0f;
}

/* +1 or -1: which way the part turns away from a push (rig-frame direction). */
static float flinch_sign(const sinew_rig *rig, sinew_rig_part part, sinew_vec2 push_rig)
{
	sinew_vec2 world_dir = sinew_v2(cosf(rig->proxy_parts[part].angle), sinf(rig->proxy_parts[part].angle));
	sinew_vec2 bone = sinew_rig_vector_to_local(rig, world_dir);
	float across = sinew_cross(bone, push_rig);
	if (fabsf(across) > REACTION_HEAD_ON * sinew_length(push_rig)) return across > 0.0f ? 1.0f : -1.0f;
	float towards_side = sinew_cross(bone, sinew_v2(side_of(part), 0.0f));
	return towards_side < 0.0f ? -1.0f : 1.0f;
}

static void merge(rig_reaction *r, float angle, float decay)
{
	if (!r->active || fabsf(angle) > fabsf(r->angle)) {
		r->angle = angle;
		r->decay = decay;
	}
	r->strength = 1.0f;
	r->active = true;
	r->fresh = true;
}

bool sinew_rig_apply_reaction(sinew_rig *rig, sinew_rig_part part, sinew_vec2 direction, float speed)
{
	const char *fn = "sinew_rig_apply_reaction";
	if (rig == NULL) return false;
	if (part < 0 || part >= SINEW_PART_COUNT) return rig_fail(rig, SINEW_ERROR_INVALID_ARGUMENT, fn, "part %d is not a sinew_rig_part", (int)part);
	if (!sinew_vec2_is_valid(direction) || !sinew_is_finite(speed)) return rig_fail(rig, SINEW_ERROR_NOT_FINITE, fn, "direction and speed must be finite");
	if (speed < 0.0f) return rig_fail(rig, SINEW_ERROR_INVALID_ARGUMENT, fn, "speed must be >= 0 (got %g)", (double)speed);
	if (rig->state != SINEW_RIG_ANIMATED) return false;
	float size = sinew_minf(REACTION_BASE_ANGLE * speed / REACTION_REFERENCE_SPEED, REACTION_MAX_ANGLE);
	float angle = flinch_sign(rig, part, sinew_rig_vector_to_local(rig, direction)) * size;
	merge(&rig->reactions[part], angle, primary_decay(part));
	int second = secondary_of(part);
	if (second >= 0) merge(&rig->reactions[second], REACTION_SECONDARY_SCALE * angle, REACTION_SECONDARY_DECAY);
	return true;
}

void rig_reactions_advance(sinew_rig *rig, float dt, float offsets[SINEW_PART_COUNT])
{
	for (int i = 0; i < SINEW_PART_COUNT; ++i) {
		rig_reaction *r = &rig->reactions[i];
		offsets[i] = 0.0f;
		if (!r->active) continue;
		if (rig->state != SINEW_RIG_ANIMATED) {
			memset(r, 0, sizeof *r);
			continue;
		}
		if (r->fresh) r->fresh = false;
		else r->strength -= dt / r->decay;
		if (r->strength <= REACTION_DONE) {
			memset(r, 0, sizeof *r);
			continue;
		}
		offsets[i] = r->angle * r->strength;
	}
}

bool sinew_rig_enable_reactions(sinew_rig *rig, bool enabled)
{
	if (rig == NULL) return false;
	rig->reactions_enabled = enabled;
	return true;
}

float sinew_rig_get_reaction(const sinew_rig *rig, sinew_rig_part part)
{
	if (rig == NULL || part < 0 || part >= SINEW_PART_COUNT || !rig->reactions[part].active) return 0.0f;
	return rig->reactions[part].angle * rig->reactions[part].strength;
}

bool sinew_rig_clear_reactions(sinew_rig *rig)
{
	if (rig == NULL) return false;
	memset(rig->reactions, 0, sizeof rig->reactions);
	return true;
}
