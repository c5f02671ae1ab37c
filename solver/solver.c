/* One step of the soft-step solver over the awake bodies:
 *   gather awake bodies into contiguous solver state (velocities shifted back half a substep of
 *   forces when the user set them), prepare joint rows, build the joint trees and factor them for
 *   the first substep, prepare contact constraints (a free body's contact on a tree takes the
 *   tree's response, contact_tree.c); then per substep h = dt / substeps: integrate velocities ->
 *   joint rows and tree factorisation at the current pose (after the first) -> warm start joints
 *   and contacts -> the trees that contacts touch solved once (sinew_joint_tree_presolve) -> solve
 *   (joint rows, the trees free bodies rest on without bias, contacts, then the exact tree solve)
 *   with bias -> integrate positions -> relax without bias
 *   (twice) -> sum the substep's joint impulses; then continuous collision (fast bodies back to
 *   their time of impact), the joint trees' position projection, restitution, store impulses for
 *   the next step's warm start, joint reactions and breaking, and write the results back to the
 *   bodies. */
#include "joint.h"

/* The solver bodies of n slots from the first 64-byte boundary of their store (one spare body's
 * room: stb_ds arrays start 16-byte aligned). */
static void size_solver_bodies(sinew_world *w, int n)
{
	stbds_arrsetlen(w->solver_body_store, n + 1);
	uintptr_t at = (uintptr_t)w->solver_body_store;
	at = (at + SINEW_SOLVER_BODY_ALIGN - 1) & ~(uintptr_t)(SINEW_SOLVER_BODY_ALIGN - 1);
	w->solver_bodies = (sinew_solver_body *)(void *)at;
	stbds_arrsetlen(w->solver_start, n);
}

bool sinew_solver_reserve(sinew_world *w, size_t bodies)
{
	return SINEW_RESERVE(w->solver_body_store, bodies + 2) && SINEW_RESERVE(w->solver_start, bodies + 1) &&
	       SINEW_RESERVE(w->awake_bodies, bodies + 1);
}

/* Awake, enabled, non-static bodies (the awake set) get solver slots 1..n; slot 0 is the static dummy. */
static void gather_bodies(sinew_world *w, float h)
{
	/* the awake set lists exactly these bodies, in index order (awake.c); every other body's
	 * solver_index is 0 between steps (sinew_islands_update_sleep resets the solved ones) */
	sinew_index_set *set = &w->awake_set;
	sinew_index_set_flush(set);
	int n = (int)stbds_arrlen(set->items);
	size_solver_bodies(w, n + 1);
	stbds_arrsetlen(w->awake_bodies, 1);
	sinew_solver_body *dummy = &w->solver_bodies[0];
	*dummy = (sinew_solver_body){0};
	dummy->dq = sinew_rot_identity();
	dummy->linear_keep = dummy->angular_keep = 1.0f;
	w->awake_bodies[0] = SINEW_NULL_INDEX;
	sinew_vec2 g = w->gravity;
	for (int k = 0; k < n; ++k) {
		int32_t i = set->items[k];
		sinew_body *b = &w->bodies[i];
		sinew_solver_body sb = {0};
		sb.inv_mass = b->inv_mass;
		sb.inv_inertia = b->inv_inertia;
		sb.dp = sinew_v2(0.0f, 0.0f);
		sb.dq = sinew_rot_identity();
		if (b->type == SINEW_DYNAMIC_BODY) {
			sb.dv = sinew_scale(h, sinew_add(sinew_scale(b->gravity_scale, g), sinew_scale(b->inv_mass, b->force)));
			sb.dw = h * b->inv_inertia * b->torque;
			sb.linear_keep = 1.0f / (1.0f + h * b->linear_damping);
			sb.angular_keep = 1.0f / (1.0f + h * b->angular_damping);
		} else {
			sb.dv = sinew_v2(0.0f, 0.0f);
			sb.dw = 0.0f;
			sb.linear_keep = sb.angular_keep = 1.0f;
		}
		sb.v = b->v;
		sb.w = b->w;
		sb.center_offset = sinew_sub(b->center, b->xf.p);
		if (b->velocity_set) { /* shift a true velocity back by half a substep of forces */
			sb.v = sinew_mul_sub(sb.v, 0.5f, sb.dv);
			sb.w -= 0.5f * sb.dw;
			b->velocity_set = false;
		}
		b->center0 = b->center;
		b->q0 = b->xf.q;
		b->solver_index = k + 1;
		w->solver_bodies[k + 1] = sb;
		stbds_arrput(w->awake_bodies, i);
	}
}

