/* rig/terrain.c: the rig's terrain controller (docs/terrain.md). Four states: DISABLED,
 * AIRBORNE, GROUNDED, LANDING_IMPACT. Grounded, the root rides on the terrain under its centre
 * and the feet step on the terrain under each of them; airborne, the root keeps its takeoff
 * momentum under drag and capped gravity, sweeps sideways with the rig's own proxies, and the
 * limbs take an additive air pose; a landing is soft, or an impact whose depth follows the fall
 * height. The constants are rig.h's SINEW_RIG_* (docs/terrain.md, "Constants").
 *
 * Every write goes through rig.h; every read of the world through sinew.h's queries. Time is
 * the dt the rig is given, never a clock, so the controller is deterministic. */
#include "terrain.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* The four limb markers the air pose and the landing own, in the order of sinew_rig_marker. */
enum { LIMBS = 4, HANDS = 2, FEET = 2 };
static const sinew_rig_marker foot_marker[FEET] = {SINEW_MARKER_LEFT_FOOT, SINEW_MARKER_RIGHT_FOOT};

/* A rest stance is used when the skeleton's rest feet give none (px below the hips). */
#define FALLBACK_RIDE_HEIGHT 385.0f
/* A timeline that ends within this of its length has ended (float sums of dt drift by ulps). */
#define TIME_EPSILON 1e-5f
/* Fall heights are measured to 1/1024 px, so a fall authored as 80 px is 80 px whatever the
 * rounding of the ray that found the ground. */
#define FALL_QUANTUM 1024.0f
/* After a ragdoll's stand-up the controller takes over the pose the recovery ended in; whatever of
 * it the controller would place differently (a foot over a slope, an air pose's feet) it blends
 * into its own placement over this long (docs/terrain.md, "After a ragdoll"), s. */
#define RESUME_DURATION 0.25f

struct rig_terrain {
	sinew_rig_motion motion;
	uint32_t mask;          /* layers the probes and sweeps see */
	bool warned;            /* the one missing-proxy warning was given */

	/* stance, from the skeleton's rest pose (the first time it is needed) */
	bool stance_known;
	float ride_height;      /* hips above the ground when standing, px */
	float foot_base_x[FEET];

	/* walking and the gait */
	float walk_speed;       /* signed, px/s */
	float walk_velocity;    /* the last grounded frame's actual signed x velocity, px/s */
	float gait_phase;       /* [0, 1): left foot's phase; the right foot is half a cycle on */
	float gait_amount;      /* 0 standing .. 1 full stride */
	float gait_dir;         /* the stride's direction in the rig frame, +1 or -1: the last walk's, so a
	                           stopping stride fades where it was rather than mirrored */

	/* airborne */
	sinew_vec2 air_velocity;
	float air_time;
	float air_top_y;        /* highest (smallest) root y of this fall */
	float air_pose_weight;
	float air_forward_weight;
	bool air_blocked;       /* a sweep stopped this fall: the hands reach no further forward */
	bool air_pose_captured;
	sinew_vec2 air_base[LIMBS]; /* limb markers at takeoff, rig frame */

	/* landing impact */
	float landing_elapsed;
	float landing_impact_speed;
	float landing_compression;
	float landing_hand_drop;
	sinew_vec2 landing_torso_base;
	float landing_torso_angle;
	sinew_vec2 landing_hand_start[HANDS];
	sinew_vec2 landing_contacts[FEET]; /* world */

	/* resuming after a ragdoll: the next grounded frame re-seeds from the pose as it stands */
	bool resume_pending;
	float resume_left;            /* seconds of the resume blend still to run */
	float resume_root_dy;         /* the recovered root y less the controller's, at the re-seed */
	sinew_vec2 resume_feet[FEET]; /* the recovered foot markers less the controller's, rig frame */
	/* a landing the ragdoll cut short: the stance it was recovering to (its torso base and the
	 * takeoff hands), which the resume blend returns the torso and hands to */
	bool resume_stance;
	sinew_vec2 stance_torso, stance_hands[HANDS];
	float stance_torso_angle;
	sinew_vec2 resume_torso, resume_hands[HANDS]; /* the recovered pose less the stance, rig frame */
	float resume_torso_angle;
};

/* ---------------------------------------------------------------- small maths */

static float smoothstep(float edge0, float edge1, float x)
{
	float t = sinew_clampf((x - edge0) / (edge1 - edge0), 0.0f, 1.0f);
	return t * t * (3.0f - 2.0f * t);
}

static float lerpf(float a, float b, float t) { return a + (b - a) * t; }

/* The fraction of the landing depth at elapsed time e: quadratic ease-out down over the
 * compression, sine-out back over the recovery. */
