/* Collision groups (shapes of one non-zero group never collide) and the scene format's templates
 * with the spawn / destroy_group script ops: instances land where they are told with their joints
 * intact, groups keep one figure's parts apart but not two figures', a group is destroyed whole,
 * bad files are refused with the key path, and a spawn the engine refuses leaves nothing behind. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "sinew/scene.h"
#include "support.h"

/* ---- collision groups in the engine ---- */

static sinew_body_id ball(sinew_world_id w, float x, float y, uint32_t group)
{
	sinew_body_def bd = sinew_default_body_def();
	bd.type = SINEW_DYNAMIC_BODY;
	bd.position = sinew_v2(x, y);
	bd.gravity_scale = 0.0f;
	sinew_body_id b = sinew_create_body(w, &bd);
	sinew_shape_def sd = sinew_default_shape_def();
	sd.group = group;
	sinew_circle c = {{0.0f, 0.0f}, 0.5f};
	sinew_create_circle_shape(b, &sd, &c);
	return b;
}

/* Two overlapping balls push apart unless they share a non-zero group; changing the group at run
 * time takes effect at the next step. */
static void test_group_keeps_shapes_apart(void **state)
{
	(void)state;
	for (int same = 0; same < 2; ++same) {
		sinew_world_def wd = sinew_default_world_def();
		sinew_world_id w = sinew_create_world(&wd);
		sinew_body_id a = ball(w, 0.0f, 0.0f, 7u), b = ball(w, 0.6f, 0.0f, same ? 7u : 8u);
		for (int i = 0; i < 30; ++i) sinew_world_step(w, 1.0f / 60.0f, 4);
		float gap = sinew_body_get_position(b).x - sinew_body_get_position(a).x;
		if (same) {
			assert_float_equal(gap, 0.6f, 1e-6f); /* passed through each other: no contact at all */
			assert_int_equal(sinew_world_get_counters(w).contact_count, 0);
		} else {
			assert_true(gap > 0.99f); /* pushed apart to touching (radii 0.5 + 0.5) */
		}
		sinew_destroy_world(w);
	}
	/* group 0 is no group: layers decide */
	sinew_world_def wd = sinew_default_world_def();
	sinew_world_id w = sinew_create_world(&wd);
	sinew_body_id a = ball(w, 0.0f, 0.0f, 0u), b = ball(w, 0.6f, 0.0f, 0u);
	sinew_shape_id sa, sb;
	assert_int_equal(sinew_body_get_shapes(a, &sa, 1), 1);
	assert_int_equal(sinew_body_get_shapes(b, &sb, 1), 1);
	sinew_world_step(w, 1.0f / 60.0f, 4);
	assert_int_equal(sinew_world_get_counters(w).contact_count, 1);
	assert_true(sinew_shape_set_group(sa, 3u));
	assert_true(sinew_shape_set_group(sb, 3u));
	assert_int_equal(sinew_shape_get_group(sb), 3);
	sinew_body_set_linear_velocity(a, sinew_v2(0.0f, 0.0f));
	sinew_body_set_linear_velocity(b, sinew_v2(0.0f, 0.0f));
	sinew_vec2 pa = sinew_body_get_position(a), pb = sinew_body_get_position(b);
	for (int i = 0; i < 10; ++i) sinew_world_step(w, 1.0f / 60.0f, 4);
	assert_int_equal(sinew_world_get_counters(w).contact_count, 0);
	assert_float_equal(sinew_body_get_position(a).x, pa.x, 1e-6f); /* nothing pushes any more */
	assert_float_equal(sinew_body_get_position(b).x, pb.x, 1e-6f);
	/* a stale shape is refused */
	sinew_destroy_body(b);
	assert_false(sinew_shape_set_group(sb, 1u));
	assert_int_equal(sinew_shape_get_group(sb), 0);
	sinew_destroy_world(w);
}

/* ---- templates and spawn ops ---- */

/* A dumbbell: two balls 1 m apart whose shapes overlap a third ball between them, on revolute
 * joints; instances that do not self-collide keep the overlap without exploding. */
