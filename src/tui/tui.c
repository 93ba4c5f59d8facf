/* tui.c — the terminal and the main loop (see tui.h). */
#include "tui.h"

#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "../engine/text.h"
#include "../script/lua-sandbox.h"
#include "algo-names.h"
#include "app.h"
#include "draw.h"
#include "input.h"
#include "measured.h"
#include "record.h"
#include "termcheck.h"
#include "theme.h"

static volatile sig_atomic_t got_winch, got_quit, got_cont;
static bool curses_on;
static bool have_termios;
static struct termios saved_termios;

#define MOUSE_ON "\033[?1000h\033[?1006h"
#define MOUSE_OFF "\033[?1006l\033[?1000l"

static void on_flag(int sig)
{
    if (sig == SIGWINCH) got_winch = 1;
    else if (sig == SIGCONT) got_cont = 1;
    else got_quit = sig;
}

/* Async-signal-safe restore for crashes: mouse off, leave the alternate screen, show the
 * cursor, reset attributes, the saved terminal modes. */
static void on_fatal(int sig)
{
    static const char seq[] = MOUSE_OFF "\033[0m\033[?25h\033[?1049l\r\n";
    if (curses_on) {
        ssize_t r = write(STDOUT_FILENO, seq, sizeof seq - 1);
        (void)r;
        if (have_termios) tcsetattr(STDIN_FILENO, TCSANOW, &saved_termios);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

void tui_restore(void)
{
    if (!curses_on) return;
    curses_on = false;
    fputs(MOUSE_OFF, stdout);
    fflush(stdout);
    curs_set(1);
    endwin();
    if (have_termios) tcsetattr(STDIN_FILENO, TCSANOW, &saved_termios);
}

/* "meshcast: MSG" on stderr, one line, through text_quote (the message may quote a lesson's
 * name from argv or a script's error). */
static void say(const char *msg)
{
    char shown[1100];
    fprintf(stderr, "meshcast: %s\n", text_quote(msg, 1024, shown, sizeof shown));
}

_Noreturn void tui_die(const char *fmt, ...)
{
    tui_restore();
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    say(msg);
    exit(1);
}

/* Signals whose default action ends the process (most with no core): they now restore the
 * terminal first (on_fatal), then end it as they would have. */
static const int fatal_signals[] = {
    SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE, SIGVTALRM,
    SIGPROF, SIGXCPU, SIGXFSZ, SIGSYS, SIGTRAP,
#ifdef SIGIO
    SIGIO,
#endif
#ifdef SIGPWR
    SIGPWR,
#endif
#ifdef SIGSTKFLT
    SIGSTKFLT,
#endif
};

static void install_signals(sigset_t *orig)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_flag;
    int flagged[] = {SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCONT};
    sigset_t block;
    sigemptyset(&block);
    for (size_t i = 0; i < sizeof flagged / sizeof flagged[0]; i++) {
        sigaction(flagged[i], &sa, NULL);
        sigaddset(&block, flagged[i]);
    }
    sigprocmask(SIG_BLOCK, &block, orig);
    struct sigaction fa;
    memset(&fa, 0, sizeof fa);
    sigemptyset(&fa.sa_mask);
    fa.sa_handler = on_fatal;
    fa.sa_flags = SA_RESETHAND;
    for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++)
        sigaction(fatal_signals[i], &fa, NULL);
}

static void restore_signals(const sigset_t *orig)
{
    int flagged[] = {SIGWINCH, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCONT};
    for (size_t i = 0; i < sizeof flagged / sizeof flagged[0]; i++) signal(flagged[i], SIG_DFL);
    for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++)
        signal(fatal_signals[i], SIG_DFL);
    sigprocmask(SIG_SETMASK, orig, NULL);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void resize_from_tty(void)
{
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0)
        resizeterm(ws.ws_row, ws.ws_col);
}

static void atexit_restore(void) { tui_restore(); }

/* While a long build or seek runs (app.h's wait hook): draw a frame with what is being done
 * and how far, and look at the keys typed: Escape or Ctrl-C cancels, q on the map quits; every
 * other key (those typed before a cancel too) waits and goes to the App after the build, in
 * order.  SIGINT/SIGTERM/SIGHUP cancel and quit. */
