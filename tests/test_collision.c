/* Tests for shape geometry (constructors, mass, AABBs, extents) and the narrowphase manifolds.
 * Every expected value is worked out by hand from the geometry in the comment next to it. */
#include "core.h"
#include "separation.h"

#include "sinew/collision.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "near.h"

#define SPEC 0.1f
#define PI_D 3.14159265358979323846

/* ---- helpers ---- */


/* 1e-5 relative (absolute below 1) */
#define CLOSE(actual, expected) \
	near_at((double)(actual), (double)(expected), 1e-5 * fmax(1.0, fabs((double)(expected))), #actual, __FILE__, \
	        __LINE__)

static sinew_transform make_xf(float x, float y, float angle)
{
	return sinew_make_transform(sinew_v2(x, y), angle);
}

static sinew_circle circle_at(float x, float y, float r)
{
	sinew_circle c = {{x, y}, r};
	return c;
}

static sinew_capsule capsule_of(float x1, float y1, float x2, float y2, float r)
{
	sinew_capsule c = {{x1, y1}, {x2, y2}, r};
	return c;
}

static sinew_geometry geo_circle(sinew_circle c)
{
	sinew_geometry g = {SINEW_SHAPE_CIRCLE, {.circle = c}};
	return g;
}

static sinew_geometry geo_capsule(sinew_capsule c)
{
	sinew_geometry g = {SINEW_SHAPE_CAPSULE, {.capsule = c}};
	return g;
}

static sinew_geometry geo_polygon(sinew_polygon p)
{
	sinew_geometry g;
	g.type = SINEW_SHAPE_POLYGON;
	g.u.polygon = p;
	return g;
}

/* What every manifold must satisfy: unit normal, finite numbers, anchors that match the point. */
#define CHECK_MANIFOLD(m, xfa, xfb) check_manifold_at(&(m), (xfa), (xfb), __FILE__, __LINE__)
static void check_manifold_at(const sinew_manifold *m, sinew_transform xfa, sinew_transform xfb, const char *file,
                              int line)
{
	if (m->point_count == 0) return;
	near_at(sinew_length(m->normal), 1.0, 1e-6, "|normal|", file, line);
	for (int i = 0; i < m->point_count; ++i) {
		const sinew_manifold_point *p = &m->points[i];
		if (!sinew_vec2_is_valid(p->point) || !sinew_is_finite(p->separation)) _fail(file, line);
		near_at(p->anchor_a.x, p->point.x - xfa.p.x, 1e-5, "anchor_a.x", file, line);
		near_at(p->anchor_a.y, p->point.y - xfa.p.y, 1e-5, "anchor_a.y", file, line);
		near_at(p->anchor_b.x, p->point.x - xfb.p.x, 1e-5, "anchor_b.x", file, line);
		near_at(p->anchor_b.y, p->point.y - xfb.p.y, 1e-5, "anchor_b.y", file, line);
		if (p->normal_impulse != 0.0f || p->tangent_impulse != 0.0f || p->persisted) _fail(file, line);
	}
}

#define CHECK_NORMAL(m, nx, ny) \
	do { \
		CLOSE((m).normal.x, (nx)); \
		CLOSE((m).normal.y, (ny)); \
	} while (0)

#define CHECK_POINT(p, x, y, sep) check_point_at(&(p), (x), (y), (sep), __FILE__, __LINE__)
static void check_point_at(const sinew_manifold_point *p, double x, double y, double separation, const char *file,
                           int line)
{
	near_at(p->point.x, x, 1e-5 * fmax(1.0, fabs(x)), "point.x", file, line);
	near_at(p->point.y, y, 1e-5 * fmax(1.0, fabs(y)), "point.y", file, line);
	near_at(p->separation, separation, 1e-5 * fmax(1.0, fabs(separation)), "separation", file, line);
}

/* The manifold point nearest to x (points come in no promised order). */
static const sinew_manifold_point *point_near_x(const sinew_manifold *m, float x)
{
	const sinew_manifold_point *best = &m->points[0];
	for (int i = 1; i < m->point_count; ++i)
		if (fabsf(m->points[i].point.x - x) < fabsf(best->point.x - x)) best = &m->points[i];
	return best;
}

/* ---- circles ---- */

static void test_circles_beyond_speculative(void **state)
{
	(void)state;
	/* centres 1.2 apart, radii 0.5 + 0.5: gap 0.2 > 0.1 */
	sinew_circle a = circle_at(0, 0, 0.5f), b = circle_at(0, 0, 0.5f);
	sinew_manifold m = sinew_collide_circles(&a, make_xf(0, 0, 0), &b, make_xf(1.2f, 0, 0), SPEC);
	assert_int_equal(m.point_count, 0);
}

static void test_circles_within_speculative(void **state)
{
	(void)state;
	/* gap 0.05: surfaces at x = 0.5 and 0.55, midway 0.525 */
	sinew_circle a = circle_at(0, 0, 0.5f), b = circle_at(0, 0, 0.5f);
	sinew_transform xfa = make_xf(0, 0, 0), xfb = make_xf(1.05f, 0, 0);
	sinew_manifold m = sinew_collide_circles(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 1);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 1, 0);
	CHECK_POINT(m.points[0], 0.525, 0, 0.05);
	CLOSE(m.points[0].anchor_b.x, -0.525);
}

static void test_circles_touching(void **state)
{
	(void)state;
	sinew_circle a = circle_at(0, 0, 0.5f), b = circle_at(0, 0, 0.5f);
	sinew_manifold m = sinew_collide_circles(&a, make_xf(0, 0, 0), &b, make_xf(0, -1, 0), SPEC);
	assert_int_equal(m.point_count, 1);
	CHECK_NORMAL(m, 0, -1);
	CHECK_POINT(m.points[0], 0, -0.5, 0);
}

static void test_circles_overlapping(void **state)
{
	(void)state;
	/* centres (1,2) and (1.72,2.96): 1.2 apart along (0.6,0.8); radii 1 + 0.5 -> -0.3.
	 * Surface of A at (1.6,2.8), of B at (1.42,2.56), midway (1.51,2.68). */
	sinew_circle a = circle_at(0, 0, 1.0f), b = circle_at(0, 0, 0.5f);
	sinew_transform xfa = make_xf(1, 2, 0), xfb = make_xf(1.72f, 2.96f, 0);
	sinew_manifold m = sinew_collide_circles(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 1);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 0.6, 0.8);
	CHECK_POINT(m.points[0], 1.51, 2.68, -0.3);
	CLOSE(m.points[0].anchor_a.x, 0.51);
	CLOSE(m.points[0].anchor_b.y, 2.68 - 2.96);
}

static void test_circles_rotated_local_centres(void **state)
{
	(void)state;
	/* A's local centre (1,0) turned 90 degrees is (0,1); B's local (0,-1) turned 180 degrees is
	 * (0,1), moved to (0,4) it is (0,5). Centres 4 apart, radii 2 + 2.3: -0.3. */
	sinew_circle a = circle_at(1, 0, 2.0f), b = circle_at(0, -1, 2.3f);
	sinew_transform xfa = make_xf(0, 0, 0.5f * SINEW_PI), xfb = make_xf(0, 4, SINEW_PI);
	sinew_manifold m = sinew_collide_circles(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 1);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 0, 1);
	/* surfaces at y = 3 (A) and 2.7 (B): midway 2.85 */
	CHECK_POINT(m.points[0], 0, 2.85, -0.3);
}

static void test_circles_coincident_centres(void **state)
{
	(void)state;
	/* fixed normal world up; separation -(1 + 0.5); point midway between y+1 and y-0.5 */
	sinew_circle a = circle_at(0, 0, 1.0f), b = circle_at(0, 0, 0.5f);
	sinew_transform xfa = make_xf(2, 3, 0.4f), xfb = make_xf(2, 3, -1.0f);
	sinew_manifold m = sinew_collide_circles(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 1);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 0, 1);
	CHECK_POINT(m.points[0], 2, 3.25, -1.5);
}

/* ---- capsule and circle ---- */

static void test_capsule_circle_side(void **state)
{
	(void)state;
	/* circle above the segment at x 0.3: gap 0.5 - 0.25 - 0.2 = 0.05; surfaces y 0.25 and 0.3 */
	sinew_capsule a = capsule_of(-1, 0, 1, 0, 0.25f);
	sinew_circle b = circle_at(0, 0, 0.2f);
	sinew_transform xfa = make_xf(0, 0, 0), xfb = make_xf(0.3f, 0.5f, 0);
	sinew_manifold m = sinew_collide_capsule_and_circle(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 1);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 0, 1);
	CHECK_POINT(m.points[0], 0.3, 0.275, 0.05);
}

static void test_capsule_circle_beyond_end(void **state)
{
	(void)state;
	/* circle at (1.3,-0.4): from the end (1,0) that is 0.5 along (0.6,-0.8); radii 0.25 + 0.5 ->
	 * -0.25; point (1,0) + (0.25 - 0.125) n = (1.075, -0.1) */
	sinew_capsule a = capsule_of(-1, 0, 1, 0, 0.25f);
	sinew_circle b = circle_at(0, 0, 0.5f);
	sinew_transform xfa = make_xf(0, 0, 0), xfb = make_xf(1.3f, -0.4f, 0);
	sinew_manifold m = sinew_collide_capsule_and_circle(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 1);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 0.6, -0.8);
	CHECK_POINT(m.points[0], 1.075, -0.1, -0.25);
}

