/* sim-loadxch.c — an exchange step's link loads by rows alike (sim-core.h: load_acc_exchange,
 * xch_*).  In an exchange step every node sends once (transfer j is node j's): on a 2-D mesh
 * with default routes, the pieces of the transfers that leave row r are fixed by r and, per
 * column c, by the one int dst - src of node (r, c)'s transfer (the row piece from c to the
 * destination's column in row r, the column piece from row r down or up by a fixed number of
 * rows).  So the feed only writes that difference per node (xd[src], 0: no transfer), and at
 * the step's end:
 *  - rows whose differences are the same ints (memcmp against up to SYM_NL class leaders) are
 *    one class: their row lines have the leader row's pieces; the leader row is counted (the
 *    class's rep), the others follow it (LoadSym's followers, sim-loadsym.c);
 *  - a column's pieces are, for each class q, {(r, r + dr)} over the rows r of class q and the
 *    dr of the leader row's transfers that land in the column: columns with the same (q, dr)
 *    lists (compared exactly) have the same loads; one per list is counted row by row, the
 *    others follow it; O(columns x classes), nothing per transfer;
 *  - a row of no class (more than SYM_NL patterns) is counted transfer by transfer, and every
 *    column its column pieces reach is then counted in full (never a follower).
 * A node that sends twice, an explicit route, or collect (every line counted) puts what was
 * fed into the difference arrays as the general counting would (xch_flush), and the step goes
 * on there.  Nothing is assumed of the algorithm: any exchange's loads come out exact. */
#include "sim-core.h"

#include <stdlib.h>
#include <string.h>

/* Test hook (sim-internal.h): rows alike when an exchange step asks (0), never (-1). */
int sim_load_xch = 0;
_Atomic int64_t sim_xch_steps = 0, sim_xch_rows_left = 0;

/* floor(t / n) for n > 0 */
static inline int64_t floordiv(int64_t t, int64_t n)
{
    return t >= 0 ? t / n : -((-t + n - 1) / n);
}

bool load_acc_exchange(Sim *sim, LoadAcc *a)
{
    LoadSym *S = &sim->sym;
    if (sim_load_xch < 0 || !a->sym || !a->mesh2 || sim_count_general)
        return false;
    int64_t N = sim->net->size;
    if (!S->xd || S->xcap < N) {
        free(S->xd);
        S->xcap = 0;
        S->xd = calloc((size_t)N, sizeof *S->xd);   /* (zero between steps) */
        if (!S->xd)
            return false;
        S->xcap = N;
    }
    a->xch = true;
    return true;
}

/* Transfer src -> src + d's pieces into the difference arrays (as the general counting);
 * its route length added to *sum.  False: memory. */
static bool xfer_diff(Sim *sim, const LoadAcc *a, int32_t src, int32_t d, int64_t *sum)
{
    int64_t n0 = a->n0, n1 = a->n1, r0 = src / n1, c0 = src - r0 * n1;
    int64_t dr = floordiv(c0 + d, n1), c1 = c0 + d - dr * n1;
    if (c1 != c0) {
        bool left = c1 < c0;
        int64_t ls = a->rb[left] + r0 * n1, lo = left ? c1 + 1 : c0, hi = left ? c0 : c1 - 1;
        *sum += hi - lo + 1;
        if (!load_diff(sim, ls + lo, ls + hi, ls, n1))
            return false;
    }
    if (dr != 0) {
        bool up = dr < 0;
        int64_t ls = a->cb[up] + c1 * n0, r1 = r0 + dr;
        int64_t lo = up ? r1 + 1 : r0, hi = up ? r0 : r1 - 1;
        *sum += hi - lo + 1;
        if (!load_diff(sim, ls + lo, ls + hi, ls, n0))
            return false;
    }
    return true;
}

bool xch_flush(Sim *sim, LoadAcc *a)
{
    int32_t *D = sim->sym.xd;
    bool ok = true;
    for (int64_t j = 0; j < sim->net->size; j++)
        if (D[j]) {
            ok = ok && xfer_diff(sim, a, (int32_t)j, D[j], &a->sum);
            D[j] = 0;
        }
    a->xch = a->sym = false;   /* (no line followed: sim->sym.on stays false) */
    return ok;
}

