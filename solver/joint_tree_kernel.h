/* The tree factorisation's numeric kernels (joint_tree.c), written once for a lane type: included
 * with TREE_T double (one tree) and with TREE_T a vector of doubles (2 or 4 trees of the same shape,
 * one per lane: factor_lanes in joint_tree.c). Each lane does exactly the scalar operations in the
 * same order (no fused multiply-add: -ffp-contract=off), so every tree's answer is the same to the bit
 * whichever way it is factored.
 *
 * Before including: TREE_T, TREE_K(name) (the instance's names), TREE_ZERO, TREE_RECIP0(x) (x != 0 ?
 * 1 / x : 0, lane by lane), and for a vector instance TREE_LANES (its lane count) and TREE_BUILD(at)
 * (the vector of at(0), at(1), ... at(TREE_LANES - 1)). It undefines them at its end. */

/* In-place inverse of a symmetric block of size 1..3 (inlined with its size known). */
SINEW_TREE_KERNEL void TREE_K(invert)(TREE_T m[3][3], const int n)
{
	if (n == 1) {
		m[0][0] = TREE_RECIP0(m[0][0]);
		return;
	}
	if (n == 2) {
		TREE_T det = m[0][0] * m[1][1] - m[0][1] * m[1][0];
		TREE_T inv = TREE_RECIP0(det);
		TREE_T a = m[0][0];
		m[0][0] = m[1][1] * inv;
		m[1][1] = a * inv;
		m[0][1] = -m[0][1] * inv;
		m[1][0] = -m[1][0] * inv;
		return;
	}
	TREE_T c[3][3];
	c[0][0] = m[1][1] * m[2][2] - m[1][2] * m[2][1];
	c[0][1] = m[0][2] * m[2][1] - m[0][1] * m[2][2];
	c[0][2] = m[0][1] * m[1][2] - m[0][2] * m[1][1];
	c[1][0] = m[1][2] * m[2][0] - m[1][0] * m[2][2];
	c[1][1] = m[0][0] * m[2][2] - m[0][2] * m[2][0];
	c[1][2] = m[0][2] * m[1][0] - m[0][0] * m[1][2];
	c[2][0] = m[1][0] * m[2][1] - m[1][1] * m[2][0];
	c[2][1] = m[0][1] * m[2][0] - m[0][0] * m[2][1];
	c[2][2] = m[0][0] * m[1][1] - m[0][1] * m[1][0];
	TREE_T det = m[0][0] * c[0][0] + m[0][1] * c[1][0] + m[0][2] * c[2][0];
	TREE_T inv = TREE_RECIP0(det);
	SINEW_UNROLL for (int i = 0; i < 3; ++i)
		SINEW_UNROLL for (int k = 0; k < 3; ++k) m[i][k] = c[i][k] * inv;
}

/* The parent's pivot pd less the node's eliminated block, H^T D^-1 H (d the node's inverted pivot, h
 * its coupling), with the sizes known when compiled (SINEW_UNROLL; N the node's, P its parent's). */
SINEW_TREE_KERNEL void TREE_K(eliminate)(TREE_T (*d)[3], TREE_T (*h)[3], TREE_T (*pd)[3], const int N, const int P, const bool PT)
{
	if (N > 3 || P > 3) return; /* never: blocks are at most 3x3 (a bound the compiler can see in the generic case) */
	TREE_T x[3][3] = {{TREE_ZERO}}; /* D_n^-1 H(n, p) */
	SINEW_UNROLL for (int a = 0; a < N; ++a)
		SINEW_UNROLL for (int b = 0; b < P; ++b) {
			TREE_T s = TREE_ZERO;
			bool first = true;
			SINEW_UNROLL for (int k = 0; k < N; ++k) {
				if (SINEW_POINT_ZERO(PT, k, b)) continue;
				TREE_T t = d[a][k] * h[k][b];
				s = first ? t : s + t;
				first = false;
			}
			x[a][b] = s;
		}
	SINEW_UNROLL for (int a = 0; a < P; ++a)
		SINEW_UNROLL for (int b = 0; b < P; ++b) {
			TREE_T s = TREE_ZERO;
			bool first = true;
			SINEW_UNROLL for (int k = 0; k < N; ++k) {
				if (SINEW_POINT_ZERO(PT, k, a)) continue;
				TREE_T t = h[k][a] * x[k][b];
				s = first ? t : s + t;
				first = false;
			}
			pd[a][b] -= s;
		}
}

