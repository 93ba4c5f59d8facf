/* opt.c — the least TCD over all time-step optimal broadcasts (cangwu.h, "tcd-opt"): the exact
 * dynamic programme with its re-checkable proof (N <= 16 nodes), and the local search over
 * informed sets for larger nets. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algos-internal.h"
#include "cangwu.h"

#define EXACT_MAXN 16
#define UNSET (-2)
#define NONE (-1)          /* no broadcast completes from this set (only under cf) */

typedef struct {
    uint64_t w[2];
} Links;

static bool links_meet(Links a, Links b) { return (a.w[0] & b.w[0]) | (a.w[1] & b.w[1]); }
static Links links_or(Links a, Links b)
{
    Links r = {{a.w[0] | b.w[0], a.w[1] | b.w[1]}};
    return r;
}

struct CangwuExact {
    const Net *net;
    int N, K;
    bool cf;
    int32_t dist[EXACT_MAXN][EXACT_MAXN];
    Links links[EXACT_MAXN][EXACT_MAXN];
    int64_t *V;      /* 2^N entries; only sets whose size is a power of two are used */
    int64_t *dual;   /* 2^N * N: the last step's potentials (u on the set, v off it) */
    int64_t states;
};

static int popcount(uint32_t x) { return __builtin_popcount(x); }

/* ---- the Hungarian method (min-cost assignment, n x n, row i -> column p) --------------- */

/* a is n*n (row-major); returns the cost; row_of[j] = the row matched to column j; u (n), v
 * (n) dual potentials with u[i] + v[j] <= a[i][j] and sum u + sum v = cost.  work: 4(n+1)
 * int64 and 2(n+1) ints of scratch.  */
static int64_t hungarian(int n, const int32_t *a, int *row_of, int64_t *u_out, int64_t *v_out,
                         int64_t *w64, int *wint)
{
    int64_t *u = w64, *v = w64 + (n + 1), *minv = w64 + 2 * (n + 1);
    /* w64 holds 4(n+1): u, v, minv and one spare */
    int *p = wint, *way = wint + (n + 1);
    char used[EXACT_MAXN * 16 + 1];   /* n <= 256 */
    const int64_t INF = INT64_MAX / 4;
    for (int i = 0; i <= n; i++)
        u[i] = v[i] = 0, p[i] = way[i] = 0;
    for (int i = 1; i <= n; i++) {
        p[0] = i;
        int j0 = 0;
        for (int j = 0; j <= n; j++)
            minv[j] = INF, used[j] = 0;
        do {
            used[j0] = 1;
            int i0 = p[j0], j1 = 0;
            int64_t delta = INF;
            for (int j = 1; j <= n; j++)
                if (!used[j]) {
                    int64_t cur = a[(i0 - 1) * n + (j - 1)] - u[i0] - v[j];
                    if (cur < minv[j])
                        minv[j] = cur, way[j] = j0;
                    if (minv[j] < delta)
                        delta = minv[j], j1 = j;
                }
            for (int j = 0; j <= n; j++)
                if (used[j])
                    u[p[j]] += delta, v[j] -= delta;
                else
                    minv[j] -= delta;
            j0 = j1;
        } while (p[j0] != 0);
        do {
            int j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
        } while (j0);
    }
    int64_t cost = 0;
    for (int j = 1; j <= n; j++) {
        row_of[j - 1] = p[j] - 1;
        cost += a[(p[j] - 1) * n + (j - 1)];
    }
    for (int i = 0; i < n; i++) {
        if (u_out)
            u_out[i] = u[i + 1];
        if (v_out)
            v_out[i] = v[i + 1];
    }
    return cost;
}

int64_t cangwu_hungarian(int n, const int32_t *a, int *row_of, int64_t *w64, int *wint)
{
    return hungarian(n, a, row_of, NULL, NULL, w64, wint);
}

/* ---- the least bijection senders -> receivers by branch and bound (m <= 16) -------------- */

typedef struct {
    const CangwuExact *x;
    const int *snd, *rcv;
    int m;
    int64_t best;
    int cur[EXACT_MAXN], bestp[EXACT_MAXN];
    bool used[EXACT_MAXN];
    int64_t rest[EXACT_MAXN + 1];   /* sum of the row minima of senders i.. */
} Match;

