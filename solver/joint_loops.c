/* Loop-closing joints, solved through the joint trees (joint_tree.c).
 *
 * A joint whose rigid rows would close a loop (a second joint from a tree to anything fixed, or a
 * joint between two bodies already in the tree) is left out of the trees; its rigid rows are the
 * loop rows. A unit impulse along loop row i, spread through the trees it reaches by one
 * homogeneous tree solve, changes the speed of loop row j by S_ji: S is the loop rows' Schur
 * complement through the tree factorisation (with the trees' turning inertia, geometric stiffness
 * included, so symmetric). Two ways to solve with it:
 *
 * - up to SINEW_MAX_LOOP_ROWS rows in a world (bridges, linkages, scissor lifts): S is formed and
 *   Cholesky-factored once per substep (L tree solves and L^3 / 3), and every pass is exact;
 * - more (a grid where every cell is a loop): conjugate gradients on S, each product one spread
 *   through the trees (linear in the bodies and rows), with a fixed budget per pass (below).
 *
 * Both paths take the loop impulses through the same energy share (loop_share) and damp the
 * position step the same way (SINEW_LOOP_DAMPING). */
#include "joint_tree.h"

#include <math.h>
#include <string.h>

/* Loops exactly: worth it for the few loops of bridges and linkages, not for a grid. */
#define SINEW_MAX_LOOP_ROWS 64
/* The velocity solve uses S (plus a guard of 1e-9 of its largest diagonal entry) and is exact. The
 * position step uses S plus a tenth of the larger of that entry and the row's own inverse effective
 * mass: a damped Newton step. A loop whose rows are nearly dependent (a bridge pulled straight
 * between two pins cannot lengthen to first order) asks a plain Newton step for displacements
 * without bound; measured on the taut bridge, the undamped step tore it by metres, a hundredth left
 * 5 mm/s of jitter after 10 s, a tenth holds it within 0.04 mm at rest. The row's own scale keeps the
 * step bounded when the whole of S is small (a loop whose bodies can hardly move: a torso pinned to a
 * static hip and to a kinematic arm that walks away, its loop error growing by metres; damped by S's
 * own scale alone, the step threw a body 2e5 m). */
#define SINEW_LOOP_GUARD 1e-9
#define SINEW_LOOP_DAMPING 1e-1
/* The biased velocity pass asks each loop row for -C / h, and it takes that bias through S plus this
 * fraction of the same scale as SINEW_LOOP_DAMPING (the larger of S's largest diagonal entry and the
 * row's own inverse effective mass); the rest of the pass (J v = 0) stays exact. C is read from
 * float positions, so it is only known to about one float step of the anchors' coordinates (the
 * middle pin of the taut bridge, 10 m from the origin: C moved between 0, 0.95 and 1.9 um from one
 * substep to the next, nothing else changing), and along a bridge pulled straight S is about 3e-7 of
 * the row's own scale: through the exact S, each such step was a 790 N s change of the loop impulse,
 * a kick of centimetres per second across the planks (tests/test_joint_loops.c,
 * taut_bridge_comes_to_rest, with the implicit damping of sinew_joint_loops_damp: fastest plank
 * from 10 to 20 s 4.6 cm/s exactly, 0.43 cm/s at 1e-6, 0.04 cm/s at 1e-5, 0.03 cm/s at 1e-4 and
 * 0.05 cm/s at 1e-3, the bridge's loop within 0.01, 0.04 and 0.12 mm for the last three; the
 * crates of taut_bridge_holds_crates at 10 to 11 s 0.30 cm/s at 1e-5, 0.46 at 1e-4, 0.65 at 1e-3).
 * The position step keeps its stronger damping: it closes what this leaves. */
#define SINEW_LOOP_BIAS_DAMPING 1e-5
/* A loop row is taken as implied by the others (and given no impulse) when what remains of it after
 * them moves less than this fraction of what the row alone would move. Such a loop system is
 * singular (a torso pinned to a static head and to a kinematic arm: four rows on three degrees of
 * freedom, or rows frozen by the geometric stiffness), and its exact solve asks for impulses without
 * bound along the null space; the row it drops is left to stretch instead. */
#define SINEW_LOOP_RANK 1e-8
/* Rounding allowed in the loops' energy test, relative to the loop trees' kinetic energy. */
#define SINEW_LOOP_ROUNDING 1e-6
/* The fastest a biased pass asks a loop row to close its error, m/s (scaled by the world's length
 * units). Closing it within the substep asked for C / h: a joint stretched by metres (a kinematic part
 * carried it from a static one) asked for thousands of m/s, and one biased loop solve threw a 36 g
 * hand at 802 m/s (test_joint_stress, random_body_types_stay_finite, seed 1). The taut bridges close
 * their loops by a few mm/s and keep their figures with it (tests/test_joint_loops.c); what a capped
 * row leaves open, the projection closes. */
#define SINEW_LOOP_MAX_BIAS 1.0

static int32_t tree_of_slot(const sinew_world *w, int32_t slot)
{
	int32_t node = slot > 0 ? w->tree_body_node[slot] : -1;
	return node >= 0 ? w->tree_nodes[node].tree : -1;
}

/* The body node of a loop row's end (0 or 1), -1 when that end does not move (found once per step). */
static int32_t loop_end_node(const sinew_world *w, const sinew_row_constraint *rc, int e)
{
	int32_t slot = e == 0 ? rc->body_a : rc->body_b;
	return slot > 0 && w->solver_bodies[slot].inv_mass > 0.0f ? w->tree_body_node[slot] : -1;
}

/* The rigid rows of the joints that close loops, into loop_rows (NULL: only counted). */
static int collect_loop_rows(const sinew_world *w, int32_t **rows)
{
	int count = 0, n = (int)stbds_arrlen(w->active_joints);
	for (int i = 0; i < n; ++i) {
		const sinew_joint *j = &w->joints[w->active_joints[i]];
		if (j->tree_node != -2) continue;
		for (int r = 0; r < j->row_count; ++r) {
			if (w->joint_rows[j->row_start + r].row.kind != SINEW_ROW_EQUALITY) continue;
			if (rows != NULL) stbds_arrput(*rows, j->row_start + r);
			++count;
		}
	}
	return count;
}

void sinew_joint_loops_find(sinew_world *w)
{
	int before = (int)stbds_arrlen(w->loop_rows);
	stbds_arrsetlen(w->loop_rows_before, before);
	if (before > 0) memcpy(w->loop_rows_before, w->loop_rows, (size_t)before * sizeof *w->loop_rows);
	stbds_arrsetlen(w->loop_rows, 0);
	w->loop_pack_fresh = false;
	int count = collect_loop_rows(w, &w->loop_rows);
	w->loops_iterative = count > SINEW_MAX_LOOP_ROWS;
	/* the position step's loop impulses start from the last ones while the loop rows stay the same */
	bool same = count == before && (count == 0 || memcmp(w->loop_rows, w->loop_rows_before, (size_t)count * sizeof *w->loop_rows) == 0);
	stbds_arrsetlen(w->loop_position, count);
	stbds_arrsetlen(w->loop_increment, count);
	if (!same)
		for (int k = 0; k < count; ++k) w->loop_position[k] = w->loop_increment[k] = 0.0;
	stbds_arrsetlen(w->loop_nodes, 2 * count);
	for (int k = 0; k < count; ++k) {
		sinew_row_constraint *rc = &w->joint_rows[w->loop_rows[k]];
		w->loop_nodes[2 * k] = loop_end_node(w, rc, 0);
		w->loop_nodes[2 * k + 1] = loop_end_node(w, rc, 1);
		int32_t ta = tree_of_slot(w, rc->body_a), tb = tree_of_slot(w, rc->body_b);
		rc->in_loop = true;
		if (ta >= 0) w->tree_ranges[ta].has_loops = true;
		if (tb >= 0) w->tree_ranges[tb].has_loops = true;
	}
}

/* ---------------------------------------------------------------- the trees' shape under many loops */

