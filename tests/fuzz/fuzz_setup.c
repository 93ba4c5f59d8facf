/* fuzz_setup.c — a user's words into a broadcast, as the batch commands and the TUI's command
 * line take them: "NET\nALGO\nSOURCE\nBYTES\nMODEL\nFIT\nK=V\nK=V..." (an empty line: the
 * default).  Properties: setup_make either refuses with a one-line message or gives a Setup
 * that builds and simulates (on nets up to 1024 nodes, nu <= 6, s <= 64) to a verified
 * schedule with a finite cost. */
#include <math.h>

#include "../../src/cli/cli-opts.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_dir();   /* an empty search path: only built-in algorithms */
    char *line[16];
    size_t n = fuzz_lines(data, size, line, 16);
    const char *f[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
    for (size_t i = 0; i < 6 && i < n; i++)
        f[i] = line[i][0] ? line[i] : NULL;
    if (f[1] && strchr(f[1], '/'))
        f[1] = NULL;   /* scripts from files: fuzz_script */
    SetupSpec spec = {.net = f[0], .algo = f[1], .source = f[2], .bytes = f[3], .model = f[4],
                      .fit = f[5], .sets = (const char *const *)(n > 6 ? line + 6 : NULL),
                      .nsets = n > 6 ? n - 6 : 0};
    Setup s;
    char err[512] = "";
    if (!setup_make(&spec, &s, err, sizeof err)) {
        FUZZ_ASSERT(err[0] != '\0' && strchr(err, '\n') == NULL);
        free(line[0]);
        return 0;
    }
    bool small = net_size(s.net) <= 1024 && s.args.nu <= 6;
    for (int i = 0; i < s.def->nparams && i < ALGO_MAXPARAM; i++)
        small &= s.args.param[i] <= 64;
    if (!small) {
        setup_free(&s);
        free(line[0]);
        return 0;
    }
    CliRun r;
    int rc = cli_prepare_setup(&s, 0, &r, err, sizeof err);
    if (rc == 0) {
        const SimTotals *t = sim_totals(r.sim);
        FUZZ_ASSERT(t->verified);
        FUZZ_ASSERT(isfinite(t->cost.total));
    } else {
        FUZZ_ASSERT(err[0] != '\0');
    }
    cli_run_free(&r);
    free(line[0]);
    return 0;
}
