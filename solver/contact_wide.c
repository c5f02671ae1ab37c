/* The contact solver four constraints at a time.
 *
 * Graph colouring: each contact constraint gets the first of SINEW_GRAPH_COLOURS colours in which
 * neither of its dynamic bodies has a constraint yet (static and kinematic bodies take no colour:
 * the solver never changes their velocity). The constraints of one colour then share no body
 * that moves, so they can be solved in any order, and four at once: each colour's constraints
 * are packed, in constraint order, into sinew_contact_wide blocks of four lanes (the last one
 * padded with lanes on the static dummy that apply nothing). A constraint that finds no free
 * colour goes to the overflow list, solved one by one by contact_solver.c before the colours.
 * Colouring and packing run in constraint order, so the answer is the same on every run of a
 * build. The lanes run the same soft-step equations as contact_solver.c (see there): speculative
 * and soft bias, the 2x2 block solve of a two-point manifold with the one-by-one fallback,
 * Coulomb friction, the impulses summed for restitution and warm starting.
 *
 * The four lanes are SSE2 registers where the compiler targets SSE2 (every x86-64) and a
 * plain four-float struct elsewhere; both give the same answer for a given build. Comparisons
 * give lane masks, and every branch of the scalar code is a select between both results. */
#include "world.h"

#include <stddef.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
typedef __m128 f4;
typedef __m128 m4;
static inline f4 f4_load(const float *p) { return _mm_loadu_ps(p); }
static inline void f4_store(float *p, f4 a) { _mm_storeu_ps(p, a); }
static inline f4 f4_splat(float x) { return _mm_set1_ps(x); }
static inline f4 f4_add(f4 a, f4 b) { return _mm_add_ps(a, b); }
static inline f4 f4_sub(f4 a, f4 b) { return _mm_sub_ps(a, b); }
static inline f4 f4_mul(f4 a, f4 b) { return _mm_mul_ps(a, b); }
static inline f4 f4_div(f4 a, f4 b) { return _mm_div_ps(a, b); }
static inline f4 f4_neg(f4 a) { return _mm_xor_ps(a, _mm_set1_ps(-0.0f)); }
/* a > b ? a : b, as sinew_maxf (MAXPS returns its second operand when the comparison fails) */
static inline f4 f4_max(f4 a, f4 b) { return _mm_max_ps(a, b); }
static inline m4 f4_gt(f4 a, f4 b) { return _mm_cmpgt_ps(a, b); }
static inline m4 f4_ge(f4 a, f4 b) { return _mm_cmpge_ps(a, b); }
static inline m4 f4_lt(f4 a, f4 b) { return _mm_cmplt_ps(a, b); }
static inline m4 f4_le(f4 a, f4 b) { return _mm_cmple_ps(a, b); }
static inline m4 f4_eq(f4 a, f4 b) { return _mm_cmpeq_ps(a, b); }
static inline m4 m4_and(m4 a, m4 b) { return _mm_and_ps(a, b); }
static inline m4 m4_or(m4 a, m4 b) { return _mm_or_ps(a, b); }
static inline m4 m4_all(bool x) { return _mm_castsi128_ps(_mm_set1_epi32(x ? -1 : 0)); }
/* lanes where both masks are set or both clear */
static inline m4 m4_same(m4 a, m4 b) { return _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_castps_si128(a), _mm_castps_si128(b))); }
/* m ? a : b, lane by lane */
static inline f4 f4_select(m4 m, f4 a, f4 b) { return _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b)); }
#else
typedef struct f4 {
	float x[4];
} f4;
typedef struct m4 {
	bool x[4];
} m4;
#define F4_MAP(expr)                                            \
	f4 r;                                                   \
	for (int i = 0; i < 4; ++i) r.x[i] = (expr);            \
	return r
#define M4_MAP(expr)                                            \
	m4 r;                                                   \
	for (int i = 0; i < 4; ++i) r.x[i] = (expr);            \
	return r
