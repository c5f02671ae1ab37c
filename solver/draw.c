/* Debug drawing: walk a world and hand its shapes, joints and contacts to the caller's callbacks
 * (include/sinew/draw.h). Read-only: nothing here changes the world. */
#include "joint.h"
#include "sinew/draw.h"
#include "world.h"

#include <math.h>

#define ARC_SEGMENTS 24

static sinew_color rgba(float r, float g, float b, float a)
{
	sinew_color c = {r, g, b, a};
	return c;
}

static sinew_color with_alpha(sinew_color c, float a)
{
	c.a = a;
	return c;
}

sinew_debug_draw sinew_default_debug_draw(void)
{
	sinew_debug_draw d;
	memset(&d, 0, sizeof d);
	d.draw_shapes = true;
	d.draw_joints = true;
	d.draw_joint_extras = true;
	d.axis_scale = 0.25f;
	return d;
}

sinew_color sinew_debug_body_color(sinew_body_type type, bool awake, bool enabled)
{
	if (!enabled) return rgba(0.78f, 0.78f, 0.78f, 1.0f);
	switch (type) {
	case SINEW_STATIC_BODY: return rgba(0.45f, 0.45f, 0.45f, 1.0f);
	case SINEW_KINEMATIC_BODY: return rgba(0.25f, 0.45f, 0.9f, 1.0f);
	case SINEW_DYNAMIC_BODY: return awake ? rgba(0.95f, 0.5f, 0.1f, 1.0f) : rgba(0.6f, 0.52f, 0.42f, 1.0f);
	case SINEW_BODY_TYPE_COUNT: break;
	}
	return rgba(0.0f, 0.0f, 0.0f, 1.0f);
}

/* The drawing bounds, grown by nothing: is this box worth drawing? */
static bool visible(const sinew_debug_draw *d, sinew_aabb box)
{
	return !d->use_drawing_bounds || sinew_aabb_overlaps(d->drawing_bounds, box);
}

static bool point_visible(const sinew_debug_draw *d, sinew_vec2 p)
{
	sinew_aabb box = {p, p};
	return visible(d, box);
}

static void segment(const sinew_debug_draw *d, sinew_vec2 a, sinew_vec2 b, sinew_color c)
{
	if (d->draw_segment != NULL) d->draw_segment(a, b, c, d->context);
}

static void point(const sinew_debug_draw *d, sinew_vec2 p, float size, sinew_color c)
{
	if (d->draw_point != NULL) d->draw_point(p, size, c, d->context);
}

static void draw_shape(const sinew_debug_draw *d, const sinew_shape *s, sinew_transform xf, sinew_color color)
{
	sinew_color fill = with_alpha(color, 0.5f);
	const sinew_geometry *g = &s->geom;
	switch (g->type) {
	case SINEW_SHAPE_CIRCLE: {
		sinew_transform cxf = {sinew_transform_point(xf, g->u.circle.center), xf.q};
		if (s->sensor) {
			if (d->draw_circle != NULL) d->draw_circle(cxf.p, g->u.circle.radius, color, d->context);
		} else if (d->draw_solid_circle != NULL) {
			d->draw_solid_circle(cxf, g->u.circle.radius, fill, color, d->context);
		}
		break;
	}
	case SINEW_SHAPE_CAPSULE: {
		sinew_vec2 p1 = sinew_transform_point(xf, g->u.capsule.center1);
		sinew_vec2 p2 = sinew_transform_point(xf, g->u.capsule.center2);
		if (s->sensor) {
			/* a capsule outline is a rounded two-point polygon */
			sinew_vec2 v[2] = {p1, p2};
			if (d->draw_polygon != NULL) d->draw_polygon(v, 2, g->u.capsule.radius, color, d->context);
		} else if (d->draw_solid_capsule != NULL) {
			d->draw_solid_capsule(p1, p2, g->u.capsule.radius, fill, color, d->context);
		}
		break;
	}
	case SINEW_SHAPE_POLYGON: {
		const sinew_polygon *poly = &g->u.polygon;
		sinew_vec2 v[SINEW_MAX_POLYGON_VERTICES];
		for (int i = 0; i < poly->count; ++i) v[i] = sinew_transform_point(xf, poly->vertices[i]);
		if (s->sensor) {
			if (d->draw_polygon != NULL) d->draw_polygon(v, poly->count, poly->radius, color, d->context);
		} else if (d->draw_solid_polygon != NULL) {
			d->draw_solid_polygon(v, poly->count, poly->radius, fill, color, d->context);
		}
		break;
	}
	case SINEW_SHAPE_TYPE_COUNT: break;
	}
}

