/* peer_scene.h: the part of the sinew scene format (docs/scene-format.md) that the benchmark
 * scenes use, read with jansson into plain structs, for the peers in bench/peers/ (C and C++).
 * Supported: world gravity/length_units_per_meter/hz/steps/sleep; bodies with type, position,
 * angle, velocities, linear and angular damping, gravity_scale, awake, can_sleep, sleep_threshold
 * (read, not used: see README), mass, inertia, layer, mask, group and circle / capsule (center1,
 * center2) / box (half_extents, center, angle, radius) / polygon (vertices, no radius) shapes with
 * density, friction, restitution, layer, mask and group;
 * revolute joints with anchor, reference_angle, limit {lower, upper, frame "local"}, motor {speed,
 * max_torque} and spring {hertz, damping_ratio, target}; templates of such bodies and joints; and
 * the script ops spawn and destroy_group. Anything else the file holds makes the peer refuse the
 * scene (peer_scene_load returns 0 and says what), so a peer never runs a different scene.
 * A scene in other length units (length_units_per_meter != 1: pixels) is converted to metres as
 * it loads (peer_scene_to_metres), so the engines only ever see metres, kilograms and seconds.
 * Header-only; every function is static. Also the timing and quality helpers shared by peers;
 * peer_world.h builds and scripts a scene through an engine's callbacks. */
#ifndef PEER_SCENE_H
#define PEER_SCENE_H

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PEER_PI 3.14159265358979323846
#define PEER_MAX_FILTER_CLASSES 32

enum { PEER_STATIC = 0, PEER_KINEMATIC = 1, PEER_DYNAMIC = 2 };
enum { PEER_CIRCLE = 0, PEER_CAPSULE = 1, PEER_BOX = 2, PEER_POLYGON = 3 };
#define PEER_MAX_POLYGON_VERTICES 8 /* sinew's and Box2D's b2_maxPolygonVertices */
enum { PEER_OP_SPAWN = 0, PEER_OP_DESTROY_GROUP = 1 };

typedef struct peer_shape {
	int type;
	double radius;           /* circle, capsule, box corner radius */
	double c1[2], c2[2];     /* capsule centres (local) */
	double center[2], angle; /* circle / box (angle radians) */
	double half[2];          /* box outer half-extents */
	int vertex_count;        /* polygon: counter-clockwise, convex (sinew checks the file) */
	double vertices[PEER_MAX_POLYGON_VERTICES][2];
	double density, friction, restitution;
	unsigned long layer, mask;
	unsigned long group; /* 0: none; same non-zero group never collides */
	int filter_class;    /* index of (layer, mask) in peer_scene.class_collides */
} peer_shape;

typedef struct peer_body {
	const char *name;
	int type;
	double position[2], angle, velocity[2], angular_velocity;
	double linear_damping, angular_damping, gravity_scale;
	int awake, can_sleep;
	int has_mass, has_inertia; /* overrides: a mass alone scales the shapes' inertia with it */
	double mass, inertia;      /* kg; kg length^2 about the centre of mass (m^2 once converted) */
	int shape_count;
	peer_shape *shapes;
} peer_body;

typedef struct peer_joint {
	int a, b; /* body indices (of the scene, or of the template); a = -1: the world */
	double anchor[2];
	int has_reference;
	double reference; /* radians */
	int has_limit;
	double lower, upper; /* radians */
	int has_motor;
	double speed, max_torque; /* rad/s, N m */
	int has_spring;
	double hertz, damping_ratio, target; /* Hz, 1, radians */
} peer_joint;

/* Bodies and joints that spawn ops copy; positions and anchors relative to the spawn point. */
typedef struct peer_template {
	const char *name;
	int self_collide; /* 0: each instance gets a collision group of its own */
	int body_count, joint_count;
	peer_body *bodies;
	peer_joint *joints;
} peer_template;

typedef struct peer_op {
	int step, kind, order; /* order: place in the file's script (ops of one step run in file order) */
	int template_index;    /* spawn */
	int group;             /* index in peer_scene.group_names; -1: none (spawn only) */
	int point_count;
	double *points; /* spawn: x, y pairs */
} peer_op;

typedef struct peer_scene {
	char name[256];
	double gravity[2], hz;
	double length_units_per_meter; /* of the file; everything below is in metres once loaded */
	int steps, sleep;
	int body_count, joint_count, template_count, op_count, group_count;
	peer_body *bodies;
	peer_joint *joints;
	peer_template *templates;
	peer_op *ops;            /* sorted by step, then file order */
	const char **group_names; /* the groups spawn ops name */
	unsigned long max_group; /* the largest shape group in the file: instance groups come after it */
	int group_bound;         /* at most this many distinct non-zero groups can exist in a run */
	int has_joints, has_springs; /* in the scene or in a template some op spawns */
	int filter_class_count;  /* distinct (layer, mask) pairs */
	unsigned long class_layer[PEER_MAX_FILTER_CLASSES], class_mask[PEER_MAX_FILTER_CLASSES];
	unsigned long class_collides[PEER_MAX_FILTER_CLASSES]; /* bit j: class j collides with this one */
	json_t *root; /* keeps the name strings alive */
} peer_scene;

