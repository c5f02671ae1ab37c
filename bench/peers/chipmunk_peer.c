/* chipmunk_peer: runs a sinew scene file (the subset of bench/peers/peer_scene.h) in Chipmunk 7
 * (Debian's libchipmunk-dev) with its usual settings: one cpSpaceStep of 1/hz per step, 10
 * iterations, the default bounding-box tree. Prints one line of JSON (bench/peers/README.md).
 *
 *     chipmunk_peer SCENE.json [--steps N] [--repeat R]
 *
 * Chipmunk has every shape the bench scenes use: circles, capsules (a segment with a radius),
 * rounded boxes (a polygon with a radius) and polygons. A scene in pixels (length_units_per_meter)
 * arrives in metres, as for Box2D (peer_scene.h converts it): Chipmunk is unit-free in doubles but
 * for its collision slop, so this is the same as scaling the slop by length_units_per_meter, and
 * keeps one set of settings for every scene. Settings that differ from Chipmunk's defaults, because
 * the defaults are for pixels: collision slop 0.005 m (Box2D's linear slop; the default 0.1 would
 * let 0.125 m boxes sink into each other), and, where the scene lets bodies sleep, a sleep time
 * threshold of 0.5 s (Box2D's b2_timeToSleep; the default is "never"); the idle speed threshold
 * stays Chipmunk's default (|gravity| * dt) for the whole space, so per-body sleep thresholds are
 * not used. Per-body damping and gravity scale, which Chipmunk has only space-wide, are a velocity
 * update function of the body's own (body_velocity). A file's mass / inertia override is
 * cpBodySetMass / cpBodySetMoment (a mass alone scales the moment with it, as in sinew). A revolute
 * joint is a pivot joint, plus a rotary limit joint for a limit, a simple motor (max force = max
 * torque) for a motor and a damped rotary spring for a spring; a begin handler keeps jointed
 * bodies from colliding (collide_connected false, which Chipmunk does not have). Filters: each
 * distinct (layer, mask) pair of the scene is a category bit of its own, with the mask
 * peer_scene.h works out (sinew's "either way" test exactly); a sinew collision group is the
 * cpShapeFilter group. Script ops (spawn, destroy_group) run before their step, outside the
 * timed region (peer_world.h). */
#include <chipmunk/chipmunk.h>
#include <chipmunk/chipmunk_structs.h> /* cpBody's v and w: setting them through the API wakes the body */

#include "peer_world.h"

typedef struct run_result {
	double ms, cpu_ms, script_ms, quality; /* cpu_ms: the same steps in CPU time; script_ms: the script ops' time per step, not in ms */
	double limit; /* worst limit overshoot, radians (scenes with joints) */
	int contacts, taken; /* taken: steps taken (fewer than asked when --max-seconds stopped the run) */
	int bodies, joints;
} run_result;

static cpVect local_point(const peer_shape *s, double x, double y)
{
	double c = cos(s->angle), sn = sin(s->angle);
	return cpv(s->center[0] + c * x - sn * y, s->center[1] + sn * x + c * y);
}

static void add_shape(cpSpace *space, cpBody *body, const peer_scene *scene, const peer_shape *s, int dynamic,
                      unsigned long instance_group)
{
	cpShape *shape;
	if (s->type == PEER_CIRCLE) {
		shape = cpCircleShapeNew(body, s->radius, cpv(s->center[0], s->center[1]));
	} else if (s->type == PEER_CAPSULE) {
		shape = cpSegmentShapeNew(body, cpv(s->c1[0], s->c1[1]), cpv(s->c2[0], s->c2[1]), s->radius);
	} else if (s->type == PEER_POLYGON) {
		cpVect v[PEER_MAX_POLYGON_VERTICES];
		for (int k = 0; k < s->vertex_count; ++k) v[k] = cpv(s->vertices[k][0], s->vertices[k][1]);
		shape = cpPolyShapeNew(body, s->vertex_count, v, cpTransformIdentity, 0.0);
	} else {
		double r = s->radius, hx = s->half[0] - r, hy = s->half[1] - r;
		cpVect v[4] = {local_point(s, -hx, -hy), local_point(s, hx, -hy), local_point(s, hx, hy), local_point(s, -hx, hy)};
		shape = cpPolyShapeNew(body, 4, v, cpTransformIdentity, r);
	}
	if (dynamic) cpShapeSetDensity(shape, s->density);
	cpShapeSetFriction(shape, s->friction);
	cpShapeSetElasticity(shape, s->restitution);
	unsigned long group = instance_group != 0 ? instance_group : s->group;
	cpBitmask category = (cpBitmask)1 << s->filter_class, collides = (cpBitmask)scene->class_collides[s->filter_class];
	cpShapeSetFilter(shape, cpShapeFilterNew(group != 0 ? (cpGroup)group : CP_NO_GROUP, category, collides));
	cpSpaceAddShape(space, shape);
}

