/* A free body resting on a joint tree: its contact pushes the jointed body together with its tree.
 *
 * Why. The contact passes run before the exact tree solve, so a contact on a jointed body used to
 * push that body alone (a 2 kg plank welded to the world under a 40 kg crate), and the tree solve
 * spread the push through the joints afterwards. The contact's own warm start then pushed the plank
 * down at A / m_plank (0.8 m/s under the crate) and the plank fell at g h (its joints not solved yet),
 * the biased pass read both as the crate lifting off, and the soft contact held the load only at an
 * overlap that made up for them (speed / bias_rate): 3.4 cm under a crate on a welded shelf
 * (crate_on_jointed_shelf in tests/test_stacks.c). And the contact's effective mass was the plank's,
 * 20 times too light.
 *
 * What is done. For every contact point between a free body (dynamic, no joints) and a body of a
 * joint tree that hangs from something fixed and closes no loop or whose loops are solved exactly
 * (anchored), a unit impulse of the contact is spread through the factored tree once per step, at
 * the first substep's pose: sinew_tree_spread_range solves M dv = f + J^T lambda, J dv = 0, and
 * leaves each body's velocity change and each tree joint's impulse in the nodes. That response is
 * kept, and every normal impulse the contact passes give the point (its warm start too) is applied
 * to the tree through it: the tree's bodies move as the joints let them and the tree's rigid rows
 * carry the load (so joint reactions still count it), and the point's effective mass is the one of
 * that response: the passes are Gauss-Seidel on the jointed system itself. Before the first contact
 * pass the trees that contacts touch are solved once after the warm starts (sinew_joint_tree_presolve,
 * which covers these trees too), so that their bodies no longer fall at g h where their joints hold
 * them. Friction and restitution keep the
 * bodies' own masses (no tree solve follows restitution).
 *
 * Where it is not done, and why (measured, docs/joints.md "Known limits"):
 * - trees with loop rows solved by conjugate gradients (more than 64 loop rows): there is no
 *   factored S to close the response with. On the exact path the loops close it
 *   (sinew_joint_loops_close: the loop rows' speeds the tree's spread leaves, taken back by loop
 *   impulses through S and spread through every loop tree), so the response spans every loop tree
 *   and carries the loop rows' impulses too (entries with node -1 - row): the taut bridge's crates
 *   (tests/test_joint_loops.c) 2.77 cm -> 2.2 mm deep. (Tried once when the bridge was one tree,
 *   the loops' energy guard loop_share then cut the biased loop solve and the bridge gave way at
 *   some floors of the mass and not at others; with a tree per pin and the loop trees' damping,
 *   joint_loops.c, no cut was seen);
 * - contacts of a tree with a static body or another tree (ragdolls on the ground, in a heap): the
 *   heap's joints separated by up to 8.7 mm instead of 0.00 and the ill-conditioned stress figures
 *   (1000 kg hips) failed;
 * - free-floating trees (a ragdoll lying on the ground, held up by its own contacts, which keep
 *   their own masses): with props pushing its limbs through the figure's response,
 *   harness_walk_forward's hand-off to the terrain controller after the stand-up jumped 36.7 px
 *   instead of 4.2 (test_harness_walk in tests/test_ragdoll_scene.c);
 * - a point the joints hold still along its normal (a contact at a pin) has an indeterminate impulse
 *   (the joint or the contact may carry the load), and the soft contact's push wound it up without
 *   bound: a point takes at most SINEW_TREE_CONTACT_MASS times its bodies' own mass.
 * Bounded work: a tree whose contact points times nodes exceed SINEW_TREE_CONTACT_WORK keeps its
 * bodies' own masses, as before. Contacts with a response are solved one by one (the overflow list)
 * rather than in the wide kernel. */
#include "joint_tree.h"

#include <math.h>

/* most (contact points x tree nodes) kept per tree and step */
#define SINEW_TREE_CONTACT_WORK 65536
/* most times its bodies' own mass a point takes */
#define SINEW_TREE_CONTACT_MASS 20.0

typedef struct sinew_tree_touch {
	int32_t tree, ref;
	int8_t point;
} sinew_tree_touch;

static int32_t tree_of(const sinew_world *w, int32_t slot)
{
	int32_t node = slot > 0 ? w->tree_body_node[slot] : -1;
	return node >= 0 ? w->tree_nodes[node].tree : -1;
}

/* A tree that hangs from something fixed (its root is a joint to the world, a static, kinematic or
 * sleeping body) and closes no loop, or whose loops are solved exactly (their rows then close the
 * response through S, sinew_joint_loops_close). */
static bool anchored(const sinew_world *w, int32_t t)
{
	const sinew_tree_range *r = &w->tree_ranges[t];
	return (!r->has_loops || sinew_joint_loops_exact(w)) && !w->tree_nodes[r->begin].is_body;
}

/* The trees a response of tree t spans: t alone, or for a tree with loops every tree with loops (the
 * loop rows carry its response into all of them). The one after u (-1: the first); -1 after the last.
 *     for (int32_t u = response_next(w, t, -1); u >= 0; u = response_next(w, t, u)) */