/* Each loop row's cycle is its own row plus the tree path between its ends, and the longer those
 * paths (the tree's stretch), the worse the conjugate gradients' system is conditioned. A breadth-
 * first tree keeps every body's path to its root shortest, but on a grid the order a body's joints
 * are listed in picks the same parent direction everywhere, a comb: two neighbours in different teeth
 * meet only near the root. joint_grid's nine trees so made: a loop row's cycle 52.7 joints on
 * average, 199 at most. Where the trees close more than SINEW_MAX_LOOP_ROWS / 2 loops (so the
 * conjugate-gradient path solves them), each body instead takes its tree parent at random (a hash of
 * its slot: deterministic) among the neighbours of its own tree one step nearer the root; the paths
 * stay shortest, and neighbouring paths meet like random walks that coalesce: 32.4 joints on average
 * on joint_grid. Worlds with fewer such loops keep the breadth-first trees (sinew_joint_loops_
 * parent_joint answers true for every joint): the bridges, linkages and scissor lifts of
 * tests/test_joint_loops.c. A low-stretch tree by clustering (balls grown and contracted, level by
 * level), a random spanning tree (Wilson) and one by Kruskal on random weights were modelled on the
 * 100 x 100 grid first: 31-37 joints on average, longest cycles of 490-660. */
static bool has_rigid_rows(const sinew_world *w, const sinew_joint *j)
{
	for (int r = 0; r < j->row_count; ++r)
		if (w->joint_rows[j->row_start + r].row.kind == SINEW_ROW_EQUALITY) return true;
	return false;
}

static uint32_t mix32(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352dU;
	x ^= x >> 15;
	x *= 0x846ca68bU;
	x ^= x >> 16;
	return x;
}

/* The slot of the dynamic body of the same tree (label) across joint j from body bi, else 0. */
static int32_t tree_neighbour(const sinew_world *w, const sinew_joint *j, int32_t bi, int32_t label)
{
	if (!j->active || j->tree_node != -1 || !has_rigid_rows(w, j)) return 0;
	int32_t other = j->edges[sinew_joint_edge_of(j, bi) ^ 1].body;
	if (other == SINEW_NULL_INDEX) return 0;
	int32_t s = w->bodies[other].solver_index;
	return s > 0 && w->solver_bodies[s].inv_mass > 0.0f && w->tree_body_node[s] == label ? s : 0;
}

/* Called once the bodies carry their trees' labels (tree_body_node: -2 - the root's slot), before the
 * trees are built: each body's distance from its root, breadth first within its tree, then its
 * parent joint (loop_tree_joint; -2: any, as breadth first finds it). */
void sinew_joint_loops_choose_parents(sinew_world *w)
{
	int slots = sinew_solver_count(w);
	stbds_arrsetlen(w->loop_tree_joint, slots);
	stbds_arrsetlen(w->loop_tree_depth, slots);
	int32_t *choice = w->loop_tree_joint, *depth = w->loop_tree_depth;
	for (int s = 0; s < slots; ++s) choice[s] = -2, depth[s] = -1;
	stbds_arrsetlen(w->loop_tree_queue, 0);
	for (int s = 1; s < slots; ++s)
		if (w->tree_body_node[s] == -2 - s) {
			depth[s] = 0;
			stbds_arrput(w->loop_tree_queue, s);
		}
	int roots = (int)stbds_arrlen(w->loop_tree_queue), ends = 0; /* ends: joints within trees, twice */
	for (ptrdiff_t head = 0; head < stbds_arrlen(w->loop_tree_queue); ++head) {
		int32_t slot = w->loop_tree_queue[head], bi = w->awake_bodies[slot], label = w->tree_body_node[slot];
		for (int32_t ji = w->bodies[bi].joint_list; ji != SINEW_NULL_INDEX;) {
			const sinew_joint *j = &w->joints[ji];
			ji = j->edges[sinew_joint_edge_of(j, bi)].next;
			int32_t other = tree_neighbour(w, j, bi, label);
			if (other == 0) continue;
			++ends;
			if (depth[other] >= 0) continue;
			depth[other] = depth[slot] + 1;
			stbds_arrput(w->loop_tree_queue, other);
		}
	}
	int bodies = (int)stbds_arrlen(w->loop_tree_queue);
	if (ends / 2 - (bodies - roots) <= SINEW_MAX_LOOP_ROWS / 2) return;
	for (int q = roots; q < bodies; ++q) {
		int32_t slot = w->loop_tree_queue[q], bi = w->awake_bodies[slot], label = w->tree_body_node[slot];
		int32_t nearer[8];
		int count = 0;
		for (int32_t ji = w->bodies[bi].joint_list; ji != SINEW_NULL_INDEX;) {
			const sinew_joint *j = &w->joints[ji];
			int32_t here = ji;
			ji = j->edges[sinew_joint_edge_of(j, bi)].next;
			int32_t other = tree_neighbour(w, j, bi, label);
			if (other != 0 && depth[other] == depth[slot] - 1 && count < 8) nearer[count++] = here;
		}
		if (count > 0) choice[slot] = nearer[mix32((uint32_t)slot) % (uint32_t)count];
	}
}

/* Whether the tree may join `slot` to its parent through `joint` (sinew_joint_loops_choose_parents). */
bool sinew_joint_loops_parent_joint(const sinew_world *w, int32_t slot, int32_t joint)
{
	int32_t chosen = w->loop_tree_joint[slot];
	return chosen == -2 || chosen == joint;
}

/* The speed a biased pass asks of a loop row: closing its error within the substep, at most
 * SINEW_LOOP_MAX_BIAS. */
static double loop_bias(const sinew_world *w, const sinew_row_constraint *rc, float h)
{
	double speed = -(double)rc->row.c / (double)h, cap = SINEW_LOOP_MAX_BIAS * (double)w->lengths;
	return fmax(-cap, fmin(cap, speed));
}

/* Whether loop row k joins two different trees (or a tree to something fixed). */
static bool between_trees(const sinew_world *w, int k)
{
	const int32_t *ends = &w->loop_nodes[2 * k];
	return !(ends[0] >= 0 && ends[1] >= 0 && w->tree_nodes[ends[0]].tree == w->tree_nodes[ends[1]].tree);
}

/* An impulse along a loop row, with each body's turning as the tree's matrix sees it (its inertia plus
 * the geometric stiffness), so that S is symmetric like that matrix. */
static void loop_apply(sinew_world *w, const sinew_row_constraint *rc, float impulse)
{
	const int32_t slots[2] = {rc->body_a, rc->body_b};
	const float *parts[2] = {rc->row.ja, rc->row.jb};
	for (int e = 0; e < 2; ++e) {
		sinew_solver_body *b = &w->solver_bodies[slots[e]];
		if (slots[e] == 0 || b->inv_mass == 0.0f) continue;
		int32_t node = w->tree_body_node[slots[e]];
		double turn = node >= 0 ? w->tree_nodes[node].inv_turn : b->inv_inertia > 0.0f ? 1.0 / (1.0 / (double)b->inv_inertia) : 0.0;
		b->v.x += b->inv_mass * parts[e][0] * impulse;
		b->v.y += b->inv_mass * parts[e][1] * impulse;
		b->w += (float)(turn * (double)parts[e][2] * (double)impulse);
	}
}

/* In-place Cholesky factor (lower) of the symmetric L x L matrix, revealing its rank: a pivot at or
 * below its row's floor (a loop row the others already imply, to within SINEW_LOOP_RANK of what the
 * row alone would move) gets a zero inverse, so its row takes no impulse. */
static void cholesky(double *m, int n, const double *floor)
{
	for (int k = 0; k < n; ++k) {
		double d = m[k * n + k];
		for (int p = 0; p < k; ++p) d -= m[k * n + p] * m[k * n + p];
		m[k * n + k] = d > floor[k] ? sqrt(d) : 0.0;
		for (int i = k + 1; i < n; ++i) {
			double v = m[i * n + k];
			for (int p = 0; p < k; ++p) v -= m[i * n + p] * m[k * n + p];
			m[i * n + k] = m[k * n + k] > 0.0 ? v / m[k * n + k] : 0.0;
		}
	}
}

static void cholesky_solve(const double *m, int n, double *x)
{
	for (int i = 0; i < n; ++i) {
		double v = x[i];
		for (int p = 0; p < i; ++p) v -= m[i * n + p] * x[p];
		x[i] = m[i * n + i] > 0.0 ? v / m[i * n + i] : 0.0;
	}
	for (int i = n - 1; i >= 0; --i) {
		double v = x[i];
		for (int p = i + 1; p < n; ++p) v -= m[p * n + i] * x[p];
		x[i] = m[i * n + i] > 0.0 ? v / m[i * n + i] : 0.0;
	}
}

static void loop_product(sinew_world *w, const double *p, double *out);
static void loop_preconditioner(sinew_world *w);

/* S column by column, each one product (a unit impulse along loop row i spread through the trees in
 * double precision, loop_product), then its two factorisations (see SINEW_LOOP_GUARD and
 * SINEW_LOOP_RANK). (Spread through the bodies' float velocities, S carried a relative noise of about
 * 1e-5: a singular S then had pivots of 1e-5 of its scale instead of 0, and the solve returned
 * impulses of 1e5-1e7 N s along its null space.) */
