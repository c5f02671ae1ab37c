/* Narrowphase: contact manifolds for every pair of shape types.
 *
 * Method. Every shape is a convex core plus a radius: a circle is a point, a capsule a segment, a
 * polygon its vertices (radius 0, or the rounding of a rounded box). Each pair is solved in A's
 * local frame (B is brought into it), and the result is turned into world space at the end.
 *
 * - Point cores (circle-circle, capsule-circle, polygon-circle): find the closest point of A's
 *   core to B's centre (segment projection; for a polygon the face of largest separation and, when
 *   the centre is beyond one of its ends, that vertex). The normal runs from that point to the
 *   centre; when they coincide a fixed fallback is used (world up for circles, the face normal for
 *   a polygon, the segment's perpendicular for a capsule), so there is never a NaN.
 * - Capsule-capsule: closest points of the two segments. When the segments are nearly parallel
 *   and overlap along A's axis, B's segment is clipped to A's extent and both clipped ends become
 *   points with A's perpendicular as normal, so a capsule lying on a capsule rests on two points.
 *   When the segments cross (an X), the shortest way out of their Minkowski parallelogram gives
 *   the normal and the whole depth.
 * - Polygon-polygon and polygon-capsule (the capsule as a two-vertex rounded polygon): the
 *   separating axis test finds, for each polygon, the face whose separation from the other core is
 *   largest. The better face becomes the reference; B's face is preferred only when it is better
 *   by a relative tolerance, so nearly equal faces do not take turns from step to step. The
 *   incident edge is the other polygon's edge most opposed to the reference normal; it is clipped
 *   to the reference edge's extent, and each clipped end gives a point whose separation is its
 *   height above the reference face minus both radii. When the cores are apart and their closest
 *   features are two vertices (corner facing corner), a single point along the vertex-to-vertex
 *   direction is used instead, which is exact for rounded corners.
 *
 * Points lie midway between the two surfaces. Feature ids: clipped points carry the reference
 * edge (bit 7 set when B holds it) and the incident vertex the point came from, so they stay put
 * while one box slides on another; capsule-capsule side points are numbered along B; single
 * points of round features use 0. Points farther apart than the speculative distance are dropped. */
#include "core.h"
#include "separation.h"

#include "sinew/collision.h"

#include <float.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define FLIP_BIT 0x80
#define VERTEX_PAIR_BIT 0x40
/* |sin| of the largest angle between capsule axes that still counts as lying side by side */
#define CAPSULE_PARALLEL_SIN 0.1f
/* linear tolerances, relative to the size of the smaller shape */
#define RELATIVE_TOLERANCE 1.0e-3f

static sinew_manifold empty_manifold(void)
{
	sinew_manifold m = {0};
	return m;
}

/* Adds a point (A-local) unless it is beyond the speculative distance. */
static void add_point(sinew_manifold *m, sinew_vec2 point, float separation, uint16_t id, float speculative)
{
	if (separation > speculative || m->point_count >= 2) return;
	sinew_manifold_point *mp = &m->points[m->point_count++];
	mp->point = point;
	mp->separation = separation;
	mp->id = id;
}

/* Contact between the core point pa of A and the core point pb of B along unit normal n, where
 * the cores are dist apart along n: the point lies midway between the surfaces. */
static void add_core_contact(sinew_manifold *m, sinew_vec2 pa, sinew_vec2 n, float dist, float ra, float rb,
                             uint16_t id, float speculative)
{
	float separation = dist - ra - rb;
	add_point(m, sinew_mul_add(pa, ra + 0.5f * separation, n), separation, id, speculative);
}

/* Converts a manifold built in A's local frame to world space and fills the anchors, in place (m
 * started as the zero manifold; with no point it is that again). */
static void to_world_in_place(sinew_manifold *m, sinew_transform xfa, sinew_transform xfb)
{
	if (m->point_count == 0) {
		m->normal = sinew_v2(0.0f, 0.0f);
		return;
	}
	m->normal = sinew_rotate(xfa.q, m->normal);
	sinew_vec2 between = sinew_sub(xfa.p, xfb.p);
	for (int i = 0; i < m->point_count; ++i) {
		sinew_manifold_point *mp = &m->points[i];
		mp->anchor_a = sinew_rotate(xfa.q, mp->point);
		mp->anchor_b = sinew_add(mp->anchor_a, between);
		mp->point = sinew_add(xfa.p, mp->anchor_a);
	}
}

/* to_world_in_place of a manifold passed by value; with no point, the zero manifold whatever m held. */
static sinew_manifold to_world(sinew_manifold m, sinew_transform xfa, sinew_transform xfb)
{
	if (m.point_count == 0) return empty_manifold();
	to_world_in_place(&m, xfa, xfb);
	return m;
}

/* Two discs (core points with radii) in A's frame; fallback is the normal when the centres meet. */
static sinew_manifold disc_contact(sinew_vec2 pa, float ra, sinew_vec2 pb, float rb, sinew_vec2 fallback,
                                   float speculative)
{
	sinew_manifold m = empty_manifold();
	float dist;
	sinew_vec2 n = sinew_get_length_and_normalize(&dist, sinew_sub(pb, pa));
	if (n.x == 0.0f && n.y == 0.0f) n = fallback;
	m.normal = n;
	add_core_contact(&m, pa, n, dist, ra, rb, 0, speculative);
	return m;
}

static sinew_vec2 world_up_in(sinew_transform xf)
{
	return sinew_inv_rotate(xf.q, sinew_v2(0.0f, 1.0f));
}

