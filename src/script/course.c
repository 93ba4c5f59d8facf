/* course.c — the course file: tracks of lessons in order (see course.h). */
#include "course.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lesson.h"
#include "lua-sandbox.h"

#define COURSE_MAXTRACKS 32

struct Course {
    char *path;
    char *titles[COURSE_MAXTRACKS];
    size_t ntracks;
    char *lessons[COURSE_MAXLESSONS];   /* the course's own, in order */
    size_t track[COURSE_MAXLESSONS];
    int line[COURSE_MAXLESSONS];        /* where each is named, for course_check */
    size_t nlessons;
    char *extra[COURSE_MAXLESSONS];     /* on the search path, not in the course */
    size_t nextra;
};

void course_free(Course *c)
{
    if (!c) return;
    free(c->path);
    for (size_t i = 0; i < c->ntracks; i++) free(c->titles[i]);
    for (size_t i = 0; i < c->nlessons; i++) free(c->lessons[i]);
    for (size_t i = 0; i < c->nextra; i++) free(c->extra[i]);
    free(c);
}

Course *course_none(void)
{
    Course *c = calloc(1, sizeof *c);
    if (c && !(c->path = strdup(""))) {
        free(c);
        c = NULL;
    }
    return c;
}

/* The first DIR/lessons/course over the search path, malloc'd, or NULL. */
static char *course_find(void)
{
    char *dirs[32], *found = NULL;
    size_t nd = box_search_dirs(dirs, 32);
    for (size_t i = 0; i < nd; i++) {
        char p[PATH_MAX + 32];
        snprintf(p, sizeof p, "%s/lessons/course", dirs[i]);
        if (!found && access(p, R_OK) == 0) found = strdup(p);
        free(dirs[i]);
    }
    return found;
}

bool course_is_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return false;
    char head[32] = "";
    bool yes = fgets(head, sizeof head, f) && strncmp(head, "meshcast-course", 15) == 0;
    fclose(f);
    return yes;
}

