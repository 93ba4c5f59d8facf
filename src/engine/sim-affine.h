/* sim-affine.h — a step of affine blocks (sched-affine.h) replayed block by block on a
 * pair net (full:P): the sends checked and the receives handed out run after run of node
 * records, with no flat view, no per-transfer ranges and no port counts.
 *
 * It is taken only where it finds exactly what step_run would (sim-step.c): a run without
 * SIM_HISTORY or the asynchronous timing, on full:P (not hxbar), under postal or seidel, a
 * step of one sched_send_affine rule whose blocks' source runs share no node and whose
 * destination runs share no node (so no node sends twice or receives twice: no port conflict,
 * every pair link carries one transfer), and, under simplex postal, no node both sends and
 * receives.  Then the figures, violations (in transfer order), holdings and informed count are
 * those of the general replay; otherwise the step is left to it. */
#ifndef MESHCAST_SIM_AFFINE_H
#define MESHCAST_SIM_AFFINE_H

#include "sim-core.h"

/* Replay step st if it is such a step: 1 done (sim->cur and the step table filled, as
 * step_run would), 0 not such a step (nothing changed), -1 out of memory. */
int affine_step_run(Sim *sim, int32_t st);

/* Tests: false makes affine_step_run decline every step (the general replay then runs);
 * sim_affine_steps counts the steps it replayed (since the program started). */
extern bool sim_affine_on;
extern _Atomic int64_t sim_affine_steps;

#endif
