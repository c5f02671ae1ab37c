/* sinew: the command line tool. `sinew run SCENE` steps a scene file and prints a one-line
 * summary; `sinew check SCENE` only validates. Subcommands live in one table so bench, save and
 * render slot in as one row each. Exit status: 0 ran, 2 bad usage or bad scene, 1 anything else. */
#include "run_check.h"
#include "sinew/scene.h"

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EXIT_RAN = 0, EXIT_FAILED = 1, EXIT_USAGE = 2 };

typedef struct command {
	const char *name;
	int (*run)(int argc, char **argv); /* argv[0] is the command name */
	const char *usage;
	const char *summary;
	const char *options; /* every option, for `sinew COMMAND --help` */
} command;

/* What a scene file may make in all, templates' instances included (sinew_scene_limits). */
#define SCENE_CAP_HELP                                                                                                 \
	"  --max-bodies N            bodies a scene file may make in all (default 50000)\n"                                \
	"  --max-shapes N            shapes (default 100000)\n"                                                            \
	"  --max-joints N            joints (default 50000)\n"                                                             \
	"  --max-spawned-per-step N  bodies the spawn ops of one step may make (default 10000)\n"

static int run_command(int argc, char **argv);
static int check_command(int argc, char **argv);
int render_command(int argc, char **argv); /* tools/render.c */
int bench_command(int argc, char **argv); /* tools/bench.c */
int save_command(int argc, char **argv); /* tools/save.c */

static const command commands[] = {
	{"run", run_command, "run SCENE [--steps N] [--trace FILE] [--every K] [--hash] [--max-bodies N ...]",
	 "step a scene file and print a summary (and its state hash)",
	 "  --steps N     take N steps (default: the scene's world.steps)\n"
	 "  --trace FILE  write a JSON trace of the named bodies and the events\n"
	 "  --every K     keep every K-th step in the trace (default 1; the last step always)\n"
	 "  --hash        print a last line \"hash: <16 hex digits>\" of the final state\n"
	 SCENE_CAP_HELP},
	{"check", check_command, "check SCENE [--max-bodies N ...]", "validate a scene file without running it",
	 "  refuses everything `sinew run` would refuse when it loads the file, with the same caps:\n" SCENE_CAP_HELP},
	{"render", render_command,
	 "render SCENE --out FILE.png [--step N] [--frames A:B:K] [--size WxH] [--contacts] [--aabbs]",
	 "draw the world after N steps (or a contact sheet of steps) into a PNG",
	 "  --out FILE.png  the picture to write (PNG only; another extension is refused)\n"
	 "  --step N        draw the world after N steps (default: the scene's world.steps)\n"
	 "  --frames A:B:K  a contact sheet of steps A, A+K, ... <= B (at most 64 frames)\n"
	 "  --size WxH      image size in pixels, each 16..8192 (default 640x360; 960x540 for a sheet)\n"
	 "  --contacts      also draw contact points and normals\n"
	 "  --aabbs         also draw the shapes' bounding boxes\n"},
	{"bench", bench_command, "bench [SCENES...] [--steps N] [--repeat R] [--json FILE]",
	 "time scene files (default scenes/bench/*.json); docs/benchmarks.md",
	 "  --steps N     take N steps of each scene, N >= 2 (default: each scene's world.steps)\n"
	 "  --repeat R    run each scene R times, R >= 1 (default 3)\n"
	 "  --json FILE   also write the table as JSON to FILE\n"
	 "  Every scene is loaded and FILE checked before the first run.\n"},
	{"save", save_command, "save SCENE OUT.json [--steps N]",
	 "step a scene N times (default 0) and write its world as a scene file",
	 "  --steps N     take N steps before saving (default 0)\n"},
};
#define COMMAND_COUNT ((int)(sizeof commands / sizeof commands[0]))

static void print_usage(FILE *out)
{
	fprintf(out, "usage: sinew COMMAND [options]\n       sinew COMMAND --help\n       sinew --help | --version\n"
	             "\ncommands:\n");
	for (int i = 0; i < COMMAND_COUNT; ++i) fprintf(out, "  %s\n      %s\n", commands[i].usage, commands[i].summary);
	fprintf(out, "\n`sinew COMMAND --help` lists every option of a command.\n"
	             "exit status: 0 ran, 2 bad usage or bad scene, 1 anything else\n");
}

