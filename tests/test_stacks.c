/* Stacks under load: how deep each contact sinks, how much a tall stack sags, and that the stack
 * is still at rest (no jitter) and falls asleep. Each test prints the figures docs/guide.md
 * quotes ("Contacts under load"). */
#include "support.h"

#include <math.h>

enum { STACK = 30 };

/* The deepest point of each of body's contacts, as a penetration (0 when not overlapping). */
static float deepest_penetration(sinew_body_id body)
{
	sinew_body_contact contacts[8];
	int n = sinew_body_get_contacts(body, contacts, 8);
	float worst = 0.0f;
	for (int j = 0; j < n; ++j) worst = sinew_maxf(worst, -contacts[j].separation);
	return worst;
}

static sinew_world_id stack_world(bool sleep, sinew_body_id boxes[STACK])
{
	sinew_world_id world = make_world(NULL);
	sinew_world_enable_sleep(world, sleep);
	make_ground(world, 0.0f, 0.6f);
	for (int i = 0; i < STACK; ++i) boxes[i] = make_box(world, 0.0f, 0.5f + (float)i, 0.5f, 0.5f, 1.0f, 0.6f);
	return world;
}

/* 30 boxes of 1 m (1 kg each) on the ground, sleep off, 6 s: after the first second no contact
 * is ever more than 2 mm deep, and the top box sags less than 3 cm below where touching boxes
 * would put it (30 contacts at 1 mm each). */
static void stack30_penetration_and_sag(void **state)
{
	(void)state;
	sinew_body_id boxes[STACK];
	sinew_world_id world = stack_world(false, boxes);
	step_n(world, 60);
	float worst = 0.0f, worst_sag = 0.0f;
	for (int s = 0; s < 300; ++s) {
		step_n(world, 1);
		for (int i = 0; i < STACK; ++i) worst = sinew_maxf(worst, deepest_penetration(boxes[i]));
		float top = sinew_body_get_position(boxes[STACK - 1]).y;
		worst_sag = sinew_maxf(worst_sag, (0.5f + (float)(STACK - 1)) - top);
	}
	sinew_vec2 top = sinew_body_get_position(boxes[STACK - 1]);
	print_message("stack30: deepest contact %.5f m, sag %.5f m (worst %.5f m), top x %.5f m\n", (double)worst,
	              (double)((0.5f + (float)(STACK - 1)) - top.y), (double)worst_sag, (double)top.x);
	assert_true(worst < 0.002f);
	assert_true(worst_sag < 0.03f);
	assert_float_near(top.x, 0.0f, 0.01f);
	sinew_destroy_world(world);
}

/* At rest means at rest: sleep off, over seconds 3 to 6 the top box of the 30-stack never moves
 * faster than 1 cm/s; with sleep on, the whole stack falls asleep within 6 s. */
static void stack30_rests_and_sleeps(void **state)
{
	(void)state;
	sinew_body_id boxes[STACK];
	sinew_world_id world = stack_world(false, boxes);
	step_n(world, 180);
	float fastest = 0.0f;
	for (int s = 0; s < 180; ++s) {
		step_n(world, 1);
		fastest = sinew_maxf(fastest, sinew_length(sinew_body_get_linear_velocity(boxes[STACK - 1])));
	}
	print_message("stack30: top box fastest over 3-6 s %.6f m/s\n", (double)fastest);
	assert_true(fastest < 0.01f);
	sinew_destroy_world(world);

	world = stack_world(true, boxes);
	int asleep_at = -1;
	for (int s = 0; s < 360 && asleep_at < 0; ++s) {
		step_n(world, 1);
		if (!sinew_body_is_awake(boxes[STACK - 1]) && !sinew_body_is_awake(boxes[0])) asleep_at = s + 1;
	}
	print_message("stack30: asleep after %d steps\n", asleep_at);
	assert_true(asleep_at > 0);
	sinew_destroy_world(world);
}

/* A 200 kg box of 1 m resting on a 0.5 kg one on the ground, sleep off. */
static sinew_world_id heavy_on_light_world(sinew_body_id *light, sinew_body_id *heavy)
{
	sinew_world_id world = make_world(NULL);
	sinew_world_enable_sleep(world, false);
	make_ground(world, 0.0f, 0.6f);
	*light = make_box(world, 0.0f, 0.5f, 0.5f, 0.5f, 0.5f, 0.6f);
	*heavy = make_box(world, 0.0f, 1.5f, 0.5f, 0.5f, 200.0f, 0.6f);
	return world;
}

