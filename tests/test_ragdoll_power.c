/* The powered ragdoll (ragdoll.h, docs/ragdoll.md "Powered ragdoll") through the public API, in the
 * game's pixel world (100 px per metre, y down, gravity 980): a fully powered figure held by its
 * root pull stands on its animated pose; without the pull it falls but its joints stay nearer their
 * targets than a limp figure's over the same fall; fading the influence takes a braced figure limp
 * without a jump; joint limits and anchors hold while the drives push against them; the presets,
 * the setters' refusals and the rig's IK solve the targets come from. */
#include "support.h"

#include "sinew/ragdoll.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define DT (1.0f / 60.0f)
#define PI_F 3.14159265358979f
#define DEG (PI_F / 180.0f)
/** The rest stickman at (0, -385) stands with its feet (bone tips) at y = 15. */
#define FEET_Y 15.0f

typedef struct fixture {
	sinew_world_id world;
	sinew_rig *rig;
	sinew_ragdoll *rd;
	error_recorder rec;
} fixture;

static float wrapf_(float a)
{
	while (a > PI_F) a -= 2.0f * PI_F;
	while (a <= -PI_F) a += 2.0f * PI_F;
	return a;
}

static void frame(fixture *f)
{
	assert_true(sinew_ragdoll_update(f->rd, DT));
	assert_true(sinew_world_step(f->world, DT, 4));
}

/* Flat ground under the rest stickman at (0, -385); the ragdoll made from dd (NULL: the defaults). */
static void setup(fixture *f, const sinew_ragdoll_def *dd)
{
	memset(f, 0, sizeof *f);
	recorder_install(&f->rec);
	sinew_world_def wd = sinew_default_world_def();
	wd.gravity = sinew_v2(0.0f, 980.0f);
	wd.length_units_per_meter = 100.0f;
	wd.error_fn = recorder_callback;
	wd.error_context = &f->rec;
	f->world = sinew_create_world(&wd);
	sinew_body_def bd = sinew_default_body_def();
	bd.position = sinew_v2(0.0f, FEET_Y + 50.0f);
	sinew_body_id ground = sinew_create_body(f->world, &bd);
	sinew_shape_def sd = sinew_default_shape_def();
	sd.friction = 0.8f;
	sinew_polygon box = sinew_make_box(4000.0f, 50.0f);
	sinew_create_polygon_shape(ground, &sd, &box);
	sinew_rig_def rd = sinew_default_rig_def();
	rd.position = sinew_v2(0.0f, -385.0f);
	rd.name = "stickman";
	f->rig = sinew_create_rig(f->world, &rd);
	assert_non_null(f->rig);
	f->rd = sinew_create_ragdoll(f->rig, dd);
	assert_non_null(f->rd);
	frame(f);
}

static void teardown(fixture *f)
{
	sinew_destroy_ragdoll(f->rd);
	sinew_destroy_rig(f->rig);
	sinew_destroy_world(f->world);
	assert_int_equal(f->rec.count, 0);
}

/* A standing pose with the feet apart and the arms lowered forward (rig frame). */
static void stance(fixture *f)
{
	sinew_rig_set_marker(f->rig, SINEW_MARKER_LEFT_FOOT, sinew_v2(70.0f, 388.0f));
	sinew_rig_set_marker(f->rig, SINEW_MARKER_RIGHT_FOOT, sinew_v2(-70.0f, 388.0f));
	sinew_rig_set_marker(f->rig, SINEW_MARKER_LEFT_HAND, sinew_v2(120.0f, -40.0f));
	sinew_rig_set_marker(f->rig, SINEW_MARKER_RIGHT_HAND, sinew_v2(-60.0f, 60.0f));
	frame(f);
}

/* A figure in its stance with this preset and root pull, gone ragdoll. */
static void start(fixture *f, sinew_ragdoll_power_preset preset, bool root_pull)
{
	sinew_ragdoll_def dd = sinew_default_ragdoll_def();
	dd.power = preset;
	dd.root_pull.enabled = root_pull;
	setup(f, &dd);
	stance(f);
	assert_true(sinew_ragdoll_set_enabled(f->rd, true));
}

/* The animated figure the drives chase: the rig's pose solved by IK as its update would. */
static void animated_parts(const fixture *f, sinew_rig_part_state parts[SINEW_PART_COUNT])
{
	sinew_rig_pose pose;
	assert_true(sinew_rig_get_pose(f->rig, &pose));
	assert_true(sinew_rig_solve_pose_ik(f->rig, &pose, parts));
}

