/* Physics against analytic answers: free fall, restitution height, friction on an incline,
 * resting stacks and pyramids, mass ratios, sleep and wake, events, sensors, kinematic bodies. */
#include "support.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const float G = 10.0f;

static void free_fall(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	sinew_body_id ball = make_ball(world, 0.0f, 0.0f, 0.1f, 0.0f);
	sinew_vec2 v0 = {3.0f, 8.0f};
	sinew_body_set_linear_velocity(ball, v0);
	step_n(world, 60);
	double t = 1.0;
	double x = v0.x * t, y = v0.y * t - 0.5 * G * t * t;
	sinew_vec2 p = sinew_body_get_position(ball);
	/* 0.1 % of the distance travelled */
	double travelled = sqrt(x * x + (v0.y * t) * (v0.y * t)) ;
	assert_float_near(p.x, x, 1e-3 * travelled);
	assert_float_near(p.y, y, 1e-3 * travelled);
	sinew_vec2 v = sinew_body_get_linear_velocity(ball);
	assert_float_near(v.x, v0.x, 1e-5);
	assert_float_near(v.y, v0.y - G * t, 1e-3 * G * t);
	sinew_destroy_world(world);
}

/* A ball with restitution 0.5 dropped from 2 m rises e^2 * 2 = 0.5 m after its first bounce. */
static void bounce_height(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	make_ground(world, 0.0f, 0.6f);
	const float r = 0.25f;
	sinew_body_id ball = make_ball(world, 0.0f, 2.0f + r, r, 0.5f);
	bool bounced = false;
	float peak = 0.0f;
	for (int i = 0; i < 240; ++i) {
		step_n(world, 1);
		float vy = sinew_body_get_linear_velocity(ball).y;
		float bottom = sinew_body_get_position(ball).y - r;
		if (!bounced && vy > 0.0f) bounced = true;
		if (bounced) {
			if (bottom > peak) peak = bottom;
			if (vy < 0.0f) break;
		}
	}
	assert_true(bounced);
	assert_float_near(peak, 0.5f, 0.015f * 0.5f);
	sinew_destroy_world(world);
}

/* A box on a 30 degree incline: a = g (sin 30 - mu cos 30), or it holds when mu > tan 30. */
static float incline_run(float mu, float *slid_distance)
{
	sinew_world_id world = make_world(NULL);
	const float angle = SINEW_PI / 6.0f;
	sinew_rot q = sinew_make_rot(angle);
	sinew_body_def bd = sinew_default_body_def();
	bd.angle = angle;
	sinew_body_id ramp = sinew_create_body(world, &bd);
	sinew_shape_def sd = sinew_default_shape_def();
	sd.friction = mu;
	sinew_polygon slab = sinew_make_box(50.0f, 0.5f);
	sinew_create_polygon_shape(ramp, &sd, &slab);
	/* box resting on the surface: surface normal n = rot(q, (0,1)), half height 0.25 + 0.5 */
	sinew_vec2 n = sinew_rotate(q, sinew_v2(0.0f, 1.0f)), along = sinew_rotate(q, sinew_v2(-1.0f, 0.0f));
	bd = sinew_default_body_def();
	bd.type = SINEW_DYNAMIC_BODY;
	bd.angle = angle;
	bd.position = sinew_scale(0.75f, n);
	sinew_body_id box = sinew_create_body(world, &bd);
	sinew_polygon b = sinew_make_box(0.25f, 0.25f);
	sinew_create_polygon_shape(box, &sd, &b);
	step_n(world, 30); /* settle into steady sliding */
	float v1 = sinew_dot(sinew_body_get_linear_velocity(box), along);
	step_n(world, 60);
	float v2 = sinew_dot(sinew_body_get_linear_velocity(box), along);
	*slid_distance = sinew_length(sinew_sub(sinew_body_get_position(box), sinew_scale(0.75f, n)));
	sinew_destroy_world(world);
	return (v2 - v1) / 1.0f;
}

