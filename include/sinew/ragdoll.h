/* sinew/ragdoll.h: the stickman's ragdoll — ANIMATED <-> RAGDOLL <-> RECOVERING with a seamless
 * hand-off both ways. docs/ragdoll.md is its manual.
 *
 *     sinew_ragdoll_def dd = sinew_default_ragdoll_def();
 *     sinew_ragdoll *rd = sinew_create_ragdoll(rig, &dd);
 *     for (;;) {
 *         if (hit) sinew_ragdoll_set_enabled(rd, true);   // the figure goes limp, keeping its momentum
 *         sinew_ragdoll_update(rd, dt);                   // instead of sinew_rig_update
 *         sinew_world_step(world, dt, 4);
 *     }
 *     sinew_destroy_ragdoll(rd);
 *
 * Entering builds ten bodies and nine joints from the rig's live pose (each body at its bone's
 * midpoint and angle, each with the rig's rigid velocity at its centre); leaving captures the
 * ragdoll's pose, re-anchors the rig on the ground under it and blends back to the pose the rig
 * had before it fell. Built on rig.h and sinew.h's public API alone. Pixel units as rig.h. */
#ifndef SINEW_RAGDOLL_H
#define SINEW_RAGDOLL_H

#include "rig.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A rig's ragdoll controller. Opaque. */
typedef struct sinew_ragdoll sinew_ragdoll;

/** How the ragdoll's joints hold their angles. */
typedef enum sinew_ragdoll_joint_model {
	SINEW_RAGDOLL_LOCAL, /**< revolute joints, limits in the parent's frame: they hold however the figure tumbles (default) */
	SINEW_RAGDOLL_GODOT  /**< pin joints, limits in the world frame from the spawn-time centre line (Godot's PinJoint2D) */
} sinew_ragdoll_joint_model;

/** One ragdoll body of the table (seed 000 §5.1). */
typedef struct sinew_ragdoll_body_def {
	float radius;          /**< capsule radius (the head: circle radius), length units */
	float mass;            /**< kg */
	float linear_damping;  /**< 1/s */
	float angular_damping; /**< 1/s */
} sinew_ragdoll_body_def;

/** The joint that attaches a part to its parent (seed 000 §5.2). Elbows and knees take their fold
 * side from the live bend flags: the band below is for an unflipped limb in the rig frame and is
 * mirrored for a flipped one (and again for a LEFT-facing rig). */
typedef struct sinew_ragdoll_joint_def {
	bool limit;         /**< false: free (the neck) */
	float lower;        /**< radians (see from_straight) */
	float upper;        /**< radians */
	bool from_straight; /**< true (elbows, knees): the band is measured from the straight limb (0: the child
	                         bone continues its parent), widened to take in the entry angle if that lies outside
	                         it; false (shoulders, hips): from the entry pose's relative angle. The godot model
	                         always measures from the entry (its world-frame centre line) */
} sinew_ragdoll_joint_def;

/** The tables and constants. Get one from sinew_default_ragdoll_def(); every entry may be edited. */
typedef struct sinew_ragdoll_def {
	sinew_ragdoll_body_def bodies[SINEW_PART_COUNT];  /**< by part */
	sinew_ragdoll_joint_def joints[SINEW_PART_COUNT]; /**< by child part; the torso's is unused */
	sinew_ragdoll_joint_model joint_model;           /**< default LOCAL */
	uint32_t layer, mask;                            /**< collision filter of the bodies; default 1, 1 */
	float friction;                                  /**< of the bodies' shapes; default 0.6 */
	bool self_collide;                               /**< parts that are not joined collide with each other; default
	                                                      false: the ragdoll's shapes share a collision group of
	                                                      their own, so arms hanging over the legs do not burst
	                                                      apart at the hand-off (joined parts never collide) */
	float recovery_duration;                         /**< stand-up time, s; default 2.0 */
	float probe_start_offset;                        /**< ground probe: start above the ragdoll's top; 50 */
	float probe_end_offset;                          /**< ground probe: end below the ragdoll's bottom; 1500 */
	float probe_tolerance;                           /**< accepted band around the ragdoll's extent; 200 */
	bool probe_dynamic;                              /**< the probe stands the figure on dynamic bodies (props) too;
	                                                      default false: terrain only (static and kinematic), since
	                                                      a prop may lie on the ragdoll itself and fall when it goes */
} sinew_ragdoll_def;

