/* sinew/scene.h: worlds built from JSON scene files (docs/scene-format.md), and trace files.
 *
 *     char error[512];
 *     sinew_scene *scene = sinew_scene_load_file("scenes/stack10.json", error, sizeof error);
 *     if (scene == NULL) { fprintf(stderr, "%s\n", error); return 2; }
 *     for (int i = 0; i < sinew_scene_get_default_steps(scene); ++i) sinew_scene_step(scene);
 *     sinew_scene_destroy(scene);
 *
 * A scene owns its world. Loading validates the whole file before it creates anything, so a file
 * that fails leaves nothing behind; the error reads "FILE:LINE:COL: key.path[3].sub: message".
 * Angles in files are degrees; everything this header hands back is in radians, like the rest of
 * the API. Lengths, masses and times are in the scene's own units. */
#ifndef SINEW_SCENE_H
#define SINEW_SCENE_H

#include "ragdoll.h"
#include "rig.h"
#include "sinew.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** The scene format version this build reads (the value of "sinew_scene"). */
#define SINEW_SCENE_FORMAT_VERSION 1

/** A world built from a scene file, with its settings and timed script. Opaque. */
typedef struct sinew_scene sinew_scene;

/** Load a scene file. On failure returns NULL and writes one line to error (may be NULL). */
SINEW_API sinew_scene *sinew_scene_load_file(const char *path, char *error, size_t error_size);
/** Load a scene from JSON text; name (e.g. "pendulum.json") stands for the file in messages. */
SINEW_API sinew_scene *sinew_scene_load_string(const char *text, const char *name, char *error, size_t error_size);
/** Caps on what one scene file may make, checked before anything is built: a few lines of spawn
 * ops can multiply a template into more bodies than the machine holds. Totals count the file's
 * bodies, shapes and joints, SINEW_PART_COUNT of each per rig, and every instance every spawn op
 * makes (a group destroyed and spawned again counts again). A file over a cap is refused with a
 * message naming the cap and the `sinew run` option that raises it. 0 allows nothing of that kind.
 * Start from sinew_scene_default_limits(). */
typedef struct sinew_scene_limits {
	int max_bodies;           /**< default 50,000 (`sinew run --max-bodies N`) */
	int max_shapes;           /**< default 100,000 (--max-shapes) */
	int max_joints;           /**< default 50,000 (--max-joints) */
	int max_spawned_per_step; /**< bodies the spawn ops of one step make; default 10,000 (--max-spawned-per-step) */
	int internal_value;       /**< set by sinew_scene_default_limits */
} sinew_scene_limits;
#define SINEW_SCENE_LIMITS_COOKIE 0x5ce11a17
/** The limits sinew_scene_load_file and sinew_scene_load_string use. */
SINEW_API sinew_scene_limits sinew_scene_default_limits(void);
/** sinew_scene_load_file with limits of your own (NULL: the defaults). */
SINEW_API sinew_scene *sinew_scene_load_file_limited(const char *path, const sinew_scene_limits *limits, char *error,
                                                     size_t error_size);
/** sinew_scene_load_string with limits of your own (NULL: the defaults). */
SINEW_API sinew_scene *sinew_scene_load_string_limited(const char *text, const char *name,
                                                       const sinew_scene_limits *limits, char *error,
                                                       size_t error_size);
/** Destroy the scene and its world (NULL is harmless). */
SINEW_API void sinew_scene_destroy(sinew_scene *scene);