static void test_capsule_circle_rotated_godot(void **state)
{
	(void)state;
	/* Godot capsule height 2, radius 0.5: centres (0,-0.5), (0,0.5); turned 90 degrees and moved
	 * to (2,1) it spans x 1.5..2.5 at y 1. Circle r 0.3 at (2.2,1.7): 0.7 - 0.8 = -0.1;
	 * surfaces y 1.5 and 1.4, midway 1.45. */
	sinew_capsule a = sinew_make_capsule_godot(2.0f, 0.5f, sinew_v2(0, 0), 0.0f);
	sinew_circle b = circle_at(0, 0, 0.3f);
	sinew_transform xfa = make_xf(2, 1, 0.5f * SINEW_PI), xfb = make_xf(2.2f, 1.7f, 0);
	sinew_manifold m = sinew_collide_capsule_and_circle(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 1);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 0, 1);
	CHECK_POINT(m.points[0], 2.2, 1.45, -0.1);
	/* beyond the speculative distance: move the circle up by 0.3 (gap 0.2) */
	m = sinew_collide_capsule_and_circle(&a, xfa, &b, make_xf(2.2f, 2.0f, 0), SPEC);
	assert_int_equal(m.point_count, 0);
}

static void test_capsule_circle_zero_length(void **state)
{
	(void)state;
	/* a capsule whose centres coincide is the circle there: same answer as circle-circle */
	sinew_capsule a = capsule_of(0.5f, 0, 0.5f, 0, 0.5f);
	sinew_circle ca = circle_at(0.5f, 0, 0.5f), b = circle_at(0, 0, 0.25f);
	sinew_transform xfa = make_xf(0, 0, 0), xfb = make_xf(0.5f, 0.6f, 0);
	sinew_manifold m = sinew_collide_capsule_and_circle(&a, xfa, &b, xfb, SPEC);
	sinew_manifold c = sinew_collide_circles(&ca, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 1);
	CHECK_NORMAL(m, 0, 1);
	CHECK_POINT(m.points[0], 0.5, 0.5 - 0.075, -0.15);
	CHECK_POINT(c.points[0], 0.5, 0.5 - 0.075, -0.15);
}

static void test_capsule_circle_centre_on_axis(void **state)
{
	(void)state;
	/* the circle's centre on the segment: pushed out across the axis, separation -(0.25 + 0.2) */
	sinew_capsule a = capsule_of(-1, 0, 1, 0, 0.25f);
	sinew_circle b = circle_at(0, 0, 0.2f);
	sinew_transform xfa = make_xf(0, 0, 0), xfb = make_xf(0.4f, 0, 0);
	sinew_manifold m = sinew_collide_capsule_and_circle(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 1);
	CHECK_MANIFOLD(m, xfa, xfb);
	NEAR(fabsf(m.normal.y), 1, 1e-6);
	CLOSE(m.points[0].separation, -0.45);
}

/* ---- capsules ---- */

static void test_capsules_parallel_two_points(void **state)
{
	(void)state;
	/* B (x -0.5..1.5 at y 0.45) on A (x -1..1 at y 0): overlap x -0.5..1, separation 0.45 - 0.5;
	 * surfaces y 0.25 and 0.2, midway 0.225 */
	sinew_capsule a = capsule_of(-1, 0, 1, 0, 0.25f), b = capsule_of(-1, 0, 1, 0, 0.25f);
	sinew_transform xfa = make_xf(0, 0, 0), xfb = make_xf(0.5f, 0.45f, 0);
	sinew_manifold m = sinew_collide_capsules(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 2);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 0, 1);
	CHECK_POINT(*point_near_x(&m, -0.5f), -0.5, 0.225, -0.05);
	CHECK_POINT(*point_near_x(&m, 1.0f), 1.0, 0.225, -0.05);
	assert_int_not_equal(m.points[0].id, m.points[1].id);
	/* B below A instead: the normal (A to B) points down */
	xfb = make_xf(0.5f, -0.45f, 0);
	m = sinew_collide_capsules(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 2);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 0, -1);
	CHECK_POINT(*point_near_x(&m, -0.5f), -0.5, -0.225, -0.05);
}

static void test_capsules_nearly_parallel(void **state)
{
	(void)state;
	/* B centred at (0,0.5) turned 0.05 rad: ends at (-cos, 0.5 - sin) and (cos, 0.5 + sin), both
	 * over A; separations (0.5 -+ sin 0.05) - 0.5 */
	double c = cos(0.05), s = sin(0.05);
	sinew_capsule a = capsule_of(-1, 0, 1, 0, 0.25f), b = capsule_of(-1, 0, 1, 0, 0.25f);
	sinew_transform xfa = make_xf(0, 0, 0), xfb = make_xf(0, 0.5f, 0.05f);
	sinew_manifold m = sinew_collide_capsules(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 2);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 0, 1);
	CHECK_POINT(*point_near_x(&m, -1.0f), -c, 0.25 + 0.5 * -s, -s);
	CHECK_POINT(*point_near_x(&m, 1.0f), c, 0.25 + 0.5 * s, s);
}

static void test_capsules_crossed(void **state)
{
	(void)state;
	/* B upright from (0,0.5) to (0,1.5) over A's middle: one point, touching */
	sinew_capsule a = capsule_of(-1, 0, 1, 0, 0.25f), b = capsule_of(0, -0.5f, 0, 0.5f, 0.25f);
	sinew_transform xfa = make_xf(0, 0, 0), xfb = make_xf(0, 1, 0);
	sinew_manifold m = sinew_collide_capsules(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 1);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 0, 1);
	CHECK_POINT(m.points[0], 0, 0.25, 0);
}

/* Cores that cross (an X): the manifold gives the shortest way apart and the whole depth, not the
 * coinciding closest points' zero depth, so two limbs driven through each other are pushed out. */
static void test_capsules_cores_crossing(void **state)
{
	(void)state;
	/* B upright from (0,-0.2) to (0,1.8) through A: out upwards by 0.2 + both radii */
	sinew_capsule a = capsule_of(-1, 0, 1, 0, 0.25f), b = capsule_of(0, -1.0f, 0, 1.0f, 0.25f);
	sinew_transform xfa = make_xf(0, 0, 0), xfb = make_xf(0, 0.8f, 0);
	sinew_manifold m = sinew_collide_capsules(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 1);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 0, 1);
	CHECK_POINT(m.points[0], 0, 0.5 * (-0.2 + 0.25 - 0.25), -0.2 - 0.5);
	/* B short and deep on the far side: out downwards; turned: the same by symmetry */
	xfb = make_xf(0, -0.7f, 0);
	m = sinew_collide_capsules(&a, xfa, &b, xfb, SPEC);
	CHECK_NORMAL(m, 0, -1);
	assert_float_equal(m.points[0].separation, -(0.3f + 0.5f), 1e-5f);
	/* A short across a long B: A's far end decides (the shortest way is along B's perpendicular) */
	sinew_capsule shortc = capsule_of(-0.1f, 0, 0.3f, 0, 0.1f), longc = capsule_of(0, -3.0f, 0, 3.0f, 0.1f);
	m = sinew_collide_capsules(&shortc, make_xf(0, 0, 0), &longc, make_xf(0, 0, 0), SPEC);
	assert_int_equal(m.point_count, 1);
	CHECK_NORMAL(m, -1, 0); /* B moves -x, past A's end at x = -0.1 (0.1 away; +x would be 0.3) */
	assert_float_equal(m.points[0].separation, -(0.1f + 0.2f), 1e-5f);
}

static void test_capsules_end_to_end(void **state)
{
	(void)state;
	/* collinear, ends (1,0) and (1.3,0), radii 0.1 + 0.1: gap 0.1 (one point at x 1.15);
	 * with speculative 0.05 nothing */
	sinew_capsule a = capsule_of(-1, 0, 1, 0, 0.1f), b = capsule_of(0, 0, 1, 0, 0.1f);
	sinew_transform xfa = make_xf(0, 0, 0), xfb = make_xf(1.3f, 0, 0);
	sinew_manifold m = sinew_collide_capsules(&a, xfa, &b, xfb, 0.15f);
	assert_int_equal(m.point_count, 1);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 1, 0);
	CHECK_POINT(m.points[0], 1.15, 0, 0.1);
	m = sinew_collide_capsules(&a, xfa, &b, xfb, 0.05f);
	assert_int_equal(m.point_count, 0);
}

static void test_capsules_zero_length(void **state)
{
	(void)state;
	/* A is a point capsule (a circle r 0.5) under B's segment at y 0.7: gap 0.7 - 0.75 */
	sinew_capsule a = capsule_of(0, 0, 0, 0, 0.5f), b = capsule_of(-1, 0, 1, 0, 0.25f);
	sinew_transform xfa = make_xf(0, 0, 0), xfb = make_xf(0.2f, 0.7f, 0);
	sinew_manifold m = sinew_collide_capsules(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 1);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 0, 1);
	CHECK_POINT(m.points[0], 0, 0.475, -0.05);
	/* both point capsules at the same place: world-up fallback, no NaN */
	sinew_capsule c = capsule_of(0, 0, 0, 0, 0.5f);
	m = sinew_collide_capsules(&a, xfa, &c, xfa, SPEC);
	assert_int_equal(m.point_count, 1);
	CHECK_NORMAL(m, 0, 1);
	CLOSE(m.points[0].separation, -1.0);
}

static void test_capsules_rotated_pair(void **state)
{
	(void)state;
	/* the parallel case turned as a whole by 30 degrees about the origin: same separations, the
	 * normal turned to (-sin 30, cos 30), points turned too */
	double ang = PI_D / 6.0, c = cos(ang), s = sin(ang);
	sinew_capsule a = capsule_of(-1, 0, 1, 0, 0.25f), b = capsule_of(-1, 0, 1, 0, 0.25f);
	sinew_transform xfa = make_xf(0, 0, (float)ang);
	sinew_transform xfb = make_xf((float)(0.5 * c - 0.45 * s), (float)(0.5 * s + 0.45 * c), (float)ang);
	sinew_manifold m = sinew_collide_capsules(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 2);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, -s, c);
	for (int i = 0; i < 2; ++i) {
		CLOSE(m.points[i].separation, -0.05);
		/* back in A's frame the point is at height 0.225 */
		CLOSE(-s * m.points[i].point.x + c * m.points[i].point.y, 0.225);
	}
}

/* ---- polygon and circle ---- */

