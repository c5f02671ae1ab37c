/* ragdoll/internal.h: the ragdoll controller's state, shared by ragdoll.c (the tables, the build,
 * the state machine) and recovery.c (the stand-up). Internal to ragdoll/; public API only below. */
#ifndef SINEW_RAGDOLL_INTERNAL_H
#define SINEW_RAGDOLL_INTERNAL_H

#include "sinew/ragdoll.h"

/** Ragdoll collision groups: bit 31 plus the torso body's slot, clear of small user groups. */
#define RAGDOLL_GROUP_BASE 0x80000000u

/** The seven x offsets of the ground probe's fan (docs/ragdoll.md, recovery), length units. */
#define RAGDOLL_PROBE_RAYS 7

/** One segment of the stand-up that is tweened by rotation: its start and end value, radians. */
typedef struct ragdoll_tween_angle {
	float from, to;
} ragdoll_tween_angle;

/** The stand-up (docs/ragdoll.md, "The recovery"): everything the snap decided, so each frame is a
 * pure function of the elapsed time. */
typedef struct ragdoll_recovery {
	sinew_rig_pose start;                      /**< the snapped pose: the last ragdoll frame */
	sinew_rig_pose end;                        /**< the pre-ragdoll pose at the landing spot */
	ragdoll_tween_angle torso;                 /**< spine angle in the rig frame */
	ragdoll_tween_angle bones[SINEW_PART_COUNT]; /**< relative rotations, the branch of minimal world sweep */
	sinew_vec2 foot_from[2], foot_to[2];       /**< leg IK targets, rig frame (left, right leg) */
	bool leg_ik[2];                            /**< the leg follows its foot by IK (else by rotations) */
	bool leg_flip[2];                          /**< the IK legs' bend flags: the side the knee fell to */
	float foot_sink[2];                        /**< how deep the fallen foot was in the terrain (contact slop):
	                                                allowed at the start, clamped away by the end */
	float elapsed;                             /**< seconds since the snap */
	float ground_y;                            /**< the probed landing ground, world y */
} ragdoll_recovery;

/** The powered ragdoll's live state (power.c): the drives, the blend, the root pull, and what was
 * last written to each joint, so a drive that did not change is not written again (a write wakes
 * the bodies). */
typedef struct ragdoll_power {
	sinew_ragdoll_drive drives[SINEW_PART_COUNT];
	float influence;
	float limb_influence[SINEW_LIMB_COUNT];
	sinew_ragdoll_root_pull root_pull;
	sinew_joint_id pull[2];                   /**< the root pull's springs at the hips and the neck */
	float targets[SINEW_PART_COUNT];          /**< each joint's target in its own frame, radians */
	bool has_targets;
	sinew_joint_spring spring[SINEW_PART_COUNT]; /**< as last written */
	sinew_joint_motor motor[SINEW_PART_COUNT];
} ragdoll_power;

/** One limb of a partial ragdoll (limb.c). */
typedef enum ragdoll_limb_mode {
	RAGDOLL_LIMB_ANIMATED,
	RAGDOLL_LIMB_PHYSICAL,  /**< its two bones are bodies jointed to the anchor */
	RAGDOLL_LIMB_REJOINING  /**< blending from where it was back to the animation */
} ragdoll_limb_mode;

typedef struct ragdoll_limb {
	ragdoll_limb_mode mode;
	float from[2];  /**< rejoining: the upper bone's and the lower bone's world-relative angle to its parent at the hand-off */
	float elapsed;  /**< rejoining: seconds since the hand-off */
} ragdoll_limb;

struct sinew_ragdoll {
	sinew_rig *rig;
	sinew_world_id world;
	sinew_ragdoll_def def;
	sinew_rig_state state;
	sinew_body_id bodies[SINEW_PART_COUNT];
	sinew_joint_id joints[SINEW_PART_COUNT];
	float lengths[SINEW_PART_COUNT];  /**< each body's bone length at the build (the head's: neck to centre) */
	sinew_rig_pose pre;               /**< the pose before the fall: the recovery's end target */
	bool has_pre;
	ragdoll_recovery recovery;
	/* A pose written since the rig's last update (the snap, the end of a snapped recovery): the
	 * rig solves it on its next update, so until then the parts are solved from it here. */
	bool unsolved;
	sinew_rig_pose unsolved_pose;
	ragdoll_power power;
	ragdoll_limb limbs[SINEW_LIMB_COUNT];
	uint32_t proxy_groups[SINEW_PART_COUNT]; /**< the rig proxies' groups before a partial ragdoll joined them to its own */
	bool proxies_grouped;
};

/** Write a pose to the rig and remember it until the next update solves it. */
void ragdoll_write_pose(sinew_ragdoll *rd, const sinew_rig_pose *pose);