/* Mean |joint angle - target| over the nine joints now, radians. */
static float mean_joint_error(const fixture *f)
{
	float sum = 0.0f;
	int n = 0;
	for (int p = SINEW_PART_HEAD; p < SINEW_PART_COUNT; ++p) {
		float target = 0.0f;
		assert_true(sinew_ragdoll_get_joint_target(f->rd, (sinew_rig_part)p, &target));
		sum += fabsf(wrapf_(sinew_joint_get_angle(sinew_ragdoll_get_joint(f->rd, (sinew_rig_part)p)) - target));
		++n;
	}
	return sum / (float)n;
}

/* ---------------------------------------------------------------- standing */

/* Stand a stiff figure held by its root pull for 10 s; the worst part's distance and angle from the
 * animated pose. */
static void stand(sinew_rig_facing facing, float *worst_px_out, float *worst_deg_out)
{
	sinew_ragdoll_def dd = sinew_default_ragdoll_def();
	dd.power = SINEW_POWER_STIFF;
	dd.root_pull.enabled = true;
	fixture f;
	setup(&f, &dd);
	assert_true(sinew_rig_set_facing(f.rig, facing));
	stance(&f);
	assert_true(sinew_ragdoll_set_enabled(f.rd, true));
	float worst_px = 0.0f, worst_deg = 0.0f;
	for (int i = 0; i < 600; ++i) {
		frame(&f);
		sinew_rig_part_state want[SINEW_PART_COUNT], got[SINEW_PART_COUNT];
		animated_parts(&f, want);
		sinew_ragdoll_get_parts(f.rd, got);
		for (int p = 0; p < SINEW_PART_COUNT; ++p) {
			worst_px = fmaxf(worst_px, sinew_distance(want[p].center, got[p].center));
			worst_deg = fmaxf(worst_deg, fabsf(wrapf_(want[p].angle - got[p].angle)) / DEG);
		}
	}
	assert_true(sinew_ragdoll_is_enabled(f.rd));
	teardown(&f);
	*worst_px_out = worst_px;
	*worst_deg_out = worst_deg;
}

static void test_powered_stands_with_root_pull(void **state)
{
	(void)state;
	static const char *const names[] = {"right", "left", "forward"};
	for (int facing = SINEW_FACING_RIGHT; facing <= SINEW_FACING_FORWARD; ++facing) {
		float px = 0.0f, deg = 0.0f;
		stand((sinew_rig_facing)facing, &px, &deg);
		printf("  powered + root pull, 10 s standing, facing %s: worst part %.3f px, %.3f deg off the animated pose\n",
		       names[facing], (double)px, (double)deg);
		assert_true(px < 5.0f);
		assert_true(deg < 3.0f);
	}
}

/* The game keeps animating the hidden rig while it is ragdolled: a hand marker moved after the fall
 * moves the target, and the stiff arm follows it by IK's answer. */
static void test_targets_follow_the_animation(void **state)
{
	(void)state;
	fixture f;
	start(&f, SINEW_POWER_STIFF, true);
	for (int i = 0; i < 30; ++i) frame(&f);
	sinew_rig_part_state want[SINEW_PART_COUNT], got[SINEW_PART_COUNT];
	animated_parts(&f, want);
	float before = want[SINEW_PART_LEFT_UPPER_ARM].angle;
	assert_true(sinew_rig_set_marker(f.rig, SINEW_MARKER_LEFT_HAND, sinew_v2(300.0f, -300.0f))); /* reached out forward */
	for (int i = 0; i < 60; ++i) frame(&f);
	animated_parts(&f, want);
	sinew_ragdoll_get_parts(f.rd, got);
	float moved = fabsf(wrapf_(want[SINEW_PART_LEFT_UPPER_ARM].angle - before));
	float off = 0.0f;
	for (int p = SINEW_PART_LEFT_UPPER_ARM; p <= SINEW_PART_LEFT_LOWER_ARM; ++p) off = fmaxf(off, fabsf(wrapf_(want[p].angle - got[p].angle)));
	printf("  a hand marker moved while ragdolled: the arm's target turned %.0f deg, the arm is %.2f deg off it after 1 s\n",
	       (double)(moved / DEG), (double)(off / DEG));
	assert_true(moved > 30.0f * DEG);
	assert_true(off < 3.0f * DEG);
	teardown(&f);
}

/* The same figure limp with the same root pull folds at the knees and hips: the pull alone does
 * not stand it (so the test above measures the drives). */
static void test_root_pull_alone_does_not_stand(void **state)
{
	(void)state;
	fixture f;
	start(&f, SINEW_POWER_LIMP, true);
	float worst_deg = 0.0f;
	for (int i = 0; i < 180; ++i) {
		frame(&f);
		sinew_rig_part_state want[SINEW_PART_COUNT], got[SINEW_PART_COUNT];
		animated_parts(&f, want);
		sinew_ragdoll_get_parts(f.rd, got);
		for (int p = 0; p < SINEW_PART_COUNT; ++p) worst_deg = fmaxf(worst_deg, fabsf(wrapf_(want[p].angle - got[p].angle)) / DEG);
	}
	printf("  limp + root pull, 3 s: worst part %.1f deg off the animated pose\n", (double)worst_deg);
	assert_true(worst_deg > 10.0f);
	teardown(&f);
}

