/* app.c — the UI's state and actions (see app.h).  No curses here: the loop in tui.c and the
 * unit tests drive the same functions. */
#include "app-core.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "../algos/algo.h"
#include "../engine/num.h"
#include "../engine/text.h"
#include "algo-names.h"
#include "job.h"
#include "lesson-pick.h"
#include "../script/course.h"
#include "../script/lesson-state.h"
#include "../script/lesson-try.h"
#include "../script/profile.h"
#include "measured.h"
#include "narrate.h"
#include "fulltree.h"
#include "hxview.h"
#include "../engine/partials.h"
#include "../algos/sanders/autotune.h"
#include "overview.h"
#include "tileview.h"
#include "asynctl.h"
#include "cmdtab.h"
#include "figure.h"
#include "vs.h"
#include "theme.h"

const double app_speeds[] = {0.25, 0.5, 1, 2, 4, 8, 16, 32};
const int app_nspeeds = (int)(sizeof app_speeds / sizeof app_speeds[0]);

void app_msg(App *a, bool error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char raw[sizeof a->msg];
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    text_quote(raw, sizeof raw, a->msg, sizeof a->msg);   /* one line, no control character */
    a->msg_error = error;
    a->msg_progress = false;
}

int32_t app_nsteps(const App *a)
{
    int32_t n = a->b.ready ? sched_nsteps(a->b.sched) : 0;
    if (a->vs && a->vs->ready && sched_nsteps(a->vs->sched) > n) n = sched_nsteps(a->vs->sched);
    return n;
}

int32_t app_pos(const App *a)
{
    /* (both follow one position, each up to its own end: the further one is the position) */
    return a->vs && a->vs->ready && a->vs->pos > a->b.pos ? a->vs->pos : a->b.pos;
}

/* A seek across many big steps goes one step at a time, drawing between steps (the wait
 * hook), so that G on a large net shows where it is and Escape stops it.  True if done. */
static bool app_long_seek(App *a, int32_t pos)
{
    int32_t from = a->b.pos;
    int32_t span = pos > from ? pos - from : from - pos;
    if (!a->wait || span < 2 || sched_total_transfers(a->b.sched) < APP_LONG_SEEK_TRANSFERS)
        return false;
    a->cancelled = false;
    Progress p;
    progress_init(&p);
    char what[160];
    snprintf(what, sizeof what, "going to step %ld", (long)pos);
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    double last = -1;
    int dir = pos > from ? 1 : -1;
    for (int32_t k = from; k != pos;) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        double el = (double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9;
        if (last < 0 || el - last >= 0.25) {
            last = el;
            progress_init(&p);
            atomic_store(&p.phase, PROGRESS_SEEK);
            atomic_store(&p.done, (long long)(k > from ? k - from : from - k));
            atomic_store(&p.total, (long long)span);
            if (!a->wait(a, what, &p, el, a->wait_ctx)) {
                a->cancelled = true;
                app_msg(a, false, "stopped at step %ld (Esc)", (long)k);
                return true;
            }
        }
        k += dir;
        if (!sim_seek(a->b.sim, k)) {
            app_msg(a, true, "cannot seek to step %ld", (long)k);
            return true;
        }
        a->b.pos = k;
    }
    return true;
}

void app_goto(App *a, int32_t pos)
{
    if (!a->b.ready) return;
    int32_t n = app_nsteps(a), own = sched_nsteps(a->b.sched);
    if (pos < 0) pos = 0;
    if (pos > n) pos = n;
    vs_sync(a, pos);
    if (pos > own) pos = own;   /* the first broadcast stays done at its last state */
    if (pos > a->b.nsim && !app_need_steps(a, pos)) pos = a->b.nsim;
    if (a->b.rest) atomic_store(&a->b.rest->want, pos);
    if (app_long_seek(a, pos)) return;
    if (sim_seek(a->b.sim, pos))
        a->b.pos = pos;
    else
        app_msg(a, true, "cannot seek to step %ld", (long)pos);
}

/* Replace the broadcast by one built from spec (taken over on success). */
static bool app_take_spec(App *a, BSpec *spec, int32_t keep_pos)
{
    char err[300] = "";
    Bcast nb;
    if (!app_build(a, &nb, spec, keep_pos, err, sizeof err, true)) {
        if (a->cancelled) app_msg(a, false, "cancelled (Esc): still showing what was shown");
        else app_msg(a, true, "%s", err[0] ? err : "cannot build this broadcast");
        return false;
    }
    bool same_net = a->b.ready && strcmp(net_spec(a->b.setup.net), net_spec(nb.setup.net)) == 0;
    long gen = a->b.gen;
    app_bcast_free(&a->b);
    a->b = nb;
    a->b.gen = gen + 1;
    a->b.pos = sim_pos(a->b.sim);
    if (!same_net) {
        a->cursor = nb.setup.args.source;
        a->sel_link = -1;
        a->view_r0 = a->view_c0 = 0;
        a->zoom_auto = true;
    }
    if (a->cursor >= net_size(a->b.setup.net)) a->cursor = 0;
    vs_follow(a);
    app_goto(a, keep_pos);
    a->playing = false;
    return true;
}

bool app_check_spec(const SetupSpec *spec, char *err, size_t errlen)
{
    Setup st;
    if (!setup_make(spec, &st, err, errlen)) return false;
    bool ok = algo_check(st.def, st.net, &st.args, err, errlen);
    setup_free(&st);
    return ok;
}

bool app_set_spec(App *a, const SetupSpec *spec)
{
    BSpec s;
    if (!app_bspec_from(&s, spec)) {
        app_bspec_free(&s);
        app_msg(a, true, "out of memory");
        return false;
    }
    bool ok = app_take_spec(a, &s, 0);
    app_bspec_free(&s);
    return ok;
}

bool app_rebuild(App *a)
{
    BSpec s;
    SetupSpec ss = app_bspec_setup(&a->b.spec);
    if (!app_bspec_from(&s, &ss)) {
        app_bspec_free(&s);
        return false;
    }
    bool ok = app_take_spec(a, &s, app_pos(a));
    app_bspec_free(&s);
    return ok;
}

bool app_check_reload(App *a)
{
    if (!app_is_script(a->b.spec.algo)) return false;
    time_t sec;
    long ns;
    app_script_stamp(a->b.spec.algo, &sec, &ns);
    if (sec == 0 || (sec == a->b.script_mtime && ns == a->b.script_mtime_ns))
        return false;
    a->b.script_mtime = sec;
    a->b.script_mtime_ns = ns;
    if (app_rebuild(a))
        app_msg(a, false, "reloaded %s (step %ld kept)", a->b.spec.algo, (long)a->b.pos);
    return true;
}