/* last: the step's last substep, whose starting velocities finalize_bodies reads */
static void integrate_velocities(sinew_world *w, bool last)
{
	sinew_solver_body *bodies = w->solver_bodies;
	int n = sinew_solver_count(w);
	for (int i = 1; i < n; ++i) {
		sinew_solver_body *b = &bodies[i];
		if (last) w->solver_start[i] = (sinew_solver_start){b->v, b->w};
		b->v = sinew_scale(b->linear_keep, sinew_add(b->v, b->dv));
		b->w = b->angular_keep * (b->w + b->dw);
		/* a large torque on a tiny inertia: keep the constraint rows' products finite */
		if (fabsf(b->w) > SINEW_MAX_ANGULAR_SPEED) b->w = copysignf(SINEW_MAX_ANGULAR_SPEED, b->w);
	}
}

/* v scaled to max_speed when its squared length overflows: measured on a scaled copy (else a
 * huge velocity would be clamped to zero instead of to the maximum speed). */
static sinew_vec2 clamp_speed(sinew_vec2 v, float max_speed)
{
	float m = sinew_maxf(fabsf(v.x), fabsf(v.y));
	sinew_vec2 u = sinew_scale(1.0f / m, v);
	return sinew_scale(max_speed / sqrtf(sinew_dot(u, u)), u);
}

/* v, of squared length speed2, scaled down to max_speed: the rare case of limit_speed, kept out of
 * line so that the per-body loops inline the test (a call per body and substep before). */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static sinew_vec2 slow_down(sinew_vec2 v, float speed2, float max_speed)
{
	return isinf(speed2) ? clamp_speed(v, max_speed) : sinew_scale(max_speed / sqrtf(speed2), v);
}

/* v, or v scaled down to max_speed when faster. */
static inline sinew_vec2 limit_speed(sinew_vec2 v, float max_speed)
{
	float speed2 = sinew_dot(v, v);
	if (!(speed2 > max_speed * max_speed)) return v;
	return slow_down(v, speed2, max_speed);
}

static void integrate_positions(sinew_world *w, float h)
{
	sinew_solver_body *bodies = w->solver_bodies;
	int n = sinew_solver_count(w);
	for (int i = 1; i < n; ++i) {
		sinew_solver_body *b = &bodies[i];
		b->v = limit_speed(b->v, w->max_linear_speed);
		/* the rotation's integration squares h w: bound it like the linear speed */
		if (fabsf(b->w) > SINEW_MAX_ANGULAR_SPEED) b->w = copysignf(SINEW_MAX_ANGULAR_SPEED, b->w);
		b->dp = sinew_mul_add(b->dp, h, b->v);
		/* Kinematic bodies (no mass) turn by the exact angle: sinew_body_move_to promises the
		 * target rotation at the end of the step even for a large turn per substep, where the
		 * series of sinew_integrate_rot would fall short. */
		if (b->inv_mass == 0.0f) b->dq = sinew_mul_rot(b->dq, sinew_make_rot(h * b->w));
		else b->dq = sinew_integrate_rot(b->dq, h * b->w);
	}
}

