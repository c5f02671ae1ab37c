/* Scene files and traces: every reference scene loads; bad files give the exact
 * "file:line:col: path: message"; a failed load leaves nothing behind; degrees become radians;
 * traces read back with the documented keys; script ops act exactly at their step. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <glob.h>
#include <jansson.h>
#include <math.h>
#include <unistd.h>

#include "sinew/scene.h"
#include "support.h"

#define PI_D 3.14159265358979323846

/* ---- live allocation counts: sinew's hooks and jansson's ---- */

static long s_sinew_live, s_json_live;

static void *count_alloc(size_t size, void *context)
{
	(void)context;
	s_sinew_live += 1;
	return malloc(size);
}

static void *count_realloc(void *pointer, size_t size, void *context)
{
	(void)context;
	if (pointer == NULL) s_sinew_live += 1;
	return realloc(pointer, size);
}

static void count_free(void *pointer, void *context)
{
	(void)context;
	if (pointer != NULL) s_sinew_live -= 1;
	free(pointer);
}

static void *json_count_malloc(size_t size)
{
	s_json_live += 1;
	return malloc(size);
}

static void json_count_free(void *pointer)
{
	if (pointer != NULL) s_json_live -= 1;
	free(pointer);
}

static sinew_scene *load(const char *text, char *error, size_t size)
{
	return sinew_scene_load_string(text, "bad.json", error, size);
}

/* ---- every reference scene ---- */

