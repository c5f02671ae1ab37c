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
 * A speculative point in the relax passes lets the pair approach by its gap in a substep, except
 * when a body of the pair has joints and the point is already pushing: then it holds the pair at
 * vn >= 0 (`hold`). The relax passes run after the positions are integrated, so an approach they
 * allow moves nothing until the next substep's biased pass takes it back; it is still the velocity
 * the step ends with. On limbs held off a contact by their joints that velocity never came out (a
 * lower arm read 7 cm/s while moving 0.5 cm/s) and kept ragdoll heaps and the crates on a bridge
 * awake. Without joints the held points made a settled capsule pile bounce (capsule_pile slept
 * after about 1,100 steps instead of 463), so unjointed pairs keep the approach.
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

float sinew_soft_bias_rate(float hertz, float zeta, float h)
{
	return make_soft(hertz, zeta, h).bias_rate;
}

void sinew_soft_coefficients(float hertz, float zeta, float h, float *bias_rate, float *mass_scale, float *impulse_scale)
{
	softness s = make_soft(hertz, zeta, h);
	*bias_rate = s.bias_rate;
	*mass_scale = s.mass_scale;
	*impulse_scale = s.impulse_scale;
}

/* What every constraint of contact c between solver slots ia and ib starts from, written once into
 * its position pass constraint pc (contact_push.c reads it as it is): the normal, the lift, and each
 * point's anchors from the centres of mass and base separation. Returns whether a body of the pair
 * has joints (sinew_contact_constraint.hold). */
static bool make_geometry(const sinew_world *w, const sinew_contact *c, int32_t ia, int32_t ib, sinew_push_constraint *pc)
{
	const sinew_body *ba = &w->bodies[c->edges[0].body], *bb = &w->bodies[c->edges[1].body];
	sinew_vec2 nrm = c->manifold.normal;
	/* a body in the solver has its offset there, in the line the packing reads anyway */
	sinew_vec2 offset_a = ia != 0 ? w->solver_bodies[ia].center_offset : sinew_sub(ba->center, ba->xf.p);
	sinew_vec2 offset_b = ib != 0 ? w->solver_bodies[ib].center_offset : sinew_sub(bb->center, bb->xf.p);
	int count = c->manifold.point_count;
	for (int j = 0; j < count; ++j) {
		const sinew_manifold_point *mp = &c->manifold.points[j];
		sinew_vec2 r_a = sinew_sub(mp->anchor_a, offset_a), r_b = sinew_sub(mp->anchor_b, offset_b);
		pc->r_a[j] = r_a;
		pc->r_b[j] = r_b;
		/* the velocity passes see the overlap the position pass has lifted away (contact_push.c) */
		pc->base_separation[j] = mp->separation - c->lift - sinew_dot(sinew_sub(r_b, r_a), nrm);
	}
	pc->normal = nrm;
	pc->lift = c->lift;
	pc->body_a = ia;
	pc->body_b = ib;
	pc->point_count = count;
	return ba->joint_count > 0 || bb->joint_count > 0;
}

/* The overflow constraint of contact c from its geometry pc at the start of the step, but for its
 * effective masses (constraint_masses; a coloured constraint is packed straight from pc into its
 * lane instead: sinew_contacts_pack_wide). */
static void make_constraint(const sinew_world *w, const sinew_contact *c, int32_t ci, const sinew_push_constraint *pc,
                            bool hold, softness soft, const sinew_tree_contact *tc, sinew_contact_constraint *cc)
{
	const sinew_solver_body *sa = &w->solver_bodies[pc->body_a], *sb = &w->solver_bodies[pc->body_b];
	cc->body_a = pc->body_a;
	cc->body_b = pc->body_b;
	cc->contact = ci;
	cc->normal = pc->normal;
	cc->friction = c->friction;
	cc->restitution = c->restitution;
	cc->point_count = pc->point_count;
	cc->force_dv = sinew_dot(sinew_sub(sb->dv, sa->dv), cc->normal);
	cc->lift = pc->lift;
	cc->bias_rate = soft.bias_rate;
	cc->mass_scale = soft.mass_scale;
	cc->impulse_scale = soft.impulse_scale;
	for (int j = 0; j < cc->point_count; ++j) {
		sinew_contact_point_constraint *cp = &cc->points[j];
		cp->r_a = pc->r_a[j];
		cp->r_b = pc->r_b[j];
		cp->base_separation = pc->base_separation[j];
		cp->normal_impulse = c->warm_normal[j];
		cp->tangent_impulse = c->warm_tangent[j];
		cp->total_normal_impulse = cp->total_tangent_impulse = 0.0f;
		cp->max_normal_impulse = 0.0f;
		/* the speed at impact is measured by the first biased pass, as by every biased pass until
		 * the point pushes (its max_normal_impulse is 0 until then: sinew_contacts_solve) */
		cp->relative_velocity = 0.0f;
	}
	cc->hold = hold;
	cc->tree = tc->side >= 0;
}

