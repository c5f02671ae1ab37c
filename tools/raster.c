/* The software rasteriser of `sinew render` (see raster.h). */
#include "raster.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

bool raster_init(raster *r, int width, int height)
{
	memset(r, 0, sizeof *r);
	if (width <= 0 || height <= 0) return false;
	r->pixels = malloc((size_t)width * (size_t)height * 4u);
	if (r->pixels == NULL) return false;
	r->width = width, r->height = height;
	r->scale = 1.0f;
	r->point_scale = 1.0f;
	raster_set_viewport(r, 0, 0, width, height);
	sinew_color white = {1.0f, 1.0f, 1.0f, 1.0f};
	raster_clear(r, white);
	return true;
}

void raster_free(raster *r)
{
	free(r->pixels);
	r->pixels = NULL;
}

static unsigned char to_byte(float v)
{
	v = v < 0.0f ? 0.0f : (v > 1.0f ? 1.0f : v);
	return (unsigned char)(v * 255.0f + 0.5f);
}

void raster_clear(raster *r, sinew_color color)
{
	unsigned char px[4] = {to_byte(color.r), to_byte(color.g), to_byte(color.b), 255};
	size_t n = (size_t)r->width * (size_t)r->height;
	for (size_t i = 0; i < n; ++i) memcpy(r->pixels + 4 * i, px, 4);
}

void raster_set_viewport(raster *r, int x, int y, int width, int height)
{
	r->vx = x < 0 ? 0 : x;
	r->vy = y < 0 ? 0 : y;
	r->vw = x + width > r->width ? r->width - r->vx : width;
	r->vh = y + height > r->height ? r->height - r->vy : height;
}

void raster_fit(raster *r, sinew_aabb box, float margin_px)
{
	float w = sinew_maxf(box.upper.x - box.lower.x, 1e-6f), h = sinew_maxf(box.upper.y - box.lower.y, 1e-6f);
	float aw = sinew_maxf((float)r->vw - 2.0f * margin_px, 1.0f), ah = sinew_maxf((float)r->vh - 2.0f * margin_px, 1.0f);
	r->scale = sinew_minf(aw / w, ah / h);
	r->center = sinew_lerp(box.lower, box.upper, 0.5f);
}

sinew_vec2 raster_to_pixel(const raster *r, sinew_vec2 p)
{
	float x = (float)r->vx + 0.5f * (float)r->vw + (p.x - r->center.x) * r->scale;
	float dy = (p.y - r->center.y) * r->scale;
	float y = (float)r->vy + 0.5f * (float)r->vh + (r->y_down ? dy : -dy);
	return sinew_v2(x, y);
}

unsigned raster_get_pixel(const raster *r, int x, int y)
{
	if (x < 0 || y < 0 || x >= r->width || y >= r->height) return 0;
	const unsigned char *p = r->pixels + 4 * ((size_t)y * (size_t)r->width + (size_t)x);
	return (unsigned)p[0] << 16 | (unsigned)p[1] << 8 | (unsigned)p[2];
}

/* Blend color over pixel (x, y) with coverage cov in 0..1 (straight alpha). */
static void blend(raster *r, int x, int y, sinew_color c, float cov)
{
	float a = c.a * cov;
	if (a <= 0.0f) return;
	unsigned char *p = r->pixels + 4 * ((size_t)y * (size_t)r->width + (size_t)x);
	float src[3] = {c.r, c.g, c.b};
	for (int k = 0; k < 3; ++k) p[k] = to_byte(src[k] * a + (float)p[k] / 255.0f * (1.0f - a));
}

/* A hull prepared for distance queries: points and, for polygons, outward unit edge normals. */
typedef struct hull {
	sinew_vec2 p[SINEW_MAX_POLYGON_VERTICES];
	sinew_vec2 n[SINEW_MAX_POLYGON_VERTICES];
	int count;
} hull;

static hull make_hull(const sinew_vec2 *points, int n)
{
	hull h;
	h.count = n > SINEW_MAX_POLYGON_VERTICES ? SINEW_MAX_POLYGON_VERTICES : n;
	for (int i = 0; i < h.count; ++i) h.p[i] = points[i];
	if (h.count < 3) return h;
	/* the view may mirror the world (y up on screen), so take the winding from the signed area */
	float area = 0.0f;
	for (int i = 0; i < h.count; ++i) area += sinew_cross(h.p[i], h.p[(i + 1) % h.count]);
	for (int i = 0; i < h.count; ++i) {
		sinew_vec2 e = sinew_normalize(sinew_sub(h.p[(i + 1) % h.count], h.p[i]));
		h.n[i] = area > 0.0f ? sinew_right_perp(e) : sinew_left_perp(e);
	}
	return h;
}