static void test_every_reference_scene_loads(void **state)
{
	(void)state;
	glob_t g;
	assert_int_equal(glob("scenes/*.json", 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 7);
	for (size_t i = 0; i < g.gl_pathc; ++i) {
		sinew_scene *scene = must_load_scene_file(g.gl_pathv[i]);
		assert_true(sinew_world_is_valid(sinew_scene_get_world(scene)));
		assert_true(sinew_scene_get_body_count(scene) > 0);
		assert_true(sinew_scene_get_default_steps(scene) >= 120); /* at least 2 s: long enough to show its point */
		for (int s = 0; s < 10; ++s) assert_true(sinew_scene_step(scene));
		assert_int_equal(sinew_scene_get_step(scene), 10);
		sinew_scene_destroy(scene);
	}
	globfree(&g);
}

static void test_pyramid20_shape(void **state)
{
	(void)state;
	char error[512];
	sinew_scene *scene = sinew_scene_load_file("scenes/pyramid20.json", error, sizeof error);
	assert_non_null(scene);
	assert_string_equal(sinew_scene_get_name(scene), "pyramid20.json");
	assert_int_equal(sinew_scene_get_body_count(scene), 211);
	assert_int_equal(sinew_world_get_counters(sinew_scene_get_world(scene)).body_count, 211);
	assert_float_equal(sinew_scene_get_hz(scene), 60.0, 0.0);
	assert_int_equal(sinew_scene_get_substeps(scene), 4);
	assert_int_equal(sinew_scene_get_default_steps(scene), 900);
	sinew_body_id top = sinew_scene_find_body(scene, "box_19_0");
	assert_true(sinew_body_is_valid(top));
	assert_float_equal(sinew_body_get_position(top).y, 19.5, 0.0);
	assert_int_equal(sinew_body_get_type(sinew_scene_find_body(scene, "ground")), SINEW_STATIC_BODY);
	assert_int_equal(sinew_body_get_type(top), SINEW_DYNAMIC_BODY);
	sinew_scene_destroy(scene);
}

/* ---- errors: exact messages ---- */

static void test_syntax_error(void **state)
{
	(void)state;
	expect_scene_error("{\n  \"sinew_scene\": 1,\n  \"bodies\": [,]\n}", "bad.json:3:14: invalid JSON: unexpected token near ','");
	expect_scene_error("{\"sinew_scene\": 1, \"sinew_scene\": 1}",
	             "bad.json:1:32: invalid JSON: duplicate object key near '\"sinew_scene\"'");
	expect_scene_error("", "bad.json:1:1: invalid JSON: '[' or '{' expected near end of file");
}

static void test_missing_version(void **state)
{
	(void)state;
	expect_scene_error("{\n  \"bodies\": []\n}", "bad.json:1:1: sinew_scene: required key is missing (the format version, 1)");
	expect_scene_error("{\"sinew_scene\": 2}", "bad.json:1:2: sinew_scene: format version 2 is not supported (this build reads 1)");
	expect_scene_error("[1]", "bad.json:1:1: expected a JSON object at the top level");
}

static void test_unknown_key_names_its_path(void **state)
{
	(void)state;
	expect_scene_error("{\"sinew_scene\": 1, \"wrold\": {}}", "bad.json:1:20: wrold: unknown key (did you mean \"world\"?)");
	expect_scene_error("{\n"
	             "  \"sinew_scene\": 1,\n"
	             "  \"bodies\": [\n"
	             "    {\"name\": \"a\"},\n"
	             "    {\"name\": \"b\", \"shapes\": [\n"
	             "      {\"type\": \"circle\", \"radius\": 1},\n"
	             "      {\"type\": \"circle\", \"radus\": 1}\n"
	             "    ]}\n"
	             "  ]\n"
	             "}",
	             "bad.json:7:26: bodies[1].shapes[1].radus: unknown key (did you mean \"radius\"?)");
	expect_scene_error("{\"sinew_scene\": 1, \"world\": {\"flux\": 3}}", "bad.json:1:30: world.flux: unknown key");
}

static void test_wrong_type(void **state)
{
	(void)state;
	expect_scene_error("{\"sinew_scene\": 1,\n \"bodies\": [{\"position\": \"up\"}]}",
	             "bad.json:2:14: bodies[0].position: expected an array of 2 numbers [x, y]");
	expect_scene_error("{\"sinew_scene\": 1, \"world\": {\"hz\": \"fast\"}}", "bad.json:1:30: world.hz: expected a positive number");
	expect_scene_error("{\"sinew_scene\": 1, \"world\": {\"substeps\": 2.5}}", "bad.json:1:30: world.substeps: expected an integer");
	expect_scene_error("{\"sinew_scene\": 1, \"world\": {\"sleep\": 1}}", "bad.json:1:30: world.sleep: expected true or false");
	expect_scene_error("{\"sinew_scene\": 1, \"bodies\": {}}", "bad.json:1:20: bodies: expected an array");
	expect_scene_error("{\"sinew_scene\": 1, \"bodies\": [{\"type\": \"wobbly\"}]}",
	             "bad.json:1:32: bodies[0].type: expected \"static\", \"kinematic\" or \"dynamic\"");
	expect_scene_error("{\"sinew_scene\": 1, \"bodies\": [{\"layer\": -1}]}",
	             "bad.json:1:32: bodies[0].layer: expected an unsigned 32-bit integer (0 to 4294967295)");
}

static void test_bad_values(void **state)
{
	(void)state;
	expect_scene_error("{\n"
	             "  \"sinew_scene\": 1,\n"
	             "  \"bodies\": [\n"
	             "    {\"shapes\": [{\"type\": \"circle\", \"radius\": -0.5}]}\n"
	             "  ]\n"
	             "}",
	             "bad.json:4:36: bodies[0].shapes[0].radius: expected a positive number");
	expect_scene_error("{\"sinew_scene\": 1, \"bodies\": [{\"shapes\": [{\"type\": \"circle\"}]}]}",
	             "bad.json:1:43: bodies[0].shapes[0].radius: required key is missing");
	expect_scene_error("{\"sinew_scene\": 1, \"bodies\": [{\"shapes\": [{\"type\": \"box\", \"half_extents\": [1, 0]}]}]}",
	             "bad.json:1:59: bodies[0].shapes[0].half_extents: expected two positive numbers [hx, hy]");
	expect_scene_error("{\"sinew_scene\": 1, \"bodies\": [{\"shapes\": [{\"type\": \"capsule\", \"radius\": 1, \"height\": 1}]}]}",
	             "bad.json:1:76: bodies[0].shapes[0].height: expected at least 2 * radius (height is tip to tip)");
	expect_scene_error("{\"sinew_scene\": 1, \"bodies\": [{\"shapes\": [{\"type\": \"capsule\", \"radius\": 1, \"height\": 3, "
	             "\"center1\": [0, 0]}]}]}",
	             "bad.json:1:89: bodies[0].shapes[0].center1: give either center1, center2 or height (with center, "
	             "angle), not both");
	expect_scene_error("{\"sinew_scene\": 1, \"bodies\": [{\"type\": \"static\", \"mass\": 3}]}",
	             "bad.json:1:50: bodies[0].mass: only a dynamic body has a mass to override");
}

static void test_duplicate_name(void **state)
{
	(void)state;
	expect_scene_error("{\n"
	             "  \"sinew_scene\": 1,\n"
	             "  \"bodies\": [\n"
	             "    {\"name\": \"box\"},\n"
	             "    {\"name\": \"ball\"},\n"
	             "    {\"name\": \"box\"}\n"
	             "  ]\n"
	             "}",
	             "bad.json:6:6: bodies[2].name: duplicate name \"box\" (bodies[0] has it too)");
}

static void test_script_names_existing_bodies(void **state)
{
	(void)state;
	expect_scene_error("{\"sinew_scene\": 1, \"bodies\": [{\"name\": \"box\"}],\n"
	             " \"script\": [{\"step\": 3, \"op\": \"impulse\", \"body\": \"bx\", \"impulse\": [1, 0]}]}",
	             "bad.json:2:42: script[0].body: no body named \"bx\"");
	expect_scene_error("{\"sinew_scene\": 1, \"bodies\": [{\"name\": \"box\"}],\n"
	             " \"script\": [{\"step\": 9, \"op\": \"disable_body\", \"body\": \"box\"},\n"
	             "            {\"step\": 2, \"op\": \"destroy_body\", \"body\": \"box\"}]}",
	             "bad.json:2:47: script[0].body: body \"box\" is destroyed before this op runs (by script[1] at step 2)");
	expect_scene_error("{\"sinew_scene\": 1, \"bodies\": [{\"name\": \"box\"}],\n"
	             " \"script\": [{\"step\": 1, \"op\": \"jump\", \"body\": \"box\"}]}",
	             "bad.json:2:25: script[0].op: expected \"impulse\", \"velocity\", \"enable_body\", \"disable_body\", "
	             "\"set_type\", \"destroy_body\", \"destroy_joint\", \"rebuild_joint\", \"ragdoll\", \"toggle_ragdoll\", "
	             "\"snap_to_standing\", \"walk\", \"spawn\", \"destroy_group\", \"set_influence\", \"set_power\" or \"ragdoll_limb\"");
	expect_scene_error("{\"sinew_scene\": 1, \"bodies\": [{\"name\": \"box\"}],\n"
	             " \"script\": [{\"step\": -1, \"op\": \"enable_body\", \"body\": \"box\"}]}",
	             "bad.json:2:14: script[0].step: expected an integer from 0 to 1000000000");
	expect_scene_error("{\"sinew_scene\": 1, \"bodies\": [{\"name\": \"box\"}],\n"
	             " \"script\": [{\"step\": 1, \"op\": \"velocity\", \"body\": \"box\"}]}",
	             "bad.json:2:13: script[0]: give linear_velocity, angular_velocity or both");
}

static void test_rig_ops_not_supported_yet(void **state)
{
	(void)state;
	/* walk is supported (terrain motion); it must name a rig of the file */
	expect_scene_error("{\"sinew_scene\": 1, \"script\": [{\"step\": 1, \"op\": \"walk\", \"rig\": \"s\", \"speed\": 1}]}",
	             "bad.json:1:57: script[0].rig: no rig named \"s\"");
	/* Empty lists are fine. */
	sinew_scene *scene = must_load_scene("{\"sinew_scene\": 1, \"joints\": [], \"rigs\": []}");
	sinew_scene_destroy(scene);
}

static void test_positions_count_characters(void **state)
{
	(void)state;
	/* "é" is two bytes and one column, as jansson counts. */
	expect_scene_error("{\"sinew_scene\": 1, \"bodies\": [{\"name\": \"é\", \"angel\": 3}]}",
	             "bad.json:1:45: bodies[0].angel: unknown key (did you mean \"angle\"?)");
}

static void test_missing_file(void **state)
{
	(void)state;
	char error[512];
	assert_null(sinew_scene_load_file("scenes/no_such_scene.json", error, sizeof error));
	assert_string_equal(error, "scenes/no_such_scene.json: cannot open: No such file or directory");
}

/* ---- "x" is user data, anywhere ---- */

static void test_x_is_accepted_everywhere(void **state)
{
	(void)state;
	sinew_scene *scene = must_load_scene("{\"sinew_scene\": 1, \"x\": {\"anything\": [1, {\"goes\": true}]},\n"
	                               " \"world\": {\"x\": 1},\n"
	                               " \"bodies\": [{\"name\": \"b\", \"x\": \"mine\", \"shapes\": [{\"type\": \"circle\", "
	                               "\"radius\": 1, \"x\": null}]}],\n"
	                               " \"script\": [{\"step\": 0, \"op\": \"enable_body\", \"body\": \"b\", \"x\": []}]}");
	assert_true(sinew_body_is_valid(sinew_scene_find_body(scene, "b")));
	sinew_scene_destroy(scene);
}

/* ---- a failed load changes nothing ---- */

static void test_failed_load_leaves_nothing(void **state)
{
	(void)state;
	sinew_allocator counting = {count_alloc, count_realloc, count_free, NULL};
	assert_true(sinew_set_allocator(&counting));
	s_sinew_live = 0;
	s_json_live = 0;
	char error[512];
	/* Fails in validation, before a world exists. */
	assert_null(load("{\"sinew_scene\": 1, \"bodies\": [{\"shapes\": [{\"type\": \"circle\", \"radius\": 0}]}]}", error,
	                 sizeof error));
	assert_int_equal(s_sinew_live, 0);
	assert_int_equal(s_json_live, 0);
	/* Passes validation but the engine refuses the shape (its area underflows to zero): the world
	 * built so far is destroyed. */
	assert_null(load("{\"sinew_scene\": 1, \"bodies\": [{\"name\": \"ok\", \"shapes\": [{\"type\": \"box\", \"half_extents\": "
	                 "[1, 1]}]},\n {\"shapes\": [{\"type\": \"box\", \"half_extents\": [1e-30, 1e-30]}]}]}",
	                 error, sizeof error));
	assert_non_null(strstr(error, "bad.json:2:14: bodies[1].shapes[0]: the engine refused this shape: "));
	assert_int_equal(s_sinew_live, 0);
	assert_int_equal(s_json_live, 0);
	/* A good load allocates, and its destruction gives everything back. */
	sinew_scene *scene = must_load_scene("{\"sinew_scene\": 1, \"bodies\": [{\"shapes\": [{\"type\": \"circle\", \"radius\": 1}]}]}");
	assert_true(s_sinew_live > 0);
	sinew_world_id world = sinew_scene_get_world(scene);
	sinew_scene_destroy(scene);
	assert_false(sinew_world_is_valid(world));
	assert_int_equal(s_sinew_live, 0);
	assert_int_equal(s_json_live, 0);
	assert_true(sinew_set_allocator(NULL));
}

/* ---- units ---- */

static void test_degrees_become_radians(void **state)
{
	(void)state;
	sinew_scene *scene = must_load_scene(
		"{\"sinew_scene\": 1, \"world\": {\"gravity\": [0, 0]}, \"bodies\": [\n"
		" {\"name\": \"turned\", \"angle\": 90, \"angular_velocity\": 180,\n"
		"  \"shapes\": [{\"type\": \"box\", \"name\": \"slab\", \"half_extents\": [2, 0.5], \"angle\": 90, \"center\": [1, 0]}]},\n"
		" {\"name\": \"pill\", \"position\": [10, 0], \"shapes\": [{\"type\": \"capsule\", \"name\": \"pill\", \"height\": 4,"
		" \"radius\": 0.5, \"angle\": 90}]}]}");
	sinew_body_id turned = sinew_scene_find_body(scene, "turned");
	assert_float_equal(sinew_body_get_angle(turned), PI_D / 2, 1e-6);
	assert_float_equal(sinew_body_get_angular_velocity(turned), PI_D, 1e-6);
	/* The slab turned by 90 degrees in its body: 1 wide along x, 4 tall along y, centred at (1, 0). */
	sinew_geometry slab = sinew_shape_get_geometry(sinew_scene_find_shape(scene, "slab"));
	assert_int_equal(slab.type, SINEW_SHAPE_POLYGON);
	float lo_x = 1e9f, hi_x = -1e9f, lo_y = 1e9f, hi_y = -1e9f;
	for (int i = 0; i < slab.u.polygon.count; ++i) {
		sinew_vec2 v = slab.u.polygon.vertices[i];
		lo_x = fminf(lo_x, v.x), hi_x = fmaxf(hi_x, v.x), lo_y = fminf(lo_y, v.y), hi_y = fmaxf(hi_y, v.y);
	}
	assert_float_equal(lo_x, 0.5, 1e-6);
	assert_float_equal(hi_x, 1.5, 1e-6);
	assert_float_equal(lo_y, -2.0, 1e-6);
	assert_float_equal(hi_y, 2.0, 1e-6);
	/* A Godot capsule of height 4 along local y, turned 90 degrees: centres at x = -1.5 and 1.5. */
	sinew_geometry pill = sinew_shape_get_geometry(sinew_scene_find_shape(scene, "pill"));
	assert_int_equal(pill.type, SINEW_SHAPE_CAPSULE);
	assert_float_equal(fabsf(pill.u.capsule.center1.x), 1.5, 1e-6);
	assert_float_equal(pill.u.capsule.center1.x, -pill.u.capsule.center2.x, 1e-6);
	assert_float_equal(pill.u.capsule.center1.y, 0.0, 1e-6);
	assert_float_equal(pill.u.capsule.radius, 0.5, 0.0);
	sinew_scene_destroy(scene);
}

static void test_body_and_shape_settings(void **state)
{
	(void)state;
	sinew_scene *scene = must_load_scene(
		"{\"sinew_scene\": 1, \"world\": {\"gravity\": [1, -3], \"hz\": 120, \"substeps\": 8, \"steps\": 77, \"sleep\": false},\n"
		" \"bodies\": [\n"
		"  {\"name\": \"k\", \"type\": \"kinematic\", \"linear_velocity\": [2, 0]},\n"
		"  {\"name\": \"heavy\", \"mass\": 5, \"linear_damping\": 0.5, \"gravity_scale\": 2, \"bullet\": true,"
		"   \"fixed_rotation\": true, \"layer\": 6, \"mask\": 3,\n"
		"   \"shapes\": [{\"type\": \"box\", \"name\": \"inherits\", \"half_extents\": [1, 1]},\n"
		"              {\"type\": \"circle\", \"name\": \"own\", \"radius\": 0.5, \"layer\": 8, \"mask\": 16,"
		"               \"friction\": 0.1, \"restitution\": 0.3, \"density\": 4, \"sensor\": true}]},\n"
		"  {\"name\": \"off\", \"enabled\": false, \"awake\": false}]}");
	assert_float_equal(sinew_scene_get_hz(scene), 120.0, 0.0);
	assert_int_equal(sinew_scene_get_substeps(scene), 8);
	assert_int_equal(sinew_scene_get_default_steps(scene), 77);
	sinew_world_id world = sinew_scene_get_world(scene);
	assert_float_equal(sinew_world_get_gravity(world).x, 1.0, 0.0);
	assert_float_equal(sinew_world_get_gravity(world).y, -3.0, 0.0);
	assert_int_equal(sinew_body_get_type(sinew_scene_find_body(scene, "k")), SINEW_KINEMATIC_BODY);
	sinew_body_id heavy = sinew_scene_find_body(scene, "heavy");
	assert_float_equal(sinew_body_get_mass(heavy), 5.0, 1e-6);
	assert_float_equal(sinew_body_get_linear_damping(heavy), 0.5, 0.0);
	assert_float_equal(sinew_body_get_gravity_scale(heavy), 2.0, 0.0);
	assert_true(sinew_body_is_bullet(heavy));
	assert_true(sinew_body_is_fixed_rotation(heavy));
	sinew_shape_id inherits = sinew_scene_find_shape(scene, "inherits");
	assert_int_equal(sinew_shape_get_layer(inherits), 6);
	assert_int_equal(sinew_shape_get_mask(inherits), 3);
	sinew_shape_id own = sinew_scene_find_shape(scene, "own");
	assert_int_equal(sinew_shape_get_layer(own), 8);
	assert_int_equal(sinew_shape_get_mask(own), 16);
	assert_float_equal(sinew_shape_get_friction(own), 0.1, 1e-7);
	assert_float_equal(sinew_shape_get_restitution(own), 0.3, 1e-7);
	assert_float_equal(sinew_shape_get_density(own), 4.0, 0.0);
	assert_true(sinew_shape_is_sensor(own));
	assert_int_equal(sinew_scene_get_shape_body_index(scene, own), 1);
	assert_false(sinew_body_is_enabled(sinew_scene_find_body(scene, "off")));
	assert_true(SINEW_IS_NULL(sinew_scene_find_body(scene, "nobody")));
	assert_true(SINEW_IS_NULL(sinew_scene_find_shape(scene, "nothing")));
	assert_int_equal(sinew_scene_get_named_body_count(scene), 3);
	assert_int_equal(sinew_scene_get_named_body_index(scene, 2), 2);
	sinew_scene_destroy(scene);
}

/* ---- script ---- */

static const char *const impulse_scene =
	"{\"sinew_scene\": 1, \"world\": {\"gravity\": [0, 0]},\n"
	" \"bodies\": [{\"name\": \"box\", \"shapes\": [{\"type\": \"box\", \"half_extents\": [0.5, 0.5], \"density\": 2}]}],\n"
	" \"script\": [{\"step\": 5, \"op\": \"impulse\", \"body\": \"box\", \"impulse\": [3, -1]}]}";

static void test_script_impulse_acts_at_its_step(void **state)
{
	(void)state;
	sinew_scene *scene = must_load_scene(impulse_scene);
	sinew_body_id box = sinew_scene_find_body(scene, "box");
	float mass = sinew_body_get_mass(box);
	assert_float_equal(mass, 2.0, 1e-6);
	for (int i = 0; i < 5; ++i) assert_true(sinew_scene_step(scene));
	assert_float_equal(sinew_body_get_linear_velocity(box).x, 0.0, 0.0);
	assert_true(sinew_scene_step(scene)); /* step 5: the impulse, then the step */
	sinew_vec2 v = sinew_body_get_linear_velocity(box);
	assert_float_equal(v.x, 3.0f / mass, 1e-6);
	assert_float_equal(v.y, -1.0f / mass, 1e-6);
	assert_true(sinew_scene_step(scene));
	assert_float_equal(sinew_body_get_linear_velocity(box).x, 3.0f / mass, 1e-6);
	assert_int_equal(sinew_scene_get_error_count(scene), 0);
	sinew_scene_destroy(scene);
}

static void test_script_body_ops(void **state)
{
	(void)state;
	sinew_scene *scene = must_load_scene(
		"{\"sinew_scene\": 1, \"world\": {\"gravity\": [0, 0]},\n"
		" \"bodies\": [{\"name\": \"a\", \"shapes\": [{\"type\": \"circle\", \"radius\": 0.5}]},\n"
		"            {\"name\": \"b\", \"position\": [5, 0], \"shapes\": [{\"type\": \"circle\", \"radius\": 0.5}]}],\n"
		" \"script\": [{\"step\": 1, \"op\": \"velocity\", \"body\": \"a\", \"linear_velocity\": [1, 2], \"angular_velocity\": 90},\n"
		"            {\"step\": 2, \"op\": \"set_type\", \"body\": \"a\", \"type\": \"kinematic\"},\n"
		"            {\"step\": 2, \"op\": \"disable_body\", \"body\": \"b\"},\n"
		"            {\"step\": 3, \"op\": \"enable_body\", \"body\": \"b\"},\n"
		"            {\"step\": 4, \"op\": \"destroy_body\", \"body\": \"b\"}]}");
	sinew_body_id a = sinew_scene_find_body(scene, "a"), b = sinew_scene_find_body(scene, "b");
	sinew_scene_step(scene);
	assert_float_equal(sinew_body_get_linear_velocity(a).x, 0.0, 0.0);
	sinew_scene_step(scene);
	assert_float_equal(sinew_body_get_linear_velocity(a).x, 1.0, 1e-6);
	assert_float_equal(sinew_body_get_linear_velocity(a).y, 2.0, 1e-6);
	assert_float_equal(sinew_body_get_angular_velocity(a), PI_D / 2, 1e-6);
	sinew_scene_step(scene);
	assert_int_equal(sinew_body_get_type(a), SINEW_KINEMATIC_BODY);
	assert_false(sinew_body_is_enabled(b));
	sinew_scene_step(scene);
	assert_true(sinew_body_is_enabled(b));
	sinew_scene_step(scene);
	assert_false(sinew_body_is_valid(b));
	assert_int_equal(sinew_scene_get_error_count(scene), 0);
	assert_string_equal(sinew_scene_get_last_error(scene), "");
	sinew_scene_destroy(scene);
}

/* ---- traces ---- */

static json_t *object_key(json_t *object, const char *key)
{
	json_t *value = json_object_get(object, key);
	if (value == NULL) print_error("missing key \"%s\"\n", key);
	assert_non_null(value);
	return value;
}

static void test_trace_reads_back(void **state)
{
	(void)state;
	sinew_scene *scene = must_load_scene(
		"{\"sinew_scene\": 1,\n"
		" \"bodies\": [{\"name\": \"ground\", \"type\": \"static\", \"position\": [0, -0.5],"
		"  \"shapes\": [{\"type\": \"box\", \"half_extents\": [10, 0.5]}]},\n"
		"  {\"name\": \"ball\", \"position\": [0, 0.5], \"shapes\": [{\"type\": \"circle\", \"radius\": 0.5}]},\n"
		"  {\"position\": [3, 0.5], \"shapes\": [{\"type\": \"circle\", \"radius\": 0.5}]}]}");
	char path[] = "/tmp/sinew_trace_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	char error[512];
	sinew_trace *trace = sinew_trace_open(scene, path, 4, error, sizeof error);
	assert_non_null(trace);
	for (int i = 0; i < 10; ++i) {
		sinew_scene_step(scene);
		assert_true(sinew_trace_record(trace));
	}
	assert_true(sinew_trace_close(trace));

	json_error_t jerror;
	json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerror);
	if (root == NULL) print_error("%s:%d:%d: %s\n", path, jerror.line, jerror.column, jerror.text);
	assert_non_null(root);
	assert_string_equal(json_string_value(object_key(root, "scene")), "good.json");
	assert_float_equal(json_number_value(object_key(root, "hz")), 60.0, 0.0);
	assert_int_equal(json_integer_value(object_key(root, "substeps")), 4);
	json_t *frames = object_key(root, "frames");
	/* Steps 0, 4, 8 and the last, 9. */
	assert_int_equal(json_array_size(frames), 4);
	static const int steps[] = {0, 4, 8, 9};
	for (size_t i = 0; i < 4; ++i) {
		json_t *frame = json_array_get(frames, i);
		assert_int_equal(json_integer_value(object_key(frame, "step")), steps[i]);
		assert_float_equal(json_number_value(object_key(frame, "time")), (steps[i] + 1) / 60.0, 1e-9);
		json_t *counts = object_key(frame, "counts");
		assert_int_equal(json_integer_value(object_key(counts, "bodies")), 3);
		assert_int_equal(json_integer_value(object_key(counts, "joints")), 0);
		assert_true(json_is_integer(object_key(counts, "contacts")));
		assert_true(json_is_integer(object_key(counts, "awake")));
		json_t *bodies = object_key(frame, "bodies");
		assert_int_equal(json_object_size(bodies), 2); /* the unnamed ball is not listed */
		json_t *ball = object_key(bodies, "ball");
		assert_int_equal(json_array_size(object_key(ball, "p")), 2);
		assert_true(json_is_number(object_key(ball, "a")));
		assert_int_equal(json_array_size(object_key(ball, "v")), 2);
		assert_true(json_is_number(object_key(ball, "w")));
		assert_true(json_is_boolean(object_key(ball, "awake")));
		assert_true(json_is_array(object_key(frame, "events")));
	}
	/* The state is the state after the step: the last frame matches the body now. */
	json_t *last_ball = json_object_get(json_object_get(json_array_get(frames, 3), "bodies"), "ball");
	sinew_vec2 p = sinew_body_get_position(sinew_scene_find_body(scene, "ball"));
	assert_float_equal(json_number_value(json_array_get(json_object_get(last_ball, "p"), 1)), p.y, 0.0);
	/* Both balls rest on the ground from the start, so they begin touching in the first step: two contact_begin events in frame 0, the
	 * unnamed ball given by its index in "bodies". */
	json_t *events = json_object_get(json_array_get(frames, 0), "events");
	int begins = 0;
	bool saw_named = false, saw_index = false;
	for (size_t i = 0; i < json_array_size(events); ++i) {
		json_t *e = json_array_get(events, i);
		if (strcmp(json_string_value(object_key(e, "type")), "contact_begin") != 0) continue;
		begins += 1;
		json_t *a = object_key(e, "a"), *b = object_key(e, "b");
		json_t *other = json_is_string(a) && strcmp(json_string_value(a), "ground") == 0 ? b : a;
		json_t *ground = other == b ? a : b;
		assert_string_equal(json_string_value(ground), "ground");
		if (json_is_string(other) && strcmp(json_string_value(other), "ball") == 0) saw_named = true;
		if (json_is_integer(other) && json_integer_value(other) == 2) saw_index = true;
		assert_int_equal(json_array_size(object_key(e, "point")), 2);
		/* The normal points from b towards a: up when a is the ball. */
		json_t *normal = object_key(e, "normal");
		double ny = json_number_value(json_array_get(normal, 1));
		assert_float_equal(ny, (ground == b ? 1.0 : -1.0), 1e-5);
	}
	assert_int_equal(begins, 2);
	assert_true(saw_named);
	assert_true(saw_index);
	json_decref(root);
	unlink(path);
	sinew_scene_destroy(scene);
}

