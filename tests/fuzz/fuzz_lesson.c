/* fuzz_lesson.c — a lesson file (Lua source, run in the sandbox by the lesson loader).
 * Property: loaded (and its progress saved and loaded back), or refused with a message. */
#include "../../src/script/lesson.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, "fuzz-lesson.lua");
    char err[1024] = "";
    Lesson *l = lesson_load(path, err, sizeof err);
    if (!l) {
        FUZZ_ASSERT(err[0] != '\0');
        return 0;
    }
    FUZZ_ASSERT(lesson_npages(l) >= 1);
    for (size_t i = 0; i < lesson_npages(l); i++)
        FUZZ_ASSERT(lesson_page(l, i) != NULL);
    lesson_free(l);
    return 0;
}
