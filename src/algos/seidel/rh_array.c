/* rh_array.c — Seidel's recursive halving (RH) broadcast on a linear array of 2^d nodes
 * (ORNL/TM-12356, 3.5, Table I; any source: 4.4).
 *
 *   0. permute: the source permutes its message (m bytes, cost m*rho) — the paper's first
 *      choice, "permuted in node 0 before the first phase".  In meshcast's terms: node y is
 *      sent packet bitrev_d(y), so that every holding below is one contiguous chunk range.
 *   1. distribute (d steps): scatter along the spanning tree rooted at the source (XOR, 4.4),
 *      halving at each step; node y ends with packet bitrev_d(y).
 *   2. exchange (d steps): on exchange step j (0-based) every node x swaps everything it holds
 *      with x ^ 2^(d-1-j) — the farthest partner first (3.5: "on step i all pairs of nodes
 *      whose (d-i)th bits differ exchange"; "on the first step 2^(d-1) messages contend for the
 *      link from node 2^(d-1)-1 to node 2^(d-1)").  Exchange step j carries m/2^(d-j) bytes per
 *      message with 2^(d-1-j) circuits on the busiest link: the term i = d-1-j of the paper's
 *      sum, m/2^(i+1) max(a, 2^i abar) + b.  So the link contention the simulator reports on
 *      exchange steps is 2^(d-1), 2^(d-2), ..., 1, and links are overloaded (load > 2^nu) on
 *      exactly the steps with 2^i > 2^nu, as the paper describes.
 * Cost (seidel): (2 + (d-nu-2)/2^(nu+1) - 1/2^d) ma + 2db + m rho  (Table I, for nu <= d).
 *
 * Decisions: the schedule does not depend on nu (only its price does); Table I assumes
 * nu < d, so a structural nu >= d is refused like st and bst.  The closed form uses the
 * model's nu (p->nu), is exact for p->nu <= d, and is not offered for a larger p->nu.
 * A 1-node array has no steps (no permutation either) and cost 0.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "../algos-internal.h"

/* rev[x] = x with its d bits reversed, for every x < 2^d. */
static uint32_t *bitrev_table(int d)
{
    uint32_t n = UINT32_C(1) << d;
    uint32_t *rev = malloc(sizeof *rev * n);
    if (!rev)
        return NULL;
    rev[0] = 0;
    for (uint32_t x = 1; x < n; x++)
        rev[x] = (rev[x >> 1] >> 1) | ((x & 1u) << (d - 1));
    return rev;
}

static bool rh_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                    size_t errlen)
{
    int dd = algo_log2(net_size(net));
    if (dd < 0) {
        snprintf(err, errlen, "%s on %s needs 2^d nodes", d->name, net_spec(net));
        return false;
    }
    if (a->nu < 0 || (a->nu > 0 && a->nu >= dd)) {
        snprintf(err, errlen, "%s on %s needs nu < %d (got nu=%d)", d->name, net_spec(net), dd,
                 a->nu);
        return false;
    }
    /* the exchange phase alone is n*d transfers: stored as rules they take no memory, but
     * the simulator still handles each one (and the distribute phase's n*d/2 ranges are
     * stored): 3*2^23 admits 2^20 nodes, about 1.3 s and 270 MiB */
    return !algo_too_big(d, net, dd, ALGO_RH_MAX_TRANSFERS, err, errlen);
}

static uint32_t rh_nchunks(const AlgoDef *d, const Net *net, const AlgoArgs *a)
{
    (void)d;
    (void)a;
    return (uint32_t)net_size(net);
}

/* Exchange step with partner bit e on 2^d nodes: transfer x is node x's whole holding. */
typedef struct {
    int d, e;
} ExchangeRule;

/* Transfers j0..j0+n-1 (sched_send_rule_exchange). */
static void exchange_batch(const void *ctx, int64_t j0, int64_t n, SchedRuleXfer *out)
{
    const ExchangeRule *er = ctx;
    uint32_t w = UINT32_C(1) << (er->d - 1 - er->e), mask = (UINT32_C(2) << er->e) - 1;
    uint32_t flip = UINT32_C(1) << er->e;
    for (int64_t i = 0; i < n; i++) {
        uint32_t x = (uint32_t)(j0 + i), lo = algo_bitrev(x & mask, er->d);
        out[i].src = (int32_t)x;
        out[i].dst = (int32_t)(x ^ flip);
        out[i].nr = 1;
        out[i].r[0] = (ChunkRange){ lo, lo + w };
    }
}

/* The pairs whose lower node lies in j0..j0+n-1 (sched_send_rule_exchange_pairs): x with bit e
 * clear, then x ^ 2^e, their transfers as exchange_batch writes them: the partner's range
 * starts at bitrev_d((x ^ 2^e) mod 2^(e+1)) = lo ^ 2^(d-1-e) = lo ^ w (reversing the d bits
 * moves bit e to bit d-1-e).  (Where bit e of x is set, x is an upper end: those runs of 2^e
 * are skipped whole.) */
