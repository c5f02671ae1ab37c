/* Shape geometry: box and capsule constructors, mass properties, bounding boxes, extents.
 *
 * Mass of a polygon is exact, rounding included. A polygon rounded by r is the Minkowski sum of
 * its core with a disc of radius r: the core, plus one r-thick rectangle on the outside of each
 * edge, plus at each vertex a circular sector of radius r spanning the angle between the two
 * adjacent edge normals (the sectors add up to a whole disc). Each piece's area, first moment and
 * polar second moment are summed about a reference point inside the core, so the rounded box's
 * mass, centre and inertia are exact (Box2D v3 approximates the inertia by inflating the core
 * instead; exact costs a few more lines and one atan2 per vertex). */
#include "core.h"

#include "sinew/collision.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Area integrals about a reference point: area, first moment (integral of p dA) and polar
 * second moment (integral of |p|^2 dA), p measured from the reference point. */
typedef struct sinew_moments {
	float area;
	sinew_vec2 first;
	float second;
} sinew_moments;

static bool positive_finite(float x)
{
	return x > 0.0f && sinew_is_finite(x);
}

static sinew_polygon invalid_polygon(void)
{
	sinew_polygon p = {0};
	return p;
}

sinew_polygon sinew_make_box(float hx, float hy)
{
	return sinew_make_offset_box(hx, hy, sinew_v2(0.0f, 0.0f), 0.0f);
}

sinew_polygon sinew_make_offset_box(float hx, float hy, sinew_vec2 center, float angle)
{
	return sinew_make_rounded_box(hx, hy, center, angle, 0.0f);
}

sinew_polygon sinew_make_rounded_box(float hx, float hy, sinew_vec2 center, float angle, float radius)
{
	if (!positive_finite(hx) || !positive_finite(hy) || !sinew_vec2_is_valid(center) || !sinew_is_finite(angle) ||
	    !(radius >= 0.0f) || !sinew_is_finite(radius)) {
		sinew_report(NULL, NULL, SINEW_ERROR_INVALID_ARGUMENT,
		             "sinew_make_rounded_box: half extents must be > 0, radius >= 0, all finite "
		             "(got hx %g, hy %g, radius %g); returning an empty polygon",
		             (double)hx, (double)hy, (double)radius);
		return invalid_polygon();
	}
	const sinew_vec2 corners[4] = {{-hx, -hy}, {hx, -hy}, {hx, hy}, {-hx, hy}};
	const sinew_vec2 normals[4] = {{0.0f, -1.0f}, {1.0f, 0.0f}, {0.0f, 1.0f}, {-1.0f, 0.0f}};
	sinew_transform xf = sinew_make_transform(center, angle);
	sinew_polygon box = {0};
	for (int i = 0; i < 4; ++i) {
		box.vertices[i] = sinew_transform_point(xf, corners[i]);
		box.normals[i] = sinew_rotate(xf.q, normals[i]);
	}
	box.centroid = center;
	box.radius = radius;
	box.count = 4;
	return box;
}

sinew_capsule sinew_make_capsule_godot(float height, float radius, sinew_vec2 center, float angle)
{
	sinew_capsule c = {center, center, radius};
	if (!positive_finite(radius) || !(height >= 0.0f) || !sinew_is_finite(height) || !sinew_vec2_is_valid(center) ||
	    !sinew_is_finite(angle)) {
		sinew_report(NULL, NULL, SINEW_ERROR_INVALID_ARGUMENT,
		             "sinew_make_capsule_godot: radius must be > 0 and height >= 0, all finite "
		             "(got height %g, radius %g)",
		             (double)height, (double)radius);
		return c;
	}
	/* Godot's height runs tip to tip, so the cap centres sit radius inside the tips. */
	float half = sinew_maxf(0.5f * height - radius, 0.0f);
	sinew_vec2 axis = sinew_rotate(sinew_make_rot(angle), sinew_v2(0.0f, half));
	c.center1 = sinew_sub(center, axis);
	c.center2 = sinew_add(center, axis);
	return c;
}

/* ---- mass ---- */

static sinew_mass_data moments_to_mass(sinew_moments m, sinew_vec2 reference, float density)
{
	sinew_mass_data md = {0.0f, reference, 0.0f};
	if (!(m.area > 0.0f)) return md;
	sinew_vec2 c = sinew_scale(1.0f / m.area, m.first);
	md.mass = density * m.area;
	md.center = sinew_add(reference, c);
	/* parallel axis: move the polar moment from the reference point to the centroid */
	md.rotational_inertia = density * (m.second - m.area * sinew_length_squared(c));
	return md;
}

