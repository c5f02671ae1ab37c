/* The rig and props (rig.h): props bounce off the proxies of the head, an arm, a leg and the
 * torso; a walking rig shoves a resting prop; disabled proxies let props through; the collided
 * and separated events (once per contact episode); hit reactions (direction, size, cap, decay
 * times, the secondary joint). Pixel world: 100 length units per metre, y down, gravity 980. The
 * rig stands with its hips at (0, -385) and its feet on the ground at y = 15. */
#include "support.h"

#include "sinew/rig.h"

#include <math.h>
#include <string.h>

#define DT (1.0f / 60.0f)
#define HIPS_Y (-385.0f)
#define GROUND_Y 15.0f

static error_recorder s_rec;

/* What the rig's callbacks saw. */
typedef struct events {
	int collided, separated;
	sinew_rig_part last_part;
	sinew_body_id last_body;
	sinew_vec2 last_normal;
	float last_speed;
} events;

static void on_collided(sinew_rig *rig, sinew_rig_part part, sinew_body_id other, sinew_vec2 normal, sinew_vec2 point,
                        float speed, void *context)
{
	(void)rig;
	(void)point;
	events *e = context;
	e->collided += 1;
	e->last_part = part;
	e->last_body = other;
	e->last_normal = normal;
	e->last_speed = speed;
}

static void on_separated(sinew_rig *rig, sinew_body_id other, void *context)
{
	(void)rig;
	(void)other;
	events *e = context;
	e->separated += 1;
}

typedef struct stage {
	sinew_world_id world;
	sinew_rig *rig;
	events seen;
} stage;

static void stage_make(stage *s, sinew_rig_facing facing)
{
	memset(s, 0, sizeof *s);
	sinew_world_def wd = sinew_default_world_def();
	wd.gravity = sinew_v2(0.0f, 980.0f);
	wd.length_units_per_meter = 100.0f;
	wd.error_fn = recorder_callback;
	wd.error_context = &s_rec;
	s->world = sinew_create_world(&wd);
	sinew_body_def bd = sinew_default_body_def();
	bd.position = sinew_v2(0.0f, GROUND_Y + 50.0f);
	sinew_body_id ground = sinew_create_body(s->world, &bd);
	sinew_polygon box = sinew_make_box(3000.0f, 50.0f);
	sinew_shape_def sd = sinew_default_shape_def();
	sinew_create_polygon_shape(ground, &sd, &box);
	sinew_rig_def rd = sinew_default_rig_def();
	rd.position = sinew_v2(0.0f, HIPS_Y);
	rd.facing = facing;
	s->rig = sinew_create_rig(s->world, &rd);
	assert_non_null(s->rig);
	sinew_rig_callbacks cb = {on_collided, on_separated, NULL, &s->seen};
	sinew_rig_set_callbacks(s->rig, &cb);
}

static void stage_free(stage *s)
{
	sinew_destroy_rig(s->rig);
	sinew_destroy_world(s->world);
}

static void frame(stage *s)
{
	assert_true(sinew_rig_update(s->rig, DT));
	sinew_world_step(s->world, DT, 4);
}

static sinew_body_id ball(stage *s, sinew_vec2 at, sinew_vec2 velocity, float radius, float restitution)
{
	sinew_body_id b = make_ball(s->world, at.x, at.y, radius, restitution);
	sinew_body_set_linear_velocity(b, velocity);
	return b;
}

/* Distance from p to the segment a-b. */
static float segment_distance(sinew_vec2 p, sinew_vec2 a, sinew_vec2 b)
{
	sinew_vec2 ab = sinew_sub(b, a);
	float t = sinew_clampf(sinew_dot(sinew_sub(p, a), ab) / sinew_dot(ab, ab), 0.0f, 1.0f);
	return sinew_distance(p, sinew_mul_add(a, t, ab));
}

/* How close a ball's centre comes to a part's proxy surface over n frames (negative: inside), and
 * the ball's velocity at the end. */
