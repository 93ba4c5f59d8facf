/* sanders-args.h — the unit tests' way to give the Sanders trees their r and s: the args of d
 * set (r <= 0: r left at its default), the test failing if a value is refused.  Include after
 * <cmocka.h> and algo.h. */
#ifndef MESHCAST_TEST_SANDERS_ARGS_H
#define MESHCAST_TEST_SANDERS_ARGS_H

#include <stdio.h>

static inline void sanders_args_rs(AlgoArgs *a, const AlgoDef *d, int r, int s)
{
    char err[256], v[32];
    algo_args_init(a, d);
    if (r > 0) {
        snprintf(v, sizeof v, "%d", r);
        if (algo_args_set(a, d, "r", v, err, sizeof err) != 0)
            fail_msg("%s: r=%d refused: %s", d->name, r, err);
    }
    snprintf(v, sizeof v, "%d", s);
    if (algo_args_set(a, d, "s", v, err, sizeof err) != 0)
        fail_msg("%s: s=%d refused: %s", d->name, s, err);
}

#endif
