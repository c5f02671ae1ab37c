/* Internal state of a world: pools of bodies, shapes and contacts, the broadphase, the per-step
 * solver arrays and the event buffers. Only solver/ includes this. */
#ifndef SINEW_WORLD_H
#define SINEW_WORLD_H

#include "core.h"
#include "separation.h"
#include "sinew/sinew.h"

#define SINEW_MAX_WORLDS 128
/* Largest capacity a world def may reserve (and so body_capacity + 1 cannot overflow). */
#define SINEW_MAX_CAPACITY (1 << 24)
#define SINEW_NULL_INDEX (-1)

/* Tolerances in metres, scaled by length_units_per_meter at world creation. */
#define SINEW_LINEAR_SLOP 0.005f
#define SINEW_SPECULATIVE_DISTANCE (4.0f * SINEW_LINEAR_SLOP)
#define SINEW_AABB_MARGIN 0.1f
/* Contact recycling (contact.c): a manifold is reused while the bodies moved less than this
 * relative to each other since it was found; it is found with its reach padded by the second. */
#define SINEW_RECYCLE_TOLERANCE (0.1f * SINEW_LINEAR_SLOP)
#define SINEW_RECYCLE_PADDING SINEW_LINEAR_SLOP
#define SINEW_TIME_TO_SLEEP 0.5f
/* Relax passes per substep: the second one settles stacks and mass ratios (see docs/architecture.md). */
#define SINEW_RELAX_ITERATIONS 2
/* overlap the contact position pass leaves in place, metres (contact_push.c) */
#define SINEW_PUSH_ALLOWANCE (0.1f * SINEW_LINEAR_SLOP)
/* most a contact's lift may reach, metres (a 200 kg box on a 0.5 kg one needs 2.8 cm) */
#define SINEW_PUSH_MAX_LIFT (20.0f * SINEW_LINEAR_SLOP)
/* Colours of the contact graph (contact_wide.c); constraints that find none are solved one by one. */
#define SINEW_GRAPH_COLOURS 24
/* Written by sinew_default_*_def(): a def that lacks it was not initialised. */
#define SINEW_DEF_COOKIE 0x51e3

enum { SINEW_TREE_STATIC = 0, SINEW_TREE_KINEMATIC = 1, SINEW_TREE_DYNAMIC = 2, SINEW_TREE_COUNT = 3 };

typedef struct sinew_body {
	sinew_transform xf;      /* origin transform */
	sinew_vec2 center;       /* world centre of mass */
	sinew_vec2 center0;      /* centre of mass at the start of the step */
	double tree_energy;      /* first body of a joint tree: how far its ceiling lay above its energy after the last step (joint_tree.c) */
	int32_t tree_energy_step; /* the step tree_energy is for */
	sinew_rot q0;            /* rotation at the start of the step */
	sinew_vec2 local_center; /* centre of mass in the body frame */
	sinew_vec2 v;            /* solver velocity of the centre of mass (see v_half) */
	float w;
	/* Symplectic Euler moves a body by h * v_end each substep, which under constant acceleration a
	 * is exact when v_end is the velocity half a substep earlier than the true one. So the solver's
	 * v lags the true velocity by half of the last substep's change, kept here and added back when
	 * the velocity is read: free fall is exact, and a body at rest reads zero. */
	sinew_vec2 v_half;
	float w_half;
	sinew_vec2 force;
	float torque;
	float mass, inv_mass, inertia, inv_inertia;
	float linear_damping, angular_damping, gravity_scale;
	float sleep_threshold, sleep_time;
	float max_extent; /* largest distance from the centre of mass to a shape's surface */
	float origin_extent; /* max_extent + |local_center|: a bound from the origin (contact.c's recycling) */
	float thinnest;   /* half-thickness of its thinnest solid shape (body.c), SINEW_HUGE without one */
	void *user_data;
	uint64_t creation_seq;
	int32_t shape_list;   /* first shape, linked through sinew_shape.next */
	int32_t shape_count;
	int32_t contact_list; /* first contact, linked through sinew_contact.edges */
	int32_t contact_count;
	int32_t joint_list;
	int32_t joint_count;
	int32_t solver_index; /* slot in the step's solver body array; 0 = static/asleep */
	int32_t island_mark;  /* step number of the last island visit */
	int32_t next_free;
	uint32_t generation;
	uint8_t type;
	bool in_use, enabled, awake, can_sleep, fixed_rotation, bullet, mass_overridden;
	bool velocity_set; /* v is a true velocity set by the user, not yet shifted */
} sinew_body;

