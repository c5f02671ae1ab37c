/* The contact solver sixteen, eight or four constraints at a time.
 *
 * Graph colouring: each contact constraint gets the first of SINEW_GRAPH_COLOURS colours in which
 * neither of its dynamic bodies has a constraint yet (static and kinematic bodies take no colour:
 * the solver never changes their velocity). The constraints of one colour then share no body
 * that moves, so they can be solved in any order, and sixteen at once: each colour's constraints
 * are packed, in constraint order, into sinew_contact_wide blocks of sixteen lanes (the last one
 * padded with lanes on the static dummy that apply nothing). A constraint that finds no free
 * colour goes to the overflow list, solved one by one by contact_solver.c before the colours.
 * Colouring and packing run in constraint order, so the answer is the same on every run of a
 * build. The lanes run the same soft-step equations as contact_solver.c (see there): speculative
 * and soft bias, the 2x2 block solve of a two-point manifold with the one-by-one fallback,
 * Coulomb friction, the impulses summed for restitution and warm starting.
 *
 * The kernel (contact_wide_kernel.h) runs four lanes, a block's quarters, as SSE2 registers
 * where the compiler targets SSE2 (every x86-64) and a plain four-float struct elsewhere; with gcc
 * on x86-64 it is also built for AVX, eight lanes (half a block) and four, and for AVX-512,
 * sixteen (a whole block), each used where the CPU has it. All give the same answer for a given build. Comparisons give lane masks, and every
 * branch of the scalar code is a select between both results. */
#include "world.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* A wide constraint names its bodies by byte offset into the solver bodies (slot times the size of
 * one), so the kernel's gathers and scatters add an offset instead of multiplying a slot. */
static inline const sinew_solver_body *body_in(const sinew_solver_body *bodies, uint32_t offset)
{
	return (const sinew_solver_body *)(const void *)((const char *)bodies + offset);
}
static inline sinew_solver_body *body_out(sinew_solver_body *bodies, uint32_t offset)
{
	return (sinew_solver_body *)(void *)((char *)bodies + offset);
}

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
static inline m4 f4_and(m4 a, m4 b) { return _mm_and_ps(a, b); }
static inline m4 f4_or(m4 a, m4 b) { return _mm_or_ps(a, b); }
static inline m4 f4_all(bool x) { return _mm_castsi128_ps(_mm_set1_epi32(x ? -1 : 0)); }
/* lanes where both masks are set or both clear */
static inline m4 f4_same(m4 a, m4 b) { return _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_castps_si128(a), _mm_castps_si128(b))); }
/* m ? a : b, lane by lane */
static inline f4 f4_select(m4 m, f4 a, f4 b) { return _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b)); }
/* The four floats at byte field of the bodies at offset[0..3], transposed: out[k] holds float k of each. */
static inline void f4_rows(const sinew_solver_body *bodies, const uint32_t *offset, size_t field, f4 out[4])
{
	const char *b0 = (const char *)body_in(bodies, offset[0]) + field, *b1 = (const char *)body_in(bodies, offset[1]) + field;
	const char *b2 = (const char *)body_in(bodies, offset[2]) + field, *b3 = (const char *)body_in(bodies, offset[3]) + field;
	f4 r0 = _mm_loadu_ps((const float *)(const void *)b0), r1 = _mm_loadu_ps((const float *)(const void *)b1);
	f4 r2 = _mm_loadu_ps((const float *)(const void *)b2), r3 = _mm_loadu_ps((const float *)(const void *)b3);
	_MM_TRANSPOSE4_PS(r0, r1, r2, r3);
	out[0] = r0, out[1] = r1, out[2] = r2, out[3] = r3;
}

/* Lane l's body state from the body at offset[l]: out = vx, vy, w, inv_mass, dpx, dpy, qc, qs. */
static inline void f4_gather(const sinew_solver_body *bodies, const uint32_t *offset, f4 out[8])
{
	f4_rows(bodies, offset, offsetof(sinew_solver_body, v), out);
	f4_rows(bodies, offset, offsetof(sinew_solver_body, dp), out + 4);
}

/* Each lane's v, w and (unchanged) inverse mass back to its body, as one store. */
static inline void f4_scatter(sinew_solver_body *bodies, const uint32_t *offset, f4 vx, f4 vy, f4 w, f4 inv_mass)
{
	_MM_TRANSPOSE4_PS(vx, vy, w, inv_mass);
	_mm_storeu_ps(&body_out(bodies, offset[0])->v.x, vx);
	_mm_storeu_ps(&body_out(bodies, offset[1])->v.x, vy);
	_mm_storeu_ps(&body_out(bodies, offset[2])->v.x, w);
	_mm_storeu_ps(&body_out(bodies, offset[3])->v.x, inv_mass);
}

/* Lane l's vx, vy, w, inv_mass only. */
static inline void f4_gather_velocity(const sinew_solver_body *bodies, const uint32_t *offset, f4 out[4])
{
	f4_rows(bodies, offset, offsetof(sinew_solver_body, v), out);
}
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
static inline m4 f4_and(m4 a, m4 b) { M4_MAP(a.x[i] && b.x[i]); }
static inline m4 f4_or(m4 a, m4 b) { M4_MAP(a.x[i] || b.x[i]); }
static inline m4 f4_all(bool x) { M4_MAP(x); }
static inline m4 f4_same(m4 a, m4 b) { M4_MAP(a.x[i] == b.x[i]); }
static inline f4 f4_select(m4 m, f4 a, f4 b) { F4_MAP(m.x[i] ? a.x[i] : b.x[i]); }
static inline void f4_gather_velocity(const sinew_solver_body *bodies, const uint32_t *offset, f4 out[4])
{
	for (int l = 0; l < 4; ++l) {
		const sinew_solver_body *b = body_in(bodies, offset[l]);
		out[0].x[l] = b->v.x;
		out[1].x[l] = b->v.y;
		out[2].x[l] = b->w;
		out[3].x[l] = b->inv_mass;
	}
}

