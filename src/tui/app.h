/* app.h — the state of the terminal UI and every action on it, without curses.
 *
 * The App holds one broadcast (setup, schedule, simulation with history), the position shown,
 * the node cursor, the panels, the command line, the pickers and the lesson.  Everything the
 * user can do is an action on the App: app_key() takes a key as the string libtermkey's
 * termkey_strfkey(..., TERMKEY_FORMAT_VIM) makes ("n", "<Space>", "<C-l>", "<Up>"), and
 * app_mouse() takes a click or a wheel turn at a screen cell.  The terminal loop (tui.c) and the
 * unit tests feed the same functions; nothing here draws or touches the terminal.
 *
 * Position: pos 0 is before the first step, pos k after k steps.  At pos k >= 1 the screen
 * shows the circuits of step k (schedule step index k-1) and the holdings after it.
 *
 * Ownership: app_new returns an App the caller frees with app_free; it owns its broadcast, its
 * lesson and every string in it.
 *
 * The App is opaque here: its fields are in app-core.h, private to the App's files (app*.c)
 * and the few others tests/cli/t_tui_layers.sh lists (the benchmark, white-box tests);
 * everyone else goes through these functions (the frame: app_frame_view).
 */
#ifndef MESHCAST_TUI_APP_H
#define MESHCAST_TUI_APP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "../engine/progress.h"
#include "../engine/reduce.h"
#include "../engine/sim.h"
#include "../script/lesson.h"
#include "../script/setup.h"
#include "asynctl.h"
#include "bcast.h"
#include "chart-fig3.h"
#include "chart.h"
#include "draw-step.h"
#include "fulltree.h"
#include "layout.h"
#include "overview.h"
#include "portmarks.h"
#include "tileview.h"
#include "vs.h"

typedef enum { PANEL_STEP, PANEL_TIMELINE, PANEL_NODE, PANEL_CHART, PANEL_LESSON, PANEL_N } Panel;
typedef enum { MODE_MAP, MODE_CMDLINE, MODE_HELP, MODE_PICKER } Mode;
typedef enum { PICK_ALGO, PICK_NET, PICK_BYTES, PICK_MODEL, PICK_SOURCE, PICK_LESSON } PickKind;

typedef struct App App;
struct Measured;

/* The key bindings of the map, in the order the help screen lists them (then cmdtab.h's commands). */
typedef struct {
    const char *keys;      /* as shown in help: "n . PageDown" */
    const char *help;
} AppKeyHelp;
const AppKeyHelp *app_key_help(size_t *n);

/* Steps per second for play, by speed index. */
extern const double app_speeds[];
extern const int app_nspeeds;

App *app_new(void);
void app_free(App *a);

/* Check words without building (setup, and whether the algorithm runs there): false with a
 * one-line message in err.  Cheap: meant for options before the screen is taken. */
/* A seek across steps of a schedule with at least this many transfers goes step by step. */
#define APP_LONG_SEEK_TRANSFERS 2000000
bool app_check_spec(const SetupSpec *spec, char *err, size_t errlen);
/* Set the broadcast from words (NULL members: defaults).  On failure keeps what was shown,
 * sets the message and returns false. */
bool app_set_spec(App *a, const SetupSpec *spec);
/* Rebuild the current broadcast from its words (script reload); keeps the position. */
bool app_rebuild(App *a);
/* If the algorithm is a .lua file whose mtime changed, rebuild; true if it did. */
bool app_check_reload(App *a);

/* A big broadcast (app_split_min transfers or more) opens (app_set_spec, with a wait hook) as
 * soon as its schedule is built and its first steps (up to app_prefix_transfers transfers, at
 * least one step) are simulated; the whole history is
 * simulated on a worker meanwhile.  Until it is in, b.nsim < app_nsteps(): the steps after
 * b.nsim and the totals are not known yet, and going there waits for them (drawing, with the
 * wait hook; Escape stops waiting, the simulation goes on).  app_poll takes the whole in once
 * the worker is done (the loop calls it before each frame); app_rest_progress says how far the
 * worker is (false when nothing runs). */
extern int64_t app_split_min, app_prefix_transfers;   /* tests lower them */
void app_poll(App *a);
bool app_rest_progress(const App *a, long long *done, long long *total);
/* Wait (as above) until steps 1..pos are simulated: false if they are not (Escape, or the
 * simulation failed; the message says so). */
