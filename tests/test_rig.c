/* The stickman rig (rig.h): skeleton numbers, forward kinematics for every facing, two-bone IK,
 * the pose as a value, and the proxies following the bones. Pixel world: 100 length units per
 * metre, y down, gravity 980. Props and reactions are in test_rig_props.c. */
#include "support.h"

#include "sinew/rig.h"

#include <math.h>
#include <string.h>

#define DT (1.0f / 60.0f)

static error_recorder s_rec;

static sinew_world_id pixel_world(void)
{
	sinew_world_def wd = sinew_default_world_def();
	wd.gravity = sinew_v2(0.0f, 980.0f);
	wd.length_units_per_meter = 100.0f;
	wd.error_fn = recorder_callback;
	wd.error_context = &s_rec;
	return sinew_create_world(&wd);
}

static sinew_rig *make_rig(sinew_world_id world, sinew_vec2 at, sinew_rig_facing facing)
{
	sinew_rig_def rd = sinew_default_rig_def();
	rd.position = at;
	rd.facing = facing;
	rd.name = "stick";
	sinew_rig *rig = sinew_create_rig(world, &rd);
	assert_non_null(rig);
	return rig;
}

static sinew_vec2 origin_of(const sinew_rig *rig, sinew_rig_part part) { return sinew_rig_get_part(rig, part).origin; }
static sinew_vec2 tip_of(const sinew_rig *rig, sinew_rig_part part) { return sinew_rig_get_part(rig, part).tip; }

static void assert_point(sinew_vec2 p, float x, float y, float tol)
{
	assert_float_near(p.x, x, tol);
	assert_float_near(p.y, y, tol);
}

/* The rest skeleton's numbers (docs/rig.md, "The skeleton"), relative to the hips at (hx, hy): neck
 * 391.5 up, shoulders 248 up, knees 200 and ankles 400 down; hands 368 out on each side (mirrored
 * for LEFT). */
static void check_rest_joints(const sinew_rig *rig, float hx, float hy, float mirror)
{
	const float tol = 1e-3f;
	assert_point(origin_of(rig, SINEW_PART_TORSO), hx, hy, tol);
	assert_point(tip_of(rig, SINEW_PART_TORSO), hx, hy - 391.5f, tol);
	assert_point(origin_of(rig, SINEW_PART_HEAD), hx, hy - 391.5f, tol);
	assert_point(sinew_rig_get_part(rig, SINEW_PART_HEAD).center, hx, hy - 491.5f, tol);
	assert_point(origin_of(rig, SINEW_PART_LEFT_UPPER_ARM), hx, hy - 248.0f, tol);
	assert_point(origin_of(rig, SINEW_PART_RIGHT_UPPER_ARM), hx, hy - 248.0f, tol);
	assert_point(origin_of(rig, SINEW_PART_LEFT_LOWER_ARM), hx - mirror * 168.0f, hy - 248.0f, tol);
	assert_point(tip_of(rig, SINEW_PART_LEFT_LOWER_ARM), hx - mirror * 368.0f, hy - 248.0f, tol);
	assert_point(origin_of(rig, SINEW_PART_RIGHT_LOWER_ARM), hx + mirror * 168.0f, hy - 248.0f, tol);
	assert_point(tip_of(rig, SINEW_PART_RIGHT_LOWER_ARM), hx + mirror * 368.0f, hy - 248.0f, tol);
	for (int leg = SINEW_PART_LEFT_UPPER_LEG; leg <= SINEW_PART_RIGHT_UPPER_LEG; leg += 2) {
		assert_point(origin_of(rig, (sinew_rig_part)leg), hx, hy, tol);
		assert_point(origin_of(rig, (sinew_rig_part)(leg + 1)), hx, hy + 200.0f, tol);
		assert_point(tip_of(rig, (sinew_rig_part)(leg + 1)), hx, hy + 400.0f, tol);
	}
	assert_float_near(sinew_rig_get_part(rig, SINEW_PART_TORSO).angle, -0.5f * SINEW_PI, 1e-5f);
	assert_float_near(sinew_rig_get_part(rig, SINEW_PART_LEFT_UPPER_LEG).angle, 0.5f * SINEW_PI, 1e-5f);
}