static double energy(cpBody **bodies, int n, cpVect g)
{
	double e = 0.0;
	for (int i = 0; i < n; ++i) {
		cpBody *b = bodies[i];
		if (b == NULL || cpBodyGetType(b) != CP_BODY_TYPE_DYNAMIC) continue;
		double m = cpBodyGetMass(b), inertia = cpBodyGetMoment(b); /* about the centre of gravity */
		cpVect v = cpBodyGetVelocity(b), c = cpBodyLocalToWorld(b, cpBodyGetCenterOfGravity(b));
		double w = cpBodyGetAngularVelocity(b);
		e += 0.5 * m * cpvdot(v, v) + 0.5 * inertia * w * w - m * cpvdot(g, c);
	}
	return e;
}

static void count_arbiter(cpBody *body, cpArbiter *arb, void *data)
{
	(void)body;
	if (cpArbiterGetCount(arb) > 0) *(int *)data += 1;
}

static void free_shape(cpBody *body, cpShape *shape, void *space)
{
	(void)body;
	cpSpaceRemoveShape((cpSpace *)space, shape);
	cpShapeFree(shape);
}

static void free_constraint(cpBody *body, cpConstraint *c, void *space)
{
	(void)body;
	if (cpSpaceContainsConstraint((cpSpace *)space, c)) {
		cpSpaceRemoveConstraint((cpSpace *)space, c);
		cpConstraintFree(c);
	}
}

typedef struct joined_query {
	cpBody *other;
	int found;
} joined_query;

static void find_joined(cpBody *body, cpConstraint *c, void *data)
{
	joined_query *q = (joined_query *)data;
	cpBody *a = cpConstraintGetBodyA(c), *b = cpConstraintGetBodyB(c);
	if ((a == body && b == q->other) || (b == body && a == q->other)) q->found = 1;
}

/* Chipmunk collides jointed bodies; sinew (collide_connected false) and Box2D do not. */
static cpBool begin_unless_joined(cpArbiter *arb, cpSpace *space, cpDataPointer data)
{
	(void)space;
	(void)data;
	CP_ARBITER_GET_BODIES(arb, a, b);
	joined_query q = {b, 0};
	cpBodyEachConstraint(a, find_joined, &q);
	return !q.found;
}

typedef struct chipmunk_world {
	const peer_scene *scene;
	cpSpace *space;
} chipmunk_world;

/* Chipmunk's velocity step with the body's own gravity scale and damping (its user data is its
 * peer_body). The damping is Box2D's (and sinew's, per substep): v *= 1 / (1 + dt c) after the
 * forces. It writes v and w directly: cpBodySetVelocity would wake the body, and so keep it from
 * ever falling asleep. */
static void body_velocity(cpBody *body, cpVect gravity, cpFloat damping, cpFloat dt)
{
	const peer_body *pb = (const peer_body *)cpBodyGetUserData(body);
	cpBodyUpdateVelocity(body, cpvmult(gravity, pb->gravity_scale), damping, dt);
	body->v = cpvmult(body->v, 1.0 / (1.0 + dt * pb->linear_damping));
	body->w *= 1.0 / (1.0 + dt * pb->angular_damping);
}

/* The file's mass / inertia override (scene/scene.c override_mass): a mass alone scales the
 * shapes' moment with it, sinew's moment (Chipmunk's capsule moment is a box's, a few per cent
 * more); the centre of gravity, the shapes', stays. */
static void override_mass(cpBody *b, const peer_body *pb)
{
	double mass, center[2], moment; /* moment about the centre of gravity */
	peer_body_mass(pb, &mass, center, &moment);
	if (pb->has_mass) {
		if (!pb->has_inertia && mass > 0.0) moment *= pb->mass / mass;
		mass = pb->mass;
	}
	if (pb->has_inertia) moment = pb->inertia;
	cpBodySetMass(b, mass);
	cpBodySetMoment(b, moment);
}

