/* The scene's rigs in the viewer: R ragdolls every rig (and stands it back up), T picks the joint
 * model of the next ragdoll, Tab selects a rig whose power P (preset), [ and ] (influence) and 4..7
 * (a limb's partial ragdoll) change, and each figure is drawn with the rig's own look (limbs limb_width
 * wide with round caps, the head ring) over the debug draw: from the ragdoll's bodies while it is
 * limp, from the skeleton otherwise (sinew_ragdoll_draw), so the hand-off is seamless on screen. */
#include "view.h"

#include <math.h>
#include <string.h>

static const char *const model_names[] = {"LOCAL", "GODOT"};
static const char *const limb_names[SINEW_LIMB_COUNT] = {"left_arm", "right_arm", "left_leg", "right_leg"};

int view_rig_count(const viewer *v)
{
	return sinew_scene_get_rig_count(v->scene);
}

/* After a load: T starts from the model the file gave the first rig. */
void view_sync_rigs(viewer *v)
{
	sinew_ragdoll *rd = sinew_scene_get_ragdoll(v->scene, 0);
	v->next_joint_model = rd != NULL ? (int)sinew_ragdoll_get_joint_model(rd) : (int)SINEW_RAGDOLL_LOCAL;
	if (v->rig >= view_rig_count(v)) v->rig = 0;
}

void view_toggle_ragdolls(viewer *v)
{
	int n = view_rig_count(v), limp = 0;
	if (n == 0) {
		view_say(v, "R: THIS SCENE HAS NO RIGS");
		return;
	}
	for (int i = 0; i < n; ++i) {
		sinew_ragdoll *rd = sinew_scene_get_ragdoll(v->scene, i);
		/* the model applies to the ragdoll about to be built; a limp one keeps its joints */
		if (!sinew_ragdoll_is_enabled(rd)) sinew_ragdoll_set_joint_model(rd, (sinew_ragdoll_joint_model)v->next_joint_model);
		sinew_ragdoll_toggle(rd);
		limp += sinew_ragdoll_is_enabled(rd) ? 1 : 0;
	}
	char msg[96];
	if (limp > 0) SDL_snprintf(msg, sizeof msg, "RAGDOLL: %d OF %d RIGS LIMP (%s JOINTS)", limp, n, model_names[v->next_joint_model]);
	else SDL_snprintf(msg, sizeof msg, "RAGDOLL OFF: %d RIGS STANDING UP", n);
	view_say(v, msg);
}

void view_toggle_joint_model(viewer *v)
{
	v->next_joint_model = v->next_joint_model == SINEW_RAGDOLL_LOCAL ? SINEW_RAGDOLL_GODOT : SINEW_RAGDOLL_LOCAL;
	char msg[96];
	SDL_snprintf(msg, sizeof msg, "NEXT RAGDOLL: %s JOINTS", model_names[v->next_joint_model]);
	view_say(v, msg);
}

void view_draw_rigs(viewer *v, const sinew_debug_draw *draw)
{
	for (int i = 0; i < view_rig_count(v); ++i) sinew_ragdoll_draw(sinew_scene_get_ragdoll(v->scene, i), draw);
}

/* ---------------------------------------------------------------- power */

static sinew_ragdoll *selected(viewer *v, const char *key)
{
	sinew_ragdoll *rd = view_rig_count(v) > 0 ? sinew_scene_get_ragdoll(v->scene, v->rig) : NULL;
	if (rd == NULL) {
		char msg[64];
		SDL_snprintf(msg, sizeof msg, "%s: THIS SCENE HAS NO RIGS", key);
		view_say(v, msg);
	}
	return rd;
}

static bool same_drive(sinew_ragdoll_drive a, sinew_ragdoll_drive b)
{
	return a.mode == b.mode && a.hertz == b.hertz && a.damping_ratio == b.damping_ratio && a.gain == b.gain &&
	       a.max_torque == b.max_torque;
}

/* The preset whose drives (the default def's table) every joint has now, or -1. */
static int current_preset(const sinew_ragdoll *rd)
{
	static sinew_ragdoll_def def;
	static bool have_def;
	if (!have_def) def = sinew_default_ragdoll_def(), have_def = true;
	for (int preset = 0; preset < SINEW_POWER_PRESET_COUNT; ++preset) {
		bool all = true;
		for (int part = SINEW_PART_HEAD; part < SINEW_PART_COUNT && all; ++part)
			all = same_drive(sinew_ragdoll_get_joint_drive(rd, (sinew_rig_part)part), def.power_presets[preset][part]);
		if (all) return preset;
	}
	return -1;
}