static inline int peer_fail(const char *file, const char *what, const char *key)
{
	fprintf(stderr, "%s: %s%s%s\n", file, what, key ? ": " : "", key ? key : "");
	return 0;
}

/* Only these keys may appear (and "x" anywhere). */
static inline int peer_keys_ok(const char *file, json_t *o, const char *const *allowed, const char *where)
{
	const char *key;
	json_t *v;
	json_object_foreach(o, key, v) {
		int ok = strcmp(key, "x") == 0;
		for (int i = 0; !ok && allowed[i] != NULL; ++i) ok = strcmp(key, allowed[i]) == 0;
		if (!ok) {
			fprintf(stderr, "%s: %s.%s: not supported by this peer\n", file, where, key);
			return 0;
		}
	}
	return 1;
}

static inline double peer_num(json_t *o, const char *key, double fallback)
{
	json_t *v = json_object_get(o, key);
	return v != NULL && json_is_number(v) ? json_number_value(v) : fallback;
}

static inline void peer_vec(json_t *o, const char *key, double out[2], double x, double y)
{
	json_t *v = json_object_get(o, key);
	out[0] = x;
	out[1] = y;
	if (v != NULL && json_is_array(v) && json_array_size(v) == 2) {
		out[0] = json_number_value(json_array_get(v, 0));
		out[1] = json_number_value(json_array_get(v, 1));
	}
}

static inline int peer_bool(json_t *o, const char *key, int fallback)
{
	json_t *v = json_object_get(o, key);
	return v != NULL && json_is_boolean(v) ? json_is_true(v) : fallback;
}

typedef struct peer_name {
	const char *name;
	int index;
} peer_name;

static inline int peer_name_cmp(const void *a, const void *b)
{
	return strcmp(((const peer_name *)a)->name, ((const peer_name *)b)->name);
}

static inline int peer_find(const peer_name *names, int n, const char *name)
{
	peer_name key = {name, 0};
	if (name == NULL) return -2;
	const peer_name *hit = (const peer_name *)bsearch(&key, names, (size_t)n, sizeof *names, peer_name_cmp);
	return hit != NULL ? hit->index : -2;
}

/* The (layer, mask) pair's filter class, added when new; -1 when there are too many. */
static inline int peer_filter_class(peer_scene *s, unsigned long layer, unsigned long mask)
{
	for (int i = 0; i < s->filter_class_count; ++i) {
		if (s->class_layer[i] == layer && s->class_mask[i] == mask) return i;
	}
	if (s->filter_class_count == PEER_MAX_FILTER_CLASSES) return -1;
	s->class_layer[s->filter_class_count] = layer;
	s->class_mask[s->filter_class_count] = mask;
	return s->filter_class_count++;
}

/* sinew collides two shapes when (a.layer & b.mask) || (b.layer & a.mask): "either way". Box2D
 * and Chipmunk need both ways. Giving every distinct (layer, mask) pair a bit of its own as the
 * category, and as the mask the bits of the classes sinew lets it collide with, makes their test
 * the same as sinew's (the relation is symmetric), for up to 16 (Box2D) or 32 classes. */
static inline void peer_filter_collisions(peer_scene *s)
{
	for (int i = 0; i < s->filter_class_count; ++i) {
		s->class_collides[i] = 0;
		for (int j = 0; j < s->filter_class_count; ++j) {
			if ((s->class_layer[i] & s->class_mask[j]) || (s->class_layer[j] & s->class_mask[i])) {
				s->class_collides[i] |= 1ul << j;
			}
		}
	}
}

/* A polygon's vertices. Rounded polygons (a radius) are refused: Box2D 2.4 has none, and no
 * bench scene needs one. */
static inline int peer_parse_vertices(const char *file, json_t *sh, const char *where, peer_shape *ps)
{
	json_t *vertices = json_object_get(sh, "vertices");
	size_t n = json_is_array(vertices) ? json_array_size(vertices) : 0;
	if (n < 3 || n > PEER_MAX_POLYGON_VERTICES) return peer_fail(file, "a polygon needs 3 to 8 vertices", where);
	if (ps->radius != 0.0) return peer_fail(file, "rounded polygons (radius) are not supported by the peers", where);
	ps->vertex_count = (int)n;
	for (size_t i = 0; i < n; ++i) {
		json_t *v = json_array_get(vertices, i);
		ps->vertices[i][0] = json_number_value(json_array_get(v, 0));
		ps->vertices[i][1] = json_number_value(json_array_get(v, 1));
	}
	return 1;
}

