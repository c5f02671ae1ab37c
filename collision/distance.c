/* Distance and closest points between two shapes: GJK on the cores, then the radii.
 *
 * Method. Every shape is a convex core (1 point, 2 points or a convex polygon) grown by a radius,
 * so the gap between two shapes is the distance between their cores minus both radii. The cores'
 * distance is the distance from the origin to their Minkowski difference B - A, which GJK finds
 * without building it. It keeps a simplex (a point, a segment or a triangle) of difference points
 * w = b - a, reduces it to the smallest sub-simplex holding the point nearest the origin (with
 * barycentric weights, by Voronoi regions), and asks each core for its extreme point towards the
 * origin. It stops when
 *   - the triangle contains the origin, or the origin lies on the simplex: the cores overlap/touch;
 *   - the new support pair is already in the simplex: no further progress, the nearest point is
 *     final (exact for polygons, whose supports are vertices);
 *   - the iteration limit is reached (a guard against cycling in floats; never hit in the tests).
 * The weights then give the witness point on each core. The work is done in A's frame, so shapes
 * far from the world origin keep their precision; supports break ties by the lowest index, so the
 * answer is deterministic. */
#include "core.h"

#include "sinew/collision.h"

#include <float.h>

#define GJK_MAX_ITERATIONS 32

typedef struct gjk_vertex {
	sinew_vec2 wa, wb, w; /* a point of A's core, of B's core, and w = wb - wa */
	float weight;         /* barycentric weight in the nearest point */
	int ia, ib;           /* the points' indices, to detect repeats */
} gjk_vertex;

typedef struct gjk_simplex {
	gjk_vertex v[3];
	int count;
} gjk_simplex;

static float clean_radius(float r)
{
	return r > 0.0f && sinew_is_finite(r) ? r : 0.0f;
}

sinew_shape_proxy sinew_make_proxy(const sinew_geometry *geometry)
{
	if (sinew_reject_null(geometry == NULL, "sinew_make_proxy")) return (sinew_shape_proxy){0};
	sinew_shape_proxy p;
	for (int i = 0; i < SINEW_MAX_POLYGON_VERTICES; ++i) p.points[i] = sinew_v2(0.0f, 0.0f);
	p.count = 1;
	p.radius = 0.0f;
	if (geometry == NULL) return p;
	switch (geometry->type) {
	case SINEW_SHAPE_CIRCLE:
		p.points[0] = geometry->u.circle.center;
		p.radius = clean_radius(geometry->u.circle.radius);
		return p;
	case SINEW_SHAPE_CAPSULE: {
		const sinew_capsule *c = &geometry->u.capsule;
		p.points[0] = c->center1;
		p.points[1] = c->center2;
		p.count = c->center1.x == c->center2.x && c->center1.y == c->center2.y ? 1 : 2;
		p.radius = clean_radius(c->radius);
		return p;
	}
	case SINEW_SHAPE_POLYGON: {
		const sinew_polygon *poly = &geometry->u.polygon;
		int n = poly->count > SINEW_MAX_POLYGON_VERTICES ? SINEW_MAX_POLYGON_VERTICES : poly->count;
		for (int i = 0; i < n; ++i) p.points[i] = poly->vertices[i];
		p.count = n >= 1 ? n : 1;
		p.radius = clean_radius(poly->radius);
		return p;
	}
	case SINEW_SHAPE_TYPE_COUNT:
		break;
	}
	return p;
}

/* Index of the point farthest along d (the first of equals). */
static int support(const sinew_vec2 *points, int count, sinew_vec2 d)
{
	int best = 0;
	float best_value = sinew_dot(points[0], d);
	for (int i = 1; i < count; ++i) {
		float value = sinew_dot(points[i], d);
		if (value > best_value) {
			best_value = value;
			best = i;
		}
	}
	return best;
}

static gjk_vertex make_vertex(const sinew_vec2 *a, int ia, const sinew_vec2 *b, int ib)
{
	gjk_vertex v;
	v.wa = a[ia];
	v.wb = b[ib];
	v.w = sinew_sub(v.wb, v.wa);
	v.weight = 1.0f;
	v.ia = ia;
	v.ib = ib;
	return v;
}

/* Segment w1-w2: keep the vertex or the segment nearest the origin. */
static void solve_segment(gjk_simplex *s)
{
	sinew_vec2 w1 = s->v[0].w, w2 = s->v[1].w, e12 = sinew_sub(w2, w1);
	float d12_2 = -sinew_dot(w1, e12); /* weight of w2, unnormalised */
	float d12_1 = sinew_dot(w2, e12);  /* weight of w1, unnormalised */
	if (d12_2 <= 0.0f) {
		s->v[0].weight = 1.0f;
		s->count = 1;
	} else if (d12_1 <= 0.0f) {
		s->v[0] = s->v[1];
		s->v[0].weight = 1.0f;
		s->count = 1;
	} else {
		float inv = 1.0f / (d12_1 + d12_2);
		s->v[0].weight = d12_1 * inv;
		s->v[1].weight = d12_2 * inv;
		s->count = 2;
	}
}

