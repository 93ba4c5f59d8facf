/* test_setup.c — setup_make/setup_parse_bytes: what the CLI and the TUI command line accept
 * and refuse. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/script/setup.h"

static void test_bytes(void **state)
{
    (void)state;
    uint64_t v = 0;
    assert_true(setup_parse_bytes("1024", &v));
    assert_int_equal(v, 1024);
    assert_true(setup_parse_bytes("64K", &v));
    assert_int_equal(v, 65536);
    assert_true(setup_parse_bytes("1M", &v));
    assert_int_equal(v, 1048576);
    assert_true(setup_parse_bytes("2k", &v));
    assert_int_equal(v, 2048);
    const char *bad[] = {"", "0", "-5", "+5", " 5", "5 ", "5KB", "K", "1.5K", "abc",
                         "99999999999999999999", "17179869184G"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_false(setup_parse_bytes(bad[i], &v));
    assert_false(setup_parse_bytes(NULL, &v));
}

static bool make(const char *net, const char *algo, const char *source, const char *bytes,
                 const char *model, const char *set, Setup *s, char *err, size_t errlen)
{
    const char *sets[1] = {set};
    SetupSpec spec = {.net = net, .algo = algo, .source = source, .bytes = bytes,
                      .model = model, .sets = sets, .nsets = set ? 1 : 0};
    return setup_make(&spec, s, err, errlen);
}

static void test_defaults(void **state)
{
    (void)state;
    Setup s;
    char err[256];
    SetupSpec spec = {0};
    assert_true(setup_make(&spec, &s, err, sizeof err));
    assert_string_equal(net_spec(s.net), "mesh:8x8");
    assert_string_equal(s.def->name, "st");
    assert_int_equal(s.args.source, 0);
    assert_int_equal(s.args.bytes, 1024);
    assert_int_equal(s.cost.model, COST_SEIDEL);
    assert_null(s.owned);
    setup_free(&s);
}

static void test_values(void **state)
{
    (void)state;
    Setup s;
    char err[256];
    assert_true(make("mesh:4x8", "bst", "2,3", "4K", "postal", "b=10", &s, err, sizeof err));
    assert_int_equal(s.args.source, 2 * 8 + 3);
    assert_int_equal(s.args.bytes, 4096);
    assert_int_equal(s.cost.model, COST_POSTAL);
    assert_true(s.cost.b == 10);
    setup_free(&s);

    assert_true(make("array:16", "st", "5", NULL, NULL, "nu=1", &s, err, sizeof err));
    assert_int_equal(s.args.source, 5);
    assert_int_equal(s.cost.nu, 1);
    assert_int_equal(s.args.nu, 1);   /* nu is both a cost and a structural parameter */
    setup_free(&s);
}

static void test_refusals(void **state)
{
    (void)state;
    Setup s;
    char err[256];
    struct {
        const char *net, *algo, *source, *bytes, *model, *set, *want;
    } cases[] = {
        {"mesh:0x4", "st", NULL, NULL, NULL, NULL, "mesh:0x4"},
        {"cube:8", "st", NULL, NULL, NULL, NULL, "cube"},
        {"array:16", "nosuch", NULL, NULL, NULL, NULL, "nosuch"},
        {"array:16", "st", NULL, "-5", NULL, NULL, "-5"},
        {"array:16", "st", "99", NULL, NULL, NULL, "99"},
        {"mesh:4x4", "st", "4,0", NULL, NULL, NULL, "4,0"},
        {"array:16", "st", "x", NULL, NULL, NULL, "'x'"},
        {"array:4", "st", NULL, NULL, NULL, "nu=9", "nu"},
        {"array:16", "st", NULL, NULL, "nosuch", NULL, "nosuch"},
        {"array:16", "st", NULL, NULL, NULL, "frob=1", "frob"},
        {"array:16", "st", NULL, NULL, NULL, "=1", "NAME=VALUE"},
        {"array:16", "st", NULL, NULL, NULL, "a=", "NAME=VALUE"},
        {"array:16", "st", NULL, NULL, NULL, "a=x", "a"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        err[0] = '\0';
        memset(&s, 0x55, sizeof s);
        bool okay = make(cases[i].net, cases[i].algo, cases[i].source, cases[i].bytes,
                         cases[i].model, cases[i].set, &s, err, sizeof err);
        if (okay)
            fail_msg("case %zu accepted", i);
        if (!strstr(err, cases[i].want))
            fail_msg("case %zu: '%s' does not name '%s'", i, err, cases[i].want);
        assert_null(strchr(err, '\n'));
        assert_null(s.net);   /* nothing to free on failure */
        setup_free(&s);
    }
}

/* --set c=C: the channels per module of hxbar (the net is rebuilt with them, a later one wins
 * over the spec); a bad C, or c on a net without channels, is one line. */
static void test_channels(void **state)
{
    (void)state;
    Setup s;
    char err[256];
    assert_true(make("hxbar:4x8", "chain", NULL, NULL, NULL, "c=5", &s, err, sizeof err));
    assert_int_equal(net_hxbar_channels(s.net), 5);
    assert_string_equal(net_spec(s.net), "hxbar:4x8,c=5");
    setup_free(&s);
    assert_true(make("hxbar:4x8,c=1", "chain", NULL, NULL, NULL, "c=2", &s, err, sizeof err));
    assert_int_equal(net_hxbar_channels(s.net), 2);
    assert_int_equal(net_hxbar_modules(s.net), 4);
    assert_int_equal(net_hxbar_per(s.net), 8);
    setup_free(&s);
    const char *bad[] = {"c=0", "c=-1", "c=x", "c=1048577", "c=2x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_false(make("hxbar:4x8", "chain", NULL, NULL, NULL, bad[i], &s, err, sizeof err));
        assert_non_null(strstr(err, "c is the channels per module of hxbar, 1..1048576"));
        assert_null(strchr(err, '\n'));
    }
    assert_false(make("hxbar:4x8", "chain", NULL, NULL, NULL, "zz=2", &s, err, sizeof err));
    assert_non_null(strstr(err, "tau, gamma; c, the channels per module; parameters of chain"));
    assert_false(make("full:16", "chain", NULL, NULL, NULL, "c=2", &s, err, sizeof err));
    assert_string_equal(err, "--set c=C sets the channels per module of a hierarchical "
                             "crossbar (hxbar:AxB); full:16 has none");
}

static void test_fit(void **state)
{
    (void)state;
    Setup s;
    char err[256];
    const char *sets[1];
    SetupSpec spec = {.net = "array:16", .algo = "st", .fit = "sideways", .sets = sets};
    assert_false(setup_make(&spec, &s, err, sizeof err));
    assert_non_null(strstr(err, "sideways"));
    spec.fit = "none";
    assert_true(setup_make(&spec, &s, err, sizeof err));
    assert_int_equal(s.args.fit, FIT_NONE);
    setup_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bytes),     cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_values),    cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_fit),       cmocka_unit_test(test_channels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
