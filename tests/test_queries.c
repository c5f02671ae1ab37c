/* World queries through the public API: ray casts (closest, all, callback), shape casts and
 * cast_motion, overlaps, filters, errors and allocation. Fixed cases are worked out by hand in the
 * comment next to them; random cases are checked against a brute-force loop over every shape that
 * calls the collision layer's world-free functions directly. */
#include "near.h"
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SLOP 0.005f
#define PI_F 3.14159265358979323846f
#define MAX_SHAPES 256



/* ---- building worlds ---- */

static sinew_geometry geo_circle(float x, float y, float r)
{
	sinew_geometry g;
	memset(&g, 0, sizeof g);
	g.type = SINEW_SHAPE_CIRCLE;
	g.u.circle.center = sinew_v2(x, y);
	g.u.circle.radius = r;
	return g;
}

static sinew_geometry geo_capsule(float x1, float y1, float x2, float y2, float r)
{
	sinew_geometry g;
	memset(&g, 0, sizeof g);
	g.type = SINEW_SHAPE_CAPSULE;
	g.u.capsule.center1 = sinew_v2(x1, y1);
	g.u.capsule.center2 = sinew_v2(x2, y2);
	g.u.capsule.radius = r;
	return g;
}

static sinew_geometry geo_polygon(sinew_polygon p)
{
	sinew_geometry g;
	memset(&g, 0, sizeof g);
	g.type = SINEW_SHAPE_POLYGON;
	g.u.polygon = p;
	return g;
}

static sinew_geometry geo_box(float hx, float hy)
{
	return geo_polygon(sinew_make_box(hx, hy));
}

static sinew_body_id add_body(sinew_world_id world, sinew_body_type type, float x, float y, float angle)
{
	sinew_body_def bd = sinew_default_body_def();
	bd.type = type;
	bd.position = sinew_v2(x, y);
	bd.angle = angle;
	return sinew_create_body(world, &bd);
}

static sinew_shape_id add_shape(sinew_body_id body, const sinew_geometry *g, uint32_t layer, bool sensor)
{
	sinew_shape_def sd = sinew_default_shape_def();
	sd.layer = layer;
	sd.is_sensor = sensor;
	switch (g->type) {
	case SINEW_SHAPE_CIRCLE: return sinew_create_circle_shape(body, &sd, &g->u.circle);
	case SINEW_SHAPE_CAPSULE: return sinew_create_capsule_shape(body, &sd, &g->u.capsule);
	case SINEW_SHAPE_POLYGON: return sinew_create_polygon_shape(body, &sd, &g->u.polygon);
	case SINEW_SHAPE_TYPE_COUNT: break;
	}
	return sinew_null_shape_id;
}

/* A static body at (x, y, angle) with one shape on layer 1. */
static sinew_shape_id add_static(sinew_world_id world, sinew_geometry g, float x, float y, float angle)
{
	return add_shape(add_body(world, SINEW_STATIC_BODY, x, y, angle), &g, 1u, false);
}

static bool same_shape(sinew_shape_id a, sinew_shape_id b)
{
	return a.index1 == b.index1 && a.world0 == b.world0 && a.generation == b.generation;
}

static bool same_body(sinew_body_id a, sinew_body_id b)
{
	return a.index1 == b.index1 && a.world0 == b.world0 && a.generation == b.generation;
}

static sinew_transform shape_xf(sinew_shape_id s)
{
	return sinew_body_get_transform(sinew_shape_get_body(s));
}

/* Gap between a geometry moved by f * translation and a world shape. */
static float gap_at(const sinew_geometry *g, sinew_transform xf, sinew_vec2 translation, float f, sinew_shape_id s)
{
	xf.p = sinew_mul_add(xf.p, f, translation);
	sinew_geometry other = sinew_shape_get_geometry(s);
	return sinew_shape_distance(g, xf, &other, shape_xf(s)).distance;
}

/* ---- a random scene ---- */

static uint32_t s_rng = 12345u;

static uint32_t rnd_u32(void)
{
	s_rng ^= s_rng << 13;
	s_rng ^= s_rng >> 17;
	s_rng ^= s_rng << 5;
	return s_rng;
}

static float rnd(float lo, float hi)
{
	return lo + (hi - lo) * (float)(rnd_u32() >> 8) * (1.0f / 16777216.0f);
}

typedef struct scene {
	sinew_world_id world;
	sinew_shape_id shapes[MAX_SHAPES];
	int count;
} scene;

static sinew_geometry random_geometry(void)
{
	switch (rnd_u32() % 4) {
	case 0: return geo_circle(rnd(-0.5f, 0.5f), rnd(-0.5f, 0.5f), rnd(0.2f, 1.2f));
	case 1: return geo_capsule(rnd(-1.0f, 0.0f), rnd(-0.5f, 0.5f), rnd(0.0f, 1.0f), rnd(-0.5f, 0.5f), rnd(0.1f, 0.6f));
	case 2: return geo_polygon(sinew_make_offset_box(rnd(0.2f, 1.5f), rnd(0.2f, 1.5f), sinew_v2(0, 0), rnd(0, PI_F)));
	default:
		return geo_polygon(sinew_make_rounded_box(rnd(0.2f, 1.0f), rnd(0.2f, 1.0f), sinew_v2(rnd(-0.3f, 0.3f), 0.0f),
		                                          rnd(0, PI_F), rnd(0.05f, 0.3f)));
	}
}

/* About 200 shapes on bodies of all three types and layers 1..3, some sensors; the dynamic and
 * kinematic bodies are moved for a few steps so the trees hold fat, moved boxes. */
static void build_random_scene(scene *sc, uint32_t seed)
{
	s_rng = seed;
	memset(sc, 0, sizeof *sc);
	sinew_world_def wd = sinew_default_world_def();
	wd.gravity = sinew_v2(0.0f, 0.0f);
	wd.enable_sleep = false;
	sc->world = sinew_create_world(&wd);
	while (sc->count < 200) {
		sinew_body_type type = (sinew_body_type)(rnd_u32() % 3);
		sinew_body_id b = add_body(sc->world, type, rnd(-20, 20), rnd(-20, 20), rnd(-PI_F, PI_F));
		if (type != SINEW_STATIC_BODY) {
			sinew_body_set_linear_velocity(b, sinew_v2(rnd(-3, 3), rnd(-3, 3)));
			sinew_body_set_angular_velocity(b, rnd(-2, 2));
		}
		int n = 1 + (int)(rnd_u32() % 2);
		for (int i = 0; i < n && sc->count < 200; ++i) {
			sinew_geometry g = random_geometry();
			uint32_t layer = 1u + rnd_u32() % 3u;
			bool sensor = rnd_u32() % 10 == 0;
			sc->shapes[sc->count++] = add_shape(b, &g, layer, sensor);
		}
	}
	step_n(sc->world, 10);
}

static bool bf_sees(const sinew_query_filter *f, sinew_shape_id s)
{
	if ((sinew_shape_get_layer(s) & f->mask) == 0) return false;
	if (sinew_shape_is_sensor(s) && !f->include_sensors) return false;
	for (int i = 0; i < f->exclude_body_count; ++i)
		if (same_body(f->exclude_bodies[i], sinew_shape_get_body(s))) return false;
	for (int i = 0; i < f->exclude_shape_count; ++i)
		if (same_shape(f->exclude_shapes[i], s)) return false;
	return true;
}

