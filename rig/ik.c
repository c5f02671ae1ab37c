/* rig/ik.c: the solve of one frame — two-bone IK for the limbs and the head's look-at in the rig
 * frame, then forward kinematics of the whole skeleton into the world.
 *
 * Everything is first solved in the canonical (RIGHT-facing) rig frame: origin at the root, x
 * forward, y down. Each bone's frame is its parent's frame moved by the bone's offset and turned
 * by its rotation; the root's parent is the rig frame with the bone's origin at the torso marker.
 * Only then are points taken to the world, through the LEFT mirror (x -> -x) and the root
 * transform, so a LEFT rig is the RIGHT rig reflected exactly.
 *
 * Two-bone IK (law of cosines). For a chain rooted at o with lengths l1, l2 and a target at
 * distance d in direction base, the triangle (l1, l2, d) has the angle a at o and b at the middle
 * joint:
 *     cos a = (l1^2 + d^2 - l2^2) / (2 l1 d),    cos b = (l1^2 + l2^2 - d^2) / (2 l1 l2).
 * The lower bone turns by bend = pi - b relative to the upper one. An unflipped limb takes
 * upper = base - a, lower = upper + bend (a positive relative angle: a knee that points forward);
 * a flipped one upper = base + a, lower = upper - bend. A target beyond l1 + l2 gives the straight
 * chain along base; one nearer than |l1 - l2| the fully folded chain. */
#include "internal.h"

#include <math.h>

/* The limb whose upper bone is part, or -1. */
static int limb_of_upper(int part)
{
	int k = part - SINEW_PART_LEFT_UPPER_ARM;
	return (k >= 0 && k < 2 * SINEW_LIMB_COUNT && k % 2 == 0) ? k / 2 : -1;
}

bool sinew_solve_two_bone_ik(sinew_vec2 origin, float l1, float l2, sinew_vec2 target, bool flip, float *upper_angle,
                             float *lower_angle)
{
	if (upper_angle == NULL || lower_angle == NULL) return false;
	if (!sinew_vec2_is_valid(origin) || !sinew_vec2_is_valid(target) || !(l1 > 0.0f) || !(l2 > 0.0f) ||
	    !sinew_is_finite(l1) || !sinew_is_finite(l2)) {
		return false;
	}
	sinew_vec2 v = sinew_sub(target, origin);
	float d = sinew_length(v);
	float base = d > 0.0f ? atan2f(v.y, v.x) : 0.0f;
	if (d >= l1 + l2) {
		*upper_angle = *lower_angle = base;
		return true;
	}
	d = sinew_maxf(d, fabsf(l1 - l2));
	float cos_a = d > 0.0f ? (l1 * l1 + d * d - l2 * l2) / (2.0f * l1 * d) : 0.0f;
	float cos_b = (l1 * l1 + l2 * l2 - d * d) / (2.0f * l1 * l2);
	float a = acosf(sinew_clampf(cos_a, -1.0f, 1.0f));
	float bend = SINEW_PI - acosf(sinew_clampf(cos_b, -1.0f, 1.0f));
	float upper = flip ? base + a : base - a;
	float lower = flip ? upper - bend : upper + bend;
	*upper_angle = rig_wrap_angle(upper);
	*lower_angle = rig_wrap_angle(lower);
	return true;
}

/* A bone's frame in the rig frame: origin and absolute direction (radians). */
typedef struct bone_frame {
	sinew_vec2 origin;
	float angle;
} bone_frame;

static sinew_vec2 along(sinew_vec2 p, float angle, float length)
{
	return sinew_v2(p.x + length * cosf(angle), p.y + length * sinf(angle));
}

/* The origin of bone i in the rig frame from its parent's frame (the root's: the torso marker). */
static sinew_vec2 bone_origin(const sinew_rig_skeleton *sk, const sinew_rig_pose *pose, const bone_frame *frames, int i)
{
	const sinew_rig_bone_def *b = &sk->bones[i];
	if (b->parent < 0) return pose->torso;
	const bone_frame *f = &frames[b->parent];
	sinew_rot q = sinew_make_rot(f->angle);
	return sinew_add(f->origin, sinew_rotate(q, b->offset));
}