static const char *const k_dumbbells =
	"{\"sinew_scene\": 1, \"world\": {\"gravity\": [0, 0], \"steps\": 200},\n"
	" \"bodies\": [{\"name\": \"anchor\", \"type\": \"static\", \"position\": [0, -50]}],\n"
	" \"templates\": [{\"name\": \"bell\", \"self_collide\": false,\n"
	"   \"bodies\": [{\"name\": \"l\", \"position\": [-0.5, 0], \"shapes\": [{\"type\": \"circle\", \"radius\": 0.4}]},\n"
	"              {\"name\": \"m\", \"position\": [0, 0], \"shapes\": [{\"type\": \"circle\", \"radius\": 0.4}]},\n"
	"              {\"name\": \"r\", \"position\": [0.5, 0], \"shapes\": [{\"type\": \"circle\", \"radius\": 0.4}]}],\n"
	"   \"joints\": [{\"type\": \"revolute\", \"body_a\": \"l\", \"body_b\": \"m\", \"anchor\": [-0.25, 0]},\n"
	"              {\"type\": \"revolute\", \"body_a\": \"m\", \"body_b\": \"r\", \"anchor\": [0.25, 0]}]}],\n"
	" \"script\": [\n"
	"   {\"step\": 0, \"op\": \"spawn\", \"template\": \"bell\", \"group\": \"pair\", \"at\": [[10, 5], [-10, 5]]},\n"
	"   {\"step\": 2, \"op\": \"spawn\", \"template\": \"bell\", \"at\": [[0, 20]]},\n"
	"   {\"step\": 5, \"op\": \"destroy_group\", \"group\": \"pair\"},\n"
	"   {\"step\": 6, \"op\": \"spawn\", \"template\": \"bell\", \"group\": \"pair\", \"at\": [[0, -20]]}]}\n";

static int live_bodies(sinew_world_id w, sinew_body_id *out, int capacity)
{
	int n = sinew_world_get_bodies(w, out, capacity);
	assert_int_equal(n, sinew_world_get_counters(w).body_count);
	return n;
}

static void test_spawn_places_instances(void **state)
{
	(void)state;
	sinew_scene *scene = must_load_scene(k_dumbbells);
	sinew_world_id w = sinew_scene_get_world(scene);
	assert_int_equal(sinew_world_get_counters(w).body_count, 1);
	assert_true(sinew_scene_step(scene)); /* step 0: two instances */
	sinew_counters c = sinew_world_get_counters(w);
	assert_int_equal(c.body_count, 7);
	assert_int_equal(c.joint_count, 4);
	sinew_body_id bodies[16];
	int n = live_bodies(w, bodies, 16);
	/* the file's body first, then instance 1 (l, m, r at x = 9.5, 10, 10.5), then instance 2 */
	const float x[7] = {0.0f, 9.5f, 10.0f, 10.5f, -10.5f, -10.0f, -9.5f};
	const float y[7] = {-50.0f, 5.0f, 5.0f, 5.0f, 5.0f, 5.0f, 5.0f};
	for (int i = 0; i < n; ++i) {
		sinew_vec2 p = sinew_body_get_position(bodies[i]);
		assert_float_equal(p.x, x[i], 1e-5f);
		assert_float_equal(p.y, y[i], 1e-5f);
	}
	/* the joints were made at the moved anchors: nothing is pulled apart */
	sinew_joint_id joints[8];
	assert_int_equal(sinew_world_get_joints(w, joints, 8), 4);
	for (int i = 0; i < 4; ++i) assert_true(sinew_joint_get_linear_error(joints[i]) < 1e-5f);
	/* each instance has a group of its own, above every group of the file (none here) */
	sinew_shape_id s1, s2;
	sinew_body_get_shapes(bodies[1], &s1, 1);
	sinew_body_get_shapes(bodies[4], &s2, 1);
	assert_true(sinew_shape_get_group(s1) != 0);
	assert_true(sinew_shape_get_group(s2) != 0);
	assert_true(sinew_shape_get_group(s1) != sinew_shape_get_group(s2));
	/* overlapping parts of one instance do not collide: the middle ball stays put */
	for (int i = 0; i < 4; ++i) assert_true(sinew_scene_step(scene));
	assert_int_equal(sinew_world_get_counters(w).contact_count, 0);
	assert_float_equal(sinew_body_get_position(bodies[2]).x, 10.0f, 1e-5f);
	assert_int_equal(sinew_world_get_counters(w).body_count, 10); /* the ungrouped one came at step 2 */
	/* step 5: the group goes, the ungrouped instance stays; step 6: the group is refilled */
	assert_true(sinew_scene_step(scene));
	assert_int_equal(sinew_world_get_counters(w).body_count, 4);
	assert_int_equal(sinew_world_get_counters(w).joint_count, 2);
	assert_false(sinew_body_is_valid(bodies[1]));
	assert_true(sinew_scene_step(scene));
	assert_int_equal(sinew_world_get_counters(w).body_count, 7);
	for (int i = 7; i < 200; ++i) assert_true(sinew_scene_step(scene));
	assert_int_equal(sinew_scene_get_error_count(scene), 0);
	sinew_scene_destroy(scene);
}

