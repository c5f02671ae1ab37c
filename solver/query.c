/* World queries: ray casts, shape casts, Godot's cast_motion and overlaps, searched over the
 * static, kinematic and dynamic broadphase trees. The geometry is the collision layer's
 * (sinew_ray_cast_geometry, sinew_shape_cast, sinew_shape_distance, sinew_geometry_test_point);
 * this file finds the candidates, applies the filter and keeps the answers deterministic.
 *
 * Queries change nothing. While one runs (and its callbacks with it) the world is locked, so a
 * callback that tries to destroy a body is refused instead of pulling a node out from under the
 * tree walk; queries themselves stay allowed from inside a callback. No query allocates. */
#include "world.h"

#include <string.h>

/* Nested query depth of each world slot: a locked world accepts queries only from inside one. */
static int s_query_depth[SINEW_MAX_WORLDS];

/* Clip slack for "closest" walks: the tree prunes by box entry fractions computed with their own
 * rounding, so the walk clips a little beyond the best hit and a tie still reaches its shape. */
#define CLOSEST_SLACK 1.0e-5f

/* A query's filter with what the query adds: the body that is cast (body casts skip it). */
typedef struct query {
	sinew_world *w;
	sinew_query_filter filter;
	int32_t self_body;
	sinew_error_scope errors; /* restored by end_query */
} query;

/* ---- validation ---- */

static bool check_vec(sinew_world *w, const char *fn, const char *what, sinew_vec2 v)
{
	if (sinew_vec2_is_valid(v)) return true;
	sinew_world_error(w, SINEW_ERROR_NOT_FINITE, "%s: %s is not finite", fn, what);
	return false;
}

static bool check_radius(sinew_world *w, const char *fn, float r)
{
	if (!sinew_is_finite(r)) {
		sinew_world_error(w, SINEW_ERROR_NOT_FINITE, "%s: the geometry's radius is not finite", fn);
		return false;
	}
	if (r < 0.0f) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "%s: the geometry's radius must be >= 0 (got %g)", fn,
		                  (double)r);
		return false;
	}
	return true;
}

static bool check_geometry(sinew_world *w, const char *fn, const sinew_geometry *g)
{
	if (g == NULL) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "%s: geometry is NULL", fn);
		return false;
	}
	switch (g->type) {
	case SINEW_SHAPE_CIRCLE:
		return check_vec(w, fn, "the circle's centre", g->u.circle.center) && check_radius(w, fn, g->u.circle.radius);
	case SINEW_SHAPE_CAPSULE:
		return check_vec(w, fn, "a capsule centre", g->u.capsule.center1) &&
		       check_vec(w, fn, "a capsule centre", g->u.capsule.center2) && check_radius(w, fn, g->u.capsule.radius);
	case SINEW_SHAPE_POLYGON: {
		const sinew_polygon *p = &g->u.polygon;
		if (p->count < 1 || p->count > SINEW_MAX_POLYGON_VERTICES) {
			sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "%s: a polygon needs 1..%d vertices (got %d)", fn,
			                  SINEW_MAX_POLYGON_VERTICES, p->count);
			return false;
		}
		for (int i = 0; i < p->count; ++i)
			if (!check_vec(w, fn, "a polygon vertex", p->vertices[i])) return false;
		return check_radius(w, fn, p->radius);
	}
	case SINEW_SHAPE_TYPE_COUNT: break;
	}
	sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "%s: unknown geometry type %d", fn, (int)g->type);
	return false;
}

static bool check_transform(sinew_world *w, const char *fn, sinew_transform xf)
{
	if (!check_vec(w, fn, "the transform's position", xf.p)) return false;
	if (!sinew_is_finite(xf.q.c) || !sinew_is_finite(xf.q.s)) {
		sinew_world_error(w, SINEW_ERROR_NOT_FINITE, "%s: the transform's rotation is not finite", fn);
		return false;
	}
	if (!sinew_rot_is_valid(xf.q)) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "%s: the transform's rotation is not a unit (cos, sin) pair",
		                  fn);
		return false;
	}
	return true;
}

