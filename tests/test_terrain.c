/* The rig's terrain motion (docs/terrain.md): states, takeoff momentum, drag, the air
 * pose, landings mapped from the fall height, the barrier, sweeps and swept landings. Headless,
 * through rig.h, in a pixel world (100 px per metre, y down). */
#include "support.h"

#include <math.h>
#include <string.h>

#include "sinew/rig.h"
#include "sinew/scene.h"

#define DT 0.01f
#define IMPACT_FRAMES 30 /* 0.30 s at DT */

typedef struct scene {
	sinew_world_id world;
	sinew_rig *rig;
} scene;

static sinew_world_id pixel_world(void)
{
	sinew_world_def wd = sinew_default_world_def();
	wd.gravity = sinew_v2(0.0f, 980.0f);
	wd.length_units_per_meter = 100.0f;
	return sinew_create_world(&wd);
}

/* A static box from x0 to x1 whose top is at y top, bottom at y bottom. */
static void block(sinew_world_id world, float x0, float x1, float top, float bottom)
{
	make_block(world, x0, x1, top, bottom);
}

/* A static board: a box of half length hx and half thickness hy at center, turned by angle. */
static void board(sinew_world_id world, sinew_vec2 center, float hx, float hy, float angle)
{
	sinew_body_def bd = sinew_default_body_def();
	sinew_body_id b = sinew_create_body(world, &bd);
	sinew_shape_def sd = sinew_default_shape_def();
	sinew_polygon box = sinew_make_offset_box(hx, hy, center, angle);
	sinew_create_polygon_shape(b, &sd, &box);
}

static sinew_rig *make_rig(sinew_world_id world, float x, float y, sinew_rig_facing facing)
{
	sinew_rig_def rd = sinew_default_rig_def();
	rd.position = sinew_v2(x, y);
	rd.facing = facing;
	rd.name = "stick";
	return sinew_create_rig(world, &rd);
}

static void frame(const scene *s, float dt)
{
	assert_true(sinew_rig_update(s->rig, dt));
	sinew_world_step(s->world, dt, 4);
}

/* Run until the motion leaves `motion` (at most n frames); returns the frames run. */
static int run_while(const scene *s, sinew_rig_motion motion, int n, float dt)
{
	int i = 0;
	while (i < n && sinew_rig_get_motion(s->rig) == motion) {
		frame(s, dt);
		++i;
	}
	return i;
}

static void settle(const scene *s)
{
	for (int i = 0; i < 600 && sinew_rig_get_motion(s->rig) != SINEW_MOTION_GROUNDED; ++i) frame(s, DT);
	assert_int_equal(sinew_rig_get_motion(s->rig), SINEW_MOTION_GROUNDED);
}

static void destroy(scene *s)
{
	sinew_destroy_rig(s->rig);
	sinew_destroy_world(s->world);
}

static void get_markers(const sinew_rig *rig, sinew_vec2 m[SINEW_MARKER_COUNT])
{
	for (int i = 0; i < SINEW_MARKER_COUNT; ++i) m[i] = sinew_rig_get_marker(rig, (sinew_rig_marker)i);
}

/* A custom limb pose, so restoration is not a return to a default. */
static void custom_limbs(sinew_rig *rig)
{
	sinew_rig_set_marker(rig, SINEW_MARKER_LEFT_HAND, sinew_v2(61.25f, -97.5f));
	sinew_rig_set_marker(rig, SINEW_MARKER_RIGHT_HAND, sinew_v2(-43.75f, -12.125f));
	sinew_rig_set_marker(rig, SINEW_MARKER_LEFT_FOOT, sinew_v2(-60.0f, 360.5f));
	sinew_rig_set_marker(rig, SINEW_MARKER_RIGHT_FOOT, sinew_v2(60.0f, 371.0f));
}

/* ---------------------------------------------------------------- states and momentum */

static void test_disabled_to_airborne(void **state)
{
	(void)state;
	scene s = {pixel_world(), NULL};
	s.rig = make_rig(s.world, 0.0f, -1000.0f, SINEW_FACING_RIGHT);
	assert_int_equal(sinew_rig_get_motion(s.rig), SINEW_MOTION_DISABLED);
	frame(&s, DT);
	assert_float_near(sinew_rig_get_root(s.rig).p.y, -1000.0f, 0.0f);
	assert_true(sinew_rig_set_terrain_following(s.rig, true));
	assert_int_equal(sinew_rig_get_motion(s.rig), SINEW_MOTION_AIRBORNE);
	assert_float_near(sinew_rig_get_air_velocity(s.rig).x, 0.0f, 0.0f);
	assert_float_near(sinew_rig_get_air_velocity(s.rig).y, 0.0f, 0.0f);
	frame(&s, DT);
	/* a rig placed in the air drops straight down: gravity only */
	assert_float_near(sinew_rig_get_air_velocity(s.rig).x, 0.0f, 0.0f);
	assert_float_near(sinew_rig_get_air_velocity(s.rig).y, SINEW_RIG_TERRAIN_GRAVITY * DT, 1e-3);
	assert_float_near(sinew_rig_get_root(s.rig).p.y, -1000.0f + SINEW_RIG_TERRAIN_GRAVITY * DT * DT, 1e-3);
	assert_float_near(sinew_rig_get_root(s.rig).p.x, 0.0f, 0.0f);
	/* following on again is idempotent: the fall goes on */
	assert_true(sinew_rig_set_terrain_following(s.rig, true));
	assert_float_near(sinew_rig_get_air_velocity(s.rig).y, SINEW_RIG_TERRAIN_GRAVITY * DT, 1e-3);
	destroy(&s);
}