static inline int peer_parse_shape(const char *file, json_t *sh, const char *where, unsigned long layer,
                                   unsigned long mask, unsigned long group, peer_scene *s, peer_shape *ps)
{
	static const char *const shape_keys[] = {"type", "radius", "center", "center1", "center2", "half_extents", "angle",
	                                         "vertices", "density", "friction", "restitution", "layer", "mask",
	                                         "group", NULL};
	if (!peer_keys_ok(file, sh, shape_keys, where)) return 0;
	const char *st = json_string_value(json_object_get(sh, "type"));
	if (st == NULL) return peer_fail(file, "shape without a type", where);
	ps->radius = peer_num(sh, "radius", 0);
	peer_vec(sh, "center", ps->center, 0, 0);
	ps->angle = peer_num(sh, "angle", 0) * PEER_PI / 180;
	if (strcmp(st, "circle") == 0) {
		ps->type = PEER_CIRCLE;
	} else if (strcmp(st, "capsule") == 0) {
		ps->type = PEER_CAPSULE;
		if (json_object_get(sh, "center1") == NULL || json_object_get(sh, "center2") == NULL) {
			return peer_fail(file, "capsule without center1/center2 (the Godot form is not supported)", where);
		}
		peer_vec(sh, "center1", ps->c1, 0, 0);
		peer_vec(sh, "center2", ps->c2, 0, 0);
	} else if (strcmp(st, "box") == 0) {
		ps->type = PEER_BOX;
		peer_vec(sh, "half_extents", ps->half, 0.5, 0.5);
	} else if (strcmp(st, "polygon") == 0) {
		ps->type = PEER_POLYGON;
		if (!peer_parse_vertices(file, sh, where, ps)) return 0;
	} else {
		return peer_fail(file, "unsupported shape type", st);
	}
	ps->density = peer_num(sh, "density", 1);
	ps->friction = peer_num(sh, "friction", 0.6);
	ps->restitution = peer_num(sh, "restitution", 0);
	ps->layer = (unsigned long)peer_num(sh, "layer", (double)layer);
	ps->mask = (unsigned long)peer_num(sh, "mask", (double)mask);
	ps->group = (unsigned long)peer_num(sh, "group", (double)group);
	if (ps->group > s->max_group) s->max_group = ps->group;
	ps->filter_class = peer_filter_class(s, ps->layer, ps->mask);
	if (ps->filter_class < 0) return peer_fail(file, "more distinct (layer, mask) pairs than this peer maps", where);
	return 1;
}

/* An array of bodies, the scene's or a template's (prefix "" or "templates[]."). *names gets the
 * named ones sorted by name, for the joints; the caller frees it. */
static inline int peer_parse_bodies(const char *file, json_t *array, const char *prefix, peer_scene *s,
                                    int *count, peer_body **out, peer_name **names, int *named)
{
	static const char *const body_keys[] = {"name", "type", "position", "angle", "linear_velocity",
	                                        "angular_velocity", "linear_damping", "angular_damping",
	                                        "gravity_scale", "awake", "can_sleep", "sleep_threshold", "mass",
	                                        "inertia", "layer", "mask", "group", "shapes", NULL};
	char where[64], shape_where[64];
	snprintf(where, sizeof where, "%sbodies[]", prefix);
	snprintf(shape_where, sizeof shape_where, "%sbodies[].shapes[]", prefix);
	*count = array ? (int)json_array_size(array) : 0;
	*out = (peer_body *)calloc((size_t)*count + 1, sizeof **out);
	*names = (peer_name *)calloc((size_t)*count + 1, sizeof **names);
	*named = 0;
	for (int i = 0; i < *count; ++i) {
		json_t *b = json_array_get(array, (size_t)i);
		peer_body *pb = &(*out)[i];
		if (!peer_keys_ok(file, b, body_keys, where)) return 0;
		json_t *name = json_object_get(b, "name");
		pb->name = name ? json_string_value(name) : NULL;
		if (pb->name != NULL) {
			(*names)[*named].name = pb->name;
			(*names)[(*named)++].index = i;
		}
		const char *type = json_string_value(json_object_get(b, "type"));
		pb->type = type == NULL || strcmp(type, "dynamic") == 0 ? PEER_DYNAMIC
		           : strcmp(type, "static") == 0               ? PEER_STATIC
		                                                       : PEER_KINEMATIC;
		peer_vec(b, "position", pb->position, 0, 0);
		pb->angle = peer_num(b, "angle", 0) * PEER_PI / 180;
		peer_vec(b, "linear_velocity", pb->velocity, 0, 0);
		pb->angular_velocity = peer_num(b, "angular_velocity", 0) * PEER_PI / 180;
		pb->linear_damping = peer_num(b, "linear_damping", 0);
		pb->angular_damping = peer_num(b, "angular_damping", 0);
		pb->gravity_scale = peer_num(b, "gravity_scale", 1);
		pb->awake = peer_bool(b, "awake", 1);
		pb->can_sleep = peer_bool(b, "can_sleep", 1);
		pb->has_mass = json_object_get(b, "mass") != NULL;
		pb->has_inertia = json_object_get(b, "inertia") != NULL;
		pb->mass = peer_num(b, "mass", 0);
		pb->inertia = peer_num(b, "inertia", 0);
		unsigned long layer = (unsigned long)peer_num(b, "layer", 1), mask = (unsigned long)peer_num(b, "mask", 1);
		unsigned long group = (unsigned long)peer_num(b, "group", 0);
		json_t *shapes = json_object_get(b, "shapes");
		pb->shape_count = shapes ? (int)json_array_size(shapes) : 0;
		pb->shapes = (peer_shape *)calloc((size_t)pb->shape_count + 1, sizeof *pb->shapes);
		for (int k = 0; k < pb->shape_count; ++k) {
			json_t *sh = json_array_get(shapes, (size_t)k);
			if (!peer_parse_shape(file, sh, shape_where, layer, mask, group, s, &pb->shapes[k])) return 0;
		}
	}
	qsort(*names, (size_t)*named, sizeof **names, peer_name_cmp);
	return 1;
}