/** The scene's display name: the file name without its directories, e.g. "pyramid20.json". */
SINEW_API const char *sinew_scene_get_name(const sinew_scene *scene);
/** The world the scene built (owned by the scene: do not destroy it). */
SINEW_API sinew_world_id sinew_scene_get_world(const sinew_scene *scene);
/** Steps per second, Hz (world.hz); the step is 1/hz seconds. */
SINEW_API float sinew_scene_get_hz(const sinew_scene *scene);
/** Solver substeps per step (world.substeps). */
SINEW_API int sinew_scene_get_substeps(const sinew_scene *scene);
/** Change the substeps of the steps to come (1..64; the viewer's +/- keys). False when out of range. */
SINEW_API bool sinew_scene_set_substeps(sinew_scene *scene, int substeps);
/** Steps `sinew run` takes by default (world.steps). */
SINEW_API int sinew_scene_get_default_steps(const sinew_scene *scene);
/** Steps taken so far: the number of the next step (0 before the first). */
SINEW_API int sinew_scene_get_step(const sinew_scene *scene);

/** Apply the script ops due at the current step, step the world by 1/hz s in the scene's
 * substeps, and count the step. Returns false if the engine reported an error meanwhile. */
SINEW_API bool sinew_scene_step(sinew_scene *scene);
/** Wall-clock seconds spent inside sinew_world_step so far (scripts and traces excluded), s. */
SINEW_API double sinew_scene_get_world_step_seconds(const sinew_scene *scene);
/** The same steps in this process's CPU time (CLOCK_PROCESS_CPUTIME_ID): steadier than wall time
 * on a machine whose cores are shared, s. */
SINEW_API double sinew_scene_get_world_step_cpu_seconds(const sinew_scene *scene);
/** Engine errors reported while stepping (script ops the engine refused and the like). */
SINEW_API int sinew_scene_get_error_count(const sinew_scene *scene);
/** The last of those errors, "step N: message" ("" when there was none). */
SINEW_API const char *sinew_scene_get_last_error(const sinew_scene *scene);

/** The body with this name (the null id when there is none). */
SINEW_API sinew_body_id sinew_scene_find_body(const sinew_scene *scene, const char *name);
/** The shape with this name (the null id when there is none). */
SINEW_API sinew_shape_id sinew_scene_find_shape(const sinew_scene *scene, const char *name);

/** Bodies the file made, named or not, in file order (destroyed ones included). */
SINEW_API int sinew_scene_get_body_count(const sinew_scene *scene);
/** The id of the body made from bodies[index] (stale once a script destroys it). */
SINEW_API sinew_body_id sinew_scene_get_body(const sinew_scene *scene, int index);
/** The name of bodies[index], or NULL when it has none. */
SINEW_API const char *sinew_scene_get_body_name(const sinew_scene *scene, int index);
/** The index in "bodies" of the body that owns this shape, or -1 when the scene did not make it. */
SINEW_API int sinew_scene_get_shape_body_index(const sinew_scene *scene, sinew_shape_id shape);

/** Named bodies, in file order: how many there are. */
SINEW_API int sinew_scene_get_named_body_count(const sinew_scene *scene);
/** The i-th named body (0 <= i < count): its index in "bodies", or -1 when i is out of range. */
SINEW_API int sinew_scene_get_named_body_index(const sinew_scene *scene, int i);

/** The joint with this name (the null id when there is none). */
SINEW_API sinew_joint_id sinew_scene_find_joint(const sinew_scene *scene, const char *name);
/** Joints the file made, named or not, in file order (destroyed ones included). */
SINEW_API int sinew_scene_get_joint_count(const sinew_scene *scene);
/** The id of the joint made from joints[index] (stale once it or one of its bodies is destroyed). */
SINEW_API sinew_joint_id sinew_scene_get_joint(const sinew_scene *scene, int index);
/** The name of joints[index], or NULL when it has none. */
SINEW_API const char *sinew_scene_get_joint_name(const sinew_scene *scene, int index);
/** The index in "joints" of this joint, or -1 when the scene did not make it. */
SINEW_API int sinew_scene_get_joint_index(const sinew_scene *scene, sinew_joint_id joint);
/** Named joints, in file order: how many there are. */
SINEW_API int sinew_scene_get_named_joint_count(const sinew_scene *scene);
/** The i-th named joint (0 <= i < count): its index in "joints", or -1 when i is out of range. */
SINEW_API int sinew_scene_get_named_joint_index(const sinew_scene *scene, int i);

