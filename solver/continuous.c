/* Continuous collision. When the substeps are done (before the joints' position projection and
 * before the positions are written out), a dynamic body that moved more
 * than a quarter of its thinnest half-thickness is swept from where it started to where it ended, against
 * static shapes (and, for bullets, against other dynamic bodies where they ended), and stopped at
 * the first time of impact: moved back along its sweep to that fraction. Its velocity is kept; the
 * contact found there takes over at the next step (stopping, bouncing or pushing, and keeping the
 * speed along the surface). Kinematic bodies move where they are told and are not swept.
 * Speculative contacts already stop most fast bodies inside the step; this catches the ones whose
 * pair the broadphase could not see in time (a ball at 400 m/s crosses 6 m in a step).
 *
 * A body already touching an obstacle at the start of the step (a limb that landed on one end and
 * now turns about it) is not swept whole, which would report an overlap at once. Instead:
 *   - its sweep is taken about the touching end (the pivot), which moves on a straight line, so
 *     the poses between start and end turn about that end rather than carry it into the obstacle;
 *   - every other end of its core (a capsule's cap centres, a polygon's corners, each grown by the
 *     shape's radius) that is not touching is swept on its own, so the far end that swings down is
 *     stopped where it first touches;
 *   - the touching end of a body without joints ends the step no deeper than it started, or than
 *     touching: the contact solver's anchors are fixed in the body for the step, so a rounded end
 *     turning fast rolls into the surface by about radius (1 - cos angle); the body is moved out
 *     along the normal.
 * tests/test_continuous.c: 8 px capsule limbs at 5,000 px/s land within 0.1 px of a floor's top
 * (2.31 px with whole-body sweeps only). */
#include "joint.h"

#define SINEW_CCD_FRACTION 0.25f

/* The body's motion over the step so far: from where it started to where the solver has it now,
 * its centre of mass moving on a straight line. */
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

/* The same motion with the local point pivot moving on a straight line instead (the same start and
 * end poses, other poses between). A body that lands on one end turns about that end: swept about
 * its centre of mass, the poses between would carry the end into what it stands on by the sagitta
 * of the centre's arc (0.8 px for a 200 px limb turning 0.36 rad in a step). */
static sinew_sweep sweep_about(const sinew_world *w, const sinew_body *b, sinew_vec2 pivot)
{
	sinew_sweep s = body_sweep(w, b);
	if (pivot.x == b->local_center.x && pivot.y == b->local_center.y) return s;
	sinew_transform start = sinew_sweep_transform(&s, 0.0f), end = sinew_sweep_transform(&s, 1.0f);
	s.local_center = pivot;
	s.c1 = sinew_transform_point(start, pivot);
	s.c2 = sinew_transform_point(end, pivot);
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
	sinew_sweep_pivot pivot; /* pivot_candidate: the end closest to an obstacle so far */
} sweep_query;

/* The first impact of part of the body's shape (the whole shape, or one end of it) with another
 * shape that does not move, if earlier than the earliest so far. */
static void sweep_against(sweep_query *q, const sinew_geometry *part, const sinew_geometry *other_geom,
                          const sinew_sweep *other, int32_t other_shape)
{
	sinew_toi_output toi = sinew_time_of_impact(part, &q->sweep, other_geom, other, q->fraction, q->w->linear_slop);
	if (toi.state == SINEW_TOI_HIT && toi.fraction < q->fraction) {
		q->fraction = toi.fraction;
		q->hit_shape = other_shape;
	}
}

/* Is the shape oi one the body's shape must not pass? */
static bool is_obstacle(const sweep_query *q, int32_t oi)
{
	const sinew_world *w = q->w;
	const sinew_shape *o = &w->shapes[oi];
	if (o->body == q->body_index || o->sensor || !sinew_shapes_should_collide(q->shape, o)) return false;
	const sinew_body *ob = &w->bodies[o->body];
	if (ob->type == SINEW_DYNAMIC_BODY && ob->bullet) return false; /* bullets do not sweep against bullets */
	return !(q->body->joint_count > 0 && ob->joint_count > 0 &&
	         sinew_bodies_jointed_without_collision(w, q->body_index, o->body));
}