/* The effective masses of constraint cc: of each point along the normal and the tangent, and the
 * 2x2 normal mass matrix of a two-point manifold (contact_wide.c computes the same, eight lanes at
 * a time, for the coloured constraints), with what a joint tree adds along the normal (tree_k:
 * contact_tree.c; such a constraint is never coloured). */
static void constraint_masses(const sinew_world *w, const float *tree_k, sinew_contact_constraint *cc)
{
	const sinew_solver_body *sa = &w->solver_bodies[cc->body_a], *sb = &w->solver_bodies[cc->body_b];
	float ma = sa->inv_mass, Ia = sa->inv_inertia, mb = sb->inv_mass, Ib = sb->inv_inertia;
	sinew_vec2 nrm = cc->normal, tan = sinew_right_perp(nrm);
	for (int j = 0; j < cc->point_count; ++j) {
		sinew_contact_point_constraint *cp = &cc->points[j];
		float rna = sinew_cross(cp->r_a, nrm), rnb = sinew_cross(cp->r_b, nrm);
		float kn = ma + mb + Ia * rna * rna + Ib * rnb * rnb + tree_k[j];
		cp->normal_mass = kn > 0.0f ? 1.0f / kn : 0.0f;
		float rta = sinew_cross(cp->r_a, tan), rtb = sinew_cross(cp->r_b, tan);
		float kt = ma + mb + Ia * rta * rta + Ib * rtb * rtb;
		cp->tangent_mass = kt > 0.0f ? 1.0f / kt : 0.0f;
	}
	cc->block = false;
	if (cc->point_count == 2) {
		sinew_vec2 ra0 = cc->points[0].r_a, rb0 = cc->points[0].r_b, ra1 = cc->points[1].r_a, rb1 = cc->points[1].r_b;
		float rn_a0 = sinew_cross(ra0, nrm), rn_b0 = sinew_cross(rb0, nrm);
		float rn_a1 = sinew_cross(ra1, nrm), rn_b1 = sinew_cross(rb1, nrm);
		cc->k11 = ma + mb + Ia * rn_a0 * rn_a0 + Ib * rn_b0 * rn_b0 + tree_k[0];
		cc->k22 = ma + mb + Ia * rn_a1 * rn_a1 + Ib * rn_b1 * rn_b1 + tree_k[1];
		cc->k12 = ma + mb + Ia * rn_a0 * rn_a1 + Ib * rn_b0 * rn_b1 + tree_k[2];
		/* points too close together make K nearly singular: solve them one by one then */
		cc->block = cc->k11 * cc->k11 < 1000.0f * (cc->k11 * cc->k22 - cc->k12 * cc->k12);
	}
}

/* How many contacts ahead prepare and store ask for the lines of the contact they will read. */
#define CONTACT_PREFETCH 8

/* The first `bytes` of contact ci into the cache ahead of use: prepare and store walk the contacts
 * in index order, but far apart (268 bytes each, with gaps), and every walk waited on memory. */
static inline void prefetch_contact(const sinew_world *w, int32_t ci, size_t bytes)
{
#if defined(__GNUC__)
	const char *p = (const char *)&w->contacts[ci];
	for (size_t at = 0; at < bytes; at += 64) __builtin_prefetch(p + at);
	__builtin_prefetch(p + bytes - 1);
#else
	(void)w, (void)ci, (void)bytes;
#endif
}

/* How many contacts ahead prepare's listing walk (a few instructions per contact, so further ahead)
 * asks for the contact's first line, and for its bodies' solver slots and joint counts: the bodies
 * later, so that the contact that names them has arrived. */
