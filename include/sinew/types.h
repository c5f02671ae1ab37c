/* sinew/types.h: definition structs with their defaults, enums and event records. */
#ifndef SINEW_TYPES_H
#define SINEW_TYPES_H

#include "base.h"
#include "collision.h"
#include "id.h"
#include "math.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The numeric envelope (docs/guide.md). Inside it a finite input gives finite state; an input
 * outside it is refused (SINEW_ERROR_INVALID_ARGUMENT, the message names the value and the limit).
 * Lengths, speeds and accelerations are in metres and scale with length_units_per_meter. */
#define SINEW_MAX_COORDINATE 1.0e6f     /**< m: |x|, |y| of a body position or a world point */
#define SINEW_MAX_SIZE 1.0e4f           /**< m: a shape's radius or a vertex's distance from its body origin */
#define SINEW_MAX_SPEED 1.0e5f          /**< m/s: velocities, maximum_linear_speed, motor speeds */
#define SINEW_MAX_ANGULAR_SPEED 1.0e4f  /**< rad/s: angular velocities and angular motor speeds */
#define SINEW_MAX_ACCELERATION 1.0e5f   /**< m/s^2: gravity (times a body's gravity_scale) */
#define SINEW_MAX_DENSITY 1.0e9f        /**< kg/m^2 */
#define SINEW_MAX_MASS 1.0e15f          /**< kg, and kg m^2 for rotational inertia over m^2 */
#define SINEW_MAX_FORCE 1.0e15f         /**< N, N m, N s: forces, torques, impulses, motor efforts */
#define SINEW_MAX_HERTZ 1.0e5f          /**< Hz: contact, joint and spring stiffness */
#define SINEW_MAX_COEFFICIENT 1.0e3f    /**< friction, restitution, damping ratios, gravity_scale */
#define SINEW_MIN_STEP 1.0e-5f          /**< s: smallest dt of sinew_world_step */
#define SINEW_MAX_STEP 1.0f             /**< s: largest dt of sinew_world_step */

/** World settings. Get one from sinew_default_world_def(), then change what you need. */
typedef struct sinew_world_def {
	sinew_vec2 gravity;            /**< length units / s^2; default (0, -10) */
	float length_units_per_meter;  /**< scales every internal tolerance; default 1 (100 for a pixel world) */
	float contact_hertz;           /**< contact stiffness, Hz; default 60 (capped at a quarter of the substep rate) */
	float contact_damping_ratio;   /**< contact bounciness damping, non-dimensional; default 10 */
	float contact_push_max_speed;  /**< fastest a contact pushes overlapping shapes apart, m/s; default 3 */
	float restitution_threshold;   /**< approach speed below which contacts do not bounce, m/s; default 1 */
	float joint_hertz;             /**< rate of the position correction of sequential joint rows (limits outside trees, compliant pins with bias 0), Hz; default 60, capped at a quarter of the substep rate (rigid rows, in trees or closing loops, are solved through the trees) */
	float joint_damping_ratio;     /**< default 2 */
	float maximum_linear_speed;    /**< clamp on body speed, m/s; default 400 */
	bool enable_sleep;             /**< resting islands may sleep; default true */
	bool enable_continuous;        /**< sweep fast bodies against static geometry; default true */
	int body_capacity;             /**< bodies to reserve room for up front (0: grow as needed) */
	int shape_capacity;            /**< shapes to reserve room for */
	int contact_capacity;          /**< contacts to reserve room for */
	sinew_error_fn *error_fn;      /**< error callback for this world; NULL: the process-wide one */
	void *error_context;           /**< passed to error_fn */
	void *user_data;               /**< yours */
	int internal_value;            /**< set by sinew_default_world_def; catches a def that was not initialised */
} sinew_world_def;

/** Static bodies never move; kinematic bodies move by their velocity and are not pushed; dynamic
 * bodies respond to forces and contacts. */
typedef enum sinew_body_type {
	SINEW_STATIC_BODY = 0,
	SINEW_KINEMATIC_BODY = 1,
	SINEW_DYNAMIC_BODY = 2,
	SINEW_BODY_TYPE_COUNT
} sinew_body_type;

/** Body settings. Get one from sinew_default_body_def(). */
typedef struct sinew_body_def {
	sinew_body_type type;       /**< default static */
	sinew_vec2 position;        /**< world position of the body origin */
	float angle;                /**< radians */
	sinew_vec2 linear_velocity; /**< of the centre of mass, length units / s */
	float angular_velocity;     /**< rad / s */
	float linear_damping;       /**< 1/s; default 0 */
	float angular_damping;      /**< 1/s; default 0 */
	float gravity_scale;        /**< default 1 */
	float sleep_threshold;      /**< speed below which the body may sleep, m/s; default 0.05 */
	void *user_data;            /**< yours */
	bool can_sleep;             /**< default true */
	bool is_awake;              /**< default true */
	bool fixed_rotation;        /**< never rotates; default false */
	bool is_bullet;             /**< continuous collision against dynamic bodies too; default false */
	bool is_enabled;            /**< default true: in the simulation */
	int internal_value;
} sinew_body_def;

