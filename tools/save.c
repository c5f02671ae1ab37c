/* sinew save SCENE OUT.json [--steps N]: load a scene, step it N times (default 0) and write the
 * world as it is then as a scene file (sinew_scene_save; docs/scene-format.md, "Saving"). Exit
 * status as `sinew run`: 0 saved, 2 bad usage or bad scene, 1 anything else. */
#include "sinew/scene.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int save_command(int argc, char **argv); /* the table in tools/sinew.c */

enum { SAVE_OK = 0, SAVE_FAILED = 1, SAVE_USAGE = 2 };

static int save_usage(const char *message, const char *arg)
{
	fprintf(stderr, "sinew save: %s%s%s\n", message, arg != NULL ? ": " : "", arg != NULL ? arg : "");
	fprintf(stderr, "usage: sinew save SCENE OUT.json [--steps N]\n");
	return SAVE_USAGE;
}

static int parse_steps(const char *s)
{
	if (s == NULL || *s < '0' || *s > '9') return -1;
	char *end = NULL;
	long v = strtol(s, &end, 10);
	if (*end != 0 || v < 0 || v > 1000000000L) return -1;
	return (int)v;
}

int save_command(int argc, char **argv)
{
	const char *scene_path = NULL, *out = NULL;
	int steps = 0;
	for (int i = 1; i < argc; ++i) {
		const char *arg = argv[i];
		if (strcmp(arg, "--steps") == 0 || strncmp(arg, "--steps=", 8) == 0) {
			const char *value = arg[7] == '=' ? arg + 8 : (i + 1 < argc ? argv[++i] : NULL);
			steps = parse_steps(value);
			if (steps < 0) return save_usage("--steps needs a whole number >= 0", value);
		} else if (arg[0] == '-' && arg[1] != 0) {
			return save_usage("unknown option", arg);
		} else if (scene_path == NULL) {
			scene_path = arg;
		} else if (out == NULL) {
			out = arg;
		} else {
			return save_usage("extra argument", arg);
		}
	}
	if (scene_path == NULL || out == NULL) return save_usage("expected a scene file and an output file", NULL);
	char error[1024];
	sinew_scene *scene = sinew_scene_load_file(scene_path, error, sizeof error);
	if (scene == NULL) {
		fprintf(stderr, "%s\n", error);
		return SAVE_USAGE;
	}
	int status = SAVE_OK;
	for (int i = 0; i < steps; ++i) sinew_scene_step(scene);
	if (sinew_scene_get_error_count(scene) > 0) {
		fprintf(stderr, "sinew save: %s: the engine reported %d error(s); the last, %s\n", scene_path,
		        sinew_scene_get_error_count(scene), sinew_scene_get_last_error(scene));
		status = SAVE_FAILED;
	}
	if (!sinew_scene_save(scene, out, error, sizeof error)) {
		fprintf(stderr, "sinew save: %s\n", error);
		status = SAVE_FAILED;
	}
	sinew_scene_destroy(scene);
	return status;
}
