/* Exact solve of joint trees.
 *
 * The rigid rows of joints that connect dynamic bodies without closing a loop form a tree: bodies
 * and joints are its nodes, each joint hanging between the body nearer the root and the body (or
 * fixed world) beyond it. For such a graph the velocity problem
 *
 *     [ M   -J^T ] [ dv     ]   [ 0          ]
 *     [ -J  -g I ] [ lambda ] = [ J v + bias ]
 *
 * (M the bodies' masses, J the rows, g a tiny regularisation) factors with no fill-in when the
 * nodes are eliminated leaves first (Baraff, "Linear-time dynamics using Lagrange multipliers",
 * SIGGRAPH 1996): D_n = H_nn - sum over children c of H_cn^T D_c^-1 H_cn. Solving is one pass up
 * and one pass down the tree, so every rigid joint of the tree holds exactly after the pass,
 * whatever the mass ratios and however long the chain: what sequential impulses only approach
 * with many iterations. The factorisation is redone each substep (the anchors turn) in double
 * precision; blocks are at most 3x3. The limits of tree joints join it through an active set (below).
 * Joints that close a loop, and the soft rows (motors, springs, compliant pins), are solved by
 * sequential impulses around it (joint_solve.c). */
#include "joint.h"

#include <math.h>
#include <string.h>

typedef struct sinew_tree_node {
	double d[3][3]; /* pivot block; holds its inverse after factorisation */
	double h[3][3]; /* coupling to the parent, H(node, parent): dim x parent_dim */
	double y[3];
	double stiffness; /* body node: h^2 times the geometric stiffness of its joints' point rows, on its turning */
	int32_t parent;
	int32_t tree;    /* index of its tree in world->tree_ranges */
	int32_t ref;     /* body node: solver slot; joint node: joint index */
	int32_t rows[3]; /* joint node: its rigid rows in world->joint_rows, then an active limit */
	int32_t first_row; /* joint node: all its joint's rows, [first_row, first_row + row_count), kept */
	int8_t row_count;  /* here so the solve need not reach into the joint */
	int8_t dim;
	int8_t rigid;    /* joint node: how many of rows are rigid; a limit in the block comes after */
	bool is_body;
	bool has_limits; /* joint node: its joint has tree-owned limit rows (most joints of a big grid do not) */
	bool loaded;     /* y holds the current solve's right-hand side (between its up and down pass) */
} sinew_tree_node;

/* One tree: its nodes [begin, end) and whether any of its joints has limits. Found once per step,
 * after the trees are built, and used by every pass. */
typedef struct sinew_tree_range {
	int32_t begin, end;
	double energy; /* kinetic plus potential energy of its bodies at the start of the substep */
	bool has_limits;
	bool has_loops;  /* a loop-closing row solved with the trees reaches one of its bodies */
	bool soft_loops; /* a loop-closing row left to joint_solve.c (too many loops) reaches one: the
	                  * tree is then solved as before loops were exact (see find_loops) */
	bool skip;       /* left out of the current projection */
} sinew_tree_range;

static int32_t add_node(sinew_world *w, int32_t parent, int32_t ref, bool is_body)
{
	sinew_tree_node n;
	memset(&n, 0, sizeof n);
	n.parent = parent;
	n.ref = ref;
	n.is_body = is_body;
	n.dim = is_body ? 3 : 0;
	stbds_arrput(w->tree_nodes, n);
	return (int32_t)stbds_arrlen(w->tree_nodes) - 1;
}

static int32_t solver_slot_of(const sinew_world *w, int32_t bi)
{
	return bi == SINEW_NULL_INDEX ? 0 : w->bodies[bi].solver_index;
}

static bool slot_is_dynamic(const sinew_world *w, int32_t slot)
{
	return slot > 0 && w->solver_bodies[slot].inv_mass > 0.0f;
}

/* A joint joins the tree through its rigid rows (at most three). */
static int rigid_rows(const sinew_world *w, const sinew_joint *j, int32_t *rows)
{
	int k = 0;
	for (int r = 0; r < j->row_count && k < 3; ++r)
		if (w->joint_rows[j->row_start + r].row.kind == SINEW_ROW_EQUALITY) rows[k++] = j->row_start + r;
	return k;
}

static void add_joint_node(sinew_world *w, sinew_joint *j, int32_t ji, int32_t parent, const int32_t *rows, int k)
{
	int32_t jn = add_node(w, parent, ji, false);
	sinew_tree_node *node = &w->tree_nodes[jn];
	node->dim = node->rigid = (int8_t)k;
	for (int r = 0; r < k; ++r) {
		node->rows[r] = rows[r];
		w->joint_rows[rows[r]].in_tree = true;
	}
	node->first_row = j->row_start;
	node->row_count = (int8_t)j->row_count;
	j->tree_node = jn;
	/* its limits belong to the exact solve: solved one by one beside it, a limit would be undone by
	 * every tree pass and wind its impulse up */
	for (int r = 0; r < j->row_count; ++r) {
		sinew_row_constraint *rc = &w->joint_rows[j->row_start + r];
		if (rc->row.kind == SINEW_ROW_LIMIT) rc->tree_owned = node->has_limits = true;
	}
}

/* Depth first from a body already in the tree. The fixed world is part of the graph: a tree meets
 * it at most once (at its root), so a second joint to anything fixed closes a loop through the
 * ground and, like any loop-closing joint, is solved row by row. */
