/* Contact-rich scenes come to rest and fall asleep (issue 13). Each test prints the figures
 * docs/guide.md quotes. */
#include "support.h"

#include <sinew/scene.h>

#include <stdio.h>
#include <stdlib.h>

static int compare_floats(const void *x, const void *y)
{
	float a = *(const float *)x, b = *(const float *)y;
	return (a > b) - (a < b);
}

/* scenes/bench/capsule_pile.json (2,000 capsules poured into a bin) falls asleep as a whole, as it
 * did before the contact position pass: every capsule asleep within 600 steps (10 s; the pile
 * settles and sleeps after about 480). With the pass's lifts left out of the contacts' reach and
 * letting down a body onto one of several supports, it never slept (1,999 of 2,001 bodies awake
 * after 1,000 steps). */
static void capsule_pile_falls_asleep(void **state)
{
	(void)state;
	sinew_scene *scene = must_load_scene_file("scenes/bench/capsule_pile.json");
	sinew_world_id world = sinew_scene_get_world(scene);
	int asleep_at = -1, awake = 0;
	for (int s = 0; s < 600 && asleep_at < 0; ++s) {
		assert_true(sinew_scene_step(scene));
		awake = sinew_world_get_counters(world).awake_body_count;
		if (awake == 0) asleep_at = s + 1;
	}
	print_message("capsule_pile: all asleep after %d steps (%d awake at the end)\n", asleep_at, awake);
	assert_int_equal(sinew_scene_get_error_count(scene), 0);
	assert_int_equal(awake, 0);
	assert_true(asleep_at > 0);
	/* No capsule hovers: the contacts that carry load (a normal impulse in the last step) are
	 * touching. Each body reports its own contacts, so a contact between two capsules counts
	 * twice. With the lifts of bodies on several supports kept (ddcef17) p99 was 7.4 cm, max 9.6. */
	int n = sinew_world_get_counters(world).body_count, loaded = 0;
	sinew_body_id *ids = malloc((size_t)n * sizeof *ids);
	float *gaps = malloc((size_t)n * 16 * sizeof *gaps);
	assert_non_null(ids);
	assert_non_null(gaps);
	assert_int_equal(sinew_world_get_bodies(world, ids, n), n);
	for (int i = 0; i < n; ++i) {
		sinew_body_contact contacts[16];
		int k = sinew_body_get_contacts(ids[i], contacts, 16);
		assert_true(k <= 16);
		for (int j = 0; j < k; ++j)
			if (contacts[j].normal_impulse > 0.0f) gaps[loaded++] = contacts[j].separation;
	}
	qsort(gaps, (size_t)loaded, sizeof *gaps, compare_floats);
	assert_true(loaded > n); /* a settled pile: most capsules rest on two or more others */
	float p50 = gaps[loaded / 2], p99 = gaps[loaded * 99 / 100], top = gaps[loaded - 1];
	print_message("capsule_pile: %d loaded contacts, gap p50 %.5f p99 %.5f max %.5f m\n", loaded, (double)p50,
	              (double)p99, (double)top);
	assert_true(p99 < 0.002f);
	assert_true(top < 0.005f);
	free(gaps);
	free(ids);
	sinew_scene_destroy(scene);
}

/* scenes/ragdolls50.json with only its first 30 figures (h0..h29; the others are destroyed before
 * the first step): 330 capsule bones on 300 revolute joints with limits, springs and joint
 * friction, three rows deep. */
static sinew_scene *load_heap_of_30(void)
{
	sinew_scene *scene = must_load_scene_file("scenes/ragdolls50.json");
	int n = sinew_scene_get_body_count(scene), figures = 0;
	for (int i = 0; i < n; ++i) {
		const char *name = sinew_scene_get_body_name(scene, i);
		int k = -1;
		if (name != NULL && sscanf(name, "h%d_", &k) == 1 && k >= 30) assert_true(sinew_destroy_body(sinew_scene_get_body(scene, i)));
		if (k == 0) figures += 1;
	}
	assert_int_equal(figures, 11); /* h0 has its 11 bones: the names are as expected */
	assert_int_equal(sinew_world_get_counters(sinew_scene_get_world(scene)).body_count, 1 + 30 * 11);
	return scene;
}