static void incline_slides(void **state)
{
	(void)state;
	float mu = 0.2f, d;
	float a = incline_run(mu, &d);
	float expected = G * (sinf(SINEW_PI / 6.0f) - mu * cosf(SINEW_PI / 6.0f));
	assert_float_near(a, expected, 0.01f * expected);
}

static void incline_holds(void **state)
{
	(void)state;
	float d;
	incline_run(0.7f, &d); /* 1.5 s of holding */
	assert_true(d < 0.005f);
}

/* pyramid20: 20 rows of unit boxes; after 15 s nothing moved more than 2 cm, nothing more than
 * 1 mm after the first 2 s, and everything sleeps. */
static void pyramid20_stands(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	make_ground(world, 0.0f, 0.6f);
	enum { ROWS = 20, COUNT = ROWS * (ROWS + 1) / 2 };
	sinew_body_id boxes[COUNT];
	sinew_vec2 start[COUNT], at2[COUNT];
	int k = 0;
	for (int row = 0; row < ROWS; ++row) {
		for (int j = 0; j < ROWS - row; ++j) {
			float x = (float)j - 0.5f * (float)(ROWS - row - 1);
			float y = 0.5f + (float)row;
			boxes[k] = make_box(world, x, y, 0.5f, 0.5f, 1.0f, 0.6f);
			start[k] = sinew_v2(x, y);
			k += 1;
		}
	}
	step_n(world, 120);
	for (int i = 0; i < COUNT; ++i) at2[i] = sinew_body_get_position(boxes[i]);
	step_n(world, 780);
	float max_drift = 0.0f, max_late = 0.0f;
	int awake = 0;
	for (int i = 0; i < COUNT; ++i) {
		sinew_vec2 p = sinew_body_get_position(boxes[i]);
		max_drift = sinew_maxf(max_drift, sinew_distance(p, start[i]));
		max_late = sinew_maxf(max_late, sinew_distance(p, at2[i]));
		awake += sinew_body_is_awake(boxes[i]);
	}
	print_message("pyramid20: max drift %.5f m, after 2 s %.6f m, awake %d\n", (double)max_drift, (double)max_late, awake);
	assert_true(max_drift < 0.02f);
	assert_true(max_late < 0.001f);
	assert_int_equal(awake, 0);
	sinew_destroy_world(world);
}

static void stack10_stands(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	make_ground(world, 0.0f, 0.6f);
	sinew_body_id boxes[10];
	for (int i = 0; i < 10; ++i) boxes[i] = make_box(world, 0.0f, 0.5f + (float)i, 0.5f, 0.5f, 1.0f, 0.6f);
	step_n(world, 600);
	for (int i = 0; i < 10; ++i) {
		sinew_vec2 p = sinew_body_get_position(boxes[i]);
		assert_float_near(p.x, 0.0f, 0.01f);
		assert_float_near(p.y, 0.5f + (float)i, 0.02f);
		assert_float_near(sinew_body_get_angle(boxes[i]), 0.0f, 0.01f);
	}
	sinew_destroy_world(world);
}

/* A 100 kg box on a 1 kg box stands with penetration under 2x linear slop (1 cm). */
static void mass_ratio_stack(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	make_ground(world, 0.0f, 0.6f);
	sinew_body_id light = make_box(world, 0.0f, 0.5f, 0.5f, 0.5f, 1.0f, 0.6f);   /* 1 kg */
	sinew_body_id heavy = make_box(world, 0.0f, 1.5f, 0.5f, 0.5f, 100.0f, 0.6f); /* 100 kg */
	assert_float_near(sinew_body_get_mass(heavy), 100.0f, 1e-3f);
	float worst = 0.0f;
	for (int i = 0; i < 300; ++i) {
		step_n(world, 1);
		sinew_body_contact contacts[4];
		int n = sinew_body_get_contacts(light, contacts, 4);
		for (int j = 0; j < n; ++j) worst = sinew_minf(worst, contacts[j].separation);
	}
	print_message("mass ratio 100:1: deepest penetration %.5f m\n", (double)-worst);
	assert_true(-worst < 0.01f);
	assert_float_near(sinew_body_get_position(heavy).x, 0.0f, 0.01f);
	assert_float_near(sinew_body_get_position(heavy).y, 1.5f, 0.02f);
	sinew_destroy_world(world);
}