static int32_t response_next(const sinew_world *w, int32_t t, int32_t u)
{
	if (!w->tree_ranges[t].has_loops) return u < 0 ? t : -1;
	int32_t trees = (int32_t)stbds_arrlen(w->tree_ranges);
	for (int32_t v = u + 1; v < trees; ++v)
		if (w->tree_ranges[v].has_loops) return v;
	return -1;
}

/* A dynamic body without joints. */
static bool free_body(const sinew_world *w, int32_t slot)
{
	return slot > 0 && w->solver_bodies[slot].inv_mass > 0.0f && w->bodies[w->awake_bodies[slot]].joint_count == 0;
}

/* The point's side on the tree: solver slot, the impulse's sign on it, and the generalised direction
 * (normal, r x normal) of a unit impulse. */
typedef struct tree_side {
	int32_t slot;
	float sign;
	float j[3];
} tree_side;

static tree_side point_side(const sinew_world *w, const sinew_constraint_ref *ref, int point, int e)
{
	const sinew_contact *c = &w->contacts[ref->contact];
	const sinew_body *b = &w->bodies[c->edges[e].body];
	const sinew_manifold_point *mp = &c->manifold.points[point];
	sinew_vec2 n = c->manifold.normal;
	sinew_vec2 r = sinew_sub(e == 0 ? mp->anchor_a : mp->anchor_b, sinew_sub(b->center, b->xf.p));
	return (tree_side){e == 0 ? ref->body_a : ref->body_b, e == 0 ? -1.0f : 1.0f, {n.x, n.y, sinew_cross(r, n)}};
}

/* The side's own inverse mass between its direction and direction k of the same body. */
static double own(const sinew_world *w, const tree_side *s, const float *k)
{
	const sinew_solver_body *b = &w->solver_bodies[s->slot];
	return (double)b->inv_mass * (s->j[0] * k[0] + s->j[1] * k[1]) + (double)b->inv_inertia * s->j[2] * k[2];
}

/* The response's speed along a side: what the spread now in the tree's nodes does to it. */
static double response_along(const sinew_world *w, const tree_side *s)
{
	const double *y = w->tree_nodes[w->tree_body_node[s->slot]].y;
	return s->sign * (s->j[0] * y[0] + s->j[1] * y[1] + s->j[2] * y[2]);
}

/* Point p of constraint `ref` (side e on tree t): its response, kept, and what its normal masses gain. */
static void keep_response(sinew_world *w, int32_t t, int32_t ref_index, int point, int e)
{
	const sinew_tree_range *r = &w->tree_ranges[t];
	const sinew_constraint_ref *ref = &w->constraint_refs[ref_index];
	int point_count = w->contacts[ref->contact].manifold.point_count;
	tree_side s = point_side(w, ref, point, e);
	for (int32_t u = response_next(w, t, -1); u >= 0; u = response_next(w, t, u))
		for (int32_t k = w->tree_ranges[u].begin; k < w->tree_ranges[u].end; ++k) {
			sinew_tree_node *n = &w->tree_nodes[k];
			if (n->is_body) n->y[0] = n->y[1] = n->y[2] = 0.0;
		}
	double *y = w->tree_nodes[w->tree_body_node[s.slot]].y;
	for (int a = 0; a < 3; ++a) y[a] = s.sign * s.j[a];
	sinew_tree_spread_range(w, r->begin, r->end);
	sinew_joint_loops_close(w, t);
	sinew_tree_contact *tc = &w->tree_contacts[ref_index];
	double own_pp = own(w, &s, s.j);
	/* a point the joints hold still gets at most SINEW_TREE_CONTACT_MASS times its own mass */
	double along = fmax(response_along(w, &s), own_pp / SINEW_TREE_CONTACT_MASS);
	tc->k[point] = (float)(along - own_pp);
	if (point == 0 && point_count == 2) {
		tree_side other = point_side(w, ref, 1, e);
		tc->k[2] = (float)(response_along(w, &other) - own(w, &s, other.j));
	}
	tc->side = (int8_t)e;
	tc->response[point][0] = (int32_t)stbds_arrlen(w->tree_response);
	for (int32_t u = response_next(w, t, -1); u >= 0; u = response_next(w, t, u))
		for (int32_t k = w->tree_ranges[u].begin; k < w->tree_ranges[u].end; ++k) {
			const sinew_tree_node *n = &w->tree_nodes[k];
			sinew_tree_response entry = {k, {(float)n->y[0], (float)n->y[1], (float)n->y[2]}};
			stbds_arrput(w->tree_response, entry);
		}
	if (r->has_loops) { /* the loop rows' impulses (sinew_joint_loops_close left them in loop_work) */
		int loops = (int)stbds_arrlen(w->loop_rows);
		for (int k = 0; k < loops; ++k) {
			sinew_tree_response entry = {-1 - w->loop_rows[k], {(float)w->loop_work[k], 0.0f, 0.0f}};
			stbds_arrput(w->tree_response, entry);
		}
	}
	tc->response[point][1] = (int32_t)stbds_arrlen(w->tree_response);
}

