/* rendezvous.h — run per-PU programs of point-to-point operations under synchronous
 * (rendezvous) communication and simplex ports, and record the steps they take as a schedule.
 *
 * Each PU runs a program: a sequence of "send packet p to v" and "receive packet p from u".
 * In every step a transfer u -> v happens iff u's current operation is that send and v's
 * current operation is the matching receive; both then go on to their next operation, every
 * other PU waits.  So a PU sends or receives at most once a step (simplex), and nobody waits
 * longer than its partner makes it.  A step in which somebody still has operations left but
 * no pair matches is a deadlock: the run fails, naming a waiting PU and its operation.
 *
 * Programs are given as a function, not stored: the executor keeps one int64 cursor per PU
 * (0 at the start; its meaning belongs to the program) and asks for the next operation.  A
 * send to nobody is no operation at all: the program leaves it out.
 *
 * Ownership: rdv_run only borrows its arguments; the steps go into the caller's Sched. */
#ifndef MESHCAST_SANDERS_RENDEZVOUS_H
#define MESHCAST_SANDERS_RENDEZVOUS_H

#include <stdbool.h>
#include <stdint.h>

#include "../../engine/sched.h"

typedef struct {
    bool send;       /* send packet pk to peer, or receive it from peer */
    int32_t peer;    /* a PU, 0..n-1 */
    uint32_t pk;
} RdvOp;

/* The operation at *cursor of pu's program, into *op, and *cursor moved past it; false when
 * the program has no operation left. */
typedef bool (*RdvNextFn)(const void *ctx, int32_t pu, int64_t *cursor, RdvOp *op);

typedef struct {
    int32_t n;               /* PUs */
    const int32_t *node;     /* node[pu]: the net node that plays it */
    RdvNextFn next;
    const void *ctx;
    const char *label;       /* each step's label: "<label>: step i" */
    int64_t max_steps;       /* fail beyond this many steps */
} RdvRun;

/* Runs the programs, one schedule step per step (from the Sched's current end).  Returns the
 * number of steps, or -1 with the reason recorded in the Sched (sched_fail): a deadlock, a
 * program that sends to or receives from itself or a PU out of range, too many steps, out of
 * memory. */
int64_t rdv_run(Sched *s, const RdvRun *run);

#endif
