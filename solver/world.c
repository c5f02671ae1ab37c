/* Worlds: the registry of live worlds, creation and destruction, the order of one step, the
 * state hash, counters, events and world settings. */
#include "joint.h"

#include <math.h>
#include <string.h>

static sinew_world *s_worlds[SINEW_MAX_WORLDS];
/* Per slot, for the life of the process: worlds made in the slot, and generations handed to its
 * bodies, shapes and joints. Neither is reset when a world is destroyed, so no handle of a dead
 * world matches an object of a later one; a slot whose counters are spent is never used again. */
static uint32_t s_world_generations[SINEW_MAX_WORLDS];
static uint32_t s_object_generations[SINEW_MAX_WORLDS];

sinew_world_def sinew_default_world_def(void)
{
	sinew_world_def d;
	memset(&d, 0, sizeof d);
	d.gravity = sinew_v2(0.0f, -10.0f);
	d.length_units_per_meter = 1.0f;
	d.contact_hertz = 60.0f;
	d.contact_damping_ratio = 10.0f;
	d.contact_push_max_speed = 3.0f;
	d.restitution_threshold = 1.0f;
	d.joint_hertz = 60.0f;
	d.joint_damping_ratio = 2.0f;
	d.maximum_linear_speed = 400.0f;
	d.enable_sleep = true;
	d.enable_continuous = true;
	d.internal_value = SINEW_DEF_COOKIE;
	return d;
}

sinew_body_def sinew_default_body_def(void)
{
	sinew_body_def d;
	memset(&d, 0, sizeof d);
	d.type = SINEW_STATIC_BODY;
	d.gravity_scale = 1.0f;
	d.sleep_threshold = 0.05f;
	d.can_sleep = true;
	d.is_awake = true;
	d.is_enabled = true;
	d.internal_value = SINEW_DEF_COOKIE;
	return d;
}

sinew_shape_def sinew_default_shape_def(void)
{
	sinew_shape_def d;
	memset(&d, 0, sizeof d);
	d.density = 1.0f;
	d.friction = 0.6f;
	d.layer = 1;
	d.mask = 1;
	d.enable_contact_events = true;
	d.enable_sensor_events = true;
	d.update_body_mass = true;
	d.internal_value = SINEW_DEF_COOKIE;
	return d;
}

void sinew_world_error(sinew_world *world, sinew_error code, const char *format, ...)
{
	va_list args;
	va_start(args, format);
	if (world != NULL) {
		/* The handler may call back into the world; the operation that reports may be half done,
		 * so the world is locked while the handler runs (reads are fine, changes are refused). */
		const char *prev = sinew_world_lock_for(world, "its error callback is running");
		sinew_error_scope outer = sinew_error_scope_enter(world->def.error_fn, world->def.error_context);
		sinew_vreport(NULL, NULL, code, format, args);
		sinew_error_scope_leave(outer);
		sinew_world_unlock(world, prev);
	} else {
		sinew_vreport(NULL, NULL, code, format, args);
	}
	va_end(args);
}

sinew_world_id sinew_make_world_id(const sinew_world *w)
{
	sinew_world_id id = {(uint16_t)(w->index + 1), w->index, w->generation};
	return id;
}

bool sinew_world_can_create(sinew_world *w, const char *fn)
{
	if (s_object_generations[w->index] < UINT32_MAX) return true;
	sinew_world_error(w, SINEW_ERROR_CAPACITY,
	                  "%s: this world's slot has handed out all 4294967295 handles; create another world", fn);
	return false;
}

uint32_t sinew_world_next_generation(sinew_world *w)
{
	SINEW_ASSERT(s_object_generations[w->index] < UINT32_MAX);
	return ++s_object_generations[w->index];
}

sinew_world *sinew_world_from_index(uint32_t world0, const char *fn)
{
	if (world0 >= SINEW_MAX_WORLDS || s_worlds[world0] == NULL) {
		sinew_report(NULL, NULL, SINEW_ERROR_INVALID_ID, "%s: the id's world does not exist", fn);
		return NULL;
	}
	return s_worlds[world0];
}

sinew_world *sinew_world_peek(uint32_t world0)
{
	return world0 < SINEW_MAX_WORLDS ? s_worlds[world0] : NULL;
}

