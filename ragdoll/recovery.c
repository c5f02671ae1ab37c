/* ragdoll/recovery.c: RAGDOLL -> RECOVERING -> ANIMATED, the stand-up
 * (docs/ragdoll.md, "The recovery"):
 *
 *   1. the pre-ragdoll pose was captured at entry (ragdoll.c): the end target;
 *   2. capture the ragdoll's pose (each body's centre and angle) and its vertical extent;
 *   3. probe the ground under it with a fan of 7 rays that skip the ragdoll's own bodies;
 *   4. re-anchor the root: the pre-ragdoll root's rotation and facing at the landing x, as high as
 *      puts the lowest foot of the pre-ragdoll pose on the ground under it;
 *   5. snap the skeleton to the ragdoll: every bone direction read back into the new rig frame, so
 *      the first recovery frame is the last ragdoll frame;
 *   6. tween for recovery_duration with a sine-in-out ease: the hips and the spine angle linearly
 *      (the spine the short way round), each rotated bone along the whole-turn branch that makes its
 *      segment's world direction sweep least (docs/ragdoll.md), the legs by IK towards feet
 *      clamped to the terrain, the knee kept on the side it fell to;
 *   7. write the pre-ragdoll pose at the landing spot (profile, bend flags, IK and look-at
 *      switches with it) and go ANIMATED.
 *
 * The rig frame does all the mirror work: points go through the root transform and the LEFT
 * x-mirror, directions a through pi - a, so nothing here depends on how a facing is authored. */
#include "internal.h"

#include <math.h>
#include <string.h>

#define RECOVERY_PI 3.14159265358979f
/** A standing (end pose) knee within this of straight may take the fallen knee's side: IK reaches a
 * straight end from either. The fallen knee keeps its own side, however small its bend, since IK on
 * the other side would mirror it at the first frame. */
#define RECOVERY_STRAIGHT 0.02f

/** The probe fan's x offsets, length units (docs/ragdoll.md, "The recovery", step 2). */
static const float probe_offsets[RAGDOLL_PROBE_RAYS] = {0.0f, 25.0f, -25.0f, 50.0f, -50.0f, 100.0f, -100.0f};

static const int leg_limbs[2] = {SINEW_LIMB_LEFT_LEG, SINEW_LIMB_RIGHT_LEG};
static const int foot_markers[2] = {SINEW_MARKER_LEFT_FOOT, SINEW_MARKER_RIGHT_FOOT};

static int limb_lower(int limb) { return SINEW_PART_LEFT_UPPER_ARM + 2 * limb + 1; }

/* The nearest hit of one ray, skipping dynamic bodies unless the def lets it stand on them. */
typedef struct probe_ray {
	bool dynamic;
	sinew_ray_hit best;
} probe_ray;

static float probe_hit(const sinew_ray_hit *hit, void *context)
{
	probe_ray *ray = context;
	if (!ray->dynamic && sinew_body_get_type(hit->body) == SINEW_DYNAMIC_BODY) return -1.0f;
	ray->best = *hit;
	return hit->fraction;
}

float ragdoll_probe_ground(const sinew_ragdoll *rd, float x, float top_y, float bottom_y, const sinew_body_id *exclude,
                           int exclude_count, int rays, bool *found)
{
	const sinew_ragdoll_def *d = &rd->def;
	sinew_query_filter filter = sinew_default_query_filter();
	filter.mask = d->mask;
	filter.exclude_bodies = exclude;
	filter.exclude_body_count = exclude_count;
	float y0 = top_y - d->probe_start_offset;
	float y1 = bottom_y + d->probe_end_offset;
	float best = bottom_y, best_distance = INFINITY;
	for (int i = 0; i < rays && i < RAGDOLL_PROBE_RAYS; ++i) {
		probe_ray ray;
		memset(&ray, 0, sizeof ray);
		ray.dynamic = d->probe_dynamic;
		sinew_world_cast_ray(rd->world, sinew_v2(x + probe_offsets[i], y0), sinew_v2(0.0f, y1 - y0), &filter, probe_hit,
		                     &ray);
		if (!ray.best.hit) continue;
		float y = ray.best.point.y;
		/* Reject overhangs far above and gaps far below the figure. */
		if (y < top_y - d->probe_tolerance || y > bottom_y + d->probe_tolerance) continue;
		if (fabsf(y - bottom_y) < best_distance) {
			best_distance = fabsf(y - bottom_y);
			best = y;
		}
	}
	if (found) *found = best_distance < INFINITY;
	return best;
}

