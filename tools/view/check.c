/* `sinew-view --check SCENE SHOT.png [--trace T.json --expect NAME ...] [--differs OTHER.png]`:
 * the test of a screenshot (make test-viewer), with no display needed.
 *   - not blank: at least 0.5% of the pixels are ink (far from the background colour) in at least
 *     three colours;
 *   - each --expect NAME is where the trace's last frame says it is: a body ("ball"), a rig's part
 *     ("stick.head") or all ten parts of a rig ("stick") are projected through the camera the
 *     viewer used (the scene framed at step 0, as sinew-view frames it) and there must be ink within
 *     --radius pixels (default 3) of each (of a rig's head, which is a ring, near the ring);
 *   - --expect-at NAME X Y R: the trace puts body NAME's origin within R pixels of pixel (X, Y);
 *   - --expect-state STATE: every rig of the trace's last frame is in that state ("ragdoll", ...);
 *   - --differs OTHER.png: the two shots differ in at least 0.2% of the pixels above the status
 *     line (the status line always differs: it shows the step).
 * Prints one line per failed check and exits 1 when any failed, 2 on bad usage or unreadable input. */
#include "view.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stb_image.h"

#define MAX_EXPECT 32

static const sinew_scene *check_scene; /* the scene the shot is of (its rigs' head radius) */
#define HUD_BOTTOM 56 /* the status line and the message line above it */

static const char *const part_names[] = {"torso",           "head",           "left_upper_arm",  "left_lower_arm",
                                         "right_upper_arm", "right_lower_arm", "left_upper_leg", "left_lower_leg",
                                         "right_upper_leg", "right_lower_leg"};

typedef struct image {
	int w, h;
	unsigned char *rgb;
	int bg[3];
} image;

typedef struct expect_at {
	const char *name;
	int x, y, radius;
} expect_at;

typedef struct check_options {
	const char *scene, *shot, *trace, *other, *state;
	expect_at at[MAX_EXPECT];
	int at_count;
	const char *expect[MAX_EXPECT];
	int expect_count;
	int radius;
} check_options;

static int usage(const char *message, const char *arg)
{
	fprintf(stderr, "sinew-view --check: %s%s%s\n", message, arg != NULL ? ": " : "", arg != NULL ? arg : "");
	fprintf(stderr, "usage: sinew-view --check SCENE SHOT.png [--trace T.json --expect NAME ...] [--differs OTHER.png] "
	                "[--radius PX]\n");
	return 2;
}

static int parse(int argc, char **argv, check_options *o)
{
	memset(o, 0, sizeof *o);
	o->radius = 3;
	for (int i = 1; i < argc; ++i) {
		const char *arg = argv[i], *next = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(arg, "--trace") == 0 && next != NULL) {
			o->trace = argv[++i];
		} else if (strcmp(arg, "--expect") == 0 && next != NULL) {
			if (o->expect_count == MAX_EXPECT) return usage("too many --expect", next);
			o->expect[o->expect_count++] = argv[++i];
		} else if (strcmp(arg, "--expect-at") == 0 && i + 4 < argc) {
			if (o->at_count == MAX_EXPECT) return usage("too many --expect-at", next);
			expect_at *a = &o->at[o->at_count++];
			a->name = argv[i + 1], a->x = atoi(argv[i + 2]), a->y = atoi(argv[i + 3]), a->radius = atoi(argv[i + 4]);
			i += 4;
		} else if (strcmp(arg, "--expect-state") == 0 && next != NULL) {
			o->state = argv[++i];
		} else if (strcmp(arg, "--differs") == 0 && next != NULL) {
			o->other = argv[++i];
		} else if (strcmp(arg, "--radius") == 0 && next != NULL) {
			o->radius = atoi(argv[++i]);
		} else if (arg[0] == '-') {
			return usage("unknown option (or one without its value)", arg);
		} else if (o->scene == NULL) {
			o->scene = arg;
		} else if (o->shot == NULL) {
			o->shot = arg;
		} else {
			return usage("extra argument", arg);
		}
	}
	if (o->shot == NULL) return usage("give a scene and a screenshot", NULL);
	if ((o->expect_count > 0 || o->at_count > 0 || o->state != NULL) && o->trace == NULL)
		return usage("--expect needs --trace", NULL);
	return 0;
}

static const unsigned char *pixel(const image *im, int x, int y)
{
	return im->rgb + 3 * ((size_t)y * (size_t)im->w + (size_t)x);
}

static bool is_ink(const image *im, int x, int y)
{
	const unsigned char *p = pixel(im, x, y);
	int d = abs(p[0] - im->bg[0]) + abs(p[1] - im->bg[1]) + abs(p[2] - im->bg[2]);
	return d > 40;
}

