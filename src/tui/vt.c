/* vt.c — a small virtual terminal for replay (see vt.h). */
#include "vt.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "../engine/text.h"

enum { ST_GROUND, ST_ESC, ST_CSI };
enum { SEQ_MAX = 40 };   /* a CSI sequence longer than this is quoted */

struct Vt {
    int w, h, x, y;
    bool wrapnext;        /* the last column was written: the next character wraps */
    uint8_t attr;
    int16_t fg, bg;
    int state;
    char seq[SEQ_MAX];    /* the sequence read so far (from its ESC) */
    size_t nseq;
    unsigned char u8[4];  /* a UTF-8 character read so far */
    int nu8, want;
    VtCell *cells;
};

Vt *vt_new(int w, int h)
{
    if (w < 1 || h < 1 || w > VT_MAX || h > VT_MAX) return NULL;
    Vt *vt = calloc(1, sizeof *vt);
    if (!vt) return NULL;
    vt->cells = malloc((size_t)w * (size_t)h * sizeof *vt->cells);
    if (!vt->cells) {
        free(vt);
        return NULL;
    }
    vt->w = w;
    vt->h = h;
    vt_reset(vt);
    return vt;
}

void vt_free(Vt *vt)
{
    if (!vt) return;
    free(vt->cells);
    free(vt);
}

static const VtCell blank = {' ', 0, -1, -1};

static void clear_cells(Vt *vt, int y, int x0, int x1)
{
    for (int x = x0; x < x1; x++) vt->cells[(size_t)y * (size_t)vt->w + (size_t)x] = blank;
}

void vt_reset(Vt *vt)
{
    for (int y = 0; y < vt->h; y++) clear_cells(vt, y, 0, vt->w);
    vt->x = vt->y = 0;
    vt->wrapnext = false;
    vt->attr = 0;
    vt->fg = vt->bg = -1;
    vt->state = ST_GROUND;
    vt->nseq = 0;
    vt->nu8 = vt->want = 0;
}

int vt_width(const Vt *vt) { return vt->w; }
int vt_height(const Vt *vt) { return vt->h; }

const VtCell *vt_cell(const Vt *vt, int y, int x)
{
    if (y < 0 || x < 0 || y >= vt->h || x >= vt->w) return &blank;
    return &vt->cells[(size_t)y * (size_t)vt->w + (size_t)x];
}