/* Walk off a ledge at speed; returns the air velocity of the takeoff frame. */
static sinew_vec2 walk_off(float platform_x0, float platform_x1, float x, float speed, scene *s)
{
	s->world = pixel_world();
	block(s->world, platform_x0, platform_x1, 0.0f, 200.0f);
	s->rig = make_rig(s->world, x, -420.0f, speed > 0.0f ? SINEW_FACING_RIGHT : SINEW_FACING_LEFT);
	sinew_rig_set_terrain_following(s->rig, true);
	settle(s);
	assert_float_near(sinew_rig_get_walk_velocity(s->rig), 0.0f, 0.0f);
	sinew_rig_walk(s->rig, speed);
	int n = run_while(s, SINEW_MOTION_GROUNDED, 1000, DT);
	assert_true(n < 1000);
	assert_int_equal(sinew_rig_get_motion(s->rig), SINEW_MOTION_AIRBORNE);
	return sinew_rig_get_air_velocity(s->rig);
}

static void test_takeoff_keeps_signed_walk_velocity(void **state)
{
	(void)state;
	scene s;
	sinew_vec2 v = walk_off(-1000.0f, 0.0f, -150.0f, 300.0f, &s);
	assert_float_near(sinew_rig_get_walk_velocity(s.rig), 300.0f, 0.05);
	assert_float_near(v.x, 300.0f * expf(-SINEW_RIG_AIR_DRAG_X * DT), 0.05);
	assert_true(v.y > 0.0f);
	destroy(&s);

	v = walk_off(0.0f, 1000.0f, 150.0f, -250.0f, &s);
	assert_float_near(sinew_rig_get_walk_velocity(s.rig), -250.0f, 0.05);
	assert_float_near(v.x, -250.0f * expf(-SINEW_RIG_AIR_DRAG_X * DT), 0.05);
	destroy(&s);
}

static void test_exponential_drag_and_curved_trajectory(void **state)
{
	(void)state;
	scene s;
	sinew_vec2 v0 = walk_off(-1000.0f, 0.0f, -150.0f, 400.0f, &s);
	sinew_vec2 prev = sinew_rig_get_root(s.rig).p;
	float prev_dx = 1e9f, prev_dy = -1e9f, vy = v0.y;
	for (int n = 1; n <= 60; ++n) {
		frame(&s, DT);
		sinew_vec2 v = sinew_rig_get_air_velocity(s.rig);
		assert_float_near(v.x, v0.x * expf(-SINEW_RIG_AIR_DRAG_X * DT * (float)n), 2e-5 * v0.x);
		vy = fminf(vy + SINEW_RIG_TERRAIN_GRAVITY * DT, SINEW_RIG_TERRAIN_MAX_FALL_SPEED);
		assert_float_near(v.y, vy, 1e-2);
		sinew_vec2 p = sinew_rig_get_root(s.rig).p;
		float dx = p.x - prev.x, dy = p.y - prev.y;
		/* forward ever slower, downward ever faster: a curve, not a line */
		assert_true(dx > 0.0f && dx < prev_dx);
		assert_true(dy > prev_dy);
		prev_dx = dx;
		prev_dy = dy;
		prev = p;
	}
	destroy(&s);
}

/* ---------------------------------------------------------------- the air pose */

static void test_air_pose_hands_reach_forward_before_lifting(void **state)
{
	(void)state;
	scene s = {pixel_world(), NULL};
	s.rig = make_rig(s.world, 0.0f, 0.0f, SINEW_FACING_RIGHT);
	sinew_vec2 base = sinew_rig_get_marker(s.rig, SINEW_MARKER_LEFT_HAND);
	sinew_rig_begin_terrain_fall(s.rig);
	int forward_at = -1, lift_at = -1;
	for (int n = 0; n < 200; ++n) {
		frame(&s, DT);
		sinew_vec2 off = sinew_sub(sinew_rig_get_marker(s.rig, SINEW_MARKER_LEFT_HAND), base);
		if (forward_at < 0 && off.x > 0.5f * SINEW_RIG_AIR_HAND_FORWARD) forward_at = n;
		if (lift_at < 0 && -off.y > 0.5f * SINEW_RIG_AIR_HAND_LIFT) lift_at = n;
		if (forward_at == n) assert_true(-off.y < 0.2f * SINEW_RIG_AIR_HAND_LIFT);
	}
	assert_true(forward_at >= 0 && lift_at >= 0);
	assert_true(forward_at + 10 < lift_at);
	destroy(&s);
}

/* After a long fall: the full reach and lift plus the flail, the two sides in opposite phase. */
static void check_full_speed(const sinew_rig *rig, const sinew_vec2 base[SINEW_MARKER_COUNT], float air_time)
{
	sinew_vec2 m[SINEW_MARKER_COUNT];
	get_markers(rig, m);
	sinew_vec2 full = sinew_v2(SINEW_RIG_AIR_HAND_FORWARD, -SINEW_RIG_AIR_HAND_LIFT);
	sinew_vec2 fl = sinew_sub(sinew_sub(m[SINEW_MARKER_LEFT_HAND], base[SINEW_MARKER_LEFT_HAND]), full);
	sinew_vec2 fr = sinew_sub(sinew_sub(m[SINEW_MARKER_RIGHT_HAND], base[SINEW_MARKER_RIGHT_HAND]), full);
	/* on the flail ellipse, opposite each other */
	float e = fl.x * fl.x / (SINEW_RIG_AIR_HAND_FLAIL_X * SINEW_RIG_AIR_HAND_FLAIL_X) +
	          fl.y * fl.y / (SINEW_RIG_AIR_HAND_FLAIL_Y * SINEW_RIG_AIR_HAND_FLAIL_Y);
	assert_float_near(e, 1.0f, 0.01);
	assert_float_near(fl.x, -fr.x, 0.05);
	assert_float_near(fl.y, -fr.y, 0.05);
	sinew_vec2 gl = sinew_sub(m[SINEW_MARKER_LEFT_FOOT], base[SINEW_MARKER_LEFT_FOOT]);
	sinew_vec2 gr = sinew_sub(m[SINEW_MARKER_RIGHT_FOOT], base[SINEW_MARKER_RIGHT_FOOT]);
	e = gl.x * gl.x / (SINEW_RIG_AIR_FOOT_FLAIL_X * SINEW_RIG_AIR_FOOT_FLAIL_X) +
	    gl.y * gl.y / (SINEW_RIG_AIR_FOOT_FLAIL_Y * SINEW_RIG_AIR_FOOT_FLAIL_Y);
	assert_float_near(e, 1.0f, 0.01);
	assert_float_near(gl.x, -gr.x, 0.05);
	assert_float_near(gl.y, -gr.y, 0.05);
	/* the flail runs at 12 Hz of air time */
	double phase = 2.0 * 3.14159265358979 * SINEW_RIG_AIR_FLAIL_HZ * air_time;
	assert_float_near(fl.x, SINEW_RIG_AIR_HAND_FLAIL_X * cos(phase), 0.1);
	assert_float_near(fl.y, SINEW_RIG_AIR_HAND_FLAIL_Y * sin(phase), 0.1);
	assert_float_near(gl.x, SINEW_RIG_AIR_FOOT_FLAIL_X * cos(phase), 0.1);
}

