/* The viewer's controls (docs/viewer.md): keys, the mouse grab through a target joint, panning,
 * zooming, and the props dropped at the cursor. */
#include "view.h"

#include <stdio.h>

typedef struct pick {
	sinew_body_id body;
} pick;

static bool pick_dynamic(sinew_shape_id shape, void *context)
{
	pick *p = context;
	sinew_body_id b = sinew_shape_get_body(shape);
	if (sinew_body_get_type(b) != SINEW_DYNAMIC_BODY) return true;
	p->body = b;
	return false;
}

/* A dynamic body under the cursor grabbed by a target joint at the point clicked. Its force cap
 * is a multiple of the body's weight (at least of a 1 kg body's): strong enough to lift it and what
 * hangs on it, weak enough that pulling against a wall does not launch the world. */
static void grab_at(viewer *v, sinew_vec2 p)
{
	view_release(v);
	pick found = {sinew_null_body_id};
	sinew_world_overlap_point(v->world, p, NULL, pick_dynamic, &found);
	if (SINEW_IS_NULL(found.body)) return;
	float g = sinew_length(sinew_world_get_gravity(v->world));
	float lpm = sinew_world_get_length_units_per_meter(v->world);
	if (g <= 0.0f) g = 10.0f * lpm;
	sinew_target_joint_def d = sinew_default_target_joint_def();
	d.base.body_b = found.body;
	d.target = d.anchor = p;
	d.hertz = 5.0f;
	d.damping_ratio = 0.7f;
	d.max_force = 100.0f * sinew_maxf(sinew_body_get_mass(found.body), 1.0f) * g;
	v->grab = sinew_create_target_joint(v->world, &d);
}

void view_release(viewer *v)
{
	if (!SINEW_IS_NULL(v->grab) && sinew_joint_is_valid(v->grab)) sinew_destroy_joint(v->grab);
	v->grab = sinew_null_joint_id;
}

/* A prop a metre across (a box, a circle or a capsule) at the cursor. Its density is 1 kg per
 * square metre whatever the world's length units, so a prop weighs the same in a pixel world. */
static void drop_prop(viewer *v, int kind)
{
	float lpm = sinew_world_get_length_units_per_meter(v->world);
	sinew_body_def bd = sinew_default_body_def();
	bd.type = SINEW_DYNAMIC_BODY;
	bd.position = view_to_world(&v->camera, (float)v->mouse_x, (float)v->mouse_y);
	sinew_body_id body = sinew_create_body(v->world, &bd);
	sinew_shape_def sd = sinew_default_shape_def();
	sd.density = 1.0f / (lpm * lpm);
	float h = 0.5f * lpm;
	if (kind == 0) {
		sinew_polygon box = sinew_make_box(h, h);
		sinew_create_polygon_shape(body, &sd, &box);
	} else if (kind == 1) {
		sinew_circle circle = {{0.0f, 0.0f}, h};
		sinew_create_circle_shape(body, &sd, &circle);
	} else {
		sinew_capsule capsule = {{-0.5f * h, 0.0f}, {0.5f * h, 0.0f}, 0.5f * h};
		sinew_create_capsule_shape(body, &sd, &capsule);
	}
}

static void change_substeps(viewer *v, int delta)
{
	int n = sinew_scene_get_substeps(v->scene) + delta;
	if (!sinew_scene_set_substeps(v->scene, n)) return;
	char msg[64];
	snprintf(msg, sizeof msg, "SUBSTEPS %d", n);
	view_say(v, msg);
}

static void toggle(viewer *v, bool *flag, const char *what)
{
	*flag = !*flag;
	char msg[64];
	snprintf(msg, sizeof msg, "%s %s", what, *flag ? "ON" : "OFF");
	view_say(v, msg);
}