/* An end of the shape's core (a capsule's cap centre, a polygon's corner) grown by its radius. */
static sinew_geometry core_end(const sinew_shape_proxy *core, int k)
{
	sinew_geometry end;
	end.type = SINEW_SHAPE_CIRCLE;
	end.u.circle.center = core->points[k];
	end.u.circle.radius = core->radius;
	return end;
}

/* The signed gap between end k of the core (grown by the core's radius) at xf and the obstacle at
 * there, and the unit normal from the end's centre toward the obstacle (zero when the centre is
 * inside the obstacle, and then the gap is only known to be below -radius). */
static float end_gap(const sinew_shape_proxy *core, int k, sinew_transform xf, const sinew_geometry *obstacle,
                     sinew_transform there, sinew_vec2 *normal)
{
	sinew_shape_proxy centre;
	centre.points[0] = core->points[k];
	centre.count = 1;
	centre.radius = 0.0f;
	sinew_shape_proxy other = sinew_make_proxy(obstacle);
	sinew_distance_output d = sinew_proxy_distance(&centre, xf, &other, there);
	*normal = d.normal;
	return d.distance - core->radius;
}

/* The end of the body's shapes closest to an obstacle at the start of the step, when it touches. */
static bool pivot_candidate(int32_t proxy_id, uint64_t user_data, void *context)
{
	SINEW_UNUSED(proxy_id);
	sweep_query *q = context;
	int32_t oi = (int32_t)user_data;
	if (!is_obstacle(q, oi)) return true;
	const sinew_shape *o = &q->w->shapes[oi];
	sinew_transform start = sinew_sweep_transform(&q->sweep, 0.0f), there = end_pose(q->w, &q->w->bodies[o->body]);
	sinew_shape_proxy core = sinew_make_proxy(&q->shape->geom);
	for (int k = 0; k < core.count; ++k) {
		sinew_vec2 normal;
		float gap = end_gap(&core, k, start, &o->geom, there, &normal);
		if (gap < q->pivot.gap) {
			q->pivot.gap = gap;
			q->pivot.point = core.points[k];
			q->pivot.radius = core.radius;
			q->pivot.obstacle = oi;
		}
	}
	return true;
}

static bool sweep_candidate(int32_t proxy_id, uint64_t user_data, void *context)
{
	SINEW_UNUSED(proxy_id);
	sweep_query *q = context;
	sinew_world *w = q->w;
	int32_t oi = (int32_t)user_data;
	if (!is_obstacle(q, oi)) return true;
	const sinew_shape *o = &w->shapes[oi];
	const sinew_body *ob = &w->bodies[o->body];
	sinew_transform start = sinew_sweep_transform(&q->sweep, 0.0f), there = end_pose(w, ob);
	sinew_sweep other;
	other.local_center = ob->local_center;
	other.c1 = other.c2 = sinew_transform_point(there, ob->local_center);
	other.a1 = other.a2 = sinew_rot_angle(there.q);
	if (sinew_shape_distance(&q->shape->geom, start, &o->geom, there).distance >= w->speculative_distance) {
		sweep_against(q, &q->shape->geom, &o->geom, &other, oi);
		return true;
	}
	/* Already touching at the start of the step: the contact solver holds the touching part. But
	 * a long shape that lands on one end turns about it, and its far end swings down faster than
	 * the contact (which has no point there yet) can catch: so each end of the shape's core that is
	 * not touching (a capsule's two cap centres, a polygon's corners, with the shape's radius) is
	 * swept on its own, and stops the body where it would first touch. */
	sinew_shape_proxy core = sinew_make_proxy(&q->shape->geom);
	for (int k = 0; k < core.count; ++k) {
		sinew_geometry end = core_end(&core, k);
		if (sinew_shape_distance(&end, start, &o->geom, there).distance < w->speculative_distance) continue;
		sweep_against(q, &end, &o->geom, &other, oi);
	}
	return true;
}

