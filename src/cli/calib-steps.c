/* calib-steps.c — calibrate's step runs (calib-steps.h). */
#include "calib-steps.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/net.h"
#include "../engine/schedbin.h"

/* The sizes, in KiB units: 1, 4, 16, ... and MAX itself. */
static int sizes(long maxbytes, uint32_t *kib, int max)
{
    int n = 0;
    uint32_t top = (uint32_t)(maxbytes / 1024);
    for (uint32_t s = 1; s <= top && n < max; s *= 4)
        kib[n++] = s;
    if (n > 0 && kib[n - 1] != top && n < max)
        kib[n++] = top;
    return n;
}

/* K pairs 2i -> 2i+1, a step per size, fresh chunks each step. */
static Sched *build(const Net *net, int k, const uint32_t *kib, int ns)
{
    uint32_t total = 1;   /* chunk 0: the settling step's */
    for (int j = 0; j < ns; j++)
        total += kib[j];
    Sched *s = sched_new(net, total, (uint64_t)total * 1024);
    if (!s)
        return NULL;
    bool ok = true;
    /* every node but the K receivers holds everything from the start (meshcast-mpi checks that
     * every rank ends with every chunk); the steps' ranges cover every chunk once */
    for (int v = 0; v < (int)net_size(net) && ok; v++)
        if (!(v % 2 == 1 && v < 2 * k))
            ok = sched_give(s, v, 0, total);
    /* a first step of one chunk, not measured: the ranks' start from the repetition's barrier
     * (all of them scheduled again on an oversubscribed host) is paid there */
    sched_step(s);
    for (int i = 0; i < k && ok; i++)
        ok = sched_send_range(s, 2 * i, 2 * i + 1, 0, 1);
    for (uint32_t j = 0, off = 1; ok && j < (uint32_t)ns; off += kib[j], j++) {
        sched_step(s);
        for (int i = 0; i < k && ok; i++)
            ok = sched_send_range(s, 2 * i, 2 * i + 1, off, off + kib[j]);
    }
    if (!ok) {
        sched_free(s);
        return NULL;
    }
    return s;
}

int calib_steps(const ExecLaunch *l, long maxbytes, CalStep *out, int max, int *n, char *err,
                size_t errlen)
{
    *n = 0;
    uint32_t kib[32];
    int ns = sizes(maxbytes, kib, 32);
    char spec[32];
    snprintf(spec, sizeof spec, "array:%d", l->np);
    Net *net = net_parse(spec, err, errlen);
    if (!net)
        return 1;
    int rc = 0;
    for (int k = 1; k <= l->np / 2 && !rc; k *= 2) {
        Sched *s = build(net, k, kib, ns);
        if (!s) {
            snprintf(err, errlen, "cannot build the step runs");
            rc = 1;
            break;
        }
        ExecResult x;
        memset(&x, 0, sizeof x);
        rc = exec_launch(s, SCHEDBIN_BROADCAST, 0, l, &x, err, errlen);
        sched_free(s);
        double *d = rc ? NULL : malloc((size_t)x.reps * sizeof *d);
        for (int j = 1; d && j <= ns && j < x.nsteps && *n < max; j++) {
            for (int r = 0; r < x.reps; r++) {   /* step j's duration in repetition r */
                double prev = 0;
                for (int q = 0; q < j; q++)
                    if (x.ends[(size_t)r * x.nsteps + q] > prev)
                        prev = x.ends[(size_t)r * x.nsteps + q];
                double e = x.ends[(size_t)r * x.nsteps + j];
                d[r] = e > prev ? (e - prev) * 1e6 : 0;
            }
            out[(*n)++] = (CalStep){k, (double)kib[j - 1] * 1024, exec_median(d, x.reps)};
        }
        free(d);
        exec_result_free(&x);
    }
    net_free(net);
    return rc;
}
