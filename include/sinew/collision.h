/* sinew/collision.h: shapes, mass, bounding boxes, contact manifolds and the dynamic AABB tree.
 * Usable without a world: every function takes geometry and transforms and returns answers.
 * Conventions: a manifold's normal points from shape A to shape B; separation is negative when
 * the shapes overlap; lengths are in the caller's units. */
#ifndef SINEW_COLLISION_H
#define SINEW_COLLISION_H

#include "base.h"
#include "math.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Most vertices a convex polygon may have (boxes use 4). */
#define SINEW_MAX_POLYGON_VERTICES 8

/** A solid circle. */
typedef struct sinew_circle {
	sinew_vec2 center; /**< local centre */
	float radius;      /**< > 0 */
} sinew_circle;

/** A capsule: the set of points within radius of the segment center1-center2. */
typedef struct sinew_capsule {
	sinew_vec2 center1, center2; /**< local centres of the two caps (may coincide: then a circle) */
	float radius;                /**< > 0 */
} sinew_capsule;

/** A solid convex polygon, optionally rounded by radius (a box with rounded corners). Counter-
 * clockwise vertices; normals[i] is the outward normal of edge vertices[i] -> vertices[i+1]. */
typedef struct sinew_polygon {
	sinew_vec2 vertices[SINEW_MAX_POLYGON_VERTICES];
	sinew_vec2 normals[SINEW_MAX_POLYGON_VERTICES];
	sinew_vec2 centroid;
	float radius; /**< rounding radius, >= 0 */
	int count;    /**< 3..SINEW_MAX_POLYGON_VERTICES */
} sinew_polygon;

/** The kinds of shape. */
typedef enum sinew_shape_type {
	SINEW_SHAPE_CIRCLE,
	SINEW_SHAPE_CAPSULE,
	SINEW_SHAPE_POLYGON,
	SINEW_SHAPE_TYPE_COUNT
} sinew_shape_type;

/** Any shape's geometry, tagged. */
typedef struct sinew_geometry {
	sinew_shape_type type;
	union {
		sinew_circle circle;
		sinew_capsule capsule;
		sinew_polygon polygon;
	} u;
} sinew_geometry;

/** A box centred on the origin with half extents hx, hy (> 0). */
SINEW_API sinew_polygon sinew_make_box(float hx, float hy);
/** A box with half extents, centred at center and turned by angle (radians). */
SINEW_API sinew_polygon sinew_make_offset_box(float hx, float hy, sinew_vec2 center, float angle);
/** A box whose corners are rounded by radius; the outer extents are hx + radius, hy + radius. */
SINEW_API sinew_polygon sinew_make_rounded_box(float hx, float hy, sinew_vec2 center, float angle, float radius);
/** The Godot CapsuleShape2D form: height tip to tip along local y (turned by angle), radius, centre. */
SINEW_API sinew_capsule sinew_make_capsule_godot(float height, float radius, sinew_vec2 center, float angle);

/** Mass of a shape: mass, centre of mass (local) and rotational inertia about the centre of mass. */
typedef struct sinew_mass_data {
	float mass;               /**< kg */
	sinew_vec2 center;        /**< local centre of mass */
	float rotational_inertia; /**< kg m^2 about center */
} sinew_mass_data;

SINEW_API sinew_mass_data sinew_compute_circle_mass(const sinew_circle *shape, float density);
SINEW_API sinew_mass_data sinew_compute_capsule_mass(const sinew_capsule *shape, float density);
SINEW_API sinew_mass_data sinew_compute_polygon_mass(const sinew_polygon *shape, float density);
SINEW_API sinew_mass_data sinew_compute_mass(const sinew_geometry *geometry, float density);
/** Combine masses: total mass, common centre, inertia about the common centre (parallel axis). */
SINEW_API sinew_mass_data sinew_combine_mass(const sinew_mass_data *parts, int count);

