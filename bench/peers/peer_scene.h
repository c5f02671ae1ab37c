/* peer_scene.h: the part of the sinew scene format (docs/scene-format.md) that the benchmark
 * scenes use, read with jansson into plain structs, for the peers in bench/peers/ (C and C++).
 * Supported: world gravity/hz/steps/sleep; bodies with type, position, angle, velocities, linear
 * and angular damping, gravity_scale, awake, can_sleep, layer, mask and circle / capsule
 * (center1, center2) / box (half_extents, center, angle, radius) shapes with density, friction,
 * restitution, layer and mask; revolute joints with anchor, reference_angle, limit {lower,
 * upper} and motor {speed, max_torque}. Anything else the file holds makes the peer refuse the
 * scene (peer_scene_load returns 0 and says what), so a peer never runs a different scene.
 * Header-only; every function is static. Also the timing and quality helpers shared by peers. */
#ifndef PEER_SCENE_H
#define PEER_SCENE_H

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PEER_PI 3.14159265358979323846

enum { PEER_STATIC = 0, PEER_KINEMATIC = 1, PEER_DYNAMIC = 2 };
enum { PEER_CIRCLE = 0, PEER_CAPSULE = 1, PEER_BOX = 2 };

typedef struct peer_shape {
	int type;
	double radius;           /* circle, capsule, box corner radius */
	double c1[2], c2[2];     /* capsule centres (local) */
	double center[2], angle; /* circle / box (angle radians) */
	double half[2];          /* box outer half-extents */
	double density, friction, restitution;
	unsigned long layer, mask;
} peer_shape;

typedef struct peer_body {
	const char *name;
	int type;
	double position[2], angle, velocity[2], angular_velocity;
	double linear_damping, angular_damping, gravity_scale;
	int awake, can_sleep;
	int shape_count;
	peer_shape *shapes;
} peer_body;

typedef struct peer_joint {
	int a, b; /* body indices; a = -1: the world */
	double anchor[2];
	int has_reference;
	double reference; /* radians */
	int has_limit;
	double lower, upper; /* radians */
	int has_motor;
	double speed, max_torque; /* rad/s, N m */
} peer_joint;

typedef struct peer_scene {
	char name[256];
	double gravity[2], hz;
	int steps, sleep;
	int body_count, joint_count;
	peer_body *bodies;
	peer_joint *joints;
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
	const peer_name *hit = (const peer_name *)bsearch(&key, names, (size_t)n, sizeof *names, peer_name_cmp);
	return hit != NULL ? hit->index : -2;
}

