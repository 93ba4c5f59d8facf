/* draw-timeline.c — the Timeline panel (see draw-timeline.h). */
#include "draw-timeline.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../engine/asyncview.h"
#include "../engine/chunkset.h"
#include "../engine/circuit.h"
#include "theme.h"

/* The Step panel on the time line: the moment, what starts and ends then, what is in flight. */
void draw_moment(const Bcast *bc, const SimAsync *as, Box *b, AsyncView *v)
{
    const Net *net = bc->setup.net;
    Sched *s = bc->sched;
    int64_t i = asyncview_pos(v), n = asyncview_ntimes(v);
    const char *unit = cost_unit(bc->setup.cost.model);
    char c1[32], c2[32], nm[48], nm2[48], ch[64];
    draw_fmt_cost(c1, sizeof c1, asyncview_time(v, i));
    draw_fmt_cost(c2, sizeof c2, asyncview_time(v, n - 1));
    draw_box_put(b, theme_attr(R_HEAD), "Time %s / %s %s  (moment %lld/%lld)", c1, c2, unit,
            (long long)i, (long long)n - 1);
    draw_box_put(b, theme_attr(R_NORMAL), "timing async: %lld start, %lld end, %lld in flight",
            (long long)asyncview_nstarting(v), (long long)asyncview_nending(v),
            (long long)asyncview_nflight(v));
    int64_t nf = asyncview_nflight(v);
    int listmax = b->h - b->row - 4;
    if (listmax < 2) listmax = 2;
    for (int64_t k = 0; k < nf && k < listmax && draw_box_line(b); k++) {
        const SimAsyncEvent *e = asyncview_flight(v, k);
        SchedTransfer t;
        sched_transfer(s, e->step, e->index, &t);
        chunkset_format(t.ranges, t.nranges, ch, sizeof ch);
        draw_fmt_cost(c1, sizeof c1, e->start);
        draw_fmt_cost(c2, sizeof c2, e->end);
        draw_box_put(b, theme_attr(R_CIRCUIT), " %s%s%s [%s] %lldh  %s-%s  (step %ld)",
                net_node_name(net, t.src, nm, sizeof nm), theme_glyphs()->right,
                net_node_name(net, t.dst, nm2, sizeof nm2), ch, (long long)t.len, c1, c2,
                (long)e->step + 1);
    }
    if (nf > listmax) draw_box_put(b, theme_attr(R_DIM), " ... %lld more", (long long)(nf - listmax));
    char cu[64];
    draw_fmt_cost(c1, sizeof c1, asyncview_time(v, n - 1));
    snprintf(cu, sizeof cu, "%s %s", c1, unit);
    draw_box_kv(b, theme_attr(R_HEAD), "Asynchronous total", cu);
    draw_fmt_cost(c1, sizeof c1, sim_totals(bc->sim)->cost.total);
    snprintf(cu, sizeof cu, "%s %s", c1, unit);
    draw_box_kv(b, theme_attr(R_NORMAL), "Lockstep total", cu);
    if (net_kind(net) == NET_HXBAR && as) {   /* transfers a module channel held back */
        draw_fmt_cost(c1, sizeof c1, sim_async_channel_wait(as));
        snprintf(cu, sizeof cu, "%lld, %s %s", (long long)sim_async_channel_waits(as), c1,
                 unit);
        draw_box_kv(b, theme_attr(sim_async_channel_waits(as) ? R_BAD : R_NORMAL),
               "Channel waits", cu);
    }
}

/* The first of `rows` lines to show out of n so that line cur sits in the middle, clamped to
 * the list. */
static int64_t window_first(int64_t cur, int64_t n, int64_t rows)
{
    int64_t first = cur - rows / 2;
    if (first > n - rows) first = n - rows;
    return first < 0 ? 0 : first;
}

int64_t draw_window_first(int64_t cur, int64_t n, int64_t rows)
{
    return window_first(cur, n, rows);
}