SINEW_API sinew_ragdoll_def sinew_default_ragdoll_def(void);
/** A ragdoll controller for the rig (ANIMATED: nothing is built until it is enabled). */
SINEW_API sinew_ragdoll *sinew_create_ragdoll(sinew_rig *rig, const sinew_ragdoll_def *def);
/** Destroy the controller and every body and joint it made (NULL is harmless). */
SINEW_API void sinew_destroy_ragdoll(sinew_ragdoll *ragdoll);
SINEW_API sinew_rig *sinew_ragdoll_get_rig(const sinew_ragdoll *ragdoll);

/** Advance one frame (call it instead of sinew_rig_update, before the world step): the rig while
 * ANIMATED, the stand-up while RECOVERING, nothing to pose while RAGDOLL. */
SINEW_API bool sinew_ragdoll_update(sinew_ragdoll *ragdoll, float dt);

/** true: ANIMATED or RECOVERING -> RAGDOLL (built from the live pose); false: RAGDOLL ->
 * RECOVERING. Idempotent. */
SINEW_API bool sinew_ragdoll_set_enabled(sinew_ragdoll *ragdoll, bool enabled);
SINEW_API bool sinew_ragdoll_toggle(sinew_ragdoll *ragdoll);
SINEW_API bool sinew_ragdoll_is_enabled(const sinew_ragdoll *ragdoll);
/** ANIMATED, RAGDOLL or RECOVERING (the rig's state, as this controller drives it). */
SINEW_API sinew_rig_state sinew_ragdoll_get_state(const sinew_ragdoll *ragdoll);
/** Finish now: from RAGDOLL or RECOVERING straight to the standing pre-ragdoll pose, ANIMATED. */
SINEW_API bool sinew_ragdoll_snap_to_standing(sinew_ragdoll *ragdoll);
/** Joint model for the next ragdoll built. */
SINEW_API bool sinew_ragdoll_set_joint_model(sinew_ragdoll *ragdoll, sinew_ragdoll_joint_model model);
SINEW_API sinew_ragdoll_joint_model sinew_ragdoll_get_joint_model(const sinew_ragdoll *ragdoll);

/** A part's body / the joint to its parent while ragdolled (null ids otherwise). */
SINEW_API sinew_body_id sinew_ragdoll_get_body(const sinew_ragdoll *ragdoll, sinew_rig_part part);
SINEW_API sinew_joint_id sinew_ragdoll_get_joint(const sinew_ragdoll *ragdoll, sinew_rig_part part);
/** The part as shown now: from the ragdoll's bodies while RAGDOLL, from the rig's skeleton otherwise. */
SINEW_API sinew_rig_part_state sinew_ragdoll_get_part(const sinew_ragdoll *ragdoll, sinew_rig_part part);
/** All ten parts as shown now (as sinew_ragdoll_get_part). */
SINEW_API void sinew_ragdoll_get_parts(const sinew_ragdoll *ragdoll, sinew_rig_part_state parts[SINEW_PART_COUNT]);
/** Largest anchor separation of the ragdoll's joints now, length units (0 when not ragdolled). */
SINEW_API float sinew_ragdoll_get_joint_separation_max(const sinew_ragdoll *ragdoll);
/** Largest overshoot of the ragdoll's joint limits now, in the joints' own frame, radians. */
SINEW_API float sinew_ragdoll_get_limit_overshoot_max(const sinew_ragdoll *ragdoll);

/** Draw the figure as shown now with the rig's look (the ragdoll's bodies while RAGDOLL). */
SINEW_API void sinew_ragdoll_draw(const sinew_ragdoll *ragdoll, const sinew_debug_draw *draw);

#ifdef __cplusplus
}
#endif
#endif
