/* `sinew run`'s check after every step (issue 15, class 8): once a body is not finite the run
 * must stop and name the body and the step (tools/run_check.c, which `sinew run` calls and this
 * test includes). No scene file the engine accepts reaches a non-finite state any more, so the
 * state is made non-finite here through the world's internals (solver/world.h). */
#include "support.h"
#include "../tools/run_check.c"
#include "../solver/world.h"

#include <math.h>
#include <string.h>

static const char *const s_scene =
	"{\"sinew_scene\": 1, \"world\": {\"steps\": 10},"
	" \"bodies\": ["
	"  {\"name\": \"ground\", \"type\": \"static\", \"position\": [0, -0.5],"
	"   \"shapes\": [{\"type\": \"box\", \"half_extents\": [20, 0.5]}]},"
	"  {\"position\": [-2, 3], \"shapes\": [{\"type\": \"circle\", \"radius\": 0.5}]},"
	"  {\"name\": \"ball\", \"position\": [0, 2], \"shapes\": [{\"type\": \"circle\", \"radius\": 0.5}]}],"
	" \"templates\": [{\"name\": \"pebble\", \"bodies\": ["
	"  {\"shapes\": [{\"type\": \"circle\", \"radius\": 0.25}]}]}]}";

/* The engine's record of a body: the hook that makes its state non-finite. */
static sinew_body *internal_body(sinew_scene *scene, sinew_body_id id)
{
	sinew_world *w = sinew_world_get(sinew_scene_get_world(scene), "test_run_check");
	assert_non_null(w);
	return &w->bodies[id.index1 - 1];
}

static void expect_in(const char *text, const char *part)
{
	if (strstr(text, part) == NULL) fail_msg("expected \"%s\" in: %s", part, text);
}

static void finite_runs_pass(void **state)
{
	(void)state;
	sinew_scene *scene = must_load_scene(s_scene);
	char message[512] = "";
	for (int i = 1; i <= 10; ++i) {
		sinew_scene_step(scene);
		assert_true(run_check_finite(scene, "good.json", i, message, sizeof message));
	}
	assert_string_equal(message, "");
	assert_int_equal(sinew_scene_get_error_count(scene), 0);
	sinew_scene_destroy(scene);
}

/* A NaN in any part of a body's state (angular velocity alone, which the tool's old check of
 * position and velocity missed, or the position) names that body of the file and the step. */
static void a_non_finite_body_is_named_with_its_step(void **state)
{
	(void)state;
	sinew_scene *scene = must_load_scene(s_scene);
	char message[512];
	for (int i = 1; i <= 3; ++i) sinew_scene_step(scene);
	internal_body(scene, sinew_scene_get_body(scene, 2))->w = NAN;
	assert_false(run_check_finite(scene, "bad.json", 3, message, sizeof message));
	expect_in(message, "bad.json: bodies[2] ball is not finite after step 3");
	expect_in(message, "angular velocity nan");
	assert_true(sinew_scene_get_error_count(scene) >= 1); /* the engine's report reaches the scene */
	internal_body(scene, sinew_scene_get_body(scene, 2))->w = 0.0f;
	internal_body(scene, sinew_scene_get_body(scene, 1))->xf.p.x = INFINITY;
	assert_false(run_check_finite(scene, "bad.json", 4, message, sizeof message));
	expect_in(message, "bad.json: bodies[1] is not finite after step 4: position (inf, ");
	sinew_scene_destroy(scene);
}

/* A spawned body is no body of the file: the message says so. */
static void a_non_finite_spawned_body_is_reported(void **state)
{
	(void)state;
	sinew_scene *scene = must_load_scene(s_scene);
	assert_true(sinew_scene_spawn(scene, "pebble", sinew_v2(3.0f, 1.0f), NULL));
	sinew_scene_step(scene);
	char message[512];
	assert_true(run_check_finite(scene, "bad.json", 1, message, sizeof message));
	sinew_world *w = sinew_world_get(sinew_scene_get_world(scene), "test_run_check");
	sinew_body *last = &w->bodies[stbds_arrlen(w->bodies) - 1];
	assert_true(last->in_use);
	last->v.y = NAN;
	assert_false(run_check_finite(scene, "bad.json", 1, message, sizeof message));
	assert_string_equal(message, "bad.json: a body spawned at run time is not finite after step 1");
	sinew_scene_destroy(scene);
}

/* Counts the step's non-finite reports and keeps the last. */
typedef struct step_reports {
	int count;
	char last[512];
} step_reports;

static void count_step_reports(sinew_error code, const char *message, void *context)
{
	step_reports *r = context;
	if (code != SINEW_ERROR_NOT_FINITE || strncmp(message, "sinew_world_step: ", 18) != 0) return;
	r->count += 1;
	snprintf(r->last, sizeof r->last, "%s", message);
}

/* The engine's own checks (class 2): sinew_world_is_finite names the body and the step, and a
 * build with SINEW_ASSERT on (the Makefile's) reports the step that made a body non-finite, once. */
static void the_engine_names_a_non_finite_body_once(void **state)
{
	(void)state;
	error_recorder rec;
	memset(&rec, 0, sizeof rec);
	sinew_world_id world = make_world(&rec);
	make_ground(world, 0.0f, 0.6f);
	sinew_body_id ball = make_ball(world, 0.0f, 2.0f, 0.5f, 0.0f);
	step_n(world, 1);
	assert_true(sinew_world_is_finite(world));
	assert_int_equal(rec.count, 0);
	sinew_world *w = sinew_world_get(world, "test_run_check");
	assert_non_null(w);
	w->bodies[ball.index1 - 1].v.x = NAN;
	assert_false(sinew_world_is_finite(world));
	assert_int_equal(rec.last_code, SINEW_ERROR_NOT_FINITE);
	char expected[128];
	snprintf(expected, sizeof expected, "sinew_world_is_finite: body %d (index1 %d, generation ", ball.index1 - 1,
	         ball.index1);
	expect_in(rec.last_message, expected);
	expect_in(rec.last_message, "is not finite after step 1");
#if !defined(NDEBUG) || defined(SINEW_ENABLE_ASSERT)
	step_reports steps = {0, ""};
	sinew_world_set_error_callback(world, count_step_reports, &steps);
	step_n(world, 1);
	assert_int_equal(steps.count, 1);
	expect_in(steps.last, "is not finite after step 2");
	step_n(world, 3);
	assert_int_equal(steps.count, 1); /* once */
#endif
	sinew_destroy_world(world);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(finite_runs_pass),
		cmocka_unit_test(a_non_finite_body_is_named_with_its_step),
		cmocka_unit_test(a_non_finite_spawned_body_is_reported),
		cmocka_unit_test(the_engine_names_a_non_finite_body_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
