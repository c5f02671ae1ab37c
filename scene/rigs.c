/* Scene rigs (the "rigs" array of docs/scene-format.md): parsed and checked into scene_desc like
 * everything else, built after the bodies and joints. The rig layer owns the figure; the scene
 * only makes it, updates it before each world step and hands it to traces, renders and saves. */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const rig_keys[] = {"name", "kind", "position", "facing", "state", "terrain", "joints", NULL};
static const char *const kind_names[] = {"stickman", NULL};
const char *const scene_rig_facing_names[] = {"right", "left", "forward", NULL};
const char *const scene_rig_state_names[] = {"animated", "ragdoll", NULL};
const char *const scene_rig_joints_names[] = {"local", "godot", NULL};

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
