/* test_tui_input.c — the terminal UI's input without a terminal: bytes go through an abstract
 * libtermkey (termkey_new_abstract + termkey_push_bytes, inside input_feed) into the same key
 * and mouse handlers the real loop uses, and the App's state says what happened.  Also the
 * layout's hit tests and the too-small rule. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <curses.h>

#include "../../src/tui/app-core.h"
#include "../../src/tui/draw.h"
#include "../../src/tui/theme.h"
#include "../../src/tui/input.h"
#include "../../src/tui/layout.h"

typedef struct {
    App *a;
    Input *in;
} Fx;

static int setup_mesh(void **state)
{
    Fx *f = calloc(1, sizeof *f);
    f->a = app_new();
    SetupSpec spec = {0};
    spec.net = "mesh:8x8";
    spec.algo = "st";
    if (!app_set_spec(f->a, &spec)) fail_msg("%s", f->a->msg);
    f->in = input_new("xterm-256color", true);
    assert_non_null(f->in);
    app_layout(f->a, 160, 40);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    Fx *f = *state;
    input_free(f->in);
    app_free(f->a);
    free(f);
    return 0;
}

/* Feed bytes as the loop would, then resolve a pending lone Escape. */
static void feed(Fx *f, const char *bytes)
{
    if (input_feed(f->in, f->a, bytes, strlen(bytes)))
        input_flush(f->in, f->a);
    app_layout(f->a, 160, 40);
}

static void test_stepping(void **state)
{
    Fx *f = *state;
    int32_t n = app_nsteps(f->a);
    assert_true(n > 3);
    assert_int_equal(f->a->b.pos, 0);
    feed(f, "nnn");
    assert_int_equal(f->a->b.pos, 3);
    feed(f, "p");
    assert_int_equal(f->a->b.pos, 2);
    feed(f, "\x1b[6~");          /* PageDown */
    assert_int_equal(f->a->b.pos, 3);
    feed(f, "\x1b[5~");          /* PageUp */
    assert_int_equal(f->a->b.pos, 2);
    feed(f, "G");
    assert_int_equal(f->a->b.pos, n);
    feed(f, "n");                /* past the end: stays */
    assert_int_equal(f->a->b.pos, n);
    feed(f, "g");
    assert_int_equal(f->a->b.pos, 0);
    feed(f, "p");
    assert_int_equal(f->a->b.pos, 0);
    feed(f, "\x7f");             /* Backspace: previous */
    assert_int_equal(f->a->b.pos, 0);
    /* the holdings follow the position (sim_seek) */
    assert_int_equal(sim_pos(f->a->b.sim), 0);
    feed(f, ":step 5\r");
    assert_int_equal(f->a->b.pos, 5);
    assert_int_equal(sim_pos(f->a->b.sim), 5);
    assert_int_equal(f->a->mode, MODE_MAP);
}

static void test_play_speed(void **state)
{
    Fx *f = *state;
    int sp = f->a->speed;
    feed(f, "+");
    assert_int_equal(f->a->speed, sp + 1);
    feed(f, "--");
    assert_int_equal(f->a->speed, sp - 1);
    feed(f, " ");
    assert_true(f->a->playing);
    app_tick(f->a);
    app_tick(f->a);
    assert_int_equal(f->a->b.pos, 2);
    feed(f, " ");
    assert_false(f->a->playing);
    feed(f, "G ");               /* play at the end starts over */
    assert_true(f->a->playing);
    assert_int_equal(f->a->b.pos, 0);
}

static void test_cursor_keys(void **state)
{
    Fx *f = *state;
    assert_int_equal(f->a->cursor, 0);
    feed(f, "j");
    assert_int_equal(f->a->cursor, 8);
    feed(f, "\x1b[B");           /* Down */
    assert_int_equal(f->a->cursor, 16);
    feed(f, "\x1bOC");           /* Right, keypad mode */
    assert_int_equal(f->a->cursor, 17);
    feed(f, "l\x1b[D" "h");      /* right, Left, left */
    assert_int_equal(f->a->cursor, 16);
    feed(f, "kkkkkkkk");         /* clamps at the top */
    assert_int_equal(f->a->cursor, 0);
    feed(f, "e");                /* a link at the cursor */
    assert_true(f->a->sel_link >= 0);
    feed(f, "\x1b");             /* a lone Escape (after the wait time) clears it */
    assert_int_equal(f->a->sel_link, -1);
    feed(f, "\t");
    assert_int_equal(f->a->panel, PANEL_TIMELINE);
    feed(f, "\x1b[Z");           /* Shift-Tab */
    assert_int_equal(f->a->panel, PANEL_STEP);
}