static void draw_bodies(const sinew_world *w, const sinew_debug_draw *d)
{
	const sinew_color sensor = rgba(0.1f, 0.65f, 0.25f, 1.0f);
	const sinew_color aabb = rgba(0.85f, 0.2f, 0.85f, 1.0f);
	int n = (int)stbds_arrlen(w->bodies);
	for (int bi = 0; bi < n; ++bi) {
		const sinew_body *b = &w->bodies[bi];
		if (!b->in_use || (d->skip_disabled && !b->enabled)) continue;
		sinew_color color = sinew_debug_body_color((sinew_body_type)b->type, b->awake, b->enabled);
		for (int32_t si = b->shape_list; si != SINEW_NULL_INDEX; si = w->shapes[si].next) {
			const sinew_shape *s = &w->shapes[si];
			if (!visible(d, s->aabb)) continue;
			if (d->draw_shapes) draw_shape(d, s, b->xf, s->sensor ? sensor : color);
			if (d->draw_aabbs && d->draw_polygon != NULL) {
				sinew_vec2 v[4] = {s->aabb.lower, {s->aabb.upper.x, s->aabb.lower.y}, s->aabb.upper,
				                   {s->aabb.lower.x, s->aabb.upper.y}};
				d->draw_polygon(v, 4, 0.0f, aabb, d->context);
			}
		}
		if (d->draw_transforms && d->draw_transform != NULL && point_visible(d, b->center)) {
			sinew_transform cxf = {b->center, b->xf.q};
			d->draw_transform(cxf, d->context);
		}
	}
}

/* An arc of radius r around c from angle a0 to a1 (a1 >= a0), with spokes to both ends and a
 * line along the current angle. */
static void limit_arc(const sinew_debug_draw *d, sinew_vec2 c, float r, float a0, float a1, float current)
{
	const sinew_color arc = rgba(0.55f, 0.25f, 0.85f, 1.0f);
	const sinew_color now = rgba(0.1f, 0.55f, 0.2f, 1.0f);
	if (a1 - a0 > 2.0f * SINEW_PI) a1 = a0 + 2.0f * SINEW_PI;
	sinew_vec2 prev = sinew_mul_add(c, r, sinew_v2(cosf(a0), sinf(a0)));
	segment(d, c, prev, arc);
	for (int i = 1; i <= ARC_SEGMENTS; ++i) {
		float a = a0 + (a1 - a0) * (float)i / (float)ARC_SEGMENTS;
		sinew_vec2 p = sinew_mul_add(c, r, sinew_v2(cosf(a), sinf(a)));
		segment(d, prev, p, arc);
		prev = p;
	}
	segment(d, c, prev, arc);
	segment(d, c, sinew_mul_add(c, 1.25f * r, sinew_v2(cosf(current), sinf(current))), now);
}

/* Limit arcs of angle limits and the axes of sliding joints. */
static void draw_joint_extras(const sinew_world *w, const sinew_debug_draw *d, const sinew_joint *j,
                              const sinew_joint_frame *f, float r)
{
	const sinew_color axis_color = rgba(0.2f, 0.5f, 0.6f, 1.0f);
	switch ((sinew_joint_type)j->type) {
	case SINEW_PIN_JOINT:
	case SINEW_REVOLUTE_JOINT: {
		if (!j->limit.enabled) break;
		bool world_frame = j->type == SINEW_PIN_JOINT || j->limit.frame == SINEW_LIMIT_WORLD;
		float base, current;
		if (world_frame) {
			/* the swing of the A-centre -> B-centre vector, from its direction at creation */
			base = j->swing_reference;
			current = base + sinew_joint_swing_angle(j, f);
		} else {
			/* B's angle relative to A's: the arc turns with body A */
			base = sinew_rot_angle(f->q_a) + j->reference_angle;
			current = base + sinew_joint_relative_angle(j, f);
		}
		limit_arc(d, f->p_a, r, base + j->limit.lower, base + j->limit.upper, current);
		break;
	}
	case SINEW_PRISMATIC_JOINT:
	case SINEW_WHEEL_JOINT: {
		sinew_vec2 axis = sinew_joint_axis(j, f);
		float lo = j->limit.enabled ? j->limit.lower : -2.0f * r;
		float hi = j->limit.enabled ? j->limit.upper : 2.0f * r;
		sinew_vec2 a = sinew_mul_add(f->p_a, lo, axis), b = sinew_mul_add(f->p_a, hi, axis);
		segment(d, a, b, axis_color);
		if (j->limit.enabled) {
			sinew_vec2 tick = sinew_scale(0.3f * r, sinew_left_perp(axis));
			segment(d, sinew_sub(a, tick), sinew_add(a, tick), axis_color);
			segment(d, sinew_sub(b, tick), sinew_add(b, tick), axis_color);
		}
		break;
	}
	case SINEW_WELD_JOINT:
	case SINEW_DISTANCE_JOINT:
	case SINEW_TARGET_JOINT:
	case SINEW_JOINT_TYPE_COUNT: break;
	}
	(void)w;
}

