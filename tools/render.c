/* `sinew render SCENE --out FILE.png [--step N] [--frames A:B:K] [--size WxH] [--contacts] [--aabbs]`:
 * step a scene and draw it through the engine's debug draw (sinew_world_draw) into a PNG, with the
 * rasteriser of raster.c. --frames draws steps A, A+K, ... up to B as a labelled contact sheet.
 * The view fits the moving bodies (and the static ones near them) over every frame drawn, so a
 * contact sheet keeps one camera. Exit status as `sinew run`: 0 drawn, 2 bad usage or scene, 1 else. */
#include "raster.h"
#include "sinew/scene.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include "stb_image_write.h"

enum { RENDER_OK = 0, RENDER_FAILED = 1, RENDER_USAGE = 2 };
enum { MAX_FRAMES = 64, MAX_SIDE = 8192 };

int render_command(int argc, char **argv);

typedef struct render_options {
	const char *scene;
	const char *out;
	int step;                  /* -1: the scene's default steps */
	int first, last, every;    /* --frames; every == 0: a single frame */
	int width, height;         /* 0: the default size */
	bool contacts, aabbs;
} render_options;

static int usage(const char *message, const char *arg)
{
	fprintf(stderr, "sinew render: %s%s%s\n", message, arg != NULL ? ": " : "", arg != NULL ? arg : "");
	fprintf(stderr, "try: sinew render --help\n"); /* one list of the options: tools/sinew.c's */
	return RENDER_USAGE;
}

/* A whole decimal number 0..1e9 ending at *end, or -1. */
static long parse_number(const char *s, char **end)
{
	if (s == NULL || *s < '0' || *s > '9') return -1;
	long v = strtol(s, end, 10);
	return v > 1000000000L ? -1 : v;
}

static bool parse_pair(const char *s, char sep, long *a, long *b)
{
	char *end = NULL;
	*a = parse_number(s, &end);
	if (*a < 0 || *end != sep) return false;
	*b = parse_number(end + 1, &end);
	return *b >= 0 && *end == 0;
}

static bool parse_frames(const char *s, render_options *o)
{
	char *end = NULL;
	long a = parse_number(s, &end), b, k;
	if (a < 0 || *end != ':' || !parse_pair(end + 1, ':', &b, &k)) return false;
	if (b < a || k < 1) return false;
	o->first = (int)a, o->last = (int)b, o->every = (int)k;
	return true;
}

/* "--name value" or "--name=value" at argv[*i]: the value (advancing *i), or NULL. */
static const char *value_of(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);
	if (strncmp(argv[*i], name, n) != 0) return NULL;
	if (argv[*i][n] == '=') return argv[*i] + n + 1;
	if (argv[*i][n] != 0 || *i + 1 >= argc) return NULL;
	return argv[++*i];
}

static bool is_opt(const char *arg, const char *name)
{
	size_t n = strlen(name);
	return strncmp(arg, name, n) == 0 && (arg[n] == 0 || arg[n] == '=');
}

