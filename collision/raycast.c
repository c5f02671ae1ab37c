/* Ray casts against one shape, point tests, and shape casts (a shape moved along a translation
 * against a fixed one).
 *
 * Ray cast. Every shape is a rounded convex core: a circle is one point, a capsule a segment (two
 * edges back to back), a polygon its vertices and edge normals, each grown by its radius. In the
 * shape's frame the ray is clipped against the core's edge lines pushed out by the radius (the
 * Cyrus-Beck slab test, which also handles rays through a vertex exactly). Where the ray enters
 * the pushed-out polygon, either the entry point lies alongside its edge, and that is the hit,
 * or it lies in a corner region beyond the edge's end. Inside such a corner region the rounded
 * shape is exactly the disc at that core vertex, and the ray cannot leave the region except into
 * that disc or out of the pushed-out polygon; so the hit is the ray's entry into that disc, or
 * none. A ray parallel to a capsule's axis never enters through an edge line; it is tested
 * against the disc at the nearer end. Shapes are closed sets, so a grazing ray hits.
 *
 * Shape cast. Conservative advancement along the translation: at the current fraction GJK gives
 * the gap and the normal from A to B; the gap cannot close faster than the translation's
 * component along that normal, so A advances by gap / closing speed (less the target). For convex
 * shapes under pure translation the gap is a convex function of the fraction, which makes each
 * step a Newton step from the safe side: it converges in a few steps except for grazing passes,
 * and a non-positive closing speed proves the shapes never get closer. */
#include "core.h"

#include "sinew/collision.h"

#define SHAPE_CAST_MAX_ITERATIONS 40

/* A shape as rounded core with outward edge normals, in its local frame. */
typedef struct rounded_core {
	sinew_vec2 v[SINEW_MAX_POLYGON_VERTICES];
	sinew_vec2 n[SINEW_MAX_POLYGON_VERTICES];
	int count;
	float radius;
} rounded_core;

static rounded_core make_core(const sinew_geometry *g)
{
	sinew_shape_proxy p = sinew_make_proxy(g);
	rounded_core c;
	c.count = p.count;
	c.radius = p.radius;
	for (int i = 0; i < SINEW_MAX_POLYGON_VERTICES; ++i) {
		c.v[i] = p.points[i];
		c.n[i] = sinew_v2(0.0f, 0.0f);
	}
	if (g->type == SINEW_SHAPE_POLYGON && c.count >= 3) {
		for (int i = 0; i < c.count; ++i) c.n[i] = g->u.polygon.normals[i];
	} else if (c.count == 2) {
		/* right perpendicular of a counter-clockwise edge points out */
		c.n[0] = sinew_normalize(sinew_right_perp(sinew_sub(c.v[1], c.v[0])));
		c.n[1] = sinew_neg(c.n[0]);
	}
	return c;
}

static float segment_distance_squared(sinew_vec2 a, sinew_vec2 b, sinew_vec2 q)
{
	sinew_vec2 d = sinew_sub(b, a);
	float dd = sinew_dot(d, d);
	float s = dd > 0.0f ? sinew_clampf(sinew_dot(sinew_sub(q, a), d) / dd, 0.0f, 1.0f) : 0.0f;
	return sinew_distance_squared(sinew_mul_add(a, s, d), q);
}

/* Is the local point inside the rounded core (boundary included)? */
static bool core_contains(const rounded_core *c, sinew_vec2 q)
{
	float rr = c->radius * c->radius;
	if (c->count == 1) return sinew_distance_squared(c->v[0], q) <= rr;
	if (c->count == 2) return segment_distance_squared(c->v[0], c->v[1], q) <= rr;
	bool inside = true;
	for (int i = 0; i < c->count; ++i)
		if (sinew_dot(c->n[i], sinew_sub(q, c->v[i])) > 0.0f) inside = false;
	if (inside) return true;
	for (int i = 0; i < c->count; ++i)
		if (segment_distance_squared(c->v[i], c->v[(i + 1) % c->count], q) <= rr) return true;
	return false;
}