static void test_polygon_circle_face(void **state)
{
	(void)state;
	/* box 2 x 1; circle r 0.2 at (0.3, 0.75): gap 0.05, surfaces y 0.5 and 0.55 */
	sinew_polygon a = sinew_make_box(1.0f, 0.5f);
	sinew_circle b = circle_at(0, 0, 0.2f);
	sinew_transform xfa = make_xf(0, 0, 0), xfb = make_xf(0.3f, 0.75f, 0);
	sinew_manifold m = sinew_collide_polygon_and_circle(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 1);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 0, 1);
	CHECK_POINT(m.points[0], 0.3, 0.525, 0.05);
	m = sinew_collide_polygon_and_circle(&a, xfa, &b, make_xf(0.3f, 0.85f, 0), SPEC);
	assert_int_equal(m.point_count, 0);
}

static void test_polygon_circle_corner(void **state)
{
	(void)state;
	/* circle r 0.45 at (1.3, 0.9): 0.5 from the corner (1, 0.5) along (0.6, 0.8): gap 0.05;
	 * point (1,0.5) + 0.025 n = (1.015, 0.52) */
	sinew_polygon a = sinew_make_box(1.0f, 0.5f);
	sinew_circle b = circle_at(0, 0, 0.45f);
	sinew_transform xfa = make_xf(0, 0, 0), xfb = make_xf(1.3f, 0.9f, 0);
	sinew_manifold m = sinew_collide_polygon_and_circle(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 1);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 0.6, 0.8);
	CHECK_POINT(m.points[0], 1.015, 0.52, 0.05);
}

static void test_polygon_circle_centre_inside(void **state)
{
	(void)state;
	/* centre (0.2, 0.3) inside: nearest face the top (0.2 below it); separation -0.2 - 0.1;
	 * surfaces y 0.5 (A) and 0.2 (B), midway 0.35 */
	sinew_polygon a = sinew_make_box(1.0f, 0.5f);
	sinew_circle b = circle_at(0, 0, 0.1f);
	sinew_transform xfa = make_xf(0, 0, 0), xfb = make_xf(0.2f, 0.3f, 0);
	sinew_manifold m = sinew_collide_polygon_and_circle(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 1);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 0, 1);
	CHECK_POINT(m.points[0], 0.2, 0.35, -0.3);
	/* centre exactly at the box's centre: a face normal (top or bottom), separation -0.5 - 0.1 */
	m = sinew_collide_polygon_and_circle(&a, xfa, &b, xfa, SPEC);
	assert_int_equal(m.point_count, 1);
	CHECK_MANIFOLD(m, xfa, xfa);
	NEAR(fabsf(m.normal.y), 1, 1e-6);
	CLOSE(m.points[0].separation, -0.6);
}

static void test_polygon_circle_rotated_vertex(void **state)
{
	(void)state;
	/* unit-half box turned 45 degrees: a corner at (sqrt2, 0). Circle r 0.6 at (sqrt2 + 0.5, 0):
	 * vertex contact, normal (1,0), separation -0.1, point at x sqrt2 - 0.05 */
	double r2 = sqrt(2.0);
	sinew_polygon a = sinew_make_box(1.0f, 1.0f);
	sinew_circle b = circle_at(0, 0, 0.6f);
	sinew_transform xfa = make_xf(0, 0, 0.25f * SINEW_PI), xfb = make_xf((float)(r2 + 0.5), 0, 0);
	sinew_manifold m = sinew_collide_polygon_and_circle(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 1);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 1, 0);
	CHECK_POINT(m.points[0], r2 - 0.05, 0, -0.1);
}

static void test_rounded_polygon_circle(void **state)
{
	(void)state;
	/* box half 0.5 rounded by 0.1; circle r 0.3 at (0.8, 0.9): core corner (0.5,0.5) is 0.5 away
	 * along (0.6,0.8); separation 0.5 - 0.4 = 0.1; point corner + 0.15 n = (0.59, 0.62) */
	sinew_polygon a = sinew_make_rounded_box(0.5f, 0.5f, sinew_v2(0, 0), 0, 0.1f);
	sinew_circle b = circle_at(0, 0, 0.3f);
	sinew_transform xfa = make_xf(0, 0, 0), xfb = make_xf(0.8f, 0.9f, 0);
	sinew_manifold m = sinew_collide_polygon_and_circle(&a, xfa, &b, xfb, 0.2f);
	assert_int_equal(m.point_count, 1);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 0.6, 0.8);
	CHECK_POINT(m.points[0], 0.59, 0.62, 0.1);
	m = sinew_collide_polygon_and_circle(&a, xfa, &b, xfb, 0.05f);
	assert_int_equal(m.point_count, 0);
}

/* ---- polygon and capsule ---- */

static void test_polygon_capsule_lying(void **state)
{
	(void)state;
	/* capsule x -0.5..0.5 (r 0.25) at (0.3, 0.73) on a 4 x 1 box: bottom of the capsule at 0.48,
	 * separation -0.02 at both ends x -0.2 and 0.8, points midway at y 0.49 */
	sinew_polygon a = sinew_make_box(2.0f, 0.5f);
	sinew_capsule b = capsule_of(-0.5f, 0, 0.5f, 0, 0.25f);
	sinew_transform xfa = make_xf(0, 0, 0), xfb = make_xf(0.3f, 0.73f, 0);
	sinew_manifold m = sinew_collide_polygon_and_capsule(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 2);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 0, 1);
	CHECK_POINT(*point_near_x(&m, -0.2f), -0.2, 0.49, -0.02);
	CHECK_POINT(*point_near_x(&m, 0.8f), 0.8, 0.49, -0.02);
}

static void test_polygon_capsule_over_edge(void **state)
{
	(void)state;
	/* capsule x 1.5..2.5 hanging over the box's right edge at x 2: clipped to 1.5 and 2 */
	sinew_polygon a = sinew_make_box(2.0f, 0.5f);
	sinew_capsule b = capsule_of(-0.5f, 0, 0.5f, 0, 0.25f);
	sinew_transform xfa = make_xf(0, 0, 0), xfb = make_xf(2.0f, 0.73f, 0);
	sinew_manifold m = sinew_collide_polygon_and_capsule(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 2);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 0, 1);
	CHECK_POINT(*point_near_x(&m, 1.5f), 1.5, 0.49, -0.02);
	CHECK_POINT(*point_near_x(&m, 2.0f), 2.0, 0.49, -0.02);
}

static void test_polygon_capsule_upright(void **state)
{
	(void)state;
	/* capsule standing on its end: lower centre at y 0.74 (0.01 into the box's top at 0.5),
	 * one point (0, 0.495); the upper end is far beyond the speculative distance */
	sinew_polygon a = sinew_make_box(2.0f, 0.5f);
	sinew_capsule b = capsule_of(0, -0.5f, 0, 0.5f, 0.25f);
	sinew_transform xfa = make_xf(0, 0, 0), xfb = make_xf(0, 1.24f, 0);
	sinew_manifold m = sinew_collide_polygon_and_capsule(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 1);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 0, 1);
	CHECK_POINT(m.points[0], 0, 0.495, -0.01);
}

static void test_polygon_capsule_zero_length(void **state)
{
	(void)state;
	/* a point capsule behaves as the circle: corner case of test_polygon_circle_corner */
	sinew_polygon a = sinew_make_box(1.0f, 0.5f);
	sinew_capsule b = capsule_of(0, 0, 0, 0, 0.45f);
	sinew_transform xfa = make_xf(0, 0, 0), xfb = make_xf(1.3f, 0.9f, 0);
	sinew_manifold m = sinew_collide_polygon_and_capsule(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 1);
	CHECK_NORMAL(m, 0.6, 0.8);
	CHECK_POINT(m.points[0], 1.015, 0.52, 0.05);
}

static void test_polygon_capsule_end_on_corner(void **state)
{
	(void)state;
	/* capsule x 1.3..2.3 at y 0.9 beside the box corner (1, 0.5), rounded box radius 0.1:
	 * closest features are the corner and the capsule's end (1.3,0.9): 0.5 along (0.6,0.8);
	 * separation 0.5 - 0.1 - 0.2 = 0.2; point corner + (0.1 + 0.1) n = (1.12, 0.66) */
	sinew_polygon a = sinew_make_rounded_box(1.0f, 0.5f, sinew_v2(0, 0), 0, 0.1f);
	sinew_capsule b = capsule_of(0, 0, 1, 0, 0.2f);
	sinew_transform xfa = make_xf(0, 0, 0), xfb = make_xf(1.3f, 0.9f, 0);
	sinew_manifold m = sinew_collide_polygon_and_capsule(&a, xfa, &b, xfb, 0.3f);
	assert_int_equal(m.point_count, 1);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 0.6, 0.8);
	CHECK_POINT(m.points[0], 1.12, 0.66, 0.2);
}

/* ---- polygons ---- */

static void test_boxes_face_to_face(void **state)
{
	(void)state;
	/* equal unit boxes, B 0.95 above A: overlap 0.05 over the whole face, points at x -0.5 and
	 * 0.5, midway y 0.475 */
	sinew_polygon a = sinew_make_box(0.5f, 0.5f), b = sinew_make_box(0.5f, 0.5f);
	sinew_transform xfa = make_xf(0, 0, 0), xfb = make_xf(0, 0.95f, 0);
	sinew_manifold m = sinew_collide_polygons(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 2);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 0, 1);
	CHECK_POINT(*point_near_x(&m, -0.5f), -0.5, 0.475, -0.05);
	CHECK_POINT(*point_near_x(&m, 0.5f), 0.5, 0.475, -0.05);
	assert_int_not_equal(m.points[0].id, m.points[1].id);
}

