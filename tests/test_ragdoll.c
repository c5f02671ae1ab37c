/* The ragdoll (ragdoll.h, docs/ragdoll.md) through the public API, in the game's pixel world (100
 * px per metre, y down, gravity 980): the hand-off into the ragdoll (every part where the animated
 * part was, the rig's momentum in every body), the ragdoll's integrity over tumbles on flat
 * ground, a ramp and stairs in both joint models, and the recovery for every facing on flat ground,
 * a slope and a ramp edge (the first frame is the last ragdoll frame, the end is the pre-ragdoll
 * pose on the ground, no segment spins, backwards joints pass through straight), interrupted
 * recoveries, snap_to_standing and a hundred rapid toggles that leave nothing behind. Each rule of
 * docs/ragdoll.md that a wrong build would break has a case that fails that way: the probe skips
 * the ragdoll's own bodies, the drawing keeps the rig's look, the fold side follows overrides; the
 * first frame, the landing spot, the restored switches; shoulders the short way; elbows by minimal
 * world sweep. */
#include "support.h"

#include "sinew/ragdoll.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define DT (1.0f / 60.0f)
#define PI_F 3.14159265358979f
#define DEG (PI_F / 180.0f)
/** The rest stickman at (0, -385) stands with its feet (bone tips) at y = 15. */
#define FEET_Y 15.0f

typedef enum terrain_kind { FLAT, SLOPE, RAMP_EDGE, STAIRS } terrain_kind;

typedef struct fixture {
	sinew_world_id world;
	sinew_rig *rig;
	sinew_ragdoll *rd;
	error_recorder rec;
	int states[16];
	int state_count;
} fixture;

static void on_state(sinew_rig *rig, sinew_rig_state state, void *context)
{
	(void)rig;
	fixture *f = context;
	if (f->state_count < 16) f->states[f->state_count++] = (int)state;
}

static sinew_body_id static_box(sinew_world_id w, sinew_vec2 center, float hx, float hy, float angle)
{
	sinew_body_def bd = sinew_default_body_def();
	bd.position = center;
	bd.angle = angle;
	sinew_body_id b = sinew_create_body(w, &bd);
	sinew_shape_def sd = sinew_default_shape_def();
	sinew_polygon p = sinew_make_box(hx, hy);
	sinew_create_polygon_shape(b, &sd, &p);
	return b;
}

/* The terrain; returns the root height that stands the rest pose on it at x = 0. */
static float make_terrain(sinew_world_id w, terrain_kind kind)
{
	switch (kind) {
	case FLAT:
		static_box(w, sinew_v2(0.0f, FEET_Y + 50.0f), 4000.0f, 50.0f, 0.0f);
		return -385.0f;
	case SLOPE: {
		/* 15 degrees, going down to the right, its surface through (0, FEET_Y). */
		float a = 15.0f * DEG;
		sinew_vec2 c = sinew_v2(-50.0f * sinf(a), FEET_Y + 50.0f * cosf(a));
		static_box(w, c, 4000.0f, 50.0f, a);
		return -385.0f;
	}
	case RAMP_EDGE:
		/* A raised ramp top that ends at x = 60, 100 above the ground: the figure stands near its edge. */
		static_box(w, sinew_v2(0.0f, FEET_Y + 50.0f), 4000.0f, 50.0f, 0.0f);
		static_box(w, sinew_v2(-940.0f, FEET_Y - 50.0f), 1000.0f, 50.0f, 0.0f);
		return -485.0f;
	case STAIRS:
		static_box(w, sinew_v2(0.0f, FEET_Y + 50.0f), 4000.0f, 50.0f, 0.0f);
		for (int i = 0; i < 5; ++i) {
			/* Steps 60 high, 150 deep, down to the right from x = -100. */
			float top = FEET_Y - 60.0f * (5 - i);
			static_box(w, sinew_v2(-2000.0f + 150.0f * (float)i, top + 0.5f * (FEET_Y - top)), 1950.0f,
			           0.5f * (FEET_Y - top), 0.0f);
		}
		return -385.0f - 300.0f;
	}
	return -385.0f;
}

static void frame(fixture *f)
{
	assert_true(sinew_ragdoll_update(f->rd, DT));
	assert_true(sinew_world_step(f->world, DT, 4));
}

static void setup(fixture *f, terrain_kind terrain, sinew_rig_facing facing, sinew_ragdoll_joint_model model)
{
	memset(f, 0, sizeof *f);
	recorder_install(&f->rec);
	sinew_world_def wd = sinew_default_world_def();
	wd.gravity = sinew_v2(0.0f, 980.0f);
	wd.length_units_per_meter = 100.0f;
	wd.error_fn = recorder_callback;
	wd.error_context = &f->rec;
	f->world = sinew_create_world(&wd);
	float y = make_terrain(f->world, terrain);
	sinew_rig_def rd = sinew_default_rig_def();
	rd.position = sinew_v2(0.0f, y);
	rd.facing = facing;
	rd.name = "stickman";
	f->rig = sinew_create_rig(f->world, &rd);
	assert_non_null(f->rig);
	sinew_rig_callbacks cb = {0};
	cb.state_changed = on_state;
	cb.context = f;
	sinew_rig_set_callbacks(f->rig, &cb);
	sinew_ragdoll_def dd = sinew_default_ragdoll_def();
	dd.joint_model = model;
	f->rd = sinew_create_ragdoll(f->rig, &dd);
	assert_non_null(f->rd);
	frame(f);
}

static void teardown(fixture *f)
{
	sinew_destroy_ragdoll(f->rd);
	sinew_destroy_rig(f->rig);
	sinew_destroy_world(f->world);
	assert_int_equal(f->rec.count, 0);
}

/* A mid-walk pose: a foot forward and raised, the other back, the hands swinging (rig frame). */
static void walk_pose(fixture *f)
{
	sinew_rig_set_marker(f->rig, SINEW_MARKER_LEFT_FOOT, sinew_v2(90.0f, 370.0f));
	sinew_rig_set_marker(f->rig, SINEW_MARKER_RIGHT_FOOT, sinew_v2(-80.0f, 385.0f));
	sinew_rig_set_marker(f->rig, SINEW_MARKER_LEFT_HAND, sinew_v2(-200.0f, -60.0f));
	sinew_rig_set_marker(f->rig, SINEW_MARKER_RIGHT_HAND, sinew_v2(180.0f, -40.0f));
	frame(f);
}

static float wrapf_(float a)
{
	while (a > PI_F) a -= 2.0f * PI_F;
	while (a <= -PI_F) a += 2.0f * PI_F;
	return a;
}

static void rig_parts(const sinew_rig *rig, sinew_rig_part_state *parts)
{
	for (int p = 0; p < SINEW_PART_COUNT; ++p) parts[p] = sinew_rig_get_part(rig, p);
}

/* Largest centre distance and angle difference between two sets of parts. */
static void parts_error(const sinew_rig_part_state *a, const sinew_rig_part_state *b, sinew_vec2 shift, float *dp,
                        float *da)
{
	*dp = *da = 0.0f;
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		*dp = fmaxf(*dp, sinew_distance(a[p].center, sinew_add(b[p].center, shift)));
		*da = fmaxf(*da, fabsf(wrapf_(a[p].angle - b[p].angle)));
	}
}

static int count_bodies(sinew_world_id w)
{
	sinew_body_id ids[256];
	return sinew_world_get_bodies(w, ids, 256);
}

static int count_joints(sinew_world_id w)
{
	sinew_joint_id ids[256];
	return sinew_world_get_joints(w, ids, 256);
}

/* ---------------------------------------------------------------- entry */