typedef struct {
    const sigset_t *orig;
    bool ctrl_c;
    char ahead[4096];      /* keys typed meanwhile, fed to the App after the build */
    size_t nahead;
} TuiWait;

static bool tui_wait(App *a, const char *what, const Progress *p, double el, void *ctx)
{
    TuiWait *w = ctx;
    long long done = atomic_load(&p->done), total = atomic_load(&p->total);
    char how[96];
    int pct = total > 0 ? (int)(100.0 * (double)done / (double)total) : 0;
    switch (atomic_load(&p->phase)) {
    case PROGRESS_SETUP: snprintf(how, sizeof how, "setting up"); break;
    case PROGRESS_SIM:   /* a lesson's open question: the step total could be its answer */
        if (app_quiz_hides_counts(a)) snprintf(how, sizeof how, "simulating, %d%%", pct);
        else snprintf(how, sizeof how, "simulating step %lld/%lld", done + 1, total);
        break;
    case PROGRESS_BUILD:
        if (total > 0)   /* a search (tcd-opt): moves made of its budget */
            snprintf(how, sizeof how, "searching, %d%% of %lld moves", pct, total);
        else
            snprintf(how, sizeof how, "%lld transfers so far", done);
        break;
    case PROGRESS_SCRIPT: snprintf(how, sizeof how, "running the script"); break;
    default:
        if (app_quiz_hides_counts(a)) snprintf(how, sizeof how, "%d%%", pct);
        else snprintf(how, sizeof how, "%lld of %lld steps", done, total);
        break;
    }
    char line[APP_MSG_MAX];
    snprintf(line, sizeof line, "%s... %s  %.1f s  (Esc or Ctrl-C cancels, q quits)", what, how,
             el);
    app_msg_progress(a, line);
    if (got_winch) {
        got_winch = 0;
        resize_from_tty();
    }
    draw_frame(a);
    doupdate();
    if (got_quit) {
        app_quit(a);
        return false;
    }
    struct timespec ts = {0, 0};
    fd_set rd;
    FD_ZERO(&rd);
    FD_SET(STDIN_FILENO, &rd);
    if (pselect(STDIN_FILENO + 1, &rd, NULL, NULL, &ts, w->orig) <= 0) return true;
    char buf[256];
    ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
    /* every key goes to the queue, in order, but for what stops the build: Ctrl-C, a lone
     * Escape, and q when it is a key of its own on the map (not text for the command line, a
     * picker's filter, or after keys still waiting) */
    ssize_t i = 0;
    int stop = 0;   /* 1 cancel, 2 quit */
    for (; i < n && !stop; i++) {
        if (buf[i] == 3) {
            w->ctrl_c = true;
            stop = 1;
        } else if (buf[i] == 27 && (i + 1 == n || buf[i + 1] == 27)) {
            stop = 1;
        } else if (buf[i] == 'q' && i == 0 && w->nahead == 0 && app_mode(a) == MODE_MAP) {
            stop = 2;
        }
    }
    size_t keep = stop ? (size_t)(i - 1) : (size_t)(n > 0 ? n : 0);   /* the keys before */
    if (keep > sizeof w->ahead - w->nahead) keep = sizeof w->ahead - w->nahead;
    if (keep > 0) {
        memcpy(w->ahead + w->nahead, buf, keep);
        w->nahead += keep;
    }
    if (stop == 2) app_quit(a);
    if (stop) return false;
    return true;
}

/* A script's print() during tui_run (before the screen is up too, and on the build's worker
 * thread): kept here, and shown on the message line by the UI thread (show_print, before each
 * frame; app_msg makes it text) — never written to the terminal underneath. */
static pthread_mutex_t print_lock = PTHREAD_MUTEX_INITIALIZER;
static char print_text[320];
static bool print_pending;

static void on_print(const char *name, const char *text, void *ud)
{
    (void)ud;
    pthread_mutex_lock(&print_lock);
    snprintf(print_text, sizeof print_text, "%s: %s", name, text);
    print_pending = true;
    pthread_mutex_unlock(&print_lock);
}

static void show_print(App *a)
{
    pthread_mutex_lock(&print_lock);
    if (print_pending) app_msg(a, false, "%s", print_text);
    print_pending = false;
    pthread_mutex_unlock(&print_lock);
}

/* One session on the screen: what run()'s phases share (the App, the input, the recording,
 * the screen, the signal mask the loop waits with) and the loop's own state. */
