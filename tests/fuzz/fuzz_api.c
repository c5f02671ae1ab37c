/* Fuzz harness: the bytes are a sequence of API calls (issue 15). Each call takes an opcode byte
 * and its arguments from the bytes that follow: create and destroy bodies, shapes and joints of
 * every kind, with values drawn from the bytes (extreme floats, NaN and infinities included);
 * destroy a body that has joints, then step; change types; enable and disable; set velocities,
 * limits, motors and springs; casts and overlaps; steps with odd dt and substeps. Whatever the
 * calls, nothing may crash, trip a sanitizer, or leave a non-finite body behind a step the
 * engine accepted. `make fuzz` builds it with libFuzzer under ASan + UBSan;
 * tests/test_fuzz_corpus.c replays tests/fuzz/corpus/api/ in `make test`. */
#include "sinew/sinew.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FUZZ_API_ENTRY
#define FUZZ_API_ENTRY LLVMFuzzerTestOneInput
int FUZZ_API_ENTRY(const uint8_t *data, size_t size);
#endif

#define FUZZ_API_SLOTS 32
#define FUZZ_API_MAX_CALLS 400

typedef struct fuzz_api_input {
	const uint8_t *data;
	size_t size, at;
} fuzz_api_input;

static uint8_t fuzz_api_byte(fuzz_api_input *in)
{
	return in->at < in->size ? in->data[in->at++] : 0;
}

static bool fuzz_api_flag(fuzz_api_input *in)
{
	return (fuzz_api_byte(in) & 1) != 0;
}

/* A float: most often a small ordinary value, sometimes one of the values that break engines
 * (the envelope's limits and just past them, huge, tiny, infinite, NaN), sometimes raw bits. */
static float fuzz_api_float_value(fuzz_api_input *in);
static float fuzz_api_float(fuzz_api_input *in)
{
	float f = fuzz_api_float_value(in);
	if (getenv("FUZZ_API_TRACE") != NULL) fprintf(stderr, "fuzz_api:   %g\n", (double)f);
	return f;
}

static float fuzz_api_float_value(fuzz_api_input *in)
{
	static const float special[] = {
		0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 1e-6f, -1e-6f, 1e-3f, 1e3f, -1e3f,
		SINEW_MAX_COORDINATE, -SINEW_MAX_COORDINATE, SINEW_MAX_SIZE, SINEW_MAX_SPEED, SINEW_MAX_ANGULAR_SPEED,
		SINEW_MAX_ACCELERATION, SINEW_MAX_DENSITY, SINEW_MAX_MASS, SINEW_MAX_FORCE, SINEW_MAX_HERTZ,
		SINEW_MAX_COEFFICIENT, 1.0001e6f, 1e10f, 1e30f, -1e30f, 1e38f, FLT_MAX, -FLT_MAX, FLT_MIN, 1e-39f,
		INFINITY, -INFINITY, NAN, 3.14159265f, 6.2831853f, 100.0f,
	};
	uint8_t kind = fuzz_api_byte(in);
	if (kind < 128) return ((float)fuzz_api_byte(in) - 128.0f) / 16.0f; /* -8..8 in steps of 1/16 */
	if (kind < 224) return special[fuzz_api_byte(in) % (sizeof special / sizeof special[0])];
	uint32_t bits = 0;
	for (int i = 0; i < 4; ++i) bits = bits << 8 | fuzz_api_byte(in);
	float f;
	memcpy(&f, &bits, sizeof f);
	return f;
}

static sinew_vec2 fuzz_api_vec2(fuzz_api_input *in)
{
	float x = fuzz_api_float(in);
	return sinew_v2(x, fuzz_api_float(in));
}

typedef struct fuzz_api_state {
	sinew_world_id world;
	sinew_body_id bodies[FUZZ_API_SLOTS];
	sinew_shape_id shapes[FUZZ_API_SLOTS];
	sinew_joint_id joints[FUZZ_API_SLOTS];
} fuzz_api_state;

/* Ids are picked from the slots, stale ones included (the engine must refuse those cleanly). */
static sinew_body_id fuzz_api_body(fuzz_api_state *s, fuzz_api_input *in)
{
	return s->bodies[fuzz_api_byte(in) % FUZZ_API_SLOTS];
}
static sinew_shape_id fuzz_api_shape(fuzz_api_state *s, fuzz_api_input *in)
{
	return s->shapes[fuzz_api_byte(in) % FUZZ_API_SLOTS];
}
static sinew_joint_id fuzz_api_joint(fuzz_api_state *s, fuzz_api_input *in)
{
	return s->joints[fuzz_api_byte(in) % FUZZ_API_SLOTS];
}

