/* Tests for the world-free queries of the collision layer: distance and closest points, ray casts,
 * shape casts and time of impact. Fixed cases are worked out by hand in the comment next to them;
 * random cases are checked against brute force written here without the library's algorithms
 * (dense samples of the boundaries, exact point-to-core distances in double, marching along rays
 * and sweeps). */
#include "core.h"

#include "sinew/collision.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "near.h"

#define SLOP 0.005f
#define PI_F 3.14159265358979323846f
#define SQRT2 1.41421356237309504880

/* ---- helpers ---- */



static sinew_transform make_xf(float x, float y, float angle)
{
	return sinew_make_transform(sinew_v2(x, y), angle);
}

static sinew_geometry geo_circle(float x, float y, float r)
{
	sinew_geometry g;
	g.type = SINEW_SHAPE_CIRCLE;
	g.u.circle.center = sinew_v2(x, y);
	g.u.circle.radius = r;
	return g;
}

static sinew_geometry geo_capsule(float x1, float y1, float x2, float y2, float r)
{
	sinew_geometry g;
	g.type = SINEW_SHAPE_CAPSULE;
	g.u.capsule.center1 = sinew_v2(x1, y1);
	g.u.capsule.center2 = sinew_v2(x2, y2);
	g.u.capsule.radius = r;
	return g;
}

static sinew_geometry geo_polygon(sinew_polygon p)
{
	sinew_geometry g;
	g.type = SINEW_SHAPE_POLYGON;
	g.u.polygon = p;
	return g;
}

static sinew_geometry geo_box(float hx, float hy)
{
	return geo_polygon(sinew_make_box(hx, hy));
}

/* A regular n-gon of circumradius rr turned by phase, rounded by radius. */
static sinew_geometry geo_ngon(int n, float rr, float phase, float radius)
{
	sinew_polygon p = {0};
	for (int i = 0; i < n; ++i) {
		float a = phase + 2.0f * PI_F * (float)i / (float)n;
		p.vertices[i] = sinew_v2(rr * cosf(a), rr * sinf(a));
	}
	for (int i = 0; i < n; ++i)
		p.normals[i] = sinew_normalize(sinew_right_perp(sinew_sub(p.vertices[(i + 1) % n], p.vertices[i])));
	p.count = n;
	p.radius = radius;
	return geo_polygon(p);
}

static sinew_ray_cast_input ray(float ox, float oy, float tx, float ty, float max_fraction)
{
	sinew_ray_cast_input in = {{ox, oy}, {tx, ty}, max_fraction};
	return in;
}

/* Deterministic random numbers (a 32-bit LCG), uniform in [lo, hi). */
static uint32_t s_seed = 12345u;
static float rnd(float lo, float hi)
{
	s_seed = s_seed * 1664525u + 1013904223u;
	return lo + (hi - lo) * (float)(s_seed >> 8) / 16777216.0f;
}

#define KIND_COUNT 5
static const char *const s_kind_names[KIND_COUNT] = {"circle", "capsule", "box", "rounded box", "hexagon"};

/* A random shape of the given kind (0 circle, 1 capsule, 2 box, 3 rounded box, 4 rounded hexagon). */
static sinew_geometry random_shape(int kind)
{
	switch (kind) {
	case 0:
		return geo_circle(rnd(-0.3f, 0.3f), rnd(-0.3f, 0.3f), rnd(0.1f, 1.0f));
	case 1:
		return geo_capsule(rnd(-1.0f, 1.0f), rnd(-1.0f, 1.0f), rnd(-1.0f, 1.0f), rnd(-1.0f, 1.0f), rnd(0.05f, 0.5f));
	case 2:
		return geo_polygon(sinew_make_offset_box(rnd(0.1f, 1.0f), rnd(0.1f, 1.0f),
		                                         sinew_v2(rnd(-0.3f, 0.3f), rnd(-0.3f, 0.3f)), rnd(-3.0f, 3.0f)));
	case 3:
		return geo_polygon(sinew_make_rounded_box(rnd(0.1f, 0.8f), rnd(0.1f, 0.8f),
		                                          sinew_v2(rnd(-0.3f, 0.3f), rnd(-0.3f, 0.3f)), rnd(-3.0f, 3.0f),
		                                          rnd(0.05f, 0.3f)));
	default:
		return geo_ngon(6, rnd(0.3f, 1.0f), rnd(0.0f, 1.0f), rnd(0.0f, 0.2f));
	}
}

/* ---- brute force, in double, independent of the library's algorithms ---- */

typedef struct dvec {
	double x, y;
} dvec;

typedef struct core_shape {
	dvec v[SINEW_MAX_POLYGON_VERTICES];
	int count;
	double radius;
} core_shape;

/* The shape's core points in world space. */
static core_shape world_core(const sinew_geometry *g, sinew_transform xf)
{
	core_shape c = {0};
	sinew_vec2 pts[SINEW_MAX_POLYGON_VERTICES];
	if (g->type == SINEW_SHAPE_CIRCLE) {
		pts[0] = g->u.circle.center;
		c.count = 1;
		c.radius = g->u.circle.radius;
	} else if (g->type == SINEW_SHAPE_CAPSULE) {
		pts[0] = g->u.capsule.center1;
		pts[1] = g->u.capsule.center2;
		c.count = 2;
		c.radius = g->u.capsule.radius;
	} else {
		c.count = g->u.polygon.count;
		for (int i = 0; i < c.count; ++i) pts[i] = g->u.polygon.vertices[i];
		c.radius = g->u.polygon.radius;
	}
	double cs = cos(atan2((double)xf.q.s, (double)xf.q.c)), sn = sin(atan2((double)xf.q.s, (double)xf.q.c));
	for (int i = 0; i < c.count; ++i) {
		c.v[i].x = cs * pts[i].x - sn * pts[i].y + xf.p.x;
		c.v[i].y = sn * pts[i].x + cs * pts[i].y + xf.p.y;
	}
	return c;
}

static double seg_dist(dvec a, dvec b, dvec q)
{
	double dx = b.x - a.x, dy = b.y - a.y, dd = dx * dx + dy * dy;
	double s = dd > 0.0 ? ((q.x - a.x) * dx + (q.y - a.y) * dy) / dd : 0.0;
	s = s < 0.0 ? 0.0 : (s > 1.0 ? 1.0 : s);
	double ex = a.x + s * dx - q.x, ey = a.y + s * dy - q.y;
	return sqrt(ex * ex + ey * ey);
}

/* Signed gap from a point to the shape's surface: distance outside, negative inside. */
static double point_gap(const core_shape *c, dvec q)
{
	if (c->count == 1) return hypot(q.x - c->v[0].x, q.y - c->v[0].y) - c->radius;
	if (c->count == 2) return seg_dist(c->v[0], c->v[1], q) - c->radius;
	double depth = -1e300, outside = 1e300;
	bool inside = true;
	for (int i = 0; i < c->count; ++i) {
		dvec a = c->v[i], b = c->v[(i + 1) % c->count];
		double ex = b.x - a.x, ey = b.y - a.y, len = hypot(ex, ey);
		double side = (ex * (q.y - a.y) - ey * (q.x - a.x)) / len; /* > 0 inside (counter-clockwise) */
		if (side < 0.0) inside = false;
		depth = fmax(depth, -side);
		outside = fmin(outside, seg_dist(a, b, q));
	}
	return (inside ? depth : outside) - c->radius;
}

static double gap_at(const sinew_geometry *g, sinew_transform xf, sinew_vec2 p)
{
	core_shape c = world_core(g, xf);
	dvec q = {p.x, p.y};
	return point_gap(&c, q);
}

/* Samples of the boundary: each pushed-out edge and each rounded corner in per_piece steps. */
static int boundary_samples(const core_shape *c, int per_piece, dvec *out)
{
	int n = 0;
	double r = c->radius;
	if (c->count == 1) {
		for (int i = 0; i < 4 * per_piece; ++i) {
			double a = 2.0 * 3.14159265358979323846 * i / (4 * per_piece);
			out[n++] = (dvec){c->v[0].x + r * cos(a), c->v[0].y + r * sin(a)};
		}
		return n;
	}
	for (int i = 0; i < c->count; ++i) {
		dvec a = c->v[i], b = c->v[(i + 1) % c->count], nb = c->v[(i + 2) % c->count];
		double ex = b.x - a.x, ey = b.y - a.y, len = hypot(ex, ey);
		double nx = ey / len, ny = -ex / len;
		double fx = nb.x - b.x, fy = nb.y - b.y, flen = hypot(fx, fy);
		double mx = fy / flen, my = -fx / flen;
		for (int k = 0; k <= per_piece; ++k) {
			double s = (double)k / per_piece;
			out[n++] = (dvec){a.x + s * ex + r * nx, a.y + s * ey + r * ny};
		}
		if (r > 0.0) { /* the corner at b from normal (nx, ny) to (mx, my), counter-clockwise */
			double a0 = atan2(ny, nx), a1 = atan2(my, mx);
			while (a1 < a0) a1 += 2.0 * 3.14159265358979323846;
			for (int k = 1; k < per_piece; ++k) {
				double t = a0 + (a1 - a0) * k / per_piece;
				out[n++] = (dvec){b.x + r * cos(t), b.y + r * sin(t)};
			}
		}
	}
	return n;
}

#define MAX_SAMPLES (SINEW_MAX_POLYGON_VERTICES * 2 * 130)

/* Brute-force distance: the least gap from either boundary's samples to the other shape. */
static double brute_distance(const sinew_geometry *a, sinew_transform xfa, const sinew_geometry *b,
                             sinew_transform xfb, int per_piece)
{
	static dvec samples[MAX_SAMPLES];
	core_shape ca = world_core(a, xfa), cb = world_core(b, xfb);
	double best = 1e300;
	int n = boundary_samples(&ca, per_piece, samples);
	for (int i = 0; i < n; ++i) best = fmin(best, point_gap(&cb, samples[i]));
	n = boundary_samples(&cb, per_piece, samples);
	for (int i = 0; i < n; ++i) best = fmin(best, point_gap(&ca, samples[i]));
	return fmax(best, 0.0);
}

