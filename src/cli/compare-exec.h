/* compare-exec.h — `meshcast compare --exec`: every algorithm compare would price, run on MPI
 * ranks (exec-launch.h) at every size, measured beside the model's price, with the measured
 * and the predicted crossovers side by side (Seidel's Figs. 16-18 on the machine at hand).
 *
 * Predicted: the simulated price (what `run` prints).  Predicted crossovers are bisected to
 * the byte on the model; measured ones by bisection on real runs between the two sampled sizes
 * that bracket them, at most `bisect` steps each and CMPX_MAX_BISECT_RUNS runs in all (the
 * bracket left is reported, with the number of runs it rests on).
 *
 * Ownership: everything is borrowed for the call.
 */
#ifndef MESHCAST_COMPARE_EXEC_H
#define MESHCAST_COMPARE_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../algos/algo.h"
#include "exec-launch.h"

#define CMPX_MAX_BISECT_RUNS 64   /* launches spent on all measured bisections together */

typedef struct {
    const AlgoDef *def;
    AlgoArgs args;   /* bytes is set per size */
} CmpExecAlgo;

typedef struct {
    ExecLaunch l;    /* np = the net's nodes; reps, timing, launcher, timeout */
    int bisect;      /* bisection steps per measured crossover (0: none) */
    bool json, csv;
} CmpExecOpts;

/* Run the table and print it (text, --json or --csv).  Returns the exit status: 0 every run
 * verified, 1 a schedule the simulator refuses or a run that failed (one line on stderr naming
 * the algorithm, the size and what went wrong), 2 Open MPI or meshcast-mpi missing. */
int compare_exec(const Net *net, const CostParams *cost, int32_t source,
                 const CmpExecAlgo *algos, size_t nalgos, const uint64_t *sizes, int nsizes,
                 const CmpExecOpts *o);

#endif
