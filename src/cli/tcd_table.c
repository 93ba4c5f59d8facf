/* tcd_table.c — `meshcast tcd-table`: the TCD of one algorithm from every source, as a grid
 * (Cang & Wu's Fig. 2, computed: the paper's tables are not in our copy).  Every entry is a
 * built and simulated broadcast; one that is not time-step optimal is marked '*'.  For
 * tcd-opt on a net of at most 16 nodes the exact search's proof is re-checked and reported.
 * tcd-opt searches once per orbit of the net's symmetries (cangwu.h) and maps that schedule
 * onto the orbit's other sources (each mapped schedule is simulated again).  `--vs NAME[:K=V,
 * ...]` makes a second table and counts where the first is lower, higher or equal, in sources
 * and in orbits.  Progress goes to stderr when it is a terminal. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../algos/cangwu/cangwu.h"
#include "../engine/progress.h"
#include "../engine/tso.h"
#include "cli-opts.h"
#include "commands.h"

static void table_help(void)
{
    puts("usage: meshcast tcd-table --net SPEC [--algo tcd|tcd-opt|NAME] [--set K=V]...\n"
         "                          [--vs NAME[:K=V,...]]\n"
         "The total communication distance (TCD) of the algorithm from every source, as a\n"
         "grid on a 2-D net (one line per node otherwise); '*' marks a broadcast that is not\n"
         "time-step optimal.  Then the least entry, where it is, and the eyes.  tcd-opt on at\n"
         "most 16 nodes re-checks its proof of optimality; on larger nets it searches once per\n"
         "orbit of the net's symmetries, within a work budget.  --vs: a second algorithm's\n"
         "table (e.g. --vs tcd:literal=1), and how many sources and orbits (under the net's\n"
         "symmetries: 8 on a square) the first is lower, higher or equal at.  Default --algo\n"
         "tcd.  Progress on stderr when it is a terminal.\n"
         "Exit: 0, 1 if a build failed or a proof did not check, 2 usage error.");
}

/* "K=V" into a; 0, or 2 after a usage error. */
static int set_one(const AlgoDef *d, AlgoArgs *a, const char *kv, size_t len)
{
    char key[64], val[64], err[256];
    const char *eq = memchr(kv, '=', len);
    size_t kl = eq ? (size_t)(eq - kv) : 0, vl = eq ? len - kl - 1 : 0;
    if (!eq || kl == 0 || kl >= sizeof key || vl >= sizeof val)
        return cli_usage_error("bad --set: want NAME=VALUE");
    memcpy(key, kv, kl);
    key[kl] = '\0';
    memcpy(val, eq + 1, vl);
    val[vl] = '\0';
    int r = algo_args_set(a, d, key, val, err, sizeof err);
    if (r == -1)
        snprintf(err, sizeof err, "%s has no parameter '%.40s'", d->name, key);
    return r != 0 ? cli_usage_error(err) : 0;
}

typedef struct {
    const AlgoDef *d;
    AlgoArgs a;
    char label[160];   /* "tcd-opt" or "tcd literal=1" */
    int64_t *tcd;
    bool *ok;
    int64_t best;
} Table;

static bool is_opt(const AlgoDef *d) { return strcmp(d->name, "tcd-opt") == 0; }

/* tcd-opt's work: orbits searched x moves x (N/2)^2 (a move re-solves assignments of up to
 * N/2 x N/2 by one augmenting path each).  The 16x16 table at the default moves is 8.8e11 (a
 * quarter of an hour of one core here); 8x8x8 or array:512 at the default are refused. */
#define TABLE_WORK_BUDGET 1e12