bool app_need_steps(App *a, int32_t pos);
bool app_partial(const App *a);

/* Actions. */
/* The position: the first broadcast's step or, side by side (vs.h) past the first's end, the
 * second's.  app_nsteps is the longer one's steps: each half stops at its own last state. */
void app_goto(App *a, int32_t pos);
int32_t app_pos(const App *a);
int32_t app_nsteps(const App *a);
void app_key(App *a, const char *key);
/* A mouse event at a screen cell (0-based): button 1..3 press, 4/5 wheel up/down. */
void app_mouse(App *a, int button, bool press, int line, int col);
/* Run a command line ("algo bst", "step 5", "q"); the message says what happened (the table
 * of commands is cmdtab.h's). */
bool app_command(App *a, const char *line);
/* For the commands (cmdtab.c): change one word of the broadcast (field "net", "algo", "source",
 * "sources", "bytes", "model", "op", "profile", "fit") and rebuild; add or replace K=V
 * settings.  False with a message when the result does not build (the old one stays). */
bool app_change(App *a, const char *field, const char *value);
bool app_sets(App *a, char **kv, size_t n);
/* Called by the loop at each play tick. */
void app_tick(App *a);

/* The broadcast shown (ready or not: b->ready); valid until it changes. */
const Bcast *app_bcast(const App *a);
/* Whether the asynchronous time line is on (:timing async, A). */
bool app_async_timing(const App *a);
/* The App's real run beside the simulated one (measured.h; the App owns it). */
struct Measured *app_measured(const App *a);

/* The commands' acts (app-cmds.c; cmdtab.c parses the words and calls these).
 * app_quit: the loop ends.  app_help_open: the help screen, at its top.  app_msg_clear: the
 * message line emptied.  app_export_request: the loop writes the next frame to path (.txt or
 * .svg; shorter than APP_EXPORT_PATH_MAX), replacing a file only with force.  app_figure:
 * `:figure WORDS...` (n words; "off": the cost chart again), false with the message set.
 * app_chart_show: the Chart panel shows Sanders & Sibeyn's Fig. 3 for P (fig3) or the cost
 * chart.  app_overview_set: the overview off, or on at block size `block` (the fit when
 * smaller).  app_tiles: the tiles at level (0 off), false (message set) when there are none.
 * app_cursor_to: the cursor on node, no link selected.  app_big: projector mode on (1), off
 * (0) or toggled (-1), with a message.  app_theme_request: the loop loads theme `name`. */
#define APP_EXPORT_PATH_MAX 256
void app_quit(App *a);
void app_help_open(App *a);
void app_msg_clear(App *a);
void app_export_request(App *a, const char *path, bool force);
bool app_figure(App *a, const char *const *w, int n);
void app_chart_show(App *a, bool fig3, int64_t P);
void app_overview_set(App *a, bool on, long block);
bool app_tiles(App *a, int level);
void app_cursor_to(App *a, int32_t node);
void app_big(App *a, int on);
void app_theme_request(App *a, const char *name);

/* The terminal loop's interface (app-loop.c; tui.c reads the App only through app.h).
 * app_msg_text: the message line ("" none); app_msg_set_raw: put a line read from it back as
 * it was; app_msg_progress: a wait's progress line, gone at the next app_progress_over.
 * app_quitting: q, :q or a quitting signal asked the loop to end (app_quit).  app_mode: what
 * the keys go to.  app_cancelled: the last build was cancelled (Escape).  app_set_look and
 * app_look: colour, ASCII glyphs, the theme's name (NULL: keep), projector mode (theme.h).
 * app_set_wait: the hook drawn while a build or a long jump runs (its ctx; NULL: none).  The
 * app_take_* flags are read and cleared at once: Ctrl-Z (suspend), :theme (load app_look's
 * theme), Ctrl-L (clear and repaint), :export (the file and --force; path has len bytes).
 * app_play_period: seconds between play's ticks, 0 when not playing.  app_lesson: the lesson
 * open (NULL: none); app_lesson_marks: its page (0-based), the answers given and the last's
 * verdict (1 right, -1 wrong, 0 none), false without a lesson.  app_chart_fill: the Chart
 * panel's cost chart computes one more (algorithm, size) when it shows and is not done (true
 * while there is more); app_chart_filled_shown: the Chart panel shows the finished chart. */
