/* `sinew run`'s check after every step (tools/run_check.h). */
#include "run_check.h"

#include <math.h>
#include <stdio.h>

static bool body_is_finite(sinew_body_id b)
{
	sinew_transform xf = sinew_body_get_transform(b);
	sinew_vec2 v = sinew_body_get_linear_velocity(b);
	float w = sinew_body_get_angular_velocity(b);
	return isfinite(xf.p.x) && isfinite(xf.p.y) && isfinite(xf.q.c) && isfinite(xf.q.s) && isfinite(v.x) &&
	       isfinite(v.y) && isfinite(w);
}

bool run_check_finite(const sinew_scene *scene, const char *path, int step, char *message, size_t size)
{
	/* the engine's own check (all bodies, spawned ones included) reports through the world's
	 * error callback, so the scene's error count has it too */
	if (sinew_world_is_finite(sinew_scene_get_world(scene))) return true;
	int n = sinew_scene_get_body_count(scene);
	for (int i = 0; i < n; ++i) {
		sinew_body_id b = sinew_scene_get_body(scene, i);
		if (!sinew_body_is_valid(b) || body_is_finite(b)) continue;
		const char *name = sinew_scene_get_body_name(scene, i);
		sinew_transform xf = sinew_body_get_transform(b);
		sinew_vec2 v = sinew_body_get_linear_velocity(b);
		snprintf(message, size,
		         "%s: bodies[%d]%s%s is not finite after step %d: position (%g, %g), angle %g, velocity (%g, %g), "
		         "angular velocity %g",
		         path, i, name != NULL ? " " : "", name != NULL ? name : "", step, (double)xf.p.x, (double)xf.p.y,
		         (double)atan2f(xf.q.s, xf.q.c), (double)v.x, (double)v.y,
		         (double)sinew_body_get_angular_velocity(b));
		return false;
	}
	snprintf(message, size, "%s: a body spawned at run time is not finite after step %d", path, step);
	return false;
}
