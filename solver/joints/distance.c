/* Distance joint between an anchor on A and an anchor on B.
 *
 *   L = |pB - pA|, u = (pB - pA) / L      J = [-u, -rA x u, u, rB x u]
 *   rod (min = max, no spring):  C = L - length = 0
 *   otherwise: min_length <= L <= max_length (one-sided rows; a rope has min 0 and goes slack),
 *   and with a spring: L -> length at the spring's hertz and damping ratio
 *   motor: L_dot -> speed, |impulse| <= max_force h
 */
#include "../joint.h"

#include <string.h>

int sinew_distance_rows(const sinew_joint *j, const sinew_joint_frame *f, sinew_joint_row *rows)
{
	sinew_vec2 d = sinew_sub(f->p_b, f->p_a);
	float len = sinew_length(d);
	sinew_vec2 u = len > 0.0f ? sinew_scale(1.0f / len, d) : sinew_v2(1.0f, 0.0f);
	sinew_joint_row along;
	memset(&along, 0, sizeof along);
	along.kind = SINEW_ROW_EQUALITY;
	along.ja[0] = -u.x, along.ja[1] = -u.y, along.ja[2] = -sinew_cross(f->r_a, u);
	along.jb[0] = u.x, along.jb[1] = u.y, along.jb[2] = sinew_cross(f->r_b, u);
	int n = 0;
	bool rod = j->min_length >= j->max_length && !j->spring.enabled;
	if (rod) {
		rows[n] = along;
		rows[n++].c = len - j->length;
	} else {
		if (j->spring.enabled) {
			sinew_joint_spring s = j->spring;
			s.target = j->length;
			n += sinew_rows_spring(rows + n, &along, len, &s);
		}
		n += sinew_rows_limit(rows + n, &along, len, j->min_length, j->max_length);
	}
	if (j->motor.enabled) n += sinew_rows_motor(rows + n, &along, &j->motor);
	return n;
}
