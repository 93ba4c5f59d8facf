/* theme.h — what each thing on the screen looks like: curses attributes per role, and the
 * glyphs (UTF-8 line drawing, or ASCII with --ascii).
 *
 * Colours come from a theme: the built-in default, or a file assets/NAME.theme (lines
 * "ROLE FG BG [bold|dim|reverse|underline]...", 256-colour numbers, -1 the terminal's own).
 * Monochrome (NO_COLOR, --no-color, or a terminal without colours) uses attributes only; every
 * state is also told by a glyph, so nothing is lost.
 */
#ifndef MESHCAST_TUI_THEME_H
#define MESHCAST_TUI_THEME_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    R_NORMAL, R_DIM, R_TITLE, R_FULL, R_PARTIAL, R_EMPTY, R_RECV, R_SOURCE, R_LINK,
    R_CIRCUIT, R_OVERLOAD, R_CONFLICT, R_CURSOR, R_HILITE, R_HEAD, R_GOOD, R_BAD, R_KEY,
    R_STATUS, R_C1, R_C2, R_C3, R_C4, R_C5, R_C6,
    R_G1, R_G2, R_G3,                        /* s-to-p: a third of the messages each (grade.h) */
    R_OV1, R_OV2, R_OV3,                     /* the overview's overload: peak 2-3, 4-7, 8+ */
    R_NROLES
} Role;

typedef struct {
    const char *full, *partial, *empty;      /* one-character node at the smallest zooms */
    const char *pk_have, *pk_miss;           /* one packet */
    const char *h_idle, *v_idle;             /* idle links */
    const char *h_line;                      /* a circuit's line */
    const char *v_line;                      /* a circuit's line, vertical (projector mode) */
    const char *btl, *btr, *bbl, *bbr, *bh;  /* a tall cell's border (projector mode) */
    const char *right, *left, *both_h;       /* horizontal circuit heads */
    const char *down, *up, *both_v;          /* vertical circuit heads */
    const char *recv_mark;                   /* left of a receiving node (roomy zoom) */
    const char *vbar, *hbar;                 /* panel rules */
    const char *tl, *tr, *bl, *br;           /* box corners */
    const char *play, *pause;
    const char *cross;                       /* chart crossover */
    const char *more_l, *more_r, *more_u, *more_d;   /* more of the map that way (pan hints):
                                              * unlike any circuit head or node mark */
    const char *cut;                         /* the end of a line of text cut short */
    const char *grade[3];                    /* s-to-p: grades 1..3 of the messages held */
} Glyphs;

/* Start colours (after initscr).  name: NULL or "default" for the built-in theme, else a
 * theme in the assets directories.  Returns false with a message (the default is then used). */
bool theme_init(bool color, bool ascii, const char *name, char *err, size_t errlen);
/* A theme is a name (letters, digits, '-', '_'; at most 48), never a path. */
bool theme_name_ok(const char *name);
/* Without curses: is `name` a theme that loads?  false with a one-line message. */
bool theme_check(const char *name, char *err, size_t errlen);
/* The colours and attributes a role gets from the theme loaded last (theme_check or
 * theme_init): 256-colour fg/bg (-1 the terminal's own), colour attributes, mono attributes. */
void theme_role(Role r, int *fg, int *bg, int *attr, int *mono);
int theme_attr(Role r);          /* curses attributes (attr_t) for a role */
const Glyphs *theme_glyphs(void);
bool theme_color(void);          /* colours in use */
/* Names of the themes found (into out, at most max; caller frees each). */
size_t theme_list(char **out, size_t max);

#endif