SINEW_API sinew_aabb sinew_compute_circle_aabb(const sinew_circle *shape, sinew_transform xf);
SINEW_API sinew_aabb sinew_compute_capsule_aabb(const sinew_capsule *shape, sinew_transform xf);
SINEW_API sinew_aabb sinew_compute_polygon_aabb(const sinew_polygon *shape, sinew_transform xf);
SINEW_API sinew_aabb sinew_compute_aabb(const sinew_geometry *geometry, sinew_transform xf);

/** Largest distance from the local point to any point of the shape (for continuous collision). */
SINEW_API float sinew_geometry_extent(const sinew_geometry *geometry, sinew_vec2 local_point);

/** One contact point. point/anchors are in world orientation; anchors are relative to the origin
 * of each shape's transform. The solver fields are zero from the narrowphase and filled by the world. */
typedef struct sinew_manifold_point {
	sinew_vec2 point;         /**< world point midway between the two surfaces */
	sinew_vec2 anchor_a;      /**< point relative to transform A's origin */
	sinew_vec2 anchor_b;      /**< point relative to transform B's origin */
	float separation;         /**< signed gap along the normal; negative = overlap */
	uint16_t id;              /**< feature id: stable while the same features touch */
	float normal_impulse;     /**< solver: normal impulse applied over the last step, N s (force = impulse / dt) */
	float tangent_impulse;    /**< solver: friction impulse applied over the last step, N s */
	float max_normal_impulse; /**< solver: largest normal impulse applied in one solver pass of the last step */
	float normal_velocity;    /**< solver: relative normal speed when the point began to push (negative = approaching) */
	bool persisted;           /**< solver: the same feature id was present last step */
} sinew_manifold_point;

/** The contact between two shapes: up to two points sharing one normal (A to B). */
typedef struct sinew_manifold {
	sinew_manifold_point points[2];
	sinew_vec2 normal;
	int point_count;
} sinew_manifold;

/** Feature id of a contact point made from feature a of shape A and feature b of shape B. */
#define SINEW_MAKE_FEATURE_ID(a, b) ((uint16_t)(((uint8_t)(a)) << 8 | (uint8_t)(b)))

/* Narrowphase. Points whose separation exceeds speculative_distance are not reported, so contacts
 * begin a little before touching (the solver treats a positive separation as a gap to close). */
SINEW_API sinew_manifold sinew_collide_circles(const sinew_circle *a, sinew_transform xfa, const sinew_circle *b,
                                               sinew_transform xfb, float speculative_distance);
SINEW_API sinew_manifold sinew_collide_capsule_and_circle(const sinew_capsule *a, sinew_transform xfa,
                                                          const sinew_circle *b, sinew_transform xfb,
                                                          float speculative_distance);
SINEW_API sinew_manifold sinew_collide_capsules(const sinew_capsule *a, sinew_transform xfa, const sinew_capsule *b,
                                                sinew_transform xfb, float speculative_distance);
SINEW_API sinew_manifold sinew_collide_polygon_and_circle(const sinew_polygon *a, sinew_transform xfa,
                                                          const sinew_circle *b, sinew_transform xfb,
                                                          float speculative_distance);
SINEW_API sinew_manifold sinew_collide_polygon_and_capsule(const sinew_polygon *a, sinew_transform xfa,
                                                           const sinew_capsule *b, sinew_transform xfb,
                                                           float speculative_distance);
SINEW_API sinew_manifold sinew_collide_polygons(const sinew_polygon *a, sinew_transform xfa, const sinew_polygon *b,
                                                sinew_transform xfb, float speculative_distance);
/** Any pair: dispatches on the types, swapping the pair (and flipping the normal back) as needed,
 * so the normal always points from a to b. */
SINEW_API sinew_manifold sinew_collide(const sinew_geometry *a, sinew_transform xfa, const sinew_geometry *b,
                                       sinew_transform xfb, float speculative_distance);