static void sleep_and_wake(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	make_ground(world, 0.0f, 0.6f);
	sinew_body_id low = make_box(world, 0.0f, 0.5f, 0.5f, 0.5f, 1.0f, 0.6f);
	sinew_body_id high = make_box(world, 0.0f, 1.5f, 0.5f, 0.5f, 1.0f, 0.6f);
	step_n(world, 120);
	assert_false(sinew_body_is_awake(low));
	assert_false(sinew_body_is_awake(high));
	assert_int_equal(sinew_world_get_counters(world).awake_body_count, 0);
	/* an impulse on the lower box wakes the whole island at the next step */
	sinew_body_apply_linear_impulse_to_center(low, sinew_v2(2.0f, 0.0f), true);
	assert_true(sinew_body_is_awake(low));
	step_n(world, 1);
	assert_true(sinew_body_is_awake(high));
	step_n(world, 240);
	assert_false(sinew_body_is_awake(high));
	/* a box dropped onto the sleeping stack wakes it when it lands */
	sinew_body_id dropped = make_box(world, sinew_body_get_position(high).x, 4.0f, 0.5f, 0.5f, 1.0f, 0.6f);
	bool woke = false;
	for (int i = 0; i < 60 && !woke; ++i) {
		step_n(world, 1);
		woke = sinew_body_is_awake(low);
	}
	assert_true(woke);
	assert_true(sinew_body_is_awake(dropped));
	/* put to sleep by hand: the island sleeps */
	sinew_body_set_awake(high, false);
	assert_false(sinew_body_is_awake(low));
	sinew_destroy_world(world);
}

static void contact_events_and_normals(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	sinew_body_id ground = make_ground(world, 0.0f, 0.6f);
	sinew_body_id ball = make_ball(world, 0.0f, 1.25f, 0.25f, 0.0f); /* falls 1 m */
	int begins = 0;
	for (int i = 0; i < 60; ++i) {
		step_n(world, 1);
		sinew_contact_events e = sinew_world_get_contact_events(world);
		for (int j = 0; j < e.begin_count; ++j) {
			const sinew_contact_begin_event *b = &e.begin_events[j];
			begins += 1;
			sinew_body_id body_a = sinew_shape_get_body(b->shape_a);
			/* the normal points from shape a to shape b */
			sinew_vec2 expected = SINEW_ID_EQUALS(body_a, ground) ? sinew_v2(0.0f, 1.0f) : sinew_v2(0.0f, -1.0f);
			assert_float_near(b->manifold.normal.x, expected.x, 1e-5);
			assert_float_near(b->manifold.normal.y, expected.y, 1e-5);
			/* speculative contacts begin just before touching: close to sqrt(2 g h) */
			assert_float_near(b->approach_speed, sqrtf(2.0f * G * 1.0f), 0.3f);
		}
	}
	assert_int_equal(begins, 1);
	sinew_body_contact bc[2];
	assert_int_equal(sinew_body_get_contacts(ball, bc, 2), 1);
	assert_float_near(bc[0].normal.y, 1.0f, 1e-5); /* towards the ball */
	assert_true(SINEW_ID_EQUALS(bc[0].other_body, ground));
	assert_float_near(bc[0].normal_impulse, sinew_body_get_mass(ball) * G / 60.0f, 0.05f * sinew_body_get_mass(ball) * G / 60.0f);
	/* throw it up: the contact ends */
	sinew_body_set_linear_velocity(ball, sinew_v2(0.0f, 5.0f));
	int ends = 0;
	for (int i = 0; i < 10; ++i) {
		step_n(world, 1);
		ends += sinew_world_get_contact_events(world).end_count;
	}
	assert_int_equal(ends, 1);
	sinew_destroy_world(world);
}

