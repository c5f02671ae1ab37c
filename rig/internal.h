/* rig/internal.h: the rig's state, shared by the files of rig/ (rig.c: creation, pose, update and
 * state; ik.c: the solve; proxy.c: proxies and contact episodes; reaction.c; draw.c). Built on
 * the public headers only. The terrain controller (terrain.c) sees none of this: it goes through
 * rig.h. */
#ifndef SINEW_RIG_INTERNAL_H
#define SINEW_RIG_INTERNAL_H

#include "sinew/rig.h"
#include "terrain.h"

/** One bone's flinch (docs/rig.md, "Reactions"): offset = angle * strength; strength falls from
 * 1 to 0 in decay seconds. fresh: set by a hit since the last update, so the hit's first frame
 * shows the whole angle. */
typedef struct rig_reaction {
	float angle, strength, decay;
	bool active, fresh;
} rig_reaction;

/** A body touching the rig's proxies (one contact episode). */
typedef struct rig_touch {
	sinew_body_id body;
} rig_touch;

struct sinew_rig {
	sinew_world_id world;
	char *name;
	void *user_data;
	sinew_rig_skeleton skeleton;
	sinew_rig_pose pose;                          /* bones: as IK solved them, without reactions */
	sinew_rig_part_state parts[SINEW_PART_COUNT]; /* world, reactions included: the figure shown */
	sinew_rig_part_state proxy_parts[SINEW_PART_COUNT]; /* world, without reactions: where the proxies go */
	rig_reaction reactions[SINEW_PART_COUNT];
	sinew_rig_state state;
	bool visible;
	bool reactions_enabled;
	bool has_proxies, proxies_enabled;
	uint32_t proxy_layer, proxy_mask, terrain_mask;
	sinew_body_id proxies[SINEW_PART_COUNT];
	sinew_rig_proxy_info info[SINEW_PART_COUNT];
	sinew_rig_callbacks callbacks;
	/* momentum (docs/rig.md, "One call per frame") */
	sinew_transform previous_root;
	bool has_previous_root;
	sinew_vec2 linear_velocity;
	float angular_velocity;
	/* contact episodes: the bodies touching the proxies after the last step */
	rig_touch *touching;
	int touching_count, touching_capacity;
	struct rig_hit *hits; /* scratch of proxy.c: the proxies' contacts this frame */
	int hit_capacity;
	rig_terrain *terrain;
	bool listening; /* registered as the world's origin listener (undone by sinew_destroy_rig) */
};

/* rig.c */
/** Report a refusal through the rig's world ("fn: message"); returns false. */
bool rig_fail(const sinew_rig *rig, sinew_error code, const char *fn, const char *format, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;
/** Angle wrapped into (-pi, pi]. */
float rig_wrap_angle(float angle);

/* ik.c */
/** IK and the head look-at of pose (they write pose->bones), then forward kinematics with the
 * reaction offsets (may be NULL) added to the bones' rotations: the ten parts in the world. */
void rig_solve(const sinew_rig_skeleton *skeleton, sinew_rig_pose *pose, const float *offsets,
               sinew_rig_part_state parts[SINEW_PART_COUNT]);
/** Forward kinematics alone: pose's bones as they are, plus offsets (may be NULL). */
void rig_forward(const sinew_rig_skeleton *skeleton, const sinew_rig_pose *pose, const float *offsets,
                 sinew_rig_part_state parts[SINEW_PART_COUNT]);

/* proxy.c */
bool rig_proxies_create(sinew_rig *rig);
void rig_proxies_destroy(sinew_rig *rig);
/** Solve the pose (IK, then FK twice: with the offsets for the figure, without them for the
 * proxies). */
void rig_solve_all(sinew_rig *rig, const float offsets[SINEW_PART_COUNT]);
/** Put the proxies exactly on the parts (no velocity): at creation and when they are switched on. */
void rig_proxies_place(sinew_rig *rig);
/** Give each proxy the velocity that carries it onto its part in dt (during the coming step). */
void rig_proxies_move(sinew_rig *rig, float dt);
/** Contact episodes from the proxies' contacts after the last step: collided / separated
 * callbacks and automatic reactions. */
void rig_proxies_collect(sinew_rig *rig);

/* reaction.c */
/** Age the reactions by dt (a fresh hit keeps its full angle this frame) and write each bone's
 * offset to offsets. */
void rig_reactions_advance(sinew_rig *rig, float dt, float offsets[SINEW_PART_COUNT]);

#endif
