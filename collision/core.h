/* Internal: allocation wrapper over the user's hooks, internal asserts, error reporting helpers.
 * Every sinew source file includes this first. Not a public header. */
#ifndef SINEW_CORE_H
#define SINEW_CORE_H

#include "sinew/base.h"
#include "sinew/math.h"

#include <setjmp.h>
#include <stdarg.h>

/* Where collision-layer reports go during a world operation (see sinew_error_scope below). */
typedef struct sinew_error_scope_state_ {
	sinew_error_fn *fn;
	void *context;
	bool active;
} sinew_error_scope_state_;

/* stb_ds allocates through our hooks (see core.c for the implementation unit). */
void *sinew_stbds_realloc(void *pointer, size_t size);
void sinew_stbds_free(void *pointer);
#define STBDS_REALLOC(context, pointer, size) ((void)(context), sinew_stbds_realloc((pointer), (size)))
#define STBDS_FREE(context, pointer) ((void)(context), sinew_stbds_free(pointer))
#define STBDS_NO_SHORT_NAMES
#include "stb_ds.h"

/* Out of memory inside stb_ds growth (issue 15). stb_ds does not check its allocations, so its
 * realloc hook never returns NULL: it jumps back to the innermost guard, set up by a public entry
 * point that may grow an array (sinew_world_step, body/shape/joint creation and the like). The
 * array keeps its old block (a failed realloc frees nothing), so the world can still be
 * destroyed; the entry point marks the world out of memory and every later change is refused.
 * Used as
 *     sinew_oom_guard guard;
 *     sinew_oom_enter(&guard);
 *     if (setjmp(guard.jump) != 0) return <report>, failure;  (the guard is already left)
 *     ... work ...
 *     sinew_oom_leave(&guard);
 * With no guard active, a failed growth reports OUT_OF_MEMORY and aborts: every path that grows
 * an stb_ds array is meant to run under one. */
typedef struct sinew_oom_guard {
	jmp_buf jump;
	struct sinew_oom_guard *outer;
	sinew_error_scope_state_ scope; /* the error routing at entry, restored by the jump */
} sinew_oom_guard;
void sinew_oom_enter(sinew_oom_guard *guard);
void sinew_oom_leave(sinew_oom_guard *guard);
/* Jump to the innermost guard (or report and abort when there is none). */
#if defined(__GNUC__)
__attribute__((noreturn))
#endif
void sinew_oom_fail(const char *what);
/* Grow an stb_ds array's capacity to at least count elements; false (nothing changed) when the
 * allocation fails. Pushes within that capacity then cannot allocate. */
bool sinew_reserve_(void **array, size_t element_size, size_t count);
#define SINEW_RESERVE(array, count) sinew_reserve_((void **)&(array), sizeof *(array), (size_t)(count))

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
typedef sinew_error_scope_state_ sinew_error_scope;
sinew_error_scope sinew_error_scope_enter(sinew_error_fn *fn, void *context);
void sinew_error_scope_leave(sinew_error_scope previous);

/* A public entry point given NULL where it needs a pointer: reports INVALID_ARGUMENT naming the
 * function and returns true (the caller then returns its failure value). Inline: the narrowphase
 * and tree queries check on every call, and the report is the rare path. */
void sinew_report_null(const char *fn);
static inline bool sinew_reject_null(bool is_null, const char *fn)
{
	if (is_null) sinew_report_null(fn);
	return is_null;
}

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
