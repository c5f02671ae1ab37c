/* The joint stages of a step. Rows are rebuilt from the bodies' running state at every substep
 * (anchors turn with the bodies; the first substep keeps the rows prepare built), warm started with the impulses of the previous substep, and
 * solved in priority order: springs and motors, then limits and the rigid rows that are not part
 * of a joint tree, then (after the contacts) the joint trees exactly. Reaction forces are the
 * impulses summed over the step; a joint whose reaction exceeds its threshold breaks after the step. */
#include "joint.h"

#include <string.h>

static int joint_rows(const sinew_joint *j, const sinew_joint_frame *f, sinew_joint_row *rows)
{
	switch ((sinew_joint_type)j->type) {
	case SINEW_PIN_JOINT: return sinew_pin_rows(j, f, rows);
	case SINEW_REVOLUTE_JOINT: return sinew_revolute_rows(j, f, rows);
	case SINEW_PRISMATIC_JOINT: return sinew_prismatic_rows(j, f, rows);
	case SINEW_WELD_JOINT: return sinew_weld_rows(j, f, rows);
	case SINEW_DISTANCE_JOINT: return sinew_distance_rows(j, f, rows);
	case SINEW_WHEEL_JOINT: return sinew_wheel_rows(j, f, rows);
	case SINEW_TARGET_JOINT: return sinew_target_rows(j, f, rows);
	case SINEW_JOINT_TYPE_COUNT: break;
	}
	return 0;
}

static bool side_moves(const sinew_world *w, int32_t bi)
{
	if (bi == SINEW_NULL_INDEX) return false;
	const sinew_body *b = &w->bodies[bi];
	return b->type == SINEW_DYNAMIC_BODY && b->solver_index > 0;
}

static bool side_enabled(const sinew_world *w, int32_t bi)
{
	return bi == SINEW_NULL_INDEX || w->bodies[bi].enabled;
}

static int32_t solver_slot(const sinew_world *w, int32_t bi)
{
	return bi == SINEW_NULL_INDEX ? 0 : w->bodies[bi].solver_index;
}

static bool is_effort(const sinew_row_constraint *rc)
{
	return rc->row.kind == SINEW_ROW_SPRING || rc->row.kind == SINEW_ROW_MOTOR;
}

/* The rows sinew_joints_solve solves, listed once a step after the trees are built: which rows are
 * in a tree or a loop, or owned by a tree (its limits, which go in and out of its blocks), does not
 * change within the step. Walking all rows and testing each in every pass was 2.6 % of rain's
 * instructions, and all of the joint pass of scenes without springs or motors. */
static void list_sequential_rows(sinew_world *w)
{
	stbds_arrsetlen(w->effort_rows, 0);
	stbds_arrsetlen(w->sequential_rows, 0);
	int n = (int)stbds_arrlen(w->joint_rows);
	for (int32_t i = 0; i < n; ++i) {
		const sinew_row_constraint *rc = &w->joint_rows[i];
		if (is_effort(rc)) {
			sinew_effort_row e = {i, 0.0f, 0.0f, 0.0f, 0.0f}; /* its terms: update_effort_rows */
			stbds_arrput(w->effort_rows, e);
		}
		else if (!rc->in_tree && !rc->in_loop && !rc->tree_owned) stbds_arrput(w->sequential_rows, i);
	}
}

void sinew_joints_prepare(sinew_world *w)
{
	stbds_arrsetlen(w->active_joints, 0);
	stbds_arrsetlen(w->joint_rows, 0);
	int n = (int)stbds_arrlen(w->joints);
	for (int ji = 0; ji < n; ++ji) {
		sinew_joint *j = &w->joints[ji];
		j->active = false;
		j->row_start = j->tree_node = -1;
		if (!j->in_use || !j->enabled || j->broken) continue;
		int32_t ia = j->edges[0].body, ib = j->edges[1].body;
		if (!side_enabled(w, ia) || !side_enabled(w, ib)) continue;
		if (!side_moves(w, ia) && !side_moves(w, ib)) continue; /* nothing to move: costs nothing */
		sinew_joint_frame f = sinew_joint_current_frame(w, j);
		sinew_joint_row rows[SINEW_MAX_JOINT_ROWS];
		int count = joint_rows(j, &f, rows);
		if (count != j->row_count) memset(j->impulses, 0, sizeof j->impulses); /* features changed */
		j->active = true;
		j->row_count = count;
		j->row_start = (int32_t)stbds_arrlen(w->joint_rows);
		stbds_arrput(w->active_joints, ji);
		for (int r = 0; r < count; ++r) {
			sinew_row_constraint rc;
			memset(&rc, 0, sizeof rc);
			rc.row = rows[r];
			rc.impulse = j->impulses[r];
			rc.body_a = solver_slot(w, ia);
			rc.body_b = solver_slot(w, ib);
			rc.joint = ji;
			rc.slot = r;
			stbds_arrput(w->joint_rows, rc);
		}
	}
	sinew_joint_tree_build(w);
	list_sequential_rows(w);
}