/* The boxes the first shapes of a body sweep through, kept between the two queries of
 * first_impact when the sweep is the same. */
#define SINEW_CCD_KEPT_BOXES 8
typedef struct swept_boxes {
	int count; /* of the body's first shapes (sensors included, their box unused) */
	sinew_aabb box[SINEW_CCD_KEPT_BOXES];
} swept_boxes;

/* The boxes a shape of the body sweeps through are looked up in the static tree, and for bullets
 * in the dynamic one too. The boxes of the first shapes come from kept (computed and kept there
 * when its count is 0). */
static void query_obstacles(sinew_world *w, const sinew_body *b, sweep_query *q, sinew_tree_query_fn *fn,
                            swept_boxes *kept)
{
	sinew_transform start = sinew_transform_identity(), end = start;
	bool fill = kept->count == 0, posed = false;
	int k = 0;
	for (int32_t si = b->shape_list; si != SINEW_NULL_INDEX; si = w->shapes[si].next, ++k) {
		const sinew_shape *s = &w->shapes[si];
		if (s->sensor) continue;
		q->shape = s;
		sinew_aabb box;
		if (!fill && k < kept->count) {
			box = kept->box[k];
		} else {
			if (!posed) {
				start = sinew_sweep_transform(&q->sweep, 0.0f);
				end = sinew_sweep_transform(&q->sweep, 1.0f);
				posed = true;
			}
			box = sinew_aabb_union(sinew_compute_aabb(&s->geom, start), sinew_compute_aabb(&s->geom, end));
			if (fill && k < SINEW_CCD_KEPT_BOXES) {
				kept->box[k] = box;
				kept->count = k + 1;
			}
		}
		sinew_dynamic_tree_query(&w->trees[SINEW_TREE_STATIC], box, UINT32_MAX, fn, q);
		if (b->bullet) sinew_dynamic_tree_query(&w->trees[SINEW_TREE_DYNAMIC], box, UINT32_MAX, fn, q);
	}
}

static bool found_any(int32_t proxy_id, uint64_t user_data, void *context)
{
	SINEW_UNUSED(proxy_id);
	SINEW_UNUSED(user_data);
	*(bool *)context = true;
	return false;
}

/* Can the static tree hold anything for a body that is not a bullet? Every box query_obstacles
 * looks up (each shape's box at the start and at the end of the step) lies within the body's
 * extent of its centre of mass at the start (center0) and at the end (center0 + dp), give or take
 * the rounding of the poses, for which the margin below is ample. When no static box meets the
 * box around both, neither query would find a thing: the sweeps are skipped with the same answer
 * (fraction 1, no pivot). capsule_pile: most of the falling pile is far from the bin. */
static bool statics_near(const sinew_world *w, const sinew_body *b, const sinew_solver_body *sb)
{
	sinew_vec2 c1 = b->center0, c2 = sinew_add(b->center0, sb->dp);
	float place = sinew_absf(c1.x) + sinew_absf(c1.y) + sinew_absf(c2.x) + sinew_absf(c2.y);
	float r = b->max_extent + 1.0e-3f * (b->max_extent + sinew_length(b->local_center)) + 1.0e-5f * place;
	sinew_aabb box = {sinew_sub(sinew_vmin(c1, c2), sinew_v2(r, r)), sinew_add(sinew_vmax(c1, c2), sinew_v2(r, r))};
	bool any = false;
	sinew_dynamic_tree_query(&w->trees[SINEW_TREE_STATIC], box, UINT32_MAX, found_any, &any);
	return any;
}

