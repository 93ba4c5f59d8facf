/* test_fdirect.c — the direct simplex fractional tree (fractional-direct, fdirect.c, run by the
 * rendezvous executor, rendezvous.c).  For every P in 2..300 (in the release-built run; under
 * the sanitizers every P to 40 and a sample of its classes above: full.h) and r in 1..8 from
 * node 0: the
 * schedule is verified and valid under simplex ports (so no PU sends and receives in a step,
 * nobody sends what it does not hold), never deadlocks, never takes longer than the periodic
 * model's bound, and takes exactly the closed form where one is offered (r divides s, s >= 2r;
 * the small nets); a run costs exactly 2r+1 steps once P >= 4 (P >= 6 for r = 1) — the paper's
 * claim — unless r >= P - 1, where the tree is the simplex chain (P + 2s - 3 steps); r = 1 is
 * bintree-direct's d + 3s - 2; with many packets it is 2 - 1/(r+1) times the duplex fractional
 * tree and faster than the two-substep emulation.  A malformed program (a
 * deadlock) fails with its step and PU named.  Random programs run by the executor and by a
 * reference written here: the same steps and transfers, in order, and the same deadlocks. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/algos/algos-internal.h"
#include "../../src/algos/sanders/rendezvous.h"
#include "../../src/engine/sim.h"
#include "full.h"
#include "mknet.h"
#include "sanders-args.h"

/* Steps of `name` with r, s on net, checked verified and valid under simplex ports. */
static int64_t steps_of(const char *name, const Net *net, int r, int s, int32_t src)
{
    char err[256];
    const AlgoDef *d = algo_find(name, net);
    assert_non_null(d);
    AlgoArgs a;
    sanders_args_rs(&a, d, r, s);
    a.source = src;
    a.bytes = (uint64_t)s * 16;
    Sched *sc = algo_build(d, net, &a, err, sizeof err);
    if (!sc)
        fail_msg("%s on %s r=%d s=%d: %s", name, net_spec(net), r, s, err);
    CostParams p;
    cost_defaults(&p, COST_POSTAL);
    p.duplex = strcmp(name, "fractional") == 0;
    Sim *sim = sim_run(sc, &p, 0, err, sizeof err);
    assert_non_null(sim);
    const SimTotals *t = sim_totals(sim);
    if (!t->verified || !t->valid)
        fail_msg("%s on %s r=%d s=%d: verified %d valid %d", name, net_spec(net), r, s,
                 t->verified, t->valid);
    int64_t n = sched_nsteps(sc);
    double pred;
    if (algo_predict(d, net, &a, &p, &pred) && fabs(t->cost.total - pred) > 1e-9 * pred)
        fail_msg("%s on %s r=%d s=%d: simulated %.9g, predicted %.9g", name, net_spec(net), r,
                 s, t->cost.total, pred);
    if (strcmp(name, "fractional-direct") == 0 &&
        algo_predict(d, net, &a, &p, &pred) != (sanders_fdirect_steps(net_size(net), r, s) >= 0))
        fail_msg("%s on %s r=%d s=%d: a prediction iff a closed form", name, net_spec(net), r, s);
    sim_free(sim);
    sched_free(sc);
    return n;
}

/* The sweep's P under the sanitizers (full.h): every P to 40 (the chain's r >= P - 1, the
 * thresholds P >= 4 and 6, odd and even, powers of two and not), then both sides of each power
 * of two, primes and the end; the release-built run takes every P in 2..300. */
static bool sweep_p(int P)
{
    static const int more[] = { 47, 63, 64, 65, 97, 127, 128, 129, 211, 255, 256, 257, 299, 300 };
    if (FULL_RUN || P <= 40)
        return true;
    for (size_t i = 0; i < sizeof more / sizeof *more; i++)
        if (more[i] == P)
            return true;
    return false;
}

