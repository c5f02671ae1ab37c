/* ragdoll/ragdoll.c: the stickman's ragdoll (docs/ragdoll.md): its tables, the
 * build from the rig's live pose with the momentum hand-off, and the state machine
 * ANIMATED -> RAGDOLL -> RECOVERING -> ANIMATED. The stand-up itself is in recovery.c.
 *
 * Geometry. Every body sits at its part's centre (a bone's midpoint; the head circle's centre)
 * turned to its bone's world direction, so a body's angle IS the bone direction and the hand-off
 * needs no per-part offsets. Capsules run along the body's local x, tip to tip over the bone (the
 * Godot CapsuleShape2D with height = bone length). Joints sit at the child bone's origin. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define RAGDOLL_PI 3.14159265358979f
#define DEG(d) ((d) * (RAGDOLL_PI / 180.0f))

/** Capsule radii and the head circle (docs/ragdoll.md, "The tables"). */
#define RAGDOLL_TORSO_RADIUS 12.0f
#define RAGDOLL_HEAD_RADIUS 100.0f
#define RAGDOLL_LIMB_RADIUS 8.0f
/** The elbow/knee band (fold side positive) and the shoulder/hip band (docs/ragdoll.md). */
#define RAGDOLL_HINGE_LOWER DEG(-5.0f)
#define RAGDOLL_HINGE_UPPER DEG(150.0f)
#define RAGDOLL_SWING_LIMIT DEG(160.0f)

float ragdoll_wrap(float a)
{
	a = fmodf(a + RAGDOLL_PI, 2.0f * RAGDOLL_PI);
	if (a <= 0.0f) a += 2.0f * RAGDOLL_PI;
	return a - RAGDOLL_PI;
}

/* ---------------------------------------------------------------- the pose's rig frame */

static bool pose_mirrored(const sinew_rig_pose *pose) { return pose->facing == SINEW_FACING_LEFT; }

sinew_vec2 ragdoll_pose_to_world(const sinew_rig_pose *pose, sinew_vec2 p)
{
	if (pose_mirrored(pose)) p.x = -p.x;
	return sinew_transform_point(pose->root, p);
}

sinew_vec2 ragdoll_pose_to_local(const sinew_rig_pose *pose, sinew_vec2 w)
{
	sinew_vec2 p = sinew_inv_transform_point(pose->root, w);
	if (pose_mirrored(pose)) p.x = -p.x;
	return p;
}

/* The mirror x -> -x turns a direction a into pi - a. */
float ragdoll_angle_to_world(const sinew_rig_pose *pose, float a)
{
	if (pose_mirrored(pose)) a = RAGDOLL_PI - a;
	return ragdoll_wrap(a + sinew_rot_angle(pose->root.q));
}

float ragdoll_angle_to_local(const sinew_rig_pose *pose, float w)
{
	float a = w - sinew_rot_angle(pose->root.q);
	if (pose_mirrored(pose)) a = RAGDOLL_PI - a;
	return ragdoll_wrap(a);
}

/* ---------------------------------------------------------------- tables */

