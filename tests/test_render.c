/* Debug drawing and the rasteriser of `sinew render`: sinew_world_draw calls the callbacks the
 * expected number of times for known worlds, and a known world drawn through tools/raster.c has
 * the expected pixels (body colours inside shapes, white outside, a red line where a joint's
 * anchors were pulled apart, the limit arc of a revolute joint). */
#include "support.h"

#include "sinew/draw.h"

#include <math.h>
#include <string.h>

/* The rasteriser is part of the tool, not the library: build it into this test directly. */
#include "../tools/raster.c"

/* ---------------------------------------------------------------- counting callbacks */

typedef struct counts {
	int polygon, solid_polygon, circle, solid_circle, solid_capsule, segment, point, transform, string;
} counts;

static void count_polygon(const sinew_vec2 *v, int n, float radius, sinew_color c, void *ctx)
{
	(void)v, (void)n, (void)radius, (void)c;
	((counts *)ctx)->polygon++;
}
static void count_solid_polygon(const sinew_vec2 *v, int n, float radius, sinew_color f, sinew_color o, void *ctx)
{
	(void)v, (void)n, (void)radius, (void)f, (void)o;
	((counts *)ctx)->solid_polygon++;
}
static void count_circle(sinew_vec2 c, float radius, sinew_color color, void *ctx)
{
	(void)c, (void)radius, (void)color;
	((counts *)ctx)->circle++;
}
static void count_solid_circle(sinew_transform xf, float radius, sinew_color f, sinew_color o, void *ctx)
{
	(void)xf, (void)radius, (void)f, (void)o;
	((counts *)ctx)->solid_circle++;
}
static void count_solid_capsule(sinew_vec2 a, sinew_vec2 b, float radius, sinew_color f, sinew_color o, void *ctx)
{
	(void)a, (void)b, (void)radius, (void)f, (void)o;
	((counts *)ctx)->solid_capsule++;
}
static void count_segment(sinew_vec2 a, sinew_vec2 b, sinew_color c, void *ctx)
{
	(void)a, (void)b, (void)c;
	((counts *)ctx)->segment++;
}
static void count_point(sinew_vec2 p, float size, sinew_color c, void *ctx)
{
	(void)p, (void)size, (void)c;
	((counts *)ctx)->point++;
}
static void count_transform(sinew_transform xf, void *ctx)
{
	(void)xf;
	((counts *)ctx)->transform++;
}
static void count_string(sinew_vec2 p, const char *text, sinew_color c, void *ctx)
{
	(void)p, (void)text, (void)c;
	((counts *)ctx)->string++;
}

static sinew_debug_draw counting_draw(counts *c)
{
	memset(c, 0, sizeof *c);
	sinew_debug_draw d = sinew_default_debug_draw();
	d.draw_polygon = count_polygon;
	d.draw_solid_polygon = count_solid_polygon;
	d.draw_circle = count_circle;
	d.draw_solid_circle = count_solid_circle;
	d.draw_solid_capsule = count_solid_capsule;
	d.draw_segment = count_segment;
	d.draw_point = count_point;
	d.draw_transform = count_transform;
	d.draw_string = count_string;
	d.context = c;
	return d;
}

static sinew_body_id make_static_box(sinew_world_id world, float x, float y, float hx, float hy, bool sensor)
{
	sinew_body_def bd = sinew_default_body_def();
	bd.position = sinew_v2(x, y);
	sinew_body_id b = sinew_create_body(world, &bd);
	sinew_shape_def sd = sinew_default_shape_def();
	sd.is_sensor = sensor;
	sinew_polygon box = sinew_make_box(hx, hy);
	sinew_create_polygon_shape(b, &sd, &box);
	return b;
}

/* A revolute joint from the world at anchor to body, limited to [-0.5, 0.5] rad in the local frame. */
static sinew_joint_id make_limited_revolute(sinew_world_id world, sinew_body_id body, sinew_vec2 anchor)
{
	sinew_revolute_joint_def jd = sinew_default_revolute_joint_def();
	jd.base.body_b = body;
	jd.anchor = anchor;
	jd.limit.enabled = true;
	jd.limit.lower = -0.5f;
	jd.limit.upper = 0.5f;
	jd.limit.frame = SINEW_LIMIT_LOCAL;
	return sinew_create_revolute_joint(world, &jd);
}

