/* Contacts: one per pair of shapes whose fat boxes overlap. Each step the narrowphase refreshes
 * the manifold of every contact with an awake body (recycling it while the bodies barely moved
 * relative to each other, below), carries the impulses of points whose feature
 * ids persist (warm starting), and records begin/end touch and sensor events. */
#include "world.h"

#include <string.h>

static void link_edge(sinew_world *w, int32_t ci, int e)
{
	sinew_contact *c = &w->contacts[ci];
	sinew_body *b = &w->bodies[c->edges[e].body];
	c->edges[e].prev = SINEW_NULL_INDEX;
	c->edges[e].next = b->contact_list;
	if (b->contact_list != SINEW_NULL_INDEX) {
		sinew_contact *head = &w->contacts[b->contact_list];
		head->edges[sinew_contact_edge_of(head, c->edges[e].body)].prev = ci;
	}
	b->contact_list = ci;
	b->contact_count += 1;
}

static void unlink_edge(sinew_world *w, int32_t ci, int e)
{
	sinew_contact *c = &w->contacts[ci];
	int32_t body = c->edges[e].body;
	sinew_body *b = &w->bodies[body];
	if (c->edges[e].prev != SINEW_NULL_INDEX) {
		sinew_contact *p = &w->contacts[c->edges[e].prev];
		p->edges[sinew_contact_edge_of(p, body)].next = c->edges[e].next;
	} else {
		b->contact_list = c->edges[e].next;
	}
	if (c->edges[e].next != SINEW_NULL_INDEX) {
		sinew_contact *n = &w->contacts[c->edges[e].next];
		n->edges[sinew_contact_edge_of(n, body)].prev = c->edges[e].prev;
	}
	b->contact_count -= 1;
}

void sinew_contact_create(sinew_world *w, int32_t shape_a, int32_t shape_b)
{
	const sinew_shape *a = &w->shapes[shape_a], *b = &w->shapes[shape_b];
	const sinew_body *ba = &w->bodies[a->body], *bb = &w->bodies[b->body];
	if (ba->type != SINEW_DYNAMIC_BODY && bb->type != SINEW_DYNAMIC_BODY) return;
	if (a->sensor && b->sensor) return;
	if (!sinew_pair_set_reserve(w, 1)) return;
	if (!sinew_index_set_reserve(&w->awake_contacts, (int32_t)stbds_arrlen(w->contacts) + 1)) {
		sinew_world_error(w, SINEW_ERROR_OUT_OF_MEMORY, "out of memory for the awake contact set (%d contacts)", (int)stbds_arrlen(w->contacts) + 1);
		return;
	}
	int32_t ci;
	if (w->contact_free != SINEW_NULL_INDEX) {
		ci = w->contact_free;
		w->contact_free = w->contacts[ci].next_free;
	} else {
		ci = (int32_t)stbds_arrlen(w->contacts);
		sinew_contact blank;
		memset(&blank, 0, sizeof blank);
		stbds_arrput(w->contacts, blank);
	}
	sinew_contact *c = &w->contacts[ci];
	memset(c, 0, sizeof *c);
	c->in_use = true;
	c->shape_a = shape_a;
	c->shape_b = shape_b;
	c->edges[0].body = a->body;
	c->edges[1].body = b->body;
	c->friction = sqrtf(a->friction * b->friction);
	c->restitution = sinew_maxf(a->restitution, b->restitution);
	if (a->sensor || b->sensor) {
		c->flags |= SINEW_CONTACT_SENSOR;
		const sinew_shape *visitor = a->sensor ? b : a;
		if (visitor->enable_sensor_events) c->flags |= SINEW_CONTACT_SENSOR_EVENTS;
	} else if (a->enable_contact_events && b->enable_contact_events) {
		c->flags |= SINEW_CONTACT_EVENTS;
	}
	link_edge(w, ci, 0);
	link_edge(w, ci, 1);
	sinew_pair_set_add(w, shape_a, shape_b, ci);
	sinew_awake_sync_contact(w, ci);
	w->contact_count += 1;
}

static sinew_sensor_event sensor_event(const sinew_world *w, const sinew_contact *c)
{
	sinew_sensor_event e;
	bool a_is_sensor = w->shapes[c->shape_a].sensor;
	e.sensor_shape = sinew_make_shape_id(w, a_is_sensor ? c->shape_a : c->shape_b);
	e.visitor_shape = sinew_make_shape_id(w, a_is_sensor ? c->shape_b : c->shape_a);
	return e;
}

