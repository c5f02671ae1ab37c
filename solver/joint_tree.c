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
 * precision; blocks are at most 3x3. (Keeping it for a few substeps was measured and rejected:
 * docs/joints.md, "Factored every substep, and why".) The limits of tree joints join it through an active set (below).
 * Joints that close a loop, and the soft rows (motors, springs, compliant pins), are solved by
 * sequential impulses around it (joint_solve.c). */
#include "joint_tree.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* The blocks are small (a body 3, a joint 1 to 3 rows), and every pass over a tree is a run of 3x3
 * products: written with the sizes known when compiled and these loops fully unrolled (GCC and clang
 * both read the pragma; at -O2 GCC would keep the loops), a pass costs about a third of the generic
 * loops' instructions. Each sum starts from its first product rather than from 0.0 plus it (an add the
 * compiler must keep, since 0.0 + -0.0 is +0.0: only the sign of a zero sum can differ; 1 % of
 * stickman_rain's instructions, the same state hashes). The pairs of sizes (node, parent) a tree has: */
#define SINEW_UNROLL _Pragma("GCC unroll 3")
/* The kernels below are only fast with their sizes known, so they are always inlined where the sizes
 * are constants (SINEW_TREE_DISPATCH): left to itself, GCC called one of them out of line with the
 * sizes as arguments once the walk that dispatches to it grew (+2 % of ragdolls50's instructions). */
#define SINEW_TREE_KERNEL static inline __attribute__((always_inline))
/* A point joint's coupling blocks have two exact zeros: its x row does not move a body along y nor its
 * y row along x (sinew_row_point), so H(i, j) is zero at (0, 1) and (1, 0), in a body node's H (body
 * coordinate, joint row) as in a joint node's (joint row, body coordinate). PT (the node's `point`)
 * says so, and the products skip those entries: a running sum plus or minus a zero product is the
 * sum itself, but for the sign of a zero sum (about 4 % of stickman_rain's instructions; the same
 * state hashes). */
#define SINEW_POINT_ZERO(PT, i, j) ((PT) && (((i) == 0 && (j) == 1) || ((i) == 1 && (j) == 0)))
/* kernel(n, p, N, P, PT) with the sizes of node n and its parent p, and n's `point`, as constants, for
 * the pairs a tree has (a body under a joint, a joint under a body) */
#define SINEW_TREE_DISPATCH(kernel, n, p) \
	switch ((n)->point * 16 + (n)->dim * 4 + (p)->dim) { \
	case 3 * 4 + 1: kernel(n, p, 3, 1, false); break; \
	case 3 * 4 + 2: kernel(n, p, 3, 2, false); break; \
	case 3 * 4 + 3: kernel(n, p, 3, 3, false); break; \
	case 1 * 4 + 3: kernel(n, p, 1, 3, false); break; \
	case 2 * 4 + 3: kernel(n, p, 2, 3, false); break; \
	case 16 + 3 * 4 + 2: kernel(n, p, 3, 2, true); break; \
	case 16 + 3 * 4 + 3: kernel(n, p, 3, 3, true); break; \
	case 16 + 2 * 4 + 3: kernel(n, p, 2, 3, true); break; \
	default: kernel(n, p, (n)->dim, (p)->dim, false); break; \
	}

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
	node->limit_row = -1;
	for (int r = 0; r < j->row_count; ++r) {
		sinew_row_constraint *rc = &w->joint_rows[j->row_start + r];
		if (rc->row.kind != SINEW_ROW_LIMIT) continue;
		rc->tree_owned = node->has_limits = true;
		if (node->limit_row < 0) node->limit_row = (int8_t)r;
	}
}

/* Breadth first over the joints with rigid rows from the bodies queued in island_stack, so a body's
 * path to its tree's root is as short as the graph allows (on joint_grid, where every other joint
 * closes a loop through the tree, the loops' conjugate gradients held its first steps' jolt to
 * 2.6 mm with it, 5.7 mm depth first). Labelling (build false): each dynamic body reached that is in
 * no tree yet takes the label of the body it was reached from. Building: the nodes of one tree,
 * which takes the bodies whose tree_body_node is `label` (-1: any body in no tree yet); a joint to
 * any other body, or to anything fixed, closes a loop and, like any loop-closing joint, is solved
 * with the loop rows (joint_loops.c). Where many loops close within the trees, each body joins its
 * tree through the parent joint joint_loops.c chose (sinew_joint_loops_parent_joint). */
static void breadth_first(sinew_world *w, bool build, int32_t label)
{
	for (ptrdiff_t head = 0; head < stbds_arrlen(w->island_stack); ++head) {
		int32_t slot = w->island_stack[head];
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
			if (!build) {
				if (slot_is_dynamic(w, other_slot) && w->tree_body_node[other_slot] == -1) {
					w->tree_body_node[other_slot] = w->tree_body_node[slot];
					stbds_arrput(w->island_stack, other_slot);
				}
				continue;
			}
			if (!slot_is_dynamic(w, other_slot) || w->tree_body_node[other_slot] != label ||
			    !sinew_joint_loops_parent_joint(w, other_slot, (int32_t)(j - w->joints))) {
				j->tree_node = -2; /* closes a loop */
				continue;
			}
			add_joint_node(w, j, (int32_t)(j - w->joints), w->tree_body_node[slot], rows, k);
			w->tree_body_node[other_slot] = add_node(w, j->tree_node, other_slot, true);
			stbds_arrput(w->island_stack, other_slot);
		}
	}
}

/* A joint's impulses start the next step (warm start; the tree's geometric stiffness reads them)
 * only while its rows are solved the same way. The exact solves carry impulses that only mean
 * something there: a tree row's can be large where a kinematic body pins the tree against a static
 * one, and when a body's type changed and that joint's limit became a row solved one by one, its
 * warm start threw bodies at 1e9 rad/s (random body-type switching, test_joint_stress). */
enum { SINEW_JOINT_SOLVED_ONE_BY_ONE, SINEW_JOINT_SOLVED_TREE, SINEW_JOINT_SOLVED_LOOP };

static void forget_changed_roles(sinew_world *w)
{
	int n = (int)stbds_arrlen(w->active_joints);
	for (int i = 0; i < n; ++i) {
		sinew_joint *j = &w->joints[w->active_joints[i]];
		int8_t role = j->tree_node >= 0 ? SINEW_JOINT_SOLVED_TREE : j->tree_node == -2 ? SINEW_JOINT_SOLVED_LOOP : SINEW_JOINT_SOLVED_ONE_BY_ONE;
		if (role != j->solved_as)
			for (int r = 0; r < j->row_count; ++r) w->joint_rows[j->row_start + r].impulse = 0.0f;
		j->solved_as = role;
	}
}

static void grow_from(sinew_world *w, int32_t root_slot, int32_t label)
{
	stbds_arrsetlen(w->island_stack, 0);
	stbds_arrput(w->island_stack, root_slot);
	breadth_first(w, true, label);
}

/* The slot of the dynamic body of a joint with rigid rows (in `rows`, *k of them) between a dynamic
 * body and something fixed (the world, a static or kinematic body), else 0. */
static int32_t fixed_joint_slot(const sinew_world *w, const sinew_joint *j, int32_t *rows, int *k)
{
	*k = j->tree_node == -1 ? rigid_rows(w, j, rows) : 0;
	if (*k == 0) return 0;
	int32_t sa = solver_slot_of(w, j->edges[0].body), sb = solver_slot_of(w, j->edges[1].body);
	bool da = slot_is_dynamic(w, sa), db = slot_is_dynamic(w, sb);
	return da == db ? 0 : da ? sa : sb;
}

/* The trees of the world's joints. Every body held by something fixed (the world, a static or
 * kinematic body) roots a tree of its own, at the first such joint, and each other dynamic body joins
 * the tree of the nearest root (labelled breadth first from all of them at once, a root's label -2 -
 * its slot), so that what hangs from each fixed joint is carried by exact tree rows and the loop rows
 * between trees only share it out (see sinew_joint_tree_build). Free-floating trees (a ragdoll in
 * the air) are rooted at a body. */
static void grow_trees(sinew_world *w)
{
	stbds_arrsetlen(w->tree_nodes, 0);
	int slots = sinew_solver_count(w);
	stbds_arrsetlen(w->tree_body_node, slots);
	for (int s = 0; s < slots; ++s) w->tree_body_node[s] = -1;
	int n = (int)stbds_arrlen(w->active_joints);
	stbds_arrsetlen(w->island_stack, 0);
	for (int i = 0; i < n; ++i) {
		int32_t rows[3];
		int k;
		int32_t slot = fixed_joint_slot(w, &w->joints[w->active_joints[i]], rows, &k);
		if (slot == 0 || w->tree_body_node[slot] != -1) continue;
		w->tree_body_node[slot] = -2 - slot;
		stbds_arrput(w->island_stack, slot);
	}
	breadth_first(w, false, 0);
	sinew_joint_loops_choose_parents(w);
	for (int i = 0; i < n; ++i) {
		int32_t ji = w->active_joints[i], rows[3];
		int k;
		int32_t slot = fixed_joint_slot(w, &w->joints[ji], rows, &k);
		int32_t label = -2 - slot;
		if (slot == 0 || w->tree_body_node[slot] != label) continue;
		add_joint_node(w, &w->joints[ji], ji, -1, rows, k);
		w->tree_body_node[slot] = add_node(w, w->joints[ji].tree_node, slot, true);
		grow_from(w, slot, label);
	}
	for (int s = 1; s < slots; ++s) {
		if (!slot_is_dynamic(w, s) || w->tree_body_node[s] != -1) continue;
		if (w->bodies[w->awake_bodies[s]].joint_count == 0) continue;
		int32_t before = (int32_t)stbds_arrlen(w->tree_nodes);
		w->tree_body_node[s] = add_node(w, -1, s, true);
		grow_from(w, s, -1);
		if (stbds_arrlen(w->tree_nodes) == before + 1) { /* a lone body: no tree */
			stbds_arrsetlen(w->tree_nodes, before);
			w->tree_body_node[s] = -1;
		}
	}
}

static double tree_mass(const sinew_world *w, const sinew_tree_range *r)
{
	double mass = 0.0;
	for (int32_t k = r->bodies; k < r->joints; ++k) mass += 1.0 / (double)w->solver_bodies[w->tree_nodes[w->tree_lists[k]].ref].inv_mass;
	return mass;
}

/* Which trees sinew_joint_tree_presolve solves: those a contact of the step reaches (called once the
 * step's contacts are prepared), that close no loop or whose loops a free body's contact pushes
 * through the trees' response (responds, contact_tree.c), and whose bodies all have a radius of
 * gyration of at least SINEW_TREE_PRESOLVE_GYRATION of their size (see sinew_joint_tree_presolve). */
#define SINEW_TREE_PRESOLVE_GYRATION 0.1