static bool check_filter(sinew_world *w, const char *fn, const sinew_query_filter *f)
{
	if (f->exclude_body_count < 0 || f->exclude_shape_count < 0 ||
	    (f->exclude_body_count > 0 && f->exclude_bodies == NULL) ||
	    (f->exclude_shape_count > 0 && f->exclude_shapes == NULL)) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT,
		                  "%s: the filter's exclude counts must be >= 0, with a list when > 0 (bodies %d, shapes %d)", fn,
		                  f->exclude_body_count, f->exclude_shape_count);
		return false;
	}
	return true;
}

/* ---- begin and end: world lookup, lock, filter ---- */

/* Look up the world and the filter (NULL: the default) and lock the world for the query. Returns
 * false, after reporting, when the query must not run; then end_query must not be called. */
static bool begin_query(query *q, sinew_world_id world_id, const sinew_query_filter *filter, const char *fn,
                        bool *was_locked)
{
	q->w = sinew_world_get(world_id, fn);
	if (q->w == NULL) return false;
	if (q->w->locked && s_query_depth[q->w->index] == 0) {
		sinew_world_error(q->w, SINEW_ERROR_LOCKED, "%s: not allowed while the world is stepping", fn);
		return false;
	}
	q->filter = filter != NULL ? *filter : sinew_default_query_filter();
	q->self_body = SINEW_NULL_INDEX;
	if (!check_filter(q->w, fn, &q->filter)) return false;
	*was_locked = q->w->locked;
	q->w->locked = true;
	s_query_depth[q->w->index] += 1;
	q->errors = sinew_error_scope_enter(q->w->def.error_fn, q->w->def.error_context);
	return true;
}

static void end_query(query *q, bool was_locked)
{
	sinew_error_scope_leave(q->errors);
	s_query_depth[q->w->index] -= 1;
	q->w->locked = was_locked;
}

static bool same_body(sinew_body_id id, const sinew_world *w, int32_t index)
{
	return id.index1 == index + 1 && id.world0 == w->index && id.generation == w->bodies[index].generation;
}

static bool same_shape(sinew_shape_id id, const sinew_world *w, int32_t index)
{
	return id.index1 == index + 1 && id.world0 == w->index && id.generation == w->shapes[index].generation;
}

/* Does the filter let the query see this shape? */
static bool shape_passes(const query *q, int32_t si)
{
	const sinew_shape *s = &q->w->shapes[si];
	const sinew_query_filter *f = &q->filter;
	if ((s->layer & f->mask) == 0 || (s->sensor && !f->include_sensors) || s->body == q->self_body) return false;
	for (int i = 0; i < f->exclude_body_count; ++i)
		if (same_body(f->exclude_bodies[i], q->w, s->body)) return false;
	for (int i = 0; i < f->exclude_shape_count; ++i)
		if (same_shape(f->exclude_shapes[i], q->w, si)) return false;
	return true;
}

static sinew_transform shape_transform(const sinew_world *w, int32_t si)
{
	return w->bodies[w->shapes[si].body].xf;
}

/* ---- visiting the shapes whose tree boxes overlap a box ---- */

/* Called for each shape that passes the filter; return false to stop the whole visit. */
typedef bool candidate_fn(const query *q, int32_t si, void *context);

typedef struct box_visit {
	const query *q;
	candidate_fn *fn;
	void *context;
	bool stopped;
} box_visit;

static bool box_visit_proxy(int32_t proxy_id, uint64_t user_data, void *context)
{
	SINEW_UNUSED(proxy_id);
	box_visit *v = context;
	int32_t si = (int32_t)user_data;
	if (!shape_passes(v->q, si)) return true;
	if (v->fn(v->q, si, v->context)) return true;
	v->stopped = true;
	return false;
}

/* Trees in a fixed order (static, kinematic, dynamic). A shape's layer is part of its tree
 * category, so the filter mask is a safe first cut in the tree. */
