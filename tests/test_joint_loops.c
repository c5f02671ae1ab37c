/* Joint graphs with loops hold as rigidly as trees: a taut bridge pinned to the world at both ends
 * with crates dropped on it, a four-bar linkage driven round by a motor, a motor-driven scissor
 * lift, and the 100 x 100 joint_grid of the benchmarks. Each prints its worst joint separation. */
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct joints {
	sinew_joint_id ids[1024];
	int count;
} joints;

static double worst_separation(const joints *js)
{
	double worst = 0.0;
	for (int k = 0; k < js->count; ++k) worst = fmax(worst, sinew_joint_get_linear_error(js->ids[k]));
	return worst;
}

static sinew_body_id bar(sinew_world_id w, sinew_vec2 a, sinew_vec2 b, float half_width, float density, uint32_t group)
{
	sinew_body_def bd = sinew_default_body_def();
	bd.type = SINEW_DYNAMIC_BODY;
	bd.position = sinew_scale(0.5f, sinew_add(a, b));
	sinew_vec2 d = sinew_sub(b, a);
	bd.angle = atan2f(d.y, d.x);
	sinew_body_id body = sinew_create_body(w, &bd);
	sinew_shape_def sd = sinew_default_shape_def();
	sd.density = density;
	sd.group = group;
	sinew_polygon p = sinew_make_box(0.5f * sinew_length(d), half_width);
	sinew_create_polygon_shape(body, &sd, &p);
	return body;
}

static void pin(joints *js, sinew_world_id w, sinew_body_id a, sinew_body_id b, sinew_vec2 anchor)
{
	js->ids[js->count++] = pin_bodies(w, a, b, anchor);
}

/* Taut bridges with crates on them: their joints, bodies and crates, watched step by step. */
enum { MAX_BODIES = 1024, MAX_CRATES = 128 };
typedef struct bridges {
	joints js;
	sinew_body_id bodies[MAX_BODIES], crates[MAX_CRATES];
	float start[MAX_CRATES];
	int body_count, crate_count;
} bridges;

/* `planks` planks (0.5 x 0.1 m, density 40) pinned end to end from (x0, y), pulled straight, their
 * ends pinned to `left` and `right` (the null id: the world); `crates` 40 kg crates (20x a plank),
 * spread evenly, dropped on it from 1 m. */
static void add_bridge(bridges *br, sinew_world_id w, float x0, float y, int planks, sinew_body_id left, sinew_body_id right, int crates)
{
	sinew_body_id prev = left;
	for (int i = 0; i < planks; ++i) {
		sinew_body_id p = bar(w, sinew_v2(x0 + 0.5f * (float)i, y), sinew_v2(x0 + 0.5f * (float)(i + 1), y), 0.05f, 40.0f, 1);
		pin(&br->js, w, prev, p, sinew_v2(x0 + 0.5f * (float)i, y));
		br->bodies[br->body_count++] = prev = p;
	}
	pin(&br->js, w, right, prev, sinew_v2(x0 + 0.5f * (float)planks, y));
	for (int k = 0; k < crates; ++k) {
		float x = x0 + 0.5f * (float)planks * ((float)k + 0.5f) / (float)crates;
		sinew_body_id c = make_box(w, x, y + 1.3f, 0.25f, 0.25f, 160.0f, 0.6f);
		br->start[br->crate_count] = y + 1.3f;
		br->crates[br->crate_count++] = br->bodies[br->body_count++] = c;
	}
}

/* What a run of `steps` steps did to the bridges: worst joint separation at the end of any step,
 * fastest body, highest rise of a crate above its start, most the energy rose above its start (the
 * crates fall onto the planks, so it may only fall), and the fastest crate and deepest crate contact
 * at the end. */
typedef struct watched {
	double worst, fastest, highest, energy_rise, energy0, crate_speed, deepest;
} watched;

