/* course.h — the course: the order the lessons are taken in, in titled tracks.
 *
 * A course file (docs/writing-lessons.md, "The course") is plain text:
 *
 *   meshcast-course 1
 *   # a comment
 *   track Seidel: broadcasting on linear arrays and meshes
 *   st-array
 *   bst-crossover
 *   track ...
 *
 * The shipped one is lessons/course; the first lessons/course on the search path
 * (lua-sandbox.h, box_search_dirs) is the course.  A lesson on the search path that the course
 * does not name is listed after it (course_order).
 *
 * Ownership: course_load returns a Course the caller frees with course_free; the strings it
 * hands out live as long as the Course.
 */
#ifndef MESHCAST_COURSE_H
#define MESHCAST_COURSE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct Course Course;

#define COURSE_MAXLESSONS 128

/* The course file: path, or NULL for the first lessons/course on the search path.  With NULL
 * and no course file anywhere, an empty course (no tracks).  NULL with the reason in err for
 * a file that cannot be read or is malformed ("FILE:LINE: ..."). */
Course *course_load(const char *path, char *err, size_t errlen);
void course_free(Course *c);
/* The empty course (every lesson "not in the course"); NULL only when out of memory. */
Course *course_none(void);

/* The file it was read from ("" for the empty course). */
const char *course_path(const Course *c);
size_t course_ntracks(const Course *c);
const char *course_track_title(const Course *c, size_t t);

/* Every lesson in course order — the course's lessons track by track, then each lesson on the
 * search path the course does not name, by name — into names (at most max, pointers owned by
 * c), each one's track index into track (course_ntracks(c) for one not in the course).
 * Returns how many. */
size_t course_order(Course *c, const char **names, size_t *track, size_t max);

/* The lesson after id in the course's own order (across tracks), or NULL when id is the last
 * one or not in the course.  The name is owned by c. */
const char *course_next(const Course *c, const char *id);

/* Does the file start like a course file ("meshcast-course")? */
bool course_is_file(const char *path);

/* Every lesson the course names is found on the search path and loads (lesson_load checks it
 * against the engine).  False with the first that does not in err. */
bool course_check(const Course *c, char *err, size_t errlen);

/* One line about a lesson, as the picker and `meshcast list lessons` show it:
 * "NAME  TITLE  (N pages, Q questions; not started)" or "... (N pages; seen S, right at the
 * first try F of Q)", or "NAME  (cannot load: why)".  The name ends at the first two spaces. */
void course_lesson_line(const char *name, char *out, size_t len);

#endif
