/* Parsing helpers: typed, range-checked reads of one key, and the error message every check
 * writes: "FILE:LINE:COL: key.path: message", positioned by scene_locate. */
#include "internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const scene_body_type_names[] = {"static", "kinematic", "dynamic", NULL};

bool scene_fail(scene_parser *p, const char *path, const char *format, ...)
{
	char message[512];
	va_list args;
	va_start(args, format);
	vsnprintf(message, sizeof message, format, args);
	va_end(args);
	int line, column;
	scene_locate(p->text, path, &line, &column);
	if (p->error != NULL && p->error_size > 0) {
		if (path[0] != 0) snprintf(p->error, p->error_size, "%s:%d:%d: %s: %s", p->file, line, column, path, message);
		else snprintf(p->error, p->error_size, "%s:%d:%d: %s", p->file, line, column, message);
	}
	return false;
}

void scene_path_key(char *out, const char *parent, const char *key)
{
	if (parent[0] == 0) snprintf(out, SCENE_PATH_SIZE, "%s", key);
	else snprintf(out, SCENE_PATH_SIZE, "%s.%s", parent, key);
}

void scene_path_index(char *out, const char *parent, size_t index)
{
	snprintf(out, SCENE_PATH_SIZE, "%s[%zu]", parent, index);
}

void scene_path_in(char *out, const scene_desc *desc, const char *key, size_t index)
{
	if (desc->root[0] == 0) snprintf(out, SCENE_PATH_SIZE, "%s[%zu]", key, index);
	else snprintf(out, SCENE_PATH_SIZE, "%s.%s[%zu]", desc->root, key, index);
}

/* Edit distance, capped: enough to suggest "shapes" for "shapez". */
static int edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 40 || lb > 40) return 99;
	int row[41];
	for (size_t j = 0; j <= lb; ++j) row[j] = (int)j;
	for (size_t i = 1; i <= la; ++i) {
		int diagonal = row[0];
		row[0] = (int)i;
		for (size_t j = 1; j <= lb; ++j) {
			int above = row[j];
			int best = diagonal + (a[i - 1] != b[j - 1]);
			if (above + 1 < best) best = above + 1;
			if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
			row[j] = best;
			diagonal = above;
		}
	}
	return row[lb];
}

bool scene_check_keys(scene_parser *p, json_t *obj, const char *path, const char *const *known)
{
	const char *key;
	json_t *value;
	json_object_foreach(obj, key, value) {
		(void)value;
		if (strcmp(key, "x") == 0) continue;
		bool ok = false;
		for (int i = 0; known[i] != NULL && !ok; ++i) ok = strcmp(key, known[i]) == 0;
		if (ok) continue;
		/* Only an unknown key pays for the edit distances (a scene has hundreds of thousands of keys). */
		const char *suggestion = NULL;
		int best = 3;
		for (int i = 0; known[i] != NULL; ++i) {
			int d = edit_distance(key, known[i]);
			if (d < best) {
				best = d;
				suggestion = known[i];
			}
		}
		char child[SCENE_PATH_SIZE];
		scene_path_key(child, path, key);
		if (suggestion != NULL) return scene_fail(p, child, "unknown key (did you mean \"%s\"?)", suggestion);
		return scene_fail(p, child, "unknown key");
	}
	return true;
}

bool scene_require(scene_parser *p, json_t *obj, const char *path, const char *key)
{
	if (json_object_get(obj, key) != NULL) return true;
	char child[SCENE_PATH_SIZE];
	scene_path_key(child, path, key);
	return scene_fail(p, child, "required key is missing");
}

bool scene_expect_object(scene_parser *p, json_t *value, const char *path)
{
	if (json_is_object(value)) return true;
	return scene_fail(p, path, "expected an object");
}

static bool to_float(scene_parser *p, json_t *value, const char *path, scene_range range, float *out)
{
	static const char *const expected[] = {"expected a number", "expected a positive number",
	                                       "expected a number >= 0", "expected a number from 0 to 1"};
	if (!json_is_number(value)) return scene_fail(p, path, "%s", expected[range]);
	double d = json_number_value(value);
	float f = (float)d;
	if (!isfinite(f)) return scene_fail(p, path, "number out of range");
	if ((range == SCENE_POSITIVE && !(f > 0.0f)) || (range == SCENE_NON_NEGATIVE && !(f >= 0.0f)) ||
	    (range == SCENE_UNIT && !(f >= 0.0f && f <= 1.0f))) {
		return scene_fail(p, path, "%s", expected[range]);
	}
	*out = f;
	return true;
}

bool scene_get_number(scene_parser *p, json_t *obj, const char *path, const char *key, scene_range range,
                      float *out)
{
	json_t *value = json_object_get(obj, key);
	if (value == NULL) return true;
	char child[SCENE_PATH_SIZE];
	scene_path_key(child, path, key);
	return to_float(p, value, child, range, out);
}