static watched run_bridges(sinew_world_id w, const bridges *br, int steps)
{
	sinew_vec2 g = sinew_world_get_gravity(w);
	watched r = {0.0, 0.0, br->crate_count > 0 ? -1e9 : 0.0, 0.0, bodies_energy(br->bodies, br->body_count, g, 0.0f), 0.0, 0.0};
	for (int s = 0; s < steps; ++s) {
		step_n(w, 1);
		r.worst = fmax(r.worst, worst_separation(&br->js));
		for (int k = 0; k < br->body_count; ++k) r.fastest = fmax(r.fastest, sinew_length(sinew_body_get_linear_velocity(br->bodies[k])));
		for (int k = 0; k < br->crate_count; ++k) r.highest = fmax(r.highest, sinew_body_get_position(br->crates[k]).y - br->start[k]);
		r.energy_rise = fmax(r.energy_rise, bodies_energy(br->bodies, br->body_count, g, 0.0f) - r.energy0);
		if (!(r.worst < 1.0)) break; /* torn: no need to watch it fly apart */
	}
	for (int k = 0; k < br->crate_count; ++k) {
		r.crate_speed = fmax(r.crate_speed, sinew_length(sinew_body_get_linear_velocity(br->crates[k])));
		sinew_body_contact contacts[8];
		int n = sinew_body_get_contacts(br->crates[k], contacts, 8);
		for (int j = 0; j < n; ++j) r.deepest = fmax(r.deepest, -contacts[j].separation);
	}
	return r;
}

/* The fastest a crate can fall onto a bridge: from its start, 1.3 m above the planks' axis, to it. */
#define CRATE_FALL_SPEED 5.05

/* Bridges that hold: every joint within 1 cm, no body faster than a crate can fall, the energy never
 * above its start, no crate above its start, the crates at rest (under 1 cm/s) at the end and no
 * crate contact deeper than `deepest` then. */
/* Prints what one bridge run measured, then asserts it held. */
static void assert_held(const char *what, const watched *r, double deepest)
{
	printf("%s, 10 s: worst separation %.5f m, fastest body %.3f m/s, energy rise %.3g J, crates' highest rise %.4f m, "
	       "crate speed at 10 s %.4f m/s, deepest crate contact %.4f m\n",
	       what, r->worst, r->fastest, r->energy_rise, r->highest, r->crate_speed, r->deepest);
	assert_true(r->worst < 0.01);
	assert_true(r->fastest < CRATE_FALL_SPEED);
	assert_true(r->energy_rise <= 1e-3 * fabs(r->energy0));
	assert_true(r->highest <= 0.0);
	assert_true(r->crate_speed < 0.01);
	assert_true(r->deepest < deepest);
}

/* How deep a crate may sit in planks whose loops are solved exactly: its contacts push the bridge
 * through the trees' response with the loops closed (contact_tree.c, joint_loops.c
 * sinew_joint_loops_close); 2.2 mm on both such bridges here, 2.8 cm before. On the conjugate-gradient
 * path the contacts keep the planks' own masses and the soft overlap: 2.75 cm. */
#define EXACT_LOOP_DEPTH 0.003
#define ITERATIVE_LOOP_DEPTH 0.03

/* The fastest of `count` bodies, read after every one of `steps` more steps. */
static double fastest_over(sinew_world_id w, const sinew_body_id *bodies, int count, int steps)
{
	double fastest = 0.0;
	for (int s = 0; s < steps; ++s) {
		step_n(w, 1);
		for (int k = 0; k < count; ++k) fastest = fmax(fastest, sinew_length(sinew_body_get_linear_velocity(bodies[k])));
	}
	return fastest;
}

/* 40 planks across 20 m, both ends pinned to the world, `crates` crates on it, sleep off (at rest by
 * itself, not put to sleep): run for 10 s and asserted to hold (assert_held, printed as `what`), then
 * the fastest of its bodies, planks and crates, read after every step of `after` steps more. Each
 * pin to the world roots a tree (joint_tree.c, sinew_joint_tree_build), so the bridge is two trees of
 * 20 planks joined by a loop at its middle pin, which carries the bridge's whole tension. */
