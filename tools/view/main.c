/* `sinew-view SCENE [--size WxH]`: the live viewer (docs/viewer.md).
 * `sinew-view SCENE --screenshot OUT.png --steps N [--size WxH] [--ragdoll-at K] [--trace T.json]
 * [--drag X0,Y0,X1,Y1]`: headless: frame the scene, take N steps (pressing R before step K; with
 * --drag, the left button pressed at pixel (X0, Y0) and the mouse moved to (X1, Y1) and held there,
 * through the same event handler as the window's; --press KEYS: those keys pressed before the first
 * step, with the mouse where --drag leaves it or in the middle; --rig-state OUT.txt: each rig's power read
 * back through the API after the steps, view_write_rig_state), draw one frame, write it and exit.
 * `sinew-view --check ...`: test such a screenshot (check.c).
 * Exit status as `sinew run`: 0 fine, 2 bad usage or scene, 1 anything else. */
#include "view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stb_image_write.h"

enum { VIEW_OK = 0, VIEW_FAILED = 1, VIEW_USAGE = 2 };
enum { MAX_STEPS_PER_FRAME = 4 };

typedef struct view_options {
	const char *scene, *screenshot, *trace, *press, *rig_state;
	int steps, ragdoll_at;
	int width, height;
	bool drag;
	int drag_from[2], drag_to[2];
} view_options;

static int usage(const char *message, const char *arg)
{
	fprintf(stderr, "sinew-view: %s%s%s\n", message, arg != NULL ? ": " : "", arg != NULL ? arg : "");
	fprintf(stderr, "usage: sinew-view SCENE [--size WxH]\n"
	                "       sinew-view SCENE --screenshot OUT.png --steps N [--size WxH] [--ragdoll-at K] [--trace T.json]\n"
	                "                  [--drag X0,Y0,X1,Y1] [--press KEYS] [--rig-state OUT.txt]\n"
	                "       sinew-view --check SCENE SHOT.png [--trace T.json --expect NAME ...] [--expect-state S] [--differs OTHER.png]\n");
	return VIEW_USAGE;
}

static bool whole_number(const char *s, int *out)
{
	if (s == NULL || *s < '0' || *s > '9') return false;
	char *end = NULL;
	long v = strtol(s, &end, 10);
	if (*end != 0 || v > 100000000L) return false;
	*out = (int)v;
	return true;
}

static int parse_options(int argc, char **argv, view_options *o)
{
	memset(o, 0, sizeof *o);
	o->steps = -1, o->ragdoll_at = -1;
	o->width = 1280, o->height = 720;
	for (int i = 1; i < argc; ++i) {
		const char *arg = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(arg, "--screenshot") == 0 && next != NULL) {
			o->screenshot = argv[++i];
		} else if (strcmp(arg, "--press") == 0 && next != NULL) {
			o->press = argv[++i];
		} else if (strcmp(arg, "--trace") == 0 && next != NULL) {
			o->trace = argv[++i];
		} else if (strcmp(arg, "--rig-state") == 0 && next != NULL) {
			o->rig_state = argv[++i];
		} else if (strcmp(arg, "--steps") == 0) {
			if (!whole_number(next, &o->steps)) return usage("--steps needs a whole number >= 0", next);
			++i;
		} else if (strcmp(arg, "--ragdoll-at") == 0) {
			if (!whole_number(next, &o->ragdoll_at)) return usage("--ragdoll-at needs a whole number >= 0", next);
			++i;
		} else if (strcmp(arg, "--drag") == 0 && next != NULL) {
			if (sscanf(next, "%d,%d,%d,%d", &o->drag_from[0], &o->drag_from[1], &o->drag_to[0], &o->drag_to[1]) != 4)
				return usage("--drag needs X0,Y0,X1,Y1 (pixels)", next);
			o->drag = true;
			++i;
		} else if (strcmp(arg, "--size") == 0 && next != NULL) {
			if (sscanf(next, "%dx%d", &o->width, &o->height) != 2 || o->width < 64 || o->height < 64 ||
			    o->width > 8192 || o->height > 8192)
				return usage("--size needs WxH, each 64..8192", next);
			++i;
		} else if (arg[0] == '-' && arg[1] != 0) {
			return usage("unknown option (or one without its value)", arg);
		} else if (o->scene == NULL) {
			o->scene = arg;
		} else {
			return usage("one scene at a time; extra argument", arg);
		}
	}
	if (o->scene == NULL) return usage("no scene file given", NULL);
	if (o->screenshot != NULL && o->steps < 0) return usage("--screenshot needs --steps N", NULL);
	if (o->screenshot == NULL && (o->steps >= 0 || o->trace != NULL || o->ragdoll_at >= 0 || o->drag || o->press ||
	                            o->rig_state != NULL))
		return usage("--steps, --trace, --ragdoll-at, --drag, --press and --rig-state go with --screenshot", NULL);
	return VIEW_OK;
}

