/* rig/rig.c: the stickman rig's life — the default skeleton, creation, the pose and its setters,
 * the frame conversions, momentum, the per-frame update and the state switch.
 *
 * sinew_rig_update, in this order (docs/rig.md):
 *   1. contact episodes from the last world step (collided / separated, automatic reactions);
 *   2. momentum: the root's velocity from its change since the last update;
 *   3. terrain motion (ANIMATED only): walking, falling, landing move the root and markers;
 *   4. the pose (ANIMATED and RECOVERING): IK and the head look-at write the bone rotations,
 *      then the reactions' offsets are added (ANIMATED only) and forward kinematics places the
 *      ten parts;
 *   5. the proxies' move_to targets, so they arrive on the parts (without the reactions'
 *      offsets: see proxy.c) with the coming world step. */
#include "internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The part names of traces and proxies. */
static const char *const part_names[SINEW_PART_COUNT] = {
	"torso",          "head",           "left_upper_arm", "left_lower_arm", "right_upper_arm",
	"right_lower_arm", "left_upper_leg", "left_lower_leg", "right_upper_leg", "right_lower_leg",
};

const char *sinew_rig_part_name(sinew_rig_part part)
{
	return (part >= 0 && part < SINEW_PART_COUNT) ? part_names[part] : NULL;
}

bool rig_fail(const sinew_rig *rig, sinew_error code, const char *fn, const char *format, ...)
{
	char message[400];
	int n = snprintf(message, sizeof message, "%s: ", fn);
	if (n < 0 || n >= (int)sizeof message) n = 0;
	va_list args;
	va_start(args, format);
	vsnprintf(message + n, sizeof message - (size_t)n, format, args);
	va_end(args);
	sinew_world_report_error(rig != NULL ? rig->world : sinew_null_world_id, code, message);
	return false;
}

float rig_wrap_angle(float angle)
{
	const float two_pi = 2.0f * SINEW_PI;
	if (angle > SINEW_PI || angle <= -SINEW_PI) angle -= two_pi * floorf((angle + SINEW_PI) / two_pi);
	if (angle <= -SINEW_PI) angle += two_pi;
	return angle;
}

/* ---------------------------------------------------------------- skeleton and defs */

static sinew_rig_bone_def bone(const char *name, int parent, float x, float y, float angle, float length, float radius)
{
	sinew_rig_bone_def b = {name, parent, {x, y}, angle, length, radius};
	return b;
}

sinew_rig_skeleton sinew_default_rig_skeleton(void)
{
	const float up = -0.5f * SINEW_PI, pi = SINEW_PI, half = 0.5f * SINEW_PI;
	sinew_rig_skeleton s;
	memset(&s, 0, sizeof s);
	/* Rest rotations are relative to the parent; the torso's points up (-pi/2), so an upper arm at
	 * world angle pi is -pi/2 relative to it, one at 0 is +pi/2, and a leg pointing down is pi. */
	s.bones[SINEW_PART_TORSO] = bone(part_names[0], -1, 0.0f, 0.0f, up, 391.5f, 20.0f);
	s.bones[SINEW_PART_HEAD] = bone(part_names[1], SINEW_PART_TORSO, 391.5f, 0.0f, 0.0f, 90.0f, 90.0f);
	s.bones[SINEW_PART_LEFT_UPPER_ARM] = bone(part_names[2], SINEW_PART_TORSO, 248.0f, 0.0f, -half, 168.0f, 12.0f);
	s.bones[SINEW_PART_LEFT_LOWER_ARM] = bone(part_names[3], SINEW_PART_LEFT_UPPER_ARM, 168.0f, 0.0f, 0.0f, 200.0f, 12.0f);
	s.bones[SINEW_PART_RIGHT_UPPER_ARM] = bone(part_names[4], SINEW_PART_TORSO, 248.0f, 0.0f, half, 168.0f, 12.0f);
	s.bones[SINEW_PART_RIGHT_LOWER_ARM] = bone(part_names[5], SINEW_PART_RIGHT_UPPER_ARM, 168.0f, 0.0f, 0.0f, 200.0f, 12.0f);
	s.bones[SINEW_PART_LEFT_UPPER_LEG] = bone(part_names[6], SINEW_PART_TORSO, 0.0f, 0.0f, pi, 200.0f, 14.0f);
	s.bones[SINEW_PART_LEFT_LOWER_LEG] = bone(part_names[7], SINEW_PART_LEFT_UPPER_LEG, 200.0f, 0.0f, 0.0f, 200.0f, 14.0f);
	s.bones[SINEW_PART_RIGHT_UPPER_LEG] = bone(part_names[8], SINEW_PART_TORSO, 0.0f, 0.0f, pi, 200.0f, 14.0f);
	s.bones[SINEW_PART_RIGHT_LOWER_LEG] = bone(part_names[9], SINEW_PART_RIGHT_UPPER_LEG, 200.0f, 0.0f, 0.0f, 200.0f, 14.0f);
	s.head_radius = 100.0f;
	s.head_center = 100.0f;
	s.limb_width = 16.0f;
	return s;
}