static void test_trace_open_failure(void **state)
{
	(void)state;
	sinew_scene *scene = must_load_scene("{\"sinew_scene\": 1}");
	char error[512];
	assert_null(sinew_trace_open(scene, "/nonexistent-dir/trace.json", 1, error, sizeof error));
	assert_string_equal(error, "/nonexistent-dir/trace.json: cannot write: No such file or directory");
	sinew_scene_destroy(scene);
}

/* ---- joints ---- */

/* One joint of every type, every key given somewhere, angles in degrees. */
static const char *const all_joints_scene =
	"{\"sinew_scene\": 1, \"world\": {\"gravity\": [0, 0]},\n"
	" \"bodies\": [{\"name\": \"base\", \"type\": \"static\", \"shapes\": [{\"type\": \"box\", \"half_extents\": [1, 1]}]},\n"
	"  {\"name\": \"p\", \"position\": [2, 0], \"shapes\": [{\"type\": \"circle\", \"radius\": 0.25}]},\n"
	"  {\"name\": \"r\", \"position\": [0, 3], \"shapes\": [{\"type\": \"circle\", \"radius\": 0.25}]},\n"
	"  {\"name\": \"s\", \"position\": [0, 6], \"shapes\": [{\"type\": \"box\", \"half_extents\": [0.5, 0.25]}]},\n"
	"  {\"name\": \"w\", \"position\": [0, 9], \"shapes\": [{\"type\": \"box\", \"half_extents\": [0.5, 0.25]}]},\n"
	"  {\"name\": \"d\", \"position\": [3, 4], \"shapes\": [{\"type\": \"circle\", \"radius\": 0.25}]},\n"
	"  {\"name\": \"h\", \"position\": [0, 12], \"shapes\": [{\"type\": \"circle\", \"radius\": 0.5}]}],\n"
	" \"joints\": [\n"
	"  {\"name\": \"pin\", \"type\": \"pin\", \"body_a\": \"base\", \"body_b\": \"p\", \"anchor\": [0, 0], \"softness\": 0.1,"
	"   \"bias\": 3, \"limit\": {\"lower\": -30, \"upper\": 60}, \"motor\": {\"speed\": 45}, \"break_force\": 100,"
	"   \"collide_connected\": true},\n"
	"  {\"name\": \"rev\", \"type\": \"revolute\", \"body_a\": null, \"body_b\": \"r\", \"anchor\": [0, 3],"
	"   \"reference_angle\": 10, \"limit\": {\"lower\": -90, \"upper\": 45, \"frame\": \"world\"},"
	"   \"motor\": {\"speed\": 180, \"max_torque\": 7}, \"spring\": {\"hertz\": 2, \"damping_ratio\": 0.5, \"target\": 45},"
	"   \"break_torque\": 5},\n"
	"  {\"name\": \"pri\", \"type\": \"prismatic\", \"body_b\": \"s\", \"anchor\": [0, 6], \"axis\": [0, 2],"
	"   \"limit\": {\"lower\": -1, \"upper\": 2}, \"motor\": {\"speed\": 1.5}, \"spring\": {\"hertz\": 1, \"target\": 0.5}},\n"
	"  {\"name\": \"weld\", \"type\": \"weld\", \"body_a\": \"base\", \"body_b\": \"w\", \"anchor\": [0, 8],"
	"   \"linear_hertz\": 5, \"angular_hertz\": 3, \"linear_damping_ratio\": 0.7, \"angular_damping_ratio\": 0.2},\n"
	"  {\"name\": \"dist\", \"type\": \"distance\", \"body_a\": \"base\", \"body_b\": \"d\", \"anchor_a\": [0, 0],"
	"   \"anchor_b\": [3, 4], \"min_length\": 1, \"max_length\": 6, \"spring\": {\"hertz\": 3, \"damping_ratio\": 1},"
	"   \"motor\": {\"speed\": -0.5, \"max_force\": 20}},\n"
	"  {\"name\": \"wheel\", \"type\": \"wheel\", \"body_b\": \"h\", \"anchor\": [0, 12], \"axis\": [0, 1],"
	"   \"spring\": {\"hertz\": 4, \"damping_ratio\": 0.7}, \"limit\": {\"lower\": -0.25, \"upper\": 0.25},"
	"   \"motor\": {\"speed\": -360, \"max_torque\": 9}, \"enabled\": false}]}";

