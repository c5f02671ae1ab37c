/* The scene's rigs in the viewer: each figure is drawn with the rig's own look (limbs limb_width
 * wide with round caps, the head ring) over the debug draw of its proxies. R would ragdoll every
 * rig and T pick the joint model of the next ragdoll, but this build's scene layer makes no
 * ragdolls (include/sinew/scene.h hands out rigs only, and steps them with sinew_rig_update), so
 * the keys say so in the message line. */
#include "view.h"

int view_rig_count(const viewer *v)
{
	return sinew_scene_get_rig_count(v->scene);
}

void view_sync_rigs(viewer *v)
{
	v->next_joint_model = 0; /* SINEW_RAGDOLL_LOCAL */
}

void view_toggle_ragdolls(viewer *v)
{
	view_say(v, view_rig_count(v) > 0 ? "R: THE SCENE LAYER HAS NO RAGDOLLS YET" : "R: THIS SCENE HAS NO RIGS");
}

void view_toggle_joint_model(viewer *v)
{
	view_say(v, view_rig_count(v) > 0 ? "T: THE SCENE LAYER HAS NO RAGDOLLS YET" : "T: THIS SCENE HAS NO RIGS");
}

void view_draw_rigs(viewer *v, const sinew_debug_draw *draw)
{
	for (int i = 0; i < view_rig_count(v); ++i) sinew_rig_draw(sinew_scene_get_rig(v->scene, i), draw);
}