static float closest_approach(stage *s, sinew_body_id b, sinew_rig_part part, int n)
{
	const sinew_rig_skeleton *sk = sinew_rig_get_skeleton(s->rig);
	float radius = sk->bones[part].proxy_radius, closest = 1e9f;
	for (int i = 0; i < n; ++i) {
		frame(s);
		sinew_rig_part_state ps = sinew_rig_get_part(s->rig, part);
		sinew_vec2 p = sinew_body_get_position(b);
		float d = part == SINEW_PART_HEAD ? sinew_distance(p, ps.center) : segment_distance(p, ps.origin, ps.tip);
		closest = fminf(closest, d - radius);
	}
	return closest;
}

static void prop_dropped_on_head_bounces(void **state)
{
	(void)state;
	stage s;
	stage_make(&s, SINEW_FACING_RIGHT);
	/* head centre at (0, -876.5), proxy radius 90; the ball lands a little off centre */
	sinew_body_id b = ball(&s, sinew_v2(20.0f, -1300.0f), sinew_v2(0.0f, 0.0f), 30.0f, 0.5f);
	float closest = closest_approach(&s, b, SINEW_PART_HEAD, 60);
	sinew_vec2 v = sinew_body_get_linear_velocity(b);
	print_message("head: closest %.2f px from the proxy (ball r 30), v after (%.0f, %.0f)\n", (double)closest,
	              (double)v.x, (double)v.y);
	assert_true(closest > 30.0f - 3.0f); /* the ball's surface never sinks 3 px into the head */
	assert_true(v.y < -100.0f);           /* it bounced up */
	assert_int_equal(s.seen.collided, 1);
	assert_int_equal(s.seen.last_part, SINEW_PART_HEAD);
	assert_true(SINEW_ID_EQUALS(s.seen.last_body, b));
	assert_true(s.seen.last_normal.y > 0.9f);    /* from the ball towards the rig: down (+y) */
	assert_true(s.seen.last_speed > 500.0f);      /* it fell 360 px: 840 px/s */
	/* it rolls off and bounces along the right arm, and off it */
	for (int i = 0; i < 260; ++i) frame(&s);
	print_message("head: the ball ends at (%.1f, %.1f)\n", (double)sinew_body_get_position(b).x, (double)sinew_body_get_position(b).y);
	assert_true(sinew_body_get_position(b).x > 368.0f + 30.0f); /* off the rig, beyond the hand */
	assert_true(sinew_body_get_position(b).y > -633.0f + 12.0f);  /* below the arm it bounced along */
	assert_int_equal(s.seen.separated, s.seen.collided);        /* every episode over */
	stage_free(&s);
}

/* A ball thrown along +x at height y: it reaches the part, comes back, never passes through. */
static void throw_at(sinew_rig_part part, float y, sinew_rig_part other_ok)
{
	stage s;
	stage_make(&s, SINEW_FACING_RIGHT);
	sinew_body_id b = ball(&s, sinew_v2(-600.0f, y), sinew_v2(1200.0f, 0.0f), 25.0f, 0.5f);
	sinew_body_set_gravity_scale(b, 0.0f); /* a straight line, so the aim is exact */
	float closest = closest_approach(&s, b, part, 45);
	sinew_vec2 v = sinew_body_get_linear_velocity(b);
	print_message("%s: closest %.2f px (ball r 25), v after (%.0f, %.0f)\n", sinew_rig_part_name(part), (double)closest,
	              (double)v.x, (double)v.y);
	assert_true(closest > 25.0f - 3.0f);
	assert_true(v.x < -100.0f); /* bounced back */
	assert_true(sinew_body_get_position(b).x < 0.0f);
	assert_int_equal(s.seen.collided, 1);
	assert_true(s.seen.last_part == part || s.seen.last_part == other_ok);
	assert_true(s.seen.last_normal.x > 0.9f);
	stage_free(&s);
}

static void props_thrown_bounce_off(void **state)
{
	(void)state;
	/* the left arm at y -633 (x -368..0), a leg at x 0 (y -385..15), the torso at x 0 (y -776.5..-385) */
	throw_at(SINEW_PART_LEFT_LOWER_ARM, -633.0f + 20.0f, SINEW_PART_LEFT_LOWER_ARM);
	throw_at(SINEW_PART_LEFT_LOWER_LEG, -100.0f, SINEW_PART_RIGHT_LOWER_LEG);
	throw_at(SINEW_PART_TORSO, -500.0f, SINEW_PART_TORSO);
}

