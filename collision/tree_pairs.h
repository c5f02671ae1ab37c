/* Internal: every overlapping pair of one tree's leaves in a single walk of the tree against
 * itself (collision/tree.c), for the broadphase when most of a tree's boxes moved at once
 * (solver/broadphase.c). Not a public header. */
#ifndef SINEW_TREE_PAIRS_H
#define SINEW_TREE_PAIRS_H

#include "core.h"
#include "sinew/collision.h"

/* Called with the two leaves' user data; the order within a pair and the order of the pairs are
 * the walk's and promise nothing. */
typedef void sinew_tree_pair_fn(uint64_t user_a, uint64_t user_b, void *context);

/* Every unordered pair of two different leaves of the tree whose boxes overlap (the closed test
 * of sinew_aabb_overlaps, the one sinew_dynamic_tree_query uses: each pair is exactly one that a
 * query with one leaf's box would report), once. Categories are not looked at. Never
 * allocates unless the tree is deeper than the traversal stack (as the query). */
void sinew_dynamic_tree_self_pairs(const sinew_dynamic_tree *tree, sinew_tree_pair_fn *fn, void *context);

#endif