/* The same from C: sinew_scene_spawn and sinew_scene_destroy_group, with the file's groups and new
 * ones; bad calls are refused with a message and make nothing. */
static void test_spawn_from_c(void **state)
{
	(void)state;
	sinew_scene *scene = must_load_scene(k_dumbbells);
	sinew_world_id w = sinew_scene_get_world(scene);
	assert_int_equal(sinew_scene_get_template_count(scene), 1);
	assert_string_equal(sinew_scene_get_template_name(scene, 0), "bell");
	assert_null(sinew_scene_get_template_name(scene, 1));
	assert_true(sinew_scene_spawn(scene, "bell", sinew_v2(3.0f, -4.0f), "mine"));
	assert_true(sinew_scene_spawn(scene, "bell", sinew_v2(6.0f, -4.0f), "pair")); /* the file's group */
	assert_true(sinew_scene_spawn(scene, "bell", sinew_v2(9.0f, -4.0f), NULL));
	sinew_counters c = sinew_world_get_counters(w);
	assert_int_equal(c.body_count, 1 + 9);
	assert_int_equal(c.joint_count, 6);
	sinew_body_id bodies[32];
	int n = live_bodies(w, bodies, 32);
	assert_int_equal(n, 10);
	assert_float_equal(sinew_body_get_position(bodies[1]).x, 2.5f, 1e-6f);
	assert_float_equal(sinew_body_get_position(bodies[1]).y, -4.0f, 1e-6f);
	/* refusals make nothing */
	assert_false(sinew_scene_spawn(scene, "nope", sinew_v2(0.0f, 0.0f), NULL));
	assert_non_null(strstr(sinew_scene_get_last_error(scene), "sinew_scene_spawn: no template named \"nope\""));
	assert_false(sinew_scene_spawn(scene, "bell", sinew_v2(NAN, 0.0f), NULL));
	assert_false(sinew_scene_destroy_group(scene, "never"));
	assert_int_equal(sinew_world_get_counters(w).body_count, 10);
	/* the group made from C goes on its own; the file's op at step 5 takes what C put in "pair" */
	assert_true(sinew_scene_destroy_group(scene, "mine"));
	assert_int_equal(sinew_world_get_counters(w).body_count, 7);
	for (int i = 0; i < 6; ++i) sinew_scene_step(scene); /* steps 0..5: spawn 2 + 1 instances, destroy "pair" */
	assert_int_equal(sinew_world_get_counters(w).body_count, 1 + 3 + 3); /* the C ungrouped one and step 2's */
	sinew_scene_destroy(scene);
}

/* Two instances of a self-colliding-off template dropped one above the other do collide. */
static void test_instances_collide_with_each_other(void **state)
{
	(void)state;
	const char *text =
		"{\"sinew_scene\": 1,\n"
		" \"bodies\": [{\"type\": \"static\", \"shapes\": [{\"type\": \"box\", \"half_extents\": [5, 0.5], "
		"\"center\": [0, -0.5]}]}],\n"
		" \"templates\": [{\"name\": \"t\", \"self_collide\": false, \"bodies\": [{\"position\": [0, 0.5], "
		"\"shapes\": [{\"type\": \"box\", \"half_extents\": [0.5, 0.5]}]}]}],\n"
		" \"script\": [{\"step\": 0, \"op\": \"spawn\", \"template\": \"t\", \"at\": [[0, 0], [0, 1.5]]}]}\n";
	sinew_scene *scene = must_load_scene(text);
	for (int i = 0; i < 120; ++i) sinew_scene_step(scene);
	sinew_body_id bodies[4];
	assert_int_equal(live_bodies(sinew_scene_get_world(scene), bodies, 4), 3);
	/* stacked: the upper box rests on the lower one (1 m higher), not inside it */
	assert_float_equal(sinew_body_get_position(bodies[2]).y - sinew_body_get_position(bodies[1]).y, 1.0f, 0.02f);
	sinew_scene_destroy(scene);
}

