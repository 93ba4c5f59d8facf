/* search.c — tcd-opt's best-effort search for nets too big for the exact programme
 * (cangwu.h): local search over the chain of informed sets, every step an optimal assignment.
 *
 * State: the step at which every node is informed (layer[v] = t: informed by step t; the
 * source 0), 2^(t-1) nodes per layer t.  Given the layers, the least TCD is the sum over steps
 * of the min-cost assignment of the informed nodes X_(t-1) to the new ones (Hungarian).  A move
 * swaps the layers of two nodes (the second drawn near the first) and re-solves the steps it
 * touches; it is kept when the total does not grow (plateaus are walked).  Under cf a step
 * whose optimal assignment is not contention-free counts as infeasible, except the start's
 * own step (kept as it was).  xorshift with a fixed seed: the same moves give the same result.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/progress.h"
#include "../algos-internal.h"
#include "cangwu.h"


typedef struct {
    const Net *net;
    int N, K;
    bool cf;
    int32_t *layer;      /* N */
    int64_t *cost;       /* K+1: cost of step t */
    int32_t **pairs;     /* K+1: 2 * 2^(t-1) ints (src, dst) of step t */
    /* scratch */
    int32_t *a, *snd, *rcv, *tmp_pairs;
    int *row_of, *wint;
    int64_t *w64;
    int32_t *stamp;      /* per directed link: the last check that used it */
    int32_t stamp_now;
} Search;

static bool step_cf(Search *S, const int32_t *pairs, int m)
{
    S->stamp_now++;
    for (int i = 0; i < m; i++) {
        NetSeg seg[NET_MAXSEG];
        int32_t node = pairs[2 * i];
        int ns = net_route(S->net, node, pairs[2 * i + 1], seg);
        for (int q = 0; q < ns; q++)
            for (int h = 0; h < seg[q].len; h++) {
                int64_t id = net_link(S->net, node, seg[q].dim, seg[q].dir);
                if (S->stamp[id] == S->stamp_now)
                    return false;
                S->stamp[id] = S->stamp_now;
                node = net_neighbor(S->net, node, seg[q].dim, seg[q].dir);
            }
    }
    return true;
}

/* Solve step t for the current layers into tmp_pairs; its cost, or -1 if infeasible (cf). */
static int64_t solve_step(Search *S, int t)
{
    int m = 0, r = 0;
    for (int v = 0; v < S->N; v++) {
        if (S->layer[v] < t)
            S->snd[m++] = v;
        else if (S->layer[v] == t)
            S->rcv[r++] = v;
    }
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++)
            S->a[i * m + j] = net_distance(S->net, S->snd[i], S->rcv[j]);
    int64_t c = cangwu_hungarian(m, S->a, S->row_of, S->w64, S->wint);
    for (int j = 0; j < m; j++) {
        S->tmp_pairs[2 * j] = S->snd[S->row_of[j]];
        S->tmp_pairs[2 * j + 1] = S->rcv[j];
    }
    if (S->cf && !step_cf(S, S->tmp_pairs, m))
        return -1;
    return c;
}

