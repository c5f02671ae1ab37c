/* Internal to scene/: the validated description of a scene file, and the parsing helpers shared
 * by the loader's files. A file is parsed into a scene_desc first (every check happens there);
 * only a complete, valid description is turned into a world, so a bad file creates nothing. */
#ifndef SINEW_SCENE_INTERNAL_H
#define SINEW_SCENE_INTERNAL_H

#include "sinew/scene.h"

#include <jansson.h>

/* Longest key path kept for messages; deeper paths are cut (the message still names the file). */
#define SCENE_PATH_SIZE 256

/** One shape, ready for sinew_create_*_shape. */
typedef struct scene_shape_desc {
	sinew_geometry geometry;
	sinew_shape_def def;
	char *name; /* owned; NULL when unnamed */
} scene_shape_desc;

/** One body and the range of its shapes in scene_desc.shapes. */
typedef struct scene_body_desc {
	sinew_body_def def;
	char *name; /* owned; NULL when unnamed */
	int first_shape, shape_count;
	float mass, inertia; /* overrides, used when has_mass / has_inertia */
	bool has_mass, has_inertia;
	sinew_rot rotation;  /* "rotation" [cos, sin] (saved scenes): set exactly, when has_rotation */
	bool has_rotation;
} scene_body_desc;

/** One joint: its type's def (anchors and axes in world space, angles in radians) with the
 * bodies left null until the world is built; body_a is -1 for the world. */
typedef struct scene_joint_desc {
	sinew_joint_type type;
	char *name; /* owned; NULL when unnamed */
	int body_a, body_b;
	union {
		sinew_pin_joint_def pin;
		sinew_revolute_joint_def revolute;
		sinew_prismatic_joint_def prismatic;
		sinew_weld_joint_def weld;
		sinew_distance_joint_def distance;
		sinew_wheel_joint_def wheel;
		sinew_target_joint_def target;
	} def;
	/* Authored frames given in the file (saved scenes): set on the joint once it is created. */
	sinew_vec2 local_anchor_a, local_anchor_b, local_axis_a;
	float reference_angle, swing_reference; /* radians */
	bool has_local_anchors, has_local_axis, has_reference_angle, has_swing_reference;
} scene_joint_desc;

/** Script ops. Ops that need rigs are listed so that supporting one is one case in script.c's
 * parse and apply switches. */
typedef enum scene_op_kind {
	SCENE_OP_IMPULSE,
	SCENE_OP_VELOCITY,
	SCENE_OP_ENABLE_BODY,
	SCENE_OP_DISABLE_BODY,
	SCENE_OP_SET_TYPE,
	SCENE_OP_DESTROY_BODY,
	SCENE_OP_DESTROY_JOINT,
	SCENE_OP_REBUILD_JOINT,
	SCENE_OP_RAGDOLL,
	SCENE_OP_TOGGLE_RAGDOLL,
	SCENE_OP_SNAP_TO_STANDING,
	SCENE_OP_WALK,
	SCENE_OP_SPAWN,
	SCENE_OP_DESTROY_GROUP,
	SCENE_OP_SET_INFLUENCE,
	SCENE_OP_SET_POWER,
	SCENE_OP_RAGDOLL_LIMB,
	SCENE_OP_COUNT
} scene_op_kind;

/** One timed op, applied before step `step`. */
typedef struct scene_op {
	scene_op_kind kind;
	int step;
	int index;                    /* position in "script", for messages and a stable order */
	int body;                     /* index in scene_desc.bodies, or -1 */
	int joint;                    /* index in scene_desc.joints, or -1 */
	sinew_vec2 vector;            /* impulse (N s) or linear velocity (length units / s) */
	sinew_vec2 point;             /* impulse point, world */
	float angular_velocity;       /* rad / s */
	sinew_body_type type;         /* set_type */
	int template_index;           /* spawn: index in scene_desc.templates */
	int group;                    /* spawn, destroy_group: index in scene_desc.group_names */
	int rig;                      /* rig ops: index in scene_desc.rigs, or -1 */
	float speed;                  /* walk: signed length units / s */
	bool enabled;                 /* ragdoll: true limp, false stand up; ragdoll_limb: true physical, false rejoin */
	int limb;                     /* set_influence: a sinew_rig_limb, or -1 for the whole figure; ragdoll_limb: the limb */
	float influence;              /* set_influence: 0 .. 1 */
	int preset;                   /* set_power: a sinew_ragdoll_power_preset */
	sinew_vec2 *points;           /* spawn: where each instance goes (owned) */
	int point_count;
	bool has_vector, has_point, has_angular_velocity;
} scene_op;

typedef struct scene_template scene_template;

/** A rig's "power" (scene/power.c): its ragdoll's drives (the preset's, with the file's "joints"
 * entries over them), blend and root pull. */
typedef struct scene_power_desc {
	sinew_ragdoll_power_preset preset;
	sinew_ragdoll_drive drives[SINEW_PART_COUNT];
	float influence;
	float limb_influence[SINEW_LIMB_COUNT];
	sinew_ragdoll_root_pull root_pull;
} scene_power_desc;