#define LIST_PREFETCH 32
#define BODY_PREFETCH 16

/* The line of each of contact c's bodies that prepare reads (solver_index and joint_count): the
 * awake contacts' bodies are anywhere in the body pool. */
static inline void prefetch_bodies(const sinew_world *w, const sinew_contact *c)
{
#if defined(__GNUC__)
	if (!c->in_use) return;
	__builtin_prefetch(&w->bodies[c->edges[0].body].solver_index);
	__builtin_prefetch(&w->bodies[c->edges[1].body].solver_index);
#else
	(void)w, (void)c;
#endif
}

/* The step's contact constraints: the touching contacts of awake bodies are listed, coloured
 * (contact_wide.c), then each is built once, straight into its lane or its overflow place. */
void sinew_contacts_prepare(sinew_world *w, float h)
{
	stbds_arrsetlen(w->constraint_refs, 0);
	stbds_arrsetlen(w->restitution_refs, 0);
	float hertz = sinew_minf(w->def.contact_hertz, 0.25f / h);
	float zeta = w->def.contact_damping_ratio;
	softness soft = make_soft(hertz, zeta, h);
	w->contact_bias_rate = soft.bias_rate;
	w->contact_mass_scale = soft.mass_scale;
	w->contact_impulse_scale = soft.impulse_scale;
	w->wide_simd = (int8_t)sinew_contacts_wide_simd();
	/* a constraint has a body in the solver, so an awake body: the awake contacts, in index order */
	sinew_index_set *set = &w->awake_contacts;
	sinew_index_set_flush(set);
	int n = (int)stbds_arrlen(set->items);
	for (int k = 0; k < n; ++k) {
		if (k + LIST_PREFETCH < n) prefetch_contact(w, set->items[k + LIST_PREFETCH], offsetof(sinew_contact, shape_a));
		if (k + BODY_PREFETCH < n) prefetch_bodies(w, &w->contacts[set->items[k + BODY_PREFETCH]]);
		int32_t ci = set->items[k];
		const sinew_contact *c = &w->contacts[ci];
		if (!c->in_use || (c->flags & (SINEW_CONTACT_TOUCHING | SINEW_CONTACT_SENSOR)) != SINEW_CONTACT_TOUCHING) continue;
		int32_t ia = w->bodies[c->edges[0].body].solver_index, ib = w->bodies[c->edges[1].body].solver_index;
		if (ia == 0 && ib == 0) continue; /* asleep, or both fixed */
		sinew_constraint_ref ref = {ci, ia, ib, 0};
		stbds_arrput(w->constraint_refs, ref);
	}
	sinew_contacts_tree_mass(w);
	sinew_contacts_colour(w);
	int count = (int)stbds_arrlen(w->constraint_refs);
	stbds_arrsetlen(w->push_constraints, count);
	for (int i = 0; i < count; ++i) {
		const sinew_constraint_ref *ref = &w->constraint_refs[i];
		if (i + CONTACT_PREFETCH < count)
			prefetch_contact(w, ref[CONTACT_PREFETCH].contact, offsetof(sinew_contact, manifold) + sizeof(sinew_manifold));
		const sinew_contact *c = &w->contacts[ref->contact];
		sinew_push_constraint *pc = &w->push_constraints[i];
		bool hold = make_geometry(w, c, ref->body_a, ref->body_b, pc);
		if (ref->slot >= 0) {
			sinew_contacts_pack_wide(w, ref->slot, c, pc, hold);
		} else {
			sinew_contact_constraint *cc = &w->constraints[-1 - ref->slot];
			make_constraint(w, c, ref->contact, pc, hold, soft, &w->tree_contacts[i], cc);
			cc->ref = i;
			constraint_masses(w, w->tree_contacts[i].k, cc);
		}
		if (c->restitution != 0.0f) stbds_arrput(w->restitution_refs, i);
	}
	sinew_contacts_masses_wide(w);
}