typedef struct sinew_shape {
	sinew_geometry geom;
	sinew_separation_bound bound; /* of geom, for the narrowphase's early out (contact.c) */
	sinew_aabb aabb;     /* tight box at the last update */
	sinew_aabb fat_aabb; /* the box stored in the tree */
	float density, friction, restitution;
	uint32_t layer, mask;
	uint32_t group; /* same non-zero group: never collide */
	void *user_data;
	int32_t body;
	int32_t next; /* next shape of the same body, or next free slot */
	int32_t proxy;
	int32_t tree;
	uint32_t generation;
	bool in_use, sensor, enable_contact_events, enable_sensor_events, moved;
} sinew_shape;

typedef struct sinew_contact_edge {
	int32_t body;
	int32_t prev, next; /* neighbouring contacts in that body's list */
} sinew_contact_edge;

enum {
	SINEW_CONTACT_TOUCHING = 1u << 0,
	SINEW_CONTACT_SENSOR = 1u << 1,
	SINEW_CONTACT_EVENTS = 1u << 2,
	SINEW_CONTACT_SENSOR_EVENTS = 1u << 3,
};

/* The narrowphase result a contact keeps for recycling (contact.c): the manifold found with reach
 * `reach`, its points and normal in the bodies' frames, and where B's origin and rotation were
 * in A's frame when it was found. */
typedef struct sinew_contact_cache {
	sinew_vec2 local_a[2], local_b[2]; /* each point on A (A's frame, from A's origin) and on B */
	float separation[2];
	uint16_t id[2];
	sinew_vec2 normal; /* A's frame */
	int32_t point_count;
	sinew_vec2 relative_p; /* B's origin in A's frame */
	sinew_rot relative_q;  /* B's rotation relative to A's */
	float reach;
	bool valid;
} sinew_contact_cache;

typedef struct sinew_contact {
	/* first what every step reads of every contact, sleeping ones too */
	bool in_use;
	uint32_t flags;
	sinew_contact_edge edges[2]; /* [0] for shape_a's body, [1] for shape_b's */
	int32_t shape_a, shape_b;
	int32_t next_free;
	float friction, restitution;
	float warm_normal[2], warm_tangent[2]; /* per-substep impulses carried to the next step */
	float lift; /* how far the position pass has moved the pair apart out of its load (contact_push.c) */
	sinew_manifold manifold;
	sinew_contact_cache cache;
} sinew_contact;

/* A body's velocity state in the step: contiguous, only awake non-static bodies (slot 0 is a
 * static dummy so constraints never branch on "is this body static"). One cache line each: the
 * array starts on a 64-byte boundary (sinew_solver_bodies_size), so the contact passes' two reads
 * of a body (v, w, inv_mass and dp, dq) and their write of v, w never split a line or touch two. */
typedef struct sinew_solver_body {
	sinew_vec2 v;
	float w;
	float inv_mass;
	sinew_vec2 dp;       /* change of the centre of mass position during the step */
	sinew_rot dq;        /* change of rotation during the step */
	float inv_inertia;
	sinew_vec2 dv;       /* velocity change per substep from gravity and forces */
	float dw;            /* angular velocity change per substep from torque */
	float linear_keep;   /* velocity kept per substep under damping: 1 / (1 + h d) */
	float angular_keep;
	sinew_vec2 center_offset; /* centre of mass less the origin, world frame, at the start of the step (prepare reads it) */
} sinew_solver_body;
#define SINEW_SOLVER_BODY_ALIGN 64
_Static_assert(sizeof(sinew_solver_body) == SINEW_SOLVER_BODY_ALIGN, "a solver body is one cache line");

/* A body's velocity at the start of the step's last substep, before forces (solver.c). */
typedef struct sinew_solver_start {
	sinew_vec2 v;
	float w;
} sinew_solver_start;

