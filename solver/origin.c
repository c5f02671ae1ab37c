/* Shifting a world's origin: for a game whose world is larger than floats resolve well (see
 * docs/guide.md, "Large worlds"). Everything the world keeps in world coordinates moves by
 * -new_origin at once:
 *   bodies: the origin transform, the centre of mass and the start-of-step centre (the sweep of
 *           continuous collision starts there);
 *   shapes: the tight and fat boxes, and every node of the three broadphase trees (moved in place;
 *           the structure stays valid, so no rebuild);
 *   joints: an anchor on the world side (joint body A is the world) is a world point, the target
 *           joint's target included; anchors on bodies are local and do not move;
 *   contacts: the manifold points (their anchors are relative to the bodies and do not move);
 *   the last step's events: begin-contact manifolds and body-move transforms.
 * Velocities, angles, impulses and a kinematic body's velocity towards its target (sinew_body_move_to
 * keeps no target) are the same in any frame. Everything is checked first, so a refusal changes
 * nothing. Last, the origin listeners (the rig and ragdoll layers, a user's camera) move the world
 * positions they keep themselves, with the world locked so they cannot change it underneath. */
#include "joint.h"

static sinew_vec2 shifted(sinew_vec2 p, sinew_vec2 o)
{
	return sinew_sub(p, o);
}

static sinew_aabb shifted_box(sinew_aabb box, sinew_vec2 o)
{
	box.lower = shifted(box.lower, o);
	box.upper = shifted(box.upper, o);
	return box;
}

static void shift_manifold(sinew_manifold *m, sinew_vec2 o)
{
	for (int k = 0; k < m->point_count; ++k) m->points[k].point = shifted(m->points[k].point, o);
}

struct sinew_origin_listener {
	sinew_origin_shift_fn *fn;
	void *context;
};

static int find_listener(const sinew_world *w, sinew_origin_shift_fn *fn, void *context)
{
	for (int i = 0; i < (int)stbds_arrlen(w->origin_listeners); ++i)
		if (w->origin_listeners[i].fn == fn && w->origin_listeners[i].context == context) return i;
	return -1;
}

bool sinew_world_add_origin_listener(sinew_world_id id, sinew_origin_shift_fn *fn, void *context)
{
	const char *name = "sinew_world_add_origin_listener";
	sinew_world *w = sinew_world_get(id, name);
	if (w == NULL || !sinew_world_check_unlocked(w, name)) return false;
	if (fn == NULL) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "%s: fn is NULL", name);
		return false;
	}
	if (find_listener(w, fn, context) >= 0) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "%s: this fn and context are already listening", name);
		return false;
	}
	if (!SINEW_RESERVE(w->origin_listeners, stbds_arrlen(w->origin_listeners) + 1)) {
		sinew_world_error(w, SINEW_ERROR_OUT_OF_MEMORY, "%s: out of memory", name);
		return false;
	}
	struct sinew_origin_listener l = {fn, context};
	stbds_arrput(w->origin_listeners, l);
	return true;
}

bool sinew_world_remove_origin_listener(sinew_world_id id, sinew_origin_shift_fn *fn, void *context)
{
	const char *name = "sinew_world_remove_origin_listener";
	sinew_world *w = sinew_world_get(id, name);
	if (w == NULL || !sinew_world_check_unlocked(w, name)) return false;
	int i = find_listener(w, fn, context);
	if (i < 0) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "%s: this fn and context are not listening", name);
		return false;
	}
	stbds_arrdel(w->origin_listeners, i); /* keeps the order of the others */
	return true;
}

static bool world_anchor(const sinew_joint *j)
{
	return j->in_use && j->edges[0].body == SINEW_NULL_INDEX;
}

/* Would every world point stay inside the numeric envelope? (reported when not) */
static bool shift_fits(sinew_world *w, const char *fn, sinew_vec2 o)
{
	float limit = sinew_world_max_coordinate(w);
	for (int32_t i = 0; i < (int32_t)stbds_arrlen(w->bodies); ++i) {
		const sinew_body *b = &w->bodies[i];
		if (!b->in_use) continue;
		if (!sinew_check_within_vec(w, fn, "a body's position after the shift", shifted(b->xf.p, o), limit) ||
		    !sinew_check_within_vec(w, fn, "a body's centre of mass after the shift", shifted(b->center, o), limit))
			return false;
	}
	for (int32_t i = 0; i < (int32_t)stbds_arrlen(w->joints); ++i) {
		const sinew_joint *j = &w->joints[i];
		if (world_anchor(j) &&
		    !sinew_check_within_vec(w, fn, "a joint's world anchor after the shift", shifted(j->local_anchor_a, o), limit))
			return false;
	}
	return true;
}

bool sinew_world_shift_origin(sinew_world_id id, sinew_vec2 new_origin)
{
	const char *fn = "sinew_world_shift_origin";
	sinew_world *w = sinew_world_get(id, fn);
	if (w == NULL || !sinew_world_check_unlocked(w, fn)) return false;
	if (!sinew_vec2_is_valid(new_origin)) {
		sinew_world_error(w, SINEW_ERROR_NOT_FINITE, "%s: new_origin is not finite", fn);
		return false;
	}
	if (!shift_fits(w, fn, new_origin)) return false;
	sinew_vec2 o = new_origin;
	for (int32_t i = 0; i < (int32_t)stbds_arrlen(w->bodies); ++i) {
		sinew_body *b = &w->bodies[i];
		if (!b->in_use) continue;
		b->xf.p = shifted(b->xf.p, o);
		b->center = shifted(b->center, o);
		b->center0 = shifted(b->center0, o);
	}
	for (int32_t i = 0; i < (int32_t)stbds_arrlen(w->shapes); ++i) {
		sinew_shape *s = &w->shapes[i];
		if (!s->in_use) continue;
		s->aabb = shifted_box(s->aabb, o);
		s->fat_aabb = shifted_box(s->fat_aabb, o);
	}
	sinew_world_scope scope = sinew_world_scope_enter(w);
	for (int t = 0; t < SINEW_TREE_COUNT; ++t) sinew_dynamic_tree_shift_origin(&w->trees[t], o);
	sinew_world_scope_leave(w, scope);
	for (int32_t i = 0; i < (int32_t)stbds_arrlen(w->joints); ++i) {
		sinew_joint *j = &w->joints[i];
		if (world_anchor(j)) j->local_anchor_a = shifted(j->local_anchor_a, o);
	}
	for (int32_t i = 0; i < (int32_t)stbds_arrlen(w->contacts); ++i)
		if (w->contacts[i].in_use) shift_manifold(&w->contacts[i].manifold, o);
	for (int32_t i = 0; i < (int32_t)stbds_arrlen(w->begin_events); ++i) shift_manifold(&w->begin_events[i].manifold, o);
	for (int32_t i = 0; i < (int32_t)stbds_arrlen(w->move_events); ++i)
		w->move_events[i].transform.p = shifted(w->move_events[i].transform.p, o);
	const char *prev = sinew_world_lock_for(w, "an origin listener is running");
	for (int i = 0; i < (int)stbds_arrlen(w->origin_listeners); ++i)
		w->origin_listeners[i].fn(id, o, w->origin_listeners[i].context);
	sinew_world_unlock(w, prev);
	return true;
}