static void test_boxes_offset_sideways(void **state)
{
	(void)state;
	/* B (1 x 1) at (0.8, 0.99) on A (2 x 1): B spans x 0.3..1.3, A's top x -1..1: clipped to
	 * 0.3 and 1.0; separation -0.01, midway y 0.495 */
	sinew_polygon a = sinew_make_box(1.0f, 0.5f), b = sinew_make_box(0.5f, 0.5f);
	sinew_transform xfa = make_xf(0, 0, 0), xfb = make_xf(0.8f, 0.99f, 0);
	sinew_manifold m = sinew_collide_polygons(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 2);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 0, 1);
	CHECK_POINT(*point_near_x(&m, 0.3f), 0.3, 0.495, -0.01);
	CHECK_POINT(*point_near_x(&m, 1.0f), 1.0, 0.495, -0.01);
}

static void test_boxes_separated(void **state)
{
	(void)state;
	/* gap 0.05 -> two speculative points with separation +0.05 at y 0.525; gap 0.15 -> none */
	sinew_polygon a = sinew_make_box(0.5f, 0.5f), b = sinew_make_box(0.5f, 0.5f);
	sinew_transform xfa = make_xf(0, 0, 0), xfb = make_xf(0.25f, 1.05f, 0);
	sinew_manifold m = sinew_collide_polygons(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 2);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 0, 1);
	CHECK_POINT(*point_near_x(&m, -0.25f), -0.25, 0.525, 0.05);
	CHECK_POINT(*point_near_x(&m, 0.5f), 0.5, 0.525, 0.05);
	m = sinew_collide_polygons(&a, xfa, &b, make_xf(0.25f, 1.15f, 0), SPEC);
	assert_int_equal(m.point_count, 0);
}

static void test_boxes_touching_side(void **state)
{
	(void)state;
	/* B exactly beside A (x 0.5..1.5), half a box higher: touching over y 0..0.5 */
	sinew_polygon a = sinew_make_box(0.5f, 0.5f), b = sinew_make_box(0.5f, 0.5f);
	sinew_transform xfa = make_xf(0, 0, 0), xfb = make_xf(1.0f, 0.5f, 0);
	sinew_manifold m = sinew_collide_polygons(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 2);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 1, 0);
	for (int i = 0; i < 2; ++i) {
		CLOSE(m.points[i].point.x, 0.5);
		CLOSE(m.points[i].separation, 0.0);
	}
	NEAR(fminf(m.points[0].point.y, m.points[1].point.y), 0.0, 1e-6);
	NEAR(fmaxf(m.points[0].point.y, m.points[1].point.y), 0.5, 1e-6);
}

static void test_boxes_rotated_pair(void **state)
{
	(void)state;
	/* the face-to-face case turned by 30 degrees about the origin */
	double ang = PI_D / 6.0, c = cos(ang), s = sin(ang);
	sinew_polygon a = sinew_make_box(0.5f, 0.5f), b = sinew_make_box(0.5f, 0.5f);
	sinew_transform xfa = make_xf(0, 0, (float)ang);
	sinew_transform xfb = make_xf((float)(-0.95 * s), (float)(0.95 * c), (float)ang);
	sinew_manifold m = sinew_collide_polygons(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 2);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, -s, c);
	/* expected points: (+-0.5, 0.475) turned by 30 degrees */
	for (int k = -1; k <= 1; k += 2) {
		double x = 0.5 * k * c - 0.475 * s, y = 0.5 * k * s + 0.475 * c;
		const sinew_manifold_point *p = point_near_x(&m, (float)x);
		CHECK_POINT(*p, x, y, -0.05);
	}
}

static void test_box_corner_into_face(void **state)
{
	(void)state;
	/* B (half 0.5) turned 45 degrees: its lowest corner sqrt(0.5) below its centre. Centre at
	 * (0.2, 0.5 + sqrt0.5 - 0.1): the corner is 0.1 into A's top; one point (0.2, 0.45) */
	double h = sqrt(0.5);
	sinew_polygon a = sinew_make_box(2.0f, 0.5f), b = sinew_make_box(0.5f, 0.5f);
	sinew_transform xfa = make_xf(0, 0, 0), xfb = make_xf(0.2f, (float)(0.4 + h), 0.25f * SINEW_PI);
	sinew_manifold m = sinew_collide_polygons(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 1);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 0, 1);
	CHECK_POINT(m.points[0], 0.2, 0.45, -0.1);
	/* A's top face (edge 2) against B's corner 0, (-0.5,-0.5) turned to the bottom */
	assert_int_equal(m.points[0].id, SINEW_MAKE_FEATURE_ID(2, 0));
}

static void test_face_of_b_as_reference(void **state)
{
	(void)state;
	/* A turned 45 degrees pokes its corner up into B's bottom face: B's face is the reference
	 * (flip), yet the normal still points from A to B, up. A's top corner at (0, sqrt0.5) is 0.1
	 * above B's bottom at sqrt0.5 - 0.1 */
	double h = sqrt(0.5);
	sinew_polygon a = sinew_make_box(0.5f, 0.5f), b = sinew_make_box(2.0f, 0.5f);
	sinew_transform xfa = make_xf(0, 0, 0.25f * SINEW_PI), xfb = make_xf(0, (float)(h - 0.1 + 0.5), 0);
	sinew_manifold m = sinew_collide_polygons(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 1);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 0, 1);
	CHECK_POINT(m.points[0], 0, h - 0.05, -0.1);
	assert_true((m.points[0].id >> 8) & 0x80); /* the flip bit */
}

static void test_rounded_boxes_face_to_face(void **state)
{
	(void)state;
	/* cores half 0.5, radius 0.1 each, 1.15 apart: surfaces at 0.6 and 0.55 -> -0.05 at x +-0.5 */
	sinew_polygon a = sinew_make_rounded_box(0.5f, 0.5f, sinew_v2(0, 0), 0, 0.1f);
	sinew_polygon b = sinew_make_rounded_box(0.5f, 0.5f, sinew_v2(0, 0), 0, 0.1f);
	sinew_transform xfa = make_xf(0, 0, 0), xfb = make_xf(0, 1.15f, 0);
	sinew_manifold m = sinew_collide_polygons(&a, xfa, &b, xfb, SPEC);
	assert_int_equal(m.point_count, 2);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 0, 1);
	CHECK_POINT(*point_near_x(&m, -0.5f), -0.5, 0.575, -0.05);
	CHECK_POINT(*point_near_x(&m, 0.5f), 0.5, 0.575, -0.05);
}

static void test_rounded_boxes_corner_to_corner(void **state)
{
	(void)state;
	/* cores half 0.5, radius 0.1, B at (1.3, 1.4): core corners (0.5,0.5) and (0.8,0.9) are 0.5
	 * apart along (0.6,0.8); separation 0.5 - 0.2 = 0.3 (the face axes would say 0.2);
	 * point (0.5,0.5) + (0.1 + 0.15) n = (0.65, 0.7) */
	sinew_polygon a = sinew_make_rounded_box(0.5f, 0.5f, sinew_v2(0, 0), 0, 0.1f);
	sinew_polygon b = sinew_make_rounded_box(0.5f, 0.5f, sinew_v2(0, 0), 0, 0.1f);
	sinew_transform xfa = make_xf(0, 0, 0), xfb = make_xf(1.3f, 1.4f, 0);
	sinew_manifold m = sinew_collide_polygons(&a, xfa, &b, xfb, 0.5f);
	assert_int_equal(m.point_count, 1);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 0.6, 0.8);
	CHECK_POINT(m.points[0], 0.65, 0.7, 0.3);
	m = sinew_collide_polygons(&a, xfa, &b, xfb, 0.25f);
	assert_int_equal(m.point_count, 0);
}

static void test_boxes_coincident(void **state)
{
	(void)state;
	/* the same box twice at the same place: no NaN, two points a full box deep */
	sinew_polygon a = sinew_make_box(0.5f, 0.5f);
	sinew_transform xf = make_xf(1, 2, 0.3f);
	sinew_manifold m = sinew_collide_polygons(&a, xf, &a, xf, SPEC);
	assert_int_equal(m.point_count, 2);
	CHECK_MANIFOLD(m, xf, xf);
	CLOSE(m.points[0].separation, -1.0);
	CLOSE(m.points[1].separation, -1.0);
}

static void test_feature_ids_stable_while_sliding(void **state)
{
	(void)state;
	/* a box slides 1 cm at a time across a long box, flat and slightly tilted, in a turned
	 * frame: the ids and the normal stay the same, the points follow the box */
	const float tilts[2] = {0.0f, 0.01f};
	sinew_polygon ground = sinew_make_box(5.0f, 0.5f), box = sinew_make_box(0.5f, 0.5f);
	sinew_transform frame = make_xf(3, -2, 0.7f);
	for (int t = 0; t < 2; ++t) {
		uint16_t ids[2] = {0, 0};
		sinew_vec2 normal0 = {0, 0};
		for (int step = 0; step < 20; ++step) {
			float x = -1.0f + 0.01f * (float)step;
			sinew_transform xfa = frame;
			sinew_transform xfb = sinew_mul_transforms(frame, make_xf(x, 0.99f, tilts[t]));
			sinew_manifold m = sinew_collide_polygons(&ground, xfa, &box, xfb, SPEC);
			assert_int_equal(m.point_count, 2);
			CHECK_MANIFOLD(m, xfa, xfb);
			if (step == 0) {
				ids[0] = m.points[0].id;
				ids[1] = m.points[1].id;
				normal0 = m.normal;
				assert_int_not_equal(ids[0], ids[1]);
			}
			assert_int_equal(m.points[0].id, ids[0]);
			assert_int_equal(m.points[1].id, ids[1]);
			NEAR(m.normal.x, normal0.x, 1e-6);
			NEAR(m.normal.y, normal0.y, 1e-6);
			/* the left point is B's corner (-0.5,-0.5) turned by the tilt (in the frame) */
			sinew_vec2 local = sinew_inv_transform_point(frame, m.points[0].point);
			sinew_vec2 other = sinew_inv_transform_point(frame, m.points[1].point);
			NEAR(fminf(local.x, other.x), x - 0.5f * cosf(tilts[t]) + 0.5f * sinf(tilts[t]), 1e-5);
		}
	}
}