sinew_rig_def sinew_default_rig_def(void)
{
	sinew_rig_def d;
	memset(&d, 0, sizeof d);
	d.skeleton = sinew_default_rig_skeleton();
	d.facing = SINEW_FACING_RIGHT;
	d.proxies = true;
	d.proxy_layer = 1;
	d.proxy_mask = 1;
	d.terrain_mask = 1;
	d.reactions = true;
	return d;
}

static bool finite_positive(float x) { return sinew_is_finite(x) && x > 0.0f; }

/* A skeleton the solver can use: parents before children, finite positive lengths and radii. */
static bool check_skeleton(sinew_world_id world, const sinew_rig_skeleton *s)
{
	const char *fn = "sinew_create_rig";
	char message[200];
	const char *problem = NULL;
	int i = 0;
	for (; i < SINEW_PART_COUNT && problem == NULL; ++i) {
		const sinew_rig_bone_def *b = &s->bones[i];
		if (i == SINEW_PART_TORSO ? b->parent != -1 : (b->parent < 0 || b->parent >= i)) problem = "bad parent (the torso is the root; parents come before children)";
		else if (!finite_positive(b->length)) problem = "length must be finite and > 0";
		else if (!finite_positive(b->proxy_radius)) problem = "proxy_radius must be finite and > 0";
		else if (!sinew_vec2_is_valid(b->offset) || !sinew_is_finite(b->rest_angle)) problem = "offset and rest_angle must be finite";
	}
	if (problem == NULL && (!finite_positive(s->head_radius) || !sinew_is_finite(s->head_center) ||
	                        !sinew_is_finite(s->limb_width) || s->limb_width < 0.0f)) {
		problem = "head_radius must be > 0, head_center and limb_width finite (limb_width >= 0)";
		i = 0;
	}
	if (problem == NULL) return true;
	if (i > 0) snprintf(message, sizeof message, "%s: skeleton bone %d: %s", fn, i - 1, problem);
	else snprintf(message, sizeof message, "%s: skeleton: %s", fn, problem);
	sinew_world_report_error(world, SINEW_ERROR_INVALID_ARGUMENT, message);
	return false;
}

static bool check_def(sinew_world_id world, const sinew_rig_def *def)
{
	const char *fn = "sinew_create_rig";
	if (!sinew_world_is_valid(world)) {
		sinew_world_report_error(world, SINEW_ERROR_INVALID_ID, "sinew_create_rig: invalid world id");
		return false;
	}
	if (def == NULL) {
		sinew_world_report_error(world, SINEW_ERROR_INVALID_ARGUMENT, "sinew_create_rig: def is NULL");
		return false;
	}
	if (!sinew_vec2_is_valid(def->position) || !sinew_is_finite(def->angle)) {
		char message[120];
		snprintf(message, sizeof message, "%s: position and angle must be finite", fn);
		sinew_world_report_error(world, SINEW_ERROR_NOT_FINITE, message);
		return false;
	}
	if (def->facing < SINEW_FACING_RIGHT || def->facing > SINEW_FACING_FORWARD) {
		sinew_world_report_error(world, SINEW_ERROR_INVALID_ARGUMENT, "sinew_create_rig: facing is not a sinew_rig_facing");
		return false;
	}
	return check_skeleton(world, &def->skeleton);
}

/* ---------------------------------------------------------------- creation */

/* An origin shift (sinew_world_shift_origin) moves the world positions the rig keeps: the root and
 * the root it tracks momentum from, the solved parts, and the terrain controller's heights and
 * contacts. The proxies are bodies: the world moves them. */
static void shift_parts(sinew_rig_part_state parts[SINEW_PART_COUNT], sinew_vec2 o)
{
	for (int i = 0; i < SINEW_PART_COUNT; ++i) {
		parts[i].origin = sinew_sub(parts[i].origin, o);
		parts[i].tip = sinew_sub(parts[i].tip, o);
		parts[i].center = sinew_sub(parts[i].center, o);
	}
}