/* ---------------------------------------------------------------- falling */

/* Push the figure over from its stance and record the mean joint error of every frame. */
static float push_over(sinew_ragdoll_power_preset preset, float *errors, int frames, float *drop)
{
	fixture f;
	start(&f, preset, false);
	sinew_body_id torso = sinew_ragdoll_get_body(f.rd, SINEW_PART_TORSO);
	sinew_vec2 start = sinew_body_get_position(torso);
	sinew_rig_part_state neck = sinew_ragdoll_get_part(f.rd, SINEW_PART_HEAD);
	sinew_body_apply_linear_impulse(torso, sinew_v2(3000.0f, 0.0f), neck.origin, true);
	float sum = 0.0f;
	for (int i = 0; i < frames; ++i) {
		frame(&f);
		errors[i] = mean_joint_error(&f);
		sum += errors[i];
	}
	*drop = sinew_body_get_position(torso).y - start.y;
	teardown(&f);
	return sum / (float)frames;
}

static void test_powered_fall_stays_nearer_its_targets(void **state)
{
	(void)state;
	enum { FRAMES = 180 };
	float limp[FRAMES], braced[FRAMES], stiff[FRAMES];
	float limp_drop = 0.0f, braced_drop = 0.0f, stiff_drop = 0.0f;
	float limp_mean = push_over(SINEW_POWER_LIMP, limp, FRAMES, &limp_drop);
	float braced_mean = push_over(SINEW_POWER_BRACED, braced, FRAMES, &braced_drop);
	float stiff_mean = push_over(SINEW_POWER_STIFF, stiff, FRAMES, &stiff_drop);
	printf("  pushed over, 3 s: mean joint error limp %.2f deg, braced %.2f deg, stiff %.2f deg; torso drop %.0f, "
	       "%.0f, %.0f px\n",
	       (double)(limp_mean / DEG), (double)(braced_mean / DEG), (double)(stiff_mean / DEG), (double)limp_drop,
	       (double)braced_drop, (double)stiff_drop);
	/* all three fall (no root pull holds them up) */
	assert_true(braced_drop > 100.0f && stiff_drop > 100.0f && limp_drop > 100.0f);
	/* at every frame once the limp figure has left its pose, the powered joints are nearer */
	int worse = 0;
	for (int i = 0; i < FRAMES; ++i) {
		if (limp[i] < 1.0f * DEG) continue;
		if (!(braced[i] < limp[i]) || !(stiff[i] < limp[i])) ++worse;
	}
	printf("  frames where a powered figure was not nearer its targets than the limp one: %d\n", worse);
	assert_int_equal(worse, 0);
	assert_true(stiff_mean < 0.5f * limp_mean);
	assert_true(braced_mean < 0.5f * limp_mean);
}

/* ---------------------------------------------------------------- the blend */

