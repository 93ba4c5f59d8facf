/* xor.c — Xor and 2-Step (the s-to-p paper, Section 2): s-to-p broadcasting by the library
 * operations, "in a brute-force way".
 *
 *   xor     the all-to-all personalized exchange as P-1 permutations (P = p rounded up to a
 *           power of two): in permutation j every source i sends its own message to node
 *           i XOR j (node ids, row-major; partners >= p are skipped).  Nothing is combined;
 *           a permutation in which no source sends is not a step.
 *   2-step  s-to-one: every source sends its message to node 0 in one step (node 0 receives
 *           them one after another: the bottleneck); then one-to-all: Br_Lin in snake order
 *           from node 0 with the combined message (the paper's Paragon one-to-all).  Which
 *           node gathers is garbled in our copy; node 0 is our decision.
 */
#include <stdio.h>
#include <stdlib.h>

#include "stop-internal.h"

static int64_t pow2_above(int32_t p)
{
    int64_t P = 1;
    while (P < p)
        P *= 2;
    return P;
}

static bool xor_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                     size_t errlen)
{
    int32_t ns;
    algo_sources(a, &ns);
    int64_t p = net_size(net), per = ((int64_t)ns * pow2_above((int32_t)p) + p - 1) / p;
    return stop_fits(d, net, false, per, err, errlen);
}

static bool build_xor(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    (void)d;
    (void)a;
    int32_t p = net_size(sched_net(s));
    size_t ng = sched_ngiven(s);
    int64_t P = pow2_above(p);
    char buf[64];
    for (int64_t j = 1; j < P; j++) {
        bool opened = false;
        for (size_t i = 0; i < ng; i++) {
            int32_t src;
            ChunkRange r;
            sched_given(s, i, &src, &r);
            int64_t dst = src ^ j;
            if (dst >= p)
                continue;
            if (!opened) {
                sched_step(s);
                snprintf(buf, sizeof buf, "Xor permutation %lld/%lld", (long long)j,
                         (long long)P - 1);
                if (!sched_label(s, buf))
                    return false;
                opened = true;
            }
            if (!sched_send_range(s, src, (int32_t)dst, r.lo, r.hi))
                return false;
        }
    }
    return true;
}

/* Br_Lin's levels and 2 more transfers per node (the gather) */
static const StopSize two_size = {2, false};

static bool build_two(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    (void)d;
    (void)a;
    StopRect q;
    if (!stop_grid(s, &q))
        return false;
    int32_t p = net_size(sched_net(s)), g = 0;
    StopHold *h = stop_hold_new(s);
    int32_t *seq = malloc(sizeof *seq * (size_t)p);
    bool ok = h && seq;
    int32_t t = 0;
    if (ok) {
        size_t ng = sched_ngiven(s);
        for (size_t i = 0; i < ng && ok; i++) {
            int32_t src;
            ChunkRange r;
            sched_given(s, i, &src, &r);
            if (src == g)
                continue;
            if (t == 0) {
                ok = sched_at(s, 0) && sched_label(s, "2-Step: s-to-one gather at node 0");
                t = 1;
            }
            ok = ok && sched_send_range(s, src, g, r.lo, r.hi);
        }
        for (size_t i = 0; i < ng; i++) {
            int32_t src;
            sched_given(s, i, &src, NULL);
            stop_hold_forget(h, src);
        }
        ok = ok && stop_hold_all(h, g);
        stop_snake(&q, seq);
        ok = ok && stop_brlin(h, s, t, seq, p, 1, "2-Step: one-to-all (Br_Lin)") >= 0;
    } else if (h) {
        sched_fail(s, "out of memory");
    }
    free(seq);
    stop_hold_free(h);
    return ok;
}

const AlgoDef algo_xor = {
    .name = "xor",
    .summary = "s-to-p: all-to-all personalized exchange over the XOR permutations",
    .ref = "s-to-p Sec. 2",
    .nets = (1u << NET_ARRAY) | (1u << NET_MESH),
    .flags = ALGO_STOP,
    .fits = xor_fits,
    .build = build_xor,
};

const AlgoDef algo_two_step = {
    .name = "2-step",
    .summary = "s-to-p: gather at node 0, then a one-to-all broadcast (Br_Lin)",
    .ref = "s-to-p Sec. 2",
    .nets = (1u << NET_ARRAY) | (1u << NET_MESH),
    .flags = ALGO_STOP,
    .fits = stop_fits_levels,
    .build = build_two,
    .ud = (void *)&two_size,
};