/* Error recorder for misuse tests. */
static int s_error_count;
static sinew_error s_last_error;
static void record_error(sinew_error code, const char *message, void *context)
{
	(void)message;
	(void)context;
	s_error_count += 1;
	s_last_error = code;
}

/* ---- ray casts ---- */

/* Unit circle at (2, 0); ray from (-1, 0) along (10, 0): enters at x = 1, fraction 2 / 10. */
static void test_ray_circle_head_on(void **state)
{
	(void)state;
	sinew_geometry g = geo_circle(0.5f, 0.0f, 1.0f); /* local centre (0.5, 0), placed at (1.5, 0) */
	sinew_ray_cast_input in = ray(-1.0f, 0.0f, 10.0f, 0.0f, 1.0f);
	sinew_ray_result r = sinew_ray_cast_geometry(&g, make_xf(1.5f, 0.0f, 0.0f), &in, false);
	assert_true(r.hit);
	NEAR(r.fraction, 0.2, 1e-6);
	NEAR_V(r.point, 1.0, 0.0, 1e-6);
	NEAR_V(r.normal, -1.0, 0.0, 1e-6);
}

/* Ray along y = 0.6 into the unit circle at (2, 0): enters at x = 2 - 0.8, normal (-0.8, 0.6). */
static void test_ray_circle_off_axis(void **state)
{
	(void)state;
	sinew_geometry g = geo_circle(0.0f, 0.0f, 1.0f);
	sinew_ray_cast_input in = ray(0.0f, 0.6f, 4.0f, 0.0f, 1.0f);
	sinew_ray_result r = sinew_ray_cast_geometry(&g, make_xf(2.0f, 0.0f, 0.7f), &in, false);
	assert_true(r.hit);
	NEAR(r.fraction, 1.2 / 4.0, 1e-6);
	NEAR_V(r.point, 1.2, 0.6, 1e-6);
	NEAR_V(r.normal, -0.8, 0.6, 1e-6);
}

/* Tangent: y = 1 touches the unit circle at (2, 1) (a hit there, normal up); y = 1.001 misses. */
static void test_ray_circle_tangent_and_miss(void **state)
{
	(void)state;
	sinew_geometry g = geo_circle(0.0f, 0.0f, 1.0f);
	sinew_transform xf = make_xf(2.0f, 0.0f, 0.0f);
	sinew_ray_cast_input in = ray(0.0f, 1.0f, 4.0f, 0.0f, 1.0f);
	sinew_ray_result r = sinew_ray_cast_geometry(&g, xf, &in, false);
	assert_true(r.hit);
	NEAR(r.fraction, 0.5, 1e-6);
	NEAR_V(r.normal, 0.0, 1.0, 1e-6);
	in.origin.y = 1.001f;
	assert_false(sinew_ray_cast_geometry(&g, xf, &in, false).hit);
	/* pointing away, too short, and behind */
	in = ray(0.0f, 0.0f, -4.0f, 0.0f, 1.0f);
	assert_false(sinew_ray_cast_geometry(&g, xf, &in, false).hit);
	in = ray(0.0f, 0.0f, 4.0f, 0.0f, 0.24f); /* entry at 0.25 */
	assert_false(sinew_ray_cast_geometry(&g, xf, &in, false).hit);
	in.max_fraction = 0.25f;
	assert_true(sinew_ray_cast_geometry(&g, xf, &in, false).hit);
	in = ray(4.0f, 0.0f, 4.0f, 0.0f, 1.0f);
	assert_false(sinew_ray_cast_geometry(&g, xf, &in, false).hit);
}

/* From inside (and from exactly on the boundary): no hit by default; with hit_from_inside a hit at
 * fraction 0, the origin as point, and a zero normal. Every kind. */
static void test_ray_from_inside_every_kind(void **state)
{
	(void)state;
	sinew_geometry shapes[4] = {geo_circle(0.0f, 0.0f, 1.0f), geo_capsule(-1.0f, 0.0f, 1.0f, 0.0f, 0.5f),
	                            geo_polygon(sinew_make_offset_box(1.0f, 0.5f, sinew_v2(0.0f, 0.0f), 0.4f)),
	                            geo_polygon(sinew_make_rounded_box(0.5f, 0.5f, sinew_v2(0.0f, 0.0f), 0.0f, 0.3f))};
	sinew_vec2 origins[2] = {{0.1f, 0.05f}, {0.0f, 0.0f}};
	for (int i = 0; i < 4; ++i) {
		for (int k = 0; k < 2; ++k) {
			sinew_transform xf = make_xf(3.0f, -2.0f, 1.1f);
			sinew_vec2 o = sinew_transform_point(xf, origins[k]);
			sinew_ray_cast_input in = {o, {5.0f, 1.0f}, 1.0f};
			assert_false(sinew_ray_cast_geometry(&shapes[i], xf, &in, false).hit);
			sinew_ray_result r = sinew_ray_cast_geometry(&shapes[i], xf, &in, true);
			assert_true(r.hit);
			assert_true(r.fraction == 0.0f);
			assert_true(r.normal.x == 0.0f && r.normal.y == 0.0f);
			NEAR_V(r.point, o.x, o.y, 0.0);
		}
	}
	/* on the boundary counts as inside: a box's face at x = 1 */
	sinew_geometry box = geo_box(1.0f, 1.0f);
	sinew_ray_cast_input in = ray(1.0f, 0.0f, 1.0f, 0.0f, 1.0f);
	assert_false(sinew_ray_cast_geometry(&box, sinew_transform_identity(), &in, false).hit);
	assert_true(sinew_ray_cast_geometry(&box, sinew_transform_identity(), &in, true).hit);
}

/* Box 1 x 0.5 half extents at (3, 0); a ray along +x from the origin enters the face x = 2. */
static void test_ray_box_axis_aligned(void **state)
{
	(void)state;
	sinew_geometry g = geo_box(1.0f, 0.5f);
	sinew_transform xf = make_xf(3.0f, 0.0f, 0.0f);
	sinew_ray_cast_input in = ray(0.0f, 0.2f, 10.0f, 0.0f, 1.0f);
	sinew_ray_result r = sinew_ray_cast_geometry(&g, xf, &in, false);
	assert_true(r.hit);
	NEAR(r.fraction, 0.2, 1e-6);
	NEAR_V(r.point, 2.0, 0.2, 1e-6);
	NEAR_V(r.normal, -1.0, 0.0, 1e-6);
	/* from above, downwards: top face y = 0.5 */
	in = ray(3.5f, 2.5f, 0.0f, -4.0f, 1.0f);
	r = sinew_ray_cast_geometry(&g, xf, &in, false);
	assert_true(r.hit);
	NEAR(r.fraction, 0.5, 1e-6);
	NEAR_V(r.normal, 0.0, 1.0, 1e-6);
	/* just above the top, parallel: miss */
	in = ray(0.0f, 0.51f, 10.0f, 0.0f, 1.0f);
	assert_false(sinew_ray_cast_geometry(&g, xf, &in, false).hit);
}

/* A 2 x 2 box turned 45 degrees is a diamond with corners at (+-sqrt2, 0), (0, +-sqrt2) about its
 * centre (5, 0). The ray y = 0.2 meets the upper-left face y - x = sqrt2 (relative) at
 * x = 0.2 - sqrt2, normal (-1, 1) / sqrt2. The same with the turn in the polygon or the transform. */
static void test_ray_rotated_box(void **state)
{
	(void)state;
	sinew_geometry in_poly = geo_polygon(sinew_make_offset_box(1.0f, 1.0f, sinew_v2(0.0f, 0.0f), 0.25f * PI_F));
	sinew_geometry plain = geo_box(1.0f, 1.0f);
	sinew_ray_cast_input in = ray(0.0f, 0.2f, 10.0f, 0.0f, 1.0f);
	sinew_ray_result r1 = sinew_ray_cast_geometry(&in_poly, make_xf(5.0f, 0.0f, 0.0f), &in, false);
	sinew_ray_result r2 = sinew_ray_cast_geometry(&plain, make_xf(5.0f, 0.0f, 0.25f * PI_F), &in, false);
	double x = 5.0 + 0.2 - SQRT2;
	sinew_ray_result rs[2] = {r1, r2};
	for (int i = 0; i < 2; ++i) {
		assert_true(rs[i].hit);
		NEAR(rs[i].fraction, x / 10.0, 1e-6);
		NEAR_V(rs[i].point, x, 0.2, 1e-5);
		NEAR_V(rs[i].normal, -1.0 / SQRT2, 1.0 / SQRT2, 1e-6);
	}
}

/* Box 2 x 1 (half extents) placed at (1, 2) turned 30 degrees; a ray built in the box's frame from
 * (-5, 0.3) along (10, 0) enters the face x = -2 at fraction 0.3. */
static void test_ray_rotated_box_any_direction(void **state)
{
	(void)state;
	sinew_geometry g = geo_box(2.0f, 1.0f);
	for (int k = 0; k < 12; ++k) {
		float angle = (float)k * PI_F / 6.0f + 0.1f;
		sinew_transform xf = make_xf(1.0f, 2.0f, angle);
		sinew_ray_cast_input in = {sinew_transform_point(xf, sinew_v2(-5.0f, 0.3f)),
		                           sinew_rotate(xf.q, sinew_v2(10.0f, 0.0f)), 1.0f};
		sinew_ray_result r = sinew_ray_cast_geometry(&g, xf, &in, false);
		assert_true(r.hit);
		NEAR(r.fraction, 0.3, 1e-5);
		sinew_vec2 p = sinew_transform_point(xf, sinew_v2(-2.0f, 0.3f));
		NEAR_V(r.point, p.x, p.y, 1e-5);
		sinew_vec2 n = sinew_rotate(xf.q, sinew_v2(-1.0f, 0.0f));
		NEAR_V(r.normal, n.x, n.y, 1e-6);
	}
}

