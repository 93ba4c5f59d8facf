/* PLACEHOLDER until its owner lands it: every build fails loudly. */
#include "algos-internal.h"

static bool not_yet(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    (void)a;
    sched_fail(s, "%s is not implemented yet", d->name);
    return false;
}

const AlgoDef algo_bst_mesh = {
    .name = "bst", .summary = "not implemented yet", .ref = "",
    .nets = 1u << NET_MESH, .flags = ALGO_POW2, .build = not_yet,
};

const AlgoDef algo_bst_rowcol = {
    .name = "bst-rowcol", .summary = "not implemented yet", .ref = "",
    .nets = 1u << NET_MESH, .flags = ALGO_POW2, .build = not_yet,
};

const AlgoDef algo_bst_snake = {
    .name = "bst-snake", .summary = "not implemented yet", .ref = "",
    .nets = 1u << NET_MESH, .flags = ALGO_POW2, .build = not_yet,
};
