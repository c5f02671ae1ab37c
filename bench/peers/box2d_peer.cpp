// box2d_peer: runs a sinew scene file (the subset of bench/peers/peer_scene.h) in Box2D 2.4
// (Debian's libbox2d-dev) with its usual settings: one b2World::Step of 1/hz per step with 8
// velocity and 3 position iterations. Prints one line of JSON (bench/peers/README.md).
//
//     box2d_peer SCENE.json [--steps N] [--repeat R]
//
// A scene in pixels (length_units_per_meter) arrives in metres (peer_scene.h converts it): Box2D
// 2.4's tolerances are metres compiled into the library. Box2D 2.4 has no capsule and no rounded
// box: a capsule is a box between two circles, a rounded box two crossing boxes and four corner
// circles. The body's mass, centre and inertia are then set to those of the true shapes
// (b2Body::SetMassData), so only the contact geometry differs; a file's mass / inertia override
// goes through SetMassData too (the centre kept, a mass alone scaling the inertia). Filters:
// each distinct (layer, mask) pair of the scene is a category bit of its own, with the mask
// peer_scene.h works out, which gives sinew's "either way" test exactly (up to 16 pairs); each
// distinct sinew collision group is a negative groupIndex of its own (never collide within it).
// Box2D 2.4's revolute joint has no spring: a joint spring is a torque on the two bodies before
// each step, from the joint angle and speed (inside the timed region, as a joint's spring is part
// of sinew's step). Per-body sleep thresholds are ignored: Box2D 2.4 has one compiled-in
// b2_linearSleepTolerance (0.01 m/s). Script ops (spawn, destroy_group) run before their step,
// outside the timed region (peer_world.h).
#include <box2d/box2d.h>

#include <cmath>
#include <string>
#include <unordered_map>
#include <vector>

#include "peer_world.h"

static void add_fixture(b2Body *body, const b2Shape *shape, const peer_shape &s, const b2Filter &filter)
{
	b2FixtureDef fd;
	fd.shape = shape;
	fd.density = (float)s.density;
	fd.friction = (float)s.friction;
	fd.restitution = (float)s.restitution;
	fd.filter = filter;
	body->CreateFixture(&fd);
}

static b2Vec2 local(const peer_shape &s, double x, double y)
{
	double c = std::cos(s.angle), sn = std::sin(s.angle);
	return b2Vec2((float)(s.center[0] + c * x - sn * y), (float)(s.center[1] + sn * x + c * y));
}

// Returns whether the body needed a stand-in shape.
static bool add_shape(b2Body *body, const peer_shape &s, const b2Filter &filter)
{
	if (s.type == PEER_CIRCLE) {
		b2CircleShape c;
		c.m_p.Set((float)s.center[0], (float)s.center[1]);
		c.m_radius = (float)s.radius;
		add_fixture(body, &c, s, filter);
		return false;
	}
	if (s.type == PEER_POLYGON) {
		b2Vec2 v[PEER_MAX_POLYGON_VERTICES];
		for (int k = 0; k < s.vertex_count; ++k) v[k].Set((float)s.vertices[k][0], (float)s.vertices[k][1]);
		b2PolygonShape polygon;
		polygon.Set(v, s.vertex_count);
		add_fixture(body, &polygon, s, filter);
		return false;
	}
	if (s.type == PEER_CAPSULE) {
		for (int k = 0; k < 2; ++k) {
			b2CircleShape c;
			const double *p = k == 0 ? s.c1 : s.c2;
			c.m_p.Set((float)p[0], (float)p[1]);
			c.m_radius = (float)s.radius;
			add_fixture(body, &c, s, filter);
		}
		double dx = s.c2[0] - s.c1[0], dy = s.c2[1] - s.c1[1];
		double length = std::sqrt(dx * dx + dy * dy);
		if (length > 0.0) {
			b2PolygonShape box;
			box.SetAsBox((float)(0.5 * length), (float)s.radius,
			             b2Vec2((float)(0.5 * (s.c1[0] + s.c2[0])), (float)(0.5 * (s.c1[1] + s.c2[1]))),
			             (float)std::atan2(dy, dx));
			add_fixture(body, &box, s, filter);
		}
		return true;
	}
	double r = s.radius;
	if (r <= 0.0) {
		b2PolygonShape box;
		box.SetAsBox((float)s.half[0], (float)s.half[1], local(s, 0, 0), (float)s.angle);
		add_fixture(body, &box, s, filter);
		return false;
	}
	double cx = s.half[0] - r, cy = s.half[1] - r;
	b2PolygonShape wide, tall;
	wide.SetAsBox((float)s.half[0], (float)cy, local(s, 0, 0), (float)s.angle);
	tall.SetAsBox((float)cx, (float)s.half[1], local(s, 0, 0), (float)s.angle);
	add_fixture(body, &wide, s, filter);
	add_fixture(body, &tall, s, filter);
	for (int k = 0; k < 4; ++k) {
		b2CircleShape c;
		c.m_p = local(s, k & 1 ? cx : -cx, k & 2 ? cy : -cy);
		c.m_radius = (float)r;
		add_fixture(body, &c, s, filter);
	}
	return true;
}

