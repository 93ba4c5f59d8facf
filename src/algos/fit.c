/* PLACEHOLDER until its owner lands it. */
#include <stdio.h>

#include "algos-internal.h"

bool fit_needed(const AlgoDef *d, const Net *net)
{
    if (!(d->flags & ALGO_POW2))
        return false;
    for (int k = 0; k < net_ndim(net); k++)
        if (algo_log2(net_dim(net, k)) < 0)
            return true;
    return false;
}

bool fit_check(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err, size_t errlen)
{
    (void)a;
    snprintf(err, errlen, "%s on %s: --fit is not implemented yet", d->name, net_spec(net));
    return false;
}

Sched *fit_build(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err, size_t errlen)
{
    fit_check(d, net, a, err, errlen);
    return NULL;
}

bool fit_predict(const AlgoDef *d, const Net *net, const AlgoArgs *a, const CostParams *p,
                 double *total)
{
    (void)d; (void)net; (void)a; (void)p; (void)total;
    return false;
}
