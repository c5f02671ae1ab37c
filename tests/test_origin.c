/* Large worlds: sinew_world_shift_origin moves everything at once, so a scene stepped, shifted and
 * stepped again moves as one never shifted; and the usable range of coordinates that
 * docs/guide.md ("Large worlds") states. */
#include "support.h"

#include "sinew/ragdoll.h"

#include <math.h>

/* The scene, built around the point at: a ground, a stack of four boxes, a five-link pendulum
 * chain hung from a world anchor, a kinematic platform carrying a box, a ball thrown fast at a
 * thin static wall (swept by continuous collision) and a box pulled by a target joint toward a
 * world target. */
enum { SCENE_MAX = 16 };

typedef struct scene {
	sinew_world_id world;
	sinew_body_id bodies[SCENE_MAX];
	int count;
	sinew_body_id platform;
	sinew_joint_id target;
} scene;

static sinew_body_id add_body(scene *s, sinew_body_type type, sinew_vec2 p, const sinew_geometry *g)
{
	sinew_body_def bd = sinew_default_body_def();
	bd.type = type;
	bd.position = p;
	sinew_body_id b = sinew_create_body(s->world, &bd);
	sinew_shape_def sd = sinew_default_shape_def();
	if (g->type == SINEW_SHAPE_CIRCLE) sinew_create_circle_shape(b, &sd, &g->u.circle);
	else if (g->type == SINEW_SHAPE_CAPSULE) sinew_create_capsule_shape(b, &sd, &g->u.capsule);
	else sinew_create_polygon_shape(b, &sd, &g->u.polygon);
	if (type != SINEW_STATIC_BODY) s->bodies[s->count++] = b;
	return b;
}

static sinew_geometry box_geometry(float hx, float hy)
{
	sinew_geometry g;
	g.type = SINEW_SHAPE_POLYGON;
	g.u.polygon = sinew_make_box(hx, hy);
	return g;
}

static sinew_vec2 at(sinew_vec2 origin, float x, float y)
{
	return sinew_v2(origin.x + x, origin.y + y);
}

static scene build(sinew_vec2 o, int links)
{
	scene s = {0};
	sinew_world_def wd = sinew_default_world_def();
	wd.enable_sleep = false; /* the same bodies solved every step in both runs */
	s.world = sinew_create_world(&wd);
	sinew_geometry ground = box_geometry(40.0f, 0.5f), wall = box_geometry(0.025f, 2.0f);
	add_body(&s, SINEW_STATIC_BODY, at(o, 0.0f, -0.5f), &ground);
	add_body(&s, SINEW_STATIC_BODY, at(o, 25.0f, 2.0f), &wall);
	sinew_geometry crate = box_geometry(0.5f, 0.5f);
	for (int i = 0; i < 4; ++i) add_body(&s, SINEW_DYNAMIC_BODY, at(o, -5.0f, 0.5f + (float)i), &crate);
	/* the chain: links 1 m capsules hung from (0, 10), released horizontal (five links are chaotic:
	 * they amplify any difference; one is a plain pendulum) */
	sinew_geometry link;
	link.type = SINEW_SHAPE_CAPSULE;
	link.u.capsule = (sinew_capsule){{-0.5f, 0.0f}, {0.5f, 0.0f}, 0.1f};
	sinew_body_id prev = sinew_null_body_id;
	for (int i = 0; i < links; ++i) {
		sinew_body_id b = add_body(&s, SINEW_DYNAMIC_BODY, at(o, 0.5f + (float)i, 10.0f), &link);
		sinew_revolute_joint_def jd = sinew_default_revolute_joint_def();
		jd.base.body_a = prev;
		jd.base.body_b = b;
		jd.anchor = at(o, (float)i, 10.0f);
		sinew_create_revolute_joint(s.world, &jd);
		prev = b;
	}
	/* a kinematic platform moving right at 2 m/s with a box on it */
	sinew_geometry slab = box_geometry(2.0f, 0.25f);
	s.platform = add_body(&s, SINEW_KINEMATIC_BODY, at(o, 10.0f, 3.0f), &slab);
	sinew_body_set_linear_velocity(s.platform, sinew_v2(2.0f, 0.0f));
	sinew_geometry small = box_geometry(0.3f, 0.3f);
	add_body(&s, SINEW_DYNAMIC_BODY, at(o, 10.0f, 3.55f), &small);
	/* a 0.05 m ball at 150 m/s toward the wall: continuous collision stops it */
	sinew_geometry ball;
	ball.type = SINEW_SHAPE_CIRCLE;
	ball.u.circle = (sinew_circle){{0.0f, 0.0f}, 0.05f};
	sinew_body_id fast = add_body(&s, SINEW_DYNAMIC_BODY, at(o, 15.0f, 2.0f), &ball);
	sinew_body_set_gravity_scale(fast, 0.0f);
	sinew_body_set_linear_velocity(fast, sinew_v2(150.0f, 0.0f));
	/* a box pulled toward a world target by a target joint */
	sinew_body_id pulled = add_body(&s, SINEW_DYNAMIC_BODY, at(o, -12.0f, 1.0f), &small);
	sinew_target_joint_def td = sinew_default_target_joint_def();
	td.base.body_b = pulled;
	td.anchor = at(o, -12.0f, 1.0f);
	td.target = at(o, -14.0f, 4.0f);
	s.target = sinew_create_target_joint(s.world, &td);
	return s;
}

