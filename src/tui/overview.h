/* overview.h — big nets at a glance: one character stands for a block of B x B/2 nodes (B
 * rows, B/2 columns: a character is about twice as tall as wide; B consecutive nodes per
 * character on a folded array or ring).
 *
 * For the step shown, each block tells the share of its nodes receiving, the peak load of the
 * links leaving its nodes, and how much its nodes hold; the character is
 *   a digit d      a link in the block is overloaded: its load k over the link's capacity C
 *                  (2^nu under seidel, 1 under every other model, as the engine counts
 *                  link_overloads), graded by the contention factor ceil(k/C) in
 *                  2^d .. 2^(d+1)-1 (under nu = 0: peak load 2^d .. 2^(d+1)-1) (red)
 *   . : + #        receivers: under 1/4, 1/2, 3/4 of the block, or more (receiving colour)
 *   the holding glyph of the block's majority (full / partial / empty) otherwise, in the
 *   circuit colour when a circuit leaves the block.
 * Row and column numbers (the first node of the block) are drawn along the edges; the cursor's
 * block is reversed and described on the status line, so the 256-load hot spot of rh on
 * mesh:1024x1024 at step 22 is a digit 8 that the cursor can be moved onto (:hot jumps there).
 *
 * A narrow interface: the view reads only the broadcast and the screen place it is given (an
 * OvSrc), never the App.  The aggregates are computed once per (broadcast, step, block size)
 * and kept in the Overview.  Ownership: overview_new allocates, overview_free frees (the App
 * owns one).
 */
#ifndef MESHCAST_TUI_OVERVIEW_H
#define MESHCAST_TUI_OVERVIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine/net.h"
#include "../engine/sched.h"
#include "../engine/sim.h"

typedef struct Overview Overview;

/* What the overview is drawn from: the broadcast shown (net NULL: none), its generation (another
 * one drops what was computed), the position and the step shown (-1: none), the block size
 * (rows of nodes a character; <= 0: off), the map area (curses cells) and the cursor's node. */
typedef struct {
    const Net *net;
    const Sched *sched;
    Sim *sim;
    long gen;
    int32_t pos, step;
    int block;
    int map_x, map_y, map_w, map_h;
    int32_t cursor;
} OvSrc;

typedef struct {
    int32_t nodes, receiving, full, held;   /* held: nodes holding something */
    int32_t peak;                           /* the largest load on a link leaving the block */
    int32_t over;                           /* links leaving the block over their capacity */
} OvBlock;

/* The circuits a link of the broadcast shown carries at once without overload: 2^nu under
 * seidel, 1 under every other model (docs/model.md, "Link loads"). */
int overview_capacity(const OvSrc *src);
/* The grade of a block whose busiest link carries peak circuits, capacity cap: 0 when not
 * overloaded (peak <= cap), else the digit d >= 1 with ceil(peak/cap) in 2^d .. 2^(d+1)-1
 * (at most 9). */
int overview_grade(int32_t peak, int cap);

/* The columns of nodes a character stands for at block size B: B/2 rounded up on a 2-D net
 * (a character is about twice as tall as wide: the net keeps its shape and fills the width),
 * B on a folded array. */
int overview_bcols(const Net *net, int B);
/* The block size (rows of nodes a character) at which the whole net fits w x h characters. */
int overview_fit(const Net *net, int w, int h);
/* Whether the overview can draw this net (1-D and 2-D). */
bool overview_supported(const Net *net);
Overview *overview_new(void);   /* NULL when out of memory */
void overview_free(Overview *ov);
/* The block the node is in, for the position shown; false if unavailable. */
bool overview_block(Overview *ov, const OvSrc *src, int32_t node, OvBlock *out, int *br, int *bc);
/* Draw the overview into the map area of src (curses). */
void overview_draw(Overview *ov, const OvSrc *src);
/* The node at the end of the most loaded link of the step shown (-1 if none). */
int32_t overview_hot(const OvSrc *src);

#endif
