/* test_simsteps.c — the simulator's compact per-step figures (sim-steps.c: a 12-byte record
 * per step, the other figures interned as "kinds") against a plain array of SimSteps: random
 * figures put and read back field by field (doubles by their bits), the number of kinds against
 * a naive count of the distinct ones; and random schedules on array:8 whose per-step figures
 * (transfers, bytes, route lengths, link loads, informed nodes) are derived here independently
 * and compared with sim_step. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "../../src/engine/sim-core.h"

static uint32_t rnd(uint32_t n) { return (uint32_t)rand() % n; }

static uint64_t bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static void same_fig(const SimStep *a, const SimStep *b)
{
    assert_int_equal(bits(a->cost.total), bits(b->cost.total));
    assert_int_equal(bits(a->cost.startup), bits(b->cost.startup));
    assert_int_equal(bits(a->cost.transmission), bits(b->cost.transmission));
    assert_int_equal(bits(a->cost.contention), bits(b->cost.contention));
    assert_int_equal(bits(a->cost.permutation), bits(b->cost.permutation));
    assert_int_equal(a->ntransfers, b->ntransfers);
    assert_int_equal(a->tcd, b->tcd);
    assert_int_equal(a->bytes, b->bytes);
    assert_int_equal(a->max_link_load, b->max_link_load);
    assert_int_equal(a->link_overloads, b->link_overloads);
    assert_int_equal(a->max_channel_load, b->max_channel_load);
    assert_int_equal(a->port_conflicts, b->port_conflicts);
    assert_int_equal(a->violations, b->violations);
    assert_int_equal(a->critical_node, b->critical_node);
    assert_int_equal(a->informed, b->informed);
    assert_int_equal(a->max_len, b->max_len);
    assert_int_equal(a->max_bytes, b->max_bytes);
    assert_int_equal(a->subrounds, b->subrounds);
}

/* Same figures but informed and critical_node (what makes a kind). */
static bool same_kind(const SimStep *a, const SimStep *b)
{
    SimStep x = *a, y = *b;
    x.informed = y.informed = 0;
    x.critical_node = y.critical_node = 0;
    return bits(x.cost.total) == bits(y.cost.total) &&
           bits(x.cost.startup) == bits(y.cost.startup) &&
           bits(x.cost.transmission) == bits(y.cost.transmission) &&
           bits(x.cost.contention) == bits(y.cost.contention) &&
           bits(x.cost.permutation) == bits(y.cost.permutation) &&
           x.ntransfers == y.ntransfers && x.tcd == y.tcd && x.bytes == y.bytes &&
           x.max_link_load == y.max_link_load && x.link_overloads == y.link_overloads &&
           x.max_channel_load == y.max_channel_load && x.port_conflicts == y.port_conflicts &&
           x.violations == y.violations && x.max_len == y.max_len &&
           x.max_bytes == y.max_bytes && x.subrounds == y.subrounds;
}

static double pick_double(void)
{
    static const double v[] = { 0.0, -0.0, 1.5, 1e300, 75.0, 40.96 };
    switch (rnd(8)) {
    case 6:
        return NAN;
    case 7:
        return (double)rnd(1000) / 7.0;
    default:
        return v[rnd(6)];
    }
}

/* Change field f (0..15) of s's kind. */
static void tweak(SimStep *s, uint32_t f)
{
    switch (f) {
    case 0: s->cost.total = -s->cost.total; break;   /* (0.0 <-> -0.0 too) */
    case 1: s->cost.startup += 1; break;
    case 2: s->cost.transmission = nextafter(s->cost.transmission, INFINITY); break;
    case 3: s->cost.contention = -s->cost.contention; break;
    case 4: s->cost.permutation += 0.5; break;
    case 5: s->ntransfers ^= 1; break;
    case 6: s->tcd ^= INT64_C(1) << 40; break;
    case 7: s->bytes ^= 1; break;
    case 8: s->max_link_load ^= 4; break;
    case 9: s->link_overloads ^= 2; break;
    case 10: s->max_channel_load ^= 1; break;
    case 11: s->port_conflicts ^= 8; break;
    case 12: s->violations ^= 1; break;
    case 13: s->max_len ^= 16; break;
    case 14: s->max_bytes ^= 32; break;
    default: s->subrounds ^= 2; break;
    }
}