static void match_dfs(Match *M, int i, int64_t cost, Links lk)
{
    if (i == M->m) {
        if (M->best < 0 || cost < M->best) {
            M->best = cost;
            memcpy(M->bestp, M->cur, sizeof M->cur);
        }
        return;
    }
    for (int j = 0; j < M->m; j++) {
        if (M->used[j])
            continue;
        int64_t c = cost + M->x->dist[M->snd[i]][M->rcv[j]];
        if (M->best >= 0 && c + M->rest[i + 1] >= M->best)
            continue;
        Links l = M->x->links[M->snd[i]][M->rcv[j]];
        if (M->x->cf && links_meet(l, lk))
            continue;
        M->used[j] = true;
        M->cur[i] = j;
        match_dfs(M, i + 1, c, links_or(lk, l));
        M->used[j] = false;
    }
}

/* The least cost of a bijection (contention-free if x->cf), or -1; perm[i] = receiver index
 * of sender i. */
static int64_t best_match(const CangwuExact *x, const int *snd, const int *rcv, int m, int *perm)
{
    Match M = {.x = x, .snd = snd, .rcv = rcv, .m = m, .best = -1};
    M.rest[m] = 0;
    for (int i = m - 1; i >= 0; i--) {
        int32_t mn = INT32_MAX;
        for (int j = 0; j < m; j++)
            if (x->dist[snd[i]][rcv[j]] < mn)
                mn = x->dist[snd[i]][rcv[j]];
        M.rest[i] = M.rest[i + 1] + mn;
    }
    Links none = {{0, 0}};
    match_dfs(&M, 0, 0, none);
    if (M.best >= 0 && perm)
        memcpy(perm, M.bestp, sizeof(int) * (size_t)m);
    return M.best;
}

static int bits_of(uint32_t mask, int N, int *out)
{
    int n = 0;
    for (int i = 0; i < N; i++)
        if (mask >> i & 1)
            out[n++] = i;
    return n;
}

/* The last step from set X (|X| = N/2): Hungarian (its duals kept), or under cf branch and
 * bound.  perm as in best_match (sender index -> receiver index). */
static int64_t last_step(CangwuExact *x, uint32_t X, int *perm, bool keep_dual)
{
    int snd[EXACT_MAXN], rcv[EXACT_MAXN];
    int m = bits_of(X, x->N, snd);
    bits_of(~X & ((1u << x->N) - 1), x->N, rcv);
    int32_t a[EXACT_MAXN * EXACT_MAXN] = {0};
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++)
            a[i * m + j] = x->dist[snd[i]][rcv[j]];
    int row_of[EXACT_MAXN];
    int64_t u[EXACT_MAXN], v[EXACT_MAXN], w64[4 * (EXACT_MAXN + 1)];
    int wint[2 * (EXACT_MAXN + 1)];
    int64_t c = hungarian(m, a, row_of, u, v, w64, wint);
    if (keep_dual) {
        for (int i = 0; i < m; i++)
            x->dual[(size_t)X * (size_t)x->N + (size_t)snd[i]] = u[i];
        for (int j = 0; j < m; j++)
            x->dual[(size_t)X * (size_t)x->N + (size_t)rcv[j]] = v[j];
    }
    if (!x->cf) {
        if (perm)
            for (int j = 0; j < m; j++)
                perm[row_of[j]] = j;
        return c;
    }
    return best_match(x, snd, rcv, m, perm);
}

/* Walk the subsets T of the complement of X with |T| = |X| (combinations of its bits). */
typedef bool (*StepFn)(CangwuExact *x, uint32_t X, const int *snd, const int *rcv, int m,
                       void *ctx);
static bool each_T(CangwuExact *x, uint32_t X, StepFn fn, void *ctx)
{
    int snd[EXACT_MAXN], free_[EXACT_MAXN], idx[EXACT_MAXN], rcv[EXACT_MAXN];
    int m = bits_of(X, x->N, snd);
    int nf = bits_of(~X & ((1u << x->N) - 1), x->N, free_);
    for (int i = 0; i < m; i++)
        idx[i] = i;
    for (;;) {
        for (int i = 0; i < m; i++)
            rcv[i] = free_[idx[i]];
        if (!fn(x, X, snd, rcv, m, ctx))
            return false;
        int i = m - 1;
        while (i >= 0 && idx[i] == nf - m + i)
            i--;
        if (i < 0)
            return true;
        idx[i]++;
        for (int j = i + 1; j < m; j++)
            idx[j] = idx[j - 1] + 1;
    }
}