/* Change one word of the spec and rebuild.  field: "net", "algo", ... */
bool app_change(App *a, const char *field, const char *value)
{
    BSpec s;
    SetupSpec ss = app_bspec_setup(&a->b.spec);
    if (!app_bspec_from(&s, &ss)) { app_bspec_free(&s); return false; }
    char **slot = strcmp(field, "net") == 0 ? &s.net : strcmp(field, "algo") == 0 ? &s.algo
                : strcmp(field, "source") == 0 ? &s.source : strcmp(field, "bytes") == 0 ? &s.bytes
                : strcmp(field, "model") == 0 ? &s.model : strcmp(field, "sources") == 0
                ? &s.sources : strcmp(field, "op") == 0 ? &s.op
                : strcmp(field, "profile") == 0 ? &s.profile : &s.fit;
    free(*slot);
    /* ":profile off": back to the built-in constants */
    *slot = strcmp(field, "profile") == 0 && strcmp(value, "off") == 0 ? NULL : app_dupz(value);
    /* one source or many: the other goes (":sources off" back to one source) */
    if (strcmp(field, "source") == 0) { free(s.sources); s.sources = NULL; }
    if (strcmp(field, "sources") == 0) {
        free(s.source); s.source = NULL;
        if (strcmp(value, "off") == 0) { free(s.sources); s.sources = NULL; }
    }
    int32_t keep = strcmp(field, "net") == 0 || strcmp(field, "algo") == 0 ? 0 : app_pos(a);
    char first[320];
    bool ok = app_take_spec(a, &s, keep);
    if (!ok && strcmp(field, "net") == 0 && !a->cancelled) {
        snprintf(first, sizeof first, "%s", a->msg);
        /* the source may not exist on the new net: retry from node 0 */
        if (s.source || s.sources) {
            free(s.source);
            s.source = NULL;
            free(s.sources);
            s.sources = NULL;
            ok = app_take_spec(a, &s, 0);
            if (ok) app_msg(a, false, "net %s (source reset to node 0)", value);
        }
        /* the algorithm may not run on this kind of net: show the first that does */
        char err[160];
        Net *probe = ok ? NULL : net_parse(value, err, sizeof err);
        char algo[64];
        snprintf(algo, sizeof algo, "%s", s.algo ? s.algo : "st");
        if (probe && !algo_find(algo, probe)) {
            for (size_t i = 0; i < algo_count() && !ok; i++) {
                const AlgoDef *d = algo_at(i);
                if (!(d->nets & (1u << net_kind(probe)))) continue;
                free(s.algo);
                s.algo = strdup(d->name);
                ok = app_take_spec(a, &s, 0);
                if (ok) app_msg(a, false, "net %s: %s does not run there, showing %s", value,
                                algo, d->name);
            }
        }
        if (probe) net_free(probe);
        if (!ok) app_msg(a, true, "%s", first);
    } else if (ok && strcmp(field, "profile") == 0 && strcmp(value, "off") != 0) {
        char perr[200];
        Profile *pr = profile_load(value, perr, sizeof perr);
        app_msg(a, false, "profile %s: %s", value, pr ? profile_about(pr) : perr);
        profile_free(pr);
    } else if (ok && strcmp(field, "profile") == 0) {
        app_msg(a, false, "profile off: the built-in constants");
    } else if (ok) {
        app_msg(a, false, "%s %s", field, value);
    }
    app_bspec_free(&s);
    return ok;
}

/* Add or replace K=V settings. */
bool app_sets(App *a, char **kv, size_t n)
{
    BSpec s;
    SetupSpec ss = app_bspec_setup(&a->b.spec);
    if (!app_bspec_from(&s, &ss)) { app_bspec_free(&s); return false; }
    char **grown = realloc(s.sets, (s.nsets + n + 1) * sizeof *grown);
    if (!grown) { app_bspec_free(&s); return false; }
    s.sets = grown;
    for (size_t i = 0; i < n; i++) {
        const char *eq = strchr(kv[i], '=');
        size_t kl = eq ? (size_t)(eq - kv[i]) : strlen(kv[i]);
        size_t j;
        for (j = 0; j < s.nsets; j++)
            if (strncmp(s.sets[j], kv[i], kl) == 0 && s.sets[j][kl] == '=')
                break;
        if (j < s.nsets) {
            free(s.sets[j]);
            s.sets[j] = strdup(kv[i]);
        } else {
            s.sets[s.nsets++] = strdup(kv[i]);
        }
    }
    bool ok = app_take_spec(a, &s, app_pos(a));
    if (ok) {
        char buf[200] = "";
        for (size_t i = 0; i < n; i++) {
            size_t l = strlen(buf);
            snprintf(buf + l, sizeof buf - l, "%s%s", i ? " " : "", kv[i]);
        }
        app_msg(a, false, "set %s", buf);
    }
    app_bspec_free(&s);
    return ok;
}

/* ---- the app -------------------------------------------------------------------------- */

App *app_new(void)
{
    App *a = calloc(1, sizeof *a);
    if (!a) return NULL;
    a->zoom_auto = true;
    a->sel_link = -1;
    a->speed = 3;
    a->color = true;
    a->shown_step = -1;
    a->chart.gen = -1;
    a->hist_node.gen = -1;
    a->narr_gen = -1;
    a->atl.gen = -1;
    a->atl.ev_node = -1;
    a->vatl.gen = -1;
    a->vatl.ev_node = -1;
    a->mode = MODE_MAP;
    a->comp_at = -1;
    a->tv = tileview_new();
    a->ov = overview_new();
    a->ft = fulltree_new();
    if (!a->tv || !a->ov || !a->ft) {
        tileview_free(a->tv);
        overview_free(a->ov);
        fulltree_free(a->ft);
        free(a);
        return NULL;
    }
    return a;
}

TileSrc app_tiles_src(const App *a)
{
    TileSrc s = {a->b.ready ? a->b.sched : NULL, a->b.ready ? a->b.setup.net : NULL, a->b.gen};
    return s;
}

OvSrc app_overview_src(const App *a)
{
    OvSrc s = {
        .net = a->b.ready ? a->b.setup.net : NULL,
        .sched = a->b.ready ? a->b.sched : NULL,
        .sim = a->b.ready ? a->b.sim : NULL,
        .gen = a->b.gen, .pos = a->b.pos, .step = app_step_shown(a),
        .block = a->ov_block,
        .map_x = a->lay.map_x, .map_y = a->lay.map_y, .map_w = a->lay.map_w, .map_h = a->lay.map_h,
        .cursor = a->cursor,
    };
    return s;
}

/* The FtSrc without the asynchronous time line's moment (what a click needs). */
static FtSrc fulltree_src(const App *a)
{
    FtSrc s = {
        .net = a->b.ready ? a->b.setup.net : NULL,
        .sched = a->b.ready ? a->b.sched : NULL,
        .sim = a->b.ready ? a->b.sim : NULL,
        .gen = a->b.gen, .pos = a->b.pos, .step = app_step_shown(a),
        .partials = a->b.ready ? a->b.partials : NULL,
        .map_x = a->lay.map_x, .map_y = a->lay.map_y, .map_w = a->lay.map_w, .map_h = a->lay.map_h,
        .cursor = a->cursor,
    };
    return s;
}

FtSrc app_fulltree_src(App *a)
{
    FtSrc s = fulltree_src(a);
    s.av = asynctl_view(a);
    return s;
}

static void free_items(App *a)
{
    for (size_t i = 0; i < a->nitems; i++) free(a->items[i]);
    free(a->items);
    a->items = NULL;
    a->nitems = a->pick_sel = 0;
}

static void hist_free(App *a)
{
    free(a->hist_node.held); free(a->hist_node.nsent); free(a->hist_node.nrecv);
    free(a->hist_node.to); free(a->hist_node.from);
    memset(&a->hist_node, 0, sizeof a->hist_node);
    a->hist_node.gen = -1;
}

void app_free(App *a)
{
    if (!a) return;
    app_bcast_free(&a->b);
    free_items(a);
    hist_free(a);
    overview_free(a->ov);
    tileview_free(a->tv);
    asynctl_free(a);
    fulltree_free(a->ft);
    vs_close(a);
    figure_free(a->fig);
    measured_free(a);
    cmdtab_complete_clear(a);
    if (a->lesson) lesson_free(a->lesson);
    free(a);
}

void app_layout(App *a, int w, int h)
{
    const Net *net = a->b.ready ? a->b.setup.net : NULL;
    layout_compute_big(&a->lay, net, w, h, a->zoom_auto ? -1 : a->zoom, true, a->view_r0,
                       a->view_c0, a->cursor, a->big);
    if (net) {
        a->zoom = a->lay.zoom;
        a->view_r0 = a->lay.vis_r0;
        a->view_c0 = a->lay.vis_c0;
    }
}

void app_tick(App *a)
{
    if (!a->playing) return;
    if (asynctl_view(a)) {   /* the time line: the next moment */
        asynctl_move(a, 1, true);
        if (asynctl_at_end(a)) a->playing = false;
        return;
    }
    if (app_pos(a) >= app_nsteps(a)) {
        a->playing = false;
        return;
    }
    app_goto(a, app_pos(a) + 1);
    if (app_pos(a) >= app_nsteps(a)) a->playing = false;
}

