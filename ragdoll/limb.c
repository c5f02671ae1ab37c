/* ragdoll/limb.c: the partial ragdoll (docs/ragdoll.md, "Partial ragdoll"): one limb goes physical
 * while the rest of the figure stays animated, and rejoins the animation seamlessly.
 *
 * Going physical (ANIMATED only): the limb's two bones become bodies as in the whole ragdoll
 * (ragdoll_build_body: at the parts as shown, with the rig's rigid velocity), jointed as there
 * (ragdoll_build_joint: the shoulder or hip band from the pose, the elbow or knee band from the
 * straight limb on the fold side of the live bend flag) to an anchor: a kinematic body without
 * shapes that stands for the torso (rd->bodies[TORSO]) and is carried onto the animated torso
 * with sinew_body_move_to every frame, so it arrives with the world step. The limb's own proxies
 * are switched off (the physical bones replace them) and the other proxies join the limb's
 * collision group for as long as a limb is physical, so the animated figure does not push its own
 * arm about; props still hit both.
 *
 * Rejoining: the limb's bones are read back as world-relative angles (upper to the torso shown,
 * lower to upper), the bodies are freed, and for limb_rejoin_duration each frame shows the limb
 * hanging from the animated shoulder or hip with its angles tweened from those to the animation's,
 * the short way round, with the recovery's sine-in-out. At t = 0 the tween is the physical limb
 * itself, so the first rejoin frame is the last physical one. The rest of the figure is the rig's
 * own parts throughout, untouched. */
#include "internal.h"

#include <math.h>
#include <string.h>

#define LIMB_PI 3.14159265358979f

static int upper_part(int limb) { return SINEW_PART_LEFT_UPPER_ARM + 2 * limb; }

bool ragdoll_limbs_active(const sinew_ragdoll *rd)
{
	for (int l = 0; l < SINEW_LIMB_COUNT; ++l) {
		if (rd->limbs[l].mode != RAGDOLL_LIMB_ANIMATED) return true;
	}
	return false;
}

bool ragdoll_limbs_physical(const sinew_ragdoll *rd)
{
	for (int l = 0; l < SINEW_LIMB_COUNT; ++l) {
		if (rd->limbs[l].mode == RAGDOLL_LIMB_PHYSICAL) return true;
	}
	return false;
}

/* ---------------------------------------------------------------- the proxies */

static void set_limb_proxies(sinew_ragdoll *rd, int limb, bool enabled)
{
	for (int k = 0; k < 2; ++k) {
		int part = upper_part(limb) + k;
		sinew_body_id proxy = sinew_rig_get_proxy(rd->rig, (sinew_rig_part)part);
		if (!sinew_body_is_valid(proxy) || !sinew_rig_get_proxies_enabled(rd->rig)) continue;
		if (enabled) {
			/* put back on the part, not swept there from where it was switched off */
			sinew_rig_part_state ps = sinew_rig_get_part(rd->rig, (sinew_rig_part)part);
			sinew_body_set_transform(proxy, ps.origin, ps.angle);
			sinew_body_set_linear_velocity(proxy, sinew_v2(0.0f, 0.0f)); /* the update's move_to aimed from where it was */
			sinew_body_set_angular_velocity(proxy, 0.0f);
			sinew_body_enable(proxy);
		} else {
			sinew_body_disable(proxy);
		}
	}
}

/* The proxies join group (or go back to their own groups when group is 0). */
static void group_proxies(sinew_ragdoll *rd, uint32_t group)
{
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		sinew_shape_id shape;
		sinew_body_id proxy = sinew_rig_get_proxy(rd->rig, (sinew_rig_part)p);
		if (!sinew_body_is_valid(proxy) || sinew_body_get_shapes(proxy, &shape, 1) != 1) continue;
		if (group != 0) {
			rd->proxy_groups[p] = sinew_shape_get_group(shape);
			sinew_shape_set_group(shape, group);
		} else {
			sinew_shape_set_group(shape, rd->proxy_groups[p]);
		}
	}
	rd->proxies_grouped = group != 0;
}

