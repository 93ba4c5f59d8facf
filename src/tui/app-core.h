/* app-core.h — private to the App module: struct App's fields and what its files (app.c,
 * app-build.c, ...) share.  The App's public face is app.h, where App is opaque; besides
 * app*.c, only the .c files tests/cli/t_tui_layers.sh lists include this (no header does).
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

/* The App (app.h's opaque type): every field, for the App's files and the few others that
 * still read or write fields (tests/cli/t_tui_layers.sh lists them). */
struct App {
    Bcast b;
    Mode mode;
    Panel panel;
    bool quit;
    bool redraw;           /* Ctrl-L: clear and repaint everything */
    bool suspend;          /* Ctrl-Z: the loop gives the terminal back and stops */
    char msg[APP_MSG_MAX]; /* one-line message at the bottom */
    bool msg_error;
    bool msg_progress;     /* msg is a wait's progress line: gone once the wait is over */

    /* map */
    int zoom;              /* LAYOUT_Z0 (roomy) .. LAYOUT_Z4 (one char per node) */
    bool zoom_auto;        /* pick the roomiest zoom that fits, until the user zooms */
    int32_t cursor;        /* node id */
    int64_t sel_link;      /* directed link id or -1 */
    int view_r0, view_c0;  /* first visible grid row/column */
    Layout lay;            /* the last layout (set by app_layout): the whole frame's */
    bool split;            /* side by side (vs.h, no overview): the map in two halves */
    Layout half[2];        /* then: the halves' layouts, the first's left, the second's right */
    int tl_y0, tl_rows;    /* where the timeline's step rows were drawn (for clicks) */
    int32_t tl_first;      /* the schedule step on the first of them */

    long gen_last;         /* the last generation given to a broadcast (app_build) */

    /* play */
    bool playing;
    int speed;             /* index into app_speeds */

    /* command line */
    char cmd[256];
    size_t cmdlen;
    char hist[16][256];
    int nhist, hist_at;
    /* Tab completion (cmdtab.h): the candidates listed above the command line (NULL-terminated,
     * owned; NULL when none), the one on the line (-1: none yet), where the word starts */
    char **comp;
    size_t ncomp;
    int comp_at;
    size_t comp_start;

    /* picker */
    PickKind pick;
    char **items;
    size_t nitems, pick_sel;

    /* help */
    int help_top;

    /* lesson */
    Lesson *lesson;
    size_t page;
    LessonProgress prog;
    bool answered;         /* the current page's question was answered (right) this visit */
    int last_answer;       /* 0 none, 1 right, -1 wrong (this visit) */
    int last_choice;       /* the choice picked last (0-based), -1 none */
    char try_why[160];     /* a "try" task not met yet: what is not so (lesson-try.h) */
    bool lesson_done;      /* ] past the last page: the summary with the score */
    bool lesson_confirm;   /* R was pressed: the next key y restarts the lesson */
    char lesson_next[128]; /* on the summary: the next lesson of the course ("" none), ] opens it */
    unsigned lesson_answers; /* answers given so far (a recording marks each one) */
    int lesson_off;        /* the lesson pane scrolled this many lines down (} and {) */
    int lesson_view;       /* lines of the pane's text on the last frame (what } scrolls) */
    bool lesson_follow;    /* just answered: scroll the response into view on the next frame */
    int32_t shown_step;    /* the page's step (for the pane), -1 */

    /* side by side (vs.h): a second broadcast on the same net, stepped with the first, and
     * its time line (owned; closed: vs_bcast() is NULL) */
    Vs *vs;

    /* the overview (overview.h): one character a block of ov_block x ov_block nodes; 0 off */
    int ov_block;
    Overview *ov;          /* its aggregates (owned) */

    /* the broadcast tree's tiles on the map (tileview.h; owned) */
    TileView *tv;
    PortMarks *pm;         /* the map's all-port conflict marks (portmarks.h) */
    StepLines *steplines;  /* the Step panel's transfer lines of the step shown (draw-step.h) */

    /* the asynchronous time line (asynctl.h, app-timeline.c): moments instead of steps, of
     * the broadcast shown (owned); the second's, side by side, is its Vs's */
    bool async_tl;
    AsyncTl *atl;

    /* full:P drawn as its broadcast's tree (fulltree.h), hxbar as its modules (hxview.h):
     * the tree and where their cells went (owned) */
    FtView *ft;

    /* the narration of the position shown (narrate.h), cached per broadcast and position */
    char narr[400];
    long narr_gen;
    int32_t narr_pos;

    /* the comparison chart (computed on demand) */
    Chart chart;
    /* ... or Sanders & Sibeyn's Fig. 3 in its place (`:chart tradeoff [P]`, `:chart cost`
     * back): computed on first show; fig3_p is the P whose T table is listed */
    bool chart_fig3;
    int64_t fig3_p;
    Fig3 fig3;
    struct AppFigure *fig;   /* :figure N: a figure of the s-to-p paper instead (figure.h) */

    /* the node inspector's history (computed on demand) */
    AppNodeHist hist_node;

    /* long work (job.h): when `wait` is set, a build runs on a worker thread and a long seek
     * goes one step at a time, and wait() is called on this thread about every 40 ms with what
     * is being done ("building rh on mesh:1024x1024") and how far; it draws and reads keys,
     * and returns false to cancel (the broadcast shown stays as it was). */
    AppWaitFn wait;
    void *wait_ctx;
    bool cancelled;        /* the last build or seek was cancelled */

    char export_path[APP_EXPORT_PATH_MAX]; /* :export FILE: the loop writes the next frame there */
    bool export_force;     /* :export FILE --force: replacing an existing file */

    /* a real run beside the simulated one (measured.h): --measured FILE.json, :exec */
    struct Measured *measured;
    int tl_per;            /* timeline rows per step (2 with a measured run) */

    /* options */
    bool big;              /* projector mode (--big, :big): tall cells, the map fills the screen */
    bool color, ascii;
    char theme[64];
    bool theme_changed;    /* :theme NAME (the loop re-initialises colours) */
};

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
/* Tab (dir 1) and S-Tab (dir -1) on the command line: the first completes the longest common
 * prefix of cmdtab_candidates' matches and, when several match, lists them all above the
 * command line (comp); each further Tab puts the next of them on the line (S-Tab the
 * previous), around.  _clear: the listed candidates forgotten (any other key). */
void app_cmdline_complete(App *a, int dir);
void app_cmdline_complete_clear(App *a);

/* ---- what the views read (app.c) ---- */
/* The FtSrc of the App's broadcast without the asynchronous time line's moment (what a
 * click needs; fulltree.h). */
FtSrc app_fulltree_click_src(const App *a);

/* ---- the panels' data (app-panels.c) ---- */
void app_node_history_free(App *a);   /* the node inspector's history forgotten */

#endif