static int parse_options(int argc, char **argv, render_options *o)
{
	memset(o, 0, sizeof *o);
	o->step = -1;
	for (int i = 1; i < argc; ++i) {
		const char *arg = argv[i];
		long a, b;
		if (is_opt(arg, "--out")) {
			o->out = value_of(argc, argv, &i, "--out");
			if (o->out == NULL || o->out[0] == 0) return usage("--out needs a file name", NULL);
		} else if (is_opt(arg, "--step")) {
			char *end = NULL;
			const char *v = value_of(argc, argv, &i, "--step");
			long n = parse_number(v, &end);
			if (n < 0 || *end != 0) return usage("--step needs a whole number >= 0", v);
			o->step = (int)n;
		} else if (is_opt(arg, "--frames")) {
			const char *v = value_of(argc, argv, &i, "--frames");
			if (!parse_frames(v, o)) return usage("--frames needs A:B:K with A <= B and K >= 1", v);
		} else if (is_opt(arg, "--size")) {
			const char *v = value_of(argc, argv, &i, "--size");
			if (v == NULL || !parse_pair(v, 'x', &a, &b) || a < 16 || b < 16 || a > MAX_SIDE || b > MAX_SIDE)
				return usage("--size needs WxH, each 16..8192", v);
			o->width = (int)a, o->height = (int)b;
		} else if (strcmp(arg, "--contacts") == 0) {
			o->contacts = true;
		} else if (strcmp(arg, "--aabbs") == 0) {
			o->aabbs = true;
		} else if (arg[0] == '-' && arg[1] != 0) {
			return usage("unknown option", arg);
		} else if (o->scene == NULL) {
			o->scene = arg;
		} else {
			return usage("one scene at a time; extra argument", arg);
		}
	}
	if (o->scene == NULL) return usage("no scene file given", NULL);
	if (o->out == NULL) return usage("no --out FILE.png given", NULL);
	size_t n = strlen(o->out);
	if (n < 5 || strcmp(o->out + n - 4, ".png") != 0) { /* it writes PNG only: never a PNG named .jpg */
		return usage("--out must name a .png file (render writes PNG only)", o->out);
	}
	if (o->every > 0 && o->step >= 0) return usage("--step and --frames do not go together", NULL);
	if (o->every > 0 && (o->last - o->first) / o->every + 1 > MAX_FRAMES) return usage("too many frames", NULL);
	return RENDER_OK;
}

/* ---------------------------------------------------------------- the view */

static bool box_is_finite(sinew_aabb b)
{
	return sinew_vec2_is_valid(b.lower) && sinew_vec2_is_valid(b.upper) && b.lower.x <= b.upper.x &&
	       b.lower.y <= b.upper.y;
}

/* What to show of the scene now: every moving body, and the static bodies only where they come
 * near them (a 80 m ground would otherwise shrink a 20 m pyramid); all static bodies when nothing
 * moves. Returns false when there is nothing to show. */
static bool scene_bounds(const sinew_scene *scene, sinew_aabb *out)
{
	bool have_moving = false, have_static = false;
	sinew_aabb moving = {{0, 0}, {0, 0}}, still = {{0, 0}, {0, 0}};
	int n = sinew_scene_get_body_count(scene);
	/* rigs: where their figures are (the proxies are not the scene's bodies) */
	for (int i = 0; i < sinew_scene_get_rig_count(scene); ++i) {
		const sinew_rig *rig = sinew_scene_get_rig(scene, i);
		float r = sinew_rig_get_skeleton(rig)->head_radius;
		sinew_rig_part_state parts[SINEW_PART_COUNT];
		sinew_ragdoll_get_parts(sinew_scene_get_ragdoll(scene, i), parts);
		for (int p = 0; p < SINEW_PART_COUNT; ++p) {
			sinew_rig_part_state part = parts[p];
			sinew_vec2 pad = p == SINEW_PART_HEAD ? sinew_v2(r, r) : sinew_v2(0.0f, 0.0f);
			sinew_vec2 lo = p == SINEW_PART_HEAD ? part.center : sinew_vmin(part.origin, part.tip);
			sinew_vec2 hi = p == SINEW_PART_HEAD ? part.center : sinew_vmax(part.origin, part.tip);
			sinew_aabb box = {sinew_sub(lo, pad), sinew_add(hi, pad)};
			moving = have_moving ? sinew_aabb_union(moving, box) : box;
			have_moving = true;
		}
	}
	for (int pass = 0; pass < 2; ++pass) {
		for (int i = 0; i < n; ++i) {
			sinew_body_id b = sinew_scene_get_body(scene, i);
			if (!sinew_body_is_valid(b) || sinew_body_get_shape_count(b) == 0) continue;
			sinew_aabb box = sinew_body_compute_aabb(b);
			if (!box_is_finite(box)) continue;
			bool is_static = sinew_body_get_type(b) == SINEW_STATIC_BODY;
			if (pass == 0 && !is_static) {
				moving = have_moving ? sinew_aabb_union(moving, box) : box;
				have_moving = true;
			} else if (pass == 1 && is_static) {
				if (have_moving) {
					/* clip the static box to the moving bodies' box grown by a quarter of its size */
					float m = 0.02f * sinew_maxf(moving.upper.x - moving.lower.x, moving.upper.y - moving.lower.y);
					sinew_vec2 pad = sinew_v2(0.25f * (moving.upper.x - moving.lower.x) + m,
					                          0.25f * (moving.upper.y - moving.lower.y) + m);
					sinew_aabb near = {sinew_sub(moving.lower, pad), sinew_add(moving.upper, pad)};
					if (!sinew_aabb_overlaps(near, box)) continue;
					box.lower = sinew_vmax(box.lower, near.lower);
					box.upper = sinew_vmin(box.upper, near.upper);
				}
				still = have_static ? sinew_aabb_union(still, box) : box;
				have_static = true;
			}
		}
	}
	if (!have_moving && !have_static) return false;
	*out = have_moving && have_static ? sinew_aabb_union(moving, still) : (have_moving ? moving : still);
	return true;
}

