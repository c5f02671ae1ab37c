/* box2d_v3_peer: runs a sinew scene file (the subset of bench/peers/peer_scene.h) in Box2D v3,
 * built from a checkout the user names (`make bench-peers BOX2D_V3=DIR`; bench/peers/run.sh builds
 * the library in Release into BUILD/peers/box2d_v3 and this file against it). Prints one line of
 * JSON (bench/peers/README.md).
 *
 *     box2d_v3_peer SCENE.json [--steps N] [--repeat R] [--max-seconds S] [--positions FILE]
 *
 * Settings: one b2World_Step(1/hz, 4) per step (4 substeps, as sinew), one thread (the world's
 * default workerCount of 1 with no task system), continuous collision and every solver setting at
 * Box2D's defaults, sleep as the scene says with Box2D's own sleep thresholds. Box2D v3 has every
 * shape the bench scenes use: capsules and rounded boxes are true shapes here (no stand-ins), a
 * rounded box of outer half-extents h and radius r is b2MakeOffsetRoundedBox(h - r, r). Its
 * revolute joint has a spring, a limit and a motor: joint friction (a motor at speed 0) and springs
 * map one to one. The joint frame of body A carries the reference angle, so the joint angle is
 * (angle B - angle A) - reference, as in sinew. Filters as the Box2D 2.4 peer: one category bit per
 * distinct (layer, mask) pair of the scene, a negative groupIndex per sinew collision group. Masses
 * come from the shapes; a file's mass / inertia override goes through b2Body_SetMassData (a mass
 * alone scales the inertia with it, as scene/scene.c does). Script ops (spawn, destroy_group) run
 * before their step, outside the timed region (peer_world.h). */
/* the SIMD path the library was built with (bench/peers/run.sh passes it) */
#ifndef PEER_SIMD
#define PEER_SIMD "SSE2"
#endif
#include <box2d/box2d.h>

#include "peer_world.h"

typedef struct run_result {
	double ms, cpu_ms, script_ms, quality; /* cpu_ms: the same steps in CPU time */
	double limit;                          /* worst limit overshoot, radians (scenes with joints) */
	int contacts, taken;                   /* taken: steps taken (fewer when --max-seconds stopped the run) */
	int bodies, joints;
} run_result;

typedef struct v3_world {
	const peer_scene *scene;
	b2WorldId world;
	b2BodyId ground; /* made for the first joint to the world */
	bool has_ground;
	unsigned long *groups; /* sinew group of each groupIndex -1 - i */
	int group_count, group_capacity;
} v3_world;

/* peer_world.h keeps bodies and joints as pointers: a stored id is never 0 (index1 >= 1). */
static void *body_handle(b2BodyId id) { return (void *)(uintptr_t)b2StoreBodyId(id); }
static b2BodyId body_id(const void *h) { return b2LoadBodyId((uint64_t)(uintptr_t)h); }
static b2JointId joint_id(const void *h) { return b2LoadJointId((uint64_t)(uintptr_t)h); }

static int group_index(v3_world *w, unsigned long group)
{
	for (int i = 0; i < w->group_count; ++i) {
		if (w->groups[i] == group) return -1 - i;
	}
	peer_reserve((void **)&w->groups, &w->group_capacity, w->group_count + 1, sizeof *w->groups);
	w->groups[w->group_count++] = group;
	return -w->group_count;
}

static b2ShapeDef shape_def(v3_world *w, const peer_shape *s, unsigned long instance_group)
{
	b2ShapeDef sd = b2DefaultShapeDef();
	sd.density = (float)s->density;
	sd.material.friction = (float)s->friction;
	sd.material.restitution = (float)s->restitution;
	sd.filter.categoryBits = (uint64_t)1 << s->filter_class;
	sd.filter.maskBits = (uint64_t)w->scene->class_collides[s->filter_class];
	unsigned long group = instance_group != 0 ? instance_group : s->group;
	if (group != 0) sd.filter.groupIndex = group_index(w, group);
	/* the body's mass is set once from all its shapes */
	sd.updateBodyMass = false;
	return sd;
}