typedef struct {
    App *a;
    Input *in;
    Recorder *rec;
    SCREEN *scr;
    sigset_t orig;         /* the signal mask before install_signals (pselect waits with it) */
    TuiWait tw;
    char err[200];         /* theme_init's message */
    bool pending;          /* a key is ambiguous (a lone Escape): flushed after the wait time */
    double pending_at;     /* ... since then */
    bool chart_drawn;      /* the finished comparison chart was drawn once more */
    double next_tick, next_reload;
    size_t rec_page;       /* the lesson page and answer the recording last marked */
    bool rec_seen;
    unsigned rec_answers;  /* ... as app_lesson_marks counts them: each answer is marked,
                            * two wrong ones in a row too */
} Session;

static int run(const TuiOptions *o);

int tui_run(const TuiOptions *o)
{
    box_set_mode(BOX_INTERACTIVE);   /* scripts get the interactive limits (lua-sandbox.h) */
    print_pending = false;
    box_set_print_handler(on_print, NULL);
    int rc = run(o);
    box_set_print_handler(NULL, NULL);
    box_set_mode(BOX_BATCH);
    return rc;
}

/* The App for the options, with the broadcast's words (and the lesson) checked before the
 * screen is taken: 0 with *out set and *spec the words to build (the algorithm picked when
 * --algo is not given), or the exit status after one line on stderr. */
static int app_from_options(const TuiOptions *o, bool utf8, SetupSpec *spec, App **out)
{
    App *a = app_new();
    if (!a) {
        fputs("meshcast: out of memory\n", stderr);
        return 1;
    }
    const char *nc = getenv("NO_COLOR");
    app_set_look(a, !o->no_color && !(nc && *nc), o->ascii || !utf8,
                 o->theme ? o->theme : o->big ? "contrast" : NULL, o->big);

    *spec = o->spec;
    /* the broadcast and the lesson first: a bad option is a usage error, before the screen */
    if (o->lesson) {
        if (!app_open_lesson(a, o->lesson)) {
            say(app_msg_text(a));
            app_free(a);
            return 2;
        }
        if (!app_bcast(a)->ready && !app_set_spec(a, &o->spec)) {
            say(app_msg_text(a));
            app_free(a);
            return 2;
        }
    } else {
        /* the words are checked now; the build (which can take seconds on a big net) runs
         * once the screen is up, with its progress drawn */
        char cerr[300] = "";
        if (!o->spec.algo && !app_check_spec(&o->spec, cerr, sizeof cerr)) {
            /* no --algo: the first algorithm that runs there, as :net does */
            const char *first = algo_first_runs(&o->spec);
            if (first) {
                spec->algo = first;
                app_msg(a, false, "st does not run on %s: showing %s (a picks another)",
                        o->spec.net ? o->spec.net : "this net", first);
            }
        }
        if (!app_check_spec(spec, cerr, sizeof cerr)) {
            say(cerr);
            app_free(a);
            return 2;
        }
    }
    if (o->theme) {
        char terr[300] = "";
        if (!theme_check(o->theme, terr, sizeof terr)) {
            say(terr);
            app_free(a);
            return 2;
        }
    }
    *out = a;
    return 0;
}

/* stdin and stdout a terminal curses can drive (TERM=dumb, unknown: refused): 0, or 2 after
 * one line on stderr.  Then the first message on the screen. */
static int check_terminal(App *a, const TuiOptions *o)
{
    if (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO)) {
        fputs("meshcast: not a terminal; use the batch commands (meshcast run|schedule|compare "
              "--net SPEC --algo NAME; meshcast --help)\n", stderr);
        return 2;
    }
    char terr[400];
    if (!termcheck_ok(STDOUT_FILENO, terr, sizeof terr)) {
        say(terr);
        return 2;
    }
    app_msg_clear(a);
    if (o->lesson) app_msg(a, false, "lesson: %s  (] next page, [ previous, Tab panels)",
                           lesson_title(app_lesson(a)));
    else {
        char *names[4];
        size_t nl = lesson_list(names, 4);
        for (size_t i = 0; i < nl; i++) free(names[i]);
        if (nl > 0 && o->spec.net == NULL && o->spec.algo == NULL)
            app_msg(a, false, "meshcast: n steps, ? lists every key, o opens a lesson");
    }
    return 0;
}

