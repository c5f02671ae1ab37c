/* The powered ragdoll in scene files: a rig's "power" (preset, per-joint drives, influence, limbs,
 * root pull), the ops set_influence and set_power, their errors (file:line:col and key path), the
 * round trip through save, and scenes/power_push.json: the same push taken limp, braced and stiff. */
#include "support.h"

#include "sinew/scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI_F 3.14159265358979f
#define RIG "{\"sinew_scene\": 1, \"world\": {\"gravity\": [0, 980], \"length_units_per_meter\": 100}, " \
            "\"rigs\": [{\"name\": \"s\", \"kind\": \"stickman\", \"position\": [0, -385]"

static void test_power_keys(void **state)
{
	(void)state;
	sinew_scene *s = must_load_scene(RIG ", \"power\": {\"preset\": \"braced\", \"influence\": 0.5, "
	                                 "\"joints\": {\"left_lower_leg\": {\"mode\": \"motor\", \"gain\": 12, \"max_torque\": 1e6}, "
	                                 "\"head\": {\"hertz\": 3}}, \"limbs\": {\"right_arm\": 0.25}, "
	                                 "\"root_pull\": {\"max_force\": 5000}}}]}");
	sinew_ragdoll *rd = sinew_scene_get_ragdoll(s, 0);
	sinew_ragdoll_def dd = sinew_default_ragdoll_def();
	sinew_ragdoll_drive d = sinew_ragdoll_get_joint_drive(rd, SINEW_PART_LEFT_UPPER_ARM);
	assert_memory_equal(&d, &dd.power_presets[SINEW_POWER_BRACED][SINEW_PART_LEFT_UPPER_ARM], sizeof d);
	d = sinew_ragdoll_get_joint_drive(rd, SINEW_PART_LEFT_LOWER_LEG);
	assert_int_equal(d.mode, SINEW_DRIVE_MOTOR);
	assert_float_near(d.gain, 12.0f, 0.0f);
	assert_float_near(d.max_torque, 1e6f, 0.0f);
	d = sinew_ragdoll_get_joint_drive(rd, SINEW_PART_HEAD);
	assert_int_equal(d.mode, SINEW_DRIVE_SPRING); /* the preset's mode and damping, the file's hertz */
	assert_float_near(d.hertz, 3.0f, 0.0f);
	assert_float_near(d.damping_ratio, dd.power_presets[SINEW_POWER_BRACED][SINEW_PART_HEAD].damping_ratio, 0.0f);
	assert_float_near(sinew_ragdoll_get_influence(rd), 0.5f, 0.0f);
	assert_float_near(sinew_ragdoll_get_limb_influence(rd, SINEW_LIMB_RIGHT_ARM), 0.25f, 0.0f);
	assert_float_near(sinew_ragdoll_get_limb_influence(rd, SINEW_LIMB_LEFT_ARM), 1.0f, 0.0f);
	sinew_ragdoll_root_pull pull = sinew_ragdoll_get_root_pull(rd);
	assert_true(pull.enabled);
	assert_float_near(pull.max_force, 5000.0f, 0.0f);
	assert_float_near(pull.hertz, dd.root_pull.hertz, 0.0f);

	/* saved and loaded again: the same drives, blend and pull */
	char error[256] = "";
	char *text = sinew_scene_save_string(s, error, sizeof error);
	assert_non_null(text);
	sinew_scene *t = must_load_scene(text);
	sinew_ragdoll *back = sinew_scene_get_ragdoll(t, 0);
	for (int p = 1; p < SINEW_PART_COUNT; ++p) {
		sinew_ragdoll_drive a = sinew_ragdoll_get_joint_drive(rd, (sinew_rig_part)p);
		sinew_ragdoll_drive b = sinew_ragdoll_get_joint_drive(back, (sinew_rig_part)p);
		assert_int_equal(a.mode, b.mode); /* and what the mode reads */
		if (a.mode == SINEW_DRIVE_SPRING) {
			assert_float_near(a.hertz, b.hertz, 0.0f);
			assert_float_near(a.damping_ratio, b.damping_ratio, 0.0f);
		} else if (a.mode == SINEW_DRIVE_MOTOR) {
			assert_float_near(a.gain, b.gain, 0.0f);
			assert_float_near(a.max_torque, b.max_torque, 0.0f);
		}
	}
	assert_float_near(sinew_ragdoll_get_influence(back), 0.5f, 0.0f);
	assert_float_near(sinew_ragdoll_get_limb_influence(back, SINEW_LIMB_RIGHT_ARM), 0.25f, 0.0f);
	sinew_ragdoll_root_pull pull2 = sinew_ragdoll_get_root_pull(back);
	assert_memory_equal(&pull, &pull2, sizeof pull);
	sinew_scene_destroy(t);
	free(text);
	sinew_scene_destroy(s);

	/* a rig without "power" is limp and saves without it */
	s = must_load_scene(RIG "}]}");
	text = sinew_scene_save_string(s, error, sizeof error);
	assert_non_null(text);
	assert_null(strstr(text, "\"power\""));
	free(text);
	sinew_scene_destroy(s);
}