static float impact_profile(float e)
{
	if (e <= 0.0f) return 0.0f;
	if (e < SINEW_RIG_LANDING_COMPRESS_DURATION) {
		float u = 1.0f - e / SINEW_RIG_LANDING_COMPRESS_DURATION;
		return 1.0f - u * u;
	}
	float u = (e - SINEW_RIG_LANDING_COMPRESS_DURATION) / SINEW_RIG_LANDING_RECOVER_DURATION;
	if (u >= 1.0f) return 0.0f;
	return 1.0f - sinf(0.5f * SINEW_PI * u);
}

/* ---------------------------------------------------------------- probes */

typedef struct probe_hit {
	sinew_rig *rig;
	float fraction;
	float y;
	bool hit;
} probe_hit;

/* Terrain is static or kinematic, not a rig's proxy, and faces up (y is down). */
static float probe_ray_fn(const sinew_ray_hit *hit, void *context)
{
	probe_hit *p = context;
	if (sinew_rig_from_body(hit->body, NULL, NULL)) return -1.0f;
	if (sinew_body_get_type(hit->body) == SINEW_DYNAMIC_BODY) return -1.0f;
	if (-hit->normal.y < SINEW_RIG_TERRAIN_UPWARD_MIN) return -1.0f;
	if (!p->hit || hit->fraction < p->fraction) {
		p->hit = true;
		p->fraction = hit->fraction;
		p->y = hit->point.y;
	}
	return hit->fraction;
}

/* The upward-facing terrain a fan of `rays` (odd) vertical rays, half_width either side of x,
 * meets between y0 and y1 (world, y1 > y0): under the middle ray if it meets any, else the highest
 * the others meet (so a fan holds on at an edge the middle has passed). */
static bool probe_fan(sinew_rig *rig, const rig_terrain *t, float x, float half_width, int rays, float y0, float y1,
                      float *ground_y)
{
	sinew_body_id proxies[SINEW_PART_COUNT];
	int n = 0;
	for (int i = 0; i < SINEW_PART_COUNT; ++i) {
		sinew_body_id b = sinew_rig_get_proxy(rig, (sinew_rig_part)i);
		if (sinew_body_is_valid(b)) proxies[n++] = b;
	}
	sinew_query_filter filter = sinew_default_query_filter();
	filter.mask = t->mask;
	filter.exclude_bodies = proxies;
	filter.exclude_body_count = n;
	bool found = false;
	int middle = rays / 2;
	for (int k = 0; k < rays; ++k) {
		int r = (middle + k) % rays; /* the middle ray first */
		float rx = rays > 1 ? x - half_width + 2.0f * half_width * (float)r / (float)(rays - 1) : x;
		probe_hit p = {rig, 1.0f, 0.0f, false};
		sinew_world_cast_ray(sinew_rig_get_world(rig), sinew_v2(rx, y0), sinew_v2(0.0f, y1 - y0), &filter,
		                     probe_ray_fn, &p);
		if (p.hit && (!found || p.y < *ground_y)) *ground_y = p.y;
		found = found || p.hit;
		if (found && k == 0) return true;
	}
	return found;
}

/* The support under the root's centre: terrain from the hips down to the feet plus reach (px
 * below the standing feet), accepted when it is no higher than a step above the feet. */
static bool probe_center(sinew_rig *rig, const rig_terrain *t, float x, float reach, float *ground_y)
{
	float hips = sinew_rig_get_root(rig).p.y;
	float feet = hips + t->ride_height;
	if (!probe_fan(rig, t, x, SINEW_RIG_TERRAIN_PROBE_HALF_WIDTH, SINEW_RIG_TERRAIN_PROBE_RAYS, hips, feet + reach,
	               ground_y))
		return false;
	return *ground_y >= feet - SINEW_RIG_TERRAIN_STEP_HEIGHT;
}

/* The ground under one foot at world x, within a step of the centre's ground; else the centre's. */
static float probe_foot(sinew_rig *rig, const rig_terrain *t, float x, float center_y)
{
	float y;
	float top = center_y - SINEW_RIG_TERRAIN_STEP_HEIGHT;
	if (probe_fan(rig, t, x, SINEW_RIG_TERRAIN_FOOT_HALF_WIDTH, SINEW_RIG_TERRAIN_FOOT_RAYS, top,
	              center_y + SINEW_RIG_TERRAIN_SUPPORT_RANGE, &y))
		return y;
	return center_y;
}

/* ---------------------------------------------------------------- the sweep */