static inline f4 f4_load(const float *p) { F4_MAP(p[i]); }
static inline void f4_store(float *p, f4 a)
{
	for (int i = 0; i < 4; ++i) p[i] = a.x[i];
}
static inline f4 f4_splat(float x) { F4_MAP(x); }
static inline f4 f4_add(f4 a, f4 b) { F4_MAP(a.x[i] + b.x[i]); }
static inline f4 f4_sub(f4 a, f4 b) { F4_MAP(a.x[i] - b.x[i]); }
static inline f4 f4_mul(f4 a, f4 b) { F4_MAP(a.x[i] * b.x[i]); }
static inline f4 f4_div(f4 a, f4 b) { F4_MAP(a.x[i] / b.x[i]); }
static inline f4 f4_neg(f4 a) { F4_MAP(-a.x[i]); }
static inline f4 f4_max(f4 a, f4 b) { F4_MAP(a.x[i] > b.x[i] ? a.x[i] : b.x[i]); }
static inline m4 f4_gt(f4 a, f4 b) { M4_MAP(a.x[i] > b.x[i]); }
static inline m4 f4_ge(f4 a, f4 b) { M4_MAP(a.x[i] >= b.x[i]); }
static inline m4 f4_lt(f4 a, f4 b) { M4_MAP(a.x[i] < b.x[i]); }
static inline m4 f4_le(f4 a, f4 b) { M4_MAP(a.x[i] <= b.x[i]); }
static inline m4 f4_eq(f4 a, f4 b) { M4_MAP(a.x[i] == b.x[i]); }
static inline m4 m4_and(m4 a, m4 b) { M4_MAP(a.x[i] && b.x[i]); }
static inline m4 m4_or(m4 a, m4 b) { M4_MAP(a.x[i] || b.x[i]); }
static inline m4 m4_all(bool x) { M4_MAP(x); }
static inline m4 m4_same(m4 a, m4 b) { M4_MAP(a.x[i] == b.x[i]); }
static inline f4 f4_select(m4 m, f4 a, f4 b) { F4_MAP(m.x[i] ? a.x[i] : b.x[i]); }
#endif

/* The solve and warm start kernels are built twice where gcc can pick a clone when the program
 * loads (x86-64 Linux): for the SSE2 baseline and for AVX, which runs the same 128-bit operations
 * in the VEX encoding (three operands: no register copies). The answer is the same bit for bit:
 * the same IEEE operations, in the same order, and no fused multiply-add (-ffp-contract=off). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && defined(__SSE2__)
#define WIDE_KERNEL __attribute__((target_clones("avx", "default")))
#else
#define WIDE_KERNEL
#endif
/* The kernel's pieces, inlined into each clone (called from two clones, gcc would keep them apart). */
#if defined(__GNUC__)
#define WIDE_INLINE static inline __attribute__((always_inline))
#else
#define WIDE_INLINE static inline
#endif

/* One contact point of the four lanes. */
typedef struct wide_point {
	float rax[4], ray[4], rbx[4], rby[4]; /* anchors from the centres of mass */
	float base_separation[4], normal_mass[4], tangent_mass[4];
	float normal_impulse[4], tangent_impulse[4], max_normal_impulse[4];
	float relative_velocity[4], total_normal_impulse[4], total_tangent_impulse[4];
} wide_point;

/* Four contact constraints of one colour, lane by lane (see sinew_contact_constraint). */
typedef struct sinew_contact_wide {
	int32_t body_a[4], body_b[4];
	float inv_mass_a[4], inv_inertia_a[4], inv_mass_b[4], inv_inertia_b[4];
	float nx[4], ny[4], friction[4], force_dv[4];
	float k11[4], k12[4], k22[4];
	float block[4]; /* 1: solve the two points together */
	wide_point points[2];
} sinew_contact_wide;

/* A body that the contact solver can move: not static, not kinematic. */
static bool moves(const sinew_solver_body *b)
{
	return b->inv_mass > 0.0f || b->inv_inertia > 0.0f;
}

/* Point wp of lane l as padding: far apart, no mass, no impulse (also a one-point constraint's second). */
static void pad_point(wide_point *wp, int l)
{
	wp->rax[l] = wp->ray[l] = wp->rbx[l] = wp->rby[l] = 0.0f;
	wp->base_separation[l] = 1.0f;
	wp->normal_mass[l] = wp->tangent_mass[l] = 0.0f;
	wp->normal_impulse[l] = wp->tangent_impulse[l] = wp->max_normal_impulse[l] = 0.0f;
	wp->relative_velocity[l] = wp->total_normal_impulse[l] = wp->total_tangent_impulse[l] = 0.0f;
}

/* Lane l as padding: the static dummy on both sides, no mass, no impulse, never touching. Every
 * field is written, so the wide constraints need no clearing. */