/** One rig of "rigs": a stickman (the default skeleton, or the file's "skeleton" over it). state and joints are for the ragdoll
 * layer (RAGDOLL at the start; the joint model: 0 local, 1 godot). */
typedef struct scene_rig_desc {
	char *name; /* owned; NULL when unnamed */
	sinew_vec2 position;
	sinew_rig_facing facing;
	sinew_rig_state state;
	bool terrain;
	int joints;
	sinew_rig_skeleton skeleton; /* the default stickman's, with the file's "skeleton" entries over it */
	bool has_skeleton;           /* the file gave "skeleton" (save writes it back) */
	bool has_power;              /* the file gave "power" */
	scene_power_desc power;
} scene_rig_desc;

/** Everything a scene file says, validated, in the API's units (radians). A template's bodies and
 * joints are a scene_desc of their own (with no world settings, templates or script). */
typedef struct scene_desc {
	char root[48];      /* key path of this description in the file: "" or "templates[2]" */
	sinew_vec2 gravity;
	float length_units_per_meter;
	float hz;
	int substeps;
	int steps;
	bool sleep;
	scene_body_desc *bodies;
	int body_count;
	scene_shape_desc *shapes;
	int shape_count, shape_capacity; /* grown geometrically: a realloc per body is quadratic */
	int *body_by_name;  /* indices of named bodies sorted by name (named_body_count of them) */
	int named_body_count;
	int *shape_by_name; /* indices of named shapes sorted by name */
	int named_shape_count;
	scene_joint_desc *joints;
	int joint_count;
	int *joint_by_name; /* indices of named joints sorted by name */
	int named_joint_count;
	scene_rig_desc *rigs;
	int rig_count;
	scene_op *ops;      /* sorted by step, then by position in the file */
	int op_count;
	scene_template *templates;
	int template_count;
	char **group_names; /* the groups spawn ops name, first use first (owned) */
	int group_count;
	uint32_t max_collision_group; /* the largest shape "group" in the file, templates included */
} scene_desc;

/** A named set of bodies and joints that spawn ops create again and again, each time moved by a
 * point. With self_collide false, each instance's shapes get a collision group of their own. */
struct scene_template {
	char *name; /* owned */
	bool self_collide;
	scene_desc desc;
};

/** State of one parse: the text (to locate keys), the file's display name, the error buffer. */
typedef struct scene_parser {
	const char *text;
	const char *file;
	char *error;
	size_t error_size;
	scene_desc *desc;
} scene_parser;

/** How a number is constrained. */
typedef enum scene_range {
	SCENE_ANY,
	SCENE_POSITIVE,
	SCENE_NON_NEGATIVE,
	SCENE_UNIT, /* 0 .. 1 */
} scene_range;

/* locate.c */
/** Line and column (1-based, in characters) of the value or key at path in valid JSON text; when
 * the path is absent, of its nearest ancestor that is present. */
void scene_locate(const char *text, const char *path, int *line, int *column);

/* parse.c: helpers. Each returns false after writing an error at the key's position. An absent
 * optional key leaves *out as it was (the caller sets the default first). */