static void warn_once(sinew_rig *rig, rig_terrain *t, const char *what)
{
	if (t->warned) return;
	t->warned = true;
	const char *name = sinew_rig_get_name(rig);
	char message[160];
	snprintf(message, sizeof message, "sinew_rig_update: rig '%s': %s, so its terrain motion moves unswept (reported once)",
	         name ? name : "", what);
	sinew_world_report_error(sinew_rig_get_world(rig), SINEW_ERROR_INVALID_ARGUMENT, message);
}

/* The safe fraction of a horizontal move for the rig's proxies (all ten, or the torso and head
 * for a walker, whose legs step over what is below its hips). 1 without proxies, after one
 * report through the world's error callback. */
static float sweep(sinew_rig *rig, rig_terrain *t, sinew_vec2 motion, bool upper_body)
{
	sinew_body_id proxies[SINEW_PART_COUNT];
	for (int i = 0; i < SINEW_PART_COUNT; ++i) {
		proxies[i] = sinew_rig_get_proxy(rig, (sinew_rig_part)i);
		if (!sinew_body_is_valid(proxies[i])) {
			warn_once(rig, t, "no collision proxies");
			return 1.0f;
		}
	}
	if (!sinew_rig_get_proxies_enabled(rig)) {
		warn_once(rig, t, "collision proxies disabled");
		return 1.0f;
	}
	sinew_query_filter filter = sinew_default_query_filter();
	filter.mask = t->mask;
	filter.exclude_bodies = proxies;
	filter.exclude_body_count = SINEW_PART_COUNT;
	float fraction = 1.0f;
	int count = upper_body ? SINEW_PART_HEAD + 1 : SINEW_PART_COUNT;
	for (int i = 0; i < count; ++i) {
		float safe = 1.0f, unsafe = 1.0f;
		if (!sinew_world_cast_body_motion(sinew_rig_get_world(rig), proxies[i], motion, &filter, &safe, &unsafe)) {
			warn_once(rig, t, "a proxy sweep was refused");
			return 1.0f;
		}
		fraction = sinew_minf(fraction, safe);
	}
	return fraction;
}

static void move_root(sinew_rig *rig, float dx, float dy)
{
	sinew_transform root = sinew_rig_get_root(rig);
	root.p = sinew_v2(root.p.x + dx, root.p.y + dy);
	sinew_rig_set_root(rig, root);
}

static void set_root_y(sinew_rig *rig, float y)
{
	sinew_transform root = sinew_rig_get_root(rig);
	root.p.y = y;
	sinew_rig_set_root(rig, root);
}

/* ---------------------------------------------------------------- stance */

/* Ride height (the rest feet's height less the knee bend) and foot spacing from the skeleton's
 * rest pose, once. */
static void know_stance(sinew_rig *rig, rig_terrain *t)
{
	if (t->stance_known) return;
	sinew_rig_pose rest = sinew_rig_rest_pose(rig, sinew_transform_identity(), SINEW_FACING_RIGHT);
	float ride = 0.5f * (rest.markers[SINEW_MARKER_LEFT_FOOT].y + rest.markers[SINEW_MARKER_RIGHT_FOOT].y);
	ride -= SINEW_RIG_TERRAIN_KNEE_BEND;
	t->ride_height = (isfinite(ride) && ride > SINEW_RIG_TERRAIN_KNEE_BEND) ? ride : FALLBACK_RIDE_HEIGHT;
	for (int f = 0; f < FEET; ++f) {
		float x = rest.markers[foot_marker[f]].x;
		t->foot_base_x[f] = isfinite(x) ? x : 0.0f;
	}
	t->stance_known = true;
}

/* ---------------------------------------------------------------- the air pose */

static void capture_air_pose(sinew_rig *rig, rig_terrain *t)
{
	for (int m = 0; m < LIMBS; ++m) t->air_base[m] = sinew_rig_get_marker(rig, (sinew_rig_marker)m);
	t->air_pose_captured = true;
	t->air_pose_weight = 0.0f;
	t->air_forward_weight = 0.0f;
}

/* Write the captured markers back exactly and forget them. */
static void restore_air_pose(sinew_rig *rig, rig_terrain *t)
{
	if (!t->air_pose_captured) return;
	for (int m = 0; m < LIMBS; ++m) sinew_rig_set_marker(rig, (sinew_rig_marker)m, t->air_base[m]);
	t->air_pose_captured = false;
	t->air_pose_weight = 0.0f;
	t->air_forward_weight = 0.0f;
}

/* Additive to the takeoff pose: hands reach forward (rig +x) as the fall starts, then lift; hands
 * and feet flail, the two sides half a cycle apart. Offsets are rig-frame, so LEFT mirrors them. */