static void pad_lane(sinew_contact_wide *cw, int l)
{
	cw->body_a[l] = cw->body_b[l] = 0;
	cw->inv_mass_a[l] = cw->inv_inertia_a[l] = cw->inv_mass_b[l] = cw->inv_inertia_b[l] = 0.0f;
	cw->nx[l] = 1.0f;
	cw->ny[l] = cw->friction[l] = cw->force_dv[l] = 0.0f;
	cw->k11[l] = cw->k22[l] = 1.0f;
	cw->k12[l] = cw->block[l] = 0.0f;
	pad_point(&cw->points[0], l);
	pad_point(&cw->points[1], l);
}

/* Gives every constraint of the step a colour (or the overflow list) and so its slot: a lane of the
 * wide constraints, colour by colour in constraint order, or a place in world.constraints. */
void sinew_contacts_colour(sinew_world *w)
{
	int n = (int)stbds_arrlen(w->constraint_refs);
	int body_count = (int)stbds_arrlen(w->solver_bodies);
	int words = (body_count + 63) / 64;
	stbds_arrsetlen(w->colour_bits, (size_t)words * SINEW_GRAPH_COLOURS);
	memset(w->colour_bits, 0, sizeof *w->colour_bits * (size_t)words * SINEW_GRAPH_COLOURS);
	int counts[SINEW_GRAPH_COLOURS] = {0};
	int overflow = 0;
	/* Newest constraints take the first colours. Chosen by measurement on large_pyramid (drift after
	 * 500 steps): 0.296 m this way, 0.326 m oldest first, 0.311 m for the serial solver it replaced.
	 * The overflow is solved in this order too. */
	for (int i = n - 1; i >= 0; --i) {
		sinew_constraint_ref *ref = &w->constraint_refs[i];
		int32_t a = ref->body_a, b = ref->body_b;
		bool ma = moves(&w->solver_bodies[a]), mb = moves(&w->solver_bodies[b]);
		uint64_t bit_a = (uint64_t)1 << (a & 63), bit_b = (uint64_t)1 << (b & 63);
		int colour = -1;
		for (int c = 0; c < SINEW_GRAPH_COLOURS; ++c) {
			uint64_t *bits = w->colour_bits + (size_t)c * words;
			if ((ma && (bits[a >> 6] & bit_a)) || (mb && (bits[b >> 6] & bit_b))) continue;
			if (ma) bits[a >> 6] |= bit_a;
			if (mb) bits[b >> 6] |= bit_b;
			colour = c;
			break;
		}
		if (colour < 0) {
			ref->slot = -1 - overflow++;
		} else {
			ref->slot = colour; /* for now: the lane follows below */
			counts[colour] += 1;
		}
	}
	stbds_arrsetlen(w->constraints, overflow);
	int total = 0;
	for (int c = 0; c < SINEW_GRAPH_COLOURS; ++c) {
		w->colour_start[c] = total;
		total += (counts[c] + 3) / 4;
	}
	w->colour_start[SINEW_GRAPH_COLOURS] = total;
	stbds_arrsetlen(w->wide_constraints, total);
	int fill[SINEW_GRAPH_COLOURS];
	for (int c = 0; c < SINEW_GRAPH_COLOURS; ++c) {
		fill[c] = w->colour_start[c] * 4;
		/* the lanes after the colour's last constraint are padding */
		for (int l = counts[c] & 3; l > 0 && l < 4; ++l) pad_lane(&w->wide_constraints[w->colour_start[c + 1] - 1], l);
	}
	for (int i = 0; i < n; ++i) {
		sinew_constraint_ref *ref = &w->constraint_refs[i];
		if (ref->slot >= 0) ref->slot = fill[ref->slot]++;
	}
}

