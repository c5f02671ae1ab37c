/* `sinew bench [SCENES...] [--steps N] [--repeat R] [--json FILE]`: time scene files.
 *
 * Each scene is loaded and run R times (default 3) on this thread. Step 0 builds caches and is
 * not timed; steps 1..N-1 are: the world step inside each sinew_scene_step (its CLOCK_MONOTONIC
 * readings, sinew_scene_get_world_step_seconds), not the script ops before it (spawning a
 * template is scene loading, not simulation; the peers leave it out too). The same steps are
 * also timed in CPU time (CLOCK_PROCESS_CPUTIME_ID, sinew_scene_get_world_step_cpu_seconds): on
 * a machine whose cores are shared with other work, wall time counts the time the process waited
 * for a core, CPU time does not. A run's
 * figure is its mean ms/step; the table shows the median and the minimum over the R runs (wall
 * and CPU), the
 * world's counters after the last step, and one quality figure per scene (docs/benchmarks.md):
 *   sep     the largest joint separation (sinew_joint_get_linear_error) seen after any step,
 *           and the worst limit overshoot (sinew_joint_get_limit_violation), for scenes with
 *           joints (the world's joints: spawned ones count too);
 *   drift   the largest distance any dynamic body's origin ended from where it started, for
 *           pyramid scenes (a "pyramid" in the file name);
 *   energy  (E_end - E_start) / |E_start| otherwise, E the kinetic (linear and angular) plus
 *           the potential energy (-m g . centre of mass) of the dynamic bodies.
 * Separations and drifts are in metres (length units / length_units_per_meter). Quality is
 * measured outside the timed calls. Without SCENES it runs scenes/bench/ (every .json there). */
#include "sinew/scene.h"

#include <errno.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int bench_command(int argc, char **argv);

enum { BENCH_RAN = 0, BENCH_FAILED = 1, BENCH_USAGE = 2 };
#define BENCH_DEFAULT_GLOB "scenes/bench/*.json"

typedef enum quality_kind { QUALITY_SEPARATION, QUALITY_DRIFT, QUALITY_ENERGY } quality_kind;
static const char *const quality_names[] = {"joint_separation", "pyramid_drift", "energy_change"};
static const char *const quality_short[] = {"sep", "drift", "energy"};

typedef struct bench_row {
	char scene[128];
	const char *file;
	int bodies, joints, contacts, awake, steps, repeat, errors;
	double ms_median, ms_min;
	double cpu_median, cpu_min; /* CPU ms/step */
	quality_kind kind;
	double quality;
	double limit_degrees; /* worst limit overshoot, scenes with joints */
} bench_row;

static int bench_usage(const char *message, const char *arg)
{
	fprintf(stderr, "sinew bench: %s%s%s\n", message, arg != NULL ? ": " : "", arg != NULL ? arg : "");
	fprintf(stderr, "usage: sinew bench [SCENES...] [--steps N] [--repeat R] [--json FILE]\n");
	return BENCH_USAGE;
}

