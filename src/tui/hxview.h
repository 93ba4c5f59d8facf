/* hxview.h — a hierarchical crossbar hxbar:AxB drawn as its modules (Sanders & Sibeyn,
 * Section 4).
 *
 * Every module is a box holding its B processors as cells "id:count" (fulltree_cell: the
 * packets the node holds at the step shown, or at the moment shown on the asynchronous time
 * line; '*' when it receives, then "id:count<sender", '>' when it only sends, '!' when a port
 * is used twice).  The box's top border names the module and its channels: "m3 out 2/2 in
 * 1/2", the transfers leaving and entering the module over its C channels in the step shown
 * (on the time line: in flight at the moment), an overloaded channel (more than C) marked '!'
 * and highlighted; the bottom border lists the transfers crossing the channels by module,
 * "->m5 <-m0" (the modules it sends to and receives from).  Boxes stand side by side as the
 * map's width allows; when they do not all fit, the rows of boxes holding the receivers (or
 * the cursor) are shown, and the last line says which modules.  Nets of at most HX_MAX_NODES
 * processors on a map at least HX_MIN_W wide (else the plain rows are drawn).  Clicks go
 * through fulltree's click map.
 *
 * A narrow interface: the view reads only fulltree.h's FtSrc (the broadcast shown, the moment,
 * the map area, the cursor) and records its cells in an FtView's click map, never the App.
 *
 * hxview_channels (no curses) counts the channels of a set of transfers.
 */
#ifndef MESHCAST_TUI_HXVIEW_H
#define MESHCAST_TUI_HXVIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine/net.h"
#include "fulltree.h"

#define HX_MAX_NODES 4096
#define HX_MIN_W 24   /* the narrowest box (and map) drawn: a narrower map gets the rows */

/* Of the transfers src[i] -> dst[i] (i < nx), those leaving (out[m]) and entering (in[m])
 * each module m over its channels (between different modules only); out and in have
 * net_hxbar_modules entries. */
void hxview_channels(const Net *net, const int32_t *src, const int32_t *dst, int64_t nx,
                     int32_t *out, int32_t *in);

/* Is the map drawn as modules (hxbar, at most HX_MAX_NODES, a map at least HX_MIN_W wide)? */
bool hxview_active(const FtSrc *src);
/* Draw the map area of src as the modules; their cells go to ft's click map. */
void hxview_draw(FtView *ft, const FtSrc *src);

#endif