static void add_shape(v3_world *w, b2BodyId body, const peer_shape *s, unsigned long group)
{
	b2ShapeDef sd = shape_def(w, s, group);
	b2Vec2 center = {(float)s->center[0], (float)s->center[1]};
	if (s->type == PEER_CIRCLE) {
		b2Circle c = {center, (float)s->radius};
		b2CreateCircleShape(body, &sd, &c);
	} else if (s->type == PEER_CAPSULE) {
		b2Capsule c = {{(float)s->c1[0], (float)s->c1[1]}, {(float)s->c2[0], (float)s->c2[1]}, (float)s->radius};
		b2CreateCapsuleShape(body, &sd, &c);
	} else if (s->type == PEER_POLYGON) {
		b2Vec2 v[PEER_MAX_POLYGON_VERTICES];
		for (int k = 0; k < s->vertex_count; ++k) v[k] = (b2Vec2){(float)s->vertices[k][0], (float)s->vertices[k][1]};
		b2Hull hull = b2ComputeHull(v, s->vertex_count);
		b2Polygon p = b2MakePolygon(&hull, 0.0f);
		b2CreatePolygonShape(body, &sd, &p);
	} else {
		float r = (float)s->radius;
		b2Polygon p = b2MakeOffsetRoundedBox((float)s->half[0] - r, (float)s->half[1] - r, center,
		                                     b2MakeRot((float)s->angle), r);
		b2CreatePolygonShape(body, &sd, &p);
	}
}

static void *make_body(void *ctx, const peer_body *pb, const double offset[2], unsigned long group)
{
	v3_world *w = ctx;
	b2BodyDef bd = b2DefaultBodyDef();
	bd.type = pb->type == PEER_STATIC ? b2_staticBody : pb->type == PEER_KINEMATIC ? b2_kinematicBody : b2_dynamicBody;
	bd.position = (b2Pos){(float)(pb->position[0] + offset[0]), (float)(pb->position[1] + offset[1])};
	bd.rotation = b2MakeRot((float)pb->angle);
	bd.linearVelocity = (b2Vec2){(float)pb->velocity[0], (float)pb->velocity[1]};
	bd.angularVelocity = (float)pb->angular_velocity;
	bd.linearDamping = (float)pb->linear_damping;
	bd.angularDamping = (float)pb->angular_damping;
	bd.gravityScale = (float)pb->gravity_scale;
	bd.isAwake = pb->awake != 0;
	bd.enableSleep = pb->can_sleep != 0;
	b2BodyId body = b2CreateBody(w->world, &bd);
	for (int k = 0; k < pb->shape_count; ++k) add_shape(w, body, &pb->shapes[k], group);
	b2Body_ApplyMassFromShapes(body);
	if (pb->type == PEER_DYNAMIC && (pb->has_mass || pb->has_inertia)) {
		b2MassData md = b2Body_GetMassData(body);
		if (pb->has_mass) {
			if (!pb->has_inertia && md.mass > 0.0f) md.rotationalInertia *= (float)(pb->mass / md.mass);
			md.mass = (float)pb->mass;
		}
		if (pb->has_inertia) md.rotationalInertia = (float)pb->inertia;
		b2Body_SetMassData(body, md);
	}
	return body_handle(body);
}

static void *make_joint(void *ctx, const peer_joint *pj, void *body_a, void *body_b, const double offset[2])
{
	v3_world *w = ctx;
	b2BodyId a, b = body_id(body_b);
	if (body_a == NULL) {
		if (!w->has_ground) {
			b2BodyDef gd = b2DefaultBodyDef();
			w->ground = b2CreateBody(w->world, &gd);
			w->has_ground = true;
		}
		a = w->ground;
	} else {
		a = body_id(body_a);
	}
	b2Pos anchor = {(float)(pj->anchor[0] + offset[0]), (float)(pj->anchor[1] + offset[1])};
	float angle_a = b2Rot_GetAngle(b2Body_GetRotation(a)), angle_b = b2Rot_GetAngle(b2Body_GetRotation(b));
	float reference = pj->has_reference ? (float)pj->reference : angle_b - angle_a;
	b2RevoluteJointDef jd = b2DefaultRevoluteJointDef();
	jd.base.bodyIdA = a;
	jd.base.bodyIdB = b;
	/* joint angle = angle(qB fB) - angle(qA fA) = (angle B - angle A) - reference */
	jd.base.localFrameA.p = b2Body_GetLocalPoint(a, anchor);
	jd.base.localFrameA.q = b2MakeRot(reference);
	jd.base.localFrameB.p = b2Body_GetLocalPoint(b, anchor);
	jd.base.localFrameB.q = b2Rot_identity;
	jd.enableLimit = pj->has_limit != 0;
	jd.lowerAngle = (float)pj->lower;
	jd.upperAngle = (float)pj->upper;
	jd.enableMotor = pj->has_motor != 0;
	jd.motorSpeed = (float)pj->speed;
	jd.maxMotorTorque = (float)fmin(pj->max_torque, 1e30);
	jd.enableSpring = pj->has_spring != 0;
	jd.hertz = (float)pj->hertz;
	jd.dampingRatio = (float)pj->damping_ratio;
	jd.targetAngle = (float)pj->target;
	b2JointId j = b2CreateRevoluteJoint(w->world, &jd);
	return (void *)(uintptr_t)b2StoreJointId(j);
}