/* Constraint cc into lane slot. A one-point constraint's second point is a padding point. */
void sinew_contacts_pack_wide(sinew_world *w, int32_t slot, const sinew_contact_constraint *cc)
{
	sinew_contact_wide *cw = &w->wide_constraints[slot >> 2];
	int l = slot & 3;
	const sinew_solver_body *sa = &w->solver_bodies[cc->body_a], *sb = &w->solver_bodies[cc->body_b];
	cw->body_a[l] = cc->body_a;
	cw->body_b[l] = cc->body_b;
	cw->inv_mass_a[l] = sa->inv_mass;
	cw->inv_inertia_a[l] = sa->inv_inertia;
	cw->inv_mass_b[l] = sb->inv_mass;
	cw->inv_inertia_b[l] = sb->inv_inertia;
	cw->nx[l] = cc->normal.x;
	cw->ny[l] = cc->normal.y;
	cw->friction[l] = cc->friction;
	cw->force_dv[l] = cc->force_dv;
	bool two = cc->point_count == 2;
	cw->k11[l] = two ? cc->k11 : 1.0f;
	cw->k12[l] = two ? cc->k12 : 0.0f;
	cw->k22[l] = two ? cc->k22 : 1.0f;
	cw->block[l] = two && cc->block ? 1.0f : 0.0f;
	for (int j = 0; j < 2; ++j) {
		wide_point *wp = &cw->points[j];
		if (j >= cc->point_count) {
			pad_point(wp, l);
			continue;
		}
		const sinew_contact_point_constraint *cp = &cc->points[j];
		wp->rax[l] = cp->r_a.x;
		wp->ray[l] = cp->r_a.y;
		wp->rbx[l] = cp->r_b.x;
		wp->rby[l] = cp->r_b.y;
		wp->base_separation[l] = cp->base_separation;
		wp->normal_mass[l] = cp->normal_mass;
		wp->tangent_mass[l] = cp->tangent_mass;
		wp->normal_impulse[l] = cp->normal_impulse;
		wp->tangent_impulse[l] = cp->tangent_impulse;
		wp->max_normal_impulse[l] = cp->max_normal_impulse;
		wp->relative_velocity[l] = cp->relative_velocity;
		wp->total_normal_impulse[l] = cp->total_normal_impulse;
		wp->total_tangent_impulse[l] = cp->total_tangent_impulse;
	}
}

/* The solver state of the four bodies on one side: velocity, angular velocity, inverse mass (carried
 * along so a body's first four floats are written back whole), and the change of position and
 * rotation in the step. */
typedef struct wide_body {
	f4 vx, vy, w, inv_mass, dpx, dpy, qc, qs;
} wide_body;

_Static_assert(offsetof(sinew_solver_body, w) == offsetof(sinew_solver_body, v) + 2 * sizeof(float),
               "v, w and inv_mass are read as four floats");
_Static_assert(offsetof(sinew_solver_body, inv_mass) == offsetof(sinew_solver_body, v) + 3 * sizeof(float),
               "v, w and inv_mass are read as four floats");
_Static_assert(offsetof(sinew_solver_body, dq) == offsetof(sinew_solver_body, dp) + 2 * sizeof(float),
               "dp and dq are read as four floats");

#if defined(__SSE2__)
static inline wide_body gather(const sinew_solver_body *bodies, const int32_t *index)
{
	const sinew_solver_body *b0 = &bodies[index[0]], *b1 = &bodies[index[1]], *b2 = &bodies[index[2]],
	                        *b3 = &bodies[index[3]];
	f4 r0 = _mm_loadu_ps(&b0->v.x), r1 = _mm_loadu_ps(&b1->v.x), r2 = _mm_loadu_ps(&b2->v.x), r3 = _mm_loadu_ps(&b3->v.x);
	_MM_TRANSPOSE4_PS(r0, r1, r2, r3);
	f4 s0 = _mm_loadu_ps(&b0->dp.x), s1 = _mm_loadu_ps(&b1->dp.x), s2 = _mm_loadu_ps(&b2->dp.x), s3 = _mm_loadu_ps(&b3->dp.x);
	_MM_TRANSPOSE4_PS(s0, s1, s2, s3);
	wide_body wb = {r0, r1, r2, r3, s0, s1, s2, s3};
	return wb;
}

/* Velocities back, lane by lane, each body's v, w and (unchanged) inverse mass as one store. Lanes
 * may share only a body that the solver never changes (the static dummy, a kinematic body), so
 * their writes agree. */
static inline void scatter(sinew_solver_body *bodies, const int32_t *index, const wide_body *wb)
{
	f4 r0 = wb->vx, r1 = wb->vy, r2 = wb->w, r3 = wb->inv_mass;
	_MM_TRANSPOSE4_PS(r0, r1, r2, r3);
	_mm_storeu_ps(&bodies[index[0]].v.x, r0);
	_mm_storeu_ps(&bodies[index[1]].v.x, r1);
	_mm_storeu_ps(&bodies[index[2]].v.x, r2);
	_mm_storeu_ps(&bodies[index[3]].v.x, r3);
}
#else
static inline wide_body gather(const sinew_solver_body *bodies, const int32_t *index)
{
	wide_body wb;
	for (int l = 0; l < 4; ++l) {
		const sinew_solver_body *b = &bodies[index[l]];
		wb.vx.x[l] = b->v.x;
		wb.vy.x[l] = b->v.y;
		wb.w.x[l] = b->w;
		wb.inv_mass.x[l] = b->inv_mass;
		wb.dpx.x[l] = b->dp.x;
		wb.dpy.x[l] = b->dp.y;
		wb.qc.x[l] = b->dq.c;
		wb.qs.x[l] = b->dq.s;
	}
	return wb;
}