static void on_origin_shift(sinew_world_id world, sinew_vec2 o, void *context)
{
	(void)world;
	sinew_rig *rig = context;
	rig->pose.root.p = sinew_sub(rig->pose.root.p, o);
	rig->previous_root.p = sinew_sub(rig->previous_root.p, o);
	shift_parts(rig->parts, o);
	shift_parts(rig->proxy_parts, o);
	rig_terrain_shift_origin(rig->terrain, o);
}

sinew_rig *sinew_create_rig(sinew_world_id world, const sinew_rig_def *def)
{
	if (!check_def(world, def)) return NULL;
	sinew_rig *rig = calloc(1, sizeof *rig);
	if (rig == NULL) {
		sinew_world_report_error(world, SINEW_ERROR_OUT_OF_MEMORY, "sinew_create_rig: out of memory");
		return NULL;
	}
	rig->world = world;
	rig->user_data = def->user_data;
	rig->skeleton = def->skeleton;
	rig->state = SINEW_RIG_ANIMATED;
	rig->visible = true;
	rig->reactions_enabled = def->reactions;
	rig->proxy_layer = def->proxy_layer;
	rig->proxy_mask = def->proxy_mask;
	rig->terrain_mask = def->terrain_mask;
	if (def->name != NULL) {
		size_t n = strlen(def->name) + 1;
		rig->name = malloc(n);
		if (rig->name != NULL) memcpy(rig->name, def->name, n);
	}
	rig->pose = sinew_rig_rest_pose(rig, sinew_make_transform(def->position, def->angle), def->facing);
	rig_solve_all(rig, NULL);
	rig->previous_root = rig->pose.root;
	rig->has_previous_root = true;
	rig->terrain = rig_terrain_create(rig);
	bool ok = rig->terrain != NULL && (def->name == NULL || rig->name != NULL);
	if (ok && def->proxies) ok = rig_proxies_create(rig);
	if (ok) ok = rig->listening = sinew_world_add_origin_listener(world, on_origin_shift, rig);
	if (!ok) {
		sinew_destroy_rig(rig);
		sinew_world_report_error(world, SINEW_ERROR_OUT_OF_MEMORY, "sinew_create_rig: out of memory: could not make the rig's parts");
		return NULL;
	}
	return rig;
}

void sinew_destroy_rig(sinew_rig *rig)
{
	if (rig == NULL) return;
	if (rig->listening && sinew_world_is_valid(rig->world))
		sinew_world_remove_origin_listener(rig->world, on_origin_shift, rig);
	rig_proxies_destroy(rig);
	if (rig->terrain != NULL) rig_terrain_destroy(rig->terrain);
	free(rig->touching);
	free(rig->name);
	free(rig);
}

rig_terrain *rig_get_terrain(const sinew_rig *rig) { return rig != NULL ? rig->terrain : NULL; }
sinew_world_id sinew_rig_get_world(const sinew_rig *rig) { return rig != NULL ? rig->world : sinew_null_world_id; }
const char *sinew_rig_get_name(const sinew_rig *rig) { return rig != NULL ? rig->name : NULL; }
void *sinew_rig_get_user_data(const sinew_rig *rig) { return rig != NULL ? rig->user_data : NULL; }
const sinew_rig_skeleton *sinew_rig_get_skeleton(const sinew_rig *rig) { return rig != NULL ? &rig->skeleton : NULL; }
uint32_t sinew_rig_get_terrain_mask(const sinew_rig *rig) { return rig != NULL ? rig->terrain_mask : 0u; }

/* ---------------------------------------------------------------- one call per frame */

static void track_momentum(sinew_rig *rig, float dt)
{
	sinew_transform now = rig->pose.root;
	if (rig->has_previous_root) {
		rig->linear_velocity = sinew_scale(1.0f / dt, sinew_sub(now.p, rig->previous_root.p));
		rig->angular_velocity = sinew_relative_angle(rig->previous_root.q, now.q) / dt;
	}
	rig->previous_root = now;
	rig->has_previous_root = true;
}

