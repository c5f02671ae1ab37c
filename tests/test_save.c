/* Saving scenes (sinew_scene_save): every reference scene saved before its first step runs to the
 * same hash as the original; saved after 60 steps it reads back bit for bit (bodies' positions,
 * angles, velocities; joints' authored frames, limits, motors, springs, settings); every shape kind
 * and every joint type survive the round trip, and a joint whose bodies moved after it was made
 * keeps the frames it was authored with. Bodies and joints made by spawn ops are saved as plain
 * ones after the file's: the whole world reads back bit for bit (template mass overrides and
 * collision groups included), and the saved file saves to the same text again. */
#define _DEFAULT_SOURCE /* mkstemps */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <glob.h>
#include <math.h>

#include "sinew/scene.h"

static uint32_t bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

#define assert_same_float(a, b) assert_int_equal(bits(a), bits(b))
#define assert_same_vec2(a, b)           \
	do {                                 \
		sinew_vec2 a_ = (a), b_ = (b);   \
		assert_same_float(a_.x, b_.x);   \
		assert_same_float(a_.y, b_.y);   \
	} while (0)

static sinew_scene *load_text(const char *text, const char *name)
{
	char error[1024] = "";
	sinew_scene *scene = sinew_scene_load_string(text, name, error, sizeof error);
	if (scene == NULL) fail_msg("%s: %s", name, error);
	return scene;
}

static sinew_scene *load_file(const char *path)
{
	char error[1024] = "";
	sinew_scene *scene = sinew_scene_load_file(path, error, sizeof error);
	if (scene == NULL) fail_msg("%s", error);
	return scene;
}

/* Save scene and load the result. */
static sinew_scene *round_trip(const sinew_scene *scene, char **text_out)
{
	char error[1024] = "";
	char *text = sinew_scene_save_string(scene, error, sizeof error);
	if (text == NULL) fail_msg("save %s: %s", sinew_scene_get_name(scene), error);
	sinew_scene *copy = load_text(text, sinew_scene_get_name(scene));
	if (text_out != NULL) *text_out = text;
	else free(text);
	return copy;
}

static void step_scene(sinew_scene *scene, int n)
{
	for (int i = 0; i < n; ++i) assert_true(sinew_scene_step(scene));
}

enum { CAP = 65536 };

/* The live bodies of a scene in the order a save writes them: the file's in file order, then the
 * rest of the world's (spawned ones) in slot order. */
static int live_bodies(const sinew_scene *scene, sinew_body_id *out, int capacity)
{
	static sinew_body_id all[CAP];
	static bool listed[CAP + 1];
	int n = 0;
	memset(listed, 0, sizeof listed);
	for (int i = 0; i < sinew_scene_get_body_count(scene) && n < capacity; ++i) {
		sinew_body_id id = sinew_scene_get_body(scene, i);
		if (!sinew_body_is_valid(id)) continue;
		out[n++] = id;
		if (id.index1 <= CAP) listed[id.index1] = true;
	}
	int count = sinew_world_get_bodies(sinew_scene_get_world(scene), all, CAP);
	for (int i = 0; i < count && n < capacity; ++i) {
		if (all[i].index1 > CAP || !listed[all[i].index1]) out[n++] = all[i];
	}
	return n;
}

static int live_joints(const sinew_scene *scene, sinew_joint_id *out, int capacity)
{
	static sinew_joint_id all[CAP];
	int n = 0;
	for (int i = 0; i < sinew_scene_get_joint_count(scene) && n < capacity; ++i) {
		sinew_joint_id id = sinew_scene_get_joint(scene, i);
		if (sinew_joint_is_valid(id)) out[n++] = id;
	}
	int count = sinew_world_get_joints(sinew_scene_get_world(scene), all, CAP);
	for (int i = 0; i < count && n < capacity; ++i) {
		if (sinew_scene_get_joint_index(scene, all[i]) < 0) out[n++] = all[i];
	}
	return n;
}

static void assert_same_geometry(sinew_shape_id a, sinew_shape_id b)
{
	sinew_geometry ga = sinew_shape_get_geometry(a), gb = sinew_shape_get_geometry(b);
	assert_int_equal(ga.type, gb.type);
	switch (ga.type) {
	case SINEW_SHAPE_CIRCLE:
		assert_same_vec2(ga.u.circle.center, gb.u.circle.center);
		assert_same_float(ga.u.circle.radius, gb.u.circle.radius);
		break;
	case SINEW_SHAPE_CAPSULE:
		assert_same_vec2(ga.u.capsule.center1, gb.u.capsule.center1);
		assert_same_vec2(ga.u.capsule.center2, gb.u.capsule.center2);
		assert_same_float(ga.u.capsule.radius, gb.u.capsule.radius);
		break;
	case SINEW_SHAPE_POLYGON:
		assert_int_equal(ga.u.polygon.count, gb.u.polygon.count);
		assert_same_float(ga.u.polygon.radius, gb.u.polygon.radius);
		assert_same_vec2(ga.u.polygon.centroid, gb.u.polygon.centroid);
		for (int i = 0; i < ga.u.polygon.count; ++i) {
			assert_same_vec2(ga.u.polygon.vertices[i], gb.u.polygon.vertices[i]);
			assert_same_vec2(ga.u.polygon.normals[i], gb.u.polygon.normals[i]);
		}
		break;
	case SINEW_SHAPE_TYPE_COUNT:
		fail();
	}
	assert_same_float(sinew_shape_get_density(a), sinew_shape_get_density(b));
	assert_same_float(sinew_shape_get_friction(a), sinew_shape_get_friction(b));
	assert_same_float(sinew_shape_get_restitution(a), sinew_shape_get_restitution(b));
	assert_int_equal(sinew_shape_get_layer(a), sinew_shape_get_layer(b));
	assert_int_equal(sinew_shape_get_mask(a), sinew_shape_get_mask(b));
	assert_int_equal(sinew_shape_is_sensor(a), sinew_shape_is_sensor(b));
	assert_int_equal(sinew_shape_get_group(a), sinew_shape_get_group(b));
}