static void test_reference_face_prefers_a_when_nearly_equal(void **state)
{
	(void)state;
	/* B turned by 1e-5 rad: B's face is better by a hair; the tolerance keeps A's face, so the
	 * normal is exactly A's (0,1) and the ids carry A's edge (no flip bit) */
	sinew_polygon a = sinew_make_box(0.5f, 0.5f), b = sinew_make_box(0.5f, 0.5f);
	sinew_transform xfa = make_xf(0, 0, 0);
	for (int i = -1; i <= 1; i += 2) {
		sinew_transform xfb = make_xf(0.1f, 0.99f, 1e-5f * (float)i);
		sinew_manifold m = sinew_collide_polygons(&a, xfa, &b, xfb, SPEC);
		assert_int_equal(m.point_count, 2);
		assert_true(m.normal.x == 0.0f && m.normal.y == 1.0f);
		assert_int_equal(m.points[0].id >> 8, 2);
		assert_int_equal(m.points[1].id >> 8, 2);
	}
}

/* ---- dispatch ---- */

/* sinew_collide(b, a) must be sinew_collide(a, b) with the normal reversed and anchors swapped. */
static void check_swapped(sinew_geometry ga, sinew_transform xfa, sinew_geometry gb, sinew_transform xfb)
{
	sinew_manifold ab = sinew_collide(&ga, xfa, &gb, xfb, SPEC);
	sinew_manifold ba = sinew_collide(&gb, xfb, &ga, xfa, SPEC);
	assert_int_equal(ab.point_count, ba.point_count);
	assert_true(ab.point_count > 0);
	CHECK_MANIFOLD(ab, xfa, xfb);
	CHECK_MANIFOLD(ba, xfb, xfa);
	CLOSE(ba.normal.x, -ab.normal.x);
	CLOSE(ba.normal.y, -ab.normal.y);
	for (int i = 0; i < ab.point_count; ++i) {
		const sinew_manifold_point *q = point_near_x(&ba, ab.points[i].point.x);
		CLOSE(q->separation, ab.points[i].separation);
		CLOSE(q->point.x, ab.points[i].point.x);
		CLOSE(q->point.y, ab.points[i].point.y);
	}
}

static void test_collide_dispatch_circle_first(void **state)
{
	(void)state;
	/* circle A above box B: normal from the circle down to the box; anchor_a belongs to the circle */
	sinew_geometry ga = geo_circle(circle_at(0, 0, 0.2f)), gb = geo_polygon(sinew_make_box(1.0f, 0.5f));
	sinew_transform xfa = make_xf(0.3f, 0.75f, 0), xfb = make_xf(0, 0, 0);
	sinew_manifold m = sinew_collide(&ga, xfa, &gb, xfb, SPEC);
	assert_int_equal(m.point_count, 1);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 0, -1);
	CHECK_POINT(m.points[0], 0.3, 0.525, 0.05);
	CLOSE(m.points[0].anchor_a.y, 0.525 - 0.75);
	check_swapped(ga, xfa, gb, xfb);
}

static void test_collide_dispatch_every_pair(void **state)
{
	(void)state;
	sinew_geometry circle = geo_circle(circle_at(0, 0, 0.3f));
	sinew_geometry capsule = geo_capsule(capsule_of(-0.5f, 0, 0.5f, 0, 0.2f));
	sinew_geometry box = geo_polygon(sinew_make_box(0.5f, 0.4f));
	sinew_transform lower = make_xf(0.1f, 0.0f, 0.2f), upper = make_xf(0.2f, 0.55f, -0.1f);
	const sinew_geometry *all[3] = {&circle, &capsule, &box};
	for (int i = 0; i < 3; ++i)
		for (int j = 0; j < 3; ++j) {
			check_swapped(*all[i], lower, *all[j], upper);
			/* B above A: the normal leans up */
			sinew_manifold m = sinew_collide(all[i], lower, all[j], upper, SPEC);
			assert_true(m.normal.y > 0.5f);
		}
}

static void test_collide_capsule_on_box_swapped(void **state)
{
	(void)state;
	/* the lying capsule of test_polygon_capsule_lying as shape A: normal now points down */
	sinew_geometry ga = geo_capsule(capsule_of(-0.5f, 0, 0.5f, 0, 0.25f));
	sinew_geometry gb = geo_polygon(sinew_make_box(2.0f, 0.5f));
	sinew_transform xfa = make_xf(0.3f, 0.73f, 0), xfb = make_xf(0, 0, 0);
	sinew_manifold m = sinew_collide(&ga, xfa, &gb, xfb, SPEC);
	assert_int_equal(m.point_count, 2);
	CHECK_MANIFOLD(m, xfa, xfb);
	CHECK_NORMAL(m, 0, -1);
	CHECK_POINT(*point_near_x(&m, -0.2f), -0.2, 0.49, -0.02);
	CHECK_POINT(*point_near_x(&m, 0.8f), 0.8, 0.49, -0.02);
}

/* ---- constructors ---- */

static void test_make_box_layout(void **state)
{
	(void)state;
	/* counter-clockwise corners from (-hx,-hy); unit outward normals perpendicular to the edges */
	sinew_polygon p = sinew_make_offset_box(1.0f, 0.5f, sinew_v2(2, 3), 0.3f);
	assert_int_equal(p.count, 4);
	CLOSE(p.radius, 0.0);
	CLOSE(p.centroid.x, 2);
	CLOSE(p.centroid.y, 3);
	for (int i = 0; i < 4; ++i) {
		sinew_vec2 e = sinew_sub(p.vertices[(i + 1) % 4], p.vertices[i]);
		NEAR(sinew_dot(e, p.normals[i]), 0, 1e-6);
		NEAR(sinew_length(p.normals[i]), 1, 1e-6);
		assert_true(sinew_cross(e, p.normals[i]) < 0.0f); /* outward: to the right of a CCW edge */
		assert_true(sinew_dot(sinew_sub(p.vertices[i], p.centroid), p.normals[i]) > 0.0f);
	}
	/* corner 0 is (-1,-0.5) turned by 0.3 and moved to (2,3) */
	CLOSE(p.vertices[0].x, 2 - cos(0.3) + 0.5 * sin(0.3));
	CLOSE(p.vertices[0].y, 3 - sin(0.3) - 0.5 * cos(0.3));
}

static void test_make_capsule_godot(void **state)
{
	(void)state;
	/* height 3, radius 0.5: centres 1 from the middle along local y; turned 90 degrees local y
	 * is world -x, so center1 = (1,2) + (1,0), center2 = (1,2) - (1,0) */
	sinew_capsule c = sinew_make_capsule_godot(3.0f, 0.5f, sinew_v2(1, 2), 0.5f * SINEW_PI);
	CLOSE(c.radius, 0.5);
	CLOSE(c.center1.x, 2);
	CLOSE(c.center1.y, 2);
	CLOSE(c.center2.x, 0);
	CLOSE(c.center2.y, 2);
	/* shorter than its diameter: the centres coincide */
	c = sinew_make_capsule_godot(0.6f, 0.5f, sinew_v2(1, 2), 0.3f);
	CLOSE(c.center1.x, 1);
	CLOSE(c.center1.y, 2);
	CLOSE(c.center2.x, 1);
	CLOSE(c.center2.y, 2);
}

static int s_error_count;
static sinew_error s_last_error;
static void record_error(sinew_error code, const char *message, void *context)
{
	(void)message;
	(void)context;
	s_error_count += 1;
	s_last_error = code;
}

static void test_make_box_rejects_bad_input(void **state)
{
	(void)state;
	/* a bad box is reported and comes back empty; colliding an empty polygon finds nothing */
	s_error_count = 0;
	sinew_set_error_callback(record_error, NULL);
	sinew_polygon bad = sinew_make_box(-1.0f, 1.0f);
	sinew_polygon nan_box = sinew_make_box(NAN, 1.0f);
	sinew_set_error_callback(NULL, NULL);
	assert_int_equal(s_error_count, 2);
	assert_int_equal(s_last_error, SINEW_ERROR_INVALID_ARGUMENT);
	assert_int_equal(bad.count, 0);
	assert_int_equal(nan_box.count, 0);
	sinew_polygon good = sinew_make_box(1.0f, 1.0f);
	sinew_manifold m = sinew_collide_polygons(&bad, make_xf(0, 0, 0), &good, make_xf(0, 0, 0), SPEC);
	assert_int_equal(m.point_count, 0);
	sinew_mass_data md = sinew_compute_polygon_mass(&bad, 1.0f);
	CLOSE(md.mass, 0.0);
}

/* ---- mass ---- */

static void test_circle_mass(void **state)
{
	(void)state;
	/* m = rho pi r^2 = 2 pi 0.25; I = m r^2 / 2 about the centre */
	sinew_circle c = circle_at(1, 2, 0.5f);
	sinew_mass_data md = sinew_compute_circle_mass(&c, 2.0f);
	double m = 2.0 * PI_D * 0.25;
	CLOSE(md.mass, m);
	CLOSE(md.center.x, 1);
	CLOSE(md.center.y, 2);
	CLOSE(md.rotational_inertia, 0.5 * m * 0.25);
}

/* Capsule of length L, radius r: rectangle 2r x L plus two half discs (see shapes.c). */
static double capsule_inertia(double density, double length, double r)
{
	double rect = density * 2.0 * r * length, disc = density * PI_D * r * r;
	double rect_i = rect * (length * length + 4.0 * r * r) / 12.0;
	double d = 4.0 * r / (3.0 * PI_D); /* half-disc centroid from its flat side */
	/* half disc: r^2/2 about the flat side's middle; to its centroid -d^2; to the capsule centre
	 * +(L/2 + d)^2 */
	double half = 0.5 * disc * (0.5 * r * r - d * d + (0.5 * length + d) * (0.5 * length + d));
	return rect_i + 2.0 * half;
}