void sinew_joint_loops_factor(sinew_world *w, float h)
{
	SINEW_UNUSED(h);
	w->loop_jacobians_fresh = false;
	int count = (int)stbds_arrlen(w->loop_rows);
	if (count == 0) return;
	if (w->loops_iterative) {
		loop_preconditioner(w);
		return;
	}
	stbds_arrsetlen(w->loop_matrix, 3 * count * count + count);
	double *m = w->loop_matrix, *floor = m + 3 * count * count;
	double unit[SINEW_MAX_LOOP_ROWS], column[SINEW_MAX_LOOP_ROWS];
	for (int i = 0; i < count; ++i) unit[i] = 0.0;
	for (int i = 0; i < count; ++i) {
		unit[i] = 1.0;
		loop_product(w, unit, column);
		unit[i] = 0.0;
		for (int k = 0; k < count; ++k) m[k * count + i] = column[k];
	}
	double largest = 0.0;
	for (int i = 0; i < count; ++i) {
		largest = fmax(largest, m[i * count + i]);
		for (int k = 0; k < i; ++k) m[i * count + k] = m[k * count + i] = 0.5 * (m[i * count + k] + m[k * count + i]);
		/* what the row alone would move: its inverse effective mass with the bodies' own inertia */
		float eff = w->joint_rows[w->loop_rows[i]].eff_mass;
		floor[i] = SINEW_LOOP_RANK * (eff > 0.0f ? 1.0 / (double)eff : 0.0);
	}
	double *soft = m + count * count, *bias = soft + count * count;
	for (int i = 0; i < count * count; ++i) soft[i] = bias[i] = m[i];
	for (int i = 0; i < count; ++i) {
		double scale = fmax(largest, floor[i] / SINEW_LOOP_RANK);
		m[i * count + i] += SINEW_LOOP_GUARD * largest;
		soft[i * count + i] += SINEW_LOOP_DAMPING * scale;
		bias[i * count + i] += SINEW_LOOP_BIAS_DAMPING * scale;
	}
	cholesky(m, count, floor);
	cholesky(soft, count, floor);
	cholesky(bias, count, floor);
}

/* ---------------------------------------------------------------- many loops: conjugate gradients */

/* Products per pass: the first velocity pass of a substep, each relax pass, each position step.
 * Many loops are over-constrained (a grid of pinned circles has more rigid rows than degrees of
 * freedom), so S is singular; conjugate gradients from zero stay in its range as long as the right-
 * hand side is, which is why the velocity passes ask the loop rows within one tree (the cells of a
 * grid) to stand still (a right-hand side J v of tree-exact velocities lies in the range), warm start
 * them, and leave their position error to the projection: with the bias -C/h of the exact path the
 * warm-started impulses drifted along the null space and the 20 x 20 grid blew up. Loop rows between
 * two trees (or to something fixed) are solved as on the exact path: from zero each substep, with
 * the bias -C/h in the first pass. Warm started, a taut bridge's loop impulse (its whole tension)
 * moved its planks before the trees took it back, and the contacts of its crates answered that: 34
 * taut bridges with crates tore by metres whatever the damping, the budget or the tolerance; from
 * zero but without the bias, the damped position step could not close the bridge along its length
 * (1.5 cm and crates at 0.4 m/s after 10 s); both ways, within 0.1 mm, crates at rest
 * (tests/test_joint_loops.c, many_taut_bridges_hold). On joint_grid, every loop row so solved (no
 * warm start, bias) gave 1.5 cm at 16 products and 4.3 mm at 24; rows between trees only, 2.1 mm
 * at 16. A pass stops early once the rows' root-mean-square residual is below
 * SINEW_LOOP_CG_SPEED (m/s) or SINEW_LOOP_CG_LENGTH (m); a relax pass also once it is back to
 * SINEW_LOOP_CG_RELAX_RATIO times what the last loop solve left (it only removes what contacts and
 * sequential rows added since: on joint_grid, nothing, and it costs no product). The preconditioner
 * is 1 / S_ii where it is known exactly, else the row's own effective mass (loop_preconditioner).
 *
 * The position step starts from its last loop impulses (kept from substep to substep and step to
 * step while the loop rows are the same), a tenth forgotten each time so that what lies along the
 * null space (it moves nothing) cannot pile up; its first product is the start's residual. Measured
 * on joint_grid (worst separation): 16 + 4 + 4 velocity and 16 position products from zero, 7.9 mm
 * over 500 steps; 24 velocity products in the first pass and 4 position products started this
 * way, 2.6 mm over 500 steps, with 116 products a step instead of 176; 16 velocity and 3 position
 * products, 7.7 mm by step 128 and growing; 12 and 4, 17 mm by step 112. Most of that error sat at
 * the loops through the ground (the tree was grown from one of the grid's pins, and the other six
 * and two fixed neighbours carried most of its weight as loop rows); with a tree per fixed joint
 * (joint_tree.c, sinew_joint_tree_build), over the first 150 steps: 24 and 4, 0.9 mm; 16 and 4, 2.0 mm;
 * 16 and 3, 2.3 mm; 12 and 4, 7.9 mm; 8 and 8, 35 mm and growing. 16 and 4 (84 products a step):
 * 2.9 mm over 500 steps (the jolt at step 6), 0.44 mm from step 50 on. Tried and not
 * taken (no gain in the worst separation): S's own diagonal and its 2 x 2 blocks per joint as the
 * preconditioner for every row (exact, by selected inversion on the tree: about 100 nodes walked per
 * loop joint within one tree), and starting each velocity pass from its projection on the last
 * pass's directions. With the trees of sinew_joint_loops_choose_parents and the warm start of
 * SINEW_LOOP_CG_EXTRAPOLATE, 14 and 4 (76 products a step): 3.54 mm over 500 steps (step 6), 2.24 mm
 * from step 50 on (16 and 4 before them: 3.90 mm at step 448). */
#define SINEW_LOOP_CG_BIASED 14
#define SINEW_LOOP_CG_RELAX 4
#define SINEW_LOOP_CG_POSITION 4
#define SINEW_LOOP_CG_KEEP 0.9
#define SINEW_LOOP_CG_SPEED 1e-4
#define SINEW_LOOP_CG_RELAX_RATIO 1.1
#define SINEW_LOOP_CG_LENGTH 1e-6
/* The loop rows within one tree start a substep from their impulses plus this share of what the last
 * biased pass added to them: what it will most likely add again, so the conjugate gradients start
 * nearer. Worst separation of joint_grid over its first 150 steps (16 products a pass, the breadth-
 * first trees): 2.65 mm from the impulses alone, 2.46 mm with half the last increment, 4.73 mm with
 * all of it; with the trees of sinew_joint_loops_choose_parents, 3.25 and 2.78 mm for none and half,
 * and at 14 products 4.00 and 3.54 mm (tests/test_joint_loops.c, joint_grid_scene_holds, prints it). */
#define SINEW_LOOP_CG_EXTRAPOLATE 0.5

/* Each loop row's Jacobian in double, ja then jb, each padded to four with a 0 (the products load them
 * as four lanes, see d4), read by every product: the rows themselves are
 * large and far apart, and reading them there was about half of a product's instructions. Taken
 * again after the rows change (each factorisation and projection starts by marking them stale: the
 * rows are rebuilt before both, and the velocity passes between keep the substep's Jacobians); the
 * same numbers, so the products are the same to the last bit. */
static const double *loop_jacobians(sinew_world *w)
{
	int count = (int)stbds_arrlen(w->loop_rows);
	if (w->loop_jacobians_fresh && stbds_arrlen(w->loop_jacobians) == 8 * count) return w->loop_jacobians;
	stbds_arrsetlen(w->loop_jacobians, 8 * count);
	for (int k = 0; k < count; ++k) {
		const sinew_row_constraint *rc = &w->joint_rows[w->loop_rows[k]];
		double *j = &w->loop_jacobians[8 * k];
		for (int i = 0; i < 3; ++i) j[i] = (double)rc->row.ja[i], j[4 + i] = (double)rc->row.jb[i];
		j[3] = j[7] = 0.0;
	}
	w->loop_jacobians_fresh = true;
	return w->loop_jacobians;
}

/* The body nodes of the trees loops reach, cleared, with impulse k along loop row k loaded as the
 * force on its ends' nodes (x may be NULL: nothing loaded). */