static inline void f4_gather(const sinew_solver_body *bodies, const uint32_t *offset, f4 out[8])
{
	f4_gather_velocity(bodies, offset, out);
	for (int l = 0; l < 4; ++l) {
		const sinew_solver_body *b = body_in(bodies, offset[l]);
		out[4].x[l] = b->dp.x;
		out[5].x[l] = b->dp.y;
		out[6].x[l] = b->dq.c;
		out[7].x[l] = b->dq.s;
	}
}

static inline void f4_scatter(sinew_solver_body *bodies, const uint32_t *offset, f4 vx, f4 vy, f4 w, f4 inv_mass)
{
	(void)inv_mass;
	for (int l = 0; l < 4; ++l) {
		sinew_solver_body *b = body_out(bodies, offset[l]);
		b->v.x = vx.x[l];
		b->v.y = vy.x[l];
		b->w = w.x[l];
	}
}
#endif

/* Where gcc builds for x86-64, the kernel is also built for AVX (#pragma GCC target below) and
 * chosen while stepping when the CPU has it: the same operations in the VEX encoding (three operands:
 * no register copies), and eight lanes at once. The answer is the same bit for bit: the same IEEE
 * operations in the same order, no fused multiply-add (-ffp-contract=off). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__SSE2__)
#define WIDE_AVX 1
#include <immintrin.h>
#else
#define WIDE_AVX 0
#endif
#if defined(__GNUC__)
#define KERNEL_INLINE static inline __attribute__((always_inline))
#else
#define KERNEL_INLINE static inline
#endif

/* Lanes of a wide constraint: sixteen, so the AVX-512 kernel loads each field as one register (and
 * uses it straight from memory); the eight-lane kernel takes them as two halves, the four-lane
 * kernels as four quarters. */
#define WIDE_LANES 16

/* One contact point of the sixteen lanes. */
typedef struct wide_point {
	float rax[WIDE_LANES], ray[WIDE_LANES], rbx[WIDE_LANES], rby[WIDE_LANES]; /* anchors from the centres of mass */
	float base_separation[WIDE_LANES], normal_mass[WIDE_LANES], tangent_mass[WIDE_LANES];
	float normal_impulse[WIDE_LANES], tangent_impulse[WIDE_LANES], max_normal_impulse[WIDE_LANES];
	float relative_velocity[WIDE_LANES], total_normal_impulse[WIDE_LANES], total_tangent_impulse[WIDE_LANES];
	float relax_gap[WIDE_LANES]; /* a speculative point's gap speed in this substep's relax passes, else 0 */
} wide_point;

/* Sixteen contact constraints of one colour, lane by lane (see sinew_contact_constraint). */
typedef struct sinew_contact_wide {
	uint32_t offset_a[WIDE_LANES], offset_b[WIDE_LANES]; /* the bodies' byte offsets (body_in) */
	float inv_mass_a[WIDE_LANES], inv_inertia_a[WIDE_LANES], inv_mass_b[WIDE_LANES], inv_inertia_b[WIDE_LANES];
	float nx[WIDE_LANES], ny[WIDE_LANES], friction[WIDE_LANES], force_dv[WIDE_LANES];
	float k11[WIDE_LANES], k12[WIDE_LANES], k22[WIDE_LANES];
	float neg_inv_det[WIDE_LANES]; /* -1 / (k11 k22 - k12^2), once per step instead of in every pass */
	float block[WIDE_LANES]; /* 1: solve the two points together */
	float hold[WIDE_LANES];  /* 1: a body of the pair has joints (sinew_contact_constraint.hold) */
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
	wp->relax_gap[l] = 0.0f;
}

/* Lane l as padding: the static dummy on both sides, no mass, no impulse, never touching. Every
 * field is written, so the wide constraints need no clearing. */
static void pad_lane(sinew_contact_wide *cw, int l)
{
	cw->offset_a[l] = cw->offset_b[l] = 0;
	cw->inv_mass_a[l] = cw->inv_inertia_a[l] = cw->inv_mass_b[l] = cw->inv_inertia_b[l] = 0.0f;
	cw->nx[l] = 1.0f;
	cw->ny[l] = cw->friction[l] = cw->force_dv[l] = 0.0f;
	cw->k11[l] = cw->k22[l] = 1.0f;
	cw->k12[l] = cw->block[l] = cw->hold[l] = 0.0f;
	cw->neg_inv_det[l] = -1.0f;
	pad_point(&cw->points[0], l);
	pad_point(&cw->points[1], l);
}

/* A fixed body's colour bits: it takes no colour (see moves). */
#define SINEW_COLOURS_NONE (~(uint64_t)0)
_Static_assert(SINEW_GRAPH_COLOURS < 64, "a body's colours are the bits of a uint64_t, and one more");

/* The lowest bit not set in bits (64 when all are). */
static int lowest_clear_bit(uint64_t bits)
{
#if defined(__GNUC__)
	return ~bits == 0 ? 64 : __builtin_ctzll(~bits);
#else
	int i = 0;
	while (i < 64 && (bits >> i) & 1) ++i;
	return i;
#endif
}

/* Gives every constraint of the step a colour (or the overflow list) and so its slot: a lane of the
 * wide constraints, colour by colour in constraint order, or a place in world.constraints. */