/* The heap of ragdolls (load_heap_of_30) falls asleep within 900 steps (15 s; it sleeps after
 * 182, after 442 before sinew_joint_tree_presolve). Before the relax passes held speculative points that were already pushing, a limb held off
 * a contact by its joints read the speed it was allowed to approach that contact at, 1-10 cm/s,
 * and no figure ever slept. */
static void ragdoll_heap_falls_asleep(void **state)
{
	(void)state;
	sinew_scene *scene = load_heap_of_30();
	sinew_world_id world = sinew_scene_get_world(scene);
	int n = sinew_scene_get_body_count(scene);
	int asleep_at = -1, awake = 0;
	float fastest[900] = {0}; /* each step's fastest bone */
	for (int s = 0; s < 900 && asleep_at < 0; ++s) {
		assert_true(sinew_scene_step(scene));
		for (int i = 0; i < n; ++i) {
			sinew_body_id b = sinew_scene_get_body(scene, i);
			if (sinew_body_is_valid(b)) fastest[s] = sinew_maxf(fastest[s], sinew_length(sinew_body_get_linear_velocity(b)));
		}
		awake = sinew_world_get_counters(world).awake_body_count;
		if (awake == 0) asleep_at = s + 1;
	}
	/* the last 0.5 s before it fell asleep (the time a body must rest to sleep): printed, not
	 * asserted under 1 cm/s, because with sleep off a figure keeps relaxing its pose against its
	 * joint springs at a few cm/s (a head touching nothing, docs/joints.md "Known limits") */
	float resting = 0.0f;
	for (int s = asleep_at - 31; s >= 0 && s < asleep_at - 1; ++s) resting = sinew_maxf(resting, fastest[s]);
	print_message("30-figure ragdoll heap: all asleep after %d steps (%d awake at the end), fastest bone over the "
	              "0.5 s before %.4f m/s\n",
	              asleep_at, awake, (double)resting);
	assert_int_equal(sinew_scene_get_error_count(scene), 0);
	assert_int_equal(awake, 0);
	assert_true(asleep_at > 31);
	sinew_scene_destroy(scene);
}

/* The fastest dynamic body of the world, m/s. */
static float fastest_body(sinew_world_id world)
{
	int n = sinew_world_get_counters(world).body_count;
	sinew_body_id *ids = malloc((size_t)n * sizeof *ids);
	assert_non_null(ids);
	assert_int_equal(sinew_world_get_bodies(world, ids, n), n);
	float fastest = 0.0f;
	for (int i = 0; i < n; ++i)
		if (sinew_body_get_type(ids[i]) == SINEW_DYNAMIC_BODY)
			fastest = sinew_maxf(fastest, sinew_length(sinew_body_get_linear_velocity(ids[i])));
	free(ids);
	return fastest;
}

/* Steps a scene with sleep off for 10 s, then one more second, and returns the fastest any dynamic
 * body moved during that second (read after every step). */
static float fastest_after_ten_seconds(sinew_scene *scene)
{
	sinew_world_id world = sinew_scene_get_world(scene);
	assert_true(sinew_world_enable_sleep(world, false));
	for (int s = 0; s < 600; ++s) assert_true(sinew_scene_step(scene));
	float fastest = 0.0f;
	for (int s = 0; s < 60; ++s) {
		assert_true(sinew_scene_step(scene));
		fastest = sinew_maxf(fastest, fastest_body(world));
	}
	return fastest;
}

/* The heap of 30 ragdolls comes to rest with sleep off: every bone under 1 cm/s at every step of
 * the second after 10 s. Before the trees were solved once more after the warm start (solver.c),
 * the first contact pass of each substep answered the speeds the contacts' warm start alone gave
 * the bones (tree impulses are not warm started), and the tree pass after it spread the friction
 * that answered them over the figure as a net push: whole figures slid at 1-4 cm/s for ever
 * (0.08 m/s at 11 s) and a lone figure on flat ground crept 1.8 mm/s. */