/** Shape settings. Get one from sinew_default_shape_def(). */
typedef struct sinew_shape_def {
	void *user_data;            /**< yours */
	float density;              /**< kg / m^2 (kg per square length unit); default 1 */
	float friction;             /**< Coulomb coefficient; default 0.6 */
	float restitution;          /**< 0 (no bounce) to 1 (no loss) is the physical range; any finite value within SINEW_MAX_COEFFICIENT is accepted and used as given (above 1 adds energy each bounce); default 0 */
	uint32_t layer;             /**< the layers this shape is on; default 1 */
	uint32_t mask;              /**< the layers this shape sees; default 1. Two shapes collide when
	                                 (a.layer & b.mask) || (b.layer & a.mask), as in Godot */
	uint32_t group;             /**< collision group; default 0 (none). Shapes in the same non-zero
	                                 group never collide with each other, whatever their layers:
	                                 the parts of one figure, when layers are too few to tell 1,000
	                                 figures apart */
	bool is_sensor;             /**< detects overlaps, never pushes; default false */
	bool enable_contact_events; /**< report contact begin/end; default true */
	bool enable_sensor_events;  /**< be seen by sensors; default true */
	bool update_body_mass;      /**< recompute the body's mass when this shape is added; default true */
	int internal_value;
} sinew_shape_def;

/** Counters of a world after its last step. */
typedef struct sinew_counters {
	int body_count;
	int shape_count;
	int contact_count;      /**< touching contacts (manifolds with points) */
	int pair_count;         /**< broadphase pairs with overlapping fat boxes */
	int joint_count;
	int awake_body_count;
	int island_count;       /**< awake islands in the last step */
	int static_tree_height;
	int tree_height;        /**< the taller of the kinematic and dynamic trees */
	int step_count;         /**< steps taken */
} sinew_counters;

/** Two shapes began touching. The manifold is in world space, normal from shape_a to shape_b. */
typedef struct sinew_contact_begin_event {
	sinew_shape_id shape_a, shape_b;
	sinew_manifold manifold;
	float approach_speed; /**< relative speed along the normal when they met, length units / s (>= 0 approaching) */
} sinew_contact_begin_event;

/** Two shapes stopped touching (or one of them was destroyed or disabled: then check the ids). */
typedef struct sinew_contact_end_event {
	sinew_shape_id shape_a, shape_b;
} sinew_contact_end_event;

/** The contact events of the last step; valid until the next step or until the world changes. */
typedef struct sinew_contact_events {
	const sinew_contact_begin_event *begin_events;
	const sinew_contact_end_event *end_events;
	int begin_count;
	int end_count;
} sinew_contact_events;

/** A shape entered or left a sensor. */
typedef struct sinew_sensor_event {
	sinew_shape_id sensor_shape, visitor_shape;
} sinew_sensor_event;

typedef struct sinew_sensor_events {
	const sinew_sensor_event *begin_events;
	const sinew_sensor_event *end_events;
	int begin_count;
	int end_count;
} sinew_sensor_events;

/** A body moved in the last step (awake dynamic and kinematic bodies), or fell asleep. */
typedef struct sinew_body_move_event {
	sinew_body_id body;
	sinew_transform transform;
	void *user_data;
	bool fell_asleep;
} sinew_body_move_event;

typedef struct sinew_body_events {
	const sinew_body_move_event *move_events;
	int move_count;
} sinew_body_events;

/** One contact of a body, as the body sees it (Godot's get_contact_local_normal and friends). */
typedef struct sinew_body_contact {
	sinew_shape_id shape;       /**< this body's shape */
	sinew_shape_id other_shape; /**< the shape touched */
	sinew_body_id other_body;
	sinew_vec2 point;           /**< world point (the deepest point when there are two) */
	sinew_vec2 normal;          /**< unit, world, pointing from the other shape towards this body */
	float separation;           /**< negative when overlapping */
	float normal_impulse;       /**< total normal impulse of the last step, N s */
	int point_count;
} sinew_body_contact;

/** A contact between two shapes with its whole manifold (normal from shape_a to shape_b). */
typedef struct sinew_contact_data {
	sinew_shape_id shape_a, shape_b;
	sinew_manifold manifold;
} sinew_contact_data;

/* ---------------------------------------------------------------- joints */