static double taut_bridge_after(int crates, int after, const char *what)
{
	sinew_world_id w = make_world(NULL);
	sinew_world_enable_sleep(w, false);
	static bridges br;
	memset(&br, 0, sizeof br);
	add_bridge(&br, w, 0.0f, 0.0f, 40, sinew_null_body_id, sinew_null_body_id, crates);
	watched r = run_bridges(w, &br, 600);
	assert_held(what, &r, EXACT_LOOP_DEPTH);
	double fastest = fastest_over(w, br.bodies, br.body_count, after);
	sinew_destroy_world(w);
	return fastest;
}

/* The taut bridge without crates: its loop carries some 3e5 N for its few mm of sag, a string whose
 * modes an explicit step cannot follow. It rang at about 30 Hz with the planks at 6.3 cm/s for
 * ever, until the spin of the loop trees' bodies took the implicit damping of their geometric
 * stiffness and the loops' bias its own small damping (joint_loops.c, sinew_joint_loops_damp and
 * SINEW_LOOP_BIAS_DAMPING): at rest within 10 s, every plank under 1 cm/s after every step from 10
 * to 20 s. */
static void taut_bridge_comes_to_rest(void **state)
{
	(void)state;
	double after = taut_bridge_after(0, 600, "taut bridge, no crates");
	printf("taut bridge, no crates, 10 to 20 s, sleep off: fastest plank %.4f m/s\n", after);
	assert_true(after < 0.01);
}

/* The issue asks for rest (< 1 cm/s) within 10 s. The crates kept a 1.6-2 cm/s phantom speed until
 * the relax passes held speculative points of jointed pairs that already push (contact_solver.c):
 * 0.0000 m/s. Spreading the loop impulses through the trees in double precision (docs/joints.md,
 * loops) alone also gave 0.0000 m/s; the two together 0.0041 m/s, and 0.0000 m/s with two trees and
 * the loop's geometric stiffness (that with sleep on: the island was asleep; with sleep off
 * 0.0071 m/s, 0.0026 m/s with the loop trees' implicit damping, joint_loops.c, and 0.0001 m/s with
 * the crates' contacts through the bridge's response, contact_tree.c). And at rest: every body,
 * crates and planks, under 1 cm/s after every step of the second after 10 s (before the implicit
 * damping: crates 1.13 cm/s, planks 8.1 cm/s; 0.30 cm/s with it, 0.04 cm/s with the response). */
static void taut_bridge_holds_crates(void **state)
{
	(void)state;
	double after = taut_bridge_after(5, 60, "taut bridge + 5 crates");
	printf("taut bridge + 5 crates, 10 to 11 s, sleep off: fastest body %.4f m/s\n", after);
	assert_true(after < 0.01);
}

/* A 21 m beam 3 m above where add_bridge strings the bridge (br cleared first); the caller holds it up. */
static sinew_body_id beam_over_bridge(bridges *br, sinew_world_id w)
{
	memset(br, 0, sizeof *br);
	sinew_body_id beam = bar(w, sinew_v2(-0.5f, 3.0f), sinew_v2(20.5f, 3.0f), 0.1f, 40.0f, 1);
	br->bodies[br->body_count++] = beam;
	return beam;
}

/* The taut bridge of 40 planks and five crates strung between the beam's ends, run for 10 s: held. */
static void held_under_beam(bridges *br, sinew_world_id w, const char *what)
{
	sinew_body_id beam = br->bodies[0];
	add_bridge(br, w, 0.0f, 0.0f, 40, beam, beam, 5);
	watched r = run_bridges(w, br, 600);
	assert_held(what, &r, EXACT_LOOP_DEPTH);
	sinew_destroy_world(w);
}

