/* app.c — the App itself (see app.h): making and freeing it, its message line, its layout,
 * and the sources the narrow views read (tiles, overview, full tree).  No curses here: the
 * loop in tui.c and the unit tests drive the same functions.  The rest of the App module, one
 * job a file: app-build.c (the broadcast's build), app-spec.c (changing it by its words),
 * app-move.c (position, seek, play), app-keys.c (the key table and its acts), app-cmdline.c,
 * app-mouse.c, app-picker.c, app-lesson.c, app-chart.c (the comparison chart), app-panels.c
 * (narration, the node inspector); app-core.h is what they share. */
#include "app-core.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "../engine/text.h"
#include "measured.h"
#include "asynctl.h"
#include "cmdtab.h"
#include "figure.h"
#include "vs.h"

const double app_speeds[] = {0.25, 0.5, 1, 2, 4, 8, 16, 32};
const int app_nspeeds = (int)(sizeof app_speeds / sizeof app_speeds[0]);

void app_msg(App *a, bool error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char raw[sizeof a->msg];
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    text_quote(raw, sizeof raw, a->msg, sizeof a->msg);   /* one line, no control character */
    a->msg_error = error;
    a->msg_progress = false;
}

/* ---- the app -------------------------------------------------------------------------- */

App *app_new(void)
{
    App *a = calloc(1, sizeof *a);
    if (!a) return NULL;
    a->zoom_auto = true;
    a->sel_link = -1;
    a->speed = 3;
    a->color = true;
    a->shown_step = -1;
    a->chart.gen = -1;
    a->hist_node.gen = -1;
    a->narr_gen = -1;
    a->mode = MODE_MAP;
    a->comp_at = -1;
    a->tv = tileview_new();
    a->pm = portmarks_new();
    a->steplines = steplines_new();
    a->ov = overview_new();
    a->ft = fulltree_new();
    a->atl = asynctl_new();
    a->vs = vs_new();
    a->measured = measured_new();
    if (!a->tv || !a->pm || !a->steplines || !a->ov || !a->ft || !a->atl || !a->vs ||
        !a->measured) {
        measured_free(a);
        tileview_free(a->tv);
        portmarks_free(a->pm);
        steplines_free(a->steplines);
        overview_free(a->ov);
        fulltree_free(a->ft);
        asynctl_free(a->atl);
        VsHost vh = app_vs_host(a);
        vs_free(a->vs, &vh);
        free(a);
        return NULL;
    }
    return a;
}

const Bcast *app_bcast(const App *a) { return &a->b; }

bool app_async_timing(const App *a) { return a->async_tl; }

struct Measured *app_measured(const App *a) { return a->measured; }

AppMapState app_map_state(App *a)
{
    AppMapState s = {
        .tv = a->tv, .pm = a->pm, .ft = a->ft,
        .page = a->lesson && a->panel == PANEL_LESSON ? lesson_page(a->lesson, a->page) : NULL,
        .cursor = a->cursor, .sel_link = a->sel_link,
    };
    return s;
}

AppFrameView app_frame_view(App *a)
{
    AppFrameView v = {
        .b = &a->b, .lay = &a->lay, .mode = a->mode, .panel = a->panel, .msg = a->msg,
        .msg_error = a->msg_error, .cursor = a->cursor, .sel_link = a->sel_link,
        .zoom = a->zoom, .playing = a->playing, .speed = a->speed, .ov_block = a->ov_block,
        .ov = a->ov, .vs = a->vs, .steplines = a->steplines, .help_top = a->help_top,
        .cmd = a->cmd, .comp = a->comp, .ncomp = a->ncomp, .comp_at = a->comp_at,
        .pick = a->pick, .items = a->items, .nitems = a->nitems, .pick_sel = a->pick_sel,
        .tl_y0 = a->tl_y0, .tl_rows = a->tl_rows, .tl_per = a->tl_per, .tl_first = a->tl_first,
        .chart_fig3 = a->chart_fig3, .fig3_p = a->fig3_p, .fig3 = &a->fig3, .fig = a->fig,
        .hist = &a->hist_node, .lesson = a->lesson, .page = a->page, .prog = &a->prog,
        .answered = a->answered, .last_answer = a->last_answer, .last_choice = a->last_choice,
        .try_why = a->try_why, .lesson_done = a->lesson_done, .lesson_next = a->lesson_next,
        .lesson_off = a->lesson_off, .lesson_follow = a->lesson_follow,
    };
    return v;
}

void app_set_help_top(App *a, int top) { a->help_top = top; }

void app_set_timeline_rows(App *a, int y0, int rows, int32_t first, int per)
{
    a->tl_y0 = y0;
    a->tl_rows = rows;
    a->tl_first = first;
    a->tl_per = per;
}