bool xch_add(Sim *sim, LoadAcc *a, const SchedFlat *f)
{
    int32_t *D = sim->sym.xd;
    const SchedXfer *x = f->x;
    if (f->ext)
        return xch_flush(sim, a) && load_acc_add(sim, a, f);
    for (int64_t i = 0; i < f->n; i++) {
        int32_t s = x[i].src, d = x[i].dst - s;
        if (D[s] != 0 || d == 0) {   /* a node sending twice (or to itself): not ours */
            SchedFlat rest = *f;
            rest.x += i;
            rest.n -= i;
            return xch_flush(sim, a) && load_acc_add(sim, a, &rest);
        }
        D[s] = d;
    }
    return true;
}

/* One (class, dr) a column receives: the rows of class q each send a piece down (dr > 0) or
 * up (dr < 0) the column, from their own row to row + dr. */
typedef struct {
    int32_t q, dr;
} ColEnt;

static bool ent_less(ColEnt a, ColEnt b)
{
    return a.q != b.q ? a.q < b.q : a.dr < b.dr;
}

/* The scratch of xch_end (freed at its end).  Column c of direction up (0: down, 1: up) is
 * column line up * n1 + c here. */
typedef struct {
    int32_t *cls;      /* per row: its class, -1: none (counted transfer by transfer) */
    int64_t *off;      /* per column line: its first entry; off[2 n1]: the end */
    ColEnt *ent;       /* the column lines' entries, each line's sorted */
    uint8_t *own;      /* per column line: a row of no class reaches it (counted in full) */
} XchScratch;

/* The rows' classes: each row's differences against the leaders' (memcmp; the class of the
 * row two above tried first: rh's rows alternate); up to SYM_NL.  A row of a class that does
 * not lead it is zeroed at once (in cache), the others by xch_end. */
static int row_classes(const LoadAcc *a, int32_t *D, int32_t *cls, int64_t *lead)
{
    int nc = 0;
    int64_t n1 = a->n1;
    size_t bytes = (size_t)n1 * sizeof *D;
    for (int64_t r = 0; r < a->n0; r++) {
        int32_t *row = D + r * n1;
        int q0 = r >= 2 && cls[r - 2] >= 0 ? cls[r - 2] : 0;
        cls[r] = -1;
        for (int t = 0; t < nc && cls[r] < 0; t++) {
            int q = (q0 + t) % nc;
            if (memcmp(row, D + lead[q] * n1, bytes) == 0)
                cls[r] = q;
        }
        if (cls[r] >= 0) {
            memset(row, 0, bytes);
        } else if (nc < SYM_NL) {
            lead[nc] = r;
            cls[r] = nc++;
        }
    }
    return nc;
}

/* Each column line's entries from the class leaders' rows (counted, then placed; sorted).
 * len[q]: class q's summed route length per row. */
static void col_entries(const LoadAcc *a, const int32_t *D, XchScratch *X, int nc,
                        const int64_t *lead, int64_t *len)
{
    int64_t n1 = a->n1, *off = X->off;
    memset(off, 0, (size_t)(2 * n1 + 1) * sizeof *off);
    for (int pass = 0; pass < 2; pass++) {
        for (int q = 0; q < nc; q++) {
            const int32_t *row = D + lead[q] * n1;
            len[q] = 0;
            for (int64_t c0 = 0; c0 < n1; c0++) {
                if (!row[c0])
                    continue;
                int64_t dr = floordiv(c0 + row[c0], n1), c1 = c0 + row[c0] - dr * n1;
                len[q] += (c1 > c0 ? c1 - c0 : c0 - c1) + (dr > 0 ? dr : -dr);
                if (dr == 0)
                    continue;
                int64_t cl = (dr < 0) * n1 + c1;
                if (pass == 0)
                    off[cl + 1]++;
                else
                    X->ent[off[cl]++] = (ColEnt){ q, (int32_t)dr };
            }
        }
        if (pass == 0)   /* off[cl] := the end of the lines before cl */
            for (int64_t cl = 1; cl <= 2 * n1; cl++)
                off[cl] += off[cl - 1];
    }
    /* placing moved off[cl] to line cl's end: shift back */
    for (int64_t cl = 2 * n1; cl > 0; cl--)
        off[cl] = off[cl - 1];
    off[0] = 0;
    for (int64_t cl = 0; cl < 2 * n1; cl++)   /* a few entries each: insertion sort */
        for (int64_t e = off[cl] + 1; e < off[cl + 1]; e++)
            for (int64_t f = e; f > off[cl] && ent_less(X->ent[f], X->ent[f - 1]); f--) {
                ColEnt t = X->ent[f];
                X->ent[f] = X->ent[f - 1];
                X->ent[f - 1] = t;
            }
}

