/* cellput.c — text written a row of cached cells at a time (see cellput.h). */
#include "cellput.h"

#include <curses.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/text.h"

/* The cache: a character (its UTF-8 bytes packed in a word) with an attribute -> its cell.
 * Open addressing; a frame uses a few hundred pairs.  When it is nearly full, new pairs are
 * not cached and take the caller's path. */
#define SLOTS 2048
#define SLOTS_MAX (SLOTS * 3 / 4)

enum { EMPTY, CELL, REFUSED };

typedef struct {
    uint32_t key;
    int attr;
    unsigned char state;
    cchar_t cell;
} Slot;

static Slot slots[SLOTS];
static int nslots;
static bool disabled;
static const Slot *last;   /* the pair asked last (a run of one glyph: a line, packets) */
static WINDOW *cache_scr;  /* the cells are this screen's, in this locale */
static size_t cache_mb;

/* The cache is emptied when the screen or the locale's character width changes (a new
 * newterm, a test switching locales): a cell is what waddnstr made there and then. */
static void cache_check(void)
{
    size_t mb = MB_CUR_MAX;
    if (cache_scr == stdscr && cache_mb == mb) return;
    memset(slots, 0, sizeof slots);
    nslots = 0;
    last = NULL;
    cache_scr = stdscr;
    cache_mb = mb;
}

void cellput_enable(bool on)
{
    disabled = !on;
}

/* The cell waddnstr makes of the one character p[0..n) with attributes attr, drawn into a
 * scratch pad (the same rendering: the window's attributes, a default background); false
 * when it is not one cell one column wide. */
static bool render(const unsigned char *p, int n, int attr, cchar_t *out)
{
    WINDOW *pad = newpad(1, 8);
    if (!pad) return false;
    wattrset(pad, attr);
    bool ok = mvwaddnstr(pad, 0, 0, (const char *)p, n) != ERR && getcurx(pad) == 1 &&
              getcury(pad) == 0 && mvwin_wch(pad, 0, 0, out) != ERR;
    delwin(pad);
    return ok;
}

/* The cached cell of the character p[0..n) (a shown character: no control) with attr, or
 * NULL when it is not for this path. */
static const cchar_t *cell_of(const unsigned char *p, int n, int attr)
{
    uint32_t key = 0;
    for (int i = 0; i < n; i++) key |= (uint32_t)p[i] << (8 * i);
    if (last && last->key == key && last->attr == attr) return &last->cell;
    uint32_t h = (key * 0x9E3779B1u) ^ ((uint32_t)attr * 0x85EBCA77u);
    h ^= h >> 15;
    for (uint32_t i = h & (SLOTS - 1);; i = (i + 1) & (SLOTS - 1)) {
        Slot *s = &slots[i];
        if (s->state == EMPTY) {
            if (nslots >= SLOTS_MAX) return NULL;
            s->key = key;
            s->attr = attr;
            s->state = render(p, n, attr, &s->cell) ? CELL : REFUSED;
            nslots++;
            if (s->state != CELL) return NULL;
            last = s;
            return &s->cell;
        }
        if (s->key == key && s->attr == attr) {
            if (s->state != CELL) return NULL;
            last = s;
            return &s->cell;
        }
    }
}

/* Bytes of the shown character at p (text.h's quoting leaves it as it is), 0 for a control
 * character or a byte that starts no character; outside a multibyte (UTF-8) locale, 0 for
 * anything but ASCII (curses shows such bytes its own way). */
static int shown_len(const unsigned char *p)
{
    if (*p < 0x80) return *p >= 0x20 && *p != 0x7f;
    if (cache_mb == 1) return 0;
    int n = text_utf8_len(p);
    if (n == 2 && p[0] == 0xC2 && p[1] < 0xA0) return 0;   /* C1 controls */
    return n;
}

/* k cells at (y,x), then the cursor where waddnstr leaves it (the caller saw x + k < COLS). */
static void put_cells(int y, int x, const cchar_t *cells, int k)
{
    wattrset(stdscr, A_NORMAL);   /* the cells carry their attributes */
    mvwadd_wchnstr(stdscr, y, x, cells, k);
    wmove(stdscr, y, x + k);
}

int cellput_str(int y, int x, int w, int attr, const char *s, const char *cut, int *nchars)
{
    if (disabled) return -1;
    cache_check();
    cchar_t cells[CELLPUT_MAX];
    const unsigned char *p = (const unsigned char *)s;
    int n = 0;
    while (*p) {
        int l = shown_len(p);
        if (l == 0 || n >= CELLPUT_MAX) return -1;
        if (n < w) {
            const cchar_t *c = cell_of(p, l, attr);
            if (!c) return -1;
            cells[n] = *c;
        }
        n++;
        p += l;
    }
    int k = n < w ? n : w;
    if (cut && n > w && w >= 2) {
        const unsigned char *c = (const unsigned char *)cut;
        int l = shown_len(c);
        const cchar_t *cc = l > 0 && c[l] == '\0' ? cell_of(c, l, attr) : NULL;
        if (!cc) return -1;
        cells[w - 1] = *cc;
        k = w;
    }
    if (x + k >= COLS) return -1;   /* waddnstr would wrap the cursor */
    *nchars = n;
    if (k == 0) wmove(stdscr, y, x);
    else put_cells(y, x, cells, k);
    return k;
}

int cellput_fill(int y, int x, int w, int attr)
{
    if (disabled || w > CELLPUT_MAX || x + w >= COLS) return -1;
    cache_check();
    const cchar_t *c = cell_of((const unsigned char *)" ", 1, attr);
    if (!c) return -1;
    cchar_t cells[CELLPUT_MAX];
    for (int i = 0; i < w; i++) cells[i] = *c;
    if (w > 0) put_cells(y, x, cells, w);
    return w;
}
