/* Joints: the pool, creation from defs (world anchors turned into local frames), destruction,
 * live changes and measurements, and the joint stages of a step. Each joint type lives in
 * solver/joints/<type>.c and only describes its rows; this file solves rows of every type the same
 * way (sequential impulses with warm starting), except the rigid rows of joints that form a tree,
 * which joint_tree.c solves exactly. */
#include "joint.h"

#include <string.h>

/* ---------------------------------------------------------------- defaults */

static sinew_joint_base_def default_base(void)
{
	sinew_joint_base_def b;
	memset(&b, 0, sizeof b);
	b.is_enabled = true;
	return b;
}

static sinew_joint_spring default_spring(void)
{
	sinew_joint_spring s = {false, 0.0f, 0.0f, 0.0f};
	return s;
}

#define DEFAULT_DEF(type, name)               \
	type name(void)                           \
	{                                         \
		type d;                               \
		memset(&d, 0, sizeof d);              \
		d.base = default_base();              \
		d.internal_value = SINEW_DEF_COOKIE;  \
		return d;                             \
	}

DEFAULT_DEF(sinew_pin_joint_def, sinew_default_pin_joint_def)
DEFAULT_DEF(sinew_revolute_joint_def, sinew_default_revolute_joint_def)
DEFAULT_DEF(sinew_prismatic_joint_def, sinew_default_prismatic_joint_def)
DEFAULT_DEF(sinew_weld_joint_def, sinew_default_weld_joint_def)
DEFAULT_DEF(sinew_wheel_joint_def, sinew_default_wheel_joint_def)

sinew_distance_joint_def sinew_default_distance_joint_def(void)
{
	sinew_distance_joint_def d;
	memset(&d, 0, sizeof d);
	d.base = default_base();
	d.length = d.min_length = d.max_length = -1.0f;
	d.spring = default_spring();
	d.internal_value = SINEW_DEF_COOKIE;
	return d;
}

sinew_target_joint_def sinew_default_target_joint_def(void)
{
	sinew_target_joint_def d;
	memset(&d, 0, sizeof d);
	d.base = default_base();
	d.hertz = 5.0f;
	d.damping_ratio = 0.7f;
	d.max_force = INFINITY;
	d.internal_value = SINEW_DEF_COOKIE;
	return d;
}

/* ---------------------------------------------------------------- handles */

int sinew_joint_edge_of(const sinew_joint *j, int32_t body)
{
	return j->edges[0].body == body ? 0 : 1;
}

static sinew_joint_id make_joint_id(const sinew_world *w, int32_t index)
{
	sinew_joint_id id = {index + 1, w->index, w->joints[index].generation};
	return id;
}

static sinew_joint *joint_lookup(sinew_joint_id id, sinew_world **world_out, const char *fn)
{
	*world_out = NULL;
	if (id.index1 <= 0) {
		sinew_report(NULL, NULL, SINEW_ERROR_INVALID_ID, "%s: null joint id", fn);
		return NULL;
	}
	sinew_world *w = sinew_world_from_index(id.world0, fn);
	if (w == NULL) return NULL;
	int32_t i = id.index1 - 1;
	if (i >= (int32_t)stbds_arrlen(w->joints) || !w->joints[i].in_use || w->joints[i].generation != id.generation) {
		sinew_world_error(w, SINEW_ERROR_INVALID_ID, "%s: stale joint id (index %d, generation %u)", fn,
		                  (int)id.index1, (unsigned)id.generation);
		return NULL;
	}
	*world_out = w;
	return &w->joints[i];
}

#define JOINT_OR(fail, fn)                                 \
	sinew_world *w;                                        \
	sinew_joint *j = joint_lookup(joint_id, &w, fn);       \
	if (j == NULL) return fail
#define JOINT_MUT_OR(fail, fn) \
	JOINT_OR(fail, fn);        \
	if (!sinew_world_check_unlocked(w, fn)) return fail

/* ---------------------------------------------------------------- validation */

static bool bad(sinew_world *w, sinew_error code, const char *fn, const char *what)
{
	sinew_world_error(w, code, "%s: %s", fn, what);
	return false;
}

static bool finite2(sinew_vec2 v)
{
	return sinew_vec2_is_valid(v);
}

static bool check_limit(sinew_world *w, const char *fn, const sinew_joint_limit *l)
{
	if (!l->enabled) return true;
	if (!sinew_is_finite(l->lower) || !sinew_is_finite(l->upper))
		return bad(w, SINEW_ERROR_NOT_FINITE, fn, "limit lower and upper must be finite");
	if (l->lower > l->upper) return bad(w, SINEW_ERROR_INVALID_ARGUMENT, fn, "limit lower must be <= upper");
	if ((unsigned)l->frame > SINEW_LIMIT_WORLD) return bad(w, SINEW_ERROR_INVALID_ARGUMENT, fn, "unknown limit frame");
	/* lengths within the envelope's diagonal, angles within the same bound in radians */
	float bound = 3.0f * sinew_world_max_coordinate(w);
	return sinew_check_within(w, fn, "limit lower", l->lower, bound) &&
	       sinew_check_within(w, fn, "limit upper", l->upper, bound);
}

static bool check_motor(sinew_world *w, const char *fn, const sinew_joint_motor *m)
{
	if (!m->enabled) return true;
	if (!sinew_is_finite(m->speed)) return bad(w, SINEW_ERROR_NOT_FINITE, fn, "motor speed must be finite");
	if (isnan(m->max_effort) || m->max_effort < 0.0f)
		return bad(w, SINEW_ERROR_INVALID_ARGUMENT, fn, "motor max_effort must be >= 0");
	/* INFINITY effort is documented (a motor that always reaches its speed); the speed is bounded */
	if (!sinew_check_within(w, fn, "motor speed", m->speed, sinew_world_max_speed(w))) return false;
	return isinf(m->max_effort) || sinew_check_within(w, fn, "motor max_effort", m->max_effort, SINEW_MAX_FORCE);
}

static bool check_spring(sinew_world *w, const char *fn, const sinew_joint_spring *s)
{
	if (!s->enabled) return true;
	if (!sinew_is_finite(s->hertz) || !sinew_is_finite(s->damping_ratio) || !sinew_is_finite(s->target))
		return bad(w, SINEW_ERROR_NOT_FINITE, fn, "spring hertz, damping_ratio and target must be finite");
	if (s->hertz <= 0.0f || s->damping_ratio < 0.0f)
		return bad(w, SINEW_ERROR_INVALID_ARGUMENT, fn, "spring hertz must be > 0 and damping_ratio >= 0");
	/* the target is a length (within the envelope's diagonal) or an angle (the same bound, in radians) */
	return sinew_check_within(w, fn, "spring hertz", s->hertz, SINEW_MAX_HERTZ) &&
	       sinew_check_within(w, fn, "spring damping_ratio", s->damping_ratio, SINEW_MAX_COEFFICIENT) &&
	       sinew_check_within(w, fn, "spring target", s->target, 3.0f * sinew_world_max_coordinate(w));
}