void sinew_joint_tree_mark_presolve(sinew_world *w)
{
	int refs = (int)stbds_arrlen(w->constraint_refs);
	for (int i = 0; i < refs; ++i) {
		int32_t slots[2] = {w->constraint_refs[i].body_a, w->constraint_refs[i].body_b};
		for (int e = 0; e < 2; ++e) {
			int32_t node = slots[e] > 0 ? w->tree_body_node[slots[e]] : -1;
			if (node >= 0) w->tree_ranges[w->tree_nodes[node].tree].presolve = true;
		}
	}
	int trees = (int)stbds_arrlen(w->tree_ranges);
	const double g = SINEW_TREE_PRESOLVE_GYRATION;
	for (int t = 0; t < trees; ++t) {
		sinew_tree_range *r = &w->tree_ranges[t];
		if ((r->has_loops && !r->responds) || (r->presolve && sinew_tree_drive(w, r) > 0.0)) r->presolve = false;
		for (int32_t i = r->begin; i < r->end && r->presolve; ++i) {
			const sinew_tree_node *n = &w->tree_nodes[i];
			if (!n->is_body) continue;
			const sinew_solver_body *b = &w->solver_bodies[n->ref];
			double size = (double)w->bodies[w->awake_bodies[n->ref]].max_extent;
			/* I / m < (g size)^2, in inverses */
			if ((double)b->inv_mass < g * g * size * size * (double)b->inv_inertia) r->presolve = false;
		}
	}
}

/* A tree per fixed joint, whatever the number of loops. With many loops (solved by conjugate
 * gradients, joint_loops.c) a tree grown from one of joint_grid's seven pins left the other eight
 * fixed joints as loops through the ground carrying most of the grid's weight, and the conjugate
 * gradients' error gathered there: 2.6 mm at 24 products a substep, against 2.0 mm at 16 with a tree
 * per fixed joint (docs/joints.md, "Loops"). With few loops (solved exactly) it was measured as good
 * or better once loop rows have geometric stiffness too (geometric_stiffness): the taut bridge of
 * tests/test_joint_loops.c, now two trees joined at its middle pin, holds its crates at rest
 * (docs/joints.md, "Loops"). */
/* Which nodes' coupling blocks are a point joint's (sinew_tree_node.point); parents come first. */
static void mark_point_blocks(sinew_world *w)
{
	int32_t count = (int32_t)stbds_arrlen(w->tree_nodes);
	for (int32_t i = 0; i < count; ++i) {
		sinew_tree_node *n = &w->tree_nodes[i];
		if (n->is_body) {
			n->point = n->parent >= 0 && w->tree_nodes[n->parent].point;
			continue;
		}
		n->point = n->rigid >= 2 && w->joint_rows[n->rows[0]].row.point == 1 && w->joint_rows[n->rows[1]].row.point == 2;
	}
}

/* The trees are grown again only when what grow_trees reads changed since they were last grown: the
 * awake set (the solver slots, so sleep and wake), which slots are dynamic (a body's type), the active
 * joints (created, destroyed, enabled, broken, a body disabled) with their rows' kinds and point
 * shapes (a limit switched on or off) and the order of the bodies' joint lists (joint_lists_changed,
 * counted where joint.c links and unlinks them). All of it is compared, not flagged by the setters, so
 * a change no setter marks cannot leave a stale tree. Unchanged, the kept nodes are the nodes the
 * growth would make, and are put back as it leaves them (tree_reuse). Growing them every step was
 * 3.4 % of stickman_rain's instructions and 4.5 % of chain100's (docs/benchmarks.md, "Session 9"). */
static int32_t grown_slot(const sinew_world *w, int32_t s)
{
	int32_t bi = w->awake_bodies[s];
	return slot_is_dynamic(w, s) ? bi : -2 - bi;
}

static uint8_t grown_row(const sinew_row_constraint *rc)
{
	return (uint8_t)(rc->row.kind * 4 + rc->row.point);
}

static bool grown_from_same(const sinew_world *w)
{
	int slots = sinew_solver_count(w), joints = (int)stbds_arrlen(w->active_joints), rows = (int)stbds_arrlen(w->joint_rows);
	if (!w->tree_grown || w->tree_grown_lists != w->joint_lists_changed || stbds_arrlen(w->tree_grown_slots) != slots ||
	    stbds_arrlen(w->tree_grown_joints) != 3 * joints || stbds_arrlen(w->tree_grown_rows) != rows)
		return false;
	for (int s = 0; s < slots; ++s)
		if (w->tree_grown_slots[s] != grown_slot(w, s)) return false;
	for (int i = 0; i < joints; ++i) {
		int32_t ji = w->active_joints[i];
		if (w->tree_grown_joints[3 * i] != ji || w->tree_grown_joints[3 * i + 1] != w->joints[ji].row_count) return false;
	}
	for (int r = 0; r < rows; ++r)
		if (w->tree_grown_rows[r] != grown_row(&w->joint_rows[r])) return false;
	return true;
}

static void note_growth(sinew_world *w)
{
	int slots = sinew_solver_count(w), joints = (int)stbds_arrlen(w->active_joints), rows = (int)stbds_arrlen(w->joint_rows);
	stbds_arrsetlen(w->tree_grown_slots, slots);
	for (int s = 0; s < slots; ++s) w->tree_grown_slots[s] = grown_slot(w, s);
	stbds_arrsetlen(w->tree_grown_joints, 3 * joints);
	for (int i = 0; i < joints; ++i) {
		const sinew_joint *j = &w->joints[w->active_joints[i]];
		w->tree_grown_joints[3 * i] = w->active_joints[i];
		w->tree_grown_joints[3 * i + 1] = j->row_count;
		w->tree_grown_joints[3 * i + 2] = j->tree_node;
	}
	stbds_arrsetlen(w->tree_grown_rows, rows);
	for (int r = 0; r < rows; ++r) w->tree_grown_rows[r] = grown_row(&w->joint_rows[r]);
	w->tree_grown_lists = w->joint_lists_changed;
	w->tree_grown = true;
}

/* The kept trees as grow_trees leaves them: the joints' tree_node (this step's rows were made with -1),
 * their rows' roles, each joint node's block its rigid rows alone (the active set starts empty), and
 * the node state the growth starts from zero that a pass could read before writing it. */
static void tree_reuse(sinew_world *w)
{
	int joints = (int)stbds_arrlen(w->active_joints);
	for (int i = 0; i < joints; ++i) w->joints[w->active_joints[i]].tree_node = w->tree_grown_joints[3 * i + 2];
	int32_t count = (int32_t)stbds_arrlen(w->tree_nodes);
	for (int32_t i = 0; i < count; ++i) {
		sinew_tree_node *n = &w->tree_nodes[i];
		n->y[0] = n->y[1] = n->y[2] = 0.0;
		n->stiffness = n->inv_turn = 0.0;
		n->solved[0] = n->solved[1] = n->solved[2] = 0.0f;
		n->stale = false;
		if (n->is_body) {
			n->potential = 0.0;
			continue;
		}
		n->dim = n->rigid;
		for (int r = 0; r < 3; ++r)
			if (r >= n->rigid) n->rows[r] = 0;
		for (int r = 0; r < n->rigid; ++r) w->joint_rows[n->rows[r]].in_tree = true;
		for (int r = 0; r < n->row_count; ++r) {
			sinew_row_constraint *rc = &w->joint_rows[n->first_row + r];
			if (rc->row.kind == SINEW_ROW_LIMIT) rc->tree_owned = true;
		}
	}
}

/* The tree's nodes by kind, each in node order (sinew_tree_range.bodies): the body nodes, the joint
 * nodes, the joint nodes with limits. Most passes read one kind, and walking the whole run to skip the
 * others was most of the cost of the scans of the limits' active set (settle_limits), of the state kept
 * before a velocity solve and of the projection's walks over the bodies (docs/benchmarks.md, "Session
 * 10: tree control flow"). The same nodes in the same order: every sum is made as before. */
static void list_nodes(sinew_world *w, sinew_tree_range *r)
{
	r->bodies = (int32_t)stbds_arrlen(w->tree_lists);
	for (int32_t i = r->begin; i < r->end; ++i)
		if (w->tree_nodes[i].is_body) stbds_arrput(w->tree_lists, i);
	r->joints = (int32_t)stbds_arrlen(w->tree_lists);
	for (int32_t i = r->begin; i < r->end; ++i)
		if (!w->tree_nodes[i].is_body) stbds_arrput(w->tree_lists, i);
	r->limits = (int32_t)stbds_arrlen(w->tree_lists);
	for (int32_t i = r->begin; i < r->end; ++i)
		if (!w->tree_nodes[i].is_body && w->tree_nodes[i].has_limits) stbds_arrput(w->tree_lists, i);
	r->lists_end = (int32_t)stbds_arrlen(w->tree_lists);
}

/* Each tree is a run of nodes: its root (no parent), then everything up to the next root. Found when
 * the trees are grown; kept trees keep their runs and lists. */
static void find_ranges(sinew_world *w)
{
	stbds_arrsetlen(w->tree_ranges, 0);
	stbds_arrsetlen(w->tree_lists, 0);
	int32_t count = (int32_t)stbds_arrlen(w->tree_nodes);
	for (int32_t begin = 0, end; begin < count; begin = end) {
		sinew_tree_range r = {0};
		r.begin = end = begin;
		do {
			r.has_limits = r.has_limits || w->tree_nodes[end].has_limits;
			++end;
		} while (end < count && w->tree_nodes[end].parent >= 0);
		r.end = end;
		list_nodes(w, &r);
		for (int32_t i = begin; i < end; ++i) w->tree_nodes[i].tree = (int32_t)stbds_arrlen(w->tree_ranges);
		stbds_arrput(w->tree_ranges, r);
	}
}

void sinew_joint_tree_build(sinew_world *w)
{
	if (grown_from_same(w)) {
		tree_reuse(w);
	} else {
		grow_trees(w);
		mark_point_blocks(w);
		note_growth(w);
		find_ranges(w);
	}
	/* A tree's run, limits and lists kept; every other field starts from zero each step: the mass found
	 * again (a body's may be set between steps), the rest by the passes. */
	int trees = (int)stbds_arrlen(w->tree_ranges);
	for (int t = 0; t < trees; ++t) {
		const sinew_tree_range *r = &w->tree_ranges[t];
		w->tree_ranges[t] = (sinew_tree_range){.begin = r->begin, .end = r->end, .has_limits = r->has_limits, .mass = tree_mass(w, r),
		                                       .bodies = r->bodies, .joints = r->joints, .limits = r->limits, .lists_end = r->lists_end};
	}
	int32_t count = (int32_t)stbds_arrlen(w->tree_nodes);
	stbds_arrsetlen(w->tree_keep, count);
	stbds_arrsetlen(w->tree_turn, 4 * count);
	forget_changed_roles(w);
	sinew_joint_loops_find(w);
	sinew_joint_tree_mark_energy(w);
}

/* The numeric kernels, for one tree (solver/joint_tree_kernel.h; factor_lanes below runs them on
 * several trees at once) */
#define TREE_T double
#define TREE_K(name) name##_1
#define TREE_ZERO 0.0
#define TREE_RECIP0(x) ((x) != 0.0 ? 1.0 / (x) : 0.0)
#include "joint_tree_kernel.h"

static void invert_pivot(sinew_tree_node *n)
{
	switch (n->dim) {
	case 3: invert_1(n->d, 3); return;
	case 2: invert_1(n->d, 2); return;
	case 1: invert_1(n->d, 1); return;
	default: invert_1(n->d, n->dim); return;
	}
}

