/* app-core.h — private to the App module: what its files (app.c, app-build.c, ...) share and
 * nobody else calls.  The App's public face is app.h; this header is included by app*.c only.
 *
 * Ownership as in app.h: a BSpec owns its strings (app_bspec_free frees them); a Bcast owns
 * its setup, schedule, simulation and rest (app_bcast_free).
 */
#ifndef MESHCAST_TUI_APP_CORE_H
#define MESHCAST_TUI_APP_CORE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "app.h"
#include "job.h"

/* The rest of a big broadcast, simulated on a worker while its first steps are shown. */
typedef struct BcastRest BcastRest;
struct BcastRest {
    Job *job;
    const Sched *sched;        /* the Bcast's (it outlives the job: bcast_free joins first) */
    CostParams cost;
    atomic_bool prefix_ready;  /* the worker filled the Bcast with the first steps */
    atomic_int want;           /* the position shown: where the worker leaves the whole */
    Sim *sim;                  /* the whole, once the job has finished (NULL: it failed) */
    char err[300];
};

/* ---- the broadcast's words and its build (app-build.c) ---- */
char *app_dupz(const char *s);                       /* strdup, NULL for NULL */
void app_bspec_free(BSpec *s);
bool app_bspec_from(BSpec *d, const SetupSpec *s);   /* owned copies of the words */
SetupSpec app_bspec_setup(const BSpec *s);           /* borrowed: valid while s is */
bool app_bspec_same(const BSpec *x, const BSpec *y);
bool app_is_script(const char *algo);                /* a .lua file */
void app_script_stamp(const char *path, time_t *sec, long *nsec);   /* its mtime, 0 if none */
/* Build spec into nb (taking spec over on success): on a worker with the wait hook drawn when
 * the loop has one (a->cancelled if the user stopped it); `progressive`: a big broadcast comes
 * back with its first steps while the rest is simulated (nb->rest). */
bool app_build(App *a, Bcast *nb, BSpec *spec, int32_t pos, char *err, size_t errlen,
               bool progressive);
/* The App's wait hook as a job_wait callback (job.h): ctx is an AppWaitCtx. */
typedef struct {
    App *a;
    char what[160];        /* what is being done: "building rh on mesh:1024x1024" */
} AppWaitCtx;
bool app_build_wait(const Progress *p, double elapsed, void *ctx);

/* ---- changing the broadcast (app-spec.c) ---- */
/* Replace the broadcast by one built from spec (taken over on success), at keep_pos; false
 * with a message (the old one stays). */
bool app_take_spec(App *a, BSpec *spec, int32_t keep_pos);

/* ---- the lesson (app-lesson.c) ---- */
const LessonPage *app_lesson_cur_page(const App *a);    /* NULL without a lesson */
/* The page's question is open (asked, not answered right yet, not on the summary). */
bool app_lesson_question_open(const App *a);
void app_lesson_answer(App *a, bool right);            /* a choice: right or wrong */
void app_lesson_answer_try(App *a);                    /* a "now you try" task: is it met? */
void app_lesson_answer_node(App *a, int32_t node);     /* a click on a node */
void app_lesson_answer_link(App *a, int64_t link);     /* a click on a link */
void app_lesson_restart(App *a);                       /* R, y: progress forgotten, page 1 */

/* ---- the pickers (app-picker.c; app_items_free in app.c) ---- */
void app_open_picker(App *a, PickKind k);       /* fills a->items, mode MODE_PICKER */
void app_picker_key(App *a, const char *key);   /* a key while a picker is open */
void app_items_free(App *a);                    /* a->items emptied */

/* ---- keys and the command line (app-keys.c, app-cmdline.c) ---- */
void app_set_zoom(App *a, int z);               /* zoom z (past the smallest: the overview) */
void app_cmdline_key(App *a, const char *key);  /* a key while the command line is open */

/* ---- what the views read (app.c) ---- */
/* The FtSrc of the App's broadcast without the asynchronous time line's moment (what a
 * click needs; fulltree.h). */
FtSrc app_fulltree_click_src(const App *a);

/* ---- the panels' data (app-panels.c) ---- */
void app_node_history_free(App *a);   /* the node inspector's history forgotten */

#endif