/* Brute force: every shape's own ray cast; sorted by (fraction, shape index). Returns the count. */
static int bf_ray_all(const scene *sc, sinew_vec2 o, sinew_vec2 t, const sinew_query_filter *f, sinew_ray_hit *hits)
{
	int n = 0;
	sinew_ray_cast_input in = {o, t, 1.0f};
	for (int i = 0; i < sc->count; ++i) {
		sinew_shape_id s = sc->shapes[i];
		if (!bf_sees(f, s)) continue;
		sinew_geometry g = sinew_shape_get_geometry(s);
		sinew_ray_result r = sinew_ray_cast_geometry(&g, shape_xf(s), &in, f->hit_from_inside);
		if (!r.hit) continue;
		sinew_ray_hit h = {s, sinew_shape_get_body(s), r.point, r.normal, r.fraction, true};
		int at = n;
		while (at > 0 && (hits[at - 1].fraction > h.fraction ||
		                  (hits[at - 1].fraction == h.fraction && hits[at - 1].shape.index1 > s.index1)))
			at -= 1;
		memmove(&hits[at + 1], &hits[at], (size_t)(n - at) * sizeof hits[0]);
		hits[at] = h;
		n += 1;
	}
	return n;
}

static void assert_same_hit(const sinew_ray_hit *a, const sinew_ray_hit *b)
{
	assert_true(a->hit && b->hit);
	assert_true(same_shape(a->shape, b->shape));
	assert_true(same_body(a->body, b->body));
	assert_true(a->fraction == b->fraction);
	assert_true(a->point.x == b->point.x && a->point.y == b->point.y);
	assert_true(a->normal.x == b->normal.x && a->normal.y == b->normal.y);
}

/* ---- rays against each kind ---- */

/* A 2 x 1 box turned 45 degrees. Its local +y face passes through world (-1.061, -0.354) and
 * (0.354, 1.061), i.e. the line y = x + 0.7071; the ray y = 0 from x = -5 meets it at x = -0.7071:
 * fraction (5 - 0.7071) / 10, normal (-sin 45, cos 45). */
static void ray_hits_rotated_box(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	sinew_shape_id box = add_static(world, geo_box(1.0f, 0.5f), 0.0f, 0.0f, 0.25f * PI_F);
	sinew_ray_hit h = sinew_world_cast_ray_closest(world, sinew_v2(-5, 0), sinew_v2(10, 0), NULL);
	assert_true(h.hit);
	assert_true(same_shape(h.shape, box));
	assert_true(same_body(h.body, sinew_shape_get_body(box)));
	NEAR(h.fraction, (5.0 - 0.70710678) / 10.0, 1e-5);
	NEAR_V(h.point, -0.70710678, 0.0, 1e-4);
	NEAR_V(h.normal, -0.70710678, 0.70710678, 1e-5);
	sinew_destroy_world(world);
}

/* A capsule with caps at (0, -1) and (0, 1) after a 90 degree turn of its local x axis, radius 0.5.
 * Side: y = 0 from x = -5 hits x = -0.5, normal (-1, 0). Bottom cap, straight on: (0, -1.5), normal
 * (0, -1). Off-centre on the cap at x = 0.3: y = -1 - sqrt(0.25 - 0.09) = -1.4, normal (0.6, -0.8). */
static void ray_hits_capsule_sides_and_caps(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	sinew_shape_id cap = add_static(world, geo_capsule(-1, 0, 1, 0, 0.5f), 0.0f, 0.0f, 0.5f * PI_F);
	sinew_ray_hit side = sinew_world_cast_ray_closest(world, sinew_v2(-5, 0), sinew_v2(10, 0), NULL);
	assert_true(side.hit && same_shape(side.shape, cap));
	NEAR(side.fraction, 0.45, 1e-5);
	NEAR_V(side.normal, -1, 0, 1e-5);
	sinew_ray_hit end = sinew_world_cast_ray_closest(world, sinew_v2(0, -5), sinew_v2(0, 10), NULL);
	assert_true(end.hit);
	NEAR(end.fraction, 0.35, 1e-5);
	NEAR_V(end.point, 0, -1.5, 1e-4);
	NEAR_V(end.normal, 0, -1, 1e-5);
	sinew_ray_hit off = sinew_world_cast_ray_closest(world, sinew_v2(0.3f, -5), sinew_v2(0, 10), NULL);
	assert_true(off.hit);
	NEAR(off.fraction, 0.36, 1e-5);
	NEAR_V(off.normal, 0.6, -0.8, 1e-4);
	sinew_destroy_world(world);
}

/* Circle r 1 at (2, 3) (as an offset circle on a body at (1, 3)); the ray y = 3.6 from x = -3 meets
 * it at x = 2 - 0.8: fraction 0.42, normal (-0.8, 0.6). */
static void ray_hits_circle(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	sinew_shape_id c = add_static(world, geo_circle(1, 0, 1), 1.0f, 3.0f, 0.0f);
	sinew_ray_hit h = sinew_world_cast_ray_closest(world, sinew_v2(-3, 3.6f), sinew_v2(10, 0), NULL);
	assert_true(h.hit && same_shape(h.shape, c));
	NEAR(h.fraction, 0.42, 1e-5);
	NEAR_V(h.point, 1.2, 3.6, 1e-4);
	NEAR_V(h.normal, -0.8, 0.6, 1e-4);
	sinew_destroy_world(world);
}

/* A ray from inside a circle: Godot skips the circle by default (the box behind it is hit: its face
 * at x = 2.5, fraction 0.5); with hit_from_inside the circle is hit at the origin, zero normal. */
static void ray_from_inside_both_settings(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	sinew_shape_id circle = add_static(world, geo_circle(0, 0, 1), 0.0f, 0.0f, 0.0f);
	sinew_shape_id box = add_static(world, geo_box(0.5f, 0.5f), 3.0f, 0.0f, 0.0f);
	sinew_vec2 o = sinew_v2(0.2f, 0.1f), t = sinew_v2(4.6f, 0.0f);
	sinew_ray_hit skip = sinew_world_cast_ray_closest(world, o, t, NULL);
	assert_true(skip.hit && same_shape(skip.shape, box));
	NEAR(skip.fraction, 0.5, 1e-5);
	sinew_query_filter f = sinew_default_query_filter();
	f.hit_from_inside = true;
	sinew_ray_hit in = sinew_world_cast_ray_closest(world, o, t, &f);
	assert_true(in.hit && same_shape(in.shape, circle));
	assert_true(in.fraction == 0.0f);
	assert_true(in.normal.x == 0.0f && in.normal.y == 0.0f);
	NEAR_V(in.point, 0.2f, 0.1f, 0);
	sinew_ray_hit all[4];
	assert_int_equal(sinew_world_cast_ray_all(world, o, t, &f, all, 4), 2);
	assert_true(same_shape(all[0].shape, circle) && same_shape(all[1].shape, box));
	assert_int_equal(sinew_world_cast_ray_all(world, o, t, NULL, all, 4), 1);
	/* a zero-length ray only finds what contains its origin */
	assert_true(sinew_world_cast_ray_closest(world, o, sinew_v2(0, 0), &f).hit);
	assert_false(sinew_world_cast_ray_closest(world, o, sinew_v2(0, 0), NULL).hit);
	sinew_destroy_world(world);
}

/* Box y in [-1, 1], x in [-1, 1]. A ray along its top face (y = 1) grazes it from x = -1: fraction
 * 0.4. Just above it misses; a ray that stops short misses; a ray pointing away misses. */
