/* Fuzz harness: the scene loader (issue 15). The input bytes are a scene file: load it, step it
 * 30 times, check every body is finite, save it, load the saved text back (whatever the engine
 * accepted, save must write and load must take back), destroy both.
 * `make fuzz` builds it with libFuzzer under ASan + UBSan; tests/test_fuzz_corpus.c runs every
 * input of tests/fuzz/corpus/scene/ through the same function in `make test`. */
#include "sinew/scene.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FUZZ_SCENE_ENTRY
#define FUZZ_SCENE_ENTRY LLVMFuzzerTestOneInput
int FUZZ_SCENE_ENTRY(const uint8_t *data, size_t size);
#endif

static void fuzz_scene_quiet(sinew_error code, const char *message, void *context)
{
	(void)code;
	(void)message;
	(void)context;
}

static void fuzz_scene_fail(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz_scene: %s: %s\n", what, detail);
	abort();
}

int FUZZ_SCENE_ENTRY(const uint8_t *data, size_t size)
{
	if (size > (1u << 20)) return 0;
	sinew_set_error_callback(fuzz_scene_quiet, NULL);
	char *text = malloc(size + 1);
	if (text == NULL) return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	char error[512];
	sinew_scene *scene = sinew_scene_load_string(text, "fuzz.json", error, sizeof error);
	free(text);
	if (scene != NULL) {
		sinew_world_id world = sinew_scene_get_world(scene);
		bool finite = true;
		for (int i = 0; i < 30 && finite; ++i) {
			sinew_scene_step(scene);
			finite = sinew_world_is_finite(world);
		}
		/* A scene inside the envelope stays finite: a NaN from a file the loader took is a bug. */
		if (!finite) fuzz_scene_fail("non-finite state", sinew_scene_get_last_error(scene));
		char *saved = sinew_scene_save_string(scene, error, sizeof error);
		if (saved == NULL) fuzz_scene_fail("save refused a loaded scene", error);
		sinew_scene *again = sinew_scene_load_string(saved, "saved.json", error, sizeof error);
		free(saved);
		if (again == NULL) fuzz_scene_fail("a saved scene did not load back", error);
		sinew_scene_destroy(again);
		sinew_scene_destroy(scene);
	}
	sinew_set_error_callback(NULL, NULL);
	return 0;
}