static inline int peer_parse_joint(const char *file, json_t *j, const char *where, const peer_name *names, int named,
                                   peer_joint *pj)
{
	static const char *const joint_keys[] = {"name", "type", "body_a", "body_b", "anchor", "reference_angle",
	                                         "limit", "motor", "spring", NULL};
	static const char *const limit_keys[] = {"lower", "upper", "frame", NULL};
	static const char *const motor_keys[] = {"speed", "max_torque", NULL};
	static const char *const spring_keys[] = {"hertz", "damping_ratio", "target", NULL};
	if (!peer_keys_ok(file, j, joint_keys, where)) return 0;
	const char *type = json_string_value(json_object_get(j, "type"));
	if (type == NULL || strcmp(type, "revolute") != 0) return peer_fail(file, "unsupported joint type", type);
	json_t *a = json_object_get(j, "body_a");
	pj->a = a == NULL || json_is_null(a) ? -1 : peer_find(names, named, json_string_value(a));
	pj->b = peer_find(names, named, json_string_value(json_object_get(j, "body_b")));
	if (pj->a == -2 || pj->b < 0) return peer_fail(file, "a joint names an unknown body", where);
	peer_vec(j, "anchor", pj->anchor, 0, 0);
	pj->has_reference = json_object_get(j, "reference_angle") != NULL;
	pj->reference = peer_num(j, "reference_angle", 0) * PEER_PI / 180;
	json_t *limit = json_object_get(j, "limit");
	if (limit != NULL) {
		if (!peer_keys_ok(file, limit, limit_keys, "joints[].limit")) return 0;
		json_t *frame = json_object_get(limit, "frame");
		if (frame != NULL && (!json_is_string(frame) || strcmp(json_string_value(frame), "local") != 0)) {
			return peer_fail(file, "only local-frame limits are supported", where);
		}
		pj->has_limit = 1;
		pj->lower = peer_num(limit, "lower", 0) * PEER_PI / 180;
		pj->upper = peer_num(limit, "upper", 0) * PEER_PI / 180;
	}
	json_t *motor = json_object_get(j, "motor");
	if (motor != NULL) {
		if (!peer_keys_ok(file, motor, motor_keys, "joints[].motor")) return 0;
		pj->has_motor = 1;
		pj->speed = peer_num(motor, "speed", 0) * PEER_PI / 180;
		pj->max_torque = peer_num(motor, "max_torque", INFINITY);
	}
	json_t *spring = json_object_get(j, "spring");
	if (spring != NULL) {
		if (!peer_keys_ok(file, spring, spring_keys, "joints[].spring")) return 0;
		pj->has_spring = 1;
		pj->hertz = peer_num(spring, "hertz", 0);
		pj->damping_ratio = peer_num(spring, "damping_ratio", 0);
		pj->target = peer_num(spring, "target", 0) * PEER_PI / 180;
	}
	return 1;
}

/* An array of joints, the scene's or a template's, naming bodies of names. */
static inline int peer_parse_joints(const char *file, json_t *array, const char *prefix, const peer_name *names,
                                    int named, int *count, peer_joint **out)
{
	char where[64];
	snprintf(where, sizeof where, "%sjoints[]", prefix);
	*count = array ? (int)json_array_size(array) : 0;
	*out = (peer_joint *)calloc((size_t)*count + 1, sizeof **out);
	for (int i = 0; i < *count; ++i) {
		if (!peer_parse_joint(file, json_array_get(array, (size_t)i), where, names, named, &(*out)[i])) return 0;
	}
	return 1;
}

/* Bodies and joints together, as the document has them and as each template has them. */
static inline int peer_parse_figure(const char *file, json_t *o, const char *prefix, peer_scene *s, int *body_count,
                                    peer_body **bodies, int *joint_count, peer_joint **joints)
{
	peer_name *names = NULL;
	int named = 0;
	int ok = peer_parse_bodies(file, json_object_get(o, "bodies"), prefix, s, body_count, bodies, &names, &named) &&
	         peer_parse_joints(file, json_object_get(o, "joints"), prefix, names, named, joint_count, joints);
	free(names);
	return ok;
}

static inline int peer_parse_templates(const char *file, json_t *array, peer_scene *s)
{
	static const char *const template_keys[] = {"name", "self_collide", "bodies", "joints", NULL};
	s->template_count = array ? (int)json_array_size(array) : 0;
	s->templates = (peer_template *)calloc((size_t)s->template_count + 1, sizeof *s->templates);
	for (int i = 0; i < s->template_count; ++i) {
		json_t *t = json_array_get(array, (size_t)i);
		peer_template *pt = &s->templates[i];
		if (!peer_keys_ok(file, t, template_keys, "templates[]")) return 0;
		pt->name = json_string_value(json_object_get(t, "name"));
		if (pt->name == NULL) return peer_fail(file, "a template without a name", NULL);
		pt->self_collide = peer_bool(t, "self_collide", 1);
		if (!peer_parse_figure(file, t, "templates[].", s, &pt->body_count, &pt->bodies, &pt->joint_count,
		                       &pt->joints)) {
			return 0;
		}
	}
	return 1;
}

