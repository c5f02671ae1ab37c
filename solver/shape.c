/* Shapes: creation on a body, destruction, material and filter changes, and broadphase proxies. */
#include "world.h"

#include <string.h>

sinew_shape_id sinew_make_shape_id(const sinew_world *world, int32_t index)
{
	sinew_shape_id id = {index + 1, world->index, world->shapes[index].generation};
	return id;
}

static sinew_shape *shape_lookup(sinew_shape_id id, sinew_world **world_out, const char *fn)
{
	*world_out = NULL;
	if (id.index1 <= 0) {
		sinew_report(NULL, NULL, SINEW_ERROR_INVALID_ID, "%s: null shape id", fn);
		return NULL;
	}
	sinew_world *w = sinew_world_from_index(id.world0, fn);
	if (w == NULL) return NULL;
	int32_t i = id.index1 - 1;
	if (i >= (int32_t)stbds_arrlen(w->shapes) || !w->shapes[i].in_use || w->shapes[i].generation != id.generation) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ID, "%s: stale shape id (index %d, generation %u)", fn,
		                  (int)id.index1, (unsigned)id.generation);
		return NULL;
	}
	*world_out = w;
	return &w->shapes[i];
}

#define SHAPE_OR(fail, fn)                                    \
	sinew_world *w;                                           \
	sinew_shape *s = shape_lookup(shape_id, &w, fn);          \
	if (s == NULL) return fail
#define SHAPE_MUT_OR(fail, fn) \
	SHAPE_OR(fail, fn);        \
	if (!sinew_world_check_unlocked(w, fn)) return fail

int32_t sinew_tree_for_body(const sinew_body *body)
{
	switch ((sinew_body_type)body->type) {
	case SINEW_STATIC_BODY: return SINEW_TREE_STATIC;
	case SINEW_KINEMATIC_BODY: return SINEW_TREE_KINEMATIC;
	case SINEW_DYNAMIC_BODY: return SINEW_TREE_DYNAMIC;
	case SINEW_BODY_TYPE_COUNT: break;
	}
	return SINEW_TREE_STATIC;
}

void sinew_shape_create_proxy(sinew_world *w, sinew_shape *shape, const sinew_body *body)
{
	shape->aabb = sinew_compute_aabb(&shape->geom, body->xf);
	/* static shapes never move, so their boxes need no margin */
	float margin = body->type == SINEW_STATIC_BODY ? 0.0f : w->aabb_margin;
	shape->fat_aabb.lower = sinew_sub(shape->aabb.lower, sinew_v2(margin, margin));
	shape->fat_aabb.upper = sinew_add(shape->aabb.upper, sinew_v2(margin, margin));
	shape->tree = sinew_tree_for_body(body);
	int32_t index = (int32_t)(shape - w->shapes);
	sinew_world_scope scope = sinew_world_scope_enter(w);
	shape->proxy = sinew_dynamic_tree_create_proxy(&w->trees[shape->tree], shape->fat_aabb, shape->layer | shape->mask,
	                                               (uint64_t)index);
	sinew_world_scope_leave(w, scope);
	/* a valid box refused only when the tree could not grow */
	sinew_aabb box = shape->fat_aabb;
	bool finite = sinew_is_finite(box.lower.x) && sinew_is_finite(box.lower.y) && sinew_is_finite(box.upper.x) &&
	              sinew_is_finite(box.upper.y);
	if (shape->proxy == SINEW_NULL_NODE && finite) sinew_oom_fail("sinew_shape_create_proxy");
	shape->moved = true;
	stbds_arrput(w->moved_shapes, index);
}

void sinew_shape_destroy_proxy(sinew_world *w, sinew_shape *shape)
{
	if (shape->proxy == SINEW_NULL_NODE) return;
	sinew_world_scope scope = sinew_world_scope_enter(w);
	sinew_dynamic_tree_destroy_proxy(&w->trees[shape->tree], shape->proxy);
	sinew_world_scope_leave(w, scope);
	shape->proxy = SINEW_NULL_NODE;
	if (shape->moved) { /* drop it from the moved list */
		int32_t index = (int32_t)(shape - w->shapes);
		int n = (int)stbds_arrlen(w->moved_shapes);
		for (int i = 0; i < n; ++i) {
			if (w->moved_shapes[i] == index) {
				stbds_arrdel(w->moved_shapes, i);
				break;
			}
		}
		shape->moved = false;
	}
}

