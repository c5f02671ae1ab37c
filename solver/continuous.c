/* Continuous collision. When the substeps are done (before the joints' position projection and
 * before the positions are written out), a dynamic body that moved more
 * than a quarter of its thinnest half-thickness is swept from where it started to where it ended, against
 * static shapes (and, for bullets, against other dynamic bodies where they ended), and stopped at
 * the first time of impact: moved back along its sweep to that fraction. Its velocity is kept; the
 * contact found there takes over at the next step (stopping, bouncing or pushing, and keeping the
 * speed along the surface). Kinematic bodies move where they are told and are not swept.
 * Speculative contacts already stop most fast bodies inside the step; this catches the ones whose
 * pair the broadphase could not see in time (a ball at 400 m/s crosses 6 m in a step). */
#include "joint.h"

#define SINEW_CCD_FRACTION 0.25f

/* The half-thickness of the body's thinnest part (a radius, or a polygon's centroid-to-edge
 * distance): moving less than a quarter of it per step cannot carry the body through anything. */
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

/* The body's motion over the step so far: from where it started to where the solver has it now. */
static sinew_sweep body_sweep(const sinew_world *w, const sinew_body *b)
{
	const sinew_solver_body *sb = &w->solver_bodies[b->solver_index];
	sinew_sweep s;
	s.local_center = b->local_center;
	s.c1 = b->center0;
	s.c2 = sinew_add(b->center0, sb->dp);
	s.a1 = sinew_rot_angle(b->q0);
	s.a2 = s.a1 + sinew_rot_angle(sb->dq);
	return s;
}

/* Where a body is at the end of the step (a body the solver moves: its running state). */
static sinew_transform end_pose(const sinew_world *w, const sinew_body *b)
{
	if (b->solver_index == 0) return b->xf;
	sinew_sweep s = body_sweep(w, b);
	return sinew_sweep_transform(&s, 1.0f);
}

typedef struct sweep_query {
	sinew_world *w;
	const sinew_body *body;
	int32_t body_index;
	const sinew_shape *shape;
	sinew_sweep sweep;
	float fraction; /* earliest impact so far */
	int32_t hit_shape;
} sweep_query;

static bool sweep_candidate(int32_t proxy_id, uint64_t user_data, void *context)
{
	SINEW_UNUSED(proxy_id);
	sweep_query *q = context;
	sinew_world *w = q->w;
	int32_t oi = (int32_t)user_data;
	const sinew_shape *o = &w->shapes[oi];
	if (o->body == q->body_index || o->sensor || !sinew_shapes_should_collide(q->shape, o)) return true;
	const sinew_body *ob = &w->bodies[o->body];
	if (ob->type == SINEW_DYNAMIC_BODY && ob->bullet) return true; /* bullets do not sweep against bullets */
	if (q->body->joint_count > 0 && ob->joint_count > 0 &&
	    sinew_bodies_jointed_without_collision(w, q->body_index, o->body))
		return true;
	/* already touching at the start of the step: that is the contact solver's business */
	sinew_transform start = sinew_sweep_transform(&q->sweep, 0.0f), there = end_pose(w, ob);
	if (sinew_shape_distance(&q->shape->geom, start, &o->geom, there).distance < w->speculative_distance) return true;
	sinew_sweep other;
	other.local_center = ob->local_center;
	other.c1 = other.c2 = sinew_transform_point(there, ob->local_center);
	other.a1 = other.a2 = sinew_rot_angle(there.q);
	sinew_toi_output toi = sinew_time_of_impact(&q->shape->geom, &q->sweep, &o->geom, &other, q->fraction, w->linear_slop);
	if (toi.state == SINEW_TOI_HIT && toi.fraction < q->fraction) {
		q->fraction = toi.fraction;
		q->hit_shape = oi;
	}
	return true;
}

/* The earliest fraction of the step at which the body meets something it must not pass (1: none). */
static float first_impact(sinew_world *w, const sinew_body *b, int32_t bi)
{
	sweep_query q;
	q.w = w;
	q.body = b;
	q.body_index = bi;
	q.sweep = body_sweep(w, b);
	q.fraction = 1.0f;
	q.hit_shape = SINEW_NULL_INDEX;
	sinew_transform start = sinew_sweep_transform(&q.sweep, 0.0f), end = sinew_sweep_transform(&q.sweep, 1.0f);
	for (int32_t si = b->shape_list; si != SINEW_NULL_INDEX; si = w->shapes[si].next) {
		const sinew_shape *s = &w->shapes[si];
		if (s->sensor) continue;
		q.shape = s;
		sinew_aabb box = sinew_aabb_union(sinew_compute_aabb(&s->geom, start), sinew_compute_aabb(&s->geom, end));
		sinew_dynamic_tree_query(&w->trees[SINEW_TREE_STATIC], box, UINT32_MAX, sweep_candidate, &q);
		if (b->bullet) sinew_dynamic_tree_query(&w->trees[SINEW_TREE_DYNAMIC], box, UINT32_MAX, sweep_candidate, &q);
	}
	return q.fraction;
}