/* ---- lessons -------------------------------------------------------------------------- */

static void lesson_save(App *a)
{
    char err[200];
    if (a->lesson && !lesson_progress_save(a->lesson, &a->prog, err, sizeof err))
        app_msg(a, true, "%s", err);
}

void app_lesson_page(App *a, size_t i)
{
    if (!a->lesson) return;
    size_t n = lesson_npages(a->lesson);
    if (n == 0) return;
    if (i >= n) i = n - 1;
    const LessonPage *p = lesson_page(a->lesson, i);
    a->page = i;
    a->answered = false;
    a->last_answer = 0;
    a->last_choice = -1;
    a->try_why[0] = '\0';
    a->lesson_done = false;
    a->lesson_off = 0;
    a->sel_link = -1;
    if (p) {
        /* the page's own broadcast (lesson-state.h): never what happens to be on screen */
        LessonState st;
        lesson_state(a->lesson, i, &st);
        BSpec s = {.net = app_dupz(st.net), .algo = app_dupz(st.algo), .source = app_dupz(st.source),
                   .bytes = st.bytes ? app_dupz(st.bytes_text) : NULL, .model = app_dupz(st.model),
                   .fit = app_dupz(st.fit), .sources = app_dupz(st.sources)};
        s.sets = st.nset ? calloc(st.nset, sizeof *s.sets) : NULL;
        for (size_t k = 0; s.sets && k < st.nset; k++) s.sets[s.nsets++] = strdup(st.set[k]);
        int32_t show = lesson_state_shown_step(a->lesson, i, &st);   /* predict, then see */
        if (!a->b.ready || !app_bspec_same(&s, &a->b.spec)) app_take_spec(a, &s, show);
        app_bspec_free(&s);
        app_goto(a, show);
        a->shown_step = st.step;
        if (p->nnodes > 0) a->cursor = p->nodes[0];
    }
    if (i < 256) a->prog.seen[i] = true;
    a->prog.npages = n;
    a->prog.last_page = i;
    lesson_save(a);
    a->panel = PANEL_LESSON;
}

/* lesson_load on a worker thread when the loop has a wait hook: a lesson is a script. */
typedef struct {
    const char *name;
    Lesson *l;
    char err[300];
} LessonJob;

static void lesson_job(void *v)
{
    LessonJob *j = v;
    j->l = lesson_load(j->name, j->err, sizeof j->err);
}

bool app_open_lesson(App *a, const char *name)
{
    LessonJob j = {name, NULL, ""};
    a->cancelled = false;
    if (a->wait) {
        AppWaitCtx w = {a, ""};
        snprintf(w.what, sizeof w.what, "loading lesson %s", name);
        if (!job_run(lesson_job, &j, app_build_wait, &w)) {
            a->cancelled = true;
            if (j.l) lesson_free(j.l);
            app_msg(a, true, "lesson %s: cancelled", name);
            return false;
        }
    } else {
        lesson_job(&j);
    }
    Lesson *l = j.l;
    char *err = j.err;
    if (!l) {
        app_msg(a, true, "%s", err[0] ? err : "cannot load lesson");
        return false;
    }
    if (a->lesson) lesson_free(a->lesson);
    a->lesson = l;
    memset(&a->prog, 0, sizeof a->prog);
    lesson_progress_load(l, &a->prog);
    size_t start = a->prog.last_page < lesson_npages(l) ? a->prog.last_page : 0;
    app_lesson_page(a, start);
    app_msg(a, false, "lesson: %s", lesson_title(l));
    return true;
}

/* R, y: the lesson's progress forgotten (its file deleted), back to page 1. */
static void lesson_restart(App *a)
{
    char err[300];
    if (lesson_progress_clear(lesson_id(a->lesson), err, sizeof err) < 0) {
        app_msg(a, true, "%s", err);
        return;
    }
    memset(&a->prog, 0, sizeof a->prog);
    app_lesson_page(a, 0);
    app_msg(a, false, "lesson %s restarted: no page seen, no question answered",
            lesson_id(a->lesson));
}

static const LessonPage *cur_page(const App *a)
{
    return a->lesson ? lesson_page(a->lesson, a->page) : NULL;
}

static void lesson_answer(App *a, bool right)
{
    a->last_answer = right ? 1 : -1;
    a->lesson_answers++;
    if (right) a->answered = true;
    a->lesson_follow = true;
    if (a->page < 256) {
        if (!a->prog.first[a->page]) a->prog.first[a->page] = (int8_t)(right ? 1 : -1);
        a->prog.answer[a->page] = (int8_t)(right ? 1 : -1);
    }
    lesson_save(a);
    app_msg(a, !right, right ? "Right!" : "Not quite - try again.");
    if (right) {   /* then see: a click question's step is shown once answered */
        LessonState st;
        lesson_state(a->lesson, a->page, &st);
        if (a->b.pos != st.step && lesson_state_shown_step(a->lesson, a->page, &st) != st.step)
            app_goto(a, st.step);
    }
}

/* A "now you try" task: is what is shown the state asked for? */
static void lesson_answer_try(App *a)
{
    const LessonPage *p = cur_page(a);
    if (!p || p->qkind != LESSON_Q_TRY || a->answered || !a->b.ready) return;
    bool met = lesson_try_met(&p->want, &a->b.setup, a->b.pos, a->cursor, a->try_why,
                              sizeof a->try_why);
    lesson_answer(a, met);
    if (!met) app_msg(a, true, "Not yet: %s.", a->try_why);
}

static bool lesson_question_open(const App *a)
{
    const LessonPage *p = cur_page(a);
    return p && p->qkind != LESSON_Q_NONE && !a->answered && a->panel == PANEL_LESSON &&
           !a->lesson_done;
}

static void lesson_answer_node(App *a, int32_t node)
{
    const LessonPage *p = cur_page(a);
    if (!p || p->qkind != LESSON_Q_NODE || a->answered) return;
    lesson_answer(a, node == p->answer_node);
}

static bool link_matches(const App *a, int64_t got, int64_t want, bool any)
{
    if (got == want) return true;
    if (!any || !a->b.ready) return false;
    const Net *net = a->b.setup.net;
    int32_t node; int dim, dir;
    net_link_info(net, got, &node, &dim, &dir);
    int32_t head = net_link_head(net, got);
    return head >= 0 && net_link(net, head, dim, -dir) == want;
}

static void lesson_answer_link(App *a, int64_t link)
{
    const LessonPage *p = cur_page(a);
    if (!p || p->qkind != LESSON_Q_LINK || a->answered) return;
    lesson_answer(a, link_matches(a, link, p->answer_link, p->link_any_direction));
}

/* ---- pickers -------------------------------------------------------------------------- */

static void items_add(App *a, const char *s)
{
    char **g = realloc(a->items, (a->nitems + 1) * sizeof *g);
    if (!g) return;
    a->items = g;
    a->items[a->nitems++] = strdup(s);
}

void app_bytes_text(char *buf, size_t len, uint64_t v)
{
    if (v >= (UINT64_C(1) << 20) && v % (UINT64_C(1) << 20) == 0)
        snprintf(buf, len, "%lluM", (unsigned long long)(v >> 20));
    else if (v >= 1024 && v % 1024 == 0)
        snprintf(buf, len, "%lluK", (unsigned long long)(v >> 10));
    else
        snprintf(buf, len, "%llu", (unsigned long long)v);
}