struct run_result {
	double ms;
	double cpu_ms; // the same steps in CPU time
	double script_ms; // the script ops' time per step, not in ms
	double quality;
	double limit; // worst limit overshoot, radians (scenes with joints)
	int contacts;
	int taken; // steps taken (fewer than asked when --max-seconds stopped the run)
	int bodies, joints;
};

// What the peer_engine callbacks need.
struct box2d_world {
	const peer_scene *scene;
	b2World *world;
	b2Body *ground; // made for the first joint to the world
	std::unordered_map<unsigned long, int16> groups; // sinew group -> its own negative groupIndex
	bool stand_ins;
};

static b2Filter filter_of(box2d_world &w, const peer_shape &s, unsigned long instance_group)
{
	b2Filter f;
	f.categoryBits = (uint16)(1u << s.filter_class);
	f.maskBits = (uint16)w.scene->class_collides[s.filter_class];
	unsigned long group = instance_group != 0 ? instance_group : s.group;
	if (group != 0) {
		auto hit = w.groups.find(group);
		if (hit == w.groups.end()) hit = w.groups.emplace(group, (int16)(-1 - (int)w.groups.size())).first;
		f.groupIndex = hit->second;
	}
	return f;
}

// The body's mass as sinew makes it: the true shapes' (the stand-ins overlap, so Box2D's own sum
// would be too heavy), then the file's overrides (scene/scene.c override_mass): a mass alone
// scales the inertia about the centre with it; the centre stays.
static void set_mass(b2Body *body, const peer_body &pb)
{
	double mass, center[2], inertia; // inertia about the centre
	peer_body_mass(&pb, &mass, center, &inertia);
	if (pb.has_mass) {
		if (!pb.has_inertia && mass > 0.0) inertia *= pb.mass / mass;
		mass = pb.mass;
	}
	if (pb.has_inertia) inertia = pb.inertia;
	b2MassData md;
	md.mass = (float)mass;
	md.center.Set((float)center[0], (float)center[1]);
	// SetMassData takes the inertia about the body origin
	md.I = (float)(inertia + mass * (center[0] * center[0] + center[1] * center[1]));
	body->SetMassData(&md);
}

static void *make_body(void *ctx, const peer_body *desc, const double offset[2], unsigned long group)
{
	box2d_world &w = *(box2d_world *)ctx;
	const peer_body &pb = *desc;
	b2BodyDef bd;
	bd.type = pb.type == PEER_STATIC ? b2_staticBody : pb.type == PEER_KINEMATIC ? b2_kinematicBody : b2_dynamicBody;
	bd.position.Set((float)(pb.position[0] + offset[0]), (float)(pb.position[1] + offset[1]));
	bd.angle = (float)pb.angle;
	bd.linearVelocity.Set((float)pb.velocity[0], (float)pb.velocity[1]);
	bd.angularVelocity = (float)pb.angular_velocity;
	bd.linearDamping = (float)pb.linear_damping;
	bd.angularDamping = (float)pb.angular_damping;
	bd.gravityScale = (float)pb.gravity_scale;
	bd.awake = pb.awake != 0;
	bd.allowSleep = pb.can_sleep != 0;
	b2Body *body = w.world->CreateBody(&bd);
	bool stand_in = false;
	for (int k = 0; k < pb.shape_count; ++k) {
		stand_in = add_shape(body, pb.shapes[k], filter_of(w, pb.shapes[k], group)) || stand_in;
	}
	if (pb.type == PEER_DYNAMIC && (stand_in || pb.has_mass || pb.has_inertia)) set_mass(body, pb);
	// Box2D moves the centre's velocity with the centre as fixtures and masses come; the file's
	// velocity is the centre's (as sinew's restore_velocity keeps it). Not for a body that starts
	// asleep: setting a velocity would wake it.
	if (pb.type != PEER_STATIC && body->IsAwake() && !(body->GetLinearVelocity() == bd.linearVelocity)) {
		body->SetLinearVelocity(bd.linearVelocity);
	}
	w.stand_ins = w.stand_ins || stand_in;
	return body;
}

