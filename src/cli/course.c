/* course.c — `meshcast course [FILE] [--json]` and `meshcast progress [--json]
 * [--reset [LESSON]]`: the course in its order (course.h), and the student's progress over it,
 * read from the progress store (lesson.h), as a summary a teacher can collect.
 *
 * Per lesson: pages, pages seen, questions, questions answered (at least once), answered right
 * at the first try, right in the end, and the score: the percentage of its questions answered
 * right at the first try (rounded down; 0 for a lesson without questions).  The totals add
 * them up (the total score over all questions).  The JSON fields are documented in
 * docs/writing-lessons.md ("Progress") and stay stable.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/export.h"
#include "../engine/text.h"
#include "../script/course.h"
#include "../script/lesson.h"
#include "cli-opts.h"
#include "cli-out.h"
#include "commands.h"

/* One lesson of the course with its progress (l NULL: it cannot be loaded, err says why). */
typedef struct {
    const char *name;
    size_t track;
    Lesson *l;
    char err[300];
    LessonProgress p;
    LessonScore sc;
} Row;

static unsigned score_pct(size_t right, size_t questions)
{
    return questions ? (unsigned)(100 * right / questions) : 0;
}

static Row *rows_load(Course *c, size_t *n)
{
    const char *names[COURSE_MAXLESSONS];
    size_t track[COURSE_MAXLESSONS];
    *n = course_order(c, names, track, COURSE_MAXLESSONS);
    Row *r = calloc(*n ? *n : 1, sizeof *r);
    for (size_t i = 0; r && i < *n; i++) {
        r[i].name = names[i];
        r[i].track = track[i];
        r[i].l = lesson_load(names[i], r[i].err, sizeof r[i].err);
        lesson_progress_load(r[i].l, &r[i].p);
        lesson_score(r[i].l, &r[i].p, &r[i].sc);
    }
    return r;
}

static void rows_free(Row *r, size_t n)
{
    for (size_t i = 0; r && i < n; i++) lesson_free(r[i].l);
    free(r);
}

static void json_counts(JsonOut *j, size_t pages, const LessonScore *s)
{
    json_key(j, "pages"); json_uint(j, pages);
    json_key(j, "seen"); json_uint(j, s->seen);
    json_key(j, "questions"); json_uint(j, s->questions);
    json_key(j, "answered"); json_uint(j, s->answered);
    json_key(j, "first_try_right"); json_uint(j, s->first_right);
    json_key(j, "right"); json_uint(j, s->right);
    json_key(j, "score"); json_uint(j, score_pct(s->first_right, s->questions));
}

static const char *qkind_name(LessonQKind k)
{
    return k == LESSON_Q_CHOICE ? "choice" : k == LESSON_Q_NODE ? "node"
         : k == LESSON_Q_LINK ? "link" : "try";
}

static const char *verdict(int8_t v) { return v > 0 ? "right" : v < 0 ? "wrong" : NULL; }

/* A lesson's object: id, title, track, the counts and (answers) each question's answers. */
static void json_row(JsonOut *j, const Course *c, const Row *r, bool answers)
{
    json_begin_object(j);
    json_key(j, "id"); json_str(j, r->name);
    json_key(j, "track");
    json_str(j, r->track < course_ntracks(c) ? course_track_title(c, r->track) : NULL);
    if (!r->l) {
        json_key(j, "error"); json_str(j, r->err);
        json_end_object(j);
        return;
    }
    json_key(j, "title"); json_str(j, lesson_title(r->l));
    json_counts(j, lesson_npages(r->l), &r->sc);
    if (answers) {
        json_key(j, "answers");
        json_begin_array(j);
        for (size_t i = 0; i < lesson_npages(r->l) && i < 256; i++) {
            const LessonPage *pg = lesson_page(r->l, i);
            if (pg->qkind == LESSON_Q_NONE) continue;
            json_begin_object(j);
            json_key(j, "page"); json_uint(j, i + 1);
            json_key(j, "kind"); json_str(j, qkind_name(pg->qkind));
            json_key(j, "first"); json_str(j, verdict(r->p.first[i]));
            json_key(j, "last"); json_str(j, verdict(r->p.answer[i]));
            json_end_object(j);
        }
        json_end_array(j);
    }
    json_end_object(j);
}

static void total_add(LessonScore *t, size_t *pages, const Row *r)
{
    if (!r->l) return;
    *pages += lesson_npages(r->l);
    t->seen += r->sc.seen;
    t->questions += r->sc.questions;
    t->answered += r->sc.answered;
    t->first_right += r->sc.first_right;
    t->right += r->sc.right;
}