static void key_down(viewer *v, SDL_Keycode key)
{
	switch (key) {
	case SDLK_ESCAPE: v->quit = true; break;
	case SDLK_h: v->show_help = !v->show_help; break;
	case SDLK_SPACE: v->paused = !v->paused; break;
	case SDLK_PERIOD:
		v->paused = true;
		v->steps_pending += 1;
		break;
	case SDLK_BACKSPACE:
		if (view_reload(v)) view_say(v, "RESET");
		break;
	case SDLK_f: view_frame_scene(v); break;
	case SDLK_1: drop_prop(v, 0); break;
	case SDLK_2: drop_prop(v, 1); break;
	case SDLK_3: drop_prop(v, 2); break;
	case SDLK_r: view_toggle_ragdolls(v); break;
	case SDLK_t: view_toggle_joint_model(v); break;
	case SDLK_TAB: view_select_next_rig(v); break;
	case SDLK_p: view_cycle_power(v); break;
	case SDLK_LEFTBRACKET: view_change_influence(v, -0.1f); break;
	case SDLK_RIGHTBRACKET: view_change_influence(v, 0.1f); break;
	case SDLK_4: view_toggle_limb(v, SINEW_LIMB_LEFT_ARM); break;
	case SDLK_5: view_toggle_limb(v, SINEW_LIMB_RIGHT_ARM); break;
	case SDLK_6: view_toggle_limb(v, SINEW_LIMB_LEFT_LEG); break;
	case SDLK_7: view_toggle_limb(v, SINEW_LIMB_RIGHT_LEG); break;
	case SDLK_PLUS:
	case SDLK_EQUALS:
	case SDLK_KP_PLUS: change_substeps(v, 1); break;
	case SDLK_MINUS:
	case SDLK_KP_MINUS: change_substeps(v, -1); break;
	case SDLK_c: toggle(v, &v->show_contacts, "CONTACTS"); break;
	case SDLK_n: toggle(v, &v->show_normals, "NORMALS"); break;
	case SDLK_a: toggle(v, &v->show_aabbs, "AABBS"); break;
	case SDLK_j: toggle(v, &v->show_joint_extras, "LIMITS AND AXES"); break;
	default: break;
	}
}

static void mouse_motion(viewer *v, const SDL_MouseMotionEvent *m)
{
	v->mouse_x = m->x, v->mouse_y = m->y;
	if (v->panning) {
		float dy = (float)m->yrel / v->camera.scale;
		v->camera.center.x -= (float)m->xrel / v->camera.scale;
		v->camera.center.y += v->camera.y_down ? -dy : dy;
	}
	if (!SINEW_IS_NULL(v->grab) && sinew_joint_is_valid(v->grab))
		sinew_target_joint_set_target(v->grab, view_to_world(&v->camera, (float)m->x, (float)m->y));
}

void view_handle_event(viewer *v, const SDL_Event *e)
{
	switch (e->type) {
	case SDL_QUIT: v->quit = true; break;
	case SDL_KEYDOWN: key_down(v, e->key.keysym.sym); break;
	case SDL_MOUSEBUTTONDOWN:
		v->mouse_x = e->button.x, v->mouse_y = e->button.y;
		if (e->button.button == SDL_BUTTON_LEFT) grab_at(v, view_to_world(&v->camera, (float)e->button.x, (float)e->button.y));
		if (e->button.button == SDL_BUTTON_RIGHT) v->panning = true;
		break;
	case SDL_MOUSEBUTTONUP:
		if (e->button.button == SDL_BUTTON_LEFT) view_release(v);
		if (e->button.button == SDL_BUTTON_RIGHT) v->panning = false;
		break;
	case SDL_MOUSEMOTION: mouse_motion(v, &e->motion); break;
	case SDL_MOUSEWHEEL:
		if (e->wheel.y != 0) view_zoom_at(&v->camera, e->wheel.y > 0 ? 1.15f : 1.0f / 1.15f, (float)v->mouse_x, (float)v->mouse_y);
		break;
	case SDL_WINDOWEVENT:
		if (e->window.event == SDL_WINDOWEVENT_SIZE_CHANGED) {
			v->camera.width = e->window.data1;
			v->camera.height = e->window.data2;
		}
		break;
	default: break;
	}
}