static void entry_case(sinew_rig_facing facing, bool walk)
{
	fixture f;
	setup(&f, FLAT, facing, SINEW_RAGDOLL_LOCAL);
	if (walk) walk_pose(&f);
	int bodies0 = count_bodies(f.world), joints0 = count_joints(f.world);
	sinew_rig_part_state before[SINEW_PART_COUNT], after[SINEW_PART_COUNT];
	rig_parts(f.rig, before);

	assert_true(sinew_ragdoll_set_enabled(f.rd, true));
	assert_true(sinew_ragdoll_is_enabled(f.rd));
	assert_int_equal(count_bodies(f.world), bodies0 + 10);
	assert_int_equal(count_joints(f.world), joints0 + 9);
	assert_false(sinew_rig_is_visible(f.rig));
	assert_false(sinew_body_is_enabled(sinew_rig_get_proxy(f.rig, SINEW_PART_TORSO)));
	/* Each body is its part: centre and bone direction. */
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		sinew_body_id b = sinew_ragdoll_get_body(f.rd, p);
		assert_true(sinew_body_is_valid(b));
		assert_true(sinew_distance(sinew_body_get_world_center(b), before[p].center) < 0.5f);
		assert_true(fabsf(wrapf_(sinew_body_get_angle(b) - before[p].angle)) < 0.5f * DEG);
		sinew_joint_id j = sinew_ragdoll_get_joint(f.rd, p);
		if (p == SINEW_PART_TORSO) continue;
		assert_true(sinew_joint_get_type(j) == SINEW_REVOLUTE_JOINT);
		assert_true(sinew_joint_get_linear_error(j) < 0.01f);
		assert_true(sinew_joint_get_limit_violation(j) < 0.01f);
	}
	float dp, da;
	sinew_ragdoll_get_parts(f.rd, after);
	parts_error(after, before, sinew_v2(0.0f, 0.0f), &dp, &da);
	assert_true(dp < 0.5f && da < 0.5f * DEG);
	/* One step later the figure has only begun to fall: nothing burst apart. */
	frame(&f);
	sinew_ragdoll_get_parts(f.rd, after);
	parts_error(after, before, sinew_v2(0.0f, 0.0f), &dp, &da);
	assert_true(dp < 1.0f && da < 0.5f * DEG);
	assert_true(sinew_ragdoll_get_joint_separation_max(f.rd) < 0.5f);
	teardown(&f);
}

static void test_entry_right(void **state) { (void)state; entry_case(SINEW_FACING_RIGHT, false); }
static void test_entry_left(void **state) { (void)state; entry_case(SINEW_FACING_LEFT, false); }
static void test_entry_forward(void **state) { (void)state; entry_case(SINEW_FACING_FORWARD, false); }
static void test_entry_mid_walk(void **state)
{
	(void)state;
	entry_case(SINEW_FACING_RIGHT, true);
	entry_case(SINEW_FACING_LEFT, true);
	entry_case(SINEW_FACING_FORWARD, true);
}

/* Elbow and knee folds follow the live bend flags, mirrored for LEFT: a limb bent on its side at
 * entry can fold further, never past straight the other way. */
static void fold_side_case(bool overrides)
{
	const sinew_rig_facing facings[3] = {SINEW_FACING_RIGHT, SINEW_FACING_LEFT, SINEW_FACING_FORWARD};
	for (int k = 0; k < 3; ++k) {
		fixture f;
		setup(&f, FLAT, facings[k], SINEW_RAGDOLL_LOCAL);
		walk_pose(&f);
		for (int l = 0; l < SINEW_LIMB_COUNT && overrides; ++l)
			assert_true(sinew_rig_set_bend_flip(f.rig, l, !sinew_rig_profile_bend_flip(facings[k], l)));
		if (overrides) frame(&f);
		assert_true(sinew_ragdoll_set_enabled(f.rd, true));
		for (int l = 0; l < SINEW_LIMB_COUNT; ++l) {
			int lower = SINEW_PART_LEFT_UPPER_ARM + 2 * l + 1;
			sinew_joint_limit lim = sinew_joint_get_limit(sinew_ragdoll_get_joint(f.rd, lower));
			bool flip = sinew_rig_profile_bend_flip(facings[k], l) != overrides;
			assert_true(sinew_rig_get_bend_flip(f.rig, l) == flip);
			bool world_negative = flip != (facings[k] == SINEW_FACING_LEFT);
			assert_true(lim.enabled);
			if (world_negative) assert_true(lim.lower < -140.0f * DEG && lim.upper > 0.0f && lim.upper < 10.0f * DEG);
			else assert_true(lim.upper > 140.0f * DEG && lim.lower < 0.0f && lim.lower > -10.0f * DEG);
		}
		teardown(&f);
	}
}

static void test_fold_side(void **state)
{
	(void)state;
	fold_side_case(false);
}

/* docs/ragdoll.md, "Fold side": the fold side comes from the live bend flags, so a per-limb
 * override (the harness's right-click) turns it too, mirrored for LEFT, not from the facing's
 * profile. */
static void test_fold_side_follows_overrides(void **state)
{
	(void)state;
	fold_side_case(true);
}

/* What a debug draw was given: the capsules (the rig's look draws every stroke as one). */
typedef struct drawn {
	int count, other;
	sinew_vec2 p1[64], p2[64];
	float radius[64];
	sinew_color fill[64];
} drawn;

static void drawn_capsule(sinew_vec2 p1, sinew_vec2 p2, float radius, sinew_color fill, sinew_color outline, void *context)
{
	(void)outline;
	drawn *d = context;
	if (d->count < 64) {
		d->p1[d->count] = p1;
		d->p2[d->count] = p2;
		d->radius[d->count] = radius;
		d->fill[d->count] = fill;
	}
	d->count++;
}

/* A one-pixel head outline (the look's fallback without capsules) counts as something else. */
static void drawn_circle(sinew_vec2 c, float r, sinew_color color, void *context)
{
	(void)c, (void)r, (void)color;
	((drawn *)context)->other++;
}

static void draw_figure(const fixture *f, drawn *d)
{
	memset(d, 0, sizeof *d);
	sinew_debug_draw dd = sinew_default_debug_draw();
	dd.draw_solid_capsule = drawn_capsule;
	dd.draw_circle = drawn_circle;
	dd.context = d;
	sinew_ragdoll_draw(f->rd, &dd);
}

/* docs/ragdoll.md, "Reading it": the ragdoll is drawn with the stickman's own look (its strokes,
 * width and ink, the head a ring), not as its physics shapes: at the hand-off the drawing is the
 * same, stroke for stroke, within the hand-off's 0.5 px; the animated figure is hidden
 * meanwhile. */
static void test_ragdoll_draws_the_rigs_look(void **state)
{
	(void)state;
	const sinew_rig_facing facings[3] = {SINEW_FACING_RIGHT, SINEW_FACING_LEFT, SINEW_FACING_FORWARD};
	for (int k = 0; k < 3; ++k) {
		fixture f;
		setup(&f, FLAT, facings[k], SINEW_RAGDOLL_LOCAL);
		walk_pose(&f);
		drawn before, after;
		draw_figure(&f, &before);
		assert_true(before.count > SINEW_PART_COUNT && before.count <= 64 && before.other == 0);
		assert_true(sinew_ragdoll_set_enabled(f.rd, true));
		draw_figure(&f, &after);
		assert_int_equal(after.count, before.count);
		assert_int_equal(after.other, 0);
		for (int i = 0; i < before.count; ++i) {
			assert_float_near(after.radius[i], before.radius[i], 1e-6);
			assert_memory_equal(&after.fill[i], &before.fill[i], sizeof after.fill[i]);
			assert_true(sinew_distance(after.p1[i], before.p1[i]) < 0.5f);
			assert_true(sinew_distance(after.p2[i], before.p2[i]) < 0.5f);
		}
		/* the rig itself draws nothing while the ragdoll shows the figure */
		drawn hidden;
		memset(&hidden, 0, sizeof hidden);
		sinew_debug_draw dd = sinew_default_debug_draw();
		dd.draw_solid_capsule = drawn_capsule;
		dd.context = &hidden;
		sinew_rig_draw(f.rig, &dd);
		assert_int_equal(hidden.count, 0);
		teardown(&f);
	}
}

