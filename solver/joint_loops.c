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
 *   through the trees (linear in the bodies and rows), with a fixed budget per pass (below). */
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
/* A loop row is taken as implied by the others (and given no impulse) when what remains of it after
 * them moves less than this fraction of what the row alone would move. Such a loop system is
 * singular (a torso pinned to a static head and to a kinematic arm: four rows on three degrees of
 * freedom, or rows frozen by the geometric stiffness), and its exact solve asks for impulses without
 * bound along the null space; the row it drops is left to stretch instead. */
#define SINEW_LOOP_RANK 1e-8

static int32_t tree_of_slot(const sinew_world *w, int32_t slot)
{
	int32_t node = slot > 0 ? w->tree_body_node[slot] : -1;
	return node >= 0 ? w->tree_nodes[node].tree : -1;
}

void sinew_joint_loops_find(sinew_world *w)
{
	stbds_arrsetlen(w->loop_rows, 0);
	int n = (int)stbds_arrlen(w->active_joints);
	for (int i = 0; i < n; ++i) {
		const sinew_joint *j = &w->joints[w->active_joints[i]];
		if (j->tree_node != -2) continue;
		for (int r = 0; r < j->row_count; ++r)
			if (w->joint_rows[j->row_start + r].row.kind == SINEW_ROW_EQUALITY) stbds_arrput(w->loop_rows, j->row_start + r);
	}
	int count = (int)stbds_arrlen(w->loop_rows);
	w->loops_iterative = count > SINEW_MAX_LOOP_ROWS;
	for (int k = 0; k < count; ++k) {
		sinew_row_constraint *rc = &w->joint_rows[w->loop_rows[k]];
		int32_t ta = tree_of_slot(w, rc->body_a), tb = tree_of_slot(w, rc->body_b);
		rc->in_loop = true;
		if (ta >= 0) w->tree_ranges[ta].has_loops = true;
		if (tb >= 0) w->tree_ranges[tb].has_loops = true;
	}
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

static void solve_loop_trees(sinew_world *w, const sinew_tree_pass *pass)
{
	int trees = (int)stbds_arrlen(w->tree_ranges);
	for (int t = 0; t < trees; ++t)
		if (w->tree_ranges[t].has_loops) sinew_tree_solve_range(w, w->tree_ranges[t].begin, w->tree_ranges[t].end, pass);
}

/* Every body of the trees that loop rows reach, at rest. */
static void zero_loop_tree_velocities(sinew_world *w)
{
	int trees = (int)stbds_arrlen(w->tree_ranges);
	for (int t = 0; t < trees; ++t) {
		if (!w->tree_ranges[t].has_loops) continue;
		for (int32_t i = w->tree_ranges[t].begin; i < w->tree_ranges[t].end; ++i) {
			const sinew_tree_node *n = &w->tree_nodes[i];
			if (!n->is_body) continue;
			w->solver_bodies[n->ref].v = sinew_v2(0.0f, 0.0f);
			w->solver_bodies[n->ref].w = 0.0f;
		}
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

/* A loop row's Jacobian on one of its ends (0 or 1), and that end's tree node (-1: none). */
static const float *loop_part(const sinew_row_constraint *rc, int e)
{
	return e == 0 ? rc->row.ja : rc->row.jb;
}

static int32_t loop_end_node(const sinew_world *w, const sinew_row_constraint *rc, int e)
{
	int32_t slot = e == 0 ? rc->body_a : rc->body_b;
	return slot > 0 && w->solver_bodies[slot].inv_mass > 0.0f ? w->tree_body_node[slot] : -1;
}

/* Column i of S, in double precision throughout: loop row i's Jacobian is loaded as the force on its
 * ends' tree nodes, one solve of M dv - J^T lambda = f, J dv = 0 through the trees spreads it, and the
 * loop rows' speeds are read off dv. (Spread through the bodies' float velocities, S carried a
 * relative noise of about 1e-5: a singular S then had pivots of 1e-5 of its scale instead of 0, and
 * the solve returned impulses of 1e5-1e7 N s along its null space.) */
static void loop_column(sinew_world *w, int i, double *column, float h)
{
	int count = (int)stbds_arrlen(w->loop_rows);
	const sinew_row_constraint *ri = &w->joint_rows[w->loop_rows[i]];
	for (int e = 0; e < 2; ++e) {
		int32_t node = loop_end_node(w, ri, e);
		if (node < 0) continue;
		sinew_tree_node *n = &w->tree_nodes[node];
		const float *j = loop_part(ri, e);
		for (int c = 0; c < 3; ++c) n->y[c] += (double)j[c];
		n->loaded = true;
	}
	sinew_tree_pass pass = {h, false, true, false, true};
	solve_loop_trees(w, &pass);
	for (int k = 0; k < count; ++k) {
		const sinew_row_constraint *rk = &w->joint_rows[w->loop_rows[k]];
		double s = 0.0;
		for (int e = 0; e < 2; ++e) {
			int32_t node = loop_end_node(w, rk, e);
			if (node < 0) continue;
			const double *dv = w->tree_nodes[node].y;
			const float *j = loop_part(rk, e);
			s += (double)j[0] * dv[0] + (double)j[1] * dv[1] + (double)j[2] * dv[2];
		}
		column[k] = s;
	}
}

/* Clear the y of the loop ends' body nodes before a column is loaded into them. */
static void clear_loop_ends(sinew_world *w)
{
	int count = (int)stbds_arrlen(w->loop_rows);
	for (int k = 0; k < count; ++k) {
		const sinew_row_constraint *rc = &w->joint_rows[w->loop_rows[k]];
		for (int e = 0; e < 2; ++e) {
			int32_t node = loop_end_node(w, rc, e);
			if (node < 0) continue;
			sinew_tree_node *n = &w->tree_nodes[node];
			n->y[0] = n->y[1] = n->y[2] = 0.0;
		}
	}
}

/* S column by column (L tree solves), then its two factorisations (see SINEW_LOOP_GUARD). */
void sinew_joint_loops_factor(sinew_world *w, float h)
{
	int count = (int)stbds_arrlen(w->loop_rows);
	if (count == 0 || w->loops_iterative) return;
	stbds_arrsetlen(w->loop_matrix, 2 * count * count + count);
	double *m = w->loop_matrix, *floor = m + 2 * count * count;
	double column[SINEW_MAX_LOOP_ROWS];
	for (int i = 0; i < count; ++i) {
		clear_loop_ends(w);
		loop_column(w, i, column, h);
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
	double *soft = m + count * count;
	for (int i = 0; i < count * count; ++i) soft[i] = m[i];
	for (int i = 0; i < count; ++i) {
		m[i * count + i] += SINEW_LOOP_GUARD * largest;
		soft[i * count + i] += SINEW_LOOP_DAMPING * fmax(largest, floor[i] / SINEW_LOOP_RANK);
	}
	cholesky(m, count, floor);
	cholesky(soft, count, floor);
}

/* ---------------------------------------------------------------- many loops: conjugate gradients */

/* Products per pass: the first velocity pass of a substep, each relax pass, each position step.
 * Many loops are over-constrained (a grid of pinned circles has more rigid rows than degrees of
 * freedom), so S is singular; conjugate gradients from zero stay in its range as long as the right-
 * hand side is, which is why the velocity passes ask the loop rows to stand still (a right-hand side
 * J v of tree-exact velocities lies in the range) and leave their position error to the projection:
 * with the bias -C/h of the exact path the warm-started impulses drifted along the null space and
 * the 20 x 20 grid blew up. A pass stops early once the rows' root-mean-square residual is below
 * SINEW_LOOP_CG_SPEED (m/s) or SINEW_LOOP_CG_LENGTH (m). The preconditioner is the rows' own
 * effective mass (what sequential impulses would use). */
#define SINEW_LOOP_CG_BIASED 16
#define SINEW_LOOP_CG_RELAX 4
#define SINEW_LOOP_CG_POSITION 16
#define SINEW_LOOP_CG_SPEED 1e-4
#define SINEW_LOOP_CG_LENGTH 1e-6

static void zero_all_velocities(sinew_world *w)
{
	int nb = (int)stbds_arrlen(w->solver_bodies);
	for (int i = 0; i < nb; ++i) {
		w->solver_bodies[i].v = sinew_v2(0.0f, 0.0f);
		w->solver_bodies[i].w = 0.0f;
	}
}


static void keep_velocities(sinew_world *w, bool restore)
{
	int nb = (int)stbds_arrlen(w->solver_bodies);
	if (!restore) stbds_arrsetlen(w->loop_backup, 3 * nb);
	float *keep = w->loop_backup;
	for (int i = 0; i < nb; ++i) {
		sinew_solver_body *b = &w->solver_bodies[i];
		if (restore) {
			b->v = sinew_v2(keep[3 * i], keep[3 * i + 1]);
			b->w = keep[3 * i + 2];
		} else {
			keep[3 * i] = b->v.x, keep[3 * i + 1] = b->v.y, keep[3 * i + 2] = b->w;
		}
	}
}

/* out = (S + damping) p: p spread through the trees from rest, the loop rows' speeds read. Every
 * body of a loop tree is at rest before and after. */
static void loop_product(sinew_world *w, const double *p, double *out)
{
	int count = (int)stbds_arrlen(w->loop_rows);
	for (int k = 0; k < count; ++k) loop_apply(w, &w->joint_rows[w->loop_rows[k]], (float)p[k]);
	sinew_tree_pass spread = {1.0f, false, false, true, false};
	solve_loop_trees(w, &spread);
	for (int k = 0; k < count; ++k) out[k] = (double)sinew_row_speed(w->solver_bodies, &w->joint_rows[w->loop_rows[k]]);
	zero_loop_tree_velocities(w);
}

/* (S + damping) x = b by conjugate gradients from x = 0, at most `iterations` products; b is the
 * first count entries of loop_work on entry, x on return. Bodies at rest throughout. */
static double *loop_cg(sinew_world *w, int iterations, double tolerance)
{
	int count = (int)stbds_arrlen(w->loop_rows);
	double *b = w->loop_work, *x = b + count, *r = x + count, *p = r + count, *q = p + count, *z = q + count;
	double rz = 0.0, rr = 0.0;
	for (int k = 0; k < count; ++k) {
		x[k] = 0.0;
		r[k] = b[k];
		z[k] = (double)w->joint_rows[w->loop_rows[k]].eff_mass * r[k];
		p[k] = z[k];
		rz += r[k] * z[k];
		rr += r[k] * r[k];
	}
	double stop = tolerance * tolerance * (double)count;
	for (int it = 0; it < iterations && rr > stop; ++it) {
		loop_product(w, p, q);
		double pq = 0.0;
		for (int k = 0; k < count; ++k) pq += p[k] * q[k];
		if (!(pq > 0.0)) break;
		double alpha = rz / pq, next = 0.0;
		rr = 0.0;
		for (int k = 0; k < count; ++k) {
			x[k] += alpha * p[k];
			r[k] -= alpha * q[k];
			z[k] = (double)w->joint_rows[w->loop_rows[k]].eff_mass * r[k];
			next += r[k] * z[k];
			rr += r[k] * r[k];
		}
		double beta = next / rz;
		rz = next;
		for (int k = 0; k < count; ++k) p[k] = z[k] + beta * p[k];
	}
	return x;
}

static void size_loop_work(sinew_world *w)
{
	stbds_arrsetlen(w->loop_work, 6 * stbds_arrlen(w->loop_rows));
}

void sinew_joint_loops_warm_start(sinew_world *w)
{
	if (!w->loops_iterative) return;
	int count = (int)stbds_arrlen(w->loop_rows);
	for (int k = 0; k < count; ++k) {
		const sinew_row_constraint *rc = &w->joint_rows[w->loop_rows[k]];
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
	}
	keep_velocities(w, false);
	zero_all_velocities(w);
	double *x = loop_cg(w, pass->use_bias ? SINEW_LOOP_CG_BIASED : SINEW_LOOP_CG_RELAX, SINEW_LOOP_CG_SPEED);
	keep_velocities(w, true);
	for (int k = 0; k < count; ++k) {
		sinew_row_constraint *rc = &w->joint_rows[w->loop_rows[k]];
		rc->impulse += (float)x[k];
		loop_apply(w, rc, (float)x[k]);
	}
	solve_loop_trees(w, pass);
}

/* The loop impulses that bring every loop row to its target (with bias: C = 0 at the end of the
 * substep; without: standing still), then the trees solved again around them. */
void sinew_joint_loops_solve(sinew_world *w, const sinew_tree_pass *pass)
{
	int count = (int)stbds_arrlen(w->loop_rows);
	if (count == 0) return;
	if (w->loops_iterative) {
		solve_loops_iterative(w, pass);
		return;
	}
	double x[SINEW_MAX_LOOP_ROWS];
	for (int k = 0; k < count; ++k) {
		const sinew_row_constraint *rc = &w->joint_rows[w->loop_rows[k]];
		double target = pass->use_bias ? -(double)rc->row.c / (double)pass->h : 0.0;
		x[k] = target - (double)sinew_row_speed(w->solver_bodies, rc);
	}
	cholesky_solve(w->loop_matrix, count, x);
	for (int k = 0; k < count; ++k) {
		sinew_row_constraint *rc = &w->joint_rows[w->loop_rows[k]];
		rc->impulse += (float)x[k];
		loop_apply(w, rc, (float)x[k]);
	}
	solve_loop_trees(w, pass);
}

/* Position: the loop rows met too. The trees' correction dx (in their body nodes' y) leaves each
 * loop row off by C + J dx; loop impulses through S (velocities stand in for displacements: the map
 * is the same; the damped S when it is factored, conjugate gradients on S otherwise) spread through
 * the trees from rest and add to dx, kept aside meanwhile (the spreads overwrite the nodes' y).
 * Velocities are put back. */
void sinew_joint_loops_project(sinew_world *w)
{
	int count = (int)stbds_arrlen(w->loop_rows);
	if (count == 0) return;
	size_loop_work(w);
	double *x = w->loop_work;
	for (int k = 0; k < count; ++k) {
		const sinew_row_constraint *rc = &w->joint_rows[w->loop_rows[k]];
		x[k] = -((double)rc->row.c + sinew_tree_correction_along(w, rc));
	}
	int nb = (int)stbds_arrlen(w->solver_bodies);
	keep_velocities(w, false);
	stbds_arrsetlen(w->loop_backup, 6 * nb);
	float *dx = w->loop_backup + 3 * nb;
	for (int i = 0; i < nb; ++i) {
		int32_t node = i > 0 ? w->tree_body_node[i] : -1;
		for (int c = 0; c < 3; ++c) dx[3 * i + c] = node >= 0 ? (float)w->tree_nodes[node].y[c] : 0.0f;
	}
	zero_all_velocities(w);
	if (w->loops_iterative) x = loop_cg(w, SINEW_LOOP_CG_POSITION, SINEW_LOOP_CG_LENGTH);
	else cholesky_solve(w->loop_matrix + count * count, count, x);
	for (int k = 0; k < count; ++k) loop_apply(w, &w->joint_rows[w->loop_rows[k]], (float)x[k]);
	sinew_tree_pass spread = {1.0f, false, false, true, false};
	solve_loop_trees(w, &spread);
	int trees = (int)stbds_arrlen(w->tree_ranges);
	for (int t = 0; t < trees; ++t) {
		if (!w->tree_ranges[t].has_loops) continue;
		for (int32_t i = w->tree_ranges[t].begin; i < w->tree_ranges[t].end; ++i) {
			sinew_tree_node *n = &w->tree_nodes[i];
			if (!n->is_body) continue;
			const sinew_solver_body *b = &w->solver_bodies[n->ref];
			n->y[0] = (double)dx[3 * n->ref] + (double)b->v.x;
			n->y[1] = (double)dx[3 * n->ref + 1] + (double)b->v.y;
			n->y[2] = (double)dx[3 * n->ref + 2] + (double)b->w;
		}
	}
	keep_velocities(w, true);
}
