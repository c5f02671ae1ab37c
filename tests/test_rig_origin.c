/* Large worlds with figures: one sinew_world_shift_origin moves the rig and ragdoll layers too (they
 * follow it as origin listeners), so a figure shifted in the middle of any motion (walking on
 * terrain, falling and landing, ragdolled and powered, standing up, with one limb physical) moves
 * on as its twin that was never shifted. Pixel worlds, as the rig's.
 *
 * Where the twins are: floats are finer near the origin, so a twin at the origin and one shifted
 * 655 m away round differently at every step, and a threshold the figure crosses (a foot finding
 * the stair's edge) can then fall a frame apart (0.4 px and 23 px/s measured that way). So both
 * twins are built around (BASE, BASE) = (393,216, 393,216) px and the shifts keep every coordinate
 * in [262,144, 524,288), where floats are 1/32 px apart in both: the shift is exact there and
 * rounding is the same in both twins, so the comparison can be tight. Without the listeners the
 * rig keeps its root at the old coordinates and reads the shift as 65,536 px of motion in a frame. */
#include "support.h"

#include "sinew/ragdoll.h"

#include <math.h>
#include <stdio.h>

#define DT (1.0f / 60.0f)
#define AFTER_FRAMES 120 /* compared for 2 s after the last shift */
#define MAX_BODIES 64
#define BASE 393216.0f   /* 3 * 2^17 px: the twins' scenes and shifts stay within [2^18, 2^19) */
/* Bounds on the difference to the twin never shifted: a float spacing there, and as small for angles
 * and velocities (measured: 0 in all but the ragdoll, 2.4e-7 rad and 2.4e-4 px/s in it) */
#define POSITION_BOUND (1.0f / 32.0f) /* px */
#define ANGLE_BOUND 1e-5f              /* radians */
#define VELOCITY_BOUND 0.01f           /* px/s */

typedef struct twin {
	sinew_world_id world;
	sinew_rig *rig;
	sinew_ragdoll *rd;
	sinew_vec2 shift; /* the sum of the shifts: a position here plus shift is where the twin has it */
} twin;


/* Ground with its top at y 0, a 40 px stair up from x 700 on, and a platform 500 px high left of x 0
 * that the falling figure walks off. */
static void block_at(sinew_vec2 base, sinew_world_id world, float x0, float x1, float top, float bottom)
{
	make_block(world, base.x + x0, base.x + x1, base.y + top, base.y + bottom);
}

static twin make_twin(sinew_vec2 base, sinew_vec2 root, error_recorder *rec)
{
	twin t = {0};
	t.shift = sinew_scale(-1.0f, base);
	sinew_world_def wd = sinew_default_world_def();
	wd.gravity = sinew_v2(0.0f, 980.0f);
	wd.length_units_per_meter = 100.0f;
	wd.error_fn = recorder_callback;
	wd.error_context = rec;
	t.world = sinew_create_world(&wd);
	block_at(base, t.world, -6000.0f, 6000.0f, 0.0f, 200.0f);
	block_at(base, t.world, 700.0f, 6000.0f, -40.0f, 0.0f);
	block_at(base, t.world, -6000.0f, 0.0f, -500.0f, 0.0f);
	sinew_rig_def rd = sinew_default_rig_def();
	rd.position = sinew_add(base, root);
	rd.name = "stick";
	t.rig = sinew_create_rig(t.world, &rd);
	assert_non_null(t.rig);
	sinew_ragdoll_def dd = sinew_default_ragdoll_def();
	t.rd = sinew_create_ragdoll(t.rig, &dd);
	assert_non_null(t.rd);
	assert_true(sinew_rig_set_terrain_following(t.rig, true));
	return t;
}

static void destroy_twin(twin *t)
{
	sinew_destroy_ragdoll(t->rd);
	sinew_destroy_rig(t->rig);
	sinew_destroy_world(t->world);
}

static void frame(twin *t)
{
	assert_true(sinew_ragdoll_update(t->rd, DT));
	assert_true(sinew_world_step(t->world, DT, 4));
}