static void test_air_pose_full_speed_offsets_and_mirror(void **state)
{
	(void)state;
	for (int facing = 0; facing < 2; ++facing) {
		scene s = {pixel_world(), NULL};
		s.rig = make_rig(s.world, 0.0f, 0.0f, facing ? SINEW_FACING_LEFT : SINEW_FACING_RIGHT);
		custom_limbs(s.rig);
		sinew_vec2 base[SINEW_MARKER_COUNT];
		get_markers(s.rig, base);
		sinew_vec2 hand0 = sinew_rig_to_world(s.rig, base[SINEW_MARKER_LEFT_HAND]);
		sinew_rig_begin_terrain_fall(s.rig);
		for (int n = 0; n < 303; ++n) frame(&s, DT);
		assert_float_near(sinew_rig_get_air_velocity(s.rig).y, SINEW_RIG_TERRAIN_MAX_FALL_SPEED, 0.0f);
		check_full_speed(s.rig, base, 303 * DT);
		/* the same rig-frame pose reaches screen-right facing RIGHT, screen-left facing LEFT */
		sinew_vec2 hand = sinew_rig_to_world(s.rig, sinew_rig_get_marker(s.rig, SINEW_MARKER_LEFT_HAND));
		float reach = hand.x - hand0.x;
		if (facing) assert_true(reach < -150.0f);
		else assert_true(reach > 150.0f);
		destroy(&s);
	}
}

/* ---------------------------------------------------------------- landings */

/* A rig standing on flat ground (top y 0) at x; returns its standing root y. */
static float stand(scene *s, float x)
{
	s->world = pixel_world();
	block(s->world, -3000.0f, 3000.0f, 0.0f, 400.0f);
	s->rig = make_rig(s->world, x, -600.0f, SINEW_FACING_RIGHT);
	sinew_rig_set_terrain_following(s->rig, true);
	settle(s);
	return sinew_rig_get_root(s->rig).p.y;
}

/* From standing, lift the rig by height with the custom limb pose and let it fall; returns the
 * frames of the fall. base gets the limb markers at takeoff. */
static int drop(scene *s, float standing_y, float height, sinew_vec2 base[SINEW_MARKER_COUNT])
{
	sinew_transform root = sinew_rig_get_root(s->rig);
	root.p.y = standing_y - height;
	sinew_rig_set_root(s->rig, root);
	custom_limbs(s->rig);
	get_markers(s->rig, base);
	sinew_rig_begin_terrain_fall(s->rig);
	return run_while(s, SINEW_MOTION_AIRBORNE, 2000, DT);
}

static void test_soft_landing_restores_exactly(void **state)
{
	(void)state;
	scene s;
	float y = stand(&s, 0.0f);
	sinew_vec2 base[SINEW_MARKER_COUNT], now[SINEW_MARKER_COUNT];
	int frames = drop(&s, y, SINEW_RIG_HARD_LANDING_MIN_FALL_HEIGHT - 5.0f, base);
	assert_true(frames > 10); /* long enough for the air pose to move the limbs */
	assert_int_equal(sinew_rig_get_motion(s.rig), SINEW_MOTION_GROUNDED);
	assert_false(sinew_rig_is_action_blocked(s.rig));
	get_markers(s.rig, now);
	assert_memory_equal(now, base, sizeof(sinew_vec2) * 4);
	assert_float_near(sinew_rig_get_root(s.rig).p.y, y, 1e-3);
	destroy(&s);
}

typedef struct impact {
	float depth[IMPACT_FRAMES + 1];     /* torso marker below its base, per frame after touchdown */
	sinew_vec2 hand[IMPACT_FRAMES + 1]; /* left hand marker */
	sinew_vec2 hand_start;
	sinew_vec2 torso_base;
	float torso_angle;
	int blocked_frames;
	int frames; /* until GROUNDED */
} impact;

