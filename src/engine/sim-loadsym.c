/* sim-loadsym.c — a step's link loads counted only for the lines unlike the others (sim-core.h:
 * LoadSym, sym_*).  rh's exchange steps on a 2^a x 2^b mesh are a million straight pieces, but
 * every row carries one of two patterns (the node's parity picks the coordinate it flips) and
 * so does every column: counting each line's pieces into the difference arrays, sweeping and
 * clearing 2-4M links per step, finds the same few lines' loads over and over.
 *
 * Here each piece is compared with the piece its line's leader has at the same place (one
 * compare, the leaders' few KiB in cache): the line's pieces, in the order they come, must be
 * exactly its leader's, or the line leaves for the difference arrays (its pieces so far
 * replayed there once, from the leader), so that nothing is trusted and nothing counted twice:
 * a step regular for its first rows and not the rest, a row one transfer short or with one
 * transfer more, all come out as the general counting finds them.  No period is assumed: the
 * leaders are the distinct sequences met (SYM_NL per (dimension, direction) block). */
#include "sim-core.h"

#include <stdlib.h>
#include <string.h>

_Atomic int64_t sim_sym_followed = 0, sim_sym_left = 0;

/* At most this many pieces kept per leader: a line with more is counted (4 per link). */
static int64_t sym_cap_max(int64_t n)
{
    int64_t m = 4 * n + 64;
    return m < SYM_KMAX ? m : SYM_KMAX;
}

bool sym_begin(Sim *sim, bool forced)
{
    LoadSym *S = &sim->sym;
    const Net *net = sim->net;
    if (sim->full || net->ndim < 1 || net->ndim > NET_MAXDIM)
        return false;
    int64_t nl = 0;
    S->nblk = 2 * net->ndim;
    S->pow2 = sim->lay.pow2;
    S->szshift = 0;
    S->size = net->size;
    while (S->pow2 && (INT64_C(1) << S->szshift) < net->size)
        S->szshift++;
    for (int k = 0; k < S->nblk; k++) {
        int d = k / 2;
        int64_t lines = net->size / net->dims[d];
        if (!forced && lines < 8)   /* too few lines alike to repay the compares */
            return false;
        S->lbase[k] = nl;
        S->llen[k] = net->dims[d];
        S->lshift[k] = sim->lay.dshift[d];
        nl += lines;
        S->nlead[k] = 0;
        for (int q = 0; q < SYM_NL; q++) {
            S->lead[k][q].len = 0;
            S->lead[k][q].rep = -1;
            S->lead[k][q].nf = 0;
        }
    }
    S->lbase[S->nblk] = nl;
    if (!S->lk || S->nl < nl) {
        free(S->lk);
        S->lk = malloc((size_t)nl * sizeof *S->lk);
        if (!S->lk) {
            S->nl = 0;
            return false;
        }
    }
    S->nl = nl;
    memset(S->lk, 0, (size_t)nl * sizeof *S->lk);   /* (leader 0, no piece yet) */
    S->on = S->mat = false;
    return true;
}

int64_t sym_line(const LoadSym *S, int64_t start, int *blk)
{
    if (S->pow2) {
        int k = (int)(start >> S->szshift);
        *blk = k;
        return S->lbase[k] + ((start - ((int64_t)k << S->szshift)) >> S->lshift[k]);
    }
        int k = (int)(start / S->size);
    *blk = k;
    return S->lbase[k] + (start - k * S->size) / S->llen[k];
}

/* Room in L for want pieces (at most sym_cap_max(n)).  False: none. */
static bool lead_room(SymLead *L, int64_t want, int64_t n)
{
    if (want <= L->cap)
        return true;
    int64_t nc = L->cap ? 2 * (int64_t)L->cap : 64;
    nc = nc < want ? want : nc;
    nc = nc > sym_cap_max(n) ? sym_cap_max(n) : nc;
    if (nc < want)
        return false;
    uint64_t *q = realloc(L->seq, (size_t)nc * sizeof *q);
    if (!q)
        return false;
    L->seq = q;
    L->cap = (int32_t)nc;
    return true;
}

/* The line that starts at ls (n links) counted from now on: its first k pieces, L's, into
 * sim->load.  False when memory runs out. */
static bool replay(Sim *sim, const SymLead *L, int32_t k, int64_t ls, int64_t n)
{
    for (int32_t i = 0; i < k; i++) {
        int64_t lo = (int64_t)(L->seq[i] >> 32), hi = (int64_t)(L->seq[i] & 0xFFFFFFFFu);
        if (!load_diff(sim, ls + lo, ls + hi, ls, n))
            return false;
    }
    return true;
}

