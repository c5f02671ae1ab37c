/* Dynamic AABB tree: the broadphase's bounding volume hierarchy.
 *
 * Shape of the tree. Every proxy is a leaf; every internal node has exactly two children and a
 * box that contains both of theirs. A proxy id is the index of its leaf in the node array, so ids
 * stay valid while other proxies come and go, across pool growth and across a rebuild.
 *
 * Storage. Nodes live in one array that doubles through sinew_realloc when the free list runs
 * dry; freed nodes are threaded onto a free list through the parent/next union. Indices, never
 * pointers, are kept across a growth. Moving a proxy frees one internal node and takes it back,
 * so a move never allocates. A zero-initialised tree is a valid empty tree: nodes == NULL is
 * read as "no root, no free list" whatever the other fields say.
 *
 * Insertion. The sibling of a new leaf is chosen by the surface area heuristic, which in 2D is
 * the perimeter: the cost of pairing leaf D with node S is the perimeter of the new parent
 * (S u D) plus the growth of every ancestor of S. The search is a greedy descent with a bound:
 * going below node N costs at least the ancestors' growth so far, plus N's own growth, plus the
 * perimeter of D itself (the new parent can be no smaller), so the descent follows the child
 * with the lower bound and stops once that bound cannot beat the best cost found.
 *
 * Balance. After an insertion or removal the path to the root is refitted and each node on it
 * is offered a rotation: a child swapped with a grandchild on the other side (children are
 * unordered, so every tree rotation is such a swap). When the two children's heights differ by
 * more than one, the taller side's taller grandchild is promoted, recursing into the node the
 * short child moved into until it too is balanced; otherwise the swap that most reduces the
 * perimeter of the rotated internal node is taken (the Box2D v3 idea), restricted to swaps that
 * leave both touched nodes balanced. So an incrementally built tree is AVL-balanced, height at
 * most 1.44 log2(n + 2), however the boxes arrive (sorted or coincident input included), while
 * the SAH choices and perimeter rotations keep the boxes tight.
 *
 * In place. set_proxy_aabb replaces a leaf's box and enlarge_proxy grows it; either way the
 * ancestors only grow until they contain it, nothing is restructured (a few box unions, where a
 * move is a removal and an insertion with rotations), and every ancestor is flagged ENLARGED.
 * The flag is kept closed upwards (the parent of a flagged node is flagged: insertion and
 * rotations carry it), so the flagged nodes are a subtree at the root and marking stops at the
 * first flagged ancestor. rebuild_enlarged frees exactly that subtree and builds it again over
 * what hangs below it: leaves and whole untouched subtrees, whose boxes are exact. That is the
 * world's path: every step it replaces the boxes that moved, then rebuilds once. Its splits are
 * at the middle of the item centres' extent along the longer axis (one pass per level, no boxes
 * read: a pile that all falls rebuilds most of the tree every step, and binned SAH was 14 % of
 * capsule_pile's pour), the median where every centre falls on one side or past the depth budget;
 * queries find the same boxes in any tree, so the world's results do not depend on the split.
 *
 * Rebuild collects the leaves (ids kept), frees every internal node and builds top-down with a
 * binned SAH split along the longer axis of the item centres; SAH can split unevenly, so past a
 * depth budget of about 2 log2 n it switches to median splits. The scratch space of a rebuild
 * (tree->build) grows with the node pool, so no rebuild allocates.
 *
 * Quality is reported as the area ratio: the perimeters of the internal nodes (leaves are the
 * same in any tree; the root is the unit) summed over the root's perimeter.
 *
 * Traversal (query, ray cast) uses an explicit stack on the C stack, falling back to a heap
 * stack only if the tree is deeper than SINEW_TREE_STACK_SIZE. Neither an AVL tree nor a
 * depth-budgeted rebuild comes near 1024 levels at any size that fits in memory, so the
 * fallback is a safety net (exercised by building the tests with a tiny stack size).
 *
 * Determinism: every choice depends only on the boxes, the heights and the node indices, so the
 * tree is a function of the call sequence alone. Ties go to child1 / the lower index.
 */
#include "core.h"
#include "sinew/collision.h"
#include "tree_pairs.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#ifndef SINEW_TREE_STACK_SIZE
#define SINEW_TREE_STACK_SIZE 1024
#endif

#define SINEW_TREE_INITIAL_CAPACITY 16
#define SINEW_TREE_BIN_COUNT 16

enum {
	SINEW_NODE_ALLOCATED = 0x1, /* in use (leaf or internal), not on the free list */
	SINEW_NODE_ENLARGED = 0x2,  /* internal: a box below grew in place since the last rebuild */
};

struct sinew_tree_node {
	sinew_aabb aabb;    /* leaf: the caller's (fat) box; internal: contains both children */
	uint64_t user_data; /* leaf only */
	uint32_t category;  /* leaf only: filtered by query masks */
	union {
		int32_t parent; /* allocated: parent index, SINEW_NULL_NODE at the root */
		int32_t next;   /* free: next free node */
	} link;
	int32_t child1, child2; /* SINEW_NULL_NODE for a leaf */
	int16_t height;         /* leaf 0, internal 1 + max(children) */
	uint16_t flags;
};

typedef struct sinew_tree_node sinew_tree_node;

/* ---- small helpers ---- */

static bool is_leaf(const sinew_tree_node *node)
{
	return node->child1 == SINEW_NULL_NODE;
}

static int imax(int a, int b)
{
	return a > b ? a : b;
}

static int iabs(int a)
{
	return a < 0 ? -a : a;
}

static float union_perimeter(sinew_aabb a, sinew_aabb b)
{
	return sinew_aabb_perimeter(sinew_aabb_union(a, b));
}

static bool aabb_is_valid(sinew_aabb a)
{
	return sinew_vec2_is_valid(a.lower) && sinew_vec2_is_valid(a.upper);
}

static bool tree_is_empty(const sinew_dynamic_tree *tree)
{
	return tree->nodes == NULL || tree->root == SINEW_NULL_NODE;
}

/* A public call names a proxy: is it a live leaf? Reports and returns false if not. */
static bool check_proxy(const sinew_dynamic_tree *tree, int32_t proxy_id, const char *function)
{
	if (tree->nodes == NULL || proxy_id < 0 || proxy_id >= tree->node_capacity ||
	    (tree->nodes[proxy_id].flags & SINEW_NODE_ALLOCATED) == 0 || !is_leaf(&tree->nodes[proxy_id])) {
		sinew_report(NULL, NULL, SINEW_ERROR_INVALID_ID, "%s: proxy %d is not a live proxy of this tree",
		             function, (int)proxy_id);
		return false;
	}
	return true;
}

static bool check_box(sinew_aabb aabb, const char *function)
{
	if (!aabb_is_valid(aabb)) {
		sinew_report(NULL, NULL, SINEW_ERROR_NOT_FINITE, "%s: the box has a NaN or infinite bound", function);
		return false;
	}
	if (aabb.lower.x > aabb.upper.x || aabb.lower.y > aabb.upper.y) {
		sinew_report(NULL, NULL, SINEW_ERROR_INVALID_ARGUMENT, "%s: the box's lower bound exceeds its upper bound",
		             function);
		return false;
	}
	return true;
}

/* ---- node pool ---- */