sinew_manifold sinew_collide_circles(const sinew_circle *a, sinew_transform xfa, const sinew_circle *b,
                                     sinew_transform xfb, float speculative_distance)
{
	if (sinew_reject_null(a == NULL || b == NULL, "sinew_collide_circles")) return (sinew_manifold){0};
	sinew_vec2 pb = sinew_transform_point(sinew_inv_mul_transforms(xfa, xfb), b->center);
	sinew_manifold m = disc_contact(a->center, a->radius, pb, b->radius, world_up_in(xfa), speculative_distance);
	return to_world(m, xfa, xfb);
}

/* ---- segments ---- */

static sinew_vec2 closest_on_segment(sinew_vec2 p1, sinew_vec2 p2, sinew_vec2 q)
{
	sinew_vec2 d = sinew_sub(p2, p1);
	float dd = sinew_dot(d, d);
	if (dd <= 0.0f) return p1;
	return sinew_mul_add(p1, sinew_clampf(sinew_dot(sinew_sub(q, p1), d) / dd, 0.0f, 1.0f), d);
}

/* Closest points of segments a1-a2 and b1-b2: fractions s (along a) and t (along b) in [0, 1]. */
typedef struct sinew_segment_pair {
	sinew_vec2 pa, pb;
	float s, t;
} sinew_segment_pair;

static bool is_tiny(float length_squared, float scale_squared)
{
	return length_squared <= 1.0e-12f * scale_squared || length_squared < FLT_MIN;
}

/* Minimise |a1 + s d1 - b1 - t d2|^2 over the unit square: the unconstrained s for the infinite
 * lines, clamped; t for that s, clamped; and if t had to clamp, s again for that end of b. */
static sinew_segment_pair closest_between_segments(sinew_vec2 a1, sinew_vec2 a2, sinew_vec2 b1, sinew_vec2 b2)
{
	sinew_vec2 d1 = sinew_sub(a2, a1), d2 = sinew_sub(b2, b1), r = sinew_sub(a1, b1);
	float aa = sinew_dot(d1, d1), ee = sinew_dot(d2, d2), f = sinew_dot(d2, r), c = sinew_dot(d1, r);
	float scale = aa + ee + sinew_dot(r, r);
	float s = 0.0f, t = 0.0f;
	if (is_tiny(aa, scale)) {
		t = is_tiny(ee, scale) ? 0.0f : sinew_clampf(f / ee, 0.0f, 1.0f);
	} else if (is_tiny(ee, scale)) {
		s = sinew_clampf(-c / aa, 0.0f, 1.0f);
	} else {
		float b = sinew_dot(d1, d2);
		float denom = aa * ee - b * b; /* |d1|^2 |d2|^2 sin^2: zero when parallel */
		s = denom > 1.0e-10f * aa * ee ? sinew_clampf((b * f - c * ee) / denom, 0.0f, 1.0f) : 0.0f;
		t = (b * s + f) / ee;
		if (t < 0.0f) {
			t = 0.0f;
			s = sinew_clampf(-c / aa, 0.0f, 1.0f);
		} else if (t > 1.0f) {
			t = 1.0f;
			s = sinew_clampf((b - c) / aa, 0.0f, 1.0f);
		}
	}
	sinew_segment_pair out = {sinew_mul_add(a1, s, d1), sinew_mul_add(b1, t, d2), s, t};
	return out;
}

/* The part of a segment, given by the tangent coordinates u1 and u2 of its ends, that lies in
 * [0, length], as fractions lo <= hi along the segment. False when no part does. */
static bool clip_to_range(float u1, float u2, float length, float *lo, float *hi)
{
	float du = u2 - u1;
	if (sinew_absf(du) <= 1.0e-7f * (sinew_absf(u1) + sinew_absf(u2) + length)) {
		*lo = 0.0f;
		*hi = 1.0f;
		return u1 >= 0.0f && u1 <= length;
	}
	float f0 = (0.0f - u1) / du, f1 = (length - u1) / du;
	*lo = sinew_maxf(0.0f, sinew_minf(f0, f1));
	*hi = sinew_minf(1.0f, sinew_maxf(f0, f1));
	return *lo <= *hi;
}

static sinew_vec2 capsule_perp(sinew_vec2 a1, sinew_vec2 a2, sinew_vec2 fallback)
{
	sinew_vec2 n = sinew_normalize(sinew_left_perp(sinew_sub(a2, a1)));
	return n.x == 0.0f && n.y == 0.0f ? fallback : n;
}

sinew_manifold sinew_collide_capsule_and_circle(const sinew_capsule *a, sinew_transform xfa, const sinew_circle *b,
                                                sinew_transform xfb, float speculative_distance)
{
	if (sinew_reject_null(a == NULL || b == NULL, "sinew_collide_capsule_and_circle")) return (sinew_manifold){0};
	sinew_vec2 pb = sinew_transform_point(sinew_inv_mul_transforms(xfa, xfb), b->center);
	sinew_vec2 pa = closest_on_segment(a->center1, a->center2, pb);
	sinew_vec2 fallback = capsule_perp(a->center1, a->center2, world_up_in(xfa));
	sinew_manifold m = disc_contact(pa, a->radius, pb, b->radius, fallback, speculative_distance);
	return to_world(m, xfa, xfb);
}

/* Two points for capsules lying side by side: B's segment clipped to A's extent, with A's
 * perpendicular (towards B) as normal. False when the axes are not nearly parallel or overlap too
 * little along A, so the caller uses the single closest pair. */
