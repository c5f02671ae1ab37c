/* The awake sets (solver/awake.c): a step visits the awake bodies and the contacts with an awake
 * body from sets kept as bodies wake, sleep, come and go, instead of scanning the pools. Random
 * sequences of every change that moves a body in or out check them against a scan of the pools,
 * through the world's own check (sinew_world_validate) and through what a step shows: the awake
 * count, and the move events (one per body the step solved, in body order). */
#include "support.h"

#include <stdio.h>

#define MAX_BODIES 48
#define SCAN_BODIES 2100 /* the most bodies a test's world holds (wide_pool_changes_keep_the_sets) */

typedef struct random_state {
	uint32_t s;
} random_state;

static uint32_t next_random(random_state *r)
{
	r->s = r->s * 1664525u + 1013904223u;
	return r->s >> 8;
}

static int pick(random_state *r, int n)
{
	return (int)(next_random(r) % (uint32_t)n);
}

static bool counts_as_awake(sinew_body_id b)
{
	return sinew_body_is_enabled(b) && sinew_body_is_awake(b) && sinew_body_get_type(b) != SINEW_STATIC_BODY;
}

/* The awake count from a scan of the bodies. */
static int scan_awake(sinew_world_id world)
{
	static sinew_body_id bodies[SCAN_BODIES];
	int n = sinew_world_get_bodies(world, bodies, SCAN_BODIES), awake = 0;
	for (int i = 0; i < n; ++i) awake += counts_as_awake(bodies[i]);
	return awake;
}

/* After a step: a move event for exactly the bodies that are awake now or fell asleep in it (no
 * joint breaks here, the only waking after the solve), in ascending body index order. */
static void check_move_events(sinew_world_id world)
{
	sinew_body_events ev = sinew_world_get_body_events(world);
	static sinew_body_id bodies[SCAN_BODIES];
	int n = sinew_world_get_bodies(world, bodies, SCAN_BODIES);
	int expected = 0;
	for (int i = 0; i < n; ++i) {
		bool fell = false, listed = false;
		for (int k = 0; k < ev.move_count; ++k) {
			if (ev.move_events[k].body.index1 != bodies[i].index1) continue;
			listed = true;
			fell = ev.move_events[k].fell_asleep;
		}
		bool should = counts_as_awake(bodies[i]) || fell;
		assert_int_equal(listed, should);
		expected += should;
	}
	assert_int_equal(ev.move_count, expected);
	for (int k = 1; k < ev.move_count; ++k)
		assert_true(ev.move_events[k - 1].body.index1 < ev.move_events[k].body.index1);
}

static sinew_body_id make_random_body(sinew_world_id world, random_state *r)
{
	sinew_body_def bd = sinew_default_body_def();
	int kind = pick(r, 10);
	bd.type = kind < 7 ? SINEW_DYNAMIC_BODY : kind < 9 ? SINEW_KINEMATIC_BODY : SINEW_STATIC_BODY;
	/* a heap over a few metres, so bodies touch, rest on each other and fall asleep together */
	bd.position = sinew_v2(0.6f * (float)(pick(r, 12) - 6), 0.5f + 0.45f * (float)pick(r, 10));
	bd.is_awake = pick(r, 3) != 0;
	bd.is_enabled = pick(r, 8) != 0;
	if (bd.type == SINEW_KINEMATIC_BODY && pick(r, 2)) bd.linear_velocity = sinew_v2(0.0f, -0.5f);
	sinew_body_id b = sinew_create_body(world, &bd);
	sinew_shape_def sd = sinew_default_shape_def();
	sinew_polygon box = sinew_make_box(0.25f, 0.25f);
	sinew_create_polygon_shape(b, &sd, &box);
	return b;
}

static void random_changes(unsigned seed, int rounds, int *steps_out, int *slept_out)
{
	random_state r = {seed};
	error_recorder rec;
	sinew_world_id world = make_world(&rec);
	make_ground(world, 0.0f, 0.6f);
	sinew_body_id bodies[MAX_BODIES];
	int n = 0, steps = 0, slept = 0;
	for (int round = 0; round < rounds; ++round) {
		int op = pick(&r, 100);
		if ((op < 22 || n == 0) && n < MAX_BODIES - 1) {
			bodies[n++] = make_random_body(world, &r);
		} else if (op < 30 && n > 0) {
			int i = pick(&r, n);
			assert_true(sinew_destroy_body(bodies[i]));
			bodies[i] = bodies[--n];
		} else if (op < 40) {
			sinew_body_set_awake(bodies[pick(&r, n)], pick(&r, 2) != 0);
		} else if (op < 48) {
			sinew_body_set_type(bodies[pick(&r, n)], (sinew_body_type)pick(&r, 3));
		} else if (op < 54) {
			sinew_body_id b = bodies[pick(&r, n)];
			if (sinew_body_is_enabled(b)) sinew_body_disable(b);
			else sinew_body_enable(b);
		} else if (op < 58 && n >= 2) { /* joints join islands: they wake and sleep together */
			sinew_revolute_joint_def jd = sinew_default_revolute_joint_def();
			jd.base.body_a = bodies[pick(&r, n)];
			jd.base.body_b = bodies[pick(&r, n)];
			jd.anchor = sinew_body_get_position(jd.base.body_b);
			sinew_create_revolute_joint(world, &jd); /* a body jointed to itself is refused */
		} else if (op < 62) {
			sinew_body_apply_linear_impulse_to_center(bodies[pick(&r, n)], sinew_v2(0.0f, 2.0f), true);
		} else if (op < 64) {
			sinew_world_enable_sleep(world, pick(&r, 4) != 0);
		} else {
			int k = 1 + pick(&r, op < 90 ? 3 : 60); /* now and then long enough to fall asleep */
			for (int s = 0; s < k; ++s) {
				int before = sinew_world_get_counters(world).awake_body_count;
				assert_true(sinew_world_step(world, 1.0f / 60.0f, 4));
				check_move_events(world);
				int after = sinew_world_get_counters(world).awake_body_count;
				slept += after < before;
				steps += 1;
				assert_true(sinew_world_validate(world));
			}
		}
		assert_true(sinew_world_validate(world));
		assert_int_equal(sinew_world_get_counters(world).awake_body_count, scan_awake(world));
	}
	assert_true(sinew_world_is_finite(world));
	sinew_destroy_world(world);
	*steps_out = steps;
	*slept_out = slept;
}

