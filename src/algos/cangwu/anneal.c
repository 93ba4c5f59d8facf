/* anneal.c — tcd-opt's search on nets too big for the exact programme, without the
 * contention-free constraint (cangwu.h; search.c keeps the older search for cf = 1).
 *
 * State, as in search.c: the step at which every node is informed (layer[v]; 2^(t-1) nodes in
 * layer t, the source in layer 0); for given layers the least TCD is the sum over steps t of
 * the min-cost assignment of X_(t-1) (rows) onto layer t (columns).  A move swaps the layers
 * of two nodes a, b (la < lb): step la's column a becomes b, steps la+1 .. lb-1's row a
 * becomes b, and step lb's row a becomes b and its column b becomes a.  Each step keeps its
 * optimal assignment with its dual potentials (the Hungarian method's u, v: u_i + v_j <=
 * d(i,j), equal on the matched pairs), so a changed row or column is re-solved exactly by
 * freeing it, making its potential feasible again and one augmenting path (O(m^2) for an
 * m x m step instead of O(m^3)).  Moves are accepted by simulated annealing (worse by delta
 * with probability exp(-delta/T), T falling geometrically), in rounds: every round starts from
 * one of the starts (the caller's, e.g. tcd's schedule under each symmetry of the net) or from
 * the best found so far, and the best layers ever seen are kept; the result is re-solved from
 * scratch.  Deterministic (xorshift, fixed seed).  Every 512 moves it reports progress and
 * stops with "cancelled" when asked (progress.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/progress.h"
#include "../algos-internal.h"
#include "cangwu.h"

#define INF64 (INT64_MAX / 4)
/* The temperature of every round falls from T0 to T1 (hotter loses the structure of the
 * start on 16x16: T0 = 1 ends above tcd; 0.15 .. 0.3 reach the same minima). */
#define ANNEAL_T0 0.3
#define ANNEAL_T1 0.02

typedef struct {
    int32_t *snd, *rcv;      /* node of row i (1..m), column j (1..m) */
    int64_t *u, *v;          /* potentials, 1-indexed (0 unused) */
    int *p;                  /* p[j] = row matched to column j (0: free) */
    int64_t cost;
    int m;
} Step;

typedef struct {
    int N, K;
    const int32_t *D;        /* N x N distances */
    int32_t *layer, *col;    /* col[v]: v's column in step layer[v] */
    int32_t **row;           /* row[t][v]: v's row in step t (t > layer[v]) */
    Step *st;                /* 1..K */
    /* scratch */
    int64_t *minv;
    int *way;
    unsigned char *used;
} An;

static int64_t dd(const An *A, int32_t x, int32_t y) { return A->D[(size_t)x * A->N + y]; }

/* One augmenting path from the free row i0 (e-maxx's Hungarian phase). */
static void augment(An *A, Step *S, int i0)
{
    int m = S->m;
    int64_t *minv = A->minv;
    int *way = A->way;
    unsigned char *used = A->used;
    for (int j = 0; j <= m; j++) {
        minv[j] = INF64;
        used[j] = 0;
    }
    S->p[0] = i0;
    int j0 = 0;
    do {
        used[j0] = 1;
        int i = S->p[j0], j1 = 0;
        int64_t delta = INF64;
        for (int j = 1; j <= m; j++)
            if (!used[j]) {
                int64_t cur = dd(A, S->snd[i], S->rcv[j]) - S->u[i] - S->v[j];
                if (cur < minv[j]) {
                    minv[j] = cur;
                    way[j] = j0;
                }
                if (minv[j] < delta) {
                    delta = minv[j];
                    j1 = j;
                }
            }
        for (int j = 0; j <= m; j++)
            if (used[j]) {
                S->u[S->p[j]] += delta;
                S->v[j] -= delta;
            } else {
                minv[j] -= delta;
            }
        j0 = j1;
    } while (S->p[j0] != 0);
    do {
        int j1 = way[j0];
        S->p[j0] = S->p[j1];
        j0 = j1;
    } while (j0);
    S->p[0] = 0;
}

static void step_cost(An *A, Step *S)
{
    S->cost = 0;
    for (int j = 1; j <= S->m; j++)
        S->cost += dd(A, S->snd[S->p[j]], S->rcv[j]);
}

/* Solve step S from scratch. */
static void solve(An *A, Step *S)
{
    for (int j = 0; j <= S->m; j++) {
        S->u[j] = S->v[j] = 0;
        S->p[j] = 0;
    }
    for (int i = 1; i <= S->m; i++)
        augment(A, S, i);
    step_cost(A, S);
}