/* x finite, >= 0 and (limit > 0) within the numeric envelope; what reads "NAME must be ...". */
static bool check_nonneg_within(sinew_world *w, const char *fn, const char *what, float x, float limit)
{
	if (!sinew_is_finite(x)) return bad(w, SINEW_ERROR_NOT_FINITE, fn, what);
	if (x < 0.0f) return bad(w, SINEW_ERROR_INVALID_ARGUMENT, fn, what);
	if (limit > 0.0f && x > limit) {
		size_t name = strcspn(what, " ");
		sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT,
		                  "%s: %.*s of %g is beyond the engine's limit of %g (the numeric envelope, docs/guide.md)", fn,
		                  (int)name, what, (double)x, (double)limit);
		return false;
	}
	return true;
}

/* Break thresholds are only compared, so any finite size is fine. */
static bool check_nonneg(sinew_world *w, const char *fn, const char *what, float x)
{
	return check_nonneg_within(w, fn, what, x, 0.0f);
}

/* The bodies of a new joint: body_b must live in this world, body_a is null or lives there too. */
static bool check_base(sinew_world *w, const sinew_joint_base_def *b, int internal_value, const char *fn,
                       int32_t *ia, int32_t *ib)
{
	if (internal_value != SINEW_DEF_COOKIE)
		return bad(w, SINEW_ERROR_INVALID_ARGUMENT, fn, "the def must come from sinew_default_*_joint_def()");
	sinew_world *wb;
	if (sinew_body_lookup(b->body_b, &wb, fn) == NULL) return false;
	if (wb != w) return bad(w, SINEW_ERROR_INVALID_ARGUMENT, fn, "body_b belongs to another world");
	*ib = b->body_b.index1 - 1;
	*ia = SINEW_NULL_INDEX;
	if (!SINEW_IS_NULL(b->body_a)) {
		sinew_world *wa;
		if (sinew_body_lookup(b->body_a, &wa, fn) == NULL) return false;
		if (wa != w) return bad(w, SINEW_ERROR_INVALID_ARGUMENT, fn, "body_a belongs to another world");
		*ia = b->body_a.index1 - 1;
		if (*ia == *ib) return bad(w, SINEW_ERROR_INVALID_ARGUMENT, fn, "a body cannot be jointed to itself");
	}
	return check_nonneg(w, fn, "break_force must be finite and >= 0", b->break_force) &&
	       check_nonneg(w, fn, "break_torque must be finite and >= 0", b->break_torque);
}

/* ---------------------------------------------------------------- creation */

static void link_joint_edge(sinew_world *w, int32_t ji, int e)
{
	sinew_joint *j = &w->joints[ji];
	int32_t bi = j->edges[e].body;
	if (bi == SINEW_NULL_INDEX) return;
	sinew_body *b = &w->bodies[bi];
	j->edges[e].prev = SINEW_NULL_INDEX;
	j->edges[e].next = b->joint_list;
	if (b->joint_list != SINEW_NULL_INDEX) {
		sinew_joint *head = &w->joints[b->joint_list];
		head->edges[sinew_joint_edge_of(head, bi)].prev = ji;
	}
	b->joint_list = ji;
	b->joint_count += 1;
	w->joint_lists_changed += 1; /* the order the trees are grown in (joint_tree.c) */
}

static void unlink_joint_edge(sinew_world *w, int32_t ji, int e)
{
	sinew_joint *j = &w->joints[ji];
	int32_t bi = j->edges[e].body;
	if (bi == SINEW_NULL_INDEX) return;
	sinew_body *b = &w->bodies[bi];
	if (j->edges[e].prev != SINEW_NULL_INDEX) {
		sinew_joint *p = &w->joints[j->edges[e].prev];
		p->edges[sinew_joint_edge_of(p, bi)].next = j->edges[e].next;
	} else {
		b->joint_list = j->edges[e].next;
	}
	if (j->edges[e].next != SINEW_NULL_INDEX) {
		sinew_joint *n = &w->joints[j->edges[e].next];
		n->edges[sinew_joint_edge_of(n, bi)].prev = j->edges[e].prev;
	}
	b->joint_count -= 1;
	w->joint_lists_changed += 1;
}

static void wake_joint_bodies(sinew_world *w, const sinew_joint *j)
{
	for (int e = 0; e < 2; ++e)
		if (j->edges[e].body != SINEW_NULL_INDEX) sinew_body_wake(w, &w->bodies[j->edges[e].body]);
}

/* Contacts between the two bodies go when a joint says they must not collide; when it stops
 * saying so, their shapes look for pairs again. */
static void refresh_pair(sinew_world *w, const sinew_joint *j)
{
	int32_t ia = j->edges[0].body, ib = j->edges[1].body;
	if (ia == SINEW_NULL_INDEX) return;
	sinew_body *b = &w->bodies[ib];
	for (int32_t c = b->contact_list; c != SINEW_NULL_INDEX;) {
		sinew_contact *contact = &w->contacts[c];
		int e = sinew_contact_edge_of(contact, ib);
		int32_t next = contact->edges[e].next;
		if (contact->edges[e ^ 1].body == ia && sinew_bodies_jointed_without_collision(w, ia, ib))
			sinew_contact_destroy(w, c, false);
		c = next;
	}
	if (b->enabled) sinew_broadphase_refresh_body(w, b, true);
}

typedef struct common_frame {
	int32_t ia, ib;
	sinew_vec2 anchor_a, anchor_b; /* world */
	sinew_vec2 axis;               /* world, unit (or zero) */
	bool use_reference;
	float reference;
} common_frame;

static int32_t create_joint(sinew_world *w, sinew_joint_type type, const sinew_joint_base_def *base,
                            const common_frame *cf)
{
	uint32_t generation = sinew_world_next_generation(w);
	int32_t index;
	if (w->joint_free != SINEW_NULL_INDEX) {
		index = w->joint_free;
		w->joint_free = w->joints[index].next_free;
	} else {
		index = (int32_t)stbds_arrlen(w->joints);
		sinew_joint blank;
		memset(&blank, 0, sizeof blank);
		stbds_arrput(w->joints, blank);
	}
	sinew_joint *j = &w->joints[index];
	memset(j, 0, sizeof *j);
	j->generation = generation;
	j->in_use = true;
	j->type = (uint8_t)type;
	j->edges[0].body = cf->ia;
	j->edges[1].body = cf->ib;
	j->enabled = base->is_enabled;
	j->collide_connected = base->collide_connected;
	j->break_force = base->break_force;
	j->break_torque = base->break_torque;
	j->user_data = base->user_data;
	j->row_start = j->tree_node = -1;
	const sinew_body *bb = &w->bodies[cf->ib];
	sinew_transform xfa = sinew_transform_identity();
	sinew_vec2 center_a = cf->anchor_a;
	if (cf->ia != SINEW_NULL_INDEX) {
		xfa = w->bodies[cf->ia].xf;
		center_a = w->bodies[cf->ia].center;
	}
	j->local_anchor_a = sinew_inv_transform_point(xfa, cf->anchor_a);
	j->local_anchor_b = sinew_inv_transform_point(bb->xf, cf->anchor_b);
	j->local_axis_a = sinew_inv_rotate(xfa.q, cf->axis);
	j->reference_angle = cf->use_reference ? cf->reference : sinew_relative_angle(xfa.q, bb->xf.q);
	sinew_vec2 d = sinew_sub(bb->center, center_a);
	j->swing_reference = sinew_length_squared(d) > 0.0f ? sinew_atan2(d.y, d.x) : 0.0f;
	link_joint_edge(w, index, 0);
	link_joint_edge(w, index, 1);
	w->joint_count += 1;
	wake_joint_bodies(w, j);
	return index;
}

