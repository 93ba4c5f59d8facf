/* test_tui_cells.c — the frame written through cached cells (cellput.h) is the frame curses'
 * own waddnstr writes: every cell (character, attributes, colour pair) and the cursor, on
 * many screens (nets, zooms, panels, models, s-to-p, sizes; UTF-8 and ASCII glyphs; colour
 * and monochrome; random keys), each drawn once with the cache and once without it.  Also the
 * strings the cache must refuse (control characters, invalid UTF-8, wide and zero-width
 * characters, writes that reach the last column) and that it does take the common ones. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <curses.h>
#include <locale.h>
#include <wchar.h>

#include "../../src/tui/app.h"
#include "../../src/tui/cellput.h"
#include "../../src/tui/draw.h"
#include "../../src/tui/draw-step.h"
#include "../../src/tui/draw-text.h"
#include "../../src/tui/input.h"
#include "../../src/tui/layout.h"
#include "../../src/tui/theme.h"

typedef struct {
    SCREEN *scr;
    FILE *out, *in;
} Term;

/* curses on /dev/null in a locale (UTF-8 or C), with UTF-8 or ASCII glyphs, in colour or not */
static void term_open(Term *t, bool utf8, bool color)
{
    if (utf8)
        assert_non_null(setlocale(LC_ALL, "C.UTF-8"));
    else
        assert_non_null(setlocale(LC_ALL, "C"));
    t->out = fopen("/dev/null", "w");
    t->in = fopen("/dev/null", "r");
    assert_non_null(t->out);
    assert_non_null(t->in);
    t->scr = newterm("xterm-256color", t->out, t->in);
    assert_non_null(t->scr);
    char err[128];
    theme_init(color, !utf8, NULL, err, sizeof err);
}

static void term_close(Term *t)
{
    endwin();
    delscreen(t->scr);
    fclose(t->out);
    fclose(t->in);
    setlocale(LC_ALL, "C");
}

typedef struct {
    int h, w, cy, cx;
    cchar_t *cells;
} Snap;

/* Every cell of stdscr and its cursor. */
static void snap(Snap *s)
{
    s->h = LINES;
    s->w = COLS;
    s->cy = getcury(stdscr);
    s->cx = getcurx(stdscr);
    s->cells = realloc(s->cells, (size_t)s->h * (size_t)s->w * sizeof *s->cells);
    assert_non_null(s->cells);
    for (int y = 0; y < s->h; y++)
        for (int x = 0; x < s->w; x++) {
            cchar_t *c = &s->cells[(size_t)y * (size_t)s->w + (size_t)x];
            memset(c, 0, sizeof *c);
            assert_int_not_equal(mvwin_wch(stdscr, y, x, c), ERR);
        }
    wmove(stdscr, s->cy, s->cx);
}

/* The same screen, cell for cell (the cell's text, attributes and pair as curses reads them
 * back, and its bytes), and the same cursor. */
static void same(const Snap *a, const Snap *b, const char *what)
{
    assert_int_equal(a->h, b->h);
    assert_int_equal(a->w, b->w);
    for (int y = 0; y < a->h; y++)
        for (int x = 0; x < a->w; x++) {
            const cchar_t *p = &a->cells[(size_t)y * (size_t)a->w + (size_t)x];
            const cchar_t *q = &b->cells[(size_t)y * (size_t)a->w + (size_t)x];
            wchar_t wp[CCHARW_MAX + 1], wq[CCHARW_MAX + 1];
            attr_t ap, aq;
            short pp, pq;
            getcchar(p, wp, &ap, &pp, NULL);
            getcchar(q, wq, &aq, &pq, NULL);
            if (wcscmp(wp, wq) != 0 || ap != aq || pp != pq || memcmp(p, q, sizeof *p) != 0)
                fail_msg("%s: cell (%d,%d) differs: U+%04lx attr %#lx pair %d with the cache, "
                         "U+%04lx attr %#lx pair %d without", what, y, x, (unsigned long)wp[0],
                         (unsigned long)ap, pp, (unsigned long)wq[0], (unsigned long)aq, pq);
        }
    if (a->cy != b->cy || a->cx != b->cx)
        fail_msg("%s: cursor (%d,%d) with the cache, (%d,%d) without", what, a->cy, a->cx, b->cy,
                 b->cx);
}