/* The earliest fraction of the step at which the body meets something it must not pass (1: none),
 * and the point of the body its sweep is taken about (its centre of mass, or the end it stands on). */
static float first_impact(sinew_world *w, const sinew_body *b, int32_t bi, sinew_sweep_pivot *pivot)
{
	sweep_query q;
	q.w = w;
	q.body = b;
	q.body_index = bi;
	q.sweep = body_sweep(w, b);
	q.fraction = 1.0f;
	q.hit_shape = SINEW_NULL_INDEX;
	q.pivot = *pivot;
	q.pivot.gap = w->speculative_distance;
	swept_boxes kept;
	kept.count = 0;
	query_obstacles(w, b, &q, pivot_candidate, &kept);
	*pivot = q.pivot;
	/* about the centre of mass (no end touching), the sweep and its boxes are the ones above */
	if (q.pivot.point.x != b->local_center.x || q.pivot.point.y != b->local_center.y) {
		q.sweep = sweep_about(w, b, q.pivot.point);
		kept.count = 0;
	}
	query_obstacles(w, b, &q, sweep_candidate, &kept);
	return q.fraction;
}

/* Back along its own sweep to the fraction t of the step (in the solver's running state, before the
 * positions are written out). The velocity is kept: the contact with what it hit now exists, and at
 * the next step it takes the part driving into the surface (bouncing by the restitution, pushing a
 * dynamic body) and leaves the part along the surface. */
static void rewind_body(sinew_world *w, sinew_body *b, float t)
{
	sinew_solver_body *sb = &w->solver_bodies[b->solver_index];
	sinew_vec2 pivot = w->sweep_pivots[b->solver_index].point;
	if (pivot.x == b->local_center.x && pivot.y == b->local_center.y) {
		sb->dp = sinew_scale(t, sb->dp);
	} else { /* the pose at t of the sweep about the pivot, as the impact was found on it */
		sinew_sweep s = sweep_about(w, b, pivot);
		sb->dp = sinew_sub(sinew_transform_point(sinew_sweep_transform(&s, t), b->local_center), b->center0);
	}
	sb->dq = sinew_make_rot(t * sinew_rot_angle(sb->dq));
}

/* The end a fast body stood on at the start of the step ends no deeper than it started, or than
 * touching: turning about it, the contact solver (whose anchors are fixed in the body for the step)
 * lets the rounded end roll into the surface by about radius (1 - cos angle), 0.8 px for an 8 px
 * limb that lands on its end at 5,000 px/s. The body is moved out along the normal; its velocity
 * is kept. Only for a body without joints: moving one member of a figure would pull it off its
 * joints (a soft Godot pin does not pull it back), so a figure's limbs are left to the contacts. */
static void keep_pivot_out(sinew_world *w, sinew_body *b, const sinew_sweep_pivot *pivot)
{
	const sinew_shape *o = &w->shapes[pivot->obstacle];
	sinew_shape_proxy core;
	core.points[0] = pivot->point;
	core.count = 1;
	core.radius = pivot->radius;
	sinew_vec2 normal;
	float gap = end_gap(&core, 0, end_pose(w, b), &o->geom, end_pose(w, &w->bodies[o->body]), &normal);
	float floor = sinew_minf(pivot->gap, 0.0f);
	if (!(gap < floor) || (normal.x == 0.0f && normal.y == 0.0f)) return;
	sinew_solver_body *sb = &w->solver_bodies[b->solver_index];
	sb->dp = sinew_sub(sb->dp, sinew_scale(floor - gap, normal));
}

