/* exec-opts.c — the options exec and compare --exec share (exec-opts.h). */
#include "exec-opts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli-opts.h"

bool exec_opts_int(const char *v, long lo, long hi, int *out)
{
    char *end;
    long n = strtol(v, &end, 10);
    if (!*v || *end || n < lo || n > hi)
        return false;
    *out = (int)n;
    return true;
}

/* The options exec_opts_take takes (with a value), then the flags; NULL-terminated. */
static const char *const names[] = {"--np", "--reps", "--mpirun", "--hostfile", "--timeout",
                                    "--barrier", "--vs-bcast", NULL};

const char *const *exec_opts_names(void) { return names; }

int exec_opts_take(int *argc, char **argv, unsigned flags, ExecOpts *e)
{
    int out = 0;
    for (int i = 0; i < *argc; i++) {
        const char *a = argv[i];
        if ((strcmp(a, "--barrier") == 0 && (flags & EXECOPT_BARRIER)) ||
            (strcmp(a, "--vs-bcast") == 0 && (flags & EXECOPT_VS_BCAST))) {
            *(a[2] == 'b' ? &e->l.barrier : &e->l.bcast) = true;
            continue;
        }
        int which = -1;
        const char *val = NULL;
        for (int k = 0; k < 5 && which < 0; k++) {
            size_t n = strlen(names[k]);
            if (strncmp(a, names[k], n) == 0 && (a[n] == 0 || a[n] == '=')) {
                which = k;
                val = a[n] == '=' ? a + n + 1 : (i + 1 < *argc ? argv[++i] : NULL);
            }
        }
        if (which < 0) {
            argv[out++] = argv[i];
            continue;
        }
        if (!val)
            return cli_usage_error("an exec option without its value");
        const char **slot[] = {&e->np, &e->reps, &e->l.mpirun, &e->l.hostfile, &e->timeout};
        if (*slot[which])
            return cli_usage_error("an exec option given twice");
        *slot[which] = val;
    }
    *argc = out;
    return -1;
}

int exec_opts_finish(ExecOpts *e, const char *timing)
{
    e->l.reps = 5;
    e->l.timeout = 60;
    if (e->reps && !exec_opts_int(e->reps, 1, 100000, &e->l.reps))
        return cli_usage_error("--reps takes 1..100000");
    if (e->timeout) {
        char *end;
        e->l.timeout = strtod(e->timeout, &end);
        if (*end || !(e->l.timeout > 0 && e->l.timeout <= 86400))
            return cli_usage_error("--timeout takes seconds, 0 < SEC <= 86400");
    }
    if (timing && strcmp(timing, "async") && strcmp(timing, "lockstep"))
        return cli_usage_error("unknown --timing (lockstep, async)");
    e->l.async = timing && strcmp(timing, "async") == 0;
    const char *inj = getenv("MESHCAST_EXEC_INJECT");
    e->l.inject = inj && *inj ? inj : NULL;
    return -1;
}

int exec_opts_np(ExecOpts *e, int nodes)
{
    e->l.np = nodes;
    if (e->np && (!exec_opts_int(e->np, 1, 1 << 20, &e->l.np) || e->l.np != nodes)) {
        char msg[160];
        snprintf(msg, sizeof msg, "--np must be the net's %d nodes (one rank per node)", nodes);
        return cli_usage_error(msg);
    }
    return -1;
}