/* A frame drawn with the cache and without it; returns how many of its cells are not blank
 * (so that a comparison of two empty screens does not pass for one). */
static int frame_both(App *a, Snap *s1, Snap *s2, const char *what)
{
    cellput_enable(true);
    draw_frame(a);
    snap(s1);
    cellput_enable(false);
    draw_frame(a);
    snap(s2);
    cellput_enable(true);
    same(s1, s2, what);
    int drawn = 0;
    for (size_t i = 0; i < (size_t)s1->h * (size_t)s1->w; i++) {
        wchar_t wc[CCHARW_MAX + 1];
        attr_t at;
        short pr;
        getcchar(&s1->cells[i], wc, &at, &pr, NULL);
        drawn += wc[0] != L' ';
    }
    return drawn;
}

typedef struct {
    const char *net, *algo, *model, *sources;
} Case;

static const Case cases[] = {
    {"mesh:64x64", "st", NULL, NULL},
    {"mesh:8x8", "rh", NULL, NULL},
    {"torus:8x8", "chain", NULL, NULL},
    {"array:40", "st", "circuit", NULL},
    {"mesh:8x8", "st", "circuit", NULL},
    {"mesh:2x3x4", "chain", NULL, NULL},
    {"hxbar:4x8", "chain", NULL, NULL},
    {"mesh:16x16", "br-lin", NULL, "R:6"},
    {"full:16", "chain", NULL, NULL},
    {"ring:12", "chain", "postal", NULL},
};

static void screens(bool utf8, bool color)
{
    Term t;
    term_open(&t, utf8, color);
    Snap s1 = {0}, s2 = {0};
    static const int sizes[][2] = {{200, 60}, {80, 24}, {61, 16}};
    int drawn = 0;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        App *a = app_new();
        assert_non_null(a);
        SetupSpec spec = {0};
        spec.net = cases[c].net;
        spec.algo = cases[c].algo;
        spec.model = cases[c].model;
        spec.sources = cases[c].sources;
        if (!app_set_spec(a, &spec)) fail_msg("%s %s: %s", spec.net, spec.algo, app_msg_text(a));
        int32_t n = app_nsteps(a);
        for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
            resizeterm(sizes[z][1], sizes[z][0]);
            /* the zoom that fits (0), the roomiest (z), then smaller ones (Z) and past the
             * smallest the overview; a panel each (Tab); the cursor and the step moved */
            for (int zoom = -1; zoom <= LAYOUT_NZOOM; zoom++) {
                if (zoom < 0) app_key(a, "0");
                else if (zoom == 0) for (int i = 0; i < LAYOUT_NZOOM; i++) app_key(a, "z");
                else app_key(a, "Z");
                app_key(a, "<Tab>");
                int32_t size = net_size(app_bcast(a)->setup.net);
                app_cursor_to(a, (int32_t)((c * 7 + (size_t)zoom * 3 + 3) % (size_t)size));
                app_goto(a, zoom < 0 ? n / 2 : (int32_t)((zoom + 1) * n / (LAYOUT_NZOOM + 2)));
                char what[160];
                snprintf(what, sizeof what, "%s %s %s, %dx%d, zoom %d, %s, %s", cases[c].net,
                         cases[c].algo, cases[c].model ? cases[c].model : "seidel", sizes[z][0],
                         sizes[z][1], zoom, utf8 ? "UTF-8" : "ASCII", color ? "colour" : "mono");
                drawn += frame_both(a, &s1, &s2, what);
            }
        }
        app_free(a);
    }
    assert_true(drawn > 100000);   /* the screens were full, not blank */
    free(s1.cells);
    free(s2.cells);
    term_close(&t);
}

static void test_screens_utf8_colour(void **state)
{
    (void)state;
    screens(true, true);
}