static void *make_joint(void *ctx, const peer_joint *desc, void *body_a, void *body_b, const double offset[2])
{
	box2d_world &w = *(box2d_world *)ctx;
	const peer_joint &pj = *desc;
	b2Body *a = (b2Body *)body_a;
	if (a == nullptr) {
		if (w.ground == nullptr) {
			b2BodyDef gd;
			w.ground = w.world->CreateBody(&gd);
		}
		a = w.ground;
	}
	b2RevoluteJointDef jd;
	jd.Initialize(a, (b2Body *)body_b, b2Vec2((float)(pj.anchor[0] + offset[0]), (float)(pj.anchor[1] + offset[1])));
	if (pj.has_reference) jd.referenceAngle = (float)pj.reference;
	jd.enableLimit = pj.has_limit != 0;
	jd.lowerAngle = (float)pj.lower;
	jd.upperAngle = (float)pj.upper;
	jd.enableMotor = pj.has_motor != 0;
	jd.motorSpeed = (float)pj.speed;
	jd.maxMotorTorque = (float)std::fmin(pj.max_torque, 1e30);
	return w.world->CreateJoint(&jd);
}

static void destroy_body(void *ctx, void *body)
{
	((box2d_world *)ctx)->world->DestroyBody((b2Body *)body); // with its fixtures and joints
}

static double inverse_inertia(const b2Body *b)
{
	b2Vec2 lc = b->GetLocalCenter();
	double inertia = b->GetInertia() - b->GetMass() * ((double)lc.x * lc.x + (double)lc.y * lc.y); // about the centre
	return b->GetType() == b2_dynamicBody && inertia > 0.0 ? 1.0 / inertia : 0.0;
}

// The joint springs Box2D 2.4 lacks, as torques for the coming step (a sleeping body takes none
// and is not woken, as sinew's spring does not wake it either).
static void apply_springs(const peer_world &pw)
{
	for (int i = 0; i < pw.joint_count; ++i) {
		const peer_joint &pj = *pw.joints[i].desc;
		if (!pj.has_spring) continue;
		b2RevoluteJoint *j = (b2RevoluteJoint *)pw.joints[i].handle;
		b2Body *a = j->GetBodyA(), *b = j->GetBodyB();
		double k, c;
		peer_spring_coefficients(&pj, inverse_inertia(a), inverse_inertia(b), &k, &c);
		float torque = (float)(-k * (j->GetJointAngle() - pj.target) - c * j->GetJointSpeed());
		a->ApplyTorque(-torque, false);
		b->ApplyTorque(torque, false);
	}
}

