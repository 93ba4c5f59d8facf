/* test_hostile.c — the engine and the algorithms under hostile input: byte counts near 2^64,
 * control characters in specs and values, parameters set around the parsers, and a bounded
 * random walk over the parsers (net_parse, net_parse_node, setup_parse_bytes, cost_set) and
 * the schedule builder.  Every error is one line; nothing wraps, crashes or trips a sanitizer.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/algos/algo.h"
#include "../../src/engine/cost.h"
#include "../../src/engine/export.h"
#include "../../src/engine/net.h"
#include "../../src/engine/sched.h"
#include "../../src/engine/sim.h"
#include "../../src/script/setup.h"

static uint64_t rs = 0x9E3779B97F4A7C15u;
static uint32_t rnd(void)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return (uint32_t)(rs >> 11);
}

static void assert_one_line(const char *msg)
{
    assert_true(msg[0] != '\0');
    for (const char *p = msg; *p; p++)
        assert_false((unsigned char)*p < 0x20 || *p == 0x7f);
}

/* Local operations of 2^64-1 bytes: priced rho * bytes in doubles (no wrap to a small sum, no
 * out-of-range double -> uint64 conversion); bytes moved saturate instead of wrapping. */
static void test_huge_bytes(void **state)
{
    (void)state;
    char err[256];
    Net *net = net_parse("array:4", err, sizeof err);
    assert_non_null(net);
    Sched *s = sched_new(net, 4, UINT64_MAX);
    assert_non_null(s);
    assert_true(sched_give(s, 0, 0, 4));
    assert_true(sched_step(s) == 0);
    assert_true(sched_local(s, 0, UINT64_MAX));
    assert_true(sched_local(s, 0, UINT64_MAX));   /* 2 * (2^64-1) on one node */
    assert_true(sched_local(s, -1, UINT64_MAX));  /* and on every node */
    assert_true(sched_step(s) == 1);
    for (int32_t v = 1; v < 4; v++)
        assert_true(sched_send_range(s, 0, v, 0, 4));
    CostParams p;
    cost_defaults(&p, COST_SEIDEL);
    Sim *sim = sim_run(s, &p, 0, err, sizeof err);
    assert_non_null(sim);
    const SimTotals *t = sim_totals(sim);
    assert_true(t->verified);
    double want = p.rho * 3.0 * 18446744073709551615.0;
    assert_true(fabs(t->cost.permutation - want) <= 1e-9 * want);
    assert_true(t->bytes == UINT64_MAX);           /* 3 * (2^64-1), saturated */
    assert_true(sim_step(sim, 1)->bytes == UINT64_MAX);
    assert_true(isfinite(t->cost.total) && t->cost.total > want);
    sim_free(sim);
    sched_free(s);
    net_free(net);
}

/* Specs, values and names with control characters give one-line messages. */
static void test_one_line_messages(void **state)
{
    (void)state;
    char err[256];
    const char *specs[] = { "mesh:4\n4", "me\nsh:4", "\n", "mesh:\r4", "\x1b[31mmesh:4",
                            "mesh:4x4\n", "m\x7f:4", "array:\t8" };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        err[0] = '\0';
        assert_null(net_parse(specs[i], err, sizeof err));
        assert_one_line(err);
    }
    /* a long spec is quoted short, and never cut inside a UTF-8 character */
    char longspec[400];
    memset(longspec, 0, sizeof longspec);
    for (int i = 0; i < 100; i++)
        memcpy(longspec + 3 * i, "\xe2\x82\xac", 3);   /* euro signs */
    assert_null(net_parse(longspec, err, sizeof err));
    assert_one_line(err);
    assert_true(strlen(err) < 160);
    assert_non_null(strstr(err, "\xe2\x82\xac..."));

    CostParams p;
    cost_defaults(&p, COST_SEIDEL);
    const char *vals[] = { "1\n", "\n", "x\ny", "-1\n", "1\x1b" };
    const char *names[] = { "a", "nu", "duplex", "rho" };
    for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++)
        for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
            err[0] = '\0';
            assert_false(cost_set(&p, names[k], vals[i], err, sizeof err));
            assert_one_line(err);
        }
    assert_false(cost_set(&p, "a\nb", "1", err, sizeof err));
    assert_one_line(err);

    const AlgoDef *chain = algo_find("chain", NULL);
    assert_non_null(chain);
    AlgoArgs a;
    algo_args_init(&a, chain);
    assert_int_equal(algo_args_set(&a, chain, "s", "4\n", err, sizeof err), -2);
    assert_one_line(err);
    assert_int_equal(algo_args_set(&a, chain, "s", "1048577", err, sizeof err), -2);
    assert_one_line(err);
    assert_non_null(strstr(err, "0..1048576 or auto"));   /* exact, not 1.04858e+06 */
}