static int within_budget(const Table *t, const Net *net)
{
    int32_t n = net_size(net);
    if (!is_opt(t->d) || n <= 16)
        return 0;
    bool cf = algo_param(t->d, &t->a, "cf") != 0;
    long orbits = 0;
    for (int32_t s = 0; s < n; s++)
        orbits += cangwu_orbit_rep(net, s, cf, NULL) == s;
    double moves = algo_param(t->d, &t->a, "moves"), unit = (double)n * n / 4;
    double work = (double)orbits * moves * unit;
    if (work <= TABLE_WORK_BUDGET)
        return 0;
    char err[320];
    snprintf(err, sizeof err, "%s on %s searches %ld orbits of %.0f moves on %ld nodes (%.2g "
             "work), over tcd-table's budget of %.2g: --set moves=%.0f fits", t->label,
             net_spec(net), orbits, moves, (long)n, work, TABLE_WORK_BUDGET,
             TABLE_WORK_BUDGET / ((double)orbits * unit));
    return cli_usage_error(err);
}

/* The progress line (stderr, a terminal only): which source, how far its search is. */
typedef struct {
    Progress prog;
    atomic_int source, searched, stop;
    int32_t n;
    const char *label;
} Ticker;

static void *ticker_main(void *arg)
{
    Ticker *k = arg;
    while (!atomic_load(&k->stop)) {
        struct timespec ts = {0, 250000000L};
        nanosleep(&ts, NULL);
        long long done = atomic_load(&k->prog.done), total = atomic_load(&k->prog.total);
        char how[48] = "";
        if (atomic_load(&k->prog.phase) == PROGRESS_BUILD && total > 0)
            snprintf(how, sizeof how, ", search %lld%%", done * 100 / total);
        fprintf(stderr, "\rtcd-table: %s, source %d of %ld (%d searched)%s   ", k->label,
                atomic_load(&k->source) + 1, (long)k->n, atomic_load(&k->searched), how);
    }
    fprintf(stderr, "\r%78s\r", "");
    return NULL;
}

/* Build and simulate from every source into t.  0, or 1 with a message. */
static int fill(Table *t, const Net *net)
{
    char err[512];
    int32_t n = net_size(net);
    bool tty = isatty(2), sym = is_opt(t->d) && n > 16;
    bool cf = sym && algo_param(t->d, &t->a, "cf") != 0;
    Sched **rep = sym ? calloc((size_t)n, sizeof *rep) : NULL;
    t->tcd = calloc((size_t)n, sizeof *t->tcd);
    t->ok = calloc((size_t)n, sizeof *t->ok);
    if (!t->tcd || !t->ok || (sym && !rep)) {
        free(rep);
        cli_error("out of memory");
        return 1;
    }
    CostParams p;
    cost_defaults(&p, COST_SEIDEL);
    t->best = -1;
    int rc = 0;
    int32_t searched = 0;
    Ticker tk = {.n = n, .label = t->label};
    pthread_t th;
    bool ticking = false;
    if (tty && (sym || n > 64)) {
        progress_init(&tk.prog);
        progress_attach(&tk.prog);
        ticking = pthread_create(&th, NULL, ticker_main, &tk) == 0;
    }
    for (int32_t s = 0; s < n && rc == 0; s++) {
        atomic_store(&tk.source, s);
        atomic_store(&tk.searched, searched);
        Sched *sc = NULL;
        int g = 0;
        int32_t r = sym ? cangwu_orbit_rep(net, s, cf, &g) : s;
        if (sym && !rep[r]) {
            t->a.source = r;
            rep[r] = algo_build(t->d, net, &t->a, err, sizeof err);
            searched++;
            if (!rep[r]) {
                cli_error("%s", err);
                rc = 1;
                break;
            }
        }
        if (sym) {
            sc = sched_new(net, 1, t->a.bytes);
            if (!sc || !sched_give(sc, s, 0, 1) || !cangwu_sched_map(rep[r], g, sc)) {
                cli_error("%s from %ld: %s", t->d->name, (long)s,
                          sc && sched_error(sc) ? sched_error(sc) : "out of memory");
                sched_free(sc);
                rc = 1;
                break;
            }
        } else {
            t->a.source = s;
            sc = algo_build(t->d, net, &t->a, err, sizeof err);
        }
        Sim *sim = sc ? sim_run(sc, &p, 0, err, sizeof err) : NULL;
        if (!sim) {
            cli_error("%s", err);
            sched_free(sc);
            rc = 1;
            break;
        }
        TsoVerdict v;
        tso_check(sim, &v);
        t->tcd[s] = sim_totals(sim)->tcd;
        t->ok[s] = v.optimal;
        if (v.optimal && (t->best < 0 || t->tcd[s] < t->best))
            t->best = t->tcd[s];
        sim_free(sim);
        sched_free(sc);
    }
    if (ticking) {
        atomic_store(&tk.stop, 1);
        pthread_join(th, NULL);
    }
    if (tty && (sym || n > 64))
        progress_attach(NULL);
    for (int32_t s = 0; rep && s < n; s++)
        sched_free(rep[s]);
    free(rep);
    return rc;
}

