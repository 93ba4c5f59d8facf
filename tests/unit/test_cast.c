/* test_cast.c — replay's reader and virtual terminal (src/tui/cast.h, vt.h): the grid a
 * recording draws, what is quoted instead of obeyed, and the screen at a marker drawn from the
 * last full frame before it (the bytes before that frame are never read again). */
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../src/tui/cast.h"
#include "../../src/tui/vt.h"

/* Row y of the grid as UTF-8, trailing blanks dropped. */
static const char *row(const Vt *vt, int y)
{
    static char s[4 * VT_MAX + 1];
    size_t n = 0, keep = 0;
    for (int x = 0; x < vt_width(vt); x++) {
        const VtCell *c = vt_cell(vt, y, x);
        if (c->attr & VT_CONT) continue;
        n += (size_t)vt_utf8(c->ch, s + n);
        if (c->ch != ' ') keep = n;
    }
    s[keep] = '\0';
    return s;
}

static void feed(Vt *vt, const char *s) { vt_feed(vt, s, strlen(s)); }

static void test_vt_draws(void **state)
{
    (void)state;
    Vt *vt = vt_new(10, 3);
    assert_non_null(vt);
    feed(vt, "ab\r\ncd\033[3;4Hx\033[1;38;5;200mY");
    assert_string_equal(row(vt, 0), "ab");
    assert_string_equal(row(vt, 1), "cd");
    assert_string_equal(row(vt, 2), "   xY");
    const VtCell *y = vt_cell(vt, 2, 4);
    assert_int_equal(y->fg, 200);
    assert_true(y->attr & VT_BOLD);
    assert_int_equal(vt_cell(vt, 2, 3)->fg, -1);
    /* autowrap at the last column, a scroll at the bottom */
    vt_reset(vt);
    feed(vt, "0123456789AB\r\nrow2\r\nrow3");
    assert_string_equal(row(vt, 0), "AB");
    assert_string_equal(row(vt, 1), "row2");
    assert_string_equal(row(vt, 2), "row3");
    /* a sequence split across two feeds is still one sequence */
    vt_reset(vt);
    feed(vt, "\033[");
    feed(vt, "2;2Hz");
    assert_string_equal(row(vt, 1), " z");
    vt_free(vt);
}

static void test_vt_quotes(void **state)
{
    (void)state;
    Vt *vt = vt_new(60, 2);
    /* modes, scroll regions, titles, resets, a C1 CSI, a BEL: drawn as text */
    feed(vt, "\033[?25l\033[2;5r\033]2;t\a\033c\xc2\x9b" "1m\x01");
    assert_string_equal(row(vt, 0), "^[[?25l^[[2;5r^[]2;t^G^[c?1m^A");
    vt_reset(vt);
    feed(vt, "\033[3Jk\033[4hi");   /* a scrollback wipe and insert mode are not drawing */
    assert_string_equal(row(vt, 0), "^[[3Jk^[[4hi");
    vt_reset(vt);
    feed(vt, "bad\xff\xc3(utf");
    assert_string_equal(row(vt, 0), "bad?" "?(utf");
    vt_free(vt);
}

static void test_vt_wide(void **state)
{
    (void)state;
    if (!setlocale(LC_CTYPE, "C.UTF-8")) skip();
    Vt *vt = vt_new(5, 2);
    feed(vt, "a\xe7\x95\x8c" "b");   /* a, U+754C (two columns), b */
    assert_int_equal(vt_cell(vt, 0, 1)->ch, 0x754C);
    assert_true(vt_cell(vt, 0, 2)->attr & VT_CONT);
    assert_int_equal(vt_cell(vt, 0, 3)->ch, 'b');
    feed(vt, "\033[1;3Hz");          /* over its right half: the left half goes too */
    assert_int_equal(vt_cell(vt, 0, 1)->ch, ' ');
    assert_int_equal(vt_cell(vt, 0, 2)->ch, 'z');
    vt_free(vt);
    setlocale(LC_CTYPE, "C");
}

static char *write_tmp(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/test_cast.XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    size_t n = strlen(text);
    assert_int_equal(write(fd, text, n), (ssize_t)n);
    close(fd);
    return path;
}

