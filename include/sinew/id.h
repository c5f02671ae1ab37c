/* sinew/id.h: value handles. A handle is a 1-based slot index plus a generation, so a handle to a
 * destroyed object is detected (never dereferenced). The zeroed handle is null. Stands alone.
 *
 * Generations are 32 bits and never repeat within a world slot: bodies, shapes and joints draw
 * theirs from one counter per world slot that survives the world, so a handle from a destroyed
 * world never names an object of a later world in the same slot, and a slot whose counter is
 * spent is retired rather than wrapped (docs/reliability.md). */
#ifndef SINEW_ID_H
#define SINEW_ID_H

#include <stdbool.h>
#include <stdint.h>

/** A world. */
typedef struct sinew_world_id {
	uint16_t index1;     /**< 1-based slot; 0 is null */
	uint16_t world0;     /**< index1 - 1 (0 when null): every handle has the fields SINEW_ID_EQUALS reads */
	uint32_t generation; /**< the slot's world count when this world was made */
} sinew_world_id;
/** A body in a world. */
typedef struct sinew_body_id { int32_t index1; uint32_t world0; uint32_t generation; } sinew_body_id;
/** A shape on a body. */
typedef struct sinew_shape_id { int32_t index1; uint32_t world0; uint32_t generation; } sinew_shape_id;
/** A joint between two bodies (or a body and the world). */
typedef struct sinew_joint_id { int32_t index1; uint32_t world0; uint32_t generation; } sinew_joint_id;

static const sinew_world_id sinew_null_world_id = {0, 0, 0};
static const sinew_body_id sinew_null_body_id = {0, 0, 0};
static const sinew_shape_id sinew_null_shape_id = {0, 0, 0};
static const sinew_joint_id sinew_null_joint_id = {0, 0, 0};

/** True for the null handle (says nothing about whether a non-null handle is still alive). */
#define SINEW_IS_NULL(id) ((id).index1 == 0)
/** Same handle (works for every handle type). */
#define SINEW_ID_EQUALS(a, b) ((a).index1 == (b).index1 && (a).world0 == (b).world0 && (a).generation == (b).generation)

#endif
