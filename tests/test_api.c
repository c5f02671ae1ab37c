/* Misuse is refused, reported with a code through the error callback, and changes nothing. */
#include "support.h"

#include <math.h>
#include <string.h>

typedef struct fixture {
	error_recorder rec;
	sinew_world_id world;
	sinew_body_id box;
	uint64_t hash;
	int bodies;
} fixture;

static int setup(void **state)
{
	static fixture f;
	memset(&f, 0, sizeof f);
	recorder_install(&f.rec);
	f.world = make_world(&f.rec);
	make_ground(f.world, 0.0f, 0.6f);
	f.box = make_box(f.world, 0.0f, 2.0f, 0.5f, 0.5f, 1.0f, 0.6f);
	step_n(f.world, 10);
	f.hash = sinew_world_get_hash(f.world);
	f.bodies = sinew_world_get_counters(f.world).body_count;
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	fixture *f = *state;
	sinew_destroy_world(f->world);
	sinew_set_error_callback(NULL, NULL);
	return 0;
}

/* The world is exactly as it was. */
static void assert_unchanged(const fixture *f)
{
	assert_true(sinew_world_get_hash(f->world) == f->hash);
	assert_int_equal(sinew_world_get_counters(f->world).body_count, f->bodies);
}

static void expect_error(fixture *f, int before, sinew_error code)
{
	assert_int_equal(f->rec.count, before + 1);
	assert_int_equal(f->rec.last_code, code);
	assert_true(strlen(f->rec.last_message) > 10);
}

static void stale_body_id(void **state)
{
	fixture *f = *state;
	sinew_body_id doomed = make_box(f->world, 5.0f, 5.0f, 0.5f, 0.5f, 1.0f, 0.6f);
	assert_true(sinew_destroy_body(doomed));
	f->hash = sinew_world_get_hash(f->world);
	int n = f->rec.count;
	assert_false(sinew_body_is_valid(doomed));
	assert_int_equal(f->rec.count, n); /* is_valid never reports */
	assert_false(sinew_body_set_linear_velocity(doomed, sinew_v2(1.0f, 0.0f)));
	expect_error(f, n, SINEW_ERROR_INVALID_ID);
	assert_true(strstr(f->rec.last_message, "sinew_body_set_linear_velocity") != NULL);
	/* destroying twice */
	assert_false(sinew_destroy_body(doomed));
	expect_error(f, n + 1, SINEW_ERROR_INVALID_ID);
	/* a new body in the same slot does not revive the old handle */
	sinew_body_id reborn = make_box(f->world, 5.0f, 5.0f, 0.5f, 0.5f, 1.0f, 0.6f);
	assert_int_equal(reborn.index1, doomed.index1);
	assert_false(sinew_body_is_valid(doomed));
	assert_true(sinew_body_is_valid(reborn));
	sinew_destroy_body(reborn);
	assert_unchanged(f);
	assert_false(sinew_body_is_valid(sinew_null_body_id));
}

static void stale_shape_id(void **state)
{
	fixture *f = *state;
	sinew_shape_id shapes[1];
	assert_int_equal(sinew_body_get_shapes(f->box, shapes, 1), 1);
	sinew_body_id other = make_box(f->world, 5.0f, 5.0f, 0.5f, 0.5f, 1.0f, 0.6f);
	sinew_shape_id s2;
	sinew_body_get_shapes(other, &s2, 1);
	sinew_destroy_body(other);
	int n = f->rec.count;
	assert_false(sinew_shape_is_valid(s2));
	assert_false(sinew_shape_set_friction(s2, 0.3f));
	expect_error(f, n, SINEW_ERROR_INVALID_ID);
	assert_false(sinew_destroy_shape(s2, true));
	expect_error(f, n + 1, SINEW_ERROR_INVALID_ID);
	assert_true(sinew_shape_is_valid(shapes[0]));
	assert_unchanged(f);
}