static void report_end(sinew_world *w, const sinew_contact *c)
{
	if (!(c->flags & SINEW_CONTACT_TOUCHING)) return;
	if (c->flags & SINEW_CONTACT_SENSOR) {
		if (c->flags & SINEW_CONTACT_SENSOR_EVENTS) stbds_arrput(w->sensor_end_events, sensor_event(w, c));
	} else if (c->flags & SINEW_CONTACT_EVENTS) {
		sinew_contact_end_event e = {sinew_make_shape_id(w, c->shape_a), sinew_make_shape_id(w, c->shape_b)};
		stbds_arrput(w->end_events, e);
	}
}

void sinew_contact_destroy(sinew_world *w, int32_t ci, bool report)
{
	sinew_contact *c = &w->contacts[ci];
	if (report) report_end(w, c);
	if ((c->flags & SINEW_CONTACT_TOUCHING) && !(c->flags & SINEW_CONTACT_SENSOR)) {
		/* whatever rested on the other body must not hang in the air asleep */
		sinew_body_wake(w, &w->bodies[c->edges[0].body]);
		sinew_body_wake(w, &w->bodies[c->edges[1].body]);
	}
	unlink_edge(w, ci, 0);
	unlink_edge(w, ci, 1);
	sinew_pair_set_remove(w, c->shape_a, c->shape_b);
	if ((c->flags & (SINEW_CONTACT_TOUCHING | SINEW_CONTACT_SENSOR)) == SINEW_CONTACT_TOUCHING) w->touching_live -= 1;
	c->in_use = false;
	sinew_awake_sync_contact(w, ci);
	c->next_free = w->contact_free;
	w->contact_free = ci;
	w->contact_count -= 1;
}

/* Carry last step's per-substep impulses to the points with the same feature ids (old_id: last
 * step's points, old_count of them). */
static void match_impulses(sinew_contact *c, const uint16_t *old_id, int old_count)
{
	sinew_manifold *m = &c->manifold;
	/* The common case, a resting or recycled pair: the same ids in the same order. Each point then
	 * finds its own slot first (the second point only if the first id differs from it), so its
	 * impulses stay where they are, as the search below would leave them. */
	if (old_count == m->point_count &&
	    (old_count == 0 || (old_id[0] == m->points[0].id &&
	                        (old_count == 1 || (old_id[1] == m->points[1].id && old_id[0] != m->points[1].id))))) {
		for (int i = 0; i < old_count; ++i) m->points[i].persisted = true;
		return;
	}
	float normal[2] = {c->warm_normal[0], c->warm_normal[1]}, tangent[2] = {c->warm_tangent[0], c->warm_tangent[1]};
	for (int i = 0; i < m->point_count; ++i) {
		sinew_manifold_point *p = &m->points[i];
		c->warm_normal[i] = c->warm_tangent[i] = 0.0f;
		for (int j = 0; j < old_count; ++j) {
			if (old_id[j] == p->id) {
				c->warm_normal[i] = normal[j];
				c->warm_tangent[i] = tangent[j];
				p->persisted = true;
				break;
			}
		}
	}
}

static sinew_vec2 point_velocity(const sinew_body *b, sinew_vec2 point)
{
	return sinew_add(b->v, sinew_cross_sv(b->w, sinew_sub(point, b->center)));
}

/* Speculative contacts: keep the points the bodies can reach within this step at their present
 * approach speed, so a fast body is stopped at the surface instead of sinking into it, and no
 * point beyond the pair's reach (the narrowphase's own bound, which a recycled or padded
 * manifold may exceed). Both reaches count the pair's lift (contact_push.c): the velocity passes
 * see each point lift closer than it is, so a point is in reach of them while its gap is under
 * reach + lift. */
static void keep_reachable_points(const sinew_world *w, sinew_manifold *m, const sinew_body *a, const sinew_body *b,
                                  float dt, float pair_reach, float lift, float reach_gravity)
{
	int k = 0;
	/* the reach at no approach speed: a point within it (a resting one) is kept without its
	 * velocities, as the reach only grows with the speed (float sums are monotonic) */
	float still_reach = w->speculative_distance + lift + reach_gravity;
	for (int i = 0; i < m->point_count; ++i) {
		sinew_manifold_point *p = &m->points[i];
		if (!(p->separation <= still_reach)) {
			float vn = sinew_dot(sinew_sub(point_velocity(b, p->point), point_velocity(a, p->point)), m->normal);
			float reach = w->speculative_distance + lift + dt * sinew_maxf(-vn, 0.0f) + reach_gravity;
			if (!(p->separation <= reach)) continue;
		}
		if (!(p->separation <= pair_reach)) continue;
		if (k != i) m->points[k] = *p;
		k += 1;
	}
	m->point_count = k;
}

