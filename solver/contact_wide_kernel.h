/* The contact solver's lane kernel, included by contact_wide.c once per kind of lanes: four
 * (SSE2 or plain C: a wide constraint's sixteen lanes as four quarters), and where the CPU has AVX
 * four and eight (a half), and with AVX-512 sixteen (a whole wide constraint at once). Every
 * instance runs the same operations in the same order, so each lane's answer is the same bit for
 * bit whichever instance solved it; the constraints of one colour share no moving body, so which
 * lanes go together does not matter either.
 * Before including: VT and VM, the lane types of floats and masks; V(op), the lane operations
 * (load and store of a wide constraint's field, gather and scatter of the bodies, arithmetic,
 * comparisons and selects); K(name), the names of this instance; LANES(part), the first lane of
 * part `part` of a wide constraint that an instance spans (part is always 0 for sixteen lanes);
 * KERNEL_INLINE. */

/* The solver state of one side's bodies: velocity, angular velocity, and the change of position
 * and rotation in the step. */
typedef struct K(body) {
	VT vx, vy, w, dpx, dpy, qc, qs;
} K(body);

KERNEL_INLINE K(body) K(gather)(const sinew_solver_body *bodies, const uint32_t *offset)
{
	VT r[8];
	V(gather)(bodies, offset, r);
	K(body) wb = {r[0], r[1], r[2], r[4], r[5], r[6], r[7]};
	return wb;
}

/* The velocities only, for a pass that reads no separation (the position and rotation changes are
 * zero here and never read). */
KERNEL_INLINE K(body) K(gather_velocity)(const sinew_solver_body *bodies, const uint32_t *offset)
{
	VT r[4];
	V(gather_velocity)(bodies, offset, r);
	VT zero = V(splat)(0.0f);
	K(body) wb = {r[0], r[1], r[2], zero, zero, zero, zero};
	return wb;
}

/* Lanes may share only a body that the solver never changes (the static dummy, a kinematic body),
 * so their writes agree. A body's first four floats are written back whole: v, w and its inverse
 * mass, which the constraint holds too (inv_mass, the same float), so the body state does not
 * carry it through the kernel in two more registers. */
KERNEL_INLINE void K(scatter)(sinew_solver_body *bodies, const uint32_t *offset, const K(body) *wb, VT inv_mass)
{
	V(scatter)(bodies, offset, wb->vx, wb->vy, wb->w, inv_mass);
}

/* Masses of one wide constraint's two sides. */
typedef struct K(mass) {
	VT ma, ia, mb, ib;
} K(mass);

/* p = (px, py) at anchors ra, rb: A loses it, B gains it (apply_impulse of contact_solver.c). */
static inline void K(apply)(K(body) *a, K(body) *b, const K(mass) *m, VT rax, VT ray, VT rbx, VT rby, VT px, VT py)
{
	a->vx = V(sub)(a->vx, V(mul)(m->ma, px));
	a->vy = V(sub)(a->vy, V(mul)(m->ma, py));
	a->w = V(sub)(a->w, V(mul)(m->ia, V(sub)(V(mul)(rax, py), V(mul)(ray, px))));
	b->vx = V(add)(b->vx, V(mul)(m->mb, px));
	b->vy = V(add)(b->vy, V(mul)(m->mb, py));
	b->w = V(add)(b->w, V(mul)(m->ib, V(sub)(V(mul)(rbx, py), V(mul)(rby, px))));
}

/* Relative velocity of B's anchor point against A's, along (ax, ay). */
static inline VT K(relative_speed)(const K(body) *a, const K(body) *b, VT rax, VT ray, VT rbx, VT rby, VT ax, VT ay)
{
	VT dvx = V(sub)(V(sub)(b->vx, V(mul)(b->w, rby)), V(sub)(a->vx, V(mul)(a->w, ray)));
	VT dvy = V(sub)(V(add)(b->vy, V(mul)(b->w, rbx)), V(add)(a->vy, V(mul)(a->w, rax)));
	return V(add)(V(mul)(dvx, ax), V(mul)(dvy, ay));
}