static void test_sweep(void **state)
{
    (void)state;
    int exact = 0, below = 0, nP = 0;
    for (int P = 2; P <= 300; P++) {
        if (!sweep_p(P))
            continue;
        nP++;
        char spec[32];
        snprintf(spec, sizeof spec, "full:%d", P);
        Net *net = mknet(spec);
        for (int r = 1; r <= 8; r++) {
            int ss[] = { 1, r, 2 * r, 3 * r, 2 * r + 1 + (r > 2) };
            int64_t got[5];
            for (int k = 0; k < 5; k++) {
                int s = ss[k];
                got[k] = steps_of("fractional-direct", net, r, s, 0);
                int64_t bound = sanders_fdirect_bound(P, r, s);
                int64_t want = sanders_fdirect_steps(P, r, s);
                if (got[k] > bound)
                    fail_msg("P=%d r=%d s=%d: %lld steps > bound %lld", P, r, s,
                             (long long)got[k], (long long)bound);
                if (want >= 0 && got[k] != want)
                    fail_msg("P=%d r=%d s=%d: %lld steps, closed form %lld", P, r, s,
                             (long long)got[k], (long long)want);
                if (want >= 0)
                    exact++;
                below += got[k] < bound;
            }
            /* 2r+1 steps a run (fewer where nobody sends right) */
            int64_t run = got[3] - got[2];
            bool full = P >= (r == 1 ? 6 : 4) && r < P - 1;   /* else: the chain, 2r a run */
            if (r >= P - 1)   /* the simplex chain: one step apart, 2 steps a packet */
                assert_int_equal(got[2], P == 2 ? 2 * r : P + 4 * r - 3);
            if (full ? run != 2 * r + 1 : run > 2 * r + 1)
                fail_msg("P=%d r=%d: a run costs %lld steps", P, r, (long long)run);
            if (r == 1 && P >= 6)   /* the direct binary tree */
                assert_int_equal(got[2], sanders_direct_steps(P, 2));
        }
        net_free(net);
    }
    /* beyond the sweep: larger nets and groups */
    int bigP[] = { 301, 517, 1000, 1499 };
    for (size_t i = 0; i < sizeof bigP / sizeof *bigP; i++) {
        char spec[32];
        snprintf(spec, sizeof spec, "full:%d", bigP[i]);
        Net *net = mknet(spec);
        for (int r = 9; r <= 16; r += 7)
            assert_int_equal(steps_of("fractional-direct", net, r, 2 * r, 0),
                             sanders_fdirect_steps(bigP[i], r, 2 * r));
        net_free(net);
    }
    /* the closed form covers the paper's case (r | s, s >= 2r) and the small nets */
    assert_true(exact >= nP * 8 * 2 && nP >= (FULL_RUN ? 299 : 53));
    print_message("closed form checked %d times; %d runs beat the bound\n", exact, below);
}

/* Many packets: 2 - 1/(r+1) times the duplex tree, faster than the emulation. */
static void test_ratio(void **state)
{
    (void)state;
    Net *net = mknet("full:256");
    for (int r = 1; r <= 6; r++) {
        int s1 = 60 * r, s2 = 120 * r;
        double dir = (double)(steps_of("fractional-direct", net, r, s2, 0) -
                              steps_of("fractional-direct", net, r, s1, 0));
        double dup = (double)(steps_of("fractional", net, r, s2, 0) -
                              steps_of("fractional", net, r, s1, 0));
        double emu = (double)(steps_of("fractional-simplex", net, r, s2, 0) -
                              steps_of("fractional-simplex", net, r, s1, 0));
        assert_true(dir / dup > 2 - 1.0 / (r + 1) - 1e-9 && dir / dup < 2 - 1.0 / (r + 1) + 1e-9);
        assert_true(emu / dup > 2 - 1e-9);
        assert_true(steps_of("fractional-direct", net, r, s2, 0) <
                    steps_of("fractional-simplex", net, r, s2, 0));
    }
    net_free(net);
}

/* Other sources and nets verify (the tree embedded in node order). */
static void test_other_nets(void **state)
{
    (void)state;
    const char *nets[] = { "array:17", "ring:12", "mesh:5x6", "torus:4x4", "hxbar:4x4" };
    for (size_t i = 0; i < sizeof nets / sizeof *nets; i++) {
        Net *net = mknet(nets[i]);
        for (int r = 1; r <= 4; r++)
            steps_of("fractional-direct", net, r, 2 * r, (int32_t)(net_size(net) / 3));
        net_free(net);
    }
}

/* A deadlock is reported with its step and PU. */
static bool swap_next(const void *ctx, int32_t pu, int64_t *cursor, RdvOp *op)
{
    (void)ctx;
    if (*cursor > 0)
        return false;
    /* both wait to receive from each other */
    *op = (RdvOp){ .send = false, .peer = 1 - pu, .pk = 0 };
    (*cursor)++;
    return true;
}

static void test_deadlock(void **state)
{
    (void)state;
    Net *net = mknet("full:2");
    Sched *s = sched_new(net, 1, 16);
    int32_t node[2] = { 0, 1 };
    RdvRun run = { .n = 2, .node = node, .next = swap_next, .label = "x", .max_steps = 10 };
    assert_int_equal(rdv_run(s, &run), -1);
    assert_non_null(sched_error(s));
    assert_non_null(strstr(sched_error(s), "deadlock at step 1: PU 0 waits to receive packet 0 "
                                           "from PU 1"));
    sched_free(s);
    net_free(net);
}

/* Random programs (the operations of random steps of disjoint pairs, now and then one
 * operation dropped: a deadlock, or a pair that meets later) run by rdv_run and by a reference
 * that scans every PU each step (here): the same steps, the same transfers in the same order
 * (by sender), the same deadlock named. */
#define RMAXN 40
#define RMAXOPS 64
typedef struct {
    int32_t n;
    int32_t nops[RMAXN];
    RdvOp ops[RMAXN][RMAXOPS];
} Progs;

static bool prog_next(const void *ctx, int32_t pu, int64_t *cursor, RdvOp *op)
{
    const Progs *g = ctx;
    if (*cursor >= g->nops[pu])
        return false;
    *op = g->ops[pu][(*cursor)++];
    return true;
}

typedef struct {
    int32_t src, dst;
    uint32_t pk;
} RefX;

