/* ragdoll/power.c: the powered ragdoll (docs/ragdoll.md, "Powered ragdoll"): each joint chases the
 * rig's animated pose.
 *
 * Every frame while RAGDOLL (ragdoll_power_update, before the world step):
 *   1. the rig's pose is solved as its update would (IK, look-at, FK: sinew_rig_solve_pose_ik), so
 *      a game that keeps animating the hidden rig (markers, bone angles, the root) moves the targets;
 *   2. each joint's target is the relative angle of its child bone to its parent in that pose, less
 *      the joint's reference angle: the joint's own frame, which turns with the parent body, so the
 *      target holds however the figure tumbles. (A body's angle is its bone's world direction, and
 *      a relative angle does not see the root's rotation; the LEFT mirror is inside the solved
 *      directions.)
 *   3. the drive is written: a SPRING gets hertz x sqrt(influence) (its stiffness scales with the
 *      influence) and the target as the representative nearest the joint's angle now, so it pulls
 *      the short way round; a MOTOR gets the speed target_speed + gain x error and the torque
 *      max_torque x influence. Influence is the figure's times the limb's.
 *   4. the root pull: two target joints pull the torso's hips and neck points towards the animated
 *      ones, each with half the max force x the figure's influence.
 * A write wakes the bodies, so only what changed is written: a limp figure is never touched. */
#include "internal.h"

#include <math.h>
#include <string.h>

#define POWER_PI 3.14159265358979f
/** Fastest motor speed a servo asks for, rad/s (a target far off does not spin the limb round). */
#define POWER_MAX_SERVO_SPEED 40.0f

static const char *const preset_names[SINEW_POWER_PRESET_COUNT] = {"limp", "loose", "braced", "stiff"};

const char *sinew_ragdoll_power_preset_name(sinew_ragdoll_power_preset preset)
{
	return (int)preset >= 0 && preset < SINEW_POWER_PRESET_COUNT ? preset_names[preset] : NULL;
}

bool sinew_ragdoll_power_preset_from_name(const char *name, sinew_ragdoll_power_preset *preset)
{
	for (int i = 0; name != NULL && i < SINEW_POWER_PRESET_COUNT; ++i) {
		if (strcmp(name, preset_names[i]) == 0) {
			if (preset) *preset = (sinew_ragdoll_power_preset)i;
			return true;
		}
	}
	return false;
}

/* ---------------------------------------------------------------- the tables */

static sinew_ragdoll_drive spring(float hertz, float damping_ratio)
{
	sinew_ragdoll_drive d = {SINEW_DRIVE_SPRING, hertz, damping_ratio, 0.0f, 0.0f};
	return d;
}

static sinew_ragdoll_drive motor(float gain, float max_torque)
{
	sinew_ragdoll_drive d = {SINEW_DRIVE_MOTOR, 0.0f, 0.0f, gain, max_torque};
	return d;
}

/* The presets (docs/ragdoll.md lists them with what each does to a push). Torques are the game's
 * kg px^2/s^2: a straight arm held out level weighs about 3.9e5 on its shoulder, a leg about 3.9e5
 * on its hip when the figure lies on its back and lifts it. */
void ragdoll_power_default_def(sinew_ragdoll_def *d)
{
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		bool leg = p >= SINEW_PART_LEFT_UPPER_LEG;
		d->power_presets[SINEW_POWER_LIMP][p] = (sinew_ragdoll_drive){SINEW_DRIVE_OFF, 0.0f, 0.0f, 0.0f, 0.0f};
		d->power_presets[SINEW_POWER_LOOSE][p] = spring(2.0f, 0.3f);
		d->power_presets[SINEW_POWER_BRACED][p] = spring(leg ? 8.0f : 6.0f, 0.8f);
		d->power_presets[SINEW_POWER_STIFF][p] = motor(20.0f, leg ? 6.0e6f : 3.0e6f);
	}
	d->power = SINEW_POWER_LIMP;
	d->influence = 1.0f;
	d->root_pull = (sinew_ragdoll_root_pull){false, 8.0f, 1.0f, 40000.0f};
	d->limb_rejoin_duration = 0.5f; /* the partial ragdoll's (limb.c) */
}