static bool capsule_side_contact(sinew_manifold *m, const sinew_vec2 a[2], const sinew_vec2 b[2], float ra, float rb,
                                 float speculative)
{
	float len_a, len_b;
	sinew_vec2 ua = sinew_get_length_and_normalize(&len_a, sinew_sub(a[1], a[0]));
	sinew_vec2 ub = sinew_get_length_and_normalize(&len_b, sinew_sub(b[1], b[0]));
	if (len_a == 0.0f || len_b == 0.0f || sinew_absf(sinew_cross(ua, ub)) > CAPSULE_PARALLEL_SIN) return false;

	float lo, hi;
	float u1 = sinew_dot(sinew_sub(b[0], a[0]), ua), u2 = sinew_dot(sinew_sub(b[1], a[0]), ua);
	if (!clip_to_range(u1, u2, len_a, &lo, &hi)) return false;
	if ((hi - lo) * len_b <= RELATIVE_TOLERANCE * sinew_minf(len_a, len_b)) return false;

	sinew_vec2 n = sinew_left_perp(ua);
	if (sinew_dot(sinew_sub(sinew_lerp(b[0], b[1], 0.5f), a[0]), n) < 0.0f) n = sinew_neg(n);
	m->normal = n;
	const float fractions[2] = {lo, hi};
	for (int i = 0; i < 2; ++i) {
		sinew_vec2 q = sinew_lerp(b[0], b[1], fractions[i]);
		float height = sinew_dot(sinew_sub(q, a[0]), n);
		add_core_contact(m, sinew_mul_sub(q, height, n), n, height, ra, rb, SINEW_MAKE_FEATURE_ID(0, i),
		                 speculative);
	}
	return true;
}

/* Cores that cross (segments intersecting, an X): the closest points coincide and say nothing about
 * how to part them. Their Minkowski difference is a parallelogram with edge normals +-A's and +-B's
 * perpendicular that holds the origin; the shortest way out crosses its nearest edge. Along A's
 * perpendicular, B must move past its endpoint on the far side of A's line; along B's, past A's
 * endpoint on the far side of B's line. The deepest endpoint is the contact; the separation is the
 * whole depth, so the solver pushes them apart instead of holding them crossed. */
static void crossing_contact(sinew_manifold *m, const sinew_vec2 a[2], const sinew_vec2 b[2], float ra, float rb,
                             float speculative)
{
	sinew_vec2 na = sinew_normalize(sinew_left_perp(sinew_sub(a[1], a[0])));
	sinew_vec2 nb = sinew_normalize(sinew_left_perp(sinew_sub(b[1], b[0])));
	float h0 = sinew_dot(sinew_sub(b[0], a[0]), na), h1 = sinew_dot(sinew_sub(b[1], a[0]), na);
	float g0 = sinew_dot(sinew_sub(a[0], b[0]), nb), g1 = sinew_dot(sinew_sub(a[1], b[0]), nb);
	/* candidate k: (shift, normal from A to B, A-core point, core distance along the normal) */
	float hmin = sinew_minf(h0, h1), hmax = sinew_maxf(h0, h1), gmin = sinew_minf(g0, g1), gmax = sinew_maxf(g0, g1);
	sinew_vec2 qmin = h0 <= h1 ? b[0] : b[1], qmax = h0 <= h1 ? b[1] : b[0];
	sinew_vec2 pmin = g0 <= g1 ? a[0] : a[1], pmax = g0 <= g1 ? a[1] : a[0];
	const float shift[4] = {-hmin, hmax, gmax, -gmin};
	const sinew_vec2 normal[4] = {na, sinew_neg(na), nb, sinew_neg(nb)};
	const sinew_vec2 point[4] = {sinew_mul_sub(qmin, hmin, na), sinew_mul_sub(qmax, hmax, na), pmax, pmin};
	int best = 0;
	for (int k = 1; k < 4; ++k)
		if (shift[k] < shift[best]) best = k;
	m->normal = normal[best];
	add_core_contact(m, point[best], normal[best], -shift[best], ra, rb, SINEW_MAKE_FEATURE_ID(2, best), speculative);
}

/* Into m, the zero manifold on entry (the narrowphase's own path writes the contact's manifold in
 * place: a 116-byte manifold returned by value was copied three or four times on its way). */