/* More bytes at once than libtermkey's buffer holds (256): the keys queued while a build ran
 * come in one piece, and none may be lost. */
static void test_long_burst(void **state)
{
    Fx *f = *state;
    char buf[1200] = "";
    for (int i = 0; i < 280; i++) strcat(buf, "np");
    strcat(buf, "nnn");
    feed(f, buf);
    assert_int_equal(f->a->b.pos, 3);
    memset(buf, 0, sizeof buf);
    for (int i = 0; i < 1100; i++) buf[i] = i % 2 ? 'l' : 'h';   /* ends on l: column 1 */
    feed(f, buf);
    assert_int_equal(f->a->cursor, 1);
}

static void test_command_line(void **state)
{
    Fx *f = *state;
    feed(f, ":");
    assert_int_equal(f->a->mode, MODE_CMDLINE);
    feed(f, "al\t");             /* Tab completes the command */
    assert_string_equal(f->a->cmd, "algo ");
    feed(f, "bs\t");
    assert_string_equal(f->a->cmd, "algo bst");
    feed(f, "\r");
    assert_int_equal(f->a->mode, MODE_MAP);
    assert_false(f->a->msg_error);
    assert_string_equal(f->a->b.setup.def->name, "bst");

    feed(f, ":algo nosuch\r");
    assert_true(f->a->msg_error);
    assert_non_null(strstr(f->a->msg, "nosuch"));
    assert_string_equal(f->a->b.setup.def->name, "bst");   /* kept */

    feed(f, ":net array:16\r");
    assert_string_equal(net_spec(f->a->b.setup.net), "array:16");
    assert_string_equal(f->a->b.setup.def->name, "bst");
    /* bst does not run on a torus: the net is shown with an algorithm that does */
    feed(f, ":net torus:5x5\r");
    assert_string_equal(net_spec(f->a->b.setup.net), "torus:5x5");
    assert_non_null(strstr(f->a->msg, "does not run there"));
    feed(f, ":algo chain\r");
    assert_string_equal(f->a->b.setup.def->name, "chain");

    feed(f, ":net cube:3\r");
    assert_true(f->a->msg_error);
    assert_string_equal(net_spec(f->a->b.setup.net), "torus:5x5");

    feed(f, ":bytes 4096\r");
    assert_int_equal(f->a->b.setup.args.bytes, 4096);
    feed(f, ":model circuit\r");
    assert_int_equal(f->a->b.setup.cost.model, COST_CIRCUIT);
    feed(f, ":set tau=2\r");
    assert_false(f->a->msg_error);
    feed(f, ":set nosuch=1\r");
    assert_true(f->a->msg_error);
    feed(f, ":source 2,3\r");
    assert_int_equal(f->a->b.setup.args.source, 13);
    feed(f, ":source 9,9\r");
    assert_true(f->a->msg_error);
    feed(f, ":bogus\r");
    assert_true(f->a->msg_error);
    assert_non_null(strstr(f->a->msg, "unknown command"));
    feed(f, ":step 999\r");
    assert_true(f->a->msg_error);

    /* history: Up recalls the last command; Escape cancels */
    feed(f, ":\x1b[A");
    assert_string_equal(f->a->cmd, "step 999");
    feed(f, "\x1b");
    assert_int_equal(f->a->mode, MODE_MAP);
    feed(f, ":q\r");
    assert_true(f->a->quit);
}