static void load_loop_forces(sinew_world *w, const double *x)
{
	int trees = (int)stbds_arrlen(w->tree_ranges);
	for (int t = 0; t < trees; ++t) {
		if (!w->tree_ranges[t].has_loops) continue;
		for (int32_t i = w->tree_ranges[t].begin; i < w->tree_ranges[t].end; ++i) {
			double *y = w->tree_nodes[i].y;
			y[0] = y[1] = y[2] = 0.0;
		}
	}
	if (x == NULL) return;
	int count = (int)stbds_arrlen(w->loop_rows);
	const double *jac = loop_jacobians(w);
	for (int k = 0; k < count; ++k) {
		const int32_t *ends = &w->loop_nodes[2 * k];
		for (int e = 0; e < 2; ++e) {
			if (ends[e] < 0) continue;
			const double *j = &jac[8 * k + 4 * e];
			double *y = w->tree_nodes[ends[e]].y;
			y[0] += j[0] * x[k];
			y[1] += j[1] * x[k];
			y[2] += j[2] * x[k];
		}
	}
}

/* The loaded forces spread through the trees: each body node's y then holds its velocity change
 * (M dv - J^T lambda = f with every tree row standing still). */
static void spread_loop_forces(sinew_world *w)
{
	int trees = (int)stbds_arrlen(w->tree_ranges);
	for (int t = 0; t < trees; ++t)
		if (w->tree_ranges[t].has_loops) sinew_tree_spread_range(w, w->tree_ranges[t].begin, w->tree_ranges[t].end);
}

/* out = S p: p loaded as forces on the trees, spread, the loop rows' speeds read off the body
 * nodes. In double throughout, and no body's velocity is touched. */
static void loop_product(sinew_world *w, const double *p, double *out)
{
	load_loop_forces(w, p);
	spread_loop_forces(w);
	int count = (int)stbds_arrlen(w->loop_rows);
	const double *jac = loop_jacobians(w);
	for (int k = 0; k < count; ++k) {
		const int32_t *ends = &w->loop_nodes[2 * k];
		double s = 0.0;
		for (int e = 0; e < 2; ++e) {
			if (ends[e] < 0) continue;
			const double *j = &jac[8 * k + 4 * e];
			const double *y = w->tree_nodes[ends[e]].y;
			s += j[0] * y[0] + j[1] * y[1] + j[2] * y[2];
		}
		out[k] = s;
	}
}

/* The conjugate gradients' products do not walk the tree nodes. A product is a spread with forces on
 * the bodies only, and every joint node has exactly one child, the body hanging from it: a joint's
 * right-hand side on the way up is that body's alone, and on the way down that body is the only
 * node that reads its answer. So each pair (joint j, body b below it, parent body p above it) folds
 * into two 3 x 3 blocks made once per factorisation (D the inverted pivots, H the couplings):
 *
 *     up:   y_p += A y_b,                      A = H_j^T D_j H_b^T D_b
 *     down: y_b  = B y_b + A^T y_p,            B = D_b + D_b H_b D_j H_b^T D_b  (symmetric)
 *
 * (eliminate_up and substitute_down of joint_tree.c written out for a joint whose right-hand side
 * starts at 0). Per body 27 products instead of the 50 of the body's and its joint's passes, over
 * half the nodes, without the dispatch on block sizes, and read from 304 bytes a body (the blocks'
 * columns and A's rows in lanes) instead of two 232-byte nodes. The same answer to rounding (the sums are grouped differently). Made again
 * after each factorisation (joint_tree.c marks it stale); the exact path's S keeps the tree passes. */
typedef struct sinew_loop_node {
	double up[12];   /* A's columns, each padded to four with a 0 (see d4) */
	double down[24]; /* B's columns, then A's rows (A^T's columns), padded the same way */
	double turn;     /* its internal stiffness (tree_turn's first entry: see common_turn in joint_tree.c) */
	int32_t parent;  /* its parent body's place in loop_pack (-1: it hangs from something fixed or is a root) */
	int32_t node;    /* its body node */
} sinew_loop_node;

/* The products run on three-vectors of doubles padded to four (a body's right-hand side, a row's
 * Jacobian at one end, a column of A or B), as two SSE2 registers where the compiler targets SSE2
 * (every x86-64) and four doubles elsewhere, and where gcc builds for x86-64 also as one AVX register
 * (joint_loops_product.h, below). Each lane does the scalar sums' multiplications and additions in
 * their order, so every kind gives the same numbers to the last bit; the pad lanes hold 0 and are
 * never read into a result. */
#if defined(__SSE2__)
#include <emmintrin.h>
typedef struct d4 {
	__m128d lo, hi;
} d4;
static inline d4 d4_load(const double *p) { return (d4){_mm_loadu_pd(p), _mm_loadu_pd(p + 2)}; }
static inline void d4_store(double *p, d4 a) { _mm_storeu_pd(p, a.lo), _mm_storeu_pd(p + 2, a.hi); }
static inline d4 d4_splat(double x) { return (d4){_mm_set1_pd(x), _mm_set1_pd(x)}; }
static inline d4 d4_load1(const double *p) { return d4_splat(*p); }
static inline d4 d4_add(d4 a, d4 b) { return (d4){_mm_add_pd(a.lo, b.lo), _mm_add_pd(a.hi, b.hi)}; }
static inline d4 d4_mul(d4 a, d4 b) { return (d4){_mm_mul_pd(a.lo, b.lo), _mm_mul_pd(a.hi, b.hi)}; }
/* (a0 + a1 + a2) + (b0 + b1 + b2), summed left to right: a row's speed from its two ends' products */
static inline double d4_sum_pair(d4 a, d4 b)
{
	__m128d s = _mm_add_pd(_mm_unpacklo_pd(a.lo, b.lo), _mm_unpackhi_pd(a.lo, b.lo));
	s = _mm_add_pd(s, _mm_unpacklo_pd(a.hi, b.hi));
	return _mm_cvtsd_f64(s) + _mm_cvtsd_f64(_mm_unpackhi_pd(s, s));
}
#else
typedef struct d4 {
	double v[4];
} d4;
static inline d4 d4_load(const double *p) { return (d4){{p[0], p[1], p[2], p[3]}}; }
static inline void d4_store(double *p, d4 a) { p[0] = a.v[0], p[1] = a.v[1], p[2] = a.v[2], p[3] = a.v[3]; }
static inline d4 d4_splat(double x) { return (d4){{x, x, x, x}}; }
static inline d4 d4_load1(const double *p) { return d4_splat(*p); }
static inline d4 d4_add(d4 a, d4 b) { return (d4){{a.v[0] + b.v[0], a.v[1] + b.v[1], a.v[2] + b.v[2], a.v[3] + b.v[3]}}; }
static inline d4 d4_mul(d4 a, d4 b) { return (d4){{a.v[0] * b.v[0], a.v[1] * b.v[1], a.v[2] * b.v[2], a.v[3] * b.v[3]}}; }
static inline double d4_sum_pair(d4 a, d4 b) { return a.v[0] + a.v[1] + a.v[2] + (b.v[0] + b.v[1] + b.v[2]); }
#endif

#if defined(__GNUC__)
#define LOOPS_INLINE static inline __attribute__((always_inline))
#else
#define LOOPS_INLINE static inline
#endif

/* B's update and A from the joint j (nj rows) above the body node n: inlined with nj a constant
 * (pack_body), so the short loops unroll; the same operations in the same order for every nj. */
LOOPS_INLINE void fold_joint(const sinew_tree_node *n, const sinew_tree_node *j, int nj, double bm[3][3], double am[3][3])
{
	double e[3][3] = {{0.0}}, f[3][3] = {{0.0}}; /* E = D_b H_b, F = E D_j (3 x nj) */
	for (int a = 0; a < 3; ++a)
		for (int c = 0; c < nj; ++c)
			for (int k = 0; k < 3; ++k) e[a][c] += n->d[a][k] * n->h[k][c];
	for (int a = 0; a < 3; ++a)
		for (int c = 0; c < nj; ++c)
			for (int k = 0; k < nj; ++k) f[a][c] += e[a][k] * j->d[k][c];
	for (int a = 0; a < 3; ++a)
		for (int c = 0; c < 3; ++c)
			for (int k = 0; k < nj; ++k) bm[a][c] += f[a][k] * e[c][k];
	if (j->parent < 0) return;
	for (int a = 0; a < 3; ++a) /* A^T = F H_j */
		for (int c = 0; c < 3; ++c) {
			double v = 0.0;
			for (int k = 0; k < nj; ++k) v += f[a][k] * j->h[k][c];
			am[c][a] = v;
		}
}

