/* sim-load.c — link loads of one step (sim-core.h): how many circuits each directed link
 * carries, the links over their capacity, and the busiest link on each transfer's route.
 *
 * Loads live in sim->load in layout order (arcmap.h).  Per step they are counted either by
 * walking the routes link by link (when the summed route length is small against the number
 * of links; only touched links are cleared afterwards) or by adding +1/-1 per range into a
 * difference array and running a sum along each line the step touches (and clearing only
 * those lines); on a 2-D mesh the pieces are read from the transfers' ends (diff_mesh2), and
 * a big step on a square mesh counts its column pieces into the transposed block.
 * Busiest-link loads per transfer are only needed under seidel when some link carries more
 * than 2^nu circuits; they come from a range-maximum structure (block maxima of
 * 64 links + a sparse table over the blocks) or, on the walking path, from a second walk.
 * Pair nets (full:P, hxbar) have a private link per ordered pair: counted from the sends.
 * A big step's counting and clearing run on a second thread (load_count_job, load_clear_job)
 * while sim-step.c checks the sends and hands out the receives. */
#include "sim-core.h"

#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

static void arcbits_clear(Sim *sim);

#define RMQ_SHIFT 6
#define RMQ_BLOCK (1 << RMQ_SHIFT)

static bool push_over(Sim *sim, int64_t idx)
{
    if (sim->nover == sim->capover) {
        int64_t nc = sim->capover ? sim->capover * 2 : 64;
        int64_t *o = realloc(sim->over, (size_t)nc * sizeof *o);
        if (!o)
            return false;
        sim->over = o;
        sim->capover = nc;
    }
    sim->over[sim->nover++] = idx;
    return true;
}

static bool push_touched(Sim *sim, int64_t start, int64_t n)
{
    if (sim->ntouched == sim->captouched) {
        int64_t nc = sim->captouched ? sim->captouched * 2 : 256;
        int64_t *t = realloc(sim->touched, (size_t)nc * 2 * sizeof *t);
        if (!t)
            return false;
        sim->touched = t;
        sim->captouched = nc;
    }
    sim->touched[2 * sim->ntouched] = start;
    sim->touched[2 * sim->ntouched + 1] = n;
    sim->ntouched++;
    return true;
}

/* ---- pair nets: a private link per ordered pair ------------------------------------------ */

/* hxbar: count the transfers over every module's out and in channel into sim->chan (kept for
 * the step until the next count), fold their loads (in units of C) into *max and the channels
 * over cap into *nover (and sim->over with collect). */
static void hx_channels(Sim *sim, const SchedFlat *f, int32_t cap, bool collect, int32_t *max,
                        int64_t *nover, bool *oom)
{
    int32_t *ch = sim->chan, B = sim->hxB, raw = 0;
    memset(ch, 0, 2 * (size_t)sim->hxA * sizeof *ch);
    for (int64_t i = 0; i < f->n; i++) {
        int32_t ms = f->x[i].src / B, md = f->x[i].dst / B;
        if (ms != md) {
            ch[2 * ms]++;
            ch[2 * md + 1]++;
        }
    }
    int64_t pairs = (int64_t)sim->net->size * sim->net->size;
    for (int64_t m = 0; m < 2 * (int64_t)sim->hxA; m++) {
        if (ch[m] > raw)
            raw = ch[m];
        int32_t u = chan_units(sim, ch[m]);
        if (u > *max)
            *max = u;
        if (u > cap) {
            (*nover)++;
            if (collect && !push_over(sim, pairs + m))
                *oom = true;
        }
    }
    sim->chan_raw = raw;
}

/* hxbar: transfers of the flat step f over channel link `link` (>= P*P), in units of C. */
static int32_t hx_channel_count(const Sim *sim, const SchedFlat *f, int64_t link)
{
    int64_t m = link - (int64_t)sim->net->size * sim->net->size;
    int32_t k = 0, B = sim->hxB, mod = (int32_t)(m / 2);
    bool in = m & 1;
    for (int64_t i = 0; f && i < f->n; i++) {
        int32_t ms = f->x[i].src / B, md = f->x[i].dst / B;
        k += ms != md && (in ? md : ms) == mod;
    }
    return chan_units(sim, k);
}

/* A pair's link carries the transfers of the step that join that pair.  sim->load[u] counts
 * u's sends (scratch, zero again on return); only when some node sends more than once are
 * the pair links of its transfers sorted into sim->fk, from which duplicates are counted
 * (overloads and xfer_maxload).  Every route is one hop: tcd = number of transfers. */
static int full_loads(Sim *sim, const SchedFlat *f, int64_t *tcd, int32_t cap, bool collect,
                      int32_t *max, int64_t *nover, bool *oom)
{
    int32_t *load = sim->load;
    int64_t P = sim->net->size, multi = 0;
    for (int64_t i = 0; i < f->n; i++)
        if (++load[f->x[i].src] == 2)
            multi += 2;
    int32_t mx = f->n > 0;
    int64_t ov = 0;
    sim->nover = 0;
    sim->nfk = 0;
    if (multi && sim->capfk < f->n) {
        int64_t *k = realloc(sim->fk, (size_t)f->n * sizeof *k);
        if (!k)
            *oom = true;
        else {
            sim->fk = k;
            sim->capfk = f->n;
        }
    }
    if (multi && !*oom) {
        for (int64_t i = 0; i < f->n; i++)
            if (load[f->x[i].src] > 1)
                sim->fk[sim->nfk++] = (int64_t)f->x[i].src * P + f->x[i].dst;
        qsort(sim->fk, (size_t)sim->nfk, sizeof *sim->fk, cmp_i64);
        for (int64_t a = 0, b; a < sim->nfk; a = b) {
            for (b = a + 1; b < sim->nfk && sim->fk[b] == sim->fk[a]; b++)
                ;
            int32_t run = (int32_t)(b - a);
            if (run > mx)
                mx = run;
            if (run > cap) {
                ov++;
                if (collect && !push_over(sim, sim->fk[a]))
                    *oom = true;
            }
        }
    }
    for (int64_t i = 0; i < f->n; i++)
        load[f->x[i].src] = 0;
    if (sim->hx)
        hx_channels(sim, f, cap, collect, &mx, &ov, oom);
    *max = mx;
    *nover = ov;
    *tcd = f->n;
    return SIM_PATH_DIRECT;
}

/* Transfers of the flat step f over the pair link `link` of a full net (hxbar: or the load
 * of a channel link). */
int32_t load_pair_count(const Sim *sim, const SchedFlat *f, int64_t link)
{
    int32_t k = 0;
    int64_t P = sim->net->size;
    if (sim->hx && link >= P * P)
        return hx_channel_count(sim, f, link);
    for (int64_t i = 0; f && i < f->n; i++)
        k += (int64_t)f->x[i].src * P + f->x[i].dst == link;
    return k;
}

/* ---- grids ------------------------------------------------------------------------------- */

/* Walk every route of f link by link (sim->load all zero): +1 per link, the largest load
 * into *mx, the links above cap counted (and with collect pushed to sim->over) as they pass
 * it.  Returns the summed route length. */
