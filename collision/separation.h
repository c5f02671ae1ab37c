/* Internal: a floor under the separations the narrowphase (manifold.c) reports for a pair, from a
 * few numbers kept per shape, so a pair whose fat boxes overlap but whose shapes are far apart
 * needs no narrowphase (solver/contact.c); and the narrowphase into a caller's manifold. Not a
 * public header. */
#ifndef SINEW_SEPARATION_H
#define SINEW_SEPARATION_H

#include "core.h"
#include "sinew/collision.h"

/* Of one shape, in its body's frame, from a centre inside it: its core's farthest point; for a
 * polygon the farthest of its face lines and the cosine of half the widest turn between
 * neighbouring face normals (every direction is that close to a face normal); its rounding. */
typedef struct sinew_separation_bound {
	sinew_vec2 center;
	float core;
	float face;
	float face_cos;
	float radius;
	float size; /* a usable polygon's size, rounding included (the narrowphase's tolerance scale), else 0 */
	bool polygon;
} sinew_separation_bound;

sinew_separation_bound sinew_make_separation_bound(const sinew_geometry *geometry);

/* No point sinew_collide reports for the two shapes at these poses has a separation below this:
 * while it is above the speculative distance, sinew_collide returns no point. */
float sinew_separation_floor(const sinew_separation_bound *a, sinew_transform xfa, const sinew_separation_bound *b,
                             sinew_transform xfb);

/* True when sinew_collide with this speculative reach returns no point for the pair: for a pair
 * with a polygon, by the polygons' faces (sharper than the floor), else by the floor. */
bool sinew_pair_beyond_reach(const sinew_geometry *ga, const sinew_separation_bound *a, sinew_transform xfa,
                             const sinew_geometry *gb, const sinew_separation_bound *b, sinew_transform xfb, float reach);

/* sinew_collide written into *out (the narrowphase's path for a contact's own manifold: no
 * 116-byte manifold returned by value through the dispatch). Same result as sinew_collide;
 * geometry must not be NULL. bound_a and bound_b (sinew_make_separation_bound of a and b, or NULL)
 * give the polygons' sizes where the narrowphase would take them in their own frames. */
void sinew_collide_into(const sinew_geometry *a, const sinew_separation_bound *bound_a, sinew_transform xfa,
                        const sinew_geometry *b, const sinew_separation_bound *bound_b, sinew_transform xfb,
                        float speculative_distance, sinew_manifold *out);

#endif
