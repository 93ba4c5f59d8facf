/* exec-launch.h — `meshcast exec`'s launch: the schedule written in the MCX1 format
 * (schedbin.h), meshcast-mpi started under mpirun (or the user's launcher), its report read.
 *
 * The main binary never links MPI: it runs the separate program meshcast-mpi, found in
 * $MESHCAST_MPI, beside this executable, or on PATH.
 *
 * Ownership: ExecResult's arrays are allocated by exec_launch and freed by exec_result_free.
 */
#ifndef MESHCAST_EXEC_LAUNCH_H
#define MESHCAST_EXEC_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../engine/sched.h"

typedef struct {
    const char *mpirun;    /* launcher command (NULL: $MESHCAST_MPIRUN, else mpirun) */
    const char *hostfile;  /* NULL: none */
    int np;
    int reps;              /* measured repetitions (one warm-up more is run) */
    bool async, barrier;
    double timeout;        /* seconds for one repetition */
    const char *inject;    /* $MESHCAST_EXEC_INJECT, a test hook: meshcast-mpi --inject */
    bool bcast;            /* also time MPI_Bcast of the same bytes (meshcast-mpi --bcast) */
} ExecLaunch;

typedef struct {
    int reps, nsteps;
    double *total;         /* reps: seconds */
    double *ends;          /* reps x nsteps: when step k's last transfer ended (s), -1 none */
    double *bcast;         /* reps: MPI_Bcast of the same bytes (s), when asked for */
    char launcher[512];    /* the command line that was run, without meshcast-mpi's part */
} ExecResult;

/* Run s (op: SCHEDBIN_BROADCAST or SCHEDBIN_REDUCE towards root).  Returns 0; 1 when the
 * run failed (err: one line naming rank, step and what went wrong); 2 when Open MPI or
 * meshcast-mpi is missing (err says what to install). */
int exec_launch(const Sched *s, int op, uint32_t root, const ExecLaunch *l, ExecResult *out,
                char *err, size_t errlen);
void exec_result_free(ExecResult *r);

/* The median of v[0..n) (n >= 1; v is sorted in place, so v[n-1] - v[0] is the spread). */
double exec_median(double *v, int n);

/* Run meshcast-mpi ARGS (already quoted for sh) under the launcher, bounded by l->timeout +
 * 60 s; *out gets its standard output (the caller frees it) and launched the launcher's
 * command.  Returns as exec_launch does. */
int exec_run_raw(const ExecLaunch *l, const char *args, char **out, char *launched, size_t ll,
                 char *err, size_t errlen);

#endif