/* The group's index in s->group_names; spawn ops add new names, destroy_group ops must find one. */
static inline int peer_group_index(peer_scene *s, const char *name, int add)
{
	for (int i = 0; i < s->group_count; ++i) {
		if (strcmp(s->group_names[i], name) == 0) return i;
	}
	if (!add) return -1;
	s->group_names[s->group_count] = name;
	return s->group_count++;
}

static inline int peer_op_cmp(const void *a, const void *b)
{
	const peer_op *x = (const peer_op *)a, *y = (const peer_op *)b;
	if (x->step != y->step) return x->step < y->step ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

static inline int peer_parse_op(const char *file, json_t *o, peer_scene *s, peer_op *op)
{
	static const char *const spawn_keys[] = {"step", "op", "template", "group", "at", NULL};
	static const char *const destroy_keys[] = {"step", "op", "group", NULL};
	const char *kind = json_string_value(json_object_get(o, "op"));
	const char *group = json_string_value(json_object_get(o, "group"));
	op->step = (int)peer_num(o, "step", -1);
	if (kind == NULL || op->step < 0) return peer_fail(file, "script[]: an op without a step or an op", NULL);
	if (strcmp(kind, "spawn") == 0) {
		if (!peer_keys_ok(file, o, spawn_keys, "script[]")) return 0;
		op->kind = PEER_OP_SPAWN;
		const char *name = json_string_value(json_object_get(o, "template"));
		op->template_index = -1;
		for (int i = 0; name != NULL && i < s->template_count; ++i) {
			if (strcmp(s->templates[i].name, name) == 0) op->template_index = i;
		}
		if (op->template_index < 0) return peer_fail(file, "script[]: spawn of an unknown template", name);
		op->group = group != NULL ? peer_group_index(s, group, 1) : -1;
		json_t *at = json_object_get(o, "at");
		op->point_count = at ? (int)json_array_size(at) : 0;
		op->points = (double *)calloc(2 * (size_t)op->point_count + 2, sizeof *op->points);
		for (int k = 0; k < op->point_count; ++k) {
			json_t *point = json_array_get(at, (size_t)k);
			op->points[2 * k] = json_number_value(json_array_get(point, 0));
			op->points[2 * k + 1] = json_number_value(json_array_get(point, 1));
		}
		return 1;
	}
	if (strcmp(kind, "destroy_group") == 0) {
		if (!peer_keys_ok(file, o, destroy_keys, "script[]")) return 0;
		op->kind = PEER_OP_DESTROY_GROUP;
		op->group = group != NULL ? peer_group_index(s, group, 0) : -1;
		if (op->group < 0) return peer_fail(file, "script[]: destroy_group of a group no spawn names", group);
		return 1;
	}
	return peer_fail(file, "script[].op: not supported by this peer", kind);
}

/* The script: spawn ops first (they name the groups), then the rest, then sorted by step. */
static inline int peer_parse_script(const char *file, json_t *array, peer_scene *s)
{
	s->op_count = array ? (int)json_array_size(array) : 0;
	s->ops = (peer_op *)calloc((size_t)s->op_count + 1, sizeof *s->ops);
	s->group_names = (const char **)calloc((size_t)s->op_count + 1, sizeof *s->group_names);
	for (int pass = 0; pass < 2; ++pass) {
		for (int i = 0; i < s->op_count; ++i) {
			json_t *o = json_array_get(array, (size_t)i);
			const char *kind = json_string_value(json_object_get(o, "op"));
			int spawn = kind != NULL && strcmp(kind, "spawn") == 0;
			if (spawn != (pass == 0)) continue;
			s->ops[i].order = i;
			if (!peer_parse_op(file, o, s, &s->ops[i])) return 0;
		}
	}
	qsort(s->ops, (size_t)s->op_count, sizeof *s->ops, peer_op_cmp);
	return 1;
}

static inline int peer_has_springs(const peer_joint *joints, int count)
{
	for (int i = 0; i < count; ++i) {
		if (joints[i].has_spring) return 1;
	}
	return 0;
}

/* What the ops will make: whether joints and springs appear, and a bound on the collision groups
 * (the file's shape groups, plus one per instance of a template that does not self-collide). */
static inline void peer_scene_summarise(peer_scene *s)
{
	s->has_joints = s->joint_count > 0;
	s->has_springs = peer_has_springs(s->joints, s->joint_count);
	s->group_bound = 0;
	for (int i = 0; i < s->body_count; ++i) {
		for (int k = 0; k < s->bodies[i].shape_count; ++k) s->group_bound += s->bodies[i].shapes[k].group != 0;
	}
	for (int i = 0; i < s->template_count; ++i) {
		const peer_template *t = &s->templates[i];
		for (int b = 0; b < t->body_count; ++b) {
			for (int k = 0; k < t->bodies[b].shape_count; ++k) s->group_bound += t->bodies[b].shapes[k].group != 0;
		}
	}
	for (int i = 0; i < s->op_count; ++i) {
		if (s->ops[i].kind != PEER_OP_SPAWN) continue;
		const peer_template *t = &s->templates[s->ops[i].template_index];
		if (!t->self_collide) s->group_bound += s->ops[i].point_count;
		if (t->joint_count > 0) s->has_joints = 1;
		if (peer_has_springs(t->joints, t->joint_count)) s->has_springs = 1;
	}
}

/* Metres from the file's length units. Box2D 2.4's tolerances are metres compiled into the library
 * (b2_lengthUnitsPerMeter is 1 in Debian's build: b2_linearSlop 0.005 m, b2_maxTranslation 2 m a
 * step), so a pixel game converts its lengths at the engine's border; the Chipmunk peer gets the
 * same metres, so its metre settings (collision slop 0.005) hold for every scene. Lengths divide
 * by length_units_per_meter, masses and angles stay, so a density (kg per square length unit)
 * multiplies by its square and an inertia or a torque (kg length^2, kg length^2 / s^2) divides by
 * it. The quality figures then come out in metres, as sinew bench reports them. */
static inline void peer_scale2(double v[2], double k)
{
	v[0] *= k;
	v[1] *= k;
}

static inline void peer_bodies_to_metres(peer_body *bodies, int count, double k)
{
	for (int i = 0; i < count; ++i) {
		peer_body *b = &bodies[i];
		peer_scale2(b->position, k);
		peer_scale2(b->velocity, k);
		b->inertia *= k * k;
		for (int j = 0; j < b->shape_count; ++j) {
			peer_shape *sh = &b->shapes[j];
			sh->radius *= k;
			peer_scale2(sh->c1, k);
			peer_scale2(sh->c2, k);
			peer_scale2(sh->center, k);
			peer_scale2(sh->half, k);
			for (int v = 0; v < sh->vertex_count; ++v) peer_scale2(sh->vertices[v], k);
			sh->density /= k * k;
		}
	}
}

static inline void peer_joints_to_metres(peer_joint *joints, int count, double k)
{
	for (int i = 0; i < count; ++i) {
		peer_scale2(joints[i].anchor, k);
		joints[i].max_torque *= k * k; /* INFINITY stays */
	}
}

static inline void peer_scene_to_metres(peer_scene *s)
{
	double k = 1.0 / s->length_units_per_meter;
	if (k == 1.0) return;
	peer_scale2(s->gravity, k);
	peer_bodies_to_metres(s->bodies, s->body_count, k);
	peer_joints_to_metres(s->joints, s->joint_count, k);
	for (int i = 0; i < s->template_count; ++i) {
		peer_bodies_to_metres(s->templates[i].bodies, s->templates[i].body_count, k);
		peer_joints_to_metres(s->templates[i].joints, s->templates[i].joint_count, k);
	}
	for (int i = 0; i < s->op_count; ++i) {
		for (int p = 0; p < 2 * s->ops[i].point_count; ++p) s->ops[i].points[p] *= k;
	}
}

static inline int peer_scene_load(const char *file, peer_scene *s)
{
	static const char *const top_keys[] = {"sinew_scene", "world", "bodies", "joints", "templates", "script", NULL};
	static const char *const world_keys[] = {"gravity", "length_units_per_meter", "hz", "substeps", "steps",
	                                         "sleep", NULL};
	memset(s, 0, sizeof *s);
	json_error_t error;
	json_t *root = json_load_file(file, 0, &error);
	if (root == NULL) {
		fprintf(stderr, "%s:%d:%d: %s\n", file, error.line, error.column, error.text);
		return 0;
	}
	s->root = root;
	const char *base = strrchr(file, '/');
	snprintf(s->name, sizeof s->name, "%s", base ? base + 1 : file);
	char *dot = strstr(s->name, ".json");
	if (dot != NULL) *dot = 0;
	if (!peer_keys_ok(file, root, top_keys, "(top)")) return 0;
	json_t *w = json_object_get(root, "world");
	if (w == NULL) w = json_object();
	if (!peer_keys_ok(file, w, world_keys, "world")) return 0;
	peer_vec(w, "gravity", s->gravity, 0, -10);
	s->length_units_per_meter = peer_num(w, "length_units_per_meter", 1);
	if (!(s->length_units_per_meter > 0.0)) return peer_fail(file, "world.length_units_per_meter must be > 0", NULL);
	s->hz = peer_num(w, "hz", 60);
	s->steps = (int)peer_num(w, "steps", 600);
	s->sleep = peer_bool(w, "sleep", 1);
	if (!peer_parse_figure(file, root, "", s, &s->body_count, &s->bodies, &s->joint_count, &s->joints) ||
	    !peer_parse_templates(file, json_object_get(root, "templates"), s) ||
	    !peer_parse_script(file, json_object_get(root, "script"), s)) {
		return 0;
	}
	peer_filter_collisions(s);
	peer_scene_summarise(s);
	peer_scene_to_metres(s);
	return 1;
}

/* A convex polygon's mass, centroid and inertia about the centroid: triangles fanned from the first
 * vertex (for precision far from the origin), as Box2D's b2PolygonShape::ComputeMass. */
static inline void peer_polygon_mass(const peer_shape *s, double *mass, double center[2], double *inertia)
{
	const double(*v)[2] = s->vertices;
	double area = 0.0, cx = 0.0, cy = 0.0, second = 0.0;
	for (int i = 1; i + 1 < s->vertex_count; ++i) {
		double e1x = v[i][0] - v[0][0], e1y = v[i][1] - v[0][1];
		double e2x = v[i + 1][0] - v[0][0], e2y = v[i + 1][1] - v[0][1];
		double d = e1x * e2y - e1y * e2x, triangle = 0.5 * d;
		area += triangle;
		cx += triangle * (e1x + e2x) / 3.0;
		cy += triangle * (e1y + e2y) / 3.0;
		second += d / 12.0 * (e1x * e1x + e2x * e1x + e2x * e2x + e1y * e1y + e2y * e1y + e2y * e2y);
	}
	cx /= area;
	cy /= area;
	*mass = s->density * area;
	center[0] = v[0][0] + cx;
	center[1] = v[0][1] + cy;
	*inertia = s->density * second - *mass * (cx * cx + cy * cy); /* moved from the first vertex to the centroid */
}

/* Mass, centre (local) and inertia about the centre of one shape, as sinew computes it. */
static inline void peer_shape_mass(const peer_shape *s, double *mass, double center[2], double *inertia)
{
	double rho = s->density;
	if (s->type == PEER_CIRCLE) {
		*mass = rho * PEER_PI * s->radius * s->radius;
		center[0] = s->center[0];
		center[1] = s->center[1];
		*inertia = 0.5 * *mass * s->radius * s->radius;
	} else if (s->type == PEER_CAPSULE) {
		double dx = s->c2[0] - s->c1[0], dy = s->c2[1] - s->c1[1];
		double length = sqrt(dx * dx + dy * dy), r = s->radius, h = 0.5 * length;
		double circle_mass = rho * PEER_PI * r * r, box_mass = rho * 2 * r * length;
		double lc = 4 * r / (3 * PEER_PI);
		*mass = circle_mass + box_mass;
		center[0] = 0.5 * (s->c1[0] + s->c2[0]);
		center[1] = 0.5 * (s->c1[1] + s->c2[1]);
		*inertia = circle_mass * (0.5 * r * r + h * h + 2 * h * lc) + box_mass * (4 * r * r + length * length) / 12;
	} else if (s->type == PEER_POLYGON) {
		peer_polygon_mass(s, mass, center, inertia);
	} else {
		/* A rounded box: the core box swept by the radius (area exact; inertia of the outer box). */
		double r = s->radius, cx = s->half[0] - r, cy = s->half[1] - r;
		double area = 4 * cx * cy + 4 * r * (cx + cy) + PEER_PI * r * r;
		*mass = rho * area;
		center[0] = s->center[0];
		center[1] = s->center[1];
		*inertia = *mass * (s->half[0] * s->half[0] + s->half[1] * s->half[1]) / 3;
	}
}

/* A body's mass, centre (local) and inertia about that centre from its shapes, as sinew computes
 * them (what a mass override scales; the Box2D peer's stand-ins overlap, and Chipmunk's capsule
 * moment is a box's). */
static inline void peer_body_mass(const peer_body *b, double *mass, double center[2], double *inertia)
{
	double m = 0.0, cx = 0.0, cy = 0.0, origin = 0.0; /* origin: inertia about the body origin */
	for (int k = 0; k < b->shape_count; ++k) {
		double sm, sc[2], si;
		peer_shape_mass(&b->shapes[k], &sm, sc, &si);
		m += sm;
		cx += sm * sc[0];
		cy += sm * sc[1];
		origin += si + sm * (sc[0] * sc[0] + sc[1] * sc[1]);
	}
	center[0] = m > 0.0 ? cx / m : 0.0;
	center[1] = m > 0.0 ? cy / m : 0.0;
	*mass = m;
	*inertia = origin - m * (center[0] * center[0] + center[1] * center[1]);
}

/* Stiffness (N m / rad) and damping (N m s / rad) of an angular spring of hertz and damping_ratio
 * between bodies of inverse rotational inertia inv_a and inv_b (about their centres; 0: does not
 * turn): the spring sinew's soft row makes, on the joint's effective inertia 1 / (inv_a + inv_b).
 * The same as Box2D 2.4's b2AngularStiffness, but about the centres of mass. */
static inline void peer_spring_coefficients(const peer_joint *j, double inv_a, double inv_b, double *stiffness,
                                            double *damping)
{
	double inv = inv_a + inv_b, inertia = inv > 0.0 ? 1.0 / inv : 0.0;
	double omega = 2.0 * PEER_PI * j->hertz;
	*stiffness = inertia * omega * omega;
	*damping = 2.0 * inertia * j->damping_ratio * omega;
}

/* An angle in [-pi, pi], as sinew measures a joint angle (sinew_joint_get_limit_violation). */
static inline double peer_wrap_angle(double a)
{
	return a - 2.0 * PEER_PI * floor((a + PEER_PI) / (2.0 * PEER_PI));
}

/* How far the joint angle (radians, not yet wrapped) is outside the joint's limit; 0 without one. */
static inline double peer_limit_overshoot(const peer_joint *j, double angle)
{
	if (!j->has_limit || isnan(angle)) return j->has_limit ? angle : 0.0; /* NaN shows, as in sinew bench */
	angle = peer_wrap_angle(angle);
	return fmax(0.0, fmax(j->lower - angle, angle - j->upper));
}

static inline double peer_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* This process's CPU time, s: beside the wall time, as sinew bench reports both (a shared machine
 * stretches wall time by the time the process waited for a core). */
