/* rig/proxy.c: the rig's collision proxies (docs/rig.md) — ten kinematic bodies, one per part,
 * carried onto their parts with sinew_body_move_to so they have the rig's velocity and push props
 * — and the contact episodes built from their contacts.
 *
 * The proxies follow the animated pose without the hit reactions' offsets: a flinch is shown, not
 * simulated (docs/rig.md: a pose offset, not a physics force, does not push the prop); a 0.6 rad
 * flick in one frame would otherwise swat the prop that caused it at thousands of px/s.
 *
 * A proxy body's origin is its bone's origin and its rotation the bone's direction: a capsule from
 * (0, 0) to (length, 0) for the torso and the limbs, a circle at (head_center, 0) for the head.
 *
 * Episodes: after each world step the bodies touching any proxy form a set. A body that joins
 * the set gives one collided callback (with the first of its contacts in part order) and a
 * reaction for every part it touches; a body that leaves it gives separated. The set is kept by
 * body id, so a body bouncing from the head onto the shoulder stays one episode. */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Live rigs, so sinew_rig_from_body recognises a proxy by comparing its user data pointer with
 * the rigs' own info records, never by reading memory a user's pointer points at. */
static sinew_rig **s_rigs;
static int s_rig_count, s_rig_capacity;

static bool register_rig(sinew_rig *rig)
{
	if (s_rig_count == s_rig_capacity) {
		int capacity = s_rig_capacity > 0 ? 2 * s_rig_capacity : 16;
		sinew_rig **grown = realloc(s_rigs, (size_t)capacity * sizeof *grown);
		if (grown == NULL) return false;
		s_rigs = grown;
		s_rig_capacity = capacity;
	}
	s_rigs[s_rig_count++] = rig;
	return true;
}

static void unregister_rig(sinew_rig *rig)
{
	for (int i = 0; i < s_rig_count; ++i) {
		if (s_rigs[i] != rig) continue;
		memmove(&s_rigs[i], &s_rigs[i + 1], (size_t)(s_rig_count - i - 1) * sizeof *s_rigs);
		s_rig_count -= 1;
		break;
	}
	if (s_rig_count == 0) {
		free(s_rigs);
		s_rigs = NULL;
		s_rig_capacity = 0;
	}
}

static sinew_transform part_transform(const sinew_rig_part_state *s) { return sinew_make_transform(s->origin, s->angle); }

static bool make_proxy(sinew_rig *rig, int part)
{
	const sinew_rig_bone_def *b = &rig->skeleton.bones[part];
	sinew_rig_proxy_info *info = &rig->info[part];
	info->magic = SINEW_RIG_PROXY_MAGIC;
	info->rig = rig;
	info->part = (sinew_rig_part)part;
	info->part_name = sinew_rig_part_name((sinew_rig_part)part);
	sinew_body_def bd = sinew_default_body_def();
	bd.type = SINEW_KINEMATIC_BODY;
	bd.position = rig->proxy_parts[part].origin;
	bd.angle = rig->proxy_parts[part].angle;
	bd.user_data = info;
	sinew_body_id body = sinew_create_body(rig->world, &bd);
	if (SINEW_IS_NULL(body)) return false;
	rig->proxies[part] = body;
	sinew_shape_def sd = sinew_default_shape_def();
	sd.layer = rig->proxy_layer;
	sd.mask = rig->proxy_mask;
	sd.user_data = info;
	sinew_shape_id shape;
	if (part == SINEW_PART_HEAD) {
		sinew_circle c = {{rig->skeleton.head_center, 0.0f}, b->proxy_radius};
		shape = sinew_create_circle_shape(body, &sd, &c);
	} else {
		sinew_capsule c = {{0.0f, 0.0f}, {b->length, 0.0f}, b->proxy_radius};
		shape = sinew_create_capsule_shape(body, &sd, &c);
	}
	return !SINEW_IS_NULL(shape);
}

void rig_solve_all(sinew_rig *rig, const float offsets[SINEW_PART_COUNT])
{
	rig_solve(&rig->skeleton, &rig->pose, offsets, rig->parts);
	bool any = false;
	for (int i = 0; offsets != NULL && i < SINEW_PART_COUNT; ++i) any = any || offsets[i] != 0.0f;
	if (any) rig_forward(&rig->skeleton, &rig->pose, NULL, rig->proxy_parts);
	else memcpy(rig->proxy_parts, rig->parts, sizeof rig->parts);
}

