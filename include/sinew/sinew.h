/* sinew/sinew.h: the whole engine API (worlds, bodies, shapes, events). Include this one header.
 *
 * A short manual
 * --------------
 * sinew simulates rigid bodies in 2D. You make a world, put bodies in it, give the bodies shapes,
 * and step the world at a fixed rate:
 *
 *     sinew_world_def wd = sinew_default_world_def();
 *     sinew_world_id world = sinew_create_world(&wd);
 *     sinew_body_def bd = sinew_default_body_def();
 *     bd.type = SINEW_DYNAMIC_BODY;
 *     bd.position = sinew_v2(0.0f, 4.0f);
 *     sinew_body_id box = sinew_create_body(world, &bd);
 *     sinew_shape_def sd = sinew_default_shape_def();
 *     sinew_polygon square = sinew_make_box(0.5f, 0.5f);
 *     sinew_create_polygon_shape(box, &sd, &square);
 *     for (int i = 0; i < 60; ++i) sinew_world_step(world, 1.0f / 60.0f, 4);
 *     sinew_destroy_world(world);
 *
 * Units are metres, kilograms, seconds and radians unless the world's length_units_per_meter
 * says otherwise (pixels: 100). Everything you hold is a small value handle (sinew_body_id, ...);
 * a handle to something destroyed is detected and refused. Misuse never crashes: the call reports
 * an error code and message through the error callback, returns false / a null id, and changes
 * nothing. Calls that change the world are refused while it is stepping.
 *
 * One step: broadphase (dynamic AABB tree) -> narrowphase (manifolds with feature ids) ->
 * islands (waking sleepers that are touched) -> substeps (integrate velocities, warm start,
 * solve joint rows and soft contacts, solve joint trees exactly, integrate positions, relax) ->
 * continuous collision -> joint position projection -> restitution -> joint reactions and
 * breaking -> sleep -> events.
 */
#ifndef SINEW_SINEW_H
#define SINEW_SINEW_H

#include "base.h"
#include "collision.h"
#include "id.h"
#include "math.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- defaults */

SINEW_API sinew_world_def sinew_default_world_def(void);
SINEW_API sinew_body_def sinew_default_body_def(void);
SINEW_API sinew_shape_def sinew_default_shape_def(void);

/* ---------------------------------------------------------------- world */

/** Create a world (at most 128 at once). Returns the null id and reports on a bad def. */
SINEW_API sinew_world_id sinew_create_world(const sinew_world_def *def);
/** Destroy a world and everything in it. */
SINEW_API bool sinew_destroy_world(sinew_world_id world);
/** Is this a live world? Never reports. */
SINEW_API bool sinew_world_is_valid(sinew_world_id world);
/** Advance by dt seconds (> 0) in substeps (1..64) solver substeps. */
SINEW_API bool sinew_world_step(sinew_world_id world, float dt, int substeps);
/** 64-bit hash of every body's position, angle and velocities, bit for bit, in creation order. */
SINEW_API uint64_t sinew_world_get_hash(sinew_world_id world);
/** True when every body's position, rotation and velocity is finite. Otherwise reports
 * SINEW_ERROR_NOT_FINITE naming the first such body (its index and name-free handle) and the step,
 * and returns false. Debug builds (SINEW_ASSERT on) run it after every step. */
SINEW_API bool sinew_world_is_finite(sinew_world_id world);
SINEW_API sinew_counters sinew_world_get_counters(sinew_world_id world);
/** Check the world's own bookkeeping against a scan of its pools: the awake bodies (in use,
 * enabled, awake, not static) and the contacts with an awake body, which a step visits instead of
 * the pools, and the touching count. False when they disagree (a bug in sinew). For tests and
 * debugging: it costs a scan of every pool. */
SINEW_API bool sinew_world_validate(sinew_world_id world);
/** The world's live bodies / joints in slot order (creation order until destroyed slots are
 * reused): writes up to capacity ids and returns how many it wrote (counters say how many exist). */
