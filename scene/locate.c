/* Where is a key? jansson keeps no positions per value, so when the loader reports a semantic
 * error it walks the (already valid) JSON text once more, building each value's key path as it
 * goes, until it meets the path it was asked for. This runs only on the error path; a load that
 * succeeds never pays for it. Columns count characters (UTF-8 code points), as jansson's do. */
#include "internal.h"

#include <stdio.h>
#include <string.h>

typedef struct locator {
	const char *s;
	int line, column; /* of s[0] */
	const char *target;
	bool found;
	int found_line, found_column;
} locator;

static void advance(locator *l)
{
	unsigned char c = (unsigned char)*l->s;
	if (c == 0) return;
	l->s += 1;
	if (c == '\n') {
		l->line += 1;
		l->column = 1;
	} else if ((c & 0xC0) != 0x80) {
		l->column += 1;
	}
	/* A UTF-8 continuation byte belongs to the character already counted. */
	while (((unsigned char)*l->s & 0xC0) == 0x80) l->s += 1;
}

static void skip_space(locator *l)
{
	while (*l->s == ' ' || *l->s == '\t' || *l->s == '\n' || *l->s == '\r') advance(l);
}

/* Copies the raw characters of a string (escapes left as written) into out, truncating. */
static void read_string(locator *l, char *out, size_t size)
{
	size_t n = 0;
	advance(l); /* opening quote */
	while (*l->s != 0 && *l->s != '"') {
		if (*l->s == '\\') {
			if (n + 1 < size) out[n++] = *l->s;
			advance(l);
		}
		if (*l->s != 0) {
			if (n + 1 < size) out[n++] = *l->s;
			advance(l);
		}
	}
	if (size > 0) out[n < size ? n : size - 1] = 0;
	advance(l); /* closing quote */
}

static void mark(locator *l, const char *path, int line, int column)
{
	if (!l->found && strcmp(path, l->target) == 0) {
		l->found = true;
		l->found_line = line;
		l->found_column = column;
	}
}

static void walk_value(locator *l, char *path);

static void walk_object(locator *l, char *path)
{
	size_t base = strlen(path);
	advance(l); /* { */
	skip_space(l);
	while (!l->found && *l->s == '"') {
		char key[SCENE_PATH_SIZE];
		int line = l->line, column = l->column;
		read_string(l, key, sizeof key);
		if (base == 0) snprintf(path, SCENE_PATH_SIZE, "%s", key);
		else snprintf(path + base, SCENE_PATH_SIZE - base, ".%s", key);
		mark(l, path, line, column);
		skip_space(l);
		advance(l); /* : */
		skip_space(l);
		walk_value(l, path);
		path[base] = 0;
		skip_space(l);
		if (*l->s == ',') advance(l);
		skip_space(l);
	}
	if (*l->s == '}') advance(l);
}

static void walk_array(locator *l, char *path)
{
	size_t base = strlen(path);
	size_t index = 0;
	advance(l); /* [ */
	skip_space(l);
	while (!l->found && *l->s != 0 && *l->s != ']') {
		snprintf(path + base, SCENE_PATH_SIZE - base, "[%zu]", index);
		mark(l, path, l->line, l->column);
		walk_value(l, path);
		path[base] = 0;
		index += 1;
		skip_space(l);
		if (*l->s == ',') advance(l);
		skip_space(l);
	}
	if (*l->s == ']') advance(l);
}

static void walk_value(locator *l, char *path)
{
	skip_space(l);
	if (*l->s == '{') {
		walk_object(l, path);
	} else if (*l->s == '[') {
		walk_array(l, path);
	} else if (*l->s == '"') {
		char scratch[8];
		read_string(l, scratch, sizeof scratch);
	} else {
		/* number, true, false, null */
		while (*l->s != 0 && strchr(",]} \t\r\n", *l->s) == NULL) advance(l);
	}
}

static bool try_locate(const char *text, const char *path, int *line, int *column)
{
	char current[SCENE_PATH_SIZE] = "";
	locator l = {text, 1, 1, path, false, 0, 0};
	skip_space(&l);
	mark(&l, current, l.line, l.column);
	walk_value(&l, current);
	if (!l.found) return false;
	*line = l.found_line;
	*column = l.found_column;
	return true;
}

void scene_locate(const char *text, const char *path, int *line, int *column)
{
	char target[SCENE_PATH_SIZE];
	snprintf(target, sizeof target, "%s", path);
	*line = 1;
	*column = 1;
	for (;;) {
		if (try_locate(text, target, line, column)) return;
		/* Not there (a missing key): fall back to the object or array that should hold it. */
		char *dot = strrchr(target, '.');
		char *bracket = strrchr(target, '[');
		char *cut = dot > bracket ? dot : bracket;
		if (cut == NULL) {
			if (target[0] == 0) return;
			target[0] = 0;
		} else {
			*cut = 0;
		}
	}
}