static void sensors_report_and_never_push(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	sinew_body_def bd = sinew_default_body_def();
	bd.position = sinew_v2(0.0f, -2.0f);
	sinew_body_id zone = sinew_create_body(world, &bd);
	sinew_shape_def sd = sinew_default_shape_def();
	sd.is_sensor = true;
	sinew_polygon box = sinew_make_box(2.0f, 0.5f);
	sinew_shape_id sensor = sinew_create_polygon_shape(zone, &sd, &box);
	sinew_body_id ball = make_ball(world, 0.0f, 0.0f, 0.1f, 0.0f);
	sinew_body_id reference = make_ball(world, 10.0f, 0.0f, 0.1f, 0.0f);
	int begins = 0, ends = 0;
	for (int i = 0; i < 60; ++i) {
		step_n(world, 1);
		sinew_sensor_events e = sinew_world_get_sensor_events(world);
		for (int j = 0; j < e.begin_count; ++j) {
			assert_true(SINEW_ID_EQUALS(e.begin_events[j].sensor_shape, sensor));
			assert_true(SINEW_ID_EQUALS(sinew_shape_get_body(e.begin_events[j].visitor_shape), ball));
		}
		begins += e.begin_count;
		ends += e.end_count;
	}
	assert_int_equal(begins, 1);
	assert_int_equal(ends, 1);
	/* the sensor never pushed: same fall as the ball without a sensor */
	assert_true(sinew_body_get_position(ball).y == sinew_body_get_position(reference).y);
	assert_true(sinew_body_get_linear_velocity(ball).y == sinew_body_get_linear_velocity(reference).y);
	sinew_destroy_world(world);
}

static void kinematic_paddle_pushes(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	make_ground(world, 0.0f, 0.6f);
	sinew_body_def bd = sinew_default_body_def();
	bd.type = SINEW_KINEMATIC_BODY;
	bd.position = sinew_v2(-3.0f, 0.6f);
	bd.linear_velocity = sinew_v2(2.0f, 0.0f);
	sinew_body_id paddle = sinew_create_body(world, &bd);
	sinew_shape_def sd = sinew_default_shape_def();
	sinew_polygon plate = sinew_make_box(0.1f, 0.5f);
	sinew_create_polygon_shape(paddle, &sd, &plate);
	sinew_body_id boxes[3];
	for (int i = 0; i < 3; ++i) boxes[i] = make_box(world, (float)i * 1.5f, 0.25f, 0.25f, 0.25f, 1.0f, 0.6f);
	step_n(world, 120); /* 2 s: the paddle travels 4 m */
	sinew_vec2 p = sinew_body_get_position(paddle);
	assert_float_near(p.x, -3.0f + 4.0f, 1e-4);
	assert_float_near(p.y, 0.6f, 1e-6);
	assert_float_near(sinew_body_get_linear_velocity(paddle).x, 2.0f, 1e-6);
	/* the first box was swept ahead of the paddle face */
	assert_true(sinew_body_get_position(boxes[0]).x >= p.x + 0.1f + 0.25f - 0.02f);
	assert_true(sinew_body_get_linear_velocity(boxes[0]).x > 1.0f);
	sinew_destroy_world(world);
}

/* maximum_linear_speed holds for every body's velocity, however late in the step it is made: a
 * ball at 25 m/s meets a kinematic paddle closing at 20 m/s with restitution 1, so the bounce
 * (applied after the integration's clamp) would send it back at 65 m/s; the step's velocities
 * are clamped once more at its end. */