SINEW_API int sinew_world_get_bodies(sinew_world_id world, sinew_body_id *out, int capacity);
SINEW_API int sinew_world_get_joints(sinew_world_id world, sinew_joint_id *out, int capacity);
SINEW_API bool sinew_world_set_gravity(sinew_world_id world, sinew_vec2 gravity);
SINEW_API sinew_vec2 sinew_world_get_gravity(sinew_world_id world);
/** Turn sleeping on or off (off wakes every body). */
SINEW_API bool sinew_world_enable_sleep(sinew_world_id world, bool flag);
SINEW_API bool sinew_world_enable_continuous(sinew_world_id world, bool flag);
/** Make the world point new_origin the new origin: every body, shape, world-side joint anchor, contact
 * point and broadphase box moves by -new_origin at once, then the origin listeners are told (rigs and
 * ragdolls listen, so they follow too), for worlds larger than floats resolve well: docs/guide.md,
 * "Large worlds". Refused while the world is locked, for a non-finite origin, or when a body would
 * leave the numeric envelope; a refusal changes nothing and tells no listener. */
SINEW_API bool sinew_world_shift_origin(sinew_world_id world, sinew_vec2 new_origin);
/** Told by sinew_world_shift_origin, after the world has moved, that new_origin became the origin:
 * a world point p kept outside the world is now p - new_origin. The world is locked meanwhile (it
 * may be read, not changed). */
typedef void sinew_origin_shift_fn(sinew_world_id world, sinew_vec2 new_origin, void *context);
/** Have fn(world, new_origin, context) called at every origin shift, after those added before it:
 * how layers that keep world positions of their own (rig.h, ragdoll.h, a camera) follow one
 * sinew_world_shift_origin. Refused while locked, for a NULL fn and for a pair already added. */
SINEW_API bool sinew_world_add_origin_listener(sinew_world_id world, sinew_origin_shift_fn *fn, void *context);
/** Stop calling a pair given to sinew_world_add_origin_listener; false (reported) if it was not added. */
SINEW_API bool sinew_world_remove_origin_listener(sinew_world_id world, sinew_origin_shift_fn *fn, void *context);
/** Contact stiffness (Hz), damping ratio and push-out speed (m/s). */
SINEW_API bool sinew_world_set_contact_tuning(sinew_world_id world, float hertz, float damping_ratio, float push_speed);
SINEW_API bool sinew_world_set_restitution_threshold(sinew_world_id world, float speed);
/** Replace this world's error callback (NULL: use the process-wide one). */
SINEW_API bool sinew_world_set_error_callback(sinew_world_id world, sinew_error_fn *fn, void *context);
SINEW_API void *sinew_world_get_user_data(sinew_world_id world);
/** Report an error through the world's error callback (the process-wide one for a stale or null
 * world), as the engine's own calls do: for layers built on this API (rig.h, ragdoll.h). An
 * out-of-range code is reported as SINEW_ERROR_INVALID_ARGUMENT. */
SINEW_API void sinew_world_report_error(sinew_world_id world, sinew_error code, const char *message);
SINEW_API float sinew_world_get_length_units_per_meter(sinew_world_id world);
SINEW_API sinew_contact_events sinew_world_get_contact_events(sinew_world_id world);
SINEW_API sinew_sensor_events sinew_world_get_sensor_events(sinew_world_id world);
SINEW_API sinew_body_events sinew_world_get_body_events(sinew_world_id world);

/* ---------------------------------------------------------------- bodies */

SINEW_API sinew_body_id sinew_create_body(sinew_world_id world, const sinew_body_def *def);
/** Destroy a body with its shapes, contacts and joints (their ids go stale). */
SINEW_API bool sinew_destroy_body(sinew_body_id body);
SINEW_API bool sinew_body_is_valid(sinew_body_id body);
SINEW_API sinew_world_id sinew_body_get_world(sinew_body_id body);

SINEW_API sinew_body_type sinew_body_get_type(sinew_body_id body);
/** Change static / kinematic / dynamic at run time; shapes, joints and velocity are kept. */
SINEW_API bool sinew_body_set_type(sinew_body_id body, sinew_body_type type);

