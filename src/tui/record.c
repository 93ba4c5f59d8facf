/* record.c — recordings, replay and screen export (see record.h). */
#include "record.h"

#include <curses.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "../engine/text.h"

/* ---- the screen --------------------------------------------------------------------------- */

typedef struct {
    char *s;
    size_t n, cap;
} Buf;

static void bput(Buf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t cap = (b->cap ? b->cap * 2 : 4096) + n;
        char *g = realloc(b->s, cap);
        if (!g) return;
        b->s = g;
        b->cap = cap;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}

static void bputs(Buf *b, const char *s) { bput(b, s, strlen(s)); }

/* The cell at (y,x): its UTF-8 text, attributes and colour pair. */
static void cell(int y, int x, char *u8, attr_t *attr, short *pair)
{
    cchar_t cc;
    wchar_t wc[CCHARW_MAX + 1] = {0};
    *attr = 0;
    *pair = 0;
    strcpy(u8, " ");
    if (mvwin_wch(stdscr, y, x, &cc) == ERR) return;
    if (getcchar(&cc, wc, attr, pair, NULL) == ERR) return;
    mbstate_t st;
    memset(&st, 0, sizeof st);
    size_t k = wcrtomb(u8, wc[0] ? wc[0] : L' ', &st);
    if (k == (size_t)-1) strcpy(u8, "?");
    else u8[k] = '\0';
}

/* xterm's 256 colours as RGB. */
static void rgb(int c, int *r, int *g, int *b)
{
    static const int base[16][3] = {{0, 0, 0}, {205, 0, 0}, {0, 205, 0}, {205, 205, 0},
        {0, 0, 238}, {205, 0, 205}, {0, 205, 205}, {229, 229, 229}, {127, 127, 127},
        {255, 0, 0}, {0, 255, 0}, {255, 255, 0}, {92, 92, 255}, {255, 0, 255},
        {0, 255, 255}, {255, 255, 255}};
    if (c < 0) c = 0;
    if (c < 16) {
        *r = base[c][0]; *g = base[c][1]; *b = base[c][2];
    } else if (c < 232) {
        static const int v[6] = {0, 95, 135, 175, 215, 255};
        c -= 16;
        *r = v[c / 36]; *g = v[(c / 6) % 6]; *b = v[c % 6];
    } else {
        *r = *g = *b = 8 + 10 * (c - 232);
    }
}

/* The screen with SGR attributes (for recordings). */
static void screen_sgr(Buf *b)
{
    bputs(b, "\033[H\033[2J");
    attr_t last_a = (attr_t)-1;
    short last_p = -1;
    for (int y = 0; y < LINES; y++) {
        if (y) bputs(b, "\r\n");
        for (int x = 0; x < COLS; x++) {
            char u8[16];
            attr_t at;
            short pr;
            cell(y, x, u8, &at, &pr);
            if (at != last_a || pr != last_p) {
                char sgr[64] = "\033[0";
                short fg = -1, bg = -1;
                if (pr > 0) pair_content(pr, &fg, &bg);
                if (at & A_BOLD) strcat(sgr, ";1");
                if (at & A_DIM) strcat(sgr, ";2");
                if (at & A_UNDERLINE) strcat(sgr, ";4");
                if (at & A_REVERSE) strcat(sgr, ";7");
                size_t l = strlen(sgr);
                if (fg >= 0) l += (size_t)snprintf(sgr + l, sizeof sgr - l, ";38;5;%d", fg);
                if (bg >= 0) snprintf(sgr + l, sizeof sgr - l, ";48;5;%d", bg);
                strcat(sgr, "m");
                bputs(b, sgr);
                last_a = at;
                last_p = pr;
            }
            bputs(b, u8);
        }
    }
    bputs(b, "\033[0m");
}

