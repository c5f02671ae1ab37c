/* Rigs in scene files (docs/scene-format.md, "rigs"): keys checked with their positions, the
 * rig made and updated before every step, the C accessors, traces with the rig's parts, saving
 * rigs back (as rigs, never as their proxy bodies), and scenes/rig_props.json. */
#include "support.h"

#include "sinew/scene.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PIXEL_WORLD "\"world\": {\"gravity\": [0, 980], \"length_units_per_meter\": 100}"

static void rig_keys_are_checked(void **state)
{
	(void)state;
	expect_scene_error("{\"sinew_scene\": 1, \"rigs\": [{\"kind\": \"robot\"}]}",
	             "bad.json:1:30: rigs[0].kind: expected \"stickman\"");
	expect_scene_error("{\"sinew_scene\": 1, \"rigs\": [{\"name\": \"a\", \"facing\": \"up\"}]}",
	             "bad.json:1:43: rigs[0].facing: expected \"right\", \"left\" or \"forward\"");
	expect_scene_error("{\"sinew_scene\": 1, \"rigs\": [{\"name\": \"a\", \"colour\": 3}]}",
	             "bad.json:1:43: rigs[0].colour: unknown key");
	expect_scene_error("{\"sinew_scene\": 1, \"rigs\": [{\"name\": \"a\"}, {\"name\": \"a\"}]}",
	             "bad.json:1:45: rigs[1].name: duplicate rig name \"a\" (also rigs[0])");
	expect_scene_error("{\"sinew_scene\": 1, \"rigs\": [{\"position\": [0]}]}",
	             "bad.json:1:30: rigs[0].position: expected an array of 2 numbers [x, y]");
	expect_scene_error("{\"sinew_scene\": 1, \"rigs\": [{\"state\": \"asleep\"}]}",
	             "bad.json:1:30: rigs[0].state: expected \"animated\" or \"ragdoll\"");
	expect_scene_error("{\"sinew_scene\": 1, \"rigs\": [{\"joints\": \"glue\"}]}",
	             "bad.json:1:30: rigs[0].joints: expected \"local\" or \"godot\"");
	expect_scene_error("{\"sinew_scene\": 1, \"rigs\": [{\"terrain\": 1}]}",
	             "bad.json:1:30: rigs[0].terrain: expected true or false");
}

static void rigs_are_made_and_updated(void **state)
{
	(void)state;
	sinew_scene *scene = must_load_scene("{\"sinew_scene\": 1, " PIXEL_WORLD ", \"rigs\": ["
	                               "{\"name\": \"stick\", \"kind\": \"stickman\", \"position\": [0, -385], \"facing\": \"left\"},"
	                               "{\"position\": [900, -385], \"facing\": \"forward\", \"state\": \"animated\", \"terrain\": false, \"joints\": \"godot\"}]}");
	assert_int_equal(sinew_scene_get_rig_count(scene), 2);
	sinew_rig *stick = sinew_scene_find_rig(scene, "stick");
	assert_non_null(stick);
	assert_ptr_equal(sinew_scene_get_rig(scene, 0), stick);
	assert_string_equal(sinew_scene_get_rig_name(scene, 0), "stick");
	assert_string_equal(sinew_rig_get_name(stick), "stick");
	assert_null(sinew_scene_get_rig_name(scene, 1));
	assert_null(sinew_scene_get_rig(scene, 2));
	assert_null(sinew_scene_find_rig(scene, "nobody"));
	assert_int_equal(sinew_rig_get_facing(stick), SINEW_FACING_LEFT);
	assert_int_equal(sinew_rig_get_facing(sinew_scene_get_rig(scene, 1)), SINEW_FACING_FORWARD);
	/* 20 proxies, and the scene's own bodies are still only the file's */
	assert_int_equal(sinew_world_get_counters(sinew_scene_get_world(scene)).body_count, 20);
	assert_int_equal(sinew_scene_get_body_count(scene), 0);
	/* the scene updates its rigs before each step: a marker set now is reached after one */
	sinew_rig_set_marker(stick, SINEW_MARKER_RIGHT_HAND, sinew_v2(150.0f, -150.0f));
	assert_true(sinew_scene_step(scene));
	sinew_vec2 tip = sinew_rig_get_part(stick, SINEW_PART_RIGHT_LOWER_ARM).tip;
	assert_true(sinew_distance(tip, sinew_v2(-150.0f, -535.0f)) < 0.5f);
	sinew_vec2 proxy = sinew_body_get_position(sinew_rig_get_proxy(stick, SINEW_PART_RIGHT_LOWER_ARM));
	assert_true(sinew_distance(proxy, sinew_rig_get_part(stick, SINEW_PART_RIGHT_LOWER_ARM).origin) < 0.5f);
	sinew_scene_destroy(scene);
}