static float segment_distance(sinew_vec2 p, sinew_vec2 a, sinew_vec2 b)
{
	sinew_vec2 ab = sinew_sub(b, a);
	float l2 = sinew_length_squared(ab);
	float t = l2 > 0.0f ? sinew_clampf(sinew_dot(sinew_sub(p, a), ab) / l2, 0.0f, 1.0f) : 0.0f;
	return sinew_distance(p, sinew_mul_add(a, t, ab));
}

/* Signed distance from p to the hull's core (negative inside a polygon). */
static float hull_distance(const hull *h, sinew_vec2 p)
{
	if (h->count == 1) return sinew_distance(p, h->p[0]);
	if (h->count == 2) return segment_distance(p, h->p[0], h->p[1]);
	float inside = -INFINITY;
	for (int i = 0; i < h->count; ++i) inside = sinew_maxf(inside, sinew_dot(h->n[i], sinew_sub(p, h->p[i])));
	if (inside <= 0.0f) return inside;
	float d = INFINITY;
	for (int i = 0; i < h->count; ++i) d = sinew_minf(d, segment_distance(p, h->p[i], h->p[(i + 1) % h->count]));
	return d;
}

/* Visit the viewport pixels of the hull's box grown by pad; coverage from the signed distance
 * sd = distance - radius: a fill covers sd < 0, a stroke covers |sd| < width / 2. */
static void draw_hull(raster *r, const hull *h, float radius, float stroke_width, sinew_color color)
{
	if (h->count < 1) return;
	float pad = radius + 0.5f * stroke_width + 1.0f;
	sinew_vec2 lo = h->p[0], hi = h->p[0];
	for (int i = 1; i < h->count; ++i) lo = sinew_vmin(lo, h->p[i]), hi = sinew_vmax(hi, h->p[i]);
	if (!(lo.x == lo.x && hi.x == hi.x && lo.y == lo.y && hi.y == hi.y)) return; /* NaN */
	float fx0 = sinew_maxf(lo.x - pad, (float)r->vx), fx1 = sinew_minf(hi.x + pad, (float)(r->vx + r->vw));
	float fy0 = sinew_maxf(lo.y - pad, (float)r->vy), fy1 = sinew_minf(hi.y + pad, (float)(r->vy + r->vh));
	if (fx0 >= fx1 || fy0 >= fy1) return;
	int x0 = (int)floorf(fx0), x1 = (int)ceilf(fx1), y0 = (int)floorf(fy0), y1 = (int)ceilf(fy1);
	for (int y = y0; y < y1; ++y) {
		for (int x = x0; x < x1; ++x) {
			float sd = hull_distance(h, sinew_v2((float)x + 0.5f, (float)y + 0.5f)) - radius;
			float cov = stroke_width > 0.0f ? 0.5f * stroke_width + 0.5f - sinew_absf(sd) : 0.5f - sd;
			if (cov > 0.0f) blend(r, x, y, color, sinew_minf(cov, 1.0f));
		}
	}
}

void raster_fill_hull(raster *r, const sinew_vec2 *points, int n, float radius, sinew_color color)
{
	hull h = make_hull(points, n);
	draw_hull(r, &h, radius, 0.0f, color);
}

void raster_stroke_hull(raster *r, const sinew_vec2 *points, int n, float radius, float width, sinew_color color)
{
	hull h = make_hull(points, n);
	draw_hull(r, &h, radius, width, color);
}

void raster_line(raster *r, sinew_vec2 a, sinew_vec2 b, float width, sinew_color color)
{
	sinew_vec2 p[2] = {a, b};
	raster_fill_hull(r, p, 2, 0.5f * width, color);
}

void raster_rect(raster *r, int x0, int y0, int x1, int y1, sinew_color color)
{
	if (x0 < r->vx) x0 = r->vx;
	if (y0 < r->vy) y0 = r->vy;
	if (x1 > r->vx + r->vw) x1 = r->vx + r->vw;
	if (y1 > r->vy + r->vh) y1 = r->vy + r->vh;
	for (int y = y0; y < y1; ++y)
		for (int x = x0; x < x1; ++x) blend(r, x, y, color, 1.0f);
}

/* ---------------------------------------------------------------- text */

/* 3x5 glyphs, five rows of three columns, top row first, '#' = ink. */
typedef struct glyph {
	char c;
	const char *rows;
} glyph;

