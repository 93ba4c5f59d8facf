/* PLACEHOLDER until its owner lands it: every build fails loudly. */
#include "algos-internal.h"

static bool not_yet(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    (void)a;
    sched_fail(s, "%s is not implemented yet", d->name);
    return false;
}

const AlgoDef algo_rh_array = {
    .name = "rh", .summary = "not implemented yet", .ref = "",
    .nets = 1u << NET_ARRAY, .flags = ALGO_POW2, .build = not_yet,
};