static int64_t count_direct(Sim *sim, const SchedFlat *f, int32_t cap, bool collect,
                            int32_t *max, int64_t *nover, bool *oom)
{
    int32_t *load = sim->load, mx = 0;
    int64_t ov = 0, len_sum = 0;
    ArcPiece pc[ARCMAP_MAXPIECES];
    for (int64_t i = 0; i < f->n; i++) {
        int32_t len;
        int np = route_pieces(sim, XVP(f, i), pc, &len);
        len_sum += len;
        for (int k = 0; k < np; k++) {
            for (int64_t j = pc[k].a; j <= pc[k].b; j++) {
                int32_t v = ++load[j];
                if (v > mx)
                    mx = v;
                if (v == cap + 1) {
                    ov++;
                    if (collect && !push_over(sim, j))
                        *oom = true;
                }
            }
        }
    }
    *max = mx;
    *nover = ov;
    return len_sum;
}

/* The difference-array path's bookkeeping for the line that starts at ls (n links): marked
 * touched (a bit per line, by its start >> lshift: a 1024 x 1024 mesh's 4096 lines in 512
 * bytes, not 4096 cache lines).  False when memory runs out. */
static inline bool mark_line(Sim *sim, int64_t ls, int64_t n)
{
    int64_t li = ls >> sim->lay.lshift;
    uint64_t bit = (uint64_t)1 << (li & 63);
    if (sim->linebit[li >> 6] & bit)
        return true;
    sim->linebit[li >> 6] |= bit;
    return push_touched(sim, ls, n);
}

/* One piece a..b in the line that starts at ls (n links): the line marked touched, +1 at a,
 * -1 after b (or, at the line's end, into the spare entry load[nlinks], zeroed after the
 * step's pieces).  False when memory runs out. */
static inline bool diff_piece(Sim *sim, int32_t *load, int64_t a, int64_t b, int64_t ls,
                              int64_t n)
{
    if (!mark_line(sim, ls, n))
        return false;
    load[a]++;
    load[b + 1 < ls + n ? b + 1 : sim->nlinks]--;
    return true;
}

bool load_diff(Sim *sim, int64_t a, int64_t b, int64_t ls, int64_t n)
{
    return diff_piece(sim, sim->load, a, b, ls, n);
}

/* One piece of a step counted by lines alike (LoadSym): followed, or else into sim->load.
 * False when memory runs out. */
static inline bool sym_piece(Sim *sim, const ArcPiece *pc)
{
    int blk;
    int64_t li = sym_line(&sim->sym, pc->start, &blk);
    int t = sym_take(sim, blk, li, pc->start, pc->n, sym_key(pc->a - pc->start, pc->b - pc->start));
    return t > 0 || (t == 0 && diff_piece(sim, sim->load, pc->a, pc->b, pc->start, pc->n));
}

/* Every route of f by its pieces, each to sym_piece.  False when memory runs out. */
static bool sym_routes(Sim *sim, const SchedFlat *f, int64_t *len_sum)
{
    ArcPiece pc[ARCMAP_MAXPIECES];
    for (int64_t i = 0; i < f->n; i++) {
        int32_t len;
        int np = route_pieces(sim, XVP(f, i), pc, &len);
        *len_sum += len;
        for (int k = 0; k < np; k++)
            if (!sym_piece(sim, &pc[k]))
                return false;
    }
    return true;
}

/* +1/-1 per piece of every route of f (any net but a pair net); pipelined: the pieces of
 * transfer i are computed (and their loads prefetched) PREFETCH transfers before they are
 * counted.  *len_sum gets the summed route length.  False when memory runs out. */
static bool diff_routes(Sim *sim, const SchedFlat *f, int64_t *len_sum)
{
    int32_t *load = sim->load;
    ArcPiece ring[RING][ARCMAP_MAXPIECES];
    int rnp[RING];
    for (int64_t i = 0; i < f->n + PREFETCH; i++) {
        if (i < f->n) {
            int slot = (int)(i & (RING - 1));
            ArcPiece *q = ring[slot];
            int32_t len;
            rnp[slot] = route_pieces(sim, XVP(f, i), q, &len);
            *len_sum += len;
            for (int k = 0; k < rnp[slot]; k++) {
                __builtin_prefetch(&load[q[k].a], 1);
                __builtin_prefetch(&load[q[k].b + 1], 1);
            }
        }
        if (i < PREFETCH)
            continue;
        const ArcPiece *pc = ring[(i - PREFETCH) & (RING - 1)];
        for (int k = 0; k < rnp[(i - PREFETCH) & (RING - 1)]; k++)
            if (!diff_piece(sim, load, pc[k].a, pc[k].b, pc[k].start, pc[k].n))
                return false;
    }
    return true;
}

/* diff_routes' work for a transfer on an explicit route. */
static bool __attribute__((noinline)) diff_one(Sim *sim, const SchedFlat *f, int64_t i,
                                               int64_t *sum)
{
    ArcPiece pc[ARCMAP_MAXPIECES];
    int32_t len;
    int np = route_pieces(sim, XVP(f, i), pc, &len);
    *sum += len;
    for (int k = 0; k < np; k++)
        if (!diff_piece(sim, sim->load, pc[k].a, pc[k].b, pc[k].start, pc[k].n))
            return false;
    return true;
}

/* diff_one on a 2-D mesh whose column pieces go to the transposed blocks (a->tr): a column
 * piece's +1/-1 at entry r * n1 + c of its block (see mesh2_one), the block's lines marked at
 * the end (load_acc_finish); a row piece as diff_one's. */
static bool __attribute__((noinline)) diff_one_tr(Sim *sim, LoadAcc *a, const SchedFlat *f,
                                                  int64_t i)
{
    ArcPiece pc[ARCMAP_MAXPIECES];
    int32_t len;
    int np = route_pieces(sim, XVP(f, i), pc, &len);
    a->sum += len;
    int64_t size = sim->net->size;
    for (int k = 0; k < np; k++) {
        int up = pc[k].a >= a->cb[1] && pc[k].a < a->cb[1] + size;
        if (!up && !(pc[k].a >= a->cb[0] && pc[k].a < a->cb[0] + size)) {
            if (!diff_piece(sim, sim->load, pc[k].a, pc[k].b, pc[k].start, pc[k].n))
                return false;
            continue;
        }
        int32_t *T = sim->load + a->cb[up];
        int64_t c = (pc[k].start - a->cb[up]) / a->n0, lo = pc[k].a - pc[k].start,
                hi = pc[k].b - pc[k].start;
        a->cblk[up] = true;
        T[lo * a->n1 + c]++;
        (hi + 1 < a->n0 ? &T[(hi + 1) * a->n1 + c] : &sim->load[sim->nlinks])[0]--;
    }
    return true;
}

/* diff_routes' work for transfer i of f on a 2-D mesh: on the default route, one piece in its
 * source's row and one in its destination's column (arcmap_mesh2's, read straight from its
 * ends), else diff_one (diff_one_tr with a->tr).  With a->tr (a square mesh) the +1/-1 of
 * link r of column line c go to entry r * n1 + c of the column block, the block transposed:
 * in node order, consecutive transfers then write neighbouring entries (load_acc_finish
 * transposes the block back).  False when memory runs out. */
