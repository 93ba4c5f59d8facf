/* verdict.h — the one judgement of a broadcast that `run` and `check` both give: verified,
 * valid under the model and the timing, which rule broke first and where, the cost as timed
 * and the closed form beside it.
 *
 * A case is made as `run` makes it (cli_prepare, or cli_prepare_made on a Setup already made)
 * with SIM_ASYNC for the async timing; cli_verdict_time then takes the async timing and the
 * closed form for it, and cli_verdict judges.  `run` exits 0 exactly when verdict.ok.
 *
 * Ownership: the SimAsync from cli_verdict_time is the caller's (sim_async_free); the verdict
 * holds no pointers but `rule`, a static string.
 */
#ifndef MESHCAST_VERDICT_H
#define MESHCAST_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "../engine/sim-async.h"
#include "cli-opts.h"

typedef struct {
    bool verified;        /* every node ends with every chunk (a reduction: the root with
                           * every contribution to every chunk exactly once) */
    bool valid;           /* verified, and no violation of the model */
    bool ok;              /* verified and valid: run's exit 0 */
    const char *rule;     /* NULL when ok, else the first rule broken: "delivery",
                           * "reduction", "arc-disjoint circuits", "all-port",
                           * "postal one-port", "link capacity", "async timing" */
    char where[512];      /* the first violation of it, one line ("step 2: ..."); "" when ok */
    double cost;          /* as timed: the lockstep total, or the async one */
    bool has_predicted;
    double predicted;     /* the closed form for that timing */
    double difference;    /* export_difference(cost, predicted) */
} CliVerdict;

/* With async: take r's async timing (sim_run with SIM_ASYNC) into *as and recompute the
 * closed form for it (args.async).  Returns true, or false with the reason in err (the case
 * is then not valid under the async timing: cli_verdict says so given as = NULL, async). */
bool cli_verdict_time(CliRun *r, bool async, SimAsync **as, char *err, size_t errlen);
/* Judge the case.  async_err: why the async timing failed (NULL when it did not or for
 * lockstep). */
void cli_verdict(const CliRun *r, const SimAsync *as, const char *async_err, CliVerdict *v);

#endif
