/* Allocation hooks, error reporting, asserts, version; and the one stb_ds implementation unit. */
#define STB_DS_IMPLEMENTATION
#include "core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *default_alloc(size_t size, void *context)
{
	SINEW_UNUSED(context);
	return malloc(size);
}
static void *default_realloc(void *pointer, size_t size, void *context)
{
	SINEW_UNUSED(context);
	return realloc(pointer, size);
}
static void default_free(void *pointer, void *context)
{
	SINEW_UNUSED(context);
	free(pointer);
}

static sinew_allocator s_allocator = {default_alloc, default_realloc, default_free, NULL};
static uint64_t s_allocation_count;
static int64_t s_live_blocks;

const char *sinew_version(void)
{
	return "0.1.0";
}

bool sinew_set_allocator(const sinew_allocator *allocator)
{
	if (s_live_blocks != 0) {
		sinew_report(NULL, NULL, SINEW_ERROR_LOCKED,
		             "sinew_set_allocator: %lld blocks are still allocated (destroy every world first)",
		             (long long)s_live_blocks);
		return false;
	}
	if (allocator == NULL) {
		sinew_allocator d = {default_alloc, default_realloc, default_free, NULL};
		s_allocator = d;
		return true;
	}
	if (allocator->alloc == NULL || allocator->realloc == NULL || allocator->free == NULL) {
		sinew_report(NULL, NULL, SINEW_ERROR_INVALID_ARGUMENT,
		             "sinew_set_allocator: alloc, realloc and free must all be set");
		return false;
	}
	s_allocator = *allocator;
	return true;
}

void *sinew_alloc(size_t size)
{
	void *p = s_allocator.alloc(size == 0 ? 1 : size, s_allocator.context);
	if (p != NULL) {
		s_allocation_count += 1;
		s_live_blocks += 1;
	}
	return p;
}

void *sinew_alloc_zeroed(size_t size)
{
	void *p = sinew_alloc(size);
	if (p != NULL) memset(p, 0, size);
	return p;
}

void *sinew_realloc(void *pointer, size_t size)
{
	if (pointer == NULL) return sinew_alloc(size);
	if (size == 0) {
		sinew_free(pointer);
		return NULL;
	}
	void *p = s_allocator.realloc(pointer, size, s_allocator.context);
	if (p != NULL) s_allocation_count += 1;
	return p;
}

void sinew_free(void *pointer)
{
	if (pointer == NULL) return;
	s_live_blocks -= 1;
	s_allocator.free(pointer, s_allocator.context);
}

static sinew_oom_guard *s_oom_guard;
static sinew_error_scope s_scope;

void sinew_oom_enter(sinew_oom_guard *guard)
{
	guard->outer = s_oom_guard;
	guard->scope = s_scope;
	s_oom_guard = guard;
}

void sinew_oom_leave(sinew_oom_guard *guard)
{
	SINEW_ASSERT(s_oom_guard == guard);
	s_oom_guard = guard->outer;
}

void sinew_oom_fail(const char *what)
{
	sinew_oom_guard *guard = s_oom_guard;
	if (guard == NULL) {
		sinew_report(NULL, NULL, SINEW_ERROR_OUT_OF_MEMORY, "%s: out of memory outside any guarded call; stopping",
		             what);
		abort();
	}
	s_oom_guard = guard->outer;
	s_scope = guard->scope;
	longjmp(guard->jump, 1);
}

void *sinew_stbds_realloc(void *pointer, size_t size)
{
	void *p = sinew_realloc(pointer, size);
	if (p == NULL && size > 0) sinew_oom_fail("growing an array");
	return p;
}

bool sinew_reserve_(void **array, size_t element_size, size_t count)
{
	if (*array != NULL && stbds_arrcap(*array) >= count) return true;
	sinew_oom_guard guard;
	sinew_oom_enter(&guard);
	if (setjmp(guard.jump) != 0) return false;
	void *grown = stbds_arrgrowf(*array, element_size, 0, count);
	sinew_oom_leave(&guard);
	*array = grown;
	return true;
}

void sinew_stbds_free(void *pointer)
{
	sinew_free(pointer);
}

uint64_t sinew_allocation_count(void)
{
	return s_allocation_count;
}

static const char *const s_error_names[SINEW_ERROR_COUNT] = {
	"ok", "invalid_id", "invalid_argument", "not_finite", "locked", "out_of_memory", "capacity",
};

const char *sinew_error_name(sinew_error code)
{
	if ((int)code < 0 || code >= SINEW_ERROR_COUNT) return "unknown";
	return s_error_names[code];
}

static void default_error_fn(sinew_error code, const char *message, void *context)
{
	SINEW_UNUSED(context);
	fprintf(stderr, "sinew: %s: %s\n", sinew_error_name(code), message);
}

static sinew_error_fn *s_error_fn = default_error_fn;
static void *s_error_context;

void sinew_set_error_callback(sinew_error_fn *fn, void *context)
{
	s_error_fn = fn != NULL ? fn : default_error_fn;
	s_error_context = fn != NULL ? context : NULL;
}

/* Error callbacks running now. A call a handler makes may fail and report to the handler again
 * (so it sees the refusal); a failure two handlers deep goes to stderr instead, so a handler that
 * retries a refused call cannot recurse without end. */
static int s_report_depth;
sinew_error_scope sinew_error_scope_enter(sinew_error_fn *fn, void *context)
{
	sinew_error_scope previous = s_scope;
	s_scope.fn = fn;
	s_scope.context = context;
	s_scope.active = true;
	return previous;
}

void sinew_error_scope_leave(sinew_error_scope previous)
{
	s_scope = previous;
}

void sinew_vreport(sinew_error_fn *fn, void *context, sinew_error code, const char *format, va_list args)
{
	char message[512];
	vsnprintf(message, sizeof message, format, args);
	if (fn == NULL && s_scope.active) {
		fn = s_scope.fn;
		context = s_scope.context;
	}
	if (fn == NULL) {
		fn = s_error_fn;
		context = s_error_context;
	}
	if (s_report_depth >= 2) {
		fn = default_error_fn;
		context = NULL;
	}
	s_report_depth += 1;
	fn(code, message, context);
	s_report_depth -= 1;
}

void sinew_report(sinew_error_fn *fn, void *context, sinew_error code, const char *format, ...)
{
	va_list args;
	va_start(args, format);
	sinew_vreport(fn, context, code, format, args);
	va_end(args);
}

void sinew_report_null(const char *fn)
{
	sinew_report(NULL, NULL, SINEW_ERROR_INVALID_ARGUMENT, "%s: a required pointer argument is NULL", fn);
}

static int default_assert_fn(const char *condition, const char *file, int line)
{
	fprintf(stderr, "sinew: assertion failed: %s (%s:%d)\n", condition, file, line);
	return 1;
}

static sinew_assert_fn *s_assert_fn = default_assert_fn;

void sinew_set_assert_handler(sinew_assert_fn *fn)
{
	s_assert_fn = fn != NULL ? fn : default_assert_fn;
}

int sinew_assert_failed(const char *condition, const char *file, int line)
{
	return s_assert_fn(condition, file, line);
}