static void text_row(const Row *r, int tw)
{
    char q[120];
    if (!r->l) {
        printf("  %-20s (cannot load: %s)\n", r->name, text_quote(r->err, 100, q, sizeof q));
        return;
    }
    const LessonScore *s = &r->sc;
    printf("  %-20s %-*s %3zu pages  ", r->name, tw,
           text_quote(lesson_title(r->l), (size_t)tw, q, sizeof q), lesson_npages(r->l));
    if (s->seen == 0 && s->answered == 0)
        printf("not started\n");
    else
        printf("seen %zu, right at the first try %zu of %zu\n", s->seen, s->first_right,
               s->questions);
}

static int course_usage(void)
{
    puts("usage: meshcast course [COURSE-FILE] [--json]\n"
         "The lessons in the course's order (lessons/course on the search path, or the file\n"
         "given): each track's title, then its lessons with their title, pages and your\n"
         "progress; lessons on the search path the course does not name come last.\n"
         "--json: {\"course\", \"tracks\": [{\"title\", \"lessons\": [...]}], \"others\": [...]}.");
    return 0;
}

int cmd_course(int argc, char **argv)
{
    bool json = false;
    const char *file = NULL;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) json = true;
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return course_usage();
        else if (argv[i][0] == '-' || file) {
            cli_error("course: unexpected '%s' (meshcast course [COURSE-FILE] [--json])", argv[i]);
            return 2;
        } else file = argv[i];
    }
    char err[600];
    Course *c = course_load(file, err, sizeof err);
    if (!c) {
        cli_error("course: %s", err);
        return 2;
    }
    size_t n;
    Row *r = rows_load(c, &n);
    if (json) {
        JsonOut j;
        json_init(&j, stdout, true);
        json_begin_object(&j);
        json_key(&j, "course"); json_str(&j, course_path(c));
        json_key(&j, "tracks");
        json_begin_array(&j);
        for (size_t t = 0; t < course_ntracks(c); t++) {
            json_begin_object(&j);
            json_key(&j, "title"); json_str(&j, course_track_title(c, t));
            json_key(&j, "lessons");
            json_begin_array(&j);
            for (size_t i = 0; i < n; i++)
                if (r[i].track == t) json_row(&j, c, &r[i], false);
            json_end_array(&j);
            json_end_object(&j);
        }
        json_end_array(&j);
        json_key(&j, "others");
        json_begin_array(&j);
        for (size_t i = 0; i < n; i++)
            if (r[i].track >= course_ntracks(c)) json_row(&j, c, &r[i], false);
        json_end_array(&j);
        json_end_object(&j);
        putchar('\n');
    } else {
        char q[200];
        int tw = 10;   /* the titles' column: the longest, up to 64 */
        for (size_t i = 0; i < n; i++)
            if (r[i].l && (int)strlen(lesson_title(r[i].l)) > tw)
                tw = (int)strlen(lesson_title(r[i].l));
        if (tw > 64) tw = 64;
        if (course_ntracks(c))
            printf("Course %s: %zu tracks\n", text_quote(course_path(c), 150, q, sizeof q),
                   course_ntracks(c));
        else
            printf("No course file on the search path (lessons/course): the lessons by name\n");
        for (size_t i = 0; i < n && !cli_out_failed(); i++) {
            if (i == 0 || r[i].track != r[i - 1].track) {
                if (r[i].track < course_ntracks(c))
                    printf("\n%zu. %s\n", r[i].track + 1, course_track_title(c, r[i].track));
                else
                    printf("\n%s\n", course_ntracks(c) ? "Not in the course" : "Lessons");
            }
            text_row(&r[i], tw);
        }
    }
    /* a lesson the course names that cannot be loaded: the listing above marks it; one line
     * here, and the course is not passed as sound (as `check` refuses it) */
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        if (!r[i].l && r[i].track < course_ntracks(c)) {
            char q[200];
            cli_error("course: %s names lesson '%s', which cannot be loaded: %s",
                      text_quote(course_path(c), 150, q, sizeof q), r[i].name, r[i].err);
            rc = 1;
        }
    rows_free(r, n);
    course_free(c);
    return rc;
}

/* `list lessons`: one line per lesson in the course's order (course_lesson_line). */
void course_list_lessons(void)
{
    char err[600];
    Course *c = course_load(NULL, err, sizeof err);
    if (!c) {
        cli_error("%s (the lessons by name)", err);
        c = course_none();
    }
    const char *names[COURSE_MAXLESSONS];
    size_t track[COURSE_MAXLESSONS];
    size_t n = c ? course_order(c, names, track, COURSE_MAXLESSONS) : 0;
    if (n == 0)
        printf("(no lessons found on the search path)\n");
    for (size_t i = 0; i < n && !cli_out_failed(); i++) {
        char line[700], q[720];
        course_lesson_line(names[i], line, sizeof line);
        printf("%s\n", text_quote(line, 700, q, sizeof q));
    }
    course_free(c);
}