static bool validate_shape_def(sinew_world *w, const sinew_shape_def *d, const char *fn)
{
	if (d == NULL || d->internal_value != SINEW_DEF_COOKIE) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "%s: the def must come from sinew_default_shape_def()", fn);
		return false;
	}
	if (!sinew_is_finite(d->density) || !sinew_is_finite(d->friction) || !sinew_is_finite(d->restitution)) {
		sinew_world_error(w, SINEW_ERROR_NOT_FINITE, "%s: density, friction and restitution must be finite", fn);
		return false;
	}
	if (d->density < 0.0f || d->friction < 0.0f || d->restitution < 0.0f) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT,
		                  "%s: density (%g), friction (%g) and restitution (%g) must be >= 0", fn, (double)d->density,
		                  (double)d->friction, (double)d->restitution);
		return false;
	}
	return sinew_check_within(w, fn, "density", d->density, SINEW_MAX_DENSITY) &&
	       sinew_check_within(w, fn, "friction", d->friction, SINEW_MAX_COEFFICIENT) &&
	       sinew_check_within(w, fn, "restitution", d->restitution, SINEW_MAX_COEFFICIENT);
}

static bool check_point(sinew_world *w, const char *fn, sinew_vec2 p)
{
	if (!sinew_vec2_is_valid(p)) {
		sinew_world_error(w, SINEW_ERROR_NOT_FINITE, "%s: a point of the geometry is not finite", fn);
		return false;
	}
	return sinew_check_within_vec(w, fn, "a point of the geometry", p, sinew_world_max_size(w));
}

static bool check_radius(sinew_world *w, const char *fn, float r, bool zero_ok)
{
	if (!sinew_is_finite(r)) {
		sinew_world_error(w, SINEW_ERROR_NOT_FINITE, "%s: radius is not finite", fn);
		return false;
	}
	if (r < 0.0f || (!zero_ok && r == 0.0f)) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "%s: radius must be %s (got %g)", fn, zero_ok ? ">= 0" : "> 0",
		                  (double)r);
		return false;
	}
	return sinew_check_within(w, fn, "radius", r, sinew_world_max_size(w));
}

/* Left turns at every vertex allow a star that winds twice (a pentagram); convex with winding
 * number one means every vertex lies on the inner side of every edge. */
static bool every_vertex_inside(const sinew_polygon *p)
{
	for (int i = 0; i < p->count; ++i) {
		sinew_vec2 a = p->vertices[i], e = sinew_sub(p->vertices[(i + 1) % p->count], a);
		for (int j = 0; j < p->count; ++j)
			if (sinew_cross(e, sinew_sub(p->vertices[j], a)) < 0.0f) return false;
	}
	return true;
}

/* A polygon must be convex, counter-clockwise, with non-degenerate area. */
static bool validate_polygon(sinew_world *w, const sinew_polygon *p, const char *fn)
{
	if (p->count < 3 || p->count > SINEW_MAX_POLYGON_VERTICES) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "%s: a polygon needs 3..%d vertices (got %d)", fn,
		                  SINEW_MAX_POLYGON_VERTICES, p->count);
		return false;
	}
	if (!check_radius(w, fn, p->radius, true)) return false;
	float area2 = 0.0f;
	for (int i = 0; i < p->count; ++i) {
		if (!check_point(w, fn, p->vertices[i]) || !check_point(w, fn, p->normals[i])) return false;
		sinew_vec2 a = p->vertices[i], b = p->vertices[(i + 1) % p->count], c = p->vertices[(i + 2) % p->count];
		if (sinew_cross(sinew_sub(b, a), sinew_sub(c, b)) <= 0.0f) {
			sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT,
			                  "%s: the polygon has zero area or is not convex and counter-clockwise", fn);
			return false;
		}
		area2 += sinew_cross(a, b);
	}
	if (!(area2 > 0.0f)) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "%s: the polygon has zero area", fn);
		return false;
	}
	if (!every_vertex_inside(p)) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT,
		                  "%s: the polygon crosses itself (it winds more than once, like a star), so it is not convex", fn);
		return false;
	}
	return true;
}

