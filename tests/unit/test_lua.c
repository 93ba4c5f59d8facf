/* test_lua.c — the Lua layer from C: script_algo resolution and search path, the Lua ST/BST
 * equal to the built-ins (sched_equal) on every array size 2..64 and every source, the API
 * fixture, refusals (sandbox, budget, memory cap, wrong shape, stale handles), the builder's
 * messages naming file, line and step. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../src/algos/algo.h"
#include "../../src/engine/sim.h"
#include "../../src/script/lua-sandbox.h"

#include <lauxlib.h>
#include "../../src/script/script.h"
#include "srctree.h"
#include "mknet.h"

static char root[4096];

static AlgoDef *load(const char *path)
{
    char err[1024];
    AlgoDef *owned = NULL;
    const AlgoDef *d = script_algo(path, NULL, &owned, err, sizeof err);
    if (!d)
        fail_msg("%s: %s", path, err);
    assert_non_null(owned);
    assert_ptr_equal(d, owned);
    return owned;
}

/* Load must fail with a message containing want. */
static void load_fails(const char *path, const char *want)
{
    char err[1024] = "";
    AlgoDef *owned = NULL;
    const AlgoDef *d = script_algo(path, NULL, &owned, err, sizeof err);
    if (d) {
        algo_release(owned);
        fail_msg("%s loaded, expected a refusal", path);
    }
    assert_null(owned);
    if (!strstr(err, want))
        fail_msg("%s: message [%s] lacks [%s]", path, err, want);
}

/* Build must fail with a message containing want (and name the file). */
static void build_fails(const char *path, const char *spec, const char *want)
{
    AlgoDef *d = load(path);
    Net *net = mknet(spec);
    AlgoArgs a;
    algo_args_init(&a, d);
    char err[1024] = "";
    Sched *s = algo_build(d, net, &a, err, sizeof err);
    if (s) {
        sched_free(s);
        fail_msg("%s built, expected a failure", path);
    }
    if (!strstr(err, want) || !strstr(err, path))
        fail_msg("%s: message [%s] lacks [%s] or the file name", path, err, want);
    net_free(net);
    algo_release(d);
}

static void test_resolve(void **state)
{
    (void)state;
    char err[512];
    AlgoDef *owned = (AlgoDef *)1;
    Net *net = mknet("array:8");
    const AlgoDef *d = script_algo("st", net, &owned, err, sizeof err);
    assert_non_null(d);
    assert_null(owned);
    assert_string_equal(d->name, "st");
    d = script_algo("nosuch-algo", net, &owned, err, sizeof err);
    assert_null(d);
    assert_non_null(strstr(err, "unknown algorithm 'nosuch-algo'"));
    d = script_algo("scripts/st.lua", net, &owned, err, sizeof err);
    assert_non_null(d);
    assert_ptr_equal(d, owned);
    assert_string_equal(d->name, "st-lua");
    assert_true(d->flags & ALGO_POW2);
    algo_release(owned);
    d = script_algo("scripts/no-such-file.lua", net, &owned, err, sizeof err);
    assert_null(d);
    assert_non_null(strstr(err, "cannot open"));
    net_free(net);
}

static void test_search_path(void **state)
{
    (void)state;
    char err[512], dir[4200], path[4300], cwd[4096];
    AlgoDef *owned = NULL;
    snprintf(dir, sizeof dir, "/tmp/meshcast-test-lua-%d", (int)getpid());
    mkdir(dir, 0700);
    snprintf(path, sizeof path, "%s/zz-local.lua", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("return { name = 'zz-local', nets = { 'array' }, build = function() end }\n", f);
    fclose(f);
    /* not found from ./ implicitly */
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(dir), 0);
    unsetenv("MESHCAST_PATH");
    assert_null(script_algo("zz-local", NULL, &owned, err, sizeof err));
    assert_non_null(strstr(err, "unknown algorithm"));
    /* "." on MESHCAST_PATH is ignored too */
    setenv("MESHCAST_PATH", ".", 1);
    assert_null(script_algo("zz-local", NULL, &owned, err, sizeof err));
    /* found on $MESHCAST_PATH */
    setenv("MESHCAST_PATH", dir, 1);
    const AlgoDef *d = script_algo("zz-local", NULL, &owned, err, sizeof err);
    assert_non_null(d);
    assert_string_equal(d->name, "zz-local");
    algo_release(owned);
    /* an explicit ./ path is fine */
    d = script_algo("./zz-local.lua", NULL, &owned, err, sizeof err);
    assert_non_null(d);
    algo_release(owned);
    assert_int_equal(chdir(cwd), 0);
    /* the shipped scripts through $MESHCAST_PATH = the source tree (scripts/NAME.lua) */
    setenv("MESHCAST_PATH", root, 1);
    d = script_algo("knomial", NULL, &owned, err, sizeof err);
    assert_non_null(d);
    assert_string_equal(d->name, "knomial");
    algo_release(owned);
    char *p = box_find("lessons", "st-array");
    assert_non_null(p);
    free(p);
    unsetenv("MESHCAST_PATH");
    unlink(path);
    rmdir(dir);
}