static void ragdoll_heap_comes_to_rest(void **state)
{
	(void)state;
	sinew_scene *scene = load_heap_of_30();
	float fastest = fastest_after_ten_seconds(scene);
	print_message("30-figure ragdoll heap, sleep off: fastest bone from 10 to 11 s %.4f m/s\n", (double)fastest);
	assert_int_equal(sinew_scene_get_error_count(scene), 0);
	assert_true(fastest < 0.01f);
	sinew_scene_destroy(scene);
}

/* A car parked on a 10 degree slope with its brakes on (both wheel motors at speed 0, at most
 * 10 N m), on 4 Hz suspension springs with travel limits: at rest with sleep off, every body under
 * 1 cm/s at every step of the second after 10 s, and it has not rolled away. */
static void parked_car_comes_to_rest(void **state)
{
	(void)state;
	sinew_scene *scene = must_load_scene(
	    "{\"sinew_scene\": 1, \"world\": {\"gravity\": [0, -10], \"hz\": 60, \"substeps\": 4},\n"
	    " \"bodies\": [\n"
	    "  {\"name\": \"slope\", \"type\": \"static\", \"angle\": 10,\n"
	    "   \"shapes\": [{\"type\": \"box\", \"half_extents\": [20, 0.5], \"friction\": 0.9}]},\n"
	    "  {\"name\": \"chassis\", \"position\": [-0.16, 1.6], \"angle\": 10,\n"
	    "   \"shapes\": [{\"type\": \"box\", \"half_extents\": [1.2, 0.25]}]},\n"
	    "  {\"name\": \"rear\", \"position\": [-0.8, 0.95], \"shapes\": [{\"type\": \"circle\", \"radius\": 0.4, \"friction\": 0.9}]},\n"
	    "  {\"name\": \"front\", \"position\": [0.78, 1.23], \"shapes\": [{\"type\": \"circle\", \"radius\": 0.4, \"friction\": 0.9}]}],\n"
	    " \"joints\": [\n"
	    "  {\"name\": \"rear_axle\", \"type\": \"wheel\", \"body_a\": \"chassis\", \"body_b\": \"rear\", \"anchor\": [-0.8, 0.95],\n"
	    "   \"axis\": [-0.1736, 0.9848], \"spring\": {\"hertz\": 4, \"damping_ratio\": 0.7},\n"
	    "   \"limit\": {\"lower\": -0.25, \"upper\": 0.25}, \"motor\": {\"speed\": 0, \"max_torque\": 10}},\n"
	    "  {\"name\": \"front_axle\", \"type\": \"wheel\", \"body_a\": \"chassis\", \"body_b\": \"front\", \"anchor\": [0.78, 1.23],\n"
	    "   \"axis\": [-0.1736, 0.9848], \"spring\": {\"hertz\": 4, \"damping_ratio\": 0.7},\n"
	    "   \"limit\": {\"lower\": -0.25, \"upper\": 0.25}, \"motor\": {\"speed\": 0, \"max_torque\": 10}}]}\n");
	sinew_body_id chassis = sinew_scene_find_body(scene, "chassis");
	sinew_vec2 start = sinew_body_get_position(chassis);
	float fastest = fastest_after_ten_seconds(scene);
	float moved = sinew_length(sinew_sub(sinew_body_get_position(chassis), start));
	print_message("car parked on a 10 degree slope, sleep off: fastest body from 10 to 11 s %.4f m/s, chassis moved %.3f m\n",
	              (double)fastest, (double)moved);
	assert_int_equal(sinew_scene_get_error_count(scene), 0);
	assert_true(moved < 0.3f); /* settled onto the slope and its springs, did not roll away */
	assert_true(fastest < 0.01f);
	sinew_scene_destroy(scene);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(capsule_pile_falls_asleep),
		cmocka_unit_test(ragdoll_heap_falls_asleep),
		cmocka_unit_test(ragdoll_heap_comes_to_rest),
		cmocka_unit_test(parked_car_comes_to_rest),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
