/* The document: top-level keys, world settings, bodies and their shapes, names; joints are in
 * joints.c. Rigs are refused until the rig layer exists. Everything is checked here, before a
 * world exists. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const top_keys[] = {"sinew_scene", "world", "bodies", "joints", "rigs", "templates", "script",
                                       NULL};
static const char *const template_keys[] = {"name", "bodies", "joints", "self_collide", NULL};
static const char *const world_keys[] = {"gravity", "length_units_per_meter", "hz", "substeps", "steps", "sleep", NULL};
static const char *const body_keys[] = {
	"name", "type", "position", "angle", "linear_velocity", "angular_velocity", "linear_damping",
	"angular_damping", "gravity_scale", "fixed_rotation", "bullet", "awake", "can_sleep", "enabled", "mass",
	"inertia", "layer", "mask", "group", "shapes", "rotation", "sleep_threshold", NULL};

/* Keys of each shape type: the common ones, then the type's own. */
#define SHAPE_COMMON "type", "name", "density", "friction", "restitution", "layer", "mask", "group", "sensor"
static const char *const circle_keys[] = {SHAPE_COMMON, "radius", "center", NULL};
static const char *const capsule_keys[] = {SHAPE_COMMON, "radius", "center1", "center2", "height", "center", "angle",
                                           NULL};
static const char *const box_keys[] = {SHAPE_COMMON, "half_extents", "center", "angle", "radius", NULL};
static const char *const polygon_keys[] = {SHAPE_COMMON, "vertices", "radius", "normals", "centroid", NULL};
static const char *const shape_type_names[] = {"circle", "capsule", "box", "polygon", NULL};

enum { SHAPE_CIRCLE, SHAPE_CAPSULE, SHAPE_BOX, SHAPE_POLYGON };

static bool out_of_memory(scene_parser *p, const char *path)
{
	return scene_fail(p, path, "out of memory");
}

/* A step of 1 / hz must lie in the engine's envelope, or every step would be refused. */
static bool check_hz(scene_parser *p, float hz)
{
	float lo = 1.0f / SINEW_MAX_STEP, hi = 1.0f / SINEW_MIN_STEP;
	if (hz >= lo && hz <= hi) return true;
	return scene_fail(p, "world.hz", "%g is outside the engine's limits of %g..%g (a step of %g..%g s)", (double)hz,
	                  (double)lo, (double)hi, (double)SINEW_MIN_STEP, (double)SINEW_MAX_STEP);
}

static bool parse_world(scene_parser *p, json_t *world)
{
	scene_desc *d = p->desc;
	if (world == NULL) return true;
	if (!scene_expect_object(p, world, "world") || !scene_check_keys(p, world, "world", world_keys)) return false;
	return scene_get_vec2(p, world, "world", "gravity", &d->gravity) &&
	       scene_get_number(p, world, "world", "length_units_per_meter", SCENE_POSITIVE, &d->length_units_per_meter) &&
	       scene_get_number(p, world, "world", "hz", SCENE_POSITIVE, &d->hz) && check_hz(p, d->hz) &&
	       scene_get_int(p, world, "world", "substeps", 1, 64, &d->substeps) &&
	       scene_get_int(p, world, "world", "steps", 0, 1000000000, &d->steps) &&
	       scene_get_bool(p, world, "world", "sleep", &d->sleep);
}

static bool parse_circle(scene_parser *p, json_t *s, const char *path, sinew_geometry *g)
{
	sinew_circle c = {{0.0f, 0.0f}, 0.0f};
	if (!scene_check_keys(p, s, path, circle_keys) || !scene_require(p, s, path, "radius") ||
	    !scene_get_number(p, s, path, "radius", SCENE_POSITIVE, &c.radius) ||
	    !scene_get_vec2(p, s, path, "center", &c.center)) {
		return false;
	}
	g->type = SINEW_SHAPE_CIRCLE;
	g->u.circle = c;
	return true;
}

/* The first of the two keys that obj has, or NULL. */
static const char *first_present(json_t *obj, const char *a, const char *b)
{
	if (json_object_get(obj, a) != NULL) return a;
	return json_object_get(obj, b) != NULL ? b : NULL;
}

/* Two forms: center1, center2, radius; or Godot's height (tip to tip, along local y), radius,
 * center, angle. A file uses one. */