static inline __attribute__((always_inline)) bool mesh2_one(Sim *sim, LoadAcc *M,
                                                            const SchedFlat *f, int64_t i)
{
    int32_t src = f->x[i].src, dst = f->x[i].dst, n0 = M->n0, n1 = M->n1;
    if (f->ext && f->ext[i].route != SCHED_DEFAULT_ROUTE)
        return M->tr ? diff_one_tr(sim, M, f, i) : diff_one(sim, f, i, &M->sum);
    int32_t r0, c0, r1, c1;
    if (M->pow2) {
        r0 = src >> M->sh, c0 = src & (n1 - 1), r1 = dst >> M->sh, c1 = dst & (n1 - 1);
    } else {
        r0 = src / n1, c0 = src - r0 * n1, r1 = dst / n1, c1 = dst - r1 * n1;
    }
    if (c0 != c1) {   /* row r0's line of dimension 1 (marked unless marked last) */
        bool left = c1 < c0;
        int64_t ls = M->rb[left] + (int64_t)r0 * n1;
        int32_t lo = left ? c1 + 1 : c0, hi = left ? c0 : c1 - 1;
        M->sum += hi - lo + 1;
        if (ls != M->rlast[left] && !mark_line(sim, ls, n1))
            return false;
        M->rlast[left] = ls;
        sim->load[ls + lo]++;
        sim->load[hi + 1 < n1 ? ls + hi + 1 : sim->nlinks]--;
    }
    if (r0 == r1)
        return true;
    bool up = r1 < r0;   /* column c1's line of dimension 0 */
    int64_t ls = M->cb[up] + (int64_t)c1 * n0;
    int32_t lo = up ? r1 + 1 : r0, hi = up ? r0 : r1 - 1;
    M->sum += hi - lo + 1;
    if (!M->tr)
        return diff_piece(sim, sim->load, ls + lo, ls + hi, ls, n0);
    int32_t *T = sim->load + M->cb[up];   /* (its lines marked by load_acc_finish) */
    M->cblk[up] = true;
    T[(int64_t)lo * n1 + c1]++;
    (hi + 1 < n0 ? &T[(int64_t)(hi + 1) * n1 + c1] : &sim->load[sim->nlinks])[0]--;
    return true;
}

/* The leaders' sequences as the loop below reads them (sym_slow may add or grow leaders:
 * read again after each call). */
typedef struct {
    const uint64_t *seq;
    int32_t len;
} SymSeq;

static void sym_view(const Sim *sim, SymSeq v[4][SYM_NL])
{
    for (int b = 0; b < 4; b++)
        for (int q = 0; q < SYM_NL; q++)
            v[b][q] = (SymSeq){ sim->sym.lead[b][q].seq, sim->sym.lead[b][q].len };
}

/* One piece (key) of line li (block blk, start ls, n links) whose state is *v (a copy of
 * sim->sym.lk[li], written back by the caller): followed (*v moves on), or into sim->load.
 * False when memory runs out. */
static inline __attribute__((always_inline)) bool sym_one(Sim *sim, SymSeq V[4][SYM_NL],
                                                          int blk, int64_t li, int64_t ls,
                                                          int64_t n, int32_t lo, int32_t hi,
                                                          int32_t *v)
{
    uint64_t key = sym_key(lo, hi);
    int32_t x = *v;
    if (x >= 0) {
        const SymSeq *L = &V[blk][SYM_Q(x)];
        int32_t k = SYM_K(x);
        if (k < L->len && L->seq[k] == key) {
            *v = x + 1;
            return true;
        }
        sim->sym.lk[li] = x;
        int t = sym_slow(sim, blk, li, ls, n, key);
        *v = sim->sym.lk[li];
        sym_view(sim, V);
        if (t != 0)
            return t > 0;
    }
    return diff_piece(sim, sim->load, ls + lo, ls + hi, ls, n);
}

/* sym_one's work when the piece is not its leader's next (or its line is counted): the line
 * state *v written back, sym_slow asked, *v read again; V, the leaders' view, made again.
 * False when memory runs out. */
static __attribute__((noinline)) bool sym_one_slow(Sim *sim, SymSeq V[4][SYM_NL], int blk,
                                                   int64_t li, int64_t ls, int64_t n,
                                                   int32_t lo, int32_t hi, int32_t *v)
{
    if (*v >= 0) {
        int q = SYM_Q(*v);
        SymLead *L = &sim->sym.lead[blk][q];
        if (q < sim->sym.nlead[blk] && SYM_K(*v) == L->len && L->len < L->cap) {   /* the first line this far: the
                                                           * leader grows (sym_slow's) */
            L->seq[L->len++] = sym_key(lo, hi);
            V[blk][q].len = L->len;
            (*v)++;
            return true;
        }
        sim->sym.lk[li] = *v;
        int t = sym_slow(sim, blk, li, ls, n, sym_key(lo, hi));
        *v = sim->sym.lk[li];
        sym_view(sim, V);
        if (t != 0)
            return t > 0;
    }
    return diff_piece(sim, sim->load, ls + lo, ls + hi, ls, n);
}

/* mesh2_sym_run's loop for a power-of-two mesh and default routes only (rh's exchanges), with
 * no call but on a miss: a row piece's line state (and its leader's sequence) kept in
 * registers while the pieces stay in one row line; a column piece's read from sim->sym.lk.
 * False when memory runs out. */
static bool mesh2_sym_pow2(Sim *sim, LoadAcc *M, const SchedXfer *x, int64_t n)
{
    int32_t n0 = M->n0, n1 = M->n1, cm = n1 - 1, sh = M->sh, *lk = sim->sym.lk;
    const int64_t *lbase = sim->sym.lbase;
    int64_t lb0 = lbase[0], lb1 = lbase[1], lb2 = lbase[2], lb3 = lbase[3], sum = M->sum;
    SymSeq V[4][SYM_NL];
    sym_view(sim, V);
    int64_t rli = -1;        /* the row line met last ... */
    int32_t rv = -1;         /* ... its state (written back when another comes) ... */
    SymSeq R = { NULL, 0 };  /* ... and its leader's sequence */
    int rleft = 0;
    int32_t cv = INT32_MIN;  /* the state of the last column line found to follow ... */
    uint64_t ckey = 0;       /* ... with this piece next, in block cup: the next column */
    int cup = 0;             /* line in that state, with that piece, follows too */
    for (int64_t i = 0; i < n; i++) {
        int32_t src = x[i].src, dst = x[i].dst;
        int32_t r0 = src >> sh, c0 = src & cm, r1 = dst >> sh, c1 = dst & cm;
        if (c0 != c1) {
            int left = c1 < c0;
            int64_t li = (left ? lb3 : lb2) + r0;
            int32_t lo = left ? c1 + 1 : c0, hi = left ? c0 : c1 - 1;
            sum += hi - lo + 1;
            if (li != rli) {
                if (rli >= 0)
                    lk[rli] = rv;
                rli = li;
                rleft = left;
                rv = lk[li];
                R = rv >= 0 ? V[2 + left][SYM_Q(rv)] : (SymSeq){ NULL, 0 };
            }
            int32_t k = SYM_K(rv);
            if (rv >= 0 && k < R.len && R.seq[k] == sym_key(lo, hi)) {
                rv++;
            } else {
                if (!sym_one_slow(sim, V, 2 + left, li, M->rb[left] + (int64_t)r0 * n1, n1, lo,
                                  hi, &rv))
                    return false;
                R = rv >= 0 ? V[2 + rleft][SYM_Q(rv)] : (SymSeq){ NULL, 0 };
            }
        }
        if (r0 == r1)
            continue;
        int up = r1 < r0;
        int64_t li = (up ? lb1 : lb0) + c1;
        int32_t lo = up ? r1 + 1 : r0, hi = up ? r0 : r1 - 1;
        sum += hi - lo + 1;
        int32_t v = lk[li], k = SYM_K(v);
        uint64_t key = sym_key(lo, hi);
        if (v == cv && key == ckey && up == cup) {   /* as the column piece before */
            lk[li] = v + 1;
            continue;
        }
        const SymSeq *L = &V[up][SYM_Q(v) & (SYM_NL - 1)];
        if (v >= 0 && k < L->len && L->seq[k] == key) {
            lk[li] = v + 1;
            cv = v;   /* (a leader's pieces never change once there) */
            ckey = key;
            cup = up;
            continue;
        }
        if (!sym_one_slow(sim, V, up, li, M->cb[up] + (int64_t)c1 * n0, n0, lo, hi, &v))
            return false;
        lk[li] = v;
        if (rv >= 0)   /* (its leader may have moved) */
            R = V[2 + rleft][SYM_Q(rv)];
    }
    if (rli >= 0)
        lk[rli] = rv;
    M->sum = sum;
    return true;
}