static void skeleton_table(void **state)
{
	(void)state;
	sinew_rig_skeleton s = sinew_default_rig_skeleton();
	assert_int_equal(s.bones[SINEW_PART_TORSO].parent, -1);
	assert_float_near(s.bones[SINEW_PART_TORSO].length, 391.5f, 0.0f);
	assert_float_near(s.bones[SINEW_PART_HEAD].length, 90.0f, 0.0f);
	assert_float_near(s.bones[SINEW_PART_LEFT_UPPER_ARM].length, 168.0f, 0.0f);
	assert_float_near(s.bones[SINEW_PART_RIGHT_LOWER_ARM].length, 200.0f, 0.0f);
	assert_float_near(s.bones[SINEW_PART_RIGHT_LOWER_LEG].length, 200.0f, 0.0f);
	assert_float_near(s.bones[SINEW_PART_HEAD].proxy_radius, 90.0f, 0.0f);
	assert_float_near(s.bones[SINEW_PART_TORSO].proxy_radius, 20.0f, 0.0f);
	assert_float_near(s.bones[SINEW_PART_LEFT_LOWER_ARM].proxy_radius, 12.0f, 0.0f);
	assert_float_near(s.bones[SINEW_PART_LEFT_LOWER_LEG].proxy_radius, 14.0f, 0.0f);
	assert_float_near(s.head_radius, 100.0f, 0.0f);
	assert_float_near(s.limb_width, 16.0f, 0.0f);
	for (int i = 0; i < SINEW_PART_COUNT; ++i) assert_string_equal(s.bones[i].name, sinew_rig_part_name((sinew_rig_part)i));
	assert_null(sinew_rig_part_name(SINEW_PART_COUNT));
}

static void fk_every_facing(void **state)
{
	(void)state;
	sinew_world_id world = pixel_world();
	sinew_rig *right = make_rig(world, sinew_v2(0.0f, -385.0f), SINEW_FACING_RIGHT);
	sinew_rig *left = make_rig(world, sinew_v2(1000.0f, -385.0f), SINEW_FACING_LEFT);
	sinew_rig *forward = make_rig(world, sinew_v2(-1000.0f, -385.0f), SINEW_FACING_FORWARD);
	for (int frame = 0; frame < 2; ++frame) { /* at creation, and after an update's IK */
		check_rest_joints(right, 0.0f, -385.0f, 1.0f);
		check_rest_joints(left, 1000.0f, -385.0f, -1.0f);
		check_rest_joints(forward, -1000.0f, -385.0f, 1.0f);
		assert_true(sinew_rig_update(right, DT) && sinew_rig_update(left, DT) && sinew_rig_update(forward, DT));
	}
	/* A turned root turns everything about the hips: a quarter turn lays the spine along +x. */
	sinew_rig_set_root(right, sinew_make_transform(sinew_v2(0.0f, 0.0f), 0.5f * SINEW_PI));
	sinew_rig_update(right, DT);
	assert_point(tip_of(right, SINEW_PART_TORSO), 391.5f, 0.0f, 1e-3f);
	assert_point(tip_of(right, SINEW_PART_RIGHT_LOWER_LEG), -400.0f, 0.0f, 1e-3f);
	/* The profiles' bend flags (docs/rig.md, "Facing profiles"). */
	bool expect[3][SINEW_LIMB_COUNT] = {{true, true, false, false}, {true, true, false, false}, {false, true, true, false}};
	for (int f = 0; f < 3; ++f) {
		for (int l = 0; l < SINEW_LIMB_COUNT; ++l) {
			assert_int_equal(sinew_rig_profile_bend_flip((sinew_rig_facing)f, (sinew_rig_limb)l), expect[f][l]);
		}
	}
	assert_true(sinew_rig_get_bend_flip(left, SINEW_LIMB_LEFT_ARM));
	assert_false(sinew_rig_get_bend_flip(forward, SINEW_LIMB_LEFT_ARM));
	assert_true(sinew_rig_get_bend_flip(forward, SINEW_LIMB_LEFT_LEG));
	sinew_destroy_rig(right);
	sinew_destroy_rig(left);
	sinew_destroy_rig(forward);
	sinew_destroy_world(world);
}

/* The end of the chain the IK angles describe. */
static sinew_vec2 chain_end(sinew_vec2 o, float l1, float l2, float upper, float lower)
{
	return sinew_v2(o.x + l1 * cosf(upper) + l2 * cosf(lower), o.y + l1 * sinf(upper) + l2 * sinf(lower));
}