static bool unit_interval(float x) { return x >= 0.0f && x <= 1.0f; }

static bool drive_is_valid(const sinew_ragdoll_drive *d)
{
	switch (d->mode) {
	case SINEW_DRIVE_OFF: return true;
	case SINEW_DRIVE_SPRING:
		return d->hertz > 0.0f && d->hertz <= SINEW_MAX_HERTZ && d->damping_ratio >= 0.0f && isfinite(d->damping_ratio);
	case SINEW_DRIVE_MOTOR:
		return d->gain > 0.0f && isfinite(d->gain) && d->max_torque > 0.0f && d->max_torque <= SINEW_MAX_FORCE;
	}
	return false;
}

static bool pull_is_valid(const sinew_ragdoll_root_pull *r)
{
	return r->hertz > 0.0f && r->hertz <= SINEW_MAX_HERTZ && r->damping_ratio >= 0.0f && isfinite(r->damping_ratio) &&
	       r->max_force >= 0.0f && r->max_force <= SINEW_MAX_FORCE;
}

bool ragdoll_power_def_is_valid(const sinew_ragdoll_def *d)
{
	for (int s = 0; s < SINEW_POWER_PRESET_COUNT; ++s) {
		for (int p = 0; p < SINEW_PART_COUNT; ++p) {
			if (!drive_is_valid(&d->power_presets[s][p])) return false;
		}
	}
	return (int)d->power >= 0 && d->power < SINEW_POWER_PRESET_COUNT && unit_interval(d->influence) &&
	       pull_is_valid(&d->root_pull) && d->limb_rejoin_duration >= 0.0f && isfinite(d->limb_rejoin_duration);
}

void ragdoll_power_init(sinew_ragdoll *rd)
{
	ragdoll_power *pw = &rd->power;
	memset(pw, 0, sizeof *pw);
	memcpy(pw->drives, rd->def.power_presets[rd->def.power], sizeof pw->drives);
	pw->influence = rd->def.influence;
	for (int l = 0; l < SINEW_LIMB_COUNT; ++l) pw->limb_influence[l] = 1.0f;
	pw->root_pull = rd->def.root_pull;
	pw->pull[0] = pw->pull[1] = sinew_null_joint_id;
}

/* ---------------------------------------------------------------- setters */

static bool refuse(const sinew_ragdoll *rd, const char *message)
{
	sinew_world_report_error(rd ? rd->world : sinew_null_world_id, SINEW_ERROR_INVALID_ARGUMENT, message);
	return false;
}

static bool is_joint_part(sinew_rig_part part) { return (int)part > SINEW_PART_TORSO && part < SINEW_PART_COUNT; }

bool sinew_ragdoll_set_power(sinew_ragdoll *rd, sinew_ragdoll_power_preset preset)
{
	if (rd == NULL) return false;
	if ((int)preset < 0 || preset >= SINEW_POWER_PRESET_COUNT) return refuse(rd, "sinew_ragdoll_set_power: unknown preset");
	memcpy(rd->power.drives, rd->def.power_presets[preset], sizeof rd->power.drives);
	return true;
}

bool sinew_ragdoll_set_joint_drive(sinew_ragdoll *rd, sinew_rig_part part, const sinew_ragdoll_drive *drive)
{
	if (rd == NULL) return false;
	if (!is_joint_part(part)) return refuse(rd, "sinew_ragdoll_set_joint_drive: part must name a joint's child part (not the torso)");
	if (drive == NULL || !drive_is_valid(drive))
		return refuse(rd, "sinew_ragdoll_set_joint_drive: a spring needs hertz > 0 and damping_ratio >= 0, a motor gain > 0 "
		                  "and max_torque > 0 (all finite), and the mode must be OFF, SPRING or MOTOR");
	rd->power.drives[part] = *drive;
	return true;
}