static void ray_tangent_and_missing(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	sinew_shape_id box = add_static(world, geo_box(1, 1), 0.0f, 0.0f, 0.0f);
	sinew_ray_hit graze = sinew_world_cast_ray_closest(world, sinew_v2(-5, 1), sinew_v2(10, 0), NULL);
	assert_true(graze.hit && same_shape(graze.shape, box));
	NEAR(graze.fraction, 0.4, 1e-5);
	sinew_ray_hit above = sinew_world_cast_ray_closest(world, sinew_v2(-5, 1.001f), sinew_v2(10, 0), NULL);
	assert_false(above.hit);
	assert_true(SINEW_IS_NULL(above.shape) && SINEW_IS_NULL(above.body));
	assert_false(sinew_world_cast_ray_closest(world, sinew_v2(-5, 0), sinew_v2(3.9f, 0), NULL).hit);
	assert_false(sinew_world_cast_ray_closest(world, sinew_v2(-5, 0), sinew_v2(-10, 0), NULL).hit);
	sinew_ray_hit hits[2];
	assert_int_equal(sinew_world_cast_ray_all(world, sinew_v2(-5, 1.001f), sinew_v2(10, 0), NULL, hits, 2), 0);
	sinew_destroy_world(world);
}

/* Three boxes along a ray, on bodies of each type. Excluding bodies or shapes moves the hit on. */
static void ray_exclusion_lists(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	sinew_geometry g = geo_box(0.5f, 0.5f);
	sinew_body_id b1 = add_body(world, SINEW_KINEMATIC_BODY, 2, 0, 0);
	sinew_body_id b2 = add_body(world, SINEW_DYNAMIC_BODY, 4, 0, 0);
	sinew_body_id b3 = add_body(world, SINEW_STATIC_BODY, 6, 0, 0);
	sinew_shape_id s1 = add_shape(b1, &g, 1, false), s2 = add_shape(b2, &g, 1, false);
	sinew_shape_id s3 = add_shape(b3, &g, 1, false);
	sinew_vec2 o = sinew_v2(0, 0), t = sinew_v2(10, 0);
	assert_true(same_shape(sinew_world_cast_ray_closest(world, o, t, NULL).shape, s1));
	sinew_query_filter f = sinew_default_query_filter();
	sinew_body_id bodies[2] = {b1, b2};
	f.exclude_bodies = bodies;
	f.exclude_body_count = 1;
	assert_true(same_shape(sinew_world_cast_ray_closest(world, o, t, &f).shape, s2));
	f.exclude_body_count = 2;
	sinew_ray_hit h = sinew_world_cast_ray_closest(world, o, t, &f);
	assert_true(same_shape(h.shape, s3) && same_body(h.body, b3));
	NEAR(h.fraction, 0.55, 1e-6);
	sinew_shape_id shapes[1] = {s3};
	f.exclude_shapes = shapes;
	f.exclude_shape_count = 1;
	assert_false(sinew_world_cast_ray_closest(world, o, t, &f).hit);
	sinew_ray_hit all[3];
	assert_int_equal(sinew_world_cast_ray_all(world, o, t, &f, all, 3), 0);
	/* shapes only */
	sinew_query_filter g2 = sinew_default_query_filter();
	sinew_shape_id two[2] = {s1, s3};
	g2.exclude_shapes = two;
	g2.exclude_shape_count = 2;
	assert_int_equal(sinew_world_cast_ray_all(world, o, t, &g2, all, 3), 1);
	assert_true(same_shape(all[0].shape, s2));
	sinew_destroy_world(world);
}

/* Layers: a shape is seen when its layer has a bit in the mask. */
static void ray_layer_mask(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	sinew_geometry g = geo_box(0.5f, 0.5f);
	sinew_shape_id near = add_shape(add_body(world, SINEW_STATIC_BODY, 2, 0, 0), &g, 1u << 1, false);
	sinew_shape_id far = add_shape(add_body(world, SINEW_STATIC_BODY, 4, 0, 0), &g, 1u << 4, false);
	sinew_vec2 o = sinew_v2(0, 0), t = sinew_v2(10, 0);
	sinew_query_filter f = sinew_default_query_filter();
	assert_true(same_shape(sinew_world_cast_ray_closest(world, o, t, &f).shape, near));
	f.mask = 1u << 4;
	assert_true(same_shape(sinew_world_cast_ray_closest(world, o, t, &f).shape, far));
	f.mask = 1u; /* layer 1 is the default layer, which neither uses */
	assert_false(sinew_world_cast_ray_closest(world, o, t, &f).hit);
	f.mask = (1u << 1) | (1u << 4);
	assert_int_equal(sinew_world_cast_ray_all(world, o, t, &f, NULL, 0), 2);
	sinew_destroy_world(world);
}

/* Sensors are skipped unless asked for; disabled bodies are never seen. */
static void ray_sensors_and_disabled_bodies(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	sinew_geometry g = geo_box(0.5f, 0.5f);
	sinew_shape_id sensor = add_shape(add_body(world, SINEW_STATIC_BODY, 2, 0, 0), &g, 1, true);
	sinew_body_id off = add_body(world, SINEW_DYNAMIC_BODY, 3, 0, 0);
	add_shape(off, &g, 1, false);
	sinew_body_disable(off);
	sinew_shape_id solid = add_static(world, g, 5, 0, 0);
	sinew_vec2 o = sinew_v2(0, 0), t = sinew_v2(10, 0);
	assert_true(same_shape(sinew_world_cast_ray_closest(world, o, t, NULL).shape, solid));
	sinew_query_filter f = sinew_default_query_filter();
	f.include_sensors = true;
	assert_true(same_shape(sinew_world_cast_ray_closest(world, o, t, &f).shape, sensor));
	assert_int_equal(sinew_world_cast_ray_all(world, o, t, &f, NULL, 0), 2);
	assert_int_equal(sinew_world_overlap_point(world, sinew_v2(2, 0), NULL, NULL, NULL), 0);
	assert_int_equal(sinew_world_overlap_point(world, sinew_v2(2, 0), &f, NULL, NULL), 1);
	assert_int_equal(sinew_world_overlap_point(world, sinew_v2(3, 0), &f, NULL, NULL), 0);
	sinew_body_enable(off);
	assert_int_equal(sinew_world_overlap_point(world, sinew_v2(3, 0), &f, NULL, NULL), 1);
	sinew_destroy_world(world);
}

/* Two identical boxes in the same place: the lower shape index wins, although the walk meets the
 * other first (static tree before dynamic). */
static void ray_ties_go_to_the_lowest_shape(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	sinew_geometry g = geo_box(0.5f, 0.5f);
	sinew_shape_id first = add_shape(add_body(world, SINEW_DYNAMIC_BODY, 2, 0, 0), &g, 1, false);
	sinew_shape_id second = add_static(world, g, 2, 0, 0);
	assert_true(first.index1 < second.index1);
	sinew_ray_hit h = sinew_world_cast_ray_closest(world, sinew_v2(0, 0), sinew_v2(10, 0), NULL);
	assert_true(same_shape(h.shape, first));
	sinew_ray_hit all[2];
	assert_int_equal(sinew_world_cast_ray_all(world, sinew_v2(0, 0), sinew_v2(10, 0), NULL, all, 2), 2);
	assert_true(same_shape(all[0].shape, first) && same_shape(all[1].shape, second));
	/* and at fraction 0, from inside both */
	sinew_query_filter f = sinew_default_query_filter();
	f.hit_from_inside = true;
	h = sinew_world_cast_ray_closest(world, sinew_v2(2, 0), sinew_v2(1, 0), &f);
	assert_true(h.fraction == 0.0f && same_shape(h.shape, first));
	sinew_destroy_world(world);
}

/* 1,000 random rays in a random scene of 200 shapes: the closest hit and the set of all hits are
 * the brute force's, bit for bit, under four filters. */
