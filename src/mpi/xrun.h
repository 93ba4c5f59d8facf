/* xrun.h — one rank's part of a schedule, run over MPI (meshcast-mpi; see docs/exec.md).
 *
 * xrun_new picks this rank's transfers out of the schedule (in schedule order), makes their
 * MPI datatypes and buffers; xrun_rep runs the schedule once (lockstep or async) and checks
 * the bytes this rank ends with; xrun_free frees everything.  Every failure is one line in
 * the XRun's message: "rank R: step S: what went wrong".
 *
 * Ownership: the XRun borrows the SchedBin, which must outlive it.
 */
#ifndef MESHCAST_XRUN_H
#define MESHCAST_XRUN_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine/schedbin.h"

typedef struct XRun XRun;

typedef struct {
    bool async;          /* else lockstep */
    bool barrier;        /* lockstep: a global barrier after every step */
    double timeout;      /* seconds for one repetition */
    bool yield;          /* more ranks than cores on this host: a waiting rank yields its core */
    const char *status;  /* file where each rank writes the step it is in (NULL: none) */
    /* fault injection for the tests: kind 'd' die, 'h' hang, 'c' corrupt a message, 0 none */
    char inject;
    int inject_rank, inject_step;
} XRunOpts;

/* XRUN_WRONG: the bytes checked at the end are wrong (every rank got this far); XRUN_FAULT:
 * wrong bytes or a bad send found during the run (the others may wait for this rank). */
enum { XRUN_OK = 0, XRUN_WRONG = 1, XRUN_FAULT = 2, XRUN_TIMEOUT = 3, XRUN_MPI = 4 };

XRun *xrun_new(const SchedBin *b, int rank, const XRunOpts *o, char *err, size_t errlen);
/* Run once.  step_end[k] gets when this rank finished its last transfer of step k (seconds
 * since the start, -1 if it has none); *total when it finished everything.  Returns XRUN_*;
 * the message (xrun_error) says what went wrong. */
int xrun_rep(XRun *x, double *step_end, double *total);
const char *xrun_error(const XRun *x);
void xrun_free(XRun *x);

#endif