static void visit_box(const query *q, sinew_aabb box, candidate_fn *fn, void *context)
{
	box_visit v = {q, fn, context, false};
	for (int t = 0; t < SINEW_TREE_COUNT && !v.stopped; ++t)
		sinew_dynamic_tree_query(&q->w->trees[t], box, q->filter.mask, box_visit_proxy, &v);
}

/* ---- ray casts ---- */

static sinew_ray_hit no_ray_hit(void)
{
	sinew_ray_hit h;
	memset(&h, 0, sizeof h);
	return h;
}

/* The shape's own ray cast, to max_fraction of the translation. */
static bool ray_shape(const query *q, int32_t si, sinew_vec2 origin, sinew_vec2 translation, float max_fraction,
                      sinew_ray_hit *out)
{
	const sinew_shape *s = &q->w->shapes[si];
	sinew_ray_cast_input in = {origin, translation, max_fraction};
	sinew_ray_result r = sinew_ray_cast_geometry(&s->geom, shape_transform(q->w, si), &in, q->filter.hit_from_inside);
	if (!r.hit) return false;
	out->shape = sinew_make_shape_id(q->w, si);
	out->body = sinew_make_body_id(q->w, s->body);
	out->point = r.point;
	out->normal = r.normal;
	out->fraction = r.fraction;
	out->hit = true;
	return true;
}

/* One walk over the trees for every kind of ray query. */
typedef struct ray_walk {
	const query *q;
	sinew_vec2 origin, translation;
	float max_fraction; /* the current clip, carried from tree to tree */
	bool stopped;
	/* closest */
	sinew_ray_hit best;
	int32_t best_index;
	/* all */
	sinew_ray_hit *hits;
	int capacity, found;
	/* callback */
	sinew_ray_fn *fn;
	void *context;
	int calls;
} ray_walk;

static bool ray_hit_before(const sinew_ray_hit *a, int32_t ia, const sinew_ray_hit *b, int32_t ib)
{
	return a->fraction < b->fraction || (a->fraction == b->fraction && ia < ib);
}

/* Closest: every shape is cast over the whole ray, so a fraction does not depend on the order of
 * the walk; the clip only prunes (and never to 0, which would stop the walk before a tie at 0). */
static float closest_ray_proxy(const sinew_ray_cast_input *input, int32_t proxy_id, uint64_t user_data, void *context)
{
	SINEW_UNUSED(input);
	SINEW_UNUSED(proxy_id);
	ray_walk *r = context;
	int32_t si = (int32_t)user_data;
	sinew_ray_hit h;
	if (!shape_passes(r->q, si) || !ray_shape(r->q, si, r->origin, r->translation, 1.0f, &h)) return -1.0f;
	if (!r->best.hit || ray_hit_before(&h, si, &r->best, r->best_index)) {
		r->best = h;
		r->best_index = si;
	}
	r->max_fraction = sinew_minf(r->max_fraction, r->best.fraction + CLOSEST_SLACK);
	return r->max_fraction;
}

/* All: keep the `capacity` nearest in order (insertion into a short sorted list), count them all. */
static float all_ray_proxy(const sinew_ray_cast_input *input, int32_t proxy_id, uint64_t user_data, void *context)
{
	SINEW_UNUSED(proxy_id);
	ray_walk *r = context;
	int32_t si = (int32_t)user_data;
	sinew_ray_hit h;
	if (!shape_passes(r->q, si) || !ray_shape(r->q, si, r->origin, r->translation, 1.0f, &h)) return -1.0f;
	int kept = r->found < r->capacity ? r->found : r->capacity;
	r->found += 1;
	int at = kept;
	while (at > 0 && ray_hit_before(&h, si, &r->hits[at - 1], r->hits[at - 1].shape.index1 - 1)) at -= 1;
	if (at < r->capacity) {
		int last = kept < r->capacity ? kept : r->capacity - 1;
		for (int i = last; i > at; --i) r->hits[i] = r->hits[i - 1];
		r->hits[at] = h;
	}
	return input->max_fraction;
}