/* ---------------------------------------------------------------- physical */

/* The collision group of the limbs and the proxies while a limb is physical: the whole ragdoll's
 * rule (ragdoll.c) on the anchor's slot. */
static uint32_t anchor_group(const sinew_ragdoll *rd)
{
	return RAGDOLL_GROUP_BASE | ((uint32_t)rd->bodies[SINEW_PART_TORSO].index1 & 0x7fffffffu);
}

/* The anchor: a kinematic body standing for the torso, at the torso part's centre and angle. */
static bool make_anchor(sinew_ragdoll *rd, const sinew_rig_part_state *torso)
{
	if (sinew_body_is_valid(rd->bodies[SINEW_PART_TORSO])) return true;
	sinew_body_def b = sinew_default_body_def();
	b.type = SINEW_KINEMATIC_BODY;
	b.position = torso->center;
	b.angle = torso->angle;
	rd->bodies[SINEW_PART_TORSO] = sinew_create_body(rd->world, &b);
	if (SINEW_IS_NULL(rd->bodies[SINEW_PART_TORSO])) return false;
	group_proxies(rd, anchor_group(rd));
	return true;
}

static void free_limb(sinew_ragdoll *rd, int limb)
{
	for (int k = 1; k >= 0; --k) {
		int part = upper_part(limb) + k;
		if (sinew_joint_is_valid(rd->joints[part])) sinew_destroy_joint(rd->joints[part]);
		if (sinew_body_is_valid(rd->bodies[part])) sinew_destroy_body(rd->bodies[part]);
		rd->joints[part] = sinew_null_joint_id;
		rd->bodies[part] = sinew_null_body_id;
	}
}

/* No limb physical any more: the anchor goes and the proxies get their own groups back. */
static void free_anchor_if_unused(sinew_ragdoll *rd)
{
	if (ragdoll_limbs_physical(rd)) return;
	if (rd->proxies_grouped) group_proxies(rd, 0);
	if (sinew_body_is_valid(rd->bodies[SINEW_PART_TORSO])) sinew_destroy_body(rd->bodies[SINEW_PART_TORSO]);
	rd->bodies[SINEW_PART_TORSO] = sinew_null_body_id;
}

static bool go_physical(sinew_ragdoll *rd, int limb)
{
	sinew_rig_part_state parts[SINEW_PART_COUNT];
	sinew_rig_pose pose;
	sinew_ragdoll_get_parts(rd, parts); /* a rejoining limb as it is shown */
	if (!sinew_rig_get_pose(rd->rig, &pose) || !make_anchor(rd, &parts[SINEW_PART_TORSO])) return false;
	uint32_t group = anchor_group(rd);
	sinew_vec2 v = sinew_rig_get_linear_velocity(rd->rig);
	float w = sinew_rig_get_angular_velocity(rd->rig);
	bool ok = true;
	for (int k = 0; k < 2 && ok; ++k) {
		int part = upper_part(limb) + k;
		rd->lengths[part] = sinew_distance(parts[part].origin, parts[part].tip);
		rd->bodies[part] = ragdoll_build_body(rd, part, &parts[part], pose.root.p, v, w, group);
		ok = !SINEW_IS_NULL(rd->bodies[part]);
	}
	for (int k = 0; k < 2 && ok; ++k) {
		int part = upper_part(limb) + k;
		rd->joints[part] = ragdoll_build_joint(rd, part, k == 0 ? SINEW_PART_TORSO : part - 1, parts, &pose);
		ok = !SINEW_IS_NULL(rd->joints[part]);
		/* a fresh joint has no spring and no motor: that is what power.c last wrote */
		memset(&rd->power.spring[part], 0, sizeof rd->power.spring[part]);
		memset(&rd->power.motor[part], 0, sizeof rd->power.motor[part]);
	}
	if (!ok) {
		free_limb(rd, limb);
		free_anchor_if_unused(rd);
		return false;
	}
	rd->limbs[limb].mode = RAGDOLL_LIMB_PHYSICAL;
	set_limb_proxies(rd, limb, false);
	ragdoll_power_update(rd, 0.0f);
	return true;
}

