/* Contact-free joint systems with no motors, springs or damping must never gain energy: the kinetic
 * (linear and angular) plus potential energy of the dynamic bodies, measured after every step, may
 * only fall. A heavy whipping chain, a chaotic double pendulum and a tumbling free ragdoll in zero
 * gravity (whose angular momentum must stay put too). Each prints its figures. */
#include "human.h"
#include "support.h"

#include <math.h>
#include <stdio.h>

typedef struct figure {
	sinew_body_id bodies[64];
	sinew_joint_id joints[64];
	int body_count, joint_count;
} figure;

static double energy(const figure *f, sinew_vec2 g, float floor)
{
	return bodies_energy(f->bodies, f->body_count, g, floor);
}

static double worst_separation(const figure *f)
{
	double worst = 0.0;
	for (int k = 0; k < f->joint_count; ++k) worst = fmax(worst, sinew_joint_get_linear_error(f->joints[k]));
	return worst;
}

static sinew_world_id contact_free_world(float gy)
{
	sinew_world_def wd = sinew_default_world_def();
	wd.gravity = sinew_v2(0.0f, gy);
	wd.enable_sleep = false;
	return sinew_create_world(&wd);
}

static sinew_body_id dynamic_at(sinew_world_id w, sinew_vec2 p)
{
	sinew_body_def bd = sinew_default_body_def();
	bd.type = SINEW_DYNAMIC_BODY;
	bd.position = p;
	return sinew_create_body(w, &bd);
}

static void pin(figure *f, sinew_world_id w, sinew_body_id a, sinew_body_id b, sinew_vec2 anchor)
{
	f->joints[f->joint_count++] = pin_bodies(w, a, b, anchor);
}

/* Steps the figure, tracking its worst joint separation and its worst energy rise over the start. */
typedef struct run {
	double e0, worst_rise, worst_separation, end_energy;
} run;

static run run_figure(sinew_world_id w, const figure *f, sinew_vec2 g, float floor, int steps)
{
	run r = {energy(f, g, floor), 0.0, 0.0, 0.0};
	for (int s = 0; s < steps; ++s) {
		sinew_world_step(w, 1.0f / 60.0f, 4);
		double e = energy(f, g, floor);
		r.worst_rise = fmax(r.worst_rise, e - r.e0);
		r.worst_separation = fmax(r.worst_separation, worst_separation(f));
		r.end_energy = e;
	}
	return r;
}

/* A horizontal chain of capsule links (0.5 m, radius 0.06, density 20, never touching each other)
 * from `anchor_body` at the origin, with a ball of `ball_links` links' mass and radius `radius` at
 * its far end. */
static void capsule_chain(sinew_world_id w, figure *f, sinew_body_id anchor_body, int links, float ball_links, float radius)
{
	const float L = 0.5f, r = 0.06f;
	sinew_shape_def sd = sinew_default_shape_def();
	sd.density = 20.0f;
	sd.group = 1; /* no contacts: the links never touch each other */
	sinew_body_id prev = anchor_body;
	for (int i = 0; i < links; ++i) {
		sinew_body_id b = dynamic_at(w, sinew_v2(L * (float)i + 0.5f * L, 0.0f));
		sinew_capsule c = {{-0.5f * L + r, 0.0f}, {0.5f * L - r, 0.0f}, r};
		sinew_create_capsule_shape(b, &sd, &c);
		pin(f, w, prev, b, sinew_v2(L * (float)i, 0.0f));
		f->bodies[f->body_count++] = prev = b;
	}
	sinew_body_id ball = dynamic_at(w, sinew_v2(L * (float)links, 0.0f));
	sd.density = ball_links * sinew_body_get_mass(f->bodies[0]) / (SINEW_PI * radius * radius);
	sinew_circle c = {{0.0f, 0.0f}, radius};
	sinew_create_circle_shape(ball, &sd, &c);
	pin(f, w, prev, ball, sinew_v2(L * (float)links, 0.0f));
	f->bodies[f->body_count++] = ball;
}

/* The whip: 60 capsule links (0.5 m, radius 0.06, density 20) pinned to the world at one end,
 * a ball 100x a link's mass on the other, released horizontal. It used to tear apart after 8 s. */
static void heavy_chain_whips_without_gain(void **state)
{
	(void)state;
	sinew_world_id w = contact_free_world(-10.0f);
	figure f = {0};
	const float L = 0.5f;
	const int links = 60;
	capsule_chain(w, &f, sinew_null_body_id, links, 100.0f, 0.25f);
	sinew_vec2 g = {0.0f, -10.0f};
	run res = run_figure(w, &f, g, -L * (float)links, 20 * 60);
	printf("heavy chain 20 s: worst separation %.5f m, worst energy rise %.4f %% of E0 = %.0f J, end %.2f %% of E0\n",
	       res.worst_separation, 100.0 * res.worst_rise / res.e0, res.e0, 100.0 * res.end_energy / res.e0);
	assert_true(res.worst_separation < 0.01);
	assert_true(res.worst_rise <= 0.001 * fabs(res.e0));
	/* and little loss: the projection's energy ceiling remembered from step to step (it was the
	 * substep's start energy, a ratchet that kept 81.8 %) */
	assert_true(res.end_energy >= 0.84 * res.e0);
	sinew_destroy_world(w);
}

