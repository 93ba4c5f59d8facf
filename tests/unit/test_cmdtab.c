/* test_cmdtab.c — the screen's `:` commands come from one table (src/tui/cmdtab.h): every
 * entry dispatches, is on the help screen (whole: wrapped, never cut) and completes; no command
 * is documented or dispatched outside it; repeated Tab cycles through the candidates. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "srctree.h"

#include "../../src/script/setup.h"
#include "../../src/tui/app-core.h"
#include "../../src/tui/cmdtab.h"
#include "../../src/tui/helptext.h"

static App *open_app(void)
{
    App *a = app_new();
    assert_non_null(a);
    SetupSpec spec = {.net = "mesh:8x8", .algo = "st"};
    if (!app_set_spec(a, &spec)) fail_msg("mesh:8x8 st: %s", a->msg);
    app_layout(a, 160, 40);
    return a;
}

static int cols(const char *s)
{
    int c = 0;
    for (; *s; s++) c += ((unsigned char)*s & 0xC0) != 0x80;
    return c;
}

/* Every name and alias finds its own entry; a word that is no command finds none. */
static void test_find(void **state)
{
    (void)state;
    size_t n = 0;
    const CmdtabCmd *t = cmdtab_all(&n);
    assert_true(n >= 20);
    for (size_t i = 0; i < n; i++) {
        assert_ptr_equal(cmdtab_find(t[i].name), &t[i]);
        assert_non_null(t[i].run);
        assert_non_null(t[i].help[0].text);
        for (const char *const *al = t[i].aliases; al && *al; al++)
            assert_ptr_equal(cmdtab_find(*al), &t[i]);
    }
    assert_null(cmdtab_find("frobnicate"));
    assert_null(cmdtab_find(""));
}

/* Every entry dispatches: run with no words (or, for the ones that act without words, as
 * they are), the message is never "unknown command"; a word not in the table is refused. */
static void test_dispatch(void **state)
{
    (void)state;
    size_t n = 0;
    const CmdtabCmd *t = cmdtab_all(&n);
    for (size_t i = 0; i < n; i++) {
        App *a = open_app();
        a->msg[0] = '\0';
        char line[80];
        snprintf(line, sizeof line, "%s zz-no-such", t[i].name);   /* no side effects (:exec) */
        cmdtab_run(a, line);
        if (strstr(a->msg, "unknown command")) fail_msg(":%s: %s", t[i].name, a->msg);
        app_free(a);
    }
    App *a = open_app();
    assert_false(app_command(a, "frobnicate"));
    assert_non_null(strstr(a->msg, "unknown command 'frobnicate'"));
    /* some of them for what they do */
    assert_true(app_command(a, "step 3"));
    assert_int_equal(a->b.pos, 3);
    assert_false(app_command(a, "step"));
    assert_true(app_command(a, "help"));
    assert_int_equal(a->mode, MODE_HELP);
    assert_false(a->quit);
    assert_true(app_command(a, "q!"));
    assert_true(a->quit);
    app_free(a);
}

/* The help rows: every command's every help line is there, its keys ":NAME ARGS" and its
 * text whole (the wrapped rows joined give it back), no row wider than its column, at the
 * widths of a 200-column and an 80-column screen. */
