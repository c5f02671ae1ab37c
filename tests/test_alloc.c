/* A world that has reached its size steps without allocating. Counted through the allocator hooks. */
#include "sinew/draw.h"
#include "support.h"

#include <stdlib.h>
#include <string.h>

typedef struct counter {
	long allocs, reallocs, frees;
} counter;

static counter s_count;

static void *count_alloc(size_t size, void *context)
{
	(void)context;
	s_count.allocs += 1;
	return malloc(size);
}

static void *count_realloc(void *p, size_t size, void *context)
{
	(void)context;
	s_count.reallocs += 1;
	return realloc(p, size);
}

static void count_free(void *p, void *context)
{
	(void)context;
	s_count.frees += 1;
	free(p);
}

static void pyramid_steps_without_allocating(void **state)
{
	(void)state;
	sinew_allocator hooks = {count_alloc, count_realloc, count_free, NULL};
	assert_true(sinew_set_allocator(&hooks));
	sinew_world_id world = make_world(NULL);
	make_ground(world, 0.0f, 0.6f);
	for (int row = 0; row < 20; ++row)
		for (int j = 0; j < 20 - row; ++j)
			make_box(world, (float)j - 0.5f * (float)(19 - row), 0.5f + (float)row, 0.5f, 0.5f, 1.0f, 0.6f);
	sinew_world_enable_sleep(world, false); /* keep every body in the solve */
	step_n(world, 30);                      /* warm-up: scratch arrays reach their size */
	counter before = s_count;
	step_n(world, 100);
	assert_int_equal(s_count.allocs, before.allocs);
	assert_int_equal(s_count.reallocs, before.reallocs);
	assert_int_equal(s_count.frees, before.frees);
	assert_int_equal(sinew_world_get_counters(world).awake_body_count, 210);
	/* and a world that comes to rest and sleeps does not allocate either */
	sinew_world_enable_sleep(world, true);
	step_n(world, 200);
	before = s_count;
	step_n(world, 100);
	assert_int_equal(s_count.allocs + s_count.reallocs, before.allocs + before.reallocs);
	sinew_destroy_world(world);
	assert_int_equal(s_count.allocs, s_count.frees); /* everything given back */
	assert_true(sinew_set_allocator(NULL));
}

/* ---- allocation failure (issue 15): fail the N-th allocation, for every N ---- */

typedef struct failing {
	long calls;   /* allocations and growing reallocations so far */
	long fail_at; /* the call that fails (1-based); 0: none */
	long live;    /* blocks handed out and not freed */
	long failed;  /* how many calls failed */
} failing;

static failing s_fail;

static bool should_fail(void)
{
	s_fail.calls += 1;
	if (s_fail.fail_at != 0 && s_fail.calls == s_fail.fail_at) {
		s_fail.failed += 1;
		return true;
	}
	return false;
}

static void *fail_alloc(size_t size, void *context)
{
	(void)context;
	if (should_fail()) return NULL;
	void *p = malloc(size);
	if (p != NULL) s_fail.live += 1;
	return p;
}

static void *fail_realloc(void *p, size_t size, void *context)
{
	(void)context;
	if (should_fail()) return NULL;
	return realloc(p, size);
}

static void fail_free(void *p, void *context)
{
	(void)context;
	if (p != NULL) s_fail.live -= 1;
	free(p);
}

static void quiet(sinew_error code, const char *message, void *context)
{
	(void)message;
	int *out_of_memory = context;
	if (code == SINEW_ERROR_OUT_OF_MEMORY) *out_of_memory += 1;
}

static bool count_shape(sinew_shape_id shape, void *context)
{
	(void)shape;
	*(int *)context += 1;
	return true;
}

static float clip_ray(const sinew_ray_hit *hit, void *context)
{
	(void)context;
	return hit->fraction;
}

static void draw_nothing(sinew_vec2 p1, sinew_vec2 p2, sinew_color color, void *context)
{
	(void)p1, (void)p2, (void)color, (void)context;
}

/* Every public entry point outside sinew_world_step that changes a world or walks it (island
 * walks, broadphase moves, queries' stacks, drawing, the origin shift, destruction), once each,
 * then two more steps. Whichever of their allocations fails must be refused or reported, never
 * abort (core.h: a growth with no guard aborts). */