sinew_world *sinew_world_get(sinew_world_id id, const char *fn)
{
	int i = (int)id.index1 - 1;
	if (i < 0 || i >= SINEW_MAX_WORLDS || s_worlds[i] == NULL || s_worlds[i]->generation != id.generation) {
		sinew_report(NULL, NULL, SINEW_ERROR_INVALID_ID, "%s: invalid world id (index %d, generation %u)", fn,
		             (int)id.index1, (unsigned)id.generation);
		return NULL;
	}
	return s_worlds[i];
}

bool sinew_world_check_unlocked(sinew_world *world, const char *fn)
{
	if (world->out_of_memory) {
		sinew_world_error(world, SINEW_ERROR_OUT_OF_MEMORY,
		                  "%s: the world ran out of memory in an earlier call; destroy it (sinew_destroy_world)", fn);
		return false;
	}
	if (world->locked || world->callback_lock != NULL) {
		sinew_world_error(world, SINEW_ERROR_LOCKED, "%s: not allowed while the world is locked (%s)", fn,
		                  world->callback_lock != NULL ? world->callback_lock : "it is stepping");
		return false;
	}
	return true;
}

const char *sinew_world_lock_for(sinew_world *world, const char *reason)
{
	const char *prev = world->callback_lock;
	if (prev == NULL) world->callback_lock = reason;
	return prev;
}

void sinew_world_unlock(sinew_world *world, const char *prev)
{
	world->callback_lock = prev;
}

sinew_world_scope sinew_world_scope_enter(sinew_world *world)
{
	sinew_world_scope previous;
	previous.lock = sinew_world_lock_for(world, "its error callback is running");
	previous.errors = sinew_error_scope_enter(world->def.error_fn, world->def.error_context);
	return previous;
}

void sinew_world_scope_leave(sinew_world *world, sinew_world_scope previous)
{
	sinew_error_scope_leave(previous.errors);
	sinew_world_unlock(world, previous.lock);
}

bool sinew_world_is_valid(sinew_world_id id)
{
	int i = (int)id.index1 - 1;
	return i >= 0 && i < SINEW_MAX_WORLDS && s_worlds[i] != NULL && s_worlds[i]->generation == id.generation;
}

bool sinew_check_within(sinew_world *w, const char *fn, const char *what, float x, float limit)
{
	if (!sinew_is_finite(x)) {
		sinew_world_error(w, SINEW_ERROR_NOT_FINITE, "%s: %s is not finite", fn, what);
		return false;
	}
	if (fabsf(x) <= limit) return true;
	sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT,
	                  "%s: %s of %g is beyond the engine's limit of %g (the numeric envelope, docs/guide.md)", fn, what,
	                  (double)x, (double)limit);
	return false;
}

bool sinew_check_within_vec(sinew_world *w, const char *fn, const char *what, sinew_vec2 v, float limit)
{
	return sinew_check_within(w, fn, what, v.x, limit) && sinew_check_within(w, fn, what, v.y, limit);
}

float sinew_world_max_coordinate(const sinew_world *w)
{
	return SINEW_MAX_COORDINATE * w->lengths;
}

float sinew_world_max_size(const sinew_world *w)
{
	return SINEW_MAX_SIZE * w->lengths;
}

float sinew_world_max_speed(const sinew_world *w)
{
	return SINEW_MAX_SPEED * w->lengths;
}

static bool finite_positive(float x)
{
	return sinew_is_finite(x) && x > 0.0f;
}

static bool finite_nonnegative(float x)
{
	return sinew_is_finite(x) && x >= 0.0f;
}

/* One value of the def against its limit: refused with both in the message. */
static bool def_within(const sinew_world_def *d, const char *fn, const char *what, float x, float limit)
{
	if (fabsf(x) <= limit) return true;
	sinew_report(d->error_fn, d->error_context, SINEW_ERROR_INVALID_ARGUMENT,
	             "%s: %s of %g is beyond the engine's limit of %g (the numeric envelope, docs/guide.md)", fn, what,
	             (double)x, (double)limit);
	return false;
}

