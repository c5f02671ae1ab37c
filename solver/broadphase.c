/* Broadphase: three dynamic AABB trees (static, kinematic, dynamic shapes) holding fat boxes.
 * A shape whose tight box leaves its fat box gets a new fat box, written into its leaf in place
 * (the ancestors grow; nothing is removed or re-inserted), and is marked moved. At the start of
 * the next step each tree rebuilds the part those boxes loosened (sinew_dynamic_tree_rebuild_enlarged:
 * the nodes above them, once, however many moved), then every moved shape queries the trees it
 * can collide with, and each new overlapping pair becomes a contact. Static shapes never query
 * the static tree, so resting scenery costs nothing. A pair of two moved shapes is taken by one
 * of them only; a pair that has a contact already is dropped as the trees report it (the pair
 * set below holds every contact by its shape pair); the new pairs are sorted before contacts are
 * made, so the result never depends on the order the trees happen to report them in. */
#include "joint.h"
#include "sort.h"
#include "tree_pairs.h"

#include <stdlib.h>
#include <string.h>

bool sinew_shapes_should_collide(const sinew_shape *a, const sinew_shape *b)
{
	if (a->group != 0 && a->group == b->group) return false;
	return (a->layer & b->mask) != 0 || (b->layer & a->mask) != 0;
}

static int32_t pair_find(const sinew_world *w, int32_t shape_a, int32_t shape_b);

/* The dynamic tree walks against itself when at least this many quarters of its shapes moved.
 * The walk visits the pairs of shapes that did not move too, so it pays only when many did:
 * tumbler's first 100 steps (callgrind) cost 1,852 M instructions with queries only, 1,827 M with
 * the walk from a quarter, 1,816 M from half and 1,829 M from three quarters. */
#ifndef SINEW_SELF_PAIRS_QUARTERS
#define SINEW_SELF_PAIRS_QUARTERS 2
#endif

typedef struct pair_query {
	sinew_world *world;
	int32_t shape;
} pair_query;

/* A pair of two different shapes whose fat boxes overlap, one of them moved: a new pair unless
 * the shapes are on one body, filtered out, jointed without collision, or have their contact. */
static void consider_pair(sinew_world *w, int32_t shape_a, int32_t shape_b)
{
	const sinew_shape *a = &w->shapes[shape_a], *b = &w->shapes[shape_b];
	if (a->body == b->body || !sinew_shapes_should_collide(a, b)) return;
	if ((w->bodies[a->body].joint_count > 0 && w->bodies[b->body].joint_count > 0) &&
	    sinew_bodies_jointed_without_collision(w, a->body, b->body))
		return;
	if (pair_find(w, shape_a, shape_b) >= 0) return; /* the contact exists */
	int32_t lo = shape_a < shape_b ? shape_a : shape_b, hi = shape_a < shape_b ? shape_b : shape_a;
	stbds_arrput(w->pair_buffer, ((int64_t)lo << 32) | (int64_t)hi);
}

static bool collect_pair(int32_t proxy_id, uint64_t user_data, void *context)
{
	SINEW_UNUSED(proxy_id);
	pair_query *q = context;
	int32_t other = (int32_t)user_data;
	if (other == q->shape) return true;
	/* both moved: the one with the higher index takes the pair (either finds the other, since
	 * a pair that can make a contact has a dynamic shape, and every moved shape queries the
	 * dynamic tree and a dynamic one every tree) */
	if (q->world->shapes[other].moved && other < q->shape) return true;
	consider_pair(q->world, q->shape, other);
	return true;
}

/* A pair of the dynamic tree's walk against itself: a pair a query would have found has a moved
 * shape. */
static void collect_tree_pair(uint64_t user_a, uint64_t user_b, void *context)
{
	sinew_world *w = context;
	int32_t a = (int32_t)user_a, b = (int32_t)user_b;
	if (!w->shapes[a].moved && !w->shapes[b].moved) return;
	consider_pair(w, a, b);
}

/* Ascending sort of the new pair keys (solver/sort.h; it replaced qsort, which called a comparison
 * function per step of the sort and, in glibc, takes a merge buffer from malloc). */
