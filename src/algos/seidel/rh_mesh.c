/* rh_mesh.c — Seidel's recursive halving (RH) broadcast on a 2^d1 x 2^d2 mesh
 * (ORNL/TM-12356, 3.6 after Barnett et al. [1]; any source 4.4; Table I).
 *
 * Node (r,c) has id r*cols+c; routing is XY (along the row, then the column).
 *
 *   0. permute the message at the source (rho*m, a local operation; 3.5: "permuted in node 0
 *      before the first phase or in each node following the second phase").
 *   1. distribute (d1 + d2 steps): down the source's column, halving at each step (farthest
 *      first), then along every row; every node ends with one packet of m/n bytes.
 *   2. dimensional exchange (d1 + d2 steps, farthest first, the packets doubling).  For
 *      d1 <= d2: first the top d2-d1 column bits, every node exchanging along its row (link
 *      load 2^(bit)); then d1 pairs of steps, one per bit j = d1-1 .. 0, exchanging column bit
 *      j and row bit j "interleaved in alternate nodes": the nodes with (r+c) even exchange
 *      along the row first and along the column second, the nodes with (r+c) odd the other way
 *      round, so that only half of every row and of every column exchanges at once (link load
 *      2^(j-1) instead of 2^j).  For j = 0 every node does the row first (neighbours: no
 *      contention either way, and (r+c) is not constant across a bit-0 pair).
 *      For d1 > d2 the roles of rows and columns are swapped (top row bits first, along the
 *      columns): by symmetry, the prediction is the Table I formula with d1 and d2 swapped.
 *
 * Chunks: chunk ids follow the order in which the exchange gathers bits (the first exchanged
 * bit is the lowest bit of the chunk id), so that every node's holding during the exchange is
 * one or two intervals; the distribution therefore sends strided sets, which is exactly why
 * the source permutes first.  n = 2^(d1+d2) chunks.
 *
 * Table I (nu < d1 <= d2): (2 + (2(d2-d1)-3)/2^(d1+nu+2) + 1/2^(2nu+3) - 1/2^(d1+d2)) ma
 *                          + 2(d1+d2) b + m rho.
 * Outside nu < min(d1,d2) the prediction is the paper's sum form of phase 2 (3.6) plus phases
 * 0 and 1.  RH's schedule does not depend on nu (no structural nu), so the model's nu is used.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algos-internal.h"

/* The exchange order: bit t of a chunk id is coordinate bit ord[t].bit of axis ord[t].axis
 * (axis 0: row index, exchanged along a column; axis 1: column index, along a row). */
typedef struct {
    int axis, bit;
} Bit;

typedef struct {
    int d1, d2, nb;
    int lead;       /* steps before the pairs: |d1-d2| */
    Bit ord[64];
} Order;

static void make_order(Order *o, int d1, int d2)
{
    int lo = d1 < d2 ? d1 : d2, hi = d1 < d2 ? d2 : d1;
    int long_axis = d1 <= d2 ? 1 : 0;
    o->d1 = d1;
    o->d2 = d2;
    o->nb = 0;
    o->lead = hi - lo;
    for (int b = hi - 1; b >= lo; b--)
        o->ord[o->nb++] = (Bit){long_axis, b};
    for (int j = lo - 1; j >= 0; j--) {
        o->ord[o->nb++] = (Bit){1, j};   /* along the row first (canonical order) */
        o->ord[o->nb++] = (Bit){0, j};
    }
}

/* The chunk id of node (r,c). */
static uint32_t chunk_of(const Order *o, int32_t r, int32_t c)
{
    uint32_t id = 0;
    for (int t = 0; t < o->nb; t++) {
        int32_t v = o->ord[t].axis == 0 ? r : c;
        id |= (uint32_t)((v >> o->ord[t].bit) & 1) << t;
    }
    return id;
}

