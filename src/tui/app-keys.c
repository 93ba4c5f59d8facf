/* app-keys.c — the App's keys: the map's key table (what the help screen lists too), what
 * each act does (stepping and play, the map's cursor, pan and zoom, the lesson's pages, the
 * panels and pickers ...), and app_key, which hands a key to the command line, a picker, the
 * help screen or the map.  See app.h (app_key, app_key_help). */
#include "app-core.h"

#include <stdio.h>
#include <string.h>

#include "../script/course.h"
#include "asynctl.h"
#include "measured.h"

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
    const Layout *L = app_map_layout(a);   /* side by side: the left half's */
    if (net_ndim(net) == 1) {
        /* an array or ring, folded or not: right is the next node (across rows), down the
         * node a row further */
        int64_t per = L->per_row > 0 ? L->per_row : 1;
        int64_t to = (int64_t)a->cursor + dc + (int64_t)dr * per;
        int64_t last = net_size(net) - 1;
        a->cursor = (int32_t)(to < 0 ? 0 : to > last ? last : to);
        a->sel_link = -1;
        return;
    }
    int gr, gc;
    layout_node_grid(L, net, a->cursor, &gr, &gc);
    int nr = gr + dr, nc = gc + dc;
    if (L->grid_rows <= 0) return;
    if (nr < 0) nr = 0;
    if (nr >= L->grid_rows) nr = L->grid_rows - 1;
    if (nc < 0) nc = 0;
    if (nc >= L->grid_cols) nc = L->grid_cols - 1;
    int32_t n = layout_grid_node(L, net, nr, nc);
    /* skip the gaps between 3-D slices */
    if (n < 0 && dc != 0) n = layout_grid_node(L, net, nr, nc + (dc > 0 ? 1 : -1));
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

/* z, Z, the wheel: zoom to z; past the smallest zoom, when the net does not fit, the
 * overview (overview.h), a block size at a time. */