/* The Timeline panel on the time line: one row per moment. */
void draw_timeline_async(Box *b, AsyncView *v, TlRows *tl)
{
    tl->rows = 0;
    int64_t n = asyncview_ntimes(v), cur = asyncview_pos(v);
    draw_box_put(b, theme_attr(R_HEAD), "        time  start  end  in flight");
    int rows = b->h - b->row - 1;
    if (rows < 1) return;
    int64_t first = window_first(cur, n, rows);
    /* each row's counts need the view at that moment: read them by moving, then come back */
    for (int64_t i = first; i < n && draw_box_line(b) && b->row < b->h - 1; i++) {
        if (!asyncview_seek(v, i)) break;
        char c1[32];
        draw_fmt_cost(c1, sizeof c1, asyncview_time(v, i));
        draw_box_put(b, i == cur ? theme_attr(R_CURSOR) : theme_attr(R_NORMAL), "%s%11s %6lld %4lld %10lld",
                i == cur ? theme_glyphs()->right : " ", c1, (long long)asyncview_nstarting(v),
                (long long)asyncview_nending(v), (long long)asyncview_nflight(v));
    }
    asyncview_seek(v, cur);
    char t[32];
    draw_fmt_cost(t, sizeof t, asyncview_time(v, n - 1));
    b->row = b->h - 1;
    draw_box_put(b, theme_attr(R_HEAD), "async total %s over %lld moments", t, (long long)n - 1);
}

/* A bar of len glyphs g into buf. */
static void bar_text(char *bar, size_t cap, const char *g, int len)
{
    size_t o = 0, l = strlen(g);
    for (int k = 0; k < len && o + l < cap; k++) {
        memcpy(bar + o, g, l);
        o += l;
    }
    bar[o] = '\0';
}

/* The Timeline with a measured run (measured.h): per step, the simulated row and under it the
 * measured one; each kind of bar scaled to its own longest step (the legend says so). */
static void panel_timeline_measured(const Bcast *bc, Box *b, const MeasFile *m, TlRows *tl)
{
    Sim *sim = bc->sim;
    int32_t n = bc->nsim, cur = bcast_step_shown(bc);
    const Glyphs *g = theme_glyphs();
    double maxc = 0, maxm = 0;
    for (int32_t i = 0; i < n; i++) {
        double c = sim_step(sim, i)->cost.total;
        if (c > maxc) maxc = c;
        if (i < m->nmeas && m->steps[i] > maxm) maxm = m->steps[i];
    }
    const char *unit = cost_unit(bc->setup.cost.model);
    draw_box_put(b, theme_attr(R_HEAD), "  step   %s sim %s / meas us", g->full, unit);
    char legend[300];
    snprintf(legend, sizeof legend, "%s simulated, %s measured (median of %lld reps); each bar "
             "to its own longest step", g->full, g->partial, (long long)m->reps);
    draw_wrap(b, theme_attr(R_DIM), legend, 0);
    int rows = (b->h - b->row - 1) / 2;
    if (rows < 1) return;
    int32_t first = (int32_t)window_first(cur, n, rows);
    int barw = b->w - 19;
    tl->y0 = b->y + b->row;
    tl->first = first;
    tl->per = 2;
    for (int32_t i = first; i < n && b->row + 1 < b->h - 1; i++) {
        double c = sim_step(sim, i)->cost.total, v = i < m->nmeas ? m->steps[i] : 0;
        char c1[32], c2[32], bar[1024];
        draw_fmt_cost(c1, sizeof c1, c);
        draw_fmt_cost(c2, sizeof c2, v);
        int attr = i == cur ? theme_attr(R_CURSOR) : theme_attr(R_NORMAL);
        int y = b->y + b->row;
        draw_putf(y, b->x, 18, attr, "%s%4ld s %10s", i == cur ? g->right : " ", (long)i + 1, c1);
        bar_text(bar, sizeof bar, g->full,
                 maxc > 0 && barw > 0 ? (int)lround(barw * c / maxc) : 0);
        draw_put(y, b->x + 18, barw, i == cur ? theme_attr(R_CIRCUIT) : theme_attr(R_DIM), bar);
        draw_putf(y + 1, b->x, 18, attr, "%5s m %10s", "", c2);
        bar_text(bar, sizeof bar, g->partial,
                 maxm > 0 && barw > 0 ? (int)lround(barw * v / maxm) : 0);
        draw_put(y + 1, b->x + 18, barw, theme_attr(R_KEY), bar);
        b->row += 2;
        tl->rows += 2;
    }
    char t[32], t2[32];
    b->row = b->h - 1;
    draw_fmt_cost(t, sizeof t, sim_totals(sim)->cost.total);
    draw_fmt_cost(t2, sizeof t2, m->total);
    draw_box_put(b, theme_attr(R_HEAD), "total s %s%s m %s us", t, strcmp(unit, "us") ? " units," : "",
            t2);
}