/* load_acc_add's loop on a 2-D mesh for a step counted by lines alike (LoadSym): the row piece
 * in row r0's line of block 2 + left, the column piece in column c1's of block up, each
 * followed or counted; the state of the row line met last in each direction kept in a
 * register (a row's pieces come one after the other), the leaders' sequences in a local view.
 * False when memory runs out. */
static bool mesh2_sym_run(Sim *sim, LoadAcc *a, const SchedFlat *f)
{
    if (a->pow2 && !f->ext)
        return mesh2_sym_pow2(sim, a, f->x, f->n);
    LoadAcc M = *a;
    int32_t n0 = M.n0, n1 = M.n1, *lk = sim->sym.lk;   /* (lk: not moved in a step) */
    int64_t lb[4] = { sim->sym.lbase[0], sim->sym.lbase[1], sim->sym.lbase[2], sim->sym.lbase[3] };
    SymSeq V[4][SYM_NL];
    sym_view(sim, V);
    int64_t rli[2] = { -1, -1 };
    int32_t rv[2] = { 0, 0 };
    bool ok = true;
    for (int64_t i = 0; ok && i < f->n; i++) {
        int32_t src = f->x[i].src, dst = f->x[i].dst;
        if (f->ext && f->ext[i].route != SCHED_DEFAULT_ROUTE) {
            for (int b = 0; b < 2; b++)   /* (the row lines' states back first) */
                if (rli[b] >= 0)
                    lk[rli[b]] = rv[b];
            rli[0] = rli[1] = -1;
            ArcPiece pc[ARCMAP_MAXPIECES];
            int32_t len;
            int np = route_pieces(sim, XVP(f, i), pc, &len);
            M.sum += len;
            for (int k = 0; ok && k < np; k++)
                ok = sym_piece(sim, &pc[k]);
            sym_view(sim, V);
            continue;
        }
        int32_t r0, c0, r1, c1;
        if (M.pow2) {
            r0 = src >> M.sh, c0 = src & (n1 - 1), r1 = dst >> M.sh, c1 = dst & (n1 - 1);
        } else {
            r0 = src / n1, c0 = src - r0 * n1, r1 = dst / n1, c1 = dst - r1 * n1;
        }
        if (c0 != c1) {
            int left = c1 < c0;
            int64_t li = lb[2 + left] + r0;
            int32_t lo = left ? c1 + 1 : c0, hi = left ? c0 : c1 - 1;
            M.sum += hi - lo + 1;
            if (li != rli[left]) {
                if (rli[left] >= 0)
                    lk[rli[left]] = rv[left];
                rli[left] = li;
                rv[left] = lk[li];
            }
            ok = sym_one(sim, V, 2 + left, li, M.rb[left] + (int64_t)r0 * n1, n1, lo, hi,
                         &rv[left]);
        }
        if (r0 == r1 || !ok)
            continue;
        int up = r1 < r0;
        int64_t li = lb[up] + c1;
        int32_t lo = up ? r1 + 1 : r0, hi = up ? r0 : r1 - 1;
        M.sum += hi - lo + 1;
        int32_t v = lk[li];
        ok = sym_one(sim, V, up, li, M.cb[up] + (int64_t)c1 * n0, n0, lo, hi, &v);
        lk[li] = v;
    }
    for (int b = 0; b < 2; b++)
        if (rli[b] >= 0)
            lk[rli[b]] = rv[b];
    *a = M;
    return ok;
}

#define TT 16   /* transpose_sq's tiles: TT x TT entries */

/* Transpose the n x n matrix p (row-major) in place, by pairs of TT x TT tiles read into a
 * local copy first: each cache line of p is then read once and written once, although the
 * lines of a tile's column, n entries apart, may share one cache set. */
static void transpose_sq(int32_t *p, int64_t n)
{
    int32_t a[TT][TT], b[TT][TT];
    for (int64_t i = 0; i < n; i += TT) {
        int64_t hi = i + TT < n ? TT : n - i;
        for (int64_t j = i; j < n; j += TT) {
            int64_t wj = j + TT < n ? TT : n - j;
            for (int64_t r = 0; r < hi; r++)
                for (int64_t c = 0; c < wj; c++)
                    a[r][c] = p[(i + r) * n + j + c];
            for (int64_t r = 0; r < wj; r++)
                for (int64_t c = 0; c < hi; c++)
                    b[r][c] = p[(j + r) * n + i + c];
            for (int64_t r = 0; r < wj; r++)   /* tile (j, i) := tile (i, j) transposed */
                for (int64_t c = 0; c < hi; c++)
                    p[(j + r) * n + i + c] = a[c][r];
            for (int64_t r = 0; r < hi; r++)   /* and the other way (i = j: the same) */
                for (int64_t c = 0; c < wj; c++)
                    p[(i + r) * n + j + c] = b[c][r];
        }
    }
}

/* ---- a step's loads counted block by block (the difference arrays) ----------------------- */

/* Start counting a step of n transfers (any grid, not a pair net; sim->load all zero): the
 * line bits made, nothing touched yet.  On a 2-D mesh (sim->lay.mesh2) the pieces are read
 * straight from the transfers' ends (mesh2_one).  In a step in node order (rh's exchange
 * steps, a million transfers) consecutive transfers' column pieces lie in different column
 * lines, a line's length apart (4 KiB on a 1024-row mesh): their cache lines crowd a few cache
 * sets and every +1 waits for the stores before it (their addresses agree in the low 12 bits,
 * all the processor compares at first).  So on a square mesh a big step (a quarter as many
 * transfers as nodes) counts its column pieces transposed and load_acc_finish transposes the
 * blocks back before the sweep (about a read and a write of each entry), whose column lines
 * are then all swept.  False when memory runs out. */
/* Test hook (sim-internal.h): lines alike as the callers ask (0), for every count (1), never
 * (-1). */
int sim_load_sym = 0;

bool load_acc_begin(Sim *sim, LoadAcc *a, int64_t n, bool alike)
{
    const ArcMap *L = &sim->lay;
    *a = (LoadAcc){ .mesh2 = L->mesh2 && !sim_count_general, .pow2 = L->pow2,
                    .rlast = { -1, -1 } };
    a->sym = (sim_load_sym > 0 || (sim_load_sym == 0 && alike)) &&
             sym_begin(sim, sim_load_sym > 0);
    if (a->mesh2) {
        a->n0 = sim->net->dims[0], a->n1 = sim->net->dims[1], a->sh = L->dshift[1];
        a->rb[0] = L->base[1][0], a->rb[1] = L->base[1][1];
        a->cb[0] = L->base[0][0], a->cb[1] = L->base[0][1];
        a->tr = a->n0 == a->n1 && n * 4 >= sim->net->size && !sim_count_natural && !a->sym;
    }
    sim->ntouched = 0;
    if (!sim->linebit)
        sim->linebit = big_zalloc(sim, (size_t)(sim->nlinks / 64 + 1) * sizeof *sim->linebit);
    return sim->linebit != NULL;
}