/* The worst distance between the two scenes' dynamic bodies, each measured from its own origin. */
static float deviation(const scene *a, sinew_vec2 oa, const scene *b, sinew_vec2 ob)
{
	float worst = 0.0f;
	for (int i = 0; i < a->count; ++i) {
		sinew_vec2 pa = sinew_sub(sinew_body_get_position(a->bodies[i]), oa);
		sinew_vec2 pb = sinew_sub(sinew_body_get_position(b->bodies[i]), ob);
		worst = sinew_maxf(worst, sinew_distance(pa, pb));
	}
	return worst;
}

/* Stepped 60, shifted by a large offset, stepped 120: the same motion as a scene never shifted,
 * within float rounding at the new coordinates. */
static void shifted_scene_moves_as_unshifted(void **state)
{
	(void)state;
	const sinew_vec2 zero = sinew_v2(0.0f, 0.0f);
	const sinew_vec2 offsets[3] = {{-300.0f, 40.0f}, {1000.0f, -700.0f}, {20000.0f, 15000.0f}};
	for (int k = 0; k < 3; ++k) {
		/* the world's contents sit near -offset after the shift: |coordinates| up to |offset| + 30 m */
		sinew_vec2 offset = offsets[k];
		scene plain = build(zero, 5), moved = build(zero, 5);
		step_n(plain.world, 60);
		step_n(moved.world, 60);
		assert_true(deviation(&plain, zero, &moved, zero) == 0.0f); /* the same scene, bit for bit */
		assert_true(sinew_world_shift_origin(moved.world, offset));
		sinew_vec2 o = sinew_scale(-1.0f, offset); /* where the old origin is now */
		float right_after = deviation(&plain, zero, &moved, o);
		/* the target joint's target (a world anchor) moved too */
		sinew_vec2 target = sinew_sub(sinew_target_joint_get_target(moved.target), o);
		assert_float_near(target.x, -14.0f, 0.01f);
		assert_float_near(target.y, 4.0f, 0.01f);
		step_n(plain.world, 120);
		step_n(moved.world, 120);
		float after = deviation(&plain, zero, &moved, o);
		/* float spacing at the largest coordinate after the shift */
		float far = fabsf(offset.x) + fabsf(offset.y) + 30.0f;
		float spacing = nextafterf(far, INFINITY) - far;
		print_message("shifted by (%g, %g): %.2g m right after, %.2g m after 2 s more (spacing there %.2g m)\n",
		              (double)offset.x, (double)offset.y, (double)right_after, (double)after, (double)spacing);
		assert_true(right_after <= spacing);
		/* the stack, the chain, the carried box, the stopped ball and the pulled box all move as
		 * before, up to half a spacing of rounding per substep (480 substeps; the five-link chain
		 * amplifies it): a part left behind (a contact lost, an anchor unmoved) is off by metres */
		assert_true(after <= 0.5f * 480.0f * spacing);
		/* the stack stands and the ball stayed on the near side of the wall in both */
		sinew_vec2 top = sinew_sub(sinew_body_get_position(moved.bodies[3]), o);
		assert_float_near(top.y, 3.5f, 0.05f);
		sinew_vec2 ball = sinew_sub(sinew_body_get_position(moved.bodies[11]), o);
		assert_true(ball.x < 25.0f - 0.025f - 0.05f + 0.01f);
		sinew_destroy_world(plain.world);
		sinew_destroy_world(moved.world);
	}
}