static void test_influence_fade_has_no_jump(void **state)
{
	(void)state;
	fixture f;
	start(&f, SINEW_POWER_BRACED, true);
	for (int i = 0; i < 60; ++i) frame(&f);
	float braced_error = mean_joint_error(&f);
	sinew_rig_part_state before[SINEW_PART_COUNT], after[SINEW_PART_COUNT];
	sinew_ragdoll_get_parts(f.rd, before);
	float worst_excess = 0.0f;
	for (int i = 0; i <= 120; ++i) {
		float k = i < 60 ? 1.0f - (float)(i + 1) / 60.0f : 0.0f;
		assert_true(sinew_ragdoll_set_influence(f.rd, k));
		sinew_vec2 v0[SINEW_PART_COUNT];
		float w0[SINEW_PART_COUNT];
		for (int p = 0; p < SINEW_PART_COUNT; ++p) {
			v0[p] = sinew_body_get_linear_velocity(sinew_ragdoll_get_body(f.rd, (sinew_rig_part)p));
			w0[p] = sinew_body_get_angular_velocity(sinew_ragdoll_get_body(f.rd, (sinew_rig_part)p));
		}
		frame(&f);
		sinew_ragdoll_get_parts(f.rd, after);
		for (int p = 0; p < SINEW_PART_COUNT; ++p) {
			sinew_body_id b = sinew_ragdoll_get_body(f.rd, (sinew_rig_part)p);
			sinew_vec2 v1 = sinew_body_get_linear_velocity(b);
			float w1 = sinew_body_get_angular_velocity(b);
			/* a part moves and turns no further in a frame than its speed carries it (the faster
			 * of the frame's two ends), give or take 1.5 px: nothing is teleported or rebuilt. The
			 * slack is the frame the limp figure lands in: the ground's stored impulses answered by
			 * the figure's joints (sinew_joint_tree_presolve) turn an upper arm at 7.0-7.2 rad/s in
			 * the frame's first two substeps and 6.2-6.3 at its ends, 1.36 px beyond (0.53 px
			 * before that pass) */
			float allowed = fmaxf(sinew_length(v0[p]), sinew_length(v1)) * DT;
			worst_excess = fmaxf(worst_excess, sinew_distance(before[p].center, after[p].center) - allowed);
			float turn_allowed = fmaxf(fabsf(w0[p]), fabsf(w1)) * DT;
			worst_excess = fmaxf(worst_excess, (fabsf(wrapf_(after[p].angle - before[p].angle)) - turn_allowed) *
			                                       sinew_rig_get_skeleton(f.rig)->bones[p].length);
		}
		memcpy(before, after, sizeof before);
	}
	float limp_error = mean_joint_error(&f);
	printf("  influence 1 -> 0 over 1 s: mean joint error %.2f -> %.2f deg; worst move beyond speed %.3f px\n",
	       (double)(braced_error / DEG), (double)(limp_error / DEG), (double)worst_excess);
	assert_true(braced_error < 3.0f * DEG);
	assert_true(limp_error > 4.0f * braced_error);
	for (int p = SINEW_PART_HEAD; p < SINEW_PART_COUNT; ++p) {
		sinew_joint_id j = sinew_ragdoll_get_joint(f.rd, (sinew_rig_part)p);
		assert_false(sinew_joint_get_spring(j).enabled);
		assert_false(sinew_joint_get_motor(j).enabled);
	}
	assert_true(worst_excess < 1.5f);
	teardown(&f);
}

static void test_limb_influence_scales_one_limb(void **state)
{
	(void)state;
	fixture f;
	start(&f, SINEW_POWER_STIFF, true);
	assert_true(sinew_ragdoll_set_limb_influence(f.rd, SINEW_LIMB_LEFT_ARM, 0.0f));
	for (int i = 0; i < 120; ++i) frame(&f);
	float target = 0.0f;
	float err[SINEW_LIMB_COUNT];
	for (int l = 0; l < SINEW_LIMB_COUNT; ++l) {
		sinew_rig_part upper = (sinew_rig_part)(SINEW_PART_LEFT_UPPER_ARM + 2 * l);
		assert_true(sinew_ragdoll_get_joint_target(f.rd, upper, &target));
		err[l] = fabsf(wrapf_(sinew_joint_get_angle(sinew_ragdoll_get_joint(f.rd, upper)) - target));
	}
	printf("  left arm at influence 0 in a stiff figure: shoulder %.1f deg off its target, right %.2f deg\n",
	       (double)(err[0] / DEG), (double)(err[1] / DEG));
	assert_true(err[0] > 20.0f * DEG);   /* the limp arm drops */
	assert_true(err[1] < 3.0f * DEG);    /* the other holds */
	assert_true(err[2] < 3.0f * DEG && err[3] < 3.0f * DEG);
	teardown(&f);
}

/* ---------------------------------------------------------------- limits */

static void test_limits_hold_when_driven_against_them(void **state)
{
	(void)state;
	fixture f;
	start(&f, SINEW_POWER_LIMP, false);
	/* Very strong servos on every joint, and a pose no band allows: elbows and knees bent 90 degrees
	 * backwards, shoulders and hips turned 175 degrees from where they were at entry. */
	sinew_ragdoll_drive hard = {SINEW_DRIVE_MOTOR, 0.0f, 0.0f, 40.0f, 5.0e7f};
	for (int p = SINEW_PART_HEAD; p < SINEW_PART_COUNT; ++p) assert_true(sinew_ragdoll_set_joint_drive(f.rd, (sinew_rig_part)p, &hard));
	for (int l = 0; l < SINEW_LIMB_COUNT; ++l) {
		sinew_rig_part upper = (sinew_rig_part)(SINEW_PART_LEFT_UPPER_ARM + 2 * l);
		assert_true(sinew_rig_set_limb_ik(f.rig, (sinew_rig_limb)l, false));
		assert_true(sinew_rig_set_bone_angle(f.rig, upper, sinew_rig_get_bone_angle(f.rig, upper) + 175.0f * DEG));
		float fold = sinew_rig_get_bend_flip(f.rig, (sinew_rig_limb)l) ? -1.0f : 1.0f;
		assert_true(sinew_rig_set_bone_angle(f.rig, (sinew_rig_part)(upper + 1), -fold * 90.0f * DEG));
	}
	float worst_limit = 0.0f, worst_sep = 0.0f;
	for (int i = 0; i < 240; ++i) {
		frame(&f);
		worst_limit = fmaxf(worst_limit, sinew_ragdoll_get_limit_overshoot_max(f.rd));
		worst_sep = fmaxf(worst_sep, sinew_ragdoll_get_joint_separation_max(f.rd));
	}
	/* the drives were really pushing: the knees sit on their bands */
	float target = 0.0f;
	assert_true(sinew_ragdoll_get_joint_target(f.rd, SINEW_PART_LEFT_LOWER_LEG, &target));
	sinew_joint_limit lim = sinew_joint_get_limit(sinew_ragdoll_get_joint(f.rd, SINEW_PART_LEFT_LOWER_LEG));
	assert_true(target < lim.lower - 45.0f * DEG || target > lim.upper + 45.0f * DEG);
	printf("  driven against the limits for 4 s: worst limit overshoot %.4f deg, worst anchor separation %.4f px\n",
	       (double)(worst_limit / DEG), (double)worst_sep);
	assert_true(worst_limit < 2.0f * DEG);
	assert_true(worst_sep < 2.0f);
	teardown(&f);
}