static void screen_text(Buf *b)
{
    for (int y = 0; y < LINES; y++) {
        size_t start = b->n, keep = b->n;
        for (int x = 0; x < COLS; x++) {
            char u8[16];
            attr_t at;
            short pr;
            cell(y, x, u8, &at, &pr);
            bputs(b, u8);
            if (strcmp(u8, " ") != 0) keep = b->n;
        }
        (void)start;
        b->n = keep;
        bputs(b, "\n");
    }
}

static void xml(Buf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '<') bputs(b, "&lt;");
        else if (*s == '>') bputs(b, "&gt;");
        else if (*s == '&') bputs(b, "&amp;");
        else bput(b, s, 1);
    }
}

static void screen_svg(Buf *b)
{
    const int cw = 9, chh = 18;
    char t[256];
    snprintf(t, sizeof t,
             "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
             "font-family=\"monospace\" font-size=\"15\">\n"
             "<rect width=\"100%%\" height=\"100%%\" fill=\"#000\"/>\n", COLS * cw, LINES * chh);
    bputs(b, t);
    for (int y = 0; y < LINES; y++) {
        for (int x = 0; x < COLS;) {
            char u8[16];
            attr_t at;
            short pr;
            cell(y, x, u8, &at, &pr);
            short fg = -1, bg = -1;
            if (pr > 0) pair_content(pr, &fg, &bg);
            if (at & A_REVERSE) { short s = fg; fg = bg < 0 ? 0 : bg; bg = s < 0 ? 15 : s; }
            /* a run of cells with the same look */
            Buf run = {0};
            int x0 = x;
            for (; x < COLS; x++) {
                char v[16];
                attr_t a2;
                short p2;
                cell(y, x, v, &a2, &p2);
                if (a2 != at || p2 != pr) break;
                xml(&run, v);
            }
            int r, g, bl;
            if (bg >= 0) {
                rgb(bg, &r, &g, &bl);
                snprintf(t, sizeof t, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                         "fill=\"#%02x%02x%02x\"/>\n", x0 * cw, y * chh, (x - x0) * cw, chh, r, g, bl);
                bputs(b, t);
            }
            rgb(fg < 0 ? 7 : fg, &r, &g, &bl);
            if (run.s && strspn(run.s, " ") != run.n) {
                snprintf(t, sizeof t, "<text x=\"%d\" y=\"%d\" fill=\"#%02x%02x%02x\"%s "
                         "xml:space=\"preserve\">", x0 * cw, y * chh + 14, r, g, bl,
                         at & A_BOLD ? " font-weight=\"bold\"" : "");
                bputs(b, t);
                bputs(b, run.s);
                bputs(b, "</text>\n");
            }
            free(run.s);
        }
    }
    bputs(b, "</svg>\n");
}

static bool write_file(const char *path, const Buf *b, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return false;
    }
    bool ok = fwrite(b->s ? b->s : "", 1, b->n, f) == b->n;
    ok = fclose(f) == 0 && ok;
    if (!ok) snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
    return ok;
}

bool export_screen(const char *path, char *err, size_t errlen)
{
    size_t n = strlen(path);
    Buf b = {0};
    if (n > 4 && strcmp(path + n - 4, ".svg") == 0) screen_svg(&b);
    else if (n > 4 && strcmp(path + n - 4, ".txt") == 0) screen_text(&b);
    else {
        snprintf(err, errlen, "export to FILE.txt or FILE.svg");
        return false;
    }
    bool ok = write_file(path, &b, err, errlen);
    free(b.s);
    return ok;
}

/* ---- recording ------------------------------------------------------------------------- */

struct Recorder {
    FILE *f;
    struct timespec t0;
    char *last;          /* the last frame written */
    long pos;
    bool failed;
};

/* A JSON string of s (UTF-8 passes; control characters escaped). */
static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p);
        else if (*p < 0x20 || *p == 0x7f) fprintf(f, "\\u%04x", *p);
        else fputc(*p, f);
    }
    fputc('"', f);
}

static double since(const Recorder *r)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - r->t0.tv_sec) + (t.tv_nsec - r->t0.tv_nsec) / 1e9;
}