static void test_bad_templates_and_ops(void **state)
{
	(void)state;
	expect_scene_error("{\"sinew_scene\": 1, \"script\": [{\"step\": 0, \"op\": \"destroy_group\", \"group\": \"x\"}]}",
	             "bad.json:1:66: script[0].group: nothing is spawned into group \"x\" before this op runs");
	expect_scene_error("{\"sinew_scene\": 1, \"script\": [{\"step\": 0, \"op\": \"spawn\", \"template\": \"x\", \"at\": [[0, 0]]}]}",
	             "bad.json:1:58: script[0].template: no template named \"x\"");
	expect_scene_error("{\"sinew_scene\": 1, \"templates\": [{\"name\": \"t\", \"bodies\": [{}]}],\n"
	             " \"script\": [{\"step\": 0, \"op\": \"spawn\", \"template\": \"t\", \"at\": [[0, 0], [1]]}]}",
	             "bad.json:2:72: script[0].at[1]: expected an array of 2 numbers [x, y]");
	expect_scene_error("{\"sinew_scene\": 1, \"templates\": [{\"name\": \"t\", \"bodies\": [{}]}],\n"
	             " \"script\": [{\"step\": 0, \"op\": \"spawn\", \"template\": \"t\"}]}",
	             "bad.json:2:13: script[0].at: required key is missing");
	expect_scene_error("{\"sinew_scene\": 1, \"templates\": [{\"name\": \"t\", \"bodies\": []}]}",
	             "bad.json:1:48: templates[0].bodies: a template needs at least one body");
	expect_scene_error("{\"sinew_scene\": 1, \"templates\": [{\"name\": \"t\", \"bodies\": [{}]}, "
	             "{\"name\": \"t\", \"bodies\": [{}]}]}",
	             "bad.json:1:66: templates[1].name: duplicate template name \"t\"");
	expect_scene_error("{\"sinew_scene\": 1, \"templates\": [{\"name\": \"t\", \"bodies\": [{\"shapes\": [{\"type\": \"circle\", "
	             "\"radius\": 0}]}]}]}",
	             "bad.json:1:90: templates[0].bodies[0].shapes[0].radius: expected a positive number");
	/* a template's joints see only its own bodies */
	expect_scene_error("{\"sinew_scene\": 1, \"bodies\": [{\"name\": \"a\"}],\n"
	             " \"templates\": [{\"name\": \"t\", \"bodies\": [{\"name\": \"b\"}],\n"
	             "   \"joints\": [{\"type\": \"revolute\", \"body_a\": \"a\", \"body_b\": \"b\", \"anchor\": [0, 0]}]}]}",
	             "bad.json:3:36: templates[0].joints[0].body_a: no body named \"a\"");
	expect_scene_error("{\"sinew_scene\": 1, \"bodies\": [{\"shapes\": [{\"type\": \"circle\", \"radius\": 1, \"group\": -1}]}]}",
	             "bad.json:1:75: bodies[0].shapes[0].group: expected an unsigned 32-bit integer (0 to 4294967295)");
}

/* The engine refuses the second instance (its body would sit beyond the numeric envelope): the
 * first instance of the op is undone too, the error says which part, and the scene goes on. */
static void test_refused_spawn_leaves_nothing(void **state)
{
	(void)state;
	const char *text =
		"{\"sinew_scene\": 1,\n"
		" \"templates\": [{\"name\": \"t\", \"bodies\": [{\"name\": \"a\", \"position\": [0, 0]}, {\"name\": \"b\"}],\n"
		"   \"joints\": [{\"type\": \"revolute\", \"body_a\": \"a\", \"body_b\": \"b\", "
		"\"anchor\": [0, 0]}]}],\n"
		" \"script\": [{\"step\": 0, \"op\": \"spawn\", \"template\": \"t\", \"group\": \"g\", \"at\": [[0, 0], [3e38, 0]]},\n"
		"            {\"step\": 1, \"op\": \"destroy_group\", \"group\": \"g\"}]}\n";
	sinew_scene *scene = must_load_scene(text);
	sinew_world_id w = sinew_scene_get_world(scene);
	assert_false(sinew_scene_step(scene));
	assert_int_equal(sinew_world_get_counters(w).body_count, 0);
	assert_int_equal(sinew_world_get_counters(w).joint_count, 0);
	const char *e = sinew_scene_get_last_error(scene);
	assert_non_null(strstr(e, "step 0: script[0] (spawn): at[1]: templates[0].bodies[0]: the engine refused this body"));
	assert_true(sinew_scene_step(scene)); /* destroying the (empty) group is fine */
	sinew_scene_destroy(scene);
}

