/* sinew/rig.h: the stickman rig — an animated skeleton (forward kinematics, two-bone IK, a head
 * look-at), facing profiles, kinematic collision proxies that props bounce off, hit reactions,
 * and terrain motion (walking, falling with momentum, an air pose, landings). docs/rig.md and
 * docs/terrain.md are its manual.
 *
 *     sinew_rig_def rd = sinew_default_rig_def();      // the default stickman
 *     rd.position = sinew_v2(0.0f, -385.0f);           // the root: the hips, world px
 *     sinew_rig *rig = sinew_create_rig(world, &rd);
 *     for (;;) {
 *         sinew_rig_set_marker(rig, SINEW_MARKER_RIGHT_HAND, sinew_v2(200.0f, -300.0f));
 *         sinew_rig_update(rig, dt);                   // pose, IK, reactions, proxy targets
 *         sinew_world_step(world, dt, 4);
 *     }
 *     sinew_destroy_rig(rig);
 *
 * Built on sinew.h's public API alone, like any user of the engine. The rig works in the world's
 * length units and was made for pixel worlds like the game it comes from: length_units_per_meter
 * 100, y pointing down, gravity (0, 980) px/s^2. Angles are radians; with y down a positive angle
 * turns +x towards +y (clockwise on screen).
 *
 * Frames. The rig frame is the root's frame in canonical (RIGHT-facing) form: x forward, y down,
 * origin at the root. Markers, the torso position and bone rotations live in it. A rig facing
 * LEFT is the whole rig mirrored in x: world = root.p + rotate(root.q, (-x, y)). FORWARD has the
 * RIGHT geometry with its own bend flags. Bones extend along their local +x by their length.
 *
 * Bend flags. A limb's flag picks the side its middle joint (elbow, knee) bends to: false gives a
 * positive relative angle of the lower bone to the upper one in the rig frame (a knee that points
 * forward), true the negative one (an elbow whose forearm points forward). */
#ifndef SINEW_RIG_H
#define SINEW_RIG_H

#include "sinew.h"
#include "draw.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A stickman rig. Opaque; made by sinew_create_rig. */
typedef struct sinew_rig sinew_rig;

/** The ten parts, in the trace's order. Each part is one bone (the torso's bone is the spine from
 * the hips to the neck) and one collision proxy. */
typedef enum sinew_rig_part {
	SINEW_PART_TORSO,
	SINEW_PART_HEAD,
	SINEW_PART_LEFT_UPPER_ARM,
	SINEW_PART_LEFT_LOWER_ARM,
	SINEW_PART_RIGHT_UPPER_ARM,
	SINEW_PART_RIGHT_LOWER_ARM,
	SINEW_PART_LEFT_UPPER_LEG,
	SINEW_PART_LEFT_LOWER_LEG,
	SINEW_PART_RIGHT_UPPER_LEG,
	SINEW_PART_RIGHT_LOWER_LEG,
	SINEW_PART_COUNT
} sinew_rig_part;

/** The four two-bone limbs. Limb l's upper bone is SINEW_PART_LEFT_UPPER_ARM + 2 l, its lower
 * bone the next part, and its end marker is marker l. */
typedef enum sinew_rig_limb {
	SINEW_LIMB_LEFT_ARM,
	SINEW_LIMB_RIGHT_ARM,
	SINEW_LIMB_LEFT_LEG,
	SINEW_LIMB_RIGHT_LEG,
	SINEW_LIMB_COUNT
} sinew_rig_limb;

/** IK markers (the game's IK_Targets), rig-frame points: a target per limb end and the head's
 * look-at target. The torso marker (hips position and spine angle) is set with sinew_rig_set_torso. */
typedef enum sinew_rig_marker {
	SINEW_MARKER_LEFT_HAND,
	SINEW_MARKER_RIGHT_HAND,
	SINEW_MARKER_LEFT_FOOT,
	SINEW_MARKER_RIGHT_FOOT,
	SINEW_MARKER_HEAD,
	SINEW_MARKER_COUNT
} sinew_rig_marker;

/** Facing profiles: RIGHT, LEFT (the whole rig mirrored in x), FORWARD. */
typedef enum sinew_rig_facing {
	SINEW_FACING_RIGHT,
	SINEW_FACING_LEFT,
	SINEW_FACING_FORWARD
} sinew_rig_facing;