static const glyph font[] = {
	{'0', "###" "#.#" "#.#" "#.#" "###"}, {'1', ".#." "##." ".#." ".#." "###"},
	{'2', "###" "..#" "###" "#.." "###"}, {'3', "###" "..#" ".##" "..#" "###"},
	{'4', "#.#" "#.#" "###" "..#" "..#"}, {'5', "###" "#.." "###" "..#" "###"},
	{'6', "###" "#.." "###" "#.#" "###"}, {'7', "###" "..#" "..#" ".#." ".#."},
	{'8', "###" "#.#" "###" "#.#" "###"}, {'9', "###" "#.#" "###" "..#" "###"},
	{'A', ".#." "#.#" "###" "#.#" "#.#"}, {'B', "##." "#.#" "##." "#.#" "##."},
	{'C', ".##" "#.." "#.." "#.." ".##"}, {'D', "##." "#.#" "#.#" "#.#" "##."},
	{'E', "###" "#.." "##." "#.." "###"}, {'F', "###" "#.." "##." "#.." "#.."},
	{'G', ".##" "#.." "#.#" "#.#" ".##"}, {'H', "#.#" "#.#" "###" "#.#" "#.#"},
	{'I', "###" ".#." ".#." ".#." "###"}, {'J', "..#" "..#" "..#" "#.#" ".#."},
	{'K', "#.#" "#.#" "##." "#.#" "#.#"}, {'L', "#.." "#.." "#.." "#.." "###"},
	{'M', "#.#" "###" "###" "#.#" "#.#"}, {'N', "##." "#.#" "#.#" "#.#" "#.#"},
	{'O', ".#." "#.#" "#.#" "#.#" ".#."}, {'P', "##." "#.#" "##." "#.." "#.."},
	{'Q', ".#." "#.#" "#.#" "##." ".##"}, {'R', "##." "#.#" "##." "#.#" "#.#"},
	{'S', ".##" "#.." ".#." "..#" "##."}, {'T', "###" ".#." ".#." ".#." ".#."},
	{'U', "#.#" "#.#" "#.#" "#.#" "###"}, {'V', "#.#" "#.#" "#.#" "#.#" ".#."},
	{'W', "#.#" "#.#" "###" "###" "#.#"}, {'X', "#.#" "#.#" ".#." "#.#" "#.#"},
	{'Y', "#.#" "#.#" ".#." ".#." ".#."}, {'Z', "###" "..#" ".#." "#.." "###"},
	{':', "..." ".#." "..." ".#." "..."}, {'.', "..." "..." "..." "..." ".#."},
	{'-', "..." "..." "###" "..." "..."}, {'+', "..." ".#." "###" ".#." "..."},
	{'=', "..." "###" "..." "###" "..."}, {'/', "..#" "..#" ".#." "#.." "#.."},
	{'_', "..." "..." "..." "..." "###"}, {'(', ".#." "#.." "#.." "#.." ".#."},
	{')', ".#." "..#" "..#" "..#" ".#."}, {',', "..." "..." "..." ".#." "#.."},
};

