#include "support.h"

#include <math.h>
#include <string.h>

void recorder_callback(sinew_error code, const char *message, void *context)
{
	error_recorder *r = context;
	r->count += 1;
	r->last_code = code;
	strncpy(r->last_message, message, sizeof r->last_message - 1);
	r->last_message[sizeof r->last_message - 1] = '\0';
}

void recorder_install(error_recorder *r)
{
	memset(r, 0, sizeof *r);
	sinew_set_error_callback(recorder_callback, r);
}

sinew_world_id make_world(error_recorder *r)
{
	sinew_world_def wd = sinew_default_world_def();
	if (r != NULL) {
		wd.error_fn = recorder_callback;
		wd.error_context = r;
	}
	return sinew_create_world(&wd);
}

sinew_body_id make_ground(sinew_world_id world, float top, float friction)
{
	sinew_body_def bd = sinew_default_body_def();
	bd.position = sinew_v2(0.0f, top - 1.0f);
	sinew_body_id ground = sinew_create_body(world, &bd);
	sinew_shape_def sd = sinew_default_shape_def();
	sd.friction = friction;
	sinew_polygon box = sinew_make_box(100.0f, 1.0f);
	sinew_create_polygon_shape(ground, &sd, &box);
	return ground;
}

void make_block(sinew_world_id world, float x0, float x1, float top, float bottom)
{
	sinew_body_def bd = sinew_default_body_def();
	sinew_body_id b = sinew_create_body(world, &bd);
	sinew_shape_def sd = sinew_default_shape_def();
	sinew_polygon box =
		sinew_make_offset_box(0.5f * (x1 - x0), 0.5f * (bottom - top), sinew_v2(0.5f * (x0 + x1), 0.5f * (top + bottom)), 0.0f);
	sinew_create_polygon_shape(b, &sd, &box);
}

sinew_body_id make_box(sinew_world_id world, float x, float y, float hx, float hy, float density, float friction)
{
	sinew_body_def bd = sinew_default_body_def();
	bd.type = SINEW_DYNAMIC_BODY;
	bd.position = sinew_v2(x, y);
	sinew_body_id body = sinew_create_body(world, &bd);
	sinew_shape_def sd = sinew_default_shape_def();
	sd.density = density;
	sd.friction = friction;
	sinew_polygon box = sinew_make_box(hx, hy);
	sinew_create_polygon_shape(body, &sd, &box);
	return body;
}

sinew_body_id make_ball(sinew_world_id world, float x, float y, float radius, float restitution)
{
	sinew_body_def bd = sinew_default_body_def();
	bd.type = SINEW_DYNAMIC_BODY;
	bd.position = sinew_v2(x, y);
	sinew_body_id body = sinew_create_body(world, &bd);
	sinew_shape_def sd = sinew_default_shape_def();
	sd.restitution = restitution;
	sinew_circle c = {{0.0f, 0.0f}, radius};
	sinew_create_circle_shape(body, &sd, &c);
	return body;
}

void step_n(sinew_world_id world, int n)
{
	for (int i = 0; i < n; ++i) sinew_world_step(world, 1.0f / 60.0f, 4);
}

void expect_scene_error(const char *text, const char *expected)
{
	char error[512] = "";
	sinew_scene *scene = sinew_scene_load_string(text, "bad.json", error, sizeof error);
	if (scene != NULL || strcmp(error, expected) != 0) {
		print_error("text:\n%s\nexpected: %s\ngot:      %s\n", text, expected, scene != NULL ? "(loaded)" : error);
	}
	sinew_scene_destroy(scene);
	assert_null(scene);
	assert_string_equal(error, expected);
}

sinew_scene *must_load_scene(const char *text)
{
	char error[512] = "";
	sinew_scene *scene = sinew_scene_load_string(text, "good.json", error, sizeof error);
	if (scene == NULL) print_error("%s\n", error);
	assert_non_null(scene);
	return scene;
}