/* ---------------------------------------------------------------- partial ragdoll */

static float worst_part_gap(const sinew_rig_part_state *a, const sinew_rig_part_state *b, int from, int to, float *deg)
{
	float px = 0.0f;
	*deg = 0.0f;
	for (int p = from; p < to; ++p) {
		px = fmaxf(px, fmaxf(sinew_distance(a[p].center, b[p].center), sinew_distance(a[p].tip, b[p].tip)));
		*deg = fmaxf(*deg, fabsf(wrapf_(a[p].angle - b[p].angle)) / DEG);
	}
	return px;
}

/* A limp left arm swings from the shoulder of a figure that walks; the rest of the figure is the
 * animation bit for bit; the arm rejoins with its first frame equal to its last physical one and
 * ends on the animation, leaving nothing behind. */
static void test_partial_ragdoll_arm_swings_and_rejoins(void **state)
{
	(void)state;
	fixture f;
	setup(&f, NULL);
	int bodies0 = sinew_world_get_counters(f.world).body_count;
	int joints0 = sinew_world_get_counters(f.world).joint_count;
	assert_true(sinew_rig_set_terrain_following(f.rig, true));
	for (int i = 0; i < 30; ++i) frame(&f);
	assert_true(sinew_rig_walk(f.rig, 150.0f));
	for (int i = 0; i < 30; ++i) frame(&f);
	const int upper = SINEW_PART_LEFT_UPPER_ARM, lower = SINEW_PART_LEFT_LOWER_ARM;
	sinew_rig_part_state before[SINEW_PART_COUNT], after[SINEW_PART_COUNT], anim[SINEW_PART_COUNT];
	sinew_ragdoll_get_parts(f.rd, before);
	float start_x = before[SINEW_PART_TORSO].center.x;
	assert_true(sinew_ragdoll_set_limb_enabled(f.rd, SINEW_LIMB_LEFT_ARM, true));
	assert_true(sinew_ragdoll_set_limb_enabled(f.rd, SINEW_LIMB_LEFT_ARM, true)); /* idempotent */
	assert_true(sinew_ragdoll_is_limb_enabled(f.rd, SINEW_LIMB_LEFT_ARM));
	assert_int_equal(sinew_ragdoll_get_state(f.rd), SINEW_RIG_ANIMATED);
	assert_false(sinew_body_is_enabled(sinew_rig_get_proxy(f.rig, SINEW_PART_LEFT_UPPER_ARM)));
	assert_true(sinew_body_is_enabled(sinew_rig_get_proxy(f.rig, SINEW_PART_RIGHT_UPPER_ARM)));
	sinew_ragdoll_get_parts(f.rd, after);
	float deg = 0.0f, px = worst_part_gap(before, after, 0, SINEW_PART_COUNT, &deg);
	printf("  partial ragdoll: the arm's hand-off %.4f px, %.4f deg\n", (double)px, (double)deg);
	assert_true(px < 0.5f && deg < 0.5f);
	float shoulder_gap = 0.0f, swing_min = 10.0f, swing_max = -10.0f, off_animation = 0.0f;
	float rel0 = after[upper].angle - after[SINEW_PART_TORSO].angle; /* the swing from the hand-off */
	for (int i = 0; i < 120; ++i) {
		frame(&f);
		sinew_ragdoll_get_parts(f.rd, after);
		for (int p = 0; p < SINEW_PART_COUNT; ++p) anim[p] = sinew_rig_get_part(f.rig, (sinew_rig_part)p);
		/* the rest of the figure is the animated pose, bit for bit */
		for (int p = 0; p < SINEW_PART_COUNT; ++p) {
			if (p != upper && p != lower) assert_memory_equal(&after[p], &anim[p], sizeof after[p]);
		}
		shoulder_gap = fmaxf(shoulder_gap, sinew_distance(after[upper].origin, anim[upper].origin));
		float rel = wrapf_(after[upper].angle - after[SINEW_PART_TORSO].angle - rel0);
		swing_min = fminf(swing_min, rel);
		swing_max = fmaxf(swing_max, rel);
		off_animation = fmaxf(off_animation, sinew_distance(after[lower].tip, anim[lower].tip));
	}
	float walked = after[SINEW_PART_TORSO].center.x - start_x;
	printf("  walked %.0f px with a limp arm: shoulder within %.3f px of the animated one, the arm swung through "
	       "%.0f deg, its hand up to %.0f px off the animation\n",
	       (double)walked, (double)shoulder_gap, (double)((swing_max - swing_min) / DEG), (double)off_animation);
	assert_true(walked > 200.0f);
	assert_true(shoulder_gap < 2.0f);
	assert_true(swing_max - swing_min > 45.0f * DEG);
	assert_true(off_animation > 100.0f);
	assert_true(sinew_ragdoll_get_joint_separation_max(f.rd) == 0.0f); /* not RAGDOLL: the whole figure's reading */

	/* rejoin: the first frame is the last physical one */
	sinew_ragdoll_get_parts(f.rd, before);
	assert_true(sinew_ragdoll_set_limb_enabled(f.rd, SINEW_LIMB_LEFT_ARM, false));
	assert_false(sinew_ragdoll_is_limb_enabled(f.rd, SINEW_LIMB_LEFT_ARM));
	sinew_ragdoll_get_parts(f.rd, after);
	px = worst_part_gap(before, after, 0, SINEW_PART_COUNT, &deg);
	printf("  rejoin: first frame %.4f px, %.4f deg from the last physical one\n", (double)px, (double)deg);
	assert_true(px < 0.5f && deg < 0.5f);
	float worst_step = 0.0f;
	memcpy(before, after, sizeof before);
	for (int i = 0; i < 31; ++i) {
		frame(&f);
		sinew_ragdoll_get_parts(f.rd, after);
		for (int p = 0; p < SINEW_PART_COUNT; ++p) anim[p] = sinew_rig_get_part(f.rig, (sinew_rig_part)p);
		for (int p = 0; p < SINEW_PART_COUNT; ++p) {
			if (p != upper && p != lower) assert_memory_equal(&after[p], &anim[p], sizeof after[p]);
		}
		worst_step = fmaxf(worst_step, sinew_distance(after[lower].tip, before[lower].tip));
		memcpy(before, after, sizeof before);
	}
	printf("  rejoin over 0.5 s: the hand moved at most %.1f px a frame\n", (double)worst_step);
	assert_true(worst_step < 60.0f); /* the tween's pace: a snap back would move it by the 600 px it was off */
	/* done: the animation bit for bit, the proxies back, nothing left behind */
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		sinew_rig_part_state a = sinew_rig_get_part(f.rig, (sinew_rig_part)p);
		assert_memory_equal(&after[p], &a, sizeof a);
	}
	assert_true(sinew_body_is_enabled(sinew_rig_get_proxy(f.rig, SINEW_PART_LEFT_UPPER_ARM)));
	assert_int_equal(sinew_world_get_counters(f.world).body_count, bodies0);
	assert_int_equal(sinew_world_get_counters(f.world).joint_count, joints0);
	teardown(&f);
}