static bool check_def_envelope(const sinew_world_def *d, const char *fn)
{
	float l = d->length_units_per_meter;
	if (l < 1e-3f || l > 1e3f) {
		sinew_report(d->error_fn, d->error_context, SINEW_ERROR_INVALID_ARGUMENT,
		             "%s: length_units_per_meter of %g is outside 0.001..1000", fn, (double)l);
		return false;
	}
	return def_within(d, fn, "gravity.x", d->gravity.x, SINEW_MAX_ACCELERATION * l) &&
	       def_within(d, fn, "gravity.y", d->gravity.y, SINEW_MAX_ACCELERATION * l) &&
	       def_within(d, fn, "contact_hertz", d->contact_hertz, SINEW_MAX_HERTZ) &&
	       def_within(d, fn, "contact_damping_ratio", d->contact_damping_ratio, SINEW_MAX_COEFFICIENT) &&
	       def_within(d, fn, "contact_push_max_speed", d->contact_push_max_speed, SINEW_MAX_SPEED) &&
	       def_within(d, fn, "restitution_threshold", d->restitution_threshold, SINEW_MAX_SPEED) &&
	       def_within(d, fn, "joint_hertz", d->joint_hertz, SINEW_MAX_HERTZ) &&
	       def_within(d, fn, "joint_damping_ratio", d->joint_damping_ratio, SINEW_MAX_COEFFICIENT) &&
	       def_within(d, fn, "maximum_linear_speed", d->maximum_linear_speed, SINEW_MAX_SPEED);
}

static bool validate_world_def(const sinew_world_def *d)
{
	const char *fn = "sinew_create_world";
	if (d == NULL || d->internal_value != SINEW_DEF_COOKIE) {
		sinew_report(d ? d->error_fn : NULL, d ? d->error_context : NULL, SINEW_ERROR_INVALID_ARGUMENT,
		             "%s: the def must come from sinew_default_world_def()", fn);
		return false;
	}
	const char *bad = NULL;
	sinew_error code = SINEW_ERROR_INVALID_ARGUMENT;
	if (!sinew_vec2_is_valid(d->gravity)) bad = "gravity is not finite", code = SINEW_ERROR_NOT_FINITE;
	else if (!finite_positive(d->length_units_per_meter)) bad = "length_units_per_meter must be > 0";
	else if (!finite_nonnegative(d->contact_hertz)) bad = "contact_hertz must be >= 0";
	else if (!finite_nonnegative(d->contact_damping_ratio)) bad = "contact_damping_ratio must be >= 0";
	else if (!finite_nonnegative(d->contact_push_max_speed)) bad = "contact_push_max_speed must be >= 0";
	else if (!finite_nonnegative(d->restitution_threshold)) bad = "restitution_threshold must be >= 0";
	else if (!finite_nonnegative(d->joint_hertz)) bad = "joint_hertz must be >= 0";
	else if (!finite_nonnegative(d->joint_damping_ratio)) bad = "joint_damping_ratio must be >= 0";
	else if (!finite_positive(d->maximum_linear_speed)) bad = "maximum_linear_speed must be > 0";
	else if (d->body_capacity < 0 || d->shape_capacity < 0 || d->contact_capacity < 0) bad = "capacities must be >= 0";
	else if (d->body_capacity > SINEW_MAX_CAPACITY || d->shape_capacity > SINEW_MAX_CAPACITY ||
	         d->contact_capacity > SINEW_MAX_CAPACITY)
		bad = "capacities must be <= 16777216 (SINEW_MAX_CAPACITY)", code = SINEW_ERROR_CAPACITY;
	if (bad != NULL) {
		sinew_report(d->error_fn, d->error_context, code, "%s: %s", fn, bad);
		return false;
	}
	return check_def_envelope(d, fn);
}

static void apply_tuning(sinew_world *w)
{
	float l = w->def.length_units_per_meter;
	w->lengths = l;
	w->linear_slop = SINEW_LINEAR_SLOP * l;
	w->speculative_distance = SINEW_SPECULATIVE_DISTANCE * l;
	w->aabb_margin = SINEW_AABB_MARGIN * l;
	w->recycle_tolerance = SINEW_RECYCLE_TOLERANCE * l;
	w->recycle_padding = SINEW_RECYCLE_PADDING * l;
	w->max_linear_speed = w->def.maximum_linear_speed * l;
	w->push_max_speed = w->def.contact_push_max_speed * l;
}