/* chunk_of(o, r, c) = rpart[r] | cpart[c]: every chunk-id bit comes from one coordinate bit. */
typedef struct {
    uint32_t *rpart, *cpart;
} Parts;

static bool make_parts(Parts *pt, const Order *o, int32_t rows, int32_t cols)
{
    pt->rpart = malloc(sizeof *pt->rpart * (size_t)rows);
    pt->cpart = malloc(sizeof *pt->cpart * (size_t)cols);
    if (!pt->rpart || !pt->cpart) {
        free(pt->rpart);
        free(pt->cpart);
        return false;
    }
    for (int32_t r = 0; r < rows; r++)
        pt->rpart[r] = chunk_of(o, r, 0);
    for (int32_t c = 0; c < cols; c++)
        pt->cpart[c] = chunk_of(o, 0, c);
    return true;
}

/* Send the packets of nodes (r, c) with r in [r_lo, r_lo + nr) and c in [c_lo, c_lo + nc)
 * from src to dst in one transfer.  nr and nc are powers of two and r_lo, c_lo multiples of
 * them, so the chunk ids are fixed | (any subset of the bits `free`): a strided set, which the
 * schedule lists as ranges in increasing order (sched_send_submasks). */
static bool send_rect(Sched *s, const Parts *pt, int32_t src, int32_t dst, int32_t r_lo,
                      int32_t nr, int32_t c_lo, int32_t nc)
{
    uint32_t fixed = pt->rpart[r_lo] | pt->cpart[c_lo];
    uint32_t free_ = 0;
    for (int32_t b = 1; b < nr; b <<= 1)
        free_ |= pt->rpart[r_lo + b] ^ pt->rpart[r_lo];
    for (int32_t b = 1; b < nc; b <<= 1)
        free_ |= pt->cpart[c_lo + b] ^ pt->cpart[c_lo];
    return sched_send_submasks(s, src, dst, fixed, free_);
}

static bool rh_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                    size_t errlen)
{
    (void)a;
    int d1, d2;
    if (!algo_mesh_dims(net, &d1, &d2) || d1 + d2 > 30) {
        snprintf(err, errlen, "%s needs a 2-D mesh of 2^d1 x 2^d2 nodes (got %s)", d->name,
                 net_spec(net));
        return false;
    }
    if (d1 < 1 || d2 < 1) {
        snprintf(err, errlen, "%s on %s needs at least 2 rows and 2 columns", d->name,
                 net_spec(net));
        return false;
    }
    /* the exchange steps are rules and take no memory, but every transfer is simulated, and the
     * distribute phase's ranges and the simulator's holdings do take memory */
    return !algo_too_big(d, net, d1 + d2 + 1, ALGO_RH_MAX_TRANSFERS, err, errlen);
}

static uint32_t rh_nchunks(const AlgoDef *d, const Net *net, const AlgoArgs *a)
{
    (void)d;
    (void)a;
    return (uint32_t)net_size(net);
}

/* Exchange step t: transfer j is node j's whole holding, sent to its partner.  Before step t
 * a node has gathered chunk bits 0..t-1 (at a pair boundary) or, in the middle of a pair,
 * bits 0..t-2 and t (if it went the other way round). */
typedef struct {
    Order o;
    int t, cshift;
    int32_t rows;
    uint32_t parts[];   /* rpart[rows], then cpart[cols] */
} ExchangeRule;

/* What exchange step t's transfers share (worked out once per call, not per node): which bit
 * is exchanged, with or without the swap, and the partner's offset in node ids. */
typedef struct {
    int32_t flip[2];   /* the partner is j ^ flip[swapped] */
    bool paired, second;
    uint32_t w1, w2;
    const uint32_t *rpart, *cpart;
    int cshift;
    int32_t cmask;
} ExchangeStep;