/* A rebuild's items: leaves, or roots of subtrees kept whole. */
typedef struct build_leaf {
	int32_t index;
	sinew_vec2 center;
	int32_t bin; /* partition_leaves' scratch: the item's bin, kept from the binning to the split */
} build_leaf;

typedef struct build_task {
	int32_t begin, end; /* range of build_leaf */
	int32_t parent;     /* node whose child slot this range fills; SINEW_NULL_NODE for the root */
	int32_t slot;       /* 1 or 2 */
	int32_t depth;
} build_task;

/* A binary tree of capacity nodes has at most capacity / 2 + 1 leaves, so a rebuild has at most
 * that many items, tasks and created nodes: one block holds the three arrays. */
static size_t build_items(int32_t capacity)
{
	return (size_t)capacity / 2 + 1;
}

static size_t build_bytes(int32_t capacity)
{
	return build_items(capacity) * (sizeof(build_leaf) + sizeof(build_task) + sizeof(int32_t));
}

static build_leaf *build_leaves(const sinew_dynamic_tree *tree)
{
	return (build_leaf *)tree->build;
}

static build_task *build_tasks(const sinew_dynamic_tree *tree)
{
	return (build_task *)(build_leaves(tree) + build_items(tree->node_capacity));
}

static int32_t *build_created(const sinew_dynamic_tree *tree)
{
	return (int32_t *)(build_tasks(tree) + build_items(tree->node_capacity));
}

static bool grow_pool(sinew_dynamic_tree *tree)
{
	int32_t old_capacity = tree->nodes == NULL ? 0 : tree->node_capacity;
	int32_t capacity = old_capacity == 0 ? SINEW_TREE_INITIAL_CAPACITY : 2 * old_capacity;
	if (old_capacity > INT32_MAX / 2) return false;
	/* the scratch first: a larger one than needed is harmless if the nodes then fail */
	void *build = sinew_realloc(old_capacity == 0 ? NULL : tree->build, build_bytes(capacity));
	if (build == NULL) return false;
	if (old_capacity > 0) tree->build = build;
	sinew_tree_node *nodes = sinew_realloc(tree->nodes, (size_t)capacity * sizeof(sinew_tree_node));
	if (nodes == NULL) {
		if (old_capacity == 0) sinew_free(build);
		return false;
	}
	tree->build = build;
	if (old_capacity == 0) {
		/* Zero-initialised tree: its root/free_list fields were 0, not SINEW_NULL_NODE. */
		tree->root = SINEW_NULL_NODE;
		tree->node_count = 0;
		tree->proxy_count = 0;
	}
	memset(nodes + old_capacity, 0, (size_t)(capacity - old_capacity) * sizeof(sinew_tree_node));
	for (int32_t i = old_capacity; i < capacity; ++i) {
		nodes[i].link.next = i + 1 < capacity ? i + 1 : SINEW_NULL_NODE;
		nodes[i].child1 = nodes[i].child2 = SINEW_NULL_NODE;
		nodes[i].height = -1;
	}
	tree->nodes = nodes;
	tree->node_capacity = capacity;
	tree->free_list = old_capacity;
	return true;
}

/* Returns a fresh node (a leaf until given children), or SINEW_NULL_NODE when out of memory. */
static int32_t allocate_node(sinew_dynamic_tree *tree)
{
	if (tree->nodes == NULL || tree->free_list == SINEW_NULL_NODE) {
		if (!grow_pool(tree)) {
			sinew_report(NULL, NULL, SINEW_ERROR_OUT_OF_MEMORY, "sinew_dynamic_tree: cannot grow the node pool");
			return SINEW_NULL_NODE;
		}
	}
	int32_t index = tree->free_list;
	sinew_tree_node *node = tree->nodes + index;
	tree->free_list = node->link.next;
	memset(node, 0, sizeof *node);
	node->link.parent = SINEW_NULL_NODE;
	node->child1 = node->child2 = SINEW_NULL_NODE;
	node->flags = SINEW_NODE_ALLOCATED;
	tree->node_count += 1;
	return index;
}

static void free_node(sinew_dynamic_tree *tree, int32_t index)
{
	sinew_tree_node *node = tree->nodes + index;
	SINEW_ASSERT(node->flags & SINEW_NODE_ALLOCATED);
	node->flags = 0;
	node->height = -1;
	node->child1 = node->child2 = SINEW_NULL_NODE;
	node->link.next = tree->free_list;
	tree->free_list = index;
	tree->node_count -= 1;
}

/* ---- rotations ---- */

/* Recompute an internal node's box and height from its children. */
static void refit(sinew_tree_node *nodes, int32_t index)
{
	sinew_tree_node *node = nodes + index;
	const sinew_tree_node *c1 = nodes + node->child1, *c2 = nodes + node->child2;
	node->aabb = sinew_aabb_union(c1->aabb, c2->aabb);
	node->height = (int16_t)(1 + imax(c1->height, c2->height));
}

/* The ENLARGED flag of a node, as its parent must carry it (leaves carry none). */
static uint16_t enlarged_of(const sinew_tree_node *nodes, int32_t index)
{
	return is_leaf(nodes + index) ? 0 : (uint16_t)(nodes[index].flags & SINEW_NODE_ENLARGED);
}

/* Flag index and its ancestors, up to the first one already flagged (the flag is closed
 * upwards, so everything above that one is flagged). */
static void mark_enlarged(sinew_tree_node *nodes, int32_t index)
{
	while (index != SINEW_NULL_NODE && (nodes[index].flags & SINEW_NODE_ENLARGED) == 0) {
		nodes[index].flags |= SINEW_NODE_ENLARGED;
		index = nodes[index].link.parent;
	}
}

/* Exchange x (a child of a) with y (a child of z, a's other child), then refit z and a. */
static void swap_with_grandchild(sinew_tree_node *nodes, int32_t a, int32_t x, int32_t z, int32_t y)
{
	if (nodes[a].child1 == x) nodes[a].child1 = y;
	else nodes[a].child2 = y;
	if (nodes[z].child1 == y) nodes[z].child1 = x;
	else nodes[z].child2 = x;
	nodes[x].link.parent = z;
	nodes[y].link.parent = a;
	nodes[z].flags |= enlarged_of(nodes, x); /* a, above both, is flagged already if either is */
	refit(nodes, z);
	nodes[a].height = (int16_t)(1 + imax(nodes[nodes[a].child1].height, nodes[nodes[a].child2].height));
}

/* A candidate rotation: swap x (a child of a) with y (a child of z). */
typedef struct rotation {
	int32_t x, z, y;
	float cost; /* perimeter of z after the swap */
	bool valid;
} rotation;

/* Score swapping x with each child of z (z internal) and keep the best in *best. Swaps that
 * would leave either touched node unbalanced are not considered. */
static void score_swaps(const sinew_tree_node *nodes, int32_t x, int32_t z, rotation *best)
{
	int32_t grand[2] = {nodes[z].child1, nodes[z].child2};
	for (int i = 0; i < 2; ++i) {
		int32_t y = grand[i], w = grand[1 - i];
		int hx = nodes[x].height, hw = nodes[w].height, hy = nodes[y].height;
		if (iabs(hx - hw) > 1 || iabs(hy - (1 + imax(hx, hw))) > 1) continue; /* keep balance */
		float cost = union_perimeter(nodes[x].aabb, nodes[w].aabb);
		if (!best->valid || cost < best->cost) {
			rotation r = {x, z, y, cost, true};
			*best = r;
		}
	}
}

