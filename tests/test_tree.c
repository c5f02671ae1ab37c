/* Dynamic AABB tree: checked against brute force over random boxes, through churn, rebuild and
 * filtering; sinew_ray_cast_aabb against hand-computed answers; no allocation when moving. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core.h"
#include "sinew/collision.h"
#include "tree_pairs.h"

/* ---- deterministic random numbers (xorshift64*), independent of the C library ---- */

typedef struct rng {
	uint64_t state;
} rng;

static uint32_t rng_next(rng *r)
{
	r->state ^= r->state >> 12;
	r->state ^= r->state << 25;
	r->state ^= r->state >> 27;
	return (uint32_t)((r->state * 2685821657736338717ull) >> 32);
}

static float rng_float(rng *r, float lo, float hi)
{
	return lo + (hi - lo) * ((float)(rng_next(r) >> 8) / 16777216.0f);
}

static sinew_aabb make_box(float x0, float y0, float x1, float y1)
{
	sinew_aabb b = {{x0, y0}, {x1, y1}};
	return b;
}

static sinew_aabb random_box(rng *r, float world, float max_size)
{
	float x = rng_float(r, 0.0f, world), y = rng_float(r, 0.0f, world);
	float w = rng_float(r, 0.1f, max_size), h = rng_float(r, 0.1f, max_size);
	return make_box(x, y, x + w, y + h);
}

/* ---- a model of the tree's contents, for brute force ---- */

#define MAX_PROXIES 2048

typedef struct model {
	int32_t id[MAX_PROXIES];
	sinew_aabb box[MAX_PROXIES];
	uint32_t category[MAX_PROXIES];
	int count;
} model;

static void model_add(model *m, int32_t id, sinew_aabb box, uint32_t category)
{
	assert_true(m->count < MAX_PROXIES);
	m->id[m->count] = id;
	m->box[m->count] = box;
	m->category[m->count] = category;
	m->count += 1;
}

static void model_remove(model *m, int slot)
{
	m->count -= 1;
	m->id[slot] = m->id[m->count];
	m->box[slot] = m->box[m->count];
	m->category[slot] = m->category[m->count];
}

static int32_t add_proxy(sinew_dynamic_tree *tree, model *m, sinew_aabb box, uint32_t category)
{
	int32_t id = sinew_dynamic_tree_create_proxy(tree, box, category, (uint64_t)m->count * 7u + 1000u);
	assert_int_not_equal(id, SINEW_NULL_NODE);
	model_add(m, id, box, category);
	return id;
}

/* ---- hit collection ---- */

typedef struct hits {
	int32_t ids[MAX_PROXIES];
	int count;
	int limit; /* query: stop after this many (0 = never) */
} hits;

static bool collect_query(int32_t proxy_id, uint64_t user_data, void *context)
{
	hits *h = context;
	(void)user_data;
	assert_true(h->count < MAX_PROXIES);
	h->ids[h->count++] = proxy_id;
	return h->limit == 0 || h->count < h->limit;
}