static void pack_body(const sinew_world *w, int32_t i, sinew_loop_node *q)
{
	const sinew_tree_node *n = &w->tree_nodes[i];
	q->node = i;
	double bm[3][3];
	for (int a = 0; a < 3; ++a)
		for (int c = 0; c < 3; ++c) bm[a][c] = n->d[a][c];
	q->parent = -1;
	double am[3][3] = {{0.0}}; /* A */
	if (n->parent >= 0) {
		const sinew_tree_node *j = &w->tree_nodes[n->parent];
		switch (j->dim) {
		case 1: fold_joint(n, j, 1, bm, am); break;
		case 2: fold_joint(n, j, 2, bm, am); break;
		case 3: fold_joint(n, j, 3, bm, am); break;
		default: fold_joint(n, j, j->dim, bm, am); break;
		}
		if (j->parent >= 0) q->parent = w->loop_pack_index[j->parent];
	}
	double b01 = 0.5 * (bm[0][1] + bm[1][0]), b02 = 0.5 * (bm[0][2] + bm[2][0]), b12 = 0.5 * (bm[1][2] + bm[2][1]);
	bm[0][1] = bm[1][0] = b01, bm[0][2] = bm[2][0] = b02, bm[1][2] = bm[2][1] = b12;
	for (int c = 0; c < 3; ++c) {
		for (int r = 0; r < 3; ++r) {
			q->up[4 * c + r] = am[r][c];
			q->down[4 * c + r] = bm[r][c];
			q->down[12 + 4 * c + r] = am[c][r];
		}
		q->up[4 * c + 3] = q->down[4 * c + 3] = q->down[12 + 4 * c + 3] = 0.0;
	}
}

static void pack_trees(sinew_world *w)
{
	int nodes = (int)stbds_arrlen(w->tree_nodes), count = (int)stbds_arrlen(w->loop_rows);
	stbds_arrsetlen(w->loop_pack_index, nodes);
	stbds_arrsetlen(w->loop_pack, 0);
	int trees = (int)stbds_arrlen(w->tree_ranges);
	for (int t = 0; t < trees; ++t) {
		if (!w->tree_ranges[t].has_loops) continue;
		for (int32_t i = w->tree_ranges[t].begin; i < w->tree_ranges[t].end; ++i) {
			w->loop_pack_index[i] = -1;
			if (!w->tree_nodes[i].is_body) continue;
			sinew_loop_node q;
			pack_body(w, i, &q);
			w->loop_pack_index[i] = (int32_t)stbds_arrlen(w->loop_pack);
			stbds_arrput(w->loop_pack, q);
		}
	}
	int32_t bodies = (int32_t)stbds_arrlen(w->loop_pack);
	stbds_arrsetlen(w->loop_pack_y, 4 * (bodies + 1));
	/* the common turn's entries in loop_pack's order (its response padded to four), and where each
	 * tree's bodies begin there (a tree's bodies are together), so the products read neither the tree
	 * nodes nor tree_turn */
	stbds_arrsetlen(w->loop_pack_turn, 4 * bodies);
	stbds_arrsetlen(w->loop_pack_trees, 0);
	for (int32_t k = 0; k < bodies; ++k) {
		int32_t node = w->loop_pack[k].node, tree = w->tree_nodes[node].tree;
		w->loop_pack[k].turn = w->tree_turn[4 * node];
		for (int c = 0; c < 3; ++c) w->loop_pack_turn[4 * k + c] = w->tree_turn[4 * node + 1 + c];
		w->loop_pack_turn[4 * k + 3] = 0.0;
		if (k == 0 || tree != w->tree_nodes[w->loop_pack[k - 1].node].tree) {
			stbds_arrput(w->loop_pack_trees, k);
			stbds_arrput(w->loop_pack_trees, tree);
		}
	}
	stbds_arrput(w->loop_pack_trees, bodies);
	/* per row: its two ends' places (a fixed end: the spare place after the bodies, see
	 * loop_product_packed), then 2 if the next row has the same ends (a joint's point rows, loaded and
	 * read together), else 1 */
	stbds_arrsetlen(w->loop_pack_ends, 3 * count);
	int32_t *ends = w->loop_pack_ends;
	for (int k = 0; k < count; ++k)
		for (int e = 0; e < 2; ++e) ends[3 * k + e] = w->loop_nodes[2 * k + e] >= 0 ? w->loop_pack_index[w->loop_nodes[2 * k + e]] : bodies;
	for (int k = 0; k < count; ++k)
		ends[3 * k + 2] = k + 1 < count && w->loop_nodes[2 * k + 2] == w->loop_nodes[2 * k] && w->loop_nodes[2 * k + 3] == w->loop_nodes[2 * k + 1] ? 2 : 1;
	w->loop_pack_fresh = true;
}

#define DT d4
#define D(op) d4_##op
#define K(name) name##_d4
#include "joint_loops_product.h"
#undef K
#undef D
#undef DT

/* Where gcc builds for x86-64, the product is also built for AVX and used where the CPU has it (the
 * contact solver's choice, sinew_contacts_wide_simd: SINEW_SIMD=sse2 asks for the SSE2 product too):
 * a three-vector in one register, and the VEX encoding's three operands (no register copies). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__SSE2__)
#define LOOPS_AVX 1
#include <immintrin.h>
#pragma GCC push_options
#pragma GCC target("avx")
static inline __m256d d4x_load(const double *p) { return _mm256_loadu_pd(p); }
static inline void d4x_store(double *p, __m256d a) { _mm256_storeu_pd(p, a); }
static inline __m256d d4x_splat(double x) { return _mm256_set1_pd(x); }
static inline __m256d d4x_load1(const double *p) { return _mm256_broadcast_sd(p); }
static inline __m256d d4x_add(__m256d a, __m256d b) { return _mm256_add_pd(a, b); }
static inline __m256d d4x_mul(__m256d a, __m256d b) { return _mm256_mul_pd(a, b); }
static inline double d4x_sum_pair(__m256d a, __m256d b)
{
	__m128d alo = _mm256_castpd256_pd128(a), blo = _mm256_castpd256_pd128(b);
	__m128d s = _mm_add_pd(_mm_unpacklo_pd(alo, blo), _mm_unpackhi_pd(alo, blo));
	s = _mm_add_pd(s, _mm_unpacklo_pd(_mm256_extractf128_pd(a, 1), _mm256_extractf128_pd(b, 1)));
	return _mm_cvtsd_f64(s) + _mm_cvtsd_f64(_mm_unpackhi_pd(s, s));
}
#define DT __m256d
#define D(op) d4x_##op
#define K(name) name##_avx
#include "joint_loops_product.h"
#undef K
#undef D
#undef DT
#pragma GCC pop_options
#else
#define LOOPS_AVX 0
#endif

/* out = S p through the folded blocks (loop_product's answer, to rounding). A fixed end loads into and
 * reads from a spare body after the last (cleared before it is read), so no row tests its ends. */
static void loop_product_packed(sinew_world *w, const double *p, double *out)
{
	if (!w->loop_pack_fresh) pack_trees(w);
	loop_jacobians(w);
#if LOOPS_AVX
	if (w->wide_simd != SINEW_WIDE_FOUR) {
		loop_product_avx(w, p, out);
		return;
	}
#endif
	loop_product_d4(w, p, out);
}

/* The preconditioner of the conjugate gradients, 1 / S_ii per loop row, in loop_matrix (unused by
 * this path otherwise). S_ii = sum over the row's ends e, e' of j_e Z_ee' j_e'^T with Z = K^-1 the
 * inverse of the trees' matrix; its diagonal blocks come from the factorisation root first
 * (selected inversion: Z_nn = D_n^-1 + G_n Z_pp G_n^T, G_n = D_n^-1 H_n, a pass over the nodes like
 * a tree solve's). A row whose ends lie in different trees (or one end is fixed) has no cross block,
 * so its S_ii is exact; a row with both ends in one tree (every cell of joint_grid) would need the
 * cross block of the path between them and keeps its inverse effective mass with the bodies' own
 * inertia, as before. A taut loop between two trees needs it: a bridge pulled straight is held
 * along its length by its trees, so that row's S_ii is about 1e-6 of its inverse effective mass
 * (bodies alone), and preconditioned by the latter the conjugate gradients did not converge within
 * their budget (34 taut bridges with a crate each tore by metres; tests/test_joint_loops.c,
 * many_taut_bridges_hold). */
