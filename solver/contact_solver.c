/* The contact constraint of the soft-step solver.
 *
 * For a contact point with normal n and anchors rA, rB (from each centre of mass):
 *   C    = separation = base + n . ((dpB + rot(dqB) rB) - (dpA + rot(dqA) rA))
 *   Cdot = n . (vB + wB x rB - vA - wA x rA)
 *   J    = [-n, -rA x n, n, rB x n],  K = mA + mB + iA (rA x n)^2 + iB (rB x n)^2
 * The normal impulse is clamped to be non-negative (accumulated over the step). A positive
 * separation (a speculative contact) lets the bodies close the gap in one substep and no further.
 * Overlap is removed softly: a spring-damper at contact_hertz (twice that against static or
 * kinematic bodies) expressed through bias_rate, mass_scale and impulse_scale, and capped at the
 * push-out speed. The relax pass solves without bias so the push-out adds no energy.
 * Friction: the tangent impulse is clamped by friction times the normal impulse (Coulomb).
 * Restitution is applied once after the substeps from the normal speed measured before the step,
 * for points that approached faster than the threshold and actually pushed. */
#include "world.h"

typedef struct softness {
	float bias_rate, mass_scale, impulse_scale;
} softness;

/* A soft constraint with natural frequency hertz and damping ratio zeta over substep h. */
static softness make_soft(float hertz, float zeta, float h)
{
	softness s = {0.0f, 1.0f, 0.0f};
	if (hertz == 0.0f) return s;
	float omega = 2.0f * SINEW_PI * hertz;
	float a1 = 2.0f * zeta + h * omega;
	float a2 = h * omega * a1;
	float a3 = 1.0f / (1.0f + a2);
	s.bias_rate = omega / a1;
	s.mass_scale = a2 * a3;
	s.impulse_scale = a3;
	return s;
}

void sinew_contacts_prepare(sinew_world *w, float h)
{
	stbds_arrsetlen(w->constraints, 0);
	float hertz = sinew_minf(w->def.contact_hertz, 0.25f / h);
	softness soft = make_soft(hertz, w->def.contact_damping_ratio, h);
	softness static_soft = make_soft(2.0f * hertz, w->def.contact_damping_ratio, h);
	int n = (int)stbds_arrlen(w->contacts);
	for (int ci = 0; ci < n; ++ci) {
		const sinew_contact *c = &w->contacts[ci];
		if (!c->in_use || (c->flags & (SINEW_CONTACT_TOUCHING | SINEW_CONTACT_SENSOR)) != SINEW_CONTACT_TOUCHING) continue;
		const sinew_body *ba = &w->bodies[c->edges[0].body], *bb = &w->bodies[c->edges[1].body];
		int32_t ia = ba->solver_index, ib = bb->solver_index;
		if (ia == 0 && ib == 0) continue; /* asleep, or both fixed */
		const sinew_solver_body *sa = &w->solver_bodies[ia], *sb = &w->solver_bodies[ib];
		float ma = sa->inv_mass, Ia = sa->inv_inertia, mb = sb->inv_mass, Ib = sb->inv_inertia;
		sinew_contact_constraint cc;
		cc.body_a = ia;
		cc.body_b = ib;
		cc.contact = ci;
		cc.normal = c->manifold.normal;
		cc.friction = c->friction;
		cc.restitution = c->restitution;
		softness s = (ma == 0.0f || mb == 0.0f) ? static_soft : soft;
		cc.bias_rate = s.bias_rate;
		cc.mass_scale = s.mass_scale;
		cc.impulse_scale = s.impulse_scale;
		cc.point_count = c->manifold.point_count;
		sinew_vec2 nrm = cc.normal, tan = sinew_right_perp(nrm);
		sinew_vec2 offset_a = sinew_sub(ba->center, ba->xf.p), offset_b = sinew_sub(bb->center, bb->xf.p);
		for (int j = 0; j < cc.point_count; ++j) {
			const sinew_manifold_point *mp = &c->manifold.points[j];
			sinew_contact_point_constraint *cp = &cc.points[j];
			cp->r_a = sinew_sub(mp->anchor_a, offset_a);
			cp->r_b = sinew_sub(mp->anchor_b, offset_b);
			cp->base_separation = mp->separation - sinew_dot(sinew_sub(cp->r_b, cp->r_a), nrm);
			float rna = sinew_cross(cp->r_a, nrm), rnb = sinew_cross(cp->r_b, nrm);
			float kn = ma + mb + Ia * rna * rna + Ib * rnb * rnb;
			cp->normal_mass = kn > 0.0f ? 1.0f / kn : 0.0f;
			float rta = sinew_cross(cp->r_a, tan), rtb = sinew_cross(cp->r_b, tan);
			float kt = ma + mb + Ia * rta * rta + Ib * rtb * rtb;
			cp->tangent_mass = kt > 0.0f ? 1.0f / kt : 0.0f;
			cp->normal_impulse = mp->normal_impulse;
			cp->tangent_impulse = mp->tangent_impulse;
			cp->max_normal_impulse = 0.0f;
			sinew_vec2 dv = sinew_sub(sinew_add(sb->v, sinew_cross_sv(sb->w, cp->r_b)),
			                          sinew_add(sa->v, sinew_cross_sv(sa->w, cp->r_a)));
			cp->relative_velocity = sinew_dot(nrm, dv);
		}
		stbds_arrput(w->constraints, cc);
	}
}

