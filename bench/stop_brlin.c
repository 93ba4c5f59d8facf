/* stop_brlin.c — benchmark: s-to-p Br_Lin with s = 1024 equal-distributed sources (E:1024) on
 * mesh:1024x1024, built, simulated and verified (issue 13's target: under 5 s and 2 GiB).
 *
 * Prints one line: the sources' time (the distribution), build and simulate wall
 * times, steps, transfers, verified/valid, and the process's peak resident memory after all
 * of them (getrusage ru_maxrss).  Exit status 1 if it failed or missed the target.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "../src/algos/algo.h"
#include "../src/engine/dist.h"
#include "../src/engine/sim.h"

#define TARGET_SECONDS 5.0
#define TARGET_KIB (2L * 1024L * 1024L)

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int one(const Net *net, const char *name, const char *spec)
{
    char err[256];
    double t0 = now();
    int32_t *src, ns;
    DistKind k;
    if (!dist_parse(net, spec, &src, &ns, &k, err, sizeof err)) {
        printf("%-14s FAIL %s\n", name, err);
        return 1;
    }
    const AlgoDef *d = algo_find(name, net);
    AlgoArgs a;
    algo_args_init(&a, d);
    a.sources = src;
    a.nsources = ns;
    a.source = src[0];
    double t1 = now();
    Sched *s = algo_build(d, net, &a, err, sizeof err);
    if (!s) {
        printf("%-14s FAIL %s\n", name, err);
        free(src);
        return 1;
    }
    double t2 = now();
    CostParams p;
    cost_defaults(&p, COST_SEIDEL);
    Sim *sim = sim_run(s, &p, 0, err, sizeof err);
    double t3 = now();
    const SimTotals *t = sim ? sim_totals(sim) : NULL;
    bool ok = t && t->verified && t->valid && t3 - t0 < TARGET_SECONDS;
    printf("%-14s %s %s  sources %.2f s  build %.2f s  simulate %.2f s  total %.2f s  "
           "steps %d  transfers %lld  %s\n", name, net_spec(net), spec, t1 - t0, t2 - t1,
           t3 - t2, t3 - t0, t ? t->nsteps : 0, t ? (long long)t->ntransfers : 0LL,
           !t ? "FAIL" : t->verified && t->valid ? "verified, valid" : "NOT VERIFIED");
    sim_free(sim);
    sched_free(s);
    free(src);
    return ok ? 0 : 1;
}

int main(void)
{
    char err[256];
    Net *net = net_parse("mesh:1024x1024", err, sizeof err);
    if (!net)
        return 1;
    int rc = one(net, "br-lin", "E:1024");
    net_free(net);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("peak memory %ld KiB (target %ld KiB, %.0f s)\n", ru.ru_maxrss, TARGET_KIB,
           TARGET_SECONDS);
    if (ru.ru_maxrss > TARGET_KIB)
        rc = 1;
    return rc;
}