static void two_bone_ik(void **state)
{
	(void)state;
	sinew_vec2 o = sinew_v2(10.0f, -20.0f);
	float up, lo, worst = 0.0f;
	/* Reachable targets all round, both bend sides, both limb proportions: reached within 0.5 px. */
	for (int k = 0; k < 72; ++k) {
		for (int r = 1; r <= 9; ++r) {
			float a = (float)k * SINEW_PI / 36.0f, d = 40.0f * (float)r + 1.0f; /* 41 .. 361 < 368 */
			sinew_vec2 t = sinew_v2(o.x + d * cosf(a), o.y + d * sinf(a));
			for (int flip = 0; flip < 2; ++flip) {
				assert_true(sinew_solve_two_bone_ik(o, 168.0f, 200.0f, t, flip != 0, &up, &lo));
				worst = fmaxf(worst, sinew_distance(chain_end(o, 168.0f, 200.0f, up, lo), t));
				/* the bend flag picks the side: false a positive relative angle, true a negative one */
				float rel = atan2f(sinf(lo - up), cosf(lo - up));
				if (flip) assert_true(rel < 0.0f);
				else assert_true(rel > 0.0f);
			}
		}
	}
	print_message("two-bone IK: worst miss %.2e px over 1296 reachable targets\n", (double)worst);
	assert_true(worst < 0.5f);
	/* Out of reach: straight, pointing at the target. */
	sinew_vec2 far = sinew_v2(o.x + 300.0f, o.y + 400.0f);
	assert_true(sinew_solve_two_bone_ik(o, 200.0f, 200.0f, far, false, &up, &lo));
	assert_float_near(up, lo, 0.0f);
	assert_float_near(up, atan2f(400.0f, 300.0f), 1e-6f);
	/* A knee (unflipped) bends forward: a foot target 300 below the hip puts the knee at +x. */
	assert_true(sinew_solve_two_bone_ik(sinew_v2(0.0f, 0.0f), 200.0f, 200.0f, sinew_v2(0.0f, 300.0f), false, &up, &lo));
	assert_true(200.0f * cosf(up) > 100.0f);
	assert_true(sinew_solve_two_bone_ik(sinew_v2(0.0f, 0.0f), 200.0f, 200.0f, sinew_v2(0.0f, 300.0f), true, &up, &lo));
	assert_true(200.0f * cosf(up) < -100.0f);
	/* Refused: bad lengths, non-finite targets. */
	assert_false(sinew_solve_two_bone_ik(o, 0.0f, 200.0f, far, false, &up, &lo));
	assert_false(sinew_solve_two_bone_ik(o, 200.0f, 200.0f, sinew_v2(NAN, 0.0f), false, &up, &lo));
}

