/* test_progress.c — the lesson progress file is written safely (issue 8, finding 4): through
 * a temporary file of its own, created exclusively in the target directory (never a fixed
 * NAME.tmp that another screen shares, never a symlink followed), then renamed; a state
 * directory whose path is too long is reported as too long. */
#include <dirent.h>
#include <limits.h>
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

#include "../../src/script/lesson.h"
#include "srctree.h"

static char base[64], dir[600], path[700];

static void write_file(const char *p, const char *text)
{
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

static void read_file(const char *p, char *buf, size_t len)
{
    FILE *f = fopen(p, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, len - 1, f);
    buf[n] = '\0';
    fclose(f);
}

static size_t count_entries(const char *d)
{
    DIR *dd = opendir(d);
    assert_non_null(dd);
    size_t n = 0;
    for (struct dirent *e; (e = readdir(dd));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(dd);
    return n;
}

static Lesson *setup_state(void)
{
    snprintf(base, sizeof base, "/tmp/meshcast-progress-XXXXXX");
    assert_non_null(mkdtemp(base));
    setenv("XDG_STATE_HOME", base, 1);
    snprintf(dir, sizeof dir, "%s/meshcast", base);
    assert_int_equal(mkdir(dir, 0700), 0);
    snprintf(dir, sizeof dir, "%s/meshcast/progress", base);
    assert_int_equal(mkdir(dir, 0700), 0);
    snprintf(path, sizeof path, "%s/st-array", dir);
    char err[512];
    Lesson *l = lesson_load("lessons/st-array.lua", err, sizeof err);
    assert_non_null(l);
    return l;
}

static void cleanup(Lesson *l)
{
    lesson_free(l);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
    assert_int_equal(system(cmd), 0);
    unsetenv("XDG_STATE_HOME");
}

static LessonProgress sample(const Lesson *l)
{
    LessonProgress p;
    memset(&p, 0, sizeof p);
    p.npages = lesson_npages(l);
    p.seen[0] = true;
    p.last_page = 1;
    return p;
}

/* Another screen's temporary file (the old fixed NAME.tmp) is not touched, and no temporary
 * file of ours is left behind. */
static void test_no_shared_temp(void **state)
{
    (void)state;
    Lesson *l = setup_state();
    char other[800], buf[256], err[512];
    snprintf(other, sizeof other, "%s.tmp", path);
    write_file(other, "the other screen's half-written progress\n");
    LessonProgress p = sample(l);
    assert_true(lesson_progress_save(l, &p, err, sizeof err));
    read_file(other, buf, sizeof buf);
    assert_string_equal(buf, "the other screen's half-written progress\n");
    assert_int_equal(count_entries(dir), 2);   /* st-array and the other screen's file */
    LessonProgress q;
    assert_true(lesson_progress_load(l, &q));
    assert_int_equal(q.last_page, 1);
    cleanup(l);
}

/* Symlinks planted where the temporary file or the progress file go are never followed: the
 * file they point to keeps its content. */
static void test_symlinks_not_followed(void **state)
{
    (void)state;
    Lesson *l = setup_state();
    char victim[700], tmp[800], buf[256], err[512];
    snprintf(victim, sizeof victim, "%s/victim", base);
    write_file(victim, "precious\n");
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    assert_int_equal(symlink(victim, tmp), 0);
    assert_int_equal(symlink(victim, path), 0);
    /* loading through a symlink: not followed, so no progress */
    LessonProgress q;
    assert_false(lesson_progress_load(l, &q));
    LessonProgress p = sample(l);
    assert_true(lesson_progress_save(l, &p, err, sizeof err));
    read_file(victim, buf, sizeof buf);
    assert_string_equal(buf, "precious\n");
    struct stat st;
    assert_int_equal(lstat(path, &st), 0);
    assert_true(S_ISREG(st.st_mode));          /* the link was replaced, not written through */
    assert_int_equal(st.st_mode & 0777, 0600);
    assert_true(lesson_progress_load(l, &q));
    assert_int_equal(q.last_page, 1);
    cleanup(l);
}

/* A failure is reported, with the reason, and leaves nothing behind. */
static void test_errors(void **state)
{
    (void)state;
    Lesson *l = setup_state();
    char err[512];
    LessonProgress p = sample(l);
    /* an over-long $XDG_STATE_HOME is too long, not unset */
    char longdir[PATH_MAX + 16];
    memset(longdir, 'a', sizeof longdir - 1);
    longdir[0] = '/';
    longdir[sizeof longdir - 1] = '\0';
    setenv("XDG_STATE_HOME", longdir, 1);
    assert_false(lesson_progress_save(l, &p, err, sizeof err));
    assert_non_null(strstr(err, "$XDG_STATE_HOME is too long"));
    assert_null(strstr(err, "not set"));
    /* a directory we may not write */
    setenv("XDG_STATE_HOME", base, 1);
    if (geteuid() != 0) {
        assert_int_equal(chmod(dir, 0500), 0);
        assert_false(lesson_progress_save(l, &p, err, sizeof err));
        assert_non_null(strstr(err, "Permission denied"));
        assert_int_equal(chmod(dir, 0700), 0);
    }
    assert_int_equal(count_entries(dir), 0);
    cleanup(l);
}

int main(int argc, char **argv)
{
    (void)argc;
    if (!srctree_enter(argv[0], "lessons/st-array.lua"))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_no_shared_temp),
        cmocka_unit_test(test_symlinks_not_followed),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