static void loop_preconditioner(sinew_world *w)
{
	int count = (int)stbds_arrlen(w->loop_rows), nodes = (int)stbds_arrlen(w->tree_nodes);
	stbds_arrsetlen(w->loop_matrix, count + 9 * nodes);
	double *scale = w->loop_matrix, *z = scale + count;
	/* Z only where a row between trees reads it: at its ends and on their paths to their roots (on
	 * joint_grid a small part of the nodes: the rows between its trees lie along their borders) */
	stbds_arrsetlen(w->loop_needed, nodes);
	bool *needed = w->loop_needed;
	int trees = (int)stbds_arrlen(w->tree_ranges);
	for (int t = 0; t < trees; ++t)
		if (w->tree_ranges[t].has_loops)
			for (int32_t i = w->tree_ranges[t].begin; i < w->tree_ranges[t].end; ++i) needed[i] = false;
	for (int k = 0; k < count; ++k) {
		if (!between_trees(w, k)) continue;
		for (int e = 0; e < 2; ++e)
			for (int32_t i = w->loop_nodes[2 * k + e]; i >= 0 && !needed[i]; i = w->tree_nodes[i].parent) needed[i] = true;
	}
	for (int t = 0; t < trees; ++t) {
		if (!w->tree_ranges[t].has_loops) continue;
		for (int32_t i = w->tree_ranges[t].begin; i < w->tree_ranges[t].end; ++i) {
			if (!needed[i]) continue;
			const sinew_tree_node *n = &w->tree_nodes[i];
			double *zn = &z[9 * i];
			for (int a = 0; a < n->dim; ++a)
				for (int b = 0; b < n->dim; ++b) zn[3 * a + b] = n->d[a][b]; /* D_n^-1 */
			if (n->parent < 0) continue;
			const sinew_tree_node *p = &w->tree_nodes[n->parent];
			const double *zp = &z[9 * n->parent];
			double g[3][3] = {{0.0}}, gz[3][3] = {{0.0}};
			for (int a = 0; a < n->dim; ++a)
				for (int b = 0; b < p->dim; ++b)
					for (int k = 0; k < n->dim; ++k) g[a][b] += n->d[a][k] * n->h[k][b];
			for (int a = 0; a < n->dim; ++a)
				for (int b = 0; b < p->dim; ++b)
					for (int k = 0; k < p->dim; ++k) gz[a][b] += g[a][k] * zp[3 * k + b];
			for (int a = 0; a < n->dim; ++a)
				for (int b = 0; b < n->dim; ++b)
					for (int k = 0; k < p->dim; ++k) zn[3 * a + b] += gz[a][k] * g[b][k];
		}
	}
	const double *jac = loop_jacobians(w);
	for (int k = 0; k < count; ++k) {
		const int32_t *ends = &w->loop_nodes[2 * k];
		double own = (double)w->joint_rows[w->loop_rows[k]].eff_mass, s = 0.0;
		if (!between_trees(w, k)) {
			scale[k] = own;
			continue;
		}
		for (int e = 0; e < 2; ++e) {
			if (ends[e] < 0) continue;
			const double *j = &jac[8 * k + 4 * e], *ze = &z[9 * ends[e]];
			for (int a = 0; a < 3; ++a)
				for (int b = 0; b < 3; ++b) s += j[a] * ze[3 * a + b] * j[b];
		}
		scale[k] = s > 0.0 ? 1.0 / s : own;
	}
}

/* 1 / (S_kk + D_k), from loop_preconditioner's 1 / S_kk and the damping D (loop_cg). */
static double precond(const sinew_world *w, const double *damping, int k)
{
	double scale = w->loop_matrix[k];
	return scale / (1.0 + damping[k] * scale);
}

/* (S + D) x = b by conjugate gradients from x = 0 (or from `start`), at most `iterations` products;
 * b is the first count entries of loop_work on entry, x on return (NULL when, from x = 0, the
 * residual was already within the tolerance: no product taken, x is 0). D is 0 (velocities), or for the
 * position step (damped) SINEW_LOOP_DAMPING times each row's own inverse effective mass: the damped
 * Newton step of the exact path (S's largest diagonal entry, which that path adds too, is not known
 * here; the row's own scale is at least its own entry of S). Without it, 34 taut bridges (with the
 * rest of this path as it is) tore by 1.3-1.4 m. Bodies at rest throughout. */
static double *loop_cg(sinew_world *w, int iterations, double tolerance, const double *start, bool damped)
{
	int count = (int)stbds_arrlen(w->loop_rows);
	double *b = w->loop_work, *x = b + count, *r = x + count, *p = r + count, *q = p + count;
	double *damping = q + count;
	const double *inverse = w->loop_matrix; /* undamped: loop_preconditioner's 1 / S_kk */
	if (damped) {
		double *damped_inverse = damping + count;
		for (int k = 0; k < count; ++k) {
			float eff = w->joint_rows[w->loop_rows[k]].eff_mass;
			damping[k] = eff > 0.0f ? SINEW_LOOP_DAMPING / (double)eff : 0.0;
			damped_inverse[k] = precond(w, damping, k);
		}
		inverse = damped_inverse;
	}
	double rz = 0.0, rr = 0.0;
	if (start != NULL) {
		for (int k = 0; k < count; ++k) x[k] = start[k];
		loop_product_packed(w, x, q);
		if (damped)
			for (int k = 0; k < count; ++k) q[k] += damping[k] * x[k];
		--iterations;
	}
	for (int k = 0; k < count; ++k) {
		if (start == NULL) x[k] = 0.0;
		r[k] = start != NULL ? b[k] - q[k] : b[k];
		p[k] = inverse[k] * r[k];
		rz += r[k] * p[k];
		rr += r[k] * r[k];
	}
	double stop = tolerance * tolerance * (double)count;
	bool moved = start != NULL;
	for (int it = 0; it < iterations && rr > stop; ++it) {
		moved = true;
		loop_product_packed(w, p, q);
		double pq = 0.0;
		if (damped)
			for (int k = 0; k < count; ++k) q[k] += damping[k] * p[k];
		for (int k = 0; k < count; ++k) pq += p[k] * q[k];
		if (!(pq > 0.0)) break;
		double alpha = rz / pq, next = 0.0;
		rr = 0.0;
		for (int k = 0; k < count; ++k) {
			x[k] += alpha * p[k];
			double rk = r[k] - alpha * q[k];
			r[k] = rk;
			next += rk * (inverse[k] * rk);
			rr += rk * rk;
		}
		double beta = next / rz;
		rz = next;
		for (int k = 0; k < count; ++k) p[k] = inverse[k] * r[k] + beta * p[k];
	}
	w->loop_residual = sqrt(rr / (double)count);
	return moved ? x : NULL;
}

/* Seven vectors over the loop rows for conjugate gradients (the last two its damping and its
 * preconditioner), then three
 * entries per tree node (the trees' own position correction, kept while the loops' is found). */
static void size_loop_work(sinew_world *w)
{
	stbds_arrsetlen(w->loop_work, 7 * stbds_arrlen(w->loop_rows) + 3 * stbds_arrlen(w->tree_nodes));
}

/* The share of the loop impulses to take: all, unless the velocities they give the loop trees (dv, in
 * the body nodes' y after their spread) would leave those with more kinetic energy than an exact
 * solve could (sinew_tree_energy_bound); then the largest share that does not (the energy is
 * quadratic in the share), and the loop rows stretch instead. Near a singular S (a kinematic body
 * pulls on a loop that a static one pins, nearly straight) the impulses that meet the loop rows move
 * the trees without bound: measured on random body-type switching, one biased loop solve took the
 * loop trees from 16 J to 7e4 J, a relax pass from 2 J to 48 J, and NaN followed within steps.
 * Non-finite velocities take none. */
/* Whether a jointed kinematic body drives one of the trees loops reach (sinew_tree_drive). */
static bool loops_driven(const sinew_world *w)
{
	int trees = (int)stbds_arrlen(w->tree_ranges);
	for (int t = 0; t < trees; ++t)
		if (w->tree_ranges[t].has_loops && sinew_tree_drive(w, &w->tree_ranges[t]) > 0.0) return true;
	return false;
}

/* Loop trees a kinematic body drives (loops_driven): the share of the loop impulses (their spread in
 * the body nodes' y) that leaves no body of them faster than the fastest was plus the substep's
 * gravity plus the fastest a kinematic body drives them (sinew_tree_drive). Near a singular S (a
 * kinematic part pulls a loop that a static one pins: nothing can hold both) the exact impulses are
 * unbounded, and the energy bound, which lets the lightest part carry all the trees' energy, let one
 * biased loop solve throw a 36 g hand at 620 m/s (test_joint_stress, random_body_types_stay_finite). */
