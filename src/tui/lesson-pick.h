/* lesson-pick.h — the lines of the lesson picker (o), in the course's order (course.h): a
 * heading per track ("== Seidel: ..."), then one line per lesson: its name, its title, how
 * many pages, and the student's progress so far ("st-array  The ST broadcast on a linear array
 * (11 pages; seen 4, right at the first try 3 of 11)").  The name comes first, up to two
 * spaces: lesson_pick_name gives it back.  A heading cannot be chosen. */
#ifndef MESHCAST_TUI_LESSON_PICK_H
#define MESHCAST_TUI_LESSON_PICK_H

#include <stdbool.h>
#include <stddef.h>

#define LESSON_PICK_HEADING "=="

void lesson_pick_line(const char *name, char *out, size_t len);
void lesson_pick_heading(const char *title, char *out, size_t len);
bool lesson_pick_is_heading(const char *line);
/* The lesson name at the start of a picker line (cut in place). */
char *lesson_pick_name(char *line);

#endif