/* ---------------------------------------------------------------- frames */

typedef struct sheet {
	int frames[MAX_FRAMES];
	int count;
	int cols, rows;
} sheet;

static void plan_sheet(const render_options *o, int default_steps, sheet *s)
{
	s->count = 0;
	if (o->every == 0) {
		s->frames[s->count++] = o->step >= 0 ? o->step : default_steps;
	} else {
		for (int f = o->first; f <= o->last && s->count < MAX_FRAMES; f += o->every) s->frames[s->count++] = f;
	}
	s->cols = (int)ceil(sqrt((double)s->count));
	s->rows = (s->count + s->cols - 1) / s->cols;
}

static sinew_scene *load(const char *path)
{
	char error[1024];
	sinew_scene *scene = sinew_scene_load_file(path, error, sizeof error);
	if (scene == NULL) fprintf(stderr, "%s\n", error);
	return scene;
}

static void step_to(sinew_scene *scene, int step)
{
	while (sinew_scene_get_step(scene) < step) sinew_scene_step(scene);
}

/* The union of the scene's bounds over every frame of the sheet (one camera for all tiles). */
static bool sheet_bounds(const char *path, const sheet *s, sinew_aabb *box)
{
	sinew_scene *scene = load(path);
	if (scene == NULL) return false;
	bool any = false;
	for (int i = 0; i < s->count; ++i) {
		step_to(scene, s->frames[i]);
		sinew_aabb b;
		if (!scene_bounds(scene, &b)) continue;
		*box = any ? sinew_aabb_union(*box, b) : b;
		any = true;
	}
	sinew_scene_destroy(scene);
	if (!any) *box = (sinew_aabb){{-10.0f, -10.0f}, {10.0f, 10.0f}};
	return true;
}

static void draw_tile(raster *r, sinew_scene *scene, const render_options *o, int frame, bool sheet_mode)
{
	const sinew_color ink = {0.25f, 0.25f, 0.3f, 1.0f};
	sinew_debug_draw draw = raster_debug_draw(r);
	/* zoomed far out, joint decorations would hide the bodies: shrink the dots, drop the arcs */
	float px_per_metre = r->scale * sinew_world_get_length_units_per_meter(sinew_scene_get_world(scene));
	r->point_scale = sinew_clampf(px_per_metre / 60.0f, 0.35f, 1.0f);
	draw.draw_joint_extras = px_per_metre >= 60.0f;
	draw.draw_contacts = o->contacts;
	draw.draw_contact_normals = o->contacts;
	draw.draw_aabbs = o->aabbs;
	/* each rig's own figure first (its ragdoll while limp), so its proxies or ragdoll bodies (bodies
	 * of the world) show over it */
	for (int i = 0; i < sinew_scene_get_rig_count(scene); ++i) sinew_ragdoll_draw(sinew_scene_get_ragdoll(scene, i), &draw);
	sinew_world_draw(sinew_scene_get_world(scene), &draw);
	char label[96];
	if (sheet_mode) snprintf(label, sizeof label, "%d", frame);
	else snprintf(label, sizeof label, "%s  step %d", sinew_scene_get_name(scene), frame);
	raster_text(r, r->vx + 6, r->vy + 6, label, 2, ink);
}