/** The kinds of joint. */
typedef enum sinew_joint_type {
	SINEW_PIN_JOINT,       /**< Godot PinJoint2D: point constraint, world-space swing limit, motor, softness */
	SINEW_REVOLUTE_JOINT,  /**< point constraint; limit in the local or world frame; motor; spring */
	SINEW_PRISMATIC_JOINT, /**< slides along an axis fixed in body A; limit; motor; spring */
	SINEW_WELD_JOINT,      /**< glues two bodies, rigid or soft */
	SINEW_DISTANCE_JOINT,  /**< rod, rope or spring between two anchors; motor */
	SINEW_WHEEL_JOINT,     /**< point on an axis with a suspension spring and limit; rotation motor */
	SINEW_TARGET_JOINT,    /**< soft spring with a maximum force pulling a point of body B toward a target (the mouse joint) */
	SINEW_JOINT_TYPE_COUNT
} sinew_joint_type;

/** How an angle limit is measured. */
typedef enum sinew_limit_frame {
	SINEW_LIMIT_LOCAL = 0, /**< relative angle of B to A minus the reference angle: turns with body A */
	SINEW_LIMIT_WORLD = 1  /**< swing of the A-centre -> B-centre vector from its direction at creation, in world space (Godot pin semantics) */
} sinew_limit_frame;

/** Settings every joint has. */
typedef struct sinew_joint_base_def {
	sinew_body_id body_a;   /**< the null id joins body_b to the world */
	sinew_body_id body_b;   /**< required */
	bool collide_connected; /**< let the two bodies collide; default false */
	bool is_enabled;        /**< default true */
	float break_force;      /**< reaction force that breaks the joint, N; 0 = never */
	float break_torque;     /**< reaction torque that breaks the joint, N m; 0 = never */
	void *user_data;        /**< yours */
} sinew_joint_base_def;

/** An angle or length limit. */
typedef struct sinew_joint_limit {
	bool enabled;
	float lower, upper;      /**< radians for angles, length units for translations; lower <= upper */
	sinew_limit_frame frame; /**< angle limits of revolute joints only; pin limits are always world */
} sinew_joint_limit;

/** A velocity motor with bounded effort. */
typedef struct sinew_joint_motor {
	bool enabled;
	float speed;      /**< rad/s, or length units/s for linear motors */
	float max_effort; /**< N m for rotation, N for translation; 0 = no effort; INFINITY = unbounded */
} sinew_joint_motor;

/** A spring towards a target. */
typedef struct sinew_joint_spring {
	bool enabled;
	float hertz;         /**< natural frequency, Hz (> 0) */
	float damping_ratio; /**< 0 rings, 1 critical */
	float target;        /**< rad, or length units */
} sinew_joint_spring;

/** Pin joint (Godot PinJoint2D). */
typedef struct sinew_pin_joint_def {
	sinew_joint_base_def base;
	sinew_vec2 anchor;       /**< world point */
	float softness;          /**< 0 = rigid; > 0 lets the point stretch: compliance in (length units)/(N s) scaled by the bodies' masses, as Godot */
	float bias;              /**< position correction rate in 1/s; 0 = world default */
	sinew_joint_limit limit; /**< swing limit, world frame (frame is ignored) */
	sinew_joint_motor motor; /**< drives the relative angular speed; max_effort 0 = unbounded (Godot) */
	int internal_value;
} sinew_pin_joint_def;

/** Revolute joint. */
typedef struct sinew_revolute_joint_def {
	sinew_joint_base_def base;
	sinew_vec2 anchor;            /**< world point */
	bool use_reference_angle;     /**< false: the bodies' relative angle at creation */
	float reference_angle;        /**< radians, when use_reference_angle */
	sinew_joint_limit limit;
	sinew_joint_motor motor;
	sinew_joint_spring spring;
	int internal_value;
} sinew_revolute_joint_def;

/** Prismatic joint. */
typedef struct sinew_prismatic_joint_def {
	sinew_joint_base_def base;
	sinew_vec2 anchor;        /**< world point */
	sinew_vec2 axis;          /**< world direction, fixed in body A (normalised on creation) */
	bool use_reference_angle;
	float reference_angle;
	sinew_joint_limit limit;  /**< along the axis, length units */
	sinew_joint_motor motor;  /**< N */
	sinew_joint_spring spring;
	int internal_value;
} sinew_prismatic_joint_def;

/** Weld joint: rigid when a hertz is 0. */
typedef struct sinew_weld_joint_def {
	sinew_joint_base_def base;
	sinew_vec2 anchor;
	bool use_reference_angle;
	float reference_angle;
	float linear_hertz, angular_hertz;                 /**< Hz; 0 = rigid */
	float linear_damping_ratio, angular_damping_ratio; /**< non-dimensional */
	int internal_value;
} sinew_weld_joint_def;