static void apply_air_pose(sinew_rig *rig, rig_terrain *t, float dt)
{
	if (!t->air_pose_captured) return;
	float down = sinew_maxf(t->air_velocity.y, 0.0f);
	float blend = 1.0f - expf(-SINEW_RIG_AIR_POSE_RESPONSE * dt);
	float weight = smoothstep(SINEW_RIG_AIR_POSE_START_SPEED, SINEW_RIG_AIR_POSE_FULL_SPEED, down);
	float forward = smoothstep(SINEW_RIG_AIR_HAND_FORWARD_START_SPEED, SINEW_RIG_AIR_HAND_FORWARD_FULL_SPEED, down);
	t->air_pose_weight = lerpf(t->air_pose_weight, weight, blend);
	if (t->air_blocked) forward = sinew_minf(forward, t->air_forward_weight);
	t->air_forward_weight = lerpf(t->air_forward_weight, forward, blend);
	float w = t->air_pose_weight;
	float phase = 2.0f * SINEW_PI * SINEW_RIG_AIR_FLAIL_HZ * t->air_time;
	for (int side = 0; side < 2; ++side) {
		float ph = phase + (float)side * SINEW_PI;
		sinew_vec2 hand = sinew_v2(SINEW_RIG_AIR_HAND_FORWARD * t->air_forward_weight +
		                               w * SINEW_RIG_AIR_HAND_FLAIL_X * cosf(ph),
		                           -SINEW_RIG_AIR_HAND_LIFT * w + w * SINEW_RIG_AIR_HAND_FLAIL_Y * sinf(ph));
		sinew_vec2 foot = sinew_v2(w * SINEW_RIG_AIR_FOOT_FLAIL_X * cosf(ph), w * SINEW_RIG_AIR_FOOT_FLAIL_Y * sinf(ph));
		sinew_rig_marker hm = side ? SINEW_MARKER_RIGHT_HAND : SINEW_MARKER_LEFT_HAND;
		sinew_rig_marker fm = side ? SINEW_MARKER_RIGHT_FOOT : SINEW_MARKER_LEFT_FOOT;
		sinew_rig_set_marker(rig, hm, sinew_add(t->air_base[hm], hand));
		sinew_rig_set_marker(rig, fm, sinew_add(t->air_base[fm], foot));
	}
}

/* ---------------------------------------------------------------- landing */

static void clear_landing(rig_terrain *t)
{
	t->landing_elapsed = 0.0f;
	t->landing_compression = 0.0f;
	t->landing_hand_drop = 0.0f;
	t->landing_impact_speed = 0.0f;
}

/* Write the torso base and the takeoff hands back exactly (restore) or leave the pose (a ragdoll
 * takes over), then forget the landing. */
static void end_landing(sinew_rig *rig, rig_terrain *t, bool restore)
{
	if (restore) {
		sinew_rig_set_torso(rig, t->landing_torso_base, t->landing_torso_angle);
		for (int h = 0; h < HANDS; ++h) sinew_rig_set_marker(rig, (sinew_rig_marker)h, t->air_base[h]);
	}
	t->air_pose_captured = false;
	t->air_pose_weight = 0.0f;
	t->air_forward_weight = 0.0f;
	clear_landing(t);
	t->motion = SINEW_MOTION_GROUNDED;
}

static void begin_landing(sinew_rig *rig, rig_terrain *t, float fall, float center_y)
{
	float u = sinew_clampf((fall - SINEW_RIG_HARD_LANDING_MIN_FALL_HEIGHT) /
	                           (SINEW_RIG_HARD_LANDING_MAX_FALL_HEIGHT - SINEW_RIG_HARD_LANDING_MIN_FALL_HEIGHT),
	                       0.0f, 1.0f);
	t->landing_compression = lerpf(SINEW_RIG_LANDING_COMPRESSION_MIN, SINEW_RIG_LANDING_COMPRESSION_MAX, u);
	t->landing_hand_drop = lerpf(SINEW_RIG_LANDING_HAND_DROP_MIN, SINEW_RIG_LANDING_HAND_DROP_MAX, u);
	t->landing_elapsed = 0.0f;
	sinew_rig_pose pose;
	sinew_rig_get_pose(rig, &pose);
	t->landing_torso_base = pose.torso;
	t->landing_torso_angle = pose.bones[SINEW_PART_TORSO];
	for (int h = 0; h < HANDS; ++h) t->landing_hand_start[h] = sinew_rig_get_marker(rig, (sinew_rig_marker)h);
	for (int f = 0; f < FEET; ++f) {
		sinew_vec2 foot = sinew_rig_to_world(rig, sinew_rig_get_marker(rig, foot_marker[f]));
		t->landing_contacts[f] = sinew_v2(foot.x, probe_foot(rig, t, foot.x, center_y));
		sinew_rig_set_marker(rig, foot_marker[f], sinew_rig_to_local(rig, t->landing_contacts[f]));
	}
	t->motion = SINEW_MOTION_LANDING_IMPACT;
}