SINEW_DEFINE_SORT(sort_pairs, int64_t)

/* ---- the pair set: every contact by its shape pair ----
 * The key is (lower shape << 32 | higher shape); a pair has two different shapes, so the higher
 * index is at least 1, no key is 0, and 0 marks an empty slot. Linear probing, at
 * most half full; removal shifts the following entries back (no tombstones), so lookups stay
 * short however many contacts come and go. */
static uint64_t pair_key(int32_t shape_a, int32_t shape_b)
{
	uint32_t lo = (uint32_t)(shape_a < shape_b ? shape_a : shape_b), hi = (uint32_t)(shape_a < shape_b ? shape_b : shape_a);
	return (uint64_t)lo << 32 | hi;
}

static int32_t pair_home(uint64_t key, int32_t capacity)
{
	return (int32_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & (capacity - 1);
}

static void pair_put(uint64_t *keys, int32_t *contacts, int32_t capacity, uint64_t key, int32_t contact)
{
	int32_t i = pair_home(key, capacity);
	while (keys[i] != 0) i = (i + 1) & (capacity - 1);
	keys[i] = key;
	contacts[i] = contact;
}

bool sinew_pair_set_reserve(sinew_world *w, int32_t more)
{
	int64_t need = 2 * ((int64_t)w->pair_set.count + more);
	if (need <= w->pair_set.capacity) return true;
	int32_t capacity = w->pair_set.capacity > 0 ? w->pair_set.capacity : 64;
	while (capacity < need) capacity *= 2;
	uint64_t *keys = sinew_alloc_zeroed((size_t)capacity * sizeof *keys);
	int32_t *contacts = sinew_alloc((size_t)capacity * sizeof *contacts);
	if (keys == NULL || contacts == NULL) {
		sinew_free(keys);
		sinew_free(contacts);
		sinew_world_error(w, SINEW_ERROR_OUT_OF_MEMORY, "out of memory for the contact pair set (%d pairs)", (int)(w->pair_set.count + more));
		return false;
	}
	for (int32_t i = 0; i < w->pair_set.capacity; ++i)
		if (w->pair_set.keys[i] != 0) pair_put(keys, contacts, capacity, w->pair_set.keys[i], w->pair_set.contacts[i]);
	sinew_free(w->pair_set.keys);
	sinew_free(w->pair_set.contacts);
	w->pair_set.keys = keys;
	w->pair_set.contacts = contacts;
	w->pair_set.capacity = capacity;
	return true;
}

void sinew_pair_set_add(sinew_world *w, int32_t shape_a, int32_t shape_b, int32_t contact)
{
	SINEW_ASSERT(2 * (w->pair_set.count + 1) <= w->pair_set.capacity);
	pair_put(w->pair_set.keys, w->pair_set.contacts, w->pair_set.capacity, pair_key(shape_a, shape_b), contact);
	w->pair_set.count += 1;
}

/* The slot of the pair, or -1. */
static int32_t pair_find(const sinew_world *w, int32_t shape_a, int32_t shape_b)
{
	int32_t capacity = w->pair_set.capacity;
	if (capacity == 0) return -1;
	uint64_t key = pair_key(shape_a, shape_b);
	for (int32_t i = pair_home(key, capacity);; i = (i + 1) & (capacity - 1)) {
		if (w->pair_set.keys[i] == key) return i;
		if (w->pair_set.keys[i] == 0) return -1;
	}
}

void sinew_pair_set_remove(sinew_world *w, int32_t shape_a, int32_t shape_b)
{
	int32_t i = pair_find(w, shape_a, shape_b);
	SINEW_ASSERT(i >= 0);
	if (i < 0) return;
	uint64_t *keys = w->pair_set.keys;
	int32_t *contacts = w->pair_set.contacts;
	int32_t mask = w->pair_set.capacity - 1;
	/* shift back every following entry of the run that may sit at or before the hole */
	for (int32_t j = (i + 1) & mask; keys[j] != 0; j = (j + 1) & mask) {
		int32_t home = pair_home(keys[j], w->pair_set.capacity);
		/* j's entry may move into the hole i when its home is not in the (cyclic) range (i, j] */
		bool home_between = i <= j ? (home > i && home <= j) : (home > i || home <= j);
		if (home_between) continue;
		keys[i] = keys[j];
		contacts[i] = contacts[j];
		i = j;
	}
	keys[i] = 0;
	w->pair_set.count -= 1;
}

void sinew_pair_set_free(sinew_world *w)
{
	sinew_free(w->pair_set.keys);
	sinew_free(w->pair_set.contacts);
	memset(&w->pair_set, 0, sizeof w->pair_set);
}

void sinew_broadphase_update_pairs(sinew_world *w)
{
	for (int t = 0; t < SINEW_TREE_COUNT; ++t) sinew_dynamic_tree_rebuild_enlarged(&w->trees[t]);
	stbds_arrsetlen(w->pair_buffer, 0);
	int n = (int)stbds_arrlen(w->moved_shapes);
	/* When most of the dynamic tree moved, one walk of the tree against itself finds its pairs for
	 * less than a query per moved shape (each walks the same upper nodes): those pairs come from
	 * the walk, and the moved dynamic shapes query only the other two trees. */
	const sinew_dynamic_tree *dynamic = &w->trees[SINEW_TREE_DYNAMIC];
	bool self_pairs = false;
	if (4 * n >= SINEW_SELF_PAIRS_QUARTERS * dynamic->proxy_count) {
		int moved_dynamic = 0;
		for (int i = 0; i < n; ++i) moved_dynamic += w->shapes[w->moved_shapes[i]].tree == SINEW_TREE_DYNAMIC;
		self_pairs = 4 * moved_dynamic >= SINEW_SELF_PAIRS_QUARTERS * dynamic->proxy_count && dynamic->proxy_count > 0;
	}
	if (self_pairs) sinew_dynamic_tree_self_pairs(dynamic, collect_tree_pair, w);
	for (int i = 0; i < n; ++i) {
		int32_t si = w->moved_shapes[i];
		sinew_shape *s = &w->shapes[si];
		if (!s->in_use || s->proxy == SINEW_NULL_NODE) continue;
		pair_query q = {w, si};
		/* dynamic shapes meet everything; static and kinematic shapes meet only dynamic ones */
		if (s->tree == SINEW_TREE_DYNAMIC) {
			sinew_dynamic_tree_query(&w->trees[SINEW_TREE_STATIC], s->fat_aabb, UINT32_MAX, collect_pair, &q);
			sinew_dynamic_tree_query(&w->trees[SINEW_TREE_KINEMATIC], s->fat_aabb, UINT32_MAX, collect_pair, &q);
			if (self_pairs) continue;
		}
		sinew_dynamic_tree_query(dynamic, s->fat_aabb, UINT32_MAX, collect_pair, &q);
	}
	for (int i = 0; i < n; ++i) w->shapes[w->moved_shapes[i]].moved = false;
	stbds_arrsetlen(w->moved_shapes, 0);
	int count = (int)stbds_arrlen(w->pair_buffer);
	sort_pairs(w->pair_buffer, count);
	for (int i = 0; i < count; ++i) {
		if (i > 0 && w->pair_buffer[i] == w->pair_buffer[i - 1]) continue;
		int32_t a = (int32_t)(w->pair_buffer[i] >> 32), b = (int32_t)(w->pair_buffer[i] & 0xffffffff);
		sinew_contact_create(w, a, b);
	}
}

/* After a body moved: refresh its shapes' tight boxes; a shape that left its fat box (or all of
 * them, when force_move) gets a new fat box, set in its tree in place (the next step's
 * broadphase rebuilds what that loosened), and looks for pairs at the next step. */
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
		sinew_dynamic_tree_set_proxy_aabb(&w->trees[s->tree], s->proxy, s->fat_aabb);
		sinew_world_scope_leave(w, scope);
		if (!s->moved) {
			s->moved = true;
			stbds_arrput(w->moved_shapes, si);
		}
	}
}