/** A ray (or segment) from origin along translation; hits beyond max_fraction are ignored. */
typedef struct sinew_ray_cast_input {
	sinew_vec2 origin;
	sinew_vec2 translation;
	float max_fraction; /**< usually 1 */
} sinew_ray_cast_input;

/* ---- Dynamic AABB tree: a bounding volume hierarchy with fat boxes and rotations to balance. ---- */

/** Sentinel for "no node". */
#define SINEW_NULL_NODE (-1)

struct sinew_tree_node;

/** A dynamic AABB tree. Zero-initialise or use sinew_dynamic_tree_create; fields are read-only.
 * build is the rebuilds' scratch space, sized with the node pool so that a rebuild never
 * allocates. */
typedef struct sinew_dynamic_tree {
	struct sinew_tree_node *nodes;
	int32_t root;
	int32_t node_count;
	int32_t node_capacity;
	int32_t free_list;
	int32_t proxy_count;
	void *build;
} sinew_dynamic_tree;

SINEW_API sinew_dynamic_tree sinew_dynamic_tree_create(void);
SINEW_API void sinew_dynamic_tree_destroy(sinew_dynamic_tree *tree);
/** Add a proxy with the given box (store it already enlarged if you want a fat box); returns its id. */
SINEW_API int32_t sinew_dynamic_tree_create_proxy(sinew_dynamic_tree *tree, sinew_aabb aabb, uint32_t category,
                                                  uint64_t user_data);
SINEW_API void sinew_dynamic_tree_destroy_proxy(sinew_dynamic_tree *tree, int32_t proxy_id);
/** Replace a proxy's box (remove and reinsert). */
SINEW_API void sinew_dynamic_tree_move_proxy(sinew_dynamic_tree *tree, int32_t proxy_id, sinew_aabb aabb);
/** Grow a proxy's box to contain aabb, growing its ancestors without restructuring (cheap). */
SINEW_API void sinew_dynamic_tree_enlarge_proxy(sinew_dynamic_tree *tree, int32_t proxy_id, sinew_aabb aabb);
/** Replace a proxy's box without restructuring: the box becomes aabb and its ancestors grow to
 * contain it (cheaper than move_proxy; queries stay exact, the tree looser until
 * sinew_dynamic_tree_rebuild_enlarged). */
SINEW_API void sinew_dynamic_tree_set_proxy_aabb(sinew_dynamic_tree *tree, int32_t proxy_id, sinew_aabb aabb);
SINEW_API sinew_aabb sinew_dynamic_tree_get_aabb(const sinew_dynamic_tree *tree, int32_t proxy_id);
SINEW_API uint64_t sinew_dynamic_tree_get_user_data(const sinew_dynamic_tree *tree, int32_t proxy_id);
SINEW_API uint32_t sinew_dynamic_tree_get_category(const sinew_dynamic_tree *tree, int32_t proxy_id);

/** Query callback: return false to stop the query. */
typedef bool sinew_tree_query_fn(int32_t proxy_id, uint64_t user_data, void *context);
/** Visit every proxy whose box overlaps aabb and whose category has a bit in mask. */
SINEW_API void sinew_dynamic_tree_query(const sinew_dynamic_tree *tree, sinew_aabb aabb, uint32_t mask,
                                        sinew_tree_query_fn *fn, void *context);

/** Ray callback: return the new max fraction (0 stops, the input's value continues unchanged,
 * a smaller value clips the ray, a negative value ignores this proxy and continues). */
typedef float sinew_tree_ray_cast_fn(const sinew_ray_cast_input *input, int32_t proxy_id, uint64_t user_data,
                                     void *context);
/** Visit every proxy whose box the ray (clipped as the callback says) crosses. */
SINEW_API void sinew_dynamic_tree_ray_cast(const sinew_dynamic_tree *tree, const sinew_ray_cast_input *input,
                                           uint32_t mask, sinew_tree_ray_cast_fn *fn, void *context);