static void draw_sheet(raster *r, sinew_scene *scene, const render_options *o, const sheet *s, sinew_aabb box)
{
	const sinew_color rule = {0.75f, 0.75f, 0.78f, 1.0f};
	sinew_vec2 g = sinew_world_get_gravity(sinew_scene_get_world(scene));
	int tw = r->width / s->cols, th = r->height / s->rows;
	for (int i = 0; i < s->count; ++i) {
		int x = (i % s->cols) * tw, y = (i / s->cols) * th;
		raster_set_viewport(r, x, y, tw, th);
		r->y_down = g.y > 0.0f; /* a world falling towards +y is a pixel world: y down on screen too */
		raster_fit(r, box, 0.05f * (float)(tw < th ? tw : th) + 4.0f);
		step_to(scene, s->frames[i]);
		draw_tile(r, scene, o, s->frames[i], s->count > 1 || o->every > 0);
		if (s->count > 1) {
			raster_rect(r, x, y + th - 1, x + tw, y + th, rule);
			raster_rect(r, x + tw - 1, y, x + tw, y + th, rule);
		}
	}
}

static bool write_png(const raster *r, const char *path)
{
	/* RGB: the image is opaque, and a quarter smaller without alpha */
	size_t n = (size_t)r->width * (size_t)r->height;
	unsigned char *rgb = malloc(n * 3u);
	if (rgb == NULL) return false;
	for (size_t i = 0; i < n; ++i) memcpy(rgb + 3 * i, r->pixels + 4 * i, 3);
	stbi_write_png_compression_level = 9;
	int ok = stbi_write_png(path, r->width, r->height, 3, rgb, r->width * 3);
	free(rgb);
	return ok != 0;
}

int render_command(int argc, char **argv)
{
	render_options o;
	int status = parse_options(argc, argv, &o);
	if (status != RENDER_OK) return status;
	sinew_scene *scene = load(o.scene);
	if (scene == NULL) return RENDER_USAGE;
	sheet s;
	plan_sheet(&o, sinew_scene_get_default_steps(scene), &s);
	sinew_aabb box;
	if (s.count == 1) {
		/* one frame: step there once and look (a sheet replays the scene to find its camera first) */
		step_to(scene, s.frames[0]);
		if (!scene_bounds(scene, &box)) box = (sinew_aabb){{-10.0f, -10.0f}, {10.0f, 10.0f}};
	} else if (!sheet_bounds(o.scene, &s, &box)) {
		sinew_scene_destroy(scene);
		return RENDER_USAGE;
	}
	bool sheet_mode = o.every > 0;
	int w = o.width > 0 ? o.width : (sheet_mode ? 960 : 640), h = o.height > 0 ? o.height : (sheet_mode ? 540 : 360);
	raster r;
	if (!raster_init(&r, w, h)) {
		fprintf(stderr, "sinew render: out of memory for a %dx%d image\n", w, h);
		sinew_scene_destroy(scene);
		return RENDER_FAILED;
	}
	draw_sheet(&r, scene, &o, &s, box);
	if (!write_png(&r, o.out)) {
		fprintf(stderr, "sinew render: %s: could not write the PNG\n", o.out);
		status = RENDER_FAILED;
	}
	if (sinew_scene_get_error_count(scene) > 0) {
		fprintf(stderr, "sinew render: %s: the engine reported %d error(s); the last, %s\n", o.scene,
		        sinew_scene_get_error_count(scene), sinew_scene_get_last_error(scene));
		status = RENDER_FAILED;
	}
	raster_free(&r);
	sinew_scene_destroy(scene);
	return status;
}