static void open_picker(App *a, PickKind k)
{
    free_items(a);
    a->pick = k;
    char buf[64];
    switch (k) {
    case PICK_ALGO: {
        /* the built-ins that run here, then the Lua scripts on the search path that do */
        char *names[160];
        size_t n = algo_names(a->b.ready ? a->b.setup.net : NULL, names, 160);
        for (size_t i = 0; i < n; i++) { items_add(a, names[i]); free(names[i]); }
        break;
    }
    case PICK_NET: {
        static const char *nets[] = {"array:8", "array:16", "array:64", "ring:16", "mesh:4x4",
                                     "mesh:8x8", "mesh:16x16", "mesh:32x32", "mesh:64x64",
                                     "torus:5x5", "torus:8x8", "torus:16x16", "mesh:4x4x4"};
        for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++) items_add(a, nets[i]);
        break;
    }
    case PICK_BYTES: {
        /* powers of 4 from 16 to 1M (1K and 1M among them), and the current size in order */
        uint64_t cur = a->b.ready ? a->b.setup.args.bytes : 0;
        bool put_cur = cur == 0;
        for (uint64_t b = 16; b <= (UINT64_C(1) << 20); b *= 4) {
            if (!put_cur && cur <= b) {
                put_cur = true;
                if (cur < b) {
                    app_bytes_text(buf, sizeof buf, cur);
                    items_add(a, buf);
                }
            }
            app_bytes_text(buf, sizeof buf, b);
            items_add(a, buf);
        }
        if (!put_cur) {
            app_bytes_text(buf, sizeof buf, cur);
            items_add(a, buf);
        }
        break;
    }
    case PICK_MODEL:
        for (int m = 0; m < COST_NMODELS; m++) items_add(a, cost_model_name((CostModel)m));
        break;
    case PICK_SOURCE:
        break;
    case PICK_LESSON: {
        /* in the course's order, a heading per track (course.h) */
        char err[300], line[512];
        Course *c = course_load(NULL, err, sizeof err);
        if (!c) app_msg(a, true, "%s", err);
        if (!c) c = course_none();   /* a broken course file: the lessons by name */
        const char *names[COURSE_MAXLESSONS];
        size_t track[COURSE_MAXLESSONS];
        size_t n = c ? course_order(c, names, track, COURSE_MAXLESSONS) : 0;
        for (size_t i = 0; i < n; i++) {
            if ((i == 0 || track[i] != track[i - 1]) && course_ntracks(c) > 0) {
                lesson_pick_heading(course_track_title(c, track[i]), line, sizeof line);
                items_add(a, line);
                if (a->nitems == 1) a->pick_sel = 1;
            }
            lesson_pick_line(names[i], line, sizeof line);   /* title, pages, progress */
            items_add(a, line);
        }
        course_free(c);
        if (n == 0) {
            app_msg(a, true, "no lessons found (lessons/*.lua on the search path)");
            return;
        }
        break;
    }
    }
    if (a->nitems == 0) return;
    /* start on the current value */
    const char *cur = k == PICK_ALGO ? a->b.spec.algo : k == PICK_NET ? a->b.spec.net
                    : k == PICK_BYTES ? a->b.spec.bytes : k == PICK_MODEL ? a->b.spec.model : NULL;
    if (a->b.ready && k == PICK_NET) cur = net_spec(a->b.setup.net);
    if (a->b.ready && k == PICK_ALGO) cur = a->b.setup.def->name;
    if (a->b.ready && k == PICK_BYTES) {
        app_bytes_text(buf, sizeof buf, a->b.setup.args.bytes);
        cur = buf;
    }
    for (size_t i = 0; cur && i < a->nitems; i++)
        if (strcmp(a->items[i], cur) == 0) a->pick_sel = i;
    /* the lesson open now (a lesson's line starts with its name and two spaces) */
    size_t idl = a->lesson ? strlen(lesson_id(a->lesson)) : 0;
    for (size_t i = 0; k == PICK_LESSON && idl && i < a->nitems; i++)
        if (strncmp(a->items[i], lesson_id(a->lesson), idl) == 0 && a->items[i][idl] == ' ')
            a->pick_sel = i;
    a->mode = MODE_PICKER;
}

static void picker_choose(App *a)
{
    if (a->pick_sel >= a->nitems) return;
    if (a->pick == PICK_LESSON && lesson_pick_is_heading(a->items[a->pick_sel])) return;
    char *v = strdup(a->items[a->pick_sel]);
    PickKind k = a->pick;
    a->mode = MODE_MAP;
    free_items(a);
    if (!v) return;
    switch (k) {
    case PICK_ALGO: app_change(a, "algo", v); break;
    case PICK_NET: app_change(a, "net", v); break;
    case PICK_BYTES: app_change(a, "bytes", v); break;
    case PICK_MODEL: app_change(a, "model", v); break;
    case PICK_LESSON: app_open_lesson(a, lesson_pick_name(v)); break;
    case PICK_SOURCE: break;
    }
    free(v);
}

/* ---- commands (cmdtab.h: the table) ----------------------------------------------------- */

bool app_command(App *a, const char *line) { return cmdtab_run(a, line); }

void app_complete(App *a) { cmdtab_complete(a, 1); }

/* ---- keys ----------------------------------------------------------------------------- */

typedef enum {
    K_NONE, K_NEXT, K_PREV, K_FIRST, K_LAST, K_PLAY, K_FASTER, K_SLOWER, K_LEFT, K_RIGHT, K_UP,
    K_DOWN, K_PAN_L, K_PAN_R, K_PAN_U, K_PAN_D, K_ZOOM_IN, K_ZOOM_OUT, K_ZOOM_FIT, K_PANEL,
    K_PANEL_BACK, K_SELECT, K_LINK, K_SOURCE, K_P_ALGO, K_P_NET, K_P_BYTES, K_P_MODEL,
    K_P_LESSON, K_PAGE_NEXT, K_PAGE_PREV, K_HELP, K_QUIT, K_REDRAW, K_CMD, K_ESC, K_SUSPEND,
    K_TILES, K_TIMING, K_LESSON_DOWN, K_LESSON_UP, K_LESSON_RESTART,
} Act;

static const struct { const char *key; Act act; } keymap[] = {
    {"n", K_NEXT}, {".", K_NEXT}, {"<PageDown>", K_NEXT},
    {"p", K_PREV}, {",", K_PREV}, {"<PageUp>", K_PREV}, {"<Backspace>", K_PREV},
    {"g", K_FIRST}, {"<Home>", K_FIRST}, {"G", K_LAST}, {"<End>", K_LAST},
    {"<Space>", K_PLAY}, {"+", K_FASTER}, {"=", K_FASTER}, {"-", K_SLOWER},
    {"h", K_LEFT}, {"<Left>", K_LEFT}, {"l", K_RIGHT}, {"<Right>", K_RIGHT},
    {"k", K_UP}, {"<Up>", K_UP}, {"j", K_DOWN}, {"<Down>", K_DOWN},
    {"H", K_PAN_L}, {"<S-Left>", K_PAN_L}, {"L", K_PAN_R}, {"<S-Right>", K_PAN_R},
    {"K", K_PAN_U}, {"<S-Up>", K_PAN_U}, {"J", K_PAN_D}, {"<S-Down>", K_PAN_D},
    {"z", K_ZOOM_IN}, {"Z", K_ZOOM_OUT}, {"0", K_ZOOM_FIT},
    {"<Tab>", K_PANEL}, {"<S-Tab>", K_PANEL_BACK},
    {"<Enter>", K_SELECT}, {"e", K_LINK}, {"s", K_SOURCE},
    {"a", K_P_ALGO}, {"t", K_P_NET}, {"b", K_P_BYTES}, {"m", K_P_MODEL}, {"o", K_P_LESSON},
    {"]", K_PAGE_NEXT}, {"[", K_PAGE_PREV}, {"}", K_LESSON_DOWN}, {"{", K_LESSON_UP},
    {"R", K_LESSON_RESTART},
    {"?", K_HELP}, {"<F1>", K_HELP}, {"q", K_QUIT}, {"<C-c>", K_QUIT}, {"<C-l>", K_REDRAW}, {"<C-z>", K_SUSPEND},
    {":", K_CMD}, {"<Escape>", K_ESC}, {"T", K_TILES}, {"A", K_TIMING},
};