/* ---------------------------------------------------------------- rejoining */

static void rejoin(sinew_ragdoll *rd, int limb)
{
	sinew_rig_part_state parts[SINEW_PART_COUNT];
	sinew_ragdoll_get_parts(rd, parts);
	int upper = upper_part(limb);
	ragdoll_limb *lm = &rd->limbs[limb];
	lm->from[0] = ragdoll_wrap(parts[upper].angle - parts[SINEW_PART_TORSO].angle);
	lm->from[1] = ragdoll_wrap(parts[upper + 1].angle - parts[upper].angle);
	lm->elapsed = 0.0f;
	lm->mode = RAGDOLL_LIMB_REJOINING;
	free_limb(rd, limb);
	free_anchor_if_unused(rd);
}

/* The recovery's ease (recovery.c): sine in and out, 0 -> 1. */
static float ease(float t) { return 0.5f - 0.5f * cosf(LIMB_PI * t); }

/* A bone hanging from origin at world angle a: its part, the head's rule aside. */
static sinew_rig_part_state hang(sinew_vec2 origin, float angle, float length)
{
	sinew_rig_part_state s;
	sinew_vec2 d = sinew_v2(cosf(angle), sinf(angle));
	s.origin = origin;
	s.angle = angle;
	s.tip = sinew_mul_add(origin, length, d);
	s.center = sinew_mul_add(origin, 0.5f * length, d);
	return s;
}

/* A rejoining limb at its blend: from the animated shoulder or hip, the angles between the hand-off's
 * and the animation's. The lower bone hangs from the upper one at its skeleton offset (mirrored with
 * the figure: for LEFT a bone-frame (x, y) is (x, -y) in a world bone frame). */
static void blend_limb(const sinew_ragdoll *rd, int limb, sinew_rig_part_state parts[SINEW_PART_COUNT])
{
	const ragdoll_limb *lm = &rd->limbs[limb];
	const sinew_rig_skeleton *sk = sinew_rig_get_skeleton(rd->rig);
	float duration = rd->def.limb_rejoin_duration;
	float t = duration > 0.0f ? ease(sinew_minf(lm->elapsed / duration, 1.0f)) : 1.0f;
	int upper = upper_part(limb);
	float to_upper = ragdoll_wrap(parts[upper].angle - parts[SINEW_PART_TORSO].angle);
	float to_lower = ragdoll_wrap(parts[upper + 1].angle - parts[upper].angle);
	float a_upper = parts[SINEW_PART_TORSO].angle + lm->from[0] + t * ragdoll_wrap(to_upper - lm->from[0]);
	float a_lower = a_upper + lm->from[1] + t * ragdoll_wrap(to_lower - lm->from[1]);
	sinew_vec2 offset = sk->bones[upper + 1].offset;
	if (sinew_rig_get_facing(rd->rig) == SINEW_FACING_LEFT) offset.y = -offset.y;
	sinew_rig_part_state u = hang(parts[upper].origin, ragdoll_wrap(a_upper), sk->bones[upper].length);
	sinew_vec2 elbow = sinew_add(u.origin, sinew_rotate(sinew_make_rot(u.angle), offset));
	parts[upper] = u;
	parts[upper + 1] = hang(elbow, ragdoll_wrap(a_lower), sk->bones[upper + 1].length);
}

