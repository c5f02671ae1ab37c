/* Drawing onto the SDL renderer: the debug-draw callbacks of include/sinew/draw.h (fills as triangle
 * fans through SDL_RenderGeometry, outlines as line strips), and text in the built-in 3x5 font of
 * tools/raster.c, so the viewer and `sinew render` write the same letters. */
#include "../raster.h"
#include "view.h"

#include <math.h>
#include <string.h>

#define MAX_OUTLINE 512

static SDL_Color to_sdl(sinew_color c)
{
	SDL_Color s = {(Uint8)(sinew_clampf(c.r, 0.0f, 1.0f) * 255.0f + 0.5f),
	               (Uint8)(sinew_clampf(c.g, 0.0f, 1.0f) * 255.0f + 0.5f),
	               (Uint8)(sinew_clampf(c.b, 0.0f, 1.0f) * 255.0f + 0.5f),
	               (Uint8)(sinew_clampf(c.a, 0.0f, 1.0f) * 255.0f + 0.5f)};
	return s;
}

/* Arc segments for a corner of radius_px pixels turning by angle radians: smooth, never wasteful. */
static int arc_segments(float radius_px, float angle)
{
	int n = (int)ceilf(angle / (2.0f * SINEW_PI) * sinew_clampf(radius_px, 8.0f, 96.0f));
	return n < 1 ? 1 : n;
}

/* The outline, in screen pixels, of the convex polygon (counter-clockwise in the world) grown by
 * radius: each vertex becomes an arc from the normal of the edge before to the normal of the edge
 * after. One vertex is a circle, two a capsule. Returns the point count. */
static int rounded_outline(const view_camera *cam, const sinew_vec2 *v, int n, float radius, sinew_vec2 *out)
{
	int count = 0;
	if (radius <= 0.0f || n == 0) {
		for (int i = 0; i < n && count < MAX_OUTLINE; ++i) out[count++] = view_to_screen(cam, v[i]);
		return count;
	}
	float rpx = radius * cam->scale;
	for (int i = 0; i < n; ++i) {
		float a0, a1;
		if (n == 1) {
			a0 = 0.0f, a1 = 2.0f * SINEW_PI;
		} else {
			sinew_vec2 before = sinew_sub(v[i], v[(i + n - 1) % n]), after = sinew_sub(v[(i + 1) % n], v[i]);
			a0 = atan2f(-before.x, before.y); /* the outward normal of a counter-clockwise edge */
			a1 = atan2f(-after.x, after.y);
			while (a1 < a0) a1 += 2.0f * SINEW_PI;
		}
		int k = arc_segments(rpx, a1 - a0);
		for (int s = 0; s <= k && count < MAX_OUTLINE; ++s) {
			if (n == 1 && s == k) break;
			float a = a0 + (a1 - a0) * (float)s / (float)k;
			out[count++] = view_to_screen(cam, sinew_mul_add(v[i], radius, sinew_v2(cosf(a), sinf(a))));
		}
	}
	return count;
}

static void fill_fan(SDL_Renderer *r, const sinew_vec2 *p, int n, SDL_Color color)
{
	if (n < 3) return;
	SDL_Vertex verts[MAX_OUTLINE * 3];
	int k = 0;
	for (int i = 1; i + 1 < n; ++i) {
		const sinew_vec2 *tri[3] = {&p[0], &p[i], &p[i + 1]};
		for (int j = 0; j < 3; ++j) {
			verts[k].position.x = tri[j]->x, verts[k].position.y = tri[j]->y;
			verts[k].color = color;
			verts[k].tex_coord.x = verts[k].tex_coord.y = 0.0f;
			++k;
		}
	}
	SDL_RenderGeometry(r, NULL, verts, k, NULL, 0);
}