/* Everything a world owns, and the world. */
static void free_world(sinew_world *w)
{
	for (int t = 0; t < SINEW_TREE_COUNT; ++t) sinew_dynamic_tree_destroy(&w->trees[t]);
	stbds_arrfree(w->bodies);
	stbds_arrfree(w->body_order);
	stbds_arrfree(w->shapes);
	stbds_arrfree(w->contacts);
	stbds_arrfree(w->moved_shapes);
	stbds_arrfree(w->pair_buffer);
	sinew_pair_set_free(w);
	stbds_arrfree(w->solver_body_store);
	stbds_arrfree(w->solver_start);
	w->solver_bodies = NULL;
	stbds_arrfree(w->awake_bodies);
	stbds_arrfree(w->constraints);
	stbds_arrfree(w->wide_constraints);
	stbds_arrfree(w->constraint_refs);
	stbds_arrfree(w->restitution_refs);
	stbds_arrfree(w->colour_bits);
	stbds_arrfree(w->push_constraints);
	stbds_arrfree(w->push_level);
	stbds_arrfree(w->push_start);
	stbds_arrfree(w->push_adjacent);
	stbds_arrfree(w->push_queue);
	stbds_arrfree(w->push_order);
	stbds_arrfree(w->push_count);
	stbds_arrfree(w->push_supports);
	stbds_arrfree(w->tree_contacts);
	stbds_arrfree(w->tree_response);
	stbds_arrfree(w->tree_touches);
	stbds_arrfree(w->tree_touches_sorted);
	stbds_arrfree(w->tree_touch_start);
	stbds_arrfree(w->push_before);
	stbds_arrfree(w->island_stack);
	stbds_arrfree(w->island_bodies);
	stbds_arrfree(w->figure_bodies);
	stbds_arrfree(w->island_parent);
	stbds_arrfree(w->island_keep);
	stbds_arrfree(w->island_flags);
	stbds_arrfree(w->touching_pairs);
	sinew_index_set_free(&w->awake_set);
	sinew_index_set_free(&w->awake_contacts);
	stbds_arrfree(w->begin_events);
	stbds_arrfree(w->end_events);
	stbds_arrfree(w->sensor_begin_events);
	stbds_arrfree(w->sensor_end_events);
	stbds_arrfree(w->move_events);
	stbds_arrfree(w->joint_broken_events);
	stbds_arrfree(w->joints);
	stbds_arrfree(w->joint_rows);
	stbds_arrfree(w->active_joints);
	stbds_arrfree(w->effort_rows);
	stbds_arrfree(w->sequential_rows);
	stbds_arrfree(w->tree_nodes);
	stbds_arrfree(w->tree_body_node);
	stbds_arrfree(w->loop_rows);
	stbds_arrfree(w->loop_matrix);
	stbds_arrfree(w->loop_work);
	stbds_arrfree(w->loop_nodes);
	stbds_arrfree(w->loop_rows_before);
	stbds_arrfree(w->loop_position);
	stbds_arrfree(w->loop_jacobians);
	stbds_arrfree(w->loop_pack);
	stbds_arrfree(w->loop_pack_y);
	stbds_arrfree(w->loop_pack_index);
	stbds_arrfree(w->loop_pack_ends);
	stbds_arrfree(w->loop_pack_turn);
	stbds_arrfree(w->loop_pack_trees);
	stbds_arrfree(w->loop_tree_joint);
	stbds_arrfree(w->loop_increment);
	stbds_arrfree(w->loop_tree_depth);
	stbds_arrfree(w->loop_tree_queue);
	stbds_arrfree(w->loop_needed);
	stbds_arrfree(w->tree_ranges);
	stbds_arrfree(w->tree_lists);
	stbds_arrfree(w->tree_keep);
	stbds_arrfree(w->tree_turn);
	stbds_arrfree(w->tree_grown_slots);
	stbds_arrfree(w->tree_grown_joints);
	stbds_arrfree(w->tree_grown_rows);
	stbds_arrfree(w->sweep_fractions);
	stbds_arrfree(w->sweep_pivots);
	stbds_arrfree(w->origin_listeners);
	sinew_free(w);
}