/** Who drives the figure. The rig is ANIMATED on its own; the ragdoll layer (ragdoll.h) moves it to
 * RAGDOLL and RECOVERING. */
typedef enum sinew_rig_state {
	SINEW_RIG_ANIMATED,
	SINEW_RIG_RAGDOLL,
	SINEW_RIG_RECOVERING
} sinew_rig_state;

/** Terrain motion (docs/terrain.md). */
typedef enum sinew_rig_motion {
	SINEW_MOTION_DISABLED,
	SINEW_MOTION_AIRBORNE,
	SINEW_MOTION_GROUNDED,
	SINEW_MOTION_LANDING_IMPACT
} sinew_rig_motion;

/* ---------------------------------------------------------------- skeleton */

/** One bone of a skeleton table. */
typedef struct sinew_rig_bone_def {
	const char *name;     /**< "torso", "head", "left_upper_arm", ... (the part names of the trace) */
	int parent;           /**< index of the parent bone in the table; -1 for the root (the torso) */
	sinew_vec2 offset;    /**< rest position of the bone's origin in its parent's frame (the root's: in the rig frame), length units */
	float rest_angle;     /**< rest rotation relative to the parent bone (the root's: to the rig frame), radians */
	float length;         /**< the bone runs from its origin along its local +x by this, length units (> 0) */
	float proxy_radius;   /**< radius of the part's collision proxy (capsule along the bone; the head's: a circle), length units */
} sinew_rig_bone_def;

/** A skeleton: one bone per part, indexed by sinew_rig_part, parents before children. */
typedef struct sinew_rig_skeleton {
	sinew_rig_bone_def bones[SINEW_PART_COUNT];
	float head_radius;      /**< the drawn head circle, length units (100) */
	float head_center;      /**< distance of the head circle's centre from the neck along the head bone (100) */
	float limb_width;       /**< drawn width of limbs and spine, length units (16) */
} sinew_rig_skeleton;

/** The game's stickman: spine 391.5 up from the hips to the neck, head 90 (circle r 100), upper
 * arms 168 from (0, -248) on the spine, lower arms 200, legs 200 + 200 from the hips; proxies head
 * r 90, torso r 20, arms r 12, legs r 14. */
SINEW_API sinew_rig_skeleton sinew_default_rig_skeleton(void);

/* ---------------------------------------------------------------- creation */

/** What sinew_create_rig builds. Get one from sinew_default_rig_def(). */
typedef struct sinew_rig_def {
	sinew_rig_skeleton skeleton;  /**< default: sinew_default_rig_skeleton() */
	sinew_vec2 position;          /**< world position of the root (the hips), length units */
	float angle;                  /**< root rotation, radians (0: upright) */
	sinew_rig_facing facing;      /**< default RIGHT */
	bool proxies;                 /**< make the ten kinematic collision proxies; default true */
	uint32_t proxy_layer;         /**< collision layer of the proxies; default 1 */
	uint32_t proxy_mask;          /**< collision mask of the proxies; default 1 */
	uint32_t terrain_mask;        /**< layers the terrain queries see; default 1 */
	bool reactions;               /**< props hitting the proxies make the part flinch; default true */
	const char *name;             /**< copied; reported in messages and traces (may be NULL) */
	void *user_data;
} sinew_rig_def;

SINEW_API sinew_rig_def sinew_default_rig_def(void);
/** Build a rig in the world in its rest pose. NULL (after reporting) on a bad def. The rig listens to
 * the world's origin shifts (sinew_world_add_origin_listener) until it is destroyed: one
 * sinew_world_shift_origin moves it, its momentum and its terrain state with the world. */
SINEW_API sinew_rig *sinew_create_rig(sinew_world_id world, const sinew_rig_def *def);
/** Destroy the rig and its proxies (NULL is harmless). Not during a world step. */
SINEW_API void sinew_destroy_rig(sinew_rig *rig);
SINEW_API sinew_world_id sinew_rig_get_world(const sinew_rig *rig);
SINEW_API const char *sinew_rig_get_name(const sinew_rig *rig);
SINEW_API void *sinew_rig_get_user_data(const sinew_rig *rig);
SINEW_API const sinew_rig_skeleton *sinew_rig_get_skeleton(const sinew_rig *rig);
/** The name of a part as traces and proxies spell it ("torso", "left_upper_arm", ...); NULL when
 * part is out of range. */