static void stroke_loop(SDL_Renderer *r, const sinew_vec2 *p, int n, SDL_Color color, bool closed)
{
	SDL_FPoint pts[MAX_OUTLINE + 1];
	for (int i = 0; i < n; ++i) pts[i].x = p[i].x, pts[i].y = p[i].y;
	if (closed && n > 2) pts[n++] = pts[0];
	SDL_SetRenderDrawColor(r, color.r, color.g, color.b, color.a);
	SDL_RenderDrawLinesF(r, pts, n);
}

/* A line w pixels wide, as a quad (SDL's lines are one pixel). */
static void thick_line(SDL_Renderer *r, sinew_vec2 a, sinew_vec2 b, float w, SDL_Color color)
{
	sinew_vec2 d = sinew_sub(b, a);
	float len = sinew_length(d);
	if (len < 1e-3f || w <= 1.0f) {
		SDL_SetRenderDrawColor(r, color.r, color.g, color.b, color.a);
		SDL_RenderDrawLineF(r, a.x, a.y, b.x, b.y);
		return;
	}
	sinew_vec2 n = sinew_scale(0.5f * w / len, sinew_left_perp(d));
	sinew_vec2 quad[4] = {sinew_add(a, n), sinew_add(b, n), sinew_sub(b, n), sinew_sub(a, n)};
	fill_fan(r, quad, 4, color);
}

/* ---------------------------------------------------------------- callbacks */

static void cb_polygon(const sinew_vec2 *vertices, int count, float radius, sinew_color color, void *context)
{
	viewer *v = context;
	sinew_vec2 p[MAX_OUTLINE];
	int n = rounded_outline(&v->camera, vertices, count, radius, p);
	stroke_loop(v->renderer, p, n, to_sdl(color), true);
}

static void cb_solid_polygon(const sinew_vec2 *vertices, int count, float radius, sinew_color fill, sinew_color outline,
                             void *context)
{
	viewer *v = context;
	sinew_vec2 p[MAX_OUTLINE];
	int n = rounded_outline(&v->camera, vertices, count, radius, p);
	fill_fan(v->renderer, p, n, to_sdl(fill));
	stroke_loop(v->renderer, p, n, to_sdl(outline), true);
}

static void cb_circle(sinew_vec2 center, float radius, sinew_color color, void *context)
{
	cb_polygon(&center, 1, radius, color, context);
}

static void cb_solid_circle(sinew_transform xf, float radius, sinew_color fill, sinew_color outline, void *context)
{
	viewer *v = context;
	cb_solid_polygon(&xf.p, 1, radius, fill, outline, context);
	sinew_vec2 rim = sinew_mul_add(xf.p, radius, sinew_v2(xf.q.c, xf.q.s));
	thick_line(v->renderer, view_to_screen(&v->camera, xf.p), view_to_screen(&v->camera, rim), 1.0f, to_sdl(outline));
}

static void cb_solid_capsule(sinew_vec2 p1, sinew_vec2 p2, float radius, sinew_color fill, sinew_color outline,
                             void *context)
{
	sinew_vec2 v[2] = {p1, p2};
	cb_solid_polygon(v, 2, radius, fill, outline, context);
}

static void cb_segment(sinew_vec2 p1, sinew_vec2 p2, sinew_color color, void *context)
{
	viewer *v = context;
	thick_line(v->renderer, view_to_screen(&v->camera, p1), view_to_screen(&v->camera, p2), 1.0f, to_sdl(color));
}

static void cb_point(sinew_vec2 p, float size_px, sinew_color color, void *context)
{
	viewer *v = context;
	sinew_vec2 s = view_to_screen(&v->camera, p);
	SDL_Color c = to_sdl(color);
	/* zoomed far out, anchor dots would hide the bodies (as in sinew render) */
	float ppm = v->camera.scale * sinew_world_get_length_units_per_meter(v->world);
	size_px *= sinew_clampf(ppm / 60.0f, 0.35f, 1.0f);
	SDL_FRect rect = {s.x - 0.5f * size_px, s.y - 0.5f * size_px, size_px, size_px};
	SDL_SetRenderDrawColor(v->renderer, c.r, c.g, c.b, c.a);
	SDL_RenderFillRectF(v->renderer, &rect);
}

