/* test_profile.c — machine profiles (profile.h): parsing, refusals with FILE:LINE and the
 * nearest key, applying to the model in use, lookup order (user before shipped), and
 * setup_make's order (defaults < profile < --set). */
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

#include "../../src/script/profile.h"
#include "../../src/script/setup.h"

static Profile *parse(const char *text, char *err, size_t errlen)
{
    return profile_parse(text, strlen(text), "/x/m.profile", err, errlen);
}

static void test_parse_apply(void **state)
{
    (void)state;
    char err[400] = "";
    Profile *p = parse("# a machine\n"
                       "about = A test machine   # trailing comment\n"
                       "\n"
                       "seidel.a = 0.5\r\n"
                       "  seidel.b=12  \n"
                       "postal.t = 3\n"
                       "circuit.delta = 0.25\n"
                       "fit.error = 4.1%\n",
                       err, sizeof err);
    assert_non_null(p);
    assert_string_equal(profile_name(p), "m");            /* basename without .profile */
    assert_string_equal(profile_about(p), "A test machine");
    const char *k, *v;
    assert_true(profile_entry(p, 4, &k, &v));
    assert_string_equal(k, "fit.error");
    assert_string_equal(v, "4.1%");
    assert_false(profile_entry(p, 5, &k, &v));

    CostParams c;
    cost_defaults(&c, COST_SEIDEL);
    assert_int_equal(profile_apply(p, &c), 2);           /* only seidel.* under seidel */
    assert_true(c.a == 0.5 && c.b == 12 && c.rho == 0.01);
    cost_defaults(&c, COST_POSTAL);
    assert_int_equal(profile_apply(p, &c), 1);
    assert_true(c.t == 3 && c.beta == 1);
    cost_defaults(&c, COST_CIRCUIT);
    assert_int_equal(profile_apply(p, &c), 1);
    assert_true(c.delta == 0.25 && c.alpha == 1);
    cost_defaults(&c, COST_SAF);
    assert_int_equal(profile_apply(p, &c), 0);
    profile_free(p);

    p = parse("name = paragon\n", err, sizeof err);
    assert_non_null(p);
    assert_string_equal(profile_name(p), "paragon");
    profile_free(p);
}

/* Each bad file is refused with the file, the line number and the reason. */
static void test_refusals(void **state)
{
    (void)state;
    static const struct {
        const char *text, *want;
    } bad[] = {
        {"seidel.a = 1\nseidl.a = 2\n", "/x/m.profile:2: unknown key 'seidl.a' (nearest: seidel.a"},
        {"\n\nsiedel.b = 75\n", "/x/m.profile:3: unknown key 'siedel.b' (nearest: seidel.b"},
        {"postal.alpha = 1\n", ":1: unknown key 'postal.alpha' (nearest: postal.beta"},
        {"cirquit.tau = 1\n", ":1: unknown key 'cirquit.tau' (nearest: circuit.tau"},
        {"seidel.a = fast\n", ":1: seidel.a: "},
        {"seidel.a = -1\n", ":1: seidel.a: "},
        {"seidel.nu = 99\n", ":1: seidel.nu: "},
        {"seidel.a = 1\nseidel.a = 2\n", ":2: 'seidel.a' given twice"},
        {"seidel.a\n", ":1: expected KEY = VALUE"},
        {"seidel.a =\n", ":1: missing value for 'seidel.a'"},
        {"= 3\n", ":1: missing key"},
        {"name = a/b\n", ":1: bad name"},
        {"about = \x01\n", ":1: not UTF-8 text"},
        {"about = \xff\xfe\n", ":1: not UTF-8 text"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[400] = "";
        Profile *p = parse(bad[i].text, err, sizeof err);
        if (p || !strstr(err, bad[i].want))
            fail_msg("case %zu: got '%s', wanted '%s'", i, err, bad[i].want);
        profile_free(p);
    }
    /* a line too long, a NUL byte */
    char big[PROFILE_LINE_MAX + 40];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    char err[400] = "";
    assert_null(parse(big, err, sizeof err));
    assert_non_null(strstr(err, ":1: line longer than"));
    assert_null(profile_parse("about = a\0b\n", 12, "f", err, sizeof err));
    assert_non_null(strstr(err, "f:1: a NUL byte"));
    char *huge = calloc(PROFILE_FILE_MAX + 2, 1);
    assert_non_null(huge);
    memset(huge, '\n', PROFILE_FILE_MAX + 1);
    assert_null(profile_parse(huge, PROFILE_FILE_MAX + 1, "f", err, sizeof err));
    assert_non_null(strstr(err, "larger than"));
    free(huge);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* User profiles ($XDG_CONFIG_HOME/meshcast/profiles) come before shipped ones, a name with
 * a '/' is a path, and setup_make puts the profile between the defaults and --set. */
static void test_lookup_and_setup(void **state)
{
    (void)state;
    char dir[] = "/tmp/mc-profile-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char sub[300], path[400];
    snprintf(sub, sizeof sub, "%s/meshcast", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    snprintf(sub, sizeof sub, "%s/meshcast/profiles", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    snprintf(path, sizeof path, "%s/mine.profile", sub);
    write_file(path, "about = mine\nseidel.a = 0.5\nseidel.b = 20\n");
    setenv("XDG_CONFIG_HOME", dir, 1);

    char found[512], err[400] = "";
    assert_true(profile_find("mine", found, sizeof found));
    assert_string_equal(found, path);
    assert_false(profile_find("nosuch", found, sizeof found));
    Profile *p = profile_load("no such", err, sizeof err);
    assert_null(p);
    assert_non_null(strstr(err, "bad profile name"));
    p = profile_load("nosuch", err, sizeof err);
    assert_null(p);
    assert_non_null(strstr(err, "no profile 'nosuch'"));

    char *names[16];
    size_t n = profile_list(names, 16);
    bool seen = false;
    for (size_t i = 0; i < n; i++) {
        seen |= strcmp(names[i], "mine") == 0;
        free(names[i]);
    }
    assert_true(seen);

    const char *sets[] = {"b=33"};
    SetupSpec spec = {.net = "mesh:4x4", .algo = "st", .profile = "mine"};
    Setup s;
    assert_true(setup_make(&spec, &s, err, sizeof err));
    assert_true(s.cost.a == 0.5 && s.cost.b == 20);
    setup_free(&s);
    spec.sets = sets;
    spec.nsets = 1;
    assert_true(setup_make(&spec, &s, err, sizeof err));
    assert_true(s.cost.a == 0.5 && s.cost.b == 33);     /* --set wins over the profile */
    setup_free(&s);
    spec.profile = path;                                 /* a path */
    assert_true(setup_make(&spec, &s, err, sizeof err));
    assert_true(s.cost.a == 0.5);
    setup_free(&s);
    write_file(path, "about = mine\nseidel.q = 1\n");
    spec.profile = "mine";
    assert_false(setup_make(&spec, &s, err, sizeof err));
    char want[500];
    snprintf(want, sizeof want, "%s:2: unknown key 'seidel.q'", path);
    assert_non_null(strstr(err, want));

    unlink(path);
    snprintf(path, sizeof path, "%s/meshcast/profiles", dir);
    rmdir(path);
    snprintf(path, sizeof path, "%s/meshcast", dir);
    rmdir(path);
    rmdir(dir);
    unsetenv("XDG_CONFIG_HOME");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_apply),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_lookup_and_setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