static void rays_match_brute_force(void **state)
{
	(void)state;
	static scene sc;
	build_random_scene(&sc, 0x9e3779b9u);
	static sinew_ray_hit bf[MAX_SHAPES], got[MAX_SHAPES];
	int total_hits = 0, inside_hits = 0;
	for (int i = 0; i < 1000; ++i) {
		sinew_vec2 o = sinew_v2(rnd(-25, 25), rnd(-25, 25));
		sinew_vec2 t = sinew_v2(rnd(-30, 30), rnd(-30, 30));
		sinew_query_filter f = sinew_default_query_filter();
		f.hit_from_inside = (i & 1) != 0;
		f.include_sensors = (i & 2) != 0;
		if (i % 5 == 4) f.mask = 1u + (uint32_t)(i / 5) % 3u;
		sinew_body_id ex = sinew_shape_get_body(sc.shapes[i % sc.count]);
		if (i % 7 == 3) {
			f.exclude_bodies = &ex;
			f.exclude_body_count = 1;
		}
		int n = bf_ray_all(&sc, o, t, &f, bf);
		sinew_ray_hit closest = sinew_world_cast_ray_closest(sc.world, o, t, &f);
		assert_int_equal(closest.hit, n > 0);
		if (n > 0) assert_same_hit(&closest, &bf[0]);
		assert_int_equal(sinew_world_cast_ray_all(sc.world, o, t, &f, got, MAX_SHAPES), n);
		for (int k = 0; k < n; ++k) assert_same_hit(&got[k], &bf[k]);
		total_hits += n;
		inside_hits += n > 0 && bf[0].fraction == 0.0f;
	}
	assert_true(total_hits > 500);  /* the scene is busy enough to test something */
	assert_true(inside_hits > 10); /* and rays start inside shapes */
	sinew_destroy_world(sc.world);
}

/* cast_ray_all: nearest first; the return counts every hit, only capacity are written. */
static void ray_all_sorted_and_truncated(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	/* created far to near, across the three trees */
	sinew_shape_id s[5];
	for (int i = 0; i < 5; ++i) {
		sinew_geometry g = geo_circle(0, 0, 0.4f);
		s[i] = add_shape(add_body(world, (sinew_body_type)(i % 3), (float)(10 - 2 * i), 0.1f * (float)i, 0), &g, 1,
		                 false);
	}
	sinew_ray_hit hits[5];
	memset(hits, 0, sizeof hits);
	assert_int_equal(sinew_world_cast_ray_all(world, sinew_v2(0, 0.2f), sinew_v2(12, 0), NULL, hits, 3), 5);
	for (int k = 0; k < 3; ++k) {
		assert_true(hits[k].hit);
		assert_true(same_shape(hits[k].shape, s[4 - k]));
		if (k > 0) assert_true(hits[k - 1].fraction <= hits[k].fraction);
	}
	assert_false(hits[3].hit); /* nothing written past capacity */
	assert_int_equal(sinew_world_cast_ray_all(world, sinew_v2(0, 0.2f), sinew_v2(12, 0), NULL, hits, 5), 5);
	for (int k = 1; k < 5; ++k) assert_true(hits[k - 1].fraction < hits[k].fraction);
	assert_int_equal(sinew_world_cast_ray_all(world, sinew_v2(0, 0.2f), sinew_v2(12, 0), NULL, NULL, 0), 5);
	sinew_destroy_world(world);
}

/* ---- the ray callback ---- */

typedef struct ray_log {
	int calls;
	float clip;       /* the clip the callback last set */
	float max_seen;   /* largest fraction reported after a clip */
	int mode;         /* 0 continue, 1 stop, 2 clip (closest), 3 ignore shape `skip` */
	sinew_shape_id skip;
	sinew_ray_hit best;
} ray_log;

static float log_ray(const sinew_ray_hit *hit, void *context)
{
	ray_log *log = context;
	log->calls += 1;
	assert_true(hit->hit);
	assert_true(hit->fraction <= log->clip); /* nothing beyond the clip is reported */
	switch (log->mode) {
	case 0: return 1.0f;
	case 1: return 0.0f;
	case 2:
		if (!log->best.hit || hit->fraction < log->best.fraction) log->best = *hit;
		log->clip = hit->fraction;
		return hit->fraction;
	default:
		if (same_shape(hit->shape, log->skip)) return -1.0f;
		if (!log->best.hit || hit->fraction < log->best.fraction) log->best = *hit;
		log->clip = hit->fraction;
		return hit->fraction;
	}
}

static void ray_callback_clip_ignore_stop(void **state)
{
	(void)state;
	static scene sc;
	build_random_scene(&sc, 777u);
	for (int i = 0; i < 100; ++i) {
		sinew_vec2 o = sinew_v2(rnd(-25, 25), rnd(-25, 25)), t = sinew_v2(rnd(-40, 40), rnd(-40, 40));
		int n = sinew_world_cast_ray_all(sc.world, o, t, NULL, NULL, 0);
		ray_log log;
		memset(&log, 0, sizeof log);
		log.clip = 1.0f;
		assert_int_equal(sinew_world_cast_ray(sc.world, o, t, NULL, log_ray, &log), n); /* 1: go on */
		assert_int_equal(log.calls, n);
		memset(&log, 0, sizeof log);
		log.clip = 1.0f;
		log.mode = 1;
		assert_int_equal(sinew_world_cast_ray(sc.world, o, t, NULL, log_ray, &log), n > 0 ? 1 : 0); /* 0: stop */
		memset(&log, 0, sizeof log);
		log.clip = 1.0f;
		log.mode = 2;
		int calls = sinew_world_cast_ray(sc.world, o, t, NULL, log_ray, &log); /* clip: the closest */
		sinew_ray_hit closest = sinew_world_cast_ray_closest(sc.world, o, t, NULL);
		assert_int_equal(log.best.hit, closest.hit);
		assert_true(calls <= n);
		if (closest.hit) assert_true(log.best.fraction == closest.fraction);
		if (n >= 2) { /* ignore: the closest once the nearest is ignored is the second nearest */
			sinew_ray_hit all[MAX_SHAPES];
			sinew_world_cast_ray_all(sc.world, o, t, NULL, all, MAX_SHAPES);
			memset(&log, 0, sizeof log);
			log.clip = 1.0f;
			log.mode = 3;
			log.skip = all[0].shape;
			sinew_world_cast_ray(sc.world, o, t, NULL, log_ray, &log);
			assert_true(log.best.hit && log.best.fraction == all[1].fraction);
		}
	}
	sinew_destroy_world(sc.world);
}

/* ---- shape casts ---- */

static sinew_geometry kind(int k)
{
	switch (k) {
	case 0: return geo_circle(0, 0, 0.5f);
	case 1: return geo_capsule(0, -0.5f, 0, 0.5f, 0.3f);
	case 2: return geo_box(0.4f, 0.6f);
	default: return geo_polygon(sinew_make_rounded_box(0.3f, 0.4f, sinew_v2(0, 0), 0.3f, 0.1f));
	}
}

/* Each kind cast at each kind (turned), head-on and obliquely: no overlap anywhere in [0, safe]
 * (sampled), a gap of about the slop at safe, a touch within the slop at unsafe; cast_shape stops
 * at safe on the same shape with a unit normal pointing back at the caster. */