/* The row's Jacobian with respect to the body in solver slot `slot`. */
static const float *row_part(const sinew_row_constraint *rc, int32_t slot)
{
	return rc->body_a == slot ? rc->row.ja : rc->row.jb;
}

SINEW_TREE_KERNEL void fill_blocks(sinew_world *w, sinew_tree_node *n)
{
	memset(n->d, 0, sizeof n->d); /* n->h: every entry read (within the sizes) is written below */
	if (n->is_body) {
		const sinew_solver_body *b = &w->solver_bodies[n->ref];
		double m = 1.0 / b->inv_mass;
		n->d[0][0] = n->d[1][1] = m;
		/* a body that cannot turn: an inertia so large its turning is nil */
		if (b->inv_inertia > 0.0f) {
			double turn = 1.0 / b->inv_inertia + n->stiffness;
			n->d[2][2] = turn;
			n->inv_turn = 1.0 / turn;
		} else {
			n->d[2][2] = 1e12 * (m + 1.0);
			n->inv_turn = 0.0;
		}
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

/* The parent's pivot less the node's eliminated block, H^T D^-1 H (N the node's size, P its parent's) */
SINEW_TREE_KERNEL void eliminate_block(sinew_tree_node *n, sinew_tree_node *p, const int N, const int P, const bool PT)
{
	eliminate_1(n->d, n->h, p->d, N, P, PT);
}

SINEW_TREE_KERNEL void eliminate_up(sinew_tree_node *n, sinew_tree_node *p, const int N, const int P, const bool PT);

/* eliminate_block and the pass up of common_turn_prepare's solve in one step (the node's pivot just
 * inverted, its right-hand side complete: its children come after it and were eliminated first) */
SINEW_TREE_KERNEL void eliminate_with_turn(sinew_tree_node *n, sinew_tree_node *p, const int N, const int P, const bool PT)
{
	eliminate_block(n, p, N, P, PT);
	eliminate_up(n, p, N, P, PT);
}

/* Whether the node's tree takes the common turn out of its solves (common_turn_prepare). */
static bool turns_together(const sinew_world *w, const sinew_tree_node *n)
{
	return w->tree_ranges[n->tree].turn_sum > 0.0;
}

/* common_turn_prepare's right-hand side, u on the bodies' turns */
static void load_turn(const sinew_world *w, int32_t i)
{
	sinew_tree_node *n = &w->tree_nodes[i];
	n->y[0] = n->y[1] = 0.0;
	n->y[2] = n->is_body ? w->tree_turn[4 * i] : 0.0;
}

static void common_turn_prepare(sinew_world *w, int32_t begin, int32_t end);

/* The factorisation's walk up a range of whole trees, leaves first; a tree with a common turn
 * (common_turn) solves for it in the same walk up (the same operations in the same order as a separate
 * pass up: the same result to the bit) and common_turn_prepare walks down. */
static void factor_walk(sinew_world *w, int32_t begin, int32_t end)
{
	/* parents were created before their children: walking backwards eliminates leaves first */
	for (int32_t i = end - 1; i >= begin; --i) {
		sinew_tree_node *n = &w->tree_nodes[i];
		invert_pivot(n);
		if (n->parent < 0) continue;
		sinew_tree_node *p = &w->tree_nodes[n->parent];
		if (turns_together(w, n)) SINEW_TREE_DISPATCH(eliminate_with_turn, n, p)
		else SINEW_TREE_DISPATCH(eliminate_block, n, p)
	}
}

/* Trees of one shape factored together, one per SIMD lane (issue 14): 2 with SSE2 (any x86-64), 4 with
 * AVX where the CPU has it (the contacts' choice, sinew_contacts_wide_simd). The kernels are
 * joint_tree_kernel.h's, each lane doing a tree's scalar operations in the same order, so every
 * tree's factorisation is the same to the bit as factor_walk's. A group's blocks are gathered from
 * its trees' nodes into the lanes and scattered back around each node's kernel. */
#if defined(__GNUC__)
#define TREE_WIDE 1
typedef double sinew_lane2 __attribute__((vector_size(16)));
typedef int64_t sinew_mask2 __attribute__((vector_size(16)));
static inline sinew_lane2 recip0_2(sinew_lane2 x)
{
	return (sinew_lane2)((sinew_mask2)(1.0 / x) & (x != 0.0)); /* 1 / 0 is masked: no trap is enabled */
}
#define TREE_T sinew_lane2
#define TREE_K(name) name##_2
#define TREE_ZERO ((sinew_lane2){0.0, 0.0})
#define TREE_RECIP0(x) recip0_2(x)
#define TREE_LANES 2
#define TREE_BUILD(at) ((sinew_lane2){at(0), at(1)})
#include "joint_tree_kernel.h"
#else
#define TREE_WIDE 0
#endif

#if TREE_WIDE && !defined(__clang__) && defined(__x86_64__) && defined(__SSE2__)
#define TREE_AVX 1
#pragma GCC push_options
#pragma GCC target("avx")
typedef double sinew_lane4 __attribute__((vector_size(32)));
typedef int64_t sinew_mask4 __attribute__((vector_size(32)));
static inline sinew_lane4 recip0_4(sinew_lane4 x)
{
	return (sinew_lane4)((sinew_mask4)(1.0 / x) & (x != 0.0));
}
#define TREE_T sinew_lane4
#define TREE_K(name) name##_4
#define TREE_ZERO ((sinew_lane4){0.0, 0.0, 0.0, 0.0})
#define TREE_RECIP0(x) recip0_4(x)
#define TREE_LANES 4
#define TREE_BUILD(at) ((sinew_lane4){at(0), at(1), at(2), at(3)})
#include "joint_tree_kernel.h"
#pragma GCC pop_options
#else
#define TREE_AVX 0
#endif

#if TREE_WIDE
/* The node's parent counted from its tree's first node, begin (-1: a root) */
static inline int32_t parent_at(const sinew_tree_node *n, int32_t begin)
{
	return n->parent < 0 ? -1 : n->parent - begin;
}

/* Whether two trees of `size` nodes starting at a and b are factored with the same operations: each
 * node's parent (from its tree's first node), size and point block */
static bool same_shape(const sinew_tree_node *nodes, int32_t a, int32_t b, int32_t size)
{
	for (int32_t i = 0; i < size; ++i) {
		const sinew_tree_node *x = &nodes[a + i], *y = &nodes[b + i];
		if (parent_at(x, a) != parent_at(y, b) || x->dim != y->dim || x->point != y->point) return false;
	}
	return true;
}

/* Trees of one shape waiting for a full group */
typedef struct tree_group {
	int32_t size;
	int count;
	bool turn;
	int32_t begin[4];
} tree_group;

static void factor_group(sinew_world *w, tree_group *g, int lanes)
{
	if (g->count == 1) {
		factor_walk(w, g->begin[0], g->begin[0] + g->size);
		common_turn_prepare(w, g->begin[0], g->begin[0] + g->size);
		return;
	}
	double response[4];
	double *turn = g->turn ? w->tree_turn : NULL;
#if TREE_AVX
	if (lanes == 4) {
		for (int l = g->count; l < 4; ++l) g->begin[l] = g->begin[0]; /* a spare lane repeats the first tree */
		factor_group_4(w->tree_nodes, g->begin, g->size, turn, response);
	} else
#endif
		factor_group_2(w->tree_nodes, g->begin, g->size, turn, response);
	(void)lanes;
	for (int l = 0; l < g->count && g->turn; ++l) {
		sinew_tree_range *r = &w->tree_ranges[w->tree_nodes[g->begin[l]].tree];
		r->turn_den = r->turn_sum - response[l];
	}
}

#define TREE_OPEN_GROUPS 8

static void factor_lanes(sinew_world *w, int32_t begin, int32_t end)
{
	int lanes = TREE_AVX && w->wide_simd != SINEW_WIDE_FOUR ? 4 : 2;
	tree_group open[TREE_OPEN_GROUPS];
	int open_count = 0;
	const sinew_tree_node *nodes = w->tree_nodes;
	for (int32_t b = begin; b < end;) {
		const sinew_tree_range *r = &w->tree_ranges[nodes[b].tree];
		int32_t size = r->end - r->begin;
		bool turn = r->turn_sum > 0.0;
		int g = 0;
		while (g < open_count && !(open[g].size == size && open[g].turn == turn && same_shape(nodes, open[g].begin[0], b, size)))
			++g;
		if (g == open_count) {
			if (open_count == TREE_OPEN_GROUPS) { /* the oldest group goes as it is */
				factor_group(w, &open[0], lanes);
				open[0] = open[--open_count];
				g = open_count;
			}
			open[g] = (tree_group){size, 0, turn, {0}};
			++open_count;
		}
		open[g].begin[open[g].count++] = b;
		if (open[g].count == lanes) {
			factor_group(w, &open[g], lanes);
			open[g] = open[--open_count];
		}
		b = r->end;
	}
	for (int g = 0; g < open_count; ++g) factor_group(w, &open[g], lanes);
}
#endif

/* The factorisation of a range of whole trees */
static void factor_range(sinew_world *w, int32_t begin, int32_t end)
{
	w->loop_pack_fresh = false; /* the loops' copy of the factorisation (joint_loops.c) */
	for (int32_t i = begin; i < end; ++i) {
		fill_blocks(w, &w->tree_nodes[i]);
		w->tree_nodes[i].stale = false;
		if (turns_together(w, &w->tree_nodes[i])) load_turn(w, i);
	}
#if TREE_WIDE
	if (begin < end && w->tree_ranges[w->tree_nodes[begin].tree].end < end) {
		factor_lanes(w, begin, end); /* with common_turn_prepare */
		return;
	}
#endif
	factor_walk(w, begin, end);
	common_turn_prepare(w, begin, end);
}

/* A joint node's block changed (a limit joined or left it): its pivot, the coupling of the body
 * below it (whose rows are the joint's) and the pivot of every node above it no longer hold. */
static void mark_stale(sinew_world *w, int32_t node, int32_t end)
{
	sinew_tree_node *nodes = w->tree_nodes;
	for (int32_t i = node + 1; i < end; ++i) /* the body below: created right after its joint */
		if (nodes[i].parent == node) {
			nodes[i].stale = true;
			break;
		}
	for (int32_t i = node; i >= 0 && !nodes[i].stale; i = nodes[i].parent) nodes[i].stale = true;
}

/* factor_range for the nodes mark_stale marked, the rest of the factorisation kept. A node's pivot
 * depends only on its own blocks and the nodes below it, so the nodes that are not stale (a limb
 * whose joints did not change) keep their inverted pivots and are only eliminated into a stale
 * parent again. The same operations in the same order as factor_range on those nodes, so the same
 * result to the bit; an active-set round of a ragdoll changes one joint, and refactors the path
 * from it to the root instead of the whole figure. */
static void refactor_stale(sinew_world *w, int32_t begin, int32_t end)
{
	w->loop_pack_fresh = false;
	sinew_tree_node *nodes = w->tree_nodes;
	for (int32_t i = begin; i < end; ++i) {
		if (nodes[i].stale) fill_blocks(w, &nodes[i]);
		if (turns_together(w, &nodes[i])) load_turn(w, i);
	}
	for (int32_t i = end - 1; i >= begin; --i) {
		sinew_tree_node *n = &nodes[i];
		if (n->stale) invert_pivot(n);
		n->stale = false; /* its children, after it in the range, are done */
		if (n->parent < 0) continue;
		sinew_tree_node *p = &nodes[n->parent];
		bool turn = turns_together(w, n);
		if (!p->stale) {
			if (turn) SINEW_TREE_DISPATCH(eliminate_up, n, p)
		} else if (turn) {
			SINEW_TREE_DISPATCH(eliminate_with_turn, n, p)
		} else {
			SINEW_TREE_DISPATCH(eliminate_block, n, p)
		}
	}
	common_turn_prepare(w, begin, end);
}

/* A stiffness k on the turning of the body in `slot`, at tree node `node` (-1: in no tree); internal:
 * from a joint to another body of its tree (see common_turn). */
SINEW_TREE_KERNEL void add_stiffness(sinew_world *w, int32_t slot, int32_t node, double k, bool internal)
{
	if (node < 0 || !(k > 0.0)) return;
	sinew_tree_node *n = &w->tree_nodes[node];
	n->stiffness += k;
	sinew_tree_range *r = &w->tree_ranges[n->tree];
	r->stiff = true;
	if (!internal || w->solver_bodies[slot].inv_inertia == 0.0f) return;
	w->tree_turn[4 * node] += k;
	r->turn_sum += k;
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
 * impulses are those of the previous substep. Loop rows too: a loop carries its impulse through the
 * same turning anchors, and without it the loop at the middle pin of a taut bridge grown from both
 * pins (two trees), or where the two halves of a bridge strung under a beam meet, tore apart
 * (tests/test_joint_loops.c). Their stiffness goes to the pivot blocks of both of their bodies, like
 * a tree joint's; loop_apply turns with the same stiffened inertia, so S stays symmetric. */
SINEW_TREE_KERNEL void point_stiffness(sinew_world *w, const sinew_row_constraint *x, const sinew_row_constraint *y, float h)
{
	if (x->row.point != 1 || y->row.point != 2) return;
	double lx = x->impulse, ly = y->impulse;
	double ka = -((double)-y->row.ja[2] * lx + (double)x->row.ja[2] * ly);
	double kb = (double)y->row.jb[2] * lx - (double)x->row.jb[2] * ly;
	int32_t na = x->body_a > 0 ? w->tree_body_node[x->body_a] : -1, nb = x->body_b > 0 ? w->tree_body_node[x->body_b] : -1;
	bool internal = na >= 0 && nb >= 0 && w->tree_nodes[na].tree == w->tree_nodes[nb].tree;
	add_stiffness(w, x->body_a, na, (double)h * fabs(ka), internal);
	add_stiffness(w, x->body_b, nb, (double)h * fabs(kb), internal);
}

static void geometric_stiffness(sinew_world *w, float h)
{
	int trees = (int)stbds_arrlen(w->tree_ranges);
	for (int t = 0; t < trees; ++t) {
		sinew_tree_range *r = &w->tree_ranges[t];
		r->stiff = r->solved = false;
		r->turn_sum = 0.0;
		/* only a body node's are read (fill_blocks, common_turn) */
		for (int32_t q = r->bodies; q < r->joints; ++q) {
			int32_t i = w->tree_lists[q];
			w->tree_nodes[i].stiffness = w->tree_turn[4 * i] = 0.0;
		}
	}
	if (h <= 0.0f) return;
	for (int t = 0; t < trees; ++t) {
		for (int32_t q = w->tree_ranges[t].joints; q < w->tree_ranges[t].limits; ++q) {
			const sinew_tree_node *n = &w->tree_nodes[w->tree_lists[q]];
			for (int r = 0; r + 1 < n->rigid; ++r) point_stiffness(w, &w->joint_rows[n->rows[r]], &w->joint_rows[n->rows[r + 1]], h);
		}
	}
	/* a joint's loop rows are consecutive (collect_loop_rows) */
	int loops = (int)stbds_arrlen(w->loop_rows);
	for (int k = 0; k + 1 < loops; ++k)
		if (w->loop_rows[k + 1] == w->loop_rows[k] + 1) point_stiffness(w, &w->joint_rows[w->loop_rows[k]], &w->joint_rows[w->loop_rows[k + 1]], h);
}

void sinew_joint_tree_factor(sinew_world *w, float h)
{
	geometric_stiffness(w, h);
	/* A limit stays in its block from one substep to the next while it still pushes, like a resting
	 * contact (it is warm started then); one that stopped pushing leaves it, and so does its push. */
	int count = (int)stbds_arrlen(w->tree_nodes), trees = (int)stbds_arrlen(w->tree_ranges);
	for (int t = 0; t < trees; ++t) {
		for (int32_t k = w->tree_ranges[t].limits; k < w->tree_ranges[t].lists_end; ++k) {
			sinew_tree_node *n = &w->tree_nodes[w->tree_lists[k]];
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
	}
	factor_range(w, 0, count);
	sinew_joint_loops_factor(w, h);
}

/* The active set of limits is a linear complementarity problem per tree (a limit in the block pushes,
 * one outside it is not crossed), and its matrix, the limits' Schur complement of a positive
 * definite system, is a P-matrix: Murty's least-index rule, which changes only the first limit in
 * node order that breaks the conditions, cannot cycle on it and ends in a finite number of rounds.
 * Changing every offender at once, as the solver did first, can cycle (two limits of one figure
 * pushing each other in and out) and left limits crossed by up to 14 degrees in one substep. The
 * bound below is a guard against rounding, not a budget: the ragdoll tests never reach it. */
#define SINEW_TREE_MAX_ROUNDS 32

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

/* A row's speed, through sinew_angle_row_speed for a turn alone (a local angle limit, most of a
 * figure's limits; the same speed but for the sign of a zero one). */
static inline float tree_row_speed(const sinew_solver_body *bodies, const sinew_row_constraint *rc)
{
	return rc->row.point == 3 ? sinew_angle_row_speed(bodies, rc) : sinew_row_speed(bodies, rc);
}

/* How a limit outside the block is tested (crossed_limit): crossed now; crossed within the substep at
 * the velocities now (crosses_in_substep); crossed after the position correction found so far. */
typedef enum { SINEW_CROSSED_NOW, SINEW_CROSSES_IN_SUBSTEP, SINEW_CROSSED_AFTER_CORRECTION } sinew_crossing;

static inline bool limit_crossed(const sinew_row_constraint *rc, double along, sinew_crossing test, const sinew_tree_pass *pass);
/* The speed a limit in the block is solved to: with bias, closing the gap within the substep, or
 * leaving a crossed bound softly; without, standing still. */
static double limit_target_speed(const sinew_row_constraint *rc, float h, bool use_bias)
{
	float c = rc->row.c;
	return use_bias && c > 0.0f ? -(double)c / (double)h : 0.0;
}

/* Velocities: the limit would be crossed, or left more slowly than its target speed. The test must
 * agree with the target: a limit added for moving slower than its target must be pushed by the solve
 * (a positive impulse), or it is dropped at once and added again. An open gap may still be closed
 * within the substep. */
static inline bool crosses_in_substep(const sinew_row_constraint *rc, double speed, const sinew_tree_pass *pass)
{
	float c = rc->row.c;
	if (!(c > 0.0f)) return speed < 0.0; /* limit_target_speed: 0 */
	/* -c / h is below 0: no speed from 0 up is below it (the division is only made when it can be) */
	return speed < 0.0 && speed < -(double)c / (double)pass->h;
}

/* The limit's row crossed by the test: `along` is its speed (SINEW_CROSSES_IN_SUBSTEP) or its share of
 * the correction, J dx (SINEW_CROSSED_AFTER_CORRECTION). */
static inline bool limit_crossed(const sinew_row_constraint *rc, double along, sinew_crossing test, const sinew_tree_pass *pass)
{
	switch (test) {
	case SINEW_CROSSED_NOW: return rc->row.c < 0.0f;
	case SINEW_CROSSES_IN_SUBSTEP: return crosses_in_substep(rc, along, pass);
	case SINEW_CROSSED_AFTER_CORRECTION: return (double)rc->row.c + along < 0.0;
	}
	return false;
}

/* Position: the correction found so far (in the body nodes' y) carries the joint past its bound
 * (inline: the limits' scans ask it of every limit outside its block, each round). */
static inline double correction_along(const sinew_world *w, const sinew_row_constraint *rc)
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
/* The first of the joint's limits that the test finds crossed, or -1. A joint's limits are a pair
 * (sinew_rows_limit: lower, then upper), the upper's Jacobian the lower's negated, so its speed and
 * its share of a correction are the lower's negated, exactly (a sum of negated products is the
 * negated sum): measured once for the two (the scans were 9 % of stickman_rain's instructions). */
static inline int32_t crossed_limit(const sinew_world *w, const sinew_tree_node *n, sinew_crossing test, const sinew_tree_pass *pass)
{
	if (n->dim >= 3 || n->limit_row < 0) return -1;
	int32_t lower = n->first_row + n->limit_row;
	const sinew_row_constraint *rc = &w->joint_rows[lower];
	if (rc->eff_mass == 0.0f) return -1; /* the upper's is the same */
	double along = 0.0;
	if (test == SINEW_CROSSES_IN_SUBSTEP) along = (double)tree_row_speed(w->solver_bodies, rc);
	else if (test == SINEW_CROSSED_AFTER_CORRECTION) along = correction_along(w, rc);
	if (limit_crossed(rc, along, test, pass)) return lower;
	if (n->limit_row + 1 < n->row_count && limit_crossed(rc + 1, -along, test, pass)) return lower + 1;
	return -1;
}

/* Rigid rows stand still: their position error is the projection's (sinew_joint_tree_project). */
static double row_rhs(const sinew_world *w, const sinew_row_constraint *rc, bool is_limit, const sinew_tree_pass *pass)
{
	if (pass->position) return (double)rc->row.c;
	double target = is_limit ? limit_target_speed(rc, pass->h, pass->use_bias) : 0.0;
	return (double)tree_row_speed(w->solver_bodies, rc) - target;
}

/* The right-hand side of a joint node: its rows' speeds (less a limit's target), or their C. */
static void load_rhs(const sinew_world *w, sinew_tree_node *n, const sinew_tree_pass *pass)
{
	n->y[0] = n->y[1] = n->y[2] = 0.0;
	if (n->is_body) return;
	int r = 0;
	if (n->point && !pass->position) { /* a point's rows: rigid, standing still */
		n->y[0] = (double)sinew_point_row_speed(w->solver_bodies, &w->joint_rows[n->rows[0]], 0);
		n->y[1] = (double)sinew_point_row_speed(w->solver_bodies, &w->joint_rows[n->rows[1]], 1);
		r = 2;
	}
	for (; r < n->dim; ++r) n->y[r] = row_rhs(w, &w->joint_rows[n->rows[r]], r >= n->rigid, pass);
}

static inline void apply_velocity(sinew_world *w, const sinew_tree_node *n, bool spread)
{
	if (n->is_body) {
		sinew_solver_body *b = &w->solver_bodies[n->ref];
		b->v.x += (float)n->y[0];
		b->v.y += (float)n->y[1];
		if (b->inv_inertia > 0.0f) b->w += (float)n->y[2];
	} else if (!spread) {
		for (int r = 0; r < n->dim; ++r) w->joint_rows[n->rows[r]].impulse += (float)n->y[r];
	}
}

/* The pass up and down with the block sizes known when compiled (N the node's, P its parent's: a
 * body is 3, a joint 1 to 3), so that the small products unroll: the generic loops cost about 340
 * instructions per node and pass, most of the time of a grid of loops (each of its conjugate-gradient
 * products is one pass over the whole tree). */
SINEW_TREE_KERNEL void eliminate_up(sinew_tree_node *n, sinew_tree_node *p, const int N, const int P, const bool PT)
{
	up_1(n->d, n->h, n->y, p->y, N, P, PT);
}

SINEW_TREE_KERNEL void substitute_down(sinew_tree_node *n, sinew_tree_node *p, const int N, const int P, const bool PT)
{
	down_1(n->d, n->h, n->y, p->y, N, P, PT);
}

SINEW_TREE_KERNEL void down_step(sinew_tree_node *n, sinew_tree_node *p)
{
	if (p == NULL) { /* a root: no coupling */
		switch (n->dim) {
		case 3: substitute_down(n, n, 3, 0, false); return;
		case 2: substitute_down(n, n, 2, 0, false); return;
		default: substitute_down(n, n, n->dim, 0, false); return;
		}
	}
	SINEW_TREE_DISPATCH(substitute_down, n, p)
}

/* Up and down one factored tree whose right-hand sides are in y; the answer replaces y. With `turn`,
 * returns u . y over the bodies' turns (common_turn), summed in node order as the pass down finds
 * them. */
static double solve_loaded(sinew_world *w, int32_t begin, int32_t end, bool turn)
{
	sinew_tree_node *nodes = w->tree_nodes;
	for (int32_t i = end - 1; i > begin; --i) {
		sinew_tree_node *n = &nodes[i];
		if (n->parent < 0) continue;
		sinew_tree_node *p = &nodes[n->parent];
		SINEW_TREE_DISPATCH(eliminate_up, n, p)
	}
	double along = 0.0;
	for (int32_t i = begin; i < end; ++i) {
		sinew_tree_node *n = &nodes[i];
		down_step(n, n->parent >= 0 ? &nodes[n->parent] : NULL);
		if (turn && n->is_body) along += w->tree_turn[4 * i] * n->y[2];
	}
	return along;
}

/* The common turn. The geometric stiffness on each body's turning (geometric_stiffness) also resists
 * all the tree's bodies turning together, which the tension inside the tree cannot: a joint's pair of
 * impulses has no moment, however the pair turns. So the tree's matrix takes, from the stiffness of
 * its internal joints (a diagonal U on the turns, summing to s), its part along a common turn:
 * K = K0 - u u^T / s, u = U 1, which leaves every turn but the common one as stiff as before and
 * the common turn as free as the bodies' own inertia, and makes the stiffness's torques sum to
 * zero: the solve no longer takes angular momentum out of the tree or puts it in. With the rank-one
 * change solved by Sherman and Morrison, K^-1 b = K0^-1 b + z (u . K0^-1 b) / (s - u . z), z = K0^-1 u:
 * z is found once per factorisation (common_turn_prepare), one more pass through the tree, and each
 * solve adds its multiple (common_turn). Measured on a taut bridge strung under a beam that hangs
 * from one pin (taut_bridge_under_a_rocking_beam_holds, tests/test_joint_loops.c): without it the
 * stiffness turned the whole frame, 1900 kg m^2/s of angular momentum in its first six steps on the
 * crates, and threw the crates. Stiffness from joints to anything fixed, or between trees, stays as
 * it is: turning against those is resisted. The sum u . y is taken in the pass down (solve_loaded),
 * and the multiple of z added in the walk that applies the answer. */
static bool has_common_turn(const sinew_world *w, int32_t begin)
{
	const sinew_tree_range *r = &w->tree_ranges[w->tree_nodes[begin].tree];
	return r->turn_sum > 0.0 && r->turn_den > 0.0;
}

/* The solve's multiple of z, from u . y (solve_loaded's `along`, summed as the pass down went). */
static double common_turn_multiple(const sinew_world *w, int32_t begin, double along)
{
	return along / w->tree_ranges[w->tree_nodes[begin].tree].turn_den;
}

static inline void common_turn(sinew_world *w, int32_t i, double a)
{
	const double *z = &w->tree_turn[4 * i + 1];
	double z0 = z[0], z1 = z[1], z2 = z[2]; /* read before y is written: the two may not alias */
	double *y = w->tree_nodes[i].y;
	y[0] += a * z0;
	y[1] += a * z1;
	y[2] += a * z2;
}

/* z = K0^-1 u for each tree of the range with a common turn, just factored (see common_turn): its pass
 * up was made with the factorisation (factor_range, refactor_stale); the nodes' y are scratch. */
static void common_turn_prepare(sinew_world *w, int32_t begin, int32_t end)
{
	for (int32_t b = begin; b < end; b = w->tree_ranges[w->tree_nodes[b].tree].end) {
		sinew_tree_range *r = &w->tree_ranges[w->tree_nodes[b].tree];
		if (!(r->turn_sum > 0.0)) continue;
		sinew_tree_node *nodes = w->tree_nodes;
		double response = 0.0;
		for (int32_t i = r->begin; i < r->end; ++i) {
			sinew_tree_node *n = &nodes[i];
			down_step(n, n->parent >= 0 ? &nodes[n->parent] : NULL);
			double y0 = n->y[0], y1 = n->y[1], y2 = n->y[2]; /* read before tree_turn is written */
			if (n->is_body) response += w->tree_turn[4 * i] * y2;
			w->tree_turn[4 * i + 1] = y0;
			w->tree_turn[4 * i + 2] = y1;
			w->tree_turn[4 * i + 3] = y2;
		}
		r->turn_den = r->turn_sum - response;
	}
}

/* Up and down one factored tree; the answer replaces y. A velocity solve changes the bodies'
 * velocities and the rows' impulses after the pass, in the same walk as the common turn. */
void sinew_tree_solve_range(sinew_world *w, int32_t begin, int32_t end, const sinew_tree_pass *pass)
{
	for (int32_t i = begin; i < end; ++i) load_rhs(w, &w->tree_nodes[i], pass);
	bool turn = has_common_turn(w, begin);
	double along = solve_loaded(w, begin, end, turn);
	if (pass->position) {
		if (!turn) return;
		double a = common_turn_multiple(w, begin, along);
		for (int32_t i = begin; i < end; ++i) common_turn(w, i, a);
		return;
	}
	if (turn) {
		double a = common_turn_multiple(w, begin, along);
		for (int32_t i = begin; i < end; ++i) {
			common_turn(w, i, a);
			apply_velocity(w, &w->tree_nodes[i], pass->spread);
		}
	} else {
		for (int32_t i = begin; i < end; ++i) apply_velocity(w, &w->tree_nodes[i], pass->spread);
	}
}

/* M dv - J^T lambda = f, J dv = 0 through one factored tree: the body nodes' y hold f on entry
 * (the joint nodes' are cleared here), dv replaces them. */
void sinew_tree_spread_range(sinew_world *w, int32_t begin, int32_t end)
{
	for (int32_t i = begin; i < end; ++i) {
		sinew_tree_node *n = &w->tree_nodes[i];
		if (!n->is_body) n->y[0] = n->y[1] = n->y[2] = 0.0;
	}
	bool turn = has_common_turn(w, begin);
	double along = solve_loaded(w, begin, end, turn);
	if (!turn) return;
	double a = common_turn_multiple(w, begin, along);
	for (int32_t i = begin; i < end; ++i) common_turn(w, i, a);
}

double sinew_tree_correction_along(const sinew_world *w, const sinew_row_constraint *rc)
{
	return correction_along(w, rc);
}

/* Position: the block of every joint starts as the velocity passes left it, a joint with no limit in
 * it taking the limit it crosses now, if any (the rounds of settle_limits reach the same answer from
 * any start: the limits' problem has a unique solution, below; from the velocity passes' they are
 * fewest, and the factorisation is kept more often). Returns whether any block changed (else the
 * factorisation of the velocity passes, which the last change of their active set left, still holds). */
static bool start_position_limits(sinew_world *w, const sinew_tree_range *r, const sinew_tree_pass *pass)
{
	bool changed = false;
	for (int32_t k = r->limits; k < r->lists_end; ++k) {
		int32_t i = w->tree_lists[k];
		sinew_tree_node *n = &w->tree_nodes[i];
		if (n->dim > n->rigid) continue;
		int32_t ri = crossed_limit(w, n, SINEW_CROSSED_NOW, pass);
		if (ri < 0) continue;
		add_limit(w, n, ri);
		mark_stale(w, i, r->end);
		changed = true;
	}
	return changed;
}

/* One change of a tree's active set, the first in node order: a limit in the block that pulls lets
 * go (in a velocity pass its push is taken back too); else a limit outside it joins when the
 * velocities would carry the joint past its bound within the substep, or the position correction
 * found so far would. Returns whether anything changed. */
static bool flip_limit(sinew_world *w, const sinew_tree_range *r, const sinew_tree_pass *pass)
{
	sinew_crossing crosses = pass->position ? SINEW_CROSSED_AFTER_CORRECTION : SINEW_CROSSES_IN_SUBSTEP;
	int32_t end = r->end;
	for (int32_t k = r->limits; k < r->lists_end; ++k) {
		int32_t i = w->tree_lists[k];
		sinew_tree_node *n = &w->tree_nodes[i];
		if (n->dim > n->rigid) {
			sinew_row_constraint *rc = &w->joint_rows[n->rows[n->dim - 1]];
			if (pass->position ? n->y[n->dim - 1] >= 0.0 : rc->impulse >= 0.0f) continue;
			if (!pass->position) {
				/* a non-finite impulse (a solve the fall-back puts back, sinew_joint_tree_solve)
				 * would make the velocity of a fixed end NaN (0 times infinity) */
				if (isfinite(rc->impulse)) sinew_row_apply(w->solver_bodies, rc, -rc->impulse);
				rc->impulse = 0.0f;
			}
			drop_limit(w, n);
			mark_stale(w, i, end);
			return true;
		}
		int32_t ri = crossed_limit(w, n, crosses, pass);
		if (ri < 0) continue;
		add_limit(w, n, ri);
		mark_stale(w, i, end);
		return true;
	}
	return false;
}

/* Change the active set one limit at a time, factoring and solving the tree again after each,
 * until it holds (see SINEW_TREE_MAX_ROUNDS). */
static bool settle_limits(sinew_world *w, const sinew_tree_range *r, const sinew_tree_pass *pass)
{
	for (int round = 0; round < SINEW_TREE_MAX_ROUNDS; ++round) {
		if (!flip_limit(w, r, pass)) return true;
		refactor_stale(w, r->begin, r->end);
		sinew_tree_solve_range(w, r->begin, r->end, pass);
	}
	return false;
}






/* Kinetic energy of a body with velocity (v, w). */
static double kinetic(const sinew_solver_body *b, double vx, double vy, double w)
{
	double k = b->inv_mass > 0.0f ? 0.5 * (vx * vx + vy * vy) / b->inv_mass : 0.0;
	return k + (b->inv_inertia > 0.0f ? 0.5 * w * w / b->inv_inertia : 0.0);
}

static void velocity_into(float out[3], const sinew_solver_body *b)
{
	out[0] = b->v.x;
	out[1] = b->v.y;
	out[2] = b->w;
}

/* The tree's state before a velocity solve (sinew_tree_keep); returns its kinetic energy. */
double sinew_tree_keep_state(sinew_world *w, const sinew_tree_range *r)
{
	double e = 0.0;
	for (int32_t i = r->begin; i < r->end; ++i) {
		const sinew_tree_node *n = &w->tree_nodes[i];
		sinew_tree_keep *k = &w->tree_keep[i];
		if (n->is_body) {
			const sinew_solver_body *b = &w->solver_bodies[n->ref];
			velocity_into(k->value, b);
			e += kinetic(b, b->v.x, b->v.y, b->w);
			continue;
		}
		k->dim = n->dim;
		k->limit = n->dim > n->rigid ? n->rows[n->dim - 1] : -1;
		for (int r2 = 0; r2 < n->dim; ++r2) k->value[r2] = w->joint_rows[n->rows[r2]].impulse;
	}
	return e;
}

/* Back to the state sinew_tree_keep_state saw: velocities, active sets and impulses (a limit outside
 * its block carries no impulse in the velocity passes); factored again if an active set changed. */
static void restore_tree(sinew_world *w, const sinew_tree_range *r)
{
	bool changed = false;
	for (int32_t i = r->begin; i < r->end; ++i) {
		sinew_tree_node *n = &w->tree_nodes[i];
		const sinew_tree_keep *k = &w->tree_keep[i];
		if (n->is_body) {
			sinew_solver_body *b = &w->solver_bodies[n->ref];
			b->v = sinew_v2(k->value[0], k->value[1]);
			b->w = k->value[2];
			continue;
		}
		for (int r2 = 0; r2 < n->row_count; ++r2) {
			sinew_row_constraint *rc = &w->joint_rows[n->first_row + r2];
			if (!rc->tree_owned) continue;
			rc->in_tree = false;
			rc->impulse = 0.0f;
		}
		changed = changed || n->dim != k->dim || (n->dim > n->rigid && n->rows[n->dim - 1] != k->limit);
		n->dim = n->rigid;
		if (k->limit >= 0) add_limit(w, n, k->limit);
		for (int r2 = 0; r2 < n->dim; ++r2) w->joint_rows[n->rows[r2]].impulse = k->value[r2];
	}
	if (changed) factor_range(w, r->begin, r->end);
}

/* The fastest a kinematic body jointed to the tree could carry a point of the tree: the speed of its
 * anchor plus its spin times the length of the tree (the sum of its bodies' diameters: how far a
 * point of the tree can be from that anchor along its joints, the tree turning with the kinematic
 * body through its limits). The most it can drive the tree's speed up by in one solve. */
double sinew_tree_drive(const sinew_world *w, const sinew_tree_range *r)
{
	double u = 0.0, length = 0.0;
	for (int32_t q = r->bodies; q < r->joints; ++q)
		length += 2.0 * (double)w->bodies[w->awake_bodies[w->tree_nodes[w->tree_lists[q]].ref]].max_extent;
	for (int32_t q = r->bodies; q < r->joints; ++q) {
		const sinew_tree_node *n = &w->tree_nodes[w->tree_lists[q]];
		int32_t bi = w->awake_bodies[n->ref];
		for (int32_t ji = w->bodies[bi].joint_list; ji != SINEW_NULL_INDEX;) {
			const sinew_joint *j = &w->joints[ji];
			int e = sinew_joint_edge_of(j, bi);
			int32_t other = j->edges[e ^ 1].body;
			ji = j->edges[e].next;
			int32_t slot = other == SINEW_NULL_INDEX ? 0 : w->bodies[other].solver_index;
			if (slot <= 0 || w->solver_bodies[slot].inv_mass > 0.0f) continue;
			const sinew_solver_body *k = &w->solver_bodies[slot];
			sinew_joint_frame f = sinew_joint_current_frame(w, j);
			sinew_vec2 anchor = sinew_add(k->v, sinew_cross_sv(k->w, e == 0 ? f.r_b : f.r_a));
			u = fmax(u, (double)sinew_length(anchor) + fabs((double)k->w) * length);
		}
	}
	return u;
}

/* How fast gravity moves a body in one substep of length h, m/s. */
double sinew_gravity_step(const sinew_world *w, float h)
{
	return sqrt((double)w->gravity.x * w->gravity.x + (double)w->gravity.y * w->gravity.y) * (double)h;
}

double sinew_tree_kinetic(const sinew_world *w, const sinew_tree_range *r)
{
	double e = 0.0;
	for (int32_t q = r->bodies; q < r->joints; ++q) {
		const sinew_solver_body *b = &w->solver_bodies[w->tree_nodes[w->tree_lists[q]].ref];
		e += kinetic(b, b->v.x, b->v.y, b->w);
	}
	return e;
}

/* The most kinetic energy an exact velocity solve can leave the tree with, from e0 before it. Without
 * geometric stiffness it projects the velocities onto the rows in the mass metric: that takes energy
 * away, and adds only what jointed kinematic bodies drive (sinew_tree_drive) and the gravity of the
 * substep. The bound: twice the energy of all the tree's mass moving at its root-mean-square speed
 * plus those two; at least twice e0 plus the substep's gravity (the cheap test, passed by every
 * ordinary solve). */
double sinew_tree_energy_bound(const sinew_world *w, const sinew_tree_range *r, double e0, float h, bool full)
{
	double mass = r->mass;
	double gh = sinew_gravity_step(w, h);
	double bound = 2.0 * e0 + mass * gh * gh;
	if (!full) return bound;
	double speed = sqrt(2.0 * e0 / mass) + gh + sinew_tree_drive(w, r);
	return fmax(bound, mass * speed * speed);
}

#define SINEW_TREE_ENERGY_ROUNDING 1e-6

void sinew_tree_add_spread(sinew_world *w, const sinew_tree_range *r, double share)
{
	for (int32_t i = r->begin; i < r->end; ++i) {
		const sinew_tree_node *n = &w->tree_nodes[i];
		if (!n->is_body) {
			for (int q = 0; q < n->dim; ++q) w->joint_rows[n->rows[q]].impulse += (float)(share * n->y[q]);
			continue;
		}
		sinew_solver_body *b = &w->solver_bodies[n->ref];
		b->v.x += (float)(share * n->y[0]);
		b->v.y += (float)(share * n->y[1]);
		if (b->inv_inertia > 0.0f) b->w += (float)(share * n->y[2]);
	}
}

/* After a velocity solve, the tree's kinetic energy, with each body's velocity noted in its node and
 * whether a limit in a block closes an open gap with bias (what record_solve keeps, sinew_tree_kinetic
 * and the notes in one walk over the tree). */
static double note_answer(sinew_world *w, sinew_tree_range *r, bool use_bias)
{
	double e = 0.0;
	bool to_close = false;
	for (int32_t q = r->bodies; q < r->joints; ++q) {
		sinew_tree_node *n = &w->tree_nodes[w->tree_lists[q]];
		const sinew_solver_body *b = &w->solver_bodies[n->ref];
		velocity_into(n->solved, b);
		e += kinetic(b, b->v.x, b->v.y, b->w);
	}
	for (int32_t q = r->limits; use_bias && q < r->lists_end; ++q) {
		const sinew_tree_node *n = &w->tree_nodes[w->tree_lists[q]];
		if (n->dim > n->rigid) to_close = to_close || w->joint_rows[n->rows[n->dim - 1]].row.c > 0.0f;
	}
	r->noted_to_close = to_close;
	return e;
}

/* Could the solve that took the tree from kinetic energy e0 to its energy now be right (a non-finite
 * velocity is not)? Its answer is noted on the way (record_solve keeps it when it was right and
 * settled). */
static bool energy_plausible(sinew_world *w, sinew_tree_range *r, double e0, float h, bool use_bias, double *e_out)
{
	double e = note_answer(w, r, use_bias);
	*e_out = e;
	if (!isfinite(e)) return false;
	return e <= sinew_tree_energy_bound(w, r, e0, h, false) || e <= sinew_tree_energy_bound(w, r, e0, h, true);
}

/* A solve with geometric stiffness left the tree (from kinetic energy e0 to e, which energy_plausible
 * measured: the same sum sinew_tree_kinetic makes, not walked again) with no more kinetic energy than
 * it had, as an exact solve without it would (a projection onto the rows, which only takes energy
 * away), unless a jointed kinematic body drives the tree. */
static bool kept_energy(const sinew_world *w, const sinew_tree_range *r, double e0, double e, float h)
{
	double gh = sinew_gravity_step(w, h);
	return e <= e0 * (1.0 + SINEW_TREE_ENERGY_ROUNDING) + SINEW_TREE_ENERGY_ROUNDING * r->mass * gh * gh || sinew_tree_drive(w, r) > 0.0;
}

/* A solve with stiffness that raised the tree's kinetic energy (from e0) is moved towards the solve of
 * the implicit step proper, (M + K) v' = M v + J^T lambda, whose answer cannot have more energy than v
 * had in the bodies' own metric (|v'|_M <= |v'|_(M+K) <= |(M+K)^-1 M v|_(M+K) <= |v|_M, K being
 * positive semi-definite): the two differ by the spread of the torques -K v through the tree
 * (sinew_tree_spread_range, the same factorisation), so the least share of it that brings the energy
 * back to e0 is added, to the velocities and to the rows' impulses. That share damps the turns the
 * stiffness resists, by as little as keeping the energy needs. Returns false if no share will do (a
 * limit's or a crossing's target made the difference): the caller solves without stiffness. */
static bool damp_to_energy(sinew_world *w, sinew_tree_range *r, double e0, bool use_bias)
{
	double common = 0.0;
	for (int32_t q = r->bodies; q < r->joints; ++q) {
		int32_t i = w->tree_lists[q];
		common += w->tree_turn[4 * i] * (double)w->tree_keep[i].value[2];
	}
	common = r->turn_sum > 0.0 ? common / r->turn_sum : 0.0;
	for (int32_t i = r->begin; i < r->end; ++i) {
		sinew_tree_node *n = &w->tree_nodes[i];
		n->y[0] = n->y[1] = n->y[2] = 0.0;
		if (n->is_body) n->y[2] = -(n->stiffness * (double)w->tree_keep[i].value[2] - w->tree_turn[4 * i] * common);
	}
	sinew_tree_spread_range(w, r->begin, r->end);
	double e1 = 0.0, cross = 0.0, square = 0.0;
	for (int32_t q = r->bodies; q < r->joints; ++q) {
		const sinew_tree_node *n = &w->tree_nodes[w->tree_lists[q]];
		const sinew_solver_body *b = &w->solver_bodies[n->ref];
		double dw = b->inv_inertia > 0.0f ? n->y[2] : 0.0;
		e1 += kinetic(b, b->v.x, b->v.y, b->w);
		cross += ((double)b->v.x * n->y[0] + (double)b->v.y * n->y[1]) / (double)b->inv_mass;
		if (b->inv_inertia > 0.0f) cross += (double)b->w * dw / (double)b->inv_inertia;
		square += kinetic(b, n->y[0], n->y[1], dw);
	}
	/* e1 + a cross + a^2 square <= e0, the least a */
	double disc = cross * cross - 4.0 * square * (e1 - e0);
	if (!(square > 0.0) || !(cross < 0.0) || !(disc >= 0.0)) return false;
	double a = (-cross - sqrt(disc)) / (2.0 * square);
	if (!(a >= 0.0 && a <= 1.0)) return false;
	sinew_tree_add_spread(w, r, a);
	note_answer(w, r, use_bias); /* what record_solve keeps */
	return true;
}

/* The tree's geometric stiffness dropped for the rest of the substep: factored again without it. */
static void drop_stiffness(sinew_world *w, sinew_tree_range *r)
{
	for (int32_t i = r->begin; i < r->end; ++i) w->tree_nodes[i].stiffness = w->tree_turn[4 * i] = 0.0;
	r->turn_sum = 0.0;
	r->stiff = false;
	factor_range(w, r->begin, r->end);
}

/* Returns whether the active set of its limits settled. */
static bool solve_tree(sinew_world *w, const sinew_tree_range *r, const sinew_tree_pass *pass)
{
	sinew_tree_solve_range(w, r->begin, r->end, pass);
	return !r->has_limits || settle_limits(w, r, pass);
}

/* A relax pass solves the same problem as the biased pass before it, but for a limit in a block that
 * closes an open gap (its target speed is -c / h with bias, 0 without): a tree whose bodies nothing
 * touched since its last solve in the substep (no contact, soft row, loop row or speed clamp changed
 * their velocities by a bit) is still solved, every rigid row and limit of it holds, and solving it
 * again only moves its velocities by rounding. note_answer notes the answer, record_solve keeps it, untouched_since_solve
 * tells whether it still stands. Not for a tree that loop rows solved exactly reach (on the
 * conjugate-gradient path it is, see solve_trees): their solve after the trees
 * targets 0 in a relax pass (-c / h with bias), and a skip there (the loop solve's share was 0)
 * moved the taut bridge's crates' rest speed at 10 s from 0.41 to 1.54 cm/s (test_joint_loops):
 * a figure that one solve's rounding in 600 steps changes that much. On stickman_rain (300 steps)
 * the skips save 10 % of the step's instructions, on chain100 19 % (docs/benchmarks.md). */
static void record_solve(sinew_tree_range *r)
{
	r->solved = true;
	r->solved_to_close = r->noted_to_close;
}

static bool untouched_since_solve(const sinew_world *w, const sinew_tree_range *r)
{
	if (!r->solved || r->solved_to_close || (r->has_loops && !w->loops_iterative)) return false;
	for (int32_t q = r->bodies; q < r->joints; ++q) {
		const sinew_tree_node *n = &w->tree_nodes[w->tree_lists[q]];
		const sinew_solver_body *b = &w->solver_bodies[n->ref];
		/* != also answers true for a NaN: such a tree is solved (and put back) again */
		if (b->v.x != n->solved[0] || b->v.y != n->solved[1] || b->w != n->solved[2]) return false;
	}
	return true;
}

/* Whether a solve of a tree that exactly solved loops reach changed its active set of limits (from
 * what sinew_tree_keep_state noted): S was factored with the old one (see solve_trees). */
static bool loop_limits_changed(const sinew_world *w, const sinew_tree_range *r)
{
	if (!r->has_loops || !r->has_limits || w->loops_iterative) return false;
	/* only a joint with limits changes its block (its rigid rows plus at most one limit) */
	for (int32_t q = r->limits; q < r->lists_end; ++q) {
		int32_t i = w->tree_lists[q];
		const sinew_tree_node *n = &w->tree_nodes[i];
		const sinew_tree_keep *k = &w->tree_keep[i];
		if (n->dim != k->dim || (n->dim > n->rigid ? n->rows[n->dim - 1] : -1) != k->limit) return true;
	}
	return false;
}

/* Each tree, then the loops through them. The fall-back: geometric stiffness is made of the last
 * substep's impulses, and it feeds on them. When a kinematic body cranks a tree that is pinned to a
 * static one, the impulses are huge, the stiffness they make freezes the turning of the bodies, the
 * rows then ask for larger impulses still, and the next substep's stiffness is larger again: on
 * random switching of ragdoll parts between static, kinematic and dynamic, stiffness reached 10^8
 * times a body's inertia, impulses 10^14 N s, then NaN (test_joint_stress). A tree whose solve with
 * stiffness leaves it with more kinetic energy than an exact solve could give it (energy_plausible)
 * is put back as it was, factored without stiffness and solved again; it stays without stiffness for
 * the rest of the substep (the loops through it are factored again too, as after a solve that
 * changed the active set of limits of a tree exactly solved loops reach: loop_limits_changed). A solve without stiffness
 * that still fails the test (a tree whose rows conflict, or a non-finite answer) is put back and the
 * tree left unsolved in that pass: its joints stretch, and the projection pulls them in. */
static void solve_trees(sinew_world *w, float h, bool use_bias, bool presolve_only)
{
	sinew_tree_pass pass = {h, use_bias, false, false};
	int trees = (int)stbds_arrlen(w->tree_ranges);
	bool loops_changed = false, loops = !presolve_only;
	if (use_bias && !presolve_only) sinew_joint_loops_damp(w);
	for (int t = 0; t < trees; ++t) {
		sinew_tree_range *r = &w->tree_ranges[t];
		if (presolve_only && !r->presolve) continue;
		loops = loops || r->has_loops;
		if (!use_bias && untouched_since_solve(w, r)) continue;
		r->solved = false;
		double e0 = sinew_tree_keep_state(w, r);
		bool settled = solve_tree(w, r, &pass);
		double e;
		if (energy_plausible(w, r, e0, h, use_bias, &e) && (!r->stiff || kept_energy(w, r, e0, e, h) || damp_to_energy(w, r, e0, use_bias))) {
			if (settled) record_solve(r);
			loops_changed = loops_changed || loop_limits_changed(w, r);
			continue;
		}
		restore_tree(w, r);
		if (!r->stiff) continue;
		drop_stiffness(w, r);
		loops_changed = loops_changed || r->has_loops;
		settled = solve_tree(w, r, &pass);
		if (!energy_plausible(w, r, e0, h, use_bias, &e)) restore_tree(w, r);
		else if (settled) record_solve(r);
	}
	if (loops_changed) sinew_joint_loops_factor(w, h);
	if (!loops) return;
	sinew_joint_loops_solve(w, &pass);
	/* Loop rows solved by conjugate gradients: their impulses, spread through the trees, keep every
	 * tree row standing still, so what they leave is the trees' answer, and a relax pass skips a tree
	 * that nothing touched since (joint_grid: both relax passes of every tree). */
	if (!w->loops_iterative) return;
	for (int t = 0; t < trees; ++t) {
		sinew_tree_range *r = &w->tree_ranges[t];
		if (!r->has_loops || !r->solved) continue;
		for (int32_t q = r->bodies; q < r->joints; ++q) {
			sinew_tree_node *n = &w->tree_nodes[w->tree_lists[q]];
			velocity_into(n->solved, &w->solver_bodies[n->ref]);
		}
	}
}

void sinew_joint_tree_solve(sinew_world *w, float h, bool use_bias)
{
	solve_trees(w, h, use_bias, false);
}

/* The trees that contacts touch, solved once after the warm start, before the first contact pass.
 * Tree impulses are not warm started (their matrix carries geometric stiffness), so after the warm
 * start a jointed body moves as its contacts' stored impulses alone push it, without the joint
 * impulses that balanced them: the bones of a ragdoll lying on the ground move at several cm/s each
 * way. The first contact pass answered those speeds, its friction clamped by each point's own cone,
 * and the tree pass after it spread what friction did over the figure as a net push; the relax
 * passes pushed back about as much, but they run after the positions are integrated, so the figure
 * slid. Measured with a per-pass trace of the figure's momentum: a lone ragdoll on flat ground crept
 * at 1.8 mm/s for ever, and whole figures of a heap slid at 1-7 cm/s with sleep off (the fastest
 * bone from 10 to 11 s: 4.6 cm/s; 0.04 cm/s now, ragdoll_heap_comes_to_rest in tests/test_rest.c).
 * Solved here, the contacts see the joints' answer to their warm start.
 * Left out (sinew_joint_tree_mark_presolve):
 * - trees no contact touches: their passes are unchanged, so contact-free chains and figures move
 *   exactly as before;
 * - trees with loops, unless a free body's contact pushes them through their response (responds):
 *   with the crates' contacts on the planks' own masses, a second biased loop solve per substep
 *   threw the crates of the taut bridge (test_joint_loops) off it at 51 m/s, and the trees alone,
 *   without their loops, are the wrong answer (an open chain for a bridge: the crates thrown at
 *   61 m/s). With the response, presolved: the crates 5.8 -> 2.2 mm deep, 0.23 -> 0.01 cm/s at
 *   10 s. Presolving every loop tree a contact touches threw a part of random_body_types_stay_finite
 *   (test_joint_stress, seed 4) at 400 m/s;
 * - trees with a body whose radius of gyration is under a tenth of its size (a turning inertia no
 *   shape gives, set by the user): a contact's stored impulse turns such a body at hundreds of rad/s
 *   (a 1000 kg hip of 0.001 kg m^2 at 0.1 m: 800 rad/s), which its own contact takes back at once
 *   in the contact pass, but which the tree, answering first, spread through the figure: in
 *   heavy_hips_stay_finite (test_joint_stress) the fastest turn rose from 290 to 1464 rad/s, the
 *   energy fall-back fired thousands of times and the worst joint separation went from 1.1 cm to
 *   84 cm;
 * - trees a moving kinematic body is jointed to (sinew_tree_drive): a light part crushed between a
 *   kinematic part and the ground carries a large stored contact impulse, its warm start threw a
 *   29 g hand at 540 m/s, and the tree answering first spread that through the figure, whose parts
 *   the contact passes could then no longer take back (on random body-type switching, seed 1 of
 *   random_body_types_stay_finite: bodies at up to 282 m/s after the presolve). Such a figure is
 *   driven, not at rest. */
void sinew_joint_tree_presolve(sinew_world *w, float h)
{
	solve_trees(w, h, true, true);
}

/* A body's potential energy in gravity. */
static double potential(const sinew_world *w, int32_t slot)
{
	const sinew_solver_body *b = &w->solver_bodies[slot];
	const sinew_body *body = &w->bodies[w->awake_bodies[slot]];
	sinew_vec2 c = sinew_add(body->center0, b->dp);
	double gx = (double)body->gravity_scale * w->gravity.x, gy = (double)body->gravity_scale * w->gravity.y;
	return -(gx * c.x + gy * c.y) / (double)b->inv_mass;
}

/* The ceiling on a tree's energy (see correction_share). The energy of the tree at the start of the
 * substep made a ratchet: the integrator's energy swings about its true value, every upward swing
 * was clipped and every downward one kept, so a frictionless double pendulum kept only 72 % of its
 * energy over 60 s (test_joint_energy). So the ceiling is remembered from step to step, on the
 * tree's first body: the highest energy the tree had, raised at once by work done on it (contacts,
 * motors, a user's push), and each step brought SINEW_TREE_ENERGY_FORGET of the way down to the
 * energy the tree has now, and never more than SINEW_TREE_ENERGY_SWING of its kinetic energy above
 * it (a figure stopped or moved by the user does not keep a ceiling far above what it has). A tree
 * whose first body changed, or that was not stepped last step, starts from its energy now. What is
 * kept is how far the ceiling lay above the energy, not the ceiling itself: potential energy depends
 * on where the origin is, so an absolute ceiling would make sinew_world_shift_origin change the
 * motion (test_origin). Measured:
 * the double pendulum keeps 91.8 % over 60 s, its energy never more than 0.034 % above the start;
 * the heavy chain 86.5 % over 20 s, 0.0025 %. */
#define SINEW_TREE_ENERGY_FORGET 0.01
#define SINEW_TREE_ENERGY_SWING 0.05

static sinew_body *tree_first_body(sinew_world *w, const sinew_tree_range *r)
{
	return &w->bodies[w->awake_bodies[w->tree_nodes[w->tree_lists[r->bodies]].ref]];
}

void sinew_joint_tree_mark_energy(sinew_world *w)
{
	int trees = (int)stbds_arrlen(w->tree_ranges);
	for (int t = 0; t < trees; ++t) {
		sinew_tree_range *r = &w->tree_ranges[t];
		double e = 0.0, k = 0.0;
		for (int32_t q = r->bodies; q < r->joints; ++q) {
			const sinew_tree_node *n = &w->tree_nodes[w->tree_lists[q]];
			const sinew_solver_body *b = &w->solver_bodies[n->ref];
			double kn = kinetic(b, b->v.x, b->v.y, b->w);
			k += kn;
			e += kn + potential(w, n->ref);
		}
		r->energy = e;
		const sinew_body *first = tree_first_body(w, r);
		if (first->tree_energy_step == w->step_index && first->tree_energy > 0.0)
			r->energy = e + fmin((1.0 - SINEW_TREE_ENERGY_FORGET) * first->tree_energy, SINEW_TREE_ENERGY_SWING * k);
	}
}

/* How much of the velocity a position correction implies (dx / h, in the body nodes' y) the tree
 * takes: all of it, unless that would leave the tree with more energy than its ceiling (about the
 * most it had lately, sinew_joint_tree_mark_energy); then the largest share that does not (none if
 * the substep added energy already).
 * None either while a body turns faster than SINEW_TREE_MAX_TURN radians per substep: the
 * correction is one linear step, and at such turns (the crack of a whip) its velocity is a poor
 * guess that measured tore the heavy chain by 1.6 cm; the projection alone only loses energy. */
#define SINEW_TREE_MAX_TURN 0.1

/* What correction_share weighs, summed over the tree's bodies in the walk that moves them (one walk
 * instead of one to move them and one to sum; each sum in the same order as before, so the same
 * share to the bit). */
typedef struct sinew_share_sums {
	double k0, cross, square, p;
	bool fast; /* a body turns faster than SINEW_TREE_MAX_TURN per substep */
} sinew_share_sums;

static void add_share_sums(sinew_share_sums *s, const sinew_solver_body *b, const sinew_tree_node *n, double inv_h)
{
	if (fabs((double)b->w) > SINEW_TREE_MAX_TURN * inv_h) s->fast = true;
	double dvx = inv_h * n->y[0], dvy = inv_h * n->y[1], dw = b->inv_inertia > 0.0f ? inv_h * n->y[2] : 0.0;
	s->k0 += kinetic(b, b->v.x, b->v.y, b->w);
	s->cross += ((double)b->v.x * dvx + (double)b->v.y * dvy) / (double)b->inv_mass;
	if (b->inv_inertia > 0.0f) s->cross += (double)b->w * dw / (double)b->inv_inertia;
	s->square += kinetic(b, dvx, dvy, dw);
	s->p += n->potential;
}

static double correction_share(const sinew_tree_range *r, const sinew_share_sums *s)
{
	if (s->fast) return 0.0;
	double k0 = s->k0, cross = s->cross, square = s->square, p = s->p;
	/* E(a) = k0 + a cross + a^2 square + p, with cross = v . M dv and square = |dv|^2_M / 2 */
	double slack = r->energy - (k0 + p);
	if (k0 + p + cross + square <= r->energy) return 1.0;
	if (slack <= 0.0 || square <= 0.0) return 0.0;
	return sinew_minf(1.0f, (float)((-cross + sqrt(cross * cross + 4.0 * square * slack)) / (2.0 * square)));
}

/* The projection's trust region: one linear step of J dx = -C is only good for errors about the
 * size of the bodies, and a joint stretched by metres (a kinematic part carried it away from a static
 * one; they turn dynamic again) asks for moves and turns far beyond it, taken in one projection: on
 * random body-type switching, 20-30 m closed at once reached NaN, and without the bound (the other
 * guards in place) bodies were still flung up to 923 m (test_joint_stress). So the tree's correction
 * (in its body nodes' y) is scaled down, as a whole, until every body's move in units of
 * SINEW_TREE_TRUST_MOVE times its size, plus its turn in units of SINEW_TREE_TRUST_TURN, is at most
 * 1; the rest closes over the next projections. Returns whether it was left whole: a scaled
 * correction adds no velocity (its dx / h would be a guess at metres per substep). The bounds lie
 * beyond what any ordinary scene asks: the heavy-hip heap (test_joint_stress), the worst we have,
 * asks for moves of up to 15 sizes and turns of 3.5 rad in one projection at its worst step, and its
 * figures are those of no trust region. Tighter bounds scaled its corrections, and its worst joint
 * separation, a chaotic figure, measured anywhere from 0.002 m to 0.73 m (move bounds of 1.5 to 10
 * sizes with a turn bound of 1 rad). */
#define SINEW_TREE_TRUST_MOVE 20.0
#define SINEW_TREE_TRUST_TURN 4.0

static bool trust_region(sinew_world *w, const sinew_tree_range *r)
{
	double reach = 0.0;
	for (int32_t q = r->bodies; q < r->joints; ++q) {
		const sinew_tree_node *n = &w->tree_nodes[w->tree_lists[q]];
		double size = SINEW_TREE_TRUST_MOVE * (double)w->bodies[w->awake_bodies[n->ref]].max_extent;
		if (!(size > 0.0)) continue; /* no shape: no size to measure by */
		double turn = w->solver_bodies[n->ref].inv_inertia > 0.0f ? fabs(n->y[2]) : 0.0;
		double body = sqrt(n->y[0] * n->y[0] + n->y[1] * n->y[1]) / size + turn / SINEW_TREE_TRUST_TURN;
		reach = isfinite(body) ? fmax(reach, body) : INFINITY;
	}
	if (reach <= 1.0) return true;
	double scale = isfinite(reach) ? 1.0 / reach : 0.0;
	for (int32_t i = r->begin; i < r->end; ++i)
		for (int c = 0; c < 3; ++c) w->tree_nodes[i].y[c] *= scale;
	return false;
}

/* Position projection: move the bodies of every tree, weighted by mass, so that the rigid rows are
 * met in position and no limit is left crossed (one Newton step of J dx = -C through the tree's
 * factorisation, with the limits as inequalities: the same active set as the velocity solve).
 * Inside a step (inv_h > 0) it runs after every substep with that substep's Jacobians (factored:
 * a tree reuses the velocity passes' factorisation unless the position starts from other limits in
 * its blocks) and C at the new pose, and the velocity
 * dx / h that the correction implies is added too (see correction_share): the correction then acts
 * like an impulse at the substep's start, through the anchors of that pose, which is what keeps a
 * tumbling figure's angular momentum (moving bodies without it, measured, lost 15 % in 10 s).
 * After the step (inv_h = 0) it only moves bodies, removing what the linear step left. */
void sinew_joint_tree_project(sinew_world *w, bool factored, float inv_h)
{
	/* J dx = -C for every row in the block: rigid rows met, limits in the block brought to their bound */
	sinew_tree_pass pass = {0.0f, false, true, false};
	int trees = (int)stbds_arrlen(w->tree_ranges);
	if (!factored) { /* every tree's active set started, then all factored in one call: trees of one shape
	                  * together (factor_lanes). A tree's start reads only its own rows, so the same bits. */
		for (int t = 0; t < trees; ++t)
			if (w->tree_ranges[t].has_limits) start_position_limits(w, &w->tree_ranges[t], &pass);
		factor_range(w, 0, (int32_t)stbds_arrlen(w->tree_nodes));
	}
	for (int t = 0; t < trees; ++t) {
		const sinew_tree_range *r = &w->tree_ranges[t];
		int32_t begin = r->begin, end = r->end;
		if (factored && r->has_limits && start_position_limits(w, r, &pass)) refactor_stale(w, begin, end);
		sinew_tree_solve_range(w, begin, end, &pass);
		if (r->has_limits) settle_limits(w, r, &pass);
	}
	sinew_joint_loops_project(w);
	for (int t = 0; t < trees; ++t) {
		sinew_tree_range *r = &w->tree_ranges[t];
		bool trusted = trust_region(w, r);
		bool energy = inv_h > 0.0f && trusted; /* the correction adds velocity: energies are measured below */
		sinew_share_sums sums = {0.0, 0.0, 0.0, 0.0, false};
		for (int32_t q = r->bodies; q < r->joints; ++q) {
			sinew_tree_node *n = &w->tree_nodes[w->tree_lists[q]];
			sinew_solver_body *b = &w->solver_bodies[n->ref];
			b->dp.x += (float)n->y[0];
			b->dp.y += (float)n->y[1];
			if (b->inv_inertia > 0.0f) b->dq = sinew_integrate_rot(b->dq, (float)n->y[2]);
			if (!energy) continue;
			n->potential = potential(w, n->ref); /* once: both energies below read it */
			add_share_sums(&sums, b, n, (double)inv_h);
		}
		if (!energy) continue;
		float share = inv_h * (float)correction_share(r, &sums);
		/* the velocity the correction implies, and the tree's energy with it: kinetic, and the potential
		 * kept in the nodes when they moved (only velocities changed since) */
		double now = 0.0;
		for (int32_t q = r->bodies; q < r->joints; ++q) {
			const sinew_tree_node *n = &w->tree_nodes[w->tree_lists[q]];
			sinew_solver_body *b = &w->solver_bodies[n->ref];
			b->v.x += share * (float)n->y[0];
			b->v.y += share * (float)n->y[1];
			if (b->inv_inertia > 0.0f) b->w += share * (float)n->y[2];
			now += kinetic(b, b->v.x, b->v.y, b->w) + n->potential;
		}
		r->energy = fmax(r->energy, now);
		sinew_body *first = tree_first_body(w, r);
		first->tree_energy = r->energy - now; /* kept above the energy, not absolute: see mark_energy */
		first->tree_energy_step = w->step_index + 1;
	}
}