/* A 200 kg box resting on a 0.5 kg box (400:1), both 1 m, sleep off, 5 s: each contact (light box
 * on the ground, heavy box on the light one) is never more than 2 mm deep after the first second,
 * the heavy box rests still, and the light box is not squeezed out sideways. */
static void heavy_on_light(void **state)
{
	(void)state;
	sinew_body_id light, heavy;
	sinew_world_id world = heavy_on_light_world(&light, &heavy);
	assert_float_near(sinew_body_get_mass(heavy) / sinew_body_get_mass(light), 400.0f, 0.01f);
	step_n(world, 60);
	float ground_depth = 0.0f, box_depth = 0.0f, fastest = 0.0f;
	for (int s = 0; s < 240; ++s) {
		step_n(world, 1);
		sinew_body_contact contacts[4];
		int n = sinew_body_get_contacts(light, contacts, 4);
		assert_int_equal(n, 2);
		for (int j = 0; j < n; ++j) {
			float depth = sinew_maxf(-contacts[j].separation, 0.0f);
			if (SINEW_ID_EQUALS(contacts[j].other_body, heavy)) box_depth = sinew_maxf(box_depth, depth);
			else ground_depth = sinew_maxf(ground_depth, depth);
		}
		if (s >= 120) fastest = sinew_maxf(fastest, sinew_length(sinew_body_get_linear_velocity(heavy)));
	}
	sinew_vec2 pl = sinew_body_get_position(light), ph = sinew_body_get_position(heavy);
	print_message("200 kg on 0.5 kg: light on ground %.5f m, heavy on light %.5f m, heavy at y %.5f, fastest over 3-5 s %.6f m/s\n",
	              (double)ground_depth, (double)box_depth, (double)ph.y, (double)fastest);
	assert_true(ground_depth < 0.002f);
	assert_true(box_depth < 0.002f);
	assert_true(fastest < 0.01f);
	assert_float_near(pl.x, 0.0f, 0.01f);
	assert_float_near(ph.x, 0.0f, 0.01f);
	assert_float_near(ph.y, 1.5f, 0.004f);
	sinew_destroy_world(world);
}

/* Taking the load off: the 200 kg box rests on the 0.5 kg one for 2 s, then is destroyed. Within
 * 2 s the light box is back on the ground (its lift given back, not hovering a lift above it: the
 * ground contact carried 2.8 cm of lift) and at rest. */
static void unloaded_box_settles(void **state)
{
	(void)state;
	sinew_body_id light, heavy;
	sinew_world_id world = heavy_on_light_world(&light, &heavy);
	step_n(world, 120);
	sinew_destroy_body(heavy);
	float highest = 0.0f;
	step_n(world, 60);
	for (int s = 0; s < 60; ++s) {
		step_n(world, 1);
		highest = sinew_maxf(highest, sinew_body_get_position(light).y);
	}
	float speed = sinew_length(sinew_body_get_linear_velocity(light));
	print_message("unloaded 0.5 kg box: highest over 1-2 s %.5f m (resting 0.5), speed %.6f m/s\n", (double)highest,
	              (double)speed);
	assert_true(highest < 0.5f + 0.002f);
	assert_true(speed < 0.01f);
	sinew_destroy_world(world);
}

/* A free body on a joint tree: a shelf of four planks (0.5 x 0.1 m, 2 kg each) welded end to end to a
 * wall at x = 0, with a 40 kg crate (20 times a plank) dropped on it from 20 cm above. The shelf holds
 * the crate only through its welds; the crate's contact pushes the shelf through the tree
 * (solver/contact_tree.c). Before, the crate sat 3.4 cm deep in the plank. Sleep off, 5 s: over the
 * last 2 s the crate's loaded contact is under 2 mm deep and the crate under 1 cm/s; it never rises
 * above where it first rests, and the welds stay within 1 mm. */