static void shape_casts_each_kind_against_each_kind(void **state)
{
	(void)state;
	for (int a = 0; a < 4; ++a) {
		for (int b = 0; b < 4; ++b) {
			for (int dir = 0; dir < 2; ++dir) {
				sinew_world_id world = make_world(NULL);
				sinew_shape_id target = add_static(world, kind(b), 0.0f, 0.0f, 0.4f + 0.3f * (float)b);
				sinew_geometry g = kind(a);
				sinew_transform xf = sinew_make_transform(sinew_v2(-4.0f, dir ? -3.0f : 0.15f), 0.2f * (float)a);
				sinew_vec2 t = dir ? sinew_v2(8.0f, 6.0f) : sinew_v2(8.0f, 0.0f);
				float safe = -1, unsafe = -1;
				assert_true(sinew_world_cast_motion(world, &g, xf, t, NULL, &safe, &unsafe));
				assert_true(0.0f < safe && safe <= unsafe && unsafe < 1.0f);
				float gs = gap_at(&g, xf, t, safe, target), gu = gap_at(&g, xf, t, unsafe, target);
				assert_true(gs >= 0.99f * SLOP && gs <= 1.3f * SLOP);
				assert_true(gu > 0.0f && gu <= SLOP);
				for (int k = 0; k <= 200; ++k) assert_true(gap_at(&g, xf, t, safe * (float)k / 200.0f, target) > 0.0f);
				sinew_shape_hit h = sinew_world_cast_shape(world, &g, xf, t, NULL);
				assert_true(h.hit && same_shape(h.shape, target) && SINEW_IS_NULL(h.cast_shape));
				assert_true(h.fraction == safe);
				NEAR(sinew_length(h.normal), 1.0, 1e-4);
				sinew_vec2 at = sinew_mul_add(xf.p, safe, t);
				assert_true(sinew_dot(h.normal, sinew_sub(at, h.point)) > 0.0f);
				sinew_destroy_world(world);
			}
		}
	}
}

/* A box dropped on a ground box: hand values. The box (half 0.5) starts with its bottom at y = 2 and
 * moves down 4; the ground's top is y = 0: the gap closes to the slop at 2 - slop, fraction
 * (2 - slop) / 4 (head-on, conservative advancement is exact up to its 1.25 tolerance); the point
 * is on the ground's top, the normal (0, 1). */
static void shape_cast_onto_ground_by_hand(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	sinew_body_id ground = make_ground(world, 0.0f, 0.6f);
	sinew_geometry g = geo_box(0.5f, 0.5f);
	sinew_transform xf = sinew_make_transform(sinew_v2(1, 2.5f), 0);
	sinew_shape_hit h = sinew_world_cast_shape(world, &g, xf, sinew_v2(0, -4), NULL);
	assert_true(h.hit && same_body(h.body, ground));
	assert_true(h.fraction >= (2.0f - 1.25f * SLOP) / 4.0f - 1e-6f && h.fraction <= (2.0f - SLOP) / 4.0f + 1e-6f);
	NEAR(h.point.y, 0.0, 1e-5);
	NEAR_V(h.normal, 0, 1, 1e-5);
	float safe, unsafe;
	assert_true(sinew_world_cast_motion(world, &g, xf, sinew_v2(0, -4), NULL, &safe, &unsafe));
	assert_true(safe == h.fraction);
	assert_true(unsafe >= (2.0f - 0.3125f * SLOP) / 4.0f - 1e-6f && unsafe <= (2.0f - 0.25f * SLOP) / 4.0f + 1e-6f);
	sinew_destroy_world(world);
}

/* Nothing in the way: [1, 1] and no hit; a motion that stops short, or moves away, too. */
static void cast_motion_clear_is_one_one(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	add_static(world, geo_box(0.5f, 0.5f), 5.0f, 0.0f, 0.0f);
	sinew_geometry g = geo_circle(0, 0, 0.5f);
	sinew_transform xf = sinew_make_transform(sinew_v2(0, 0), 0);
	sinew_vec2 moves[3] = {{3.9f, 0.0f}, {-10.0f, 0.0f}, {0.0f, 10.0f}};
	for (int i = 0; i < 3; ++i) {
		float safe = 0, unsafe = 0;
		assert_true(sinew_world_cast_motion(world, &g, xf, moves[i], NULL, &safe, &unsafe));
		assert_true(safe == 1.0f && unsafe == 1.0f);
		assert_false(sinew_world_cast_shape(world, &g, xf, moves[i], NULL).hit);
	}
	/* with the box in reach it is hit */
	float safe = 0, unsafe = 0;
	assert_true(sinew_world_cast_motion(world, &g, xf, sinew_v2(4.1f, 0), NULL, &safe, &unsafe));
	assert_true(safe < 1.0f && unsafe < 1.0f);
	sinew_destroy_world(world);
}

/* Motions that end just short of a wall, their boxes never overlapping it. Circle r 0.5 at the
 * origin, the wall's face at x = 2: a gap of 1.5. Ending half a slop short, the gap passes the slop
 * (a cast_shape hit near (1.5 - slop) / translation) but never gets within a quarter slop: the whole
 * motion is possible, [1, 1] (Godot: no collision). Ending a tenth of a slop short, it is a contact. */
static void casts_that_end_just_short(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	sinew_shape_id wall = add_static(world, geo_box(0.5f, 2.0f), 2.5f, 0.0f, 0.0f);
	sinew_geometry g = geo_circle(0, 0, 0.5f);
	sinew_transform xf = sinew_transform_identity();
	sinew_vec2 half = sinew_v2(1.5f - 0.5f * SLOP, 0.0f), tenth = sinew_v2(1.5f - 0.1f * SLOP, 0.0f);
	sinew_shape_hit h = sinew_world_cast_shape(world, &g, xf, half, NULL);
	assert_true(h.hit && same_shape(h.shape, wall));
	NEAR(h.fraction * half.x, 1.5f - SLOP, 0.25f * SLOP + 1e-5f);
	float safe, unsafe;
	assert_true(sinew_world_cast_motion(world, &g, xf, half, NULL, &safe, &unsafe));
	assert_true(safe == 1.0f && unsafe == 1.0f);
	assert_true(sinew_world_cast_motion(world, &g, xf, tenth, NULL, &safe, &unsafe));
	assert_true(safe < unsafe && unsafe < 1.0f);
	NEAR(safe * tenth.x, 1.5f - SLOP, 0.25f * SLOP + 1e-5f);
	assert_true(gap_at(&g, xf, tenth, unsafe, wall) <= 0.3125f * SLOP + 1e-6f);
	sinew_destroy_world(world);
}

/* A cast that starts overlapping a shape ignores it by default (Godot's cast_motion), and is
 * stopped at [0, 0] with hit_from_inside. */
static void cast_motion_starting_in_overlap(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	sinew_shape_id inside = add_static(world, geo_box(1, 1), 0.0f, 0.0f, 0.0f);
	sinew_shape_id wall = add_static(world, geo_box(0.5f, 2.0f), 5.0f, 0.0f, 0.0f);
	sinew_geometry g = geo_circle(0, 0, 0.5f);
	sinew_transform xf = sinew_make_transform(sinew_v2(0.5f, 0), 0);
	float safe, unsafe;
	assert_true(sinew_world_cast_motion(world, &g, xf, sinew_v2(5, 0), NULL, &safe, &unsafe));
	NEAR(0.5f + 0.5f + 5.0f * safe, 4.5 - SLOP, 0.25 * SLOP + 1e-5); /* at the wall */
	sinew_shape_hit h = sinew_world_cast_shape(world, &g, xf, sinew_v2(5, 0), NULL);
	assert_true(same_shape(h.shape, wall));
	sinew_query_filter f = sinew_default_query_filter();
	f.hit_from_inside = true;
	assert_true(sinew_world_cast_motion(world, &g, xf, sinew_v2(5, 0), &f, &safe, &unsafe));
	assert_true(safe == 0.0f && unsafe == 0.0f);
	h = sinew_world_cast_shape(world, &g, xf, sinew_v2(5, 0), &f);
	assert_true(h.hit && same_shape(h.shape, inside) && h.fraction == 0.0f);
	sinew_destroy_world(world);
}