/* The same bridge strung between the ends of a 21 m beam welded to the world 3 m above it: one tree
 * from the weld, which grows down both ends of the bridge at once and closes its loop between planks
 * 19 and 20, in the middle of the bridge, carrying its whole tension. That loop had no geometric
 * stiffness (only tree joints had, joint_tree.c), so the two light planks beside it were a stiff
 * explicit spring: the bridge tore by 15 cm and threw a crate at 87 m/s. Every joint within 1 cm, no
 * body faster than a crate can fall, the energy never above its start, the crates at rest at 10 s. */
static void taut_bridge_under_a_beam_holds(void **state)
{
	(void)state;
	sinew_world_id w = make_world(NULL);
	static bridges br;
	sinew_body_id beam = beam_over_bridge(&br, w);
	sinew_weld_joint_def wd = sinew_default_weld_joint_def();
	wd.base.body_b = beam;
	wd.anchor = sinew_v2(10.0f, 3.0f);
	br.js.ids[br.js.count++] = sinew_create_weld_joint(w, &wd);
	held_under_beam(&br, w, "taut bridge under a welded beam + 5 crates");
}

/* The same bridge and beam, but the beam hangs from ONE pin to the world at its centre, so the whole
 * frame (beam, bridge and the loop between the bridge's two branches) is free to rock. One tree from
 * the pin grows down both ends of the bridge and closes its loop in the middle. Every joint within
 * 1 cm, no body faster than a crate can fall, the energy never above its start, no crate above its
 * start, the crates at rest at 10 s. */
static void taut_bridge_under_a_rocking_beam_holds(void **state)
{
	(void)state;
	sinew_world_id w = make_world(NULL);
	static bridges br;
	sinew_body_id beam = beam_over_bridge(&br, w);
	pin(&br.js, w, sinew_null_body_id, beam, sinew_v2(10.0f, 3.0f));
	held_under_beam(&br, w, "taut bridge under a beam on one pin + 5 crates");
}

/* 34 taut bridges of 24 planks, 4 m apart, two crates on each: 68 loop rows (the middle pin of each
 * bridge, between its two trees), above the 64 solved with a factored matrix, so solved by
 * conjugate gradients (joint_loops.c). That path had neither the exact path's damped position step
 * nor its energy share, warm started its loop impulses and left the loop rows' position error to
 * the projection alone; preconditioned by each row's own effective mass it stopped on a speed
 * residual that, along a bridge pulled straight (S about 1e-6 of that mass there), left impulses
 * hundreds of N s off: the bridges tore by metres and threw crates at 400 m/s (the speed clamp).
 * Every joint within 1 cm, no body faster than a crate falls, the energy never above its start, the
 * crates at rest at 10 s. */
static void many_taut_bridges_hold(void **state)
{
	(void)state;
	sinew_world_id w = make_world(NULL);
	static bridges br;
	memset(&br, 0, sizeof br);
	for (int k = 0; k < 34; ++k) add_bridge(&br, w, 0.0f, -4.0f * (float)k, 24, sinew_null_body_id, sinew_null_body_id, 2);
	watched r = run_bridges(w, &br, 600);
	assert_held("34 taut bridges of 24 planks + 2 crates each", &r, ITERATIVE_LOOP_DEPTH);
	sinew_destroy_world(w);
}

/* Crank 1 m at the origin, ground link 4 m, rocker 3 m, coupler 4 m (a Grashof crank-rocker): the
 * crank's motor turns it round twice while every joint stays within 1 mm. */