/* Restore |height(child1) - height(child2)| <= 1 at a by promoting the taller child's taller
 * grandchild, trading places with the shorter child (an AVL rotation, written as a swap since
 * children are unordered). The node the short child moves into can itself end up unbalanced, so
 * it is fixed the same way, one level further down. Each round either balances a or lowers its
 * height, so this ends; recursion depth is bounded by the subtree's height. */
static void rebalance(sinew_tree_node *nodes, int32_t a)
{
	for (;;) {
		int32_t b = nodes[a].child1, c = nodes[a].child2;
		int hb = nodes[b].height, hc = nodes[c].height;
		if (iabs(hb - hc) <= 1) return;
		int32_t x = hb < hc ? b : c, z = hb < hc ? c : b; /* z is internal: it is 2+ taller */
		int32_t g1 = nodes[z].child1, g2 = nodes[z].child2;
		int32_t y;
		if (nodes[g1].height != nodes[g2].height) {
			y = nodes[g1].height > nodes[g2].height ? g1 : g2;
		} else {
			/* Equal grandchildren: promote the one that leaves the smaller box behind. */
			float keep2 = union_perimeter(nodes[x].aabb, nodes[g2].aabb);
			float keep1 = union_perimeter(nodes[x].aabb, nodes[g1].aabb);
			y = keep2 <= keep1 ? g1 : g2;
		}
		swap_with_grandchild(nodes, a, x, z, y);
		rebalance(nodes, z);
		nodes[a].height = (int16_t)(1 + imax(nodes[nodes[a].child1].height, nodes[nodes[a].child2].height));
	}
}

/* Offer node a one rotation: the height rebalance if its children's heights differ by more than
 * one, otherwise the balance-keeping swap that most reduces a child's perimeter. */
static void rotate(sinew_tree_node *nodes, int32_t a)
{
	int32_t b = nodes[a].child1, c = nodes[a].child2;
	if (iabs(nodes[b].height - nodes[c].height) > 1) {
		rebalance(nodes, a);
		return;
	}
	rotation best = {SINEW_NULL_NODE, SINEW_NULL_NODE, SINEW_NULL_NODE, 0.0f, false};
	if (!is_leaf(nodes + c)) score_swaps(nodes, b, c, &best);
	float gain_c = best.valid ? sinew_aabb_perimeter(nodes[c].aabb) - best.cost : 0.0f;
	rotation best_b = {SINEW_NULL_NODE, SINEW_NULL_NODE, SINEW_NULL_NODE, 0.0f, false};
	if (!is_leaf(nodes + b)) score_swaps(nodes, c, b, &best_b);
	float gain_b = best_b.valid ? sinew_aabb_perimeter(nodes[b].aabb) - best_b.cost : 0.0f;
	if (gain_b > gain_c) {
		best = best_b;
		gain_c = gain_b;
	}
	if (best.valid && gain_c > 0.0f) swap_with_grandchild(nodes, a, best.x, best.z, best.y);
}

/* Refit and rotate every node from index up to the root. */
static void walk_up(sinew_tree_node *nodes, int32_t index)
{
	while (index != SINEW_NULL_NODE) {
		refit(nodes, index);
		rotate(nodes, index);
		index = nodes[index].link.parent;
	}
}

/* ---- insertion and removal ---- */

/* The node that, paired with a new leaf of box d, costs least (SAH, branch and bound). */
static int32_t find_best_sibling(const sinew_tree_node *nodes, int32_t root, sinew_aabb d)
{
	float perimeter_d = sinew_aabb_perimeter(d);
	int32_t best = root;
	float best_cost = union_perimeter(nodes[root].aabb, d);
	float inherited = 0.0f; /* growth of the ancestors of index if the leaf goes below index */
	int32_t index = root;
	while (!is_leaf(nodes + index)) {
		const sinew_tree_node *node = nodes + index;
		inherited += union_perimeter(node->aabb, d) - sinew_aabb_perimeter(node->aabb);
		int32_t children[2] = {node->child1, node->child2};
		float lower_bound[2];
		for (int i = 0; i < 2; ++i) {
			const sinew_tree_node *child = nodes + children[i];
			float direct = union_perimeter(child->aabb, d);
			float cost = direct + inherited;
			if (cost < best_cost) {
				best_cost = cost;
				best = children[i];
			}
			lower_bound[i] = is_leaf(child) ? INFINITY
			                                : inherited + direct - sinew_aabb_perimeter(child->aabb) + perimeter_d;
		}
		int pick = lower_bound[1] < lower_bound[0] ? 1 : 0;
		if (!(lower_bound[pick] < best_cost)) break;
		index = children[pick];
	}
	return best;
}

/* Link an allocated leaf into the tree. Needs one free node (or room to grow). */
static bool insert_leaf(sinew_dynamic_tree *tree, int32_t leaf)
{
	if (tree->root == SINEW_NULL_NODE) {
		tree->root = leaf;
		tree->nodes[leaf].link.parent = SINEW_NULL_NODE;
		return true;
	}
	int32_t sibling = find_best_sibling(tree->nodes, tree->root, tree->nodes[leaf].aabb);
	int32_t parent = allocate_node(tree); /* may move tree->nodes */
	if (parent == SINEW_NULL_NODE) return false;
	sinew_tree_node *nodes = tree->nodes;
	int32_t old_parent = nodes[sibling].link.parent;
	nodes[parent].link.parent = old_parent;
	nodes[parent].child1 = sibling;
	nodes[parent].child2 = leaf;
	nodes[parent].flags |= enlarged_of(nodes, sibling);
	nodes[sibling].link.parent = parent;
	nodes[leaf].link.parent = parent;
	if (old_parent == SINEW_NULL_NODE) {
		tree->root = parent;
	} else if (nodes[old_parent].child1 == sibling) {
		nodes[old_parent].child1 = parent;
	} else {
		nodes[old_parent].child2 = parent;
	}
	walk_up(nodes, parent);
	return true;
}

/* Unlink a leaf (it stays allocated); its parent is freed and its sibling takes the place. */
static void remove_leaf(sinew_dynamic_tree *tree, int32_t leaf)
{
	sinew_tree_node *nodes = tree->nodes;
	if (leaf == tree->root) {
		tree->root = SINEW_NULL_NODE;
		return;
	}
	int32_t parent = nodes[leaf].link.parent;
	int32_t grand = nodes[parent].link.parent;
	int32_t sibling = nodes[parent].child1 == leaf ? nodes[parent].child2 : nodes[parent].child1;
	nodes[sibling].link.parent = grand;
	nodes[leaf].link.parent = SINEW_NULL_NODE;
	free_node(tree, parent);
	if (grand == SINEW_NULL_NODE) {
		tree->root = sibling;
		return;
	}
	if (nodes[grand].child1 == parent) nodes[grand].child1 = sibling;
	else nodes[grand].child2 = sibling;
	walk_up(nodes, grand);
}

/* ---- public: lifetime and proxies ---- */

sinew_dynamic_tree sinew_dynamic_tree_create(void)
{
	sinew_dynamic_tree tree = {NULL, SINEW_NULL_NODE, 0, 0, SINEW_NULL_NODE, 0, NULL};
	return tree;
}

