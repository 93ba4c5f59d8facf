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
 * Ownership: the tree and the click map live in the App (a->ft) and are freed by
 * fulltree_free.
 */
#ifndef MESHCAST_TUI_FULLTREE_H
#define MESHCAST_TUI_FULLTREE_H

#include <stdbool.h>
#include <stdint.h>

#include "app.h"

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

/* Is the map of a drawn as the tree (a full net of at most FT_MAX_NODES nodes)? */
bool fulltree_active(const App *a);
/* Draw the map region of a's layout as the tree. */
void fulltree_draw(App *a);
/* The node drawn at screen cell (x, y) by the last fulltree_draw, or -1. */
int32_t fulltree_hit(const App *a, int x, int y);
void fulltree_free(App *a);
/* The click map shared with the other drawn-as-cells views (hxview.h): forget every cell,
 * and record that node is drawn at columns x0..x1-1 of line y. */
void fulltree_hits_clear(App *a);
void fulltree_hit_add(App *a, int y, int x0, int x1, int32_t node);
/* What the map shows moving: the transfers of the lockstep step shown or, on the asynchronous
 * time line (asynctl.h), those in flight at the moment; per node its sends, its receives and
 * its (first) sender, -1 none.  Arrays of net_size entries (NULL: nothing moves, before the
 * first step), the transfers as src[i] -> dst[i], i < nx.  Free with fulltree_shown_free. */
typedef struct {
    int32_t *sends, *recvs, *from;
    int32_t *src, *dst;
    int64_t nx;
} FtShown;
bool fulltree_shown(App *a, FtShown *sh);   /* false: out of memory (*sh empty) */
void fulltree_shown_free(FtShown *sh);

/* A node's cell at (y, x), w columns: "id:count" (chunks held, or in a reduction the
 * contributions its partials combine), '*' receiving ("<from" after it), '>' only sending,
 * '!' a port used twice, as sh says; coloured by its role; recorded for clicks. */
void fulltree_cell(App *a, int y, int x, int w, int32_t v, const FtShown *sh);
/* The largest count a cell can show: the chunks, or in a reduction nodes x chunks. */
uint64_t fulltree_count_max(const App *a);
/* Text cut to w columns at (y, x); the decimal digits of v. */
void fulltree_text(int y, int x, int w, int attr, const char *s);
int fulltree_digits(long v);

#endif
