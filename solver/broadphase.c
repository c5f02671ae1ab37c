/* Broadphase: three dynamic AABB trees (static, kinematic, dynamic shapes) holding fat boxes.
 * A shape whose tight box leaves its fat box is re-inserted and marked moved; at the start of the
 * next step every moved shape queries the trees it can collide with, and each new overlapping
 * pair becomes a contact. Static shapes never query the static tree, so resting scenery costs
 * nothing. Pairs are sorted before contacts are made, so the result never depends on the order
 * the trees happen to report them in beyond their (deterministic) structure. */
#include "joint.h"

#include <stdlib.h>

bool sinew_shapes_should_collide(const sinew_shape *a, const sinew_shape *b)
{
	if (a->group != 0 && a->group == b->group) return false;
	return (a->layer & b->mask) != 0 || (b->layer & a->mask) != 0;
}

typedef struct pair_query {
	sinew_world *world;
	int32_t shape;
} pair_query;

static bool collect_pair(int32_t proxy_id, uint64_t user_data, void *context)
{
	SINEW_UNUSED(proxy_id);
	pair_query *q = context;
	int32_t other = (int32_t)user_data;
	if (other == q->shape) return true;
	sinew_world *w = q->world;
	const sinew_shape *a = &w->shapes[q->shape], *b = &w->shapes[other];
	if (a->body == b->body || !sinew_shapes_should_collide(a, b)) return true;
	if ((w->bodies[a->body].joint_count > 0 && w->bodies[b->body].joint_count > 0) &&
	    sinew_bodies_jointed_without_collision(w, a->body, b->body))
		return true;
	int32_t lo = q->shape < other ? q->shape : other, hi = q->shape < other ? other : q->shape;
	stbds_arrput(w->pair_buffer, ((int64_t)lo << 32) | (int64_t)hi);
	return true;
}

static int compare_pairs(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Is there a contact between the two shapes already? Walk the shorter of the two bodies' lists. */
static bool contact_exists(const sinew_world *w, int32_t shape_a, int32_t shape_b)
{
	int32_t ba = w->shapes[shape_a].body, bb = w->shapes[shape_b].body;
	int32_t body = w->bodies[ba].contact_count <= w->bodies[bb].contact_count ? ba : bb;
	for (int32_t c = w->bodies[body].contact_list; c != SINEW_NULL_INDEX;) {
		const sinew_contact *contact = &w->contacts[c];
		if ((contact->shape_a == shape_a && contact->shape_b == shape_b) ||
		    (contact->shape_a == shape_b && contact->shape_b == shape_a))
			return true;
		c = contact->edges[sinew_contact_edge_of(contact, body)].next;
	}
	return false;
}

void sinew_broadphase_update_pairs(sinew_world *w)
{
	stbds_arrsetlen(w->pair_buffer, 0);
	int n = (int)stbds_arrlen(w->moved_shapes);
	for (int i = 0; i < n; ++i) {
		int32_t si = w->moved_shapes[i];
		sinew_shape *s = &w->shapes[si];
		s->moved = false;
		if (!s->in_use || s->proxy == SINEW_NULL_NODE) continue;
		pair_query q = {w, si};
		/* dynamic shapes meet everything; static and kinematic shapes meet only dynamic ones */
		if (s->tree == SINEW_TREE_DYNAMIC) {
			sinew_dynamic_tree_query(&w->trees[SINEW_TREE_STATIC], s->fat_aabb, UINT32_MAX, collect_pair, &q);
			sinew_dynamic_tree_query(&w->trees[SINEW_TREE_KINEMATIC], s->fat_aabb, UINT32_MAX, collect_pair, &q);
		}
		sinew_dynamic_tree_query(&w->trees[SINEW_TREE_DYNAMIC], s->fat_aabb, UINT32_MAX, collect_pair, &q);
	}
	stbds_arrsetlen(w->moved_shapes, 0);
	int count = (int)stbds_arrlen(w->pair_buffer);
	if (count > 1) qsort(w->pair_buffer, (size_t)count, sizeof(int64_t), compare_pairs);
	for (int i = 0; i < count; ++i) {
		if (i > 0 && w->pair_buffer[i] == w->pair_buffer[i - 1]) continue;
		int32_t a = (int32_t)(w->pair_buffer[i] >> 32), b = (int32_t)(w->pair_buffer[i] & 0xffffffff);
		if (!contact_exists(w, a, b)) sinew_contact_create(w, a, b);
	}
}

/* After a body moved: refresh its shapes' tight boxes; a shape that left its fat box (or all of
 * them, when force_move) gets a new fat box and looks for pairs at the next step. */
void sinew_broadphase_refresh_body(sinew_world *w, sinew_body *b, bool force_move)
{
	float margin = b->type == SINEW_STATIC_BODY ? 0.0f : w->aabb_margin;
	for (int32_t si = b->shape_list; si != SINEW_NULL_INDEX; si = w->shapes[si].next) {
		sinew_shape *s = &w->shapes[si];
		if (s->proxy == SINEW_NULL_NODE) continue;
		s->aabb = sinew_compute_aabb(&s->geom, b->xf);
		if (!force_move && sinew_aabb_contains(s->fat_aabb, s->aabb)) continue;
		s->fat_aabb.lower = sinew_sub(s->aabb.lower, sinew_v2(margin, margin));
		s->fat_aabb.upper = sinew_add(s->aabb.upper, sinew_v2(margin, margin));
		sinew_world_scope scope = sinew_world_scope_enter(w);
		sinew_dynamic_tree_move_proxy(&w->trees[s->tree], s->proxy, s->fat_aabb);
		sinew_world_scope_leave(w, scope);
		if (!s->moved) {
			s->moved = true;
			stbds_arrput(w->moved_shapes, si);
		}
	}
}