void ragdoll_limbs_override(const sinew_ragdoll *rd, sinew_rig_part_state parts[SINEW_PART_COUNT])
{
	for (int l = 0; l < SINEW_LIMB_COUNT; ++l) {
		if (rd->limbs[l].mode == RAGDOLL_LIMB_REJOINING) {
			blend_limb(rd, l, parts);
		} else if (rd->limbs[l].mode == RAGDOLL_LIMB_PHYSICAL) {
			/* the limb's bodies (the anchor's "torso" is not shown: the rig's torso is) */
			ragdoll_body_part(rd, upper_part(l), &parts[upper_part(l)]);
			ragdoll_body_part(rd, upper_part(l) + 1, &parts[upper_part(l) + 1]);
		}
	}
}

/* ---------------------------------------------------------------- each frame */

void ragdoll_limbs_update(sinew_ragdoll *rd, float dt)
{
	if (rd->state != SINEW_RIG_ANIMATED || !ragdoll_limbs_active(rd)) return;
	for (int l = 0; l < SINEW_LIMB_COUNT; ++l) {
		ragdoll_limb *lm = &rd->limbs[l];
		if (lm->mode != RAGDOLL_LIMB_REJOINING) continue;
		/* the frame shown after this update is the blend at elapsed; once past the end the limb is the
		 * animation's again, and its proxies come back on it */
		lm->elapsed += dt;
		if (lm->elapsed >= rd->def.limb_rejoin_duration) {
			lm->mode = RAGDOLL_LIMB_ANIMATED;
			set_limb_proxies(rd, l, true);
		}
	}
	sinew_body_id anchor = rd->bodies[SINEW_PART_TORSO];
	if (ragdoll_limbs_physical(rd) && sinew_body_is_valid(anchor)) {
		sinew_rig_part_state torso = sinew_rig_get_part(rd->rig, SINEW_PART_TORSO);
		sinew_body_move_to(anchor, sinew_make_transform(torso.center, torso.angle), dt);
	}
}

void ragdoll_limbs_release(sinew_ragdoll *rd)
{
	for (int l = 0; l < SINEW_LIMB_COUNT; ++l) {
		if (rd->limbs[l].mode == RAGDOLL_LIMB_ANIMATED) continue;
		if (rd->limbs[l].mode == RAGDOLL_LIMB_PHYSICAL) free_limb(rd, l);
		rd->limbs[l].mode = RAGDOLL_LIMB_ANIMATED;
		set_limb_proxies(rd, l, true);
	}
	free_anchor_if_unused(rd);
}

/* ---------------------------------------------------------------- the API */

bool sinew_ragdoll_set_limb_enabled(sinew_ragdoll *rd, sinew_rig_limb limb, bool enabled)
{
	if (rd == NULL) return false;
	if ((int)limb < 0 || limb >= SINEW_LIMB_COUNT) {
		sinew_world_report_error(rd->world, SINEW_ERROR_INVALID_ARGUMENT, "sinew_ragdoll_set_limb_enabled: unknown limb");
		return false;
	}
	ragdoll_limb_mode mode = rd->limbs[limb].mode;
	if (enabled == (mode == RAGDOLL_LIMB_PHYSICAL)) return true;
	if (rd->state != SINEW_RIG_ANIMATED) {
		if (!enabled) return true; /* nothing is physical on its own outside ANIMATED */
		sinew_world_report_error(rd->world, SINEW_ERROR_INVALID_ARGUMENT,
		                         "sinew_ragdoll_set_limb_enabled: only an animated figure can have one limb go physical "
		                         "(this one is ragdolled or recovering)");
		return false;
	}
	if (enabled) return go_physical(rd, limb);
	rejoin(rd, limb);
	return true;
}

bool sinew_ragdoll_is_limb_enabled(const sinew_ragdoll *rd, sinew_rig_limb limb)
{
	return rd != NULL && (int)limb >= 0 && limb < SINEW_LIMB_COUNT && rd->limbs[limb].mode == RAGDOLL_LIMB_PHYSICAL;
}
