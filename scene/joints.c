/* Joints: every joint type of the format, checked key by key before a world exists, into the
 * engine's def structs (angles and angular speeds in radians, axes normalised); then, once the
 * bodies exist, one create call per joint. Each type is one key list and one case in parse_joint
 * and in scene_build_joint. */
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const scene_joint_type_names[] = {"pin", "revolute", "prismatic", "weld", "distance", "wheel", "target",
                                               NULL};

/* local_anchor_a, local_anchor_b and reference_angle: the authored frames of saved scenes (any type). */
#define JOINT_COMMON "name", "type", "body_a", "body_b", "collide_connected", "break_force", "break_torque", "enabled", \
	"local_anchor_a", "local_anchor_b", "reference_angle"
static const char *const pin_keys[] = {JOINT_COMMON, "anchor", "softness", "bias", "limit", "motor", "swing_reference",
                                       NULL};
static const char *const revolute_keys[] = {JOINT_COMMON, "anchor", "limit", "motor", "spring", "swing_reference", NULL};
static const char *const prismatic_keys[] = {JOINT_COMMON, "anchor", "axis", "local_axis_a", "limit", "motor", "spring",
                                             NULL};
static const char *const weld_keys[] = {JOINT_COMMON, "anchor", "linear_hertz", "angular_hertz",
                                        "linear_damping_ratio", "angular_damping_ratio", NULL};
static const char *const distance_keys[] = {JOINT_COMMON, "anchor_a", "anchor_b", "length", "min_length",
                                            "max_length", "spring", "motor", NULL};
static const char *const wheel_keys[] = {JOINT_COMMON, "anchor", "axis", "local_axis_a", "spring", "limit", "motor",
                                         NULL};
static const char *const target_keys[] = {JOINT_COMMON, "target", "anchor", "hertz", "damping_ratio", "max_force", NULL};
static const char *const *const keys_of_type[SINEW_JOINT_TYPE_COUNT] = {
	pin_keys, revolute_keys, prismatic_keys, weld_keys, distance_keys, wheel_keys, target_keys};

static const char *const limit_frame_names[] = {"local", "world", NULL};

/* How a number of a limit, motor or spring is read. */
typedef enum unit {
	UNIT_NONE,    /* the key does not exist for this joint type */
	UNIT_DEGREES, /* degrees (or degrees / s) in the file, radians in the def */
	UNIT_LENGTH   /* length units (or length units / s) */
} unit;

static bool get_in(scene_parser *p, json_t *obj, const char *path, const char *key, unit u, float *out)
{
	if (u == UNIT_DEGREES) return scene_get_degrees(p, obj, path, key, out);
	return scene_get_number(p, obj, path, key, SCENE_ANY, out);
}

/* An optional object key: false after an error; *out is NULL when absent. */
static bool get_object(scene_parser *p, json_t *obj, const char *path, const char *key, json_t **out, char *child)
{
	*out = json_object_get(obj, key);
	scene_path_key(child, path, key);
	return *out == NULL || scene_expect_object(p, *out, child);
}

/* "limit": {lower, upper[, frame]}; lower <= upper, compared as written. */
static bool parse_limit(scene_parser *p, json_t *j, const char *path, unit u, bool has_frame, sinew_joint_limit *out)
{
	static const char *const keys[] = {"lower", "upper", NULL};
	static const char *const keys_frame[] = {"lower", "upper", "frame", NULL};
	char lp[SCENE_PATH_SIZE];
	json_t *o;
	if (!get_object(p, j, path, "limit", &o, lp)) return false;
	if (o == NULL) return true;
	int frame = SINEW_LIMIT_LOCAL;
	if (!scene_check_keys(p, o, lp, has_frame ? keys_frame : keys) || !scene_require(p, o, lp, "lower") ||
	    !scene_require(p, o, lp, "upper") || !get_in(p, o, lp, "lower", u, &out->lower) ||
	    !get_in(p, o, lp, "upper", u, &out->upper) ||
	    (has_frame && !scene_get_choice(p, o, lp, "frame", limit_frame_names, &frame))) {
		return false;
	}
	double lower = json_number_value(json_object_get(o, "lower"));
	double upper = json_number_value(json_object_get(o, "upper"));
	if (lower > upper) {
		char child[SCENE_PATH_SIZE];
		scene_path_key(child, lp, "lower");
		return scene_fail(p, child, "lower (%g) is greater than upper (%g)", lower, upper);
	}
	out->enabled = true;
	out->frame = (sinew_limit_frame)frame;
	return true;
}

