/* lesson-check.h — a lesson checked against the engine (issue 24 finding 8): every page's
 * broadcast (lesson-state.h) is set up and built as the screen would, so a page that shows a
 * step its broadcast does not have (step 999 of a 4-step broadcast), a "now you try" task
 * that asks for a step its broadcast cannot reach, or one on a parameter the algorithm does
 * not have, is refused with the page and the field named: "page 3: step 999, but st on
 * mesh:8x8 has 6 steps (0..6)".
 *
 * A try task's broadcast is its page's with the fields the task pins (net, algo, model,
 * source, bytes, set) put in: the student starts from the page and reaches the task.
 * Identical broadcasts are built once. */
#ifndef MESHCAST_LESSON_CHECK_H
#define MESHCAST_LESSON_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "lesson.h"

/* True if every page holds; false with one line in err ("page N: ..."). */
bool lesson_check(const Lesson *l, char *err, size_t errlen);

#endif