sinew_ragdoll_def sinew_default_ragdoll_def(void)
{
	static const sinew_ragdoll_body_def bodies[SINEW_PART_COUNT] = {
		[SINEW_PART_TORSO] = {RAGDOLL_TORSO_RADIUS, 8.0f, 1.0f, 4.0f},
		[SINEW_PART_HEAD] = {RAGDOLL_HEAD_RADIUS, 2.0f, 0.5f, 2.0f},
		[SINEW_PART_LEFT_UPPER_ARM] = {RAGDOLL_LIMB_RADIUS, 1.5f, 0.5f, 3.0f},
		[SINEW_PART_LEFT_LOWER_ARM] = {RAGDOLL_LIMB_RADIUS, 1.0f, 0.5f, 3.0f},
		[SINEW_PART_RIGHT_UPPER_ARM] = {RAGDOLL_LIMB_RADIUS, 1.5f, 0.5f, 3.0f},
		[SINEW_PART_RIGHT_LOWER_ARM] = {RAGDOLL_LIMB_RADIUS, 1.0f, 0.5f, 3.0f},
		[SINEW_PART_LEFT_UPPER_LEG] = {RAGDOLL_LIMB_RADIUS, 2.0f, 0.5f, 3.0f},
		[SINEW_PART_LEFT_LOWER_LEG] = {RAGDOLL_LIMB_RADIUS, 1.5f, 0.5f, 3.0f},
		[SINEW_PART_RIGHT_UPPER_LEG] = {RAGDOLL_LIMB_RADIUS, 2.0f, 0.5f, 3.0f},
		[SINEW_PART_RIGHT_LOWER_LEG] = {RAGDOLL_LIMB_RADIUS, 1.5f, 0.5f, 3.0f},
	};
	const sinew_ragdoll_joint_def swing = {true, -RAGDOLL_SWING_LIMIT, RAGDOLL_SWING_LIMIT, false};
	const sinew_ragdoll_joint_def hinge = {true, RAGDOLL_HINGE_LOWER, RAGDOLL_HINGE_UPPER, true};
	sinew_ragdoll_def d = {0};
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		d.bodies[p] = bodies[p];
		d.joints[p] = p >= SINEW_PART_LEFT_UPPER_ARM && (p - SINEW_PART_LEFT_UPPER_ARM) % 2 == 1 ? hinge : swing;
	}
	d.joints[SINEW_PART_TORSO].limit = false;
	d.joints[SINEW_PART_HEAD].limit = false; /* the neck is free */
	d.joint_model = SINEW_RAGDOLL_LOCAL;
	d.layer = 1u;
	d.mask = 1u;
	d.friction = 0.6f;
	d.self_collide = false;
	d.recovery_duration = 2.0f;
	d.probe_start_offset = 50.0f;
	d.probe_end_offset = 1500.0f;
	d.probe_tolerance = 200.0f;
	d.probe_dynamic = false;
	ragdoll_power_default_def(&d);
	return d;
}

/* The limb a part belongs to, and whether it is the limb's lower bone (elbow, knee child). */
static int part_limb(int part, bool *lower)
{
	if (part < SINEW_PART_LEFT_UPPER_ARM) return -1;
	*lower = (part - SINEW_PART_LEFT_UPPER_ARM) % 2 == 1;
	return (part - SINEW_PART_LEFT_UPPER_ARM) / 2;
}

static bool def_is_valid(const sinew_ragdoll_def *d)
{
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		const sinew_ragdoll_body_def *b = &d->bodies[p];
		if (!(b->radius > 0.0f) || !(b->mass > 0.0f) || !(b->linear_damping >= 0.0f) ||
		    !(b->angular_damping >= 0.0f) || !isfinite(b->radius) || !isfinite(b->mass))
			return false;
		const sinew_ragdoll_joint_def *j = &d->joints[p];
		if (j->limit && !(j->lower <= j->upper)) return false;
	}
	return d->recovery_duration >= 0.0f && isfinite(d->recovery_duration) && d->probe_tolerance >= 0.0f &&
	       d->probe_start_offset >= 0.0f && d->probe_end_offset >= 0.0f && d->friction >= 0.0f &&
	       (d->joint_model == SINEW_RAGDOLL_LOCAL || d->joint_model == SINEW_RAGDOLL_GODOT) && ragdoll_power_def_is_valid(d);
}

/* Refuse a call through the rig's world (the process-wide callback without a rig). */
static bool refuse(const sinew_rig *rig, sinew_error code, const char *message)
{
	sinew_world_report_error(rig ? sinew_rig_get_world(rig) : sinew_null_world_id, code, message);
	return false;
}

/* An origin shift (sinew_world_shift_origin) moves the world positions the controller keeps: the
 * roots of the poses it holds (before the fall, the stand-up's ends, one written but not yet
 * solved) and the probed landing ground. Its bodies and the root pull's targets are the world's;
 * the rig follows the shift itself. */
