/* Building blocks of joint rows and the measurements joints report. Every joint type is made of
 * these: a point constraint (two rows), a relative angle, a distance along an axis fixed in body A,
 * the world-space swing of the centre-to-centre vector; and from any one of them a pair of limit
 * rows, a motor row or a spring row. */
#include "joint.h"

#include <stddef.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Where body i is now: inside a step the solver's running state, outside it the body's own. */
static inline void body_pose(const sinew_world *w, int32_t bi, sinew_vec2 *center, sinew_rot *q, sinew_vec2 *local_center)
{
	const sinew_body *b = &w->bodies[bi];
	if (b->solver_index > 0 && w->locked) {
		const sinew_solver_body *sb = &w->solver_bodies[b->solver_index];
		*center = sinew_add(b->center0, sb->dp);
		*q = sinew_mul_rot(sb->dq, b->q0);
	} else {
		*center = b->center;
		*q = b->xf.q;
	}
	*local_center = b->local_center;
}

#if defined(__SSE2__)
static inline __m128 vec2_pair(sinew_vec2 a, sinew_vec2 b)
{
	return _mm_setr_ps(a.x, a.y, b.x, b.y);
}

/* Two pairs of floats from memory (a vector or a rotation): a in lanes 0-1, b in lanes 2-3, each
 * pair read at once: for what the step wrote long before (a body's start pose, local centre). */
static inline __m128 load_pair(const void *a, const void *b)
{
	return _mm_loadh_pi(_mm_loadl_pi(_mm_setzero_ps(), (const __m64 *)a), (const __m64 *)b);
}

/* load_pair float by float, for what the solver has just written float by float (a solver body's
 * dp and dq): an 8-byte read of two fresh 4-byte writes cannot be forwarded from the store buffer
 * and waits for them to reach the cache (chain100 ran 5 % slower with it, for fewer instructions). */
static inline __m128 load_fresh_pair(const void *a, const void *b)
{
	const float *x = (const float *)a, *y = (const float *)b;
	return _mm_setr_ps(x[0], x[1], y[0], y[1]);
}

/* A frame's side A and side B of one quantity lie next to each other: stored at once, 16 bytes, so
 * the copy that returns the frame reads it whole (two 8-byte stores read back as one 16-byte load
 * cannot be forwarded and wait for the cache, longer than the arithmetic saved). */