static void print_table(const Table *t, const Net *net)
{
    int32_t n = net_size(net);
    printf("TCD of %s on %s from every source%s\n", t->label, net_spec(net),
           net_ndim(net) == 2 ? " (row r, column c)" : "");
    if (net_ndim(net) == 2) {
        int32_t R = net_dim(net, 0), C = net_dim(net, 1);
        for (int32_t r = 0; r < R; r++) {
            for (int32_t c = 0; c < C; c++)
                printf("%6lld%s", (long long)t->tcd[r * C + c], t->ok[r * C + c] ? " " : "*");
            printf("\n");
        }
    } else {
        for (int32_t s = 0; s < n; s++) {
            char nb[64];
            printf("%-12s %lld%s\n", net_node_name(net, s, nb, sizeof nb),
                   (long long)t->tcd[s], t->ok[s] ? "" : " *");
        }
    }
    printf("least: %lld at", (long long)t->best);
    for (int32_t s = 0; s < n; s++)
        if (t->tcd[s] == t->best && t->ok[s]) {
            char nb[64];
            printf(" %s%s", net_node_name(net, s, nb, sizeof nb),
                   cangwu_is_eye(net, s) ? "(eye)" : "");
        }
    printf("\n");
}

/* "vs LABEL: lower at .. sources (.. orbits), higher at .., equal at .." */
static void print_vs(const Table *t, const Table *u, const Net *net)
{
    int32_t n = net_size(net);
    int nsym = 0;
    for (int g = 0; g < CANGWU_NSYMS; g++)
        nsym += cangwu_sym_valid(net, g, false);
    int32_t cnt[3] = {0, 0, 0}, orb[3] = {0, 0, 0}, norb = 0;
    /* orbit flags, indexed by the orbit's representative */
    unsigned char *f = calloc((size_t)n, 1);
    if (!f) {
        cli_error("out of memory");
        return;
    }
    for (int32_t s = 0; s < n; s++) {
        int k = t->tcd[s] < u->tcd[s] ? 0 : t->tcd[s] > u->tcd[s] ? 1 : 2;
        cnt[k]++;
        f[cangwu_orbit_rep(net, s, false, NULL)] |= (unsigned char)(1u << k | 8u);
    }
    for (int32_t s = 0; s < n; s++) {
        norb += (f[s] & 8) != 0;
        for (int k = 0; k < 3; k++)
            orb[k] += (f[s] >> k) & 1;
    }
    free(f);
    printf("vs %s: %s lower at %ld of %ld sources (%ld of %ld orbits under the net's %d "
           "symmetries), higher at %ld (%ld orbits), equal at %ld (%ld orbits)\n",
           u->label, t->label, (long)cnt[0], (long)n, (long)orb[0], (long)norb, nsym,
           (long)cnt[1], (long)orb[1], (long)cnt[2], (long)orb[2]);
}

static int setup(Table *t, const char *name, const Net *net)
{
    char err[256];
    t->d = algo_find(name, net);
    if (!t->d) {
        snprintf(err, sizeof err, "no built-in algorithm '%.40s' runs on %s", name,
                 net_spec(net));
        return cli_usage_error(err);
    }
    algo_args_init(&t->a, t->d);
    snprintf(t->label, sizeof t->label, "%s", t->d->name);
    return 0;
}