static sinew_shape_id create_shape_unguarded(sinew_body_id body_id, const sinew_shape_def *def,
                                             const sinew_geometry *geom, const char *fn)
{
	sinew_world *w;
	sinew_body *b = sinew_body_lookup(body_id, &w, fn);
	if (b == NULL || !sinew_world_check_unlocked(w, fn) || !validate_shape_def(w, def, fn)) return sinew_null_shape_id;
	int32_t body_index = body_id.index1 - 1;
	if (!sinew_world_can_create(w, fn)) return sinew_null_shape_id;
	/* room first, so running out of memory changes nothing: the shape's slot, and its place in
	 * the moved list (which holds each shape at most once) */
	if (!SINEW_RESERVE(w->shapes, stbds_arrlen(w->shapes) + 1) ||
	    !SINEW_RESERVE(w->moved_shapes, (size_t)w->shape_count + 1)) {
		sinew_world_error(w, SINEW_ERROR_OUT_OF_MEMORY, "%s: out of memory", fn);
		return sinew_null_shape_id;
	}
	uint32_t generation = sinew_world_next_generation(w);
	int32_t index;
	if (w->shape_free != SINEW_NULL_INDEX) {
		index = w->shape_free;
		w->shape_free = w->shapes[index].next;
	} else {
		index = (int32_t)stbds_arrlen(w->shapes);
		sinew_shape blank;
		memset(&blank, 0, sizeof blank);
		stbds_arrput(w->shapes, blank);
	}
	sinew_shape *s = &w->shapes[index];
	memset(s, 0, sizeof *s);
	s->generation = generation;
	s->in_use = true;
	s->geom = *geom;
	s->bound = sinew_make_separation_bound(geom);
	s->density = def->density;
	s->friction = def->friction;
	s->restitution = def->restitution;
	s->layer = def->layer;
	s->mask = def->mask;
	s->group = def->group;
	s->sensor = def->is_sensor;
	s->enable_contact_events = def->enable_contact_events;
	s->enable_sensor_events = def->enable_sensor_events;
	s->user_data = def->user_data;
	s->body = body_index;
	s->proxy = SINEW_NULL_NODE;
	s->next = b->shape_list;
	b->shape_list = index;
	b->shape_count += 1;
	w->shape_count += 1;
	if (b->enabled) sinew_shape_create_proxy(w, s, b);
	if (def->update_body_mass) b->mass_overridden = false;
	sinew_body_update_mass(w, b);
	sinew_body_wake(w, b);
	return sinew_make_shape_id(w, index);
}

/* The tree may still have to grow for the proxy: that failure poisons the world (core.h). */
SINEW_GUARDED(static, sinew_shape_id, create_shape,
              (sinew_body_id body_id, const sinew_shape_def *def, const sinew_geometry *geom, const char *fn),
              create_shape_unguarded(body_id, def, geom, fn), body_id.world0, sinew_null_shape_id)

sinew_shape_id sinew_create_circle_shape(sinew_body_id body, const sinew_shape_def *def, const sinew_circle *circle)
{
	const char *fn = "sinew_create_circle_shape";
	sinew_world *w;
	if (sinew_body_lookup(body, &w, fn) == NULL) return sinew_null_shape_id;
	if (circle == NULL) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "%s: circle is NULL", fn);
		return sinew_null_shape_id;
	}
	if (!check_point(w, fn, circle->center) || !check_radius(w, fn, circle->radius, false)) return sinew_null_shape_id;
	sinew_geometry g;
	g.type = SINEW_SHAPE_CIRCLE;
	g.u.circle = *circle;
	return create_shape(body, def, &g, fn);
}

sinew_shape_id sinew_create_capsule_shape(sinew_body_id body, const sinew_shape_def *def, const sinew_capsule *capsule)
{
	const char *fn = "sinew_create_capsule_shape";
	sinew_world *w;
	if (sinew_body_lookup(body, &w, fn) == NULL) return sinew_null_shape_id;
	if (capsule == NULL) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "%s: capsule is NULL", fn);
		return sinew_null_shape_id;
	}
	if (!check_point(w, fn, capsule->center1) || !check_point(w, fn, capsule->center2) ||
	    !check_radius(w, fn, capsule->radius, false))
		return sinew_null_shape_id;
	sinew_geometry g;
	g.type = SINEW_SHAPE_CAPSULE;
	g.u.capsule = *capsule;
	return create_shape(body, def, &g, fn);
}