static void test_screens_ascii_mono(void **state)
{
    (void)state;
    screens(false, false);
}

/* Random keys (steps, zooms, panels, the command line with completions, help, pickers, side
 * by side): every state drawn both ways. */
static void test_random_keys(void **state)
{
    (void)state;
    Term t;
    term_open(&t, true, true);
    App *a = app_new();
    SetupSpec spec = {0};
    spec.net = "mesh:8x8";
    spec.algo = "st";
    if (!app_set_spec(a, &spec)) fail_msg("%s", app_msg_text(a));
    Input *in = input_new("xterm-256color", true);
    assert_non_null(in);
    static const char *const pieces[] = {
        "n", "p", "g", "G", "+", "-", "h", "j", "k", "l", "H", "J", "K", "L", "z", "Z", "0",
        "\t", "\x1b[Z", "\r", "e", "s", "a", "t", "b", "m", "o", "]", "[", "?", ":", "\x1b",
        ":step 3\r", ":net ring:12\r", ":net mesh:4x4\r", ":net mesh:2x3x4\r", ":net torus:5x5\r",
        ":net array:40\r", ":net mesh:8x8\r", ":algo chain\r", ":model circuit\r",
        ":model postal\r", ":vs rh\r", ":vs off\r", ":al\t", ":net \t\t", ":\x01\x02\r",
        ":bytes 64\r", ":nosuchcommand \xc3\xa9\r", "\x1b[<0;9;9M", "\x1b[<0;30;5M",
    };
    srand(4242);
    static const int sizes[][2] = {{160, 40}, {80, 24}, {61, 16}, {200, 60}};
    Snap s1 = {0}, s2 = {0};
    int drawn = 0;
    for (int round = 0; round < 400; round++) {
        const char *p = pieces[rand() % (int)(sizeof pieces / sizeof pieces[0])];
        input_feed(in, a, p, strlen(p));
        if (rand() % 5 == 0) input_flush(in, a);
        const int *sz = sizes[rand() % 4];
        resizeterm(sz[1], sz[0]);
        char what[64];
        snprintf(what, sizeof what, "round %d (after '%s')", round, p);
        drawn += frame_both(a, &s1, &s2, what);
        app_tick(a);
        app_take_suspend(a);
        app_take_theme_change(a);
    }
    assert_true(drawn > 100000);
    free(s1.cells);
    free(s2.cells);
    input_free(in);
    app_free(a);
    term_close(&t);
}

/* One string at (y,x) in w columns, put and put_cut, both ways, on a cleared screen. */
static void one(int y, int x, int w, int attr, const char *s, const char *what)
{
    Snap s1 = {0}, s2 = {0};
    for (int cut = 0; cut < 2; cut++) {
        int r[2];
        Snap *sn[2] = {&s1, &s2};
        for (int k = 0; k < 2; k++) {
            cellput_enable(k == 0);
            erase();
            wmove(stdscr, 0, 0);
            r[k] = cut ? draw_put_cut(y, x, w, attr, s) : draw_put(y, x, w, attr, s);
            snap(sn[k]);
        }
        cellput_enable(true);
        char t[200];
        snprintf(t, sizeof t, "%s (%s)", what, cut ? "put_cut" : "put");
        same(&s1, &s2, t);
        if (r[0] != r[1]) fail_msg("%s: %d columns with the cache, %d without", t, r[0], r[1]);
    }
    free(s1.cells);
    free(s2.cells);
}