/* The Lua schedule equals the built-in's on every array size 2..64, every source, nu 0 and 1
 * (sizes that are not powers of two go through the same Section 5 fit for both). */
static void same_as_builtin(const char *builtin, const char *script)
{
    AlgoDef *lua = load(script);
    int compared = 0;
    for (int n = 2; n <= 64; n++) {
        char spec[32];
        snprintf(spec, sizeof spec, "array:%d", n);
        Net *net = mknet(spec);
        const AlgoDef *c = algo_find(builtin, net);
        assert_non_null(c);
        for (int nu = 0; nu <= 1; nu++) {
            for (int src = 0; src < n; src++) {
                AlgoArgs ac, al;
                algo_args_init(&ac, c);
                algo_args_init(&al, lua);
                ac.source = al.source = src;
                ac.nu = al.nu = nu;
                ac.bytes = al.bytes = 4096;
                char e1[512] = "", e2[512] = "";
                Sched *sc = algo_build(c, net, &ac, e1, sizeof e1);
                Sched *sl = algo_build(lua, net, &al, e2, sizeof e2);
                if (!sc) {
                    /* where the built-in refuses (nu too large, no fit), so must the script */
                    if (sl)
                        fail_msg("%s: %s refuses (%s) but %s builds", spec, builtin, e1, script);
                    continue;
                }
                if (!sl)
                    fail_msg("%s source %d nu %d: %s failed: %s", spec, src, nu, script, e2);
                if (!sched_equal(sc, sl))
                    fail_msg("%s source %d nu %d: %s differs from the built-in %s", spec, src,
                             nu, script, builtin);
                double pc, pl;
                CostParams p;
                cost_defaults(&p, COST_SEIDEL);
                p.nu = nu;
                bool hc = algo_predict(c, net, &ac, &p, &pc);
                bool hl = algo_predict(lua, net, &al, &p, &pl);
                assert_int_equal(hc, hl);
                if (hc)
                    assert_float_equal(pc, pl, 1e-9 * (pc > 1 ? pc : 1));
                compared++;
                sched_free(sc);
                sched_free(sl);
            }
        }
        net_free(net);
    }
    assert_true(compared > 2000);
    algo_release(lua);
}

static void test_st_equals_builtin(void **state)
{
    (void)state;
    same_as_builtin("st", "scripts/st.lua");
}

static void test_bst_equals_builtin(void **state)
{
    (void)state;
    same_as_builtin("bst", "scripts/bst.lua");
}

