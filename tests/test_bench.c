/* `sinew bench` on a tiny scene prints a well-formed table and writes valid JSON with the expected
 * keys; the peers of bench/peers/ build and run on a small scene when their packages are
 * installed (skipped with a message otherwise). Runs the built binary next to this test's
 * directory (build/sinew for build/tests/test_bench, build/san/sinew under SAN=1), from the repo
 * root as `make test` does. */
#include <jansson.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

static char sinew_path[PATH_MAX + 16];

static int find_sinew(void **state)
{
	(void)state;
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0) return -1;
	exe[n] = 0;
	char *slash = strrchr(exe, '/'); /* .../build/tests/test_bench */
	if (slash == NULL) return -1;
	*slash = 0;
	slash = strrchr(exe, '/');
	if (slash == NULL) return -1;
	*slash = 0;
	snprintf(sinew_path, sizeof sinew_path, "%s/sinew", exe);
	return access(sinew_path, X_OK) == 0 ? 0 : -1;
}

/* Runs a shell command; returns its stdout (malloc'd) and its exit status. */
static char *run(const char *command, int *status)
{
	FILE *p = popen(command, "r");
	if (p == NULL) return NULL;
	size_t cap = 4096, len = 0;
	char *out = malloc(cap);
	size_t got;
	while (out != NULL && (got = fread(out + len, 1, cap - len - 1, p)) > 0) {
		len += got;
		if (cap - len < 1024) {
			cap *= 2;
			out = realloc(out, cap);
		}
	}
	int rc = pclose(p);
	*status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
	if (out != NULL) out[len] = 0;
	return out;
}

static void bench_prints_table_and_json(void **state)
{
	(void)state;
	char json_path[] = "/tmp/sinew_test_bench_XXXXXX";
	int fd = mkstemp(json_path);
	assert_true(fd >= 0);
	close(fd);
	char command[PATH_MAX + 256];
	snprintf(command, sizeof command,
	         "%s bench scenes/stack10.json scenes/chain100.json --steps 20 --repeat 2 --json %s 2>/dev/null",
	         sinew_path, json_path);
	int status = -1;
	char *out = run(command, &status);
	assert_non_null(out);
	assert_int_equal(status, 0);

	/* The header and one row per scene, each with the same columns. */
	char *line = strtok(out, "\n");
	assert_non_null(line);
	assert_non_null(strstr(line, "scene"));
	assert_non_null(strstr(line, "bodies"));
	assert_non_null(strstr(line, "joints"));
	assert_non_null(strstr(line, "contacts"));
	assert_non_null(strstr(line, "steps"));
	assert_non_null(strstr(line, "ms/step median"));
	assert_non_null(strstr(line, "ms/step min"));
	assert_non_null(strstr(line, "cpu median"));
	assert_non_null(strstr(line, "cpu min"));
	assert_non_null(strstr(line, "quality"));
	const char *names[] = {"stack10", "chain100"};
	const char *quality[] = {"energy", "sep"};
	for (int i = 0; i < 2; ++i) {
		line = strtok(NULL, "\n");
		assert_non_null(line);
		char scene[64], kind[32];
		int bodies, joints, contacts, steps;
		double median, min, cpu_median, cpu_min, q;
		int fields = sscanf(line, "%63s %d %d %d %d %lf %lf %lf %lf %31s %lf", scene, &bodies, &joints, &contacts,
		                    &steps, &median, &min, &cpu_median, &cpu_min, kind, &q);
		assert_int_equal(fields, 11);
		assert_string_equal(scene, names[i]);
		assert_string_equal(kind, quality[i]);
		assert_int_equal(steps, 20);
		assert_true(median >= min && min > 0.0);
		assert_true(cpu_median >= cpu_min && cpu_min > 0.0);
	}
	assert_null(strtok(NULL, "\n"));
	free(out);

	json_error_t error;
	json_t *root = json_load_file(json_path, 0, &error);
	unlink(json_path);
	if (root == NULL) fail_msg("the --json file is not valid JSON: %d:%d: %s", error.line, error.column, error.text);
	json_t *rows = json_object_get(root, "rows");
	assert_true(json_is_array(rows));
	assert_int_equal(json_array_size(rows), 2);
	const char *keys[] = {"engine", "scene", "file", "bodies", "joints", "contacts", "steps", "repeat",
	                      "ms_per_step", "ms_per_step_min", "cpu_ms_per_step", "cpu_ms_per_step_min", "quality_kind", "quality"};
	for (size_t i = 0; i < 2; ++i) {
		json_t *row = json_array_get(rows, i);
		for (size_t k = 0; k < sizeof keys / sizeof keys[0]; ++k) {
			if (json_object_get(row, keys[k]) == NULL) fail_msg("rows[%zu] has no key \"%s\"", i, keys[k]);
		}
		assert_string_equal(json_string_value(json_object_get(row, "scene")), names[i]);
		assert_int_equal(json_integer_value(json_object_get(row, "steps")), 20);
		assert_int_equal(json_integer_value(json_object_get(row, "repeat")), 2);
	}
	assert_int_equal(json_integer_value(json_object_get(json_array_get(rows, 0), "bodies")), 11);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(rows, 1), "joints")), 100);
	assert_string_equal(json_string_value(json_object_get(json_array_get(rows, 1), "quality_kind")),
	                    "joint_separation");
	assert_true(json_is_object(json_object_get(root, "machine")));
	json_decref(root);
}