static float row_inverse_mass(const sinew_world *w, const sinew_row_constraint *rc)
{
	const sinew_solver_body *a = &w->solver_bodies[rc->body_a], *b = &w->solver_bodies[rc->body_b];
	const float *ja = rc->row.ja, *jb = rc->row.jb;
	return a->inv_mass * (ja[0] * ja[0] + ja[1] * ja[1]) + a->inv_inertia * ja[2] * ja[2] +
	       b->inv_mass * (jb[0] * jb[0] + jb[1] * jb[1]) + b->inv_inertia * jb[2] * jb[2];
}

static void update_eff_mass(const sinew_world *w, sinew_row_constraint *rc)
{
	float k = row_inverse_mass(w, rc);
	rc->eff_mass = k > 0.0f ? 1.0f / k : 0.0f;
}

/* update_eff_mass of a point's x (axis 0) or y (axis 1) row (sinew_row_point): its linear entries
 * are 1, -1 and 0, so row_inverse_mass is each body's inverse mass plus its turning term, summed in
 * the same order (the products by 1 and the zero terms change nothing); the same to the bit. */
static void update_point_eff_mass(const sinew_world *w, sinew_row_constraint *rc)
{
	const sinew_solver_body *a = &w->solver_bodies[rc->body_a], *b = &w->solver_bodies[rc->body_b];
	const float *ja = rc->row.ja, *jb = rc->row.jb;
	float k = a->inv_mass + a->inv_inertia * ja[2] * ja[2] + b->inv_mass + b->inv_inertia * jb[2] * jb[2];
	rc->eff_mass = k > 0.0f ? 1.0f / k : 0.0f;
}

/* The rows of a joint prepared this step, brought to the pose now in place where its type can (a
 * revolute joint: only its point rows' arms and the errors change with the pose; the rest, with the
 * effective masses and motor bounds of the rows that do not turn, stay as prepared, since masses and
 * h do not change within a step). Returns whether it could (its two point rows, 0 and 1, turned),
 * else the rows must be built again. Building every revolute's rows again was 8 % of
 * stickman_rain's instructions (docs/joints.md, "Cheaper passes"); the same rows to the bit. */
static bool update_in_place(const sinew_joint *j, const sinew_joint_frame *f, sinew_row_constraint *rows)
{
	if (j->type == SINEW_REVOLUTE_JOINT) return sinew_revolute_update(j, f, rows);
	return false;
}

/* The terms of each spring and motor row for this substep's passes, from its effective mass, error
 * and bound (set just before): the soft constraint's coefficients (two divisions) and the kind's
 * branch were worked out in every pass, a third of the joint passes of rain. The same impulses to the
 * bit: mass (Cdot + bias) is a motor's mass (Cdot - speed) and a spring's mass scale times
 * (Cdot + bias rate C), with the products in the same order; keep old is 0 for a motor; an
 * unbounded spring's clamp to +-INFINITY changes nothing. */
static void update_effort_rows(sinew_world *w, float h)
{
	int n = (int)stbds_arrlen(w->effort_rows);
	for (int i = 0; i < n; ++i) {
		sinew_effort_row *e = &w->effort_rows[i];
		const sinew_row_constraint *rc = &w->joint_rows[e->row];
		const sinew_joint_row *row = &rc->row;
		if (row->kind == SINEW_ROW_MOTOR) {
			e->mass = rc->eff_mass;
			e->bias = -row->speed;
			e->keep = 0.0f;
			e->limit = row->max_impulse;
			continue;
		}
		float bias_rate, mass_scale; /* hertz > 0: check_spring (joint.c) refuses the rest */
		sinew_soft_coefficients(row->hertz, row->zeta, h, &bias_rate, &mass_scale, &e->keep);
		e->mass = rc->eff_mass * mass_scale;
		e->bias = bias_rate * row->c;
		e->limit = row->max_effort > 0.0f ? row->max_impulse : INFINITY;
	}
}