void sinew_contacts_colour(sinew_world *w)
{
	int n = (int)stbds_arrlen(w->constraint_refs);
	int body_count = sinew_solver_count(w);
	bool offsets_fit = (size_t)body_count <= UINT32_MAX / sizeof(sinew_solver_body);
	/* each solver slot's colours as bits, 0 for a body that does not move: a constraint's free
	 * colours are then one OR away, the first of them its lowest clear bit */
	stbds_arrsetlen(w->colour_bits, body_count);
	for (int i = 0; i < body_count; ++i) w->colour_bits[i] = moves(&w->solver_bodies[i]) ? 0 : SINEW_COLOURS_NONE;
	int counts[SINEW_GRAPH_COLOURS] = {0};
	int overflow = 0;
	/* Newest constraints take the first colours. Chosen by measurement on large_pyramid (drift after
	 * 500 steps): 0.296 m this way, 0.326 m oldest first, 0.311 m for the serial solver it replaced.
	 * The overflow is solved in this order too. */
	for (int i = n - 1; i >= 0; --i) {
		sinew_constraint_ref *ref = &w->constraint_refs[i];
		uint64_t *bits_a = &w->colour_bits[ref->body_a], *bits_b = &w->colour_bits[ref->body_b];
		/* a fixed body's bits are all set, so its side takes nothing away */
		uint64_t taken = (*bits_a == SINEW_COLOURS_NONE ? 0 : *bits_a) | (*bits_b == SINEW_COLOURS_NONE ? 0 : *bits_b);
		int colour = lowest_clear_bit(taken);
		/* a contact that pushes a joint tree is solved one by one, through the tree (contact_tree.c);
		 * so is every contact of a world whose bodies' byte offsets overflow a lane's uint32_t */
		if (w->tree_contacts[i].side >= 0 || !offsets_fit) colour = SINEW_GRAPH_COLOURS;
		if (colour < SINEW_GRAPH_COLOURS) {
			uint64_t bit = (uint64_t)1 << colour;
			if (*bits_a != SINEW_COLOURS_NONE) *bits_a |= bit;
			if (*bits_b != SINEW_COLOURS_NONE) *bits_b |= bit;
		} else {
			colour = -1;
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
		w->colour_count[c] = counts[c];
		total += (counts[c] + WIDE_LANES - 1) / WIDE_LANES;
	}
	w->colour_start[SINEW_GRAPH_COLOURS] = total;
	stbds_arrsetlen(w->wide_constraints, total);
	int fill[SINEW_GRAPH_COLOURS];
	for (int c = 0; c < SINEW_GRAPH_COLOURS; ++c) {
		fill[c] = w->colour_start[c] * WIDE_LANES;
		/* the lanes after the colour's last constraint are padding */
		for (int l = counts[c] % WIDE_LANES; l > 0 && l < WIDE_LANES; ++l)
			pad_lane(&w->wide_constraints[w->colour_start[c + 1] - 1], l);
	}
	for (int i = 0; i < n; ++i) {
		sinew_constraint_ref *ref = &w->constraint_refs[i];
		if (ref->slot >= 0) ref->slot = fill[ref->slot]++;
	}
}

/* Contact c's constraint into lane slot, straight from its geometry pc (contact_solver.c: the same
 * values as an overflow constraint's), but for its effective masses (sinew_contacts_masses_wide,
 * after every constraint of the step is packed). A one-point constraint's second point is a padding
 * point. hold: a body of the pair has joints. */
void sinew_contacts_pack_wide(sinew_world *w, int32_t slot, const sinew_contact *c, const sinew_push_constraint *pc, bool hold)
{
	sinew_contact_wide *cw = &w->wide_constraints[(uint32_t)slot / WIDE_LANES]; /* slot >= 0: shifts */
	int l = (int)((uint32_t)slot % WIDE_LANES);
	const sinew_solver_body *sa = &w->solver_bodies[pc->body_a], *sb = &w->solver_bodies[pc->body_b];
	sinew_vec2 nrm = pc->normal;
	cw->offset_a[l] = (uint32_t)pc->body_a * (uint32_t)sizeof(sinew_solver_body);
	cw->offset_b[l] = (uint32_t)pc->body_b * (uint32_t)sizeof(sinew_solver_body);
	cw->inv_mass_a[l] = sa->inv_mass;
	cw->inv_inertia_a[l] = sa->inv_inertia;
	cw->inv_mass_b[l] = sb->inv_mass;
	cw->inv_inertia_b[l] = sb->inv_inertia;
	cw->nx[l] = nrm.x;
	cw->ny[l] = nrm.y;
	cw->friction[l] = c->friction;
	cw->force_dv[l] = sinew_dot(sinew_sub(sb->dv, sa->dv), nrm);
	cw->block[l] = pc->point_count == 2 ? 1.0f : 0.0f; /* two points: sinew_contacts_masses_wide decides */
	cw->hold[l] = hold ? 1.0f : 0.0f;
	for (int j = 0; j < 2; ++j) {
		wide_point *wp = &cw->points[j];
		if (j >= pc->point_count) {
			pad_point(wp, l);
			continue;
		}
		wp->rax[l] = pc->r_a[j].x;
		wp->ray[l] = pc->r_a[j].y;
		wp->rbx[l] = pc->r_b[j].x;
		wp->rby[l] = pc->r_b[j].y;
		wp->base_separation[l] = pc->base_separation[j];
		wp->normal_impulse[l] = c->warm_normal[j];
		wp->tangent_impulse[l] = c->warm_tangent[j];
		/* measured in the step: the speed at impact by the biased passes, the rest summed */
		wp->max_normal_impulse[l] = wp->relative_velocity[l] = 0.0f;
		wp->total_normal_impulse[l] = wp->total_tangent_impulse[l] = 0.0f;
	}
}

/* The effective masses of every packed constraint, four lanes at a time: the operations of
 * constraint_masses (contact_solver.c) in the same order, so the same floats, where a lane's block
 * reads 1 for a two-point constraint (pack) and padding lanes have no mass (pad_lane). */
void sinew_contacts_masses_wide(sinew_world *w)
{
	int n = (int)stbds_arrlen(w->wide_constraints);
	f4 zero = f4_splat(0.0f), one = f4_splat(1.0f), thousand = f4_splat(1000.0f);
	for (int k = 0; k < n; ++k) {
		sinew_contact_wide *cw = &w->wide_constraints[k];
		for (int o = 0; o < WIDE_LANES; o += 4) {
			f4 ma = f4_load(cw->inv_mass_a + o), ia = f4_load(cw->inv_inertia_a + o);
			f4 mb = f4_load(cw->inv_mass_b + o), ib = f4_load(cw->inv_inertia_b + o);
			f4 nx = f4_load(cw->nx + o), ny = f4_load(cw->ny + o), tx = ny, ty = f4_neg(nx);
			f4 m = f4_add(ma, mb);
			m4 two = f4_gt(f4_load(cw->block + o), zero);
			f4 rn_a[2], rn_b[2], kn[2];
			for (int j = 0; j < 2; ++j) {
				wide_point *wp = &cw->points[j];
				f4 rax = f4_load(wp->rax + o), ray = f4_load(wp->ray + o), rbx = f4_load(wp->rbx + o), rby = f4_load(wp->rby + o);
				rn_a[j] = f4_sub(f4_mul(rax, ny), f4_mul(ray, nx));
				rn_b[j] = f4_sub(f4_mul(rbx, ny), f4_mul(rby, nx));
				kn[j] = f4_add(f4_add(m, f4_mul(f4_mul(ia, rn_a[j]), rn_a[j])), f4_mul(f4_mul(ib, rn_b[j]), rn_b[j]));
				f4 rta = f4_sub(f4_mul(rax, ty), f4_mul(ray, tx)), rtb = f4_sub(f4_mul(rbx, ty), f4_mul(rby, tx));
				f4 kt = f4_add(f4_add(m, f4_mul(f4_mul(ia, rta), rta)), f4_mul(f4_mul(ib, rtb), rtb));
				m4 present = j == 0 ? f4_all(true) : two; /* a one-point constraint's second point: none */
				f4_store(wp->normal_mass + o, f4_select(f4_and(present, f4_gt(kn[j], zero)), f4_div(one, kn[j]), zero));
				f4_store(wp->tangent_mass + o, f4_select(f4_and(present, f4_gt(kt, zero)), f4_div(one, kt), zero));
			}
			f4 k12 = f4_add(f4_add(m, f4_mul(f4_mul(ia, rn_a[0]), rn_a[1])), f4_mul(f4_mul(ib, rn_b[0]), rn_b[1]));
			f4 k11 = f4_select(two, kn[0], one), k22 = f4_select(two, kn[1], one);
			k12 = f4_select(two, k12, zero);
			f4 det = f4_sub(f4_mul(k11, k22), f4_mul(k12, k12));
			/* points too close together make K nearly singular: solve them one by one then */
			m4 block = f4_and(two, f4_lt(f4_mul(k11, k11), f4_mul(thousand, det)));
			f4_store(cw->k11 + o, k11);
			f4_store(cw->k12 + o, k12);
			f4_store(cw->k22 + o, k22);
			f4_store(cw->neg_inv_det + o, f4_neg(f4_div(one, det)));
			f4_store(cw->block + o, f4_select(block, one, zero));
		}
	}
}

_Static_assert(offsetof(sinew_solver_body, w) == offsetof(sinew_solver_body, v) + 2 * sizeof(float),
               "v, w and inv_mass are read as four floats");
_Static_assert(offsetof(sinew_solver_body, inv_mass) == offsetof(sinew_solver_body, v) + 3 * sizeof(float),
               "v, w and inv_mass are read as four floats");
_Static_assert(offsetof(sinew_solver_body, dq) == offsetof(sinew_solver_body, dp) + 2 * sizeof(float),
               "dp and dq are read as four floats");

/* The four-lane kernel: SSE2, or plain C; quarter 0 to 3 of a wide constraint. */
#define VT f4
#define VM m4
#define V(op) f4_##op
#define LANES(part) (4 * (part))
#define K(name) name##_4
#include "contact_wide_kernel.h"
#undef K

#if WIDE_AVX
#pragma GCC push_options
#pragma GCC target("avx")
/* The four-lane kernel again, for AVX: a colour's last four lanes or fewer. */
#define K(name) name##_avx4
#include "contact_wide_kernel.h"
#undef K
#undef V
#undef VM
#undef VT

/* An instance's gathers and scatter from its row (the four floats at field of one body per quarter
 * of the register: T##_row), its store_row and its transpose4 (within each quarter): a body's
 * v, w, inv_mass and its dp, dq as rows of lanes, and back. */
#define WIDE_GATHER_SCATTER(T)                                                                                         \
	KERNEL_INLINE void T##_rows(const sinew_solver_body *bodies, const uint32_t *offset, size_t field, T out[4])       \
	{                                                                                                                  \
		T r0 = T##_row(bodies, offset, 0, field), r1 = T##_row(bodies, offset, 1, field);                              \
		T r2 = T##_row(bodies, offset, 2, field), r3 = T##_row(bodies, offset, 3, field);                              \
		T##_transpose4(&r0, &r1, &r2, &r3);                                                                            \
		out[0] = r0, out[1] = r1, out[2] = r2, out[3] = r3;                                                            \
	}                                                                                                                  \
	KERNEL_INLINE void T##_gather(const sinew_solver_body *bodies, const uint32_t *offset, T out[8])                   \
	{                                                                                                                  \
		T##_rows(bodies, offset, offsetof(sinew_solver_body, v), out);                                                 \
		T##_rows(bodies, offset, offsetof(sinew_solver_body, dp), out + 4);                                            \
	}                                                                                                                  \
	KERNEL_INLINE void T##_gather_velocity(const sinew_solver_body *bodies, const uint32_t *offset, T out[4])          \
	{                                                                                                                  \
		T##_rows(bodies, offset, offsetof(sinew_solver_body, v), out);                                                 \
	}                                                                                                                  \
	/* the rows written out: gcc kept a loop over them as a loop, through the stack */                                \
	KERNEL_INLINE void T##_scatter(sinew_solver_body *bodies, const uint32_t *offset, T vx, T vy, T w, T inv_mass)     \
	{                                                                                                                  \
		T##_transpose4(&vx, &vy, &w, &inv_mass);                                                                       \
		T##_store_row(bodies, offset, 0, vx);                                                                          \
		T##_store_row(bodies, offset, 1, vy);                                                                          \
		T##_store_row(bodies, offset, 2, w);                                                                           \
		T##_store_row(bodies, offset, 3, inv_mass);                                                                    \
	}

/* Eight lanes: half a wide constraint. */
typedef __m256 f8;
typedef __m256 m8;
static inline f8 f8_load(const float *p) { return _mm256_loadu_ps(p); }
static inline void f8_store(float *p, f8 a) { _mm256_storeu_ps(p, a); }
static inline f8 f8_splat(float x) { return _mm256_set1_ps(x); }
static inline f8 f8_add(f8 a, f8 b) { return _mm256_add_ps(a, b); }
static inline f8 f8_sub(f8 a, f8 b) { return _mm256_sub_ps(a, b); }
static inline f8 f8_mul(f8 a, f8 b) { return _mm256_mul_ps(a, b); }
static inline f8 f8_div(f8 a, f8 b) { return _mm256_div_ps(a, b); }
static inline f8 f8_neg(f8 a) { return _mm256_xor_ps(a, _mm256_set1_ps(-0.0f)); }
static inline f8 f8_max(f8 a, f8 b) { return _mm256_max_ps(a, b); } /* as MAXPS: the second operand when a > b fails */
/* the ordered predicates of CMPPS (GT, GE, LT, LE, EQ) */
static inline m8 f8_gt(f8 a, f8 b) { return _mm256_cmp_ps(a, b, _CMP_GT_OS); }
static inline m8 f8_ge(f8 a, f8 b) { return _mm256_cmp_ps(a, b, _CMP_GE_OS); }
static inline m8 f8_lt(f8 a, f8 b) { return _mm256_cmp_ps(a, b, _CMP_LT_OS); }
static inline m8 f8_le(f8 a, f8 b) { return _mm256_cmp_ps(a, b, _CMP_LE_OS); }
static inline m8 f8_eq(f8 a, f8 b) { return _mm256_cmp_ps(a, b, _CMP_EQ_OQ); }
static inline m8 f8_and(m8 a, m8 b) { return _mm256_and_ps(a, b); }
static inline m8 f8_or(m8 a, m8 b) { return _mm256_or_ps(a, b); }
static inline m8 f8_all(bool x) { return _mm256_castsi256_ps(_mm256_set1_epi32(x ? -1 : 0)); }
static inline m8 f8_same(m8 a, m8 b) { return _mm256_xor_ps(_mm256_xor_ps(a, b), f8_all(true)); }
static inline f8 f8_select(m8 m, f8 a, f8 b) { return _mm256_or_ps(_mm256_and_ps(m, a), _mm256_andnot_ps(m, b)); }
/* _MM_TRANSPOSE4_PS in each half */
KERNEL_INLINE void f8_transpose4(f8 *r0, f8 *r1, f8 *r2, f8 *r3)
{
	f8 t0 = _mm256_unpacklo_ps(*r0, *r1), t1 = _mm256_unpacklo_ps(*r2, *r3);
	f8 t2 = _mm256_unpackhi_ps(*r0, *r1), t3 = _mm256_unpackhi_ps(*r2, *r3);
	*r0 = _mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(1, 0, 1, 0));
	*r1 = _mm256_shuffle_ps(t0, t1, _MM_SHUFFLE(3, 2, 3, 2));
	*r2 = _mm256_shuffle_ps(t2, t3, _MM_SHUFFLE(1, 0, 1, 0));
	*r3 = _mm256_shuffle_ps(t2, t3, _MM_SHUFFLE(3, 2, 3, 2));
}
/* The four floats at field of the bodies at offset[i] (low half) and offset[i + 4] (high half) */
KERNEL_INLINE f8 f8_row(const sinew_solver_body *bodies, const uint32_t *offset, int i, size_t field)
{
	const char *lo = (const char *)body_in(bodies, offset[i]) + field, *hi = (const char *)body_in(bodies, offset[i + 4]) + field;
	return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps((const float *)lo)), _mm_loadu_ps((const float *)hi), 1);
}
/* Row i of a transposed block: its low half to the body at offset[i], its high half to offset[i + 4]. */
KERNEL_INLINE void f8_store_row(sinew_solver_body *bodies, const uint32_t *offset, int i, f8 row)
{
	_mm_storeu_ps(&body_out(bodies, offset[i])->v.x, _mm256_castps256_ps128(row));
	_mm_storeu_ps(&body_out(bodies, offset[i + 4])->v.x, _mm256_extractf128_ps(row, 1));
}
WIDE_GATHER_SCATTER(f8)
#undef LANES
#define LANES(part) (8 * (part)) /* half 0 or 1 of a wide constraint */
#define VT f8
#define VM m8
#define V(op) f8_##op
#define K(name) name##_avx8
#include "contact_wide_kernel.h"
#undef K