/* Drop from height and record the impact; the rig is GROUNDED at the end. */
static void record_impact(scene *s, float standing_y, float height, sinew_vec2 base[SINEW_MARKER_COUNT], impact *im)
{
	memset(im, 0, sizeof *im);
	sinew_rig_pose pose;
	sinew_rig_get_pose(s->rig, &pose);
	im->torso_base = pose.torso;
	im->torso_angle = pose.bones[SINEW_PART_TORSO];
	assert_false(sinew_rig_is_action_blocked(s->rig));
	drop(s, standing_y, height, base);
	assert_int_equal(sinew_rig_get_motion(s->rig), SINEW_MOTION_LANDING_IMPACT);
	im->hand_start = sinew_rig_get_marker(s->rig, SINEW_MARKER_LEFT_HAND);
	im->blocked_frames = 1;
	while (sinew_rig_get_motion(s->rig) == SINEW_MOTION_LANDING_IMPACT && im->frames < 100) {
		frame(s, DT);
		im->frames += 1;
		if (sinew_rig_is_action_blocked(s->rig)) im->blocked_frames += 1;
		assert_true(sinew_rig_is_action_blocked(s->rig) ==
		            (sinew_rig_get_motion(s->rig) == SINEW_MOTION_LANDING_IMPACT));
		if (im->frames <= IMPACT_FRAMES) {
			sinew_rig_get_pose(s->rig, &pose);
			im->depth[im->frames] = pose.torso.y - im->torso_base.y;
			im->hand[im->frames] = sinew_rig_get_marker(s->rig, SINEW_MARKER_LEFT_HAND);
		}
	}
}

static void check_mapping(float height, float compression, float drop_px)
{
	scene s;
	float y = stand(&s, 0.0f);
	sinew_vec2 base[SINEW_MARKER_COUNT];
	impact im;
	record_impact(&s, y, height, base, &im);
	/* the deepest compression, at 0.08 s */
	int deepest = 0;
	for (int i = 1; i <= IMPACT_FRAMES; ++i)
		if (im.depth[i] > im.depth[deepest]) deepest = i;
	assert_int_equal(deepest, 8);
	assert_float_near(im.depth[8], compression, 1e-3);
	/* quadratic ease-out half way down, sine-out half way back */
	assert_float_near(im.depth[4], 0.75f * compression, 1e-3);
	assert_float_near(im.depth[19], compression * (1.0f - sinf(0.25f * SINEW_PI)), 1e-3);
	/* the hands: from touchdown towards takeoff over 0.30 s, plus the drop */
	float blend = 0.08f / 0.30f;
	float expect = im.hand_start.y + (base[SINEW_MARKER_LEFT_HAND].y - im.hand_start.y) * blend + drop_px;
	assert_float_near(im.hand[8].y, expect, 0.05);
	/* 0.30 s: exact restoration, the barrier down */
	assert_int_equal(im.frames, IMPACT_FRAMES);
	assert_int_equal(im.blocked_frames, IMPACT_FRAMES);
	assert_int_equal(sinew_rig_get_motion(s.rig), SINEW_MOTION_GROUNDED);
	sinew_rig_pose pose;
	sinew_rig_get_pose(s.rig, &pose);
	assert_memory_equal(&pose.torso, &im.torso_base, sizeof pose.torso);
	assert_memory_equal(&pose.bones[SINEW_PART_TORSO], &im.torso_angle, sizeof(float));
	assert_memory_equal(&pose.markers[0], &base[0], 2 * sizeof(sinew_vec2));
	destroy(&s);
}

static void test_fall_height_maps_to_compression_and_hand_drop(void **state)
{
	(void)state;
	check_mapping(SINEW_RIG_HARD_LANDING_MIN_FALL_HEIGHT, SINEW_RIG_LANDING_COMPRESSION_MIN, SINEW_RIG_LANDING_HAND_DROP_MIN);
	check_mapping(490.0f, 96.0f, 395.0f); /* half way from 80 to 900 */
	check_mapping(1500.0f, SINEW_RIG_LANDING_COMPRESSION_MAX, SINEW_RIG_LANDING_HAND_DROP_MAX);
	/* just below the minimum: soft, no barrier, no compression */
	scene s;
	float y = stand(&s, 0.0f);
	sinew_vec2 base[SINEW_MARKER_COUNT];
	drop(&s, y, SINEW_RIG_HARD_LANDING_MIN_FALL_HEIGHT - 1.0f, base);
	assert_int_equal(sinew_rig_get_motion(s.rig), SINEW_MOTION_GROUNDED);
	destroy(&s);
}

static void test_cancel_and_disable_restore_or_keep(void **state)
{
	(void)state;
	/* terrain disable while airborne: the takeoff limbs back, bit for bit */
	scene s;
	float y = stand(&s, 0.0f);
	sinew_vec2 base[SINEW_MARKER_COUNT], now[SINEW_MARKER_COUNT];
	sinew_transform root = sinew_rig_get_root(s.rig);
	root.p.y = y - 2000.0f;
	sinew_rig_set_root(s.rig, root);
	custom_limbs(s.rig);
	get_markers(s.rig, base);
	sinew_rig_begin_terrain_fall(s.rig);
	for (int i = 0; i < 40; ++i) frame(&s, DT);
	get_markers(s.rig, now);
	assert_true(memcmp(now, base, sizeof(sinew_vec2) * 4) != 0);
	sinew_rig_set_terrain_following(s.rig, false);
	assert_int_equal(sinew_rig_get_motion(s.rig), SINEW_MOTION_DISABLED);
	get_markers(s.rig, now);
	assert_memory_equal(now, base, sizeof(sinew_vec2) * 4);
	assert_float_near(sinew_rig_get_air_velocity(s.rig).y, 0.0f, 0.0f);
	destroy(&s);

	/* terrain disable during an impact: torso and limbs back */
	y = stand(&s, 0.0f);
	sinew_rig_pose before, pose;
	sinew_rig_get_pose(s.rig, &before);
	drop(&s, y, 400.0f, base);
	for (int i = 0; i < 5; ++i) frame(&s, DT);
	assert_true(sinew_rig_is_action_blocked(s.rig));
	sinew_rig_set_terrain_following(s.rig, false);
	assert_false(sinew_rig_is_action_blocked(s.rig));
	sinew_rig_get_pose(s.rig, &pose);
	assert_memory_equal(&pose.torso, &before.torso, sizeof pose.torso);
	assert_memory_equal(pose.markers, base, sizeof(sinew_vec2) * 4);
	destroy(&s);

	/* a ragdoll's cancel keeps the impact pose; a restoring cancel writes the base */
	y = stand(&s, 0.0f);
	drop(&s, y, 400.0f, base);
	for (int i = 0; i < 5; ++i) frame(&s, DT);
	sinew_rig_get_pose(s.rig, &before);
	assert_true(sinew_rig_cancel_landing(s.rig, false));
	assert_int_equal(sinew_rig_get_motion(s.rig), SINEW_MOTION_GROUNDED);
	sinew_rig_get_pose(s.rig, &pose);
	assert_memory_equal(&pose.torso, &before.torso, sizeof pose.torso);
	assert_memory_equal(pose.markers, before.markers, sizeof pose.markers);
	destroy(&s);

	/* ragdoll entry during an impact: the impact pose is kept, the barrier drops */
	y = stand(&s, 0.0f);
	drop(&s, y, 400.0f, base);
	for (int i = 0; i < 5; ++i) frame(&s, DT);
	sinew_rig_get_pose(s.rig, &before);
	assert_true(sinew_rig_set_state(s.rig, SINEW_RIG_RAGDOLL));
	assert_false(sinew_rig_is_action_blocked(s.rig));
	assert_int_not_equal(sinew_rig_get_motion(s.rig), SINEW_MOTION_LANDING_IMPACT);
	sinew_rig_get_pose(s.rig, &pose);
	assert_memory_equal(&pose.torso, &before.torso, sizeof pose.torso);
	assert_memory_equal(pose.markers, before.markers, sizeof pose.markers);
	destroy(&s);
}

