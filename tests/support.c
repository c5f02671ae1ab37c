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
