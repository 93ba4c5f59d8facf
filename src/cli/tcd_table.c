/* tcd_table.c — `meshcast tcd-table`: the TCD of one algorithm from every source, as a grid
 * (Cang & Wu's Fig. 2, computed: the paper's tables are not in our copy).  Every entry is a
 * built and simulated broadcast; one that is not time-step optimal is marked '*'.  For
 * tcd-opt on a net of at most 16 nodes the exact search's proof is re-checked and reported. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algos/cangwu/cangwu.h"
#include "../engine/tso.h"
#include "cli-opts.h"
#include "commands.h"

static void table_help(void)
{
    puts("usage: meshcast tcd-table --net SPEC [--algo tcd|tcd-opt|NAME] [--set K=V]...\n"
         "The total communication distance (TCD) of the algorithm from every source, as a\n"
         "grid on a 2-D net (one line per node otherwise); '*' marks a broadcast that is not\n"
         "time-step optimal.  Then the least entry, where it is, and the eyes.  tcd-opt on at\n"
         "most 16 nodes re-checks its proof of optimality.  Default --algo tcd.\n"
         "Exit: 0, 1 if a build failed or a proof did not check, 2 usage error.");
}

int cmd_tcd_table(int argc, char **argv)
{
    CliOpts o;
    int st = cli_opts_begin(argc, argv, OPT_NET | OPT_ALGO | OPT_SET | OPT_PROFILE, &o, table_help);
    if (st >= 0)
        return st;
    char err[512];
    int rc = 0;
    Net *net = NULL;
    int64_t *tcd = NULL;
    bool *ok = NULL;
    if (!o.net) {
        rc = cli_usage_error("missing --net SPEC (e.g. --net mesh:8x8)");
        goto out;
    }
    net = net_parse(o.net, err, sizeof err);
    if (!net) {
        rc = cli_usage_error(err);
        goto out;
    }
    const char *name = o.algo ? o.algo : "tcd";
    const AlgoDef *d = algo_find(name, net);
    if (!d) {
        snprintf(err, sizeof err, "no built-in algorithm '%.40s' runs on %s", name,
                 net_spec(net));
        rc = cli_usage_error(err);
        goto out;
    }
    AlgoArgs a;
    algo_args_init(&a, d);
    for (size_t i = 0; i < o.nsets; i++) {
        char key[64];
        const char *eq = strchr(o.sets[i], '=');
        size_t kl = eq ? (size_t)(eq - o.sets[i]) : 0;
        if (!eq || kl == 0 || kl >= sizeof key) {
            rc = cli_usage_error("bad --set: want NAME=VALUE");
            goto out;
        }
        memcpy(key, o.sets[i], kl);
        key[kl] = '\0';
        int r = algo_args_set(&a, d, key, eq + 1, err, sizeof err);
        if (r == -1)
            snprintf(err, sizeof err, "%s has no parameter '%.40s'", d->name, key);
        if (r != 0) {
            rc = cli_usage_error(err);
            goto out;
        }
    }
    if (!algo_check(d, net, &a, err, sizeof err)) {
        rc = cli_usage_error(err);
        goto out;
    }
    int32_t n = net_size(net);
    tcd = calloc((size_t)n, sizeof *tcd);
    ok = calloc((size_t)n, sizeof *ok);
    if (!tcd || !ok) {
        cli_error("out of memory");
        rc = 1;
        goto out;
    }
    CostParams p;
    cost_defaults(&p, COST_SEIDEL);
    int64_t best = -1;
    for (int32_t s = 0; s < n; s++) {
        a.source = s;
        Sched *sc = algo_build(d, net, &a, err, sizeof err);
        Sim *sim = sc ? sim_run(sc, &p, 0, err, sizeof err) : NULL;
        if (!sim) {
            cli_error("%s", err);
            sched_free(sc);
            rc = 1;
            goto out;
        }
        TsoVerdict v;
        tso_check(sim, &v);
        tcd[s] = sim_totals(sim)->tcd;
        ok[s] = v.optimal;
        if (v.optimal && (best < 0 || tcd[s] < best))
            best = tcd[s];
        sim_free(sim);
        sched_free(sc);
    }
    printf("TCD of %s on %s from every source%s\n", d->name, net_spec(net),
           net_ndim(net) == 2 ? " (row r, column c)" : "");
    if (net_ndim(net) == 2) {
        int32_t R = net_dim(net, 0), C = net_dim(net, 1);
        for (int32_t r = 0; r < R; r++) {
            for (int32_t c = 0; c < C; c++)
                printf("%6lld%s", (long long)tcd[r * C + c], ok[r * C + c] ? " " : "*");
            printf("\n");
        }
    } else {
        for (int32_t s = 0; s < n; s++) {
            char nb[64];
            printf("%-12s %lld%s\n", net_node_name(net, s, nb, sizeof nb), (long long)tcd[s],
                   ok[s] ? "" : " *");
        }
    }
    printf("least: %lld at", (long long)best);
    for (int32_t s = 0; s < n; s++)
        if (tcd[s] == best && ok[s]) {
            char nb[64];
            printf(" %s%s", net_node_name(net, s, nb, sizeof nb),
                   cangwu_is_eye(net, s) ? "(eye)" : "");
        }
    printf("\n");
    if (strcmp(d->name, "tcd-opt") == 0 && n <= 16) {
        CangwuExact *x = cangwu_exact_new(net, algo_param(d, &a, "cf") != 0, err, sizeof err);
        int64_t checked = 0;
        if (!x || !cangwu_exact_check(x, &checked, err, sizeof err)) {
            printf("proof: FAILED: %s\n", err);
            rc = 1;
        } else {
            bool same = true;
            for (int32_t s = 0; s < n; s++)
                same = same && cangwu_exact_value(x, s) == tcd[s];
            printf("proof: re-checked %lld inequalities over %lld informed sets: every entry "
                   "is the least TCD of any time-step optimal broadcast%s\n",
                   (long long)checked, (long long)cangwu_exact_states(x),
                   same ? "" : " (BUT the schedules differ from the table)");
            if (!same)
                rc = 1;
        }
        cangwu_exact_free(x);
    }
out:
    free(tcd);
    free(ok);
    net_free(net);
    cli_opts_free(&o);
    return rc;
}