/* ---------------------------------------------------------------- the scene */

static sinew_scene *load(const char *path)
{
	char error[1024];
	sinew_scene *scene = sinew_scene_load_file(path, error, sizeof error);
	if (scene == NULL) fprintf(stderr, "%s\n", error);
	return scene;
}

/* Backspace: the file again from the start (edits made since are picked up). The camera stays;
 * a file that no longer loads leaves the running scene alone. */
bool view_reload(viewer *v)
{
	sinew_scene *fresh = load(v->path);
	if (fresh == NULL) {
		view_say(v, "RESET FAILED: THE FILE DOES NOT LOAD (SEE THE TERMINAL)");
		return false;
	}
	int substeps = sinew_scene_get_substeps(v->scene);
	view_release(v);
	sinew_scene_destroy(v->scene);
	v->scene = fresh;
	v->world = sinew_scene_get_world(fresh);
	sinew_scene_set_substeps(fresh, substeps);
	view_sync_rigs(v);
	v->lag = 0.0;
	return true;
}

void view_step(viewer *v)
{
	Uint64 start = SDL_GetPerformanceCounter();
	sinew_scene_step(v->scene);
	double seconds = (double)(SDL_GetPerformanceCounter() - start) / (double)SDL_GetPerformanceFrequency();
	view_record_step_ms(v, (float)(seconds * 1000.0));
	if (!SINEW_IS_NULL(v->grab) && !sinew_joint_is_valid(v->grab)) v->grab = sinew_null_joint_id;
}

/* ---------------------------------------------------------------- window */

static bool open_window(viewer *v, const view_options *o, bool headless)
{
	Uint32 flags = headless ? SDL_WINDOW_HIDDEN : (SDL_WINDOW_SHOWN | SDL_WINDOW_RESIZABLE);
	char title[256];
	snprintf(title, sizeof title, "sinew-view: %s", sinew_scene_get_name(v->scene));
	v->window = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, o->width, o->height, flags);
	if (v->window == NULL) return false;
	/* headless: the software renderer, the same pixels on every machine */
	if (!headless) v->renderer = SDL_CreateRenderer(v->window, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
	if (v->renderer == NULL) v->renderer = SDL_CreateRenderer(v->window, -1, SDL_RENDERER_SOFTWARE);
	if (v->renderer == NULL) return false;
	SDL_GetRendererOutputSize(v->renderer, &v->camera.width, &v->camera.height);
	return true;
}

static void render_frame(viewer *v)
{
	view_draw_world(v);
	view_draw_hud(v);
}

static bool write_screenshot(viewer *v, const char *path)
{
	int w = v->camera.width, h = v->camera.height;
	unsigned char *rgb = malloc((size_t)w * (size_t)h * 3u);
	if (rgb == NULL) return false;
	bool ok = SDL_RenderReadPixels(v->renderer, NULL, SDL_PIXELFORMAT_RGB24, rgb, w * 3) == 0 &&
	          stbi_write_png(path, w, h, 3, rgb, w * 3) != 0;
	free(rgb);
	return ok;
}

static bool write_rig_state(const viewer *v, const char *path)
{
	FILE *f = fopen(path, "w");
	if (f != NULL) view_write_rig_state(v, f);
	if (f == NULL || ferror(f) || fclose(f) != 0) {
		fprintf(stderr, "sinew-view: %s: could not write the rigs' state\n", path);
		return false;
	}
	return true;
}

/* The mouse of --drag: pressed at one pixel, moved to another, as SDL would report it. */
static void synthetic_drag(viewer *v, const view_options *o)
{
	SDL_Event e;
	memset(&e, 0, sizeof e);
	e.type = SDL_MOUSEBUTTONDOWN;
	e.button.button = SDL_BUTTON_LEFT;
	e.button.x = o->drag_from[0], e.button.y = o->drag_from[1];
	view_handle_event(v, &e);
	memset(&e, 0, sizeof e);
	e.type = SDL_MOUSEMOTION;
	e.motion.x = o->drag_to[0], e.motion.y = o->drag_to[1];
	e.motion.xrel = o->drag_to[0] - o->drag_from[0], e.motion.yrel = o->drag_to[1] - o->drag_from[1];
	e.motion.state = SDL_BUTTON_LMASK;
	view_handle_event(v, &e);
}