static void apply_impulse(sinew_solver_body *a, sinew_solver_body *b, sinew_vec2 ra, sinew_vec2 rb, sinew_vec2 p)
{
	a->v = sinew_mul_sub(a->v, a->inv_mass, p);
	a->w -= a->inv_inertia * sinew_cross(ra, p);
	b->v = sinew_mul_add(b->v, b->inv_mass, p);
	b->w += b->inv_inertia * sinew_cross(rb, p);
}

void sinew_contacts_warm_start(sinew_world *w)
{
	sinew_solver_body *bodies = w->solver_bodies;
	int n = (int)stbds_arrlen(w->constraints);
	for (int i = 0; i < n; ++i) {
		const sinew_contact_constraint *cc = &w->constraints[i];
		sinew_solver_body *a = &bodies[cc->body_a], *b = &bodies[cc->body_b];
		sinew_vec2 tan = sinew_right_perp(cc->normal);
		for (int j = 0; j < cc->point_count; ++j) {
			const sinew_contact_point_constraint *cp = &cc->points[j];
			sinew_vec2 p = sinew_add(sinew_scale(cp->normal_impulse, cc->normal), sinew_scale(cp->tangent_impulse, tan));
			apply_impulse(a, b, cp->r_a, cp->r_b, p);
		}
		bodies[0].v = sinew_v2(0.0f, 0.0f); /* the static dummy never moves */
		bodies[0].w = 0.0f;
	}
}

static float relative_speed(const sinew_solver_body *a, const sinew_solver_body *b,
                            const sinew_contact_point_constraint *cp, sinew_vec2 axis)
{
	sinew_vec2 dv = sinew_sub(sinew_add(b->v, sinew_cross_sv(b->w, cp->r_b)), sinew_add(a->v, sinew_cross_sv(a->w, cp->r_a)));
	return sinew_dot(dv, axis);
}