SINEW_API const char *sinew_rig_part_name(sinew_rig_part part);
/** The layers the terrain queries see (the def's terrain_mask). */
SINEW_API uint32_t sinew_rig_get_terrain_mask(const sinew_rig *rig);

/* ---------------------------------------------------------------- one call per frame */

/** Advance the rig by dt seconds (> 0), before sinew_world_step: momentum tracking, terrain
 * motion, the pose (markers and bone rotations), IK, reactions, then the proxies' move_to targets
 * so they arrive with the world step. Only while ANIMATED or RECOVERING does it pose the figure. */
SINEW_API bool sinew_rig_update(sinew_rig *rig, float dt);

/* ---------------------------------------------------------------- pose */

/** The whole pose as a value, so a later layer can capture and restore it exactly. */
typedef struct sinew_rig_pose {
	sinew_transform root;                   /**< world transform of the rig frame */
	sinew_rig_facing facing;
	sinew_vec2 torso;                       /**< torso marker: the hips in the rig frame */
	sinew_vec2 markers[SINEW_MARKER_COUNT]; /**< rig frame */
	float bones[SINEW_PART_COUNT];          /**< each bone's rotation relative to its parent (the torso's: to the rig frame), radians; IK and the look-at write theirs */
	bool bend_flip[SINEW_LIMB_COUNT];       /**< live bend flags: the profile's, or per-limb overrides */
	bool limb_ik[SINEW_LIMB_COUNT];         /**< the limb follows its marker by IK (true) or its bone rotations */
	bool head_look;                         /**< the head turns towards SINEW_MARKER_HEAD */
} sinew_rig_pose;

/** Copy out the pose (as solved by the last update). */
SINEW_API bool sinew_rig_get_pose(const sinew_rig *rig, sinew_rig_pose *pose);
/** Replace the whole pose; the next get returns it bit for bit. Refused on non-finite values. */
SINEW_API bool sinew_rig_set_pose(sinew_rig *rig, const sinew_rig_pose *pose);
/** The rest pose of the rig's skeleton at a root transform and facing. */
SINEW_API sinew_rig_pose sinew_rig_rest_pose(const sinew_rig *rig, sinew_transform root, sinew_rig_facing facing);

SINEW_API bool sinew_rig_set_root(sinew_rig *rig, sinew_transform root);
SINEW_API sinew_transform sinew_rig_get_root(const sinew_rig *rig);
/** Facing profile: sets the mirror and the profile's bend flags (overrides are dropped). */
SINEW_API bool sinew_rig_set_facing(sinew_rig *rig, sinew_rig_facing facing);
SINEW_API sinew_rig_facing sinew_rig_get_facing(const sinew_rig *rig);
/** The profile's bend flag of a limb (RIGHT and LEFT: arms true, legs false; FORWARD: left arm
 * false, right arm true, left leg true, right leg false). */
SINEW_API bool sinew_rig_profile_bend_flip(sinew_rig_facing facing, sinew_rig_limb limb);
/** Per-limb override of the bend flag. */
SINEW_API bool sinew_rig_set_bend_flip(sinew_rig *rig, sinew_rig_limb limb, bool flip);
SINEW_API bool sinew_rig_get_bend_flip(const sinew_rig *rig, sinew_rig_limb limb);
/** Marker position in the rig frame, length units. */
SINEW_API bool sinew_rig_set_marker(sinew_rig *rig, sinew_rig_marker marker, sinew_vec2 position);
SINEW_API sinew_vec2 sinew_rig_get_marker(const sinew_rig *rig, sinew_rig_marker marker);
/** Torso marker: hips position (rig frame) and spine rotation in the rig frame (rest: -pi/2, up). */
SINEW_API bool sinew_rig_set_torso(sinew_rig *rig, sinew_vec2 position, float angle);
/** A bone's rotation relative to its parent, radians (used where the limb is not IK-driven). */
SINEW_API bool sinew_rig_set_bone_angle(sinew_rig *rig, sinew_rig_part part, float angle);
SINEW_API float sinew_rig_get_bone_angle(const sinew_rig *rig, sinew_rig_part part);
SINEW_API bool sinew_rig_set_limb_ik(sinew_rig *rig, sinew_rig_limb limb, bool ik);
SINEW_API bool sinew_rig_set_head_look(sinew_rig *rig, bool look);

