/* sinew/draw.h: debug drawing. The engine walks a world and calls your callbacks for every shape,
 * joint and contact; you draw them however you like (the `sinew render` tool rasterises them into
 * a PNG, a viewer would hand them to OpenGL).
 *
 *     sinew_debug_draw draw = sinew_default_debug_draw();
 *     draw.draw_solid_polygon = my_solid_polygon;   // any callback left NULL is skipped
 *     draw.draw_contacts = true;
 *     draw.context = &my_canvas;
 *     sinew_world_draw(world, &draw);
 *
 * Everything is handed over in world coordinates (the world's length units, y as the world has
 * it: a pixel world with y down stays y down; flipping is the drawer's business).
 *
 * Colours (sinew_color, straight alpha, 0..1 per channel), as sinew_world_draw picks them:
 *   static bodies grey, kinematic blue, dynamic awake orange, dynamic asleep a dim grey-orange,
 *   disabled bodies light grey. Solid shapes get a fill (the body colour at alpha 0.5) and an
 *   outline (the body colour, opaque). Sensors are outlined only, in green.
 *   Joints: anchors as dark points and a grey line from each body's centre to its anchor; a red
 *   segment between the two anchors where they have separated by more than the linear slop
 *   (pin, revolute, weld); revolute and pin angle limits as a violet arc around the anchor from
 *   lower to upper with a line along the current angle (local limits turn with body A, world
 *   limits do not); prismatic and wheel axes and linear limits as a line with end ticks; target
 *   joints as a green line from the grabbed point to the target, with a cross on the target.
 *   Contacts: points (red: new this step, dark blue: persisted), normals as green segments.
 *   AABBs: magenta outlines. */
#ifndef SINEW_DRAW_H
#define SINEW_DRAW_H

#include "base.h"
#include "id.h"
#include "math.h"
#include "types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A colour: red, green, blue and straight (not premultiplied) alpha, each 0..1. */
typedef struct sinew_color {
	float r, g, b, a;
} sinew_color;

/** Callbacks and switches for sinew_world_draw. Get one from sinew_default_debug_draw(). Every
 * callback may be NULL (that kind of primitive is then skipped); positions are world points. */
typedef struct sinew_debug_draw {
	/** Closed outline of a convex polygon (count 2: a capsule), rounded by radius: it sits radius outside the vertices. */
	void (*draw_polygon)(const sinew_vec2 *vertices, int count, float radius, sinew_color color, void *context);
	/** Filled convex polygon (counter-clockwise in the world's frame), rounded by radius, with an outline. */
	void (*draw_solid_polygon)(const sinew_vec2 *vertices, int count, float radius, sinew_color fill,
	                           sinew_color outline, void *context);
	/** Circle outline: centre and radius in length units. */
	void (*draw_circle)(sinew_vec2 center, float radius, sinew_color color, void *context);
	/** Filled circle with an outline and a radius line along xf.q's x axis to show its rotation. */
	void (*draw_solid_circle)(sinew_transform xf, float radius, sinew_color fill, sinew_color outline,
	                          void *context);
	/** Filled capsule: the points within radius of segment p1-p2, with an outline. */
	void (*draw_solid_capsule)(sinew_vec2 p1, sinew_vec2 p2, float radius, sinew_color fill, sinew_color outline,
	                           void *context);
	/** Line segment, about one pixel wide. */
	void (*draw_segment)(sinew_vec2 p1, sinew_vec2 p2, sinew_color color, void *context);
	/** A dot size_px pixels across (screen size, not world size). */
	void (*draw_point)(sinew_vec2 p, float size_px, sinew_color color, void *context);
	/** A frame: x axis red, y axis green. */
	void (*draw_transform)(sinew_transform xf, void *context);
	/** Text whose top-left corner is at world point p. */
	void (*draw_string)(sinew_vec2 p, const char *text, sinew_color color, void *context);

	bool draw_shapes;          /**< bodies' shapes; default true */
	bool draw_joints;          /**< anchors and separation lines; default true */
	bool draw_joint_extras;    /**< limit arcs and axes; default true */
	bool draw_contacts;        /**< touching contact points; default false */
	bool draw_contact_normals; /**< contact normals (with draw_contacts); default false */
	bool draw_aabbs;           /**< shapes' tight bounding boxes; default false */
	bool skip_disabled;        /**< leave disabled bodies out (a ragdolled rig's proxies); default false: drawn light grey */
	bool draw_transforms;      /**< each body's centre-of-mass frame; default false */
	bool use_drawing_bounds;   /**< only draw what overlaps drawing_bounds; default false */
	sinew_aabb drawing_bounds; /**< world box, used when use_drawing_bounds */
	float axis_scale;          /**< length of transform axes and limit arcs' radius, length units; default 0.25 (scaled by the world's length units per metre) */
	void *context;             /**< passed to every callback */
} sinew_debug_draw;

/** A debug draw with every callback NULL and the default switches above. */
SINEW_API sinew_debug_draw sinew_default_debug_draw(void);

/** Draw the world through the callbacks (reads the world, changes nothing). Refused while the world
 * is stepping or for a stale world id: reports and draws nothing. */
SINEW_API void sinew_world_draw(sinew_world_id world, const sinew_debug_draw *draw);

/** The colour sinew_world_draw uses for a body of this type and state (fill is this at alpha 0.5). */
SINEW_API sinew_color sinew_debug_body_color(sinew_body_type type, bool awake, bool enabled);

#ifdef __cplusplus
}
#endif
#endif