/* A proxy of a rig that follows terrain: its place is the rig's pose (stance, gait, landing),
 * which the format does not save, so a saved copy starts it from the rest pose. */
static bool posed_proxy(sinew_body_id body)
{
	sinew_rig *rig = NULL;
	return sinew_rig_from_body(body, &rig, NULL) && rig != NULL && sinew_rig_get_motion(rig) != SINEW_MOTION_DISABLED;
}

/* Bodies read back bit for bit; returns how many rotations came back bit for bit too. */
static int assert_same_bodies(const sinew_scene *a, const sinew_scene *b)
{
	static sinew_body_id ba[CAP], bb[CAP];
	int n = live_bodies(a, ba, CAP);
	assert_int_equal(n, live_bodies(b, bb, CAP));
	int exact_rotations = 0;
	for (int i = 0; i < n; ++i) {
		assert_int_equal(sinew_body_get_type(ba[i]), sinew_body_get_type(bb[i]));
		if (posed_proxy(ba[i])) {
			sinew_rot pa = sinew_body_get_rotation(ba[i]), pb = sinew_body_get_rotation(bb[i]);
			exact_rotations += bits(pa.c) == bits(pb.c) && bits(pa.s) == bits(pb.s);
			continue;
		}
		assert_same_vec2(sinew_body_get_position(ba[i]), sinew_body_get_position(bb[i]));
		assert_same_float(sinew_body_get_angle(ba[i]), sinew_body_get_angle(bb[i]));
		assert_same_vec2(sinew_body_get_linear_velocity(ba[i]), sinew_body_get_linear_velocity(bb[i]));
		assert_same_float(sinew_body_get_angular_velocity(ba[i]), sinew_body_get_angular_velocity(bb[i]));
		assert_same_float(sinew_body_get_linear_damping(ba[i]), sinew_body_get_linear_damping(bb[i]));
		assert_same_float(sinew_body_get_angular_damping(ba[i]), sinew_body_get_angular_damping(bb[i]));
		assert_same_float(sinew_body_get_gravity_scale(ba[i]), sinew_body_get_gravity_scale(bb[i]));
		assert_same_float(sinew_body_get_mass(ba[i]), sinew_body_get_mass(bb[i]));
		assert_same_float(sinew_body_get_rotational_inertia(ba[i]), sinew_body_get_rotational_inertia(bb[i]));
		assert_same_vec2(sinew_body_get_local_center(ba[i]), sinew_body_get_local_center(bb[i]));
		assert_int_equal(sinew_body_is_fixed_rotation(ba[i]), sinew_body_is_fixed_rotation(bb[i]));
		assert_int_equal(sinew_body_is_bullet(ba[i]), sinew_body_is_bullet(bb[i]));
		assert_int_equal(sinew_body_is_awake(ba[i]), sinew_body_is_awake(bb[i]));
		assert_int_equal(sinew_body_is_sleep_enabled(ba[i]), sinew_body_is_sleep_enabled(bb[i]));
		assert_int_equal(sinew_body_is_enabled(ba[i]), sinew_body_is_enabled(bb[i]));
		sinew_rot qa = sinew_body_get_rotation(ba[i]), qb = sinew_body_get_rotation(bb[i]);
		exact_rotations += bits(qa.c) == bits(qb.c) && bits(qa.s) == bits(qb.s);
		sinew_shape_id sa[16], sb[16];
		int count = sinew_body_get_shapes(ba[i], sa, 16);
		assert_int_equal(count, sinew_body_get_shapes(bb[i], sb, 16));
		for (int k = 0; k < count; ++k) assert_same_geometry(sa[k], sb[k]);
	}
	return exact_rotations;
}

/* The places of bodies in the order of saving, by slot: a linear search per joint end made the
 * 19,800 joints of joint_grid cost minutes under the sanitizers. */
typedef struct body_ranks {
	const sinew_body_id *order;
	int by_slot[CAP + 1]; /* 1 + the place of the body in slot index1, 0 when none */
} body_ranks;

static void rank_bodies(body_ranks *r, const sinew_body_id *order, int count)
{
	r->order = order;
	memset(r->by_slot, 0, sizeof r->by_slot);
	for (int i = 0; i < count; ++i) {
		if (order[i].index1 > 0 && order[i].index1 <= CAP) r->by_slot[order[i].index1] = i + 1;
	}
}

/* Where body is in the order (-1: the world, or not there). */
static int rank_of(const body_ranks *r, sinew_body_id body)
{
	if (SINEW_IS_NULL(body) || body.index1 < 0 || body.index1 > CAP) return -1;
	int rank = r->by_slot[body.index1] - 1;
	return rank >= 0 && SINEW_ID_EQUALS(r->order[rank], body) ? rank : -1;
}