static void exchange_step_(const ExchangeRule *er, ExchangeStep *k)
{
    const Order *o = &er->o;
    int t = er->t;
    k->second = t >= o->lead && ((t - o->lead) & 1);      /* second step of a pair */
    int first_of_pair = k->second ? t - 1 : t;
    k->paired = t >= o->lead && o->ord[first_of_pair].bit >= 1;
    /* the partner is j ^ flip[swapped]: the node that differs in the coordinate bit of the
     * chunk bit exchanged now (t, or its pair's other one when the node goes the other way
     * round) */
    k->flip[0] = k->flip[1] = 0;
    for (int sw = 0; sw < 1 + k->paired; sw++) {
        Bit b = o->ord[sw ? (k->second ? t - 1 : t + 1) : t];
        k->flip[sw] = INT32_C(1) << (b.axis == 0 ? b.bit + er->cshift : b.bit);
    }
    k->rpart = er->parts;
    k->cpart = er->parts + er->rows;
    k->cshift = er->cshift;
    k->cmask = (INT32_C(1) << er->cshift) - 1;
    /* gathered bits 0..t-1: one interval of 2^t; the other way round, in the middle of a
     * pair: bits 0..t-2 and t, two intervals of 2^(t-1) */
    k->w1 = UINT32_C(1) << t;
    k->w2 = k->second ? UINT32_C(1) << (t - 1) : 0;
}

/* (by value: the callers' copy never escapes, so the compiler keeps it in registers) */
static inline ExchangeStep exchange_step(const ExchangeRule *er)
{
    ExchangeStep k;
    exchange_step_(er, &k);
    return k;
}

/* Node j's transfer, as exchange step k has it (j = (r, c), chunk id `id`; sw: the node goes
 * the other way round). */
static inline __attribute__((always_inline)) void exchange_put(ExchangeStep k, int32_t j,
                                                               int32_t f, uint32_t id, bool sw,
                                                               SchedRuleXfer *x)
{
    x->src = j;
    x->dst = j ^ f;
    if (sw && k.second) {
        uint32_t base = id & ~(k.w2 - 1) & ~k.w1;
        x->nr = 2;
        x->r[0] = (ChunkRange){ base, base + k.w2 };
        x->r[1] = (ChunkRange){ base | k.w1, (base | k.w1) + k.w2 };
    } else {
        uint32_t lo = id & ~(k.w1 - 1);
        x->nr = 1;
        x->r[0] = (ChunkRange){ lo, lo + k.w1 };
    }
}

/* Transfers j0..j0+n-1 of exchange step t, in one call (sched_send_rule_batch). */
static void exchange_batch(const void *ctx, int64_t j0, int64_t n, SchedRuleXfer *out)
{
    const ExchangeStep k = exchange_step(ctx);
    for (int64_t i = 0; i < n; i++) {
        int32_t j = (int32_t)(j0 + i), r = j >> k.cshift, c = j & k.cmask;
        bool sw = k.paired && ((r ^ c) & 1);
        exchange_put(k, j, k.flip[sw], k.rpart[r] | k.cpart[c], sw, &out[i]);
    }
}

/* The pairs whose lower node lies in j0..j0+n-1 (sched_send_rule_exchange_pairs): node j's
 * transfer, then its partner's, for each j below its partner: j ^ f with f (a power of two)
 * not in j.  Row by row: in a row, the nodes of one column parity q share their flip and
 * their way round (the partner's too: exchange_prove); a flip along the row (f <= cmask)
 * makes j the lower end when column bit f is clear, a flip along the column when the row's
 * bit is (the whole class, or none of it). */