/* "motor": {speed[, max_key]}; speed defaults to 0 (joint friction), a missing max is unbounded.
 * max_key NULL: the pin's motor, which has no maximum (max_effort 0 is unbounded for a pin). */
static bool parse_motor(scene_parser *p, json_t *j, const char *path, unit u, const char *max_key,
                        sinew_joint_motor *out)
{
	const char *keys[] = {"speed", max_key, NULL};
	char mp[SCENE_PATH_SIZE];
	json_t *o;
	if (!get_object(p, j, path, "motor", &o, mp)) return false;
	if (o == NULL) return true;
	out->speed = 0.0f;
	out->max_effort = max_key != NULL ? INFINITY : 0.0f;
	if (!scene_check_keys(p, o, mp, keys) || !get_in(p, o, mp, "speed", u, &out->speed) ||
	    (max_key != NULL && !scene_get_number(p, o, mp, max_key, SCENE_NON_NEGATIVE, &out->max_effort))) {
		return false;
	}
	out->enabled = true;
	return true;
}

/* "spring": {hertz, damping_ratio[, target]}; target_unit UNIT_NONE: no target key. */
static bool parse_spring(scene_parser *p, json_t *j, const char *path, unit target_unit, sinew_joint_spring *out)
{
	static const char *const keys[] = {"hertz", "damping_ratio", NULL};
	static const char *const keys_target[] = {"hertz", "damping_ratio", "target", NULL};
	char sp[SCENE_PATH_SIZE];
	json_t *o;
	if (!get_object(p, j, path, "spring", &o, sp)) return false;
	if (o == NULL) return true;
	out->hertz = 0.0f;
	out->damping_ratio = 0.0f;
	out->target = 0.0f;
	if (!scene_check_keys(p, o, sp, target_unit != UNIT_NONE ? keys_target : keys) ||
	    !scene_require(p, o, sp, "hertz") || !scene_get_number(p, o, sp, "hertz", SCENE_POSITIVE, &out->hertz) ||
	    !scene_get_number(p, o, sp, "damping_ratio", SCENE_NON_NEGATIVE, &out->damping_ratio) ||
	    (target_unit != UNIT_NONE && !get_in(p, o, sp, "target", target_unit, &out->target))) {
		return false;
	}
	out->enabled = true;
	return true;
}

/* Where a body starts (the world: the identity). */
static sinew_transform initial_transform(const scene_desc *d, int body)
{
	if (body < 0) return sinew_transform_identity();
	return sinew_make_transform(d->bodies[body].def.position, d->bodies[body].def.angle);
}

/* A world point, required unless the joint has local anchors: then it defaults to where the local
 * anchor on body B (on_b) or body A starts. */
static bool get_point(scene_parser *p, json_t *j, const char *path, const char *key, const scene_joint_desc *jd,
                      bool on_b, sinew_vec2 *out)
{
	if (jd->has_local_anchors && json_object_get(j, key) == NULL) {
		*out = on_b ? sinew_transform_point(initial_transform(p->desc, jd->body_b), jd->local_anchor_b)
		            : sinew_transform_point(initial_transform(p->desc, jd->body_a), jd->local_anchor_a);
		return true;
	}
	return scene_require(p, j, path, key) && scene_get_vec2(p, j, path, key, out);
}

/* The authored-frame keys of saved scenes: local_anchor_a and local_anchor_b (together),
 * local_axis_a (normalised unless already unit), reference_angle, swing_reference (degrees). */