static void grow_from(sinew_world *w, int32_t root_slot)
{
	stbds_arrsetlen(w->island_stack, 0);
	stbds_arrput(w->island_stack, root_slot);
	while (stbds_arrlen(w->island_stack) > 0) {
		int32_t slot = stbds_arrpop(w->island_stack);
		int32_t bi = w->awake_bodies[slot];
		for (int32_t ji = w->bodies[bi].joint_list; ji != SINEW_NULL_INDEX;) {
			sinew_joint *j = &w->joints[ji];
			int e = sinew_joint_edge_of(j, bi);
			int32_t next = j->edges[e].next;
			int32_t rows[3];
			int k = j->active && j->tree_node == -1 ? rigid_rows(w, j, rows) : 0;
			ji = next;
			if (k == 0) continue;
			int32_t other = j->edges[e ^ 1].body;
			int32_t other_slot = other == SINEW_NULL_INDEX ? 0 : w->bodies[other].solver_index;
			if (!slot_is_dynamic(w, other_slot) || w->tree_body_node[other_slot] != -1) {
				j->tree_node = -2; /* closes a loop */
				continue;
			}
			add_joint_node(w, j, (int32_t)(j - w->joints), w->tree_body_node[slot], rows, k);
			w->tree_body_node[other_slot] = add_node(w, j->tree_node, other_slot, true);
			stbds_arrput(w->island_stack, other_slot);
		}
	}
}

/* Loops. A joint whose rigid rows would close a loop (through the world or between bodies) is left
 * out of the trees. Its rows are solved exactly all the same, with the trees: a unit impulse along
 * loop row i, spread through the trees it reaches by one homogeneous tree solve, changes the speed
 * of loop row j by S_ji; S (the loop rows' Schur complement through the tree factorisation) is
 * formed and factored once per substep, and each velocity pass then finds the loop impulses that
 * meet every loop row, applies them and solves the trees again (which keeps the tree rows exact).
 * L loop rows cost L tree solves per substep and an L^3 / 3 factorisation: worth it for the few
 * loops of bridges and linkages, not for a grid where every cell is a loop. Beyond
 * SINEW_MAX_LOOP_ROWS the loop rows stay the stiff springs of joint_solve.c. */
#define SINEW_MAX_LOOP_ROWS 64
/* The velocity solve uses S (plus a guard of 1e-9 of its largest diagonal entry) and is exact. The
 * position step uses S plus a tenth of that entry: a damped Newton step. A loop whose rows are nearly
 * dependent (a bridge pulled straight between two pins cannot lengthen to first order) asks a plain
 * Newton step for displacements without bound; measured on the taut bridge, the undamped step tore
 * it by metres, a hundredth left 5 mm/s of jitter after 10 s, a tenth holds it within 0.04 mm at rest. */
#define SINEW_LOOP_GUARD 1e-9
#define SINEW_LOOP_DAMPING 1e-1

static int32_t tree_of_slot(const sinew_world *w, int32_t slot)
{
	int32_t node = slot > 0 ? w->tree_body_node[slot] : -1;
	return node >= 0 ? w->tree_nodes[node].tree : -1;
}

static void find_loops(sinew_world *w)
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
	bool soft = count > SINEW_MAX_LOOP_ROWS;
	for (int k = 0; k < count; ++k) {
		sinew_row_constraint *rc = &w->joint_rows[w->loop_rows[k]];
		int32_t ta = tree_of_slot(w, rc->body_a), tb = tree_of_slot(w, rc->body_b);
		if (soft) {
			if (ta >= 0) w->tree_ranges[ta].soft_loops = true;
			if (tb >= 0) w->tree_ranges[tb].soft_loops = true;
			continue;
		}
		rc->in_loop = true;
		if (ta >= 0) w->tree_ranges[ta].has_loops = true;
		if (tb >= 0) w->tree_ranges[tb].has_loops = true;
	}
	if (!soft) return;
	stbds_arrsetlen(w->loop_rows, 0);
	int nodes = (int)stbds_arrlen(w->tree_nodes);
	for (int i = 0; i < nodes; ++i) {
		const sinew_tree_node *node = &w->tree_nodes[i];
		if (node->is_body || !w->tree_ranges[node->tree].soft_loops) continue;
		for (int r = 0; r < node->rigid; ++r) w->joint_rows[node->rows[r]].soft_tree = true;
	}
}

void sinew_joint_tree_build(sinew_world *w)
{
	stbds_arrsetlen(w->tree_nodes, 0);
	int slots = (int)stbds_arrlen(w->solver_bodies);
	stbds_arrsetlen(w->tree_body_node, slots);
	for (int s = 0; s < slots; ++s) w->tree_body_node[s] = -1;
	int n = (int)stbds_arrlen(w->active_joints);
	/* Trees that hang from the fixed world are rooted at that joint: every joint node then has a
	 * body below it, so no pivot is the bare regularisation. */
	for (int i = 0; i < n; ++i) {
		int32_t ji = w->active_joints[i];
		sinew_joint *j = &w->joints[ji];
		int32_t rows[3];
		int k = j->tree_node == -1 ? rigid_rows(w, j, rows) : 0;
		if (k == 0) continue;
		int32_t sa = solver_slot_of(w, j->edges[0].body), sb = solver_slot_of(w, j->edges[1].body);
		bool da = slot_is_dynamic(w, sa), db = slot_is_dynamic(w, sb);
		if (da == db) continue;
		int32_t slot = da ? sa : sb;
		if (w->tree_body_node[slot] != -1) continue;
		add_joint_node(w, j, ji, -1, rows, k);
		w->tree_body_node[slot] = add_node(w, j->tree_node, slot, true);
		grow_from(w, slot);
	}
	/* Free-floating trees (a ragdoll in the air) are rooted at a body. */
	for (int s = 1; s < slots; ++s) {
		if (!slot_is_dynamic(w, s) || w->tree_body_node[s] != -1) continue;
		if (w->bodies[w->awake_bodies[s]].joint_count == 0) continue;
		int32_t before = (int32_t)stbds_arrlen(w->tree_nodes);
		w->tree_body_node[s] = add_node(w, -1, s, true);
		grow_from(w, s);
		if (stbds_arrlen(w->tree_nodes) == before + 1) { /* a lone body: no tree */
			stbds_arrsetlen(w->tree_nodes, before);
			w->tree_body_node[s] = -1;
		}
	}
	/* Each tree is a run of nodes: its root (no parent), then everything up to the next root */
	stbds_arrsetlen(w->tree_ranges, 0);
	int32_t count = (int32_t)stbds_arrlen(w->tree_nodes);
	for (int32_t begin = 0, end; begin < count; begin = end) {
		sinew_tree_range r = {begin, begin, 0.0, false, false, false, false};
		end = begin;
		do {
			r.has_limits = r.has_limits || w->tree_nodes[end].has_limits;
			++end;
		} while (end < count && w->tree_nodes[end].parent >= 0);
		r.end = end;
		for (int32_t i = begin; i < end; ++i) w->tree_nodes[i].tree = (int32_t)stbds_arrlen(w->tree_ranges);
		stbds_arrput(w->tree_ranges, r);
	}
	find_loops(w);
	sinew_joint_tree_mark_energy(w);
}