static bool parse_capsule(scene_parser *p, json_t *s, const char *path, sinew_geometry *g)
{
	char child[SCENE_PATH_SIZE];
	sinew_capsule c = {{0.0f, 0.0f}, {0.0f, 0.0f}, 0.0f};
	if (!scene_check_keys(p, s, path, capsule_keys) || !scene_require(p, s, path, "radius") ||
	    !scene_get_number(p, s, path, "radius", SCENE_POSITIVE, &c.radius)) {
		return false;
	}
	if (json_object_get(s, "height") != NULL) {
		const char *other = first_present(s, "center1", "center2");
		if (other != NULL) {
			scene_path_key(child, path, other);
			return scene_fail(p, child, "give either center1, center2 or height (with center, angle), not both");
		}
		float height = 0.0f, angle = 0.0f;
		sinew_vec2 center = {0.0f, 0.0f};
		if (!scene_get_number(p, s, path, "height", SCENE_POSITIVE, &height) ||
		    !scene_get_vec2(p, s, path, "center", &center) || !scene_get_degrees(p, s, path, "angle", &angle)) {
			return false;
		}
		if (height < 2.0f * c.radius) {
			scene_path_key(child, path, "height");
			return scene_fail(p, child, "expected at least 2 * radius (height is tip to tip)");
		}
		c = sinew_make_capsule_godot(height, c.radius, center, angle);
	} else {
		const char *other = first_present(s, "center", "angle");
		if (other != NULL) {
			scene_path_key(child, path, other);
			return scene_fail(p, child, "center and angle belong to the height form: give height too, or use center1, center2");
		}
		if (!scene_require(p, s, path, "center1") || !scene_require(p, s, path, "center2") ||
		    !scene_get_vec2(p, s, path, "center1", &c.center1) || !scene_get_vec2(p, s, path, "center2", &c.center2)) {
			return false;
		}
	}
	g->type = SINEW_SHAPE_CAPSULE;
	g->u.capsule = c;
	return true;
}

/* half_extents are the outer size; a corner radius rounds the corners inside that size. */
static bool parse_box(scene_parser *p, json_t *s, const char *path, sinew_geometry *g)
{
	char child[SCENE_PATH_SIZE];
	sinew_vec2 h = {0.0f, 0.0f}, center = {0.0f, 0.0f};
	float angle = 0.0f, radius = 0.0f;
	if (!scene_check_keys(p, s, path, box_keys) || !scene_require(p, s, path, "half_extents") ||
	    !scene_get_vec2(p, s, path, "half_extents", &h) || !scene_get_vec2(p, s, path, "center", &center) ||
	    !scene_get_degrees(p, s, path, "angle", &angle) ||
	    !scene_get_number(p, s, path, "radius", SCENE_NON_NEGATIVE, &radius)) {
		return false;
	}
	if (!(h.x > 0.0f && h.y > 0.0f)) {
		scene_path_key(child, path, "half_extents");
		return scene_fail(p, child, "expected two positive numbers [hx, hy]");
	}
	if (radius >= h.x || radius >= h.y) {
		scene_path_key(child, path, "radius");
		return scene_fail(p, child, "expected less than the smaller half extent");
	}
	g->type = SINEW_SHAPE_POLYGON;
	g->u.polygon = scene_box_polygon(h, center, angle, radius);
	return true;
}

sinew_polygon scene_box_polygon(sinew_vec2 h, sinew_vec2 center, float angle, float radius)
{
	if (radius > 0.0f) return sinew_make_rounded_box(h.x - radius, h.y - radius, center, angle, radius);
	if (center.x == 0.0f && center.y == 0.0f && angle == 0.0f) return sinew_make_box(h.x, h.y);
	return sinew_make_offset_box(h.x, h.y, center, angle);
}