/** Height of the tree (0 for a single leaf, -1 when empty). */
SINEW_API int sinew_dynamic_tree_get_height(const sinew_dynamic_tree *tree);
/** Sum of node perimeters over the root perimeter: a quality measure (lower is better). */
SINEW_API float sinew_dynamic_tree_get_area_ratio(const sinew_dynamic_tree *tree);
/** Check the tree's structure and boxes; returns false if an invariant is broken. */
SINEW_API bool sinew_dynamic_tree_validate(const sinew_dynamic_tree *tree);
/** Rebuild the whole tree top-down for quality (optional; costs time). Never allocates. */
SINEW_API void sinew_dynamic_tree_rebuild(sinew_dynamic_tree *tree);
/** Rebuild only the part of the tree that boxes grown in place (set_proxy_aabb, enlarge_proxy)
 * loosened since the last rebuild: the nodes above them, with every untouched subtree kept
 * whole. Returns the number of internal nodes rebuilt (0 when nothing grew). Never allocates. */
SINEW_API int32_t sinew_dynamic_tree_rebuild_enlarged(sinew_dynamic_tree *tree);
/** Move every box by -new_origin (the point that becomes the origin), keeping the structure (no rebuild). */
SINEW_API void sinew_dynamic_tree_shift_origin(sinew_dynamic_tree *tree, sinew_vec2 new_origin);

/** Does the segment hit the box? Returns the entry fraction in [0, max_fraction] through *fraction (may be NULL). */
SINEW_API bool sinew_ray_cast_aabb(sinew_aabb box, const sinew_ray_cast_input *input, float *fraction);

/* ---- Queries without a world: distance, ray casts, shape casts, time of impact. ----
 * Every shape is treated as a convex core (a point, a segment or a polygon) grown by a radius.
 * Normals are unit vectors in world space; fractions are of the given translation or sweep;
 * lengths are in the caller's units. None of these functions allocate or assert on user input. */

/** A shape for GJK: a convex core of up to SINEW_MAX_POLYGON_VERTICES local points grown by radius. */
typedef struct sinew_shape_proxy {
	sinew_vec2 points[SINEW_MAX_POLYGON_VERTICES]; /**< local core points (counter-clockwise for polygons) */
	int count;                                     /**< 1..SINEW_MAX_POLYGON_VERTICES */
	float radius;                                  /**< >= 0, in length units */
} sinew_shape_proxy;

/** The proxy of a shape in its local frame: a circle is 1 point, a capsule 2 (1 if its centres
 * coincide), a polygon its vertices; an empty polygon becomes the point at its local origin. */
SINEW_API sinew_shape_proxy sinew_make_proxy(const sinew_geometry *geometry);

/** Closest points between two shapes. */
typedef struct sinew_distance_output {
	sinew_vec2 point_a; /**< world point on A's surface (on A's core when the shapes overlap) */
	sinew_vec2 point_b; /**< world point on B's surface (on B's core when the shapes overlap) */
	sinew_vec2 normal;  /**< unit, from A to B; zero when the cores overlap or touch */
	float distance;     /**< gap between the surfaces (radii included), length units; 0 when overlapping */
	int iterations;     /**< GJK iterations used (bounded) */
} sinew_distance_output;

/** Distance and closest points between two proxies placed by their transforms (GJK). */
SINEW_API sinew_distance_output sinew_proxy_distance(const sinew_shape_proxy *a, sinew_transform xfa,
                                                     const sinew_shape_proxy *b, sinew_transform xfb);
/** Distance and closest points between two shapes placed by their transforms (GJK). */
SINEW_API sinew_distance_output sinew_shape_distance(const sinew_geometry *a, sinew_transform xfa,
                                                     const sinew_geometry *b, sinew_transform xfb);

/** Is the world point inside the shape (boundary included)? */
SINEW_API bool sinew_geometry_test_point(const sinew_geometry *geometry, sinew_transform xf, sinew_vec2 point);