static void test_every_joint_type_loads(void **state)
{
	(void)state;
	sinew_scene *scene = must_load_scene(all_joints_scene);
	assert_int_equal(sinew_scene_get_joint_count(scene), 6);
	assert_int_equal(sinew_world_get_counters(sinew_scene_get_world(scene)).joint_count, 6);
	static const char *const names[] = {"pin", "rev", "pri", "weld", "dist", "wheel"};
	static const sinew_joint_type types[] = {SINEW_PIN_JOINT,  SINEW_REVOLUTE_JOINT, SINEW_PRISMATIC_JOINT,
	                                         SINEW_WELD_JOINT, SINEW_DISTANCE_JOINT, SINEW_WHEEL_JOINT};
	for (int i = 0; i < 6; ++i) {
		sinew_joint_id j = sinew_scene_find_joint(scene, names[i]);
		assert_true(sinew_joint_is_valid(j));
		assert_true(SINEW_ID_EQUALS(j, sinew_scene_get_joint(scene, i)));
		assert_string_equal(sinew_scene_get_joint_name(scene, i), names[i]);
		assert_int_equal(sinew_scene_get_joint_index(scene, j), i);
		assert_int_equal(sinew_joint_get_type(j), types[i]);
		assert_true(SINEW_ID_EQUALS(sinew_joint_get_body_b(j), sinew_scene_get_body(scene, i + 1)));
	}
	assert_int_equal(sinew_scene_get_named_joint_count(scene), 6);
	assert_int_equal(sinew_scene_get_named_joint_index(scene, 5), 5);
	assert_true(SINEW_IS_NULL(sinew_scene_find_joint(scene, "nothing")));
	/* body_a: a name, null, or absent (the world). */
	assert_true(SINEW_ID_EQUALS(sinew_joint_get_body_a(sinew_scene_find_joint(scene, "pin")),
	                            sinew_scene_find_body(scene, "base")));
	assert_true(SINEW_IS_NULL(sinew_joint_get_body_a(sinew_scene_find_joint(scene, "rev"))));
	assert_true(SINEW_IS_NULL(sinew_joint_get_body_a(sinew_scene_find_joint(scene, "pri"))));

	/* pin: a world limit in radians; the motor has no maximum (0 = unbounded for a pin). */
	sinew_joint_id pin = sinew_scene_find_joint(scene, "pin");
	sinew_joint_limit limit = sinew_joint_get_limit(pin);
	assert_true(limit.enabled);
	assert_float_equal(limit.lower, -PI_D / 6, 1e-6);
	assert_float_equal(limit.upper, PI_D / 3, 1e-6);
	sinew_joint_motor motor = sinew_joint_get_motor(pin);
	assert_true(motor.enabled);
	assert_float_equal(motor.speed, PI_D / 4, 1e-6);
	assert_float_equal(motor.max_effort, 0.0, 0.0);

	/* revolute: limit, motor speed and spring target in radians; the world frame; the reference
	 * angle makes the joint angle -10 degrees at creation. */
	sinew_joint_id rev = sinew_scene_find_joint(scene, "rev");
	limit = sinew_joint_get_limit(rev);
	assert_true(limit.enabled);
	assert_int_equal(limit.frame, SINEW_LIMIT_WORLD);
	assert_float_equal(limit.lower, -PI_D / 2, 1e-6);
	assert_float_equal(limit.upper, PI_D / 4, 1e-6);
	motor = sinew_joint_get_motor(rev);
	assert_float_equal(motor.speed, PI_D, 1e-6);
	assert_float_equal(motor.max_effort, 7.0, 0.0);
	sinew_joint_spring spring = sinew_joint_get_spring(rev);
	assert_true(spring.enabled);
	assert_float_equal(spring.hertz, 2.0, 0.0);
	assert_float_equal(spring.damping_ratio, 0.5, 0.0);
	assert_float_equal(spring.target, PI_D / 4, 1e-6);
	assert_float_equal(sinew_joint_get_angle(rev), -PI_D / 18, 1e-6);

	/* prismatic: lengths stay lengths; a missing max_force is unbounded; a missing damping ratio is 0. */
	sinew_joint_id pri = sinew_scene_find_joint(scene, "pri");
	limit = sinew_joint_get_limit(pri);
	assert_float_equal(limit.lower, -1.0, 0.0);
	assert_float_equal(limit.upper, 2.0, 0.0);
	motor = sinew_joint_get_motor(pri);
	assert_float_equal(motor.speed, 1.5, 0.0);
	assert_true(isinf(motor.max_effort) && motor.max_effort > 0);
	spring = sinew_joint_get_spring(pri);
	assert_float_equal(spring.target, 0.5, 0.0);
	assert_float_equal(spring.damping_ratio, 0.0, 0.0);

	/* distance: the length defaults to the anchors' distance (5); the motor drives in length units. */
	sinew_joint_id dist = sinew_scene_find_joint(scene, "dist");
	assert_float_equal(sinew_joint_get_translation(dist), 5.0, 1e-5);
	assert_float_equal(sinew_joint_get_motor(dist).speed, -0.5, 0.0);
	assert_float_equal(sinew_joint_get_motor(dist).max_effort, 20.0, 0.0);
	assert_true(sinew_joint_get_spring(dist).enabled);

	/* wheel: the motor turns (degrees / s), the limit is along the axis; "enabled": false. */
	sinew_joint_id wheel = sinew_scene_find_joint(scene, "wheel");
	assert_float_equal(sinew_joint_get_motor(wheel).speed, -2 * PI_D, 1e-5);
	assert_float_equal(sinew_joint_get_limit(wheel).upper, 0.25, 0.0);
	assert_false(sinew_joint_is_enabled(wheel));
	assert_true(sinew_joint_is_enabled(pri));

	for (int s = 0; s < 30; ++s) assert_true(sinew_scene_step(scene));
	assert_int_equal(sinew_scene_get_error_count(scene), 0);
	sinew_scene_destroy(scene);
}