static void on_origin_shift(sinew_world_id world, sinew_vec2 o, void *context)
{
	(void)world;
	sinew_ragdoll *rd = context;
	sinew_rig_pose *poses[] = {&rd->pre, &rd->recovery.start, &rd->recovery.end, &rd->unsolved_pose};
	for (size_t i = 0; i < sizeof poses / sizeof poses[0]; ++i) poses[i]->root.p = sinew_sub(poses[i]->root.p, o);
	rd->recovery.ground_y -= o.y;
}

sinew_ragdoll *sinew_create_ragdoll(sinew_rig *rig, const sinew_ragdoll_def *def)
{
	sinew_ragdoll_def d = def ? *def : sinew_default_ragdoll_def();
	if (rig == NULL) {
		refuse(rig, SINEW_ERROR_INVALID_ARGUMENT, "sinew_create_ragdoll: rig is NULL");
		return NULL;
	}
	if (!def_is_valid(&d)) {
		refuse(rig, SINEW_ERROR_INVALID_ARGUMENT,
		       "sinew_create_ragdoll: the def has a radius or mass <= 0, negative damping, a band with lower > upper, "
		       "a negative duration or probe offset, or an unknown joint model");
		return NULL;
	}
	sinew_ragdoll *rd = calloc(1, sizeof *rd);
	if (rd == NULL) {
		refuse(rig, SINEW_ERROR_OUT_OF_MEMORY, "sinew_create_ragdoll: out of memory");
		return NULL;
	}
	rd->rig = rig;
	rd->world = sinew_rig_get_world(rig);
	rd->def = d;
	rd->state = SINEW_RIG_ANIMATED;
	ragdoll_power_init(rd);
	if (!sinew_world_add_origin_listener(rd->world, on_origin_shift, rd)) {
		free(rd);
		return NULL;
	}
	return rd;
}

void ragdoll_destroy_bodies(sinew_ragdoll *rd)
{
	ragdoll_limbs_release(rd);
	ragdoll_power_release(rd);
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		if (sinew_joint_is_valid(rd->joints[p])) sinew_destroy_joint(rd->joints[p]);
		rd->joints[p] = sinew_null_joint_id;
	}
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		if (sinew_body_is_valid(rd->bodies[p])) sinew_destroy_body(rd->bodies[p]);
		rd->bodies[p] = sinew_null_body_id;
	}
}

void sinew_destroy_ragdoll(sinew_ragdoll *rd)
{
	if (rd == NULL) return;
	if (sinew_world_is_valid(rd->world)) sinew_world_remove_origin_listener(rd->world, on_origin_shift, rd);
	ragdoll_destroy_bodies(rd);
	/* Hand the rig back standing rather than hidden (the rig must outlive its controller). */
	if (rd->state != SINEW_RIG_ANIMATED && rd->has_pre) {
		sinew_rig_set_pose(rd->rig, rd->state == SINEW_RIG_RECOVERING ? &rd->recovery.end : &rd->pre);
		sinew_rig_set_state(rd->rig, SINEW_RIG_ANIMATED);
	}
	free(rd);
}

sinew_rig *sinew_ragdoll_get_rig(const sinew_ragdoll *rd) { return rd ? rd->rig : NULL; }

/* ---------------------------------------------------------------- the build */

