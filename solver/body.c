/* Bodies: creation, destruction, state access, forces and impulses, mass, sleep and enabling.
 * Every public call validates its handle and arguments, reports misuse and changes nothing. */
#include "joint.h"

#include <string.h>

sinew_body_id sinew_make_body_id(const sinew_world *world, int32_t index)
{
	sinew_body_id id = {index + 1, world->index, world->bodies[index].generation};
	return id;
}

sinew_body *sinew_body_lookup(sinew_body_id id, sinew_world **world_out, const char *fn)
{
	*world_out = NULL;
	if (id.index1 <= 0) {
		sinew_report(NULL, NULL, SINEW_ERROR_INVALID_ID, "%s: null body id", fn);
		return NULL;
	}
	sinew_world *w = sinew_world_from_index(id.world0, fn);
	if (w == NULL) return NULL;
	int32_t i = id.index1 - 1;
	if (i >= (int32_t)stbds_arrlen(w->bodies) || !w->bodies[i].in_use || w->bodies[i].generation != id.generation) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ID, "%s: stale body id (index %d, generation %u)", fn, (int)id.index1,
		                  (unsigned)id.generation);
		return NULL;
	}
	*world_out = w;
	return &w->bodies[i];
}

/* Look up the body (reporting on failure) and bail out with `fail`. */
#define BODY_OR(fail, fn)                                     \
	sinew_world *w;                                           \
	sinew_body *b = sinew_body_lookup(body_id, &w, fn);       \
	if (b == NULL) return fail
/* The same, for calls that change the world. */
#define BODY_MUT_OR(fail, fn)                                 \
	BODY_OR(fail, fn);                                        \
	if (!sinew_world_check_unlocked(w, fn)) return fail

static bool check_finite(sinew_world *w, const char *fn, const char *what, float x)
{
	if (sinew_is_finite(x)) return true;
	sinew_world_error(w, SINEW_ERROR_NOT_FINITE, "%s: %s is not finite", fn, what);
	return false;
}

static bool check_nonnegative(sinew_world *w, const char *fn, const char *what, float x)
{
	if (!check_finite(w, fn, what, x)) return false;
	if (x >= 0.0f) return true;
	sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "%s: %s must be >= 0 (got %g)", fn, what, (double)x);
	return false;
}

static bool check_damping(sinew_world *w, const char *fn, const char *what, float x)
{
	return check_nonnegative(w, fn, what, x) && sinew_check_within(w, fn, what, x, SINEW_MAX_HERTZ);
}

static bool check_gravity_scale(sinew_world *w, const char *fn, const char *what, float x)
{
	return sinew_check_within(w, fn, what, x, SINEW_MAX_COEFFICIENT);
}

static bool check_force(sinew_world *w, const char *fn, const char *what, float x)
{
	return sinew_check_within(w, fn, what, x, SINEW_MAX_FORCE);
}

static bool check_force_vec(sinew_world *w, const char *fn, const char *what, sinew_vec2 v)
{
	return sinew_check_within_vec(w, fn, what, v, SINEW_MAX_FORCE);
}

static bool check_point(sinew_world *w, const char *fn, const char *what, sinew_vec2 p)
{
	return sinew_check_within_vec(w, fn, what, p, sinew_world_max_coordinate(w));
}

void sinew_body_sync_transform(sinew_body *b)
{
	b->center = sinew_add(b->xf.p, sinew_rotate(b->xf.q, b->local_center));
}

void sinew_body_wake(sinew_world *world, sinew_body *b)
{
	if (b->type == SINEW_STATIC_BODY) return;
	sinew_body_set_awake_flag(world, b, true);
	b->sleep_time = 0.0f;
}

static bool validate_body_def(sinew_world *w, const sinew_body_def *d)
{
	const char *fn = "sinew_create_body";
	if (d == NULL || d->internal_value != SINEW_DEF_COOKIE) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "%s: the def must come from sinew_default_body_def()", fn);
		return false;
	}
	if ((unsigned)d->type >= SINEW_BODY_TYPE_COUNT) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "%s: unknown body type %d", fn, (int)d->type);
		return false;
	}
	return sinew_check_within_vec(w, fn, "position", d->position, sinew_world_max_coordinate(w)) &&
	       check_finite(w, fn, "angle", d->angle) &&
	       sinew_check_within_vec(w, fn, "linear_velocity", d->linear_velocity, sinew_world_max_speed(w)) &&
	       sinew_check_within(w, fn, "angular_velocity", d->angular_velocity, SINEW_MAX_ANGULAR_SPEED) &&
	       check_damping(w, fn, "linear_damping", d->linear_damping) &&
	       check_damping(w, fn, "angular_damping", d->angular_damping) &&
	       check_gravity_scale(w, fn, "gravity_scale", d->gravity_scale) &&
	       check_nonnegative(w, fn, "sleep_threshold", d->sleep_threshold);
}