static const AppKeyHelp key_help[] = {
    {"n . PgDn", "next step"},
    {"p , PgUp BkSp", "previous step"},
    {"g Home / G End", "first / last step"},
    {"Space", "play / pause"},
    {"+ = / -", "play faster / slower"},
    {"arrows hjkl", "move the node cursor"},
    {"HJKL S-arrows", "pan the map"},
    {"z / Z / 0", "zoom in / out (past the smallest: the overview) / fit"},
    {"wheel", "zoom in / out"},
    {"click", "select a node or a link"},
    {"Enter", "inspect the cursor node; answer a node/link question"},
    {"e", "select the next link at the cursor node"},
    {"s", "make the cursor node the source"},
    {"Tab / S-Tab", "next / previous panel (step, timeline, node, chart, lesson)"},
    {"a t b m", "pick algorithm / net / bytes / model"},
    {"o", "pick a lesson"},
    {"T", "tiles of the broadcast tree on the map: next level, then off"},
    {"A", "timing: the asynchronous time line (moments), or back to lockstep steps"},
    {"] / [", "lesson: next / previous page"},
    {"} / {", "lesson: scroll the page down / up (v: more below)"},
    {"a b c ...", "lesson: answer a multiple-choice question"},
    {"R", "lesson: restart it, its progress forgotten (y to confirm)"},
    {":", "command line (Tab completes, again: the next candidate; Up/Down history)"},
    {"Escape", "close, cancel, clear the selection"},
    {"Ctrl-L", "redraw the screen"},
    {"Ctrl-Z", "suspend (fg in the shell comes back)"},
    {"?  F1", "this help"},
    {"q  Ctrl-C", "quit"},
};

const AppKeyHelp *app_key_help(size_t *n)
{
    *n = sizeof key_help / sizeof key_help[0];
    return key_help;
}

static void move_cursor(App *a, int dr, int dc)
{
    if (!a->b.ready) return;
    if (a->ov_block > 0) {          /* the overview: a block at a time */
        dr *= a->ov_block;
        dc *= overview_bcols(a->b.setup.net, a->ov_block);
    }
    const Net *net = a->b.setup.net;
    if (net_ndim(net) == 1) {
        /* an array or ring, folded or not: right is the next node (across rows), down the
         * node a row further */
        int64_t per = a->lay.per_row > 0 ? a->lay.per_row : 1;
        int64_t to = (int64_t)a->cursor + dc + (int64_t)dr * per;
        int64_t last = net_size(net) - 1;
        a->cursor = (int32_t)(to < 0 ? 0 : to > last ? last : to);
        a->sel_link = -1;
        return;
    }
    int gr, gc;
    layout_node_grid(&a->lay, net, a->cursor, &gr, &gc);
    int nr = gr + dr, nc = gc + dc;
    if (a->lay.grid_rows <= 0) return;
    if (nr < 0) nr = 0;
    if (nr >= a->lay.grid_rows) nr = a->lay.grid_rows - 1;
    if (nc < 0) nc = 0;
    if (nc >= a->lay.grid_cols) nc = a->lay.grid_cols - 1;
    int32_t n = layout_grid_node(&a->lay, net, nr, nc);
    /* skip the gaps between 3-D slices */
    if (n < 0 && dc != 0) n = layout_grid_node(&a->lay, net, nr, nc + (dc > 0 ? 1 : -1));
    if (n < 0 && net_ndim(net) == 1) n = net_size(net) - 1;
    if (n >= 0) {
        a->cursor = n;
        a->sel_link = -1;
    }
}

/* Cycle through the directed links at the cursor node (out and in, every dimension). */
static void cycle_link(App *a)
{
    if (!a->b.ready) return;
    const Net *net = a->b.setup.net;
    int64_t cand[4 * NET_MAXDIM];
    int nc = 0;
    for (int d = 0; d < net_ndim(net); d++)
        for (int dir = 1; dir >= -1; dir -= 2) {
            int32_t nb = net_neighbor(net, a->cursor, d, dir);
            if (nb < 0) continue;
            cand[nc++] = net_link(net, a->cursor, d, dir);
            cand[nc++] = net_link(net, nb, d, -dir);
        }
    if (nc == 0) return;
    int at = -1;
    for (int i = 0; i < nc; i++) if (cand[i] == a->sel_link) at = i;
    a->sel_link = cand[(at + 1) % nc];
}

static void set_zoom(App *a, int z)
{
    /* past the smallest zoom, when the net does not fit: the overview (overview.h) */
    if (a->ov_block > 0) {
        if (z >= a->zoom) {
            a->ov_block *= 2;
            return;
        }
        int fit = a->b.ready ? overview_fit(a->b.setup.net, a->lay.map_w, a->lay.map_h) : 1;
        a->ov_block = a->ov_block > fit ? a->ov_block / 2 : 0;
        if (a->ov_block > 0) return;
        z = LAYOUT_NZOOM - 1;
    } else if (z >= LAYOUT_NZOOM && a->b.ready && overview_supported(a->b.setup.net) &&
               (a->lay.vis_rows < a->lay.grid_rows || a->lay.vis_cols < a->lay.grid_cols)) {
        a->ov_block = overview_fit(a->b.setup.net, a->lay.map_w, a->lay.map_h);
        a->zoom_auto = false;
        return;
    }
    if (z < 0) z = 0;
    if (z >= LAYOUT_NZOOM) z = LAYOUT_NZOOM - 1;
    a->zoom = z;
    a->zoom_auto = false;
}

static void next_panel(App *a, int d)
{
    int n = a->lesson ? PANEL_N : PANEL_N - 1;
    a->panel = (Panel)(((int)a->panel + d + n) % n);
}