#undef V
#undef VM
#undef VT

/* Sixteen lanes with AVX-512 (the base instructions only, AVX512F): a whole wide constraint at
 * once, each field one register. */
#pragma GCC push_options
#pragma GCC target("avx512f")
typedef __m512 f16;
typedef __mmask16 m16;
static inline f16 f16_load(const float *p) { return _mm512_loadu_ps(p); }
static inline void f16_store(float *p, f16 a) { _mm512_storeu_ps(p, a); }
static inline f16 f16_splat(float x) { return _mm512_set1_ps(x); }
static inline f16 f16_add(f16 a, f16 b) { return _mm512_add_ps(a, b); }
static inline f16 f16_sub(f16 a, f16 b) { return _mm512_sub_ps(a, b); }
static inline f16 f16_mul(f16 a, f16 b) { return _mm512_mul_ps(a, b); }
static inline f16 f16_div(f16 a, f16 b) { return _mm512_div_ps(a, b); }
/* the sign flipped as integers: the float XOR is AVX512DQ */
static inline f16 f16_neg(f16 a)
{
	return _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(a), _mm512_set1_epi32((int)0x80000000u)));
}
static inline f16 f16_max(f16 a, f16 b) { return _mm512_max_ps(a, b); } /* VMAXPS: the second operand when a > b fails */
/* the ordered predicates of the eight-lane kernel, as bit masks */
static inline m16 f16_gt(f16 a, f16 b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OS); }
static inline m16 f16_ge(f16 a, f16 b) { return _mm512_cmp_ps_mask(a, b, _CMP_GE_OS); }
static inline m16 f16_lt(f16 a, f16 b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OS); }
static inline m16 f16_le(f16 a, f16 b) { return _mm512_cmp_ps_mask(a, b, _CMP_LE_OS); }
static inline m16 f16_eq(f16 a, f16 b) { return _mm512_cmp_ps_mask(a, b, _CMP_EQ_OQ); }
static inline m16 f16_and(m16 a, m16 b) { return (m16)(a & b); }
static inline m16 f16_or(m16 a, m16 b) { return (m16)(a | b); }
static inline m16 f16_all(bool x) { return (m16)(x ? 0xffffu : 0u); }
static inline m16 f16_same(m16 a, m16 b) { return (m16)~(a ^ b); }
static inline f16 f16_select(m16 m, f16 a, f16 b) { return _mm512_mask_blend_ps(m, b, a); }
/* _MM_TRANSPOSE4_PS in each quarter */
KERNEL_INLINE void f16_transpose4(f16 *r0, f16 *r1, f16 *r2, f16 *r3)
{
	f16 t0 = _mm512_unpacklo_ps(*r0, *r1), t1 = _mm512_unpacklo_ps(*r2, *r3);
	f16 t2 = _mm512_unpackhi_ps(*r0, *r1), t3 = _mm512_unpackhi_ps(*r2, *r3);
	*r0 = _mm512_shuffle_ps(t0, t1, _MM_SHUFFLE(1, 0, 1, 0));
	*r1 = _mm512_shuffle_ps(t0, t1, _MM_SHUFFLE(3, 2, 3, 2));
	*r2 = _mm512_shuffle_ps(t2, t3, _MM_SHUFFLE(1, 0, 1, 0));
	*r3 = _mm512_shuffle_ps(t2, t3, _MM_SHUFFLE(3, 2, 3, 2));
}
/* The body of lane 4 q + i (q: the quarter). */
KERNEL_INLINE const float *f16_at(const sinew_solver_body *bodies, const uint32_t *offset, int i, int q, size_t field)
{
	return (const float *)(const void *)((const char *)body_in(bodies, offset[4 * q + i]) + field);
}
/* The four floats at field of the bodies of lanes i, i + 4, i + 8 and i + 12, one per quarter. */
KERNEL_INLINE f16 f16_row(const sinew_solver_body *bodies, const uint32_t *offset, int i, size_t field)
{
	f16 r = _mm512_castps128_ps512(_mm_loadu_ps(f16_at(bodies, offset, i, 0, field)));
	r = _mm512_insertf32x4(r, _mm_loadu_ps(f16_at(bodies, offset, i, 1, field)), 1);
	r = _mm512_insertf32x4(r, _mm_loadu_ps(f16_at(bodies, offset, i, 2, field)), 2);
	return _mm512_insertf32x4(r, _mm_loadu_ps(f16_at(bodies, offset, i, 3, field)), 3);
}
/* Row i of a transposed block: quarter q to the body of lane 4 q + i. */
KERNEL_INLINE void f16_store_row(sinew_solver_body *bodies, const uint32_t *offset, int i, f16 row)
{
	_mm_storeu_ps((float *)(void *)f16_at(bodies, offset, i, 0, offsetof(sinew_solver_body, v)), _mm512_castps512_ps128(row));
	_mm_storeu_ps((float *)(void *)f16_at(bodies, offset, i, 1, offsetof(sinew_solver_body, v)), _mm512_extractf32x4_ps(row, 1));
	_mm_storeu_ps((float *)(void *)f16_at(bodies, offset, i, 2, offsetof(sinew_solver_body, v)), _mm512_extractf32x4_ps(row, 2));
	_mm_storeu_ps((float *)(void *)f16_at(bodies, offset, i, 3, offsetof(sinew_solver_body, v)), _mm512_extractf32x4_ps(row, 3));
}
WIDE_GATHER_SCATTER(f16)
#define VT f16
#define VM m16
#define V(op) f16_##op
#define K(name) name##_avx16
#include "contact_wide_kernel.h"
#undef K