#define APP_MSG_MAX 320
typedef bool (*AppWaitFn)(App *a, const char *what, const Progress *p, double elapsed_s,
                          void *ctx);
typedef struct {
    bool color, ascii;
    const char *theme;
} AppLook;
const char *app_msg_text(const App *a);
void app_msg_set_raw(App *a, const char *text);
void app_msg_progress(App *a, const char *text);
void app_progress_over(App *a);
bool app_quitting(const App *a);
Mode app_mode(const App *a);
bool app_cancelled(const App *a);
void app_set_look(App *a, bool color, bool ascii, const char *theme, bool big);
AppLook app_look(const App *a);
void app_set_wait(App *a, AppWaitFn wait, void *ctx);
bool app_take_suspend(App *a);
bool app_take_theme_change(App *a);
bool app_take_redraw(App *a);
bool app_take_export(App *a, char *path, size_t len, bool *force);
double app_play_period(const App *a);
const Lesson *app_lesson(const App *a);
bool app_lesson_marks(const App *a, size_t *page, unsigned *answers, int *last_answer);
bool app_chart_fill(App *a);
bool app_chart_filled_shown(const App *a);

/* What the map (draw-map.c) reads of the App besides the broadcast it draws: the views that
 * keep state for it (the tiles, the all-port conflict marks, a full net's tree), the lesson page whose nodes and links
 * stand out (NULL: none), the cursor and the selected link (-1: none). */
typedef struct {
    TileView *tv;
    PortMarks *pm;
    FtView *ft;
    const LessonPage *page;
    int32_t cursor;
    int64_t sel_link;
} AppMapState;
AppMapState app_map_state(App *a);

/* The node inspector's history of the cursor's node (app_node_history computes it). */
typedef struct {
    long gen;
    int32_t node, nsteps;
    bool ok;
    uint64_t *held;              /* nsteps+1: chunks held at each position */
    int32_t *nsent, *nrecv;      /* per step */
    int32_t *to, *from;          /* per step: first partner, -1 */
} AppNodeHist;

/* What the frame (draw.c) reads of the App besides what the functions here give: the
 * broadcast and the layout shown, the mode and its state (the message, the command line and
 * its completions, the picker, the help's scroll), the cursor and play state, the panels'
 * (the timeline's rows, the chart's figure, the node's history, the lesson's page, answers and
 * scroll), as the App holds them when asked (the pointers point into the App).  What the frame
 * writes back: the help scrolled no further than its end (app_set_help_top), where the
 * timeline's step rows went, for clicks (app_set_timeline_rows), the lesson pane's scroll and
 * the lines it shows (app_lesson_scrolled, which also ends following a fresh answer). */
typedef struct {
    const Bcast *b;
    const Layout *lay;
    Mode mode;
    Panel panel;
    const char *msg;
    bool msg_error;
    int32_t cursor;
    int64_t sel_link;
    int zoom;
    bool playing;
    int speed;
    int ov_block;
    Overview *ov;
    Vs *vs;
    StepLines *steplines;
    int help_top;
    const char *cmd;
    char **comp;
    size_t ncomp;
    int comp_at;
    PickKind pick;
    char **items;
    size_t nitems, pick_sel;
    int tl_y0, tl_rows, tl_per;
    int32_t tl_first;
    bool chart_fig3;
    int64_t fig3_p;
    Fig3 *fig3;
    struct AppFigure *fig;
    const AppNodeHist *hist;
    Lesson *lesson;
    size_t page;
    const LessonProgress *prog;
    bool answered;
    int last_answer, last_choice;
    const char *try_why;
    bool lesson_done;
    const char *lesson_next;
    int lesson_off;
    bool lesson_follow;
} AppFrameView;
AppFrameView app_frame_view(App *a);
void app_set_help_top(App *a, int top);
void app_set_timeline_rows(App *a, int y0, int rows, int32_t first, int per);
void app_lesson_scrolled(App *a, int off, int view);

/* What the tiles view reads: the broadcast shown (tileview.h). */
TileSrc app_tiles_src(const App *a);
/* What the overview reads: the broadcast and step shown, the block size, the map area and the
 * cursor (overview.h). */