/* A body for one part at its centre and bone angle, carrying the rig's rigid velocity there. */
sinew_body_id ragdoll_build_body(sinew_ragdoll *rd, int part, const sinew_rig_part_state *ps, sinew_vec2 root,
                                 sinew_vec2 v, float w, uint32_t group)
{
	const sinew_ragdoll_body_def *bd = &rd->def.bodies[part];
	sinew_body_def b = sinew_default_body_def();
	b.type = SINEW_DYNAMIC_BODY;
	b.position = ps->center;
	b.angle = ps->angle;
	b.linear_velocity = sinew_add(v, sinew_cross_sv(w, sinew_sub(ps->center, root)));
	b.angular_velocity = w;
	b.linear_damping = bd->linear_damping;
	b.angular_damping = bd->angular_damping;
	sinew_body_id id = sinew_create_body(rd->world, &b);
	if (SINEW_IS_NULL(id)) return id;

	sinew_shape_def s = sinew_default_shape_def();
	s.friction = rd->def.friction;
	s.layer = rd->def.layer;
	s.mask = rd->def.mask;
	s.group = group;
	sinew_shape_id shape;
	if (part == SINEW_PART_HEAD) {
		sinew_circle c = {sinew_v2(0.0f, 0.0f), bd->radius};
		s.density = bd->mass / sinew_compute_circle_mass(&c, 1.0f).mass;
		shape = sinew_create_circle_shape(id, &s, &c);
	} else {
		float half = sinew_maxf(0.5f * rd->lengths[part] - bd->radius, 0.0f);
		sinew_capsule c = {sinew_v2(-half, 0.0f), sinew_v2(half, 0.0f), bd->radius};
		s.density = bd->mass / sinew_compute_capsule_mass(&c, 1.0f).mass;
		shape = sinew_create_capsule_shape(id, &s, &c);
	}
	if (SINEW_IS_NULL(shape)) {
		sinew_destroy_body(id);
		return sinew_null_body_id;
	}
	return id;
}

/* The band of a limited joint in the world's sense of turning: the fold side follows the live bend
 * flag, mirrored again for a LEFT-facing rig (docs/ragdoll.md, "Fold side"). */
static void joint_band(const sinew_ragdoll *rd, int part, bool flip, bool mirrored, float *lower, float *upper)
{
	const sinew_ragdoll_joint_def *jd = &rd->def.joints[part];
	*lower = jd->lower;
	*upper = jd->upper;
	bool is_lower = false;
	if (part_limb(part, &is_lower) >= 0 && is_lower && (flip != mirrored)) {
		*lower = -jd->upper;
		*upper = -jd->lower;
	}
}

sinew_joint_id ragdoll_build_joint(sinew_ragdoll *rd, int part, int parent, const sinew_rig_part_state *parts,
                                   const sinew_rig_pose *pose)
{
	const sinew_ragdoll_joint_def *jd = &rd->def.joints[part];
	bool is_lower = false;
	int limb = part_limb(part, &is_lower);
	float lower = 0.0f, upper = 0.0f;
	joint_band(rd, part, limb >= 0 ? pose->bend_flip[limb] : false, pose->facing == SINEW_FACING_LEFT, &lower, &upper);
	sinew_joint_base_def base = {0};
	base.body_a = rd->bodies[parent];
	base.body_b = rd->bodies[part];
	base.is_enabled = true;
	if (rd->def.joint_model == SINEW_RAGDOLL_GODOT) {
		sinew_pin_joint_def j = sinew_default_pin_joint_def();
		j.base = base;
		j.anchor = parts[part].origin;
		j.limit.enabled = jd->limit;
		j.limit.lower = lower;
		j.limit.upper = upper;
		j.limit.frame = SINEW_LIMIT_WORLD;
		return sinew_create_pin_joint(rd->world, &j);
	}
	sinew_revolute_joint_def j = sinew_default_revolute_joint_def();
	j.base = base;
	j.anchor = parts[part].origin;
	j.limit.enabled = jd->limit;
	j.limit.frame = SINEW_LIMIT_LOCAL;
	if (jd->from_straight) {
		/* Measured from the straight limb: the joint angle is the bones' relative angle. */
		float entry = ragdoll_wrap(parts[part].angle - parts[parent].angle);
		j.use_reference_angle = true;
		j.reference_angle = 0.0f;
		lower = sinew_minf(lower, entry);
		upper = sinew_maxf(upper, entry);
	}
	j.limit.lower = lower;
	j.limit.upper = upper;
	return sinew_create_revolute_joint(rd->world, &j);
}

