/* Continuous collision: fast bodies never pass through thin static walls, bullets never pass
 * through thin dynamic planks, and bodies that are not fast are left to the contact solver. */
#include "support.h"

#include <math.h>

static sinew_body_id static_box(sinew_world_id w, sinew_vec2 center, float hx, float hy)
{
	sinew_body_def bd = sinew_default_body_def();
	bd.position = center;
	sinew_body_id b = sinew_create_body(w, &bd);
	sinew_shape_def sd = sinew_default_shape_def();
	sinew_polygon box = sinew_make_box(hx, hy);
	sinew_create_polygon_shape(b, &sd, &box);
	return b;
}

/* A 0.05 m ball at 50, 200 and 400 m/s against a 0.05 m thick wall 5 m away never passes. */
static void fast_ball_never_tunnels(void **state)
{
	(void)state;
	const float speeds[3] = {50.0f, 200.0f, 400.0f};
	for (int k = 0; k < 3; ++k) {
		sinew_world_def wd = sinew_default_world_def();
		wd.gravity = sinew_v2(0.0f, 0.0f);
		wd.maximum_linear_speed = 1000.0f;
		sinew_world_id w = sinew_create_world(&wd);
		static_box(w, sinew_v2(5.0f, 0.0f), 0.025f, 2.0f);
		sinew_body_id ball = make_ball(w, 0.0f, 0.0f, 0.05f, 0.0f);
		sinew_body_set_linear_velocity(ball, sinew_v2(speeds[k], 0.0f));
		float furthest = 0.0f;
		for (int i = 0; i < 60; ++i) {
			step_n(w, 1);
			furthest = sinew_maxf(furthest, sinew_body_get_position(ball).x);
		}
		print_message("ball at %.0f m/s: furthest x %.4f (wall face at 4.975)\n", (double)speeds[k], (double)furthest);
		assert_true(furthest + 0.05f <= 4.975f + 0.01f); /* its surface never went past the wall's face */
		sinew_destroy_world(w);
	}
	/* the same ball at 400 m/s with continuous collision off goes straight through: the test can fail */
	sinew_world_def wd = sinew_default_world_def();
	wd.gravity = sinew_v2(0.0f, 0.0f);
	wd.maximum_linear_speed = 1000.0f;
	wd.enable_continuous = false;
	sinew_world_id w = sinew_create_world(&wd);
	static_box(w, sinew_v2(5.0f, 0.0f), 0.025f, 2.0f);
	sinew_body_id ball = make_ball(w, 0.0f, 0.0f, 0.05f, 0.0f);
	sinew_body_set_linear_velocity(ball, sinew_v2(400.0f, 0.0f));
	step_n(w, 5);
	assert_true(sinew_body_get_position(ball).x > 10.0f);
	sinew_destroy_world(w);
}

/* A 4 m rod falling flat at 300 m/s (5 m a step) onto a 0.2 m ledge under its end, not under its
 * centre: the ledge must stop that end and turn the rod. The path of the rod's centre of mass
 * passes 1.7 m from the ledge, so a look-up of static shapes along the centres alone would miss
 * it (continuous.c skips the sweeps only when no static box is within the body's extent). */
static void rod_end_never_tunnels(void **state)
{
	(void)state;
	for (int on = 0; on < 2; ++on) {
		sinew_world_def wd = sinew_default_world_def();
		wd.gravity = sinew_v2(0.0f, 0.0f);
		wd.maximum_linear_speed = 1000.0f;
		wd.enable_continuous = on != 0;
		sinew_world_id w = sinew_create_world(&wd);
		static_box(w, sinew_v2(1.8f, -2.5f), 0.1f, 0.025f);
		sinew_body_def bd = sinew_default_body_def();
		bd.type = SINEW_DYNAMIC_BODY;
		bd.linear_velocity = sinew_v2(0.0f, -300.0f);
		sinew_body_id rod = sinew_create_body(w, &bd);
		sinew_shape_def sd = sinew_default_shape_def();
		sinew_polygon box = sinew_make_box(2.0f, 0.025f);
		sinew_create_polygon_shape(rod, &sd, &box);
		float turn = 0.0f;
		for (int i = 0; i < 10; ++i) {
			step_n(w, 1);
			turn = sinew_maxf(turn, fabsf(sinew_body_get_angular_velocity(rod)));
		}
		print_message("rod, continuous %s: largest spin %.3f rad/s\n", on ? "on" : "off", (double)turn);
		if (on)
			assert_true(turn > 1.0f); /* its end struck the ledge */
		else
			assert_true(turn == 0.0f); /* without the sweep it passes untouched: the test can fail */
		sinew_destroy_world(w);
	}
}