/* Callback: the user's value drives the walk exactly as the tree's own clip does. */
static float user_ray_proxy(const sinew_ray_cast_input *input, int32_t proxy_id, uint64_t user_data, void *context)
{
	SINEW_UNUSED(input);
	SINEW_UNUSED(proxy_id);
	ray_walk *r = context;
	int32_t si = (int32_t)user_data;
	sinew_ray_hit h;
	if (!shape_passes(r->q, si) || !ray_shape(r->q, si, r->origin, r->translation, r->max_fraction, &h))
		return -1.0f;
	r->calls += 1;
	float value = r->fn(&h, r->context);
	if (value == 0.0f) {
		r->stopped = true;
		return 0.0f;
	}
	if (0.0f < value && value < r->max_fraction) r->max_fraction = value;
	return value;
}

static void walk_ray(ray_walk *r, sinew_tree_ray_cast_fn *fn)
{
	for (int t = 0; t < SINEW_TREE_COUNT && !r->stopped; ++t) {
		sinew_ray_cast_input in = {r->origin, r->translation, r->max_fraction};
		sinew_dynamic_tree_ray_cast(&r->q->w->trees[t], &in, r->q->filter.mask, fn, r);
	}
}

static bool begin_ray(query *q, ray_walk *r, sinew_world_id world, sinew_vec2 origin, sinew_vec2 translation,
                      const sinew_query_filter *filter, const char *fn, bool *was_locked)
{
	if (!begin_query(q, world, filter, fn, was_locked)) return false;
	if (!check_vec(q->w, fn, "origin", origin) || !check_vec(q->w, fn, "translation", translation)) {
		end_query(q, *was_locked);
		return false;
	}
	memset(r, 0, sizeof *r);
	r->q = q;
	r->origin = origin;
	r->translation = translation;
	r->max_fraction = 1.0f;
	r->best_index = SINEW_NULL_INDEX;
	return true;
}

sinew_query_filter sinew_default_query_filter(void)
{
	sinew_query_filter f;
	memset(&f, 0, sizeof f);
	f.mask = 0xffffffffu;
	return f;
}

sinew_ray_hit sinew_world_cast_ray_closest(sinew_world_id world, sinew_vec2 origin, sinew_vec2 translation,
                                           const sinew_query_filter *filter)
{
	query q;
	ray_walk r;
	bool was_locked;
	if (!begin_ray(&q, &r, world, origin, translation, filter, "sinew_world_cast_ray_closest", &was_locked))
		return no_ray_hit();
	walk_ray(&r, closest_ray_proxy);
	end_query(&q, was_locked);
	return r.best.hit ? r.best : no_ray_hit();
}

int sinew_world_cast_ray_all(sinew_world_id world, sinew_vec2 origin, sinew_vec2 translation,
                             const sinew_query_filter *filter, sinew_ray_hit *hits, int capacity)
{
	const char *fn = "sinew_world_cast_ray_all";
	query q;
	ray_walk r;
	bool was_locked;
	if (!begin_ray(&q, &r, world, origin, translation, filter, fn, &was_locked)) return 0;
	if (capacity < 0 || (capacity > 0 && hits == NULL)) {
		sinew_world_error(q.w, SINEW_ERROR_INVALID_ARGUMENT, "%s: capacity must be >= 0 with an array when > 0 (got %d)",
		                  fn, capacity);
		end_query(&q, was_locked);
		return 0;
	}
	r.hits = hits;
	r.capacity = capacity;
	walk_ray(&r, all_ray_proxy);
	end_query(&q, was_locked);
	return r.found;
}