/* The bodies held together by joints with body seed (itself included), into island_bodies. */
static void collect_figure(sinew_world *w, int32_t seed)
{
	int32_t mark = -3 - w->step_index;
	stbds_arrsetlen(w->island_stack, 0);
	stbds_arrsetlen(w->figure_bodies, 0);
	stbds_arrput(w->island_stack, seed);
	w->bodies[seed].island_mark = mark;
	while (stbds_arrlen(w->island_stack) > 0) {
		int32_t bi = stbds_arrpop(w->island_stack);
		stbds_arrput(w->figure_bodies, bi);
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

/* Each body goes back once: a body held by joints with all its figure, to the earliest impact of
 * any of them, so one fast limb is not pulled out of its joints. */
static void rewind_all(sinew_world *w, int n)
{
	for (int i = 1; i < n; ++i) {
		float t = w->sweep_fractions[i];
		if (t >= 1.0f) continue;
		sinew_body *b = &w->bodies[w->awake_bodies[i]];
		if (b->joint_count == 0) {
			rewind_body(w, b, t);
			w->sweep_fractions[i] = 2.0f; /* done */
			continue;
		}
		collect_figure(w, w->awake_bodies[i]);
		int m = (int)stbds_arrlen(w->figure_bodies);
		for (int k = 0; k < m; ++k) t = sinew_minf(t, w->sweep_fractions[w->bodies[w->figure_bodies[k]].solver_index]);
		for (int k = 0; k < m; ++k) {
			sinew_body *member = &w->bodies[w->figure_bodies[k]];
			rewind_body(w, member, t);
			w->sweep_fractions[member->solver_index] = 2.0f;
		}
	}
}

void sinew_continuous_collide(sinew_world *w)
{
	if (!w->def.enable_continuous) return;
	int n = (int)stbds_arrlen(w->awake_bodies);
	/* first every fast body's own earliest impact, before anything moves back ... */
	stbds_arrsetlen(w->sweep_fractions, n);
	stbds_arrsetlen(w->sweep_pivots, n);
	bool any = false, pivots = false;
	/* Only bullets look beyond the static tree: with no static shape, nothing else can stop a body
	 * (smash, tumbler), and the sweeps are skipped (each would query an empty tree). */
	bool statics = w->trees[SINEW_TREE_STATIC].proxy_count > 0;
	for (int i = 1; i < n; ++i) {
		w->sweep_fractions[i] = 1.0f;
		int32_t bi = w->awake_bodies[i];
		sinew_body *b = &w->bodies[bi];
		w->sweep_pivots[i].point = b->local_center;
		w->sweep_pivots[i].obstacle = SINEW_NULL_INDEX;
		if (b->type != SINEW_DYNAMIC_BODY || b->shape_count == 0 || !(statics || b->bullet)) continue;
		const sinew_solver_body *sb = &w->solver_bodies[i];
		float moved = sinew_length(sb->dp), slow = SINEW_CCD_FRACTION * b->thinnest;
		/* Within a quarter turn |angle| <= (pi/2)|sin angle|: a body under the bound with 2|sin| (a
		 * resting one, most of a pile) is under it with the angle too, and needs no atan2f */
		if (sb->dq.c > 0.0f && moved + 2.0f * sinew_absf(sb->dq.s) * b->max_extent < slow) continue;
		float travel = moved + sinew_absf(sinew_rot_angle(sb->dq)) * b->max_extent;
		if (travel < slow) continue;
		if (!b->bullet && !statics_near(w, b, sb)) continue;
		w->sweep_fractions[i] = first_impact(w, b, bi, &w->sweep_pivots[i]);
		any = any || w->sweep_fractions[i] < 1.0f;
		pivots = pivots || w->sweep_pivots[i].obstacle != SINEW_NULL_INDEX;
	}
	if (any) rewind_all(w, n); /* ... then each body goes back once */
	if (!pivots) return;
	for (int i = 1; i < n; ++i) {
		sinew_body *b = &w->bodies[w->awake_bodies[i]];
		if (w->sweep_pivots[i].obstacle != SINEW_NULL_INDEX && b->joint_count == 0) keep_pivot_out(w, b, &w->sweep_pivots[i]);
	}
}