sinew_world_id sinew_create_world(const sinew_world_def *def)
{
	if (!validate_world_def(def)) return sinew_null_world_id;
	int slot = -1;
	for (int i = 0; i < SINEW_MAX_WORLDS; ++i) {
		bool spent = s_world_generations[i] == UINT32_MAX || s_object_generations[i] > UINT32_MAX / 2;
		if (s_worlds[i] == NULL && !spent) {
			slot = i;
			break;
		}
	}
	if (slot < 0) {
		sinew_report(def->error_fn, def->error_context, SINEW_ERROR_CAPACITY,
		             "sinew_create_world: %d worlds exist already", SINEW_MAX_WORLDS);
		return sinew_null_world_id;
	}
	sinew_world *w = sinew_alloc_zeroed(sizeof *w);
	if (w == NULL) {
		sinew_report(def->error_fn, def->error_context, SINEW_ERROR_OUT_OF_MEMORY, "sinew_create_world: out of memory");
		return sinew_null_world_id;
	}
	w->def = *def;
	w->gravity = def->gravity;
	apply_tuning(w);
	w->body_free = w->shape_free = w->contact_free = w->joint_free = SINEW_NULL_INDEX;
	for (int t = 0; t < SINEW_TREE_COUNT; ++t) w->trees[t] = sinew_dynamic_tree_create();
	size_t bodies = (size_t)def->body_capacity, shapes = (size_t)def->shape_capacity;
	size_t contacts = (size_t)def->contact_capacity;
	bool room = (bodies == 0 || (SINEW_RESERVE(w->bodies, bodies) && SINEW_RESERVE(w->body_order, bodies) &&
	                             sinew_solver_reserve(w, bodies) &&
	                             sinew_index_set_reserve(&w->awake_set, (int32_t)bodies))) &&
	            (shapes == 0 || SINEW_RESERVE(w->shapes, shapes)) &&
	            (contacts == 0 || (SINEW_RESERVE(w->contacts, contacts) && SINEW_RESERVE(w->constraint_refs, contacts) &&
	                               sinew_index_set_reserve(&w->awake_contacts, (int32_t)contacts)));
	/* the pair set sized like the pools; out of memory is reported there and the first contact
	 * made tries again */
	if (room && contacts > 0) (void)sinew_pair_set_reserve(w, def->contact_capacity);
	if (!room) {
		free_world(w);
		sinew_report(def->error_fn, def->error_context, SINEW_ERROR_OUT_OF_MEMORY,
		             "sinew_create_world: out of memory for the capacities asked for");
		return sinew_null_world_id;
	}
	s_world_generations[slot] += 1;
	w->index = (uint16_t)slot;
	w->generation = s_world_generations[slot];
	w->in_use = true;
	s_worlds[slot] = w;
	return sinew_make_world_id(w);
}

void sinew_world_out_of_memory(uint32_t world0, const char *fn)
{
	sinew_world *w = sinew_world_peek(world0);
	if (w == NULL) {
		sinew_report(NULL, NULL, SINEW_ERROR_OUT_OF_MEMORY, "%s: out of memory", fn);
		return;
	}
	w->out_of_memory = true;
	w->locked = false;
	w->callback_lock = NULL;
	sinew_world_error(w, SINEW_ERROR_OUT_OF_MEMORY,
	                  "%s: out of memory; the world refuses every change from now on: destroy it", fn);
}

bool sinew_destroy_world(sinew_world_id id)
{
	sinew_world *w = sinew_world_get(id, "sinew_destroy_world");
	/* a world out of memory can always be destroyed */
	if (w == NULL || (!w->out_of_memory && !sinew_world_check_unlocked(w, "sinew_destroy_world"))) return false;
	s_worlds[w->index] = NULL;
	free_world(w);
	return true;
}

static bool body_is_finite(const sinew_body *b)
{
	return sinew_vec2_is_valid(b->xf.p) && sinew_is_finite(b->xf.q.c) && sinew_is_finite(b->xf.q.s) &&
	       sinew_vec2_is_valid(b->center) && sinew_vec2_is_valid(b->v) && sinew_is_finite(b->w);
}

/* The first of the bodies (every body when NULL, else the step's solver slots 1..n-1 of the list)
 * whose state is not finite, or -1. */
static int32_t first_non_finite_body(const sinew_world *w, const int32_t *slots)
{
	if (slots != NULL) {
		int n = (int)stbds_arrlen(slots);
		for (int k = 1; k < n; ++k)
			if (!body_is_finite(&w->bodies[slots[k]])) return slots[k];
		return -1;
	}
	int n = (int)stbds_arrlen(w->bodies);
	for (int32_t i = 0; i < n; ++i)
		if (w->bodies[i].in_use && !body_is_finite(&w->bodies[i])) return i;
	return -1;
}