static void keep_one(gjk_simplex *s, int i)
{
	s->v[0] = s->v[i];
	s->v[0].weight = 1.0f;
	s->count = 1;
}

static void keep_two(gjk_simplex *s, int i, int j, float wi, float wj)
{
	gjk_vertex vi = s->v[i], vj = s->v[j];
	float inv = 1.0f / (wi + wj);
	s->v[0] = vi;
	s->v[1] = vj;
	s->v[0].weight = wi * inv;
	s->v[1].weight = wj * inv;
	s->count = 2;
}

/* Triangle w1-w2-w3: the Voronoi region of the origin picks a vertex, an edge or the inside. */
static void solve_triangle(gjk_simplex *s)
{
	sinew_vec2 w1 = s->v[0].w, w2 = s->v[1].w, w3 = s->v[2].w;
	sinew_vec2 e12 = sinew_sub(w2, w1), e13 = sinew_sub(w3, w1), e23 = sinew_sub(w3, w2);
	float d12_1 = sinew_dot(w2, e12), d12_2 = -sinew_dot(w1, e12);
	float d13_1 = sinew_dot(w3, e13), d13_2 = -sinew_dot(w1, e13);
	float d23_1 = sinew_dot(w3, e23), d23_2 = -sinew_dot(w2, e23);
	float n123 = sinew_cross(e12, e13);
	float d123_1 = n123 * sinew_cross(w2, w3), d123_2 = n123 * sinew_cross(w3, w1);
	float d123_3 = n123 * sinew_cross(w1, w2);

	if (d12_2 <= 0.0f && d13_2 <= 0.0f) {
		keep_one(s, 0);
	} else if (d12_1 > 0.0f && d12_2 > 0.0f && d123_3 <= 0.0f) {
		keep_two(s, 0, 1, d12_1, d12_2);
	} else if (d13_1 > 0.0f && d13_2 > 0.0f && d123_2 <= 0.0f) {
		keep_two(s, 0, 2, d13_1, d13_2);
	} else if (d12_1 <= 0.0f && d23_2 <= 0.0f) {
		keep_one(s, 1);
	} else if (d13_1 <= 0.0f && d23_1 <= 0.0f) {
		keep_one(s, 2);
	} else if (d23_1 > 0.0f && d23_2 > 0.0f && d123_1 <= 0.0f) {
		keep_two(s, 1, 2, d23_1, d23_2);
	} else if (d123_1 + d123_2 + d123_3 > 0.0f) {
		float inv = 1.0f / (d123_1 + d123_2 + d123_3);
		s->v[0].weight = d123_1 * inv;
		s->v[1].weight = d123_2 * inv;
		s->v[2].weight = d123_3 * inv;
		s->count = 3;
	} else {
		/* Unreachable in exact arithmetic; in floats keep the vertex nearest the origin. */
		int best = 0;
		for (int i = 1; i < 3; ++i)
			if (sinew_length_squared(s->v[i].w) < sinew_length_squared(s->v[best].w)) best = i;
		keep_one(s, best);
	}
}

/* Direction from the simplex towards the origin; zero when the origin is on the simplex. For a
 * segment the perpendicular is more accurate than the negated nearest point. */
static sinew_vec2 search_direction(const gjk_simplex *s)
{
	if (s->count == 1) return sinew_neg(s->v[0].w);
	sinew_vec2 e12 = sinew_sub(s->v[1].w, s->v[0].w);
	float side = sinew_cross(e12, sinew_neg(s->v[0].w));
	if (side > 0.0f) return sinew_left_perp(e12);
	if (side < 0.0f) return sinew_right_perp(e12);
	return sinew_v2(0.0f, 0.0f);
}

typedef struct gjk_result {
	sinew_vec2 pa, pb; /* witness points on the cores (A's frame) */
	sinew_vec2 normal; /* unit, from A's core to B's (A's frame); zero on overlap */
	bool overlap;      /* the cores overlap or touch */
	int iterations;
} gjk_result;

static bool in_simplex(const gjk_simplex *s, int ia, int ib)
{
	for (int i = 0; i < s->count; ++i)
		if (s->v[i].ia == ia && s->v[i].ib == ib) return true;
	return false;
}