static void crate_on_jointed_shelf(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	sinew_world_enable_sleep(world, false);
	sinew_joint_id welds[4];
	sinew_body_id prev = sinew_null_body_id;
	for (int i = 0; i < 4; ++i) {
		sinew_body_id plank = make_box(world, 0.25f + 0.5f * (float)i, 0.0f, 0.25f, 0.05f, 40.0f, 0.6f);
		sinew_weld_joint_def wd = sinew_default_weld_joint_def();
		wd.base.body_a = prev;
		wd.base.body_b = plank;
		wd.anchor = sinew_v2(0.5f * (float)i, 0.0f);
		welds[i] = sinew_create_weld_joint(world, &wd);
		prev = plank;
	}
	sinew_body_id crate = make_box(world, 1.6f, 0.5f, 0.25f, 0.25f, 160.0f, 0.6f);
	float deepest = 0.0f, fastest = 0.0f, highest = -1e9f, rest = 0.0f;
	double separation = 0.0;
	for (int s = 0; s < 300; ++s) {
		step_n(world, 1);
		for (int k = 0; k < 4; ++k) separation = fmax(separation, sinew_joint_get_linear_error(welds[k]));
		float y = sinew_body_get_position(crate).y;
		if (s == 60) rest = y;
		if (s > 60) highest = sinew_maxf(highest, y);
		if (s >= 180) {
			deepest = sinew_maxf(deepest, deepest_penetration(crate));
			fastest = sinew_maxf(fastest, sinew_length(sinew_body_get_linear_velocity(crate)));
		}
	}
	print_message("crate 40 kg on a welded 4-plank shelf: deepest contact over 3-5 s %.5f m, crate fastest %.6f m/s, "
	              "highest %.5f m above its rest at 1 s, worst weld separation %.6f m\n",
	              (double)deepest, (double)fastest, (double)(highest - rest), separation);
	assert_true(deepest < 0.002f);
	assert_true(fastest < 0.01f);
	assert_true(highest - rest < 0.001f);
	assert_true(separation < 0.001);
	sinew_destroy_world(world);
}

/* More contacts on one body than the contact solver has colours (24, solver/contact_wide.c): 40
 * boxes of 1 m on a 60 m dynamic plank on the ground, 41 contacts on the plank, so 17 of them are
 * solved one by one in the overflow list and the rest eight lanes at a time. Sleep off; over
 * seconds 1 to 4 no contact of the plank is more than 2 mm deep, every box rests within 2 mm of
 * its height on the plank, and over the last second none moves faster than 1 cm/s. A box whose
 * contact the solver dropped would fall through the plank. */
static void plank_overflows_the_colours(void **state)
{
	(void)state;
	enum { BOXES = 40 };
	sinew_world_id world = make_world(NULL);
	sinew_world_enable_sleep(world, false);
	make_ground(world, 0.0f, 0.6f);
	sinew_body_id plank = make_box(world, 0.0f, 0.25f, 30.0f, 0.25f, 1.0f, 0.6f), boxes[BOXES];
	for (int i = 0; i < BOXES; ++i) boxes[i] = make_box(world, -29.5f + 1.2f * (float)i, 1.0f, 0.5f, 0.5f, 1.0f, 0.6f);
	step_n(world, 60);
	float worst = 0.0f, worst_height = 0.0f, fastest = 0.0f;
	int most = 0;
	for (int s = 0; s < 180; ++s) {
		step_n(world, 1);
		sinew_body_contact contacts[64];
		int n = sinew_body_get_contacts(plank, contacts, 64);
		most = n > most ? n : most;
		for (int j = 0; j < n; ++j) worst = sinew_maxf(worst, -contacts[j].separation);
		for (int i = 0; i < BOXES; ++i) {
			worst_height = sinew_maxf(worst_height, fabsf(sinew_body_get_position(boxes[i]).y - 1.0f));
			if (s >= 120) fastest = sinew_maxf(fastest, sinew_length(sinew_body_get_linear_velocity(boxes[i])));
		}
	}
	print_message("plank under 40 boxes: %d contacts, deepest %.5f m, worst box height error %.5f m, fastest over 3-4 s %.6f m/s\n",
	              most, (double)worst, (double)worst_height, (double)fastest);
	assert_int_equal(most, BOXES + 1);
	assert_true(worst < 0.002f);
	assert_true(worst_height < 0.002f);
	assert_true(fastest < 0.01f);
	sinew_destroy_world(world);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stack30_penetration_and_sag),
		cmocka_unit_test(stack30_rests_and_sleeps),
		cmocka_unit_test(heavy_on_light),
		cmocka_unit_test(unloaded_box_settles),
		cmocka_unit_test(crate_on_jointed_shelf),
		cmocka_unit_test(plank_overflows_the_colours),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
