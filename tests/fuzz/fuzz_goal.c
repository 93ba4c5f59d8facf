/* fuzz_goal.c — a GOAL file (LogGOPSim's schedule text, src/algos/goal/goal.h).
 * Properties: refused with one line "fuzz:LINE: ..." (no newline in it), or planned into
 * steps that build on array:NRANKS (up to 4096 ranks) with no builder error (ranks in
 * range, distinct ends, chunk ranges within the chunks) and simulate; a verified one,
 * written back as GOAL (goal_write), reads again with the same ranks, chunks and bytes. */
#include "../../src/algos/goal/goal.h"
#include "../../src/engine/cost.h"
#include "../../src/engine/sim.h"
#include "fuzz.h"

static GoalProg *parse(const char *buf, size_t len, char *err, size_t errlen)
{
    FILE *f = fmemopen((void *)buf, len, "r");
    if (!f)
        abort();
    GoalProg *g = goal_read(f, "fuzz", err, errlen);
    fclose(f);
    return g;
}

static void round_trip(const Sched *s, const GoalProg *g)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out)
        abort();
    FUZZ_ASSERT(goal_write(out, s, "fuzz"));
    fclose(out);
    char err[512] = "";
    GoalProg *back = parse(text, len, err, sizeof err);
    if (!back)
        fprintf(stderr, "%s\n", err);
    FUZZ_ASSERT(back != NULL);
    FUZZ_ASSERT(goal_nchunks(back) == goal_nchunks(g));
    FUZZ_ASSERT(goal_bytes(back) == goal_bytes(g));
    FUZZ_ASSERT(goal_nranks(back) == goal_nranks(g));
    goal_free(back);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512] = "";
    GoalProg *g = parse((const char *)data, size, err, sizeof err);
    if (!g) {
        FUZZ_ASSERT(strncmp(err, "fuzz:", 5) == 0 || strcmp(err, "out of memory") == 0);
        FUZZ_ASSERT(strchr(err, '\n') == NULL);
        return 0;
    }
    FUZZ_ASSERT(goal_nranks(g) >= 1 && goal_nchunks(g) >= 1 && goal_nsteps(g) >= 1);
    FUZZ_ASSERT(goal_source(g) >= 0 && goal_source(g) < goal_nranks(g));
    FUZZ_ASSERT(goal_bytes(g) >= goal_nchunks(g));
    if (goal_nranks(g) <= 4096 && goal_nranks(g) >= 2) {
        char spec[32];
        snprintf(spec, sizeof spec, "array:%ld", (long)goal_nranks(g));
        Net *net = net_parse(spec, err, sizeof err);
        FUZZ_ASSERT(net != NULL);
        Sched *s = sched_new(net, goal_nchunks(g), goal_bytes(g));
        FUZZ_ASSERT(s && sched_give(s, goal_source(g), 0, goal_nchunks(g)));
        FUZZ_ASSERT(goal_build(g, s, NULL) && !sched_error(s));
        FUZZ_ASSERT(sched_total_transfers(s) == goal_nsends(g));
        CostParams p;
        cost_defaults(&p, COST_SEIDEL);
        Sim *sim = sim_run(s, &p, 0, err, sizeof err);
        FUZZ_ASSERT(sim != NULL);
        bool verified = sim_totals(sim)->verified;
        sim_free(sim);
        if (verified)   /* a wrong schedule need not come back (its sends lack requires) */
            round_trip(s, g);
        sched_free(s);
        net_free(net);
    }
    goal_free(g);
    return 0;
}