typedef struct sinew_contact_point_constraint {
	sinew_vec2 r_a, r_b;     /* anchors from the centres of mass at the start of the step */
	float base_separation;   /* separation minus the anchor offset along the normal */
	float normal_mass, tangent_mass;
	float normal_impulse, tangent_impulse, max_normal_impulse;
	float relative_velocity; /* normal velocity before the step, for restitution */
	float total_normal_impulse, total_tangent_impulse; /* applied over the whole step */
} sinew_contact_point_constraint;

/* A contact point's response through a joint tree (contact_tree.c): per tree node, the velocity
 * change of a body or the impulses of a joint's rigid rows for a unit impulse of the point. */
typedef struct sinew_tree_response {
	int32_t node;
	float y[3];
} sinew_tree_response;

/* A contact constraint between a free body and a joint tree (contact_tree.c): what its points'
 * normal masses and their coupling gain (k[0], k[1], k[2]), per point its run of responses in
 * world->tree_response, and which side is on the tree (-1: neither, the bodies' own masses). */
typedef struct sinew_tree_contact {
	float k[3];
	int32_t response[2][2];
	int8_t side;
} sinew_tree_contact;

typedef struct sinew_contact_constraint {
	sinew_contact_point_constraint points[2];
	sinew_vec2 normal;
	float friction, restitution;
	float bias_rate, mass_scale, impulse_scale; /* contact softness over one substep */
	float k11, k12, k22;                        /* normal mass matrix of a two-point manifold */
	float force_dv;                             /* relative normal velocity change per substep from gravity and forces */
	float lift;                                 /* the position pass's lift of the pair (contact_push.c) */
	bool block;                                 /* solve the two points together */
	bool hold;                                  /* a body has joints: relax holds pushing speculative points (contact_solver.c) */
	int32_t body_a, body_b;                     /* solver body slots */
	int32_t contact;                            /* index in the contact pool */
	int32_t point_count;
	int32_t ref;                                /* its place in constraint_refs */
	bool tree;                                  /* pushes a joint tree through its response (contact_tree.c) */
} sinew_contact_constraint;

/* Where a contact constraint of the step lives: a lane of the coloured wide constraints, or the
 * overflow list (contact_wide.c). */
typedef struct sinew_constraint_ref {
	int32_t contact;        /* index in the contact pool */
	int32_t body_a, body_b; /* solver body slots */
	int32_t slot;           /* >= 0: wide constraint slot / 4, lane slot % 4; < 0: world.constraints[-1 - slot] */
} sinew_constraint_ref;

/* Continuous collision: the end of a fast body's shape that touched an obstacle at the start of the
 * step (continuous.c). */
typedef struct sinew_sweep_pivot {
	sinew_vec2 point;  /* the end's centre, body frame (the centre of mass when none) */
	float radius;      /* the end's radius */
	float gap;         /* its signed gap to the obstacle at the start of the step */
	int32_t obstacle;  /* shape index; SINEW_NULL_INDEX: the body touched nothing */
} sinew_sweep_pivot;

/* A set of pool indices visited in ascending order, kept as members come and go (awake.c). */
typedef struct sinew_index_set {
	int32_t *items;   /* ascending; may still list indices removed since the last flush */
	int32_t *pending; /* added since the last flush, in no order (in a walk: a min-heap of those added during it) */
	int32_t *scratch; /* the flush's merge, swapped with items (in a walk: what it added and went past) */
	int32_t *dropped; /* removed since the last flush, in no order (may name one added and removed since) */
	uint8_t *member;  /* per pool index: in the set */
	uint64_t *bits;   /* a bit per pool index, all clear between flushes (the flush sorts through it) */
	int32_t count;    /* members */
	int32_t removed;  /* removed since the last flush */
	bool dropped_lost; /* dropped overflowed: the flush scans all of items */
	bool walking;     /* a walk reads pending: do not flush */
} sinew_index_set;

/* A walk over a set in ascending order that also visits indices added during the walk past it. */
typedef struct sinew_index_walk {
	size_t i;       /* next item */
	int32_t cursor; /* the last index visited */
} sinew_index_walk;

