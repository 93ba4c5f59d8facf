/* fulltree.c — a full:P net drawn as the tree its broadcast builds (see fulltree.h). */
#include "fulltree.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asynctl.h"
#include "theme.h"

/* ---- the tree (no curses) ------------------------------------------------------------------ */

void fulltree_tree_free(FullTree *t)
{
    if (!t)
        return;
    free(t->order);
    free(t->rstart);
    free(t->rstep);
    free(t->parent);
    free(t);
}

typedef struct {
    int32_t node, key1;
    int32_t key0;   /* the row's step */
} Ent;

static int cmp_ent(const void *pa, const void *pb)
{
    const Ent *a = pa, *b = pb;
    if (a->key0 != b->key0)
        return a->key0 < b->key0 ? -1 : 1;
    if (a->key1 != b->key1)
        return a->key1 < b->key1 ? -1 : 1;
    return a->node < b->node ? -1 : a->node > b->node;
}

FullTree *fulltree_tree(const Sched *s)
{
    int32_t n = net_size(sched_net(s));
    FullTree *t = calloc(1, sizeof *t);
    int32_t *first = malloc((size_t)n * sizeof *first);
    Ent *e = malloc((size_t)n * sizeof *e);
    if (t) {
        t->n = n;
        t->order = malloc((size_t)n * sizeof *t->order);
        t->parent = malloc((size_t)n * sizeof *t->parent);
        t->rstart = malloc(((size_t)n + 2) * sizeof *t->rstart);
        t->rstep = malloc(((size_t)n + 1) * sizeof *t->rstep);
    }
    if (!t || !first || !e || !t->order || !t->parent || !t->rstart || !t->rstep) {
        free(first);
        free(e);
        fulltree_tree_free(t);
        return NULL;
    }
    for (int32_t v = 0; v < n; v++) {
        first[v] = INT32_MAX;
        t->parent[v] = -1;
    }
    for (size_t i = 0; i < sched_ngiven(s); i++) {
        int32_t v;
        sched_given(s, i, &v, NULL);
        if (v >= 0 && v < n)
            first[v] = -1;
    }
    /* the first transfer into each node, step by step, until every node has one */
    int32_t left = 0;
    for (int32_t v = 0; v < n; v++)
        left += first[v] == INT32_MAX;
    /* a reduction (every node holds every chunk from the start): the first send of each node
     * instead, to its parent; the root never sends (its row comes last) */
    t->reduce = left == 0 && n > 1 && sched_total_transfers(s) > 0;
    if (t->reduce) {
        left = n;
        for (int32_t v = 0; v < n; v++)
            first[v] = INT32_MAX;
    }
    for (int32_t st = 0; left > 0 && st < sched_nsteps(s); st++) {
        int64_t m = sched_ntransfers(s, st);
        for (int64_t i = 0; i < m; i++) {
            SchedTransfer x;
            sched_transfer(s, st, i, &x);
            int32_t v = t->reduce ? x.src : x.dst, p = t->reduce ? x.dst : x.src;
            if (v >= 0 && v < n && first[v] == INT32_MAX && x.nranges > 0) {
                first[v] = st;
                t->parent[v] = p;
                left--;
            }
        }
    }
    /* rows: by first step; inside a row by the parent's place in the rows above */
    int32_t *place = malloc((size_t)n * sizeof *place);
    if (!place) {
        free(first);
        free(e);
        fulltree_tree_free(t);
        return NULL;
    }
    for (int32_t v = 0; v < n; v++) {
        e[v] = (Ent){ v, 0, first[v] };
        place[v] = -1;
    }
    qsort(e, (size_t)n, sizeof *e, cmp_ent);   /* by step, then id: the rows' members */
    t->nrows = 0;
    for (int32_t at = 0; at < n; at++)
        if (at == 0 || e[at].key0 != e[at - 1].key0) {
            t->rstart[t->nrows] = at;
            t->rstep[t->nrows] = e[at].key0;
            t->nrows++;
        }
    t->rstart[t->nrows] = n;
    /* each row ordered by its parents' places: a broadcast's parents stand in the rows above,
     * a reduction's below (its rows are placed from the root's up) */
    for (int32_t q = 0; q < t->nrows; q++) {
        int32_t k = t->reduce ? t->nrows - 1 - q : q;
        int32_t at = t->rstart[k], end = t->rstart[k + 1];
        for (int32_t i = at; i < end; i++) {
            int32_t p = t->parent[e[i].node];
            e[i].key1 = p >= 0 && place[p] >= 0 ? place[p] : -1;
        }
        qsort(e + at, (size_t)(end - at), sizeof *e, cmp_ent);
        for (int32_t i = at; i < end; i++) {
            t->order[i] = e[i].node;
            place[e[i].node] = i;
        }
    }
    free(place);
    free(first);
    free(e);
    return t;
}

