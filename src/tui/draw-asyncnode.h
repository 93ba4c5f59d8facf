/* draw-asyncnode.h — the Node panel on the asynchronous time line: what the cursor node holds
 * at the moment shown, and every transfer it sends or receives with its start and end times,
 * so that its waits can be read off.  Transfers in flight at the moment are highlighted,
 * those still to come dimmed; the list follows the moment.
 *
 * A narrow interface: the panel reads only what it is given (an AsyncNodeSrc), never the App.
 * It keeps nothing.
 */
#ifndef MESHCAST_TUI_DRAW_ASYNCNODE_H
#define MESHCAST_TUI_DRAW_ASYNCNODE_H

#include <stdint.h>

#include "../engine/asyncview.h"
#include "../engine/sim-async.h"
#include "bcast.h"
#include "draw-text.h"

/* What the panel is drawn from: the broadcast shown, the node, its transfers as indices of
 * sim_async_event of the run `as` by start time (nev of them; < 0: memory ran out listing
 * them), and the time line's view at its moment. */
typedef struct {
    const Bcast *b;
    int32_t node;
    const int64_t *ev;
    int64_t nev;
    const SimAsync *as;
    AsyncView *v;
} AsyncNodeSrc;

void draw_node_async(const AsyncNodeSrc *src, Box *b);

#endif