/* The rain benchmark's file: five floors, the five-human template, and a spawn schedule that fills
 * 40 columns and then renews them: the first two spawns land on schedule. */
static void test_rain_scene_spawns_on_schedule(void **state)
{
	(void)state;
	sinew_scene *scene = must_load_scene_file("scenes/bench/rain.json");
	sinew_world_id w = sinew_scene_get_world(scene);
	assert_int_equal(sinew_world_get_counters(w).body_count, 5);
	assert_int_equal(sinew_world_get_counters(w).shape_count, 5 * 501);
	sinew_scene_step(scene);
	/* 5 rows x 5 humans of 11 bodies and 10 joints */
	assert_int_equal(sinew_world_get_counters(w).body_count, 5 + 25 * 11);
	assert_int_equal(sinew_world_get_counters(w).joint_count, 25 * 10);
	for (int i = 1; i < 9; ++i) sinew_scene_step(scene);
	assert_int_equal(sinew_world_get_counters(w).body_count, 5 + 50 * 11);
	sinew_scene_destroy(scene);
}

/* stickman_rain: the first wave of 40 game stickmen (the ragdoll's bodies, pixel units) spawns with
 * the table's masses and lands on the terrain with its joints together and its limits held. */
static void test_stickman_rain_first_wave(void **state)
{
	(void)state;
	sinew_scene *scene = must_load_scene_file("scenes/bench/stickman_rain.json");
	sinew_world_id w = sinew_scene_get_world(scene);
	int terrain = sinew_world_get_counters(w).body_count;
	sinew_scene_step(scene);
	assert_int_equal(sinew_world_get_counters(w).body_count, terrain + 40 * 10);
	assert_int_equal(sinew_world_get_counters(w).joint_count, 40 * 9);
	static sinew_body_id bodies[512];
	int n = live_bodies(w, bodies, 512);
	float total = 0.0f;
	for (int i = terrain; i < terrain + 10; ++i) total += sinew_body_get_mass(bodies[i]);
	assert_float_equal(total, 8.0f + 2.0f + 2 * (1.5f + 1.0f) + 2 * (2.0f + 1.5f), 1e-4f); /* docs/ragdoll.md's table */
	float worst_sep = 0.0f, worst_limit = 0.0f, highest = 1e9f, lowest = -1e9f;
	static sinew_joint_id joints[512];
	for (int s = 1; s < 170; ++s) {
		sinew_scene_step(scene);
		int m = sinew_world_get_joints(w, joints, 512);
		for (int i = 0; i < m; ++i) {
			worst_sep = fmaxf(worst_sep, sinew_joint_get_linear_error(joints[i]));
			worst_limit = fmaxf(worst_limit, sinew_joint_get_limit_violation(joints[i]));
		}
	}
	for (int i = terrain; i < n; ++i) { /* y is down */
		highest = fminf(highest, sinew_body_get_position(bodies[i]).y);
		lowest = fmaxf(lowest, sinew_body_get_position(bodies[i]).y);
	}
	print_message("stickman_rain, first wave: highest part %.0f px, worst joint separation %.4f px, worst limit overshoot %.3f deg\n", (double)highest,
	              (double)worst_sep, (double)(worst_limit * 180.0f / 3.14159265f));
	/* they landed (heads started 3,090 px up; a figure standing on the top stair has its head at
	 * 1,530 px) and nothing went through the ground (its top is y = 0) */
	assert_true(highest > -1650.0f);
	assert_true(lowest < 0.0f);
	assert_true(worst_sep < 2.0f);  /* 2 cm, the bound for joints */
	assert_true(worst_limit < 2.0f * 3.14159265f / 180.0f);
	sinew_scene_destroy(scene);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_group_keeps_shapes_apart),
		cmocka_unit_test(test_spawn_places_instances),
		cmocka_unit_test(test_spawn_from_c),
		cmocka_unit_test(test_instances_collide_with_each_other),
		cmocka_unit_test(test_bad_templates_and_ops),
		cmocka_unit_test(test_refused_spawn_leaves_nothing),
		cmocka_unit_test(test_rain_scene_spawns_on_schedule),
		cmocka_unit_test(test_stickman_rain_first_wave),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