static void collide_capsules_into(const sinew_capsule *a, sinew_transform xfa, const sinew_capsule *b,
                                  sinew_transform xfb, float speculative_distance, sinew_manifold *m)
{
	sinew_transform xf = sinew_inv_mul_transforms(xfa, xfb);
	const sinew_vec2 sa[2] = {a->center1, a->center2};
	const sinew_vec2 sb[2] = {sinew_transform_point(xf, b->center1), sinew_transform_point(xf, b->center2)};
	sinew_segment_pair pair = closest_between_segments(sa[0], sa[1], sb[0], sb[1]);
	float dist = sinew_distance(pair.pa, pair.pb);
	if (dist - a->radius - b->radius > speculative_distance) return;

	if (capsule_side_contact(m, sa, sb, a->radius, b->radius, speculative_distance)) {
		to_world_in_place(m, xfa, xfb);
		return;
	}

	/* cores that cross: the shortest way apart (needs both to be segments, not points) */
	float scale = sinew_distance(sa[0], sa[1]) + sinew_distance(sb[0], sb[1]);
	if (dist <= 1.0e-6f * scale && sinew_distance(sa[0], sa[1]) > 0.0f && sinew_distance(sb[0], sb[1]) > 0.0f) {
		crossing_contact(m, sa, sb, a->radius, b->radius, speculative_distance);
		to_world_in_place(m, xfa, xfb);
		return;
	}
	/* the closest points' direction; where they meet (a point core, or cores that meet end to
	 * end), push apart across A (or B), away from A's middle: worked out only then */
	sinew_vec2 n = sinew_get_length_and_normalize(&dist, sinew_sub(pair.pb, pair.pa));
	if (n.x == 0.0f && n.y == 0.0f) {
		n = capsule_perp(sa[0], sa[1], capsule_perp(sb[0], sb[1], world_up_in(xfa)));
		sinew_vec2 mid_a = sinew_lerp(sa[0], sa[1], 0.5f), mid_b = sinew_lerp(sb[0], sb[1], 0.5f);
		if (sinew_dot(sinew_sub(mid_b, mid_a), n) < 0.0f) n = sinew_neg(n);
	}
	m->normal = n;
	add_core_contact(m, pair.pa, n, dist, a->radius, b->radius, 0, speculative_distance);
	to_world_in_place(m, xfa, xfb);
}

sinew_manifold sinew_collide_capsules(const sinew_capsule *a, sinew_transform xfa, const sinew_capsule *b,
                                      sinew_transform xfb, float speculative_distance)
{
	sinew_manifold m = empty_manifold();
	if (sinew_reject_null(a == NULL || b == NULL, "sinew_collide_capsules")) return m;
	collide_capsules_into(a, xfa, b, xfb, speculative_distance, &m);
	return m;
}

/* ---- polygons ---- */

static bool polygon_is_usable(const sinew_polygon *p)
{
	return p->count >= 2 && p->count <= SINEW_MAX_POLYGON_VERTICES;
}

sinew_manifold sinew_collide_polygon_and_circle(const sinew_polygon *a, sinew_transform xfa, const sinew_circle *b,
                                                sinew_transform xfb, float speculative_distance)
{
	if (sinew_reject_null(a == NULL || b == NULL, "sinew_collide_polygon_and_circle")) return (sinew_manifold){0};
	if (!polygon_is_usable(a)) return empty_manifold();
	sinew_vec2 c = sinew_transform_point(sinew_inv_mul_transforms(xfa, xfb), b->center);
	int edge = 0;
	float best = -FLT_MAX;
	for (int i = 0; i < a->count; ++i) {
		float s = sinew_dot(a->normals[i], sinew_sub(c, a->vertices[i]));
		if (s > best) {
			best = s;
			edge = i;
		}
	}
	float r = a->radius + b->radius;
	if (best - r > speculative_distance) return empty_manifold();

	/* Beyond an end of the best face (only possible outside the core), the end vertex is closest. */
	sinew_vec2 n = a->normals[edge];
	sinew_vec2 v1 = a->vertices[edge], v2 = a->vertices[(edge + 1) % a->count];
	sinew_manifold m = empty_manifold();
	if (best > 0.0f && sinew_dot(sinew_sub(c, v1), sinew_sub(v2, v1)) < 0.0f) {
		m = disc_contact(v1, a->radius, c, b->radius, n, speculative_distance);
	} else if (best > 0.0f && sinew_dot(sinew_sub(c, v2), sinew_sub(v1, v2)) < 0.0f) {
		m = disc_contact(v2, a->radius, c, b->radius, n, speculative_distance);
	} else {
		m.normal = n;
		add_core_contact(&m, sinew_mul_sub(c, best, n), n, best, a->radius, b->radius, 0, speculative_distance);
	}
	return to_world(m, xfa, xfb);
}

/* The polygon's core moved by xf: the vertices, normals, count and radius the collision reads
 * (not the 144-byte copy of the whole polygon, nor its centroid). */
static void transform_polygon(sinew_polygon *out, const sinew_polygon *p, sinew_transform xf)
{
	out->count = p->count;
	out->radius = p->radius;
	for (int i = 0; i < p->count; ++i) {
		out->vertices[i] = sinew_transform_point(xf, p->vertices[i]);
		out->normals[i] = sinew_rotate(xf.q, p->normals[i]);
	}
}

/* Largest separation of p2's core from a face of p1's core, and that face. It stops at the first
 * face whose separation less radius is beyond speculative: the pair is apart then whichever face is
 * best (x - radius only grows with x, in floats too), so the caller's test gives the same answer.
 *
 * With SSE2 (every x86-64) four of p1's faces are tested at once, one a lane: each lane does the
 * scalar loop's operations in its order (n.x (v.x - p.x) + n.y (v.y - p.y) with no fused
 * multiply-add, then the running minimum over p2's vertices, and minps is the same a < b ? a : b),
 * so every face's separation is the scalar one bit for bit; the choice of the face is then the
 * scalar loop's. Lanes past p1's count (vertices[] holds eight) are computed and ignored. The
 * sixteen dot products of a box pair were half of the polygon narrowphase's instructions on tumbler. */