static inline void scatter(sinew_solver_body *bodies, const int32_t *index, const wide_body *wb)
{
	for (int l = 0; l < 4; ++l) {
		sinew_solver_body *b = &bodies[index[l]];
		b->v.x = wb->vx.x[l];
		b->v.y = wb->vy.x[l];
		b->w = wb->w.x[l];
	}
}
#endif

/* Masses of one wide constraint's two sides. */
typedef struct wide_mass {
	f4 ma, ia, mb, ib;
} wide_mass;

/* p = (px, py) at anchors ra, rb: A loses it, B gains it (apply_impulse of contact_solver.c). */
static inline void apply(wide_body *a, wide_body *b, const wide_mass *m, f4 rax, f4 ray, f4 rbx, f4 rby, f4 px, f4 py)
{
	a->vx = f4_sub(a->vx, f4_mul(m->ma, px));
	a->vy = f4_sub(a->vy, f4_mul(m->ma, py));
	a->w = f4_sub(a->w, f4_mul(m->ia, f4_sub(f4_mul(rax, py), f4_mul(ray, px))));
	b->vx = f4_add(b->vx, f4_mul(m->mb, px));
	b->vy = f4_add(b->vy, f4_mul(m->mb, py));
	b->w = f4_add(b->w, f4_mul(m->ib, f4_sub(f4_mul(rbx, py), f4_mul(rby, px))));
}

/* Relative velocity of B's anchor point against A's, along (ax, ay). */
static inline f4 relative_speed(const wide_body *a, const wide_body *b, f4 rax, f4 ray, f4 rbx, f4 rby, f4 ax, f4 ay)
{
	f4 dvx = f4_sub(f4_add(b->vx, f4_mul(f4_neg(b->w), rby)), f4_add(a->vx, f4_mul(f4_neg(a->w), ray)));
	f4 dvy = f4_sub(f4_add(b->vy, f4_mul(b->w, rbx)), f4_add(a->vy, f4_mul(a->w, rax)));
	return f4_add(f4_mul(dvx, ax), f4_mul(dvy, ay));
}

static wide_mass load_mass(const sinew_contact_wide *cw)
{
	wide_mass m = {f4_load(cw->inv_mass_a), f4_load(cw->inv_inertia_a), f4_load(cw->inv_mass_b),
	               f4_load(cw->inv_inertia_b)};
	return m;
}

WIDE_KERNEL void sinew_contacts_warm_start_wide(sinew_world *w, bool first_substep)
{
	sinew_solver_body *bodies = w->solver_bodies;
	int n = (int)stbds_arrlen(w->wide_constraints);
	for (int k = 0; k < n; ++k) {
		sinew_contact_wide *cw = &w->wide_constraints[k];
		wide_body a = gather(bodies, cw->body_a), b = gather(bodies, cw->body_b);
		wide_mass m = load_mass(cw);
		f4 nx = f4_load(cw->nx), ny = f4_load(cw->ny), tx = ny, ty = f4_neg(nx);
		for (int j = 0; j < 2; ++j) {
			wide_point *wp = &cw->points[j];
			f4 ni = f4_load(wp->normal_impulse), ti = f4_load(wp->tangent_impulse);
			if (!first_substep) {
				f4_store(wp->total_normal_impulse, f4_add(f4_load(wp->total_normal_impulse), ni));
				f4_store(wp->total_tangent_impulse, f4_add(f4_load(wp->total_tangent_impulse), ti));
			}
			f4 px = f4_add(f4_mul(ni, nx), f4_mul(ti, tx)), py = f4_add(f4_mul(ni, ny), f4_mul(ti, ty));
			apply(&a, &b, &m, f4_load(wp->rax), f4_load(wp->ray), f4_load(wp->rbx), f4_load(wp->rby), px, py);
		}
		scatter(bodies, cw->body_a, &a);
		scatter(bodies, cw->body_b, &b);
	}
}

