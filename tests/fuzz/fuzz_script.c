/* fuzz_script.c — an algorithm script (Lua source, run in the sandbox): loaded, then built and
 * simulated on array:8 and mesh:4x4 where it says it runs.  Properties: refused with a
 * message, or a schedule the simulator takes (verified or not: a wrong schedule is the
 * script's right, a crash or a hang is ours). */
#include "../../src/script/script.h"
#include "../../src/engine/sim.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, "fuzz-script.lua");   /* (fuzz_dir: budget) */
    static const char *const specs[] = {"array:8", "mesh:4x4"};
    for (size_t k = 0; k < 2; k++) {
        char err[1024] = "";
        Net *net = net_parse(specs[k], err, sizeof err);
        FUZZ_ASSERT(net != NULL);
        AlgoDef *owned = NULL;
        const AlgoDef *d = script_algo(path, net, &owned, err, sizeof err);
        if (!d) {
            FUZZ_ASSERT(err[0] != '\0');
            net_free(net);
            return 0;
        }
        AlgoArgs a;
        algo_args_init(&a, d);
        if (algo_check(d, net, &a, err, sizeof err)) {
            Sched *s = algo_build(d, net, &a, err, sizeof err);
            if (s) {
                CostParams p;
                cost_defaults(&p, COST_SEIDEL);
                Sim *sim = sim_run(s, &p, 0, err, sizeof err);
                if (sim)
                    sim_free(sim);
                sched_free(s);
            }
        }
        algo_release(owned);
        net_free(net);
    }
    return 0;
}