static void test_power_errors(void **state)
{
	(void)state;
	expect_scene_error(RIG ", \"power\": {\"preset\": \"floppy\"}}]}",
	                   "bad.json:1:159: rigs[0].power.preset: expected \"limp\", \"loose\", \"braced\" or \"stiff\"");
	expect_scene_error(RIG ", \"power\": {\"influence\": 1.5}}]}",
	                   "bad.json:1:159: rigs[0].power.influence: expected a number from 0 to 1");
	expect_scene_error(RIG ", \"power\": {\"joints\": {\"torso\": {}}}}]}",
	                   "bad.json:1:170: rigs[0].power.joints.torso: unknown key");
	expect_scene_error(RIG ", \"power\": {\"joints\": {\"head\": {\"mode\": \"spring\"}}}}]}",
	                   "bad.json:1:170: rigs[0].power.joints.head: a spring drive needs \"hertz\" (the preset's drive of this joint has none)");
	expect_scene_error(RIG ", \"power\": {\"preset\": \"stiff\", \"joints\": {\"head\": {\"gain\": -1}}}}]}",
	                   "bad.json:1:198: rigs[0].power.joints.head.gain: expected a positive number");
	expect_scene_error(RIG ", \"power\": {\"limbs\": {\"tail\": 1}}}]}",
	                   "bad.json:1:169: rigs[0].power.limbs.tail: unknown key");
	expect_scene_error(RIG ", \"power\": {\"root_pull\": {\"hertz\": 0}}}]}",
	                   "bad.json:1:173: rigs[0].power.root_pull.hertz: expected a positive number");
	expect_scene_error(RIG "}], \"script\": [{\"step\": 1, \"op\": \"set_influence\", \"rig\": \"s\"}]}",
	                   "bad.json:1:162: script[0].influence: required key is missing");
	expect_scene_error(RIG "}], \"script\": [{\"step\": 1, \"op\": \"set_influence\", \"rig\": \"s\", \"influence\": 0.5, "
	                       "\"limb\": \"tail\"}]}",
	                   "bad.json:1:227: script[0].limb: expected \"left_arm\", \"right_arm\", \"left_leg\" or \"right_leg\"");
	expect_scene_error(RIG "}], \"script\": [{\"step\": 1, \"op\": \"set_power\", \"rig\": \"s\", \"preset\": \"hard\"}]}",
	                   "bad.json:1:205: script[0].preset: expected \"limp\", \"loose\", \"braced\" or \"stiff\"");
	expect_scene_error(RIG "}], \"script\": [{\"step\": 1, \"op\": \"set_power\", \"rig\": \"t\", \"preset\": \"stiff\"}]}",
	                   "bad.json:1:193: script[0].rig: no rig named \"t\"");
}