SINEW_API sinew_vec2 sinew_body_get_position(sinew_body_id body);
SINEW_API float sinew_body_get_angle(sinew_body_id body);
SINEW_API sinew_rot sinew_body_get_rotation(sinew_body_id body);
SINEW_API sinew_transform sinew_body_get_transform(sinew_body_id body);
/** Teleport the body origin (no velocity change); wakes it. */
SINEW_API bool sinew_body_set_transform(sinew_body_id body, sinew_vec2 position, float angle);
SINEW_API bool sinew_body_set_position(sinew_body_id body, sinew_vec2 position);
SINEW_API bool sinew_body_set_angle(sinew_body_id body, float angle);
/** Turn the body about its origin to exactly this unit rotation (cos, sin), bit for bit; wakes it. */
SINEW_API bool sinew_body_set_rotation(sinew_body_id body, sinew_rot rotation);
SINEW_API sinew_vec2 sinew_body_get_world_center(sinew_body_id body);
SINEW_API sinew_vec2 sinew_body_get_local_center(sinew_body_id body);
SINEW_API sinew_vec2 sinew_body_get_world_point(sinew_body_id body, sinew_vec2 local_point);
SINEW_API sinew_vec2 sinew_body_get_local_point(sinew_body_id body, sinew_vec2 world_point);
SINEW_API sinew_vec2 sinew_body_get_world_vector(sinew_body_id body, sinew_vec2 local_vector);
SINEW_API sinew_vec2 sinew_body_get_local_vector(sinew_body_id body, sinew_vec2 world_vector);

/** Velocity of the centre of mass, length units / s. */
SINEW_API sinew_vec2 sinew_body_get_linear_velocity(sinew_body_id body);
SINEW_API float sinew_body_get_angular_velocity(sinew_body_id body);
SINEW_API bool sinew_body_set_linear_velocity(sinew_body_id body, sinew_vec2 velocity);
SINEW_API bool sinew_body_set_angular_velocity(sinew_body_id body, float omega);
/** Velocity of a world point fixed to the body. */
SINEW_API sinew_vec2 sinew_body_get_point_velocity(sinew_body_id body, sinew_vec2 world_point);

/** Kinematic bodies (Godot's AnimatableBody2D): set the velocity that carries the body to target
 * in dt seconds, so it pushes dynamic bodies along the way. Dynamic bodies are refused. */
SINEW_API bool sinew_body_move_to(sinew_body_id body, sinew_transform target, float dt);

/** Force at a world point, N; accumulates until the end of the next step. */
SINEW_API bool sinew_body_apply_force(sinew_body_id body, sinew_vec2 force, sinew_vec2 point, bool wake);
SINEW_API bool sinew_body_apply_force_to_center(sinew_body_id body, sinew_vec2 force, bool wake);
/** Torque, N m. */
SINEW_API bool sinew_body_apply_torque(sinew_body_id body, float torque, bool wake);
/** Impulse at a world point, N s: changes velocity at once. */
SINEW_API bool sinew_body_apply_linear_impulse(sinew_body_id body, sinew_vec2 impulse, sinew_vec2 point, bool wake);
SINEW_API bool sinew_body_apply_linear_impulse_to_center(sinew_body_id body, sinew_vec2 impulse, bool wake);
/** Angular impulse, N m s. */
SINEW_API bool sinew_body_apply_angular_impulse(sinew_body_id body, float impulse, bool wake);

SINEW_API float sinew_body_get_mass(sinew_body_id body);
/** Rotational inertia about the centre of mass, kg m^2. */
SINEW_API float sinew_body_get_rotational_inertia(sinew_body_id body);
SINEW_API sinew_mass_data sinew_body_get_mass_data(sinew_body_id body);
/** Override mass, centre and inertia (dynamic bodies). Adding a shape with update_body_mass
 * recomputes from shapes again. */