/* In-place inverse of a symmetric block of size 1..3. */
static void invert(double m[3][3], int n)
{
	if (n == 1) {
		m[0][0] = m[0][0] != 0.0 ? 1.0 / m[0][0] : 0.0;
		return;
	}
	if (n == 2) {
		double det = m[0][0] * m[1][1] - m[0][1] * m[1][0];
		double inv = det != 0.0 ? 1.0 / det : 0.0;
		double a = m[0][0];
		m[0][0] = m[1][1] * inv;
		m[1][1] = a * inv;
		m[0][1] = -m[0][1] * inv;
		m[1][0] = -m[1][0] * inv;
		return;
	}
	double c[3][3];
	c[0][0] = m[1][1] * m[2][2] - m[1][2] * m[2][1];
	c[0][1] = m[0][2] * m[2][1] - m[0][1] * m[2][2];
	c[0][2] = m[0][1] * m[1][2] - m[0][2] * m[1][1];
	c[1][0] = m[1][2] * m[2][0] - m[1][0] * m[2][2];
	c[1][1] = m[0][0] * m[2][2] - m[0][2] * m[2][0];
	c[1][2] = m[0][2] * m[1][0] - m[0][0] * m[1][2];
	c[2][0] = m[1][0] * m[2][1] - m[1][1] * m[2][0];
	c[2][1] = m[0][1] * m[2][0] - m[0][0] * m[2][1];
	c[2][2] = m[0][0] * m[1][1] - m[0][1] * m[1][0];
	double det = m[0][0] * c[0][0] + m[0][1] * c[1][0] + m[0][2] * c[2][0];
	double inv = det != 0.0 ? 1.0 / det : 0.0;
	for (int i = 0; i < 3; ++i)
		for (int k = 0; k < 3; ++k) m[i][k] = c[i][k] * inv;
}

/* The row's Jacobian with respect to the body in solver slot `slot`. */
static const float *row_part(const sinew_row_constraint *rc, int32_t slot)
{
	return rc->body_a == slot ? rc->row.ja : rc->row.jb;
}

static void fill_blocks(sinew_world *w, sinew_tree_node *n)
{
	memset(n->d, 0, sizeof n->d);
	memset(n->h, 0, sizeof n->h);
	if (n->is_body) {
		const sinew_solver_body *b = &w->solver_bodies[n->ref];
		double m = 1.0 / b->inv_mass;
		n->d[0][0] = n->d[1][1] = m;
		/* a body that cannot turn: an inertia so large its turning is nil */
		n->d[2][2] = b->inv_inertia > 0.0f ? 1.0 / b->inv_inertia + n->stiffness : 1e12 * (m + 1.0);
		if (n->parent >= 0) {
			const sinew_tree_node *p = &w->tree_nodes[n->parent];
			for (int r = 0; r < p->dim; ++r) {
				const float *jr = row_part(&w->joint_rows[p->rows[r]], n->ref);
				for (int i = 0; i < 3; ++i) n->h[i][r] = -(double)jr[i];
			}
		}
		return;
	}
	double scale = 0.0;
	for (int r = 0; r < n->dim; ++r) {
		const sinew_row_constraint *rc = &w->joint_rows[n->rows[r]];
		scale += rc->eff_mass > 0.0f ? 1.0 / rc->eff_mass : 0.0;
	}
	for (int r = 0; r < n->dim; ++r) n->d[r][r] = -1e-9 * (scale + 1e-12);
	if (n->parent < 0) return;
	int32_t parent_slot = w->tree_nodes[n->parent].ref;
	for (int r = 0; r < n->dim; ++r) {
		const float *jr = row_part(&w->joint_rows[n->rows[r]], parent_slot);
		for (int i = 0; i < 3; ++i) n->h[r][i] = -(double)jr[i];
	}
}

static void factor_range(sinew_world *w, int32_t begin, int32_t end)
{
	for (int32_t i = begin; i < end; ++i) fill_blocks(w, &w->tree_nodes[i]);
	/* parents were created before their children: walking backwards eliminates leaves first */
	for (int32_t i = end - 1; i >= begin; --i) {
		sinew_tree_node *n = &w->tree_nodes[i];
		invert(n->d, n->dim);
		if (n->parent < 0) continue;
		sinew_tree_node *p = &w->tree_nodes[n->parent];
		double x[3][3]; /* D_n^-1 H(n, p) */
		for (int a = 0; a < n->dim; ++a)
			for (int b = 0; b < p->dim; ++b) {
				double s = 0.0;
				for (int k = 0; k < n->dim; ++k) s += n->d[a][k] * n->h[k][b];
				x[a][b] = s;
			}
		for (int a = 0; a < p->dim; ++a)
			for (int b = 0; b < p->dim; ++b) {
				double s = 0.0;
				for (int k = 0; k < n->dim; ++k) s += n->h[k][a] * x[k][b];
				p->d[a][b] -= s;
			}
	}
}