static void bench_refuses_bad_usage(void **state)
{
	(void)state;
	char command[PATH_MAX + 128];
	int status = -1;
	snprintf(command, sizeof command, "%s bench scenes/stack10.json --repeat 0 2>/dev/null", sinew_path);
	free(run(command, &status));
	assert_int_equal(status, 2);
	snprintf(command, sizeof command, "%s bench scenes/no_such_scene.json --repeat 1 2>/dev/null", sinew_path);
	free(run(command, &status));
	assert_int_equal(status, 2);
}

/* Builds one peer and runs it on stack10 for 20 steps: one line of JSON with the expected keys. */
static void check_peer(const char *engine, const char *header, const char *build)
{
	if (access(header, R_OK) != 0) {
		skip(); /* cmocka prints "[  SKIPPED ]"; say why first */
	}
	char exe[] = "/tmp/sinew_test_peer_XXXXXX";
	int fd = mkstemp(exe);
	assert_true(fd >= 0);
	close(fd);
	char command[1024];
	int status = -1;
	snprintf(command, sizeof command, "%s -o %s 2>&1", build, exe);
	char *out = run(command, &status);
	if (status != 0) fail_msg("the %s peer did not build: %s", engine, out != NULL ? out : "");
	free(out);
	snprintf(command, sizeof command, "%s scenes/stack10.json --steps 20 --repeat 1", exe);
	out = run(command, &status);
	unlink(exe);
	assert_non_null(out);
	assert_int_equal(status, 0);
	char *line = strstr(out, "{\"engine\""); /* Chipmunk prints a banner first */
	assert_non_null(line);
	json_error_t error;
	json_t *row = json_loads(line, JSON_DISABLE_EOF_CHECK, &error);
	if (row == NULL) fail_msg("not JSON: %s", line);
	const char *keys[] = {"engine", "scene", "bodies", "joints", "steps", "ms_per_step", "cpu_ms_per_step",
	                      "quality_kind", "quality"};
	for (size_t k = 0; k < sizeof keys / sizeof keys[0]; ++k) {
		if (json_object_get(row, keys[k]) == NULL) fail_msg("no key \"%s\" in %s", keys[k], line);
	}
	assert_string_equal(json_string_value(json_object_get(row, "engine")), engine);
	assert_string_equal(json_string_value(json_object_get(row, "scene")), "stack10");
	assert_int_equal(json_integer_value(json_object_get(row, "bodies")), 11);
	assert_int_equal(json_integer_value(json_object_get(row, "steps")), 20);
	json_decref(row);
	free(out);
}

static void box2d_peer_runs(void **state)
{
	(void)state;
	if (access("/usr/include/box2d/box2d.h", R_OK) != 0) {
		print_message("box2d_peer: skipped: libbox2d-dev is not installed (make bench-peers installs it)\n");
	}
	check_peer("box2d", "/usr/include/box2d/box2d.h",
	           "g++ -O1 -std=c++17 -Ibench/peers bench/peers/box2d_peer.cpp -lbox2d -ljansson");
}

static void chipmunk_peer_runs(void **state)
{
	(void)state;
	if (access("/usr/include/chipmunk/chipmunk.h", R_OK) != 0) {
		print_message("chipmunk_peer: skipped: libchipmunk-dev is not installed (make bench-peers installs it)\n");
	}
	check_peer("chipmunk", "/usr/include/chipmunk/chipmunk.h",
	           "cc -O1 -std=c11 -D_POSIX_C_SOURCE=200809L -Ibench/peers bench/peers/chipmunk_peer.c -lchipmunk "
	           "-ljansson -lm");
}

/* Box2D v3 is not a package: with BOX2D_V3 (a checkout) and BOX2D_V3_BUILD (its Release build
 * directory, as make bench-peers BOX2D_V3=DIR makes it) in the environment the peer is built
 * against them and run; otherwise skipped. */
