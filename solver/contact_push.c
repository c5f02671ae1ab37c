/* The position pass of the contacts, once per step after the substeps and continuous collision:
 * a pair that overlaps deeper than SINEW_PUSH_ALLOWANCE (a tenth of the linear slop) is moved apart
 * along its normal, in position only (Δp). Velocities are not touched, so the pass adds no speed.
 *
 * Why. The soft contact of the velocity passes holds a load only by overlapping: at rest
 * C = -load / (m_eff·ω²), with m_eff the contact's own effective mass. That is 4 mm at the bottom of
 * a 30-box stack (6 cm of sag in all) and 2.8 cm under a 200 kg box resting on a 0.5 kg one, where
 * m_eff is the light box's. A stiffer spring rocks stacks apart in the Gauss-Seidel sweep, and
 * keeping its leak (impulse_scale) off the warm-started load lets the impulses wind up and throw
 * stacks into the air (docs/architecture.md, "Contact position pass").
 *
 * Bottom up. A position Gauss-Seidel pass converges at the mass ratio: lifting the light box out of
 * the ground pushes it into the heavy one, which moves by 1/401 of each correction. So every moving
 * body gets a level, 1 + the fewest contacts between it and something fixed (static, kinematic or
 * asleep), and at each contact the body of lower level counts as fixed. Only a body that rests on
 * exactly one support (one contact with a body of lower level) is moved: see below. Bodies with joints
 * and their contacts are left alone. Contacts are visited by the sum of their bodies' levels, so
 * one sweep corrects a stack from the ground up whatever its mass ratios.
 *
 * The lift. Each contact keeps how far the pass has moved its pair apart (lift), and prepare takes
 * it off the separation, so the velocity passes see the overlap they left and hold the load as they
 * did without the pass: no new jitter, the same impulses, while the bodies sit on the surface. A
 * contact that unloads is let down by its lift instead of opening a gap.
 *
 * One support. Only a body on exactly one support (a stack) is lifted or let down. In a pile,
 * letting a body down onto one support pushed it into its others, which lifted it back, every
 * step (capsule_pile: 1,866 of 2,000 bodies moved by the pass in every step, never asleep);
 * lifting it without letting it down kept lifts that no longer faced an overlap, and the velocity
 * passes held the capsules up at gaps of up to 9.6 cm. A body on several supports keeps the soft
 * contact's overlap, and a lift never hides a gap (the end of sinew_contacts_push). */
#include "world.h"

#include <limits.h>

#define SINEW_PUSH_UNREACHED INT32_MAX
#define SINEW_PUSH_JOINTED (-1)

/* How much of a correction each body of the pair takes: the lower body holds the higher one up, so
 * it counts as fixed, as does anything of level 0. */
static void push_masses(const sinew_world *w, int32_t body_a, int32_t body_b, float *ma, float *mb)
{
	int32_t la = w->push_level[body_a], lb = w->push_level[body_b];
	*ma = la < lb || la == 0 ? 0.0f : w->solver_bodies[body_a].inv_mass;
	*mb = lb < la || lb == 0 ? 0.0f : w->solver_bodies[body_b].inv_mass;
}

/* Whether the pass may move the pair at all: neither body jointed, the higher one resting on exactly
 * one support (see the top of the file), and something of the pair free to move. It depends on the
 * levels and supports only, fixed for the step, so the sweep lists only these pairs. */
static bool push_moves(const sinew_world *w, const sinew_constraint_ref *ref)
{
	int32_t la = w->push_level[ref->body_a], lb = w->push_level[ref->body_b];
	if (la == SINEW_PUSH_JOINTED || lb == SINEW_PUSH_JOINTED) return false;
	if (la == lb || w->push_supports[la < lb ? ref->body_b : ref->body_a] != 1) return false;
	float ma, mb;
	push_masses(w, ref->body_a, ref->body_b, &ma, &mb);
	return ma + mb != 0.0f;
}

/* A contact's place in the sweep: the sum of its bodies' levels; last (keys - 1) when either is
 * unreached or jointed. */
static int push_key(const int32_t *level, const sinew_constraint_ref *ref, int keys)
{
	int32_t la = level[ref->body_a], lb = level[ref->body_b];
	return la == SINEW_PUSH_UNREACHED || lb == SINEW_PUSH_UNREACHED || la < 0 || lb < 0 ? keys - 1 : la + lb;
}

