/* The script: timed ops, checked at load (every body and joint they name exists and is still
 * alive when the op runs) and applied before the step they name. Each op kind is one case in
 * parse_op and one in scene_apply_op (ops on the scene's own objects — spawns, ragdolls — in
 * scene.c's apply_op). */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const op_names[SCENE_OP_COUNT + 1] = {
	"impulse", "velocity", "enable_body", "disable_body", "set_type", "destroy_body", "destroy_joint",
	"rebuild_joint", "ragdoll", "toggle_ragdoll", "snap_to_standing", "walk", "spawn", "destroy_group",
	"set_influence", "set_power", "ragdoll_limb", NULL};

static const char *const impulse_keys[] = {"step", "op", "body", "impulse", "point", NULL};
static const char *const velocity_keys[] = {"step", "op", "body", "linear_velocity", "angular_velocity", NULL};
static const char *const body_op_keys[] = {"step", "op", "body", NULL};
static const char *const set_type_keys[] = {"step", "op", "body", "type", NULL};
static const char *const joint_op_keys[] = {"step", "op", "joint", NULL};
static const char *const spawn_keys[] = {"step", "op", "template", "group", "at", NULL};
static const char *const group_op_keys[] = {"step", "op", "group", NULL};
static const char *const ragdoll_keys[] = {"step", "op", "rig", "enabled", NULL};
static const char *const rig_op_keys[] = {"step", "op", "rig", NULL};
static const char *const walk_keys[] = {"step", "op", "rig", "speed", NULL};
static const char *const influence_keys[] = {"step", "op", "rig", "influence", "limb", NULL};
static const char *const power_op_keys[] = {"step", "op", "rig", "preset", NULL};
static const char *const limb_op_keys[] = {"step", "op", "rig", "limb", "enabled", NULL};

const char *scene_op_name(scene_op_kind kind)
{
	return kind >= 0 && kind < SCENE_OP_COUNT ? op_names[kind] : "?";
}

static bool get_body(scene_parser *p, json_t *o, const char *path, scene_op *op)
{
	const char *name = NULL;
	if (!scene_require(p, o, path, "body") || !scene_get_string(p, o, path, "body", &name)) return false;
	op->body = scene_desc_find_body(p->desc, name);
	if (op->body >= 0) return true;
	char child[SCENE_PATH_SIZE];
	scene_path_key(child, path, "body");
	return scene_fail(p, child, "no body named \"%s\"", name);
}

static bool get_joint(scene_parser *p, json_t *o, const char *path, scene_op *op)
{
	const char *name = NULL;
	if (!scene_require(p, o, path, "joint") || !scene_get_string(p, o, path, "joint", &name)) return false;
	op->joint = scene_desc_find_joint(p->desc, name);
	if (op->joint >= 0) return true;
	char child[SCENE_PATH_SIZE];
	scene_path_key(child, path, "joint");
	return scene_fail(p, child, "no joint named \"%s\"", name);
}

static bool get_rig(scene_parser *p, json_t *o, const char *path, scene_op *op)
{
	const char *name = NULL;
	if (!scene_require(p, o, path, "rig") || !scene_get_string(p, o, path, "rig", &name)) return false;
	op->rig = scene_desc_find_rig(p->desc, name);
	if (op->rig >= 0) return true;
	char child[SCENE_PATH_SIZE];
	scene_path_key(child, path, "rig");
	return scene_fail(p, child, "no rig named \"%s\"", name);
}

/* The group's index in desc->group_names, adding the name when it is new. */
static bool get_group(scene_parser *p, json_t *o, const char *path, bool required, scene_op *op)
{
	scene_desc *d = p->desc;
	const char *name = NULL;
	op->group = -1;
	if ((required && !scene_require(p, o, path, "group")) || !scene_get_string(p, o, path, "group", &name)) return false;
	if (name == NULL) return true;
	for (int i = 0; i < d->group_count; ++i) {
		if (strcmp(d->group_names[i], name) == 0) {
			op->group = i;
			return true;
		}
	}
	char **grown = realloc(d->group_names, (size_t)(d->group_count + 1) * sizeof *grown);
	if (grown == NULL) return scene_fail(p, path, "out of memory");
	d->group_names = grown;
	d->group_names[d->group_count] = scene_strdup(name);
	if (d->group_names[d->group_count] == NULL) return scene_fail(p, path, "out of memory");
	op->group = d->group_count++;
	return true;
}

