/* Weld joint: glues body B to body A.
 *
 *   point: C = pB - pA = 0 (two rows)     angle: C = angle(qB) - angle(qA) - reference = 0
 *   A hertz of 0 makes that part rigid; otherwise it is a spring of that frequency and damping
 *   ratio (a soft weld rings at its hertz).
 */
#include "../joint.h"

int sinew_weld_rows(const sinew_joint *j, const sinew_joint_frame *f, sinew_joint_row *rows)
{
	sinew_row_point(rows, f);
	if (j->linear_hertz > 0.0f) {
		for (int k = 0; k < 2; ++k) {
			rows[k].kind = SINEW_ROW_SPRING;
			rows[k].hertz = j->linear_hertz;
			rows[k].zeta = j->linear_zeta;
		}
	}
	sinew_row_angle(&rows[2], sinew_joint_relative_angle(j, f));
	if (j->angular_hertz > 0.0f) {
		rows[2].kind = SINEW_ROW_SPRING;
		rows[2].hertz = j->angular_hertz;
		rows[2].zeta = j->angular_zeta;
	}
	return 3;
}