static void add_stiffness(sinew_world *w, int32_t slot, double k)
{
	int32_t node = slot > 0 ? w->tree_body_node[slot] : -1;
	if (node >= 0) w->tree_nodes[node].stiffness += k;
}

/* Geometric stiffness. A point row's Jacobian turns with its bodies, so the impulse lambda it carries
 * is a torque that changes as they turn: d(r x lambda)/d(theta) = -(r . lambda) about each body's
 * centre, a stiffness k = r . lambda (turning an anchor against a chain's tension pulls it back).
 * Solved with the Jacobian of the substep's start, that torque is explicit, and a light link between
 * two heavily loaded neighbours (the links next to the ball of a whipping chain) is a stiff explicit
 * spring: its kink oscillation grows step by step until the chain tears (measured: from 8 s at 4
 * substeps, none at 16). Adding h^2 |k| to the turning inertia of the body's pivot block treats it
 * implicitly (Andrews, Teichmann and Kry, "Geometric stiffness for real-time constrained multibody
 * dynamics", 2017); it only enters the tree's own matrix, which stays exact for J v = target. The
 * impulses are those of the previous substep. */
static void geometric_stiffness(sinew_world *w, float h)
{
	int count = (int)stbds_arrlen(w->tree_nodes);
	for (int i = 0; i < count; ++i) w->tree_nodes[i].stiffness = 0.0;
	if (h <= 0.0f) return;
	for (int i = 0; i < count; ++i) {
		const sinew_tree_node *n = &w->tree_nodes[i];
		if (n->is_body || w->tree_ranges[n->tree].soft_loops) continue;
		for (int r = 0; r + 1 < n->rigid; ++r) {
			const sinew_row_constraint *x = &w->joint_rows[n->rows[r]], *y = &w->joint_rows[n->rows[r + 1]];
			if (x->row.point != 1 || y->row.point != 2) continue;
			double lx = x->impulse, ly = y->impulse;
			double ka = -((double)-y->row.ja[2] * lx + (double)x->row.ja[2] * ly);
			double kb = (double)y->row.jb[2] * lx - (double)x->row.jb[2] * ly;
			add_stiffness(w, x->body_a, (double)h * fabs(ka));
			add_stiffness(w, x->body_b, (double)h * fabs(kb));
		}
	}
}

static void form_loop_matrix(sinew_world *w, float h);

void sinew_joint_tree_factor(sinew_world *w, float h)
{
	geometric_stiffness(w, h);
	/* A limit stays in its block from one substep to the next while it still pushes, like a resting
	 * contact (it is warm started then); one that stopped pushing leaves it, and so does its push. */
	int count = (int)stbds_arrlen(w->tree_nodes);
	for (int i = 0; i < count; ++i) {
		sinew_tree_node *n = &w->tree_nodes[i];
		if (n->is_body || !n->has_limits) continue;
		int32_t kept = n->dim > n->rigid && w->joint_rows[n->rows[n->dim - 1]].impulse > 0.0f ? n->rows[n->dim - 1] : -1;
		n->dim = n->rigid;
		for (int r = 0; r < n->row_count; ++r) {
			sinew_row_constraint *rc = &w->joint_rows[n->first_row + r];
			if (!rc->tree_owned) continue;
			rc->in_tree = n->first_row + r == kept;
			if (!rc->in_tree) rc->impulse = 0.0f;
		}
		if (kept >= 0) n->rows[n->dim++] = kept;
	}
	factor_range(w, 0, count);
	form_loop_matrix(w, h);
}

/* The active set of limits is a linear complementarity problem per tree (a limit in the block pushes,
 * one outside it is not crossed), and its matrix, the limits' Schur complement of a positive
 * definite system, is a P-matrix: Murty's least-index rule, which changes only the first limit in
 * node order that breaks the conditions, cannot cycle on it and ends in a finite number of rounds.
 * Changing every offender at once, as the solver did first, can cycle (two limits of one figure
 * pushing each other in and out) and left limits crossed by up to 14 degrees in one substep. The
 * bound below is a guard against rounding, not a budget: the ragdoll tests never reach it. */
#define SINEW_TREE_MAX_ROUNDS 32

/* What one pass up and down a tree solves. */
typedef struct tree_pass {
	float h;
	bool use_bias;
	bool position; /* J dx = -C, the answer left in y; else a velocity solve, applied as it is found */
} tree_pass;

static void add_limit(sinew_world *w, sinew_tree_node *n, int32_t ri)
{
	n->rows[n->dim++] = ri;
	w->joint_rows[ri].in_tree = true;
}

static void drop_limit(sinew_world *w, sinew_tree_node *n)
{
	n->dim -= 1;
	w->joint_rows[n->rows[n->dim]].in_tree = false;
}

/* The first of the joint's limits that `will_cross` says is crossed, or -1. */
typedef bool (*crossing_fn)(const sinew_world *w, const sinew_row_constraint *rc, const tree_pass *pass);

static int32_t crossed_limit(const sinew_world *w, const sinew_tree_node *n, crossing_fn will_cross, const tree_pass *pass)
{
	if (n->dim >= 3 || !n->has_limits) return -1;
	for (int r = 0; r < n->row_count; ++r) {
		const sinew_row_constraint *rc = &w->joint_rows[n->first_row + r];
		if (rc->tree_owned && rc->eff_mass != 0.0f && will_cross(w, rc, pass)) return n->first_row + r;
	}
	return -1;
}