/* The impact timeline: the torso sinks and recovers, the hands drop and blend back to their
 * takeoff pose over the whole timeline, the feet stay on their contacts; the root stays put. */
static void update_landing(sinew_rig *rig, rig_terrain *t, float dt)
{
	const float total = SINEW_RIG_LANDING_COMPRESS_DURATION + SINEW_RIG_LANDING_RECOVER_DURATION;
	t->landing_elapsed += dt;
	if (t->landing_elapsed >= total - TIME_EPSILON) {
		end_landing(rig, t, true);
		return;
	}
	float k = impact_profile(t->landing_elapsed);
	float blend = t->landing_elapsed / total;
	sinew_rig_set_torso(rig, sinew_v2(t->landing_torso_base.x, t->landing_torso_base.y + t->landing_compression * k),
	                    t->landing_torso_angle);
	for (int h = 0; h < HANDS; ++h) {
		sinew_vec2 hand = sinew_lerp(t->landing_hand_start[h], t->air_base[h], blend);
		hand.y += t->landing_hand_drop * k;
		sinew_rig_set_marker(rig, (sinew_rig_marker)h, hand);
	}
	for (int f = 0; f < FEET; ++f) sinew_rig_set_marker(rig, foot_marker[f], sinew_rig_to_local(rig, t->landing_contacts[f]));
}

/* ---------------------------------------------------------------- airborne */

static void enter_airborne(sinew_rig *rig, rig_terrain *t, float vx)
{
	know_stance(rig, t);
	if (t->motion == SINEW_MOTION_LANDING_IMPACT) end_landing(rig, t, true);
	t->motion = SINEW_MOTION_AIRBORNE;
	t->mask = sinew_rig_get_terrain_mask(rig);
	t->air_velocity = sinew_v2(vx, 0.0f);
	t->air_time = 0.0f;
	t->air_blocked = false;
	t->air_top_y = sinew_rig_get_root(rig).p.y;
	t->resume_pending = false; /* the fall starts from the pose as it stands: nothing to blend */
	t->resume_left = 0.0f;
	t->resume_stance = false;
	capture_air_pose(rig, t);
}

/* Touchdown on ground_y: the full correction at once, no velocity kept; soft below the hard
 * landing height, else the impact. */
static void touch_down(sinew_rig *rig, rig_terrain *t, float ground_y)
{
	set_root_y(rig, ground_y - t->ride_height);
	float fall = sinew_rig_get_root(rig).p.y - t->air_top_y;
	fall = roundf(sinew_maxf(fall, 0.0f) * FALL_QUANTUM) / FALL_QUANTUM;
	t->landing_impact_speed = sinew_maxf(t->air_velocity.y, 0.0f);
	t->air_velocity = sinew_v2(0.0f, 0.0f);
	t->walk_velocity = 0.0f;
	t->gait_amount = 0.0f;
	if (fall < SINEW_RIG_HARD_LANDING_MIN_FALL_HEIGHT) {
		restore_air_pose(rig, t);
		t->motion = SINEW_MOTION_GROUNDED;
		return;
	}
	begin_landing(rig, t, fall, ground_y);
}

/* One airborne frame (docs/terrain.md, "Airborne"): drag, capped gravity, the swept horizontal move
 * first, then the vertical one, whose whole length counts towards finding a landing (a thin ramp is
 * not crossed between two samples). */
static void update_airborne(sinew_rig *rig, rig_terrain *t, float dt)
{
	t->air_time += dt;
	t->air_velocity.x *= expf(-SINEW_RIG_AIR_DRAG_X * dt);
	t->air_velocity.y =
		sinew_minf(t->air_velocity.y + SINEW_RIG_TERRAIN_GRAVITY * dt, SINEW_RIG_TERRAIN_MAX_FALL_SPEED);
	float dx = t->air_velocity.x * dt;
	if (dx != 0.0f) {
		float fraction = sweep(rig, t, sinew_v2(dx, 0.0f), false);
		move_root(rig, fraction * dx, 0.0f);
		if (fraction < 1.0f) {
			t->air_velocity.x = 0.0f;
			t->air_blocked = true;
		}
	}
	float dy = t->air_velocity.y * dt;
	sinew_transform root = sinew_rig_get_root(rig);
	t->air_top_y = sinew_minf(t->air_top_y, root.p.y);
	float ground_y;
	if (dy > 0.0f && probe_center(rig, t, root.p.x, SINEW_RIG_TERRAIN_SUPPORT_RANGE + dy, &ground_y)) {
		touch_down(rig, t, ground_y);
		return;
	}
	move_root(rig, 0.0f, dy);
	t->air_top_y = sinew_minf(t->air_top_y, sinew_rig_get_root(rig).p.y);
	apply_air_pose(rig, t, dt);
}