sinew_body_id sinew_create_body(sinew_world_id world_id, const sinew_body_def *def)
{
	sinew_world *w = sinew_world_get(world_id, "sinew_create_body");
	if (w == NULL || !sinew_world_check_unlocked(w, "sinew_create_body")) return sinew_null_body_id;
	if (!validate_body_def(w, def)) return sinew_null_body_id;
	if (stbds_arrlen(w->bodies) >= INT32_MAX - 1) {
		sinew_world_error(w, SINEW_ERROR_CAPACITY, "sinew_create_body: too many bodies");
		return sinew_null_body_id;
	}
	if (!sinew_world_can_create(w, "sinew_create_body")) return sinew_null_body_id;
	/* room first, so running out of memory changes nothing */
	if (!SINEW_RESERVE(w->bodies, stbds_arrlen(w->bodies) + 1) ||
	    !SINEW_RESERVE(w->body_order, stbds_arrlen(w->body_order) + 1) ||
	    !sinew_index_set_reserve(&w->awake_set, (int32_t)stbds_arrlen(w->bodies) + 1)) {
		sinew_world_error(w, SINEW_ERROR_OUT_OF_MEMORY, "sinew_create_body: out of memory");
		return sinew_null_body_id;
	}
	uint32_t generation = sinew_world_next_generation(w);
	int32_t index;
	if (w->body_free != SINEW_NULL_INDEX) {
		index = w->body_free;
		w->body_free = w->bodies[index].next_free;
	} else {
		index = (int32_t)stbds_arrlen(w->bodies);
		sinew_body blank;
		memset(&blank, 0, sizeof blank);
		stbds_arrput(w->bodies, blank);
	}
	sinew_body *b = &w->bodies[index];
	memset(b, 0, sizeof *b);
	b->generation = generation;
	b->in_use = true;
	b->type = (uint8_t)def->type;
	b->xf = sinew_make_transform(def->position, def->angle);
	b->q0 = b->xf.q;
	b->center = b->center0 = def->position;
	if (def->type != SINEW_STATIC_BODY) {
		b->v = def->linear_velocity;
		b->w = def->fixed_rotation ? 0.0f : def->angular_velocity;
	}
	b->linear_damping = def->linear_damping;
	b->angular_damping = def->angular_damping;
	b->gravity_scale = def->gravity_scale;
	b->sleep_threshold = def->sleep_threshold;
	b->user_data = def->user_data;
	b->can_sleep = def->can_sleep;
	b->awake = def->type != SINEW_STATIC_BODY && (def->is_awake || !def->can_sleep);
	b->enabled = def->is_enabled;
	b->fixed_rotation = def->fixed_rotation;
	b->bullet = def->is_bullet;
	b->shape_list = b->contact_list = b->joint_list = SINEW_NULL_INDEX;
	b->creation_seq = w->next_creation_seq++;
	b->island_mark = -1;
	b->velocity_set = true;
	sinew_body_update_mass(w, b);
	sinew_awake_sync_body(w, index);
	stbds_arrput(w->body_order, index);
	w->body_count += 1;
	return sinew_make_body_id(w, index);
}

static void remove_from_order(sinew_world *w, int32_t index)
{
	int n = (int)stbds_arrlen(w->body_order);
	for (int i = n - 1; i >= 0; --i) {
		if (w->body_order[i] == index) {
			w->body_order[i] = -1;
			w->body_order_dead += 1;
			break;
		}
	}
	if (w->body_order_dead * 2 > n) { /* compact, keeping creation order */
		int k = 0;
		for (int i = 0; i < n; ++i)
			if (w->body_order[i] >= 0) w->body_order[k++] = w->body_order[i];
		stbds_arrsetlen(w->body_order, k);
		w->body_order_dead = 0;
	}
}

void sinew_body_destroy_contacts(sinew_world *w, sinew_body *b)
{
	while (b->contact_list != SINEW_NULL_INDEX) sinew_contact_destroy(w, b->contact_list, false);
}

bool sinew_destroy_body(sinew_body_id body_id)
{
	BODY_MUT_OR(false, "sinew_destroy_body");
	int32_t index = body_id.index1 - 1;
	while (b->joint_list != SINEW_NULL_INDEX) sinew_joint_destroy_internal(w, b->joint_list);
	sinew_body_destroy_contacts(w, b);
	int32_t s = b->shape_list;
	while (s != SINEW_NULL_INDEX) {
		sinew_shape *shape = &w->shapes[s];
		int32_t next = shape->next;
		sinew_shape_destroy_proxy(w, shape);
		shape->in_use = false;
		shape->generation += 1;
		shape->next = w->shape_free;
		w->shape_free = s;
		w->shape_count -= 1;
		s = next;
	}
	remove_from_order(w, index);
	uint32_t generation = b->generation;
	memset(b, 0, sizeof *b);
	sinew_awake_sync_body(w, index);
	b->generation = generation;
	b->next_free = w->body_free;
	w->body_free = index;
	w->body_count -= 1;
	return true;
}

bool sinew_body_is_valid(sinew_body_id id)
{
	sinew_world *w = id.index1 > 0 ? sinew_world_peek(id.world0) : NULL;
	if (w == NULL) return false;
	int32_t i = id.index1 - 1;
	return i < (int32_t)stbds_arrlen(w->bodies) && w->bodies[i].in_use && w->bodies[i].generation == id.generation;
}

/* The velocity a reader sees: the solver's, plus the half substep it lags by. */
static sinew_vec2 true_linear_velocity(const sinew_body *b)
{
	return b->velocity_set ? b->v : sinew_add(b->v, b->v_half);
}