/* Add the +1/-1 of every transfer of f (a whole step's view, or a block of its transfers in
 * a view of their own) to the step begun by load_acc_begin.  False when memory runs out. */
bool load_acc_add(Sim *sim, LoadAcc *a, const SchedFlat *f)
{
    if (a->xch)
        return xch_add(sim, a, f);
    if (!a->mesh2)
        return a->sym ? sym_routes(sim, f, &a->sum) : diff_routes(sim, f, &a->sum);
    if (a->sym)
        return mesh2_sym_run(sim, a, f);
    LoadAcc M = *a;   /* (a local copy: its fields stay in registers across the stores) */
    bool ok = true;
    for (int64_t i = 0; ok && i < f->n; i++)
        ok = mesh2_one(sim, &M, f, i);
    *a = M;
    return ok;
}

/* After the last block: the transposed blocks back in layout order, every column line of
 * them marked (a big step's, like the transpose, about one pass over the block, instead of a
 * test per piece), or with keep left as they are (sim->loadtr: swept down the columns,
 * cleared whole); the spare entry zeroed.  False when memory runs out. */
static bool load_acc_finish(Sim *sim, LoadAcc *a, bool keep)
{
    bool ok = true;
    for (int b = 0; b < 2; b++) {
        if (!a->cblk[b])
            continue;
        if (keep) {   /* swept and cleared as it is (block_sweep_tr, load_clear) */
            sim->loadtr[b] = 1;
            continue;
        }
        transpose_sq(sim->load + a->cb[b], a->n0);
        for (int64_t c = 0; ok && c < a->n1; c++)
            ok = mark_line(sim, a->cb[b] + c * a->n0, a->n0);
    }
    sim->load[sim->nlinks] = 0;   /* (the spare entry: the -1s past a line's end) */
    return ok;
}

/* The running sum along the line p[0..n) (its loads from its differences, in place), its
 * largest value into *mx (if larger) and how many exceed cap added to *ov.  With SSE2 four
 * links at a time: the sum within four by two shifted adds, the carry from the four before,
 * the maximum and the overloads by compares (no branch: half an exchange's links are over). */
static void line_sweep(int32_t *p, int64_t n, int32_t cap, int32_t *mx, int64_t *ov)
{
    int64_t j = 0, oo = 0;
    int32_t run = 0, mm = *mx;
#ifdef __SSE2__
    __m128i carry = _mm_setzero_si128(), m = carry, o = carry, c = _mm_set1_epi32(cap);
    for (; j + 4 <= n; j += 4) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + j));
        x = _mm_add_epi32(x, _mm_slli_si128(x, 4));
        x = _mm_add_epi32(x, _mm_slli_si128(x, 8));
        x = _mm_add_epi32(x, carry);
        _mm_storeu_si128((__m128i *)(void *)(p + j), x);
        carry = _mm_shuffle_epi32(x, 0xFF);
        __m128i g = _mm_cmpgt_epi32(x, m);
        m = _mm_or_si128(_mm_and_si128(g, x), _mm_andnot_si128(g, m));
        o = _mm_sub_epi32(o, _mm_cmpgt_epi32(x, c));
    }
    int32_t mv[4], ov4[4];
    _mm_storeu_si128((__m128i *)(void *)mv, m);
    _mm_storeu_si128((__m128i *)(void *)ov4, o);
    for (int k = 0; k < 4; k++) {
        mm = mv[k] > mm ? mv[k] : mm;
        oo += ov4[k];
    }
    run = j > 0 ? p[j - 1] : 0;
#endif
    for (; j < n; j++) {
        run += p[j];
        p[j] = run;
        mm = run > mm ? run : mm;
        oo += run > cap;
    }
    *mx = mm;
    *ov += oo;
}

/* line_sweep over every column line of the n x n block p held transposed (entry r * n + c is
 * link r of column line c): row r of p gets row r - 1 added, each column's running sum in
 * its own lane (sequential reads and writes, rows two at a time in cache, no transpose). */
static void block_sweep_tr(int32_t *p, int64_t n, int32_t cap, int32_t *mx, int64_t *ov)
{
    int32_t mm = *mx;
    int64_t oo = 0;
    for (int64_t r = 0; r < n; r++) {
        int32_t *row = p + r * n;
        const int32_t *up = r > 0 ? row - n : NULL;
        int64_t c = 0;
#ifdef __SSE2__
        __m128i m = _mm_set1_epi32(mm), o = _mm_setzero_si128(), k = _mm_set1_epi32(cap);
        for (; c + 4 <= n; c += 4) {
            __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(row + c));
            if (up)
                x = _mm_add_epi32(x, _mm_loadu_si128((const __m128i *)(const void *)(up + c)));
            _mm_storeu_si128((__m128i *)(void *)(row + c), x);
            __m128i g = _mm_cmpgt_epi32(x, m);
            m = _mm_or_si128(_mm_and_si128(g, x), _mm_andnot_si128(g, m));
            o = _mm_sub_epi32(o, _mm_cmpgt_epi32(x, k));
        }
        int32_t mv[4], ov4[4];
        _mm_storeu_si128((__m128i *)(void *)mv, m);
        _mm_storeu_si128((__m128i *)(void *)ov4, o);
        for (int q = 0; q < 4; q++) {
            mm = mv[q] > mm ? mv[q] : mm;
            oo += ov4[q];
        }
#endif
        for (; c < n; c++) {
            int32_t v = row[c] + (up ? up[c] : 0);
            row[c] = v;
            mm = v > mm ? v : mm;
            oo += v > cap;
        }
    }
    *mx = mm;
    *ov += oo;
}

void load_layout(Sim *sim)
{
    sym_materialise(sim);
    for (int b = 0; b < 2; b++)
        if (sim->loadtr[b] == 1) {   /* (its lines not marked: still cleared whole) */
            transpose_sq(sim->load + sim->lay.base[0][b], sim->net->dims[0]);
            sim->loadtr[b] = 2;
        }
}

/* The running sum along each touched line (the loads, in place), its largest value into *mx
 * and the links above cap counted (with collect: pushed to sim->over, in layout order). */
static void diff_sweep(Sim *sim, int32_t cap, bool collect, int32_t *max, int64_t *nover,
                       bool *oom)
{
    int32_t *load = sim->load, mx = 0;
    int64_t ov = 0;
    for (int64_t t = 0; t < sim->ntouched; t++) {
        int64_t a = sim->touched[2 * t], e = a + sim->touched[2 * t + 1], o = 0;
        line_sweep(load + a, e - a, cap, &mx, &o);
        ov += o;
        for (int64_t j = a; collect && o > 0 && j < e; j++)
            if (load[j] > cap && !push_over(sim, j))
                *oom = true;
    }
    for (int b = 0; b < 2; b++)   /* (never with collect: load_acc_end) */
        if (sim->loadtr[b] == 1)
            block_sweep_tr(load + sim->lay.base[0][b], sim->net->dims[0], cap, &mx, &ov);
    *max = mx;
    *nover = ov;
}