void sinew_dynamic_tree_destroy(sinew_dynamic_tree *tree)
{
	if (sinew_reject_null(tree == NULL, "sinew_dynamic_tree_destroy")) return;
	if (tree == NULL) return;
	if (tree->nodes != NULL) sinew_free(tree->build);
	sinew_free(tree->nodes);
	*tree = sinew_dynamic_tree_create();
}

int32_t sinew_dynamic_tree_create_proxy(sinew_dynamic_tree *tree, sinew_aabb aabb, uint32_t category,
                                        uint64_t user_data)
{
	if (sinew_reject_null(tree == NULL, "sinew_dynamic_tree_create_proxy")) return SINEW_NULL_NODE;
	if (!check_box(aabb, "sinew_dynamic_tree_create_proxy")) return SINEW_NULL_NODE;
	int32_t leaf = allocate_node(tree);
	if (leaf == SINEW_NULL_NODE) return SINEW_NULL_NODE;
	sinew_tree_node *node = tree->nodes + leaf;
	node->aabb = aabb;
	node->category = category;
	node->user_data = user_data;
	node->height = 0;
	if (!insert_leaf(tree, leaf)) {
		free_node(tree, leaf);
		return SINEW_NULL_NODE;
	}
	tree->proxy_count += 1;
	return leaf;
}

void sinew_dynamic_tree_destroy_proxy(sinew_dynamic_tree *tree, int32_t proxy_id)
{
	if (sinew_reject_null(tree == NULL, "sinew_dynamic_tree_destroy_proxy")) return;
	if (!check_proxy(tree, proxy_id, "sinew_dynamic_tree_destroy_proxy")) return;
	remove_leaf(tree, proxy_id);
	free_node(tree, proxy_id);
	tree->proxy_count -= 1;
}

void sinew_dynamic_tree_move_proxy(sinew_dynamic_tree *tree, int32_t proxy_id, sinew_aabb aabb)
{
	if (sinew_reject_null(tree == NULL, "sinew_dynamic_tree_move_proxy")) return;
	if (!check_proxy(tree, proxy_id, "sinew_dynamic_tree_move_proxy")) return;
	if (!check_box(aabb, "sinew_dynamic_tree_move_proxy")) return;
	remove_leaf(tree, proxy_id);
	tree->nodes[proxy_id].aabb = aabb;
	tree->nodes[proxy_id].flags &= (uint16_t)~SINEW_NODE_ENLARGED;
	/* The removal freed the leaf's old parent, so reinsertion never needs to grow the pool. */
	bool inserted = insert_leaf(tree, proxy_id);
	SINEW_ASSERT(inserted);
	SINEW_UNUSED(inserted);
}

/* Give a leaf the box aabb; its ancestors grow until one contains it already, and all of them
 * are flagged (even those that did not grow: the leaf may have shrunk, which only a rebuild
 * takes up). */
static void grow_in_place(sinew_tree_node *nodes, int32_t leaf, sinew_aabb aabb)
{
	nodes[leaf].aabb = aabb;
	int32_t index = nodes[leaf].link.parent;
	while (index != SINEW_NULL_NODE && !sinew_aabb_contains(nodes[index].aabb, aabb)) {
		nodes[index].aabb = sinew_aabb_union(nodes[index].aabb, aabb);
		nodes[index].flags |= SINEW_NODE_ENLARGED;
		index = nodes[index].link.parent;
	}
	mark_enlarged(nodes, index);
}

void sinew_dynamic_tree_enlarge_proxy(sinew_dynamic_tree *tree, int32_t proxy_id, sinew_aabb aabb)
{
	if (sinew_reject_null(tree == NULL, "sinew_dynamic_tree_enlarge_proxy")) return;
	if (!check_proxy(tree, proxy_id, "sinew_dynamic_tree_enlarge_proxy")) return;
	if (!check_box(aabb, "sinew_dynamic_tree_enlarge_proxy")) return;
	sinew_tree_node *nodes = tree->nodes;
	if (sinew_aabb_contains(nodes[proxy_id].aabb, aabb)) return;
	grow_in_place(nodes, proxy_id, sinew_aabb_union(nodes[proxy_id].aabb, aabb));
}

void sinew_dynamic_tree_set_proxy_aabb(sinew_dynamic_tree *tree, int32_t proxy_id, sinew_aabb aabb)
{
	if (sinew_reject_null(tree == NULL, "sinew_dynamic_tree_set_proxy_aabb")) return;
	if (!check_proxy(tree, proxy_id, "sinew_dynamic_tree_set_proxy_aabb")) return;
	if (!check_box(aabb, "sinew_dynamic_tree_set_proxy_aabb")) return;
	grow_in_place(tree->nodes, proxy_id, aabb);
}

sinew_aabb sinew_dynamic_tree_get_aabb(const sinew_dynamic_tree *tree, int32_t proxy_id)
{
	if (sinew_reject_null(tree == NULL, "sinew_dynamic_tree_get_aabb")) return (sinew_aabb){0};
	if (!check_proxy(tree, proxy_id, "sinew_dynamic_tree_get_aabb")) {
		sinew_aabb empty = {{0.0f, 0.0f}, {0.0f, 0.0f}};
		return empty;
	}
	return tree->nodes[proxy_id].aabb;
}

uint64_t sinew_dynamic_tree_get_user_data(const sinew_dynamic_tree *tree, int32_t proxy_id)
{
	if (sinew_reject_null(tree == NULL, "sinew_dynamic_tree_get_user_data")) return 0;
	if (!check_proxy(tree, proxy_id, "sinew_dynamic_tree_get_user_data")) return 0;
	return tree->nodes[proxy_id].user_data;
}

uint32_t sinew_dynamic_tree_get_category(const sinew_dynamic_tree *tree, int32_t proxy_id)
{
	if (sinew_reject_null(tree == NULL, "sinew_dynamic_tree_get_category")) return 0;
	if (!check_proxy(tree, proxy_id, "sinew_dynamic_tree_get_category")) return 0;
	return tree->nodes[proxy_id].category;
}

/* ---- traversal stack ---- */

typedef struct node_stack {
	int32_t *items;
	int32_t count, capacity;
	int32_t local[SINEW_TREE_STACK_SIZE];
} node_stack;

static void stack_init(node_stack *stack)
{
	stack->items = stack->local;
	stack->count = 0;
	stack->capacity = SINEW_TREE_STACK_SIZE;
}

/* A stack of capacity items, doubled: a heap copy of it (local being the first, on the C stack,
 * which is not freed), or NULL after reporting if the heap cannot give it. Out of line: the push
 * on every query's hot path should stay a compare and a store. */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static int32_t *grow_items(int32_t *items, const int32_t *local, int32_t capacity)
{
	int32_t *grown;
	if (items == local) {
		grown = sinew_alloc((size_t)(2 * capacity) * sizeof(int32_t));
		if (grown != NULL) memcpy(grown, local, (size_t)capacity * sizeof(int32_t));
	} else {
		grown = sinew_realloc(items, (size_t)(2 * capacity) * sizeof(int32_t));
	}
	if (grown == NULL) sinew_report(NULL, NULL, SINEW_ERROR_OUT_OF_MEMORY, "sinew_dynamic_tree: traversal stack too deep");
	return grown;
}

static bool stack_grow(node_stack *stack)
{
	int32_t *items = grow_items(stack->items, stack->local, stack->capacity);
	if (items == NULL) return false;
	stack->items = items;
	stack->capacity *= 2;
	return true;
}

