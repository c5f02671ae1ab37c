/* Saving: the scene's world as it is now, written back as a scene file that loads into the same
 * world. Everything is read through the public API (the scene's description only supplies names,
 * hz, substeps and sleep). The file's live bodies come first, in
 * file order, then every other live body of the world (made by spawn ops) in slot order; joints
 * likewise. So the saved world is created in the order the saver walked the live one, and a body
 * or joint the file did not list is written as a plain one: unnamed, unless a saved joint needs
 * its body named (then "spawned_<k>").
 *
 * Exactness. Every float is written as the double equal to it ("%.17g"), which the loader turns
 * back into the same float; angles go through degrees in double, which also comes back bit for bit
 * (the relative error of the double product is far below half a float ulp). A body's rotation is
 * kept as (cos, sin), which no angle need reproduce: the angle written is a float near
 * atan2(sin, cos) whose cosf and sinf give the rotation bit for bit (there always is one for a body
 * that has not turned since it was made); when there is none, "rotation": [cos, sin] is written
 * too and the loader sets it exactly (sinew_body_set_rotation). Boxes are
 * written as boxes when the loader rebuilds the very same polygon, else as a "polygon" with its
 * normals and centroid. Joints carry their authored local frames (local_anchor_a/b, local_axis_a,
 * reference_angle, swing_reference), so they come back as authored whatever the bodies did since.
 * Mass and inertia are written when the engine says they are an override (the file's or a
 * template's), never when the shapes give them.
 *
 * Not saved: script ops and templates (a saved file has neither), contact and joint warm starts,
 * sleep timers and the half-substep velocity lag, so a world saved after stepping continues close
 * to, but not bit for bit like, the live one. A broken joint is saved disabled. */
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double DEGREES_PER_RADIAN = 180.0 / 3.14159265358979323846;

/* One live body to save: its id, the description it was made from (-1: not made by the file) and
 * the name it is saved with (NULL: unnamed). */
typedef struct saved_body {
	sinew_body_id id;
	int desc;
	char *name;
	bool used; /* referred to by a saved joint: needs a name */
} saved_body;

typedef struct saved_joint {
	sinew_joint_id id;
	int desc; /* index in desc.joints, or -1 */
} saved_joint;

typedef struct saver {
	const sinew_scene *scene;
	const scene_desc *desc;
	saved_body *bodies; /* in the order they are saved: the file's, then the rest in slot order */
	int body_count;
	int *body_of_slot;  /* body slot (index1) -> index in bodies, or -1 */
	int slot_count;
	saved_joint *joints;
	int joint_count;
	char *error;
	size_t error_size;
	bool failed;
} saver;

static void fail(saver *s, const char *message)
{
	if (!s->failed && s->error != NULL && s->error_size > 0) snprintf(s->error, s->error_size, "%s", message);
	s->failed = true;
}

static uint32_t bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

static bool same(float a, float b)
{
	return bits(a) == bits(b);
}

/* Room for count elements of size bytes (never a request for zero bytes). */
static void *array_of(int count, size_t size)
{
	return malloc((size_t)(count > 0 ? count : 1) * size);
}

/* ---------------------------------------------------------------- JSON values */

static void set(saver *s, json_t *obj, const char *key, json_t *value)
{
	if (value == NULL || json_object_set_new(obj, key, value) != 0) fail(s, "out of memory");
}

static json_t *real(float f)
{
	return json_real((double)f);
}

static json_t *degrees(float radians)
{
	return json_real((double)radians * DEGREES_PER_RADIAN);
}

static json_t *vec2(sinew_vec2 v)
{
	return json_pack("[oo]", real(v.x), real(v.y));
}

/* The key only when the value differs (bit for bit) from the format's default. */
static void put_real(saver *s, json_t *obj, const char *key, float value, float fallback)
{
	if (!same(value, fallback)) set(s, obj, key, real(value));
}

static void put_degrees(saver *s, json_t *obj, const char *key, float radians, float fallback)
{
	if (!same(radians, fallback)) set(s, obj, key, degrees(radians));
}

static void put_vec2(saver *s, json_t *obj, const char *key, sinew_vec2 v, sinew_vec2 fallback)
{
	if (!same(v.x, fallback.x) || !same(v.y, fallback.y)) set(s, obj, key, vec2(v));
}