static void print_command_help(const command *c, FILE *out)
{
	fprintf(out, "usage: sinew %s\n\n%s\n\noptions:\n%s\nexit status: 0 ran, 2 bad usage or bad scene, 1 anything else\n",
	        c->usage, c->summary, c->options);
}

static bool asks_for_help(int argc, char **argv)
{
	for (int i = 1; i < argc; ++i) {
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return true;
	}
	return false;
}

static int usage_error(const char *command_name, const char *message, const char *arg)
{
	fprintf(stderr, "sinew %s: %s%s%s\n", command_name, message, arg != NULL ? ": " : "", arg != NULL ? arg : "");
	fprintf(stderr, "try: sinew %s --help\n", command_name);
	return EXIT_USAGE;
}

/* A whole non-negative decimal integer that fits an int, or -1. */
static int parse_count(const char *s)
{
	if (s == NULL || *s < '0' || *s > '9') return -1;
	char *end = NULL;
	long v = strtol(s, &end, 10);
	if (*end != 0 || v < 0 || v > 1000000000L) return -1;
	return (int)v;
}

typedef struct run_options {
	const char *scene;
	const char *trace;
	int steps; /* -1: the scene's default */
	int every;
	bool hash;
	sinew_scene_limits limits;
} run_options;

/* "--name value" or "--name=value": returns the value and advances *i, or NULL when missing. */
static const char *option_value(int argc, char **argv, int *i, const char *name)
{
	size_t n = strlen(name);
	if (strncmp(argv[*i], name, n) == 0 && argv[*i][n] == '=') return argv[*i] + n + 1;
	if (strcmp(argv[*i], name) != 0) return NULL;
	if (*i + 1 >= argc) return NULL;
	*i += 1;
	return argv[*i];
}

static bool is_option(const char *arg, const char *name)
{
	size_t n = strlen(name);
	return strncmp(arg, name, n) == 0 && (arg[n] == 0 || arg[n] == '=');
}

/* The scene caps (sinew_scene_limits) both run and check take. Returns 1 when argv[*i] is one
 * (and sets it), 0 when it is not, -1 after a usage error. */
static int parse_limit_option(int argc, char **argv, int *i, const char *command_name, sinew_scene_limits *l)
{
	static const struct {
		const char *name;
		size_t offset;
	} caps[] = {
		{"--max-bodies", offsetof(sinew_scene_limits, max_bodies)},
		{"--max-shapes", offsetof(sinew_scene_limits, max_shapes)},
		{"--max-joints", offsetof(sinew_scene_limits, max_joints)},
		{"--max-spawned-per-step", offsetof(sinew_scene_limits, max_spawned_per_step)},
	};
	for (size_t k = 0; k < sizeof caps / sizeof caps[0]; ++k) {
		if (!is_option(argv[*i], caps[k].name)) continue;
		int v = parse_count(option_value(argc, argv, i, caps[k].name));
		if (v < 0) {
			usage_error(command_name, "a scene cap needs a whole number >= 0", caps[k].name);
			return -1;
		}
		*(int *)((char *)l + caps[k].offset) = v;
		return 1;
	}
	return 0;
}

static int parse_run_options(int argc, char **argv, run_options *o)
{
	*o = (run_options){NULL, NULL, -1, 1, false, sinew_scene_default_limits()};
	for (int i = 1; i < argc; ++i) {
		const char *arg = argv[i];
		int cap = parse_limit_option(argc, argv, &i, "run", &o->limits);
		if (cap < 0) return EXIT_USAGE;
		if (cap > 0) continue;
		if (is_option(arg, "--steps")) {
			o->steps = parse_count(option_value(argc, argv, &i, "--steps"));
			if (o->steps < 0) return usage_error("run", "--steps needs a whole number >= 0", NULL);
		} else if (is_option(arg, "--every")) {
			o->every = parse_count(option_value(argc, argv, &i, "--every"));
			if (o->every < 1) return usage_error("run", "--every needs a whole number >= 1", NULL);
		} else if (is_option(arg, "--trace")) {
			o->trace = option_value(argc, argv, &i, "--trace");
			if (o->trace == NULL || o->trace[0] == 0) return usage_error("run", "--trace needs a file name", NULL);
		} else if (strcmp(arg, "--hash") == 0) {
			o->hash = true;
		} else if (arg[0] == '-' && arg[1] != 0) {
			return usage_error("run", "unknown option", arg);
		} else if (o->scene == NULL) {
			o->scene = arg;
		} else {
			return usage_error("run", "one scene at a time; extra argument", arg);
		}
	}
	if (o->scene == NULL) return usage_error("run", "no scene file given", NULL);
	return EXIT_RAN;
}