void app_lesson_scrolled(App *a, int off, int view)
{
    a->lesson_off = off;
    a->lesson_view = view;
    a->lesson_follow = false;
}

TileSrc app_tiles_src(const App *a)
{
    TileSrc s = {a->b.ready ? a->b.sched : NULL, a->b.ready ? a->b.setup.net : NULL, a->b.gen};
    return s;
}

OvSrc app_overview_src(const App *a)
{
    OvSrc s = {
        .net = a->b.ready ? a->b.setup.net : NULL,
        .sched = a->b.ready ? a->b.sched : NULL,
        .sim = a->b.ready ? a->b.sim : NULL,
        .gen = a->b.gen, .pos = a->b.pos, .step = app_step_shown(a),
        .block = a->ov_block,
        .map_x = a->lay.map_x, .map_y = a->lay.map_y, .map_w = a->lay.map_w, .map_h = a->lay.map_h,
        .cursor = a->cursor,
    };
    return s;
}

FtSrc app_fulltree_src(const App *a, const Bcast *b, AsyncView *av, const Layout *L)
{
    FtSrc s = {
        .net = b->ready ? b->setup.net : NULL,
        .sched = b->ready ? b->sched : NULL,
        .sim = b->ready ? b->sim : NULL,
        .gen = b->gen, .pos = b->pos, .step = bcast_step_shown(b),
        .partials = b->ready ? b->partials : NULL,
        .av = av,
        .map_x = L->map_x, .map_y = L->map_y, .map_w = L->map_w, .map_h = L->map_h,
        .cursor = a->cursor,
    };
    return s;
}

FtSrc app_fulltree_click_src(const App *a)
{
    return app_fulltree_src(a, &a->b, NULL, app_map_layout(a));
}

void app_items_free(App *a)
{
    for (size_t i = 0; i < a->nitems; i++) free(a->items[i]);
    free(a->items);
    a->items = NULL;
    a->nitems = a->pick_sel = 0;
}

void app_free(App *a)
{
    if (!a) return;
    app_bcast_free(&a->b);
    app_items_free(a);
    app_node_history_free(a);
    overview_free(a->ov);
    tileview_free(a->tv);
    portmarks_free(a->pm);
    steplines_free(a->steplines);
    asynctl_free(a->atl);
    fulltree_free(a->ft);
    VsHost vh = app_vs_host(a);
    vs_free(a->vs, &vh);
    figure_free(a->fig);
    measured_free(a);
    app_cmdline_complete_clear(a);
    if (a->lesson) lesson_free(a->lesson);
    free(a);
}

bool app_partial(const App *a) { return bcast_partial(&a->b); }

int32_t app_step_shown(const App *a) { return bcast_step_shown(&a->b); }

/* Side by side: the map split in two halves with a bar between them, each with a header line
 * on top; the first broadcast's on the left, the second's on the right (at the same zoom and
 * view). */
static void layout_halves(App *a)
{
    const Layout *full = &a->lay;
    int half = (full->map_w - 1) / 2;
    int zoom = a->zoom_auto ? -1 : a->zoom;
    Layout *left = &a->half[0], *right = &a->half[1];
    layout_compute_big(left, a->b.setup.net, half, full->h - 1, zoom, false, a->view_r0,
                       a->view_c0, a->cursor, a->big);
    /* a half is narrower than a frame may be: whether it is too small is the frame's to say
     * (layout_hit refuses clicks on a layout too small) */
    left->too_small = full->too_small;
    *right = *left;
    left->map_y++; left->oy++;
    right->map_y++; right->oy++;
    right->map_x += half + 1; right->ox += half + 1;
}

void app_layout(App *a, int w, int h)
{
    const Net *net = a->b.ready ? a->b.setup.net : NULL;
    layout_compute_big(&a->lay, net, w, h, a->zoom_auto ? -1 : a->zoom, true, a->view_r0,
                       a->view_c0, a->cursor, a->big);
    if (net) {
        a->zoom = a->lay.zoom;
        a->view_r0 = a->lay.vis_r0;
        a->view_c0 = a->lay.vis_c0;
    }
    a->split = net && vs_bcast(a->vs) && a->ov_block <= 0;
    if (a->split) layout_halves(a);
}

/* The halves of the last app_layout, while they are still what is shown. */
static bool split_now(const App *a) { return a->split && vs_bcast(a->vs) && a->ov_block <= 0; }

const Layout *app_map_layout(const App *a) { return split_now(a) ? &a->half[0] : &a->lay; }

bool app_map_halves(const App *a, const Layout **left, const Layout **right)
{
    if (!split_now(a)) return false;
    *left = &a->half[0];
    *right = &a->half[1];
    return true;
}