#define BODIES_AB "{\"sinew_scene\": 1, \"bodies\": [{\"name\": \"a\"}, {\"name\": \"b\", \"position\": [1, 0]}],\n"

static void test_bad_joints(void **state)
{
	(void)state;
	expect_scene_error(BODIES_AB " \"joints\": [{\"type\": \"hinge\", \"body_b\": \"b\"}]}",
	             "bad.json:2:14: joints[0].type: unknown joint type \"hinge\" (expected \"pin\", \"revolute\", "
	             "\"prismatic\", \"weld\", \"distance\", \"wheel\" or \"target\")");
	expect_scene_error(BODIES_AB " \"joints\": [{\"body_b\": \"b\"}]}", "bad.json:2:13: joints[0].type: required key is missing");
	expect_scene_error(BODIES_AB " \"joints\": [{\"type\": \"pin\", \"body_a\": \"a\", \"anchor\": [0, 0]}]}",
	             "bad.json:2:13: joints[0].body_b: required key is missing");
	expect_scene_error(BODIES_AB " \"joints\": [{\"type\": \"pin\", \"body_b\": null, \"anchor\": [0, 0]}]}",
	             "bad.json:2:29: joints[0].body_b: expected a body name (only body_a may be the world)");
	expect_scene_error(BODIES_AB " \"joints\": [{\"type\": \"pin\", \"body_a\": \"c\", \"body_b\": \"b\", \"anchor\": [0, 0]}]}",
	             "bad.json:2:29: joints[0].body_a: no body named \"c\"");
	expect_scene_error(BODIES_AB " \"joints\": [{\"type\": \"pin\", \"body_a\": \"b\", \"body_b\": \"b\", \"anchor\": [0, 0]}]}",
	             "bad.json:2:44: joints[0].body_b: a body cannot be jointed to itself (body_a names it too)");
	expect_scene_error(BODIES_AB " \"joints\": [\n"
	             "  {\"type\": \"weld\", \"body_b\": \"b\", \"anchor\": [0, 0]},\n"
	             "  {\"type\": \"revolute\", \"body_b\": \"b\", \"anchor\": [0, 0],\n"
	             "   \"limit\": {\"lower\": 30, \"upper\": 10}}]}",
	             "bad.json:5:14: joints[1].limit.lower: lower (30) is greater than upper (10)");
	expect_scene_error(BODIES_AB " \"joints\": [\n"
	             "  {\"name\": \"glue\", \"type\": \"weld\", \"body_b\": \"b\", \"anchor\": [0, 0]},\n"
	             "  {\"name\": \"hinge\", \"type\": \"revolute\", \"body_b\": \"a\", \"anchor\": [0, 0]},\n"
	             "  {\"name\": \"glue\", \"type\": \"pin\", \"body_b\": \"a\", \"anchor\": [0, 0]}]}",
	             "bad.json:5:4: joints[2].name: duplicate name \"glue\" (joints[0] has it too)");
	/* A key of another joint type, or of another type's motor, is unknown here. */
	expect_scene_error(BODIES_AB " \"joints\": [{\"type\": \"weld\", \"body_b\": \"b\", \"anchor\": [0, 0], \"axis\": [1, 0]}]}",
	             "bad.json:2:63: joints[0].axis: unknown key");
	expect_scene_error(BODIES_AB " \"joints\": [{\"type\": \"revolute\", \"body_b\": \"b\", \"anchor\": [0, 0],"
	             " \"motor\": {\"speed\": 1, \"max_force\": 3}}]}",
	             "bad.json:2:89: joints[0].motor.max_force: unknown key");
	expect_scene_error(BODIES_AB " \"joints\": [{\"type\": \"pin\", \"body_b\": \"b\", \"anchor\": [0, 0],"
	             " \"limit\": {\"lower\": 0, \"upper\": 1, \"frame\": \"local\"}}]}",
	             "bad.json:2:96: joints[0].limit.frame: unknown key");
	expect_scene_error(BODIES_AB " \"joints\": [{\"type\": \"distance\", \"body_b\": \"b\", \"anchor_a\": [0, 0], \"anchor_b\": [1, 0],"
	             " \"spring\": {\"hertz\": 1, \"target\": 2}}]}",
	             "bad.json:2:112: joints[0].spring.target: unknown key");
	/* Values. */
	expect_scene_error(BODIES_AB " \"joints\": [{\"type\": \"prismatic\", \"body_b\": \"b\", \"anchor\": [0, 0], \"axis\": [0, 0]}]}",
	             "bad.json:2:68: joints[0].axis: expected a non-zero direction [x, y]");
	expect_scene_error(BODIES_AB " \"joints\": [{\"type\": \"revolute\", \"body_b\": \"b\", \"anchor\": [0, 0],"
	             " \"limit\": {\"lower\": \"low\", \"upper\": 1}}]}",
	             "bad.json:2:77: joints[0].limit.lower: expected a number (degrees)");
	expect_scene_error(BODIES_AB " \"joints\": [{\"type\": \"revolute\", \"body_b\": \"b\", \"anchor\": [0, 0],"
	             " \"spring\": {\"damping_ratio\": 1}}]}",
	             "bad.json:2:67: joints[0].spring.hertz: required key is missing");
	expect_scene_error(BODIES_AB " \"joints\": [{\"type\": \"wheel\", \"body_b\": \"b\", \"anchor\": [0, 0], \"axis\": [0, 1],"
	             " \"motor\": {\"max_torque\": -1}}]}",
	             "bad.json:2:90: joints[0].motor.max_torque: expected a number >= 0");
	expect_scene_error(BODIES_AB " \"joints\": [{\"type\": \"pin\", \"body_b\": \"b\"}]}",
	             "bad.json:2:13: joints[0].anchor: required key is missing");
	expect_scene_error(BODIES_AB " \"joints\": [{\"type\": \"weld\", \"body_b\": \"b\", \"anchor\": [0, 0], \"break_force\": -5}]}",
	             "bad.json:2:63: joints[0].break_force: expected a number >= 0");
	expect_scene_error(BODIES_AB " \"joints\": [{\"type\": \"distance\", \"body_b\": \"b\", \"anchor_a\": [0, 0], \"anchor_b\": [2, 0],"
	             " \"min_length\": 3}]}",
	             "bad.json:2:89: joints[0].min_length: min_length (3) is greater than the length (2)");
	expect_scene_error(BODIES_AB " \"joints\": [{\"type\": \"distance\", \"body_b\": \"b\", \"anchor_a\": [0, 0], \"anchor_b\": [0, 0]}]}",
	             "bad.json:2:69: joints[0].anchor_b: anchor_a and anchor_b coincide: give a length > 0");
}