/* static box, circle, capsule, a sensor box and a box hanging on a limited revolute joint */
static sinew_world_id make_zoo(error_recorder *rec)
{
	sinew_world_id world = make_world(rec);
	make_static_box(world, 0.0f, 0.0f, 2.0f, 0.5f, false);
	make_ball(world, 5.0f, 3.0f, 1.0f, 0.0f);
	sinew_body_def bd = sinew_default_body_def();
	bd.type = SINEW_DYNAMIC_BODY;
	bd.position = sinew_v2(-5.0f, 3.0f);
	sinew_body_id cap = sinew_create_body(world, &bd);
	sinew_shape_def sd = sinew_default_shape_def();
	sinew_capsule capsule = {{-0.5f, 0.0f}, {0.5f, 0.0f}, 0.25f};
	sinew_create_capsule_shape(cap, &sd, &capsule);
	make_static_box(world, 0.0f, 5.0f, 0.5f, 0.5f, true);
	sinew_body_id hanging = make_box(world, 8.0f, -1.0f, 0.5f, 0.5f, 1.0f, 0.6f);
	make_limited_revolute(world, hanging, sinew_v2(8.0f, 0.0f));
	return world;
}

static void callbacks_are_counted(void **state)
{
	(void)state;
	error_recorder rec;
	recorder_install(&rec);
	sinew_world_id world = make_zoo(&rec);
	counts c;
	sinew_debug_draw d = counting_draw(&c);
	sinew_world_draw(world, &d);
	assert_int_equal(c.solid_polygon, 2); /* ground, hanging box */
	assert_int_equal(c.polygon, 1);       /* the sensor: outlined only */
	assert_int_equal(c.solid_circle, 1);
	assert_int_equal(c.solid_capsule, 1);
	assert_int_equal(c.circle, 0);
	/* the joint: B's arm (A is the world, no arm), no gap; the arc: 2 spokes + 24 pieces + the
	 * current-angle line */
	assert_int_equal(c.segment, 1 + 2 + 24 + 1);
	assert_int_equal(c.point, 2);
	assert_int_equal(c.transform, 0);
	assert_int_equal(c.string, 0);

	d = counting_draw(&c);
	d.draw_joint_extras = false;
	d.draw_aabbs = true;
	d.draw_transforms = true;
	sinew_world_draw(world, &d);
	assert_int_equal(c.polygon, 1 + 5); /* the sensor and five boxes */
	assert_int_equal(c.segment, 1);
	assert_int_equal(c.transform, 5);

	/* only what overlaps the drawing bounds: the circle */
	d = counting_draw(&c);
	d.use_drawing_bounds = true;
	d.drawing_bounds = (sinew_aabb){{4.0f, 2.0f}, {6.0f, 4.0f}};
	sinew_world_draw(world, &d);
	assert_int_equal(c.solid_circle, 1);
	assert_int_equal(c.solid_polygon + c.polygon + c.solid_capsule + c.segment + c.point, 0);
	assert_int_equal(rec.count, 0);

	/* misuse is reported and draws nothing */
	sinew_world_draw(world, NULL);
	assert_int_equal(rec.count, 1);
	assert_int_equal(rec.last_code, SINEW_ERROR_INVALID_ARGUMENT);
	sinew_destroy_world(world);
	d = counting_draw(&c);
	sinew_world_draw(world, &d);
	assert_int_equal(rec.last_code, SINEW_ERROR_INVALID_ID);
	assert_int_equal(c.solid_polygon, 0);
	sinew_set_error_callback(NULL, NULL);
}

static void contacts_are_drawn(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	make_ground(world, 0.0f, 0.6f);
	make_box(world, 0.0f, 0.5f, 0.5f, 0.5f, 1.0f, 0.6f);
	step_n(world, 20);
	counts c;
	sinew_debug_draw d = counting_draw(&c);
	d.draw_shapes = false;
	d.draw_contacts = true;
	sinew_world_draw(world, &d);
	assert_int_equal(c.point, 2); /* a box resting flat: a two-point manifold */
	assert_int_equal(c.segment, 0);
	d = counting_draw(&c);
	d.draw_shapes = false;
	d.draw_contacts = true;
	d.draw_contact_normals = true;
	sinew_world_draw(world, &d);
	assert_int_equal(c.point, 2);
	assert_int_equal(c.segment, 2);
	sinew_destroy_world(world);
}