bool scene_fail(scene_parser *p, const char *path, const char *format, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
/** path + "." + key (just key at the top level). */
void scene_path_key(char *out, const char *parent, const char *key);
/** path + "[index]". */
void scene_path_index(char *out, const char *parent, size_t index);
/** The path of element index of the description's array key: "bodies[3]" or "templates[1].bodies[3]". */
void scene_path_in(char *out, const scene_desc *desc, const char *key, size_t index);
/** Refuse keys of obj that are not in known (NULL-terminated); "x" is always allowed. */
bool scene_check_keys(scene_parser *p, json_t *obj, const char *path, const char *const *known);
bool scene_require(scene_parser *p, json_t *obj, const char *path, const char *key);
bool scene_expect_object(scene_parser *p, json_t *value, const char *path);
bool scene_get_number(scene_parser *p, json_t *obj, const char *path, const char *key, scene_range range,
                      float *out);
/** A number in degrees (or degrees / s), stored in radians. */
bool scene_get_degrees(scene_parser *p, json_t *obj, const char *path, const char *key, float *out);
bool scene_get_int(scene_parser *p, json_t *obj, const char *path, const char *key, int lo, int hi, int *out);
bool scene_get_uint32(scene_parser *p, json_t *obj, const char *path, const char *key, uint32_t *out);
bool scene_get_bool(scene_parser *p, json_t *obj, const char *path, const char *key, bool *out);
bool scene_get_vec2(scene_parser *p, json_t *obj, const char *path, const char *key, sinew_vec2 *out);
/** value itself as a point [x, y] of finite numbers (path names it in messages). */
bool scene_point(scene_parser *p, json_t *value, const char *path, sinew_vec2 *out);
/** A non-empty string; *out points into obj (NULL when absent). */
bool scene_get_string(scene_parser *p, json_t *obj, const char *path, const char *key, const char **out);
/** One of choices (NULL-terminated); *out is its index (unchanged when absent). */
bool scene_get_choice(scene_parser *p, json_t *obj, const char *path, const char *key,
                      const char *const *choices, int *out);
/** An array (absent: *out = NULL). */
bool scene_get_array(scene_parser *p, json_t *obj, const char *path, const char *key, json_t **out);
/** strdup through malloc (NULL stays NULL). */
char *scene_strdup(const char *s);
/** "static", "kinematic", "dynamic" in sinew_body_type order. */
extern const char *const scene_body_type_names[];

/** The polygon a "box" shape makes: outer half extents h, centre, angle (radians), corner radius. */
sinew_polygon scene_box_polygon(sinew_vec2 h, sinew_vec2 center, float angle, float radius);

/* bodies.c */
/** Top-level structure, world, bodies and shapes, joints, rigs (refused for now), names. */
bool scene_parse_document(scene_parser *p, json_t *root);
/** Sorts the names of count elements (to find them fast and to spot duplicates); kind is
 * "bodies", "shapes" or "joints"; name_of(i) and path_of(i, out) describe element i. */
bool scene_index_names(scene_parser *p, const char *kind, int count, const char *(*name_of)(const scene_desc *, int),
                       void (*path_of)(const scene_desc *, int, char *), int **out_sorted, int *out_count);
/** Index of the element named name in sorted (from scene_index_names), or -1. */
int scene_find_sorted(const int *sorted, int count, const char *name, const char *(*name_of)(const scene_desc *, int),
                      const scene_desc *d);
/** Index of the body named name, or -1. */
int scene_desc_find_body(const scene_desc *desc, const char *name);
/** Index of the shape named name, or -1. */
int scene_desc_find_shape(const scene_desc *desc, const char *name);
void scene_desc_free(scene_desc *desc);

/* power.c */
/** The rig limbs' names in files: "left_arm", "right_arm", "left_leg", "right_leg". */
extern const char *const scene_rig_limb_names[];
/** A rig's "power" object into desc (the defaults first: limp, influence 1, no root pull). */
bool scene_parse_power(scene_parser *p, json_t *o, const char *path, scene_power_desc *desc);
/** The preset names as a NULL-terminated choice list. */
void scene_power_preset_names(const char *names[SINEW_POWER_PRESET_COUNT + 1]);
/** The defaults of a rig without "power". */
void scene_power_defaults(scene_power_desc *desc);
/** Give a new ragdoll what desc says (its preset, drives, blend and root pull). */
bool scene_apply_power(sinew_ragdoll *ragdoll, const scene_power_desc *desc);
/** The ragdoll's power as a "power" object, or NULL when it is the defaults' (limp, 1, no pull). */
json_t *scene_save_power(const sinew_ragdoll *ragdoll);

/* rigs.c */
/** The "rigs" array: every key checked, names unique. */
bool scene_parse_rigs(scene_parser *p, json_t *rigs);
/** Index of the rig named name, or -1. */
int scene_desc_find_rig(const scene_desc *desc, const char *name);
void scene_rigs_free(scene_desc *desc);
/** Make the rig r describes in world (terrain following applied); NULL when the rig layer refuses. */
sinew_rig *scene_build_rig(sinew_world_id world, const scene_rig_desc *r);
/** "right", "left", "forward" / "animated", "ragdoll" / "local", "godot": the file's words. */
extern const char *const scene_rig_facing_names[];
extern const char *const scene_rig_state_names[];
extern const char *const scene_rig_joints_names[];

/* joints.c */
/** The "joints" array (after the bodies and their names): every key checked, angles in radians. */
bool scene_parse_joints(scene_parser *p, json_t *joints);
/** Index of the joint named name, or -1. */
int scene_desc_find_joint(const scene_desc *desc, const char *name);
/** Create joint index in world from its description, its world anchors moved by offset; bodies[i]
 * is the id made from bodies[i]. Returns the null id when the engine refuses it. */
sinew_joint_id scene_build_joint(sinew_world_id world, const scene_desc *desc, int index, const sinew_body_id *bodies,
                                 sinew_vec2 offset);
/** "pin", "revolute", ... in sinew_joint_type order. */
extern const char *const scene_joint_type_names[];

/* save.c: sinew_scene_save and sinew_scene_save_string (scene.h); reads the scene's description. */
const scene_desc *scene_get_desc(const sinew_scene *scene);
/** The id of the shape made from desc.shapes[index]. */
sinew_shape_id scene_get_shape(const sinew_scene *scene, int index);

/* script.c */
bool scene_parse_script(scene_parser *p, json_t *script);
/** Index of the template named name, or -1. */
int scene_desc_find_template(const scene_desc *desc, const char *name);
/** Apply one op to the built world; bodies[i] and joints[i] are the ids made from desc->bodies[i]
 * and desc->joints[i]. Returns what the engine call returned. */
bool scene_apply_op(const scene_op *op, const sinew_body_id *bodies, const sinew_joint_id *joints);
const char *scene_op_name(scene_op_kind kind);

#endif
