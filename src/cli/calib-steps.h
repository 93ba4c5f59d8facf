/* calib-steps.h — `meshcast calibrate`'s step runs: the cost of one schedule step as exec
 * pays it, measured through meshcast-mpi's own transfer path (the one `exec` uses), so that
 * seidel's a and b can be fitted on what a broadcast's steps cost on this machine.
 *
 * For K = 1, 2, 4, ... np/2 one schedule on array:np: K disjoint neighbour pairs 2i -> 2i+1 in
 * every step (the other ranks hold the message from the start and wait), one step per size M = 1K, 4K, 16K, ... MAX (each step fresh chunks: nothing is
 * sent twice), run `reps` times after a warm-up; each step's median is one row (K, M, T).
 *
 * Ownership: rows go to the caller's array.
 */
#ifndef MESHCAST_CALIB_STEPS_H
#define MESHCAST_CALIB_STEPS_H

#include <stddef.h>

#include "exec-launch.h"

typedef struct {
    int k;          /* transfers at once */
    double m, t;    /* bytes, us (median over the repetitions) */
} CalStep;

/* Run them (l: launcher, np, reps, timeout).  *n rows (at most max) into out.  Returns 0, or
 * exec_launch's status with err set. */
int calib_steps(const ExecLaunch *l, long maxbytes, CalStep *out, int max, int *n, char *err,
                size_t errlen);

#endif