/* Rounded box: core half extents 1, radius 0.25, at the origin. Face: the ray y = 0.5 enters at
 * x = -1.25. Corner: the diagonal ray from (-5, -5) enters the corner disc at (-1, -1) at
 * (-1, -1) - 0.25 (1, 1) / sqrt2, after 4 sqrt2 - 0.25 of its 10 sqrt2 length. */
static void test_ray_rounded_box_face_and_corner(void **state)
{
	(void)state;
	sinew_geometry g = geo_polygon(sinew_make_rounded_box(1.0f, 1.0f, sinew_v2(0.0f, 0.0f), 0.0f, 0.25f));
	sinew_transform xf = sinew_transform_identity();
	sinew_ray_cast_input in = ray(-5.0f, 0.5f, 10.0f, 0.0f, 1.0f);
	sinew_ray_result r = sinew_ray_cast_geometry(&g, xf, &in, false);
	assert_true(r.hit);
	NEAR(r.fraction, 0.375, 1e-6);
	NEAR_V(r.normal, -1.0, 0.0, 1e-6);

	in = ray(-5.0f, -5.0f, 10.0f, 10.0f, 1.0f);
	r = sinew_ray_cast_geometry(&g, xf, &in, false);
	assert_true(r.hit);
	NEAR(r.fraction, (4.0 * SQRT2 - 0.25) / (10.0 * SQRT2), 1e-6);
	NEAR_V(r.point, -1.0 - 0.25 / SQRT2, -1.0 - 0.25 / SQRT2, 1e-5);
	NEAR_V(r.normal, -1.0 / SQRT2, -1.0 / SQRT2, 1e-5);
}

/* The ray y = -1.24 enters the pushed-out square at x = -1.25, beyond the face's end: the hit is
 * on the corner disc at x = -1 - sqrt(0.25^2 - 0.24^2) = -1.07, normal (-0.07, -0.24) / 0.25.
 * The line x + y = -2.4 passes the corner disc at 0.4 / sqrt2 > 0.25 from its centre though it
 * crosses the pushed-out square's corner: a miss. */
static void test_ray_rounded_box_corner_region(void **state)
{
	(void)state;
	sinew_geometry g = geo_polygon(sinew_make_rounded_box(1.0f, 1.0f, sinew_v2(0.0f, 0.0f), 0.0f, 0.25f));
	sinew_transform xf = sinew_transform_identity();
	sinew_ray_cast_input in = ray(-5.0f, -1.24f, 10.0f, 0.0f, 1.0f);
	sinew_ray_result r = sinew_ray_cast_geometry(&g, xf, &in, false);
	assert_true(r.hit);
	NEAR(r.point.x, -1.07, 1e-5);
	NEAR_V(r.normal, -0.07 / 0.25, -0.24 / 0.25, 1e-4);
	in = ray(-2.4f, 0.0f, 10.0f, -10.0f, 1.0f); /* along x + y = -2.4 */
	assert_false(sinew_ray_cast_geometry(&g, xf, &in, false).hit);
	/* starting in the corner region (outside the shape): towards the corner disc, then away */
	in = ray(-1.24f, -1.24f, 1.0f, 1.0f, 1.0f);
	assert_false(sinew_geometry_test_point(&g, xf, in.origin));
	r = sinew_ray_cast_geometry(&g, xf, &in, true);
	assert_true(r.hit);
	NEAR(r.fraction, 0.24 - 0.25 / SQRT2, 1e-5);
	NEAR_V(r.normal, -1.0 / SQRT2, -1.0 / SQRT2, 1e-5);
	in.translation = sinew_v2(-1.0f, 0.0f);
	assert_false(sinew_ray_cast_geometry(&g, xf, &in, true).hit);
}

/* Capsule with core (0, -1)-(0, 1), radius 0.5, at (2, 0): side, cap head-on, cap off-axis
 * (x = 0.3 from above meets the cap at y = 1 + sqrt(0.25 - 0.09) = 1.4, normal (0.6, 0.8)). */
static void test_ray_capsule_sides_and_caps(void **state)
{
	(void)state;
	sinew_geometry g = geo_capsule(0.0f, -1.0f, 0.0f, 1.0f, 0.5f);
	sinew_transform xf = make_xf(2.0f, 0.0f, 0.0f);
	sinew_ray_cast_input in = ray(0.0f, 0.3f, 10.0f, 0.0f, 1.0f);
	sinew_ray_result r = sinew_ray_cast_geometry(&g, xf, &in, false);
	assert_true(r.hit);
	NEAR(r.fraction, 0.15, 1e-6);
	NEAR_V(r.normal, -1.0, 0.0, 1e-6);

	in = ray(2.0f, 5.0f, 0.0f, -10.0f, 1.0f);
	r = sinew_ray_cast_geometry(&g, xf, &in, false);
	assert_true(r.hit);
	NEAR(r.fraction, 0.35, 1e-6);
	NEAR_V(r.point, 2.0, 1.5, 1e-6);
	NEAR_V(r.normal, 0.0, 1.0, 1e-6);

	in = ray(2.3f, 5.0f, 0.0f, -10.0f, 1.0f);
	r = sinew_ray_cast_geometry(&g, xf, &in, false);
	assert_true(r.hit);
	NEAR(r.point.y, 1.4, 1e-5);
	NEAR_V(r.normal, 0.6, 0.8, 1e-5);

	/* from below, slanted into the lower cap: from (2, -3) along (0.1, 1) x 2; the cap disc at
	 * (2, -1): |(0.1 s, s - 2)|^2 = 0.25 -> 1.01 s^2 - 4 s + 3.75 = 0 (s = 1.52, below the core) */
	in = ray(2.0f, -3.0f, 0.2f, 2.0f, 1.0f);
	r = sinew_ray_cast_geometry(&g, xf, &in, false);
	double s = (4.0 - sqrt(16.0 - 4.0 * 1.01 * 3.75)) / (2.0 * 1.01);
	assert_true(r.hit);
	NEAR(r.fraction, s / 2.0, 1e-5);
	NEAR_V(r.normal, 0.1 * s / 0.5, (s - 2.0) / 0.5, 1e-4);
}

/* Tangent rays on a capsule: along the side line x = -0.5 from below it first touches the lower
 * cap at (-0.5, -1), normal (-1, 0); just outside the side line it misses. Turned capsule too. */
static void test_ray_capsule_tangent_and_miss(void **state)
{
	(void)state;
	sinew_geometry g = geo_capsule(0.0f, -1.0f, 0.0f, 1.0f, 0.5f);
	sinew_transform xf = sinew_transform_identity();
	sinew_ray_cast_input in = ray(-0.5f, -5.0f, 0.0f, 10.0f, 1.0f);
	sinew_ray_result r = sinew_ray_cast_geometry(&g, xf, &in, false);
	assert_true(r.hit);
	NEAR(r.fraction, 0.4, 1e-6);
	NEAR_V(r.normal, -1.0, 0.0, 1e-6);
	in.origin.x = -0.501f;
	assert_false(sinew_ray_cast_geometry(&g, xf, &in, false).hit);
	/* parallel to the axis inside the strip but going away from the capsule */
	in = ray(0.2f, 3.0f, 0.0f, 10.0f, 1.0f);
	assert_false(sinew_ray_cast_geometry(&g, xf, &in, false).hit);
	/* a zero-length capsule is a circle */
	sinew_geometry dot = geo_capsule(1.0f, 1.0f, 1.0f, 1.0f, 0.5f);
	in = ray(-2.0f, 1.0f, 4.0f, 0.0f, 1.0f);
	r = sinew_ray_cast_geometry(&dot, xf, &in, false);
	assert_true(r.hit);
	NEAR(r.fraction, 2.5 / 4.0, 1e-6);
	NEAR_V(r.normal, -1.0, 0.0, 1e-6);
}

/* Degenerate rays: zero translation (no hit outside, hit from inside if asked), max_fraction 0,
 * invalid input reported and refused. */
static void test_ray_degenerate_input(void **state)
{
	(void)state;
	sinew_geometry g = geo_box(1.0f, 1.0f);
	sinew_transform xf = sinew_transform_identity();
	sinew_ray_cast_input in = ray(3.0f, 0.0f, 0.0f, 0.0f, 1.0f);
	assert_false(sinew_ray_cast_geometry(&g, xf, &in, true).hit);
	in.origin = sinew_v2(0.0f, 0.0f);
	assert_true(sinew_ray_cast_geometry(&g, xf, &in, true).hit);
	in = ray(-3.0f, 0.0f, 10.0f, 0.0f, 0.0f);
	assert_false(sinew_ray_cast_geometry(&g, xf, &in, false).hit);

	s_error_count = 0;
	sinew_set_error_callback(record_error, NULL);
	in = ray(NAN, 0.0f, 1.0f, 0.0f, 1.0f);
	assert_false(sinew_ray_cast_geometry(&g, xf, &in, true).hit);
	assert_int_equal(s_error_count, 1);
	assert_int_equal(s_last_error, SINEW_ERROR_INVALID_ARGUMENT);
	assert_false(sinew_ray_cast_geometry(NULL, xf, &in, true).hit);
	assert_int_equal(s_error_count, 2);
	sinew_set_error_callback(NULL, NULL);
}

/* Random rays at random shapes of every kind against a brute-force march along the ray: rays aimed
 * at a point inside hit where the march first finds the shape (fraction, point on the surface,
 * normal such that stepping out along it by e raises the gap by e); random rays that the library
 * says miss never pass through the shape. */
