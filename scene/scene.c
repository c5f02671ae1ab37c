/* sinew_scene: read and parse a file, validate it into a scene_desc, and only then build the
 * world from it; step it with its script. A failure anywhere frees everything made so far. */
#include "internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>

/* One copy of a description's bodies and joints in the world: every body moved by offset, every
 * shape put in group when group is non-zero. The ids go to bodies[i], shapes[i], joints[i]
 * (indices of the description). */
typedef struct instance {
	sinew_vec2 offset;
	uint32_t group;
	sinew_body_id *bodies;
	sinew_shape_id *shapes;
	sinew_joint_id *joints;
} instance;

/* Bodies made by spawn ops, a growing list. */
typedef struct body_list {
	sinew_body_id *ids;
	int count, capacity;
} body_list;

struct sinew_scene {
	scene_desc desc;
	char *file;                /* as given: used in messages */
	const char *name;          /* the file name without directories (points into file) */
	sinew_world_id world;
	sinew_body_id *bodies;     /* made from desc.bodies[i] */
	sinew_shape_id *shapes;    /* made from desc.shapes[i] */
	sinew_joint_id *joints;    /* made from desc.joints[i] */
	sinew_rig **rigs;          /* made from desc.rigs[i] */
	sinew_ragdoll **ragdolls;  /* each rig's ragdoll controller: it steps the rig */
	int *named_bodies;         /* indices of named bodies, file order */
	int *named_joints;         /* indices of named joints, file order */
	int *joint_of_slot;        /* joint slot (index1) -> index in joints, or -1 */
	int joint_slot_count;
	int *body_of_slot;         /* shape slot (index1) -> index in bodies, or -1 */
	uint32_t *generation_of_slot;
	int slot_count;
	body_list *groups;         /* the bodies spawned into each group: desc.group_names, then extra_groups */
	char **extra_groups;       /* names first used by sinew_scene_spawn (owned) */
	int group_count;           /* desc.group_count + the extra ones */
	body_list made;            /* the bodies of the spawn op being applied */
	instance scratch;          /* ids of one template instance, sized for the largest template */
	uint32_t next_collision_group; /* for instances of templates that do not self-collide */
	int step;
	int next_op;
	double step_seconds;
	double step_cpu_seconds;   /* the same steps in this process's CPU time */
	const char *doing;         /* what the engine was asked when it reports, for messages */
	bool building;             /* loading: engine messages go into load errors as they are */
	int error_count;
	char last_error[512];
};