void sinew_contacts_tree_mass(sinew_world *w)
{
	int refs = (int)stbds_arrlen(w->constraint_refs), trees = (int)stbds_arrlen(w->tree_ranges);
	stbds_arrsetlen(w->tree_contacts, refs);
	for (int i = 0; i < refs; ++i) w->tree_contacts[i] = (sinew_tree_contact){{0.0f, 0.0f, 0.0f}, {{0, 0}, {0, 0}}, -1};
	stbds_arrsetlen(w->tree_response, 0);
	for (int t = 0; t < trees; ++t) w->tree_ranges[t].responds = false;
	if (trees == 0) return;
	/* the points of free bodies on anchored trees, grouped by tree (a counting sort that keeps the
	 * constraint order) */
	stbds_arrsetlen(w->tree_touch_start, trees + 1);
	int32_t *start = w->tree_touch_start;
	for (int t = 0; t <= trees; ++t) start[t] = 0;
	stbds_arrsetlen(w->tree_touches, 0);
	for (int i = 0; i < refs; ++i) {
		const sinew_constraint_ref *ref = &w->constraint_refs[i];
		int32_t ta = tree_of(w, ref->body_a), tb = tree_of(w, ref->body_b);
		int32_t t = ta >= 0 && free_body(w, ref->body_b) ? ta : tb >= 0 && free_body(w, ref->body_a) ? tb : -1;
		if (t < 0 || !anchored(w, t)) continue;
		int points = w->contacts[ref->contact].manifold.point_count;
		for (int j = 0; j < points; ++j) stbds_arrput(w->tree_touches, ((sinew_tree_touch){t, i, (int8_t)j}));
		start[t + 1] += points;
	}
	int m = (int)stbds_arrlen(w->tree_touches);
	if (m == 0) return;
	for (int t = 0; t < trees; ++t) start[t + 1] += start[t];
	stbds_arrsetlen(w->tree_touches_sorted, m);
	for (int k = 0; k < m; ++k) w->tree_touches_sorted[start[w->tree_touches[k].tree]++] = w->tree_touches[k];
	for (int t = trees; t > 0; --t) start[t] = start[t - 1];
	start[0] = 0;
	for (int t = 0; t < trees; ++t) {
		int count = start[t + 1] - start[t];
		int64_t nodes = 0;
		for (int32_t u = response_next(w, t, -1); u >= 0; u = response_next(w, t, u))
			nodes += w->tree_ranges[u].end - w->tree_ranges[u].begin;
		if (count == 0 || (int64_t)count * nodes > SINEW_TREE_CONTACT_WORK) continue;
		for (int32_t u = response_next(w, t, -1); u >= 0; u = response_next(w, t, u)) w->tree_ranges[u].responds = true;
		for (int k = start[t]; k < start[t + 1]; ++k) {
			const sinew_tree_touch *p = &w->tree_touches_sorted[k];
			int e = tree_of(w, w->constraint_refs[p->ref].body_a) == t ? 0 : 1;
			keep_response(w, t, p->ref, p->point, e);
		}
	}
}

/* A normal impulse of a point: to the free body by its own mass, to the tree through the point's
 * kept response (velocities of its bodies, impulses of its rigid rows). */
void sinew_contact_tree_apply(sinew_world *w, const sinew_contact_constraint *cc, int point, float impulse)
{
	const sinew_tree_contact *tc = &w->tree_contacts[cc->ref];
	const sinew_contact_point_constraint *cp = &cc->points[point];
	sinew_vec2 p = sinew_scale(impulse, cc->normal);
	if (tc->side == 1) {
		sinew_solver_body *a = &w->solver_bodies[cc->body_a];
		a->v = sinew_mul_sub(a->v, a->inv_mass, p);
		a->w -= a->inv_inertia * sinew_cross(cp->r_a, p);
	} else {
		sinew_solver_body *b = &w->solver_bodies[cc->body_b];
		b->v = sinew_mul_add(b->v, b->inv_mass, p);
		b->w += b->inv_inertia * sinew_cross(cp->r_b, p);
	}
	for (int32_t k = tc->response[point][0]; k < tc->response[point][1]; ++k) {
		const sinew_tree_response *e = &w->tree_response[k];
		if (e->node < 0) { /* a loop row's impulse */
			w->joint_rows[-1 - e->node].impulse += impulse * e->y[0];
			continue;
		}
		const sinew_tree_node *n = &w->tree_nodes[e->node];
		if (n->is_body) {
			sinew_solver_body *s = &w->solver_bodies[n->ref];
			s->v.x += impulse * e->y[0];
			s->v.y += impulse * e->y[1];
			if (s->inv_inertia > 0.0f) s->w += impulse * e->y[2];
		} else {
			/* a limit in the block is left to the tree solve's active set */
			for (int r = 0; r < n->rigid; ++r) w->joint_rows[n->rows[r]].impulse += impulse * e->y[r];
		}
	}
}
