/* fill.c — m x n blocks filled by cross splits: fill.h. */
#include "fill.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct {
    int32_t r0, r1;    /* sender, units from the block's boss */
    int8_t dim;
    int32_t len;       /* signed, units */
} Move;

typedef struct {
    int32_t o0, o1, s0, s1;   /* rectangle [o0, o0+s0) x [o1, o1+s1), block units */
    int32_t b0, b1;           /* its boss, block units */
} Sub;

struct PetersFill {
    int32_t m, n, c0, c1;   /* block extents; the block's boss unit */
    uint8_t *tab;           /* tab[s0 * (n + 1) + s1]: fewest phases, s0 x s1 */
    int nphases;
    int64_t *start;         /* start[p]: first move of phase p; start[nphases] = nmoves */
    Move *mv;
    int64_t nmv;
};

static int tab(const PetersFill *f, int32_t s0, int32_t s1)
{
    return s0 <= 0 || s1 <= 0 ? 0 : f->tab[(int64_t)s0 * (f->n + 1) + s1];
}

int peters_fill_phases(const PetersFill *f) { return f->nphases; }

/* A split of an s0 x s1 rectangle: `rows` true: a band of h rows starting at row a, inside it
 * w columns from column l; false: a band of w columns from l, inside it h rows from a. */
typedef struct {
    bool rows;
    int32_t a, h, l, w;
} Split;

/* The five parts (sizes) of a split; returns the largest table value among them. */
static int split_cost(const PetersFill *f, int32_t s0, int32_t s1, const Split *sp)
{
    int32_t b = s0 - sp->a - sp->h, r = s1 - sp->l - sp->w;
    int c;
    if (sp->rows) {
        c = tab(f, sp->a, s1);
        int t;
        if ((t = tab(f, b, s1)) > c) c = t;
        if ((t = tab(f, sp->h, sp->l)) > c) c = t;
        if ((t = tab(f, sp->h, r)) > c) c = t;
        if ((t = tab(f, sp->h, sp->w)) > c) c = t;
    } else {
        c = tab(f, s0, sp->l);
        int t;
        if ((t = tab(f, s0, r)) > c) c = t;
        if ((t = tab(f, sp->a, sp->w)) > c) c = t;
        if ((t = tab(f, b, sp->w)) > c) c = t;
        if ((t = tab(f, sp->h, sp->w)) > c) c = t;
    }
    return c;
}

/* Candidate widths of a band or range in [1, s]: all of them up to 48, else a spread. */
static int candidates(int32_t s, int32_t *c)
{
    int n = 0;
    if (s <= 48) {
        for (int32_t v = 1; v <= s; v++)
            c[n++] = v;
        return n;
    }
    for (int32_t v = 1; v <= 8; v++)
        c[n++] = v;
    for (int j = 1; j <= 24; j++) {
        int32_t v = (int32_t)((int64_t)s * j / 24);
        if (v > c[n - 1])
            c[n++] = v;
    }
    return n;
}

/* The offset in [0, s - w] of a range of w holding p (or anywhere when p < 0), closest to
 * the middle. */
static int32_t place(int32_t s, int32_t w, int32_t p)
{
    int32_t lo = 0, hi = s - w, x = (s - w) / 2;
    if (p >= 0) {
        if (p - w + 1 > lo)
            lo = p - w + 1;
        if (p < hi)
            hi = p;
    }
    return x < lo ? lo : x > hi ? hi : x;
}

/* A few widths of the inner range (inside the band) round a third of s, and s. */
static int inner(int32_t s, int32_t *c)
{
    int n = 0;
    int32_t t = (s + 2) / 3;
    for (int32_t v = t - 1; v <= t + 2; v++)
        if (v >= 1 && v <= s)
            c[n++] = v;
    if (c[n - 1] != s)
        c[n++] = s;
    return n;
}

/* The best split of an s0 x s1 rectangle with its boss at (p0, p1) (-1: free): the fewest
 * phases after it, then the shortest longest circuit, then the smallest largest part. */