static void test_help_picker_quit(void **state)
{
    Fx *f = *state;
    feed(f, "?");
    assert_int_equal(f->a->mode, MODE_HELP);
    feed(f, "j");
    assert_int_equal(f->a->mode, MODE_HELP);
    feed(f, "x");
    assert_int_equal(f->a->mode, MODE_MAP);
    feed(f, "m");                /* model picker */
    assert_int_equal(f->a->mode, MODE_PICKER);
    feed(f, "j\r");
    assert_int_equal(f->a->mode, MODE_MAP);
    assert_int_equal(f->a->b.setup.cost.model, COST_POSTAL);
    feed(f, "\x0c");             /* Ctrl-L */
    assert_true(f->a->redraw);
    assert_false(f->a->quit);
    feed(f, "\x03");             /* Ctrl-C */
    assert_true(f->a->quit);
    f->a->quit = false;
    feed(f, "q");
    assert_true(f->a->quit);
}

/* The SGR mouse report for a press of button b at screen cell (x, y), 0-based. */
static void click(Fx *f, int b, int x, int y, bool split)
{
    char buf[64];
    int n = snprintf(buf, sizeof buf, "\x1b[<%d;%d;%dM", b, x + 1, y + 1);
    if (split) {
        input_feed(f->in, f->a, buf, 6);
        input_feed(f->in, f->a, buf + 6, (size_t)n - 6);
    } else {
        input_feed(f->in, f->a, buf, (size_t)n);
    }
    app_layout(f->a, 160, 40);
}

static void test_mouse(void **state)
{
    Fx *f = *state;
    const Layout *L = &f->a->lay;
    int x, y;
    assert_true(layout_cell_xy(L, 2, 3, &x, &y));
    click(f, 0, x, y, false);
    assert_int_equal(f->a->cursor, 2 * 8 + 3);
    assert_true(layout_cell_xy(L, 5, 6, &x, &y));
    click(f, 0, x + 1, y, true);    /* a report cut in two reads */
    assert_int_equal(f->a->cursor, 5 * 8 + 6);
    /* the link right of (1,1) */
    assert_true(layout_cell_xy(L, 1, 1, &x, &y));
    click(f, 0, x + L->cw, y, false);
    assert_true(f->a->sel_link >= 0);
    int32_t tail;
    int dim, dir;
    net_link_info(f->a->b.setup.net, f->a->sel_link, &tail, &dim, &dir);
    assert_int_equal(tail, 9);
    assert_int_equal(dim, 1);
    /* the wheel zooms */
    int z = f->a->zoom;
    click(f, 65, 1, 1, false);
    assert_int_equal(f->a->zoom, z + 1);
    click(f, 64, 1, 1, false);
    assert_int_equal(f->a->zoom, z);
    /* a click on a timeline row goes to that step (rows as the last frame drew them) */
    f->a->panel = PANEL_TIMELINE;
    f->a->tl_y0 = 5;
    f->a->tl_rows = 8;
    f->a->tl_first = 0;
    click(f, 0, f->a->lay.side_x + 3, 5 + 3, false);
    assert_int_equal(f->a->b.pos, 4);
    f->a->panel = PANEL_STEP;
    app_goto(f->a, 0);
    /* keys after a mouse report in the same read */
    input_feed(f->in, f->a, "\x1b[<0;1;1Mn", 10);
    assert_int_equal(f->a->b.pos, 1);
}

/* The comparison chart fills in one algorithm per call; its numbers are the engine's. */
static void test_chart(void **state)
{
    Fx *f = *state;
    const Chart *c = app_chart(f->a);
    assert_false(c->done);
    int calls = 0;
    while (app_chart_work(f->a)) calls++;
    assert_true(c->done);
    assert_true(c->nalgo >= 2);
    assert_true(calls >= 1);
    int st = -1, s1k = -1;
    for (int k = 0; k < c->nalgo; k++) if (strcmp(c->name[k], "st") == 0) st = k;
    for (int s = 0; s < CHART_NSIZES; s++) if (c->bytes[s] == 1024) s1k = s;
    assert_true(st >= 0 && s1k >= 0);
    assert_float_equal(c->cost[st][s1k], sim_totals(f->a->b.sim)->cost.total, 1e-9);
    /* a new broadcast makes it stale */
    feed(f, ":bytes 64\r");
    assert_false(app_chart(f->a)->done);
}