static int compare_ids(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

static void assert_same_sets(hits *tree_hits, hits *brute)
{
	qsort(tree_hits->ids, (size_t)tree_hits->count, sizeof(int32_t), compare_ids);
	qsort(brute->ids, (size_t)brute->count, sizeof(int32_t), compare_ids);
	assert_int_equal(tree_hits->count, brute->count);
	for (int i = 0; i < brute->count; ++i) assert_int_equal(tree_hits->ids[i], brute->ids[i]);
}

static void check_query(const sinew_dynamic_tree *tree, const model *m, sinew_aabb q, uint32_t mask)
{
	static hits from_tree, brute;
	memset(&from_tree, 0, sizeof from_tree);
	memset(&brute, 0, sizeof brute);
	sinew_dynamic_tree_query(tree, q, mask, collect_query, &from_tree);
	for (int i = 0; i < m->count; ++i) {
		if ((m->category[i] & mask) != 0 && sinew_aabb_overlaps(m->box[i], q)) brute.ids[brute.count++] = m->id[i];
	}
	assert_same_sets(&from_tree, &brute);
}

/* ---- the tree against itself ---- */

typedef struct pair_list {
	uint64_t *keys; /* (lower user data << 32) | higher */
	int64_t count, capacity;
} pair_list;

static void pair_list_add(pair_list *l, uint64_t a, uint64_t b)
{
	if (l->count == l->capacity) {
		l->capacity = l->capacity > 0 ? 2 * l->capacity : 1024;
		l->keys = realloc(l->keys, (size_t)l->capacity * sizeof *l->keys);
		assert_non_null(l->keys);
	}
	assert_true(a < (1u << 31) && b < (1u << 31));
	l->keys[l->count++] = a < b ? (a << 32 | b) : (b << 32 | a);
}

static void collect_self_pair(uint64_t user_a, uint64_t user_b, void *context)
{
	pair_list_add(context, user_a, user_b);
}

static int compare_keys(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* sinew_dynamic_tree_self_pairs reports every overlapping pair of two different proxies once:
 * as a multiset of user-data pairs (user data may repeat in a model) it equals brute force. */
static int64_t check_self_pairs(const sinew_dynamic_tree *tree, const model *m)
{
	pair_list walk = {0}, brute = {0};
	sinew_dynamic_tree_self_pairs(tree, collect_self_pair, &walk);
	for (int i = 0; i < m->count; ++i)
		for (int j = i + 1; j < m->count; ++j)
			if (sinew_aabb_overlaps(m->box[i], m->box[j]))
				pair_list_add(&brute, sinew_dynamic_tree_get_user_data(tree, m->id[i]),
				              sinew_dynamic_tree_get_user_data(tree, m->id[j]));
	if (walk.count > 0) qsort(walk.keys, (size_t)walk.count, sizeof *walk.keys, compare_keys);
	if (brute.count > 0) qsort(brute.keys, (size_t)brute.count, sizeof *brute.keys, compare_keys);
	assert_true(walk.count == brute.count);
	for (int64_t i = 0; i < brute.count; ++i) assert_true(walk.keys[i] == brute.keys[i]);
	int64_t count = brute.count;
	free(walk.keys);
	free(brute.keys);
	return count;
}

/* Every overlapping pair found by querying each proxy's box equals the brute-force pairs, and so
 * does the walk of the tree against itself. */
static void check_all_pairs(const sinew_dynamic_tree *tree, const model *m)
{
	check_self_pairs(tree, m);
	int64_t tree_pairs = 0, brute_pairs = 0;
	for (int i = 0; i < m->count; ++i) {
		check_query(tree, m, m->box[i], 0xFFFFFFFFu);
		for (int j = i + 1; j < m->count; ++j) brute_pairs += sinew_aabb_overlaps(m->box[i], m->box[j]);
	}
	/* Each pair is seen from both ends, plus each box finds itself. */
	static hits h;
	for (int i = 0; i < m->count; ++i) {
		h.count = 0;
		h.limit = 0;
		sinew_dynamic_tree_query(tree, m->box[i], 0xFFFFFFFFu, collect_query, &h);
		tree_pairs += h.count - 1;
	}
	assert_true(tree_pairs == 2 * brute_pairs);
}

typedef struct ray_hits {
	hits h;
	float closest;
	int32_t closest_id;
	const sinew_dynamic_tree *tree;
	int mode; /* 0: return max (visit all), 1: return hit fraction (clip), 2: return -1, 3: return 0 */
} ray_hits;

static float collect_ray(const sinew_ray_cast_input *input, int32_t proxy_id, uint64_t user_data, void *context)
{
	ray_hits *r = context;
	(void)user_data;
	assert_true(r->h.count < MAX_PROXIES);
	r->h.ids[r->h.count++] = proxy_id;
	float fraction = -1.0f;
	bool hit = sinew_ray_cast_aabb(sinew_dynamic_tree_get_aabb(r->tree, proxy_id), input, &fraction);
	assert_true(hit); /* the tree only reports boxes the clipped ray crosses */
	if (fraction < r->closest) {
		r->closest = fraction;
		r->closest_id = proxy_id;
	}
	switch (r->mode) {
	case 0: return input->max_fraction;
	case 1: return fraction;
	case 2: return -1.0f;
	default: return 0.0f;
	}
}

static sinew_ray_cast_input random_ray(rng *r, float world)
{
	sinew_ray_cast_input in;
	in.origin = sinew_v2(rng_float(r, -10.0f, world + 10.0f), rng_float(r, -10.0f, world + 10.0f));
	in.translation = sinew_v2(rng_float(r, -world, world), rng_float(r, -world, world));
	if (rng_next(r) % 8 == 0) in.translation.x = 0.0f; /* axis-aligned rays too */
	if (rng_next(r) % 8 == 0) in.translation.y = 0.0f;
	in.max_fraction = rng_float(r, 0.3f, 1.0f);
	return in;
}

/* All boxes the ray crosses (tree, callback returning max) equal brute force. */
static void check_ray(const sinew_dynamic_tree *tree, const model *m, const sinew_ray_cast_input *in)
{
	static ray_hits r;
	static hits brute;
	memset(&r, 0, sizeof r);
	memset(&brute, 0, sizeof brute);
	r.tree = tree;
	r.closest = INFINITY;
	r.mode = 0;
	sinew_dynamic_tree_ray_cast(tree, in, 0xFFFFFFFFu, collect_ray, &r);
	float closest = INFINITY;
	for (int i = 0; i < m->count; ++i) {
		float f;
		if (sinew_ray_cast_aabb(m->box[i], in, &f)) {
			brute.ids[brute.count++] = m->id[i];
			closest = f < closest ? f : closest;
		}
	}
	assert_same_sets(&r.h, &brute);

	/* Clipping to the hit fraction still finds the closest box. */
	memset(&r, 0, sizeof r);
	r.tree = tree;
	r.closest = INFINITY;
	r.mode = 1;
	sinew_dynamic_tree_ray_cast(tree, in, 0xFFFFFFFFu, collect_ray, &r);
	if (brute.count == 0) {
		assert_int_equal(r.h.count, 0);
	} else {
		assert_true(r.closest == closest);
		assert_true(r.h.count <= brute.count);
	}
}

static double log2d(double x)
{
	return log(x) / log(2.0);
}

static void build_random(sinew_dynamic_tree *tree, model *m, rng *r, int n, float world)
{
	*tree = sinew_dynamic_tree_create();
	memset(m, 0, sizeof *m);
	for (int i = 0; i < n; ++i) add_proxy(tree, m, random_box(r, world, 5.0f), 1u << (rng_next(r) % 4));
}

/* ---- sinew_ray_cast_aabb by hand ---- */

static sinew_ray_cast_input ray(float ox, float oy, float dx, float dy, float max_fraction)
{
	sinew_ray_cast_input in = {{ox, oy}, {dx, dy}, max_fraction};
	return in;
}

static void test_ray_cast_aabb_cases(void **state)
{
	(void)state;
	sinew_aabb box = make_box(1.0f, -1.0f, 2.0f, 1.0f);
	float f = -1.0f;
	sinew_ray_cast_input in = ray(0.0f, 0.0f, 4.0f, 0.0f, 1.0f);
	assert_true(sinew_ray_cast_aabb(box, &in, &f));
	assert_true(f == 0.25f);
	in = ray(3.0f, 0.0f, -4.0f, 0.0f, 1.0f); /* from the right, entering at x = 2 */
	assert_true(sinew_ray_cast_aabb(box, &in, &f));
	assert_true(f == 0.25f);
	in = ray(0.0f, 2.0f, 4.0f, 0.0f, 1.0f); /* passes above */
	assert_false(sinew_ray_cast_aabb(box, &in, &f));
	in = ray(1.5f, 0.0f, 4.0f, 4.0f, 1.0f); /* starts inside */
	assert_true(sinew_ray_cast_aabb(box, &in, &f));
	assert_true(f == 0.0f);
	in = ray(0.0f, 0.0f, 4.0f, 0.0f, 0.2f); /* stops short: box at 0.25 */
	assert_false(sinew_ray_cast_aabb(box, &in, &f));
	in = ray(0.0f, 0.0f, 0.5f, 0.0f, 1.0f); /* segment ends before the box */
	assert_false(sinew_ray_cast_aabb(box, &in, &f));
	in = ray(0.0f, 0.0f, 1.0f, 0.0f, 1.0f); /* ends exactly on the face: touching counts */
	assert_true(sinew_ray_cast_aabb(box, &in, &f));
	assert_true(f == 1.0f);
	in = ray(1.5f, -4.0f, 0.0f, 8.0f, 1.0f); /* vertical, inside the x slab: enters y = -1 at 3/8 */
	assert_true(sinew_ray_cast_aabb(box, &in, &f));
	assert_true(f == 0.375f);
	in = ray(2.5f, -4.0f, 0.0f, 8.0f, 1.0f); /* vertical, outside the x slab */
	assert_false(sinew_ray_cast_aabb(box, &in, &f));
	in = ray(0.0f, -2.0f, 4.0f, 4.0f, 1.0f); /* diagonal: x enters at 0.25, y at 0.25: the corner */
	assert_true(sinew_ray_cast_aabb(box, &in, &f));
	assert_true(f == 0.25f);
	in = ray(0.0f, -3.0f, 4.0f, 4.0f, 1.0f); /* diagonal below the corner: x slab [0.25,0.5], y [0.5,1] */
	assert_true(sinew_ray_cast_aabb(box, &in, &f));
	assert_true(f == 0.5f);
	in = ray(0.0f, -3.5f, 4.0f, 4.0f, 1.0f); /* misses the corner: x [0.25,0.5], y [0.625,1.125] */
	assert_false(sinew_ray_cast_aabb(box, &in, &f));
	in = ray(3.0f, 0.0f, 4.0f, 0.0f, 1.0f); /* pointing away */
	assert_false(sinew_ray_cast_aabb(box, &in, &f));
	in = ray(1.5f, 0.0f, 0.0f, 0.0f, 1.0f); /* zero translation: a point test */
	assert_true(sinew_ray_cast_aabb(box, &in, &f));
	assert_true(f == 0.0f);
	in = ray(1.5f, 0.0f, 1.0f, 0.0f, -0.5f); /* negative max fraction never hits */
	assert_false(sinew_ray_cast_aabb(box, &in, &f));
	in = ray(NAN, 0.0f, 1.0f, 0.0f, 1.0f);
	assert_false(sinew_ray_cast_aabb(box, &in, &f));
}

/* ---- empty trees ---- */

static bool count_calls(int32_t proxy_id, uint64_t user_data, void *context)
{
	(void)proxy_id;
	(void)user_data;
	*(int *)context += 1;
	return true;
}

static void test_empty_and_zero_initialised(void **state)
{
	(void)state;
	sinew_dynamic_tree tree = sinew_dynamic_tree_create();
	int calls = 0;
	assert_int_equal(sinew_dynamic_tree_get_height(&tree), -1);
	assert_true(sinew_dynamic_tree_validate(&tree));
	sinew_dynamic_tree_query(&tree, make_box(-1e6f, -1e6f, 1e6f, 1e6f), 0xFFFFFFFFu, count_calls, &calls);
	assert_int_equal(calls, 0);
	pair_list pairs = {0};
	sinew_dynamic_tree_self_pairs(&tree, collect_self_pair, &pairs);
	assert_true(pairs.count == 0);
	assert_true(sinew_dynamic_tree_get_area_ratio(&tree) == 0.0f);
	sinew_dynamic_tree_rebuild(&tree);
	sinew_dynamic_tree_destroy(&tree);

	sinew_dynamic_tree zero;
	memset(&zero, 0, sizeof zero);
	assert_int_equal(sinew_dynamic_tree_get_height(&zero), -1);
	int32_t a = sinew_dynamic_tree_create_proxy(&zero, make_box(0, 0, 1, 1), 1u, 42u);
	assert_int_not_equal(a, SINEW_NULL_NODE);
	assert_int_equal(sinew_dynamic_tree_get_height(&zero), 0);
	assert_true(sinew_dynamic_tree_get_user_data(&zero, a) == 42u);
	assert_true(sinew_dynamic_tree_validate(&zero));
	sinew_dynamic_tree_self_pairs(&zero, collect_self_pair, &pairs); /* a leaf alone: no pair */
	assert_true(pairs.count == 0);
	sinew_dynamic_tree_destroy_proxy(&zero, a);
	assert_int_equal(sinew_dynamic_tree_get_height(&zero), -1);
	assert_true(sinew_dynamic_tree_validate(&zero));
	sinew_dynamic_tree_destroy(&zero);
}

/* ---- brute force on 1,000 random boxes ---- */

static void test_query_matches_brute_force(void **state)
{
	(void)state;
	static model m;
	sinew_dynamic_tree tree;
	rng r = {0x5eed1234abcdULL};
	build_random(&tree, &m, &r, 1000, 100.0f);
	assert_true(sinew_dynamic_tree_validate(&tree));
	assert_int_equal(tree.proxy_count, 1000);
	check_all_pairs(&tree, &m);
	for (int i = 0; i < 200; ++i) check_query(&tree, &m, random_box(&r, 100.0f, 20.0f), 0xFFFFFFFFu);
	int height = sinew_dynamic_tree_get_height(&tree);
	printf("  incremental, 1000 proxies: height %d (log2 n = %.2f), area ratio %.3f\n", height, log2d(1000.0),
	       (double)sinew_dynamic_tree_get_area_ratio(&tree));
	assert_true(height <= (int)(2.5 * log2d(1000.0)));
	sinew_dynamic_tree_destroy(&tree);
}

static void test_ray_cast_matches_brute_force(void **state)
{
	(void)state;
	static model m;
	sinew_dynamic_tree tree;
	rng r = {0xfeedface1ULL};
	build_random(&tree, &m, &r, 1000, 100.0f);
	for (int i = 0; i < 200; ++i) {
		sinew_ray_cast_input in = random_ray(&r, 100.0f);
		check_ray(&tree, &m, &in);
	}
	sinew_dynamic_tree_destroy(&tree);
}

static void test_ray_cast_stop_and_ignore(void **state)
{
	(void)state;
	static model m;
	static ray_hits rh;
	sinew_dynamic_tree tree = sinew_dynamic_tree_create();
	memset(&m, 0, sizeof m);
	for (int i = 0; i < 10; ++i) add_proxy(&tree, &m, make_box(2.0f * (float)i, -1, 2.0f * (float)i + 1, 1), 1u);
	sinew_ray_cast_input in = ray(-1.0f, 0.0f, 30.0f, 0.0f, 1.0f);
	/* Negative: every box is visited, none clips. */
	memset(&rh, 0, sizeof rh);
	rh.tree = &tree;
	rh.closest = INFINITY;
	rh.mode = 2;
	sinew_dynamic_tree_ray_cast(&tree, &in, 0xFFFFFFFFu, collect_ray, &rh);
	assert_int_equal(rh.h.count, 10);
	/* Zero: the first box reported ends the cast. */
	memset(&rh, 0, sizeof rh);
	rh.tree = &tree;
	rh.closest = INFINITY;
	rh.mode = 3;
	sinew_dynamic_tree_ray_cast(&tree, &in, 0xFFFFFFFFu, collect_ray, &rh);
	assert_int_equal(rh.h.count, 1);
	/* Clipping: the closest box is found (at x = 0, fraction 1/30). */
	memset(&rh, 0, sizeof rh);
	rh.tree = &tree;
	rh.closest = INFINITY;
	rh.mode = 1;
	sinew_dynamic_tree_ray_cast(&tree, &in, 0xFFFFFFFFu, collect_ray, &rh);
	assert_int_equal(rh.closest_id, m.id[0]);
	assert_true(rh.h.count < 10);
	/* Mask: category 1 only, so mask 2 sees nothing. */
	memset(&rh, 0, sizeof rh);
	rh.tree = &tree;
	rh.closest = INFINITY;
	sinew_dynamic_tree_ray_cast(&tree, &in, 2u, collect_ray, &rh);
	assert_int_equal(rh.h.count, 0);
	sinew_dynamic_tree_destroy(&tree);
}

/* ---- churn ---- */

static void test_churn_keeps_tree_valid(void **state)
{
	(void)state;
	static model m;
	sinew_dynamic_tree tree;
	rng r = {0xc0ffee77ULL};
	build_random(&tree, &m, &r, 1000, 100.0f);
	int max_height = 0;
	for (int op = 0; op < 5000; ++op) {
		uint32_t kind = rng_next(&r) % 10;
		if (kind < 6 && m.count > 0) { /* move: mostly small steps, sometimes a jump */
			int slot = (int)(rng_next(&r) % (uint32_t)m.count);
			sinew_aabb b = m.box[slot];
			sinew_vec2 d = rng_next(&r) % 4 == 0 ? sinew_v2(rng_float(&r, -50, 50), rng_float(&r, -50, 50))
			                                     : sinew_v2(rng_float(&r, -2, 2), rng_float(&r, -2, 2));
			b.lower = sinew_add(b.lower, d);
			b.upper = sinew_add(b.upper, d);
			sinew_dynamic_tree_move_proxy(&tree, m.id[slot], b);
			m.box[slot] = b;
		} else if (kind < 8 && m.count > 0) {
			int slot = (int)(rng_next(&r) % (uint32_t)m.count);
			sinew_dynamic_tree_destroy_proxy(&tree, m.id[slot]);
			model_remove(&m, slot);
		} else {
			add_proxy(&tree, &m, random_box(&r, 100.0f, 5.0f), 1u << (rng_next(&r) % 4));
		}
		int h = sinew_dynamic_tree_get_height(&tree);
		max_height = h > max_height ? h : max_height;
		if (op % 500 == 0) assert_true(sinew_dynamic_tree_validate(&tree));
	}
	assert_true(sinew_dynamic_tree_validate(&tree));
	assert_int_equal(tree.proxy_count, m.count);
	int height = sinew_dynamic_tree_get_height(&tree);
	printf("  after 5000 ops, %d proxies: height %d (max seen %d, log2 n = %.2f), area ratio %.3f\n", m.count,
	       height, max_height, log2d(m.count), (double)sinew_dynamic_tree_get_area_ratio(&tree));
	assert_true(max_height <= (int)(2.5 * log2d(m.count)));
	assert_true(height <= (int)(1.44 * log2d(m.count + 2))); /* the AVL bound */
	for (int i = 0; i < m.count; ++i) {
		sinew_aabb b = sinew_dynamic_tree_get_aabb(&tree, m.id[i]);
		assert_memory_equal(&b, &m.box[i], sizeof b);
		assert_true(sinew_dynamic_tree_get_category(&tree, m.id[i]) == m.category[i]);
	}
	check_all_pairs(&tree, &m);
	for (int i = 0; i < 100; ++i) {
		sinew_ray_cast_input in = random_ray(&r, 100.0f);
		check_ray(&tree, &m, &in);
	}
	sinew_dynamic_tree_destroy(&tree);
}

/* Sorted and coincident input, the classic worst cases for incremental trees. */
static void test_degenerate_input_stays_balanced(void **state)
{
	(void)state;
	static model m;
	sinew_dynamic_tree tree = sinew_dynamic_tree_create();
	memset(&m, 0, sizeof m);
	for (int i = 0; i < 1024; ++i) add_proxy(&tree, &m, make_box((float)i, 0.0f, (float)i + 0.5f, 0.5f), 1u);
	assert_true(sinew_dynamic_tree_validate(&tree));
	int line_height = sinew_dynamic_tree_get_height(&tree);
	assert_true(line_height <= (int)(1.44 * log2d(1026.0)));
	check_all_pairs(&tree, &m);
	sinew_dynamic_tree_destroy(&tree);

	tree = sinew_dynamic_tree_create();
	memset(&m, 0, sizeof m);
	for (int i = 0; i < 1024; ++i) add_proxy(&tree, &m, make_box(3.0f, 3.0f, 4.0f, 4.0f), 1u);
	assert_true(sinew_dynamic_tree_validate(&tree));
	int same_height = sinew_dynamic_tree_get_height(&tree);
	assert_true(same_height <= (int)(1.44 * log2d(1026.0)));
	check_query(&tree, &m, make_box(3.5f, 3.5f, 3.5f, 3.5f), 0xFFFFFFFFu);
	sinew_dynamic_tree_rebuild(&tree); /* coincident centres: median fallback */
	assert_true(sinew_dynamic_tree_validate(&tree));
	assert_true(check_self_pairs(&tree, &m) == 1024 * 1023 / 2); /* every pair, each once */
	assert_true(sinew_dynamic_tree_get_height(&tree) <= 11);
	printf("  1024 in a line: height %d; 1024 coincident: height %d\n", line_height, same_height);
	sinew_dynamic_tree_destroy(&tree);
}

/* ---- filtering and early stop ---- */

static void test_category_mask(void **state)
{
	(void)state;
	static model m;
	sinew_dynamic_tree tree;
	rng r = {0xabcdef01ULL};
	build_random(&tree, &m, &r, 500, 50.0f);
	uint32_t masks[] = {1u, 2u, 4u, 8u, 3u, 5u, 0xCu, 0u, 0x10u, 0xFFFFFFFFu};
	for (size_t k = 0; k < sizeof masks / sizeof masks[0]; ++k) {
		for (int i = 0; i < 50; ++i) check_query(&tree, &m, random_box(&r, 50.0f, 15.0f), masks[k]);
	}
	int calls = 0;
	sinew_dynamic_tree_query(&tree, make_box(-1e6f, -1e6f, 1e6f, 1e6f), 0u, count_calls, &calls);
	assert_int_equal(calls, 0);
	sinew_dynamic_tree_query(&tree, make_box(-1e6f, -1e6f, 1e6f, 1e6f), 0xFFFFFFFFu, count_calls, &calls);
	assert_int_equal(calls, 500);
	sinew_dynamic_tree_destroy(&tree);
}

static void test_query_early_stop(void **state)
{
	(void)state;
	static model m;
	static hits h;
	sinew_dynamic_tree tree;
	rng r = {0x1234567ULL};
	build_random(&tree, &m, &r, 300, 30.0f);
	for (int limit = 1; limit <= 5; ++limit) {
		memset(&h, 0, sizeof h);
		h.limit = limit;
		sinew_dynamic_tree_query(&tree, make_box(-1e6f, -1e6f, 1e6f, 1e6f), 0xFFFFFFFFu, collect_query, &h);
		assert_int_equal(h.count, limit);
	}
	sinew_dynamic_tree_destroy(&tree);
}

/* ---- rebuild ---- */

static void test_rebuild_keeps_ids(void **state)
{
	(void)state;
	static model m;
	sinew_dynamic_tree tree;
	rng r = {0x77aa55ULL};
	build_random(&tree, &m, &r, 1000, 100.0f);
	for (int i = 0; i < 2000; ++i) { /* some churn so the free list is shuffled */
		int slot = (int)(rng_next(&r) % (uint32_t)m.count);
		sinew_aabb b = random_box(&r, 100.0f, 5.0f);
		sinew_dynamic_tree_move_proxy(&tree, m.id[slot], b);
		m.box[slot] = b;
	}
	float before = sinew_dynamic_tree_get_area_ratio(&tree);
	int height_before = sinew_dynamic_tree_get_height(&tree);
	sinew_dynamic_tree_rebuild(&tree);
	assert_true(sinew_dynamic_tree_validate(&tree));
	assert_int_equal(tree.proxy_count, 1000);
	for (int i = 0; i < m.count; ++i) {
		sinew_aabb b = sinew_dynamic_tree_get_aabb(&tree, m.id[i]);
		assert_memory_equal(&b, &m.box[i], sizeof b);
		assert_true(sinew_dynamic_tree_get_category(&tree, m.id[i]) == m.category[i]);
	}
	float after = sinew_dynamic_tree_get_area_ratio(&tree);
	int height_after = sinew_dynamic_tree_get_height(&tree);
	printf("  rebuild: area ratio %.3f -> %.3f, height %d -> %d\n", (double)before, (double)after, height_before,
	       height_after);
	/* Level k of a good tree over a uniform square holds 2^k boxes of side 2^(-k/2): its perimeters sum
	 * to 2^(k/2) root perimeters, about 75 over the ten levels of 1000 leaves. */
	assert_true(after <= 1.15f * before);
	assert_true(after < 90.0f);
	assert_true(height_after <= (int)(2.5 * log2d(1000.0)));
	check_all_pairs(&tree, &m);
	for (int i = 0; i < 50; ++i) {
		sinew_ray_cast_input in = random_ray(&r, 100.0f);
		check_ray(&tree, &m, &in);
	}
	/* The rebuilt tree keeps working incrementally. */
	for (int i = 0; i < 500; ++i) {
		int slot = (int)(rng_next(&r) % (uint32_t)m.count);
		sinew_aabb b = random_box(&r, 100.0f, 5.0f);
		sinew_dynamic_tree_move_proxy(&tree, m.id[slot], b);
		m.box[slot] = b;
	}
	assert_true(sinew_dynamic_tree_validate(&tree));
	check_all_pairs(&tree, &m);
	sinew_dynamic_tree_destroy(&tree);
}

/* ---- enlarge ---- */

static void test_enlarge_proxy(void **state)
{
	(void)state;
	static model m;
	sinew_dynamic_tree tree;
	rng r = {0x3141592ULL};
	build_random(&tree, &m, &r, 400, 50.0f);
	for (int i = 0; i < 200; ++i) {
		int slot = (int)(rng_next(&r) % (uint32_t)m.count);
		sinew_aabb grow = random_box(&r, 60.0f, 8.0f);
		sinew_dynamic_tree_enlarge_proxy(&tree, m.id[slot], grow);
		m.box[slot] = sinew_aabb_union(m.box[slot], grow);
		sinew_aabb b = sinew_dynamic_tree_get_aabb(&tree, m.id[slot]);
		assert_memory_equal(&b, &m.box[slot], sizeof b);
	}
	assert_true(sinew_dynamic_tree_validate(&tree));
	check_all_pairs(&tree, &m);
	sinew_dynamic_tree_rebuild(&tree);
	assert_true(sinew_dynamic_tree_validate(&tree));
	check_all_pairs(&tree, &m);
	sinew_dynamic_tree_destroy(&tree);
}

/* ---- the world's broadphase: boxes replaced in place, partial rebuilds, pairs by moved proxies ----
 * The world's procedure (solver/broadphase.c) over 250 steps of 240 moving boxes: a tight box
 * that leaves its fat box gets a new fat box (tight + margin) through set_proxy_aabb, the tree
 * then rebuilds what that loosened (rebuild_enlarged), each moved proxy queries it (a pair of two
 * moved proxies is taken by the higher index only), and a pair whose fat boxes stop overlapping
 * is dropped. After every step the pair set must equal the brute-force overlaps of the fat
 * boxes, the tree must hold its invariants (every node's box contains its children's, flags
 * closed upwards) both before and after the rebuild, and each leaf's box must be its fat box,
 * containing the tight box. Some steps also destroy, create and move (re-insert) proxies, so
 * rotations meet flagged nodes. An enlargement that forgot an ancestor, or a rebuild that
 * dropped a subtree, loses a pair or fails validation. */

#define BP_COUNT 240

typedef struct bp_world {
	sinew_dynamic_tree tree;
	int32_t id[BP_COUNT];
	sinew_aabb tight[BP_COUNT], fat[BP_COUNT];
	sinew_vec2 velocity[BP_COUNT];
	bool moved[BP_COUNT];
	bool pair[BP_COUNT][BP_COUNT];
	uint8_t walked[BP_COUNT][BP_COUNT]; /* times self_pairs reported (i, j) in that order */
	int32_t slot_of[4 * BP_COUNT]; /* proxy id -> slot */
	int querying;
} bp_world;

static sinew_aabb fatten(sinew_aabb b, float margin)
{
	return make_box(b.lower.x - margin, b.lower.y - margin, b.upper.x + margin, b.upper.y + margin);
}

static void bp_create(bp_world *w, rng *r, int i)
{
	w->tight[i] = random_box(r, 80.0f, 2.0f);
	float speed = (i % 3 == 0) ? 0.0f : rng_float(r, 0.0f, 6.0f); /* a third rest */
	float angle = rng_float(r, 0.0f, 6.2831853f);
	w->velocity[i] = sinew_v2(speed * cosf(angle), speed * sinf(angle));
	w->fat[i] = fatten(w->tight[i], 0.1f);
	w->id[i] = sinew_dynamic_tree_create_proxy(&w->tree, w->fat[i], 1u, (uint64_t)i);
	assert_true(w->id[i] >= 0 && w->id[i] < 4 * BP_COUNT);
	w->slot_of[w->id[i]] = i;
	w->moved[i] = true;
}

static bool bp_collect(int32_t proxy_id, uint64_t user_data, void *context)
{
	bp_world *w = context;
	int i = w->querying, j = (int)user_data;
	assert_int_equal(w->slot_of[proxy_id], j);
	if (j == i || (w->moved[j] && j < i)) return true;
	w->pair[i][j] = w->pair[j][i] = true;
	return true;
}

static void bp_walked(uint64_t user_a, uint64_t user_b, void *context)
{
	bp_world *w = context;
	assert_true(user_a < BP_COUNT && user_b < BP_COUNT && user_a != user_b);
	w->walked[user_a][user_b] += 1;
}

static void test_in_place_broadphase_matches_brute_force(void **state)
{
	(void)state;
	static bp_world w;
	memset(&w, 0, sizeof w);
	w.tree = sinew_dynamic_tree_create();
	rng r = {0xb10adULL};
	for (int i = 0; i < BP_COUNT; ++i) bp_create(&w, &r, i);
	const float dt = 1.0f / 60.0f;
	int partial_rebuilds = 0, pairs_seen = 0;
	for (int step = 0; step < 250; ++step) {
		/* the broadphase: rebuild what moved boxes loosened, then the moved proxies query */
		int32_t rebuilt = sinew_dynamic_tree_rebuild_enlarged(&w.tree);
		assert_true(sinew_dynamic_tree_validate(&w.tree));
		assert_int_equal(sinew_dynamic_tree_rebuild_enlarged(&w.tree), 0); /* nothing left */
		if (rebuilt > 0 && rebuilt < w.tree.proxy_count - 1) partial_rebuilds += 1;
		for (int i = 0; i < BP_COUNT; ++i) {
			if (!w.moved[i]) continue;
			w.querying = i;
			sinew_dynamic_tree_query(&w.tree, w.fat[i], 0xFFFFFFFFu, bp_collect, &w);
		}
		for (int i = 0; i < BP_COUNT; ++i) w.moved[i] = false;
		/* the walk of the tree against itself finds each overlap of the fat boxes once */
		memset(w.walked, 0, sizeof w.walked);
		sinew_dynamic_tree_self_pairs(&w.tree, bp_walked, &w);
		for (int i = 0; i < BP_COUNT; ++i)
			for (int j = i + 1; j < BP_COUNT; ++j)
				assert_int_equal(w.walked[i][j] + w.walked[j][i], sinew_aabb_overlaps(w.fat[i], w.fat[j]));
		/* drop pairs whose fat boxes parted; the rest must be exactly the overlaps */
		int pairs = 0;
		for (int i = 0; i < BP_COUNT; ++i)
			for (int j = i + 1; j < BP_COUNT; ++j) {
				bool overlap = sinew_aabb_overlaps(w.fat[i], w.fat[j]);
				if (w.pair[i][j] && !overlap) w.pair[i][j] = w.pair[j][i] = false;
				assert_int_equal(w.pair[i][j], overlap);
				pairs += overlap;
			}
		pairs_seen += pairs;
		/* move: boxes drift and bounce off the walls of an 80 m square; some jump */
		for (int i = 0; i < BP_COUNT; ++i) {
			sinew_vec2 d = sinew_scale(dt, w.velocity[i]);
			if (rng_next(&r) % 200 == 0) d = sinew_v2(rng_float(&r, -20.0f, 20.0f), rng_float(&r, -20.0f, 20.0f));
			w.tight[i].lower = sinew_add(w.tight[i].lower, d);
			w.tight[i].upper = sinew_add(w.tight[i].upper, d);
			if (w.tight[i].lower.x < 0.0f || w.tight[i].upper.x > 82.0f) w.velocity[i].x = -w.velocity[i].x;
			if (w.tight[i].lower.y < 0.0f || w.tight[i].upper.y > 82.0f) w.velocity[i].y = -w.velocity[i].y;
			if (sinew_aabb_contains(w.fat[i], w.tight[i])) continue;
			w.fat[i] = fatten(w.tight[i], 0.1f);
			sinew_dynamic_tree_set_proxy_aabb(&w.tree, w.id[i], w.fat[i]);
			w.moved[i] = true;
		}
		/* now and then a proxy is destroyed and made again, or re-inserted */
		if (step % 7 == 3) {
			int i = (int)(rng_next(&r) % BP_COUNT);
			sinew_dynamic_tree_destroy_proxy(&w.tree, w.id[i]);
			for (int j = 0; j < BP_COUNT; ++j) w.pair[i][j] = w.pair[j][i] = false;
			bp_create(&w, &r, i);
		}
		if (step % 5 == 1) {
			int i = (int)(rng_next(&r) % BP_COUNT);
			w.tight[i] = random_box(&r, 80.0f, 2.0f);
			w.fat[i] = fatten(w.tight[i], 0.1f);
			sinew_dynamic_tree_move_proxy(&w.tree, w.id[i], w.fat[i]);
			w.moved[i] = true;
		}
		assert_true(sinew_dynamic_tree_validate(&w.tree)); /* loosened, not rebuilt: still valid */
		for (int i = 0; i < BP_COUNT; ++i) {
			sinew_aabb b = sinew_dynamic_tree_get_aabb(&w.tree, w.id[i]);
			assert_memory_equal(&b, &w.fat[i], sizeof b);
			assert_true(sinew_aabb_contains(w.fat[i], w.tight[i]));
		}
	}
	assert_true(pairs_seen > 250 * 20); /* the boxes met: the check had pairs to check */
	assert_true(partial_rebuilds > 50); /* and most rebuilds were partial */
	sinew_dynamic_tree_destroy(&w.tree);
}

/* ---- determinism: same calls, same tree (seen through traversal order) ---- */

static void trace_tree(const sinew_dynamic_tree *tree, hits *out)
{
	memset(out, 0, sizeof *out);
	sinew_dynamic_tree_query(tree, make_box(-1e6f, -1e6f, 1e6f, 1e6f), 0xFFFFFFFFu, collect_query, out);
}

static void test_deterministic(void **state)
{
	(void)state;
	static model m1, m2;
	static hits t1, t2;
	sinew_dynamic_tree a, b;
	rng r1 = {99u}, r2 = {99u};
	build_random(&a, &m1, &r1, 700, 80.0f);
	build_random(&b, &m2, &r2, 700, 80.0f);
	for (int i = 0; i < 700; i += 3) {
		sinew_aabb box = random_box(&r1, 80.0f, 5.0f);
		(void)random_box(&r2, 80.0f, 5.0f);
		sinew_dynamic_tree_move_proxy(&a, m1.id[i], box);
		sinew_dynamic_tree_move_proxy(&b, m2.id[i], box);
	}
	trace_tree(&a, &t1);
	trace_tree(&b, &t2);
	assert_int_equal(t1.count, t2.count);
	assert_memory_equal(t1.ids, t2.ids, (size_t)t1.count * sizeof(int32_t));
	assert_int_equal(sinew_dynamic_tree_get_height(&a), sinew_dynamic_tree_get_height(&b));
	assert_true(sinew_dynamic_tree_get_area_ratio(&a) == sinew_dynamic_tree_get_area_ratio(&b));
	sinew_dynamic_tree_rebuild(&a);
	sinew_dynamic_tree_rebuild(&b);
	trace_tree(&a, &t1);
	trace_tree(&b, &t2);
	assert_memory_equal(t1.ids, t2.ids, (size_t)t1.count * sizeof(int32_t));
	sinew_dynamic_tree_destroy(&a);
	sinew_dynamic_tree_destroy(&b);
}

/* ---- allocation ---- */

static int64_t s_alloc_calls;

static void *count_alloc(size_t size, void *context)
{
	(void)context;
	s_alloc_calls += 1;
	return malloc(size);
}

static void *count_realloc(void *pointer, size_t size, void *context)
{
	(void)context;
	s_alloc_calls += 1;
	return realloc(pointer, size);
}

static void count_free(void *pointer, void *context)
{
	(void)context;
	free(pointer);
}

static void test_move_does_not_allocate(void **state)
{
	(void)state;
	static model m;
	sinew_allocator hooks = {count_alloc, count_realloc, count_free, NULL};
	assert_true(sinew_set_allocator(&hooks)); /* every other test has destroyed its trees */
	sinew_dynamic_tree tree;
	rng r = {0x600dULL};
	build_random(&tree, &m, &r, 300, 60.0f);
	assert_true(s_alloc_calls > 0); /* the pool grew through the hooks */
	int64_t before = s_alloc_calls;
	for (int i = 0; i < 3000; ++i) {
		int slot = (int)(rng_next(&r) % (uint32_t)m.count);
		sinew_aabb b = random_box(&r, 60.0f, 5.0f);
		sinew_dynamic_tree_move_proxy(&tree, m.id[slot], b);
		m.box[slot] = b;
		sinew_dynamic_tree_enlarge_proxy(&tree, m.id[slot], random_box(&r, 60.0f, 1.0f));
		m.box[slot] = sinew_dynamic_tree_get_aabb(&tree, m.id[slot]);
	}
	/* Destroying then creating reuses the freed nodes. */
	for (int i = 0; i < 100; ++i) {
		sinew_dynamic_tree_destroy_proxy(&tree, m.id[0]);
		model_remove(&m, 0);
		add_proxy(&tree, &m, random_box(&r, 60.0f, 5.0f), 1u);
	}
#if !defined(SINEW_TREE_STACK_SIZE)
	for (int i = 0; i < 100; ++i) check_query(&tree, &m, random_box(&r, 60.0f, 10.0f), 0xFFFFFFFFu);
	for (int i = 0; i < 100; ++i) {
		sinew_ray_cast_input in = random_ray(&r, 60.0f);
		check_ray(&tree, &m, &in);
	}
#endif
	assert_true(s_alloc_calls == before);
	sinew_dynamic_tree_destroy(&tree);
	assert_true(sinew_set_allocator(NULL));
}

/* ---- bad input is reported, not asserted ---- */

static sinew_error s_last_error;
static int s_error_count;

static void record_error(sinew_error code, const char *message, void *context)
{
	(void)message;
	(void)context;
	s_last_error = code;
	s_error_count += 1;
}

static void test_bad_input_is_reported(void **state)
{
	(void)state;
	sinew_set_error_callback(record_error, NULL);
	sinew_dynamic_tree tree = sinew_dynamic_tree_create();
	int32_t a = sinew_dynamic_tree_create_proxy(&tree, make_box(0, 0, 1, 1), 1u, 1u);
	int32_t b = sinew_dynamic_tree_create_proxy(&tree, make_box(2, 2, 3, 3), 1u, 2u);
	s_error_count = 0;

	assert_int_equal(sinew_dynamic_tree_create_proxy(&tree, make_box(NAN, 0, 1, 1), 1u, 3u), SINEW_NULL_NODE);
	assert_int_equal(s_last_error, SINEW_ERROR_NOT_FINITE);
	assert_int_equal(sinew_dynamic_tree_create_proxy(&tree, make_box(1, 0, 0, 1), 1u, 3u), SINEW_NULL_NODE);
	assert_int_equal(s_last_error, SINEW_ERROR_INVALID_ARGUMENT);
	sinew_dynamic_tree_move_proxy(&tree, a, make_box(0, INFINITY, 1, 1));
	assert_int_equal(s_last_error, SINEW_ERROR_NOT_FINITE);
	sinew_dynamic_tree_destroy_proxy(&tree, 12345);
	assert_int_equal(s_last_error, SINEW_ERROR_INVALID_ID);
	int32_t parent = tree.root; /* the internal node above a and b is not a proxy */
	assert_true(parent != a && parent != b);
	sinew_dynamic_tree_move_proxy(&tree, parent, make_box(0, 0, 1, 1));
	assert_int_equal(s_last_error, SINEW_ERROR_INVALID_ID);
	sinew_dynamic_tree_set_proxy_aabb(&tree, parent, make_box(0, 0, 1, 1));
	assert_int_equal(s_last_error, SINEW_ERROR_INVALID_ID);
	sinew_dynamic_tree_set_proxy_aabb(&tree, a, make_box(0, 0, -1, 1));
	assert_int_equal(s_last_error, SINEW_ERROR_INVALID_ARGUMENT);
	assert_int_equal(sinew_dynamic_tree_rebuild_enlarged(&tree), 0); /* nothing was changed */
	sinew_dynamic_tree_destroy_proxy(&tree, b);
	sinew_dynamic_tree_destroy_proxy(&tree, b); /* stale */
	assert_int_equal(s_last_error, SINEW_ERROR_INVALID_ID);
	assert_int_equal(s_error_count, 8);
	assert_true(sinew_dynamic_tree_validate(&tree));
	assert_int_equal(tree.proxy_count, 1);
	sinew_aabb box = sinew_dynamic_tree_get_aabb(&tree, a);
	assert_true(box.lower.x == 0.0f && box.upper.x == 1.0f);
	sinew_dynamic_tree_destroy(&tree);
	sinew_set_error_callback(NULL, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ray_cast_aabb_cases),
		cmocka_unit_test(test_empty_and_zero_initialised),
		cmocka_unit_test(test_query_matches_brute_force),
		cmocka_unit_test(test_ray_cast_matches_brute_force),
		cmocka_unit_test(test_ray_cast_stop_and_ignore),
		cmocka_unit_test(test_churn_keeps_tree_valid),
		cmocka_unit_test(test_degenerate_input_stays_balanced),
		cmocka_unit_test(test_category_mask),
		cmocka_unit_test(test_query_early_stop),
		cmocka_unit_test(test_rebuild_keeps_ids),
		cmocka_unit_test(test_enlarge_proxy),
		cmocka_unit_test(test_in_place_broadphase_matches_brute_force),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_move_does_not_allocate),
		cmocka_unit_test(test_bad_input_is_reported),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