/* spawn: template (by name), group (optional), at: [[x, y], ...] (one instance per point). */
static bool parse_spawn(scene_parser *p, json_t *o, const char *path, scene_op *op)
{
	const char *name = NULL;
	char child[SCENE_PATH_SIZE];
	if (!scene_check_keys(p, o, path, spawn_keys) || !scene_require(p, o, path, "template") ||
	    !scene_get_string(p, o, path, "template", &name) || !get_group(p, o, path, false, op) ||
	    !scene_require(p, o, path, "at")) {
		return false;
	}
	op->template_index = scene_desc_find_template(p->desc, name);
	if (op->template_index < 0) {
		scene_path_key(child, path, "template");
		return scene_fail(p, child, "no template named \"%s\"", name);
	}
	json_t *at = json_object_get(o, "at");
	scene_path_key(child, path, "at");
	size_t count = json_array_size(at);
	if (!json_is_array(at) || count == 0) return scene_fail(p, child, "expected an array of points [[x, y], ...]");
	if (count > 1000000) return scene_fail(p, child, "too many points");
	op->points = malloc(count * sizeof *op->points);
	if (op->points == NULL) return scene_fail(p, child, "out of memory");
	for (size_t i = 0; i < count; ++i) {
		char item[SCENE_PATH_SIZE];
		scene_path_index(item, child, i);
		if (!scene_point(p, json_array_get(at, i), item, &op->points[i])) return false;
		op->point_count += 1;
	}
	return true;
}

static bool parse_op(scene_parser *p, json_t *o, const char *path, scene_op *op)
{
	int kind = -1, type = SINEW_DYNAMIC_BODY;
	if (!scene_expect_object(p, o, path) || !scene_require(p, o, path, "op") ||
	    !scene_get_choice(p, o, path, "op", op_names, &kind) || !scene_require(p, o, path, "step") ||
	    !scene_get_int(p, o, path, "step", 0, 1000000000, &op->step)) {
		return false;
	}
	op->kind = (scene_op_kind)kind;
	op->body = -1;
	op->joint = -1;
	op->group = -1;
	op->template_index = -1;
	op->rig = -1;
	op->limb = -1;
	switch (op->kind) {
	case SCENE_OP_IMPULSE:
		op->has_point = json_object_get(o, "point") != NULL;
		op->has_vector = true;
		return scene_check_keys(p, o, path, impulse_keys) && get_body(p, o, path, op) &&
		       scene_require(p, o, path, "impulse") && scene_get_vec2(p, o, path, "impulse", &op->vector) &&
		       scene_get_vec2(p, o, path, "point", &op->point);
	case SCENE_OP_VELOCITY:
		op->has_vector = json_object_get(o, "linear_velocity") != NULL;
		op->has_angular_velocity = json_object_get(o, "angular_velocity") != NULL;
		if (!scene_check_keys(p, o, path, velocity_keys) || !get_body(p, o, path, op)) return false;
		if (!op->has_vector && !op->has_angular_velocity) {
			return scene_fail(p, path, "give linear_velocity, angular_velocity or both");
		}
		return scene_get_vec2(p, o, path, "linear_velocity", &op->vector) &&
		       scene_get_degrees(p, o, path, "angular_velocity", &op->angular_velocity);
	case SCENE_OP_ENABLE_BODY:
	case SCENE_OP_DISABLE_BODY:
	case SCENE_OP_DESTROY_BODY:
		return scene_check_keys(p, o, path, body_op_keys) && get_body(p, o, path, op);
	case SCENE_OP_SET_TYPE:
		if (!scene_check_keys(p, o, path, set_type_keys) || !get_body(p, o, path, op) ||
		    !scene_require(p, o, path, "type") || !scene_get_choice(p, o, path, "type", scene_body_type_names, &type)) {
			return false;
		}
		op->type = (sinew_body_type)type;
		return true;
	case SCENE_OP_DESTROY_JOINT:
	case SCENE_OP_REBUILD_JOINT:
		return scene_check_keys(p, o, path, joint_op_keys) && get_joint(p, o, path, op);
	case SCENE_OP_SPAWN:
		return parse_spawn(p, o, path, op);
	case SCENE_OP_DESTROY_GROUP:
		return scene_check_keys(p, o, path, group_op_keys) && get_group(p, o, path, true, op);
	case SCENE_OP_RAGDOLL:
		return scene_check_keys(p, o, path, ragdoll_keys) && get_rig(p, o, path, op) &&
		       scene_require(p, o, path, "enabled") && scene_get_bool(p, o, path, "enabled", &op->enabled);
	case SCENE_OP_TOGGLE_RAGDOLL:
	case SCENE_OP_SNAP_TO_STANDING:
		return scene_check_keys(p, o, path, rig_op_keys) && get_rig(p, o, path, op);
	case SCENE_OP_WALK:
		return scene_check_keys(p, o, path, walk_keys) && get_rig(p, o, path, op) && scene_require(p, o, path, "speed") &&
		       scene_get_number(p, o, path, "speed", SCENE_ANY, &op->speed);
	case SCENE_OP_SET_INFLUENCE:
		return scene_check_keys(p, o, path, influence_keys) && get_rig(p, o, path, op) &&
		       scene_require(p, o, path, "influence") &&
		       scene_get_number(p, o, path, "influence", SCENE_UNIT, &op->influence) &&
		       scene_get_choice(p, o, path, "limb", scene_rig_limb_names, &op->limb);
	case SCENE_OP_SET_POWER: {
		const char *presets[SINEW_POWER_PRESET_COUNT + 1];
		scene_power_preset_names(presets);
		return scene_check_keys(p, o, path, power_op_keys) && get_rig(p, o, path, op) &&
		       scene_require(p, o, path, "preset") && scene_get_choice(p, o, path, "preset", presets, &op->preset);
	}
	case SCENE_OP_RAGDOLL_LIMB:
		return scene_check_keys(p, o, path, limb_op_keys) && get_rig(p, o, path, op) && scene_require(p, o, path, "limb") &&
		       scene_get_choice(p, o, path, "limb", scene_rig_limb_names, &op->limb) &&
		       scene_require(p, o, path, "enabled") && scene_get_bool(p, o, path, "enabled", &op->enabled);
	case SCENE_OP_COUNT:
		break;
	}
	return false;
}