static int screenshot(viewer *v, const view_options *o)
{
	sinew_trace *trace = NULL;
	char error[512];
	if (o->trace != NULL && (trace = sinew_trace_open(v->scene, o->trace, 1, error, sizeof error)) == NULL) {
		fprintf(stderr, "sinew-view: %s\n", error);
		return VIEW_FAILED;
	}
	v->mouse_x = v->camera.width / 2, v->mouse_y = v->camera.height / 2;
	if (o->drag) synthetic_drag(v, o);
	for (const char *k = o->press; k != NULL && *k != 0; ++k) {
		/* the keycode of a printable key is its character ('1', 'c', '.', '+', ' ') */
		SDL_Event e;
		memset(&e, 0, sizeof e);
		e.type = SDL_KEYDOWN;
		e.key.keysym.sym = (SDL_Keycode)*k;
		view_handle_event(v, &e);
	}
	for (int i = 0; i < o->steps; ++i) {
		if (i == o->ragdoll_at) view_toggle_ragdolls(v);
		view_step(v);
		if (trace != NULL) sinew_trace_record(trace);
	}
	if (trace != NULL && !sinew_trace_close(trace)) {
		fprintf(stderr, "sinew-view: %s: could not write the trace\n", o->trace);
		return VIEW_FAILED;
	}
	if (o->rig_state != NULL && !write_rig_state(v, o->rig_state)) return VIEW_FAILED;
	render_frame(v);
	if (!write_screenshot(v, o->screenshot)) {
		fprintf(stderr, "sinew-view: %s: could not read back or write the frame: %s\n", o->screenshot, SDL_GetError());
		return VIEW_FAILED;
	}
	return VIEW_OK;
}

static void run(viewer *v)
{
	double dt = 1.0 / (double)sinew_scene_get_hz(v->scene);
	Uint64 last = SDL_GetPerformanceCounter();
	while (!v->quit) {
		SDL_Event e;
		while (SDL_PollEvent(&e)) view_handle_event(v, &e);
		Uint64 now = SDL_GetPerformanceCounter();
		double elapsed = (double)(now - last) / (double)SDL_GetPerformanceFrequency();
		last = now;
		dt = 1.0 / (double)sinew_scene_get_hz(v->scene);
		if (!v->paused) v->lag += elapsed;
		int steps = 0;
		while (!v->paused && v->lag >= dt && steps < MAX_STEPS_PER_FRAME) {
			view_step(v);
			v->lag -= dt;
			steps += 1;
		}
		if (v->lag > dt * MAX_STEPS_PER_FRAME) v->lag = 0.0; /* too slow for real time: slow motion, not a spiral */
		for (; v->steps_pending > 0; --v->steps_pending) view_step(v);
		render_frame(v);
		SDL_RenderPresent(v->renderer);
		SDL_Delay(1); /* without vsync, leave the other processes some of the core */
	}
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--check") == 0) return view_check_command(argc - 1, argv + 1);
	view_options o;
	int status = parse_options(argc, argv, &o);
	if (status != VIEW_OK) return status;
	viewer v;
	memset(&v, 0, sizeof v);
	v.path = o.scene;
	v.scene = load(o.scene);
	if (v.scene == NULL) return VIEW_USAGE;
	v.world = sinew_scene_get_world(v.scene);
	v.show_joint_extras = true;
	view_sync_rigs(&v);
	bool headless = o.screenshot != NULL;
	if (SDL_Init(SDL_INIT_VIDEO) != 0 || !open_window(&v, &o, headless)) {
		fprintf(stderr, "sinew-view: no display: %s (headless: run under xvfb-run)\n", SDL_GetError());
		sinew_scene_destroy(v.scene);
		SDL_Quit();
		return VIEW_FAILED;
	}
	view_frame_scene(&v);
	if (headless) status = screenshot(&v, &o);
	else run(&v);
	sinew_scene_destroy(v.scene);
	SDL_DestroyRenderer(v.renderer);
	SDL_DestroyWindow(v.window);
	SDL_Quit();
	return status;
}