/* Two 1 m rods, the first pinned to the world at its end, released horizontal (90 degrees): chaotic. */
static void double_pendulum_never_gains(void **state)
{
	(void)state;
	sinew_world_id w = contact_free_world(-10.0f);
	figure f = {0};
	sinew_shape_def sd = sinew_default_shape_def();
	sd.group = 1;
	sinew_body_id prev = sinew_null_body_id;
	for (int i = 0; i < 2; ++i) {
		sinew_body_id b = dynamic_at(w, sinew_v2((float)i + 0.5f, 0.0f));
		sinew_polygon p = sinew_make_box(0.5f, 0.02f);
		sinew_create_polygon_shape(b, &sd, &p);
		pin(&f, w, prev, b, sinew_v2((float)i, 0.0f));
		f.bodies[f.body_count++] = prev = b;
	}
	sinew_vec2 g = {0.0f, -10.0f};
	run res = run_figure(w, &f, g, -2.0f, 60 * 60);
	printf("double pendulum 60 s: worst separation %.6f m, worst energy rise %.4f %% of E0 = %.1f J, end %.2f %% of E0\n",
	       res.worst_separation, 100.0 * res.worst_rise / res.e0, res.e0, 100.0 * res.end_energy / res.e0);
	assert_true(res.worst_separation < 0.0001);
	assert_true(res.worst_rise <= 0.001 * fabs(res.e0));
	assert_true(res.end_energy >= 0.88 * res.e0); /* the ratchet of the substep's start energy kept 71.8 % */
	sinew_destroy_world(w);
}

/* A chain whipped by a kinematic handle: 30 capsule links (0.5 m, radius 0.06, density 20) and a ball
 * of ten links' mass hang from a kinematic body that shakes up and down (0.5 m, 1.5 Hz) for three
 * periods and then stops where it started. While it shakes it does work on the chain; once it stands
 * still the chain is a contact-free system again and its energy may only fall. */
static void kinematic_whip_never_gains_after_the_drive(void **state)
{
	(void)state;
	sinew_world_id w = contact_free_world(-10.0f);
	sinew_body_def hd = sinew_default_body_def();
	hd.type = SINEW_KINEMATIC_BODY;
	sinew_body_id handle = sinew_create_body(w, &hd);
	figure f = {0};
	const float L = 0.5f;
	const int links = 30;
	capsule_chain(w, &f, handle, links, 10.0f, 0.2f);
	const float dt = 1.0f / 60.0f, amplitude = 0.5f, omega = 2.0f * SINEW_PI * 1.5f;
	const int drive_steps = 2 * 60; /* three periods: the handle ends where it started */
	sinew_vec2 g = {0.0f, -10.0f};
	const float floor = -L * (float)links - 1.0f;
	double worst_sep_drive = 0.0, fastest = 0.0;
	for (int s = 0; s < drive_steps; ++s) {
		/* the speed that takes the handle along amplitude * sin(omega t) over this step */
		float t0 = dt * (float)s, t1 = dt * (float)(s + 1);
		float vy = amplitude * (sinf(omega * t1) - sinf(omega * t0)) / dt;
		sinew_body_set_linear_velocity(handle, sinew_v2(0.0f, vy));
		sinew_world_step(w, dt, 4);
		worst_sep_drive = fmax(worst_sep_drive, worst_separation(&f));
		for (int i = 0; i < f.body_count; ++i) fastest = fmax(fastest, sinew_length(sinew_body_get_linear_velocity(f.bodies[i])));
	}
	sinew_body_set_linear_velocity(handle, sinew_v2(0.0f, 0.0f));
	double e_stop = energy(&f, g, floor);
	run res = run_figure(w, &f, g, floor, 10 * 60);
	printf("kinematic whip: drive 2 s worst separation %.5f m, fastest body %.2f m/s; then 10 s free: worst separation %.5f m, "
	       "worst energy rise %.4f %% of %.0f J, end %.2f %%; handle at y %.4f m\n",
	       worst_sep_drive, fastest, res.worst_separation, 100.0 * res.worst_rise / e_stop, e_stop, 100.0 * res.end_energy / e_stop,
	       sinew_body_get_position(handle).y);
	assert_true(fabsf(sinew_body_get_position(handle).y) < 1e-3f); /* the drive ended where it started */
	assert_true(worst_sep_drive < 0.01);
	assert_true(res.worst_separation < 0.01);
	assert_true(res.worst_rise <= 0.001 * e_stop);
	sinew_destroy_world(w);
}

