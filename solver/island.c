/* Islands and sleep. Before the solve, the awake dynamic bodies are joined into islands over
 * touching contacts and joints, and whatever sleeping body they reach is woken with its island
 * (static and kinematic bodies do not join islands, so a pile on the ground is its own island).
 * After the solve, a body that stayed slower than its sleep threshold accumulates sleep time; an
 * island whose every body has rested for SINEW_TIME_TO_SLEEP falls asleep as a whole. An island
 * touching a moving kinematic body never sleeps. Islands are found anew every step from the
 * contact graph, so there is no island state to keep consistent when bodies, shapes or contacts
 * come and go. */
#include "joint.h"

/* island_bodies holds the bodies of each island one after another; each island ends with a
 * marker entry -(1 + flags). */
#define ISLAND_END_KEEP_AWAKE 1

static bool kinematic_is_moving(const sinew_body *b)
{
	return b->type == SINEW_KINEMATIC_BODY && b->awake && (b->v.x != 0.0f || b->v.y != 0.0f || b->w != 0.0f);
}

/* Visit the island of seed; calls visit(body) for each body; returns island flags. */
static int walk_island(sinew_world *w, int32_t seed, int32_t mark, bool record)
{
	int flags = 0;
	stbds_arrsetlen(w->island_stack, 0);
	stbds_arrput(w->island_stack, seed);
	w->bodies[seed].island_mark = mark;
	while (stbds_arrlen(w->island_stack) > 0) {
		int32_t bi = stbds_arrpop(w->island_stack);
		sinew_body *b = &w->bodies[bi];
		if (record) stbds_arrput(w->island_bodies, bi);
		if (!b->can_sleep) flags |= ISLAND_END_KEEP_AWAKE;
		for (int32_t c = b->contact_list; c != SINEW_NULL_INDEX;) {
			const sinew_contact *contact = &w->contacts[c];
			int e = sinew_contact_edge_of(contact, bi);
			c = contact->edges[e].next;
			if ((contact->flags & (SINEW_CONTACT_TOUCHING | SINEW_CONTACT_SENSOR)) != SINEW_CONTACT_TOUCHING) continue;
			int32_t oi = contact->edges[e ^ 1].body;
			sinew_body *o = &w->bodies[oi];
			if (o->type != SINEW_DYNAMIC_BODY) {
				if (kinematic_is_moving(o)) flags |= ISLAND_END_KEEP_AWAKE;
				continue;
			}
			if (o->island_mark == mark || !o->enabled) continue;
			o->island_mark = mark;
			stbds_arrput(w->island_stack, oi);
		}
		for (int32_t ji = b->joint_list; ji != SINEW_NULL_INDEX;) {
			const sinew_joint *j = &w->joints[ji];
			int e = sinew_joint_edge_of(j, bi);
			ji = j->edges[e].next;
			int32_t oi = j->edges[e ^ 1].body;
			if (!j->enabled || j->broken || oi == SINEW_NULL_INDEX) continue;
			sinew_body *o = &w->bodies[oi];
			if (o->type != SINEW_DYNAMIC_BODY) {
				if (kinematic_is_moving(o)) flags |= ISLAND_END_KEEP_AWAKE;
				continue;
			}
			if (o->island_mark == mark || !o->enabled) continue;
			o->island_mark = mark;
			stbds_arrput(w->island_stack, oi);
		}
	}
	return flags;
}

/* The islands by depth-first search from every awake dynamic body, waking what they reach: the
 * way when a sleeping body is joined to an awake one (its whole island has to wake). */
static void wake_connected_by_walk(sinew_world *w)
{
	stbds_arrsetlen(w->island_bodies, 0);
	int32_t mark = w->step_index;
	int islands = 0;
	/* seeds in body index order, from the awake set: the sleeping bodies cost nothing */
	sinew_index_set *set = &w->awake_set;
	int n = (int)stbds_arrlen(set->items);
	for (int k = 0; k < n; ++k) {
		int32_t i = set->items[k];
		sinew_body *b = &w->bodies[i];
		if (b->type != SINEW_DYNAMIC_BODY || b->island_mark == mark) continue;
		int flags = walk_island(w, i, mark, true);
		stbds_arrput(w->island_bodies, -(1 + flags));
		islands += 1;
	}
	/* everything reached is awake for this step */
	int m = (int)stbds_arrlen(w->island_bodies);
	for (int i = 0; i < m; ++i)
		if (w->island_bodies[i] >= 0 && !w->bodies[w->island_bodies[i]].awake)
			sinew_body_set_awake_flag(w, &w->bodies[w->island_bodies[i]], true);
	w->island_count = islands;
}

/* Union-find over the awake dynamic bodies (parent[i] >= 0). The root of a set is its smallest
 * index (a parent is never above its child), so an island's bodies can be listed in one pass. */
static int32_t find_root(int32_t *parent, int32_t i)
{
	while (parent[i] != i) {
		parent[i] = parent[parent[i]]; /* path halving */
		i = parent[i];
	}
	return i;
}

/* Body ia (awake, dynamic) is linked to body ib by a touching contact or a joint. Returns false
 * when ib is a sleeping body: its island has to wake, which the walk does. */