/* Every shipped script verifies on a few nets from every source. */
static void test_shipped_verify(void **state)
{
    (void)state;
    static const struct { const char *file, *nets[4]; } cases[] = {
        {"scripts/st.lua", {"array:16", "array:11", NULL}},
        {"scripts/bst.lua", {"array:16", "array:13", NULL}},
        {"scripts/st-mesh.lua", {"mesh:4x8", "mesh:2x2x4", "torus:4x4", NULL}},
        {"scripts/knomial.lua", {"array:10", "mesh:3x5", "torus:4x4", NULL}},
        {"scripts/scatter-allgather.lua", {"array:9", "ring:8", "mesh:4x4", NULL}},
        {"scripts/ring-pipeline.lua", {"ring:7", "ring:8", "array:6", NULL}},
        {"tests/lua/api.lua", {"array:5", "ring:6", "mesh:3x4", "torus:3x3"}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        AlgoDef *d = load(cases[i].file);
        for (int j = 0; j < 4 && cases[i].nets[j]; j++) {
            Net *net = mknet(cases[i].nets[j]);
            for (int32_t src = 0; src < net_size(net); src++) {
                AlgoArgs a;
                algo_args_init(&a, d);
                a.source = src;
                char err[1024];
                Sched *s = algo_build(d, net, &a, err, sizeof err);
                if (!s)
                    fail_msg("%s on %s source %d: %s", cases[i].file, cases[i].nets[j], src,
                             err);
                CostParams p;
                cost_defaults(&p, COST_SEIDEL);
                Sim *sim = sim_run(s, &p, 0, err, sizeof err);
                assert_non_null(sim);
                if (!sim_totals(sim)->verified)
                    fail_msg("%s on %s source %d: not verified", cases[i].file,
                             cases[i].nets[j], src);
                sim_free(sim);
                sched_free(s);
            }
            net_free(net);
        }
        algo_release(d);
    }
}

static void test_refusals(void **state)
{
    (void)state;
    load_fails("tests/lua/bad_io_open.lua", "io.open is not available in the meshcast sandbox");
    load_fails("tests/lua/bad_dump.lua", "string.dump is not available");
    load_fails("tests/lua/bad_bytecode.lua", "binary chunks (bytecode) are refused");
    load_fails("tests/lua/bad_require.lua", "only require \"meshcast\"");
    load_fails("tests/lua/bad_shape.lua", "needs name =");
    load_fails("tests/lua/bad_shape2.lua", "nets must be a list of net kinds");
    build_fails("tests/lua/bad_os_execute.lua", "array:4",
                "os.execute is not available in the meshcast sandbox");
    build_fails("tests/lua/bad_build_error.lua", "array:4",
                "tests/lua/bad_build_error.lua:10: in build, step 3: attempt to index a nil");
    build_fails("tests/lua/bad_send_args.lua", "array:8",
                "bad_send_args.lua:6: in build, step 2: send: node 99 is outside array:8");
    build_fails("tests/lua/bad_gmeta.lua", "array:4", "in build");
}

static void test_budget_and_memory(void **state)
{
    (void)state;
    setenv("MESHCAST_LUA_INSTRUCTIONS", "2000000", 1);
    build_fails("tests/lua/bad_loop.lua", "array:4", "stopped: instruction budget");
    unsetenv("MESHCAST_LUA_INSTRUCTIONS");
    setenv("MESHCAST_LUA_MEMORY", "16", 1);
    build_fails("tests/lua/bad_alloc.lua", "array:4", "stopped: memory cap of 16 MiB exceeded");
    unsetenv("MESHCAST_LUA_MEMORY");
}

/* A handle kept past its call fails loudly; the def stays usable for the next build. */
static void test_stale_handle(void **state)
{
    (void)state;
    AlgoDef *d = load("tests/lua/bad_stale_handle.lua");
    Net *net = mknet("array:4");
    AlgoArgs a;
    algo_args_init(&a, d);
    char err[1024];
    Sched *s = algo_build(d, net, &a, err, sizeof err);
    assert_non_null(s);
    sched_free(s);
    assert_null(algo_build(d, net, &a, err, sizeof err));
    assert_non_null(strstr(err, "in chunks: this schedule is no longer being built"));
    net_free(net);
    algo_release(d);
}

/* Parameters: declared names, --set through algo_args_set, ranges. */
static void test_params(void **state)
{
    (void)state;
    AlgoDef *d = load("scripts/knomial.lua");
    assert_int_equal(d->nparams, 1);
    assert_string_equal(d->params[0].name, "k");
    assert_float_equal(d->params[0].def, 3, 0);
    AlgoArgs a;
    algo_args_init(&a, d);
    char err[256];
    assert_int_equal(algo_args_set(&a, d, "k", "4", err, sizeof err), 0);
    assert_int_equal(algo_args_set(&a, d, "k", "99", err, sizeof err), -2);
    assert_int_equal(algo_args_set(&a, d, "zz", "1", err, sizeof err), -1);
    Net *net = mknet("array:16");
    Sched *s = algo_build(d, net, &a, err, sizeof err);
    assert_non_null(s);
    assert_int_equal(sched_nsteps(s), 2);   /* 4^2 = 16 */
    sched_free(s);
    net_free(net);
    algo_release(d);
}

/* The sandbox from C: the one protected call, its messages and traceback, print capture, the
 * libraries that are (not) there. */
static char printed[256];
static void capture(const char *name, const char *text, void *ud)
{
    (void)ud;
    snprintf(printed, sizeof printed, "%s|%s", name, text);
}

static bool run_lua(LuaBox *b, const char *code, const char *phase, char *err, size_t errlen)
{
    lua_State *L = box_state(b);
    if (luaL_loadbufferx(L, code, strlen(code), "=snippet", "t") != LUA_OK) {
        snprintf(err, errlen, "%s", lua_tostring(L, -1));
        lua_pop(L, 1);
        return false;
    }
    return box_call(b, 0, 0, phase, err, errlen);
}

static void test_box_direct(void **state)
{
    (void)state;
    char err[512];
    LuaBox *b = box_new("direct.lua", err, sizeof err);
    assert_non_null(b);
    /* a nested error names the line and the phase; the traceback is kept */
    assert_false(run_lua(b, "local function f() error('deep') end\nf()", "build", err,
                         sizeof err));
    assert_string_equal(err, "snippet:1: in build: deep");
    assert_non_null(strstr(box_traceback(b), "stack traceback"));
    /* a non-string error object */
    assert_false(run_lua(b, "error({})", "chunks", err, sizeof err));
    assert_non_null(strstr(err, "in chunks: (error object is a table value)"));
    /* the phase "load" adds no context; error(msg, 0) has no position: the box name is used */
    assert_false(run_lua(b, "error('plain', 0)", "load", err, sizeof err));
    assert_string_equal(err, "direct.lua: plain");
    /* what is there and what is not */
    assert_true(run_lua(b, "assert(string and table and math and utf8)\n"
                           "assert(io == nil or not pcall(function() return io.open end))\n"
                           "assert(not pcall(function() return os.remove end))\n"
                           "assert(not pcall(function() return debug.getinfo end))\n"
                           "assert(not pcall(dofile, 'x'))\n"
                           "assert(not pcall(require, 'io'))\n"
                           "assert(require('meshcast').range(0, 3):count() == 4)\n"
                           "assert(math.random(1, 1000000) == math.random(1, 1000000) or true)",
                        "build", err, sizeof err));
    /* print goes to the handler */
    box_set_print_handler(capture, NULL);
    assert_true(run_lua(b, "print('hello', 42)", "build", err, sizeof err));
    assert_string_equal(printed, "direct.lua|hello\t42");
    box_set_print_handler(NULL, NULL);
    /* the state survives errors: a later call works */
    assert_true(run_lua(b, "x = 1 + 1", "build", err, sizeof err));
    box_free(b);
    /* reproducible random numbers: two boxes draw the same */
    LuaBox *b1 = box_new("r1", err, sizeof err), *b2 = box_new("r2", err, sizeof err);
    assert_true(run_lua(b1, "R = math.random(1, 1 << 30)", "build", err, sizeof err));
    assert_true(run_lua(b2, "R = math.random(1, 1 << 30)", "build", err, sizeof err));
    lua_getglobal(box_state(b1), "R");
    lua_getglobal(box_state(b2), "R");
    assert_int_equal(lua_tointeger(box_state(b1), -1), lua_tointeger(box_state(b2), -1));
    box_free(b1);
    box_free(b2);
}

int main(int argc, char **argv)
{
    (void)argc;
    /* run from the source tree: the binary is build-san/tests/unit/test_lua */
    if (!srctree_enter(argv[0], "scripts/st.lua"))
        return 2;
    if (!getcwd(root, sizeof root))
        return 2;
    unsetenv("MESHCAST_PATH");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resolve),          cmocka_unit_test(test_search_path),
        cmocka_unit_test(test_st_equals_builtin), cmocka_unit_test(test_bst_equals_builtin),
        cmocka_unit_test(test_shipped_verify),   cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_budget_and_memory), cmocka_unit_test(test_stale_handle),
        cmocka_unit_test(test_params),           cmocka_unit_test(test_box_direct),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
