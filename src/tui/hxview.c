/* hxview.c — hxbar:AxB drawn as its modules (see hxview.h). */
#include "hxview.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "theme.h"

void hxview_channels(const Net *net, const int32_t *src, const int32_t *dst, int64_t nx,
                     int32_t *out, int32_t *in)
{
    int32_t A = net_hxbar_modules(net), B = net_hxbar_per(net);
    for (int32_t m = 0; m < A; m++)
        out[m] = in[m] = 0;
    for (int64_t i = 0; B > 0 && i < nx; i++)
        if (src[i] / B != dst[i] / B) {
            out[src[i] / B]++;
            in[dst[i] / B]++;
        }
}

bool hxview_active(const FtSrc *src)
{
    return src->net && net_kind(src->net) == NET_HXBAR && net_size(src->net) <= HX_MAX_NODES &&
           src->map_w >= HX_MIN_W && src->map_h >= 3;
}

/* One glyph (UTF-8: several bytes) at (y, x). */
static void glyph(int y, int x, int attr, const char *g)
{
    if (y < 0 || x < 0 || y >= LINES || x >= COLS) return;
    attrset(attr);
    mvaddstr(y, x, g);
    attrset(A_NORMAL);
}

/* A border line of width bw at (y, x): corners l and r, bh between. */
static void box_rule(int y, int x, int bw, const char *l, const char *r, int attr)
{
    const Glyphs *g = theme_glyphs();
    glyph(y, x, attr, l);
    for (int i = 1; i < bw - 1; i++)
        glyph(y, x + i, attr, g->hbar);
    glyph(y, x + bw - 1, attr, r);
}

/* Write s at x on line y (at most room columns); returns the columns used. */
static int piece(int y, int x, int room, int attr, const char *s)
{
    int n = (int)strlen(s);
    if (n > room) n = room;
    if (n > 0) fulltree_text(y, x, n, attr, s);
    return n;
}

/* The modules a module's channel transfers (of sh) go to (dir > 0) or come from, as
 * "->m5 ->m6" into buf (each once, in order). */
static void peers(const Net *net, const FtShown *sh, int32_t m, int dir, char *buf, size_t len)
{
    int32_t B = net_hxbar_per(net), A = net_hxbar_modules(net);
    buf[0] = '\0';
    unsigned char *seen = calloc((size_t)A, 1);
    if (!seen) return;
    for (int64_t i = 0; i < sh->nx; i++) {
        int32_t ms = sh->src[i] / B, md = sh->dst[i] / B;
        if (ms == md) continue;
        int32_t other = dir > 0 ? (ms == m ? md : -1) : (md == m ? ms : -1);
        if (other < 0 || seen[other]) continue;
        seen[other] = 1;
        size_t u = strlen(buf);
        snprintf(buf + u, len - u, "%s%sm%d", u ? " " : "", dir > 0 ? "->" : "<-", (int)other);
    }
    free(seen);
}

/* Where the boxes go: nc boxes a row of q cells (cw columns) a line, each bw x bh; brows rows
 * of boxes, fit of them shown from row top. */
typedef struct {
    int cw, nc, q, bw, bh, brows, fit, top;
} HxLay;

/* Boxes per row: the fewest lines in all, the first that fits the map of w x h. */
static void hx_boxes(HxLay *l, int32_t A, int32_t B, int w, int h)
{
    int best_nc = 1, best_q = 1, best_total = -1;
    for (int nc = 1; nc <= A; nc++) {
        int bw = (w - (nc - 1)) / nc;
        int q = (bw - 4 + 1) / l->cw;
        if (q > B) q = B;
        if (q < 1 || bw < HX_MIN_W) break;
        int bh = (B + q - 1) / q + 2;
        int total = (A + nc - 1) / nc * bh;
        if (best_total < 0 || total < best_total) {
            best_total = total;
            best_nc = nc;
            best_q = q;
        }
        if (total <= h) break;
    }
    l->nc = best_nc;
    l->q = best_q;
    l->bw = l->q * l->cw - 1 + 4;
    l->bh = (B + l->q - 1) / l->q + 2;
    l->brows = (A + l->nc - 1) / l->nc;
    l->fit = h / l->bh;
    if (l->fit < l->brows && l->fit > 1) l->fit = (h - 1) / l->bh;   /* room for the "modules" line */
    if (l->fit < 1) l->fit = 1;
}

/* The first row of boxes shown: the step's receivers', else the cursor's, kept in view. */
static int hx_top(const HxLay *l, const FtSrc *src, const int32_t *recvs, int32_t B)
{
    if (l->fit >= l->brows) return 0;
    int32_t P = net_size(src->net);
    int want = -1, wlast = -1;
    for (int32_t v = 0; v < P; v++)
        if (recvs && recvs[v] > 0) {
            int r = (int)(v / B / l->nc);
            if (want < 0 || r < want) want = r;
            if (r > wlast) wlast = r;
        }
    if (want < 0) want = wlast = (int)(src->cursor / B / l->nc);
    int top = wlast - want < l->fit ? want - (l->fit - (wlast - want + 1)) / 2 : want;
    if (top > l->brows - l->fit) top = l->brows - l->fit;
    if (top < 0) top = 0;
    return top;
}