/* Ten bodies and nine joints at the parts, each body with the rigid velocity (v, w) about root. */
static bool build(sinew_ragdoll *rd, const sinew_rig_part_state *parts, const sinew_rig_pose *pose, sinew_vec2 v,
                  float w)
{
	const sinew_rig_skeleton *sk = sinew_rig_get_skeleton(rd->rig);
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		rd->lengths[p] = p == SINEW_PART_HEAD ? sk->head_center : sinew_distance(parts[p].origin, parts[p].tip);
	}
	uint32_t group = 0;
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		rd->bodies[p] = ragdoll_build_body(rd, p, &parts[p], pose->root.p, v, w, group);
		if (SINEW_IS_NULL(rd->bodies[p])) goto fail;
		if (p == SINEW_PART_TORSO && !rd->def.self_collide) {
			group = RAGDOLL_GROUP_BASE | ((uint32_t)rd->bodies[p].index1 & 0x7fffffffu);
			sinew_shape_id s;
			if (sinew_body_get_shapes(rd->bodies[p], &s, 1) == 1) sinew_shape_set_group(s, group);
		}
	}
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		int parent = sk->bones[p].parent;
		if (parent < 0) continue;
		rd->joints[p] = ragdoll_build_joint(rd, p, parent, parts, pose);
		if (SINEW_IS_NULL(rd->joints[p])) goto fail;
	}
	return true;
fail:
	ragdoll_destroy_bodies(rd);
	return false;
}

/* ---------------------------------------------------------------- the state machine */

void ragdoll_write_pose(sinew_ragdoll *rd, const sinew_rig_pose *pose)
{
	sinew_rig_set_pose(rd->rig, pose);
	rd->unsolved = true;
	rd->unsolved_pose = *pose;
}

static bool set_state(sinew_ragdoll *rd, sinew_rig_state state)
{
	rd->state = state;
	return sinew_rig_set_state(rd->rig, state);
}

/* ANIMATED or RECOVERING -> RAGDOLL, from the figure as shown now. A fall from ANIMATED captures the
 * pre-ragdoll pose (the recovery's end target) and carries the rig's momentum; one during a
 * recovery keeps the first target and starts at rest (the stand-up moves the figure in place). */
static bool enter_ragdoll(sinew_ragdoll *rd)
{
	sinew_rig_part_state parts[SINEW_PART_COUNT];
	sinew_vec2 v = sinew_v2(0.0f, 0.0f);
	float w = 0.0f;
	sinew_rig_pose pose;
	if (!sinew_rig_get_pose(rd->rig, &pose)) return false;
	if (rd->state == SINEW_RIG_RECOVERING) {
		sinew_ragdoll_get_parts(rd, parts);
	} else {
		sinew_ragdoll_get_parts(rd, parts); /* a physical limb (limb.c) as it is shown */
		ragdoll_limbs_release(rd);
		rd->pre = pose;
		rd->has_pre = true;
		v = sinew_rig_get_linear_velocity(rd->rig);
		w = sinew_rig_get_angular_velocity(rd->rig);
		pose.root = sinew_rig_get_root(rd->rig);
	}
	if (!build(rd, parts, &pose, v, w)) return false;
	rd->unsolved = false;
	bool ok = set_state(rd, SINEW_RIG_RAGDOLL);
	ragdoll_power_on_build(rd);
	return ok;
}

bool sinew_ragdoll_set_enabled(sinew_ragdoll *rd, bool enabled)
{
	if (rd == NULL) return false;
	if (enabled) return rd->state == SINEW_RIG_RAGDOLL || enter_ragdoll(rd);
	if (rd->state != SINEW_RIG_RAGDOLL) return true;
	return ragdoll_begin_recovery(rd, true);
}

bool sinew_ragdoll_toggle(sinew_ragdoll *rd)
{
	if (rd == NULL) return false;
	return sinew_ragdoll_set_enabled(rd, rd->state != SINEW_RIG_RAGDOLL);
}

bool sinew_ragdoll_is_enabled(const sinew_ragdoll *rd) { return rd != NULL && rd->state == SINEW_RIG_RAGDOLL; }

sinew_rig_state sinew_ragdoll_get_state(const sinew_ragdoll *rd) { return rd ? rd->state : SINEW_RIG_ANIMATED; }