/* ---------------------------------------------------------------- slopes, walls, low rates */

/* The terrain's top at x, the rig's own proxies left out. */
static float ground_at(const scene *s, float x)
{
	sinew_body_id proxies[SINEW_PART_COUNT];
	for (int i = 0; i < SINEW_PART_COUNT; ++i) proxies[i] = sinew_rig_get_proxy(s->rig, (sinew_rig_part)i);
	sinew_query_filter filter = sinew_default_query_filter();
	filter.exclude_bodies = proxies;
	filter.exclude_body_count = SINEW_PART_COUNT;
	sinew_ray_hit hit = sinew_world_cast_ray_closest(s->world, sinew_v2(x, -2000.0f), sinew_v2(0.0f, 4000.0f), &filter);
	assert_true(hit.hit);
	return hit.point.y;
}

/* Land hard with the feet 120 px apart at x; each foot must stand on the ground under it. */
static void check_unequal_feet(scene *s, float x)
{
	sinew_transform root = sinew_rig_get_root(s->rig);
	root.p = sinew_v2(x, -1200.0f);
	sinew_rig_set_root(s->rig, root);
	custom_limbs(s->rig);
	sinew_rig_begin_terrain_fall(s->rig);
	run_while(s, SINEW_MOTION_AIRBORNE, 2000, DT);
	assert_int_equal(sinew_rig_get_motion(s->rig), SINEW_MOTION_LANDING_IMPACT);
	float ys[2];
	for (int i = 0; i < 12; ++i) {
		frame(s, DT); /* the feet stay locked through the compression */
		for (int f = 0; f < 2; ++f) {
			sinew_vec2 foot = sinew_rig_to_world(s->rig, sinew_rig_get_marker(s->rig, (sinew_rig_marker)(2 + f)));
			assert_float_near(foot.y, ground_at(s, foot.x), 0.5);
			ys[f] = foot.y;
		}
	}
	assert_true(fabsf(ys[0] - ys[1]) > 20.0f);
}

static void test_unequal_feet_on_stair_and_ramp(void **state)
{
	(void)state;
	scene s = {pixel_world(), NULL};
	block(s.world, -1000.0f, 0.0f, 0.0f, 400.0f);
	block(s.world, 0.0f, 1000.0f, -40.0f, 400.0f);
	s.rig = make_rig(s.world, 0.0f, -1200.0f, SINEW_FACING_RIGHT);
	check_unequal_feet(&s, 0.0f);
	destroy(&s);

	s.world = pixel_world();
	board(s.world, sinew_v2(0.0f, 0.0f), 600.0f, 20.0f, -0.45f); /* rises to the right */
	s.rig = make_rig(s.world, 0.0f, -1200.0f, SINEW_FACING_RIGHT);
	check_unequal_feet(&s, 0.0f);
	destroy(&s);
}

static void test_sweep_into_wall_stops_without_overlap(void **state)
{
	(void)state;
	scene s = {pixel_world(), NULL};
	block(s.world, -1000.0f, 0.0f, 0.0f, 200.0f);  /* the platform */
	block(s.world, 150.0f, 250.0f, -1500.0f, 3000.0f); /* the wall */
	block(s.world, -1000.0f, 1000.0f, 3000.0f, 3200.0f); /* the floor far below */
	s.rig = make_rig(s.world, -150.0f, -420.0f, SINEW_FACING_RIGHT);
	sinew_rig_set_terrain_following(s.rig, true);
	settle(&s);
	sinew_rig_walk(s.rig, 500.0f);
	run_while(&s, SINEW_MOTION_GROUNDED, 1000, DT);
	bool stopped = false;
	float x_stop = 0.0f;
	for (int i = 0; i < 150 && sinew_rig_get_motion(s.rig) == SINEW_MOTION_AIRBORNE; ++i) {
		frame(&s, DT);
		float vx = sinew_rig_get_air_velocity(s.rig).x;
		float x = sinew_rig_get_root(s.rig).p.x;
		if (stopped) {
			assert_float_near(vx, 0.0f, 0.0f);
			assert_float_near(x, x_stop, 0.0f);
		} else if (vx == 0.0f) {
			stopped = true;
			x_stop = x;
		}
		/* the body (hips to head) never crosses the wall's face */
		assert_true(sinew_body_compute_aabb(sinew_rig_get_proxy(s.rig, SINEW_PART_TORSO)).upper.x <= 150.0f);
		assert_true(sinew_body_compute_aabb(sinew_rig_get_proxy(s.rig, SINEW_PART_HEAD)).upper.x <= 150.0f);
	}
	assert_true(stopped);
	assert_true(x_stop < 150.0f && x_stop > 0.0f);
	destroy(&s);
}