/* A pixel world (100 px per metre, y down, gravity 980 px/s^2): 8 px radius capsule limbs at
 * 5,000 px/s, spinning, against a 16 px floor never pass, and as they land their deepest point
 * stays within 0.1 px of the floor's top, as the ball's does: each limb is stopped where it first
 * touches, and one that lands on an end and turns about it is stopped where its other end touches
 * and kept from rolling the first end into the floor (README's figure; 2.31 px before the limbs'
 * ends were swept on their own). Afterwards, sliding into each other, they are the contact
 * solver's, within its 0.5 px slop. */
static void pixel_limb_never_tunnels(void **state)
{
	(void)state;
	sinew_world_def wd = sinew_default_world_def();
	wd.length_units_per_meter = 100.0f;
	wd.gravity = sinew_v2(0.0f, 980.0f);
	sinew_world_id w = sinew_create_world(&wd);
	static_box(w, sinew_v2(0.0f, 508.0f), 2000.0f, 8.0f); /* floor top at y = 500 */
	sinew_body_id limbs[8];
	for (int k = 0; k < 8; ++k) {
		sinew_body_def bd = sinew_default_body_def();
		bd.type = SINEW_DYNAMIC_BODY;
		bd.position = sinew_v2(-800.0f + 200.0f * (float)k, 0.0f);
		bd.angle = 0.3f * (float)k;
		bd.linear_velocity = sinew_v2(300.0f * (float)(k - 4), 5000.0f);
		bd.angular_velocity = 20.0f * (float)(k - 4);
		limbs[k] = sinew_create_body(w, &bd);
		sinew_shape_def sd = sinew_default_shape_def();
		sinew_capsule c = sinew_make_capsule_godot(200.0f, 8.0f, sinew_v2(0.0f, 0.0f), 0.0f);
		assert_false(SINEW_IS_NULL(sinew_create_capsule_shape(limbs[k], &sd, &c)));
	}
	float landing = 0.0f, deepest = 0.0f; /* the first 0.25 s (every limb lands by 0.12 s), and all 1.5 s */
	for (int i = 0; i < 90; ++i) {
		step_n(w, 1);
		for (int k = 0; k < 8; ++k) {
			sinew_aabb box = sinew_body_compute_aabb(limbs[k]);
			float depth = box.upper.y - 500.0f; /* y down: below the floor top is > 500 */
			deepest = sinew_maxf(deepest, depth);
			if (i < 15) landing = sinew_maxf(landing, depth);
		}
	}
	print_message("pixel limbs at 5000 px/s: deepest point %.2f px below the floor top as they land, %.2f px "
	              "afterwards (16 px floor)\n", (double)landing, (double)deepest);
	assert_true(deepest < 16.0f); /* never through the floor */
	assert_true(landing <= 0.1f); /* stopped at its top */
	assert_true(deepest <= 0.5f); /* and then held within the contact slop as they slide into each other */
	sinew_destroy_world(w);
}

/* A bullet against a thin dynamic plank never passes; without the bullet flag, a ball that fast
 * may (the plank is dynamic, so only bullets are swept against it). */
