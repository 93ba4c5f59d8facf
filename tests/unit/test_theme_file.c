/* test_theme_file.c — a theme file is read a whole line at a time (issue 24 finding 7): a
 * comment over 255 bytes is one line (its tail is not parsed as another), an error names the
 * line it is on, a FIFO is refused without waiting, a huge file is refused. */
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

#include "../../src/tui/theme.h"

static char dir[64];

static void put_theme(const char *name, const char *text)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s.theme", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_long_lines(void **state)
{
    (void)state;
    char comment[1200] = "# ";
    memset(comment + 2, 'x', 1000);
    strcpy(comment + 1002, " title 1 2\n");   /* what a 255-byte cut would read as a line */
    put_theme("longc", comment);
    char err[300] = "";
    assert_true(theme_check("longc", err, sizeof err));

    char two[1400];
    snprintf(two, sizeof two, "%stitle 1 2 sparkly\n", comment);
    put_theme("bad2", two);
    assert_false(theme_check("bad2", err, sizeof err));
    assert_non_null(strstr(err, "bad2.theme:2: unknown attribute 'sparkly'"));

    /* a long line that is not a comment: one line, and an error on it says line 1 */
    char role[1200] = "title 1 2";
    memset(role + 9, ' ', 600);
    strcpy(role + 609, "bold\n");
    put_theme("spaced", role);
    assert_true(theme_check("spaced", err, sizeof err));
}

static void test_not_files(void **state)
{
    (void)state;
    char path[128], err[300] = "";
    snprintf(path, sizeof path, "%s/fifo.theme", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    assert_false(theme_check("fifo", err, sizeof err));   /* refused, not waited on */
    assert_true(err[0] != '\0');
    unlink(path);
    snprintf(path, sizeof path, "%s/huge.theme", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fclose(f);
    assert_int_equal(truncate(path, 2 << 20), 0);
    assert_false(theme_check("huge", err, sizeof err));
    assert_non_null(strstr(err, "over 1 MiB"));
    unlink(path);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/test_theme.XXXXXX");
    if (!mkdtemp(dir)) return 1;
    setenv("MESHCAST_ASSETS", dir, 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_long_lines),
        cmocka_unit_test(test_not_files),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) rc = 1;
    return rc;
}