static inline bool stack_push(node_stack *stack, int32_t index)
{
	if (stack->count == stack->capacity && !stack_grow(stack)) return false;
	stack->items[stack->count++] = index;
	return true;
}

static void stack_release(node_stack *stack)
{
	if (stack->items != stack->local) sinew_free(stack->items);
}

/* ---- public: queries ---- */

/* The query box, set up once per query for the test below. With SSE2 (every x86-64) a node's
 * box (lower x, lower y, upper x, upper y) has its upper corner negated, and the four tests of
 * sinew_aabb_overlaps are one compare of all four lanes:
 *   !(node.lower > query.upper) and !(-node.upper > -query.lower), the latter being
 *   !(query.lower > node.upper) exactly (negation is exact, and a NaN fails both forms alike).
 * So the same nodes are visited in the same order as with the scalar test (kept under #else). */
#if defined(__SSE2__)
typedef __m128 query_box;
static inline query_box make_query_box(sinew_aabb a)
{
	return _mm_setr_ps(a.upper.x, a.upper.y, -a.lower.x, -a.lower.y);
}
static inline bool node_overlaps(const sinew_tree_node *node, query_box q)
{
	const __m128 negate_upper = _mm_castsi128_ps(_mm_setr_epi32(0, 0, (int)0x80000000u, (int)0x80000000u));
	__m128 box = _mm_xor_ps(_mm_loadu_ps(&node->aabb.lower.x), negate_upper);
	return _mm_movemask_ps(_mm_cmpngt_ps(box, q)) == 0xF;
}
#else
typedef sinew_aabb query_box;
static inline query_box make_query_box(sinew_aabb a)
{
	return a;
}
static inline bool node_overlaps(const sinew_tree_node *node, query_box q)
{
	return sinew_aabb_overlaps(node->aabb, q);
}
#endif

/* One internal node of a query's walk, whose box overlaps q: child2 is pushed if it overlaps (the
 * stack grown first when full), and next is child1 if it overlaps, else SINEW_NULL_NODE; false
 * when the stack could not grow (reported). Inlined, so the stack stays in the caller's locals. */
static inline bool walk_children(const sinew_tree_node *nodes, const sinew_tree_node *node, query_box q,
                                 int32_t **items, const int32_t *local, int32_t *count, int32_t *capacity,
                                 int32_t *next)
{
	if (*count == *capacity) {
		int32_t *grown = grow_items(*items, local, *capacity);
		if (grown == NULL) return false;
		*items = grown;
		*capacity *= 2;
	}
	int32_t c1 = node->child1, c2 = node->child2;
	if (node_overlaps(nodes + c2, q)) (*items)[(*count)++] = c2;
	*next = node_overlaps(nodes + c1, q) ? c1 : SINEW_NULL_NODE;
	return true;
}

void sinew_dynamic_tree_query(const sinew_dynamic_tree *tree, sinew_aabb aabb, uint32_t mask,
                              sinew_tree_query_fn *fn, void *context)
{
	if (sinew_reject_null(tree == NULL || fn == NULL, "sinew_dynamic_tree_query")) return;
	if (tree == NULL || fn == NULL || tree_is_empty(tree)) return;
	const sinew_tree_node *nodes = tree->nodes;
	query_box q = make_query_box(aabb);
	if (!node_overlaps(nodes + tree->root, q)) return;
	/* The stack is kept in locals whose address is never taken (not in a node_stack), so they
	 * stay in registers across the callback. */
	int32_t local[SINEW_TREE_STACK_SIZE];
	int32_t *items = local, count = 0, capacity = SINEW_TREE_STACK_SIZE;
	/* Every node visited overlaps the box: children are tested before they are pushed, which
	 * spares a push and a pop for each of the (about half) that miss. child1 is visited next
	 * without going through the stack, child2 is pushed: a fixed, index-free order (the one of
	 * pushing child2 then child1 and popping). */
	int32_t index = tree->root;
	for (;;) {
		const sinew_tree_node *node = nodes + index;
		if (is_leaf(node)) {
			if ((node->category & mask) != 0 && !fn(index, node->user_data, context)) break;
		} else {
			int32_t next;
			if (!walk_children(nodes, node, q, &items, local, &count, &capacity, &next)) break;
			if (next != SINEW_NULL_NODE) {
				index = next;
				continue;
			}
		}
		if (count == 0) break;
		index = items[--count];
	}
	if (items != local) sinew_free(items);
}

/* All overlapping leaf pairs: a walk over pairs of nodes (a, b), starting at (root, root). A pair
 * of one node with itself stands for the pairs inside its subtree: its children's own pairs and the
 * pairs across them. A pair of two internal nodes whose boxes overlap goes on to the pairs of their
 * children that overlap (splitting both at once costs 19 % fewer instructions on spinner than
 * splitting the one with the larger perimeter, and 3 % fewer than the taller one). A leaf against
 * an internal node is a query of the leaf's box in that subtree, walked at once as
 * sinew_dynamic_tree_query walks (on the same stack, above the pairs). Every leaf pair is reached
 * by exactly one path, so each is reported once, and a pair of nodes is only reached when their
 * boxes overlap: where most of a tree moved, this walks the upper nodes once, where a query per
 * moved leaf walks them once for each leaf. The stack holds pairs (two entries each) below the
 * query's single entries. */
static inline int32_t push_pair(int32_t *items, int32_t count, int32_t a, int32_t b)
{
	items[count] = a;
	items[count + 1] = b;
	return count + 2;
}

void sinew_dynamic_tree_self_pairs(const sinew_dynamic_tree *tree, sinew_tree_pair_fn *fn, void *context)
{
	if (sinew_reject_null(tree == NULL || fn == NULL, "sinew_dynamic_tree_self_pairs")) return;
	if (tree == NULL || fn == NULL || tree_is_empty(tree)) return;
	const sinew_tree_node *nodes = tree->nodes;
	int32_t local[SINEW_TREE_STACK_SIZE];
	int32_t *items = local, count = 0, capacity = SINEW_TREE_STACK_SIZE;
	items[count++] = tree->root;
	items[count++] = tree->root;
	while (count > 0) {
		int32_t b = items[--count], a = items[--count];
		const sinew_tree_node *na = nodes + a;
		/* room for four pairs */
		while (count + 8 > capacity) {
			int32_t *grown = grow_items(items, local, capacity);
			if (grown == NULL) goto done;
			items = grown;
			capacity *= 2;
		}
		if (a == b) {
			if (is_leaf(na)) continue;
			int32_t c1 = na->child1, c2 = na->child2;
			count = push_pair(items, count, c1, c1);
			count = push_pair(items, count, c2, c2);
			if (node_overlaps(nodes + c1, make_query_box(nodes[c2].aabb))) count = push_pair(items, count, c1, c2);
			continue;
		}
		const sinew_tree_node *nb = nodes + b;
		bool leaf_a = is_leaf(na), leaf_b = is_leaf(nb);
		if (leaf_a && leaf_b) {
			fn(na->user_data, nb->user_data, context);
			continue;
		}
		if (leaf_a || leaf_b) {
			/* the leaf's box queried in the other's subtree, whose root overlaps it */
			const sinew_tree_node *leaf = leaf_a ? na : nb;
			query_box q = make_query_box(leaf->aabb);
			int32_t base = count, index = leaf_a ? b : a;
			for (;;) {
				const sinew_tree_node *node = nodes + index;
				if (is_leaf(node)) {
					fn(leaf->user_data, node->user_data, context);
				} else {
					int32_t next;
					if (!walk_children(nodes, node, q, &items, local, &count, &capacity, &next)) goto done;
					if (next != SINEW_NULL_NODE) {
						index = next;
						continue;
					}
				}
				if (count == base) break;
				index = items[--count];
			}
			continue;
		}
		/* both internal: the pairs of their children that overlap */
		int32_t a1 = na->child1, a2 = na->child2, b1 = nb->child1, b2 = nb->child2;
		query_box q1 = make_query_box(nodes[b1].aabb), q2 = make_query_box(nodes[b2].aabb);
		if (node_overlaps(nodes + a2, q2)) count = push_pair(items, count, a2, b2);
		if (node_overlaps(nodes + a2, q1)) count = push_pair(items, count, a2, b1);
		if (node_overlaps(nodes + a1, q2)) count = push_pair(items, count, a1, b2);
		if (node_overlaps(nodes + a1, q1)) count = push_pair(items, count, a1, b1);
	}
done:
	if (items != local) sinew_free(items);
}

