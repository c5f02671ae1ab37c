/* The benchmark human of docs/bench-scenes.md ("rain"): 11 capsules on 10 revolute joints with
 * local-frame limits, joint friction (a motor at speed 0) and a soft spring, in metres. */
#ifndef SINEW_TEST_HUMAN_H
#define SINEW_TEST_HUMAN_H

#include "sinew/sinew.h"

#define HUMAN_BODIES 11
#define HUMAN_JOINTS 10

typedef struct human {
	sinew_body_id bodies[HUMAN_BODIES];
	sinew_joint_id joints[HUMAN_JOINTS];
} human;

/* Build a human standing at `origin` (its feet) turned by `angle`, on collision layer `layer` (its
 * parts do not collide with that layer, so not with each other); knees and elbows start bent inside
 * their limits. */
void human_create(human *h, sinew_world_id world, sinew_vec2 origin, float angle, uint32_t layer);

#endif