static void assert_same_joints(const sinew_scene *a, const sinew_scene *b)
{
	static sinew_joint_id ja[CAP], jb[CAP];
	static sinew_body_id oa[CAP], ob[CAP];
	static body_ranks ra, rb;
	rank_bodies(&ra, oa, live_bodies(a, oa, CAP));
	rank_bodies(&rb, ob, live_bodies(b, ob, CAP));
	int n = live_joints(a, ja, CAP);
	assert_int_equal(n, live_joints(b, jb, CAP));
	for (int i = 0; i < n; ++i) {
		sinew_joint_id x = ja[i], y = jb[i];
		sinew_joint_type type = sinew_joint_get_type(x);
		assert_int_equal(type, sinew_joint_get_type(y));
		assert_int_equal(SINEW_IS_NULL(sinew_joint_get_body_a(x)), SINEW_IS_NULL(sinew_joint_get_body_a(y)));
		/* the same bodies: the same places in the order of saving */
		assert_int_equal(rank_of(&ra, sinew_joint_get_body_a(x)), rank_of(&rb, sinew_joint_get_body_a(y)));
		assert_int_equal(rank_of(&ra, sinew_joint_get_body_b(x)), rank_of(&rb, sinew_joint_get_body_b(y)));
		assert_same_vec2(sinew_joint_get_local_anchor_a(x), sinew_joint_get_local_anchor_a(y));
		assert_same_vec2(sinew_joint_get_local_anchor_b(x), sinew_joint_get_local_anchor_b(y));
		assert_same_vec2(sinew_joint_get_local_axis_a(x), sinew_joint_get_local_axis_a(y));
		assert_same_float(sinew_joint_get_reference_angle(x), sinew_joint_get_reference_angle(y));
		if (type == SINEW_PIN_JOINT || type == SINEW_REVOLUTE_JOINT) {
			assert_same_float(sinew_joint_get_swing_reference(x), sinew_joint_get_swing_reference(y));
		}
		sinew_joint_limit la = sinew_joint_get_limit(x), lb = sinew_joint_get_limit(y);
		assert_int_equal(la.enabled, lb.enabled);
		if (la.enabled) {
			assert_same_float(la.lower, lb.lower);
			assert_same_float(la.upper, lb.upper);
			assert_int_equal(la.frame, lb.frame);
		}
		sinew_joint_motor ma = sinew_joint_get_motor(x), mb = sinew_joint_get_motor(y);
		assert_int_equal(ma.enabled, mb.enabled);
		if (ma.enabled) {
			assert_same_float(ma.speed, mb.speed);
			assert_same_float(ma.max_effort, mb.max_effort);
		}
		sinew_joint_spring sa = sinew_joint_get_spring(x), sb = sinew_joint_get_spring(y);
		assert_int_equal(sa.enabled, sb.enabled);
		if (sa.enabled) {
			assert_same_float(sa.hertz, sb.hertz);
			assert_same_float(sa.damping_ratio, sb.damping_ratio);
			assert_same_float(sa.target, sb.target);
		}
		float f[8] = {0}, g[8] = {0};
		sinew_joint_get_break_thresholds(x, &f[0], &f[1]);
		sinew_joint_get_break_thresholds(y, &g[0], &g[1]);
		if (type == SINEW_DISTANCE_JOINT) {
			sinew_distance_joint_get_lengths(x, &f[2], &f[3], &f[4]);
			sinew_distance_joint_get_lengths(y, &g[2], &g[3], &g[4]);
		} else if (type == SINEW_WELD_JOINT) {
			sinew_weld_joint_get_softness(x, &f[2], &f[3], &f[4], &f[5]);
			sinew_weld_joint_get_softness(y, &g[2], &g[3], &g[4], &g[5]);
		} else if (type == SINEW_PIN_JOINT) {
			sinew_pin_joint_get_softness(x, &f[2], &f[3]);
			sinew_pin_joint_get_softness(y, &g[2], &g[3]);
		}
		for (int k = 0; k < 8; ++k) assert_same_float(f[k], g[k]);
		assert_int_equal(sinew_joint_get_collide_connected(x), sinew_joint_get_collide_connected(y));
		assert_int_equal(sinew_joint_is_enabled(x), sinew_joint_is_enabled(y));
	}
}

