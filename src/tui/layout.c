/* layout.c — screen regions and the map's grid (see layout.h).  No curses here. */
#include "layout.h"

#include <string.h>

/* Zoom levels: cell width, horizontal link width, vertical link height. */
static const int zoom_cw[LAYOUT_NZOOM] = {8, 4, 4, 1, 1};
static const int zoom_hg[LAYOUT_NZOOM] = {3, 3, 2, 1, 0};
static const int zoom_vg[LAYOUT_NZOOM] = {1, 1, 1, 1, 0};

void layout_zoom_metrics(int zoom, int *cw, int *hg, int *vg)
{
    if (zoom < 0) zoom = 0;
    if (zoom >= LAYOUT_NZOOM) zoom = LAYOUT_NZOOM - 1;
    *cw = zoom_cw[zoom];
    *hg = zoom_hg[zoom];
    *vg = zoom_vg[zoom];
}

static int digits(long v)
{
    int d = 1;
    while (v >= 10) { v /= 10; d++; }
    return d;
}

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

/* Fill the grid part of L for one zoom level; returns true if the whole net fits. */
static bool grid_for_zoom(Layout *L, const Net *net, int zoom)
{
    int nd = net_ndim(net);
    L->zoom = zoom;
    layout_zoom_metrics(zoom, &L->cw, &L->hg, &L->vg);
    L->ch = L->big && L->cw >= 4 ? 3 : 1;
    L->px = L->cw + L->hg;
    L->py = L->ch + L->vg;
    L->slice_cols = 0;
    L->per_row = 0;
    L->mx = L->my = 0;
    L->label_w = L->label_h = 0;
    if (nd == 1) {
        int32_t n = net_size(net);
        L->label_w = zoom <= LAYOUT_Z3 ? digits(n - 1) + 1 : 0;
        L->label_h = zoom <= LAYOUT_Z2 ? 1 : 0;   /* offsets within the row */
        int avail = L->map_w - L->label_w;
        /* with stubs on both sides: width = per_row*px + hg */
        int per = (avail - L->hg) / L->px;
        if (per < 1) per = 1;
        if (per > n) per = n;
        int32_t B = net_hxbar_per(net);   /* hxbar: a module a row (a box), when it fits */
        if (B > 0 && B <= per) {
            per = B;
            int mw = digits(net_hxbar_modules(net) - 1) + 2;   /* the rows say "m7" */
            if (L->label_w && L->label_w < mw)
                L->label_w = mw;
        }
        L->per_row = per;
        L->grid_cols = per;
        L->grid_rows = (int)((n + per - 1) / per);
        if (net_wraps(net) || L->grid_rows > 1)
            L->mx = L->hg;
    } else {
        int32_t rows = net_dim(net, nd - 2), cols = net_dim(net, nd - 1);
        L->grid_rows = (int)rows;
        if (nd == 3) {
            L->slice_cols = (int)cols;
            L->grid_cols = (int)(net_dim(net, 0) * (cols + 1) - 1);
        } else {
            L->grid_cols = (int)cols;
        }
        /* row and column numbers at every zoom (every 10th column at the narrow ones) */
        L->label_w = digits(rows - 1) + 1;
        L->label_h = 1;
        if (nd == 3 && zoom <= LAYOUT_Z3)
            L->label_h = 1;   /* "z=k" over every slice */
        if (net_wraps(net)) {
            L->mx = L->hg;
            L->my = L->vg;
        }
    }
    int need_w = L->grid_cols * L->px - L->hg + 2 * L->mx + L->label_w;
    int need_h = L->grid_rows * L->py - L->vg + 2 * L->my + L->label_h;
    return need_w <= L->map_w && need_h <= L->map_h;
}

/* Projector mode: grow the cells (up to 14 wide) and the links (up to 8 wide, 3 high) so
 * that the net fills the map.  Only when the whole net fits already. */