/* ---------------------------------------------------------------- grounded */

/* Walk: the torso and head sweep the move (a wall stops the walker), a rise higher than a step
 * stops it too. Records the actual signed velocity of the frame. */
static void walk(sinew_rig *rig, rig_terrain *t, float dt)
{
	float before = sinew_rig_get_root(rig).p.x;
	float dx = t->walk_speed * dt;
	if (dx != 0.0f) {
		float fraction = sweep(rig, t, sinew_v2(dx, 0.0f), true);
		float x = before + fraction * dx;
		float ground_y;
		float hips = sinew_rig_get_root(rig).p.y;
		bool wall = probe_fan(rig, t, x, SINEW_RIG_TERRAIN_PROBE_HALF_WIDTH, SINEW_RIG_TERRAIN_PROBE_RAYS, hips,
		                      hips + t->ride_height, &ground_y) &&
		            ground_y < hips + t->ride_height - SINEW_RIG_TERRAIN_STEP_HEIGHT;
		if (!wall) move_root(rig, x - before, 0.0f);
	}
	float moved = sinew_rig_get_root(rig).p.x - before;
	t->walk_velocity = moved / dt;
	t->gait_phase += fabsf(moved) / SINEW_RIG_WALK_STRIDE;
	t->gait_phase -= floorf(t->gait_phase);
}

/* The foot's offset along the walk and its lift at gait phase p: on the ground for the first half
 * of the cycle (moving back under the body exactly as fast as the body moves on, so it stays put),
 * then swung forward through the air. */
static void gait_foot(float p, float *offset, float *lift)
{
	const float s = SINEW_RIG_WALK_STRIDE;
	if (p < 0.5f) {
		*offset = 0.25f * s - s * p;
		*lift = 0.0f;
		return;
	}
	float q = (p - 0.5f) * 2.0f;
	*offset = -0.25f * s + 0.5f * s * (0.5f - 0.5f * cosf(SINEW_PI * q));
	*lift = SINEW_RIG_WALK_STEP_LIFT * sinf(SINEW_PI * q);
}

/* Each foot on the terrain under it, stepping while the rig walks. */
static void place_feet(sinew_rig *rig, rig_terrain *t, float center_y, float dt)
{
	float target = t->walk_speed != 0.0f ? 1.0f : 0.0f;
	t->gait_amount = lerpf(t->gait_amount, target, 1.0f - expf(-SINEW_RIG_WALK_BLEND_RESPONSE * dt));
	/* the walk direction in the rig frame (LEFT mirrors x); kept while the stride fades */
	if (t->walk_speed != 0.0f)
		t->gait_dir = sinew_rig_vector_to_local(rig, sinew_v2(t->walk_speed < 0.0f ? -1.0f : 1.0f, 0.0f)).x < 0.0f ? -1.0f : 1.0f;
	if (t->gait_dir == 0.0f) t->gait_dir = 1.0f;
	for (int f = 0; f < FEET; ++f) {
		float p = t->gait_phase + 0.5f * (float)f;
		float offset, lift;
		gait_foot(p - floorf(p), &offset, &lift);
		float x = t->foot_base_x[f] + t->gait_dir * offset * t->gait_amount;
		sinew_vec2 world = sinew_rig_to_world(rig, sinew_v2(x, 0.0f));
		float ground = probe_foot(rig, t, world.x, center_y);
		sinew_rig_set_marker(rig, foot_marker[f], sinew_rig_to_local(rig, sinew_v2(world.x, ground - lift * t->gait_amount)));
	}
}

/* ---------------------------------------------------------------- resuming after a ragdoll */

/* The first grounded frame after a ragdoll: the difference between the pose the stand-up ended in
 * and the controller's own placement for the same state, with no time passing (the root on the
 * ground under it at the ride height, the feet where the kept gait puts them). On flat ground,
 * after a fall from standing or mid-walk, that is nothing: the recovery's end pose is the
 * pre-ragdoll pose, which this controller made. The pose is left as it is. */