typedef struct difference {
	float position; /* px: bodies, the root, the parts as shown */
	float angle;    /* radians */
	float velocity; /* px/s: the rig's momentum and the bodies' velocities */
} difference;

static float angle_apart(float a, float b)
{
	return fabsf(remainderf(a - b, 2.0f * SINEW_PI));
}

static void worse(float *worst, float value)
{
	if (!(value <= *worst)) *worst = value; /* a NaN counts as worst */
}

/* How far the shifted twin b is from a, everything measured from each one's own origin. */
static void compare(const twin *a, const twin *b, difference *d)
{
	assert_int_equal(sinew_ragdoll_get_state(a->rd), sinew_ragdoll_get_state(b->rd));
	assert_int_equal(sinew_rig_get_motion(a->rig), sinew_rig_get_motion(b->rig));
	sinew_transform ra = sinew_rig_get_root(a->rig), rb = sinew_rig_get_root(b->rig);
	worse(&d->position, sinew_distance(sinew_add(ra.p, a->shift), sinew_add(rb.p, b->shift)));
	worse(&d->angle, fabsf(sinew_relative_angle(ra.q, rb.q)));
	worse(&d->velocity, sinew_distance(sinew_rig_get_linear_velocity(a->rig), sinew_rig_get_linear_velocity(b->rig)));
	sinew_rig_part_state pa[SINEW_PART_COUNT], pb[SINEW_PART_COUNT];
	sinew_ragdoll_get_parts(a->rd, pa);
	sinew_ragdoll_get_parts(b->rd, pb);
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		worse(&d->position, sinew_distance(sinew_add(pa[p].center, a->shift), sinew_add(pb[p].center, b->shift)));
		worse(&d->angle, angle_apart(pa[p].angle, pb[p].angle));
	}
	/* every body: the rig's proxies, the ragdoll's bodies, a physical limb and its anchor */
	sinew_body_id ba[MAX_BODIES], bb[MAX_BODIES];
	int na = sinew_world_get_bodies(a->world, ba, MAX_BODIES), nb = sinew_world_get_bodies(b->world, bb, MAX_BODIES);
	assert_int_equal(na, nb);
	for (int i = 0; i < na; ++i) {
		worse(&d->position, sinew_distance(sinew_add(sinew_body_get_position(ba[i]), a->shift), sinew_add(sinew_body_get_position(bb[i]), b->shift)));
		worse(&d->angle, angle_apart(sinew_body_get_angle(ba[i]), sinew_body_get_angle(bb[i])));
		worse(&d->velocity, sinew_distance(sinew_body_get_linear_velocity(ba[i]), sinew_body_get_linear_velocity(bb[i])));
	}
}

/* What happens to both twins at a frame. */
typedef enum event_kind { EV_NONE, EV_WALK, EV_RAGDOLL, EV_STAND_UP, EV_POWER, EV_LIMB, EV_LIMB_BACK } event_kind;
typedef struct event {
	int frame;
	event_kind kind;
	float value;
} event;

/* When the second twin is shifted: `frames` frames after `motion` began (DISABLED: after the
 * start). */
typedef struct shift_at {
	sinew_rig_motion motion;
	int frames;
} shift_at;

enum { EVENTS = 4, SHIFTS = 2 };
typedef struct story {
	const char *name;
	sinew_vec2 start;
	event events[EVENTS];
	int shift_count;
	shift_at shifts[SHIFTS];
} story;

static void apply(twin *t, const event *e)
{
	switch (e->kind) {
	case EV_WALK: assert_true(sinew_rig_walk(t->rig, e->value)); break;
	case EV_RAGDOLL: assert_true(sinew_ragdoll_set_enabled(t->rd, true)); break;
	case EV_STAND_UP: assert_true(sinew_ragdoll_set_enabled(t->rd, false)); break;
	case EV_POWER: {
		assert_true(sinew_ragdoll_set_power(t->rd, SINEW_POWER_BRACED));
		sinew_ragdoll_root_pull pull = sinew_ragdoll_get_root_pull(t->rd);
		pull.enabled = true;
		assert_true(sinew_ragdoll_set_root_pull(t->rd, &pull));
		break;
	}
	case EV_LIMB: assert_true(sinew_ragdoll_set_limb_enabled(t->rd, SINEW_LIMB_RIGHT_ARM, true)); break;
	case EV_LIMB_BACK: assert_true(sinew_ragdoll_set_limb_enabled(t->rd, SINEW_LIMB_RIGHT_ARM, false)); break;
	case EV_NONE: break;
	}
}