bool sinew_geometry_test_point(const sinew_geometry *geometry, sinew_transform xf, sinew_vec2 point)
{
	if (sinew_reject_null(geometry == NULL, "sinew_geometry_test_point")) return false;
	if (geometry == NULL || !sinew_vec2_is_valid(point)) return false;
	rounded_core c = make_core(geometry);
	return core_contains(&c, sinew_inv_transform_point(xf, point));
}

/* Entry of the ray p + t d (p outside the disc) into the disc at center: t in [0, max_t]. */
static bool ray_disc(sinew_vec2 center, float r, sinew_vec2 p, sinew_vec2 d, float max_t, float *t)
{
	float length;
	sinew_vec2 u = sinew_get_length_and_normalize(&length, d);
	if (length == 0.0f || !(r > 0.0f)) return false;
	sinew_vec2 s = sinew_sub(p, center);
	float along = sinew_dot(s, u); /* the ray passes nearest the centre at distance -along */
	sinew_vec2 off = sinew_mul_sub(s, along, u);
	float h2 = r * r - sinew_dot(off, off);
	if (h2 < 0.0f) return false;
	float h = sqrtf(h2);
	if (-along + h < 0.0f) return false; /* the disc is behind */
	*t = sinew_maxf(-along - h, 0.0f) / length;
	return *t <= max_t;
}

typedef struct local_hit {
	float t;
	sinew_vec2 normal;
	bool hit;
} local_hit;

static local_hit disc_hit(sinew_vec2 center, float r, sinew_vec2 p, sinew_vec2 d, float max_t)
{
	local_hit h = {0.0f, {0.0f, 0.0f}, false};
	if (!ray_disc(center, r, p, d, max_t, &h.t)) return h;
	h.normal = sinew_normalize(sinew_sub(sinew_mul_add(p, h.t, d), center));
	h.hit = true;
	return h;
}

/* Index of the core vertex nearest q. */
static int nearest_vertex(const rounded_core *c, sinew_vec2 q)
{
	int best = 0;
	for (int i = 1; i < c->count; ++i)
		if (sinew_distance_squared(c->v[i], q) < sinew_distance_squared(c->v[best], q)) best = i;
	return best;
}

/* The ray p + t d, t in [0, max_t], with p outside the shape (local frame). */
static local_hit ray_core(const rounded_core *c, sinew_vec2 p, sinew_vec2 d, float max_t)
{
	local_hit none = {0.0f, {0.0f, 0.0f}, false};
	float r = c->radius, lower = 0.0f, upper = max_t;
	int entry = -1;
	for (int i = 0; c->count >= 2 && i < c->count; ++i) {
		/* inside edge i's pushed-out half plane while t * den <= num */
		float num = sinew_dot(c->n[i], sinew_sub(c->v[i], p)) + r;
		float den = sinew_dot(c->n[i], d);
		if (den == 0.0f) {
			if (num < 0.0f) return none;
			continue;
		}
		float t = num / den;
		if (den < 0.0f && t > lower) {
			lower = t;
			entry = i;
		} else if (den > 0.0f && t < upper) {
			upper = t;
		}
		if (upper < lower) return none;
	}
	if (entry < 0) {
		/* no entry through an edge line: the origin is already between them (a capsule's strip,
		 * a rounded corner), so only the nearest vertex's disc can be hit */
		return disc_hit(c->v[nearest_vertex(c, p)], r, p, d, max_t);
	}
	local_hit h = {lower, c->n[entry], true};
	if (r == 0.0f) return h;
	sinew_vec2 v1 = c->v[entry], v2 = c->v[(entry + 1) % c->count];
	sinew_vec2 e = sinew_sub(v2, v1);
	float u = sinew_dot(sinew_sub(sinew_mul_add(p, lower, d), v1), e);
	if (u >= 0.0f && u <= sinew_dot(e, e)) return h;
	return disc_hit(u < 0.0f ? v1 : v2, r, p, d, max_t);
}

static bool ray_input_is_valid(const sinew_ray_cast_input *in)
{
	return sinew_vec2_is_valid(in->origin) && sinew_vec2_is_valid(in->translation) && in->max_fraction >= 0.0f &&
	       sinew_is_finite(in->max_fraction);
}