/* An array of 1..max points [x, y] (absent: *count = 0). */
static bool get_points(scene_parser *p, json_t *s, const char *path, const char *key, int max, sinew_vec2 *out,
                       int *count)
{
	char child[SCENE_PATH_SIZE];
	json_t *a = json_object_get(s, key);
	*count = 0;
	if (a == NULL) return true;
	scene_path_key(child, path, key);
	if (!json_is_array(a) || json_array_size(a) < 1 || json_array_size(a) > (size_t)max) {
		return scene_fail(p, child, "expected an array of 3 to %d points [x, y]", max);
	}
	for (size_t i = 0; i < json_array_size(a); ++i) {
		char item[SCENE_PATH_SIZE];
		scene_path_index(item, child, i);
		if (!scene_point(p, json_array_get(a, i), item, &out[i])) return false;
	}
	*count = (int)json_array_size(a);
	return true;
}

/* A convex polygon: vertices counter-clockwise (3..8), radius rounds it. normals and centroid
 * default to the ones the vertices give (saved scenes write them to come back bit for bit). */
static bool parse_polygon(scene_parser *p, json_t *s, const char *path, sinew_geometry *g)
{
	char child[SCENE_PATH_SIZE];
	sinew_polygon poly;
	memset(&poly, 0, sizeof poly);
	int count = 0, normal_count = 0;
	if (!scene_check_keys(p, s, path, polygon_keys) || !scene_require(p, s, path, "vertices") ||
	    !get_points(p, s, path, "vertices", SINEW_MAX_POLYGON_VERTICES, poly.vertices, &count) ||
	    !get_points(p, s, path, "normals", SINEW_MAX_POLYGON_VERTICES, poly.normals, &normal_count) ||
	    !scene_get_number(p, s, path, "radius", SCENE_NON_NEGATIVE, &poly.radius)) {
		return false;
	}
	scene_path_key(child, path, "vertices");
	if (count < 3) return scene_fail(p, child, "expected an array of 3 to %d points [x, y]", SINEW_MAX_POLYGON_VERTICES);
	poly.count = count;
	float area = 0.0f;
	sinew_vec2 sum = {0.0f, 0.0f}, origin = poly.vertices[0];
	for (int i = 0; i < count; ++i) {
		sinew_vec2 a = poly.vertices[i], b = poly.vertices[(i + 1) % count], c = poly.vertices[(i + 2) % count];
		if (sinew_cross(sinew_sub(b, a), sinew_sub(c, b)) <= 0.0f) {
			return scene_fail(p, child, "expected a convex polygon, counter-clockwise, without repeated points");
		}
		sinew_vec2 edge = sinew_sub(b, a);
		if (normal_count == 0) poly.normals[i] = sinew_normalize(sinew_v2(edge.y, -edge.x));
		/* centroid: a fan of triangles from the first vertex */
		sinew_vec2 e1 = sinew_sub(a, origin), e2 = sinew_sub(b, origin);
		float tri = 0.5f * sinew_cross(e1, e2);
		area += tri;
		sum = sinew_add(sum, sinew_scale(tri / 3.0f, sinew_add(e1, e2)));
	}
	poly.centroid = sinew_add(origin, sinew_scale(1.0f / area, sum));
	if (normal_count != 0 && normal_count != count) {
		scene_path_key(child, path, "normals");
		return scene_fail(p, child, "expected one normal per vertex (%d)", count);
	}
	for (int i = 0; i < normal_count; ++i) {
		sinew_vec2 n = poly.normals[i], edge = sinew_sub(poly.vertices[(i + 1) % count], poly.vertices[i]);
		if (!(sinew_absf(sinew_length(n) - 1.0f) < 1e-3f) || !(sinew_dot(n, sinew_v2(edge.y, -edge.x)) > 0.0f)) {
			char item[SCENE_PATH_SIZE];
			scene_path_key(child, path, "normals");
			scene_path_index(item, child, (size_t)i);
			return scene_fail(p, item, "expected the unit outward normal of edge %d", i);
		}
	}
	if (!scene_get_vec2(p, s, path, "centroid", &poly.centroid)) return false;
	g->type = SINEW_SHAPE_POLYGON;
	g->u.polygon = poly;
	return true;
}

/* The collision filter a body hands its shapes as their default. */
typedef struct filter {
	uint32_t layer, mask, group;
} filter;