static int bench_count(const char *s)
{
	if (s == NULL || *s < '0' || *s > '9') return -1;
	char *end = NULL;
	long v = strtol(s, &end, 10);
	if (*end != 0 || v < 0 || v > 1000000000L) return -1;
	return (int)v;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The world's live ids (body or joint ids, in turn), in a buffer that grows as the world does
 * (outside the timed steps). */
typedef struct id_buffer {
	void *ids;
	size_t bytes;
} id_buffer;

static bool fit(id_buffer *b, int count, size_t size)
{
	size_t bytes = (size_t)(count > 0 ? count : 1) * size;
	if (bytes <= b->bytes) return true;
	void *grown = realloc(b->ids, bytes);
	if (grown == NULL) return false;
	b->ids = grown;
	b->bytes = bytes;
	return true;
}

/* Largest joint separation and limit overshoot (radians) over the world's joints now. */
static void joint_errors(sinew_world_id world, id_buffer *buffer, double *separation, double *limit)
{
	int count = sinew_world_get_counters(world).joint_count;
	if (!fit(buffer, count, sizeof(sinew_joint_id))) return;
	sinew_joint_id *joints = buffer->ids;
	int n = sinew_world_get_joints(world, joints, count);
	for (int i = 0; i < n; ++i) {
		double e = sinew_joint_get_linear_error(joints[i]), l = sinew_joint_get_limit_violation(joints[i]);
		if (!(e <= *separation)) *separation = e; /* NaN wins: a blown-up joint must show */
		if (!(l <= *limit)) *limit = l;
	}
}

static double energy(const sinew_scene *scene, id_buffer *buffer)
{
	sinew_world_id world = sinew_scene_get_world(scene);
	sinew_vec2 g = sinew_world_get_gravity(world);
	double e = 0.0;
	int count = sinew_world_get_counters(world).body_count;
	if (!fit(buffer, count, sizeof(sinew_body_id))) return NAN;
	sinew_body_id *bodies = buffer->ids;
	int n = sinew_world_get_bodies(world, bodies, count);
	for (int i = 0; i < n; ++i) {
		sinew_body_id b = bodies[i];
		if (sinew_body_get_type(b) != SINEW_DYNAMIC_BODY) continue;
		double m = sinew_body_get_mass(b), inertia = sinew_body_get_rotational_inertia(b);
		sinew_vec2 v = sinew_body_get_linear_velocity(b), c = sinew_body_get_world_center(b);
		double w = sinew_body_get_angular_velocity(b), gs = sinew_body_get_gravity_scale(b);
		e += 0.5 * m * ((double)v.x * v.x + (double)v.y * v.y) + 0.5 * inertia * w * w;
		e -= m * gs * ((double)g.x * c.x + (double)g.y * c.y);
	}
	return e;
}

/* Runs the scene once. Fills the row's counters and quality; returns the mean ms/step of steps
 * 1..N-1 (their mean CPU ms/step in *cpu_ms), or a negative number when the scene cannot be loaded. */
static double run_once(const char *file, int steps_option, bench_row *row, double *cpu_ms)
{
	char error[1024];
	sinew_scene *scene = sinew_scene_load_file(file, error, sizeof error);
	if (scene == NULL) {
		fprintf(stderr, "%s\n", error);
		return -1.0;
	}
	int steps = steps_option >= 0 ? steps_option : sinew_scene_get_default_steps(scene);
	int body_count = sinew_scene_get_body_count(scene);
	sinew_world_id world = sinew_scene_get_world(scene);
	/* scenes with joints (from the file or spawned later) report separation; found after the run */
	row->kind = strstr(sinew_scene_get_name(scene), "pyramid") != NULL ? QUALITY_DRIFT : QUALITY_ENERGY;
	sinew_vec2 *start = NULL;
	id_buffer buffer = {NULL, 0};
	double energy_start = 0.0, separation = 0.0, limit = 0.0;
	bool had_joints = false;
	if (row->kind == QUALITY_DRIFT) {
		start = malloc(sizeof *start * (size_t)(body_count > 0 ? body_count : 1));
		if (start == NULL) {
			sinew_scene_destroy(scene);
			return -1.0;
		}
		for (int i = 0; i < body_count; ++i) start[i] = sinew_body_get_position(sinew_scene_get_body(scene, i));
	} else {
		energy_start = energy(scene, &buffer);
	}
	double timed = 0.0, cpu = 0.0;
	for (int i = 0; i < steps; ++i) {
		double t0 = sinew_scene_get_world_step_seconds(scene), c0 = sinew_scene_get_world_step_cpu_seconds(scene);
		sinew_scene_step(scene);
		if (i > 0) {
			timed += sinew_scene_get_world_step_seconds(scene) - t0;
			cpu += sinew_scene_get_world_step_cpu_seconds(scene) - c0;
		}
		if (sinew_world_get_counters(world).joint_count > 0) {
			had_joints = true;
			joint_errors(world, &buffer, &separation, &limit);
		}
	}
	if (had_joints) row->kind = QUALITY_SEPARATION;
	/* separations and drifts in metres, whatever the scene's length unit */
	double metres = 1.0 / (double)sinew_world_get_length_units_per_meter(world);
	row->limit_degrees = 180.0 / 3.14159265358979323846 * limit;
	switch (row->kind) {
	case QUALITY_SEPARATION: row->quality = separation * metres; break;
	case QUALITY_DRIFT: {
		double drift = 0.0;
		for (int i = 0; i < body_count; ++i) {
			sinew_body_id b = sinew_scene_get_body(scene, i);
			if (!sinew_body_is_valid(b) || sinew_body_get_type(b) != SINEW_DYNAMIC_BODY) continue;
			sinew_vec2 p = sinew_body_get_position(b);
			double d = hypot((double)p.x - start[i].x, (double)p.y - start[i].y);
			if (!(d <= drift)) drift = d;
		}
		row->quality = drift * metres;
		break;
	}
	case QUALITY_ENERGY: {
		double e = energy(scene, &buffer);
		row->quality = fabs(energy_start) > 0.0 ? (e - energy_start) / fabs(energy_start) : e - energy_start;
		break;
	}
	}
	free(start);
	free(buffer.ids);
	sinew_counters c = sinew_world_get_counters(sinew_scene_get_world(scene));
	row->bodies = c.body_count;
	row->joints = c.joint_count;
	row->contacts = c.contact_count;
	row->awake = c.awake_body_count;
	row->steps = steps;
	row->errors = sinew_scene_get_error_count(scene);
	const char *name = sinew_scene_get_name(scene);
	size_t len = strlen(name);
	if (len > 5 && strcmp(name + len - 5, ".json") == 0) len -= 5;
	if (len >= sizeof row->scene) len = sizeof row->scene - 1;
	memcpy(row->scene, name, len);
	row->scene[len] = 0;
	sinew_scene_destroy(scene);
	*cpu_ms = steps > 1 ? 1000.0 * cpu / (steps - 1) : 0.0;
	return steps > 1 ? 1000.0 * timed / (steps - 1) : 0.0;
}

static void format_quality(char *out, size_t size, const bench_row *r)
{
	if (r->kind == QUALITY_ENERGY) {
		snprintf(out, size, "%s %+.3g%%", quality_short[r->kind], 100.0 * r->quality);
	} else if (r->kind == QUALITY_SEPARATION) {
		snprintf(out, size, "%s %.3g m, limit %.3g deg", quality_short[r->kind], r->quality, r->limit_degrees);
	} else {
		snprintf(out, size, "%s %.3g m", quality_short[r->kind], r->quality);
	}
}

static void print_table(const bench_row *rows, int n)
{
	printf("%-16s %8s %7s %9s %6s %14s %11s %10s %7s  %s\n", "scene", "bodies", "joints", "contacts", "steps",
	       "ms/step median", "ms/step min", "cpu median", "cpu min", "quality");
	for (int i = 0; i < n; ++i) {
		char q[64];
		format_quality(q, sizeof q, &rows[i]);
		printf("%-16s %8d %7d %9d %6d %14.3f %11.3f %10.3f %7.3f  %s\n", rows[i].scene, rows[i].bodies,
		       rows[i].joints, rows[i].contacts, rows[i].steps, rows[i].ms_median, rows[i].ms_min, rows[i].cpu_median,
		       rows[i].cpu_min, q);
	}
}

static void json_number(FILE *f, double x)
{
	if (isfinite(x)) {
		fprintf(f, "%.9g", x);
	} else {
		fprintf(f, "null");
	}
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s != 0; ++s) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\') {
			fprintf(f, "\\%c", ch);
		} else if (ch < 0x20) {
			fprintf(f, "\\u%04x", ch);
		} else {
			fputc(ch, f);
		}
	}
	fputc('"', f);
}