#define FRAME_PAIR(field) \
	_Static_assert(offsetof(sinew_joint_frame, field##_b) == offsetof(sinew_joint_frame, field##_a) + 8, "pair")
FRAME_PAIR(center);
FRAME_PAIR(q);
FRAME_PAIR(r);
FRAME_PAIR(p);
#undef FRAME_PAIR

static inline void store_pair(void *a, __m128 v)
{
	_mm_storeu_ps((float *)a, v);
}

/* sinew_rotate of two vectors at once (lanes 0-1 and 2-3) by the rotations whose cosines are qc and
 * sines qs (each in both lanes of its pair). x = c vx + s (-vy) is c vx - s vy and y = c vy + s vx is
 * s vx + c vy, since a - b is a + (-b) and a sum does not depend on its order: the same to the bit.
 * With v a rotation r it is sinew_mul_rot(q, r) the same way. */
static inline __m128 rotate_pair(__m128 qc, __m128 qs, __m128 v)
{
	const __m128 flip = _mm_setr_ps(-0.0f, 0.0f, -0.0f, 0.0f);
	__m128 perp = _mm_xor_ps(_mm_shuffle_ps(v, v, _MM_SHUFFLE(2, 3, 0, 1)), flip); /* (-vy, vx) */
	return _mm_add_ps(_mm_mul_ps(qc, v), _mm_mul_ps(qs, perp));
}

static inline __m128 cosines(__m128 q)
{
	return _mm_shuffle_ps(q, q, _MM_SHUFFLE(2, 2, 0, 0));
}

static inline __m128 sines(__m128 q)
{
	return _mm_shuffle_ps(q, q, _MM_SHUFFLE(3, 3, 1, 1));
}

/* The frame of both sides at once from their centres c and rotations q (side A in lanes 0-1), local
 * centres lc and local anchors la: each side's frame origin is its centre less the turned local
 * centre, its anchor p that origin's sinew_transform_point of the local anchor, its arm p - c. Each
 * lane does the scalar operations, so the same to the bit. */
static inline void write_frame(sinew_joint_frame *f, __m128 c, __m128 q, __m128 lc, __m128 la)
{
	__m128 qc = cosines(q), qs = sines(q);
	__m128 origin = _mm_sub_ps(c, rotate_pair(qc, qs, lc));
	__m128 p = _mm_add_ps(rotate_pair(qc, qs, la), origin);
	store_pair(&f->center_a, c);
	store_pair(&f->q_a, q);
	store_pair(&f->p_a, p);
	store_pair(&f->r_a, _mm_sub_ps(p, c));
}

/* sinew_joint_current_frame of a joint between two bodies the step is moving (every joint of a
 * moving figure or chain but its anchor): body_pose of both at once, with no copy of either pose.
 * Instructions a frame, stickman_rain and chain100: docs/benchmarks.md, "Session 9: joint rows and angles". */
static inline void moving_frame(const sinew_world *w, const sinew_joint *j, const sinew_body *a, const sinew_body *b,
                                sinew_joint_frame *f)
{
	const sinew_solver_body *sa = &w->solver_bodies[a->solver_index], *sb = &w->solver_bodies[b->solver_index];
	__m128 c = _mm_add_ps(load_pair(&a->center0, &b->center0), load_fresh_pair(&sa->dp, &sb->dp));
	__m128 dq = load_fresh_pair(&sa->dq, &sb->dq);
	__m128 q = rotate_pair(cosines(dq), sines(dq), load_pair(&a->q0, &b->q0));
	write_frame(f, c, q, load_pair(&a->local_center, &b->local_center), load_pair(&j->local_anchor_a, &j->local_anchor_b));
}
#endif

/* Each side's anchor p and arm r from its centre and rotation (set in f), the body frame's origin
 * being the centre less the turned local centre lc (write_frame with SSE2). */
static inline void frame_anchors(sinew_joint_frame *f, sinew_vec2 lc_a, sinew_vec2 lc_b, sinew_vec2 la, sinew_vec2 lb)
{
#if defined(__SSE2__)
	write_frame(f, vec2_pair(f->center_a, f->center_b), _mm_setr_ps(f->q_a.c, f->q_a.s, f->q_b.c, f->q_b.s),
	            vec2_pair(lc_a, lc_b), vec2_pair(la, lb));
#else
	sinew_transform xa = {sinew_sub(f->center_a, sinew_rotate(f->q_a, lc_a)), f->q_a};
	sinew_transform xb = {sinew_sub(f->center_b, sinew_rotate(f->q_b, lc_b)), f->q_b};
	f->p_a = sinew_transform_point(xa, la);
	f->p_b = sinew_transform_point(xb, lb);
	f->r_a = sinew_sub(f->p_a, f->center_a);
	f->r_b = sinew_sub(f->p_b, f->center_b);
#endif
}

sinew_joint_frame sinew_joint_current_frame(const sinew_world *w, const sinew_joint *j)
{
	sinew_joint_frame f; /* every field is written below */
	bool world_a = j->edges[0].body == SINEW_NULL_INDEX;
#if defined(__SSE2__)
	if (!world_a && w->locked) {
		const sinew_body *a = &w->bodies[j->edges[0].body], *b = &w->bodies[j->edges[1].body];
		if (a->solver_index > 0 && b->solver_index > 0) {
			moving_frame(w, j, a, b, &f);
			return f;
		}
	}
#endif
	sinew_vec2 lc_a = sinew_v2(0.0f, 0.0f), lc_b;
	if (world_a) {
		f.center_a = j->local_anchor_a;
		f.q_a = sinew_rot_identity();
	} else {
		body_pose(w, j->edges[0].body, &f.center_a, &f.q_a, &lc_a);
	}
	body_pose(w, j->edges[1].body, &f.center_b, &f.q_b, &lc_b);
	frame_anchors(&f, lc_a, lc_b, j->local_anchor_a, j->local_anchor_b);
	if (world_a) { /* the world's anchor is authored in the world frame */
		f.p_a = j->local_anchor_a;
		f.r_a = sinew_v2(0.0f, 0.0f);
	}
	return f;
}

static float wrap_angle(float a)
{
	/* within [-pi, pi] remainderf returns a itself (the nearest multiple of 2 pi is 0, a tie at +-pi
	 * goes to the even one): skip the library call for the angle a joint almost always has */
	if (a >= -SINEW_PI && a <= SINEW_PI) return a <= -SINEW_PI ? a + 2.0f * SINEW_PI : a;
	a = remainderf(a, 2.0f * SINEW_PI); /* in [-pi, pi]; no loop, so never stuck on a non-finite angle */
	return a <= -SINEW_PI ? a + 2.0f * SINEW_PI : a;
}

float sinew_joint_relative_angle(const sinew_joint *j, const sinew_joint_frame *f)
{
	return wrap_angle(sinew_relative_angle(f->q_a, f->q_b) - j->reference_angle);
}

float sinew_joint_swing_angle(const sinew_joint *j, const sinew_joint_frame *f)
{
	sinew_vec2 d = sinew_sub(f->center_b, f->center_a);
	if (sinew_length_squared(d) == 0.0f) return 0.0f;
	return wrap_angle(sinew_atan2(d.y, d.x) - j->swing_reference);
}

/* The swing taken a whole turn towards the band when that brings it nearer: outside its band the
 * swing is measured to the nearer bound, the way round the world that is shorter. A hinge band
 * (an elbow's 155 degrees) leaves more than half the circle outside it, and the swing of a
 * centre-to-centre line jumps half a turn when the line passes through zero length (a limb folding
 * onto its parent: the centres cross); measured in (-pi, pi] the bound behind would be pushed
 * towards the long way round, through the whole forbidden arc. Inside the band it is the swing. */
float sinew_joint_swing_in_band(const sinew_joint *j, const sinew_joint_frame *f)
{
	float phi = sinew_joint_swing_angle(j, f), lower = j->limit.lower, upper = j->limit.upper;
	const float turn = 2.0f * SINEW_PI;
	if (phi < lower && phi + turn - upper < lower - phi) return phi + turn;
	if (phi > upper && lower + turn - phi < phi - upper) return phi - turn;
	return phi;
}

sinew_vec2 sinew_joint_axis(const sinew_joint *j, const sinew_joint_frame *f)
{
	return sinew_rotate(f->q_a, j->local_axis_a);
}

static void clear_row(sinew_joint_row *row)
{
	memset(row, 0, sizeof *row);
	row->kind = SINEW_ROW_EQUALITY;
}

void sinew_row_point(sinew_joint_row *rows, const sinew_joint_frame *f)
{
	clear_row(&rows[0]);
	clear_row(&rows[1]);
	/* Cdot = vB + wB x rB - vA - wA x rA, with w x r = (-w r.y, w r.x) */
	rows[0].ja[0] = -1.0f;
	rows[0].jb[0] = 1.0f;
	rows[0].point = 1;
	rows[1].point = 2;
	rows[0].c = f->p_b.x - f->p_a.x;
	rows[1].ja[1] = -1.0f;
	rows[1].jb[1] = 1.0f;
	rows[1].c = f->p_b.y - f->p_a.y;
	sinew_row_point_arms(&rows[0], &rows[1], f);
}

void sinew_row_point_arms(sinew_joint_row *x, sinew_joint_row *y, const sinew_joint_frame *f)
{
	x->ja[2] = f->r_a.y;
	x->jb[2] = -f->r_b.y;
	y->ja[2] = -f->r_a.x;
	y->jb[2] = f->r_b.x;
}

void sinew_row_angle(sinew_joint_row *row, float c)
{
	clear_row(row);
	row->ja[2] = -1.0f;
	row->jb[2] = 1.0f;
	row->point = 3;
	row->c = c;
}

void sinew_row_linear(sinew_joint_row *row, const sinew_joint_frame *f, sinew_vec2 axis, float c)
{
	/* C = axis . (pB - pA) with axis turning with A: Cdot = axis.(vB - vA) + wB (rB x axis) - wA ((rA + d) x axis) */
	clear_row(row);
	sinew_vec2 d = sinew_sub(f->p_b, f->p_a);
	row->ja[0] = -axis.x, row->ja[1] = -axis.y, row->ja[2] = -sinew_cross(sinew_add(f->r_a, d), axis);
	row->jb[0] = axis.x, row->jb[1] = axis.y, row->jb[2] = sinew_cross(f->r_b, axis);
	row->c = c;
}

void sinew_row_swing(sinew_joint_row *row, const sinew_joint_frame *f, float c)
{
	/* theta = atan2(d), d = cB - cA: theta_dot = (d x (vB - vA)) / |d|^2 — only the centres move it */
	clear_row(row);
	sinew_vec2 d = sinew_sub(f->center_b, f->center_a);
	float d2 = sinew_length_squared(d);
	if (d2 > 0.0f) {
		sinew_vec2 p = sinew_scale(1.0f / d2, sinew_left_perp(d));
		row->ja[0] = -p.x, row->ja[1] = -p.y;
		row->jb[0] = p.x, row->jb[1] = p.y;
	}
	row->c = c;
}

void sinew_swing_limit_errors(const sinew_joint *j, const sinew_joint_frame *f, float *c)
{
	float phi = sinew_joint_swing_in_band(j, f);
	/* A crossed world-frame bound is closed at most SINEW_SWING_MAX_CORRECTION per correction. The
	 * row is against the world's directions, not the parent's: a figure whose ground contacts push
	 * a limb past its world bound (or whose limb folded through its parent and flipped the swing half
	 * a turn) can find it tens of degrees out. The tree's position projection is one linear step,
	 * and closing such a gap in one step turns the bodies by as much: their anchors, which the
	 * same step keeps together only to first order, came apart (measured in scenes/harness_godot.json,
	 * 29 px). A tree's velocity pass holds a crossed bound still (no bias), so there the cap only paces
	 * the projection, about 14 degrees a frame at 60 Hz and 4 substeps; a row solved one by one (a soft
	 * pin's) has its bias bounded by it. Either way the bound stays rigid against further crossing. */
	c[0] = sinew_maxf(phi - j->limit.lower, -SINEW_SWING_MAX_CORRECTION);
	c[1] = sinew_maxf(j->limit.upper - phi, -SINEW_SWING_MAX_CORRECTION);
}

int sinew_rows_swing_limit(sinew_joint_row *rows, const sinew_joint *j, const sinew_joint_frame *f)
{
	float c[2];
	sinew_swing_limit_errors(j, f, c);
	sinew_joint_row swing;
	sinew_row_swing(&swing, f, 0.0f);
	int n = sinew_rows_limit(rows, &swing, 0.0f, 0.0f, 0.0f);
	for (int k = 0; k < n; ++k) rows[k].c = c[k];
	return n;
}

static void copy_shape(sinew_joint_row *row, const sinew_joint_row *shape, float sign)
{
	clear_row(row);
	for (int k = 0; k < 3; ++k) {
		row->ja[k] = sign * shape->ja[k];
		row->jb[k] = sign * shape->jb[k];
	}
	if (shape->point == 3) row->point = 3; /* still a turn alone (a point's x or y row alone is not a point) */
}

int sinew_rows_limit(sinew_joint_row *rows, const sinew_joint_row *shape, float value, float lower, float upper)
{
	copy_shape(&rows[0], shape, 1.0f);
	rows[0].kind = SINEW_ROW_LIMIT;
	rows[0].c = value - lower;
	copy_shape(&rows[1], shape, -1.0f);
	rows[1].kind = SINEW_ROW_LIMIT;
	rows[1].c = upper - value;
	return 2;
}

int sinew_rows_motor(sinew_joint_row *rows, const sinew_joint_row *shape, const sinew_joint_motor *motor)
{
	copy_shape(&rows[0], shape, 1.0f);
	rows[0].kind = SINEW_ROW_MOTOR;
	rows[0].speed = motor->speed;
	rows[0].max_effort = motor->max_effort;
	return 1;
}

int sinew_rows_spring(sinew_joint_row *rows, const sinew_joint_row *shape, float value, const sinew_joint_spring *spring)
{
	copy_shape(&rows[0], shape, 1.0f);
	rows[0].kind = SINEW_ROW_SPRING;
	rows[0].c = value - spring->target;
	rows[0].hertz = spring->hertz;
	rows[0].zeta = spring->damping_ratio;
	return 1;
}