/* The speed a limit in the block is solved to: with bias, closing the gap within the substep, or
 * leaving a crossed bound softly; without, standing still. */
static double limit_target_speed(const sinew_world *w, const sinew_row_constraint *rc, float h, bool use_bias)
{
	SINEW_UNUSED(w);
	float c = rc->row.c;
	return use_bias && c > 0.0f ? -(double)c / (double)h : 0.0;
}

/* Velocities: the limit would be crossed, or left more slowly than its target speed. The test must
 * agree with the target: a limit added for moving slower than its target must be pushed by the solve
 * (a positive impulse), or it is dropped at once and added again. An open gap may still be closed
 * within the substep. */
static bool crosses_in_substep(const sinew_world *w, const sinew_row_constraint *rc, const tree_pass *pass)
{
	float c = rc->row.c;
	double allowed = c > 0.0f ? -(double)c / (double)pass->h : limit_target_speed(w, rc, pass->h, pass->use_bias);
	return (double)sinew_row_speed(w->solver_bodies, rc) < allowed;
}

/* Rigid rows stand still: their position error is the projection's (sinew_joint_tree_project). In a
 * tree held by soft loop rows (too many loops to solve exactly) the loops pull the tree apart within
 * a substep, and the rows close their error with bias as well (soft: as tree rows, before). */
static double row_rhs(const sinew_world *w, const sinew_row_constraint *rc, bool is_limit, bool soft_loops, const tree_pass *pass)
{
	if (pass->position) return (double)rc->row.c;
	double target = is_limit ? limit_target_speed(w, rc, pass->h, pass->use_bias)
	              : soft_loops && pass->use_bias ? -(double)rc->row.c / (double)pass->h : 0.0;
	return (double)sinew_row_speed(w->solver_bodies, rc) - target;
}

/* The right-hand side of a node (0 for a body), loaded just before the pass up first needs it:
 * the node itself, or its first child to be eliminated. */
static void load_rhs(const sinew_world *w, sinew_tree_node *n, const tree_pass *pass)
{
	if (n->loaded) return;
	n->loaded = true;
	n->y[0] = n->y[1] = n->y[2] = 0.0;
	if (n->is_body) return;
	bool soft = w->tree_ranges[n->tree].soft_loops;
	for (int r = 0; r < n->dim; ++r) n->y[r] = row_rhs(w, &w->joint_rows[n->rows[r]], r >= n->rigid, soft, pass);
}

static void apply_velocity(sinew_world *w, const sinew_tree_node *n)
{
	if (n->is_body) {
		sinew_solver_body *b = &w->solver_bodies[n->ref];
		b->v.x += (float)n->y[0];
		b->v.y += (float)n->y[1];
		if (b->inv_inertia > 0.0f) b->w += (float)n->y[2];
	} else {
		for (int r = 0; r < n->dim; ++r) w->joint_rows[n->rows[r]].impulse += (float)n->y[r];
	}
}

/* Up and down one factored tree; the answer replaces y. A velocity solve changes each node's
 * velocities or impulses as soon as its answer is known, within the pass down. */
static void solve_range(sinew_world *w, int32_t begin, int32_t end, const tree_pass *pass)
{
	for (int32_t i = end - 1; i >= begin; --i) {
		sinew_tree_node *n = &w->tree_nodes[i];
		load_rhs(w, n, pass);
		if (n->parent < 0) continue;
		sinew_tree_node *p = &w->tree_nodes[n->parent];
		load_rhs(w, p, pass);
		double z[3];
		for (int a = 0; a < n->dim; ++a) {
			z[a] = 0.0;
			for (int k = 0; k < n->dim; ++k) z[a] += n->d[a][k] * n->y[k];
		}
		for (int b = 0; b < p->dim; ++b)
			for (int k = 0; k < n->dim; ++k) p->y[b] -= n->h[k][b] * z[k];
	}
	for (int32_t i = begin; i < end; ++i) {
		sinew_tree_node *n = &w->tree_nodes[i];
		double r[3] = {n->y[0], n->y[1], n->y[2]};
		if (n->parent >= 0) {
			const sinew_tree_node *p = &w->tree_nodes[n->parent];
			for (int a = 0; a < n->dim; ++a)
				for (int b = 0; b < p->dim; ++b) r[a] -= n->h[a][b] * p->y[b];
		}
		for (int a = 0; a < n->dim; ++a) {
			double s = 0.0;
			for (int k = 0; k < n->dim; ++k) s += n->d[a][k] * r[k];
			n->y[a] = s;
		}
		n->loaded = false;
		if (!pass->position) apply_velocity(w, n);
	}
}

/* Position: the correction found so far (in the body nodes' y) carries the joint past its bound. */
static double correction_along(const sinew_world *w, const sinew_row_constraint *rc)
{
	double s = 0.0;
	const int32_t slots[2] = {rc->body_a, rc->body_b};
	const float *parts[2] = {rc->row.ja, rc->row.jb};
	for (int e = 0; e < 2; ++e) {
		int32_t node = slots[e] > 0 ? w->tree_body_node[slots[e]] : -1;
		if (node < 0) continue;
		const double *y = w->tree_nodes[node].y;
		s += (double)parts[e][0] * y[0] + (double)parts[e][1] * y[1] + (double)parts[e][2] * y[2];
	}
	return s;
}

static bool crossed_now(const sinew_world *w, const sinew_row_constraint *rc, const tree_pass *pass)
{
	SINEW_UNUSED(w);
	SINEW_UNUSED(pass);
	return rc->row.c < 0.0f;
}

