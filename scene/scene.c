/* sinew_scene: read and parse a file, validate it into a scene_desc, and only then build the
 * world from it; step it with its script. A failure anywhere frees everything made so far. */
#include "internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct sinew_scene {
	scene_desc desc;
	char *file;                /* as given: used in messages */
	const char *name;          /* the file name without directories (points into file) */
	sinew_world_id world;
	sinew_body_id *bodies;     /* made from desc.bodies[i] */
	sinew_shape_id *shapes;    /* made from desc.shapes[i] */
	sinew_joint_id *joints;    /* made from desc.joints[i] */
	int *named_bodies;         /* indices of named bodies, file order */
	int *named_joints;         /* indices of named joints, file order */
	int *joint_of_slot;        /* joint slot (index1) -> index in joints, or -1 */
	int joint_slot_count;
	int *body_of_slot;         /* shape slot (index1) -> index in bodies, or -1 */
	uint16_t *generation_of_slot;
	int slot_count;
	int step;
	int next_op;
	double step_seconds;
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

static bool build_shape(sinew_scene *s, scene_parser *p, sinew_body_id body, int body_index, int shape_index)
{
	const scene_shape_desc *d = &s->desc.shapes[shape_index];
	sinew_shape_id id = sinew_null_shape_id;
	switch (d->geometry.type) {
	case SINEW_SHAPE_CIRCLE: id = sinew_create_circle_shape(body, &d->def, &d->geometry.u.circle); break;
	case SINEW_SHAPE_CAPSULE: id = sinew_create_capsule_shape(body, &d->def, &d->geometry.u.capsule); break;
	case SINEW_SHAPE_POLYGON: id = sinew_create_polygon_shape(body, &d->def, &d->geometry.u.polygon); break;
	case SINEW_SHAPE_TYPE_COUNT: break;
	}
	s->shapes[shape_index] = id;
	if (!SINEW_IS_NULL(id)) return true;
	char path[SCENE_PATH_SIZE];
	snprintf(path, sizeof path, "bodies[%d].shapes[%d]", body_index, shape_index - s->desc.bodies[body_index].first_shape);
	return scene_fail(p, path, "the engine refused this shape: %s", s->last_error);
}

/* Mass overrides: a mass alone scales the shapes' inertia with it (same distribution). */
static bool override_mass(sinew_scene *s, scene_parser *p, sinew_body_id body, int index)
{
	const scene_body_desc *d = &s->desc.bodies[index];
	if (!d->has_mass && !d->has_inertia) return true;
	sinew_mass_data md = sinew_body_get_mass_data(body);
	if (d->has_mass) {
		if (!d->has_inertia && md.mass > 0.0f) md.rotational_inertia *= d->mass / md.mass;
		md.mass = d->mass;
	}
	if (d->has_inertia) md.rotational_inertia = d->inertia;
	if (sinew_body_set_mass_data(body, md)) return true;
	char path[SCENE_PATH_SIZE];
	snprintf(path, sizeof path, "bodies[%d].%s", index, d->has_mass ? "mass" : "inertia");
	return scene_fail(p, path, "the engine refused this mass: %s", s->last_error);
}

static void restore_velocity(sinew_body_id body, const sinew_body_def *def);
static void restore_sleep(sinew_scene *s);

static bool build_bodies(sinew_scene *s, scene_parser *p)
{
	for (int i = 0; i < s->desc.body_count; ++i) {
		const scene_body_desc *d = &s->desc.bodies[i];
		char path[SCENE_PATH_SIZE];
		scene_path_index(path, "bodies", (size_t)i);
		s->bodies[i] = sinew_create_body(s->world, &d->def);
		if (SINEW_IS_NULL(s->bodies[i])) return scene_fail(p, path, "the engine refused this body: %s", s->last_error);
		if (d->has_rotation && !sinew_body_set_rotation(s->bodies[i], d->rotation)) {
			return scene_fail(p, path, "the engine refused this rotation: %s", s->last_error);
		}
		for (int j = 0; j < d->shape_count; ++j) {
			if (!build_shape(s, p, s->bodies[i], i, d->first_shape + j)) return false;
		}
		if (!override_mass(s, p, s->bodies[i], i)) return false;
		restore_velocity(s->bodies[i], &d->def);
	}
	return true;
}

/* Shapes and mass overrides move the centre of mass, and the engine keeps the origin's velocity
 * when they do; the file's velocity is the centre of mass's (a saved body's reads back as saved). */
static void restore_velocity(sinew_body_id body, const sinew_body_def *def)
{
	if (def->type == SINEW_STATIC_BODY) return;
	sinew_vec2 v = sinew_body_get_linear_velocity(body);
	if (memcmp(&v, &def->linear_velocity, sizeof v) != 0) sinew_body_set_linear_velocity(body, def->linear_velocity);
}