/* One step of the pass up: the parent's right-hand side py less H^T D^-1 y. */
SINEW_TREE_KERNEL void TREE_K(up)(TREE_T (*d)[3], TREE_T (*h)[3], TREE_T *y, TREE_T *py, const int N, const int P, const bool PT)
{
	if (N > 3 || P > 3) return; /* never (see eliminate) */
	TREE_T z[3] = {TREE_ZERO, TREE_ZERO, TREE_ZERO};
	SINEW_UNROLL for (int a = 0; a < N; ++a) {
		TREE_T s = d[a][0] * y[0];
		SINEW_UNROLL for (int k = 1; k < N; ++k) s += d[a][k] * y[k];
		z[a] = s;
	}
	SINEW_UNROLL for (int b = 0; b < P; ++b) {
		TREE_T s = TREE_ZERO;
		bool first = true;
		SINEW_UNROLL for (int k = 0; k < N; ++k) {
			if (SINEW_POINT_ZERO(PT, k, b)) continue;
			TREE_T t = h[k][b] * z[k];
			s = first ? t : s + t;
			first = false;
		}
		py[b] -= s;
	}
}

/* One step of the pass down: y = D^-1 (y - H py), py the parent's answer (P = 0: a root) */
SINEW_TREE_KERNEL void TREE_K(down)(TREE_T (*d)[3], TREE_T (*h)[3], TREE_T *y, const TREE_T *py, const int N, const int P, const bool PT)
{
	if (N > 3 || P > 3) return; /* never (see eliminate) */
	TREE_T r[3] = {TREE_ZERO, TREE_ZERO, TREE_ZERO};
	SINEW_UNROLL for (int a = 0; a < N; ++a) {
		TREE_T s = y[a];
		SINEW_UNROLL for (int b = 0; b < P; ++b)
			if (!SINEW_POINT_ZERO(PT, a, b)) s -= h[a][b] * py[b];
		r[a] = s;
	}
	SINEW_UNROLL for (int a = 0; a < N; ++a) {
		TREE_T s = d[a][0] * r[0];
		SINEW_UNROLL for (int k = 1; k < N; ++k) s += d[a][k] * r[k];
		y[a] = s;
	}
}

#if defined(TREE_LANES)
/* The double at byte offset of node i of each tree of the group (base[l] + i), one per lane */
SINEW_TREE_KERNEL TREE_T TREE_K(gather)(sinew_tree_node *const *base, int32_t i, size_t offset)
{
#define TREE_AT(l) (*(const double *)(const void *)((const char *)&base[l][i] + offset))
	return TREE_BUILD(TREE_AT);
#undef TREE_AT
}

/* Each block entry in [0, R) x [0, C) (skipping a point block's zeros with PT) from and to the nodes
 * at index i of the group's trees */
#define TREE_GATHER(dst, field, i, R, C, PT) \
	SINEW_UNROLL for (int r_ = 0; r_ < (R); ++r_) \
		SINEW_UNROLL for (int c_ = 0; c_ < (C); ++c_) \
			if (!SINEW_POINT_ZERO(PT, r_, c_)) \
				dst[r_][c_] = TREE_K(gather)(base, i, offsetof(sinew_tree_node, field) + sizeof(double) * (size_t)(3 * r_ + c_));
#define TREE_GATHER_Y(dst, i, R) \
	SINEW_UNROLL for (int r_ = 0; r_ < (R); ++r_) dst[r_] = TREE_K(gather)(base, i, offsetof(sinew_tree_node, y) + sizeof(double) * (size_t)r_);
#define TREE_SCATTER_Y(src, i, R) \
	SINEW_UNROLL for (int r_ = 0; r_ < (R); ++r_) \
		SINEW_UNROLL for (int l_ = 0; l_ < TREE_LANES; ++l_) base[l_][i].y[r_] = src[r_][l_];
#define TREE_SCATTER(src, field, i, R, C) \
	SINEW_UNROLL for (int r_ = 0; r_ < (R); ++r_) \
		SINEW_UNROLL for (int c_ = 0; c_ < (C); ++c_) \
			SINEW_UNROLL for (int l_ = 0; l_ < TREE_LANES; ++l_) base[l_][i].field[r_][c_] = src[r_][c_][l_];

/* Node i of every tree of the group: its pivot inverted, then eliminated into its parent pi (pi < 0: a
 * root), with the pass up of the common turn when the trees have one (turn) */
SINEW_TREE_KERNEL void TREE_K(factor_node)(sinew_tree_node *const *base, int32_t i, int32_t pi, const int N, const int P,
                                           const bool PT, bool turn)
{
	TREE_T d[3][3] = {{TREE_ZERO}}, h[3][3] = {{TREE_ZERO}}, pd[3][3] = {{TREE_ZERO}}; /* zeros only for the generic sizes */
	TREE_GATHER(d, d, i, N, N, false)
	TREE_K(invert)(d, N);
	TREE_SCATTER(d, d, i, N, N)
	if (pi < 0) return;
	TREE_GATHER(h, h, i, N, P, PT)
	TREE_GATHER(pd, d, pi, P, P, false)
	TREE_K(eliminate)(d, h, pd, N, P, PT);
	TREE_SCATTER(pd, d, pi, P, P)
	if (!turn) return;
	TREE_T y[3] = {TREE_ZERO, TREE_ZERO, TREE_ZERO}, py[3] = {TREE_ZERO, TREE_ZERO, TREE_ZERO};
	TREE_GATHER_Y(y, i, N)
	TREE_GATHER_Y(py, pi, P)
	TREE_K(up)(d, h, y, py, N, P, PT);
	TREE_SCATTER_Y(py, pi, P)
}