SINEW_API bool sinew_body_set_mass_data(sinew_body_id body, sinew_mass_data mass_data);
/** Recompute mass from the shapes. */
SINEW_API bool sinew_body_apply_mass_from_shapes(sinew_body_id body);
/** Whether the body's mass comes from sinew_body_set_mass_data rather than from its shapes. */
SINEW_API bool sinew_body_is_mass_overridden(sinew_body_id body);

SINEW_API bool sinew_body_set_linear_damping(sinew_body_id body, float damping);
SINEW_API float sinew_body_get_linear_damping(sinew_body_id body);
SINEW_API bool sinew_body_set_angular_damping(sinew_body_id body, float damping);
SINEW_API float sinew_body_get_angular_damping(sinew_body_id body);
SINEW_API bool sinew_body_set_gravity_scale(sinew_body_id body, float scale);
SINEW_API float sinew_body_get_gravity_scale(sinew_body_id body);
SINEW_API bool sinew_body_set_fixed_rotation(sinew_body_id body, bool flag);
SINEW_API bool sinew_body_is_fixed_rotation(sinew_body_id body);
SINEW_API bool sinew_body_set_bullet(sinew_body_id body, bool flag);
SINEW_API bool sinew_body_is_bullet(sinew_body_id body);
SINEW_API bool sinew_body_set_sleep_threshold(sinew_body_id body, float speed);
SINEW_API float sinew_body_get_sleep_threshold(sinew_body_id body);

/** Wake (true) or put to sleep (false) the body's whole island. */
SINEW_API bool sinew_body_set_awake(sinew_body_id body, bool awake);
SINEW_API bool sinew_body_is_awake(sinew_body_id body);
/** Allow or forbid this body to sleep (forbidding wakes it). */
SINEW_API bool sinew_body_enable_sleep(sinew_body_id body, bool flag);
SINEW_API bool sinew_body_is_sleep_enabled(sinew_body_id body);

/** Take the body out of the simulation (no contacts, not in queries), keeping shapes and joints. */
SINEW_API bool sinew_body_disable(sinew_body_id body);
/** Put a disabled body back. */
SINEW_API bool sinew_body_enable(sinew_body_id body);
SINEW_API bool sinew_body_is_enabled(sinew_body_id body);

SINEW_API bool sinew_body_set_user_data(sinew_body_id body, void *user_data);
SINEW_API void *sinew_body_get_user_data(sinew_body_id body);

SINEW_API int sinew_body_get_shape_count(sinew_body_id body);
/** Write up to capacity shape ids; returns how many were written. */
SINEW_API int sinew_body_get_shapes(sinew_body_id body, sinew_shape_id *shapes, int capacity);
/** Number of touching contacts of the body. */
SINEW_API int sinew_body_get_contact_count(sinew_body_id body);
/** The body's touching contacts, normals pointing towards this body; returns how many were written. */
SINEW_API int sinew_body_get_contacts(sinew_body_id body, sinew_body_contact *contacts, int capacity);
/** The body's touching contacts as whole manifolds; returns how many were written. */
SINEW_API int sinew_body_get_contact_data(sinew_body_id body, sinew_contact_data *contacts, int capacity);
/** Bounding box of all the body's shapes. */
SINEW_API sinew_aabb sinew_body_compute_aabb(sinew_body_id body);

/* ---------------------------------------------------------------- shapes */

