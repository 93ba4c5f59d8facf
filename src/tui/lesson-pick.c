/* lesson-pick.c — the lesson picker's lines (see lesson-pick.h). */
#include "lesson-pick.h"

#include <stdio.h>
#include <string.h>

#include "../script/course.h"

void lesson_pick_line(const char *name, char *out, size_t len)
{
    course_lesson_line(name, out, len);
}

void lesson_pick_heading(const char *title, char *out, size_t len)
{
    snprintf(out, len, "%s %s", LESSON_PICK_HEADING, title);
}

bool lesson_pick_is_heading(const char *line)
{
    return strncmp(line, LESSON_PICK_HEADING " ", strlen(LESSON_PICK_HEADING) + 1) == 0;
}

char *lesson_pick_name(char *line)
{
    char *sp = strstr(line, "  ");
    if (sp) *sp = '\0';
    return line;
}