#if defined(__SSE2__)
static float max_separation(const sinew_polygon *p1, const sinew_polygon *p2, float radius, float speculative,
                            int *edge)
{
	_Static_assert(SINEW_MAX_POLYGON_VERTICES == 8, "two groups of four faces");
	float sep[SINEW_MAX_POLYGON_VERTICES];
	const float *v1 = &p1->vertices[0].x, *n1 = &p1->normals[0].x;
	for (int g = 0; g < p1->count; g += 4) {
		__m128 lo = _mm_loadu_ps(v1 + 2 * g), hi = _mm_loadu_ps(v1 + 2 * g + 4);
		__m128 px = _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0)), py = _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 1, 3, 1));
		lo = _mm_loadu_ps(n1 + 2 * g);
		hi = _mm_loadu_ps(n1 + 2 * g + 4);
		__m128 nx = _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0)), ny = _mm_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 1, 3, 1));
		__m128 s = _mm_set1_ps(FLT_MAX);
		for (int j = 0; j < p2->count; ++j) {
			__m128 vx = _mm_set1_ps(p2->vertices[j].x), vy = _mm_set1_ps(p2->vertices[j].y);
			s = _mm_min_ps(s, _mm_add_ps(_mm_mul_ps(nx, _mm_sub_ps(vx, px)), _mm_mul_ps(ny, _mm_sub_ps(vy, py))));
		}
		_mm_storeu_ps(sep + g, s);
	}
	float best = -FLT_MAX;
	*edge = 0;
	for (int i = 0; i < p1->count; ++i) {
		if (sep[i] > best) {
			best = sep[i];
			*edge = i;
			if (sep[i] - radius > speculative) break;
		}
	}
	return best;
}
#else
static float max_separation(const sinew_polygon *p1, const sinew_polygon *p2, float radius, float speculative,
                            int *edge)
{
	float best = -FLT_MAX;
	*edge = 0;
	for (int i = 0; i < p1->count; ++i) {
		float s = FLT_MAX;
		for (int j = 0; j < p2->count; ++j)
			s = sinew_minf(s, sinew_dot(p1->normals[i], sinew_sub(p2->vertices[j], p1->vertices[i])));
		if (s > best) {
			best = s;
			*edge = i;
			if (s - radius > speculative) break;
		}
	}
	return best;
}
#endif

/* The edge of p most opposed to the normal n. */
static int incident_edge(const sinew_polygon *p, sinew_vec2 n)
{
	int edge = 0;
	float lowest = FLT_MAX;
	for (int i = 0; i < p->count; ++i) {
		float d = sinew_dot(p->normals[i], n);
		if (d < lowest) {
			lowest = d;
			edge = i;
		}
	}
	return edge;
}

/* Size of a polygon, rounding included: the farthest vertex from the vertex average, plus radius. */
static float polygon_size(const sinew_polygon *p)
{
	sinew_vec2 mean = {0.0f, 0.0f};
	for (int i = 0; i < p->count; ++i) mean = sinew_add(mean, p->vertices[i]);
	mean = sinew_scale(1.0f / (float)p->count, mean);
	/* one square root of the largest square: sqrtf is monotonic, so the same as the largest root */
	float size2 = 0.0f;
	for (int i = 0; i < p->count; ++i) {
		sinew_vec2 d = sinew_sub(p->vertices[i], mean);
		size2 = sinew_maxf(size2, sinew_dot(d, d));
	}
	return sqrtf(size2) + p->radius;
}

/* The reference face (edge e1 of p1) against the incident edge of p2, all in one frame. */
typedef struct sinew_face_pair {
	const sinew_polygon *p1, *p2;
	int i11, i12, i21, i22;
	sinew_vec2 v11, v12, v21, v22;
	uint8_t flip;
} sinew_face_pair;

static sinew_face_pair make_face_pair(const sinew_polygon *p1, int e1, const sinew_polygon *p2, bool flip)
{
	sinew_face_pair fp;
	fp.p1 = p1;
	fp.p2 = p2;
	fp.i11 = e1;
	fp.i12 = (e1 + 1) % p1->count;
	fp.i21 = incident_edge(p2, p1->normals[e1]);
	fp.i22 = (fp.i21 + 1) % p2->count;
	fp.v11 = p1->vertices[fp.i11];
	fp.v12 = p1->vertices[fp.i12];
	fp.v21 = p2->vertices[fp.i21];
	fp.v22 = p2->vertices[fp.i22];
	fp.flip = flip ? FLIP_BIT : 0;
	return fp;
}

/* Is q's projection on the segment s1-s2 beyond either end? */
static bool beyond_segment(sinew_vec2 q, sinew_vec2 s1, sinew_vec2 s2)
{
	sinew_vec2 d = sinew_sub(s2, s1);
	float u = sinew_dot(sinew_sub(q, s1), d);
	return u < 0.0f || u > sinew_dot(d, d);
}

/* Separated cores whose closest features are a vertex of each (corner facing corner): one point
 * along the vertex-to-vertex line. False when the closest features include an edge. */
static bool vertex_pair_contact(sinew_manifold *m, const sinew_face_pair *fp, float speculative)
{
	sinew_segment_pair sp = closest_between_segments(fp->v11, fp->v12, fp->v21, fp->v22);
	bool ends = (sp.s == 0.0f || sp.s == 1.0f) && (sp.t == 0.0f || sp.t == 1.0f);
	if (!ends || !beyond_segment(sp.pb, fp->v11, fp->v12) || !beyond_segment(sp.pa, fp->v21, fp->v22)) return false;
	float dist;
	sinew_vec2 n = sinew_get_length_and_normalize(&dist, sinew_sub(sp.pb, sp.pa));
	if (dist == 0.0f) return false;
	int va = sp.s == 0.0f ? fp->i11 : fp->i12, vb = sp.t == 0.0f ? fp->i21 : fp->i22;
	m->normal = n;
	add_core_contact(m, sp.pa, n, dist, fp->p1->radius, fp->p2->radius,
	                 SINEW_MAKE_FEATURE_ID(va | VERTEX_PAIR_BIT | fp->flip, vb), speculative);
	return true;
}