/* Going limp as a whole takes a physical limb as it is shown; a ragdolled figure refuses a limb. */
static void test_partial_ragdoll_then_whole(void **state)
{
	(void)state;
	fixture f;
	start(&f, SINEW_POWER_LIMP, false);
	assert_false(sinew_ragdoll_set_limb_enabled(f.rd, SINEW_LIMB_RIGHT_LEG, true)); /* ragdolled */
	assert_int_equal(f.rec.count, 1);
	f.rec.count = 0;
	assert_true(sinew_ragdoll_set_limb_enabled(f.rd, SINEW_LIMB_RIGHT_LEG, false)); /* nothing to rejoin */
	assert_true(sinew_ragdoll_snap_to_standing(f.rd));
	frame(&f);
	int bodies0 = sinew_world_get_counters(f.world).body_count;
	assert_true(sinew_ragdoll_set_limb_enabled(f.rd, SINEW_LIMB_RIGHT_ARM, true));
	for (int i = 0; i < 30; ++i) frame(&f);
	sinew_rig_part_state before[SINEW_PART_COUNT], after[SINEW_PART_COUNT];
	sinew_ragdoll_get_parts(f.rd, before);
	assert_true(sinew_ragdoll_set_enabled(f.rd, true));
	assert_false(sinew_ragdoll_is_limb_enabled(f.rd, SINEW_LIMB_RIGHT_ARM));
	sinew_ragdoll_get_parts(f.rd, after);
	float deg = 0.0f, px = worst_part_gap(before, after, 0, SINEW_PART_COUNT, &deg);
	assert_true(px < 0.5f && deg < 0.5f);
	assert_int_equal(sinew_world_get_counters(f.world).body_count, bodies0 + SINEW_PART_COUNT);
	assert_true(sinew_ragdoll_snap_to_standing(f.rd));
	assert_int_equal(sinew_world_get_counters(f.world).body_count, bodies0);
	assert_false(sinew_ragdoll_set_limb_enabled(f.rd, SINEW_LIMB_COUNT, true));
	assert_int_equal(f.rec.count, 1);
	f.rec.count = 0;
	teardown(&f);
}