int sinew_world_cast_ray(sinew_world_id world, sinew_vec2 origin, sinew_vec2 translation,
                         const sinew_query_filter *filter, sinew_ray_fn *fn, void *context)
{
	const char *name = "sinew_world_cast_ray";
	query q;
	ray_walk r;
	bool was_locked;
	if (!begin_ray(&q, &r, world, origin, translation, filter, name, &was_locked)) return 0;
	if (fn == NULL) {
		sinew_world_error(q.w, SINEW_ERROR_INVALID_ARGUMENT, "%s: the callback is NULL", name);
		end_query(&q, was_locked);
		return 0;
	}
	r.fn = fn;
	r.context = context;
	walk_ray(&r, user_ray_proxy);
	end_query(&q, was_locked);
	return r.calls;
}

/* ---- shape casts ---- */

/* One moving geometry (a given one, or one shape of a cast body) and what it has hit so far. */
typedef struct shape_sweep {
	const sinew_geometry *geom;
	sinew_transform xf;
	sinew_vec2 translation;
	sinew_shape_id cast_shape; /* body casts: the body's shape being moved */
	/* first hit */
	sinew_shape_hit best;
	int32_t best_index;
	/* cast_motion */
	float safe, unsafe;
} shape_sweep;

/* The box the sweep passes through, grown by the stop gap (a hit may happen that far apart). */
static sinew_aabb sweep_box(const shape_sweep *s, float gap)
{
	sinew_aabb a = sinew_compute_aabb(s->geom, s->xf);
	sinew_transform end = s->xf;
	end.p = sinew_add(end.p, s->translation);
	sinew_aabb box = sinew_aabb_union(a, sinew_compute_aabb(s->geom, end));
	box.lower = sinew_sub(box.lower, sinew_v2(gap, gap));
	box.upper = sinew_add(box.upper, sinew_v2(gap, gap));
	return box;
}

/* Without hit_from_inside a shape the sweep starts in is ignored (Godot's cast_motion). */
static bool starts_inside(const query *q, const shape_sweep *s, int32_t si)
{
	const sinew_shape *target = &q->w->shapes[si];
	return sinew_shape_distance(s->geom, s->xf, &target->geom, shape_transform(q->w, si)).distance <= 0.0f;
}

static sinew_shape_cast_output cast_against(const query *q, const shape_sweep *s, int32_t si, float target)
{
	const sinew_shape *t = &q->w->shapes[si];
	return sinew_shape_cast(s->geom, s->xf, s->translation, &t->geom, shape_transform(q->w, si), 1.0f, target);
}

static bool first_hit_candidate(const query *q, int32_t si, void *context)
{
	shape_sweep *s = context;
	if (!q->filter.hit_from_inside && starts_inside(q, s, si)) return true;
	sinew_shape_cast_output c = cast_against(q, s, si, q->w->linear_slop);
	if (!c.hit) return true;
	if (s->best.hit && !(c.fraction < s->best.fraction || (c.fraction == s->best.fraction && si < s->best_index)))
		return true;
	s->best.shape = sinew_make_shape_id(q->w, si);
	s->best.body = sinew_make_body_id(q->w, q->w->shapes[si].body);
	s->best.cast_shape = s->cast_shape;
	s->best.point = c.point;
	s->best.normal = c.normal;
	s->best.fraction = c.fraction;
	s->best.hit = true;
	s->best_index = si;
	return true;
}

/* Safe: the gap closes to the linear slop. Unsafe: it closes to a quarter of it. A shape whose
 * gap never gets within the quarter (a grazing pass) does not count as a contact at all. */
static bool motion_candidate(const query *q, int32_t si, void *context)
{
	shape_sweep *s = context;
	if (!q->filter.hit_from_inside && starts_inside(q, s, si)) return true;
	float slop = q->w->linear_slop;
	sinew_shape_cast_output touch = cast_against(q, s, si, 0.25f * slop);
	if (!touch.hit) return true;
	sinew_shape_cast_output clear = cast_against(q, s, si, slop);
	float safe = clear.hit ? sinew_minf(clear.fraction, touch.fraction) : touch.fraction;
	s->safe = sinew_minf(s->safe, safe);
	s->unsafe = sinew_minf(s->unsafe, touch.fraction);
	return true;
}