/* Whether column lines c and k have the same entries. */
static bool col_same(const XchScratch *X, int64_t c, int64_t k)
{
    int64_t m = X->off[c + 1] - X->off[c];
    if (m != X->off[k + 1] - X->off[k])
        return false;
    for (int64_t e = 0; e < m; e++) {
        ColEnt u = X->ent[X->off[c] + e], v = X->ent[X->off[k] + e];
        if (u.q != v.q || u.dr != v.dr)
            return false;
    }
    return true;
}

/* Column line cl's pieces from every row of a class into the difference arrays.  False:
 * memory. */
static bool col_count(Sim *sim, const LoadAcc *a, const XchScratch *X, int64_t cl)
{
    int64_t n0 = a->n0, n1 = a->n1, up = cl >= n1, c = cl - up * n1, ls = a->cb[up] + c * n0;
    for (int64_t e = X->off[cl]; e < X->off[cl + 1]; e++) {
        ColEnt E = X->ent[e];
        for (int64_t r = 0; r < n0; r++) {
            if (X->cls[r] != E.q)
                continue;
            int64_t r1 = r + E.dr, lo = up ? r1 + 1 : r, hi = up ? r : r1 - 1;
            if (!load_diff(sim, ls + lo, ls + hi, ls, n0))
                return false;
        }
    }
    return true;
}

/* The rows of no class: each transfer counted, the column lines they reach marked own. */
static bool rows_left(Sim *sim, LoadAcc *a, XchScratch *X)
{
    int64_t n1 = a->n1;
    const int32_t *D = sim->sym.xd;
    for (int64_t r = 0; r < a->n0; r++) {
        if (X->cls[r] >= 0)
            continue;
        sim_xch_rows_left++;
        for (int64_t c0 = 0; c0 < n1; c0++) {
            int32_t d = D[r * n1 + c0];
            if (!d)
                continue;
            int64_t dr = floordiv(c0 + d, n1), c1 = c0 + d - dr * n1;
            if (dr != 0)
                X->own[(dr < 0) * n1 + c1] = 1;
            if (!xfer_diff(sim, a, (int32_t)(r * n1 + c0), d, &a->sum))
                return false;
        }
    }
    return true;
}

/* The row lines: each class's leader row counted (its rep), the class's other rows follow it
 * in each direction it has pieces in.  *any: a line follows. */
