/* sinew/base.h: version, allocator hooks, error reporting, assert hook.
 * Stands alone: includes only the C standard library. */
#ifndef SINEW_BASE_H
#define SINEW_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && defined(SINEW_BUILD_DLL)
#define SINEW_API __declspec(dllexport)
#elif defined(__GNUC__)
#define SINEW_API __attribute__((visibility("default")))
#else
#define SINEW_API
#endif

#define SINEW_VERSION_MAJOR 0
#define SINEW_VERSION_MINOR 1
#define SINEW_VERSION_PATCH 0

/** The library version as "major.minor.patch". */
SINEW_API const char *sinew_version(void);

/** Error codes passed to the error callback. SINEW_OK is never reported. */
typedef enum sinew_error {
	SINEW_OK = 0,
	SINEW_ERROR_INVALID_ID,       /**< stale or null handle (destroyed object, freed world) */
	SINEW_ERROR_INVALID_ARGUMENT, /**< argument out of its domain (negative radius, lower > upper, ...) */
	SINEW_ERROR_NOT_FINITE,       /**< NaN or infinite number given */
	SINEW_ERROR_LOCKED,           /**< the world is stepping; the call is not allowed now */
	SINEW_ERROR_OUT_OF_MEMORY,    /**< an allocation failed */
	SINEW_ERROR_CAPACITY,         /**< a fixed limit was reached (worlds, bodies per world) */
	SINEW_ERROR_COUNT
} sinew_error;

/** Short stable name of an error code, e.g. "invalid_id". */
SINEW_API const char *sinew_error_name(sinew_error code);

/** Error callback: a code and a plain-English message naming the function and the problem. */
typedef void sinew_error_fn(sinew_error code, const char *message, void *context);

/** Process-wide error callback, used for errors not tied to a world (and by worlds that set none).
 * NULL restores the default, which prints to stderr. */
SINEW_API void sinew_set_error_callback(sinew_error_fn *fn, void *context);

/** Allocation hooks. All memory sinew uses goes through these (stb_ds arrays included).
 * realloc(NULL, n) allocates; free(NULL) must be harmless. */
typedef struct sinew_allocator {
	void *(*alloc)(size_t size, void *context);
	void *(*realloc)(void *pointer, size_t size, void *context);
	void (*free)(void *pointer, void *context);
	void *context;
} sinew_allocator;

/** Install process-wide allocation hooks; NULL restores malloc/realloc/free. Call only while no
 * world exists (memory must be freed by the allocator that made it). Returns false otherwise. */
SINEW_API bool sinew_set_allocator(const sinew_allocator *allocator);

/** Internal invariant failure hook (SINEW_ASSERT, on in debug and test builds). Return nonzero to
 * abort. Never called for bad user input: that goes to the error callback. */
typedef int sinew_assert_fn(const char *condition, const char *file, int line);
SINEW_API void sinew_set_assert_handler(sinew_assert_fn *fn);

#ifdef __cplusplus
}
#endif
#endif