static bool parse_shape(scene_parser *p, json_t *s, const char *path, filter from_body, scene_shape_desc *out)
{
	int type = -1;
	const char *name = NULL;
	out->def = sinew_default_shape_def();
	out->def.layer = from_body.layer;
	out->def.mask = from_body.mask;
	out->def.group = from_body.group;
	if (!scene_expect_object(p, s, path) || !scene_require(p, s, path, "type") ||
	    !scene_get_choice(p, s, path, "type", shape_type_names, &type)) {
		return false;
	}
	bool ok = false;
	switch (type) {
	case SHAPE_CIRCLE: ok = parse_circle(p, s, path, &out->geometry); break;
	case SHAPE_CAPSULE: ok = parse_capsule(p, s, path, &out->geometry); break;
	case SHAPE_BOX: ok = parse_box(p, s, path, &out->geometry); break;
	case SHAPE_POLYGON: ok = parse_polygon(p, s, path, &out->geometry); break;
	}
	if (!ok) return false;
	if (!scene_get_string(p, s, path, "name", &name) ||
	    !scene_get_number(p, s, path, "density", SCENE_NON_NEGATIVE, &out->def.density) ||
	    !scene_get_number(p, s, path, "friction", SCENE_NON_NEGATIVE, &out->def.friction) ||
	    !scene_get_number(p, s, path, "restitution", SCENE_NON_NEGATIVE, &out->def.restitution) ||
	    !scene_get_uint32(p, s, path, "layer", &out->def.layer) ||
	    !scene_get_uint32(p, s, path, "mask", &out->def.mask) ||
	    !scene_get_uint32(p, s, path, "group", &out->def.group) ||
	    !scene_get_bool(p, s, path, "sensor", &out->def.is_sensor)) {
		return false;
	}
	if (out->def.group > p->desc->max_collision_group) p->desc->max_collision_group = out->def.group;
	out->name = scene_strdup(name);
	if (name != NULL && out->name == NULL) return out_of_memory(p, path);
	return true;
}

static bool parse_shapes(scene_parser *p, json_t *shapes, const char *path, scene_body_desc *body, filter from_body)
{
	scene_desc *d = p->desc;
	size_t count = shapes != NULL ? json_array_size(shapes) : 0;
	body->first_shape = d->shape_count;
	body->shape_count = 0;
	if (count == 0) return true;
	if (d->shape_count + (int)count > d->shape_capacity) {
		int capacity = d->shape_capacity > 0 ? 2 * d->shape_capacity : 16;
		while (capacity < d->shape_count + (int)count) capacity *= 2;
		scene_shape_desc *grown = realloc(d->shapes, (size_t)capacity * sizeof *grown);
		if (grown == NULL) return out_of_memory(p, path);
		d->shapes = grown;
		d->shape_capacity = capacity;
	}
	for (size_t i = 0; i < count; ++i) {
		char child[SCENE_PATH_SIZE];
		scene_path_index(child, path, i);
		scene_shape_desc *shape = &d->shapes[d->shape_count];
		memset(shape, 0, sizeof *shape);
		d->shape_count += 1;
		body->shape_count += 1;
		if (!parse_shape(p, json_array_get(shapes, i), child, from_body, shape)) return false;
	}
	return true;
}