/* Clips the incident edge to the reference edge's extent; each clipped end is a point. */
static void clip_contact(sinew_manifold *m, const sinew_face_pair *fp, float tolerance, float speculative)
{
	sinew_vec2 n = fp->p1->normals[fp->i11];
	float length;
	sinew_vec2 tangent = sinew_get_length_and_normalize(&length, sinew_sub(fp->v12, fp->v11));
	float u1 = sinew_dot(sinew_sub(fp->v21, fp->v11), tangent);
	float u2 = sinew_dot(sinew_sub(fp->v22, fp->v11), tangent);
	float lo, hi;
	if (!clip_to_range(u1, u2, length, &lo, &hi)) {
		/* the incident edge misses the face's extent: keep its end nearest to it */
		float miss1 = u1 < 0.0f ? -u1 : u1 - length, miss2 = u2 < 0.0f ? -u2 : u2 - length;
		lo = hi = miss1 <= miss2 ? 0.0f : 1.0f;
	}
	float edge_length = sinew_distance(fp->v21, fp->v22);
	bool single = (hi - lo) * edge_length <= tolerance;
	const float fractions[2] = {lo, hi};
	const int vertices[2] = {fp->i21, fp->i22};
	m->normal = n;
	for (int i = 0; i < (single ? 1 : 2); ++i) {
		/* a one-point clip belongs to the end it is nearer to */
		int k = single && lo > 0.5f ? 1 : i;
		sinew_vec2 q = sinew_lerp(fp->v21, fp->v22, fractions[i]);
		float height = sinew_dot(sinew_sub(q, fp->v11), n);
		add_core_contact(m, sinew_mul_sub(q, height, n), n, height, fp->p1->radius, fp->p2->radius,
		                 SINEW_MAKE_FEATURE_ID(fp->i11 | fp->flip, vertices[k]), speculative);
	}
}

/* Rounded polygons a and b, both in A's frame; the manifold, into m (zero on entry), is in A's frame. */
static void collide_rounded_polygons(const sinew_polygon *a, float size_a, const sinew_polygon *b, float speculative,
                                     sinew_manifold *m)
{
	int edge_a, edge_b;
	float radius = a->radius + b->radius;
	/* apart when either separation less the radii is beyond the speculative distance: B's
	 * faces are not needed when A's show it, nor the rest of a polygon's faces once one does */
	float sep_a = max_separation(a, b, radius, speculative, &edge_a);
	if (sep_a - radius > speculative) return;
	float sep_b = max_separation(b, a, radius, speculative, &edge_b);
	if (sep_b - radius > speculative) return;

	float tolerance = RELATIVE_TOLERANCE * sinew_minf(size_a, polygon_size(b));
	bool flip = sep_b > sep_a + tolerance;
	sinew_face_pair fp = flip ? make_face_pair(b, edge_b, a, true) : make_face_pair(a, edge_a, b, false);
	if (sinew_maxf(sep_a, sep_b) <= tolerance || !vertex_pair_contact(m, &fp, speculative))
		clip_contact(m, &fp, tolerance, speculative);
	if (flip) m->normal = sinew_neg(m->normal);
}

/* Into m, the zero manifold on entry (as collide_capsules_into). size_a: polygon_size(a), or
 * negative to take it here (a is in its own frame, so a shape can keep it: B's is taken in A's
 * frame, which rounds differently). */
static void collide_polygons_into(const sinew_polygon *a, float size_a, sinew_transform xfa, const sinew_polygon *b,
                                  sinew_transform xfb, float speculative_distance, sinew_manifold *m)
{
	if (!polygon_is_usable(a) || !polygon_is_usable(b)) return;
	sinew_polygon local_b;
	transform_polygon(&local_b, b, sinew_inv_mul_transforms(xfa, xfb));
	collide_rounded_polygons(a, size_a >= 0.0f ? size_a : polygon_size(a), &local_b, speculative_distance, m);
	to_world_in_place(m, xfa, xfb);
}

sinew_manifold sinew_collide_polygons(const sinew_polygon *a, sinew_transform xfa, const sinew_polygon *b,
                                      sinew_transform xfb, float speculative_distance)
{
	sinew_manifold m = empty_manifold();
	if (sinew_reject_null(a == NULL || b == NULL, "sinew_collide_polygons")) return m;
	collide_polygons_into(a, -1.0f, xfa, b, xfb, speculative_distance, &m);
	return m;
}

sinew_manifold sinew_collide_polygon_and_capsule(const sinew_polygon *a, sinew_transform xfa, const sinew_capsule *b,
                                                 sinew_transform xfb, float speculative_distance)
{
	if (sinew_reject_null(a == NULL || b == NULL, "sinew_collide_polygon_and_capsule")) return (sinew_manifold){0};
	sinew_vec2 axis = sinew_sub(b->center2, b->center1);
	sinew_vec2 side = sinew_normalize(sinew_right_perp(axis));
	if (sinew_length(axis) <= 1.0e-6f * b->radius || (side.x == 0.0f && side.y == 0.0f)) {
		sinew_circle disc = {b->center1, b->radius};
		return sinew_collide_polygon_and_circle(a, xfa, &disc, xfb, speculative_distance);
	}
	if (!polygon_is_usable(a)) return empty_manifold();
	/* the capsule as a two-vertex rounded polygon: edge 0 runs center1 -> center2, edge 1 back */
	sinew_polygon segment = {0};
	segment.vertices[0] = b->center1;
	segment.vertices[1] = b->center2;
	segment.normals[0] = side;
	segment.normals[1] = sinew_neg(side);
	segment.centroid = sinew_lerp(b->center1, b->center2, 0.5f);
	segment.radius = b->radius;
	segment.count = 2;
	sinew_manifold m = empty_manifold();
	collide_polygons_into(a, -1.0f, xfa, &segment, xfb, speculative_distance, &m);
	return m;
}

