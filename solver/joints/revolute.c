/* Revolute joint: body B turns about a point shared with body A.
 *
 *   point:  C = pB - pA = (cB + rB) - (cA + rA)            two rows, Cdot = vB + wB x rB - vA - wA x rA
 *   angle:  theta = angle(qB) - angle(qA) - reference      J = [0 0 -1, 0 0 1]
 *   limit (local frame):  lower <= theta <= upper          two one-sided rows on theta
 *   limit (world frame):  lower <= phi <= upper, phi the swing of cB - cA from its direction at
 *                         creation; phi_dot = (d x (vB - vA)) / |d|^2
 *   motor:  theta_dot -> speed, |impulse| <= max_torque h
 *   spring: theta -> target, stiffness and damping from hertz and damping ratio
 */
#include "../joint.h"

int sinew_revolute_rows(const sinew_joint *j, const sinew_joint_frame *f, sinew_joint_row *rows)
{
	int n = 0;
	sinew_row_point(rows, f);
	n += 2;
	/* the relative angle costs an atan2: only a local limit and a spring read it (a motor needs the row's shape) */
	bool needs_theta = (j->limit.enabled && j->limit.frame != SINEW_LIMIT_WORLD) || j->spring.enabled;
	float theta = needs_theta ? sinew_joint_relative_angle(j, f) : 0.0f;
	sinew_joint_row angle;
	sinew_row_angle(&angle, theta);
	if (j->limit.enabled) {
		if (j->limit.frame == SINEW_LIMIT_WORLD) {
			n += sinew_rows_swing_limit(rows + n, j, f);
		} else {
			n += sinew_rows_limit(rows + n, &angle, theta, j->limit.lower, j->limit.upper);
		}
	}
	if (j->motor.enabled) n += sinew_rows_motor(rows + n, &angle, &j->motor);
	if (j->spring.enabled) n += sinew_rows_spring(rows + n, &angle, theta, &j->spring);
	return n;
}
