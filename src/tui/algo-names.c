/* algo-names.c — what the algorithm picker and completion offer (see algo-names.h). */
#include "algo-names.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algos/algo.h"
#include "../script/script.h"

static bool has(char **out, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(out[i], name) == 0) return true;
    return false;
}

static void add(char **out, size_t *n, size_t max, const char *name)
{
    if (*n < max && !has(out, *n, name)) {
        char *s = strdup(name);
        if (s) out[(*n)++] = s;
    }
}

size_t algo_names(const Net *net, char **out, size_t max)
{
    size_t n = 0;
    unsigned kind = net ? 1u << net_kind(net) : ~0u;
    for (size_t i = 0; i < algo_count(); i++) {
        const AlgoDef *d = algo_at(i);
        if (d->nets & kind) add(out, &n, max, d->name);
    }
    size_t nbuiltin = n;
    char *names[128];
    size_t k = script_list(names, sizeof names / sizeof names[0]);
    for (size_t i = 0; i < k; i++) {
        char file[300], err[256];
        snprintf(file, sizeof file, "%s.lua", names[i]);
        AlgoDef *owned = NULL;
        /* what the script itself declares (loaded in the sandbox; one that is refused is
         * left out: choosing it would only show its error) */
        const AlgoDef *d = script_algo(file, NULL, &owned, err, sizeof err);
        if (d && (d->nets & kind))
            add(out, &n, max, has(out, nbuiltin, names[i]) ? file : names[i]);
        algo_release(owned);
        free(names[i]);
    }
    return n;
}

const char *algo_first_runs(const SetupSpec *spec)
{
    for (size_t i = 0; i < algo_count(); i++) {
        SetupSpec t = *spec;
        t.algo = algo_at(i)->name;
        Setup st;
        char err[300];
        if (!setup_make(&t, &st, err, sizeof err)) continue;
        bool ok = algo_check(st.def, st.net, &st.args, err, sizeof err);
        setup_free(&st);
        if (ok) return algo_at(i)->name;
    }
    return NULL;
}