static void put_bool(saver *s, json_t *obj, const char *key, bool value, bool fallback)
{
	if (value != fallback) set(s, obj, key, json_boolean(value));
}

/* ---------------------------------------------------------------- angles */

/* A float angle whose cosf and sinf are q bit for bit, near atan2(q); else one whose rotation
 * reads back the same angle; else atan2(q) itself. */
static float angle_of(sinew_rot q, bool *exact)
{
	*exact = true;
	float a0 = sinew_rot_angle(q), fallback = a0;
	bool have_fallback = false;
	float up = a0, down = a0;
	for (int k = 0; k <= 64; ++k) {
		for (int side = 0; side < (k == 0 ? 1 : 2); ++side) {
			float a = side == 0 ? up : down;
			sinew_rot r = sinew_make_rot(a);
			if (same(r.c, q.c) && same(r.s, q.s)) return a;
			if (!have_fallback && same(sinew_rot_angle(r), a0)) {
				fallback = a;
				have_fallback = true;
			}
		}
		up = nextafterf(up, INFINITY);
		down = nextafterf(down, -INFINITY);
	}
	*exact = false;
	return fallback;
}

/* ---------------------------------------------------------------- shapes */

static bool same_polygon(const sinew_polygon *a, const sinew_polygon *b)
{
	if (a->count != b->count || !same(a->radius, b->radius) || !same(a->centroid.x, b->centroid.x) ||
	    !same(a->centroid.y, b->centroid.y)) {
		return false;
	}
	for (int i = 0; i < a->count; ++i) {
		if (!same(a->vertices[i].x, b->vertices[i].x) || !same(a->vertices[i].y, b->vertices[i].y) ||
		    !same(a->normals[i].x, b->normals[i].x) || !same(a->normals[i].y, b->normals[i].y)) {
			return false;
		}
	}
	return true;
}

/* The box keys (outer half extents, centre, angle) that make the loader rebuild exactly this
 * polygon, when there are any. */
static bool box_form(const sinew_polygon *poly, sinew_vec2 *half_extents, float *angle_out)
{
	if (poly->count != 4) return false;
	sinew_vec2 center = poly->centroid;
	/* a box's first normal is its rotation applied to (0, -1) */
	sinew_rot q = {-poly->normals[0].y, poly->normals[0].x};
	sinew_vec2 corner = sinew_inv_rotate(q, sinew_sub(poly->vertices[2], center)); /* (hx, hy) of the core */
	float r = poly->radius;
	float a0 = sinew_rot_angle(q);
	for (int ka = 0; ka <= 32; ++ka) {
		float angle = a0;
		for (int i = 0; i < ka / 2 + (ka & 1); ++i) angle = nextafterf(angle, (ka & 1) ? INFINITY : -INFINITY);
		sinew_rot qa = sinew_make_rot(angle);
		if (!same(qa.c, q.c) || !same(qa.s, q.s)) continue;
		for (int kx = 0; kx <= 8; ++kx) {
			for (int ky = 0; ky <= 8; ++ky) {
				sinew_vec2 h = {corner.x + r, corner.y + r};
				for (int i = 0; i < kx / 2 + (kx & 1); ++i) h.x = nextafterf(h.x, (kx & 1) ? INFINITY : -INFINITY);
				for (int i = 0; i < ky / 2 + (ky & 1); ++i) h.y = nextafterf(h.y, (ky & 1) ? INFINITY : -INFINITY);
				if (!(h.x > r && h.y > r) || !isfinite(h.x) || !isfinite(h.y)) continue;
				sinew_polygon box = scene_box_polygon(h, center, angle, r);
				if (same_polygon(&box, poly)) {
					*half_extents = h;
					*angle_out = angle;
					return true;
				}
			}
		}
	}
	return false;
}

