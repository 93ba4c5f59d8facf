/* replay.c — stepping through a recording on the terminal (see replay.h). */
#include "replay.h"

#include <errno.h>
#include <locale.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/select.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

#include "../engine/text.h"
#include "cast.h"
#include "vt.h"

static volatile sig_atomic_t got_sig, got_winch;
static bool tty_saved;
static struct termios tty_before;

#define RESTORE "\033[0m\033[?7h\033[?25h\033[?1049l"

/* A crash (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT): the terminal back first, with
 * async-signal-safe calls only, then the default action. */
static void on_fatal(int sig)
{
    static const char seq[] = RESTORE "\r\n";
    ssize_t r = write(STDOUT_FILENO, seq, sizeof seq - 1);
    (void)r;
    if (tty_saved) tcsetattr(STDIN_FILENO, TCSANOW, &tty_before);
    signal(sig, SIG_DFL);
    raise(sig);
}

static const int fatal[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS};
enum { NFATAL = sizeof fatal / sizeof fatal[0] };

static void on_sig(int sig)
{
    if (sig == SIGWINCH) got_winch = 1;
    else if (!got_sig) got_sig = sig;
}

/* Every signal whose default ends the process, caught so the terminal is put back first. */
static const int caught[] = {SIGWINCH, SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2,
                             SIGALRM, SIGPIPE, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ};
enum { NCAUGHT = sizeof caught / sizeof caught[0] };

typedef struct {
    char *s;
    size_t n, cap;
} Out;

static void put(Out *o, const char *s, size_t n)
{
    if (o->n + n > o->cap) {
        size_t cap = (o->cap ? o->cap * 2 : 65536) + n;
        char *g = realloc(o->s, cap);
        if (!g) return;
        o->s = g;
        o->cap = cap;
    }
    memcpy(o->s + o->n, s, n);
    o->n += n;
}

static void puts_(Out *o, const char *s) { put(o, s, strlen(s)); }

static void flush(Out *o)
{
    size_t done = 0;
    while (done < o->n) {
        ssize_t w = write(STDOUT_FILENO, o->s + done, o->n - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) break;
        done += (size_t)w;
    }
    o->n = 0;
}

static void sgr(Out *o, const VtCell *c)
{
    char s[64] = "\033[0";
    size_t l = 3;
    if (c->attr & VT_BOLD) l += (size_t)snprintf(s + l, sizeof s - l, ";1");
    if (c->attr & VT_DIM) l += (size_t)snprintf(s + l, sizeof s - l, ";2");
    if (c->attr & VT_UNDERLINE) l += (size_t)snprintf(s + l, sizeof s - l, ";4");
    if (c->attr & VT_REVERSE) l += (size_t)snprintf(s + l, sizeof s - l, ";7");
    if (c->fg >= 0) l += (size_t)snprintf(s + l, sizeof s - l, ";38;5;%d", c->fg);
    if (c->bg >= 0) l += (size_t)snprintf(s + l, sizeof s - l, ";48;5;%d", c->bg);
    snprintf(s + l, sizeof s - l, "m");
    puts_(o, s);
}

/* The part of text (UTF-8, quoted) that fits in cols columns. */
static void fit(Out *o, const char *text, int cols)
{
    const unsigned char *p = (const unsigned char *)text;
    int used = 0;
    while (*p) {
        int n = *p < 0x80 ? 1 : text_utf8_len(p);
        if (n == 0) n = 1;
        int w = 1;
        if (n > 1) {
            wchar_t wc;
            mbstate_t st;
            memset(&st, 0, sizeof st);
            size_t k = mbrtowc(&wc, (const char *)p, (size_t)n, &st);
            w = k == (size_t)n ? wcwidth(wc) : 1;
            if (w < 0) w = 1;
        }
        if (used + w > cols) break;
        put(o, (const char *)p, (size_t)n);
        used += w;
        p += n;
    }
    for (; used < cols; used++) put(o, " ", 1);
}

typedef struct {
    Cast *c;
    Vt *vt;
    const char *name;
    size_t at;
    int ox, oy;          /* the top-left cell shown, when cropped */
} View;

