/* A rig's "power" (docs/scene-format.md, docs/ragdoll.md "Powered ragdoll"): the preset its
 * ragdoll's joints start with, per-joint drives laid over the preset's, the influence (the whole
 * figure's and per limb) and the root pull. Parsed and checked into scene_power_desc, given to the
 * ragdoll when the scene builds it, and written back by save. */
#include "internal.h"

#include <math.h>
#include <string.h>

const char *const scene_rig_limb_names[] = {"left_arm", "right_arm", "left_leg", "right_leg", NULL};
static const char *const power_keys[] = {"preset", "joints", "influence", "limbs", "root_pull", NULL};
static const char *const drive_keys[] = {"mode", "hertz", "damping_ratio", "gain", "max_torque", NULL};
static const char *const pull_keys[] = {"enabled", "hertz", "damping_ratio", "max_force", NULL};
static const char *const mode_names[] = {"off", "spring", "motor", NULL};

void scene_power_defaults(scene_power_desc *d)
{
	sinew_ragdoll_def dd = sinew_default_ragdoll_def();
	memset(d, 0, sizeof *d);
	d->preset = dd.power;
	memcpy(d->drives, dd.power_presets[dd.power], sizeof d->drives);
	d->influence = dd.influence;
	for (int l = 0; l < SINEW_LIMB_COUNT; ++l) d->limb_influence[l] = 1.0f;
	d->root_pull = dd.root_pull;
}

/* One joint's entry, over the preset's drive: every key optional. */
static bool parse_drive(scene_parser *p, json_t *o, const char *path, sinew_ragdoll_drive *drive)
{
	int mode = (int)drive->mode;
	if (!scene_expect_object(p, o, path) || !scene_check_keys(p, o, path, drive_keys) ||
	    !scene_get_choice(p, o, path, "mode", mode_names, &mode) ||
	    !scene_get_number(p, o, path, "hertz", SCENE_POSITIVE, &drive->hertz) ||
	    !scene_get_number(p, o, path, "damping_ratio", SCENE_NON_NEGATIVE, &drive->damping_ratio) ||
	    !scene_get_number(p, o, path, "gain", SCENE_POSITIVE, &drive->gain) ||
	    !scene_get_number(p, o, path, "max_torque", SCENE_POSITIVE, &drive->max_torque)) {
		return false;
	}
	drive->mode = (sinew_ragdoll_drive_mode)mode;
	if (drive->mode == SINEW_DRIVE_SPRING && !(drive->hertz > 0.0f))
		return scene_fail(p, path, "a spring drive needs \"hertz\" (the preset's drive of this joint has none)");
	if (drive->mode == SINEW_DRIVE_MOTOR && !(drive->gain > 0.0f && drive->max_torque > 0.0f))
		return scene_fail(p, path, "a motor drive needs \"gain\" and \"max_torque\" (the preset's drive of this joint has none)");
	return true;
}

/* "joints": {"<child part name>": {...}}: the torso has no joint of its own. */
static bool parse_joints(scene_parser *p, json_t *o, const char *path, scene_power_desc *d)
{
	const char *keys[SINEW_PART_COUNT];
	for (int i = 1; i < SINEW_PART_COUNT; ++i) keys[i - 1] = sinew_rig_part_name((sinew_rig_part)i);
	keys[SINEW_PART_COUNT - 1] = NULL;
	if (!scene_expect_object(p, o, path) || !scene_check_keys(p, o, path, keys)) return false;
	for (int i = 1; i < SINEW_PART_COUNT; ++i) {
		json_t *j = json_object_get(o, keys[i - 1]);
		if (j == NULL) continue;
		char jpath[SCENE_PATH_SIZE];
		scene_path_key(jpath, path, keys[i - 1]);
		if (!parse_drive(p, j, jpath, &d->drives[i])) return false;
	}
	return true;
}

/* "root_pull": {"enabled" (default true), "hertz", "damping_ratio", "max_force"}, over the defaults. */
static bool parse_pull(scene_parser *p, json_t *o, const char *path, sinew_ragdoll_root_pull *pull)
{
	pull->enabled = true;
	return scene_expect_object(p, o, path) && scene_check_keys(p, o, path, pull_keys) &&
	       scene_get_bool(p, o, path, "enabled", &pull->enabled) &&
	       scene_get_number(p, o, path, "hertz", SCENE_POSITIVE, &pull->hertz) &&
	       scene_get_number(p, o, path, "damping_ratio", SCENE_NON_NEGATIVE, &pull->damping_ratio) &&
	       scene_get_number(p, o, path, "max_force", SCENE_NON_NEGATIVE, &pull->max_force);
}

void scene_power_preset_names(const char *names[SINEW_POWER_PRESET_COUNT + 1])
{
	for (int i = 0; i < SINEW_POWER_PRESET_COUNT; ++i) names[i] = sinew_ragdoll_power_preset_name((sinew_ragdoll_power_preset)i);
	names[SINEW_POWER_PRESET_COUNT] = NULL;
}

