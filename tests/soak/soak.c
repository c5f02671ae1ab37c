/* make soak (issue 15; not in CI): run each scene again and again for a wall-clock budget and
 * check what a long game session relies on. One cycle loads the scene, takes its world.steps
 * steps (its script spawns and destroys groups as it goes), destroys every group the script
 * spawned, and destroys the scene. Asserted:
 *   - every body is finite after every step (sinew_world_is_finite);
 *   - after the groups are destroyed, the world's body, shape and joint counts are back to what
 *     they were right after loading;
 *   - resident memory is flat: after the warm-up cycles, no cycle ends more than 5 % above the
 *     resident size at the end of the warm-up.
 * usage: soak [--minutes M] SCENE...   (M per scene, default 10; prints one line per cycle) */
#include "sinew/scene.h"

#include <jansson.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define WARM_UP_CYCLES 2

static double now_seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Resident set size in KiB (/proc/self/statm), or -1. Freed memory is handed back to the system
 * first (glibc's malloc_trim): otherwise the figure says how much the allocator kept, not how much
 * is in use (one rain run read 17.8, 7.5, then 11.3 MB after its three cycles). */
static long resident_kib(void)
{
#if defined(__GLIBC__)
	malloc_trim(0);
#endif
	FILE *f = fopen("/proc/self/statm", "r");
	if (f == NULL) return -1;
	long size = 0, resident = -1;
	if (fscanf(f, "%ld %ld", &size, &resident) != 2) resident = -1;
	fclose(f);
	return resident < 0 ? -1 : resident * (sysconf(_SC_PAGESIZE) / 1024);
}

/* The group names the file's spawn ops use (the scene API destroys a group by name). */
static int spawn_groups(const char *path, char names[][64], int capacity)
{
	json_error_t e;
	json_t *root = json_load_file(path, 0, &e);
	if (root == NULL) return -1;
	int count = 0;
	json_t *script = json_object_get(root, "script"), *op;
	size_t i;
	json_array_foreach(script, i, op) {
		const char *kind = json_string_value(json_object_get(op, "op"));
		const char *group = json_string_value(json_object_get(op, "group"));
		if (kind == NULL || group == NULL || strcmp(kind, "spawn") != 0) continue;
		bool seen = false;
		for (int k = 0; k < count; ++k) seen = seen || strcmp(names[k], group) == 0;
		if (!seen && count < capacity) snprintf(names[count++], 64, "%s", group);
	}
	json_decref(root);
	return count;
}

/* One cycle; false (after saying why) when an assertion fails. */
static bool cycle(const char *path, char groups[][64], int group_count, long *steps_taken)
{
	char error[1024];
	sinew_scene *scene = sinew_scene_load_file(path, error, sizeof error);
	if (scene == NULL) {
		fprintf(stderr, "soak: %s\n", error);
		return false;
	}
	sinew_world_id world = sinew_scene_get_world(scene);
	sinew_counters start = sinew_world_get_counters(world);
	int steps = sinew_scene_get_default_steps(scene);
	bool ok = true;
	for (int i = 0; i < steps && ok; ++i) {
		sinew_scene_step(scene);
		if (!sinew_world_is_finite(world)) {
			fprintf(stderr, "soak: %s: not finite after step %d\n", path, i);
			ok = false;
		}
	}
	*steps_taken += steps;
	for (int g = 0; g < group_count && ok; ++g) sinew_scene_destroy_group(scene, groups[g]);
	sinew_counters end = sinew_world_get_counters(world);
	if (ok && (end.body_count != start.body_count || end.shape_count != start.shape_count ||
	           end.joint_count != start.joint_count)) {
		fprintf(stderr, "soak: %s: counts not back to the start: bodies %d -> %d, shapes %d -> %d, joints %d -> %d\n",
		        path, start.body_count, end.body_count, start.shape_count, end.shape_count, start.joint_count,
		        end.joint_count);
		ok = false;
	}
	sinew_scene_destroy(scene);
	return ok;
}

static bool soak(const char *path, double minutes)
{
	char groups[256][64];
	int group_count = spawn_groups(path, groups, 256);
	if (group_count < 0) {
		fprintf(stderr, "soak: %s: cannot read the script\n", path);
		return false;
	}
	double begin = now_seconds(), budget = 60.0 * minutes;
	long steps = 0, baseline = -1, highest = 0;
	int cycles = 0;
	while (cycles < WARM_UP_CYCLES + 1 || now_seconds() - begin < budget) {
		if (!cycle(path, groups, group_count, &steps)) return false;
		cycles += 1;
		long rss = resident_kib();
		if (cycles == WARM_UP_CYCLES) baseline = rss;
		if (cycles > WARM_UP_CYCLES && rss > highest) highest = rss;
		printf("soak: %s: cycle %d, %ld steps, %.0f s, resident %ld KiB\n", path, cycles, steps, now_seconds() - begin,
		       rss);
		fflush(stdout);
	}
	double growth = baseline > 0 ? (double)(highest - baseline) / (double)baseline : 0.0;
	printf("soak: %s: %d cycles, %ld steps in %.1f min; finite throughout; counts back to the start after every "
	       "cycle; resident %ld KiB after warm-up, at most %ld KiB later (%+.1f %%)\n",
	       path, cycles, steps, (now_seconds() - begin) / 60.0, baseline, highest, 100.0 * growth);
	if (growth > 0.05) {
		fprintf(stderr, "soak: %s: resident memory grew by more than 5 %% after warm-up\n", path);
		return false;
	}
	return true;
}

int main(int argc, char **argv)
{
	double minutes = 10.0;
	int status = 0, scenes = 0;
	for (int i = 1; i < argc; ++i) {
		if (strcmp(argv[i], "--minutes") == 0 && i + 1 < argc) {
			minutes = atof(argv[++i]);
			continue;
		}
		scenes += 1;
		if (!soak(argv[i], minutes)) status = 1;
	}
	if (scenes == 0) {
		fprintf(stderr, "usage: soak [--minutes M] SCENE...\n");
		return 2;
	}
	printf("soak: %s\n", status == 0 ? "passed" : "FAILED");
	return status;
}