/* Shape casts obey the filter like rays: masks, exclusions, sensors. */
static void shape_cast_filters(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	sinew_geometry box = geo_box(0.2f, 1.0f);
	sinew_shape_id sensor = add_shape(add_body(world, SINEW_STATIC_BODY, 2, 0, 0), &box, 1, true);
	sinew_shape_id layered = add_shape(add_body(world, SINEW_KINEMATIC_BODY, 3, 0, 0), &box, 4, false);
	sinew_shape_id plain = add_static(world, box, 4, 0, 0);
	sinew_geometry g = geo_circle(0, 0, 0.3f);
	sinew_transform xf = sinew_transform_identity();
	sinew_vec2 t = sinew_v2(6, 0);
	assert_true(same_shape(sinew_world_cast_shape(world, &g, xf, t, NULL).shape, layered));
	sinew_query_filter f = sinew_default_query_filter();
	f.include_sensors = true;
	assert_true(same_shape(sinew_world_cast_shape(world, &g, xf, t, &f).shape, sensor));
	f.include_sensors = false;
	f.mask = 1;
	assert_true(same_shape(sinew_world_cast_shape(world, &g, xf, t, &f).shape, plain));
	f.exclude_shapes = &plain;
	f.exclude_shape_count = 1;
	float safe, unsafe;
	assert_true(sinew_world_cast_motion(world, &g, xf, t, &f, &safe, &unsafe));
	assert_true(safe == 1.0f && unsafe == 1.0f);
	sinew_destroy_world(world);
}

/* The rig's use: a capsule limb body swept sideways at a wall stops with its surface a slop from
 * the wall, the rig's own torso (in the way) excluded through exclude_bodies; the cast body itself
 * is never hit even though its two shapes overlap each other. */
static void rig_capsule_swept_into_wall(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	make_ground(world, 0.0f, 0.6f);
	sinew_shape_id wall = add_static(world, geo_box(0.1f, 3.0f), 3.0f, 2.0f, 0.0f); /* face at x = 2.9 */
	sinew_body_id limb = add_body(world, SINEW_KINEMATIC_BODY, 0.0f, 1.0f, 0.0f);
	sinew_geometry cap = geo_capsule(0, -0.5f, 0, 0.5f, 0.25f);
	sinew_geometry knob = geo_circle(0, 0.5f, 0.2f);
	sinew_shape_id cap_shape = add_shape(limb, &cap, 1, false);
	add_shape(limb, &knob, 1, false);
	sinew_body_id torso = add_body(world, SINEW_DYNAMIC_BODY, 0.6f, 1.0f, 0.0f);
	sinew_geometry tg = geo_capsule(0, -0.6f, 0, 0.6f, 0.3f);
	add_shape(torso, &tg, 1, false);
	sinew_vec2 t = sinew_v2(5.0f, 0.0f);
	float safe, unsafe;
	/* without the exclusion the torso, overlapping-free but in the way, stops it almost at once */
	assert_true(sinew_world_cast_body_motion(world, limb, t, NULL, &safe, &unsafe));
	assert_true(safe < 0.01f);
	sinew_query_filter f = sinew_default_query_filter();
	f.exclude_bodies = &torso;
	f.exclude_body_count = 1;
	assert_true(sinew_world_cast_body_motion(world, limb, t, &f, &safe, &unsafe));
	float surface = 0.25f + 5.0f * safe; /* the capsule's right side after the move */
	assert_true(surface <= 2.9f - SLOP + 1e-5f && surface >= 2.9f - 1.3f * SLOP);
	float right = 0.25f + 5.0f * unsafe;
	assert_true(right > 2.9f - SLOP && right < 2.9f);
	/* the body's own shapes overlap each other, yet it never hits itself, not even from inside */
	float safe2, unsafe2;
	f.hit_from_inside = true;
	assert_true(sinew_world_cast_body_motion(world, limb, t, &f, &safe2, &unsafe2));
	assert_true(safe2 == safe && unsafe2 == unsafe);
	sinew_shape_hit h = sinew_world_cast_body(world, limb, t, &f);
	assert_true(h.hit && same_shape(h.shape, wall) && same_shape(h.cast_shape, cap_shape));
	assert_true(h.fraction == safe);
	NEAR_V(h.normal, -1, 0, 1e-4);
	/* moving the body there really leaves it clear of the wall */
	sinew_body_set_position(limb, sinew_v2(5.0f * safe, 1.0f));
	sinew_geometry wg = sinew_shape_get_geometry(wall);
	assert_true(sinew_shape_distance(&cap, sinew_body_get_transform(limb), &wg, shape_xf(wall)).distance > 0.0f);
	sinew_destroy_world(world);
}

/* The same in a pixel world (100 units per metre): the slop is 0.5 px; an 8 px capsule limb swept
 * 400 px at a floor 16 px thick stops 0.5 px above it. */
static void rig_sweep_in_a_pixel_world(void **state)
{
	(void)state;
	sinew_world_def wd = sinew_default_world_def();
	wd.length_units_per_meter = 100.0f;
	wd.gravity = sinew_v2(0, 980);
	sinew_world_id world = sinew_create_world(&wd);
	add_static(world, geo_box(500, 8), 0.0f, 508.0f, 0.0f); /* top at y = 500 */
	sinew_body_id limb = add_body(world, SINEW_DYNAMIC_BODY, 0.0f, 100.0f, 0.3f);
	sinew_geometry cap = geo_capsule(-40, 0, 40, 0, 8);
	add_shape(limb, &cap, 1, false);
	float safe, unsafe;
	assert_true(sinew_world_cast_body_motion(world, limb, sinew_v2(0, 800), NULL, &safe, &unsafe));
	sinew_transform xf = sinew_body_get_transform(limb);
	xf.p.y += 800.0f * safe;
	sinew_geometry floor_g = geo_box(500, 8);
	float gap = sinew_shape_distance(&cap, xf, &floor_g, sinew_make_transform(sinew_v2(0, 508), 0)).distance;
	assert_true(gap >= 0.99f * 0.5f && gap <= 1.3f * 0.5f);
	sinew_destroy_world(world);
}

/* ---- overlaps ---- */

typedef struct id_set {
	int count;
	int stop_after; /* 0: never */
	sinew_shape_id ids[MAX_SHAPES];
} id_set;

static bool collect(sinew_shape_id shape, void *context)
{
	id_set *set = context;
	set->ids[set->count++] = shape;
	return set->stop_after == 0 || set->count < set->stop_after;
}

static bool set_has(const id_set *set, sinew_shape_id s)
{
	for (int i = 0; i < set->count; ++i)
		if (same_shape(set->ids[i], s)) return true;
	return false;
}

/* The reported set equals the brute force's: same size, each brute-force shape present, no repeats. */
static void assert_same_set(const scene *sc, const id_set *got, const bool *expected)
{
	int n = 0;
	for (int i = 0; i < sc->count; ++i) {
		if (!expected[i]) continue;
		n += 1;
		assert_true(set_has(got, sc->shapes[i]));
	}
	assert_int_equal(got->count, n);
}