/* Angular momentum of the figure about its centre of mass. */
static double angular_momentum(const figure *f)
{
	double mass = 0.0, cx = 0.0, cy = 0.0, vx = 0.0, vy = 0.0;
	for (int i = 0; i < f->body_count; ++i) {
		double m = sinew_body_get_mass(f->bodies[i]);
		sinew_vec2 c = sinew_body_get_world_center(f->bodies[i]), v = sinew_body_get_linear_velocity(f->bodies[i]);
		mass += m, cx += m * c.x, cy += m * c.y, vx += m * v.x, vy += m * v.y;
	}
	cx /= mass, cy /= mass, vx /= mass, vy /= mass;
	double l = 0.0;
	for (int i = 0; i < f->body_count; ++i) {
		sinew_body_id b = f->bodies[i];
		double m = sinew_body_get_mass(b);
		sinew_vec2 c = sinew_body_get_world_center(b), v = sinew_body_get_linear_velocity(b);
		l += m * ((c.x - cx) * (v.y - vy) - (c.y - cy) * (v.x - vx));
		l += sinew_body_get_rotational_inertia(b) * sinew_body_get_angular_velocity(b);
	}
	return l;
}

/* The benchmark human with its joint friction, spring and damping taken off, thrown tumbling in zero
 * gravity with every part moving its own way: limits catch the parts (which may only lose energy). */
static void free_ragdoll_keeps_momentum(void **state)
{
	(void)state;
	sinew_world_id w = contact_free_world(0.0f);
	human h;
	human_create(&h, w, sinew_v2(0.0f, 0.0f), 0.3f, 2);
	figure f = {0};
	const float spin = 4.0f; /* the whole figure turns at 4 rad/s about its hip, and each part its own way */
	sinew_vec2 hip = sinew_body_get_world_center(h.bodies[0]);
	for (int i = 0; i < HUMAN_BODIES; ++i) {
		sinew_body_id b = f.bodies[f.body_count++] = h.bodies[i];
		sinew_body_set_linear_damping(b, 0.0f);
		sinew_body_set_angular_damping(b, 0.0f);
		sinew_vec2 d = sinew_sub(sinew_body_get_world_center(b), hip);
		sinew_vec2 v = sinew_v2(-spin * d.y + 0.7f * sinf(1.3f * (float)i), spin * d.x + 0.9f * cosf(2.1f * (float)i));
		sinew_body_set_linear_velocity(b, v);
		sinew_body_set_angular_velocity(b, spin + 3.0f * sinf((float)i));
	}
	sinew_joint_motor off = {false, 0.0f, 0.0f};
	sinew_joint_spring none = {false, 1.0f, 0.0f, 0.0f};
	for (int k = 0; k < HUMAN_JOINTS; ++k) {
		f.joints[f.joint_count++] = h.joints[k];
		sinew_joint_set_motor(h.joints[k], off);
		sinew_joint_set_spring(h.joints[k], none);
	}
	sinew_world_step(w, 1.0f / 60.0f, 4); /* the first step resolves the thrown velocities into the joints */
	double l0 = angular_momentum(&f), worst_l = 0.0;
	sinew_vec2 g = {0.0f, 0.0f};
	double e0 = energy(&f, g, 0.0f), worst_rise = 0.0, worst_sep = 0.0;
	for (int s = 0; s < 10 * 60; ++s) {
		sinew_world_step(w, 1.0f / 60.0f, 4);
		worst_l = fmax(worst_l, fabs(angular_momentum(&f) - l0));
		worst_rise = fmax(worst_rise, energy(&f, g, 0.0f) - e0);
		worst_sep = fmax(worst_sep, worst_separation(&f));
	}
	printf("free ragdoll 10 s in zero g: angular momentum %.4f kg m^2/s, worst change %.4f %%; worst energy rise %.5f %% of "
	       "%.2f J, end %.1f %%; worst separation %.6f m\n",
	       l0, 100.0 * worst_l / fabs(l0), 100.0 * worst_rise / e0, e0, 100.0 * energy(&f, g, 0.0f) / e0, worst_sep);
	assert_true(worst_l <= 0.005 * fabs(l0));
	assert_true(worst_rise <= 1e-4 * e0);
	sinew_destroy_world(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(heavy_chain_whips_without_gain),
		cmocka_unit_test(double_pendulum_never_gains),
		cmocka_unit_test(kinematic_whip_never_gains_after_the_drive),
		cmocka_unit_test(free_ragdoll_keeps_momentum),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