/* The separation of point wp now, from the bodies' position and rotation change in the step. */
static inline f4 separation(const wide_body *a, const wide_body *b, const wide_point *wp, f4 nx, f4 ny)
{
	f4 rax = f4_load(wp->rax), ray = f4_load(wp->ray), rbx = f4_load(wp->rbx), rby = f4_load(wp->rby);
	f4 dax = f4_add(a->dpx, f4_sub(f4_mul(a->qc, rax), f4_mul(a->qs, ray)));
	f4 day = f4_add(a->dpy, f4_add(f4_mul(a->qs, rax), f4_mul(a->qc, ray)));
	f4 dbx = f4_add(b->dpx, f4_sub(f4_mul(b->qc, rbx), f4_mul(b->qs, rby)));
	f4 dby = f4_add(b->dpy, f4_add(f4_mul(b->qs, rbx), f4_mul(b->qc, rby)));
	f4 d = f4_add(f4_mul(f4_sub(dbx, dax), nx), f4_mul(f4_sub(dby, day), ny));
	return f4_add(f4_load(wp->base_separation), d);
}

/* The settings of one solve pass, as four-lane constants. */
typedef struct wide_pass {
	f4 inv_h, push, bias_rate, mass_scale, impulse_scale, zero, one, half;
	m4 use_bias;
} wide_pass;

/* The normal impulses of one wide constraint: block solve where it applies, else point by point.
 * A long kernel on purpose: it is the solver's inner loop, and every branch of the scalar code
 * (contact_solver.c: sinew_contacts_solve and solve_block) is a pair of results and a select. */
