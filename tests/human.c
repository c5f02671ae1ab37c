#include "human.h"

#include <string.h>

typedef struct part {
	float x, y;            /* body position, standing upright at the origin */
	float c1, c2, radius;  /* capsule centres along local y */
	int parent;            /* -1 for the hip */
	float px, py;          /* joint pivot */
	float lower, upper;    /* limit, units of pi */
	float reference;       /* reference angle, units of pi */
	float friction_scale;  /* joint friction */
	float damping;         /* linear damping */
	float bend;            /* starting bend at the joint, units of pi */
} part;

static const part s_parts[HUMAN_BODIES] = {
	{0.0f, 0.95f, -0.02f, 0.02f, 0.095f, -1, 0, 0, 0, 0, 0, 0, 0, 0},                        /* hip */
	{0.0f, 1.2f, -0.135f, 0.135f, 0.09f, 0, 0.0f, 1.0f, -0.25f, 0.0f, 0, 0.5f, 0, 0},        /* torso */
	{0.0f, 1.475f, -0.038f, 0.039f, 0.075f, 1, 0.0f, 1.4f, -0.3f, 0.1f, 0, 0.25f, 0.1f, 0},  /* head */
	{0.0f, 0.775f, -0.125f, 0.125f, 0.06f, 0, 0.0f, 0.9f, -0.05f, 0.4f, 0, 1.0f, 0, 0},      /* upper legs */
	{0.0f, 0.775f, -0.125f, 0.125f, 0.06f, 0, 0.0f, 0.9f, -0.05f, 0.4f, 0, 1.0f, 0, 0},
	{0.0f, 0.475f, -0.155f, 0.125f, 0.045f, 3, 0.0f, 0.625f, -0.5f, -0.02f, 0, 0.5f, 0, -0.1f}, /* lower legs */
	{0.0f, 0.475f, -0.155f, 0.125f, 0.045f, 4, 0.0f, 0.625f, -0.5f, -0.02f, 0, 0.5f, 0, -0.1f},
	{0.0f, 1.225f, -0.125f, 0.125f, 0.035f, 1, 0.0f, 1.35f, -0.1f, 0.8f, 0, 0.5f, 0, 0},     /* upper arms */
	{0.0f, 1.225f, -0.125f, 0.125f, 0.035f, 1, 0.0f, 1.35f, -0.1f, 0.8f, 0, 0.5f, 0, 0},
	{0.0f, 0.975f, -0.125f, 0.125f, 0.03f, 7, 0.0f, 1.1f, -0.2f, 0.3f, 0.25f, 0.1f, 0.1f, 0.25f}, /* lower arms */
	{0.0f, 0.975f, -0.125f, 0.125f, 0.03f, 8, 0.0f, 1.1f, -0.2f, 0.3f, 0.25f, 0.1f, 0.1f, 0.25f},
};

void human_create(human *h, sinew_world_id world, sinew_vec2 origin, float angle, uint32_t layer)
{
	memset(h, 0, sizeof *h);
	sinew_rot q = sinew_make_rot(angle);
	float part_angle[HUMAN_BODIES];
	sinew_vec2 part_pos[HUMAN_BODIES];
	for (int i = 0; i < HUMAN_BODIES; ++i) {
		const part *p = &s_parts[i];
		sinew_vec2 pos = sinew_v2(p->x, p->y);
		float a = 0.0f;
		if (p->bend != 0.0f) { /* turn the part about its pivot, and whatever hangs off it */
			float bend = p->bend * SINEW_PI;
			sinew_vec2 pivot = sinew_v2(p->px, p->py);
			pos = sinew_add(pivot, sinew_rotate(sinew_make_rot(bend), sinew_sub(pos, pivot)));
			a = bend;
		}
		part_pos[i] = pos;
		part_angle[i] = a;
		sinew_body_def bd = sinew_default_body_def();
		bd.type = SINEW_DYNAMIC_BODY;
		bd.position = sinew_add(origin, sinew_rotate(q, pos));
		bd.angle = angle + a;
		bd.linear_damping = p->damping;
		bd.sleep_threshold = 0.1f;
		h->bodies[i] = sinew_create_body(world, &bd);
		sinew_shape_def sd = sinew_default_shape_def();
		sd.friction = 0.2f;
		sd.layer = layer;
		sd.mask = ~layer;
		sinew_capsule c = {{0.0f, p->c1}, {0.0f, p->c2}, p->radius};
		sinew_create_capsule_shape(h->bodies[i], &sd, &c);
	}
	for (int i = 1; i < HUMAN_BODIES; ++i) {
		const part *p = &s_parts[i];
		sinew_revolute_joint_def jd = sinew_default_revolute_joint_def();
		jd.base.body_a = h->bodies[p->parent];
		jd.base.body_b = h->bodies[i];
		jd.anchor = sinew_add(origin, sinew_rotate(q, sinew_v2(p->px, p->py)));
		jd.use_reference_angle = true;
		jd.reference_angle = p->reference * SINEW_PI;
		jd.limit.enabled = true;
		jd.limit.lower = p->lower * SINEW_PI;
		jd.limit.upper = p->upper * SINEW_PI;
		jd.motor.enabled = true;
		jd.motor.speed = 0.0f;
		jd.motor.max_effort = 0.05f * p->friction_scale;
		jd.spring.enabled = true;
		jd.spring.hertz = 5.0f;
		jd.spring.damping_ratio = 0.5f;
		jd.spring.target = 0.0f;
		h->joints[i - 1] = sinew_create_revolute_joint(world, &jd);
		(void)part_angle;
		(void)part_pos;
	}
}