bool sinew_ragdoll_snap_to_standing(sinew_ragdoll *rd)
{
	if (rd == NULL) return false;
	if (rd->state == SINEW_RIG_RAGDOLL) {
		/* Straight to the standing pose: the rig never shows the snapped one. */
		if (!ragdoll_begin_recovery(rd, false)) return false;
		ragdoll_finish_recovery(rd, true);
	} else if (rd->state == SINEW_RIG_RECOVERING) {
		ragdoll_finish_recovery(rd, true);
	}
	return true;
}

bool sinew_ragdoll_update(sinew_ragdoll *rd, float dt)
{
	if (rd == NULL) return false;
	if (!(dt > 0.0f) || !isfinite(dt)) return refuse(rd->rig, SINEW_ERROR_INVALID_ARGUMENT, "sinew_ragdoll_update: dt must be finite and > 0");
	switch (rd->state) {
	case SINEW_RIG_ANIMATED:
	case SINEW_RIG_RAGDOLL: /* the rig keeps its bookkeeping (contacts, momentum) and poses nothing */
		rd->unsolved = false;
		if (!sinew_rig_update(rd->rig, dt)) return false;
		ragdoll_limbs_update(rd, dt); /* a physical limb's anchor, a rejoining limb's blend (limb.c) */
		ragdoll_power_update(rd, dt); /* the joints chase the rig's animated pose (power.c) */
		return true;
	case SINEW_RIG_RECOVERING:
		if (!ragdoll_recovery_step(rd, dt)) return true;
		ragdoll_finish_recovery(rd, false);
		rd->unsolved = false;
		return sinew_rig_update(rd->rig, dt);
	}
	return false;
}

bool sinew_ragdoll_set_joint_model(sinew_ragdoll *rd, sinew_ragdoll_joint_model model)
{
	if (rd == NULL) return false;
	if (model != SINEW_RAGDOLL_LOCAL && model != SINEW_RAGDOLL_GODOT)
		return refuse(rd->rig, SINEW_ERROR_INVALID_ARGUMENT, "sinew_ragdoll_set_joint_model: unknown joint model");
	rd->def.joint_model = model;
	return true;
}

sinew_ragdoll_joint_model sinew_ragdoll_get_joint_model(const sinew_ragdoll *rd)
{
	return rd ? rd->def.joint_model : SINEW_RAGDOLL_LOCAL;
}

/* ---------------------------------------------------------------- reading the figure */

sinew_body_id sinew_ragdoll_get_body(const sinew_ragdoll *rd, sinew_rig_part part)
{
	if (rd == NULL || (int)part < 0 || part >= SINEW_PART_COUNT) return sinew_null_body_id;
	return rd->bodies[part];
}

sinew_joint_id sinew_ragdoll_get_joint(const sinew_ragdoll *rd, sinew_rig_part part)
{
	if (rd == NULL || (int)part < 0 || part >= SINEW_PART_COUNT) return sinew_null_joint_id;
	return rd->joints[part];
}

void ragdoll_body_part(const sinew_ragdoll *rd, int p, sinew_rig_part_state *part)
{
	sinew_transform xf = sinew_body_get_transform(rd->bodies[p]);
	sinew_vec2 dir = sinew_v2(xf.q.c, xf.q.s);
	float back = p == SINEW_PART_HEAD ? rd->lengths[p] : 0.5f * rd->lengths[p];
	float len = p == SINEW_PART_HEAD ? sinew_rig_get_skeleton(rd->rig)->bones[p].length : rd->lengths[p];
	part->center = xf.p;
	part->angle = sinew_rot_angle(xf.q);
	part->origin = sinew_mul_sub(xf.p, back, dir);
	part->tip = sinew_mul_add(part->origin, len, dir);
}

void ragdoll_body_parts(const sinew_ragdoll *rd, sinew_rig_part_state parts[SINEW_PART_COUNT])
{
	for (int p = 0; p < SINEW_PART_COUNT; ++p) ragdoll_body_part(rd, p, &parts[p]);
}

