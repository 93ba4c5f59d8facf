/* algo-names.h — the names the `a` picker and `:algo` Tab completion offer: the built-in
 * algorithms that run on the net, then the Lua scripts on the search path that declare its
 * kind (issue 9 defect 2).  A script is offered by its bare name ("knomial"), or as NAME.lua
 * when a built-in has that name ("bst.lua"), so that choosing it opens the script. */
#ifndef MESHCAST_TUI_ALGO_NAMES_H
#define MESHCAST_TUI_ALGO_NAMES_H

#include <stddef.h>

#include "../engine/net.h"
#include "../script/setup.h"

/* Names into out (at most max; net NULL: every algorithm), each to be freed by the caller.
 * Returns how many. */
size_t algo_names(const Net *net, char **out, size_t max);

/* With no --algo (spec->algo NULL): the first built-in that runs on spec's net with spec's
 * settings, in the order of `meshcast list algorithms` (st where it runs), as :net picks one
 * (issue 9 defect 3).  NULL if none does (or the net itself is wrong: the caller's own check
 * says why). */
const char *algo_first_runs(const SetupSpec *spec);

#endif