static void four_bar_linkage_holds(void **state)
{
	(void)state;
	sinew_world_id w = make_world(NULL);
	sinew_world_enable_sleep(w, false);
	joints js = {0};
	sinew_vec2 o = {0.0f, 0.0f}, g = {4.0f, 0.0f}, a = {0.0f, 1.0f};
	/* the coupler's far end: 4 m from a and 3 m from g, above the ground */
	double dx = g.x - a.x, dy = g.y - a.y, d = sqrt(dx * dx + dy * dy);
	double along = (16.0 - 9.0 + d * d) / (2.0 * d), up = sqrt(16.0 - along * along);
	sinew_vec2 b = {(float)(a.x + (along * dx - up * dy) / d), (float)(a.y + (along * dy + up * dx) / d)};
	sinew_body_id crank = bar(w, o, a, 0.05f, 1.0f, 1), coupler = bar(w, a, b, 0.05f, 1.0f, 1), rocker = bar(w, g, b, 0.05f, 1.0f, 1);
	sinew_revolute_joint_def jd = sinew_default_revolute_joint_def();
	jd.base.body_b = crank;
	jd.anchor = o;
	jd.motor.enabled = true;
	jd.motor.speed = 2.0f;
	jd.motor.max_effort = 1000.0f;
	js.ids[js.count++] = sinew_create_revolute_joint(w, &jd);
	pin(&js, w, crank, coupler, a);
	pin(&js, w, coupler, rocker, b);
	pin(&js, w, sinew_null_body_id, rocker, g);
	double worst = 0.0, turned = 0.0;
	for (int s = 0; s < 400; ++s) {
		step_n(w, 1);
		worst = fmax(worst, worst_separation(&js));
		turned += sinew_body_get_angular_velocity(crank) / 60.0;
	}
	printf("four-bar linkage, motor 2 rad/s for 6.7 s (crank turned %.1f rad): worst separation %.6f m\n", turned, worst);
	assert_true(turned > 2.0 * SINEW_PI);
	assert_true(worst < 0.001);
	sinew_destroy_world(w);
}

/* Three levels of crossed 2 m bars pinned at their middles and ends; the bottom of one bar pinned to
 * the ground, the other to a slider that a prismatic motor pulls in, which lifts the stack. */
static void scissor_lift_holds(void **state)
{
	(void)state;
	sinew_world_id w = make_world(NULL);
	make_ground(w, -0.2f, 0.6f);
	joints js = {0};
	const float width = 1.6f, rise = 1.2f;
	sinew_body_id left_top = sinew_null_body_id, right_top = sinew_null_body_id;
	for (int k = 0; k < 3; ++k) {
		float y0 = rise * (float)k, y1 = rise * (float)(k + 1);
		sinew_body_id up = bar(w, sinew_v2(0.0f, y0), sinew_v2(width, y1), 0.04f, 5.0f, 1);
		sinew_body_id down = bar(w, sinew_v2(width, y0), sinew_v2(0.0f, y1), 0.04f, 5.0f, 1);
		pin(&js, w, up, down, sinew_v2(0.5f * width, 0.5f * (y0 + y1)));
		if (k > 0) {
			pin(&js, w, left_top, up, sinew_v2(0.0f, y0));
			pin(&js, w, right_top, down, sinew_v2(width, y0));
		} else {
			pin(&js, w, sinew_null_body_id, up, sinew_v2(0.0f, 0.0f));
			sinew_body_def bd = sinew_default_body_def();
			bd.type = SINEW_DYNAMIC_BODY;
			bd.position = sinew_v2(width, 0.0f);
			sinew_body_id slider = sinew_create_body(w, &bd);
			sinew_shape_def sd = sinew_default_shape_def();
			sd.group = 1;
			sd.density = 500.0f; /* a 10 kg carriage */
			sinew_polygon p = sinew_make_box(0.1f, 0.1f);
			sinew_create_polygon_shape(slider, &sd, &p);
			sinew_prismatic_joint_def pd = sinew_default_prismatic_joint_def();
			pd.base.body_b = slider;
			pd.anchor = sinew_v2(width, 0.0f);
			pd.axis = sinew_v2(1.0f, 0.0f);
			pd.motor.enabled = true;
			pd.motor.speed = -0.2f;
			pd.motor.max_effort = 5000.0f;
			pd.limit.enabled = true;
			pd.limit.lower = -0.8f;
			pd.limit.upper = 0.1f;
			sinew_create_prismatic_joint(w, &pd);
			pin(&js, w, slider, down, sinew_v2(width, 0.0f));
		}
		left_top = down;
		right_top = up;
	}
	double worst = 0.0;
	float top0 = sinew_body_get_position(left_top).y;
	for (int s = 0; s < 180; ++s) {
		step_n(w, 1);
		worst = fmax(worst, worst_separation(&js));
	}
	float lifted = sinew_body_get_position(left_top).y - top0;
	printf("scissor lift, motor 0.2 m/s for 3 s: top rose %.3f m, worst separation %.6f m\n", lifted, worst);
	assert_true(lifted > 0.3f);
	assert_true(worst < 0.001);
	sinew_destroy_world(w);
}