bool sinew_rig_update(sinew_rig *rig, float dt)
{
	if (rig == NULL) return false;
	if (!sinew_is_finite(dt) || dt <= 0.0f) return rig_fail(rig, SINEW_ERROR_INVALID_ARGUMENT, "sinew_rig_update", "dt must be finite and > 0 (got %g)", (double)dt);
	if (!sinew_world_is_valid(rig->world)) return rig_fail(rig, SINEW_ERROR_INVALID_ID, "sinew_rig_update", "the rig's world was destroyed");
	rig_proxies_collect(rig);
	track_momentum(rig, dt);
	if (rig->state == SINEW_RIG_ANIMATED) rig_terrain_update(rig, rig->terrain, dt);
	if (rig->state != SINEW_RIG_RAGDOLL) {
		float offsets[SINEW_PART_COUNT];
		rig_reactions_advance(rig, dt, offsets);
		rig_solve_all(rig, offsets);
	}
	rig_proxies_move(rig, dt);
	return true;
}

/* ---------------------------------------------------------------- pose */

static bool pose_is_finite(const sinew_rig_pose *p)
{
	bool ok = sinew_vec2_is_valid(p->root.p) && sinew_rot_is_valid(p->root.q) && sinew_vec2_is_valid(p->torso);
	for (int i = 0; i < SINEW_MARKER_COUNT; ++i) ok = ok && sinew_vec2_is_valid(p->markers[i]);
	for (int i = 0; i < SINEW_PART_COUNT; ++i) ok = ok && sinew_is_finite(p->bones[i]);
	return ok && p->facing >= SINEW_FACING_RIGHT && p->facing <= SINEW_FACING_FORWARD;
}

bool sinew_rig_get_pose(const sinew_rig *rig, sinew_rig_pose *pose)
{
	if (rig == NULL || pose == NULL) return false;
	*pose = rig->pose;
	return true;
}

bool sinew_rig_set_pose(sinew_rig *rig, const sinew_rig_pose *pose)
{
	if (rig == NULL) return false;
	if (pose == NULL || !pose_is_finite(pose)) {
		return rig_fail(rig, SINEW_ERROR_NOT_FINITE, "sinew_rig_set_pose", "the pose has values that are not finite (or a bad facing or root rotation)");
	}
	rig->pose = *pose;
	rig_forward(&rig->skeleton, &rig->pose, NULL, rig->parts);
	memcpy(rig->proxy_parts, rig->parts, sizeof rig->parts);
	return true;
}

sinew_rig_pose sinew_rig_rest_pose(const sinew_rig *rig, sinew_transform root, sinew_rig_facing facing)
{
	sinew_rig_pose p;
	memset(&p, 0, sizeof p);
	p.root = root;
	p.facing = facing;
	if (rig == NULL) return p;
	const sinew_rig_skeleton *s = &rig->skeleton;
	p.torso = s->bones[SINEW_PART_TORSO].offset;
	for (int i = 0; i < SINEW_PART_COUNT; ++i) p.bones[i] = s->bones[i].rest_angle;
	for (int l = 0; l < SINEW_LIMB_COUNT; ++l) {
		p.bend_flip[l] = sinew_rig_profile_bend_flip(facing, (sinew_rig_limb)l);
		p.limb_ik[l] = true;
	}
	p.head_look = true;
	/* Markers at the rest tips, found by forward kinematics in the rig frame itself. */
	sinew_rig_pose canonical = p;
	canonical.root = sinew_transform_identity();
	canonical.facing = SINEW_FACING_RIGHT;
	sinew_rig_part_state parts[SINEW_PART_COUNT];
	rig_forward(s, &canonical, NULL, parts);
	for (int l = 0; l < SINEW_LIMB_COUNT; ++l) p.markers[l] = parts[SINEW_PART_LEFT_UPPER_ARM + 2 * l + 1].tip;
	const sinew_rig_part_state *head = &parts[SINEW_PART_HEAD];
	float above = s->head_center + s->head_radius;
	p.markers[SINEW_MARKER_HEAD] = sinew_add(head->origin, sinew_v2(above * cosf(head->angle), above * sinf(head->angle)));
	return p;
}

bool sinew_rig_set_root(sinew_rig *rig, sinew_transform root)
{
	if (rig == NULL) return false;
	if (!sinew_vec2_is_valid(root.p) || !sinew_rot_is_valid(root.q)) return rig_fail(rig, SINEW_ERROR_NOT_FINITE, "sinew_rig_set_root", "the root transform is not finite (or its rotation is not unit)");
	rig->pose.root = root;
	return true;
}

sinew_transform sinew_rig_get_root(const sinew_rig *rig) { return rig != NULL ? rig->pose.root : sinew_transform_identity(); }