static void sweep_init(shape_sweep *s, const sinew_geometry *geom, sinew_transform xf, sinew_vec2 translation,
                       sinew_shape_id cast_shape)
{
	memset(s, 0, sizeof *s);
	s->geom = geom;
	s->xf = xf;
	s->translation = translation;
	s->cast_shape = cast_shape;
	s->best_index = SINEW_NULL_INDEX;
	s->safe = 1.0f;
	s->unsafe = 1.0f;
}

static sinew_shape_hit no_shape_hit(void)
{
	sinew_shape_hit h;
	memset(&h, 0, sizeof h);
	return h;
}

/* Better of two first hits: lower fraction, then lower shape index, then the earlier cast shape. */
static void keep_first_hit(sinew_shape_hit *best, int32_t *best_index, const shape_sweep *s)
{
	if (!s->best.hit) return;
	if (best->hit && !(s->best.fraction < best->fraction ||
	                   (s->best.fraction == best->fraction && s->best_index < *best_index)))
		return;
	*best = s->best;
	*best_index = s->best_index;
}

/* Each non-sensor shape of the body, moved from the body's transform; the body itself is skipped. */
static void sweep_body(const query *q, const sinew_body *b, sinew_vec2 translation, candidate_fn *fn,
                       sinew_shape_hit *best, float *safe, float *unsafe)
{
	int32_t best_index = SINEW_NULL_INDEX;
	for (int32_t si = b->shape_list; si != SINEW_NULL_INDEX; si = q->w->shapes[si].next) {
		const sinew_shape *shape = &q->w->shapes[si];
		if (shape->sensor) continue;
		shape_sweep s;
		sweep_init(&s, &shape->geom, b->xf, translation, sinew_make_shape_id(q->w, si));
		visit_box(q, sweep_box(&s, 2.0f * q->w->linear_slop), fn, &s);
		keep_first_hit(best, &best_index, &s);
		*safe = sinew_minf(*safe, s.safe);
		*unsafe = sinew_minf(*unsafe, s.unsafe);
	}
}

/* Shared front of the geometry casts. */
static bool begin_geometry_cast(query *q, sinew_world_id world, const sinew_geometry *geometry,
                                sinew_transform transform, sinew_vec2 translation, const sinew_query_filter *filter,
                                const char *fn, bool *was_locked)
{
	if (!begin_query(q, world, filter, fn, was_locked)) return false;
	if (check_geometry(q->w, fn, geometry) && check_transform(q->w, fn, transform) &&
	    check_vec(q->w, fn, "translation", translation))
		return true;
	end_query(q, *was_locked);
	return false;
}

/* Shared front of the body casts: the body must be live and in this world. */
static const sinew_body *begin_body_cast(query *q, sinew_world_id world, sinew_body_id body_id,
                                         sinew_vec2 translation, const sinew_query_filter *filter, const char *fn,
                                         bool *was_locked)
{
	if (!begin_query(q, world, filter, fn, was_locked)) return NULL;
	sinew_world *bw;
	const sinew_body *b = sinew_body_lookup(body_id, &bw, fn);
	if (b != NULL && bw != q->w) {
		sinew_world_error(q->w, SINEW_ERROR_INVALID_ARGUMENT, "%s: the body belongs to another world", fn);
		b = NULL;
	}
	if (b != NULL && check_vec(q->w, fn, "translation", translation)) {
		q->self_body = body_id.index1 - 1;
		return b;
	}
	end_query(q, *was_locked);
	return NULL;
}

sinew_shape_hit sinew_world_cast_shape(sinew_world_id world, const sinew_geometry *geometry, sinew_transform transform,
                                       sinew_vec2 translation, const sinew_query_filter *filter)
{
	query q;
	bool was_locked;
	if (!begin_geometry_cast(&q, world, geometry, transform, translation, filter, "sinew_world_cast_shape",
	                         &was_locked))
		return no_shape_hit();
	shape_sweep s;
	sweep_init(&s, geometry, transform, translation, sinew_null_shape_id);
	visit_box(&q, sweep_box(&s, 2.0f * q.w->linear_slop), first_hit_candidate, &s);
	end_query(&q, was_locked);
	return s.best.hit ? s.best : no_shape_hit();
}

