/* rig/terrain.c: the rig's terrain controller (docs/terrain.md): DISABLED, AIRBORNE, GROUNDED,
 * LANDING_IMPACT. This first version holds the state and its public switches; walking, the fall,
 * the air pose and landings are built on it (issue 10). */
#include "terrain.h"

#include <stdlib.h>

struct rig_terrain {
	sinew_rig_motion motion;
	float walk_speed;
	sinew_vec2 air_velocity;
};

rig_terrain *rig_terrain_create(sinew_rig *rig)
{
	(void)rig;
	rig_terrain *t = calloc(1, sizeof *t);
	if (t != NULL) t->motion = SINEW_MOTION_DISABLED;
	return t;
}

void rig_terrain_destroy(rig_terrain *terrain) { free(terrain); }

void rig_terrain_update(sinew_rig *rig, rig_terrain *terrain, float dt)
{
	(void)rig;
	(void)terrain;
	(void)dt;
}

void rig_terrain_on_ragdoll(sinew_rig *rig, rig_terrain *terrain)
{
	(void)rig;
	terrain->air_velocity = sinew_v2(0.0f, 0.0f);
}

bool sinew_rig_set_terrain_following(sinew_rig *rig, bool enabled)
{
	rig_terrain *t = rig ? rig_get_terrain(rig) : NULL;
	if (t == NULL) return false;
	if (!enabled) t->motion = SINEW_MOTION_DISABLED;
	else if (t->motion == SINEW_MOTION_DISABLED) return sinew_rig_begin_terrain_fall(rig);
	return true;
}

bool sinew_rig_begin_terrain_fall(sinew_rig *rig)
{
	rig_terrain *t = rig ? rig_get_terrain(rig) : NULL;
	if (t == NULL) return false;
	t->motion = SINEW_MOTION_AIRBORNE;
	t->air_velocity = sinew_v2(0.0f, 0.0f);
	return true;
}

sinew_rig_motion sinew_rig_get_motion(const sinew_rig *rig)
{
	rig_terrain *t = rig ? rig_get_terrain(rig) : NULL;
	return t ? t->motion : SINEW_MOTION_DISABLED;
}

bool sinew_rig_walk(sinew_rig *rig, float speed)
{
	rig_terrain *t = rig ? rig_get_terrain(rig) : NULL;
	if (t == NULL) return false;
	t->walk_speed = speed;
	return true;
}

sinew_vec2 sinew_rig_get_air_velocity(const sinew_rig *rig)
{
	rig_terrain *t = rig ? rig_get_terrain(rig) : NULL;
	return t ? t->air_velocity : sinew_v2(0.0f, 0.0f);
}

bool sinew_rig_is_action_blocked(const sinew_rig *rig) { return sinew_rig_get_motion(rig) == SINEW_MOTION_LANDING_IMPACT; }

bool sinew_rig_cancel_landing(sinew_rig *rig, bool restore_pose)
{
	rig_terrain *t = rig ? rig_get_terrain(rig) : NULL;
	(void)restore_pose;
	if (t == NULL) return false;
	if (t->motion == SINEW_MOTION_LANDING_IMPACT) t->motion = SINEW_MOTION_GROUNDED;
	return true;
}