bool rig_proxies_create(sinew_rig *rig)
{
	if (!register_rig(rig)) return false;
	rig->has_proxies = true;
	rig->proxies_enabled = true;
	for (int i = 0; i < SINEW_PART_COUNT; ++i) {
		if (!make_proxy(rig, i)) return false;
	}
	return true;
}

void rig_proxies_destroy(sinew_rig *rig)
{
	if (!rig->has_proxies) return;
	for (int i = 0; i < SINEW_PART_COUNT; ++i) {
		if (sinew_body_is_valid(rig->proxies[i])) sinew_destroy_body(rig->proxies[i]);
		rig->proxies[i] = sinew_null_body_id;
	}
	rig->has_proxies = false;
	free(rig->hits);
	rig->hits = NULL;
	rig->hit_capacity = 0;
	unregister_rig(rig);
}

void rig_proxies_place(sinew_rig *rig)
{
	if (!rig->has_proxies) return;
	for (int i = 0; i < SINEW_PART_COUNT; ++i) {
		if (!sinew_body_is_valid(rig->proxies[i])) continue;
		sinew_body_set_transform(rig->proxies[i], rig->proxy_parts[i].origin, rig->proxy_parts[i].angle);
		sinew_body_set_linear_velocity(rig->proxies[i], sinew_v2(0.0f, 0.0f));
		sinew_body_set_angular_velocity(rig->proxies[i], 0.0f);
	}
}

void rig_proxies_move(sinew_rig *rig, float dt)
{
	if (!rig->has_proxies || !rig->proxies_enabled) return;
	for (int i = 0; i < SINEW_PART_COUNT; ++i) {
		if (sinew_body_is_valid(rig->proxies[i])) sinew_body_move_to(rig->proxies[i], part_transform(&rig->proxy_parts[i]), dt);
	}
}

sinew_body_id sinew_rig_get_proxy(const sinew_rig *rig, sinew_rig_part part)
{
	if (rig == NULL || !rig->has_proxies || part < 0 || part >= SINEW_PART_COUNT) return sinew_null_body_id;
	return rig->proxies[part];
}

bool sinew_rig_from_body(sinew_body_id body, sinew_rig **rig, sinew_rig_part *part)
{
	if (!sinew_body_is_valid(body)) return false;
	const void *data = sinew_body_get_user_data(body);
	for (int r = 0; r < s_rig_count; ++r) {
		const sinew_rig *candidate = s_rigs[r];
		for (int i = 0; i < SINEW_PART_COUNT; ++i) {
			if (data != &candidate->info[i] || !SINEW_ID_EQUALS(candidate->proxies[i], body)) continue;
			if (rig != NULL) *rig = s_rigs[r];
			if (part != NULL) *part = (sinew_rig_part)i;
			return true;
		}
	}
	return false;
}

bool sinew_rig_set_proxies_enabled(sinew_rig *rig, bool enabled)
{
	if (rig == NULL) return false;
	if (!rig->has_proxies || enabled == rig->proxies_enabled) {
		rig->proxies_enabled = enabled;
		return true;
	}
	rig->proxies_enabled = enabled;
	if (enabled) rig_proxies_place(rig);
	for (int i = 0; i < SINEW_PART_COUNT; ++i) {
		if (!sinew_body_is_valid(rig->proxies[i])) continue;
		if (enabled) sinew_body_enable(rig->proxies[i]);
		else sinew_body_disable(rig->proxies[i]);
	}
	return true;
}

bool sinew_rig_get_proxies_enabled(const sinew_rig *rig) { return rig != NULL && rig->has_proxies && rig->proxies_enabled; }

/* ---------------------------------------------------------------- contact episodes */

/* One contact of a proxy with another body. */
typedef struct rig_hit {
	sinew_body_id other;
	sinew_shape_id shape, other_shape;
	int part;
	sinew_vec2 normal, point;
} hit;

/* Room for n more touching bodies. */
static bool reserve_touching(sinew_rig *rig, int n)
{
	if (rig->touching_count + n <= rig->touching_capacity) return true;
	int capacity = rig->touching_capacity > 0 ? rig->touching_capacity : 8;
	while (capacity < rig->touching_count + n) capacity *= 2;
	rig_touch *grown = realloc(rig->touching, (size_t)capacity * sizeof *grown);
	if (grown == NULL) return false;
	rig->touching = grown;
	rig->touching_capacity = capacity;
	return true;
}

static bool in_list(const rig_touch *list, int count, sinew_body_id body)
{
	for (int i = 0; i < count; ++i) {
		if (SINEW_ID_EQUALS(list[i].body, body)) return true;
	}
	return false;
}