static bool link_bodies(sinew_world *w, int32_t ia, int32_t ib)
{
	int32_t *parent = w->island_parent;
	if (parent[ib] >= 0) {
		int32_t ra = find_root(parent, ia), rb = find_root(parent, ib);
		if (ra < rb) parent[rb] = ra;
		else if (rb < ra) parent[ra] = rb;
		return true;
	}
	const sinew_body *o = &w->bodies[ib];
	if (o->type != SINEW_DYNAMIC_BODY) {
		if (kinematic_is_moving(o)) w->island_keep[ia] = ISLAND_END_KEEP_AWAKE;
		return true;
	}
	return !o->enabled; /* a dynamic body outside the awake set that is enabled sleeps */
}

/* Every touching contact and every joint of the awake dynamic bodies, each linking its bodies.
 * False when one reaches a sleeping body. */
static bool link_contact(sinew_world *w, int32_t ia, int32_t ib)
{
	const int32_t *parent = w->island_parent;
	if (parent[ia] >= 0) return link_bodies(w, ia, ib);
	return parent[ib] < 0 || link_bodies(w, ib, ia);
}

static bool link_islands(sinew_world *w)
{
	const int32_t *parent = w->island_parent;
	if (w->touching_pairs_complete) { /* the narrowphase listed them: no pass over the contact pool */
		int np = (int)stbds_arrlen(w->touching_pairs);
		for (int k = 0; k < np; k += 2)
			if (!link_contact(w, w->touching_pairs[k], w->touching_pairs[k + 1])) return false;
	} else {
		sinew_index_set *contacts = &w->awake_contacts;
		sinew_index_set_flush(contacts);
		int nc = (int)stbds_arrlen(contacts->items);
		for (int k = 0; k < nc; ++k) {
			const sinew_contact *c = &w->contacts[contacts->items[k]];
			if ((c->flags & (SINEW_CONTACT_TOUCHING | SINEW_CONTACT_SENSOR)) != SINEW_CONTACT_TOUCHING) continue;
			if (!link_contact(w, c->edges[0].body, c->edges[1].body)) return false;
		}
	}
	sinew_index_set *set = &w->awake_set;
	int n = (int)stbds_arrlen(set->items);
	for (int k = 0; k < n; ++k) {
		int32_t bi = set->items[k];
		if (parent[bi] < 0) continue;
		for (int32_t ji = w->bodies[bi].joint_list; ji != SINEW_NULL_INDEX;) {
			const sinew_joint *j = &w->joints[ji];
			int e = sinew_joint_edge_of(j, bi);
			ji = j->edges[e].next;
			int32_t oi = j->edges[e ^ 1].body;
			if (!j->enabled || j->broken || oi == SINEW_NULL_INDEX) continue;
			if (!link_bodies(w, bi, oi)) return false;
		}
	}
	return true;
}

/* The islands into island_bodies, each island's bodies in index order, the islands in the order
 * of their smallest index (as the walk seeds them), and every parent back to -1. */
static void list_islands(sinew_world *w)
{
	int32_t *parent = w->island_parent;
	sinew_index_set *set = &w->awake_set;
	int n = (int)stbds_arrlen(set->items);
	/* each body's island: a root gets the code -(2 + island), a body below it its root */
	int islands = 0;
	stbds_arrsetlen(w->island_stack, 0); /* each island's size, then where its next body goes */
	stbds_arrsetlen(w->island_flags, 0);
	for (int k = 0; k < n; ++k) {
		int32_t i = set->items[k];
		int32_t p = parent[i];
		if (p < 0) continue;
		int island;
		if (p == i) {
			island = islands++;
			parent[i] = -(2 + island);
			stbds_arrput(w->island_stack, 0);
			stbds_arrput(w->island_flags, 0);
		} else {
			int32_t q = parent[p]; /* p is below i, so done: a root's code or a root */
			int32_t root = q < 0 ? p : q;
			parent[i] = root;
			island = -2 - parent[root];
		}
		w->island_stack[island] += 1;
		w->island_flags[island] |= w->island_keep[i];
	}
	int total = 0;
	for (int k = 0; k < islands; ++k) {
		int size = w->island_stack[k];
		w->island_stack[k] = total;
		total += size + 1;
		stbds_arrsetlen(w->island_bodies, total);
		w->island_bodies[total - 1] = -(1 + w->island_flags[k]);
	}
	stbds_arrsetlen(w->island_bodies, total);
	for (int k = 0; k < n; ++k) {
		int32_t i = set->items[k];
		int32_t p = parent[i];
		if (p == -1) continue;
		int island = p < 0 ? -2 - p : -2 - parent[p];
		w->island_bodies[w->island_stack[island]++] = i;
	}
	for (int k = 0; k < n; ++k) { /* as between steps */
		int32_t i = set->items[k];
		parent[i] = -1;
		w->island_keep[i] = 0;
	}
	w->island_count = islands;
}
/* Islands are the sets of awake dynamic bodies linked by touching contacts and joints: found by
 * union-find over the awake contacts (a pass over a compact list) rather than a walk of each body's
 * contact list (a pointer chase through the contact pool). Where a link reaches a sleeping body, the
 * walk takes over for the step. */