static void test_capsule_mass(void **state)
{
	(void)state;
	/* L = 2 along y centred at (1,0), r 0.5, density 3: m = 3 (2 * 0.5 * 2 + pi 0.25) */
	sinew_capsule c = capsule_of(1, -1, 1, 1, 0.5f);
	sinew_mass_data md = sinew_compute_capsule_mass(&c, 3.0f);
	CLOSE(md.mass, 3.0 * (2.0 + PI_D * 0.25));
	CLOSE(md.center.x, 1);
	CLOSE(md.center.y, 0);
	CLOSE(md.rotational_inertia, capsule_inertia(3.0, 2.0, 0.5));
	/* a zero-length capsule is a disc */
	sinew_capsule p = capsule_of(0, 0, 0, 0, 0.5f);
	md = sinew_compute_capsule_mass(&p, 3.0f);
	CLOSE(md.rotational_inertia, 0.5 * 3.0 * PI_D * 0.25 * 0.25);
}

static void test_box_mass(void **state)
{
	(void)state;
	/* 2 x 1 box, density 2: m = 4, I = m (w^2 + h^2) / 12 = 5/3 */
	sinew_polygon p = sinew_make_box(1.0f, 0.5f);
	sinew_mass_data md = sinew_compute_polygon_mass(&p, 2.0f);
	CLOSE(md.mass, 4.0);
	NEAR(md.center.x, 0, 1e-6);
	NEAR(md.center.y, 0, 1e-6);
	CLOSE(md.rotational_inertia, 5.0 / 3.0);
}

static void test_offset_box_mass(void **state)
{
	(void)state;
	/* moving and turning a box changes its centre only */
	sinew_polygon p = sinew_make_offset_box(1.0f, 0.5f, sinew_v2(1, 2), 0.3f);
	sinew_mass_data md = sinew_compute_polygon_mass(&p, 2.0f);
	CLOSE(md.mass, 4.0);
	CLOSE(md.center.x, 1);
	CLOSE(md.center.y, 2);
	CLOSE(md.rotational_inertia, 5.0 / 3.0);
}

/* Rounded box hx x hy by r: core, four side slabs, four quarter discs (which make one disc). */
static void rounded_box_mass(double rho, double hx, double hy, double r, double *mass, double *inertia)
{
	double w = 2 * hx, h = 2 * hy;
	double core_m = rho * w * h, core_i = core_m * (w * w + h * h) / 12.0;
	double tb_m = rho * w * r, tb_i = tb_m * (w * w + r * r) / 12.0 + tb_m * (hy + 0.5 * r) * (hy + 0.5 * r);
	double lr_m = rho * h * r, lr_i = lr_m * (h * h + r * r) / 12.0 + lr_m * (hx + 0.5 * r) * (hx + 0.5 * r);
	/* a quarter disc at corner v pointing outward: integral |v + p|^2 = A|v|^2 + 2 v.(A c) + A r^2/2,
	 * centroid c = (4r/3pi)(+-1, +-1) with the corner's signs */
	double qa = 0.25 * PI_D * r * r, d = 4.0 * r / (3.0 * PI_D);
	double q_i = rho * (qa * (hx * hx + hy * hy) + 2.0 * qa * d * (hx + hy) + qa * 0.5 * r * r);
	*mass = core_m + 2 * tb_m + 2 * lr_m + 4 * rho * qa;
	*inertia = core_i + 2 * tb_i + 2 * lr_i + 4 * q_i;
}

static void test_rounded_box_mass(void **state)
{
	(void)state;
	/* 1 x 0.5 core rounded by 0.1, density 2: area 0.5 + 0.1 * 3 + pi 0.01 */
	double m, inertia;
	rounded_box_mass(2.0, 0.5, 0.25, 0.1, &m, &inertia);
	CLOSE(m, 2.0 * (0.5 + 0.3 + PI_D * 0.01));
	sinew_polygon p = sinew_make_rounded_box(0.5f, 0.25f, sinew_v2(-1, 0.5f), 1.1f, 0.1f);
	sinew_mass_data md = sinew_compute_polygon_mass(&p, 2.0f);
	CLOSE(md.mass, m);
	CLOSE(md.center.x, -1);
	CLOSE(md.center.y, 0.5);
	CLOSE(md.rotational_inertia, inertia);
}

/* Numerical cross-check: mass and inertia of a region by summing a fine grid (double). */
typedef bool inside_fn(double x, double y, const void *shape);
static void grid_mass(inside_fn *inside, const void *shape, double x0, double y0, double x1, double y1,
                      double *mass, double *cx, double *cy, double *inertia)
{
	const int n = 1200;
	double dx = (x1 - x0) / n, dy = (y1 - y0) / n, a = 0, sx = 0, sy = 0, sxx = 0;
	for (int i = 0; i < n; ++i)
		for (int j = 0; j < n; ++j) {
			double x = x0 + (i + 0.5) * dx, y = y0 + (j + 0.5) * dy;
			if (!inside(x, y, shape)) continue;
			a += 1;
			sx += x;
			sy += y;
			sxx += x * x + y * y;
		}
	double cell = dx * dy;
	*mass = a * cell;
	*cx = sx / a;
	*cy = sy / a;
	*inertia = sxx * cell - *mass * (*cx * *cx + *cy * *cy);
}

static bool inside_rounded_box(double x, double y, const void *shape)
{
	const double *b = shape; /* hx, hy, r */
	double ex = fmax(fabs(x) - b[0], 0.0), ey = fmax(fabs(y) - b[1], 0.0);
	return ex * ex + ey * ey <= b[2] * b[2];
}

static bool inside_capsule(double x, double y, const void *shape)
{
	const double *c = shape; /* half length along x, r */
	double ex = fmax(fabs(x) - c[0], 0.0);
	return ex * ex + y * y <= c[1] * c[1];
}

static void test_mass_against_numerical_integration(void **state)
{
	(void)state;
	/* independent of the formulas above: a 1200 x 1200 grid, so ~1e-3 relative agreement */
	const double box[3] = {0.6, 0.3, 0.2}, cap[2] = {0.7, 0.3};
	double m, cx, cy, inertia;
	grid_mass(inside_rounded_box, box, -0.8, -0.5, 0.8, 0.5, &m, &cx, &cy, &inertia);
	sinew_polygon p = sinew_make_rounded_box(0.6f, 0.3f, sinew_v2(0, 0), 0, 0.2f);
	sinew_mass_data md = sinew_compute_polygon_mass(&p, 1.0f);
	NEAR(md.mass, m, 1e-3 * m);
	NEAR(md.rotational_inertia, inertia, 1e-3 * inertia);
	grid_mass(inside_capsule, cap, -1.0, -0.3, 1.0, 0.3, &m, &cx, &cy, &inertia);
	sinew_capsule c = capsule_of(-0.7f, 0, 0.7f, 0, 0.3f);
	md = sinew_compute_capsule_mass(&c, 1.0f);
	NEAR(md.mass, m, 1e-3 * m);
	NEAR(md.rotational_inertia, inertia, 1e-3 * inertia);
}

static void test_two_vertex_polygon_mass_is_capsule(void **state)
{
	(void)state;
	/* a two-vertex polygon rounded by r is a capsule: the polygon path (slabs + sectors) and the
	 * capsule formula are independent derivations and must agree */
	sinew_polygon p = {0};
	p.vertices[0] = sinew_v2(0.2f, -0.3f);
	p.vertices[1] = sinew_v2(1.0f, 0.3f);
	p.normals[0] = sinew_v2(0.6f, -0.8f);
	p.normals[1] = sinew_v2(-0.6f, 0.8f);
	p.radius = 0.25f;
	p.count = 2;
	sinew_capsule c = capsule_of(0.2f, -0.3f, 1.0f, 0.3f, 0.25f);
	sinew_mass_data mp = sinew_compute_polygon_mass(&p, 1.5f), mc = sinew_compute_capsule_mass(&c, 1.5f);
	CLOSE(mp.mass, mc.mass);
	CLOSE(mp.center.x, 0.6);
	CLOSE(mp.center.y, 0.0);
	CLOSE(mp.rotational_inertia, mc.rotational_inertia);
	CLOSE(mc.rotational_inertia, capsule_inertia(1.5, 1.0, 0.25));
	/* upright, where the cross product of the two opposite normals comes out as -0 */
	p.vertices[0] = sinew_v2(0, -1);
	p.vertices[1] = sinew_v2(0, 1);
	p.normals[0] = sinew_v2(1, 0);
	p.normals[1] = sinew_v2(-1, 0);
	mp = sinew_compute_polygon_mass(&p, 1.5f);
	CLOSE(mp.mass, 1.5 * (0.5 * 2.0 + PI_D * 0.0625));
	CLOSE(mp.rotational_inertia, capsule_inertia(1.5, 2.0, 0.25));
}

/* Trapezoid (0,0) (4,0) (2,2) (0,2): its centroid is not its vertex average. */
static sinew_polygon trapezoid(float radius)
{
	sinew_polygon p = {0};
	const float h = 0.70710678f;
	const sinew_vec2 v[4] = {{0, 0}, {4, 0}, {2, 2}, {0, 2}}, n[4] = {{0, -1}, {h, h}, {0, 1}, {-1, 0}};
	for (int i = 0; i < 4; ++i) {
		p.vertices[i] = v[i];
		p.normals[i] = n[i];
	}
	p.count = 4;
	p.radius = radius;
	p.centroid = sinew_v2(14.0f / 9.0f, 8.0f / 9.0f);
	return p;
}