int vt_utf8(uint32_t c, char *o)
{
    if (c < 0x80) { o[0] = (char)c; return 1; }
    if (c < 0x800) { o[0] = (char)(0xC0 | c >> 6); o[1] = (char)(0x80 | (c & 0x3F)); return 2; }
    if (c < 0x10000) {
        o[0] = (char)(0xE0 | c >> 12); o[1] = (char)(0x80 | ((c >> 6) & 0x3F));
        o[2] = (char)(0x80 | (c & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | c >> 18); o[1] = (char)(0x80 | ((c >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((c >> 6) & 0x3F)); o[3] = (char)(0x80 | (c & 0x3F));
    return 4;
}

static VtCell *at(Vt *vt, int y, int x) { return &vt->cells[(size_t)y * (size_t)vt->w + (size_t)x]; }

static void linefeed(Vt *vt)
{
    if (vt->y + 1 < vt->h) {
        vt->y++;
        return;
    }
    memmove(vt->cells, vt->cells + vt->w, (size_t)vt->w * (size_t)(vt->h - 1) * sizeof *vt->cells);
    clear_cells(vt, vt->h - 1, 0, vt->w);
}

/* Overwriting one half of a double-width character blanks the other half. */
static void unsplit(Vt *vt, int y, int x)
{
    VtCell *c = at(vt, y, x);
    if (c->attr & VT_CONT) {
        if (x > 0) *at(vt, y, x - 1) = blank;
    } else if (x + 1 < vt->w && (at(vt, y, x + 1)->attr & VT_CONT)) {
        *at(vt, y, x + 1) = blank;
    }
}

/* A printable character of width 1 or 2 at the cursor. */
static void put(Vt *vt, uint32_t ch, int width)
{
    if (width > vt->w) return;
    if (vt->wrapnext || vt->x + width > vt->w) {
        vt->x = 0;
        linefeed(vt);
    }
    vt->wrapnext = false;
    unsplit(vt, vt->y, vt->x);
    if (width == 2) unsplit(vt, vt->y, vt->x + 1);
    *at(vt, vt->y, vt->x) = (VtCell){ch, vt->attr, vt->fg, vt->bg};
    if (width == 2)
        *at(vt, vt->y, vt->x + 1) = (VtCell){0, (uint8_t)(vt->attr | VT_CONT), vt->fg, vt->bg};
    vt->x += width;
    if (vt->x >= vt->w) {
        vt->x = vt->w - 1;
        vt->wrapnext = true;
    }
}

static void put_text(Vt *vt, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) put(vt, (unsigned char)s[i], 1);
}

/* A byte of a sequence that is not obeyed, shown: ESC as "^[", C0 controls as "^X". */
static void quote(Vt *vt, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f) {
            char q[2] = {'^', (char)(c ^ 0x40)};
            put_text(vt, q, 2);
        } else if (c < 0x80) {
            put(vt, c, 1);
        } else {
            put(vt, '?', 1);
        }
    }
}

static void control(Vt *vt, unsigned char c)
{
    if (c == '\r') {
        vt->x = 0;
        vt->wrapnext = false;
    } else if (c == '\n') {
        linefeed(vt);
        vt->wrapnext = false;
    } else if (c == '\b') {
        if (vt->x > 0) vt->x--;
        vt->wrapnext = false;
    } else if (c == '\t') {
        int nx = (vt->x / 8 + 1) * 8;
        vt->x = nx < vt->w ? nx : vt->w - 1;
        vt->wrapnext = false;
    } else {
        char q = (char)c;
        quote(vt, &q, 1);
    }
}

/* The numbers of a CSI's parameters ("1;2" -> 1, 2; an empty one is 0); false if any is not
 * digits or too big.  At most `max`. */
static bool params(const char *p, size_t n, int *v, int max, int *count)
{
    int k = 0;
    long cur = 0;
    bool any = false;
    for (size_t i = 0; i <= n; i++) {
        if (i == n || p[i] == ';') {
            if (k == max) return false;
            v[k++] = (int)cur;
            cur = 0;
            any = true;
        } else if (p[i] >= '0' && p[i] <= '9') {
            cur = cur * 10 + (p[i] - '0');
            if (cur > 99999) return false;
        } else {
            return false;
        }
    }
    *count = n == 0 ? 0 : k;
    return any;
}

static bool sgr(Vt *vt, const int *v, int n)
{
    if (n == 0) {
        vt->attr = 0;
        vt->fg = vt->bg = -1;
        return true;
    }
    for (int i = 0; i < n; i++) {
        int p = v[i];
        if (p == 0) { vt->attr = 0; vt->fg = vt->bg = -1; }
        else if (p == 1) vt->attr |= VT_BOLD;
        else if (p == 2) vt->attr |= VT_DIM;
        else if (p == 4) vt->attr |= VT_UNDERLINE;
        else if (p == 7) vt->attr |= VT_REVERSE;
        else if (p == 22) vt->attr &= (uint8_t)~(VT_BOLD | VT_DIM);
        else if (p == 24) vt->attr &= (uint8_t)~VT_UNDERLINE;
        else if (p == 27) vt->attr &= (uint8_t)~VT_REVERSE;
        else if (p >= 30 && p <= 37) vt->fg = (int16_t)(p - 30);
        else if (p == 39) vt->fg = -1;
        else if (p >= 40 && p <= 47) vt->bg = (int16_t)(p - 40);
        else if (p == 49) vt->bg = -1;
        else if (p >= 90 && p <= 97) vt->fg = (int16_t)(p - 90 + 8);
        else if (p >= 100 && p <= 107) vt->bg = (int16_t)(p - 100 + 8);
        else if ((p == 38 || p == 48) && i + 2 < n && v[i + 1] == 5 && v[i + 2] <= 255) {
            if (p == 38) vt->fg = (int16_t)v[i + 2];
            else vt->bg = (int16_t)v[i + 2];
            i += 2;
        } else {
            return false;
        }
    }
    return true;
}

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

/* A whole CSI sequence in vt->seq ("ESC [" params final): obeyed if it only draws. */
static bool csi(Vt *vt)
{
    char fin = vt->seq[vt->nseq - 1];
    int v[16], n = 0;
    if (!params(vt->seq + 2, vt->nseq - 3, v, 16, &n)) return false;
    int a = n > 0 && v[0] > 0 ? v[0] : 1;
    switch (fin) {
    case 'H': case 'f':
        if (n > 2) return false;
        vt->y = clampi(a, 1, vt->h) - 1;
        vt->x = clampi(n > 1 && v[1] > 0 ? v[1] : 1, 1, vt->w) - 1;
        break;
    case 'A': if (n > 1) return false; vt->y = clampi(vt->y - a, 0, vt->h - 1); break;
    case 'B': if (n > 1) return false; vt->y = clampi(vt->y + a, 0, vt->h - 1); break;
    case 'C': if (n > 1) return false; vt->x = clampi(vt->x + a, 0, vt->w - 1); break;
    case 'D': if (n > 1) return false; vt->x = clampi(vt->x - a, 0, vt->w - 1); break;
    case 'G': if (n > 1) return false; vt->x = clampi(a, 1, vt->w) - 1; break;
    case 'd': if (n > 1) return false; vt->y = clampi(a, 1, vt->h) - 1; break;
    case 'J': {
        int m = n ? v[0] : 0;
        if (n > 1 || m > 2) return false;
        if (m == 0) {
            clear_cells(vt, vt->y, vt->x, vt->w);
            for (int y = vt->y + 1; y < vt->h; y++) clear_cells(vt, y, 0, vt->w);
        } else if (m == 1) {
            for (int y = 0; y < vt->y; y++) clear_cells(vt, y, 0, vt->w);
            clear_cells(vt, vt->y, 0, vt->x + 1);
        } else {
            for (int y = 0; y < vt->h; y++) clear_cells(vt, y, 0, vt->w);
        }
        break;
    }
    case 'K': {
        int m = n ? v[0] : 0;
        if (n > 1 || m > 2) return false;
        if (m == 0) clear_cells(vt, vt->y, vt->x, vt->w);
        else if (m == 1) clear_cells(vt, vt->y, 0, vt->x + 1);
        else clear_cells(vt, vt->y, 0, vt->w);
        break;
    }
    case 'm':
        return sgr(vt, v, n);
    default:
        return false;
    }
    vt->wrapnext = false;
    return true;
}

/* A complete UTF-8 character in vt->u8. */
static void utf8_char(Vt *vt)
{
    int n = text_utf8_len(vt->u8);
    if (n != vt->nu8) {
        for (int i = 0; i < vt->nu8; i++) put(vt, '?', 1);
        return;
    }
    uint32_t c = n == 2 ? (uint32_t)(vt->u8[0] & 0x1F) : n == 3 ? (uint32_t)(vt->u8[0] & 0x0F)
                                                              : (uint32_t)(vt->u8[0] & 0x07);
    for (int i = 1; i < n; i++) c = c << 6 | (vt->u8[i] & 0x3F);
    if (c < 0xA0) {                 /* a C1 control */
        put(vt, '?', 1);
        return;
    }
    int w = wcwidth((wchar_t)c);
    if (w == 0) return;             /* a combining mark: not kept */
    if (w < 0 || w > 2) put(vt, '?', 1);
    else put(vt, c, w);
}

void vt_feed(Vt *vt, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (vt->want > 0) {                   /* inside a UTF-8 character */
            if (c >= 0x80 && c <= 0xBF) {
                vt->u8[vt->nu8++] = c;
                if (vt->nu8 == vt->want) {
                    utf8_char(vt);
                    vt->want = vt->nu8 = 0;
                }
                continue;
            }
            for (int k = 0; k < vt->nu8; k++) put(vt, '?', 1);
            vt->want = vt->nu8 = 0;
        }
        if (vt->state == ST_ESC) {
            if (c == '[') {
                vt->seq[vt->nseq++] = (char)c;
                vt->state = ST_CSI;
                continue;
            }
            quote(vt, vt->seq, vt->nseq);   /* "^[", then c as itself */
            vt->state = ST_GROUND;
            vt->nseq = 0;
        } else if (vt->state == ST_CSI) {
            if (c >= 0x20 && c <= 0x7e && vt->nseq < SEQ_MAX) {
                vt->seq[vt->nseq++] = (char)c;
                if (c >= 0x40) {               /* the final byte */
                    bool ok = vt->nseq >= 3 && csi(vt);
                    if (!ok) quote(vt, vt->seq, vt->nseq);
                    vt->state = ST_GROUND;
                    vt->nseq = 0;
                }
                continue;
            }
            quote(vt, vt->seq, vt->nseq);     /* cut short: shown, c read afresh */
            vt->state = ST_GROUND;
            vt->nseq = 0;
        }
        if (c == 0x1b) {
            vt->seq[0] = (char)c;
            vt->nseq = 1;
            vt->state = ST_ESC;
        } else if (c < 0x20 || c == 0x7f) {
            control(vt, c);
        } else if (c < 0x80) {
            put(vt, c, 1);
        } else if (c >= 0xC2 && c <= 0xF4) {
            vt->u8[0] = c;
            vt->nu8 = 1;
            vt->want = c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        } else {
            put(vt, '?', 1);
        }
    }
}
