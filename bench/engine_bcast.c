/* engine_bcast.c — benchmark: build, simulate and verify the Table I broadcasts on big nets.
 *
 *   engine_bcast                      every case below, each in its own child process
 *   engine_bcast NET ALGO [BYTES]     one case, in this process
 *
 * For each case prints one line: build and simulate wall times (separately), steps,
 * transfers, verified/valid, and the process's peak resident memory (getrusage ru_maxrss;
 * one process per case so that the peaks do not mix).  Target: each case under 2 s and
 * 1 GiB.  Exit status 1 if a case failed to build, did not verify, or missed the target.
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

static const char *const cases[][2] = {
    {"mesh:1024x1024", "st"},   {"mesh:1024x1024", "bst"},   {"mesh:1024x1024", "rh"},
    {"array:1048576", "st"},    {"array:1048576", "bst"},    {"array:1048576", "rh"},
    /* RH sends n lg n pieces (22.0M transfers at 2^20 nodes): half the nodes too, to see
     * how it scales. */
    {"mesh:512x1024", "rh"},    {"array:524288", "rh"},
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int one(const char *netspec, const char *name, uint64_t bytes)
{
    char err[256];
    Net *net = net_parse(netspec, err, sizeof err);
    if (!net) {
        printf("%-16s %-4s  FAIL %s\n", netspec, name, err);
        return 1;
    }
    const AlgoDef *d = algo_find(name, net);
    if (!d) {
        printf("%-16s %-4s  FAIL no such algorithm for this net\n", netspec, name);
        net_free(net);
        return 1;
    }
    AlgoArgs a;
    algo_args_init(&a, d);
    a.bytes = bytes;
    CostParams p;
    cost_defaults(&p, COST_SEIDEL);

    double t0 = now();
    Sched *s = algo_build(d, net, &a, err, sizeof err);
    double t1 = now();
    if (!s) {
        printf("%-16s %-4s  FAIL build: %s\n", netspec, name, err);
        net_free(net);
        return 1;
    }
    Sim *sim = sim_run(s, &p, 0, err, sizeof err);
    double t2 = now();
    if (!sim) {
        printf("%-16s %-4s  FAIL simulate: %s\n", netspec, name, err);
        sched_free(s);
        net_free(net);
        return 1;
    }
    const SimTotals *t = sim_totals(sim);
    double pred = 0;
    bool has_pred = algo_predict(d, net, &a, &p, &pred);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    bool fast = (t1 - t0) + (t2 - t1) < TARGET_SECONDS && ru.ru_maxrss < TARGET_KIB;
    printf("%-16s %-4s  build %7.3f s  simulate %7.3f s  peak %7.1f MiB  steps %3ld  "
           "transfers %8lld  %s%s  cost %.10g%s\n",
           netspec, name, t1 - t0, t2 - t1, (double)ru.ru_maxrss / 1024.0, (long)t->nsteps,
           (long long)t->ntransfers, t->verified ? "verified" : "NOT VERIFIED",
           t->valid ? "" : " INVALID", t->cost.total,
           has_pred ? (fabs(t->cost.total - pred) <= 1e-9 * fmax(1, fabs(pred))
                           ? " = predicted"
                           : " (DIFFERS from predicted)")
                    : "");
    if (!fast)
        printf("%-16s %-4s  MISSED the target (%.0f s, %ld MiB)\n", netspec, name,
               TARGET_SECONDS, TARGET_KIB / 1024);
    int rc = t->verified && t->valid && fast ? 0 : 1;
    sim_free(sim);
    sched_free(s);
    net_free(net);
    return rc;
}

int main(int argc, char **argv)
{
    uint64_t bytes = 1 << 20;
    if (argc >= 3) {
        if (argc >= 4)
            bytes = strtoull(argv[3], NULL, 10);
        return one(argv[1], argv[2], bytes ? bytes : 1);
    }
    printf("engine_bcast: build + simulate + verify, m = %llu bytes, model seidel "
           "(target < %.0f s and < %ld MiB per case)\n",
           (unsigned long long)bytes, TARGET_SECONDS, TARGET_KIB / 1024);
    int rc = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid < 0) {
            perror("fork");
            return 1;
        }
        if (pid == 0) {
            int r = one(cases[i][0], cases[i][1], bytes);
            fflush(stdout);
            _exit(r);
        }
        int status;
        if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            if (WIFSIGNALED(status))
                printf("%-16s %-4s  FAIL killed by signal %d\n", cases[i][0], cases[i][1],
                       WTERMSIG(status));
            rc = 1;
        }
    }
    return rc;
}