static const char *preset_name(const sinew_ragdoll *rd)
{
	int preset = current_preset(rd);
	return preset < 0 ? "custom" : sinew_ragdoll_power_preset_name((sinew_ragdoll_power_preset)preset);
}

static void say_power(viewer *v)
{
	char msg[160];
	view_rig_status(v, msg, sizeof msg);
	view_say(v, msg);
}

void view_select_next_rig(viewer *v)
{
	if (selected(v, "TAB") == NULL) return;
	v->rig = (v->rig + 1) % view_rig_count(v);
	say_power(v);
}

/* limp -> loose -> braced -> stiff -> limp (from custom drives: limp) */
void view_cycle_power(viewer *v)
{
	sinew_ragdoll *rd = selected(v, "P");
	if (rd == NULL) return;
	int next = (current_preset(rd) + 1) % SINEW_POWER_PRESET_COUNT;
	sinew_ragdoll_set_power(rd, (sinew_ragdoll_power_preset)next);
	say_power(v);
}

/* On the 0.1 grid (ten presses from 1 reach 0 exactly), within 0..1. */
void view_change_influence(viewer *v, float delta)
{
	sinew_ragdoll *rd = selected(v, delta < 0.0f ? "[" : "]");
	if (rd == NULL) return;
	float k = roundf((sinew_ragdoll_get_influence(rd) + delta) * 10.0f) / 10.0f;
	sinew_ragdoll_set_influence(rd, sinew_clampf(k, 0.0f, 1.0f));
	say_power(v);
}

/* A limb goes physical only while the figure stands (the whole ragdoll takes it as it is). */
void view_toggle_limb(viewer *v, sinew_rig_limb limb)
{
	sinew_ragdoll *rd = selected(v, "LIMB");
	if (rd == NULL) return;
	if (sinew_ragdoll_get_state(rd) != SINEW_RIG_ANIMATED) {
		view_say(v, "LIMB: ONLY WHILE THE FIGURE STANDS (R STANDS IT UP)");
		return;
	}
	sinew_ragdoll_set_limb_enabled(rd, limb, !sinew_ragdoll_is_limb_enabled(rd, limb));
	say_power(v);
}

static void limbs_of(const sinew_ragdoll *rd, char *out, size_t size, char separator)
{
	out[0] = 0;
	for (int l = 0; l < SINEW_LIMB_COUNT; ++l) {
		if (!sinew_ragdoll_is_limb_enabled(rd, (sinew_rig_limb)l)) continue;
		size_t used = strlen(out);
		SDL_snprintf(out + used, size - used, "%s%s", used > 0 ? " " : "", limb_names[l]);
		if (used > 0) out[used] = separator;
	}
	if (out[0] == 0) SDL_snprintf(out, size, "none");
}

void view_rig_status(const viewer *v, char *out, size_t size)
{
	out[0] = 0;
	if (view_rig_count(v) == 0) return;
	const sinew_ragdoll *rd = sinew_scene_get_ragdoll(v->scene, v->rig);
	const char *name = sinew_scene_get_rig_name(v->scene, v->rig);
	if (rd == NULL) return;
	char limbs[64];
	limbs_of(rd, limbs, sizeof limbs, ' ');
	for (char *c = limbs; *c != 0; ++c)
		if (*c == '_') *c = '.';
	SDL_snprintf(out, size, "%s  POWER %s  INFLUENCE %.1f  LIMBS %s", name != NULL ? name : "RIG", preset_name(rd),
	             (double)sinew_ragdoll_get_influence(rd), limbs);
}

void view_write_rig_state(const viewer *v, FILE *out)
{
	for (int i = 0; i < view_rig_count(v); ++i) {
		const sinew_ragdoll *rd = sinew_scene_get_ragdoll(v->scene, i);
		const char *name = sinew_scene_get_rig_name(v->scene, i);
		if (rd == NULL) continue;
		char limbs[64];
		limbs_of(rd, limbs, sizeof limbs, ',');
		fprintf(out, "%s power %s influence %.2f limbs %s\n", name != NULL ? name : "-", preset_name(rd),
		        (double)sinew_ragdoll_get_influence(rd), limbs);
	}
}