/* A rig moving and turning hands its rigid velocity to every body at that body's centre. */
static void test_momentum_handoff(void **state)
{
	(void)state;
	fixture f;
	setup(&f, FLAT, SINEW_FACING_RIGHT, SINEW_RAGDOLL_LOCAL);
	sinew_transform root = sinew_rig_get_root(f.rig);
	float angle = 0.0f;
	for (int i = 0; i < 10; ++i) {
		root.p.x += 5.0f; /* 300 px/s */
		angle += 0.01f;   /* 0.6 rad/s */
		root.q = sinew_make_rot(angle);
		sinew_rig_set_root(f.rig, root);
		frame(&f);
	}
	sinew_vec2 v = sinew_rig_get_linear_velocity(f.rig);
	float w = sinew_rig_get_angular_velocity(f.rig);
	assert_float_near(v.x, 300.0f, 0.5f);
	assert_float_near(w, 0.6f, 0.01f);
	sinew_vec2 origin = sinew_rig_get_root(f.rig).p;
	assert_true(sinew_ragdoll_set_enabled(f.rd, true));
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		sinew_body_id b = sinew_ragdoll_get_body(f.rd, p);
		sinew_vec2 r = sinew_sub(sinew_body_get_world_center(b), origin);
		sinew_vec2 expect = sinew_add(v, sinew_v2(-w * r.y, w * r.x));
		assert_true(sinew_distance(sinew_body_get_linear_velocity(b), expect) < 0.01f * sinew_length(expect) + 0.01f);
		assert_float_near(sinew_body_get_angular_velocity(b), w, 1e-4);
	}
	/* It keeps going the way it walked. */
	float x0 = sinew_body_get_position(sinew_ragdoll_get_body(f.rd, SINEW_PART_TORSO)).x;
	for (int i = 0; i < 20; ++i) frame(&f);
	assert_true(sinew_body_get_position(sinew_ragdoll_get_body(f.rd, SINEW_PART_TORSO)).x > x0 + 40.0f);
	teardown(&f);
}

/* ---------------------------------------------------------------- integrity */

typedef struct tumble_stats {
	float sep_max, hinge_over_max, speed_end;
	float drift_end;      /* how far any body moved over the last second, px */
	float sink_end;       /* flat ground: how deep the lowest point of any body lies in it at the end, px */
	float world_over_any; /* godot: the worst world-band overshoot in any frame, folds included */
	int folds;            /* godot: limbs that folded through their parent */
	bool prop_touched;
} tumble_stats;

/* Throw the ragdoll spinning and watch every frame: anchors, the hinge bands in the joint's own
 * frame (local: relative angle minus reference, elbows and knees; godot: every band on the swing of
 * the centre line from its spawn direction, in the world, support.c's world_band_watch), rest at
 * the end, and a prop dropped on it at the end. */
static tumble_stats tumble(terrain_kind terrain, sinew_ragdoll_joint_model model)
{
	fixture f;
	setup(&f, terrain, SINEW_FACING_RIGHT, model);
	assert_true(sinew_ragdoll_set_enabled(f.rd, true));
	sinew_vec2 c0 = sinew_body_get_world_center(sinew_ragdoll_get_body(f.rd, SINEW_PART_TORSO));
	float spin = 7.0f;
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		sinew_body_id b = sinew_ragdoll_get_body(f.rd, p);
		sinew_vec2 r = sinew_sub(sinew_body_get_world_center(b), c0);
		sinew_body_set_linear_velocity(b, sinew_add(sinew_v2(260.0f, -500.0f), sinew_v2(-spin * r.y, spin * r.x)));
		sinew_body_set_angular_velocity(b, spin);
		if (p == SINEW_PART_TORSO || model == SINEW_RAGDOLL_LOCAL) continue;
		/* the world bands are measured from the centre line's direction as built */
		sinew_joint_id j = sinew_ragdoll_get_joint(f.rd, p);
		sinew_vec2 d = sinew_sub(sinew_body_get_world_center(sinew_joint_get_body_b(j)),
		                         sinew_body_get_world_center(sinew_joint_get_body_a(j)));
		assert_float_near(sinew_joint_get_swing_reference(j), atan2f(d.y, d.x), 1e-5);
	}
	tumble_stats s = {0};
	world_band_watch watch = {0};
	sinew_vec2 settled[SINEW_PART_COUNT];
	for (int i = 0; i < 600; ++i) {
		frame(&f);
		for (int p = 0; p < SINEW_PART_COUNT && i == 539; ++p) settled[p] = sinew_body_get_world_center(sinew_ragdoll_get_body(f.rd, p));
		s.sep_max = fmaxf(s.sep_max, sinew_ragdoll_get_joint_separation_max(f.rd));
		if (model == SINEW_RAGDOLL_GODOT) {
			world_band_frame(&watch, f.rd);
			continue;
		}
		for (int p = SINEW_PART_LEFT_LOWER_ARM; p < SINEW_PART_COUNT; p += 2) {
			sinew_joint_id j = sinew_ragdoll_get_joint(f.rd, p);
			sinew_joint_limit lim = sinew_joint_get_limit(j);
			sinew_body_id a = sinew_joint_get_body_a(j), b = sinew_joint_get_body_b(j);
			float angle = wrapf_(sinew_body_get_angle(b) - sinew_body_get_angle(a) - sinew_joint_get_reference_angle(j));
			float over = fmaxf(lim.lower - angle, angle - lim.upper);
			s.hinge_over_max = fmaxf(s.hinge_over_max, over);
		}
	}
	if (model == SINEW_RAGDOLL_GODOT) {
		s.hinge_over_max = watch.over_max;
		s.world_over_any = watch.over_any;
		s.folds = watch.folds;
	}
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		sinew_body_id b = sinew_ragdoll_get_body(f.rd, p);
		s.speed_end = fmaxf(s.speed_end, sinew_length(sinew_body_get_linear_velocity(b)));
		s.drift_end = fmaxf(s.drift_end, sinew_distance(sinew_body_get_world_center(b), settled[p]));
		sinew_shape_id shape;
		if (terrain == FLAT && sinew_body_get_shapes(b, &shape, 1) == 1)
			s.sink_end = fmaxf(s.sink_end, sinew_shape_get_aabb(shape).upper.y - FEET_Y);
	}
	/* A prop dropped on the resting ragdoll lands on it and stays above the ground. */
	sinew_vec2 top = sinew_body_get_world_center(sinew_ragdoll_get_body(f.rd, SINEW_PART_TORSO));
	sinew_body_def bd = sinew_default_body_def();
	bd.type = SINEW_DYNAMIC_BODY;
	bd.position = sinew_v2(top.x, top.y - 400.0f);
	sinew_body_id prop = sinew_create_body(f.world, &bd);
	sinew_shape_def sd = sinew_default_shape_def();
	sd.density = 0.0005f;
	sinew_polygon box = sinew_make_box(30.0f, 30.0f);
	sinew_create_polygon_shape(prop, &sd, &box);
	for (int i = 0; i < 90 && !s.prop_touched; ++i) {
		frame(&f);
		sinew_body_contact contacts[8];
		int n = sinew_body_get_contacts(prop, contacts, 8);
		for (int k = 0; k < n && k < 8; ++k) {
			for (int p = 0; p < SINEW_PART_COUNT; ++p) {
				if (SINEW_ID_EQUALS(contacts[k].other_body, sinew_ragdoll_get_body(f.rd, p))) s.prop_touched = true;
			}
		}
	}
	teardown(&f);
	return s;
}