static bool begin_create(sinew_world_id world_id, const char *fn, sinew_world **w_out)
{
	sinew_world *w = sinew_world_get(world_id, fn);
	*w_out = w;
	return w != NULL && sinew_world_check_unlocked(w, fn);
}

/* What every create function checks first: the world, the def, its bodies and thresholds. */
static bool open_def(sinew_world_id world_id, const char *fn, const void *def, const sinew_joint_base_def *base,
                     int internal_value, sinew_world **w, int32_t *ia, int32_t *ib)
{
	if (!begin_create(world_id, fn, w) || !sinew_world_can_create(*w, fn)) return false;
	if (def == NULL) return bad(*w, SINEW_ERROR_INVALID_ARGUMENT, fn, "def is NULL");
	/* room first, so running out of memory changes nothing */
	if (!SINEW_RESERVE((*w)->joints, stbds_arrlen((*w)->joints) + 1)) return bad(*w, SINEW_ERROR_OUT_OF_MEMORY, fn, "out of memory");
	return check_base(*w, base, internal_value, fn, ia, ib);
}

#define OPEN_DEF(def) \
	open_def(world_id, fn, def, (def) ? &(def)->base : NULL, (def) ? (def)->internal_value : 0, &w, &ia, &ib)

static bool check_anchor(sinew_world *w, const char *fn, sinew_vec2 anchor)
{
	if (!finite2(anchor)) return bad(w, SINEW_ERROR_NOT_FINITE, fn, "anchor must be finite");
	return sinew_check_within_vec(w, fn, "anchor", anchor, sinew_world_max_coordinate(w));
}

/* The pair's contacts follow the new joint's collide_connected; hand out its id. */
static sinew_joint_id close_def(sinew_world *w, int32_t index)
{
	refresh_pair(w, &w->joints[index]);
	return make_joint_id(w, index);
}

static common_frame frame_at(int32_t ia, int32_t ib, sinew_vec2 anchor_a, sinew_vec2 anchor_b)
{
	common_frame cf;
	memset(&cf, 0, sizeof cf);
	cf.ia = ia;
	cf.ib = ib;
	cf.anchor_a = anchor_a;
	cf.anchor_b = anchor_b;
	return cf;
}

static bool unit_axis(sinew_world *w, const char *fn, sinew_vec2 axis, sinew_vec2 *out)
{
	if (!finite2(axis)) return bad(w, SINEW_ERROR_NOT_FINITE, fn, "axis must be finite");
	float len = sinew_length(axis);
	if (len < 1e-6f) return bad(w, SINEW_ERROR_INVALID_ARGUMENT, fn, "axis must not be zero");
	*out = sinew_scale(1.0f / len, axis);
	return true;
}

static bool check_reference(sinew_world *w, const char *fn, bool use, float value)
{
	if (use && !sinew_is_finite(value)) return bad(w, SINEW_ERROR_NOT_FINITE, fn, "reference_angle must be finite");
	return true;
}

sinew_joint_id sinew_create_pin_joint(sinew_world_id world_id, const sinew_pin_joint_def *def)
{
	const char *fn = "sinew_create_pin_joint";
	sinew_world *w;
	int32_t ia, ib;
	if (!OPEN_DEF(def) || !check_anchor(w, fn, def->anchor)) return sinew_null_joint_id;
	if (!check_nonneg_within(w, fn, "softness must be finite and >= 0", def->softness, SINEW_MAX_FORCE) ||
	    !check_nonneg_within(w, fn, "bias must be finite and >= 0", def->bias, SINEW_MAX_HERTZ) || !check_limit(w, fn, &def->limit) ||
	    !check_motor(w, fn, &def->motor))
		return sinew_null_joint_id;
	common_frame cf = frame_at(ia, ib, def->anchor, def->anchor);
	int32_t index = create_joint(w, SINEW_PIN_JOINT, &def->base, &cf);
	sinew_joint *j = &w->joints[index];
	j->softness = def->softness;
	j->bias = def->bias;
	j->limit = def->limit;
	j->limit.frame = SINEW_LIMIT_WORLD;
	j->motor = def->motor;
	return close_def(w, index);
}

sinew_joint_id sinew_create_revolute_joint(sinew_world_id world_id, const sinew_revolute_joint_def *def)
{
	const char *fn = "sinew_create_revolute_joint";
	sinew_world *w;
	int32_t ia, ib;
	if (!OPEN_DEF(def) || !check_anchor(w, fn, def->anchor)) return sinew_null_joint_id;
	if (!check_reference(w, fn, def->use_reference_angle, def->reference_angle) || !check_limit(w, fn, &def->limit) ||
	    !check_motor(w, fn, &def->motor) || !check_spring(w, fn, &def->spring))
		return sinew_null_joint_id;
	common_frame cf = frame_at(ia, ib, def->anchor, def->anchor);
	cf.use_reference = def->use_reference_angle;
	cf.reference = def->reference_angle;
	int32_t index = create_joint(w, SINEW_REVOLUTE_JOINT, &def->base, &cf);
	sinew_joint *j = &w->joints[index];
	j->limit = def->limit;
	j->motor = def->motor;
	j->spring = def->spring;
	return close_def(w, index);
}

sinew_joint_id sinew_create_prismatic_joint(sinew_world_id world_id, const sinew_prismatic_joint_def *def)
{
	const char *fn = "sinew_create_prismatic_joint";
	sinew_world *w;
	int32_t ia, ib;
	sinew_vec2 axis;
	if (!OPEN_DEF(def) || !check_anchor(w, fn, def->anchor)) return sinew_null_joint_id;
	if (!unit_axis(w, fn, def->axis, &axis) || !check_reference(w, fn, def->use_reference_angle, def->reference_angle) ||
	    !check_limit(w, fn, &def->limit) || !check_motor(w, fn, &def->motor) || !check_spring(w, fn, &def->spring))
		return sinew_null_joint_id;
	common_frame cf = frame_at(ia, ib, def->anchor, def->anchor);
	cf.axis = axis;
	cf.use_reference = def->use_reference_angle;
	cf.reference = def->reference_angle;
	int32_t index = create_joint(w, SINEW_PRISMATIC_JOINT, &def->base, &cf);
	sinew_joint *j = &w->joints[index];
	j->limit = def->limit;
	j->motor = def->motor;
	j->spring = def->spring;
	return close_def(w, index);
}