sinew_shape_id sinew_create_polygon_shape(sinew_body_id body, const sinew_shape_def *def, const sinew_polygon *polygon)
{
	const char *fn = "sinew_create_polygon_shape";
	sinew_world *w;
	if (sinew_body_lookup(body, &w, fn) == NULL) return sinew_null_shape_id;
	if (polygon == NULL) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "%s: polygon is NULL", fn);
		return sinew_null_shape_id;
	}
	if (!validate_polygon(w, polygon, fn)) return sinew_null_shape_id;
	sinew_geometry g;
	g.type = SINEW_SHAPE_POLYGON;
	g.u.polygon = *polygon;
	return create_shape(body, def, &g, fn);
}

bool sinew_destroy_shape(sinew_shape_id shape_id, bool update_body_mass)
{
	SHAPE_MUT_OR(false, "sinew_destroy_shape");
	int32_t index = shape_id.index1 - 1;
	sinew_body *b = &w->bodies[s->body];
	/* contacts of this shape go first */
	for (int32_t c = b->contact_list; c != SINEW_NULL_INDEX;) {
		sinew_contact *contact = &w->contacts[c];
		int e = sinew_contact_edge_of(contact, s->body);
		int32_t next = contact->edges[e].next;
		if (contact->shape_a == index || contact->shape_b == index) sinew_contact_destroy(w, c, false);
		c = next;
	}
	sinew_shape_destroy_proxy(w, s);
	int32_t *link = &b->shape_list;
	while (*link != index) link = &w->shapes[*link].next;
	*link = s->next;
	b->shape_count -= 1;
	w->shape_count -= 1;
	s->in_use = false;
	s->generation += 1;
	s->next = w->shape_free;
	w->shape_free = index;
	if (update_body_mass) b->mass_overridden = false;
	sinew_body_update_mass(w, b);
	sinew_body_wake(w, b);
	return true;
}

bool sinew_shape_is_valid(sinew_shape_id id)
{
	sinew_world *w = id.index1 > 0 ? sinew_world_peek(id.world0) : NULL;
	if (w == NULL) return false;
	int32_t i = id.index1 - 1;
	return i < (int32_t)stbds_arrlen(w->shapes) && w->shapes[i].in_use && w->shapes[i].generation == id.generation;
}

sinew_shape_type sinew_shape_get_type(sinew_shape_id shape_id)
{
	SHAPE_OR(SINEW_SHAPE_CIRCLE, "sinew_shape_get_type");
	return s->geom.type;
}

sinew_body_id sinew_shape_get_body(sinew_shape_id shape_id)
{
	SHAPE_OR(sinew_null_body_id, "sinew_shape_get_body");
	return sinew_make_body_id(w, s->body);
}

sinew_geometry sinew_shape_get_geometry(sinew_shape_id shape_id)
{
	sinew_geometry g;
	memset(&g, 0, sizeof g);
	SHAPE_OR(g, "sinew_shape_get_geometry");
	return s->geom;
}

bool sinew_shape_set_density(sinew_shape_id shape_id, float density, bool update_body_mass)
{
	SHAPE_MUT_OR(false, "sinew_shape_set_density");
	if (!sinew_is_finite(density) || density < 0.0f) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "sinew_shape_set_density: density must be finite and >= 0");
		return false;
	}
	if (!sinew_check_within(w, "sinew_shape_set_density", "density", density, SINEW_MAX_DENSITY)) return false;
	s->density = density;
	if (update_body_mass) {
		sinew_body *b = &w->bodies[s->body];
		b->mass_overridden = false;
		sinew_body_update_mass(w, b);
	}
	return true;
}

float sinew_shape_get_density(sinew_shape_id shape_id)
{
	SHAPE_OR(0.0f, "sinew_shape_get_density");
	return s->density;
}

/* Material changes reach existing contacts at their next update. */
static void refresh_contact_materials(sinew_world *w, sinew_shape *s, int32_t index)
{
	const sinew_body *b = &w->bodies[s->body];
	for (int32_t c = b->contact_list; c != SINEW_NULL_INDEX;) {
		sinew_contact *contact = &w->contacts[c];
		int e = sinew_contact_edge_of(contact, s->body);
		if (contact->shape_a == index || contact->shape_b == index) {
			const sinew_shape *a = &w->shapes[contact->shape_a], *o = &w->shapes[contact->shape_b];
			contact->friction = sqrtf(a->friction * o->friction);
			contact->restitution = sinew_maxf(a->restitution, o->restitution);
		}
		c = contact->edges[e].next;
	}
}

