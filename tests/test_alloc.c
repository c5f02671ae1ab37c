/* A world that has reached its size steps without allocating. Counted through the allocator hooks. */
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pyramid_steps_without_allocating),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
