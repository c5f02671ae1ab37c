/* sinew/math.h: 2D vectors, rotations and transforms (single precision, inline).
 * Angles are radians; a rotation is stored as cosine/sine so composing never drifts through trig. */
#ifndef SINEW_MATH_H
#define SINEW_MATH_H

#include <math.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SINEW_PI 3.14159265358979323846f

/** A 2D vector or point. */
typedef struct sinew_vec2 { float x, y; } sinew_vec2;
/** A rotation: cosine and sine of the angle. */
typedef struct sinew_rot { float c, s; } sinew_rot;
/** A rigid transform: rotate by q, then translate by p. */
typedef struct sinew_transform { sinew_vec2 p; sinew_rot q; } sinew_transform;
/** Axis-aligned bounding box. */
typedef struct sinew_aabb { sinew_vec2 lower, upper; } sinew_aabb;

static inline sinew_vec2 sinew_v2(float x, float y) { sinew_vec2 v = {x, y}; return v; }
static inline sinew_vec2 sinew_add(sinew_vec2 a, sinew_vec2 b) { return sinew_v2(a.x + b.x, a.y + b.y); }
static inline sinew_vec2 sinew_sub(sinew_vec2 a, sinew_vec2 b) { return sinew_v2(a.x - b.x, a.y - b.y); }
static inline sinew_vec2 sinew_neg(sinew_vec2 a) { return sinew_v2(-a.x, -a.y); }
static inline sinew_vec2 sinew_scale(float s, sinew_vec2 a) { return sinew_v2(s * a.x, s * a.y); }
/** a + s * b */
static inline sinew_vec2 sinew_mul_add(sinew_vec2 a, float s, sinew_vec2 b) { return sinew_v2(a.x + s * b.x, a.y + s * b.y); }
/** a - s * b */
static inline sinew_vec2 sinew_mul_sub(sinew_vec2 a, float s, sinew_vec2 b) { return sinew_v2(a.x - s * b.x, a.y - s * b.y); }
static inline float sinew_dot(sinew_vec2 a, sinew_vec2 b) { return a.x * b.x + a.y * b.y; }
static inline float sinew_cross(sinew_vec2 a, sinew_vec2 b) { return a.x * b.y - a.y * b.x; }
/** cross(v, s) = (s v.y, -s v.x) */
static inline sinew_vec2 sinew_cross_vs(sinew_vec2 v, float s) { return sinew_v2(s * v.y, -s * v.x); }
/** cross(s, v) = (-s v.y, s v.x): angular velocity s times arm v */
static inline sinew_vec2 sinew_cross_sv(float s, sinew_vec2 v) { return sinew_v2(-s * v.y, s * v.x); }
/** The vector turned a quarter counter-clockwise. */
static inline sinew_vec2 sinew_left_perp(sinew_vec2 v) { return sinew_v2(-v.y, v.x); }
static inline sinew_vec2 sinew_right_perp(sinew_vec2 v) { return sinew_v2(v.y, -v.x); }
static inline float sinew_length(sinew_vec2 v) { return sqrtf(v.x * v.x + v.y * v.y); }
static inline float sinew_length_squared(sinew_vec2 v) { return v.x * v.x + v.y * v.y; }
static inline float sinew_distance(sinew_vec2 a, sinew_vec2 b) { return sinew_length(sinew_sub(b, a)); }
static inline float sinew_distance_squared(sinew_vec2 a, sinew_vec2 b) { return sinew_length_squared(sinew_sub(b, a)); }
static inline sinew_vec2 sinew_lerp(sinew_vec2 a, sinew_vec2 b, float t) { return sinew_v2(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y)); }
static inline sinew_vec2 sinew_vmin(sinew_vec2 a, sinew_vec2 b) { return sinew_v2(a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y); }
static inline sinew_vec2 sinew_vmax(sinew_vec2 a, sinew_vec2 b) { return sinew_v2(a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y); }
static inline float sinew_minf(float a, float b) { return a < b ? a : b; }
static inline float sinew_maxf(float a, float b) { return a > b ? a : b; }
static inline float sinew_absf(float a) { return a < 0.0f ? -a : a; }
static inline float sinew_clampf(float a, float lo, float hi) { return a < lo ? lo : (a > hi ? hi : a); }
/** Unit vector along v (zero vector when v is tiny). */
static inline sinew_vec2 sinew_normalize(sinew_vec2 v)
{
	float len = sinew_length(v);
	if (len < 1.1920929e-7f) return sinew_v2(0.0f, 0.0f);
	return sinew_scale(1.0f / len, v);
}
/** Unit vector along v, and its length through *length. */
static inline sinew_vec2 sinew_get_length_and_normalize(float *length, sinew_vec2 v)
{
	*length = sinew_length(v);
	if (*length < 1.1920929e-7f) return sinew_v2(0.0f, 0.0f);
	return sinew_scale(1.0f / *length, v);
}
static inline bool sinew_is_finite(float a) { return isfinite(a) != 0; }
static inline bool sinew_vec2_is_valid(sinew_vec2 v) { return isfinite(v.x) && isfinite(v.y); }