/** Rig frame <-> world, points and directions (the LEFT mirror included). */
SINEW_API sinew_vec2 sinew_rig_to_world(const sinew_rig *rig, sinew_vec2 rig_point);
SINEW_API sinew_vec2 sinew_rig_to_local(const sinew_rig *rig, sinew_vec2 world_point);
SINEW_API sinew_vec2 sinew_rig_vector_to_world(const sinew_rig *rig, sinew_vec2 rig_vector);
SINEW_API sinew_vec2 sinew_rig_vector_to_local(const sinew_rig *rig, sinew_vec2 world_vector);

/* ---------------------------------------------------------------- forward kinematics */

/** A part in the world, as last solved (reactions included). */
typedef struct sinew_rig_part_state {
	sinew_vec2 origin; /**< the bone's origin (the joint with its parent) */
	sinew_vec2 tip;    /**< origin + length along the bone */
	sinew_vec2 center; /**< the part's centre: the bone's midpoint, the head circle's centre */
	float angle;       /**< world direction of the bone, radians */
} sinew_rig_part_state;

SINEW_API sinew_rig_part_state sinew_rig_get_part(const sinew_rig *rig, sinew_rig_part part);
/** Solve FK for a pose without touching any rig: the ten parts in the world. */
SINEW_API bool sinew_rig_solve_pose(const sinew_rig *rig, const sinew_rig_pose *pose, sinew_rig_part_state parts[SINEW_PART_COUNT]);
/** Solve a pose as the rig's update would, without touching any rig: IK and the head look-at first
 * (they rewrite pose->bones of the IK limbs and a looking head), then forward kinematics. What a
 * powered ragdoll chases while the rig itself, hidden, solves nothing (parts may be NULL). */
SINEW_API bool sinew_rig_solve_pose_ik(const sinew_rig *rig, sinew_rig_pose *pose, sinew_rig_part_state parts[SINEW_PART_COUNT]);
/** Two-bone IK in a plane: the two bone directions (radians) that put the end of a chain rooted at
 * origin with lengths l1, l2 at target (or a straight chain pointing at it when out of reach),
 * the middle joint on the side flip picks (false: positive relative angle). */
SINEW_API bool sinew_solve_two_bone_ik(sinew_vec2 origin, float l1, float l2, sinew_vec2 target, bool flip,
                                       float *upper_angle, float *lower_angle);

/* ---------------------------------------------------------------- momentum */

/** The root's velocity tracked from frame deltas (as the game's rig tracks momentum), length units / s. */
SINEW_API sinew_vec2 sinew_rig_get_linear_velocity(const sinew_rig *rig);
/** The root's angular velocity from frame deltas, rad/s. */
SINEW_API float sinew_rig_get_angular_velocity(const sinew_rig *rig);

/* ---------------------------------------------------------------- proxies and events */

/** The kinematic proxy body of a part (the null id when the rig has none). Its user data points
 * at a sinew_rig_proxy_info. A proxy follows its part as animated, without the hit reactions'
 * offsets (a flinch is shown, it does not push props). */
SINEW_API sinew_body_id sinew_rig_get_proxy(const sinew_rig *rig, sinew_rig_part part);
/** What a proxy body's user data points at. */
typedef struct sinew_rig_proxy_info {
	uint32_t magic;       /**< SINEW_RIG_PROXY_MAGIC */
	sinew_rig *rig;
	sinew_rig_part part;
	const char *part_name;
} sinew_rig_proxy_info;
#define SINEW_RIG_PROXY_MAGIC 0x52494721u
/** If body is a rig's proxy: its rig and part (either pointer may be NULL). Never reports. */
SINEW_API bool sinew_rig_from_body(sinew_body_id body, sinew_rig **rig, sinew_rig_part *part);
/** Turn the proxies on or off (off: they are disabled bodies, props pass through). */
SINEW_API bool sinew_rig_set_proxies_enabled(sinew_rig *rig, bool enabled);
SINEW_API bool sinew_rig_get_proxies_enabled(const sinew_rig *rig);

/** Callbacks the rig makes from sinew_rig_update (never during a world step). */
typedef struct sinew_rig_callbacks {
	/** A body began touching the rig's proxies (once per contact episode per body). normal: unit,
	 * world, from the other body towards the rig; speed: the other body's speed, length units / s. */
	void (*collided)(sinew_rig *rig, sinew_rig_part part, sinew_body_id other, sinew_vec2 normal, sinew_vec2 point,
	                 float speed, void *context);
	/** The last contact between the rig's proxies and that body ended. */
	void (*separated)(sinew_rig *rig, sinew_body_id other, void *context);
	/** The rig's state changed. */
	void (*state_changed)(sinew_rig *rig, sinew_rig_state state, void *context);
	void *context;
} sinew_rig_callbacks;
SINEW_API bool sinew_rig_set_callbacks(sinew_rig *rig, const sinew_rig_callbacks *callbacks);

