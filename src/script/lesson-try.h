/* lesson-try.h — checking a "now you try" task (lesson.h's LessonTry) against the broadcast
 * the student has reached. */
#ifndef MESHCAST_LESSON_TRY_H
#define MESHCAST_LESSON_TRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lesson.h"
#include "setup.h"

/* True if every field the task gives holds for s shown at position pos with the cursor on
 * node `cursor`.  Otherwise false with what is not yet so in why (one line, no spoilers of
 * the step or node asked for: "nu is 0", "not the step asked for"). */
bool lesson_try_met(const LessonTry *w, const Setup *s, int32_t pos, int32_t cursor, char *why,
                    size_t len);

#endif