static void test_ray_random_vs_brute_force(void **state)
{
	(void)state;
	s_seed = 777u;
	for (int trial = 0; trial < 600; ++trial) {
		int kind = trial % KIND_COUNT;
		sinew_geometry g = random_shape(kind);
		sinew_transform xf = make_xf(rnd(-2.0f, 2.0f), rnd(-2.0f, 2.0f), rnd(-3.0f, 3.0f));
		sinew_vec2 o = sinew_v2(rnd(-6.0f, 6.0f), rnd(-6.0f, 6.0f));
		if (gap_at(&g, xf, o) <= 1e-3) continue;
		bool aimed = trial % 2 == 0;
		sinew_shape_proxy proxy = sinew_make_proxy(&g);
		sinew_vec2 mid = {0.0f, 0.0f}; /* the core's vertex average is inside every kind */
		for (int i = 0; i < proxy.count; ++i) mid = sinew_mul_add(mid, 1.0f / (float)proxy.count, proxy.points[i]);
		sinew_vec2 target = aimed ? sinew_transform_point(xf, mid) : sinew_v2(rnd(-6.0f, 6.0f), rnd(-6.0f, 6.0f));
		sinew_ray_cast_input in = {o, sinew_scale(1.5f, sinew_sub(target, o)), 1.0f};
		sinew_ray_result r = sinew_ray_cast_geometry(&g, xf, &in, false);
		/* march: first sample with a negative gap */
		int steps = 4000;
		double first = -1.0;
		for (int i = 0; i <= steps; ++i) {
			float t = (float)i / (float)steps;
			if (gap_at(&g, xf, sinew_mul_add(o, t, in.translation)) < 0.0) {
				first = t;
				break;
			}
		}
		if (aimed) assert_true(r.hit);
		if (!r.hit) {
			assert_true(first < 0.0);
			continue;
		}
		double len = sinew_length(in.translation);
		NEAR(gap_at(&g, xf, r.point), 0.0, 2e-5);
		if (first >= 0.0) NEAR(r.fraction, first, 1.0 / steps + 1e-5);
		for (int i = 0; i < 100; ++i) { /* never inside before the hit */
			float t = r.fraction * (float)i / 100.0f;
			assert_true(gap_at(&g, xf, sinew_mul_add(o, t, in.translation)) > -2e-5);
		}
		NEAR(sinew_length(r.normal), 1.0, 1e-5);
		assert_true(sinew_dot(r.normal, in.translation) <= 1e-4 * len);
		double e = 1e-2;
		NEAR(gap_at(&g, xf, sinew_mul_add(r.point, (float)e, r.normal)), e, 2e-4);
	}
}

/* ---- distance ---- */

/* Circles: centres 5 apart, radii 1 and 2: gap 2, points at x = 1 and 3, normal +x. */
static void test_distance_circle_circle(void **state)
{
	(void)state;
	sinew_geometry a = geo_circle(0.0f, 0.0f, 1.0f), b = geo_circle(1.0f, 0.0f, 2.0f);
	sinew_distance_output d = sinew_shape_distance(&a, make_xf(0.0f, 0.0f, 0.0f), &b, make_xf(4.0f, 0.0f, 0.0f));
	NEAR(d.distance, 2.0, 1e-6);
	NEAR_V(d.point_a, 1.0, 0.0, 1e-6);
	NEAR_V(d.point_b, 3.0, 0.0, 1e-6);
	NEAR_V(d.normal, 1.0, 0.0, 1e-6);
	/* diagonal: centres (3, 4) apart, gap 5 - 3 = 2 */
	d = sinew_shape_distance(&a, make_xf(0.0f, 0.0f, 0.0f), &b, make_xf(2.0f, 4.0f, 0.0f));
	NEAR(d.distance, 2.0, 1e-6);
	NEAR_V(d.normal, 0.6, 0.8, 1e-6);
}

/* Circle r 0.5 and capsule (-1, 0)-(1, 0) r 0.25: beside the side (gap 2 - 0.75) and beyond a cap
 * (centre (4, 0): 3 - 0.75). */
static void test_distance_circle_capsule(void **state)
{
	(void)state;
	sinew_geometry c = geo_circle(0.0f, 0.0f, 0.5f), cap = geo_capsule(-1.0f, 0.0f, 1.0f, 0.0f, 0.25f);
	sinew_transform id = sinew_transform_identity();
	sinew_distance_output d = sinew_shape_distance(&cap, id, &c, make_xf(0.5f, 2.0f, 0.0f));
	NEAR(d.distance, 1.25, 1e-6);
	NEAR_V(d.point_a, 0.5, 0.25, 1e-6);
	NEAR_V(d.point_b, 0.5, 1.5, 1e-6);
	NEAR_V(d.normal, 0.0, 1.0, 1e-6);
	d = sinew_shape_distance(&c, make_xf(4.0f, 0.0f, 0.0f), &cap, id);
	NEAR(d.distance, 2.25, 1e-6);
	NEAR_V(d.normal, -1.0, 0.0, 1e-6);
	NEAR_V(d.point_b, 1.25, 0.0, 1e-6);
}

/* Circle r 0.5 and a 1 x 1 box: facing a face (centre (0, 3): 3 - 1 - 0.5) and a corner (centre
 * (4, 5): |(3, 4)| - 0.5 = 4.5). */
static void test_distance_circle_polygon(void **state)
{
	(void)state;
	sinew_geometry c = geo_circle(0.0f, 0.0f, 0.5f), box = geo_box(1.0f, 1.0f);
	sinew_transform id = sinew_transform_identity();
	sinew_distance_output d = sinew_shape_distance(&box, id, &c, make_xf(0.3f, 3.0f, 0.0f));
	NEAR(d.distance, 1.5, 1e-6);
	NEAR_V(d.point_a, 0.3, 1.0, 1e-6);
	NEAR_V(d.normal, 0.0, 1.0, 1e-6);
	d = sinew_shape_distance(&box, id, &c, make_xf(4.0f, 5.0f, 0.0f));
	NEAR(d.distance, 4.5, 1e-6);
	NEAR_V(d.point_a, 1.0, 1.0, 1e-6);
	NEAR_V(d.normal, 0.6, 0.8, 1e-6);
}

/* Capsules r 0.1 and 0.2: parallel one above the other (gap 1 - 0.3), end to end along x (gap
 * 1 - 0.3), and crossing the line of the other (T shape: stem end (0, 0.5) above the bar y = 0). */
static void test_distance_capsule_capsule(void **state)
{
	(void)state;
	sinew_geometry a = geo_capsule(-1.0f, 0.0f, 1.0f, 0.0f, 0.1f), b = geo_capsule(-1.0f, 0.0f, 1.0f, 0.0f, 0.2f);
	sinew_transform id = sinew_transform_identity();
	sinew_distance_output d = sinew_shape_distance(&a, id, &b, make_xf(0.5f, 1.0f, 0.0f));
	NEAR(d.distance, 0.7, 1e-6);
	NEAR_V(d.normal, 0.0, 1.0, 1e-6);
	d = sinew_shape_distance(&a, id, &b, make_xf(3.0f, 0.0f, 0.0f));
	NEAR(d.distance, 0.7, 1e-6);
	NEAR_V(d.point_a, 1.1, 0.0, 1e-6);
	NEAR_V(d.point_b, 1.8, 0.0, 1e-6);
	d = sinew_shape_distance(&a, id, &b, make_xf(0.3f, 1.5f, 0.5f * PI_F)); /* b vertical from y 0.5 to 2.5 */
	NEAR(d.distance, 0.2, 1e-6);
	NEAR_V(d.point_a, 0.3, 0.1, 1e-5);
	NEAR_V(d.point_b, 0.3, 0.3, 1e-5);
}

/* Capsule r 0.25 and box: lying above the top face (gap 2 - 1 - 0.25), and standing on a corner of
 * a 45-degree diamond (tip of the diamond at (0, sqrt2); capsule end (0, 2) above it). */
static void test_distance_capsule_polygon(void **state)
{
	(void)state;
	sinew_geometry cap = geo_capsule(-0.5f, 0.0f, 0.5f, 0.0f, 0.25f), box = geo_box(1.0f, 1.0f);
	sinew_transform id = sinew_transform_identity();
	sinew_distance_output d = sinew_shape_distance(&box, id, &cap, make_xf(0.5f, 2.0f, 0.0f));
	NEAR(d.distance, 0.75, 1e-6);
	NEAR_V(d.normal, 0.0, 1.0, 1e-6);
	d = sinew_shape_distance(&box, id, &cap, make_xf(2.0f, 2.0f, 0.0f)); /* corner (1, 1) to (1.5, 2) */
	NEAR(d.distance, sqrt(1.25) - 0.25, 1e-6);
	NEAR_V(d.point_a, 1.0, 1.0, 1e-6);
	NEAR_V(d.normal, 0.5 / sqrt(1.25), 1.0 / sqrt(1.25), 1e-6);
	sinew_geometry standing = geo_capsule(0.0f, 0.0f, 0.0f, 1.0f, 0.25f);
	d = sinew_shape_distance(&box, make_xf(0.0f, 0.0f, 0.25f * PI_F), &standing, make_xf(0.0f, 2.0f, 0.0f));
	NEAR(d.distance, 2.0 - SQRT2 - 0.25, 1e-5);
	NEAR_V(d.point_a, 0.0, SQRT2, 1e-5);
	NEAR_V(d.normal, 0.0, 1.0, 1e-5);
}

/* Boxes: face to face (gap 0.5), corner to corner (unit boxes at (0,0) and (3, 4): corners (1, 1)
 * and (2, 3), gap sqrt5), rounded boxes (gap 0.5 - 0.1 - 0.2), a diamond's tip over a face. */
