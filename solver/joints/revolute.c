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

int sinew_revolute_errors(const sinew_joint *j, const sinew_joint_frame *f, float *c)
{
	int n = 0;
	c[n++] = f->p_b.x - f->p_a.x;
	c[n++] = f->p_b.y - f->p_a.y;
	/* the relative angle costs an atan2: only a local limit and a spring read it (a motor needs the row's shape) */
	bool needs_theta = (j->limit.enabled && j->limit.frame != SINEW_LIMIT_WORLD) || j->spring.enabled;
	float theta = needs_theta ? sinew_joint_relative_angle(j, f) : 0.0f;
	if (j->limit.enabled) {
		if (j->limit.frame == SINEW_LIMIT_WORLD) {
			sinew_swing_limit_errors(j, f, c + n);
		} else {
			c[n] = theta - j->limit.lower;
			c[n + 1] = j->limit.upper - theta;
		}
		n += 2;
	}
	if (j->motor.enabled) c[n++] = 0.0f;
	if (j->spring.enabled) c[n++] = theta - j->spring.target;
	return n;
}

/* The rows' shapes here, their errors from sinew_revolute_errors (one place for both). */
int sinew_revolute_rows(const sinew_joint *j, const sinew_joint_frame *f, sinew_joint_row *rows)
{
	float c[SINEW_MAX_JOINT_ROWS];
	int count = sinew_revolute_errors(j, f, c);
	int n = 0;
	sinew_row_point(rows, f);
	n += 2;
	sinew_joint_row angle;
	sinew_row_angle(&angle, 0.0f);
	if (j->limit.enabled) {
		sinew_joint_row swing;
		if (j->limit.frame == SINEW_LIMIT_WORLD) sinew_row_swing(&swing, f, 0.0f);
		n += sinew_rows_limit(rows + n, j->limit.frame == SINEW_LIMIT_WORLD ? &swing : &angle, 0.0f, 0.0f, 0.0f);
	}
	if (j->motor.enabled) n += sinew_rows_motor(rows + n, &angle, &j->motor);
	if (j->spring.enabled) n += sinew_rows_spring(rows + n, &angle, 0.0f, &j->spring);
	SINEW_ASSERT(n == count);
	for (int r = 0; r < count; ++r) rows[r].c = c[r];
	return count;
}

bool sinew_revolute_update(const sinew_joint *j, const sinew_joint_frame *f, sinew_row_constraint *rows)
{
	if (j->limit.enabled && j->limit.frame == SINEW_LIMIT_WORLD) return false; /* the swing's rows turn */
	float c[SINEW_MAX_JOINT_ROWS];
	int count = sinew_revolute_errors(j, f, c);
	sinew_row_point_arms(&rows[0].row, &rows[1].row, f);
	for (int r = 0; r < count; ++r) rows[r].row.c = c[r];
	return true;
}