/* skip_disabled leaves a disabled body out (the tools use it so a ragdolled rig's proxies do not
 * ghost its figure); by default it is drawn, light grey. */
static void disabled_bodies_can_be_left_out(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	make_ground(world, 0.0f, 0.6f);
	sinew_body_id box = make_box(world, 0.0f, 3.0f, 0.5f, 0.5f, 1.0f, 0.6f);
	assert_true(sinew_body_disable(box));
	counts c;
	sinew_debug_draw d = counting_draw(&c);
	sinew_world_draw(world, &d);
	assert_int_equal(c.solid_polygon, 2);
	d = counting_draw(&c);
	d.skip_disabled = true;
	sinew_world_draw(world, &d);
	assert_int_equal(c.solid_polygon, 1); /* the ground only */
	sinew_destroy_world(world);
}

/* ---------------------------------------------------------------- pixels */

/* 0xRRGGBB of color at alpha a over white, as the rasteriser blends it. */
static unsigned over_white(sinew_color c, float a)
{
	float ch[3] = {c.r, c.g, c.b};
	unsigned out = 0;
	for (int k = 0; k < 3; ++k) out = out << 8 | (unsigned)(255.0f * (ch[k] * a + (1.0f - a)) + 0.5f);
	return out;
}

static bool near_color(unsigned got, unsigned want, int tol)
{
	for (int k = 0; k < 3; ++k) {
		int g = (int)(got >> (8 * k) & 255u), w = (int)(want >> (8 * k) & 255u);
		if (g - w > tol || w - g > tol) return false;
	}
	return true;
}

#define CHANNEL(c, k) ((int)((c) >> (16 - 8 * (k)) & 255u))

/* A 201 x 101 image, 10 px per metre, world origin at the image centre (pixel centre 100.5, 50.5). */
static void make_view(raster *r, float scale)
{
	assert_true(raster_init(r, 201, 101));
	r->scale = scale;
	r->center = sinew_v2(0.0f, 0.0f);
}

static void shapes_have_their_colours(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	make_static_box(world, 0.0f, 0.0f, 2.0f, 0.5f, false); /* pixels x 80..120, y 45..55 */
	sinew_body_id ball = make_ball(world, 5.0f, 3.0f, 1.0f, 0.0f); /* centre (150.5, 20.5), radius 10 px */
	raster r;
	make_view(&r, 10.0f);
	sinew_vec2 p = raster_to_pixel(&r, sinew_v2(5.0f, 3.0f));
	assert_float_near(p.x, 150.5f, 1e-4f);
	assert_float_near(p.y, 20.5f, 1e-4f); /* y up: a higher point is a smaller row */
	sinew_debug_draw d = raster_debug_draw(&r);
	sinew_world_draw(world, &d);

	sinew_color grey = sinew_debug_body_color(SINEW_STATIC_BODY, true, true);
	sinew_color orange = sinew_debug_body_color(SINEW_DYNAMIC_BODY, true, true);
	assert_true(near_color(raster_get_pixel(&r, 100, 50), over_white(grey, 0.5f), 2));   /* inside the box */
	assert_true(near_color(raster_get_pixel(&r, 147, 24), over_white(orange, 0.5f), 2)); /* inside the ball */
	assert_int_equal(raster_get_pixel(&r, 10, 90), 0xFFFFFFu);                             /* background */
	assert_int_equal(raster_get_pixel(&r, 100, 30), 0xFFFFFFu);                            /* above the box */
	assert_int_equal(raster_get_pixel(&r, 100, 60), 0xFFFFFFu);                            /* below it */
	/* the outline: opaque body colour on the box's top edge */
	assert_true(near_color(raster_get_pixel(&r, 100, 45), over_white(grey, 1.0f), 40));
	/* the radius line of the ball, along its x axis (angle 0): right of the centre, row 20 */
	assert_true(near_color(raster_get_pixel(&r, 155, 20), over_white(orange, 1.0f), 40));

	/* asleep: dimmer */
	assert_true(sinew_body_set_awake(ball, false));
	raster_clear(&r, (sinew_color){1.0f, 1.0f, 1.0f, 1.0f});
	sinew_world_draw(world, &d);
	sinew_color dim = sinew_debug_body_color(SINEW_DYNAMIC_BODY, false, true);
	assert_true(near_color(raster_get_pixel(&r, 147, 24), over_white(dim, 0.5f), 2));
	raster_free(&r);
	sinew_destroy_world(world);
}