/* ---- drawing ------------------------------------------------------------------------------- */

typedef struct {
    int y, x0, x1;   /* columns x0..x1-1 of line y */
    int32_t node;
} Hit;

bool fulltree_active(const App *a)
{
    const Net *net = a->b.ready ? a->b.setup.net : NULL;
    return net && net_kind(net) == NET_FULL && net_size(net) <= FT_MAX_NODES;
}

void fulltree_free(App *a)
{
    fulltree_tree_free(a->ft.tree);
    free(a->ft.hits);
    memset(&a->ft, 0, sizeof a->ft);
    a->ft.gen = -1;
}

int fulltree_digits(long v)
{
    int d = 1;
    while (v >= 10) { v /= 10; d++; }
    return d;
}

void fulltree_text(int y, int x, int w, int attr, const char *s)
{
    if (w <= 0 || y < 0 || x < 0 || y >= LINES || x >= COLS) return;
    if (x + w > COLS) w = COLS - x;
    attrset(attr);
    mvaddnstr(y, x, s, w);
    attrset(A_NORMAL);
}

void fulltree_hit_add(App *a, int y, int x0, int x1, int32_t node)
{
    if (a->ft.nhit == a->ft.caphit) {
        int nc = a->ft.caphit ? 2 * a->ft.caphit : 256;
        Hit *h = realloc(a->ft.hits, (size_t)nc * sizeof *h);
        if (!h) return;
        a->ft.hits = h;
        a->ft.caphit = nc;
    }
    ((Hit *)a->ft.hits)[a->ft.nhit++] = (Hit){ y, x0, x1, node };
}

void fulltree_hits_clear(App *a) { a->ft.nhit = 0; }

int32_t fulltree_hit(const App *a, int x, int y)
{
    const Hit *h = a->ft.hits;
    for (int i = 0; i < a->ft.nhit; i++)
        if (h[i].y == y && x >= h[i].x0 && x < h[i].x1)
            return h[i].node;
    return -1;
}

uint64_t fulltree_count_max(const App *a)
{
    uint64_t c, full;
    return app_partial_count(a, 0, &c, &full) ? full : sched_nchunks(a->b.sched);
}

void fulltree_shown_free(FtShown *sh)
{
    free(sh->sends);
    free(sh->recvs);
    free(sh->from);
    free(sh->src);
    free(sh->dst);
    memset(sh, 0, sizeof *sh);
}

bool fulltree_shown(App *a, FtShown *sh)
{
    memset(sh, 0, sizeof *sh);
    const Sched *s = a->b.sched;
    int32_t n = net_size(a->b.setup.net), step = app_step_shown(a);
    AsyncView *av = app_async_view(a);
    int64_t m = av ? asyncview_nflight(av) : step >= 0 ? sched_ntransfers(s, step) : -1;
    if (m < 0)
        return true;
    sh->sends = calloc((size_t)n, sizeof *sh->sends);
    sh->recvs = calloc((size_t)n, sizeof *sh->recvs);
    sh->from = malloc((size_t)n * sizeof *sh->from);
    sh->src = malloc(((size_t)m + 1) * sizeof *sh->src);
    sh->dst = malloc(((size_t)m + 1) * sizeof *sh->dst);
    if (!sh->sends || !sh->recvs || !sh->from || !sh->src || !sh->dst) {
        fulltree_shown_free(sh);
        return false;
    }
    for (int32_t v = 0; v < n; v++) sh->from[v] = -1;
    for (int64_t i = 0; i < m; i++) {
        SchedTransfer x;
        if (av) {
            const SimAsyncEvent *e = asyncview_flight(av, i);
            sched_transfer(s, e->step, e->index, &x);
        } else {
            sched_transfer(s, step, i, &x);
        }
        if (x.src < 0 || x.src >= n || x.dst < 0 || x.dst >= n) continue;
        sh->sends[x.src]++;
        sh->recvs[x.dst]++;
        if (sh->from[x.dst] < 0) sh->from[x.dst] = x.src;
        sh->src[sh->nx] = x.src;
        sh->dst[sh->nx++] = x.dst;
    }
    return true;
}