static void test_trapezoid_mass(void **state)
{
	(void)state;
	/* square [0,2]^2 (area 4, centroid (1,1), polar moment about the origin 32/3) plus triangle
	 * (2,0) (4,0) (2,2) (area 2, centroid (8/3,2/3); about its centroid A (a^2+b^2+c^2)/36 = 8/9,
	 * about the origin 8/9 + 2 * 68/9 = 16). Area 6, centroid (14/9, 8/9),
	 * I = 80/3 - 6 (196 + 64)/81 = 200/27 */
	sinew_polygon p = trapezoid(0.0f);
	sinew_mass_data md = sinew_compute_polygon_mass(&p, 0.5f);
	CLOSE(md.mass, 3.0);
	CLOSE(md.center.x, 14.0 / 9.0);
	CLOSE(md.center.y, 8.0 / 9.0);
	CLOSE(md.rotational_inertia, 0.5 * 200.0 / 27.0);
}

static bool inside_rounded_trapezoid(double x, double y, const void *shape)
{
	const double r = *(const double *)shape;
	const double v[5][2] = {{0, 0}, {4, 0}, {2, 2}, {0, 2}, {0, 0}};
	bool inside = true;
	double best = 1e30;
	for (int i = 0; i < 4; ++i) {
		double ex = v[i + 1][0] - v[i][0], ey = v[i + 1][1] - v[i][1], px = x - v[i][0], py = y - v[i][1];
		if (ex * py - ey * px < 0) inside = false;
		double t = fmin(fmax((px * ex + py * ey) / (ex * ex + ey * ey), 0.0), 1.0);
		double dx = px - t * ex, dy = py - t * ey;
		best = fmin(best, dx * dx + dy * dy);
	}
	return inside || best <= r * r;
}

static void test_rounded_trapezoid_mass_numerical(void **state)
{
	(void)state;
	/* a rounded polygon with a 45 degree and a 135 degree corner, against a grid */
	const double r = 0.3;
	double m, cx, cy, inertia;
	grid_mass(inside_rounded_trapezoid, &r, -0.3, -0.3, 4.3, 2.3, &m, &cx, &cy, &inertia);
	sinew_polygon p = trapezoid((float)r);
	sinew_mass_data md = sinew_compute_polygon_mass(&p, 1.0f);
	CLOSE(md.mass, 6.0 + r * (4.0 + 2.0 + 2.0 + 2.0 * sqrt(2.0)) + PI_D * r * r); /* A + r P + pi r^2 */
	NEAR(md.mass, m, 1e-3 * m);
	NEAR(md.center.x, cx, 2e-3);
	NEAR(md.center.y, cy, 2e-3);
	NEAR(md.rotational_inertia, inertia, 1e-3 * inertia);
}

static void test_compute_mass_dispatch(void **state)
{
	(void)state;
	sinew_geometry g = geo_polygon(sinew_make_box(1.0f, 0.5f));
	sinew_mass_data md = sinew_compute_mass(&g, 2.0f);
	CLOSE(md.mass, 4.0);
	g = geo_circle(circle_at(0, 0, 1.0f));
	md = sinew_compute_mass(&g, 1.0f);
	CLOSE(md.mass, PI_D);
	g = geo_capsule(capsule_of(0, -1, 0, 1, 0.5f));
	md = sinew_compute_mass(&g, 3.0f);
	CLOSE(md.rotational_inertia, capsule_inertia(3.0, 2.0, 0.5));
}

static void test_combine_mass(void **state)
{
	(void)state;
	/* 1 kg at the origin (I 0.5) and 3 kg at (4,0) (I 1): centre (3,0);
	 * I = 0.5 + 1 * 3^2 + 1 + 3 * 1^2 = 13.5 */
	sinew_mass_data parts[2] = {{1.0f, {0, 0}, 0.5f}, {3.0f, {4, 0}, 1.0f}};
	sinew_mass_data md = sinew_combine_mass(parts, 2);
	CLOSE(md.mass, 4.0);
	CLOSE(md.center.x, 3.0);
	CLOSE(md.center.y, 0.0);
	CLOSE(md.rotational_inertia, 13.5);
	/* two offset boxes side by side are one 4 x 1 box: I = 8 (16 + 1) / 12 */
	sinew_polygon l = sinew_make_offset_box(1, 0.5f, sinew_v2(-1, 0), 0);
	sinew_polygon r = sinew_make_offset_box(1, 0.5f, sinew_v2(1, 0), 0);
	sinew_mass_data boxes[2] = {sinew_compute_polygon_mass(&l, 2.0f), sinew_compute_polygon_mass(&r, 2.0f)};
	md = sinew_combine_mass(boxes, 2);
	CLOSE(md.mass, 8.0);
	NEAR(md.center.x, 0.0, 1e-6);
	CLOSE(md.rotational_inertia, 8.0 * 17.0 / 12.0);
}

/* ---- bounding boxes and extents ---- */

static void test_aabb_rotated_box(void **state)
{
	(void)state;
	/* 2 x 1 box turned 30 degrees at (2,3): half widths cos30 + 0.5 sin30, sin30 + 0.5 cos30 */
	double c = cos(PI_D / 6), s = sin(PI_D / 6), ex = c + 0.5 * s, ey = s + 0.5 * c;
	sinew_polygon p = sinew_make_box(1.0f, 0.5f);
	sinew_aabb box = sinew_compute_polygon_aabb(&p, make_xf(2, 3, (float)(PI_D / 6)));
	CLOSE(box.lower.x, 2 - ex);
	CLOSE(box.upper.x, 2 + ex);
	CLOSE(box.lower.y, 3 - ey);
	CLOSE(box.upper.y, 3 + ey);
	/* rounded: grown by the radius */
	sinew_geometry g = geo_polygon(sinew_make_rounded_box(1.0f, 0.5f, sinew_v2(0, 0), 0, 0.25f));
	box = sinew_compute_aabb(&g, make_xf(2, 3, (float)(PI_D / 6)));
	CLOSE(box.lower.x, 2 - ex - 0.25);
	CLOSE(box.upper.y, 3 + ey + 0.25);
}

static void test_aabb_capsule_and_circle(void **state)
{
	(void)state;
	/* capsule (0,-1)-(0,1) r 0.5 turned 90 degrees at (1,1): centres (2,1) and (0,1) */
	sinew_capsule c = capsule_of(0, -1, 0, 1, 0.5f);
	sinew_aabb box = sinew_compute_capsule_aabb(&c, make_xf(1, 1, 0.5f * SINEW_PI));
	CLOSE(box.lower.x, -0.5);
	CLOSE(box.lower.y, 0.5);
	CLOSE(box.upper.x, 2.5);
	CLOSE(box.upper.y, 1.5);
	/* circle at local (1,0), turned 90 degrees at (1,1): centre (1,2) */
	sinew_geometry g = geo_circle(circle_at(1, 0, 0.25f));
	box = sinew_compute_aabb(&g, make_xf(1, 1, 0.5f * SINEW_PI));
	CLOSE(box.lower.x, 0.75);
	CLOSE(box.lower.y, 1.75);
	CLOSE(box.upper.x, 1.25);
	CLOSE(box.upper.y, 2.25);
}

static void test_geometry_extent(void **state)
{
	(void)state;
	sinew_geometry box = geo_polygon(sinew_make_rounded_box(0.3f, 0.4f, sinew_v2(0, 0), 0, 0.1f));
	CLOSE(sinew_geometry_extent(&box, sinew_v2(0, 0)), 0.5 + 0.1);
	sinew_geometry cap = geo_capsule(capsule_of(-1, 0, 1, 0, 0.5f));
	CLOSE(sinew_geometry_extent(&cap, sinew_v2(0.5f, 0)), 1.5 + 0.5);
	sinew_geometry circle = geo_circle(circle_at(0.3f, 0.4f, 0.5f));
	CLOSE(sinew_geometry_extent(&circle, sinew_v2(0, 0)), 1.0);
}

/* ---- the separation floor (collision/separation.h) ---- */

/* A thin triangle, counter-clockwise: its sharp tip leaves directions 80 degrees from any face
 * normal, where a bound from the distance between centres alone would be far too high. */
static sinew_polygon thin_triangle(void)
{
	sinew_polygon p;
	memset(&p, 0, sizeof p);
	p.count = 3;
	p.vertices[0] = sinew_v2(-0.1f, -0.2f);
	p.vertices[1] = sinew_v2(0.1f, -0.2f);
	p.vertices[2] = sinew_v2(0.0f, 1.0f);
	for (int i = 0; i < 3; ++i) {
		sinew_vec2 e = sinew_sub(p.vertices[(i + 1) % 3], p.vertices[i]);
		p.normals[i] = sinew_normalize(sinew_v2(e.y, -e.x));
	}
	p.centroid = sinew_v2(0.0f, 0.2f);
	return p;
}

