/* portmarks.h — the nodes the map marks with a port conflict under the circuit model: those
 * with a port that carries more than one circuit in the step (all-port rule, circuit.h: two
 * circuits that start at the node and leave through one out-port, or end at it and enter
 * through one in-port), exactly the ports the engine counts (circuit_port_overloads).  A
 * circuit that only passes through a node is no conflict of that node's, even on a shared arc
 * (that is the arc's contention, drawn on the link).
 *
 * The set is computed once per step shown (time and memory proportional to the step's
 * transfers) and kept for the last two (side by side: one per half), keyed by the schedule and
 * its broadcast's generation (app.h's Bcast.gen), so a frame asks in O(log) per node.
 *
 * Ownership: portmarks_new's result is freed with portmarks_free; it keeps no pointer into the
 * schedule beyond the key.
 */
#ifndef MESHCAST_TUI_PORTMARKS_H
#define MESHCAST_TUI_PORTMARKS_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine/sched.h"

typedef struct PortMarks PortMarks;

PortMarks *portmarks_new(void);
void portmarks_free(PortMarks *p);

/* Does node n have an overloaded port in step st of s (gen: its broadcast's generation)?
 * false when memory runs out (nothing marked). */
bool portmarks_node(PortMarks *p, const Sched *s, long gen, int32_t st, int32_t n);

#endif
