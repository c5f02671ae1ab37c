/* Internal: joints. A joint type only describes its constraint as scalar rows (Jacobian, position
 * error, bounds, softness); joint.c solves the rows of every type the same way, and joint_tree.c
 * solves the rigid rows of joints that form a tree exactly (see the comment at its top). */
#ifndef SINEW_JOINT_H
#define SINEW_JOINT_H

#include "world.h"

#define SINEW_MAX_JOINT_ROWS 6
/* The most a world-frame limit's position error closes in one correction, radians (about 3 degrees;
 * see sinew_rows_swing_limit). */
#define SINEW_SWING_MAX_CORRECTION 0.05f

typedef enum sinew_row_kind {
	SINEW_ROW_EQUALITY, /* rigid, unbounded: C = 0 */
	SINEW_ROW_LIMIT,    /* one-sided: C >= 0, impulse >= 0, speculative when C > 0 */
	SINEW_ROW_MOTOR,    /* velocity target with bounded impulse, no position term */
	SINEW_ROW_SPRING,   /* soft: hertz and damping ratio pull C to 0 */
	SINEW_ROW_COMPLIANT /* rigid but with compliance (Godot pin softness): Cdot + bias + compliance * impulse = 0 */
} sinew_row_kind;

/* One scalar constraint row: Cdot = ja . (vA, wA) + jb . (vB, wB). */
typedef struct sinew_joint_row {
	float ja[3], jb[3]; /* linear x, linear y, angular */
	float c;            /* position error */
	float speed;        /* motors: the row drives Cdot to this */
	float max_impulse;  /* motors: bound per substep (set by the solver from max_effort * h) */
	float max_effort;   /* motors: N or N m (INFINITY: unbounded); springs: a cap when > 0 (0: none) */
	float hertz, zeta;  /* springs */
	float compliance;   /* compliant rows */
	float bias_rate;    /* 0: the world's joint softness */
	uint8_t kind;
	uint8_t point;      /* 1, 2: the x, y row of a point constraint (sinew_row_point); 3: a turn of B against
	                     * A alone (sinew_row_angle and the rows made from it): only ja[2] and jb[2] not 0 */
} sinew_joint_row;

/* Body state the row functions read: current centres, rotations and anchors from the centres. */
typedef struct sinew_joint_frame {
	sinew_vec2 center_a, center_b;
	sinew_rot q_a, q_b;
	sinew_vec2 r_a, r_b; /* world-oriented anchors from each centre of mass */
	sinew_vec2 p_a, p_b; /* world anchor points */
} sinew_joint_frame;

typedef struct sinew_joint_edge {
	int32_t body; /* SINEW_NULL_INDEX for the world */
	int32_t prev, next;
} sinew_joint_edge;

typedef struct sinew_joint {
	sinew_joint_edge edges[2];
	/* authored frames, in each body's local frame (world frame for the world side) */
	sinew_vec2 local_anchor_a, local_anchor_b;
	sinew_vec2 local_axis_a;
	float reference_angle;
	float swing_reference; /* world-frame limits: angle of the A-centre -> B-centre vector at creation */
	sinew_joint_limit limit;
	sinew_joint_motor motor;
	sinew_joint_spring spring;
	float linear_hertz, linear_zeta, angular_hertz, angular_zeta; /* weld */
	float length, min_length, max_length;                       /* distance */
	float softness, bias;                                        /* pin */
	float max_force;                                             /* target (hertz and zeta in linear_*) */
	float break_force, break_torque;
	void *user_data;
	/* solver results */
	float impulses[SINEW_MAX_JOINT_ROWS];      /* per-substep impulse of each row (warm start) */
	sinew_vec2 reaction_force;
	float reaction_torque;
	int32_t row_start; /* first row in the world's row array this step, -1 when not solved */
	int32_t row_count;
	int32_t tree_node; /* node in the joint tree, -1 when its rigid rows are solved one by one */
	int8_t solved_as;  /* how its rows were solved last step: SINEW_JOINT_SOLVED_* (joint_tree.c) */
	int32_t next_free;
	uint32_t generation;
	uint8_t type;
	bool in_use, enabled, broken, collide_connected, active;
} sinew_joint;

