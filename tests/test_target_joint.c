/* The target joint (the mouse joint): a body pulled to its target settles there; under gravity it
 * hangs g / (2 pi hertz)^2 below it; max_force caps the pull, so a body heavier than max_force / g
 * sinks at g - max_force / m; hertz and damping ratio give the analytic response of a mass on a
 * spring (critically damped: no overshoot and (1 + w t) e^(-w t); undamped: a quarter period to
 * the target); the target moves with set_target and with body A; scene files load and save it;
 * misuse is refused. */
#include "support.h"

#include "sinew/scene.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979f

/* A world without gravity (or with g down) and a 1 m box of the given density at (0, 0). */
typedef struct rig {
	sinew_world_id world;
	sinew_body_id box;
	sinew_joint_id joint;
} rig;

static rig make_rig(float gravity, float density, sinew_vec2 target, float hertz, float zeta, float max_force)
{
	rig r;
	r.world = make_world(NULL);
	sinew_world_set_gravity(r.world, sinew_v2(0.0f, -gravity));
	r.box = make_box(r.world, 0.0f, 0.0f, 0.5f, 0.5f, density, 0.6f);
	sinew_target_joint_def d = sinew_default_target_joint_def();
	d.base.body_b = r.box;
	d.target = target;
	d.anchor = sinew_v2(0.0f, 0.0f);
	d.hertz = hertz;
	d.damping_ratio = zeta;
	d.max_force = max_force;
	r.joint = sinew_create_target_joint(r.world, &d);
	assert_false(SINEW_IS_NULL(r.joint));
	return r;
}

static float distance_to(sinew_body_id b, sinew_vec2 p)
{
	sinew_vec2 c = sinew_body_get_world_center(b);
	return hypotf(c.x - p.x, c.y - p.y);
}

static void defaults_are_documented(void **state)
{
	(void)state;
	sinew_target_joint_def d = sinew_default_target_joint_def();
	assert_true(d.hertz == 5.0f && d.damping_ratio == 0.7f && isinf(d.max_force));
	assert_true(SINEW_IS_NULL(d.base.body_a) && d.base.is_enabled);
}

static void pulled_body_settles_on_the_target(void **state)
{
	(void)state;
	sinew_vec2 target = {3.0f, 1.0f};
	rig r = make_rig(0.0f, 1.0f, target, 5.0f, 0.7f, INFINITY);
	assert_int_equal(sinew_joint_get_type(r.joint), SINEW_TARGET_JOINT);
	step_n(r.world, 120);
	assert_true(distance_to(r.box, target) < 1e-3f);
	assert_true(sinew_joint_get_linear_error(r.joint) < 1e-3f);
	/* moved: it follows */
	sinew_vec2 next = {-2.0f, 4.0f};
	assert_true(sinew_target_joint_set_target(r.joint, next));
	sinew_vec2 got = sinew_target_joint_get_target(r.joint);
	assert_true(got.x == next.x && got.y == next.y);
	step_n(r.world, 120);
	assert_true(distance_to(r.box, next) < 1e-3f);
	sinew_destroy_world(r.world);
}

/* k = m w^2 on the row of a body grabbed at its centre: the static sag is m g / k = g / w^2. */
static void under_gravity_it_hangs_by_g_over_omega_squared(void **state)
{
	(void)state;
	float hertz = 4.0f, omega = 2.0f * PI * hertz;
	rig r = make_rig(10.0f, 1.0f, sinew_v2(0.0f, 0.0f), hertz, 1.0f, INFINITY);
	step_n(r.world, 180);
	float sag = -sinew_body_get_world_center(r.box).y;
	assert_float_near(sag, 10.0f / (omega * omega), 0.05f * 10.0f / (omega * omega));
	/* the joint carries the weight: 1 kg, 10 N */
	sinew_vec2 f = sinew_joint_get_reaction_force(r.joint);
	assert_float_near(f.y, 10.0f, 0.05f);
	assert_float_near(f.x, 0.0f, 1e-3f);
	sinew_destroy_world(r.world);
}