static void check_tumble(terrain_kind terrain, sinew_ragdoll_joint_model model, const char *name)
{
	tumble_stats s = tumble(terrain, model);
	printf("# tumble %s: joint_sep_max %.3f px, hinge overshoot %.3f deg, speed at 10 s %.2f px/s, moved %.3f px in "
	       "the last second, prop %s\n", name, (double)s.sep_max, (double)(s.hinge_over_max / DEG), (double)s.speed_end,
	       (double)s.drift_end, s.prop_touched ? "hit" : "missed");
	if (model == SINEW_RAGDOLL_GODOT) {
		printf("# tumble %s: %d folds through a parent, world-band overshoot right after them %.2f deg\n", name, s.folds,
		       (double)(s.world_over_any / DEG));
	}
	if (terrain == FLAT) printf("# tumble %s: at rest %.2f px deep in the ground\n", name, (double)s.sink_end);
	assert_true(s.sep_max < 2.0f);
	assert_true(s.hinge_over_max < 1.0f * DEG);
	/* At rest: nothing moves. The godot figure lies with a limb held against the ground by its world
	 * band, and the solver's last pass leaves that limb a speed it never travels (the band and the
	 * ground contact disagree within the substep): its rest is asserted by where it is. */
	if (model == SINEW_RAGDOLL_LOCAL) assert_true(s.speed_end < 5.0f);
	/* Lying on the ground, not in it: the local figure within the contact's slop. The godot figure's
	 * limb held down by its world band sinks further (docs/ragdoll.md): measured, not asserted. */
	if (model == SINEW_RAGDOLL_LOCAL) assert_true(s.sink_end < 2.0f);
	assert_true(s.drift_end < 5.0f); /* the same 5 px/s, on average over the last second */
	assert_true(s.prop_touched);
}

static void test_tumble_flat(void **state) { (void)state; check_tumble(FLAT, SINEW_RAGDOLL_LOCAL, "flat"); }
static void test_tumble_ramp(void **state) { (void)state; check_tumble(RAMP_EDGE, SINEW_RAGDOLL_LOCAL, "ramp"); }
static void test_tumble_stairs(void **state) { (void)state; check_tumble(STAIRS, SINEW_RAGDOLL_LOCAL, "stairs"); }
/* The godot model (docs/ragdoll.md, "Two joint models") over the same tumbles: the anchors hold and
 * so do the world bands (the semantics of the model: at every orientation the bands stay where they
 * were in the world). */
static void test_tumble_godot_flat(void **state) { (void)state; check_tumble(FLAT, SINEW_RAGDOLL_GODOT, "godot flat"); }
static void test_tumble_godot_ramp(void **state) { (void)state; check_tumble(RAMP_EDGE, SINEW_RAGDOLL_GODOT, "godot ramp"); }
static void test_tumble_godot_stairs(void **state) { (void)state; check_tumble(STAIRS, SINEW_RAGDOLL_GODOT, "godot stairs"); }
/* Turn the whole ragdoll rigidly by angle about its torso, as a tumble does. */
static void turn_ragdoll(fixture *f, float angle)
{
	sinew_vec2 c = sinew_body_get_world_center(sinew_ragdoll_get_body(f->rd, SINEW_PART_TORSO));
	sinew_rot q = sinew_make_rot(angle);
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		sinew_body_id b = sinew_ragdoll_get_body(f->rd, p);
		sinew_vec2 x = sinew_add(c, sinew_rotate(q, sinew_sub(sinew_body_get_position(b), c)));
		sinew_body_set_transform(b, x, sinew_body_get_angle(b) + angle);
	}
}

/* The two joint models' semantics (docs/ragdoll.md, "Two joint models"): turned as a whole, the
 * local model's limits turn with the figure (no joint is outside its band), the godot model's stay
 * in the world (a knee or elbow of a figure on its back is "outside" by as much as the turn exceeds
 * the band). */
static void test_joint_model_semantics(void **state)
{
	(void)state;
	for (int m = 0; m < 2; ++m) {
		fixture f;
		setup(&f, FLAT, SINEW_FACING_RIGHT, m ? SINEW_RAGDOLL_GODOT : SINEW_RAGDOLL_LOCAL);
		assert_true(sinew_ragdoll_set_enabled(f.rd, true));
		for (int p = 1; p < SINEW_PART_COUNT; ++p) {
			sinew_joint_type t = sinew_joint_get_type(sinew_ragdoll_get_joint(f.rd, p));
			assert_true(t == (m ? SINEW_PIN_JOINT : SINEW_REVOLUTE_JOINT));
		}
		turn_ragdoll(&f, -90.0f * DEG);
		float over = sinew_ragdoll_get_limit_overshoot_max(f.rd);
		if (m == 0) assert_true(over < 1e-3f);
		/* Godot: the knees' and elbows' bands end 5 degrees past straight on the side the turn goes. */
		else assert_float_near(over, 85.0f * DEG, 0.5f * DEG);
		teardown(&f);
	}
}

/* The godot model holds in the air, where nothing presses a limb against its world-frame band. */
static void test_godot_free_fall(void **state)
{
	(void)state;
	fixture f;
	setup(&f, FLAT, SINEW_FACING_RIGHT, SINEW_RAGDOLL_GODOT);
	walk_pose(&f);
	assert_true(sinew_ragdoll_set_enabled(f.rd, true));
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		sinew_body_id b = sinew_ragdoll_get_body(f.rd, p);
		sinew_body_set_linear_velocity(b, sinew_add(sinew_body_get_linear_velocity(b), sinew_v2(0.0f, -600.0f)));
	}
	float sep = 0.0f, over = 0.0f;
	for (int i = 0; i < 40; ++i) {
		frame(&f);
		sep = fmaxf(sep, sinew_ragdoll_get_joint_separation_max(f.rd));
		over = fmaxf(over, sinew_ragdoll_get_limit_overshoot_max(f.rd));
	}
	assert_true(sep < 2.0f && over < 1.0f * DEG);
	teardown(&f);
}

/* ---------------------------------------------------------------- recovery */

/* The terrain's first hit, skipping dynamic bodies (props). */
static float terrain_hit(const sinew_ray_hit *hit, void *context)
{
	if (sinew_body_get_type(hit->body) == SINEW_DYNAMIC_BODY) return -1.0f;
	*(sinew_ray_hit *)context = *hit;
	return hit->fraction;
}

/* The terrain under a world x (the highest surface below y_from), skipping the rig's proxies. */
static float ground_under(fixture *f, float x, float y_from)
{
	sinew_body_id proxies[SINEW_PART_COUNT];
	for (int p = 0; p < SINEW_PART_COUNT; ++p) proxies[p] = sinew_rig_get_proxy(f->rig, p);
	sinew_query_filter q = sinew_default_query_filter();
	q.exclude_bodies = proxies;
	q.exclude_body_count = SINEW_PART_COUNT;
	sinew_ray_hit h = {0};
	sinew_world_cast_ray(f->world, sinew_v2(x, y_from), sinew_v2(0.0f, 3000.0f), &q, terrain_hit, &h);
	assert_true(h.hit);
	return h.point.y;
}

/* Run the stand-up to its end watching every segment's world direction; returns the largest
 * sweep. On return the rig is ANIMATED and one update has solved the end pose. */