/* After the last block of a step begun by load_acc_begin: its loads in sim->load (in layout
 * order, but for column blocks left transposed without collect: sim->loadtr, load_layout;
 * load_clear(sim, st, SIM_PATH_DIFF) zeroes them), *max the largest, *nover how many
 * links are above cap (with collect: those links in sim->over), *tcd the summed route
 * length.  False when memory runs out (then too, load_clear zeroes what was counted). */
bool load_acc_end(Sim *sim, LoadAcc *a, int32_t cap, bool collect, int32_t *max, int64_t *nover,
                  int64_t *tcd)
{
    bool oom;
    if (a->xch)   /* rows alike (sim-loadxch.c); collect: every line counted */
        oom = collect ? !xch_flush(sim, a) : !xch_end(sim, a);
    else
        oom = a->sym && !sym_resolve(sim, !collect);   /* (collect: every line counted) */
    oom = !load_acc_finish(sim, a, !collect) || oom;
    sim->nover = 0;
    *max = 0;
    *nover = 0;
    if (!oom)
        diff_sweep(sim, cap, collect, max, nover, &oom);
    if (!oom && a->sym)
        sym_overloads(sim, cap, nover);
    *tcd = a->sum;
    return !oom;
}

/* Test hook (sim-internal.h): count a step of the difference-array path in blocks of this
 * many transfers, each a view of its own, through load_acc_add (0: the whole view at once). */
int64_t sim_load_block = 0;

/* load_acc_add over f, whole or (sim_load_block) in blocks. */
static bool acc_add_view(Sim *sim, LoadAcc *a, const SchedFlat *f)
{
    int64_t B = sim_load_block;
    if (B <= 0)
        return load_acc_add(sim, a, f);
    bool ok = true;
    for (int64_t i = 0; ok && i < f->n; i += B) {
        SchedFlat b = *f;
        b.x = f->x + i;
        b.r = f->r ? f->r + i : NULL;
        b.ext = f->ext ? f->ext + i : NULL;
        b.n = f->n - i < B ? f->n - i : B;
        ok = load_acc_add(sim, a, &b);
    }
    return ok;
}

/* Count the loads of step st into sim->load (which must be all zero).  Returns the path used
 * (SIM_PATH_DIRECT or SIM_PATH_DIFF); *max and *over get the largest load and the number of
 * links above cap; with collect, the overloaded links go to sim->over.  *tcd is the step's
 * summed route length, or < 0 if unknown: then it is computed (along the way, when the step
 * has so many transfers that the difference arrays are sure to be taken). */
static int count_loads(Sim *sim, int32_t st, int64_t *tcd, int32_t cap, bool collect,
                       int32_t *max, int64_t *nover, bool *oom);

int load_count(Sim *sim, int32_t st, int64_t *tcd, int32_t cap, bool collect, int32_t *max,
               int64_t *nover, bool *oom)
{
    int path = count_loads(sim, st, tcd, cap, collect, max, nover, oom);
    load_layout(sim);
    return path;
}

/* load_count, with the column blocks of a square mesh's big step left transposed (the
 * second thread's count: sim->loadtr). */
static int count_loads(Sim *sim, int32_t st, int64_t *tcd, int32_t cap, bool collect,
                       int32_t *max, int64_t *nover, bool *oom)
{
    const SchedFlat *f = sim_flat(sim, st);
    if (!f) {
        *oom = true;
        return SIM_PATH_DIRECT;
    }
    if (sim->full)
        return full_loads(sim, f, tcd, cap, collect, max, nover, oom);
    int path = sim_load_path;
    if (path != SIM_PATH_DIRECT && path != SIM_PATH_DIFF && *tcd < 0 &&
        f->n * 4 >= sim->nlinks)
        path = SIM_PATH_DIFF;   /* every route has a link: tcd * 4 >= nlinks */
    if (path != SIM_PATH_DIRECT && path != SIM_PATH_DIFF) {
        if (*tcd < 0) {
            *tcd = 0;
            for (int64_t i = 0; i < f->n; i++)
                *tcd += xfer_len(sim, XVP(f, i));
        }
        path = *tcd * 4 < sim->nlinks ? SIM_PATH_DIRECT : SIM_PATH_DIFF;
    }
    int64_t len_sum = 0;
    sim->nover = 0;
    *max = 0;
    *nover = 0;
    if (path == SIM_PATH_DIRECT) {
        len_sum = count_direct(sim, f, cap, collect, max, nover, oom);
    } else {
        /* +1/-1 per piece, then a running sum over each line touched (only those) */
        LoadAcc a;
        if (!load_acc_begin(sim, &a, f->n, false)) {
            *oom = true;
            return path;
        }
        bool ok = acc_add_view(sim, &a, f);
        if (!load_acc_end(sim, &a, cap, collect, max, nover, &len_sum) || !ok)
            *oom = true;
    }
    if (*tcd < 0)
        *tcd = len_sum;
    return path;
}

/* Zero sim->load after load_count(st) took `path`. */
void load_clear(Sim *sim, int32_t st, int path)
{
    if (sim->full)
        return;   /* full_loads leaves nothing behind */
    if (path == SIM_PATH_DISJOINT) {
        arcbits_clear(sim);   /* sim->load was never written */
        return;
    }
    int64_t tcd = st == sim->cur_step ? sim->cur.tcd : steps_kind(&sim->steps, st)->tcd;
    if (path == SIM_PATH_DIRECT && tcd >= sim->nlinks / 8) {
        /* routes over an eighth of the links: one sweep beats walking them again */
        memset(sim->load, 0, (size_t)sim->nlinks * sizeof(int32_t));
    } else if (path == SIM_PATH_DIRECT) {
        const SchedFlat *f = sim_flat(sim, st);
        ArcPiece pc[ARCMAP_MAXPIECES];
        for (int64_t i = 0; f && i < f->n; i++) {
            int np = route_pieces(sim, XVP(f, i), pc, NULL);
            for (int k = 0; k < np; k++)
                memset(sim->load + pc[k].a, 0, (size_t)(pc[k].b - pc[k].a + 1) * sizeof(int32_t));
        }
    } else {
        sym_clear(sim);
        for (int b = 0; b < 2; b++)   /* a column block left transposed: all of it */
            if (sim->loadtr[b]) {
                memset(sim->load + sim->lay.base[0][b], 0,
                       (size_t)sim->net->size * sizeof(int32_t));
                sim->loadtr[b] = 0;
            }
        for (int64_t t = 0; t < sim->ntouched; t++) {
            int64_t a = sim->touched[2 * t];
            memset(sim->load + a, 0, (size_t)sim->touched[2 * t + 1] * sizeof(int32_t));
            int64_t li = a >> sim->lay.lshift;
            sim->linebit[li >> 6] &= ~((uint64_t)1 << (li & 63));
        }
        sim->ntouched = 0;
    }
}

/* ---- busiest link per transfer ----------------------------------------------------------- */