static void test_power_ops(void **state)
{
	(void)state;
	sinew_scene *s = must_load_scene(RIG ", \"state\": \"ragdoll\"}], \"script\": ["
	                                 "{\"step\": 2, \"op\": \"set_power\", \"rig\": \"s\", \"preset\": \"stiff\"},"
	                                 "{\"step\": 4, \"op\": \"set_influence\", \"rig\": \"s\", \"influence\": 0.5},"
	                                 "{\"step\": 4, \"op\": \"set_influence\", \"rig\": \"s\", \"influence\": 0, \"limb\": \"left_leg\"}]}");
	sinew_ragdoll *rd = sinew_scene_get_ragdoll(s, 0);
	assert_true(sinew_scene_step(s));
	assert_true(sinew_scene_step(s));
	assert_int_equal(sinew_ragdoll_get_joint_drive(rd, SINEW_PART_RIGHT_LOWER_ARM).mode, SINEW_DRIVE_OFF);
	assert_true(sinew_scene_step(s));
	assert_int_equal(sinew_ragdoll_get_joint_drive(rd, SINEW_PART_RIGHT_LOWER_ARM).mode, SINEW_DRIVE_MOTOR);
	assert_true(sinew_joint_get_motor(sinew_ragdoll_get_joint(rd, SINEW_PART_RIGHT_LOWER_ARM)).enabled);
	assert_float_near(sinew_ragdoll_get_influence(rd), 1.0f, 0.0f);
	assert_true(sinew_scene_step(s));
	assert_true(sinew_scene_step(s));
	assert_float_near(sinew_ragdoll_get_influence(rd), 0.5f, 0.0f);
	assert_float_near(sinew_ragdoll_get_limb_influence(rd, SINEW_LIMB_LEFT_LEG), 0.0f, 0.0f);
	assert_false(sinew_joint_get_motor(sinew_ragdoll_get_joint(rd, SINEW_PART_LEFT_LOWER_LEG)).enabled);
	assert_true(sinew_joint_get_motor(sinew_ragdoll_get_joint(rd, SINEW_PART_RIGHT_LOWER_LEG)).enabled);
	assert_int_equal(sinew_scene_get_error_count(s), 0);
	sinew_scene_destroy(s);
}

/* scenes/power_push.json: the same ball into the chest of three figures; over the fall the
 * powered figures' joints stay far nearer their targets (the T pose) than the limp one's. */
static void test_power_push_scene(void **state)
{
	(void)state;
	sinew_scene *s = must_load_scene_file("scenes/power_push.json");
	assert_int_equal(sinew_scene_get_rig_count(s), 3);
	double sum[3] = {0.0, 0.0, 0.0};
	int frames = 0;
	for (int i = 0; i < sinew_scene_get_default_steps(s); ++i) {
		assert_true(sinew_scene_step(s));
		if (i < 145) continue; /* after the hit (the ball arrives at step 142) */
		++frames;
		for (int r = 0; r < 3; ++r) {
			sinew_ragdoll *rd = sinew_scene_get_ragdoll(s, r);
			assert_true(sinew_ragdoll_is_enabled(rd));
			for (int p = 1; p < SINEW_PART_COUNT; ++p) {
				float target = 0.0f;
				assert_true(sinew_ragdoll_get_joint_target(rd, (sinew_rig_part)p, &target));
				float e = sinew_joint_get_angle(sinew_ragdoll_get_joint(rd, (sinew_rig_part)p)) - target;
				e = fmodf(fabsf(e), 2.0f * PI_F);
				sum[r] += (double)fminf(e, 2.0f * PI_F - e) / (SINEW_PART_COUNT - 1);
			}
		}
	}
	double deg = 180.0 / PI_F;
	printf("  power_push: mean joint error limp %.1f deg, braced %.2f deg, stiff %.2f deg\n", sum[0] / frames * deg,
	       sum[1] / frames * deg, sum[2] / frames * deg);
	assert_true(sum[1] < 0.25 * sum[0]);
	assert_true(sum[2] < sum[1]);
	assert_int_equal(sinew_scene_get_error_count(s), 0);
	sinew_scene_destroy(s);
}

/* scenes/limb_walk.json: the left arm goes limp while the figure walks, then rejoins; later the
 * right leg. Every step the parts outside the physical limb are the rig's own; a limb's change of
 * mode moves nothing. */