void sinew_islands_wake_connected(sinew_world *w)
{
	sinew_index_set *set = &w->awake_set;
	sinew_index_set_flush(set);
	size_t pool = (size_t)stbds_arrlen(w->bodies), had = (size_t)stbds_arrlen(w->island_parent);
	if (had < pool) { /* grows with the body pool, once */
		stbds_arrsetlen(w->island_parent, pool);
		stbds_arrsetlen(w->island_keep, pool);
		for (size_t i = had; i < pool; ++i) {
			w->island_parent[i] = -1;
			w->island_keep[i] = 0;
		}
	}
	int n = (int)stbds_arrlen(set->items);
	for (int k = 0; k < n; ++k) {
		int32_t i = set->items[k];
		const sinew_body *b = &w->bodies[i];
		if (b->type != SINEW_DYNAMIC_BODY) continue;
		w->island_parent[i] = i;
		w->island_keep[i] = b->can_sleep ? 0 : ISLAND_END_KEEP_AWAKE;
	}
	if (link_islands(w)) {
		list_islands(w);
		return;
	}
	for (int k = 0; k < n; ++k) {
		int32_t i = set->items[k];
		w->island_parent[i] = -1;
		w->island_keep[i] = 0;
	}
	wake_connected_by_walk(w);
}

static bool body_is_resting(const sinew_world *w, const sinew_body *b)
{
	if (!b->can_sleep || !w->def.enable_sleep) return false;
	float threshold = b->sleep_threshold * w->lengths;
	float t2 = threshold * threshold;
	return sinew_dot(b->v, b->v) <= t2 && b->w * b->w * b->max_extent * b->max_extent <= t2;
}

static void put_to_sleep(sinew_world *w, sinew_body *b)
{
	sinew_body_set_awake_flag(w, b, false);
	b->v = b->v_half = sinew_v2(0.0f, 0.0f);
	b->w = b->w_half = 0.0f;
	b->force = sinew_v2(0.0f, 0.0f);
	b->torque = 0.0f;
}

static void push_move_event(sinew_world *w, int32_t bi)
{
	const sinew_body *b = &w->bodies[bi];
	sinew_body_move_event e;
	e.body = sinew_make_body_id(w, bi);
	e.transform = b->xf;
	e.user_data = b->user_data;
	e.fell_asleep = !b->awake;
	stbds_arrput(w->move_events, e);
}

void sinew_islands_update_sleep(sinew_world *w, float dt)
{
	int m = (int)stbds_arrlen(w->island_bodies);
	int start = 0;
	for (int i = 0; i < m; ++i) {
		int32_t entry = w->island_bodies[i];
		if (entry >= 0) continue;
		int flags = -entry - 1;
		float min_sleep = (flags & ISLAND_END_KEEP_AWAKE) ? 0.0f : SINEW_HUGE;
		for (int k = start; k < i; ++k) {
			sinew_body *b = &w->bodies[w->island_bodies[k]];
			b->sleep_time = body_is_resting(w, b) ? b->sleep_time + dt : 0.0f;
			min_sleep = sinew_minf(min_sleep, b->sleep_time);
		}
		if (min_sleep >= SINEW_TIME_TO_SLEEP)
			for (int k = start; k < i; ++k) put_to_sleep(w, &w->bodies[w->island_bodies[k]]);
		start = i + 1;
	}
	/* kinematic bodies are islands of their own */
	int n = (int)stbds_arrlen(w->awake_bodies);
	for (int i = 1; i < n; ++i) {
		sinew_body *b = &w->bodies[w->awake_bodies[i]];
		if (b->type != SINEW_KINEMATIC_BODY) continue;
		b->sleep_time = body_is_resting(w, b) ? b->sleep_time + dt : 0.0f;
		if (b->sleep_time >= SINEW_TIME_TO_SLEEP) put_to_sleep(w, b);
	}
	for (int i = 1; i < n; ++i) {
		int32_t bi = w->awake_bodies[i];
		push_move_event(w, bi);
		w->bodies[bi].solver_index = 0;
	}
}

void sinew_island_set_asleep(sinew_world *w, sinew_body *seed)
{
	if (seed->type != SINEW_DYNAMIC_BODY) {
		put_to_sleep(w, seed);
		return;
	}
	/* a mark no step uses: steps count up from 1 */
	int32_t mark = -2 - w->step_index;
	int32_t si = (int32_t)(seed - w->bodies);
	/* island_bodies is the step's scratch, unused between steps: it lists the island, so putting
	 * it to sleep costs its size, not the world's (a scene that creates 9,600 bodies asleep) */
	stbds_arrsetlen(w->island_bodies, 0);
	walk_island(w, si, mark, true);
	int n = (int)stbds_arrlen(w->island_bodies);
	for (int i = 0; i < n; ++i) {
		sinew_body *b = &w->bodies[w->island_bodies[i]];
		put_to_sleep(w, b);
		b->island_mark = -1;
	}
	stbds_arrsetlen(w->island_bodies, 0);
}
