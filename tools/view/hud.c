/* The viewer's overlay: the status line at the bottom (step time with a rolling graph, counters,
 * substeps), the selected rig's power at the top right, a message line for a few seconds after a key
 * did something, and the help panel (H). */
#include "view.h"

#include <stdio.h>
#include <string.h>

#define TEXT_SIZE 2
#define LINE_H 14
#define STATUS_H 24
#define GRAPH_W VIEW_GRAPH_SAMPLES
#define GRAPH_H 18

static const SDL_Color ink = {40, 40, 48, 255};
static const SDL_Color panel = {255, 255, 255, 225};
static const SDL_Color rule = {190, 190, 198, 255};

static const char *const help_lines[] = {
	"H          THIS HELP",
	"SPACE      PAUSE / RUN",
	".          ONE STEP (PAUSED)",
	"BACKSPACE  RESET: RELOAD THE FILE",
	"LEFT DRAG  PULL A BODY (TARGET JOINT)",
	"RIGHT DRAG PAN        WHEEL  ZOOM",
	"F          FRAME THE SCENE",
	"1 2 3      DROP A BOX, CIRCLE, CAPSULE",
	"R          RAGDOLL EVERY RIG (TOGGLE)",
	"T          JOINT MODEL OF THE NEXT RAGDOLL",
	"TAB        SELECT THE NEXT RIG",
	"P          POWER PRESET OF THE RIG",
	"[ ]        INFLUENCE -0.1 / +0.1",
	"4 5 6 7    LIMB RAGDOLL: ARMS L R, LEGS L R",
	"+ -        SUBSTEPS",
	"C          CONTACTS   N  NORMALS",
	"A          AABBS      J  LIMITS AND AXES",
	"ESC        QUIT",
};

void view_record_step_ms(viewer *v, float ms)
{
	v->step_ms[v->graph_head] = ms;
	v->graph_head = (v->graph_head + 1) % VIEW_GRAPH_SAMPLES;
	if (v->graph_count < VIEW_GRAPH_SAMPLES) v->graph_count += 1;
}

void view_say(viewer *v, const char *message)
{
	snprintf(v->message, sizeof v->message, "%s", message);
	v->message_until = SDL_GetTicks() + 3000;
}

/* The last graph_count step times, oldest on the left, scaled to the largest shown (at least 1 ms
 * tall, so a fast scene reads as a low line, not as noise blown up). */
static void draw_graph(viewer *v, int x, int y)
{
	SDL_Renderer *r = v->renderer;
	view_fill_rect(r, x, y, GRAPH_W, GRAPH_H, (SDL_Color){235, 235, 240, 255});
	float top = 1.0f;
	for (int i = 0; i < v->graph_count; ++i) top = sinew_maxf(top, v->step_ms[i]);
	int first = (v->graph_head - v->graph_count + VIEW_GRAPH_SAMPLES) % VIEW_GRAPH_SAMPLES;
	for (int i = 0; i < v->graph_count; ++i) {
		float ms = v->step_ms[(first + i) % VIEW_GRAPH_SAMPLES];
		int h = (int)(ms / top * (float)GRAPH_H + 0.5f);
		if (h < 1) h = 1;
		view_fill_rect(r, x + GRAPH_W - v->graph_count + i, y + GRAPH_H - h, 1, h, (SDL_Color){230, 120, 30, 255});
	}
	char label[32];
	snprintf(label, sizeof label, "%.1f", (double)top);
	view_text(r, x + GRAPH_W + 4, y, label, 1, ink);
}

static void draw_status(viewer *v)
{
	SDL_Renderer *r = v->renderer;
	int w = v->camera.width, y = v->camera.height - STATUS_H;
	view_fill_rect(r, 0, y, w, STATUS_H, panel);
	view_fill_rect(r, 0, y, w, 1, rule);
	sinew_counters c = sinew_world_get_counters(v->world);
	float last = v->graph_count > 0 ? v->step_ms[(v->graph_head + VIEW_GRAPH_SAMPLES - 1) % VIEW_GRAPH_SAMPLES] : 0.0f;
	char line[256];
	snprintf(line, sizeof line, "STEP %.2f MS  BODIES %d  AWAKE %d  CONTACTS %d  JOINTS %d  SUBSTEPS %d", (double)last,
	         c.body_count, c.awake_body_count, c.contact_count, c.joint_count, sinew_scene_get_substeps(v->scene));
	if (view_rig_count(v) > 0) {
		size_t used = strlen(line);
		snprintf(line + used, sizeof line - used, "  NEXT RAGDOLL %s", v->next_joint_model == 0 ? "LOCAL" : "GODOT");
	}
	view_text(r, 8, y + 7, line, TEXT_SIZE, ink);
	/* the scene and the step, top right */
	snprintf(line, sizeof line, "%s  STEP %d%s", sinew_scene_get_name(v->scene), sinew_scene_get_step(v->scene),
	         v->paused ? "  PAUSED" : "");
	view_text(r, w - view_text_width(line, TEXT_SIZE) - 10, 10, line, TEXT_SIZE, ink);
	/* the selected rig's power under it */
	view_rig_status(v, line, sizeof line);
	if (line[0] != 0) view_text(r, w - view_text_width(line, TEXT_SIZE) - 10, 10 + LINE_H, line, TEXT_SIZE, ink);
	if (w > GRAPH_W + 40) draw_graph(v, w - GRAPH_W - 36, y + 3);
}

static void draw_help(viewer *v)
{
	int n = (int)(sizeof help_lines / sizeof help_lines[0]), width = 0;
	for (int i = 0; i < n; ++i) width = SDL_max(width, view_text_width(help_lines[i], TEXT_SIZE));
	int x = 12, y = 12, pad = 10;
	view_fill_rect(v->renderer, x, y, width + 2 * pad, n * LINE_H + 2 * pad - 4, panel);
	for (int i = 0; i < n; ++i) view_text(v->renderer, x + pad, y + pad + i * LINE_H, help_lines[i], TEXT_SIZE, ink);
}

void view_draw_hud(viewer *v)
{
	draw_status(v);
	if (v->show_help) {
		draw_help(v);
	} else {
		view_text(v->renderer, 10, 10, "H: HELP", TEXT_SIZE, (SDL_Color){120, 120, 130, 255});
	}
	if (v->message[0] != 0 && SDL_TICKS_PASSED(SDL_GetTicks(), v->message_until) == SDL_FALSE) {
		int y = v->camera.height - STATUS_H - LINE_H - 6;
		int w = view_text_width(v->message, TEXT_SIZE);
		view_fill_rect(v->renderer, 4, y - 4, w + 12, LINE_H + 4, panel);
		view_text(v->renderer, 10, y, v->message, TEXT_SIZE, ink);
	}
}