static void draw(View *v, Out *o)
{
    int tw = 80, th = 24;
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0) {
        tw = ws.ws_col;
        th = ws.ws_row;
    }
    int w = vt_width(v->vt), h = vt_height(v->vt);
    int rows = th > 1 ? th - 1 : 1, cols = tw;
    if (v->ox > w - cols) v->ox = w - cols;
    if (v->oy > h - rows) v->oy = h - rows;
    if (v->ox < 0) v->ox = 0;
    if (v->oy < 0) v->oy = 0;
    bool cropped = w > cols || h > rows;
    puts_(o, "\033[0m\033[H\033[2J");
    for (int y = 0; y < h && y < rows; y++) {
        char cup[32];
        snprintf(cup, sizeof cup, "\033[%d;1H", y + 1);
        puts_(o, cup);
        VtCell last = {0, 0, -1, -1};
        puts_(o, "\033[0m");
        for (int x = 0; x < w && x < cols; x++) {
            const VtCell *c = vt_cell(v->vt, v->oy + y, v->ox + x);
            VtCell shown = *c;
            bool cut = (c->attr & VT_CONT) ? x == 0
                                           : (x + 1 >= cols && x + 1 < w - v->ox &&
                                              (vt_cell(v->vt, v->oy + y, v->ox + x + 1)->attr & VT_CONT));
            if ((c->attr & VT_CONT) && !cut) continue;   /* drawn with its left half */
            if (cut) shown.ch = ' ';
            shown.attr &= (uint8_t)~VT_CONT;
            if (shown.attr != last.attr || shown.fg != last.fg || shown.bg != last.bg) {
                sgr(o, &shown);
                last = shown;
            }
            char u8[4];
            put(o, u8, (size_t)vt_utf8(shown.ch, u8));
        }
    }
    char status[600], pos[100];
    snprintf(pos, sizeof pos, "%dx%d", w, h);
    snprintf(status, sizeof status, " marker %zu/%zu: %s%s%s%s  (n/p step, g/G first/last, q quit)"
             "  replay %s ", v->at + 1, cast_nmarks(v->c), cast_label(v->c, v->at),
             cropped ? "  [cropped: a " : "", cropped ? pos : "",
             cropped ? " recording, arrows move]" : "", v->name);
    char cup[32];
    snprintf(cup, sizeof cup, "\033[%d;1H\033[0;7m", th);
    puts_(o, cup);
    fit(o, status, cols);
    puts_(o, "\033[0m");
    flush(o);
}

/* The keys in buf: false to quit. */
static bool keys(View *v, const char *buf, size_t n, bool *moved)
{
    size_t nm = cast_nmarks(v->c);
    for (size_t i = 0; i < n; i++) {
        char c = buf[i];
        if (c == 27 && i + 2 < n + 0 && buf[i + 1] == '[') {
            char k = buf[i + 2];
            if (k == 'A') v->oy--;
            else if (k == 'B') v->oy++;
            else if (k == 'C') v->ox += 8;
            else if (k == 'D') v->ox -= 8;
            i += 2;
            continue;
        }
        if (c == 27 && i + 2 < n && buf[i + 1] == 'O') {   /* application cursor keys */
            i += 2;
            continue;
        }
        if (c == 'q' || c == 'Q' || c == 3 || c == 27) return false;
        if ((c == 'n' || c == ' ' || c == '.') && v->at + 1 < nm) { v->at++; *moved = true; }
        else if ((c == 'p' || c == ',') && v->at > 0) { v->at--; *moved = true; }
        else if (c == 'g') { v->at = 0; *moved = true; }
        else if (c == 'G') { v->at = nm - 1; *moved = true; }
    }
    return true;
}

