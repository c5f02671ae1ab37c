/* Internal: the joint trees' nodes and passes, shared by the exact tree solve (joint_tree.c) and the
 * loop-closing rows solved through it (joint_loops.c). */
#ifndef SINEW_JOINT_TREE_H
#define SINEW_JOINT_TREE_H

#include "joint.h"

typedef struct sinew_tree_node {
	double d[3][3]; /* pivot block; holds its inverse after factorisation */
	double h[3][3]; /* coupling to the parent, H(node, parent): dim x parent_dim */
	double y[3];
	double stiffness; /* body node: h^2 times the geometric stiffness of its joints' point rows, on its turning */
	double inv_turn;  /* body node: 1 / (its inertia + stiffness), set with the blocks */
	float solved[3];  /* body node: its velocity (v, w) as its tree's last velocity solve left it */
	int32_t parent;
	int32_t tree;    /* index of its tree in world->tree_ranges */
	int32_t ref;     /* body node: solver slot; joint node: joint index */
	union { /* a node is a joint or a body: sharing keeps the node 232 bytes (its index arithmetic costs
	         * more at 240: +1 % of stickman_rain's instructions, measured with callgrind) */
		struct {
			int32_t rows[3];   /* joint node: its rigid rows in world->joint_rows, then an active limit */
			int32_t first_row; /* joint node: all its joint's rows, [first_row, first_row + row_count), kept */
		};
		double potential; /* body node: its potential energy where a projection inside a step left it */
	};
	int8_t row_count;  /* here so the solve need not reach into the joint */
	int8_t limit_row;  /* joint node: where in its rows its pair of tree-owned limit rows starts, or -1 */
	int8_t dim;
	int8_t rigid;    /* joint node: how many of rows are rigid; a limit in the block comes after */
	bool is_body;
	bool has_limits; /* joint node: its joint has tree-owned limit rows (most joints of a big grid do not) */
	bool stale;      /* its blocks changed since the tree was factored (refactor_stale in joint_tree.c) */
	bool point;      /* its coupling block is a point joint's (rigid rows 0 and 1 are sinew_row_point's x and y):
	                  * a joint node whose own are, a body node whose parent's are (SINEW_POINT_ZERO, joint_tree.c) */
} sinew_tree_node;

/* One tree: its nodes [begin, end) and whether any of its joints has limits, found when the trees are
 * grown and kept with them; its other fields start again each step (sinew_joint_tree_build). */
typedef struct sinew_tree_range {
	int32_t begin, end;
	double energy; /* the ceiling on its kinetic plus potential energy (sinew_joint_tree_mark_energy) */
	double mass;   /* of its bodies (for the energy bound of every velocity solve: found once a step) */
	bool has_limits;
	bool has_loops;  /* a loop-closing row solved with the trees reaches one of its bodies */
	bool stiff;      /* its factorisation carries geometric stiffness (see sinew_joint_tree_solve) */
	bool solved;     /* its last velocity solve in this substep held: the body nodes' `solved` are its answer */
	bool solved_to_close; /* that solve had bias and a limit in a block closing an open gap (c > 0) */
	bool noted_to_close;  /* the same for the solve just made (note_answer in joint_tree.c) */
	bool presolve;   /* solved once more after the warm start (sinew_joint_tree_presolve) */
	bool responds;   /* a free body's contact this step pushes it through its response (contact_tree.c) */
	double turn_sum; /* the stiffness of its internal joints summed over its bodies (see common_turn) */
	double turn_den; /* turn_sum less that stiffness's own response through the factorisation */
	/* its nodes by kind, each in node order, in world->tree_lists: body nodes [bodies, joints), joint
	 * nodes [joints, limits), the joint nodes with limits again [limits, lists_end) (the passes that
	 * read one kind walk it alone, sinew_joint_tree_build) */
	int32_t bodies, joints, limits, lists_end;
} sinew_tree_range;

/* A tree node's state before a velocity solve, to solve again without geometric stiffness: a body's
 * velocity, or a joint's active set (dim, its limit row if any) and the impulses of the rows in it. */
typedef struct sinew_tree_keep {
	float value[3];
	int32_t limit;
	int8_t dim;
} sinew_tree_keep;

/* What one pass up and down a tree solves. */
typedef struct sinew_tree_pass {
	float h;
	bool use_bias;
	bool position; /* J dx = -C, the answer left in y; else a velocity solve, applied as it is found */
	bool spread;   /* a velocity solve that spreads a trial impulse: the rows' impulses are left alone */
} sinew_tree_pass;

/* joint_tree.c */
void sinew_tree_solve_range(sinew_world *w, int32_t begin, int32_t end, const sinew_tree_pass *pass);
/* M dv - J^T lambda = f, J dv = 0: f loaded into the body nodes' y, dv left there */
void sinew_tree_spread_range(sinew_world *w, int32_t begin, int32_t end);
double sinew_tree_correction_along(const sinew_world *w, const sinew_row_constraint *rc);
/* share times a spread's answer (the nodes' y) added to the tree's velocities and rows' impulses */
void sinew_tree_add_spread(sinew_world *w, const sinew_tree_range *r, double share);
/* the fastest a jointed kinematic body could carry a point of the tree (0: none drives it) */
double sinew_tree_drive(const sinew_world *w, const sinew_tree_range *r);
/* how fast gravity moves a body in one substep of length h */
double sinew_gravity_step(const sinew_world *w, float h);
/* the kinetic energy of the tree's bodies */
double sinew_tree_kinetic(const sinew_world *w, const sinew_tree_range *r);
/* a tree's velocities and blocks before a velocity solve, into world->tree_keep; returns its kinetic energy */
double sinew_tree_keep_state(sinew_world *w, const sinew_tree_range *r);
/* the most kinetic energy a velocity solve may leave the tree with (full: counting what jointed
 * kinematic bodies drive), from e0 before it */
double sinew_tree_energy_bound(const sinew_world *w, const sinew_tree_range *r, double e0, float h, bool full);

/* joint_loops.c */
void sinew_joint_loops_find(sinew_world *w);
void sinew_joint_loops_choose_parents(sinew_world *w);
bool sinew_joint_loops_parent_joint(const sinew_world *w, int32_t slot, int32_t joint);
void sinew_joint_loops_factor(sinew_world *w, float h);
void sinew_joint_loops_solve(sinew_world *w, const sinew_tree_pass *pass);
void sinew_joint_loops_damp(sinew_world *w);
/* a tree's response in its nodes' y, with the loops closed through S (exact path only) */
void sinew_joint_loops_close(sinew_world *w, int32_t t);
bool sinew_joint_loops_exact(const sinew_world *w);
void sinew_joint_loops_project(sinew_world *w);

#endif