static float run_recovery_sweeps(fixture *f, float sweep[SINEW_PART_COUNT])
{
	sinew_rig_part_state prev[SINEW_PART_COUNT], now[SINEW_PART_COUNT];
	float sweep_max = 0.0f;
	for (int p = 0; p < SINEW_PART_COUNT; ++p) sweep[p] = 0.0f;
	sinew_ragdoll_get_parts(f->rd, prev);
	int frames = 0;
	while (sinew_ragdoll_get_state(f->rd) == SINEW_RIG_RECOVERING) {
		frame(f);
		sinew_ragdoll_get_parts(f->rd, now);
		for (int p = 0; p < SINEW_PART_COUNT; ++p) {
			sweep[p] += wrapf_(now[p].angle - prev[p].angle);
			sweep_max = fmaxf(sweep_max, fabsf(sweep[p]));
			prev[p] = now[p];
		}
		assert_true(++frames < 200);
	}
	assert_true(frames >= 115); /* 2.0 s */
	return sweep_max;
}

static float run_recovery(fixture *f)
{
	float sweep[SINEW_PART_COUNT];
	return run_recovery_sweeps(f, sweep);
}

/* The end: the pre-ragdoll pose, moved to the landing spot, with a foot on the ground and none in it. */
static void check_standing(fixture *f, const sinew_rig_part_state *pre_parts, sinew_vec2 pre_root)
{
	sinew_rig_part_state now[SINEW_PART_COUNT];
	sinew_ragdoll_get_parts(f->rd, now);
	float dp, da;
	parts_error(now, pre_parts, sinew_sub(sinew_rig_get_root(f->rig).p, pre_root), &dp, &da);
	assert_true(dp < 0.5f && da < 0.5f * DEG);
	float touch = INFINITY;
	for (int leg = SINEW_PART_LEFT_LOWER_LEG; leg <= SINEW_PART_RIGHT_LOWER_LEG; leg += 2) {
		sinew_vec2 foot = now[leg].tip;
		float g = ground_under(f, foot.x, foot.y - 150.0f);
		assert_true(foot.y <= g + 2.0f);
		touch = fminf(touch, fabsf(foot.y - g));
	}
	assert_true(touch <= 2.0f);
}

/* What a recovery may vary: the figure's own switches before the fall, and the probe. */
typedef struct recovery_options {
	bool overrides;     /* bend flags against the profile, an arm off IK, the head look-at off */
	bool probe_dynamic; /* the probe may stand the figure on dynamic bodies (not its own) */
} recovery_options;

static void recovery_case_with(sinew_rig_facing facing, terrain_kind terrain, bool walk, recovery_options o,
                               const char *name)
{
	fixture f;
	setup(&f, terrain, facing, SINEW_RAGDOLL_LOCAL);
	if (o.probe_dynamic) {
		sinew_destroy_ragdoll(f.rd);
		sinew_ragdoll_def dd = sinew_default_ragdoll_def();
		dd.probe_dynamic = true;
		f.rd = sinew_create_ragdoll(f.rig, &dd);
		assert_non_null(f.rd);
	}
	if (walk) walk_pose(&f);
	if (o.overrides) {
		assert_true(sinew_rig_set_bend_flip(f.rig, SINEW_LIMB_RIGHT_LEG, !sinew_rig_profile_bend_flip(facing, SINEW_LIMB_RIGHT_LEG)));
		assert_true(sinew_rig_set_bend_flip(f.rig, SINEW_LIMB_LEFT_ARM, !sinew_rig_profile_bend_flip(facing, SINEW_LIMB_LEFT_ARM)));
		assert_true(sinew_rig_set_limb_ik(f.rig, SINEW_LIMB_RIGHT_ARM, false));
		assert_true(sinew_rig_set_head_look(f.rig, false));
		frame(&f);
	}
	sinew_rig_pose pre_pose;
	assert_true(sinew_rig_get_pose(f.rig, &pre_pose));
	sinew_rig_part_state pre_parts[SINEW_PART_COUNT], last[SINEW_PART_COUNT], first[SINEW_PART_COUNT];
	rig_parts(f.rig, pre_parts);
	sinew_vec2 pre_root = sinew_rig_get_root(f.rig).p;
	assert_true(sinew_ragdoll_set_enabled(f.rd, true));
	/* A shove so that it falls over and tumbles. */
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		sinew_body_id b = sinew_ragdoll_get_body(f.rd, p);
		sinew_body_set_linear_velocity(b, sinew_v2(facing == SINEW_FACING_LEFT ? -150.0f : 150.0f, -100.0f));
	}
	for (int i = 0; i < 240; ++i) frame(&f);
	sinew_ragdoll_get_parts(f.rd, last);
	float landing_x = last[SINEW_PART_TORSO].origin.x; /* the hips */

	assert_true(sinew_ragdoll_set_enabled(f.rd, false));
	assert_int_equal(sinew_ragdoll_get_state(f.rd), SINEW_RIG_RECOVERING);
	assert_true(SINEW_IS_NULL(sinew_ragdoll_get_body(f.rd, SINEW_PART_TORSO)));
	frame(&f);
	sinew_ragdoll_get_parts(f.rd, first);
	float dp, da;
	parts_error(first, last, sinew_v2(0.0f, 0.0f), &dp, &da);
	printf("# recovery %s: first frame off the last ragdoll frame by %.3f px, %.3f deg\n", name, (double)dp,
	       (double)(da / DEG));
	assert_true(dp < 0.5f && da < 0.5f * DEG);

	float sweep = run_recovery(&f);
	printf("# recovery %s: largest segment sweep %.1f deg\n", name, (double)(sweep / DEG));
	assert_true(sweep <= PI_F + 0.01f);
	assert_int_equal(sinew_ragdoll_get_state(f.rd), SINEW_RIG_ANIMATED);
	check_standing(&f, pre_parts, pre_root);
	/* It stands where the ragdoll lay (docs/ragdoll.md, recovery: not shifted, mirrored or not). */
	assert_float_near(sinew_rig_get_root(f.rig).p.x, landing_x, 0.5);
	/* The profile, the bend flags, the IK and look-at switches are the pre-ragdoll ones, and stay
	 * so while animated. */
	for (int k = 0; k < 2; ++k) {
		sinew_rig_pose now;
		assert_true(sinew_rig_get_pose(f.rig, &now));
		assert_int_equal(now.facing, facing);
		assert_memory_equal(now.bend_flip, pre_pose.bend_flip, sizeof now.bend_flip);
		assert_memory_equal(now.limb_ik, pre_pose.limb_ik, sizeof now.limb_ik);
		assert_true(now.head_look == pre_pose.head_look);
		for (int l = 0; l < SINEW_LIMB_COUNT; ++l) assert_true(sinew_rig_get_bend_flip(f.rig, l) == pre_pose.bend_flip[l]);
		if (k == 0) frame(&f);
	}
	check_standing(&f, pre_parts, pre_root);
	teardown(&f);
}

static void recovery_case(sinew_rig_facing facing, terrain_kind terrain, bool walk, const char *name)
{
	recovery_options none = {false, false};
	recovery_case_with(facing, terrain, walk, none, name);
}

static void test_recovery_flat(void **state)
{
	(void)state;
	recovery_case(SINEW_FACING_RIGHT, FLAT, false, "right flat");
	recovery_case(SINEW_FACING_LEFT, FLAT, false, "left flat");
	recovery_case(SINEW_FACING_FORWARD, FLAT, false, "forward flat");
}

static void test_recovery_slope(void **state)
{
	(void)state;
	recovery_case(SINEW_FACING_RIGHT, SLOPE, false, "right slope");
	recovery_case(SINEW_FACING_LEFT, SLOPE, false, "left slope");
	recovery_case(SINEW_FACING_FORWARD, SLOPE, false, "forward slope");
}

