/* The scene's rigs in the viewer: R ragdolls every rig, T picks the joint model of the next ragdoll,
 * and each figure is drawn with the rig's own look over the debug draw. This build's scene layer
 * has no rigs yet (include/sinew/scene.h lists none), so the keys say so in the message line. */
#include "view.h"

int view_rig_count(const viewer *v)
{
	(void)v;
	return 0;
}

void view_toggle_ragdolls(viewer *v)
{
	view_say(v, "R: THIS BUILD HAS NO RAGDOLL YET");
}

void view_toggle_joint_model(viewer *v)
{
	view_say(v, "T: THIS BUILD HAS NO RAGDOLL YET");
}

void view_draw_rigs(viewer *v, const sinew_debug_draw *draw)
{
	(void)v;
	(void)draw;
}