static void *make_body(void *ctx, const peer_body *pb, const double offset[2], unsigned long group)
{
	chipmunk_world *w = (chipmunk_world *)ctx;
	cpBody *b = pb->type == PEER_STATIC ? cpBodyNewStatic() : pb->type == PEER_KINEMATIC ? cpBodyNewKinematic()
	                                                                                       : cpBodyNew(0, 0);
	cpVect position = cpv(pb->position[0] + offset[0], pb->position[1] + offset[1]);
	cpSpaceAddBody(w->space, b);
	cpBodySetPosition(b, position);
	cpBodySetAngle(b, pb->angle);
	for (int k = 0; k < pb->shape_count; ++k) {
		add_shape(w->space, b, w->scene, &pb->shapes[k], pb->type == PEER_DYNAMIC, group);
	}
	if (pb->type == PEER_DYNAMIC && (pb->has_mass || pb->has_inertia)) override_mass(b, pb);
	/* Mass comes from the shapes now; keep the origin where the file put it. */
	cpBodySetPosition(b, position);
	int own_velocity = pb->linear_damping != 0.0 || pb->angular_damping != 0.0 || pb->gravity_scale != 1.0;
	if (pb->type == PEER_DYNAMIC && own_velocity) {
		cpBodySetUserData(b, (cpDataPointer)pb);
		cpBodySetVelocityUpdateFunc(b, body_velocity);
	}
	if (pb->type != PEER_STATIC) {
		cpBodySetVelocity(b, cpv(pb->velocity[0], pb->velocity[1]));
		cpBodySetAngularVelocity(b, pb->angular_velocity);
	}
	if (pb->type == PEER_STATIC) cpSpaceReindexShapesForBody(w->space, b);
	return b;
}

static double inverse_moment(cpBody *b)
{
	return cpBodyGetType(b) == CP_BODY_TYPE_DYNAMIC ? 1.0 / cpBodyGetMoment(b) : 0.0;
}

/* The pivot joint stands for the joint (its anchors give the separation; its user data is the
 * rotary limit joint, if any, for the limit overshoot); NULL when left out. */
static void *make_joint(void *ctx, const peer_joint *pj, void *body_a, void *body_b, const double offset[2])
{
	chipmunk_world *w = (chipmunk_world *)ctx;
	cpBody *a = body_a != NULL ? (cpBody *)body_a : cpSpaceGetStaticBody(w->space), *b = (cpBody *)body_b;
	cpVect anchor = cpv(pj->anchor[0] + offset[0], pj->anchor[1] + offset[1]);
	/* A joint between two bodies that never move does nothing (Chipmunk refuses it). */
	if (cpBodyGetType(a) != CP_BODY_TYPE_DYNAMIC && cpBodyGetType(b) != CP_BODY_TYPE_DYNAMIC) return NULL;
	cpConstraint *pivot = cpSpaceAddConstraint(w->space, cpPivotJointNew(a, b, anchor));
	double reference = pj->has_reference ? pj->reference : cpBodyGetAngle(b) - cpBodyGetAngle(a);
	if (pj->has_limit) {
		cpConstraint *limit = cpRotaryLimitJointNew(a, b, pj->lower + reference, pj->upper + reference);
		cpConstraintSetUserData(pivot, cpSpaceAddConstraint(w->space, limit));
	}
	if (pj->has_motor) {
		/* cpSimpleMotor drives w_a - w_b to the rate; sinew's speed is w_b - w_a. */
		cpConstraint *m = cpSpaceAddConstraint(w->space, cpSimpleMotorNew(a, b, -pj->speed));
		cpConstraintSetMaxForce(m, pj->max_torque > 1e30 ? INFINITY : pj->max_torque);
	}
	if (pj->has_spring) {
		/* cpDampedRotarySpring measures angle_a - angle_b, so its rest angle is minus sinew's. */
		double k, c;
		peer_spring_coefficients(pj, inverse_moment(a), inverse_moment(b), &k, &c);
		cpSpaceAddConstraint(w->space, cpDampedRotarySpringNew(a, b, -(reference + pj->target), k, c));
	}
	return pivot;
}

static void start_asleep(void *ctx, void *body)
{
	(void)ctx;
	cpBodySleep((cpBody *)body);
}

static void destroy_body(void *ctx, void *body)
{
	chipmunk_world *w = (chipmunk_world *)ctx;
	cpBodyEachConstraint((cpBody *)body, free_constraint, w->space);
	cpBodyEachShape((cpBody *)body, free_shape, w->space);
	cpSpaceRemoveBody(w->space, (cpBody *)body);
	cpBodyFree((cpBody *)body);
}

/* The largest joint separation (m) and limit overshoot (radians) now, kept if larger (NaN wins).
 * The joint angle is angle_b - angle_a - reference, the reference being what make_joint added to
 * the limits. */