sinew_scene *must_load_scene_file(const char *path)
{
	char error[512] = "";
	sinew_scene *scene = sinew_scene_load_file(path, error, sizeof error);
	if (scene == NULL) print_error("%s\n", error);
	assert_non_null(scene);
	return scene;
}

static float wrap_pi(float a)
{
	a = remainderf(a, 2.0f * SINEW_PI);
	return a <= -SINEW_PI ? a + 2.0f * SINEW_PI : a;
}

/* How far angle a is outside [lower, upper], the short way round (0 inside). */
static float outside_band(float a, float lower, float upper)
{
	if (a >= lower && a <= upper) return 0.0f;
	float turn = 2.0f * SINEW_PI;
	float below = fmodf(fmodf(lower - a, turn) + turn, turn), above = fmodf(fmodf(a - upper, turn) + turn, turn);
	return fminf(below, above);
}

void world_band_frame(world_band_watch *w, const sinew_ragdoll *rd)
{
	if (sinew_ragdoll_get_state(rd) != SINEW_RIG_RAGDOLL) return;
	w->frames += 1;
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		sinew_joint_id j = sinew_ragdoll_get_joint(rd, (sinew_rig_part)p);
		if (!sinew_joint_is_valid(j)) continue;
		sinew_body_id a = sinew_joint_get_body_a(j), b = sinew_joint_get_body_b(j);
		float relative = wrap_pi(sinew_body_get_angle(b) - sinew_body_get_angle(a));
		bool fresh = !SINEW_ID_EQUALS(w->joints[p], j);
		bool folded = !fresh && fabsf(relative) > 0.5f * SINEW_PI && fabsf(w->relative[p]) > 0.5f * SINEW_PI &&
		              (relative > 0.0f) != (w->relative[p] > 0.0f);
		if (fresh) w->since_fold[p] = WORLD_BAND_FOLD_FRAMES;
		if (folded) w->folds += 1, w->since_fold[p] = 0;
		else if (w->since_fold[p] < WORLD_BAND_FOLD_FRAMES) w->since_fold[p] += 1;
		w->joints[p] = j;
		w->relative[p] = relative;
		sinew_joint_limit limit = sinew_joint_get_limit(j);
		if (!limit.enabled) continue;
		sinew_vec2 d = sinew_sub(sinew_body_get_world_center(b), sinew_body_get_world_center(a));
		float swing = wrap_pi(atan2f(d.y, d.x) - sinew_joint_get_swing_reference(j));
		float over = outside_band(swing, limit.lower, limit.upper);
		w->over_any = fmaxf(w->over_any, over);
		if (w->since_fold[p] >= WORLD_BAND_FOLD_FRAMES && sinew_length(d) >= WORLD_BAND_MIN_LINE) w->over_max = fmaxf(w->over_max, over);
	}
}

sinew_joint_id pin_bodies(sinew_world_id world, sinew_body_id a, sinew_body_id b, sinew_vec2 anchor)
{
	sinew_revolute_joint_def jd = sinew_default_revolute_joint_def();
	jd.base.body_a = a;
	jd.base.body_b = b;
	jd.anchor = anchor;
	return sinew_create_revolute_joint(world, &jd);
}

double bodies_energy(const sinew_body_id *bodies, int count, sinew_vec2 g, float floor)
{
	double e = 0.0;
	for (int i = 0; i < count; ++i) {
		sinew_body_id b = bodies[i];
		double m = sinew_body_get_mass(b), I = sinew_body_get_rotational_inertia(b);
		sinew_vec2 v = sinew_body_get_linear_velocity(b), c = sinew_body_get_world_center(b);
		double w = sinew_body_get_angular_velocity(b);
		e += 0.5 * m * ((double)v.x * v.x + (double)v.y * v.y) + 0.5 * I * w * w;
		e -= m * ((double)g.x * c.x + (double)g.y * (c.y - floor));
	}
	return e;
}
