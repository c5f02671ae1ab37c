/* The ragdoll in scene files: the harness scenes (scenes/harness*.json, the game's physics test
 * harness) run their scripted falls, stand-ups, interrupted stand-ups and snaps with every hand-off
 * seamless and every joint together; the rig keys "state" and "joints", the ragdoll ops and their
 * errors; the trace's rig fields. */
#include "support.h"

#include "sinew/scene.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define PI_F 3.14159265358979f

static float wrap(float a)
{
	while (a > PI_F) a -= 2.0f * PI_F;
	while (a <= -PI_F) a += 2.0f * PI_F;
	return a;
}

static void parts_error(const sinew_rig_part_state *a, const sinew_rig_part_state *b, float *dp, float *da)
{
	*dp = *da = 0.0f;
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		*dp = fmaxf(*dp, sinew_distance(a[p].center, b[p].center));
		*da = fmaxf(*da, fabsf(wrap(a[p].angle - b[p].angle)));
	}
}

/* Run a harness scene to its end: every change of state is seamless (the figure shown after the
 * step that changed it is the one shown before, moved by at most one step of motion: entering,
 * the ragdoll's first step; leaving, nothing), the joints hold together (anchors within 2 px, issue
 * 11) in either model, the godot model's world-frame bands hold (support.c's world_band_watch), and
 * it ends standing. With terrain following the controller takes the figure over again as the stand-up
 * ends, mid-stride, on a slope or walking on: that step, and every animated step after it, moves
 * no part further than one step of the rig's own walk before its first fall did (the largest
 * part move and turn of those steps, measured here on the animated pose, without the flinches
 * of props hitting it), plus the seamless tolerance. */
/* The parts as the rig's pose places them (no hit reactions). */
static void posed_parts(const sinew_rig *rig, sinew_rig_part_state parts[SINEW_PART_COUNT])
{
	sinew_rig_pose pose;
	assert_true(sinew_rig_get_pose(rig, &pose));
	sinew_rig_solve_pose(rig, &pose, parts);
}

static void run_harness(const char *path, bool godot, bool terrain)
{
	sinew_scene *scene = must_load_scene_file(path);
	sinew_ragdoll *rd = sinew_scene_get_ragdoll(scene, 0);
	assert_non_null(rd);
	const sinew_rig *rig = sinew_ragdoll_get_rig(rd);
	sinew_rig_part_state posed_before[SINEW_PART_COUNT], posed_after[SINEW_PART_COUNT];
	assert_int_equal(sinew_ragdoll_get_joint_model(rd), godot ? SINEW_RAGDOLL_GODOT : SINEW_RAGDOLL_LOCAL);
	sinew_rig_part_state before[SINEW_PART_COUNT], after[SINEW_PART_COUNT];
	int changes = 0, steps = sinew_scene_get_default_steps(scene);
	float sep_max = 0.0f, jump_max = 0.0f;
	world_band_watch bands = {0};
	float walk_dp = 0.0f, walk_da = 0.0f;   /* one step of the walk before the first fall */
	float after_dp = 0.0f, after_da = 0.0f; /* the animated steps from the first stand-up on */
	bool fell = false, recovered = false;
	sinew_ragdoll_get_parts(rd, before);
	posed_parts(rig, posed_before);
	sinew_rig_state state = sinew_ragdoll_get_state(rd);
	float dt = 1.0f / sinew_scene_get_hz(scene);
	for (int i = 0; i < steps; ++i) {
		/* what the figure may travel in the step with the rig's own momentum (walking) */
		float travel = sinew_length(sinew_rig_get_linear_velocity(sinew_ragdoll_get_rig(rd))) * dt;
		sinew_rig_facing facing = sinew_rig_get_facing(rig);
		assert_true(sinew_scene_step(scene));
		sinew_ragdoll_get_parts(rd, after);
		posed_parts(rig, posed_after);
		sinew_rig_state now = sinew_ragdoll_get_state(rd);
		/* A snap to standing is a jump by design; every other change is seamless. */
		bool snapped = state == SINEW_RIG_RAGDOLL && now == SINEW_RIG_ANIMATED;
		if (terrain && state == SINEW_RIG_ANIMATED && now == SINEW_RIG_ANIMATED && i > 0) {
			float dp, da;
			parts_error(posed_after, posed_before, &dp, &da);
			/* (a walk that turns the rig mirrors it: a turn, not a step) */
			if (!fell && sinew_rig_get_walk_velocity(rig) != 0.0f && sinew_rig_get_facing(rig) == facing) {
				walk_dp = fmaxf(walk_dp, dp);
				walk_da = fmaxf(walk_da, da);
			} else if (recovered) {
				after_dp = fmaxf(after_dp, dp);
				after_da = fmaxf(after_da, da);
			}
		}
		if (terrain && state == SINEW_RIG_RECOVERING && now == SINEW_RIG_ANIMATED) {
			float dp, da;
			parts_error(after, before, &dp, &da);
			printf("# step %d: the terrain controller takes over: %.2f px %.2f deg (a step of the walk: %.2f px %.2f deg)\n",
			       i, (double)dp, (double)(da * 180.0f / PI_F), (double)walk_dp, (double)(walk_da * 180.0f / PI_F));
			assert_true(walk_dp > 0.0f);
			assert_true(dp < walk_dp + 0.5f && da < walk_da + 0.5f * PI_F / 180.0f);
			recovered = true;
			changes++;
		} else if (now != state && !snapped) {
			float dp, da;
			parts_error(after, before, &dp, &da);
			jump_max = fmaxf(jump_max, dp);
			/* the joints hold (both models): within half a pixel */
			float tol = 0.5f;
			dp -= now == SINEW_RIG_RAGDOLL ? travel : 0.0f;
			if (!(dp < tol && da < tol * PI_F / 180.0f)) {
				printf("# step %d: state %d -> %d: %.2f px %.2f deg\n", i, (int)state, (int)now, (double)dp,
				       (double)(da * 180.0f / PI_F));
			}
			assert_true(dp < tol && da < tol * PI_F / 180.0f);
			changes++;
		}
		sep_max = fmaxf(sep_max, sinew_ragdoll_get_joint_separation_max(rd));
		if (godot) world_band_frame(&bands, rd);
		memcpy(before, after, sizeof before);
		memcpy(posed_before, posed_after, sizeof posed_before);
		fell = fell || now != SINEW_RIG_ANIMATED;
		if (snapped) recovered = false; /* the snap's own jump and what follows it are not a stand-up's */
		state = now;
	}
	if (terrain) {
		/* the controller went on from the stand-up without a later jump either */
		printf("# %s: animated steps after a stand-up: at most %.2f px %.2f deg\n", path, (double)after_dp,
		       (double)(after_da * 180.0f / PI_F));
		assert_true(after_dp < walk_dp + 0.5f && after_da < walk_da + 0.5f * PI_F / 180.0f);
	}
	printf("# %s: %d seamless changes (largest step across one %.2f px), joint_sep_max %.3f px\n", path, changes,
	       (double)jump_max, (double)sep_max);
	if (godot) {
		printf("# %s: world bands: %d limp frames, overshoot %.3f deg (%d folds through a parent, %.1f deg right after)\n",
		       path, bands.frames, (double)(bands.over_max * 180.0f / PI_F), bands.folds,
		       (double)(bands.over_any * 180.0f / PI_F));
		assert_true(bands.frames > 200);
		assert_true(bands.over_max < 1.0f * PI_F / 180.0f);
	}
	assert_true(changes >= 4);
	assert_true(sep_max < 2.0f);
	assert_int_equal(sinew_ragdoll_get_state(rd), SINEW_RIG_ANIMATED);
	assert_int_equal(sinew_scene_get_error_count(scene), 0);
	sinew_scene_destroy(scene);
}

