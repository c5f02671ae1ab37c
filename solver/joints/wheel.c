/* Wheel joint: body B's anchor rides on an axis fixed in body A, sprung along it, and B turns
 * freely about the anchor (a car wheel on its suspension).
 *
 *   d = pB - pA, a = axis turned with A, n = a turned a quarter
 *   perpendicular: C = n . d = 0          J = [-n, -(rA + d) x n, n, rB x n]
 *   suspension:    x = a . d -> target    (spring, hertz and damping ratio)
 *   limit: lower <= x <= upper;  motor: wB - wA -> speed, |impulse| <= max_torque h
 */
#include "../joint.h"

int sinew_wheel_rows(const sinew_joint *j, const sinew_joint_frame *f, sinew_joint_row *rows)
{
	sinew_vec2 axis = sinew_joint_axis(j, f), perp = sinew_left_perp(axis);
	sinew_vec2 d = sinew_sub(f->p_b, f->p_a);
	int n = 0;
	sinew_row_linear(&rows[n++], f, perp, sinew_dot(perp, d));
	float x = sinew_dot(axis, d);
	sinew_joint_row along;
	sinew_row_linear(&along, f, axis, x);
	if (j->spring.enabled) n += sinew_rows_spring(rows + n, &along, x, &j->spring);
	if (j->limit.enabled) n += sinew_rows_limit(rows + n, &along, x, j->limit.lower, j->limit.upper);
	if (j->motor.enabled) {
		sinew_joint_row angle;
		sinew_row_angle(&angle, 0.0f);
		n += sinew_rows_motor(rows + n, &angle, &j->motor);
	}
	return n;
}