/* IK and look-at: rewrite the rotations of IK limbs and of a looking head from the markers. */
static void solve_targets(const sinew_rig_skeleton *sk, sinew_rig_pose *pose)
{
	bone_frame frames[SINEW_PART_COUNT];
	for (int i = 0; i < SINEW_PART_COUNT; ++i) {
		const sinew_rig_bone_def *b = &sk->bones[i];
		float parent_angle = b->parent < 0 ? 0.0f : frames[b->parent].angle;
		sinew_vec2 origin = bone_origin(sk, pose, frames, i);
		int limb = limb_of_upper(i);
		if (limb >= 0 && pose->limb_ik[limb]) {
			float upper, lower;
			if (sinew_solve_two_bone_ik(origin, b->length, sk->bones[i + 1].length, pose->markers[limb],
			                            pose->bend_flip[limb], &upper, &lower)) {
				pose->bones[i] = rig_wrap_angle(upper - parent_angle);
				pose->bones[i + 1] = rig_wrap_angle(lower - upper);
			}
		} else if (i == SINEW_PART_HEAD && pose->head_look) {
			sinew_vec2 v = sinew_sub(pose->markers[SINEW_MARKER_HEAD], origin);
			if (sinew_length_squared(v) > 0.0f) pose->bones[i] = rig_wrap_angle(atan2f(v.y, v.x) - parent_angle);
		}
		frames[i].origin = origin;
		frames[i].angle = parent_angle + pose->bones[i];
	}
}

/* A rig-frame point in the world: the LEFT mirror, then the root transform. */
static sinew_vec2 point_to_world(const sinew_rig_pose *pose, sinew_vec2 p)
{
	if (pose->facing == SINEW_FACING_LEFT) p.x = -p.x;
	return sinew_transform_point(pose->root, p);
}

void rig_forward(const sinew_rig_skeleton *sk, const sinew_rig_pose *pose, const float *offsets,
                 sinew_rig_part_state parts[SINEW_PART_COUNT])
{
	bone_frame frames[SINEW_PART_COUNT];
	for (int i = 0; i < SINEW_PART_COUNT; ++i) {
		const sinew_rig_bone_def *b = &sk->bones[i];
		float parent_angle = b->parent < 0 ? 0.0f : frames[b->parent].angle;
		frames[i].origin = bone_origin(sk, pose, frames, i);
		frames[i].angle = parent_angle + pose->bones[i] + (offsets != NULL ? offsets[i] : 0.0f);
		/* The torso's flinch tilts the upper body about the hips; the legs keep their solved
		 * directions, so the feet stay on their markers. */
		if (offsets != NULL && b->parent == SINEW_PART_TORSO &&
		    (i == SINEW_PART_LEFT_UPPER_LEG || i == SINEW_PART_RIGHT_UPPER_LEG)) {
			frames[i].angle -= offsets[SINEW_PART_TORSO];
		}
		float centre = i == SINEW_PART_HEAD ? sk->head_center : 0.5f * b->length;
		sinew_rig_part_state *s = &parts[i];
		s->origin = point_to_world(pose, frames[i].origin);
		s->tip = point_to_world(pose, along(frames[i].origin, frames[i].angle, b->length));
		s->center = point_to_world(pose, along(frames[i].origin, frames[i].angle, centre));
		sinew_vec2 u = sinew_v2(cosf(frames[i].angle), sinf(frames[i].angle));
		if (pose->facing == SINEW_FACING_LEFT) u.x = -u.x;
		u = sinew_rotate(pose->root.q, u);
		s->angle = atan2f(u.y, u.x);
	}
}

void rig_solve(const sinew_rig_skeleton *sk, sinew_rig_pose *pose, const float *offsets,
               sinew_rig_part_state parts[SINEW_PART_COUNT])
{
	solve_targets(sk, pose);
	rig_forward(sk, pose, offsets, parts);
}

bool sinew_rig_solve_pose(const sinew_rig *rig, const sinew_rig_pose *pose, sinew_rig_part_state parts[SINEW_PART_COUNT])
{
	if (rig == NULL || pose == NULL || parts == NULL) return false;
	rig_forward(&rig->skeleton, pose, NULL, parts);
	return true;
}

bool sinew_rig_solve_pose_ik(const sinew_rig *rig, sinew_rig_pose *pose, sinew_rig_part_state parts[SINEW_PART_COUNT])
{
	if (rig == NULL || pose == NULL) return false;
	solve_targets(&rig->skeleton, pose);
	if (parts != NULL) rig_forward(&rig->skeleton, pose, NULL, parts);
	return true;
}