static void cpu_model(char *out, size_t size)
{
	snprintf(out, size, "unknown");
	FILE *f = fopen("/proc/cpuinfo", "r");
	if (f == NULL) return;
	char line[512];
	while (fgets(line, sizeof line, f) != NULL) {
		if (strncmp(line, "model name", 10) != 0) continue;
		const char *v = strchr(line, ':');
		if (v == NULL) break;
		v += 1;
		while (*v == ' ' || *v == '\t') ++v;
		snprintf(out, size, "%s", v);
		out[strcspn(out, "\n")] = 0;
		break;
	}
	fclose(f);
}

static bool write_json(const char *path, const bench_row *rows, int n)
{
	FILE *f = fopen(path, "w");
	if (f == NULL) return false;
	char cpu[256];
	cpu_model(cpu, sizeof cpu);
	fprintf(f, "{\n  \"engine\": \"sinew\", \"version\": ");
	json_string(f, sinew_version());
	fprintf(f, ",\n  \"machine\": {\"cpu\": ");
	json_string(f, cpu);
#ifdef __VERSION__
	fprintf(f, ", \"compiler\": ");
	json_string(f, __VERSION__);
#endif
	fprintf(f, "},\n  \"method\": \"single thread; the world step of steps 1..N-1 timed with CLOCK_MONOTONIC (ms_per_step) and CLOCK_PROCESS_CPUTIME_ID "
	           "(cpu_ms_per_step) (step 0 builds caches; script ops are not timed); "
	           "ms/step per run = mean; median and min over the runs\",\n  \"rows\": [\n");
	for (int i = 0; i < n; ++i) {
		const bench_row *r = &rows[i];
		fprintf(f, "    {\"engine\": \"sinew\", \"scene\": ");
		json_string(f, r->scene);
		fprintf(f, ", \"file\": ");
		json_string(f, r->file);
		fprintf(f, ", \"bodies\": %d, \"joints\": %d, \"contacts\": %d, \"awake\": %d, \"steps\": %d, \"repeat\": %d, ",
		        r->bodies, r->joints, r->contacts, r->awake, r->steps, r->repeat);
		fprintf(f, "\"ms_per_step\": ");
		json_number(f, r->ms_median);
		fprintf(f, ", \"ms_per_step_min\": ");
		json_number(f, r->ms_min);
		fprintf(f, ", \"cpu_ms_per_step\": ");
		json_number(f, r->cpu_median);
		fprintf(f, ", \"cpu_ms_per_step_min\": ");
		json_number(f, r->cpu_min);
		fprintf(f, ", \"quality_kind\": \"%s\", \"quality\": ", quality_names[r->kind]);
		json_number(f, r->quality);
		if (r->kind == QUALITY_SEPARATION) {
			fprintf(f, ", \"limit_overshoot_deg\": ");
			json_number(f, r->limit_degrees);
		}
		fprintf(f, ", \"engine_errors\": %d}%s\n", r->errors, i + 1 < n ? "," : "");
	}
	fprintf(f, "  ]\n}\n");
	return fclose(f) == 0;
}