/** atan2(y, x) in [-pi, pi], the same on every platform (no libm call): within 0.5 ulp plus 2^-11 ulp
 * of the exact angle, so almost always the correctly rounded float (tests/test_math.c measures it
 * against double atan2). Signs, zeros, infinities and NaN as C's atan2f: atan2(+-0, +0) = +-0,
 * atan2(+-0, -0) = +-pi, atan2(y, +-0) = +-pi/2 for y != 0, NaN in gives NaN.
 * How: the ratio of the smaller to the larger magnitude, or within 22.5 degrees of the diagonal
 * (x - y) / (x + y) around pi/4, is in [-tan(pi/8), tan(pi/8)]; there atan(u) = u p(u^2) with p a
 * degree-6 minimax polynomial (relative error 2.2e-11), all in double, rounded to float once. */
static inline float sinew_atan2(float y, float x)
{
	double ax = fabs((double)x), ay = fabs((double)y);
	int swap = ay > ax;
	double lo = swap ? ax : ay, hi = swap ? ay : ax;
	if (!(hi > 0.0) || lo == (double)INFINITY) { /* NaN, both zero or both infinite */
		if (isnan(x) || isnan(y)) return x + y;
		double q = lo == 0.0 ? 0.0 : 0.78539816339744830962; /* both zero, or both infinite: pi/4 */
		return copysignf((float)(signbit(x) ? 3.14159265358979323846 - q : q), y);
	}
	double u, base;
	if (lo > 0.41421356237309503 * hi) u = (lo - hi) / (lo + hi), base = 0.78539816339744830962; /* exact sum and difference */
	else u = lo / hi, base = 0.0;
	double z = u * u;
	double p = 0.047186522866086926;
	p = p * z - 0.08462020039579775;
	p = p * z + 0.1104161604671345;
	p = p * z - 0.14281689250319318;
	p = p * z + 0.19999887909108513;
	p = p * z - 0.3333333215744853;
	p = p * z + 0.9999999999798329;
	double a = base + u * p;
	if (swap) a = 1.57079632679489661923 - a;
	if (signbit(x)) a = 3.14159265358979323846 - a;
	return copysignf((float)a, y);
}