/* The per-step solver copy of a row. */
typedef struct sinew_row_constraint {
	sinew_joint_row row;
	float eff_mass;   /* 1 / (J M^-1 J^T) */
	float impulse;    /* accumulated over the substep (warm started) */
	float total;      /* summed over the step */
	int32_t body_a, body_b; /* solver slots */
	int32_t joint;
	int32_t slot;     /* index of the row within its joint */
	bool in_tree;     /* solved by the exact tree solve now */
	bool tree_owned;  /* a limit of a tree joint: only ever solved by the tree */
	bool in_loop;     /* a rigid row closing a loop, solved exactly with the trees (joint_tree.c) */
} sinew_row_constraint;

/* A spring or motor row as sinew_joints_solve solves it: one formula for both kinds, its terms set
 * once a substep (sinew_joints_update_rows) instead of in every pass,
 *   impulse <- clamp(impulse - mass (Cdot + bias) - keep impulse, -limit, limit). */
typedef struct sinew_effort_row {
	int32_t row; /* index in joint_rows */
	float mass;  /* the row's effective mass; a spring's times its softness' mass scale */
	float bias;  /* a motor's -speed; a spring's bias rate times its error */
	float keep;  /* a spring's impulse scale (the share of its impulse let go each pass); 0 for a motor */
	float limit; /* the bound on |impulse| this substep; INFINITY for none */
} sinew_effort_row;

/* Apply an impulse along a row to its two bodies. The static dummy (slot 0) has no mass, so it
 * does not move. */
static inline void sinew_row_apply(sinew_solver_body *bodies, const sinew_row_constraint *rc, float impulse)
{
	sinew_solver_body *a = &bodies[rc->body_a], *b = &bodies[rc->body_b];
	const float *ja = rc->row.ja, *jb = rc->row.jb;
	a->v.x += a->inv_mass * ja[0] * impulse;
	a->v.y += a->inv_mass * ja[1] * impulse;
	a->w += a->inv_inertia * ja[2] * impulse;
	b->v.x += b->inv_mass * jb[0] * impulse;
	b->v.y += b->inv_mass * jb[1] * impulse;
	b->w += b->inv_inertia * jb[2] * impulse;
}

/* The row's speed, Cdot = J v, from the bodies' current velocities. */
static inline float sinew_row_speed(const sinew_solver_body *bodies, const sinew_row_constraint *rc)
{
	const sinew_solver_body *a = &bodies[rc->body_a], *b = &bodies[rc->body_b];
	const float *ja = rc->row.ja, *jb = rc->row.jb;
	return ja[0] * a->v.x + ja[1] * a->v.y + ja[2] * a->w + jb[0] * b->v.x + jb[1] * b->v.y + jb[2] * b->w;
}

/* sinew_row_speed of a point's x (axis 0) or y (axis 1) row (sinew_row_point) without the two terms
 * of its zero Jacobian entries: the same speed but for the sign of a zero one. */
static inline float sinew_point_row_speed(const sinew_solver_body *bodies, const sinew_row_constraint *rc, int axis)
{
	const sinew_solver_body *a = &bodies[rc->body_a], *b = &bodies[rc->body_b];
	const float *ja = rc->row.ja, *jb = rc->row.jb;
	float va = axis == 0 ? a->v.x : a->v.y, vb = axis == 0 ? b->v.x : b->v.y;
	return ja[axis] * va + ja[2] * a->w + jb[axis] * vb + jb[2] * b->w;
}

/* sinew_row_speed of a turn of B against A alone (point 3) without the four terms of its zero
 * Jacobian entries: the same speed but for the sign of a zero one. */
static inline float sinew_angle_row_speed(const sinew_solver_body *bodies, const sinew_row_constraint *rc)
{
	return rc->row.ja[2] * bodies[rc->body_a].w + rc->row.jb[2] * bodies[rc->body_b].w;
}

/* joints/<type>.c: the rows of one joint type for the current body state. Returns the row count. */
int sinew_pin_rows(const sinew_joint *j, const sinew_joint_frame *f, sinew_joint_row *rows);
int sinew_revolute_rows(const sinew_joint *j, const sinew_joint_frame *f, sinew_joint_row *rows);
/* only the rows' position errors c, in the same order, the same to the bit (the tree projection's
 * errors after every substep, sinew_joints_update_errors): the count */
int sinew_revolute_errors(const sinew_joint *j, const sinew_joint_frame *f, float *c);
/* The rows of a revolute joint that sinew_revolute_rows built earlier in the step, brought to the pose
 * f in place: the point rows' angular terms and every row's error, all that changes with the pose
 * (the other rows are turns of A against B, the same whatever the pose). The same rows to the bit
 * as building them again. Returns false, changing nothing, for a joint whose other rows turn with the
 * pose too (a world-frame limit: build them again). */