/* Each active joint's rows brought to the pose now: its shapes, errors, effective masses, bounds. */
static void update_row_shapes(sinew_world *w, float h, bool fresh)
{
	int n = (int)stbds_arrlen(w->active_joints);
	for (int i = 0; i < n; ++i) {
		const sinew_joint *j = &w->joints[w->active_joints[i]];
		if (j->row_count == 0) continue; /* no rows: and in a world without any, joint_rows is NULL */
		sinew_row_constraint *rcs = &w->joint_rows[j->row_start];
		if (fresh) {
			for (int r = 0; r < j->row_count; ++r) {
				update_eff_mass(w, &rcs[r]);
				rcs[r].row.max_impulse = rcs[r].row.max_effort * h;
			}
			continue;
		}
		sinew_joint_frame f = sinew_joint_current_frame(w, j);
		if (update_in_place(j, &f, rcs)) { /* the point's two rows turned */
			update_point_eff_mass(w, &rcs[0]);
			update_point_eff_mass(w, &rcs[1]);
			continue;
		}
		sinew_joint_row rows[SINEW_MAX_JOINT_ROWS];
		int count = joint_rows(j, &f, rows);
		SINEW_ASSERT(count == j->row_count);
		for (int r = 0; r < count && r < j->row_count; ++r) {
			rcs[r].row = rows[r];
			update_eff_mass(w, &rcs[r]);
			rcs[r].row.max_impulse = rcs[r].row.max_effort * h;
		}
	}
}

void sinew_joints_update_rows(sinew_world *w, float h, bool fresh)
{
	update_row_shapes(w, h, fresh);
	update_effort_rows(w, h);
}

/* A joint's rows' position errors alone, where its type can give them without building the rows
 * (the revolute joints figures are made of: 3 % of stickman_rain's instructions); the same to the bit. */
static int joint_errors(const sinew_joint *j, const sinew_joint_frame *f, float *c)
{
	if (j->type == SINEW_REVOLUTE_JOINT) return sinew_revolute_errors(j, f, c);
	sinew_joint_row rows[SINEW_MAX_JOINT_ROWS];
	int count = joint_rows(j, f, rows);
	for (int r = 0; r < count; ++r) c[r] = rows[r].c;
	return count;
}

void sinew_joints_update_errors(sinew_world *w)
{
	int n = (int)stbds_arrlen(w->active_joints);
	for (int i = 0; i < n; ++i) {
		const sinew_joint *j = &w->joints[w->active_joints[i]];
		if (j->tree_node == -1) continue; /* neither in a tree nor closing a loop */
		sinew_joint_frame f = sinew_joint_current_frame(w, j);
		float c[SINEW_MAX_JOINT_ROWS];
		int count = joint_errors(j, &f, c);
		for (int r = 0; r < count && r < j->row_count; ++r) w->joint_rows[j->row_start + r].row.c = c[r];
	}
}

void sinew_joints_warm_start(sinew_world *w)
{
	int n = (int)stbds_arrlen(w->joint_rows);
	for (int i = 0; i < n; ++i) {
		sinew_row_constraint *rc = &w->joint_rows[i];
		/* the tree solve is exact and needs no start; its impulses were read by the factorisation.
		 * Loop rows solved iteratively start from the last substep's (sinew_joint_loops_warm_start) */
		if (rc->in_tree || (rc->in_loop && !w->loops_iterative)) rc->impulse = 0.0f;
		/* a tree's limit outside its block carries no impulse (sinew_joint_tree_factor cleared it) */
		else if (!rc->in_loop && !rc->tree_owned) sinew_row_apply(w->solver_bodies, rc, rc->impulse);
	}
	sinew_joint_loops_warm_start(w);
	w->solver_bodies[0].v = sinew_v2(0.0f, 0.0f);
	w->solver_bodies[0].w = 0.0f;
}

/* One rigid, compliant or limit row by sequential impulse; returns the change of its accumulated impulse. */
static float solve_row(sinew_world *w, sinew_row_constraint *rc, float h, bool use_bias)
{
	const sinew_joint_row *row = &rc->row;
	if (rc->eff_mass == 0.0f) return 0.0f;
	float cdot = sinew_row_speed(w->solver_bodies, rc);
	float rate = row->bias_rate > 0.0f ? row->bias_rate : w->joint_bias_rate;
	float bias = use_bias ? rate * row->c : 0.0f;
	float old = rc->impulse, total = old;
	switch ((sinew_row_kind)row->kind) {
	case SINEW_ROW_EQUALITY:
		/* not reached: every rigid row is in a tree or closes a loop (joint_tree.c, joint_loops.c) */
		total = old - rc->eff_mass * (cdot + bias);
		break;
	case SINEW_ROW_COMPLIANT: {
		float k = 1.0f / rc->eff_mass;
		total = old - (cdot + bias + row->compliance * old) / (k + row->compliance);
		break;
	}
	case SINEW_ROW_LIMIT:
		if (row->c > 0.0f) bias = row->c / h; /* speculative: may close the gap, no more */
		total = sinew_maxf(old - rc->eff_mass * (cdot + bias), 0.0f);
		break;
	case SINEW_ROW_MOTOR:
	case SINEW_ROW_SPRING:
		break; /* not reached: solve_effort_rows */
	}
	rc->impulse = total;
	sinew_row_apply(w->solver_bodies, rc, total - old);
	return total - old;
}