static double energy(b2World &world, b2Vec2 g)
{
	double e = 0.0;
	for (b2Body *b = world.GetBodyList(); b != nullptr; b = b->GetNext()) {
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

// The largest joint separation (m) and limit overshoot (radians) now, kept if larger (NaN wins).
static void joint_errors(const peer_world &pw, double *separation, double *limit)
{
	for (int i = 0; i < pw.joint_count; ++i) {
		b2RevoluteJoint *j = (b2RevoluteJoint *)pw.joints[i].handle;
		b2Vec2 d = j->GetAnchorB() - j->GetAnchorA();
		double e = std::sqrt((double)d.x * d.x + (double)d.y * d.y);
		double l = peer_limit_overshoot(pw.joints[i].desc, j->GetJointAngle());
		if (!(e <= *separation)) *separation = e;
		if (!(l <= *limit)) *limit = l;
	}
}

static void write_positions(const peer_scene &s, const peer_world &pw)
{
	FILE *f = fopen(peer_positions_file, "w");
	if (f == nullptr) {
		perror(peer_positions_file);
		return;
	}
	for (int i = 0; i < pw.body_count; ++i) {
		b2Body *b = (b2Body *)pw.bodies[i];
		if (b == nullptr || b->GetType() != b2_dynamicBody) continue;
		peer_write_position(f, &s, i, b->GetPosition().x, b->GetPosition().y, b->GetAngle());
	}
	fclose(f);
}

static double largest_drift(const peer_world &pw, const std::vector<b2Vec2> &start)
{
	double drift = 0.0;
	for (size_t i = 0; i < start.size(); ++i) {
		b2Body *b = (b2Body *)pw.bodies[i];
		if (b == nullptr || b->GetType() != b2_dynamicBody) continue;
		b2Vec2 d = b->GetPosition() - start[i];
		double m = std::sqrt((double)d.x * d.x + (double)d.y * d.y);
		if (!(m <= drift)) drift = m;
	}
	return drift;
}

static run_result run_once(const peer_scene &s, int steps, bool *stand_ins)
{
	b2Vec2 gravity((float)s.gravity[0], (float)s.gravity[1]);
	b2World world(gravity);
	world.SetAllowSleeping(s.sleep != 0);
	box2d_world w;
	w.scene = &s;
	w.world = &world;
	w.ground = nullptr;
	w.stand_ins = false;
	peer_engine engine = {&w, make_body, make_joint, nullptr, destroy_body};
	peer_world pw;
	peer_world_init(&pw, &s, engine);

	int kind = peer_quality_kind(&s);
	std::vector<b2Vec2> start;
	double energy_start = 0.0, separation = 0.0, limit = 0.0;
	if (kind == 1) {
		for (int i = 0; i < s.body_count; ++i) start.push_back(((b2Body *)pw.bodies[i])->GetPosition());
	} else if (kind == 2) {
		energy_start = energy(world, gravity);
	}
	float dt = (float)(1.0 / s.hz);
	double timed = 0.0, script = 0.0, cpu = 0.0;
	int taken = 0;
	double began = peer_now();
	for (int i = 0; i < steps; ++i) {
		if (peer_max_seconds > 0.0 && i > 1 && peer_now() - began > peer_max_seconds) break;
		taken = i + 1;
		double t0 = peer_now();
		peer_world_apply_ops(&pw, i); // script work: not timed, as sinew times only the world step
		double t1 = peer_now(), c1 = peer_cpu_now();
		if (s.has_springs) apply_springs(pw);
		world.Step(dt, 8, 3);
		double t2 = peer_now(), c2 = peer_cpu_now();
		if (i > 0) {
			script += t1 - t0;
			timed += t2 - t1;
			cpu += c2 - c1;
		}
		if (kind == 0) joint_errors(pw, &separation, &limit);
	}
	run_result r;
	r.taken = taken;
	r.limit = limit;
	r.ms = 1000.0 * timed / (taken - 1);
	r.cpu_ms = 1000.0 * cpu / (taken - 1);
	r.script_ms = 1000.0 * script / (taken - 1);
	if (kind == 0) {
		r.quality = separation;
	} else if (kind == 1) {
		r.quality = largest_drift(pw, start);
	} else {
		double e = energy(world, gravity);
		r.quality = std::fabs(energy_start) > 0.0 ? (e - energy_start) / std::fabs(energy_start) : e - energy_start;
	}
	r.contacts = 0;
	for (b2Contact *c = world.GetContactList(); c != nullptr; c = c->GetNext()) r.contacts += c->IsTouching() ? 1 : 0;
	r.bodies = pw.live_bodies;
	r.joints = pw.joint_count;
	if (peer_positions_file != nullptr) write_positions(s, pw); // each run: the last one stays
	*stand_ins = *stand_ins || w.stand_ins;
	peer_world_free(&pw);
	return r;
}

int main(int argc, char **argv)
{
	const char *file;
	int steps, repeat;
	if (!peer_args(argc, argv, &file, &steps, &repeat)) return 2;
	peer_scene s;
	if (!peer_scene_load(file, &s)) return 2;
	if (s.filter_class_count > 16) {
		fprintf(stderr, "%s: %d distinct (layer, mask) pairs; Box2D's 16 category bits hold 16\n", file,
		        s.filter_class_count);
		return 2;
	}
	if (s.group_bound > 32767) {
		fprintf(stderr, "%s: up to %d collision groups; Box2D's groupIndex holds 32767\n", file, s.group_bound);
		return 2;
	}
	if (steps < 0) steps = s.steps;
	std::vector<double> times((size_t)repeat), cpu_times((size_t)repeat);
	bool stand_ins = false;
	run_result r = {0, 0, 0, 0, 0, 0, 0, 0, 0};
	int runs = 0;
	while (runs < repeat) {
		r = run_once(s, steps, &stand_ins);
		cpu_times[(size_t)runs] = r.cpu_ms;
		times[(size_t)runs++] = r.ms;
		if (r.taken < steps) break;
	}
	std::string notes = stand_ins ? "capsules/rounded boxes built from circles and boxes (contacts count each piece)" : "";
	if (s.length_units_per_meter != 1.0) {
		char units[120];
		snprintf(units, sizeof units, "%slengths converted to metres (length_units_per_meter %g)", notes.empty() ? "" : "; ",
		         s.length_units_per_meter);
		notes += units;
	}
	if (s.has_springs) {
		notes += notes.empty() ? "" : "; ";
		notes += "joint springs as torques before each step (Box2D 2.4 revolute joints have none)";
	}
	if (r.taken < steps) {
		char stop[160];
		snprintf(stop, sizeof stop, "%sstopped after %d of %d steps (--max-seconds %g)", notes.empty() ? "" : "; ",
		         r.taken, steps, peer_max_seconds);
		notes += stop;
	}
	peer_print_result("box2d", &s, r.bodies, r.joints, r.contacts, r.taken, runs, times.data(), cpu_times.data(), r.script_ms, r.quality,
	                  r.limit, notes.c_str());
	return 0;
}