void fulltree_cell(App *a, int y, int x, int w, int32_t v, const FtShown *sh)
{
    AsyncView *av = app_async_view(a);
    uint64_t all = sched_nchunks(a->b.sched);
    uint64_t held = av ? asyncview_held(av, v) : sim_held(a->b.sim, v), full = all;
    bool recv = sh->recvs && sh->recvs[v] > 0, send = sh->sends && sh->sends[v] > 0;
    bool conflict = (sh->sends && sh->sends[v] > 1) || (sh->recvs && sh->recvs[v] > 1);
    int32_t from = sh->from ? sh->from[v] : -1;
    /* a reduction: the contributions its partials combine (at a lockstep position) */
    bool part = !av && app_partial_count(a, v, &held, &full);
    Role r = part ? (Role)app_partial_role(a, held, full)
                  : held >= all ? R_FULL : held > 0 ? R_PARTIAL : R_EMPTY;
    if (send) r = R_CIRCUIT;
    if (recv) r = R_RECV;
    if (conflict) r = R_CONFLICT;
    if (v == a->cursor) r = R_CURSOR;
    char buf[64];
    int o = snprintf(buf, sizeof buf, "%s%d:%llu", conflict ? "!" : recv ? "*" : send ? ">" : " ",
                     (int)v, (unsigned long long)held);
    if (recv && from >= 0 && o > 0 && o < (int)sizeof buf)
        snprintf(buf + o, sizeof buf - (size_t)o, "<%d", (int)from);
    fulltree_text(y, x, w, theme_attr(r), buf);
    fulltree_hit_add(a, y, x, x + w, v);
}

void fulltree_draw(App *a)
{
    const Layout *L = &a->lay;
    if (a->ft.gen != a->b.gen || !a->ft.tree) {
        fulltree_tree_free(a->ft.tree);
        a->ft.tree = fulltree_tree(a->b.sched);
        a->ft.gen = a->b.gen;
    }
    a->ft.nhit = 0;
    const FullTree *t = a->ft.tree;
    int x0 = L->map_x, y0 = L->map_y, w = L->map_w, h = L->map_h;
    for (int y = y0; y < y0 + h; y++)
        fulltree_text(y, x0, w, theme_attr(R_NORMAL), "");
    if (!t || w < 20 || h < 2) {
        fulltree_text(y0, x0, w, theme_attr(R_BAD), "no room for the tree");
        return;
    }
    int32_t step = app_step_shown(a);
    FtShown sh;   /* the step's transfers, or the moment's in flight */
    fulltree_shown(a, &sh);
    const int32_t *recvs = sh.recvs;
    int lw = 9;                                               /* "step 123 " */
    int idw = fulltree_digits(t->n - 1);
    int cw = idw + 1 + fulltree_digits((long)fulltree_count_max(a)) + 2 + idw + 1;   /* mark id:count<from, blank */
    int per = (w - lw) / cw;
    if (per < 1) per = 1;
    /* lines of each row, and the first line to draw: the first row with a receiver in the
     * step shown, or the cursor's, kept on the screen */
    int total = 0, want = -1, wlast = -1, cur = -1;
    for (int32_t k = 0; k < t->nrows; k++) {
        int32_t len = t->rstart[k + 1] - t->rstart[k];
        for (int32_t i = 0; i < len; i++) {
            int32_t v = t->order[t->rstart[k] + i];
            int line = total + i / per;
            if (recvs && recvs[v] > 0) {
                if (want < 0) want = line;
                wlast = line;
            }
            if (v == a->cursor) cur = line;
        }
        total += (len + per - 1) / per;
    }
    int top = 0, full_h = h;
    if (total > h)
        h--;   /* the last line says which lines are shown */
    int focus = want >= 0 ? want : cur;
    if (total > h && want >= 0 && wlast - want < h) {
        top = want - (h - (wlast - want + 1)) / 2;   /* every receiver, centred */
        if (top > total - h) top = total - h;
        if (top < 0) top = 0;
    } else if (total > h && focus >= 0) {
        top = focus - h / 3;
        if (top > total - h) top = total - h;
        if (top < 0) top = 0;
    }
    char buf[64];
    int line = 0;
    for (int32_t k = 0; k < t->nrows; k++) {
        int32_t len = t->rstart[k + 1] - t->rstart[k];
        for (int32_t i = 0; i < len; i++) {
            int ln = line + i / per, y = y0 + ln - top;
            if (ln < top || y >= y0 + h) continue;
            if (i % per == 0) {
                if (i == 0) {
                    int32_t rs = t->rstep[k];
                    if (rs < 0) snprintf(buf, sizeof buf, "source");
                    else if (rs == INT32_MAX) snprintf(buf, sizeof buf, t->reduce ? "root" : "never");
                    else snprintf(buf, sizeof buf, "step %d", rs + 1);
                    /* the rows the step shown informs stand out */
                    fulltree_text(y, x0, lw - 1, theme_attr(rs == step ? R_RECV : R_DIM), buf);
                }
            }
            int32_t v = t->order[t->rstart[k] + i];
            int x = x0 + lw + (i % per) * cw;
            fulltree_cell(a, y, x, cw - 1, v, &sh);
        }
        line += (len + per - 1) / per;
    }
    fulltree_shown_free(&sh);
    if (total > h) {
        snprintf(buf, sizeof buf, "lines %d-%d of %d", top + 1,
                 top + h < total ? top + h : total, total);
        int bl = (int)strlen(buf);
        fulltree_text(y0 + full_h - 1, x0 + (w > bl ? w - bl : 0), bl, theme_attr(R_DIM), buf);
    }
}
