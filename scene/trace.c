/* Trace files (the Traces section of docs/scene-format.md): one JSON document, a frame per kept
 * step. Events are gathered after every step, because the engine keeps them only until the next
 * one, and written with the next frame, so a frame lists every event since the previous frame.
 * Frames are written as they come; nothing but the pending events is held in memory. */
#include "sinew/scene.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growing text buffer; a failed allocation sticks and is reported when the trace closes. */
typedef struct text {
	char *data;
	size_t length, capacity;
	bool failed;
} text;

struct sinew_trace {
	const sinew_scene *scene;
	FILE *file;
	int every;
	int frames;
	int last_written_step; /* -1 before the first frame */
	text events;           /* event objects since the last frame, separated by ", " */
	int event_count;
	text frame;
	bool failed;
};

static void put(text *t, const char *format, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 2, 3)))
#endif
	;
static void put(text *t, const char *format, ...)
{
	if (t->failed) return;
	for (;;) {
		size_t room = t->capacity - t->length;
		va_list args;
		va_start(args, format);
		int n = vsnprintf(t->data != NULL ? t->data + t->length : NULL, room, format, args);
		va_end(args);
		if (n < 0) {
			t->failed = true;
			return;
		}
		if ((size_t)n < room) {
			t->length += (size_t)n;
			return;
		}
		size_t capacity = t->capacity < 4096 ? 4096 : t->capacity;
		while (capacity <= t->length + (size_t)n) capacity *= 2;
		char *grown = realloc(t->data, capacity);
		if (grown == NULL) {
			t->failed = true;
			return;
		}
		t->data = grown;
		t->capacity = capacity;
	}
}

/* Shortest text that reads back as the same float; JSON has no NaN or infinity: null. */
static void put_float(text *t, float f)
{
	if (isfinite(f)) put(t, "%.9g", (double)f);
	else put(t, "null");
}

static void put_vec2(text *t, sinew_vec2 v)
{
	put(t, "[");
	put_float(t, v.x);
	put(t, ", ");
	put_float(t, v.y);
	put(t, "]");
}

static void put_string(text *t, const char *s)
{
	put(t, "\"");
	for (; *s != 0; ++s) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') put(t, "\\%c", c);
		else if (c < 0x20) put(t, "\\u%04x", c);
		else put(t, "%c", c);
	}
	put(t, "\"");
}

/* A body in an event: its name, or its index in "bodies" when it has none (null if unknown). */
static void put_body_of_shape(text *t, const sinew_scene *scene, sinew_shape_id shape)
{
	int index = sinew_scene_get_shape_body_index(scene, shape);
	const char *name = sinew_scene_get_body_name(scene, index);
	if (name != NULL) put_string(t, name);
	else if (index >= 0) put(t, "%d", index);
	else put(t, "null");
}

static void begin_event(sinew_trace *trace, const char *type)
{
	put(&trace->events, "%s{\"type\": \"%s\"", trace->event_count > 0 ? ", " : "", type);
	trace->event_count += 1;
}

static void put_pair(sinew_trace *trace, sinew_shape_id a, sinew_shape_id b)
{
	put(&trace->events, ", \"a\": ");
	put_body_of_shape(&trace->events, trace->scene, a);
	put(&trace->events, ", \"b\": ");
	put_body_of_shape(&trace->events, trace->scene, b);
}

/* Contact point: the middle of the manifold's points. Normal: pointing from b towards a (the
 * direction that pushes a away from b, as a body's own contact normal does). */
static void gather_contact_events(sinew_trace *trace, sinew_world_id world)
{
	sinew_contact_events events = sinew_world_get_contact_events(world);
	for (int i = 0; i < events.begin_count; ++i) {
		const sinew_contact_begin_event *e = &events.begin_events[i];
		sinew_vec2 point = {0.0f, 0.0f};
		for (int k = 0; k < e->manifold.point_count; ++k) point = sinew_add(point, e->manifold.points[k].point);
		if (e->manifold.point_count > 0) point = sinew_scale(1.0f / (float)e->manifold.point_count, point);
		begin_event(trace, "contact_begin");
		put_pair(trace, e->shape_a, e->shape_b);
		put(&trace->events, ", \"point\": ");
		put_vec2(&trace->events, point);
		put(&trace->events, ", \"normal\": ");
		put_vec2(&trace->events, sinew_neg(e->manifold.normal));
		put(&trace->events, "}");
	}
	for (int i = 0; i < events.end_count; ++i) {
		begin_event(trace, "contact_end");
		put_pair(trace, events.end_events[i].shape_a, events.end_events[i].shape_b);
		put(&trace->events, "}");
	}
}

/* Sensor events: a is the sensor's body, b the visitor's. */
static void gather_sensor_events(sinew_trace *trace, sinew_world_id world)
{
	sinew_sensor_events events = sinew_world_get_sensor_events(world);
	for (int i = 0; i < events.begin_count; ++i) {
		begin_event(trace, "sensor_begin");
		put_pair(trace, events.begin_events[i].sensor_shape, events.begin_events[i].visitor_shape);
		put(&trace->events, "}");
	}
	for (int i = 0; i < events.end_count; ++i) {
		begin_event(trace, "sensor_end");
		put_pair(trace, events.end_events[i].sensor_shape, events.end_events[i].visitor_shape);
		put(&trace->events, "}");
	}
}