/* How far the anchors are from where the joint holds them, and the segment that shows it. */
static float joint_gap(const sinew_joint *j, const sinew_joint_frame *f, sinew_vec2 *from, sinew_vec2 *to)
{
	sinew_vec2 dp = sinew_sub(f->p_b, f->p_a);
	*from = f->p_a;
	*to = f->p_b;
	switch ((sinew_joint_type)j->type) {
	case SINEW_PIN_JOINT:
	case SINEW_REVOLUTE_JOINT:
	case SINEW_WELD_JOINT: return sinew_length(dp);
	case SINEW_PRISMATIC_JOINT:
	case SINEW_WHEEL_JOINT: {
		sinew_vec2 axis = sinew_joint_axis(j, f);
		*from = sinew_mul_add(f->p_a, sinew_dot(axis, dp), axis);
		return sinew_absf(sinew_cross(axis, dp));
	}
	case SINEW_DISTANCE_JOINT: {
		float len = sinew_length(dp);
		float lo = j->min_length, hi = j->max_length;
		return len < lo ? lo - len : (len > hi ? len - hi : 0.0f);
	}
	case SINEW_TARGET_JOINT: return 0.0f; /* soft: a stretched target spring is doing its job, not failing */
	case SINEW_JOINT_TYPE_COUNT: break;
	}
	return 0.0f;
}

static void draw_joints(const sinew_world *w, const sinew_debug_draw *d)
{
	const sinew_color arm = rgba(0.55f, 0.55f, 0.6f, 1.0f);
	const sinew_color rod = rgba(0.15f, 0.55f, 0.55f, 1.0f);
	const sinew_color anchor = rgba(0.1f, 0.1f, 0.2f, 1.0f);
	const sinew_color gap = rgba(0.9f, 0.05f, 0.05f, 1.0f);
	const sinew_color spring = rgba(0.1f, 0.6f, 0.3f, 1.0f);
	float r = d->axis_scale * w->lengths;
	int n = (int)stbds_arrlen(w->joints);
	for (int ji = 0; ji < n; ++ji) {
		const sinew_joint *j = &w->joints[ji];
		if (!j->in_use || !j->enabled || j->broken) continue;
		sinew_joint_frame f = sinew_joint_current_frame(w, j);
		sinew_aabb box = {sinew_vmin(f.p_a, f.p_b), sinew_vmax(f.p_a, f.p_b)};
		if (!visible(d, box)) continue;
		if (d->draw_joints) {
			if (j->edges[0].body != SINEW_NULL_INDEX) segment(d, f.center_a, f.p_a, arm);
			segment(d, f.center_b, f.p_b, arm);
			if (j->type == SINEW_DISTANCE_JOINT) segment(d, f.p_a, f.p_b, rod);
			if (j->type == SINEW_TARGET_JOINT) {
				/* the spring from the grabbed point to the target, and a cross on the target */
				sinew_vec2 dx = {0.4f * r, 0.0f}, dy = {0.0f, 0.4f * r};
				segment(d, f.p_a, f.p_b, spring);
				segment(d, sinew_sub(f.p_a, dx), sinew_add(f.p_a, dx), spring);
				segment(d, sinew_sub(f.p_a, dy), sinew_add(f.p_a, dy), spring);
			}
			sinew_vec2 from, to;
			if (joint_gap(j, &f, &from, &to) > w->linear_slop) segment(d, from, to, gap);
			point(d, f.p_a, 5.0f, anchor);
			point(d, f.p_b, 5.0f, anchor);
		}
		if (d->draw_joint_extras) draw_joint_extras(w, d, j, &f, r);
	}
}

static void draw_contacts(const sinew_world *w, const sinew_debug_draw *d)
{
	const sinew_color fresh = rgba(0.9f, 0.1f, 0.1f, 1.0f);
	const sinew_color kept = rgba(0.1f, 0.2f, 0.7f, 1.0f);
	const sinew_color normal = rgba(0.1f, 0.6f, 0.1f, 1.0f);
	float len = d->axis_scale * w->lengths;
	int n = (int)stbds_arrlen(w->contacts);
	for (int ci = 0; ci < n; ++ci) {
		const sinew_contact *c = &w->contacts[ci];
		if (!c->in_use || (c->flags & SINEW_CONTACT_TOUCHING) == 0 || (c->flags & SINEW_CONTACT_SENSOR) != 0) continue;
		const sinew_manifold *m = &c->manifold;
		for (int k = 0; k < m->point_count; ++k) {
			const sinew_manifold_point *mp = &m->points[k];
			if (!point_visible(d, mp->point)) continue;
			point(d, mp->point, 5.0f, mp->persisted ? kept : fresh);
			if (d->draw_contact_normals) segment(d, mp->point, sinew_mul_add(mp->point, len, m->normal), normal);
		}
	}
}

void sinew_world_draw(sinew_world_id world, const sinew_debug_draw *draw)
{
	sinew_world *w = sinew_world_get(world, "sinew_world_draw");
	if (w == NULL || !sinew_world_check_unlocked(w, "sinew_world_draw")) return;
	if (draw == NULL) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "sinew_world_draw: draw is NULL");
		return;
	}
	/* A callback that creates or destroys would change the arrays this walk is reading. */
	const char *prev = sinew_world_lock_for(w, "a draw callback is running");
	if (draw->draw_shapes || draw->draw_aabbs || draw->draw_transforms) draw_bodies(w, draw);
	if (draw->draw_joints || draw->draw_joint_extras) draw_joints(w, draw);
	if (draw->draw_contacts) draw_contacts(w, draw);
	sinew_world_unlock(w, prev);
}