static void apply_impulse(sinew_solver_body *a, sinew_solver_body *b, sinew_vec2 ra, sinew_vec2 rb, sinew_vec2 p)
{
	a->v = sinew_mul_sub(a->v, a->inv_mass, p);
	a->w -= a->inv_inertia * sinew_cross(ra, p);
	b->v = sinew_mul_add(b->v, b->inv_mass, p);
	b->w += b->inv_inertia * sinew_cross(rb, p);
}

/* Apply last substep's impulses again. The impulse applied in a substep is the accumulated value
 * at its end, so warm starting is also where the step's total impulse is summed. The overflow
 * constraints here, the coloured ones eight at a time (contact_wide.c). */
void sinew_contacts_warm_start(sinew_world *w, bool first_substep)
{
	sinew_solver_body *bodies = w->solver_bodies;
	int n = (int)stbds_arrlen(w->constraints);
	for (int i = 0; i < n; ++i) {
		sinew_contact_constraint *cc = &w->constraints[i];
		sinew_solver_body *a = &bodies[cc->body_a], *b = &bodies[cc->body_b];
		sinew_vec2 tan = sinew_right_perp(cc->normal);
		for (int j = 0; j < cc->point_count; ++j) {
			sinew_contact_point_constraint *cp = &cc->points[j];
			if (!first_substep) {
				cp->total_normal_impulse += cp->normal_impulse;
				cp->total_tangent_impulse += cp->tangent_impulse;
			}
			if (cc->tree) { /* the normal impulse through the tree (contact_tree.c) */
				sinew_contact_tree_apply(w, cc, j, cp->normal_impulse);
				apply_impulse(a, b, cp->r_a, cp->r_b, sinew_scale(cp->tangent_impulse, tan));
				continue;
			}
			sinew_vec2 p = sinew_add(sinew_scale(cp->normal_impulse, cc->normal), sinew_scale(cp->tangent_impulse, tan));
			apply_impulse(a, b, cp->r_a, cp->r_b, p);
		}
		bodies[0].v = sinew_v2(0.0f, 0.0f); /* the static dummy never moves */
		bodies[0].w = 0.0f;
	}
	sinew_contacts_warm_start_wide(w, first_substep);
}

static float relative_speed(const sinew_solver_body *a, const sinew_solver_body *b,
                            const sinew_contact_point_constraint *cp, sinew_vec2 axis)
{
	sinew_vec2 dv = sinew_sub(sinew_add(b->v, sinew_cross_sv(b->w, cp->r_b)), sinew_add(a->v, sinew_cross_sv(a->w, cp->r_a)));
	return sinew_dot(dv, axis);
}

/* Apply a change of normal impulse to one point and keep the bookkeeping. */
static void push_point(sinew_world *w, sinew_contact_constraint *cc, int j, float total)
{
	sinew_contact_point_constraint *cp = &cc->points[j];
	float impulse = total - cp->normal_impulse;
	cp->normal_impulse = total;
	cp->max_normal_impulse = sinew_maxf(cp->max_normal_impulse, impulse);
	if (cc->tree) {
		sinew_contact_tree_apply(w, cc, j, impulse);
		return;
	}
	apply_impulse(&w->solver_bodies[cc->body_a], &w->solver_bodies[cc->body_b], cp->r_a, cp->r_b, sinew_scale(impulse, cc->normal));
}

/* Both points of a two-point manifold at once, as a 2x2 linear complementarity problem: a box
 * resting on its face is not rocked by solving one corner after the other, and the pair's stiffness
 * acts on its true (translational) effective mass.
 * With accumulated impulses a, normal speeds vn, biases b and softness (ms, is), the soft update of
 * every active point is K x = (1 - is) K a - ms (vn + b); inactive points have x = 0 and a
 * separating speed. Enumerate the four cases; false when none fits (then solve one by one). */