static bool parse_frames(scene_parser *p, json_t *j, const char *path, scene_joint_desc *out)
{
	char child[SCENE_PATH_SIZE];
	bool a = json_object_get(j, "local_anchor_a") != NULL, b = json_object_get(j, "local_anchor_b") != NULL;
	if (a != b) {
		scene_path_key(child, path, a ? "local_anchor_a" : "local_anchor_b");
		return scene_fail(p, child, "give local_anchor_a and local_anchor_b together");
	}
	out->has_local_anchors = a;
	out->has_local_axis = json_object_get(j, "local_axis_a") != NULL;
	out->has_reference_angle = json_object_get(j, "reference_angle") != NULL;
	out->has_swing_reference = json_object_get(j, "swing_reference") != NULL;
	if (!scene_get_vec2(p, j, path, "local_anchor_a", &out->local_anchor_a) ||
	    !scene_get_vec2(p, j, path, "local_anchor_b", &out->local_anchor_b) ||
	    !scene_get_vec2(p, j, path, "local_axis_a", &out->local_axis_a) ||
	    !scene_get_degrees(p, j, path, "reference_angle", &out->reference_angle) ||
	    !scene_get_degrees(p, j, path, "swing_reference", &out->swing_reference)) {
		return false;
	}
	float length = sinew_length(out->local_axis_a);
	if (out->has_local_axis && (!(length > 1e-6f) || !isfinite(length))) {
		scene_path_key(child, path, "local_axis_a");
		return scene_fail(p, child, "expected a non-zero direction [x, y]");
	}
	return true;
}

/* A direction, normalised: required unless local_axis_a is given (then it defaults to where that
 * axis starts). */
static bool get_axis(scene_parser *p, json_t *j, const char *path, const scene_joint_desc *jd, sinew_vec2 *out)
{
	if (jd->has_local_axis && json_object_get(j, "axis") == NULL) {
		*out = sinew_rotate(initial_transform(p->desc, jd->body_a).q, jd->local_axis_a);
		return true;
	}
	if (!scene_require(p, j, path, "axis") || !scene_get_vec2(p, j, path, "axis", out)) return false;
	float length = sinew_length(*out);
	if (!(length > 1e-6f) || !isfinite(length)) {
		char child[SCENE_PATH_SIZE];
		scene_path_key(child, path, "axis");
		return scene_fail(p, child, "expected a non-zero direction [x, y]");
	}
	*out = sinew_scale(1.0f / length, *out);
	return true;
}

/* body_a: a body name, or null / absent for the world. body_b: a body name, required. */
static bool get_joint_body(scene_parser *p, json_t *j, const char *path, const char *key, bool required, int *out)
{
	char child[SCENE_PATH_SIZE];
	const char *name = NULL;
	json_t *value = json_object_get(j, key);
	*out = -1;
	if (value == NULL || json_is_null(value)) {
		if (!required) return true;
		if (value == NULL) return scene_require(p, j, path, key);
		scene_path_key(child, path, key);
		return scene_fail(p, child, "expected a body name (only body_a may be the world)");
	}
	if (!json_is_string(value)) {
		scene_path_key(child, path, key);
		return scene_fail(p, child, "expected a body name%s", required ? "" : ", or null for the world");
	}
	if (!scene_get_string(p, j, path, key, &name)) return false;
	*out = scene_desc_find_body(p->desc, name);
	if (*out >= 0) return true;
	scene_path_key(child, path, key);
	return scene_fail(p, child, "no body named \"%s\"", name);
}

static bool parse_base(scene_parser *p, json_t *j, const char *path, scene_joint_desc *out, sinew_joint_base_def *base)
{
	if (!get_joint_body(p, j, path, "body_a", false, &out->body_a) ||
	    !get_joint_body(p, j, path, "body_b", true, &out->body_b) ||
	    !scene_get_bool(p, j, path, "collide_connected", &base->collide_connected) ||
	    !scene_get_number(p, j, path, "break_force", SCENE_NON_NEGATIVE, &base->break_force) ||
	    !scene_get_number(p, j, path, "break_torque", SCENE_NON_NEGATIVE, &base->break_torque) ||
	    !scene_get_bool(p, j, path, "enabled", &base->is_enabled) || !parse_frames(p, j, path, out)) {
		return false;
	}
	if (out->body_a == out->body_b) {
		char child[SCENE_PATH_SIZE];
		scene_path_key(child, path, "body_b");
		return scene_fail(p, child, "a body cannot be jointed to itself (body_a names it too)");
	}
	return true;
}

/* Distance lengths: length >= 0 (default: the anchors' distance), 0 <= min <= length <= max (both
 * default to length). The def keeps the engine's "derive it" value (-1) when absent, and a length
 * the file gives, 0 included, is passed as given: a saved joint whose anchors have drifted apart
 * by rounding must not have its rest length taken from them. */