/* Random figures from small sets (so that kinds repeat) and a few from large ones (so that
 * the hash table grows): put, then every step read back as it was put. */
static void test_random_figures(void **state)
{
    (void)state;
    for (unsigned seed = 1; seed <= 6; seed++) {
        srand(seed * 104729u);
        int32_t n = seed % 2 ? 3000 : 40;
        SimStep *ref = calloc((size_t)n, sizeof *ref);
        assert_non_null(ref);
        StepTab t;
        assert_true(steps_init(&t, n));
        for (int32_t st = 0; st < n; st++) {
            SimStep *s = &ref[st];
            bool wide = rnd(4) == 0;   /* a quarter of the steps from large sets */
            s->cost.total = pick_double();
            s->cost.startup = pick_double();
            s->cost.transmission = wide ? (double)rnd(1u << 30) : pick_double();
            s->cost.contention = pick_double();
            s->cost.permutation = rnd(2) ? 0.0 : pick_double();
            s->ntransfers = rnd(3) ? 8 : (int64_t)rnd(100) << (rnd(2) * 33);
            s->tcd = wide ? (int64_t)rnd(1u << 30) * 3 : 8;
            s->bytes = rnd(2) ? 131072 : UINT64_MAX - rnd(3);
            s->max_link_load = (int32_t)rnd(3) - 1;
            s->link_overloads = rnd(2);
            s->max_channel_load = (int32_t)rnd(2) * INT32_MAX;
            s->port_conflicts = rnd(2);
            s->violations = rnd(2) ? 0 : -1 - (int64_t)rnd(2);
            s->critical_node = (int32_t)rnd(1u << 20) - 1;
            s->informed = (int32_t)rnd(1u << 20);
            s->max_len = rnd(2);
            s->max_bytes = rnd(2) ? 16384 : UINT64_MAX;
            s->subrounds = (int32_t)rnd(3);
            if (st > 0 && rnd(2)) {   /* an earlier step's kind, with figures of its own */
                *s = ref[rnd((uint32_t)st)];
                s->critical_node = (int32_t)rnd(1u << 20) - 1;
                s->informed = (int32_t)rnd(1u << 20);
                if (rnd(2))   /* ... and one figure of the kind changed */
                    tweak(s, rnd(16));
            }
            assert_true(steps_put(&t, st, s));
            if (st == n / 2)
                for (int32_t k = 0; k <= st; k++) {   /* halfway, with the hash table */
                    SimStep g;
                    steps_get(&t, k, &g);
                    same_fig(&g, &ref[k]);
                }
        }
        steps_done(&t);
        for (int32_t st = 0; st < n; st++) {
            SimStep g;
            steps_get(&t, st, &g);
            same_fig(&g, &ref[st]);
            assert_int_equal(steps_kind(&t, st)->informed, 0);
            assert_int_equal(steps_kind(&t, st)->critical_node, 0);
        }
        uint32_t distinct = 0;   /* naive: a step whose kind no earlier step has */
        for (int32_t st = 0; st < n; st++) {
            bool seen = false;
            for (int32_t k = 0; k < st && !seen; k++)
                seen = same_kind(&ref[k], &ref[st]);
            distinct += !seen;
        }
        assert_int_equal(t.nkind, distinct);
        assert_true(distinct < (uint32_t)n);   /* kinds did repeat */
        steps_free(&t);
        free(ref);
    }
}

/* Random schedules on array:8, seidel, nu = 0, steps often repeating the step before: each
 * step's figures against a count made here (transfers, bytes, summed route length, the
 * largest transfer, the busiest directed link, the informed nodes), the
 * critical node among the step's senders and receivers, and the costs adding up. */
typedef struct {
    int32_t a, b;
    uint32_t lo, hi;
} Xf;