/* The usable range that docs/guide.md ("Large worlds") states. A position resolves 1 mm while the
 * float spacing there is below 1 mm: out to 8,192 m (spacing 0.98 mm); from 16,384 m on, a 1 mm
 * move is rounded to nothing or to 2 mm. Motion also rounds at every substep, so the same scene
 * built far from the origin drifts from its twin at the origin: the figures for 1,024 m and
 * 8,192 m after 3 s are the guide's. */
static void usable_range(void **state)
{
	(void)state;
	sinew_world_id w = make_world(NULL);
	const float far[2] = {8191.0f, 16385.0f};
	float error[2];
	for (int k = 0; k < 2; ++k) {
		sinew_body_def bd = sinew_default_body_def();
		bd.position = sinew_v2(far[k], -far[k]);
		sinew_body_id b = sinew_create_body(w, &bd);
		sinew_body_set_position(b, sinew_v2(far[k] + 0.001f, -far[k] - 0.001f));
		sinew_vec2 p = sinew_body_get_position(b);
		error[k] = sinew_maxf(fabsf((p.x - far[k]) - 0.001f), fabsf((-far[k] - p.y) - 0.001f));
		print_message("a 1 mm move at %.0f m reads back off by %.2f mm\n", (double)far[k], 1000.0 * error[k]);
	}
	sinew_destroy_world(w);
	assert_true(error[0] <= 0.0005f); /* held: within half a millimetre */
	assert_true(error[1] >= 0.0009f); /* lost: rounded to 0 or 2 mm */

	const sinew_vec2 zero = sinew_v2(0.0f, 0.0f);
	scene home = build(zero, 1);
	step_n(home.world, 180);
	float drift_1k = 0.0f, drift_8k = 0.0f;
	for (int k = 6; k <= 13; ++k) {
		float x = ldexpf(1.0f, k);
		sinew_vec2 o = sinew_v2(x, -x);
		scene away = build(o, 1);
		step_n(away.world, 180);
		float d = deviation(&home, zero, &away, o);
		print_message("the scene at (%.0f, %.0f) m: %.2f mm from its twin at the origin after 3 s\n", (double)x,
		              (double)-x, 1000.0 * d);
		if (k == 10) drift_1k = d;
		if (k == 13) drift_8k = d;
		sinew_destroy_world(away.world);
	}
	sinew_destroy_world(home.world);
	assert_true(drift_1k <= 0.01f); /* guide: under 1 cm at 1,024 m (5.9 mm measured) */
	assert_true(drift_8k <= 0.05f); /* guide: under 5 cm at 8,192 m (30 mm measured) */
}

static error_recorder s_errors;

static bool shift_inside_query(sinew_shape_id shape, void *context)
{
	(void)shape;
	sinew_world_id *world = context;
	assert_false(sinew_world_shift_origin(*world, sinew_v2(1.0f, 0.0f)));
	return false;
}

/* Refused, changing nothing: while a query runs, a non-finite origin, and a shift that would
 * put a body outside the numeric envelope. */