static inline double peer_cpu_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static inline int peer_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The quality figure sinew bench reports for the scene: 0 joint separation, 1 pyramid drift,
 * 2 energy change. */
static inline int peer_quality_kind(const peer_scene *s)
{
	if (s->has_joints) return 0; /* joints of the file or of spawned templates, as sinew bench */
	return strstr(s->name, "pyramid") != NULL ? 1 : 2;
}

static const char *const peer_quality_names[] = {"joint_separation", "pyramid_drift", "energy_change"};

/* Command line: SCENE [--steps N] [--repeat R] [--max-seconds S] [--positions FILE]. A run that
 * has taken more than S seconds of stepping stops there and reports the steps it took (and no more
 * runs are made): a peer that is very slow on a scene still gives a figure in bounded time. With
 * --positions, each run writes every live dynamic body's origin and angle to FILE at its end (the
 * last run's stays; peer_write_position), to check where things came to rest against sinew save. */
static double peer_max_seconds = 0.0;
static const char *peer_positions_file = NULL;

static inline int peer_args(int argc, char **argv, const char **file, int *steps, int *repeat)
{
	*file = NULL;
	*steps = -1;
	*repeat = 3;
	for (int i = 1; i < argc; ++i) {
		if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) {
			*steps = atoi(argv[++i]);
		} else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc) {
			*repeat = atoi(argv[++i]);
		} else if (strcmp(argv[i], "--max-seconds") == 0 && i + 1 < argc) {
			peer_max_seconds = atof(argv[++i]);
		} else if (strcmp(argv[i], "--positions") == 0 && i + 1 < argc) {
			peer_positions_file = argv[++i];
		} else if (argv[i][0] != '-' && *file == NULL) {
			*file = argv[i];
		} else {
			*file = NULL;
			break;
		}
	}
	if (*file == NULL || *repeat < 1 || (*steps >= 0 && *steps < 2)) {
		fprintf(stderr, "usage: %s SCENE.json [--steps N >= 2] [--repeat R] [--max-seconds S] [--positions FILE]\n",
		        argv[0]);
		return 0;
	}
	return 1;
}