/* The springs and motors, each by sequential impulse with the terms update_effort_rows set; a turn
 * of B against A alone (every spring and motor of a revolute joint) reads and moves only the two
 * angular velocities. A spring's pull on its error is its softness, not a correction: the relax passes keep it. */
static void solve_effort_rows(sinew_world *w)
{
	sinew_solver_body *bodies = w->solver_bodies;
	int n = (int)stbds_arrlen(w->effort_rows);
	for (int i = 0; i < n; ++i) {
		const sinew_effort_row *e = &w->effort_rows[i];
		sinew_row_constraint *rc = &w->joint_rows[e->row];
		if (rc->eff_mass == 0.0f) continue;
		bool turn = rc->row.point == 3;
		float cdot = turn ? sinew_angle_row_speed(bodies, rc) : sinew_row_speed(bodies, rc);
		float old = rc->impulse;
		float total = sinew_clampf(old - e->mass * (cdot + e->bias) - e->keep * old, -e->limit, e->limit);
		rc->impulse = total;
		if (turn) {
			bodies[rc->body_a].w += bodies[rc->body_a].inv_inertia * rc->row.ja[2] * (total - old);
			bodies[rc->body_b].w += bodies[rc->body_b].inv_inertia * rc->row.jb[2] * (total - old);
		} else {
			sinew_row_apply(bodies, rc, total - old);
		}
	}
}

void sinew_joints_solve(sinew_world *w, float h, bool use_bias)
{
	/* effort first, then the constraints that must hold */
	solve_effort_rows(w);
	int n = (int)stbds_arrlen(w->sequential_rows);
	for (int i = 0; i < n; ++i) solve_row(w, &w->joint_rows[w->sequential_rows[i]], h, use_bias);
	w->solver_bodies[0].v = sinew_v2(0.0f, 0.0f);
	w->solver_bodies[0].w = 0.0f;
}

void sinew_joints_end_substep(sinew_world *w)
{
	int n = (int)stbds_arrlen(w->joint_rows);
	for (int i = 0; i < n; ++i) w->joint_rows[i].total += w->joint_rows[i].impulse;
}

static void break_joint(sinew_world *w, int32_t ji, float force, float torque)
{
	sinew_joint *j = &w->joints[ji];
	j->broken = true;
	memset(j->impulses, 0, sizeof j->impulses);
	sinew_joint_broken_event e = {{ji + 1, w->index, j->generation}, force, torque, j->user_data};
	stbds_arrput(w->joint_broken_events, e);
	for (int s = 0; s < 2; ++s)
		if (j->edges[s].body != SINEW_NULL_INDEX) sinew_body_wake(w, &w->bodies[j->edges[s].body]);
	int32_t ia = j->edges[0].body, ib = j->edges[1].body;
	if (ia != SINEW_NULL_INDEX && j->collide_connected == false && w->bodies[ib].enabled)
		sinew_broadphase_refresh_body(w, &w->bodies[ib], true); /* the pieces may collide now */
}

void sinew_joints_finish(sinew_world *w, float dt)
{
	stbds_arrsetlen(w->joint_broken_events, 0);
	float inv_dt = 1.0f / dt;
	int n = (int)stbds_arrlen(w->active_joints);
	for (int i = 0; i < n; ++i) {
		int32_t ji = w->active_joints[i];
		sinew_joint *j = &w->joints[ji];
		sinew_vec2 force = {0.0f, 0.0f};
		float torque = 0.0f;
		for (int r = 0; r < j->row_count; ++r) {
			const sinew_row_constraint *rc = &w->joint_rows[j->row_start + r];
			j->impulses[r] = rc->impulse;
			force.x += rc->total * rc->row.jb[0];
			force.y += rc->total * rc->row.jb[1];
			if (rc->row.jb[0] == 0.0f && rc->row.jb[1] == 0.0f) torque += rc->total * rc->row.jb[2];
		}
		j->reaction_force = sinew_scale(inv_dt, force);
		j->reaction_torque = torque * inv_dt;
		float f = sinew_length(j->reaction_force), t = sinew_absf(j->reaction_torque);
		if ((j->break_force > 0.0f && f > j->break_force) || (j->break_torque > 0.0f && t > j->break_torque))
			break_joint(w, ji, f, t);
	}
}