/* Contact recycling. A manifold found for one pose of the pair stays good while the bodies barely
 * move relative to each other: its points are material points of each body, so they follow the
 * bodies, and the separation changes by the relative motion of the two points along the normal
 * (exact to first order; the features that touch do not change under a motion this small).
 * The narrowphase is run with a padded reach and its result kept in the bodies' frames; the
 * next steps reuse it while (1) no material point of one body has moved more than
 * recycle_tolerance in the other's frame since then, and (2) the pair's reach now is still
 * recycle_tolerance inside the padded reach, so no feature outside the kept ones can have come
 * within reach. Resting stacks and piles then skip the narrowphase entirely. */
static void cache_store(sinew_contact_cache *cache, const sinew_manifold *m, sinew_transform xa, sinew_transform xb,
                        float reach)
{
	cache->point_count = m->point_count;
	cache->normal = sinew_inv_rotate(xa.q, m->normal);
	for (int i = 0; i < m->point_count; ++i) {
		cache->local_a[i] = sinew_inv_rotate(xa.q, m->points[i].anchor_a);
		cache->local_b[i] = sinew_inv_rotate(xb.q, m->points[i].anchor_b);
		cache->separation[i] = m->points[i].separation;
		cache->id[i] = m->points[i].id;
	}
	cache->relative_p = sinew_inv_transform_point(xa, xb.p);
	cache->relative_q = sinew_inv_mul_rot(xa.q, xb.q);
	cache->reach = reach;
	cache->valid = true;
}

/* Largest distance from the body's origin to a point of its shapes, or a contact point of them
 * within the reach (origin_extent is max_extent + |local_center|, kept by sinew_body_update_mass:
 * the same sum, without two square roots per contact). */
static float origin_extent(const sinew_body *b, float reach)
{
	return b->origin_extent + reach;
}

/* How far a material point of one body can have moved in the other's frame since the cache was
 * made: measured in the frame of the body that reaches farther, so the turn is paid on the
 * shorter arm (a small box on a long static ring). */
static float cache_motion(const sinew_contact_cache *cache, const sinew_body *a, const sinew_body *b)
{
	sinew_rot q = sinew_inv_mul_rot(a->xf.q, b->xf.q);
	sinew_rot turn = sinew_inv_mul_rot(cache->relative_q, q);
	if (turn.c <= 0.0f) return SINEW_HUGE;
	float ea = origin_extent(a, cache->reach), eb = origin_extent(b, cache->reach);
	if (eb <= ea) {
		sinew_vec2 p = sinew_inv_transform_point(a->xf, b->xf.p);
		return sinew_length(sinew_sub(p, cache->relative_p)) + sinew_absf(turn.s) * eb;
	}
	/* A's origin in B's frame, now and when the cache was made */
	sinew_vec2 p = sinew_inv_transform_point(b->xf, a->xf.p);
	sinew_vec2 p0 = sinew_neg(sinew_inv_rotate(cache->relative_q, cache->relative_p));
	return sinew_length(sinew_sub(p, p0)) + sinew_absf(turn.s) * ea;
}

static bool sharp_polygon(const sinew_geometry *g)
{
	return g->type == SINEW_SHAPE_POLYGON && g->u.polygon.radius == 0.0f;
}

/* The cached manifold at the bodies' present pose, written in place (a fresh manifold's solver
 * fields are zero, as the narrowphase leaves them): no 116-byte manifold built and copied. */