static inline int peer_scene_load(const char *file, peer_scene *s)
{
	static const char *const top_keys[] = {"sinew_scene", "world", "bodies", "joints", NULL};
	static const char *const world_keys[] = {"gravity", "hz", "substeps", "steps", "sleep", NULL};
	static const char *const body_keys[] = {"name", "type", "position", "angle", "linear_velocity",
	                                        "angular_velocity", "linear_damping", "angular_damping",
	                                        "gravity_scale", "awake", "can_sleep", "layer", "mask", "shapes", NULL};
	static const char *const shape_keys[] = {"type", "radius", "center", "center1", "center2", "half_extents",
	                                         "angle", "density", "friction", "restitution", "layer", "mask", NULL};
	static const char *const joint_keys[] = {"name", "type", "body_a", "body_b", "anchor", "reference_angle",
	                                         "limit", "motor", NULL};
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
	s->hz = peer_num(w, "hz", 60);
	s->steps = (int)peer_num(w, "steps", 600);
	s->sleep = peer_bool(w, "sleep", 1);

	json_t *bodies = json_object_get(root, "bodies");
	s->body_count = bodies ? (int)json_array_size(bodies) : 0;
	s->bodies = (peer_body *)calloc((size_t)s->body_count + 1, sizeof *s->bodies);
	peer_name *names = (peer_name *)calloc((size_t)s->body_count + 1, sizeof *names);
	int named = 0;
	for (int i = 0; i < s->body_count; ++i) {
		json_t *b = json_array_get(bodies, (size_t)i);
		peer_body *pb = &s->bodies[i];
		if (!peer_keys_ok(file, b, body_keys, "bodies[]")) return 0;
		json_t *name = json_object_get(b, "name");
		pb->name = name ? json_string_value(name) : NULL;
		if (pb->name != NULL) names[named++] = (peer_name){pb->name, i};
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
		unsigned long layer = (unsigned long)peer_num(b, "layer", 1), mask = (unsigned long)peer_num(b, "mask", 1);
		json_t *shapes = json_object_get(b, "shapes");
		pb->shape_count = shapes ? (int)json_array_size(shapes) : 0;
		pb->shapes = (peer_shape *)calloc((size_t)pb->shape_count + 1, sizeof *pb->shapes);
		for (int k = 0; k < pb->shape_count; ++k) {
			json_t *sh = json_array_get(shapes, (size_t)k);
			peer_shape *ps = &pb->shapes[k];
			if (!peer_keys_ok(file, sh, shape_keys, "bodies[].shapes[]")) return 0;
			const char *st = json_string_value(json_object_get(sh, "type"));
			if (st == NULL) return peer_fail(file, "shape without a type", NULL);
			ps->radius = peer_num(sh, "radius", 0);
			peer_vec(sh, "center", ps->center, 0, 0);
			ps->angle = peer_num(sh, "angle", 0) * PEER_PI / 180;
			if (strcmp(st, "circle") == 0) {
				ps->type = PEER_CIRCLE;
			} else if (strcmp(st, "capsule") == 0) {
				ps->type = PEER_CAPSULE;
				if (json_object_get(sh, "center1") == NULL || json_object_get(sh, "center2") == NULL) {
					return peer_fail(file, "capsule without center1/center2 (the Godot form is not supported)", NULL);
				}
				peer_vec(sh, "center1", ps->c1, 0, 0);
				peer_vec(sh, "center2", ps->c2, 0, 0);
			} else if (strcmp(st, "box") == 0) {
				ps->type = PEER_BOX;
				peer_vec(sh, "half_extents", ps->half, 0.5, 0.5);
			} else {
				return peer_fail(file, "unsupported shape type", st);
			}
			ps->density = peer_num(sh, "density", 1);
			ps->friction = peer_num(sh, "friction", 0.6);
			ps->restitution = peer_num(sh, "restitution", 0);
			ps->layer = (unsigned long)peer_num(sh, "layer", (double)layer);
			ps->mask = (unsigned long)peer_num(sh, "mask", (double)mask);
		}
	}
	qsort(names, (size_t)named, sizeof *names, peer_name_cmp);

	json_t *joints = json_object_get(root, "joints");
	s->joint_count = joints ? (int)json_array_size(joints) : 0;
	s->joints = (peer_joint *)calloc((size_t)s->joint_count + 1, sizeof *s->joints);
	for (int i = 0; i < s->joint_count; ++i) {
		json_t *j = json_array_get(joints, (size_t)i);
		peer_joint *pj = &s->joints[i];
		if (!peer_keys_ok(file, j, joint_keys, "joints[]")) return 0;
		const char *type = json_string_value(json_object_get(j, "type"));
		if (type == NULL || strcmp(type, "revolute") != 0) return peer_fail(file, "unsupported joint type", type);
		json_t *a = json_object_get(j, "body_a");
		pj->a = a == NULL || json_is_null(a) ? -1 : peer_find(names, named, json_string_value(a));
		pj->b = peer_find(names, named, json_string_value(json_object_get(j, "body_b")));
		if (pj->a == -2 || pj->b < 0) return peer_fail(file, "a joint names an unknown body", NULL);
		peer_vec(j, "anchor", pj->anchor, 0, 0);
		pj->has_reference = json_object_get(j, "reference_angle") != NULL;
		pj->reference = peer_num(j, "reference_angle", 0) * PEER_PI / 180;
		json_t *limit = json_object_get(j, "limit");
		if (limit != NULL) {
			json_t *frame = json_object_get(limit, "frame");
			if (frame != NULL && strcmp(json_string_value(frame), "local") != 0) {
				return peer_fail(file, "only local-frame limits are supported", NULL);
			}
			pj->has_limit = 1;
			pj->lower = peer_num(limit, "lower", 0) * PEER_PI / 180;
			pj->upper = peer_num(limit, "upper", 0) * PEER_PI / 180;
		}
		json_t *motor = json_object_get(j, "motor");
		if (motor != NULL) {
			pj->has_motor = 1;
			pj->speed = peer_num(motor, "speed", 0) * PEER_PI / 180;
			pj->max_torque = peer_num(motor, "max_torque", 0);
		}
	}
	free(names);
	return 1;
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

static inline double peer_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
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
	if (s->joint_count > 0) return 0;
	return strstr(s->name, "pyramid") != NULL ? 1 : 2;
}

static const char *const peer_quality_names[] = {"joint_separation", "pyramid_drift", "energy_change"};

/* Command line: SCENE [--steps N] [--repeat R] [--max-seconds S]. A run that has taken more
 * than S seconds of stepping stops there and reports the steps it took (and no more runs are
 * made): a peer that is very slow on a scene still gives a figure in bounded time. */
static double peer_max_seconds = 0.0;

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
		} else if (argv[i][0] != '-' && *file == NULL) {
			*file = argv[i];
		} else {
			*file = NULL;
			break;
		}
	}
	if (*file == NULL || *repeat < 1 || (*steps >= 0 && *steps < 2)) {
		fprintf(stderr, "usage: %s SCENE.json [--steps N >= 2] [--repeat R] [--max-seconds S]\n", argv[0]);
		return 0;
	}
	return 1;
}

static inline void peer_json_number(double x)
{
	if (isfinite(x)) {
		printf("%.9g", x);
	} else {
		printf("null");
	}
}

/* One line of JSON: the peer's result for one scene. */
static inline void peer_print_result(const char *engine, const peer_scene *s, int bodies, int joints, int contacts,
                              int steps, int repeat, double *times, double quality, const char *notes)
{
	qsort(times, (size_t)repeat, sizeof *times, peer_cmp_double);
	double median = repeat % 2 ? times[repeat / 2] : 0.5 * (times[repeat / 2 - 1] + times[repeat / 2]);
	printf("{\"engine\": \"%s\", \"scene\": \"%s\", \"bodies\": %d, \"joints\": %d, \"contacts\": %d, "
	       "\"steps\": %d, \"repeat\": %d, \"ms_per_step\": ",
	       engine, s->name, bodies, joints, contacts, steps, repeat);
	peer_json_number(median);
	printf(", \"ms_per_step_min\": ");
	peer_json_number(times[0]);
	printf(", \"quality_kind\": \"%s\", \"quality\": ", peer_quality_names[peer_quality_kind(s)]);
	peer_json_number(quality);
	printf(", \"notes\": \"%s\"}\n", notes);
}

#endif