/** A ray cast's answer. */
typedef struct sinew_ray_result {
	sinew_vec2 point;  /**< world point where the ray enters the shape */
	sinew_vec2 normal; /**< unit outward surface normal there; zero for a hit from inside */
	float fraction;    /**< of the ray's translation, in [0, max_fraction] */
	bool hit;
} sinew_ray_result;

/** Cast a ray against a shape. Shapes are closed: a ray that only grazes the boundary (tangent to
 * a circle or cap, or running along a flat side) hits where it first touches it, though in floats
 * a ray within rounding of tangency may go either way. A ray whose origin is inside the shape or
 * on its boundary hits at fraction 0 with a zero normal if hit_from_inside, else misses (Godot). */
SINEW_API sinew_ray_result sinew_ray_cast_geometry(const sinew_geometry *geometry, sinew_transform xf,
                                                   const sinew_ray_cast_input *input, bool hit_from_inside);

/** A shape cast's answer. */
typedef struct sinew_shape_cast_output {
	sinew_vec2 point;  /**< world point on B's surface nearest A at the stop */
	sinew_vec2 normal; /**< unit, B's surface normal there, pointing from B towards A; zero if the cores overlap */
	float fraction;    /**< of translation_a where A stops, in [0, max_fraction] */
	int iterations;    /**< distance evaluations used (bounded) */
	bool hit;
} sinew_shape_cast_output;

/** Move shape A from xfa along translation_a (length units) towards the fixed shape B and stop at
 * the first fraction where the gap between them closes to target_separation (>= 0, length units;
 * the gap there lies in [target, 1.25 target] up to rounding, and is never smaller before). Shapes
 * that already overlap, or are within the target and approaching, hit at fraction 0; shapes
 * within the target that do not approach, and shapes that never come that close before
 * max_fraction, do not hit. */
SINEW_API sinew_shape_cast_output sinew_shape_cast(const sinew_geometry *a, sinew_transform xfa, sinew_vec2 translation_a,
                                                   const sinew_geometry *b, sinew_transform xfb, float max_fraction,
                                                   float target_separation);

/** The motion of a body over a step: its centre of mass moves linearly from c1 to c2 and its angle
 * from a1 to a2 (radians), as the fraction runs from 0 to 1. */
typedef struct sinew_sweep {
	sinew_vec2 local_center; /**< centre of mass in the body's local frame */
	sinew_vec2 c1, c2;       /**< world centre of mass at fraction 0 and 1 */
	float a1, a2;            /**< angle at fraction 0 and 1, radians */
} sinew_sweep;

/** The body transform at fraction t of a sweep (t in [0, 1]). */
SINEW_API sinew_transform sinew_sweep_transform(const sinew_sweep *sweep, float t);

/** How a time-of-impact search ended. */
typedef enum sinew_toi_state {
	SINEW_TOI_HIT,        /**< the gap closes to the target at fraction */
	SINEW_TOI_SEPARATED,  /**< the gap stays above the target up to max_fraction */
	SINEW_TOI_OVERLAPPED, /**< the gap is already below the target at fraction 0 */
	SINEW_TOI_FAILED      /**< the iteration limit was reached; fraction is still safe (gap above the target before it) */
} sinew_toi_state;

/** A time-of-impact answer. */
typedef struct sinew_toi_output {
	sinew_toi_state state;
	float fraction; /**< sweep fraction in [0, max_fraction] */
	int iterations; /**< distance evaluations used (bounded) */
} sinew_toi_output;

/** Time of impact of two moving shapes (any kinds, translating and rotating along their sweeps):
 * the first fraction at which the gap between them closes to target_separation (>= 0, length units,
 * e.g. the linear slop). The gap at a HIT lies in [target, 1.25 target] up to rounding, and is
 * never below the target earlier in the sweep (conservative advancement). */
SINEW_API sinew_toi_output sinew_time_of_impact(const sinew_geometry *a, const sinew_sweep *sweep_a,
                                                const sinew_geometry *b, const sinew_sweep *sweep_b,
                                                float max_fraction, float target_separation);

#ifdef __cplusplus
}
#endif
#endif
