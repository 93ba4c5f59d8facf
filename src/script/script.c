/* PLACEHOLDER until the Lua layer lands: resolves built-in names only. */
#include "script.h"

#include <stdio.h>

const AlgoDef *script_algo(const char *name, const Net *net, AlgoDef **owned, char *err,
                           size_t errlen)
{
    *owned = NULL;
    const AlgoDef *d = algo_find(name, net);
    if (d)
        return d;
    if (algo_exists(name))
        snprintf(err, errlen, "algorithm '%s' does not run on %s", name, net ? net_spec(net) : "this net");
    else
        snprintf(err, errlen, "unknown algorithm '%s' (meshcast list algorithms)", name);
    return NULL;
}