static void awake_sets_follow_random_changes(void **state)
{
	(void)state;
	const unsigned seeds[] = {1, 2, 3, 4, 5, 13, 2026};
	int total_slept = 0;
	for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; ++i) {
		int steps = 0, slept = 0;
		random_changes(seeds[i], 600, &steps, &slept);
		printf("seed %u: %d steps, %d of them put bodies to sleep\n", seeds[i], steps, slept);
		assert_true(steps > 100);
		total_slept += slept;
	}
	assert_true(total_slept > 0); /* the sequences did reach sleep, not only waking */
}

/* A sleeping pile woken by a falling box: the contacts of a body woken in the narrowphase that come
 * later in contact order are refreshed in the same step, as a scan of the pool did; the pile
 * comes to rest and sleeps again, the sets agreeing with the pools throughout. */
static void sleeping_pile_wakes_and_sleeps_again(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	make_ground(world, 0.0f, 0.6f);
	for (int i = 0; i < 10; ++i)
		for (int j = 0; j < 10; ++j) make_box(world, (float)i - 4.5f, 0.5f + (float)j, 0.5f, 0.5f, 1.0f, 0.6f);
	int t = 0;
	while (sinew_world_get_counters(world).awake_body_count > 0 && t < 1200) {
		step_n(world, 1);
		t += 1;
	}
	assert_int_equal(sinew_world_get_counters(world).awake_body_count, 0);
	assert_true(sinew_world_validate(world));
	printf("100 boxes asleep after %d steps\n", t);
	sinew_body_id ball = make_ball(world, 0.3f, 14.0f, 0.4f, 0.0f);
	sinew_body_set_linear_velocity(ball, sinew_v2(0.0f, -8.0f));
	int most = 0;
	for (int s = 0; s < 30; ++s) {
		step_n(world, 1);
		assert_true(sinew_world_validate(world));
		int awake = sinew_world_get_counters(world).awake_body_count;
		most = awake > most ? awake : most;
	}
	printf("the ball woke %d bodies\n", most);
	assert_true(most > 10);
	t = 0;
	while (sinew_world_get_counters(world).awake_body_count > 0 && t < 1200) {
		step_n(world, 1);
		assert_true(sinew_world_validate(world));
		t += 1;
	}
	printf("asleep again after %d steps\n", t);
	assert_int_equal(sinew_world_get_counters(world).awake_body_count, 0);
	assert_true(sinew_world_is_finite(world));
	sinew_destroy_world(world);
}

/* Islands (solver/island.c): the awake dynamic bodies joined by touching contacts and joints,
 * found by union-find over the awake contacts, with the depth-first walk taking over in a step
 * where a link reaches a sleeping body. Three stacks of three boxes well apart are three islands;
 * a distance joint between two stacks' tops makes them one; a ball in the air is one more. Then,
 * all asleep, one box woken alone wakes its stack through the contacts and the jointed stack
 * through the joint at the next step, and the third stack sleeps on. */