/* A value that underflows is a tiny number, not "not a number". */
static void test_underflow(void **state)
{
    (void)state;
    char err[256];
    CostParams p;
    cost_defaults(&p, COST_SEIDEL);
    assert_true(cost_set(&p, "b", "1e-400", err, sizeof err));
    assert_true(p.b >= 0 && p.b < 1e-300);
    assert_false(cost_set(&p, "b", "1e400", err, sizeof err));
    assert_false(cost_set(&p, "b", "-1e-400", err, sizeof err) && p.b < 0);
}

/* Parameters set around algo_args_set (NaN, out of range, fractional packet counts) are refused
 * by algo_check, so that no builder converts them to integers. */
static void test_params_checked(void **state)
{
    (void)state;
    char err[256];
    Net *net = net_parse("mesh:4x4", err, sizeof err);
    const AlgoDef *chain = algo_find("chain", net);
    assert_non_null(chain);
    AlgoArgs a;
    algo_args_init(&a, chain);
    assert_true(algo_check(chain, net, &a, err, sizeof err));
    /* (-1 is ALGO_AUTO: s=auto, the paper's s; -0.5 and 0 are not) */
    const double bad[] = { NAN, INFINITY, -INFINITY, 0, -0.5, -2, 1e30, 1048577, 1.5, 7.25 };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        a.param[0] = bad[i];
        err[0] = '\0';
        assert_false(algo_check(chain, net, &a, err, sizeof err));
        assert_one_line(err);
        assert_null(algo_build(chain, net, &a, err, sizeof err));
    }
    a.param[0] = 1048576;
    a.bytes = 3;   /* at most one packet per byte */
    Sched *s = algo_build(chain, net, &a, err, sizeof err);
    assert_non_null(s);
    assert_int_equal(sched_nchunks(s), 3);
    sched_free(s);
    net_free(net);
}