static void cache_manifold(const sinew_contact_cache *cache, sinew_transform xa, sinew_transform xb, sinew_manifold *m)
{
	m->normal = sinew_rotate(xa.q, cache->normal);
	m->point_count = cache->point_count;
	for (int i = 0; i < cache->point_count; ++i) {
		sinew_manifold_point *p = &m->points[i];
		sinew_vec2 pa = sinew_add(xa.p, sinew_rotate(xa.q, cache->local_a[i]));
		sinew_vec2 pb = sinew_add(xb.p, sinew_rotate(xb.q, cache->local_b[i]));
		/* from registers: read back from the point just stored, the anchors stalled on the store */
		sinew_vec2 point = sinew_lerp(pa, pb, 0.5f);
		p->point = point;
		p->anchor_a = sinew_sub(point, xa.p);
		p->anchor_b = sinew_sub(point, xb.p);
		p->separation = cache->separation[i] + sinew_dot(sinew_sub(pb, pa), m->normal);
		p->id = cache->id[i];
		p->normal_impulse = p->tangent_impulse = p->max_normal_impulse = p->normal_velocity = 0.0f;
		p->persisted = false;
	}
}

static float approach_speed(const sinew_world *w, const sinew_contact *c)
{
	const sinew_body *a = &w->bodies[c->edges[0].body], *b = &w->bodies[c->edges[1].body];
	const sinew_manifold_point *p = &c->manifold.points[0];
	return -sinew_dot(sinew_sub(point_velocity(b, p->point), point_velocity(a, p->point)), c->manifold.normal);
}

/* Contact ci of shapes sa and sb (the caller has them: their boxes were just compared). */
static inline void update_one(sinew_world *w, int32_t ci, const sinew_shape *sa, const sinew_shape *sb, float dt,
                              float reach_gravity)
{
	sinew_contact *c = &w->contacts[ci];
	const sinew_body *a = &w->bodies[sa->body], *b = &w->bodies[sb->body];
	bool was_touching = (c->flags & SINEW_CONTACT_TOUCHING) != 0;
	bool touching;
	if (c->flags & SINEW_CONTACT_SENSOR) {
		sinew_manifold m = sinew_collide(&sa->geom, a->xf, &sb->geom, b->xf, 0.0f);
		touching = false;
		for (int i = 0; i < m.point_count; ++i) touching = touching || m.points[i].separation < 0.0f;
		if (touching != was_touching && (c->flags & SINEW_CONTACT_SENSOR_EVENTS)) {
			sinew_sensor_event e = sensor_event(w, c);
			if (touching)
				stbds_arrput(w->sensor_begin_events, e);
			else
				stbds_arrput(w->sensor_end_events, e);
		}
	} else {
		/* of last step's manifold, only its feature ids are needed (match_impulses) */
		int old_count = c->manifold.point_count;
		uint16_t old_id[2] = {c->manifold.points[0].id, c->manifold.points[1].id};
		/* how far the pair can close in this step bounds the speculative search */
		float closing = sinew_length(sinew_sub(b->v, a->v)) + sinew_absf(a->w) * a->max_extent + sinew_absf(b->w) * b->max_extent;
		/* The position pass keeps pairs lifted apart while the velocity passes see them at their
		 * gap minus the lift. Without the lift in the reach, a point of a loaded pair left the
		 * manifold once its true gap passed the speculative distance, and its load vanished at
		 * once: in capsule_pile the pass lifts pairs 2 to 5 cm (more than the 2 cm speculative
		 * distance), and dropped points set off slides in the settled pile every few steps. */
		float reach = w->speculative_distance + c->lift + dt * closing + reach_gravity;
		float tolerance = w->recycle_tolerance;
		/* Only between sharp polygons: their points are vertices, material points of a body. A
		 * round feature's contact point is not (a rolling capsule's point stays at the bottom):
		 * recycled, a capsule pile never settled (capsule_pile: 1,998 of 2,000 bodies still
		 * awake after 1,000 steps, all asleep without). Not for jointed bodies (ragdolls,
		 * figures): a recycled point may slide 0.5 mm along the face, and the contact torque
		 * that moves on a limb showed in the joints' separation (stickman_rain's worst 1.95e-05
		 * -> 2.94e-05 m); their joints are the quality figure. */
		bool recycle = a->joint_count == 0 && b->joint_count == 0 && sharp_polygon(&sa->geom) && sharp_polygon(&sb->geom);
		if (recycle && c->cache.valid && reach + tolerance <= c->cache.reach && cache_motion(&c->cache, a, b) <= tolerance) {
			cache_manifold(&c->cache, a->xf, b->xf, &c->manifold);
		} else {
			float padded = reach + w->recycle_padding;
			/* shapes whose boxes overlap but that are farther apart than the reach: no narrowphase
			 * (tumbler: 49 % of its calls, capsule_pile 30 %); the same empty manifold it gives.
			 * Asked only of pairs without points last step: a touching pair rarely is far apart. */
			if (old_count == 0 && sinew_pair_beyond_reach(&sa->geom, &sa->bound, a->xf, &sb->geom, &sb->bound, b->xf, padded))
				memset(&c->manifold, 0, sizeof c->manifold);
			else
				sinew_collide_into(&sa->geom, a->xf, &sb->geom, b->xf, padded, &c->manifold);
			/* a pair that does not recycle (capsules, jointed bodies) never reads its cache */
			if (recycle)
				cache_store(&c->cache, &c->manifold, a->xf, b->xf, padded);
			else
				c->cache.valid = false;
		}
		keep_reachable_points(w, &c->manifold, a, b, dt, reach, c->lift, reach_gravity);
		match_impulses(c, old_id, old_count);
		touching = c->manifold.point_count > 0;
		if (!touching) c->lift = 0.0f; /* the position pass's lift (contact_push.c) ends with the touch */
		if (touching != was_touching && (c->flags & SINEW_CONTACT_EVENTS)) {
			if (touching) {
				sinew_contact_begin_event e;
				e.shape_a = sinew_make_shape_id(w, c->shape_a);
				e.shape_b = sinew_make_shape_id(w, c->shape_b);
				e.manifold = c->manifold;
				e.approach_speed = approach_speed(w, c);
				stbds_arrput(w->begin_events, e);
			} else {
				sinew_contact_end_event e = {sinew_make_shape_id(w, c->shape_a), sinew_make_shape_id(w, c->shape_b)};
				stbds_arrput(w->end_events, e);
			}
		}
	}
	if (touching != was_touching && !(c->flags & SINEW_CONTACT_SENSOR)) w->touching_live += touching ? 1 : -1;
	if (touching)
		c->flags |= SINEW_CONTACT_TOUCHING;
	else
		c->flags &= ~(uint32_t)SINEW_CONTACT_TOUCHING;
}