/* Byte sequences no key sends, on which libtermkey 0.22 itself crashes, are dropped before it
 * sees them: CSI with intermediate bytes (7- and 8-bit), "CSI u" keys with no codepoint (found
 * by fuzz_input), and the rest of a half character after the Escape wait.  Keys after them
 * still work. */
static void test_hostile_bytes(void **state)
{
    Fx *f = *state;
    static const char *const bad[] = {
        "\x1b[ P", "\x1b[$P", "\x1b[/Z", "\x1b[1;2 A", "\x9b B", "a\x9b B", "\x1b[%\x1bP",
        "\x1b[<0;1", "\x1b[", "\x1b", "\x1b[;u", "\x1b[;5u", "\x1b[:;u", "\x1b[;1;u",
        "\x1b[?;u",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (input_feed(f->in, f->a, bad[i], strlen(bad[i]))) input_flush(f->in, f->a);
        f->a->mode = MODE_MAP;
        f->a->quit = false;
        feed(f, "gn");
        assert_int_equal(f->a->b.pos, 1);
    }
    /* a character cut in two with the Escape wait in between: its tail (0x9b) is stray */
    input_feed(f->in, f->a, "\xe5\x8c", 2);
    input_flush(f->in, f->a);
    input_feed(f->in, f->a, "\x9b' B", 4);
    input_flush(f->in, f->a);
    f->a->mode = MODE_MAP;
    feed(f, "gnn");
    assert_int_equal(f->a->b.pos, 2);
}

/* Random bytes, keys and clicks never break the App: afterwards it still holds a broadcast
 * and a position inside it.  (Quit, suspend and theme requests are flags for the loop.) */
static void test_fuzz(void **state)
{
    Fx *f = *state;
    static const char *const pieces[] = {
        "n", "p", "g", "G", " ", "+", "-", "h", "j", "k", "l", "H", "J", "K", "L", "z", "Z", "0",
        "\t", "\x1b[Z", "\r", "e", "s", "a", "t", "b", "m", "o", "]", "[", "?", ":", "\x1b",
        "\x0c", "\x1b[A", "\x1b[B", "\x1b[C", "\x1b[D", "\x1b[5~", "\x1b[6~", "\x7f",
        ":step 3\r", ":net ring:12\r", ":net mesh:4x4\r", ":net mesh:2x3x4\r", ":net torus:3x3x3\r",
        ":net torus:5x5\r", ":net array:40\r", ":net mesh:8x8\r", "zzz", "ZZZZ", ":algo chain\r", ":set s=3\r",
        ":bytes 64\r", ":model postal\r", ":source 1\r", ":\t\t\r", ":algo \t\r",
        "\x1b[<0;", "\x1b[<64;3;3M", "\x1b[<65;3;3M", "\x1b[<2;9;9M", "\x1b[<0;999;999M",
        "\x1b[<0;1;1m", "\x1b[<99999999;1;1M", "\x1b[<;;M", "\x1b[", "\x1bO", "\xc3\xa9", "\xff",
    };
    srand(12345);
    int sizes[][2] = {{160, 40}, {80, 24}, {40, 12}, {61, 16}, {200, 60}};
    /* every state is also drawn, into a curses screen on /dev/null */
    FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
    SCREEN *scr = newterm("xterm-256color", out, in);
    assert_non_null(scr);
    char err[128];
    theme_init(true, rand() % 2, NULL, err, sizeof err);
    for (int round = 0; round < 3000; round++) {
        char buf[64];
        if (rand() % 4 == 0) {
            int n = 1 + rand() % 12;
            for (int i = 0; i < n; i++) buf[i] = (char)(rand() % 256);
            input_feed(f->in, f->a, buf, (size_t)n);
        } else {
            const char *p = pieces[rand() % (int)(sizeof pieces / sizeof pieces[0])];
            input_feed(f->in, f->a, p, strlen(p));
        }
        if (rand() % 7 == 0) input_flush(f->in, f->a);
        if (rand() % 5 == 0) {
            int x = rand() % 220, y = rand() % 70;
            int n = snprintf(buf, sizeof buf, "\x1b[<%d;%d;%dM", rand() % 3, x, y);
            input_feed(f->in, f->a, buf, (size_t)n);
        }
        int *sz = sizes[rand() % 5];
        resizeterm(sz[1], sz[0]);
        draw_frame(f->a);
        app_tick(f->a);
        if (rand() % 50 == 0) app_chart_work(f->a);
        f->a->quit = false;
        f->a->suspend = false;
        f->a->theme_changed = false;
        if (f->a->lesson == NULL && f->a->mode == MODE_PICKER && f->a->pick == PICK_LESSON)
            f->a->mode = MODE_MAP;
    }
    input_flush(f->in, f->a);
    endwin();
    delscreen(scr);
    fclose(out);
    fclose(in);
    assert_true(f->a->b.ready);
    assert_true(f->a->b.pos >= 0 && f->a->b.pos <= app_nsteps(f->a));
    assert_int_equal(sim_pos(f->a->b.sim), f->a->b.pos);
    assert_true(f->a->cursor >= 0 && f->a->cursor < net_size(f->a->b.setup.net));
}

