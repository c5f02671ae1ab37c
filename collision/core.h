/* Internal: allocation wrapper over the user's hooks, internal asserts, error reporting helpers.
 * Every sinew source file includes this first. Not a public header. */
#ifndef SINEW_CORE_H
#define SINEW_CORE_H

#include "sinew/base.h"
#include "sinew/math.h"

#include <stdarg.h>

/* stb_ds allocates through our hooks (see core.c for the implementation unit). */
void *sinew_stbds_realloc(void *pointer, size_t size);
void sinew_stbds_free(void *pointer);
#define STBDS_REALLOC(context, pointer, size) ((void)(context), sinew_stbds_realloc((pointer), (size)))
#define STBDS_FREE(context, pointer) ((void)(context), sinew_stbds_free(pointer))
#define STBDS_NO_SHORT_NAMES
#include "stb_ds.h"

/** Allocate size bytes through the installed hooks (NULL only when out of memory). */
void *sinew_alloc(size_t size);
/** Allocate zeroed memory. */
void *sinew_alloc_zeroed(size_t size);
void *sinew_realloc(void *pointer, size_t size);
void sinew_free(void *pointer);

/** Number of allocations (alloc + growing realloc) made through the hooks since process start. */
uint64_t sinew_allocation_count(void);

/** Report an error through a callback (fn NULL: the process-wide one). printf-style message. */
void sinew_report(sinew_error_fn *fn, void *context, sinew_error code, const char *format, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 4, 5)))
#endif
	;
void sinew_vreport(sinew_error_fn *fn, void *context, sinew_error code, const char *format, va_list args);

/* Where reports with no callback of their own (the collision layer's, fn NULL) go while a world
 * operation runs: the world's callback instead of the process-wide one. Enter returns the scope
 * to restore; fn NULL means the process-wide callback. */
typedef struct sinew_error_scope {
	sinew_error_fn *fn;
	void *context;
	bool active;
} sinew_error_scope;
sinew_error_scope sinew_error_scope_enter(sinew_error_fn *fn, void *context);
void sinew_error_scope_leave(sinew_error_scope previous);

/* A public entry point given NULL where it needs a pointer: reports INVALID_ARGUMENT naming the
 * function and returns true (the caller then returns its failure value). */
bool sinew_reject_null(bool is_null, const char *fn);

int sinew_assert_failed(const char *condition, const char *file, int line);

#if !defined(NDEBUG) || defined(SINEW_ENABLE_ASSERT)
#define SINEW_ASSERT(c) ((c) ? (void)0 : (sinew_assert_failed(#c, __FILE__, __LINE__) ? __builtin_trap() : (void)0))
#else
#define SINEW_ASSERT(c) ((void)0)
#endif

#define SINEW_UNUSED(x) ((void)(x))
#define SINEW_FLT_EPSILON 1.1920929e-7f
#define SINEW_HUGE 100000.0f

#endif