static void seed_resume(sinew_rig *rig, rig_terrain *t)
{
	t->resume_pending = false;
	t->resume_left = 0.0f;
	sinew_transform root = sinew_rig_get_root(rig);
	float ground_y;
	if (!probe_center(rig, t, root.p.x, SINEW_RIG_TERRAIN_SUPPORT_RANGE, &ground_y)) {
		t->resume_stance = false; /* it will fall, from the pose as it stands */
		return;
	}
	if (t->resume_stance) {
		sinew_rig_pose pose;
		sinew_rig_get_pose(rig, &pose);
		t->resume_torso = sinew_sub(pose.torso, t->stance_torso);
		t->resume_torso_angle = pose.bones[SINEW_PART_TORSO] - t->stance_torso_angle;
		for (int h = 0; h < HANDS; ++h)
			t->resume_hands[h] = sinew_sub(sinew_rig_get_marker(rig, (sinew_rig_marker)h), t->stance_hands[h]);
	}
	sinew_vec2 feet[FEET];
	for (int f = 0; f < FEET; ++f) feet[f] = sinew_rig_get_marker(rig, foot_marker[f]);
	set_root_y(rig, ground_y - t->ride_height);
	place_feet(rig, t, ground_y, 0.0f);
	t->resume_root_dy = root.p.y - (ground_y - t->ride_height);
	for (int f = 0; f < FEET; ++f) {
		t->resume_feet[f] = sinew_sub(feet[f], sinew_rig_get_marker(rig, foot_marker[f]));
		sinew_rig_set_marker(rig, foot_marker[f], feet[f]);
	}
	sinew_rig_set_root(rig, root);
	t->resume_left = RESUME_DURATION;
}

/* Add what is left of the re-seeded difference (all of it at the re-seed, none after
 * RESUME_DURATION, smoothstep between) to the frame the controller has just placed. */
static void apply_resume(sinew_rig *rig, rig_terrain *t, float dt)
{
	if (!(t->resume_left > 0.0f)) return;
	t->resume_left = sinew_maxf(t->resume_left - dt, 0.0f);
	float w = smoothstep(0.0f, RESUME_DURATION, t->resume_left);
	move_root(rig, 0.0f, w * t->resume_root_dy);
	for (int f = 0; f < FEET; ++f) {
		sinew_vec2 m = sinew_rig_get_marker(rig, foot_marker[f]);
		sinew_rig_set_marker(rig, foot_marker[f], sinew_mul_add(m, w, t->resume_feet[f]));
	}
	if (!t->resume_stance) return;
	sinew_rig_set_torso(rig, sinew_mul_add(t->stance_torso, w, t->resume_torso), t->stance_torso_angle + w * t->resume_torso_angle);
	for (int h = 0; h < HANDS; ++h)
		sinew_rig_set_marker(rig, (sinew_rig_marker)h, sinew_mul_add(t->stance_hands[h], w, t->resume_hands[h]));
	if (t->resume_left == 0.0f) t->resume_stance = false; /* back on the stance exactly */
}

static void update_grounded(sinew_rig *rig, rig_terrain *t, float dt)
{
	if (t->resume_pending) seed_resume(rig, t);
	walk(rig, t, dt);
	float ground_y;
	if (!probe_center(rig, t, sinew_rig_get_root(rig).p.x, SINEW_RIG_TERRAIN_SUPPORT_RANGE, &ground_y)) {
		enter_airborne(rig, t, t->walk_velocity);
		update_airborne(rig, t, dt);
		return;
	}
	set_root_y(rig, ground_y - t->ride_height);
	place_feet(rig, t, ground_y, dt);
	apply_resume(rig, t, dt);
}

/* ---------------------------------------------------------------- hooks */

rig_terrain *rig_terrain_create(sinew_rig *rig)
{
	(void)rig;
	rig_terrain *t = calloc(1, sizeof *t);
	if (t == NULL) return NULL;
	t->motion = SINEW_MOTION_DISABLED;
	return t;
}

void rig_terrain_destroy(rig_terrain *terrain) { free(terrain); }

void rig_terrain_update(sinew_rig *rig, rig_terrain *terrain, float dt)
{
	if (terrain == NULL || !(dt > 0.0f)) return;
	know_stance(rig, terrain);
	terrain->mask = sinew_rig_get_terrain_mask(rig);
	switch (terrain->motion) {
	case SINEW_MOTION_DISABLED:
		break;
	case SINEW_MOTION_AIRBORNE:
		update_airborne(rig, terrain, dt);
		break;
	case SINEW_MOTION_GROUNDED:
		update_grounded(rig, terrain, dt);
		break;
	case SINEW_MOTION_LANDING_IMPACT:
		update_landing(rig, terrain, dt);
		break;
	}
}

/* docs/terrain.md, "After a ragdoll": a ragdoll takes the figure as it is. The landing ends without
 * restoring, the air pose capture is dropped unwritten, momentum is cleared; following stays on
 * (GROUNDED), so the rig finds its support, or falls, when it is animated again. The gait (phase
 * and stride) is kept: the stand-up ends in the pre-ragdoll pose, which that gait placed, so the
 * first animated frame re-seeds from the pose (seed_resume) and continues the stride rather than
 * snapping to a stance. */