static bool crossed_after_correction(const sinew_world *w, const sinew_row_constraint *rc, const tree_pass *pass)
{
	SINEW_UNUSED(pass);
	return (double)rc->row.c + correction_along(w, rc) < 0.0;
}

/* Position: the block of every joint is its rigid rows and the limit it crosses now, if any. */
static void start_position_limits(sinew_world *w, int32_t begin, int32_t end, const tree_pass *pass)
{
	for (int32_t i = begin; i < end; ++i) {
		sinew_tree_node *n = &w->tree_nodes[i];
		if (n->is_body) continue;
		while (n->dim > n->rigid) drop_limit(w, n);
		int32_t ri = crossed_limit(w, n, crossed_now, pass);
		if (ri >= 0) add_limit(w, n, ri);
	}
}

/* One change of a tree's active set, the first in node order: a limit in the block that pulls lets
 * go (in a velocity pass its push is taken back too); else a limit outside it joins when the
 * velocities would carry the joint past its bound within the substep, or the position correction
 * found so far would. Returns whether anything changed. */
static bool flip_limit(sinew_world *w, int32_t begin, int32_t end, const tree_pass *pass)
{
	crossing_fn crosses = pass->position ? crossed_after_correction : crosses_in_substep;
	for (int32_t i = begin; i < end; ++i) {
		sinew_tree_node *n = &w->tree_nodes[i];
		if (n->is_body) continue;
		if (n->dim > n->rigid) {
			sinew_row_constraint *rc = &w->joint_rows[n->rows[n->dim - 1]];
			if (pass->position ? n->y[n->dim - 1] >= 0.0 : rc->impulse >= 0.0f) continue;
			if (!pass->position) {
				sinew_row_apply(w->solver_bodies, rc, -rc->impulse);
				rc->impulse = 0.0f;
			}
			drop_limit(w, n);
			return true;
		}
		int32_t ri = crossed_limit(w, n, crosses, pass);
		if (ri < 0) continue;
		add_limit(w, n, ri);
		return true;
	}
	return false;
}

/* Change the active set one limit at a time, factoring and solving the tree again after each,
 * until it holds (see SINEW_TREE_MAX_ROUNDS). */
static void settle_limits(sinew_world *w, int32_t begin, int32_t end, const tree_pass *pass)
{
	for (int round = 0; round < SINEW_TREE_MAX_ROUNDS && flip_limit(w, begin, end, pass); ++round) {
		factor_range(w, begin, end);
		solve_range(w, begin, end, pass);
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
		double turn = b->inv_inertia > 0.0f ? 1.0 / (1.0 / (double)b->inv_inertia + (node >= 0 ? w->tree_nodes[node].stiffness : 0.0)) : 0.0;
		b->v.x += b->inv_mass * parts[e][0] * impulse;
		b->v.y += b->inv_mass * parts[e][1] * impulse;
		b->w += (float)(turn * (double)parts[e][2] * (double)impulse);
	}
}

static void solve_loop_trees(sinew_world *w, const tree_pass *pass)
{
	int trees = (int)stbds_arrlen(w->tree_ranges);
	for (int t = 0; t < trees; ++t)
		if (w->tree_ranges[t].has_loops) solve_range(w, w->tree_ranges[t].begin, w->tree_ranges[t].end, pass);
}

static void zero_loop_velocities(sinew_world *w, const sinew_row_constraint *rc)
{
	sinew_solver_body *bodies = w->solver_bodies;
	bodies[rc->body_a].v = bodies[rc->body_b].v = sinew_v2(0.0f, 0.0f);
	bodies[rc->body_a].w = bodies[rc->body_b].w = 0.0f;
	int trees = (int)stbds_arrlen(w->tree_ranges);
	for (int t = 0; t < trees; ++t) {
		if (!w->tree_ranges[t].has_loops) continue;
		for (int32_t i = w->tree_ranges[t].begin; i < w->tree_ranges[t].end; ++i) {
			const sinew_tree_node *n = &w->tree_nodes[i];
			if (!n->is_body) continue;
			bodies[n->ref].v = sinew_v2(0.0f, 0.0f);
			bodies[n->ref].w = 0.0f;
		}
	}
}

/* In-place Cholesky factor (lower) of the symmetric L x L matrix; a pivot that vanishes (a loop row
 * the others already imply) gets a zero inverse so its row takes no impulse. */