static int64_t exchange_pairs(const void *ctx, int64_t j0, int64_t n, SchedRuleXfer *out)
{
    const ExchangeStep k = exchange_step(ctx);
    const uint32_t *rpart = k.rpart, *cpart = k.cpart;
    int cs = k.cshift;
    int32_t cm = k.cmask, j = (int32_t)j0, jn = (int32_t)(j0 + n);
    SchedRuleXfer *o = out;
    while (j < jn) {
        int32_t r = j >> cs, e = (r + 1) << cs < jn ? (r + 1) << cs : jn;
        uint32_t rp = rpart[r], prp[2];
        int32_t fl[2], cbit[2];
        bool sw[2], low[2];
        for (int q = 0; q < 2; q++) {
            sw[q] = k.paired && ((r ^ q) & 1);
            fl[q] = k.flip[sw[q]];
            bool along_row = fl[q] <= cm;
            cbit[q] = along_row ? fl[q] : 0;
            low[q] = along_row || !(j & fl[q]);
            prp[q] = along_row ? rp : rpart[(j ^ fl[q]) >> cs];
        }
        /* (two nodes at a time, an even column and the odd one after it, when a row has
         * both; else one) */
        bool two = cm > 0 && !(j & 1);
        for (; two && j + 1 < e; j += 2) {
            int32_t c = j & cm;
            if (low[0] && !(c & cbit[0])) {
                exchange_put(k, j, fl[0], rp | cpart[c], sw[0], o);
                exchange_put(k, j ^ fl[0], fl[0], prp[0] | cpart[(j ^ fl[0]) & cm], sw[0],
                             o + 1);
                o += 2;
            }
            if (low[1] && !((c + 1) & cbit[1])) {
                exchange_put(k, j + 1, fl[1], rp | cpart[c + 1], sw[1], o);
                exchange_put(k, (j + 1) ^ fl[1], fl[1],
                             prp[1] | cpart[((j + 1) ^ fl[1]) & cm], sw[1], o + 1);
                o += 2;
            }
        }
        for (; j < e; j++) {
            int32_t c = j & cm, q = c & 1;
            if (!low[q] || (c & cbit[q]))
                continue;
            int32_t f = fl[q];
            exchange_put(k, j, f, rp | cpart[c], sw[q], o);
            exchange_put(k, j ^ f, f, prp[q] | cpart[(j ^ f) & cm], sw[q], o + 1);
            o += 2;
        }
    }
    return (o - out) / 2;
}

/* exchange_batch's transfers are valid for every j < count, shown from the parameters
 * (sched_send_rule_proved): the net has n = 2^nb nodes and chunks and count = n; then
 *  - src = j < n, and dst = j ^ flip with flip = 2^sh, 0 <= sh < nb: dst < n and dst != src;
 *  - every chunk id rpart[r] | cpart[c] < n when each part is (n is a power of two);
 *  - one range [id & ~(w1-1), that + w1), w1 = 2^t <= n/2: aligned, so inside [0,n), non-empty;
 *  - two ranges (the second step of a pair, t >= 1, w2 = w1/2): [base, base+w2) and
 *    [base|w1, (base|w1)+w2), base = id with bits 0..t-2 and bit t clear: base + w2 <= base
 *    + w1 - w2 < base | w1, so sorted and apart; base | w1 < n (both are below n, a power of
 *    two) and is a multiple of w2, so the second ends by n.
 * And it is an exchange (sched_send_rule_exchange): src = j, and the partner j ^ flip[sw]
 * sends back to j: with `paired` both flips change a coordinate bit >= 1, so (r ^ c) & 1,
 * hence sw, is the partner's too; unpaired, sw is 0 for every node.
 * The sanitized builds check every transfer as well (sched_check_proofs). */