/* meshcast record FILE: the recording, sized as the terminal; true with *rec NULL when there
 * is none to make, false after one line on stderr. */
static bool open_recording(const TuiOptions *o, Recorder **rec)
{
    *rec = NULL;
    if (!o->record) return true;
    struct winsize ws;
    int w = 80, h = 24;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0) {
        w = ws.ws_col;
        h = ws.ws_row;
    }
    char rerr[300], title[200];
    snprintf(title, sizeof title, "meshcast %s on %s", o->spec.algo ? o->spec.algo : "st",
             o->spec.net ? o->spec.net : "mesh:8x8");
    /* the files this session reads are never the one it writes */
    const char *inputs[] = {o->spec.algo, o->vs, o->lesson, o->theme, NULL};
    *rec = record_open(o->record, w, h, title, o->force, inputs, rerr, sizeof rerr);
    if (!*rec) say(rerr);
    return *rec != NULL;
}

/* Take the terminal: its modes saved, the signals flagged, curses, raw keys, the mouse, the
 * theme, and the App's wait hook.  False (signals restored, nothing else changed) when curses
 * cannot start. */
static bool screen_start(Session *s)
{
    App *a = s->a;
    have_termios = tcgetattr(STDIN_FILENO, &saved_termios) == 0;
    install_signals(&s->orig);
    s->scr = newterm(NULL, stdout, stdin);
    if (!s->scr) {
        restore_signals(&s->orig);
        return false;
    }
    curses_on = true;
    atexit(atexit_restore);
    raw();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    leaveok(stdscr, TRUE);
    fputs(MOUSE_ON, stdout);
    fflush(stdout);
    AppLook look = app_look(a);
    if (!theme_init(look.color, look.ascii, look.theme, s->err, sizeof s->err))
        app_msg(a, true, "%s", s->err);
    s->tw = (TuiWait){&s->orig, false, "", 0};
    app_set_wait(a, tui_wait, &s->tw);
    return true;
}

/* Give the terminal back (always, on every way out once screen_start succeeded) and free the
 * App and the input; the recording is the caller's (aborted or closed). */
static void screen_end(Session *s)
{
    tui_restore();
    restore_signals(&s->orig);
    delscreen(s->scr);
    input_free(s->in);
    app_free(s->a);
}

/* The first build (its progress drawn), then --vs, --step, --measured and --timing: false
 * with the line to say in fail (a cancel or a quit is no failure: the loop then ends at once). */
static bool first_build(Session *s, const TuiOptions *o, const SetupSpec *spec, char *fail,
                        size_t faillen)
{
    App *a = s->a;
    fail[0] = '\0';
    if (!app_bcast(a)->ready) {
        char keep[APP_MSG_MAX];
        snprintf(keep, sizeof keep, "%s", app_msg_text(a));
        if (!app_set_spec(a, spec) && !app_cancelled(a)) {
            snprintf(fail, faillen, "%s", app_msg_text(a));
            return false;
        }
        if (s->tw.ctrl_c) app_quit(a);
        if (!app_cancelled(a)) app_msg_set_raw(a, keep);
    }
    bool ready = app_bcast(a)->ready;
    /* a --step past the end or a --vs that does not build is a usage error like any bad
     * option: one line and exit 2, not a screen with a message (--vs first: side by side,
     * --step goes up to the longer one's end) */
    if (o->vs && ready && !app_quitting(a)) {
        const char *w[1] = {o->vs};
        if (!app_vs_command(a, w, 1) && !app_cancelled(a))
            snprintf(fail, faillen, "--%s", app_msg_text(a));
    }
    if (!fail[0] && o->step && ready && !app_quitting(a)) {
        long k = strtol(o->step, NULL, 10);
        if (k > app_nsteps(a))
            snprintf(fail, faillen, "--step %ld is past the last step (%ld)", k,
                     (long)app_nsteps(a));
        else
            app_goto(a, (int32_t)k);
    }
    if (!fail[0] && o->measured && ready && !app_quitting(a) && !measured_load(a, o->measured))
        snprintf(fail, faillen, "--measured: %s", app_msg_text(a));
    if (fail[0]) return false;
    if (o->timing && strcmp(o->timing, "async") == 0 && ready && !app_quitting(a))
        app_timing(a, true);
    return true;
}

