/* lesson.h — guided lessons written in Lua (docs/writing-lessons.md).
 *
 * A lesson file returns { title=, about=, pages = { {...}, ... } }; lesson_load runs it in the
 * sandbox and copies everything into C structures, so a Lesson holds no Lua state.
 *
 * Ownership: lesson_load returns a Lesson the caller frees with lesson_free; every pointer
 * reached from it (pages, strings, arrays) lives as long as the Lesson.
 */
#ifndef MESHCAST_LESSON_H
#define MESHCAST_LESSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct Lesson Lesson;

typedef enum { LESSON_Q_NONE, LESSON_Q_CHOICE, LESSON_Q_NODE, LESSON_Q_LINK, LESSON_Q_TRY }
    LessonQKind;

/* A "now you try" task: the answer is a state the student reaches (with :set, n/p, the
 * pickers, the cursor) and submits with Enter; every field given must hold, the rest is free.
 * lesson-try.h checks it against what is shown. */
typedef struct {
    const char *net;         /* NULL: any */
    const char *algo;        /* NULL: any */
    const char *model;       /* NULL: any */
    int32_t source;          /* -1: any */
    uint64_t bytes;          /* 0: any */
    const char *const *set;  /* "nu=1": the setting must have this value */
    size_t nset;
    int32_t step;            /* the position shown, -1: any */
    int32_t node;            /* the cursor, -1: any */
} LessonTry;

typedef struct {
    const char *text;        /* short paragraphs separated by blank lines */
    /* The broadcast to show (NULL/-1/0: keep what the previous page showed). */
    const char *net;         /* "mesh:8x8" */
    const char *algo;        /* built-in name or script */
    const char *source;      /* "5" or "3,4", NULL = 0 */
    const char *sources;     /* s-to-p: "E:16" or a list (dist.h); NULL = keep (a new net
                              * or a `source` drops it) */
    uint64_t bytes;          /* 0 = keep */
    const char *model;       /* NULL = keep */
    const char *fit;         /* --fit: "companions", "virtual" or "none"; NULL = keep */
    const char *const *set;  /* "nu=1" ..., nset entries */
    size_t nset;
    int32_t step;            /* position to show: 0 before the first step, k after k steps;
                                -1 = keep */
    /* What to highlight, as node ids and directed link ids of the page's net. */
    const int32_t *nodes;  size_t nnodes;
    const int64_t *links;  size_t nlinks;   /* a `path` is turned into its links */
    /* The question. */
    LessonQKind qkind;
    const char *question;
    const char *const *choices; size_t nchoices;   /* LESSON_Q_CHOICE, keys a, b, c, ... */
    int32_t answer_choice;   /* 0-based */
    int32_t answer_node;     /* LESSON_Q_NODE */
    int64_t answer_link;     /* LESSON_Q_LINK: a directed link id */
    bool link_any_direction; /* LESSON_Q_LINK: either direction of the answer link is right */
    const char *const *feedback; /* LESSON_Q_CHOICE: nchoices entries, NULL or why that choice
                                    is wrong (shown when it is picked) */
    LessonTry want;          /* LESSON_Q_TRY */
    const char *explain;     /* shown after the answer */
    const char *hint;        /* shown after a wrong answer (a choice's own feedback first);
                              * a nudge, never the answer; NULL: none */
    bool predict;            /* LESSON_Q_CHOICE (question.predict = true): predict, then see —
                              * the step asked about is shown once answered right (click
                              * questions always do so) */
} LessonPage;

/* name_or_path: a .lua path or the name of a lesson on the search path ("st-array"). */
Lesson *lesson_load(const char *name_or_path, char *err, size_t errlen);
void lesson_free(Lesson *l);

const char *lesson_id(const Lesson *l);      /* file name without .lua */
const char *lesson_title(const Lesson *l);
const char *lesson_about(const Lesson *l);
size_t lesson_npages(const Lesson *l);
const LessonPage *lesson_page(const Lesson *l, size_t i);

/* Progress, kept in $XDG_STATE_HOME/meshcast/progress/<id> (default ~/.local/state). */
typedef struct {
    size_t npages;
    bool seen[256];          /* pages seen */
    int8_t answer[256];      /* 0 unanswered, 1 right, -1 wrong (last answer) */
    int8_t first[256];       /* the first answer ever given: 0 none yet, 1 right, -1 wrong */
    size_t last_page;
} LessonProgress;
bool lesson_progress_load(const Lesson *l, LessonProgress *p); /* false: none yet (p reset) */
bool lesson_progress_save(const Lesson *l, const LessonProgress *p, char *err, size_t errlen);
/* Forget the progress of the lesson with this id (deletes its file): 1 deleted, 0 there was
 * none, -1 an error (said in err). */
int lesson_progress_clear(const char *id, char *err, size_t errlen);

/* The score so far: pages with a question, how many were answered right at the first try,
 * right in the end, and pages seen. */
typedef struct {
    size_t questions, first_right, right, seen, tries;   /* tries: "now you try" tasks */
    size_t answered;         /* questions answered at least once (rightly or not) */
} LessonScore;
void lesson_score(const Lesson *l, const LessonProgress *p, LessonScore *out);

/* Lessons on the search path: names into out (at most max); returns how many. Caller frees
 * each name with free(). */
size_t lesson_list(char **out, size_t max);

#endif