static void map_act(App *a, Act act)
{
    int half_r = a->lay.vis_rows > 2 ? a->lay.vis_rows / 2 : 1;
    int half_c = a->lay.vis_cols > 2 ? a->lay.vis_cols / 2 : 1;
    switch (act) {
    case K_NONE: break;
    case K_NEXT:
    case K_PREV:
    case K_FIRST:
    case K_LAST:
        if (asynctl_view(a)) {   /* the time line: moment to moment (asynctl.h) */
            a->playing = false;
            int64_t to = act == K_NEXT ? 1 : act == K_PREV ? -1 : act == K_FIRST ? 0 : INT64_MAX / 2;
            asynctl_move(a, to, act == K_NEXT || act == K_PREV);
            break;
        }
        if (act == K_PREV) { a->playing = false; app_goto(a, app_pos(a) - 1); break; }
        if (act == K_FIRST) { a->playing = false; app_goto(a, 0); break; }
        if (act == K_LAST) { a->playing = false; app_goto(a, app_nsteps(a)); break; }
        a->playing = false; app_goto(a, app_pos(a) + 1); break;
    case K_PLAY:
        if (asynctl_view(a)) {
            if (!a->playing && asynctl_at_end(a)) asynctl_move(a, 0, false);
            a->playing = !a->playing;
            break;
        }
        if (!a->playing && app_pos(a) >= app_nsteps(a)) app_goto(a, 0);
        a->playing = !a->playing;
        break;
    case K_FASTER: if (a->speed + 1 < app_nspeeds) a->speed++; break;
    case K_SLOWER: if (a->speed > 0) a->speed--; break;
    case K_LEFT: move_cursor(a, 0, -1); break;
    case K_RIGHT: move_cursor(a, 0, 1); break;
    case K_UP: move_cursor(a, -1, 0); break;
    case K_DOWN: move_cursor(a, 1, 0); break;
    case K_PAN_L: move_cursor(a, 0, -half_c); break;
    case K_PAN_R: move_cursor(a, 0, half_c); break;
    case K_PAN_U: move_cursor(a, -half_r, 0); break;
    case K_PAN_D: move_cursor(a, half_r, 0); break;
    case K_ZOOM_IN: set_zoom(a, a->zoom - 1); break;
    case K_ZOOM_OUT: set_zoom(a, a->zoom + 1); break;
    case K_ZOOM_FIT: a->zoom_auto = true; break;
    case K_PANEL: next_panel(a, 1); break;
    case K_PANEL_BACK: next_panel(a, -1); break;
    case K_SELECT: {
        const LessonPage *p = cur_page(a);
        if (a->lesson && p && p->qkind == LESSON_Q_TRY && !a->answered && !a->lesson_done) {
            lesson_answer_try(a);
            a->panel = PANEL_LESSON;
            break;
        }
        if (a->lesson && a->panel == PANEL_LESSON && p && !a->answered) {
            if (p->qkind == LESSON_Q_NODE) { lesson_answer_node(a, a->cursor); break; }
            if (p->qkind == LESSON_Q_LINK) {
                if (a->sel_link < 0) app_msg(a, true, "select a link first (click it, or e)");
                else lesson_answer_link(a, a->sel_link);
                break;
            }
        }
        a->panel = PANEL_NODE;
        break;
    }
    case K_LINK: cycle_link(a); break;
    case K_SOURCE:
        if (a->b.ready) {
            char buf[32];
            snprintf(buf, sizeof buf, "%ld", (long)a->cursor);
            app_change(a, "source", buf);
        }
        break;
    case K_P_ALGO: open_picker(a, PICK_ALGO); break;
    case K_P_NET: open_picker(a, PICK_NET); break;
    case K_P_BYTES: open_picker(a, PICK_BYTES); break;
    case K_P_MODEL: open_picker(a, PICK_MODEL); break;
    case K_P_LESSON: open_picker(a, PICK_LESSON); break;
    case K_PAGE_NEXT:
        if (!a->lesson) app_msg(a, true, "no lesson open (o picks one)");
        else if (a->page + 1 < lesson_npages(a->lesson)) app_lesson_page(a, a->page + 1);
        else if (a->lesson_done && a->lesson_next[0]) {   /* the summary: on to the next */
            char next[sizeof a->lesson_next];
            memcpy(next, a->lesson_next, sizeof next);
            app_open_lesson(a, next);
        } else {   /* past the last page: the summary, and the course's next lesson */
            a->lesson_done = true;
            a->lesson_off = 0;
            a->panel = PANEL_LESSON;
            char err[300];
            Course *c = course_load(NULL, err, sizeof err);
            const char *next = course_next(c, lesson_id(a->lesson));
            snprintf(a->lesson_next, sizeof a->lesson_next, "%s", next ? next : "");
            course_free(c);   /* next is gone with it: a->lesson_next holds the name */
            app_msg(a, false, "the end of the lesson ([ back to its last page%s%s)",
                    a->lesson_next[0] ? ", ] the next: " : "", a->lesson_next);
        }
        break;
    case K_LESSON_RESTART:
        if (!a->lesson) { app_msg(a, true, "R restarts a lesson: no lesson is open (o)"); break; }
        a->lesson_confirm = true;
        app_msg(a, true, "Restart '%s' from page 1, forgetting its pages seen and answers? "
                "y: restart, any other key: keep them", lesson_id(a->lesson));
        break;
    case K_LESSON_DOWN:
    case K_LESSON_UP:
        if (!a->lesson) { app_msg(a, true, "no lesson open (o picks one)"); break; }
        a->panel = PANEL_LESSON;   /* a page down at a time, less a line to keep the place */
        a->lesson_off += (act == K_LESSON_DOWN ? 1 : -1) *
                         (a->lesson_view > 2 ? a->lesson_view - 1 : 1);
        if (a->lesson_off < 0) a->lesson_off = 0;   /* the bottom is kept when drawn */
        break;
    case K_PAGE_PREV:
        if (a->lesson && a->lesson_done) {
            a->lesson_done = false;
            a->lesson_off = 0;
            a->panel = PANEL_LESSON;
        }
        else if (a->lesson && a->page > 0) app_lesson_page(a, a->page - 1);
        break;
    case K_HELP: a->mode = MODE_HELP; a->help_top = 0; break;
    case K_TILES: {
        char t[200];
        TileSrc src = app_tiles_src(a);
        bool ok = tileview_cycle(a->tv, &src, t, sizeof t);
        app_msg(a, !ok, "%s", t);
        break;
    }
    case K_TIMING: asynctl_set(a, !a->async_tl); break;
    case K_QUIT: a->quit = true; break;
    case K_REDRAW: a->redraw = true; break;
    case K_SUSPEND: a->suspend = true; break;
    case K_CMD:
        a->mode = MODE_CMDLINE;
        a->cmdlen = 0;
        a->cmd[0] = '\0';
        a->hist_at = a->nhist;
        a->msg[0] = '\0';
        break;
    case K_ESC:
        a->sel_link = -1;
        a->msg[0] = '\0';
        measured_cancel(a);   /* a running :exec ends (its message says so) */
        break;
    }
}

/* The text a printable key stands for ("a", "<Space>" -> " "); NULL if not printable. */
static const char *key_text(const char *key)
{
    if (strcmp(key, "<Space>") == 0) return " ";
    if (key[0] == '<' && key[1] != '\0') return NULL;
    if ((unsigned char)key[0] < 0x20) return NULL;
    return key;
}

static void cmdline_key(App *a, const char *key)
{
    if (strcmp(key, "<Tab>") == 0 || strcmp(key, "<S-Tab>") == 0) {
        cmdtab_complete(a, key[1] == 'T' ? 1 : -1);
        return;
    }
    cmdtab_complete_clear(a);   /* any other key: the listed candidates go */
    if (strcmp(key, "<Escape>") == 0 || strcmp(key, "<C-c>") == 0 || strcmp(key, "<C-g>") == 0) {
        a->mode = MODE_MAP;
        return;
    }
    if (strcmp(key, "<Enter>") == 0) {
        a->cmd[a->cmdlen] = '\0';
        a->mode = MODE_MAP;
        if (a->cmdlen > 0) {
            if (a->nhist == 16) {
                memmove(a->hist[0], a->hist[1], sizeof a->hist[0] * 15);
                a->nhist--;
            }
            snprintf(a->hist[a->nhist++], sizeof a->hist[0], "%s", a->cmd);
            char line[256];
            snprintf(line, sizeof line, "%s", a->cmd);
            app_command(a, line);
        }
        return;
    }
    if (strcmp(key, "<Backspace>") == 0 || strcmp(key, "<C-h>") == 0 ||
        strcmp(key, "<DEL>") == 0) {
        if (a->cmdlen == 0) { a->mode = MODE_MAP; return; }
        /* drop one UTF-8 character */
        do a->cmdlen--; while (a->cmdlen > 0 && ((unsigned char)a->cmd[a->cmdlen] & 0xC0) == 0x80);
        a->cmd[a->cmdlen] = '\0';
        return;
    }
    if (strcmp(key, "<C-u>") == 0) { a->cmdlen = 0; a->cmd[0] = '\0'; return; }
    if (strcmp(key, "<C-w>") == 0) {
        while (a->cmdlen > 0 && a->cmd[a->cmdlen - 1] == ' ') a->cmdlen--;
        while (a->cmdlen > 0 && a->cmd[a->cmdlen - 1] != ' ') a->cmdlen--;
        a->cmd[a->cmdlen] = '\0';
        return;
    }
    if (strcmp(key, "<Up>") == 0 || strcmp(key, "<Down>") == 0) {
        int d = key[1] == 'U' ? -1 : 1;
        int at = a->hist_at + d;
        if (at < 0 || at > a->nhist) return;
        a->hist_at = at;
        snprintf(a->cmd, sizeof a->cmd, "%s", at < a->nhist ? a->hist[at] : "");
        a->cmdlen = strlen(a->cmd);
        return;
    }
    const char *t = key_text(key);
    if (t) {
        size_t l = strlen(t);
        if (a->cmdlen + l < sizeof a->cmd - 1) {
            memcpy(a->cmd + a->cmdlen, t, l);
            a->cmdlen += l;
            a->cmd[a->cmdlen] = '\0';
        }
    }
}