int sym_slow(Sim *sim, int blk, int64_t li, int64_t ls, int64_t n, uint64_t key)
{
    LoadSym *S = &sim->sym;
    int32_t k = SYM_K(S->lk[li]);
    int cur = SYM_Q(S->lk[li]);
    if (S->nlead[blk] == 0)
        S->nlead[blk] = 1;   /* (leader 0, empty: every line starts on it) */
    SymLead *L = &S->lead[blk][cur];
    if (k == L->len && lead_room(L, k + 1, n)) {   /* the first line this far: it grows */
        L->seq[L->len++] = key;
        S->lk[li]++;
        return 1;
    }
    /* another leader with the same first k pieces and this one next (or as far as k) */
    for (int q = 0; q < S->nlead[blk]; q++) {
        SymLead *M = &S->lead[blk][q];
        if (q == cur || M->len < k ||
            (k > 0 && memcmp(M->seq, L->seq, (size_t)k * sizeof *L->seq) != 0))
            continue;
        if (M->len > k ? M->seq[k] != key : !lead_room(M, k + 1, n))
            continue;
        if (M->len == k)
            M->seq[M->len++] = key;
        S->lk[li] = SYM_V(q, k + 1);
        return 1;
    }
    if (S->nlead[blk] < SYM_NL) {   /* a new leader: the line's pieces so far, and this one */
        int q = S->nlead[blk];
        SymLead *M = &S->lead[blk][q];
        if (lead_room(M, k + 1, n)) {
            S->nlead[blk]++;
            if (k > 0)
                memcpy(M->seq, L->seq, (size_t)k * sizeof *M->seq);
            M->seq[k] = key;
            M->len = k + 1;
            S->lk[li] = SYM_V(q, k + 1);
            return 1;
        }
    }
    S->lk[li] = -1;   /* counted from now on */
    sim_sym_left++;
    return replay(sim, L, k, ls, n) ? 0 : -1;
}

bool sym_resolve(Sim *sim, bool keep)
{
    LoadSym *S = &sim->sym;
    bool any = false;
    for (int blk = 0; blk < S->nblk; blk++) {
        int64_t n = S->llen[blk], size = S->size;
        for (int64_t li = S->lbase[blk]; li < S->lbase[blk + 1]; li++) {
            int32_t v = S->lk[li], k = SYM_K(v);
            if (v < 0 || k == 0) {   /* counted in sim->load already, or no piece at all */
                S->lk[li] = -1;
                continue;
            }
            SymLead *L = &S->lead[blk][SYM_Q(v)];
            int64_t ls = blk * size + (li - S->lbase[blk]) * n;
            if (keep && k == L->len && L->rep >= 0) {   /* a follower of the leader's rep */
                L->nf++;
                sim_sym_followed++;
                any = true;
                continue;
            }
            S->lk[li] = -1;
            if (!keep || k != L->len)
                sim_sym_left++;
            if (!replay(sim, L, k, ls, n))
                return false;
            if (keep && k == L->len)
                L->rep = ls;   /* the first line with all of it */
        }
    }
    S->on = any;
    S->mat = false;
    return true;
}

void sym_overloads(const Sim *sim, int32_t cap, int64_t *nover)
{
    const LoadSym *S = &sim->sym;
    if (!S->on)
        return;
    for (int blk = 0; blk < S->nblk; blk++)
        for (int q = 0; q < S->nlead[blk]; q++) {
            const SymLead *L = &S->lead[blk][q];
            if (L->rep < 0 || L->nf == 0)
                continue;
            const int32_t *p = sim->load + L->rep;
            int64_t o = 0;
            for (int64_t j = 0; j < S->llen[blk]; j++)
                o += p[j] > cap;
            *nover += o * L->nf;
        }
}

int64_t sym_map(const Sim *sim, int64_t ls)
{
    const LoadSym *S = &sim->sym;
    if (!S->on || S->mat)
        return ls;
    int blk;
    int64_t li = sym_line(S, ls, &blk);
    return S->lk[li] >= 0 ? S->lead[blk][SYM_Q(S->lk[li])].rep : ls;
}

/* Every follower's line: f(sim, its start, its length, its rep's start). */
static void each_follower(Sim *sim, void (*f)(Sim *, int64_t, int64_t, int64_t))
{
    LoadSym *S = &sim->sym;
    for (int blk = 0; blk < S->nblk; blk++) {
        int64_t n = S->llen[blk], size = S->size;
        for (int64_t li = S->lbase[blk]; li < S->lbase[blk + 1]; li++)
            if (S->lk[li] >= 0)
                f(sim, blk * size + (li - S->lbase[blk]) * n, n, S->lead[blk][SYM_Q(S->lk[li])].rep);
    }
}

static void copy_rep(Sim *sim, int64_t ls, int64_t n, int64_t rep)
{
    memcpy(sim->load + ls, sim->load + rep, (size_t)n * sizeof *sim->load);
}

static void zero_line(Sim *sim, int64_t ls, int64_t n, int64_t rep)
{
    (void)rep;
    memset(sim->load + ls, 0, (size_t)n * sizeof *sim->load);
}

void sym_materialise(Sim *sim)
{
    if (!sim->sym.on || sim->sym.mat)
        return;
    each_follower(sim, copy_rep);
    sim->sym.mat = true;
}

void sym_clear(Sim *sim)
{
    if (sim->sym.on && sim->sym.mat)
        each_follower(sim, zero_line);
    sim->sym.on = sim->sym.mat = false;
}

void sym_free(Sim *sim)
{
    LoadSym *S = &sim->sym;
    free(S->lk);
    free(S->xd);
    for (int k = 0; k < 2 * NET_MAXDIM; k++)
        for (int q = 0; q < SYM_NL; q++)
            free(S->lead[k][q].seq);
    memset(S, 0, sizeof *S);
}
