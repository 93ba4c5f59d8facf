/* test_lua_strided.c — a script's st:send_strided kept as strided rules (lua-mc.c,
 * sched-strided.h) and shipped from its child as blocks (sched-pack.h) against the same script
 * with every transfer stored one by one (mc_strided_rules false: what the schedules were
 * before): for every script in scripts/ and tests/lua/ok_strided.lua (every shape of block,
 * mixed with sends in the same steps), on arrays, rings, meshes and tori, from two sources,
 * nu 0 and 1: the same transfers in the same order (sched_transfer), sched_equal, labels and
 * local operations, and the same simulation under seidel and postal (totals, every step,
 * violation texts); or, where the script refuses the net, the same message.  Then that the
 * rules are there: st.lua's steps are one tree step each (the simulator's fast path),
 * st-mesh.lua's rows of a step one block. */
#include <dirent.h>
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
#include "../../src/engine/sched-strided.h"
#include "../../src/engine/sim.h"
#include "../../src/script/lua-mc.h"
#include "../../src/script/script.h"
#include "mknet.h"
#include "simcmp.h"
#include "srctree.h"


static void same_transfers(const Sched *a, const Sched *b, const char *what)
{
    if (sched_nsteps(a) != sched_nsteps(b) ||
        sched_total_transfers(a) != sched_total_transfers(b))
        fail_msg("%s: %d steps, %lld transfers against %d, %lld", what, (int)sched_nsteps(a),
                 (long long)sched_total_transfers(a), (int)sched_nsteps(b),
                 (long long)sched_total_transfers(b));
    for (int32_t st = 0; st < sched_nsteps(a); st++) {
        assert_int_equal(sched_ntransfers(a, st), sched_ntransfers(b, st));
        assert_string_equal(sched_step_label(a, st), sched_step_label(b, st));
        for (int64_t i = 0; i < sched_ntransfers(a, st); i++) {
            SchedTransfer x, y;
            sched_transfer(a, st, i, &x);
            sched_transfer(b, st, i, &y);
            if (x.src != y.src || x.dst != y.dst || x.nranges != y.nranges ||
                x.explicit_route != y.explicit_route || x.len != y.len || x.bytes != y.bytes)
                fail_msg("%s: step %d transfer %lld: %d->%d against %d->%d", what, (int)st + 1,
                         (long long)i, (int)x.src, (int)x.dst, (int)y.src, (int)y.dst);
            for (uint32_t q = 0; q < x.nranges; q++) {
                assert_int_equal(x.ranges[q].lo, y.ranges[q].lo);
                assert_int_equal(x.ranges[q].hi, y.ranges[q].hi);
            }
        }
        assert_int_equal(sched_nlocals(a, st), sched_nlocals(b, st));
        for (int64_t i = 0; i < sched_nlocals(a, st); i++) {
            SchedLocal x, y;
            sched_local_get(a, st, i, &x);
            sched_local_get(b, st, i, &y);
            assert_int_equal(x.node, y.node);
            assert_int_equal(x.bytes, y.bytes);
        }
    }
    assert_true(sched_equal(a, b));
}

static void same_sims(const Sched *a, const Sched *b)
{
    static const CostModel models[] = { COST_SEIDEL, COST_POSTAL };
    for (size_t mi = 0; mi < 2; mi++) {
        CostParams p;
        cost_defaults(&p, models[mi]);
        char err[256];
        Sim *sa = sim_run(a, &p, SIM_HISTORY, err, sizeof err);
        Sim *sb = sim_run(b, &p, SIM_HISTORY, err, sizeof err);
        assert_non_null(sa);
        assert_non_null(sb);
        simcmp_runs(sa, sb);   /* every field, link loads, violations, holdings */
        sim_free(sa);
        sim_free(sb);
    }
}

static AlgoDef *load(const char *path, bool rules)
{
    mc_strided_rules = rules;   /* (read by the child, forked now) */
    char err[1024];
    AlgoDef *owned = NULL;
    if (!script_algo(path, NULL, &owned, err, sizeof err))
        fail_msg("%s: %s", path, err);
    mc_strided_rules = true;
    return owned;
}