sinew_joint_id sinew_create_weld_joint(sinew_world_id world_id, const sinew_weld_joint_def *def)
{
	const char *fn = "sinew_create_weld_joint";
	sinew_world *w;
	int32_t ia, ib;
	if (!OPEN_DEF(def) || !check_anchor(w, fn, def->anchor)) return sinew_null_joint_id;
	if (!check_reference(w, fn, def->use_reference_angle, def->reference_angle) ||
	    !check_nonneg_within(w, fn, "linear_hertz must be finite and >= 0", def->linear_hertz, SINEW_MAX_HERTZ) ||
	    !check_nonneg_within(w, fn, "angular_hertz must be finite and >= 0", def->angular_hertz, SINEW_MAX_HERTZ) ||
	    !check_nonneg_within(w, fn, "linear_damping_ratio must be finite and >= 0", def->linear_damping_ratio, SINEW_MAX_COEFFICIENT) ||
	    !check_nonneg_within(w, fn, "angular_damping_ratio must be finite and >= 0", def->angular_damping_ratio, SINEW_MAX_COEFFICIENT))
		return sinew_null_joint_id;
	common_frame cf = frame_at(ia, ib, def->anchor, def->anchor);
	cf.use_reference = def->use_reference_angle;
	cf.reference = def->reference_angle;
	int32_t index = create_joint(w, SINEW_WELD_JOINT, &def->base, &cf);
	sinew_joint *j = &w->joints[index];
	j->linear_hertz = def->linear_hertz;
	j->linear_zeta = def->linear_damping_ratio;
	j->angular_hertz = def->angular_hertz;
	j->angular_zeta = def->angular_damping_ratio;
	return close_def(w, index);
}

static bool check_lengths(sinew_world *w, const char *fn, float length, float min_length, float max_length)
{
	if (!sinew_is_finite(length) || !sinew_is_finite(min_length) || !sinew_is_finite(max_length))
		return bad(w, SINEW_ERROR_NOT_FINITE, fn, "lengths must be finite");
	if (length < 0.0f || min_length < 0.0f || min_length > max_length || length < min_length || length > max_length)
		return bad(w, SINEW_ERROR_INVALID_ARGUMENT, fn, "lengths must satisfy 0 <= min_length <= length <= max_length");
	/* no longer than the envelope's diagonal: a longer rod would pull a body out of it */
	return sinew_check_within(w, fn, "max_length", max_length, 3.0f * sinew_world_max_coordinate(w));
}

sinew_joint_id sinew_create_distance_joint(sinew_world_id world_id, const sinew_distance_joint_def *def)
{
	const char *fn = "sinew_create_distance_joint";
	sinew_world *w;
	int32_t ia, ib;
	if (!OPEN_DEF(def) || !check_anchor(w, fn, def->anchor_a) || !check_anchor(w, fn, def->anchor_b))
		return sinew_null_joint_id;
	if (!sinew_is_finite(def->length))
		return bad(w, SINEW_ERROR_NOT_FINITE, fn, "length must be finite"), sinew_null_joint_id;
	float length = def->length >= 0.0f ? def->length : sinew_distance(def->anchor_a, def->anchor_b);
	float min_length = def->min_length < 0.0f ? length : def->min_length;
	float max_length = def->max_length < 0.0f ? length : def->max_length;
	if (!check_lengths(w, fn, length, min_length, max_length) || !check_motor(w, fn, &def->motor)) return sinew_null_joint_id;
	if (def->spring.enabled) { /* the spring's target is the rest length */
		sinew_joint_spring s = def->spring;
		s.target = 0.0f;
		if (!check_spring(w, fn, &s)) return sinew_null_joint_id;
	}
	common_frame cf = frame_at(ia, ib, def->anchor_a, def->anchor_b);
	int32_t index = create_joint(w, SINEW_DISTANCE_JOINT, &def->base, &cf);
	sinew_joint *j = &w->joints[index];
	j->length = length;
	j->min_length = min_length;
	j->max_length = max_length;
	j->spring = def->spring;
	j->motor = def->motor;
	return close_def(w, index);
}

sinew_joint_id sinew_create_wheel_joint(sinew_world_id world_id, const sinew_wheel_joint_def *def)
{
	const char *fn = "sinew_create_wheel_joint";
	sinew_world *w;
	int32_t ia, ib;
	sinew_vec2 axis;
	if (!OPEN_DEF(def) || !check_anchor(w, fn, def->anchor)) return sinew_null_joint_id;
	if (!unit_axis(w, fn, def->axis, &axis) || !check_limit(w, fn, &def->limit) || !check_motor(w, fn, &def->motor) ||
	    !check_spring(w, fn, &def->spring))
		return sinew_null_joint_id;
	common_frame cf = frame_at(ia, ib, def->anchor, def->anchor);
	cf.axis = axis;
	int32_t index = create_joint(w, SINEW_WHEEL_JOINT, &def->base, &cf);
	sinew_joint *j = &w->joints[index];
	j->spring = def->spring;
	j->limit = def->limit;
	j->motor = def->motor;
	return close_def(w, index);
}

static bool check_target_tuning(sinew_world *w, const char *fn, float hertz, float damping_ratio, float max_force)
{
	if (!sinew_is_finite(hertz) || !sinew_is_finite(damping_ratio) || isnan(max_force))
		return bad(w, SINEW_ERROR_NOT_FINITE, fn, "hertz and damping_ratio must be finite, max_force a number");
	if (hertz <= 0.0f || damping_ratio < 0.0f || max_force < 0.0f)
		return bad(w, SINEW_ERROR_INVALID_ARGUMENT, fn, "hertz must be > 0, damping_ratio and max_force >= 0");
	/* INFINITY force is documented (no cap); a finite one is bounded like a motor's effort */
	return sinew_check_within(w, fn, "hertz", hertz, SINEW_MAX_HERTZ) &&
	       sinew_check_within(w, fn, "damping_ratio", damping_ratio, SINEW_MAX_COEFFICIENT) &&
	       (isinf(max_force) || sinew_check_within(w, fn, "max_force", max_force, SINEW_MAX_FORCE));
}

sinew_joint_id sinew_create_target_joint(sinew_world_id world_id, const sinew_target_joint_def *def)
{
	const char *fn = "sinew_create_target_joint";
	sinew_world *w;
	int32_t ia, ib;
	if (!OPEN_DEF(def)) return sinew_null_joint_id;
	if (!check_anchor(w, fn, def->target) || !check_anchor(w, fn, def->anchor)) return sinew_null_joint_id;
	if (!check_target_tuning(w, fn, def->hertz, def->damping_ratio, def->max_force)) return sinew_null_joint_id;
	common_frame cf = frame_at(ia, ib, def->target, def->anchor);
	int32_t index = create_joint(w, SINEW_TARGET_JOINT, &def->base, &cf);
	sinew_joint *j = &w->joints[index];
	j->linear_hertz = def->hertz;
	j->linear_zeta = def->damping_ratio;
	j->max_force = def->max_force;
	return close_def(w, index);
}