static void shift_origin_refusals(void **state)
{
	(void)state;
	scene s = build(sinew_v2(0.0f, 0.0f), 5);
	sinew_world_set_error_callback(s.world, recorder_callback, &s_errors);
	step_n(s.world, 10);
	uint64_t hash = sinew_world_get_hash(s.world);
	sinew_aabb everywhere = {{-100.0f, -100.0f}, {100.0f, 100.0f}};
	s_errors.count = 0;
	sinew_world_overlap_aabb(s.world, everywhere, NULL, shift_inside_query, &s.world);
	assert_int_equal(s_errors.count, 1);
	assert_int_equal(s_errors.last_code, SINEW_ERROR_LOCKED);
	assert_false(sinew_world_shift_origin(s.world, sinew_v2(NAN, 0.0f)));
	assert_int_equal(s_errors.last_code, SINEW_ERROR_NOT_FINITE);
	assert_false(sinew_world_shift_origin(s.world, sinew_v2(0.0f, INFINITY)));
	assert_int_equal(s_errors.last_code, SINEW_ERROR_NOT_FINITE);
	assert_false(sinew_world_shift_origin(s.world, sinew_v2(-999990.0f, 0.0f))); /* the wall would be at 1,000,015 m */
	assert_int_equal(s_errors.last_code, SINEW_ERROR_INVALID_ARGUMENT);
	assert_int_equal(s_errors.count, 4);
	assert_true(sinew_world_get_hash(s.world) == hash);
	assert_false(sinew_world_shift_origin((sinew_world_id){0}, sinew_v2(1.0f, 0.0f)));
	sinew_destroy_world(s.world);
}

/* Origin listeners: told in the order they were added, with the world and the new origin, after
 * the world has moved and while it is locked; refused for a NULL fn, a pair added twice or not
 * added, and while locked; not told of a refused shift, nor after removal. */
static sinew_origin_shift_fn listen_first;

typedef struct heard {
	int calls, order[4];
	sinew_world_id world;
	sinew_vec2 origin, body_at;
	sinew_body_id body;
	bool create_refused, shift_refused, add_refused;
} heard;

static void listen(sinew_world_id world, sinew_vec2 new_origin, void *context, int who)
{
	heard *h = context;
	if (h->calls < 4) h->order[h->calls] = who;
	h->calls += 1;
	h->world = world;
	h->origin = new_origin;
	h->body_at = sinew_body_get_position(h->body); /* the world has moved already */
	sinew_body_def bd = sinew_default_body_def();
	h->create_refused = SINEW_IS_NULL(sinew_create_body(world, &bd));
	h->shift_refused = !sinew_world_shift_origin(world, sinew_v2(1.0f, 1.0f));
	h->add_refused = !sinew_world_add_origin_listener(world, listen_first, h);
}

static void listen_first(sinew_world_id world, sinew_vec2 new_origin, void *context) { listen(world, new_origin, context, 1); }
static void listen_second(sinew_world_id world, sinew_vec2 new_origin, void *context) { listen(world, new_origin, context, 2); }

static void origin_listeners(void **state)
{
	(void)state;
	error_recorder rec = {0};
	sinew_world_id world = make_world(&rec);
	heard h = {0};
	h.body = make_box(world, 3.0f, 4.0f, 0.5f, 0.5f, 1.0f, 0.5f);
	assert_false(sinew_world_add_origin_listener(world, NULL, &h));
	assert_int_equal(rec.last_code, SINEW_ERROR_INVALID_ARGUMENT);
	assert_true(sinew_world_add_origin_listener(world, listen_second, &h));
	assert_true(sinew_world_add_origin_listener(world, listen_first, &h));
	assert_false(sinew_world_add_origin_listener(world, listen_first, &h)); /* twice */
	assert_int_equal(rec.last_code, SINEW_ERROR_INVALID_ARGUMENT);
	assert_false(sinew_world_remove_origin_listener(world, listen_first, NULL)); /* not this context */
	assert_int_equal(rec.last_code, SINEW_ERROR_INVALID_ARGUMENT);
	assert_false(sinew_world_add_origin_listener(sinew_null_world_id, listen_first, &h));
	int refusals = rec.count;

	assert_false(sinew_world_shift_origin(world, sinew_v2(NAN, 0.0f)));
	assert_int_equal(h.calls, 0);
	rec.count = 0;
	assert_true(sinew_world_shift_origin(world, sinew_v2(10.0f, -20.0f)));
	assert_int_equal(h.calls, 2);
	assert_int_equal(h.order[0], 2); /* added first */
	assert_int_equal(h.order[1], 1);
	assert_true(SINEW_ID_EQUALS(h.world, world));
	assert_float_near(h.origin.x, 10.0f, 0.0f);
	assert_float_near(h.origin.y, -20.0f, 0.0f);
	assert_float_near(h.body_at.x, -7.0f, 1e-5);
	assert_float_near(h.body_at.y, 24.0f, 1e-5);
	/* the world is locked while they run: each listener's create, shift and add were refused */
	assert_true(h.create_refused && h.shift_refused && h.add_refused);
	assert_int_equal(rec.count, 6);
	assert_int_equal(rec.last_code, SINEW_ERROR_LOCKED);
	assert_int_equal(refusals, 3); /* the null world reports through the process-wide callback */

	assert_true(sinew_world_remove_origin_listener(world, listen_second, &h));
	assert_false(sinew_world_remove_origin_listener(world, listen_second, &h)); /* already gone */
	h.calls = 0;
	assert_true(sinew_world_shift_origin(world, sinew_v2(1.0f, 0.0f)));
	assert_int_equal(h.calls, 1);
	assert_int_equal(h.order[0], 1);
	sinew_destroy_world(world);
}