static bool parse_lengths(scene_parser *p, json_t *j, const char *path, sinew_distance_joint_def *d)
{
	char child[SCENE_PATH_SIZE];
	float length = sinew_distance(d->anchor_a, d->anchor_b);
	bool has_length = json_object_get(j, "length") != NULL;
	if (!scene_get_number(p, j, path, "length", SCENE_NON_NEGATIVE, &length) ||
	    !scene_get_number(p, j, path, "min_length", SCENE_NON_NEGATIVE, &d->min_length) ||
	    !scene_get_number(p, j, path, "max_length", SCENE_NON_NEGATIVE, &d->max_length)) {
		return false;
	}
	if (!has_length && !(length > 0.0f)) {
		scene_path_key(child, path, "anchor_b");
		return scene_fail(p, child, "anchor_a and anchor_b coincide: give a length > 0");
	}
	d->length = has_length ? length : -1.0f;
	float lo = d->min_length >= 0.0f ? d->min_length : length;
	float hi = d->max_length >= 0.0f ? d->max_length : length;
	if (lo > length) {
		scene_path_key(child, path, "min_length");
		return scene_fail(p, child, "min_length (%g) is greater than the length (%g)", (double)lo, (double)length);
	}
	if (hi < length) {
		scene_path_key(child, path, "max_length");
		return scene_fail(p, child, "max_length (%g) is less than the length (%g)", (double)hi, (double)length);
	}
	return true;
}

/* target (required), anchor (default: the target, the point grabbed where it is), hertz,
 * damping_ratio, max_force (absent: no cap). */
static bool parse_target(scene_parser *p, json_t *j, const char *path, scene_joint_desc *out)
{
	sinew_target_joint_def *d = &out->def.target;
	*d = sinew_default_target_joint_def();
	if (!parse_base(p, j, path, out, &d->base) || !get_point(p, j, path, "target", out, false, &d->target)) return false;
	d->anchor = d->target;
	bool has_anchor = json_object_get(j, "anchor") != NULL || out->has_local_anchors;
	return (!has_anchor || get_point(p, j, path, "anchor", out, true, &d->anchor)) &&
	       scene_get_number(p, j, path, "hertz", SCENE_POSITIVE, &d->hertz) &&
	       scene_get_number(p, j, path, "damping_ratio", SCENE_NON_NEGATIVE, &d->damping_ratio) &&
	       scene_get_number(p, j, path, "max_force", SCENE_NON_NEGATIVE, &d->max_force);
}