static bool good_name(const char *s)
{
    if (!*s || *s == '.') return false;
    for (; *s; s++)
        if (!(*s == '-' || *s == '_' || *s == '.' || (*s >= 'a' && *s <= 'z') ||
              (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
            return false;
    return true;
}

/* One line of the file (without its newline): false with the reason in err. */
static bool course_line(Course *c, char *s, int ln, char *err, size_t errlen)
{
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) s[--n] = '\0';
    if (!*s || *s == '#') return true;
    if (strncmp(s, "track", 5) == 0 && (s[5] == ' ' || s[5] == '\t' || !s[5])) {
        char *t = s + 5;
        while (*t == ' ' || *t == '\t') t++;
        if (!*t)
            return snprintf(err, errlen, "%s:%d: a track needs a title", c->path, ln), false;
        if (c->ntracks == COURSE_MAXTRACKS)
            return snprintf(err, errlen, "%s:%d: more than %d tracks", c->path, ln,
                            COURSE_MAXTRACKS), false;
        c->titles[c->ntracks++] = strdup(t);
        return true;
    }
    if (!good_name(s))
        return snprintf(err, errlen, "%s:%d: '%.60s' is not a lesson name (letters, digits, "
                        "- and _) nor 'track TITLE'", c->path, ln, s), false;
    if (c->ntracks == 0)
        return snprintf(err, errlen, "%s:%d: lesson '%.60s' before the first 'track TITLE'",
                        c->path, ln, s), false;
    for (size_t i = 0; i < c->nlessons; i++)
        if (strcmp(c->lessons[i], s) == 0)
            return snprintf(err, errlen, "%s:%d: lesson '%.60s' is named twice (line %d)",
                            c->path, ln, s, c->line[i]), false;
    if (c->nlessons == COURSE_MAXLESSONS)
        return snprintf(err, errlen, "%s:%d: more than %d lessons", c->path, ln,
                        COURSE_MAXLESSONS), false;
    c->track[c->nlessons] = c->ntracks - 1;
    c->line[c->nlessons] = ln;
    c->lessons[c->nlessons++] = strdup(s);
    return true;
}

Course *course_load(const char *path, char *err, size_t errlen)
{
    Course *c = calloc(1, sizeof *c);
    if (!c) return snprintf(err, errlen, "out of memory"), NULL;
    c->path = path ? strdup(path) : course_find();
    if (!c->path) {
        if (path) return course_free(c), snprintf(err, errlen, "out of memory"), NULL;
        c->path = strdup("");   /* no course: every lesson is "not in the course" */
        return c;
    }
    FILE *f = fopen(c->path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot read course %s", c->path);
        return course_free(c), NULL;
    }
    char line[512];
    bool ok = fgets(line, sizeof line, f) && strncmp(line, "meshcast-course 1", 17) == 0;
    if (!ok) snprintf(err, errlen, "%s:1: not a course file (it starts 'meshcast-course 1')",
                      c->path);
    for (int ln = 2; ok && fgets(line, sizeof line, f); ln++) {
        line[strcspn(line, "\n")] = '\0';
        ok = course_line(c, line, ln, err, errlen);
    }
    fclose(f);
    if (ok && c->nlessons == 0) {
        snprintf(err, errlen, "%s: names no lesson", c->path);
        ok = false;
    }
    return ok ? c : (course_free(c), NULL);
}

const char *course_path(const Course *c) { return c ? c->path : ""; }
size_t course_ntracks(const Course *c) { return c ? c->ntracks : 0; }
const char *course_track_title(const Course *c, size_t t)
{
    return c && t < c->ntracks ? c->titles[t] : "Not in the course";
}

size_t course_order(Course *c, const char **names, size_t *track, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < c->nlessons && n < max; i++, n++) {
        names[n] = c->lessons[i];
        track[n] = c->track[i];
    }
    if (c->nextra == 0) {   /* the search path, once */
        char *all[COURSE_MAXLESSONS];
        size_t na = lesson_list(all, COURSE_MAXLESSONS);
        for (size_t i = 0; i < na; i++) {
            bool in = false;
            for (size_t k = 0; k < c->nlessons && !in; k++) in = strcmp(all[i], c->lessons[k]) == 0;
            if (in) free(all[i]);
            else c->extra[c->nextra++] = all[i];
        }
    }
    for (size_t i = 0; i < c->nextra && n < max; i++, n++) {
        names[n] = c->extra[i];
        track[n] = c->ntracks;
    }
    return n;
}

const char *course_next(const Course *c, const char *id)
{
    for (size_t i = 0; c && id && i + 1 < c->nlessons; i++)
        if (strcmp(c->lessons[i], id) == 0) return c->lessons[i + 1];
    return NULL;
}

bool course_check(const Course *c, char *err, size_t errlen)
{
    for (size_t i = 0; i < c->nlessons; i++) {
        char *p = box_find("lessons", c->lessons[i]);
        if (!p) {
            snprintf(err, errlen, "%s:%d: no lesson '%s' on the search path (lessons/%s.lua)",
                     c->path, c->line[i], c->lessons[i], c->lessons[i]);
            return false;
        }
        free(p);
        char e[600];
        Lesson *l = lesson_load(c->lessons[i], e, sizeof e);
        if (!l) {
            snprintf(err, errlen, "%s:%d: lesson '%s': %s", c->path, c->line[i],
                     c->lessons[i], e);
            return false;
        }
        lesson_free(l);
    }
    return true;
}

void course_lesson_line(const char *name, char *out, size_t len)
{
    char err[300];
    Lesson *l = lesson_load(name, err, sizeof err);
    if (!l) {   /* still listed, so that opening it shows what is wrong */
        snprintf(out, len, "%s  (cannot load: %s)", name, err);
        return;
    }
    LessonProgress p;
    bool any = lesson_progress_load(l, &p);
    LessonScore sc;
    lesson_score(l, &p, &sc);
    if (any && sc.seen)
        snprintf(out, len, "%s  %s  (%zu pages; seen %zu, right at the first try %zu of %zu)",
                 name, lesson_title(l), lesson_npages(l), sc.seen, sc.first_right,
                 sc.questions);
    else
        snprintf(out, len, "%s  %s  (%zu pages, %zu questions; not started)", name,
                 lesson_title(l), lesson_npages(l), sc.questions);
    lesson_free(l);
}
