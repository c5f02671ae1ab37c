/* Pin joint: Godot's PinJoint2D, enforced properly.
 *
 *   point:  C = pB - pA (two rows); with softness s > 0 the rows are compliant:
 *           Cdot + bias + s * impulse = 0 (s in 1/kg, added to the effective inverse mass as Godot does)
 *   bias:   position correction rate in 1/s (0: the world's joint softness)
 *   limit:  the swing phi of the body A centre -> body B centre vector from its direction at
 *           creation, in world space: lower <= phi <= upper, phi_dot = (d x (vB - vA)) / |d|^2
 *   motor:  relative angular speed wB - wA -> speed (unbounded unless max_effort > 0)
 */
#include "../joint.h"

int sinew_pin_rows(const sinew_joint *j, const sinew_joint_frame *f, sinew_joint_row *rows)
{
	int n = 0;
	sinew_row_point(rows, f);
	for (int k = 0; k < 2; ++k) {
		rows[k].bias_rate = j->bias;
		if (j->softness > 0.0f) {
			rows[k].kind = SINEW_ROW_COMPLIANT;
			rows[k].compliance = j->softness;
		}
	}
	n += 2;
	if (j->limit.enabled) {
		n += sinew_rows_swing_limit(rows + n, j, f);
	}
	if (j->motor.enabled) {
		sinew_joint_row angle;
		sinew_row_angle(&angle, 0.0f);
		sinew_joint_motor m = j->motor;
		if (m.max_effort == 0.0f) m.max_effort = INFINITY;
		n += sinew_rows_motor(rows + n, &angle, &m);
	}
	return n;
}