static void bounce_keeps_maximum_speed(void **state)
{
	(void)state;
	sinew_world_def wd = sinew_default_world_def();
	wd.gravity = sinew_v2(0.0f, 0.0f);
	wd.maximum_linear_speed = 30.0f;
	sinew_world_id world = sinew_create_world(&wd);
	sinew_body_def bd = sinew_default_body_def();
	bd.type = SINEW_KINEMATIC_BODY;
	bd.position = sinew_v2(3.0f, 0.0f);
	bd.linear_velocity = sinew_v2(-20.0f, 0.0f);
	sinew_body_id paddle = sinew_create_body(world, &bd);
	sinew_shape_def sd = sinew_default_shape_def();
	sd.restitution = 1.0f;
	sinew_polygon slab = sinew_make_box(0.5f, 2.0f);
	sinew_create_polygon_shape(paddle, &sd, &slab);
	sinew_body_id ball = make_ball(world, 0.0f, 0.0f, 0.25f, 1.0f);
	sinew_body_set_linear_velocity(ball, sinew_v2(25.0f, 0.0f));
	float fastest = 0.0f, back = 0.0f;
	for (int i = 0; i < 10; ++i) {
		step_n(world, 1);
		sinew_vec2 v = sinew_body_get_linear_velocity(ball);
		fastest = sinew_maxf(fastest, sinew_length(v));
		back = sinew_minf(back, v.x);
	}
	print_message("bounced ball: fastest %.1f m/s, back at %.1f m/s (maximum 30)\n", (double)fastest, (double)back);
	assert_true(back < -25.0f);                     /* it bounced back faster than it came */
	assert_true(fastest <= 30.0f * (1.0f + 1e-6f)); /* and never faster than the maximum */
	sinew_destroy_world(world);
}

static void kinematic_move_to_reaches_target(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	sinew_body_def bd = sinew_default_body_def();
	bd.type = SINEW_KINEMATIC_BODY;
	sinew_body_id k = sinew_create_body(world, &bd);
	sinew_circle c = {{0.5f, 0.0f}, 0.2f};
	sinew_shape_def sd = sinew_default_shape_def();
	sinew_create_circle_shape(k, &sd, &c);
	sinew_transform target = sinew_make_transform(sinew_v2(1.0f, -2.0f), 0.5f);
	assert_true(sinew_body_move_to(k, target, 1.0f / 60.0f));
	step_n(world, 1);
	sinew_transform xf = sinew_body_get_transform(k);
	assert_float_near(xf.p.x, 1.0f, 1e-4);
	assert_float_near(xf.p.y, -2.0f, 1e-4);
	assert_float_near(sinew_rot_angle(xf.q), 0.5f, 1e-4);
	/* a large turn in one step (2.9 rad, 0.73 rad per substep) arrives too, and so does the
	 * reverse turn back */
	target = sinew_make_transform(sinew_v2(1.0f, -2.0f), 3.4f);
	assert_true(sinew_body_move_to(k, target, 1.0f / 60.0f));
	step_n(world, 1);
	xf = sinew_body_get_transform(k);
	assert_float_near(sinew_relative_angle(xf.q, target.q), 0.0f, 1e-4);
	target = sinew_make_transform(sinew_v2(1.0f, -2.0f), 0.6f);
	assert_true(sinew_body_move_to(k, target, 1.0f / 60.0f));
	step_n(world, 1);
	xf = sinew_body_get_transform(k);
	assert_float_near(sinew_relative_angle(xf.q, target.q), 0.0f, 1e-4);
	/* the zero rotation {0, 0} has no angle: refused, as sinew_body_set_rotation refuses it */
	target.q = (sinew_rot){0.0f, 0.0f};
	assert_false(sinew_body_move_to(k, target, 1.0f / 60.0f));
	sinew_destroy_world(world);
}

