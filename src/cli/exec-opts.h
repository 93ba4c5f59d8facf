/* exec-opts.h — the options `meshcast exec` and `meshcast compare --exec` share: --np, --reps,
 * --mpirun, --hostfile, --timeout (and exec's --barrier, --vs-bcast), taken out of argv before
 * the common options are parsed, then checked into an ExecLaunch.
 *
 * Ownership: the strings point into argv (borrowed).
 */
#ifndef MESHCAST_EXEC_OPTS_H
#define MESHCAST_EXEC_OPTS_H

#include <stdbool.h>

#include "exec-launch.h"

typedef struct {
    ExecLaunch l;
    const char *np, *reps, *timeout;   /* as given (NULL: not given) */
} ExecOpts;

/* Take the exec options out of argv (the rest are left in order; *argc shrinks).  flags: the
 * switches allowed besides the valued options (EXECOPT_*).  Returns -1, or the exit status of
 * a usage error (printed). */
enum { EXECOPT_BARRIER = 1, EXECOPT_VS_BCAST = 2 };
int exec_opts_take(int *argc, char **argv, unsigned flags, ExecOpts *e);
/* The "--name"s exec_opts_take knows (NULL-terminated): for an unknown option's "did you
 * mean" (cli_opts_begin_also). */
const char *const *exec_opts_names(void);

/* Check --reps (default 5) and --timeout (default 60 s) and the timing (NULL, "lockstep" or
 * "async") into e->l; the test hook $MESHCAST_EXEC_INJECT too.  Returns -1, or 2 after a usage
 * error line. */
int exec_opts_finish(ExecOpts *e, const char *timing);

/* --np, when given, must equal the net's node count (one rank per node): e->l.np = nodes.
 * Returns -1, or 2 after a usage error line. */
int exec_opts_np(ExecOpts *e, int nodes);

/* Whole number in [lo, hi]. */
bool exec_opts_int(const char *v, long lo, long hi, int *out);

#endif
