/* PLACEHOLDER until its owner lands it: every build fails loudly. */
#include "algos-internal.h"

static bool not_yet(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    (void)a;
    sched_fail(s, "%s is not implemented yet", d->name);
    return false;
}

const AlgoDef algo_st_mesh = {
    .name = "st", .summary = "not implemented yet", .ref = "",
    .nets = 1u << NET_MESH, .flags = ALGO_POW2, .build = not_yet,
};

const AlgoDef algo_st_simple = {
    .name = "st-simple", .summary = "not implemented yet", .ref = "",
    .nets = 1u << NET_MESH, .flags = ALGO_POW2, .build = not_yet,
};

const AlgoDef algo_st_5phase = {
    .name = "st-5phase", .summary = "not implemented yet", .ref = "",
    .nets = 1u << NET_MESH, .flags = ALGO_POW2, .build = not_yet,
};