/* Slab test. The box is closed (touching counts), matching sinew_aabb_overlaps. A zero
 * component of the translation makes that axis a containment test rather than a division, so
 * no NaN arises; a NaN anywhere in the input makes the test fail. */
bool sinew_ray_cast_aabb(sinew_aabb box, const sinew_ray_cast_input *input, float *fraction)
{
	if (sinew_reject_null(input == NULL, "sinew_ray_cast_aabb")) return false;
	float t_enter = 0.0f, t_exit = input->max_fraction;
	const float o[2] = {input->origin.x, input->origin.y};
	const float d[2] = {input->translation.x, input->translation.y};
	const float lo[2] = {box.lower.x, box.lower.y};
	const float hi[2] = {box.upper.x, box.upper.y};
	for (int axis = 0; axis < 2; ++axis) {
		if (d[axis] == 0.0f) {
			if (!(lo[axis] <= o[axis] && o[axis] <= hi[axis])) return false;
			continue;
		}
		float t1 = (lo[axis] - o[axis]) / d[axis];
		float t2 = (hi[axis] - o[axis]) / d[axis];
		if (t1 != t1 || t2 != t2) return false; /* NaN */
		if (t1 > t2) {
			float t = t1;
			t1 = t2;
			t2 = t;
		}
		t_enter = t1 > t_enter ? t1 : t_enter;
		t_exit = t2 < t_exit ? t2 : t_exit;
		if (!(t_enter <= t_exit)) return false;
	}
	if (!(t_enter <= t_exit)) return false; /* max_fraction < 0 or NaN */
	if (fraction != NULL) *fraction = t_enter;
	return true;
}

/* Ray cast through the tree. Each leaf whose box the segment [0, max] crosses is passed to fn
 * with input->max_fraction set to the current max. What fn returns decides the rest:
 *   0                      stop the whole cast now;
 *   negative (or NaN)      ignore this proxy, continue with the max unchanged;
 *   0 < value < max        clip: the max becomes value, so farther boxes are skipped;
 *   value >= max           continue with the max unchanged (the ray never grows back).
 * Returning input->max_fraction therefore visits every crossed box; returning the hit fraction
 * finds the closest hit. Box tests are monotone in the box bounds, so an internal node is never
 * culled while one of its leaves would pass sinew_ray_cast_aabb. */
void sinew_dynamic_tree_ray_cast(const sinew_dynamic_tree *tree, const sinew_ray_cast_input *input, uint32_t mask,
                                 sinew_tree_ray_cast_fn *fn, void *context)
{
	if (sinew_reject_null(tree == NULL || input == NULL || fn == NULL, "sinew_dynamic_tree_ray_cast")) return;
	if (tree == NULL || input == NULL || fn == NULL || tree_is_empty(tree)) return;
	const sinew_tree_node *nodes = tree->nodes;
	sinew_ray_cast_input sub = *input;
	node_stack stack;
	stack_init(&stack);
	stack_push(&stack, tree->root);
	while (stack.count > 0) {
		const sinew_tree_node *node = nodes + stack.items[--stack.count];
		if (!sinew_ray_cast_aabb(node->aabb, &sub, NULL)) continue;
		if (is_leaf(node)) {
			if ((node->category & mask) == 0) continue;
			float value = fn(&sub, (int32_t)(node - nodes), node->user_data, context);
			if (value == 0.0f) break;
			if (0.0f < value && value < sub.max_fraction) sub.max_fraction = value;
			continue;
		}
		if (!stack_push(&stack, node->child2) || !stack_push(&stack, node->child1)) break;
	}
	stack_release(&stack);
}

/* ---- public: quality and checks ---- */

int sinew_dynamic_tree_get_height(const sinew_dynamic_tree *tree)
{
	if (sinew_reject_null(tree == NULL, "sinew_dynamic_tree_get_height")) return -1;
	if (tree == NULL || tree_is_empty(tree)) return -1;
	return tree->nodes[tree->root].height;
}

/* Internal nodes only (leaves are the same whatever the tree), the root excluded. */
float sinew_dynamic_tree_get_area_ratio(const sinew_dynamic_tree *tree)
{
	if (sinew_reject_null(tree == NULL, "sinew_dynamic_tree_get_area_ratio")) return 0.0f;
	if (tree == NULL || tree_is_empty(tree)) return 0.0f;
	float root_perimeter = sinew_aabb_perimeter(tree->nodes[tree->root].aabb);
	if (!(root_perimeter > 0.0f)) return 0.0f;
	double total = 0.0; /* summed in index order: deterministic */
	for (int32_t i = 0; i < tree->node_capacity; ++i) {
		const sinew_tree_node *node = tree->nodes + i;
		if ((node->flags & SINEW_NODE_ALLOCATED) == 0 || is_leaf(node) || i == tree->root) continue;
		total += (double)sinew_aabb_perimeter(node->aabb);
	}
	return (float)(total / (double)root_perimeter);
}

/* One node's local invariants; *leaves counts the leaves seen. */
static bool validate_node(const sinew_dynamic_tree *tree, int32_t index, int32_t *leaves)
{
	const sinew_tree_node *nodes = tree->nodes;
	const sinew_tree_node *node = nodes + index;
	if ((node->flags & SINEW_NODE_ALLOCATED) == 0 || !aabb_is_valid(node->aabb)) return false;
	if (node->aabb.lower.x > node->aabb.upper.x || node->aabb.lower.y > node->aabb.upper.y) return false;
	if (is_leaf(node)) {
		*leaves += 1;
		return node->child2 == SINEW_NULL_NODE && node->height == 0;
	}
	/* the ENLARGED flag is closed upwards */
	int32_t parent = node->link.parent;
	if ((node->flags & SINEW_NODE_ENLARGED) && parent != SINEW_NULL_NODE &&
	    (nodes[parent].flags & SINEW_NODE_ENLARGED) == 0)
		return false;
	int32_t children[2] = {node->child1, node->child2};
	for (int i = 0; i < 2; ++i) {
		int32_t c = children[i];
		if (c < 0 || c >= tree->node_capacity || c == index) return false;
		if (nodes[c].link.parent != index) return false;
		if (!sinew_aabb_contains(node->aabb, nodes[c].aabb)) return false;
	}
	return node->height == 1 + imax(nodes[children[0]].height, nodes[children[1]].height);
}