static bool solve_block(sinew_world *w, sinew_contact_constraint *cc, const float vn[2], const float bias[2], float ms,
                        float is)
{
	sinew_contact_point_constraint *p0 = &cc->points[0], *p1 = &cc->points[1];
	float k11 = cc->k11, k12 = cc->k12, k22 = cc->k22;
	float a0 = p0->normal_impulse, a1 = p1->normal_impulse;
	float q0 = ms * (vn[0] + bias[0]) - (1.0f - is) * (k11 * a0 + k12 * a1);
	float q1 = ms * (vn[1] + bias[1]) - (1.0f - is) * (k12 * a0 + k22 * a1);
	float x0, x1;
	float inv_det = 1.0f / (k11 * k22 - k12 * k12);
	x0 = -inv_det * (k22 * q0 - k12 * q1);
	x1 = -inv_det * (k11 * q1 - k12 * q0);
	if (!(x0 >= 0.0f && x1 >= 0.0f)) {
		x0 = -q0 / k11, x1 = 0.0f;
		if (!(x0 >= 0.0f && k12 * x0 + q1 >= 0.0f)) {
			x0 = 0.0f, x1 = -q1 / k22;
			if (!(x1 >= 0.0f && k12 * x1 + q0 >= 0.0f)) {
				x0 = x1 = 0.0f;
				if (!(q0 >= 0.0f && q1 >= 0.0f)) return false;
			}
		}
	}
	push_point(w, cc, 0, x0);
	push_point(w, cc, 1, x1);
	return true;
}

/* One pass over every contact constraint: the overflow ones one by one here, then the coloured
 * ones eight at a time (contact_wide.c, the same equations). */