bool sinew_shape_set_friction(sinew_shape_id shape_id, float friction)
{
	SHAPE_MUT_OR(false, "sinew_shape_set_friction");
	if (!sinew_is_finite(friction) || friction < 0.0f) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "sinew_shape_set_friction: friction must be finite and >= 0");
		return false;
	}
	if (!sinew_check_within(w, "sinew_shape_set_friction", "friction", friction, SINEW_MAX_COEFFICIENT)) return false;
	s->friction = friction;
	refresh_contact_materials(w, s, shape_id.index1 - 1);
	return true;
}

float sinew_shape_get_friction(sinew_shape_id shape_id)
{
	SHAPE_OR(0.0f, "sinew_shape_get_friction");
	return s->friction;
}

bool sinew_shape_set_restitution(sinew_shape_id shape_id, float restitution)
{
	SHAPE_MUT_OR(false, "sinew_shape_set_restitution");
	if (!sinew_is_finite(restitution) || restitution < 0.0f) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT,
		                  "sinew_shape_set_restitution: restitution must be finite and >= 0");
		return false;
	}
	if (!sinew_check_within(w, "sinew_shape_set_restitution", "restitution", restitution, SINEW_MAX_COEFFICIENT))
		return false;
	s->restitution = restitution;
	refresh_contact_materials(w, s, shape_id.index1 - 1);
	return true;
}

float sinew_shape_get_restitution(sinew_shape_id shape_id)
{
	SHAPE_OR(0.0f, "sinew_shape_get_restitution");
	return s->restitution;
}

/* After a filter change: pairs that no longer pass are dropped at the next update; new ones are
 * found by re-inserting the shape. */
static void refilter(sinew_world *w, sinew_shape *s)
{
	sinew_body *b = &w->bodies[s->body];
	if (b->enabled && s->proxy != SINEW_NULL_NODE) {
		sinew_shape_destroy_proxy(w, s);
		sinew_shape_create_proxy(w, s, b);
	}
	sinew_body_wake(w, b);
}

bool sinew_shape_set_filter(sinew_shape_id shape_id, uint32_t layer, uint32_t mask)
{
	SHAPE_MUT_OR(false, "sinew_shape_set_filter");
	s->layer = layer;
	s->mask = mask;
	refilter(w, s);
	return true;
}

bool sinew_shape_set_group(sinew_shape_id shape_id, uint32_t group)
{
	SHAPE_MUT_OR(false, "sinew_shape_set_group");
	s->group = group;
	refilter(w, s);
	return true;
}

uint32_t sinew_shape_get_group(sinew_shape_id shape_id)
{
	SHAPE_OR(0u, "sinew_shape_get_group");
	return s->group;
}

uint32_t sinew_shape_get_layer(sinew_shape_id shape_id)
{
	SHAPE_OR(0u, "sinew_shape_get_layer");
	return s->layer;
}

uint32_t sinew_shape_get_mask(sinew_shape_id shape_id)
{
	SHAPE_OR(0u, "sinew_shape_get_mask");
	return s->mask;
}

bool sinew_shape_is_sensor(sinew_shape_id shape_id)
{
	SHAPE_OR(false, "sinew_shape_is_sensor");
	return s->sensor;
}

bool sinew_shape_set_user_data(sinew_shape_id shape_id, void *user_data)
{
	SHAPE_OR(false, "sinew_shape_set_user_data");
	s->user_data = user_data;
	return true;
}

void *sinew_shape_get_user_data(sinew_shape_id shape_id)
{
	SHAPE_OR(NULL, "sinew_shape_get_user_data");
	return s->user_data;
}

sinew_aabb sinew_shape_get_aabb(sinew_shape_id shape_id)
{
	sinew_aabb box = {{0.0f, 0.0f}, {0.0f, 0.0f}};
	SHAPE_OR(box, "sinew_shape_get_aabb");
	return sinew_compute_aabb(&s->geom, w->bodies[s->body].xf);
}

sinew_mass_data sinew_shape_get_mass_data(sinew_shape_id shape_id)
{
	sinew_mass_data m = {0.0f, {0.0f, 0.0f}, 0.0f};
	SHAPE_OR(m, "sinew_shape_get_mass_data");
	return sinew_compute_mass(&s->geom, s->density);
}