static int64_t exchange_pairs(const void *ctx, int64_t j0, int64_t n, SchedRuleXfer *out)
{
    const ExchangeRule *er = ctx;
    uint32_t w = UINT32_C(1) << (er->d - 1 - er->e), mask = (UINT32_C(2) << er->e) - 1;
    uint32_t flip = UINT32_C(1) << er->e;
    SchedRuleXfer *o = out;
    for (int64_t j = j0; j < j0 + n; j++) {
        uint32_t x = (uint32_t)j;
        if (x & flip) {
            j |= flip - 1;   /* (the last of this run of upper ends) */
            continue;
        }
        uint32_t lo = algo_bitrev(x & mask, er->d), plo = lo ^ w;
        o[0] = (SchedRuleXfer){ (int32_t)x, (int32_t)(x ^ flip), 1, { { lo, lo + w } } };
        o[1] = (SchedRuleXfer){ (int32_t)(x ^ flip), (int32_t)x, 1, { { plo, plo + w } } };
        o += 2;
    }
    return (o - out) / 2;
}

/* Every transfer valid, from the parameters: n = 2^d nodes and chunks, count = n, 0 <= e < d;
 * src = x < n, dst = x ^ 2^e < n and != x; lo = bitrev_d(x mod 2^(e+1)) has only its top e+1
 * bits (of d) set, so it is a multiple of w = 2^(d-1-e) below n: [lo, lo + w) is non-empty and
 * ends by n.  An exchange (sched_send_rule_exchange): src = x, and x ^ 2^e sends back to x.
 * (The sanitized builds check every transfer as well.) */
static bool exchange_prove(const void *ctx, const Net *net, uint32_t nchunks, int64_t count)
{
    const ExchangeRule *er = ctx;
    return er->d >= 1 && er->d <= 30 && er->e >= 0 && er->e < er->d &&
           count == (INT64_C(1) << er->d) && net_size(net) == count &&
           nchunks == (uint64_t)count;
}

static bool rh_build(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    (void)d;
    int32_t n = net_size(sched_net(s));
    int dd = algo_log2(n);
    int32_t k = a->source;
    if (dd == 0)
        return true;
    if (!algo_open_steps(s, 0, 1, "permute (source)") || !sched_local(s, k, sched_bytes(s)))
        return false;
    if (!algo_open_steps(s, 1, dd, "distribute"))
        return false;
    uint32_t *rev = bitrev_table(dd);
    if (!rev) {
        sched_fail(s, "out of memory");
        return false;
    }
    bool ok = true;
    for (int i = 0; ok && i < dd; i++) {
        /* the range pool: every distribute step but the last adds n/2 ranges (reserved at
         * once: growing it step by step would copy it) */
        ok = sched_at(s, 1 + i) &&
             sched_reserve(s, INT64_C(1) << i, i == 0 ? (uint64_t)n / 2 * (uint64_t)dd : 0);
        int32_t span = INT32_C(1) << (dd - i), half = span >> 1;
        for (int32_t rel = 0; ok && rel < n; rel += span) {
            int32_t from = rel ^ k, to = (rel + half) ^ k;
            int32_t blk = to & ~(half - 1);
            /* the packets of nodes blk .. blk+half-1: ids bitrev(blk) + u*2^(i+1), u < half
             * (bitrev(blk + t) = bitrev(blk) | bitrev(t) runs over them): bitrev(blk) has
             * bits 0..i only, u*2^(i+1) any of bits i+1..dd-1, a strided set */
            uint32_t above = ((UINT32_C(1) << dd) - 1) & ~((UINT32_C(2) << i) - 1);
            ok = sched_send_submasks(s, from, to, rev[blk], above);
        }
    }
    if (!ok) {
        free(rev);
        return false;
    }
    for (int j = 0; j < dd; j++) {
        int e = dd - 1 - j;
        char label[64];
        snprintf(label, sizeof label, "exchange (contention %ld)", (long)(INT32_C(1) << e));
        if (!algo_open_steps(s, 1 + dd + j, 1, label)) {
            free(rev);
            return false;
        }
        /* x holds the packets of the nodes y = x mod 2^(e+1): ids with top e+1 bits
         * bitrev_{e+1}(x mod 2^(e+1)) = bitrev_d(x mod 2^(e+1)) >> (d-1-e), a range of
         * 2^(d-1-e) ids: [bitrev_d(x mod 2^(e+1)), + 2^(d-1-e)).  Every node sends: one
         * rule instead of n stored transfers, proved valid rather than checked one by one. */
        ExchangeRule er = { dd, e };
        if (!sched_send_rule_exchange_pairs(s, n, exchange_batch, exchange_pairs, &er, sizeof er,
                                            exchange_prove)) {
            free(rev);
            return false;
        }
    }
    free(rev);
    return true;
}

static bool rh_predict(const AlgoDef *d, const Net *net, const AlgoArgs *a, const CostParams *p,
                       double *total)
{
    (void)d;
    int dd = algo_log2(net_size(net));
    if (p->model != COST_SEIDEL || dd < 0 || p->nu > dd)
        return false;
    double m = (double)a->bytes, nu = p->nu;
    if (dd == 0) {
        *total = 0;
        return true;
    }
    *total = (2.0 + (dd - nu - 2.0) / ldexp(1.0, p->nu + 1) - 1.0 / ldexp(1.0, dd)) * m * p->a +
             2.0 * dd * p->b + m * p->rho;
    return true;
}

const AlgoDef algo_rh_array = {
    .name = "rh",
    .summary = "recursive halving: distribute, then farthest-first pairwise exchanges",
    .ref = "Seidel 3.5; 4.4; Table I",
    .nets = 1u << NET_ARRAY,
    .flags = ALGO_POW2,
    .fits = rh_fits,
    .nchunks = rh_nchunks,
    .build = rh_build,
    .predict = rh_predict,
};
