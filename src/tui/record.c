/* record.c — recordings, replay and screen export (see record.h). */
#include "record.h"

#include <curses.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "../engine/text.h"
#include "theme.h"
#include "outfile.h"

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

/* s as XML character data: markup escaped; what XML 1.0 forbids (C0 controls but tab, LF
 * and CR; U+FFFE, U+FFFF; broken UTF-8) shown as '?' so the columns stay where they were. */
static void xml(Buf *b, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        if (*p == '<') bputs(b, "&lt;");
        else if (*p == '>') bputs(b, "&gt;");
        else if (*p == '&') bputs(b, "&amp;");
        else if (*p == '"') bputs(b, "&quot;");
        else if (*p < 0x80) {
            if (*p < 0x20 && *p != '\t' && *p != '\n' && *p != '\r') bputs(b, "?");
            else bput(b, (const char *)p, 1);
        } else {
            int n = text_utf8_len(p);
            /* U+FFFE and U+FFFF: EF BF BE, EF BF BF */
            if (n == 0 || (n == 3 && p[0] == 0xEF && p[1] == 0xBF && p[2] >= 0xBE)) {
                bputs(b, "?");
                p += n ? n : 1;
                continue;
            }
            bput(b, (const char *)p, (size_t)n);
            p += n;
            continue;
        }
        p++;
    }
}

/* The picture's own page: the theme's colours.  A cell on the terminal's default background
 * (-1) is drawn on the theme's normal background or, when the theme leaves that to the
 * terminal too, on white under dark normal text (a light theme) or black under light text;
 * default text likewise takes the theme's normal colour, or what stands out on the page. */
static void page_colours(int fg[3], int bg[3])
{
    short nf = -1, nb = -1;
    short pr = (short)PAIR_NUMBER(theme_attr(R_NORMAL));
    if (pr > 0) pair_content(pr, &nf, &nb);
    if (nf >= 0) rgb(nf, &fg[0], &fg[1], &fg[2]);
    if (nb >= 0) rgb(nb, &bg[0], &bg[1], &bg[2]);
    else {
        bool dark_text = nf >= 0 && 299 * fg[0] + 587 * fg[1] + 114 * fg[2] < 128000;
        bg[0] = bg[1] = bg[2] = dark_text ? 255 : 0;
    }
    if (nf < 0) {
        bool light_page = 299 * bg[0] + 587 * bg[1] + 114 * bg[2] >= 128000;
        fg[0] = fg[1] = fg[2] = light_page ? 0 : 229;
    }
}

static void screen_svg(Buf *b)
{
    const int cw = 9, chh = 18;
    char t[256];
    int pfg[3], pbg[3];
    page_colours(pfg, pbg);
    snprintf(t, sizeof t,
             "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
             "font-family=\"monospace\" font-size=\"15\">\n"
             "<rect width=\"100%%\" height=\"100%%\" fill=\"#%02x%02x%02x\"/>\n", COLS * cw,
             LINES * chh, pbg[0], pbg[1], pbg[2]);
    bputs(b, t);
    for (int y = 0; y < LINES; y++) {
        for (int x = 0; x < COLS;) {
            char u8[16];
            attr_t at;
            short pr;
            cell(y, x, u8, &at, &pr);
            short fgc = -1, bgc = -1;
            if (pr > 0) pair_content(pr, &fgc, &bgc);
            int fg[3] = {pfg[0], pfg[1], pfg[2]}, bg[3] = {pbg[0], pbg[1], pbg[2]};
            if (fgc >= 0) rgb(fgc, &fg[0], &fg[1], &fg[2]);
            if (bgc >= 0) rgb(bgc, &bg[0], &bg[1], &bg[2]);
            bool fill = bgc >= 0;
            if (at & A_REVERSE) {
                for (int k = 0; k < 3; k++) { int s = fg[k]; fg[k] = bg[k]; bg[k] = s; }
                fill = true;
            }
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
            if (fill) {
                snprintf(t, sizeof t, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                         "fill=\"#%02x%02x%02x\"/>\n", x0 * cw, y * chh, (x - x0) * cw, chh,
                         bg[0], bg[1], bg[2]);
                bputs(b, t);
            }
            if (run.s && strspn(run.s, " ") != run.n) {
                snprintf(t, sizeof t, "<text x=\"%d\" y=\"%d\" fill=\"#%02x%02x%02x\"%s "
                         "xml:space=\"preserve\">", x0 * cw, y * chh + 14, fg[0], fg[1], fg[2],
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

static bool write_file(const char *path, bool force, const Buf *b, char *err, size_t errlen)
{
    OutFile *o = outfile_open(path, force, NULL, NULL, ":export FILE --force replaces it", err,
                              errlen);
    if (!o) return false;
    fwrite(b->s ? b->s : "", 1, b->n, outfile_stream(o));
    return outfile_commit(o, err, errlen);
}

bool export_screen(const char *path, bool force, char *err, size_t errlen)
{
    size_t n = strlen(path);
    Buf b = {0};
    if (n > 4 && strcmp(path + n - 4, ".svg") == 0) screen_svg(&b);
    else if (n > 4 && strcmp(path + n - 4, ".txt") == 0) screen_text(&b);
    else {
        snprintf(err, errlen, "export to FILE.txt or FILE.svg");
        return false;
    }
    bool ok = write_file(path, force, &b, err, errlen);
    free(b.s);
    return ok;
}

/* ---- recording ------------------------------------------------------------------------- */

struct Recorder {
    OutFile *out;
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

/* The first line of an asciicast: a JSON object with a "version". */
static bool is_cast(const char *line)
{
    if (strncmp(line, "\xEF\xBB\xBF", 3) == 0) line += 3;
    line += strspn(line, " \t");
    return line[0] == '{' && strstr(line, "\"version\"") != NULL;
}

Recorder *record_open(const char *path, int w, int h, const char *title, bool force,
                      const char *const *inputs, char *err, size_t errlen)
{
    Recorder *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    r->out = outfile_open(path, force, is_cast, inputs, "record FILE --force replaces it",
                          err, errlen);
    if (!r->out) {
        free(r);
        return NULL;
    }
    r->f = outfile_stream(r->out);
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

void record_mark(Recorder *r, const char *label)
{
    if (!r) return;
    fprintf(r->f, "[%.6f, \"m\", ", since(r));
    json_string(r->f, label);
    fputs("]\n", r->f);
    if (ferror(r->f)) r->failed = true;
}

bool record_close(Recorder *r, char *err, size_t errlen)
{
    if (!r) return true;
    bool ok;
    if (r->failed) {
        outfile_abort(r->out);
        snprintf(err, errlen, "the recording could not be written completely");
        ok = false;
    } else {
        ok = outfile_commit(r->out, err, errlen);
    }
    free(r->last);
    free(r);
    return ok;
}

void record_abort(Recorder *r)
{
    if (!r) return;
    outfile_abort(r->out);
    free(r->last);
    free(r);
}