/* Range maximum over sim->load: block maxima (level 0) and a sparse table over them. */
bool load_rmq_build(Sim *sim)
{
    load_layout(sim);
    int64_t nb = (sim->nlinks + RMQ_BLOCK - 1) >> RMQ_SHIFT;
    /* A query never leaves one line of the net, so it spans at most longest/64 + 1 whole
     * blocks: the sparse table needs no level beyond that (5 instead of 17 on a 1024 x 1024
     * mesh). */
    int64_t longest = 1;
    for (int d = 0; d < sim->net->ndim; d++)
        if (sim->net->dims[d] > longest)
            longest = sim->net->dims[d];
    int64_t span = longest / RMQ_BLOCK + 1;
    if (span > nb)
        span = nb;
    int levels = 1;
    while (((int64_t)1 << levels) <= span)
        levels++;
    if (!sim->bmax) {
        sim->bmax = big_alloc(sim, (size_t)(nb * levels) * sizeof(int32_t), false);
        sim->bpre = big_alloc(sim, (size_t)sim->nlinks * sizeof(int32_t), false);
        sim->bsuf = big_alloc(sim, (size_t)sim->nlinks * sizeof(int32_t), false);
        if (!sim->bmax || !sim->bpre || !sim->bsuf) {
            free(sim->bmax);
            free(sim->bpre);
            free(sim->bsuf);
            sim->bmax = sim->bpre = sim->bsuf = NULL;
            return false;
        }
    }
    sim->nblocks = nb;
    sim->levels = levels;
    const int32_t *load = sim->load;
    int32_t *t = sim->bmax, *pre = sim->bpre, *suf = sim->bsuf;
    for (int64_t j = 0; j < nb; j++) {
        int64_t a = j << RMQ_SHIFT, b = a + RMQ_BLOCK;
        if (b > sim->nlinks)
            b = sim->nlinks;
        int32_t m = 0;
        for (int64_t i = a; i < b; i++) {
            if (load[i] > m)
                m = load[i];
            pre[i] = m;
        }
        t[j] = m;
        int32_t ms = 0;
        for (int64_t i = b; i-- > a;) {
            if (load[i] > ms)
                ms = load[i];
            suf[i] = ms;
        }
    }
    for (int l = 1; l < levels; l++) {
        int32_t *prev = t + (int64_t)(l - 1) * nb, *cur = t + (int64_t)l * nb;
        int64_t half = (int64_t)1 << (l - 1);
        for (int64_t j = 0; j + 2 * half <= nb; j++)
            cur[j] = prev[j] > prev[j + half] ? prev[j] : prev[j + half];
    }
    return true;
}

static inline int32_t scan_max(const int32_t *load, int64_t a, int64_t b)
{
    /* four independent maxima: no branch, no loop-carried chain of compares */
    int32_t m0 = 0, m1 = 0, m2 = 0, m3 = 0;
    int64_t i = a;
    for (; i + 3 <= b; i += 4) {
        m0 = load[i] > m0 ? load[i] : m0;
        m1 = load[i + 1] > m1 ? load[i + 1] : m1;
        m2 = load[i + 2] > m2 ? load[i + 2] : m2;
        m3 = load[i + 3] > m3 ? load[i + 3] : m3;
    }
    for (; i <= b; i++)
        m0 = load[i] > m0 ? load[i] : m0;
    m0 = m1 > m0 ? m1 : m0;
    m2 = m3 > m2 ? m3 : m2;
    return m2 > m0 ? m2 : m0;
}

static int32_t rmq_query(const Sim *sim, int64_t a, int64_t b)
{
    int64_t ba = a >> RMQ_SHIFT, bb = b >> RMQ_SHIFT;
    if (ba == bb) {
        if ((b & (RMQ_BLOCK - 1)) == RMQ_BLOCK - 1 || b == sim->nlinks - 1)
            return sim->bsuf[a];    /* a to its block's end */
        if ((a & (RMQ_BLOCK - 1)) == 0)
            return sim->bpre[b];    /* its block's start to b */
        return scan_max(sim->load, a, b);
    }
    /* a's block from a, b's block up to b, the whole blocks between */
    int32_t m = sim->bsuf[a], m2 = sim->bpre[b];
    if (m2 > m)
        m = m2;
    int64_t ja = ba + 1, jb = bb - 1;
    if (ja > jb)
        return m;
    int64_t cnt = jb - ja + 1;
    int l = 63 - __builtin_clzll((unsigned long long)cnt);   /* floor(lg cnt) */
    const int32_t *row = sim->bmax + (int64_t)l * sim->nblocks;
    int32_t x = row[ja], y = row[jb - ((int64_t)1 << l) + 1];
    if (x > m)
        m = x;
    if (y > m)
        m = y;
    return m;
}

/* Bring into cache what rmq_query(a, b) will read. */
static inline void rmq_prefetch(const Sim *sim, int64_t a, int64_t b)
{
    int64_t ba = a >> RMQ_SHIFT, bb = b >> RMQ_SHIFT;
    __builtin_prefetch(&sim->bsuf[a]);
    __builtin_prefetch(&sim->bpre[b]);
    int64_t ja = ba + 1, jb = bb - 1;
    if (ja <= jb) {
        int l = 63 - __builtin_clzll((unsigned long long)(jb - ja + 1));
        const int32_t *row = sim->bmax + (int64_t)l * sim->nblocks;
        __builtin_prefetch(&row[ja]);
        __builtin_prefetch(&row[jb - ((int64_t)1 << l) + 1]);
    }
}

/* Busiest load on x's route: by walking (walk) or by the range-maximum structure. */
int32_t load_xfer_max(const Sim *sim, const XV *x, bool walk)
{
    if (sim->full) {   /* the pair's link, from the step full_loads counted last */
        int64_t key = (int64_t)x->src * sim->net->size + x->dst, lo = 0, hi = sim->nfk;
        while (lo < hi) {
            int64_t mid = lo + (hi - lo) / 2;
            if (sim->fk[mid] < key)
                lo = mid + 1;
            else
                hi = mid;
        }
        int32_t k = 0;
        while (lo + k < sim->nfk && sim->fk[lo + k] == key)
            k++;
        if (k < 1)
            k = 1;
        int32_t ms = sim->hx ? x->src / sim->hxB : 0, md = sim->hx ? x->dst / sim->hxB : 0;
        if (ms != md) {   /* hxbar: the channels out of and into the modules, too */
            int32_t a = chan_units(sim, sim->chan[2 * ms]), b = chan_units(sim, sim->chan[2 * md + 1]);
            if (a > k)
                k = a;
            if (b > k)
                k = b;
        }
        return k;
    }
    ArcPiece pc[ARCMAP_MAXPIECES];
    int np = route_pieces(sim, x, pc, NULL);
    int32_t m = 0;
    for (int k = 0; k < np; k++) {
        int b = (sim->loadtr[0] == 1 || sim->loadtr[1] == 1) && pc[k].start < sim->lay.base[1][0]
                    ? pc[k].start >= sim->lay.base[0][1] : 2;
        if (b < 2 && sim->loadtr[b] == 1) {
            /* a column piece of a block held transposed (so no range-maximum structure:
             * load_rmq_build puts the blocks back first): down its column */
            int64_t n = sim->net->dims[0], c = (pc[k].start - sim->lay.base[0][b]) / n;
            const int32_t *T = sim->load + sim->lay.base[0][b] + c;
            for (int64_t r = pc[k].a - pc[k].start; r <= pc[k].b - pc[k].start; r++)
                m = T[r * n] > m ? T[r * n] : m;
            continue;
        }
        int64_t sh = sym_map(sim, pc[k].start) - pc[k].start;   /* (a follower: its rep's) */
        int32_t v = walk ? scan_max(sim->load, pc[k].a + sh, pc[k].b + sh)
                         : rmq_query(sim, pc[k].a + sh, pc[k].b + sh);
        if (v > m)
            m = v;
    }
    return m;
}

