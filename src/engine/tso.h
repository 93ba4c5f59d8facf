/* tso.h — the time-step optimality and contention verdicts of a simulated broadcast (Cang &
 * Wu, Section 1: "after each step the number of nodes having received the message
 * must be doubled").
 *
 * A broadcast from I0 informed nodes on N nodes is *time-step optimal* when it is verified
 * and, for every step t, the informed nodes after it number min(2^t * I0, N) (they double
 * every step), so it ends in the least possible number of steps ceil(log2(N / I0)) — with one
 * send per node per step nothing can do better.  "Informed" is SimStep.informed: nodes that
 * hold at least one chunk.  A step that informs fewer nodes (or a trailing step that informs
 * none) makes the schedule not time-step optimal.
 *
 * *Contention-free* means no directed link carries two circuits in any step (the simulator's
 * max link load <= 1) on the routes the schedule uses (the default routes are dimension
 * ordered: XY on a 2-D mesh).
 *
 * Every view (run, run --json, check, the TUI, Lua) asks this one function.  Nothing to free.
 */
#ifndef MESHCAST_TSO_H
#define MESHCAST_TSO_H

#include <stdbool.h>
#include <stdint.h>

#include "sim.h"

typedef struct {
    bool optimal;          /* verified, doubling every step, in min_steps steps */
    int32_t min_steps;     /* ceil(log2(N / I0)): the least steps any broadcast needs */
    int32_t first_short;   /* the first step (0-based) that informs fewer than double, or -1;
                            * nsteps when the steps run out before every node is informed */
    bool contention_free;  /* max link load <= 1 in every step */
} TsoVerdict;

void tso_check(const Sim *sim, TsoVerdict *out);
/* "yes (6 steps = log2 64, informed nodes double every step)" or "NO: step 3 informs 5 nodes,
 * not 8" — one line into buf; returns buf. */
char *tso_text(const Sim *sim, const TsoVerdict *v, char *buf, size_t len);

#endif