static inline K(mass) K(load_mass)(const sinew_contact_wide *cw, int part)
{
	K(mass) m = {V(load)(LANES(part) + cw->inv_mass_a), V(load)(LANES(part) + cw->inv_inertia_a), V(load)(LANES(part) + cw->inv_mass_b),
	               V(load)(LANES(part) + cw->inv_inertia_b)};
	return m;
}

/* Warm start of one wide constraint (of the lanes this instance spans). */
static inline void K(warm_block)(sinew_solver_body *bodies, sinew_contact_wide *cw, int part, bool first_substep)
{
	K(body) a = K(gather)(bodies, LANES(part) + cw->offset_a), b = K(gather)(bodies, LANES(part) + cw->offset_b);
	K(mass) m = K(load_mass)(cw, part);
	VT nx = V(load)(LANES(part) + cw->nx), ny = V(load)(LANES(part) + cw->ny), tx = ny, ty = V(neg)(nx);
	for (int j = 0; j < 2; ++j) {
		wide_point *wp = &cw->points[j];
		VT ni = V(load)(LANES(part) + wp->normal_impulse), ti = V(load)(LANES(part) + wp->tangent_impulse);
		if (!first_substep) {
			V(store)(LANES(part) + wp->total_normal_impulse, V(add)(V(load)(LANES(part) + wp->total_normal_impulse), ni));
			V(store)(LANES(part) + wp->total_tangent_impulse, V(add)(V(load)(LANES(part) + wp->total_tangent_impulse), ti));
		}
		VT px = V(add)(V(mul)(ni, nx), V(mul)(ti, tx)), py = V(add)(V(mul)(ni, ny), V(mul)(ti, ty));
		K(apply)(&a, &b, &m, V(load)(LANES(part) + wp->rax), V(load)(LANES(part) + wp->ray), V(load)(LANES(part) + wp->rbx), V(load)(LANES(part) + wp->rby), px, py);
	}
	K(scatter)(bodies, LANES(part) + cw->offset_a, &a, m.ma);
	K(scatter)(bodies, LANES(part) + cw->offset_b, &b, m.mb);
}

/* The separation of point wp now, from the bodies' position and rotation change in the step. */
static inline VT K(separation)(const K(body) *a, const K(body) *b, const wide_point *wp, int part, VT nx, VT ny)
{
	VT rax = V(load)(LANES(part) + wp->rax), ray = V(load)(LANES(part) + wp->ray), rbx = V(load)(LANES(part) + wp->rbx), rby = V(load)(LANES(part) + wp->rby);
	VT dax = V(add)(a->dpx, V(sub)(V(mul)(a->qc, rax), V(mul)(a->qs, ray)));
	VT day = V(add)(a->dpy, V(add)(V(mul)(a->qs, rax), V(mul)(a->qc, ray)));
	VT dbx = V(add)(b->dpx, V(sub)(V(mul)(b->qc, rbx), V(mul)(b->qs, rby)));
	VT dby = V(add)(b->dpy, V(add)(V(mul)(b->qs, rbx), V(mul)(b->qc, rby)));
	VT d = V(add)(V(mul)(V(sub)(dbx, dax), nx), V(mul)(V(sub)(dby, day), ny));
	return V(add)(V(load)(LANES(part) + wp->base_separation), d);
}

/* The settings of one solve pass, as lane constants. Which kind of pass it is (biased, first relax,
 * another relax: sinew_contact_pass) is not among them: it is a constant of each instance of the
 * kernel (pass below), so no pass computes another's terms and selects them away. */
typedef struct K(pass) {
	VT inv_h, push, bias_rate, mass_scale, impulse_scale, zero, one, half;
} K(pass);

/* The accumulated impulse of point j solved alone, before the clamp: a - normal_mass (ms (v + bias))
 * - is a, where the soft terms apply only in the biased pass (seq_soft: the point overlaps).
 * Without them the factors are 1 and 0, which change nothing bit for bit, so the relax pass leaves
 * them out (and a + (-x) is a - x). */