static void test_strings(void **state)
{
    (void)state;
    Term t;
    term_open(&t, true, true);
    resizeterm(24, 80);
    int attrs[] = {A_NORMAL, theme_attr(R_KEY), theme_attr(R_CURSOR) | A_UNDERLINE,
                   theme_attr(R_BAD) | (int)A_REVERSE, A_BOLD};
    static const char *const strs[] = {
        "", "x", "plain text", "\xe2\x96\x88\xe2\x96\x92\xc2\xb7", "tab\there", "bell\a",
        "del\x7f", "c1 \xc2\x85 control", "nbsp\xc2\xa0ok", "bad \xff byte", "cut \xe2\x96",
        "overlong \xc0\xaf", "wide \xe4\xb8\xad", "e\xcc\x81 combining", "esc \x1b[31m red",
        "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234",
    };
    int pos[][3] = {{0, 0, 80}, {3, 5, 10}, {23, 70, 10}, {5, 79, 1}, {6, 78, 2}, {7, 0, 79},
                    {8, 40, 3}, {9, 10, 0}, {-1, 0, 5}, {24, 0, 5}, {10, 76, 9}};
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        for (size_t p = 0; p < sizeof pos / sizeof pos[0]; p++)
            for (size_t k = 0; k < sizeof attrs / sizeof attrs[0]; k++) {
                char what[96];
                snprintf(what, sizeof what, "string %zu at (%d,%d) w %d attr %zu", i, pos[p][0],
                         pos[p][1], pos[p][2], k);
                one(pos[p][0], pos[p][1], pos[p][2], attrs[k], strs[i], what);
            }
    /* the cache takes the common strings (else the comparisons above prove nothing) */
    int nch = -1;
    assert_int_equal(cellput_str(1, 1, 20, A_BOLD, "plain text", NULL, &nch), 10);
    assert_int_equal(nch, 10);
    assert_int_equal(cellput_str(1, 1, 2, A_BOLD, "\xe2\x96\x88\xe2\x96\x92\xc2\xb7", "~", &nch), 2);
    assert_int_equal(nch, 3);
    assert_int_equal(cellput_fill(2, 0, 79, A_REVERSE), 79);
    /* ... and refuses the others */
    assert_int_equal(cellput_str(1, 1, 20, A_BOLD, "tab\there", NULL, &nch), -1);
    assert_int_equal(cellput_str(1, 1, 20, A_BOLD, "wide \xe4\xb8\xad", NULL, &nch), -1);
    assert_int_equal(cellput_str(1, 1, 20, A_BOLD, "e\xcc\x81", NULL, &nch), -1);
    assert_int_equal(cellput_str(1, 70, 10, A_BOLD, "0123456789", NULL, &nch), -1);
    assert_int_equal(cellput_fill(2, 0, 80, A_REVERSE), -1);
    term_close(&t);
}

/* The Step panel with its transfer lines kept (StepLines) is the panel made afresh: random
 * steps back and forth, broadcasts replaced (a new generation at the same step), the glyphs
 * switched between UTF-8 and ASCII, boxes of several heights. */
static void test_step_lines(void **state)
{
    (void)state;
    Term t;
    term_open(&t, true, true);
    resizeterm(60, 200);
    StepLines *kept = steplines_new();
    assert_non_null(kept);
    static const char *const nets[][2] = {{"mesh:16x16", "rh"}, {"mesh:16x16", "st"},
                                          {"array:64", "bst"}, {"torus:8x8", "chain"}};
    srand(77);
    Snap s1 = {0}, s2 = {0};
    int lines = 0;
    App *a = app_new();
    assert_non_null(a);
    for (int round = 0; round < 300; round++) {
        if (round % 40 == 0) {   /* another broadcast, shown at the step the last one was */
            int32_t pos = round ? app_pos(a) : 3;
            SetupSpec spec = {0};
            spec.net = nets[(round / 40) % 4][0];
            spec.algo = nets[(round / 40) % 4][1];
            if (!app_set_spec(a, &spec)) fail_msg("%s", app_msg_text(a));
            app_goto(a, pos < app_nsteps(a) ? pos : app_nsteps(a));
        } else {
            app_goto(a, rand() % (app_nsteps(a) + 1));
        }
        if (round % 25 == 0) {
            char err[128];
            theme_init(true, (round / 25) % 2, NULL, err, sizeof err);
        }
        Box b = {.x = 120, .y = 1, .w = 70, .h = 10 + rand() % 50};
        StepSrc src = {.b = app_bcast(a), .lines = kept};
        erase();
        draw_step(&src, &b, true);
        snap(&s1);
        b.row = 0;
        src.lines = NULL;
        erase();
        draw_step(&src, &b, true);
        snap(&s2);
        char what[64];
        snprintf(what, sizeof what, "round %d, step %ld", round, (long)app_pos(a));
        same(&s1, &s2, what);
        lines += b.row;
    }
    assert_true(lines > 3000);
    app_free(a);
    steplines_free(kept);
    free(s1.cells);
    free(s2.cells);
    term_close(&t);
}