/* Before each frame: the keys typed during a build, a resize or SIGCONT, Ctrl-Z, a new theme,
 * the script's reload check, the play tick, a script's print, the simulation's progress. */
static void loop_housekeeping(Session *s)
{
    App *a = s->a;
    /* keys typed while a build ran: now, in order */
    while (s->tw.nahead > 0 && !app_quitting(a)) {
        char ahead[sizeof s->tw.ahead];
        size_t na = s->tw.nahead;
        memcpy(ahead, s->tw.ahead, na);
        s->tw.nahead = 0;
        s->pending = input_feed(s->in, a, ahead, na);
    }
    if (s->pending) s->pending_at = now_s();
    if (got_winch || got_cont) {
        got_winch = 0;
        if (got_cont) {
            got_cont = 0;
            clearok(curscr, TRUE);
        }
        resize_from_tty();
    }
    if (app_take_suspend(a)) {
        /* Ctrl-Z: hand the terminal back, stop, and take it again on SIGCONT */
        fputs(MOUSE_OFF, stdout);
        fflush(stdout);
        endwin();
        raise(SIGTSTP);
        fputs(MOUSE_ON, stdout);
        fflush(stdout);
        resize_from_tty();
        clearok(curscr, TRUE);
    }
    if (app_take_theme_change(a)) {
        AppLook look = app_look(a);
        if (!theme_init(look.color, look.ascii, look.theme, s->err, sizeof s->err))
            app_msg(a, true, "%s", s->err);
        else
            app_msg(a, false, "theme %s", look.theme);
    }
    double t = now_s();
    if (t >= s->next_reload) {
        app_check_reload(a);
        s->next_reload = t + 0.5;
    }
    double period = app_play_period(a);   /* 0: not playing */
    if (period > 0 && t >= s->next_tick && s->next_tick > 0) {
        app_tick(a);
        s->next_tick = t + period;
    } else if (period > 0 && s->next_tick == 0) {
        s->next_tick = t + period;
    } else if (period <= 0) {
        s->next_tick = 0;
    }
    show_print(a);
    app_poll(a);   /* a big broadcast's whole history, once simulated */
    app_progress_over(a);   /* the wait is over (a long jump has arrived): no progress */
}

/* The frame in the recording, and a lesson's page turns and answers as its markers. */
static void record_step(Session *s)
{
    App *a = s->a;
    record_frame(s->rec, app_pos(a));
    size_t page;
    unsigned answers;
    int last;
    if (!app_lesson_marks(a, &page, &answers, &last)) return;
    if (page != s->rec_page || !s->rec_seen) {
        char m[32];
        snprintf(m, sizeof m, "page %zu", page + 1);
        record_mark(s->rec, m);
        s->rec_page = page;
        s->rec_seen = true;
        s->rec_answers = answers;
    } else if (answers != s->rec_answers) {
        if (last)
            record_mark(s->rec, last > 0 ? "answer right" : "answer wrong");
        s->rec_answers = answers;
    }
}

/* Draw the frame (recorded too); :export's file written from it: false then (the loop goes
 * round again before waiting, to show what the export said). */
static bool loop_frame(Session *s)
{
    App *a = s->a;
    draw_frame(a);
    if (app_take_redraw(a))
        clearok(curscr, TRUE);
    doupdate();
    if (s->rec) record_step(s);
    char path[APP_EXPORT_PATH_MAX];
    bool force;
    if (app_take_export(a, path, sizeof path, &force)) {
        char eerr[300];
        if (export_screen(path, force, eerr, sizeof eerr))
            app_msg(a, false, "the screen is in %s", path);
        else
            app_msg(a, true, "%s", eerr);
        return false;
    }
    return true;
}

/* How long to wait for input: 0 while the comparison chart fills in (one algorithm between
 * frames) or is to be drawn once more, else until the next reload check, play tick, the
 * simulation's or :exec's progress, or an ambiguous key's flush. */