/* Joints wake their bodies when they are made: bodies the file says are asleep go back to sleep. */
static void restore_sleep(sinew_scene *s)
{
	for (int i = 0; i < s->desc.body_count; ++i) {
		const sinew_body_def *def = &s->desc.bodies[i].def;
		if (!def->is_awake && def->can_sleep && sinew_body_is_awake(s->bodies[i])) sinew_body_set_awake(s->bodies[i], false);
	}
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

static bool build_joints(sinew_scene *s, scene_parser *p)
{
	int slots = 1;
	for (int i = 0; i < s->desc.joint_count; ++i) {
		s->joints[i] = scene_build_joint(s->world, &s->desc, i, s->bodies);
		if (SINEW_IS_NULL(s->joints[i])) {
			char path[SCENE_PATH_SIZE];
			scene_path_index(path, "joints", (size_t)i);
			return scene_fail(p, path, "the engine refused this joint: %s", s->last_error);
		}
		if (s->joints[i].index1 >= slots) slots = s->joints[i].index1 + 1;
	}
	/* Joint slot -> joint index, so joint events (which carry joint ids) can name joints. */
	s->joint_of_slot = malloc((size_t)slots * sizeof *s->joint_of_slot);
	if (s->joint_of_slot == NULL) return scene_fail(p, "", "out of memory");
	s->joint_slot_count = slots;
	for (int i = 0; i < slots; ++i) s->joint_of_slot[i] = -1;
	for (int i = 0; i < s->desc.joint_count; ++i) s->joint_of_slot[s->joints[i].index1] = i;
	return true;
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
	if (!build_bodies(s, p) || !index_shapes(s, p) || !build_joints(s, p)) return false;
	restore_sleep(s);
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

/* Parses text (length bytes), validates, builds. Takes no ownership of text. */
static sinew_scene *load(const char *text, size_t length, const char *file, char *error, size_t error_size)
{
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
	bool ok = scene_parse_document(&p, root) && build(s, &p);
	json_decref(root);
	if (!ok) {
		sinew_scene_destroy(s);
		return NULL;
	}
	return s;
}

sinew_scene *sinew_scene_load_string(const char *text, const char *name, char *error, size_t error_size)
{
	if (name == NULL) name = "<string>";
	if (text == NULL) {
		set_error(error, error_size, "%s: no text given", name);
		return NULL;
	}
	return load(text, strlen(text), name, error, error_size);
}

sinew_scene *sinew_scene_load_file(const char *path, char *error, size_t error_size)
{
	if (path == NULL) {
		set_error(error, error_size, "sinew_scene_load_file: no path given");
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
		free(text);
		set_error(error, error_size, "%s: cannot read the file", path);
		return NULL;
	}
	text[size] = 0;
	sinew_scene *s = load(text, size, path, error, error_size);
	free(text);
	return s;
}

void sinew_scene_destroy(sinew_scene *scene)
{
	if (scene == NULL) return;
	if (!SINEW_IS_NULL(scene->world)) sinew_destroy_world(scene->world);
	scene_desc_free(&scene->desc);
	free(scene->bodies);
	free(scene->shapes);
	free(scene->named_bodies);
	free(scene->joints);
	free(scene->named_joints);
	free(scene->joint_of_slot);
	free(scene->body_of_slot);
	free(scene->generation_of_slot);
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
int sinew_scene_get_default_steps(const sinew_scene *scene) { return scene != NULL ? scene->desc.steps : 0; }
int sinew_scene_get_step(const sinew_scene *scene) { return scene != NULL ? scene->step : 0; }

const scene_desc *scene_get_desc(const sinew_scene *scene) { return &scene->desc; }

sinew_shape_id scene_get_shape(const sinew_scene *scene, int index) { return scene->shapes[index]; }
double sinew_scene_get_world_step_seconds(const sinew_scene *scene)
{
	return scene != NULL ? scene->step_seconds : 0.0;
}
int sinew_scene_get_error_count(const sinew_scene *scene) { return scene != NULL ? scene->error_count : 0; }
const char *sinew_scene_get_last_error(const sinew_scene *scene) { return scene != NULL ? scene->last_error : ""; }

static double now_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
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
		if (!scene_apply_op(op, s->bodies, s->joints) && s->error_count == before) {
			/* Refused without a report: say so ourselves. */
			on_engine_error(SINEW_ERROR_INVALID_ARGUMENT, "refused", s);
		}
		s->doing = "stepping";
	}
}

bool sinew_scene_step(sinew_scene *scene)
{
	if (scene == NULL) return false;
	int before = scene->error_count;
	apply_due_ops(scene);
	scene->doing = "stepping";
	double start = now_seconds();
	sinew_world_step(scene->world, 1.0f / scene->desc.hz, scene->desc.substeps);
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