void sinew_ragdoll_get_parts(const sinew_ragdoll *rd, sinew_rig_part_state parts[SINEW_PART_COUNT])
{
	if (parts == NULL) return;
	if (rd == NULL) {
		memset(parts, 0, SINEW_PART_COUNT * sizeof *parts);
	} else if (rd->state == SINEW_RIG_RAGDOLL) {
		ragdoll_body_parts(rd, parts);
	} else if (rd->unsolved) {
		sinew_rig_solve_pose(rd->rig, &rd->unsolved_pose, parts);
	} else {
		for (int p = 0; p < SINEW_PART_COUNT; ++p) parts[p] = sinew_rig_get_part(rd->rig, p);
		ragdoll_limbs_override(rd, parts);
	}
}

sinew_rig_part_state sinew_ragdoll_get_part(const sinew_ragdoll *rd, sinew_rig_part part)
{
	sinew_rig_part_state parts[SINEW_PART_COUNT];
	sinew_rig_part_state none = {{0.0f, 0.0f}, {0.0f, 0.0f}, {0.0f, 0.0f}, 0.0f};
	if (rd == NULL || (int)part < 0 || part >= SINEW_PART_COUNT) return none;
	sinew_ragdoll_get_parts(rd, parts);
	return parts[part];
}

float sinew_ragdoll_get_joint_separation_max(const sinew_ragdoll *rd)
{
	float m = 0.0f;
	if (rd == NULL || rd->state != SINEW_RIG_RAGDOLL) return 0.0f;
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		if (sinew_joint_is_valid(rd->joints[p])) m = sinew_maxf(m, sinew_joint_get_linear_error(rd->joints[p]));
	}
	return m;
}

float sinew_ragdoll_get_limit_overshoot_max(const sinew_ragdoll *rd)
{
	float m = 0.0f;
	if (rd == NULL || rd->state != SINEW_RIG_RAGDOLL) return 0.0f;
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		if (sinew_joint_is_valid(rd->joints[p])) m = sinew_maxf(m, sinew_joint_get_limit_violation(rd->joints[p]));
	}
	return m;
}

/* ---------------------------------------------------------------- drawing */

#define RAGDOLL_RING_SEGMENTS 36

void sinew_ragdoll_draw(const sinew_ragdoll *rd, const sinew_debug_draw *draw)
{
	if (rd == NULL || draw == NULL) return;
	if (rd->state != SINEW_RIG_RAGDOLL && !ragdoll_limbs_active(rd)) {
		sinew_rig_draw(rd->rig, draw);
		return;
	}
	/* The rig's look (rig/draw.c) on the ragdoll's bodies: bones as round-capped strokes limb_width
	 * wide, the head a ring of the same width. */
	const sinew_rig_skeleton *sk = sinew_rig_get_skeleton(rd->rig);
	const sinew_color ink = {0.08f, 0.08f, 0.1f, 1.0f};
	float half = 0.5f * sk->limb_width;
	sinew_rig_part_state parts[SINEW_PART_COUNT];
	sinew_ragdoll_get_parts(rd, parts);
	sinew_vec2 head = parts[SINEW_PART_HEAD].center;
	if (draw->draw_solid_capsule == NULL || !(half > 0.0f)) {
		for (int p = 0; p < SINEW_PART_COUNT && draw->draw_segment != NULL; ++p) {
			if (p != SINEW_PART_HEAD) draw->draw_segment(parts[p].origin, parts[p].tip, ink, draw->context);
		}
		if (draw->draw_circle != NULL) draw->draw_circle(head, sk->head_radius, ink, draw->context);
		return;
	}
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		if (p != SINEW_PART_HEAD) draw->draw_solid_capsule(parts[p].origin, parts[p].tip, half, ink, ink, draw->context);
	}
	sinew_vec2 previous = sinew_v2(head.x + sk->head_radius, head.y);
	for (int i = 1; i <= RAGDOLL_RING_SEGMENTS; ++i) {
		float a = 2.0f * SINEW_PI * (float)i / (float)RAGDOLL_RING_SEGMENTS;
		sinew_vec2 q = sinew_v2(head.x + sk->head_radius * cosf(a), head.y + sk->head_radius * sinf(a));
		draw->draw_solid_capsule(previous, q, half, ink, ink, draw->context);
		previous = q;
	}
	ragdoll_power_draw(rd, draw);
}