static json_t *key(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	if (v == NULL) print_error("missing key %s\n", k);
	assert_non_null(v);
	return v;
}

static void traces_show_rigs(void **state)
{
	(void)state;
	char error[512];
	sinew_scene *scene = sinew_scene_load_file("scenes/rig_props.json", error, sizeof error);
	assert_non_null(scene);
	char path[] = "/tmp/sinew_rig_trace_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	sinew_trace *trace = sinew_trace_open(scene, path, 5, error, sizeof error);
	assert_non_null(trace);
	for (int i = 0; i < 10; ++i) {
		sinew_scene_step(scene);
		assert_true(sinew_trace_record(trace));
	}
	assert_true(sinew_trace_close(trace));
	json_error_t jerror;
	json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerror);
	unlink(path);
	assert_non_null(root);
	json_t *last = json_array_get(key(root, "frames"), 2);
	json_t *stick = key(key(last, "rigs"), "stick");
	assert_string_equal(json_string_value(key(stick, "state")), "animated");
	assert_string_equal(json_string_value(key(stick, "motion")), "disabled");
	assert_true(json_is_false(key(stick, "blocked")));
	assert_string_equal(json_string_value(key(stick, "facing")), "right");
	assert_float_equal(json_number_value(json_array_get(key(stick, "root"), 1)), -385.0, 0.0);
	assert_float_equal(json_number_value(key(stick, "joint_sep_max")), 0.0, 0.0);
	assert_float_equal(json_number_value(key(stick, "limit_over_max")), 0.0, 0.0);
	json_t *parts = key(stick, "parts");
	assert_int_equal(json_object_size(parts), SINEW_PART_COUNT);
	json_t *torso = key(parts, "torso");
	assert_float_equal(json_number_value(json_array_get(key(torso, "p"), 1)), -385.0 - 391.5 / 2.0, 1e-3);
	assert_float_equal(json_number_value(key(torso, "a")), -1.5707963267948966, 1e-6);
	assert_float_equal(json_number_value(json_array_get(key(key(parts, "head"), "p"), 1)), -876.5, 1e-3);
	json_decref(root);
	sinew_scene_destroy(scene);
}

static void saving_writes_rigs_back(void **state)
{
	(void)state;
	sinew_scene *scene = must_load_scene("{\"sinew_scene\": 1, " PIXEL_WORLD ", \"bodies\": [{\"name\": \"ball\", \"position\": [0, -2000],"
	                               " \"shapes\": [{\"type\": \"circle\", \"radius\": 10}]}], \"rigs\": ["
	                               "{\"name\": \"stick\", \"position\": [0, -385], \"facing\": \"forward\", \"joints\": \"godot\"}]}");
	sinew_rig_set_root(sinew_scene_find_rig(scene, "stick"), sinew_make_transform(sinew_v2(40.0f, -385.0f), 0.0f));
	sinew_scene_step(scene);
	char error[512];
	char *text = sinew_scene_save_string(scene, error, sizeof error);
	assert_non_null(text);
	json_error_t jerror;
	json_t *root = json_loads(text, 0, &jerror);
	assert_non_null(root);
	assert_int_equal(json_array_size(key(root, "bodies")), 1); /* the ball; no proxies */
	json_t *rig = json_array_get(key(root, "rigs"), 0);
	assert_string_equal(json_string_value(key(rig, "name")), "stick");
	assert_string_equal(json_string_value(key(rig, "kind")), "stickman");
	assert_string_equal(json_string_value(key(rig, "facing")), "forward");
	assert_string_equal(json_string_value(key(rig, "joints")), "godot");
	assert_float_equal(json_number_value(json_array_get(key(rig, "position"), 0)), 40.0, 0.0);
	json_decref(root);
	/* and the saved file loads into a scene with the same rig */
	sinew_scene *again = must_load_scene(text);
	free(text);
	assert_int_equal(sinew_scene_get_rig_count(again), 1);
	assert_float_equal(sinew_rig_get_root(sinew_scene_find_rig(again, "stick")).p.x, 40.0, 0.0);
	assert_int_equal(sinew_world_get_counters(sinew_scene_get_world(again)).body_count, 11);
	sinew_scene_destroy(again);
	sinew_scene_destroy(scene);
}

