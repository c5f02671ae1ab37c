/* rig/terrain.h: the hooks between the rig (rig/rig.c) and its terrain controller
 * (rig/terrain.c), internal to rig/. The controller reads and writes the rig through rig.h's
 * public functions only; the rig owns one controller and calls it from sinew_rig_update. */
#ifndef SINEW_RIG_TERRAIN_H
#define SINEW_RIG_TERRAIN_H

#include "sinew/rig.h"

typedef struct rig_terrain rig_terrain;

/** Made by sinew_create_rig (NULL on out of memory: the rig is then refused). */
rig_terrain *rig_terrain_create(sinew_rig *rig);
/** Freed by sinew_destroy_rig. */
void rig_terrain_destroy(rig_terrain *terrain);
/** The rig's controller (for the public terrain functions in terrain.c). */
rig_terrain *rig_get_terrain(const sinew_rig *rig);
/** Called by sinew_rig_update while ANIMATED, after momentum tracking and before IK: walking,
 * the motion state machine, the air pose and the landing timeline (they move the root and the
 * markers). */
void rig_terrain_update(sinew_rig *rig, rig_terrain *terrain, float dt);
/** Called by sinew_rig_set_state on entering RAGDOLL: cancel a landing without restoring the
 * pose, drop the air pose capture without writing it, go DISABLED or keep following as
 * docs/terrain.md, "After a ragdoll", says. */
void rig_terrain_on_ragdoll(sinew_rig *rig, rig_terrain *terrain);
/** Called by the rig's origin listener: the world point o became the origin, so the controller's
 * world heights and contact points move by -o. */
void rig_terrain_shift_origin(rig_terrain *terrain, sinew_vec2 o);

#endif