SINEW_API sinew_shape_id sinew_create_circle_shape(sinew_body_id body, const sinew_shape_def *def, const sinew_circle *circle);
SINEW_API sinew_shape_id sinew_create_capsule_shape(sinew_body_id body, const sinew_shape_def *def, const sinew_capsule *capsule);
/** Boxes are polygons: see sinew_make_box and friends. */
SINEW_API sinew_shape_id sinew_create_polygon_shape(sinew_body_id body, const sinew_shape_def *def, const sinew_polygon *polygon);
/** Destroy a shape; update_body_mass recomputes the body's mass from what is left. */
SINEW_API bool sinew_destroy_shape(sinew_shape_id shape, bool update_body_mass);
SINEW_API bool sinew_shape_is_valid(sinew_shape_id shape);
SINEW_API sinew_shape_type sinew_shape_get_type(sinew_shape_id shape);
SINEW_API sinew_body_id sinew_shape_get_body(sinew_shape_id shape);
/** The shape's geometry in its body's frame. */
SINEW_API sinew_geometry sinew_shape_get_geometry(sinew_shape_id shape);
SINEW_API bool sinew_shape_set_density(sinew_shape_id shape, float density, bool update_body_mass);
SINEW_API float sinew_shape_get_density(sinew_shape_id shape);
SINEW_API bool sinew_shape_set_friction(sinew_shape_id shape, float friction);
SINEW_API float sinew_shape_get_friction(sinew_shape_id shape);
SINEW_API bool sinew_shape_set_restitution(sinew_shape_id shape, float restitution);
SINEW_API float sinew_shape_get_restitution(sinew_shape_id shape);
/** Godot-style collision layer and mask. */
SINEW_API bool sinew_shape_set_filter(sinew_shape_id shape, uint32_t layer, uint32_t mask);
SINEW_API uint32_t sinew_shape_get_layer(sinew_shape_id shape);
SINEW_API uint32_t sinew_shape_get_mask(sinew_shape_id shape);
/** Collision group: shapes in the same non-zero group never collide (0: no group). */
SINEW_API bool sinew_shape_set_group(sinew_shape_id shape, uint32_t group);
SINEW_API uint32_t sinew_shape_get_group(sinew_shape_id shape);
SINEW_API bool sinew_shape_is_sensor(sinew_shape_id shape);
SINEW_API bool sinew_shape_set_user_data(sinew_shape_id shape, void *user_data);
SINEW_API void *sinew_shape_get_user_data(sinew_shape_id shape);
/** World bounding box (tight, not the broadphase's fat one). */
SINEW_API sinew_aabb sinew_shape_get_aabb(sinew_shape_id shape);
SINEW_API sinew_mass_data sinew_shape_get_mass_data(sinew_shape_id shape);

/* ---------------------------------------------------------------- joints */

SINEW_API sinew_pin_joint_def sinew_default_pin_joint_def(void);
SINEW_API sinew_revolute_joint_def sinew_default_revolute_joint_def(void);
SINEW_API sinew_prismatic_joint_def sinew_default_prismatic_joint_def(void);
SINEW_API sinew_weld_joint_def sinew_default_weld_joint_def(void);
SINEW_API sinew_distance_joint_def sinew_default_distance_joint_def(void);
SINEW_API sinew_wheel_joint_def sinew_default_wheel_joint_def(void);
SINEW_API sinew_target_joint_def sinew_default_target_joint_def(void);

/** Create a joint. World anchors and axes are turned into each body's local frame now, so the joint
 * stays right however the bodies move later. Refused (null id): stale bodies, a body jointed to
 * itself, two non-dynamic bodies are fine but do nothing, zero axis, lower > upper, NaN. */
SINEW_API sinew_joint_id sinew_create_pin_joint(sinew_world_id world, const sinew_pin_joint_def *def);
SINEW_API sinew_joint_id sinew_create_revolute_joint(sinew_world_id world, const sinew_revolute_joint_def *def);
SINEW_API sinew_joint_id sinew_create_prismatic_joint(sinew_world_id world, const sinew_prismatic_joint_def *def);
SINEW_API sinew_joint_id sinew_create_weld_joint(sinew_world_id world, const sinew_weld_joint_def *def);
SINEW_API sinew_joint_id sinew_create_distance_joint(sinew_world_id world, const sinew_distance_joint_def *def);
SINEW_API sinew_joint_id sinew_create_wheel_joint(sinew_world_id world, const sinew_wheel_joint_def *def);
SINEW_API sinew_joint_id sinew_create_target_joint(sinew_world_id world, const sinew_target_joint_def *def);
SINEW_API bool sinew_destroy_joint(sinew_joint_id joint);
SINEW_API bool sinew_joint_is_valid(sinew_joint_id joint);
SINEW_API sinew_joint_type sinew_joint_get_type(sinew_joint_id joint);
/** body_a may be the null id (the world). */
SINEW_API sinew_body_id sinew_joint_get_body_a(sinew_joint_id joint);
SINEW_API sinew_body_id sinew_joint_get_body_b(sinew_joint_id joint);
SINEW_API bool sinew_joint_set_enabled(sinew_joint_id joint, bool enabled);
SINEW_API bool sinew_joint_is_enabled(sinew_joint_id joint);
SINEW_API bool sinew_joint_set_collide_connected(sinew_joint_id joint, bool flag);
SINEW_API bool sinew_joint_set_user_data(sinew_joint_id joint, void *user_data);
SINEW_API void *sinew_joint_get_user_data(sinew_joint_id joint);

