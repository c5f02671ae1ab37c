/* Every public function given NULL for a pointer it needs reports SINEW_ERROR_INVALID_ARGUMENT
 * and returns its failure value; none crashes (issue 15, class 5). Pointers documented as optional
 * (a NULL query filter, NULL out-pointers of getters, sinew_scene_destroy(NULL)) are not walked. */
#include "sinew/draw.h"
#include "sinew/scene.h"
#include "support.h"

#include <string.h>

static error_recorder s_rec;

/* Calls that did not report as they should: listed together, then the test fails. */
static int s_missing;

/* Run one call; it must report INVALID_ARGUMENT at least once. */
#define REFUSES(call)                                                                                       \
	do {                                                                                                    \
		int before_ = s_rec.count;                                                                          \
		(void)(call);                                                                                       \
		if (s_rec.count == before_ || s_rec.last_code != SINEW_ERROR_INVALID_ARGUMENT) {                    \
			print_error("%s: %s\n", #call, s_rec.count == before_ ? "no error" : s_rec.last_message);     \
			s_missing += 1;                                                                                 \
		}                                                                                                   \
	} while (0)

static void world_functions_refuse_null(void **state)
{
	(void)state;
	memset(&s_rec, 0, sizeof s_rec);
	recorder_install(&s_rec);
	sinew_world_id w = make_world(&s_rec);
	sinew_body_id b = make_box(w, 0.0f, 1.0f, 0.5f, 0.5f, 1.0f, 0.6f);
	sinew_shape_def sd = sinew_default_shape_def();
	sinew_transform xf = {{0.0f, 0.0f}, {1.0f, 0.0f}};
	sinew_vec2 zero = {0.0f, 0.0f};
	float f;

	REFUSES(sinew_create_world(NULL));
	REFUSES(sinew_world_get_bodies(w, NULL, 5));
	REFUSES(sinew_world_get_joints(w, NULL, 5));
	REFUSES(sinew_world_report_error(w, SINEW_ERROR_INVALID_ARGUMENT, NULL));
	REFUSES(sinew_create_body(w, NULL));
	REFUSES(sinew_body_get_shapes(b, NULL, 5));
	REFUSES(sinew_body_get_contacts(b, NULL, 5));
	REFUSES(sinew_body_get_contact_data(b, NULL, 5));
	REFUSES(sinew_body_get_joints(b, NULL, 5));
	REFUSES(sinew_create_circle_shape(b, NULL, NULL));
	REFUSES(sinew_create_circle_shape(b, &sd, NULL));
	REFUSES(sinew_create_capsule_shape(b, &sd, NULL));
	REFUSES(sinew_create_polygon_shape(b, &sd, NULL));
	REFUSES(sinew_create_pin_joint(w, NULL));
	REFUSES(sinew_create_revolute_joint(w, NULL));
	REFUSES(sinew_create_prismatic_joint(w, NULL));
	REFUSES(sinew_create_weld_joint(w, NULL));
	REFUSES(sinew_create_distance_joint(w, NULL));
	REFUSES(sinew_create_wheel_joint(w, NULL));
	REFUSES(sinew_create_target_joint(w, NULL));
	REFUSES(sinew_world_cast_ray_all(w, zero, sinew_v2(1.0f, 0.0f), NULL, NULL, 5));
	REFUSES(sinew_world_cast_ray(w, zero, sinew_v2(1.0f, 0.0f), NULL, NULL, NULL));
	REFUSES(sinew_world_cast_shape(w, NULL, xf, sinew_v2(1.0f, 0.0f), NULL));
	REFUSES(sinew_world_cast_motion(w, NULL, xf, sinew_v2(1.0f, 0.0f), NULL, &f, &f));
	REFUSES(sinew_world_overlap_shape(w, NULL, xf, NULL, NULL, NULL));
	REFUSES(sinew_world_draw(w, NULL));
	sinew_destroy_world(w);
	sinew_set_error_callback(NULL, NULL);
	assert_int_equal(s_missing, 0);
}

static void collision_functions_refuse_null(void **state)
{
	(void)state;
	s_missing = 0;
	memset(&s_rec, 0, sizeof s_rec);
	recorder_install(&s_rec);
	sinew_transform xf = {{0.0f, 0.0f}, {1.0f, 0.0f}};
	sinew_circle c = {{0.0f, 0.0f}, 1.0f};
	sinew_geometry g;
	memset(&g, 0, sizeof g);
	g.type = SINEW_SHAPE_CIRCLE;
	g.u.circle = c;
	sinew_ray_cast_input ray;
	memset(&ray, 0, sizeof ray);
	ray.translation = sinew_v2(1.0f, 0.0f);
	ray.max_fraction = 1.0f;
	sinew_aabb box = {{0.0f, 0.0f}, {1.0f, 1.0f}};
	float f;
	sinew_sweep sweep;
	memset(&sweep, 0, sizeof sweep);
	sweep.a1 = sweep.a2 = 0.0f;

	REFUSES(sinew_set_allocator(&(sinew_allocator){NULL, NULL, NULL, NULL}));
	REFUSES(sinew_compute_circle_mass(NULL, 1.0f));
	REFUSES(sinew_compute_capsule_mass(NULL, 1.0f));
	REFUSES(sinew_compute_polygon_mass(NULL, 1.0f));
	REFUSES(sinew_compute_mass(NULL, 1.0f));
	REFUSES(sinew_combine_mass(NULL, 2));
	REFUSES(sinew_compute_circle_aabb(NULL, xf));
	REFUSES(sinew_compute_capsule_aabb(NULL, xf));
	REFUSES(sinew_compute_polygon_aabb(NULL, xf));
	REFUSES(sinew_compute_aabb(NULL, xf));
	REFUSES(sinew_geometry_extent(NULL, xf.p));
	REFUSES(sinew_collide_circles(NULL, xf, &c, xf, 0.0f));
	REFUSES(sinew_collide_circles(&c, xf, NULL, xf, 0.0f));
	REFUSES(sinew_collide_capsule_and_circle(NULL, xf, NULL, xf, 0.0f));
	REFUSES(sinew_collide_capsules(NULL, xf, NULL, xf, 0.0f));
	REFUSES(sinew_collide_polygon_and_circle(NULL, xf, NULL, xf, 0.0f));
	REFUSES(sinew_collide_polygon_and_capsule(NULL, xf, NULL, xf, 0.0f));
	REFUSES(sinew_collide_polygons(NULL, xf, NULL, xf, 0.0f));
	REFUSES(sinew_collide(NULL, xf, &g, xf, 0.0f));
	REFUSES(sinew_collide(&g, xf, NULL, xf, 0.0f));
	REFUSES(sinew_dynamic_tree_destroy(NULL));
	REFUSES(sinew_dynamic_tree_create_proxy(NULL, box, 1u, 0u));
	REFUSES(sinew_dynamic_tree_destroy_proxy(NULL, 0));
	REFUSES(sinew_dynamic_tree_move_proxy(NULL, 0, box));
	REFUSES(sinew_dynamic_tree_enlarge_proxy(NULL, 0, box));
	REFUSES(sinew_dynamic_tree_set_proxy_aabb(NULL, 0, box));
	REFUSES(sinew_dynamic_tree_get_aabb(NULL, 0));
	REFUSES(sinew_dynamic_tree_get_user_data(NULL, 0));
	REFUSES(sinew_dynamic_tree_get_category(NULL, 0));
	REFUSES(sinew_dynamic_tree_query(NULL, box, 1u, NULL, NULL));
	REFUSES(sinew_dynamic_tree_ray_cast(NULL, &ray, 1u, NULL, NULL));
	REFUSES(sinew_dynamic_tree_get_height(NULL));
	REFUSES(sinew_dynamic_tree_get_area_ratio(NULL));
	REFUSES(sinew_dynamic_tree_validate(NULL));
	REFUSES(sinew_dynamic_tree_rebuild(NULL));
	REFUSES(sinew_dynamic_tree_rebuild_enlarged(NULL));
	REFUSES(sinew_ray_cast_aabb(box, NULL, &f));
	REFUSES(sinew_make_proxy(NULL));
	REFUSES(sinew_proxy_distance(NULL, xf, NULL, xf));
	REFUSES(sinew_shape_distance(NULL, xf, &g, xf));
	REFUSES(sinew_geometry_test_point(NULL, xf, xf.p));
	REFUSES(sinew_ray_cast_geometry(NULL, xf, &ray, false));
	REFUSES(sinew_ray_cast_geometry(&g, xf, NULL, false));
	REFUSES(sinew_shape_cast(NULL, xf, xf.p, &g, xf, 1.0f, 0.0f));
	REFUSES(sinew_sweep_transform(NULL, 0.5f));
	REFUSES(sinew_time_of_impact(NULL, &sweep, &g, &sweep, 1.0f, 0.0f));
	REFUSES(sinew_time_of_impact(&g, NULL, &g, &sweep, 1.0f, 0.0f));
	sinew_set_error_callback(NULL, NULL);
	assert_int_equal(s_missing, 0);
}

static void scene_functions_refuse_null(void **state)
{
	(void)state;
	memset(&s_rec, 0, sizeof s_rec);
	recorder_install(&s_rec);
	char error[256];
	/* the scene layer reports through its error buffer, and must not crash */
	assert_null(sinew_scene_load_file(NULL, error, sizeof error));
	assert_null(sinew_scene_load_string(NULL, "x.json", error, sizeof error));
	assert_null(sinew_scene_load_string("{", "x.json", NULL, 0));
	assert_true(SINEW_IS_NULL(sinew_scene_get_world(NULL)));
	assert_false(sinew_scene_step(NULL));
	assert_false(sinew_scene_spawn(NULL, "t", sinew_v2(0.0f, 0.0f), "g"));
	assert_false(sinew_scene_destroy_group(NULL, "g"));
	assert_false(sinew_scene_save(NULL, "x.json", error, sizeof error));
	assert_null(sinew_scene_save_string(NULL, error, sizeof error));
	assert_null(sinew_trace_open(NULL, "x.json", 1, error, sizeof error));
	assert_false(sinew_trace_record(NULL));
	assert_false(sinew_trace_write_frame(NULL));
	assert_false(sinew_trace_close(NULL));
	assert_true(SINEW_IS_NULL(sinew_scene_find_body(NULL, "a")));
	sinew_set_error_callback(NULL, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(world_functions_refuse_null),
		cmocka_unit_test(collision_functions_refuse_null),
		cmocka_unit_test(scene_functions_refuse_null),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
