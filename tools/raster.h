/* A small software rasteriser for `sinew render` (and tests/test_render.c, which includes
 * raster.c directly). Everything is drawn from signed distances, per pixel, so edges are
 * anti-aliased: a pixel is covered by how far its centre lies inside the shape (1 px ramp).
 * The image is RGBA8, row 0 at the top. A viewport (a rectangle of the image) and a view
 * (world centre, pixels per length unit, y up or down) map world points to pixels; drawing is
 * clipped to the viewport, so a contact sheet is one image with one viewport per tile. */
#ifndef SINEW_TOOLS_RASTER_H
#define SINEW_TOOLS_RASTER_H

#include "sinew/draw.h"

#include <stdbool.h>

typedef struct raster {
	int width, height;
	unsigned char *pixels;  /* width * height * 4 bytes, RGBA */
	int vx, vy, vw, vh;     /* viewport: drawing is clipped to it */
	float scale;            /* pixels per length unit */
	sinew_vec2 center;      /* world point shown at the viewport's centre */
	bool y_down;            /* world y grows downwards (pixel worlds): no flip */
	float point_scale;      /* draw_point sizes are multiplied by this (default 1) */
} raster;

/* A width x height image, white, viewport = whole image, 1 px per unit. False when out of memory. */
bool raster_init(raster *r, int width, int height);
void raster_free(raster *r);
/* Fill the whole image. */
void raster_clear(raster *r, sinew_color color);
void raster_set_viewport(raster *r, int x, int y, int width, int height);
/* Centre the view on box and scale it to fit the viewport, leaving margin_px on every side. */
void raster_fit(raster *r, sinew_aabb box, float margin_px);
/* World point -> pixel coordinates (x right, y down; pixel (i, j) covers [i, i+1) x [j, j+1)). */
sinew_vec2 raster_to_pixel(const raster *r, sinew_vec2 p);
/* The pixel's colour as 0xRRGGBB (0 outside the image). */
unsigned raster_get_pixel(const raster *r, int x, int y);

/* Pixel-space primitives. A "hull" is a convex polygon of n >= 3 points (either winding), a
 * segment (n = 2) or a point (n = 1), grown by radius: that covers polygons, capsules, circles
 * and thick lines alike. */
void raster_fill_hull(raster *r, const sinew_vec2 *points, int n, float radius, sinew_color color);
/* The boundary of the grown hull, width pixels wide. */
void raster_stroke_hull(raster *r, const sinew_vec2 *points, int n, float radius, float width, sinew_color color);
void raster_line(raster *r, sinew_vec2 a, sinew_vec2 b, float width, sinew_color color);
/* An axis-aligned filled rectangle, pixel corners (x0, y0) inclusive to (x1, y1) exclusive. */
void raster_rect(raster *r, int x0, int y0, int x1, int y1, sinew_color color);
/* Text in the built-in 3x5 font (digits, A-Z, a few signs; lower case drawn as upper case), top-left
 * at pixel (x, y), each font pixel size x size. Returns the width drawn in pixels. */
int raster_text(raster *r, int x, int y, const char *text, int size, sinew_color color);
/* The glyph of c in that font: 15 characters, five rows of three, '#' for ink; NULL for a blank
 * (a space or a character the font lacks). Lower case gives the upper case glyph. */
const char *raster_glyph(char c);
/* Width in pixels of text at that size. */
int raster_text_width(const char *text, int size);

/* A debug draw whose callbacks draw into r through its view (default switches; context = r). */
sinew_debug_draw raster_debug_draw(raster *r);

#endif
