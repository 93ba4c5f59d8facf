/* sanders_ftree.c — benchmark: Sanders & Sibeyn's fractional tree on full:1048576 with s = 64
 * packets (67M transfers) and the binary tree beside it (and the direct simplex fractional tree
 * on full:65536, 4M transfers): build, simulate (postal, duplex) and
 * verify, each case in its own process.  Target: each case under 2 s and 1 GiB.  Exit status
 * 1 if a case failed, did not verify, disagreed with its closed form or missed the target.
 *
 *   sanders_ftree                 every case
 *   sanders_ftree NET ALGO R S    one case, in this process (R "-": none, for bintree)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../src/algos/algo.h"
#include "../src/engine/sim.h"

#define TARGET_SECONDS 2.0
#define TARGET_KIB (1024L * 1024L)

static const struct {
    const char *net, *algo, *r, *s;
} cases[] = {
    {"full:1048576", "fractional", "2", "64"},
    {"full:1048576", "fractional", "4", "64"},
    {"full:1048576", "bintree", NULL, "64"},
    /* the direct simplex tree records every transfer (rendezvous executor): 4M here */
    {"full:65536", "fractional-direct", "4", "64"},
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int one(const char *netspec, const char *name, const char *r, const char *s)
{
    char err[256];
    Net *net = net_parse(netspec, err, sizeof err);
    const AlgoDef *d = net ? algo_find(name, net) : NULL;
    if (!d) {
        printf("%-14s %-10s  FAIL %s\n", netspec, name, net ? "no such algorithm" : err);
        net_free(net);
        return 1;
    }
    AlgoArgs a;
    algo_args_init(&a, d);
    a.bytes = 64u << 20;
    if ((r && algo_args_set(&a, d, "r", r, err, sizeof err) != 0) ||
        algo_args_set(&a, d, "s", s, err, sizeof err) != 0) {
        printf("%-14s %-10s  FAIL %s\n", netspec, name, err);
        net_free(net);
        return 1;
    }
    CostParams p;
    cost_defaults(&p, COST_POSTAL);
    double t0 = now();
    Sched *sc = algo_build(d, net, &a, err, sizeof err);
    double t1 = now();
    Sim *sim = sc ? sim_run(sc, &p, 0, err, sizeof err) : NULL;
    double t2 = now();
    if (!sim) {
        printf("%-14s %-10s  FAIL %s\n", netspec, name, err);
        sched_free(sc);
        net_free(net);
        return 1;
    }
    const SimTotals *t = sim_totals(sim);
    double pred = 0;
    bool agree = algo_predict(d, net, &a, &p, &pred) &&
                 fabs(t->cost.total - pred) <= 1e-9 * fmax(1, fabs(pred));
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    bool fast = t2 - t0 < TARGET_SECONDS && ru.ru_maxrss < TARGET_KIB;
    printf("%-14s %-10s r=%-2s s=%s  build %6.3f s  simulate %6.3f s  peak %7.1f MiB  steps %3ld"
           "  transfers %9lld  %s%s%s%s\n",
           netspec, name, r ? r : "1", s, t1 - t0, t2 - t1, (double)ru.ru_maxrss / 1024.0,
           (long)t->nsteps, (long long)t->ntransfers, t->verified ? "verified" : "NOT VERIFIED",
           t->valid ? "" : " INVALID", agree ? " = predicted" : " (DIFFERS from predicted)",
           fast ? "" : "  MISSED the target (2 s, 1 GiB)");
    int rc = t->verified && t->valid && agree && fast ? 0 : 1;
    sim_free(sim);
    sched_free(sc);
    net_free(net);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc >= 5)   /* R "-": no r (bintree) */
        return one(argv[1], argv[2], strcmp(argv[3], "-") ? argv[3] : NULL, argv[4]);
    printf("sanders_ftree: build + simulate + verify, m = 64 MiB, model postal (target < %.0f s"
           " and < %ld MiB per case)\n", TARGET_SECONDS, TARGET_KIB / 1024);
    int rc = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0)
            return 1;
        if (pid == 0) {
            int r = one(cases[i].net, cases[i].algo, cases[i].r, cases[i].s);
            fflush(stdout);
            _exit(r);
        }
        int status;
        if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
            rc = 1;
    }
    return rc;
}
