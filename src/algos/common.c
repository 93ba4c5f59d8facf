/* common.c — helpers the algorithm families share (declared in algos-internal.h): opening
 * labelled steps, the size checks of the power-of-two arrays and meshes, the seidel
 * prediction's preconditions, and the mesh pieces common to the "better" ST and BST
 * (submeshes, checkerboard trees, the 2^nu x 2^nu block distribution and exchange).
 */
#include <stdio.h>

#include "algos-internal.h"
#include "blocks.h"

/* ---- steps --------------------------------------------------------------------------------- */

bool algo_open_steps(Sched *s, int32_t first, int count, const char *label)
{
    for (int i = 0; i < count; i++)
        if (!sched_at(s, first + i) || !sched_label(s, label))
            return false;
    return true;
}

bool algo_open_steps_counted(Sched *s, int32_t first, int count, const char *label)
{
    char buf[160];
    for (int i = 0; i < count; i++) {
        if (count > 1)
            snprintf(buf, sizeof buf, "%s (%d/%d)", label, i + 1, count);
        else
            snprintf(buf, sizeof buf, "%s", label);
        if (!sched_at(s, first + i) || !sched_label(s, buf))
            return false;
    }
    return true;
}

/* ---- size checks ---------------------------------------------------------------------------- */

int algo_array_dims(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                    size_t errlen)
{
    int dd = algo_log2(net_size(net));
    if (dd < 0) {
        snprintf(err, errlen, "%s on %s needs 2^d nodes", d->name, net_spec(net));
        return -1;
    }
    if (a->nu < 0 || (a->nu > 0 && a->nu >= dd)) {
        snprintf(err, errlen, "%s on %s needs nu < %d (got nu=%d)", d->name, net_spec(net), dd,
                 a->nu);
        return -1;
    }
    return dd;
}

#define ARRAY_MAX_TRANSFERS (INT64_C(3) << 23)

bool algo_array_tree_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                          size_t errlen)
{
    if (algo_array_dims(d, net, a, err, errlen) < 0)
        return false;
    /* about n transfers for the trees plus n per exchange step (nu of them): refuse what will
     * not fit in memory, like rh and the mesh algorithms (nu = 16 on 2^24 nodes took 8 GB) */
    int64_t t = (int64_t)net_size(net) * (1 + a->nu);
    if (t > ARRAY_MAX_TRANSFERS) {
        snprintf(err, errlen, "%s on %s with nu=%d would need about %lld transfers (at most %lld)",
                 d->name, net_spec(net), a->nu, (long long)t, (long long)ARRAY_MAX_TRANSFERS);
        return false;
    }
    return true;
}