static void test_harness(void **state)
{
	(void)state;
	run_harness("scenes/harness.json", false, false);
	run_harness("scenes/harness_left.json", false, false);
	run_harness("scenes/harness_forward.json", false, false);
}

/* Limp mid-walk, momentum and all, with terrain following: walking LEFT and stopped on flat ground,
 * walking RIGHT on up the ramp's slope after the stand-up, FORWARD and stopped on the slope. */
static void test_harness_walk(void **state)
{
	(void)state;
	run_harness("scenes/harness_walk.json", false, true);
	run_harness("scenes/harness_walk_right.json", false, true);
	run_harness("scenes/harness_walk_forward.json", false, true);
}

static void test_harness_godot(void **state)
{
	(void)state;
	run_harness("scenes/harness_godot.json", true, false);
}

static const char *const rig_scene =
	"{\"sinew_scene\": 1, \"world\": {\"gravity\": [0, 980], \"length_units_per_meter\": 100},"
	" \"bodies\": [{\"name\": \"ground\", \"type\": \"static\", \"position\": [0, 65],"
	"   \"shapes\": [{\"type\": \"box\", \"half_extents\": [2000, 50]}]}],"
	" \"rigs\": [{\"name\": \"a\", \"kind\": \"stickman\", \"position\": [0, -385], \"state\": \"ragdoll\", \"joints\": \"godot\"},"
	"          {\"name\": \"b\", \"kind\": \"stickman\", \"position\": [900, -385], \"facing\": \"left\"}],"
	" \"script\": [{\"step\": 2, \"op\": \"toggle_ragdoll\", \"rig\": \"b\"},"
	"            {\"step\": 40, \"op\": \"ragdoll\", \"rig\": \"a\", \"enabled\": false},"
	"            {\"step\": 41, \"op\": \"snap_to_standing\", \"rig\": \"b\"}]}";