/* The loop on the terminal; 0, or the signal that ended it. */
static int run(View *v, const sigset_t *orig)
{
    Out o = {0};
    char err[300];
    int sig = 0;
    bool moved = true;
    for (;;) {
        if (moved && !cast_render(v->c, v->at, v->vt, err, sizeof err)) break;
        moved = false;
        got_winch = 0;
        draw(v, &o);
        bool again = true;
        while (again) {
            if (got_sig) { sig = got_sig; goto done; }
            fd_set rd;
            FD_ZERO(&rd);
            FD_SET(STDIN_FILENO, &rd);
            int r = pselect(STDIN_FILENO + 1, &rd, NULL, NULL, NULL, orig);
            if (got_sig) { sig = got_sig; goto done; }
            if (r < 0) {
                if (errno != EINTR) goto done;
                if (got_winch) break;
                continue;
            }
            char buf[64];
            ssize_t k = read(STDIN_FILENO, buf, sizeof buf);
            if (k <= 0) {
                if (k < 0 && (errno == EINTR || errno == EAGAIN)) continue;
                goto done;   /* the terminal went away */
            }
            if (!keys(v, buf, (size_t)k, &moved)) goto done;
            again = false;
        }
    }
done:
    free(o.s);
    return sig;
}

int replay_run(const char *path, long step)
{
    setlocale(LC_ALL, "");
    char err[400];
    Cast *c = cast_open(path, err, sizeof err);
    if (!c) {
        fprintf(stderr, "meshcast: %s\n", err);
        return 2;
    }
    char name[160];   /* the file's name as shown in messages and on the status line */
    text_quote(path, 150, name, sizeof name);
    View v = {c, NULL, name, 0, 0, 0};
    int rc = 0;
    if (cast_nmarks(c) == 0) {
        fprintf(stderr, "meshcast: %s: no markers to step through (record with meshcast record)\n",
                name);
        rc = 2;
    } else if (step >= 0) {
        char want[32];
        snprintf(want, sizeof want, "step %ld", step);
        long i = cast_find(c, want);
        if (i < 0) {
            fprintf(stderr, "meshcast: %s has no marker 'step %ld'\n", name, step);
            rc = 2;
        } else {
            v.at = (size_t)i;
        }
    }
    if (rc == 0 && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
        fprintf(stderr, "meshcast: replay needs a terminal\n");
        rc = 2;
    }
    if (rc == 0 && !(v.vt = vt_new(cast_width(c), cast_height(c)))) {
        fprintf(stderr, "meshcast: out of memory\n");
        rc = 1;
    }
    if (rc != 0) {
        cast_free(c);
        return rc;
    }

    sigset_t block, orig;
    sigemptyset(&block);
    struct sigaction sa, old[NCAUGHT];
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_sig;
    for (int i = 0; i < NCAUGHT; i++) {
        sigaddset(&block, caught[i]);
        sigaction(caught[i], &sa, &old[i]);
    }
    sigprocmask(SIG_BLOCK, &block, &orig);
    struct termios saved, raw;
    bool have = tcgetattr(STDIN_FILENO, &saved) == 0;
    tty_before = saved;
    tty_saved = have;
    struct sigaction fa, oldfa[NFATAL];
    memset(&fa, 0, sizeof fa);
    sigemptyset(&fa.sa_mask);
    fa.sa_handler = on_fatal;
    fa.sa_flags = SA_RESETHAND;
    for (int i = 0; i < NFATAL; i++) sigaction(fatal[i], &fa, &oldfa[i]);
    raw = saved;
    cfmakeraw(&raw);
    if (have) tcsetattr(STDIN_FILENO, TCSANOW, &raw);
    Out o = {0};
    puts_(&o, "\033[?1049h\033[?25l\033[?7l");
    flush(&o);

    int sig = run(&v, &orig);

    /* the terminal as it was: attributes, autowrap, the cursor, the main screen, tty modes */
    puts_(&o, RESTORE);
    flush(&o);
    free(o.s);
    if (have) tcsetattr(STDIN_FILENO, TCSANOW, &saved);
    tty_saved = false;
    for (int i = 0; i < NFATAL; i++) sigaction(fatal[i], &oldfa[i], NULL);
    vt_free(v.vt);
    cast_free(c);
    for (int i = 0; i < NCAUGHT; i++) sigaction(caught[i], &old[i], NULL);
    if (sig) {
        signal(sig, SIG_DFL);
        sigprocmask(SIG_SETMASK, &orig, NULL);
        if (sig != SIGQUIT) raise(sig);
        return 128 + sig;
    }
    sigprocmask(SIG_SETMASK, &orig, NULL);
    return 0;
}
