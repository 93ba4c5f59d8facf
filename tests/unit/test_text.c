/* test_text.c — what reaches the terminal (src/engine/text.h): text_quote hides C0, DEL, C1
 * and broken UTF-8; text_terminal_safe keeps only the sequences that draw (a replayed
 * recording cannot rename the window, set the clipboard, reset the terminal or make it answer
 * on our input). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/engine/text.h"

static void test_quote(void **state)
{
    (void)state;
    char b[64];
    assert_string_equal(text_quote("a\033]0;x\007b", 40, b, sizeof b), "a?]0;x?b");
    assert_string_equal(text_quote("c1 \xc2\x9b" "31m", 40, b, sizeof b), "c1 ??31m");
    assert_string_equal(text_quote("bad \xff\xfe utf", 40, b, sizeof b), "bad ?? utf");
    assert_string_equal(text_quote("\xc3\xa9t\xc3\xa9 \xe2\x96\xa0", 40, b, sizeof b),
                        "\xc3\xa9t\xc3\xa9 \xe2\x96\xa0");   /* é, ■ pass */
    assert_string_equal(text_quote("\xc2\xa0nbsp", 40, b, sizeof b), "\xc2\xa0nbsp");
    assert_true(text_is_clean("plain \xc3\xa9"));
    assert_false(text_is_clean("esc \033"));
    assert_false(text_is_clean("c1 \xc2\x85"));
    assert_false(text_is_clean("bad \xc3"));
}

static const char *safe(const char *in)
{
    static char out[512];
    size_t n = text_terminal_safe(in, strlen(in), out);
    out[n] = '\0';
    return out;
}

static void test_terminal_safe(void **state)
{
    (void)state;
    /* kept: text, SGR, cursor movement, erase, save/restore, the cursor and alt-screen modes */
    const char *draw = "\033[H\033[2J\033[1;31mred\033[0m\r\n\033[3;4H\xe2\x96\xa0\033[K"
                       "\0337\033[?25l\033[?25h\0338\033[?1049h\033(0q\033(B";
    assert_string_equal(safe(draw), draw);
    /* dropped: OSC title (BEL and ST ends), clipboard, DCS, APC, reset, DSR, DA, window ops,
     * mouse and paste modes, C1 CSI, BEL, other controls, broken UTF-8 */
    assert_string_equal(safe("a\033]0;pwned\007b"), "ab");
    assert_string_equal(safe("a\033]2;pwned\033\\b"), "ab");
    assert_string_equal(safe("a\033]52;c;cm0gLXJmIH4=\007b"), "ab");
    assert_string_equal(safe("a\033Pq#0;2;0;0;0\033\\b"), "ab");
    assert_string_equal(safe("a\033_apc\033\\b"), "ab");
    assert_string_equal(safe("a\033cb"), "ab");
    assert_string_equal(safe("a\033[6nb"), "ab");
    assert_string_equal(safe("a\033[cb\033[>cc"), "abc");
    assert_string_equal(safe("a\033[21tb\033[8;100;100tc"), "abc");
    assert_string_equal(safe("a\033[?1000h\033[?1006h\033[?2004hb"), "ab");
    assert_string_equal(safe("a\xc2\x9b" "6nb"), "a6nb");
    assert_string_equal(safe("a\007\001\177b\xff"), "ab");
    assert_string_equal(safe("a\033[2 qb"), "ab");   /* an intermediate byte */
    /* cut short: an unfinished sequence at the end is dropped, and nothing is read past n */
    assert_string_equal(safe("a\033["), "a");
    assert_string_equal(safe("a\033]0;never ends"), "a");
    assert_string_equal(safe("a\033"), "a");
    char out[8];
    assert_int_equal(text_terminal_safe("\xe2\x96", 2, out), 0);
}

/* Edit distances worked by hand; the nearest name only when it is a likely misspelling. */
static void test_nearest(void **state)
{
    (void)state;
    assert_int_equal(text_edit_distance("chunk", "chunks"), 1);     /* one insertion */
    assert_int_equal(text_edit_distance("parms", "params"), 1);
    assert_int_equal(text_edit_distance("kitten", "sitting"), 3);   /* k->s, e->i, +g */
    assert_int_equal(text_edit_distance("", "abc"), 3);
    assert_int_equal(text_edit_distance("same", "same"), 0);
    assert_int_equal(text_edit_distance("nets", "nest"), 2);        /* no transpositions */
    static const char *const names[] = {"name", "nets", "chunks", "params", "predict", NULL};
    assert_string_equal(text_nearest("chunk", names), "chunks");
    assert_string_equal(text_nearest("parms", names), "params");
    assert_string_equal(text_nearest("predikt", names), "predict");
    assert_null(text_nearest("frobnicate", names));   /* far from every name */
    assert_null(text_nearest("x", names));            /* distance >= its length: no guess */
    assert_null(text_nearest("chunk", NULL));
}

static void test_did_you_mean(void **state)
{
    (void)state;
    static const char *const names[] = {"st", "bst", "rh", "chain", NULL};
    char buf[64];
    assert_string_equal(text_did_you_mean("chian", names, buf, sizeof buf),
                        " (did you mean 'chain'?)");   /* two substitutions */
    assert_string_equal(text_did_you_mean("zzzzzz", names, buf, sizeof buf), "");
    assert_string_equal(text_did_you_mean(NULL, names, buf, sizeof buf), "");
    static const char *const odd[] = {"ab\x1b[2J", NULL};   /* a name is quoted too */
    assert_string_equal(text_did_you_mean("ab\x1b[2", odd, buf, sizeof buf),
                        " (did you mean 'ab?[2J'?)");
    char small[8];   /* cut, never past the buffer */
    text_did_you_mean("chian", names, small, sizeof small);
    assert_int_equal(strlen(small), sizeof small - 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_quote),
        cmocka_unit_test(test_terminal_safe),
        cmocka_unit_test(test_nearest),
        cmocka_unit_test(test_did_you_mean),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