/* joint_broken: the joint's name, or its index in "joints" when it has none (null if unknown). */
static void gather_joint_events(sinew_trace *trace, sinew_world_id world)
{
	sinew_joint_events events = sinew_world_get_joint_events(world);
	for (int i = 0; i < events.broken_count; ++i) {
		const sinew_joint_broken_event *e = &events.broken_events[i];
		int index = sinew_scene_get_joint_index(trace->scene, e->joint);
		const char *name = sinew_scene_get_joint_name(trace->scene, index);
		begin_event(trace, "joint_broken");
		put(&trace->events, ", \"joint\": ");
		if (name != NULL) put_string(&trace->events, name);
		else if (index >= 0) put(&trace->events, "%d", index);
		else put(&trace->events, "null");
		put(&trace->events, ", \"force\": ");
		put_float(&trace->events, e->force);
		put(&trace->events, ", \"torque\": ");
		put_float(&trace->events, e->torque);
		put(&trace->events, "}");
	}
}

/* sep: linear position error; angle: radians; translation: along the axis (or the length);
 * force: |reaction force|; torque: reaction torque; both of the last step. */
static void put_joint(text *t, sinew_joint_id joint)
{
	put(t, "{\"sep\": ");
	put_float(t, sinew_joint_get_linear_error(joint));
	put(t, ", \"angle\": ");
	put_float(t, sinew_joint_get_angle(joint));
	put(t, ", \"translation\": ");
	put_float(t, sinew_joint_get_translation(joint));
	put(t, ", \"force\": ");
	put_float(t, sinew_length(sinew_joint_get_reaction_force(joint)));
	put(t, ", \"torque\": ");
	put_float(t, sinew_joint_get_reaction_torque(joint));
	put(t, ", \"broken\": %s}", sinew_joint_is_broken(joint) ? "true" : "false");
}

static void put_body(text *t, sinew_body_id body)
{
	put(t, "{\"p\": ");
	put_vec2(t, sinew_body_get_position(body));
	put(t, ", \"a\": ");
	put_float(t, sinew_body_get_angle(body));
	put(t, ", \"v\": ");
	put_vec2(t, sinew_body_get_linear_velocity(body));
	put(t, ", \"w\": ");
	put_float(t, sinew_body_get_angular_velocity(body));
	put(t, ", \"awake\": %s}", sinew_body_is_awake(body) ? "true" : "false");
}

static const char *const state_words[] = {"animated", "ragdoll", "recovering"};
static const char *const motion_words[] = {"disabled", "airborne", "grounded", "landing_impact"};
static const char *const facing_words[] = {"right", "left", "forward"};

/* A rig as docs/scene-format.md's Traces show it: the parts as shown (the ragdoll's bodies while it is
 * limp), the ragdoll's joint figures (0 unless limp; the overshoot in degrees). */
static void put_rig(text *t, const sinew_rig *rig, const sinew_ragdoll *ragdoll)
{
	sinew_rig_part_state parts[SINEW_PART_COUNT];
	if (ragdoll != NULL) sinew_ragdoll_get_parts(ragdoll, parts);
	else for (int i = 0; i < SINEW_PART_COUNT; ++i) parts[i] = sinew_rig_get_part(rig, (sinew_rig_part)i);
	sinew_rig_state state = sinew_rig_get_state(rig);
	sinew_rig_motion motion = sinew_rig_get_motion(rig);
	sinew_rig_facing facing = sinew_rig_get_facing(rig);
	put(t, "{\"state\": \"%s\", \"motion\": \"%s\", \"blocked\": %s, \"root\": ", state_words[state],
	    motion_words[motion], sinew_rig_is_action_blocked(rig) ? "true" : "false");
	put_vec2(t, sinew_rig_get_root(rig).p);
	put(t, ", \"facing\": \"%s\", \"joint_sep_max\": ", facing_words[facing]);
	put_float(t, sinew_ragdoll_get_joint_separation_max(ragdoll));
	put(t, ", \"limit_over_max\": ");
	put_float(t, sinew_ragdoll_get_limit_overshoot_max(ragdoll) * (180.0f / SINEW_PI));
	put(t, ",\n          \"parts\": {");
	for (int i = 0; i < SINEW_PART_COUNT; ++i) {
		sinew_rig_part_state part = parts[i];
		put(t, "%s\"%s\": {\"p\": ", i > 0 ? ", " : "", sinew_rig_part_name((sinew_rig_part)i));
		put_vec2(t, part.center);
		put(t, ", \"a\": ");
		put_float(t, part.angle);
		put(t, "}");
	}
	put(t, "}}");
}