/* Results back to the bodies: velocities, positions, and fresh broadphase boxes. */
static void finalize_bodies(sinew_world *w)
{
	int n = sinew_solver_count(w);
	for (int i = 1; i < n; ++i) {
		const sinew_solver_body *sb = &w->solver_bodies[i];
		const sinew_solver_start *s0 = &w->solver_start[i];
		sinew_body *b = &w->bodies[w->awake_bodies[i]];
		/* The relax passes and restitution change velocities after the integration's clamp (a
		 * bounce off a kinematic body that closes in adds twice its speed): clamp the velocity
		 * kept, and the velocity read from it (v + v_half), once more. */
		b->v = limit_speed(sb->v, w->max_linear_speed);
		/* The spin too, and so that no point of the body moves faster than the largest speed:
		 * with a restitution of 1000 (the envelope's) a spinning 1 km circle's bounces multiplied
		 * its spin until it overflowed (found by fuzz_api). */
		float max_spin = SINEW_MAX_ANGULAR_SPEED;
		if (b->max_extent * max_spin > w->max_linear_speed) max_spin = w->max_linear_speed / b->max_extent;
		float spin = fabsf(sb->w) > max_spin ? copysignf(max_spin, sb->w) : sb->w;
		b->w = spin;
		b->v_half = sinew_scale(0.5f, sinew_sub(b->v, s0->v));
		b->v_half = sinew_sub(limit_speed(sinew_add(b->v, b->v_half), w->max_linear_speed), b->v);
		b->w_half = 0.5f * (spin - s0->w);
		b->center = sinew_add(b->center0, sb->dp);
		b->xf.q = sinew_mul_rot(sb->dq, b->q0);
		float len = sqrtf(b->xf.q.c * b->xf.q.c + b->xf.q.s * b->xf.q.s);
		b->xf.q.c /= len;
		b->xf.q.s /= len;
		b->xf.p = sinew_sub(b->center, sinew_rotate(b->xf.q, b->local_center));
		b->force = sinew_v2(0.0f, 0.0f);
		b->torque = 0.0f;
		sinew_broadphase_refresh_body(w, b, false);
	}
}

void sinew_solver_step(sinew_world *w, float dt, int substeps)
{
	float h = dt / (float)substeps, inv_h = 1.0f / h;
	gather_bodies(w, h);
	/* like contacts, a correction rate stiffer than a quarter of the substep rate makes sequential
	 * rows overshoot: cap it there */
	float joint_hertz = sinew_minf(w->def.joint_hertz, 0.25f / h);
	w->joint_bias_rate = sinew_soft_bias_rate(joint_hertz, w->def.joint_damping_ratio, h);
	sinew_joints_prepare(w);
	/* the first substep's rows and trees (they depend on the pose, not on velocities), before the
	 * contacts, which take the trees' masses (contact_tree.c) */
	sinew_joints_update_rows(w, h, true);
	sinew_joint_tree_factor(w, h);
	sinew_contacts_prepare(w, h);
	sinew_contacts_order_push(w);
	sinew_joint_tree_mark_presolve(w);
	for (int i = 0; i < substeps; ++i) {
		integrate_velocities(w, i == substeps - 1);
		if (i > 0) {
			sinew_joints_update_rows(w, h, false);
			sinew_joint_tree_factor(w, h);
		}
		sinew_joints_warm_start(w);
		sinew_contacts_warm_start(w, i == 0);
		/* the trees that contacts touch answer the warm start before the contacts see it */
		sinew_joint_tree_presolve(w, h);
		/* joints last in each pass: the tree solve leaves every tree joint exact */
		sinew_joints_solve(w, h, true);
		sinew_contacts_solve(w, inv_h, SINEW_CONTACT_PASS_BIASED);
		sinew_joint_tree_solve(w, h, true);
		integrate_positions(w, h);
		for (int k = 0; k < SINEW_RELAX_ITERATIONS; ++k) {
			sinew_joints_solve(w, h, false);
			sinew_contacts_solve(w, inv_h, k == 0 ? SINEW_CONTACT_PASS_RELAX : SINEW_CONTACT_PASS_RELAX_AGAIN);
			sinew_joint_tree_solve(w, h, false);
		}
		sinew_joints_update_errors(w);
		sinew_joint_tree_project(w, true, inv_h);
		sinew_joints_end_substep(w);
	}
	sinew_continuous_collide(w);
	sinew_contacts_push(w);
	if (stbds_arrlen(w->tree_nodes) > 0) { /* post-stabilise the joint trees in position */
		sinew_joints_update_rows(w, h, false);
		sinew_joint_tree_project(w, false, 0.0f);
	}
	sinew_contacts_restitution(w);
	sinew_contacts_store(w);
	sinew_joints_finish(w, dt);
	finalize_bodies(w);
}