typedef struct sinew_world {
	sinew_world_def def;
	float lengths; /* length_units_per_meter */
	float linear_slop, speculative_distance, aabb_margin, max_linear_speed, push_max_speed;
	float recycle_tolerance, recycle_padding; /* contact recycling (contact.c) */
	sinew_body *bodies;       /* stb_ds pool */
	int32_t body_free;
	int32_t *body_order;      /* body indices in creation order; -1 for destroyed */
	int32_t body_order_dead;
	uint64_t next_creation_seq;
	sinew_shape *shapes;
	int32_t shape_free;
	sinew_contact *contacts;
	int32_t contact_free;
	int32_t body_count, shape_count, contact_count;
	sinew_dynamic_tree trees[SINEW_TREE_COUNT];
	int32_t *moved_shapes;  /* shapes whose fat box changed: they look for new pairs */
	int64_t *pair_buffer;   /* candidate pairs (shape_a << 32 | shape_b) */
	/* every contact by its shape pair: open addressing, linear probing, key 0 empty (broadphase.c) */
	struct { uint64_t *keys; int32_t *contacts; int32_t capacity, count; } pair_set;
	/* per-step scratch, kept between steps so a step of a sized world never allocates */
	sinew_solver_body *solver_bodies; /* into solver_body_store, from its first 64-byte boundary */
	sinew_solver_body *solver_body_store;
	sinew_solver_start *solver_start; /* per solver slot */
	int32_t *awake_bodies;  /* body index of each solver slot (slot 0 unused) */
	float contact_bias_rate, contact_mass_scale, contact_impulse_scale; /* the step's contact softness */
	int8_t wide_simd; /* the kernel the step solves the coloured contacts with (sinew_contacts_wide_simd) */
	sinew_constraint_ref *constraint_refs; /* every contact constraint of the step, in contact order */
	int32_t *restitution_refs;             /* those with restitution, in the same order */
	sinew_contact_constraint *constraints; /* the overflow: constraints that found no colour, solved one by one */
	struct sinew_contact_wide *wide_constraints; /* the coloured constraints, eight lanes each, colour by colour */
	int32_t colour_start[SINEW_GRAPH_COLOURS + 1]; /* each colour's first wide constraint */
	int32_t colour_count[SINEW_GRAPH_COLOURS];     /* each colour's constraints (lanes in use) */
	uint64_t *colour_bits;         /* per solver slot, a bit per colour it has (all set: a body that does not move) */
	/* the contact position pass (contact_push.c): each constraint's geometry and lift (in
	 * constraint_refs order), each solver slot's level above the fixed bodies, its constraints
	 * (compressed rows), a queue, the visiting order and a counting sort's counts */
	struct sinew_push_constraint *push_constraints;
	int32_t *push_level, *push_start, *push_adjacent, *push_queue, *push_order, *push_count;
	int32_t *push_supports; /* each solver slot's contacts with bodies of a lower level */
	sinew_vec2 *push_before; /* each solver slot's dp before the pass */
	/* free bodies on joint trees (contact_tree.c): per constraint (constraint_refs order) its part on
	 * a tree, the responses, and the (tree, constraint, point) touches grouped by tree */
	struct sinew_tree_contact *tree_contacts;
	struct sinew_tree_response *tree_response;
	struct sinew_tree_touch *tree_touches, *tree_touches_sorted;
	int32_t *tree_touch_start;
	int32_t *island_stack;
	int32_t *island_bodies;
	int32_t *figure_bodies; /* continuous.c: one figure to rewind; island_bodies is still needed by the sleep update */
	/* island.c: each body's parent in the step's union-find of islands, -1 for a body not in one
	 * (every body between steps), and whether it keeps its island awake; each island's flags */
	int32_t *island_parent;
	uint8_t *island_keep;
	int32_t *island_flags;
	/* contact.c: the body pairs of the touching non-sensor contacts the narrowphase visited, and
	 * whether those are all of the step's (no body woken during the walk) */
	int32_t *touching_pairs;
	bool touching_pairs_complete;
	/* awake.c: the bodies the step solves (in use, enabled, awake, not static) and the contacts it
	 * refreshes (with an awake body), kept as bodies wake, sleep, come and go */
	sinew_index_set awake_set;
	sinew_index_set awake_contacts;
	int32_t touching_live; /* touching non-sensor contacts now (touching_count: at the last narrowphase) */
	/* events of the last step */
	sinew_contact_begin_event *begin_events;
	sinew_contact_end_event *end_events;
	sinew_sensor_event *sensor_begin_events;
	sinew_sensor_event *sensor_end_events;
	sinew_body_move_event *move_events;
	sinew_joint_broken_event *joint_broken_events;
	/* joints */
	struct sinew_joint *joints;
	int32_t joint_free;
	int32_t joint_count;
	uint32_t joint_lists_changed; /* counts every joint linked to or unlinked from a body (joint.c) */
	struct sinew_row_constraint *joint_rows; /* rows of the active joints this step */
	int32_t *active_joints;
	struct sinew_effort_row *effort_rows; /* the springs and motors among joint_rows, in order (joint_solve.c) */
	int32_t *sequential_rows; /* the other rows solved one by one: in no tree or loop, owned by no tree */
	struct sinew_tree_node *tree_nodes;      /* joint trees, parents before children */
	int32_t *tree_body_node;                 /* tree node of each solver slot, -1 if none */
	struct sinew_tree_range *tree_ranges;    /* each tree's run of nodes */
	int32_t *tree_lists;                     /* each tree's nodes by kind (sinew_tree_range.bodies...) */
	struct sinew_tree_keep *tree_keep;       /* each tree node's state before a velocity solve (joint_tree.c) */
	double *tree_turn;                       /* per tree node: its internal stiffness, then its response to a
	                                          * torque of every body's (joint_tree.c, common_turn) */
	/* what the trees were last grown from, to grow them again only when it changed (joint_tree.c,
	 * sinew_joint_tree_build): per solver slot its body (negated when not dynamic); per active joint
	 * its index, row count and tree_node; per row its kind and point */
	int32_t *tree_grown_slots;
	int32_t *tree_grown_joints;
	uint8_t *tree_grown_rows;
	uint32_t tree_grown_lists; /* joint_lists_changed when they were grown */
	bool tree_grown;           /* the arrays above describe tree_nodes */
	int32_t *loop_rows;                      /* rigid rows closing loops, solved exactly through the trees */
	double *loop_matrix;                     /* their Schur complement through the trees, factored */
	double *loop_work;                       /* conjugate gradients on the loop rows (joint_loops.c) */
	int32_t *loop_nodes;                     /* the body nodes of each loop row's two ends, -1: fixed */
	int32_t *loop_rows_before;               /* last step's loop rows, to know if loop_position still fits */
	double *loop_position;                   /* the position step's loop impulses, its next start */
	double *loop_jacobians;                  /* each loop row's ja and jb in double, for the products */
	bool loop_jacobians_fresh;               /* loop_jacobians are those of the rows now */
	struct sinew_loop_node *loop_pack;       /* the trees' factorisation as the loops' products read it */
	double *loop_pack_y;                     /* and their right-hand sides, three per body there */
	int32_t *loop_pack_index;                /* each tree node's place in loop_pack (bodies of loop trees), else -1 */
	bool *loop_needed;                       /* tree nodes whose inverse block the preconditioner needs */
	int32_t *loop_pack_ends;                 /* loop_nodes as places in loop_pack, and runs of rows with the same ends */
	double *loop_pack_turn;                  /* per place in loop_pack: its node's four tree_turn entries */
	int32_t *loop_pack_trees;                /* per tree in loop_pack: its first place and its tree, then the end */
	double *loop_increment;                  /* per loop row: what the last biased pass added (joint_loops.c) */
	int32_t *loop_tree_joint;                /* per solver slot: the joint to its tree parent chosen by joint_loops.c (-2: any) */
	int32_t *loop_tree_depth;                /* per solver slot: its distance from its tree's root (joint_loops.c) */
	int32_t *loop_tree_queue;                /* the breadth-first queue that finds it */
	bool loop_pack_fresh;                    /* loop_pack is the factorisation now (joint_loops.c) */
	double loop_residual;                    /* root-mean-square speed of the loop rows after their last solve */
	bool loops_iterative;                    /* too many loop rows for the matrix: solved by conjugate gradients */
	float *sweep_fractions;                  /* continuous collision: earliest impact of each solver slot */
	struct sinew_sweep_pivot *sweep_pivots;  /* and the end of the body it stood on, if any */
	float joint_bias_rate;                   /* position correction of rigid joint rows, 1/s, this step */
	sinew_vec2 gravity;
	int32_t step_index;
	int32_t island_count;
	int32_t touching_count;
	uint16_t index; /* world0 */
	uint32_t generation;
	bool locked;               /* stepping, or a query is running */
	bool reported_non_finite;  /* the check after each step has reported a non-finite body */
	bool out_of_memory;        /* an allocation failed mid-change: every change is refused, destroy works */
	const char *callback_lock; /* non-NULL: a draw or error callback runs; says which, for the refusal */
	struct sinew_origin_listener *origin_listeners; /* told of each origin shift, in registration order (origin.c) */
	bool in_use;
} sinew_world;