/* Run the story on a twin never shifted and on one shifted by offsets[k] at its k-th shift; returns
 * the worst difference over the frames from the first shift until AFTER_FRAMES after the last. */
static difference run_story(const story *s, const sinew_vec2 offsets[SHIFTS])
{
	error_recorder rec_a = {0}, rec_b = {0};
	const sinew_vec2 base = sinew_v2(BASE, BASE);
	twin a = make_twin(base, s->start, &rec_a), b = make_twin(base, s->start, &rec_b);
	difference d = {0};
	int shifts = 0, since = 0, last_event = 0;
	for (int e = 0; e < EVENTS; ++e) last_event = s->events[e].frame > last_event ? s->events[e].frame : last_event;
	sinew_vec2 start_root = sinew_add(sinew_rig_get_root(a.rig).p, a.shift);
	for (int f = 0; f < 1000; ++f) {
		for (int e = 0; e < EVENTS; ++e) {
			if (s->events[e].kind == EV_NONE || s->events[e].frame != f) continue;
			apply(&a, &s->events[e]);
			apply(&b, &s->events[e]);
		}
		if (shifts < s->shift_count) {
			const shift_at *at = &s->shifts[shifts];
			if (at->motion == SINEW_MOTION_DISABLED || sinew_rig_get_motion(b.rig) == at->motion) since += 1;
			if (since > at->frames) {
				difference before = {0}, after = {0};
				compare(&a, &b, &before);
				assert_true(sinew_world_shift_origin(b.world, offsets[shifts]));
				b.shift = sinew_add(b.shift, offsets[shifts]);
				shifts += 1;
				since = 0;
				/* the shift alone moved every position with it, to the float spacing there, and
				 * changed no angle or velocity */
				compare(&a, &b, &after);
				float far = fabsf(b.shift.x) + fabsf(b.shift.y) + 5000.0f;
				assert_true(after.position <= before.position + (nextafterf(far, INFINITY) - far));
				assert_true(after.angle == before.angle && after.velocity == before.velocity);
			}
		} else {
			since += 1;
			if (since > AFTER_FRAMES && f > last_event) break;
		}
		frame(&a);
		frame(&b);
		if (shifts > 0) compare(&a, &b, &d);
	}
	assert_int_equal(shifts, s->shift_count);
	assert_true(since > AFTER_FRAMES);
	/* the figure did move (a story that stood still would compare little) */
	assert_true(sinew_distance(sinew_add(sinew_rig_get_root(a.rig).p, a.shift), start_root) > 100.0f);
	destroy_twin(&a);
	destroy_twin(&b);
	assert_int_equal(rec_a.count, 0);
	assert_int_equal(rec_b.count, 0);
	return d;
}

static void figures_follow_the_shift(void **state)
{
	(void)state;
	/* 655 m at 100 px/m, then a second shift: the figures are 4 km from the origin */
	const sinew_vec2 offsets[SHIFTS] = {{65536.0f, -65536.0f}, {-4096.0f, 8192.0f}};
	const story stories[] = {
		{"walking up a stair", {400.0f, -420.0f}, {{0, EV_WALK, 200.0f}}, 1, {{SINEW_MOTION_DISABLED, 40}}},
		{"airborne, then landing", {-300.0f, -920.0f}, {{0, EV_WALK, 300.0f}}, 2,
		 {{SINEW_MOTION_AIRBORNE, 5}, {SINEW_MOTION_LANDING_IMPACT, 1}}},
		{"ragdolled, powered, standing", {400.0f, -420.0f},
		 {{0, EV_WALK, 200.0f}, {30, EV_RAGDOLL, 0.0f}, {30, EV_POWER, 0.0f}, {110, EV_STAND_UP, 0.0f}}, 1,
		 {{SINEW_MOTION_DISABLED, 50}}},
		{"standing up", {400.0f, -420.0f},
		 {{0, EV_WALK, 200.0f}, {30, EV_RAGDOLL, 0.0f}, {100, EV_STAND_UP, 0.0f}}, 1, {{SINEW_MOTION_DISABLED, 130}}},
		{"walking with a physical arm", {400.0f, -420.0f},
		 {{0, EV_WALK, 200.0f}, {30, EV_LIMB, 0.0f}, {100, EV_LIMB_BACK, 0.0f}}, 1, {{SINEW_MOTION_DISABLED, 60}}},
	};
	for (size_t i = 0; i < sizeof stories / sizeof stories[0]; ++i) {
		difference d = run_story(&stories[i], offsets);
		print_message("%-30s %.3g px, %.3g rad, %.3g px/s from the twin never shifted\n", stories[i].name,
		              (double)d.position, (double)d.angle, (double)d.velocity);
		assert_true(d.position <= POSITION_BOUND);
		assert_true(d.angle <= ANGLE_BOUND);
		assert_true(d.velocity <= VELOCITY_BOUND);
	}
}

