/* cli-out.h — standard output of the batch commands, and what happens when it fails.
 *
 * A write error (a full disk, `> /dev/full`, a closed pipe with SIGPIPE ignored) is one line
 * on stderr ("meshcast: cannot write the output: No space left on device") and exit status 2,
 * at once: a command that formats much (schedule, list, check) asks cli_out_failed() as it
 * goes and stops at the first failed write instead of formatting the rest into the void.
 */
#ifndef MESHCAST_CLI_OUT_H
#define MESHCAST_CLI_OUT_H

#include <stdbool.h>
#include "../engine/cost.h"
#include "../engine/export.h"
#include "../engine/net.h"

/* True once a write to stdout has failed (the error is remembered for cli_out_finish). */
bool cli_out_failed(void);
/* Flush stdout.  If any write failed, print the one-line message and return 2; otherwise
 * return rc. */
int cli_out_finish(int rc);

/* A model's parameters as the commands print them: "a=.. b=.." on stdout (text), or the
 * key "params" and an object of them (JSON). */
void cli_print_params(const CostParams *p);
void cli_json_params(JsonOut *j, const CostParams *p);
/* The head of compare's JSON objects: keys net, source, model and params. */
void cli_json_head(JsonOut *j, const Net *net, long source, const CostParams *p);

#endif