static float true_angular_velocity(const sinew_body *b)
{
	return b->velocity_set ? b->w : b->w + b->w_half;
}

/* Store true velocities, to be shifted at the next step (after the user sets one of them). */
static void make_velocity_true(sinew_body *b)
{
	b->v = true_linear_velocity(b);
	b->w = true_angular_velocity(b);
	b->v_half = sinew_v2(0.0f, 0.0f);
	b->w_half = 0.0f;
	b->velocity_set = true;
}

sinew_world_id sinew_body_get_world(sinew_body_id body_id)
{
	BODY_OR(sinew_null_world_id, "sinew_body_get_world");
	return sinew_make_world_id(w);
}

sinew_body_type sinew_body_get_type(sinew_body_id body_id)
{
	BODY_OR(SINEW_STATIC_BODY, "sinew_body_get_type");
	return (sinew_body_type)b->type;
}

/* Shapes go to the tree of their body's type; a type change or enabling moves them. */
static void recreate_proxies(sinew_world *w, sinew_body *b, bool create)
{
	for (int32_t s = b->shape_list; s != SINEW_NULL_INDEX; s = w->shapes[s].next) {
		sinew_shape_destroy_proxy(w, &w->shapes[s]);
		if (create) sinew_shape_create_proxy(w, &w->shapes[s], b);
	}
}

static bool set_type_unguarded(sinew_body_id body_id, sinew_body_type type)
{
	BODY_MUT_OR(false, "sinew_body_set_type");
	if ((unsigned)type >= SINEW_BODY_TYPE_COUNT) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "sinew_body_set_type: unknown body type %d", (int)type);
		return false;
	}
	if (b->type == type) return true;
	sinew_body_destroy_contacts(w, b);
	b->type = (uint8_t)type;
	make_velocity_true(b);
	if (type == SINEW_STATIC_BODY) {
		b->v = sinew_v2(0.0f, 0.0f);
		b->w = 0.0f;
		sinew_body_set_awake_flag(w, b, false);
	} else {
		sinew_body_wake(w, b);
	}
	b->force = sinew_v2(0.0f, 0.0f);
	b->torque = 0.0f;
	sinew_body_update_mass(w, b);
	if (b->enabled) recreate_proxies(w, b, true);
	return true;
}

sinew_vec2 sinew_body_get_position(sinew_body_id body_id)
{
	BODY_OR(sinew_v2(0.0f, 0.0f), "sinew_body_get_position");
	return b->xf.p;
}

float sinew_body_get_angle(sinew_body_id body_id)
{
	BODY_OR(0.0f, "sinew_body_get_angle");
	return sinew_rot_angle(b->xf.q);
}

sinew_rot sinew_body_get_rotation(sinew_body_id body_id)
{
	BODY_OR(sinew_rot_identity(), "sinew_body_get_rotation");
	return b->xf.q;
}

sinew_transform sinew_body_get_transform(sinew_body_id body_id)
{
	BODY_OR(sinew_transform_identity(), "sinew_body_get_transform");
	return b->xf;
}

/* Would every shape's fat box be finite at xf? A finite position far enough out overflows it, and
 * the broadphase cannot store such a box. */
static bool boxes_fit(sinew_world *w, const sinew_body *b, sinew_transform xf, const char *fn)
{
	sinew_vec2 margin = sinew_v2(w->aabb_margin, w->aabb_margin);
	for (int32_t si = b->shape_list; si != SINEW_NULL_INDEX; si = w->shapes[si].next) {
		sinew_aabb box = sinew_compute_aabb(&w->shapes[si].geom, xf);
		if (sinew_vec2_is_valid(sinew_sub(box.lower, margin)) && sinew_vec2_is_valid(sinew_add(box.upper, margin)))
			continue;
		sinew_world_error(w, SINEW_ERROR_NOT_FINITE,
		                  "%s: at (%g, %g) the body's shapes would have a box beyond the largest float", fn,
		                  (double)xf.p.x, (double)xf.p.y);
		return false;
	}
	return true;
}

static bool set_transform(sinew_world *w, sinew_body *b, sinew_vec2 position, sinew_rot q, const char *fn)
{
	sinew_transform xf = {position, q};
	if (!boxes_fit(w, b, xf, fn)) return false;
	b->xf.p = position;
	b->xf.q = q;
	b->q0 = q;
	sinew_body_sync_transform(b);
	b->center0 = b->center;
	sinew_body_wake(w, b);
	if (b->enabled) sinew_broadphase_refresh_body(w, b, true);
	return true;
}

bool sinew_body_set_transform(sinew_body_id body_id, sinew_vec2 position, float angle)
{
	BODY_MUT_OR(false, "sinew_body_set_transform");
	if (!check_point(w, "sinew_body_set_transform", "position", position) ||
	    !check_finite(w, "sinew_body_set_transform", "angle", angle))
		return false;
	return set_transform(w, b, position, sinew_make_rot(angle), "sinew_body_set_transform");
}

bool sinew_body_set_rotation(sinew_body_id body_id, sinew_rot rotation)
{
	BODY_MUT_OR(false, "sinew_body_set_rotation");
	if (!sinew_rot_is_valid(rotation)) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "sinew_body_set_rotation: expected a unit (cos, sin)");
		return false;
	}
	return set_transform(w, b, b->xf.p, rotation, "sinew_body_set_rotation");
}