static void test_random_schedules(void **state)
{
    (void)state;
    enum { N = 8, CH = 32, STEPS = 24, PER = 10 };   /* PER bytes a chunk */
    Net *net = net_parse("array:8", NULL, 0);
    assert_non_null(net);
    for (unsigned seed = 1; seed <= 30; seed++) {
        srand(seed * 7919u);
        Sched *s = sched_new(net, CH, CH * PER);
        assert_non_null(s);
        bool have[N][CH] = { { false } };
        sched_give(s, 0, 0, CH);
        for (uint32_t c = 0; c < CH; c++)
            have[0][c] = true;
        Xf x[8], prev[8];
        SimStep want[STEPS];
        int nprev = 0;
        for (int st = 0; st < STEPS; st++) {
            sched_step(s);
            int nx = 0;
            if (nprev && rnd(2)) {   /* the step before again */
                memcpy(x, prev, sizeof x);
                nx = nprev;
            } else {
                for (int i = 0, tries = (int)rnd(8); i < tries; i++) {
                    int32_t a = (int32_t)rnd(N), b = (int32_t)rnd(N);
                    uint32_t lo = rnd(CH), hi = lo + 1 + rnd(CH - lo);
                    bool held = a != b;   /* only what a holds (no violations) */
                    for (uint32_t c = lo; held && c < hi; c++)
                        held = have[a][c];
                    if (held)
                        x[nx++] = (Xf){ a, b, lo, hi };
                }
            }
            bool got[N][CH];
            memcpy(got, have, sizeof got);
            int64_t tcd = 0;
            uint64_t bytes = 0, maxb = 0;
            int32_t load[2][N] = { { 0 } };   /* [right/left][tail] */
            for (int i = 0; i < nx; i++) {
                assert_true(sched_send_range(s, x[i].a, x[i].b, x[i].lo, x[i].hi));
                tcd += labs((long)(x[i].b - x[i].a));
                uint64_t by = (uint64_t)(x[i].hi - x[i].lo) * PER;
                bytes += by;
                maxb = by > maxb ? by : maxb;
                for (int32_t v = x[i].a; v != x[i].b; v += x[i].b > x[i].a ? 1 : -1)
                    load[x[i].b < x[i].a][v]++;
                for (uint32_t c = x[i].lo; c < x[i].hi; c++)
                    got[x[i].b][c] = true;
            }
            int32_t mx = 0;
            for (int d = 0; d < 2; d++)
                for (int v = 0; v < N; v++)
                    mx = load[d][v] > mx ? load[d][v] : mx;
            memcpy(have, got, sizeof have);
            memcpy(prev, x, sizeof x);
            nprev = nx;
            /* what the run must say of this step, checked after it */
            int32_t informed = 0;
            for (int v = 0; v < N; v++) {
                bool any = false;
                for (uint32_t c = 0; c < CH; c++)
                    any = any || have[v][c];
                informed += any;
            }
            SimStep *w = &want[st];
            memset(w, 0, sizeof *w);
            w->ntransfers = nx;
            w->tcd = tcd;
            w->bytes = bytes;
            w->max_bytes = maxb;
            w->max_link_load = mx;
            w->informed = informed;
        }
        CostParams p;
        cost_defaults(&p, COST_SEIDEL);
        Sim *sim = sim_run(s, &p, 0, NULL, 0);
        assert_non_null(sim);
        double sum = 0;
        for (int32_t k = 0; k < STEPS; k++) {
            const SimStep *g = sim_step(sim, k);
            assert_non_null(g);
            assert_int_equal(g->ntransfers, want[k].ntransfers);
            assert_int_equal(g->tcd, want[k].tcd);
            assert_int_equal(g->bytes, want[k].bytes);
            assert_int_equal(g->max_bytes, want[k].max_bytes);
            if (g->subrounds <= 1)   /* (else: the most at once in a sub-round) */
                assert_int_equal(g->max_link_load, want[k].max_link_load);
            else
                assert_true(g->max_link_load <= want[k].max_link_load);
            assert_int_equal(g->informed, want[k].informed);
            if (want[k].ntransfers == 0) {
                assert_int_equal(g->critical_node, -1);
                assert_true(g->cost.total == 0);
            } else {
                assert_true(g->critical_node >= 0 && g->critical_node < N);
                assert_true(g->cost.total > 0);
            }
            sum += g->cost.total;
            assert_true(sim_cost_until(sim, k) == sum);
        }
        assert_true(sim_totals(sim)->cost.total == sum);
        assert_null(sim_step(sim, STEPS));
        assert_null(sim_step(sim, -1));
        sim_free(sim);
        sched_free(s);
    }
    net_free(net);
}

