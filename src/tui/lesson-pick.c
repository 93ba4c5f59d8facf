/* lesson-pick.c — one line of the lesson picker (see lesson-pick.h). */
#include "lesson-pick.h"

#include <stdio.h>
#include <string.h>

#include "../script/lesson.h"

void lesson_pick_line(const char *name, char *out, size_t len)
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

char *lesson_pick_name(char *line)
{
    char *sp = strstr(line, "  ");
    if (sp) *sp = '\0';
    return line;
}
