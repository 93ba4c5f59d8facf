/* vt.h — a small virtual terminal: the bytes of a recording drawn into a grid of cells, never
 * written to the user's terminal (replay draws the grid with sequences of its own).
 *
 * It obeys what meshcast's own screen emits into a recording (record.h) and the harmless
 * drawing around it: printable UTF-8, CR, LF (scrolling at the bottom), BS, TAB, and the CSI
 * sequences H f (position), A B C D G d (moves), J K (erase) and m (SGR: bold, dim,
 * underline, reverse, the 16 and 256 colours).  Everything else is quoted, drawn as text in
 * caret notation: ESC as "^[" followed by the rest of the sequence, other C0 controls as "^X",
 * C1 controls and broken UTF-8 as '?'.  So a stranger's recording cannot set a mode, a scroll
 * region, a title or anything else on the terminal that replays it; it can only draw.
 *
 * Ownership: vt_new returns a Vt the caller frees with vt_free. */
#ifndef MESHCAST_TUI_VT_H
#define MESHCAST_TUI_VT_H

#include <stddef.h>
#include <stdint.h>

enum { VT_MAX = 1000 };   /* the largest width or height a Vt has */

enum {
    VT_BOLD = 1, VT_DIM = 2, VT_UNDERLINE = 4, VT_REVERSE = 8,
    VT_CONT = 16,   /* the right half of a double-width character (ch is 0) */
};

typedef struct {
    uint32_t ch;        /* a printable Unicode character (width 1 or 2), ' ' when blank */
    uint8_t attr;       /* VT_* */
    int16_t fg, bg;     /* 0..255, or -1 for the terminal's default */
} VtCell;

typedef struct Vt Vt;

/* A blank w x h grid (1..VT_MAX each), or NULL. */
Vt *vt_new(int w, int h);
void vt_free(Vt *vt);
/* Blank the grid, home the cursor, default attributes, no sequence half read. */
void vt_reset(Vt *vt);
/* Draw n bytes (a sequence may continue in the next call). */
void vt_feed(Vt *vt, const char *s, size_t n);
int vt_width(const Vt *vt);
int vt_height(const Vt *vt);
const VtCell *vt_cell(const Vt *vt, int y, int x);
/* The UTF-8 bytes of c (a valid code point) into out (room for 4); returns their number. */
int vt_utf8(uint32_t c, char *out);

#endif
