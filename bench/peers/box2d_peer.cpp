// box2d_peer: runs a sinew scene file (the subset of bench/peers/peer_scene.h) in Box2D 2.4
// (Debian's libbox2d-dev) with its usual settings: one b2World::Step of 1/hz per step with 8
// velocity and 3 position iterations. Prints one line of JSON (bench/peers/README.md).
//
//     box2d_peer SCENE.json [--steps N] [--repeat R]
//
// Box2D 2.4 has no capsule and no rounded box: a capsule is a box between two circles, a rounded
// box two crossing boxes and four corner circles. The body's mass, centre and inertia are then set
// to those of the true shapes (b2Body::SetMassData), so only the contact geometry differs. Box2D's
// filter is "both ways" on 16 bits where sinew's is "either way" on 32: the bench scenes only use
// mask 0 (never collide) and the default 1/1, which mean the same in both.
#include <box2d/box2d.h>

#include <cmath>
#include <string>
#include <vector>

#include "peer_scene.h"

static void add_fixture(b2Body *body, const b2Shape *shape, const peer_shape &s, bool sensorless_mass)
{
	b2FixtureDef fd;
	fd.shape = shape;
	fd.density = sensorless_mass ? (float)s.density : 0.0f;
	fd.friction = (float)s.friction;
	fd.restitution = (float)s.restitution;
	fd.filter.categoryBits = (uint16)(s.layer & 0xFFFFu);
	fd.filter.maskBits = (uint16)(s.mask & 0xFFFFu);
	body->CreateFixture(&fd);
}

static b2Vec2 local(const peer_shape &s, double x, double y)
{
	double c = std::cos(s.angle), sn = std::sin(s.angle);
	return b2Vec2((float)(s.center[0] + c * x - sn * y), (float)(s.center[1] + sn * x + c * y));
}

// Returns whether the body needed a stand-in shape.
static bool add_shape(b2Body *body, const peer_shape &s)
{
	if (s.type == PEER_CIRCLE) {
		b2CircleShape c;
		c.m_p.Set((float)s.center[0], (float)s.center[1]);
		c.m_radius = (float)s.radius;
		add_fixture(body, &c, s, true);
		return false;
	}
	if (s.type == PEER_CAPSULE) {
		for (int k = 0; k < 2; ++k) {
			b2CircleShape c;
			const double *p = k == 0 ? s.c1 : s.c2;
			c.m_p.Set((float)p[0], (float)p[1]);
			c.m_radius = (float)s.radius;
			add_fixture(body, &c, s, true);
		}
		double dx = s.c2[0] - s.c1[0], dy = s.c2[1] - s.c1[1];
		double length = std::sqrt(dx * dx + dy * dy);
		if (length > 0.0) {
			b2PolygonShape box;
			box.SetAsBox((float)(0.5 * length), (float)s.radius,
			             b2Vec2((float)(0.5 * (s.c1[0] + s.c2[0])), (float)(0.5 * (s.c1[1] + s.c2[1]))),
			             (float)std::atan2(dy, dx));
			add_fixture(body, &box, s, true);
		}
		return true;
	}
	double r = s.radius;
	if (r <= 0.0) {
		b2PolygonShape box;
		box.SetAsBox((float)s.half[0], (float)s.half[1], local(s, 0, 0), (float)s.angle);
		add_fixture(body, &box, s, true);
		return false;
	}
	double cx = s.half[0] - r, cy = s.half[1] - r;
	b2PolygonShape wide, tall;
	wide.SetAsBox((float)s.half[0], (float)cy, local(s, 0, 0), (float)s.angle);
	tall.SetAsBox((float)cx, (float)s.half[1], local(s, 0, 0), (float)s.angle);
	add_fixture(body, &wide, s, true);
	add_fixture(body, &tall, s, true);
	for (int k = 0; k < 4; ++k) {
		b2CircleShape c;
		c.m_p = local(s, k & 1 ? cx : -cx, k & 2 ? cy : -cy);
		c.m_radius = (float)r;
		add_fixture(body, &c, s, true);
	}
	return true;
}