static void disable_and_change_type(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	make_ground(world, 0.0f, 0.6f);
	sinew_body_id box = make_box(world, 0.0f, 3.0f, 0.5f, 0.5f, 1.0f, 0.6f);
	sinew_body_disable(box);
	step_n(world, 60);
	assert_float_near(sinew_body_get_position(box).y, 3.0f, 0.0f); /* out of the simulation */
	assert_int_equal(sinew_world_get_counters(world).awake_body_count, 0);
	sinew_body_enable(box);
	step_n(world, 120);
	assert_float_near(sinew_body_get_position(box).y, 0.5f, 0.01f); /* fell and landed */
	sinew_body_set_type(box, SINEW_STATIC_BODY);
	sinew_body_id top = make_box(world, 0.0f, 1.5f, 0.5f, 0.5f, 1.0f, 0.6f);
	step_n(world, 60);
	assert_float_near(sinew_body_get_position(top).y, 1.5f, 0.01f);
	sinew_body_set_transform(box, sinew_v2(0.0f, 5.0f), 0.0f); /* pulled out from under */
	sinew_body_set_type(box, SINEW_DYNAMIC_BODY);
	step_n(world, 30);
	assert_true(sinew_body_get_position(top).y < 1.0f); /* the top box fell */
	sinew_destroy_world(world);
}

static uint64_t run_pyramid_hash(void)
{
	sinew_world_id world = make_world(NULL);
	make_ground(world, 0.0f, 0.6f);
	for (int row = 0; row < 10; ++row)
		for (int j = 0; j < 10 - row; ++j)
			make_box(world, (float)j - 0.5f * (float)(9 - row) + 0.01f * (float)row, 0.5f + (float)row, 0.5f, 0.5f, 1.0f, 0.6f);
	step_n(world, 200);
	uint64_t h = sinew_world_get_hash(world);
	sinew_destroy_world(world);
	return h;
}

static void same_scene_same_hash(void **state)
{
	(void)state;
	uint64_t a = run_pyramid_hash(), b = run_pyramid_hash();
	assert_true(a == b);
	assert_true(a != 0);
}

/* Contacts are found by shape pair (solver/broadphase.c's pair set), and shape slots are reused
 * after a body is destroyed. Rounds of 6 columns of 8 boxes each land on the ground and are
 * destroyed in a shuffled order, so every round's shapes take the slots (and pair keys) of the
 * last round's: a pair the set failed to forget would leave its boxes without a contact and
 * sinking through each other or the ground, and a pair it lost would give two contacts. */
static void contacts_follow_reused_shapes(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	make_ground(world, 0.0f, 0.6f);
	enum { COLUMNS = 6, ROWS = 8, COUNT = COLUMNS * ROWS };
	sinew_body_id boxes[COUNT];
	uint32_t lcg = 12345u;
	for (int round = 0; round < 4; ++round) {
		for (int i = 0; i < COUNT; ++i)
			boxes[i] = make_box(world, 1.5f * (float)(i % COLUMNS) - 4.0f + 0.1f * (float)round,
			                    0.5f + 1.02f * (float)(i / COLUMNS), 0.5f, 0.5f, 1.0f, 0.6f);
		step_n(world, 90);
		for (int i = 0; i < COUNT; ++i) {
			sinew_vec2 p = sinew_body_get_position(boxes[i]);
			/* resting in its column: row r's centre at 0.5 + r (less the contacts' small overlap) */
			assert_float_near(p.y, 0.5f + (float)(i / COLUMNS), 0.05f);
			sinew_contact_data data[16];
			int n = sinew_body_get_contact_data(boxes[i], data, 16);
			for (int a = 0; a < n; ++a)
				for (int b = a + 1; b < n; ++b)
					assert_false(data[a].shape_a.index1 == data[b].shape_a.index1 &&
					             data[a].shape_b.index1 == data[b].shape_b.index1);
		}
		for (int i = COUNT - 1; i > 0; --i) { /* destroy in a shuffled order */
			lcg = lcg * 1664525u + 1013904223u;
			int j = (int)(lcg >> 8) % (i + 1);
			sinew_body_id t = boxes[i];
			boxes[i] = boxes[j];
			boxes[j] = t;
		}
		for (int i = 0; i < COUNT; ++i) assert_true(sinew_destroy_body(boxes[i]));
	}
	sinew_destroy_world(world);
}