/* Module m's box at (by, bx): its borders (the top naming the module and its channels out
 * and in, the bottom the modules its channel transfers go to and come from) and its cells. */
static void hx_box(FtView *ft, const FtSrc *src, const HxLay *l, const FtShown *sh, int32_t m,
                   int32_t out, int32_t in, int by, int bx)
{
    const Net *net = src->net;
    int32_t B = net_hxbar_per(net), C = net_hxbar_channels(net);
    int bw = l->bw, bh = l->bh;
    const Glyphs *g = theme_glyphs();
    bool over = out > C || in > C;
    int battr = theme_attr(over ? R_CONFLICT : out + in > 0 ? R_CIRCUIT : R_DIM);
    box_rule(by, bx, bw, g->tl, g->tr, battr);
    box_rule(by + bh - 1, bx, bw, g->bl, g->br, battr);
    for (int r = 1; r < bh - 1; r++) {
        glyph(by + r, bx, battr, g->vbar);
        glyph(by + r, bx + bw - 1, battr, g->vbar);
    }
    /* the top border: the module and its channels */
    char buf[256];
    int x = bx + 2, room = bw - 4;
    snprintf(buf, sizeof buf, " m%d ", (int)m);
    int u = piece(by, x, room, theme_attr(R_HEAD), buf);
    x += u; room -= u;
    snprintf(buf, sizeof buf, "out %d/%d%s ", (int)out, (int)C, out > C ? "!" : "");
    u = piece(by, x, room, theme_attr(out > C ? R_CONFLICT : out ? R_CIRCUIT : R_DIM), buf);
    x += u; room -= u;
    snprintf(buf, sizeof buf, "in %d/%d%s ", (int)in, (int)C, in > C ? "!" : "");
    piece(by, x, room, theme_attr(in > C ? R_CONFLICT : in ? R_CIRCUIT : R_DIM), buf);
    /* the bottom border: where the channels' transfers go and come from */
    char to[96], fr[96];
    peers(net, sh, m, 1, to, sizeof to);
    peers(net, sh, m, -1, fr, sizeof fr);
    if (to[0] || fr[0]) {
        snprintf(buf, sizeof buf, " %s%s%s ", to, to[0] && fr[0] ? " " : "", fr);
        piece(by + bh - 1, bx + 2, bw - 4, battr, buf);
    }
    /* the processors */
    for (int32_t k = 0; k < B; k++) {
        int cy = by + 1 + k / l->q, cx = bx + 2 + (k % l->q) * l->cw;
        if (cy >= src->map_y + src->map_h) continue;
        fulltree_cell(ft, src, cy, cx, l->cw - 1, m * B + k, sh);
    }
}

void hxview_draw(FtView *ft, const FtSrc *src)
{
    const Net *net = src->net;
    int32_t A = net_hxbar_modules(net), B = net_hxbar_per(net);
    int x0 = src->map_x, y0 = src->map_y, w = src->map_w, h = src->map_h;
    fulltree_hits_clear(ft);
    for (int y = y0; y < y0 + h; y++)
        fulltree_text(y, x0, w, theme_attr(R_NORMAL), "");
    FtShown sh;   /* the step's transfers, or the moment's in flight */
    fulltree_shown(src, &sh);
    int32_t *out = malloc((size_t)A * sizeof *out), *in = malloc((size_t)A * sizeof *in);
    if (!out || !in || w < HX_MIN_W || h < 3) {
        free(out); free(in);
        fulltree_shown_free(&sh);
        fulltree_text(y0, x0, w, theme_attr(R_BAD), "no room for the modules");
        return;
    }
    hxview_channels(net, sh.src, sh.dst, sh.nx, out, in);
    int idw = fulltree_digits(net_size(net) - 1);
    HxLay l = { .cw = idw + 1 + fulltree_digits((long)fulltree_count_max(src)) + 2 + idw + 1 };
    /* (mark id:count<from, blank) */
    hx_boxes(&l, A, B, w, h);
    l.top = hx_top(&l, src, sh.recvs, B);
    for (int br = l.top; br < l.brows && br < l.top + l.fit; br++)
        for (int bc = 0; bc < l.nc; bc++) {
            int32_t m = br * l.nc + bc;
            if (m >= A) break;
            hx_box(ft, src, &l, &sh, m, out[m], in[m], y0 + (br - l.top) * l.bh,
                   x0 + bc * (l.bw + 1));
        }
    if (l.fit < l.brows) {
        char buf[96];
        int32_t m0 = l.top * l.nc, m1 = (l.top + l.fit) * l.nc - 1;
        if (m1 > A - 1) m1 = A - 1;
        snprintf(buf, sizeof buf, "modules m%d-m%d of %d", (int)m0, (int)m1, (int)A);
        int bl = (int)strlen(buf);
        fulltree_text(y0 + h - 1, x0 + (w > bl ? w - bl : 0), bl, theme_attr(R_DIM), buf);
    }
    fulltree_shown_free(&sh);
    free(out);
    free(in);
}