/* ---------------------------------------------------------------- the API */

static void test_power_api(void **state)
{
	(void)state;
	fixture f;
	setup(&f, NULL);
	/* names both ways */
	for (int s = 0; s < SINEW_POWER_PRESET_COUNT; ++s) {
		sinew_ragdoll_power_preset back = SINEW_POWER_PRESET_COUNT;
		assert_true(sinew_ragdoll_power_preset_from_name(sinew_ragdoll_power_preset_name((sinew_ragdoll_power_preset)s), &back));
		assert_int_equal(back, s);
	}
	assert_null(sinew_ragdoll_power_preset_name(SINEW_POWER_PRESET_COUNT));
	assert_false(sinew_ragdoll_power_preset_from_name("floppy", NULL));
	/* a default controller is limp: building the ragdoll writes no drive */
	assert_int_equal(sinew_ragdoll_get_joint_drive(f.rd, SINEW_PART_LEFT_LOWER_LEG).mode, SINEW_DRIVE_OFF);
	assert_float_near(sinew_ragdoll_get_influence(f.rd), 1.0f, 0.0f);
	assert_false(sinew_ragdoll_get_root_pull(f.rd).enabled);
	float target = 0.0f;
	assert_false(sinew_ragdoll_get_joint_target(f.rd, SINEW_PART_HEAD, &target)); /* not ragdolled */
	assert_true(sinew_ragdoll_set_enabled(f.rd, true));
	frame(&f);
	assert_false(sinew_joint_get_spring(sinew_ragdoll_get_joint(f.rd, SINEW_PART_HEAD)).enabled);
	assert_true(sinew_ragdoll_get_joint_target(f.rd, SINEW_PART_HEAD, &target));
	/* presets come from the def's table, which a game may edit */
	sinew_ragdoll_drive d = sinew_default_ragdoll_def().power_presets[SINEW_POWER_BRACED][SINEW_PART_LEFT_UPPER_ARM];
	assert_int_equal(d.mode, SINEW_DRIVE_SPRING);
	assert_true(sinew_ragdoll_set_power(f.rd, SINEW_POWER_BRACED));
	sinew_ragdoll_drive got = sinew_ragdoll_get_joint_drive(f.rd, SINEW_PART_LEFT_UPPER_ARM);
	assert_memory_equal(&d, &got, sizeof d);
	frame(&f);
	sinew_joint_spring s = sinew_joint_get_spring(sinew_ragdoll_get_joint(f.rd, SINEW_PART_LEFT_UPPER_ARM));
	assert_true(s.enabled);
	assert_float_near(s.hertz, d.hertz, 1e-6f);
	assert_true(sinew_ragdoll_set_influence(f.rd, 0.25f));
	frame(&f);
	s = sinew_joint_get_spring(sinew_ragdoll_get_joint(f.rd, SINEW_PART_LEFT_UPPER_ARM));
	assert_float_near(s.hertz, 0.5f * d.hertz, 1e-5f); /* stiffness x 0.25 */
	/* refusals: reported, nothing changed */
	int errors = f.rec.count;
	assert_false(sinew_ragdoll_set_influence(f.rd, 1.5f));
	assert_false(sinew_ragdoll_set_influence(f.rd, NAN));
	assert_false(sinew_ragdoll_set_limb_influence(f.rd, SINEW_LIMB_COUNT, 0.5f));
	assert_false(sinew_ragdoll_set_limb_influence(f.rd, SINEW_LIMB_LEFT_ARM, -0.1f));
	assert_false(sinew_ragdoll_set_power(f.rd, SINEW_POWER_PRESET_COUNT));
	sinew_ragdoll_drive bad = {SINEW_DRIVE_SPRING, 0.0f, 1.0f, 0.0f, 0.0f};
	assert_false(sinew_ragdoll_set_joint_drive(f.rd, SINEW_PART_HEAD, &bad));
	bad = (sinew_ragdoll_drive){SINEW_DRIVE_MOTOR, 0.0f, 0.0f, 10.0f, -1.0f};
	assert_false(sinew_ragdoll_set_joint_drive(f.rd, SINEW_PART_HEAD, &bad));
	bad = (sinew_ragdoll_drive){SINEW_DRIVE_OFF, 0.0f, 0.0f, 0.0f, 0.0f};
	assert_false(sinew_ragdoll_set_joint_drive(f.rd, SINEW_PART_TORSO, &bad));
	sinew_ragdoll_root_pull pull = {true, -1.0f, 1.0f, 100.0f};
	assert_false(sinew_ragdoll_set_root_pull(f.rd, &pull));
	assert_false(sinew_ragdoll_set_root_pull(f.rd, NULL));
	assert_int_equal(f.rec.count, errors + 10);
	assert_float_near(sinew_ragdoll_get_influence(f.rd), 0.25f, 0.0f);
	assert_float_near(sinew_ragdoll_get_limb_influence(f.rd, SINEW_LIMB_LEFT_ARM), 1.0f, 0.0f);
	assert_int_equal(sinew_ragdoll_get_joint_drive(f.rd, SINEW_PART_HEAD).mode, SINEW_DRIVE_SPRING);
	assert_false(sinew_ragdoll_get_root_pull(f.rd).enabled);
	/* a def with a bad preset entry is refused */
	sinew_ragdoll_def dd = sinew_default_ragdoll_def();
	dd.power_presets[SINEW_POWER_LOOSE][SINEW_PART_HEAD].hertz = -2.0f;
	assert_null(sinew_create_ragdoll(f.rig, &dd));
	dd = sinew_default_ragdoll_def();
	dd.influence = 2.0f;
	assert_null(sinew_create_ragdoll(f.rig, &dd));
	f.rec.count = 0;
	/* the root pull makes two joints and frees them with the ragdoll */
	int joints = sinew_world_get_counters(f.world).joint_count;
	pull = (sinew_ragdoll_root_pull){true, 8.0f, 1.0f, 40000.0f};
	assert_true(sinew_ragdoll_set_root_pull(f.rd, &pull));
	frame(&f);
	assert_int_equal(sinew_world_get_counters(f.world).joint_count, joints + 2);
	assert_true(sinew_ragdoll_set_enabled(f.rd, false));
	assert_int_equal(sinew_world_get_counters(f.world).joint_count, joints - 9);
	teardown(&f);
}