/* The speed the other body met the rig with: the approach speed of this pair's begin event in the
 * last step when there is one (it was measured before the solver bounced the body), else the
 * other body's speed now. */
static float meeting_speed(const sinew_rig *rig, const hit *h)
{
	sinew_contact_events events = sinew_world_get_contact_events(rig->world);
	for (int i = 0; i < events.begin_count; ++i) {
		const sinew_contact_begin_event *e = &events.begin_events[i];
		bool match = (SINEW_ID_EQUALS(e->shape_a, h->shape) && SINEW_ID_EQUALS(e->shape_b, h->other_shape)) ||
		             (SINEW_ID_EQUALS(e->shape_b, h->shape) && SINEW_ID_EQUALS(e->shape_a, h->other_shape));
		if (match) return sinew_maxf(e->approach_speed, 0.0f);
	}
	return sinew_length(sinew_body_get_linear_velocity(h->other));
}

/* Every contact of the enabled proxies, in part order; returns how many (hits grows as needed). */
static int gather_hits(sinew_rig *rig, hit **hits, int *capacity)
{
	int count = 0;
	if (!rig->has_proxies || !rig->proxies_enabled) return 0;
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		if (!sinew_body_is_valid(rig->proxies[p])) continue;
		int n = sinew_body_get_contact_count(rig->proxies[p]);
		if (n <= 0) continue;
		sinew_body_contact local[16];
		sinew_body_contact *contacts = n <= 16 ? local : malloc((size_t)n * sizeof *contacts);
		if (contacts == NULL) continue;
		n = sinew_body_get_contacts(rig->proxies[p], contacts, n);
		if (count + n > *capacity) {
			int grown_capacity = 2 * (count + n);
			hit *grown = realloc(*hits, (size_t)grown_capacity * sizeof *grown);
			if (grown == NULL) n = 0;
			else {
				*hits = grown;
				*capacity = grown_capacity;
			}
		}
		for (int i = 0; i < n; ++i) {
			hit h = {contacts[i].other_body, contacts[i].shape, contacts[i].other_shape, p, contacts[i].normal, contacts[i].point};
			(*hits)[count++] = h;
		}
		if (contacts != local) free(contacts);
	}
	return count;
}

/* Collided callbacks and reactions for the bodies new in hits. Returns false when memory ran out. */
static bool begin_episodes(sinew_rig *rig, const hit *hits, int count, int previous)
{
	for (int i = 0; i < count; ++i) {
		const hit *h = &hits[i];
		bool known = in_list(rig->touching, previous, h->other);
		/* (no list yet: touching is NULL, and NULL + 0 is undefined behaviour in C) */
		bool seen = rig->touching != NULL && in_list(rig->touching + previous, rig->touching_count - previous, h->other);
		if (known) continue;
		float speed = meeting_speed(rig, h);
		bool first_of_part = true; /* one reaction per part the body touches */
		for (int j = 0; j < i; ++j) {
			if (SINEW_ID_EQUALS(hits[j].other, h->other) && hits[j].part == h->part) first_of_part = false;
		}
		if (first_of_part && rig->reactions_enabled) {
			sinew_rig_apply_reaction(rig, (sinew_rig_part)h->part, h->normal, speed);
		}
		if (seen) continue;
		if (!reserve_touching(rig, 1)) return false;
		rig->touching[rig->touching_count++].body = h->other;
		if (rig->callbacks.collided != NULL) {
			rig->callbacks.collided(rig, (sinew_rig_part)h->part, h->other, h->normal, h->point, speed, rig->callbacks.context);
		}
	}
	return true;
}

void rig_proxies_collect(sinew_rig *rig)
{
	int count = gather_hits(rig, &rig->hits, &rig->hit_capacity);
	const hit *hits = rig->hits;
	/* touching = [previous episodes | bodies new this frame]; then the ended ones are dropped */
	int previous = rig->touching_count;
	begin_episodes(rig, hits, count, previous);
	int kept = 0;
	for (int i = 0; i < rig->touching_count; ++i) {
		sinew_body_id body = rig->touching[i].body;
		bool still = i >= previous;
		for (int j = 0; j < count && !still; ++j) still = SINEW_ID_EQUALS(hits[j].other, body);
		if (still) {
			rig->touching[kept++] = rig->touching[i];
		} else if (rig->callbacks.separated != NULL) {
			rig->callbacks.separated(rig, body, rig->callbacks.context);
		}
	}
	rig->touching_count = kept;
}