/* A body that sinew_body_wake would wake (static bodies stay as they are). */
static bool sleeps(const sinew_body *b)
{
	return !b->awake && b->type != SINEW_STATIC_BODY;
}

/* The contacts with an awake body, in index order (awake.c); a contact whose sleeping body is
 * woken here is still visited this step when it comes later in that order, as in a scan of the
 * pool. Sleeping contacts are not visited: their manifolds stay as they were. */
void sinew_contacts_update(sinew_world *w, float dt)
{
	/* how far gravity can carry a pair together in the step, part of every reach */
	float reach_gravity = sinew_length(w->gravity) * dt * dt;
	stbds_arrsetlen(w->touching_pairs, 0);
	w->touching_pairs_complete = true;
	sinew_index_walk walk;
	sinew_index_set_walk_begin(&w->awake_contacts, &walk);
	for (int32_t ci; (ci = sinew_index_set_walk_next(&w->awake_contacts, &walk)) != SINEW_NULL_INDEX;) {
		sinew_contact *c = &w->contacts[ci];
		const sinew_shape *sa = &w->shapes[c->shape_a], *sb = &w->shapes[c->shape_b];
		if (!sinew_aabb_overlaps(sa->fat_aabb, sb->fat_aabb) || !sinew_shapes_should_collide(sa, sb)) {
			/* a touching contact's end wakes its bodies (sinew_contact_destroy) */
			if (sleeps(&w->bodies[sa->body]) || sleeps(&w->bodies[sb->body])) w->touching_pairs_complete = false;
			sinew_contact_destroy(w, ci, true);
			continue;
		}
		update_one(w, ci, sa, sb, dt, reach_gravity);
		if ((c->flags & (SINEW_CONTACT_TOUCHING | SINEW_CONTACT_SENSOR)) == SINEW_CONTACT_TOUCHING) {
			/* touching wakes: a kinematic body or a body from another island pushing a sleeper */
			sinew_body *ba = &w->bodies[sa->body], *bb = &w->bodies[sb->body];
			if (sleeps(ba) || sleeps(bb)) {
				/* the woken body's contacts before this one in index order are not visited */
				w->touching_pairs_complete = false;
				if (!ba->awake) sinew_body_wake(w, ba);
				if (!bb->awake) sinew_body_wake(w, bb);
			}
			stbds_arrput(w->touching_pairs, c->edges[0].body);
			stbds_arrput(w->touching_pairs, c->edges[1].body);
		}
	}
	w->touching_count = w->touching_live;
}
