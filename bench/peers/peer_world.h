/* peer_world.h: a scene of peer_scene.h made in an engine, and its script run. The engine side is
 * a few callbacks (peer_engine) that make one body or joint from its description; this file keeps
 * what is alive, copies templates for spawn ops and destroys groups for destroy_group ops, the way
 * scene/scene.c does for sinew:
 *
 *   - an instance is the template's bodies moved by the spawn point, then its joints (anchors
 *     moved too); a template that does not self-collide gives each instance a collision group of
 *     its own, numbered after the largest group in the file, which replaces the shapes' groups;
 *   - a spawn op with a group puts the bodies it made into that group; destroy_group destroys the
 *     group's bodies that are still alive (the engine destroys their joints with them) and empties it;
 *   - ops run in step order, file order within a step, before the step they name
 *     (peer_world_apply_ops). The peers call it outside their timed region.
 *
 * Bodies are kept in creation order (the scene's first, then every spawned one; NULL once
 * destroyed), joints as a list of the live ones. Header-only, C and C++. */
#ifndef PEER_WORLD_H
#define PEER_WORLD_H

#include "peer_scene.h"

typedef struct peer_engine {
	void *ctx;
	/* A body as described, moved by offset; group, when non-zero, replaces its shapes' groups. */
	void *(*make_body)(void *ctx, const peer_body *b, const double offset[2], unsigned long group);
	/* A joint of b to a (NULL: the world) as described, its anchor moved by offset. May return
	 * NULL for a joint the engine leaves out; it still counts as a joint. */
	void *(*make_joint)(void *ctx, const peer_joint *j, void *a, void *b, const double offset[2]);
	/* Puts a body described with awake false to sleep once its instance is made (NULL: the
	 * engine took "awake" from the description already). */
	void (*start_asleep)(void *ctx, void *body);
	/* Destroys a body with its shapes and its joints. */
	void (*destroy_body)(void *ctx, void *body);
} peer_engine;

typedef struct peer_live_joint {
	void *handle; /* what make_joint returned */
	const peer_joint *desc;
	int a, b; /* indices in peer_world.bodies; a = -1: the world */
} peer_live_joint;

typedef struct peer_index_list {
	int *items;
	int count, capacity;
} peer_index_list;

typedef struct peer_world {
	const peer_scene *scene;
	peer_engine engine;
	void **bodies; /* every body made, in creation order; NULL once destroyed */
	int body_count, body_capacity, live_bodies;
	peer_live_joint *joints; /* the live joints */
	int joint_count, joint_capacity;
	peer_index_list *groups; /* per scene group name: indices of the bodies spawned into it */
	unsigned long next_group;
	int next_op;
} peer_world;

/* Room for count items of size bytes in *items (capacity in items); exits when memory runs out:
 * a peer that cannot hold the scene has no result to give. */
static inline void peer_reserve(void **items, int *capacity, int count, size_t size)
{
	if (count <= *capacity) return;
	int grown = *capacity > 0 ? *capacity : 64;
	while (grown < count) grown *= 2;
	void *p = realloc(*items, (size_t)grown * size);
	if (p == NULL) {
		fprintf(stderr, "peer: out of memory\n");
		exit(1);
	}
	*items = p;
	*capacity = grown;
}

/* Makes one copy of bodies and joints (the scene's own, or a template's) moved by offset; the new
 * bodies' indices go to into when it is not NULL. */