/* The hot loop of the solver: one pass over every contact constraint. */
void sinew_contacts_solve(sinew_world *w, float inv_h, bool use_bias)
{
	sinew_solver_body *bodies = w->solver_bodies;
	float push = w->push_max_speed;
	int n = (int)stbds_arrlen(w->constraints);
	for (int i = 0; i < n; ++i) {
		sinew_contact_constraint *cc = &w->constraints[i];
		sinew_solver_body *a = &bodies[cc->body_a], *b = &bodies[cc->body_b];
		sinew_vec2 nrm = cc->normal;
		for (int j = 0; j < cc->point_count; ++j) {
			sinew_contact_point_constraint *cp = &cc->points[j];
			sinew_vec2 da = sinew_add(a->dp, sinew_rotate(a->dq, cp->r_a));
			sinew_vec2 db = sinew_add(b->dp, sinew_rotate(b->dq, cp->r_b));
			float s = cp->base_separation + sinew_dot(sinew_sub(db, da), nrm);
			float bias = 0.0f, mass_scale = 1.0f, impulse_scale = 0.0f;
			if (s > 0.0f) {
				bias = s * inv_h; /* speculative: close the gap, no more */
			} else if (use_bias) {
				bias = sinew_maxf(cc->bias_rate * s, -push);
				mass_scale = cc->mass_scale;
				impulse_scale = cc->impulse_scale;
			}
			float vn = relative_speed(a, b, cp, nrm);
			float impulse = -cp->normal_mass * mass_scale * (vn + bias) - impulse_scale * cp->normal_impulse;
			float total = sinew_maxf(cp->normal_impulse + impulse, 0.0f);
			impulse = total - cp->normal_impulse;
			cp->normal_impulse = total;
			cp->max_normal_impulse = sinew_maxf(cp->max_normal_impulse, impulse);
			apply_impulse(a, b, cp->r_a, cp->r_b, sinew_scale(impulse, nrm));
		}
		sinew_vec2 tan = sinew_right_perp(nrm);
		for (int j = 0; j < cc->point_count; ++j) {
			sinew_contact_point_constraint *cp = &cc->points[j];
			float vt = relative_speed(a, b, cp, tan);
			float impulse = -cp->tangent_mass * vt;
			float limit = cc->friction * cp->normal_impulse;
			float total = sinew_clampf(cp->tangent_impulse + impulse, -limit, limit);
			impulse = total - cp->tangent_impulse;
			cp->tangent_impulse = total;
			apply_impulse(a, b, cp->r_a, cp->r_b, sinew_scale(impulse, tan));
		}
		bodies[0].v = sinew_v2(0.0f, 0.0f);
		bodies[0].w = 0.0f;
	}
}

void sinew_contacts_restitution(sinew_world *w)
{
	sinew_solver_body *bodies = w->solver_bodies;
	float threshold = w->def.restitution_threshold * w->lengths;
	int n = (int)stbds_arrlen(w->constraints);
	for (int i = 0; i < n; ++i) {
		sinew_contact_constraint *cc = &w->constraints[i];
		if (cc->restitution == 0.0f) continue;
		sinew_solver_body *a = &bodies[cc->body_a], *b = &bodies[cc->body_b];
		for (int j = 0; j < cc->point_count; ++j) {
			sinew_contact_point_constraint *cp = &cc->points[j];
			if (cp->relative_velocity > -threshold || cp->max_normal_impulse == 0.0f) continue;
			float vn = relative_speed(a, b, cp, cc->normal);
			float impulse = -cp->normal_mass * (vn + cc->restitution * cp->relative_velocity);
			float total = sinew_maxf(cp->normal_impulse + impulse, 0.0f);
			impulse = total - cp->normal_impulse;
			cp->normal_impulse = total;
			cp->max_normal_impulse = sinew_maxf(cp->max_normal_impulse, impulse);
			apply_impulse(a, b, cp->r_a, cp->r_b, sinew_scale(impulse, cc->normal));
		}
		bodies[0].v = sinew_v2(0.0f, 0.0f);
		bodies[0].w = 0.0f;
	}
}

void sinew_contacts_store(sinew_world *w)
{
	int n = (int)stbds_arrlen(w->constraints);
	for (int i = 0; i < n; ++i) {
		const sinew_contact_constraint *cc = &w->constraints[i];
		sinew_manifold *m = &w->contacts[cc->contact].manifold;
		for (int j = 0; j < cc->point_count; ++j) {
			m->points[j].normal_impulse = cc->points[j].normal_impulse;
			m->points[j].tangent_impulse = cc->points[j].tangent_impulse;
			m->points[j].max_normal_impulse = cc->points[j].max_normal_impulse;
			m->points[j].normal_velocity = cc->points[j].relative_velocity;
		}
	}
}