static void test_distance_polygon_polygon(void **state)
{
	(void)state;
	sinew_geometry a = geo_box(1.0f, 1.0f), b = geo_box(1.0f, 1.0f);
	sinew_transform id = sinew_transform_identity();
	sinew_distance_output d = sinew_shape_distance(&a, id, &b, make_xf(2.5f, 0.3f, 0.0f));
	NEAR(d.distance, 0.5, 1e-6);
	NEAR_V(d.normal, 1.0, 0.0, 1e-6);
	NEAR(d.point_a.x, 1.0, 1e-6);
	NEAR(d.point_b.x, 1.5, 1e-6);
	NEAR(d.point_a.y, d.point_b.y, 1e-6);
	d = sinew_shape_distance(&a, id, &b, make_xf(3.0f, 4.0f, 0.0f));
	NEAR(d.distance, sqrt(5.0), 1e-6);
	NEAR_V(d.point_a, 1.0, 1.0, 1e-6);
	NEAR_V(d.point_b, 2.0, 3.0, 1e-6);
	sinew_geometry ra = geo_polygon(sinew_make_rounded_box(1.0f, 1.0f, sinew_v2(0.0f, 0.0f), 0.0f, 0.1f));
	sinew_geometry rb = geo_polygon(sinew_make_rounded_box(0.5f, 0.5f, sinew_v2(0.0f, 0.0f), 0.0f, 0.2f));
	d = sinew_shape_distance(&ra, id, &rb, make_xf(0.0f, 2.0f, 0.0f));
	NEAR(d.distance, 0.2, 1e-6);
	NEAR(d.point_a.y, 1.1, 1e-6);
	NEAR(d.point_b.y, 1.3, 1e-6);
	d = sinew_shape_distance(&a, id, &b, make_xf(0.2f, 3.0f, 0.25f * PI_F));
	NEAR(d.distance, 2.0 - SQRT2, 1e-5);
	NEAR_V(d.point_b, 0.2, 3.0 - SQRT2, 1e-5);
}

/* Touching pairs of every kind give 0 (within rounding); their witness points meet. */
static void test_distance_touching(void **state)
{
	(void)state;
	sinew_transform id = sinew_transform_identity();
	sinew_geometry box = geo_box(1.0f, 1.0f), circle = geo_circle(0.0f, 0.0f, 0.5f);
	sinew_geometry cap = geo_capsule(-1.0f, 0.0f, 1.0f, 0.0f, 0.5f);
	sinew_distance_output d = sinew_shape_distance(&box, id, &box, make_xf(2.0f, 0.5f, 0.0f));
	NEAR(d.distance, 0.0, 1e-6);
	d = sinew_shape_distance(&box, id, &circle, make_xf(0.0f, 1.5f, 0.0f));
	NEAR(d.distance, 0.0, 1e-6);
	NEAR_V(d.point_a, 0.0, 1.0, 1e-6);
	NEAR_V(d.point_b, 0.0, 1.0, 1e-6);
	d = sinew_shape_distance(&cap, id, &cap, make_xf(0.0f, 1.0f, 0.0f));
	NEAR(d.distance, 0.0, 1e-6);
	d = sinew_shape_distance(&circle, id, &circle, make_xf(0.6f, 0.8f, 0.0f));
	NEAR(d.distance, 0.0, 1e-6);
}

/* Overlapping pairs of every kind give exactly 0, with finite points inside each shape. */
static void test_distance_overlapping(void **state)
{
	(void)state;
	sinew_geometry shapes[4] = {geo_circle(0.0f, 0.0f, 0.7f), geo_capsule(-1.0f, 0.0f, 1.0f, 0.2f, 0.3f),
	                            geo_box(0.8f, 0.5f),
	                            geo_polygon(sinew_make_rounded_box(0.5f, 0.4f, sinew_v2(0.1f, 0.0f), 0.3f, 0.2f))};
	for (int i = 0; i < 4; ++i) {
		for (int j = 0; j < 4; ++j) {
			for (int k = 0; k < 3; ++k) {
				sinew_transform xfa = make_xf(1.0f, 1.0f, 0.3f * (float)k);
				sinew_transform xfb = make_xf(1.0f + 0.3f * (float)k, 1.2f, -0.5f * (float)k);
				sinew_distance_output d = sinew_shape_distance(&shapes[i], xfa, &shapes[j], xfb);
				assert_true(d.distance == 0.0f);
				assert_true(sinew_vec2_is_valid(d.point_a) && sinew_vec2_is_valid(d.point_b));
				assert_true(gap_at(&shapes[i], xfa, d.point_a) <= 1e-5);
				assert_true(gap_at(&shapes[j], xfb, d.point_b) <= 1e-5);
			}
		}
	}
}

/* Random pairs of every kind against the brute-force distance, with witness points on the surfaces
 * and the normal along them. Sampling error is at most the sample spacing. */
static void test_distance_random_vs_brute_force(void **state)
{
	(void)state;
	s_seed = 4242u;
	int separated = 0;
	for (int trial = 0; trial < 500; ++trial) {
		int ka = trial % KIND_COUNT, kb = (trial / KIND_COUNT) % KIND_COUNT;
		sinew_geometry a = random_shape(ka), b = random_shape(kb);
		sinew_transform xfa = make_xf(rnd(-1.0f, 1.0f), rnd(-1.0f, 1.0f), rnd(-3.0f, 3.0f));
		sinew_transform xfb = make_xf(rnd(-3.5f, 3.5f), rnd(-3.5f, 3.5f), rnd(-3.0f, 3.0f));
		sinew_distance_output d = sinew_shape_distance(&a, xfa, &b, xfb);
		double brute = brute_distance(&a, xfa, &b, xfb, 128);
		if (!(fabs(d.distance - brute) <= 2.5e-2 / 128.0 * 4.0 + 1e-5)) {
			print_error("pair %s / %s trial %d: gjk %.7g brute %.7g\n", s_kind_names[ka], s_kind_names[kb], trial,
			            (double)d.distance, brute);
			fail();
		}
		assert_true(d.distance <= brute + 1e-5); /* brute force is an upper bound */
		assert_true(d.iterations < 32);
		if (d.distance > 1e-4f) {
			separated += 1;
			NEAR(gap_at(&a, xfa, d.point_a), 0.0, 1e-5);
			NEAR(gap_at(&b, xfb, d.point_b), 0.0, 1e-5);
			NEAR(sinew_distance(d.point_a, d.point_b), d.distance, 1e-5);
			sinew_vec2 n = sinew_normalize(sinew_sub(d.point_b, d.point_a));
			NEAR_V(d.normal, n.x, n.y, 1e-4);
		}
	}
	assert_true(separated > 250);
}

/* Degenerate and far-away input: zero-length capsules, identical shapes at one place, a polygon
 * with repeated vertices, shapes far from the origin, empty polygons; never a NaN. */
static void test_distance_degenerate(void **state)
{
	(void)state;
	sinew_geometry dot = geo_capsule(0.5f, 0.5f, 0.5f, 0.5f, 0.25f), circle = geo_circle(0.0f, 0.0f, 0.25f);
	sinew_distance_output d = sinew_shape_distance(&dot, make_xf(-0.5f, -0.5f, 0.0f), &circle, make_xf(3.0f, 0.0f, 0.0f));
	NEAR(d.distance, 2.5, 1e-6);
	sinew_geometry box = geo_box(1.0f, 1.0f);
	d = sinew_shape_distance(&box, make_xf(1.0f, 2.0f, 0.3f), &box, make_xf(1.0f, 2.0f, 0.3f));
	assert_true(d.distance == 0.0f && sinew_vec2_is_valid(d.point_a) && sinew_vec2_is_valid(d.normal));
	sinew_polygon repeated = sinew_make_box(1.0f, 1.0f);
	repeated.vertices[1] = repeated.vertices[0];
	repeated.vertices[3] = repeated.vertices[2];
	sinew_geometry seg = geo_polygon(repeated); /* the diagonal (-1, -1)-(1, 1) */
	d = sinew_shape_distance(&seg, sinew_transform_identity(), &circle, make_xf(2.0f, -2.0f, 0.0f));
	NEAR(d.distance, 2.0 * SQRT2 - 0.25, 1e-5);
	/* far from the origin: a face gap of 0.25 at x = 10^4 */
	d = sinew_shape_distance(&box, make_xf(10000.0f, 5000.0f, 0.0f), &box, make_xf(10002.25f, 5000.5f, 0.0f));
	NEAR(d.distance, 0.25, 2e-3);
	sinew_polygon empty = {0};
	sinew_geometry e = geo_polygon(empty); /* acts as its local origin */
	d = sinew_shape_distance(&e, make_xf(0.0f, 3.0f, 0.0f), &box, sinew_transform_identity());
	NEAR(d.distance, 2.0, 1e-6);
	/* misuse is reported */
	s_error_count = 0;
	sinew_set_error_callback(record_error, NULL);
	d = sinew_shape_distance(&box, make_xf(NAN, 0.0f, 0.0f), &box, sinew_transform_identity());
	assert_int_equal(s_error_count, 1);
	assert_true(d.distance == 0.0f);
	sinew_set_error_callback(NULL, NULL);
}

/* Swapping the shapes gives the same distance, swapped points and the opposite normal; repeated
 * calls give identical bits. */
static void test_distance_symmetric_and_deterministic(void **state)
{
	(void)state;
	s_seed = 99u;
	for (int trial = 0; trial < 200; ++trial) {
		sinew_geometry a = random_shape(trial % KIND_COUNT), b = random_shape((trial / 3) % KIND_COUNT);
		sinew_transform xfa = make_xf(rnd(-1.0f, 1.0f), rnd(-1.0f, 1.0f), rnd(-3.0f, 3.0f));
		sinew_transform xfb = make_xf(rnd(-4.0f, 4.0f), rnd(-4.0f, 4.0f), rnd(-3.0f, 3.0f));
		sinew_distance_output ab = sinew_shape_distance(&a, xfa, &b, xfb);
		sinew_distance_output ba = sinew_shape_distance(&b, xfb, &a, xfa);
		sinew_distance_output again = sinew_shape_distance(&a, xfa, &b, xfb);
		NEAR(ab.distance, ba.distance, 1e-5);
		assert_memory_equal(&ab, &again, sizeof ab);
		if (ab.distance > 1e-3f) {
			NEAR_V(ab.normal, -ba.normal.x, -ba.normal.y, 1e-4);
		}
	}
}

/* ---- shape casts ---- */

/* One shape of each kind for the cast and TOI tables, each about 1 across. */
static sinew_geometry kind_shape(int kind)
{
	switch (kind) {
	case 0:
		return geo_circle(0.0f, 0.0f, 0.5f);
	case 1:
		return geo_capsule(0.0f, -0.5f, 0.0f, 0.5f, 0.25f);
	case 2:
		return geo_polygon(sinew_make_offset_box(0.5f, 0.3f, sinew_v2(0.0f, 0.0f), 0.3f));
	case 3:
		return geo_polygon(sinew_make_rounded_box(0.3f, 0.4f, sinew_v2(0.0f, 0.0f), 0.0f, 0.15f));
	default:
		return geo_ngon(6, 0.5f, 0.2f, 0.05f);
	}
}