/* Steps of short sends (the replay takes a step whose senders are all distinct and whose
 * routes are one hop each as disjoint without walking its routes: load_one_hop): random
 * senders, each to a random neighbour or, now and then, to a node two hops away, on a ring
 * (wrapping round), a mesh, an array and a torus; now and then a node sends twice.  Under seidel
 * and postal, each step's figures against the loads counted route by route (SIM_PATH_DIRECT)
 * and against the most circuits on one arc counted here, walking each route link by link. */
static void test_short_hop_steps(void **state)
{
    (void)state;
    const char *nets[] = { "ring:8", "mesh:4x4", "array:9", "torus:3x5" };
    for (size_t ni = 0; ni < sizeof nets / sizeof nets[0]; ni++) {
        Net *net = net_parse(nets[ni], NULL, 0);
        assert_non_null(net);
        int32_t n = net_size(net);
        int32_t *cnt = calloc((size_t)net_nlinks(net), sizeof *cnt);
        assert_non_null(cnt);
        for (unsigned seed = 1; seed <= 12; seed++) {
            srand(seed * 31u + (unsigned)ni);
            Sched *s = sched_new(net, 4, 4096);
            sched_give(s, 0, 0, 4);
            enum { STEPS = 12 };
            int32_t want_mx[STEPS];
            int64_t want_tcd[STEPS];
            for (int st = 0; st < STEPS; st++) {
                sched_step(s);
                memset(cnt, 0, (size_t)net_nlinks(net) * sizeof *cnt);
                int32_t mx = 0;
                int64_t tcd = 0;
                bool far = rnd(3) == 0;   /* this step: some routes of two hops */
                for (int32_t v = 0; v < n; v++) {
                    int k = (int)rnd(5) == 0 ? 2 : (int)rnd(2);   /* sends of v */
                    int32_t nb[64];
                    int nn = 0;
                    for (int32_t w = 0; w < n; w++) {   /* v's neighbours (or next but one) */
                        NetSeg seg[NET_MAXSEG];
                        int64_t len = net_route_len(seg, net_route(net, v, w, seg));
                        if (w != v && (len == 1 || (far && len == 2)) && nn < 64)
                            nb[nn++] = w;
                    }
                    for (int j = 0; j < k && nn > 0; j++) {
                        int32_t w = nb[rnd((uint32_t)nn)];
                        assert_true(sched_send_range(s, v, w, 0, 4));   /* (none held: ok) */
                        NetSeg seg[NET_MAXSEG];
                        int ns = net_route(net, v, w, seg);
                        int32_t u = v;
                        for (int q = 0; q < ns; q++)
                            for (int32_t h = 0; h < seg[q].len; h++) {
                                int64_t l = net_link(net, u, seg[q].dim, seg[q].dir);
                                cnt[l]++;
                                mx = cnt[l] > mx ? cnt[l] : mx;
                                u = net_link_head(net, l);
                                tcd++;
                            }
                        assert_int_equal(u, w);
                    }
                }
                want_mx[st] = mx;
                want_tcd[st] = tcd;
            }
            for (int model = 0; model < 2; model++) {
                CostParams p;
                cost_defaults(&p, model ? COST_POSTAL : COST_SEIDEL);
                Sim *a = sim_run(s, &p, 0, NULL, 0);
                int keep = sim_load_path;
                sim_load_path = SIM_PATH_DIRECT;
                Sim *b = sim_run(s, &p, 0, NULL, 0);
                sim_load_path = keep;
                assert_non_null(a);
                assert_non_null(b);
                for (int32_t st = 0; st < STEPS; st++) {
                    const SimStep *x = sim_step(a, st), *y = sim_step(b, st);
                    same_fig(x, y);
                    assert_int_equal(x->tcd, want_tcd[st]);
                    if (x->subrounds <= 1)   /* (else: the most at once in a sub-round) */
                        assert_int_equal(x->max_link_load, want_mx[st]);
                }
                sim_free(a);
                sim_free(b);
            }
            sched_free(s);
        }
        free(cnt);
        net_free(net);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_figures),
        cmocka_unit_test(test_random_schedules),
        cmocka_unit_test(test_short_hop_steps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