static bool parse_joint(scene_parser *p, json_t *j, const char *path, scene_joint_desc *out)
{
	char child[SCENE_PATH_SIZE];
	const char *name = NULL;
	if (!scene_expect_object(p, j, path) || !scene_require(p, j, path, "type")) return false;
	json_t *type = json_object_get(j, "type");
	int t = -1;
	for (int i = 0; json_is_string(type) && scene_joint_type_names[i] != NULL; ++i) {
		if (strcmp(json_string_value(type), scene_joint_type_names[i]) == 0) t = i;
	}
	if (t < 0) {
		scene_path_key(child, path, "type");
		if (!json_is_string(type)) return scene_fail(p, child, "expected a joint type (a string)");
		return scene_fail(p, child,
		                  "unknown joint type \"%s\" (expected \"pin\", \"revolute\", \"prismatic\", \"weld\", "
		                  "\"distance\", \"wheel\" or \"target\")",
		                  json_string_value(type));
	}
	out->type = (sinew_joint_type)t;
	if (!scene_check_keys(p, j, path, keys_of_type[t]) || !scene_get_string(p, j, path, "name", &name)) return false;
	out->name = scene_strdup(name);
	if (name != NULL && out->name == NULL) return scene_fail(p, path, "out of memory");
	switch (out->type) {
	case SINEW_PIN_JOINT: {
		sinew_pin_joint_def *d = &out->def.pin;
		*d = sinew_default_pin_joint_def();
		return parse_base(p, j, path, out, &d->base) && get_point(p, j, path, "anchor", out, true, &d->anchor) &&
		       scene_get_number(p, j, path, "softness", SCENE_NON_NEGATIVE, &d->softness) &&
		       scene_get_number(p, j, path, "bias", SCENE_NON_NEGATIVE, &d->bias) &&
		       parse_limit(p, j, path, UNIT_DEGREES, false, &d->limit) &&
		       parse_motor(p, j, path, UNIT_DEGREES, NULL, &d->motor);
	}
	case SINEW_REVOLUTE_JOINT: {
		sinew_revolute_joint_def *d = &out->def.revolute;
		*d = sinew_default_revolute_joint_def();
		if (!parse_base(p, j, path, out, &d->base)) return false;
		d->use_reference_angle = out->has_reference_angle;
		d->reference_angle = out->reference_angle;
		return get_point(p, j, path, "anchor", out, true, &d->anchor) && parse_limit(p, j, path, UNIT_DEGREES, true, &d->limit) &&
		       parse_motor(p, j, path, UNIT_DEGREES, "max_torque", &d->motor) &&
		       parse_spring(p, j, path, UNIT_DEGREES, &d->spring);
	}
	case SINEW_PRISMATIC_JOINT: {
		sinew_prismatic_joint_def *d = &out->def.prismatic;
		*d = sinew_default_prismatic_joint_def();
		return parse_base(p, j, path, out, &d->base) && get_point(p, j, path, "anchor", out, true, &d->anchor) &&
		       get_axis(p, j, path, out, &d->axis) && parse_limit(p, j, path, UNIT_LENGTH, false, &d->limit) &&
		       parse_motor(p, j, path, UNIT_LENGTH, "max_force", &d->motor) &&
		       parse_spring(p, j, path, UNIT_LENGTH, &d->spring);
	}
	case SINEW_WELD_JOINT: {
		sinew_weld_joint_def *d = &out->def.weld;
		*d = sinew_default_weld_joint_def();
		return parse_base(p, j, path, out, &d->base) && get_point(p, j, path, "anchor", out, true, &d->anchor) &&
		       scene_get_number(p, j, path, "linear_hertz", SCENE_NON_NEGATIVE, &d->linear_hertz) &&
		       scene_get_number(p, j, path, "angular_hertz", SCENE_NON_NEGATIVE, &d->angular_hertz) &&
		       scene_get_number(p, j, path, "linear_damping_ratio", SCENE_NON_NEGATIVE, &d->linear_damping_ratio) &&
		       scene_get_number(p, j, path, "angular_damping_ratio", SCENE_NON_NEGATIVE, &d->angular_damping_ratio);
	}
	case SINEW_DISTANCE_JOINT: {
		sinew_distance_joint_def *d = &out->def.distance;
		*d = sinew_default_distance_joint_def();
		return parse_base(p, j, path, out, &d->base) && get_point(p, j, path, "anchor_a", out, false, &d->anchor_a) &&
		       get_point(p, j, path, "anchor_b", out, true, &d->anchor_b) && parse_lengths(p, j, path, d) &&
		       parse_spring(p, j, path, UNIT_NONE, &d->spring) &&
		       parse_motor(p, j, path, UNIT_LENGTH, "max_force", &d->motor);
	}
	case SINEW_WHEEL_JOINT: {
		sinew_wheel_joint_def *d = &out->def.wheel;
		*d = sinew_default_wheel_joint_def();
		return parse_base(p, j, path, out, &d->base) && get_point(p, j, path, "anchor", out, true, &d->anchor) &&
		       get_axis(p, j, path, out, &d->axis) && parse_spring(p, j, path, UNIT_LENGTH, &d->spring) &&
		       parse_limit(p, j, path, UNIT_LENGTH, false, &d->limit) &&
		       parse_motor(p, j, path, UNIT_DEGREES, "max_torque", &d->motor);
	}
	case SINEW_TARGET_JOINT: return parse_target(p, j, path, out);
	case SINEW_JOINT_TYPE_COUNT:
		break;
	}
	return false;
}

static const char *joint_name(const scene_desc *d, int i) { return d->joints[i].name; }
static void joint_path(const scene_desc *d, int i, char *out) { scene_path_in(out, d, "joints", (size_t)i); }

bool scene_parse_joints(scene_parser *p, json_t *joints)
{
	scene_desc *d = p->desc;
	size_t count = joints != NULL ? json_array_size(joints) : 0;
	char array[SCENE_PATH_SIZE];
	scene_path_key(array, d->root, "joints");
	if (count > 100000000) return scene_fail(p, array, "too many joints");
	if (count > 0) {
		d->joints = calloc(count, sizeof *d->joints);
		if (d->joints == NULL) return scene_fail(p, array, "out of memory");
	}
	for (size_t i = 0; i < count; ++i) {
		char path[SCENE_PATH_SIZE];
		scene_path_index(path, array, i);
		d->joint_count += 1;
		if (!parse_joint(p, json_array_get(joints, i), path, &d->joints[i])) return false;
	}
	return scene_index_names(p, "joints", d->joint_count, joint_name, joint_path, &d->joint_by_name,
	                         &d->named_joint_count);
}