/* Checks a cast that must hit: the gap at the fraction is in [0, 2 slop], and the brute-force gap
 * at 200 fractions before it is positive. */
static void check_cast_hit(const sinew_geometry *a, sinew_transform xfa, sinew_vec2 tr, const sinew_geometry *b,
                           sinew_transform xfb, sinew_shape_cast_output c, const char *what)
{
	if (!c.hit) {
		print_error("%s: no hit\n", what);
		fail();
	}
	sinew_transform at = xfa;
	at.p = sinew_mul_add(xfa.p, c.fraction, tr);
	sinew_distance_output d = sinew_shape_distance(a, at, b, xfb);
	double brute = brute_distance(a, at, b, xfb, 64);
	if (!(d.distance >= 0.0f && d.distance <= 2.0f * SLOP) || !(brute <= 2.0 * SLOP + 1e-3)) {
		print_error("%s: gap %.7g (brute %.7g) at fraction %.7g\n", what, (double)d.distance, brute,
		            (double)c.fraction);
		fail();
	}
	for (int i = 0; i < 200; ++i) {
		at.p = sinew_mul_add(xfa.p, c.fraction * (float)i / 200.0f, tr);
		if (!(brute_distance(a, at, b, xfb, 16) > 0.0)) {
			print_error("%s: overlap at %.7g before the hit at %.7g\n", what, (double)(c.fraction * i / 200.0f),
			            (double)c.fraction);
			fail();
		}
	}
	NEAR(gap_at(b, xfb, c.point), 0.0, 1e-5);
	NEAR(sinew_length(c.normal), 1.0, 1e-5);
	assert_true(sinew_dot(c.normal, tr) < 0.0f);
}

/* Every kind cast along +x (slightly slanted) into every kind: stops within the slop band. */
static void test_shape_cast_every_pair(void **state)
{
	(void)state;
	for (int ka = 0; ka < KIND_COUNT; ++ka) {
		for (int kb = 0; kb < KIND_COUNT; ++kb) {
			for (int k = 0; k < 3; ++k) {
				sinew_geometry a = kind_shape(ka), b = kind_shape(kb);
				sinew_transform xfa = make_xf(-3.0f, 0.1f * (float)k, 0.7f * (float)k);
				sinew_transform xfb = make_xf(1.0f, -0.2f, -0.4f * (float)k);
				sinew_vec2 tr = sinew_v2(8.0f, 0.3f);
				sinew_shape_cast_output c = sinew_shape_cast(&a, xfa, tr, &b, xfb, 1.0f, SLOP);
				char what[64];
				snprintf(what, sizeof what, "%s into %s (%d)", s_kind_names[ka], s_kind_names[kb], k);
				check_cast_hit(&a, xfa, tr, &b, xfb, c, what);
				assert_true(c.iterations <= 40);
			}
		}
	}
}

/* The rig's use: a capsule (r 0.25, cores 0.5 above and below its centre) swept sideways by 10
 * into a wall whose face is x = 4.5 stops with its side at 4.5 - target (up to a quarter target):
 * fraction (4.5 - 0.25 - target) / 10, normal -x, point on the wall. */
static void test_shape_cast_capsule_into_wall(void **state)
{
	(void)state;
	sinew_geometry cap = geo_capsule(0.0f, -0.5f, 0.0f, 0.5f, 0.25f), wall = geo_box(0.5f, 5.0f);
	sinew_transform xfa = make_xf(0.0f, 1.0f, 0.0f), xfb = make_xf(5.0f, 0.0f, 0.0f);
	sinew_vec2 tr = sinew_v2(10.0f, 0.0f);
	sinew_shape_cast_output c = sinew_shape_cast(&cap, xfa, tr, &wall, xfb, 1.0f, SLOP);
	assert_true(c.hit);
	double exact = (4.5 - 0.25 - SLOP) / 10.0;
	assert_true(c.fraction <= exact + 1e-6 && c.fraction >= exact - 0.25 * SLOP / 10.0 - 1e-6);
	NEAR_V(c.normal, -1.0, 0.0, 1e-6);
	NEAR(c.point.x, 4.5, 1e-6);
	assert_true(c.point.y >= 0.5f - 1e-5f && c.point.y <= 1.5f + 1e-5f);
	/* tilted 30 degrees and moving diagonally: still stops at the wall */
	xfa = make_xf(0.0f, 1.0f, PI_F / 6.0f);
	tr = sinew_v2(10.0f, -3.0f);
	c = sinew_shape_cast(&cap, xfa, tr, &wall, xfb, 1.0f, SLOP);
	check_cast_hit(&cap, xfa, tr, &wall, xfb, c, "tilted capsule into wall");
	NEAR_V(c.normal, -1.0, 0.0, 1e-5);
}

/* A 2 x 2 box turned 45 degrees falls onto a flat box (top at y = 0): its lowest corner starts at
 * 3 - sqrt2 above, so it stops at fraction (3 - sqrt2 - target) / 5 on the corner. */
static void test_shape_cast_corner_onto_face(void **state)
{
	(void)state;
	sinew_geometry diamond = geo_box(1.0f, 1.0f), ground = geo_box(10.0f, 1.0f);
	sinew_transform xfa = make_xf(0.3f, 3.0f, 0.25f * PI_F), xfb = make_xf(0.0f, -1.0f, 0.0f);
	sinew_shape_cast_output c = sinew_shape_cast(&diamond, xfa, sinew_v2(0.0f, -5.0f), &ground, xfb, 1.0f, SLOP);
	assert_true(c.hit);
	NEAR(c.fraction, (3.0 - SQRT2 - SLOP) / 5.0, 0.25 * SLOP / 5.0 + 1e-6);
	NEAR_V(c.point, 0.3, 0.0, 1e-5);
	NEAR_V(c.normal, 0.0, 1.0, 1e-6);
	assert_true(c.iterations <= 3);
}

/* No hit: passing by, moving away, stopping short, zero translation. */
static void test_shape_cast_clear(void **state)
{
	(void)state;
	sinew_geometry a = kind_shape(1), b = kind_shape(2);
	sinew_transform xfa = make_xf(-3.0f, 0.0f, 0.0f), xfb = make_xf(1.0f, 0.0f, 0.0f);
	assert_false(sinew_shape_cast(&a, xfa, sinew_v2(8.0f, 5.0f), &b, xfb, 1.0f, SLOP).hit);
	assert_false(sinew_shape_cast(&a, xfa, sinew_v2(-8.0f, 0.0f), &b, xfb, 1.0f, SLOP).hit);
	assert_false(sinew_shape_cast(&a, xfa, sinew_v2(8.0f, 0.0f), &b, xfb, 0.3f, SLOP).hit);
	assert_true(sinew_shape_cast(&a, xfa, sinew_v2(8.0f, 0.0f), &b, xfb, 0.5f, SLOP).hit);
	sinew_shape_cast_output c = sinew_shape_cast(&a, xfa, sinew_v2(0.0f, 0.0f), &b, xfb, 1.0f, SLOP);
	assert_false(c.hit);
	assert_true(sinew_is_finite(c.fraction));
}

/* Starting in overlap: a hit at fraction 0 whatever the direction. Starting within the target:
 * a hit at 0 when approaching, none when sliding along or leaving. */
static void test_shape_cast_initial_contact(void **state)
{
	(void)state;
	sinew_geometry box = geo_box(1.0f, 1.0f), ground = geo_box(10.0f, 1.0f);
	sinew_transform xfg = make_xf(0.0f, -1.0f, 0.0f);
	sinew_shape_cast_output c = sinew_shape_cast(&box, make_xf(0.0f, 0.9f, 0.0f), sinew_v2(3.0f, 4.0f), &ground, xfg,
	                                             1.0f, SLOP);
	assert_true(c.hit);
	assert_true(c.fraction == 0.0f);
	sinew_transform resting = make_xf(0.0f, 1.0f + 0.5f * SLOP, 0.0f);
	c = sinew_shape_cast(&box, resting, sinew_v2(0.0f, -1.0f), &ground, xfg, 1.0f, SLOP);
	assert_true(c.hit);
	assert_true(c.fraction == 0.0f);
	NEAR_V(c.normal, 0.0, 1.0, 1e-6);
	assert_false(sinew_shape_cast(&box, resting, sinew_v2(3.0f, 0.0f), &ground, xfg, 1.0f, SLOP).hit);
	assert_false(sinew_shape_cast(&box, resting, sinew_v2(3.0f, 1.0f), &ground, xfg, 1.0f, SLOP).hit);
}

/* Random casts of every kind: a hit passes check_cast_hit; a miss never overlaps along the way. */
static void test_shape_cast_random(void **state)
{
	(void)state;
	s_seed = 2024u;
	int hits = 0;
	for (int trial = 0; trial < 150; ++trial) {
		sinew_geometry a = random_shape(trial % KIND_COUNT), b = random_shape((trial / KIND_COUNT) % KIND_COUNT);
		sinew_transform xfa = make_xf(rnd(-6.0f, -3.0f), rnd(-2.0f, 2.0f), rnd(-3.0f, 3.0f));
		sinew_transform xfb = make_xf(rnd(-1.0f, 1.0f), rnd(-1.0f, 1.0f), rnd(-3.0f, 3.0f));
		sinew_vec2 tr = sinew_v2(rnd(4.0f, 12.0f), rnd(-3.0f, 3.0f));
		if (brute_distance(&a, xfa, &b, xfb, 16) <= 2.0 * SLOP) continue;
		sinew_shape_cast_output c = sinew_shape_cast(&a, xfa, tr, &b, xfb, 1.0f, SLOP);
		if (c.hit) {
			hits += 1;
			check_cast_hit(&a, xfa, tr, &b, xfb, c, "random");
		} else {
			for (int i = 0; i <= 200; ++i) {
				sinew_transform at = xfa;
				at.p = sinew_mul_add(xfa.p, (float)i / 200.0f, tr);
				assert_true(brute_distance(&a, at, &b, xfb, 16) > 0.0);
			}
		}
	}
	assert_true(hits > 40);
}