/* A rig and a ragdoll listen from creation to destruction: a shift after they are gone touches
 * nothing of theirs (AddressSanitizer would see it), and destroying them after their world reports
 * nothing. */
static void figures_stop_listening(void **state)
{
	(void)state;
	error_recorder rec = {0};
	sinew_world_id world = make_world(&rec);
	sinew_rig_def rd = sinew_default_rig_def();
	rd.position = sinew_v2(100.0f, -400.0f);
	sinew_rig *rig = sinew_create_rig(world, &rd);
	sinew_ragdoll *doll = sinew_create_ragdoll(rig, NULL);
	assert_true(sinew_world_shift_origin(world, sinew_v2(50.0f, 0.0f)));
	assert_float_near(sinew_rig_get_root(rig).p.x, 50.0f, 0.0f);
	sinew_destroy_ragdoll(doll);
	sinew_destroy_rig(rig);
	assert_true(sinew_world_shift_origin(world, sinew_v2(50.0f, 0.0f)));
	rig = sinew_create_rig(world, &rd);
	doll = sinew_create_ragdoll(rig, NULL);
	sinew_destroy_world(world);
	sinew_destroy_ragdoll(doll);
	sinew_destroy_rig(rig);
	assert_int_equal(rec.count, 0);
}

/* The broadphase tree keeps its structure: still valid, and a query finds the same proxies. */
static void tree_shift_keeps_structure(void **state)
{
	(void)state;
	sinew_dynamic_tree tree = sinew_dynamic_tree_create();
	for (int i = 0; i < 100; ++i) {
		float x = (float)(i % 10) * 1.5f, y = (float)(i / 10) * 1.5f;
		sinew_aabb b = {{x, y}, {x + 1.0f, y + 1.0f}};
		sinew_dynamic_tree_create_proxy(&tree, b, 1u, (uint64_t)i);
	}
	int height = sinew_dynamic_tree_get_height(&tree);
	sinew_dynamic_tree_shift_origin(&tree, sinew_v2(-5000.0f, 3000.0f));
	assert_true(sinew_dynamic_tree_validate(&tree));
	assert_int_equal(sinew_dynamic_tree_get_height(&tree), height);
	sinew_aabb b = sinew_dynamic_tree_get_aabb(&tree, 0);
	assert_float_near(b.lower.x, 5000.0f, 1e-3);
	assert_float_near(b.lower.y, -3000.0f, 1e-3);
	sinew_dynamic_tree_destroy(&tree);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shifted_scene_moves_as_unshifted),
		cmocka_unit_test(usable_range),
		cmocka_unit_test(shift_origin_refusals),
		cmocka_unit_test(tree_shift_keeps_structure),
		cmocka_unit_test(origin_listeners),
		cmocka_unit_test(figures_stop_listening),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
