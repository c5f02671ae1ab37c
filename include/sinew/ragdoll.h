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

/** One ragdoll body of the table (the game's; defaults in ragdoll/ragdoll.c). */
typedef struct sinew_ragdoll_body_def {
	float radius;          /**< capsule radius (the head: circle radius), length units */
	float mass;            /**< kg */
	float linear_damping;  /**< 1/s */
	float angular_damping; /**< 1/s */
} sinew_ragdoll_body_def;

/** The joint that attaches a part to its parent (the game's table). Elbows and knees take their fold
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

/** How a powered joint chases its target angle (docs/ragdoll.md, "Powered ragdoll"). */
typedef enum sinew_ragdoll_drive_mode {
	SINEW_DRIVE_OFF,    /**< limp: the joint turns freely within its band */
	SINEW_DRIVE_SPRING, /**< a joint spring (hertz, damping_ratio) towards the target angle */
	SINEW_DRIVE_MOTOR   /**< a servo: the joint motor turns at the target's own speed plus gain x the error,
	                         with at most max_torque */
} sinew_ragdoll_drive_mode;

/** One joint's drive. The target is the relative angle of the child bone to its parent in the
 * rig's animated pose, so it holds however the figure tumbles. */
typedef struct sinew_ragdoll_drive {
	sinew_ragdoll_drive_mode mode;
	float hertz;         /**< SPRING: natural frequency, Hz (> 0) */
	float damping_ratio; /**< SPRING: 0 rings, 1 critical (>= 0) */
	float gain;          /**< MOTOR: 1/s (> 0): the motor's speed is the target's speed + gain x error */
	float max_torque;    /**< MOTOR: mass x length units^2 / s^2 (> 0; the game's kg px^2/s^2) */
} sinew_ragdoll_drive;

/** The named presets of sinew_ragdoll_def.power_presets. */
typedef enum sinew_ragdoll_power_preset {
	SINEW_POWER_LIMP,   /**< every joint off: the plain ragdoll */
	SINEW_POWER_LOOSE,  /**< soft springs: the figure falls, its limbs drift back towards the pose */
	SINEW_POWER_BRACED, /**< firm springs: the figure holds its shape and staggers, the pose gives under a blow */
	SINEW_POWER_STIFF,  /**< strong servo motors: the pose is held unless something stronger wins */
	SINEW_POWER_PRESET_COUNT
} sinew_ragdoll_power_preset;

/** The optional pull of the torso towards the animated torso (off by default): two springs, at the
 * hips and at the neck, each pulling with at most half of max_force. */
typedef struct sinew_ragdoll_root_pull {
	bool enabled;
	float hertz;         /**< Hz (> 0) */
	float damping_ratio; /**< >= 0 */
	float max_force;     /**< the two springs together, mass x length units / s^2 (>= 0) */
} sinew_ragdoll_root_pull;

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
	sinew_ragdoll_drive power_presets[SINEW_POWER_PRESET_COUNT][SINEW_PART_COUNT]; /**< the named presets, a drive per
	                                                      child part (the torso's is unused); docs/ragdoll.md lists them */
	sinew_ragdoll_power_preset power;                /**< the preset a new controller starts with; default LIMP */
	float influence;                                 /**< 0 (limp) .. 1 (fully powered); default 1 */
	sinew_ragdoll_root_pull root_pull;               /**< default off (8 Hz, damping 1, max force 40000) */
	float limb_rejoin_duration;                      /**< a partial ragdoll's limb blends back to the animation in this, s;
	                                                      default 0.5 */
} sinew_ragdoll_def;

SINEW_API sinew_ragdoll_def sinew_default_ragdoll_def(void);
/** A ragdoll controller for the rig (ANIMATED: nothing is built until it is enabled). It listens to
 * the world's origin shifts until it is destroyed, as the rig does. */
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

/* ---------------------------------------------------------------- powered ragdoll (ragdoll/power.c) */

/** Every joint takes the preset's drive from the def's power_presets table. */
SINEW_API bool sinew_ragdoll_set_power(sinew_ragdoll *ragdoll, sinew_ragdoll_power_preset preset);
/** One joint's drive (part: the joint's child part, not the torso). */
SINEW_API bool sinew_ragdoll_set_joint_drive(sinew_ragdoll *ragdoll, sinew_rig_part part, const sinew_ragdoll_drive *drive);
SINEW_API sinew_ragdoll_drive sinew_ragdoll_get_joint_drive(const sinew_ragdoll *ragdoll, sinew_rig_part part);
/** The whole figure's strength, 0 (limp) .. 1 (the drives as set); may change every frame. A spring's
 * stiffness and a motor's torque scale with it (a spring's hertz by its square root). */
SINEW_API bool sinew_ragdoll_set_influence(sinew_ragdoll *ragdoll, float influence);
SINEW_API float sinew_ragdoll_get_influence(const sinew_ragdoll *ragdoll);
/** One limb's strength, 0 .. 1 (default 1), multiplying the figure's: the shoulder or hip and the
 * elbow or knee of that limb. */
SINEW_API bool sinew_ragdoll_set_limb_influence(sinew_ragdoll *ragdoll, sinew_rig_limb limb, float influence);
SINEW_API float sinew_ragdoll_get_limb_influence(const sinew_ragdoll *ragdoll, sinew_rig_limb limb);
/** The pull of the torso towards the animated torso (scaled by the figure's influence). */
SINEW_API bool sinew_ragdoll_set_root_pull(sinew_ragdoll *ragdoll, const sinew_ragdoll_root_pull *pull);
SINEW_API sinew_ragdoll_root_pull sinew_ragdoll_get_root_pull(const sinew_ragdoll *ragdoll);
/** The target of a joint at the last update, in the joint's own frame (comparable with
 * sinew_joint_get_angle of sinew_ragdoll_get_joint), radians. False while not ragdolled. */
SINEW_API bool sinew_ragdoll_get_joint_target(const sinew_ragdoll *ragdoll, sinew_rig_part part, float *angle);
/** "limp", "loose", "braced", "stiff" (NULL when out of range), and back (false for another name). */
SINEW_API const char *sinew_ragdoll_power_preset_name(sinew_ragdoll_power_preset preset);
SINEW_API bool sinew_ragdoll_power_preset_from_name(const char *name, sinew_ragdoll_power_preset *preset);

/* ---------------------------------------------------------------- partial ragdoll (ragdoll/limb.c) */

/** true: one limb goes physical while the rest of the figure stays animated (ANIMATED only): its
 * two bones become bodies, jointed as in the whole ragdoll to a kinematic anchor that follows the
 * animated torso, so the walking figure carries the limb's root. Its drive and influence apply as
 * in the whole ragdoll. false: the limb rejoins the animation over limb_rejoin_duration, blending
 * from where it is (the first frame is the last physical one) with the recovery's sine-in-out.
 * Idempotent; refused (reported) while RAGDOLL or RECOVERING. Going limp as a whole takes the
 * limb as it is shown. */
SINEW_API bool sinew_ragdoll_set_limb_enabled(sinew_ragdoll *ragdoll, sinew_rig_limb limb, bool enabled);
/** The limb is physical (not while it rejoins). */
SINEW_API bool sinew_ragdoll_is_limb_enabled(const sinew_ragdoll *ragdoll, sinew_rig_limb limb);

/** Draw the figure as shown now with the rig's look (the ragdoll's bodies while RAGDOLL). */
SINEW_API void sinew_ragdoll_draw(const sinew_ragdoll *ragdoll, const sinew_debug_draw *draw);

#ifdef __cplusplus
}
#endif
#endif