sinew_ragdoll_drive sinew_ragdoll_get_joint_drive(const sinew_ragdoll *rd, sinew_rig_part part)
{
	sinew_ragdoll_drive none = {SINEW_DRIVE_OFF, 0.0f, 0.0f, 0.0f, 0.0f};
	return rd != NULL && is_joint_part(part) ? rd->power.drives[part] : none;
}

bool sinew_ragdoll_set_influence(sinew_ragdoll *rd, float influence)
{
	if (rd == NULL) return false;
	if (!unit_interval(influence)) return refuse(rd, "sinew_ragdoll_set_influence: influence must be in [0, 1]");
	rd->power.influence = influence;
	return true;
}

float sinew_ragdoll_get_influence(const sinew_ragdoll *rd) { return rd ? rd->power.influence : 0.0f; }

bool sinew_ragdoll_set_limb_influence(sinew_ragdoll *rd, sinew_rig_limb limb, float influence)
{
	if (rd == NULL) return false;
	if ((int)limb < 0 || limb >= SINEW_LIMB_COUNT) return refuse(rd, "sinew_ragdoll_set_limb_influence: unknown limb");
	if (!unit_interval(influence)) return refuse(rd, "sinew_ragdoll_set_limb_influence: influence must be in [0, 1]");
	rd->power.limb_influence[limb] = influence;
	return true;
}

float sinew_ragdoll_get_limb_influence(const sinew_ragdoll *rd, sinew_rig_limb limb)
{
	return rd != NULL && (int)limb >= 0 && limb < SINEW_LIMB_COUNT ? rd->power.limb_influence[limb] : 0.0f;
}

bool sinew_ragdoll_set_root_pull(sinew_ragdoll *rd, const sinew_ragdoll_root_pull *pull)
{
	if (rd == NULL) return false;
	if (pull == NULL || !pull_is_valid(pull))
		return refuse(rd, "sinew_ragdoll_set_root_pull: hertz must be > 0, damping_ratio and max_force >= 0 (all finite)");
	rd->power.root_pull = *pull;
	return true;
}

sinew_ragdoll_root_pull sinew_ragdoll_get_root_pull(const sinew_ragdoll *rd)
{
	sinew_ragdoll_root_pull none = {false, 0.0f, 0.0f, 0.0f};
	return rd ? rd->power.root_pull : none;
}

bool sinew_ragdoll_get_joint_target(const sinew_ragdoll *rd, sinew_rig_part part, float *angle)
{
	if (rd == NULL || !is_joint_part(part) || !rd->power.has_targets || !sinew_joint_is_valid(rd->joints[part])) return false;
	if (angle) *angle = rd->power.targets[part];
	return true;
}

/* ---------------------------------------------------------------- the drive */

/* The influence of a joint: the figure's, times its limb's (the neck has none of its own). */
static float joint_influence(const ragdoll_power *pw, int part)
{
	float k = pw->influence;
	if (part >= SINEW_PART_LEFT_UPPER_ARM) k *= pw->limb_influence[(part - SINEW_PART_LEFT_UPPER_ARM) / 2];
	return k;
}

void ragdoll_power_release(sinew_ragdoll *rd)
{
	for (int i = 0; i < 2; ++i) {
		if (sinew_joint_is_valid(rd->power.pull[i])) sinew_destroy_joint(rd->power.pull[i]);
		rd->power.pull[i] = sinew_null_joint_id;
	}
	rd->power.has_targets = false;
}

void ragdoll_power_on_build(sinew_ragdoll *rd)
{
	/* the joints were built with no spring and no motor: that is what was last written */
	memset(rd->power.spring, 0, sizeof rd->power.spring);
	memset(rd->power.motor, 0, sizeof rd->power.motor);
	rd->power.has_targets = false;
	ragdoll_power_update(rd, 0.0f);
}