/* The lesson picker's track headings cannot be chosen: move on past them in direction dir
 * (back the other way at either end). */
static void picker_skip(App *a, int dir)
{
    if (a->pick != PICK_LESSON) return;
    for (int pass = 0; pass < 2; pass++, dir = -dir)
        while (a->pick_sel < a->nitems && lesson_pick_is_heading(a->items[a->pick_sel])) {
            if ((dir < 0 && a->pick_sel == 0) || (dir > 0 && a->pick_sel + 1 >= a->nitems)) break;
            a->pick_sel += dir > 0 ? 1 : (size_t)-1;
        }
}

static void picker_key(App *a, const char *key)
{
    if (strcmp(key, "<Escape>") == 0 || strcmp(key, "q") == 0 || strcmp(key, "<C-c>") == 0) {
        a->mode = MODE_MAP;
        free_items(a);
    } else if (strcmp(key, "<Enter>") == 0 || strcmp(key, "l") == 0 ||
               strcmp(key, "<Right>") == 0) {
        picker_choose(a);
    } else if (strcmp(key, "<Down>") == 0 || strcmp(key, "j") == 0 || strcmp(key, "<Tab>") == 0) {
        if (a->pick_sel + 1 < a->nitems) a->pick_sel++;
        picker_skip(a, 1);
    } else if (strcmp(key, "<Up>") == 0 || strcmp(key, "k") == 0 || strcmp(key, "<S-Tab>") == 0) {
        if (a->pick_sel > 0) a->pick_sel--;
        picker_skip(a, -1);
    } else if (strcmp(key, "g") == 0 || strcmp(key, "<Home>") == 0) {
        a->pick_sel = 0;
        picker_skip(a, 1);
    } else if (strcmp(key, "G") == 0 || strcmp(key, "<End>") == 0) {
        a->pick_sel = a->nitems ? a->nitems - 1 : 0;
        picker_skip(a, -1);
    }
}

void app_key(App *a, const char *key)
{
    switch (a->mode) {
    case MODE_CMDLINE: cmdline_key(a, key); return;
    case MODE_PICKER: picker_key(a, key); return;
    case MODE_HELP:
        if (strcmp(key, "j") == 0 || strcmp(key, "<Down>") == 0) a->help_top++;
        else if (strcmp(key, "k") == 0 || strcmp(key, "<Up>") == 0) {
            if (a->help_top > 0) a->help_top--;
        } else if (strcmp(key, "<C-c>") == 0) a->quit = true;
        else if (strcmp(key, "<C-l>") == 0) a->redraw = true;
        else a->mode = MODE_MAP;
        return;
    case MODE_MAP: break;
    }
    a->msg[0] = '\0';   /* a message lasts until the next key */
    if (a->lesson_confirm) {   /* R asked: y restarts, any other key keeps the progress */
        a->lesson_confirm = false;
        if (strcmp(key, "y") == 0 && a->lesson) lesson_restart(a);
        else app_msg(a, false, "not restarted: the progress is kept");
        return;
    }
    /* a lesson's multiple-choice question takes its letters first */
    const LessonPage *p = cur_page(a);
    if (p && p->qkind == LESSON_Q_CHOICE && lesson_question_open(a) && key[0] >= 'a' &&
        key[1] == '\0' && (size_t)(key[0] - 'a') < p->nchoices) {
        a->last_choice = key[0] - 'a';
        lesson_answer(a, key[0] - 'a' == p->answer_choice);
        return;
    }
    for (size_t i = 0; i < sizeof keymap / sizeof keymap[0]; i++)
        if (strcmp(keymap[i].key, key) == 0) {
            map_act(a, keymap[i].act);
            return;
        }
}

/* ---- mouse ---------------------------------------------------------------------------- */

void app_mouse(App *a, int button, bool press, int line, int col)
{
    if (!press || a->lay.too_small) return;
    if (a->mode == MODE_HELP) { a->mode = MODE_MAP; return; }
    if (a->mode != MODE_MAP || !a->b.ready) return;
    if (button == 4) { set_zoom(a, a->zoom - 1); return; }
    if (button == 5) { set_zoom(a, a->zoom + 1); return; }
    if (button != 1) return;
    /* a click on a row of the timeline goes to that step */
    if (a->panel == PANEL_TIMELINE && col >= a->lay.side_x && line >= a->tl_y0 &&
        line < a->tl_y0 + a->tl_rows) {
        a->playing = false;
        app_goto(a, a->tl_first + (line - a->tl_y0) / (a->tl_per > 1 ? a->tl_per : 1) + 1);
        return;
    }
    const Net *net = a->b.setup.net;
    int32_t node = -1;
    int64_t link = -1;
    int what = layout_hit(&a->lay, net, col, line, &node, &link);
    FtSrc fs = fulltree_src(a);
    if ((fulltree_active(&fs) || hxview_active(&fs)) && !a->vs && a->ov_block == 0) {
        /* the tree's cells, or the hxbar modules' */
        node = fulltree_hit(a->ft, col, line);
        what = node >= 0 ? 1 : 0;
    }
    if (what == 1) {
        a->cursor = node;
        a->sel_link = -1;
        const LessonPage *p = cur_page(a);
        if (p && p->qkind == LESSON_Q_NODE && lesson_question_open(a))
            lesson_answer_node(a, node);
    } else if (what == 2) {
        /* prefer the direction that carries a circuit in the step shown */
        int32_t step = app_step_shown(a);
        if (step >= 0) {
            int32_t from; int dim, dir;
            net_link_info(net, link, &from, &dim, &dir);
            int32_t head = net_link_head(net, link);
            int64_t rev = head >= 0 ? net_link(net, head, dim, -dir) : -1;
            if (rev >= 0 && sim_link_load(a->b.sim, step, link) == 0 &&
                sim_link_load(a->b.sim, step, rev) > 0)
                link = rev;
        }
        a->sel_link = link;
        int32_t from; int dim, dir;
        net_link_info(net, link, &from, &dim, &dir);
        a->cursor = from;
        const LessonPage *p = cur_page(a);
        if (p && p->qkind == LESSON_Q_LINK && lesson_question_open(a))
            lesson_answer_link(a, link);
    }
}

/* ---- the comparison chart ------------------------------------------------------------- */

/* The simulated cost of algorithm `name` on the current net, source, model and settings at
 * `bytes`; -1 if it cannot be built or is not verified.  *ok: verified and valid. */
static double chart_cost(App *a, const char *name, uint64_t bytes, bool *ok)
{
    char netspec[64], src[32], by[32], err[200];
    snprintf(netspec, sizeof netspec, "%s", net_spec(a->b.setup.net));
    snprintf(src, sizeof src, "%ld", (long)a->b.setup.args.source);
    snprintf(by, sizeof by, "%llu", (unsigned long long)bytes);
    SetupSpec ss = {netspec, name, a->b.spec.sources ? NULL : src, by, a->b.spec.model,
                    a->b.spec.fit, (const char *const *)a->b.spec.sets, a->b.spec.nsets,
                    a->b.spec.sources, NULL, a->b.spec.profile, NULL};
    Setup st;
    double cost = -1;
    *ok = false;
    if (setup_make(&ss, &st, err, sizeof err)) {
        Sched *sc = algo_build(st.def, st.net, &st.args, err, sizeof err);
        if (sc) {
            Sim *sim = sim_run(sc, &st.cost, 0, err, sizeof err);
            if (sim) {
                const SimTotals *t = sim_totals(sim);
                if (t->verified) {
                    cost = t->cost.total;
                    *ok = t->valid;
                }
                sim_free(sim);
            }
            sched_free(sc);
        }
        setup_free(&st);
    }
    return cost;
}

const Chart *app_chart(App *a)
{
    Chart *c = &a->chart;
    if (!a->b.ready || c->gen == a->b.gen) return c;
    memset(c, 0, sizeof *c);
    c->gen = a->b.gen;
    const Net *net = a->b.setup.net;
    for (int i = 0; i < CHART_NSIZES; i++) c->bytes[i] = (uint64_t)8 << i;
    if (net_size(net) > 16384) {
        snprintf(c->note, sizeof c->note, "net too large for a live chart: meshcast compare --net %s",
                 net_spec(net));
        c->done = true;
    }
    return c;
}