/* Errors are expected (most calls are bad input); FUZZ_API_TRACE=1 prints them with the calls. */
static void fuzz_api_quiet(sinew_error code, const char *message, void *context)
{
	(void)context;
	if (getenv("FUZZ_API_TRACE") != NULL) fprintf(stderr, "fuzz_api:   %s: %s\n", sinew_error_name(code), message);
}

static sinew_geometry fuzz_api_geometry(fuzz_api_input *in)
{
	sinew_geometry g;
	memset(&g, 0, sizeof g);
	switch (fuzz_api_byte(in) % 4) {
	case 0:
		g.type = SINEW_SHAPE_CIRCLE;
		g.u.circle.center = fuzz_api_vec2(in);
		g.u.circle.radius = fuzz_api_float(in);
		break;
	case 1:
		g.type = SINEW_SHAPE_CAPSULE;
		g.u.capsule.center1 = fuzz_api_vec2(in);
		g.u.capsule.center2 = fuzz_api_vec2(in);
		g.u.capsule.radius = fuzz_api_float(in);
		break;
	case 2: {
		g.type = SINEW_SHAPE_POLYGON;
		float hx = fuzz_api_float(in), hy = fuzz_api_float(in);
		sinew_vec2 c = fuzz_api_vec2(in);
		float angle = fuzz_api_float(in), radius = fuzz_api_float(in);
		g.u.polygon = sinew_make_rounded_box(hx, hy, c, angle, radius);
		break;
	}
	default: {
		/* Raw vertices and normals: convexity, winding and counts as the bytes say. */
		g.type = SINEW_SHAPE_POLYGON;
		int count = fuzz_api_byte(in) % (SINEW_MAX_POLYGON_VERTICES + 3);
		g.u.polygon.count = count;
		for (int i = 0; i < count && i < SINEW_MAX_POLYGON_VERTICES; ++i) {
			g.u.polygon.vertices[i] = fuzz_api_vec2(in);
			g.u.polygon.normals[i] = fuzz_api_vec2(in);
		}
		g.u.polygon.centroid = fuzz_api_vec2(in);
		g.u.polygon.radius = fuzz_api_float(in);
		break;
	}
	}
	return g;
}

static void fuzz_api_joint_base(fuzz_api_state *s, fuzz_api_input *in, sinew_joint_base_def *base)
{
	base->body_a = fuzz_api_body(s, in);
	base->body_b = fuzz_api_body(s, in);
	if (fuzz_api_byte(in) < 32) base->body_a = (sinew_body_id){0};
	base->collide_connected = fuzz_api_flag(in);
	base->is_enabled = fuzz_api_byte(in) >= 16;
	if (fuzz_api_byte(in) < 32) {
		base->break_force = fuzz_api_float(in);
		base->break_torque = fuzz_api_float(in);
	}
}

static sinew_joint_limit fuzz_api_limit(fuzz_api_input *in)
{
	sinew_joint_limit l = {0};
	l.enabled = fuzz_api_flag(in);
	l.lower = fuzz_api_float(in);
	l.upper = fuzz_api_float(in);
	l.frame = (sinew_limit_frame)(fuzz_api_byte(in) % 3); /* 2 is not a frame */
	return l;
}

static sinew_joint_motor fuzz_api_motor(fuzz_api_input *in)
{
	sinew_joint_motor m = {0};
	m.enabled = fuzz_api_flag(in);
	m.speed = fuzz_api_float(in);
	m.max_effort = fuzz_api_float(in);
	return m;
}

static sinew_joint_spring fuzz_api_spring(fuzz_api_input *in)
{
	sinew_joint_spring sp = {0};
	sp.enabled = fuzz_api_flag(in);
	sp.hertz = fuzz_api_float(in);
	sp.damping_ratio = fuzz_api_float(in);
	sp.target = fuzz_api_float(in);
	return sp;
}

