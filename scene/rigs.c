/* Scene rigs (the "rigs" array of docs/scene-format.md): parsed and checked into scene_desc like
 * everything else, built after the bodies and joints. The rig layer owns the figure; the scene
 * only makes it, updates it before each world step and hands it to traces, renders and saves. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const rig_keys[] = {"name", "kind", "position", "facing", "state", "terrain", "joints", "skeleton", "power", NULL};
static const char *const bone_keys[] = {"offset", "angle", "length", "proxy_radius", NULL};
static const char *const kind_names[] = {"stickman", NULL};
const char *const scene_rig_facing_names[] = {"right", "left", "forward", NULL};
const char *const scene_rig_state_names[] = {"animated", "ragdoll", NULL};
const char *const scene_rig_joints_names[] = {"local", "godot", NULL};

/* "skeleton": {"<part name>": {offset, angle, length, proxy_radius}, head_radius, head_center,
 * limb_width}, each entry optional and laid over the default stickman's (angles in degrees). */
static bool parse_skeleton(scene_parser *p, json_t *o, const char *path, sinew_rig_skeleton *sk)
{
	const char *keys[SINEW_PART_COUNT + 4];
	for (int i = 0; i < SINEW_PART_COUNT; ++i) keys[i] = sinew_rig_part_name((sinew_rig_part)i);
	keys[SINEW_PART_COUNT] = "head_radius";
	keys[SINEW_PART_COUNT + 1] = "head_center";
	keys[SINEW_PART_COUNT + 2] = "limb_width";
	keys[SINEW_PART_COUNT + 3] = NULL;
	if (!scene_expect_object(p, o, path) || !scene_check_keys(p, o, path, keys) ||
	    !scene_get_number(p, o, path, "head_radius", SCENE_POSITIVE, &sk->head_radius) ||
	    !scene_get_number(p, o, path, "head_center", SCENE_ANY, &sk->head_center) ||
	    !scene_get_number(p, o, path, "limb_width", SCENE_NON_NEGATIVE, &sk->limb_width)) {
		return false;
	}
	for (int i = 0; i < SINEW_PART_COUNT; ++i) {
		json_t *b = json_object_get(o, keys[i]);
		if (b == NULL) continue;
		char bpath[SCENE_PATH_SIZE];
		scene_path_key(bpath, path, keys[i]);
		sinew_rig_bone_def *bone = &sk->bones[i];
		if (!scene_expect_object(p, b, bpath) || !scene_check_keys(p, b, bpath, bone_keys) ||
		    !scene_get_vec2(p, b, bpath, "offset", &bone->offset) ||
		    !scene_get_degrees(p, b, bpath, "angle", &bone->rest_angle) ||
		    !scene_get_number(p, b, bpath, "length", SCENE_POSITIVE, &bone->length) ||
		    !scene_get_number(p, b, bpath, "proxy_radius", SCENE_POSITIVE, &bone->proxy_radius)) {
			return false;
		}
	}
	return true;
}

static bool parse_rig(scene_parser *p, json_t *o, const char *path, scene_rig_desc *r)
{
	const char *name = NULL;
	int kind = 0, facing = 0, state = 0, joints = 0;
	if (!scene_expect_object(p, o, path) || !scene_check_keys(p, o, path, rig_keys) ||
	    !scene_get_string(p, o, path, "name", &name) || !scene_get_choice(p, o, path, "kind", kind_names, &kind) ||
	    !scene_get_vec2(p, o, path, "position", &r->position) ||
	    !scene_get_choice(p, o, path, "facing", scene_rig_facing_names, &facing) ||
	    !scene_get_choice(p, o, path, "state", scene_rig_state_names, &state) ||
	    !scene_get_bool(p, o, path, "terrain", &r->terrain) ||
	    !scene_get_choice(p, o, path, "joints", scene_rig_joints_names, &joints)) {
		return false;
	}
	r->skeleton = sinew_default_rig_skeleton();
	json_t *sk = json_object_get(o, "skeleton");
	if (sk != NULL) {
		char skpath[SCENE_PATH_SIZE];
		scene_path_key(skpath, path, "skeleton");
		if (!parse_skeleton(p, sk, skpath, &r->skeleton)) return false;
		r->has_skeleton = true;
	}
	json_t *power = json_object_get(o, "power");
	if (power != NULL) {
		char ppath[SCENE_PATH_SIZE];
		scene_path_key(ppath, path, "power");
		if (!scene_parse_power(p, power, ppath, &r->power)) return false;
		r->has_power = true;
	}
	r->facing = (sinew_rig_facing)facing;
	r->state = state == 1 ? SINEW_RIG_RAGDOLL : SINEW_RIG_ANIMATED;
	r->joints = joints;
	if (name != NULL && (r->name = scene_strdup(name)) == NULL) return scene_fail(p, path, "out of memory");
	return true;
}

bool scene_parse_rigs(scene_parser *p, json_t *rigs)
{
	scene_desc *d = p->desc;
	size_t count = rigs != NULL ? json_array_size(rigs) : 0;
	if (count == 0) return true;
	if (count > 100000) return scene_fail(p, "rigs", "too many rigs");
	d->rigs = calloc(count, sizeof *d->rigs);
	if (d->rigs == NULL) return scene_fail(p, "rigs", "out of memory");
	for (size_t i = 0; i < count; ++i) {
		char path[SCENE_PATH_SIZE];
		scene_path_index(path, "rigs", i);
		d->rig_count += 1;
		if (!parse_rig(p, json_array_get(rigs, i), path, &d->rigs[i])) return false;
		for (size_t j = 0; j < i && d->rigs[i].name != NULL; ++j) {
			if (d->rigs[j].name != NULL && strcmp(d->rigs[j].name, d->rigs[i].name) == 0) {
				char key[SCENE_PATH_SIZE];
				scene_path_key(key, path, "name");
				return scene_fail(p, key, "duplicate rig name \"%s\" (also rigs[%zu])", d->rigs[i].name, j);
			}
		}
	}
	return true;
}

int scene_desc_find_rig(const scene_desc *desc, const char *name)
{
	for (int i = 0; name != NULL && i < desc->rig_count; ++i) {
		if (desc->rigs[i].name != NULL && strcmp(desc->rigs[i].name, name) == 0) return i;
	}
	return -1;
}

void scene_rigs_free(scene_desc *desc)
{
	for (int i = 0; i < desc->rig_count; ++i) free(desc->rigs[i].name);
	free(desc->rigs);
	desc->rigs = NULL;
	desc->rig_count = 0;
}

sinew_rig *scene_build_rig(sinew_world_id world, const scene_rig_desc *r)
{
	sinew_rig_def def = sinew_default_rig_def();
	def.skeleton = r->skeleton;
	def.position = r->position;
	def.facing = r->facing;
	def.name = r->name;
	sinew_rig *rig = sinew_create_rig(world, &def);
	if (rig != NULL && r->terrain && !sinew_rig_set_terrain_following(rig, true)) {
		sinew_destroy_rig(rig);
		return NULL;
	}
	return rig;
}