static void max_force_caps_the_pull(void **state)
{
	(void)state;
	/* 1 kg (10 N) under a 20 N cap: held */
	rig light = make_rig(10.0f, 1.0f, sinew_v2(0.0f, 0.0f), 5.0f, 0.7f, 20.0f);
	step_n(light.world, 60);
	assert_true(distance_to(light.box, sinew_v2(0.0f, 0.0f)) < 0.02f);
	sinew_destroy_world(light.world);
	/* 4 kg (40 N) under the same cap: sinks at g - 20 / 4 = 5 m/s^2, pulled by exactly 20 N */
	rig heavy = make_rig(10.0f, 4.0f, sinew_v2(0.0f, 0.0f), 5.0f, 0.7f, 20.0f);
	step_n(heavy.world, 60);
	float y = sinew_body_get_world_center(heavy.box).y;
	assert_float_near(y, -0.5f * 5.0f * 1.0f, 0.05f);
	assert_float_near(sinew_body_get_linear_velocity(heavy.box).y, -5.0f, 0.05f);
	sinew_vec2 f = sinew_joint_get_reaction_force(heavy.joint);
	assert_float_near(hypotf(f.x, f.y), 20.0f, 0.01f);
	/* raising the cap above the weight stops the fall */
	assert_true(sinew_target_joint_set_tuning(heavy.joint, 5.0f, 1.0f, 100.0f));
	step_n(heavy.world, 240);
	assert_true(distance_to(heavy.box, sinew_v2(0.0f, 0.0f)) < 0.02f);
	/* a cap of 0 pulls not at all: free fall */
	assert_true(sinew_target_joint_set_tuning(heavy.joint, 5.0f, 1.0f, 0.0f));
	sinew_vec2 v0 = sinew_body_get_linear_velocity(heavy.box);
	step_n(heavy.world, 30);
	assert_float_near(sinew_body_get_linear_velocity(heavy.box).y - v0.y, -5.0f, 0.05f);
	sinew_destroy_world(heavy.world);
}

/* Released 1 m from the target without gravity: critically damped, x(t) = (1 + w t) e^(-w t). */
static void critically_damped_response_follows_the_analytic_curve(void **state)
{
	(void)state;
	float hertz = 2.0f, omega = 2.0f * PI * hertz;
	rig r = make_rig(0.0f, 1.0f, sinew_v2(1.0f, 0.0f), hertz, 1.0f, INFINITY);
	float worst = 0.0f, lowest_gap = 1.0f;
	for (int i = 1; i <= 90; ++i) {
		step_n(r.world, 1);
		float t = (float)i / 60.0f;
		float gap = 1.0f - sinew_body_get_world_center(r.box).x;
		float expected = (1.0f + omega * t) * expf(-omega * t);
		worst = fmaxf(worst, fabsf(gap - expected));
		lowest_gap = fminf(lowest_gap, gap);
	}
	assert_true(worst < 0.05f);
	assert_true(lowest_gap > -1e-3f); /* no overshoot */
	sinew_destroy_world(r.world);
}

/* Undamped: it reaches the target a quarter period after release and swings through to nearly the
 * other side (the soft step loses a little energy per substep, never gains any). */
static void undamped_spring_rings_at_its_hertz(void **state)
{
	(void)state;
	float hertz = 1.0f;
	rig r = make_rig(0.0f, 1.0f, sinew_v2(1.0f, 0.0f), hertz, 0.0f, INFINITY);
	int crossing = -1;
	float far_side = 0.0f;
	for (int i = 1; i <= 60; ++i) {
		step_n(r.world, 1);
		float gap = 1.0f - sinew_body_get_world_center(r.box).x;
		if (crossing < 0 && gap < 0.0f) crossing = i;
		far_side = fminf(far_side, gap);
	}
	assert_true(crossing > 0);
	assert_float_near((float)crossing / 60.0f, 0.25f / hertz, 2.0f / 60.0f);
	assert_true(far_side < -0.85f && far_side > -1.0f);
	sinew_destroy_world(r.world);
}