static sinew_joint_id fuzz_api_create_joint(fuzz_api_state *s, fuzz_api_input *in)
{
	int kind = fuzz_api_byte(in) % SINEW_JOINT_TYPE_COUNT;
	if (getenv("FUZZ_API_TRACE") != NULL) fprintf(stderr, "fuzz_api:   joint type %d\n", kind);
	switch (kind) {
	case SINEW_PIN_JOINT: {
		sinew_pin_joint_def d = sinew_default_pin_joint_def();
		fuzz_api_joint_base(s, in, &d.base);
		d.anchor = fuzz_api_vec2(in);
		d.softness = fuzz_api_float(in);
		d.bias = fuzz_api_float(in);
		d.limit = fuzz_api_limit(in);
		d.motor = fuzz_api_motor(in);
		return sinew_create_pin_joint(s->world, &d);
	}
	case SINEW_REVOLUTE_JOINT: {
		sinew_revolute_joint_def d = sinew_default_revolute_joint_def();
		fuzz_api_joint_base(s, in, &d.base);
		d.anchor = fuzz_api_vec2(in);
		d.use_reference_angle = fuzz_api_flag(in);
		d.reference_angle = fuzz_api_float(in);
		d.limit = fuzz_api_limit(in);
		d.motor = fuzz_api_motor(in);
		d.spring = fuzz_api_spring(in);
		return sinew_create_revolute_joint(s->world, &d);
	}
	case SINEW_PRISMATIC_JOINT: {
		sinew_prismatic_joint_def d = sinew_default_prismatic_joint_def();
		fuzz_api_joint_base(s, in, &d.base);
		d.anchor = fuzz_api_vec2(in);
		d.axis = fuzz_api_vec2(in);
		d.use_reference_angle = fuzz_api_flag(in);
		d.reference_angle = fuzz_api_float(in);
		d.limit = fuzz_api_limit(in);
		d.motor = fuzz_api_motor(in);
		d.spring = fuzz_api_spring(in);
		return sinew_create_prismatic_joint(s->world, &d);
	}
	case SINEW_WELD_JOINT: {
		sinew_weld_joint_def d = sinew_default_weld_joint_def();
		fuzz_api_joint_base(s, in, &d.base);
		d.anchor = fuzz_api_vec2(in);
		d.use_reference_angle = fuzz_api_flag(in);
		d.reference_angle = fuzz_api_float(in);
		d.linear_hertz = fuzz_api_float(in);
		d.angular_hertz = fuzz_api_float(in);
		d.linear_damping_ratio = fuzz_api_float(in);
		d.angular_damping_ratio = fuzz_api_float(in);
		return sinew_create_weld_joint(s->world, &d);
	}
	case SINEW_DISTANCE_JOINT: {
		sinew_distance_joint_def d = sinew_default_distance_joint_def();
		fuzz_api_joint_base(s, in, &d.base);
		d.anchor_a = fuzz_api_vec2(in);
		d.anchor_b = fuzz_api_vec2(in);
		d.length = fuzz_api_float(in);
		d.min_length = fuzz_api_float(in);
		d.max_length = fuzz_api_float(in);
		d.spring = fuzz_api_spring(in);
		d.motor = fuzz_api_motor(in);
		return sinew_create_distance_joint(s->world, &d);
	}
	case SINEW_WHEEL_JOINT: {
		sinew_wheel_joint_def d = sinew_default_wheel_joint_def();
		fuzz_api_joint_base(s, in, &d.base);
		d.anchor = fuzz_api_vec2(in);
		d.axis = fuzz_api_vec2(in);
		d.spring = fuzz_api_spring(in);
		d.limit = fuzz_api_limit(in);
		d.motor = fuzz_api_motor(in);
		return sinew_create_wheel_joint(s->world, &d);
	}
	default: {
		sinew_target_joint_def d = sinew_default_target_joint_def();
		fuzz_api_joint_base(s, in, &d.base);
		d.target = fuzz_api_vec2(in);
		d.anchor = fuzz_api_vec2(in);
		d.hertz = fuzz_api_float(in);
		d.damping_ratio = fuzz_api_float(in);
		d.max_force = fuzz_api_float(in);
		return sinew_create_target_joint(s->world, &d);
	}
	}
}

static float fuzz_api_ray_fn(const sinew_ray_hit *hit, void *context)
{
	(void)context;
	return hit->fraction;
}

static bool fuzz_api_overlap_fn(sinew_shape_id shape, void *context)
{
	(void)shape;
	*(int *)context += 1;
	return true;
}

