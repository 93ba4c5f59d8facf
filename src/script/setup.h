/* setup.h — turn a user's words (net spec, algorithm, source, bytes, model, K=V settings,
 * fit) into a ready broadcast.  Shared by the batch commands and the TUI's command line, so
 * that both accept and refuse exactly the same things with the same one-line messages.
 *
 * Rules: `--set K=V` sets a cost-model parameter (cost_set) if K is one, and an algorithm
 * parameter (algo_args_set) if the algorithm has one called K; `nu` is both (it also becomes
 * args.nu).  A name that is neither is an error.  bytes accepts 1024, 64K, 1M (K = 1024).
 *
 * Op: "reduce" turns a broadcast into its reduction (Setup.reduce); "broadcast" on a script
 * that declares a reduction is refused; anything else is "bad --op: broadcast or reduce".
 *
 * Profile: --profile NAME loads NAME.profile (profile.h) and sets its MODEL.PARAM values of the
 * model in use right after the model's defaults, so every --set still overrides them.
 *
 * Sources: --source ID gives one source; --sources SPEC many (a distribution or a list; with
 * one, it is also args.source, so one-source algorithms take it).  Both at once is an error.
 *
 * GOAL: an --algo ending in ".goal" is read by goal_algo (its ranks on the nodes, row-major
 * or as the --map file says); its source and bytes are the file's unless given.
 *
 * Ownership: setup_make fills *out, which the caller frees with setup_free (the net, and a
 * script def if the algorithm was a script).  On failure *out holds nothing to free.
 */
#ifndef MESHCAST_SETUP_H
#define MESHCAST_SETUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../algos/algo.h"
#include "../engine/cost.h"
#include "../engine/net.h"

typedef struct {
    const char *net;     /* NULL: "mesh:8x8" */
    const char *algo;    /* NULL: "st" */
    const char *source;  /* "5" or "3,4"; NULL: node 0 */
    const char *bytes;   /* NULL: 1024 */
    const char *model;   /* NULL: seidel */
    const char *fit;     /* NULL: auto */
    const char *const *sets; /* "nu=1", ... */
    size_t nsets;
    const char *sources; /* s-to-p: "R:20", "E:7", "0,17,42", "3,4;5,6" (dist.h); NULL: one */
    const char *op;      /* "broadcast" or "reduce" (the broadcast run backwards); NULL: the
                          * algorithm's own (a script may declare a reduction) */
    const char *profile; /* a machine profile (profile.h): its constants for the model in use
                          * replace the defaults, before `sets`; NULL: none */
    const char *map;     /* --algo FILE.goal: a file of the node of every rank; NULL:
                          * rank r on node r (goal.h) */
} SetupSpec;

typedef struct {
    Net *net;            /* owned */
    const AlgoDef *def;  /* a built-in, or == owned */
    AlgoDef *owned;      /* a script's def, or NULL */
    AlgoArgs args;       /* args.sources points into `sources` */
    CostParams cost;
    int32_t *sources;    /* owned: --sources, sorted ids (NULL without --sources) */
    int32_t nsources;
    bool reduce;         /* op reduce on a broadcast: the caller reverses its schedule
                          * (reduce_reverse); a script's own reduction is def->flags */
} Setup;

bool setup_make(const SetupSpec *spec, Setup *out, char *err, size_t errlen);
/* The same with def, when not NULL, as the algorithm instead of resolving spec->algo (a
 * script loaded once, as `check` does for its many cases; borrowed: setup_free leaves it).
 * On failure *refused says whether the input was fine but the algorithm refuses this net or
 * setting (algo_check: a script's `sizes`, "needs 2^d nodes") rather than being bad. */
bool setup_make_def(const SetupSpec *spec, const AlgoDef *def, Setup *out, bool *refused,
                    char *err, size_t errlen);
/* Load profile `name` (profile.h) and set its constants for c's model into c; false with a
 * one-line message ("FILE:LINE: why", "no profile 'x' ...") in err.  NULL name: nothing. */
bool setup_profile(const char *name, CostParams *c, char *err, size_t errlen);
void setup_free(Setup *s);

/* Parse a byte count: "1024", "64K", "1M" (num.h's digits, then K, M or G); false for
 * anything else, 0, negative or over 2^64-1. */
bool setup_parse_bytes(const char *text, uint64_t *out);
/* The same, saying why not: NULL if text is a byte count (in *out), else the reason ("too
 * large (...)", "must be at least 1 byte", "expected a number such as 1024, 64K or 1M"). */
const char *setup_bytes_problem(const char *text, uint64_t *out);

#endif