static void for_each_reference_scene(void (*fn)(const char *path))
{
	glob_t g;
	assert_int_equal(glob("scenes/*.json", 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 10);
	for (size_t i = 0; i < g.gl_pathc; ++i) fn(g.gl_pathv[i]);
	globfree(&g);
}

/* ---- reference scenes ---- */

/* A saved file (loaded) saves to itself: everything reads back bit for bit, rotations included. */
static void assert_saves_to_itself(const sinew_scene *copy)
{
	sinew_scene *again = round_trip(copy, NULL);
	/* every live body: the file's and the ones rigs make (their proxies) */
	assert_int_equal(assert_same_bodies(copy, again), sinew_world_get_counters(sinew_scene_get_world(copy)).body_count);
	assert_same_joints(copy, again);
	sinew_scene_destroy(again);
}

/* Saved after 60 steps, the original reads back bit for bit. */
static void read_back_after_60(const sinew_scene *original)
{
	sinew_scene *copy = round_trip(original, NULL);
	int exact = assert_same_bodies(original, copy);
	assert_same_joints(original, copy);
	assert_int_equal(sinew_scene_get_default_steps(copy), sinew_scene_get_default_steps(original) - 60);
	print_message("  %-24s %4d bodies, %4d rotations bit for bit\n", sinew_scene_get_name(original),
	              sinew_scene_get_body_count(original), exact);
	assert_saves_to_itself(copy);
	sinew_scene_destroy(copy);
}

/* Both checks of a reference scene on one run of the original (stepping it twice from the start,
 * once for each, was the most of this test's time: joint_grid under the sanitizers): saved before
 * its first step, the copy steps to the same hash as the original after min(120, the scene's steps)
 * steps; saved after 60 steps, it reads back bit for bit (read_back_after_60). */
static void reference_scene_round_trips(const char *path)
{
	sinew_scene *original = load_file(path);
	sinew_scene *copy = round_trip(original, NULL);
	assert_same_bodies(original, copy);
	assert_same_joints(original, copy);
	int steps = sinew_scene_get_default_steps(original);
	if (steps > 120) steps = 120;
	assert_int_equal(sinew_scene_get_default_steps(copy), sinew_scene_get_default_steps(original));
	int last = steps > 60 ? steps : 60;
	uint64_t h1 = sinew_world_get_hash(sinew_scene_get_world(original));
	for (int i = 1; i <= last; ++i) {
		assert_true(sinew_scene_step(original));
		if (i <= steps) assert_true(sinew_scene_step(copy));
		if (i == steps) h1 = sinew_world_get_hash(sinew_scene_get_world(original));
		if (i == 60) read_back_after_60(original); /* reads the original, changes nothing of it */
	}
	uint64_t h2 = sinew_world_get_hash(sinew_scene_get_world(copy));
	if (h1 != h2) fail_msg("%s: hash after %d steps %016llx, saved copy %016llx", path, steps, (unsigned long long)h1,
	                       (unsigned long long)h2);
	sinew_scene_destroy(copy);
	sinew_scene_destroy(original);
}

static void test_reference_scenes_round_trip(void **state)
{
	(void)state;
	for_each_reference_scene(reference_scene_round_trips);
}

/* ---- hand-written cases ---- */

static const char *const SHAPES_SCENE =
	"{\"sinew_scene\": 1, \"world\": {\"hz\": 50, \"substeps\": 3, \"steps\": 90, \"sleep\": false, \"gravity\": [0.5, -9.81]},\n"
	" \"bodies\": [\n"
	"  {\"type\": \"static\", \"shapes\": [{\"type\": \"box\", \"half_extents\": [20, 0.5], \"center\": [0, -0.5]}]},\n"
	"  {\"name\": \"all\", \"position\": [0.1, 3.3], \"angle\": 17.3, \"linear_velocity\": [0.7, -0.2],\n"
	"   \"angular_velocity\": -33.3, \"linear_damping\": 0.1, \"angular_damping\": 0.2, \"gravity_scale\": 0.9,\n"
	"   \"bullet\": true, \"can_sleep\": false, \"mass\": 3.7, \"layer\": 3, \"mask\": 5, \"shapes\": [\n"
	"    {\"type\": \"circle\", \"radius\": 0.3, \"center\": [0.2, 0.1], \"density\": 2.5, \"friction\": 0.3},\n"
	"    {\"type\": \"capsule\", \"center1\": [-0.5, 0], \"center2\": [0.5, 0.1], \"radius\": 0.15, \"restitution\": 0.4},\n"
	"    {\"type\": \"capsule\", \"height\": 1.3, \"radius\": 0.2, \"center\": [0.3, -0.2], \"angle\": 33},\n"
	"    {\"type\": \"box\", \"half_extents\": [0.3, 0.2], \"center\": [0.1, 0.7], \"angle\": 21.7, \"sensor\": true},\n"
	"    {\"type\": \"box\", \"half_extents\": [0.4, 0.3], \"center\": [-0.3, 0.1], \"angle\": -70.1, \"radius\": 0.05, \"name\": \"rounded\"},\n"
	"    {\"type\": \"polygon\", \"vertices\": [[0, 0], [0.6, 0.1], [0.7, 0.5], [0.3, 0.9], [-0.1, 0.4]], \"radius\": 0.02},\n"
	"    {\"type\": \"polygon\", \"vertices\": [[-1, -1], [-0.4, -1.1], [-0.6, -0.5]], \"layer\": 2}]},\n"
	"  {\"type\": \"kinematic\", \"position\": [3, 1], \"linear_velocity\": [-1, 0], \"shapes\": [{\"type\": \"box\", \"half_extents\": [0.5, 0.1]}]},\n"
	"  {\"position\": [-3, 1], \"fixed_rotation\": true, \"awake\": false, \"shapes\": [{\"type\": \"box\", \"half_extents\": [0.5, 0.5]}]},\n"
	"  {\"position\": [-6, 1], \"enabled\": false, \"inertia\": 0.7, \"shapes\": [{\"type\": \"circle\", \"radius\": 0.5}]}\n"
	" ]}\n";

static void test_every_shape_kind(void **state)
{
	(void)state;
	sinew_scene *original = load_text(SHAPES_SCENE, "shapes.json");
	char *text = NULL;
	sinew_scene *copy = round_trip(original, &text);
	/* a rounded, turned box comes back as a box; a pentagon as a polygon */
	assert_non_null(strstr(text, "\"rounded\""));
	assert_non_null(strstr(text, "\"polygon\""));
	int boxes = 0;
	for (const char *p = text; (p = strstr(p, "\"box\"")) != NULL; ++p) boxes += 1;
	assert_int_equal(boxes, 5);
	free(text);
	assert_same_bodies(original, copy);
	assert_true(sinew_scene_get_hz(copy) == 50.0f);
	assert_int_equal(sinew_scene_get_substeps(copy), 3);
	assert_same_vec2(sinew_world_get_gravity(sinew_scene_get_world(copy)), sinew_v2(0.5f, -9.81f));
	assert_false(SINEW_IS_NULL(sinew_scene_find_shape(copy, "rounded")));
	step_scene(original, 90);
	step_scene(copy, 90);
	assert_true(sinew_world_get_hash(sinew_scene_get_world(original)) ==
	            sinew_world_get_hash(sinew_scene_get_world(copy)));
	sinew_scene *later = round_trip(original, NULL);
	assert_same_bodies(original, later);
	sinew_scene_destroy(later);
	sinew_scene_destroy(copy);
	sinew_scene_destroy(original);
}

static const char *const JOINTS_SCENE =
	"{\"sinew_scene\": 1, \"world\": {\"steps\": 240},\n"
	" \"bodies\": [\n"
	"  {\"name\": \"ground\", \"type\": \"static\", \"shapes\": [{\"type\": \"box\", \"half_extents\": [30, 0.5], \"center\": [0, -0.5]}]},\n"
	"  {\"name\": \"a\", \"position\": [0, 4], \"angle\": 10, \"shapes\": [{\"type\": \"box\", \"half_extents\": [0.5, 0.1]}]},\n"
	"  {\"name\": \"b2\", \"position\": [1.2, 4.1], \"angle\": -20, \"shapes\": [{\"type\": \"box\", \"half_extents\": [0.5, 0.1]}]},\n"
	"  {\"name\": \"c\", \"position\": [3, 4], \"shapes\": [{\"type\": \"circle\", \"radius\": 0.3}]},\n"
	"  {\"name\": \"d\", \"position\": [5, 4], \"angle\": 30, \"shapes\": [{\"type\": \"box\", \"half_extents\": [0.3, 0.3]}]},\n"
	"  {\"name\": \"e\", \"position\": [7, 2], \"shapes\": [{\"type\": \"box\", \"half_extents\": [0.6, 0.2]}]},\n"
	"  {\"name\": \"f\", \"position\": [7, 1.2], \"shapes\": [{\"type\": \"circle\", \"radius\": 0.4}]},\n"
	"  {\"name\": \"g\", \"position\": [10, 4], \"shapes\": [{\"type\": \"box\", \"half_extents\": [0.3, 0.3]}]}\n"
	" ],\n"
	" \"joints\": [\n"
	"  {\"name\": \"pin\", \"type\": \"pin\", \"body_b\": \"a\", \"anchor\": [-0.4, 4], \"softness\": 0.01, \"bias\": 5,\n"
	"   \"limit\": {\"lower\": -60, \"upper\": 45}, \"motor\": {\"speed\": 12}},\n"
	"  {\"type\": \"revolute\", \"body_a\": \"a\", \"body_b\": \"b2\", \"anchor\": [0.6, 4.05], \"break_force\": 1e6,\n"
	"   \"limit\": {\"lower\": -30, \"upper\": 50, \"frame\": \"world\"}, \"motor\": {\"speed\": 90, \"max_torque\": 3},\n"
	"   \"spring\": {\"hertz\": 2, \"damping_ratio\": 0.3, \"target\": 15}, \"collide_connected\": true},\n"
	"  {\"name\": \"rev2\", \"type\": \"revolute\", \"body_b\": \"c\", \"anchor\": [2.5, 4.2], \"reference_angle\": 12.5},\n"
	"  {\"name\": \"slide\", \"type\": \"prismatic\", \"body_a\": \"c\", \"body_b\": \"d\", \"anchor\": [5, 4], \"axis\": [1, 0.3],\n"
	"   \"limit\": {\"lower\": -0.5, \"upper\": 1.5}, \"motor\": {\"speed\": 0.5, \"max_force\": 20}, \"spring\": {\"hertz\": 1, \"damping_ratio\": 0.7, \"target\": 0.2}},\n"
	"  {\"name\": \"weld\", \"type\": \"weld\", \"body_a\": \"d\", \"body_b\": \"g\", \"anchor\": [7.5, 4], \"linear_hertz\": 5,\n"
	"   \"angular_hertz\": 3, \"linear_damping_ratio\": 0.5, \"angular_damping_ratio\": 0.9, \"break_torque\": 1e5},\n"
	"  {\"name\": \"rope\", \"type\": \"distance\", \"body_b\": \"g\", \"anchor_a\": [12, 6], \"anchor_b\": [10.2, 4.1],\n"
	"   \"length\": 2.5, \"min_length\": 0.5, \"max_length\": 3, \"spring\": {\"hertz\": 3, \"damping_ratio\": 0.2}, \"motor\": {\"speed\": 0.1, \"max_force\": 5}},\n"
	"  {\"name\": \"wheel\", \"type\": \"wheel\", \"body_a\": \"e\", \"body_b\": \"f\", \"anchor\": [7, 1.2], \"axis\": [0, 1],\n"
	"   \"spring\": {\"hertz\": 4, \"damping_ratio\": 0.7}, \"limit\": {\"lower\": -0.3, \"upper\": 0.3}, \"motor\": {\"speed\": -180, \"max_torque\": 10}},\n"
	"  {\"name\": \"off\", \"type\": \"distance\", \"body_a\": \"ground\", \"body_b\": \"e\", \"anchor_a\": [7, 5], \"anchor_b\": [7, 2], \"enabled\": false}\n"
	" ]}\n";

static void test_every_joint_type_keeps_its_authored_frames(void **state)
{
	(void)state;
	sinew_scene *original = load_text(JOINTS_SCENE, "joints.json");
	sinew_scene *authored = load_text(JOINTS_SCENE, "joints.json");
	sinew_scene *copy = round_trip(original, NULL);
	assert_same_bodies(original, copy);
	assert_same_joints(original, copy);
	step_scene(original, 120);
	step_scene(copy, 120);
	assert_true(sinew_world_get_hash(sinew_scene_get_world(original)) ==
	            sinew_world_get_hash(sinew_scene_get_world(copy)));
	/* the bodies have moved: the world anchors of the file no longer say the frames */
	sinew_body_id a = sinew_scene_find_body(original, "a");
	assert_true(sinew_length(sinew_sub(sinew_body_get_position(a), sinew_v2(0.0f, 4.0f))) > 0.1f);
	sinew_scene *later = round_trip(original, NULL);
	assert_same_bodies(original, later);
	assert_same_joints(original, later);
	assert_same_joints(authored, later); /* ... yet they are the frames it was authored with */
	assert_int_equal(sinew_scene_get_named_body_count(later), sinew_scene_get_named_body_count(original));
	sinew_scene_destroy(later);
	sinew_scene_destroy(copy);
	sinew_scene_destroy(authored);
	sinew_scene_destroy(original);
}

/* A joint authored from local frames alone (no world anchor or axis) is made with those frames. */
static void test_local_frames_in_a_file(void **state)
{
	(void)state;
	const char *text =
		"{\"sinew_scene\": 1, \"bodies\": [\n"
		"  {\"name\": \"a\", \"position\": [1, 2], \"angle\": 90, \"shapes\": [{\"type\": \"circle\", \"radius\": 0.2}]},\n"
		"  {\"name\": \"b\", \"position\": [3, 2], \"shapes\": [{\"type\": \"circle\", \"radius\": 0.2}]}],\n"
		" \"joints\": [\n"
		"  {\"name\": \"p\", \"type\": \"prismatic\", \"body_a\": \"a\", \"body_b\": \"b\", \"local_anchor_a\": [0.5, 0],\n"
		"   \"local_anchor_b\": [-0.5, 0.25], \"local_axis_a\": [0, 2], \"reference_angle\": 45},\n"
		"  {\"name\": \"d\", \"type\": \"distance\", \"body_b\": \"b\", \"local_anchor_a\": [3, 5], \"local_anchor_b\": [0, 0.1]},\n"
		"  {\"name\": \"r\", \"type\": \"revolute\", \"body_a\": \"a\", \"body_b\": \"b\", \"local_anchor_a\": [1, 1],\n"
		"   \"local_anchor_b\": [0, 0], \"swing_reference\": 30}]}\n";
	sinew_scene *scene = load_text(text, "local.json");
	sinew_joint_id p = sinew_scene_find_joint(scene, "p");
	assert_same_vec2(sinew_joint_get_local_anchor_a(p), sinew_v2(0.5f, 0.0f));
	assert_same_vec2(sinew_joint_get_local_anchor_b(p), sinew_v2(-0.5f, 0.25f));
	assert_same_vec2(sinew_joint_get_local_axis_a(p), sinew_v2(0.0f, 1.0f));
	assert_same_float(sinew_joint_get_reference_angle(p), (float)(3.14159265358979323846 / 4.0));
	sinew_joint_id d = sinew_scene_find_joint(scene, "d");
	float length = 0.0f;
	assert_true(sinew_distance_joint_get_lengths(d, &length, NULL, NULL));
	assert_float_equal(length, sqrtf(0.0f + 2.9f * 2.9f), 1e-5f); /* (3, 5) to (3, 2.1) */
	sinew_joint_id r = sinew_scene_find_joint(scene, "r");
	assert_float_equal(sinew_joint_get_swing_reference(r), 3.14159265f / 6.0f, 1e-6f);
	sinew_scene_destroy(scene);

	char error[512] = "";
	const char *bad =
		"{\"sinew_scene\": 1, \"bodies\": [{\"name\": \"b\"}],\n"
		" \"joints\": [{\"type\": \"pin\", \"body_b\": \"b\", \"local_anchor_a\": [0, 0]}]}";
	assert_null(sinew_scene_load_string(bad, "bad.json", error, sizeof error));
	assert_non_null(strstr(error, "joints[0].local_anchor_a: give local_anchor_a and local_anchor_b together"));
	const char *concave =
		"{\"sinew_scene\": 1, \"bodies\": [{\"shapes\": [{\"type\": \"polygon\",\n"
		" \"vertices\": [[0, 0], [1, 0], [0.2, 0.2], [0, 1]]}]}]}";
	assert_null(sinew_scene_load_string(concave, "concave.json", error, sizeof error));
	assert_non_null(strstr(error, "bodies[0].shapes[0].vertices: expected a convex polygon"));
}

/* A scene whose script destroyed a body saves without it; its joints go too. */
static void test_destroyed_things_are_left_out(void **state)
{
	(void)state;
	sinew_scene *scene = load_file("scenes/breakable.json");
	step_scene(scene, 121); /* the script destroys joint cut_glue before step 120 */
	assert_false(sinew_joint_is_valid(sinew_scene_find_joint(scene, "cut_glue")));
	sinew_scene *copy = round_trip(scene, NULL);
	assert_true(SINEW_IS_NULL(sinew_scene_find_joint(copy, "cut_glue")));
	assert_same_joints(scene, copy);
	assert_same_bodies(scene, copy);
	sinew_scene_destroy(copy);
	sinew_scene_destroy(scene);
}

/* ---- spawned bodies and joints ---- */

/* A cart template (a chassis with its mass overridden, an arm with its inertia overridden, two
 * wheels on a revolute and a wheel joint, the arm on a prismatic, and a crate on no joint) that
 * does not self-collide,
 * spawned into a group, destroyed and spawned again so that slots are reused. The file's own
 * body "spawned_0" takes the name the saver would give the first spawned body. */
static const char *const CARTS_SCENE =
	"{\"sinew_scene\": 1, \"world\": {\"steps\": 200},\n"
	" \"bodies\": [\n"
	"  {\"name\": \"ground\", \"type\": \"static\", \"shapes\": [{\"type\": \"box\", \"half_extents\": [40, 0.5], \"center\": [0, -0.5]}]},\n"
	"  {\"name\": \"spawned_0\", \"position\": [-20, 3], \"shapes\": [{\"type\": \"circle\", \"radius\": 0.3}]}],\n"
	" \"joints\": [{\"type\": \"distance\", \"body_a\": \"ground\", \"body_b\": \"spawned_0\", \"anchor_a\": [-20, 5], \"anchor_b\": [-20, 3]}],\n"
	" \"templates\": [{\"name\": \"cart\", \"self_collide\": false,\n"
	"   \"bodies\": [\n"
	"    {\"name\": \"chassis\", \"position\": [0, 1], \"mass\": 5, \"shapes\": [\n"
	"      {\"type\": \"box\", \"half_extents\": [1, 0.25], \"friction\": 0.7},\n"
	"      {\"type\": \"box\", \"half_extents\": [0.3, 0.2], \"center\": [0.4, 0.4], \"angle\": 10, \"density\": 3}]},\n"
	"    {\"name\": \"wl\", \"position\": [-0.7, 0.5], \"shapes\": [{\"type\": \"circle\", \"radius\": 0.3, \"density\": 2}]},\n"
	"    {\"name\": \"wr\", \"position\": [0.7, 0.5], \"shapes\": [{\"type\": \"circle\", \"radius\": 0.3},\n"
	"      {\"type\": \"box\", \"half_extents\": [0.1, 0.07], \"center\": [0.13, 0.11], \"density\": 1.3},\n"
	"      {\"type\": \"circle\", \"radius\": 0.07, \"center\": [-0.17, 0.05], \"density\": 0.7}]},\n"
	"    {\"name\": \"arm\", \"position\": [0, 1.8], \"angle\": 20, \"inertia\": 0.05,\n"
	"     \"shapes\": [{\"type\": \"capsule\", \"center1\": [0, -0.4], \"center2\": [0, 0.4], \"radius\": 0.1}]},\n"
	"    {\"name\": \"crate\", \"position\": [2, 0.2], \"shapes\": [{\"type\": \"box\", \"half_extents\": [0.2, 0.2]}]}],\n"
	"   \"joints\": [\n"
	"    {\"type\": \"revolute\", \"body_a\": \"chassis\", \"body_b\": \"wl\", \"anchor\": [-0.7, 0.5],\n"
	"     \"motor\": {\"speed\": -90, \"max_torque\": 5}},\n"
	"    {\"type\": \"wheel\", \"body_a\": \"chassis\", \"body_b\": \"wr\", \"anchor\": [0.7, 0.5], \"axis\": [0, 1],\n"
	"     \"spring\": {\"hertz\": 4, \"damping_ratio\": 0.7}},\n"
	"    {\"type\": \"prismatic\", \"body_a\": \"chassis\", \"body_b\": \"arm\", \"anchor\": [0, 1.4], \"axis\": [0, 1],\n"
	"     \"limit\": {\"lower\": -0.1, \"upper\": 0.3}}]}],\n"
	" \"script\": [\n"
	"   {\"step\": 0, \"op\": \"spawn\", \"template\": \"cart\", \"group\": \"a\", \"at\": [[-6, 0], [0, 0.5]]},\n"
	"   {\"step\": 0, \"op\": \"spawn\", \"template\": \"cart\", \"at\": [[6, 0]]},\n"
	"   {\"step\": 3, \"op\": \"destroy_group\", \"group\": \"a\"},\n"
	"   {\"step\": 4, \"op\": \"spawn\", \"template\": \"cart\", \"group\": \"a\", \"at\": [[-10, 2]]}]}\n";

static int count_of(const char *text, const char *key)
{
	int n = 0;
	for (const char *p = text; (p = strstr(p, key)) != NULL; ++p) n += 1;
	return n;
}

/* The copy has as many bodies and joints as the live world, all read back bit for bit. */
static void assert_whole_world_saved(const sinew_scene *original, const sinew_scene *copy)
{
	sinew_counters c1 = sinew_world_get_counters(sinew_scene_get_world(original));
	sinew_counters c2 = sinew_world_get_counters(sinew_scene_get_world(copy));
	assert_int_equal(c1.body_count, c2.body_count);
	assert_int_equal(c1.joint_count, c2.joint_count);
	assert_int_equal(c1.shape_count, c2.shape_count);
	assert_same_bodies(original, copy);
	assert_same_joints(original, copy);
}

/* Spawned at step 0 and saved right after that step: the saved file makes the whole world, bit for
 * bit. What the live world keeps between steps is not saved (warm starts, sleep timers), so the
 * exact continuation is that of the saved file itself: it saves to the same text, and runs as its
 * own copy does. */
static void test_spawned_bodies_are_saved(void **state)
{
	(void)state;
	sinew_scene *original = load_text(CARTS_SCENE, "carts.json");
	step_scene(original, 1);
	assert_int_equal(sinew_world_get_counters(sinew_scene_get_world(original)).body_count, 2 + 3 * 5);
	char *text = NULL;
	sinew_scene *copy = round_trip(original, &text);
	assert_whole_world_saved(original, copy);
	assert_int_equal(sinew_scene_get_body_count(copy), 2 + 3 * 5);
	assert_int_equal(sinew_scene_get_joint_count(copy), 1 + 3 * 3);
	/* no templates or script; a body's overridden mass is written, the others' not */
	assert_null(strstr(text, "\"templates\""));
	assert_null(strstr(text, "\"script\""));
	assert_int_equal(count_of(text, "\"mass\""), 3 * 2);
	/* the first spawned body is named around the file's "spawned_0"; each body a joint needs has a
	 * name, the crates none */
	assert_non_null(strstr(text, "\"spawned_0_\""));
	assert_false(SINEW_IS_NULL(sinew_scene_find_body(copy, "spawned_0")));
	assert_int_equal(sinew_scene_get_named_body_count(copy), 2 + 3 * 4);
	char *again = NULL;
	sinew_scene *copy2 = round_trip(copy, &again);
	assert_string_equal(text, again);
	step_scene(copy, 100);
	step_scene(copy2, 100);
	assert_true(sinew_world_get_hash(sinew_scene_get_world(copy)) ==
	            sinew_world_get_hash(sinew_scene_get_world(copy2)));
	free(again);
	free(text);
	sinew_scene_destroy(copy2);
	sinew_scene_destroy(copy);
	sinew_scene_destroy(original);
}

/* After a group was destroyed and spawned again (its bodies and joints reuse the freed slots) and
 * the carts have driven for a while, the saved file still makes the whole world bit for bit, and
 * saves to itself. */
static void test_spawned_bodies_are_saved_after_stepping(void **state)
{
	(void)state;
	sinew_scene *original = load_text(CARTS_SCENE, "carts.json");
	step_scene(original, 60);
	assert_int_equal(sinew_world_get_counters(sinew_scene_get_world(original)).body_count, 2 + 2 * 5);
	assert_int_equal(sinew_scene_get_error_count(original), 0);
	char *text = NULL;
	sinew_scene *copy = round_trip(original, &text);
	assert_whole_world_saved(original, copy);
	assert_int_equal(count_of(text, "\"mass\""), 2 * 2);
	free(text);
	assert_saves_to_itself(copy);
	sinew_scene_destroy(copy);
	sinew_scene_destroy(original);
}

/* The rain benchmark's world, with humans spawned into four columns, reads back whole. */
static void test_rain_reads_back(void **state)
{
	(void)state;
	sinew_scene *original = load_file("scenes/bench/rain.json");
	step_scene(original, 25);
	assert_int_equal(sinew_world_get_counters(sinew_scene_get_world(original)).body_count, 5 + 4 * 25 * 11);
	sinew_scene *copy = round_trip(original, NULL);
	assert_whole_world_saved(original, copy);
	sinew_scene_destroy(copy);
	sinew_scene_destroy(original);
}

static void test_save_to_a_file(void **state)
{
	(void)state;
	sinew_scene *scene = load_file("scenes/revolute.json");
	char path[] = "/tmp/sinew_test_save_XXXXXX.json";
	int fd = mkstemps(path, 5);
	assert_true(fd >= 0);
	char error[512] = "";
	assert_true(sinew_scene_save(scene, path, error, sizeof error));
	sinew_scene *copy = load_file(path);
	assert_same_bodies(scene, copy);
	assert_same_joints(scene, copy);
	sinew_scene_destroy(copy);
	remove(path);
	assert_false(sinew_scene_save(scene, "/nonexistent-dir/x.json", error, sizeof error));
	assert_non_null(strstr(error, "/nonexistent-dir/x.json: cannot write the file"));
	sinew_scene_destroy(scene);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_scenes_round_trip),
		cmocka_unit_test(test_every_shape_kind),
		cmocka_unit_test(test_every_joint_type_keeps_its_authored_frames),
		cmocka_unit_test(test_local_frames_in_a_file),
		cmocka_unit_test(test_destroyed_things_are_left_out),
		cmocka_unit_test(test_spawned_bodies_are_saved),
		cmocka_unit_test(test_spawned_bodies_are_saved_after_stepping),
		cmocka_unit_test(test_rain_reads_back),
		cmocka_unit_test(test_save_to_a_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