static void fuzz_api_call(fuzz_api_state *s, fuzz_api_input *in)
{
	uint8_t op = fuzz_api_byte(in);
	if (getenv("FUZZ_API_TRACE") != NULL) fprintf(stderr, "fuzz_api: op %d at byte %zu\n", op % 40, in->at - 1);
	switch (op % 40) {
	case 0:
	case 1: { /* create a body */
		sinew_body_def bd = sinew_default_body_def();
		bd.type = (sinew_body_type)(fuzz_api_byte(in) % 4); /* 3 is not a type */
		bd.position = fuzz_api_vec2(in);
		if (fuzz_api_byte(in) < 64) {
			bd.angle = fuzz_api_float(in);
			bd.linear_velocity = fuzz_api_vec2(in);
			bd.angular_velocity = fuzz_api_float(in);
			bd.gravity_scale = fuzz_api_float(in);
			bd.linear_damping = fuzz_api_float(in);
			bd.angular_damping = fuzz_api_float(in);
		}
		bd.is_bullet = fuzz_api_byte(in) < 32;
		bd.fixed_rotation = fuzz_api_byte(in) < 32;
		bd.is_enabled = fuzz_api_byte(in) >= 16;
		s->bodies[fuzz_api_byte(in) % FUZZ_API_SLOTS] = sinew_create_body(s->world, &bd);
		break;
	}
	case 2:
		sinew_destroy_body(fuzz_api_body(s, in));
		break;
	case 3:
	case 4:
	case 5: { /* create a shape */
		sinew_body_id b = fuzz_api_body(s, in);
		sinew_shape_def sd = sinew_default_shape_def();
		if (fuzz_api_byte(in) < 96) {
			sd.density = fuzz_api_float(in);
			sd.friction = fuzz_api_float(in);
			sd.restitution = fuzz_api_float(in);
		}
		sd.is_sensor = fuzz_api_byte(in) < 24;
		sd.group = fuzz_api_byte(in) % 3;
		sd.update_body_mass = fuzz_api_byte(in) >= 32;
		sinew_geometry g = fuzz_api_geometry(in);
		sinew_shape_id id = {0};
		if (g.type == SINEW_SHAPE_CIRCLE) id = sinew_create_circle_shape(b, &sd, &g.u.circle);
		else if (g.type == SINEW_SHAPE_CAPSULE) id = sinew_create_capsule_shape(b, &sd, &g.u.capsule);
		else id = sinew_create_polygon_shape(b, &sd, &g.u.polygon);
		s->shapes[fuzz_api_byte(in) % FUZZ_API_SLOTS] = id;
		break;
	}
	case 6:
		sinew_destroy_shape(fuzz_api_shape(s, in), fuzz_api_flag(in));
		break;
	case 7:
	case 8:
	case 9: {
		sinew_joint_id j = fuzz_api_create_joint(s, in);
		if (getenv("FUZZ_API_TRACE") != NULL)
			fprintf(stderr, "fuzz_api:   joint %s\n", sinew_joint_is_valid(j) ? "made" : "refused");
		s->joints[fuzz_api_byte(in) % FUZZ_API_SLOTS] = j;
		break;
	}
	case 10:
		sinew_destroy_joint(fuzz_api_joint(s, in));
		break;
	case 11:
	case 12:
	case 13: { /* step with an odd dt and substeps */
		float dt = fuzz_api_byte(in) < 192 ? 1.0f / 60.0f : fuzz_api_float(in);
		int substeps = (int)fuzz_api_byte(in) % 10 - 1;
		sinew_world_step(s->world, dt, substeps);
		break;
	}
	case 14:
		sinew_body_set_type(fuzz_api_body(s, in), (sinew_body_type)(fuzz_api_byte(in) % 4));
		break;
	case 15:
		if (fuzz_api_flag(in)) sinew_body_disable(fuzz_api_body(s, in));
		else sinew_body_enable(fuzz_api_body(s, in));
		break;
	case 16:
		sinew_joint_set_enabled(fuzz_api_joint(s, in), fuzz_api_flag(in));
		break;
	case 17: {
		sinew_body_id b = fuzz_api_body(s, in);
		sinew_body_set_linear_velocity(b, fuzz_api_vec2(in));
		sinew_body_set_angular_velocity(b, fuzz_api_float(in));
		break;
	}
	case 18: {
		sinew_body_id b = fuzz_api_body(s, in);
		sinew_vec2 p = fuzz_api_vec2(in);
		sinew_body_set_transform(b, p, fuzz_api_float(in));
		break;
	}
	case 19: {
		sinew_body_id b = fuzz_api_body(s, in);
		sinew_vec2 f = fuzz_api_vec2(in);
		switch (fuzz_api_byte(in) % 5) {
		case 0: sinew_body_apply_force(b, f, fuzz_api_vec2(in), true); break;
		case 1: sinew_body_apply_linear_impulse(b, f, fuzz_api_vec2(in), fuzz_api_flag(in)); break;
		case 2: sinew_body_apply_torque(b, f.x, true); break;
		case 3: sinew_body_apply_angular_impulse(b, f.y, true); break;
		default: sinew_body_apply_force_to_center(b, f, true); break;
		}
		break;
	}
	case 20: {
		sinew_joint_id j = fuzz_api_joint(s, in);
		switch (fuzz_api_byte(in) % 3) {
		case 0: sinew_joint_set_limit(j, fuzz_api_limit(in)); break;
		case 1: sinew_joint_set_motor(j, fuzz_api_motor(in)); break;
		default: sinew_joint_set_spring(j, fuzz_api_spring(in)); break;
		}
		break;
	}
	case 21: {
		sinew_world_set_gravity(s->world, fuzz_api_vec2(in));
		break;
	}
	case 22: {
		sinew_vec2 origin = fuzz_api_vec2(in), translation = fuzz_api_vec2(in);
		sinew_query_filter filter = sinew_default_query_filter();
		filter.hit_from_inside = fuzz_api_flag(in);
		sinew_ray_hit hits[4];
		switch (fuzz_api_byte(in) % 3) {
		case 0: sinew_world_cast_ray_closest(s->world, origin, translation, &filter); break;
		case 1: sinew_world_cast_ray_all(s->world, origin, translation, &filter, hits, 4); break;
		default: sinew_world_cast_ray(s->world, origin, translation, NULL, fuzz_api_ray_fn, NULL); break;
		}
		break;
	}
	case 23: {
		sinew_geometry g = fuzz_api_geometry(in);
		sinew_transform xf = {fuzz_api_vec2(in), sinew_make_rot(fuzz_api_float(in))};
		sinew_vec2 translation = fuzz_api_vec2(in);
		int count = 0;
		float safe, unsafe;
		switch (fuzz_api_byte(in) % 3) {
		case 0: sinew_world_cast_shape(s->world, &g, xf, translation, NULL); break;
		case 1: sinew_world_cast_motion(s->world, &g, xf, translation, NULL, &safe, &unsafe); break;
		default: sinew_world_overlap_shape(s->world, &g, xf, NULL, fuzz_api_overlap_fn, &count); break;
		}
		break;
	}
	case 24: {
		sinew_body_id b = fuzz_api_body(s, in);
		sinew_vec2 translation = fuzz_api_vec2(in);
		float safe, unsafe;
		if (fuzz_api_flag(in)) sinew_world_cast_body(s->world, b, translation, NULL);
		else sinew_world_cast_body_motion(s->world, b, translation, NULL, &safe, &unsafe);
		break;
	}
	case 25: {
		int count = 0;
		sinew_aabb box = {fuzz_api_vec2(in), fuzz_api_vec2(in)};
		if (fuzz_api_flag(in)) sinew_world_overlap_aabb(s->world, box, NULL, fuzz_api_overlap_fn, &count);
		else sinew_world_overlap_point(s->world, box.lower, NULL, fuzz_api_overlap_fn, &count);
		break;
	}
	case 26: {
		sinew_shape_id sh = fuzz_api_shape(s, in);
		switch (fuzz_api_byte(in) % 5) {
		case 0: sinew_shape_set_density(sh, fuzz_api_float(in), fuzz_api_flag(in)); break;
		case 1: sinew_shape_set_friction(sh, fuzz_api_float(in)); break;
		case 2: sinew_shape_set_restitution(sh, fuzz_api_float(in)); break;
		case 3: sinew_shape_set_filter(sh, fuzz_api_byte(in), fuzz_api_byte(in)); break;
		default: sinew_shape_set_group(sh, fuzz_api_byte(in) % 3); break;
		}
		break;
	}
	case 27: {
		sinew_body_id b = fuzz_api_body(s, in);
		sinew_mass_data md;
		md.mass = fuzz_api_float(in);
		md.center = fuzz_api_vec2(in);
		md.rotational_inertia = fuzz_api_float(in);
		if (getenv("FUZZ_API_TRACE") != NULL)
			fprintf(stderr, "fuzz_api:   mass %g center (%g, %g) inertia %g\n", (double)md.mass, (double)md.center.x,
			        (double)md.center.y, (double)md.rotational_inertia);
		if (fuzz_api_flag(in)) sinew_body_set_mass_data(b, md);
		else sinew_body_apply_mass_from_shapes(b);
		break;
	}
	case 28: {
		sinew_body_id b = fuzz_api_body(s, in);
		switch (fuzz_api_byte(in) % 6) {
		case 0: sinew_body_set_awake(b, fuzz_api_flag(in)); break;
		case 1: sinew_body_set_bullet(b, fuzz_api_flag(in)); break;
		case 2: sinew_body_set_fixed_rotation(b, fuzz_api_flag(in)); break;
		case 3: sinew_body_enable_sleep(b, fuzz_api_flag(in)); break;
		case 4: sinew_body_set_gravity_scale(b, fuzz_api_float(in)); break;
		default: sinew_body_set_linear_damping(b, fuzz_api_float(in)); break;
		}
		break;
	}
	case 29: {
		sinew_body_id b = fuzz_api_body(s, in);
		sinew_transform target = {fuzz_api_vec2(in), sinew_make_rot(fuzz_api_float(in))};
		sinew_body_move_to(b, target, fuzz_api_float(in));
		break;
	}
	case 30: {
		sinew_joint_id j = fuzz_api_joint(s, in);
		switch (fuzz_api_byte(in) % 8) {
		case 0: sinew_joint_set_break_thresholds(j, fuzz_api_float(in), fuzz_api_float(in)); break;
		case 1: sinew_joint_rebuild(j); break;
		case 2: sinew_distance_joint_set_lengths(j, fuzz_api_float(in), fuzz_api_float(in), fuzz_api_float(in)); break;
		case 3: sinew_target_joint_set_target(j, fuzz_api_vec2(in)); break;
		case 4: sinew_target_joint_set_tuning(j, fuzz_api_float(in), fuzz_api_float(in), fuzz_api_float(in)); break;
		case 5: sinew_joint_set_local_anchors(j, fuzz_api_vec2(in), fuzz_api_vec2(in)); break;
		case 6: sinew_joint_set_reference_angle(j, fuzz_api_float(in)); break;
		default:
			sinew_weld_joint_set_softness(j, fuzz_api_float(in), fuzz_api_float(in), fuzz_api_float(in),
			                              fuzz_api_float(in));
			break;
		}
		break;
	}
	case 31: {
		sinew_joint_id j = fuzz_api_joint(s, in);
		switch (fuzz_api_byte(in) % 4) {
		case 0: sinew_pin_joint_set_softness(j, fuzz_api_float(in), fuzz_api_float(in)); break;
		case 1: sinew_joint_set_local_axis_a(j, fuzz_api_vec2(in)); break;
		case 2: sinew_joint_set_swing_reference(j, fuzz_api_float(in)); break;
		default: sinew_joint_set_collide_connected(j, fuzz_api_flag(in)); break;
		}
		break;
	}
	case 32: {
		/* Read everything a game reads after a step. */
		sinew_body_id b = fuzz_api_body(s, in);
		sinew_body_contact contacts[4];
		sinew_contact_data data[4];
		sinew_joint_id js[4];
		sinew_body_get_contacts(b, contacts, 4);
		sinew_body_get_contact_data(b, data, 4);
		sinew_body_get_joints(b, js, 4);
		sinew_body_compute_aabb(b);
		sinew_joint_id j = fuzz_api_joint(s, in);
		sinew_joint_get_reaction_force(j);
		sinew_joint_get_angle(j);
		sinew_joint_get_translation(j);
		sinew_joint_get_linear_error(j);
		sinew_world_get_contact_events(s->world);
		sinew_world_get_joint_events(s->world);
		sinew_world_get_hash(s->world);
		break;
	}
	case 33:
		sinew_world_set_contact_tuning(s->world, fuzz_api_float(in), fuzz_api_float(in), fuzz_api_float(in));
		break;
	case 34:
		sinew_world_enable_sleep(s->world, fuzz_api_flag(in));
		sinew_world_enable_continuous(s->world, fuzz_api_flag(in));
		break;
	case 35: {
		/* Destroy a body that has joints, then step at once. */
		sinew_body_id b = fuzz_api_body(s, in);
		sinew_destroy_body(b);
		sinew_world_step(s->world, 1.0f / 60.0f, 4);
		break;
	}
	case 36:
		sinew_body_set_angle(fuzz_api_body(s, in), fuzz_api_float(in));
		break;
	case 37:
		sinew_body_set_position(fuzz_api_body(s, in), fuzz_api_vec2(in));
		break;
	default: { /* many steps in a row: let things happen */
		int n = 1 + fuzz_api_byte(in) % 30;
		for (int i = 0; i < n; ++i) {
			sinew_world_step(s->world, 1.0f / 60.0f, 4);
			if (getenv("FUZZ_API_TRACE") != NULL) {
				sinew_body_id first;
				if (sinew_world_get_bodies(s->world, &first, 1) == 1) {
					sinew_vec2 p = sinew_body_get_position(first), v = sinew_body_get_linear_velocity(first);
					fprintf(stderr, "fuzz_api:   first body p (%g, %g) v (%g, %g) w %g\n", (double)p.x, (double)p.y,
					        (double)v.x, (double)v.y, (double)sinew_body_get_angular_velocity(first));
				}
			}
		}
		break;
	}
	}
}

