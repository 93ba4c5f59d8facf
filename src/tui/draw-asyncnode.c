/* draw-asyncnode.c — the Node panel on the asynchronous time line (see draw-asyncnode.h). */
#include "draw-asyncnode.h"

#include <stdio.h>

#include "../engine/asyncview.h"
#include "../engine/chunkset.h"
#include "../engine/sim.h"
#include "theme.h"

/* The chunks node holds at the view's moment, as ranges (at most max; the rest merged into
 * the last when there are more). */
static size_t held_ranges(AsyncView *v, int32_t node, uint32_t nchunks, ChunkRange *r,
                          size_t max)
{
    size_t n = 0;
    for (uint32_t c = 0; c < nchunks; c++) {
        if (!asyncview_holds(v, node, c))
            continue;
        if (n && r[n - 1].hi == c)
            r[n - 1].hi = c + 1;
        else if (n < max)
            r[n++] = (ChunkRange){ c, c + 1 };
        else
            r[n - 1].hi = c + 1;
    }
    return n;
}

void draw_node_async(const AsyncNodeSrc *src, Box *b)
{
    AsyncView *v = src->v;
    const Net *net = src->b->setup.net;
    const Sched *s = src->b->sched;
    int32_t node = src->node;
    char nm[48], nm2[48], ch[160], c1[32], c2[32], line[320];
    double now = asyncview_time(v, asyncview_pos(v));
    draw_fmt_cost(c1, sizeof c1, now);
    snprintf(line, sizeof line, "Node %s  (id %ld)%s  at t=%s",
             net_node_name(net, node, nm, sizeof nm), (long)node,
             node == sched_source(s) ? "  source" : "", c1);
    draw_line(b, theme_attr(R_HEAD), line);
    ChunkRange r[16];
    size_t nr = held_ranges(v, node, sched_nchunks(s), r, sizeof r / sizeof r[0]);
    chunkset_format(r, nr, ch, sizeof ch);
    snprintf(line, sizeof line, "holds %llu of %lu chunks: %s",
             (unsigned long long)asyncview_held(v, node), (unsigned long)sched_nchunks(s),
             nr ? ch : "none");
    draw_line(b, theme_attr(R_NORMAL), line);
    const int64_t *ev = src->ev;
    int64_t n = src->nev;
    const SimAsync *as = src->as;
    if (n < 0) {
        draw_line(b, theme_attr(R_BAD), "(out of memory listing its transfers)");
        return;
    }
    if (n == 0) {
        draw_line(b, theme_attr(R_DIM), "no transfers to or from this node");
        return;
    }
    draw_line(b, theme_attr(R_HEAD), " start-end            chunks   (step)");
    /* centre the list on the first transfer not yet ended at the moment */
    int64_t cur = n - 1;
    for (int64_t k = 0; k < n; k++)
        if (sim_async_event(as, ev[k])->end > now) {
            cur = k;
            break;
        }
    int64_t rows = b->h - b->row;
    for (int64_t k = draw_window_first(cur, n, rows); k < n && b->row < b->h; k++) {
        const SimAsyncEvent *e = sim_async_event(as, ev[k]);
        SchedTransfer t;
        sched_transfer(s, e->step, e->index, &t);
        chunkset_format(t.ranges, t.nranges, ch, sizeof ch);
        draw_fmt_cost(c1, sizeof c1, e->start);
        draw_fmt_cost(c2, sizeof c2, e->end);
        bool flying = e->start <= now && e->end > now, done = e->end <= now;
        bool out = t.src == node;
        snprintf(line, sizeof line, "%s%s-%s  %s [%s] %s %s  (%ld)",
                 flying ? theme_glyphs()->right : " ", c1, c2, out ? "sent" : "recv", ch,
                 out ? "to" : "from",
                 net_node_name(net, out ? t.dst : t.src, nm2, sizeof nm2), (long)e->step + 1);
        draw_line(b, flying ? theme_attr(R_CURSOR) : done ? theme_attr(R_NORMAL)
                                                          : theme_attr(R_DIM), line);
    }
}