static double loop_wait_time(Session *s)
{
    App *a = s->a;
    bool busy = app_chart_fill(a);
    if (!busy && app_chart_filled_shown(a) && !s->chart_drawn) {
        s->chart_drawn = true;   /* draw the finished chart once more */
        busy = true;
    }
    if (!app_chart_filled_shown(a)) s->chart_drawn = false;

    double wait = busy ? 0 : s->next_reload - now_s();
    if (app_play_period(a) > 0 && s->next_tick > 0 && s->next_tick - now_s() < wait)
        wait = s->next_tick - now_s();
    if (app_partial(a) && wait > 0.1) wait = 0.1;   /* the simulation's progress */
    if (measured_busy(a) && wait > 0.25) wait = 0.25;   /* :exec's progress */
    if (s->pending) {
        double w = s->pending_at + input_waittime(s->in) / 1000.0 - now_s();
        if (w < wait) wait = w;
    }
    return wait < 0 ? 0 : wait;
}

/* Wait up to `wait` seconds for a key, a mouse event or a signal (unblocked only here), and
 * feed what came to the App: false when the loop must end (the terminal went away). */
static bool loop_input(Session *s, double wait)
{
    struct timespec ts = {(time_t)wait, (long)((wait - (double)(time_t)wait) * 1e9)};
    fd_set rd;
    FD_ZERO(&rd);
    FD_SET(STDIN_FILENO, &rd);
    int r = pselect(STDIN_FILENO + 1, &rd, NULL, NULL, &ts, &s->orig);
    if (r < 0) return errno == EINTR;
    if (r == 0) {
        if (s->pending && now_s() >= s->pending_at + input_waittime(s->in) / 1000.0) {
            input_flush(s->in, s->a);
            s->pending = false;
        }
        return true;
    }
    char buf[4096];
    ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
    if (n == 0) return false;                 /* the terminal went away */
    if (n < 0) return errno == EINTR || errno == EAGAIN;
    s->pending = input_feed(s->in, s->a, buf, (size_t)n);
    if (s->pending) s->pending_at = now_s();
    return true;
}

/* The loop: until q or a quitting signal (or the terminal goes away). */
static void event_loop(Session *s)
{
    s->next_reload = now_s() + 0.5;
    while (!app_quitting(s->a)) {
        if (got_quit) break;
        loop_housekeeping(s);
        if (!loop_frame(s)) continue;
        if (!loop_input(s, loop_wait_time(s))) break;
    }
}

/* After the loop: the last frame recorded, the terminal given back, the recording closed, and
 * the exit status (a quitting signal ends the process as that signal would have). */
static int session_close(Session *s)
{
    int sig = got_quit;
    if (s->rec) {   /* the screen as it was left */
        draw_frame(s->a);
        record_frame(s->rec, app_pos(s->a));
    }
    screen_end(s);
    char cerr[200];
    if (!record_close(s->rec, cerr, sizeof cerr)) {
        say(cerr);
        if (!sig) return 1;
    }
    if (sig) {
        /* ended by SIGTERM, SIGHUP, SIGINT or SIGQUIT: the terminal is back; now end as that
         * signal would have (the shell sees 128 + signal), SIGQUIT without its core dump */
        if (sig != SIGQUIT) {
            signal(sig, SIG_DFL);
            raise(sig);
        }
        return 128 + sig;
    }
    return 0;
}

static int run(const TuiOptions *o)
{
    setlocale(LC_ALL, "");
    bool utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
    Session s;
    memset(&s, 0, sizeof s);
    SetupSpec spec;   /* with the algorithm picked when --algo is not given */
    int rc = app_from_options(o, utf8, &spec, &s.a);
    if (rc) return rc;
    if ((rc = check_terminal(s.a, o)) != 0) {
        app_free(s.a);
        return rc;
    }
    s.in = input_new(NULL, utf8);
    if (!s.in) {
        fputs("meshcast: cannot start libtermkey\n", stderr);
        app_free(s.a);
        return 1;
    }
    if (!open_recording(o, &s.rec)) {
        input_free(s.in);
        app_free(s.a);
        return 2;
    }
    if (!screen_start(&s)) {
        fputs("meshcast: cannot start curses on this terminal (is TERM set?)\n", stderr);
        record_abort(s.rec);
        input_free(s.in);
        app_free(s.a);
        return 2;
    }
    char fail[APP_MSG_MAX + 16];
    if (!first_build(&s, o, &spec, fail, sizeof fail)) {
        screen_end(&s);
        record_abort(s.rec);
        say(fail);
        return 2;
    }
    event_loop(&s);
    return session_close(&s);
}