static uint32_t mask_of(const int *v, int m)
{
    uint32_t r = 0;
    for (int i = 0; i < m; i++)
        r |= 1u << v[i];
    return r;
}

static bool dp_step(CangwuExact *x, uint32_t X, const int *snd, const int *rcv, int m, void *ctx)
{
    int64_t *best = ctx;
    int64_t next = x->V[X | mask_of(rcv, m)];
    if (next < 0)
        return true;
    int64_t c = best_match(x, snd, rcv, m, NULL);
    if (c >= 0 && (*best < 0 || c + next < *best))
        *best = c + next;
    return true;
}

CangwuExact *cangwu_exact_new(const Net *net, bool cf, char *err, size_t errlen)
{
    int N = net_size(net), K = algo_log2(N);
    if (K < 0 || N > EXACT_MAXN || net_nlinks(net) > 128) {
        snprintf(err, errlen, "the exact search needs 2^K <= %d nodes (%s has %ld)", EXACT_MAXN,
                 net_spec(net), (long)N);
        return NULL;
    }
    CangwuExact *x = calloc(1, sizeof *x);
    if (!x)
        goto oom;
    x->net = net;
    x->N = N;
    x->K = K;
    x->cf = cf;
    x->V = malloc(sizeof *x->V * ((size_t)1 << N));
    x->dual = calloc((size_t)N << N, sizeof *x->dual);
    if (!x->V || !x->dual)
        goto oom;
    for (int a = 0; a < N; a++)
        for (int b = 0; b < N; b++) {
            NetSeg seg[NET_MAXSEG];
            int ns = net_route(net, a, b, seg);
            Links l = {{0, 0}};
            int32_t node = a;
            for (int q = 0; q < ns; q++)
                for (int h = 0; h < seg[q].len; h++) {
                    int64_t id = net_link(net, node, seg[q].dim, seg[q].dir);
                    l.w[id >> 6] |= UINT64_C(1) << (id & 63);
                    node = net_neighbor(net, node, seg[q].dim, seg[q].dir);
                }
            x->links[a][b] = l;
            x->dist[a][b] = (int32_t)net_route_len(seg, ns);
        }
    uint32_t all = (N == 32) ? UINT32_MAX : (1u << N) - 1;
    for (uint32_t X = 0; X <= all; X++)
        x->V[X] = UNSET;
    x->V[all] = 0;
    for (int p = N / 2; p >= 1; p /= 2)
        for (uint32_t X = 1; X < all; X++) {
            if (popcount(X) != p)
                continue;
            x->states++;
            if (p == N / 2) {
                x->V[X] = last_step(x, X, NULL, true);
            } else {
                int64_t best = -1;
                each_T(x, X, dp_step, &best);
                x->V[X] = best;
            }
        }
    return x;
oom:
    snprintf(err, errlen, "out of memory");
    cangwu_exact_free(x);
    return NULL;
}

void cangwu_exact_free(CangwuExact *x)
{
    if (!x)
        return;
    free(x->V);
    free(x->dual);
    free(x);
}

int64_t cangwu_exact_value(const CangwuExact *x, int32_t source)
{
    return source >= 0 && source < x->N ? x->V[1u << source] : NONE;
}

int64_t cangwu_exact_states(const CangwuExact *x) { return x->states; }

/* ---- the proof checker: other code than the search (plain permutations, the duals) ------- */

typedef struct {
    int64_t checked;
    char *why;
    size_t len;
} Check;

/* Every bijection of snd onto rcv (Heap's algorithm over rcv), contention-free ones under cf:
 * cost + V[X + T] >= V[X]. */
static bool check_step(CangwuExact *x, uint32_t X, const int *snd, const int *rcv, int m,
                       void *ctx)
{
    Check *ck = ctx;
    int64_t next = x->V[X | mask_of(rcv, m)];
    if (next < 0)
        return true;   /* nothing completes through this step (checked at X + T itself) */
    int r[EXACT_MAXN], c[EXACT_MAXN] = {0};
    memcpy(r, rcv, sizeof(int) * (size_t)m);
    int i = 0;
    for (bool first = true;; first = false) {
        if (!first) {
            while (i < m && c[i] >= i)
                c[i++] = 0;
            if (i >= m)
                return true;
            int s = (i & 1) ? c[i] : 0, t = r[s];
            r[s] = r[i];
            r[i] = t;
            c[i]++;
            i = 0;
        }
        int64_t cost = 0;
        Links lk = {{0, 0}};
        bool clash = false;
        for (int q = 0; q < m; q++) {
            cost += x->dist[snd[q]][r[q]];
            if (x->cf) {
                clash = clash || links_meet(lk, x->links[snd[q]][r[q]]);
                lk = links_or(lk, x->links[snd[q]][r[q]]);
            }
        }
        if (clash)
            continue;
        ck->checked++;
        if (x->V[X] < 0 || cost + next < x->V[X]) {
            snprintf(ck->why, ck->len, "set %#x: a step of cost %lld then %lld beats its bound "
                     "%lld", (unsigned)X, (long long)cost, (long long)next, (long long)x->V[X]);
            return false;
        }
    }
}