/* ---- dispatch ---- */

static void flip_manifold(sinew_manifold *m)
{
	m->normal = sinew_neg(m->normal);
	for (int i = 0; i < m->point_count; ++i) {
		sinew_vec2 t = m->points[i].anchor_a;
		m->points[i].anchor_a = m->points[i].anchor_b;
		m->points[i].anchor_b = t;
	}
}

/* a's type is at least b's (circle < capsule < polygon), the order the pair functions take; into
 * m, the zero manifold on entry. size_a: a's polygon size, or negative (collide_polygons_into). */
static void collide_ordered(const sinew_geometry *a, float size_a, sinew_transform xfa, const sinew_geometry *b,
                            sinew_transform xfb, float spec, sinew_manifold *m)
{
	switch (a->type) {
	case SINEW_SHAPE_CIRCLE:
		*m = sinew_collide_circles(&a->u.circle, xfa, &b->u.circle, xfb, spec);
		return;
	case SINEW_SHAPE_CAPSULE:
		if (b->type == SINEW_SHAPE_CIRCLE)
			*m = sinew_collide_capsule_and_circle(&a->u.capsule, xfa, &b->u.circle, xfb, spec);
		else
			collide_capsules_into(&a->u.capsule, xfa, &b->u.capsule, xfb, spec, m);
		return;
	case SINEW_SHAPE_POLYGON:
		if (b->type == SINEW_SHAPE_CIRCLE)
			*m = sinew_collide_polygon_and_circle(&a->u.polygon, xfa, &b->u.circle, xfb, spec);
		else if (b->type == SINEW_SHAPE_CAPSULE)
			*m = sinew_collide_polygon_and_capsule(&a->u.polygon, xfa, &b->u.capsule, xfb, spec);
		else
			collide_polygons_into(&a->u.polygon, size_a, xfa, &b->u.polygon, xfb, spec, m);
		return;
	case SINEW_SHAPE_TYPE_COUNT:
		break;
	}
}

/* The size a bound keeps for its polygon, or -1: take it in the narrowphase. */
static float kept_size(const sinew_separation_bound *bound)
{
	return bound != NULL && bound->size > 0.0f ? bound->size : -1.0f;
}

void sinew_collide_into(const sinew_geometry *a, const sinew_separation_bound *bound_a, sinew_transform xfa,
                        const sinew_geometry *b, const sinew_separation_bound *bound_b, sinew_transform xfb,
                        float speculative_distance, sinew_manifold *out)
{
	memset(out, 0, sizeof *out);
	if ((unsigned)a->type >= SINEW_SHAPE_TYPE_COUNT || (unsigned)b->type >= SINEW_SHAPE_TYPE_COUNT) return;
	if (a->type < b->type) {
		collide_ordered(b, kept_size(bound_b), xfb, a, xfa, speculative_distance, out);
		flip_manifold(out);
	} else {
		collide_ordered(a, kept_size(bound_a), xfa, b, xfb, speculative_distance, out);
	}
}

sinew_manifold sinew_collide(const sinew_geometry *a, sinew_transform xfa, const sinew_geometry *b,
                             sinew_transform xfb, float speculative_distance)
{
	sinew_manifold m = empty_manifold();
	if (sinew_reject_null(a == NULL || b == NULL, "sinew_collide")) return m;
	sinew_collide_into(a, NULL, xfa, b, NULL, xfb, speculative_distance, &m);
	return m;
}

/* ---- a floor under the separations above (separation.h) ----
 *
 * With d the distance between the shapes' centres and u its direction: every point a round pair
 * (circles and capsules) reports is separated by at least the distance of the cores less the
 * radii, so by at least d - core_a - core_b - radii. A polygon reports nothing while the
 * separation of the other core from its best face, less the radii, is beyond the speculative
 * distance (collide_rounded_polygons, sinew_collide_polygon_and_circle): some face normal n is
 * within the polygon's half-turn of u, so n.(cB - cA) >= d face_cos, the face line is at most
 * `face` from cA along n and the other core at most its `core` from cB, and that face's
 * separation is at least d face_cos - face - core_b. A polygon pair takes the better of its two
 * polygons. A relative margin covers the rounding of the two computations. */
