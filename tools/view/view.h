/* sinew-view: the live viewer (docs/viewer.md). One scene in a window, stepped in real time at its
 * rate, drawn through the engine's debug draw (sinew_world_draw) onto an SDL renderer; the mouse
 * drags bodies with a target joint. The headless mode (--screenshot) renders one frame to a PNG
 * and --check tests such a PNG against a trace. Internal to the tool. */
#ifndef SINEW_VIEW_H
#define SINEW_VIEW_H

#include "sinew/draw.h"
#include "sinew/scene.h"

#include <SDL.h>
#include <stdbool.h>
#include <stdio.h>

#define VIEW_GRAPH_SAMPLES 120

/* World <-> screen: scale pixels per length unit around center; y up on screen unless y_down
 * (pixel worlds, whose gravity points to +y, are drawn as they are authored). */
typedef struct view_camera {
	sinew_vec2 center;
	float scale;
	bool y_down;
	int width, height;
} view_camera;

typedef struct viewer {
	const char *path;
	sinew_scene *scene;
	sinew_world_id world;
	SDL_Window *window;
	SDL_Renderer *renderer;
	view_camera camera;
	/* what is drawn */
	bool show_help, show_contacts, show_normals, show_aabbs, show_joint_extras;
	/* running */
	bool paused, quit;
	int steps_pending; /* single steps asked for while paused */
	double lag;        /* seconds of real time not yet stepped */
	/* the mouse */
	sinew_joint_id grab;
	bool panning;
	int mouse_x, mouse_y;
	/* the status line */
	float step_ms[VIEW_GRAPH_SAMPLES];
	int graph_head, graph_count;
	char message[160];
	Uint32 message_until; /* SDL ticks */
	/* rigs */
	int next_joint_model; /* sinew_ragdoll_joint_model of the next ragdoll */
	int rig;              /* the selected rig (Tab): P, [, ] and 4..7 act on it */
} viewer;

/* camera.c */
sinew_vec2 view_to_screen(const view_camera *c, sinew_vec2 p);
sinew_vec2 view_to_world(const view_camera *c, float x, float y);
/* Fit the camera to what moves in the scene (and the static bodies near it). */
void view_frame_scene(viewer *v);
/* Zoom by factor keeping the world point under screen pixel (x, y) where it is. */
void view_zoom_at(view_camera *c, float factor, float x, float y);

/* canvas.c: drawing onto the renderer. */
sinew_debug_draw view_debug_draw(viewer *v);
void view_draw_world(viewer *v);
/* Text in the built-in font at pixel (x, y), size px per font pixel; returns the width drawn. */
int view_text(SDL_Renderer *r, int x, int y, const char *text, int size, SDL_Color color);
int view_text_width(const char *text, int size);
void view_fill_rect(SDL_Renderer *r, int x, int y, int w, int h, SDL_Color color);

/* hud.c: the status line with its step-time graph, the help panel and the message. */
void view_record_step_ms(viewer *v, float ms);
void view_draw_hud(viewer *v);
void view_say(viewer *v, const char *message);

/* input.c */
void view_handle_event(viewer *v, const SDL_Event *e);
/* Drop the grab (its joint is destroyed with the body, the world, or here). */
void view_release(viewer *v);

/* rigs.c: the rigs and ragdolls of the scene. */
int view_rig_count(const viewer *v);
void view_sync_rigs(viewer *v);
void view_toggle_ragdolls(viewer *v);
void view_toggle_joint_model(viewer *v);
void view_draw_rigs(viewer *v, const sinew_debug_draw *draw);
/* The selected rig's power: Tab selects the next rig, P the next preset, [ and ] lower and raise
 * the influence by 0.1, 4..7 toggle the partial ragdoll of a limb. */
void view_select_next_rig(viewer *v);
void view_cycle_power(viewer *v);
void view_change_influence(viewer *v, float delta);
void view_toggle_limb(viewer *v, sinew_rig_limb limb);
/* The selected rig's power as the HUD shows it ("" without rigs). */
void view_rig_status(const viewer *v, char *out, size_t size);
/* One line per rig, read back through the API: "NAME power PRESET influence X limbs L,L" (the
 * preset "custom" when the joints' drives match none of the default def's presets; limbs "none"). */
void view_write_rig_state(const viewer *v, FILE *out);

/* main.c */
bool view_reload(viewer *v);
void view_step(viewer *v);

/* check.c: `sinew-view --check ...` */
int view_check_command(int argc, char **argv);

#endif