/* ---- time of impact ---- */

static sinew_sweep make_sweep(sinew_vec2 local_center, sinew_vec2 c1, sinew_vec2 c2, float a1, float a2)
{
	sinew_sweep s = {local_center, c1, c2, a1, a2};
	return s;
}

static sinew_distance_output sweep_distance(const sinew_geometry *a, const sinew_sweep *sa, const sinew_geometry *b,
                                            const sinew_sweep *sb, float t)
{
	return sinew_shape_distance(a, sinew_sweep_transform(sa, t), b, sinew_sweep_transform(sb, t));
}

/* A HIT must have the gap at the fraction in [target, 1.25 target] (up to rounding), and at 200
 * fractions before it a gap of at least the target (brute force: no overlap at all). */
static void check_toi_hit(const sinew_geometry *a, const sinew_sweep *sa, const sinew_geometry *b,
                          const sinew_sweep *sb, sinew_toi_output out, float target, const char *what)
{
	if (out.state != SINEW_TOI_HIT) {
		print_error("%s: state %d fraction %g iterations %d\n", what, (int)out.state, (double)out.fraction,
		            out.iterations);
		fail();
	}
	float gap = sweep_distance(a, sa, b, sb, out.fraction).distance;
	if (!(gap >= target - 1e-5f && gap <= 1.25f * target + 1e-5f)) {
		print_error("%s: gap %.7g at fraction %.7g (target %g)\n", what, (double)gap, (double)out.fraction,
		            (double)target);
		fail();
	}
	for (int i = 0; i < 200; ++i) {
		float t = out.fraction * (float)i / 200.0f;
		float g = sweep_distance(a, sa, b, sb, t).distance;
		if (!(g >= target - 1e-5f)) {
			print_error("%s: gap %.7g at %.7g before the hit at %.7g\n", what, (double)g, (double)t,
			            (double)out.fraction);
			fail();
		}
		sinew_transform xa = sinew_sweep_transform(sa, t), xb = sinew_sweep_transform(sb, t);
		if (i % 20 == 0) assert_true(brute_distance(a, xa, b, xb, 16) > 0.0);
	}
}

/* The sweep's transform: the centre of mass follows the line, the angle the interpolation, and the
 * body origin sits at centre - R(angle) local_center; the ends are exact. */
static void test_sweep_transform(void **state)
{
	(void)state;
	sinew_sweep s = make_sweep(sinew_v2(1.0f, 0.0f), sinew_v2(0.0f, 0.0f), sinew_v2(4.0f, 2.0f), 0.0f, PI_F);
	sinew_transform x0 = sinew_sweep_transform(&s, 0.0f), x1 = sinew_sweep_transform(&s, 1.0f);
	NEAR_V(x0.p, -1.0, 0.0, 0.0);
	NEAR_V(x1.p, 5.0, 2.0, 1e-6);
	sinew_transform xh = sinew_sweep_transform(&s, 0.5f);
	NEAR_V(xh.p, 2.0, 0.0, 1e-6); /* centre (2, 1), angle 90 degrees: origin at (2, 1) - (0, 1) */
	NEAR(sinew_rot_angle(xh.q), 0.5 * PI_F, 1e-6);
	sinew_vec2 com = sinew_transform_point(xh, s.local_center);
	NEAR_V(com, 2.0, 1.0, 1e-6);
}

/* Two circles r 0.5 closing at 10 per sweep from 5 apart (gap 4): fraction (4 - target) / 10. */
static void test_toi_circles_translation(void **state)
{
	(void)state;
	sinew_geometry c = geo_circle(0.0f, 0.0f, 0.5f);
	sinew_vec2 z = {0.0f, 0.0f};
	sinew_sweep sa = make_sweep(z, sinew_v2(0.0f, 0.0f), sinew_v2(6.0f, 0.0f), 0.0f, 0.0f);
	sinew_sweep sb = make_sweep(z, sinew_v2(5.0f, 0.0f), sinew_v2(1.0f, 0.0f), 0.0f, 3.0f);
	sinew_toi_output out = sinew_time_of_impact(&c, &sa, &c, &sb, 1.0f, SLOP);
	assert_int_equal(out.state, SINEW_TOI_HIT);
	NEAR(out.fraction, (4.0 - SLOP) / 10.0, 0.25 * SLOP / 10.0 + 1e-6);
	assert_true(out.iterations <= 3); /* the spin of a centred circle costs nothing */
	check_toi_hit(&c, &sa, &c, &sb, out, SLOP, "circles");
}

/* Every kind against every kind, each translating and spinning (up to 1.5 turns), head on. */
static void test_toi_every_pair_spinning(void **state)
{
	(void)state;
	for (int ka = 0; ka < KIND_COUNT; ++ka) {
		for (int kb = 0; kb < KIND_COUNT; ++kb) {
			for (int k = 0; k < 3; ++k) {
				sinew_geometry a = kind_shape(ka), b = kind_shape(kb);
				float spin = 3.0f * (float)k;
				sinew_sweep sa = make_sweep(sinew_v2(0.05f, 0.0f), sinew_v2(-3.0f, 0.1f), sinew_v2(3.0f, -0.1f),
				                            0.2f, 0.2f + spin);
				sinew_sweep sb = make_sweep(sinew_v2(0.0f, 0.0f), sinew_v2(1.0f, 0.0f), sinew_v2(0.5f, 0.2f),
				                            -0.3f, -0.3f - 0.5f * spin);
				sinew_toi_output out = sinew_time_of_impact(&a, &sa, &b, &sb, 1.0f, SLOP);
				char what[64];
				snprintf(what, sizeof what, "%s vs %s (spin %g)", s_kind_names[ka], s_kind_names[kb], (double)spin);
				check_toi_hit(&a, &sa, &b, &sb, out, SLOP, what);
			}
		}
	}
}

/* A capsule spinning in place (core half length 1, r 0.1) under a ceiling at y = 0.6: its tip is
 * 1.1 |sin a| high, so the gap closes to the target at a = asin(0.5 - target) of the quarter turn. */
static void test_toi_spinning_capsule(void **state)
{
	(void)state;
	sinew_geometry cap = geo_capsule(-1.0f, 0.0f, 1.0f, 0.0f, 0.1f), ceiling = geo_box(5.0f, 0.5f);
	sinew_vec2 z = {0.0f, 0.0f};
	sinew_sweep sa = make_sweep(z, z, z, 0.0f, 0.5f * PI_F);
	sinew_sweep sb = make_sweep(z, sinew_v2(0.0f, 1.1f), sinew_v2(0.0f, 1.1f), 0.0f, 0.0f);
	sinew_toi_output out = sinew_time_of_impact(&cap, &sa, &ceiling, &sb, 1.0f, SLOP);
	check_toi_hit(&cap, &sa, &ceiling, &sb, out, SLOP, "spinning capsule");
	double hi = asin(0.5 - SLOP) / (0.5 * PI_F), lo = asin(0.5 - 1.25 * SLOP) / (0.5 * PI_F);
	assert_true(out.fraction >= lo - 1e-6 && out.fraction <= hi + 1e-6);
	/* spinning a half turn about an end (local centre (-1, 0)): the far tip sweeps a circle of
	 * radius 2.1 and reaches the ceiling at 2 sin a + 0.1 = 0.6 - target */
	sa = make_sweep(sinew_v2(-1.0f, 0.0f), z, z, 0.0f, PI_F);
	out = sinew_time_of_impact(&cap, &sa, &ceiling, &sb, 1.0f, SLOP);
	check_toi_hit(&cap, &sa, &ceiling, &sb, out, SLOP, "capsule about its end");
	hi = asin((0.5 - SLOP) / 2.0) / PI_F;
	lo = asin((0.5 - 1.25 * SLOP) / 2.0) / PI_F;
	assert_true(out.fraction >= lo - 1e-6 && out.fraction <= hi + 1e-6);
}

/* A box spinning fast (5 turns) while falling onto the ground, and a thin plank spinning into a
 * box: the first touch is found, with no overlap before it. */
static void test_toi_spinning_box(void **state)
{
	(void)state;
	sinew_geometry box = geo_box(0.5f, 0.2f), ground = geo_box(10.0f, 0.5f);
	sinew_vec2 z = {0.0f, 0.0f};
	sinew_sweep sa = make_sweep(z, sinew_v2(0.0f, 3.0f), sinew_v2(0.5f, -1.0f), 0.0f, 10.0f * PI_F);
	sinew_sweep sb = make_sweep(z, sinew_v2(0.0f, -0.5f), sinew_v2(0.0f, -0.5f), 0.0f, 0.0f);
	sinew_toi_output out = sinew_time_of_impact(&box, &sa, &ground, &sb, 1.0f, SLOP);
	check_toi_hit(&box, &sa, &ground, &sb, out, SLOP, "spinning box onto ground");
	sinew_geometry plank = geo_polygon(sinew_make_rounded_box(1.5f, 0.02f, z, 0.0f, 0.01f));
	sinew_sweep sp = make_sweep(sinew_v2(0.5f, 0.0f), sinew_v2(-4.0f, 0.0f), sinew_v2(2.0f, 0.5f), 0.0f, -6.0f);
	sinew_sweep sbox = make_sweep(z, sinew_v2(1.5f, 0.3f), sinew_v2(1.0f, 0.3f), 0.0f, 2.0f);
	out = sinew_time_of_impact(&plank, &sp, &box, &sbox, 1.0f, SLOP);
	check_toi_hit(&plank, &sp, &box, &sbox, out, SLOP, "spinning plank into spinning box");
}

/* Tunnelling: a 0.05 m ball at 400 m/s for 1/60 s against a 0.05 m wall stops before it; an 8 px
 * capsule limb at 5000 px/s against a 16 px floor too (pixel units, target 0.5 px). */