sinew_separation_bound sinew_make_separation_bound(const sinew_geometry *g)
{
	sinew_separation_bound s = {{0.0f, 0.0f}, 0.0f, 0.0f, 1.0f, 0.0f, 0.0f, false};
	switch (g->type) {
	case SINEW_SHAPE_CIRCLE:
		s.center = g->u.circle.center;
		s.radius = g->u.circle.radius;
		break;
	case SINEW_SHAPE_CAPSULE:
		s.center = sinew_lerp(g->u.capsule.center1, g->u.capsule.center2, 0.5f);
		s.core = sinew_distance(g->u.capsule.center1, s.center);
		s.radius = g->u.capsule.radius;
		break;
	case SINEW_SHAPE_POLYGON: {
		const sinew_polygon *p = &g->u.polygon;
		s.polygon = true;
		s.center = p->centroid;
		s.radius = p->radius;
		s.face_cos = polygon_is_usable(p) && p->count >= 3 ? 1.0f : 0.0f; /* else no bound from its faces */
		if (polygon_is_usable(p)) s.size = polygon_size(p);
		for (int i = 0; i < p->count && i < SINEW_MAX_POLYGON_VERTICES; ++i) {
			s.core = sinew_maxf(s.core, sinew_distance(p->vertices[i], s.center));
			s.face = sinew_maxf(s.face, sinew_dot(p->normals[i], sinew_sub(p->vertices[i], s.center)));
			if (s.face_cos == 0.0f) continue;
			sinew_vec2 n1 = p->normals[i], n2 = p->normals[(i + 1) % p->count];
			float c = sinew_dot(n1, n2);
			/* a turn of more than half a circle (or not to the left) leaves directions far from any normal */
			float half = sinew_cross(n1, n2) > 0.0f ? sqrtf(sinew_maxf(0.5f * (1.0f + c), 0.0f)) : 0.0f;
			s.face_cos = sinew_minf(s.face_cos, half);
		}
		s.face_cos *= 0.999f;
		break;
	}
	case SINEW_SHAPE_TYPE_COUNT:
		s.face_cos = 0.0f;
		s.face = SINEW_HUGE;
		s.polygon = true; /* no bound */
		break;
	}
	return s;
}

float sinew_separation_floor(const sinew_separation_bound *a, sinew_transform xfa, const sinew_separation_bound *b,
                             sinew_transform xfb)
{
	sinew_vec2 ca = sinew_transform_point(xfa, a->center), cb = sinew_transform_point(xfb, b->center);
	float d = sinew_distance(ca, cb);
	float floor;
	if (!a->polygon && !b->polygon) {
		floor = d - a->core - b->core;
	} else {
		floor = -SINEW_HUGE;
		if (a->polygon) floor = d * a->face_cos - a->face - b->core;
		if (b->polygon) floor = sinew_maxf(floor, d * b->face_cos - b->face - a->core);
	}
	float size = d + a->core + b->core + a->radius + b->radius;
	float place = sinew_absf(xfa.p.x) + sinew_absf(xfa.p.y) + sinew_absf(xfb.p.x) + sinew_absf(xfb.p.y);
	return floor - a->radius - b->radius - 1.0e-4f * size - 1.0e-5f * place;
}

/* Is the other core's centre (world) more than `beyond` outside one of p's face lines? Then the
 * other core is more than beyond - its reach outside that face (every vertex of it is within
 * `core` of its centre), and max_separation(p, other core) is at least that. */
static bool outside_a_face(const sinew_polygon *p, sinew_transform xfp, sinew_vec2 other_center, float beyond)
{
	sinew_vec2 c = sinew_inv_transform_point(xfp, other_center);
	for (int i = 0; i < p->count; ++i)
		if (sinew_dot(p->normals[i], sinew_sub(c, p->vertices[i])) > beyond) return true;
	return false;
}

/* The narrowphase returns no point once the other core's separation from one polygon's best face,
 * less the radii, is beyond the speculative distance: for a polygon pair either polygon's faces
 * (both are tested, collide_rounded_polygons), for a polygon and a round shape the polygon's. So a
 * pair with a polygon is tested face by face against the other core's centre plus its reach
 * (outside_a_face): as sharp as the face directions are, where sinew_separation_floor takes the
 * worst direction between two normals (a box's 45 degrees), and cheaper. Round pairs take
 * sinew_separation_floor. The margin is sinew_separation_floor's, with the distance of the
 * centres taken along the axes (not less than the distance) and the shapes' centres in their
 * bodies' frames counted in the place (a shape far from its body's origin, a container's wall,
 * has larger vertex coordinates and so larger rounding). */
bool sinew_pair_beyond_reach(const sinew_geometry *ga, const sinew_separation_bound *a, sinew_transform xfa,
                             const sinew_geometry *gb, const sinew_separation_bound *b, sinew_transform xfb, float reach)
{
	bool pa = ga->type == SINEW_SHAPE_POLYGON && polygon_is_usable(&ga->u.polygon);
	bool pb = gb->type == SINEW_SHAPE_POLYGON && polygon_is_usable(&gb->u.polygon);
	if (!pa && !pb) return sinew_separation_floor(a, xfa, b, xfb) > reach;
	sinew_vec2 ca = sinew_transform_point(xfa, a->center), cb = sinew_transform_point(xfb, b->center);
	float size = sinew_absf(cb.x - ca.x) + sinew_absf(cb.y - ca.y) + a->core + b->core + a->radius + b->radius;
	float place = sinew_absf(xfa.p.x) + sinew_absf(xfa.p.y) + sinew_absf(xfb.p.x) + sinew_absf(xfb.p.y) +
	              sinew_absf(a->center.x) + sinew_absf(a->center.y) + sinew_absf(b->center.x) + sinew_absf(b->center.y);
	float beyond = reach + a->radius + b->radius + 1.0e-4f * size + 1.0e-5f * place;
	return (pa && outside_a_face(&ga->u.polygon, xfa, cb, beyond + b->core)) ||
	       (pb && outside_a_face(&gb->u.polygon, xfb, ca, beyond + a->core));
}
