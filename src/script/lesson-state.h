/* lesson-state.h — the broadcast a lesson page shows, as its lesson defines it.
 *
 * A page's state is what pages 1..k add up to, starting from meshcast's defaults (st on
 * mesh:8x8, source node 0, 1024 bytes, the seidel model, no settings, step 0): each page
 * replaces the fields it gives; `set` entries replace the value of their key and keep the
 * other keys; a page that gives a net but no source starts from node 0.  It never depends on
 * what was shown before (another page, another lesson, the user's own changes), so a page
 * looks the same reached forwards, backwards, by reopening, or after another lesson.
 *
 * Ownership: every string points into the Lesson (valid while it lives), except `bytes`,
 * which is kept in the state itself.
 */
#ifndef MESHCAST_LESSON_STATE_H
#define MESHCAST_LESSON_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "lesson.h"

#define LESSON_STATE_MAXSET 64

typedef struct {
    const char *net;       /* NULL: the default (setup.h) */
    const char *algo;
    const char *source;
    const char *sources;   /* s-to-p: a --sources spec (a page's `sources`); NULL: none */
    const char *model;
    const char *fit;       /* --fit; NULL: the default */
    uint64_t bytes;        /* 0: the default */
    char bytes_text[24];   /* bytes as text, "" for the default */
    const char *set[LESSON_STATE_MAXSET];  /* "k=v", one per key, in the order first set */
    size_t nset;
    int32_t step;          /* 0 unless a page 1..k gave one */
} LessonState;

/* The state of page `page` (0-based) of l.  Pages past the end give the last page's. */
void lesson_state(const Lesson *l, size_t page, LessonState *out);

/* Predict, then see (issue 9 defect 6): a page that asks to click a node or a link of step
 * k (k >= 1), or a choice question marked `predict`, first shows the position before that
 * step, k - 1, so that the answer is not on screen; the step itself is shown once the
 * question is answered right.  The position to show
 * on arriving at page `page`: */
int32_t lesson_state_shown_step(const Lesson *l, size_t page, const LessonState *st);

#endif