sinew_shape_hit sinew_world_cast_body(sinew_world_id world, sinew_body_id body, sinew_vec2 translation,
                                      const sinew_query_filter *filter)
{
	query q;
	bool was_locked;
	const sinew_body *b = begin_body_cast(&q, world, body, translation, filter, "sinew_world_cast_body", &was_locked);
	if (b == NULL) return no_shape_hit();
	sinew_shape_hit best = no_shape_hit();
	float safe = 1.0f, unsafe = 1.0f;
	sweep_body(&q, b, translation, first_hit_candidate, &best, &safe, &unsafe);
	end_query(&q, was_locked);
	return best;
}

static bool check_outputs(sinew_world *w, const char *fn, float *safe_fraction, float *unsafe_fraction)
{
	if (safe_fraction != NULL && unsafe_fraction != NULL) return true;
	sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "%s: safe_fraction and unsafe_fraction must not be NULL", fn);
	return false;
}

/* On a refused call the outputs (when given) say "do not move". */
static bool refuse_motion(float *safe_fraction, float *unsafe_fraction)
{
	if (safe_fraction != NULL) *safe_fraction = 0.0f;
	if (unsafe_fraction != NULL) *unsafe_fraction = 0.0f;
	return false;
}

bool sinew_world_cast_motion(sinew_world_id world, const sinew_geometry *geometry, sinew_transform transform,
                             sinew_vec2 translation, const sinew_query_filter *filter, float *safe_fraction,
                             float *unsafe_fraction)
{
	const char *fn = "sinew_world_cast_motion";
	query q;
	bool was_locked;
	if (!begin_geometry_cast(&q, world, geometry, transform, translation, filter, fn, &was_locked))
		return refuse_motion(safe_fraction, unsafe_fraction);
	if (!check_outputs(q.w, fn, safe_fraction, unsafe_fraction)) {
		end_query(&q, was_locked);
		return refuse_motion(safe_fraction, unsafe_fraction);
	}
	shape_sweep s;
	sweep_init(&s, geometry, transform, translation, sinew_null_shape_id);
	visit_box(&q, sweep_box(&s, 2.0f * q.w->linear_slop), motion_candidate, &s);
	end_query(&q, was_locked);
	*safe_fraction = s.safe;
	*unsafe_fraction = s.unsafe;
	return true;
}

bool sinew_world_cast_body_motion(sinew_world_id world, sinew_body_id body, sinew_vec2 translation,
                                  const sinew_query_filter *filter, float *safe_fraction, float *unsafe_fraction)
{
	const char *fn = "sinew_world_cast_body_motion";
	query q;
	bool was_locked;
	const sinew_body *b = begin_body_cast(&q, world, body, translation, filter, fn, &was_locked);
	if (b == NULL) return refuse_motion(safe_fraction, unsafe_fraction);
	if (!check_outputs(q.w, fn, safe_fraction, unsafe_fraction)) {
		end_query(&q, was_locked);
		return refuse_motion(safe_fraction, unsafe_fraction);
	}
	sinew_shape_hit best = no_shape_hit();
	float safe = 1.0f, unsafe = 1.0f;
	sweep_body(&q, b, translation, motion_candidate, &best, &safe, &unsafe);
	end_query(&q, was_locked);
	*safe_fraction = safe;
	*unsafe_fraction = unsafe;
	return true;
}

/* ---- overlaps ---- */

typedef struct overlap_walk {
	sinew_overlap_fn *fn;
	void *context;
	int count;
	/* the test: a box, a placed geometry or a point */
	sinew_aabb box;
	const sinew_geometry *geom;
	sinew_transform xf;
	sinew_vec2 point;
} overlap_walk;