Recorder *record_open(const char *path, int w, int h, const char *title, char *err,
                      size_t errlen)
{
    Recorder *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->f = fopen(path, "w");
    if (!r->f) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        free(r);
        return NULL;
    }
    clock_gettime(CLOCK_MONOTONIC, &r->t0);
    r->pos = -1;
    fprintf(r->f, "{\"version\": 2, \"width\": %d, \"height\": %d, \"timestamp\": %lld, "
            "\"title\": ", w, h, (long long)time(NULL));
    json_string(r->f, title);
    fputs("}\n", r->f);
    return r;
}

void record_frame(Recorder *r, long pos)
{
    if (!r) return;
    Buf b = {0};
    screen_sgr(&b);
    double t = since(r);
    if (b.s && (!r->last || strcmp(b.s, r->last) != 0)) {
        fprintf(r->f, "[%.6f, \"o\", ", t);
        json_string(r->f, b.s);
        fputs("]\n", r->f);
        free(r->last);
        r->last = b.s;
        b.s = NULL;
    }
    free(b.s);
    if (pos != r->pos) {
        fprintf(r->f, "[%.6f, \"m\", \"step %ld\"]\n", t, pos);
        r->pos = pos;
    }
    if (ferror(r->f)) r->failed = true;
}

bool record_close(Recorder *r, char *err, size_t errlen)
{
    if (!r) return true;
    bool ok = !r->failed && !ferror(r->f);
    ok = fclose(r->f) == 0 && ok;
    if (!ok) snprintf(err, errlen, "the recording could not be written completely");
    free(r->last);
    free(r);
    return ok;
}

/* ---- replay ----------------------------------------------------------------------------- */

typedef struct {
    char *label;
    size_t upto;         /* output bytes before the marker */
} Mark;

/* Parse one JSON string at *p (after the quote); appends the decoded bytes to b. */
static bool json_read_string(const char **p, Buf *b)
{
    const char *s = *p;
    while (*s && *s != '"') {
        if (*s == '\\') {
            s++;
            char c = *s;
            if (c == 'n') bputs(b, "\n");
            else if (c == 'r') bputs(b, "\r");
            else if (c == 't') bputs(b, "\t");
            else if (c == 'b') bputs(b, "\b");
            else if (c == 'f') bputs(b, "\f");
            else if (c == 'u') {
                unsigned v = 0;
                for (int i = 1; i <= 4; i++) {
                    char h = s[i];
                    if (!h) return false;
                    v = v * 16 + (unsigned)(h >= 'a' ? h - 'a' + 10 : h >= 'A' ? h - 'A' + 10 : h - '0');
                }
                s += 4;
                char u8[8];
                mbstate_t st;
                memset(&st, 0, sizeof st);
                size_t k = v < 0x80 ? 1 : wcrtomb(u8, (wchar_t)v, &st);
                if (v < 0x80) u8[0] = (char)v;
                if (k != (size_t)-1) bput(b, u8, k);
            } else if (c) {
                bput(b, &c, 1);
            } else {
                return false;
            }
            s++;
        } else {
            bput(b, s, 1);
            s++;
        }
    }
    if (*s != '"') return false;
    *p = s + 1;
    return true;
}

