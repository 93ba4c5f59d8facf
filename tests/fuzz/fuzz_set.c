/* fuzz_set.c — one --set K=V (the whole input) on each model and on chain (which has a
 * parameter, s), as `meshcast run --net array:16 --set K=V` takes it.  Properties: refused
 * with a one-line message, or accepted with every cost parameter finite and not negative and
 * a finite simulated cost. */
#include <math.h>

#include "../../src/cli/cli-opts.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_dir();
    char *line[1];
    fuzz_lines(data, size, line, 1);
    static const char *const models[] = {"seidel", "postal", "circuit", "saf"};
    for (size_t m = 0; m < 4; m++) {
        const char *sets[1] = {line[0]};
        SetupSpec spec = {.net = "array:16", .algo = m == 0 ? "st" : "chain",
                          .model = models[m], .sets = sets, .nsets = 1};
        Setup s;
        char err[512] = "";
        if (!setup_make(&spec, &s, err, sizeof err)) {
            FUZZ_ASSERT(err[0] != '\0' && strchr(err, '\n') == NULL);
            continue;
        }
        const char *const *names = cost_param_names(s.cost.model);
        for (size_t i = 0; names && names[i]; i++) {
            double v = cost_param_get(&s.cost, names[i]);
            FUZZ_ASSERT(isfinite(v) && v >= 0);
        }
        if (s.args.param[0] > 1024 || s.args.nu > 8) {
            setup_free(&s);
            continue;
        }
        CliRun r;
        if (cli_prepare_setup(&s, 0, &r, err, sizeof err) == 0)
            FUZZ_ASSERT(isfinite(sim_totals(r.sim)->cost.total));
        cli_run_free(&r);
    }
    free(line[0]);
    return 0;
}