static void test_recovery_ramp_edge(void **state)
{
	(void)state;
	recovery_case(SINEW_FACING_RIGHT, RAMP_EDGE, false, "right ramp edge");
	recovery_case(SINEW_FACING_LEFT, RAMP_EDGE, false, "left ramp edge");
	recovery_case(SINEW_FACING_FORWARD, RAMP_EDGE, false, "forward ramp edge");
}

static void test_recovery_mid_walk(void **state)
{
	(void)state;
	recovery_case(SINEW_FACING_RIGHT, FLAT, true, "right mid-walk");
	recovery_case(SINEW_FACING_LEFT, SLOPE, true, "left mid-walk slope");
	recovery_case(SINEW_FACING_FORWARD, RAMP_EDGE, true, "forward mid-walk ramp edge");
}

/* Put a lower bone at a relative angle to its upper bone, turning about the elbow or knee. */
static void bend(fixture *f, int lower, float relative)
{
	sinew_body_id up = sinew_ragdoll_get_body(f->rd, lower - 1), lo = sinew_ragdoll_get_body(f->rd, lower);
	sinew_rig_part_state joint = sinew_ragdoll_get_part(f->rd, lower);
	float a = sinew_body_get_angle(up) + relative;
	float half = 0.5f * sinew_distance(joint.origin, joint.tip);
	sinew_body_set_transform(lo, sinew_add(joint.origin, sinew_v2(half * cosf(a), half * sinf(a))), a);
}

/* An elbow and a knee the ragdoll bent backwards straighten through 0 on the way to the pre-ragdoll
 * bend, never folding on through +-180. */
static void test_backwards_joints_pass_straight(void **state)
{
	(void)state;
	fixture f;
	setup(&f, FLAT, SINEW_FACING_RIGHT, SINEW_RAGDOLL_LOCAL);
	/* Pre-ragdoll: the right elbow bent on its side (RIGHT: arms flipped, negative), the left knee on
	 * its side (positive). */
	sinew_rig_set_marker(f.rig, SINEW_MARKER_RIGHT_HAND, sinew_v2(250.0f, -60.0f));
	sinew_rig_set_marker(f.rig, SINEW_MARKER_LEFT_FOOT, sinew_v2(60.0f, 330.0f));
	frame(&f);
	sinew_rig_part_state pre_parts[SINEW_PART_COUNT];
	rig_parts(f.rig, pre_parts);
	sinew_vec2 pre_root = sinew_rig_get_root(f.rig).p;
	assert_true(wrapf_(pre_parts[SINEW_PART_RIGHT_LOWER_ARM].angle - pre_parts[SINEW_PART_RIGHT_UPPER_ARM].angle) < -0.3f);
	assert_true(wrapf_(pre_parts[SINEW_PART_LEFT_LOWER_LEG].angle - pre_parts[SINEW_PART_LEFT_UPPER_LEG].angle) > 0.3f);
	assert_true(sinew_ragdoll_set_enabled(f.rd, true));
	bend(&f, SINEW_PART_RIGHT_LOWER_ARM, 50.0f * DEG);
	bend(&f, SINEW_PART_LEFT_LOWER_LEG, -40.0f * DEG);
	assert_true(sinew_ragdoll_set_enabled(f.rd, false));
	const int joints[2] = {SINEW_PART_RIGHT_LOWER_ARM, SINEW_PART_LEFT_LOWER_LEG};
	float lo[2] = {INFINITY, INFINITY}, hi[2] = {-INFINITY, -INFINITY}, start[2], end[2];
	float nearest_straight[2] = {INFINITY, INFINITY}, jump[2] = {0.0f, 0.0f};
	int frames = 0;
	while (sinew_ragdoll_get_state(f.rd) == SINEW_RIG_RECOVERING) {
		frame(&f);
		for (int k = 0; k < 2; ++k) {
			sinew_rig_part_state a = sinew_ragdoll_get_part(f.rd, joints[k] - 1), b = sinew_ragdoll_get_part(f.rd, joints[k]);
			float rel = wrapf_(b.angle - a.angle);
			if (frames == 0) start[k] = rel;
			else jump[k] = fmaxf(jump[k], fabsf(wrapf_(rel - end[k])));
			end[k] = rel;
			nearest_straight[k] = fminf(nearest_straight[k], fabsf(rel));
			lo[k] = fminf(lo[k], rel);
			hi[k] = fmaxf(hi[k], rel);
		}
		frames++;
	}
	assert_true(start[0] > 40.0f * DEG && end[0] < -0.3f);
	assert_true(start[1] < -30.0f * DEG && end[1] > 0.3f);
	for (int k = 0; k < 2; ++k) {
		/* Through straight: the range stays inside (-170, 170) degrees, so it crossed 0. */
		assert_true(lo[k] > -170.0f * DEG && hi[k] < 170.0f * DEG);
		/* ... smoothly, frame by frame, touching straight on the way. */
		assert_true(jump[k] < 5.0f * DEG);
		assert_true(nearest_straight[k] < 3.0f * DEG);
	}
	check_standing(&f, pre_parts, pre_root);
	teardown(&f);
}

/* docs/ragdoll.md, recovery step 7: a figure with its own switches (a leg and an arm bent against
 * the profile by overrides, an arm off IK, the head not looking) stands up into exactly them, on
 * flat ground and a slope, for every facing. */
static void test_recovery_restores_the_figures_switches(void **state)
{
	(void)state;
	recovery_options o = {true, false};
	recovery_case_with(SINEW_FACING_RIGHT, FLAT, true, o, "right overrides");
	recovery_case_with(SINEW_FACING_LEFT, SLOPE, true, o, "left overrides slope");
	recovery_case_with(SINEW_FACING_FORWARD, FLAT, false, o, "forward overrides");
}

/* docs/ragdoll.md, recovery step 2: with probe_dynamic on (the figure may stand up on a prop) the
 * ground probe still skips the ragdoll's own bodies, which are dynamic and lie where it probes: it
 * stands on the terrain, not on its own fallen limbs. */
static void test_recovery_probe_skips_own_bodies(void **state)
{
	(void)state;
	recovery_options o = {false, true};
	recovery_case_with(SINEW_FACING_RIGHT, FLAT, false, o, "right probe_dynamic");
	recovery_case_with(SINEW_FACING_LEFT, SLOPE, true, o, "left probe_dynamic slope");
}

/* Turn a limb (its upper and lower body) rigidly about its shoulder or hip. */
static void swing(fixture *f, int upper, float delta)
{
	sinew_vec2 pivot = sinew_ragdoll_get_part(f->rd, upper).origin;
	sinew_rot q = sinew_make_rot(delta);
	for (int p = upper; p <= upper + 1; ++p) {
		sinew_body_id b = sinew_ragdoll_get_body(f->rd, p);
		sinew_vec2 c = sinew_add(pivot, sinew_rotate(q, sinew_sub(sinew_body_get_position(b), pivot)));
		sinew_body_set_transform(b, c, sinew_body_get_angle(b) + delta);
	}
}

/* docs/ragdoll.md, recovery step 5: a shoulder is a ball joint and turns the short way, even
 * across the +-180 line of its relative rotation: the arm, swung by the fall to 25 degrees past
 * that line, swings back by exactly as much, not the other way round as a "through straight" rule
 * would send it (past 180 degrees). */