bool scene_parse_power(scene_parser *p, json_t *o, const char *path, scene_power_desc *d)
{
	const char *presets[SINEW_POWER_PRESET_COUNT + 1];
	scene_power_preset_names(presets);
	scene_power_defaults(d);
	int preset = (int)d->preset;
	if (!scene_expect_object(p, o, path) || !scene_check_keys(p, o, path, power_keys) ||
	    !scene_get_choice(p, o, path, "preset", presets, &preset) ||
	    !scene_get_number(p, o, path, "influence", SCENE_UNIT, &d->influence)) {
		return false;
	}
	d->preset = (sinew_ragdoll_power_preset)preset;
	sinew_ragdoll_def dd = sinew_default_ragdoll_def();
	memcpy(d->drives, dd.power_presets[d->preset], sizeof d->drives);
	char child[SCENE_PATH_SIZE];
	json_t *joints = json_object_get(o, "joints");
	scene_path_key(child, path, "joints");
	if (joints != NULL && !parse_joints(p, joints, child, d)) return false;
	json_t *limbs = json_object_get(o, "limbs");
	scene_path_key(child, path, "limbs");
	if (limbs != NULL) {
		if (!scene_expect_object(p, limbs, child) || !scene_check_keys(p, limbs, child, scene_rig_limb_names)) return false;
		for (int l = 0; l < SINEW_LIMB_COUNT; ++l) {
			if (!scene_get_number(p, limbs, child, scene_rig_limb_names[l], SCENE_UNIT, &d->limb_influence[l])) return false;
		}
	}
	json_t *pull = json_object_get(o, "root_pull");
	scene_path_key(child, path, "root_pull");
	return pull == NULL || parse_pull(p, pull, child, &d->root_pull);
}

bool scene_apply_power(sinew_ragdoll *rd, const scene_power_desc *d)
{
	bool ok = sinew_ragdoll_set_power(rd, d->preset) && sinew_ragdoll_set_influence(rd, d->influence) &&
	          sinew_ragdoll_set_root_pull(rd, &d->root_pull);
	for (int i = 1; ok && i < SINEW_PART_COUNT; ++i) ok = sinew_ragdoll_set_joint_drive(rd, (sinew_rig_part)i, &d->drives[i]);
	for (int l = 0; ok && l < SINEW_LIMB_COUNT; ++l) ok = sinew_ragdoll_set_limb_influence(rd, (sinew_rig_limb)l, d->limb_influence[l]);
	return ok;
}

/* ---------------------------------------------------------------- saving */

static int set_number(json_t *o, const char *key, float x) { return json_object_set_new(o, key, json_real((double)x)); }

static json_t *save_drive(const sinew_ragdoll_drive *drive)
{
	json_t *o = json_object();
	if (o == NULL) return NULL;
	json_object_set_new(o, "mode", json_string(mode_names[drive->mode]));
	if (drive->mode == SINEW_DRIVE_SPRING) {
		set_number(o, "hertz", drive->hertz);
		set_number(o, "damping_ratio", drive->damping_ratio);
	} else if (drive->mode == SINEW_DRIVE_MOTOR) {
		set_number(o, "gain", drive->gain);
		set_number(o, "max_torque", drive->max_torque);
	}
	return o;
}

/* The live drives are saved joint by joint (a preset is only where they started); the preset key
 * is not written. */
json_t *scene_save_power(const sinew_ragdoll *rd)
{
	scene_power_desc def;
	scene_power_defaults(&def);
	sinew_ragdoll_root_pull pull = sinew_ragdoll_get_root_pull(rd);
	bool plain = sinew_ragdoll_get_influence(rd) == def.influence && !pull.enabled;
	for (int i = 1; i < SINEW_PART_COUNT; ++i) plain = plain && sinew_ragdoll_get_joint_drive(rd, (sinew_rig_part)i).mode == SINEW_DRIVE_OFF;
	for (int l = 0; l < SINEW_LIMB_COUNT; ++l) plain = plain && sinew_ragdoll_get_limb_influence(rd, (sinew_rig_limb)l) == 1.0f;
	if (plain) return NULL;
	json_t *o = json_object(), *joints = json_object(), *limbs = json_object(), *po = json_object();
	if (o == NULL || joints == NULL || limbs == NULL || po == NULL) {
		json_decref(o);
		json_decref(joints);
		json_decref(limbs);
		json_decref(po);
		return NULL;
	}
	for (int i = 1; i < SINEW_PART_COUNT; ++i) {
		sinew_ragdoll_drive drive = sinew_ragdoll_get_joint_drive(rd, (sinew_rig_part)i);
		json_object_set_new(joints, sinew_rig_part_name((sinew_rig_part)i), save_drive(&drive));
	}
	json_object_set_new(o, "joints", joints);
	set_number(o, "influence", sinew_ragdoll_get_influence(rd));
	for (int l = 0; l < SINEW_LIMB_COUNT; ++l) set_number(limbs, scene_rig_limb_names[l], sinew_ragdoll_get_limb_influence(rd, (sinew_rig_limb)l));
	json_object_set_new(o, "limbs", limbs);
	json_object_set_new(po, "enabled", json_boolean(pull.enabled));
	set_number(po, "hertz", pull.hertz);
	set_number(po, "damping_ratio", pull.damping_ratio);
	set_number(po, "max_force", pull.max_force);
	json_object_set_new(o, "root_pull", po);
	return o;
}