/* A colour's first `count` wide constraints, sixteen lanes at a time (called from the AVX loops
 * below, which cannot inline AVX-512 code). */
static void warm_blocks_avx16(sinew_solver_body *bodies, sinew_contact_wide *cw, int count, bool first_substep)
{
	for (int k = 0; k < count; ++k) warm_block_avx16(bodies, cw + k, 0, first_substep);
}

KERNEL_INLINE void solve_blocks_pass_avx16(sinew_solver_body *bodies, sinew_contact_wide *cw, int count, const pass_avx16 *ps,
                                           sinew_contact_pass pass)
{
	for (int k = 0; k < count; ++k) solve_block_avx16(bodies, cw + k, 0, ps, pass);
}

static void solve_blocks_avx16(const sinew_world *w, float inv_h, sinew_contact_wide *cw, int count, sinew_contact_pass pass)
{
	pass_avx16 ps = make_pass_avx16(w, inv_h);
	switch (pass) {
	case SINEW_CONTACT_PASS_BIASED: solve_blocks_pass_avx16(w->solver_bodies, cw, count, &ps, SINEW_CONTACT_PASS_BIASED); break;
	case SINEW_CONTACT_PASS_RELAX: solve_blocks_pass_avx16(w->solver_bodies, cw, count, &ps, SINEW_CONTACT_PASS_RELAX); break;
	case SINEW_CONTACT_PASS_RELAX_AGAIN:
		solve_blocks_pass_avx16(w->solver_bodies, cw, count, &ps, SINEW_CONTACT_PASS_RELAX_AGAIN);
		break;
	}
}
#pragma GCC pop_options