static uint32_t floor_random(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

static float floor_uniform(uint32_t *s, float lo, float hi)
{
	return lo + (hi - lo) * (float)(floor_random(s) & 0xffff) / 65535.0f;
}

/* sinew_compute_polygon_aabb (SSE2 where the CPU has it) is, bit for bit, the box of the vertices
 * each moved by sinew_transform_point, taken vertex by vertex with sinew_vmin/sinew_vmax, grown by
 * the radius: random polygons of 1 to 8 vertices and random poses, with zeros of both signs among
 * the coordinates and the pose (the order of a min of -0 and +0 shows in the sign). */
static void test_aabb_polygon_is_its_vertices_box(void **state)
{
	(void)state;
	uint32_t seed = 12345u;
	const float zeros[2] = {0.0f, -0.0f};
	for (int round = 0; round < 20000; ++round) {
		sinew_polygon p;
		memset(&p, 0, sizeof p);
		p.count = 1 + (int)(floor_random(&seed) % SINEW_MAX_POLYGON_VERTICES);
		for (int i = 0; i < p.count; ++i) {
			bool zero = floor_random(&seed) % 4 == 0;
			p.vertices[i].x = zero ? zeros[floor_random(&seed) % 2] : floor_uniform(&seed, -3.0f, 3.0f);
			p.vertices[i].y = floor_random(&seed) % 4 == 0 ? zeros[floor_random(&seed) % 2] : floor_uniform(&seed, -3.0f, 3.0f);
		}
		p.radius = floor_random(&seed) % 2 ? 0.0f : floor_uniform(&seed, 0.0f, 0.5f);
		sinew_transform xf;
		bool still = floor_random(&seed) % 4 == 0; /* no turn: the products keep the zeros' signs */
		xf.q = still ? (sinew_rot){1.0f, zeros[floor_random(&seed) % 2]} : sinew_make_rot(floor_uniform(&seed, -4.0f, 4.0f));
		xf.p.x = floor_random(&seed) % 3 == 0 ? zeros[floor_random(&seed) % 2] : floor_uniform(&seed, -50.0f, 50.0f);
		xf.p.y = floor_random(&seed) % 3 == 0 ? zeros[floor_random(&seed) % 2] : floor_uniform(&seed, -50.0f, 50.0f);
		sinew_vec2 v = sinew_transform_point(xf, p.vertices[0]);
		sinew_aabb want = {v, v};
		for (int i = 1; i < p.count; ++i) {
			v = sinew_transform_point(xf, p.vertices[i]);
			want.lower = sinew_vmin(want.lower, v);
			want.upper = sinew_vmax(want.upper, v);
		}
		sinew_vec2 r = {p.radius, p.radius};
		want.lower = sinew_sub(want.lower, r);
		want.upper = sinew_add(want.upper, r);
		sinew_aabb got = sinew_compute_polygon_aabb(&p, xf);
		if (memcmp(&got, &want, sizeof got) != 0)
			fail_msg("round %d, %d vertices: (%a %a %a %a), want (%a %a %a %a)", round, p.count, (double)got.lower.x,
			         (double)got.lower.y, (double)got.upper.x, (double)got.upper.y, (double)want.lower.x,
			         (double)want.lower.y, (double)want.upper.x, (double)want.upper.y);
	}
}

/* Every point the narrowphase reports for random poses of every pair of seven shapes (boxes, one
 * far from its body's origin, a rounded box, a thin triangle, a capsule, a circle) is at least the
 * floor apart, so where the floor is beyond the speculative distance there is no point; and the
 * floor does say so for a good part of the pairs that have none (it is not a floor of minus
 * infinity). sinew_pair_beyond_reach (the faces' test for pairs with a polygon) never rules out a
 * pair that has a point, and rules out more of those that have none than the floor does. */
static void test_separation_floor_is_under_every_point(void **state)
{
	(void)state;
	sinew_geometry shapes[7];
	memset(shapes, 0, sizeof shapes);
	shapes[0].type = SINEW_SHAPE_POLYGON;
	shapes[0].u.polygon = sinew_make_box(0.5f, 0.5f);
	shapes[1].type = SINEW_SHAPE_POLYGON;
	shapes[1].u.polygon = sinew_make_offset_box(0.8f, 0.1f, sinew_v2(0.3f, -0.2f), 0.4f);
	shapes[2].type = SINEW_SHAPE_POLYGON;
	shapes[2].u.polygon = sinew_make_rounded_box(0.3f, 0.2f, sinew_v2(0.0f, 0.0f), 0.0f, 0.1f);
	shapes[3].type = SINEW_SHAPE_POLYGON;
	shapes[3].u.polygon = thin_triangle();
	shapes[4].type = SINEW_SHAPE_CAPSULE;
	shapes[4].u.capsule.center1 = sinew_v2(-0.6f, 0.0f);
	shapes[4].u.capsule.center2 = sinew_v2(0.6f, 0.1f);
	shapes[4].u.capsule.radius = 0.15f;
	shapes[5].type = SINEW_SHAPE_CIRCLE;
	shapes[5].u.circle.center = sinew_v2(0.1f, 0.0f);
	shapes[5].u.circle.radius = 0.3f;
	shapes[6].type = SINEW_SHAPE_POLYGON;
	shapes[6].u.polygon = sinew_make_offset_box(0.5f, 3.0f, sinew_v2(4.0f, 1.0f), 0.3f);
	sinew_separation_bound bounds[7];
	for (int i = 0; i < 7; ++i) bounds[i] = sinew_make_separation_bound(&shapes[i]);
	uint32_t seed = 7;
	int points = 0, empty = 0, ruled_out = 0, beyond = 0;
	for (int n = 0; n < 40000; ++n) {
		int i = (int)(floor_random(&seed) % 7), j = (int)(floor_random(&seed) % 7);
		sinew_transform xa = make_xf(floor_uniform(&seed, -2.0f, 2.0f), floor_uniform(&seed, -2.0f, 2.0f),
		                             floor_uniform(&seed, -3.2f, 3.2f));
		sinew_transform xb = make_xf(floor_uniform(&seed, -2.0f, 2.0f), floor_uniform(&seed, -2.0f, 2.0f),
		                             floor_uniform(&seed, -3.2f, 3.2f));
		if (i == 6 || j == 6) { /* the far box's body reaches its wall from anywhere */
			sinew_transform *x = i == 6 ? &xa : &xb;
			x->p = sinew_sub(x->p, sinew_rotate(x->q, sinew_v2(4.0f, 1.0f)));
		}
		float floor = sinew_separation_floor(&bounds[i], xa, &bounds[j], xb);
		bool apart = sinew_pair_beyond_reach(&shapes[i], &bounds[i], xa, &shapes[j], &bounds[j], xb, SPEC);
		sinew_manifold m = sinew_collide(&shapes[i], xa, &shapes[j], xb, SPEC);
		if (apart && m.point_count > 0)
			fail_msg("shapes %d, %d: ruled out by the faces with %d points", i, j, m.point_count);
		for (int k = 0; k < m.point_count; ++k) {
			if (m.points[k].separation < floor)
				fail_msg("shapes %d, %d: a point %g apart under the floor %g", i, j, (double)m.points[k].separation,
				         (double)floor);
			points += 1;
		}
		if (m.point_count == 0) {
			empty += 1;
			ruled_out += floor > SPEC;
			beyond += apart;
		}
	}
	printf("separation floor: %d points above it; it rules out %d of %d pairs without points, the faces %d\n", points,
	       ruled_out, empty, beyond);
	assert_true(points > 5000);
	assert_true(ruled_out > empty / 4);
	assert_true(beyond > ruled_out + empty / 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_circles_beyond_speculative),
		cmocka_unit_test(test_circles_within_speculative),
		cmocka_unit_test(test_circles_touching),
		cmocka_unit_test(test_circles_overlapping),
		cmocka_unit_test(test_circles_rotated_local_centres),
		cmocka_unit_test(test_circles_coincident_centres),
		cmocka_unit_test(test_capsule_circle_side),
		cmocka_unit_test(test_capsule_circle_beyond_end),
		cmocka_unit_test(test_capsule_circle_rotated_godot),
		cmocka_unit_test(test_capsule_circle_zero_length),
		cmocka_unit_test(test_capsule_circle_centre_on_axis),
		cmocka_unit_test(test_capsules_parallel_two_points),
		cmocka_unit_test(test_capsules_nearly_parallel),
		cmocka_unit_test(test_capsules_crossed),
		cmocka_unit_test(test_capsules_cores_crossing),
		cmocka_unit_test(test_capsules_end_to_end),
		cmocka_unit_test(test_capsules_zero_length),
		cmocka_unit_test(test_capsules_rotated_pair),
		cmocka_unit_test(test_polygon_circle_face),
		cmocka_unit_test(test_polygon_circle_corner),
		cmocka_unit_test(test_polygon_circle_centre_inside),
		cmocka_unit_test(test_polygon_circle_rotated_vertex),
		cmocka_unit_test(test_rounded_polygon_circle),
		cmocka_unit_test(test_polygon_capsule_lying),
		cmocka_unit_test(test_polygon_capsule_over_edge),
		cmocka_unit_test(test_polygon_capsule_upright),
		cmocka_unit_test(test_polygon_capsule_zero_length),
		cmocka_unit_test(test_polygon_capsule_end_on_corner),
		cmocka_unit_test(test_boxes_face_to_face),
		cmocka_unit_test(test_boxes_offset_sideways),
		cmocka_unit_test(test_boxes_separated),
		cmocka_unit_test(test_boxes_touching_side),
		cmocka_unit_test(test_boxes_rotated_pair),
		cmocka_unit_test(test_box_corner_into_face),
		cmocka_unit_test(test_face_of_b_as_reference),
		cmocka_unit_test(test_rounded_boxes_face_to_face),
		cmocka_unit_test(test_rounded_boxes_corner_to_corner),
		cmocka_unit_test(test_boxes_coincident),
		cmocka_unit_test(test_feature_ids_stable_while_sliding),
		cmocka_unit_test(test_reference_face_prefers_a_when_nearly_equal),
		cmocka_unit_test(test_collide_dispatch_circle_first),
		cmocka_unit_test(test_collide_dispatch_every_pair),
		cmocka_unit_test(test_collide_capsule_on_box_swapped),
		cmocka_unit_test(test_make_box_layout),
		cmocka_unit_test(test_make_capsule_godot),
		cmocka_unit_test(test_make_box_rejects_bad_input),
		cmocka_unit_test(test_circle_mass),
		cmocka_unit_test(test_capsule_mass),
		cmocka_unit_test(test_box_mass),
		cmocka_unit_test(test_offset_box_mass),
		cmocka_unit_test(test_rounded_box_mass),
		cmocka_unit_test(test_mass_against_numerical_integration),
		cmocka_unit_test(test_two_vertex_polygon_mass_is_capsule),
		cmocka_unit_test(test_trapezoid_mass),
		cmocka_unit_test(test_rounded_trapezoid_mass_numerical),
		cmocka_unit_test(test_compute_mass_dispatch),
		cmocka_unit_test(test_combine_mass),
		cmocka_unit_test(test_aabb_rotated_box),
		cmocka_unit_test(test_aabb_capsule_and_circle),
		cmocka_unit_test(test_aabb_polygon_is_its_vertices_box),
		cmocka_unit_test(test_geometry_extent),
		cmocka_unit_test(test_separation_floor_is_under_every_point),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