void app_set_zoom(App *a, int z)
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
               (app_map_layout(a)->vis_rows < app_map_layout(a)->grid_rows ||
                app_map_layout(a)->vis_cols < app_map_layout(a)->grid_cols)) {
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

/* Stepping and play (K_NEXT .. K_SLOWER): on the asynchronous time line moment to moment
 * (asynctl.h), else step to step.  False for any other act. */
static bool act_step(App *a, Act act)
{
    switch (act) {
    case K_NEXT:
    case K_PREV:
    case K_FIRST:
    case K_LAST:
        a->playing = false;
        if (app_async_view(a)) {   /* the time line: moment to moment (asynctl.h) */
            int64_t to = act == K_NEXT ? 1 : act == K_PREV ? -1 : act == K_FIRST ? 0 : INT64_MAX / 2;
            app_async_move(a, to, act == K_NEXT || act == K_PREV);
        } else if (act == K_PREV) {
            app_goto(a, app_pos(a) - 1);
        } else if (act == K_FIRST) {
            app_goto(a, 0);
        } else if (act == K_LAST) {
            app_goto(a, app_nsteps(a));
        } else {
            app_goto(a, app_pos(a) + 1);
        }
        return true;
    case K_PLAY:
        if (app_async_view(a)) {
            if (!a->playing && app_async_at_end(a)) app_async_move(a, 0, false);
        } else if (!a->playing && app_pos(a) >= app_nsteps(a)) {
            app_goto(a, 0);
        }
        a->playing = !a->playing;
        return true;
    case K_FASTER: if (a->speed + 1 < app_nspeeds) a->speed++; return true;
    case K_SLOWER: if (a->speed > 0) a->speed--; return true;
    default: return false;
    }
}

/* Enter: answer a "now you try" task, or a node or link question on the Lesson panel; else
 * inspect the cursor node. */
static void act_select(App *a)
{
    const LessonPage *p = app_lesson_cur_page(a);
    if (a->lesson && p && p->qkind == LESSON_Q_TRY && !a->answered && !a->lesson_done) {
        app_lesson_answer_try(a);
        a->panel = PANEL_LESSON;
        return;
    }
    if (a->lesson && a->panel == PANEL_LESSON && p && !a->answered) {
        if (p->qkind == LESSON_Q_NODE) {
            app_lesson_answer_node(a, a->cursor);
            return;
        }
        if (p->qkind == LESSON_Q_LINK) {
            if (a->sel_link < 0) app_msg(a, true, "select a link first (click it, or e)");
            else app_lesson_answer_link(a, a->sel_link);
            return;
        }
    }
    a->panel = PANEL_NODE;
}

/* The map: the cursor, panning, zoom, links, Enter, the source.  False for any other act. */
static bool act_map(App *a, Act act)
{
    const Layout *L = app_map_layout(a);   /* side by side: the left half's */
    int half_r = L->vis_rows > 2 ? L->vis_rows / 2 : 1;
    int half_c = L->vis_cols > 2 ? L->vis_cols / 2 : 1;
    switch (act) {
    case K_LEFT: move_cursor(a, 0, -1); return true;
    case K_RIGHT: move_cursor(a, 0, 1); return true;
    case K_UP: move_cursor(a, -1, 0); return true;
    case K_DOWN: move_cursor(a, 1, 0); return true;
    case K_PAN_L: move_cursor(a, 0, -half_c); return true;
    case K_PAN_R: move_cursor(a, 0, half_c); return true;
    case K_PAN_U: move_cursor(a, -half_r, 0); return true;
    case K_PAN_D: move_cursor(a, half_r, 0); return true;
    case K_ZOOM_IN: app_set_zoom(a, a->zoom - 1); return true;
    case K_ZOOM_OUT: app_set_zoom(a, a->zoom + 1); return true;
    case K_ZOOM_FIT: a->zoom_auto = true; return true;
    case K_SELECT: act_select(a); return true;
    case K_LINK: cycle_link(a); return true;
    case K_SOURCE:
        if (a->b.ready) {
            char buf[32];
            snprintf(buf, sizeof buf, "%ld", (long)a->cursor);
            app_change(a, "source", buf);
        }
        return true;
    default: return false;
    }
}

/* ]: the next page; past the last, the summary with the course's next lesson; on the
 * summary, that next lesson. */
static void act_page_next(App *a)
{
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
}

/* The lesson's keys: pages, scrolling, restart.  False for any other act. */
static bool act_lesson(App *a, Act act)
{
    switch (act) {
    case K_PAGE_NEXT: act_page_next(a); return true;
    case K_PAGE_PREV:
        if (a->lesson && a->lesson_done) {
            a->lesson_done = false;
            a->lesson_off = 0;
            a->panel = PANEL_LESSON;
        }
        else if (a->lesson && a->page > 0) app_lesson_page(a, a->page - 1);
        return true;
    case K_LESSON_RESTART:
        if (!a->lesson) {
            app_msg(a, true, "R restarts a lesson: no lesson is open (o)");
            return true;
        }
        a->lesson_confirm = true;
        app_msg(a, true, "Restart '%s' from page 1, forgetting its pages seen and answers? "
                "y: restart, any other key: keep them", lesson_id(a->lesson));
        return true;
    case K_LESSON_DOWN:
    case K_LESSON_UP:
        if (!a->lesson) {
            app_msg(a, true, "no lesson open (o picks one)");
            return true;
        }
        a->panel = PANEL_LESSON;   /* a page down at a time, less a line to keep the place */
        a->lesson_off += (act == K_LESSON_DOWN ? 1 : -1) *
                         (a->lesson_view > 2 ? a->lesson_view - 1 : 1);
        if (a->lesson_off < 0) a->lesson_off = 0;   /* the bottom is kept when drawn */
        return true;
    default: return false;
    }
}

/* One act of the map's key table: stepping, the map, the lesson, then the rest (panels,
 * pickers, help, tiles, timing, quit, redraw, suspend, the command line, Escape). */
static void map_act(App *a, Act act)
{
    if (act_step(a, act) || act_map(a, act) || act_lesson(a, act)) return;
    switch (act) {
    case K_PANEL: next_panel(a, 1); break;
    case K_PANEL_BACK: next_panel(a, -1); break;
    case K_P_ALGO: app_open_picker(a, PICK_ALGO); break;
    case K_P_NET: app_open_picker(a, PICK_NET); break;
    case K_P_BYTES: app_open_picker(a, PICK_BYTES); break;
    case K_P_MODEL: app_open_picker(a, PICK_MODEL); break;
    case K_P_LESSON: app_open_picker(a, PICK_LESSON); break;
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
    default: break;
    }
}

void app_key(App *a, const char *key)
{
    switch (a->mode) {
    case MODE_CMDLINE: app_cmdline_key(a, key); return;
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