static void set_error(char *error, size_t size, const char *format, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
static void set_error(char *error, size_t size, const char *format, ...)
{
	if (error == NULL || size == 0) return;
	va_list args;
	va_start(args, format);
	vsnprintf(error, size, format, args);
	va_end(args);
}

static void on_engine_error(sinew_error code, const char *message, void *context)
{
	sinew_scene *s = context;
	s->error_count += 1;
	if (s->building) snprintf(s->last_error, sizeof s->last_error, "%s", message);
	else snprintf(s->last_error, sizeof s->last_error, "step %d: %s: %s (%s)", s->step, s->doing, message,
	              sinew_error_name(code));
}

/* A refusal's message: "the engine refused this <what>: <the engine's message>". */
#define SCENE_MESSAGE_SIZE 600

/* When the engine refuses part of an instance of d: the part's key path (array[index] and a
 * suffix such as ".shapes[1]") and the message. */
static bool refused(const sinew_scene *s, const scene_desc *d, const char *array, int index, const char *suffix,
                    const char *what, char *path, char *message)
{
	char base[SCENE_PATH_SIZE];
	scene_path_in(base, d, array, (size_t)index);
	snprintf(path, SCENE_PATH_SIZE, "%.200s%s", base, suffix);
	snprintf(message, SCENE_MESSAGE_SIZE, "the engine refused this %s: %s", what, s->last_error);
	return false;
}

static bool build_shape(const scene_shape_desc *d, sinew_body_id body, uint32_t group, sinew_shape_id *out)
{
	sinew_shape_def def = d->def;
	if (group != 0) def.group = group;
	switch (d->geometry.type) {
	case SINEW_SHAPE_CIRCLE: *out = sinew_create_circle_shape(body, &def, &d->geometry.u.circle); break;
	case SINEW_SHAPE_CAPSULE: *out = sinew_create_capsule_shape(body, &def, &d->geometry.u.capsule); break;
	case SINEW_SHAPE_POLYGON: *out = sinew_create_polygon_shape(body, &def, &d->geometry.u.polygon); break;
	case SINEW_SHAPE_TYPE_COUNT: *out = sinew_null_shape_id; break;
	}
	return !SINEW_IS_NULL(*out);
}

/* Mass overrides: a mass alone scales the shapes' inertia with it (same distribution). */
static bool override_mass(const scene_body_desc *d, sinew_body_id body)
{
	if (!d->has_mass && !d->has_inertia) return true;
	sinew_mass_data md = sinew_body_get_mass_data(body);
	if (d->has_mass) {
		if (!d->has_inertia && md.mass > 0.0f) md.rotational_inertia *= d->mass / md.mass;
		md.mass = d->mass;
	}
	if (d->has_inertia) md.rotational_inertia = d->inertia;
	return sinew_body_set_mass_data(body, md);
}

/* Shapes and mass overrides move the centre of mass, and the engine keeps the origin's velocity
 * when they do; the file's velocity is the centre of mass's (a saved body's reads back as saved). */
static void restore_velocity(sinew_body_id body, const sinew_body_def *def)
{
	if (def->type == SINEW_STATIC_BODY) return;
	sinew_vec2 v = sinew_body_get_linear_velocity(body);
	if (memcmp(&v, &def->linear_velocity, sizeof v) != 0) sinew_body_set_linear_velocity(body, def->linear_velocity);
}

/* Builds the bodies, shapes and joints of d as instance in; on a refusal writes the part's key
 * path and a message and returns false (the caller undoes what was made). */
static bool build_instance(sinew_scene *s, const scene_desc *d, const instance *in, char *path, char *message)
{
	for (int i = 0; i < d->body_count; ++i) {
		const scene_body_desc *bd = &d->bodies[i];
		sinew_body_def def = bd->def;
		def.position = sinew_add(def.position, in->offset);
		in->bodies[i] = sinew_create_body(s->world, &def);
		if (SINEW_IS_NULL(in->bodies[i])) return refused(s, d, "bodies", i, "", "body", path, message);
		if (bd->has_rotation && !sinew_body_set_rotation(in->bodies[i], bd->rotation)) {
			return refused(s, d, "bodies", i, "", "rotation", path, message);
		}
		for (int j = 0; j < bd->shape_count; ++j) {
			if (!build_shape(&d->shapes[bd->first_shape + j], in->bodies[i], in->group, &in->shapes[bd->first_shape + j])) {
				char shape[32];
				snprintf(shape, sizeof shape, ".shapes[%d]", j);
				return refused(s, d, "bodies", i, shape, "shape", path, message);
			}
		}
		if (!override_mass(bd, in->bodies[i])) {
			return refused(s, d, "bodies", i, bd->has_mass ? ".mass" : ".inertia", "mass", path, message);
		}
		restore_velocity(in->bodies[i], &bd->def);
	}
	for (int i = 0; i < d->joint_count; ++i) {
		in->joints[i] = scene_build_joint(s->world, d, i, in->bodies, in->offset);
		if (SINEW_IS_NULL(in->joints[i])) return refused(s, d, "joints", i, "", "joint", path, message);
	}
	/* Joints wake their bodies when they are made: bodies the file says are asleep go back to sleep. */
	for (int i = 0; i < d->body_count; ++i) {
		const sinew_body_def *def = &d->bodies[i].def;
		if (!def->is_awake && def->can_sleep && sinew_body_is_awake(in->bodies[i]) &&
		    !sinew_body_set_awake(in->bodies[i], false)) /* out of memory */
			return refused(s, d, "bodies", i, ".awake", "body", path, message);
	}
	return true;
}

/* Shape slot -> body index, so events (which carry shape ids) can name bodies. */
static bool index_shapes(sinew_scene *s, scene_parser *p)
{
	int slots = 1;
	for (int i = 0; i < s->desc.shape_count; ++i) {
		if (s->shapes[i].index1 >= slots) slots = s->shapes[i].index1 + 1;
	}
	s->body_of_slot = malloc((size_t)slots * sizeof *s->body_of_slot);
	s->generation_of_slot = calloc((size_t)slots, sizeof *s->generation_of_slot);
	if (s->body_of_slot == NULL || s->generation_of_slot == NULL) return scene_fail(p, "", "out of memory");
	s->slot_count = slots;
	for (int i = 0; i < slots; ++i) s->body_of_slot[i] = -1;
	for (int b = 0; b < s->desc.body_count; ++b) {
		const scene_body_desc *d = &s->desc.bodies[b];
		for (int j = d->first_shape; j < d->first_shape + d->shape_count; ++j) {
			s->body_of_slot[s->shapes[j].index1] = b;
			s->generation_of_slot[s->shapes[j].index1] = s->shapes[j].generation;
		}
	}
	return true;
}

/* Joint slot -> joint index, so joint events (which carry joint ids) can name joints. */
static bool index_joints(sinew_scene *s, scene_parser *p)
{
	int slots = 1;
	for (int i = 0; i < s->desc.joint_count; ++i) {
		if (s->joints[i].index1 >= slots) slots = s->joints[i].index1 + 1;
	}
	s->joint_of_slot = malloc((size_t)slots * sizeof *s->joint_of_slot);
	if (s->joint_of_slot == NULL) return scene_fail(p, "", "out of memory");
	s->joint_slot_count = slots;
	for (int i = 0; i < slots; ++i) s->joint_of_slot[i] = -1;
	for (int i = 0; i < s->desc.joint_count; ++i) s->joint_of_slot[s->joints[i].index1] = i;
	return true;
}

/* Room for spawn ops: a list per group, and scratch ids for the largest template. */
static bool prepare_spawning(sinew_scene *s, scene_parser *p)
{
	const scene_desc *d = &s->desc;
	s->next_collision_group = d->max_collision_group + 1;
	s->group_count = d->group_count; /* ops name groups only when there are templates to spawn */
	if (d->template_count == 0) return true;
	int bodies = 1, shapes = 1, joints = 1;
	for (int i = 0; i < d->template_count; ++i) {
		const scene_desc *t = &d->templates[i].desc;
		bodies = t->body_count > bodies ? t->body_count : bodies;
		shapes = t->shape_count > shapes ? t->shape_count : shapes;
		joints = t->joint_count > joints ? t->joint_count : joints;
	}
	s->groups = calloc((size_t)(d->group_count > 0 ? d->group_count : 1), sizeof *s->groups);
	s->scratch.bodies = malloc((size_t)bodies * sizeof *s->scratch.bodies);
	s->scratch.shapes = malloc((size_t)shapes * sizeof *s->scratch.shapes);
	s->scratch.joints = malloc((size_t)joints * sizeof *s->scratch.joints);
	if (s->groups == NULL || s->scratch.bodies == NULL || s->scratch.shapes == NULL || s->scratch.joints == NULL) {
		return scene_fail(p, "templates", "out of memory");
	}
	return true;
}

/* The rigs, after the bodies (their proxies are bodies the file does not list). */
static bool build_rigs(sinew_scene *s, scene_parser *p)
{
	const scene_desc *d = &s->desc;
	if (d->rig_count == 0) return true;
	s->rigs = calloc((size_t)d->rig_count, sizeof *s->rigs);
	s->ragdolls = calloc((size_t)d->rig_count, sizeof *s->ragdolls);
	if (s->rigs == NULL || s->ragdolls == NULL) return scene_fail(p, "rigs", "out of memory");
	for (int i = 0; i < d->rig_count; ++i) {
		char path[SCENE_PATH_SIZE];
		scene_path_index(path, "rigs", (size_t)i);
		s->rigs[i] = scene_build_rig(s->world, &d->rigs[i]);
		if (s->rigs[i] == NULL) return scene_fail(p, path, "the rig layer refused this rig: %s", s->last_error);
		sinew_ragdoll_def rd = sinew_default_ragdoll_def();
		rd.joint_model = d->rigs[i].joints == 1 ? SINEW_RAGDOLL_GODOT : SINEW_RAGDOLL_LOCAL;
		s->ragdolls[i] = sinew_create_ragdoll(s->rigs[i], &rd);
		if (s->ragdolls[i] == NULL) return scene_fail(p, path, "the ragdoll layer refused this rig: %s", s->last_error);
		if (d->rigs[i].has_power && !scene_apply_power(s->ragdolls[i], &d->rigs[i].power)) {
			return scene_fail(p, path, "the ragdoll layer refused this rig's power: %s", s->last_error);
		}
		if (d->rigs[i].state == SINEW_RIG_RAGDOLL && !sinew_ragdoll_set_enabled(s->ragdolls[i], true)) {
			return scene_fail(p, path, "the ragdoll layer could not make this rig limp: %s", s->last_error);
		}
	}
	return true;
}

/* An origin shift (sinew_world_shift_origin on the scene's world) moves the world points of the
 * script (impulse points, spawn points) with everything else; the rigs and ragdolls follow it
 * themselves. */
static void on_origin_shift(sinew_world_id world, sinew_vec2 o, void *context)
{
	(void)world;
	scene_desc *d = &((sinew_scene *)context)->desc;
	for (int i = 0; i < d->op_count; ++i) {
		scene_op *op = &d->ops[i];
		op->point = sinew_sub(op->point, o);
		for (int k = 0; k < op->point_count; ++k) op->points[k] = sinew_sub(op->points[k], o);
	}
}

static bool build(sinew_scene *s, scene_parser *p)
{
	const scene_desc *d = &s->desc;
	sinew_world_def wd = sinew_default_world_def();
	wd.gravity = d->gravity;
	wd.length_units_per_meter = d->length_units_per_meter;
	wd.enable_sleep = d->sleep;
	wd.body_capacity = d->body_count;
	wd.shape_capacity = d->shape_count;
	wd.error_fn = on_engine_error;
	wd.error_context = s;
	s->building = true;
	s->world = sinew_create_world(&wd);
	if (SINEW_IS_NULL(s->world)) return scene_fail(p, "world", "the engine refused this world: %s", s->last_error);
	if (!sinew_world_add_origin_listener(s->world, on_origin_shift, s)) return scene_fail(p, "world", "out of memory");
	size_t bodies = (size_t)(d->body_count > 0 ? d->body_count : 1);
	size_t shapes = (size_t)(d->shape_count > 0 ? d->shape_count : 1);
	s->bodies = calloc(bodies, sizeof *s->bodies);
	s->shapes = calloc(shapes, sizeof *s->shapes);
	size_t joints = (size_t)(d->joint_count > 0 ? d->joint_count : 1);
	s->named_bodies = malloc(bodies * sizeof *s->named_bodies);
	s->joints = calloc(joints, sizeof *s->joints);
	s->named_joints = malloc(joints * sizeof *s->named_joints);
	if (s->bodies == NULL || s->shapes == NULL || s->named_bodies == NULL || s->joints == NULL ||
	    s->named_joints == NULL) {
		return scene_fail(p, "", "out of memory");
	}
	int named = 0;
	for (int i = 0; i < d->body_count; ++i) {
		if (d->bodies[i].name != NULL) s->named_bodies[named++] = i;
	}
	named = 0;
	for (int i = 0; i < d->joint_count; ++i) {
		if (d->joints[i].name != NULL) s->named_joints[named++] = i;
	}
	instance in = {sinew_v2(0.0f, 0.0f), 0, s->bodies, s->shapes, s->joints};
	char path[SCENE_PATH_SIZE], message[SCENE_MESSAGE_SIZE];
	if (!build_instance(s, d, &in, path, message)) return scene_fail(p, path, "%s", message);
	if (!index_shapes(s, p) || !index_joints(s, p) || !prepare_spawning(s, p) || !build_rigs(s, p)) return false;
	s->building = false;
	s->doing = "stepping";
	s->error_count = 0;
	s->last_error[0] = 0;
	return true;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash != NULL ? slash + 1 : path;
}

sinew_scene_limits sinew_scene_default_limits(void)
{
	sinew_scene_limits l = {50000, 100000, 50000, 10000, SINEW_SCENE_LIMITS_COOKIE};
	return l;
}

/* One total against its cap: the refusal names the cap and the option that raises it. */
static bool within_cap(scene_parser *p, const char *path, double total, const char *what, int cap, const char *option,
                       const char *field)
{
	if (total <= (double)cap) return true;
	return scene_fail(p, path,
	                  "the file would make %.0f %s, more than the cap of %d (raise it with `sinew run --%s N` or "
	                  "sinew_scene_limits.%s)",
	                  total, what, cap, option, field);
}

/* Amplification (issue 15): a few lines of spawn ops multiply a template many times. Count what
 * the file makes in all before building anything: its own bodies, shapes and joints, its rigs',
 * and every instance every spawn op makes; and what the spawn ops of one step make at once. */
static bool check_limits(scene_parser *p, const scene_desc *d, const sinew_scene_limits *l)
{
	double total[3] = {d->body_count + (double)d->rig_count * SINEW_PART_COUNT,
	                   d->shape_count + (double)d->rig_count * SINEW_PART_COUNT,
	                   d->joint_count + (double)d->rig_count * SINEW_PART_COUNT};
	const int cap[3] = {l->max_bodies, l->max_shapes, l->max_joints};
	static const char *const what[3] = {"bodies", "shapes", "joints"};
	static const char *const option[3] = {"max-bodies", "max-shapes", "max-joints"};
	static const char *const field[3] = {"max_bodies", "max_shapes", "max_joints"};
	char crossed[3][SCENE_PATH_SIZE] = {"bodies", "shapes", "joints"}; /* where each total first passes its cap */
	double step_bodies = 0.0;
	int step = -1;
	for (int i = 0; i < d->op_count; ++i) {
		const scene_op *op = &d->ops[i];
		if (op->kind != SCENE_OP_SPAWN) continue;
		const scene_desc *t = &d->templates[op->template_index].desc;
		char path[SCENE_PATH_SIZE];
		scene_path_index(path, "script", (size_t)op->index);
		const double made[3] = {(double)op->point_count * t->body_count, (double)op->point_count * t->shape_count,
		                        (double)op->point_count * t->joint_count};
		for (int k = 0; k < 3; ++k) {
			if (total[k] <= cap[k] && total[k] + made[k] > cap[k]) memcpy(crossed[k], path, sizeof path);
			total[k] += made[k];
		}
		if (op->step != step) step_bodies = 0.0;
		step = op->step;
		step_bodies += made[0];
		if (!within_cap(p, path, step_bodies, "bodies in one step", l->max_spawned_per_step, "max-spawned-per-step",
		                "max_spawned_per_step"))
			return false;
	}
	for (int k = 0; k < 3; ++k) {
		if (!within_cap(p, crossed[k], total[k], what[k], cap[k], option[k], field[k])) return false;
	}
	return true;
}

static bool limits_valid(const sinew_scene_limits *l)
{
	return l->internal_value == SINEW_SCENE_LIMITS_COOKIE && l->max_bodies >= 0 && l->max_shapes >= 0 &&
	       l->max_joints >= 0 && l->max_spawned_per_step >= 0;
}

/* Parses text (length bytes), validates, builds. Takes no ownership of text. */
static sinew_scene *load(const char *text, size_t length, const char *file, const sinew_scene_limits *limits,
                         char *error, size_t error_size)
{
	sinew_scene_limits defaults = sinew_scene_default_limits();
	if (limits == NULL) limits = &defaults;
	if (!limits_valid(limits)) {
		set_error(error, error_size,
		          "%s: the limits must come from sinew_scene_default_limits() and be >= 0", file);
		return NULL;
	}
	sinew_scene *s = calloc(1, sizeof *s);
	char *copy = scene_strdup(file);
	if (s == NULL || copy == NULL) {
		free(s);
		free(copy);
		set_error(error, error_size, "%s: out of memory", file);
		return NULL;
	}
	s->file = copy;
	s->name = base_name(copy);
	json_error_t jerror;
	json_t *root = json_loadb(text, length, JSON_REJECT_DUPLICATES, &jerror);
	if (root == NULL) {
		set_error(error, error_size, "%s:%d:%d: invalid JSON: %s", file, jerror.line > 0 ? jerror.line : 1,
		          jerror.column > 0 ? jerror.column : 1, jerror.text);
		sinew_scene_destroy(s);
		return NULL;
	}
	scene_parser p = {text, file, error, error_size, &s->desc};
	bool ok = scene_parse_document(&p, root) && check_limits(&p, &s->desc, limits) && build(s, &p);
	json_decref(root);
	if (!ok) {
		sinew_scene_destroy(s);
		return NULL;
	}
	return s;
}

sinew_scene *sinew_scene_load_string(const char *text, const char *name, char *error, size_t error_size)
{
	return sinew_scene_load_string_limited(text, name, NULL, error, error_size);
}

sinew_scene *sinew_scene_load_string_limited(const char *text, const char *name, const sinew_scene_limits *limits,
                                             char *error, size_t error_size)
{
	if (name == NULL) name = "<string>";
	if (text == NULL) {
		set_error(error, error_size, "%s: no text given", name);
		return NULL;
	}
	return load(text, strlen(text), name, limits, error, error_size);
}

sinew_scene *sinew_scene_load_file(const char *path, char *error, size_t error_size)
{
	return sinew_scene_load_file_limited(path, NULL, error, error_size);
}

sinew_scene *sinew_scene_load_file_limited(const char *path, const sinew_scene_limits *limits, char *error,
                                           size_t error_size)
{
	if (path == NULL) {
		set_error(error, error_size, "sinew_scene_load_file: no path given");
		return NULL;
	}
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		set_error(error, error_size, "%s: is a directory, not a scene file", path);
		return NULL;
	}
	FILE *f = fopen(path, "rb");
	if (f == NULL) {
		set_error(error, error_size, "%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	size_t size = 0, capacity = 1 << 16;
	char *text = malloc(capacity);
	while (text != NULL) {
		size += fread(text + size, 1, capacity - 1 - size, f);
		if (size < capacity - 1) break;
		char *grown = realloc(text, capacity * 2);
		if (grown == NULL) free(text);
		text = grown;
		capacity *= 2;
	}
	bool read_failed = text == NULL || ferror(f);
	fclose(f);
	if (read_failed) {
		int read_errno = errno;
		free(text);
		set_error(error, error_size, "%s: cannot read the file: %s", path, strerror(read_errno));
		return NULL;
	}
	text[size] = 0;
	sinew_scene *s = load(text, size, path, limits, error, error_size);
	free(text);
	return s;
}

void sinew_scene_destroy(sinew_scene *scene)
{
	if (scene == NULL) return;
	/* a ragdoll before its rig: it hands the rig back and frees its bodies */
	for (int i = 0; scene->ragdolls != NULL && i < scene->desc.rig_count; ++i) sinew_destroy_ragdoll(scene->ragdolls[i]);
	free(scene->ragdolls);
	for (int i = 0; scene->rigs != NULL && i < scene->desc.rig_count; ++i) sinew_destroy_rig(scene->rigs[i]);
	free(scene->rigs);
	if (!SINEW_IS_NULL(scene->world)) sinew_destroy_world(scene->world);
	free(scene->bodies);
	free(scene->shapes);
	free(scene->named_bodies);
	free(scene->joints);
	free(scene->named_joints);
	free(scene->joint_of_slot);
	free(scene->body_of_slot);
	free(scene->generation_of_slot);
	for (int i = 0; scene->groups != NULL && i < scene->group_count; ++i) free(scene->groups[i].ids);
	free(scene->groups);
	for (int i = 0; i < scene->group_count - scene->desc.group_count; ++i) free(scene->extra_groups[i]);
	free(scene->extra_groups);
	free(scene->made.ids);
	free(scene->scratch.bodies);
	free(scene->scratch.shapes);
	free(scene->scratch.joints);
	scene_desc_free(&scene->desc);
	free(scene->file);
	free(scene);
}

/* The getters take NULL (a scene that failed to load) and answer "nothing". */
const char *sinew_scene_get_name(const sinew_scene *scene) { return scene != NULL ? scene->name : ""; }
sinew_world_id sinew_scene_get_world(const sinew_scene *scene)
{
	return scene != NULL ? scene->world : sinew_null_world_id;
}
float sinew_scene_get_hz(const sinew_scene *scene) { return scene != NULL ? scene->desc.hz : 0.0f; }
int sinew_scene_get_substeps(const sinew_scene *scene) { return scene != NULL ? scene->desc.substeps : 0; }

bool sinew_scene_set_substeps(sinew_scene *scene, int substeps)
{
	if (scene == NULL || substeps < 1 || substeps > 64) return false;
	scene->desc.substeps = substeps;
	return true;
}
int sinew_scene_get_default_steps(const sinew_scene *scene) { return scene != NULL ? scene->desc.steps : 0; }
int sinew_scene_get_step(const sinew_scene *scene) { return scene != NULL ? scene->step : 0; }

const scene_desc *scene_get_desc(const sinew_scene *scene) { return &scene->desc; }

sinew_shape_id scene_get_shape(const sinew_scene *scene, int index) { return scene->shapes[index]; }
double sinew_scene_get_world_step_seconds(const sinew_scene *scene)
{
	return scene != NULL ? scene->step_seconds : 0.0;
}
double sinew_scene_get_world_step_cpu_seconds(const sinew_scene *scene)
{
	return scene != NULL ? scene->step_cpu_seconds : 0.0;
}
int sinew_scene_get_error_count(const sinew_scene *scene) { return scene != NULL ? scene->error_count : 0; }
const char *sinew_scene_get_last_error(const sinew_scene *scene) { return scene != NULL ? scene->last_error : ""; }

static double clock_seconds(clockid_t clock)
{
	struct timespec t;
	clock_gettime(clock, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double now_seconds(void) { return clock_seconds(CLOCK_MONOTONIC); }

/* Room for more ids (false when out of memory). */
static bool list_reserve(body_list *list, int more)
{
	if (list->count + more <= list->capacity) return true;
	int capacity = list->capacity > 0 ? list->capacity : 64;
	while (capacity < list->count + more) capacity *= 2;
	sinew_body_id *grown = realloc(list->ids, (size_t)capacity * sizeof *grown);
	if (grown == NULL) return false;
	list->ids = grown;
	list->capacity = capacity;
	return true;
}

static void destroy_list(body_list *list)
{
	for (int i = 0; i < list->count; ++i) {
		if (sinew_body_is_valid(list->ids[i])) sinew_destroy_body(list->ids[i]);
	}
	list->count = 0;
}

/* One instance of the template at each point, into group (-1: none), all or none: when the engine
 * refuses a part, what this call made so far is destroyed and the error names the part. */
static bool spawn(sinew_scene *s, int template_index, const sinew_vec2 *points, int point_count, int group)
{
	const scene_template *t = &s->desc.templates[template_index];
	const scene_desc *d = &t->desc;
	s->made.count = 0;
	bool ok = true;
	for (int k = 0; k < point_count && ok; ++k) {
		instance in = s->scratch;
		in.offset = points[k];
		in.group = t->self_collide ? 0u : s->next_collision_group++;
		for (int i = 0; i < d->body_count; ++i) in.bodies[i] = sinew_null_body_id;
		char path[SCENE_PATH_SIZE], message[SCENE_MESSAGE_SIZE];
		if (!list_reserve(&s->made, d->body_count)) {
			on_engine_error(SINEW_ERROR_INVALID_ARGUMENT, "out of memory", s);
			ok = false;
			break;
		}
		ok = build_instance(s, d, &in, path, message);
		for (int i = 0; i < d->body_count; ++i) {
			if (!SINEW_IS_NULL(in.bodies[i])) s->made.ids[s->made.count++] = in.bodies[i];
		}
		if (!ok) {
			char text[sizeof s->last_error];
			snprintf(text, sizeof text, "at[%d]: %.200s: %.200s", k, path, message);
			on_engine_error(SINEW_ERROR_INVALID_ARGUMENT, text, s);
		}
	}
	if (ok && group >= 0) {
		body_list *g = &s->groups[group];
		ok = list_reserve(g, s->made.count);
		if (ok) {
			memcpy(g->ids + g->count, s->made.ids, (size_t)s->made.count * sizeof *g->ids);
			g->count += s->made.count;
		} else {
			on_engine_error(SINEW_ERROR_INVALID_ARGUMENT, "out of memory", s);
		}
	}
	if (!ok) destroy_list(&s->made);
	return ok;
}

static bool apply_op(sinew_scene *s, const scene_op *op)
{
	switch (op->kind) {
	case SCENE_OP_SPAWN: return spawn(s, op->template_index, op->points, op->point_count, op->group);
	case SCENE_OP_DESTROY_GROUP: destroy_list(&s->groups[op->group]); return true;
	case SCENE_OP_RAGDOLL: return sinew_ragdoll_set_enabled(s->ragdolls[op->rig], op->enabled);
	case SCENE_OP_TOGGLE_RAGDOLL: return sinew_ragdoll_toggle(s->ragdolls[op->rig]);
	case SCENE_OP_SNAP_TO_STANDING: return sinew_ragdoll_snap_to_standing(s->ragdolls[op->rig]);
	case SCENE_OP_WALK: return sinew_rig_walk(s->rigs[op->rig], op->speed);
	case SCENE_OP_SET_INFLUENCE:
		if (op->limb < 0) return sinew_ragdoll_set_influence(s->ragdolls[op->rig], op->influence);
		return sinew_ragdoll_set_limb_influence(s->ragdolls[op->rig], (sinew_rig_limb)op->limb, op->influence);
	case SCENE_OP_SET_POWER: return sinew_ragdoll_set_power(s->ragdolls[op->rig], (sinew_ragdoll_power_preset)op->preset);
	case SCENE_OP_RAGDOLL_LIMB:
		return sinew_ragdoll_set_limb_enabled(s->ragdolls[op->rig], (sinew_rig_limb)op->limb, op->enabled);
	default: return scene_apply_op(op, s->bodies, s->joints);
	}
}

static void apply_due_ops(sinew_scene *s)
{
	const scene_desc *d = &s->desc;
	while (s->next_op < d->op_count && d->ops[s->next_op].step <= s->step) {
		const scene_op *op = &d->ops[s->next_op++];
		char doing[64];
		snprintf(doing, sizeof doing, "script[%d] (%s)", op->index, scene_op_name(op->kind));
		s->doing = doing;
		int before = s->error_count;
		if (!apply_op(s, op) && s->error_count == before) {
			/* Refused without a report: say so ourselves. */
			on_engine_error(SINEW_ERROR_INVALID_ARGUMENT, "refused", s);
		}
		s->doing = "stepping";
	}
}

int sinew_scene_get_template_count(const sinew_scene *scene)
{
	return scene != NULL ? scene->desc.template_count : 0;
}

const char *sinew_scene_get_template_name(const sinew_scene *scene, int index)
{
	if (scene == NULL || index < 0 || index >= scene->desc.template_count) return NULL;
	return scene->desc.templates[index].name;
}

/* The group named name: the file's, or one made by an earlier call; -1 when there is none and
 * create is false (or memory runs out). */
static int find_group(sinew_scene *s, const char *name, bool create)
{
	const scene_desc *d = &s->desc;
	for (int i = 0; i < s->group_count; ++i) {
		const char *g = i < d->group_count ? d->group_names[i] : s->extra_groups[i - d->group_count];
		if (strcmp(g, name) == 0) return i;
	}
	if (!create) return -1;
	int extra = s->group_count - d->group_count;
	char **names = realloc(s->extra_groups, (size_t)(extra + 1) * sizeof *names);
	if (names == NULL) return -1;
	s->extra_groups = names;
	body_list *groups = realloc(s->groups, (size_t)(s->group_count + 1) * sizeof *groups);
	if (groups == NULL) return -1;
	s->groups = groups;
	names[extra] = scene_strdup(name);
	if (names[extra] == NULL) return -1;
	memset(&groups[s->group_count], 0, sizeof *groups);
	return s->group_count++;
}

/* Report a refusal of the scene's own API as an engine error ("step N: fn: message"). */
static bool scene_refuse(sinew_scene *s, const char *fn, const char *message, const char *name)
{
	char text[300];
	snprintf(text, sizeof text, "%s \"%.200s\"", message, name != NULL ? name : "(null)");
	s->doing = fn;
	on_engine_error(SINEW_ERROR_INVALID_ARGUMENT, text, s);
	s->doing = "stepping";
	return false;
}

bool sinew_scene_spawn(sinew_scene *scene, const char *template_name, sinew_vec2 at, const char *group)
{
	if (scene == NULL) return false;
	int t = scene_desc_find_template(&scene->desc, template_name);
	if (t < 0) return scene_refuse(scene, "sinew_scene_spawn", "no template named", template_name);
	if (!sinew_vec2_is_valid(at)) return scene_refuse(scene, "sinew_scene_spawn", "a point that is not finite for", template_name);
	int g = group != NULL ? find_group(scene, group, true) : -1;
	if (group != NULL && g < 0) return scene_refuse(scene, "sinew_scene_spawn", "out of memory for group", group);
	scene->doing = "sinew_scene_spawn";
	bool ok = spawn(scene, t, &at, 1, g);
	scene->doing = "stepping";
	return ok;
}

bool sinew_scene_destroy_group(sinew_scene *scene, const char *group)
{
	if (scene == NULL) return false;
	int g = group != NULL ? find_group(scene, group, false) : -1;
	if (g < 0) return scene_refuse(scene, "sinew_scene_destroy_group", "nothing was ever spawned into group", group);
	destroy_list(&scene->groups[g]);
	return true;
}

bool sinew_scene_step(sinew_scene *scene)
{
	if (scene == NULL) return false;
	int before = scene->error_count;
	apply_due_ops(scene);
	float dt = 1.0f / scene->desc.hz;
	scene->doing = "updating the rigs";
	for (int i = 0; i < scene->desc.rig_count; ++i) sinew_ragdoll_update(scene->ragdolls[i], dt);
	scene->doing = "stepping";
	double start = now_seconds(), cpu_start = clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
	sinew_world_step(scene->world, dt, scene->desc.substeps);
	scene->step_cpu_seconds += clock_seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu_start;
	scene->step_seconds += now_seconds() - start;
	scene->step += 1;
	return scene->error_count == before;
}

sinew_body_id sinew_scene_find_body(const sinew_scene *scene, const char *name)
{
	int i = scene != NULL ? scene_desc_find_body(&scene->desc, name) : -1;
	return i >= 0 ? scene->bodies[i] : sinew_null_body_id;
}

sinew_shape_id sinew_scene_find_shape(const sinew_scene *scene, const char *name)
{
	int i = scene != NULL ? scene_desc_find_shape(&scene->desc, name) : -1;
	return i >= 0 ? scene->shapes[i] : sinew_null_shape_id;
}

int sinew_scene_get_body_count(const sinew_scene *scene) { return scene != NULL ? scene->desc.body_count : 0; }

sinew_body_id sinew_scene_get_body(const sinew_scene *scene, int index)
{
	if (scene == NULL || index < 0 || index >= scene->desc.body_count) return sinew_null_body_id;
	return scene->bodies[index];
}

const char *sinew_scene_get_body_name(const sinew_scene *scene, int index)
{
	if (scene == NULL || index < 0 || index >= scene->desc.body_count) return NULL;
	return scene->desc.bodies[index].name;
}

int sinew_scene_get_shape_body_index(const sinew_scene *scene, sinew_shape_id shape)
{
	if (scene == NULL || shape.index1 <= 0 || shape.index1 >= scene->slot_count) return -1;
	if (shape.world0 + 1 != scene->world.index1) return -1;
	if (scene->generation_of_slot[shape.index1] != shape.generation) return -1;
	return scene->body_of_slot[shape.index1];
}

int sinew_scene_get_named_body_count(const sinew_scene *scene)
{
	return scene != NULL ? scene->desc.named_body_count : 0;
}

int sinew_scene_get_named_body_index(const sinew_scene *scene, int i)
{
	if (scene == NULL || i < 0 || i >= scene->desc.named_body_count) return -1;
	return scene->named_bodies[i];
}

sinew_joint_id sinew_scene_find_joint(const sinew_scene *scene, const char *name)
{
	int i = scene != NULL ? scene_desc_find_joint(&scene->desc, name) : -1;
	return i >= 0 ? scene->joints[i] : sinew_null_joint_id;
}

int sinew_scene_get_joint_count(const sinew_scene *scene) { return scene != NULL ? scene->desc.joint_count : 0; }

sinew_joint_id sinew_scene_get_joint(const sinew_scene *scene, int index)
{
	if (scene == NULL || index < 0 || index >= scene->desc.joint_count) return sinew_null_joint_id;
	return scene->joints[index];
}

const char *sinew_scene_get_joint_name(const sinew_scene *scene, int index)
{
	if (scene == NULL || index < 0 || index >= scene->desc.joint_count) return NULL;
	return scene->desc.joints[index].name;
}

int sinew_scene_get_joint_index(const sinew_scene *scene, sinew_joint_id joint)
{
	if (scene == NULL || joint.index1 <= 0 || joint.index1 >= scene->joint_slot_count) return -1;
	int i = scene->joint_of_slot[joint.index1];
	return i >= 0 && SINEW_ID_EQUALS(scene->joints[i], joint) ? i : -1;
}

int sinew_scene_get_named_joint_count(const sinew_scene *scene)
{
	return scene != NULL ? scene->desc.named_joint_count : 0;
}

int sinew_scene_get_named_joint_index(const sinew_scene *scene, int i)
{
	if (scene == NULL || i < 0 || i >= scene->desc.named_joint_count) return -1;
	return scene->named_joints[i];
}

int sinew_scene_get_rig_count(const sinew_scene *scene) { return scene != NULL ? scene->desc.rig_count : 0; }

sinew_rig *sinew_scene_get_rig(const sinew_scene *scene, int index)
{
	if (scene == NULL || scene->rigs == NULL || index < 0 || index >= scene->desc.rig_count) return NULL;
	return scene->rigs[index];
}

const char *sinew_scene_get_rig_name(const sinew_scene *scene, int index)
{
	if (scene == NULL || index < 0 || index >= scene->desc.rig_count) return NULL;
	return scene->desc.rigs[index].name;
}

sinew_ragdoll *sinew_scene_get_ragdoll(const sinew_scene *scene, int index)
{
	if (scene == NULL || scene->ragdolls == NULL || index < 0 || index >= scene->desc.rig_count) return NULL;
	return scene->ragdolls[index];
}

sinew_rig *sinew_scene_find_rig(const sinew_scene *scene, const char *name)
{
	int i = scene != NULL ? scene_desc_find_rig(&scene->desc, name) : -1;
	return i >= 0 ? sinew_scene_get_rig(scene, i) : NULL;
}