static void test_toi_fast_thin(void **state)
{
	(void)state;
	sinew_vec2 z = {0.0f, 0.0f};
	sinew_geometry ball = geo_circle(0.0f, 0.0f, 0.025f), wall = geo_box(0.025f, 2.0f);
	sinew_sweep sa = make_sweep(z, sinew_v2(-3.0f, 0.0f), sinew_v2(-3.0f + 400.0f / 60.0f, 0.0f), 0.0f, 0.0f);
	sinew_sweep sb = make_sweep(z, z, z, 0.0f, 0.0f);
	sinew_toi_output out = sinew_time_of_impact(&ball, &sa, &wall, &sb, 1.0f, SLOP);
	check_toi_hit(&ball, &sa, &wall, &sb, out, SLOP, "fast ball");
	NEAR(out.fraction, (3.0 - 0.05 - SLOP) / (400.0 / 60.0), 0.25 * SLOP / (400.0 / 60.0) + 1e-6);

	sinew_geometry limb = geo_capsule(0.0f, -12.0f, 0.0f, 12.0f, 8.0f), floor = geo_box(500.0f, 8.0f);
	sinew_sweep sl = make_sweep(z, sinew_v2(0.0f, 0.0f), sinew_v2(30.0f, 5000.0f / 60.0f), 0.0f, 2.0f);
	sinew_sweep sf = make_sweep(z, sinew_v2(0.0f, 60.0f), sinew_v2(0.0f, 60.0f), 0.0f, 0.0f);
	out = sinew_time_of_impact(&limb, &sl, &floor, &sf, 1.0f, 0.5f);
	check_toi_hit(&limb, &sl, &floor, &sf, out, 0.5f, "fast limb, pixels");
}

/* SEPARATED when moving apart, passing by, or not reaching before max_fraction; OVERLAPPED when
 * starting in overlap; invalid input reported. */
static void test_toi_separated_overlapped_invalid(void **state)
{
	(void)state;
	sinew_vec2 z = {0.0f, 0.0f};
	sinew_geometry a = kind_shape(2), b = kind_shape(1);
	sinew_sweep still = make_sweep(z, z, z, 0.0f, 0.0f);
	sinew_sweep away = make_sweep(z, sinew_v2(-2.0f, 0.0f), sinew_v2(-6.0f, 0.0f), 0.0f, 0.0f);
	sinew_toi_output out = sinew_time_of_impact(&a, &away, &b, &still, 1.0f, SLOP);
	assert_int_equal(out.state, SINEW_TOI_SEPARATED);
	assert_true(out.fraction == 1.0f);
	sinew_sweep by = make_sweep(z, sinew_v2(-3.0f, 2.0f), sinew_v2(3.0f, 2.0f), 0.0f, 1.0f);
	out = sinew_time_of_impact(&a, &by, &b, &still, 1.0f, SLOP);
	assert_int_equal(out.state, SINEW_TOI_SEPARATED);
	sinew_sweep towards = make_sweep(z, sinew_v2(-4.0f, 0.0f), sinew_v2(4.0f, 0.0f), 0.0f, 0.0f);
	out = sinew_time_of_impact(&a, &towards, &b, &still, 0.3f, SLOP);
	assert_int_equal(out.state, SINEW_TOI_SEPARATED);
	assert_true(out.fraction == 0.3f);
	out = sinew_time_of_impact(&a, &still, &b, &still, 1.0f, SLOP);
	assert_int_equal(out.state, SINEW_TOI_OVERLAPPED);
	assert_true(out.fraction == 0.0f);
	s_error_count = 0;
	sinew_set_error_callback(record_error, NULL);
	out = sinew_time_of_impact(&a, &still, &b, NULL, 1.0f, SLOP);
	assert_int_equal(out.state, SINEW_TOI_FAILED);
	out = sinew_time_of_impact(&a, &still, &b, &still, 1.0f, -1.0f);
	assert_int_equal(out.state, SINEW_TOI_FAILED);
	assert_int_equal(s_error_count, 2);
	sinew_set_error_callback(NULL, NULL);
}

/* Random sweeps of random shapes of every kind: every HIT passes check_toi_hit; SEPARATED never
 * comes within the target along the way; no FAILED. Reports the iteration counts. */
static void test_toi_random(void **state)
{
	(void)state;
	s_seed = 31337u;
	int hits = 0, worst = 0;
	long total = 0;
	for (int trial = 0; trial < 200; ++trial) {
		sinew_geometry a = random_shape(trial % KIND_COUNT), b = random_shape((trial / KIND_COUNT) % KIND_COUNT);
		sinew_vec2 lca = sinew_v2(rnd(-0.3f, 0.3f), rnd(-0.3f, 0.3f));
		sinew_sweep sa = make_sweep(lca, sinew_v2(rnd(-7.0f, -4.0f), rnd(-2.0f, 2.0f)),
		                            sinew_v2(rnd(2.0f, 5.0f), rnd(-2.0f, 2.0f)), rnd(-3.0f, 3.0f), rnd(-9.0f, 9.0f));
		sinew_sweep sb = make_sweep(sinew_v2(0.0f, 0.0f), sinew_v2(rnd(-1.0f, 1.0f), rnd(-1.0f, 1.0f)),
		                            sinew_v2(rnd(-1.0f, 1.0f), rnd(-1.0f, 1.0f)), rnd(-3.0f, 3.0f), rnd(-3.0f, 3.0f));
		if (sweep_distance(&a, &sa, &b, &sb, 0.0f).distance <= 2.0f * SLOP) continue;
		sinew_toi_output out = sinew_time_of_impact(&a, &sa, &b, &sb, 1.0f, SLOP);
		assert_int_not_equal(out.state, SINEW_TOI_FAILED);
		assert_int_not_equal(out.state, SINEW_TOI_OVERLAPPED);
		total += out.iterations;
		worst = out.iterations > worst ? out.iterations : worst;
		if (out.state == SINEW_TOI_HIT) {
			hits += 1;
			check_toi_hit(&a, &sa, &b, &sb, out, SLOP, "random");
		} else {
			for (int i = 0; i <= 200; ++i)
				assert_true(sweep_distance(&a, &sa, &b, &sb, (float)i / 200.0f).distance > SLOP - 1e-5f);
		}
	}
	print_message("toi random: %d hits, mean %.1f iterations, worst %d\n", hits, (double)total / 200.0, worst);
	assert_true(hits > 40);
}

/* ---- point test ---- */

static void test_geometry_test_point(void **state)
{
	(void)state;
	sinew_geometry cap = geo_capsule(-1.0f, 0.0f, 1.0f, 0.0f, 0.5f);
	sinew_transform xf = make_xf(2.0f, 0.0f, 0.5f * PI_F); /* vertical, y from -1.5 to 1.5 */
	assert_true(sinew_geometry_test_point(&cap, xf, sinew_v2(2.0f, 1.45f)));
	assert_false(sinew_geometry_test_point(&cap, xf, sinew_v2(2.0f, 1.55f)));
	assert_true(sinew_geometry_test_point(&cap, xf, sinew_v2(2.45f, 0.0f)));
	assert_false(sinew_geometry_test_point(&cap, xf, sinew_v2(2.55f, 0.0f)));
	sinew_geometry rb = geo_polygon(sinew_make_rounded_box(1.0f, 1.0f, sinew_v2(0.0f, 0.0f), 0.0f, 0.25f));
	assert_true(sinew_geometry_test_point(&rb, sinew_transform_identity(), sinew_v2(1.2f, 0.9f)));
	assert_false(sinew_geometry_test_point(&rb, sinew_transform_identity(), sinew_v2(1.2f, 1.2f)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ray_circle_head_on),
		cmocka_unit_test(test_ray_circle_off_axis),
		cmocka_unit_test(test_ray_circle_tangent_and_miss),
		cmocka_unit_test(test_ray_from_inside_every_kind),
		cmocka_unit_test(test_ray_box_axis_aligned),
		cmocka_unit_test(test_ray_rotated_box),
		cmocka_unit_test(test_ray_rotated_box_any_direction),
		cmocka_unit_test(test_ray_rounded_box_face_and_corner),
		cmocka_unit_test(test_ray_rounded_box_corner_region),
		cmocka_unit_test(test_ray_capsule_sides_and_caps),
		cmocka_unit_test(test_ray_capsule_tangent_and_miss),
		cmocka_unit_test(test_ray_degenerate_input),
		cmocka_unit_test(test_ray_random_vs_brute_force),
		cmocka_unit_test(test_distance_circle_circle),
		cmocka_unit_test(test_distance_circle_capsule),
		cmocka_unit_test(test_distance_circle_polygon),
		cmocka_unit_test(test_distance_capsule_capsule),
		cmocka_unit_test(test_distance_capsule_polygon),
		cmocka_unit_test(test_distance_polygon_polygon),
		cmocka_unit_test(test_distance_touching),
		cmocka_unit_test(test_distance_overlapping),
		cmocka_unit_test(test_distance_random_vs_brute_force),
		cmocka_unit_test(test_distance_degenerate),
		cmocka_unit_test(test_distance_symmetric_and_deterministic),
		cmocka_unit_test(test_shape_cast_every_pair),
		cmocka_unit_test(test_shape_cast_capsule_into_wall),
		cmocka_unit_test(test_shape_cast_corner_onto_face),
		cmocka_unit_test(test_shape_cast_clear),
		cmocka_unit_test(test_shape_cast_initial_contact),
		cmocka_unit_test(test_shape_cast_random),
		cmocka_unit_test(test_sweep_transform),
		cmocka_unit_test(test_toi_circles_translation),
		cmocka_unit_test(test_toi_every_pair_spinning),
		cmocka_unit_test(test_toi_spinning_capsule),
		cmocka_unit_test(test_toi_spinning_box),
		cmocka_unit_test(test_toi_fast_thin),
		cmocka_unit_test(test_toi_separated_overlapped_invalid),
		cmocka_unit_test(test_toi_random),
		cmocka_unit_test(test_geometry_test_point),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