#define HDR "{\"version\": 2, \"width\": 20, \"height\": 2}\n"
#define FRAME "\\u001b[H\\u001b[2J"

static void test_cast_seek(void **state)
{
    (void)state;
    char text[] = HDR "[0.1, \"o\", \"" FRAME "OLD-FRAME\"]\n"
                      "[0.2, \"m\", \"step 0\"]\n"
                      "[0.3, \"o\", \"" FRAME "new\"]\n"
                      "[0.4, \"o\", \"er\"]\n"
                      "[0.5, \"m\", \"step 1\"]\n";
    char *path = write_tmp(text);
    char err[300];
    Cast *c = cast_open(path, err, sizeof err);
    assert_non_null(c);
    assert_int_equal(cast_nmarks(c), 2);
    assert_int_equal(cast_find(c, "step 1"), 1);
    Vt *vt = vt_new(cast_width(c), cast_height(c));
    assert_true(cast_render(c, 1, vt, err, sizeof err));
    assert_string_equal(row(vt, 0), "newer");
    /* spoil the first frame's bytes in place (same length): marker 1 is drawn from its own
     * frame and never reads them; marker 0 does, and says the file changed */
    FILE *f = fopen(path, "r+");
    assert_non_null(f);
    fseek(f, (long)strlen(HDR), SEEK_SET);
    fputs("XXXXXXXXXXXX", f);
    fclose(f);
    assert_true(cast_render(c, 1, vt, err, sizeof err));
    assert_string_equal(row(vt, 0), "newer");
    assert_false(cast_render(c, 0, vt, err, sizeof err));
    assert_non_null(strstr(err, "changed"));
    vt_free(vt);
    cast_free(c);
    unlink(path);
}

static void test_cast_refuses(void **state)
{
    (void)state;
    static const struct { const char *text, *want; } cases[] = {
        {"", "line 1: an empty file"},
        {"{\"version\": 1, \"width\": 2, \"height\": 2}\n", "line 1: no \"version\": 2"},
        {"{\"version\": 2, \"width\": 2}\n", "line 1: no whole \"width\""},
        {"{\"version\": 2, \"width\": 5000, \"height\": 2}\n", "larger than replay draws"},
        {"[1, 2]\n[0, \"o\", \"x\"]\n", "line 1: the header is not a JSON object"},
        {HDR "[0, \"o\", \"x\"]\n[0, \"o\", \"\\u12\"]\n", "line 3: not an event"},
        {HDR "\n\n[-1, \"o\", \"x\"]\n", "line 4: a negative time"},
        {HDR "[0, \"o\", \"x\"] junk\n", "line 2: not an event"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *path = write_tmp(cases[i].text);
        char err[300] = "";
        Cast *c = cast_open(path, err, sizeof err);
        if (c || !strstr(err, cases[i].want)) print_error("case %zu: [%s]\n", i, err);
        assert_null(c);
        assert_non_null(strstr(err, cases[i].want));
        unlink(path);
    }
    /* markers and no output; a BOM; blank lines; nested header values: all fine */
    char *path = write_tmp("\xEF\xBB\xBF{\"version\": 2, \"env\": {\"a\": [1, {\"b\": null}]}, "
                           "\"width\": 3, \"height\": 1, \"title\": \"\\ud83d\\ude00\"}\n\n"
                           "[0, \"m\", \"a\"]\n  \n[1e-3, \"m\", \"b\\u001b\"]\n\n");
    char err[300];
    Cast *c = cast_open(path, err, sizeof err);
    assert_non_null(c);
    assert_int_equal(cast_nmarks(c), 2);
    assert_string_equal(cast_label(c, 1), "b?");
    Vt *vt = vt_new(3, 1);
    assert_true(cast_render(c, 1, vt, err, sizeof err));
    assert_string_equal(row(vt, 0), "");
    vt_free(vt);
    cast_free(c);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vt_draws),
        cmocka_unit_test(test_vt_quotes),
        cmocka_unit_test(test_vt_wide),
        cmocka_unit_test(test_cast_seek),
        cmocka_unit_test(test_cast_refuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