bool sinew_body_set_position(sinew_body_id body_id, sinew_vec2 position)
{
	BODY_MUT_OR(false, "sinew_body_set_position");
	if (!check_point(w, "sinew_body_set_position", "position", position)) return false;
	return set_transform(w, b, position, b->xf.q, "sinew_body_set_position");
}

bool sinew_body_set_angle(sinew_body_id body_id, float angle)
{
	BODY_MUT_OR(false, "sinew_body_set_angle");
	if (!check_finite(w, "sinew_body_set_angle", "angle", angle)) return false;
	return set_transform(w, b, b->xf.p, sinew_make_rot(angle), "sinew_body_set_angle");
}

sinew_vec2 sinew_body_get_world_center(sinew_body_id body_id)
{
	BODY_OR(sinew_v2(0.0f, 0.0f), "sinew_body_get_world_center");
	return b->center;
}

sinew_vec2 sinew_body_get_local_center(sinew_body_id body_id)
{
	BODY_OR(sinew_v2(0.0f, 0.0f), "sinew_body_get_local_center");
	return b->local_center;
}

sinew_vec2 sinew_body_get_world_point(sinew_body_id body_id, sinew_vec2 p)
{
	BODY_OR(p, "sinew_body_get_world_point");
	return sinew_transform_point(b->xf, p);
}

sinew_vec2 sinew_body_get_local_point(sinew_body_id body_id, sinew_vec2 p)
{
	BODY_OR(p, "sinew_body_get_local_point");
	return sinew_inv_transform_point(b->xf, p);
}

sinew_vec2 sinew_body_get_world_vector(sinew_body_id body_id, sinew_vec2 v)
{
	BODY_OR(v, "sinew_body_get_world_vector");
	return sinew_rotate(b->xf.q, v);
}

sinew_vec2 sinew_body_get_local_vector(sinew_body_id body_id, sinew_vec2 v)
{
	BODY_OR(v, "sinew_body_get_local_vector");
	return sinew_inv_rotate(b->xf.q, v);
}

sinew_vec2 sinew_body_get_linear_velocity(sinew_body_id body_id)
{
	BODY_OR(sinew_v2(0.0f, 0.0f), "sinew_body_get_linear_velocity");
	return true_linear_velocity(b);
}

float sinew_body_get_angular_velocity(sinew_body_id body_id)
{
	BODY_OR(0.0f, "sinew_body_get_angular_velocity");
	return true_angular_velocity(b);
}

bool sinew_body_set_linear_velocity(sinew_body_id body_id, sinew_vec2 v)
{
	BODY_MUT_OR(false, "sinew_body_set_linear_velocity");
	if (!sinew_check_within_vec(w, "sinew_body_set_linear_velocity", "velocity", v, sinew_world_max_speed(w)))
		return false;
	if (b->type == SINEW_STATIC_BODY) return true;
	if (sinew_dot(v, v) > 0.0f) sinew_body_wake(w, b);
	make_velocity_true(b);
	b->v = v;
	return true;
}

bool sinew_body_set_angular_velocity(sinew_body_id body_id, float omega)
{
	BODY_MUT_OR(false, "sinew_body_set_angular_velocity");
	if (!sinew_check_within(w, "sinew_body_set_angular_velocity", "omega", omega, SINEW_MAX_ANGULAR_SPEED)) return false;
	if (b->type == SINEW_STATIC_BODY || b->fixed_rotation) return true;
	if (omega != 0.0f) sinew_body_wake(w, b);
	make_velocity_true(b);
	b->w = omega;
	return true;
}

sinew_vec2 sinew_body_get_point_velocity(sinew_body_id body_id, sinew_vec2 point)
{
	BODY_OR(sinew_v2(0.0f, 0.0f), "sinew_body_get_point_velocity");
	return sinew_add(true_linear_velocity(b), sinew_cross_sv(true_angular_velocity(b), sinew_sub(point, b->center)));
}

bool sinew_body_move_to(sinew_body_id body_id, sinew_transform target, float dt)
{
	const char *fn = "sinew_body_move_to";
	BODY_MUT_OR(false, fn);
	if (b->type != SINEW_KINEMATIC_BODY) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "%s: only kinematic bodies are moved to a target", fn);
		return false;
	}
	if (!check_point(w, fn, "target position", target.p) || !check_finite(w, fn, "target rotation", target.q.c) ||
	    !check_finite(w, fn, "target rotation", target.q.s) || !check_finite(w, fn, "dt", dt))
		return false;
	if (!sinew_rot_is_valid(target.q)) { /* as sinew_body_set_rotation: {0, 0} has no angle */
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "%s: expected a unit (cos, sin) target rotation", fn);
		return false;
	}
	if (dt < SINEW_MIN_STEP) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "%s: dt of %g is below the engine's limit of %g s", fn,
		                  (double)dt, (double)SINEW_MIN_STEP);
		return false;
	}
	float inv_dt = 1.0f / dt;
	sinew_vec2 target_center = sinew_transform_point(target, b->local_center);
	sinew_vec2 v = sinew_scale(inv_dt, sinew_sub(target_center, b->center));
	float omega = b->fixed_rotation ? 0.0f : sinew_relative_angle(b->xf.q, target.q) * inv_dt;
	if (!sinew_check_within_vec(w, fn, "the velocity to reach the target", v, sinew_world_max_speed(w)) ||
	    !sinew_check_within(w, fn, "the angular velocity to reach the target", omega, SINEW_MAX_ANGULAR_SPEED))
		return false;
	make_velocity_true(b);
	b->v = v;
	b->w = omega;
	sinew_body_wake(w, b);
	return true;
}