static void test_shoulder_turns_the_short_way(void **state)
{
	(void)state;
	fixture f;
	setup(&f, FLAT, SINEW_FACING_RIGHT, SINEW_RAGDOLL_LOCAL);
	sinew_rig_part_state pre_parts[SINEW_PART_COUNT];
	rig_parts(f.rig, pre_parts);
	sinew_vec2 pre_root = sinew_rig_get_root(f.rig).p;
	float rel = wrapf_(pre_parts[SINEW_PART_RIGHT_UPPER_ARM].angle - pre_parts[SINEW_PART_TORSO].angle);
	float side = rel >= 0.0f ? 1.0f : -1.0f;
	float delta = side * (PI_F - fabsf(rel) + 25.0f * DEG);
	assert_true(fabsf(delta) < 170.0f * DEG);
	assert_true(sinew_ragdoll_set_enabled(f.rd, true));
	swing(&f, SINEW_PART_RIGHT_UPPER_ARM, delta);
	float start = wrapf_(sinew_ragdoll_get_part(f.rd, SINEW_PART_RIGHT_UPPER_ARM).angle - pre_parts[SINEW_PART_TORSO].angle);
	assert_true(start * rel < 0.0f); /* across the line */
	assert_true(sinew_ragdoll_set_enabled(f.rd, false));
	float sweep[SINEW_PART_COUNT];
	float most = run_recovery_sweeps(&f, sweep);
	printf("# shoulder across the line: swung %.1f deg, swept back %.1f deg\n", (double)(delta / DEG),
	       (double)(sweep[SINEW_PART_RIGHT_UPPER_ARM] / DEG));
	assert_float_near(sweep[SINEW_PART_RIGHT_UPPER_ARM], -delta, 1.0 * DEG);
	assert_true(most <= PI_F + 0.01f);
	check_standing(&f, pre_parts, pre_root);
	teardown(&f);
}

/* docs/ragdoll.md, recovery step 5: an elbow's turn is chosen with its upper arm's, so that the
 * forearm's world direction sweeps least. The fall left the elbow bent 190 degrees back from its
 * standing bend and the upper arm swung 62 degrees one way or the other: the elbow then turns
 * whichever way keeps the forearm's sweep within 180 degrees — through straight when the upper arm
 * swings back the same way (a per-joint shortest rule takes the other way round then: 252 degrees),
 * the other way when it swings against it (the plain shortest turn took 232). */
static void test_elbow_follows_minimal_world_sweep(void **state)
{
	(void)state;
	for (int k = 0; k < 2; ++k) {
		float swing_by = k ? -62.0f * DEG : 62.0f * DEG;
		fixture f;
		setup(&f, FLAT, SINEW_FACING_RIGHT, SINEW_RAGDOLL_LOCAL);
		sinew_rig_set_marker(f.rig, SINEW_MARKER_RIGHT_HAND, sinew_v2(250.0f, -60.0f));
		frame(&f);
		sinew_rig_part_state pre_parts[SINEW_PART_COUNT];
		rig_parts(f.rig, pre_parts);
		sinew_vec2 pre_root = sinew_rig_get_root(f.rig).p;
		float elbow = wrapf_(pre_parts[SINEW_PART_RIGHT_LOWER_ARM].angle - pre_parts[SINEW_PART_RIGHT_UPPER_ARM].angle);
		assert_true(elbow < -10.0f * DEG && elbow > -170.0f * DEG); /* RIGHT: bent on its (negative) side */
		assert_true(sinew_ragdoll_set_enabled(f.rd, true));
		swing(&f, SINEW_PART_RIGHT_UPPER_ARM, swing_by);
		bend(&f, SINEW_PART_RIGHT_LOWER_ARM, elbow + 190.0f * DEG);
		assert_true(sinew_ragdoll_set_enabled(f.rd, false));
		float sweep[SINEW_PART_COUNT];
		float most = run_recovery_sweeps(&f, sweep);
		float expect = wrapf_(-swing_by - 190.0f * DEG);
		printf("# elbow 190 deg back, upper arm swung %.0f deg: forearm swept %.1f deg (expected %.1f)\n",
		       (double)(swing_by / DEG), (double)(sweep[SINEW_PART_RIGHT_LOWER_ARM] / DEG), (double)(expect / DEG));
		assert_float_near(sweep[SINEW_PART_RIGHT_UPPER_ARM], -swing_by, 1.0 * DEG);
		assert_float_near(sweep[SINEW_PART_RIGHT_LOWER_ARM], expect, 1.0 * DEG);
		assert_true(most <= PI_F + 0.01f);
		check_standing(&f, pre_parts, pre_root);
		teardown(&f);
	}
}

/* ---------------------------------------------------------------- interruptions */

static void test_interrupted_recovery(void **state)
{
	(void)state;
	fixture f;
	setup(&f, FLAT, SINEW_FACING_LEFT, SINEW_RAGDOLL_LOCAL);
	walk_pose(&f);
	sinew_rig_part_state pre_parts[SINEW_PART_COUNT], mid[SINEW_PART_COUNT], built[SINEW_PART_COUNT];
	rig_parts(f.rig, pre_parts);
	sinew_vec2 pre_root = sinew_rig_get_root(f.rig).p;
	assert_true(sinew_ragdoll_set_enabled(f.rd, true));
	for (int i = 0; i < 150; ++i) frame(&f);
	assert_true(sinew_ragdoll_set_enabled(f.rd, false));
	for (int i = 0; i < 50; ++i) frame(&f);
	assert_int_equal(sinew_ragdoll_get_state(f.rd), SINEW_RIG_RECOVERING);
	/* Falling again mid-stand-up: the ragdoll is built from the pose shown now. */
	sinew_ragdoll_get_parts(f.rd, mid);
	assert_true(sinew_ragdoll_set_enabled(f.rd, true));
	assert_true(sinew_ragdoll_set_enabled(f.rd, true)); /* idempotent */
	sinew_ragdoll_get_parts(f.rd, built);
	float dp, da;
	parts_error(built, mid, sinew_v2(0.0f, 0.0f), &dp, &da);
	assert_true(dp < 0.5f && da < 0.5f * DEG);
	for (int i = 0; i < 150; ++i) frame(&f);
	assert_true(sinew_ragdoll_toggle(f.rd));
	run_recovery(&f);
	/* It still stands up into the pose it had before the first fall. */
	check_standing(&f, pre_parts, pre_root);
	/* A recovery that is asked for twice is one recovery; re-enabling right after is harmless. */
	assert_true(sinew_ragdoll_set_enabled(f.rd, false));
	assert_int_equal(sinew_ragdoll_get_state(f.rd), SINEW_RIG_ANIMATED);
	teardown(&f);
}

static void test_snap_to_standing(void **state)
{
	(void)state;
	fixture f;
	setup(&f, SLOPE, SINEW_FACING_RIGHT, SINEW_RAGDOLL_LOCAL);
	walk_pose(&f);
	sinew_rig_part_state pre_parts[SINEW_PART_COUNT];
	rig_parts(f.rig, pre_parts);
	sinew_vec2 pre_root = sinew_rig_get_root(f.rig).p;
	/* From RAGDOLL, with a prop lying on the fallen figure where the standing one will appear. */
	assert_true(sinew_ragdoll_set_enabled(f.rd, true));
	for (int i = 0; i < 100; ++i) frame(&f);
	sinew_vec2 hips = sinew_ragdoll_get_part(f.rd, SINEW_PART_TORSO).origin;
	sinew_body_def bd = sinew_default_body_def();
	bd.type = SINEW_DYNAMIC_BODY;
	bd.position = sinew_v2(hips.x, hips.y - 150.0f);
	sinew_body_id prop = sinew_create_body(f.world, &bd);
	sinew_shape_def sd = sinew_default_shape_def();
	sd.density = 0.0005f;
	sinew_polygon box = sinew_make_box(80.0f, 10.0f);
	sinew_create_polygon_shape(prop, &sd, &box);
	for (int i = 0; i < 20; ++i) frame(&f);
	assert_true(sinew_ragdoll_snap_to_standing(f.rd));
	assert_int_equal(sinew_ragdoll_get_state(f.rd), SINEW_RIG_ANIMATED);
	assert_true(sinew_rig_is_visible(f.rig));
	check_standing(&f, pre_parts, pre_root);
	frame(&f);
	check_standing(&f, pre_parts, pre_root);
	/* The proxies were put on the standing figure, not swept there in one step. */
	for (int i = 0; i < 3; ++i) frame(&f);
	assert_true(sinew_length(sinew_body_get_linear_velocity(prop)) < 600.0f);
	/* From RECOVERING. */
	assert_true(sinew_ragdoll_set_enabled(f.rd, true));
	for (int i = 0; i < 120; ++i) frame(&f);
	assert_true(sinew_ragdoll_set_enabled(f.rd, false));
	for (int i = 0; i < 30; ++i) frame(&f);
	assert_true(sinew_ragdoll_snap_to_standing(f.rd));
	assert_int_equal(sinew_ragdoll_get_state(f.rd), SINEW_RIG_ANIMATED);
	check_standing(&f, pre_parts, pre_root);
	/* From ANIMATED: nothing to do. */
	assert_true(sinew_ragdoll_snap_to_standing(f.rd));
	teardown(&f);
}