/* The background: the colour of most pixels (sampled on a grid, quantised to 5 bits a channel). */
static void find_background(image *im)
{
	static int votes[1 << 15];
	memset(votes, 0, sizeof votes);
	int best = 0, best_key = 0;
	for (int y = 0; y < im->h; y += 3)
		for (int x = 0; x < im->w; x += 3) {
			const unsigned char *p = pixel(im, x, y);
			int key = (p[0] >> 3) << 10 | (p[1] >> 3) << 5 | (p[2] >> 3);
			if (++votes[key] > best) best = votes[key], best_key = key;
		}
	for (int c = 0; c < 3; ++c) im->bg[c] = (((best_key >> (10 - 5 * c)) & 31) << 3) + 4;
}

static bool load_image(const char *path, image *im)
{
	int n;
	im->rgb = stbi_load(path, &im->w, &im->h, &n, 3);
	if (im->rgb == NULL) {
		fprintf(stderr, "sinew-view --check: %s: cannot read the PNG\n", path);
		return false;
	}
	find_background(im);
	return true;
}

static int check_not_blank(const image *im, const char *name)
{
	long ink = 0;
	int colours = 0, seen[64];
	for (int y = 0; y < im->h; ++y)
		for (int x = 0; x < im->w; ++x) {
			if (!is_ink(im, x, y)) continue;
			ink += 1;
			const unsigned char *p = pixel(im, x, y);
			int key = (p[0] >> 6) << 4 | (p[1] >> 6) << 2 | (p[2] >> 6);
			bool known = false;
			for (int i = 0; i < colours; ++i) known = known || seen[i] == key;
			if (!known && colours < 64) seen[colours++] = key;
		}
	double fraction = (double)ink / ((double)im->w * (double)im->h);
	if (fraction >= 0.005 && colours >= 3) return 0;
	printf("%s: blank: %.3f%% ink in %d colours\n", name, 100.0 * fraction, colours);
	return 1;
}

/* Ink within radius pixels of world point p? */
static bool ink_near(const image *im, const view_camera *cam, sinew_vec2 p, int radius)
{
	sinew_vec2 s = view_to_screen(cam, p);
	int cx = (int)s.x, cy = (int)s.y;
	for (int y = cy - radius; y <= cy + radius; ++y)
		for (int x = cx - radius; x <= cx + radius; ++x)
			if (x >= 0 && y >= 0 && x < im->w && y < im->h - HUD_BOTTOM && is_ink(im, x, y)) return true;
	return false;
}

static bool point_of(json_t *obj, sinew_vec2 *out)
{
	json_t *p = json_object_get(obj, "p");
	if (!json_is_array(p) || json_array_size(p) != 2) return false;
	out->x = (float)json_number_value(json_array_get(p, 0));
	out->y = (float)json_number_value(json_array_get(p, 1));
	return true;
}

/* A rig's head is a ring: ink near one of eight points on it, head_radius (the scene's rig's) from
 * the centre the trace gives. */
static bool ink_on_ring(const image *im, const view_camera *cam, sinew_vec2 c, float head_radius, int radius)
{
	for (int k = 0; k < 8; ++k) {
		float a = (float)k * 0.25f * SINEW_PI;
		if (ink_near(im, cam, sinew_mul_add(c, head_radius, sinew_v2(cosf(a), sinf(a))), radius)) return true;
	}
	return false;
}

static int check_one(const image *im, const view_camera *cam, json_t *frame, const char *name, int radius)
{
	char rig[128];
	snprintf(rig, sizeof rig, "%s", name);
	char *dot = strchr(rig, '.');
	if (dot != NULL) *dot = 0;
	if (strcmp(name, "@rigs") == 0) { /* every rig of the frame */
		const char *key;
		json_t *value;
		int failed = 0;
		json_t *rigs = json_object_get(frame, "rigs");
		if (json_object_size(rigs) == 0) return printf("@rigs: the trace's last frame has no rigs\n"), 1;
		json_object_foreach(rigs, key, value) failed += check_one(im, cam, frame, key, radius);
		return failed;
	}
	json_t *body = json_object_get(json_object_get(frame, "bodies"), name);
	json_t *r = json_object_get(json_object_get(frame, "rigs"), rig);
	int failed = 0, found = 0;
	for (int i = 0; i < 10 && body == NULL && r != NULL; ++i) {
		if (dot != NULL && strcmp(dot + 1, part_names[i]) != 0) continue;
		sinew_vec2 p;
		if (!point_of(json_object_get(json_object_get(r, "parts"), part_names[i]), &p)) continue;
		found += 1;
		sinew_rig *live = sinew_scene_find_rig(check_scene, rig);
		float head = live != NULL ? sinew_rig_get_skeleton(live)->head_radius : 0.0f;
		bool ok = i == SINEW_PART_HEAD && head > 0.0f ? ink_on_ring(im, cam, p, head, radius) : ink_near(im, cam, p, radius);
		if (ok) continue;
		sinew_vec2 s = view_to_screen(cam, p);
		printf("%s.%s: no ink near pixel (%d, %d), where the trace puts it\n", rig, part_names[i], (int)s.x, (int)s.y);
		failed += 1;
	}
	sinew_vec2 p;
	if (body != NULL && point_of(body, &p)) {
		found = 1;
		sinew_vec2 s = view_to_screen(cam, p);
		if (!ink_near(im, cam, p, radius)) {
			printf("%s: no ink near pixel (%d, %d), where the trace puts it\n", name, (int)s.x, (int)s.y);
			failed += 1;
		}
	}
	if (found == 0) {
		printf("%s: not in the trace's last frame\n", name);
		return 1;
	}
	return failed;
}