/* The ground right under a foot: the straight-down ray when it finds it (a fan ray could see past
 * an edge the foot stands over), else the whole fan. */
static float probe_under_foot(const sinew_ragdoll *rd, float x, float top, float bottom, const sinew_body_id *exclude,
                              int exclude_count)
{
	bool found = false;
	float y = ragdoll_probe_ground(rd, x, top, bottom, exclude, exclude_count, 1, &found);
	return found ? y : ragdoll_probe_ground(rd, x, top, bottom, exclude, exclude_count, RAGDOLL_PROBE_RAYS, NULL);
}

/* The ragdoll's vertical extent, world y (y down: top < bottom). */
static void ragdoll_extent(const sinew_ragdoll *rd, float *top, float *bottom)
{
	*top = INFINITY;
	*bottom = -INFINITY;
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		sinew_aabb box = sinew_body_compute_aabb(rd->bodies[p]);
		*top = sinew_minf(*top, box.lower.y);
		*bottom = sinew_maxf(*bottom, box.upper.y);
	}
}

/* Step 4: the root that stands the pre-ragdoll pose at landing_x with its lowest foot on the
 * ground (each foot probed where it will stand; the other foot may be above a slope). */
static sinew_transform reanchor(const sinew_ragdoll *rd, const sinew_rig_pose *pre, float landing_x, float top,
                                float bottom)
{
	sinew_rig_part_state pp[SINEW_PART_COUNT];
	sinew_rig_solve_pose(rd->rig, pre, pp);
	sinew_transform root = pre->root;
	float y = INFINITY;
	for (int i = 0; i < 2; ++i) {
		sinew_vec2 offset = sinew_sub(pp[limb_lower(leg_limbs[i])].tip, pre->root.p);
		float ground = probe_under_foot(rd, landing_x + offset.x, top, bottom, rd->bodies, SINEW_PART_COUNT);
		y = sinew_minf(y, ground - offset.y);
	}
	root.p = sinew_v2(landing_x, y);
	return root;
}

/* Step 5: the pose in the end pose's rig frame that shows the ragdoll's parts. Bones are read
 * back as directions (the anchors agree to the joints' separation). */
static sinew_rig_pose snap_pose(const sinew_ragdoll *rd, const sinew_rig_pose *end, const sinew_rig_part_state *parts)
{
	const sinew_rig_skeleton *sk = sinew_rig_get_skeleton(rd->rig);
	sinew_rig_pose s = *end;
	float dir[SINEW_PART_COUNT];
	for (int p = 0; p < SINEW_PART_COUNT; ++p) dir[p] = ragdoll_angle_to_local(end, parts[p].angle);
	s.torso = ragdoll_pose_to_local(end, parts[SINEW_PART_TORSO].origin);
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		int parent = sk->bones[p].parent;
		s.bones[p] = parent < 0 ? dir[p] : ragdoll_wrap(dir[p] - dir[parent]);
	}
	for (int l = 0; l < SINEW_LIMB_COUNT; ++l) s.limb_ik[l] = false;
	s.head_look = false;
	return s;
}

/* Step 6's branch choice (docs/ragdoll.md): each bone's turn d is the pre - start value moved by
 * whole turns so that the segment's world sweep (its parents' sweep plus d) lies in (-pi, pi]. */