/** Rigs the file made ("rigs"), in file order. */
SINEW_API int sinew_scene_get_rig_count(const sinew_scene *scene);
/** The rig made from rigs[index] (owned by the scene), or NULL when index is out of range. */
SINEW_API sinew_rig *sinew_scene_get_rig(const sinew_scene *scene, int index);
/** The name of rigs[index], or NULL when it has none (or index is out of range). */
SINEW_API const char *sinew_scene_get_rig_name(const sinew_scene *scene, int index);
/** The ragdoll controller of rigs[index] (owned by the scene; the scene steps the rig through it),
 * or NULL when index is out of range. */
SINEW_API sinew_ragdoll *sinew_scene_get_ragdoll(const sinew_scene *scene, int index);
/** The rig with this name, or NULL when there is none. */
SINEW_API sinew_rig *sinew_scene_find_rig(const sinew_scene *scene, const char *name);

/** Templates of the file ("templates"): how many there are. */
SINEW_API int sinew_scene_get_template_count(const sinew_scene *scene);
/** The name of templates[index], or NULL when index is out of range. */
SINEW_API const char *sinew_scene_get_template_name(const sinew_scene *scene, int index);
/** Make one instance of the named template at point at, as a "spawn" op does: its bodies and
 * joints moved by at, a collision group of its own when the template does not self-collide, all
 * or nothing. group (NULL: none) names the group its bodies join: one the file's ops use, or a new
 * name. Returns false when there is no such template, at is not finite, or the engine refused a
 * part (then nothing is made); the reason is in sinew_scene_get_last_error. Spawned bodies are
 * unnamed: find them with sinew_world_get_bodies. Not during a world step. */
SINEW_API bool sinew_scene_spawn(sinew_scene *scene, const char *template_name, sinew_vec2 at, const char *group);
/** Destroy every live body (with its joints) spawned into the named group so far, as a
 * "destroy_group" op does. Returns false when the name is neither a group of the file's ops nor
 * one sinew_scene_spawn used. */
SINEW_API bool sinew_scene_destroy_group(sinew_scene *scene, const char *group);

/** Write the scene's world as it is now as a scene file (docs/scene-format.md, "Saving"): world
 * settings, every live body with its shapes, velocities and flags, every live joint with its
 * authored local frames, limits, motor and spring — the file's first, then those spawned from
 * templates, as plain bodies and joints; names kept (bodies a joint needs get "body_<index>", or
 * "spawned_<k>" when spawned); world.steps is the scene's steps left. Script ops and templates
 * are not saved. A saved file
 * loads into the same world bit for bit (rotations included). Returns false with a message in
 * error when the file cannot be written. */
SINEW_API bool sinew_scene_save(const sinew_scene *scene, const char *path, char *error, size_t error_size);
/** The same scene file as a string (free it with free()); NULL with a message on failure. */
SINEW_API char *sinew_scene_save_string(const sinew_scene *scene, char *error, size_t error_size);

/** A trace file being written (the Traces section of docs/scene-format.md). Opaque. */
typedef struct sinew_trace sinew_trace;

/** Start a trace of the scene at path, keeping every `every`-th step (>= 1). NULL on failure,
 * with a message in error. */
SINEW_API sinew_trace *sinew_trace_open(const sinew_scene *scene, const char *path, int every, char *error,
                                        size_t error_size);
/** Call after every sinew_scene_step: gathers that step's events and writes a frame when the
 * step is a multiple of `every`. Returns false on a write error. */
SINEW_API bool sinew_trace_record(sinew_trace *trace);
/** Write a frame for the step just taken now (with the events gathered since the last frame). */
SINEW_API bool sinew_trace_write_frame(sinew_trace *trace);
/** Write the last step's frame if it is not written yet, finish the file and free the trace.
 * Returns false if anything could not be written. */
SINEW_API bool sinew_trace_close(sinew_trace *trace);

#ifdef __cplusplus
}
#endif
#endif