/** Distance joint: a rod when min = max = length, a rope when min = 0, a spring in between. */
typedef struct sinew_distance_joint_def {
	sinew_joint_base_def base;
	sinew_vec2 anchor_a, anchor_b; /**< world points */
	float length;                  /**< rest length, >= 0; < 0 (the default): the distance at creation */
	float min_length, max_length;  /**< < 0: equal to length */
	sinew_joint_spring spring;     /**< when enabled, a spring towards length between min and max (target ignored) */
	sinew_joint_motor motor;       /**< drives the rate of change of length, N */
	int internal_value;
} sinew_distance_joint_def;

/** Wheel joint: body B's anchor moves on an axis of body A, sprung, and turns freely (a motor may drive it). */
typedef struct sinew_wheel_joint_def {
	sinew_joint_base_def base;
	sinew_vec2 anchor;
	sinew_vec2 axis;           /**< world suspension direction, fixed in A */
	sinew_joint_spring spring; /**< suspension along the axis (target = rest translation) */
	sinew_joint_limit limit;   /**< along the axis, length units */
	sinew_joint_motor motor;   /**< drives the rotation of B relative to A, N m */
	int internal_value;
} sinew_wheel_joint_def;

/** Target joint (the mouse joint of a viewer or editor): a soft spring with a maximum force pulls
 * the anchor point of body B toward the target. The target is fixed to body_a (or to the world when
 * body_a is the null id, the usual case); move it with sinew_target_joint_set_target. */
typedef struct sinew_target_joint_def {
	sinew_joint_base_def base;
	sinew_vec2 target;   /**< world point the anchor is pulled toward */
	sinew_vec2 anchor;   /**< world point of body B that is pulled (the grabbed point) */
	float hertz;         /**< stiffness as a natural frequency, Hz (> 0); default 5 */
	float damping_ratio; /**< >= 0; default 0.7 */
	float max_force;     /**< largest pull, N (>= 0); default INFINITY (no cap) */
	int internal_value;
} sinew_target_joint_def;

/** A joint broke in the last step: its reaction exceeded a threshold. */
typedef struct sinew_joint_broken_event {
	sinew_joint_id joint;
	float force;  /**< reaction force when it broke, N */
	float torque; /**< reaction torque when it broke, N m */
	void *user_data;
} sinew_joint_broken_event;

typedef struct sinew_joint_events {
	const sinew_joint_broken_event *broken_events;
	int broken_count;
} sinew_joint_events;

/* ---------------------------------------------------------------- queries */

/** Which shapes a world query sees. Get one from sinew_default_query_filter(). */
typedef struct sinew_query_filter {
	uint32_t mask;                        /**< layers to see: a shape is seen when (its layer & mask) != 0; default all */
	const sinew_body_id *exclude_bodies;  /**< shapes of these bodies are skipped (stale ids match nothing) */
	int exclude_body_count;               /**< >= 0; default 0 */
	const sinew_shape_id *exclude_shapes; /**< these shapes are skipped */
	int exclude_shape_count;              /**< >= 0; default 0 */
	bool include_sensors;                 /**< see sensor shapes too; default false */
	bool hit_from_inside;                 /**< a ray starting inside a shape (or a cast shape starting in overlap) hits it
	                                           at fraction 0 with a zero normal; false (default) skips that shape (Godot) */
} sinew_query_filter;

/** A ray's hit on a world shape. */
typedef struct sinew_ray_hit {
	sinew_shape_id shape; /**< the shape hit (null when nothing was hit) */
	sinew_body_id body;   /**< its body */
	sinew_vec2 point;     /**< world point where the ray enters the shape, length units */
	sinew_vec2 normal;    /**< unit outward surface normal there; zero for a hit from inside */
	float fraction;       /**< of the ray's translation, in [0, 1] */
	bool hit;
} sinew_ray_hit;

/** A shape cast's first hit on a world shape. */
typedef struct sinew_shape_hit {
	sinew_shape_id shape;      /**< the world shape hit (null when nothing was hit) */
	sinew_body_id body;        /**< its body */
	sinew_shape_id cast_shape; /**< body casts: the cast body's shape that hits; null for a geometry cast */
	sinew_vec2 point;          /**< world point on the hit shape nearest the cast shape at the stop, length units */
	sinew_vec2 normal;         /**< unit surface normal of the hit shape there, towards the cast shape; zero if they overlap */
	float fraction;            /**< of the translation where the gap closes to the linear slop, in [0, 1] */
	bool hit;
} sinew_shape_hit;

/** Ray callback: return 0 to stop, < 0 to ignore this hit and go on, a fraction below the current
 * limit to clip the ray there, or 1 (anything at or above the limit) to go on unclipped. */
typedef float sinew_ray_fn(const sinew_ray_hit *hit, void *context);

/** Overlap callback: return false to stop the query. */
typedef bool sinew_overlap_fn(sinew_shape_id shape, void *context);

#ifdef __cplusplus
}
#endif
#endif