static void test_script_names_existing_joints(void **state)
{
	(void)state;
	expect_scene_error(BODIES_AB " \"joints\": [{\"name\": \"j\", \"type\": \"weld\", \"body_b\": \"b\", \"anchor\": [0, 0]}],\n"
	             " \"script\": [{\"step\": 1, \"op\": \"destroy_joint\", \"joint\": \"k\"}]}",
	             "bad.json:3:48: script[0].joint: no joint named \"k\"");
	expect_scene_error(BODIES_AB " \"joints\": [{\"name\": \"j\", \"type\": \"weld\", \"body_b\": \"b\", \"anchor\": [0, 0]}],\n"
	             " \"script\": [{\"step\": 1, \"op\": \"destroy_joint\", \"joint\": \"j\"},\n"
	             "            {\"step\": 2, \"op\": \"rebuild_joint\", \"joint\": \"j\"}]}",
	             "bad.json:4:48: script[1].joint: joint \"j\" is destroyed before this op runs (by script[0] at step 1)");
	expect_scene_error(BODIES_AB " \"joints\": [{\"name\": \"j\", \"type\": \"weld\", \"body_b\": \"b\", \"anchor\": [0, 0]}],\n"
	             " \"script\": [{\"step\": 1, \"op\": \"destroy_body\", \"body\": \"b\"},\n"
	             "            {\"step\": 2, \"op\": \"rebuild_joint\", \"joint\": \"j\"}]}",
	             "bad.json:4:48: script[1].joint: joint \"j\" is destroyed with body \"b\" before this op runs (by "
	             "script[0] at step 1)");
	expect_scene_error(BODIES_AB " \"script\": [{\"step\": 1, \"op\": \"rebuild_joint\", \"body\": \"b\"}]}",
	             "bad.json:2:48: script[0].body: unknown key");
}

