/* Every input the fuzzers ever crashed on (tests/fuzz/corpus/, issue 15) replayed through the
 * same harness functions `make fuzz` runs, so each stays fixed: a NaN, a sanitizer report (under
 * `make test SAN=1`) or a save that does not load back aborts this test. */
#define FUZZ_SCENE_ENTRY fuzz_scene_one
#define FUZZ_API_ENTRY fuzz_api_one
#include <stdint.h>
#include <stddef.h>
int fuzz_scene_one(const uint8_t *data, size_t size);
int fuzz_api_one(const uint8_t *data, size_t size);
#include "fuzz/fuzz_api.c"
#include "fuzz/fuzz_scene.c"
#include "support.h"

#include <dirent.h>

/* Run every file of dir through one; returns how many there were. */
static int replay(const char *dir, int (*one)(const uint8_t *, size_t))
{
	DIR *d = opendir(dir);
	assert_non_null(d);
	int count = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.') continue;
		char path[512];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		FILE *f = fopen(path, "rb");
		assert_non_null(f);
		static uint8_t data[1 << 20];
		size_t n = fread(data, 1, sizeof data, f);
		fclose(f);
		one(data, n);
		count += 1;
	}
	closedir(d);
	return count;
}

static void scene_crashes_stay_fixed(void **state)
{
	(void)state;
	assert_true(replay("tests/fuzz/corpus/scene", fuzz_scene_one) >= 1);
}

static void api_crashes_stay_fixed(void **state)
{
	(void)state;
	assert_true(replay("tests/fuzz/corpus/api", fuzz_api_one) >= 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(scene_crashes_stay_fixed),
		cmocka_unit_test(api_crashes_stay_fixed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