/* At 15 Hz a fall from 2500 px moves 147 px a frame, more than the support range and a step
 * together: the whole frame's travel must count, from every phase of the fall. */
static void test_low_rate_fall_lands_on_thin_ramp(void **state)
{
	(void)state;
	const float dt = 1.0f / 15.0f;
	for (int k = 0; k < 16; ++k) {
		scene s = {pixel_world(), NULL};
		board(s.world, sinew_v2(0.0f, 0.0f), 600.0f, 2.0f, -0.3f);
		block(s.world, -3000.0f, 3000.0f, 2000.0f, 2200.0f); /* what a missed ramp falls to */
		s.rig = make_rig(s.world, 0.0f, -2500.0f - 10.0f * (float)k, SINEW_FACING_RIGHT);
		sinew_rig_begin_terrain_fall(s.rig);
		run_while(&s, SINEW_MOTION_AIRBORNE, 200, dt);
		assert_int_not_equal(sinew_rig_get_motion(s.rig), SINEW_MOTION_AIRBORNE);
		assert_true(sinew_rig_get_root(s.rig).p.y < 0.0f);
		destroy(&s);
	}
}

/* ---------------------------------------------------------------- walking */

static void test_walking_feet_step_rather_than_slide(void **state)
{
	(void)state;
	scene s;
	stand(&s, 0.0f);
	sinew_rig_walk(s.rig, 200.0f);
	for (int i = 0; i < 150; ++i) frame(&s, DT);
	sinew_vec2 prev[2];
	int planted[2] = {0, 0}, swung[2] = {0, 0};
	float x0 = sinew_rig_get_root(s.rig).p.x;
	for (int i = 0; i < 200; ++i) {
		frame(&s, DT);
		assert_int_equal(sinew_rig_get_motion(s.rig), SINEW_MOTION_GROUNDED);
		for (int f = 0; f < 2; ++f) {
			sinew_vec2 w = sinew_rig_to_world(s.rig, sinew_rig_get_marker(s.rig, (sinew_rig_marker)(2 + f)));
			bool down = fabsf(w.y) < 1e-3f;
			if (i > 0 && down && fabsf(prev[f].y) < 1e-3f) {
				assert_float_near(w.x, prev[f].x, 0.05); /* a planted foot stays put */
				planted[f] += 1;
			}
			if (w.y < -5.0f) swung[f] += 1;
			prev[f] = w;
		}
	}
	assert_float_near(sinew_rig_get_root(s.rig).p.x - x0, 200.0f * 200.0f * DT, 0.5);
	assert_float_near(sinew_rig_get_walk_velocity(s.rig), 200.0f, 0.05);
	for (int f = 0; f < 2; ++f) assert_true(planted[f] > 50 && swung[f] > 30);
	/* stopping records zero */
	sinew_rig_walk(s.rig, 0.0f);
	frame(&s, DT);
	assert_float_near(sinew_rig_get_walk_velocity(s.rig), 0.0f, 0.0f);
	destroy(&s);
}

/* Stopping a walk fades the stride where it is, whichever way the rig walked: on the first stopped
 * frame no foot moves further than the stride's fade of one frame allows (the fade takes
 * 1 - exp(-response dt) of a foot's stride offset and lift), not to the mirrored stride. */
static void test_stopping_fades_stride_in_place(void **state)
{
	(void)state;
	const float fade = 1.0f - expf(-SINEW_RIG_WALK_BLEND_RESPONSE * DT);
	const float most = fade * (0.25f * SINEW_RIG_WALK_STRIDE + SINEW_RIG_WALK_STEP_LIFT) + 1e-3f;
	for (int k = 0; k < 2; ++k) {
		scene s;
		stand(&s, 0.0f);
		sinew_rig_walk(s.rig, k ? -200.0f : 200.0f); /* left turns the rig: the rig frame mirrors */
		for (int i = 0; i < 117; ++i) frame(&s, DT);  /* mid-stride */
		sinew_vec2 before[SINEW_MARKER_COUNT], after[SINEW_MARKER_COUNT];
		get_markers(s.rig, before);
		assert_true(fabsf(before[SINEW_MARKER_LEFT_FOOT].x - before[SINEW_MARKER_RIGHT_FOOT].x) > 20.0f);
		sinew_rig_walk(s.rig, 0.0f);
		frame(&s, DT);
		get_markers(s.rig, after);
		for (int f = SINEW_MARKER_LEFT_FOOT; f <= SINEW_MARKER_RIGHT_FOOT; ++f)
			assert_true(sinew_distance(before[f], after[f]) < most);
		destroy(&s);
	}
}

/* Two rigs walking the same walk on their own floors: one goes limp mid-stride and is handed
 * back in the pose it went limp in (what a stand-up ending in the pre-ragdoll pose on the same
 * spot gives), the other walks on. The terrain controller takes the first over from that pose: its
 * frames are the second's, stopped or walking on (keeping the gait rather than snapping the feet
 * to a stance at the ride height). */