/* A rig's limbs follow their markers by IK; LEFT is the exact mirror of RIGHT. */
static void rig_ik_and_mirror(void **state)
{
	(void)state;
	sinew_world_id world = pixel_world();
	sinew_rig *right = make_rig(world, sinew_v2(0.0f, -385.0f), SINEW_FACING_RIGHT);
	sinew_rig *left = make_rig(world, sinew_v2(0.0f, -385.0f), SINEW_FACING_LEFT);
	sinew_vec2 hand = sinew_v2(150.0f, -150.0f), foot = sinew_v2(120.0f, 300.0f), look = sinew_v2(300.0f, -500.0f);
	for (int i = 0; i < 2; ++i) {
		sinew_rig *r = i == 0 ? right : left;
		sinew_rig_set_marker(r, SINEW_MARKER_RIGHT_HAND, hand);
		sinew_rig_set_marker(r, SINEW_MARKER_LEFT_FOOT, foot);
		sinew_rig_set_marker(r, SINEW_MARKER_HEAD, look);
		sinew_rig_set_marker(r, SINEW_MARKER_LEFT_HAND, sinew_v2(-900.0f, -248.0f)); /* out of reach */
		sinew_rig_update(r, DT);
	}
	/* reached, in the world (the rig frame is the world shifted by the root for RIGHT) */
	sinew_vec2 w = sinew_rig_to_world(right, hand);
	assert_true(sinew_distance(tip_of(right, SINEW_PART_RIGHT_LOWER_ARM), w) < 0.5f);
	assert_true(sinew_distance(tip_of(right, SINEW_PART_LEFT_LOWER_LEG), sinew_rig_to_world(right, foot)) < 0.5f);
	assert_true(sinew_distance(tip_of(left, SINEW_PART_RIGHT_LOWER_ARM), sinew_rig_to_world(left, hand)) < 0.5f);
	/* the unreachable hand: a straight arm pointing at the target */
	sinew_rig_part_state ua = sinew_rig_get_part(right, SINEW_PART_LEFT_UPPER_ARM);
	sinew_rig_part_state la = sinew_rig_get_part(right, SINEW_PART_LEFT_LOWER_ARM);
	assert_float_near(ua.angle, la.angle, 1e-5f);
	sinew_vec2 to = sinew_sub(sinew_rig_to_world(right, sinew_v2(-900.0f, -248.0f)), ua.origin);
	assert_float_near(fabsf(atan2f(to.y, to.x)), fabsf(ua.angle), 1e-4f);
	/* the elbow (flipped arm) bends back, the knee (unflipped leg) forward, in the rig frame */
	sinew_vec2 elbow = sinew_rig_to_local(right, origin_of(right, SINEW_PART_RIGHT_LOWER_ARM));
	assert_true(sinew_cross(sinew_sub(hand, sinew_v2(0.0f, -248.0f)), sinew_sub(elbow, sinew_v2(0.0f, -248.0f))) > 0.0f);
	sinew_vec2 knee = sinew_rig_to_local(right, origin_of(right, SINEW_PART_LEFT_LOWER_LEG));
	assert_true(knee.x > foot.x * (knee.y / foot.y) + 1.0f);
	/* overriding the flag moves the elbow to the other side */
	sinew_rig_set_bend_flip(right, SINEW_LIMB_RIGHT_ARM, false);
	sinew_rig_update(right, DT);
	sinew_vec2 elbow2 = sinew_rig_to_local(right, origin_of(right, SINEW_PART_RIGHT_LOWER_ARM));
	assert_true(sinew_cross(sinew_sub(hand, sinew_v2(0.0f, -248.0f)), sinew_sub(elbow2, sinew_v2(0.0f, -248.0f))) < 0.0f);
	assert_true(sinew_distance(tip_of(right, SINEW_PART_RIGHT_LOWER_ARM), w) < 0.5f);
	sinew_rig_set_bend_flip(right, SINEW_LIMB_RIGHT_ARM, true);
	sinew_rig_update(right, DT);
	/* the head looks at its marker */
	sinew_vec2 gaze = sinew_sub(sinew_rig_to_world(right, look), origin_of(right, SINEW_PART_HEAD));
	assert_float_near(sinew_rig_get_part(right, SINEW_PART_HEAD).angle, atan2f(gaze.y, gaze.x), 1e-5f);
	/* LEFT mirrors RIGHT exactly: same y, x negated about the root (at x = 0), angles pi - a */
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		sinew_rig_part_state a = sinew_rig_get_part(right, (sinew_rig_part)p), b = sinew_rig_get_part(left, (sinew_rig_part)p);
		assert_true(a.origin.x == -b.origin.x && a.origin.y == b.origin.y);
		assert_true(a.tip.x == -b.tip.x && a.tip.y == b.tip.y);
		assert_true(a.center.x == -b.center.x && a.center.y == b.center.y);
		assert_float_near(cosf(a.angle), -cosf(b.angle), 1e-6f);
		assert_float_near(sinf(a.angle), sinf(b.angle), 1e-6f);
	}
	sinew_destroy_rig(right);
	sinew_destroy_rig(left);
	sinew_destroy_world(world);
}

