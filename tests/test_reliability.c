/* Reliability regressions (issue 15): handles that cannot come back to life, callbacks that run
 * with the world locked, the numeric envelope, polygons, NULL arguments and the error routing.
 * Each test failed on the code before its fix. */
#include "support.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <string.h>

static error_recorder s_rec;

static int reset(void **state)
{
	(void)state;
	memset(&s_rec, 0, sizeof s_rec);
	recorder_install(&s_rec);
	return 0;
}

static int restore(void **state)
{
	(void)state;
	sinew_set_error_callback(NULL, NULL);
	return 0;
}

/* ------------------------------------------------------------------ 4: handles */

/* A game's level reload: the old level's handles must not reach the new level's objects. */
static void stale_ids_do_not_revive_in_a_new_world(void **state)
{
	(void)state;
	sinew_world_id w1 = make_world(&s_rec);
	sinew_body_id b = make_box(w1, 0.0f, 1.0f, 0.5f, 0.5f, 1.0f, 0.6f);
	sinew_shape_id s;
	assert_int_equal(sinew_body_get_shapes(b, &s, 1), 1);
	sinew_body_id other = make_box(w1, 3.0f, 1.0f, 0.5f, 0.5f, 1.0f, 0.6f);
	sinew_distance_joint_def jd = sinew_default_distance_joint_def();
	jd.base.body_a = b;
	jd.base.body_b = other;
	jd.anchor_a = sinew_v2(0.0f, 1.0f);
	jd.anchor_b = sinew_v2(3.0f, 1.0f);
	sinew_joint_id j = sinew_create_distance_joint(w1, &jd);
	assert_false(SINEW_IS_NULL(j));
	assert_true(sinew_destroy_world(w1));

	sinew_world_id w2 = make_world(&s_rec);
	assert_int_equal(w2.index1, w1.index1); /* the same slot, reused */
	assert_false(SINEW_ID_EQUALS(w1, w2));
	assert_false(sinew_world_is_valid(w1));
	sinew_body_id b2 = make_box(w2, 7.0f, 1.0f, 0.5f, 0.5f, 1.0f, 0.6f);
	sinew_body_id other2 = make_box(w2, 9.0f, 1.0f, 0.5f, 0.5f, 1.0f, 0.6f);
	jd.base.body_a = b2;
	jd.base.body_b = other2;
	jd.anchor_a = sinew_v2(7.0f, 1.0f);
	jd.anchor_b = sinew_v2(9.0f, 1.0f);
	assert_false(SINEW_IS_NULL(sinew_create_distance_joint(w2, &jd)));
	assert_int_equal(b2.index1, b.index1);
	assert_false(sinew_body_is_valid(b));
	assert_false(sinew_shape_is_valid(s));
	assert_false(sinew_joint_is_valid(j));
	int before = s_rec.count;
	assert_false(sinew_destroy_body(b));
	assert_int_equal(s_rec.count, before + 1);
	assert_int_equal(s_rec.last_code, SINEW_ERROR_INVALID_ID);
	assert_false(sinew_destroy_joint(j));
	assert_true(sinew_body_is_valid(b2));
	assert_int_equal(sinew_world_get_counters(w2).body_count, 2);
	assert_int_equal(sinew_world_get_counters(w2).joint_count, 1);
	sinew_vec2 p = sinew_body_get_position(b2);
	assert_float_near(p.x, 7.0f, 1e-6);
	sinew_destroy_world(w2);
}

/* A slot reused 65,536 times: a 16-bit generation wrapped and the first handle was valid again. */
static void stale_ids_survive_generation_wrap(void **state)
{
	(void)state;
	sinew_world_id w = make_world(&s_rec);
	sinew_body_def bd = sinew_default_body_def();
	sinew_body_id first = sinew_create_body(w, &bd);
	assert_true(sinew_destroy_body(first));
	sinew_body_id last = first;
	for (int i = 0; i < 70000; ++i) {
		last = sinew_create_body(w, &bd);
		assert_int_equal(last.index1, first.index1);
		assert_false(sinew_body_is_valid(first));
		assert_true(sinew_destroy_body(last));
	}
	assert_false(SINEW_ID_EQUALS(first, last));
	/* and worlds: a world slot reused 65,536 times */
	sinew_world_id w0 = w;
	assert_true(sinew_destroy_world(w));
	for (int i = 0; i < 66000; ++i) {
		sinew_world_def wd = sinew_default_world_def();
		w = sinew_create_world(&wd);
		assert_false(sinew_world_is_valid(w0));
		assert_true(sinew_destroy_world(w));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(stale_ids_do_not_revive_in_a_new_world, reset, restore),
		cmocka_unit_test_setup_teardown(stale_ids_survive_generation_wrap, reset, restore),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
