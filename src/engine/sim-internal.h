/* sim-internal.h — test hooks of the simulator (src/engine and tests/unit only). */
#ifndef MESHCAST_SIM_INTERNAL_H
#define MESHCAST_SIM_INTERNAL_H

/* How link loads are counted: SIM_PATH_AUTO chooses per step (walk the routes when their summed
 * length is small against the number of links, else difference arrays over whole lines);
 * the others force one way, so that tests can check that both give identical results. */
enum { SIM_PATH_AUTO, SIM_PATH_DIRECT, SIM_PATH_DIFF, SIM_PATH_DISJOINT };
/* (SIM_PATH_DISJOINT, under AUTO only, in the replay: a step whose routes share no arc, found
 * by one bit per arc; every arc used carries one circuit and sim->load is never written.) */
extern int sim_load_path;
/* The difference arrays on a 2-D mesh read the transfers' ends straight (diff_mesh2,
 * sim-load.c); true makes them go through the general route pieces as on any other net, so
 * that tests can check that both give identical loads. */
#include <stdbool.h>
extern bool sim_count_general;
/* (and true keeps diff_mesh2's column pieces in the layout's order, never transposed) */
extern bool sim_count_natural;
/* (and > 0 makes the difference-array path add a step's transfers in blocks of this many, each
 * a view of its own, through load_acc_add: sim-core.h's block-by-block counting) */
extern int64_t sim_load_block;
/* The difference-array path counts only the lines unlike the others (sim-loadsym.c) when
 * its caller says they are likely alike (an exchange step: 0), for every count (1, any grid),
 * or never (-1).  The results are the same either way. */
extern int sim_load_sym;
/* (Counted up for the tests: lines whose loads were their leader's rep's, not counted; lines
 * that left their leader, mid-step or at the step's end.) */
extern _Atomic int64_t sim_sym_followed, sim_sym_left;
/* An exchange step's loads by rows alike (sim-loadxch.c) when it asks (0), never (-1: lines
 * alike as before).  The results are the same either way.  (Counted for the tests: the steps
 * counted so; the rows that matched no class and were counted transfer by transfer.) */
extern int sim_load_xch;
extern _Atomic int64_t sim_xch_steps, sim_xch_rows_left;

/* Steps with at least this many transfers count (and later clear) their link loads on a
 * second thread while the first checks the sends (hands out the receives); the results are
 * the same either way.  Tests set it to 0 to run every step that way, or INT64_MAX never. */
#include <stdint.h>
extern int64_t sim_par_min;

/* Without SIM_HISTORY, a node that receives a stored transfer of at least this many ranges into
 * empty holdings borrows them from the schedule instead of copying them (sim-hold.h); tests
 * set it low (1) to borrow often, or UINT32_MAX never.  The results are the same either way. */
extern uint32_t sim_borrow_min;
/* Such a set that sched_send_submasks stored is borrowed as its bits (fixed, free: no range
 * of it read again; sim-hold.h); tests set it false to borrow it as ranges.  The results are
 * the same either way. */
#include <stdbool.h>
extern bool hist_borrow_sub;
/* (How many sets were borrowed so, counted up for the tests.) */
extern _Atomic int64_t hist_sub_borrows;

/* A step whose sources never decrease in transfer order hands out each receive in the sends'
 * pass, as soon as no later send can read what it adds (sim-step.c), instead of in a pass of
 * its own; tests set it false to run every step in separate passes.  The results are the same
 * either way. */
#include <stdbool.h>
extern bool step_fuse;

/* A step that is one exchange block (sched_send_rule_exchange) is replayed pair by pair from
 * the rule, never expanded whole (sim-exch.c); tests set it false to run such steps through
 * the flat view's passes.  The results are the same either way. */
extern bool step_exch;
/* (How many steps were replayed so, counted up for the tests.) */
extern _Atomic int64_t step_exch_steps;

#endif