/* Contact recycling (solver/contact.c) reuses a manifold while the bodies barely move relative to
 * each other. In a settled pyramid nearly every manifold is a recycled one: each must still agree
 * with the narrowphase run afresh at the bodies' present pose, point by point: the same feature
 * ids, the separation within 0.01 mm (its error is of second order in the relative motion; 1e-6 m
 * measured) and the contact point within the recycling tolerance of 0.5 mm of relative motion
 * (a point may slide along the face that far before the manifold is found again; 0.2 mm measured). */
static void recycled_manifolds_match_narrowphase(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	sinew_world_enable_sleep(world, false);
	make_ground(world, 0.0f, 0.6f);
	enum { ROWS = 10 };
	sinew_body_id boxes[ROWS * (ROWS + 1) / 2];
	int count = 0;
	for (int row = 0; row < ROWS; ++row)
		for (int i = 0; i < ROWS - row; ++i)
			boxes[count++] = make_box(world, (float)i * 1.05f + 0.525f * (float)row, 0.5f + (float)row, 0.5f, 0.5f,
			                          1.0f, 0.6f);
	step_n(world, 180);
	int points = 0;
	for (int k = 0; k < count; ++k) {
		sinew_contact_data data[8];
		int n = sinew_body_get_contact_data(boxes[k], data, 8);
		for (int c = 0; c < n; ++c) {
			sinew_geometry ga = sinew_shape_get_geometry(data[c].shape_a), gb = sinew_shape_get_geometry(data[c].shape_b);
			sinew_transform xa = sinew_body_get_transform(sinew_shape_get_body(data[c].shape_a));
			sinew_transform xb = sinew_body_get_transform(sinew_shape_get_body(data[c].shape_b));
			sinew_manifold fresh = sinew_collide(&ga, xa, &gb, xb, 0.1f);
			const sinew_manifold *kept = &data[c].manifold;
			assert_true(sinew_dot(fresh.normal, kept->normal) > 0.99999f);
			for (int i = 0; i < kept->point_count; ++i) {
				const sinew_manifold_point *p = &kept->points[i];
				int j = 0;
				while (j < fresh.point_count && fresh.points[j].id != p->id) ++j;
				assert_true(j < fresh.point_count);
				assert_float_near(p->separation, fresh.points[j].separation, 1e-5);
				assert_true(sinew_distance(p->point, fresh.points[j].point) <= 5e-4f);
				points += 1;
			}
		}
	}
	assert_true(points >= 2 * count); /* every box rests on two points or more */
	sinew_destroy_world(world);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(free_fall),
		cmocka_unit_test(bounce_height),
		cmocka_unit_test(incline_slides),
		cmocka_unit_test(incline_holds),
		cmocka_unit_test(pyramid20_stands),
		cmocka_unit_test(stack10_stands),
		cmocka_unit_test(mass_ratio_stack),
		cmocka_unit_test(sleep_and_wake),
		cmocka_unit_test(contact_events_and_normals),
		cmocka_unit_test(sensors_report_and_never_push),
		cmocka_unit_test(kinematic_paddle_pushes),
		cmocka_unit_test(kinematic_move_to_reaches_target),
		cmocka_unit_test(bounce_keeps_maximum_speed),
		cmocka_unit_test(disable_and_change_type),
		cmocka_unit_test(same_scene_same_hash),
		cmocka_unit_test(contacts_follow_reused_shapes),
		cmocka_unit_test(recycled_manifolds_match_narrowphase),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