static void chart_sampled(Chart *c);
static void chart_bisect_step(App *a, Chart *c);

bool app_chart_work(App *a)
{
    Chart *c = (Chart *)app_chart(a);
    if (!a->b.ready || c->done) return false;
    const Net *net = a->b.setup.net;
    if (c->sampled) {
        if (c->cross_next < c->ncross) {
            chart_bisect_step(a, c);
            return true;
        }
        c->done = true;
        return false;
    }
    if (!c->busy) {
        /* the next built-in that runs on this kind of net and is not charted yet */
        bool found = false;
        while (c->next_def < algo_count() && c->nalgo < CHART_MAXALGO && !found) {
            size_t i = c->next_def++;
            const AlgoDef *t = algo_at(i);
            if (!(t->nets & (1u << net_kind(net)))) continue;
            bool dup = false;
            for (int j = 0; j < c->nalgo; j++) if (strcmp(c->name[j], t->name) == 0) dup = true;
            if (dup) continue;
            c->cur_def = i;
            found = true;
        }
        if (!found) {
            if (c->nalgo == 0) {
                c->done = true;
                snprintf(c->note, sizeof c->note, "no algorithm runs on %s under these settings",
                         net_spec(net));
                return false;
            }
            chart_sampled(c);
            return true;
        }
        c->busy = true;
        c->cur_any = false;
        c->next_size = 0;
    }
    /* one simulation: algorithm cur_def at size next_size */
    const AlgoDef *d = algo_at(c->cur_def);
    int k = c->nalgo, s = c->next_size;
    c->cost[k][s] = chart_cost(a, d->name, c->bytes[s], &c->ok[k][s]);
    if (c->cost[k][s] >= 0) c->cur_any = true;
    if (++c->next_size == CHART_NSIZES) {
        c->busy = false;
        if (c->cur_any) {
            snprintf(c->name[k], sizeof c->name[k], "%s", d->name);
            c->nalgo++;
        }
    }
    return true;
}

/* The cheapest row that may win at size s, or -1 (a tie goes to the first, as in compare). */
static int chart_winner(const Chart *c, int s)
{
    int best = -1;
    for (int k = 0; k < c->nalgo; k++)
        if (c->ok[k][s] && (best < 0 || c->cost[k][s] < c->cost[best][s])) best = k;
    return best;
}

/* Every size sampled: equal curves, and the changes of winner to bisect. */
static void chart_sampled(Chart *c)
{
    c->sampled = true;
    for (int k = 0; k < c->nalgo; k++) {
        c->same_as[k] = -1;
        for (int j = 0; j < k && c->same_as[k] < 0; j++) {
            bool same = true;
            for (int s = 0; s < CHART_NSIZES && same; s++)
                same = c->cost[k][s] == c->cost[j][s];
            if (same) c->same_as[k] = j;
        }
    }
    for (int s = 1; s < CHART_NSIZES && c->ncross < CHART_MAXCROSS; s++) {
        int w0 = chart_winner(c, s - 1), w1 = chart_winner(c, s);
        if (w0 >= 0 && w1 >= 0 && w0 != w1 && c->ok[w0][s])
            c->cross[c->ncross++] = (ChartCross){w1, w0, c->bytes[s - 1], c->bytes[s], 0};
    }
}

/* One bisection step of the crossover being worked on: the smallest m in (lo, hi] at which
 * the winner is cheaper than the loser, found as compare finds it. */
static void chart_bisect_step(App *a, Chart *c)
{
    ChartCross *x = &c->cross[c->cross_next];
    if (x->hi - x->lo <= 1) {
        x->exact = x->hi;
        c->cross_next++;
        return;
    }
    uint64_t mid = x->lo + (x->hi - x->lo) / 2;
    bool okw, okl;
    double w = chart_cost(a, c->name[x->winner], mid, &okw);
    double l = chart_cost(a, c->name[x->loser], mid, &okl);
    if (!okw || !okl) {               /* cannot price it there: keep the sampled interval */
        x->exact = 0;
        c->cross_next++;
        return;
    }
    if (w < l) x->hi = mid;
    else x->lo = mid;
}

/* ---- narration ------------------------------------------------------------------------ */

bool app_quiz_hides(const App *a)
{
    if (!a->lesson || a->lesson_done || a->answered) return false;
    const LessonPage *p = lesson_page(a->lesson, a->page);
    if (!p || p->qkind == LESSON_Q_NONE || p->qkind == LESSON_Q_TRY) return false;
    return !(a->page < 256 && a->prog.answer[a->page] == 1);   /* right before: nothing to hide */
}

bool app_quiz_hides_counts(const App *a)
{
    const LessonPage *p = a->lesson ? lesson_page(a->lesson, a->page) : NULL;
    return app_quiz_hides(a) && p && p->qkind == LESSON_Q_CHOICE;
}

const char *app_narration(App *a)
{
    if (!a->b.ready) return "";
    if (app_quiz_hides(a)) return "(the narration comes back once the lesson's question is answered)";
    if (asynctl_view(a)) {   /* the time line: its moment, cheap enough for every frame */
        narrate_moment(asynctl_view(a), cost_unit(sim_params(a->b.sim)->model), a->narr,
                       sizeof a->narr);
        a->narr_gen = -1;
        return a->narr;
    }
    if (a->narr_gen != a->b.gen || a->narr_pos != a->b.pos) {
        narrate_step(a->b.sim, a->b.pos, a->ascii, a->narr, sizeof a->narr);
        a->narr_gen = a->b.gen;
        a->narr_pos = a->b.pos;
    }
    return a->narr;
}

/* ---- the node inspector --------------------------------------------------------------- */

bool app_node_history(App *a)
{
    if (!a->b.ready) return false;
    if (a->hist_node.gen == a->b.gen && a->hist_node.node == a->cursor) return a->hist_node.ok;
    hist_free(a);
    a->hist_node.gen = a->b.gen;
    a->hist_node.node = a->cursor;
    Sched *s = a->b.sched;
    int32_t n = sched_nsteps(s);
    if (sched_total_transfers(s) > 2000000 || n > 100000 || a->b.nsim < n) return false;
    a->hist_node.nsteps = n;
    a->hist_node.held = calloc((size_t)n + 1, sizeof *a->hist_node.held);
    a->hist_node.nsent = calloc((size_t)n + 1, sizeof(int32_t));
    a->hist_node.nrecv = calloc((size_t)n + 1, sizeof(int32_t));
    a->hist_node.to = calloc((size_t)n + 1, sizeof(int32_t));
    a->hist_node.from = calloc((size_t)n + 1, sizeof(int32_t));
    if (!a->hist_node.held || !a->hist_node.nsent || !a->hist_node.nrecv || !a->hist_node.to ||
        !a->hist_node.from)
        return false;
    int32_t node = a->cursor, pos = a->b.pos;
    for (int32_t p = 0; p <= n; p++) {
        if (!sim_seek(a->b.sim, p)) break;
        a->hist_node.held[p] = sim_held(a->b.sim, node);
    }
    sim_seek(a->b.sim, pos);
    for (int32_t st = 0; st < n; st++) {
        a->hist_node.to[st] = a->hist_node.from[st] = -1;
        int64_t nt = sched_ntransfers(s, st);
        for (int64_t i = 0; i < nt; i++) {
            SchedTransfer t;
            sched_transfer(s, st, i, &t);
            if (t.src == node) {
                if (a->hist_node.nsent[st]++ == 0) a->hist_node.to[st] = t.dst;
            }
            if (t.dst == node) {
                if (a->hist_node.nrecv[st]++ == 0) a->hist_node.from[st] = t.src;
            }
        }
    }
    a->hist_node.ok = true;
    return true;
}
