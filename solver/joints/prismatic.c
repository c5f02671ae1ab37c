/* Prismatic joint: body B slides along an axis fixed in body A, without turning.
 *
 *   d = pB - pA, a = axis turned with A, n = a turned a quarter (the perpendicular)
 *   perpendicular: C = n . d = 0          J = [-n, -(rA + d) x n, n, rB x n]
 *   angle:         C = angle(qB) - angle(qA) - reference = 0
 *   translation:   x = a . d              J = [-a, -(rA + d) x a, a, rB x a]
 *   limit: lower <= x <= upper; motor: x_dot -> speed, |impulse| <= max_force h; spring: x -> target
 */
#include "../joint.h"

int sinew_prismatic_rows(const sinew_joint *j, const sinew_joint_frame *f, sinew_joint_row *rows)
{
	sinew_vec2 axis = sinew_joint_axis(j, f), perp = sinew_left_perp(axis);
	sinew_vec2 d = sinew_sub(f->p_b, f->p_a);
	int n = 0;
	sinew_row_linear(&rows[n++], f, perp, sinew_dot(perp, d));
	sinew_row_angle(&rows[n++], sinew_joint_relative_angle(j, f));
	float x = sinew_dot(axis, d);
	sinew_joint_row along;
	sinew_row_linear(&along, f, axis, x);
	if (j->limit.enabled) n += sinew_rows_limit(rows + n, &along, x, j->limit.lower, j->limit.upper);
	if (j->motor.enabled) n += sinew_rows_motor(rows + n, &along, &j->motor);
	if (j->spring.enabled) n += sinew_rows_spring(rows + n, &along, x, &j->spring);
	return n;
}