sinew_mass_data sinew_compute_circle_mass(const sinew_circle *shape, float density)
{
	if (sinew_reject_null(shape == NULL, "sinew_compute_circle_mass")) return (sinew_mass_data){0};
	float rr = shape->radius * shape->radius;
	sinew_mass_data md;
	md.mass = density * SINEW_PI * rr;
	md.center = shape->center;
	md.rotational_inertia = 0.5f * md.mass * rr;
	return md;
}

/* A capsule is a 2r x L rectangle plus two half discs whose flat sides sit L/2 from the centre. */
sinew_mass_data sinew_compute_capsule_mass(const sinew_capsule *shape, float density)
{
	if (sinew_reject_null(shape == NULL, "sinew_compute_capsule_mass")) return (sinew_mass_data){0};
	float r = shape->radius;
	float length = sinew_distance(shape->center1, shape->center2);
	float rect_mass = density * 2.0f * r * length;
	float disc_mass = density * SINEW_PI * r * r;
	float rect_inertia = rect_mass * (length * length + 4.0f * r * r) / 12.0f;
	/* Each half disc: r^2/2 about its flat-side centre; shifting to the capsule centre through
	 * its own centroid (4r/3pi from the flat side) leaves r^2/2 + L^2/4 + L * 4r/(3pi). */
	float cap_offset = 4.0f * r / (3.0f * SINEW_PI);
	float caps_inertia = disc_mass * (0.5f * r * r + 0.25f * length * length + length * cap_offset);
	sinew_mass_data md;
	md.mass = rect_mass + disc_mass;
	md.center = sinew_lerp(shape->center1, shape->center2, 0.5f);
	md.rotational_inertia = rect_inertia + caps_inertia;
	return md;
}

/* Adds a simple polygon (counter-clockwise, points relative to the reference) as a fan of triangles
 * from the reference point; signed areas make the fan right wherever the reference lies. */
static void add_polygon_moments(sinew_moments *m, const sinew_vec2 *points, int count)
{
	for (int i = 0; i < count; ++i) {
		sinew_vec2 e1 = points[i], e2 = points[(i + 1) % count];
		float area = 0.5f * sinew_cross(e1, e2);
		m->area += area;
		m->first = sinew_mul_add(m->first, area / 3.0f, sinew_add(e1, e2));
		m->second += area / 6.0f * (sinew_dot(e1, e1) + sinew_dot(e1, e2) + sinew_dot(e2, e2));
	}
}

/* Adds the sector of radius r centred at v (relative to the reference) from the direction n1
 * counter-clockwise to the direction n2 (both unit). */
static void add_sector_moments(sinew_moments *m, sinew_vec2 v, sinew_vec2 n1, sinew_vec2 n2, float r)
{
	float angle = atan2f(sinew_cross(n1, n2), sinew_dot(n1, n2));
	if (angle < 0.0f) angle += 2.0f * SINEW_PI;
	float area = 0.5f * r * r * angle;
	/* integral of (rho cos t, rho sin t) rho drho dt over the sector, about its apex */
	sinew_vec2 first = sinew_scale(r * r * r / 3.0f, sinew_v2(n2.y - n1.y, n1.x - n2.x));
	float second_apex = 0.25f * r * r * r * r * angle;
	m->area += area;
	m->first = sinew_add(m->first, sinew_mul_add(first, area, v));
	m->second += second_apex + 2.0f * sinew_dot(v, first) + area * sinew_dot(v, v);
}