static bool is_red(unsigned c) { return CHANNEL(c, 0) > 200 && CHANNEL(c, 1) < 120 && CHANNEL(c, 2) < 120; }
static bool is_violet(unsigned c) { return CHANNEL(c, 2) > CHANNEL(c, 1) + 40 && CHANNEL(c, 0) > CHANNEL(c, 1) + 20; }

static void joints_show_gaps_and_limits(void **state)
{
	(void)state;
	sinew_world_id world = make_world(NULL);
	sinew_world_set_gravity(world, sinew_v2(0.0f, 0.0f));
	sinew_body_id box = make_box(world, 0.0f, -1.0f, 0.25f, 0.25f, 1.0f, 0.6f);
	make_limited_revolute(world, box, sinew_v2(0.0f, 0.0f));
	raster r;
	make_view(&r, 100.0f); /* the arc radius is 0.25 m: 25 px around pixel (100.5, 50.5) */
	sinew_debug_draw d = raster_debug_draw(&r);
	sinew_world_draw(world, &d);
	/* the arc spans -0.5..0.5 rad around +x: present at 0.4 rad and -0.4 rad, absent at pi */
	for (int s = -1; s <= 1; s += 2) {
		float a = 0.4f * (float)s;
		sinew_vec2 p = raster_to_pixel(&r, sinew_v2(0.25f * cosf(a), 0.25f * sinf(a)));
		assert_true(is_violet(raster_get_pixel(&r, (int)p.x, (int)p.y)));
	}
	sinew_vec2 back = raster_to_pixel(&r, sinew_v2(-0.25f, 0.0f));
	assert_int_equal(raster_get_pixel(&r, (int)back.x, (int)back.y), 0xFFFFFFu);
	/* no gap yet: nothing red between the anchors and 0.6 m to the right */
	sinew_vec2 gap = raster_to_pixel(&r, sinew_v2(0.6f, 0.0f));
	assert_int_equal(raster_get_pixel(&r, (int)gap.x, (int)gap.y), 0xFFFFFFu);

	/* pull body B's anchor 0.8 m to the right: a red line from the world anchor to it */
	assert_true(sinew_body_set_position(box, sinew_v2(0.8f, -1.0f)));
	raster_clear(&r, (sinew_color){1.0f, 1.0f, 1.0f, 1.0f});
	sinew_world_draw(world, &d);
	assert_true(is_red(raster_get_pixel(&r, (int)gap.x, (int)gap.y)));
	/* body A is the world, so the arc stays put while body B moves */
	sinew_vec2 p = raster_to_pixel(&r, sinew_v2(0.25f * cosf(-0.4f), 0.25f * sinf(-0.4f)));
	assert_true(is_violet(raster_get_pixel(&r, (int)p.x, (int)p.y)));
	raster_free(&r);
	sinew_destroy_world(world);
}

static void pixel_worlds_are_not_flipped(void **state)
{
	(void)state;
	raster r;
	make_view(&r, 10.0f);
	r.y_down = true;
	sinew_vec2 p = raster_to_pixel(&r, sinew_v2(5.0f, 3.0f));
	assert_float_near(p.y, 80.5f, 1e-4f); /* y down: a larger y is a larger row */
	/* the font draws ink where its glyphs have it: the top row of "7" is full */
	raster_text(&r, 0, 0, "7", 2, (sinew_color){0.0f, 0.0f, 0.0f, 1.0f});
	assert_int_equal(raster_get_pixel(&r, 1, 1), 0x000000u);
	assert_int_equal(raster_get_pixel(&r, 5, 1), 0x000000u);
	assert_int_equal(raster_get_pixel(&r, 1, 5), 0xFFFFFFu);
	assert_int_equal(raster_text_width("123", 2), 22);
	raster_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(callbacks_are_counted),
		cmocka_unit_test(contacts_are_drawn),
		cmocka_unit_test(disabled_bodies_can_be_left_out),
		cmocka_unit_test(shapes_have_their_colours),
		cmocka_unit_test(joints_show_gaps_and_limits),
		cmocka_unit_test(pixel_worlds_are_not_flipped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