/* Side by side (vs.h): every broadcast has a generation of its own (the second's was always
 * 0, so a new second broadcast had the old one's, and the views' caches keyed on it took one
 * for the other); a frame leaves the App's layout the frame's (draw_vs left the left half's
 * in it, which the next key or click then went by); a click on either half selects the node
 * or link under it (the right half's used to select nothing); the cursor keys go by the
 * halves' layout; the tiles of both broadcasts are computed once, not twice a frame. */
static void test_vs_halves(void **state)
{
    Fx *f = *state;
    App *a = f->a;
    assert_true(app_command(a, "vs bst"));
    long g1 = vs_bcast(a->vs)->gen;
    assert_true(g1 != a->b.gen);
    assert_true(app_command(a, "vs rh"));
    long g2 = vs_bcast(a->vs)->gen;
    assert_true(g2 != g1);
    assert_true(g2 != a->b.gen);
    long g0 = a->b.gen;
    assert_true(app_command(a, "bytes 64"));   /* both rebuilt: new generations again */
    assert_true(a->b.gen != g0 && a->b.gen != g2 && vs_bcast(a->vs)->gen != g2);
    assert_true(a->b.gen != vs_bcast(a->vs)->gen);

    FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
    SCREEN *scr = newterm("xterm-256color", out, in);
    assert_non_null(scr);
    resizeterm(40, 160);
    char err[128];
    theme_init(true, false, NULL, err, sizeof err);
    assert_true(app_command(a, "tiles 1"));
    long tiles0 = tileview_computed(a->tv);
    app_layout(a, 160, 40);
    Layout want = a->lay;
    for (int i = 0; i < 5; i++) draw_frame(a);
    /* the frame's layout, not a half's */
    assert_int_equal(a->lay.map_x, want.map_x);
    assert_int_equal(a->lay.map_w, want.map_w);
    assert_int_equal(a->lay.side_x, want.side_x);
    assert_int_equal(a->lay.vis_cols, want.vis_cols);
    /* five frames of two broadcasts: each one's tiles computed once */
    assert_true(tileview_computed(a->tv) - tiles0 <= 2);
    const Layout *l, *r;
    assert_true(app_map_halves(a, &l, &r));
    assert_true(l->map_x + l->map_w <= r->map_x);
    assert_true(r->map_x + r->map_w <= a->lay.map_x + a->lay.map_w);
    /* a click on a node in the right half, then in the left */
    int x, y;
    assert_true(layout_cell_xy(r, 2, 3, &x, &y));
    click(f, 0, x, y, false);
    assert_int_equal(a->cursor, 2 * 8 + 3);
    assert_true(layout_cell_xy(l, 5, 6, &x, &y));
    click(f, 0, x, y, false);
    assert_int_equal(a->cursor, 5 * 8 + 6);
    /* the link right of (1,1), in the right half */
    assert_true(app_map_halves(a, &l, &r));
    assert_true(layout_cell_xy(r, 1, 1, &x, &y));
    click(f, 0, x + r->cw, y, false);
    assert_true(a->sel_link >= 0);
    int32_t tail;
    int dim, dir;
    net_link_info(a->b.setup.net, a->sel_link, &tail, &dim, &dir);
    assert_true(tail == 9 || tail == 10);   /* either direction of the link (1,1)-(1,2) */
    assert_int_equal(dim, 1);

    /* a folded array: down is a row of the half as drawn (folded at another zoom than the
     * whole frame's width would be) */
    assert_true(app_command(a, "net array:200"));
    app_layout(a, 160, 40);
    draw_frame(a);
    assert_true(app_map_halves(a, &l, &r));
    int per = l->per_row;
    assert_true(per > 0 && per != a->lay.per_row);
    app_goto(a, 0);
    a->cursor = 0;
    app_layout(a, 160, 40);   /* (as a resize would) */
    feed(f, "j");
    assert_int_equal(a->cursor, per);
    endwin();
    delscreen(scr);
    fclose(out);
    fclose(in);
}