bool sinew_dynamic_tree_validate(const sinew_dynamic_tree *tree)
{
	if (sinew_reject_null(tree == NULL, "sinew_dynamic_tree_validate")) return false;
	if (tree == NULL) return false;
	if (tree->nodes == NULL) return tree->proxy_count == 0 && tree->node_count == 0;
	int32_t free_count = 0;
	for (int32_t i = tree->free_list; i != SINEW_NULL_NODE; i = tree->nodes[i].link.next) {
		if (i < 0 || i >= tree->node_capacity || (tree->nodes[i].flags & SINEW_NODE_ALLOCATED) != 0) return false;
		if (++free_count > tree->node_capacity) return false; /* a cycle */
	}
	if (free_count + tree->node_count != tree->node_capacity) return false;
	if (tree->root == SINEW_NULL_NODE) return tree->node_count == 0 && tree->proxy_count == 0;
	if (tree->root < 0 || tree->root >= tree->node_capacity) return false;
	if (tree->nodes[tree->root].link.parent != SINEW_NULL_NODE) return false;

	/* Depth-first walk; children are checked to point back to their parent, so no node can be
	 * reached twice and the visit count bounds any corruption. */
	int32_t *pending = sinew_alloc((size_t)tree->node_capacity * sizeof(int32_t));
	if (pending == NULL) return false;
	int32_t count = 0, visited = 0, leaves = 0;
	bool ok = true;
	pending[count++] = tree->root;
	while (ok && count > 0) {
		int32_t index = pending[--count];
		if (++visited > tree->node_count || !validate_node(tree, index, &leaves)) {
			ok = false;
			break;
		}
		if (!is_leaf(tree->nodes + index)) {
			if (count + 2 > tree->node_capacity) {
				ok = false;
				break;
			}
			pending[count++] = tree->nodes[index].child1;
			pending[count++] = tree->nodes[index].child2;
		}
	}
	sinew_free(pending);
	return ok && visited == tree->node_count && leaves == tree->proxy_count;
}

/* ---- rebuild: top-down binned SAH over the existing leaves ---- */

/* Total order on leaves along an axis: centre, then proxy id (so equal centres never make the
 * result depend on anything but the ids). */
static bool leaf_less(const build_leaf *a, const build_leaf *b, int axis)
{
	float ca = axis == 0 ? a->center.x : a->center.y, cb = axis == 0 ? b->center.x : b->center.y;
	return ca < cb || (ca == cb && a->index < b->index);
}

static void swap_leaves(build_leaf *leaves, int32_t i, int32_t j)
{
	build_leaf t = leaves[i];
	leaves[i] = leaves[j];
	leaves[j] = t;
}

/* Quickselect: put the k-th smallest leaf (leaf_less order) at k, smaller ones before it. */
static void select_nth(build_leaf *leaves, int32_t begin, int32_t end, int32_t k, int axis)
{
	while (end - begin > 1) {
		int32_t mid = begin + (end - begin) / 2;
		swap_leaves(leaves, mid, end - 1); /* middle element as pivot: deterministic */
		int32_t store = begin;
		for (int32_t i = begin; i < end - 1; ++i) {
			if (leaf_less(leaves + i, leaves + end - 1, axis)) swap_leaves(leaves, i, store++);
		}
		swap_leaves(leaves, store, end - 1);
		if (store == k) return;
		if (k < store) end = store;
		else begin = store + 1;
	}
}

static int bin_of(const build_leaf *leaf, int axis, float min_c, float scale)
{
	float c = axis == 0 ? leaf->center.x : leaf->center.y;
	/* clamp before converting: centres more than FLT_MAX apart make t huge, infinite or NaN,
	 * and converting such a float to int is undefined */
	float t = (c - min_c) * scale;
	if (!(t > 0.0f)) return 0;
	if (t >= (float)(SINEW_TREE_BIN_COUNT - 1)) return SINEW_TREE_BIN_COUNT - 1;
	return (int)t;
}

/* The bin boundary (split after bin b) with the lowest SAH cost, or -1 if none splits. */
static int best_bin_plane(const int32_t *bin_count, const sinew_aabb *bin_box, int32_t total)
{
	float right_cost[SINEW_TREE_BIN_COUNT];
	sinew_aabb acc = {{0.0f, 0.0f}, {0.0f, 0.0f}};
	int32_t n = 0;
	for (int b = SINEW_TREE_BIN_COUNT - 1; b > 0; --b) {
		if (bin_count[b] > 0) acc = n == 0 ? bin_box[b] : sinew_aabb_union(acc, bin_box[b]);
		n += bin_count[b];
		right_cost[b] = (float)n * sinew_aabb_perimeter(acc);
	}
	int best_plane = -1;
	float best_cost = INFINITY;
	n = 0;
	for (int b = 0; b < SINEW_TREE_BIN_COUNT - 1; ++b) {
		if (bin_count[b] > 0) acc = n == 0 ? bin_box[b] : sinew_aabb_union(acc, bin_box[b]);
		n += bin_count[b];
		if (n == 0 || n == total) continue;
		float cost = (float)n * sinew_aabb_perimeter(acc) + right_cost[b + 1];
		if (cost < best_cost) {
			best_cost = cost;
			best_plane = b;
		}
	}
	return best_plane;
}

/* Split leaves[begin, end) in two along the longer axis of the centres; returns the split point
 * (strictly inside the range). Binned SAH normally; the median when use_median is set (depth
 * budget spent) or when SAH finds no plane (coincident centres). */
static int32_t partition_leaves(const sinew_tree_node *nodes, build_leaf *leaves, int32_t begin, int32_t end,
                                bool use_median, bool sah)
{
	/* Two items split one way only, and three or four are split at the median: together about
	 * three quarters of the splits of a build, where binning (sixteen bins swept twice) would
	 * cost as much as a split of dozens. */
	if (end - begin == 2) return begin + 1;
	if (end - begin <= 4) use_median = true;
	sinew_vec2 lo = leaves[begin].center, hi = lo;
	for (int32_t i = begin + 1; i < end; ++i) {
		lo = sinew_vmin(lo, leaves[i].center);
		hi = sinew_vmax(hi, leaves[i].center);
	}
	int axis = (hi.x - lo.x) >= (hi.y - lo.y) ? 0 : 1;
	float min_c = axis == 0 ? lo.x : lo.y, extent = axis == 0 ? hi.x - lo.x : hi.y - lo.y;
	int32_t mid = begin + (end - begin) / 2;
	if (!sah && !use_median && extent > 0.0f) {
		/* the middle of the centres' extent: one pass, where binning sweeps the boxes too */
		float middle = min_c + 0.5f * extent;
		int32_t split = begin;
		for (int32_t i = begin; i < end; ++i) {
			float c = axis == 0 ? leaves[i].center.x : leaves[i].center.y;
			if (c < middle) swap_leaves(leaves, i, split++);
		}
		if (split > begin && split < end) return split;
		use_median = true; /* every centre on one side (rounding at a huge offset) */
	}
	int best_plane = -1;
	float scale = 0.0f;
	if (!use_median && extent > 0.0f) {
		int32_t bin_count[SINEW_TREE_BIN_COUNT] = {0};
		sinew_aabb bin_box[SINEW_TREE_BIN_COUNT];
		scale = (float)SINEW_TREE_BIN_COUNT / extent;
		for (int32_t i = begin; i < end; ++i) {
			int b = leaves[i].bin = bin_of(leaves + i, axis, min_c, scale);
			const sinew_aabb box = nodes[leaves[i].index].aabb;
			bin_box[b] = bin_count[b] == 0 ? box : sinew_aabb_union(bin_box[b], box);
			bin_count[b] += 1;
		}
		best_plane = best_bin_plane(bin_count, bin_box, end - begin);
	}
	if (best_plane < 0) {
		select_nth(leaves, begin, end, mid, axis);
		return mid;
	}
	int32_t split = begin;
	for (int32_t i = begin; i < end; ++i) { /* each item carries its bin as it is swapped */
		if (leaves[i].bin <= best_plane) swap_leaves(leaves, i, split++);
	}
	SINEW_ASSERT(split > begin && split < end);
	return split;
}