static void plan_rotations(sinew_ragdoll *rd)
{
	ragdoll_recovery *r = &rd->recovery;
	const sinew_rig_skeleton *sk = sinew_rig_get_skeleton(rd->rig);
	float sweep[SINEW_PART_COUNT];
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		int parent = sk->bones[p].parent;
		float from = r->start.bones[p];
		float raw = r->end.bones[p] - from;
		float base = parent < 0 ? 0.0f : sweep[parent];
		float d = ragdoll_wrap(base + raw) - base;
		sweep[p] = base + d;
		r->bones[p].from = from;
		r->bones[p].to = from + d;
	}
	r->torso = r->bones[SINEW_PART_TORSO];
}

/* The rig's proxies, which are back on while recovering: the foot clamp must not stand on them. */
static int rig_proxies(const sinew_ragdoll *rd, sinew_body_id *out)
{
	int n = 0;
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		sinew_body_id b = sinew_rig_get_proxy(rd->rig, p);
		if (!SINEW_IS_NULL(b)) out[n++] = b;
	}
	return n;
}

/* How far a world point is below the terrain right under it (0 above it or over nothing). */
static float depth_in_terrain(const sinew_ragdoll *rd, sinew_vec2 w, const sinew_body_id *exclude, int n)
{
	bool found = false;
	float ground = ragdoll_probe_ground(rd, w.x, w.y, w.y, exclude, n, 1, &found);
	return found ? sinew_maxf(w.y - ground, 0.0f) : 0.0f;
}

/* Keep a foot marker (rig frame) from sinking into the terrain under it deeper than allowance. */
static sinew_vec2 clamp_foot(const sinew_ragdoll *rd, const sinew_rig_pose *pose, sinew_vec2 marker, float allowance)
{
	sinew_body_id proxies[SINEW_PART_COUNT];
	int n = rig_proxies(rd, proxies);
	sinew_vec2 w = ragdoll_pose_to_world(pose, marker);
	float depth = depth_in_terrain(rd, w, proxies, n);
	if (depth <= allowance) return marker;
	w.y -= depth - allowance;
	return ragdoll_pose_to_local(pose, w);
}

/* Step 6's legs: IK from the fallen foot to the standing one when the knee fell to the side it
 * stands on (or either is straight); otherwise the knee must change sides, which IK cannot do
 * without a jump, so the leg turns by rotations like the arms. */
static void plan_legs(sinew_ragdoll *rd)
{
	ragdoll_recovery *r = &rd->recovery;
	sinew_rig_part_state sp[SINEW_PART_COUNT], ep[SINEW_PART_COUNT];
	sinew_rig_solve_pose(rd->rig, &r->start, sp);
	sinew_rig_solve_pose(rd->rig, &r->end, ep);
	for (int i = 0; i < 2; ++i) {
		int lower = limb_lower(leg_limbs[i]);
		float a = ragdoll_wrap(r->start.bones[lower]);
		float b = ragdoll_wrap(r->end.bones[lower]);
		bool fell_flip = a < 0.0f, stand_flip = b < 0.0f;
		if (fabsf(b) < RECOVERY_STRAIGHT) stand_flip = fell_flip;
		r->leg_ik[i] = fell_flip == stand_flip;
		r->leg_flip[i] = fell_flip;
		r->foot_from[i] = ragdoll_pose_to_local(&r->start, sp[lower].tip);
		r->foot_sink[i] = depth_in_terrain(rd, sp[lower].tip, rd->bodies, SINEW_PART_COUNT);
		r->foot_to[i] = ragdoll_pose_to_local(&r->end, ep[lower].tip);
	}
}

static float lerpf(float a, float b, float s) { return a + s * (b - a); }