static bool parse_body(scene_parser *p, json_t *b, const char *path, scene_body_desc *out)
{
	char child[SCENE_PATH_SIZE];
	const char *name = NULL;
	int type = SINEW_DYNAMIC_BODY;
	filter from_body = {1, 1, 0};
	json_t *shapes = NULL;
	sinew_body_def *def = &out->def;
	*def = sinew_default_body_def();
	if (!scene_expect_object(p, b, path) || !scene_check_keys(p, b, path, body_keys)) return false;
	if (!scene_get_string(p, b, path, "name", &name) ||
	    !scene_get_choice(p, b, path, "type", scene_body_type_names, &type) ||
	    !scene_get_vec2(p, b, path, "position", &def->position) || !scene_get_degrees(p, b, path, "angle", &def->angle) ||
	    !scene_get_vec2(p, b, path, "linear_velocity", &def->linear_velocity) ||
	    !scene_get_degrees(p, b, path, "angular_velocity", &def->angular_velocity) ||
	    !scene_get_number(p, b, path, "linear_damping", SCENE_NON_NEGATIVE, &def->linear_damping) ||
	    !scene_get_number(p, b, path, "angular_damping", SCENE_NON_NEGATIVE, &def->angular_damping) ||
	    !scene_get_number(p, b, path, "gravity_scale", SCENE_ANY, &def->gravity_scale) ||
	    !scene_get_bool(p, b, path, "fixed_rotation", &def->fixed_rotation) ||
	    !scene_get_bool(p, b, path, "bullet", &def->is_bullet) || !scene_get_bool(p, b, path, "awake", &def->is_awake) ||
	    !scene_get_bool(p, b, path, "can_sleep", &def->can_sleep) ||
	    !scene_get_number(p, b, path, "sleep_threshold", SCENE_NON_NEGATIVE, &def->sleep_threshold) ||
	    !scene_get_bool(p, b, path, "enabled", &def->is_enabled) ||
	    !scene_get_number(p, b, path, "mass", SCENE_POSITIVE, &out->mass) ||
	    !scene_get_number(p, b, path, "inertia", SCENE_POSITIVE, &out->inertia) ||
	    !scene_get_uint32(p, b, path, "layer", &from_body.layer) ||
	    !scene_get_uint32(p, b, path, "mask", &from_body.mask) ||
	    !scene_get_uint32(p, b, path, "group", &from_body.group) || !scene_get_array(p, b, path, "shapes", &shapes)) {
		return false;
	}
	def->type = (sinew_body_type)type;
	/* "rotation": [cos, sin], the exact rotation of a saved body (angle alone cannot always say it) */
	out->has_rotation = json_object_get(b, "rotation") != NULL;
	if (out->has_rotation) {
		sinew_vec2 r = {1.0f, 0.0f};
		if (!scene_get_vec2(p, b, path, "rotation", &r)) return false;
		out->rotation = (sinew_rot){r.x, r.y};
		if (!sinew_rot_is_valid(out->rotation)) {
			scene_path_key(child, path, "rotation");
			return scene_fail(p, child, "expected a unit vector [cos, sin]");
		}
		def->angle = sinew_rot_angle(out->rotation);
	}
	out->has_mass = json_object_get(b, "mass") != NULL;
	out->has_inertia = json_object_get(b, "inertia") != NULL;
	if ((out->has_mass || out->has_inertia) && def->type != SINEW_DYNAMIC_BODY) {
		scene_path_key(child, path, out->has_mass ? "mass" : "inertia");
		return scene_fail(p, child, "only a dynamic body has a mass to override");
	}
	out->name = scene_strdup(name);
	if (name != NULL && out->name == NULL) return out_of_memory(p, path);
	scene_path_key(child, path, "shapes");
	return parse_shapes(p, shapes, child, out, from_body);
}

static bool parse_bodies(scene_parser *p, json_t *bodies)
{
	scene_desc *d = p->desc;
	size_t count = bodies != NULL ? json_array_size(bodies) : 0;
	char array[SCENE_PATH_SIZE];
	scene_path_key(array, d->root, "bodies");
	if (count == 0) return true;
	if (count > 100000000) return scene_fail(p, array, "too many bodies");
	d->bodies = calloc(count, sizeof *d->bodies);
	if (d->bodies == NULL) return out_of_memory(p, array);
	for (size_t i = 0; i < count; ++i) {
		char path[SCENE_PATH_SIZE];
		scene_path_index(path, array, i);
		d->body_count += 1;
		if (!parse_body(p, json_array_get(bodies, i), path, &d->bodies[i])) return false;
	}
	return true;
}

typedef struct named {
	const char *name;
	int index;
} named;

static int compare_named(const void *a, const void *b)
{
	const named *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c != 0 ? c : (x->index > y->index) - (x->index < y->index);
}