static void attach(sinew_dynamic_tree *tree, int32_t child, int32_t parent, int32_t slot)
{
	tree->nodes[child].link.parent = parent;
	if (parent == SINEW_NULL_NODE) tree->root = child;
	else if (slot == 1) tree->nodes[parent].child1 = child;
	else tree->nodes[parent].child2 = child;
}

/* Build over leaves[0, count) with an explicit task stack (an SAH tree need not be balanced,
 * so recursion depth is not bounded by log n). Internal nodes come from the free list, which
 * holds at least count - 1 nodes because the old internal nodes were just freed. Heights and
 * boxes are filled by a final pass over the internal nodes in reverse creation order. */
static void build_top_down(sinew_dynamic_tree *tree, build_leaf *leaves, int32_t count, build_task *tasks,
                           int32_t *created, bool sah)
{
	/* SAH may split very unevenly on odd input; past this depth, median splits bound the height
	 * (so later rebalancing, which recurses, stays shallow). */
	int32_t depth_budget = 8;
	for (int32_t n = count; n > 1; n = (n + 1) / 2) depth_budget += 2;
	int32_t task_count = 0, created_count = 0;
	build_task first = {0, count, SINEW_NULL_NODE, 1, 0};
	tasks[task_count++] = first;
	while (task_count > 0) {
		build_task t = tasks[--task_count];
		if (t.end - t.begin == 1) {
			attach(tree, leaves[t.begin].index, t.parent, t.slot);
			continue;
		}
		int32_t node = allocate_node(tree);
		SINEW_ASSERT(node != SINEW_NULL_NODE);
		created[created_count++] = node;
		attach(tree, node, t.parent, t.slot);
		int32_t split = partition_leaves(tree->nodes, leaves, t.begin, t.end, t.depth >= depth_budget, sah);
		build_task right = {split, t.end, node, 2, t.depth + 1}, left = {t.begin, split, node, 1, t.depth + 1};
		tasks[task_count++] = right;
		tasks[task_count++] = left;
	}
	/* A child is always created after its parent, so reverse order refits bottom-up. */
	for (int32_t i = created_count - 1; i >= 0; --i) refit(tree->nodes, created[i]);
}

static build_leaf make_item(const sinew_tree_node *nodes, int32_t index)
{
	build_leaf item = {index, sinew_scale(0.5f, sinew_add(nodes[index].aabb.lower, nodes[index].aabb.upper)), 0};
	return item;
}

void sinew_dynamic_tree_rebuild(sinew_dynamic_tree *tree)
{
	if (sinew_reject_null(tree == NULL, "sinew_dynamic_tree_rebuild")) return;
	if (tree == NULL || tree_is_empty(tree) || tree->proxy_count < 2) return;
	int32_t count = tree->proxy_count;
	build_leaf *leaves = build_leaves(tree);
	/* Collect leaves in index order (deterministic) and free internal nodes in reverse index
	 * order, so the free list hands them back lowest index first. */
	int32_t n = 0;
	for (int32_t i = 0; i < tree->node_capacity; ++i) {
		sinew_tree_node *node = tree->nodes + i;
		if ((node->flags & SINEW_NODE_ALLOCATED) == 0 || !is_leaf(node)) continue;
		leaves[n++] = make_item(tree->nodes, i);
		node->flags &= (uint16_t)~SINEW_NODE_ENLARGED;
	}
	SINEW_ASSERT(n == count);
	for (int32_t i = tree->node_capacity - 1; i >= 0; --i) {
		sinew_tree_node *node = tree->nodes + i;
		if ((node->flags & SINEW_NODE_ALLOCATED) != 0 && !is_leaf(node)) free_node(tree, i);
	}
	tree->root = SINEW_NULL_NODE;
	build_top_down(tree, leaves, n, build_tasks(tree), build_created(tree), true);
}

/* The flagged nodes form a subtree at the root (the flag is closed upwards): free them, walking
 * down from the root (children first-child-first, a fixed order), and build again over what
 * hangs below them. The build takes back exactly the nodes freed (k items, k - 1 internal
 * nodes), so the pool never grows. */
int32_t sinew_dynamic_tree_rebuild_enlarged(sinew_dynamic_tree *tree)
{
	if (sinew_reject_null(tree == NULL, "sinew_dynamic_tree_rebuild_enlarged")) return 0;
	if (tree == NULL || tree_is_empty(tree)) return 0;
	sinew_tree_node *nodes = tree->nodes;
	if (is_leaf(nodes + tree->root) || (nodes[tree->root].flags & SINEW_NODE_ENLARGED) == 0) return 0;
	build_leaf *items = build_leaves(tree);
	int32_t *pending = build_created(tree); /* a stack here, before the build reuses it */
	int32_t n = 0, count = 0, freed = 0;
	pending[count++] = tree->root;
	while (count > 0) {
		int32_t index = pending[--count];
		if (is_leaf(nodes + index) || (nodes[index].flags & SINEW_NODE_ENLARGED) == 0) {
			items[n++] = make_item(nodes, index);
			continue;
		}
		pending[count++] = nodes[index].child2;
		pending[count++] = nodes[index].child1;
		free_node(tree, index);
		freed += 1;
	}
	tree->root = SINEW_NULL_NODE;
	build_top_down(tree, items, n, build_tasks(tree), build_created(tree), false);
	SINEW_ASSERT(freed == n - 1);
	return freed;
}

/* Every allocated node's box moves by -new_origin. Rounding to nearest is monotonic, so a box that
 * contained another still does after both are moved the same way: the tree stays valid as it is. */
void sinew_dynamic_tree_shift_origin(sinew_dynamic_tree *tree, sinew_vec2 new_origin)
{
	if (sinew_reject_null(tree == NULL, "sinew_dynamic_tree_shift_origin")) return;
	if (tree == NULL) return;
	if (!sinew_vec2_is_valid(new_origin)) {
		sinew_report(NULL, NULL, SINEW_ERROR_NOT_FINITE, "sinew_dynamic_tree_shift_origin: new_origin must be finite");
		return;
	}
	if (tree->nodes == NULL) return;
	for (int32_t i = 0; i < tree->node_capacity; ++i) {
		sinew_tree_node *node = tree->nodes + i;
		if ((node->flags & SINEW_NODE_ALLOCATED) == 0) continue;
		node->aabb.lower = sinew_sub(node->aabb.lower, new_origin);
		node->aabb.upper = sinew_sub(node->aabb.upper, new_origin);
	}
}