static int matched_col(const Step *S, int i)
{
    for (int j = 1; j <= S->m; j++)
        if (S->p[j] == i)
            return j;
    return 0;
}

/* Row i's node becomes x and/or column j's becomes y (i or j 0: unchanged); re-solve. */
static void replace(An *A, Step *S, int i, int32_t x, int j, int32_t y)
{
    int fi = 0, fj = 0;
    if (i) {
        int c = matched_col(S, i);
        S->p[c] = 0;
        S->snd[i] = x;
        fi = i;
    }
    if (j) {
        int r = S->p[j];
        S->p[j] = 0;
        S->rcv[j] = y;
        if (r != i)
            fj = r;
        int64_t mn = INF64;
        for (int k = 1; k <= S->m; k++)
            if (k != i) {
                int64_t c = dd(A, S->snd[k], y) - S->u[k];
                if (c < mn)
                    mn = c;
            }
        S->v[j] = mn == INF64 ? 0 : mn;
    }
    if (i) {
        int64_t mn = INF64;
        for (int k = 1; k <= S->m; k++) {
            int64_t c = dd(A, x, S->rcv[k]) - S->v[k];
            if (c < mn)
                mn = c;
        }
        S->u[i] = mn;
    }
    if (fi)
        augment(A, S, fi);
    if (fj)
        augment(A, S, fj);
    step_cost(A, S);
}