/* A scene's script keeps world points too (an impulse's point, a spawn's places): a scene shifted
 * before its script runs applies them where the file meant, as a twin never shifted does. */
static void scene_script_follows_the_shift(void **state)
{
	(void)state;
	char text[2048];
	snprintf(text, sizeof text,
	         "{\"sinew_scene\": 1, \"world\": {\"gravity\": [0, 0], \"steps\": 40},\n"
	         " \"bodies\": [{\"name\": \"crate\", \"position\": [%.1f, %.1f],\n"
	         "   \"shapes\": [{\"type\": \"box\", \"half_extents\": [0.5, 0.5]}]}],\n"
	         " \"templates\": [{\"name\": \"ball\", \"bodies\": [{\"name\": \"b\", \"position\": [0, 0],\n"
	         "   \"linear_velocity\": [-1, 0], \"shapes\": [{\"type\": \"circle\", \"radius\": 0.25}]}]}],\n"
	         " \"script\": [{\"step\": 10, \"op\": \"impulse\", \"body\": \"crate\", \"impulse\": [0, 2], \"point\": [%.1f, %.1f]},\n"
	         "   {\"step\": 12, \"op\": \"spawn\", \"template\": \"ball\", \"at\": [[%.1f, %.1f]]}]}\n",
	         (double)BASE, (double)BASE, (double)BASE + 0.5, (double)BASE, (double)BASE + 3.0, (double)BASE);
	sinew_scene *a = must_load_scene(text), *b = must_load_scene(text);
	const sinew_vec2 offset = {65536.0f, -65536.0f};
	for (int step = 0; step < 40; ++step) {
		if (step == 5) assert_true(sinew_world_shift_origin(sinew_scene_get_world(b), offset));
		assert_true(sinew_scene_step(a));
		assert_true(sinew_scene_step(b));
	}
	sinew_body_id ba[4], bb[4];
	int n = sinew_world_get_bodies(sinew_scene_get_world(a), ba, 4);
	assert_int_equal(n, 2); /* the crate and the spawned ball */
	assert_int_equal(sinew_world_get_bodies(sinew_scene_get_world(b), bb, 4), n);
	for (int i = 0; i < n; ++i) {
		sinew_vec2 pa = sinew_body_get_position(ba[i]), pb = sinew_add(sinew_body_get_position(bb[i]), offset);
		assert_float_near(pa.x, pb.x, 1.0f / 32.0f);
		assert_float_near(pa.y, pb.y, 1.0f / 32.0f);
		assert_float_near(sinew_body_get_angular_velocity(ba[i]), sinew_body_get_angular_velocity(bb[i]), 1e-6);
	}
	/* the impulse off the centre did turn the crate, and the ball went left from where it was put */
	assert_true(sinew_body_get_angular_velocity(ba[0]) > 1.0f);
	assert_true(sinew_body_get_position(ba[1]).x < BASE + 3.0f);
	sinew_scene_destroy(a);
	sinew_scene_destroy(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(figures_follow_the_shift),
		cmocka_unit_test(scene_script_follows_the_shift),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
