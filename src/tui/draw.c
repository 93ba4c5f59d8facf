/* draw.c — one frame: title, map, panels, status line, overlays (see draw.h). */
#include "draw.h"
#include "../engine/bounds.h"

#include <curses.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algos/algo.h"
#include "../engine/circuit-bounds.h"
#include "../engine/circuit.h"
#include "../algos/cangwu/cangwu.h"
#include "../engine/tso.h"
#include "../engine/text.h"
#include "../script/lesson-state.h"
#include "app.h"
#include "cellput.h"
#include "draw-internal.h"
#include "draw-step.h"
#include "draw-timeline.h"
#include "draw-asyncnode.h"
#include "draw-chart.h"
#include "helptext.h"
#include "figure.h"
#include "lesson-pick.h"
#include "measured.h"
#include "grade.h"
#include "overview.h"
#include "params.h"
#include "theme.h"
#include "tileview.h"

/* ---- text helpers --------------------------------------------------------------------- */

/* Number of bytes of the first `cols` characters of a UTF-8 string (every character is taken
 * as one column: meshcast only prints narrow characters). */
static size_t utf8_prefix(const char *s, int cols)
{
    size_t i = 0;
    int c = 0;
    while (s[i] && c < cols) {
        i++;
        while (((unsigned char)s[i] & 0xC0) == 0x80) i++;
        c++;
    }
    return i;
}

static int utf8_len(const char *s)
{
    int c = 0;
    for (; *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80) c++;
    return c;
}

/* Write at most w columns of s at (y,x) with attributes attr. Returns columns written. */
static int put(int y, int x, int w, int attr, const char *s)
{
    if (w <= 0 || y < 0 || x < 0 || y >= LINES || x >= COLS) return 0;
    if (x + w > COLS) w = COLS - x;
    int nch, r = cellput_str(y, x, w, attr, s, NULL, &nch);   /* cached cells, when it can */
    if (r >= 0) return r;
    /* every string on the screen (a script's label or name, a lesson's text) as text: no
     * control character reaches the terminal */
    char clean[2048];
    s = text_quote(s, sizeof clean - 4, clean, sizeof clean);
    size_t n = utf8_prefix(s, w);
    attrset(attr);
    mvaddnstr(y, x, s, (int)n);
    attrset(A_NORMAL);
    int l = utf8_len(s);
    return l < w ? l : w;
}

/* put for a line of text: cut short, it ends in an ellipsis (issue 9 defect 7). */
static int put_cut(int y, int x, int w, int attr, const char *s)
{
    if (x >= 0 && x < COLS && x + w > COLS) w = COLS - x;
    if (w >= 2 && x >= 0 && x + w <= COLS) {
        int nch;
        if (y >= 0 && y < LINES && cellput_str(y, x, w, attr, s, theme_glyphs()->cut, &nch) >= 0)
            return nch > w ? w : nch;
        char clean[2048];
        const char *q = text_quote(s, sizeof clean - 4, clean, sizeof clean);
        if (utf8_len(q) > w) {
            put(y, x, w - 1, attr, s);   /* put quotes it the same way */
            put(y, x + w - 1, 1, attr, theme_glyphs()->cut);
            return w;
        }
    }
    return put(y, x, w, attr, s);
}