static void walking_rig_shoves_a_prop(void **state)
{
	(void)state;
	stage s;
	stage_make(&s, SINEW_FACING_RIGHT);
	sinew_body_id box = make_box(s.world, 200.0f, GROUND_Y - 30.0f, 30.0f, 30.0f, 1.0f, 0.6f);
	for (int i = 0; i < 30; ++i) frame(&s); /* the box settles and stays put beside the standing rig */
	float rest_x = sinew_body_get_position(box).x;
	assert_float_near(rest_x, 200.0f, 0.5f);
	assert_int_equal(s.seen.collided, 0);
	/* the rig walks right at 200 px/s for 2 s: its legs reach the box after about 0.8 s */
	for (int i = 0; i < 120; ++i) {
		sinew_transform root = sinew_rig_get_root(s.rig);
		root.p.x += 200.0f * DT;
		sinew_rig_set_root(s.rig, root);
		frame(&s);
	}
	float pushed = sinew_body_get_position(box).x - rest_x;
	print_message("shove: the box moved %.1f px; the rig walked 400 px\n", (double)pushed);
	assert_true(pushed > 150.0f);
	assert_true(sinew_body_get_position(box).x > sinew_rig_get_root(s.rig).p.x + 14.0f + 29.0f); /* ahead of the legs */
	assert_int_equal(s.seen.collided, 1);
	stage_free(&s);
}

static void disabled_proxies_let_props_through(void **state)
{
	(void)state;
	stage s;
	stage_make(&s, SINEW_FACING_RIGHT);
	assert_true(sinew_rig_set_proxies_enabled(s.rig, false));
	assert_false(sinew_rig_get_proxies_enabled(s.rig));
	sinew_body_id b = ball(&s, sinew_v2(0.0f, -1300.0f), sinew_v2(0.0f, 0.0f), 30.0f, 0.0f);
	for (int i = 0; i < 120; ++i) frame(&s);
	/* straight through the head, the torso and the legs, onto the ground */
	assert_float_near(sinew_body_get_position(b).x, 0.0f, 1e-3f);
	assert_float_near(sinew_body_get_position(b).y, GROUND_Y - 30.0f, 2.0f);
	assert_int_equal(s.seen.collided, 0);
	/* the ragdoll state disables them too, and RECOVERING brings them back */
	assert_true(sinew_rig_set_proxies_enabled(s.rig, true));
	assert_true(sinew_rig_set_state(s.rig, SINEW_RIG_RAGDOLL));
	assert_false(sinew_rig_get_proxies_enabled(s.rig));
	assert_false(sinew_rig_is_visible(s.rig));
	/* the root moved while ragdolled (the ragdoll's re-anchoring): the proxies come back there */
	sinew_rig_set_root(s.rig, sinew_make_transform(sinew_v2(300.0f, HIPS_Y), 0.0f));
	assert_true(sinew_rig_set_state(s.rig, SINEW_RIG_RECOVERING));
	assert_true(sinew_rig_get_proxies_enabled(s.rig));
	assert_float_near(sinew_body_get_position(sinew_rig_get_proxy(s.rig, SINEW_PART_TORSO)).x, 300.0f, 1e-3f);
	sinew_rig_set_root(s.rig, sinew_make_transform(sinew_v2(0.0f, HIPS_Y), 0.0f));
	frame(&s);
	sinew_body_id c = ball(&s, sinew_v2(20.0f, -1300.0f), sinew_v2(0.0f, 0.0f), 30.0f, 0.0f);
	for (int i = 0; i < 60; ++i) frame(&s);
	assert_true(sinew_body_get_position(c).y < -950.0f); /* held on the head */
	stage_free(&s);
}

static void collided_once_per_episode(void **state)
{
	(void)state;
	stage s;
	stage_make(&s, SINEW_FACING_RIGHT);
	/* a box lands on the outstretched right forearm (y -633, x 168..368) and rests there */
	sinew_body_id box = make_box(s.world, 280.0f, -800.0f, 20.0f, 20.0f, 1.0f, 0.8f);
	for (int i = 0; i < 150; ++i) frame(&s);
	assert_true(sinew_body_get_position(box).y < -640.0f);
	assert_int_equal(s.seen.collided, 1);
	assert_int_equal(s.seen.separated, 0);
	assert_int_equal(s.seen.last_part, SINEW_PART_RIGHT_LOWER_ARM);
	/* lifted off: separated once; dropped again: a new episode */
	sinew_body_set_transform(box, sinew_v2(280.0f, -900.0f), 0.0f);
	sinew_body_set_linear_velocity(box, sinew_v2(0.0f, 0.0f));
	frame(&s);
	frame(&s);
	assert_int_equal(s.seen.separated, 1);
	for (int i = 0; i < 90; ++i) frame(&s);
	assert_int_equal(s.seen.collided, 2);
	assert_int_equal(s.seen.separated, 1);
	stage_free(&s);
}