bool cangwu_exact_check(const CangwuExact *x_, int64_t *checked, char *why, size_t len)
{
    CangwuExact *x = (CangwuExact *)x_;
    Check ck = {.why = why, .len = len};
    int N = x->N;
    uint32_t all = (1u << N) - 1;
    bool ok = x->V[all] == 0;
    if (!ok)
        snprintf(why, len, "the full set's value is not 0");
    for (uint32_t X = 1; ok && X < all; X++) {
        int p = popcount(X);
        if (p & (p - 1))
            continue;
        bool proved = false;
        if (p == N / 2) {
            /* the duals: u_i + v_j <= d(i,j) on every pair, and they sum to V (under cf they
             * bound the unconstrained step, so they prove V when V equals their sum) */
            const int64_t *y = x->dual + (size_t)X * (size_t)N;
            int64_t sum = 0;
            bool feasible = true;
            for (int i = 0; i < N; i++)
                sum += y[i];
            for (int i = 0; feasible && i < N; i++)
                for (int j = 0; feasible && j < N; j++)
                    if ((X >> i & 1) && !(X >> j & 1)) {
                        ck.checked++;
                        feasible = y[i] + y[j] <= x->dist[i][j];
                    }
            proved = feasible && sum == x->V[X];
            if (!proved && !x->cf) {
                snprintf(why, len, "set %#x: the last step's duals do not prove %lld",
                         (unsigned)X, (long long)x->V[X]);
                ok = false;
            }
        }
        if (ok && !proved)
            ok = each_T(x, X, check_step, &ck);
    }
    if (checked)
        *checked = ck.checked;
    return ok;
}

/* ---- the optimal schedule ---------------------------------------------------------------- */

typedef struct {
    uint32_t next;
    int snd[EXACT_MAXN], rcv[EXACT_MAXN], perm[EXACT_MAXN], m;
    bool found;
} Pick;

static bool pick_step(CangwuExact *x, uint32_t X, const int *snd, const int *rcv, int m,
                      void *ctx)
{
    Pick *pk = ctx;
    uint32_t nx = X | mask_of(rcv, m);
    if (x->V[nx] < 0)
        return true;
    int perm[EXACT_MAXN];
    int64_t c = best_match(x, snd, rcv, m, perm);
    if (c >= 0 && c + x->V[nx] == x->V[X]) {
        pk->next = nx;
        pk->m = m;
        memcpy(pk->snd, snd, sizeof(int) * (size_t)m);
        memcpy(pk->rcv, rcv, sizeof(int) * (size_t)m);
        memcpy(pk->perm, perm, sizeof(int) * (size_t)m);
        pk->found = true;
        return false;
    }
    return true;
}

bool cangwu_exact_sched(const CangwuExact *x_, int32_t source, Sched *s)
{
    CangwuExact *x = (CangwuExact *)x_;
    uint32_t X = 1u << source;
    if (x->V[X] < 0) {
        sched_fail(s, "no contention-free time-step optimal broadcast from node %ld",
                   (long)source);
        return false;
    }
    for (int t = 0; t < x->K; t++) {
        Pick pk = {.found = false};
        each_T(x, X, pick_step, &pk);
        if (!pk.found) {
            sched_fail(s, "exact search: no step attains the bound (a bug)");
            return false;
        }
        char label[64];
        snprintf(label, sizeof label, "step %d: %d new nodes", t + 1, pk.m);
        if (!sched_at(s, t) || !sched_label(s, label))
            return false;
        for (int i = 0; i < pk.m; i++)
            if (!sched_send_range(s, pk.snd[i], pk.rcv[pk.perm[i]], 0, 1))
                return false;
        X = pk.next;
    }
    return true;
}