static void test_help(void **state)
{
    (void)state;
    static const int textw[] = {61, 53, 20};
    size_t n = 0;
    const CmdtabCmd *t = cmdtab_all(&n);
    for (int wi = 0; wi < 3; wi++) {
        size_t nr = 0;
        HelpRow *r = helptext_rows(18, textw[wi], &nr);
        assert_non_null(r);
        for (size_t k = 0; k < nr; k++) {
            assert_true(cols(r[k].text) <= textw[wi]);
            if (r[k].text[0]) assert_true(cols(r[k].keys) <= 18);
        }
        for (size_t i = 0; i < n; i++)
            for (int j = 0; j < 2 && t[i].help[j].text; j++) {
                char keys[64];
                snprintf(keys, sizeof keys, ":%s%s%s", t[i].name, *t[i].help[j].args ? " " : "",
                         t[i].help[j].args);
                size_t k = 0;
                while (k < nr && strcmp(r[k].keys, keys) != 0) k++;
                if (k == nr) fail_msg("'%s' is not on the help screen", keys);
                /* the text: on the keys' row (or the next, when the keys stand alone), then
                 * on the continuation rows (no keys) */
                char joined[600] = "";
                if (!r[k].text[0]) k++;
                do {
                    size_t l = strlen(joined);
                    snprintf(joined + l, sizeof joined - l, "%s%s", l ? " " : "", r[k].text);
                    k++;
                } while (k < nr && r[k].keys[0] == '\0');
                assert_string_equal(joined, t[i].help[j].text);
            }
        /* no command documented outside the table: every help row naming a `:` command
         * names one of the table */
        for (size_t k = 0; k < nr; k++) {
            if (r[k].keys[0] != ':' || r[k].keys[1] == '\0') continue;
            char w[64];
            sscanf(r[k].keys + 1, "%63s", w);
            if (!cmdtab_find(w)) fail_msg("help names ':%s', which is not in the table", w);
        }
        free(r);
    }
}

/* Every name completes: its first letter then Tab puts it on the line or lists it. */
static void test_complete_names(void **state)
{
    (void)state;
    size_t n = 0;
    const CmdtabCmd *t = cmdtab_all(&n);
    App *a = open_app();
    for (size_t i = 0; i < n; i++) {
        a->mode = MODE_CMDLINE;
        snprintf(a->cmd, sizeof a->cmd, "%.1s", t[i].name);
        a->cmdlen = strlen(a->cmd);
        app_cmdline_complete(a, 1);
        bool found = false;
        char want[80];
        snprintf(want, sizeof want, "%s ", t[i].name);
        if (strcmp(a->cmd, want) == 0) found = true;
        for (size_t k = 0; k < a->ncomp && !found; k++) found = strcmp(a->comp[k], t[i].name) == 0;
        if (!found) fail_msg("'%.1s' Tab: neither '%s' on the line nor listed", t[i].name, t[i].name);
        app_cmdline_complete_clear(a);
    }
    app_free(a);
}

/* Repeated Tab cycles: ":fit " lists the four fits (written out here, setup's words), each
 * further Tab puts the next on the line, around; S-Tab goes back; another key ends it. */
static void test_cycle(void **state)
{
    (void)state;
    static const char *const fits[] = {"companions", "virtual", "none", "auto"};
    App *a = open_app();
    app_key(a, ":");
    assert_int_equal(a->mode, MODE_CMDLINE);
    const char *typed[] = {"f", "i", "t", "<Space>"};
    for (int i = 0; i < 4; i++) app_key(a, typed[i]);
    assert_string_equal(a->cmd, "fit ");
    app_key(a, "<Tab>");
    assert_string_equal(a->cmd, "fit ");
    assert_int_equal(a->ncomp, 4);
    for (int i = 0; i < 4; i++) assert_string_equal(a->comp[i], fits[i]);
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < 4; i++) {
            app_key(a, "<Tab>");
            char want[64];
            snprintf(want, sizeof want, "fit %s", fits[i]);
            assert_string_equal(a->cmd, want);
            assert_int_equal(a->comp_at, i);
        }
    app_key(a, "<S-Tab>");
    assert_string_equal(a->cmd, "fit none");
    app_key(a, "<Backspace>");
    assert_null(a->comp);
    assert_string_equal(a->cmd, "fit non");
    app_key(a, "<Tab>");   /* one match: completed with a space, nothing listed */
    assert_string_equal(a->cmd, "fit none ");
    assert_null(a->comp);
    app_key(a, "<Escape>");
    app_free(a);
}

int main(int argc, char **argv)
{
    (void)argc;
    srctree_enter(argv[0], "scripts/st.lua");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_find),
        cmocka_unit_test(test_dispatch),
        cmocka_unit_test(test_help),
        cmocka_unit_test(test_complete_names),
        cmocka_unit_test(test_cycle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