/* ---------------------------------------------------------------- destruction and state */

void sinew_joint_destroy_internal(sinew_world *w, int32_t index)
{
	sinew_joint *j = &w->joints[index];
	wake_joint_bodies(w, j);
	unlink_joint_edge(w, index, 0);
	unlink_joint_edge(w, index, 1);
	j->in_use = false;
	j->enabled = false;
	refresh_pair(w, j);
	j->generation += 1;
	j->next_free = w->joint_free;
	w->joint_free = index;
	w->joint_count -= 1;
}

bool sinew_destroy_joint(sinew_joint_id joint_id)
{
	JOINT_MUT_OR(false, "sinew_destroy_joint");
	sinew_joint_destroy_internal(w, joint_id.index1 - 1);
	return true;
}

bool sinew_joint_is_valid(sinew_joint_id id)
{
	sinew_world *w = id.index1 > 0 ? sinew_world_peek(id.world0) : NULL;
	if (w == NULL) return false;
	int32_t i = id.index1 - 1;
	return i < (int32_t)stbds_arrlen(w->joints) && w->joints[i].in_use && w->joints[i].generation == id.generation;
}

sinew_joint_type sinew_joint_get_type(sinew_joint_id joint_id)
{
	JOINT_OR(SINEW_REVOLUTE_JOINT, "sinew_joint_get_type");
	return (sinew_joint_type)j->type;
}

sinew_body_id sinew_joint_get_body_a(sinew_joint_id joint_id)
{
	JOINT_OR(sinew_null_body_id, "sinew_joint_get_body_a");
	return j->edges[0].body == SINEW_NULL_INDEX ? sinew_null_body_id : sinew_make_body_id(w, j->edges[0].body);
}

sinew_body_id sinew_joint_get_body_b(sinew_joint_id joint_id)
{
	JOINT_OR(sinew_null_body_id, "sinew_joint_get_body_b");
	return sinew_make_body_id(w, j->edges[1].body);
}

bool sinew_joint_set_enabled(sinew_joint_id joint_id, bool enabled)
{
	JOINT_MUT_OR(false, "sinew_joint_set_enabled");
	if (j->enabled == enabled) return true;
	j->enabled = enabled;
	memset(j->impulses, 0, sizeof j->impulses);
	wake_joint_bodies(w, j);
	refresh_pair(w, j);
	return true;
}

bool sinew_joint_is_enabled(sinew_joint_id joint_id)
{
	JOINT_OR(false, "sinew_joint_is_enabled");
	return j->enabled && !j->broken;
}

bool sinew_joint_set_collide_connected(sinew_joint_id joint_id, bool flag)
{
	JOINT_MUT_OR(false, "sinew_joint_set_collide_connected");
	j->collide_connected = flag;
	refresh_pair(w, j);
	return true;
}

bool sinew_joint_set_user_data(sinew_joint_id joint_id, void *user_data)
{
	JOINT_OR(false, "sinew_joint_set_user_data");
	j->user_data = user_data;
	return true;
}

void *sinew_joint_get_user_data(sinew_joint_id joint_id)
{
	JOINT_OR(NULL, "sinew_joint_get_user_data");
	return j->user_data;
}

bool sinew_joint_set_break_thresholds(sinew_joint_id joint_id, float force, float torque)
{
	const char *fn = "sinew_joint_set_break_thresholds";
	JOINT_MUT_OR(false, fn);
	if (!check_nonneg(w, fn, "force must be finite and >= 0", force) ||
	    !check_nonneg(w, fn, "torque must be finite and >= 0", torque))
		return false;
	j->break_force = force;
	j->break_torque = torque;
	return true;
}

bool sinew_joint_is_broken(sinew_joint_id joint_id)
{
	JOINT_OR(false, "sinew_joint_is_broken");
	return j->broken;
}

bool sinew_joint_rebuild(sinew_joint_id joint_id)
{
	JOINT_MUT_OR(false, "sinew_joint_rebuild");
	j->broken = false;
	j->enabled = true;
	memset(j->impulses, 0, sizeof j->impulses);
	j->reaction_force = sinew_v2(0.0f, 0.0f);
	j->reaction_torque = 0.0f;
	wake_joint_bodies(w, j);
	refresh_pair(w, j);
	return true;
}

static bool has_limit(sinew_joint_type t)
{
	switch (t) {
	case SINEW_PIN_JOINT:
	case SINEW_REVOLUTE_JOINT:
	case SINEW_PRISMATIC_JOINT:
	case SINEW_WHEEL_JOINT: return true;
	case SINEW_WELD_JOINT:
	case SINEW_DISTANCE_JOINT:
	case SINEW_TARGET_JOINT:
	case SINEW_JOINT_TYPE_COUNT: return false;
	}
	return false;
}

static bool has_spring(sinew_joint_type t)
{
	switch (t) {
	case SINEW_REVOLUTE_JOINT:
	case SINEW_PRISMATIC_JOINT:
	case SINEW_DISTANCE_JOINT:
	case SINEW_WHEEL_JOINT: return true;
	case SINEW_PIN_JOINT:
	case SINEW_WELD_JOINT:
	case SINEW_TARGET_JOINT: /* its spring is set with sinew_target_joint_set_tuning */
	case SINEW_JOINT_TYPE_COUNT: return false;
	}
	return false;
}

static bool has_motor(sinew_joint_type t)
{
	return t != SINEW_WELD_JOINT && t != SINEW_TARGET_JOINT;
}

static bool feature_refused(sinew_world *w, const char *fn, const sinew_joint *j, const char *feature)
{
	static const char *const names[SINEW_JOINT_TYPE_COUNT] = {"pin", "revolute", "prismatic", "weld", "distance", "wheel",
	                                                                 "target"};
	sinew_world_error(w, SINEW_ERROR_INVALID_ARGUMENT, "%s: a %s joint has no %s", fn, names[j->type], feature);
	return false;
}

bool sinew_joint_set_limit(sinew_joint_id joint_id, sinew_joint_limit limit)
{
	const char *fn = "sinew_joint_set_limit";
	JOINT_MUT_OR(false, fn);
	if (!has_limit((sinew_joint_type)j->type)) return feature_refused(w, fn, j, "limit");
	if (!check_limit(w, fn, &limit)) return false;
	if (j->type == SINEW_PIN_JOINT) limit.frame = SINEW_LIMIT_WORLD;
	j->limit = limit;
	wake_joint_bodies(w, j);
	return true;
}

bool sinew_joint_set_motor(sinew_joint_id joint_id, sinew_joint_motor motor)
{
	const char *fn = "sinew_joint_set_motor";
	JOINT_MUT_OR(false, fn);
	if (!has_motor((sinew_joint_type)j->type)) return feature_refused(w, fn, j, "motor");
	if (!check_motor(w, fn, &motor)) return false;
	j->motor = motor;
	wake_joint_bodies(w, j);
	return true;
}