/* One line of --positions: body index (creation order), x, y in the file's length units, angle in
 * degrees (the engine's, in metres, turned back). */
static inline void peer_write_position(FILE *f, const peer_scene *s, int index, double x, double y, double angle)
{
	double k = s->length_units_per_meter;
	fprintf(f, "%d %.6g %.6g %.6g\n", index, k * x, k * y, angle * 180.0 / PEER_PI);
}

static inline void peer_json_number(double x)
{
	if (isfinite(x)) {
		printf("%.9g", x);
	} else {
		printf("null");
	}
}

static inline double peer_median(double *times, int repeat)
{
	qsort(times, (size_t)repeat, sizeof *times, peer_cmp_double);
	return repeat % 2 ? times[repeat / 2] : 0.5 * (times[repeat / 2 - 1] + times[repeat / 2]);
}

/* One line of JSON: the peer's result for one scene. times and cpu_times: each run's wall and CPU
 * ms/step (sorted here); script_ms: the script ops' time per step (spawn, destroy_group), which is
 * not in ms_per_step; limit: the worst limit overshoot (radians), printed in degrees for scenes
 * with joints as sinew bench's limit_overshoot_deg. */
static inline void peer_print_result(const char *engine, const peer_scene *s, int bodies, int joints, int contacts,
                                     int steps, int repeat, double *times, double *cpu_times, double script_ms,
                                     double quality, double limit, const char *notes)
{
	double median = peer_median(times, repeat), cpu_median = peer_median(cpu_times, repeat);
	printf("{\"engine\": \"%s\", \"scene\": \"%s\", \"bodies\": %d, \"joints\": %d, \"contacts\": %d, "
	       "\"steps\": %d, \"repeat\": %d, \"ms_per_step\": ",
	       engine, s->name, bodies, joints, contacts, steps, repeat);
	peer_json_number(median);
	printf(", \"ms_per_step_min\": ");
	peer_json_number(times[0]);
	printf(", \"cpu_ms_per_step\": ");
	peer_json_number(cpu_median);
	printf(", \"cpu_ms_per_step_min\": ");
	peer_json_number(cpu_times[0]);
	if (s->op_count > 0) {
		printf(", \"script_ms_per_step\": ");
		peer_json_number(script_ms);
	}
	printf(", \"quality_kind\": \"%s\", \"quality\": ", peer_quality_names[peer_quality_kind(s)]);
	peer_json_number(quality);
	if (peer_quality_kind(s) == 0) {
		printf(", \"limit_overshoot_deg\": ");
		peer_json_number(limit * 180.0 / PEER_PI);
	}
	printf(", \"notes\": \"%s\"}\n", notes);
}

#endif