static bool apply_force(sinew_world *w, sinew_body *b, sinew_vec2 force, sinew_vec2 point, bool at_center, bool wake,
                        const char *fn)
{
	if (!check_force_vec(w, fn, "force", force) || !check_point(w, fn, "point", point)) return false;
	if (b->type != SINEW_DYNAMIC_BODY) return true;
	if (wake) sinew_body_wake(w, b);
	if (!b->awake) return true;
	b->force = sinew_add(b->force, force);
	if (!at_center) b->torque += sinew_cross(sinew_sub(point, b->center), force);
	return true;
}

bool sinew_body_apply_force(sinew_body_id body_id, sinew_vec2 force, sinew_vec2 point, bool wake)
{
	BODY_MUT_OR(false, "sinew_body_apply_force");
	return apply_force(w, b, force, point, false, wake, "sinew_body_apply_force");
}

bool sinew_body_apply_force_to_center(sinew_body_id body_id, sinew_vec2 force, bool wake)
{
	BODY_MUT_OR(false, "sinew_body_apply_force_to_center");
	return apply_force(w, b, force, b->center, true, wake, "sinew_body_apply_force_to_center");
}

bool sinew_body_apply_torque(sinew_body_id body_id, float torque, bool wake)
{
	BODY_MUT_OR(false, "sinew_body_apply_torque");
	if (!check_force(w, "sinew_body_apply_torque", "torque", torque)) return false;
	if (b->type != SINEW_DYNAMIC_BODY) return true;
	if (wake) sinew_body_wake(w, b);
	if (b->awake) b->torque += torque;
	return true;
}

static bool apply_impulse(sinew_world *w, sinew_body *b, sinew_vec2 impulse, sinew_vec2 point, bool at_center, bool wake,
                          const char *fn)
{
	if (!check_force_vec(w, fn, "impulse", impulse) || !check_point(w, fn, "point", point)) return false;
	if (b->type != SINEW_DYNAMIC_BODY) return true;
	if (wake) sinew_body_wake(w, b);
	if (!b->awake) return true;
	b->v = sinew_mul_add(b->v, b->inv_mass, impulse);
	if (!at_center) b->w += b->inv_inertia * sinew_cross(sinew_sub(point, b->center), impulse);
	return true;
}

bool sinew_body_apply_linear_impulse(sinew_body_id body_id, sinew_vec2 impulse, sinew_vec2 point, bool wake)
{
	BODY_MUT_OR(false, "sinew_body_apply_linear_impulse");
	return apply_impulse(w, b, impulse, point, false, wake, "sinew_body_apply_linear_impulse");
}

bool sinew_body_apply_linear_impulse_to_center(sinew_body_id body_id, sinew_vec2 impulse, bool wake)
{
	BODY_MUT_OR(false, "sinew_body_apply_linear_impulse_to_center");
	return apply_impulse(w, b, impulse, b->center, true, wake, "sinew_body_apply_linear_impulse_to_center");
}

bool sinew_body_apply_angular_impulse(sinew_body_id body_id, float impulse, bool wake)
{
	BODY_MUT_OR(false, "sinew_body_apply_angular_impulse");
	if (!check_force(w, "sinew_body_apply_angular_impulse", "impulse", impulse)) return false;
	if (b->type != SINEW_DYNAMIC_BODY) return true;
	if (wake) sinew_body_wake(w, b);
	if (b->awake) b->w += b->inv_inertia * impulse;
	return true;
}

/* The half-thickness of the body's thinnest part (a radius, or a polygon's centroid-to-edge
 * distance): moving less than a quarter of it per step cannot carry the body through anything
 * (continuous.c). */
static float thinnest(const sinew_world *w, const sinew_body *b)
{
	float t = SINEW_HUGE;
	for (int32_t si = b->shape_list; si != SINEW_NULL_INDEX; si = w->shapes[si].next) {
		const sinew_shape *s = &w->shapes[si];
		if (s->sensor) continue;
		const sinew_geometry *g = &s->geom;
		switch (g->type) {
		case SINEW_SHAPE_CIRCLE: t = sinew_minf(t, g->u.circle.radius); break;
		case SINEW_SHAPE_CAPSULE: t = sinew_minf(t, g->u.capsule.radius); break;
		case SINEW_SHAPE_POLYGON: {
			const sinew_polygon *p = &g->u.polygon;
			for (int i = 0; i < p->count; ++i) { /* distance from the centroid to each edge */
				float d = sinew_dot(p->normals[i], sinew_sub(p->vertices[i], p->centroid));
				t = sinew_minf(t, d + p->radius);
			}
			break;
		}
		case SINEW_SHAPE_TYPE_COUNT: break;
		}
	}
	return t;
}