bool sinew_joint_set_spring(sinew_joint_id joint_id, sinew_joint_spring spring)
{
	const char *fn = "sinew_joint_set_spring";
	JOINT_MUT_OR(false, fn);
	if (!has_spring((sinew_joint_type)j->type)) return feature_refused(w, fn, j, "spring");
	if (!check_spring(w, fn, &spring)) return false;
	j->spring = spring;
	wake_joint_bodies(w, j);
	return true;
}

sinew_joint_limit sinew_joint_get_limit(sinew_joint_id joint_id)
{
	sinew_joint_limit none = {false, 0.0f, 0.0f, SINEW_LIMIT_LOCAL};
	JOINT_OR(none, "sinew_joint_get_limit");
	return j->limit;
}

sinew_joint_motor sinew_joint_get_motor(sinew_joint_id joint_id)
{
	sinew_joint_motor none = {false, 0.0f, 0.0f};
	JOINT_OR(none, "sinew_joint_get_motor");
	return j->motor;
}

sinew_joint_spring sinew_joint_get_spring(sinew_joint_id joint_id)
{
	JOINT_OR(default_spring(), "sinew_joint_get_spring");
	return j->spring;
}

bool sinew_weld_joint_set_softness(sinew_joint_id joint_id, float linear_hertz, float linear_damping_ratio,
                                   float angular_hertz, float angular_damping_ratio)
{
	const char *fn = "sinew_weld_joint_set_softness";
	JOINT_MUT_OR(false, fn);
	if (j->type != SINEW_WELD_JOINT) return bad(w, SINEW_ERROR_INVALID_ARGUMENT, fn, "not a weld joint");
	if (!check_nonneg_within(w, fn, "linear_hertz must be finite and >= 0", linear_hertz, SINEW_MAX_HERTZ) ||
	    !check_nonneg_within(w, fn, "linear_damping_ratio must be finite and >= 0", linear_damping_ratio, SINEW_MAX_COEFFICIENT) ||
	    !check_nonneg_within(w, fn, "angular_hertz must be finite and >= 0", angular_hertz, SINEW_MAX_HERTZ) ||
	    !check_nonneg_within(w, fn, "angular_damping_ratio must be finite and >= 0", angular_damping_ratio, SINEW_MAX_COEFFICIENT))
		return false;
	j->linear_hertz = linear_hertz;
	j->linear_zeta = linear_damping_ratio;
	j->angular_hertz = angular_hertz;
	j->angular_zeta = angular_damping_ratio;
	wake_joint_bodies(w, j);
	return true;
}

bool sinew_distance_joint_set_lengths(sinew_joint_id joint_id, float length, float min_length, float max_length)
{
	const char *fn = "sinew_distance_joint_set_lengths";
	JOINT_MUT_OR(false, fn);
	if (j->type != SINEW_DISTANCE_JOINT) return bad(w, SINEW_ERROR_INVALID_ARGUMENT, fn, "not a distance joint");
	if (!check_lengths(w, fn, length, min_length, max_length)) return false;
	j->length = length;
	j->min_length = min_length;
	j->max_length = max_length;
	wake_joint_bodies(w, j);
	return true;
}

bool sinew_pin_joint_set_softness(sinew_joint_id joint_id, float softness, float bias)
{
	const char *fn = "sinew_pin_joint_set_softness";
	JOINT_MUT_OR(false, fn);
	if (j->type != SINEW_PIN_JOINT) return bad(w, SINEW_ERROR_INVALID_ARGUMENT, fn, "not a pin joint");
	if (!check_nonneg_within(w, fn, "softness must be finite and >= 0", softness, SINEW_MAX_FORCE) ||
	    !check_nonneg_within(w, fn, "bias must be finite and >= 0", bias, SINEW_MAX_HERTZ))
		return false;
	j->softness = softness;
	j->bias = bias;
	wake_joint_bodies(w, j);
	return true;
}

/* The target as a world point: the stored anchor on A carried by A's transform. */
static sinew_vec2 target_point(const sinew_world *w, const sinew_joint *j)
{
	int32_t ia = j->edges[0].body;
	return ia == SINEW_NULL_INDEX ? j->local_anchor_a : sinew_transform_point(w->bodies[ia].xf, j->local_anchor_a);
}

bool sinew_target_joint_set_target(sinew_joint_id joint_id, sinew_vec2 target)
{
	const char *fn = "sinew_target_joint_set_target";
	JOINT_MUT_OR(false, fn);
	if (j->type != SINEW_TARGET_JOINT) return bad(w, SINEW_ERROR_INVALID_ARGUMENT, fn, "not a target joint");
	if (!check_anchor(w, fn, target)) return false;
	int32_t ia = j->edges[0].body;
	sinew_vec2 local = ia == SINEW_NULL_INDEX ? target : sinew_inv_transform_point(w->bodies[ia].xf, target);
	if (local.x == j->local_anchor_a.x && local.y == j->local_anchor_a.y) return true;
	j->local_anchor_a = local;
	wake_joint_bodies(w, j);
	return true;
}

sinew_vec2 sinew_target_joint_get_target(sinew_joint_id joint_id)
{
	const char *fn = "sinew_target_joint_get_target";
	JOINT_OR(sinew_v2(0.0f, 0.0f), fn);
	if (j->type != SINEW_TARGET_JOINT) return bad(w, SINEW_ERROR_INVALID_ARGUMENT, fn, "not a target joint"), sinew_v2(0.0f, 0.0f);
	return target_point(w, j);
}

bool sinew_target_joint_set_tuning(sinew_joint_id joint_id, float hertz, float damping_ratio, float max_force)
{
	const char *fn = "sinew_target_joint_set_tuning";
	JOINT_MUT_OR(false, fn);
	if (j->type != SINEW_TARGET_JOINT) return bad(w, SINEW_ERROR_INVALID_ARGUMENT, fn, "not a target joint");
	if (!check_target_tuning(w, fn, hertz, damping_ratio, max_force)) return false;
	j->linear_hertz = hertz;
	j->linear_zeta = damping_ratio;
	j->max_force = max_force;
	wake_joint_bodies(w, j);
	return true;
}

bool sinew_target_joint_get_tuning(sinew_joint_id joint_id, float *hertz, float *damping_ratio, float *max_force)
{
	const char *fn = "sinew_target_joint_get_tuning";
	if (hertz != NULL) *hertz = 0.0f;
	if (damping_ratio != NULL) *damping_ratio = 0.0f;
	if (max_force != NULL) *max_force = 0.0f;
	JOINT_OR(false, fn);
	if (j->type != SINEW_TARGET_JOINT) return bad(w, SINEW_ERROR_INVALID_ARGUMENT, fn, "not a target joint");
	if (hertz != NULL) *hertz = j->linear_hertz;
	if (damping_ratio != NULL) *damping_ratio = j->linear_zeta;
	if (max_force != NULL) *max_force = j->max_force;
	return true;
}

/* ---------------------------------------------------------------- authored frames */

sinew_vec2 sinew_joint_get_local_anchor_a(sinew_joint_id joint_id)
{
	JOINT_OR(sinew_v2(0.0f, 0.0f), "sinew_joint_get_local_anchor_a");
	return j->local_anchor_a;
}

