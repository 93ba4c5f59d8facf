/* layout.h — where everything goes on a screen of w x h cells, without curses.
 *
 * The screen: a title line at the top, a status/command line at the bottom, the map on the
 * left, the panel column on the right.  The map places every node on a *grid*:
 *   2-D mesh/torus  node (r,c) at grid (r,c);
 *   1-D array/ring  folded into rows of `per_row` nodes (node i at (i/per_row, i%per_row));
 *   hxbar:AxB       the same with one module a row when B nodes fit (per_row = B; hxview.h
 *                   draws the modules as boxes up to HX_MAX_NODES, on this grid for keys), the
 *                   row labelled with its module ("m3") instead of its first id;
 *   3-D             slices side by side: node (z,r,c) at grid (r, z*(cols+1)+c).
 * Axis labels: row numbers on the left (1-D: the first node id of the row), column numbers
 * on top (1-D: the offset within the row) at the roomier zooms.
 * A grid cell is `cw` characters wide and `ch` lines high (1; 3 in projector mode: the node's
 * line between two border lines), followed by `hg` characters of
 * horizontal link and `vg` lines of vertical link; links that do not join neighbouring grid
 * cells (torus/ring wrap-around, 1-D row breaks) are drawn as stubs in a margin at both ends.
 * Only the window [vis_r0, vis_r0+vis_rows) x [vis_c0, vis_c0+vis_cols) of the grid is drawn.
 */
#ifndef MESHCAST_TUI_LAYOUT_H
#define MESHCAST_TUI_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine/net.h"

/* Zoom levels: Z0 cells of 8 with a packet glyph each, Z1/Z2 cells of 4, Z3 one character a
 * node with one-character links, Z4 one character a node and no links. */
enum { LAYOUT_Z0, LAYOUT_Z1, LAYOUT_Z2, LAYOUT_Z3, LAYOUT_Z4, LAYOUT_NZOOM };

/* The smallest screen meshcast draws on. */
#define LAYOUT_MIN_W 60
#define LAYOUT_MIN_H 16

typedef struct {
    int w, h;
    bool too_small;
    /* regions (x, y, width, height) */
    int map_x, map_y, map_w, map_h;
    int side_x, side_y, side_w, side_h;
    int status_y;
    int narr_y;            /* the narration line under the map (the map's width) */
    /* grid */
    int zoom;
    int grid_rows, grid_cols;
    int per_row;           /* 1-D: nodes per grid row */
    int slice_cols;        /* 3-D: columns of one slice (0 otherwise) */
    int cw, hg, vg, px, py;
    int ch;                /* cell height: 1, or 3 in projector mode (a border above and below) */
    bool big;              /* projector mode: tall cells, links stretched to fill the map */
    int label_w, label_h;  /* axis labels (left, top) inside the map */
    int mx, my;            /* wrap-stub margins */
    int ox, oy;            /* screen position of grid cell (vis_r0, vis_c0) */
    int vis_r0, vis_c0, vis_rows, vis_cols;
} Layout;

/* Cell width and gaps of a zoom level. */
void layout_zoom_metrics(int zoom, int *cw, int *hg, int *vg);

/* Compute the layout.  `zoom` < 0 picks the roomiest zoom at which the whole net fits (Z3 if
 * none does).  view_r0/view_c0 is the wanted scroll position; it is clamped and, when
 * `follow` >= 0, moved so that node `follow` is visible. */
void layout_compute(Layout *L, const Net *net, int w, int h, int zoom, bool side_panel,
                    int view_r0, int view_c0, int32_t follow);

/* The same in projector mode when `big`: cells 3 lines high at the roomy zooms, and the
 * cells and links grown so that the whole net fills the map (8x8 at 200x60 uses the rows). */
void layout_compute_big(Layout *L, const Net *net, int w, int h, int zoom, bool side_panel,
                        int view_r0, int view_c0, int32_t follow, bool big);

/* Node <-> grid. */
void layout_node_grid(const Layout *L, const Net *net, int32_t node, int *gr, int *gc);
int32_t layout_grid_node(const Layout *L, const Net *net, int gr, int gc);  /* -1: none */
/* Screen position of a visible grid cell; false if not visible. */
bool layout_cell_xy(const Layout *L, int gr, int gc, int *x, int *y);

/* What is at a screen cell of the map: a node (returns 1, *node), a link (returns 2, *link is
 * the directed link leaving the node above/left in the + direction), or nothing (0). */
int layout_hit(const Layout *L, const Net *net, int x, int y, int32_t *node, int64_t *link);

#endif