static void test_limb_walk_scene(void **state)
{
	(void)state;
	sinew_scene *s = must_load_scene_file("scenes/limb_walk.json");
	sinew_ragdoll *rd = sinew_scene_get_ragdoll(s, 0);
	sinew_rig *rig = sinew_scene_get_rig(s, 0);
	sinew_rig_part_state before[SINEW_PART_COUNT], after[SINEW_PART_COUNT];
	int physical_steps = 0;
	float worst_change = 0.0f;
	for (int i = 0; i < sinew_scene_get_default_steps(s); ++i) {
		bool arm = sinew_ragdoll_is_limb_enabled(rd, SINEW_LIMB_LEFT_ARM);
		bool leg = sinew_ragdoll_is_limb_enabled(rd, SINEW_LIMB_RIGHT_LEG);
		sinew_ragdoll_get_parts(rd, before);
		/* the ops of step i run at the start of sinew_scene_step: the figure as shown at the change */
		assert_true(sinew_scene_step(s));
		sinew_ragdoll_get_parts(rd, after);
		bool arm_now = sinew_ragdoll_is_limb_enabled(rd, SINEW_LIMB_LEFT_ARM);
		bool leg_now = sinew_ragdoll_is_limb_enabled(rd, SINEW_LIMB_RIGHT_LEG);
		physical_steps += arm_now || leg_now;
		if (arm != arm_now || leg != leg_now) {
			/* a step of walking at most (150 px/s), and a limb's own motion in it */
			for (int p = 0; p < SINEW_PART_COUNT; ++p) worst_change = fmaxf(worst_change, sinew_distance(before[p].tip, after[p].tip));
		}
		for (int p = 0; p < SINEW_PART_COUNT; ++p) {
			bool limb = (arm_now && (p == SINEW_PART_LEFT_UPPER_ARM || p == SINEW_PART_LEFT_LOWER_ARM)) ||
			            (leg_now && (p == SINEW_PART_RIGHT_UPPER_LEG || p == SINEW_PART_RIGHT_LOWER_LEG));
			if (limb) continue;
			sinew_rig_part_state a = sinew_rig_get_part(rig, (sinew_rig_part)p);
			/* a rejoining limb (0.5 s from steps 270 and 420) is the blend, not yet the rig's */
			bool arm_part = p == SINEW_PART_LEFT_UPPER_ARM || p == SINEW_PART_LEFT_LOWER_ARM;
			bool leg_part = p == SINEW_PART_RIGHT_UPPER_LEG || p == SINEW_PART_RIGHT_LOWER_LEG;
			bool rejoining = (arm_part && i >= 270 && i < 300) || (leg_part && i >= 420 && i < 450);
			if (!rejoining) assert_memory_equal(&after[p], &a, sizeof a);
		}
	}
	printf("  limb_walk: %d steps with a physical limb; at each change of mode the figure moved at most %.1f px\n",
	       physical_steps, (double)worst_change);
	assert_int_equal(physical_steps, 120 + 90);
	assert_true(worst_change < 20.0f);
	assert_int_equal(sinew_scene_get_error_count(s), 0);
	sinew_scene_destroy(s);
	expect_scene_error(RIG "}], \"script\": [{\"step\": 1, \"op\": \"ragdoll_limb\", \"rig\": \"s\", \"limb\": \"left_arm\"}]}",
	                   "bad.json:1:162: script[0].enabled: required key is missing");
	expect_scene_error(RIG "}], \"script\": [{\"step\": 1, \"op\": \"ragdoll_limb\", \"rig\": \"s\", \"limb\": \"head\", "
	                       "\"enabled\": true}]}",
	                   "bad.json:1:208: script[0].limb: expected \"left_arm\", \"right_arm\", \"left_leg\" or \"right_leg\"");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_power_keys),
		cmocka_unit_test(test_power_errors),
		cmocka_unit_test(test_power_ops),
		cmocka_unit_test(test_power_push_scene),
		cmocka_unit_test(test_limb_walk_scene),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
