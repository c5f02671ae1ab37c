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

/* A small deterministic generator (the test must not depend on the C library's rand). */
static uint32_t next_random(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

/* What one run of random body types measured. */
typedef struct type_run {
	int switches, errors;
	double fastest;  /* fastest dynamic body after any step, m/s */
	double farthest; /* farthest any body got from the origin, m */
	double stretched; /* worst joint separation while parts switched, m */
	double settled;  /* worst joint separation over the last second, all parts dynamic again, m */
} type_run;

/* Six humans on the ground; at random steps (one in four) a random part of a random human becomes
 * static, kinematic (with a random velocity of up to 2 m/s per axis and 4 rad/s) or dynamic again,
 * for 780 steps; then every part turns dynamic and the figures fall for 2 s. A kinematic part carries
 * its joints off (metres from a static part: only finite, bounded motion is asserted then), and
 * when all turn dynamic the stretched joints must pull back together. Every body is finite after
 * every step. */
static type_run random_body_types(uint32_t seed)
{
	error_recorder rec = {0};
	sinew_world_id w = make_world(&rec);
	make_ground(w, 0.0f, 0.6f);
	enum { FIGURES = 6, SWITCHING = 780, STEPS = 900 };
	human h[FIGURES];
	for (int f = 0; f < FIGURES; ++f)
		human_create(&h[f], w, sinew_v2(1.5f * (float)f, 0.3f * (float)f), 0.4f * (float)f - 1.0f, 2u + (uint32_t)f);
	type_run run = {0, 0, 0.0, 0.0, 0.0, 0.0};
	for (int s = 0; s < STEPS; ++s) {
		if (s < SWITCHING && next_random(&seed) % 4 == 0) {
			sinew_body_id b = h[next_random(&seed) % FIGURES].bodies[next_random(&seed) % HUMAN_BODIES];
			sinew_body_type type = (sinew_body_type)(next_random(&seed) % 3);
			assert_true(sinew_body_set_type(b, type));
			if (type == SINEW_KINEMATIC_BODY) {
				float vx = 4.0f * ((float)(next_random(&seed) % 1001) / 1000.0f - 0.5f);
				float vy = 4.0f * ((float)(next_random(&seed) % 1001) / 1000.0f - 0.5f);
				float spin = 8.0f * ((float)(next_random(&seed) % 1001) / 1000.0f - 0.5f);
				assert_true(sinew_body_set_linear_velocity(b, sinew_v2(vx, vy)));
				assert_true(sinew_body_set_angular_velocity(b, spin));
			}
			run.switches += 1;
		}
		if (s == SWITCHING)
			for (int f = 0; f < FIGURES; ++f)
				for (int i = 0; i < HUMAN_BODIES; ++i) assert_true(sinew_body_set_type(h[f].bodies[i], SINEW_DYNAMIC_BODY));
		step_n(w, 1);
		for (int f = 0; f < FIGURES; ++f) {
			for (int i = 0; i < HUMAN_BODIES; ++i) {
				sinew_body_id b = h[f].bodies[i];
				assert_true(body_is_finite(b));
				sinew_vec2 p = sinew_body_get_position(b), v = sinew_body_get_linear_velocity(b);
				run.farthest = fmax(run.farthest, sqrt((double)p.x * p.x + (double)p.y * p.y));
				if (sinew_body_get_type(b) == SINEW_DYNAMIC_BODY)
					run.fastest = fmax(run.fastest, sqrt((double)v.x * v.x + (double)v.y * v.y));
			}
			for (int k = 0; k < HUMAN_JOINTS; ++k) {
				double e = sinew_joint_get_linear_error(h[f].joints[k]);
				if (s < SWITCHING) run.stretched = fmax(run.stretched, e);
				else if (s >= STEPS - 60) run.settled = fmax(run.settled, e);
			}
		}
	}
	run.errors = rec.count;
	sinew_destroy_world(w);
	return run;
}

/* Issue 13: switching ragdoll parts between static, kinematic and dynamic at random reached NaN
 * within a few hundred steps (geometric stiffness feeding on the impulses of a tree cranked by a
 * kinematic part against a static one, loop solves near a singular S, warm starts carried across a
 * change of solver, and projections of metres at once; see docs/joints.md "Known limits"). Seeds 1-5
 * and 13, 900 steps each: every body finite after every step, no engine error, no dynamic body faster
 * than 120 m/s (measured 24-62 m/s over the six seeds; 37-92 m/s before the last two fixes below,
 * 144 m/s before the one before; it was up to 156 m/s, bounded at 350, and
 * reached the 400 m/s clamp with some changes of the solver's details). Traced pass by pass, five
 * injections threw the light parts (docs/joints.md, Known limits): the loops' bias asking a joint
 * stretched by metres to close in one substep (a 36 g hand at 802 m/s), the presolve spreading a
 * crushed hand's warm-started contact impulse (540 m/s) through a figure a kinematic part drives,
 * the loop impulses of such a figure near a singular S (620 m/s), a loop solve with S factored
 * before the tree solve dropped a limit (seed 2, step 476: a torso pinned by its hip limit, freed,
 * turned at 16,700 rad/s and its head thrown at 5,135 m/s inside the pass, 124 m/s at the step's
 * end), and the bias of a driven figure's loops near a singular S passing the energy test (seed 4,
 * step 269: 121 m/s). None further than 100 m from where the figures
 * stand (a kinematic part can travel about 37 m), and once all parts are dynamic again every joint
 * back within 1 cm over the last second. Without the projection's trust region (the other guards in
 * place) every seed stayed finite, but bodies were flung up to 923 m and reached the clamp. */
static void random_body_types_stay_finite(void **state)
{
	(void)state;
	const uint32_t seeds[] = {1, 2, 3, 4, 5, 13};
	for (size_t i = 0; i < sizeof seeds / sizeof seeds[0]; ++i) {
		type_run run = random_body_types(seeds[i]);
		printf("random body types, seed %2u: %d switches, %d engine errors, fastest dynamic body %.1f m/s, farthest body "
		       "%.1f m, joints stretched up to %.2f m while switching, %.5f m over the last second all dynamic\n",
		       (unsigned)seeds[i], run.switches, run.errors, run.fastest, run.farthest, run.stretched, run.settled);
		assert_true(run.switches > 150);
		assert_int_equal(run.errors, 0);
		assert_true(run.fastest < 120.0);
		assert_true(run.farthest < 100.0);
		assert_true(run.settled < 0.01);
	}
}

/* An argument picks the tests to run by name pattern (one while tracing). */
int main(int argc, char **argv)
{
	if (argc > 1) cmocka_set_test_filter(argv[1]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(heavy_hips_stay_finite),
		cmocka_unit_test(random_body_types_stay_finite),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