bool sinew_revolute_update(const sinew_joint *j, const sinew_joint_frame *f, sinew_row_constraint *rows);
int sinew_prismatic_rows(const sinew_joint *j, const sinew_joint_frame *f, sinew_joint_row *rows);
int sinew_weld_rows(const sinew_joint *j, const sinew_joint_frame *f, sinew_joint_row *rows);
int sinew_distance_rows(const sinew_joint *j, const sinew_joint_frame *f, sinew_joint_row *rows);
int sinew_wheel_rows(const sinew_joint *j, const sinew_joint_frame *f, sinew_joint_row *rows);
int sinew_target_rows(const sinew_joint *j, const sinew_joint_frame *f, sinew_joint_row *rows);

/* Shared row builders (joint_rows.c). */
void sinew_row_point(sinew_joint_row *rows, const sinew_joint_frame *f); /* two rows: anchors coincide */
/* the part of a point's two rows (x, y) that turns with the bodies: the angular terms of their Jacobians */
void sinew_row_point_arms(sinew_joint_row *x, sinew_joint_row *y, const sinew_joint_frame *f);
void sinew_row_angle(sinew_joint_row *row, float c);                     /* relative rotation */
void sinew_row_linear(sinew_joint_row *row, const sinew_joint_frame *f, sinew_vec2 axis, float c); /* along axis, axis fixed in A */
void sinew_row_swing(sinew_joint_row *row, const sinew_joint_frame *f, float c); /* the A-centre -> B-centre direction */
int sinew_rows_limit(sinew_joint_row *rows, const sinew_joint_row *shape, float value, float lower, float upper);
/* the two limit rows of a world-frame (swing) limit; a crossed bound's error capped (joint_rows.c) */
int sinew_rows_swing_limit(sinew_joint_row *rows, const sinew_joint *j, const sinew_joint_frame *f);
void sinew_swing_limit_errors(const sinew_joint *j, const sinew_joint_frame *f, float *c); /* their two errors */
int sinew_rows_motor(sinew_joint_row *rows, const sinew_joint_row *shape, const sinew_joint_motor *motor);
int sinew_rows_spring(sinew_joint_row *rows, const sinew_joint_row *shape, float value, const sinew_joint_spring *spring);

/* Measurements (joint_rows.c). */
sinew_joint_frame sinew_joint_current_frame(const sinew_world *w, const sinew_joint *j);
float sinew_joint_relative_angle(const sinew_joint *j, const sinew_joint_frame *f);
float sinew_joint_swing_angle(const sinew_joint *j, const sinew_joint_frame *f);
float sinew_joint_swing_in_band(const sinew_joint *j, const sinew_joint_frame *f); /* outside: towards the nearer bound */
sinew_vec2 sinew_joint_axis(const sinew_joint *j, const sinew_joint_frame *f);

/* joint.c: the step's joint stages. */
void sinew_joints_prepare(sinew_world *w);
/* fresh: the bodies have not moved since sinew_joints_prepare built the rows (the first substep):
 * only the effective masses and motor bounds are set */
void sinew_joints_update_rows(sinew_world *w, float h, bool fresh);
void sinew_joints_update_errors(sinew_world *w); /* tree joints: C at the current pose, the Jacobians kept */
void sinew_joints_warm_start(sinew_world *w);
void sinew_joints_solve(sinew_world *w, float h, bool use_bias);
void sinew_joints_end_substep(sinew_world *w);
void sinew_joints_finish(sinew_world *w, float dt);
void sinew_joint_destroy_internal(sinew_world *w, int32_t index);
bool sinew_bodies_jointed_without_collision(const sinew_world *w, int32_t body_a, int32_t body_b);
int sinew_joint_edge_of(const sinew_joint *j, int32_t body);

/* joint_tree.c: exact solve of the rigid rows of joint trees. */
void sinew_joint_tree_build(sinew_world *w);
void sinew_joint_tree_factor(sinew_world *w, float h);
void sinew_joint_tree_solve(sinew_world *w, float h, bool use_bias);
void sinew_joint_tree_mark_presolve(sinew_world *w);
void sinew_joint_tree_presolve(sinew_world *w, float h);
void sinew_joint_tree_project(sinew_world *w, bool factored, float inv_h);
void sinew_joint_tree_mark_energy(sinew_world *w);
void sinew_joint_loops_warm_start(sinew_world *w);

#endif