int replay_run(const char *path_given, long step)
{
    char path[160];   /* the file's name as shown in messages and on the status line */
    text_quote(path_given, 150, path, sizeof path);
    FILE *f = fopen(path_given, "r");
    if (!f) {
        fprintf(stderr, "meshcast: cannot read %s: %s\n", path, strerror(errno));
        return 2;
    }
    Buf out = {0};
    Mark *marks = NULL;
    size_t nm = 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long lineno = 0;
    bool bad = false;
    while ((len = getline(&line, &cap, f)) > 0) {
        lineno++;
        if (lineno == 1) {
            if (!strstr(line, "\"version\": 2") && !strstr(line, "\"version\":2")) bad = true;
            continue;
        }
        const char *p = strchr(line, ',');
        const char *q = p ? strchr(p, '"') : NULL;
        if (!q || (q[1] != 'o' && q[1] != 'm' && q[1] != 'i' && q[1] != 'r') || q[2] != '"') {
            bad = true;
            break;
        }
        char kind = q[1];
        const char *d = strchr(q + 3, '"');
        if (!d) { bad = true; break; }
        d++;
        Buf v = {0};
        if (!json_read_string(&d, &v)) { free(v.s); bad = true; break; }
        if (kind == 'o') {
            /* a file's terminal output: only what draws reaches the terminal (no title, no
             * clipboard, no request the terminal would answer on our input: text.h) */
            char *safe = malloc(v.n + 1);
            if (!safe) { free(v.s); break; }
            size_t sn = text_terminal_safe(v.s ? v.s : "", v.n, safe);
            bput(&out, safe, sn);
            free(safe);
        } else if (kind == 'm') {
            Mark *g = realloc(marks, (nm + 1) * sizeof *g);
            if (!g) { free(v.s); break; }
            marks = g;
            char shown[120];   /* a marker's label, as text */
            marks[nm].label = strdup(text_quote(v.s, 100, shown, sizeof shown));
            if (!marks[nm].label) { free(v.s); break; }
            marks[nm].upto = out.n;
            nm++;
        }
        free(v.s);
    }
    free(line);
    fclose(f);
    int rc = 0;
    if (bad || lineno == 0) {
        fprintf(stderr, "meshcast: %s: not an asciicast v2 file (line %ld)\n", path, lineno);
        rc = 2;
    } else if (nm == 0) {
        fprintf(stderr, "meshcast: %s: no markers to step through (record with meshcast record)\n",
                path);
        rc = 2;
    }
    size_t at = 0;
    if (rc == 0 && step >= 0) {
        char want[32];
        snprintf(want, sizeof want, "step %ld", step);
        bool found = false;
        for (size_t i = 0; i < nm && !found; i++)
            if (strcmp(marks[i].label, want) == 0) { at = i; found = true; }
        if (!found) {
            fprintf(stderr, "meshcast: %s has no marker 'step %ld'\n", path, step);
            rc = 2;
        }
    }
    if (rc == 0 && (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))) {
        fprintf(stderr, "meshcast: replay needs a terminal\n");
        rc = 2;
    }
    if (rc == 0) {
        struct termios saved, raw;
        bool have = tcgetattr(STDIN_FILENO, &saved) == 0;
        raw = saved;
        cfmakeraw(&raw);
        if (have) tcsetattr(STDIN_FILENO, TCSANOW, &raw);
        fputs("\033[?1049h", stdout);
        for (;;) {
            fputs("\033[H\033[2J\033[0m", stdout);
            fwrite(out.s, 1, marks[at].upto, stdout);
            /* the status line, never wrapped (a wrap on the last row scrolls the screen) */
            printf("\033[0m\0337\033[999;1H\033[?7l\033[7m replay %s  marker %zu/%zu: %s  "
                   "(n/p step, g/G first/last, q quit) \033[0m\033[?7h\0338", path, at + 1, nm,
                   marks[at].label);
            fflush(stdout);
            char c;
            if (read(STDIN_FILENO, &c, 1) != 1) break;
            if (c == 'q' || c == 3 || c == 27) break;
            if ((c == 'n' || c == ' ' || c == '.') && at + 1 < nm) at++;
            else if ((c == 'p' || c == ',') && at > 0) at--;
            else if (c == 'g') at = 0;
            else if (c == 'G') at = nm - 1;
        }
        fputs("\033[0m\033[?1049l", stdout);
        fflush(stdout);
        if (have) tcsetattr(STDIN_FILENO, TCSANOW, &saved);
    }
    for (size_t i = 0; i < nm; i++) free(marks[i].label);
    free(marks);
    free(out.s);
    return rc;
}
