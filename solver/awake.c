/* The awake sets: which bodies and which contacts a step has to look at, kept as they change, so
 * a step costs what is awake and not what the world holds (10,000 sleeping boxes cost nothing).
 *
 * - The awake bodies: in use, enabled, awake and not static. The step's solver takes exactly
 *   these (solver.c gather_bodies), the island search starts from the dynamic ones (island.c).
 * - The awake contacts: in use, with at least one awake body. The narrowphase refreshes exactly
 *   these (contact.c), and the step's constraints are taken from them (contact_solver.c).
 *
 * Each is an index set kept in ascending index order, so everything is visited in the order a scan
 * of the whole pool gave: the solver's body order, the contact order, the events and the free
 * lists are those of a scan, and no golden hash moves. Changes are cheap: an index added goes to
 * a pending list, one removed loses its member flag and goes to a dropped list; the next flush
 * sorts both and merges them in, copying the runs between few changes whole. Every array
 * is reserved for the whole pool when the pool grows (body and contact creation), so waking or
 * putting to sleep never allocates, and a step of a sized world does not either. */
#include "world.h"
#include "sort.h"

#include <string.h>

static void sift_down_min(int32_t *a, size_t root, size_t n)
{
	for (;;) {
		size_t c = 2 * root + 1;
		if (c >= n) return;
		if (c + 1 < n && a[c + 1] < a[c]) c += 1;
		if (a[root] <= a[c]) return;
		int32_t t = a[root];
		a[root] = a[c];
		a[c] = t;
		root = c;
	}
}

SINEW_DEFINE_SORT(sort_indices, int32_t)

static bool reserve_to(sinew_index_set *s, size_t n, size_t old)
{
	size_t words = (n + 63) / 64, old_words = (size_t)stbds_arrlen(s->bits);
	if (!SINEW_RESERVE(s->items, n) || !SINEW_RESERVE(s->pending, n) || !SINEW_RESERVE(s->scratch, n) ||
	    !SINEW_RESERVE(s->dropped, n) || !SINEW_RESERVE(s->member, n) || !SINEW_RESERVE(s->bits, words))
		return false;
	if (words > old_words) {
		stbds_arrsetlen(s->bits, words);
		memset(s->bits + old_words, 0, (words - old_words) * sizeof *s->bits);
	}
	stbds_arrsetlen(s->member, n);
	memset(s->member + old, 0, n - old);
	return true;
}

/* Called per new body and contact: room for twice the pool when it grows, so a pool growing by one
 * at a time costs a reserve now and then. */
bool sinew_index_set_reserve(sinew_index_set *s, int32_t pool)
{
	size_t n = (size_t)pool, old = (size_t)stbds_arrlen(s->member);
	if (n <= old) return true; /* member grows last, once every array holds its length */
	return reserve_to(s, 2 * old > n ? 2 * old : n, old);
}

void sinew_index_set_free(sinew_index_set *s)
{
	stbds_arrfree(s->items);
	stbds_arrfree(s->pending);
	stbds_arrfree(s->scratch);
	stbds_arrfree(s->dropped);
	stbds_arrfree(s->member);
	stbds_arrfree(s->bits);
	memset(s, 0, sizeof *s);
}

/* Keeps the indices of a[0, n) that are members (want 1) or not (want 0), sorted, each once; returns
 * how many. Many indices close together are sorted by setting their bits and reading them back in
 * order (time of the indices and of the words they span), few spread wide by the sort. */