/* destroy_joint takes the joint out at its step; rebuild_joint brings back a broken joint and a
 * disabled one. The weld soaks up the impulse of step 1 and breaks after that step. */
static void test_script_joint_ops(void **state)
{
	(void)state;
	sinew_scene *scene = must_load_scene(
		"{\"sinew_scene\": 1, \"world\": {\"gravity\": [0, 0]},\n"
		" \"bodies\": [{\"name\": \"base\", \"type\": \"static\"},\n"
		"  {\"name\": \"box\", \"position\": [1, 0], \"shapes\": [{\"type\": \"box\", \"half_extents\": [0.5, 0.5]}]},\n"
		"  {\"name\": \"ball\", \"position\": [5, 0], \"shapes\": [{\"type\": \"circle\", \"radius\": 0.5}]}],\n"
		" \"joints\": [{\"name\": \"glue\", \"type\": \"weld\", \"body_a\": \"base\", \"body_b\": \"box\", \"anchor\": [0.5, 0],"
		"   \"break_force\": 100},\n"
		"  {\"name\": \"off\", \"type\": \"revolute\", \"body_b\": \"ball\", \"anchor\": [5, 0], \"enabled\": false},\n"
		"  {\"name\": \"doomed\", \"type\": \"distance\", \"body_a\": \"box\", \"body_b\": \"ball\", \"anchor_a\": [1, 0],"
		"   \"anchor_b\": [5, 0], \"min_length\": 0, \"max_length\": 10}],\n"
		" \"script\": [{\"step\": 1, \"op\": \"impulse\", \"body\": \"box\", \"impulse\": [10, 0]},\n"
		"  {\"step\": 3, \"op\": \"destroy_joint\", \"joint\": \"doomed\"},\n"
		"  {\"step\": 5, \"op\": \"rebuild_joint\", \"joint\": \"glue\"},\n"
		"  {\"step\": 5, \"op\": \"rebuild_joint\", \"joint\": \"off\"}]}");
	sinew_joint_id glue = sinew_scene_find_joint(scene, "glue");
	sinew_joint_id off = sinew_scene_find_joint(scene, "off");
	sinew_joint_id doomed = sinew_scene_find_joint(scene, "doomed");
	sinew_world_id world = sinew_scene_get_world(scene);
	assert_false(sinew_joint_is_enabled(off));
	sinew_scene_step(scene); /* step 0 */
	assert_false(sinew_joint_is_broken(glue));
	sinew_scene_step(scene); /* step 1: the impulse overloads the weld */
	assert_true(sinew_joint_is_broken(glue));
	sinew_joint_events events = sinew_world_get_joint_events(world);
	assert_int_equal(events.broken_count, 1);
	assert_true(SINEW_ID_EQUALS(events.broken_events[0].joint, glue));
	assert_true(events.broken_events[0].force > 100.0f);
	sinew_scene_step(scene); /* step 2 */
	assert_true(sinew_joint_is_valid(doomed));
	sinew_scene_step(scene); /* step 3: destroy_joint */
	assert_false(sinew_joint_is_valid(doomed));
	assert_int_equal(sinew_world_get_counters(world).joint_count, 2);
	sinew_scene_step(scene); /* step 4 */
	assert_true(sinew_joint_is_broken(glue));
	sinew_scene_step(scene); /* step 5: rebuild both */
	assert_false(sinew_joint_is_broken(glue));
	assert_true(sinew_joint_is_enabled(glue));
	assert_true(sinew_joint_is_enabled(off));
	for (int i = 0; i < 10; ++i) sinew_scene_step(scene);
	assert_false(sinew_joint_is_broken(glue));
	assert_int_equal(sinew_scene_get_error_count(scene), 0);
	sinew_scene_destroy(scene);
}

static json_t *load_trace(const char *path)
{
	json_error_t jerror;
	json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerror);
	if (root == NULL) print_error("%s:%d:%d: %s\n", path, jerror.line, jerror.column, jerror.text);
	assert_non_null(root);
	return root;
}

/* Runs the scene for steps steps with a trace of every step; returns the parsed trace. */
static json_t *trace_scene(sinew_scene *scene, int steps)
{
	char path[] = "/tmp/sinew_trace_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	char error[512];
	sinew_trace *trace = sinew_trace_open(scene, path, 1, error, sizeof error);
	assert_non_null(trace);
	for (int i = 0; i < steps; ++i) {
		sinew_scene_step(scene);
		assert_true(sinew_trace_record(trace));
	}
	assert_true(sinew_trace_close(trace));
	json_t *root = load_trace(path);
	unlink(path);
	return root;
}