/* Whether FILE can be written (made, when missing, and removed again). */
static bool writable(const char *file)
{
	struct stat st;
	if (stat(file, &st) == 0) return !S_ISDIR(st.st_mode) && access(file, W_OK) == 0;
	FILE *f = fopen(file, "w");
	if (f == NULL) return false;
	fclose(f);
	remove(file);
	return true;
}

/* Every scene loads and the JSON file can be written; says what is wrong otherwise. */
static bool bench_arguments_ok(const char **files, int file_count, const char *json)
{
	bool ok = true;
	for (int s = 0; s < file_count; ++s) {
		char error[1024];
		sinew_scene *scene = sinew_scene_load_file(files[s], error, sizeof error);
		if (scene == NULL) {
			fprintf(stderr, "sinew bench: %s\n", error);
			ok = false;
		}
		sinew_scene_destroy(scene);
	}
	if (json != NULL && !writable(json)) {
		fprintf(stderr, "sinew bench: %s: cannot be written: %s\n", json, strerror(errno));
		ok = false;
	}
	return ok;
}

int bench_command(int argc, char **argv)
{
	int steps = -1, repeat = 3;
	const char *json = NULL;
	const char **files = calloc((size_t)argc + 1, sizeof *files);
	if (files == NULL) return BENCH_FAILED;
	int file_count = 0;
	for (int i = 1; i < argc; ++i) {
		const char *arg = argv[i];
		const char *value = NULL;
		if (strncmp(arg, "--", 2) == 0 && strchr(arg, '=') != NULL) {
			value = strchr(arg, '=') + 1;
		} else if (strcmp(arg, "--steps") == 0 || strcmp(arg, "--repeat") == 0 || strcmp(arg, "--json") == 0) {
			if (i + 1 >= argc) {
				free(files);
				return bench_usage("missing value of", arg);
			}
			value = argv[++i];
		}
		if (strncmp(arg, "--steps", 7) == 0 && (arg[7] == 0 || arg[7] == '=')) {
			steps = bench_count(value);
			if (steps < 2) {
				free(files);
				return bench_usage("--steps needs a whole number >= 2", value);
			}
		} else if (strncmp(arg, "--repeat", 8) == 0 && (arg[8] == 0 || arg[8] == '=')) {
			repeat = bench_count(value);
			if (repeat < 1) {
				free(files);
				return bench_usage("--repeat needs a whole number >= 1", value);
			}
		} else if (strncmp(arg, "--json", 6) == 0 && (arg[6] == 0 || arg[6] == '=')) {
			json = value;
			if (json == NULL || json[0] == 0) {
				free(files);
				return bench_usage("--json needs a file name", NULL);
			}
		} else if (arg[0] == '-' && arg[1] != 0) {
			free(files);
			return bench_usage("unknown option", arg);
		} else {
			files[file_count++] = arg;
		}
	}
	glob_t found = {0};
	bool globbed = false;
	if (file_count == 0) {
		if (glob(BENCH_DEFAULT_GLOB, 0, NULL, &found) != 0 || found.gl_pathc == 0) {
			free(files);
			globfree(&found);
			return bench_usage("no scenes given and none found at", BENCH_DEFAULT_GLOB);
		}
		globbed = true;
		free(files);
		files = calloc(found.gl_pathc, sizeof *files);
		if (files == NULL) return BENCH_FAILED;
		for (size_t i = 0; i < found.gl_pathc; ++i) files[file_count++] = found.gl_pathv[i];
	}
	/* Every argument is checked before the first run: a bad path must not cost the runs before it. */
	if (!bench_arguments_ok(files, file_count, json)) {
		free(files);
		if (globbed) globfree(&found);
		return BENCH_USAGE;
	}
	bench_row *rows = calloc((size_t)file_count, sizeof *rows);
	double *times = calloc((size_t)repeat, sizeof *times), *cpu_times = calloc((size_t)repeat, sizeof *cpu_times);
	int status = BENCH_RAN;
	if (rows == NULL || times == NULL || cpu_times == NULL) {
		status = BENCH_FAILED;
		file_count = 0;
	}
	int done = 0;
	for (int s = 0; s < file_count; ++s) {
		bench_row *row = &rows[done];
		row->file = files[s];
		row->repeat = repeat;
		bool loaded = true;
		for (int r = 0; r < repeat; ++r) {
			times[r] = run_once(files[s], steps, row, &cpu_times[r]);
			if (times[r] < 0.0) {
				loaded = false;
				break;
			}
		}
		if (!loaded) {
			status = BENCH_USAGE;
			continue;
		}
		qsort(times, (size_t)repeat, sizeof *times, compare_doubles);
		row->ms_min = times[0];
		row->ms_median = repeat % 2 ? times[repeat / 2] : 0.5 * (times[repeat / 2 - 1] + times[repeat / 2]);
		qsort(cpu_times, (size_t)repeat, sizeof *cpu_times, compare_doubles);
		row->cpu_min = cpu_times[0];
		row->cpu_median = repeat % 2 ? cpu_times[repeat / 2] : 0.5 * (cpu_times[repeat / 2 - 1] + cpu_times[repeat / 2]);
		if (row->errors > 0) {
			fprintf(stderr, "sinew bench: %s: the engine reported %d error(s)\n", row->file, row->errors);
			if (status == BENCH_RAN) status = BENCH_FAILED;
		}
		fprintf(stderr, "sinew bench: %s done (%d runs)\n", row->scene, repeat);
		done += 1;
	}
	if (done > 0) print_table(rows, done);
	if (json != NULL && !write_json(json, rows, done)) {
		fprintf(stderr, "sinew bench: %s: could not be written\n", json);
		status = BENCH_FAILED;
	}
	free(rows);
	free(times);
	free(cpu_times);
	free(files);
	if (globbed) globfree(&found);
	return status;
}