static void reaction_direction_and_size(void **state)
{
	(void)state;
	for (int f = 0; f < 2; ++f) {
		stage s;
		stage_make(&s, f == 0 ? SINEW_FACING_RIGHT : SINEW_FACING_LEFT);
		frame(&s);
		sinew_vec2 rest = sinew_rig_get_part(s.rig, SINEW_PART_RIGHT_LOWER_ARM).tip;
		/* pushed down (a prop from above): the forearm's tip goes down, in the world, either facing */
		assert_true(sinew_rig_apply_reaction(s.rig, SINEW_PART_RIGHT_LOWER_ARM, sinew_v2(0.0f, 1.0f), 400.0f));
		assert_float_near(fabsf(sinew_rig_get_reaction(s.rig, SINEW_PART_RIGHT_LOWER_ARM)), 0.35f, 1e-6f);
		assert_float_near(fabsf(sinew_rig_get_reaction(s.rig, SINEW_PART_RIGHT_UPPER_ARM)), 0.4f * 0.35f, 1e-6f);
		frame(&s);
		sinew_vec2 hit = sinew_rig_get_part(s.rig, SINEW_PART_RIGHT_LOWER_ARM).tip;
		assert_true(hit.y > rest.y + 100.0f);
		/* the secondary (upper arm) moves the same way, less */
		float upper = sinew_rig_get_reaction(s.rig, SINEW_PART_RIGHT_UPPER_ARM);
		float lower = sinew_rig_get_reaction(s.rig, SINEW_PART_RIGHT_LOWER_ARM);
		assert_true(upper * lower > 0.0f && fabsf(upper) < fabsf(lower));
		/* pushed up: up. The stronger hit's angle is kept, so clear first. */
		sinew_rig_clear_reactions(s.rig);
		assert_true(sinew_rig_apply_reaction(s.rig, SINEW_PART_RIGHT_LOWER_ARM, sinew_v2(0.0f, -1.0f), 400.0f));
		frame(&s);
		assert_true(sinew_rig_get_part(s.rig, SINEW_PART_RIGHT_LOWER_ARM).tip.y < rest.y - 100.0f);
		/* a push along the bone (head-on): the right arm turns to its own side's default, not 0 */
		sinew_rig_clear_reactions(s.rig);
		sinew_vec2 along = sinew_rig_vector_to_world(s.rig, sinew_v2(-1.0f, 0.0f));
		assert_true(sinew_rig_apply_reaction(s.rig, SINEW_PART_RIGHT_LOWER_ARM, along, 400.0f));
		assert_float_near(fabsf(sinew_rig_get_reaction(s.rig, SINEW_PART_RIGHT_LOWER_ARM)), 0.35f, 1e-6f);
		/* size: in proportion to the speed, capped at 0.6 */
		float speeds[4] = {100.0f, 200.0f, 600.0f, 5000.0f}, sizes[4] = {0.0875f, 0.175f, 0.525f, 0.6f};
		for (int i = 0; i < 4; ++i) {
			sinew_rig_clear_reactions(s.rig);
			sinew_rig_apply_reaction(s.rig, SINEW_PART_HEAD, sinew_v2(1.0f, 0.0f), speeds[i]);
			assert_float_near(fabsf(sinew_rig_get_reaction(s.rig, SINEW_PART_HEAD)), sizes[i], 1e-6f);
		}
		/* the torso pushed back tilts the upper body; the feet stay where they were */
		sinew_rig_clear_reactions(s.rig);
		frame(&s);
		sinew_vec2 foot = sinew_rig_get_part(s.rig, SINEW_PART_LEFT_LOWER_LEG).tip;
		sinew_vec2 neck = sinew_rig_get_part(s.rig, SINEW_PART_TORSO).tip;
		sinew_rig_apply_reaction(s.rig, SINEW_PART_TORSO, sinew_v2(1.0f, 0.0f), 400.0f);
		frame(&s);
		assert_true(sinew_rig_get_part(s.rig, SINEW_PART_TORSO).tip.x > neck.x + 100.0f);
		assert_true(sinew_distance(sinew_rig_get_part(s.rig, SINEW_PART_LEFT_LOWER_LEG).tip, foot) < 1e-3f);
		/* the head pushed towards world +x turns its top towards +x (away from the push's origin) */
		sinew_rig_clear_reactions(s.rig);
		frame(&s);
		sinew_vec2 head_rest = sinew_rig_get_part(s.rig, SINEW_PART_HEAD).tip;
		sinew_rig_apply_reaction(s.rig, SINEW_PART_HEAD, sinew_v2(1.0f, 0.0f), 400.0f);
		frame(&s);
		assert_true(sinew_rig_get_part(s.rig, SINEW_PART_HEAD).tip.x > head_rest.x + 20.0f);
		stage_free(&s);
	}
}