/* Mass from the shapes (unless overridden), the centre of mass moved accordingly, and the
 * largest extent from the centre used by sleep and continuous collision, and the thinnest part
 * continuous collision's test reads (every change of the shapes comes here). */
void sinew_body_update_mass(sinew_world *w, sinew_body *b)
{
	sinew_vec2 old_center = b->center;
	if (!b->mass_overridden) {
		b->mass = b->inertia = 0.0f;
		b->local_center = sinew_v2(0.0f, 0.0f);
		if (b->type == SINEW_DYNAMIC_BODY) {
			sinew_mass_data total = {0.0f, {0.0f, 0.0f}, 0.0f};
			for (int32_t s = b->shape_list; s != SINEW_NULL_INDEX; s = w->shapes[s].next) {
				const sinew_shape *shape = &w->shapes[s];
				if (shape->density == 0.0f) continue;
				sinew_mass_data m = sinew_compute_mass(&shape->geom, shape->density);
				sinew_mass_data pair[2] = {total, m};
				total = sinew_combine_mass(pair, 2);
			}
			b->mass = total.mass;
			b->inertia = total.rotational_inertia;
			b->local_center = total.center;
		}
	}
	if (b->type == SINEW_DYNAMIC_BODY) {
		/* A dynamic body always has mass: a body without shapes weighs 1. So does one whose shapes'
		 * mass underflows to 0 (a subnormal radius), whose centroid is then 0/0. */
		bool center_finite = sinew_is_finite(b->local_center.x) && sinew_is_finite(b->local_center.y);
		if (b->mass <= 0.0f || !center_finite) {
			b->mass = 1.0f;
			b->inertia = 0.0f;
			if (!center_finite) b->local_center = sinew_v2(0.0f, 0.0f);
		}
		/* The envelope's floor, the reciprocal of its largest mass: a subnormal mass or inertia
		 * (a tiny shape of a tiny density) would make an infinite inverse. */
		const float min_mass = 1.0f / SINEW_MAX_MASS;
		if (b->mass < min_mass) b->mass = min_mass;
		if (b->inertia > 0.0f && b->inertia < min_mass) b->inertia = min_mass;
		b->inv_mass = 1.0f / b->mass;
		b->inv_inertia = (b->inertia > 0.0f && !b->fixed_rotation) ? 1.0f / b->inertia : 0.0f;
	} else {
		b->inv_mass = b->inv_inertia = 0.0f;
	}
	sinew_body_sync_transform(b);
	b->center0 = b->center;
	/* keep the velocity of the origin when the centre of mass moves */
	b->v = sinew_add(b->v, sinew_cross_sv(b->w, sinew_sub(b->center, old_center)));
	float extent = 0.0f;
	for (int32_t s = b->shape_list; s != SINEW_NULL_INDEX; s = w->shapes[s].next)
		extent = sinew_maxf(extent, sinew_geometry_extent(&w->shapes[s].geom, b->local_center));
	b->max_extent = extent;
	b->origin_extent = extent + sinew_length(b->local_center);
	b->thinnest = thinnest(w, b);
}

float sinew_body_get_mass(sinew_body_id body_id)
{
	BODY_OR(0.0f, "sinew_body_get_mass");
	return b->mass;
}

float sinew_body_get_rotational_inertia(sinew_body_id body_id)
{
	BODY_OR(0.0f, "sinew_body_get_rotational_inertia");
	return b->inertia;
}

sinew_mass_data sinew_body_get_mass_data(sinew_body_id body_id)
{
	sinew_mass_data m = {0.0f, {0.0f, 0.0f}, 0.0f};
	BODY_OR(m, "sinew_body_get_mass_data");
	m.mass = b->mass;
	m.center = b->local_center;
	m.rotational_inertia = b->inertia;
	return m;
}

bool sinew_body_set_mass_data(sinew_body_id body_id, sinew_mass_data m)
{
	const char *fn = "sinew_body_set_mass_data";
	BODY_MUT_OR(false, fn);
	float size = sinew_world_max_size(w);
	if (!sinew_check_within(w, fn, "mass", m.mass, SINEW_MAX_MASS) ||
	    !sinew_check_within_vec(w, fn, "center", m.center, size) ||
	    !sinew_check_within(w, fn, "rotational_inertia", m.rotational_inertia, SINEW_MAX_MASS * size * size))
		return false;
	if (m.mass <= 0.0f || m.rotational_inertia < 0.0f) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "%s: mass must be > 0 and rotational_inertia >= 0", fn);
		return false;
	}
	const float min_mass = 1.0f / SINEW_MAX_MASS;
	if (m.mass < min_mass || (m.rotational_inertia > 0.0f && m.rotational_inertia < min_mass)) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT,
		                  "%s: mass %g or rotational_inertia %g is below the envelope's smallest, %g (0 inertia is fine)", fn,
		                  (double)m.mass, (double)m.rotational_inertia, (double)min_mass);
		return false;
	}
	if (b->type != SINEW_DYNAMIC_BODY) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "%s: only dynamic bodies have mass", fn);
		return false;
	}
	b->mass_overridden = true;
	b->mass = m.mass;
	b->inertia = m.rotational_inertia;
	b->local_center = m.center;
	sinew_body_update_mass(w, b);
	return true;
}