/* Levels and visiting order, once per step (the contact graph does not change within a step). */
void sinew_contacts_order_push(sinew_world *w)
{
	stbds_arrsetlen(w->push_constraints, stbds_arrlen(w->constraint_refs));
	int n = sinew_solver_count(w), m = (int)stbds_arrlen(w->push_constraints);
	const sinew_solver_body *bodies = w->solver_bodies;
	/* the graph from the constraints' references (the same bodies as push_constraints, in a quarter
	 * of the bytes); each body's adjacency lists the bodies across its contacts */
	const sinew_constraint_ref *cs = w->constraint_refs;
	stbds_arrsetlen(w->push_level, n);
	stbds_arrsetlen(w->push_start, n + 1);
	stbds_arrsetlen(w->push_adjacent, 2 * m);
	stbds_arrsetlen(w->push_queue, n);
	stbds_arrsetlen(w->push_count, 2 * n + 2);
	stbds_arrsetlen(w->push_before, n);
	int32_t *level = w->push_level, *start = w->push_start, *adjacent = w->push_adjacent, *queue = w->push_queue;
	/* each body's neighbours across its constraints, compressed rows */
	for (int i = 0; i <= n; ++i) start[i] = 0;
	for (int c = 0; c < m; ++c) {
		start[cs[c].body_a + 1] += 1;
		start[cs[c].body_b + 1] += 1;
	}
	for (int i = 0; i < n; ++i) start[i + 1] += start[i];
	for (int c = 0; c < m; ++c) {
		adjacent[start[cs[c].body_a]++] = cs[c].body_b;
		adjacent[start[cs[c].body_b]++] = cs[c].body_a;
	}
	for (int i = n; i > 0; --i) start[i] = start[i - 1];
	start[0] = 0;
	/* breadth first from the fixed bodies */
	int head = 0, tail = 0;
	for (int i = 0; i < n; ++i) {
		level[i] = SINEW_PUSH_UNREACHED;
		if (bodies[i].inv_mass == 0.0f) level[i] = 0;
		/* the pass leaves jointed bodies and their contacts alone: moving them, their joints pulled
		 * them back every step (taut_bridge_holds_crates threw its crates at 87 m/s); holding them
		 * fixed and lifting the crates off the planks, the bridge blew up after 15 s */
		else if (w->bodies[w->awake_bodies[i]].joint_count > 0) level[i] = SINEW_PUSH_JOINTED;
	}
	for (int c = 0; c < m; ++c) {
		int32_t a = cs[c].body_a, b = cs[c].body_b;
		if (level[a] == 0 && level[b] == SINEW_PUSH_UNREACHED) {
			level[b] = 1;
			queue[tail++] = b;
		}
		if (level[b] == 0 && level[a] == SINEW_PUSH_UNREACHED) {
			level[a] = 1;
			queue[tail++] = a;
		}
	}
	int top = tail > 0 ? 1 : 0;
	while (head < tail) {
		int32_t i = queue[head++];
		for (int k = start[i]; k < start[i + 1]; ++k) {
			int32_t o = adjacent[k];
			if (level[o] != SINEW_PUSH_UNREACHED) continue;
			level[o] = level[i] + 1;
			top = level[o];
			queue[tail++] = o;
		}
	}
	/* how many supports (contacts with a body of lower level) each body has: only a body on one
	 * support is let down (sinew_contacts_push) */
	stbds_arrsetlen(w->push_supports, n);
	int32_t *supports = w->push_supports;
	for (int i = 0; i < n; ++i) supports[i] = 0;
	for (int c = 0; c < m; ++c) {
		int32_t a = cs[c].body_a, b = cs[c].body_b;
		if (level[a] < 0 || level[b] < 0) continue;
		if (level[a] < level[b]) supports[b] += 1;
		if (level[b] < level[a]) supports[a] += 1;
	}
	/* the pairs the pass may move, ordered by the sum of levels (unreached last), a counting sort
	 * that keeps constraint order; the sweep visits only these (the others it would leave alone) */
	int keys = 2 * top + 2; /* at most 2 n + 2 */
	int32_t *count = w->push_count;
	for (int k = 0; k < keys; ++k) count[k] = 0;
	int moving = 0;
	int32_t *key = adjacent; /* the adjacency is done with: each constraint's key, -1 if it stays */
	for (int c = 0; c < m; ++c) {
		key[c] = push_moves(w, &cs[c]) ? push_key(level, &cs[c], keys) : -1;
		if (key[c] < 0) continue;
		count[key[c]] += 1;
		moving += 1;
	}
	stbds_arrsetlen(w->push_order, moving);
	for (int k = 0, sum = 0; k < keys; ++k) {
		int c = count[k];
		count[k] = sum;
		sum += c;
	}
	for (int c = 0; c < m; ++c) {
		if (key[c] >= 0) w->push_order[count[key[c]]++] = c;
	}
}

/* A point's separation from the bodies' running state, as the velocity passes see it (without the
 * lift). */