sinew_mass_data sinew_compute_polygon_mass(const sinew_polygon *shape, float density)
{
	if (sinew_reject_null(shape == NULL, "sinew_compute_polygon_mass")) return (sinew_mass_data){0};
	int n = shape->count;
	sinew_mass_data none = {0.0f, n > 0 ? shape->vertices[0] : sinew_v2(0.0f, 0.0f), 0.0f};
	if (n < 2 || n > SINEW_MAX_POLYGON_VERTICES) return none;

	/* Integrate about the vertex average so large coordinates lose no precision. */
	sinew_vec2 ref = {0.0f, 0.0f};
	for (int i = 0; i < n; ++i) ref = sinew_add(ref, shape->vertices[i]);
	ref = sinew_scale(1.0f / (float)n, ref);
	sinew_vec2 local[SINEW_MAX_POLYGON_VERTICES];
	for (int i = 0; i < n; ++i) local[i] = sinew_sub(shape->vertices[i], ref);

	sinew_moments m = {0.0f, {0.0f, 0.0f}, 0.0f};
	add_polygon_moments(&m, local, n);
	float r = shape->radius;
	if (r > 0.0f) {
		for (int i = 0; i < n; ++i) {
			int j = (i + 1) % n;
			sinew_vec2 out = sinew_scale(r, shape->normals[i]);
			/* out from v_i, along the edge, back in at v_j: counter-clockwise */
			sinew_vec2 band[4] = {local[i], sinew_add(local[i], out), sinew_add(local[j], out), local[j]};
			add_polygon_moments(&m, band, 4);
			add_sector_moments(&m, local[j], shape->normals[i], shape->normals[j], r);
		}
	}
	return moments_to_mass(m, ref, density);
}

sinew_mass_data sinew_compute_mass(const sinew_geometry *geometry, float density)
{
	if (sinew_reject_null(geometry == NULL, "sinew_compute_mass")) return (sinew_mass_data){0};
	switch (geometry->type) {
	case SINEW_SHAPE_CIRCLE:
		return sinew_compute_circle_mass(&geometry->u.circle, density);
	case SINEW_SHAPE_CAPSULE:
		return sinew_compute_capsule_mass(&geometry->u.capsule, density);
	case SINEW_SHAPE_POLYGON:
		return sinew_compute_polygon_mass(&geometry->u.polygon, density);
	case SINEW_SHAPE_TYPE_COUNT:
		break;
	}
	sinew_mass_data none = {0.0f, {0.0f, 0.0f}, 0.0f};
	return none;
}

sinew_mass_data sinew_combine_mass(const sinew_mass_data *parts, int count)
{
	if (sinew_reject_null(parts == NULL && count > 0, "sinew_combine_mass")) return (sinew_mass_data){0};
	sinew_mass_data total = {0.0f, {0.0f, 0.0f}, 0.0f};
	if (parts == NULL || count <= 0) return total;
	sinew_vec2 weighted = {0.0f, 0.0f}, plain = {0.0f, 0.0f};
	for (int i = 0; i < count; ++i) {
		total.mass += parts[i].mass;
		weighted = sinew_mul_add(weighted, parts[i].mass, parts[i].center);
		plain = sinew_add(plain, parts[i].center);
	}
	/* massless parts only: their plain average keeps the centre somewhere sensible */
	total.center = total.mass > 0.0f ? sinew_scale(1.0f / total.mass, weighted) : sinew_scale(1.0f / (float)count, plain);
	for (int i = 0; i < count; ++i) {
		float d2 = sinew_distance_squared(parts[i].center, total.center);
		total.rotational_inertia += parts[i].rotational_inertia + parts[i].mass * d2;
	}
	return total;
}

/* ---- bounding boxes and extents ---- */

static sinew_aabb inflate(sinew_aabb box, float r)
{
	sinew_vec2 d = {r, r};
	sinew_aabb out = {sinew_sub(box.lower, d), sinew_add(box.upper, d)};
	return out;
}

sinew_aabb sinew_compute_circle_aabb(const sinew_circle *shape, sinew_transform xf)
{
	if (sinew_reject_null(shape == NULL, "sinew_compute_circle_aabb")) return (sinew_aabb){0};
	sinew_vec2 p = sinew_transform_point(xf, shape->center);
	sinew_aabb box = {p, p};
	return inflate(box, shape->radius);
}

sinew_aabb sinew_compute_capsule_aabb(const sinew_capsule *shape, sinew_transform xf)
{
	if (sinew_reject_null(shape == NULL, "sinew_compute_capsule_aabb")) return (sinew_aabb){0};
	sinew_vec2 p1 = sinew_transform_point(xf, shape->center1);
	sinew_vec2 p2 = sinew_transform_point(xf, shape->center2);
	sinew_aabb box = {sinew_vmin(p1, p2), sinew_vmax(p1, p2)};
	return inflate(box, shape->radius);
}