static void test_ragdoll_hand_back_resumes_mid_stride(void **state)
{
	(void)state;
	for (int walk_on = 0; walk_on < 2; ++walk_on) {
		scene a, b;
		stand(&a, 0.0f);
		stand(&b, 0.0f);
		sinew_rig_walk(a.rig, -200.0f);
		sinew_rig_walk(b.rig, -200.0f);
		for (int i = 0; i < 117; ++i) {
			frame(&a, DT);
			frame(&b, DT);
		}
		sinew_rig_pose pa, pb;
		assert_true(sinew_rig_set_state(a.rig, SINEW_RIG_RAGDOLL));
		assert_true(sinew_rig_set_state(a.rig, SINEW_RIG_ANIMATED));
		if (!walk_on) {
			sinew_rig_walk(a.rig, 0.0f);
			sinew_rig_walk(b.rig, 0.0f);
		}
		for (int i = 0; i < 40; ++i) {
			frame(&a, DT);
			frame(&b, DT);
			sinew_rig_get_pose(a.rig, &pa);
			sinew_rig_get_pose(b.rig, &pb);
			assert_float_near(pa.root.p.x, pb.root.p.x, 1e-3);
			assert_float_near(pa.root.p.y, pb.root.p.y, 1e-3);
			for (int m = 0; m < SINEW_MARKER_COUNT; ++m) {
				assert_float_near(pa.markers[m].x, pb.markers[m].x, 1e-3);
				assert_float_near(pa.markers[m].y, pb.markers[m].y, 1e-3);
			}
		}
		destroy(&a);
		destroy(&b);
	}
}

/* Handed back in a pose the controller would place differently (the root 12 px high and the feet
 * apart, as a stand-up re-anchored over a slope leaves it): the controller blends from that pose
 * into its own over 0.25 s (smoothstep), so no frame moves the root or a foot faster than the
 * blend's steepest slope (1.5 / 0.25 s of the difference), and then it stands as it would have. */
static void test_ragdoll_hand_back_blends_a_mismatch(void **state)
{
	(void)state;
	scene s;
	float y = stand(&s, 0.0f);
	sinew_vec2 stance[SINEW_MARKER_COUNT], now[SINEW_MARKER_COUNT], prev[SINEW_MARKER_COUNT];
	for (int i = 0; i < 5; ++i) frame(&s, DT);
	get_markers(s.rig, stance);
	assert_true(sinew_rig_set_state(s.rig, SINEW_RIG_RAGDOLL));
	sinew_transform root = sinew_rig_get_root(s.rig);
	root.p.y = y - 12.0f;
	sinew_rig_set_root(s.rig, root);
	const sinew_vec2 foot[2] = {{-30.0f, 380.0f}, {25.0f, 392.0f}};
	for (int f = 0; f < 2; ++f) sinew_rig_set_marker(s.rig, (sinew_rig_marker)(SINEW_MARKER_LEFT_FOOT + f), foot[f]);
	assert_true(sinew_rig_set_state(s.rig, SINEW_RIG_ANIMATED));
	get_markers(s.rig, prev);
	float prev_y = root.p.y;
	for (int i = 0; i < 30; ++i) {
		frame(&s, DT);
		float ry = sinew_rig_get_root(s.rig).p.y;
		get_markers(s.rig, now);
		assert_true(fabsf(ry - prev_y) <= 12.0f * 1.5f / 0.25f * DT + 1e-3f);
		for (int f = SINEW_MARKER_LEFT_FOOT; f <= SINEW_MARKER_RIGHT_FOOT; ++f)
			assert_true(sinew_distance(now[f], prev[f]) <= sinew_distance(foot[f - 2], stance[f]) * 1.5f / 0.25f * DT + 1e-3f);
		if (i == 0) assert_true(fabsf(ry - root.p.y) < 0.1f); /* the first frame is the pose handed back */
		prev_y = ry;
		memcpy(prev, now, sizeof prev);
	}
	assert_float_near(sinew_rig_get_root(s.rig).p.y, y, 1e-3);
	for (int f = SINEW_MARKER_LEFT_FOOT; f <= SINEW_MARKER_RIGHT_FOOT; ++f) {
		assert_float_near(now[f].x, stance[f].x, 1e-3);
		assert_float_near(now[f].y, stance[f].y, 1e-3);
	}
	destroy(&s);
}

/* A ragdoll that cut a hard landing short took the figure as the impact left it (torso sunk, hands
 * dropped); handed back in that pose, the controller starts from it and returns the torso and the
 * hands to the stance the landing was recovering to within the 0.25 s blend, no frame faster than
 * the blend's steepest slope, instead of leaving the figure crouched for good. */
static void test_ragdoll_hand_back_after_a_cut_landing(void **state)
{
	(void)state;
	scene s;
	float y = stand(&s, 0.0f);
	sinew_rig_pose stance, cut, now;
	sinew_vec2 base[SINEW_MARKER_COUNT];
	sinew_rig_get_pose(s.rig, &stance);
	drop(&s, y, 400.0f, base);
	for (int i = 0; i < 5; ++i) frame(&s, DT);
	assert_true(sinew_rig_set_state(s.rig, SINEW_RIG_RAGDOLL));
	sinew_rig_get_pose(s.rig, &cut);
	float sunk = cut.torso.y - stance.torso.y, dropped = sinew_distance(cut.markers[0], base[0]);
	assert_true(sunk > 10.0f && dropped > 50.0f);
	assert_true(sinew_rig_set_state(s.rig, SINEW_RIG_ANIMATED));
	sinew_rig_pose prev = cut;
	for (int i = 0; i < 30; ++i) {
		frame(&s, DT);
		sinew_rig_get_pose(s.rig, &now);
		if (i == 0) assert_true(fabsf(now.torso.y - cut.torso.y) < 0.05f * sunk); /* starts from the pose handed back */
		assert_true(sinew_distance(now.torso, prev.torso) <= sunk * 1.5f / 0.25f * DT + 1e-3f);
		for (int h = 0; h < 2; ++h)
			assert_true(sinew_distance(now.markers[h], prev.markers[h]) <=
			            sinew_distance(cut.markers[h], base[h]) * 1.5f / 0.25f * DT + 1e-3f);
		prev = now;
	}
	assert_float_near(now.torso.x, stance.torso.x, 1e-3);
	assert_float_near(now.torso.y, stance.torso.y, 1e-3);
	assert_float_near(now.bones[SINEW_PART_TORSO], stance.bones[SINEW_PART_TORSO], 1e-5);
	for (int h = 0; h < 2; ++h) {
		assert_float_near(now.markers[h].x, base[h].x, 1e-3);
		assert_float_near(now.markers[h].y, base[h].y, 1e-3);
	}
	destroy(&s);
}