/* The wide constraints that the sixteen-lane kernel takes of a colour of `lanes` constraints: those
 * with more than eight lanes in use (every one but perhaps the last). */
static inline int sixteen_lane_blocks(int lanes)
{
	return lanes / WIDE_LANES + (lanes % WIDE_LANES > WIDE_LANES / 2 ? 1 : 0);
}

/* The eight-lane and four-lane kernels over the first `lanes` lanes of a wide constraint, a half or
 * a quarter at a time (pass a constant). */
KERNEL_INLINE void solve_parts_avx(sinew_solver_body *bodies, sinew_contact_wide *cw, int lanes, const pass_avx4 *ps4,
                                   const pass_avx8 *ps8, sinew_contact_pass pass)
{
	for (int h = 0; h < 2 && lanes > 8 * h; ++h) {
		if (lanes > 8 * h + 4) solve_block_avx8(bodies, cw, h, ps8, pass);
		else solve_block_avx4(bodies, cw, 2 * h, ps4, pass);
	}
}

static void warm_parts_avx(sinew_solver_body *bodies, sinew_contact_wide *cw, int lanes, bool first_substep)
{
	for (int h = 0; h < 2 && lanes > 8 * h; ++h) {
		if (lanes > 8 * h + 4) warm_block_avx8(bodies, cw, h, first_substep);
		else warm_block_avx4(bodies, cw, 2 * h, first_substep);
	}
}