/* "state": "ragdoll" starts limp, "joints" picks the model, the ops drive the right rig. */
static void test_rig_keys_and_ops(void **state)
{
	(void)state;
	char error[512] = "";
	sinew_scene *scene = sinew_scene_load_string(rig_scene, "rigs.json", error, sizeof error);
	if (scene == NULL) print_error("%s\n", error);
	assert_non_null(scene);
	sinew_ragdoll *a = sinew_scene_get_ragdoll(scene, 0), *b = sinew_scene_get_ragdoll(scene, 1);
	assert_null(sinew_scene_get_ragdoll(scene, 2));
	assert_ptr_equal(sinew_ragdoll_get_rig(a), sinew_scene_find_rig(scene, "a"));
	assert_int_equal(sinew_ragdoll_get_state(a), SINEW_RIG_RAGDOLL);
	assert_true(sinew_joint_get_type(sinew_ragdoll_get_joint(a, SINEW_PART_LEFT_LOWER_LEG)) == SINEW_PIN_JOINT);
	assert_int_equal(sinew_ragdoll_get_state(b), SINEW_RIG_ANIMATED);
	for (int i = 0; i < 3; ++i) sinew_scene_step(scene);
	assert_int_equal(sinew_ragdoll_get_state(b), SINEW_RIG_RAGDOLL);
	assert_true(sinew_joint_get_type(sinew_ragdoll_get_joint(b, SINEW_PART_LEFT_LOWER_LEG)) == SINEW_REVOLUTE_JOINT);
	for (int i = 3; i < 42; ++i) sinew_scene_step(scene);
	assert_int_equal(sinew_ragdoll_get_state(a), SINEW_RIG_RECOVERING);
	assert_int_equal(sinew_ragdoll_get_state(b), SINEW_RIG_ANIMATED);
	assert_int_equal(sinew_scene_get_error_count(scene), 0);
	sinew_scene_destroy(scene);
}

static void test_op_errors(void **state)
{
	(void)state;
	expect_scene_error("{\"sinew_scene\": 1, \"script\": [{\"step\": 1, \"op\": \"ragdoll\", \"rig\": \"s\", \"enabled\": true}]}",
	             "bad.json:1:60: script[0].rig: no rig named \"s\"");
	expect_scene_error("{\"sinew_scene\": 1, \"rigs\": [{\"name\": \"s\", \"kind\": \"stickman\"}],"
	             " \"script\": [{\"step\": 1, \"op\": \"ragdoll\", \"rig\": \"s\"}]}",
	             "bad.json:1:76: script[0].enabled: required key is missing");
	expect_scene_error("{\"sinew_scene\": 1, \"rigs\": [{\"name\": \"s\", \"kind\": \"stickman\"}],"
	             " \"script\": [{\"step\": 1, \"op\": \"toggle_ragdoll\", \"rig\": \"s\", \"enabled\": true}]}",
	             "bad.json:1:124: script[0].enabled: unknown key");
}

/* The trace shows the ragdoll's bodies as the rig's parts, and its joint figures. */
static void test_trace(void **state)
{
	(void)state;
	sinew_scene *scene = must_load_scene_file("scenes/harness.json");
	char path[] = "/tmp/sinew_ragdoll_trace_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	char error[256];
	sinew_trace *trace = sinew_trace_open(scene, path, 1, error, sizeof error);
	assert_non_null(trace);
	sinew_rig_part_state shown[SINEW_PART_COUNT];
	for (int i = 0; i < 200; ++i) {
		sinew_scene_step(scene);
		sinew_trace_record(trace);
		if (i == 179) sinew_ragdoll_get_parts(sinew_scene_get_ragdoll(scene, 0), shown);
	}
	assert_true(sinew_trace_close(trace));
	json_error_t je;
	json_t *root = json_load_file(path, 0, &je);
	remove(path);
	assert_non_null(root);
	json_t *rig = json_object_get(json_object_get(json_array_get(json_object_get(root, "frames"), 179), "rigs"), "stickman");
	assert_string_equal(json_string_value(json_object_get(rig, "state")), "ragdoll");
	assert_true(json_is_number(json_object_get(rig, "joint_sep_max")));
	assert_true(json_is_number(json_object_get(rig, "limit_over_max")));
	json_t *torso = json_object_get(json_object_get(rig, "parts"), "torso");
	json_t *p = json_object_get(torso, "p");
	assert_float_near(json_number_value(json_array_get(p, 0)), shown[SINEW_PART_TORSO].center.x, 1e-3);
	assert_float_near(json_number_value(json_array_get(p, 1)), shown[SINEW_PART_TORSO].center.y, 1e-3);
	assert_float_near(json_number_value(json_object_get(torso, "a")), shown[SINEW_PART_TORSO].angle, 1e-5);
	json_decref(root);
	sinew_scene_destroy(scene);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_harness),
		cmocka_unit_test(test_harness_walk),
		cmocka_unit_test(test_harness_godot),
		cmocka_unit_test(test_rig_keys_and_ops),
		cmocka_unit_test(test_op_errors),
		cmocka_unit_test(test_trace),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