bool load_all_max(Sim *sim, const SchedFlat *f, int path)
{
    int64_t n = f->n;
    bool walk = path == SIM_PATH_DIRECT;
    if (!walk && !load_rmq_build(sim))
        return false;
    if (walk) {
        for (int64_t i = 0; i < n; i++)
            sim->xk[i] = load_xfer_max(sim, XVP(f, i), true);
        return true;
    }
    /* pipelined like load_count: the range-maximum entries of transfer i + PREFETCH are
     * prefetched while transfer i is answered */
    ArcPiece ring[RING][ARCMAP_MAXPIECES];
    int rnp[RING];
    for (int64_t i = 0; i < n + PREFETCH; i++) {
        if (i < n) {
            int slot = (int)(i & (RING - 1));
            rnp[slot] = route_pieces(sim, XVP(f, i), ring[slot], NULL);
            for (int k = 0; k < rnp[slot]; k++)
                rmq_prefetch(sim, ring[slot][k].a, ring[slot][k].b);
        }
        if (i < PREFETCH)
            continue;
        int slot = (int)((i - PREFETCH) & (RING - 1));
        int32_t m = 0;
        for (int k = 0; k < rnp[slot]; k++) {
            int32_t v = rmq_query(sim, ring[slot][k].a, ring[slot][k].b);
            if (v > m)
                m = v;
        }
        sim->xk[i - PREFETCH] = m;
    }
    return true;
}

/* ---- routes that share no arc ------------------------------------------------------------ */

/* Set bits a..b of sim->arcbit; false if one of them was set already. */
static bool arcbits_claim(Sim *sim, int64_t a, int64_t b)
{
    uint64_t *w = sim->arcbit;
    int64_t wa = a >> 6, wb = b >> 6;
    if (wa < sim->arclo)
        sim->arclo = wa;
    if (wb + 1 > sim->archi)
        sim->archi = wb + 1;
    uint64_t ma = ~UINT64_C(0) << (a & 63), mb = ~UINT64_C(0) >> (63 - (b & 63));
    if (wa == wb) {
        uint64_t m = ma & mb;
        if (w[wa] & m)
            return false;
        w[wa] |= m;
        return true;
    }
    bool ok = !(w[wa] & ma) && !(w[wb] & mb);
    w[wa] |= ma;
    w[wb] |= mb;
    for (int64_t k = wa + 1; k < wb; k++) {
        ok &= w[k] == 0;
        w[k] = ~UINT64_C(0);
    }
    return ok;
}

static void arcbits_clear(Sim *sim)
{
    if (sim->archi > sim->arclo)
        memset(sim->arcbit + sim->arclo, 0, (size_t)(sim->archi - sim->arclo) * sizeof *sim->arcbit);
    sim->arclo = INT64_MAX;
    sim->archi = 0;
}

/* Whether step f's routes (a grid's) share no arc; *tcd gets their summed length.  Then every
 * arc used carries one circuit: the largest load is 1 (0 without hops), none over capacity,
 * and sim->load is never written (its pages never touched).  First from the step's tree
 * blocks (arcmap_trees: st's steps, no transfer read), or by their order (arcmap_sorted: each
 * piece outside the hull of its layout block's earlier ones; arcmap_sorted_lines: of its
 * line's, for a big step), with nothing set; else by one
 * bit per arc (set, then cleared by load_clear,
 * or here at once when two share one).  False as soon as two share an arc, or when memory for
 * the bits runs out (the loads are then counted). */
static bool load_disjoint(Sim *sim, int32_t st, const SchedFlat *f, int64_t *tcd)
{
    if (arcmap_trees(&sim->lay, sim->s, st, tcd) || arcmap_sorted(&sim->lay, sim->s, f, tcd) == f->n)
        return true;
    /* in order along each line (not each block): several lines at once, each in its own
     * order; worth its array of line hulls when the step has about as many transfers */
    if (!sim->lay.line1 && f->n * 4 >= arcmap_nlines(&sim->lay) &&
        arcmap_sorted_lines(&sim->lay, sim->s, f, tcd) == f->n)
        return true;
    if (!sim->arcbit) {
        sim->arcbit = big_zalloc(sim, (size_t)(sim->nlinks / 64 + 1) * sizeof *sim->arcbit);
        if (!sim->arcbit)
            return false;
        sim->arclo = INT64_MAX;
        sim->archi = 0;
    }
    ArcPiece pc[ARCMAP_MAXPIECES];
    int64_t sum = 0;
    bool line1 = sim->lay.line1 && !f->ext;   /* an array's or ring's default routes */
    for (int64_t i = 0; i < f->n; i++) {
        int32_t len;
        int np = line1 ? arcmap_line1(&sim->lay, f->x[i].src, f->x[i].dst, pc, &len)
                       : route_pieces(sim, XVP(f, i), pc, &len);
        sum += len;
        for (int k = 0; k < np; k++)
            if (!arcbits_claim(sim, pc[k].a, pc[k].b)) {
                arcbits_clear(sim);
                return false;
            }
    }
    *tcd = sum;
    return true;
}

/* Whether every route of step f is one hop long, given that no node sends twice in it (pass 1
 * counted the sends): a one-hop route's only arc leaves its sender, so then no two routes share
 * an arc, every arc used carries one circuit, and nothing is counted, set or cleared (a
 * pipeline's step: a few one-hop sends from distinct nodes).  *tcd gets their summed length.
 * False, with nothing changed, as soon as a route is longer. */
bool load_one_hop(const Sim *sim, const SchedFlat *f, int64_t *tcd)
{
    if (sim->full || sim_load_path != SIM_PATH_AUTO)
        return false;
    int64_t sum = 0;
    for (int64_t i = 0; i < f->n; i++) {
        int32_t l = xfer_len(sim, XVP(f, i));
        if (l > 1)
            return false;
        sum += l;
    }
    *tcd = sum;
    return true;
}

/* ---- the second thread ------------------------------------------------------------------- */

int load_count_job(void *arg)
{
    LoadJob *j = arg;
    Sim *sim = j->sim;
    j->tcd = -1;
    if (sim_load_path == SIM_PATH_AUTO && !sim->full) {
        const SchedFlat *f = sim_flat(sim, j->st);
        if (!f) {
            j->oom = true;
            return 0;
        }
        if (load_disjoint(sim, j->st, f, &j->tcd)) {
            sim->nover = 0;
            j->mx = j->tcd > 0;
            j->nover = 0;
            j->path = SIM_PATH_DISJOINT;
            return 0;
        }
    }
    j->path = count_loads(sim, j->st, &j->tcd, j->cap, j->collect, &j->mx, &j->nover,
                           &j->oom);
    return 0;
}

/* A step of more transfers than this is not made ahead: its view is expanded when its turn
 * comes.  Two views of a million transfers at once are 50-60 MB (rh on mesh:1024x1024: peak
 * 214 -> 197 MiB without); the CPU time is the same, only the expansion's wall time is no
 * longer hidden behind the receives. */
#define AHEAD_MAX (INT64_C(1) << 18)

/* Clear the step's loads, then make the next step's flat view if it has rules and is not
 * big (the step being received reads only its own). */
int load_clear_job(void *arg)
{
    LoadJob *j = arg;
    Sim *sim = j->sim;
    load_clear(sim, j->st, j->path);
    int32_t nx = j->st + 1;
    if (nx < sim->nsteps && sim->s->steps[nx].nrule > 0 &&
        sched_ntransfers(sim->s, nx) <= AHEAD_MAX &&
        sched_flat(sim->s, nx, &sim->nbuf, &sim->next))
        sim->next_step = nx;
    return 0;
}