/* The benchmark's joint_grid (scenes/joint_grid.json: 100 x 100 circles on 19,800 revolute joints,
 * hanging from 7 static bodies; about 19,600 loop rows, far above the 64 solved with a factored
 * matrix, so solved by conjugate gradients through the tree): every joint within 1 cm at the end
 * of every one of its 500 steps (the target; the soft loop rows before this sagged 0.873 m).
 * Its golden hash is checked here too, at the end of the same 500 steps, and scripts/golden.sh
 * leaves it out of its check: the scene is the slowest of the goldens, and it ran twice. */
static void joint_grid_scene_holds(void **state)
{
	(void)state;
	sinew_scene *scene = must_load_scene_file("scenes/joint_grid.json");
	int count = sinew_scene_get_joint_count(scene), steps = sinew_scene_get_default_steps(scene);
#if defined(__SANITIZE_ADDRESS__)
	steps = 60; /* under the sanitizers (make test SAN=1) the worst steps only: the jolt is over by step 10 */
#endif
	assert_int_equal(count, 19800);
	double worst = 0.0, settled = 0.0; /* settled: from step 50 on, after the first steps' jolt */
	int worst_step = 0;
	for (int s = 0; s < steps; ++s) {
		assert_true(sinew_scene_step(scene));
		for (int k = 0; k < count; ++k) {
			double e = sinew_joint_get_linear_error(sinew_scene_get_joint(scene, k));
			if (!(e <= worst)) worst = e, worst_step = s; /* NaN is kept, and fails below */
			if (s >= 50) settled = fmax(settled, e);
		}
	}
	printf("joint_grid, %d steps: worst separation %.5f m (step %d), %.5f m from step 50 on\n", steps, worst, worst_step, settled);
	assert_true(worst < 0.01);
	if (steps == sinew_scene_get_default_steps(scene)) { /* what `sinew run scenes/joint_grid.json --hash` prints */
		char expected[32] = "", hash[32];
		FILE *f = fopen("tests/golden/joint_grid.hash", "r");
		assert_non_null(f);
		assert_non_null(fgets(expected, sizeof expected, f));
		fclose(f);
		expected[strcspn(expected, "\n")] = '\0';
		snprintf(hash, sizeof hash, "%016llx", (unsigned long long)sinew_world_get_hash(sinew_scene_get_world(scene)));
		printf("joint_grid: hash %s, golden %s\n", hash, expected);
		assert_string_equal(hash, expected);
	}
	sinew_scene_destroy(scene);
}

int main(int argc, char **argv)
{
	if (argc > 1) cmocka_set_test_filter(argv[1]); /* e.g. '*rocking*': one test while tracing */
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(taut_bridge_comes_to_rest),
		cmocka_unit_test(taut_bridge_holds_crates),
		cmocka_unit_test(taut_bridge_under_a_beam_holds),
		cmocka_unit_test(taut_bridge_under_a_rocking_beam_holds),
		cmocka_unit_test(many_taut_bridges_hold),
		cmocka_unit_test(four_bar_linkage_holds),
		cmocka_unit_test(scissor_lift_holds),
		cmocka_unit_test(joint_grid_scene_holds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