static void joint_errors(const peer_world *pw, double *separation, double *limit)
{
	for (int k = 0; k < pw->joint_count; ++k) {
		cpConstraint *c = (cpConstraint *)pw->joints[k].handle;
		if (c == NULL) continue;
		cpBody *a = cpConstraintGetBodyA(c), *b = cpConstraintGetBodyB(c);
		cpVect pa = cpBodyLocalToWorld(a, cpPivotJointGetAnchorA(c)), pb = cpBodyLocalToWorld(b, cpPivotJointGetAnchorB(c));
		double e = cpvdist(pa, pb);
		if (!(e <= *separation)) *separation = e;
		cpConstraint *rotary = (cpConstraint *)cpConstraintGetUserData(c);
		if (rotary == NULL) continue;
		const peer_joint *pj = pw->joints[k].desc;
		double reference = cpRotaryLimitJointGetMin(rotary) - pj->lower;
		double l = peer_limit_overshoot(pj, cpBodyGetAngle(b) - cpBodyGetAngle(a) - reference);
		if (!(l <= *limit)) *limit = l;
	}
}

static void write_positions(const peer_scene *s, const peer_world *pw)
{
	FILE *f = fopen(peer_positions_file, "w");
	if (f == NULL) {
		perror(peer_positions_file);
		return;
	}
	for (int i = 0; i < pw->body_count; ++i) {
		cpBody *b = (cpBody *)pw->bodies[i];
		if (b == NULL || cpBodyGetType(b) != CP_BODY_TYPE_DYNAMIC) continue;
		peer_write_position(f, s, i, cpBodyGetPosition(b).x, cpBodyGetPosition(b).y, cpBodyGetAngle(b));
	}
	fclose(f);
}

static double largest_drift(const peer_world *pw, const cpVect *start, int count)
{
	double drift = 0.0;
	for (int i = 0; i < count; ++i) {
		cpBody *b = (cpBody *)pw->bodies[i];
		if (b == NULL || cpBodyGetType(b) != CP_BODY_TYPE_DYNAMIC) continue;
		double d = cpvdist(cpBodyGetPosition(b), start[i]);
		if (!(d <= drift)) drift = d;
	}
	return drift;
}

static run_result run_once(const peer_scene *s, int steps)
{
	cpSpace *space = cpSpaceNew();
	cpVect g = cpv(s->gravity[0], s->gravity[1]);
	cpSpaceSetGravity(space, g);
	cpSpaceSetIterations(space, 10);
	cpSpaceSetCollisionSlop(space, 0.005);
	if (s->sleep) cpSpaceSetSleepTimeThreshold(space, 0.5);
	if (s->has_joints) cpSpaceAddDefaultCollisionHandler(space)->beginFunc = begin_unless_joined;
	chipmunk_world w = {s, space};
	peer_engine engine = {&w, make_body, make_joint, start_asleep, destroy_body};
	peer_world pw;
	peer_world_init(&pw, s, engine);

	int kind = peer_quality_kind(s);
	cpVect *start = calloc((size_t)s->body_count + 1, sizeof *start);
	double energy_start = 0.0, separation = 0.0, limit = 0.0;
	if (kind == 1) {
		for (int i = 0; i < s->body_count; ++i) start[i] = cpBodyGetPosition((cpBody *)pw.bodies[i]);
	} else if (kind == 2) {
		energy_start = energy((cpBody **)pw.bodies, pw.body_count, g);
	}
	double dt = 1.0 / s->hz, timed = 0.0, script = 0.0, cpu = 0.0;
	int taken = 0;
	double began = peer_now();
	for (int i = 0; i < steps; ++i) {
		if (peer_max_seconds > 0.0 && i > 1 && peer_now() - began > peer_max_seconds) break;
		taken = i + 1;
		double t0 = peer_now();
		peer_world_apply_ops(&pw, i); /* script work: not timed, as sinew times only the world step */
		double t1 = peer_now(), c1 = peer_cpu_now();
		cpSpaceStep(space, dt);
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
		double e = energy((cpBody **)pw.bodies, pw.body_count, g);
		r.quality = fabs(energy_start) > 0.0 ? (e - energy_start) / fabs(energy_start) : e - energy_start;
	}
	int arbiter_ends = 0; /* each touching pair is seen from both bodies, except from the space's own static body */
	for (int i = 0; i < pw.body_count; ++i) {
		if (pw.bodies[i] != NULL) cpBodyEachArbiter((cpBody *)pw.bodies[i], count_arbiter, &arbiter_ends);
	}
	r.contacts = arbiter_ends / 2;
	if (peer_positions_file != NULL) write_positions(s, &pw); /* each run: the last one stays */
	for (int i = 0; i < pw.body_count; ++i) {
		if (pw.bodies[i] != NULL) destroy_body(&w, pw.bodies[i]);
	}
	cpSpaceFree(space);
	free(start);
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
	char notes[300] = "Debian's libchipmunk is built with its debug checks on";
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
	peer_print_result("chipmunk", &s, r.bodies, r.joints, r.contacts, r.taken, runs, times, cpu_times, r.script_ms, r.quality,
	                  r.limit, notes);
	free(times);
	free(cpu_times);
	return 0;
}