/* At one column a node (zoom Z3, Z4) a cell's glyph is the node's holdings' role (full,
 * partial, empty), which the map reads from the holdings' ends without counting them: against
 * the count (sim_held), every node at every position of broadcasts whose nodes hold many
 * ranges (rh's strided distribution). */
static void test_held_glyphs(void **state)
{
    (void)state;
    Term t;
    term_open(&t, true, true);
    resizeterm(60, 200);
    static const char *const nets[][2] = {{"mesh:32x32", "rh"}, {"mesh:16x16", "st"},
                                          {"array:512", "rh"}, {"torus:16x16", "chain"}};
    long checked = 0, many = 0, partial = 0;
    for (size_t c = 0; c < sizeof nets / sizeof nets[0]; c++) {
        App *a = app_new();
        SetupSpec spec = {0};
        spec.net = nets[c][0];
        spec.algo = nets[c][1];
        if (!app_set_spec(a, &spec)) fail_msg("%s", app_msg_text(a));
        for (int i = 0; i < LAYOUT_NZOOM; i++) app_key(a, "z");
        for (int i = 0; i < LAYOUT_Z3; i++) app_key(a, "Z");
        const Glyphs *g = theme_glyphs();
        wchar_t full[4], part[4], empty[4];
        assert_true(mbstowcs(full, g->full, 4) == 1 && mbstowcs(part, g->partial, 4) == 1 &&
                    mbstowcs(empty, g->empty, 4) == 1);
        for (int32_t pos = 0; pos <= app_nsteps(a); pos++) {
            app_goto(a, pos);
            draw_frame(a);
            AppFrameView v = app_frame_view(a);
            const Layout *L = v.lay;
            assert_int_equal(L->cw, 1);
            const Net *net = v.b->setup.net;
            uint64_t all = sched_nchunks(v.b->sched);
            for (int32_t n = 0; n < net_size(net); n++) {
                int gr, gc, x, y;
                layout_node_grid(L, net, n, &gr, &gc);
                if (!layout_cell_xy(L, gr, gc, &x, &y)) continue;
                cchar_t cc;
                assert_int_not_equal(mvwin_wch(stdscr, y + L->ch / 2, x, &cc), ERR);
                wchar_t wc[CCHARW_MAX + 1];
                attr_t at;
                short pr;
                getcchar(&cc, wc, &at, &pr, NULL);
                uint64_t held = sim_held(v.b->sim, n);
                size_t nr;
                sim_holdings(v.b->sim, n, &nr);
                wchar_t want = held >= all ? full[0] : held == 0 ? empty[0] : part[0];
                if (wc[0] != want)
                    fail_msg("%s %s position %ld node %ld (%zu ranges, %llu of %llu chunks): "
                             "U+%04lx on the map, U+%04lx wanted", nets[c][1], nets[c][0],
                             (long)pos, (long)n, nr, (unsigned long long)held,
                             (unsigned long long)all, (unsigned long)wc[0], (unsigned long)want);
                checked++;
                many += nr >= 2;
                partial += held > 0 && held < all;
            }
        }
        app_free(a);
    }
    assert_true(checked > 10000);
    assert_true(many > 1000);   /* sets of several ranges were read by their ends */
    assert_true(partial > 1000);
    term_close(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_screens_utf8_colour),
        cmocka_unit_test(test_screens_ascii_mono),
        cmocka_unit_test(test_random_keys),
        cmocka_unit_test(test_step_lines),
        cmocka_unit_test(test_held_glyphs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