/* --expect-at NAME X Y R: the trace puts body NAME within R pixels of pixel (X, Y) (where a
 * --drag pulled it to). */
static int check_at(const view_camera *cam, json_t *frame, const expect_at *a)
{
	sinew_vec2 p;
	if (!point_of(json_object_get(json_object_get(frame, "bodies"), a->name), &p)) {
		printf("%s: not in the trace's last frame\n", a->name);
		return 1;
	}
	sinew_vec2 s = view_to_screen(cam, p);
	float d = hypotf(s.x - (float)a->x, s.y - (float)a->y);
	if (d <= (float)a->radius) return 0;
	printf("%s: at pixel (%d, %d), %.0f px from (%d, %d)\n", a->name, (int)s.x, (int)s.y, (double)d, a->x, a->y);
	return 1;
}

static int check_state(json_t *frame, const char *state)
{
	const char *key;
	json_t *value;
	int failed = 0;
	json_t *rigs = json_object_get(frame, "rigs");
	if (json_object_size(rigs) == 0) return printf("--expect-state: the trace's last frame has no rigs\n"), 1;
	json_object_foreach(rigs, key, value) {
		const char *now = json_string_value(json_object_get(value, "state"));
		if (now != NULL && strcmp(now, state) == 0) continue;
		printf("%s: state %s, expected %s\n", key, now != NULL ? now : "(none)", state);
		failed += 1;
	}
	return failed;
}

static int check_expected(const image *im, const check_options *o)
{
	sinew_scene *scene = NULL;
	char error[1024];
	if ((scene = sinew_scene_load_file(o->scene, error, sizeof error)) == NULL) {
		fprintf(stderr, "%s\n", error);
		return -1;
	}
	json_error_t jerr;
	json_t *trace = json_load_file(o->trace, 0, &jerr);
	json_t *frames = json_object_get(trace, "frames");
	if (!json_is_array(frames) || json_array_size(frames) == 0) {
		fprintf(stderr, "sinew-view --check: %s: not a trace (%s)\n", o->trace, jerr.text);
		json_decref(trace);
		sinew_scene_destroy(scene);
		return -1;
	}
	/* the camera sinew-view used: this scene at step 0 framed in an image this size */
	viewer v;
	memset(&v, 0, sizeof v);
	v.scene = scene;
	v.world = sinew_scene_get_world(scene);
	v.camera.width = im->w, v.camera.height = im->h;
	view_frame_scene(&v);
	check_scene = scene;
	json_t *last = json_array_get(frames, json_array_size(frames) - 1);
	int failed = 0;
	for (int i = 0; i < o->expect_count; ++i) failed += check_one(im, &v.camera, last, o->expect[i], o->radius);
	for (int i = 0; i < o->at_count; ++i) failed += check_at(&v.camera, last, &o->at[i]);
	if (o->state != NULL) failed += check_state(last, o->state);
	json_decref(trace);
	sinew_scene_destroy(scene);
	return failed;
}

static int check_differs(const image *a, const char *name, const char *other_path)
{
	image b;
	if (!load_image(other_path, &b)) return -1;
	int failed = 0;
	if (a->w != b.w || a->h != b.h) {
		printf("%s: %dx%d, %s: %dx%d: not comparable\n", name, a->w, a->h, other_path, b.w, b.h);
		failed = 1;
	} else {
		long differ = 0, total = (long)a->w * (long)(a->h - HUD_BOTTOM);
		for (int y = 0; y < a->h - HUD_BOTTOM; ++y)
			for (int x = 0; x < a->w; ++x) {
				const unsigned char *p = pixel(a, x, y), *q = pixel(&b, x, y);
				if (abs(p[0] - q[0]) + abs(p[1] - q[1]) + abs(p[2] - q[2]) > 40) differ += 1;
			}
		if ((double)differ < 0.002 * (double)total) {
			printf("%s and %s: only %ld pixels differ\n", name, other_path, differ);
			failed = 1;
		}
	}
	stbi_image_free(b.rgb);
	return failed;
}

int view_check_command(int argc, char **argv)
{
	check_options o;
	int status = parse(argc, argv, &o);
	if (status != 0) return status;
	image im;
	if (!load_image(o.shot, &im)) return 2;
	int failed = check_not_blank(&im, o.shot), n;
	if (o.expect_count > 0) {
		if ((n = check_expected(&im, &o)) < 0) return stbi_image_free(im.rgb), 2;
		failed += n;
	}
	if (o.other != NULL) {
		if ((n = check_differs(&im, o.shot, o.other)) < 0) return stbi_image_free(im.rgb), 2;
		failed += n;
	}
	stbi_image_free(im.rgb);
	if (failed == 0) printf("%s: ok\n", o.shot);
	return failed == 0 ? 0 : 1;
}
