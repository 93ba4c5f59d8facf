/* test_rule_proof.c — rules proved valid from their parameters (sched_send_rule_proved,
 * sched_send_tree): a proved block is generated once per reading, not when it is added (the
 * rule's calls counted), while an unproved one is generated to be checked; a proof that
 * declines leaves the block checked transfer by transfer; a wrong proof is caught when
 * sched_check_proofs is on (as in the sanitized builds) and trusted when it is off; and rh's
 * exchange proofs (rh_mesh.c, rh_array.c) agree with the transfer-by-transfer check on every
 * mesh and array shape and source tried, the schedule the same with the proof as without
 * (sched_equal against a build with the check). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/algos/algo.h"
#include "../../src/engine/sched-internal.h"
#include "mknet.h"

/* A rule that counts its calls (through a pointer in its ctx, which outlives the schedule):
 * transfer j goes from j to j + 1 (or, with `bad`, transfer `bad_at` to itself), chunk 0. */
typedef struct {
    int64_t *calls;
    int64_t bad_at;   /* -1: none */
} CountCtx;

static void count_batch(const void *ctx, int64_t j0, int64_t n, SchedRuleXfer *out)
{
    const CountCtx *c = ctx;
    *c->calls += n;
    for (int64_t i = 0; i < n; i++) {
        int32_t j = (int32_t)(j0 + i);
        out[i] = (SchedRuleXfer){ j, j == c->bad_at ? j : j + 1, 1, { { 0, 1 }, { 0, 0 } } };
    }
}

static bool prove_yes(const void *ctx, const Net *net, uint32_t nchunks, int64_t count)
{
    (void)ctx;
    (void)nchunks;
    return count < net_size(net);
}

static bool prove_no(const void *ctx, const Net *net, uint32_t nchunks, int64_t count)
{
    (void)ctx;
    (void)net;
    (void)nchunks;
    (void)count;
    return false;
}

static void test_expanded_once(void **state)
{
    (void)state;
    bool saved = sched_check_proofs;
    sched_check_proofs = false;
    Net *n = mknet("array:1024");
    int64_t calls = 0;
    CountCtx c = { &calls, -1 };
    Sched *s = sched_new(n, 1, 100);
    assert_true(sched_step(s) == 0);
    /* proved: nothing generated when added */
    assert_true(sched_send_rule_proved(s, 1000, count_batch, &c, sizeof c, prove_yes));
    assert_int_equal(calls, 0);
    assert_int_equal(sched_ntransfers(s, 0), 1000);
    /* read once: generated once */
    SchedFlatBuf fb = { 0 };
    SchedFlat f;
    assert_true(sched_flat(s, 0, &fb, &f));
    assert_int_equal(calls, 1000);
    for (int64_t i = 0; i < 1000; i++) {
        assert_int_equal(f.x[i].src, i);
        assert_int_equal(f.x[i].dst, i + 1);
    }
    /* unproved (and a declining proof): generated to be checked when added */
    assert_true(sched_step(s) == 1);
    calls = 0;
    assert_true(sched_send_rule_batch(s, 1000, count_batch, &c, sizeof c));
    assert_int_equal(calls, 1000);
    assert_true(sched_send_rule_proved(s, 1000, count_batch, &c, sizeof c, prove_no));
    assert_int_equal(calls, 2000);
    /* with the proofs checked, a proved block is generated when added too */
    sched_check_proofs = true;
    calls = 0;
    assert_true(sched_send_rule_proved(s, 500, count_batch, &c, sizeof c, prove_yes));
    assert_int_equal(calls, 500);
    assert_null(sched_error(s));
    sched_flatbuf_free(&fb);
    sched_free(s);
    sched_check_proofs = saved;
    net_free(n);
}