/* Frames until a fresh reaction is gone: its first frame shows it whole, then it falls linearly. */
static int frames_to_zero(stage *s, sinew_rig_part part, sinew_rig_part watch)
{
	sinew_rig_clear_reactions(s->rig);
	sinew_rig_apply_reaction(s->rig, part, sinew_v2(1.0f, 0.0f), 400.0f);
	frame(s);
	float first = sinew_rig_get_reaction(s->rig, watch);
	assert_true(fabsf(first) > 0.0f);
	for (int k = 1; k < 100; ++k) {
		frame(s);
		float now = sinew_rig_get_reaction(s->rig, watch);
		if (now == 0.0f) return k;
		assert_true(fabsf(now) < fabsf(first)); /* it only falls */
	}
	return -1;
}

static void reaction_decay_times(void **state)
{
	(void)state;
	stage s;
	stage_make(&s, SINEW_FACING_RIGHT);
	frame(&s);
	/* head 0.5 s, torso 0.4, upper limbs 0.4, lower limbs 0.35, the secondary 0.25: at 60 Hz */
	assert_int_equal(frames_to_zero(&s, SINEW_PART_HEAD, SINEW_PART_HEAD), 30);
	assert_int_equal(frames_to_zero(&s, SINEW_PART_TORSO, SINEW_PART_TORSO), 24);
	assert_int_equal(frames_to_zero(&s, SINEW_PART_LEFT_UPPER_LEG, SINEW_PART_LEFT_UPPER_LEG), 24);
	assert_int_equal(frames_to_zero(&s, SINEW_PART_LEFT_LOWER_ARM, SINEW_PART_LEFT_LOWER_ARM), 21);
	assert_int_equal(frames_to_zero(&s, SINEW_PART_LEFT_LOWER_ARM, SINEW_PART_LEFT_UPPER_ARM), 15);
	/* linear in between: half way through the head's 0.5 s, half the angle */
	sinew_rig_clear_reactions(s.rig);
	sinew_rig_apply_reaction(s.rig, SINEW_PART_HEAD, sinew_v2(1.0f, 0.0f), 400.0f);
	for (int k = 0; k <= 15; ++k) frame(&s);
	assert_float_near(fabsf(sinew_rig_get_reaction(s.rig, SINEW_PART_HEAD)), 0.175f, 1e-4f);
	/* the pose itself is untouched: only the shown parts carry the offset */
	sinew_rig_pose pose;
	sinew_rig_get_pose(s.rig, &pose);
	sinew_rig_pose rest = sinew_rig_rest_pose(s.rig, pose.root, pose.facing);
	assert_float_near(pose.bones[SINEW_PART_HEAD], rest.bones[SINEW_PART_HEAD], 1e-6f);
	stage_free(&s);
}