/* Node i of every tree of the group in the pass down of the common turn's solve (common_turn_prepare
 * in joint_tree.c): its answer into its y and the trees' z (turn, 4 doubles a node: u, then z), and u
 * times its turn added to each lane's response when it is a body */
SINEW_TREE_KERNEL void TREE_K(turn_node)(sinew_tree_node *const *base, int32_t i, int32_t pi, const int N, const int P,
                                         const bool PT, double *const *turn, TREE_T *response)
{
	TREE_T d[3][3] = {{TREE_ZERO}}, h[3][3] = {{TREE_ZERO}}, y[3], py[3] = {TREE_ZERO, TREE_ZERO, TREE_ZERO};
	TREE_GATHER(d, d, i, N, N, false)
	if (P > 0) TREE_GATHER(h, h, i, N, P, PT)
	TREE_GATHER_Y(y, i, 3)
	TREE_GATHER_Y(py, pi, P)
	TREE_K(down)(d, h, y, py, N, P, PT);
	TREE_SCATTER_Y(y, i, N)
	if (base[0][i].is_body) {
#define TREE_U_AT(l) turn[l][4 * i]
		*response += TREE_BUILD(TREE_U_AT) * y[2];
#undef TREE_U_AT
	}
	SINEW_UNROLL for (int l = 0; l < TREE_LANES; ++l)
		SINEW_UNROLL for (int r = 0; r < 3; ++r) turn[l][4 * i + 1 + r] = y[r][l];
}

#undef TREE_GATHER
#undef TREE_SCATTER
#undef TREE_GATHER_Y
#undef TREE_SCATTER_Y

/* kernel(N) with the size of a root n as a constant */
#define TREE_ROOT_DISPATCH(kernel, n) \
	switch ((n)->dim) { \
	case 3: kernel(3); break; \
	case 2: kernel(2); break; \
	default: kernel((n)->dim); break; \
	}

/* The factorisation of TREE_LANES trees of one shape (same_shape in joint_tree.c), starting at
 * nodes[begin[l]]: factor_walk's operations on each, in its order, one tree per lane; with a common turn
 * (turn_all, the world's tree_turn), common_turn_prepare's pass down too, each lane's u . z left in
 * response[l]. */
static void TREE_K(factor_group)(sinew_tree_node *nodes, const int32_t *begin, int32_t size, double *turn_all, double *response)
{
	bool turn = turn_all != NULL;
	sinew_tree_node *base[TREE_LANES];
	SINEW_UNROLL for (int l = 0; l < TREE_LANES; ++l) base[l] = nodes + begin[l];
	for (int32_t i = size - 1; i >= 0; --i) {
		const sinew_tree_node *n = &base[0][i];
		if (n->parent < 0) {
#define TREE_FACTOR_ROOT(N) TREE_K(factor_node)(base, i, -1, N, 0, false, false)
			TREE_ROOT_DISPATCH(TREE_FACTOR_ROOT, n)
#undef TREE_FACTOR_ROOT
			continue;
		}
		int32_t pi = n->parent - begin[0];
		const sinew_tree_node *p = &base[0][pi];
#define TREE_FACTOR_NODE(n_, p_, N, P, PT) TREE_K(factor_node)(base, i, pi, N, P, PT, turn)
		SINEW_TREE_DISPATCH(TREE_FACTOR_NODE, n, p)
#undef TREE_FACTOR_NODE
	}
	if (!turn) return;
	double *turn_at[TREE_LANES];
	SINEW_UNROLL for (int l = 0; l < TREE_LANES; ++l) turn_at[l] = turn_all + 4 * begin[l];
	TREE_T sum = TREE_ZERO;
	for (int32_t i = 0; i < size; ++i) {
		const sinew_tree_node *n = &base[0][i];
		if (n->parent < 0) {
#define TREE_TURN_ROOT(N) TREE_K(turn_node)(base, i, -1, N, 0, false, turn_at, &sum)
			TREE_ROOT_DISPATCH(TREE_TURN_ROOT, n)
#undef TREE_TURN_ROOT
			continue;
		}
		int32_t pi = n->parent - begin[0];
		const sinew_tree_node *p = &base[0][pi];
#define TREE_TURN_NODE(n_, p_, N, P, PT) TREE_K(turn_node)(base, i, pi, N, P, PT, turn_at, &sum)
		SINEW_TREE_DISPATCH(TREE_TURN_NODE, n, p)
#undef TREE_TURN_NODE
	}
	SINEW_UNROLL for (int l = 0; l < TREE_LANES; ++l) response[l] = sum[l];
}
#endif

#undef TREE_ROOT_DISPATCH

/* the instance's parameters, ready for the next */
#undef TREE_T
#undef TREE_K
#undef TREE_ZERO
#undef TREE_RECIP0
#undef TREE_LANES
#undef TREE_BUILD