static inline sinew_rot sinew_rot_identity(void) { sinew_rot q = {1.0f, 0.0f}; return q; }
static inline sinew_rot sinew_make_rot(float angle) { sinew_rot q = {cosf(angle), sinf(angle)}; return q; }
static inline float sinew_rot_angle(sinew_rot q) { return sinew_atan2(q.s, q.c); }
static inline sinew_vec2 sinew_rotate(sinew_rot q, sinew_vec2 v) { return sinew_v2(q.c * v.x - q.s * v.y, q.s * v.x + q.c * v.y); }
static inline sinew_vec2 sinew_inv_rotate(sinew_rot q, sinew_vec2 v) { return sinew_v2(q.c * v.x + q.s * v.y, -q.s * v.x + q.c * v.y); }
/** q * r */
static inline sinew_rot sinew_mul_rot(sinew_rot q, sinew_rot r) { sinew_rot a = {q.c * r.c - q.s * r.s, q.s * r.c + q.c * r.s}; return a; }
/** inverse(q) * r */
static inline sinew_rot sinew_inv_mul_rot(sinew_rot q, sinew_rot r) { sinew_rot a = {q.c * r.c + q.s * r.s, q.c * r.s - q.s * r.c}; return a; }
/** Angle of b relative to a, in (-pi, pi]. */
static inline float sinew_relative_angle(sinew_rot a, sinew_rot b) { return sinew_atan2(a.c * b.s - a.s * b.c, a.c * b.c + a.s * b.s); }
/** Turn a rotation by a small angle increment da (third-order accurate, renormalised). */
static inline sinew_rot sinew_integrate_rot(sinew_rot q, float da)
{
	float dc = 1.0f - 0.5f * da * da, ds = da - da * da * da / 6.0f;
	float c = q.c * dc - q.s * ds, s = q.s * dc + q.c * ds;
	float inv = 1.0f / sqrtf(c * c + s * s);
	sinew_rot r = {c * inv, s * inv};
	return r;
}
static inline bool sinew_rot_is_valid(sinew_rot q) { return isfinite(q.c) && isfinite(q.s) && fabsf(q.c * q.c + q.s * q.s - 1.0f) < 1e-3f; }

static inline sinew_transform sinew_transform_identity(void) { sinew_transform t = {{0.0f, 0.0f}, {1.0f, 0.0f}}; return t; }
static inline sinew_transform sinew_make_transform(sinew_vec2 p, float angle) { sinew_transform t; t.p = p; t.q = sinew_make_rot(angle); return t; }
static inline sinew_vec2 sinew_transform_point(sinew_transform t, sinew_vec2 v) { return sinew_add(sinew_rotate(t.q, v), t.p); }
static inline sinew_vec2 sinew_inv_transform_point(sinew_transform t, sinew_vec2 v) { return sinew_inv_rotate(t.q, sinew_sub(v, t.p)); }
/** a * b: apply b, then a. */
static inline sinew_transform sinew_mul_transforms(sinew_transform a, sinew_transform b)
{
	sinew_transform c;
	c.q = sinew_mul_rot(a.q, b.q);
	c.p = sinew_add(sinew_rotate(a.q, b.p), a.p);
	return c;
}
/** inverse(a) * b: b expressed in a's frame. */
static inline sinew_transform sinew_inv_mul_transforms(sinew_transform a, sinew_transform b)
{
	sinew_transform c;
	c.q = sinew_inv_mul_rot(a.q, b.q);
	c.p = sinew_inv_rotate(a.q, sinew_sub(b.p, a.p));
	return c;
}

static inline bool sinew_aabb_overlaps(sinew_aabb a, sinew_aabb b)
{
	return !(b.lower.x > a.upper.x || b.lower.y > a.upper.y || a.lower.x > b.upper.x || a.lower.y > b.upper.y);
}
static inline bool sinew_aabb_contains(sinew_aabb outer, sinew_aabb inner)
{
	return outer.lower.x <= inner.lower.x && outer.lower.y <= inner.lower.y && inner.upper.x <= outer.upper.x &&
	       inner.upper.y <= outer.upper.y;
}
static inline sinew_aabb sinew_aabb_union(sinew_aabb a, sinew_aabb b)
{
	sinew_aabb c = {sinew_vmin(a.lower, b.lower), sinew_vmax(a.upper, b.upper)};
	return c;
}
static inline float sinew_aabb_perimeter(sinew_aabb a) { return 2.0f * ((a.upper.x - a.lower.x) + (a.upper.y - a.lower.y)); }

#ifdef __cplusplus
}
#endif
#endif