static void overlaps_match_brute_force(void **state)
{
	(void)state;
	static scene sc;
	build_random_scene(&sc, 4242u);
	static id_set got;
	bool expected[MAX_SHAPES];
	int nonempty[3] = {0, 0, 0};
	for (int i = 0; i < 300; ++i) {
		sinew_query_filter f = sinew_default_query_filter();
		f.include_sensors = (i & 1) != 0;
		if (i % 3 == 2) f.mask = 2u;
		/* AABB */
		sinew_vec2 c = sinew_v2(rnd(-22, 22), rnd(-22, 22));
		sinew_aabb box = {sinew_sub(c, sinew_v2(rnd(0, 4), rnd(0, 4))), sinew_add(c, sinew_v2(rnd(0, 4), rnd(0, 4)))};
		memset(&got, 0, sizeof got);
		int reported = sinew_world_overlap_aabb(sc.world, box, &f, collect, &got);
		assert_int_equal(reported, got.count);
		for (int k = 0; k < sc.count; ++k) {
			sinew_shape_id s = sc.shapes[k];
			sinew_geometry g = sinew_shape_get_geometry(s);
			sinew_aabb a = sinew_compute_aabb(&g, shape_xf(s));
			expected[k] = bf_sees(&f, s) && a.lower.x <= box.upper.x && box.lower.x <= a.upper.x &&
			              a.lower.y <= box.upper.y && box.lower.y <= a.upper.y;
		}
		assert_same_set(&sc, &got, expected);
		nonempty[0] += got.count > 0;
		/* a shape */
		sinew_geometry q = random_geometry();
		sinew_transform xf = sinew_make_transform(c, rnd(-PI_F, PI_F));
		memset(&got, 0, sizeof got);
		reported = sinew_world_overlap_shape(sc.world, &q, xf, &f, collect, &got);
		assert_int_equal(reported, got.count);
		for (int k = 0; k < sc.count; ++k) {
			sinew_shape_id s = sc.shapes[k];
			sinew_geometry g = sinew_shape_get_geometry(s);
			expected[k] = bf_sees(&f, s) && sinew_shape_distance(&q, xf, &g, shape_xf(s)).distance == 0.0f;
		}
		assert_same_set(&sc, &got, expected);
		nonempty[1] += got.count > 0;
		/* a point */
		memset(&got, 0, sizeof got);
		reported = sinew_world_overlap_point(sc.world, c, &f, collect, &got);
		assert_int_equal(reported, got.count);
		for (int k = 0; k < sc.count; ++k) {
			sinew_shape_id s = sc.shapes[k];
			sinew_geometry g = sinew_shape_get_geometry(s);
			expected[k] = bf_sees(&f, s) && sinew_geometry_test_point(&g, shape_xf(s), c);
		}
		assert_same_set(&sc, &got, expected);
		nonempty[2] += got.count > 0;
	}
	assert_true(nonempty[0] > 100 && nonempty[1] > 50 && nonempty[2] > 20);
	sinew_destroy_world(sc.world);
}

/* Hand cases: a circle touching a box's face overlaps it (distance 0); a hair apart does not; the
 * overlap callback's false stops the query. */
static void overlap_shape_by_hand_and_stop(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	sinew_shape_id box = add_static(world, geo_box(1, 1), 0.0f, 0.0f, 0.0f);
	sinew_geometry c = geo_circle(0, 0, 0.5f);
	id_set got;
	memset(&got, 0, sizeof got);
	assert_int_equal(sinew_world_overlap_shape(world, &c, sinew_make_transform(sinew_v2(1.4f, 0), 0), NULL, collect,
	                                           &got),
	                 1);
	assert_true(same_shape(got.ids[0], box));
	assert_int_equal(sinew_world_overlap_shape(world, &c, sinew_make_transform(sinew_v2(1.51f, 0), 0), NULL, NULL, NULL),
	                 0);
	/* the box's AABB reaches x = 1; a query box from 1.01 misses it */
	sinew_aabb q = {{1.01f, -1}, {2, 1}};
	assert_int_equal(sinew_world_overlap_aabb(world, q, NULL, NULL, NULL), 0);
	for (int i = 0; i < 5; ++i) add_static(world, geo_circle(0, 0, 0.3f), 0.1f * (float)i, 0.0f, 0.0f);
	memset(&got, 0, sizeof got);
	got.stop_after = 2;
	assert_int_equal(sinew_world_overlap_point(world, sinew_v2(0.2f, 0.0f), NULL, collect, &got), 2);
	assert_int_equal(sinew_world_overlap_point(world, sinew_v2(0.2f, 0.0f), NULL, NULL, NULL), 6);
	sinew_destroy_world(world);
}

/* ---- the world while querying ---- */

typedef struct nested {
	sinew_world_id world;
	sinew_body_id victim;
	int inner_hits;
	bool destroy_result;
} nested;

static bool nested_fn(sinew_shape_id shape, void *context)
{
	(void)shape;
	nested *n = context;
	n->inner_hits += sinew_world_cast_ray_all(n->world, sinew_v2(-10, 0), sinew_v2(20, 0), NULL, NULL, 0);
	n->destroy_result = sinew_destroy_body(n->victim);
	return true;
}

/* A query from inside a query's callback works; a change to the world from inside one is refused
 * (LOCKED) and allowed again afterwards. */
static void queries_nest_and_lock_the_world(void **state)
{
	(void)state;
	error_recorder rec;
	memset(&rec, 0, sizeof rec);
	sinew_world_id world = make_world(&rec);
	add_static(world, geo_box(1, 1), 0.0f, 0.0f, 0.0f);
	sinew_body_id victim = add_body(world, SINEW_DYNAMIC_BODY, 4, 0, 0);
	sinew_geometry g = geo_circle(0, 0, 0.5f);
	add_shape(victim, &g, 1, false);
	nested n = {world, victim, 0, true};
	assert_int_equal(sinew_world_overlap_point(world, sinew_v2(0, 0), NULL, nested_fn, &n), 1);
	assert_int_equal(n.inner_hits, 2);
	assert_false(n.destroy_result);
	assert_int_equal(rec.last_code, SINEW_ERROR_LOCKED);
	assert_true(sinew_body_is_valid(victim));
	assert_true(sinew_destroy_body(victim));
	assert_true(sinew_world_step(world, 1.0f / 60.0f, 4));
	sinew_destroy_world(world);
}