/* Colour by colour: the wide constraints sixteen lanes at a time with AVX-512 (sixteen), and the
 * rest (a colour's last, when it holds eight constraints or fewer, or all of them without AVX-512)
 * eight lanes at a time, a half of four lanes with four. */
static void warm_start_avx(sinew_world *w, bool first_substep, bool sixteen)
{
	sinew_solver_body *bodies = w->solver_bodies;
	for (int c = 0; c < SINEW_GRAPH_COLOURS; ++c) {
		if (w->colour_count[c] == 0) continue; /* no constraint array at all in a world without contacts */
		sinew_contact_wide *cw = &w->wide_constraints[w->colour_start[c]];
		int lanes = w->colour_count[c];
		int blocks = sixteen ? sixteen_lane_blocks(lanes) : 0;
		if (blocks > 0) warm_blocks_avx16(bodies, cw, blocks, first_substep);
		lanes -= WIDE_LANES * blocks;
		cw += blocks;
		for (; lanes > 0; lanes -= WIDE_LANES) warm_parts_avx(bodies, cw++, lanes, first_substep);
	}
}

/* pass is a constant in each of the calls below: a kernel for each kind of pass. */
KERNEL_INLINE void solve_colours_avx(sinew_world *w, float inv_h, sinew_contact_pass pass, bool sixteen)
{
	sinew_solver_body *bodies = w->solver_bodies;
	pass_avx4 ps4 = make_pass_avx4(w, inv_h);
	pass_avx8 ps8 = make_pass_avx8(w, inv_h);
	for (int c = 0; c < SINEW_GRAPH_COLOURS; ++c) {
		if (w->colour_count[c] == 0) continue; /* no constraint array at all in a world without contacts */
		sinew_contact_wide *cw = &w->wide_constraints[w->colour_start[c]];
		int lanes = w->colour_count[c];
		int blocks = sixteen ? sixteen_lane_blocks(lanes) : 0;
		if (blocks > 0) solve_blocks_avx16(w, inv_h, cw, blocks, pass);
		lanes -= WIDE_LANES * blocks;
		cw += blocks;
		for (; lanes > 0; lanes -= WIDE_LANES) solve_parts_avx(bodies, cw++, lanes, &ps4, &ps8, pass);
	}
}

static void solve_avx(sinew_world *w, float inv_h, sinew_contact_pass pass, bool sixteen)
{
	switch (pass) {
	case SINEW_CONTACT_PASS_BIASED: solve_colours_avx(w, inv_h, SINEW_CONTACT_PASS_BIASED, sixteen); break;
	case SINEW_CONTACT_PASS_RELAX: solve_colours_avx(w, inv_h, SINEW_CONTACT_PASS_RELAX, sixteen); break;
	case SINEW_CONTACT_PASS_RELAX_AGAIN: solve_colours_avx(w, inv_h, SINEW_CONTACT_PASS_RELAX_AGAIN, sixteen); break;
	}
}
#pragma GCC pop_options
#endif

/* The widest kernel the build has and the CPU runs: SINEW_WIDE_AVX512 (sixteen lanes) or
 * SINEW_WIDE_AVX (eight), else SINEW_WIDE_FOUR. SINEW_SIMD=sse2 in the environment asks for the
 * four-lane kernel, SINEW_SIMD=avx for eight lanes at most (scripts/determinism.sh checks that each
 * gives the golden hashes). */