static void repeated_hits_stay_under_cap(void **state)
{
	(void)state;
	stage s;
	stage_make(&s, SINEW_FACING_FORWARD);
	frame(&s);
	float rest = sinew_rig_get_part(s.rig, SINEW_PART_LEFT_LOWER_ARM).angle;
	float worst = 0.0f, worst_turn = 0.0f;
	for (int i = 0; i < 40; ++i) {
		sinew_rig_apply_reaction(s.rig, SINEW_PART_LEFT_LOWER_ARM, sinew_v2(0.0f, 1.0f), 1000.0f + 100.0f * (float)i);
		sinew_rig_apply_reaction(s.rig, SINEW_PART_LEFT_UPPER_ARM, sinew_v2(0.0f, 1.0f), 3000.0f);
		frame(&s);
		for (int p = 0; p < SINEW_PART_COUNT; ++p) worst = fmaxf(worst, fabsf(sinew_rig_get_reaction(s.rig, (sinew_rig_part)p)));
		float turn = sinew_rig_get_part(s.rig, SINEW_PART_LEFT_LOWER_ARM).angle - rest;
		worst_turn = fmaxf(worst_turn, fabsf(atan2f(sinf(turn), cosf(turn))));
	}
	print_message("repeated hits: largest offset %.4f rad, forearm turned %.4f rad\n", (double)worst, (double)worst_turn);
	assert_true(worst <= 0.6f + 1e-6f);
	assert_true(worst_turn <= 1.2f + 1e-4f); /* its own 0.6 plus the upper arm's 0.6 */
	/* no reactions outside ANIMATED, and none after they are switched off */
	sinew_rig_clear_reactions(s.rig);
	sinew_rig_set_state(s.rig, SINEW_RIG_RECOVERING);
	assert_false(sinew_rig_apply_reaction(s.rig, SINEW_PART_HEAD, sinew_v2(1.0f, 0.0f), 400.0f));
	assert_float_near(sinew_rig_get_reaction(s.rig, SINEW_PART_HEAD), 0.0f, 0.0f);
	sinew_rig_set_state(s.rig, SINEW_RIG_ANIMATED);
	sinew_rig_enable_reactions(s.rig, false);
	sinew_body_id b = ball(&s, sinew_v2(20.0f, -1300.0f), sinew_v2(0.0f, 0.0f), 30.0f, 0.5f);
	for (int i = 0; i < 60; ++i) frame(&s);
	assert_int_equal(s.seen.collided, 1); /* the event still fires */
	assert_float_near(sinew_rig_get_reaction(s.rig, SINEW_PART_HEAD), 0.0f, 0.0f);
	(void)b;
	stage_free(&s);
}

/* A prop's hit makes the part flinch by itself, away from the prop. */
static void contact_triggers_reaction(void **state)
{
	(void)state;
	stage s;
	stage_make(&s, SINEW_FACING_RIGHT);
	frame(&s);
	sinew_vec2 rest = sinew_rig_get_part(s.rig, SINEW_PART_HEAD).tip;
	sinew_body_id b = ball(&s, sinew_v2(-500.0f, -900.0f), sinew_v2(1000.0f, 0.0f), 25.0f, 0.3f);
	sinew_body_set_gravity_scale(b, 0.0f);
	float largest = 0.0f, pushed = 0.0f;
	for (int i = 0; i < 40; ++i) {
		frame(&s);
		largest = fmaxf(largest, fabsf(sinew_rig_get_reaction(s.rig, SINEW_PART_HEAD)));
		pushed = fmaxf(pushed, sinew_rig_get_part(s.rig, SINEW_PART_HEAD).tip.x - rest.x);
	}
	print_message("auto reaction: head offset %.3f rad (speed %.0f px/s), top moved %.1f px\n", (double)largest,
	              (double)s.seen.last_speed, (double)pushed);
	assert_int_equal(s.seen.collided, 1);
	assert_float_near(s.seen.last_speed, 1000.0f, 50.0f);
	assert_float_near(largest, 0.6f, 1e-6f); /* 0.35 * 1000 / 400 = 0.875, capped */
	assert_true(pushed > 50.0f);             /* the head turned away from the ball (towards +x) */
	stage_free(&s);
}

int main(void)
{
	recorder_install(&s_rec);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(prop_dropped_on_head_bounces),
		cmocka_unit_test(props_thrown_bounce_off),
		cmocka_unit_test(walking_rig_shoves_a_prop),
		cmocka_unit_test(disabled_proxies_let_props_through),
		cmocka_unit_test(collided_once_per_episode),
		cmocka_unit_test(reaction_direction_and_size),
		cmocka_unit_test(reaction_decay_times),
		cmocka_unit_test(repeated_hits_stay_under_cap),
		cmocka_unit_test(contact_triggers_reaction),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