static gjk_result run_gjk(const sinew_vec2 *a, int na, const sinew_vec2 *b, int nb)
{
	gjk_simplex s;
	s.v[0] = make_vertex(a, 0, b, 0);
	s.count = 1;
	gjk_result r = {{0.0f, 0.0f}, {0.0f, 0.0f}, {0.0f, 0.0f}, false, 0};
	while (r.iterations < GJK_MAX_ITERATIONS) {
		gjk_simplex before = s;
		if (s.count == 2) solve_segment(&s);
		if (s.count == 3) solve_triangle(&s);
		if (s.count == 3) {
			r.overlap = true;
			break;
		}
		sinew_vec2 d = search_direction(&s);
		if (d.x == 0.0f && d.y == 0.0f) {
			r.overlap = true;
			break;
		}
		r.iterations += 1;
		int ia = support(a, na, sinew_neg(d)), ib = support(b, nb, d);
		if (in_simplex(&before, ia, ib)) break;
		s.v[s.count] = make_vertex(a, ia, b, ib);
		s.count += 1;
	}
	for (int i = 0; i < s.count; ++i) {
		r.pa = sinew_mul_add(r.pa, s.v[i].weight, s.v[i].wa);
		r.pb = sinew_mul_add(r.pb, s.v[i].weight, s.v[i].wb);
	}
	if (s.count == 3 || r.overlap) {
		r.pb = s.count == 3 ? r.pa : r.pb; /* the same point, in both cores */
		return r;
	}
	/* A segment's normal is the exact face normal; the witness difference is noisy when small. */
	if (s.count == 2) {
		sinew_vec2 n = sinew_normalize(sinew_left_perp(sinew_sub(s.v[1].w, s.v[0].w)));
		r.normal = sinew_dot(n, s.v[0].w) < 0.0f ? sinew_neg(n) : n;
	} else {
		r.normal = sinew_normalize(s.v[0].w);
	}
	return r;
}

static bool transform_is_valid(sinew_transform xf)
{
	return sinew_vec2_is_valid(xf.p) && sinew_is_finite(xf.q.c) && sinew_is_finite(xf.q.s);
}

static bool proxy_is_valid(const sinew_shape_proxy *p)
{
	if (p->count < 1 || p->count > SINEW_MAX_POLYGON_VERTICES || !sinew_is_finite(p->radius)) return false;
	for (int i = 0; i < p->count; ++i)
		if (!sinew_vec2_is_valid(p->points[i])) return false;
	return true;
}

sinew_distance_output sinew_proxy_distance(const sinew_shape_proxy *a, sinew_transform xfa,
                                           const sinew_shape_proxy *b, sinew_transform xfb)
{
	sinew_distance_output out = {{0.0f, 0.0f}, {0.0f, 0.0f}, {0.0f, 0.0f}, 0.0f, 0};
	if (a == NULL || b == NULL || !proxy_is_valid(a) || !proxy_is_valid(b) || !transform_is_valid(xfa) ||
	    !transform_is_valid(xfb)) {
		sinew_report(NULL, NULL, SINEW_ERROR_INVALID_ARGUMENT,
		             "sinew_proxy_distance: proxies need 1..%d finite points and transforms must be finite",
		             SINEW_MAX_POLYGON_VERTICES);
		return out;
	}
	sinew_transform xf = sinew_inv_mul_transforms(xfa, xfb);
	sinew_vec2 pb_local[SINEW_MAX_POLYGON_VERTICES];
	for (int i = 0; i < b->count; ++i) pb_local[i] = sinew_transform_point(xf, b->points[i]);

	gjk_result g = run_gjk(a->points, a->count, pb_local, b->count);
	out.iterations = g.iterations;
	float ra = sinew_maxf(a->radius, 0.0f), rb = sinew_maxf(b->radius, 0.0f);
	sinew_vec2 n = g.normal;
	float core = n.x == 0.0f && n.y == 0.0f ? 0.0f : sinew_distance(g.pa, g.pb);
	sinew_vec2 pa = g.pa, pb = g.pb;
	if (core > 0.0f && core >= ra + rb) {
		out.distance = core - ra - rb;
		pa = sinew_mul_add(pa, ra, n);
		pb = sinew_mul_sub(pb, rb, n);
	}
	out.point_a = sinew_transform_point(xfa, pa);
	out.point_b = sinew_transform_point(xfa, pb);
	out.normal = sinew_rotate(xfa.q, n);
	return out;
}

sinew_distance_output sinew_shape_distance(const sinew_geometry *a, sinew_transform xfa, const sinew_geometry *b,
                                           sinew_transform xfb)
{
	if (a == NULL || b == NULL) {
		sinew_distance_output none = {{0.0f, 0.0f}, {0.0f, 0.0f}, {0.0f, 0.0f}, 0.0f, 0};
		sinew_report(NULL, NULL, SINEW_ERROR_INVALID_ARGUMENT, "sinew_shape_distance: a shape is NULL");
		return none;
	}
	sinew_shape_proxy pa = sinew_make_proxy(a), pb = sinew_make_proxy(b);
	return sinew_proxy_distance(&pa, xfa, &pb, xfb);
}
