/* circuit.h — the rules of Peters & Syska's all-port circuit-switched model beyond arc loads.
 *
 * All-port rule: in one phase (step) a node sends on at most one circuit per outgoing port and
 * receives on at most one circuit per incoming port.  A circuit leaves its source through the
 * port of its route's first arc and enters its destination through the port of its last arc,
 * so a port used twice is always also an arc used twice (the simulator counts arcs first and
 * looks for port overloads only in a step that has a shared arc).
 *
 * Whole-schedule arc-disjointness (Section 5: a broadcast tree is arc-disjoint when no arc is
 * used by two of its circuits, in any phases; only such a tree can be pipelined):
 * circuit_tree_shared finds an arc two transfers of a schedule share.
 *
 * Ports are named by the arc: out-port `link` is the arc leaving the node; in-port `link` is
 * the arc entering it.  circuit_port_name gives "right", "left", "down", "up" (2-D: dimension 0
 * is rows, growing down; 1-D: right/left; 3-D: dimension 0 is "back"/"front").
 *
 * Ownership: circuit_port_overloads returns an array the caller frees with free().
 */
#ifndef MESHCAST_CIRCUIT_H
#define MESHCAST_CIRCUIT_H

#include <stdbool.h>
#include <stdint.h>

#include "cost.h"
#include "sched.h"

typedef struct {
    int32_t node;     /* the node whose port is overloaded */
    int64_t link;     /* the port's arc: leaving node (out) or entering it (in) */
    int32_t count;    /* circuits through the port in the step */
    bool in;          /* an incoming port */
} CircuitPort;

/* The ports of step st that carry more than one circuit, sorted by (node, out before in,
 * link).  Returns how many (0 with *out = NULL when none), or -1 when memory runs out. */
int64_t circuit_port_overloads(const Sched *s, int32_t st, CircuitPort **out);

/* The first arc (in the order of the schedule) that a transfer uses after an earlier transfer
 * of the schedule used it: true with the arc and the two steps (first use, second use); false
 * when the whole schedule is arc-disjoint.  Memory: one bit per arc of the net; false and
 * *oom true when it cannot be allocated. */
bool circuit_tree_shared(const Sched *s, int64_t *arc, int32_t *first_step, int32_t *second_step,
                         bool *oom);

/* "right", "left", "down", "up", ... for the port whose arc leaves along (dim, dir) (an
 * out-port), or the in-port entered by an arc travelling along (dim, dir) ("left" for an arc
 * going right). */
const char *circuit_port_name(int ndim, int dim, int dir, bool in);

/* How the summary and the Step panel name contention under a model: Seidel's links and
 * one-port conflicts, or the circuit model's arcs and all-port conflicts. */
typedef struct {
    const char *link;        /* "link" / "arc" */
    const char *overloaded;  /* "overloaded links" / "shared arcs" */
    const char *ports;       /* "port conflicts" / "all-port conflicts" */
} CircuitWords;
const CircuitWords *circuit_words(CostModel m);

#endif