KERNEL_INLINE VT K(point_total)(const K(pass) *ps, bool use_bias, VM seq_soft, VT normal_mass, VT v, VT bias, VT a)
{
	if (!use_bias) return V(sub)(a, V(mul)(normal_mass, V(add)(v, bias)));
	VT ms = V(select)(seq_soft, ps->mass_scale, ps->one), is = V(select)(seq_soft, ps->impulse_scale, ps->zero);
	return V(add)(a, V(sub)(V(mul)(V(mul)(V(neg)(normal_mass), ms), V(add)(v, bias)), V(mul)(is, a)));
}

/* The normal impulses of one wide constraint: block solve where it applies, else point by point.
 * A long kernel on purpose: it is the solver's inner loop, and every branch of the scalar code
 * (contact_solver.c: sinew_contacts_solve and solve_block) is a pair of results and a select.
 * pass is a constant where the kernel is inlined (sinew_contact_pass). */
KERNEL_INLINE void K(solve_normal)(sinew_contact_wide *cw, int part, K(body) *a, K(body) *b, const K(mass) *m,
                                   const K(pass) *ps, sinew_contact_pass pass, VT nx, VT ny)
{
	bool use_bias = pass == SINEW_CONTACT_PASS_BIASED;
	wide_point *p0 = &cw->points[0], *p1 = &cw->points[1];
	VT bias[2], vn[2];
	VM block_soft[2], seq_soft[2];
	for (int j = 0; j < 2; ++j) {
		wide_point *wp = &cw->points[j];
		vn[j] = K(relative_speed)(a, b, V(load)(LANES(part) + wp->rax), V(load)(LANES(part) + wp->ray), V(load)(LANES(part) + wp->rbx), V(load)(LANES(part) + wp->rby), nx, ny);
		if (!use_bias) block_soft[j] = seq_soft[j] = V(all)(false);
		/* relax, jointed pair: a speculative point that is already pushing may not approach */
		VM pushing = V(and)(V(gt)(V(load)(LANES(part) + cw->hold), ps->zero), V(gt)(V(load)(LANES(part) + wp->normal_impulse), ps->zero));
		if (pass == SINEW_CONTACT_PASS_RELAX_AGAIN) {
			/* the first relax pass's gap: the positions have not moved since */
			bias[j] = V(select)(pushing, ps->zero, V(load)(LANES(part) + wp->relax_gap));
			continue;
		}
		VT s = K(separation)(a, b, wp, part, nx, ny);
		VM speculative = V(gt)(s, ps->zero);
		VT gap_bias = V(mul)(s, ps->inv_h);
		if (use_bias) {
			VT soft_bias = V(max)(V(mul)(ps->bias_rate, s), V(neg)(ps->push));
			bias[j] = V(select)(speculative, gap_bias, soft_bias);
			block_soft[j] = V(le)(s, ps->zero);
			seq_soft[j] = V(le)(bias[j], ps->zero);
			/* speed at impact (true velocity: the solver's lags half a substep of forces) */
			VM capture = V(eq)(V(load)(LANES(part) + wp->max_normal_impulse), ps->zero);
			VT rv = V(add)(vn[j], V(mul)(ps->half, V(load)(LANES(part) + cw->force_dv)));
			V(store)(LANES(part) + wp->relative_velocity, V(select)(capture, rv, V(load)(LANES(part) + wp->relative_velocity)));
		} else {
			/* the speculative gap closed in one substep, kept for the next relax passes */
			VT gap = V(select)(speculative, gap_bias, ps->zero);
			V(store)(LANES(part) + wp->relax_gap, gap);
			bias[j] = V(select)(pushing, ps->zero, gap);
		}
	}
	/* the block: both points soft or both rigid, and one of the four cases fits */
	VT a0 = V(load)(LANES(part) + p0->normal_impulse), a1 = V(load)(LANES(part) + p1->normal_impulse);
	VT k11 = V(load)(LANES(part) + cw->k11), k12 = V(load)(LANES(part) + cw->k12), k22 = V(load)(LANES(part) + cw->k22);
	VM same = V(all)(true);
	VT q0 = V(sub)(V(add)(vn[0], bias[0]), V(add)(V(mul)(k11, a0), V(mul)(k12, a1)));
	VT q1 = V(sub)(V(add)(vn[1], bias[1]), V(add)(V(mul)(k12, a0), V(mul)(k22, a1)));
	if (use_bias) {
		same = V(same)(block_soft[0], block_soft[1]);
		VT ms = V(select)(block_soft[0], ps->mass_scale, ps->one);
		VT is = V(select)(block_soft[0], ps->impulse_scale, ps->zero);
		VT keep = V(sub)(ps->one, is);
		q0 = V(sub)(V(mul)(ms, V(add)(vn[0], bias[0])), V(mul)(keep, V(add)(V(mul)(k11, a0), V(mul)(k12, a1))));
		q1 = V(sub)(V(mul)(ms, V(add)(vn[1], bias[1])), V(mul)(keep, V(add)(V(mul)(k12, a0), V(mul)(k22, a1))));
	}
	VT neg_inv_det = V(load)(LANES(part) + cw->neg_inv_det);
	VT x0 = V(mul)(neg_inv_det, V(sub)(V(mul)(k22, q0), V(mul)(k12, q1)));
	VT x1 = V(mul)(neg_inv_det, V(sub)(V(mul)(k11, q1), V(mul)(k12, q0)));
	VM ok1 = V(and)(V(ge)(x0, ps->zero), V(ge)(x1, ps->zero));
	VT y0 = V(div)(V(neg)(q0), k11);
	VM ok2 = V(and)(V(ge)(y0, ps->zero), V(ge)(V(add)(V(mul)(k12, y0), q1), ps->zero));
	VT z1 = V(div)(V(neg)(q1), k22);
	VM ok3 = V(and)(V(ge)(z1, ps->zero), V(ge)(V(add)(V(mul)(k12, z1), q0), ps->zero));
	VM ok4 = V(and)(V(ge)(q0, ps->zero), V(ge)(q1, ps->zero));
	VM block = V(gt)(V(load)(LANES(part) + cw->block), ps->zero);
	if (use_bias) block = V(and)(block, same);
	VM use_block = V(and)(block, V(or)(V(or)(ok1, ok2), V(or)(ok3, ok4)));
	VT bx0 = V(select)(ok1, x0, V(select)(ok2, y0, ps->zero));
	VT bx1 = V(select)(ok1, x1, V(select)(ok2, ps->zero, V(select)(ok3, z1, ps->zero)));
	/* point 0, one by one where the block does not apply */
	VT t0 = K(point_total)(ps, use_bias, seq_soft[0], V(load)(LANES(part) + p0->normal_mass), vn[0], bias[0], a0);
	VT n0 = V(select)(use_block, bx0, V(max)(t0, ps->zero));
	VT d0 = V(sub)(n0, a0);
	VT rax0 = V(load)(LANES(part) + p0->rax), ray0 = V(load)(LANES(part) + p0->ray), rbx0 = V(load)(LANES(part) + p0->rbx), rby0 = V(load)(LANES(part) + p0->rby);
	V(store)(LANES(part) + p0->normal_impulse, n0);
	V(store)(LANES(part) + p0->max_normal_impulse, V(max)(V(load)(LANES(part) + p0->max_normal_impulse), d0));
	K(apply)(a, b, m, rax0, ray0, rbx0, rby0, V(mul)(d0, nx), V(mul)(d0, ny));
	/* point 1 after point 0's impulse */
	VT rax1 = V(load)(LANES(part) + p1->rax), ray1 = V(load)(LANES(part) + p1->ray), rbx1 = V(load)(LANES(part) + p1->rbx), rby1 = V(load)(LANES(part) + p1->rby);
	VT v1 = K(relative_speed)(a, b, rax1, ray1, rbx1, rby1, nx, ny);
	VT t1 = K(point_total)(ps, use_bias, seq_soft[1], V(load)(LANES(part) + p1->normal_mass), v1, bias[1], a1);
	VT n1 = V(select)(use_block, bx1, V(max)(t1, ps->zero));
	VT d1 = V(sub)(n1, a1);
	V(store)(LANES(part) + p1->normal_impulse, n1);
	V(store)(LANES(part) + p1->max_normal_impulse, V(max)(V(load)(LANES(part) + p1->max_normal_impulse), d1));
	K(apply)(a, b, m, rax1, ray1, rbx1, rby1, V(mul)(d1, nx), V(mul)(d1, ny));
}