bool sinew_rig_profile_bend_flip(sinew_rig_facing facing, sinew_rig_limb limb)
{
	if (facing == SINEW_FACING_FORWARD) return limb == SINEW_LIMB_RIGHT_ARM || limb == SINEW_LIMB_LEFT_LEG;
	return limb == SINEW_LIMB_LEFT_ARM || limb == SINEW_LIMB_RIGHT_ARM;
}

bool sinew_rig_set_facing(sinew_rig *rig, sinew_rig_facing facing)
{
	if (rig == NULL) return false;
	if (facing < SINEW_FACING_RIGHT || facing > SINEW_FACING_FORWARD) return rig_fail(rig, SINEW_ERROR_INVALID_ARGUMENT, "sinew_rig_set_facing", "facing %d is not a sinew_rig_facing", (int)facing);
	rig->pose.facing = facing;
	for (int l = 0; l < SINEW_LIMB_COUNT; ++l) rig->pose.bend_flip[l] = sinew_rig_profile_bend_flip(facing, (sinew_rig_limb)l);
	return true;
}

sinew_rig_facing sinew_rig_get_facing(const sinew_rig *rig) { return rig != NULL ? rig->pose.facing : SINEW_FACING_RIGHT; }

static bool check_limb(const sinew_rig *rig, sinew_rig_limb limb, const char *fn)
{
	if (limb >= 0 && limb < SINEW_LIMB_COUNT) return true;
	return rig_fail(rig, SINEW_ERROR_INVALID_ARGUMENT, fn, "limb %d is not a sinew_rig_limb", (int)limb);
}

static bool check_part(const sinew_rig *rig, sinew_rig_part part, const char *fn)
{
	if (part >= 0 && part < SINEW_PART_COUNT) return true;
	return rig_fail(rig, SINEW_ERROR_INVALID_ARGUMENT, fn, "part %d is not a sinew_rig_part", (int)part);
}

bool sinew_rig_set_bend_flip(sinew_rig *rig, sinew_rig_limb limb, bool flip)
{
	if (rig == NULL || !check_limb(rig, limb, "sinew_rig_set_bend_flip")) return false;
	rig->pose.bend_flip[limb] = flip;
	return true;
}

bool sinew_rig_get_bend_flip(const sinew_rig *rig, sinew_rig_limb limb)
{
	return rig != NULL && limb >= 0 && limb < SINEW_LIMB_COUNT && rig->pose.bend_flip[limb];
}

bool sinew_rig_set_marker(sinew_rig *rig, sinew_rig_marker marker, sinew_vec2 position)
{
	const char *fn = "sinew_rig_set_marker";
	if (rig == NULL) return false;
	if (marker < 0 || marker >= SINEW_MARKER_COUNT) return rig_fail(rig, SINEW_ERROR_INVALID_ARGUMENT, fn, "marker %d is not a sinew_rig_marker", (int)marker);
	if (!sinew_vec2_is_valid(position)) return rig_fail(rig, SINEW_ERROR_NOT_FINITE, fn, "position is not finite");
	rig->pose.markers[marker] = position;
	return true;
}

sinew_vec2 sinew_rig_get_marker(const sinew_rig *rig, sinew_rig_marker marker)
{
	if (rig == NULL || marker < 0 || marker >= SINEW_MARKER_COUNT) return sinew_v2(0.0f, 0.0f);
	return rig->pose.markers[marker];
}

bool sinew_rig_set_torso(sinew_rig *rig, sinew_vec2 position, float angle)
{
	if (rig == NULL) return false;
	if (!sinew_vec2_is_valid(position) || !sinew_is_finite(angle)) return rig_fail(rig, SINEW_ERROR_NOT_FINITE, "sinew_rig_set_torso", "position and angle must be finite");
	rig->pose.torso = position;
	rig->pose.bones[SINEW_PART_TORSO] = angle;
	return true;
}

bool sinew_rig_set_bone_angle(sinew_rig *rig, sinew_rig_part part, float angle)
{
	const char *fn = "sinew_rig_set_bone_angle";
	if (rig == NULL || !check_part(rig, part, fn)) return false;
	if (!sinew_is_finite(angle)) return rig_fail(rig, SINEW_ERROR_NOT_FINITE, fn, "angle is not finite");
	rig->pose.bones[part] = angle;
	return true;
}

float sinew_rig_get_bone_angle(const sinew_rig *rig, sinew_rig_part part)
{
	return (rig != NULL && part >= 0 && part < SINEW_PART_COUNT) ? rig->pose.bones[part] : 0.0f;
}

