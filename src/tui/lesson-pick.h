/* lesson-pick.h — one line of the lesson picker (o): the lesson's name, its title, how many
 * pages, and the student's progress so far ("st-array  The ST broadcast on a linear array
 * (11 pages; seen 4, right at the first try 3 of 11)").  The name comes first, up to two
 * spaces: lesson_pick_name gives it back. */
#ifndef MESHCAST_TUI_LESSON_PICK_H
#define MESHCAST_TUI_LESSON_PICK_H

#include <stddef.h>

void lesson_pick_line(const char *name, char *out, size_t len);
/* The lesson name at the start of a picker line (cut in place). */
char *lesson_pick_name(char *line);

#endif