static int run_command(int argc, char **argv)
{
	run_options o;
	int status = parse_run_options(argc, argv, &o);
	if (status != EXIT_RAN) return status;
	char error[1024];
	sinew_scene *scene = sinew_scene_load_file_limited(o.scene, &o.limits, error, sizeof error);
	if (scene == NULL) {
		fprintf(stderr, "%s\n", error);
		return EXIT_USAGE;
	}
	int steps = o.steps >= 0 ? o.steps : sinew_scene_get_default_steps(scene);
	sinew_trace *trace = NULL;
	if (o.trace != NULL) {
		trace = sinew_trace_open(scene, o.trace, o.every, error, sizeof error);
		if (trace == NULL) {
			fprintf(stderr, "sinew run: %s\n", error);
			sinew_scene_destroy(scene);
			return EXIT_FAILED;
		}
	}
	bool trace_ok = true;
	for (int i = 0; i < steps; ++i) {
		sinew_scene_step(scene);
		if (trace != NULL) trace_ok = sinew_trace_record(trace) && trace_ok;
		if (!run_check_finite(scene, o.scene, i + 1, error, sizeof error)) { /* stop here */
			fprintf(stderr, "sinew run: %s\n", error);
			status = EXIT_FAILED;
			break;
		}
	}
	if (trace != NULL && (!sinew_trace_close(trace) || !trace_ok)) {
		fprintf(stderr, "sinew run: %s: the trace could not be written completely\n", o.trace);
		status = EXIT_FAILED;
	}
	sinew_world_id world = sinew_scene_get_world(scene);
	sinew_counters c = sinew_world_get_counters(world);
	double ms = steps > 0 ? 1000.0 * sinew_scene_get_world_step_seconds(scene) / steps : 0.0;
	printf("%s: %d steps, %d bodies, %d joints, %.3f ms/step, %d awake\n", sinew_scene_get_name(scene), steps,
	       c.body_count, c.joint_count, ms, c.awake_body_count);
	if (o.hash) printf("hash: %016" PRIx64 "\n", sinew_world_get_hash(world));
	if (sinew_scene_get_error_count(scene) > 0) {
		fprintf(stderr, "sinew run: %s: the engine reported %d error(s); the last, %s\n", o.scene,
		        sinew_scene_get_error_count(scene), sinew_scene_get_last_error(scene));
		status = EXIT_FAILED;
	}
	sinew_scene_destroy(scene);
	return status;
}

static int check_command(int argc, char **argv)
{
	sinew_scene_limits limits = sinew_scene_default_limits();
	const char *path = NULL;
	for (int i = 1; i < argc; ++i) {
		int cap = parse_limit_option(argc, argv, &i, "check", &limits);
		if (cap < 0) return EXIT_USAGE;
		if (cap > 0) continue;
		if (argv[i][0] == '-' || path != NULL) return usage_error("check", "expected exactly one scene file", argv[i]);
		path = argv[i];
	}
	if (path == NULL) return usage_error("check", "expected exactly one scene file", NULL);
	char error[1024];
	sinew_scene *scene = sinew_scene_load_file_limited(path, &limits, error, sizeof error);
	if (scene == NULL) {
		fprintf(stderr, "%s\n", error);
		return EXIT_USAGE;
	}
	sinew_scene_destroy(scene);
	return EXIT_RAN;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		print_usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
		print_usage(stdout);
		return EXIT_RAN;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("sinew %s\n", sinew_version());
		return EXIT_RAN;
	}
	for (int i = 0; i < COMMAND_COUNT; ++i) {
		if (strcmp(argv[1], commands[i].name) == 0) {
			if (asks_for_help(argc - 1, argv + 1)) {
				print_command_help(&commands[i], stdout);
				return EXIT_RAN;
			}
			int status = commands[i].run(argc - 1, argv + 1);
			if (fflush(stdout) != 0 && status == EXIT_RAN) status = EXIT_FAILED;
			return status;
		}
	}
	return usage_error(argv[1], "unknown command", NULL);
}