static double driven_share(const sinew_world *w, float h)
{
	double fastest = 0.0, drive = 0.0;
	int trees = (int)stbds_arrlen(w->tree_ranges);
	for (int t = 0; t < trees; ++t) {
		const sinew_tree_range *r = &w->tree_ranges[t];
		if (!r->has_loops) continue;
		drive = fmax(drive, sinew_tree_drive(w, r));
		for (int32_t i = r->begin; i < r->end; ++i) {
			const sinew_tree_node *n = &w->tree_nodes[i];
			if (!n->is_body) continue;
			const sinew_solver_body *b = &w->solver_bodies[n->ref];
			fastest = fmax(fastest, sqrt((double)b->v.x * b->v.x + (double)b->v.y * b->v.y));
		}
	}
	double gh = sinew_gravity_step(w, h);
	double limit = fastest + gh + drive, share = 1.0;
	for (int t = 0; t < trees; ++t) {
		const sinew_tree_range *r = &w->tree_ranges[t];
		if (!r->has_loops) continue;
		for (int32_t i = r->begin; i < r->end; ++i) {
			const sinew_tree_node *n = &w->tree_nodes[i];
			if (!n->is_body) continue;
			const sinew_solver_body *b = &w->solver_bodies[n->ref];
			/* |v + s dv|^2 <= limit^2: a s^2 + b s + c <= 0, c <= 0 */
			double qa = n->y[0] * n->y[0] + n->y[1] * n->y[1];
			double qb = 2.0 * ((double)b->v.x * n->y[0] + (double)b->v.y * n->y[1]);
			double qc = (double)b->v.x * b->v.x + (double)b->v.y * b->v.y - limit * limit;
			if (!(qa > 0.0)) continue;
			double disc = qb * qb - 4.0 * qa * qc;
			share = fmin(share, disc > 0.0 ? fmax(0.0, (-qb + sqrt(disc)) / (2.0 * qa)) : 0.0);
		}
	}
	return isfinite(share) ? share : 0.0;
}

static double energy_share(const sinew_world *w, float h, double k0, double cross, double square, double bound);

static double loop_share(const sinew_world *w, float h, double work)
{
	double bound = 0.0, k0 = 0.0, cross = 0.0, square = 0.0;
	int trees = (int)stbds_arrlen(w->tree_ranges);
	for (int t = 0; t < trees; ++t) {
		const sinew_tree_range *r = &w->tree_ranges[t];
		if (!r->has_loops) continue;
		double e = sinew_tree_kinetic(w, r);
		k0 += e;
		bound += sinew_tree_energy_bound(w, r, e, h, false);
		for (int32_t i = r->begin; i < r->end; ++i) {
			const sinew_tree_node *n = &w->tree_nodes[i];
			if (!n->is_body) continue;
			const sinew_solver_body *b = &w->solver_bodies[n->ref];
			double m = 1.0 / (double)b->inv_mass, inertia = b->inv_inertia > 0.0f ? 1.0 / (double)b->inv_inertia : 0.0;
			double dw = b->inv_inertia > 0.0f ? n->y[2] : 0.0;
			cross += m * ((double)b->v.x * n->y[0] + (double)b->v.y * n->y[1]) + inertia * (double)b->w * dw;
			square += 0.5 * (m * (n->y[0] * n->y[0] + n->y[1] * n->y[1]) + inertia * dw * dw);
		}
	}
	if (!isfinite(cross) || !isfinite(square)) return 0.0;
	/* The tight test: an exact solve without stiffness adds at most the work of its bias */
	double allowed = fmax(0.0, work) + SINEW_LOOP_ROUNDING * k0;
	/* near a singular S the bias's work is large and passes this test: driven trees keep their
	 * speed bound then too (a leg at 121 m/s, test_joint_stress seed 4; docs/joints.md Known limits) */
	if (cross + square <= allowed) return work > 0.0 && !w->loops_iterative && loops_driven(w) ? driven_share(w, h) : 1.0;
	bool driven = loops_driven(w);
	if (!w->loops_iterative && !driven) {
		if (!(square > 0.0)) return cross <= allowed ? 1.0 : 0.0;
		return fmax(0.0, fmin(1.0, (allowed - cross) / square));
	}
	double share = energy_share(w, h, k0, cross, square, bound);
	return driven ? fmin(driven_share(w, h), share) : share;
}

/* The old bound: the loop trees' kinetic energy at most what sinew_tree_energy_bound allows. */
static double energy_share(const sinew_world *w, float h, double k0, double cross, double square, double bound)
{
	int trees = (int)stbds_arrlen(w->tree_ranges);
	/* The full bound is never below the cheap one (sinew_tree_energy_bound), so a share of 1 that
	 * the cheap bound allows the full one allows too; the full bound walks every body's joints for
	 * kinematic neighbours, so it is summed only when the cheap one is not enough. */
	if (k0 + cross + square <= bound) return 1.0;
	bound = 0.0;
	for (int t = 0; t < trees; ++t) {
		const sinew_tree_range *r = &w->tree_ranges[t];
		if (r->has_loops) bound += sinew_tree_energy_bound(w, r, sinew_tree_kinetic(w, r), h, true);
	}
	if (k0 + cross + square <= bound) return 1.0;
	double slack = bound - k0;
	if (slack <= 0.0 || square <= 0.0) return 0.0;
	return fmin(1.0, (-cross + sqrt(cross * cross + 4.0 * square * slack)) / (2.0 * square));
}

/* The loop impulses x spread through the trees in double precision (velocity changes in the body
 * nodes' y, the tree rows' impulses in the joint nodes': the tree rows stand still around them), then
 * the share of them that loop_share allows added to the loop rows, the tree rows and the bodies. */
static void apply_loop_impulses(sinew_world *w, const double *x, float h, double work, bool biased)
{
	load_loop_forces(w, x);
	spread_loop_forces(w);
	double share = loop_share(w, h, work);
	if (!(share > 0.0)) return;
	int count = (int)stbds_arrlen(w->loop_rows);
	for (int k = 0; k < count; ++k) w->joint_rows[w->loop_rows[k]].impulse += (float)(share * x[k]);
	if (w->loops_iterative && biased)
		for (int k = 0; k < count; ++k) w->loop_increment[k] = share * x[k];
	int trees = (int)stbds_arrlen(w->tree_ranges);
	for (int t = 0; t < trees; ++t)
		if (w->tree_ranges[t].has_loops) sinew_tree_add_spread(w, &w->tree_ranges[t], share);
}

/* Loop rows within one tree start from the last substep's impulses, plus SINEW_LOOP_CG_EXTRAPOLATE of
 * what the last biased pass added; rows between trees start from zero (see SINEW_LOOP_CG_BIASED). */
void sinew_joint_loops_warm_start(sinew_world *w)
{
	if (!w->loops_iterative) return;
	int count = (int)stbds_arrlen(w->loop_rows);
	for (int k = 0; k < count; ++k) {
		sinew_row_constraint *rc = &w->joint_rows[w->loop_rows[k]];
		if (between_trees(w, k)) {
			rc->impulse = 0.0f;
			continue;
		}
		rc->impulse += (float)(SINEW_LOOP_CG_EXTRAPOLATE * w->loop_increment[k]);
		loop_apply(w, rc, rc->impulse);
	}
}

static void solve_loops_iterative(sinew_world *w, const sinew_tree_pass *pass)
{
	int count = (int)stbds_arrlen(w->loop_rows);
	size_loop_work(w);
	double *b = w->loop_work;
	for (int k = 0; k < count; ++k) {
		const sinew_row_constraint *rc = &w->joint_rows[w->loop_rows[k]];
		b[k] = -(double)sinew_row_speed(w->solver_bodies, rc);
		if (pass->use_bias && between_trees(w, k)) b[k] += loop_bias(w, rc, pass->h);
	}
	/* a relax pass removes what the passes since the last loop solve added (contacts, sequential
	 * rows): with nothing added, the residual left then is as far as it needs to go */
	double tolerance = SINEW_LOOP_CG_SPEED;
	if (!pass->use_bias) tolerance = fmax(tolerance, SINEW_LOOP_CG_RELAX_RATIO * w->loop_residual);
	double *x = loop_cg(w, pass->use_bias ? SINEW_LOOP_CG_BIASED : SINEW_LOOP_CG_RELAX, tolerance, NULL, false);
	/* no product taken (a relax pass with nothing new to remove): the impulses are 0, and spreading
	 * them would change nothing */
	if (x == NULL) return;
	double work = 0.0;
	for (int k = 0; k < count; ++k)
		if (pass->use_bias && between_trees(w, k)) work += x[k] * loop_bias(w, &w->joint_rows[w->loop_rows[k]], pass->h);
	apply_loop_impulses(w, x, pass->h, work, pass->use_bias);
}