static void bullet_never_tunnels_through_dynamic_plank(void **state)
{
	(void)state;
	sinew_world_def wd = sinew_default_world_def();
	wd.gravity = sinew_v2(0.0f, 0.0f);
	sinew_world_id w = sinew_create_world(&wd);
	sinew_body_id plank = make_box(w, 5.0f, 0.0f, 0.025f, 1.0f, 10.0f, 0.6f);
	sinew_body_def bd = sinew_default_body_def();
	bd.type = SINEW_DYNAMIC_BODY;
	bd.is_bullet = true;
	bd.linear_velocity = sinew_v2(300.0f, 0.0f);
	sinew_body_id bullet = sinew_create_body(w, &bd);
	sinew_shape_def sd = sinew_default_shape_def();
	sinew_circle c = {{0.0f, 0.0f}, 0.05f};
	sinew_create_circle_shape(bullet, &sd, &c);
	float furthest = -INFINITY;
	for (int i = 0; i < 60; ++i) {
		step_n(w, 1);
		furthest = sinew_maxf(furthest, sinew_body_get_position(bullet).x - sinew_body_get_position(plank).x);
	}
	assert_true(furthest < 0.0f); /* always on its own side of the plank */
	assert_true(sinew_body_get_linear_velocity(plank).x > 0.0f); /* and it pushed the plank */
	sinew_destroy_world(w);
}

/* Slow bodies are not swept: a stack stands exactly as without continuous collision. */
static void slow_bodies_are_not_swept(void **state)
{
	(void)state;
	uint64_t hashes[2];
	for (int k = 0; k < 2; ++k) {
		sinew_world_id w = make_world(NULL);
		sinew_world_enable_continuous(w, k == 0);
		make_ground(w, 0.0f, 0.6f);
		for (int i = 0; i < 5; ++i) make_box(w, 0.0f, 0.5f + (float)i, 0.5f, 0.5f, 1.0f, 0.6f);
		step_n(w, 120);
		hashes[k] = sinew_world_get_hash(w);
		sinew_destroy_world(w);
	}
	assert_true(hashes[0] == hashes[1]);
}

/* The step in which a resting box falls asleep, in a world where `figures` jointed pairs of thin
 * rods land 40 m away at 100 m/s, one every three steps, so continuous collision rewinds a figure
 * on many steps while the box settles. */
static int box_sleeps_at(int figures)
{
	sinew_world_def wd = sinew_default_world_def();
	sinew_world_id w = sinew_create_world(&wd);
	make_ground(w, 0.0f, 0.6f);
	sinew_body_id box = make_box(w, 0.0f, 0.5f, 0.5f, 0.5f, 1.0f, 0.6f);
	for (int k = 0; k < figures; ++k) {
		sinew_body_id rods[2];
		for (int r = 0; r < 2; ++r) {
			float y = (100.0f / 60.0f) * (float)(3 + 3 * k) + 0.5f;
			rods[r] = make_box(w, 40.0f + 4.0f * (float)k + 1.0f * (float)r, y, 0.5f, 0.01f, 1.0f, 0.6f);
			sinew_body_set_linear_velocity(rods[r], sinew_v2(0.0f, -100.0f));
		}
		sinew_revolute_joint_def jd = sinew_default_revolute_joint_def();
		jd.base.body_a = rods[0];
		jd.base.body_b = rods[1];
		jd.anchor = sinew_add(sinew_body_get_position(rods[0]), sinew_v2(0.5f, 0.0f));
		assert_false(SINEW_IS_NULL(sinew_create_revolute_joint(w, &jd)));
	}
	int step = 0;
	while (sinew_body_is_awake(box) && step < 600) {
		step_n(w, 1);
		step += 1;
	}
	sinew_destroy_world(w);
	return step;
}

/* Sleep is per island: a box settling on the ground falls asleep at the same step whether or not
 * continuous collision rewinds jointed figures elsewhere in the world. (The rewind collected each
 * figure in the list of islands the sleep update reads afterwards, so on every such step no island
 * advanced its sleep timer: the box slept 10 steps late with ten figures landing.) */
static void swept_figures_do_not_delay_sleep_elsewhere(void **state)
{
	(void)state;
	int alone = box_sleeps_at(0), beside = box_sleeps_at(10);
	print_message("box asleep at step %d alone, %d beside ten landing figures\n", alone, beside);
	assert_true(alone < 600);
	assert_int_equal(beside, alone);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fast_ball_never_tunnels),
		cmocka_unit_test(pixel_limb_never_tunnels),
		cmocka_unit_test(rod_end_never_tunnels),
		cmocka_unit_test(bullet_never_tunnels_through_dynamic_plank),
		cmocka_unit_test(slow_bodies_are_not_swept),
		cmocka_unit_test(swept_figures_do_not_delay_sleep_elsewhere),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