int sinew_contacts_wide_simd(void)
{
#if WIDE_AVX
	const char *simd = getenv("SINEW_SIMD");
	if (!__builtin_cpu_supports("avx") || (simd != NULL && strcmp(simd, "sse2") == 0)) return SINEW_WIDE_FOUR;
	if (!__builtin_cpu_supports("avx512f") || (simd != NULL && strcmp(simd, "avx") == 0)) return SINEW_WIDE_AVX;
	return SINEW_WIDE_AVX512;
#else
	return SINEW_WIDE_FOUR;
#endif
}

void sinew_contacts_warm_start_wide(sinew_world *w, bool first_substep)
{
#if WIDE_AVX
	if (w->wide_simd != SINEW_WIDE_FOUR) {
		warm_start_avx(w, first_substep, w->wide_simd == SINEW_WIDE_AVX512);
		return;
	}
#endif
	for (int c = 0; c < SINEW_GRAPH_COLOURS; ++c) {
		if (w->colour_count[c] == 0) continue; /* no constraint array at all in a world without contacts */
		sinew_contact_wide *cw = &w->wide_constraints[w->colour_start[c]];
		for (int lanes = w->colour_count[c]; lanes > 0; lanes -= WIDE_LANES, ++cw)
			for (int q = 0; q < WIDE_LANES / 4 && lanes > 4 * q; ++q) warm_block_4(w->solver_bodies, cw, q, first_substep);
	}
}

/* Each wide constraint as four quarters of four lanes (those that hold a constraint);
 * pass a constant in each call. */
KERNEL_INLINE void solve_colours_4(sinew_world *w, float inv_h, sinew_contact_pass pass)
{
	pass_4 ps = make_pass_4(w, inv_h);
	for (int c = 0; c < SINEW_GRAPH_COLOURS; ++c) {
		if (w->colour_count[c] == 0) continue; /* no constraint array at all in a world without contacts */
		sinew_contact_wide *cw = &w->wide_constraints[w->colour_start[c]];
		for (int lanes = w->colour_count[c]; lanes > 0; lanes -= WIDE_LANES, ++cw)
			for (int q = 0; q < WIDE_LANES / 4 && lanes > 4 * q; ++q) solve_block_4(w->solver_bodies, cw, q, &ps, pass);
	}
}

/* One pass over the coloured constraints, colour after colour. */
void sinew_contacts_solve_wide(sinew_world *w, float inv_h, sinew_contact_pass pass)
{
	int n = (int)stbds_arrlen(w->wide_constraints);
	if (n == 0) return;
#if WIDE_AVX
	if (w->wide_simd != SINEW_WIDE_FOUR) {
		solve_avx(w, inv_h, pass, w->wide_simd == SINEW_WIDE_AVX512);
		return;
	}
#endif
	switch (pass) {
	case SINEW_CONTACT_PASS_BIASED: solve_colours_4(w, inv_h, SINEW_CONTACT_PASS_BIASED); break;
	case SINEW_CONTACT_PASS_RELAX: solve_colours_4(w, inv_h, SINEW_CONTACT_PASS_RELAX); break;
	case SINEW_CONTACT_PASS_RELAX_AGAIN: solve_colours_4(w, inv_h, SINEW_CONTACT_PASS_RELAX_AGAIN); break;
	}
}

/* Lane slot's state into cc: bodies, normal, force_dv and each point's anchors, masses, impulses
 * and speeds (what restitution and store read). */
void sinew_contacts_read_wide(const sinew_world *w, int32_t slot, int point_count, sinew_contact_constraint *cc)
{
	const sinew_contact_wide *cw = &w->wide_constraints[(uint32_t)slot / WIDE_LANES]; /* slot >= 0: shifts */
	int l = (int)((uint32_t)slot % WIDE_LANES);
	cc->body_a = (int32_t)(cw->offset_a[l] / sizeof(sinew_solver_body));
	cc->body_b = (int32_t)(cw->offset_b[l] / sizeof(sinew_solver_body));
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
	const sinew_contact_wide *cw = &w->wide_constraints[(uint32_t)slot / WIDE_LANES]; /* slot >= 0: shifts */
	int l = (int)((uint32_t)slot % WIDE_LANES);
	for (int j = 0; j < c->manifold.point_count; ++j) {
		const wide_point *wp = &cw->points[j];
		sinew_contact_store_point(c, j, wp->normal_impulse[l], wp->tangent_impulse[l], wp->total_normal_impulse[l],
		                          wp->total_tangent_impulse[l], wp->max_normal_impulse[l], wp->relative_velocity[l]);
	}
}

/* Whether a point of lane slot bounces (sinew_contacts_restitution's test: it approached faster than
 * the threshold and pushed), read from its two lanes without gathering the constraint. */
bool sinew_contacts_bounces_wide(const sinew_world *w, int32_t slot, int point_count, float threshold)
{
	const sinew_contact_wide *cw = &w->wide_constraints[(uint32_t)slot / WIDE_LANES]; /* slot >= 0: shifts */
	int l = (int)((uint32_t)slot % WIDE_LANES);
	for (int j = 0; j < point_count; ++j)
		if (!(cw->points[j].relative_velocity[l] > -threshold || cw->points[j].max_normal_impulse[l] == 0.0f)) return true;
	return false;
}

void sinew_contacts_write_normal_wide(sinew_world *w, int32_t slot, int point_count, const sinew_contact_constraint *cc)
{
	sinew_contact_wide *cw = &w->wide_constraints[(uint32_t)slot / WIDE_LANES]; /* slot >= 0: shifts */
	int l = (int)((uint32_t)slot % WIDE_LANES);
	for (int j = 0; j < point_count; ++j) {
		cw->points[j].normal_impulse[l] = cc->points[j].normal_impulse;
		cw->points[j].max_normal_impulse[l] = cc->points[j].max_normal_impulse;
	}
}