static void stretch(Layout *L, const Net *net)
{
    if (L->cw < 4 || L->grid_cols < 1 || L->grid_rows < 1) return;
    int wraps = net_wraps(net) ? 2 : 0;
    for (;;) {
        int need_w = L->grid_cols * (L->cw + L->hg) - L->hg + 2 * L->mx + L->label_w;
        int grow_c = L->cw < 14 ? L->grid_cols : 0;
        int grow_h = L->hg < 8 && L->grid_cols + wraps > 1 ? L->grid_cols - 1 + wraps : 0;
        if (grow_c && need_w + grow_c <= L->map_w) {
            L->cw++;
        } else if (grow_h && need_w + grow_h <= L->map_w) {
            L->hg++;
            if (wraps) L->mx = L->hg;
        } else {
            break;
        }
    }
    for (;;) {
        int need_h = L->grid_rows * (L->ch + L->vg) - L->vg + 2 * L->my + L->label_h;
        int grow = L->grid_rows - 1 + wraps;
        if (L->vg >= 3 || grow <= 0 || need_h + grow > L->map_h || net_ndim(net) < 2) break;
        L->vg++;
        if (wraps) L->my = L->vg;
    }
    L->px = L->cw + L->hg;
    L->py = L->ch + L->vg;
}

void layout_compute(Layout *L, const Net *net, int w, int h, int zoom, bool side_panel,
                    int view_r0, int view_c0, int32_t follow)
{
    layout_compute_big(L, net, w, h, zoom, side_panel, view_r0, view_c0, follow, false);
}

void layout_compute_big(Layout *L, const Net *net, int w, int h, int zoom, bool side_panel,
                        int view_r0, int view_c0, int32_t follow, bool big)
{
    memset(L, 0, sizeof *L);
    L->big = big;
    L->w = w;
    L->h = h;
    L->too_small = w < LAYOUT_MIN_W || h < LAYOUT_MIN_H;
    L->status_y = h - 1;
    L->side_w = 0;
    if (side_panel)
        L->side_w = w >= 150 ? 58 : w >= 110 ? 48 : w >= 90 ? 38 : 31;
    L->side_x = w - L->side_w;
    L->side_y = 1;
    L->side_h = h - 3;
    L->map_x = 0;
    L->map_y = 1;
    L->map_w = w - L->side_w - (L->side_w ? 1 : 0);
    L->map_h = h - 3;      /* the narration line under it */
    L->narr_y = h - 2;
    if (L->map_w < 1) L->map_w = 1;
    if (L->map_h < 1) L->map_h = 1;
    if (!net)
        return;

    if (zoom < 0) {
        int z;
        for (z = LAYOUT_Z0; z < LAYOUT_NZOOM; z++)
            if (grid_for_zoom(L, net, z))
                break;
        if (z == LAYOUT_NZOOM)
            grid_for_zoom(L, net, LAYOUT_Z4);
    } else {
        grid_for_zoom(L, net, zoom);
    }
    if (big) {
        int need_w = L->grid_cols * L->px - L->hg + 2 * L->mx + L->label_w;
        int need_h = L->grid_rows * L->py - L->vg + 2 * L->my + L->label_h;
        if (need_w <= L->map_w && need_h <= L->map_h) stretch(L, net);
    }

    int avail_w = L->map_w - L->label_w - 2 * L->mx;
    int avail_h = L->map_h - L->label_h - 2 * L->my;
    L->vis_cols = clampi((avail_w + L->hg) / L->px, 1, L->grid_cols);
    L->vis_rows = clampi((avail_h + L->vg) / L->py, 1, L->grid_rows);

    int r0 = view_r0, c0 = view_c0;
    if (follow >= 0 && follow < net_size(net)) {
        int gr, gc;
        layout_node_grid(L, net, follow, &gr, &gc);
        if (gr < r0) r0 = gr;
        if (gr >= r0 + L->vis_rows) r0 = gr - L->vis_rows + 1;
        if (gc < c0) c0 = gc;
        if (gc >= c0 + L->vis_cols) c0 = gc - L->vis_cols + 1;
    }
    L->vis_r0 = clampi(r0, 0, L->grid_rows - L->vis_rows);
    L->vis_c0 = clampi(c0, 0, L->grid_cols - L->vis_cols);

    /* centre what is drawn inside the map area */
    int used_w = L->vis_cols * L->px - L->hg + 2 * L->mx + L->label_w;
    int used_h = L->vis_rows * L->py - L->vg + 2 * L->my + L->label_h;
    int padx = (L->map_w - used_w) / 2, pady = (L->map_h - used_h) / 2;
    if (padx < 0) padx = 0;
    if (pady < 0) pady = 0;
    if (pady > 2) pady = 2 + (pady - 2) / 3;   /* keep the map near the top */
    L->ox = L->map_x + padx + L->label_w + L->mx;
    L->oy = L->map_y + pady + L->label_h + L->my;
}