/* The rig's IK solve without a rig update gives the parts the update itself gives. */
static void test_solve_pose_ik_matches_update(void **state)
{
	(void)state;
	fixture f;
	setup(&f, NULL);
	sinew_rig_set_marker(f.rig, SINEW_MARKER_LEFT_HAND, sinew_v2(150.0f, -90.0f));
	sinew_rig_set_marker(f.rig, SINEW_MARKER_RIGHT_FOOT, sinew_v2(-60.0f, 360.0f));
	sinew_rig_set_marker(f.rig, SINEW_MARKER_HEAD, sinew_v2(300.0f, -700.0f));
	sinew_rig_pose pose;
	assert_true(sinew_rig_get_pose(f.rig, &pose));
	sinew_rig_part_state solved[SINEW_PART_COUNT];
	assert_true(sinew_rig_solve_pose_ik(f.rig, &pose, solved));
	frame(&f);
	for (int p = 0; p < SINEW_PART_COUNT; ++p) {
		sinew_rig_part_state got = sinew_rig_get_part(f.rig, (sinew_rig_part)p);
		assert_memory_equal(&got, &solved[p], sizeof got);
		assert_memory_equal(&pose.bones[p], &(float){sinew_rig_get_bone_angle(f.rig, (sinew_rig_part)p)}, sizeof(float));
	}
	assert_false(sinew_rig_solve_pose_ik(NULL, &pose, solved));
	assert_true(sinew_rig_solve_pose_ik(f.rig, &pose, NULL));
	teardown(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_powered_stands_with_root_pull),
		cmocka_unit_test(test_targets_follow_the_animation),
		cmocka_unit_test(test_root_pull_alone_does_not_stand),
		cmocka_unit_test(test_powered_fall_stays_nearer_its_targets),
		cmocka_unit_test(test_influence_fade_has_no_jump),
		cmocka_unit_test(test_limb_influence_scales_one_limb),
		cmocka_unit_test(test_limits_hold_when_driven_against_them),
		cmocka_unit_test(test_partial_ragdoll_arm_swings_and_rejoins),
		cmocka_unit_test(test_partial_ragdoll_then_whole),
		cmocka_unit_test(test_power_api),
		cmocka_unit_test(test_solve_pose_ik_matches_update),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