/* world.c */
sinew_world *sinew_world_get(sinew_world_id id, const char *fn);
sinew_world *sinew_world_from_index(uint32_t world0, const char *fn);
/* The world in slot world0 or NULL, without reporting. */
sinew_world *sinew_world_peek(uint32_t world0);
sinew_world_id sinew_make_world_id(const sinew_world *world);
/* False (reported) when the world's slot has no generations left for a new body, shape or joint. */
bool sinew_world_can_create(sinew_world *world, const char *fn);
/* The generation of a new body, shape or joint (after sinew_world_can_create): unique in the
 * world's slot for the life of the process. */
uint32_t sinew_world_next_generation(sinew_world *world);
void sinew_world_error(sinew_world *world, sinew_error code, const char *format, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
bool sinew_world_check_unlocked(sinew_world *world, const char *fn);
/* After a guarded entry point caught a failed allocation (core.h, sinew_oom_guard): mark the
 * world in slot world0 out of memory (unlocked, so it can be destroyed) and report it. */
void sinew_world_out_of_memory(uint32_t world0, const char *fn);

/* An entry point run under an out-of-memory guard: `spec type name params` (spec: static or
 * nothing) calls `call`; a failed allocation inside returns `failure` after
 * sinew_world_out_of_memory(world0, name). */
#define SINEW_GUARDED(spec, type, name, params, call, world0, failure)                                                 \
	spec type name params                                                                                              \
	{                                                                                                                  \
		sinew_oom_guard guard_;                                                                                        \
		sinew_oom_enter(&guard_);                                                                                      \
		if (setjmp(guard_.jump) != 0) {                                                                                \
			sinew_world_out_of_memory((uint32_t)(world0), #name);                                                      \
			return failure;                                                                                            \
		}                                                                                                              \
		type result_ = call;                                                                                           \
		sinew_oom_leave(&guard_);                                                                                      \
		return result_;                                                                                                \
	}
/* Refuse changes while a draw or error callback runs (reason completes "the world is locked (...)");
 * unlock restores what lock returned, so locks nest. Reads and queries stay allowed. */
const char *sinew_world_lock_for(sinew_world *world, const char *reason);
void sinew_world_unlock(sinew_world *world, const char *prev);
/* Around internal work that calls the collision layer (tree, distance): its reports go to the
 * world's callback, which runs with the world locked like any other error callback. */
typedef struct sinew_world_scope { sinew_error_scope errors; const char *lock; } sinew_world_scope;
sinew_world_scope sinew_world_scope_enter(sinew_world *world);
void sinew_world_scope_leave(sinew_world *world, sinew_world_scope previous);

/* The numeric envelope (types.h): finite and |x| <= limit, else reported naming value and limit. */
bool sinew_check_within(sinew_world *world, const char *fn, const char *what, float x, float limit);
bool sinew_check_within_vec(sinew_world *world, const char *fn, const char *what, sinew_vec2 v, float limit);
/* The limits scaled to the world's length units. */
float sinew_world_max_coordinate(const sinew_world *world);
float sinew_world_max_size(const sinew_world *world);
float sinew_world_max_speed(const sinew_world *world);

/* body.c */
sinew_body *sinew_body_lookup(sinew_body_id id, sinew_world **world_out, const char *fn);
sinew_body_id sinew_make_body_id(const sinew_world *world, int32_t index);
void sinew_body_update_mass(sinew_world *world, sinew_body *body);
void sinew_body_wake(sinew_world *world, sinew_body *body);
void sinew_body_sync_transform(sinew_body *body);
void sinew_body_destroy_contacts(sinew_world *world, sinew_body *body);

/* shape.c */
sinew_shape_id sinew_make_shape_id(const sinew_world *world, int32_t index);
void sinew_shape_create_proxy(sinew_world *world, sinew_shape *shape, const sinew_body *body);
void sinew_shape_destroy_proxy(sinew_world *world, sinew_shape *shape);
int32_t sinew_tree_for_body(const sinew_body *body);

/* broadphase.c */
void sinew_broadphase_update_pairs(sinew_world *world);
void sinew_broadphase_refresh_body(sinew_world *world, sinew_body *body, bool force_move);
bool sinew_shapes_should_collide(const sinew_shape *a, const sinew_shape *b);
/* The contact of a shape pair: recorded when made, forgotten when destroyed, found without a walk. */
/* Room for `more` pairs; false (reported) when out of memory. */
bool sinew_pair_set_reserve(sinew_world *world, int32_t more);
void sinew_pair_set_add(sinew_world *world, int32_t shape_a, int32_t shape_b, int32_t contact);
void sinew_pair_set_remove(sinew_world *world, int32_t shape_a, int32_t shape_b);
void sinew_pair_set_free(sinew_world *world);

/* contact.c */
void sinew_contact_create(sinew_world *world, int32_t shape_a, int32_t shape_b);
void sinew_contact_destroy(sinew_world *world, int32_t contact, bool report);
void sinew_contacts_update(sinew_world *world, float dt);
/* Which of the contact's edges is the body's: inline, as island walks and list edits call it
 * for every contact they pass. */
static inline int sinew_contact_edge_of(const sinew_contact *c, int32_t body)
{
	return c->edges[0].body == body ? 0 : 1;
}

/* contact_solver.c */
/* Position correction rate of a soft constraint of that frequency and damping over substep h, 1/s. */
float sinew_soft_bias_rate(float hertz, float zeta, float h);
/* The three coefficients of a soft constraint (see contact_solver.c). */
void sinew_soft_coefficients(float hertz, float zeta, float h, float *bias_rate, float *mass_scale, float *impulse_scale);
void sinew_contacts_prepare(sinew_world *world, float h);
void sinew_contacts_warm_start(sinew_world *world, bool first_substep);
/* The kinds of contact pass in a substep: the biased one before the positions are integrated, then
 * the relax passes; the first relax pass keeps each point's speculative bias (its separation does
 * not change until the next substep's positions) and the next ones read it back. */
typedef enum sinew_contact_pass {
	SINEW_CONTACT_PASS_BIASED,
	SINEW_CONTACT_PASS_RELAX,
	SINEW_CONTACT_PASS_RELAX_AGAIN,
} sinew_contact_pass;
void sinew_contacts_solve(sinew_world *world, float inv_h, sinew_contact_pass pass);
void sinew_contacts_restitution(sinew_world *world);
void sinew_contacts_store(sinew_world *world);
/* contact_push.c: the position pass on contacts overlapping under load, after the substeps. Prepare
 * writes each constraint's geometry here as it builds the constraint, then the order is found once
 * per step. */
typedef struct sinew_push_constraint {
	sinew_vec2 normal, r_a[2], r_b[2];
	float base_separation[2], lift;
	int32_t body_a, body_b, point_count;
} sinew_push_constraint;
/* contact_tree.c: the effective masses of contacts on joint trees (after the trees are factored) */
void sinew_contacts_tree_mass(sinew_world *world);
void sinew_contact_tree_apply(sinew_world *world, const sinew_contact_constraint *cc, int point, float impulse);
void sinew_contacts_order_push(sinew_world *world);
void sinew_contacts_push(sinew_world *world);

/* Point j's impulses of the step into contact c: the next step's warm start (the last substep's
 * impulses) and the manifold's report (the step's totals). */
static inline void sinew_contact_store_point(sinew_contact *c, int j, float normal, float tangent, float total_normal,
                                             float total_tangent, float max_normal, float velocity)
{
	sinew_manifold_point *mp = &c->manifold.points[j];
	c->warm_normal[j] = normal;
	c->warm_tangent[j] = tangent;
	mp->normal_impulse = total_normal + normal;
	mp->tangent_impulse = total_tangent + tangent;
	mp->max_normal_impulse = max_normal;
	mp->normal_velocity = velocity;
}

/* contact_wide.c: the coloured constraints, eight at a time. colour gives every constraint_ref its
 * slot, sizes the wide constraints and world.constraints (the overflow) and pads the last block of
 * each colour; pack writes one constraint into its lane; read copies a lane's state back (anchors,
 * masses, impulses, speeds), write_normal its normal impulses in and store its impulses to its contact. */
void sinew_contacts_colour(sinew_world *world);
void sinew_contacts_pack_wide(sinew_world *world, int32_t slot, const sinew_contact *c, const sinew_push_constraint *pc,
                              bool hold);
/* The packed constraints' effective masses, four lanes at a time (after every pack of the step). */
void sinew_contacts_masses_wide(sinew_world *world);
void sinew_contacts_read_wide(const sinew_world *world, int32_t slot, int point_count, sinew_contact_constraint *cc);
void sinew_contacts_write_normal_wide(sinew_world *world, int32_t slot, int point_count, const sinew_contact_constraint *cc);
bool sinew_contacts_bounces_wide(const sinew_world *world, int32_t slot, int point_count, float threshold);
void sinew_contacts_store_wide(const sinew_world *world, int32_t slot, sinew_contact *c);
enum { SINEW_WIDE_FOUR, SINEW_WIDE_AVX, SINEW_WIDE_AVX512 };
int sinew_contacts_wide_simd(void);
void sinew_contacts_warm_start_wide(sinew_world *world, bool first_substep);
void sinew_contacts_solve_wide(sinew_world *world, float inv_h, sinew_contact_pass pass);

/* awake.c */
/* Room for a pool of `pool` entries: adding and removing then never allocate. False when out of memory. */
bool sinew_index_set_reserve(sinew_index_set *set, int32_t pool);
void sinew_index_set_free(sinew_index_set *set);
void sinew_index_set_add(sinew_index_set *set, int32_t index);
void sinew_index_set_remove(sinew_index_set *set, int32_t index);
/* items then lists exactly the members, ascending. */
void sinew_index_set_flush(sinew_index_set *set);
void sinew_index_set_walk_begin(sinew_index_set *set, sinew_index_walk *walk);
/* The next member, or SINEW_NULL_INDEX at the end (which ends the walk). Inline for the usual
 * case of a walk where nothing was added: the sorted items alone. */
int32_t sinew_index_set_walk_next_added(sinew_index_set *set, sinew_index_walk *walk);
static inline int32_t sinew_index_set_walk_next(sinew_index_set *set, sinew_index_walk *walk)
{
	size_t n = (size_t)stbds_arrlen(set->items);
	while (stbds_arrlen(set->pending) == 0 && walk->i < n) {
		int32_t x = set->items[walk->i++];
		if (set->member[x]) return walk->cursor = x;
	}
	return sinew_index_set_walk_next_added(set, walk);
}
/* A body's, or a contact's, membership from its state, after that state changed. */
void sinew_awake_sync_body(sinew_world *world, int32_t body);
void sinew_awake_sync_contact(sinew_world *world, int32_t contact);
/* Every change of body.awake goes through here: the body's contacts follow it. */
void sinew_body_set_awake_flag(sinew_world *world, sinew_body *body, bool awake);

/* island.c */
void sinew_islands_wake_connected(sinew_world *world);
void sinew_islands_update_sleep(sinew_world *world, float dt);
void sinew_island_set_asleep(sinew_world *world, sinew_body *seed);

/* solver.c */
void sinew_solver_step(sinew_world *world, float dt, int substeps);
/* Room for the solver state of `bodies` awake bodies (a world def's capacity): false when out of memory. */
bool sinew_solver_reserve(sinew_world *world, size_t bodies);
/* The step's solver slots, the static dummy 0 included. */
static inline int sinew_solver_count(const sinew_world *world)
{
	return (int)stbds_arrlen(world->awake_bodies);
}

/* continuous.c: sweep fast bodies back to their time of impact. */
void sinew_continuous_collide(sinew_world *world);

#endif