static void destroy_body(void *ctx, void *body)
{
	(void)ctx;
	b2DestroyBody(body_id(body)); /* with its shapes and joints */
}

static double energy(const peer_world *pw, b2Vec2 g)
{
	double e = 0.0;
	for (int i = 0; i < pw->body_count; ++i) {
		if (pw->bodies[i] == NULL) continue;
		b2BodyId b = body_id(pw->bodies[i]);
		if (b2Body_GetType(b) != b2_dynamicBody) continue;
		double m = b2Body_GetMass(b), inertia = b2Body_GetRotationalInertia(b);
		b2Vec2 v = b2Body_GetLinearVelocity(b);
		b2Pos c = b2Body_GetWorldPoint(b, b2Body_GetMassData(b).center);
		double w = b2Body_GetAngularVelocity(b);
		e += 0.5 * m * ((double)v.x * v.x + (double)v.y * v.y) + 0.5 * inertia * w * w;
		e -= m * b2Body_GetGravityScale(b) * ((double)g.x * c.x + (double)g.y * c.y);
	}
	return e;
}

/* The largest joint separation (m) and limit overshoot (radians) now, kept if larger (NaN wins). */
static void joint_errors(const peer_world *pw, double *separation, double *limit)
{
	for (int i = 0; i < pw->joint_count; ++i) {
		b2JointId j = joint_id(pw->joints[i].handle);
		b2Pos pa = b2Body_GetWorldPoint(b2Joint_GetBodyA(j), b2Joint_GetLocalFrameA(j).p);
		b2Pos pb = b2Body_GetWorldPoint(b2Joint_GetBodyB(j), b2Joint_GetLocalFrameB(j).p);
		double dx = (double)pb.x - pa.x, dy = (double)pb.y - pa.y;
		double e = sqrt(dx * dx + dy * dy);
		double l = peer_limit_overshoot(pw->joints[i].desc, b2RevoluteJoint_GetAngle(j));
		if (!(e <= *separation)) *separation = e;
		if (!(l <= *limit)) *limit = l;
	}
}

static double largest_drift(const peer_world *pw, const b2Pos *start, int count)
{
	double drift = 0.0;
	for (int i = 0; i < count; ++i) {
		if (pw->bodies[i] == NULL) continue;
		b2BodyId b = body_id(pw->bodies[i]);
		if (b2Body_GetType(b) != b2_dynamicBody) continue;
		b2Pos p = b2Body_GetPosition(b);
		double d = hypot((double)p.x - start[i].x, (double)p.y - start[i].y);
		if (!(d <= drift)) drift = d;
	}
	return drift;
}

/* Touching contacts: each is seen from both of its bodies. */
static int touching_contacts(const peer_world *pw)
{
	int ends = 0, capacity = 0;
	b2ContactData *data = NULL;
	for (int i = 0; i < pw->body_count; ++i) {
		if (pw->bodies[i] == NULL) continue;
		b2BodyId b = body_id(pw->bodies[i]);
		peer_reserve((void **)&data, &capacity, b2Body_GetContactCapacity(b), sizeof *data);
		ends += b2Body_GetContactData(b, data, capacity);
	}
	free(data);
	return ends / 2;
}

static void write_positions(const peer_scene *s, const peer_world *pw)
{
	FILE *f = fopen(peer_positions_file, "w");
	if (f == NULL) {
		perror(peer_positions_file);
		return;
	}
	for (int i = 0; i < pw->body_count; ++i) {
		if (pw->bodies[i] == NULL) continue;
		b2BodyId b = body_id(pw->bodies[i]);
		if (b2Body_GetType(b) != b2_dynamicBody) continue;
		b2Pos p = b2Body_GetPosition(b);
		peer_write_position(f, s, i, p.x, p.y, b2Rot_GetAngle(b2Body_GetRotation(b)));
	}
	fclose(f);
}