static uint64_t rnd(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* Set the layers from a time-step optimal schedule and solve every step. */
static bool load(An *A, const Sched *start)
{
    int N = A->N, K = A->K;
    if (sched_nsteps(start) != K)
        return false;
    for (int v = 0; v < N; v++)
        A->layer[v] = -1;
    A->layer[sched_source(start)] = 0;
    for (int t = 1; t <= K; t++) {
        if (sched_ntransfers(start, t - 1) != (INT64_C(1) << (t - 1)))
            return false;
        for (int64_t i = 0; i < sched_ntransfers(start, t - 1); i++) {
            SchedTransfer tr;
            sched_transfer(start, t - 1, i, &tr);
            if (A->layer[tr.dst] >= 0 || A->layer[tr.src] < 0 || A->layer[tr.src] >= t)
                return false;
            A->layer[tr.dst] = t;
        }
    }
    return true;
}

/* Rebuild the steps' node lists and indices from layer[], and solve them all. */
static int64_t rebuild(An *A)
{
    int64_t tot = 0;
    for (int t = 1; t <= A->K; t++) {
        Step *S = &A->st[t];
        int r = 0, c = 0;
        for (int32_t v = 0; v < A->N; v++) {
            if (A->layer[v] < t) {
                S->snd[++r] = v;
                A->row[t][v] = r;
            } else if (A->layer[v] == t) {
                S->rcv[++c] = v;
                A->col[v] = c;
            }
        }
        solve(A, S);
        tot += S->cost;
    }
    return tot;
}

/* Swap the layers of a and b (layer[a] < layer[b], both > 0); returns the change in TCD. */
static int64_t swap(An *A, int32_t a, int32_t b)
{
    int la = A->layer[a], lb = A->layer[b];
    int64_t before = 0, after = 0;
    for (int t = la; t <= lb; t++)
        before += A->st[t].cost;
    int ca = A->col[a], cb = A->col[b];
    replace(A, &A->st[la], 0, 0, ca, b);
    for (int t = la + 1; t < lb; t++) {
        int r = A->row[t][a];
        replace(A, &A->st[t], r, b, 0, 0);
        A->row[t][b] = r;
    }
    int r = A->row[lb][a];
    replace(A, &A->st[lb], r, b, cb, a);
    A->row[lb][b] = r;
    A->col[b] = ca;
    A->col[a] = cb;
    A->layer[a] = lb;
    A->layer[b] = la;
    for (int t = la; t <= lb; t++)
        after += A->st[t].cost;
    return after - before;
}

/* Save / restore steps la..lb (potentials, matching, cost) into buf. */
static size_t save_steps(const An *A, int la, int lb, int64_t *buf)
{
    size_t k = 0;
    for (int t = la; t <= lb; t++) {
        const Step *S = &A->st[t];
        memcpy(buf + k, S->u, sizeof(int64_t) * ((size_t)S->m + 1));
        k += (size_t)S->m + 1;
        memcpy(buf + k, S->v, sizeof(int64_t) * ((size_t)S->m + 1));
        k += (size_t)S->m + 1;
        for (int j = 0; j <= S->m; j++)
            buf[k++] = S->p[j];
        buf[k++] = S->cost;
    }
    return k;
}

static void restore_steps(An *A, int la, int lb, const int64_t *buf)
{
    size_t k = 0;
    for (int t = la; t <= lb; t++) {
        Step *S = &A->st[t];
        memcpy(S->u, buf + k, sizeof(int64_t) * ((size_t)S->m + 1));
        k += (size_t)S->m + 1;
        memcpy(S->v, buf + k, sizeof(int64_t) * ((size_t)S->m + 1));
        k += (size_t)S->m + 1;
        for (int j = 0; j <= S->m; j++)
            S->p[j] = (int)buf[k++];
        S->cost = buf[k++];
    }
}

/* Undo swap(a, b) after the matching state was restored: the node lists and indices. */
static void unswap_nodes(An *A, int32_t a, int32_t b)
{
    /* now layer[a] = lb, layer[b] = la */
    int la = A->layer[b], lb = A->layer[a];
    int ca = A->col[b], cb = A->col[a];
    A->st[la].rcv[ca] = a;
    for (int t = la + 1; t <= lb; t++)
        A->st[t].snd[A->row[t][b]] = a, A->row[t][a] = A->row[t][b];
    A->st[lb].rcv[cb] = b;
    A->col[a] = ca;
    A->col[b] = cb;
    A->layer[a] = la;
    A->layer[b] = lb;
}

bool cangwu_anneal(Sched *const *starts, int nstarts, int64_t moves, Sched *s, int64_t *tcd)
{
    if (nstarts < 1)
        return false;
    const Net *net = sched_net(starts[0]);
    int N = net_size(net), K = algo_log2(N);
    if (N < 2 || (1 << K) != N) {
        sched_fail(s, "search: not 2^K nodes");
        return false;
    }
    An A = {.N = N, .K = K};
    int32_t *D = malloc(sizeof *D * (size_t)N * (size_t)N);
    A.layer = malloc(sizeof *A.layer * (size_t)N);
    A.col = malloc(sizeof *A.col * (size_t)N);
    A.row = calloc((size_t)K + 1, sizeof *A.row);
    A.st = calloc((size_t)K + 1, sizeof *A.st);
    A.minv = malloc(sizeof *A.minv * ((size_t)N + 1));
    A.way = malloc(sizeof *A.way * ((size_t)N + 1));
    A.used = malloc((size_t)N + 1);
    int32_t *best = malloc(sizeof *best * (size_t)N);
    int64_t *buf = malloc(sizeof *buf * (4 * ((size_t)N + 1) + 4 * (size_t)K));
    bool ok = D && A.layer && A.col && A.row && A.st && A.minv && A.way && A.used && best && buf;
    for (int t = 1; ok && t <= K; t++) {
        Step *S = &A.st[t];
        S->m = 1 << (t - 1);
        size_t m1 = (size_t)S->m + 1;
        A.row[t] = malloc(sizeof(int32_t) * (size_t)N);
        S->snd = malloc(sizeof(int32_t) * m1);
        S->rcv = malloc(sizeof(int32_t) * m1);
        S->u = malloc(sizeof(int64_t) * m1);
        S->v = malloc(sizeof(int64_t) * m1);
        S->p = malloc(sizeof(int) * m1);
        ok = A.row[t] && S->snd && S->rcv && S->u && S->v && S->p;
    }
    if (!ok) {
        sched_fail(s, "out of memory");
        goto done;
    }
    for (int32_t x = 0; x < N; x++)
        for (int32_t y = 0; y < N; y++)
            D[(size_t)x * N + y] = net_distance(net, x, y);
    A.D = D;
    int64_t bestc = -1;
    for (int i = 0; i < nstarts; i++) {
        if (!load(&A, starts[i]) || sched_source(starts[i]) != sched_source(starts[0])) {
            sched_fail(s, "search: a start is not a time-step optimal broadcast");
            ok = false;
            goto done;
        }
        int64_t c = rebuild(&A);
        if (bestc < 0 || c < bestc) {
            bestc = c;
            memcpy(best, A.layer, sizeof *best * (size_t)N);
        }
    }
    /* three rounds: from the first start, from the last (tcd from another image of the
     * source: the other habit of row and column), then from the best so far */
    int rounds = 3, first = nstarts < 2 ? nstarts : 2;
    int64_t per = moves / rounds;
    uint64_t seed = UINT64_C(0x9e3779b97f4a7c15);
    int nd = net_ndim(net);
    long long done = 0;
    for (int rd = 0; rd < rounds && per > 0 && ok; rd++) {
        if (rd < first)
            load(&A, starts[rd * (nstarts - 1)]);
        else
            memcpy(A.layer, best, sizeof *best * (size_t)N);
        int64_t cur = rebuild(&A);
        double T = ANNEAL_T0, fall = pow(ANNEAL_T1 / ANNEAL_T0, 1.0 / (double)per);
        for (int64_t mv = 0; mv < per; mv++, T *= fall) {
            if ((++done & 511) == 0) {
                if (progress_cancelled()) {
                    sched_fail(s, "cancelled");
                    ok = false;
                    break;
                }
                progress_report(PROGRESS_BUILD, done, moves);
            }
            int32_t a = (int32_t)(rnd(&seed) % (uint64_t)N), b = a;
            if (rnd(&seed) % 4) {
                int hops = 1 + (int)(rnd(&seed) % 3);
                for (int h = 0; h < hops; h++) {
                    int32_t nb = net_neighbor(net, b, (int)(rnd(&seed) % (uint64_t)nd),
                                              (rnd(&seed) & 1) ? 1 : -1);
                    if (nb >= 0)
                        b = nb;
                }
            } else {
                b = (int32_t)(rnd(&seed) % (uint64_t)N);
            }
            if (A.layer[a] == A.layer[b] || A.layer[a] == 0 || A.layer[b] == 0)
                continue;
            if (A.layer[a] > A.layer[b]) {
                int32_t x = a;
                a = b;
                b = x;
            }
            int la = A.layer[a], lb = A.layer[b];
            save_steps(&A, la, lb, buf);
            int64_t delta = swap(&A, a, b);
            bool take = delta <= 0 ||
                        (double)(rnd(&seed) >> 11) * 0x1.0p-53 < exp(-(double)delta / T);
            if (!take) {
                restore_steps(&A, la, lb, buf);
                unswap_nodes(&A, a, b);
                continue;
            }
            cur += delta;
#ifdef ANNEAL_CHECK
            {
                int32_t *keep = malloc(sizeof *keep * (size_t)N);
                memcpy(keep, A.layer, sizeof *keep * (size_t)N);
                int64_t want = 0;
                for (int t = 1; t <= K; t++)
                    want += A.st[t].cost;
                int64_t inc = want;
                Step *S = &A.st[lb];
                for (int j = 1; j <= S->m; j++)
                    for (int i = 1; i <= S->m; i++)
                        if (dd(&A, S->snd[i], S->rcv[j]) < S->u[i] + S->v[j])
                            fprintf(stderr, "infeasible\n");
                want = rebuild(&A);
                if (want != cur || inc != cur)
                    fprintf(stderr, "mismatch: cur %lld inc %lld exact %lld\n", (long long)cur,
                            (long long)inc, (long long)want);
                free(keep);
            }
#endif
            if (cur < bestc) {
                bestc = cur;
                memcpy(best, A.layer, sizeof *best * (size_t)N);
            }
        }
    }
    progress_report(PROGRESS_BUILD, 0, -1);   /* back to counting transfers */
    if (!ok)
        goto done;
    memcpy(A.layer, best, sizeof *best * (size_t)N);
    *tcd = rebuild(&A);
    for (int t = 1; ok && t <= K; t++) {
        char label[64];
        Step *S = &A.st[t];
        snprintf(label, sizeof label, "step %d: %d new nodes", t, S->m);
        ok = sched_at(s, t - 1) && sched_label(s, label);
        for (int j = 1; ok && j <= S->m; j++)
            ok = sched_send_range(s, S->snd[S->p[j]], S->rcv[j], 0, 1);
    }
done:
    for (int t = 1; A.st && t <= K; t++) {
        free(A.row ? A.row[t] : NULL);
        free(A.st[t].snd);
        free(A.st[t].rcv);
        free(A.st[t].u);
        free(A.st[t].v);
        free(A.st[t].p);
    }
    free(A.row);
    free(A.st);
    free(D);
    free(A.layer);
    free(A.col);
    free(A.minv);
    free(A.way);
    free(A.used);
    free(best);
    free(buf);
    return ok && !sched_error(s);
}