struct run_result {
	double ms;
	double quality;
	int contacts;
	int taken; // steps taken (fewer than asked when --max-seconds stopped the run)
};

static double energy(const std::vector<b2Body *> &bodies, b2Vec2 g)
{
	double e = 0.0;
	for (b2Body *b : bodies) {
		if (b->GetType() != b2_dynamicBody) continue;
		double m = b->GetMass();
		b2Vec2 lc = b->GetLocalCenter();
		double inertia = b->GetInertia() - m * (lc.x * lc.x + lc.y * lc.y); // about the centre
		b2Vec2 v = b->GetLinearVelocity(), c = b->GetWorldCenter();
		double w = b->GetAngularVelocity();
		e += 0.5 * m * ((double)v.x * v.x + (double)v.y * v.y) + 0.5 * inertia * w * w;
		e -= m * b->GetGravityScale() * ((double)g.x * c.x + (double)g.y * c.y);
	}
	return e;
}

static run_result run_once(const peer_scene &s, int steps, bool *stand_ins)
{
	b2Vec2 gravity((float)s.gravity[0], (float)s.gravity[1]);
	b2World world(gravity);
	world.SetAllowSleeping(s.sleep != 0);
	std::vector<b2Body *> bodies((size_t)s.body_count);
	for (int i = 0; i < s.body_count; ++i) {
		const peer_body &pb = s.bodies[i];
		b2BodyDef bd;
		bd.type = pb.type == PEER_STATIC ? b2_staticBody : pb.type == PEER_KINEMATIC ? b2_kinematicBody : b2_dynamicBody;
		bd.position.Set((float)pb.position[0], (float)pb.position[1]);
		bd.angle = (float)pb.angle;
		bd.linearVelocity.Set((float)pb.velocity[0], (float)pb.velocity[1]);
		bd.angularVelocity = (float)pb.angular_velocity;
		bd.linearDamping = (float)pb.linear_damping;
		bd.angularDamping = (float)pb.angular_damping;
		bd.gravityScale = (float)pb.gravity_scale;
		bd.awake = pb.awake != 0;
		bd.allowSleep = pb.can_sleep != 0;
		b2Body *body = world.CreateBody(&bd);
		bool stand_in = false;
		for (int k = 0; k < pb.shape_count; ++k) stand_in = add_shape(body, pb.shapes[k]) || stand_in;
		if (stand_in && pb.type == PEER_DYNAMIC) {
			// The true shapes' mass: the stand-ins overlap, so their own sum would be too heavy.
			double mass = 0.0, cx = 0.0, cy = 0.0, inertia = 0.0;
			for (int k = 0; k < pb.shape_count; ++k) {
				double m, c[2], ic;
				peer_shape_mass(&pb.shapes[k], &m, c, &ic);
				mass += m;
				cx += m * c[0];
				cy += m * c[1];
				inertia += ic + m * (c[0] * c[0] + c[1] * c[1]);
			}
			b2MassData md;
			md.mass = (float)mass;
			md.center.Set((float)(cx / mass), (float)(cy / mass));
			md.I = (float)inertia; // about the body origin, as SetMassData expects
			body->SetMassData(&md);
		}
		*stand_ins = *stand_ins || stand_in;
		bodies[(size_t)i] = body;
	}
	b2Body *ground = nullptr;
	std::vector<b2RevoluteJoint *> joints((size_t)s.joint_count);
	for (int i = 0; i < s.joint_count; ++i) {
		const peer_joint &pj = s.joints[i];
		b2Body *a = pj.a >= 0 ? bodies[(size_t)pj.a] : nullptr;
		if (a == nullptr) {
			if (ground == nullptr) {
				b2BodyDef gd;
				ground = world.CreateBody(&gd);
			}
			a = ground;
		}
		b2RevoluteJointDef jd;
		jd.Initialize(a, bodies[(size_t)pj.b], b2Vec2((float)pj.anchor[0], (float)pj.anchor[1]));
		if (pj.has_reference) jd.referenceAngle = (float)pj.reference;
		jd.enableLimit = pj.has_limit != 0;
		jd.lowerAngle = (float)pj.lower;
		jd.upperAngle = (float)pj.upper;
		jd.enableMotor = pj.has_motor != 0;
		jd.motorSpeed = (float)pj.speed;
		jd.maxMotorTorque = (float)std::fmin(pj.max_torque, 1e30);
		joints[(size_t)i] = (b2RevoluteJoint *)world.CreateJoint(&jd);
	}

	int kind = peer_quality_kind(&s);
	std::vector<b2Vec2> start;
	double energy_start = 0.0, separation = 0.0;
	if (kind == 1) {
		for (b2Body *b : bodies) start.push_back(b->GetPosition());
	} else if (kind == 2) {
		energy_start = energy(bodies, gravity);
	}
	float dt = (float)(1.0 / s.hz);
	double timed = 0.0;
	int taken = 0;
	double began = peer_now();
	for (int i = 0; i < steps; ++i) {
		if (peer_max_seconds > 0.0 && i > 1 && peer_now() - began > peer_max_seconds) break;
		taken = i + 1;
		double t0 = peer_now();
		world.Step(dt, 8, 3);
		double t1 = peer_now();
		if (i > 0) timed += t1 - t0;
		if (kind == 0) {
			for (b2RevoluteJoint *j : joints) {
				b2Vec2 d = j->GetAnchorB() - j->GetAnchorA();
				double e = std::sqrt((double)d.x * d.x + (double)d.y * d.y);
				if (!(e <= separation)) separation = e;
			}
		}
	}
	run_result r;
	r.taken = taken;
	r.ms = 1000.0 * timed / (taken - 1);
	if (kind == 0) {
		r.quality = separation;
	} else if (kind == 1) {
		double drift = 0.0;
		for (size_t i = 0; i < bodies.size(); ++i) {
			if (bodies[i]->GetType() != b2_dynamicBody) continue;
			b2Vec2 d = bodies[i]->GetPosition() - start[i];
			double m = std::sqrt((double)d.x * d.x + (double)d.y * d.y);
			if (!(m <= drift)) drift = m;
		}
		r.quality = drift;
	} else {
		double e = energy(bodies, gravity);
		r.quality = std::fabs(energy_start) > 0.0 ? (e - energy_start) / std::fabs(energy_start) : e - energy_start;
	}
	r.contacts = 0;
	for (b2Contact *c = world.GetContactList(); c != nullptr; c = c->GetNext()) r.contacts += c->IsTouching() ? 1 : 0;
	return r;
}

int main(int argc, char **argv)
{
	const char *file;
	int steps, repeat;
	if (!peer_args(argc, argv, &file, &steps, &repeat)) return 2;
	peer_scene s;
	if (!peer_scene_load(file, &s)) return 2;
	if (steps < 0) steps = s.steps;
	std::vector<double> times((size_t)repeat);
	bool stand_ins = false;
	run_result r = {0, 0, 0, 0};
	int runs = 0;
	while (runs < repeat) {
		r = run_once(s, steps, &stand_ins);
		times[(size_t)runs++] = r.ms;
		if (r.taken < steps) break;
	}
	std::string notes = stand_ins ? "capsules/rounded boxes built from circles and boxes (contacts count each piece)" : "";
	if (r.taken < steps) {
		char stop[160];
		snprintf(stop, sizeof stop, "%sstopped after %d of %d steps (--max-seconds %g)", notes.empty() ? "" : "; ",
		         r.taken, steps, peer_max_seconds);
		notes += stop;
	}
	peer_print_result("box2d", &s, s.body_count, s.joint_count, r.contacts, r.taken, runs, times.data(), r.quality,
	                  notes.c_str());
	return 0;
}