static int best_split(const PetersFill *f, int32_t s0, int32_t s1, int32_t p0, int32_t p1,
                      Split *best)
{
    int bc = 1 << 30;
    int64_t bd = 0, ba = 0;
    for (int o = 0; o < 2; o++) {
        int32_t co[64], ci[8];
        int no = candidates(o == 0 ? s0 : s1, co), ni = inner(o == 0 ? s1 : s0, ci);
        for (int i = 0; i < no; i++)
            for (int j = 0; j < ni; j++) {
                Split sp = { .rows = o == 0, .h = o == 0 ? co[i] : ci[j],
                             .w = o == 0 ? ci[j] : co[i] };
                if (sp.h == s0 && sp.w == s1)
                    continue;   /* no split */
                sp.a = place(s0, sp.h, p0);
                sp.l = place(s1, sp.w, p1);
                int c = split_cost(f, s0, s1, &sp);
                if (c > bc)
                    continue;
                /* the longest circuit: to the middle of the farthest part (parts' bosses at
                 * their middles, rounded towards the sender), and the largest part */
                int32_t q0 = p0 >= 0 ? p0 : sp.a + sp.h / 2, q1 = p1 >= 0 ? p1 : sp.l + sp.w / 2;
                int32_t b = s0 - sp.a - sp.h, r = s1 - sp.l - sp.w;
                int64_t d = 0, ar;
                if (sp.a) d = q0 - sp.a / 2;
                if (b && sp.a + sp.h + (b - 1) / 2 - q0 > d) d = sp.a + sp.h + (b - 1) / 2 - q0;
                if (sp.l && q1 - sp.l / 2 > d) d = q1 - sp.l / 2;
                if (r && sp.l + sp.w + (r - 1) / 2 - q1 > d) d = sp.l + sp.w + (r - 1) / 2 - q1;
                if (sp.rows) {
                    int32_t x = sp.a > b ? sp.a : b;
                    int32_t y = sp.l > r ? sp.l : r;
                    ar = (int64_t)x * s1;
                    if ((int64_t)sp.h * y > ar) ar = (int64_t)sp.h * y;
                } else {
                    int32_t x = sp.l > r ? sp.l : r;
                    int32_t y = sp.a > b ? sp.a : b;
                    ar = (int64_t)x * s0;
                    if ((int64_t)sp.w * y > ar) ar = (int64_t)sp.w * y;
                }
                if ((int64_t)sp.h * sp.w > ar) ar = (int64_t)sp.h * sp.w;
                if (c < bc || d < bd || (d == bd && ar < ba)) {
                    bc = c, bd = d, ba = ar;
                    *best = sp;
                }
            }
    }
    return bc + 1;
}

static bool make_table(PetersFill *f)
{
    int64_t w = f->n + 1;
    f->tab = calloc((size_t)((f->m + 1) * w), 1);
    if (!f->tab)
        return false;
    for (int32_t s0 = 1; s0 <= f->m; s0++)
        for (int32_t s1 = 1; s1 <= f->n; s1++) {
            if (s0 == 1 && s1 == 1)
                continue;
            Split sp;
            /* every part is smaller than s0 x s1 in one extent and no bigger in the other:
             * its entry is already filled */
            int c = best_split(f, s0, s1, -1, -1, &sp);
            f->tab[s0 * w + s1] = (uint8_t)(c > 255 ? 255 : c);
        }
    return true;
}

static bool push_sub(Sub **v, int64_t *n, int64_t *cap, Sub x)
{
    if (*n == *cap) {
        int64_t nc = *cap ? *cap * 2 : 64;
        Sub *p = realloc(*v, sizeof *p * (size_t)nc);
        if (!p)
            return false;
        *v = p;
        *cap = nc;
    }
    (*v)[(*n)++] = x;
    return true;
}

/* Where along dimension dim (the other coordinate given, this one -1) a new boss of an
 * s0 x s1 part sits: in the middle of the range its own best split keeps for it. */
static int32_t boss_at(const PetersFill *f, int32_t s0, int32_t s1, int32_t p0, int32_t p1,
                       int dim)
{
    Split sp;
    if (s0 * (int64_t)s1 <= 1)
        return 0;
    best_split(f, s0, s1, p0, p1, &sp);
    return dim == 0 ? sp.a + (sp.h - 1) / 2 : sp.l + (sp.w - 1) / 2;
}

/* Split sub x along sp: its parts into next (the boss's own first), the circuits into f. */
static bool split_sub(PetersFill *f, const Sub *x, const Split *sp, Sub **next, int64_t *nn,
                      int64_t *cap)
{
    int32_t b = x->s0 - sp->a - sp->h, r = x->s1 - sp->l - sp->w;
    Sub part[5];
    int dim[5] = { -1, 0, 0, 1, 1 }, np = 0;
    /* the boss's own part, then the four others (empty ones skipped) */
    part[np++] = (Sub){ x->o0 + sp->a, x->o1 + sp->l, sp->h, sp->w, x->b0, x->b1 };
    if (sp->rows) {
        part[np++] = (Sub){ x->o0, x->o1, sp->a, x->s1, 0, x->b1 };
        part[np++] = (Sub){ x->o0 + sp->a + sp->h, x->o1, b, x->s1, 0, x->b1 };
        part[np++] = (Sub){ x->o0 + sp->a, x->o1, sp->h, sp->l, x->b0, 0 };
        part[np++] = (Sub){ x->o0 + sp->a, x->o1 + sp->l + sp->w, sp->h, r, x->b0, 0 };
    } else {
        part[np++] = (Sub){ x->o0, x->o1 + sp->l, sp->a, sp->w, 0, x->b1 };
        part[np++] = (Sub){ x->o0 + sp->a + sp->h, x->o1 + sp->l, b, sp->w, 0, x->b1 };
        part[np++] = (Sub){ x->o0, x->o1, x->s0, sp->l, x->b0, 0 };
        part[np++] = (Sub){ x->o0, x->o1 + sp->l + sp->w, x->s0, r, x->b0, 0 };
    }
    for (int i = 0; i < np; i++) {
        Sub *p = &part[i];
        if (p->s0 <= 0 || p->s1 <= 0)
            continue;
        if (i > 0) {
            /* the new boss: on the sender's row or column, in the middle of its part, rounded
             * towards the sender */
            if (dim[i] == 0)
                p->b0 = p->o0 + boss_at(f, p->s0, p->s1, -1, p->b1 - p->o1, 0);
            else
                p->b1 = p->o1 + boss_at(f, p->s0, p->s1, p->b0 - p->o0, -1, 1);
            Move mv = { x->b0 - f->c0, x->b1 - f->c1, (int8_t)dim[i],
                        dim[i] == 0 ? p->b0 - x->b0 : p->b1 - x->b1 };
            f->mv[f->nmv++] = mv;
        }
        if ((p->s0 > 1 || p->s1 > 1) && !push_sub(next, nn, cap, *p))
            return false;
    }
    return true;
}

