/* The scene's rigs in the viewer: R ragdolls every rig (and stands it back up), T picks the joint
 * model of the next ragdoll, and each figure is drawn with the rig's own look (limbs limb_width
 * wide with round caps, the head ring) over the debug draw: from the ragdoll's bodies while it is
 * limp, from the skeleton otherwise (sinew_ragdoll_draw), so the hand-off is seamless on screen. */
#include "view.h"

static const char *const model_names[] = {"LOCAL", "GODOT"};

int view_rig_count(const viewer *v)
{
	return sinew_scene_get_rig_count(v->scene);
}

/* After a load: T starts from the model the file gave the first rig. */
void view_sync_rigs(viewer *v)
{
	sinew_ragdoll *rd = sinew_scene_get_ragdoll(v->scene, 0);
	v->next_joint_model = rd != NULL ? (int)sinew_ragdoll_get_joint_model(rd) : (int)SINEW_RAGDOLL_LOCAL;
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