void draw_timeline(const TlSrc *src, Box *b, TlRows *tl)
{
    const Bcast *bc = src->b;
    tl->rows = 0;
    tl->per = 1;
    if (src->meas) {
        panel_timeline_measured(bc, b, src->meas, tl);
        return;
    }
    Sched *s = bc->sched;
    Sim *sim = bc->sim;
    int32_t n = bc->nsim, cur = bcast_step_shown(bc);   /* the steps simulated so far */
    double maxc = 0;
    for (int32_t i = 0; i < n; i++) {
        double c = sim_step(sim, i)->cost.total;
        if (c > maxc) maxc = c;
    }
    draw_box_put(b, theme_attr(R_HEAD), "  step        cost  running active");
    int rows = b->h - b->row - 1;
    if (rows < 1) return;
    int32_t first = (int32_t)window_first(cur, n, rows);
    int barw = b->w - 35;
    const Glyphs *g = theme_glyphs();
    tl->y0 = b->y + b->row;
    tl->first = first;
    tl->rows = 0;
    for (int32_t i = first; i < n && draw_box_line(b) && b->row < b->h - 1; i++) {
        const SimStep *S = sim_step(sim, i);
        char c1[32], c2[32], bar[256] = "";
        draw_fmt_cost(c1, sizeof c1, S->cost.total);
        draw_fmt_cost(c2, sizeof c2, sim_cost_until(sim, i));
        int len = maxc > 0 && barw > 0 ? (int)lround(barw * S->cost.total / maxc) : 0;
        size_t o = 0;
        for (int k = 0; k < len && o + 4 < sizeof bar; k++) {
            size_t l = strlen(g->full);
            memcpy(bar + o, g->full, l);
            o += l;
        }
        bar[o] = '\0';
        int attr = i == cur ? theme_attr(R_CURSOR)
                 : S->link_overloads || S->violations ? theme_attr(R_BAD) : theme_attr(R_NORMAL);
        int y = b->y + b->row;
        draw_putf(y, b->x, 34, attr, "%s%4ld %11s %8s %6ld", i == cur ? g->right : " ", (long)i + 1, c1,
             c2, (long)S->informed);
        draw_put(y, b->x + 34, barw, i == cur ? theme_attr(R_CIRCUIT) : theme_attr(R_DIM), bar);
        b->row++;
        tl->rows++;
    }
    char t[32];
    b->row = b->h - 1;
    if (src->simulating) {
        draw_box_put(b, theme_attr(R_DIM), "steps %ld-%ld: simulating, step %lld/%lld...",
                (long)n + 1, (long)sched_nsteps(s), src->rest_done + 1, src->rest_total);
        return;
    }
    draw_fmt_cost(t, sizeof t, sim_totals(sim)->cost.total);
    draw_box_put(b, theme_attr(R_HEAD), "total %s over %ld steps", t, (long)n);
}