static void test_wrong_proof(void **state)
{
    (void)state;
    bool saved = sched_check_proofs;
    Net *n = mknet("array:64");
    int64_t calls = 0;
    CountCtx bad = { &calls, 17 };   /* transfer 17: node 17 to itself */
    /* a declining proof: the check finds the bad transfer and names it */
    sched_check_proofs = false;
    Sched *s = sched_new(n, 1, 100);
    assert_true(sched_step(s) == 0);
    assert_false(sched_send_rule_proved(s, 40, count_batch, &bad, sizeof bad, prove_no));
    assert_non_null(strstr(sched_error(s), "17->17"));
    assert_null(strstr(sched_error(s), "proof"));
    sched_free(s);
    /* a wrong proof, checked: fails, saying the proof is wrong, and naming the transfer */
    sched_check_proofs = true;
    s = sched_new(n, 1, 100);
    assert_true(sched_step(s) == 0);
    assert_false(sched_send_rule_proved(s, 40, count_batch, &bad, sizeof bad, prove_yes));
    assert_non_null(strstr(sched_error(s), "proof is wrong"));
    assert_non_null(strstr(sched_error(s), "17->17"));
    assert_int_equal(sched_ntransfers(s, 0), 0);
    sched_free(s);
    /* unchecked, a proof is trusted: the block is added (the proof is the rule's promise) */
    sched_check_proofs = false;
    s = sched_new(n, 1, 100);
    assert_true(sched_step(s) == 0);
    assert_true(sched_send_rule_proved(s, 40, count_batch, &bad, sizeof bad, prove_yes));
    assert_int_equal(sched_ntransfers(s, 0), 40);
    sched_free(s);
    sched_check_proofs = saved;
    net_free(n);
}

/* d built on n with the proofs checked (every proved block generated and checked transfer by
 * transfer) and again trusting them: the same schedule.  False, with err, when the checked
 * build fails (a wrong proof, or a size the algorithm refuses); the caller says which. */
static bool checked_is_trusted(const AlgoDef *d, const Net *n, const AlgoArgs *a, char *err,
                               size_t errlen)
{
    sched_check_proofs = true;
    Sched *checked = algo_build(d, n, a, err, errlen);
    if (!checked)
        return false;
    sched_check_proofs = false;
    Sched *trusted = algo_build(d, n, a, err, errlen);
    assert_non_null(trusted);
    assert_true(sched_equal(checked, trusted));
    sched_free(checked);
    sched_free(trusted);
    return true;
}

/* rh's exchange proof: with the proofs checked, every exchange block of every shape and source
 * tried passes the transfer-by-transfer check (a wrong proof would fail the build), and the
 * schedule built trusting the proof is the one built checking it. */
static void test_rh_proof(void **state)
{
    (void)state;
    bool saved = sched_check_proofs;
    static const char *nets[] = { "mesh:2x2", "mesh:2x8", "mesh:8x2", "mesh:4x4", "mesh:4x32",
                                  "mesh:32x4", "mesh:16x16", "mesh:64x8", "array:2", "array:4",
                                  "array:64", "array:1024" };
    for (size_t ni = 0; ni < sizeof nets / sizeof nets[0]; ni++) {
        Net *n = mknet(nets[ni]);
        const AlgoDef *d = algo_find("rh", n);
        assert_non_null(d);
        int32_t size = net_size(n);
        for (int32_t src = 0; src < size; src += size / 4 + 1) {
            AlgoArgs a;
            algo_args_init(&a, d);
            a.source = src;
            char err[256];
            if (!checked_is_trusted(d, n, &a, err, sizeof err))
                fail_msg("%s source %ld: %s", nets[ni], (long)src, err);
        }
        net_free(n);
    }
    sched_check_proofs = saved;
}

/* The mesh st's and bst's 2x2 exchanges (common.c, exch2x2_prove): checked and trusted builds
 * agree (a wrong proof fails the checked build). */
static void test_mesh_exchange_proof(void **state)
{
    (void)state;
    bool saved = sched_check_proofs;
    static const char *nets[] = { "mesh:2x2", "mesh:4x4", "mesh:8x32", "mesh:32x8", "mesh:16x16" };
    static const char *algos[] = { "st", "bst" };
    for (size_t ni = 0; ni < sizeof nets / sizeof nets[0]; ni++) {
        Net *n = mknet(nets[ni]);
        for (size_t ai = 0; ai < 2; ai++) {
            const AlgoDef *d = algo_find(algos[ai], n);
            assert_non_null(d);
            for (int nu = 0; nu <= 2; nu++) {
                AlgoArgs a;
                algo_args_init(&a, d);
                a.nu = nu;
                a.source = net_size(n) / 3;
                char err[256];
                if (!checked_is_trusted(d, n, &a, err, sizeof err))
                    assert_null(strstr(err, "proof"));   /* (a size or nu it refuses) */
            }
        }
        net_free(n);
    }
    sched_check_proofs = saved;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_expanded_once),
        cmocka_unit_test(test_wrong_proof),
        cmocka_unit_test(test_rh_proof),
        cmocka_unit_test(test_mesh_exchange_proof),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
