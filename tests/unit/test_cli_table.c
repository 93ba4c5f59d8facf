/* test_cli_table.c — the command table (src/cli/cli-table.h): well formed, found by name,
 * its option lists read right, and the hints it gives. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "../../src/cli/cli-table.h"

static void test_well_formed(void **state)
{
    (void)state;
    size_t n = cli_command_count();
    assert_true(n >= 15);
    assert_null(cli_command_at(n));
    for (size_t i = 0; i < n; i++) {
        const CliCommand *c = cli_command_at(i);
        assert_non_null(c->fn);
        assert_ptr_equal(cli_command_find(c->name), c);   /* names unique */
        /* every option "--name" or "--name=", each once */
        char seen[1024] = " ";
        for (const char *p = c->opts; *p;) {
            while (*p == ' ') p++;
            size_t l = strcspn(p, " ");
            if (!l) break;
            assert_true(l > 2 && p[0] == '-' && p[1] == '-' && p[2] != '-');
            char w[64];
            size_t b = l - (p[l - 1] == '=');
            snprintf(w, sizeof w, " %.*s ", (int)b, p);
            if (strstr(seen, w)) fail_msg("%s: %s twice", c->name[0] ? c->name : "screen", w);
            strncat(seen, w + 1, sizeof seen - strlen(seen) - 1);
            p += l;
        }
    }
    assert_non_null(cli_command_find(""));   /* the screen */
    assert_non_null(cli_command_find("run"));
    assert_null(cli_command_find("runn"));
}

static void test_opts_has(void **state)
{
    (void)state;
    int t = -1;
    assert_true(cli_opts_has("--net= --json --theme=", "--net", 5, &t));
    assert_int_equal(t, 1);
    assert_true(cli_opts_has("--net= --json --theme=", "--json", 6, &t));
    assert_int_equal(t, 0);
    assert_false(cli_opts_has("--net= --json", "--ne", 4, &t));     /* no prefix matches */
    assert_false(cli_opts_has("--net= --json", "--nets", 6, &t));
    assert_true(cli_opts_has(cli_display_opts, "--theme=light", 7, &t));   /* name part */
    assert_int_equal(t, 1);
}

static void test_hints(void **state)
{
    (void)state;
    char buf[96];
    assert_string_equal(cli_opt_hint("--bytes= --net=", "--byts=3", buf, sizeof buf),
                        " (did you mean '--bytes'?)");
    assert_string_equal(cli_opt_hint("--bytes= --net=", "--frobnicate", buf, sizeof buf), "");
    assert_string_equal(cli_command_hint("runn", buf, sizeof buf), " (did you mean 'run'?)");
    assert_string_equal(cli_command_hint("lesso", buf, sizeof buf), " (did you mean 'lesson'?)");
    /* the hidden command is never suggested */
    assert_string_equal(cli_command_hint("completee", buf, sizeof buf), "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_well_formed),
        cmocka_unit_test(test_opts_has),
        cmocka_unit_test(test_hints),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