static void tour(sinew_scene *scene)
{
	sinew_world_id w = sinew_scene_get_world(scene);
	sinew_body_id bodies[64];
	int n = sinew_world_get_bodies(w, bodies, 64);
	if (n > 64) n = 64;
	for (int i = 0; i < n; ++i) sinew_body_set_awake(bodies[i], false);
	for (int i = 0; i < n; ++i) sinew_body_set_awake(bodies[i], true);
	sinew_body_id b = bodies[n - 1];
	sinew_body_set_transform(b, sinew_add(sinew_body_get_position(b), sinew_v2(0.5f, 0.5f)), 0.3f);
	sinew_body_set_linear_velocity(b, sinew_v2(1.0f, 0.0f));
	sinew_body_apply_mass_from_shapes(b);
	sinew_shape_id shapes[4];
	if (sinew_body_get_shapes(b, shapes, 4) > 0) {
		sinew_shape_set_filter(shapes[0], 1u, ~0u);
		sinew_shape_set_group(shapes[0], 3u);
		sinew_shape_set_density(shapes[0], 2.0f, true);
	}
	sinew_joint_id joints[16];
	int m = sinew_world_get_joints(w, joints, 16);
	if (m > 16) m = 16;
	for (int i = 0; i < m; ++i) {
		sinew_joint_set_enabled(joints[i], false);
		sinew_joint_set_enabled(joints[i], true);
		sinew_joint_set_collide_connected(joints[i], true);
		sinew_joint_rebuild(joints[i]);
	}
	sinew_query_filter filter = sinew_default_query_filter();
	sinew_ray_hit hits[8];
	int count = 0;
	sinew_world_cast_ray_closest(w, sinew_v2(-50.0f, 1.0f), sinew_v2(100.0f, 0.0f), &filter);
	sinew_world_cast_ray_all(w, sinew_v2(-50.0f, 1.0f), sinew_v2(100.0f, 0.0f), &filter, hits, 8);
	sinew_world_cast_ray(w, sinew_v2(-50.0f, 1.0f), sinew_v2(100.0f, 0.0f), &filter, clip_ray, NULL);
	sinew_aabb everywhere = {{-1000.0f, -1000.0f}, {1000.0f, 1000.0f}};
	sinew_world_overlap_aabb(w, everywhere, &filter, count_shape, &count);
	sinew_world_overlap_point(w, sinew_body_get_position(b), &filter, count_shape, &count);
	sinew_geometry g = {.type = SINEW_SHAPE_CIRCLE, .u.circle = {{0.0f, 0.0f}, 0.5f}};
	sinew_transform at = {sinew_body_get_position(b), sinew_rot_identity()};
	sinew_world_overlap_shape(w, &g, at, &filter, count_shape, &count);
	sinew_world_cast_shape(w, &g, at, sinew_v2(0.0f, -10.0f), &filter);
	sinew_world_cast_body(w, b, sinew_v2(0.0f, -10.0f), &filter);
	float safe, unsafe;
	sinew_world_cast_motion(w, &g, at, sinew_v2(0.0f, -10.0f), &filter, &safe, &unsafe);
	sinew_world_cast_body_motion(w, b, sinew_v2(0.0f, -10.0f), &filter, &safe, &unsafe);
	sinew_debug_draw draw = sinew_default_debug_draw();
	draw.draw_segment = draw_nothing;
	sinew_world_draw(w, &draw);
	sinew_world_shift_origin(w, sinew_v2(3.0f, 1.0f));
	sinew_world_shift_origin(w, sinew_v2(-3.0f, -1.0f));
	sinew_world_enable_sleep(w, false);
	sinew_world_enable_continuous(w, false);
	sinew_body_disable(b);
	sinew_body_enable(b);
	sinew_body_set_type(b, SINEW_KINEMATIC_BODY);
	sinew_body_set_type(b, SINEW_DYNAMIC_BODY);
	if (m > 0) sinew_destroy_joint(joints[0]);
	if (sinew_body_get_shapes(b, shapes, 4) > 1) sinew_destroy_shape(shapes[0], true);
	sinew_destroy_body(bodies[n / 2]);
	for (int i = 0; i < 2; ++i) sinew_scene_step(scene);
}

/* Load the scene, step it `steps` times, destroy it, with the fail_at-th allocation failing.
 * Returns how many allocations the run made. A failure must be reported as out of memory (the
 * load refused, or the engine's report counted) and nothing may leak. */
static long run_failing(const char *path, int steps, long fail_at)
{
	memset(&s_fail, 0, sizeof s_fail);
	s_fail.fail_at = fail_at;
	int out_of_memory = 0;
	sinew_set_error_callback(quiet, &out_of_memory);
	sinew_allocator hooks = {fail_alloc, fail_realloc, fail_free, NULL};
	assert_true(sinew_set_allocator(&hooks));
	char error[512];
	sinew_scene *scene = sinew_scene_load_file(path, error, sizeof error);
	if (scene == NULL) {
		if (strstr(error, "out of memory") == NULL) fail_msg("fail_at %ld: %s: %s", fail_at, path, error);
	} else {
		for (int i = 0; i < steps; ++i) sinew_scene_step(scene);
		tour(scene);
		if (s_fail.failed > 0 && out_of_memory == 0 && sinew_scene_get_error_count(scene) == 0)
			fail_msg("fail_at %ld: %s: an allocation failed and nothing was reported", fail_at, path);
		sinew_scene_destroy(scene);
	}
	if (s_fail.live != 0) fail_msg("fail_at %ld: %s: %ld blocks leaked", fail_at, path, s_fail.live);
	assert_true(sinew_set_allocator(NULL));
	sinew_set_error_callback(NULL, NULL);
	return s_fail.calls;
}

/* Every allocation of loading and stepping a scene fails in turn: each is a clean refusal or an
 * out-of-memory report, never a crash, and nothing leaks (under ASan in `make test SAN=1`). */
static void every_allocation_may_fail(void **state)
{
	(void)state;
	const char *scenes[] = {"scenes/stack10.json", "scenes/car.json", "scenes/rig_props.json", "scenes/harness.json",
	                        "scenes/breakable.json"};
	for (int k = 0; k < (int)(sizeof scenes / sizeof scenes[0]); ++k) {
		/* the tour straight after loading too: arrays a step would have grown are still small */
		for (int steps = 0; steps <= 40; steps += 40) {
			long total = run_failing(scenes[k], steps, 0);
			assert_true(total > 20);
			for (long n = 1; n <= total; ++n) run_failing(scenes[k], steps, n);
		}
	}
}

/* body_capacity = INT_MAX is refused up front, not overflowed into a huge allocation. */
static void huge_body_capacity_is_refused(void **state)
{
	(void)state;
	sinew_world_def wd = sinew_default_world_def();
	wd.body_capacity = 2147483647;
	int out_of_memory = 0;
	sinew_set_error_callback(quiet, &out_of_memory);
	assert_true(SINEW_IS_NULL(sinew_create_world(&wd)));
	sinew_set_error_callback(NULL, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pyramid_steps_without_allocating),
		cmocka_unit_test(every_allocation_may_fail),
		cmocka_unit_test(huge_body_capacity_is_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