/* Byte counts: only plain positive decimals with an optional K/M/G, no wrap-round. */
static void test_parse_bytes(void **state)
{
    (void)state;
    uint64_t v;
    const char *bad[] = { "", "0", "-1", "+1", " 1", "1 ", "1e3", "0x10", "1.5", "K", "0K",
                          "1T", "1KB", "18446744073709551616", "17179869184G",
                          "99999999999999999999", "1\n" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_false(setup_parse_bytes(bad[i], &v));
    assert_true(setup_parse_bytes("18446744073709551615", &v) && v == UINT64_MAX);
    assert_true(setup_parse_bytes("17179869183G", &v) && v == (UINT64_C(17179869183) << 30));
    assert_true(setup_parse_bytes("64k", &v) && v == 65536);
}

static const char alphabet[] = "0123456789xX:,()-+ .eEkKmMgGnaitfyrsh\t\n\xff\xc3\xa9";

static void rstr(char *b, size_t max)
{
    static const char *const pre[] = { "mesh:", "torus:", "array:", "ring:", "", "1", "" };
    size_t n = rnd() % max, p = 0;
    if (rnd() % 2) {
        const char *s = pre[rnd() % 7];
        p = strlen(s);
        memcpy(b, s, p);
    }
    for (size_t i = p; i < n; i++)
        b[i] = alphabet[rnd() % (sizeof alphabet - 1)];
    b[n > p ? n : p] = '\0';
}

/* A bounded random walk over the parsers: every refusal is one line; every net parsed has a
 * canonical spec that parses back to the same size; node ids are in range. */
static void test_random_parsers(void **state)
{
    (void)state;
    char s[300], s2[40], err[256];
    for (int i = 0; i < 40000; i++) {
        rstr(s, (rnd() % 8) ? 16 : 290);
        err[0] = '\0';
        Net *n = net_parse(s, err, sizeof err);
        if (n) {
            Net *m = net_parse(net_spec(n), err, sizeof err);
            assert_non_null(m);
            assert_int_equal(net_size(m), net_size(n));
            net_free(m);
            rstr(s2, 20);
            int32_t id = net_parse_node(n, s2);
            assert_true(id >= -1 && id < net_size(n));
            net_free(n);
        } else {
            assert_one_line(err);
        }
        uint64_t b = 0;
        if (setup_parse_bytes(s, &b))
            assert_true(b > 0);
        CostParams p;
        cost_defaults(&p, COST_SEIDEL);
        static const char *const names[] = { "a", "b", "nu", "rho", "duplex", "t" };
        err[0] = '\0';
        if (!cost_set(&p, names[rnd() % 6], s, err, sizeof err))
            assert_one_line(err);
        assert_true(p.a >= 0 && p.b >= 0 && p.rho >= 0 && p.t >= 0);
        assert_true(p.nu >= 0 && p.nu <= COST_NU_MAX && (p.duplex == 0 || p.duplex == 1));
    }
}

/* Random builder calls, many of them wrong: a wrong call is refused with a one-line error and
 * the schedule is not simulated; a schedule without errors simulates under every model. */
static void test_random_schedules(void **state)
{
    (void)state;
    static const char *const specs[] = { "array:2", "array:7", "ring:5", "mesh:3x4",
                                         "torus:3x3", "torus:2x2", "mesh:2x2x2", "torus:3x2x4" };
    char err[256];
    int simulated = 0;
    for (int it = 0; it < 3000; it++) {
        Net *net = net_parse(specs[rnd() % 8], err, sizeof err);
        assert_non_null(net);
        int32_t n = net_size(net);
        uint32_t nc = 1 + rnd() % 6;
        uint64_t bytes = rnd() % 3 == 0 ? UINT64_MAX - rnd() % 4 : 1 + rnd() % 5000;
        Sched *s = sched_new(net, nc, bytes);
        assert_non_null(s);
        bool wrong = rnd() % 4 == 0;
        assert_true(sched_give(s, 0, 0, nc));
        for (int st = 0, ns = (int)(rnd() % 5); st < ns; st++) {
            assert_true(sched_step(s) >= 0);
            for (int k = 0, nx = (int)(rnd() % 5); k < nx; k++) {
                int32_t a = (int32_t)(rnd() % (uint32_t)n), b = (int32_t)(rnd() % (uint32_t)n);
                uint32_t lo = rnd() % (nc + 1), hi = rnd() % (nc + 1);
                if (wrong && rnd() % 3 == 0) {
                    switch (rnd() % 5) {
                    case 0: a = n + (int32_t)(rnd() % 3); break;
                    case 1: b = -1 - (int32_t)(rnd() % 3); break;
                    case 2: hi = nc + 1 + rnd() % 3; lo = 0; break;
                    case 3: lo = UINT32_MAX - 1; hi = UINT32_MAX; break;
                    default: b = a; break;
                    }
                }
                if (rnd() % 4 == 0) {
                    NetSeg seg[NET_MAXSEG];
                    int nseg = net_route(net, a >= 0 && a < n ? a : 0, b >= 0 && b < n ? b : 0,
                                         seg);
                    if (wrong && rnd() % 2 && nseg > 0)
                        seg[0].len = rnd() % 2 ? -seg[0].len : seg[0].len + 100;
                    ChunkRange r = { lo, hi };
                    sched_send_route(s, a, b, &r, 1, seg, nseg);
                } else if (rnd() % 5 == 0) {
                    sched_local(s, wrong && rnd() % 2 ? n : (int32_t)(rnd() % (uint32_t)n) - 1,
                                rnd() % 2 ? UINT64_MAX : rnd());
                } else {
                    sched_send_range(s, a, b, lo, hi);
                }
            }
        }
        for (int m = 0; m < COST_NMODELS; m++) {
            CostParams p;
            cost_defaults(&p, (CostModel)m);
            p.nu = (int)(rnd() % 3);
            err[0] = '\0';
            Sim *sim = sim_run(s, &p, rnd() % 2 ? SIM_HISTORY : 0, err, sizeof err);
            if (sched_error(s)) {
                assert_one_line(sched_error(s));
                if (sim)
                    sim_free(sim);
                continue;
            }
            assert_non_null(sim);
            simulated++;
            const SimTotals *t = sim_totals(sim);
            assert_false(isnan(t->cost.total));
            for (size_t v = 0; v < sim_nviolations(sim) && v < 4; v++) {
                char b[256];
                assert_one_line(sim_violation_text(sim, sim_violation(sim, v), b, sizeof b));
            }
            int32_t ns = sched_nsteps(s);
            for (int q = 0; q < 4; q++) {
                int32_t st = (int32_t)(rnd() % (uint32_t)(ns + 2));
                sim_seek(sim, st);
                if (st < ns) {
                    SimTransferInfo ti;
                    sim_transfer_info(sim, st, 0, &ti);
                    sim_link_loads(sim, st);
                }
            }
            sim_free(sim);
        }
        sched_free(s);
        net_free(net);
    }
    assert_true(simulated > 1000);
}

/* JSON strings stay valid UTF-8 whatever a script puts in a name or label. */
static void test_json_utf8(void **state)
{
    (void)state;
    static const struct { const char *in, *out; } cases[] = {
        { "plain", "\"plain\"" },
        { "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"" },
        { "\xff\xfe", "\"\\ufffd\\ufffd\"" },
        { "a\xc3", "\"a\\ufffd\"" },                   /* cut short at the end */
        { "\xc0\xaf", "\"\\ufffd\\ufffd\"" },           /* overlong '/' */
        { "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"" },  /* a surrogate */
        { "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"" }, /* past U+10FFFF */
        { "q\"\\\n\x01", "\"q\\\"\\\\\\n\\u0001\"" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        assert_non_null(f);
        json_write_string(f, cases[i].in);
        fclose(f);
        assert_string_equal(buf, cases[i].out);
        free(buf);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_huge_bytes),
        cmocka_unit_test(test_one_line_messages),
        cmocka_unit_test(test_underflow),
        cmocka_unit_test(test_params_checked),
        cmocka_unit_test(test_parse_bytes),
        cmocka_unit_test(test_random_parsers),
        cmocka_unit_test(test_random_schedules),
        cmocka_unit_test(test_json_utf8),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