static bool check_finite_state(sinew_world *w, const char *fn, const int32_t *slots)
{
	int32_t i = first_non_finite_body(w, slots);
	if (i < 0) return true;
	const sinew_body *b = &w->bodies[i];
	sinew_world_error(w, SINEW_ERROR_NOT_FINITE,
	                  "%s: body %d (index1 %d, generation %u) is not finite after step %d: position (%g, %g), "
	                  "velocity (%g, %g), angular velocity %g",
	                  fn, (int)i, (int)i + 1, (unsigned)b->generation, (int)w->step_index, (double)b->xf.p.x,
	                  (double)b->xf.p.y, (double)b->v.x, (double)b->v.y, (double)b->w);
	return false;
}

bool sinew_world_is_finite(sinew_world_id id)
{
	sinew_world *w = sinew_world_get(id, "sinew_world_is_finite");
	return w != NULL && check_finite_state(w, "sinew_world_is_finite", NULL);
}

static void clear_events(sinew_world *w)
{
	stbds_arrsetlen(w->begin_events, 0);
	stbds_arrsetlen(w->end_events, 0);
	stbds_arrsetlen(w->sensor_begin_events, 0);
	stbds_arrsetlen(w->sensor_end_events, 0);
	stbds_arrsetlen(w->move_events, 0);
	stbds_arrsetlen(w->joint_broken_events, 0);
}

static bool world_step(sinew_world_id id, float dt, int substeps)
{
	sinew_world *w = sinew_world_get(id, "sinew_world_step");
	if (w == NULL || !sinew_world_check_unlocked(w, "sinew_world_step")) return false;
	if (!sinew_is_finite(dt) || dt < SINEW_MIN_STEP || dt > SINEW_MAX_STEP) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT,
		                  "sinew_world_step: dt of %g is outside the engine's limits of %g..%g s (the numeric envelope)",
		                  (double)dt, (double)SINEW_MIN_STEP, (double)SINEW_MAX_STEP);
		return false;
	}
	if (substeps < 1 || substeps > 64) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "sinew_world_step: substeps must be 1..64 (got %d)",
		                  substeps);
		return false;
	}
	w->locked = true;
	clear_events(w);
	w->step_index += 1;
	/* The order of a step: new pairs from boxes that moved last step, manifolds, islands (so a
	 * sleeping body touched by an awake one is woken before it is solved), the substepped solve,
	 * sleep, and the boxes of everything that moved. */
	sinew_world_scope scope = sinew_world_scope_enter(w);
	sinew_broadphase_update_pairs(w);
	sinew_contacts_update(w, dt);
	sinew_islands_wake_connected(w);
	sinew_solver_step(w, dt, substeps);
	sinew_islands_update_sleep(w, dt);
	sinew_world_scope_leave(w, scope);
	w->locked = false;
#if !defined(NDEBUG) || defined(SINEW_ENABLE_ASSERT)
	/* reported once, at the step that made it; a step moves only the bodies it solved */
	if (!w->reported_non_finite && !check_finite_state(w, "sinew_world_step", w->awake_bodies))
		w->reported_non_finite = true;
#endif
	return true;
}

/* A contact a later call destroys (a body destroyed, a filter changed) pushes an end event:
 * the room for one per contact is reserved here, inside the guarded step, so those calls do not
 * allocate. */
static bool step_and_reserve(sinew_world_id id, float dt, int substeps)
{
	if (!world_step(id, dt, substeps)) return false;
	sinew_world *w = sinew_world_peek((uint32_t)id.index1 - 1);
	size_t contacts = stbds_arrlen(w->contacts);
	if (!SINEW_RESERVE(w->end_events, stbds_arrlen(w->end_events) + contacts) ||
	    !SINEW_RESERVE(w->sensor_end_events, stbds_arrlen(w->sensor_end_events) + contacts))
		sinew_oom_fail("sinew_world_step");
	return true;
}

SINEW_GUARDED(, bool, sinew_world_step, (sinew_world_id id, float dt, int substeps), step_and_reserve(id, dt, substeps),
              id.index1 - 1, false)

/* FNV-1a over raw float bits. */
static uint64_t hash_bytes(uint64_t h, const void *data, size_t n)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < n; ++i) {
		h ^= p[i];
		h *= 1099511628211ull;
	}
	return h;
}

static uint64_t hash_float(uint64_t h, float f)
{
	uint32_t bits;
	memcpy(&bits, &f, sizeof bits);
	return hash_bytes(h, &bits, sizeof bits);
}

