/* `sinew run`'s check after every step (issue 15): once a body's state is not finite the run
 * stops, names the body and the step, and exits 1. Kept apart from tools/sinew.c so that
 * tests/test_run_check.c (which includes run_check.c directly) can call it on a scene whose body
 * state a test made non-finite. */
#ifndef SINEW_TOOLS_RUN_CHECK_H
#define SINEW_TOOLS_RUN_CHECK_H

#include "sinew/scene.h"

#include <stdbool.h>
#include <stddef.h>

/* True when every body of the scene's world is finite after step `step` (counted from 1).
 * Otherwise false, and message (of size bytes) says which: "PATH: bodies[I] NAME is not finite
 * after step N: ..." for a body of the file, or that a body spawned at run time is not. */
bool run_check_finite(const sinew_scene *scene, const char *path, int step, char *message, size_t size);

#endif
