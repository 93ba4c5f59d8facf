/* tradeoff.c — `meshcast tradeoff`: Sanders & Sibeyn's Fig. 3, live.  For P PUs (default 64,
 * 1024 and 16384, full:P, postal duplex, t = 1, beta = 1, so k/t = the message in bytes) and
 * k/t = 4, 16, ..., 2^20: the cost of the chain, the binary tree and the best fractional tree,
 * each with its best s (and r in 1..64), and the speedup of the fractional tree over the better
 * of chain and binary tree.  The best choices are searched by the exact step counts of the
 * schedules (chain n-2+s; trees d + (r+1)floor((s-1)/r) + (s-1) mod r + 1, equal to the
 * simulation: tests/unit/test_ftree.c) times t + beta*ceil(k/s), s in 1..min(k, 16384); with
 * --verify every winner is built and simulated on full:P and its simulated cost shown (it is
 * what the table says when s divides k; the header says which the costs are).  After each P,
 * the largest speedup over every integer k/t in LO..HI and where it lies, found by branch and
 * bound (sanders_fig3_max: exact, not sampled).  Exit 0, or 2 on a usage error. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algos/algo.h"
#include "../algos/sanders/autotune.h"
#include "../engine/sim.h"
#include "../engine/num.h"
#include "cli-opts.h"
#include "cli-table.h"
#include "cli-out.h"
#include "commands.h"

static void tradeoff_help(void)
{
    puts("usage: meshcast tradeoff [--p P[,P...]] [--kt LO:HI] [--points N] [--verify]\n"
         "Sanders & Sibeyn's Fig. 3: chain, binary tree and the best fractional tree on full:P\n"
         "(postal, t = beta = 1) for k/t = LO, 4LO, ... HI (default 4:1048576), and the speedup\n"
         "of the fractional tree over the better of the two.  Default P: 64,1024,16384.\n"
         "--points N: N values of k/t evenly spaced on a log scale (the Chart panel's curves)\n"
         "--verify builds and simulates every winner (slow for big P).  After each P: the\n"
         "largest speedup over every integer k/t in LO..HI and where, by branch and bound.");
}

static double simulate(const char *name, int64_t P, uint64_t k, int64_t r, int64_t s)
{
    char spec[32], err[256];
    snprintf(spec, sizeof spec, "full:%lld", (long long)P);
    Net *net = net_parse(spec, err, sizeof err);
    const AlgoDef *d = net ? algo_find(name, net) : NULL;
    double c = -1;
    if (d) {
        AlgoArgs a;
        algo_args_init(&a, d);
        a.bytes = k;
        cost_defaults(&a.cost, COST_POSTAL);
        for (int i = 0; i < d->nparams; i++)
            a.param[i] = strcmp(d->params[i].name, "r") == 0 ? (double)r : (double)s;
        Sched *sc = algo_build(d, net, &a, err, sizeof err);
        Sim *sim = sc ? sim_run(sc, &a.cost, 0, err, sizeof err) : NULL;
        if (sim && sim_totals(sim)->verified && sim_totals(sim)->valid)
            c = sim_totals(sim)->cost.total;
        sim_free(sim);
        sched_free(sc);
    }
    net_free(net);
    return c;
}

int cmd_tradeoff(int argc, char **argv)
{
    int64_t Ps[8] = { 64, 1024, 16384 };
    int nP = 3;
    uint64_t lo = 4, hi = 1 << 20;
    bool verify = false;
    int points = 0;   /* --points N: N values of k/t on a log scale (else LO, 4LO, ...) */
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            tradeoff_help();
            return 0;
        } else if (!strcmp(argv[i], "--verify")) {
            verify = true;
        } else if (!strcmp(argv[i], "--p") && i + 1 < argc) {
            nP = 0;
            for (const char *p = argv[++i], *end = p; *p && nP < 8; p = *end ? end + 1 : end) {
                uint64_t v = 0;   /* num.h's one rule */
                NumStatus ns = num_u64(p, &v, &end);
                if (ns != NUM_OK || v < 3 || v > (1 << 20) || (*end && *end != ',')) {
                    cli_error("tradeoff: bad --p '%s': P in 3..1048576, comma separated",
                              argv[i]);
                    return 2;
                }
                Ps[nP++] = v;
            }
        } else if (!strcmp(argv[i], "--points") && i + 1 < argc) {
            uint64_t v = 0;
            if (num_u64(argv[++i], &v, NULL) != NUM_OK || v < 2 || v > 4096) {
                cli_error("tradeoff: bad --points '%s': N in 2..4096", argv[i]);
                return 2;
            }
            points = (int)v;
        } else if (!strcmp(argv[i], "--kt") && i + 1 < argc) {
            uint64_t a = 0, b = 0;   /* num.h's one rule: LO:HI */
            const char *end = argv[++i];
            bool ok = num_u64(end, &a, &end) == NUM_OK && *end == ':' &&
                      num_u64(end + 1, &b, NULL) == NUM_OK;
            if (!ok || a < 1 || b < a || b > (1ull << 30)) {
                cli_error("tradeoff: bad --kt '%s': LO:HI with 1 <= LO <= HI <= 2^30", argv[i]);
                return 2;
            }
            lo = a;
            hi = b;
        } else {
            char hint[96];
            cli_error("tradeoff: unexpected argument '%s'%s (meshcast tradeoff --help)", argv[i],
                      cli_opt_hint(cli_command_find("tradeoff")->opts, argv[i], hint, sizeof hint));
            return 2;
        }
    }
    CostParams p;
    cost_defaults(&p, COST_POSTAL);
    printf("Sanders & Sibeyn Fig. 3: full:P, postal duplex, t = beta = 1 (T in units of t)\n");
    printf(verify ? "costs: simulated (each winner built and run on full:P)\n"
                  : "costs: formula (exact step count x (t + beta*ceil(k/s)); equal to the "
                    "simulation when s divides k; --verify simulates)\n");
    for (int q = 0; q < nP; q++) {
        int64_t P = Ps[q];
        printf("\nP = %lld\n%10s %12s %6s %12s %6s %12s %5s %6s %8s\n", (long long)P, "k/t",
               "chain", "s", "bintree", "s", "fractional", "r", "s", "speedup");
        uint64_t grid[4096];
        int ng = 0;
        if (points)
            ng = sanders_fig3_grid(lo, hi, points, grid);
        else
            for (uint64_t k = lo; ng < 4096; k *= 4) {
                grid[ng++] = k;
                if (k > hi / 4)
                    break;
            }
        for (int g = 0; g < ng; g++) {
            uint64_t k = grid[g];
            SandersFig3 f;
            sanders_fig3_point(P, k, &p, &f);
            int64_t sc = f.s_chain, sb = f.s_bin, sf = f.s_frac, rf = f.r_frac;
            double tc = f.chain, tb = f.bintree, tf = f.frac;
            if (verify) {
                tc = simulate("chain", P, k, 1, sc);
                tb = simulate("bintree", P, k, 1, sb);
                tf = simulate("fractional", P, k, rf, sf);
            }
            double best2 = tc < tb ? tc : tb;
            char rt[16];
            snprintf(rt, sizeof rt, rf >= (1 << 20) ? "inf" : "%lld", (long long)rf);
            printf("%10llu %12.10g %6lld %12.10g %6lld %12.10g %5s %6lld %8.3f\n",
                   (unsigned long long)k, tc, (long long)sc, tb, (long long)sb, tf, rt,
                   (long long)sf, best2 / tf);
        }
        /* the largest speedup over every integer k/t in the range, by branch and bound */
        SandersFig3Max mx;
        sanders_fig3_max(P, lo, hi, &p, &mx);
        const SandersFig3 *f = &mx.at;
        char rt[16];
        snprintf(rt, sizeof rt, f->r_frac >= (1 << 20) ? "inf" : "%lld", (long long)f->r_frac);
        printf("largest speedup over every integer k/t in %llu..%llu: %.4f at k/t = %llu "
               "(chain %.10g s=%lld, bintree %.10g s=%lld, fractional %.10g r=%s s=%lld; "
               "branch and bound, %llu values of k/t priced)\n",
               (unsigned long long)lo, (unsigned long long)hi, f->speedup,
               (unsigned long long)mx.k, f->chain, (long long)f->s_chain, f->bintree,
               (long long)f->s_bin, f->frac, rt, (long long)f->s_frac,
               (unsigned long long)mx.evaluated);
    }
    return cli_out_finish(0);
}