bool sinew_body_is_mass_overridden(sinew_body_id body_id)
{
	BODY_OR(false, "sinew_body_is_mass_overridden");
	return b->mass_overridden;
}

bool sinew_body_apply_mass_from_shapes(sinew_body_id body_id)
{
	BODY_MUT_OR(false, "sinew_body_apply_mass_from_shapes");
	b->mass_overridden = false;
	sinew_body_update_mass(w, b);
	return true;
}

/* Setters of one non-negative / finite float field. */
#define FLOAT_SETTER(name, field, check)                                                                               \
	bool sinew_body_set_##name(sinew_body_id body_id, float value)                                                    \
	{                                                                                                                  \
		BODY_MUT_OR(false, "sinew_body_set_" #name);                                                                   \
		if (!check(w, "sinew_body_set_" #name, #name, value)) return false;                                            \
		b->field = value;                                                                                              \
		return true;                                                                                                   \
	}                                                                                                                  \
	float sinew_body_get_##name(sinew_body_id body_id)                                                                \
	{                                                                                                                  \
		BODY_OR(0.0f, "sinew_body_get_" #name);                                                                        \
		return b->field;                                                                                               \
	}

FLOAT_SETTER(linear_damping, linear_damping, check_damping)
FLOAT_SETTER(angular_damping, angular_damping, check_damping)
FLOAT_SETTER(gravity_scale, gravity_scale, check_gravity_scale)
FLOAT_SETTER(sleep_threshold, sleep_threshold, check_nonnegative)

bool sinew_body_set_fixed_rotation(sinew_body_id body_id, bool flag)
{
	BODY_MUT_OR(false, "sinew_body_set_fixed_rotation");
	b->fixed_rotation = flag;
	if (flag) b->w = b->w_half = 0.0f;
	sinew_body_update_mass(w, b);
	sinew_body_wake(w, b);
	return true;
}

bool sinew_body_is_fixed_rotation(sinew_body_id body_id)
{
	BODY_OR(false, "sinew_body_is_fixed_rotation");
	return b->fixed_rotation;
}

bool sinew_body_set_bullet(sinew_body_id body_id, bool flag)
{
	BODY_MUT_OR(false, "sinew_body_set_bullet");
	b->bullet = flag;
	return true;
}

bool sinew_body_is_bullet(sinew_body_id body_id)
{
	BODY_OR(false, "sinew_body_is_bullet");
	return b->bullet;
}

bool sinew_body_set_awake(sinew_body_id body_id, bool awake)
{
	BODY_MUT_OR(false, "sinew_body_set_awake");
	if (b->type == SINEW_STATIC_BODY || !b->enabled) return true;
	if (awake) {
		sinew_body_wake(w, b);
		return true;
	}
	/* the island walk lists at most every body once: room for that first, so a failure leaves
	 * the island as it was */
	size_t bodies = (size_t)stbds_arrlen(w->bodies);
	if (!SINEW_RESERVE(w->island_stack, bodies) || !SINEW_RESERVE(w->island_bodies, bodies)) {
		sinew_world_error(w, SINEW_ERROR_OUT_OF_MEMORY, "sinew_body_set_awake: out of memory");
		return false;
	}
	sinew_island_set_asleep(w, b);
	return true;
}

bool sinew_body_is_awake(sinew_body_id body_id)
{
	BODY_OR(false, "sinew_body_is_awake");
	return b->awake;
}

bool sinew_body_enable_sleep(sinew_body_id body_id, bool flag)
{
	BODY_MUT_OR(false, "sinew_body_enable_sleep");
	b->can_sleep = flag;
	if (!flag) sinew_body_wake(w, b);
	return true;
}

bool sinew_body_is_sleep_enabled(sinew_body_id body_id)
{
	BODY_OR(false, "sinew_body_is_sleep_enabled");
	return b->can_sleep;
}

bool sinew_body_disable(sinew_body_id body_id)
{
	BODY_MUT_OR(false, "sinew_body_disable");
	if (!b->enabled) return true;
	sinew_body_destroy_contacts(w, b);
	recreate_proxies(w, b, false);
	b->enabled = false;
	sinew_awake_sync_body(w, body_id.index1 - 1);
	return true;
}

static bool enable_unguarded(sinew_body_id body_id)
{
	BODY_MUT_OR(false, "sinew_body_enable");
	if (b->enabled) return true;
	b->enabled = true;
	recreate_proxies(w, b, true);
	sinew_body_wake(w, b);
	return true;
}

bool sinew_body_is_enabled(sinew_body_id body_id)
{
	BODY_OR(false, "sinew_body_is_enabled");
	return b->enabled;
}

bool sinew_body_set_user_data(sinew_body_id body_id, void *user_data)
{
	BODY_OR(false, "sinew_body_set_user_data");
	b->user_data = user_data;
	return true;
}

void *sinew_body_get_user_data(sinew_body_id body_id)
{
	BODY_OR(NULL, "sinew_body_get_user_data");
	return b->user_data;
}

int sinew_body_get_shape_count(sinew_body_id body_id)
{
	BODY_OR(0, "sinew_body_get_shape_count");
	return b->shape_count;
}

int sinew_body_get_shapes(sinew_body_id body_id, sinew_shape_id *shapes, int capacity)
{
	BODY_OR(0, "sinew_body_get_shapes");
	if (shapes == NULL || capacity < 0) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "sinew_body_get_shapes: no room to write into");
		return 0;
	}
	/* The list is newest first; hand them out in creation order. */
	int n = 0;
	for (int32_t s = b->shape_list; s != SINEW_NULL_INDEX; s = w->shapes[s].next) n += 1;
	int skip = n > capacity ? n - capacity : 0, k = 0, i = 0;
	int count = n - skip;
	for (int32_t s = b->shape_list; s != SINEW_NULL_INDEX; s = w->shapes[s].next, ++i) {
		if (i < skip) continue;
		shapes[count - 1 - k] = sinew_make_shape_id(w, s);
		k += 1;
	}
	return count;
}

int sinew_body_get_contact_count(sinew_body_id body_id)
{
	BODY_OR(0, "sinew_body_get_contact_count");
	int32_t bi = body_id.index1 - 1, n = 0;
	for (int32_t c = b->contact_list; c != SINEW_NULL_INDEX;) {
		const sinew_contact *contact = &w->contacts[c];
		int e = sinew_contact_edge_of(contact, bi);
		if ((contact->flags & SINEW_CONTACT_TOUCHING) && !(contact->flags & SINEW_CONTACT_SENSOR)) n += 1;
		c = contact->edges[e].next;
	}
	return n;
}

int sinew_body_get_contacts(sinew_body_id body_id, sinew_body_contact *out, int capacity)
{
	BODY_OR(0, "sinew_body_get_contacts");
	if (out == NULL || capacity < 0) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "sinew_body_get_contacts: no room to write into");
		return 0;
	}
	int32_t bi = body_id.index1 - 1;
	int n = 0;
	for (int32_t c = b->contact_list; c != SINEW_NULL_INDEX && n < capacity;) {
		const sinew_contact *contact = &w->contacts[c];
		int e = sinew_contact_edge_of(contact, bi); /* this body's edge */
		c = contact->edges[e].next;
		if (!(contact->flags & SINEW_CONTACT_TOUCHING) || (contact->flags & SINEW_CONTACT_SENSOR)) continue;
		const sinew_manifold *m = &contact->manifold;
		int32_t mine = e == 0 ? contact->shape_a : contact->shape_b;
		int32_t other = e == 0 ? contact->shape_b : contact->shape_a;
		sinew_body_contact *bc = &out[n++];
		bc->shape = sinew_make_shape_id(w, mine);
		bc->other_shape = sinew_make_shape_id(w, other);
		bc->other_body = sinew_make_body_id(w, w->shapes[other].body);
		/* the manifold normal points from A to B; this body wants it pointing at itself */
		bc->normal = e == 1 ? m->normal : sinew_neg(m->normal);
		int deepest = (m->point_count == 2 && m->points[1].separation < m->points[0].separation) ? 1 : 0;
		bc->point = m->points[deepest].point;
		bc->separation = m->points[deepest].separation;
		bc->normal_impulse = 0.0f;
		for (int i = 0; i < m->point_count; ++i) bc->normal_impulse += m->points[i].normal_impulse;
		bc->point_count = m->point_count;
	}
	return n;
}