OvSrc app_overview_src(const App *a);
/* What the full net's tree and the hxbar modules read (fulltree.h, hxview.h): broadcast b
 * (the App's, or side by side the second's: vs.h) at the asynchronous time line's moment av
 * (NULL: lockstep steps), drawn in L's map area, and the App's cursor. */
FtSrc app_fulltree_src(const App *a, const Bcast *b, AsyncView *av, const Layout *L);
/* The layout the map of the App's broadcast is drawn in (what the cursor keys and a click on
 * it go by): the frame's (app_layout), or side by side (vs.h) its left half's. */
const Layout *app_map_layout(const App *a);
/* Side by side: the layouts of the two halves (the first's left, the second's right); false
 * when the map is not split (no second broadcast, or the overview). */
bool app_map_halves(const App *a, const Layout **left, const Layout **right);

/* The asynchronous time line of the broadcast shown (asynctl.h; app-timeline.c).
 * app_timing turns it on or off: false with a message when it cannot be built; off keeps the
 * place (the position becomes the last step any of whose transfers has started by the moment
 * shown).  app_async_view: its view at its moment, or NULL when off (rebuilt, at moment 0,
 * when the broadcast changed; turned off with a message when that fails); app_async_run its
 * run (NULL when off).  app_async_move: to moment `to`, or by `to` moments (relative);
 * app_async_at_end: the last moment is shown (play stops there).  app_async_node_events: the
 * transfers to or from node, as asynctl_node_events (-1 when off or out of memory). */
bool app_timing(App *a, bool on);
AsyncView *app_async_view(App *a);
const SimAsync *app_async_run(App *a);
void app_async_move(App *a, int64_t to, bool relative);
bool app_async_at_end(App *a);
int64_t app_async_node_events(App *a, int32_t node, const int64_t **ev);

/* Side by side (vs.h; app-vs.c): the App as the second broadcast's host (the first's state,
 * building, messages); `:vs WORDS` and --vs; the second rebuilt after the first changed
 * (the message shown stays unless it fails); the second's time line at time t (a message
 * when it cannot be built or moved). */
VsHost app_vs_host(App *a);
bool app_vs_command(App *a, const char *const *words, int n);
void app_vs_follow(App *a);
AsyncView *app_vs_async_view(App *a, double t);

/* The layout for a screen of w x h cells (called before every draw and by hit tests). */
void app_layout(App *a, int w, int h);

/* Lessons. */
/* A lesson's question (multiple choice, node or link) not answered yet: whatever could give
 * its answer away is hidden until it is (the narration line; the Step, Timeline, Node and
 * Chart panels; a multiple-choice question's count of steps or sources on the title line too:
 * app_quiz_hides_counts); a "now you try" task hides nothing. */
bool app_quiz_hides(const App *a);
bool app_quiz_hides_counts(const App *a);
bool app_open_lesson(App *a, const char *name);
void app_lesson_page(App *a, size_t page);

/* The comparison chart for the current broadcast: reset when stale, then filled in one
 * (algorithm, size) simulation per app_chart_work() call (the loop calls it between frames, so the screen stays
 * responsive); app_chart_work returns true while there is more to compute. */
/* The narration line of the position shown (computed once per position). */
const char *app_narration(App *a);
const Chart *app_chart(App *a);
bool app_chart_work(App *a);
/* The inspector's history of node a->cursor (computed if stale); false if the schedule is
 * too large to scan. */
bool app_node_history(App *a);

/* The schedule step shown at the current position (pos-1), or -1 at pos 0. */
int32_t app_step_shown(const App *a);

/* Build a broadcast from words into *out (on the worker thread when the loop has a wait
 * hook), sought to position pos; false with a message in err (a->cancelled if cancelled).
 * The caller frees it with app_bcast_free. */
bool app_build_bcast(App *a, Bcast *out, const SetupSpec *spec, int32_t pos, char *err,
                     size_t errlen);
void app_bcast_free(Bcast *b);
/* The current broadcast's words (valid until it changes). */
SetupSpec app_spec(const App *a);

/* A byte count as the user writes it: "1K", "1M", "100". */
void app_bytes_text(char *buf, size_t len, uint64_t v);

void app_msg(App *a, bool error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