static int compare_ops(const void *a, const void *b)
{
	const scene_op *x = a, *y = b;
	if (x->step != y->step) return x->step < y->step ? -1 : 1;
	return (x->index > y->index) - (x->index < y->index);
}

static bool touches_destroyed(scene_parser *p, const scene_op *op, const char *what, const char *name, int by)
{
	const scene_desc *d = p->desc;
	char path[SCENE_PATH_SIZE];
	snprintf(path, sizeof path, "script[%d].%s", op->index, what);
	const scene_op *killer = &d->ops[by];
	if (killer->kind == SCENE_OP_DESTROY_BODY && op->joint >= 0) {
		return scene_fail(p, path,
		                  "joint \"%s\" is destroyed with body \"%s\" before this op runs (by script[%d] at step %d)", name,
		                  d->bodies[killer->body].name, killer->index, killer->step);
	}
	return scene_fail(p, path, "%s \"%s\" is destroyed before this op runs (by script[%d] at step %d)", what, name,
	                  killer->index, killer->step);
}

/* In run order, no op may touch a body or joint an earlier op destroyed; destroying a body
 * destroys its joints. */
static bool check_destroyed(scene_parser *p)
{
	scene_desc *d = p->desc;
	int *body_destroyed_by = malloc((size_t)(d->body_count > 0 ? d->body_count : 1) * sizeof *body_destroyed_by);
	int *joint_destroyed_by = malloc((size_t)(d->joint_count > 0 ? d->joint_count : 1) * sizeof *joint_destroyed_by);
	bool ok = body_destroyed_by != NULL && joint_destroyed_by != NULL;
	if (!ok) scene_fail(p, "script", "out of memory");
	for (int i = 0; ok && i < d->body_count; ++i) body_destroyed_by[i] = -1;
	for (int i = 0; ok && i < d->joint_count; ++i) joint_destroyed_by[i] = -1;
	for (int i = 0; i < d->op_count && ok; ++i) {
		const scene_op *op = &d->ops[i];
		if (op->body >= 0 && body_destroyed_by[op->body] >= 0) {
			ok = touches_destroyed(p, op, "body", d->bodies[op->body].name, body_destroyed_by[op->body]);
		} else if (op->joint >= 0 && joint_destroyed_by[op->joint] >= 0) {
			ok = touches_destroyed(p, op, "joint", d->joints[op->joint].name, joint_destroyed_by[op->joint]);
		}
		if (op->kind == SCENE_OP_DESTROY_BODY) {
			body_destroyed_by[op->body] = i;
			for (int j = 0; j < d->joint_count; ++j) {
				const scene_joint_desc *jd = &d->joints[j];
				if ((jd->body_a == op->body || jd->body_b == op->body) && joint_destroyed_by[j] < 0) {
					joint_destroyed_by[j] = i;
				}
			}
		}
		if (op->kind == SCENE_OP_DESTROY_JOINT) joint_destroyed_by[op->joint] = i;
	}
	free(body_destroyed_by);
	free(joint_destroyed_by);
	return ok;
}