int sinew_body_get_contact_data(sinew_body_id body_id, sinew_contact_data *out, int capacity)
{
	BODY_OR(0, "sinew_body_get_contact_data");
	if (out == NULL || capacity < 0) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "sinew_body_get_contact_data: no room to write into");
		return 0;
	}
	int32_t bi = body_id.index1 - 1;
	int n = 0;
	for (int32_t c = b->contact_list; c != SINEW_NULL_INDEX && n < capacity;) {
		const sinew_contact *contact = &w->contacts[c];
		int e = sinew_contact_edge_of(contact, bi);
		c = contact->edges[e].next;
		if (!(contact->flags & SINEW_CONTACT_TOUCHING) || (contact->flags & SINEW_CONTACT_SENSOR)) continue;
		out[n].shape_a = sinew_make_shape_id(w, contact->shape_a);
		out[n].shape_b = sinew_make_shape_id(w, contact->shape_b);
		out[n].manifold = contact->manifold;
		n += 1;
	}
	return n;
}

sinew_aabb sinew_body_compute_aabb(sinew_body_id body_id)
{
	sinew_aabb box = {{0.0f, 0.0f}, {0.0f, 0.0f}};
	BODY_OR(box, "sinew_body_compute_aabb");
	bool first = true;
	for (int32_t s = b->shape_list; s != SINEW_NULL_INDEX; s = w->shapes[s].next) {
		sinew_aabb a = sinew_compute_aabb(&w->shapes[s].geom, b->xf);
		box = first ? a : sinew_aabb_union(box, a);
		first = false;
	}
	if (first) box.lower = box.upper = b->xf.p;
	return box;
}

/* Both may create tree proxies, and the tree may have to grow (core.h, sinew_oom_guard). */
SINEW_GUARDED(, bool, sinew_body_set_type, (sinew_body_id body_id, sinew_body_type type), set_type_unguarded(body_id, type),
              body_id.world0, false)
SINEW_GUARDED(, bool, sinew_body_enable, (sinew_body_id body_id), enable_unguarded(body_id), body_id.world0, false)