static bool same_spring(const sinew_joint_spring *a, const sinew_joint_spring *b)
{
	if (!a->enabled && !b->enabled) return true;
	return a->enabled == b->enabled && a->hertz == b->hertz && a->damping_ratio == b->damping_ratio && a->target == b->target;
}

static bool same_motor(const sinew_joint_motor *a, const sinew_joint_motor *b)
{
	if (!a->enabled && !b->enabled) return true;
	return a->enabled == b->enabled && a->speed == b->speed && a->max_effort == b->max_effort;
}

/* Write one joint's spring and motor for a target in the joint's frame moving at target_speed. */
static void drive_joint(sinew_ragdoll *rd, int part, float target, float target_speed)
{
	ragdoll_power *pw = &rd->power;
	sinew_joint_id joint = rd->joints[part];
	const sinew_ragdoll_drive *d = &pw->drives[part];
	float k = joint_influence(pw, part);
	sinew_joint_spring s = {false, 0.0f, 0.0f, 0.0f};
	sinew_joint_motor m = {false, 0.0f, 0.0f};
	if (k > 0.0f && d->mode != SINEW_DRIVE_OFF) {
		float angle = sinew_joint_get_angle(joint);
		float error = ragdoll_wrap(target - angle);
		if (d->mode == SINEW_DRIVE_SPRING) {
			s.enabled = true;
			s.hertz = d->hertz * sqrtf(k);
			s.damping_ratio = d->damping_ratio;
			s.target = angle + error; /* the short way round from where the joint is */
		} else {
			m.enabled = true;
			m.speed = sinew_clampf(target_speed + d->gain * error, -POWER_MAX_SERVO_SPEED, POWER_MAX_SERVO_SPEED);
			m.max_effort = d->max_torque * k;
		}
	}
	if (!same_spring(&s, &pw->spring[part])) {
		sinew_joint_set_spring(joint, s);
		pw->spring[part] = s;
	}
	if (!same_motor(&m, &pw->motor[part])) {
		sinew_joint_set_motor(joint, m);
		pw->motor[part] = m;
	}
}

/* The root pull: springs from the torso's hips (origin) and neck (tip) to the animated ones. */
static void pull_root(sinew_ragdoll *rd, const sinew_rig_part_state *torso)
{
	ragdoll_power *pw = &rd->power;
	float force = pw->root_pull.max_force * pw->influence;
	if (!pw->root_pull.enabled || !(force > 0.0f)) {
		for (int i = 0; i < 2; ++i) {
			if (sinew_joint_is_valid(pw->pull[i])) sinew_destroy_joint(pw->pull[i]);
			pw->pull[i] = sinew_null_joint_id;
		}
		return;
	}
	sinew_body_id body = rd->bodies[SINEW_PART_TORSO];
	sinew_transform xf = sinew_body_get_transform(body);
	float half = 0.5f * rd->lengths[SINEW_PART_TORSO];
	sinew_vec2 ends[2] = {torso->origin, torso->tip};
	for (int i = 0; i < 2; ++i) {
		if (!sinew_joint_is_valid(pw->pull[i])) {
			sinew_target_joint_def j = sinew_default_target_joint_def();
			j.base.body_b = body;
			j.anchor = sinew_transform_point(xf, sinew_v2(i == 0 ? -half : half, 0.0f));
			j.target = ends[i];
			j.hertz = pw->root_pull.hertz;
			j.damping_ratio = pw->root_pull.damping_ratio;
			j.max_force = 0.5f * force;
			pw->pull[i] = sinew_create_target_joint(rd->world, &j);
			continue;
		}
		float hertz = 0.0f, zeta = 0.0f, max_force = 0.0f;
		sinew_target_joint_get_tuning(pw->pull[i], &hertz, &zeta, &max_force);
		if (hertz != pw->root_pull.hertz || zeta != pw->root_pull.damping_ratio || max_force != 0.5f * force)
			sinew_target_joint_set_tuning(pw->pull[i], pw->root_pull.hertz, pw->root_pull.damping_ratio, 0.5f * force);
		sinew_vec2 old = sinew_target_joint_get_target(pw->pull[i]);
		if (old.x != ends[i].x || old.y != ends[i].y) sinew_target_joint_set_target(pw->pull[i], ends[i]);
	}
}