/* Back along its own sweep to the fraction t of the step (in the solver's running state, before the
 * positions are written out). The velocity is kept: the contact with what it hit now exists, and at
 * the next step it takes the part driving into the surface (bouncing by the restitution, pushing a
 * dynamic body) and leaves the part along the surface. */
static void rewind(sinew_world *w, sinew_body *b, float t)
{
	sinew_solver_body *sb = &w->solver_bodies[b->solver_index];
	sb->dp = sinew_scale(t, sb->dp);
	sb->dq = sinew_make_rot(t * sinew_rot_angle(sb->dq));
}

/* The bodies held together by joints with body seed (itself included), into island_bodies. */
static void collect_figure(sinew_world *w, int32_t seed)
{
	int32_t mark = -3 - w->step_index;
	stbds_arrsetlen(w->island_stack, 0);
	stbds_arrsetlen(w->island_bodies, 0);
	stbds_arrput(w->island_stack, seed);
	w->bodies[seed].island_mark = mark;
	while (stbds_arrlen(w->island_stack) > 0) {
		int32_t bi = stbds_arrpop(w->island_stack);
		stbds_arrput(w->island_bodies, bi);
		for (int32_t ji = w->bodies[bi].joint_list; ji != SINEW_NULL_INDEX;) {
			const sinew_joint *j = &w->joints[ji];
			int e = sinew_joint_edge_of(j, bi);
			ji = j->edges[e].next;
			int32_t oi = j->edges[e ^ 1].body;
			if (!j->active || oi == SINEW_NULL_INDEX) continue;
			sinew_body *o = &w->bodies[oi];
			if (o->type != SINEW_DYNAMIC_BODY || o->solver_index == 0 || o->island_mark == mark) continue;
			o->island_mark = mark;
			stbds_arrput(w->island_stack, oi);
		}
	}
}

void sinew_continuous_collide(sinew_world *w)
{
	if (!w->def.enable_continuous) return;
	int n = (int)stbds_arrlen(w->awake_bodies);
	/* first every fast body's own earliest impact, before anything moves back ... */
	stbds_arrsetlen(w->sweep_fractions, n);
	bool any = false;
	for (int i = 1; i < n; ++i) {
		w->sweep_fractions[i] = 1.0f;
		int32_t bi = w->awake_bodies[i];
		sinew_body *b = &w->bodies[bi];
		if (b->type != SINEW_DYNAMIC_BODY || b->shape_count == 0) continue;
		const sinew_solver_body *sb = &w->solver_bodies[i];
		float travel = sinew_length(sb->dp) + sinew_absf(sinew_rot_angle(sb->dq)) * b->max_extent;
		if (travel < SINEW_CCD_FRACTION * thinnest(w, b)) continue;
		w->sweep_fractions[i] = first_impact(w, b, bi);
		any = any || w->sweep_fractions[i] < 1.0f;
	}
	if (!any) return;
	/* ... then each body goes back once: a body held by joints with all its figure, to the earliest
	 * impact of any of them, so one fast limb is not pulled out of its joints */
	for (int i = 1; i < n; ++i) {
		float t = w->sweep_fractions[i];
		if (t >= 1.0f) continue;
		sinew_body *b = &w->bodies[w->awake_bodies[i]];
		if (b->joint_count == 0) {
			rewind(w, b, t);
			w->sweep_fractions[i] = 2.0f; /* done */
			continue;
		}
		collect_figure(w, w->awake_bodies[i]);
		int m = (int)stbds_arrlen(w->island_bodies);
		for (int k = 0; k < m; ++k) t = sinew_minf(t, w->sweep_fractions[w->bodies[w->island_bodies[k]].solver_index]);
		for (int k = 0; k < m; ++k) {
			sinew_body *member = &w->bodies[w->island_bodies[k]];
			rewind(w, member, t);
			w->sweep_fractions[member->solver_index] = 2.0f;
		}
	}
}