/* A target fixed to a body moves with it. */
static void target_on_body_a_moves_with_it(void **state)
{
	(void)state;
	sinew_world_id w = make_world(NULL);
	sinew_world_set_gravity(w, sinew_v2(0.0f, 0.0f));
	sinew_body_def bd = sinew_default_body_def();
	bd.type = SINEW_KINEMATIC_BODY;
	bd.linear_velocity = sinew_v2(1.0f, 0.0f);
	sinew_body_id carrier = sinew_create_body(w, &bd);
	sinew_body_id box = make_box(w, 0.0f, -2.0f, 0.25f, 0.25f, 1.0f, 0.6f);
	sinew_target_joint_def d = sinew_default_target_joint_def();
	d.base.body_a = carrier, d.base.body_b = box;
	d.target = sinew_v2(0.0f, -1.0f), d.anchor = sinew_v2(0.0f, -2.0f), d.hertz = 10.0f, d.damping_ratio = 1.0f;
	sinew_joint_id j = sinew_create_target_joint(w, &d);
	step_n(w, 120); /* 2 s: the carrier is at x = 2 */
	sinew_vec2 t = sinew_target_joint_get_target(j);
	assert_float_near(t.x, 2.0f, 1e-4f);
	assert_float_near(t.y, -1.0f, 1e-4f);
	/* the damping acts on the velocity relative to body A, so a carried target is followed without lag */
	assert_float_near(sinew_body_get_world_center(box).x, 2.0f, 1e-3f);
	assert_float_near(sinew_body_get_world_center(box).y, -1.0f, 1e-3f);
	sinew_destroy_world(w);
}

static void misuse_is_refused(void **state)
{
	(void)state;
	error_recorder rec;
	memset(&rec, 0, sizeof rec);
	sinew_world_id w = make_world(&rec);
	sinew_body_id box = make_box(w, 0.0f, 0.0f, 0.5f, 0.5f, 1.0f, 0.6f);
	sinew_target_joint_def d = sinew_default_target_joint_def();
	d.base.body_b = box;
	d.hertz = 0.0f;
	assert_true(SINEW_IS_NULL(sinew_create_target_joint(w, &d)));
	assert_int_equal(rec.last_code, SINEW_ERROR_INVALID_ARGUMENT);
	d = sinew_default_target_joint_def();
	d.base.body_b = box;
	d.target.x = NAN;
	assert_true(SINEW_IS_NULL(sinew_create_target_joint(w, &d)));
	assert_int_equal(rec.last_code, SINEW_ERROR_NOT_FINITE);
	d = sinew_default_target_joint_def();
	d.base.body_b = box;
	d.max_force = -1.0f;
	assert_true(SINEW_IS_NULL(sinew_create_target_joint(w, &d)));
	assert_int_equal(sinew_world_get_counters(w).joint_count, 0);
	d.max_force = 5.0f;
	sinew_joint_id j = sinew_create_target_joint(w, &d);
	assert_false(SINEW_IS_NULL(j));
	int before = rec.count;
	assert_false(sinew_target_joint_set_target(j, sinew_v2(INFINITY, 0.0f)));
	assert_false(sinew_target_joint_set_tuning(j, 5.0f, -1.0f, 1.0f));
	assert_false(sinew_joint_set_motor(j, (sinew_joint_motor){true, 1.0f, 1.0f}));
	assert_int_equal(rec.count, before + 3);
	float hz, zeta, max_force;
	assert_true(sinew_target_joint_get_tuning(j, &hz, &zeta, &max_force));
	assert_true(hz == 5.0f && zeta == 0.7f && max_force == 5.0f);
	/* not a target joint */
	sinew_revolute_joint_def rd = sinew_default_revolute_joint_def();
	rd.base.body_b = box;
	sinew_joint_id rev = sinew_create_revolute_joint(w, &rd);
	assert_false(sinew_target_joint_set_target(rev, sinew_v2(0.0f, 0.0f)));
	assert_false(sinew_target_joint_get_tuning(rev, &hz, NULL, NULL));
	assert_true(hz == 0.0f);
	assert_int_equal(rec.last_code, SINEW_ERROR_INVALID_ARGUMENT);
	sinew_destroy_world(w);
}

static const char *const scene_text =
	"{\"sinew_scene\": 1, \"world\": {\"gravity\": [0, -10]},\n"
	" \"bodies\": [{\"name\": \"box\", \"position\": [0, 0], \"shapes\": [{\"type\": \"box\", \"half_extents\": [0.5, 0.5]}]}],\n"
	" \"joints\": [{\"name\": \"grab\", \"type\": \"target\", \"body_b\": \"box\", \"target\": [2, 3], \"anchor\": [0.5, 0],\n"
	"              \"hertz\": 3, \"damping_ratio\": 0.5, \"max_force\": 50}]}";