/** Break thresholds: force in N, torque in N m; 0 = never. */
SINEW_API bool sinew_joint_set_break_thresholds(sinew_joint_id joint, float force, float torque);
SINEW_API bool sinew_joint_is_broken(sinew_joint_id joint);
/** Bring back a broken (or disabled) joint at the frames it was authored with. */
SINEW_API bool sinew_joint_rebuild(sinew_joint_id joint);

/** Live changes. Each is refused for a joint type that lacks the feature (weld: no limit, ...). */
SINEW_API bool sinew_joint_set_limit(sinew_joint_id joint, sinew_joint_limit limit);
SINEW_API bool sinew_joint_set_motor(sinew_joint_id joint, sinew_joint_motor motor);
SINEW_API bool sinew_joint_set_spring(sinew_joint_id joint, sinew_joint_spring spring);
SINEW_API sinew_joint_limit sinew_joint_get_limit(sinew_joint_id joint);
SINEW_API sinew_joint_motor sinew_joint_get_motor(sinew_joint_id joint);
SINEW_API sinew_joint_spring sinew_joint_get_spring(sinew_joint_id joint);
/** Weld softness: Hz and damping ratios (0 Hz = rigid). */
SINEW_API bool sinew_weld_joint_set_softness(sinew_joint_id joint, float linear_hertz, float linear_damping_ratio,
                                             float angular_hertz, float angular_damping_ratio);
/** Distance joint lengths (rest, min, max). */
SINEW_API bool sinew_distance_joint_set_lengths(sinew_joint_id joint, float length, float min_length, float max_length);
/** Pin softness (Godot units) and bias (1/s, 0 = default). */
SINEW_API bool sinew_pin_joint_set_softness(sinew_joint_id joint, float softness, float bias);
/** Move a target joint's target to this world point, length units (wakes body B when it moves). */
SINEW_API bool sinew_target_joint_set_target(sinew_joint_id joint, sinew_vec2 target);
/** The target joint's target as a world point, length units (zero for another type, reported). */
SINEW_API sinew_vec2 sinew_target_joint_get_target(sinew_joint_id joint);
/** Target joint spring: hertz (> 0), damping ratio (>= 0) and the largest pull max_force (N, >= 0; INFINITY: no cap). */
SINEW_API bool sinew_target_joint_set_tuning(sinew_joint_id joint, float hertz, float damping_ratio, float max_force);

/* The joint as authored (what a scene file needs to rebuild it exactly). A stale id is reported and
 * reads as zeros / false. */
/** Anchor on body A in A's frame, length units (the world point when A is the world). */
SINEW_API sinew_vec2 sinew_joint_get_local_anchor_a(sinew_joint_id joint);
/** Anchor on body B in B's frame, length units. */
SINEW_API sinew_vec2 sinew_joint_get_local_anchor_b(sinew_joint_id joint);
/** Unit axis in A's frame (prismatic, wheel; zero for the other types). */
SINEW_API sinew_vec2 sinew_joint_get_local_axis_a(sinew_joint_id joint);
/** Relative angle of B to A that counts as zero, radians. */
SINEW_API float sinew_joint_get_reference_angle(sinew_joint_id joint);
/** World-frame limits: direction of the A-centre -> B-centre vector taken as zero, radians. */
SINEW_API float sinew_joint_get_swing_reference(sinew_joint_id joint);
/** Break thresholds: force in N, torque in N m (0 = never); either pointer may be NULL. */
SINEW_API bool sinew_joint_get_break_thresholds(sinew_joint_id joint, float *force, float *torque);
SINEW_API bool sinew_joint_get_collide_connected(sinew_joint_id joint);
/** Distance joint lengths (rest, min, max), length units; pointers may be NULL. */
SINEW_API bool sinew_distance_joint_get_lengths(sinew_joint_id joint, float *length, float *min_length,
                                                float *max_length);