/* The stand-up's pose at eased progress s (0: the snap, 1: the end pose). */
static sinew_rig_pose frame_pose(const sinew_ragdoll *rd, float s)
{
	const ragdoll_recovery *r = &rd->recovery;
	sinew_rig_pose pose = r->end;
	pose.torso = sinew_lerp(r->start.torso, r->end.torso, s);
	for (int p = 0; p < SINEW_PART_COUNT; ++p) pose.bones[p] = lerpf(r->bones[p].from, r->bones[p].to, s);
	for (int l = 0; l < SINEW_LIMB_COUNT; ++l) pose.limb_ik[l] = false;
	pose.head_look = false;
	for (int i = 0; i < 2; ++i) {
		if (!r->leg_ik[i]) continue;
		int limb = leg_limbs[i];
		pose.limb_ik[limb] = true;
		pose.bend_flip[limb] = r->leg_flip[i];
		/* A fallen foot rests a contact slop deep: allowed at first, so the first frame is the last
		 * ragdoll frame, and eased out with the stand-up. */
		sinew_vec2 foot = sinew_lerp(r->foot_from[i], r->foot_to[i], s);
		pose.markers[foot_markers[i]] = clamp_foot(rd, &pose, foot, r->foot_sink[i] * (1.0f - s));
	}
	return pose;
}

bool ragdoll_begin_recovery(sinew_ragdoll *rd, bool enter)
{
	ragdoll_recovery *r = &rd->recovery;
	sinew_rig_part_state parts[SINEW_PART_COUNT];
	sinew_rig_pose pre;
	if (rd->has_pre) pre = rd->pre;
	else if (!sinew_rig_get_pose(rd->rig, &pre)) return false;

	ragdoll_body_parts(rd, parts);
	float top, bottom;
	ragdoll_extent(rd, &top, &bottom);
	float landing_x = parts[SINEW_PART_TORSO].origin.x;
	r->ground_y = ragdoll_probe_ground(rd, landing_x, top, bottom, rd->bodies, SINEW_PART_COUNT, RAGDOLL_PROBE_RAYS, NULL);

	r->end = pre;
	r->end.root = reanchor(rd, &pre, landing_x, top, bottom);
	r->start = snap_pose(rd, &r->end, parts);
	plan_rotations(rd);
	plan_legs(rd);
	r->elapsed = 0.0f;

	/* The pose first: switching state places the proxies on the parts and restarts momentum
	 * tracking from the root as it is then. */
	ragdoll_destroy_bodies(rd);
	if (!enter) return true;
	sinew_rig_pose first = frame_pose(rd, 0.0f);
	ragdoll_write_pose(rd, &first);
	rd->state = SINEW_RIG_RECOVERING;
	sinew_rig_set_state(rd->rig, SINEW_RIG_RECOVERING);
	return true;
}

bool ragdoll_recovery_step(sinew_ragdoll *rd, float dt)
{
	ragdoll_recovery *r = &rd->recovery;
	float duration = rd->def.recovery_duration;
	if (r->elapsed >= duration) return true;
	float u = r->elapsed / duration;
	float s = 0.5f - 0.5f * cosf(RECOVERY_PI * u);
	sinew_rig_pose pose = frame_pose(rd, s);
	sinew_rig_set_pose(rd->rig, &pose);
	rd->unsolved = false;
	sinew_rig_update(rd->rig, dt);
	r->elapsed += dt;
	return false;
}

void ragdoll_finish_recovery(sinew_ragdoll *rd, bool jump)
{
	sinew_rig_state from = rd->state;
	ragdoll_write_pose(rd, &rd->recovery.end);
	rd->state = SINEW_RIG_ANIMATED;
	sinew_rig_set_state(rd->rig, SINEW_RIG_ANIMATED); /* from RAGDOLL this places the proxies */
	if (jump && from == SINEW_RIG_RECOVERING && sinew_rig_get_proxies_enabled(rd->rig)) {
		sinew_rig_set_proxies_enabled(rd->rig, false);
		sinew_rig_set_proxies_enabled(rd->rig, true);
	}
}