/* Bad input is reported and gives no result. */
static void queries_validate_input(void **state)
{
	(void)state;
	error_recorder rec;
	memset(&rec, 0, sizeof rec);
	sinew_world_id world = make_world(&rec);
	add_static(world, geo_box(1, 1), 0.0f, 0.0f, 0.0f);
	float nan = nanf("");
	sinew_ray_hit h = sinew_world_cast_ray_closest(world, sinew_v2(nan, 0), sinew_v2(10, 0), NULL);
	assert_false(h.hit);
	assert_int_equal(rec.last_code, SINEW_ERROR_NOT_FINITE);
	rec.count = 0;
	assert_int_equal(sinew_world_cast_ray_all(world, sinew_v2(-5, 0), sinew_v2(INFINITY, 0), NULL, NULL, 0), 0);
	assert_int_equal(rec.last_code, SINEW_ERROR_NOT_FINITE);
	sinew_ray_hit hits[2];
	assert_int_equal(sinew_world_cast_ray_all(world, sinew_v2(-5, 0), sinew_v2(10, 0), NULL, hits, -1), 0);
	assert_int_equal(rec.last_code, SINEW_ERROR_INVALID_ARGUMENT);
	assert_int_equal(sinew_world_cast_ray(world, sinew_v2(-5, 0), sinew_v2(10, 0), NULL, NULL, NULL), 0);
	assert_int_equal(rec.last_code, SINEW_ERROR_INVALID_ARGUMENT);
	sinew_query_filter f = sinew_default_query_filter();
	f.exclude_body_count = 2; /* but no list */
	assert_false(sinew_world_cast_ray_closest(world, sinew_v2(-5, 0), sinew_v2(10, 0), &f).hit);
	assert_int_equal(rec.last_code, SINEW_ERROR_INVALID_ARGUMENT);
	sinew_geometry g = geo_circle(0, 0, nan);
	float safe = 0.5f, unsafe = 0.5f;
	assert_false(sinew_world_cast_motion(world, &g, sinew_transform_identity(), sinew_v2(1, 0), NULL, &safe, &unsafe));
	assert_int_equal(rec.last_code, SINEW_ERROR_NOT_FINITE);
	assert_true(safe == 0.0f && unsafe == 0.0f);
	g = geo_circle(0, 0, 0.5f);
	assert_false(sinew_world_cast_motion(world, &g, sinew_transform_identity(), sinew_v2(1, 0), NULL, NULL, &unsafe));
	assert_int_equal(rec.last_code, SINEW_ERROR_INVALID_ARGUMENT);
	sinew_transform bad = {{0, 0}, {2.0f, 0.0f}};
	assert_false(sinew_world_cast_shape(world, &g, bad, sinew_v2(1, 0), NULL).hit);
	assert_int_equal(rec.last_code, SINEW_ERROR_INVALID_ARGUMENT);
	assert_false(sinew_world_cast_shape(world, NULL, sinew_transform_identity(), sinew_v2(1, 0), NULL).hit);
	sinew_aabb inverted = {{1, 1}, {0, 0}};
	assert_int_equal(sinew_world_overlap_aabb(world, inverted, NULL, NULL, NULL), 0);
	assert_int_equal(rec.last_code, SINEW_ERROR_INVALID_ARGUMENT);
	assert_int_equal(sinew_world_overlap_point(world, sinew_v2(0, nan), NULL, NULL, NULL), 0);
	assert_int_equal(rec.last_code, SINEW_ERROR_NOT_FINITE);
	/* a body of another world */
	sinew_world_id other = make_world(&rec);
	sinew_body_id stranger = add_body(other, SINEW_DYNAMIC_BODY, 0, 0, 0);
	assert_false(sinew_world_cast_body(world, stranger, sinew_v2(1, 0), NULL).hit);
	assert_int_equal(rec.last_code, SINEW_ERROR_INVALID_ARGUMENT);
	sinew_destroy_world(other);
	recorder_install(&rec); /* errors without a live world go to the process-wide callback */
	assert_false(sinew_world_cast_body(world, stranger, sinew_v2(1, 0), NULL).hit);
	assert_int_equal(rec.last_code, SINEW_ERROR_INVALID_ID);
	/* a dead world */
	sinew_destroy_world(world);
	assert_false(sinew_world_cast_ray_closest(world, sinew_v2(0, 0), sinew_v2(1, 0), NULL).hit);
	assert_int_equal(rec.last_code, SINEW_ERROR_INVALID_ID);
	sinew_set_error_callback(NULL, NULL);
}

/* ---- queries do not allocate ---- */

static long s_allocs;

static void *count_alloc(size_t size, void *context)
{
	(void)context;
	s_allocs += 1;
	return malloc(size);
}

static void *count_realloc(void *p, size_t size, void *context)
{
	(void)context;
	s_allocs += 1;
	return realloc(p, size);
}

static void count_free(void *p, void *context)
{
	(void)context;
	free(p);
}

static bool count_only(sinew_shape_id shape, void *context)
{
	(void)shape;
	(void)context;
	return true;
}

static float go_on(const sinew_ray_hit *hit, void *context)
{
	(void)hit;
	(void)context;
	return 1.0f;
}

static void queries_do_not_allocate(void **state)
{
	(void)state;
	sinew_allocator hooks = {count_alloc, count_realloc, count_free, NULL};
	assert_true(sinew_set_allocator(&hooks));
	static scene sc;
	build_random_scene(&sc, 99u);
	long before = s_allocs;
	sinew_ray_hit hits[16];
	sinew_geometry g = geo_capsule(0, -0.5f, 0, 0.5f, 0.3f);
	float safe, unsafe;
	for (int i = 0; i < 200; ++i) {
		sinew_vec2 o = sinew_v2(rnd(-25, 25), rnd(-25, 25)), t = sinew_v2(rnd(-30, 30), rnd(-30, 30));
		sinew_world_cast_ray_closest(sc.world, o, t, NULL);
		sinew_world_cast_ray_all(sc.world, o, t, NULL, hits, 16);
		sinew_world_cast_ray(sc.world, o, t, NULL, go_on, NULL);
		sinew_transform xf = sinew_make_transform(o, 0.3f);
		sinew_world_cast_shape(sc.world, &g, xf, t, NULL);
		sinew_world_cast_motion(sc.world, &g, xf, t, NULL, &safe, &unsafe);
		sinew_world_cast_body_motion(sc.world, sinew_shape_get_body(sc.shapes[i % sc.count]), t, NULL, &safe, &unsafe);
		sinew_world_overlap_shape(sc.world, &g, xf, NULL, count_only, NULL);
		sinew_aabb box = {o, sinew_add(o, sinew_v2(3, 3))};
		sinew_world_overlap_aabb(sc.world, box, NULL, count_only, NULL);
		sinew_world_overlap_point(sc.world, o, NULL, count_only, NULL);
	}
	assert_int_equal(s_allocs, before);
	sinew_destroy_world(sc.world);
	assert_true(sinew_set_allocator(NULL));
}

/* Queries see where bodies are now: after a teleport and after steps, not where they were. */
static void queries_follow_moving_bodies(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	sinew_body_id ball = make_ball(world, 0.0f, 10.0f, 0.5f, 0.0f);
	sinew_ray_hit h = sinew_world_cast_ray_closest(world, sinew_v2(-5, 10), sinew_v2(10, 0), NULL);
	assert_true(h.hit && same_body(h.body, ball));
	sinew_body_set_position(ball, sinew_v2(0.0f, 20.0f));
	assert_false(sinew_world_cast_ray_closest(world, sinew_v2(-5, 10), sinew_v2(10, 0), NULL).hit);
	assert_int_equal(sinew_world_overlap_point(world, sinew_v2(0, 20), NULL, NULL, NULL), 1);
	step_n(world, 60); /* falls 5 m in a second */
	float y = sinew_body_get_position(ball).y;
	h = sinew_world_cast_ray_closest(world, sinew_v2(0, 30), sinew_v2(0, -30), NULL);
	assert_true(h.hit && same_body(h.body, ball));
	NEAR(h.point.y, y + 0.5f, 1e-4);
	sinew_destroy_world(world);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(queries_do_not_allocate), /* first: hooks need a process without worlds */
		cmocka_unit_test(ray_hits_rotated_box),
		cmocka_unit_test(ray_hits_capsule_sides_and_caps),
		cmocka_unit_test(ray_hits_circle),
		cmocka_unit_test(ray_from_inside_both_settings),
		cmocka_unit_test(ray_tangent_and_missing),
		cmocka_unit_test(ray_exclusion_lists),
		cmocka_unit_test(ray_layer_mask),
		cmocka_unit_test(ray_sensors_and_disabled_bodies),
		cmocka_unit_test(ray_ties_go_to_the_lowest_shape),
		cmocka_unit_test(rays_match_brute_force),
		cmocka_unit_test(ray_all_sorted_and_truncated),
		cmocka_unit_test(ray_callback_clip_ignore_stop),
		cmocka_unit_test(shape_casts_each_kind_against_each_kind),
		cmocka_unit_test(shape_cast_onto_ground_by_hand),
		cmocka_unit_test(cast_motion_clear_is_one_one),
		cmocka_unit_test(casts_that_end_just_short),
		cmocka_unit_test(cast_motion_starting_in_overlap),
		cmocka_unit_test(shape_cast_filters),
		cmocka_unit_test(rig_capsule_swept_into_wall),
		cmocka_unit_test(rig_sweep_in_a_pixel_world),
		cmocka_unit_test(overlaps_match_brute_force),
		cmocka_unit_test(overlap_shape_by_hand_and_stop),
		cmocka_unit_test(queries_nest_and_lock_the_world),
		cmocka_unit_test(queries_validate_input),
		cmocka_unit_test(queries_follow_moving_bodies),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