/** Weld softness: Hz and damping ratios (0 Hz = rigid); pointers may be NULL. */
SINEW_API bool sinew_weld_joint_get_softness(sinew_joint_id joint, float *linear_hertz, float *linear_damping_ratio,
                                             float *angular_hertz, float *angular_damping_ratio);
/** Pin softness (Godot units) and bias (1/s, 0 = default); pointers may be NULL. */
SINEW_API bool sinew_pin_joint_get_softness(sinew_joint_id joint, float *softness, float *bias);
/** Target joint spring: hertz, damping ratio and max force (N, INFINITY: no cap); pointers may be NULL. */
SINEW_API bool sinew_target_joint_get_tuning(sinew_joint_id joint, float *hertz, float *damping_ratio, float *max_force);
/** Replace the authored anchors (body-local, length units; the world point for the world side). */
SINEW_API bool sinew_joint_set_local_anchors(sinew_joint_id joint, sinew_vec2 local_anchor_a, sinew_vec2 local_anchor_b);
/** Replace the axis in A's frame (prismatic, wheel); kept as given when within 1e-5 of unit length, else normalised. */
SINEW_API bool sinew_joint_set_local_axis_a(sinew_joint_id joint, sinew_vec2 local_axis);
/** Replace the reference angle, radians. */
SINEW_API bool sinew_joint_set_reference_angle(sinew_joint_id joint, float angle);
/** Replace the swing reference of world-frame limits, radians. */
SINEW_API bool sinew_joint_set_swing_reference(sinew_joint_id joint, float angle);

/** Reaction force on body B in the last step, N (world frame). */
SINEW_API sinew_vec2 sinew_joint_get_reaction_force(sinew_joint_id joint);
/** Reaction torque on body B in the last step, N m. */
SINEW_API float sinew_joint_get_reaction_torque(sinew_joint_id joint);
/** Linear position error now, length units: anchor separation (pin, revolute, weld), distance off
 * the axis (prismatic, wheel), distance outside [min, max] (distance). */
SINEW_API float sinew_joint_get_linear_error(sinew_joint_id joint);
/** Relative angle of B to A minus the reference angle, radians (pin: the world swing angle). */
SINEW_API float sinew_joint_get_angle(sinew_joint_id joint);
/** Relative angular speed of B to A, rad/s. */
SINEW_API float sinew_joint_get_angular_speed(sinew_joint_id joint);
/** Position along the axis (prismatic, wheel) or length (distance), length units. */
SINEW_API float sinew_joint_get_translation(sinew_joint_id joint);
/** Rate of change of the translation, length units / s. */
SINEW_API float sinew_joint_get_linear_speed(sinew_joint_id joint);
/** How far the current angle or translation is outside the limit (0 inside or without a limit),
 * measured in the limit's own frame: radians or length units. A world-frame limit's swing is
 * measured to the nearer bound, the short way round. */
SINEW_API float sinew_joint_get_limit_violation(sinew_joint_id joint);

SINEW_API int sinew_body_get_joint_count(sinew_body_id body);
/** Write up to capacity joint ids of the body; returns how many were written. */
SINEW_API int sinew_body_get_joints(sinew_body_id body, sinew_joint_id *joints, int capacity);
/** Joints that broke in the last step. */
SINEW_API sinew_joint_events sinew_world_get_joint_events(sinew_world_id world);