static int progress_reset(const char *lesson)
{
    char err[400];
    if (lesson) {
        int k = lesson_progress_clear(lesson, err, sizeof err);
        if (k < 0) {
            cli_error("progress: %s", err);
            return 2;
        }
        printf(k ? "progress of %s cleared\n" : "no progress of %s to clear\n", lesson);
        return 0;
    }
    Course *c = course_load(NULL, err, sizeof err);
    if (!c) c = course_none();
    const char *names[COURSE_MAXLESSONS];
    size_t track[COURSE_MAXLESSONS], cleared = 0;
    size_t n = c ? course_order(c, names, track, COURSE_MAXLESSONS) : 0;
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        int k = lesson_progress_clear(names[i], err, sizeof err);
        if (k < 0) {
            cli_error("progress: %s", err);
            rc = 2;
        }
        cleared += k > 0;
    }
    printf("progress cleared: %zu of %zu lessons had some\n", cleared, n);
    course_free(c);
    return rc;
}

static int progress_usage(void)
{
    puts("usage: meshcast progress [--json]\n"
         "       meshcast progress --reset [LESSON]\n"
         "Your progress over the course (from $XDG_STATE_HOME/meshcast/progress): per lesson\n"
         "the pages seen, the questions answered, right at the first try, right in the end,\n"
         "and the score (percent of its questions right at the first try); then the totals.\n"
         "--json: the same with each question's first and last answer, to hand in.\n"
         "--reset LESSON forgets one lesson's progress; --reset alone, every lesson's.");
    return 0;
}

int cmd_progress(int argc, char **argv)
{
    bool json = false, reset = false;
    const char *lesson = NULL;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) json = true;
        else if (strcmp(argv[i], "--reset") == 0) reset = true;
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return progress_usage();
        else if (argv[i][0] != '-' && reset && !lesson) lesson = argv[i];
        else {
            cli_error("progress: unexpected '%s' (meshcast progress [--json] | --reset "
                      "[LESSON])", argv[i]);
            return 2;
        }
    }
    if (reset && json) {
        cli_error("progress: --reset and --json do not go together");
        return 2;
    }
    if (reset) return progress_reset(lesson);
    char err[600];
    Course *c = course_load(NULL, err, sizeof err);
    if (!c) {
        cli_error("progress: %s", err);
        return 2;
    }
    size_t n, pages = 0;
    Row *r = rows_load(c, &n);
    LessonScore tot = {0};
    for (size_t i = 0; i < n; i++) total_add(&tot, &pages, &r[i]);
    if (json) {
        JsonOut j;
        json_init(&j, stdout, true);
        json_begin_object(&j);
        json_key(&j, "format"); json_str(&j, "meshcast-progress 1");
        /* whose answers these are, for the teacher who collects them */
        const char *who = getenv("MESHCAST_STUDENT");
        if (!who || !*who) who = getenv("USER");
        json_key(&j, "student"); json_str(&j, who && *who ? who : NULL);
        json_key(&j, "lessons");
        json_begin_array(&j);
        for (size_t i = 0; i < n; i++) json_row(&j, c, &r[i], true);
        json_end_array(&j);
        json_key(&j, "total");
        json_begin_object(&j);
        json_key(&j, "lessons"); json_uint(&j, n);
        json_counts(&j, pages, &tot);
        json_end_object(&j);
        json_end_object(&j);
        putchar('\n');
    } else {
        printf("%-20s %5s %5s %9s %8s %9s %5s %5s\n", "lesson", "pages", "seen", "questions",
               "answered", "first-try", "right", "score");
        for (size_t i = 0; i < n && !cli_out_failed(); i++) {
            const LessonScore *s = &r[i].sc;
            if (!r[i].l) {
                printf("%-20s (cannot load)\n", r[i].name);
                continue;
            }
            printf("%-20s %5zu %5zu %9zu %8zu %9zu %5zu %4u%%\n", r[i].name,
                   lesson_npages(r[i].l), s->seen, s->questions, s->answered, s->first_right,
                   s->right, score_pct(s->first_right, s->questions));
        }
        printf("%-20s %5zu %5zu %9zu %8zu %9zu %5zu %4u%%\n", "total", pages, tot.seen,
               tot.questions, tot.answered, tot.first_right, tot.right,
               score_pct(tot.first_right, tot.questions));
    }
    rows_free(r, n);
    course_free(c);
    return 0;
}