/* The loop impulses that bring every loop row to its target (with bias: C = 0 at the end of the
 * substep; without: standing still; on the iterative path only rows between trees take the bias),
 * spread through the trees in double with the trees' rows standing still around them, at most the
 * share loop_share allows. */
void sinew_joint_loops_solve(sinew_world *w, const sinew_tree_pass *pass)
{
	int count = (int)stbds_arrlen(w->loop_rows);
	if (count == 0) return;
	if (w->loops_iterative) {
		solve_loops_iterative(w, pass);
		return;
	}
	double x[SINEW_MAX_LOOP_ROWS], bias[SINEW_MAX_LOOP_ROWS], work = 0.0;
	for (int k = 0; k < count; ++k) {
		const sinew_row_constraint *rc = &w->joint_rows[w->loop_rows[k]];
		x[k] = -(double)sinew_row_speed(w->solver_bodies, rc);
		bias[k] = loop_bias(w, rc, pass->h);
	}
	cholesky_solve(w->loop_matrix, count, x);
	if (pass->use_bias) { /* the bias through the slightly damped S (SINEW_LOOP_BIAS_DAMPING) */
		double target[SINEW_MAX_LOOP_ROWS];
		for (int k = 0; k < count; ++k) target[k] = bias[k];
		cholesky_solve(w->loop_matrix + 2 * count * count, count, bias);
		for (int k = 0; k < count; ++k) {
			x[k] += bias[k];
			work += x[k] * target[k];
		}
	}
	apply_loop_impulses(w, x, pass->h, work, pass->use_bias);
}

/* The response of tree t (in its nodes' y: the tree's own spread of a load, M dv - J^T lambda = f,
 * J dv = 0 with the loops open) with the loops closed: the loop rows' speeds it leaves, r = J_l dv,
 * are taken back by loop impulses x = -S^-1 r (the exact factorisation), spread through every loop
 * tree and added: then every tree row and every loop row stands still. The nodes of all loop trees
 * hold the response after it; x is left in the first entries of loop_work. Only on the exact path
 * (sinew_joint_loops_exact); the caller cleared the body nodes of the loop trees other than t. */
void sinew_joint_loops_close(sinew_world *w, int32_t t)
{
	int count = (int)stbds_arrlen(w->loop_rows);
	if (count == 0 || !w->tree_ranges[t].has_loops) return;
	size_loop_work(w);
	double *x = w->loop_work, *keep = w->loop_work + 7 * count;
	const sinew_tree_range *r = &w->tree_ranges[t];
	for (int k = 0; k < count; ++k) {
		const sinew_row_constraint *rc = &w->joint_rows[w->loop_rows[k]];
		double speed = 0.0;
		for (int e = 0; e < 2; ++e) {
			int32_t node = w->loop_nodes[2 * k + e];
			if (node < 0 || w->tree_nodes[node].tree != t) continue;
			const float *j = e == 0 ? rc->row.ja : rc->row.jb;
			const double *y = w->tree_nodes[node].y;
			speed += (double)j[0] * y[0] + (double)j[1] * y[1] + (double)j[2] * y[2];
		}
		x[k] = -speed;
	}
	cholesky_solve(w->loop_matrix, count, x);
	for (int32_t i = r->begin; i < r->end; ++i)
		for (int c = 0; c < 3; ++c) keep[3 * i + c] = w->tree_nodes[i].y[c];
	w->loop_jacobians_fresh = false;
	load_loop_forces(w, x);
	spread_loop_forces(w);
	for (int32_t i = r->begin; i < r->end; ++i)
		for (int c = 0; c < 3; ++c) w->tree_nodes[i].y[c] += keep[3 * i + c];
}

bool sinew_joint_loops_exact(const sinew_world *w)
{
	return !w->loops_iterative;
}

/* The implicit damping of the loop trees' geometric stiffness. The stiffness h^2 k of a body's
 * turning (joint_tree.c, geometric_stiffness) makes the velocity passes solve with M~ = M + h^2 K in
 * place of M, v+ = v + M~^-1 J^T lambda. The implicit step it comes from (Andrews, Teichmann and Kry
 * 2017) is (M + h^2 K) v+ = M v + h f + J^T lambda: the body's own momentum on the right, so that
 * where nothing else acts a turn of stiffness k keeps I / (I + h^2 k) of its spin, which is what
 * damps the stiff modes an explicit step cannot follow. Solving with M~ on both sides keeps the
 * spin whole, and a taut loop's modes were not damped at all: the taut bridge of 40 planks pinned at
 * both ends, without crates, rang at about 30 Hz with 0.2 mm at its middle for ever (its tension,
 * some 3e5 N for its 6 mm sag, is a string whose modes run from 7 Hz to beyond the substep rate),
 * the fastest plank at 6.3 cm/s from 10 to 20 s (tests/test_joint_loops.c,
 * taut_bridge_comes_to_rest), and with five crates on it the bridge was torn apart after 15 s.
 * Here each body of a tree that exactly solved loops reach (loops_iterative false) gets that
 * factor on its spin at the start of the biased tree pass (solve_trees in joint_tree.c), after the
 * contacts, whose impulses are momentum too: 0.04 cm/s with the loops' bias damping
 * (SINEW_LOOP_BIAS_DAMPING), 2.6 cm/s without it; the stiffness doubled instead (without this
 * damping): 3.5 cm/s. Damped before the warm starts instead, the crates' bridge was torn by 1.2 cm
 * between 10 and 20 s. Not on the conjugate-gradient path: joint_grid's worst separation went from
 * 2.1 mm to 5.2 mm (at step 496, growing); trees without loops keep their spin (not measured there). */
void sinew_joint_loops_damp(sinew_world *w)
{
	if (w->loops_iterative || stbds_arrlen(w->loop_rows) == 0) return;
	int trees = (int)stbds_arrlen(w->tree_ranges);
	for (int t = 0; t < trees; ++t) {
		const sinew_tree_range *r = &w->tree_ranges[t];
		if (!r->has_loops || !r->stiff) continue;
		for (int32_t i = r->begin; i < r->end; ++i) {
			const sinew_tree_node *n = &w->tree_nodes[i];
			if (!n->is_body) continue;
			sinew_solver_body *b = &w->solver_bodies[n->ref];
			if (b->inv_inertia > 0.0f) b->w = (float)((double)b->w * n->inv_turn / (double)b->inv_inertia);
		}
	}
}

/* Position: the loop rows met too. The trees' correction dx (in their body nodes' y) leaves each
 * loop row off by C + J dx; loop impulses through S (velocities stand in for displacements: the map
 * is the same; the damped S when it is factored, conjugate gradients on S otherwise) are spread
 * through the trees and added to dx, kept aside meanwhile (the spreads overwrite the nodes' y). */
void sinew_joint_loops_project(sinew_world *w)
{
	w->loop_jacobians_fresh = false;
	int count = (int)stbds_arrlen(w->loop_rows);
	if (count == 0) return;
	size_loop_work(w);
	double *x = w->loop_work;
	for (int k = 0; k < count; ++k) {
		const sinew_row_constraint *rc = &w->joint_rows[w->loop_rows[k]];
		x[k] = -((double)rc->row.c + sinew_tree_correction_along(w, rc));
	}
	int nodes = (int)stbds_arrlen(w->tree_nodes);
	double *dx = w->loop_work + 7 * count;
	for (int i = 0; i < nodes; ++i)
		for (int c = 0; c < 3; ++c) dx[3 * i + c] = w->tree_nodes[i].y[c];
	if (w->loops_iterative) {
		double *start = w->loop_position;
		for (int k = 0; k < count; ++k) start[k] *= SINEW_LOOP_CG_KEEP;
		x = loop_cg(w, SINEW_LOOP_CG_POSITION, SINEW_LOOP_CG_LENGTH, start, true);
		for (int k = 0; k < count; ++k) start[k] = x[k];
	} else {
		cholesky_solve(w->loop_matrix + count * count, count, x);
	}
	load_loop_forces(w, x);
	spread_loop_forces(w);
	int trees = (int)stbds_arrlen(w->tree_ranges);
	for (int t = 0; t < trees; ++t) {
		if (!w->tree_ranges[t].has_loops) continue;
		for (int32_t i = w->tree_ranges[t].begin; i < w->tree_ranges[t].end; ++i) {
			sinew_tree_node *n = &w->tree_nodes[i];
			if (n->is_body)
				for (int c = 0; c < 3; ++c) n->y[c] += dx[3 * i + c];
		}
	}
}