static float separation(const sinew_push_constraint *cc, int j, const sinew_solver_body *a, const sinew_solver_body *b)
{
	sinew_vec2 ra = sinew_rotate(a->dq, cc->r_a[j]), rb = sinew_rotate(b->dq, cc->r_b[j]);
	return cc->base_separation[j] + sinew_dot(sinew_sub(sinew_add(b->dp, rb), sinew_add(a->dp, ra)), cc->normal);
}

/* Bring one constraint to the allowance by moving its bodies apart or together along the normal,
 * without turning them (turning one corner up tilts a box into its neighbours; measured on
 * pyramid20, which then drifted metres). Lifting moves the deepest point to the allowance (at most
 * max_push at a time); letting down (when no point is deeper) moves the pair back together by at
 * most the lift it carries and never below the allowance, so a contact that unloads gives its lift
 * back instead of opening a gap. Only a body of higher level on exactly one support is moved
 * (see the top of the file). The true separation is the running one plus the lift. */
static void push_constraint(sinew_world *w, const sinew_push_constraint *cc, float allowance, float max_push,
                            bool let_down)
{
	sinew_solver_body *a = &w->solver_bodies[cc->body_a], *b = &w->solver_bodies[cc->body_b];
	float ma, mb; /* the pair may move (push_moves: the sweep lists no other) */
	push_masses(w, cc->body_a, cc->body_b, &ma, &mb);
	float need = -SINEW_HUGE;
	for (int j = 0; j < cc->point_count; ++j) need = sinew_maxf(need, -(separation(cc, j, a, b) + cc->lift + allowance));
	float move = let_down ? sinew_minf(sinew_maxf(need, -cc->lift), 0.0f) : sinew_clampf(need, 0.0f, max_push);
	if (move == 0.0f) return;
	float x = move / (ma + mb);
	a->dp = sinew_mul_sub(a->dp, ma * x, cc->normal);
	b->dp = sinew_mul_add(b->dp, mb * x, cc->normal);
}

void sinew_contacts_push(sinew_world *w)
{
	float allowance = SINEW_PUSH_ALLOWANCE * w->lengths, max_push = w->linear_slop;
	/* a bound on what a contact can carry, should anything else undo the lifts every step */
	float max_lift = SINEW_PUSH_MAX_LIFT * w->lengths;
	sinew_push_constraint *cs = w->push_constraints;
	const sinew_solver_body *bodies = w->solver_bodies;
	int moving = (int)stbds_arrlen(w->push_order), m = (int)stbds_arrlen(w->push_constraints);
	int n = sinew_solver_count(w);
	for (int i = 0; i < n; ++i) w->push_before[i] = bodies[i].dp;
	/* first let down, then lift: a body on two supports let down by one is lifted back by the
	 * other (in one sweep they pulled it up and down every step) */
	for (int k = 0; k < moving; ++k) {
		if (cs[w->push_order[k]].lift > 0.0f) push_constraint(w, &cs[w->push_order[k]], allowance, max_push, true);
	}
	for (int k = 0; k < moving; ++k) push_constraint(w, &cs[w->push_order[k]], allowance, max_push, false);
	/* The lift changes by what the pass moved the pair, so the velocity passes of the next step see
	 * the overlap they left: they hold the same load as before, the same way. The pass only
	 * translates, so every point of a contact moved by the same, along the normal. */
	for (int c = 0; c < m; ++c) {
		sinew_vec2 da = sinew_sub(bodies[cs[c].body_a].dp, w->push_before[cs[c].body_a]);
		sinew_vec2 db = sinew_sub(bodies[cs[c].body_b].dp, w->push_before[cs[c].body_b]);
		float moved = sinew_dot(sinew_sub(db, da), cs[c].normal);
		if (moved != 0.0f) cs[c].lift = sinew_clampf(cs[c].lift + moved, 0.0f, max_lift);
	}
	/* A lift never hides a gap: a contact whose pair is apart (its closest point's true separation
	 * is positive) gives up that much of its lift, so the velocity passes of the next step see the
	 * gap and let the body settle onto the surface. Nothing is moved here. */
	for (int c = 0; c < m; ++c) {
		sinew_push_constraint *cc = &cs[c];
		if (cc->lift <= 0.0f) continue;
		if (w->push_level[cc->body_a] == SINEW_PUSH_JOINTED || w->push_level[cc->body_b] == SINEW_PUSH_JOINTED) continue;
		float gap = SINEW_HUGE;
		for (int j = 0; j < cc->point_count; ++j)
			gap = sinew_minf(gap, separation(cc, j, &bodies[cc->body_a], &bodies[cc->body_b]) + cc->lift);
		if (gap > 0.0f) cc->lift = sinew_maxf(cc->lift - gap, 0.0f);
	}
}
