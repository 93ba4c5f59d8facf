/* fulltree.c — a full:P net drawn as the tree its broadcast builds (see fulltree.h). */
#include "fulltree.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

struct FtView {
    /* the trees of the last two broadcasts drawn (side by side, vs.h, draws two a frame) */
    long gen[2];       /* the broadcast a tree is of; -1 none */
    FullTree *tree[2];
    int older;         /* the slot to replace next */
    Hit *hits;         /* where the last frame's cells went */
    int nhit, caphit;
};

FtView *fulltree_new(void)
{
    FtView *ft = calloc(1, sizeof *ft);
    if (ft) ft->gen[0] = ft->gen[1] = -1;
    return ft;
}

void fulltree_free(FtView *ft)
{
    if (!ft) return;
    fulltree_tree_free(ft->tree[0]);
    fulltree_tree_free(ft->tree[1]);
    free(ft->hits);
    free(ft);
}

bool fulltree_active(const FtSrc *src)
{
    return src->net && net_kind(src->net) == NET_FULL && net_size(src->net) <= FT_MAX_NODES;
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

void fulltree_hit_add(FtView *ft, int y, int x0, int x1, int32_t node)
{
    if (ft->nhit == ft->caphit) {
        int nc = ft->caphit ? 2 * ft->caphit : 256;
        Hit *h = realloc(ft->hits, (size_t)nc * sizeof *h);
        if (!h) return;
        ft->hits = h;
        ft->caphit = nc;
    }
    ft->hits[ft->nhit++] = (Hit){ y, x0, x1, node };
}

void fulltree_hits_clear(FtView *ft) { ft->nhit = 0; }

int32_t fulltree_hit(const FtView *ft, int x, int y)
{
    for (int i = 0; i < ft->nhit; i++)
        if (ft->hits[i].y == y && x >= ft->hits[i].x0 && x < ft->hits[i].x1)
            return ft->hits[i].node;
    return -1;
}

uint64_t fulltree_count_max(const FtSrc *src)
{
    return src->partials ? (uint64_t)partials_full(src->partials) : sched_nchunks(src->sched);
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

bool fulltree_shown(const FtSrc *src, FtShown *sh)
{
    memset(sh, 0, sizeof *sh);
    const Sched *s = src->sched;
    const AsyncView *av = src->av;
    int32_t n = net_size(src->net), step = src->step;
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

/* A cell's role by what it holds: in a reduction (lockstep) the contributions its partials
 * combine: full (every one), partial (more than its own), empty (its own only); else the
 * chunks held. */
static Role held_role(const FtSrc *src, int32_t v, uint64_t *held)
{
    uint64_t all = sched_nchunks(src->sched);
    if (!src->av && src->partials) {
        *held = (uint64_t)partials_count(src->partials, src->pos, v);
        uint64_t full = (uint64_t)partials_full(src->partials);
        return *held >= full ? R_FULL : *held > all ? R_PARTIAL : R_EMPTY;
    }
    *held = src->av ? asyncview_held(src->av, v) : sim_held(src->sim, v);
    return *held >= all ? R_FULL : *held > 0 ? R_PARTIAL : R_EMPTY;
}

void fulltree_cell(FtView *ft, const FtSrc *src, int y, int x, int w, int32_t v,
                   const FtShown *sh)
{
    uint64_t held;
    Role r = held_role(src, v, &held);
    bool recv = sh->recvs && sh->recvs[v] > 0, send = sh->sends && sh->sends[v] > 0;
    bool conflict = (sh->sends && sh->sends[v] > 1) || (sh->recvs && sh->recvs[v] > 1);
    int32_t from = sh->from ? sh->from[v] : -1;
    if (send) r = R_CIRCUIT;
    if (recv) r = R_RECV;
    if (conflict) r = R_CONFLICT;
    if (v == src->cursor) r = R_CURSOR;
    char buf[64];
    int o = snprintf(buf, sizeof buf, "%s%d:%llu", conflict ? "!" : recv ? "*" : send ? ">" : " ",
                     (int)v, (unsigned long long)held);
    if (recv && from >= 0 && o > 0 && o < (int)sizeof buf)
        snprintf(buf + o, sizeof buf - (size_t)o, "<%d", (int)from);
    fulltree_text(y, x, w, theme_attr(r), buf);
    fulltree_hit_add(ft, y, x, x + w, v);
}

/* Where the tree's lines go: per lines of a row, its lines in all (*total), and the first
 * line shown (*top) of the h lines there are: every receiver of the step shown centred when
 * they fit, else the first receiver's (or the cursor's) a third down. */
static int tree_top(const FullTree *t, const FtSrc *src, const int32_t *recvs, int per, int h,
                    int *total_out)
{
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
            if (v == src->cursor) cur = line;
        }
        total += (len + per - 1) / per;
    }
    *total_out = total;
    int top = 0;
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
    return top;
}

/* A row's label at the start of its first line: "source", "step k", "never" or "root";
 * the rows the step shown informs stand out. */
static void row_label(const FullTree *t, int32_t k, int32_t step, int y, int x, int w)
{
    char buf[32];
    int32_t rs = t->rstep[k];
    if (rs < 0) snprintf(buf, sizeof buf, "source");
    else if (rs == INT32_MAX) snprintf(buf, sizeof buf, t->reduce ? "root" : "never");
    else snprintf(buf, sizeof buf, "step %d", rs + 1);
    fulltree_text(y, x, w, theme_attr(rs == step ? R_RECV : R_DIM), buf);
}

void fulltree_draw(FtView *ft, const FtSrc *src)
{
    int k = ft->gen[0] == src->gen && ft->tree[0] ? 0
          : ft->gen[1] == src->gen && ft->tree[1] ? 1 : -1;
    if (k < 0) {
        k = ft->older;
        fulltree_tree_free(ft->tree[k]);
        ft->tree[k] = fulltree_tree(src->sched);
        ft->gen[k] = src->gen;
    }
    ft->older = 1 - k;
    ft->nhit = 0;
    const FullTree *t = ft->tree[k];
    int x0 = src->map_x, y0 = src->map_y, w = src->map_w, h = src->map_h;
    for (int y = y0; y < y0 + h; y++)
        fulltree_text(y, x0, w, theme_attr(R_NORMAL), "");
    if (!t || w < 20 || h < 2) {
        fulltree_text(y0, x0, w, theme_attr(R_BAD), "no room for the tree");
        return;
    }
    FtShown sh;   /* the step's transfers, or the moment's in flight */
    fulltree_shown(src, &sh);
    int lw = 9;                                               /* "step 123 " */
    int idw = fulltree_digits(t->n - 1);
    int cw = idw + 1 + fulltree_digits((long)fulltree_count_max(src)) + 2 + idw + 1;   /* mark id:count<from, blank */
    int per = (w - lw) / cw;
    if (per < 1) per = 1;
    int total, top = tree_top(t, src, sh.recvs, per, h, &total);
    if (total > h) h--;   /* the last line says which lines are shown */
    int line = 0;
    for (int32_t k = 0; k < t->nrows; k++) {
        int32_t len = t->rstart[k + 1] - t->rstart[k];
        for (int32_t i = 0; i < len; i++) {
            int ln = line + i / per, y = y0 + ln - top;
            if (ln < top || y >= y0 + h) continue;
            if (i == 0) row_label(t, k, src->step, y, x0, lw - 1);
            int32_t v = t->order[t->rstart[k] + i];
            fulltree_cell(ft, src, y, x0 + lw + (i % per) * cw, cw - 1, v, &sh);
        }
        line += (len + per - 1) / per;
    }
    fulltree_shown_free(&sh);
    if (total > h) {
        char buf[64];
        snprintf(buf, sizeof buf, "lines %d-%d of %d", top + 1,
                 top + h < total ? top + h : total, total);
        int bl = (int)strlen(buf);
        fulltree_text(y0 + src->map_h - 1, x0 + (w > bl ? w - bl : 0), bl, theme_attr(R_DIM), buf);
    }
}