void rig_terrain_on_ragdoll(sinew_rig *rig, rig_terrain *terrain)
{
	if (terrain == NULL || terrain->motion == SINEW_MOTION_DISABLED) return;
	if (terrain->motion == SINEW_MOTION_LANDING_IMPACT) {
		/* the pose stays as the impact left it; the stance the landing was recovering to is where
		 * the controller takes the figure back to after the stand-up (a second ragdoll before then
		 * keeps it) */
		terrain->resume_stance = true;
		terrain->stance_torso = terrain->landing_torso_base;
		terrain->stance_torso_angle = terrain->landing_torso_angle;
		for (int h = 0; h < HANDS; ++h) terrain->stance_hands[h] = terrain->air_base[h];
	}
	end_landing(rig, terrain, false);
	terrain->air_velocity = sinew_v2(0.0f, 0.0f);
	terrain->walk_velocity = 0.0f;
	terrain->resume_pending = true;
	terrain->resume_left = 0.0f;
}

/* ---------------------------------------------------------------- public */

void rig_terrain_shift_origin(rig_terrain *t, sinew_vec2 o)
{
	if (t == NULL) return;
	t->air_top_y -= o.y;
	for (int f = 0; f < FEET; ++f) t->landing_contacts[f] = sinew_sub(t->landing_contacts[f], o);
}

static rig_terrain *terrain_of(const sinew_rig *rig) { return rig != NULL ? rig_get_terrain(rig) : NULL; }

bool sinew_rig_set_terrain_following(sinew_rig *rig, bool enabled)
{
	rig_terrain *t = terrain_of(rig);
	if (t == NULL) return false;
	if (enabled) return t->motion == SINEW_MOTION_DISABLED ? sinew_rig_begin_terrain_fall(rig) : true;
	if (t->motion == SINEW_MOTION_LANDING_IMPACT) sinew_rig_set_torso(rig, t->landing_torso_base, t->landing_torso_angle);
	restore_air_pose(rig, t);
	clear_landing(t);
	t->motion = SINEW_MOTION_DISABLED;
	t->air_velocity = sinew_v2(0.0f, 0.0f);
	t->walk_velocity = 0.0f;
	t->gait_amount = 0.0f;
	t->resume_pending = false;
	t->resume_left = 0.0f;
	t->resume_stance = false;
	return true;
}

bool sinew_rig_begin_terrain_fall(sinew_rig *rig)
{
	rig_terrain *t = terrain_of(rig);
	if (t == NULL) return false;
	if (t->motion == SINEW_MOTION_AIRBORNE) restore_air_pose(rig, t);
	enter_airborne(rig, t, 0.0f);
	return true;
}

sinew_rig_motion sinew_rig_get_motion(const sinew_rig *rig)
{
	rig_terrain *t = terrain_of(rig);
	return t != NULL ? t->motion : SINEW_MOTION_DISABLED;
}

bool sinew_rig_walk(sinew_rig *rig, float speed)
{
	rig_terrain *t = terrain_of(rig);
	if (t == NULL || !isfinite(speed)) return false;
	t->walk_speed = speed;
	sinew_rig_facing facing = sinew_rig_get_facing(rig);
	if (speed > 0.0f && facing == SINEW_FACING_LEFT) sinew_rig_set_facing(rig, SINEW_FACING_RIGHT);
	if (speed < 0.0f && facing == SINEW_FACING_RIGHT) sinew_rig_set_facing(rig, SINEW_FACING_LEFT);
	return true;
}

float sinew_rig_get_walk_velocity(const sinew_rig *rig)
{
	rig_terrain *t = terrain_of(rig);
	return t != NULL ? t->walk_velocity : 0.0f;
}

sinew_vec2 sinew_rig_get_air_velocity(const sinew_rig *rig)
{
	rig_terrain *t = terrain_of(rig);
	return t != NULL && t->motion == SINEW_MOTION_AIRBORNE ? t->air_velocity : sinew_v2(0.0f, 0.0f);
}

bool sinew_rig_is_action_blocked(const sinew_rig *rig) { return sinew_rig_get_motion(rig) == SINEW_MOTION_LANDING_IMPACT; }

bool sinew_rig_cancel_landing(sinew_rig *rig, bool restore_pose)
{
	rig_terrain *t = terrain_of(rig);
	if (t == NULL) return false;
	if (t->motion == SINEW_MOTION_LANDING_IMPACT) end_landing(rig, t, restore_pose);
	return true;
}