static void cholesky(double *m, int n)
{
	for (int k = 0; k < n; ++k) {
		double d = m[k * n + k];
		for (int p = 0; p < k; ++p) d -= m[k * n + p] * m[k * n + p];
		m[k * n + k] = d > 1e-12 * (1.0 + fabs(m[k * n + k])) ? sqrt(d) : 0.0;
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

/* Column i of S: the loop rows' speeds after a unit impulse along loop row i, spread through the
 * trees from rest (every velocity and impulse is put back afterwards). */
static void form_loop_matrix(sinew_world *w, float h)
{
	int count = (int)stbds_arrlen(w->loop_rows);
	if (count == 0) return;
	int nb = (int)stbds_arrlen(w->solver_bodies), nr = (int)stbds_arrlen(w->joint_rows);
	stbds_arrsetlen(w->loop_backup, 3 * nb + nr);
	stbds_arrsetlen(w->loop_matrix, 2 * count * count);
	float *keep = w->loop_backup;
	for (int i = 0; i < nb; ++i) {
		sinew_solver_body *b = &w->solver_bodies[i];
		keep[3 * i] = b->v.x, keep[3 * i + 1] = b->v.y, keep[3 * i + 2] = b->w;
		b->v = sinew_v2(0.0f, 0.0f);
		b->w = 0.0f;
	}
	for (int r = 0; r < nr; ++r) keep[3 * nb + r] = w->joint_rows[r].impulse;
	tree_pass pass = {h, false, false};
	double *m = w->loop_matrix;
	for (int i = 0; i < count; ++i) {
		const sinew_row_constraint *ri = &w->joint_rows[w->loop_rows[i]];
		loop_apply(w, ri, 1.0f);
		solve_loop_trees(w, &pass);
		for (int k = 0; k < count; ++k) m[k * count + i] = (double)sinew_row_speed(w->solver_bodies, &w->joint_rows[w->loop_rows[k]]);
		zero_loop_velocities(w, ri);
	}
	for (int i = 0; i < nb; ++i) {
		sinew_solver_body *b = &w->solver_bodies[i];
		b->v = sinew_v2(keep[3 * i], keep[3 * i + 1]);
		b->w = keep[3 * i + 2];
	}
	for (int r = 0; r < nr; ++r) w->joint_rows[r].impulse = keep[3 * nb + r];
	double largest = 0.0;
	for (int i = 0; i < count; ++i) {
		largest = fmax(largest, m[i * count + i]);
		for (int k = 0; k < i; ++k) m[i * count + k] = m[k * count + i] = 0.5 * (m[i * count + k] + m[k * count + i]);
	}
	double *soft = m + count * count;
	for (int i = 0; i < count * count; ++i) soft[i] = m[i];
	for (int i = 0; i < count; ++i) {
		m[i * count + i] += SINEW_LOOP_GUARD * largest;
		soft[i * count + i] += SINEW_LOOP_DAMPING * largest;
	}
	cholesky(m, count);
	cholesky(soft, count);
}

/* The loop impulses that bring every loop row to its target (with bias: C = 0 at the end of the
 * substep; without: standing still), then the trees solved again around them. */
static void solve_loops(sinew_world *w, const tree_pass *pass)
{
	int count = (int)stbds_arrlen(w->loop_rows);
	if (count == 0) return;
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

void sinew_joint_tree_solve(sinew_world *w, float h, bool use_bias)
{
	tree_pass pass = {h, use_bias, false};
	int trees = (int)stbds_arrlen(w->tree_ranges);
	for (int t = 0; t < trees; ++t) {
		int32_t begin = w->tree_ranges[t].begin, end = w->tree_ranges[t].end;
		bool has_limits = w->tree_ranges[t].has_limits;
		solve_range(w, begin, end, &pass);
		if (has_limits) settle_limits(w, begin, end, &pass);
	}
	solve_loops(w, &pass);
}

/* Kinetic energy of a body with velocity (v, w), and its potential energy in gravity. */
static double kinetic(const sinew_solver_body *b, double vx, double vy, double w)
{
	double k = b->inv_mass > 0.0f ? 0.5 * (vx * vx + vy * vy) / b->inv_mass : 0.0;
	return k + (b->inv_inertia > 0.0f ? 0.5 * w * w / b->inv_inertia : 0.0);
}

static double potential(const sinew_world *w, int32_t slot)
{
	const sinew_solver_body *b = &w->solver_bodies[slot];
	const sinew_body *body = &w->bodies[w->awake_bodies[slot]];
	sinew_vec2 c = sinew_add(body->center0, b->dp);
	double gx = (double)body->gravity_scale * w->gravity.x, gy = (double)body->gravity_scale * w->gravity.y;
	return -(gx * c.x + gy * c.y) / (double)b->inv_mass;
}

static double tree_energy(const sinew_world *w, int32_t begin, int32_t end)
{
	double e = 0.0;
	for (int32_t i = begin; i < end; ++i) {
		const sinew_tree_node *n = &w->tree_nodes[i];
		if (!n->is_body) continue;
		const sinew_solver_body *b = &w->solver_bodies[n->ref];
		e += kinetic(b, b->v.x, b->v.y, b->w) + potential(w, n->ref);
	}
	return e;
}

void sinew_joint_tree_mark_energy(sinew_world *w)
{
	int trees = (int)stbds_arrlen(w->tree_ranges);
	for (int t = 0; t < trees; ++t) w->tree_ranges[t].energy = tree_energy(w, w->tree_ranges[t].begin, w->tree_ranges[t].end);
}

/* How much of the velocity a position correction implies (dx / h, in the body nodes' y) the tree
 * takes: all of it, unless that would leave the tree with more energy than it had at the start of
 * the substep; then the largest share that does not (none if the substep added energy already).
 * None either while a body turns faster than SINEW_TREE_MAX_TURN radians per substep: the
 * correction is one linear step, and at such turns (the crack of a whip) its velocity is a poor
 * guess that measured tore the heavy chain by 1.6 cm; the projection alone only loses energy. */
#define SINEW_TREE_MAX_TURN 0.1
static double correction_share(const sinew_world *w, const sinew_tree_range *r, double inv_h)
{
	double k0 = 0.0, cross = 0.0, square = 0.0, p = 0.0;
	for (int32_t i = r->begin; i < r->end; ++i) {
		const sinew_tree_node *n = &w->tree_nodes[i];
		if (!n->is_body) continue;
		const sinew_solver_body *b = &w->solver_bodies[n->ref];
		if (fabs((double)b->w) > SINEW_TREE_MAX_TURN * inv_h) return 0.0;
		double dvx = inv_h * n->y[0], dvy = inv_h * n->y[1], dw = b->inv_inertia > 0.0f ? inv_h * n->y[2] : 0.0;
		k0 += kinetic(b, b->v.x, b->v.y, b->w);
		cross += ((double)b->v.x * dvx + (double)b->v.y * dvy) / (double)b->inv_mass;
		if (b->inv_inertia > 0.0f) cross += (double)b->w * dw / (double)b->inv_inertia;
		square += kinetic(b, dvx, dvy, dw);
		p += potential(w, n->ref);
	}
	/* E(a) = k0 + a cross + a^2 square + p, with cross = v . M dv and square = |dv|^2_M / 2 */
	double slack = r->energy - (k0 + p);
	if (k0 + p + cross + square <= r->energy) return 1.0;
	if (slack <= 0.0 || square <= 0.0) return 0.0;
	return sinew_minf(1.0f, (float)((-cross + sqrt(cross * cross + 4.0 * square * slack)) / (2.0 * square)));
}

/* Position projection: move the bodies of every tree, weighted by mass, so that the rigid rows are
 * met in position and no limit is left crossed (one Newton step of J dx = -C through the tree's
 * factorisation, with the limits as inequalities: the same active set as the velocity solve).
 * Inside a step (inv_h > 0) it runs after every substep with that substep's Jacobians (factored:
 * trees without limits reuse the velocity factorisation) and C at the new pose, and the velocity
 * dx / h that the correction implies is added too (see correction_share): the correction then acts
 * like an impulse at the substep's start, through the anchors of that pose, which is what keeps a
 * tumbling figure's angular momentum (moving bodies without it, measured, lost 15 % in 10 s).
 * After the step (inv_h = 0) it only moves bodies, removing what the linear step left. */
/* Position: the loop rows met too. The trees' correction dx (in their body nodes' y) leaves each
 * loop row off by C + J dx; loop impulses through S (velocities stand in for displacements: the map
 * is the same) spread through the trees and add to dx. Velocities and impulses are put back. */
static void project_loops(sinew_world *w)
{
	int count = (int)stbds_arrlen(w->loop_rows);
	if (count == 0) return;
	double x[SINEW_MAX_LOOP_ROWS];
	for (int k = 0; k < count; ++k) {
		const sinew_row_constraint *rc = &w->joint_rows[w->loop_rows[k]];
		x[k] = -((double)rc->row.c + correction_along(w, rc));
	}
	cholesky_solve(w->loop_matrix + count * count, count, x);
	int nb = (int)stbds_arrlen(w->solver_bodies), nr = (int)stbds_arrlen(w->joint_rows);
	stbds_arrsetlen(w->loop_backup, 6 * nb + nr);
	float *keep = w->loop_backup, *dx = keep + 3 * nb + nr; /* dx: the trees' correction of each slot */
	for (int i = 0; i < nb; ++i) {
		sinew_solver_body *b = &w->solver_bodies[i];
		keep[3 * i] = b->v.x, keep[3 * i + 1] = b->v.y, keep[3 * i + 2] = b->w;
		b->v = sinew_v2(0.0f, 0.0f);
		b->w = 0.0f;
		int32_t node = i > 0 ? w->tree_body_node[i] : -1;
		for (int c = 0; c < 3; ++c) dx[3 * i + c] = node >= 0 ? (float)w->tree_nodes[node].y[c] : 0.0f;
	}
	for (int r = 0; r < nr; ++r) keep[3 * nb + r] = w->joint_rows[r].impulse;
	for (int k = 0; k < count; ++k) loop_apply(w, &w->joint_rows[w->loop_rows[k]], (float)x[k]);
	tree_pass spread = {1.0f, false, false};
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
	for (int i = 0; i < nb; ++i) {
		sinew_solver_body *b = &w->solver_bodies[i];
		b->v = sinew_v2(keep[3 * i], keep[3 * i + 1]);
		b->w = keep[3 * i + 2];
	}
	for (int r = 0; r < nr; ++r) w->joint_rows[r].impulse = keep[3 * nb + r];
}

void sinew_joint_tree_project(sinew_world *w, bool factored, float inv_h)
{
	/* J dx = -C for every row in the block: rigid rows met, limits in the block brought to their bound */
	tree_pass pass = {0.0f, false, true};
	int trees = (int)stbds_arrlen(w->tree_ranges);
	for (int t = 0; t < trees; ++t) {
		int32_t begin = w->tree_ranges[t].begin, end = w->tree_ranges[t].end;
		bool has_limits = w->tree_ranges[t].has_limits;
		w->tree_ranges[t].skip = inv_h > 0.0f && w->tree_ranges[t].soft_loops;
		if (w->tree_ranges[t].skip) continue;
		if (has_limits) start_position_limits(w, begin, end, &pass);
		if (has_limits || !factored) factor_range(w, begin, end);
		solve_range(w, begin, end, &pass);
		if (has_limits) settle_limits(w, begin, end, &pass);
	}
	project_loops(w);
	for (int t = 0; t < trees; ++t) {
		int32_t begin = w->tree_ranges[t].begin, end = w->tree_ranges[t].end;
		if (w->tree_ranges[t].skip) continue;
		for (int32_t i = begin; i < end; ++i) {
			const sinew_tree_node *n = &w->tree_nodes[i];
			if (!n->is_body) continue;
			sinew_solver_body *b = &w->solver_bodies[n->ref];
			b->dp.x += (float)n->y[0];
			b->dp.y += (float)n->y[1];
			if (b->inv_inertia > 0.0f) b->dq = sinew_integrate_rot(b->dq, (float)n->y[2]);
		}
		if (inv_h <= 0.0f) continue;
		float share = inv_h * (float)correction_share(w, &w->tree_ranges[t], inv_h);
		for (int32_t i = begin; i < end; ++i) {
			const sinew_tree_node *n = &w->tree_nodes[i];
			if (!n->is_body) continue;
			sinew_solver_body *b = &w->solver_bodies[n->ref];
			b->v.x += share * (float)n->y[0];
			b->v.y += share * (float)n->y[1];
			if (b->inv_inertia > 0.0f) b->w += share * (float)n->y[2];
		}
		w->tree_ranges[t].energy = tree_energy(w, begin, end);
	}
}
