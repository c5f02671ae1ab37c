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
/* A static box from x0 to x1 whose top is at y top and bottom at y bottom (terrain for rigs, y down). */
void make_block(sinew_world_id world, float x0, float x1, float top, float bottom);
/* A dynamic box of half extents hx, hy at (x, y). */
sinew_body_id make_box(sinew_world_id world, float x, float y, float hx, float hy, float density, float friction);
sinew_body_id make_ball(sinew_world_id world, float x, float y, float radius, float restitution);
/* Step n times at 60 Hz with 4 substeps. */
void step_n(sinew_world_id world, int n);

/* Load scene text named "bad.json" and expect exactly this error message. */
void expect_scene_error(const char *text, const char *expected);
/* Load scene text named "good.json"; fails the test (printing the error) when it does not load. */
sinew_scene *must_load_scene(const char *text);
/* Load a scene file; fails the test (printing the error) when it does not load. */
sinew_scene *must_load_scene_file(const char *path);

/* The godot ragdoll model's world-frame bands (docs/ragdoll.md), watched every frame while limp. A
 * limited joint's swing (the parent-centre -> child-centre line, from its world direction when the
 * joint was made) must stay within its band; how far outside it is, is taken the short way round.
 * What no band on that line can hold is a limb folding through its parent: where the two centres
 * cross (a knee's two bones are equally long) the line has no direction and its swing jumps half a
 * turn, so for the frames just after the relative angle passes 180 degrees, and while the centres
 * lie within WORLD_BAND_MIN_LINE of each other, the band only has to be on its way back (over_any);
 * everywhere else it holds (over_max). Pixel units, as the rig's. */
#define WORLD_BAND_FOLD_FRAMES 10
#define WORLD_BAND_MIN_LINE 5.0f
typedef struct world_band_watch {
	sinew_joint_id joints[SINEW_PART_COUNT]; /* a new ragdoll (new joints) starts a part afresh */
	float relative[SINEW_PART_COUNT];
	int since_fold[SINEW_PART_COUNT];
	float over_max; /* worst overshoot outside the frames after a fold, radians */
	float over_any; /* worst in any frame */
	int folds, frames;
} world_band_watch;
void world_band_frame(world_band_watch *w, const sinew_ragdoll *rd);

#define assert_float_near(a, b, tol) assert_true(fabs((double)(a) - (double)(b)) <= (double)(tol))

/* Kinetic (linear and angular) plus potential energy of the bodies in gravity g, the potential
 * measured from height `floor`. */
double bodies_energy(const sinew_body_id *bodies, int count, sinew_vec2 g, float floor);

/* A revolute joint between a and b at the world point anchor, with the default def. */
sinew_joint_id pin_bodies(sinew_world_id world, sinew_body_id a, sinew_body_id b, sinew_vec2 anchor);

#endif
