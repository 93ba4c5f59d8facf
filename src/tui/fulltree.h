/* fulltree.h — a full:P net drawn as the tree its broadcast builds.
 *
 * full:P has no links to draw, so its map shows the schedule's own tree: every node's parent
 * is the sender of the first chunk it receives, and the nodes stand in rows by the step of
 * that first receive (the paper's level x of a fractional tree is that step - 1), the source
 * on top, each row ordered by its parents' places so that children come below their parents.
 * A reduction (every node holds every chunk from the start) is drawn as its tree the other
 * way: a node's parent is the receiver of its first send, the rows are the steps of those
 * first sends, the root (which never sends) last, labelled "root".
 * A cell is "id:count" (the packets the node holds at the step shown), marked '*' when it
 * receives in the step shown (then "id:count<sender"), '>' when it only sends, '!' when a port
 * is used twice; rows
 * wider than the map wrap; a tree taller than the map shows the lines of the step's receivers.  Computed once per broadcast (FT_MAX_NODES nodes at most, else the
 * plain grid is drawn), and what is drawn where is kept for mouse clicks.
 *
 * A narrow interface: the view reads only what it is given (an FtSrc: the broadcast shown, the
 * moment of the asynchronous time line, the map area, the cursor), never the App.  Its own
 * state (the tree, computed once per broadcast and kept for the last two drawn: side by side,
 * vs.h, draws two a frame; and the click map) is an FtView.
 * Ownership: fulltree_new allocates an FtView, fulltree_free frees it (the App owns one).
 */
#ifndef MESHCAST_TUI_FULLTREE_H
#define MESHCAST_TUI_FULLTREE_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine/asyncview.h"
#include "../engine/net.h"
#include "../engine/partials.h"
#include "../engine/sched.h"
#include "../engine/sim.h"

#define FT_MAX_NODES 4096

/* The rows of a schedule's tree (no curses): order[] lists the nodes row by row, row k being
 * order[rstart[k] .. rstart[k+1]); rstep[k] is the 0-based step of the row's first receives
 * (-1: the nodes holding chunks before the first step, INT32_MAX: never informed). */
typedef struct {
    int32_t n, nrows;
    int32_t *order, *rstart, *rstep;
    int32_t *parent;   /* by node: the sender of its first chunk, -1 */
    bool reduce;       /* a reduction (every node given every chunk): rows by each node's
                        * first send, parent = its receiver, the root (never sends) last */
} FullTree;

/* The tree of s (NULL when memory runs out).  Free with fulltree_tree_free. */
FullTree *fulltree_tree(const Sched *s);
void fulltree_tree_free(FullTree *t);

typedef struct FtView FtView;

/* What the tree (and hxview.h's modules) is drawn from: the broadcast shown (net NULL: none),
 * its generation (a third one drops the older tree), the position and the step shown (-1: none),
 * a reduction's partials (NULL: a broadcast, cells count chunks held), the asynchronous time
 * line's view at its moment (NULL: lockstep steps), the map area (curses cells) and the
 * cursor's node. */
typedef struct {
    const Net *net;
    const Sched *sched;
    const Sim *sim;
    long gen;
    int32_t pos, step;
    const Partials *partials;
    const AsyncView *av;
    int map_x, map_y, map_w, map_h;
    int32_t cursor;
} FtSrc;

FtView *fulltree_new(void);   /* NULL when out of memory */
void fulltree_free(FtView *ft);

/* Is the map drawn as the tree (a full net of at most FT_MAX_NODES nodes)? */
bool fulltree_active(const FtSrc *src);
/* Draw the map area of src as the tree. */
void fulltree_draw(FtView *ft, const FtSrc *src);
/* The node drawn at screen cell (x, y) by the last fulltree_draw (or hxview_draw), or -1. */
int32_t fulltree_hit(const FtView *ft, int x, int y);
/* The click map shared with the other drawn-as-cells views (hxview.h): forget every cell,
 * and record that node is drawn at columns x0..x1-1 of line y. */
void fulltree_hits_clear(FtView *ft);
void fulltree_hit_add(FtView *ft, int y, int x0, int x1, int32_t node);
/* What the map shows moving: the transfers of the lockstep step shown or, on the asynchronous
 * time line (asynctl.h), those in flight at the moment; per node its sends, its receives and
 * its (first) sender, -1 none.  Arrays of net_size entries (NULL: nothing moves, before the
 * first step), the transfers as src[i] -> dst[i], i < nx.  Free with fulltree_shown_free. */
typedef struct {
    int32_t *sends, *recvs, *from;
    int32_t *src, *dst;
    int64_t nx;
} FtShown;
bool fulltree_shown(const FtSrc *src, FtShown *sh);   /* false: out of memory (*sh empty) */
void fulltree_shown_free(FtShown *sh);

/* A node's cell at (y, x), w columns: "id:count" (chunks held, or in a reduction the
 * contributions its partials combine), '*' receiving ("<from" after it), '>' only sending,
 * '!' a port used twice, as sh says; coloured by its role; recorded in ft for clicks. */
void fulltree_cell(FtView *ft, const FtSrc *src, int y, int x, int w, int32_t v,
                   const FtShown *sh);
/* The largest count a cell can show: the chunks, or in a reduction nodes x chunks. */
uint64_t fulltree_count_max(const FtSrc *src);
/* Text cut to w columns at (y, x); the decimal digits of v. */
void fulltree_text(int y, int x, int w, int attr, const char *s);
int fulltree_digits(long v);

#endif