/** World point and direction <-> a pose's rig frame (the LEFT mirror included). */
sinew_vec2 ragdoll_pose_to_world(const sinew_rig_pose *pose, sinew_vec2 rig_point);
sinew_vec2 ragdoll_pose_to_local(const sinew_rig_pose *pose, sinew_vec2 world_point);
float ragdoll_angle_to_world(const sinew_rig_pose *pose, float rig_angle);
float ragdoll_angle_to_local(const sinew_rig_pose *pose, float world_angle);
/** a wrapped into (-pi, pi]. */
float ragdoll_wrap(float a);

/** One part as its body shows it now. */
void ragdoll_body_part(const sinew_ragdoll *rd, int part, sinew_rig_part_state *state);
/** The parts as the ragdoll's bodies show them now. */
void ragdoll_body_parts(const sinew_ragdoll *rd, sinew_rig_part_state parts[SINEW_PART_COUNT]);
/** Free every body and joint of the ragdoll (ids become null). */
void ragdoll_destroy_bodies(sinew_ragdoll *rd);

/** RAGDOLL -> RECOVERING: capture, probe, re-anchor, snap, plan the stand-up, free the bodies.
 * enter false (snap_to_standing): plan only; the caller finishes at once. */
bool ragdoll_begin_recovery(sinew_ragdoll *rd, bool enter);
/** Pose the rig for the current stand-up time, then advance it by dt. True when it has finished. */
bool ragdoll_recovery_step(sinew_ragdoll *rd, float dt);
/** Write the end pose and go ANIMATED. jump: the figure did not get there by the tween (a snap),
 * so the proxies are put on it rather than swept there in one step, batting props away. */
void ragdoll_finish_recovery(sinew_ragdoll *rd, bool jump);
/** The ground under world x near the band [top_y, bottom_y] (the recovery's probe): of the first
 * rays of the fan (1: straight down only; RAGDOLL_PROBE_RAYS: all seven), the hit nearest bottom_y
 * within the tolerance band, or bottom_y when no ray finds one. */
float ragdoll_probe_ground(const sinew_ragdoll *rd, float x, float top_y, float bottom_y, const sinew_body_id *exclude,
                           int exclude_count, int rays, bool *found);

/** A part's body at its centre and bone angle with the rigid velocity (v, w) about root, in the
 * collision group (ragdoll.c). */
sinew_body_id ragdoll_build_body(sinew_ragdoll *rd, int part, const sinew_rig_part_state *ps, sinew_vec2 root,
                                 sinew_vec2 v, float w, uint32_t group);
/** The joint of part to parent (rd->bodies of both), its band from the pose's bend flags (ragdoll.c). */
sinew_joint_id ragdoll_build_joint(sinew_ragdoll *rd, int part, int parent, const sinew_rig_part_state *parts,
                                   const sinew_rig_pose *pose);

/* limb.c */
/** Any limb physical or rejoining. */
bool ragdoll_limbs_active(const sinew_ragdoll *rd);
/** Any limb physical (its joints are driven by power.c like the whole ragdoll's). */
bool ragdoll_limbs_physical(const sinew_ragdoll *rd);
/** Each frame while ANIMATED: move the anchor onto the animated torso, advance rejoining limbs. */
void ragdoll_limbs_update(sinew_ragdoll *rd, float dt);
/** The parts as shown: the physical or rejoining limbs over the rig's animated ones. */
void ragdoll_limbs_override(const sinew_ragdoll *rd, sinew_rig_part_state parts[SINEW_PART_COUNT]);
/** Every limb back to animated at once: bodies, joints and anchor freed, the proxies restored. */
void ragdoll_limbs_release(sinew_ragdoll *rd);

/* power.c */
/** The default presets, blend and root pull of a def. */
void ragdoll_power_default_def(sinew_ragdoll_def *d);
/** The power entries of a def are usable (finite, in range). */
bool ragdoll_power_def_is_valid(const sinew_ragdoll_def *d);
/** A new controller's power from its def. */
void ragdoll_power_init(sinew_ragdoll *rd);
/** After a build: the drives are written fresh to the new joints. */
void ragdoll_power_on_build(sinew_ragdoll *rd);
/** Each ragdoll frame, before the world step: targets from the rig's animated pose, the drives
 * written to the joints, the root pull moved. dt 0: no target speed (the build's frame). */
void ragdoll_power_update(sinew_ragdoll *rd, float dt);
/** Free the root pull's joints (the ragdoll's bodies are going). */
void ragdoll_power_release(sinew_ragdoll *rd);
/** Mark the driven joints and their targets over the drawn ragdoll. */
void ragdoll_power_draw(const sinew_ragdoll *rd, const sinew_debug_draw *draw);

#endif
