/* Target joint (the mouse joint): a soft spring pulls the anchor point of body B toward a target
 * fixed to body A (usually the world), with a cap on the force.
 *
 *   d = pB - pT (anchor minus target), e = d / |d| (the x axis when d = 0), n = e turned a quarter
 *   along:    C = e . d = |d|        J = [-e, -rA x e, e, rB x e]     spring: C -> 0
 *   sideways: C = n . d = 0          J = [-n, -rA x n, n, rB x n]     spring: damps the motion across
 *   Both rows are springs of the joint's hertz and damping ratio with |impulse| <= max_force h.
 *   The rows are the two rows of a point constraint turned to (e, n), so the cap holds the pull
 *   toward the target exactly (a body heavier than max_force / g hangs below it and sinks) while
 *   the sideways row, which only damps, has the same cap.
 */
#include "../joint.h"

int sinew_target_rows(const sinew_joint *j, const sinew_joint_frame *f, sinew_joint_row *rows)
{
	if (j->max_force == 0.0f) return 0; /* pulls with no force: nothing to solve */
	sinew_joint_row xy[2];
	sinew_row_point(xy, f);
	sinew_vec2 d = sinew_sub(f->p_b, f->p_a);
	float len = sinew_length(d);
	sinew_vec2 e = len > 0.0f ? sinew_scale(1.0f / len, d) : sinew_v2(1.0f, 0.0f);
	sinew_vec2 n = sinew_left_perp(e);
	sinew_vec2 axes[2] = {e, n};
	for (int r = 0; r < 2; ++r) {
		sinew_joint_row *row = &rows[r];
		*row = xy[0];
		for (int k = 0; k < 3; ++k) {
			row->ja[k] = axes[r].x * xy[0].ja[k] + axes[r].y * xy[1].ja[k];
			row->jb[k] = axes[r].x * xy[0].jb[k] + axes[r].y * xy[1].jb[k];
		}
		row->c = r == 0 ? len : 0.0f;
		row->point = 0; /* turned: no longer the x or y row of a point */
		row->kind = SINEW_ROW_SPRING;
		row->hertz = j->linear_hertz;
		row->zeta = j->linear_zeta;
		row->max_effort = j->max_force;
	}
	return 2;
}