/* "skeleton": a leggier stickman from the file reaches the ground where its own table says, saves
 * its table back, and a bad entry is refused at its key. */
static void skeletons_come_from_files(void **state)
{
	(void)state;
	expect_scene_error("{\"sinew_scene\": 1, \"rigs\": [{\"skeleton\": {\"left_upper_leg\": {\"length\": -5}}}]}",
	             "bad.json:1:62: rigs[0].skeleton.left_upper_leg.length: expected a positive number");
	expect_scene_error("{\"sinew_scene\": 1, \"rigs\": [{\"skeleton\": {\"tail\": {}}}]}",
	             "bad.json:1:43: rigs[0].skeleton.tail: unknown key");
	const char *text = "{\"sinew_scene\": 1, " PIXEL_WORLD ", \"rigs\": [{\"name\": \"tall\", \"position\": [0, -485],"
	                   " \"skeleton\": {\"left_upper_leg\": {\"length\": 250}, \"left_lower_leg\": {\"offset\": [250, 0], \"length\": 250},"
	                   " \"head_radius\": 80}}]}";
	sinew_scene *scene = must_load_scene(text);
	sinew_rig *rig = sinew_scene_find_rig(scene, "tall");
	assert_true(sinew_scene_step(scene));
	const sinew_rig_skeleton *sk = sinew_rig_get_skeleton(rig);
	assert_float_equal(sk->bones[SINEW_PART_LEFT_UPPER_LEG].length, 250.0, 0.0);
	assert_float_equal(sk->head_radius, 80.0, 0.0);
	assert_float_equal(sk->bones[SINEW_PART_RIGHT_UPPER_LEG].length, 200.0, 0.0); /* the default where not given */
	/* the left knee hangs 250 below the hips, the right one the default 200 */
	sinew_vec2 hips = sinew_rig_get_part(rig, SINEW_PART_LEFT_UPPER_LEG).origin;
	assert_float_equal(sinew_rig_get_part(rig, SINEW_PART_LEFT_LOWER_LEG).origin.y - hips.y, 250.0, 0.5);
	assert_float_equal(sinew_rig_get_part(rig, SINEW_PART_RIGHT_LOWER_LEG).origin.y - hips.y, 200.0, 0.5);
	char error[512];
	char *saved = sinew_scene_save_string(scene, error, sizeof error);
	assert_non_null(saved);
	sinew_scene *again = must_load_scene(saved);
	free(saved);
	const sinew_rig_skeleton *sk2 = sinew_rig_get_skeleton(sinew_scene_find_rig(again, "tall"));
	for (int i = 0; i < SINEW_PART_COUNT; ++i) {
		assert_float_equal(sk2->bones[i].length, sk->bones[i].length, 0.0);
		assert_float_equal(sk2->bones[i].offset.x, sk->bones[i].offset.x, 0.0);
		assert_float_equal(sk2->bones[i].rest_angle, sk->bones[i].rest_angle, 1e-6);
	}
	assert_float_equal(sk2->head_radius, 80.0, 0.0);
	sinew_scene_destroy(again);
	sinew_scene_destroy(scene);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rig_keys_are_checked),
		cmocka_unit_test(rigs_are_made_and_updated),
		cmocka_unit_test(traces_show_rigs),
		cmocka_unit_test(saving_writes_rigs_back),
		cmocka_unit_test(skeletons_come_from_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