bool scene_index_names(scene_parser *p, const char *kind, int count, const char *(*name_of)(const scene_desc *, int),
                       void (*path_of)(const scene_desc *, int, char *), int **out_sorted, int *out_count)
{
	named *list = malloc((size_t)(count > 0 ? count : 1) * sizeof *list);
	if (list == NULL) return out_of_memory(p, kind);
	int n = 0;
	for (int i = 0; i < count; ++i) {
		const char *name = name_of(p->desc, i);
		if (name != NULL) list[n++] = (named){name, i};
	}
	qsort(list, (size_t)n, sizeof *list, compare_named);
	for (int i = 1; i < n; ++i) {
		if (strcmp(list[i - 1].name, list[i].name) == 0) {
			char path[SCENE_PATH_SIZE], first[SCENE_PATH_SIZE];
			path_of(p->desc, list[i].index, path);
			path_of(p->desc, list[i - 1].index, first);
			char at[SCENE_PATH_SIZE + 8];
			snprintf(at, sizeof at, "%s.name", path);
			scene_fail(p, at, "duplicate name \"%s\" (%s has it too)", list[i].name, first);
			free(list);
			return false;
		}
	}
	int *sorted = malloc((size_t)(n > 0 ? n : 1) * sizeof *sorted);
	if (sorted == NULL) {
		free(list);
		return out_of_memory(p, kind);
	}
	for (int i = 0; i < n; ++i) sorted[i] = list[i].index;
	free(list);
	*out_sorted = sorted;
	*out_count = n;
	return true;
}

static const char *body_name(const scene_desc *d, int i) { return d->bodies[i].name; }
static const char *shape_name(const scene_desc *d, int i) { return d->shapes[i].name; }
static void body_path(const scene_desc *d, int i, char *out) { scene_path_in(out, d, "bodies", (size_t)i); }
static void shape_path(const scene_desc *d, int i, char *out)
{
	int body = 0;
	while (body + 1 < d->body_count && d->bodies[body + 1].first_shape <= i) body += 1;
	char body_at[SCENE_PATH_SIZE];
	body_path(d, body, body_at);
	snprintf(out, SCENE_PATH_SIZE, "%.200s.shapes[%d]", body_at, i - d->bodies[body].first_shape);
}

/* Bodies, their names and shapes' names, joints: the same for the document and for a template. */
static bool parse_bodies_and_joints(scene_parser *p, json_t *bodies, json_t *joints)
{
	scene_desc *d = p->desc;
	return parse_bodies(p, bodies) &&
	       scene_index_names(p, "bodies", d->body_count, body_name, body_path, &d->body_by_name,
	                         &d->named_body_count) &&
	       scene_index_names(p, "shapes", d->shape_count, shape_name, shape_path, &d->shape_by_name,
	                         &d->named_shape_count) &&
	       scene_parse_joints(p, joints);
}

/* "templates": [{name, bodies, joints, self_collide}]: each parsed like the document's own bodies and
 * joints, into a description of its own (its joints see only its bodies). */
static bool parse_templates(scene_parser *p, json_t *templates)
{
	scene_desc *d = p->desc;
	size_t count = templates != NULL ? json_array_size(templates) : 0;
	if (count == 0) return true;
	if (count > 100000) return scene_fail(p, "templates", "too many templates");
	d->templates = calloc(count, sizeof *d->templates);
	if (d->templates == NULL) return out_of_memory(p, "templates");
	for (size_t i = 0; i < count; ++i) {
		char path[SCENE_PATH_SIZE];
		scene_path_index(path, "templates", i);
		json_t *t = json_array_get(templates, i), *bodies = NULL, *joints = NULL;
		scene_template *out = &d->templates[i];
		d->template_count += 1;
		snprintf(out->desc.root, sizeof out->desc.root, "templates[%zu]", i);
		out->self_collide = true;
		const char *name = NULL;
		if (!scene_expect_object(p, t, path) || !scene_check_keys(p, t, path, template_keys) ||
		    !scene_require(p, t, path, "name") || !scene_get_string(p, t, path, "name", &name) ||
		    !scene_get_bool(p, t, path, "self_collide", &out->self_collide) ||
		    !scene_get_array(p, t, path, "bodies", &bodies) || !scene_get_array(p, t, path, "joints", &joints)) {
			return false;
		}
		if (scene_desc_find_template(d, name) >= 0) {
			char at[SCENE_PATH_SIZE];
			scene_path_key(at, path, "name");
			return scene_fail(p, at, "duplicate template name \"%s\"", name);
		}
		out->name = scene_strdup(name);
		if (out->name == NULL) return out_of_memory(p, path);
		if (bodies == NULL || json_array_size(bodies) == 0) {
			char at[SCENE_PATH_SIZE];
			scene_path_key(at, path, "bodies");
			return scene_fail(p, at, "a template needs at least one body");
		}
		scene_parser sub = *p;
		sub.desc = &out->desc;
		if (!parse_bodies_and_joints(&sub, bodies, joints)) return false;
		if (out->desc.max_collision_group > d->max_collision_group) {
			d->max_collision_group = out->desc.max_collision_group;
		}
	}
	return true;
}