void sinew_contacts_solve(sinew_world *w, float inv_h, sinew_contact_pass pass)
{
	bool use_bias = pass == SINEW_CONTACT_PASS_BIASED;
	sinew_solver_body *bodies = w->solver_bodies;
	float push = w->push_max_speed;
	int n = (int)stbds_arrlen(w->constraints);
	for (int k = 0; k < n; ++k) {
		sinew_contact_constraint *cc = &w->constraints[k];
		sinew_solver_body *a = &bodies[cc->body_a], *b = &bodies[cc->body_b];
		sinew_vec2 nrm = cc->normal;
		float bias[2], vn[2];
		int soft_points = 0;
		for (int j = 0; j < cc->point_count; ++j) {
			sinew_contact_point_constraint *cp = &cc->points[j];
			sinew_vec2 da = sinew_add(a->dp, sinew_rotate(a->dq, cp->r_a));
			sinew_vec2 db = sinew_add(b->dp, sinew_rotate(b->dq, cp->r_b));
			float s = cp->base_separation + sinew_dot(sinew_sub(db, da), nrm);
			bias[j] = 0.0f;
			if (s > 0.0f) {
				/* speculative: close the gap, no more; in the relax passes a point that is already
				 * pushing may not approach at all (see the top of the file) */
				bias[j] = !use_bias && cc->hold && cp->normal_impulse > 0.0f ? 0.0f : s * inv_h;
			} else if (use_bias) {
				bias[j] = sinew_maxf(cc->bias_rate * s, -push);
				soft_points += 1;
			}
			vn[j] = relative_speed(a, b, cp, nrm);
			/* speed at impact (true velocity: the solver's lags half a substep of forces) */
			if (use_bias && cp->max_normal_impulse == 0.0f) cp->relative_velocity = vn[j] + 0.5f * cc->force_dv;
		}
		/* the block needs one softness for both points: both soft, or both rigid */
		bool block = cc->point_count == 2 && cc->block && (soft_points == 0 || soft_points == 2);
		float ms = soft_points ? cc->mass_scale : 1.0f, is = soft_points ? cc->impulse_scale : 0.0f;
		if (!block || !solve_block(w, cc, vn, bias, ms, is)) {
			for (int j = 0; j < cc->point_count; ++j) {
				sinew_contact_point_constraint *cp = &cc->points[j];
				bool soft = use_bias && bias[j] <= 0.0f;
				float mass_scale = soft ? cc->mass_scale : 1.0f, impulse_scale = soft ? cc->impulse_scale : 0.0f;
				float v = j == 0 ? vn[0] : relative_speed(a, b, cp, nrm);
				float impulse = -cp->normal_mass * mass_scale * (v + bias[j]) - impulse_scale * cp->normal_impulse;
				push_point(w, cc, j, sinew_maxf(cp->normal_impulse + impulse, 0.0f));
			}
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
	sinew_contacts_solve_wide(w, inv_h, pass);
}

/* Constraint ref's state: in place for the overflow, else copied out of its lane into *scratch. */
static sinew_contact_constraint *constraint_of(sinew_world *w, const sinew_constraint_ref *ref, int point_count,
                                               sinew_contact_constraint *scratch)
{
	if (ref->slot < 0) return &w->constraints[-1 - ref->slot];
	sinew_contacts_read_wide(w, ref->slot, point_count, scratch);
	return scratch;
}

void sinew_contacts_restitution(sinew_world *w)
{
	sinew_solver_body *bodies = w->solver_bodies;
	float threshold = w->def.restitution_threshold * w->lengths, max_speed = w->max_linear_speed;
	int n = (int)stbds_arrlen(w->restitution_refs);
	for (int k = 0; k < n; ++k) {
		const sinew_constraint_ref *ref = &w->constraint_refs[w->restitution_refs[k]];
		const sinew_contact *c = &w->contacts[ref->contact];
		/* most contacts do not bounce (spinner: every shape has restitution 0.1, and its resting
		 * contacts cost 170 instructions each here): test a lane's points before gathering it */
		if (ref->slot >= 0 && !sinew_contacts_bounces_wide(w, ref->slot, c->manifold.point_count, threshold)) continue;
		sinew_contact_constraint scratch;
		sinew_contact_constraint *cc = constraint_of(w, ref, c->manifold.point_count, &scratch);
		sinew_solver_body *a = &bodies[cc->body_a], *b = &bodies[cc->body_b];
		for (int j = 0; j < cc->point_count; ++j) {
			sinew_contact_point_constraint *cp = &cc->points[j];
			if (cp->relative_velocity > -threshold || cp->max_normal_impulse == 0.0f) continue;
			/* bounce to -e times the impact speed, as a true velocity, but no faster than a body
			 * may move: the impact speed is read after the warm start, which holds the last
			 * bounce's impulse, so with e > 1 (the envelope allows 1000) each step's bounce fed
			 * the next one's impact speed and the stored impulse grew e-fold per step to
			 * infinity (found by fuzz_api) */
			float vn = relative_speed(a, b, cp, cc->normal);
			float bounce = sinew_minf(-(c->restitution * cp->relative_velocity), max_speed);
			/* the bodies' own mass: no tree solve follows to spread a tree's (contact_tree.c) */
			float rna = sinew_cross(cp->r_a, cc->normal), rnb = sinew_cross(cp->r_b, cc->normal);
			float kn = a->inv_mass + b->inv_mass + a->inv_inertia * rna * rna + b->inv_inertia * rnb * rnb;
			float impulse = -(kn > 0.0f ? 1.0f / kn : 0.0f) * (vn - bounce + 0.5f * cc->force_dv);
			float total = sinew_maxf(cp->normal_impulse + impulse, 0.0f);
			impulse = total - cp->normal_impulse;
			cp->normal_impulse = total;
			cp->max_normal_impulse = sinew_maxf(cp->max_normal_impulse, impulse);
			apply_impulse(a, b, cp->r_a, cp->r_b, sinew_scale(impulse, cc->normal));
		}
		if (ref->slot >= 0) sinew_contacts_write_normal_wide(w, ref->slot, cc->point_count, cc);
		bodies[0].v = sinew_v2(0.0f, 0.0f);
		bodies[0].w = 0.0f;
	}
}

void sinew_contacts_store(sinew_world *w)
{
	int n = (int)stbds_arrlen(w->constraint_refs);
	for (int i = 0; i < n; ++i) {
		const sinew_constraint_ref *ref = &w->constraint_refs[i];
		if (i + CONTACT_PREFETCH < n)
			prefetch_contact(w, ref[CONTACT_PREFETCH].contact, offsetof(sinew_contact, manifold) + sizeof(sinew_manifold));
		sinew_contact *c = &w->contacts[ref->contact];
		c->lift = w->push_constraints[i].lift;
		if (ref->slot >= 0) {
			sinew_contacts_store_wide(w, ref->slot, c);
			continue;
		}
		const sinew_contact_constraint *cc = &w->constraints[-1 - ref->slot];
		for (int j = 0; j < cc->point_count; ++j) {
			const sinew_contact_point_constraint *cp = &cc->points[j];
			sinew_contact_store_point(c, j, cp->normal_impulse, cp->tangent_impulse, cp->total_normal_impulse,
			                          cp->total_tangent_impulse, cp->max_normal_impulse, cp->relative_velocity);
		}
	}
}