static int putf(int y, int x, int w, int attr, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int vputf(int y, int x, int w, int attr, const char *fmt, va_list ap)
    __attribute__((format(printf, 5, 0)));
static int vputf(int y, int x, int w, int attr, const char *fmt, va_list ap)
{
    char buf[512];
    vsnprintf(buf, sizeof buf, fmt, ap);
    return put_cut(y, x, w, attr, buf);
}
static int putf(int y, int x, int w, int attr, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vputf(y, x, w, attr, fmt, ap);
    va_end(ap);
    return r;
}

/* One glyph at (y,x) only if that cell is blank (nothing drawn there yet). */
static void put_blank(int y, int x, int attr, const char *s)
{
    if (y < 0 || x < 0 || y >= LINES || x >= COLS) return;
    if ((mvinch(y, x) & A_CHARTEXT) != ' ') return;
    put(y, x, 1, attr, s);
}

static void fill(int y, int x, int w, int attr)
{
    if (y < 0 || y >= LINES || x < 0) return;
    if (x + w > COLS) w = COLS - x;
    int i = 0, fast = x + w < COLS ? w : w - 1;   /* the last column: curses' way (its cursor) */
    if (fast > 0 && cellput_fill(y, x, fast, attr) >= 0) i = fast;
    attrset(attr);
    for (; i < w; i++) mvaddch(y, x + i, ' ');
    attrset(A_NORMAL);
}

static const char *node_name(const Net *net, int32_t n, char *buf, size_t len)
{
    return net_node_name(net, n, buf, len);
}

static void fmt_cost(char *buf, size_t len, double v)
{
    if (fabs(v) >= 1e7) snprintf(buf, len, "%.4g", v);
    else snprintf(buf, len, "%.2f", v);
}

/* The narration line (narrate.h) in w columns: cut short, its cost stays (issue 23): the
 * words are cut before "; costs ...", which keeps its terms when the words keep half the line,
 * else only the step's total ("; costs 156.92 us"). */
static void draw_narration(int y, int x, int w, int attr, const char *text)
{
    const char *tail = NULL;
    for (const char *p = strstr(text, "; costs "); p; p = strstr(p + 1, "; costs ")) tail = p;
    if (!tail || utf8_len(text) <= w) {
        put_cut(y, x, w, attr, text);
        return;
    }
    char body[1024], shortt[96];
    snprintf(body, sizeof body, "%.*s", (int)(tail - text), text);
    const char *tot = strrchr(tail, '=');   /* "... = 75.00 + 81.92 = 156.92 us" */
    snprintf(shortt, sizeof shortt, "; costs %s", tot ? tot + 2 : tail + 8);
    int bl = utf8_len(body), tl = utf8_len(tail), sl = utf8_len(shortt);
    const char *t = tail;
    int l = tl;
    if (bl + sl <= w || w - tl < w / 2) {   /* the whole of the words, or half the line */
        t = shortt;
        l = sl;
    }
    if (l >= w) {   /* (not even the total fits: cut it as any line) */
        put_cut(y, x, w, attr, text);
        return;
    }
    put_cut(y, x, w - l, attr, body);
    put(y, x + (bl < w - l ? bl : w - l), l, attr, t);
}

/* ---- side by side (vs.h) -------------------------------------------------------------- */

Shown draw_shown(App *a)
{
    AppFrameView fv = app_frame_view(a);
    AsyncView *v = app_async_view(a);
    Shown s = {fv.b, v, v ? app_async_run(a) : NULL};
    return s;
}

/* One half's header: what it is (s's broadcast) and its costs at the position shown (on the
 * time line: its moment and time). */
static void vs_header(const Shown *s, const Layout *L, const char *label)
{
    const Bcast *b = s->b;
    Sim *sim = b->sim;
    AsyncView *v = s->av;
    if (v) {
        char t[32], tot[32];
        fmt_cost(t, sizeof t, asyncview_time(v, asyncview_pos(v)));
        fmt_cost(tot, sizeof tot, sim_async_total(s->as));
        putf(L->map_y - 1, L->map_x, L->map_w, theme_attr(R_HEAD), "%s  t=%s  %lld/%lld  of %s",
             label, t, (long long)asyncview_pos(v), (long long)asyncview_ntimes(v) - 1, tot);
        return;
    }
    int32_t n = sched_nsteps(b->sched), st = bcast_step_shown(b);
    char c1[32], c2[32], c3[32];
    fmt_cost(c1, sizeof c1, st >= 0 ? sim_step(sim, st)->cost.total : 0);
    fmt_cost(c2, sizeof c2, st >= 0 ? sim_cost_until(sim, st) : 0);
    if (bcast_partial(b)) snprintf(c3, sizeof c3, "(simulating)");
    else fmt_cost(c3, sizeof c3, sim_totals(sim)->cost.total);
    /* the running totals are the point of the comparison: below ~200 columns the words go
     * first, then the step's cost, then the label is cut; the totals stay */
    /* at its last state while the other goes on: "done" (the position is the longer's) */
    const char *done = b->pos >= n ? " done" : "";
    long p = (long)b->pos;
    char h[5][200];
    snprintf(h[0], sizeof h[0], "%s  %ld/%ld%s  step %s  so far %s of %s", label, p, (long)n, done,
             c1, c2, c3);
    snprintf(h[1], sizeof h[1], "%s %ld/%ld%s  so far %s of %s", label, p, (long)n, done, c2, c3);
    snprintf(h[2], sizeof h[2], "%s %ld/%ld%s %s of %s", label, p, (long)n, done, c2, c3);
    int k = 0;
    while (k < 2 && utf8_len(h[k]) > L->map_w) k++;
    if (utf8_len(h[k]) > L->map_w) {   /* the totals first, the label in what is left */
        snprintf(h[3], sizeof h[3], "%s of %s %ld/%ld%s %s", c2, c3, p, (long)n, done, label);
        k = 3;
    }
    if (utf8_len(h[k]) > L->map_w && done[0]) {   /* narrower: "done" for the position */
        snprintf(h[4], sizeof h[4], "%s of %s done %s", c2, c3, label);
        k = 4;
    }
    putf(L->map_y - 1, L->map_x, L->map_w, theme_attr(R_HEAD), "%s", h[k]);
}

/* The map split in two (app_map_halves): the broadcast on the left, the second (vs.h) on the
 * right, each drawn from its own Shown in its own half's layout (the App is not touched). */
static void draw_vs(App *a, const Layout *left, const Layout *right)
{
    AppFrameView fv = app_frame_view(a);
    const Layout *full = fv.lay;
    int half = right->map_x - left->map_x - 1;   /* the bar's column (app.c, layout_halves) */
    for (int y = full->map_y; y < full->map_y + full->map_h; y++)
        put(y, half, 1, theme_attr(R_DIM), theme_glyphs()->vbar);
    Shown first = draw_shown(a), second = {vs_bcast(fv.vs), NULL, NULL};
    draw_map(a, &first, left);
    vs_header(&first, left, fv.b->setup.def->name);
    AsyncView *v = first.av;   /* on the time line: the second at the same time */
    if (v) {
        second.av = app_vs_async_view(a, asyncview_time(v, asyncview_pos(v)));
        second.as = second.av ? vs_async_run(fv.vs) : NULL;
    }
    draw_map(a, &second, right);
    vs_header(&second, right, vs_label(fv.vs));
}

/* ---- panels --------------------------------------------------------------------------- */

/* A scrolling box lays out this many lines at most (the longest lesson page is ~60). */
#define BOX_SCROLL_MAX 2000

static bool box_line(Box *b)
{
    if (b->scroll) return b->row < BOX_SCROLL_MAX;
    return b->row < b->h;
}

/* The screen row of the box's current line, or -1 when it is not shown (scrolled out of
 * the box, or only measuring); a line below the box sets `more`. */
static int box_y(Box *b)
{
    int r = b->row - b->off;
    if (r >= b->h) b->more = true;
    if (b->dry || r < 0 || r >= b->h) return -1;
    return b->y + r;
}

/* The next line of the box: text as it is. */
static void box_text(Box *b, int attr, const char *text)
{
    if (!box_line(b)) return;
    int y = box_y(b);
    if (y >= 0) put_cut(y, b->x, b->w, attr, text);
    b->row++;
}

static void box_vput(Box *b, int attr, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
static void box_vput(Box *b, int attr, const char *fmt, va_list ap)
{
    if (!box_line(b)) return;
    char buf[512];
    vsnprintf(buf, sizeof buf, fmt, ap);
    box_text(b, attr, buf);
}

static void box_put(Box *b, int attr, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void box_put(Box *b, int attr, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    box_vput(b, attr, fmt, ap);
    va_end(ap);
}

/* "label ........ value" with the value right-aligned at the box's edge. */
static void box_kv(Box *b, int attr, const char *label, const char *value)
{
    if (!box_line(b)) return;
    int vl = (int)strlen(value), ll = (int)strlen(label);
    int pad = b->w - ll - vl;
    if (pad < 1) pad = 1;
    char line[256];
    snprintf(line, sizeof line, "%s%*s%s", label, pad, "", value);
    int y = box_y(b);
    if (y >= 0) put_cut(y, b->x, b->w, attr, line);
    b->row++;
}

/* Word-wrap text into the box: paragraphs are separated by blank lines; a single newline
 * inside a paragraph is a space (lesson text is written as source-code paragraphs). */
static void box_wrap(Box *b, int attr, const char *text, int indent)
{
    char flat[4096];
    size_t o = 0;
    for (const char *q = text; *q && o + 2 < sizeof flat; q++) {
        if (*q == '\n') {
            if (q[1] == '\n') {
                flat[o++] = '\n';
                while (q[1] == '\n') q++;
            } else {
                flat[o++] = ' ';
            }
        } else {
            flat[o++] = *q;
        }
    }
    flat[o] = '\0';
    const char *p = flat;
    int w = b->w - indent;
    if (w < 8) w = 8;
    while (*p && box_line(b)) {
        if (*p == '\n') {
            b->row++;
            p++;
            continue;
        }
        /* take up to w columns, break at a space */
        const char *start = p, *brk = NULL;
        int cols = 0;
        while (*p && *p != '\n' && cols < w) {
            if (*p == ' ') brk = p;
            p++;
            while (((unsigned char)*p & 0xC0) == 0x80) p++;
            cols++;
        }
        if (*p && *p != '\n' && *p != ' ' && brk) p = brk;
        char line[512];
        size_t l = (size_t)(p - start);
        if (l >= sizeof line) l = sizeof line - 1;
        memcpy(line, start, l);
        line[l] = '\0';
        int y = box_y(b);
        if (y >= 0) put(y, b->x + indent, w, attr, line);
        b->row++;
        while (*p == ' ') p++;
        /* a '\n' left here ends the paragraph: the next round leaves a blank line */
    }
}

/* draw-internal.h: the helpers for the panels drawn in their own files */
int draw_put(int y, int x, int w, int attr, const char *s) { return put(y, x, w, attr, s); }
void draw_put_blank(int y, int x, int attr, const char *s) { put_blank(y, x, attr, s); }
void draw_line(Box *b, int attr, const char *s)
{
    if (strlen(s) < 512) box_text(b, attr, s);
    else box_put(b, attr, "%s", s);   /* cut at box_put's 511 bytes, as always */
}
void draw_fmt_cost(char *buf, size_t len, double v) { fmt_cost(buf, len, v); }
void draw_wrap(Box *b, int attr, const char *text, int indent) { box_wrap(b, attr, text, indent); }
int draw_put_cut(int y, int x, int w, int attr, const char *s) { return put_cut(y, x, w, attr, s); }
bool draw_box_line(Box *b) { return box_line(b); }
int draw_putf(int y, int x, int w, int attr, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vputf(y, x, w, attr, fmt, ap);
    va_end(ap);
    return r;
}
void draw_box_kv(Box *b, int attr, const char *label, const char *value) { box_kv(b, attr, label, value); }
void draw_box_put(Box *b, int attr, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    box_vput(b, attr, fmt, ap);
    va_end(ap);
}

static void panel_title(Box *b, App *a, const char *title)
{
    AppFrameView fv = app_frame_view(a);
    static const char *names[PANEL_N] = {"Step", "Timeline", "Node", "Chart", "Lesson"};
    /* tabs: the current one highlighted */
    int x = b->x;
    for (int i = 0; i < PANEL_N; i++) {
        if (i == PANEL_LESSON && !fv.lesson) continue;
        int attr = i == (int)fv.panel ? theme_attr(R_TITLE) : theme_attr(R_DIM);
        char t[24];
        snprintf(t, sizeof t, i == (int)fv.panel ? "[%s]" : " %s ", names[i]);
        x += put(b->y + b->row, x, b->x + b->w - x, attr, t);
    }
    b->row++;
    (void)title;
}


/* The legend, in the glyphs the map uses at its zoom: packets in roomy cells, one character
 * a node at the smallest zooms. */
static void panel_legend(Box *b, const Layout *L, int32_t nsources, int ov_cap)
{
    bool overview = ov_cap > 0;   /* the overview's legend; ov_cap: the links' capacity */
    const Glyphs *g = theme_glyphs();
    char circ[16], over[16], full[16], part[16], empty[16], more[40];
    char ranges[GRADE_N][40], ovr[3][40];
    snprintf(circ, sizeof circ, "%s%s", g->h_line, g->right);
    snprintf(over, sizeof over, "%s2%s", g->left, g->right);
    snprintf(more, sizeof more, "%s%s%s%s", g->more_l, g->more_r, g->more_u, g->more_d);
    if (L->cw > 1) {
        snprintf(full, sizeof full, "%s%s", g->pk_have, g->pk_have);
        snprintf(part, sizeof part, "%s%s", g->pk_have, g->pk_miss);
        snprintf(empty, sizeof empty, "%s%s", g->pk_miss, g->pk_miss);
    } else {
        snprintf(full, sizeof full, "%s", g->full);
        snprintf(part, sizeof part, "%s", g->partial);
        snprintf(empty, sizeof empty, "%s", g->empty);
    }
    typedef struct { const char *mark; Role r; const char *text; } Item;
    const Item common[] = {
        {g->recv_mark, R_RECV, "receiving"},
        {circ, R_CIRCUIT, "circuit"},      {over, R_OVERLOAD, "overloaded (load)"},
        {"!", R_CONFLICT, "port conflict"}, {"[ ]", R_CURSOR, "cursor"},
        {"  ", R_HILITE, "lesson"},        {more, R_DIM, "more map"},
    };
    Item items[16];
    int n = 0;
    if (overview) {   /* overview.h: a character a block; overload graded, digit and colour */
        /* the peak loads of the grades: ceil(load/C) in 2-3, 4-7, 8+ (C = 1: 2-3, 4-7, 8+) */
        long c = ov_cap;
        snprintf(ovr[0], sizeof ovr[0], "peak load %ld-%ld", c + 1, 3 * c);
        snprintf(ovr[1], sizeof ovr[1], "%ld-%ld", 3 * c + 1, 7 * c);
        if (c > 1) snprintf(ovr[2], sizeof ovr[2], "%ld+ (capacity %ld)", 7 * c + 1, c);
        else snprintf(ovr[2], sizeof ovr[2], "8+ (2^digit)");
        const Item ov[] = {
            {".:+#", R_RECV, "receiving 1/4..all"}, {g->full, R_FULL, "full"},
            {g->partial, R_PARTIAL, "partial"},    {g->empty, R_EMPTY, "empty"},
            {"1", R_OV1, ovr[0]},                  {"2", R_OV2, ovr[1]},
            {"3+", R_OV3, ovr[2]},                 {"[ ]", R_CURSOR, "cursor"},
        };
        for (size_t i = 0; i < sizeof ov / sizeof ov[0]; i++) items[n++] = ov[i];
    } else if (nsources > 1) {
        /* s-to-p: the grades with the counts of messages each stands for, the source mark */
        static const Role groles[GRADE_N] = {R_EMPTY, R_G1, R_G2, R_G3, R_FULL};
        const char *gmark[GRADE_N] = {g->empty, g->grade[0], g->grade[1], g->grade[2], g->full};
        for (int k = 0; k < GRADE_N; k++) {
            uint64_t lo, hi;
            if (!grade_range(k, (uint64_t)nsources, &lo, &hi)) continue;
            if (lo == hi) snprintf(ranges[k], sizeof ranges[k], "%llu%s", (unsigned long long)lo,
                                   k == GRADE_N - 1 ? " messages" : "");
            else snprintf(ranges[k], sizeof ranges[k], "%llu-%llu", (unsigned long long)lo,
                          (unsigned long long)hi);
            items[n++] = (Item){gmark[k], groles[k], ranges[k]};
        }
        items[n++] = (Item){"@", R_NORMAL, "source"};
    } else {
        items[n++] = (Item){full, R_FULL, "full"};
        items[n++] = (Item){part, R_PARTIAL, "partial"};
        items[n++] = (Item){empty, R_EMPTY, "empty"};
    }
    for (size_t i = 0; !overview && i < sizeof common / sizeof common[0]; i++)
        items[n++] = common[i];
    /* lay the items out in as many lines as the width needs, at the bottom of the box */
    int lines = 1, x = 0;
    for (int i = 0; i < n; i++) {
        int w = utf8_len(items[i].mark) + 1 + (int)strlen(items[i].text) + 2;
        if (x + w > b->w && x > 0) { lines++; x = 0; }
        x += w;
    }
    if (b->h - b->row < lines + 1) return;
    int y = b->y + b->h - lines;
    x = 0;
    for (int i = 0; i < n; i++) {
        int w = utf8_len(items[i].mark) + 1 + (int)strlen(items[i].text) + 2;
        if (x + w > b->w && x > 0) { y++; x = 0; }
        x += put(y, b->x + x, b->w - x, theme_attr(items[i].r), items[i].mark);
        x += put(y, b->x + x, b->w - x, theme_attr(R_DIM), " ");
        x += put(y, b->x + x, b->w - x, theme_attr(R_NORMAL), items[i].text);
        x += 2;
    }
    b->row = b->h;
}

static void panel_node(App *a, Box *b)
{
    AppFrameView fv = app_frame_view(a);
    const Net *net = fv.b->setup.net;
    Sim *sim = fv.b->sim;
    int32_t node = fv.cursor;
    char nm[48], nm2[48], ch[160];
    uint32_t all = sched_nchunks(fv.b->sched);
    box_put(b, theme_attr(R_HEAD), "Node %s  (id %ld)%s", node_name(net, node, nm, sizeof nm),
            (long)node, node == sched_source(fv.b->sched) ? "  source" : "");
    size_t nr;
    const ChunkRange *r = sim_holdings(sim, node, &nr);
    chunkset_format(r, nr, ch, sizeof ch);
    box_put(b, theme_attr(R_NORMAL), "holds %llu of %lu chunks: %s",
            (unsigned long long)sim_held(sim, node), (unsigned long)all, nr ? ch : "none");
    if (fv.sel_link >= 0) {
        int32_t tail; int dim, dir;
        net_link_info(net, fv.sel_link, &tail, &dim, &dir);
        int32_t step = app_step_shown(a);
        box_put(b, theme_attr(R_CURSOR), "link %s%s%s (dim %d, %s): load %ld",
                node_name(net, tail, nm, sizeof nm), theme_glyphs()->right,
                node_name(net, net_link_head(net, fv.sel_link), nm2, sizeof nm2), dim,
                dir > 0 ? "+" : "-", (long)(step >= 0 ? sim_link_load(sim, step, fv.sel_link) : 0));
    }
    if (!app_node_history(a)) {
        box_put(b, theme_attr(R_DIM), "(schedule too large for the history)");
        return;
    }
    box_put(b, theme_attr(R_HEAD), " step  held  sent to      recv from");
    int32_t n = fv.hist->nsteps, cur = fv.b->pos;
    int rows = b->h - b->row;
    int32_t first = (int32_t)draw_window_first(cur, n + 1, rows);
    for (int32_t p = first; p <= n && box_line(b); p++) {
        char to[64] = "", from[64] = "";
        if (p >= 1) {
            int32_t st = p - 1;
            if (fv.hist->nsent[st])
                snprintf(to, sizeof to, "%s%s", node_name(net, fv.hist->to[st], nm, sizeof nm),
                         fv.hist->nsent[st] > 1 ? "+" : "");
            if (fv.hist->nrecv[st])
                snprintf(from, sizeof from, "%s%s",
                         node_name(net, fv.hist->from[st], nm2, sizeof nm2),
                         fv.hist->nrecv[st] > 1 ? "+" : "");
        }
        int attr = p == cur ? theme_attr(R_CURSOR) : theme_attr(R_NORMAL);
        box_put(b, attr, "%s%4ld %5llu  %-12s %s", p == cur ? theme_glyphs()->right : " ",
                (long)p, (unsigned long long)fv.hist->held[p], to, from);
    }
}

/* After ] on the last page: the score. */
static void lesson_summary(App *a, Box *b)
{
    AppFrameView fv = app_frame_view(a);
    Lesson *l = fv.lesson;
    LessonScore sc;
    lesson_score(l, fv.prog, &sc);
    b->row++;
    box_put(b, theme_attr(R_HEAD), "The end of the lesson");
    b->row++;
    box_put(b, theme_attr(R_GOOD), "Right at the first try: %zu of %zu questions", sc.first_right,
            sc.questions);
    box_put(b, theme_attr(R_NORMAL), "Right in the end: %zu of %zu", sc.right, sc.questions);
    box_put(b, theme_attr(R_NORMAL), "Pages seen: %zu of %zu", sc.seen, lesson_npages(l));
    char miss[200] = "";
    for (size_t i = 0; i < lesson_npages(l) && i < 256; i++) {
        const LessonPage *p = lesson_page(l, i);
        if (p->qkind == LESSON_Q_NONE || fv.prog->first[i] == 1) continue;
        size_t n = strlen(miss);
        snprintf(miss + n, sizeof miss - n, "%s%zu", n ? ", " : "", i + 1);
    }
    if (miss[0]) {
        b->row++;
        box_wrap(b, theme_attr(R_DIM), "Worth another look (not right at the first try): pages ",
                 0);
        box_wrap(b, theme_attr(R_KEY), miss, 0);
    }
    b->row++;
    if (fv.lesson_next[0])   /* the course goes on (lessons/course) */
        box_put(b, theme_attr(R_KEY), "Next in the course: %s  (])", fv.lesson_next);
    else
        box_put(b, theme_attr(R_DIM), "No next lesson in the course (o picks another)");
}

/* The page's text, its question, and how it was answered; the row where the answer's
 * response (Right!, Not quite, the explanation) starts, or -1 when there is none. */
static int lesson_question(App *a, Box *b, const LessonPage *p)
{
    AppFrameView fv = app_frame_view(a);
    int resp = -1;
    Lesson *l = fv.lesson;
    b->row++;
    box_wrap(b, theme_attr(R_NORMAL), p->text ? p->text : "", 0);
    if (p->qkind != LESSON_Q_NONE && p->question) {
        b->row++;
        box_wrap(b, theme_attr(R_KEY), p->question, 0);
        if (p->qkind == LESSON_Q_CHOICE)
            for (size_t i = 0; i < p->nchoices && box_line(b); i++) {
                /* the wrong choice picked is marked "-", the right one "+" once answered */
                bool wrong = fv.last_answer < 0 && fv.last_choice == (int)i;
                bool right = fv.answered && (int)i == p->answer_choice;
                char lead[8];
                snprintf(lead, sizeof lead, "%c%c) ", wrong ? '-' : right ? '+' : ' ',
                         (char)('a' + i));
                int attr = wrong ? theme_attr(R_BAD) : right ? theme_attr(R_GOOD)
                                                              : theme_attr(R_NORMAL);
                int y = box_y(b);
                if (y >= 0) put(y, b->x, 4, wrong || right ? attr : theme_attr(R_KEY), lead);
                Box sub = *b;
                sub.x += 4;
                sub.w -= 4;
                box_wrap(&sub, attr, p->choices[i], 0);
                b->row = sub.row;
                b->more |= sub.more;
            }
        else if (p->qkind == LESSON_Q_TRY)
            box_wrap(b, theme_attr(R_DIM), " (now you try: get there with :set, n/p, the pickers "
                     "or the cursor, then press Enter)", 0);
        else if (p->qkind == LESSON_Q_NODE)
            box_wrap(b, theme_attr(R_DIM), " (click the node, or move the cursor and press "
                     "Enter)", 0);
        else
            box_wrap(b, theme_attr(R_DIM), " (click the link, or select it with e and press "
                     "Enter)", 0);
        LessonState st;
        lesson_state(l, fv.page, &st);
        if (!fv.answered && p->qkind != LESSON_Q_TRY &&
            lesson_state_shown_step(l, fv.page, &st) != st.step)
            box_wrap(b, theme_attr(R_DIM), " Predict, then see: the step is shown once you "
                     "answer.", 0);
        if (fv.answered || fv.last_answer < 0) resp = b->row;
        if (fv.answered) {
            box_put(b, theme_attr(R_GOOD), "Right!");
            if (p->explain) box_wrap(b, theme_attr(R_NORMAL), p->explain, 0);
        } else if (fv.last_answer < 0) {
            box_put(b, theme_attr(R_BAD), "Not quite - try again.");
            if (p->qkind == LESSON_Q_CHOICE && p->feedback && fv.last_choice >= 0 &&
                (size_t)fv.last_choice < p->nchoices && p->feedback[fv.last_choice])
                box_wrap(b, theme_attr(R_NORMAL), p->feedback[fv.last_choice], 0);
            if (p->qkind == LESSON_Q_TRY && fv.try_why[0])
                box_wrap(b, theme_attr(R_NORMAL), fv.try_why, 0);
            if (p->hint) {   /* the lesson's nudge, never the answer (writing-lessons.md) */
                char h[600];
                snprintf(h, sizeof h, "Hint: %s", p->hint);
                box_wrap(b, theme_attr(R_NORMAL), h, 0);
            }
        } else if (fv.page < 256 && fv.prog->answer[fv.page] == 1) {
            box_put(b, theme_attr(R_GOOD), "(you answered this right before)");
        }
    }
    return resp;
}

/* The page (or the summary) laid out in a scrolling box: measured first, then the scroll
 * offset kept within the text (and moved down to show a new answer's response), then drawn. */
static void lesson_body(App *a, Box *b, const LessonPage *p)
{
    AppFrameView fv = app_frame_view(a);
    Box m = *b;
    m.scroll = m.dry = true;
    m.off = 0;
    int resp = fv.lesson_done ? -1 : lesson_question(a, &m, p);
    if (fv.lesson_done) lesson_summary(a, &m);
    int total = m.row, view = b->h, off = fv.lesson_off;
    if (resp >= 0 && fv.lesson_follow && resp + 3 > off + view)
        off = resp + 3 - view;   /* the response and its first lines in view */
    if (off > total - view) off = total - view;
    if (off < 0) off = 0;
    app_lesson_scrolled(a, off, view);
    Box d = *b;
    d.scroll = true;
    d.off = off;
    if (fv.lesson_done) lesson_summary(a, &d);
    else lesson_question(a, &d, p);
    b->more = d.more;
}

static void panel_lesson(App *a, Box *b)
{
    AppFrameView fv = app_frame_view(a);
    Lesson *l = fv.lesson;
    size_t np = lesson_npages(l);
    const LessonPage *p = lesson_page(l, fv.page);
    /* the header is never cut (issue 23): the title wraps, the score line takes the first of
     * its forms that fits, shorter words then two lines; the numbers are always all there */
    box_wrap(b, theme_attr(R_HEAD), lesson_title(l), 0);
    LessonScore sc;
    lesson_score(l, fv.prog, &sc);
    char f[4][2][96];
    size_t pg = fv.page + 1;
    snprintf(f[0][0], sizeof f[0][0], "page %zu/%zu   seen %zu, answered right %zu, first try %zu/%zu",
             pg, np, sc.seen, sc.right, sc.first_right, sc.questions);
    snprintf(f[1][0], sizeof f[1][0], "page %zu/%zu  seen %zu  right %zu  first try %zu/%zu", pg,
             np, sc.seen, sc.right, sc.first_right, sc.questions);
    snprintf(f[2][0], sizeof f[2][0], "page %zu/%zu  seen %zu", pg, np, sc.seen);
    snprintf(f[2][1], sizeof f[2][1], "right %zu  first try %zu/%zu", sc.right, sc.first_right,
             sc.questions);
    snprintf(f[3][0], sizeof f[3][0], "page %zu/%zu seen %zu", pg, np, sc.seen);
    snprintf(f[3][1], sizeof f[3][1], "right %zu 1st %zu/%zu", sc.right, sc.first_right,
             sc.questions);
    f[0][1][0] = f[1][1][0] = '\0';
    int k = 0;
    while (k < 3 && (utf8_len(f[k][0]) > b->w || utf8_len(f[k][1]) > b->w)) k++;
    box_put(b, theme_attr(R_DIM), "%s", f[k][0]);
    if (f[k][1][0]) box_put(b, theme_attr(R_DIM), "%s", f[k][1]);
    if (!p || b->row + 2 > b->h) return;
    /* the text between the header and the key line scrolls */
    Box body = {.x = b->x, .y = b->y + b->row, .w = b->w, .h = b->h - b->row - 1};
    lesson_body(a, &body, p);
    b->row = b->h - 1;
    const char *keys = fv.lesson_done && fv.lesson_next[0]
                       ? "] next lesson  [ back  o another  R restart"
                       : fv.lesson_done ? "[ back to the last page  o another lesson  R restart"
                       : fv.page + 1 == np ? "] the score  [ previous  Tab other panels"
                       : "] next page  [ previous  Tab other panels";
    if (body.more || app_frame_view(a).lesson_off > 0)   /* the mark, the keys that scroll
                                                            * (the offset lesson_body kept) */
        box_put(b, theme_attr(R_KEY), "%s } more  { back  %s",
                body.more ? "v" : "^", keys);
    else
        box_put(b, theme_attr(R_DIM), "%s", keys);
}

static void draw_side(App *a)
{
    AppFrameView fv = app_frame_view(a);
    const Layout *L = fv.lay;
    if (L->side_w <= 0) return;
    const Glyphs *g = theme_glyphs();
    for (int y = L->side_y; y < L->side_y + L->side_h; y++)
        put(y, L->side_x - 1, 1, theme_attr(R_DIM), g->vbar);
    Box b = {.x = L->side_x + 1, .y = L->side_y, .w = L->side_w - 2, .h = L->side_h};
    panel_title(&b, a, NULL);
    if (!fv.b->ready) {
        box_wrap(&b, theme_attr(R_BAD), fv.msg[0] ? fv.msg : "no broadcast", 0);
        return;
    }
    Box rest = {.x = b.x, .y = b.y + b.row, .w = b.w, .h = b.h - b.row};
    if (fv.panel != PANEL_LESSON && app_quiz_hides(a)) {
        rest.row++;
        box_wrap(&rest, theme_attr(R_DIM), "Hidden until the lesson's question is answered: "
                 "this panel could give the answer away.  Tab back to the Lesson panel.", 0);
        return;
    }
    switch (fv.panel) {
    case PANEL_STEP:
        if (app_async_view(a)) draw_moment(fv.b, app_async_run(a), &rest, app_async_view(a));
        else {
            StepSrc ss = {.b = fv.b, .lines = fv.steplines};
            ss.simulating = app_rest_progress(a, &ss.rest_done, &ss.rest_total);
            draw_step(&ss, &rest, true);
        }
        OvSrc osrc = app_overview_src(a);
        panel_legend(&rest, fv.lay, fv.b->setup.sources ? fv.b->setup.nsources : 0,
                     fv.ov_block > 0 ? overview_capacity(&osrc) : 0);
        break;
    case PANEL_TIMELINE: {
        /* a short step summary above the timeline when there is room */
        TlRows tr = {fv.tl_y0, fv.tl_rows, fv.tl_first, fv.tl_per};
        if (app_async_view(a)) {
            draw_timeline_async(&rest, app_async_view(a), &tr);
        } else {
            TlSrc ts = {.b = fv.b, .meas = app_partial(a) ? NULL : measured_shown(a)};
            ts.simulating = app_rest_progress(a, &ts.rest_done, &ts.rest_total);
            draw_timeline(&ts, &rest, &tr);
        }
        app_set_timeline_rows(a, tr.y0, tr.rows, tr.first, tr.per);
        break;
    }
    case PANEL_NODE:
        if (app_async_view(a)) {
            AsyncNodeSrc ns = {.b = fv.b, .node = fv.cursor, .v = app_async_view(a)};
            ns.nev = app_async_node_events(a, fv.cursor, &ns.ev);
            ns.as = app_async_run(a);
            draw_node_async(&ns, &rest);
        }
        else panel_node(a, &rest);
        break;
    case PANEL_CHART: {
        ChartSrc cs = {.fig = fv.fig, .fig3 = fv.chart_fig3 ? fv.fig3 : NULL,
                       .fig3_p = fv.fig3_p, .b = fv.b};
        if (!cs.fig && !cs.fig3) cs.chart = app_chart(a);   /* computed (or reset) on demand */
        if (!cs.fig && !cs.fig3 && cs.chart->nalgo > 0) cs.meas = measured_shown(a);
        draw_chart(&cs, &rest);
        break;
    }
    case PANEL_LESSON:
        if (fv.lesson) panel_lesson(a, &rest);
        break;
    case PANEL_N: break;
    }
}

static void fmt_bytes(char *buf, size_t len, uint64_t v)
{
    if (v >= (1u << 20) && v % (1u << 20) == 0) snprintf(buf, len, "%lluM", (unsigned long long)(v >> 20));
    else if (v >= 1024 && v % 1024 == 0) snprintf(buf, len, "%lluK", (unsigned long long)(v >> 10));
    else snprintf(buf, len, "%llu", (unsigned long long)v);
}

void draw_fmt_bytes(char *buf, size_t len, uint64_t v) { fmt_bytes(buf, len, v); }

/* ---- title, status, overlays ---------------------------------------------------------- */

static void draw_title(App *a)
{
    AppFrameView fv = app_frame_view(a);
    int attr = theme_attr(R_TITLE);
    fill(0, 0, COLS, attr);
    char nm[48], t[400], r[160];
    if (fv.b->ready) {
        const Setup *s = &fv.b->setup;
        char by[24];   /* 20 digits and a unit: -O2 checks the bound */
        fmt_bytes(by, sizeof by, s->args.bytes);
        char pr[160];
        params_text(s, fv.b->spec.fit, pr, sizeof pr);
        if (s->sources && s->nsources > 1 && app_quiz_hides_counts(a))   /* the answer? */
            snprintf(nm, sizeof nm, "sources (@)");
        else if (s->sources && s->nsources > 1)
            snprintf(nm, sizeof nm, "%ld sources (@)", (long)s->nsources);
        else   /* a reduction has a root where a broadcast has a source */
            snprintf(nm, sizeof nm, "%s %s", fv.b->reduce ? "root" : "source",
                     node_name(s->net, s->args.source, t, sizeof t));
        snprintf(t, sizeof t, " meshcast  %s%s on %s  %s  %s B  %s%s%s", s->def->name,
                 s->reduce ? " reduce" : "", net_spec(s->net), nm, by,
                 cost_model_name(s->cost.model), pr[0] ? "  " : "", pr);
        /* the step counter and play state keep their place at the right end */
        AsyncView *v = app_async_view(a);
        char tm[32];
        if (v) fmt_cost(tm, sizeof tm, asyncview_time(v, asyncview_pos(v)));
        /* a lesson's open question: the position and the total could be its answer */
        char pos[24] = "?", tot[24] = "?";
        bool quiz = app_quiz_hides_counts(a);
        if (v && !quiz) {
            snprintf(pos, sizeof pos, "%lld", (long long)asyncview_pos(v));
            snprintf(tot, sizeof tot, "%lld", (long long)asyncview_ntimes(v) - 1);
        } else if (!quiz) {
            snprintf(pos, sizeof pos, "%ld", (long)app_pos(a));
            snprintf(tot, sizeof tot, "%ld", (long)app_nsteps(a));
        }
        if (v)   /* the time line: the moment's time */
            snprintf(r, sizeof r, " t=%s  %s/%s  %s %gx ", quiz ? "?" : tm, pos, tot,
                     fv.playing ? theme_glyphs()->play : theme_glyphs()->pause, app_speeds[fv.speed]);
        else
            snprintf(r, sizeof r, " step %s/%s  %s %gx ", pos, tot,
                     fv.playing ? theme_glyphs()->play : theme_glyphs()->pause, app_speeds[fv.speed]);
    } else {
        snprintf(t, sizeof t, " meshcast  (no broadcast: : to choose one)");
        r[0] = '\0';
    }
    int rl = utf8_len(r);
    put_cut(0, 0, COLS - rl, attr, t);
    put(0, COLS - rl, rl, attr, r);
}

/* The candidates of Tab completion (cmdtab.h) above the command line at row y: all of them,
 * wrapped on as many lines as they take (at most half the screen: then the lines around the
 * one on the command line), that one highlighted. */
static void draw_completions(App *a, int y)
{
    AppFrameView fv = app_frame_view(a);
    int row = 0, col = 0, at_row = 0, nrows;
    for (int pass = 0; pass < 2; pass++) {
        nrows = row + 1;
        int max = LINES / 2 > 1 ? LINES / 2 : 1;
        int first = nrows <= max ? 0 : at_row - max / 2 < 0 ? 0
                  : at_row - max / 2 + max > nrows ? nrows - max : at_row - max / 2;
        int shown = nrows < max ? nrows : max;
        row = col = 0;
        for (size_t i = 0; i < fv.ncomp; i++) {
            int l = utf8_len(fv.comp[i]);
            if (col > 0 && col + 2 + l > COLS) { row++; col = 0; }
            if (col > 0) col += 2;
            if ((int)i == fv.comp_at) at_row = row;
            int r = y - shown + row - first;
            if (pass == 1 && row >= first && row < first + shown) {
                if (col == 0) fill(r, 0, COLS, theme_attr(R_NORMAL));
                put(r, col, COLS - col,
                    (int)i == fv.comp_at ? theme_attr(R_CURSOR) : theme_attr(R_KEY), fv.comp[i]);
            }
            col += l;
        }
    }
}

static void draw_status(App *a)
{
    AppFrameView fv = app_frame_view(a);
    int y = LINES - 1;
    int attr = theme_attr(R_STATUS);
    fill(y, 0, COLS, attr);
    if (fv.mode == MODE_CMDLINE) {
        if (fv.comp && fv.ncomp > 1) {
            draw_completions(a, y);
        } else if (fv.msg[0]) {  /* an error, just above the command line */
            fill(y - 1, 0, COLS, theme_attr(R_NORMAL));
            put_cut(y - 1, 0, COLS, fv.msg_error ? theme_attr(R_BAD) : theme_attr(R_KEY), fv.msg);
        }
        char t[300];
        snprintf(t, sizeof t, ":%s", fv.cmd);
        int len = utf8_len(t);
        const char *s = t;
        if (len >= COLS - 1) s = t + utf8_prefix(t, len - COLS + 2);
        put(y, 0, COLS, attr, s);
        move(y, utf8_len(s) < COLS ? utf8_len(s) : COLS - 1);
        return;
    }
    if (fv.msg[0]) {
        put_cut(y, 0, COLS, fv.msg_error ? (theme_attr(R_BAD) | (int)A_REVERSE) : attr, fv.msg);
        return;
    }
    char right[160] = "";
    OvBlock ob;
    int obr, obc;
    OvSrc osrc = app_overview_src(a);
    if (fv.b->ready && fv.ov_block > 0 && overview_block(fv.ov, &osrc, fv.cursor, &ob, &obr, &obc)) {
        char nm[48];
        int bw = net_ndim(fv.b->setup.net) == 1 ? 1 : overview_bcols(fv.b->setup.net, fv.ov_block);
        int pc = ob.nodes ? 100 * ob.receiving / ob.nodes : 0;
        node_name(fv.b->setup.net, fv.cursor, nm, sizeof nm);
        snprintf(right, sizeof right, "overview %dx%d  cursor %s: %d%% receiving, peak load %ld ",
                 fv.ov_block, bw, nm, pc, (long)ob.peak);
        if (COLS - (int)strlen(right) <= 24)   /* narrow: the same numbers in fewer words */
            snprintf(right, sizeof right, "overview %dx%d %s %d%% recv, peak load %ld ",
                     fv.ov_block, bw, nm, pc, (long)ob.peak);
    } else if (fv.b->ready) {
        char nm[48];
        snprintf(right, sizeof right, "cursor %s  zoom %d ",
                 node_name(fv.b->setup.net, fv.cursor, nm, sizeof nm), fv.zoom);
    }
    int rl = (int)strlen(right);
    put_cut(y, 0, COLS - rl - 1, attr,
        COLS >= 120 ? " n/p step  Space play  hjkl cursor  Tab panel  a/t/b/m pick  : command  ? help  q quit"
                    : " n/p step  Space play  Tab panel  : cmd  ? help  q quit");
    if (COLS - rl > (fv.ov_block > 0 ? 24 : 40)) put(y, COLS - rl, rl, attr, right);
}

static void draw_box(int y, int x, int h, int w, const char *title)
{
    int attr = theme_attr(R_NORMAL);
    for (int r = 0; r < h; r++) fill(y + r, x, w, attr);
    const Glyphs *g = theme_glyphs();
    for (int i = 0; i < w; i++) {
        put(y, x + i, 1, theme_attr(R_HEAD), g->hbar);
        put(y + h - 1, x + i, 1, theme_attr(R_HEAD), g->hbar);
    }
    for (int r = 1; r < h - 1; r++) {
        put(y + r, x, 1, theme_attr(R_HEAD), g->vbar);
        put(y + r, x + w - 1, 1, theme_attr(R_HEAD), g->vbar);
    }
    put(y, x, 1, theme_attr(R_HEAD), g->tl);
    put(y, x + w - 1, 1, theme_attr(R_HEAD), g->tr);
    put(y + h - 1, x, 1, theme_attr(R_HEAD), g->bl);
    put(y + h - 1, x + w - 1, 1, theme_attr(R_HEAD), g->br);
    putf(y, x + 2, w - 4, theme_attr(R_HEAD), " %s ", title);
}

static void draw_help(App *a)
{
    AppFrameView fv = app_frame_view(a);
    int w = COLS - 4 < 84 ? COLS - 4 : 84, h = LINES - 2;
    int x = (COLS - w) / 2, y = 1;
    size_t n = 0;
    HelpRow *k = helptext_rows(18, w - 23 > 8 ? w - 23 : 8, &n);   /* wrapped, never cut */
    draw_box(y, x, h, w, "meshcast keys  (j/k scroll, any other key closes)");
    int rows = h - 2;
    int maxtop = (int)n - rows > 0 ? (int)n - rows : 0;
    int top = fv.help_top > maxtop ? maxtop : fv.help_top;
    app_set_help_top(a, top);
    for (int i = 0; i < rows && top + i < (int)n; i++) {
        const HelpRow *e = &k[top + i];
        put(y + 1 + i, x + 2, e->text[0] ? 18 : w - 4, theme_attr(R_KEY), e->keys);
        put(y + 1 + i, x + 21, w - 23, theme_attr(R_NORMAL), e->text);
    }
    free(k);
}

static void draw_picker(App *a)
{
    AppFrameView fv = app_frame_view(a);
    static const char *titles[] = {"algorithm", "net", "bytes", "model", "source", "lesson"};
    int w = 34, h = (int)fv.nitems + 2;
    /* as wide as the longest item (lessons carry their title and progress), within the screen */
    for (size_t k = 0; k < fv.nitems; k++) {
        int iw = utf8_len(fv.items[k]) + 6;
        if (iw > w) w = iw;
    }
    if (w > COLS - 2) w = COLS - 2;
    if (h > LINES - 4) h = LINES - 4;
    int x = (COLS - w) / 2, y = (LINES - h) / 2;
    char t[64];
    snprintf(t, sizeof t, "pick %s (Enter, Esc)", titles[fv.pick]);
    draw_box(y, x, h, w, t);
    int rows = h - 2;
    int first = (int)fv.pick_sel - rows + 1;
    if (first < 0) first = 0;
    for (int i = 0; i < rows && first + i < (int)fv.nitems; i++) {
        size_t k = (size_t)(first + i);
        int attr = k == fv.pick_sel ? theme_attr(R_CURSOR) : theme_attr(R_NORMAL);
        if (fv.pick == PICK_LESSON && lesson_pick_is_heading(fv.items[k]))
            attr = theme_attr(R_KEY);   /* a track's heading (never the cursor's) */
        fill(y + 1 + i, x + 1, w - 2, attr);
        putf(y + 1 + i, x + 2, w - 4, attr, "%s %s", k == fv.pick_sel ? theme_glyphs()->right : " ",
             fv.items[k]);
    }
}

void draw_frame(App *a)
{
    app_layout(a, COLS, LINES);
    AppFrameView fv = app_frame_view(a);
    erase();
    curs_set(0);
    const Layout *L = fv.lay;
    if (L->too_small) {
        char t[160];
        snprintf(t, sizeof t, "Terminal too small: %dx%d", COLS, LINES);
        char u[160];
        snprintf(u, sizeof u, "meshcast needs at least %dx%d", LAYOUT_MIN_W, LAYOUT_MIN_H);
        int y = LINES / 2 - 1;
        put_cut(y < 0 ? 0 : y, 0, COLS, theme_attr(R_BAD), t);
        put_cut(y + 1, 0, COLS, theme_attr(R_NORMAL), u);
        put(y + 2, 0, COLS, theme_attr(R_DIM), "(q quits)");
        wnoutrefresh(stdscr);
        return;
    }
    draw_title(a);
    const Layout *left, *right;
    if (fv.b->ready) {
        if (fv.ov_block > 0) {
            OvSrc osrc = app_overview_src(a);
            overview_draw(fv.ov, &osrc);
        }
        else if (app_map_halves(a, &left, &right)) draw_vs(a, left, right);
        else {
            Shown sh = draw_shown(a);
            draw_map(a, &sh, fv.lay);
        }
        draw_narration(L->narr_y, 1, COLS - 2, theme_attr(R_KEY), app_narration(a));
    }
    draw_side(a);
    if (fv.mode == MODE_HELP) draw_help(a);
    if (fv.mode == MODE_PICKER) draw_picker(a);
    draw_status(a);
    if (fv.mode == MODE_CMDLINE) curs_set(1);
    wnoutrefresh(stdscr);
}