/* Coulomb friction of both points, one after the other. */
KERNEL_INLINE void K(solve_friction)(sinew_contact_wide *cw, int part, K(body) *a, K(body) *b, const K(mass) *m, VT tx,
                                     VT ty)
{
	VT friction = V(load)(LANES(part) + cw->friction);
	for (int j = 0; j < 2; ++j) {
		wide_point *wp = &cw->points[j];
		VT rax = V(load)(LANES(part) + wp->rax), ray = V(load)(LANES(part) + wp->ray), rbx = V(load)(LANES(part) + wp->rbx), rby = V(load)(LANES(part) + wp->rby);
		VT vt = K(relative_speed)(a, b, rax, ray, rbx, rby, tx, ty);
		VT limit = V(mul)(friction, V(load)(LANES(part) + wp->normal_impulse));
		/* old + (-tangent_mass vt), written as the subtraction it is bit for bit */
		VT old = V(load)(LANES(part) + wp->tangent_impulse);
		VT total = V(sub)(old, V(mul)(V(load)(LANES(part) + wp->tangent_mass), vt));
		VT low = V(neg)(limit);
		total = V(select)(V(lt)(total, low), low, V(select)(V(gt)(total, limit), limit, total));
		VT d = V(sub)(total, old);
		V(store)(LANES(part) + wp->tangent_impulse, total);
		K(apply)(a, b, m, rax, ray, rbx, rby, V(mul)(d, tx), V(mul)(d, ty));
	}
}