/* ---------------------------------------------------------------- reactions */

/** Flinch a part away from an impact: direction is the world direction of the push (from the prop
 * towards the rig), speed in length units / s. Only while ANIMATED. */
SINEW_API bool sinew_rig_apply_reaction(sinew_rig *rig, sinew_rig_part part, sinew_vec2 direction, float speed);
/** Automatic reactions to props hitting the proxies, on or off. */
SINEW_API bool sinew_rig_enable_reactions(sinew_rig *rig, bool enabled);
/** The reaction offset a bone has now, radians (0 when none). */
SINEW_API float sinew_rig_get_reaction(const sinew_rig *rig, sinew_rig_part part);
SINEW_API bool sinew_rig_clear_reactions(sinew_rig *rig);

/* ---------------------------------------------------------------- state (for the ragdoll layer) */

SINEW_API sinew_rig_state sinew_rig_get_state(const sinew_rig *rig);
/** Change the state. Entering RAGDOLL disables the proxies, clears reactions, cancels a terrain
 * landing without restoring the pose and hides the figure; RECOVERING enables the proxies and
 * shows the figure; ANIMATED too. Fires state_changed. Called by the ragdoll layer. */
SINEW_API bool sinew_rig_set_state(sinew_rig *rig, sinew_rig_state state);
/** Whether the animated figure is shown (hidden while ragdolled). */
SINEW_API bool sinew_rig_is_visible(const sinew_rig *rig);

/* ---------------------------------------------------------------- terrain motion (docs/terrain.md) */

/* The terrain controller's constants, in one place: px, seconds, y down. The game's shipped tuning
 * first, then the terrain ones it assumes. */
#define SINEW_RIG_AIR_DRAG_X 0.75f                    /**< exponential damping of air velocity x, 1/s */
#define SINEW_RIG_AIR_POSE_START_SPEED 240.0f         /**< downward px/s where the air pose starts */
#define SINEW_RIG_AIR_POSE_FULL_SPEED 1200.0f         /**< downward px/s of the full air pose */
#define SINEW_RIG_AIR_POSE_RESPONSE 10.0f             /**< exponential blend response of the air pose, 1/s */
#define SINEW_RIG_AIR_HAND_FORWARD 220.0f             /**< hands' rig-frame +x reach at full reach, px */
#define SINEW_RIG_AIR_HAND_FORWARD_START_SPEED 80.0f  /**< downward px/s where the reach starts */
#define SINEW_RIG_AIR_HAND_FORWARD_FULL_SPEED 520.0f  /**< downward px/s of the full reach */
#define SINEW_RIG_AIR_HAND_LIFT 680.0f                /**< hands' upward lift at full weight, px */
#define SINEW_RIG_AIR_HAND_FLAIL_X 20.0f              /**< hand flail amplitude, rig x, px */
#define SINEW_RIG_AIR_HAND_FLAIL_Y 16.0f              /**< hand flail amplitude, rig y, px */
#define SINEW_RIG_AIR_FOOT_FLAIL_X 14.0f              /**< foot flail amplitude, rig x, px */
#define SINEW_RIG_AIR_FOOT_FLAIL_Y 10.0f              /**< foot flail amplitude, rig y, px */
#define SINEW_RIG_AIR_FLAIL_HZ 12.0f                  /**< flail frequency, Hz (the sides half a cycle apart) */
#define SINEW_RIG_HARD_LANDING_MIN_FALL_HEIGHT 80.0f  /**< vertical fall, px: below it a landing is soft */
#define SINEW_RIG_HARD_LANDING_MAX_FALL_HEIGHT 900.0f /**< vertical fall, px: at or above it the deepest impact */
#define SINEW_RIG_LANDING_COMPRESSION_MIN 32.0f       /**< torso marker drop at the minimum hard fall, px */
#define SINEW_RIG_LANDING_COMPRESSION_MAX 160.0f      /**< torso marker drop at the maximum, px */
#define SINEW_RIG_LANDING_HAND_DROP_MIN 270.0f        /**< hand marker drop at the minimum hard fall, px */
#define SINEW_RIG_LANDING_HAND_DROP_MAX 520.0f        /**< hand marker drop at the maximum, px */
#define SINEW_RIG_LANDING_COMPRESS_DURATION 0.08f     /**< impact compression (quadratic ease-out), s */
#define SINEW_RIG_LANDING_RECOVER_DURATION 0.22f      /**< impact recovery (sine-out), s */
#define SINEW_RIG_TERRAIN_GRAVITY 980.0f              /**< the controller's own fall acceleration, px/s^2 */
#define SINEW_RIG_TERRAIN_MAX_FALL_SPEED 2400.0f      /**< cap of the downward air velocity, px/s (reached after a 2939 px fall) */
#define SINEW_RIG_TERRAIN_SUPPORT_RANGE 48.0f         /**< ground this far below the feet still holds the rig, px */
#define SINEW_RIG_TERRAIN_STEP_HEIGHT 64.0f           /**< highest rise a walker steps onto; higher is a wall, px */
#define SINEW_RIG_TERRAIN_UPWARD_MIN 0.5f             /**< a surface is ground when its normal's upward part is at least this (slopes to 60 degrees) */
#define SINEW_RIG_TERRAIN_KNEE_BEND 15.0f             /**< the hips ride this far below the rest pose's foot height (soft knees), px */
#define SINEW_RIG_TERRAIN_PROBE_HALF_WIDTH 24.0f      /**< half width of the centre's ray fan, px */
#define SINEW_RIG_TERRAIN_PROBE_RAYS 5                /**< rays in the centre's fan */
#define SINEW_RIG_TERRAIN_FOOT_HALF_WIDTH 6.0f        /**< half width of a foot's ray fan, px */
#define SINEW_RIG_TERRAIN_FOOT_RAYS 3                 /**< rays in a foot's fan */
#define SINEW_RIG_WALK_STRIDE 160.0f                  /**< distance the body walks per gait cycle (two steps), px */
#define SINEW_RIG_WALK_STEP_LIFT 30.0f                /**< height of a swinging foot at mid-swing, px */
#define SINEW_RIG_WALK_BLEND_RESPONSE 8.0f            /**< how fast the stride grows when walking starts and fades when it stops, 1/s */