/* state_changed fires once per change, in the order of the machine; repeated requests are no-ops. */
static void test_state_machine(void **state)
{
	(void)state;
	fixture f;
	setup(&f, FLAT, SINEW_FACING_RIGHT, SINEW_RAGDOLL_LOCAL);
	assert_true(sinew_ragdoll_set_enabled(f.rd, false));
	assert_int_equal(f.state_count, 0);
	assert_true(sinew_ragdoll_set_enabled(f.rd, true));
	assert_true(sinew_ragdoll_set_enabled(f.rd, true));
	assert_int_equal(sinew_rig_get_state(f.rig), SINEW_RIG_RAGDOLL);
	for (int i = 0; i < 60; ++i) frame(&f);
	assert_true(sinew_ragdoll_toggle(f.rd));
	assert_true(sinew_ragdoll_set_enabled(f.rd, false));
	run_recovery(&f);
	assert_int_equal(f.state_count, 3);
	assert_int_equal(f.states[0], SINEW_RIG_RAGDOLL);
	assert_int_equal(f.states[1], SINEW_RIG_RECOVERING);
	assert_int_equal(f.states[2], SINEW_RIG_ANIMATED);
	/* The joint model switch applies to the next ragdoll. */
	assert_true(sinew_ragdoll_set_joint_model(f.rd, SINEW_RAGDOLL_GODOT));
	assert_true(sinew_ragdoll_set_enabled(f.rd, true));
	assert_true(sinew_joint_get_type(sinew_ragdoll_get_joint(f.rd, SINEW_PART_LEFT_LOWER_LEG)) == SINEW_PIN_JOINT);
	assert_true(sinew_ragdoll_snap_to_standing(f.rd));
	/* Misuse is reported and refused. */
	assert_null(sinew_create_ragdoll(NULL, NULL));
	assert_int_equal(f.rec.count, 1);
	sinew_ragdoll_def bad = sinew_default_ragdoll_def();
	bad.bodies[SINEW_PART_HEAD].mass = -1.0f;
	assert_null(sinew_create_ragdoll(f.rig, &bad));
	assert_false(sinew_ragdoll_update(f.rd, 0.0f));
	assert_false(sinew_ragdoll_set_joint_model(f.rd, (sinew_ragdoll_joint_model)7));
	assert_int_equal(f.rec.count, 4);
	assert_int_equal(f.rec.last_code, SINEW_ERROR_INVALID_ARGUMENT);
	f.rec.count = 0;
	teardown(&f);
}

/* ---------------------------------------------------------------- cleanup */

static void test_rapid_toggles(void **state)
{
	(void)state;
	fixture f;
	setup(&f, STAIRS, SINEW_FACING_LEFT, SINEW_RAGDOLL_LOCAL);
	int bodies0 = count_bodies(f.world), joints0 = count_joints(f.world);
	sinew_body_id seen_bodies[1100];
	sinew_joint_id seen_joints[1100];
	int seen = 0, mid_recovery = 0;
	for (int i = 0; i < 100; ++i) {
		if (sinew_ragdoll_get_state(f.rd) == SINEW_RIG_RECOVERING) mid_recovery++;
		assert_true(sinew_ragdoll_toggle(f.rd));
		if (sinew_ragdoll_is_enabled(f.rd)) {
			for (int p = 0; p < SINEW_PART_COUNT && seen < 1100; ++p, ++seen) {
				seen_bodies[seen] = sinew_ragdoll_get_body(f.rd, p);
				seen_joints[seen] = sinew_ragdoll_get_joint(f.rd, p);
			}
		}
		int n = (i * 7) % 5 + (i % 10 == 3 ? 40 : 0);
		for (int k = 0; k < n; ++k) frame(&f);
	}
	assert_true(mid_recovery > 10);
	if (sinew_ragdoll_is_enabled(f.rd)) sinew_ragdoll_toggle(f.rd);
	run_recovery(&f);
	assert_int_equal(count_bodies(f.world), bodies0);
	assert_int_equal(count_joints(f.world), joints0);
	for (int k = 0; k < seen; ++k) {
		assert_false(sinew_body_is_valid(seen_bodies[k]));
		if (!SINEW_IS_NULL(seen_joints[k])) assert_false(sinew_joint_is_valid(seen_joints[k]));
	}
	for (int p = 0; p < SINEW_PART_COUNT; ++p) assert_true(SINEW_IS_NULL(sinew_ragdoll_get_body(f.rd, p)));
	/* Destroying the controller mid-fall frees its bodies and hands the rig back standing. */
	assert_true(sinew_ragdoll_set_enabled(f.rd, true));
	sinew_destroy_ragdoll(f.rd);
	f.rd = NULL;
	assert_int_equal(count_bodies(f.world), bodies0);
	assert_int_equal(sinew_rig_get_state(f.rig), SINEW_RIG_ANIMATED);
	teardown(&f);
}

/* An argument picks the tests to run by name pattern (valgrind runs the toggle test alone). */
int main(int argc, char **argv)
{
	if (argc > 1) cmocka_set_test_filter(argv[1]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_entry_right),
		cmocka_unit_test(test_entry_left),
		cmocka_unit_test(test_entry_forward),
		cmocka_unit_test(test_entry_mid_walk),
		cmocka_unit_test(test_fold_side),
		cmocka_unit_test(test_fold_side_follows_overrides),
		cmocka_unit_test(test_ragdoll_draws_the_rigs_look),
		cmocka_unit_test(test_momentum_handoff),
		cmocka_unit_test(test_tumble_flat),
		cmocka_unit_test(test_tumble_ramp),
		cmocka_unit_test(test_tumble_stairs),
		cmocka_unit_test(test_joint_model_semantics),
		cmocka_unit_test(test_godot_free_fall),
		cmocka_unit_test(test_tumble_godot_flat),
		cmocka_unit_test(test_tumble_godot_ramp),
		cmocka_unit_test(test_tumble_godot_stairs),
		cmocka_unit_test(test_recovery_flat),
		cmocka_unit_test(test_recovery_slope),
		cmocka_unit_test(test_recovery_ramp_edge),
		cmocka_unit_test(test_recovery_mid_walk),
		cmocka_unit_test(test_backwards_joints_pass_straight),
		cmocka_unit_test(test_recovery_restores_the_figures_switches),
		cmocka_unit_test(test_recovery_probe_skips_own_bodies),
		cmocka_unit_test(test_shoulder_turns_the_short_way),
		cmocka_unit_test(test_elbow_follows_minimal_world_sweep),
		cmocka_unit_test(test_interrupted_recovery),
		cmocka_unit_test(test_snap_to_standing),
		cmocka_unit_test(test_state_machine),
		cmocka_unit_test(test_rapid_toggles),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