uint64_t sinew_world_get_hash(sinew_world_id id)
{
	sinew_world *w = sinew_world_get(id, "sinew_world_get_hash");
	if (w == NULL) return 0;
	uint64_t h = 14695981039346656037ull;
	int n = (int)stbds_arrlen(w->body_order);
	for (int i = 0; i < n; ++i) {
		int32_t b = w->body_order[i];
		if (b < 0) continue;
		const sinew_body *body = &w->bodies[b];
		h = hash_float(h, body->xf.p.x);
		h = hash_float(h, body->xf.p.y);
		h = hash_float(h, sinew_rot_angle(body->xf.q));
		h = hash_float(h, body->v.x);
		h = hash_float(h, body->v.y);
		h = hash_float(h, body->w);
	}
	return h;
}

int sinew_world_get_bodies(sinew_world_id id, sinew_body_id *out, int capacity)
{
	sinew_world *w = sinew_world_get(id, "sinew_world_get_bodies");
	if (w == NULL) return 0;
	if (out == NULL || capacity < 0) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "sinew_world_get_bodies: no room to write into");
		return 0;
	}
	int n = 0, count = (int)stbds_arrlen(w->bodies);
	for (int32_t i = 0; i < count && n < capacity; ++i) {
		if (w->bodies[i].in_use) out[n++] = sinew_make_body_id(w, i);
	}
	return n;
}

sinew_counters sinew_world_get_counters(sinew_world_id id)
{
	sinew_counters c;
	memset(&c, 0, sizeof c);
	sinew_world *w = sinew_world_get(id, "sinew_world_get_counters");
	if (w == NULL) return c;
	c.body_count = w->body_count;
	c.shape_count = w->shape_count;
	c.pair_count = w->contact_count;
	c.contact_count = w->touching_count;
	c.island_count = w->island_count;
	c.joint_count = w->joint_count;
	c.step_count = w->step_index;
	c.awake_body_count = w->awake_set.count;
	c.static_tree_height = sinew_dynamic_tree_get_height(&w->trees[SINEW_TREE_STATIC]);
	int hk = sinew_dynamic_tree_get_height(&w->trees[SINEW_TREE_KINEMATIC]);
	int hd = sinew_dynamic_tree_get_height(&w->trees[SINEW_TREE_DYNAMIC]);
	c.tree_height = hk > hd ? hk : hd;
	return c;
}

bool sinew_world_set_gravity(sinew_world_id id, sinew_vec2 gravity)
{
	sinew_world *w = sinew_world_get(id, "sinew_world_set_gravity");
	if (w == NULL || !sinew_world_check_unlocked(w, "sinew_world_set_gravity")) return false;
	if (!sinew_check_within_vec(w, "sinew_world_set_gravity", "gravity", gravity, SINEW_MAX_ACCELERATION * w->lengths))
		return false;
	w->gravity = gravity;
	return true;
}

sinew_vec2 sinew_world_get_gravity(sinew_world_id id)
{
	sinew_world *w = sinew_world_get(id, "sinew_world_get_gravity");
	return w != NULL ? w->gravity : sinew_v2(0.0f, 0.0f);
}

bool sinew_world_enable_sleep(sinew_world_id id, bool flag)
{
	sinew_world *w = sinew_world_get(id, "sinew_world_enable_sleep");
	if (w == NULL || !sinew_world_check_unlocked(w, "sinew_world_enable_sleep")) return false;
	w->def.enable_sleep = flag;
	if (!flag) {
		int n = (int)stbds_arrlen(w->bodies);
		for (int i = 0; i < n; ++i)
			if (w->bodies[i].in_use) sinew_body_wake(w, &w->bodies[i]);
	}
	return true;
}

bool sinew_world_enable_continuous(sinew_world_id id, bool flag)
{
	sinew_world *w = sinew_world_get(id, "sinew_world_enable_continuous");
	if (w == NULL || !sinew_world_check_unlocked(w, "sinew_world_enable_continuous")) return false;
	w->def.enable_continuous = flag;
	return true;
}