sinew_vec2 sinew_joint_get_local_anchor_b(sinew_joint_id joint_id)
{
	JOINT_OR(sinew_v2(0.0f, 0.0f), "sinew_joint_get_local_anchor_b");
	return j->local_anchor_b;
}

sinew_vec2 sinew_joint_get_local_axis_a(sinew_joint_id joint_id)
{
	JOINT_OR(sinew_v2(0.0f, 0.0f), "sinew_joint_get_local_axis_a");
	if (j->type != SINEW_PRISMATIC_JOINT && j->type != SINEW_WHEEL_JOINT) return sinew_v2(0.0f, 0.0f);
	return j->local_axis_a;
}

float sinew_joint_get_reference_angle(sinew_joint_id joint_id)
{
	JOINT_OR(0.0f, "sinew_joint_get_reference_angle");
	return j->reference_angle;
}

float sinew_joint_get_swing_reference(sinew_joint_id joint_id)
{
	JOINT_OR(0.0f, "sinew_joint_get_swing_reference");
	return j->swing_reference;
}

static void put(float *out, float value)
{
	if (out != NULL) *out = value;
}

bool sinew_joint_get_break_thresholds(sinew_joint_id joint_id, float *force, float *torque)
{
	put(force, 0.0f), put(torque, 0.0f);
	JOINT_OR(false, "sinew_joint_get_break_thresholds");
	put(force, j->break_force), put(torque, j->break_torque);
	return true;
}

bool sinew_joint_get_collide_connected(sinew_joint_id joint_id)
{
	JOINT_OR(false, "sinew_joint_get_collide_connected");
	return j->collide_connected;
}

bool sinew_distance_joint_get_lengths(sinew_joint_id joint_id, float *length, float *min_length, float *max_length)
{
	const char *fn = "sinew_distance_joint_get_lengths";
	put(length, 0.0f), put(min_length, 0.0f), put(max_length, 0.0f);
	JOINT_OR(false, fn);
	if (j->type != SINEW_DISTANCE_JOINT) return bad(w, SINEW_ERROR_INVALID_ARGUMENT, fn, "not a distance joint");
	put(length, j->length), put(min_length, j->min_length), put(max_length, j->max_length);
	return true;
}

bool sinew_weld_joint_get_softness(sinew_joint_id joint_id, float *linear_hertz, float *linear_damping_ratio,
                                   float *angular_hertz, float *angular_damping_ratio)
{
	const char *fn = "sinew_weld_joint_get_softness";
	put(linear_hertz, 0.0f), put(linear_damping_ratio, 0.0f), put(angular_hertz, 0.0f), put(angular_damping_ratio, 0.0f);
	JOINT_OR(false, fn);
	if (j->type != SINEW_WELD_JOINT) return bad(w, SINEW_ERROR_INVALID_ARGUMENT, fn, "not a weld joint");
	put(linear_hertz, j->linear_hertz), put(linear_damping_ratio, j->linear_zeta);
	put(angular_hertz, j->angular_hertz), put(angular_damping_ratio, j->angular_zeta);
	return true;
}

bool sinew_pin_joint_get_softness(sinew_joint_id joint_id, float *softness, float *bias)
{
	const char *fn = "sinew_pin_joint_get_softness";
	put(softness, 0.0f), put(bias, 0.0f);
	JOINT_OR(false, fn);
	if (j->type != SINEW_PIN_JOINT) return bad(w, SINEW_ERROR_INVALID_ARGUMENT, fn, "not a pin joint");
	put(softness, j->softness), put(bias, j->bias);
	return true;
}

bool sinew_joint_set_local_anchors(sinew_joint_id joint_id, sinew_vec2 local_anchor_a, sinew_vec2 local_anchor_b)
{
	const char *fn = "sinew_joint_set_local_anchors";
	JOINT_MUT_OR(false, fn);
	if (!check_anchor(w, fn, local_anchor_a) || !check_anchor(w, fn, local_anchor_b)) return false;
	j->local_anchor_a = local_anchor_a;
	j->local_anchor_b = local_anchor_b;
	wake_joint_bodies(w, j);
	return true;
}

bool sinew_joint_set_local_axis_a(sinew_joint_id joint_id, sinew_vec2 local_axis)
{
	const char *fn = "sinew_joint_set_local_axis_a";
	JOINT_MUT_OR(false, fn);
	if (j->type != SINEW_PRISMATIC_JOINT && j->type != SINEW_WHEEL_JOINT) return feature_refused(w, fn, j, "axis");
	sinew_vec2 axis;
	if (!unit_axis(w, fn, local_axis, &axis)) return false;
	/* a unit axis (one read back from sinew_joint_get_local_axis_a) is kept bit for bit */
	j->local_axis_a = sinew_absf(sinew_length(local_axis) - 1.0f) <= 1e-5f ? local_axis : axis;
	wake_joint_bodies(w, j);
	return true;
}

bool sinew_joint_set_reference_angle(sinew_joint_id joint_id, float angle)
{
	const char *fn = "sinew_joint_set_reference_angle";
	JOINT_MUT_OR(false, fn);
	if (!check_reference(w, fn, true, angle)) return false;
	j->reference_angle = angle;
	wake_joint_bodies(w, j);
	return true;
}

bool sinew_joint_set_swing_reference(sinew_joint_id joint_id, float angle)
{
	const char *fn = "sinew_joint_set_swing_reference";
	JOINT_MUT_OR(false, fn);
	if (!sinew_is_finite(angle)) return bad(w, SINEW_ERROR_NOT_FINITE, fn, "swing reference must be finite");
	j->swing_reference = angle;
	wake_joint_bodies(w, j);
	return true;
}

/* ---------------------------------------------------------------- measurements */

sinew_vec2 sinew_joint_get_reaction_force(sinew_joint_id joint_id)
{
	JOINT_OR(sinew_v2(0.0f, 0.0f), "sinew_joint_get_reaction_force");
	return j->reaction_force;
}

float sinew_joint_get_reaction_torque(sinew_joint_id joint_id)
{
	JOINT_OR(0.0f, "sinew_joint_get_reaction_torque");
	return j->reaction_torque;
}

float sinew_joint_get_linear_error(sinew_joint_id joint_id)
{
	JOINT_OR(0.0f, "sinew_joint_get_linear_error");
	sinew_joint_frame f = sinew_joint_current_frame(w, j);
	sinew_vec2 d = sinew_sub(f.p_b, f.p_a);
	switch ((sinew_joint_type)j->type) {
	case SINEW_PIN_JOINT:
	case SINEW_REVOLUTE_JOINT:
	case SINEW_WELD_JOINT:
	case SINEW_TARGET_JOINT: return sinew_length(d);
	case SINEW_PRISMATIC_JOINT:
	case SINEW_WHEEL_JOINT: return sinew_absf(sinew_dot(sinew_left_perp(sinew_joint_axis(j, &f)), d));
	case SINEW_DISTANCE_JOINT: {
		float len = sinew_length(d);
		return sinew_maxf(0.0f, sinew_maxf(j->min_length - len, len - j->max_length));
	}
	case SINEW_JOINT_TYPE_COUNT: break;
	}
	return 0.0f;
}