/* The pass's settings as lane constants. */
static inline K(pass) K(make_pass)(const sinew_world *w, float inv_h)
{
	K(pass) ps;
	ps.inv_h = V(splat)(inv_h);
	ps.push = V(splat)(w->push_max_speed);
	ps.bias_rate = V(splat)(w->contact_bias_rate);
	ps.mass_scale = V(splat)(w->contact_mass_scale);
	ps.impulse_scale = V(splat)(w->contact_impulse_scale);
	ps.zero = V(splat)(0.0f);
	ps.one = V(splat)(1.0f);
	ps.half = V(splat)(0.5f);
	return ps;
}

/* One solve of one wide constraint (of the lanes this instance spans); pass a constant where inlined. */
KERNEL_INLINE void K(solve_block)(sinew_solver_body *bodies, sinew_contact_wide *cw, int part, const K(pass) *ps,
                                  sinew_contact_pass pass)
{
	bool pose = pass != SINEW_CONTACT_PASS_RELAX_AGAIN; /* the pass computes separations */
	K(body) a = pose ? K(gather)(bodies, LANES(part) + cw->offset_a) : K(gather_velocity)(bodies, LANES(part) + cw->offset_a);
	K(body) b = pose ? K(gather)(bodies, LANES(part) + cw->offset_b) : K(gather_velocity)(bodies, LANES(part) + cw->offset_b);
	K(mass) m = K(load_mass)(cw, part);
	VT nx = V(load)(LANES(part) + cw->nx), ny = V(load)(LANES(part) + cw->ny);
	K(solve_normal)(cw, part, &a, &b, &m, ps, pass, nx, ny);
	K(solve_friction)(cw, part, &a, &b, &m, ny, V(neg)(nx));
	K(scatter)(bodies, LANES(part) + cw->offset_a, &a, m.ma);
	K(scatter)(bodies, LANES(part) + cw->offset_b, &b, m.mb);
}