static void not_finite_input(void **state)
{
	fixture *f = *state;
	int n = f->rec.count;
	assert_false(sinew_body_set_position(f->box, sinew_v2(NAN, 0.0f)));
	expect_error(f, n, SINEW_ERROR_NOT_FINITE);
	assert_false(sinew_body_set_linear_velocity(f->box, sinew_v2(0.0f, INFINITY)));
	expect_error(f, n + 1, SINEW_ERROR_NOT_FINITE);
	assert_false(sinew_body_set_angular_velocity(f->box, NAN));
	expect_error(f, n + 2, SINEW_ERROR_NOT_FINITE);
	assert_false(sinew_body_apply_linear_impulse_to_center(f->box, sinew_v2(NAN, NAN), true));
	expect_error(f, n + 3, SINEW_ERROR_NOT_FINITE);
	assert_false(sinew_world_set_gravity(f->world, sinew_v2(0.0f, NAN)));
	expect_error(f, n + 4, SINEW_ERROR_NOT_FINITE);
	sinew_body_def bd = sinew_default_body_def();
	bd.position = sinew_v2(INFINITY, 0.0f);
	assert_true(SINEW_IS_NULL(sinew_create_body(f->world, &bd)));
	expect_error(f, n + 5, SINEW_ERROR_NOT_FINITE);
	assert_unchanged(f);
}

static void bad_geometry(void **state)
{
	fixture *f = *state;
	int n = f->rec.count, shapes = sinew_body_get_shape_count(f->box);
	float mass = sinew_body_get_mass(f->box);
	sinew_shape_def sd = sinew_default_shape_def();
	sinew_circle c = {{0.0f, 0.0f}, -1.0f};
	assert_true(SINEW_IS_NULL(sinew_create_circle_shape(f->box, &sd, &c)));
	expect_error(f, n, SINEW_ERROR_INVALID_ARGUMENT);
	sinew_capsule cap = {{0.0f, 0.0f}, {1.0f, 0.0f}, 0.0f};
	assert_true(SINEW_IS_NULL(sinew_create_capsule_shape(f->box, &sd, &cap)));
	expect_error(f, n + 1, SINEW_ERROR_INVALID_ARGUMENT);
	sinew_polygon flat = sinew_make_box(1.0f, 0.0f); /* zero area: refused by make_box, then by create */
	expect_error(f, n + 2, SINEW_ERROR_INVALID_ARGUMENT);
	assert_true(SINEW_IS_NULL(sinew_create_polygon_shape(f->box, &sd, &flat)));
	expect_error(f, n + 3, SINEW_ERROR_INVALID_ARGUMENT);
	sinew_polygon sliver = sinew_make_box(1.0f, 1.0f);
	sliver.vertices[2] = sliver.vertices[1]; /* degenerate: two equal corners */
	assert_true(SINEW_IS_NULL(sinew_create_polygon_shape(f->box, &sd, &sliver)));
	expect_error(f, n + 4, SINEW_ERROR_INVALID_ARGUMENT);
	sd.density = -1.0f;
	sinew_circle ok = {{0.0f, 0.0f}, 0.5f};
	assert_true(SINEW_IS_NULL(sinew_create_circle_shape(f->box, &sd, &ok)));
	expect_error(f, n + 5, SINEW_ERROR_INVALID_ARGUMENT);
	assert_int_equal(sinew_body_get_shape_count(f->box), shapes);
	assert_true(sinew_body_get_mass(f->box) == mass);
	assert_unchanged(f);
}

static void bad_defs_and_steps(void **state)
{
	fixture *f = *state;
	int n = f->rec.count;
	sinew_body_def raw;
	memset(&raw, 0, sizeof raw); /* not from sinew_default_body_def */
	assert_true(SINEW_IS_NULL(sinew_create_body(f->world, &raw)));
	expect_error(f, n, SINEW_ERROR_INVALID_ARGUMENT);
	assert_false(sinew_world_step(f->world, 0.0f, 4));
	expect_error(f, n + 1, SINEW_ERROR_INVALID_ARGUMENT);
	assert_false(sinew_world_step(f->world, 1.0f / 60.0f, 0));
	expect_error(f, n + 2, SINEW_ERROR_INVALID_ARGUMENT);
	assert_false(sinew_world_step(f->world, NAN, 4));
	expect_error(f, n + 3, SINEW_ERROR_INVALID_ARGUMENT);
	assert_false(sinew_body_move_to(f->box, sinew_transform_identity(), 1.0f / 60.0f)); /* dynamic */
	expect_error(f, n + 4, SINEW_ERROR_INVALID_ARGUMENT);
	sinew_mass_data m = {-1.0f, {0.0f, 0.0f}, 1.0f};
	assert_false(sinew_body_set_mass_data(f->box, m));
	expect_error(f, n + 5, SINEW_ERROR_INVALID_ARGUMENT);
	assert_false(sinew_body_set_linear_damping(f->box, -0.5f));
	expect_error(f, n + 6, SINEW_ERROR_INVALID_ARGUMENT);
	assert_unchanged(f);
}

