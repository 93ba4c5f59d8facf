/* app.c — the UI's state and actions (see app.h).  No curses here: the loop in tui.c and the
 * unit tests drive the same functions. */
#include "app-core.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "../algos/algo.h"
#include "../engine/num.h"
#include "../engine/text.h"
#include "algo-names.h"
#include "job.h"
#include "lesson-pick.h"
#include "../script/course.h"
#include "../script/lesson-state.h"
#include "../script/lesson-try.h"
#include "../script/profile.h"
#include "measured.h"
#include "narrate.h"
#include "fulltree.h"
#include "hxview.h"
#include "../engine/partials.h"
#include "../algos/sanders/autotune.h"
#include "overview.h"
#include "tileview.h"
#include "asynctl.h"
#include "cmdtab.h"
#include "figure.h"
#include "vs.h"
#include "theme.h"

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
    a->ov = overview_new();
    a->ft = fulltree_new();
    a->atl = asynctl_new();
    a->vs = vs_new();
    if (!a->tv || !a->ov || !a->ft || !a->atl || !a->vs) {
        tileview_free(a->tv);
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

FtSrc app_fulltree_src(const App *a, const Bcast *b, AsyncView *av)
{
    FtSrc s = {
        .net = b->ready ? b->setup.net : NULL,
        .sched = b->ready ? b->sched : NULL,
        .sim = b->ready ? b->sim : NULL,
        .gen = b->gen, .pos = b->pos, .step = bcast_step_shown(b),
        .partials = b->ready ? b->partials : NULL,
        .av = av,
        .map_x = a->lay.map_x, .map_y = a->lay.map_y, .map_w = a->lay.map_w, .map_h = a->lay.map_h,
        .cursor = a->cursor,
    };
    return s;
}

/* The FtSrc of the App's broadcast without the asynchronous time line's moment (what a
 * click needs). */
static FtSrc fulltree_src(const App *a) { return app_fulltree_src(a, &a->b, NULL); }

void app_items_free(App *a)
{
    for (size_t i = 0; i < a->nitems; i++) free(a->items[i]);
    free(a->items);
    a->items = NULL;
    a->nitems = a->pick_sel = 0;
}

static void hist_free(App *a)
{
    free(a->hist_node.held); free(a->hist_node.nsent); free(a->hist_node.nrecv);
    free(a->hist_node.to); free(a->hist_node.from);
    memset(&a->hist_node, 0, sizeof a->hist_node);
    a->hist_node.gen = -1;
}

void app_free(App *a)
{
    if (!a) return;
    app_bcast_free(&a->b);
    app_items_free(a);
    hist_free(a);
    overview_free(a->ov);
    tileview_free(a->tv);
    asynctl_free(a->atl);
    fulltree_free(a->ft);
    VsHost vh = app_vs_host(a);
    vs_free(a->vs, &vh);
    figure_free(a->fig);
    measured_free(a);
    cmdtab_complete_clear(a);
    if (a->lesson) lesson_free(a->lesson);
    free(a);
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
}

/* ---- commands (cmdtab.h: the table) ----------------------------------------------------- */

bool app_command(App *a, const char *line) { return cmdtab_run(a, line); }

void app_complete(App *a) { cmdtab_complete(a, 1); }

/* ---- keys ----------------------------------------------------------------------------- */

typedef enum {
    K_NONE, K_NEXT, K_PREV, K_FIRST, K_LAST, K_PLAY, K_FASTER, K_SLOWER, K_LEFT, K_RIGHT, K_UP,
    K_DOWN, K_PAN_L, K_PAN_R, K_PAN_U, K_PAN_D, K_ZOOM_IN, K_ZOOM_OUT, K_ZOOM_FIT, K_PANEL,
    K_PANEL_BACK, K_SELECT, K_LINK, K_SOURCE, K_P_ALGO, K_P_NET, K_P_BYTES, K_P_MODEL,
    K_P_LESSON, K_PAGE_NEXT, K_PAGE_PREV, K_HELP, K_QUIT, K_REDRAW, K_CMD, K_ESC, K_SUSPEND,
    K_TILES, K_TIMING, K_LESSON_DOWN, K_LESSON_UP, K_LESSON_RESTART,
} Act;

static const struct { const char *key; Act act; } keymap[] = {
    {"n", K_NEXT}, {".", K_NEXT}, {"<PageDown>", K_NEXT},
    {"p", K_PREV}, {",", K_PREV}, {"<PageUp>", K_PREV}, {"<Backspace>", K_PREV},
    {"g", K_FIRST}, {"<Home>", K_FIRST}, {"G", K_LAST}, {"<End>", K_LAST},
    {"<Space>", K_PLAY}, {"+", K_FASTER}, {"=", K_FASTER}, {"-", K_SLOWER},
    {"h", K_LEFT}, {"<Left>", K_LEFT}, {"l", K_RIGHT}, {"<Right>", K_RIGHT},
    {"k", K_UP}, {"<Up>", K_UP}, {"j", K_DOWN}, {"<Down>", K_DOWN},
    {"H", K_PAN_L}, {"<S-Left>", K_PAN_L}, {"L", K_PAN_R}, {"<S-Right>", K_PAN_R},
    {"K", K_PAN_U}, {"<S-Up>", K_PAN_U}, {"J", K_PAN_D}, {"<S-Down>", K_PAN_D},
    {"z", K_ZOOM_IN}, {"Z", K_ZOOM_OUT}, {"0", K_ZOOM_FIT},
    {"<Tab>", K_PANEL}, {"<S-Tab>", K_PANEL_BACK},
    {"<Enter>", K_SELECT}, {"e", K_LINK}, {"s", K_SOURCE},
    {"a", K_P_ALGO}, {"t", K_P_NET}, {"b", K_P_BYTES}, {"m", K_P_MODEL}, {"o", K_P_LESSON},
    {"]", K_PAGE_NEXT}, {"[", K_PAGE_PREV}, {"}", K_LESSON_DOWN}, {"{", K_LESSON_UP},
    {"R", K_LESSON_RESTART},
    {"?", K_HELP}, {"<F1>", K_HELP}, {"q", K_QUIT}, {"<C-c>", K_QUIT}, {"<C-l>", K_REDRAW}, {"<C-z>", K_SUSPEND},
    {":", K_CMD}, {"<Escape>", K_ESC}, {"T", K_TILES}, {"A", K_TIMING},
};

static const AppKeyHelp key_help[] = {
    {"n . PgDn", "next step"},
    {"p , PgUp BkSp", "previous step"},
    {"g Home / G End", "first / last step"},
    {"Space", "play / pause"},
    {"+ = / -", "play faster / slower"},
    {"arrows hjkl", "move the node cursor"},
    {"HJKL S-arrows", "pan the map"},
    {"z / Z / 0", "zoom in / out (past the smallest: the overview) / fit"},
    {"wheel", "zoom in / out"},
    {"click", "select a node or a link"},
    {"Enter", "inspect the cursor node; answer a node/link question"},
    {"e", "select the next link at the cursor node"},
    {"s", "make the cursor node the source"},
    {"Tab / S-Tab", "next / previous panel (step, timeline, node, chart, lesson)"},
    {"a t b m", "pick algorithm / net / bytes / model"},
    {"o", "pick a lesson"},
    {"T", "tiles of the broadcast tree on the map: next level, then off"},
    {"A", "timing: the asynchronous time line (moments), or back to lockstep steps"},
    {"] / [", "lesson: next / previous page"},
    {"} / {", "lesson: scroll the page down / up (v: more below)"},
    {"a b c ...", "lesson: answer a multiple-choice question"},
    {"R", "lesson: restart it, its progress forgotten (y to confirm)"},
    {":", "command line (Tab completes, again: the next candidate; Up/Down history)"},
    {"Escape", "close, cancel, clear the selection"},
    {"Ctrl-L", "redraw the screen"},
    {"Ctrl-Z", "suspend (fg in the shell comes back)"},
    {"?  F1", "this help"},
    {"q  Ctrl-C", "quit"},
};

const AppKeyHelp *app_key_help(size_t *n)
{
    *n = sizeof key_help / sizeof key_help[0];
    return key_help;
}

static void move_cursor(App *a, int dr, int dc)
{
    if (!a->b.ready) return;
    if (a->ov_block > 0) {          /* the overview: a block at a time */
        dr *= a->ov_block;
        dc *= overview_bcols(a->b.setup.net, a->ov_block);
    }
    const Net *net = a->b.setup.net;
    if (net_ndim(net) == 1) {
        /* an array or ring, folded or not: right is the next node (across rows), down the
         * node a row further */
        int64_t per = a->lay.per_row > 0 ? a->lay.per_row : 1;
        int64_t to = (int64_t)a->cursor + dc + (int64_t)dr * per;
        int64_t last = net_size(net) - 1;
        a->cursor = (int32_t)(to < 0 ? 0 : to > last ? last : to);
        a->sel_link = -1;
        return;
    }
    int gr, gc;
    layout_node_grid(&a->lay, net, a->cursor, &gr, &gc);
    int nr = gr + dr, nc = gc + dc;
    if (a->lay.grid_rows <= 0) return;
    if (nr < 0) nr = 0;
    if (nr >= a->lay.grid_rows) nr = a->lay.grid_rows - 1;
    if (nc < 0) nc = 0;
    if (nc >= a->lay.grid_cols) nc = a->lay.grid_cols - 1;
    int32_t n = layout_grid_node(&a->lay, net, nr, nc);
    /* skip the gaps between 3-D slices */
    if (n < 0 && dc != 0) n = layout_grid_node(&a->lay, net, nr, nc + (dc > 0 ? 1 : -1));
    if (n < 0 && net_ndim(net) == 1) n = net_size(net) - 1;
    if (n >= 0) {
        a->cursor = n;
        a->sel_link = -1;
    }
}

/* Cycle through the directed links at the cursor node (out and in, every dimension). */
static void cycle_link(App *a)
{
    if (!a->b.ready) return;
    const Net *net = a->b.setup.net;
    int64_t cand[4 * NET_MAXDIM];
    int nc = 0;
    for (int d = 0; d < net_ndim(net); d++)
        for (int dir = 1; dir >= -1; dir -= 2) {
            int32_t nb = net_neighbor(net, a->cursor, d, dir);
            if (nb < 0) continue;
            cand[nc++] = net_link(net, a->cursor, d, dir);
            cand[nc++] = net_link(net, nb, d, -dir);
        }
    if (nc == 0) return;
    int at = -1;
    for (int i = 0; i < nc; i++) if (cand[i] == a->sel_link) at = i;
    a->sel_link = cand[(at + 1) % nc];
}

static void set_zoom(App *a, int z)
{
    /* past the smallest zoom, when the net does not fit: the overview (overview.h) */
    if (a->ov_block > 0) {
        if (z >= a->zoom) {
            a->ov_block *= 2;
            return;
        }
        int fit = a->b.ready ? overview_fit(a->b.setup.net, a->lay.map_w, a->lay.map_h) : 1;
        a->ov_block = a->ov_block > fit ? a->ov_block / 2 : 0;
        if (a->ov_block > 0) return;
        z = LAYOUT_NZOOM - 1;
    } else if (z >= LAYOUT_NZOOM && a->b.ready && overview_supported(a->b.setup.net) &&
               (a->lay.vis_rows < a->lay.grid_rows || a->lay.vis_cols < a->lay.grid_cols)) {
        a->ov_block = overview_fit(a->b.setup.net, a->lay.map_w, a->lay.map_h);
        a->zoom_auto = false;
        return;
    }
    if (z < 0) z = 0;
    if (z >= LAYOUT_NZOOM) z = LAYOUT_NZOOM - 1;
    a->zoom = z;
    a->zoom_auto = false;
}

static void next_panel(App *a, int d)
{
    int n = a->lesson ? PANEL_N : PANEL_N - 1;
    a->panel = (Panel)(((int)a->panel + d + n) % n);
}

static void map_act(App *a, Act act)
{
    int half_r = a->lay.vis_rows > 2 ? a->lay.vis_rows / 2 : 1;
    int half_c = a->lay.vis_cols > 2 ? a->lay.vis_cols / 2 : 1;
    switch (act) {
    case K_NONE: break;
    case K_NEXT:
    case K_PREV:
    case K_FIRST:
    case K_LAST:
        if (app_async_view(a)) {   /* the time line: moment to moment (asynctl.h) */
            a->playing = false;
            int64_t to = act == K_NEXT ? 1 : act == K_PREV ? -1 : act == K_FIRST ? 0 : INT64_MAX / 2;
            app_async_move(a, to, act == K_NEXT || act == K_PREV);
            break;
        }
        if (act == K_PREV) { a->playing = false; app_goto(a, app_pos(a) - 1); break; }
        if (act == K_FIRST) { a->playing = false; app_goto(a, 0); break; }
        if (act == K_LAST) { a->playing = false; app_goto(a, app_nsteps(a)); break; }
        a->playing = false; app_goto(a, app_pos(a) + 1); break;
    case K_PLAY:
        if (app_async_view(a)) {
            if (!a->playing && app_async_at_end(a)) app_async_move(a, 0, false);
            a->playing = !a->playing;
            break;
        }
        if (!a->playing && app_pos(a) >= app_nsteps(a)) app_goto(a, 0);
        a->playing = !a->playing;
        break;
    case K_FASTER: if (a->speed + 1 < app_nspeeds) a->speed++; break;
    case K_SLOWER: if (a->speed > 0) a->speed--; break;
    case K_LEFT: move_cursor(a, 0, -1); break;
    case K_RIGHT: move_cursor(a, 0, 1); break;
    case K_UP: move_cursor(a, -1, 0); break;
    case K_DOWN: move_cursor(a, 1, 0); break;
    case K_PAN_L: move_cursor(a, 0, -half_c); break;
    case K_PAN_R: move_cursor(a, 0, half_c); break;
    case K_PAN_U: move_cursor(a, -half_r, 0); break;
    case K_PAN_D: move_cursor(a, half_r, 0); break;
    case K_ZOOM_IN: set_zoom(a, a->zoom - 1); break;
    case K_ZOOM_OUT: set_zoom(a, a->zoom + 1); break;
    case K_ZOOM_FIT: a->zoom_auto = true; break;
    case K_PANEL: next_panel(a, 1); break;
    case K_PANEL_BACK: next_panel(a, -1); break;
    case K_SELECT: {
        const LessonPage *p = app_lesson_cur_page(a);
        if (a->lesson && p && p->qkind == LESSON_Q_TRY && !a->answered && !a->lesson_done) {
            app_lesson_answer_try(a);
            a->panel = PANEL_LESSON;
            break;
        }
        if (a->lesson && a->panel == PANEL_LESSON && p && !a->answered) {
            if (p->qkind == LESSON_Q_NODE) { app_lesson_answer_node(a, a->cursor); break; }
            if (p->qkind == LESSON_Q_LINK) {
                if (a->sel_link < 0) app_msg(a, true, "select a link first (click it, or e)");
                else app_lesson_answer_link(a, a->sel_link);
                break;
            }
        }
        a->panel = PANEL_NODE;
        break;
    }
    case K_LINK: cycle_link(a); break;
    case K_SOURCE:
        if (a->b.ready) {
            char buf[32];
            snprintf(buf, sizeof buf, "%ld", (long)a->cursor);
            app_change(a, "source", buf);
        }
        break;
    case K_P_ALGO: app_open_picker(a, PICK_ALGO); break;
    case K_P_NET: app_open_picker(a, PICK_NET); break;
    case K_P_BYTES: app_open_picker(a, PICK_BYTES); break;
    case K_P_MODEL: app_open_picker(a, PICK_MODEL); break;
    case K_P_LESSON: app_open_picker(a, PICK_LESSON); break;
    case K_PAGE_NEXT:
        if (!a->lesson) app_msg(a, true, "no lesson open (o picks one)");
        else if (a->page + 1 < lesson_npages(a->lesson)) app_lesson_page(a, a->page + 1);
        else if (a->lesson_done && a->lesson_next[0]) {   /* the summary: on to the next */
            char next[sizeof a->lesson_next];
            memcpy(next, a->lesson_next, sizeof next);
            app_open_lesson(a, next);
        } else {   /* past the last page: the summary, and the course's next lesson */
            a->lesson_done = true;
            a->lesson_off = 0;
            a->panel = PANEL_LESSON;
            char err[300];
            Course *c = course_load(NULL, err, sizeof err);
            const char *next = course_next(c, lesson_id(a->lesson));
            snprintf(a->lesson_next, sizeof a->lesson_next, "%s", next ? next : "");
            course_free(c);   /* next is gone with it: a->lesson_next holds the name */
            app_msg(a, false, "the end of the lesson ([ back to its last page%s%s)",
                    a->lesson_next[0] ? ", ] the next: " : "", a->lesson_next);
        }
        break;
    case K_LESSON_RESTART:
        if (!a->lesson) { app_msg(a, true, "R restarts a lesson: no lesson is open (o)"); break; }
        a->lesson_confirm = true;
        app_msg(a, true, "Restart '%s' from page 1, forgetting its pages seen and answers? "
                "y: restart, any other key: keep them", lesson_id(a->lesson));
        break;
    case K_LESSON_DOWN:
    case K_LESSON_UP:
        if (!a->lesson) { app_msg(a, true, "no lesson open (o picks one)"); break; }
        a->panel = PANEL_LESSON;   /* a page down at a time, less a line to keep the place */
        a->lesson_off += (act == K_LESSON_DOWN ? 1 : -1) *
                         (a->lesson_view > 2 ? a->lesson_view - 1 : 1);
        if (a->lesson_off < 0) a->lesson_off = 0;   /* the bottom is kept when drawn */
        break;
    case K_PAGE_PREV:
        if (a->lesson && a->lesson_done) {
            a->lesson_done = false;
            a->lesson_off = 0;
            a->panel = PANEL_LESSON;
        }
        else if (a->lesson && a->page > 0) app_lesson_page(a, a->page - 1);
        break;
    case K_HELP: a->mode = MODE_HELP; a->help_top = 0; break;
    case K_TILES: {
        char t[200];
        TileSrc src = app_tiles_src(a);
        bool ok = tileview_cycle(a->tv, &src, t, sizeof t);
        app_msg(a, !ok, "%s", t);
        break;
    }
    case K_TIMING: app_timing(a, !a->async_tl); break;
    case K_QUIT: a->quit = true; break;
    case K_REDRAW: a->redraw = true; break;
    case K_SUSPEND: a->suspend = true; break;
    case K_CMD:
        a->mode = MODE_CMDLINE;
        a->cmdlen = 0;
        a->cmd[0] = '\0';
        a->hist_at = a->nhist;
        a->msg[0] = '\0';
        break;
    case K_ESC:
        a->sel_link = -1;
        a->msg[0] = '\0';
        measured_cancel(a);   /* a running :exec ends (its message says so) */
        break;
    }
}

/* The text a printable key stands for ("a", "<Space>" -> " "); NULL if not printable. */
static const char *key_text(const char *key)
{
    if (strcmp(key, "<Space>") == 0) return " ";
    if (key[0] == '<' && key[1] != '\0') return NULL;
    if ((unsigned char)key[0] < 0x20) return NULL;
    return key;
}

static void cmdline_key(App *a, const char *key)
{
    if (strcmp(key, "<Tab>") == 0 || strcmp(key, "<S-Tab>") == 0) {
        cmdtab_complete(a, key[1] == 'T' ? 1 : -1);
        return;
    }
    cmdtab_complete_clear(a);   /* any other key: the listed candidates go */
    if (strcmp(key, "<Escape>") == 0 || strcmp(key, "<C-c>") == 0 || strcmp(key, "<C-g>") == 0) {
        a->mode = MODE_MAP;
        return;
    }
    if (strcmp(key, "<Enter>") == 0) {
        a->cmd[a->cmdlen] = '\0';
        a->mode = MODE_MAP;
        if (a->cmdlen > 0) {
            if (a->nhist == 16) {
                memmove(a->hist[0], a->hist[1], sizeof a->hist[0] * 15);
                a->nhist--;
            }
            snprintf(a->hist[a->nhist++], sizeof a->hist[0], "%s", a->cmd);
            char line[256];
            snprintf(line, sizeof line, "%s", a->cmd);
            app_command(a, line);
        }
        return;
    }
    if (strcmp(key, "<Backspace>") == 0 || strcmp(key, "<C-h>") == 0 ||
        strcmp(key, "<DEL>") == 0) {
        if (a->cmdlen == 0) { a->mode = MODE_MAP; return; }
        /* drop one UTF-8 character */
        do a->cmdlen--; while (a->cmdlen > 0 && ((unsigned char)a->cmd[a->cmdlen] & 0xC0) == 0x80);
        a->cmd[a->cmdlen] = '\0';
        return;
    }
    if (strcmp(key, "<C-u>") == 0) { a->cmdlen = 0; a->cmd[0] = '\0'; return; }
    if (strcmp(key, "<C-w>") == 0) {
        while (a->cmdlen > 0 && a->cmd[a->cmdlen - 1] == ' ') a->cmdlen--;
        while (a->cmdlen > 0 && a->cmd[a->cmdlen - 1] != ' ') a->cmdlen--;
        a->cmd[a->cmdlen] = '\0';
        return;
    }
    if (strcmp(key, "<Up>") == 0 || strcmp(key, "<Down>") == 0) {
        int d = key[1] == 'U' ? -1 : 1;
        int at = a->hist_at + d;
        if (at < 0 || at > a->nhist) return;
        a->hist_at = at;
        snprintf(a->cmd, sizeof a->cmd, "%s", at < a->nhist ? a->hist[at] : "");
        a->cmdlen = strlen(a->cmd);
        return;
    }
    const char *t = key_text(key);
    if (t) {
        size_t l = strlen(t);
        if (a->cmdlen + l < sizeof a->cmd - 1) {
            memcpy(a->cmd + a->cmdlen, t, l);
            a->cmdlen += l;
            a->cmd[a->cmdlen] = '\0';
        }
    }
}

void app_key(App *a, const char *key)
{
    switch (a->mode) {
    case MODE_CMDLINE: cmdline_key(a, key); return;
    case MODE_PICKER: app_picker_key(a, key); return;
    case MODE_HELP:
        if (strcmp(key, "j") == 0 || strcmp(key, "<Down>") == 0) a->help_top++;
        else if (strcmp(key, "k") == 0 || strcmp(key, "<Up>") == 0) {
            if (a->help_top > 0) a->help_top--;
        } else if (strcmp(key, "<C-c>") == 0) a->quit = true;
        else if (strcmp(key, "<C-l>") == 0) a->redraw = true;
        else a->mode = MODE_MAP;
        return;
    case MODE_MAP: break;
    }
    a->msg[0] = '\0';   /* a message lasts until the next key */
    if (a->lesson_confirm) {   /* R asked: y restarts, any other key keeps the progress */
        a->lesson_confirm = false;
        if (strcmp(key, "y") == 0 && a->lesson) app_lesson_restart(a);
        else app_msg(a, false, "not restarted: the progress is kept");
        return;
    }
    /* a lesson's multiple-choice question takes its letters first */
    const LessonPage *p = app_lesson_cur_page(a);
    if (p && p->qkind == LESSON_Q_CHOICE && app_lesson_question_open(a) && key[0] >= 'a' &&
        key[1] == '\0' && (size_t)(key[0] - 'a') < p->nchoices) {
        a->last_choice = key[0] - 'a';
        app_lesson_answer(a, key[0] - 'a' == p->answer_choice);
        return;
    }
    for (size_t i = 0; i < sizeof keymap / sizeof keymap[0]; i++)
        if (strcmp(keymap[i].key, key) == 0) {
            map_act(a, keymap[i].act);
            return;
        }
}

/* ---- mouse ---------------------------------------------------------------------------- */

void app_mouse(App *a, int button, bool press, int line, int col)
{
    if (!press || a->lay.too_small) return;
    if (a->mode == MODE_HELP) { a->mode = MODE_MAP; return; }
    if (a->mode != MODE_MAP || !a->b.ready) return;
    if (button == 4) { set_zoom(a, a->zoom - 1); return; }
    if (button == 5) { set_zoom(a, a->zoom + 1); return; }
    if (button != 1) return;
    /* a click on a row of the timeline goes to that step */
    if (a->panel == PANEL_TIMELINE && col >= a->lay.side_x && line >= a->tl_y0 &&
        line < a->tl_y0 + a->tl_rows) {
        a->playing = false;
        app_goto(a, a->tl_first + (line - a->tl_y0) / (a->tl_per > 1 ? a->tl_per : 1) + 1);
        return;
    }
    const Net *net = a->b.setup.net;
    int32_t node = -1;
    int64_t link = -1;
    int what = layout_hit(&a->lay, net, col, line, &node, &link);
    FtSrc fs = fulltree_src(a);
    if ((fulltree_active(&fs) || hxview_active(&fs)) && !vs_bcast(a->vs) && a->ov_block == 0) {
        /* the tree's cells, or the hxbar modules' */
        node = fulltree_hit(a->ft, col, line);
        what = node >= 0 ? 1 : 0;
    }
    if (what == 1) {
        a->cursor = node;
        a->sel_link = -1;
        const LessonPage *p = app_lesson_cur_page(a);
        if (p && p->qkind == LESSON_Q_NODE && app_lesson_question_open(a))
            app_lesson_answer_node(a, node);
    } else if (what == 2) {
        /* prefer the direction that carries a circuit in the step shown */
        int32_t step = app_step_shown(a);
        if (step >= 0) {
            int32_t from; int dim, dir;
            net_link_info(net, link, &from, &dim, &dir);
            int32_t head = net_link_head(net, link);
            int64_t rev = head >= 0 ? net_link(net, head, dim, -dir) : -1;
            if (rev >= 0 && sim_link_load(a->b.sim, step, link) == 0 &&
                sim_link_load(a->b.sim, step, rev) > 0)
                link = rev;
        }
        a->sel_link = link;
        int32_t from; int dim, dir;
        net_link_info(net, link, &from, &dim, &dir);
        a->cursor = from;
        const LessonPage *p = app_lesson_cur_page(a);
        if (p && p->qkind == LESSON_Q_LINK && app_lesson_question_open(a))
            app_lesson_answer_link(a, link);
    }
}

/* ---- narration ------------------------------------------------------------------------ */

bool app_quiz_hides(const App *a)
{
    if (!a->lesson || a->lesson_done || a->answered) return false;
    const LessonPage *p = lesson_page(a->lesson, a->page);
    if (!p || p->qkind == LESSON_Q_NONE || p->qkind == LESSON_Q_TRY) return false;
    return !(a->page < 256 && a->prog.answer[a->page] == 1);   /* right before: nothing to hide */
}

bool app_quiz_hides_counts(const App *a)
{
    const LessonPage *p = a->lesson ? lesson_page(a->lesson, a->page) : NULL;
    return app_quiz_hides(a) && p && p->qkind == LESSON_Q_CHOICE;
}

const char *app_narration(App *a)
{
    if (!a->b.ready) return "";
    if (app_quiz_hides(a)) return "(the narration comes back once the lesson's question is answered)";
    if (app_async_view(a)) {   /* the time line: its moment, cheap enough for every frame */
        narrate_moment(app_async_view(a), cost_unit(sim_params(a->b.sim)->model), a->narr,
                       sizeof a->narr);
        a->narr_gen = -1;
        return a->narr;
    }
    if (a->narr_gen != a->b.gen || a->narr_pos != a->b.pos) {
        narrate_step(a->b.sim, a->b.pos, a->ascii, a->narr, sizeof a->narr);
        a->narr_gen = a->b.gen;
        a->narr_pos = a->b.pos;
    }
    return a->narr;
}

/* ---- the node inspector --------------------------------------------------------------- */

bool app_node_history(App *a)
{
    if (!a->b.ready) return false;
    if (a->hist_node.gen == a->b.gen && a->hist_node.node == a->cursor) return a->hist_node.ok;
    hist_free(a);
    a->hist_node.gen = a->b.gen;
    a->hist_node.node = a->cursor;
    Sched *s = a->b.sched;
    int32_t n = sched_nsteps(s);
    if (sched_total_transfers(s) > 2000000 || n > 100000 || a->b.nsim < n) return false;
    a->hist_node.nsteps = n;
    a->hist_node.held = calloc((size_t)n + 1, sizeof *a->hist_node.held);
    a->hist_node.nsent = calloc((size_t)n + 1, sizeof(int32_t));
    a->hist_node.nrecv = calloc((size_t)n + 1, sizeof(int32_t));
    a->hist_node.to = calloc((size_t)n + 1, sizeof(int32_t));
    a->hist_node.from = calloc((size_t)n + 1, sizeof(int32_t));
    if (!a->hist_node.held || !a->hist_node.nsent || !a->hist_node.nrecv || !a->hist_node.to ||
        !a->hist_node.from)
        return false;
    int32_t node = a->cursor, pos = a->b.pos;
    for (int32_t p = 0; p <= n; p++) {
        if (!sim_seek(a->b.sim, p)) break;
        a->hist_node.held[p] = sim_held(a->b.sim, node);
    }
    sim_seek(a->b.sim, pos);
    for (int32_t st = 0; st < n; st++) {
        a->hist_node.to[st] = a->hist_node.from[st] = -1;
        int64_t nt = sched_ntransfers(s, st);
        for (int64_t i = 0; i < nt; i++) {
            SchedTransfer t;
            sched_transfer(s, st, i, &t);
            if (t.src == node) {
                if (a->hist_node.nsent[st]++ == 0) a->hist_node.to[st] = t.dst;
            }
            if (t.dst == node) {
                if (a->hist_node.nrecv[st]++ == 0) a->hist_node.from[st] = t.src;
            }
        }
    }
    a->hist_node.ok = true;
    return true;
}