/** Terrain following on (starts falling: AIRBORNE, as sinew_rig_begin_terrain_fall, when it was
 * DISABLED) or off (DISABLED with full cleanup: air pose restored, landing cancelled). */
SINEW_API bool sinew_rig_set_terrain_following(sinew_rig *rig, bool enabled);
/** Start AIRBORNE with zero air velocity. */
SINEW_API bool sinew_rig_begin_terrain_fall(sinew_rig *rig);
SINEW_API sinew_rig_motion sinew_rig_get_motion(const sinew_rig *rig);
/** Walk at a signed horizontal speed, length units / s (0 stops); moves only while GROUNDED. A rig
 * facing RIGHT or LEFT turns to face the walk. */
SINEW_API bool sinew_rig_walk(sinew_rig *rig, float speed);
/** The actual signed x velocity of the last grounded frame (0 when the walk was stopped or
 * blocked), length units / s: what a walk off a ledge takes into the air. */
SINEW_API float sinew_rig_get_walk_velocity(const sinew_rig *rig);
/** The terrain controller's air velocity, length units / s (zero unless AIRBORNE). */
SINEW_API sinew_vec2 sinew_rig_get_air_velocity(const sinew_rig *rig);
/** True only during LANDING_IMPACT (the game's action-queue barrier). */
SINEW_API bool sinew_rig_is_action_blocked(const sinew_rig *rig);
/** End a landing impact now: restore_pose true writes the captured torso and hands back; false
 * (a ragdoll request) keeps the current impact pose. Either way the state becomes GROUNDED. */
SINEW_API bool sinew_rig_cancel_landing(sinew_rig *rig, bool restore_pose);

/* ---------------------------------------------------------------- drawing */

/** Draw the animated figure with its own look (limbs and spine as capsules limb_width wide with
 * round caps, the head circle) through draw's callbacks. Draws nothing while hidden. The proxies are
 * ordinary kinematic bodies: sinew_world_draw draws them in the debug colours. */
SINEW_API void sinew_rig_draw(const sinew_rig *rig, const sinew_debug_draw *draw);

#ifdef __cplusplus
}
#endif
#endif