/* scenes/terrain.json: every stickman walks off its platform, ramp, stairs or ledge, falls and
 * lands hard; the one flying at the wall is stopped short of it. */
static void test_terrain_scene(void **state)
{
	(void)state;
	char error[512] = "";
	sinew_scene *sc = sinew_scene_load_file("scenes/terrain.json", error, sizeof error);
	if (sc == NULL) fail_msg("%s", error);
	int n = sinew_scene_get_rig_count(sc);
	assert_int_equal(n, 4);
	enum { SEEN_AIR = 1, SEEN_IMPACT = 2 };
	int seen[4] = {0, 0, 0, 0};
	for (int step = 0; step < sinew_scene_get_default_steps(sc); ++step) {
		assert_true(sinew_scene_step(sc));
		for (int i = 0; i < n; ++i) {
			sinew_rig_motion m = sinew_rig_get_motion(sinew_scene_get_rig(sc, i));
			if (step > 120 && m == SINEW_MOTION_AIRBORNE) seen[i] |= SEEN_AIR;
			if ((seen[i] & SEEN_AIR) && m == SINEW_MOTION_LANDING_IMPACT) seen[i] |= SEEN_IMPACT;
		}
	}
	for (int i = 0; i < n; ++i) {
		const sinew_rig *rig = sinew_scene_get_rig(sc, i);
		assert_int_equal(seen[i], SEEN_AIR | SEEN_IMPACT);
		assert_int_equal(sinew_rig_get_motion(rig), SINEW_MOTION_GROUNDED);
		assert_float_near(sinew_rig_get_root(rig).p.y, -385.0f, 0.01); /* on the floor */
	}
	sinew_rig *wall = sinew_scene_find_rig(sc, "into_wall");
	sinew_body_id face = sinew_scene_find_body(sc, "wall");
	float wall_x = sinew_body_compute_aabb(face).lower.x;
	for (int p = 0; p < SINEW_PART_COUNT; ++p)
		assert_true(sinew_body_compute_aabb(sinew_rig_get_proxy(wall, (sinew_rig_part)p)).upper.x <= wall_x + 1.0f);
	assert_int_equal(sinew_rig_get_facing(sinew_scene_find_rig(sc, "off_stairs")), SINEW_FACING_LEFT);
	sinew_scene_destroy(sc);
}

/* No proxies: the sweep has nothing to cast, so the rig moves unswept, after one report. */
static void test_without_proxies_moves_unswept_with_one_report(void **state)
{
	(void)state;
	error_recorder rec;
	recorder_install(&rec);
	sinew_world_def wd = sinew_default_world_def();
	wd.gravity = sinew_v2(0.0f, 980.0f);
	wd.length_units_per_meter = 100.0f;
	wd.error_fn = recorder_callback;
	wd.error_context = &rec;
	scene s = {sinew_create_world(&wd), NULL};
	block(s.world, -1000.0f, 0.0f, 0.0f, 200.0f);
	sinew_rig_def rd = sinew_default_rig_def();
	rd.position = sinew_v2(-150.0f, -420.0f);
	rd.proxies = false;
	s.rig = sinew_create_rig(s.world, &rd);
	assert_non_null(s.rig);
	sinew_rig_set_terrain_following(s.rig, true);
	settle(&s);
	sinew_rig_walk(s.rig, 300.0f);
	run_while(&s, SINEW_MOTION_GROUNDED, 1000, DT);
	float x = sinew_rig_get_root(s.rig).p.x;
	for (int i = 0; i < 20; ++i) frame(&s, DT);
	assert_true(sinew_rig_get_root(s.rig).p.x > x + 40.0f);
	assert_int_equal(rec.count, 1);
	assert_int_equal(rec.last_code, SINEW_ERROR_INVALID_ARGUMENT);
	assert_non_null(strstr(rec.last_message, "unswept"));
	destroy(&s);
	sinew_set_error_callback(NULL, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_disabled_to_airborne),
		cmocka_unit_test(test_takeoff_keeps_signed_walk_velocity),
		cmocka_unit_test(test_exponential_drag_and_curved_trajectory),
		cmocka_unit_test(test_air_pose_hands_reach_forward_before_lifting),
		cmocka_unit_test(test_air_pose_full_speed_offsets_and_mirror),
		cmocka_unit_test(test_soft_landing_restores_exactly),
		cmocka_unit_test(test_fall_height_maps_to_compression_and_hand_drop),
		cmocka_unit_test(test_cancel_and_disable_restore_or_keep),
		cmocka_unit_test(test_unequal_feet_on_stair_and_ramp),
		cmocka_unit_test(test_sweep_into_wall_stops_without_overlap),
		cmocka_unit_test(test_low_rate_fall_lands_on_thin_ramp),
		cmocka_unit_test(test_walking_feet_step_rather_than_slide),
		cmocka_unit_test(test_stopping_fades_stride_in_place),
		cmocka_unit_test(test_ragdoll_hand_back_resumes_mid_stride),
		cmocka_unit_test(test_ragdoll_hand_back_blends_a_mismatch),
		cmocka_unit_test(test_ragdoll_hand_back_after_a_cut_landing),
		cmocka_unit_test(test_without_proxies_moves_unswept_with_one_report),
		cmocka_unit_test(test_terrain_scene),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