bool sinew_world_set_contact_tuning(sinew_world_id id, float hertz, float damping_ratio, float push_speed)
{
	sinew_world *w = sinew_world_get(id, "sinew_world_set_contact_tuning");
	if (w == NULL || !sinew_world_check_unlocked(w, "sinew_world_set_contact_tuning")) return false;
	if (!finite_nonnegative(hertz) || !finite_nonnegative(damping_ratio) || !finite_nonnegative(push_speed)) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT,
		                  "sinew_world_set_contact_tuning: hertz, damping_ratio and push_speed must be finite and >= 0");
		return false;
	}
	if (!sinew_check_within(w, "sinew_world_set_contact_tuning", "hertz", hertz, SINEW_MAX_HERTZ) ||
	    !sinew_check_within(w, "sinew_world_set_contact_tuning", "damping_ratio", damping_ratio, SINEW_MAX_COEFFICIENT) ||
	    !sinew_check_within(w, "sinew_world_set_contact_tuning", "push_speed", push_speed, SINEW_MAX_SPEED))
		return false;
	w->def.contact_hertz = hertz;
	w->def.contact_damping_ratio = damping_ratio;
	w->def.contact_push_max_speed = push_speed;
	apply_tuning(w);
	return true;
}

bool sinew_world_set_restitution_threshold(sinew_world_id id, float speed)
{
	sinew_world *w = sinew_world_get(id, "sinew_world_set_restitution_threshold");
	if (w == NULL || !sinew_world_check_unlocked(w, "sinew_world_set_restitution_threshold")) return false;
	if (!finite_nonnegative(speed)) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT,
		                  "sinew_world_set_restitution_threshold: speed must be finite and >= 0");
		return false;
	}
	if (!sinew_check_within(w, "sinew_world_set_restitution_threshold", "speed", speed, SINEW_MAX_SPEED)) return false;
	w->def.restitution_threshold = speed;
	return true;
}

bool sinew_world_set_error_callback(sinew_world_id id, sinew_error_fn *fn, void *context)
{
	sinew_world *w = sinew_world_get(id, "sinew_world_set_error_callback");
	if (w == NULL) return false;
	w->def.error_fn = fn;
	w->def.error_context = context;
	return true;
}

void *sinew_world_get_user_data(sinew_world_id id)
{
	sinew_world *w = sinew_world_get(id, "sinew_world_get_user_data");
	return w != NULL ? w->def.user_data : NULL;
}

/* Layers built on the public API (rig/, ragdoll/) report their refusals through the world's own
 * callback, as the engine's calls do; a stale world falls back to the process-wide one. */
void sinew_world_report_error(sinew_world_id id, sinew_error code, const char *message)
{
	if (code <= SINEW_OK || code >= SINEW_ERROR_COUNT) code = SINEW_ERROR_INVALID_ARGUMENT;
	sinew_world *w = sinew_world_is_valid(id) ? s_worlds[id.index1 - 1] : NULL;
	sinew_world_error(w, code, "%s", message != NULL ? message : "(no message)");
}

float sinew_world_get_length_units_per_meter(sinew_world_id id)
{
	sinew_world *w = sinew_world_get(id, "sinew_world_get_length_units_per_meter");
	return w != NULL ? w->lengths : 1.0f;
}

sinew_contact_events sinew_world_get_contact_events(sinew_world_id id)
{
	sinew_contact_events e;
	memset(&e, 0, sizeof e);
	sinew_world *w = sinew_world_get(id, "sinew_world_get_contact_events");
	if (w == NULL) return e;
	e.begin_events = w->begin_events;
	e.begin_count = (int)stbds_arrlen(w->begin_events);
	e.end_events = w->end_events;
	e.end_count = (int)stbds_arrlen(w->end_events);
	return e;
}

sinew_sensor_events sinew_world_get_sensor_events(sinew_world_id id)
{
	sinew_sensor_events e;
	memset(&e, 0, sizeof e);
	sinew_world *w = sinew_world_get(id, "sinew_world_get_sensor_events");
	if (w == NULL) return e;
	e.begin_events = w->sensor_begin_events;
	e.begin_count = (int)stbds_arrlen(w->sensor_begin_events);
	e.end_events = w->sensor_end_events;
	e.end_count = (int)stbds_arrlen(w->sensor_end_events);
	return e;
}

sinew_body_events sinew_world_get_body_events(sinew_world_id id)
{
	sinew_body_events e;
	memset(&e, 0, sizeof e);
	sinew_world *w = sinew_world_get(id, "sinew_world_get_body_events");
	if (w == NULL) return e;
	e.move_events = w->move_events;
	e.move_count = (int)stbds_arrlen(w->move_events);
	return e;
}