/* In run order, a group is destroyed only after something was spawned into it. */
static bool check_groups(scene_parser *p)
{
	scene_desc *d = p->desc;
	bool *spawned = calloc((size_t)(d->group_count > 0 ? d->group_count : 1), sizeof *spawned);
	if (spawned == NULL) return scene_fail(p, "script", "out of memory");
	bool ok = true;
	for (int i = 0; i < d->op_count && ok; ++i) {
		const scene_op *op = &d->ops[i];
		if (op->kind == SCENE_OP_SPAWN && op->group >= 0) spawned[op->group] = true;
		if (op->kind == SCENE_OP_DESTROY_GROUP && !spawned[op->group]) {
			char path[SCENE_PATH_SIZE];
			snprintf(path, sizeof path, "script[%d].group", op->index);
			ok = scene_fail(p, path, "nothing is spawned into group \"%s\" before this op runs",
			                d->group_names[op->group]);
		}
	}
	free(spawned);
	return ok;
}

bool scene_parse_script(scene_parser *p, json_t *script)
{
	scene_desc *d = p->desc;
	size_t count = script != NULL ? json_array_size(script) : 0;
	if (count == 0) return true;
	if (count > 100000000) return scene_fail(p, "script", "too many ops");
	d->ops = calloc(count, sizeof *d->ops);
	if (d->ops == NULL) return scene_fail(p, "script", "out of memory");
	for (size_t i = 0; i < count; ++i) {
		char path[SCENE_PATH_SIZE];
		scene_path_index(path, "script", i);
		d->ops[i].index = (int)i;
		d->op_count += 1;
		if (!parse_op(p, json_array_get(script, i), path, &d->ops[i])) return false;
	}
	qsort(d->ops, count, sizeof *d->ops, compare_ops);
	return check_destroyed(p) && check_groups(p);
}

bool scene_apply_op(const scene_op *op, const sinew_body_id *bodies, const sinew_joint_id *joints)
{
	sinew_body_id body = op->body >= 0 ? bodies[op->body] : sinew_null_body_id;
	sinew_joint_id joint = op->joint >= 0 ? joints[op->joint] : sinew_null_joint_id;
	bool ok = true;
	switch (op->kind) {
	case SCENE_OP_IMPULSE:
		if (op->has_point) return sinew_body_apply_linear_impulse(body, op->vector, op->point, true);
		return sinew_body_apply_linear_impulse_to_center(body, op->vector, true);
	case SCENE_OP_VELOCITY:
		if (op->has_vector) ok = sinew_body_set_linear_velocity(body, op->vector) && ok;
		if (op->has_angular_velocity) ok = sinew_body_set_angular_velocity(body, op->angular_velocity) && ok;
		return ok;
	case SCENE_OP_ENABLE_BODY:
		return sinew_body_enable(body);
	case SCENE_OP_DISABLE_BODY:
		return sinew_body_disable(body);
	case SCENE_OP_SET_TYPE:
		return sinew_body_set_type(body, op->type);
	case SCENE_OP_DESTROY_BODY:
		return sinew_destroy_body(body);
	case SCENE_OP_DESTROY_JOINT:
		return sinew_destroy_joint(joint);
	case SCENE_OP_REBUILD_JOINT:
		return sinew_joint_rebuild(joint);
	case SCENE_OP_SPAWN:
	case SCENE_OP_DESTROY_GROUP:
		break; /* the scene applies these itself: they make and unmake what the file did not list */
	case SCENE_OP_WALK:
	case SCENE_OP_SET_INFLUENCE:
	case SCENE_OP_SET_POWER:
	case SCENE_OP_RAGDOLL_LIMB:
		break; /* the scene applies it to its rig */
	case SCENE_OP_RAGDOLL:
	case SCENE_OP_TOGGLE_RAGDOLL:
	case SCENE_OP_SNAP_TO_STANDING:
		break; /* the scene applies these itself: they drive its rigs' ragdolls */
	case SCENE_OP_COUNT:
		break; /* refused at load */
	}
	return false;
}