static bool rows_lines(Sim *sim, LoadAcc *a, const XchScratch *X, int nc, const int64_t *lead,
                       const int64_t *len, bool *any)
{
    LoadSym *S = &sim->sym;
    int64_t n0 = a->n0, n1 = a->n1;
    const int32_t *D = S->xd;
    bool has[SYM_NL][2] = { { false } };
    for (int q = 0; q < nc; q++) {
        const int32_t *row = D + lead[q] * n1;
        for (int64_t c0 = 0; c0 < n1; c0++) {
            if (!row[c0])
                continue;
            int64_t dr = floordiv(c0 + row[c0], n1), c1 = c0 + row[c0] - dr * n1;
            if (c1 == c0)
                continue;
            bool left = c1 < c0;
            int64_t ls = a->rb[left] + lead[q] * n1, lo = left ? c1 + 1 : c0,
                    hi = left ? c0 : c1 - 1;
            has[q][left] = true;
            if (!load_diff(sim, ls + lo, ls + hi, ls, n1))
                return false;
        }
        for (int left = 0; left < 2; left++)
            S->lead[2 + left][q].rep = a->rb[left] + lead[q] * n1;
    }
    for (int left = 0; left < 2; left++)
        S->nlead[2 + left] = nc;
    for (int64_t r = 0; r < n0; r++) {
        int q = X->cls[r];
        if (q >= 0)
            a->sum += len[q];
        for (int left = 0; left < 2; left++) {
            int64_t li = S->lbase[2 + left] + r;
            if (q >= 0 && r != lead[q] && has[q][left]) {
                S->lk[li] = SYM_V(q, 1);
                S->lead[2 + left][q].nf++;
                sim_sym_followed++;
                *any = true;
            } else {
                S->lk[li] = -1;
            }
        }
    }
    return true;
}

/* The column lines: of those with the same entries (and reached by no row of no class), the
 * first counted, the others follow it (up to SYM_NL such firsts per direction; the rest and the
 * own lines counted).  *any: a line follows. */
static bool cols_lines(Sim *sim, LoadAcc *a, const XchScratch *X, bool *any)
{
    LoadSym *S = &sim->sym;
    int64_t n0 = a->n0, n1 = a->n1;
    for (int up = 0; up < 2; up++) {
        int64_t rep[SYM_NL];
        int nr = 0;
        for (int64_t c = 0; c < n1; c++) {
            int64_t cl = up * n1 + c, li = S->lbase[up] + c;
            S->lk[li] = -1;
            if (X->off[cl] == X->off[cl + 1])   /* nothing but (own) the rows of no class' */
                continue;
            int k = 0;
            while (!X->own[cl] && k < nr && !col_same(X, cl, up * n1 + rep[k]))
                k++;
            if (!X->own[cl] && k < nr) {
                S->lk[li] = SYM_V(k, 1);
                S->lead[up][k].nf++;
                sim_sym_followed++;
                *any = true;
                continue;
            }
            if (!col_count(sim, a, X, cl))
                return false;
            if (!X->own[cl] && nr < SYM_NL) {
                S->lead[up][nr].rep = a->cb[up] + c * n0;
                rep[nr++] = c;
            }
        }
        S->nlead[up] = nr;
    }
    return true;
}

bool xch_end(Sim *sim, LoadAcc *a)
{
    LoadSym *S = &sim->sym;
    int64_t n0 = a->n0, n1 = a->n1;
    XchScratch X = { malloc((size_t)n0 * sizeof *X.cls),
                     malloc((size_t)(2 * n1 + 1) * sizeof *X.off),
                     malloc((size_t)(SYM_NL * n1 + 1) * sizeof *X.ent),
                     calloc((size_t)(2 * n1), 1) };
    bool ok = X.cls && X.off && X.ent && X.own;
    if (ok) {
        sim_xch_steps++;
        int64_t lead[SYM_NL], len[SYM_NL];
        bool any = false;
        int nc = row_classes(a, S->xd, X.cls, lead);
        col_entries(a, S->xd, &X, nc, lead, len);
        ok = rows_left(sim, a, &X) && rows_lines(sim, a, &X, nc, lead, len, &any) &&
             cols_lines(sim, a, &X, &any);
        for (int k = 4; k < S->nblk; k++)   /* (a 2-D mesh: no other blocks) */
            S->nlead[k] = 0;
        S->on = any;
        S->mat = false;
        for (int64_t r = 0; r < n0; r++)   /* (the leaders' rows and those of no class) */
            if (X.cls[r] < 0 || lead[X.cls[r]] == r)
                memset(S->xd + r * n1, 0, (size_t)n1 * sizeof *S->xd);
        a->xch = false;
    } else {
        ok = xch_flush(sim, a) && false;
    }
    free(X.cls);
    free(X.off);
    free(X.ent);
    free(X.own);
    return ok;
}