static json_t *points(const sinew_vec2 *v, int count)
{
	json_t *a = json_array();
	for (int i = 0; a != NULL && i < count; ++i) {
		if (json_array_append_new(a, vec2(v[i])) != 0) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

static void save_geometry(saver *s, json_t *o, const sinew_geometry *g)
{
	switch (g->type) {
	case SINEW_SHAPE_CIRCLE:
		set(s, o, "type", json_string("circle"));
		set(s, o, "radius", real(g->u.circle.radius));
		put_vec2(s, o, "center", g->u.circle.center, sinew_v2(0.0f, 0.0f));
		return;
	case SINEW_SHAPE_CAPSULE:
		set(s, o, "type", json_string("capsule"));
		set(s, o, "center1", vec2(g->u.capsule.center1));
		set(s, o, "center2", vec2(g->u.capsule.center2));
		set(s, o, "radius", real(g->u.capsule.radius));
		return;
	case SINEW_SHAPE_POLYGON: {
		const sinew_polygon *p = &g->u.polygon;
		sinew_vec2 h;
		float angle;
		if (box_form(p, &h, &angle)) {
			set(s, o, "type", json_string("box"));
			set(s, o, "half_extents", vec2(h));
			put_vec2(s, o, "center", p->centroid, sinew_v2(0.0f, 0.0f));
			put_degrees(s, o, "angle", angle, 0.0f);
			put_real(s, o, "radius", p->radius, 0.0f);
			return;
		}
		set(s, o, "type", json_string("polygon"));
		set(s, o, "vertices", points(p->vertices, p->count));
		put_real(s, o, "radius", p->radius, 0.0f);
		set(s, o, "normals", points(p->normals, p->count));
		set(s, o, "centroid", vec2(p->centroid));
		return;
	}
	case SINEW_SHAPE_TYPE_COUNT:
		break;
	}
	fail(s, "a shape of an unknown type");
}

static json_t *save_shape(saver *s, sinew_shape_id id, const char *name)
{
	json_t *o = json_object();
	if (o == NULL) return fail(s, "out of memory"), NULL;
	sinew_geometry g = sinew_shape_get_geometry(id);
	sinew_shape_def d = sinew_default_shape_def();
	save_geometry(s, o, &g);
	if (name != NULL) set(s, o, "name", json_string(name));
	put_real(s, o, "density", sinew_shape_get_density(id), d.density);
	put_real(s, o, "friction", sinew_shape_get_friction(id), d.friction);
	put_real(s, o, "restitution", sinew_shape_get_restitution(id), d.restitution);
	uint32_t layer = sinew_shape_get_layer(id), mask = sinew_shape_get_mask(id);
	if (layer != 1) set(s, o, "layer", json_integer(layer));
	if (mask != 1) set(s, o, "mask", json_integer(mask));
	uint32_t group = sinew_shape_get_group(id);
	if (group != 0) set(s, o, "group", json_integer(group));
	put_bool(s, o, "sensor", sinew_shape_is_sensor(id), false);
	return o;
}

/* The file's name for a shape of body description bd (NULL for a body the file did not make). */
static const char *shape_name(const saver *s, const scene_body_desc *bd, sinew_shape_id id)
{
	for (int i = 0; bd != NULL && i < bd->shape_count; ++i) {
		int j = bd->first_shape + i;
		if (SINEW_ID_EQUALS(scene_get_shape(s->scene, j), id)) return s->desc->shapes[j].name;
	}
	return NULL;
}

/* ---------------------------------------------------------------- bodies */

/* Mass and inertia are written when they are an override (the file's, or a template's, which a
 * spawned body carries as the engine's override flag), never when the shapes give them. */
static void save_mass(saver *s, json_t *o, sinew_body_id id)
{
	if (sinew_body_get_type(id) != SINEW_DYNAMIC_BODY || !sinew_body_is_mass_overridden(id)) return;
	set(s, o, "mass", real(sinew_body_get_mass(id)));
	set(s, o, "inertia", real(sinew_body_get_rotational_inertia(id)));
}

static void save_shapes(saver *s, json_t *o, sinew_body_id id, const scene_body_desc *bd)
{
	int count = sinew_body_get_shape_count(id);
	sinew_shape_id *ids = array_of(count, sizeof *ids);
	json_t *shapes = json_array();
	if (ids == NULL || shapes == NULL) {
		free(ids);
		json_decref(shapes);
		fail(s, "out of memory");
		return;
	}
	count = sinew_body_get_shapes(id, ids, count);
	save_mass(s, o, id);
	for (int i = 0; i < count; ++i) {
		json_t *shape = save_shape(s, ids[i], shape_name(s, bd, ids[i]));
		if (shape == NULL || json_array_append_new(shapes, shape) != 0) fail(s, "out of memory");
	}
	free(ids);
	if (json_array_size(shapes) > 0) set(s, o, "shapes", shapes);
	else json_decref(shapes);
}

static json_t *save_body(saver *s, const saved_body *body)
{
	const scene_body_desc *bd = body->desc >= 0 ? &s->desc->bodies[body->desc] : NULL;
	sinew_body_id id = body->id;
	sinew_body_def d = sinew_default_body_def();
	json_t *o = json_object();
	if (o == NULL) return fail(s, "out of memory"), NULL;
	if (body->name != NULL) set(s, o, "name", json_string(body->name));
	sinew_body_type type = sinew_body_get_type(id);
	if (type != SINEW_DYNAMIC_BODY) set(s, o, "type", json_string(scene_body_type_names[type]));
	put_vec2(s, o, "position", sinew_body_get_position(id), sinew_v2(0.0f, 0.0f));
	sinew_rot q = sinew_body_get_rotation(id);
	bool exact = true;
	put_degrees(s, o, "angle", angle_of(q, &exact), 0.0f);
	if (!exact) set(s, o, "rotation", vec2(sinew_v2(q.c, q.s)));
	put_vec2(s, o, "linear_velocity", sinew_body_get_linear_velocity(id), sinew_v2(0.0f, 0.0f));
	put_degrees(s, o, "angular_velocity", sinew_body_get_angular_velocity(id), 0.0f);
	put_real(s, o, "linear_damping", sinew_body_get_linear_damping(id), d.linear_damping);
	put_real(s, o, "angular_damping", sinew_body_get_angular_damping(id), d.angular_damping);
	put_real(s, o, "gravity_scale", sinew_body_get_gravity_scale(id), d.gravity_scale);
	put_bool(s, o, "fixed_rotation", sinew_body_is_fixed_rotation(id), false);
	put_bool(s, o, "bullet", sinew_body_is_bullet(id), false);
	put_bool(s, o, "awake", sinew_body_is_awake(id), true);
	put_bool(s, o, "can_sleep", sinew_body_is_sleep_enabled(id), true);
	put_real(s, o, "sleep_threshold", sinew_body_get_sleep_threshold(id), d.sleep_threshold);
	put_bool(s, o, "enabled", sinew_body_is_enabled(id), true);
	save_shapes(s, o, id, bd);
	return o;
}

/* ---------------------------------------------------------------- joints */

/* Index in s->bodies of a saved body; -1 for the null id (the world). */
static int body_index(const saver *s, sinew_body_id id)
{
	if (SINEW_IS_NULL(id) || id.index1 >= s->slot_count) return -1;
	return s->body_of_slot[id.index1];
}

static void save_limit(saver *s, json_t *o, sinew_joint_id id, bool angular, bool has_frame)
{
	sinew_joint_limit l = sinew_joint_get_limit(id);
	if (!l.enabled) return;
	json_t *limit = json_pack("{soso}", "lower", angular ? degrees(l.lower) : real(l.lower), "upper",
	                          angular ? degrees(l.upper) : real(l.upper));
	if (limit != NULL && has_frame && l.frame == SINEW_LIMIT_WORLD) set(s, limit, "frame", json_string("world"));
	set(s, o, "limit", limit);
}

static void save_motor(saver *s, json_t *o, sinew_joint_id id, bool angular, const char *max_key)
{
	sinew_joint_motor m = sinew_joint_get_motor(id);
	if (!m.enabled) return;
	json_t *motor = json_pack("{so}", "speed", angular ? degrees(m.speed) : real(m.speed));
	if (motor != NULL && max_key != NULL && isfinite(m.max_effort)) set(s, motor, max_key, real(m.max_effort));
	set(s, o, "motor", motor);
}

/* target: 0 none, 1 degrees, 2 length units */
static void save_spring(saver *s, json_t *o, sinew_joint_id id, int target)
{
	sinew_joint_spring sp = sinew_joint_get_spring(id);
	if (!sp.enabled) return;
	json_t *spring = json_pack("{soso}", "hertz", real(sp.hertz), "damping_ratio", real(sp.damping_ratio));
	if (spring != NULL && target != 0 && !same(sp.target, 0.0f)) {
		set(s, spring, "target", target == 1 ? degrees(sp.target) : real(sp.target));
	}
	set(s, o, "spring", spring);
}

static json_t *save_joint(saver *s, const saved_joint *joint)
{
	sinew_joint_id id = joint->id;
	sinew_joint_type type = sinew_joint_get_type(id);
	int a = body_index(s, sinew_joint_get_body_a(id)), b = body_index(s, sinew_joint_get_body_b(id));
	json_t *o = json_object();
	if (o == NULL) return fail(s, "out of memory"), NULL;
	if (joint->desc >= 0 && s->desc->joints[joint->desc].name != NULL) {
		set(s, o, "name", json_string(s->desc->joints[joint->desc].name));
	}
	set(s, o, "type", json_string(scene_joint_type_names[type]));
	if (a >= 0) set(s, o, "body_a", json_string(s->bodies[a].name));
	set(s, o, "body_b", json_string(s->bodies[b].name));
	put_bool(s, o, "collide_connected", sinew_joint_get_collide_connected(id), false);
	float force = 0.0f, torque = 0.0f;
	sinew_joint_get_break_thresholds(id, &force, &torque);
	put_real(s, o, "break_force", force, 0.0f);
	put_real(s, o, "break_torque", torque, 0.0f);
	put_bool(s, o, "enabled", sinew_joint_is_enabled(id), true);
	set(s, o, "local_anchor_a", vec2(sinew_joint_get_local_anchor_a(id)));
	set(s, o, "local_anchor_b", vec2(sinew_joint_get_local_anchor_b(id)));
	set(s, o, "reference_angle", degrees(sinew_joint_get_reference_angle(id)));
	switch (type) {
	case SINEW_PIN_JOINT: {
		float softness = 0.0f, bias = 0.0f;
		sinew_pin_joint_get_softness(id, &softness, &bias);
		set(s, o, "swing_reference", degrees(sinew_joint_get_swing_reference(id)));
		put_real(s, o, "softness", softness, 0.0f);
		put_real(s, o, "bias", bias, 0.0f);
		save_limit(s, o, id, true, false);
		save_motor(s, o, id, true, NULL);
		break;
	}
	case SINEW_REVOLUTE_JOINT:
		set(s, o, "swing_reference", degrees(sinew_joint_get_swing_reference(id)));
		save_limit(s, o, id, true, true);
		save_motor(s, o, id, true, "max_torque");
		save_spring(s, o, id, 1);
		break;
	case SINEW_PRISMATIC_JOINT:
		set(s, o, "local_axis_a", vec2(sinew_joint_get_local_axis_a(id)));
		save_limit(s, o, id, false, false);
		save_motor(s, o, id, false, "max_force");
		save_spring(s, o, id, 2);
		break;
	case SINEW_WELD_JOINT: {
		float lh = 0.0f, lz = 0.0f, ah = 0.0f, az = 0.0f;
		sinew_weld_joint_get_softness(id, &lh, &lz, &ah, &az);
		put_real(s, o, "linear_hertz", lh, 0.0f);
		put_real(s, o, "angular_hertz", ah, 0.0f);
		put_real(s, o, "linear_damping_ratio", lz, 0.0f);
		put_real(s, o, "angular_damping_ratio", az, 0.0f);
		break;
	}
	case SINEW_DISTANCE_JOINT: {
		float length = 0.0f, lo = 0.0f, hi = 0.0f;
		sinew_distance_joint_get_lengths(id, &length, &lo, &hi);
		set(s, o, "length", real(length));
		set(s, o, "min_length", real(lo));
		set(s, o, "max_length", real(hi));
		save_spring(s, o, id, 0);
		save_motor(s, o, id, false, "max_force");
		break;
	}
	case SINEW_WHEEL_JOINT:
		set(s, o, "local_axis_a", vec2(sinew_joint_get_local_axis_a(id)));
		save_spring(s, o, id, 2);
		save_limit(s, o, id, false, false);
		save_motor(s, o, id, true, "max_torque");
		break;
	case SINEW_TARGET_JOINT: {
		float hertz = 0.0f, zeta = 0.0f, max_force = 0.0f;
		sinew_target_joint_get_tuning(id, &hertz, &zeta, &max_force);
		set(s, o, "hertz", real(hertz));
		set(s, o, "damping_ratio", real(zeta));
		if (isfinite(max_force)) set(s, o, "max_force", real(max_force));
		break;
	}
	case SINEW_JOINT_TYPE_COUNT:
		fail(s, "a joint of an unknown type");
		break;
	}
	return o;
}

/* ---------------------------------------------------------------- names */

/* prefix + number, with underscores added until no body of the file has the name. Names made
 * this way never clash with each other either: the prefixes differ ("body_", "spawned_"), and
 * after one the number is followed only by underscores. */
static char *generated_name(const scene_desc *d, const char *prefix, int number)
{
	char name[64];
	snprintf(name, sizeof name, "%s%d", prefix, number);
	while (scene_desc_find_body(d, name) >= 0 && strlen(name) + 1 < sizeof name) strcat(name, "_");
	return scene_strdup(name);
}

/* Bodies a saved joint refers to need a name: their own; body_<index> for a body of the file
 * without one; spawned_<k> for the k-th saved body the file did not make. */
static bool name_bodies(saver *s)
{
	const scene_desc *d = s->desc;
	for (int i = 0; i < s->joint_count; ++i) {
		sinew_joint_id id = s->joints[i].id;
		int a = body_index(s, sinew_joint_get_body_a(id)), b = body_index(s, sinew_joint_get_body_b(id));
		if (a >= 0) s->bodies[a].used = true;
		if (b >= 0) s->bodies[b].used = true;
	}
	for (int k = 0, spawned = 0; k < s->body_count; ++k) {
		saved_body *body = &s->bodies[k];
		int number = body->desc >= 0 ? body->desc : spawned++;
		const char *own = body->desc >= 0 ? d->bodies[body->desc].name : NULL;
		if (own != NULL) body->name = scene_strdup(own);
		else if (!body->used) continue;
		else body->name = generated_name(d, body->desc >= 0 ? "body_" : "spawned_", number);
		if (body->name == NULL) return false;
	}
	return true;
}

/* ---------------------------------------------------------------- rigs */

/* A rig's skeleton table, every bone written out (angles in degrees). */
static json_t *save_skeleton(saver *s, const sinew_rig_skeleton *sk)
{
	json_t *o = json_object();
	if (o == NULL) return NULL;
	for (int i = 0; i < SINEW_PART_COUNT; ++i) {
		const sinew_rig_bone_def *b = &sk->bones[i];
		json_t *bone = json_object();
		if (bone == NULL) {
			json_decref(o);
			return NULL;
		}
		set(s, bone, "offset", vec2(b->offset));
		set(s, bone, "angle", degrees(b->rest_angle));
		set(s, bone, "length", real(b->length));
		set(s, bone, "proxy_radius", real(b->proxy_radius));
		set(s, o, sinew_rig_part_name((sinew_rig_part)i), bone);
	}
	set(s, o, "head_radius", real(sk->head_radius));
	set(s, o, "head_center", real(sk->head_center));
	set(s, o, "limb_width", real(sk->limb_width));
	return o;
}

/* A rig as its description: kind, root position, facing, state, terrain following and the joint
 * model. The pose is not part of the format: a loaded rig starts from its rest pose there. */
static json_t *save_rig(saver *s, int index)
{
	const scene_rig_desc *d = &s->desc->rigs[index];
	const sinew_rig *rig = sinew_scene_get_rig(s->scene, index);
	json_t *o = json_object();
	if (o == NULL) return NULL;
	if (d->name != NULL) set(s, o, "name", json_string(d->name));
	set(s, o, "kind", json_string("stickman"));
	set(s, o, "position", vec2(sinew_rig_get_root(rig).p));
	set(s, o, "facing", json_string(scene_rig_facing_names[sinew_rig_get_facing(rig)]));
	if (sinew_rig_get_state(rig) == SINEW_RIG_RAGDOLL) set(s, o, "state", json_string("ragdoll"));
	if (sinew_rig_get_motion(rig) != SINEW_MOTION_DISABLED) set(s, o, "terrain", json_true());
	if (d->joints != 0) set(s, o, "joints", json_string(scene_rig_joints_names[d->joints]));
	if (d->has_skeleton) set(s, o, "skeleton", save_skeleton(s, sinew_rig_get_skeleton(rig)));
	json_t *power = scene_save_power(sinew_scene_get_ragdoll(s->scene, index));
	if (power != NULL) set(s, o, "power", power);
	return o;
}

static void save_rigs(saver *s, json_t *root)
{
	if (s->desc->rig_count == 0) return;
	json_t *rigs = json_array();
	if (rigs == NULL) {
		fail(s, "out of memory");
		return;
	}
	for (int i = 0; i < s->desc->rig_count; ++i) {
		json_t *rig = save_rig(s, i);
		if (rig == NULL || json_array_append_new(rigs, rig) != 0) fail(s, "out of memory");
	}
	set(s, root, "rigs", rigs);
}

/* ---------------------------------------------------------------- the document */

static json_t *save_document(saver *s)
{
	const scene_desc *d = s->desc;
	sinew_world_id world = sinew_scene_get_world(s->scene);
	json_t *root = json_object(), *w = json_object(), *bodies = json_array(), *joints = json_array();
	if (root == NULL || w == NULL || bodies == NULL || joints == NULL) {
		json_decref(root), json_decref(w), json_decref(bodies), json_decref(joints);
		fail(s, "out of memory");
		return NULL;
	}
	set(s, root, "sinew_scene", json_integer(SINEW_SCENE_FORMAT_VERSION));
	set(s, w, "gravity", vec2(sinew_world_get_gravity(world)));
	put_real(s, w, "length_units_per_meter", sinew_world_get_length_units_per_meter(world), 1.0f);
	set(s, w, "hz", real(sinew_scene_get_hz(s->scene)));
	set(s, w, "substeps", json_integer(sinew_scene_get_substeps(s->scene)));
	int left = sinew_scene_get_default_steps(s->scene) - sinew_scene_get_step(s->scene);
	set(s, w, "steps", json_integer(left > 0 ? left : 0));
	set(s, w, "sleep", json_boolean(d->sleep));
	set(s, root, "world", w);
	for (int i = 0; i < s->body_count; ++i) {
		json_t *body = save_body(s, &s->bodies[i]);
		if (body == NULL || json_array_append_new(bodies, body) != 0) fail(s, "out of memory");
	}
	set(s, root, "bodies", bodies);
	for (int i = 0; i < s->joint_count; ++i) {
		json_t *joint = save_joint(s, &s->joints[i]);
		if (joint == NULL || json_array_append_new(joints, joint) != 0) fail(s, "out of memory");
	}
	if (json_array_size(joints) > 0) set(s, root, "joints", joints);
	else json_decref(joints);
	save_rigs(s, root);
	return root;
}

/* A body or joint of one of the scene's ragdolls: saved as its rig's "state" (the ragdoll layer
 * makes them again), like the proxies. */
static bool ragdoll_owns(const sinew_scene *scene, sinew_body_id body, sinew_joint_id joint)
{
	for (int i = 0; i < sinew_scene_get_rig_count(scene); ++i) {
		const sinew_ragdoll *rd = sinew_scene_get_ragdoll(scene, i);
		for (int p = 0; p < SINEW_PART_COUNT; ++p) {
			sinew_body_id b = sinew_ragdoll_get_body(rd, (sinew_rig_part)p);
			sinew_joint_id j = sinew_ragdoll_get_joint(rd, (sinew_rig_part)p);
			if (!SINEW_IS_NULL(b) && SINEW_ID_EQUALS(b, body)) return true;
			if (!SINEW_IS_NULL(j) && SINEW_ID_EQUALS(j, joint)) return true;
		}
	}
	return false;
}

/* The world's live bodies in the order they are saved: the file's in file order, then the rest in
 * slot order; and the slot map that finds them by id. */
static bool list_bodies(saver *s)
{
	const scene_desc *d = s->desc;
	sinew_world_id world = sinew_scene_get_world(s->scene);
	int capacity = sinew_world_get_counters(world).body_count;
	sinew_body_id *ids = array_of(capacity, sizeof *ids);
	s->bodies = array_of(capacity, sizeof *s->bodies);
	if (ids == NULL || s->bodies == NULL) return free(ids), false;
	int count = sinew_world_get_bodies(world, ids, capacity), slots = 1;
	for (int i = 0; i < count; ++i) slots = ids[i].index1 >= slots ? ids[i].index1 + 1 : slots;
	s->body_of_slot = array_of(slots, sizeof *s->body_of_slot);
	if (s->body_of_slot == NULL) return free(ids), false;
	s->slot_count = slots;
	for (int i = 0; i < slots; ++i) s->body_of_slot[i] = -1;
	for (int i = 0; i < d->body_count; ++i) {
		sinew_body_id id = sinew_scene_get_body(s->scene, i);
		if (!sinew_body_is_valid(id)) continue;
		s->body_of_slot[id.index1] = s->body_count;
		s->bodies[s->body_count++] = (saved_body){id, i, NULL, false};
	}
	for (int i = 0; i < count; ++i) {
		/* a rig's proxies are saved as the rig (the rig layer makes them again) */
		if (s->body_of_slot[ids[i].index1] >= 0 || sinew_rig_from_body(ids[i], NULL, NULL) ||
		    ragdoll_owns(s->scene, ids[i], sinew_null_joint_id)) {
			continue;
		}
		s->body_of_slot[ids[i].index1] = s->body_count;
		s->bodies[s->body_count++] = (saved_body){ids[i], -1, NULL, false};
	}
	free(ids);
	return true;
}

/* The world's live joints in the order they are saved: the file's, then the rest in slot order. */
static bool list_joints(saver *s)
{
	sinew_world_id world = sinew_scene_get_world(s->scene);
	int capacity = sinew_world_get_counters(world).joint_count;
	sinew_joint_id *ids = array_of(capacity, sizeof *ids);
	s->joints = array_of(capacity, sizeof *s->joints);
	if (ids == NULL || s->joints == NULL) return free(ids), false;
	for (int i = 0; i < s->desc->joint_count && s->joint_count < capacity; ++i) {
		sinew_joint_id id = sinew_scene_get_joint(s->scene, i);
		if (sinew_joint_is_valid(id)) s->joints[s->joint_count++] = (saved_joint){id, i};
	}
	int count = sinew_world_get_joints(world, ids, capacity);
	for (int i = 0; i < count && s->joint_count < capacity; ++i) {
		if (sinew_scene_get_joint_index(s->scene, ids[i]) < 0 && !ragdoll_owns(s->scene, sinew_null_body_id, ids[i])) {
			s->joints[s->joint_count++] = (saved_joint){ids[i], -1};
		}
	}
	free(ids);
	return true;
}

/* Builds the document; NULL (with a message) on failure. */
static json_t *build_document(const sinew_scene *scene, char *error, size_t error_size)
{
	saver s;
	memset(&s, 0, sizeof s);
	s.scene = scene;
	s.error = error;
	s.error_size = error_size;
	if (scene == NULL) {
		fail(&s, "no scene");
		return NULL;
	}
	s.desc = scene_get_desc(scene);
	json_t *root = NULL;
	if (!list_bodies(&s) || !list_joints(&s) || !name_bodies(&s)) fail(&s, "out of memory");
	else root = save_document(&s);
	for (int i = 0; i < s.body_count; ++i) free(s.bodies[i].name);
	free(s.bodies);
	free(s.body_of_slot);
	free(s.joints);
	if (s.failed) {
		json_decref(root);
		return NULL;
	}
	return root;
}

#define SAVE_FLAGS (JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17))

char *sinew_scene_save_string(const sinew_scene *scene, char *error, size_t error_size)
{
	json_t *root = build_document(scene, error, error_size);
	if (root == NULL) return NULL;
	char *text = json_dumps(root, SAVE_FLAGS);
	json_decref(root);
	if (text == NULL && error != NULL && error_size > 0) snprintf(error, error_size, "out of memory");
	return text;
}

bool sinew_scene_save(const sinew_scene *scene, const char *path, char *error, size_t error_size)
{
	char *text = sinew_scene_save_string(scene, error, error_size);
	if (text == NULL) return false;
	FILE *f = fopen(path, "wb");
	bool ok = f != NULL && fputs(text, f) >= 0 && fputc('\n', f) != EOF;
	if (f != NULL && fclose(f) != 0) ok = false;
	free(text);
	if (!ok && error != NULL && error_size > 0) snprintf(error, error_size, "%s: cannot write the file", path);
	return ok;
}