static void cb_transform(sinew_transform xf, void *context)
{
	viewer *v = context;
	float len = 0.25f * sinew_world_get_length_units_per_meter(v->world);
	sinew_vec2 o = view_to_screen(&v->camera, xf.p);
	sinew_vec2 x = view_to_screen(&v->camera, sinew_mul_add(xf.p, len, sinew_v2(xf.q.c, xf.q.s)));
	sinew_vec2 y = view_to_screen(&v->camera, sinew_mul_add(xf.p, len, sinew_v2(-xf.q.s, xf.q.c)));
	SDL_Color red = {220, 40, 40, 255}, green = {40, 170, 40, 255};
	thick_line(v->renderer, o, x, 1.0f, red);
	thick_line(v->renderer, o, y, 1.0f, green);
}

static void cb_string(sinew_vec2 p, const char *text, sinew_color color, void *context)
{
	viewer *v = context;
	sinew_vec2 s = view_to_screen(&v->camera, p);
	view_text(v->renderer, (int)s.x, (int)s.y, text, 2, to_sdl(color));
}

sinew_debug_draw view_debug_draw(viewer *v)
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
	d.draw_contacts = v->show_contacts;
	d.draw_contact_normals = v->show_contacts && v->show_normals;
	d.draw_aabbs = v->show_aabbs;
	/* limit arcs are a quarter metre: below 60 px per metre they are clutter (as in sinew render) */
	d.draw_joint_extras = v->show_joint_extras &&
	                      v->camera.scale * sinew_world_get_length_units_per_meter(v->world) >= 60.0f;
	d.context = v;
	/* only what is on screen (a 100 m ground stays one polygon; a 10,000-body heap gets culled) */
	d.use_drawing_bounds = true;
	sinew_vec2 a = view_to_world(&v->camera, 0.0f, 0.0f);
	sinew_vec2 b = view_to_world(&v->camera, (float)v->camera.width, (float)v->camera.height);
	d.drawing_bounds.lower = sinew_vmin(a, b);
	d.drawing_bounds.upper = sinew_vmax(a, b);
	return d;
}

void view_draw_world(viewer *v)
{
	SDL_SetRenderDrawBlendMode(v->renderer, SDL_BLENDMODE_BLEND);
	SDL_SetRenderDrawColor(v->renderer, 250, 250, 247, 255);
	SDL_RenderClear(v->renderer);
	sinew_debug_draw draw = view_debug_draw(v);
	sinew_world_draw(v->world, &draw);
	view_draw_rigs(v, &draw);
}

/* ---------------------------------------------------------------- text */

int view_text_width(const char *text, int size)
{
	return raster_text_width(text, size);
}

void view_fill_rect(SDL_Renderer *r, int x, int y, int w, int h, SDL_Color color)
{
	SDL_Rect rect = {x, y, w, h};
	SDL_SetRenderDrawColor(r, color.r, color.g, color.b, color.a);
	SDL_RenderFillRect(r, &rect);
}

int view_text(SDL_Renderer *r, int x, int y, const char *text, int size, SDL_Color color)
{
	SDL_Rect cells[15];
	int cx = x;
	for (const char *c = text; *c != 0; ++c, cx += 4 * size) {
		const char *rows = raster_glyph(*c);
		if (rows == NULL) continue;
		int n = 0;
		for (int j = 0; j < 15; ++j)
			if (rows[j] == '#') cells[n++] = (SDL_Rect){cx + (j % 3) * size, y + (j / 3) * size, size, size};
		SDL_SetRenderDrawColor(r, color.r, color.g, color.b, color.a);
		SDL_RenderFillRects(r, cells, n);
	}
	return cx - x;
}