static void test_trace_has_joints(void **state)
{
	(void)state;
	/* body_b must be a name: the unnamed body cannot be jointed from a file. */
	expect_scene_error("{\"sinew_scene\": 1, \"bodies\": [{\"name\": \"a\"}, {}],\n"
	             " \"joints\": [{\"type\": \"weld\", \"body_a\": \"a\", \"body_b\": 1, \"anchor\": [0, 0]}]}",
	             "bad.json:2:45: joints[0].body_b: expected a body name");
	sinew_scene *scene = must_load_scene(
		"{\"sinew_scene\": 1,\n"
		" \"bodies\": [{\"name\": \"post\", \"type\": \"static\"},\n"
		"  {\"name\": \"bob\", \"position\": [2, 0], \"shapes\": [{\"type\": \"circle\", \"radius\": 0.25}]},\n"
		"  {\"name\": \"car\", \"position\": [0, -3], \"shapes\": [{\"type\": \"box\", \"half_extents\": [0.5, 0.25]}]}],\n"
		" \"joints\": [{\"name\": \"pivot\", \"type\": \"revolute\", \"body_a\": \"post\", \"body_b\": \"bob\", \"anchor\": [0, 0],"
		"   \"limit\": {\"lower\": -30, \"upper\": 30}},\n"
		"  {\"name\": \"slide\", \"type\": \"prismatic\", \"body_b\": \"car\", \"anchor\": [0, -3], \"axis\": [1, -1]},\n"
		"  {\"type\": \"weld\", \"body_b\": \"post\", \"anchor\": [0, 0]}]}");
	json_t *root = trace_scene(scene, 60);
	json_t *frames = object_key(root, "frames");
	assert_int_equal(json_array_size(frames), 60);
	static const char *const keys[] = {"sep", "angle", "translation", "force", "torque"};
	for (size_t i = 0; i < json_array_size(frames); ++i) {
		json_t *frame = json_array_get(frames, i);
		assert_int_equal(json_integer_value(object_key(object_key(frame, "counts"), "joints")), 3);
		json_t *joints = object_key(frame, "joints");
		assert_int_equal(json_object_size(joints), 2); /* the unnamed weld is not listed */
		for (int k = 0; k < 2; ++k) {
			json_t *joint = object_key(joints, k == 0 ? "pivot" : "slide");
			for (int n = 0; n < 5; ++n) assert_true(json_is_number(object_key(joint, keys[n])));
			assert_false(json_is_true(object_key(joint, "broken")));
		}
	}
	/* The last frame is the state now, in radians and length units. */
	json_t *last = object_key(json_array_get(frames, 59), "joints");
	sinew_joint_id pivot = sinew_scene_find_joint(scene, "pivot"), slide = sinew_scene_find_joint(scene, "slide");
	json_t *p = object_key(last, "pivot"), *s = object_key(last, "slide");
	assert_float_equal(json_number_value(object_key(p, "angle")), sinew_joint_get_angle(pivot), 0.0);
	assert_float_equal(json_number_value(object_key(p, "sep")), sinew_joint_get_linear_error(pivot), 0.0);
	assert_float_equal(json_number_value(object_key(p, "force")),
	                   sinew_length(sinew_joint_get_reaction_force(pivot)), 0.0);
	assert_float_equal(json_number_value(object_key(p, "torque")), sinew_joint_get_reaction_torque(pivot), 0.0);
	assert_float_equal(json_number_value(object_key(s, "translation")), sinew_joint_get_translation(slide), 0.0);
	/* The bob swung down into its limit (-30 degrees), and the car slid down its 45 degree axis. */
	assert_float_equal(json_number_value(object_key(p, "angle")), -PI_D / 6, 0.02);
	assert_true(json_number_value(object_key(p, "force")) > 0.0);
	assert_true(json_number_value(object_key(s, "translation")) > 1.0);
	json_decref(root);
	sinew_scene_destroy(scene);
}

/* breakable.json: the weak and the torque-limited welds break, once each, with the reaction that
 * broke them; the strong one holds; the script's destroy_joint takes cut_glue out of the trace. */
static void test_breakable_trace_has_joint_broken(void **state)
{
	(void)state;
	sinew_scene *scene = must_load_scene_file("scenes/breakable.json");
	json_t *root = trace_scene(scene, sinew_scene_get_default_steps(scene));
	json_t *frames = object_key(root, "frames");
	int weak = 0, torque = 0, other = 0, weak_step = -1;
	for (size_t i = 0; i < json_array_size(frames); ++i) {
		json_t *frame = json_array_get(frames, i);
		json_t *events = object_key(frame, "events");
		for (size_t k = 0; k < json_array_size(events); ++k) {
			json_t *e = json_array_get(events, k);
			if (strcmp(json_string_value(object_key(e, "type")), "joint_broken") != 0) continue;
			const char *joint = json_string_value(object_key(e, "joint"));
			double force = json_number_value(object_key(e, "force"));
			double t = json_number_value(object_key(e, "torque"));
			if (strcmp(joint, "weak_glue") == 0) {
				weak += 1;
				weak_step = (int)json_integer_value(object_key(frame, "step"));
				assert_true(force > 60.0);
			} else if (strcmp(joint, "torque_glue") == 0) {
				torque += 1;
				assert_true(fabs(t) > 50.0);
			} else {
				other += 1;
			}
		}
		json_t *joints = object_key(frame, "joints");
		int step = (int)json_integer_value(object_key(frame, "step"));
		assert_int_equal(json_object_get(joints, "cut_glue") != NULL, step < 120);
		assert_false(json_is_true(object_key(object_key(joints, "strong_glue"), "broken")));
		if (weak_step >= 0) assert_true(json_is_true(object_key(object_key(joints, "weak_glue"), "broken")));
	}
	assert_int_equal(weak, 1);
	assert_int_equal(torque, 1);
	assert_int_equal(other, 0);
	json_decref(root);
	assert_int_equal(sinew_scene_get_error_count(scene), 0);
	sinew_scene_destroy(scene);
}

int main(void)
{
	json_set_alloc_funcs(json_count_malloc, json_count_free);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_reference_scene_loads),
		cmocka_unit_test(test_pyramid20_shape),
		cmocka_unit_test(test_syntax_error),
		cmocka_unit_test(test_missing_version),
		cmocka_unit_test(test_unknown_key_names_its_path),
		cmocka_unit_test(test_wrong_type),
		cmocka_unit_test(test_bad_values),
		cmocka_unit_test(test_duplicate_name),
		cmocka_unit_test(test_script_names_existing_bodies),
		cmocka_unit_test(test_rig_ops_not_supported_yet),
		cmocka_unit_test(test_positions_count_characters),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_x_is_accepted_everywhere),
		cmocka_unit_test(test_failed_load_leaves_nothing),
		cmocka_unit_test(test_degrees_become_radians),
		cmocka_unit_test(test_body_and_shape_settings),
		cmocka_unit_test(test_script_impulse_acts_at_its_step),
		cmocka_unit_test(test_script_body_ops),
		cmocka_unit_test(test_trace_reads_back),
		cmocka_unit_test(test_trace_open_failure),
		cmocka_unit_test(test_every_joint_type_loads),
		cmocka_unit_test(test_bad_joints),
		cmocka_unit_test(test_script_names_existing_joints),
		cmocka_unit_test(test_script_joint_ops),
		cmocka_unit_test(test_trace_has_joints),
		cmocka_unit_test(test_breakable_trace_has_joint_broken),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