static bool make_plan(PetersFill *f)
{
    int64_t units = (int64_t)f->m * f->n;
    f->mv = malloc(sizeof *f->mv * (size_t)(units > 1 ? units - 1 : 1));
    f->start = malloc(sizeof *f->start * 257);
    Sub *cur = NULL, *next = NULL;
    int64_t nc = 0, cc = 0, nn = 0, cn = 0;
    bool ok = f->mv && f->start;
    /* the block's boss in the middle of the block */
    f->c0 = (f->m - 1) / 2, f->c1 = (f->n - 1) / 2;   /* the block's boss: its middle */
    if (ok && units > 1)
        ok = push_sub(&cur, &nc, &cc, (Sub){ 0, 0, f->m, f->n, f->c0, f->c1 });
    f->nphases = 0;
    if (f->start)
        f->start[0] = 0;
    while (ok && nc > 0 && f->nphases < 256) {
        nn = 0;
        for (int64_t i = 0; ok && i < nc; i++) {
            const Sub *x = &cur[i];
            Split sp;
            best_split(f, x->s0, x->s1, x->b0 - x->o0, x->b1 - x->o1, &sp);
            ok = split_sub(f, x, &sp, &next, &nn, &cn);
        }
        f->start[++f->nphases] = f->nmv;
        Sub *t = cur;
        cur = next, next = t;
        int64_t tc = cc;
        cc = cn, cn = tc;
        nc = nn;
    }
    free(cur);
    free(next);
    return ok && nc == 0;
}

PetersFill *peters_fill_new(int32_t m, int32_t n)
{
    if (m < 1 || n < 1)
        return NULL;
    PetersFill *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->m = m, f->n = n;
    if (!make_table(f) || !make_plan(f)) {
        peters_fill_free(f);
        return NULL;
    }
    return f;
}

void peters_fill_free(PetersFill *f)
{
    if (!f)
        return;
    free(f->tab);
    free(f->start);
    free(f->mv);
    free(f);
}

static int32_t wrap(int64_t x, int32_t e)
{
    x %= e;
    return (int32_t)(x < 0 ? x + e : x);
}

bool peters_fill_send(Sched *s, const PetersFill *f, int p, int32_t boss, int64_t u0,
                      int64_t u1, PetersSet *out)
{
    const Net *net = sched_net(s);
    int32_t e0 = net_dim(net, 0), e1 = net_dim(net, 1);
    ChunkRange all = { 0, sched_nchunks(s) };
    if (p < 0 || p >= f->nphases)
        return true;
    int64_t m0 = f->start[p], m1 = f->start[p + 1];
    int32_t c[2];
    net_coords(net, boss, c);
    for (int64_t k = m0; k < m1; k++) {
        const Move *mv = &f->mv[k];
        int32_t xc[2] = { wrap(c[0] + mv->r0 * u0, e0), wrap(c[1] + mv->r1 * u1, e1) };
        int32_t v = net_id(net, xc);
        int64_t len = mv->len * (mv->dim == 0 ? u0 : u1);
        NetSeg seg = { .dim = mv->dim, .dir = len > 0 ? 1 : -1,
                       .len = (int32_t)(len > 0 ? len : -len) };
        int32_t w = v < 0 ? -1 : net_route_end(net, v, &seg, 1);
        if (w < 0) {
            sched_fail(s, "tiling: a block's route leaves the net");
            return false;
        }
        if (!sched_send_route(s, v, w, &all, 1, &seg, 1))
            return false;
        if (!peters_set_push(out, w)) {
            sched_fail(s, "out of memory");
            return false;
        }
    }
    return true;
}
