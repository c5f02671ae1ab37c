/* Contact-rich scenes come to rest and fall asleep (issue 13). Each test prints the figures
 * docs/guide.md quotes. */
#include "support.h"

#include <sinew/scene.h>

#include <stdio.h>

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
	sinew_scene_destroy(scene);
}

/* The heap of ragdolls: scenes/ragdolls50.json with only its first 30 figures (h0..h29; the others
 * are destroyed before the first step), 330 capsule bones on 300 revolute joints with limits,
 * springs and joint friction, three rows deep. The whole heap falls asleep within 900 steps (15 s;
 * it sleeps after 442). Before the relax passes held
 * speculative points that were already pushing, a limb held off a contact by its joints read the
 * speed it was allowed to approach that contact at, 1-10 cm/s, and no figure ever slept. */
static void ragdoll_heap_falls_asleep(void **state)
{
	(void)state;
	sinew_scene *scene = must_load_scene_file("scenes/ragdolls50.json");
	sinew_world_id world = sinew_scene_get_world(scene);
	int n = sinew_scene_get_body_count(scene), figures = 0;
	for (int i = 0; i < n; ++i) {
		const char *name = sinew_scene_get_body_name(scene, i);
		int k = -1;
		if (name != NULL && sscanf(name, "h%d_", &k) == 1 && k >= 30) assert_true(sinew_destroy_body(sinew_scene_get_body(scene, i)));
		if (k == 0) figures += 1;
	}
	assert_int_equal(figures, 11); /* h0 has its 11 bones: the names are as expected */
	assert_int_equal(sinew_world_get_counters(world).body_count, 1 + 30 * 11);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(capsule_pile_falls_asleep),
		cmocka_unit_test(ragdoll_heap_falls_asleep),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