WIDE_INLINE void solve_normal(sinew_contact_wide *cw, wide_body *a, wide_body *b, const wide_mass *m, const wide_pass *ps,
                                f4 nx, f4 ny)
{
	wide_point *p0 = &cw->points[0], *p1 = &cw->points[1];
	f4 bias[2], vn[2];
	m4 block_soft[2], seq_soft[2];
	for (int j = 0; j < 2; ++j) {
		wide_point *wp = &cw->points[j];
		f4 s = separation(a, b, wp, nx, ny);
		m4 speculative = f4_gt(s, ps->zero);
		f4 soft_bias = f4_select(ps->use_bias, f4_max(f4_mul(ps->bias_rate, s), f4_neg(ps->push)), ps->zero);
		bias[j] = f4_select(speculative, f4_mul(s, ps->inv_h), soft_bias);
		block_soft[j] = m4_and(ps->use_bias, f4_le(s, ps->zero));
		seq_soft[j] = m4_and(ps->use_bias, f4_le(bias[j], ps->zero));
		vn[j] = relative_speed(a, b, f4_load(wp->rax), f4_load(wp->ray), f4_load(wp->rbx), f4_load(wp->rby), nx, ny);
		/* speed at impact (true velocity: the solver's lags half a substep of forces) */
		m4 capture = m4_and(ps->use_bias, f4_eq(f4_load(wp->max_normal_impulse), ps->zero));
		f4 rv = f4_add(vn[j], f4_mul(ps->half, f4_load(cw->force_dv)));
		f4_store(wp->relative_velocity, f4_select(capture, rv, f4_load(wp->relative_velocity)));
	}
	/* the block: both points soft or both rigid, and one of the four cases fits */
	f4 a0 = f4_load(p0->normal_impulse), a1 = f4_load(p1->normal_impulse);
	f4 k11 = f4_load(cw->k11), k12 = f4_load(cw->k12), k22 = f4_load(cw->k22);
	m4 same = m4_same(block_soft[0], block_soft[1]);
	f4 ms = f4_select(block_soft[0], ps->mass_scale, ps->one), is = f4_select(block_soft[0], ps->impulse_scale, ps->zero);
	f4 keep = f4_sub(ps->one, is);
	f4 q0 = f4_sub(f4_mul(ms, f4_add(vn[0], bias[0])), f4_mul(keep, f4_add(f4_mul(k11, a0), f4_mul(k12, a1))));
	f4 q1 = f4_sub(f4_mul(ms, f4_add(vn[1], bias[1])), f4_mul(keep, f4_add(f4_mul(k12, a0), f4_mul(k22, a1))));
	f4 inv_det = f4_div(ps->one, f4_sub(f4_mul(k11, k22), f4_mul(k12, k12)));
	f4 x0 = f4_mul(f4_neg(inv_det), f4_sub(f4_mul(k22, q0), f4_mul(k12, q1)));
	f4 x1 = f4_mul(f4_neg(inv_det), f4_sub(f4_mul(k11, q1), f4_mul(k12, q0)));
	m4 ok1 = m4_and(f4_ge(x0, ps->zero), f4_ge(x1, ps->zero));
	f4 y0 = f4_div(f4_neg(q0), k11);
	m4 ok2 = m4_and(f4_ge(y0, ps->zero), f4_ge(f4_add(f4_mul(k12, y0), q1), ps->zero));
	f4 z1 = f4_div(f4_neg(q1), k22);
	m4 ok3 = m4_and(f4_ge(z1, ps->zero), f4_ge(f4_add(f4_mul(k12, z1), q0), ps->zero));
	m4 ok4 = m4_and(f4_ge(q0, ps->zero), f4_ge(q1, ps->zero));
	m4 use_block = m4_and(m4_and(f4_gt(f4_load(cw->block), ps->zero), same), m4_or(m4_or(ok1, ok2), m4_or(ok3, ok4)));
	f4 bx0 = f4_select(ok1, x0, f4_select(ok2, y0, ps->zero));
	f4 bx1 = f4_select(ok1, x1, f4_select(ok2, ps->zero, f4_select(ok3, z1, ps->zero)));
	/* point 0, one by one where the block does not apply */
	f4 m0 = f4_select(seq_soft[0], ps->mass_scale, ps->one), i0 = f4_select(seq_soft[0], ps->impulse_scale, ps->zero);
	f4 nm0 = f4_load(p0->normal_mass);
	f4 imp0 = f4_sub(f4_mul(f4_mul(f4_neg(nm0), m0), f4_add(vn[0], bias[0])), f4_mul(i0, a0));
	f4 n0 = f4_select(use_block, bx0, f4_max(f4_add(a0, imp0), ps->zero));
	f4 d0 = f4_sub(n0, a0);
	f4 rax0 = f4_load(p0->rax), ray0 = f4_load(p0->ray), rbx0 = f4_load(p0->rbx), rby0 = f4_load(p0->rby);
	f4_store(p0->normal_impulse, n0);
	f4_store(p0->max_normal_impulse, f4_max(f4_load(p0->max_normal_impulse), d0));
	apply(a, b, m, rax0, ray0, rbx0, rby0, f4_mul(d0, nx), f4_mul(d0, ny));
	/* point 1 after point 0's impulse */
	f4 rax1 = f4_load(p1->rax), ray1 = f4_load(p1->ray), rbx1 = f4_load(p1->rbx), rby1 = f4_load(p1->rby);
	f4 v1 = relative_speed(a, b, rax1, ray1, rbx1, rby1, nx, ny);
	f4 m1 = f4_select(seq_soft[1], ps->mass_scale, ps->one), i1 = f4_select(seq_soft[1], ps->impulse_scale, ps->zero);
	f4 nm1 = f4_load(p1->normal_mass);
	f4 imp1 = f4_sub(f4_mul(f4_mul(f4_neg(nm1), m1), f4_add(v1, bias[1])), f4_mul(i1, a1));
	f4 n1 = f4_select(use_block, bx1, f4_max(f4_add(a1, imp1), ps->zero));
	f4 d1 = f4_sub(n1, a1);
	f4_store(p1->normal_impulse, n1);
	f4_store(p1->max_normal_impulse, f4_max(f4_load(p1->max_normal_impulse), d1));
	apply(a, b, m, rax1, ray1, rbx1, rby1, f4_mul(d1, nx), f4_mul(d1, ny));
}

/* Coulomb friction of both points, one after the other. */
WIDE_INLINE void solve_friction(sinew_contact_wide *cw, wide_body *a, wide_body *b, const wide_mass *m, f4 tx, f4 ty)
{
	f4 friction = f4_load(cw->friction);
	for (int j = 0; j < 2; ++j) {
		wide_point *wp = &cw->points[j];
		f4 rax = f4_load(wp->rax), ray = f4_load(wp->ray), rbx = f4_load(wp->rbx), rby = f4_load(wp->rby);
		f4 vt = relative_speed(a, b, rax, ray, rbx, rby, tx, ty);
		f4 impulse = f4_mul(f4_neg(f4_load(wp->tangent_mass)), vt);
		f4 limit = f4_mul(friction, f4_load(wp->normal_impulse));
		f4 old = f4_load(wp->tangent_impulse), total = f4_add(old, impulse);
		f4 low = f4_neg(limit);
		total = f4_select(f4_lt(total, low), low, f4_select(f4_gt(total, limit), limit, total));
		f4 d = f4_sub(total, old);
		f4_store(wp->tangent_impulse, total);
		apply(a, b, m, rax, ray, rbx, rby, f4_mul(d, tx), f4_mul(d, ty));
	}
}