static uint64_t rnd(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

bool cangwu_search_sched(const Sched *start, bool cf, int64_t moves, Sched *s, int64_t *tcd)
{
    const Net *net = sched_net(start);
    Search S = {.net = net, .N = net_size(net), .K = sched_nsteps(start), .cf = cf};
    int N = S.N, K = S.K;
    if (algo_log2(N) != K || N < 2) {
        sched_fail(s, "search: the start is not a time-step optimal broadcast");
        return false;
    }
    int half = N / 2;
    S.layer = malloc(sizeof *S.layer * (size_t)N);
    S.cost = calloc((size_t)K + 1, sizeof *S.cost);
    S.pairs = calloc((size_t)K + 1, sizeof *S.pairs);
    S.a = malloc(sizeof *S.a * (size_t)half * (size_t)half);
    S.snd = malloc(sizeof *S.snd * (size_t)N);
    S.rcv = malloc(sizeof *S.rcv * (size_t)N);
    S.tmp_pairs = malloc(sizeof *S.tmp_pairs * 2 * (size_t)N);
    S.row_of = malloc(sizeof *S.row_of * (size_t)N);
    S.wint = malloc(sizeof *S.wint * 2 * ((size_t)half + 1));
    S.w64 = malloc(sizeof *S.w64 * 4 * ((size_t)half + 1));
    S.stamp = calloc((size_t)net_nlinks(net), sizeof *S.stamp);
    int32_t *save_pairs = malloc(sizeof *save_pairs * 2 * (size_t)N * ((size_t)K + 1));
    int64_t *save_cost = malloc(sizeof *save_cost * ((size_t)K + 1));
    bool ok = S.layer && S.cost && S.pairs && S.a && S.snd && S.rcv && S.tmp_pairs && S.row_of &&
              S.wint && S.w64 && S.stamp && save_pairs && save_cost && half <= 256;
    for (int t = 1; ok && t <= K; t++)
        ok = (S.pairs[t] = malloc(sizeof(int32_t) * 2 * ((size_t)1 << (t - 1)))) != NULL;
    if (!ok) {
        sched_fail(s, "out of memory");
        goto done;
    }
    /* the start's layers and steps */
    for (int v = 0; v < N; v++)
        S.layer[v] = -1;
    S.layer[sched_source(start)] = 0;
    for (int t = 1; ok && t <= K; t++) {
        int64_t nt = sched_ntransfers(start, t - 1);
        if (nt != (INT64_C(1) << (t - 1))) {
            ok = false;
            break;
        }
        S.cost[t] = 0;
        for (int64_t i = 0; i < nt; i++) {
            SchedTransfer tr;
            sched_transfer(start, t - 1, i, &tr);
            if (S.layer[tr.dst] >= 0) {
                ok = false;
                break;
            }
            S.layer[tr.dst] = t;
            S.pairs[t][2 * i] = tr.src;
            S.pairs[t][2 * i + 1] = tr.dst;
            S.cost[t] += tr.len;
        }
    }
    if (!ok) {
        sched_fail(s, "search: the start is not a time-step optimal broadcast");
        goto done;
    }
    for (int t = 1; t <= K; t++) {
        int64_t c = solve_step(&S, t);
        if (c >= 0 && c <= S.cost[t]) {
            S.cost[t] = c;
            memcpy(S.pairs[t], S.tmp_pairs, sizeof(int32_t) * 2 * ((size_t)1 << (t - 1)));
        }
    }
    uint64_t seed = UINT64_C(0x9e3779b97f4a7c15);
    int32_t dims[NET_MAXDIM];
    int nd = net_ndim(net);
    for (int i = 0; i < nd; i++)
        dims[i] = net_dim(net, i);
    for (int64_t mv = 0; mv < moves; mv++) {
        if ((mv & 63) == 63) {
            if (progress_cancelled()) {
                sched_fail(s, "cancelled");
                ok = false;
                goto done;
            }
            progress_report(PROGRESS_BUILD, mv, moves);
        }
        int32_t a = (int32_t)(rnd(&seed) % (uint64_t)N);
        /* b near a: a few hops along random dimensions */
        int32_t b = a;
        int hops = 1 + (int)(rnd(&seed) % 3);
        for (int h = 0; h < hops; h++) {
            int dim = (int)(rnd(&seed) % (uint64_t)nd);
            int32_t nb = net_neighbor(net, b, dim, (rnd(&seed) & 1) ? 1 : -1);
            if (nb >= 0)
                b = nb;
        }
        (void)dims;
        int la = S.layer[a], lb = S.layer[b];
        if (la == lb || la == 0 || lb == 0)
            continue;
        int lo = la < lb ? la : lb, hi = la < lb ? lb : la;
        int64_t before = 0, after = 0;
        for (int t = lo; t <= hi; t++) {
            before += S.cost[t];
            save_cost[t] = S.cost[t];
            memcpy(save_pairs + (size_t)t * 2 * (size_t)N, S.pairs[t],
                   sizeof(int32_t) * 2 * ((size_t)1 << (t - 1)));
        }
        S.layer[a] = lb;
        S.layer[b] = la;
        bool feasible = true;
        for (int t = lo; t <= hi && feasible; t++) {
            int64_t c = solve_step(&S, t);
            if (c < 0) {
                feasible = false;
                break;
            }
            S.cost[t] = c;
            after += c;
            memcpy(S.pairs[t], S.tmp_pairs, sizeof(int32_t) * 2 * ((size_t)1 << (t - 1)));
        }
        if (!feasible || after > before) {
            S.layer[a] = la;
            S.layer[b] = lb;
            for (int t = lo; t <= hi; t++) {
                S.cost[t] = save_cost[t];
                memcpy(S.pairs[t], save_pairs + (size_t)t * 2 * (size_t)N,
                       sizeof(int32_t) * 2 * ((size_t)1 << (t - 1)));
            }
        }
    }
    progress_report(PROGRESS_BUILD, 0, -1);   /* back to counting transfers */
    *tcd = 0;
    for (int t = 1; ok && t <= K; t++) {
        char label[64];
        snprintf(label, sizeof label, "step %d: %ld new nodes", t, (long)1 << (t - 1));
        ok = sched_at(s, t - 1) && sched_label(s, label);
        for (int64_t i = 0; ok && i < (INT64_C(1) << (t - 1)); i++)
            ok = sched_send_range(s, S.pairs[t][2 * i], S.pairs[t][2 * i + 1], 0, 1);
        *tcd += S.cost[t];
    }
done:
    for (int t = 1; S.pairs && t <= K; t++)
        free(S.pairs[t]);
    free(S.pairs);
    free(S.layer);
    free(S.cost);
    free(S.a);
    free(S.snd);
    free(S.rcv);
    free(S.tmp_pairs);
    free(S.row_of);
    free(S.wint);
    free(S.w64);
    free(S.stamp);
    free(save_pairs);
    free(save_cost);
    return ok && !sched_error(s);
}