static void pose_round_trip(void **state)
{
	(void)state;
	sinew_world_id world = pixel_world();
	sinew_rig *a = make_rig(world, sinew_v2(0.0f, -385.0f), SINEW_FACING_FORWARD);
	sinew_rig *b = make_rig(world, sinew_v2(500.0f, -385.0f), SINEW_FACING_RIGHT);
	sinew_rig_set_marker(a, SINEW_MARKER_LEFT_HAND, sinew_v2(-100.0f, -30.0f));
	sinew_rig_set_torso(a, sinew_v2(3.0f, 7.0f), -1.4f);
	sinew_rig_set_limb_ik(a, SINEW_LIMB_RIGHT_LEG, false);
	sinew_rig_set_bone_angle(a, SINEW_PART_RIGHT_UPPER_LEG, 2.5f);
	sinew_rig_set_bend_flip(a, SINEW_LIMB_LEFT_ARM, true);
	sinew_rig_set_root(a, sinew_make_transform(sinew_v2(12.5f, -380.25f), 0.3f));
	sinew_rig_update(a, DT);
	sinew_rig_pose p, q, r;
	assert_true(sinew_rig_get_pose(a, &p));
	assert_true(sinew_rig_set_pose(b, &p));
	assert_true(sinew_rig_get_pose(b, &q));
	assert_memory_equal(&p, &q, sizeof p);
	/* the same pose solves to the same parts, bit for bit, after an update of each */
	sinew_rig_update(a, DT);
	sinew_rig_update(b, DT);
	assert_true(sinew_rig_get_pose(b, &r));
	assert_true(sinew_rig_get_pose(a, &q));
	assert_memory_equal(&q, &r, sizeof q);
	for (int i = 0; i < SINEW_PART_COUNT; ++i) {
		sinew_rig_part_state x = sinew_rig_get_part(a, (sinew_rig_part)i), y = sinew_rig_get_part(b, (sinew_rig_part)i);
		assert_memory_equal(&x, &y, sizeof x);
	}
	assert_int_equal(sinew_rig_get_facing(b), SINEW_FACING_FORWARD);
	/* sinew_rig_solve_pose gives the same parts without touching a rig */
	sinew_rig_part_state parts[SINEW_PART_COUNT];
	assert_true(sinew_rig_solve_pose(a, &q, parts));
	for (int i = 0; i < SINEW_PART_COUNT; ++i) assert_true(sinew_distance(parts[i].tip, tip_of(a, (sinew_rig_part)i)) == 0.0f);
	/* non-finite poses are refused and change nothing */
	int n = s_rec.count;
	q.bones[3] = NAN;
	assert_false(sinew_rig_set_pose(b, &q));
	assert_int_equal(s_rec.count, n + 1);
	assert_int_equal(s_rec.last_code, SINEW_ERROR_NOT_FINITE);
	assert_true(sinew_rig_get_pose(b, &q));
	assert_memory_equal(&q, &r, sizeof q);
	sinew_destroy_rig(a);
	sinew_destroy_rig(b);
	sinew_destroy_world(world);
}

/* Largest distance (px) and angle (rad) between a proxy and its part. */
static void proxy_error(const sinew_rig *rig, float *distance, float *angle)
{
	*distance = *angle = 0.0f;
	for (int i = 0; i < SINEW_PART_COUNT; ++i) {
		sinew_body_id body = sinew_rig_get_proxy(rig, (sinew_rig_part)i);
		sinew_rig_part_state s = sinew_rig_get_part(rig, (sinew_rig_part)i);
		sinew_transform xf = sinew_body_get_transform(body);
		*distance = fmaxf(*distance, sinew_distance(xf.p, s.origin));
		*angle = fmaxf(*angle, fabsf(sinew_relative_angle(xf.q, sinew_make_rot(s.angle))));
	}
}