void ragdoll_power_update(sinew_ragdoll *rd, float dt)
{
	ragdoll_power *pw = &rd->power;
	bool whole = rd->state == SINEW_RIG_RAGDOLL;
	if ((!whole && !ragdoll_limbs_physical(rd)) || !sinew_body_is_valid(rd->bodies[SINEW_PART_TORSO])) return;
	sinew_rig_pose pose;
	sinew_rig_part_state parts[SINEW_PART_COUNT];
	if (!sinew_rig_get_pose(rd->rig, &pose) || !sinew_rig_solve_pose_ik(rd->rig, &pose, parts)) return;
	const sinew_rig_skeleton *sk = sinew_rig_get_skeleton(rd->rig);
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		int parent = sk->bones[p].parent;
		sinew_joint_id joint = rd->joints[p];
		if (parent < 0 || !sinew_joint_is_valid(joint) || sinew_joint_get_type(joint) != SINEW_REVOLUTE_JOINT) continue;
		float target = ragdoll_wrap(parts[p].angle - parts[parent].angle - sinew_joint_get_reference_angle(joint));
		float speed = pw->has_targets && dt > 0.0f ? ragdoll_wrap(target - pw->targets[p]) / dt : 0.0f;
		pw->targets[p] = target;
		drive_joint(rd, p, target, speed);
	}
	pw->has_targets = true;
	if (whole) pull_root(rd, &parts[SINEW_PART_TORSO]); /* a partial ragdoll's torso is animated */
}

/* ---------------------------------------------------------------- drawing */

/* A driven joint: a ring at the joint, and a line from it along the direction the child bone is
 * asked for (its target), its length and strength of colour growing with the influence. */
void ragdoll_power_draw(const sinew_ragdoll *rd, const sinew_debug_draw *draw)
{
	const ragdoll_power *pw = &rd->power;
	if (!pw->has_targets || draw->draw_segment == NULL) return;
	const sinew_rig_skeleton *sk = sinew_rig_get_skeleton(rd->rig);
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		int parent = sk->bones[p].parent;
		float k = joint_influence(pw, p);
		if (parent < 0 || pw->drives[p].mode == SINEW_DRIVE_OFF || !(k > 0.0f) || !sinew_joint_is_valid(rd->joints[p]))
			continue;
		sinew_color color = {0.95f, 0.45f * (1.0f - k) + 0.2f, 0.05f, 0.35f + 0.65f * k};
		sinew_transform a = sinew_body_get_transform(rd->bodies[parent]);
		sinew_transform b = sinew_body_get_transform(rd->bodies[p]);
		float back = p == SINEW_PART_HEAD ? rd->lengths[p] : 0.5f * rd->lengths[p];
		sinew_vec2 joint = sinew_mul_sub(b.p, back, sinew_v2(b.q.c, b.q.s));
		float direction = sinew_rot_angle(a.q) + sinew_joint_get_reference_angle(rd->joints[p]) + pw->targets[p];
		float length = (p == SINEW_PART_HEAD ? sk->bones[p].length : rd->lengths[p]) * (0.4f + 0.6f * k);
		sinew_vec2 end = sinew_v2(joint.x + length * cosf(direction), joint.y + length * sinf(direction));
		draw->draw_segment(joint, end, color, draw->context);
		if (draw->draw_circle != NULL) draw->draw_circle(joint, 0.75f * sk->limb_width, color, draw->context);
	}
	for (int i = 0; i < 2 && draw->draw_point != NULL; ++i) {
		if (sinew_joint_is_valid(pw->pull[i]))
			draw->draw_point(sinew_target_joint_get_target(pw->pull[i]), 6.0f, (sinew_color){0.95f, 0.45f, 0.05f, 1.0f},
			                 draw->context);
	}
}