static bool report_overlap(const query *q, int32_t si, overlap_walk *o)
{
	o->count += 1;
	return o->fn == NULL || o->fn(sinew_make_shape_id(q->w, si), o->context);
}

static bool aabb_candidate(const query *q, int32_t si, void *context)
{
	overlap_walk *o = context;
	const sinew_shape *s = &q->w->shapes[si];
	if (!sinew_aabb_overlaps(sinew_compute_aabb(&s->geom, shape_transform(q->w, si)), o->box)) return true;
	return report_overlap(q, si, o);
}

static bool shape_candidate(const query *q, int32_t si, void *context)
{
	overlap_walk *o = context;
	const sinew_shape *s = &q->w->shapes[si];
	if (sinew_shape_distance(o->geom, o->xf, &s->geom, shape_transform(q->w, si)).distance > 0.0f) return true;
	return report_overlap(q, si, o);
}

static bool point_candidate(const query *q, int32_t si, void *context)
{
	overlap_walk *o = context;
	const sinew_shape *s = &q->w->shapes[si];
	if (!sinew_geometry_test_point(&s->geom, shape_transform(q->w, si), o->point)) return true;
	return report_overlap(q, si, o);
}

static overlap_walk overlap_init(sinew_overlap_fn *fn, void *context)
{
	overlap_walk o;
	memset(&o, 0, sizeof o);
	o.fn = fn;
	o.context = context;
	return o;
}

int sinew_world_overlap_aabb(sinew_world_id world, sinew_aabb aabb, const sinew_query_filter *filter,
                             sinew_overlap_fn *fn, void *context)
{
	const char *name = "sinew_world_overlap_aabb";
	query q;
	bool was_locked;
	if (!begin_query(&q, world, filter, name, &was_locked)) return 0;
	if (!check_vec(q.w, name, "the box's lower corner", aabb.lower) ||
	    !check_vec(q.w, name, "the box's upper corner", aabb.upper)) {
		end_query(&q, was_locked);
		return 0;
	}
	if (aabb.lower.x > aabb.upper.x || aabb.lower.y > aabb.upper.y) {
		sinew_world_error(q.w, SINEW_ERROR_INVALID_ARGUMENT, "%s: the box's lower corner is above its upper one", name);
		end_query(&q, was_locked);
		return 0;
	}
	overlap_walk o = overlap_init(fn, context);
	o.box = aabb;
	visit_box(&q, aabb, aabb_candidate, &o);
	end_query(&q, was_locked);
	return o.count;
}

int sinew_world_overlap_shape(sinew_world_id world, const sinew_geometry *geometry, sinew_transform transform,
                              const sinew_query_filter *filter, sinew_overlap_fn *fn, void *context)
{
	query q;
	bool was_locked;
	if (!begin_geometry_cast(&q, world, geometry, transform, sinew_v2(0.0f, 0.0f), filter, "sinew_world_overlap_shape",
	                         &was_locked))
		return 0;
	overlap_walk o = overlap_init(fn, context);
	o.geom = geometry;
	o.xf = transform;
	visit_box(&q, sinew_compute_aabb(geometry, transform), shape_candidate, &o);
	end_query(&q, was_locked);
	return o.count;
}

int sinew_world_overlap_point(sinew_world_id world, sinew_vec2 point, const sinew_query_filter *filter,
                              sinew_overlap_fn *fn, void *context)
{
	const char *name = "sinew_world_overlap_point";
	query q;
	bool was_locked;
	if (!begin_query(&q, world, filter, name, &was_locked)) return 0;
	if (!check_vec(q.w, name, "point", point)) {
		end_query(&q, was_locked);
		return 0;
	}
	overlap_walk o = overlap_init(fn, context);
	o.point = point;
	sinew_aabb box = {point, point};
	visit_box(&q, box, point_candidate, &o);
	end_query(&q, was_locked);
	return o.count;
}