static int finish_setup(Table *t, const Net *net)
{
    char err[512];
    if (!algo_check(t->d, net, &t->a, err, sizeof err))
        return cli_usage_error(err);
    return 0;
}

static void add_label(Table *t, const char *kv, size_t len)
{
    size_t l = strlen(t->label);
    snprintf(t->label + l, sizeof t->label - l, " %.*s", (int)len, kv);
}

int cmd_tcd_table(int argc, char **argv)
{
    CliOpts o;
    int st = cli_opts_begin(argc, argv, OPT_NET | OPT_ALGO | OPT_SET | OPT_PROFILE | OPT_VS, &o,
                              table_help);
    if (st >= 0)
        return st;
    char err[512];
    int rc = 0;
    Net *net = NULL;
    Table t = {0}, u = {0};
    if (!o.net) {
        rc = cli_usage_error("missing --net SPEC (e.g. --net mesh:8x8)");
        goto out;
    }
    net = net_parse(o.net, err, sizeof err);
    if (!net) {
        rc = cli_usage_error(err);
        goto out;
    }
    if ((rc = setup(&t, o.algo ? o.algo : "tcd", net)) != 0)
        goto out;
    for (size_t i = 0; i < o.nsets; i++) {
        if ((rc = set_one(t.d, &t.a, o.sets[i], strlen(o.sets[i]))) != 0)
            goto out;
        add_label(&t, o.sets[i], strlen(o.sets[i]));
    }
    if ((rc = finish_setup(&t, net)) != 0)
        goto out;
    if (o.vs) {
        char name[64];
        const char *colon = strchr(o.vs, ':');
        size_t nl = colon ? (size_t)(colon - o.vs) : strlen(o.vs);
        if (nl == 0 || nl >= sizeof name) {
            rc = cli_usage_error("bad --vs: want NAME[:K=V,...]");
            goto out;
        }
        memcpy(name, o.vs, nl);
        name[nl] = '\0';
        if ((rc = setup(&u, name, net)) != 0)
            goto out;
        for (const char *kv = colon ? colon + 1 : NULL; kv && *kv;) {
            const char *comma = strchr(kv, ',');
            size_t len = comma ? (size_t)(comma - kv) : strlen(kv);
            if ((rc = set_one(u.d, &u.a, kv, len)) != 0)
                goto out;
            add_label(&u, kv, len);
            kv = comma ? comma + 1 : NULL;
        }
        if ((rc = finish_setup(&u, net)) != 0)
            goto out;
    }
    if ((rc = within_budget(&t, net)) != 0 || (u.d && (rc = within_budget(&u, net)) != 0))
        goto out;
    if ((rc = fill(&t, net)) != 0)
        goto out;
    print_table(&t, net);
    int32_t n = net_size(net);
    if (is_opt(t.d) && n <= 16) {
        CangwuExact *x = cangwu_exact_new(net, algo_param(t.d, &t.a, "cf") != 0, err,
                                          sizeof err);
        int64_t checked = 0;
        if (!x || !cangwu_exact_check(x, &checked, err, sizeof err)) {
            printf("proof: FAILED: %s\n", err);
            rc = 1;
        } else {
            bool same = true;
            for (int32_t s = 0; s < n; s++)
                same = same && cangwu_exact_value(x, s) == t.tcd[s];
            printf("proof: re-checked %lld inequalities over %lld informed sets: every entry "
                   "is the least TCD of any time-step optimal broadcast%s\n",
                   (long long)checked, (long long)cangwu_exact_states(x),
                   same ? "" : " (BUT the schedules differ from the table)");
            if (!same)
                rc = 1;
        }
        cangwu_exact_free(x);
    }
    if (u.d) {
        int r2 = fill(&u, net);
        if (r2 != 0) {
            rc = r2;
            goto out;
        }
        print_table(&u, net);
        print_vs(&t, &u, net);
    }
out:
    free(t.tcd);
    free(t.ok);
    free(u.tcd);
    free(u.ok);
    net_free(net);
    cli_opts_free(&o);
    return rc;
}