/* A mass override lasts until the shapes decide again, and the body says which it has. */
static void mass_override_lifecycle(void **state)
{
	(void)state;
	sinew_world_id w = make_world(NULL);
	sinew_body_id box = make_box(w, 0.0f, 5.0f, 0.5f, 0.5f, 2.0f, 0.6f); /* 1 x 1 at density 2: 2 kg */
	assert_false(sinew_body_is_mass_overridden(box));
	assert_float_equal(sinew_body_get_mass(box), 2.0f, 1e-6f);
	sinew_mass_data m = {5.0f, {0.0f, 0.0f}, 1.0f};
	assert_true(sinew_body_set_mass_data(box, m));
	assert_true(sinew_body_is_mass_overridden(box));
	assert_float_equal(sinew_body_get_mass(box), 5.0f, 0.0f);
	assert_true(sinew_body_apply_mass_from_shapes(box));
	assert_false(sinew_body_is_mass_overridden(box));
	assert_float_equal(sinew_body_get_mass(box), 2.0f, 1e-6f);
	assert_true(sinew_body_set_mass_data(box, m));
	sinew_shape_def sd = sinew_default_shape_def(); /* update_body_mass: the shapes decide again */
	sinew_circle c = {{0.0f, 1.0f}, 0.1f};
	sinew_create_circle_shape(box, &sd, &c);
	assert_false(sinew_body_is_mass_overridden(box));
	assert_true(sinew_body_get_mass(box) > 2.0f && sinew_body_get_mass(box) < 2.1f);
	sinew_destroy_body(box);
	assert_false(sinew_body_is_mass_overridden(box)); /* stale: false, with a report */
	sinew_destroy_world(w);
}

static void stale_world(void **state)
{
	fixture *f = *state;
	error_recorder rec;
	recorder_install(&rec);
	sinew_world_id w = make_world(NULL);
	sinew_body_id b = make_box(w, 0.0f, 0.0f, 0.5f, 0.5f, 1.0f, 0.6f);
	assert_true(sinew_destroy_world(w));
	assert_false(sinew_world_is_valid(w));
	assert_false(sinew_world_step(w, 1.0f / 60.0f, 4));
	assert_int_equal(rec.last_code, SINEW_ERROR_INVALID_ID);
	assert_false(sinew_destroy_world(w));
	assert_false(sinew_body_is_valid(b));
	int before = rec.count;
	(void)sinew_body_get_position(b);
	assert_int_equal(rec.count, before + 1);
	/* a new world in the same slot does not revive the old handle */
	sinew_world_id w2 = make_world(NULL);
	assert_false(sinew_world_is_valid(w));
	/* SINEW_ID_EQUALS works on world handles too: same slot, another generation */
	assert_int_equal(w2.index1, w.index1);
	assert_false(SINEW_ID_EQUALS(w, w2));
	assert_true(SINEW_ID_EQUALS(w2, sinew_body_get_world(make_box(w2, 0.0f, 0.0f, 0.5f, 0.5f, 1.0f, 0.6f))));
	sinew_destroy_world(w2);
	recorder_install(&f->rec);
	f->rec.count = 0;
}

/* Layers on the public API report through the world's callback; a stale world falls back to the
 * process-wide one; a bad code becomes invalid_argument. */
static void report_error_through_world(void **state)
{
	fixture *f = *state;
	int n = f->rec.count;
	sinew_world_report_error(f->world, SINEW_ERROR_NOT_FINITE, "sinew_rig_set_marker: position is not finite");
	expect_error(f, n, SINEW_ERROR_NOT_FINITE);
	assert_string_equal(f->rec.last_message, "sinew_rig_set_marker: position is not finite");
	sinew_world_report_error(sinew_null_world_id, (sinew_error)99, "a message for nobody in particular");
	expect_error(f, n + 1, SINEW_ERROR_INVALID_ARGUMENT);
	assert_unchanged(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(stale_body_id, setup, teardown),
		cmocka_unit_test_setup_teardown(stale_shape_id, setup, teardown),
		cmocka_unit_test_setup_teardown(not_finite_input, setup, teardown),
		cmocka_unit_test_setup_teardown(bad_geometry, setup, teardown),
		cmocka_unit_test_setup_teardown(bad_defs_and_steps, setup, teardown),
		cmocka_unit_test_setup_teardown(stale_world, setup, teardown),
		cmocka_unit_test(mass_override_lifecycle),
		cmocka_unit_test_setup_teardown(report_error_through_world, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
