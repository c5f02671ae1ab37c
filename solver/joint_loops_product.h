/* The conjugate gradients' product out = S p on the folded trees (loop_product_packed in
 * joint_loops.c), included by joint_loops.c once per kind of lanes: four doubles as two SSE2
 * registers (or plain C), and where gcc builds for x86-64 and the CPU has AVX, as one AVX register.
 * Every instance runs the same IEEE operations in the same order as the scalar sums they replace
 * (no fused multiply-add: -ffp-contract=off), so all give the same numbers to the last bit.
 * Before including: DT, the lanes' type, and its operations D(load), D(store), D(add), D(mul), D(splat), D(load1) (one
 * double in every lane) and D(sum_pair); K(name), the names of this instance. */

/* ((c0 x0 + c1 x1) + c2 x2) lane by lane: the columns c four doubles apart from `columns`, x[0..2] */
static inline DT K(columns)(const double *columns, const double *x)
{
	DT s = D(add)(D(mul)(D(load)(columns), D(load1)(&x[0])), D(mul)(D(load)(columns + 4), D(load1)(&x[1])));
	return D(add)(s, D(mul)(D(load)(columns + 8), D(load1)(&x[2])));
}

/* y += J^T p over the rows (the loads), up the folded trees, down them with the common turn, and
 * out = J y; y holds four doubles per place in loop_pack and four for the spare fixed end after them */
static void K(loop_product)(const sinew_world *w, const double *p, double *out)
{
	const sinew_loop_node *pack = w->loop_pack;
	int bodies = (int)stbds_arrlen(w->loop_pack), count = (int)stbds_arrlen(w->loop_rows);
	double *y = w->loop_pack_y;
	memset(y, 0, (size_t)(bodies + 1) * 4 * sizeof *y);
	const double *jac = w->loop_jacobians;
	const int32_t *ends = w->loop_pack_ends;
	for (int k = 0; k < count;) {
		double *ya = &y[4 * ends[3 * k]], *yb = &y[4 * ends[3 * k + 1]];
		const double *j = &jac[8 * k];
		DT p0 = D(splat)(p[k]);
		if (ends[3 * k + 2] == 2) {
			DT p1 = D(splat)(p[k + 1]);
			D(store)(ya, D(add)(D(load)(ya), D(add)(D(mul)(D(load)(j), p0), D(mul)(D(load)(j + 8), p1))));
			D(store)(yb, D(add)(D(load)(yb), D(add)(D(mul)(D(load)(j + 4), p0), D(mul)(D(load)(j + 12), p1))));
			k += 2;
		} else {
			D(store)(ya, D(add)(D(load)(ya), D(mul)(D(load)(j), p0)));
			D(store)(yb, D(add)(D(load)(yb), D(mul)(D(load)(j + 4), p0)));
			k += 1;
		}
	}
	for (int i = bodies - 1; i >= 0; --i) {
		const sinew_loop_node *q = &pack[i];
		if (q->parent < 0) continue;
		double *yp = &y[4 * q->parent];
		D(store)(yp, D(add)(D(load)(yp), K(columns)(q->up, &y[4 * i])));
	}
	/* down, a tree at a time (a body's parent is in its tree), with the common turn of the tree's
	 * stiffness taken out as sinew_tree_spread_range does (joint_tree.c, common_turn): its sum along
	 * the turn summed in the same walk, then its share of the turn's response added */
	const int32_t *trees = w->loop_pack_trees;
	const double *turn = w->loop_pack_turn;
	for (int s = 0; trees[s] < bodies; s += 2) {
		int32_t k0 = trees[s], k1 = trees[s + 2];
		const sinew_tree_range *r = &w->tree_ranges[trees[s + 1]];
		bool turns = r->turn_sum > 0.0 && r->turn_den > 0.0;
		double along = 0.0;
		for (int32_t i = k0; i < k1; ++i) {
			const sinew_loop_node *q = &pack[i];
			double *yn = &y[4 * i];
			DT v = K(columns)(q->down, yn);
			if (q->parent >= 0) v = D(add)(v, K(columns)(q->down + 12, &y[4 * q->parent]));
			D(store)(yn, v);
			if (turns) along += q->turn * yn[2];
		}
		if (!turns) continue;
		DT a = D(splat)(along / r->turn_den);
		for (int32_t i = k0; i < k1; ++i) D(store)(&y[4 * i], D(add)(D(load)(&y[4 * i]), D(mul)(a, D(load)(&turn[4 * i]))));
	}
	double *fixed = &y[4 * bodies];
	fixed[0] = fixed[1] = fixed[2] = fixed[3] = 0.0;
	for (int k = 0; k < count;) {
		DT ya = D(load)(&y[4 * ends[3 * k]]), yb = D(load)(&y[4 * ends[3 * k + 1]]);
		const double *j = &jac[8 * k];
		out[k] = D(sum_pair)(D(mul)(D(load)(j), ya), D(mul)(D(load)(j + 4), yb));
		if (ends[3 * k + 2] == 2) {
			out[k + 1] = D(sum_pair)(D(mul)(D(load)(j + 8), ya), D(mul)(D(load)(j + 12), yb));
			k += 2;
		} else {
			k += 1;
		}
	}
}