bool sinew_rig_set_limb_ik(sinew_rig *rig, sinew_rig_limb limb, bool ik)
{
	if (rig == NULL || !check_limb(rig, limb, "sinew_rig_set_limb_ik")) return false;
	rig->pose.limb_ik[limb] = ik;
	return true;
}

bool sinew_rig_set_head_look(sinew_rig *rig, bool look)
{
	if (rig == NULL) return false;
	rig->pose.head_look = look;
	return true;
}

/* ---------------------------------------------------------------- frames */

sinew_vec2 sinew_rig_vector_to_world(const sinew_rig *rig, sinew_vec2 v)
{
	if (rig == NULL) return v;
	if (rig->pose.facing == SINEW_FACING_LEFT) v.x = -v.x;
	return sinew_rotate(rig->pose.root.q, v);
}

sinew_vec2 sinew_rig_vector_to_local(const sinew_rig *rig, sinew_vec2 v)
{
	if (rig == NULL) return v;
	v = sinew_inv_rotate(rig->pose.root.q, v);
	if (rig->pose.facing == SINEW_FACING_LEFT) v.x = -v.x;
	return v;
}

sinew_vec2 sinew_rig_to_world(const sinew_rig *rig, sinew_vec2 p)
{
	if (rig == NULL) return p;
	return sinew_add(rig->pose.root.p, sinew_rig_vector_to_world(rig, p));
}

sinew_vec2 sinew_rig_to_local(const sinew_rig *rig, sinew_vec2 p)
{
	if (rig == NULL) return p;
	return sinew_rig_vector_to_local(rig, sinew_sub(p, rig->pose.root.p));
}

/* ---------------------------------------------------------------- parts and momentum */

sinew_rig_part_state sinew_rig_get_part(const sinew_rig *rig, sinew_rig_part part)
{
	sinew_rig_part_state none;
	memset(&none, 0, sizeof none);
	if (rig == NULL || part < 0 || part >= SINEW_PART_COUNT) return none;
	return rig->parts[part];
}

sinew_vec2 sinew_rig_get_linear_velocity(const sinew_rig *rig) { return rig != NULL ? rig->linear_velocity : sinew_v2(0.0f, 0.0f); }
float sinew_rig_get_angular_velocity(const sinew_rig *rig) { return rig != NULL ? rig->angular_velocity : 0.0f; }

/* ---------------------------------------------------------------- state */

bool sinew_rig_set_callbacks(sinew_rig *rig, const sinew_rig_callbacks *callbacks)
{
	if (rig == NULL) return false;
	if (callbacks != NULL) rig->callbacks = *callbacks;
	else memset(&rig->callbacks, 0, sizeof rig->callbacks);
	return true;
}

sinew_rig_state sinew_rig_get_state(const sinew_rig *rig) { return rig != NULL ? rig->state : SINEW_RIG_ANIMATED; }
bool sinew_rig_is_visible(const sinew_rig *rig) { return rig != NULL && rig->visible; }

bool sinew_rig_set_state(sinew_rig *rig, sinew_rig_state state)
{
	if (rig == NULL) return false;
	if (state < SINEW_RIG_ANIMATED || state > SINEW_RIG_RECOVERING) return rig_fail(rig, SINEW_ERROR_INVALID_ARGUMENT, "sinew_rig_set_state", "state %d is not a sinew_rig_state", (int)state);
	if (state == rig->state) return true;
	rig->state = state;
	if (state == SINEW_RIG_RAGDOLL) {
		sinew_rig_set_proxies_enabled(rig, false);
		sinew_rig_clear_reactions(rig);
		rig_terrain_on_ragdoll(rig, rig->terrain);
		rig->visible = false;
	} else {
		/* the figure as the pose stands now (the ragdoll sets it before handing back), so the
		 * proxies come back on it rather than where the figure was when it fell */
		rig_forward(&rig->skeleton, &rig->pose, NULL, rig->parts);
		memcpy(rig->proxy_parts, rig->parts, sizeof rig->parts);
		sinew_rig_set_proxies_enabled(rig, true);
		rig->visible = true;
	}
	/* A state change is a jump of the root, not a motion: momentum starts over from here. */
	rig->previous_root = rig->pose.root;
	if (rig->callbacks.state_changed != NULL) rig->callbacks.state_changed(rig, state, rig->callbacks.context);
	return true;
}