/* ---------------------------------------------------------------- queries */
/* Read-only searches of the world's shapes (static, kinematic and dynamic; disabled bodies are
 * never seen). A NULL filter is sinew_default_query_filter(). Queries are refused while the world
 * steps, allowed from inside another query's callback, and never allocate. Translations, points
 * and boxes are world length units. See docs/queries.md. */

/** A filter that sees every layer, no sensors, and skips shapes containing the ray's origin. */
SINEW_API sinew_query_filter sinew_default_query_filter(void);
/** The nearest shape the segment origin -> origin + translation (length units) hits; ties go to the lowest shape. */
SINEW_API sinew_ray_hit sinew_world_cast_ray_closest(sinew_world_id world, sinew_vec2 origin, sinew_vec2 translation,
                                                     const sinew_query_filter *filter);
/** Every shape the segment hits, nearest first (ties: lowest shape): writes the nearest min(found, capacity)
 * hits and returns how many were found, which may exceed capacity (hits may be NULL when capacity is 0). */
SINEW_API int sinew_world_cast_ray_all(sinew_world_id world, sinew_vec2 origin, sinew_vec2 translation,
                                       const sinew_query_filter *filter, sinew_ray_hit *hits, int capacity);
/** Each hit, in tree order, to fn, whose return clips, ignores or stops (sinew_ray_fn); hits beyond the
 * current clip are not reported. Returns the number of calls made. */
SINEW_API int sinew_world_cast_ray(sinew_world_id world, sinew_vec2 origin, sinew_vec2 translation,
                                   const sinew_query_filter *filter, sinew_ray_fn *fn, void *context);
/** Move geometry from transform along translation (length units): the first shape hit, where the gap closes
 * to the linear slop; ties go to the lowest shape. */
SINEW_API sinew_shape_hit sinew_world_cast_shape(sinew_world_id world, const sinew_geometry *geometry,
                                                 sinew_transform transform, sinew_vec2 translation,
                                                 const sinew_query_filter *filter);
/** The same for a body's non-sensor shapes at its transform; the body itself is never hit. */
SINEW_API sinew_shape_hit sinew_world_cast_body(sinew_world_id world, sinew_body_id body, sinew_vec2 translation,
                                                const sinew_query_filter *filter);
/** Godot's cast_motion: the fraction of translation that is safe (no overlap; gap >= linear slop to every shape)
 * and the unsafe one (first contact: a gap within a quarter slop); [1, 1] when nothing is met. Returns false
 * (after reporting, with [0, 0]) on bad input. */
SINEW_API bool sinew_world_cast_motion(sinew_world_id world, const sinew_geometry *geometry, sinew_transform transform,
                                       sinew_vec2 translation, const sinew_query_filter *filter, float *safe_fraction,
                                       float *unsafe_fraction);
/** cast_motion for a body's non-sensor shapes at its transform, never hitting the body itself. */
SINEW_API bool sinew_world_cast_body_motion(sinew_world_id world, sinew_body_id body, sinew_vec2 translation,
                                            const sinew_query_filter *filter, float *safe_fraction,
                                            float *unsafe_fraction);
/** Shapes whose bounding box (tight, at their current transform) overlaps aabb, to fn (may be NULL: count
 * only); returns how many were reported. */
SINEW_API int sinew_world_overlap_aabb(sinew_world_id world, sinew_aabb aabb, const sinew_query_filter *filter,
                                       sinew_overlap_fn *fn, void *context);
/** Shapes that overlap or touch geometry at transform (GJK distance 0), to fn; returns how many were reported. */
SINEW_API int sinew_world_overlap_shape(sinew_world_id world, const sinew_geometry *geometry, sinew_transform transform,
                                        const sinew_query_filter *filter, sinew_overlap_fn *fn, void *context);
/** Shapes containing the world point (boundary included), to fn; returns how many were reported. */
SINEW_API int sinew_world_overlap_point(sinew_world_id world, sinew_vec2 point, const sinew_query_filter *filter,
                                        sinew_overlap_fn *fn, void *context);

#ifdef __cplusplus
}
#endif
#endif