static bool exchange_prove(const void *ctx, const Net *net, uint32_t nchunks, int64_t count)
{
    const ExchangeRule *er = ctx;
    const Order *o = &er->o;
    int t = er->t, nb = o->nb;
    if (nb < 1 || nb > 30 || nb != o->d1 + o->d2 || er->cshift != o->d2 ||
        er->rows != (INT32_C(1) << o->d1) || count != (INT64_C(1) << nb) ||
        net_size(net) != count || nchunks != (uint64_t)count || t < 0 || t >= nb)
        return false;
    bool second = t >= o->lead && ((t - o->lead) & 1);
    int first_of_pair = second ? t - 1 : t;
    bool paired = t >= o->lead && o->ord[first_of_pair].bit >= 1;
    if (second && t < 1)
        return false;
    for (int sw = 0; sw < 1 + paired; sw++) {
        int idx = sw ? (second ? t - 1 : t + 1) : t;
        if (idx < 0 || idx >= nb)
            return false;
        Bit b = o->ord[idx];
        int sh = b.axis == 0 ? b.bit + er->cshift : b.bit;
        if (b.bit < 0 || sh < 0 || sh >= nb || (paired && b.bit < 1))
            return false;
    }
    int32_t cols = INT32_C(1) << er->cshift;
    const uint32_t *rpart = er->parts, *cpart = er->parts + er->rows;
    for (int32_t r = 0; r < er->rows; r++)
        if (rpart[r] >= (uint64_t)count)
            return false;
    for (int32_t c = 0; c < cols; c++)
        if (cpart[c] >= (uint64_t)count)
            return false;
    return true;
}

static bool rh_build(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    (void)d;
    const Net *net = sched_net(s);
    int d1, d2;
    if (!algo_mesh_dims(net, &d1, &d2)) {
        sched_fail(s, "not a 2-D power-of-two mesh");
        return false;
    }
    int32_t rows = net_dim(net, 0), cols = net_dim(net, 1), n = rows * cols;
    int32_t sr = a->source / cols, sc = a->source % cols;
    Order o;
    make_order(&o, d1, d2);
    const char *lead_label = d1 <= d2 ? "exchange along the rows (top column bits)"
                                      : "exchange along the columns (top row bits)";
    if (!algo_open_steps_n(s, 0, 1, "permute the message at the source (rho*m)") ||
        !algo_open_steps_n(s, 1, d1, "distribute down the column") ||
        !algo_open_steps_n(s, 1 + d1, d2, "distribute along the rows") ||
        !algo_open_steps_n(s, 1 + d1 + d2, o.lead, lead_label) ||
        !algo_open_steps_n(s, 1 + d1 + d2 + o.lead, o.nb - o.lead,
                    "exchange, rows and columns interleaved in alternate nodes"))
        return false;
    if (!sched_at(s, 0) || !sched_local(s, a->source, sched_bytes(s)))
        return false;

    Parts pt;
    if (!make_parts(&pt, &o, rows, cols)) {
        sched_fail(s, "out of memory");
        return false;
    }
    bool ok = true;
    /* 1a. down the source's column: at step i the holders (rows agreeing with sr on bits
     *     beta..0, beta = d1-1-i) hand on the rows of the other half of their subtree */
    for (int i = 0; ok && i < d1; i++) {
        int beta = d1 - 1 - i;
        int32_t low = (INT32_C(1) << (beta + 1)) - 1;
        /* the range pool: at most n/2 ranges per distribute step (reserved at once:
         * growing it step by step would copy it) */
        ok = sched_at(s, 1 + i) &&
             sched_reserve(s, INT64_C(1) << i, i == 0 ? (uint64_t)n / 2 * (uint64_t)(d1 + d2) : 0);
        for (int32_t r = 0; ok && r < rows; r++) {
            if (((r ^ sr) & low) != 0)
                continue;
            int32_t to = r ^ (INT32_C(1) << beta);
            int32_t r_lo = to & ~((INT32_C(1) << beta) - 1);
            ok = send_rect(s, &pt, r * cols + sc, to * cols + sc, r_lo,
                           INT32_C(1) << beta, 0, cols);
        }
    }
    /* 1b. along every row */
    for (int i = 0; ok && i < d2; i++) {
        int beta = d2 - 1 - i;
        int32_t low = (INT32_C(1) << (beta + 1)) - 1;
        ok = sched_at(s, 1 + d1 + i) && sched_reserve(s, (int64_t)rows << i, 0);
        /* (the senders of a row: the columns that agree with sc on bits beta..0, in order) */
        for (int32_t r = 0; ok && r < rows; r++)
            for (int32_t c = sc & low; ok && c < cols; c += low + 1) {
                int32_t to = c ^ (INT32_C(1) << beta);
                int32_t c_lo = to & ~((INT32_C(1) << beta) - 1);
                ok = send_rect(s, &pt, r * cols + c, r * cols + to, r, 1, c_lo,
                               INT32_C(1) << beta);
            }
    }
    /* 2. the exchange, one rule per step (every node sends everything it holds), proved valid
     *    from its parameters rather than checked transfer by transfer (exchange_prove) */
    size_t csize = sizeof(ExchangeRule) + sizeof(uint32_t) * (size_t)(rows + cols);
    ExchangeRule *er = ok ? malloc(csize) : NULL;
    if (ok && !er) {
        sched_fail(s, "out of memory");
        ok = false;
    }
    if (er) {
        er->o = o;
        er->cshift = d2;
        er->rows = rows;
        memcpy(er->parts, pt.rpart, sizeof(uint32_t) * (size_t)rows);
        memcpy(er->parts + rows, pt.cpart, sizeof(uint32_t) * (size_t)cols);
    }
    for (int t = 0; ok && t < o.nb; t++) {
        er->t = t;
        ok = sched_at(s, 1 + d1 + d2 + t) &&
             sched_send_rule_exchange_pairs(s, n, exchange_batch, exchange_pairs, er, csize,
                                            exchange_prove);
    }
    free(er);
    free(pt.rpart);
    free(pt.cpart);
    return ok;
}