static void proxies_follow(void **state)
{
	(void)state;
	sinew_world_id world = pixel_world();
	sinew_rig *rig = make_rig(world, sinew_v2(0.0f, -385.0f), SINEW_FACING_LEFT);
	float d, a, worst_d = 0.0f, worst_a = 0.0f;
	for (int i = 0; i < SINEW_PART_COUNT; ++i) {
		sinew_body_id body = sinew_rig_get_proxy(rig, (sinew_rig_part)i);
		assert_true(sinew_body_get_type(body) == SINEW_KINEMATIC_BODY);
		sinew_rig *owner = NULL;
		sinew_rig_part part = SINEW_PART_COUNT;
		assert_true(sinew_rig_from_body(body, &owner, &part));
		assert_ptr_equal(owner, rig);
		assert_int_equal(part, i);
		const sinew_rig_proxy_info *info = sinew_body_get_user_data(body);
		assert_int_equal(info->magic, SINEW_RIG_PROXY_MAGIC);
		assert_string_equal(info->part_name, sinew_rig_part_name((sinew_rig_part)i));
	}
	assert_false(sinew_rig_from_body(sinew_null_body_id, NULL, NULL));
	/* at rest, then walking, waving and turning: after every world step the proxies sit on the bones */
	for (int frame = 0; frame < 240; ++frame) {
		float t = (float)frame * DT;
		if (frame >= 60) {
			sinew_rig_set_root(rig, sinew_make_transform(sinew_v2(150.0f * (t - 1.0f), -385.0f), 0.2f * sinf(3.0f * t)));
			sinew_rig_set_marker(rig, SINEW_MARKER_RIGHT_HAND, sinew_v2(200.0f * cosf(4.0f * t), -250.0f + 150.0f * sinf(4.0f * t)));
			sinew_rig_set_marker(rig, SINEW_MARKER_LEFT_FOOT, sinew_v2(80.0f * sinf(5.0f * t), 370.0f));
		}
		assert_true(sinew_rig_update(rig, DT));
		sinew_world_step(world, DT, 4);
		proxy_error(rig, &d, &a);
		worst_d = fmaxf(worst_d, d);
		worst_a = fmaxf(worst_a, a);
	}
	print_message("proxies follow: worst %.2e px, %.2e deg\n", (double)worst_d, (double)(worst_a * 180.0f / SINEW_PI));
	assert_true(worst_d < 0.5f);
	assert_true(worst_a < 0.5f * SINEW_PI / 180.0f);
	/* the momentum of the walk: 150 px/s along x, and the sway's turn rate over the last frame */
	assert_float_near(sinew_rig_get_linear_velocity(rig).x, 150.0f, 0.5f);
	float t1 = 239.0f * DT, t0 = 238.0f * DT;
	float sway = (0.2f * sinf(3.0f * t1) - 0.2f * sinf(3.0f * t0)) / DT;
	assert_float_near(sinew_rig_get_angular_velocity(rig), sway, 1e-2f);
	assert_true(fabsf(sway) > 0.1f);
	/* a moving proxy carries the rig's velocity */
	sinew_vec2 v = sinew_body_get_linear_velocity(sinew_rig_get_proxy(rig, SINEW_PART_TORSO));
	assert_true(v.x > 50.0f);
	sinew_destroy_rig(rig);
	assert_int_equal(sinew_world_get_counters(world).body_count, 0);
	sinew_destroy_world(world);
}

static void misuse_is_refused(void **state)
{
	(void)state;
	sinew_world_id world = pixel_world();
	sinew_rig_def rd = sinew_default_rig_def();
	int n = s_rec.count;
	rd.skeleton.bones[SINEW_PART_HEAD].length = -1.0f;
	assert_null(sinew_create_rig(world, &rd));
	assert_int_equal(s_rec.count, n + 1);
	rd = sinew_default_rig_def();
	rd.skeleton.bones[SINEW_PART_LEFT_LOWER_ARM].parent = 7;
	assert_null(sinew_create_rig(world, &rd));
	rd = sinew_default_rig_def();
	rd.position.x = INFINITY;
	assert_null(sinew_create_rig(world, &rd));
	assert_null(sinew_create_rig(sinew_null_world_id, NULL));
	assert_int_equal(sinew_world_get_counters(world).body_count, 0);
	sinew_rig *rig = make_rig(world, sinew_v2(0.0f, 0.0f), SINEW_FACING_RIGHT);
	n = s_rec.count;
	assert_false(sinew_rig_update(rig, 0.0f));
	assert_false(sinew_rig_set_marker(rig, SINEW_MARKER_COUNT, sinew_v2(0.0f, 0.0f)));
	assert_false(sinew_rig_set_marker(rig, SINEW_MARKER_HEAD, sinew_v2(NAN, 0.0f)));
	assert_false(sinew_rig_set_bone_angle(rig, SINEW_PART_COUNT, 0.0f));
	assert_false(sinew_rig_set_facing(rig, (sinew_rig_facing)7));
	assert_false(sinew_rig_apply_reaction(rig, SINEW_PART_HEAD, sinew_v2(1.0f, 0.0f), -3.0f));
	assert_int_equal(s_rec.count, n + 6);
	assert_false(sinew_rig_update(NULL, DT));
	sinew_destroy_rig(NULL);
	sinew_destroy_rig(rig);
	sinew_destroy_world(world);
}

int main(void)
{
	recorder_install(&s_rec);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(skeleton_table),
		cmocka_unit_test(fk_every_facing),
		cmocka_unit_test(two_bone_ik),
		cmocka_unit_test(rig_ik_and_mirror),
		cmocka_unit_test(pose_round_trip),
		cmocka_unit_test(proxies_follow),
		cmocka_unit_test(misuse_is_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