static inline void peer_world_make(peer_world *w, const peer_body *bodies, int body_count, const peer_joint *joints,
                                   int joint_count, const double offset[2], unsigned long group, peer_index_list *into)
{
	int first = w->body_count;
	peer_reserve((void **)&w->bodies, &w->body_capacity, first + body_count, sizeof *w->bodies);
	for (int i = 0; i < body_count; ++i) {
		w->bodies[first + i] = w->engine.make_body(w->engine.ctx, &bodies[i], offset, group);
	}
	w->body_count += body_count;
	w->live_bodies += body_count;
	peer_reserve((void **)&w->joints, &w->joint_capacity, w->joint_count + joint_count, sizeof *w->joints);
	for (int i = 0; i < joint_count; ++i) {
		const peer_joint *j = &joints[i];
		peer_live_joint *live = &w->joints[w->joint_count++];
		live->desc = j;
		live->a = j->a >= 0 ? first + j->a : -1;
		live->b = first + j->b;
		live->handle = w->engine.make_joint(w->engine.ctx, j, j->a >= 0 ? w->bodies[live->a] : NULL,
		                                    w->bodies[live->b], offset);
	}
	for (int i = 0; w->engine.start_asleep != NULL && w->scene->sleep && i < body_count; ++i) {
		const peer_body *b = &bodies[i];
		if (b->type == PEER_DYNAMIC && !b->awake && b->can_sleep) w->engine.start_asleep(w->engine.ctx, w->bodies[first + i]);
	}
	if (into != NULL) {
		peer_reserve((void **)&into->items, &into->capacity, into->count + body_count, sizeof *into->items);
		for (int i = 0; i < body_count; ++i) into->items[into->count++] = first + i;
	}
}

/* The scene's own bodies and joints, made through engine. */
static inline void peer_world_init(peer_world *w, const peer_scene *s, peer_engine engine)
{
	static const double origin[2] = {0.0, 0.0};
	memset(w, 0, sizeof *w);
	w->scene = s;
	w->engine = engine;
	w->groups = (peer_index_list *)calloc((size_t)s->group_count + 1, sizeof *w->groups);
	w->next_group = s->max_group + 1;
	peer_world_make(w, s->bodies, s->body_count, s->joints, s->joint_count, origin, 0, NULL);
}

static inline void peer_world_spawn(peer_world *w, const peer_op *op)
{
	const peer_template *t = &w->scene->templates[op->template_index];
	peer_index_list *into = op->group >= 0 ? &w->groups[op->group] : NULL;
	for (int k = 0; k < op->point_count; ++k) {
		unsigned long group = t->self_collide ? 0ul : w->next_group++;
		peer_world_make(w, t->bodies, t->body_count, t->joints, t->joint_count, op->points + 2 * k, group, into);
	}
}

static inline void peer_world_destroy_group(peer_world *w, peer_index_list *group)
{
	for (int i = 0; i < group->count; ++i) {
		int b = group->items[i];
		if (w->bodies[b] == NULL) continue;
		w->engine.destroy_body(w->engine.ctx, w->bodies[b]);
		w->bodies[b] = NULL;
		w->live_bodies -= 1;
	}
	group->count = 0;
	/* The engine destroyed their joints with them: drop those from the live list. */
	int kept = 0;
	for (int i = 0; i < w->joint_count; ++i) {
		const peer_live_joint *j = &w->joints[i];
		if ((j->a >= 0 && w->bodies[j->a] == NULL) || w->bodies[j->b] == NULL) continue;
		w->joints[kept++] = *j;
	}
	w->joint_count = kept;
}

/* Applies the ops due before step (every op whose step is <= step and not yet applied). */
static inline void peer_world_apply_ops(peer_world *w, int step)
{
	const peer_scene *s = w->scene;
	while (w->next_op < s->op_count && s->ops[w->next_op].step <= step) {
		const peer_op *op = &s->ops[w->next_op++];
		if (op->kind == PEER_OP_SPAWN) {
			peer_world_spawn(w, op);
		} else {
			peer_world_destroy_group(w, &w->groups[op->group]);
		}
	}
}

/* Frees the bookkeeping (not the engine's objects). */
static inline void peer_world_free(peer_world *w)
{
	for (int i = 0; i < w->scene->group_count; ++i) free(w->groups[i].items);
	free(w->groups);
	free(w->bodies);
	free(w->joints);
	memset(w, 0, sizeof *w);
}

#endif