sinew_aabb sinew_compute_polygon_aabb(const sinew_polygon *shape, sinew_transform xf)
{
	if (sinew_reject_null(shape == NULL, "sinew_compute_polygon_aabb")) return (sinew_aabb){0};
	if (shape->count < 1) {
		sinew_aabb empty = {xf.p, xf.p};
		return empty;
	}
	int count = shape->count < SINEW_MAX_POLYGON_VERTICES ? shape->count : SINEW_MAX_POLYGON_VERTICES;
#if defined(__SSE2__)
	/* Each vertex turned and moved in the two low lanes, x and y at once: lane 0 is c x + (-s) y =
	 * c x - s y, lane 1 s x + c y, then + p, and minps/maxps are the scalar a < b ? a : b and
	 * a > b ? a : b; vertex by vertex in the scalar loop's order, so the box is the same bit for
	 * bit, signed zeros included (a body's shapes' boxes every step: large_pyramid's 5,051). */
	const __m128 cs = _mm_setr_ps(xf.q.c, xf.q.s, 0.0f, 0.0f), sc = _mm_setr_ps(-xf.q.s, xf.q.c, 0.0f, 0.0f);
	const __m128 origin = _mm_setr_ps(xf.p.x, xf.p.y, 0.0f, 0.0f);
	__m128 lower = _mm_setzero_ps(), upper = _mm_setzero_ps();
	for (int i = 0; i < count; ++i) {
		__m128 v = _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(const void *)&shape->vertices[i]));
		__m128 x = _mm_shuffle_ps(v, v, _MM_SHUFFLE(0, 0, 0, 0)), y = _mm_shuffle_ps(v, v, _MM_SHUFFLE(1, 1, 1, 1));
		__m128 p = _mm_add_ps(_mm_add_ps(_mm_mul_ps(cs, x), _mm_mul_ps(sc, y)), origin);
		lower = i == 0 ? p : _mm_min_ps(lower, p);
		upper = i == 0 ? p : _mm_max_ps(upper, p);
	}
	float lo[4], up[4];
	_mm_storeu_ps(lo, lower);
	_mm_storeu_ps(up, upper);
	sinew_aabb box = {{lo[0], lo[1]}, {up[0], up[1]}};
#else
	sinew_vec2 p = sinew_transform_point(xf, shape->vertices[0]);
	sinew_aabb box = {p, p};
	for (int i = 1; i < count; ++i) {
		p = sinew_transform_point(xf, shape->vertices[i]);
		box.lower = sinew_vmin(box.lower, p);
		box.upper = sinew_vmax(box.upper, p);
	}
#endif
	return inflate(box, shape->radius);
}

sinew_aabb sinew_compute_aabb(const sinew_geometry *geometry, sinew_transform xf)
{
	if (sinew_reject_null(geometry == NULL, "sinew_compute_aabb")) return (sinew_aabb){0};
	switch (geometry->type) {
	case SINEW_SHAPE_CIRCLE:
		return sinew_compute_circle_aabb(&geometry->u.circle, xf);
	case SINEW_SHAPE_CAPSULE:
		return sinew_compute_capsule_aabb(&geometry->u.capsule, xf);
	case SINEW_SHAPE_POLYGON:
		return sinew_compute_polygon_aabb(&geometry->u.polygon, xf);
	case SINEW_SHAPE_TYPE_COUNT:
		break;
	}
	sinew_aabb empty = {xf.p, xf.p};
	return empty;
}

float sinew_geometry_extent(const sinew_geometry *geometry, sinew_vec2 local_point)
{
	if (sinew_reject_null(geometry == NULL, "sinew_geometry_extent")) return 0.0f;
	switch (geometry->type) {
	case SINEW_SHAPE_CIRCLE: {
		const sinew_circle *c = &geometry->u.circle;
		return sinew_distance(c->center, local_point) + c->radius;
	}
	case SINEW_SHAPE_CAPSULE: {
		const sinew_capsule *c = &geometry->u.capsule;
		float d = sinew_maxf(sinew_distance(c->center1, local_point), sinew_distance(c->center2, local_point));
		return d + c->radius;
	}
	case SINEW_SHAPE_POLYGON: {
		const sinew_polygon *p = &geometry->u.polygon;
		float d = 0.0f;
		for (int i = 0; i < p->count && i < SINEW_MAX_POLYGON_VERTICES; ++i)
			d = sinew_maxf(d, sinew_distance(p->vertices[i], local_point));
		return d + p->radius;
	}
	case SINEW_SHAPE_TYPE_COUNT:
		break;
	}
	return 0.0f;
}
