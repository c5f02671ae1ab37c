/* Test helpers shared by the cmocka tests: an error recorder and small world builders. */
#ifndef SINEW_TEST_SUPPORT_H
#define SINEW_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "sinew/sinew.h"
#include "sinew/scene.h"

/* Records every error reported through the callback. */
typedef struct error_recorder {
	int count;
	sinew_error last_code;
	char last_message[512];
} error_recorder;

void recorder_install(error_recorder *r);
void recorder_callback(sinew_error code, const char *message, void *context);

/* A world with default settings, errors going to the recorder (may be NULL). */
sinew_world_id make_world(error_recorder *r);
/* A static ground box whose top surface is at y = top, wide enough for every test. */
sinew_body_id make_ground(sinew_world_id world, float top, float friction);
/* A dynamic box of half extents hx, hy at (x, y). */
sinew_body_id make_box(sinew_world_id world, float x, float y, float hx, float hy, float density, float friction);
sinew_body_id make_ball(sinew_world_id world, float x, float y, float radius, float restitution);
/* Step n times at 60 Hz with 4 substeps. */
void step_n(sinew_world_id world, int n);

/* Load scene text named "bad.json" and expect exactly this error message. */
void expect_scene_error(const char *text, const char *expected);
/* Load scene text named "good.json"; fails the test (printing the error) when it does not load. */
sinew_scene *must_load_scene(const char *text);

#define assert_float_near(a, b, tol) assert_true(fabs((double)(a) - (double)(b)) <= (double)(tol))

#endif