const char *raster_glyph(char c)
{
	if (c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
	for (size_t i = 0; i < sizeof font / sizeof font[0]; ++i)
		if (font[i].c == c) return font[i].rows;
	return NULL; /* a space, or a character the font lacks: an empty cell */
}

int raster_text_width(const char *text, int size)
{
	int n = (int)strlen(text);
	return n > 0 ? (4 * n - 1) * size : 0;
}

int raster_text(raster *r, int x, int y, const char *text, int size, sinew_color color)
{
	int cx = x;
	for (const char *c = text; *c != 0; ++c, cx += 4 * size) {
		const char *rows = raster_glyph(*c);
		if (rows == NULL) continue;
		for (int j = 0; j < 15; ++j)
			if (rows[j] == '#') {
				int px = cx + (j % 3) * size, py = y + (j / 3) * size;
				raster_rect(r, px, py, px + size, py + size, color);
			}
	}
	return cx - x;
}

/* ---------------------------------------------------------------- debug draw callbacks */

#define OUTLINE_PX 1.0f
#define SEGMENT_PX 1.25f

static int to_pixels(const raster *r, const sinew_vec2 *v, int count, sinew_vec2 *out)
{
	if (count > SINEW_MAX_POLYGON_VERTICES) count = SINEW_MAX_POLYGON_VERTICES;
	for (int i = 0; i < count; ++i) out[i] = raster_to_pixel(r, v[i]);
	return count;
}

static void cb_polygon(const sinew_vec2 *vertices, int count, float radius, sinew_color color, void *context)
{
	raster *r = context;
	sinew_vec2 p[SINEW_MAX_POLYGON_VERTICES];
	int n = to_pixels(r, vertices, count, p);
	raster_stroke_hull(r, p, n, radius * r->scale, OUTLINE_PX, color);
}

static void cb_solid_polygon(const sinew_vec2 *vertices, int count, float radius, sinew_color fill,
                             sinew_color outline, void *context)
{
	raster *r = context;
	sinew_vec2 p[SINEW_MAX_POLYGON_VERTICES];
	int n = to_pixels(r, vertices, count, p);
	raster_fill_hull(r, p, n, radius * r->scale, fill);
	raster_stroke_hull(r, p, n, radius * r->scale, OUTLINE_PX, outline);
}

static void cb_circle(sinew_vec2 center, float radius, sinew_color color, void *context)
{
	raster *r = context;
	sinew_vec2 c = raster_to_pixel(r, center);
	raster_stroke_hull(r, &c, 1, radius * r->scale, OUTLINE_PX, color);
}

static void cb_solid_circle(sinew_transform xf, float radius, sinew_color fill, sinew_color outline, void *context)
{
	raster *r = context;
	sinew_vec2 c = raster_to_pixel(r, xf.p);
	raster_fill_hull(r, &c, 1, radius * r->scale, fill);
	raster_stroke_hull(r, &c, 1, radius * r->scale, OUTLINE_PX, outline);
	sinew_vec2 rim = raster_to_pixel(r, sinew_mul_add(xf.p, radius, sinew_v2(xf.q.c, xf.q.s)));
	raster_line(r, c, rim, OUTLINE_PX, outline);
}

static void cb_solid_capsule(sinew_vec2 p1, sinew_vec2 p2, float radius, sinew_color fill, sinew_color outline,
                             void *context)
{
	raster *r = context;
	sinew_vec2 p[2] = {raster_to_pixel(r, p1), raster_to_pixel(r, p2)};
	raster_fill_hull(r, p, 2, radius * r->scale, fill);
	raster_stroke_hull(r, p, 2, radius * r->scale, OUTLINE_PX, outline);
}

static void cb_segment(sinew_vec2 p1, sinew_vec2 p2, sinew_color color, void *context)
{
	raster *r = context;
	raster_line(r, raster_to_pixel(r, p1), raster_to_pixel(r, p2), SEGMENT_PX, color);
}

static void cb_point(sinew_vec2 p, float size_px, sinew_color color, void *context)
{
	raster *r = context;
	sinew_vec2 c = raster_to_pixel(r, p);
	raster_fill_hull(r, &c, 1, 0.5f * size_px * r->point_scale, color);
}

static void cb_transform(sinew_transform xf, void *context)
{
	raster *r = context;
	const float len_px = 12.0f;
	sinew_color red = {0.9f, 0.1f, 0.1f, 1.0f}, green = {0.1f, 0.7f, 0.1f, 1.0f};
	sinew_vec2 c = raster_to_pixel(r, xf.p);
	sinew_vec2 x = raster_to_pixel(r, sinew_mul_add(xf.p, len_px / r->scale, sinew_v2(xf.q.c, xf.q.s)));
	sinew_vec2 y = raster_to_pixel(r, sinew_mul_add(xf.p, len_px / r->scale, sinew_v2(-xf.q.s, xf.q.c)));
	raster_line(r, c, x, SEGMENT_PX, red);
	raster_line(r, c, y, SEGMENT_PX, green);
}

static void cb_string(sinew_vec2 p, const char *text, sinew_color color, void *context)
{
	raster *r = context;
	sinew_vec2 c = raster_to_pixel(r, p);
	raster_text(r, (int)floorf(c.x), (int)floorf(c.y), text, 2, color);
}

sinew_debug_draw raster_debug_draw(raster *r)
{
	sinew_debug_draw d = sinew_default_debug_draw();
	d.draw_polygon = cb_polygon;
	d.draw_solid_polygon = cb_solid_polygon;
	d.draw_circle = cb_circle;
	d.draw_solid_circle = cb_solid_circle;
	d.draw_solid_capsule = cb_solid_capsule;
	d.draw_segment = cb_segment;
	d.draw_point = cb_point;
	d.draw_transform = cb_transform;
	d.draw_string = cb_string;
	d.skip_disabled = true; /* out of the simulation: a ragdolled rig's proxies would ghost its figure */
	d.context = r;
	return d;
}