static sinew_scene *load(const char *text)
{
	char error[512] = "";
	sinew_scene *s = sinew_scene_load_string(text, "target.json", error, sizeof error);
	if (s == NULL) fail_msg("%s", error);
	return s;
}

static void scene_files_load_and_save_it(void **state)
{
	(void)state;
	sinew_scene *scene = load(scene_text);
	sinew_joint_id j = sinew_scene_find_joint(scene, "grab");
	assert_int_equal(sinew_joint_get_type(j), SINEW_TARGET_JOINT);
	sinew_vec2 t = sinew_target_joint_get_target(j);
	assert_true(t.x == 2.0f && t.y == 3.0f);
	sinew_vec2 la = sinew_joint_get_local_anchor_b(j);
	assert_true(la.x == 0.5f && la.y == 0.0f);
	float hz, zeta, max_force;
	sinew_target_joint_get_tuning(j, &hz, &zeta, &max_force);
	assert_true(hz == 3.0f && zeta == 0.5f && max_force == 50.0f);
	char error[512] = "";
	char *text = sinew_scene_save_string(scene, error, sizeof error);
	assert_non_null(text);
	sinew_scene *copy = load(text);
	sinew_joint_id k = sinew_scene_find_joint(copy, "grab");
	assert_int_equal(sinew_joint_get_type(k), SINEW_TARGET_JOINT);
	sinew_vec2 t2 = sinew_target_joint_get_target(k);
	assert_true(t2.x == 2.0f && t2.y == 3.0f);
	sinew_vec2 lb = sinew_joint_get_local_anchor_b(k);
	assert_true(lb.x == 0.5f && lb.y == 0.0f);
	sinew_target_joint_get_tuning(k, &hz, &zeta, &max_force);
	assert_true(hz == 3.0f && zeta == 0.5f && max_force == 50.0f);
	free(text);
	sinew_scene_destroy(copy);
	sinew_scene_destroy(scene);
	/* absent keys: the defaults (anchor = target: grabbed where it is; no cap) */
	scene = load("{\"sinew_scene\": 1, \"bodies\": [{\"name\": \"b\", \"shapes\": [{\"type\": \"circle\", \"radius\": 1}]}],"
	             " \"joints\": [{\"type\": \"target\", \"body_b\": \"b\", \"target\": [0.25, 0]}]}");
	j = sinew_scene_get_joint(scene, 0);
	sinew_target_joint_get_tuning(j, &hz, &zeta, &max_force);
	assert_true(hz == 5.0f && zeta == 0.7f && isinf(max_force));
	la = sinew_joint_get_local_anchor_b(j);
	assert_true(la.x == 0.25f && la.y == 0.0f);
	sinew_scene_destroy(scene);
	/* bad values name the key */
	char err[512] = "";
	assert_null(sinew_scene_load_string("{\"sinew_scene\": 1, \"bodies\": [{\"name\": \"b\"}], \"joints\": [{\"type\": "
	                                    "\"target\", \"body_b\": \"b\", \"target\": [0, 0], \"hertz\": 0}]}",
	                                    "bad.json", err, sizeof err));
	assert_non_null(strstr(err, "joints[0].hertz"));
	assert_null(sinew_scene_load_string("{\"sinew_scene\": 1, \"bodies\": [{\"name\": \"b\"}], \"joints\": [{\"type\": "
	                                    "\"target\", \"body_b\": \"b\"}]}",
	                                    "bad.json", err, sizeof err));
	assert_non_null(strstr(err, "target"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults_are_documented),
		cmocka_unit_test(pulled_body_settles_on_the_target),
		cmocka_unit_test(under_gravity_it_hangs_by_g_over_omega_squared),
		cmocka_unit_test(max_force_caps_the_pull),
		cmocka_unit_test(critically_damped_response_follows_the_analytic_curve),
		cmocka_unit_test(undamped_spring_rings_at_its_hertz),
		cmocka_unit_test(target_on_body_a_moves_with_it),
		cmocka_unit_test(misuse_is_refused),
		cmocka_unit_test(scene_files_load_and_save_it),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