int scene_desc_find_template(const scene_desc *desc, const char *name)
{
	for (int i = 0; name != NULL && i < desc->template_count; ++i) {
		if (desc->templates[i].name != NULL && strcmp(desc->templates[i].name, name) == 0) return i;
	}
	return -1;
}

static bool parse_version(scene_parser *p, json_t *root)
{
	json_t *version = json_object_get(root, "sinew_scene");
	if (version == NULL) return scene_fail(p, "sinew_scene", "required key is missing (the format version, 1)");
	if (!json_is_integer(version)) return scene_fail(p, "sinew_scene", "expected an integer (the format version, 1)");
	if (json_integer_value(version) != SINEW_SCENE_FORMAT_VERSION) {
		return scene_fail(p, "sinew_scene", "format version %lld is not supported (this build reads %d)",
		                  (long long)json_integer_value(version), SINEW_SCENE_FORMAT_VERSION);
	}
	return true;
}

bool scene_parse_document(scene_parser *p, json_t *root)
{
	scene_desc *d = p->desc;
	json_t *bodies = NULL, *joints = NULL, *rigs = NULL, *templates = NULL, *script = NULL;
	d->gravity = sinew_v2(0.0f, -10.0f);
	d->length_units_per_meter = 1.0f;
	d->hz = 60.0f;
	d->substeps = 4;
	d->steps = 600;
	d->sleep = true;
	if (!json_is_object(root)) return scene_fail(p, "", "expected a JSON object at the top level");
	if (!scene_check_keys(p, root, "", top_keys) || !parse_version(p, root) ||
	    !parse_world(p, json_object_get(root, "world")) || !scene_get_array(p, root, "", "bodies", &bodies) ||
	    !scene_get_array(p, root, "", "joints", &joints) || !scene_get_array(p, root, "", "rigs", &rigs) ||
	    !scene_get_array(p, root, "", "templates", &templates) || !scene_get_array(p, root, "", "script", &script)) {
		return false;
	}
	if (!parse_bodies_and_joints(p, bodies, joints) || !scene_parse_rigs(p, rigs) || !parse_templates(p, templates)) {
		return false;
	}
	return scene_parse_script(p, script);
}

int scene_find_sorted(const int *sorted, int count, const char *name, const char *(*name_of)(const scene_desc *, int),
                      const scene_desc *d)
{
	int lo = 0, hi = count - 1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2;
		int c = strcmp(name, name_of(d, sorted[mid]));
		if (c == 0) return sorted[mid];
		if (c < 0) hi = mid - 1;
		else lo = mid + 1;
	}
	return -1;
}

int scene_desc_find_body(const scene_desc *desc, const char *name)
{
	return name != NULL ? scene_find_sorted(desc->body_by_name, desc->named_body_count, name, body_name, desc) : -1;
}

int scene_desc_find_shape(const scene_desc *desc, const char *name)
{
	return name != NULL ? scene_find_sorted(desc->shape_by_name, desc->named_shape_count, name, shape_name, desc) : -1;
}

void scene_desc_free(scene_desc *desc)
{
	for (int i = 0; i < desc->body_count; ++i) free(desc->bodies[i].name);
	for (int i = 0; i < desc->shape_count; ++i) free(desc->shapes[i].name);
	for (int i = 0; i < desc->joint_count; ++i) free(desc->joints[i].name);
	free(desc->joints);
	free(desc->joint_by_name);
	free(desc->bodies);
	free(desc->shapes);
	free(desc->body_by_name);
	free(desc->shape_by_name);
	for (int i = 0; i < desc->op_count; ++i) free(desc->ops[i].points);
	free(desc->ops);
	for (int i = 0; i < desc->template_count; ++i) {
		free(desc->templates[i].name);
		scene_desc_free(&desc->templates[i].desc);
	}
	free(desc->templates);
	for (int i = 0; i < desc->group_count; ++i) free(desc->group_names[i]);
	free(desc->group_names);
	scene_rigs_free(desc);
	memset(desc, 0, sizeof *desc);
}
