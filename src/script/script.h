/* script.h — resolving --algo: a built-in name, or a Lua algorithm script.
 *
 * `name` is a built-in algorithm name (algo_find), the path of a .lua file, or the bare name of
 * a script found on the search path (docs/lua-api.md: $MESHCAST_PATH, $XDG_CONFIG_HOME/meshcast,
 * the install share directory; never ./ implicitly).
 *
 * Ownership: for a built-in, returns the static def and sets *owned = NULL.  For a script,
 * returns a def the caller owns through *owned and frees with algo_release(*owned) (the def
 * keeps its own sandboxed Lua state).  NULL with a one-line message in err if nothing matches
 * or the script is refused ("unknown algorithm 'nosuch' (meshcast list algorithms)").
 */
#ifndef MESHCAST_SCRIPT_H
#define MESHCAST_SCRIPT_H

#include <stddef.h>

#include "../algos/algo.h"

const AlgoDef *script_algo(const char *name, const Net *net, AlgoDef **owned, char *err,
                           size_t errlen);

/* The names of the algorithm scripts on the search path (scripts/NAME.lua), sorted, into out
 * (at most max); the caller frees each with free().  Returns how many. */
size_t script_list(char **out, size_t max);

/* A script's claims (claims = { steps =, tcd =, contention_free =, time_step_optimal = }),
 * evaluated for one net and parameters (steps and tcd may be functions of them); `check`
 * verifies each on every case.  A built-in, or a script without claims, claims nothing.
 * False with the message in err when the script raises. */
typedef struct {
    bool has_steps, has_tcd, has_contention_free, has_time_step_optimal;
    double steps, tcd;
    bool contention_free, time_step_optimal;
} ScriptClaims;
bool script_claims(const AlgoDef *d, const Net *net, const AlgoArgs *a, ScriptClaims *out,
                   char *err, size_t errlen);

#endif