/* The reference: every live PU looked at each step; -1 and *why on a deadlock. */
static int64_t ref_run(const Progs *g, RefX *xs, int64_t *nx, int64_t *at, char *why,
                       size_t len)
{
    int32_t n = g->n, pc[RMAXN] = { 0 };
    int64_t steps = 0;
    *nx = 0;
    for (;;) {
        bool any = false;
        int32_t fired[RMAXN], nf = 0;
        for (int32_t u = 0; u < n; u++) {
            if (pc[u] >= g->nops[u])
                continue;
            any = true;
            const RdvOp *o = &g->ops[u][pc[u]];
            if (!o->send)
                continue;
            int32_t v = o->peer;
            if (pc[v] < g->nops[v] && !g->ops[v][pc[v]].send && g->ops[v][pc[v]].peer == u &&
                g->ops[v][pc[v]].pk == o->pk)
                fired[nf++] = u;
        }
        if (!any)
            return steps;
        if (nf == 0) {
            int32_t u = 0;
            while (pc[u] >= g->nops[u])
                u++;
            const RdvOp *o = &g->ops[u][pc[u]];
            snprintf(why, len, "rendezvous: deadlock at step %lld: PU %d waits to %s packet %u "
                     "%s PU %d", (long long)steps + 1, u, o->send ? "send" : "receive", o->pk,
                     o->send ? "to" : "from", o->peer);
            return -1;
        }
        at[steps] = *nx;
        for (int32_t q = 0; q < nf; q++) {
            int32_t u = fired[q], v = g->ops[u][pc[u]].peer;
            xs[(*nx)++] = (RefX){ u, v, g->ops[u][pc[u]].pk };
            pc[u]++;
            pc[v]++;
        }
        steps++;
    }
}

static void test_rdv_random(void **state)
{
    (void)state;
    static Progs g;
    static RefX xs[RMAXN * RMAXOPS];
    static int64_t at[RMAXN * RMAXOPS + 1];
    int deadlocks = 0;
    for (unsigned seed = 1; seed <= 300; seed++) {
        srand(seed * 2654435761u);
        memset(&g, 0, sizeof g);
        g.n = 2 + rand() % (RMAXN - 1);
        int T = 1 + rand() % 24;
        for (int t = 0; t < T; t++) {
            int32_t perm[RMAXN];
            for (int32_t i = 0; i < g.n; i++)
                perm[i] = i;
            for (int32_t i = g.n - 1; i > 0; i--) {
                int32_t j = rand() % (i + 1), x = perm[i];
                perm[i] = perm[j], perm[j] = x;
            }
            for (int32_t i = 0; i + 1 < g.n; i += 2) {
                int32_t u = perm[i], v = perm[i + 1];
                if (rand() % 3 == 0 || g.nops[u] >= RMAXOPS || g.nops[v] >= RMAXOPS)
                    continue;
                uint32_t pk = (uint32_t)(rand() % 4);
                g.ops[u][g.nops[u]++] = (RdvOp){ true, v, pk };
                g.ops[v][g.nops[v]++] = (RdvOp){ false, u, pk };
            }
        }
        if (seed % 4 == 0) {   /* drop one operation */
            int32_t u = rand() % g.n;
            if (g.nops[u] > 0) {
                int k = rand() % g.nops[u];
                memmove(&g.ops[u][k], &g.ops[u][k + 1], (size_t)(g.nops[u] - k - 1) * sizeof g.ops[u][0]);
                g.nops[u]--;
            }
        }
        char why[200];
        int64_t nx, rs = ref_run(&g, xs, &nx, at, why, sizeof why);
        char spec[32];
        snprintf(spec, sizeof spec, "full:%d", (int)g.n);
        Net *net = mknet(spec);
        Sched *s = sched_new(net, 4, 64);
        int32_t node[RMAXN];
        for (int32_t i = 0; i < g.n; i++)
            node[i] = i;
        RdvRun run = { .n = g.n, .node = node, .next = prog_next, .ctx = &g, .label = "r",
                       .max_steps = 1000 };
        int64_t got = rdv_run(s, &run);
        assert_int_equal(got, rs);
        if (rs < 0) {
            deadlocks++;
            assert_non_null(sched_error(s));
            assert_string_equal(sched_error(s), why);
        } else {
            assert_null(sched_error(s));
            assert_int_equal(sched_nsteps(s), rs);
            at[rs] = nx;
            for (int32_t st = 0; st < rs; st++) {
                assert_int_equal(sched_ntransfers(s, st), at[st + 1] - at[st]);
                for (int64_t i = 0; i < at[st + 1] - at[st]; i++) {
                    SchedTransfer x;
                    sched_transfer(s, st, i, &x);
                    assert_int_equal(x.src, xs[at[st] + i].src);
                    assert_int_equal(x.dst, xs[at[st] + i].dst);
                    assert_int_equal(x.ranges[0].lo, xs[at[st] + i].pk);
                }
            }
        }
        sched_free(s);
        net_free(net);
    }
    assert_true(deadlocks > 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sweep),
        cmocka_unit_test(test_ratio),
        cmocka_unit_test(test_other_nets),
        cmocka_unit_test(test_deadlock),
        cmocka_unit_test(test_rdv_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
