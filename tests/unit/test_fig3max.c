/* test_fig3max.c — Sanders & Sibeyn's Fig. 3, its maxima found by search, not sampled.
 *
 * Independently of autotune.c, the test prices every (r, s) of the chain, the binary tree and
 * the fractional tree with no pruning (the paper's step counts: chain P-2+s; trees
 * d + (r+1)floor((s-1)/r) + (s-1) mod r + 1 with d from the recurrence P_i), and:
 *  - sanders_search_best (which skips (r, s) by a lower bound) returns the same cost, s and r
 *    at points large and small;
 *  - sanders_fig3_max over k/t in 4..1024 on P = 64 returns the maximum of an exhaustive walk
 *    over every integer k — which lies at k = 163, not at a power of 4 (a sampled search
 *    returns 1.2 at 256 and fails here);
 *  - on P = 1024 and 16384 the maximum over 4..2^20 equals the exhaustive maximum over a window
 *    of integers around it, and beats every power of 4 (what the old table sampled).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/algos/sanders/autotune.h"

static int64_t depth(int64_t P, int64_t r)
{
    static int64_t p[1 << 16];
    for (int64_t i = 0;; i++) {
        p[i] = i <= r ? i + 1 : r + p[i - r] + p[i - r - 1];
        if (p[i] >= P)
            return i - 1;
    }
}

/* The cheapest of one algorithm at k, every (r, s) priced: 0 chain, 1 bintree, 2 fractional
 * (r in 1..min(64, P) and 2^20), s in 1..min(k, cap). */
static double brute(int algo, int64_t P, uint64_t k, int64_t *bs, int64_t *br)
{
    int64_t cap = algo == 0 ? 1 << 20 : 16384;
    int64_t smax = (int64_t)k < cap ? (int64_t)k : cap;
    int64_t rhi = algo == 2 ? (P < 64 ? P : 64) : 1;
    double best = -1;
    for (int64_t ri = 1; ri <= rhi + (algo == 2); ri++) {
        int64_t r = ri > rhi ? 1 << 20 : ri;
        int64_t d = algo == 0 ? P - 2 : depth(P, r);
        for (int64_t s = 1; s <= smax; s++) {
            int64_t steps = algo == 0 ? d + s : d == 0 ? s : d + (r + 1) * ((s - 1) / r) + (s - 1) % r + 1;
            double c = (double)steps * (1.0 + ceil((double)k / (double)s));
            if (best < 0 || c < best) {
                best = c;
                *bs = s;
                *br = r;
            }
        }
    }
    return best;
}

static double brute_speedup(int64_t P, uint64_t k)
{
    int64_t s, r;
    double c = brute(0, P, k, &s, &r), b = brute(1, P, k, &s, &r), f = brute(2, P, k, &s, &r);
    return (c < b ? c : b) / f;
}

static void test_search_best_exact(void **state)
{
    (void)state;
    CostParams p;
    cost_defaults(&p, COST_POSTAL);
    static const struct {
        int64_t P;
        uint64_t k;
    } pts[] = {{64, 163}, {64, 4096}, {1024, 4744}, {1024, 65536}, {16384, 91181},
               {16384, 7}, {3, 1000}, {100, 12345}, {16384, 1048576}};
    static const char *const names[] = {"chain", "bintree", "fractional"};
    for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++)
        for (int a = 0; a < 3; a++) {
            int64_t s1, r1, s2, r2;
            double want = brute(a, pts[i].P, pts[i].k, &s1, &r1);
            double got = sanders_search_best(names[a], pts[i].P, pts[i].k, &p, 1, a == 2 ? 64 : 1,
                                             &s2, &r2);
            if (got != want || s1 != s2 || (a == 2 && r1 != r2))
                fail_msg("%s P=%lld k=%llu: search %g s=%lld r=%lld, every (r,s) %g s=%lld "
                         "r=%lld", names[a], (long long)pts[i].P,
                         (unsigned long long)pts[i].k, got, (long long)s2, (long long)r2, want,
                         (long long)s1, (long long)r1);
        }
}

static void test_max_p64_exhaustive(void **state)
{
    (void)state;
    CostParams p;
    cost_defaults(&p, COST_POSTAL);
    double best = 0;
    uint64_t at = 0;
    for (uint64_t k = 4; k <= 1024; k++) {
        double v = brute_speedup(64, k);
        if (v > best) {
            best = v;
            at = k;
        }
    }
    SandersFig3Max mx;
    sanders_fig3_max(64, 4, 1024, &p, &mx);
    assert_int_equal(mx.k, at);
    assert_true(fabs(mx.at.speedup - best) < 1e-12);
    assert_true(at % 4 != 0 || (at & (at - 1)) != 0);   /* not a sample point */
    assert_true(best > brute_speedup(64, 256) + 0.05);  /* the old sampled "largest" */
    assert_true(mx.evaluated < 1021);                   /* bounded, not every k priced */
}

/* The maximum over 4..2^20 is the exhaustive maximum of a window of integers around it and
 * beats every power of 4. */
static void test_max_big(void **state)
{
    (void)state;
    CostParams p;
    cost_defaults(&p, COST_POSTAL);
    const int64_t Ps[] = {1024, 16384};
    for (int q = 0; q < 2; q++) {
        SandersFig3Max mx;
        sanders_fig3_max(Ps[q], 4, 1 << 20, &p, &mx);
        uint64_t lo = mx.k - 40, hi = mx.k + 40;
        for (uint64_t k = lo; k <= hi; k++)
            if (brute_speedup(Ps[q], k) > mx.at.speedup + 1e-12)
                fail_msg("P=%lld: k=%llu beats the maximum found (%g at %llu)", (long long)Ps[q],
                         (unsigned long long)k, mx.at.speedup, (unsigned long long)mx.k);
        assert_true(fabs(brute_speedup(Ps[q], mx.k) - mx.at.speedup) < 1e-12);
        for (uint64_t k = 4; k <= (1u << 20); k *= 4)
            assert_true(brute_speedup(Ps[q], k) < mx.at.speedup);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_search_best_exact),
        cmocka_unit_test(test_max_p64_exhaustive),
        cmocka_unit_test(test_max_big),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