static void test_layout(void **state)
{
    (void)state;
    char err[128];
    Net *net = net_parse("mesh:64x64", err, sizeof err);
    assert_non_null(net);
    Layout L;
    layout_compute(&L, net, 40, 12, -1, true, 0, 0, 0);
    assert_true(L.too_small);
    layout_compute(&L, net, 200, 60, -1, true, 0, 0, 4095);
    assert_false(L.too_small);
    assert_true(L.vis_rows < 64);       /* only part is shown, panned to the last node */
    assert_int_equal(L.vis_r0 + L.vis_rows, 64);
    int x, y;
    assert_true(layout_cell_xy(&L, 63, 63, &x, &y));
    int32_t node = -1;
    int64_t link = -1;
    assert_int_equal(layout_hit(&L, net, x, y, &node, &link), 1);
    assert_int_equal(node, 4095);
    net_free(net);

    /* a torus: the wrap-around stub left of column 0 is the link (r, C-1) -> (r, 0) */
    net = net_parse("torus:5x5", err, sizeof err);
    layout_compute(&L, net, 160, 40, LAYOUT_Z0, true, 0, 0, 0);
    assert_true(L.mx > 0);
    assert_true(layout_cell_xy(&L, 2, 0, &x, &y));
    assert_int_equal(layout_hit(&L, net, x - 1, y, &node, &link), 2);
    assert_int_equal(link, net_link(net, 2 * 5 + 4, 1, 1));
    net_free(net);

    /* a long array folds into rows */
    net = net_parse("array:100", err, sizeof err);
    layout_compute(&L, net, 80, 24, -1, true, 0, 0, 0);
    assert_true(L.grid_rows > 1);
    int gr, gc;
    layout_node_grid(&L, net, 99, &gr, &gc);
    assert_int_equal(layout_grid_node(&L, net, gr, gc), 99);
    net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_stepping, setup_mesh, teardown),
        cmocka_unit_test_setup_teardown(test_play_speed, setup_mesh, teardown),
        cmocka_unit_test_setup_teardown(test_cursor_keys, setup_mesh, teardown),
        cmocka_unit_test_setup_teardown(test_long_burst, setup_mesh, teardown),
        cmocka_unit_test_setup_teardown(test_command_line, setup_mesh, teardown),
        cmocka_unit_test_setup_teardown(test_help_picker_quit, setup_mesh, teardown),
        cmocka_unit_test_setup_teardown(test_mouse, setup_mesh, teardown),
        cmocka_unit_test_setup_teardown(test_chart, setup_mesh, teardown),
        cmocka_unit_test_setup_teardown(test_hostile_bytes, setup_mesh, teardown),
        cmocka_unit_test_setup_teardown(test_fuzz, setup_mesh, teardown),
        cmocka_unit_test_setup_teardown(test_vs_halves, setup_mesh, teardown),
        cmocka_unit_test(test_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