static void box2d_v3_peer_runs(void **state)
{
	(void)state;
	const char *dir = getenv("BOX2D_V3"), *build = getenv("BOX2D_V3_BUILD");
	char header[PATH_MAX], command[3 * PATH_MAX];
	snprintf(header, sizeof header, "%s/include/box2d/box2d.h", dir != NULL ? dir : "/nonexistent");
	if (build == NULL || access(header, R_OK) != 0) {
		print_message("box2d_v3_peer: skipped: set BOX2D_V3 (a Box2D v3 checkout) and BOX2D_V3_BUILD (its build)\n");
		skip();
	}
	snprintf(command, sizeof command,
	         "cc -O1 -std=c17 -D_POSIX_C_SOURCE=200809L -Ibench/peers -I%s/include bench/peers/box2d_v3_peer.c "
	         "%s/src/libbox2d.a -ljansson -lm",
	         dir, build);
	check_peer("box2d_v3", header, command);
}

/* Every argument is checked before the first run, and the commands refuse what they cannot do. */
static void cli_checks_arguments_before_running(void **state)
{
	(void)state;
	char command[PATH_MAX + 256];
	int status = -1;
	/* a JSON file that cannot be written, and a directory given as a scene: refused before any run
	 * ("done" is what bench prints after a scene's runs) */
	snprintf(command, sizeof command, "%s bench scenes/stack10.json --repeat 1 --json /nonexistent/x.json 2>&1",
	         sinew_path);
	char *out = run(command, &status);
	assert_int_equal(status, 2);
	assert_non_null(strstr(out, "/nonexistent/x.json: cannot be written"));
	assert_null(strstr(out, "done"));
	free(out);
	snprintf(command, sizeof command, "%s bench scenes/stack10.json scenes --repeat 1 2>&1", sinew_path);
	out = run(command, &status);
	assert_int_equal(status, 2);
	assert_non_null(strstr(out, "scenes: is a directory"));
	assert_null(strstr(out, "done"));
	free(out);
	/* check refuses a directory, and what run would refuse (a step of 1e40 s) */
	snprintf(command, sizeof command, "%s check scenes 2>&1", sinew_path);
	out = run(command, &status);
	assert_int_equal(status, 2);
	assert_non_null(strstr(out, "is a directory"));
	free(out);
	char scene_path[] = "/tmp/sinew_test_hz_XXXXXX";
	int fd = mkstemp(scene_path);
	assert_true(fd >= 0);
	const char *text = "{\"sinew_scene\": 1, \"world\": {\"hz\": 1e-40}}";
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	snprintf(command, sizeof command, "%s check %s 2>&1", sinew_path, scene_path);
	out = run(command, &status);
	assert_int_equal(status, 2);
	assert_non_null(strstr(out, "world.hz"));
	free(out);
	unlink(scene_path);
	/* render writes PNG only: another extension is refused, nothing is written */
	snprintf(command, sizeof command, "%s render scenes/stack10.json --out /tmp/sinew_test_render.jpg 2>&1",
	         sinew_path);
	out = run(command, &status);
	assert_int_equal(status, 2);
	assert_int_not_equal(access("/tmp/sinew_test_render.jpg", F_OK), 0);
	free(out);
}

/* `sinew COMMAND --help` lists every option the command accepts. */
static void every_command_lists_every_option(void **state)
{
	(void)state;
	static const char *const options[][8] = {
	    {"run", "--steps", "--trace", "--every", "--hash", NULL},
	    {"check", NULL},
	    {"render", "--out", "--step", "--frames", "--size", "--contacts", "--aabbs", NULL},
	    {"bench", "--steps", "--repeat", "--json", NULL},
	    {"save", "--steps", NULL},
	};
	for (size_t c = 0; c < sizeof options / sizeof options[0]; ++c) {
		char command[PATH_MAX + 64];
		snprintf(command, sizeof command, "%s %s --help", sinew_path, options[c][0]);
		int status = -1;
		char *out = run(command, &status);
		assert_int_equal(status, 0);
		for (int k = 1; options[c][k] != NULL; ++k) {
			if (strstr(out, options[c][k]) == NULL) fail_msg("sinew %s --help lacks %s", options[c][0], options[c][k]);
		}
		free(out);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bench_prints_table_and_json),
		cmocka_unit_test(bench_refuses_bad_usage),
		cmocka_unit_test(cli_checks_arguments_before_running),
		cmocka_unit_test(every_command_lists_every_option),
		cmocka_unit_test(box2d_peer_runs),
		cmocka_unit_test(chipmunk_peer_runs),
		cmocka_unit_test(box2d_v3_peer_runs),
	};
	return cmocka_run_group_tests(tests, find_sinew, NULL);
}