/* An allocator whose fail_at-th allocation fails (0: none): every call sequence is also run out
 * of memory at a point the bytes choose. */
static long s_fuzz_api_calls, s_fuzz_api_fail_at;

static bool fuzz_api_fails(void)
{
	return ++s_fuzz_api_calls == s_fuzz_api_fail_at;
}
static void *fuzz_api_alloc(size_t size, void *context)
{
	(void)context;
	return fuzz_api_fails() ? NULL : malloc(size);
}
static void *fuzz_api_realloc(void *p, size_t size, void *context)
{
	(void)context;
	return fuzz_api_fails() ? NULL : realloc(p, size);
}
static void fuzz_api_free(void *p, void *context)
{
	(void)context;
	free(p);
}

int FUZZ_API_ENTRY(const uint8_t *data, size_t size)
{
	sinew_set_error_callback(fuzz_api_quiet, NULL);
	fuzz_api_input in = {data, size, 0};
	s_fuzz_api_calls = 0;
	s_fuzz_api_fail_at = 0;
	if (size > 0 && data[size - 1] >= 0xf0) { /* the last byte: fail an allocation */
		s_fuzz_api_fail_at = 1 + (data[size - 1] & 0x0f) * 3 + (size > 1 ? data[size - 2] % 3 : 0);
		in.size -= 1;
	}
	sinew_allocator hooks = {fuzz_api_alloc, fuzz_api_realloc, fuzz_api_free, NULL};
	if (!sinew_set_allocator(&hooks)) abort();
	fuzz_api_state s;
	memset(&s, 0, sizeof s);
	sinew_world_def wd = sinew_default_world_def();
	wd.error_fn = fuzz_api_quiet;
	if (fuzz_api_byte(&in) < 64) {
		wd.gravity = fuzz_api_vec2(&in);
		wd.length_units_per_meter = fuzz_api_float(&in);
		wd.maximum_linear_speed = fuzz_api_float(&in);
		wd.body_capacity = (int)fuzz_api_byte(&in) - 1;
	}
	s.world = sinew_create_world(&wd);
	if (SINEW_IS_NULL(s.world)) {
		wd = sinew_default_world_def();
		wd.error_fn = fuzz_api_quiet;
		s.world = sinew_create_world(&wd);
	}
	if (SINEW_IS_NULL(s.world) && s_fuzz_api_fail_at == 0) abort();
	for (int calls = 0; !SINEW_IS_NULL(s.world) && calls < FUZZ_API_MAX_CALLS && in.at < in.size; ++calls) {
		fuzz_api_call(&s, &in);
		/* Everything the engine accepted is inside its envelope, so the world stays finite. */
		if (!sinew_world_is_finite(s.world)) {
			fprintf(stderr, "fuzz_api: non-finite state after call %d (byte %zu)\n", calls, in.at);
			abort();
		}
	}
	if (!SINEW_IS_NULL(s.world)) sinew_destroy_world(s.world);
	/* everything given back: the allocator can be changed only when nothing is live */
	if (!sinew_set_allocator(NULL)) abort();
	sinew_set_error_callback(NULL, NULL);
	return 0;
}
