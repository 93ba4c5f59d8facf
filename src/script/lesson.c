/* PLACEHOLDER until the Lua layer lands: no lessons can be loaded yet. */
#include "lesson.h"

#include <stdio.h>

Lesson *lesson_load(const char *name_or_path, char *err, size_t errlen)
{
    snprintf(err, errlen, "cannot load lesson '%s': lessons are not implemented yet",
             name_or_path);
    return NULL;
}
void lesson_free(Lesson *l) { (void)l; }
const char *lesson_id(const Lesson *l) { (void)l; return ""; }
const char *lesson_title(const Lesson *l) { (void)l; return ""; }
const char *lesson_about(const Lesson *l) { (void)l; return ""; }
size_t lesson_npages(const Lesson *l) { (void)l; return 0; }
const LessonPage *lesson_page(const Lesson *l, size_t i) { (void)l; (void)i; return NULL; }
bool lesson_progress_load(const Lesson *l, LessonProgress *p) { (void)l; (void)p; return false; }
bool lesson_progress_save(const Lesson *l, const LessonProgress *p, char *err, size_t errlen)
{
    (void)l; (void)p;
    snprintf(err, errlen, "lessons are not implemented yet");
    return false;
}
size_t lesson_list(char **out, size_t max) { (void)out; (void)max; return 0; }