int scene_desc_find_joint(const scene_desc *desc, const char *name)
{
	return name != NULL ? scene_find_sorted(desc->joint_by_name, desc->named_joint_count, name, joint_name, desc) : -1;
}

/* The authored frames of the file, set on the new joint (the bodies may have moved since the
 * frames were authored, so the world anchors alone cannot say them). */
static sinew_joint_id set_frames(const scene_joint_desc *j, sinew_joint_id id)
{
	if (SINEW_IS_NULL(id)) return id;
	if ((j->has_local_anchors && !sinew_joint_set_local_anchors(id, j->local_anchor_a, j->local_anchor_b)) ||
	    (j->has_local_axis && !sinew_joint_set_local_axis_a(id, j->local_axis_a)) ||
	    (j->has_reference_angle && !sinew_joint_set_reference_angle(id, j->reference_angle)) ||
	    (j->has_swing_reference && !sinew_joint_set_swing_reference(id, j->swing_reference))) {
		sinew_destroy_joint(id);
		return sinew_null_joint_id;
	}
	return id;
}

static sinew_joint_id build_joint(sinew_world_id world, const scene_desc *desc, int index, const sinew_body_id *bodies,
                                  sinew_vec2 offset);

sinew_joint_id scene_build_joint(sinew_world_id world, const scene_desc *desc, int index, const sinew_body_id *bodies,
                                 sinew_vec2 offset)
{
	return set_frames(&desc->joints[index], build_joint(world, desc, index, bodies, offset));
}

static sinew_joint_id build_joint(sinew_world_id world, const scene_desc *desc, int index, const sinew_body_id *bodies,
                                  sinew_vec2 offset)
{
	const scene_joint_desc *j = &desc->joints[index];
	sinew_body_id a = j->body_a >= 0 ? bodies[j->body_a] : sinew_null_body_id;
	sinew_body_id b = bodies[j->body_b];
	switch (j->type) {
	case SINEW_PIN_JOINT: {
		sinew_pin_joint_def d = j->def.pin;
		d.base.body_a = a, d.base.body_b = b;
		d.anchor = sinew_add(d.anchor, offset);
		return sinew_create_pin_joint(world, &d);
	}
	case SINEW_REVOLUTE_JOINT: {
		sinew_revolute_joint_def d = j->def.revolute;
		d.base.body_a = a, d.base.body_b = b;
		d.anchor = sinew_add(d.anchor, offset);
		return sinew_create_revolute_joint(world, &d);
	}
	case SINEW_PRISMATIC_JOINT: {
		sinew_prismatic_joint_def d = j->def.prismatic;
		d.base.body_a = a, d.base.body_b = b;
		d.anchor = sinew_add(d.anchor, offset);
		return sinew_create_prismatic_joint(world, &d);
	}
	case SINEW_WELD_JOINT: {
		sinew_weld_joint_def d = j->def.weld;
		d.base.body_a = a, d.base.body_b = b;
		d.anchor = sinew_add(d.anchor, offset);
		return sinew_create_weld_joint(world, &d);
	}
	case SINEW_DISTANCE_JOINT: {
		sinew_distance_joint_def d = j->def.distance;
		d.base.body_a = a, d.base.body_b = b;
		d.anchor_a = sinew_add(d.anchor_a, offset);
		d.anchor_b = sinew_add(d.anchor_b, offset);
		return sinew_create_distance_joint(world, &d);
	}
	case SINEW_WHEEL_JOINT: {
		sinew_wheel_joint_def d = j->def.wheel;
		d.base.body_a = a, d.base.body_b = b;
		d.anchor = sinew_add(d.anchor, offset);
		return sinew_create_wheel_joint(world, &d);
	}
	case SINEW_TARGET_JOINT: {
		sinew_target_joint_def d = j->def.target;
		d.base.body_a = a, d.base.body_b = b;
		d.target = sinew_add(d.target, offset);
		d.anchor = sinew_add(d.anchor, offset);
		return sinew_create_target_joint(world, &d);
	}
	case SINEW_JOINT_TYPE_COUNT:
		break;
	}
	return sinew_null_joint_id;
}