void layout_node_grid(const Layout *L, const Net *net, int32_t node, int *gr, int *gc)
{
    int nd = net_ndim(net);
    if (nd == 1) {
        int per = L->per_row > 0 ? L->per_row : 1;
        *gr = (int)(node / per);
        *gc = (int)(node % per);
        return;
    }
    int32_t c[NET_MAXDIM];
    net_coords(net, node, c);
    if (nd == 2) {
        *gr = (int)c[0];
        *gc = (int)c[1];
    } else {
        *gr = (int)c[1];
        *gc = (int)(c[0] * (L->slice_cols + 1) + c[2]);
    }
}

int32_t layout_grid_node(const Layout *L, const Net *net, int gr, int gc)
{
    if (gr < 0 || gc < 0 || gr >= L->grid_rows || gc >= L->grid_cols)
        return -1;
    int nd = net_ndim(net);
    if (nd == 1) {
        int64_t id = (int64_t)gr * L->per_row + gc;
        return id < net_size(net) ? (int32_t)id : -1;
    }
    int32_t c[NET_MAXDIM];
    if (nd == 2) {
        c[0] = gr;
        c[1] = gc;
    } else {
        int sc = L->slice_cols + 1;
        if (gc % sc == L->slice_cols)
            return -1;   /* the gap between slices */
        c[0] = gc / sc;
        c[1] = gr;
        c[2] = gc % sc;
    }
    return net_id(net, c);
}

bool layout_cell_xy(const Layout *L, int gr, int gc, int *x, int *y)
{
    if (gr < L->vis_r0 || gc < L->vis_c0 || gr >= L->vis_r0 + L->vis_rows ||
        gc >= L->vis_c0 + L->vis_cols)
        return false;
    *x = L->ox + (gc - L->vis_c0) * L->px;
    *y = L->oy + (gr - L->vis_r0) * L->py;
    return true;
}

static int floordiv(int a, int b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

int layout_hit(const Layout *L, const Net *net, int x, int y, int32_t *node, int64_t *link)
{
    if (!net || L->too_small || x < L->map_x || x >= L->map_x + L->map_w || y < L->map_y ||
        y >= L->map_y + L->map_h)
        return 0;
    int nd = net_ndim(net);
    int hdim = nd - 1, vdim = nd >= 2 ? nd - 2 : -1;
    int rx = x - L->ox, ry = y - L->oy;
    int gc = L->vis_c0 + floordiv(rx, L->px), inx = rx - floordiv(rx, L->px) * L->px;
    int gr = L->vis_r0 + floordiv(ry, L->py), iny = ry - floordiv(ry, L->py) * L->py;
    if (gr < L->vis_r0 - 1 || gr >= L->vis_r0 + L->vis_rows || gc < L->vis_c0 - 1 ||
        gc >= L->vis_c0 + L->vis_cols)
        return 0;
    if (iny < L->ch) {
        if (inx < L->cw) {
            int32_t n = layout_grid_node(L, net, gr, gc);
            if (n < 0) return 0;
            *node = n;
            return 1;
        }
        if (iny != L->ch / 2) return 0;
        /* a horizontal link right of (gr,gc), or a stub left of (gr,gc+1) */
        int32_t n = layout_grid_node(L, net, gr, gc);
        if (n < 0) {
            int32_t m = layout_grid_node(L, net, gr, gc + 1);
            if (m < 0) return 0;
            n = net_neighbor(net, m, hdim, -1);
            if (nd == 1 && m > 0) n = m - 1;
            if (n < 0) return 0;
        }
        if (net_neighbor(net, n, hdim, 1) < 0) return 0;
        *link = net_link(net, n, hdim, 1);
        return 2;
    }
    if (vdim < 0) return 0;
    int32_t n = layout_grid_node(L, net, gr, gc);
    if (n < 0) {
        int32_t m = layout_grid_node(L, net, gr + 1, gc);
        if (m < 0) return 0;
        n = net_neighbor(net, m, vdim, -1);
        if (n < 0) return 0;
    }
    if (net_neighbor(net, n, vdim, 1) < 0) return 0;
    *link = net_link(net, n, vdim, 1);
    return 2;
}