/* Only named bodies, joints and rigs that still exist. */
static void put_frame(sinew_trace *trace, int step)
{
	const sinew_scene *scene = trace->scene;
	text *t = &trace->frame;
	sinew_counters c = sinew_world_get_counters(sinew_scene_get_world(scene));
	t->length = 0;
	put(t, "%s    {\"step\": %d, \"time\": ", trace->frames > 0 ? ",\n" : "", step);
	put(t, "%.9g", (double)(step + 1) / (double)sinew_scene_get_hz(scene));
	put(t, ", \"counts\": {\"bodies\": %d, \"joints\": %d, \"contacts\": %d, \"awake\": %d},\n", c.body_count,
	    c.joint_count, c.contact_count, c.awake_body_count);
	put(t, "      \"bodies\": {");
	int written = 0;
	for (int i = 0; i < sinew_scene_get_named_body_count(scene); ++i) {
		int index = sinew_scene_get_named_body_index(scene, i);
		sinew_body_id body = sinew_scene_get_body(scene, index);
		if (!sinew_body_is_valid(body)) continue;
		put(t, "%s", written++ > 0 ? ",\n        " : "");
		put_string(t, sinew_scene_get_body_name(scene, index));
		put(t, ": ");
		put_body(t, body);
	}
	put(t, "},\n      \"joints\": {");
	written = 0;
	for (int i = 0; i < sinew_scene_get_named_joint_count(scene); ++i) {
		int index = sinew_scene_get_named_joint_index(scene, i);
		sinew_joint_id joint = sinew_scene_get_joint(scene, index);
		if (!sinew_joint_is_valid(joint)) continue;
		put(t, "%s", written++ > 0 ? ",\n        " : "");
		put_string(t, sinew_scene_get_joint_name(scene, index));
		put(t, ": ");
		put_joint(t, joint);
	}
	put(t, "},\n      \"rigs\": {");
	written = 0;
	for (int i = 0; i < sinew_scene_get_rig_count(scene); ++i) {
		const char *name = sinew_scene_get_rig_name(scene, i);
		const sinew_rig *rig = sinew_scene_get_rig(scene, i);
		if (name == NULL || rig == NULL) continue;
		put(t, "%s", written++ > 0 ? ",\n        " : "");
		put_string(t, name);
		put(t, ": ");
		put_rig(t, rig, sinew_scene_get_ragdoll(scene, i));
	}
	put(t, "},\n      \"events\": [");
	if (trace->events.length > 0) put(t, "%.*s", (int)trace->events.length, trace->events.data);
	put(t, "]}");
}

bool sinew_trace_write_frame(sinew_trace *trace)
{
	if (trace == NULL) return false;
	int step = sinew_scene_get_step(trace->scene) - 1;
	if (step < 0 || step == trace->last_written_step) return !trace->failed;
	put_frame(trace, step);
	if (trace->frame.failed || trace->events.failed) trace->failed = true;
	else if (fwrite(trace->frame.data, 1, trace->frame.length, trace->file) != trace->frame.length) trace->failed = true;
	trace->frames += 1;
	trace->last_written_step = step;
	trace->events.length = 0;
	trace->event_count = 0;
	return !trace->failed;
}

bool sinew_trace_record(sinew_trace *trace)
{
	if (trace == NULL) return false;
	sinew_world_id world = sinew_scene_get_world(trace->scene);
	gather_contact_events(trace, world);
	gather_sensor_events(trace, world);
	gather_joint_events(trace, world);
	int step = sinew_scene_get_step(trace->scene) - 1;
	if (step >= 0 && step % trace->every == 0) return sinew_trace_write_frame(trace);
	return !trace->failed && !trace->events.failed;
}

sinew_trace *sinew_trace_open(const sinew_scene *scene, const char *path, int every, char *error, size_t error_size)
{
	if (scene == NULL || path == NULL || every < 1) {
		if (error != NULL && error_size > 0) {
			snprintf(error, error_size, "sinew_trace_open: %s", every < 1 ? "every must be at least 1" : "no scene or no path");
		}
		return NULL;
	}
	sinew_trace *trace = calloc(1, sizeof *trace);
	FILE *file = trace != NULL ? fopen(path, "w") : NULL;
	if (file == NULL) {
		if (error != NULL && error_size > 0) {
			snprintf(error, error_size, "%s: cannot write: %s", path, trace != NULL ? strerror(errno) : "out of memory");
		}
		free(trace);
		return NULL;
	}
	trace->scene = scene;
	trace->file = file;
	trace->every = every;
	trace->last_written_step = -1;
	text *t = &trace->frame;
	put(t, "{\n  \"scene\": ");
	put_string(t, sinew_scene_get_name(scene));
	put(t, ", \"hz\": ");
	put_float(t, sinew_scene_get_hz(scene));
	put(t, ", \"substeps\": %d,\n  \"frames\": [\n", sinew_scene_get_substeps(scene));
	if (t->failed || fwrite(t->data, 1, t->length, file) != t->length) trace->failed = true;
	return trace;
}

bool sinew_trace_close(sinew_trace *trace)
{
	if (trace == NULL) return false;
	sinew_trace_write_frame(trace);
	if (fputs("\n  ]\n}\n", trace->file) == EOF) trace->failed = true;
	if (fclose(trace->file) != 0) trace->failed = true;
	bool ok = !trace->failed;
	free(trace->frame.data);
	free(trace->events.data);
	free(trace);
	return ok;
}