bool scene_get_degrees(scene_parser *p, json_t *obj, const char *path, const char *key, float *out)
{
	json_t *value = json_object_get(obj, key);
	if (value == NULL) return true;
	char child[SCENE_PATH_SIZE];
	scene_path_key(child, path, key);
	if (!json_is_number(value)) return scene_fail(p, child, "expected a number (degrees)");
	/* Convert in double so 90 becomes the float nearest pi/2, not a product of two roundings. */
	double radians = json_number_value(value) * (3.14159265358979323846 / 180.0);
	float f = (float)radians;
	if (!isfinite(f)) return scene_fail(p, child, "number out of range");
	*out = f;
	return true;
}

bool scene_get_int(scene_parser *p, json_t *obj, const char *path, const char *key, int lo, int hi, int *out)
{
	json_t *value = json_object_get(obj, key);
	if (value == NULL) return true;
	char child[SCENE_PATH_SIZE];
	scene_path_key(child, path, key);
	if (!json_is_integer(value)) return scene_fail(p, child, "expected an integer");
	json_int_t i = json_integer_value(value);
	if (i < lo || i > hi) return scene_fail(p, child, "expected an integer from %d to %d", lo, hi);
	*out = (int)i;
	return true;
}

bool scene_get_uint32(scene_parser *p, json_t *obj, const char *path, const char *key, uint32_t *out)
{
	json_t *value = json_object_get(obj, key);
	if (value == NULL) return true;
	char child[SCENE_PATH_SIZE];
	scene_path_key(child, path, key);
	if (!json_is_integer(value) || json_integer_value(value) < 0 || json_integer_value(value) > 0xFFFFFFFFLL) {
		return scene_fail(p, child, "expected an unsigned 32-bit integer (0 to 4294967295)");
	}
	*out = (uint32_t)json_integer_value(value);
	return true;
}

bool scene_get_bool(scene_parser *p, json_t *obj, const char *path, const char *key, bool *out)
{
	json_t *value = json_object_get(obj, key);
	if (value == NULL) return true;
	char child[SCENE_PATH_SIZE];
	scene_path_key(child, path, key);
	if (!json_is_boolean(value)) return scene_fail(p, child, "expected true or false");
	*out = json_is_true(value);
	return true;
}

bool scene_point(scene_parser *p, json_t *value, const char *path, sinew_vec2 *out)
{
	if (!json_is_array(value) || json_array_size(value) != 2 || !json_is_number(json_array_get(value, 0)) ||
	    !json_is_number(json_array_get(value, 1))) {
		return scene_fail(p, path, "expected an array of 2 numbers [x, y]");
	}
	sinew_vec2 v = {(float)json_number_value(json_array_get(value, 0)),
	                (float)json_number_value(json_array_get(value, 1))};
	if (!sinew_vec2_is_valid(v)) return scene_fail(p, path, "number out of range");
	*out = v;
	return true;
}

bool scene_get_vec2(scene_parser *p, json_t *obj, const char *path, const char *key, sinew_vec2 *out)
{
	json_t *value = json_object_get(obj, key);
	if (value == NULL) return true;
	char child[SCENE_PATH_SIZE];
	scene_path_key(child, path, key);
	return scene_point(p, value, child, out);
}

bool scene_get_string(scene_parser *p, json_t *obj, const char *path, const char *key, const char **out)
{
	json_t *value = json_object_get(obj, key);
	*out = NULL;
	if (value == NULL) return true;
	char child[SCENE_PATH_SIZE];
	scene_path_key(child, path, key);
	if (!json_is_string(value) || json_string_length(value) == 0) {
		return scene_fail(p, child, "expected a non-empty string");
	}
	if (strlen(json_string_value(value)) != json_string_length(value)) {
		return scene_fail(p, child, "a name may not contain \\u0000");
	}
	*out = json_string_value(value);
	return true;
}

bool scene_get_choice(scene_parser *p, json_t *obj, const char *path, const char *key,
                      const char *const *choices, int *out)
{
	json_t *value = json_object_get(obj, key);
	if (value == NULL) return true;
	char child[SCENE_PATH_SIZE];
	scene_path_key(child, path, key);
	if (json_is_string(value)) {
		for (int i = 0; choices[i] != NULL; ++i) {
			if (strcmp(json_string_value(value), choices[i]) == 0) {
				*out = i;
				return true;
			}
		}
	}
	char list[256] = "";
	for (int i = 0; choices[i] != NULL; ++i) {
		size_t n = strlen(list);
		snprintf(list + n, sizeof list - n, "%s\"%s\"", i == 0 ? "" : choices[i + 1] == NULL ? " or " : ", ",
		         choices[i]);
	}
	return scene_fail(p, child, "expected %s", list);
}

bool scene_get_array(scene_parser *p, json_t *obj, const char *path, const char *key, json_t **out)
{
	json_t *value = json_object_get(obj, key);
	*out = NULL;
	if (value == NULL) return true;
	char child[SCENE_PATH_SIZE];
	scene_path_key(child, path, key);
	if (!json_is_array(value)) return scene_fail(p, child, "expected an array");
	*out = value;
	return true;
}

char *scene_strdup(const char *s)
{
	if (s == NULL) return NULL;
	size_t n = strlen(s) + 1;
	char *copy = malloc(n);
	if (copy != NULL) memcpy(copy, s, n);
	return copy;
}