float sinew_joint_get_angle(sinew_joint_id joint_id)
{
	JOINT_OR(0.0f, "sinew_joint_get_angle");
	sinew_joint_frame f = sinew_joint_current_frame(w, j);
	if (j->type == SINEW_PIN_JOINT) return sinew_joint_swing_angle(j, &f);
	return sinew_joint_relative_angle(j, &f);
}

float sinew_joint_get_angular_speed(sinew_joint_id joint_id)
{
	JOINT_OR(0.0f, "sinew_joint_get_angular_speed");
	float wa = j->edges[0].body == SINEW_NULL_INDEX ? 0.0f : w->bodies[j->edges[0].body].w;
	return w->bodies[j->edges[1].body].w - wa;
}

float sinew_joint_get_translation(sinew_joint_id joint_id)
{
	JOINT_OR(0.0f, "sinew_joint_get_translation");
	sinew_joint_frame f = sinew_joint_current_frame(w, j);
	sinew_vec2 d = sinew_sub(f.p_b, f.p_a);
	if (j->type == SINEW_DISTANCE_JOINT) return sinew_length(d);
	return sinew_dot(sinew_joint_axis(j, &f), d);
}

static sinew_vec2 point_velocity(const sinew_world *w, int32_t bi, sinew_vec2 p)
{
	if (bi == SINEW_NULL_INDEX) return sinew_v2(0.0f, 0.0f);
	const sinew_body *b = &w->bodies[bi];
	return sinew_add(b->v, sinew_cross_sv(b->w, sinew_sub(p, b->center)));
}

float sinew_joint_get_linear_speed(sinew_joint_id joint_id)
{
	JOINT_OR(0.0f, "sinew_joint_get_linear_speed");
	sinew_joint_frame f = sinew_joint_current_frame(w, j);
	sinew_vec2 dv = sinew_sub(point_velocity(w, j->edges[1].body, f.p_b), point_velocity(w, j->edges[0].body, f.p_a));
	sinew_vec2 d = sinew_sub(f.p_b, f.p_a);
	if (j->type == SINEW_DISTANCE_JOINT) return sinew_dot(sinew_normalize(d), dv);
	sinew_vec2 axis = sinew_joint_axis(j, &f);
	float wa = j->edges[0].body == SINEW_NULL_INDEX ? 0.0f : w->bodies[j->edges[0].body].w;
	return sinew_dot(axis, dv) + sinew_dot(sinew_cross_sv(wa, axis), d);
}

float sinew_joint_get_limit_violation(sinew_joint_id joint_id)
{
	JOINT_OR(0.0f, "sinew_joint_get_limit_violation");
	if (!j->limit.enabled && j->type != SINEW_DISTANCE_JOINT) return 0.0f;
	sinew_joint_frame f = sinew_joint_current_frame(w, j);
	float value, lower = j->limit.lower, upper = j->limit.upper;
	switch ((sinew_joint_type)j->type) {
	case SINEW_PIN_JOINT: value = sinew_joint_swing_in_band(j, &f); break;
	case SINEW_REVOLUTE_JOINT:
		value = j->limit.frame == SINEW_LIMIT_WORLD ? sinew_joint_swing_in_band(j, &f) : sinew_joint_relative_angle(j, &f);
		break;
	case SINEW_PRISMATIC_JOINT:
	case SINEW_WHEEL_JOINT: value = sinew_dot(sinew_joint_axis(j, &f), sinew_sub(f.p_b, f.p_a)); break;
	case SINEW_DISTANCE_JOINT:
		value = sinew_distance(f.p_a, f.p_b), lower = j->min_length, upper = j->max_length;
		break;
	case SINEW_WELD_JOINT:
	case SINEW_TARGET_JOINT:
	case SINEW_JOINT_TYPE_COUNT:
	default: return 0.0f;
	}
	return sinew_maxf(0.0f, sinew_maxf(lower - value, value - upper));
}

int sinew_body_get_joint_count(sinew_body_id body_id)
{
	sinew_world *w;
	sinew_body *b = sinew_body_lookup(body_id, &w, "sinew_body_get_joint_count");
	return b != NULL ? b->joint_count : 0;
}

int sinew_body_get_joints(sinew_body_id body_id, sinew_joint_id *out, int capacity)
{
	sinew_world *w;
	sinew_body *b = sinew_body_lookup(body_id, &w, "sinew_body_get_joints");
	if (b == NULL) return 0;
	if (out == NULL || capacity < 0) {
		bad(w, SINEW_ERROR_INVALID_ARGUMENT, "sinew_body_get_joints", "no room to write into");
		return 0;
	}
	int32_t bi = body_id.index1 - 1;
	int n = 0;
	for (int32_t ji = b->joint_list; ji != SINEW_NULL_INDEX && n < capacity;) {
		out[n++] = make_joint_id(w, ji);
		const sinew_joint *j = &w->joints[ji];
		ji = j->edges[sinew_joint_edge_of(j, bi)].next;
	}
	return n;
}

int sinew_world_get_joints(sinew_world_id world_id, sinew_joint_id *out, int capacity)
{
	sinew_world *w = sinew_world_get(world_id, "sinew_world_get_joints");
	if (w == NULL) return 0;
	if (out == NULL || capacity < 0) {
		bad(w, SINEW_ERROR_INVALID_ARGUMENT, "sinew_world_get_joints", "no room to write into");
		return 0;
	}
	int n = 0, count = (int)stbds_arrlen(w->joints);
	for (int32_t ji = 0; ji < count && n < capacity; ++ji) {
		if (w->joints[ji].in_use) out[n++] = make_joint_id(w, ji);
	}
	return n;
}

sinew_joint_events sinew_world_get_joint_events(sinew_world_id world_id)
{
	sinew_joint_events e = {NULL, 0};
	sinew_world *w = sinew_world_get(world_id, "sinew_world_get_joint_events");
	if (w == NULL) return e;
	e.broken_events = w->joint_broken_events;
	e.broken_count = (int)stbds_arrlen(w->joint_broken_events);
	return e;
}

bool sinew_bodies_jointed_without_collision(const sinew_world *w, int32_t body_a, int32_t body_b)
{
	const sinew_body *a = &w->bodies[body_a], *b = &w->bodies[body_b];
	int32_t bi = a->joint_count <= b->joint_count ? body_a : body_b;
	int32_t other = bi == body_a ? body_b : body_a;
	for (int32_t ji = w->bodies[bi].joint_list; ji != SINEW_NULL_INDEX;) {
		const sinew_joint *j = &w->joints[ji];
		int e = sinew_joint_edge_of(j, bi);
		if (j->edges[e ^ 1].body == other && !j->collide_connected && j->enabled && !j->broken) return true;
		ji = j->edges[e].next;
	}
	return false;
}