static size_t sort_filtered(sinew_index_set *s, int32_t *a, size_t n, uint8_t want)
{
	size_t m = 0;
	int32_t lo = INT32_MAX, hi = -1;
	for (size_t k = 0; k < n; ++k) {
		int32_t x = a[k];
		if ((s->member[x] != 0) != want) continue;
		a[m++] = x;
		lo = x < lo ? x : lo;
		hi = x > hi ? x : hi;
	}
	if (m == 0) return 0;
	size_t first = (size_t)lo / 64, last = (size_t)hi / 64;
	if (last - first + 1 > m * 4) {
		sort_indices(a, (int)m);
		return m;
	}
	for (size_t k = 0; k < m; ++k) s->bits[(size_t)a[k] / 64] |= (uint64_t)1 << (a[k] % 64);
	size_t out = 0;
	for (size_t wd = first; wd <= last; ++wd) {
		for (uint64_t b = s->bits[wd]; b != 0; b &= b - 1) a[out++] = (int32_t)(wd * 64 + (size_t)__builtin_ctzll(b));
		s->bits[wd] = 0;
	}
	return out;
}

/* The first position in items[lo, hi) whose index is not below x: galloping from lo, so a change
 * close to the last costs little. */
static size_t lower_bound(const int32_t *items, size_t lo, size_t hi, int32_t x)
{
	if (lo >= hi || items[lo] >= x) return lo;
	for (size_t step = 1;; step *= 2) { /* items[lo] < x */
		size_t probe = lo + step;
		if (probe >= hi || items[probe] >= x) {
			hi = probe < hi ? probe : hi;
			lo += 1;
			break;
		}
		lo = probe;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (items[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Few changes against a long list: copy the runs of items between them whole, finding each
 * change's place by a galloping search, instead of testing every member. adds (sorted, members) and
 * drops (sorted, not members) have no index in common. */
static size_t merge_changes(sinew_index_set *s, size_t ni, const int32_t *adds, size_t na, const int32_t *drops,
                            size_t nd)
{
	size_t i = 0, a = 0, d = 0, out = 0;
	while (a < na || d < nd) {
		bool add = d >= nd || (a < na && adds[a] < drops[d]);
		int32_t x = add ? adds[a++] : drops[d++];
		size_t at = lower_bound(s->items, i, ni, x);
		if (at > i) {
			memcpy(s->scratch + out, s->items + i, (at - i) * sizeof *s->items);
			out += at - i;
			i = at;
		}
		bool listed = i < ni && s->items[i] == x;
		if (!add)
			i += listed; /* a drop not listed was added and removed since the last flush */
		else if (!listed && (out == 0 || s->scratch[out - 1] != x))
			s->scratch[out++] = x; /* an add listed already was removed and put back */
	}
	if (ni > i) memcpy(s->scratch + out, s->items + i, (ni - i) * sizeof *s->items);
	return out + (ni - i);
}

void sinew_index_set_flush(sinew_index_set *s)
{
	if (stbds_arrlen(s->pending) == 0 && s->removed == 0) return;
	size_t np = sort_filtered(s, s->pending, (size_t)stbds_arrlen(s->pending), 1);
	size_t ni = (size_t)stbds_arrlen(s->items), out = 0;
	if (!s->dropped_lost && (np + (size_t)stbds_arrlen(s->dropped)) * 4 <= ni) {
		size_t nd = sort_filtered(s, s->dropped, (size_t)stbds_arrlen(s->dropped), 0);
		out = merge_changes(s, ni, s->pending, np, s->dropped, nd);
	} else {
		/* merge the members of items and pending, each index once */
		size_t i = 0, j = 0;
		int32_t last = -1;
		while (i < ni || j < np) {
			int32_t x;
			if (j >= np || (i < ni && s->items[i] < s->pending[j]))
				x = s->items[i++];
			else
				x = s->pending[j++];
			if (x == last || !s->member[x]) continue;
			s->scratch[out++] = last = x;
		}
	}
	stbds_arrsetlen(s->scratch, out);
	int32_t *t = s->items;
	s->items = s->scratch;
	s->scratch = t;
	stbds_arrsetlen(s->scratch, 0);
	stbds_arrsetlen(s->pending, 0);
	stbds_arrsetlen(s->dropped, 0);
	s->removed = 0;
	s->dropped_lost = false;
}

/* During a walk, pending is a min-heap of the indices added since the walk began. */
static void heap_push(int32_t *a, size_t n, int32_t x)
{
	size_t k = n;
	while (k > 0 && a[(k - 1) / 2] > x) {
		a[k] = a[(k - 1) / 2];
		k = (k - 1) / 2;
	}
	a[k] = x;
}

static int32_t heap_pop(int32_t *a, size_t n)
{
	int32_t top = a[0];
	a[0] = a[n - 1];
	sift_down_min(a, 0, n - 1);
	return top;
}

void sinew_index_set_add(sinew_index_set *s, int32_t i)
{
	if (s->member[i]) return;
	s->member[i] = 1;
	s->count += 1;
	if (s->walking) { /* a walk adds each index at most once: within the pool's room */
		size_t n = (size_t)stbds_arrlen(s->pending);
		stbds_arrput(s->pending, i);
		heap_push(s->pending, n, i);
		return;
	}
	/* an index taken out and put back between flushes is listed again: bound the list by flushing */
	if ((size_t)stbds_arrlen(s->pending) == stbds_arrcap(s->pending)) sinew_index_set_flush(s);
	stbds_arrput(s->pending, i);
}

void sinew_index_set_remove(sinew_index_set *s, int32_t i)
{
	if (!s->member[i]) return;
	s->member[i] = 0;
	s->count -= 1;
	s->removed += 1;
	if ((size_t)stbds_arrlen(s->dropped) < stbds_arrcap(s->dropped))
		stbds_arrput(s->dropped, i);
	else
		s->dropped_lost = true; /* taken out and put back often: the flush scans instead */
}

void sinew_index_set_walk_begin(sinew_index_set *s, sinew_index_walk *it)
{
	sinew_index_set_flush(s);
	s->walking = true;
	it->i = 0;
	it->cursor = -1;
}

/* The walk is over: what it added (moved to scratch as it went by) waits in pending for the next flush. */
static int32_t walk_end(sinew_index_set *s)
{
	size_t n = (size_t)stbds_arrlen(s->scratch);
	for (size_t k = 0; k < n; ++k) stbds_arrput(s->pending, s->scratch[k]);
	stbds_arrsetlen(s->scratch, 0);
	s->walking = false;
	return SINEW_NULL_INDEX;
}

int32_t sinew_index_set_walk_next_added(sinew_index_set *s, sinew_index_walk *it)
{
	size_t ni = (size_t)stbds_arrlen(s->items);
	for (;;) {
		size_t np = (size_t)stbds_arrlen(s->pending);
		int32_t a = it->i < ni ? s->items[it->i] : INT32_MAX, b = np > 0 ? s->pending[0] : INT32_MAX;
		if (a == INT32_MAX && b == INT32_MAX) return walk_end(s);
		int32_t x;
		if (b <= a) { /* added during the walk: visited if past the cursor */
			x = heap_pop(s->pending, np);
			stbds_arrsetlen(s->pending, np - 1);
			stbds_arrput(s->scratch, x);
			if (b == a) it->i += 1;
		} else {
			x = a;
			it->i += 1;
		}
		if (x <= it->cursor) continue;
		it->cursor = x;
		if (s->member[x]) return x;
	}
}

static bool body_is_awake_member(const sinew_body *b)
{
	return b->in_use && b->enabled && b->awake && b->type != SINEW_STATIC_BODY;
}

void sinew_awake_sync_body(sinew_world *w, int32_t bi)
{
	if (body_is_awake_member(&w->bodies[bi]))
		sinew_index_set_add(&w->awake_set, bi);
	else
		sinew_index_set_remove(&w->awake_set, bi);
}

static bool contact_is_awake_member(const sinew_world *w, const sinew_contact *c)
{
	return c->in_use && (w->bodies[c->edges[0].body].awake || w->bodies[c->edges[1].body].awake);
}

void sinew_awake_sync_contact(sinew_world *w, int32_t ci)
{
	if (contact_is_awake_member(w, &w->contacts[ci]))
		sinew_index_set_add(&w->awake_contacts, ci);
	else
		sinew_index_set_remove(&w->awake_contacts, ci);
}

void sinew_body_set_awake_flag(sinew_world *w, sinew_body *b, bool awake)
{
	int32_t bi = (int32_t)(b - w->bodies);
	if (b->awake != awake) {
		b->awake = awake;
		for (int32_t ci = b->contact_list; ci != SINEW_NULL_INDEX;) {
			const sinew_contact *c = &w->contacts[ci];
			int32_t next = c->edges[sinew_contact_edge_of(c, bi)].next;
			sinew_awake_sync_contact(w, ci);
			ci = next;
		}
	}
	sinew_awake_sync_body(w, bi);
}

/* Each pool index is a member exactly when belongs[] says so; the count agrees; items ascend; every
 * member is listed in items or pending; every index items lists that is no member is in dropped. */
static bool set_matches(const sinew_index_set *s, const uint8_t *belongs, int32_t pool)
{
	if ((int32_t)stbds_arrlen(s->member) < pool) return false; /* a member index would overflow */
	int32_t count = 0;
	for (int32_t i = 0; i < pool; ++i) {
		if ((s->member[i] != 0) != (belongs[i] != 0)) return false;
		count += belongs[i] != 0;
	}
	if (count != s->count) return false;
	size_t ni = (size_t)stbds_arrlen(s->items), np = (size_t)stbds_arrlen(s->pending);
	int32_t listed = 0;
	for (size_t k = 0; k < ni; ++k) {
		if (s->items[k] < 0 || s->items[k] >= pool || (k > 0 && s->items[k] <= s->items[k - 1])) return false;
		listed += s->member[s->items[k]] != 0;
		/* one listed but out was removed since the last flush, and is recorded so (the flush's changes) */
		bool recorded = s->member[s->items[k]] != 0 || s->dropped_lost;
		for (size_t e = 0; e < (size_t)stbds_arrlen(s->dropped) && !recorded; ++e) recorded = s->dropped[e] == s->items[k];
		if (!recorded) return false;
	}
	for (size_t k = 0; k < np; ++k) {
		int32_t x = s->pending[k];
		if (x < 0 || x >= pool) return false;
		if (!s->member[x]) continue;
		/* listed once if not already in items */
		bool in_items = false;
		for (size_t a = 0, b = ni; a < b;) {
			size_t mid = a + (b - a) / 2;
			if (s->items[mid] == x) { in_items = true; break; }
			if (s->items[mid] < x) a = mid + 1; else b = mid;
		}
		bool earlier = false;
		for (size_t e = 0; e < k && !earlier; ++e) earlier = s->pending[e] == x;
		listed += !in_items && !earlier;
	}
	return listed == count;
}

static bool validate_world(sinew_world *w)
{
	int32_t nb = (int32_t)stbds_arrlen(w->bodies), nc = (int32_t)stbds_arrlen(w->contacts);
	uint8_t *belongs = sinew_alloc((size_t)(nb > nc ? nb : nc) + 1);
	if (belongs == NULL) return false;
	for (int32_t i = 0; i < nb; ++i) belongs[i] = body_is_awake_member(&w->bodies[i]);
	bool ok = set_matches(&w->awake_set, belongs, nb);
	int32_t touching = 0;
	for (int32_t i = 0; i < nc; ++i) {
		const sinew_contact *c = &w->contacts[i];
		belongs[i] = contact_is_awake_member(w, c);
		touching += c->in_use && (c->flags & (SINEW_CONTACT_TOUCHING | SINEW_CONTACT_SENSOR)) == SINEW_CONTACT_TOUCHING;
	}
	ok = ok && set_matches(&w->awake_contacts, belongs, nc) && touching == w->touching_live;
	sinew_free(belongs);
	return ok;
}

bool sinew_world_validate(sinew_world_id id)
{
	sinew_world *w = sinew_world_get(id, "sinew_world_validate");
	return w != NULL && validate_world(w);
}