static Sched *build(const AlgoDef *d, const Net *net, int32_t source, int nu, char *err,
                    size_t errlen)
{
    AlgoArgs a;
    algo_args_init(&a, d);
    a.source = source;
    a.nu = nu;
    a.bytes = 4096;
    return algo_build(d, net, &a, err, errlen);
}

/* One script on every net: rules against stored; how many steps had rule blocks. */
static int64_t compare_script(const char *path)
{
    static const char *const nets[] = { "array:16", "array:64", "array:12", "ring:16",
                                        "mesh:8x8", "mesh:4x16", "torus:8x4", "mesh:4x4x4" };
    AlgoDef *ds = load(path, false), *dr = load(path, true);
    int64_t ruled = 0;
    for (size_t ni = 0; ni < sizeof nets / sizeof nets[0]; ni++) {
        Net *net = mknet(nets[ni]);
        for (int nu = 0; nu < 2; nu++) {
            for (int32_t source = 0; source < 7; source += 5) {
                char what[256], es[1024] = "", er[1024] = "";
                snprintf(what, sizeof what, "%s on %s from %d, nu %d", path, nets[ni],
                         (int)source, nu);
                Sched *s = build(ds, net, source, nu, es, sizeof es);
                Sched *r = build(dr, net, source, nu, er, sizeof er);
                if (!s || !r) {
                    if (s || r)
                        fail_msg("%s: one side built: [%s] [%s]", what, es, er);
                    assert_string_equal(es, er);
                    continue;
                }
                same_transfers(r, s, what);
                same_sims(r, s);
                for (int32_t st = 0; st < sched_nsteps(r); st++) {
                    assert_int_equal(sched_step_nrules(s, st), 0);
                    ruled += sched_step_nrules(r, st) > 0;
                }
                sched_free(s);
                sched_free(r);
            }
        }
        net_free(net);
    }
    algo_release(ds);
    algo_release(dr);
    return ruled;
}

static void test_every_script(void **state)
{
    (void)state;
    DIR *dir = opendir("scripts");
    assert_non_null(dir);
    int nscripts = 0;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".lua") != 0)
            continue;
        char path[600];
        snprintf(path, sizeof path, "scripts/%s", e->d_name);
        int64_t ruled = compare_script(path);
        /* the scripts that batch their sends: their blocks are rules */
        if (strcmp(e->d_name, "st.lua") == 0 || strcmp(e->d_name, "st-mesh.lua") == 0 ||
            strcmp(e->d_name, "bst.lua") == 0)
            if (ruled == 0)
                fail_msg("%s: no step of rule blocks", path);
        nscripts++;
    }
    closedir(dir);
    assert_true(nscripts >= 10);
}

static void test_every_shape(void **state)
{
    (void)state;
    assert_true(compare_script("tests/lua/ok_strided.lua") > 0);
}

/* st.lua on array:1024: each step one tree step (sched_send_tree, for the simulator's fast
 * paths); st-mesh.lua on mesh:32x32: each step one block, its 32 rows merged. */
static void test_blocks_kept(void **state)
{
    (void)state;
    AlgoDef *d = load("scripts/st.lua", true);
    Net *net = mknet("array:1024");
    char err[1024];
    for (int32_t source = 0; source < 1024; source += 333) {
        Sched *s = build(d, net, source, 0, err, sizeof err);
        assert_non_null(s);
        assert_int_equal(sched_nsteps(s), 10);
        for (int32_t st = 0; st < 10; st++)
            assert_true(sched_step_is_tree(s, st));
        sched_free(s);
    }
    net_free(net);
    algo_release(d);
    d = load("scripts/st-mesh.lua", true);
    net = mknet("mesh:32x32");
    Sched *s = build(d, net, 37, 0, err, sizeof err);
    assert_non_null(s);
    assert_int_equal(sched_nsteps(s), 10);
    for (int32_t st = 0; st < 10; st++)
        assert_true(sched_step_is_tree(s, st));
    sched_free(s);
    net_free(net);
    algo_release(d);
}

int main(int argc, char **argv)
{
    (void)argc;
    if (!srctree_enter(argv[0], "scripts/st.lua"))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_script),
        cmocka_unit_test(test_every_shape),
        cmocka_unit_test(test_blocks_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