static void islands_are_the_linked_stacks(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	make_ground(world, 0.0f, 0.6f);
	sinew_body_id top[3], bottom[3];
	for (int s = 0; s < 3; ++s)
		for (int k = 0; k < 3; ++k) {
			sinew_body_id b = make_box(world, 6.0f * (float)(s - 1), 0.5f + (float)k, 0.5f, 0.5f, 1.0f, 0.6f);
			if (k == 0) bottom[s] = b;
			top[s] = b;
		}
	sinew_world_enable_sleep(world, false);
	step_n(world, 30);
	assert_int_equal(sinew_world_get_counters(world).island_count, 3);
	sinew_distance_joint_def jd = sinew_default_distance_joint_def();
	jd.base.body_a = top[0];
	jd.base.body_b = top[1];
	jd.anchor_a = sinew_body_get_position(top[0]);
	jd.anchor_b = sinew_body_get_position(top[1]);
	assert_true(sinew_create_distance_joint(world, &jd).index1 != 0);
	step_n(world, 1);
	assert_int_equal(sinew_world_get_counters(world).island_count, 2);
	sinew_body_id ball = make_ball(world, 20.0f, 30.0f, 0.4f, 0.0f);
	step_n(world, 1);
	assert_int_equal(sinew_world_get_counters(world).island_count, 3);
	assert_true(sinew_destroy_body(ball));
	sinew_world_enable_sleep(world, true);
	int t = 0;
	while (sinew_world_get_counters(world).awake_body_count > 0 && t < 600) {
		step_n(world, 1);
		t += 1;
	}
	assert_int_equal(sinew_world_get_counters(world).awake_body_count, 0);
	assert_true(sinew_body_set_awake(bottom[0], true));
	assert_int_equal(sinew_world_get_counters(world).awake_body_count, 1);
	step_n(world, 1);
	assert_true(sinew_world_validate(world));
	for (int s = 0; s < 3; ++s) {
		assert_int_equal(sinew_body_is_awake(top[s]), s < 2);
		assert_int_equal(sinew_body_is_awake(bottom[s]), s < 2);
	}
	assert_int_equal(sinew_world_get_counters(world).awake_body_count, 6);
	assert_int_equal(sinew_world_get_counters(world).island_count, 1);
	sinew_destroy_world(world);
}

/* A ball landing on a sleeping stack wakes the whole stack in the step it touches, not a box a
 * step: the top box is woken in the middle of the narrowphase, after its contacts with the boxes
 * below (lower in index order) were passed by, so the islands of that step cannot come from the
 * contacts the narrowphase visited alone (solver/island.c). */
static void landing_wakes_the_whole_stack_at_once(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	make_ground(world, 0.0f, 0.6f);
	enum { N = 6 };
	sinew_body_id box[N];
	for (int k = 0; k < N; ++k) box[k] = make_box(world, 0.0f, 0.5f + (float)k, 0.5f, 0.5f, 1.0f, 0.6f);
	int t = 0;
	while (sinew_world_get_counters(world).awake_body_count > 0 && t < 600) {
		step_n(world, 1);
		t += 1;
	}
	assert_int_equal(sinew_world_get_counters(world).awake_body_count, 0);
	sinew_body_id ball = make_ball(world, 0.0f, (float)N + 1.0f, 0.3f, 0.0f);
	sinew_body_set_linear_velocity(ball, sinew_v2(0.0f, -4.0f));
	for (t = 0; t < 120 && !sinew_body_is_awake(box[N - 1]); ++t) {
		step_n(world, 1);
		assert_true(sinew_world_validate(world));
	}
	assert_true(sinew_body_is_awake(box[N - 1]));
	for (int k = 0; k < N; ++k) assert_true(sinew_body_is_awake(box[k]));
	assert_int_equal(sinew_world_get_counters(world).awake_body_count, N + 1);
	assert_int_equal(sinew_world_get_counters(world).island_count, 1);
	sinew_destroy_world(world);
}

/* Many bodies apart, woken and put to sleep a few or hundreds at a time at random places in the
 * pool: the flush's three ways of taking changes in (a few far apart sorted, many close together
 * sorted through a bitmap, few against a long set merged by search) keep the sets those of a scan. */
static void wide_pool_changes_keep_the_sets(void **state)
{
	(void)state;
	enum { N = 2000 };
	sinew_world_id world = make_world(NULL);
	static sinew_body_id body[N];
	for (int k = 0; k < N; ++k) {
		sinew_body_def bd = sinew_default_body_def();
		bd.type = SINEW_DYNAMIC_BODY;
		bd.position = sinew_v2(2.0f * (float)(k % 50), 2.0f * (float)(k / 50));
		bd.is_awake = k % 3 == 0;
		body[k] = sinew_create_body(world, &bd);
		sinew_shape_def sd = sinew_default_shape_def();
		sinew_polygon box = sinew_make_box(0.25f, 0.25f);
		sinew_create_polygon_shape(body[k], &sd, &box);
	}
	random_state r = {7};
	const int sizes[] = {1, 2, 3, 40, 300, 1500};
	for (int round = 0; round < 80; ++round) {
		int k = sizes[pick(&r, 6)];
		for (int j = 0; j < k; ++j) sinew_body_set_awake(body[pick(&r, N)], pick(&r, 2) != 0);
		assert_true(sinew_world_validate(world));
		assert_true(sinew_world_step(world, 1.0f / 60.0f, 4));
		check_move_events(world);
		assert_true(sinew_world_validate(world));
		assert_int_equal(sinew_world_get_counters(world).awake_body_count, scan_awake(world));
	}
	sinew_destroy_world(world);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(awake_sets_follow_random_changes),
		cmocka_unit_test(sleeping_pile_wakes_and_sleeps_again),
		cmocka_unit_test(islands_are_the_linked_stacks),
		cmocka_unit_test(landing_wakes_the_whole_stack_at_once),
		cmocka_unit_test(wide_pool_changes_keep_the_sets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