sinew_ray_result sinew_ray_cast_geometry(const sinew_geometry *geometry, sinew_transform xf,
                                         const sinew_ray_cast_input *input, bool hit_from_inside)
{
	sinew_ray_result out = {{0.0f, 0.0f}, {0.0f, 0.0f}, 0.0f, false};
	if (geometry == NULL || input == NULL || !ray_input_is_valid(input) || !sinew_vec2_is_valid(xf.p)) {
		sinew_report(NULL, NULL, SINEW_ERROR_INVALID_ARGUMENT,
		             "sinew_ray_cast_geometry: the shape and the ray must be given, finite, max_fraction >= 0");
		return out;
	}
	rounded_core c = make_core(geometry);
	sinew_vec2 p = sinew_inv_transform_point(xf, input->origin);
	sinew_vec2 d = sinew_inv_rotate(xf.q, input->translation);
	if (core_contains(&c, p)) {
		out.hit = hit_from_inside;
		out.point = input->origin;
		return out;
	}
	if (d.x == 0.0f && d.y == 0.0f) return out;
	local_hit h = ray_core(&c, p, d, input->max_fraction);
	if (!h.hit) return out;
	out.hit = true;
	out.fraction = h.t;
	out.point = sinew_mul_add(input->origin, h.t, input->translation);
	out.normal = sinew_rotate(xf.q, h.normal);
	return out;
}

/* ---- shape cast ---- */

static sinew_shape_cast_output cast_result(const sinew_distance_output *d, float fraction, int iterations)
{
	sinew_shape_cast_output out;
	out.point = d->point_b;
	out.normal = sinew_neg(d->normal);
	out.fraction = fraction;
	out.iterations = iterations;
	out.hit = true;
	return out;
}

static float proxy_size(const sinew_shape_proxy *p)
{
	float r = 0.0f;
	for (int i = 1; i < p->count; ++i) r = sinew_maxf(r, sinew_distance(p->points[0], p->points[i]));
	return r + p->radius;
}

sinew_shape_cast_output sinew_shape_cast(const sinew_geometry *a, sinew_transform xfa, sinew_vec2 translation_a,
                                         const sinew_geometry *b, sinew_transform xfb, float max_fraction,
                                         float target_separation)
{
	sinew_shape_cast_output none = {{0.0f, 0.0f}, {0.0f, 0.0f}, 0.0f, 0, false};
	if (a == NULL || b == NULL || !sinew_vec2_is_valid(translation_a) || !(max_fraction >= 0.0f) ||
	    !sinew_is_finite(max_fraction) || !(target_separation >= 0.0f) || !sinew_is_finite(target_separation)) {
		sinew_report(NULL, NULL, SINEW_ERROR_INVALID_ARGUMENT,
		             "sinew_shape_cast: shapes must be given, the translation finite, max_fraction >= 0 and "
		             "target_separation >= 0 (got %g and %g)",
		             (double)max_fraction, (double)target_separation);
		return none;
	}
	sinew_shape_proxy pa = sinew_make_proxy(a), pb = sinew_make_proxy(b);
	float tolerance = sinew_maxf(0.25f * target_separation, 1.0e-5f * (proxy_size(&pa) + proxy_size(&pb)));
	float t = 0.0f;
	sinew_transform xf = xfa;
	sinew_distance_output d = {{0.0f, 0.0f}, {0.0f, 0.0f}, {0.0f, 0.0f}, 0.0f, 0};
	for (int iteration = 0; iteration < SHAPE_CAST_MAX_ITERATIONS; ++iteration) {
		xf.p = sinew_mul_add(xfa.p, t, translation_a);
		d = sinew_proxy_distance(&pa, xf, &pb, xfb);
		float closing = sinew_dot(translation_a, d.normal);
		if (d.distance <= target_separation + tolerance) {
			/* within the target: a hit if touching or still approaching, else sliding away */
			if (d.distance > 0.0f && !(closing > 0.0f)) return none;
			return cast_result(&d, t, iteration + 1);
		}
		if (!(closing > 0.0f)) return none;
		t += (d.distance - target_separation) / closing;
		if (!(t <= max_fraction)) return none;
	}
	/* only a grazing pass gets here; t is safe and the gap there close to the target */
	return cast_result(&d, t, SHAPE_CAST_MAX_ITERATIONS);
}