/* The paper's sum form (3.5 / 3.6) of the whole broadcast, for d1 <= d2 (swap otherwise). */
static double rh_sum(int d1, int d2, const CostParams *p, double m)
{
    int lo = d1 < d2 ? d1 : d2, hi = d1 < d2 ? d2 : d1;
    double n = ldexp(1.0, d1 + d2), ab = p->a / ldexp(1.0, p->nu), c = 0;
    for (int i = 0; i <= 2 * lo - 1; i++)
        c += m / ldexp(1.0, i + 1) * fmax(p->a, ldexp(ab, i / 2 - 1)) + p->b;
    for (int i = 2 * lo; i <= lo + hi - 1; i++)
        c += m / ldexp(1.0, i + 1) * fmax(p->a, ldexp(ab, i - lo)) + p->b;
    return (1.0 - 1.0 / n) * m * p->a + (d1 + d2) * p->b + c + m * p->rho;
}

static bool rh_predict(const AlgoDef *d, const Net *net, const AlgoArgs *a, const CostParams *p,
                       double *total)
{
    (void)d;
    int d1, d2;
    if (p->model != COST_SEIDEL || !algo_mesh_dims(net, &d1, &d2) || d1 < 1 || d2 < 1)
        return false;
    int lo = d1 < d2 ? d1 : d2, hi = d1 < d2 ? d2 : d1;
    double m = (double)a->bytes, nu = p->nu;
    if (p->nu >= lo) {
        *total = rh_sum(d1, d2, p, m);
        return true;
    }
    *total = (2.0 + (2.0 * (hi - lo) - 3.0) / ldexp(1.0, lo + p->nu + 2) +
              1.0 / ldexp(1.0, 2 * p->nu + 3) - 1.0 / ldexp(1.0, d1 + d2)) *
                 m * p->a +
             2.0 * (d1 + d2) * p->b + m * p->rho;
    (void)nu;
    return true;
}

const AlgoDef algo_rh_mesh = {
    .name = "rh",
    .summary = "mesh RH: distribute, then exchanges interleaved in alternate nodes; permutes",
    .ref = "Seidel 3.6 (after Barnett et al.), 4.4; Table I",
    .nets = 1u << NET_MESH,
    .flags = ALGO_POW2,
    .fits = rh_fits,
    .nchunks = rh_nchunks,
    .build = rh_build,
    .predict = rh_predict,
};