static run_result run_once(const peer_scene *s, int steps)
{
	b2Vec2 g = {(float)s->gravity[0], (float)s->gravity[1]};
	b2WorldDef wd = b2DefaultWorldDef();
	wd.gravity = g;
	wd.enableSleep = s->sleep != 0;
	wd.workerCount = 1;
	v3_world w = {s, b2CreateWorld(&wd), {0, 0, 0}, false, NULL, 0, 0};
	peer_engine engine = {&w, make_body, make_joint, NULL, destroy_body};
	peer_world pw;
	peer_world_init(&pw, s, engine);

	int kind = peer_quality_kind(s);
	b2Pos *start = calloc((size_t)s->body_count + 1, sizeof *start);
	double energy_start = 0.0, separation = 0.0, limit = 0.0;
	if (kind == 1) {
		for (int i = 0; i < s->body_count; ++i) start[i] = b2Body_GetPosition(body_id(pw.bodies[i]));
	} else if (kind == 2) {
		energy_start = energy(&pw, g);
	}
	float dt = (float)(1.0 / s->hz);
	double timed = 0.0, script = 0.0, cpu = 0.0;
	int taken = 0;
	double began = peer_now();
	for (int i = 0; i < steps; ++i) {
		if (peer_max_seconds > 0.0 && i > 1 && peer_now() - began > peer_max_seconds) break;
		taken = i + 1;
		double t0 = peer_now();
		peer_world_apply_ops(&pw, i); /* script work: not timed, as sinew times only the world step */
		double t1 = peer_now(), c1 = peer_cpu_now();
		b2World_Step(w.world, dt, 4);
		double t2 = peer_now(), c2 = peer_cpu_now();
		if (i > 0) {
			script += t1 - t0;
			timed += t2 - t1;
			cpu += c2 - c1;
		}
		if (kind == 0) joint_errors(&pw, &separation, &limit);
	}
	run_result r = {1000.0 * timed / (taken - 1), 1000.0 * cpu / (taken - 1), 1000.0 * script / (taken - 1), 0.0,
	                limit, 0, taken, pw.live_bodies, pw.joint_count};
	if (kind == 0) {
		r.quality = separation;
	} else if (kind == 1) {
		r.quality = largest_drift(&pw, start, s->body_count);
	} else {
		double e = energy(&pw, g);
		r.quality = fabs(energy_start) > 0.0 ? (e - energy_start) / fabs(energy_start) : e - energy_start;
	}
	r.contacts = touching_contacts(&pw);
	if (peer_positions_file != NULL) write_positions(s, &pw); /* each run: the last one stays */
	b2DestroyWorld(w.world);
	free(start);
	free(w.groups);
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
	if (s.filter_class_count > 64) {
		fprintf(stderr, "%s: %d distinct (layer, mask) pairs; Box2D's 64 category bits hold 64\n", file,
		        s.filter_class_count);
		return 2;
	}
	if (steps < 0) steps = s.steps;
	double *times = calloc((size_t)repeat, sizeof *times), *cpu_times = calloc((size_t)repeat, sizeof *cpu_times);
	run_result r = {0, 0, 0, 0, 0, 0, 0, 0, 0};
	int runs = 0;
	while (runs < repeat) {
		r = run_once(&s, steps);
		cpu_times[runs] = r.cpu_ms;
		times[runs++] = r.ms;
		if (r.taken < steps) break;
	}
	char notes[300] = "one thread, 4 substeps, " PEER_SIMD;
	if (s.length_units_per_meter != 1.0) {
		size_t n = strlen(notes);
		snprintf(notes + n, sizeof notes - n, "; lengths converted to metres (length_units_per_meter %g)",
		         s.length_units_per_meter);
	}
	if (r.taken < steps) {
		size_t n = strlen(notes);
		snprintf(notes + n, sizeof notes - n, "; stopped after %d of %d steps (--max-seconds %g)", r.taken, steps,
		         peer_max_seconds);
	}
	peer_print_result("box2d_v3", &s, r.bodies, r.joints, r.contacts, r.taken, runs, times, cpu_times, r.script_ms,
	                  r.quality, r.limit, notes);
	free(times);
	free(cpu_times);
	return 0;
}