/* One pass over the coloured constraints, colour after colour. */
WIDE_KERNEL void sinew_contacts_solve_wide(sinew_world *w, float inv_h, bool use_bias)
{
	sinew_solver_body *bodies = w->solver_bodies;
	int n = (int)stbds_arrlen(w->wide_constraints);
	if (n == 0) return;
	wide_pass ps;
	ps.inv_h = f4_splat(inv_h);
	ps.push = f4_splat(w->push_max_speed);
	ps.bias_rate = f4_splat(w->contact_bias_rate);
	ps.mass_scale = f4_splat(w->contact_mass_scale);
	ps.impulse_scale = f4_splat(w->contact_impulse_scale);
	ps.zero = f4_splat(0.0f);
	ps.one = f4_splat(1.0f);
	ps.half = f4_splat(0.5f);
	ps.use_bias = m4_all(use_bias);
	for (int k = 0; k < n; ++k) {
		sinew_contact_wide *cw = &w->wide_constraints[k];
		wide_body a = gather(bodies, cw->body_a), b = gather(bodies, cw->body_b);
		wide_mass m = load_mass(cw);
		f4 nx = f4_load(cw->nx), ny = f4_load(cw->ny);
		solve_normal(cw, &a, &b, &m, &ps, nx, ny);
		solve_friction(cw, &a, &b, &m, ny, f4_neg(nx));
		scatter(bodies, cw->body_a, &a);
		scatter(bodies, cw->body_b, &b);
	}
}

/* Lane slot's state into cc: bodies, normal, force_dv and each point's anchors, masses, impulses
 * and speeds (what restitution and store read). */
void sinew_contacts_read_wide(const sinew_world *w, int32_t slot, int point_count, sinew_contact_constraint *cc)
{
	const sinew_contact_wide *cw = &w->wide_constraints[slot >> 2];
	int l = slot & 3;
	cc->body_a = cw->body_a[l];
	cc->body_b = cw->body_b[l];
	cc->normal = sinew_v2(cw->nx[l], cw->ny[l]);
	cc->force_dv = cw->force_dv[l];
	cc->point_count = point_count;
	for (int j = 0; j < point_count; ++j) {
		const wide_point *wp = &cw->points[j];
		sinew_contact_point_constraint *cp = &cc->points[j];
		cp->r_a = sinew_v2(wp->rax[l], wp->ray[l]);
		cp->r_b = sinew_v2(wp->rbx[l], wp->rby[l]);
		cp->normal_mass = wp->normal_mass[l];
		cp->normal_impulse = wp->normal_impulse[l];
		cp->tangent_impulse = wp->tangent_impulse[l];
		cp->max_normal_impulse = wp->max_normal_impulse[l];
		cp->relative_velocity = wp->relative_velocity[l];
		cp->total_normal_impulse = wp->total_normal_impulse[l];
		cp->total_tangent_impulse = wp->total_tangent_impulse[l];
	}
}

/* Lane slot's impulses and speeds into its contact c: the next step's warm start and the manifold's
 * reported impulses (as sinew_contacts_store for the overflow). */
void sinew_contacts_store_wide(const sinew_world *w, int32_t slot, sinew_contact *c)
{
	const sinew_contact_wide *cw = &w->wide_constraints[slot >> 2];
	int l = slot & 3;
	for (int j = 0; j < c->manifold.point_count; ++j) {
		const wide_point *wp = &cw->points[j];
		sinew_contact_store_point(c, j, wp->normal_impulse[l], wp->tangent_impulse[l], wp->total_normal_impulse[l],
		                          wp->total_tangent_impulse[l], wp->max_normal_impulse[l], wp->relative_velocity[l]);
	}
}

void sinew_contacts_write_normal_wide(sinew_world *w, int32_t slot, int point_count, const sinew_contact_constraint *cc)
{
	sinew_contact_wide *cw = &w->wide_constraints[slot >> 2];
	int l = slot & 3;
	for (int j = 0; j < point_count; ++j) {
		cw->points[j].normal_impulse[l] = cc->points[j].normal_impulse;
		cw->points[j].max_normal_impulse[l] = cc->points[j].max_normal_impulse;
	}
}
