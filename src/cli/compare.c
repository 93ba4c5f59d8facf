/* compare.c — `meshcast compare`: every applicable built-in algorithm across message sizes.
 *
 *   meshcast compare --net SPEC [--bytes LO:HI] [--source S] [--model M] [--set K=V]...
 *                    [--fit F] [--json|--csv]
 *
 * Sizes are LO, 2*LO, 4*LO, ... up to HI (and HI itself if the doubling misses it); default
 * 8:65536, Seidel's Figures 16-18.  Every built-in that runs on the net's kind and accepts the
 * arguments (algo_check) is built, simulated and priced at every size; the table shows the
 * *simulated* cost (a cell marked '*' differs from the paper's closed form).  Then:
 *   - the winner at every size (cheapest verified and valid schedule; a tie goes to the first
 *     in table order);
 *   - the crossovers: every change of winner, and every change of order between two of the
 *     Table I classics (st, bst, rh, st-simple), as "bst beats st from 512 bytes".  Between two sampled
 *     sizes the exact first byte count is found by bisection on the simulated costs (assuming
 *     a single crossing inside the interval, which holds for costs linear in m).
 *
 * --set: a cost parameter applies to every algorithm; an algorithm parameter to those that
 * have it; a name neither knows is a usage error.
 * Cells: '*' the simulated cost differs from the closed form; '!' the schedule breaks the
 * model's rules (a price is shown but it cannot win); '#' the schedule is wrong (not verified).
 * Exit: 0 if every schedule was verified, 1 if one was wrong or a build failed, 2 usage.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algos/goal/goal.h"
#include "../engine/export.h"
#include "../engine/sim.h"
#include "cli-opts.h"
#include "cli-out.h"
#include "commands.h"
#include "compare-exec.h"
#include "compare-terms.h"
#include "exec-opts.h"
#include "../script/script.h"

/* Work budget, in node-builds (a build and simulation of one algorithm at one size costs
 * about its net's node count; RH on mesh:1024x1024 takes ~4 s).  Sizes x algorithms x nodes
 * over it is refused before anything is built (8:65536 on mesh:1024x1024 took 56 s and 1 GB);
 * the bisections get as much again: one that would take them over it is not done, and its
 * crossover is reported between its two sampled sizes only, with a note.  Nets up to 65536
 * nodes fit 8 algorithms x 14 sizes. */
#define WORK_BUDGET 8388608ull
/* compare --exec's work budget, in rank-runs: each launch runs one rank per node, and there are
 * algorithms x sizes launches for the table and, with --bisect, up to CMPX_MAX_BISECT_RUNS
 * more; (algorithms x sizes + those) x nodes over it is refused before anything is built or
 * launched (mesh:1024x1024 would start 2^20 ranks a launch).  64 nodes fit 10 algorithms at
 * 14 sizes with 64 bisection runs many times over; 1024 nodes fit 192 table runs. */
#define EXEC_BUDGET 262144ull
#define COMPARE_MAXNAMED 32   /* --algo a,b,FILE.lua,...: at most this many names */
#define MAXSIZES 66   /* 1:2^64-1 is 1, 2, 4, ... 2^63 and HI: 65 sizes */

typedef struct {
    const AlgoDef *def;
    AlgoArgs args;
    double cost[MAXSIZES];
    double pred[MAXSIZES];
    bool has_pred[MAXSIZES];
    bool ok[MAXSIZES];         /* verified and valid */
    bool verified[MAXSIZES];
    int32_t steps[MAXSIZES];
    bool failed;
    char why[256];
} Entry;

typedef struct {
    const char *winner, *loser;
    uint64_t after, from, exact;   /* loser still wins at `after`; winner from `from` */
} Crossover;

typedef struct {
    Net *net;
    int32_t source;
    CostParams cost;
    Entry *e;
    size_t ne;
    uint64_t size[MAXSIZES];
    int nsizes;
    Crossover *x;
    size_t nx;
    size_t nx_cap;
    uint64_t bisect_work;   /* node-builds spent bisecting (WORK_BUDGET) */
    bool unbisected;    /* a crossover was left between its sampled sizes */
    AlgoDef *owned[COMPARE_MAXNAMED];   /* the scripts named by --algo (algo_release) */
    size_t nowned;
} Cmp;

static void compare_help(void)
{
    puts("usage: meshcast compare --net SPEC [--algo A,B,FILE.lua,...] [--bytes LO:HI]\n"
         "                        [--source S] [--model M] [--set K=V]... [--fit F]\n"
         "                        [--json|--csv]\n"
         "                        [--terms] [--timing lockstep|async|both]\n"
         "                        [--map FILE]  (with a GOAL file in --algo)\n"
         "       meshcast compare --exec --net SPEC [--algo A,B,...] [--bytes LO:HI]\n"
         "                        [--reps R] [--np N] [--mpirun 'CMD'] [--hostfile F]\n"
         "                        [--timeout SEC] [--timing lockstep|async] [--bisect N]\n"
         "                        [--json|--csv]\n"
         "                        (every algorithm run on MPI ranks at every size: measured\n"
         "                        beside predicted, and both crossovers, the measured one\n"
         "                        bisected on real runs, at most N steps, default 3)"
         "       meshcast compare --by tcd --net SPEC [--source S] [--json]\n"
         "       meshcast compare --net SPEC --algo A,B,... --sweep PARAM=LO:HI [--json]\n"
         "                        (each algorithm's cost at every value of PARAM)\n"
         "                        (every algorithm ranked by total communication distance)\n"
         "Runs every built-in algorithm that fits the net at message sizes LO, 2LO, ... HI\n"
         "(default 8:65536), prints the simulated costs, the winner at every size and the\n"
         "crossovers (\"bst beats st from 402 bytes\").  Sizes x algorithms x nodes over\n"
         "8388608 is refused (one size fits mesh:1024x1024); crossovers whose bisection\n"
         "would take as much again are left between their sampled sizes, with a note.\n"
         "--algo A,B,FILE.lua,FILE.goal: only those (built-in names, scripts, GOAL files;\n"
         "'all' = every built-in that fits); naming only scripts and GOAL files sets them\n"
         "beside every built-in that fits.\n"
         "--terms (or --timing async|both): at the first size only, every algorithm's\n"
         "start-ups, switched hops and L*tau multiples against Proposition 1's lower bounds\n"
         "(Peters & Syska's Table 1, measured), timed in lockstep, async or both.");
}

static bool parse_range(const char *text, uint64_t *lo, uint64_t *hi)
{
    char buf[64];
    const char *colon = strchr(text, ':');
    if (!colon)
        return setup_parse_bytes(text, lo) && (*hi = *lo, true);
    size_t n = (size_t)(colon - text);
    if (n == 0 || n >= sizeof buf)
        return false;
    memcpy(buf, text, n);
    buf[n] = '\0';
    return setup_parse_bytes(buf, lo) && setup_parse_bytes(colon + 1, hi) && *lo <= *hi;
}

static bool has_param(const AlgoDef *d, const char *name)
{
    for (int i = 0; i < d->nparams && i < ALGO_MAXPARAM; i++)
        if (strcmp(d->params[i].name, name) == 0)
            return true;
    return false;
}

/* Build and simulate e's algorithm at `bytes`.  Returns false (reason in err) if it could not
 * be built. */
static bool eval(Cmp *c, Entry *e, uint64_t bytes, double *cost, bool *ok, bool *verified,
                 int32_t *steps, double *pred, bool *has_pred, char *err, size_t errlen)
{
    AlgoArgs a = e->args;
    a.bytes = bytes;
    Sched *s = algo_build(e->def, c->net, &a, err, errlen);
    if (!s)
        return false;
    Sim *sim = sim_run(s, &c->cost, 0, err, errlen);
    if (!sim) {
        sched_free(s);
        return false;
    }
    const SimTotals *t = sim_totals(sim);
    *cost = t->cost.total;
    *ok = t->verified && t->valid;
    if (verified)
        *verified = t->verified;
    if (steps)
        *steps = t->nsteps;
    if (pred)   /* a closed form that overflows is none */
        *has_pred = algo_predict(e->def, c->net, &a, &c->cost, pred) && isfinite(*pred);
    sim_free(sim);
    sched_free(s);
    if (pred && !*has_pred && algo_predict_error(e->def)) {   /* predict raised */
        snprintf(err, errlen, "%s", algo_predict_error(e->def));
        return false;
    }
    return true;
}

static double cost_at(Cmp *c, Entry *e, uint64_t bytes, bool *fine)
{
    double v;
    bool ok;
    char err[256];
    if (!eval(c, e, bytes, &v, &ok, NULL, NULL, NULL, NULL, err, sizeof err) || !ok) {
        *fine = false;
        return INFINITY;
    }
    return v;
}

/* Smallest m in (lo, hi] with cost(w, m) < cost(l, m), given that it holds at hi. */
static uint64_t bisect(Cmp *c, Entry *w, Entry *l, uint64_t lo, uint64_t hi)
{
    bool fine = true;
    while (hi - lo > 1 && fine) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (cost_at(c, w, mid, &fine) < cost_at(c, l, mid, &fine))
            hi = mid;
        else
            lo = mid;
    }
    return fine ? hi : 0;
}

static int winner_at(const Cmp *c, int k)
{
    int best = -1;
    for (size_t i = 0; i < c->ne; i++) {
        const Entry *e = &c->e[i];
        if (e->failed || !e->ok[k])
            continue;
        if (best < 0 || e->cost[k] < c->e[best].cost[k])
            best = (int)i;
    }
    return best;
}

static bool add_crossover(Cmp *c, Entry *w, Entry *l, int k)
{
    for (size_t i = 0; i < c->nx; i++)
        if (c->x[i].winner == w->def->name && c->x[i].loser == l->def->name &&
            c->x[i].from == c->size[k])
            return true;
    if (c->nx == c->nx_cap) {
        size_t cap = c->nx_cap ? 2 * c->nx_cap : 16;
        Crossover *x = realloc(c->x, cap * sizeof *x);
        if (!x)
            return false;
        c->x = x;
        c->nx_cap = cap;
    }
    Crossover *x = &c->x[c->nx++];
    x->winner = w->def->name;
    x->loser = l->def->name;
    x->after = c->size[k - 1];
    x->from = c->size[k];
    /* bisection: about log2(hi - lo) steps of two builds each, within the work budget */
    uint64_t lo = c->size[k - 1], hi = c->size[k], steps = 0;
    for (uint64_t d = hi - lo; d > 1; d = (d + 1) / 2)
        steps++;
    uint64_t cost = 2 * steps * (uint64_t)net_size(c->net);
    if (c->bisect_work + cost > WORK_BUDGET) {
        x->exact = 0;
        c->unbisected = true;
    } else {
        c->bisect_work += cost;
        x->exact = bisect(c, w, l, lo, hi);
    }
    return true;
}

/* Where does b start beating a (and a start beating b)? */
static bool pair_crossovers(Cmp *c, Entry *a, Entry *b)
{
    for (int k = 1; k < c->nsizes; k++) {
        if (!a->ok[k] || !b->ok[k] || !a->ok[k - 1] || !b->ok[k - 1])
            continue;
        if (b->cost[k] < a->cost[k] && !(b->cost[k - 1] < a->cost[k - 1])) {
            if (!add_crossover(c, b, a, k))
                return false;
        } else if (a->cost[k] < b->cost[k] && !(a->cost[k - 1] < b->cost[k - 1])) {
            if (!add_crossover(c, a, b, k))
                return false;
        }
    }
    return true;
}

/* Table I's broadcasts: st, bst, rh, and the simple mesh ST of eq. 3 (Section 6's "ST gives
 * way to BST between 512 and 1K bytes" holds for it: docs/errata.md). */
static bool is_classic(const char *name)
{
    return strcmp(name, "st") == 0 || strcmp(name, "bst") == 0 || strcmp(name, "rh") == 0 ||
           strcmp(name, "st-simple") == 0;
}

static bool find_crossovers(Cmp *c)
{
    for (int k = 1; k < c->nsizes; k++) {
        int w0 = winner_at(c, k - 1), w1 = winner_at(c, k);
        if (w0 >= 0 && w1 >= 0 && w0 != w1 && c->e[w0].ok[k] &&
            !add_crossover(c, &c->e[w1], &c->e[w0], k))
            return false;
    }
    for (size_t i = 0; i < c->ne; i++)
        for (size_t j = i + 1; j < c->ne; j++)
            if (!c->e[i].failed && !c->e[j].failed && is_classic(c->e[i].def->name) &&
                is_classic(c->e[j].def->name) && !pair_crossovers(c, &c->e[i], &c->e[j]))
                return false;
    return true;
}

static bool differs(double sim, double pred)
{
    return fabs(sim - pred) > 1e-9 * fmax(1, fabs(pred));
}

static void crossover_text(const Crossover *x, char *buf, size_t len)
{
    if (x->exact)
        snprintf(buf, len, "%s beats %s from %llu bytes (sampled: %s wins at %llu, %s at %llu)",
                 x->winner, x->loser, (unsigned long long)x->exact, x->loser,
                 (unsigned long long)x->after, x->winner, (unsigned long long)x->from);
    else
        snprintf(buf, len, "%s beats %s from %llu bytes (%s still wins at %llu)", x->winner,
                 x->loser, (unsigned long long)x->from, x->loser, (unsigned long long)x->after);
}

static void print_text(const Cmp *c)
{
    char b[64];
    printf("compare on %s, source %s, model %s (", net_spec(c->net),
           net_node_name(c->net, c->source, b, sizeof b), cost_model_name(c->cost.model));
    cli_print_params(&c->cost);
    printf("); simulated cost in %s\n\n", cost_unit(c->cost.model));

    /* Column widths: 8 for bytes and 12 for a cost (number and mark), wider where a value
     * needs it — a cell never cuts a number. */
    int bw = 8;
    for (int k = 0; k < c->nsizes; k++) {
        int n = snprintf(b, sizeof b, "%llu", (unsigned long long)c->size[k]);
        if (n > bw)
            bw = n;
    }
    int *cw = calloc(c->ne ? c->ne : 1, sizeof *cw);
    for (size_t i = 0; cw && i < c->ne; i++) {
        const Entry *e = &c->e[i];
        cw[i] = 12;
        if ((int)strlen(e->def->name) > cw[i])
            cw[i] = (int)strlen(e->def->name);
        for (int k = 0; k < c->nsizes && !e->failed; k++) {
            int n = (int)strlen(export_format_double(e->cost[k], b, sizeof b)) + 1;
            if (n > cw[i])
                cw[i] = n;
        }
    }
    printf("%*s", bw, "bytes");
    for (size_t i = 0; i < c->ne; i++)
        if (!c->e[i].failed)
            printf(" %*s", cw ? cw[i] : 25, c->e[i].def->name);
    printf("  winner\n");
    bool marked = false, bad = false, wrong = false;
    for (int k = 0; k < c->nsizes; k++) {
        printf("%*llu", bw, (unsigned long long)c->size[k]);
        for (size_t i = 0; i < c->ne; i++) {
            const Entry *e = &c->e[i];
            if (e->failed)
                continue;
            char cell[80];
            export_format_double(e->cost[k], b, sizeof b);
            const char *mark = !e->verified[k] ? "#"
                               : !e->ok[k] ? "!"
                               : e->has_pred[k] && differs(e->cost[k], e->pred[k]) ? "*"
                                                                                    : " ";
            marked |= mark[0] == '*';
            bad |= mark[0] == '!';
            wrong |= mark[0] == '#';
            snprintf(cell, sizeof cell, "%s%s", b, mark);
            printf(" %*s", cw ? cw[i] : 25, cell);
        }
        int w = winner_at(c, k);
        printf("  %s\n", w >= 0 ? c->e[w].def->name : "-");
    }
    free(cw);
    if (marked)
        printf("(* simulated cost differs from the paper's closed form: meshcast run ... "
               "shows both)\n");
    if (bad)
        printf("(! the schedule violates the %s model: not a candidate for winner)\n",
               cost_model_name(c->cost.model));
    if (wrong)
        printf("(# the schedule is WRONG: not every node ends with every chunk, or a node "
               "sent what it did not hold)\n");

    printf("\nwinners:");
    int start = 0;
    for (int k = 1; k <= c->nsizes; k++) {
        if (k < c->nsizes && winner_at(c, k) == winner_at(c, start))
            continue;
        int w = winner_at(c, start);
        printf("%s %s for %llu", start ? "," : "", w >= 0 ? c->e[w].def->name : "none",
               (unsigned long long)c->size[start]);
        if (k - 1 > start)
            printf("..%llu", (unsigned long long)c->size[k - 1]);
        printf(" bytes");
        start = k;
    }
    printf("\ncrossovers:\n");
    if (c->nx == 0)
        printf("  none in this range\n");
    for (size_t i = 0; i < c->nx; i++) {
        char line[256];
        crossover_text(&c->x[i], line, sizeof line);
        printf("  %s\n", line);
    }
    if (c->unbisected)
        printf("(some crossovers are not bisected to the exact byte: %ld nodes x the "
               "bisection steps is over compare's work budget; a smaller net or range finds "
               "them)\n", (long)net_size(c->net));
    for (size_t i = 0; i < c->ne; i++)
        if (c->e[i].failed)
            printf("not run: %s (%s)\n", c->e[i].def->name, c->e[i].why);
}

static void print_json(const Cmp *c)
{
    JsonOut j;
    json_init(&j, stdout, false);
    json_begin_object(&j);
    cli_json_head(&j, c->net, c->source, &c->cost);
    json_key(&j, "sizes");
    json_begin_array(&j);
    for (int k = 0; k < c->nsizes; k++)
        json_uint(&j, c->size[k]);
    json_end_array(&j);
    json_key(&j, "algorithms");
    json_begin_array(&j);
    for (size_t i = 0; i < c->ne; i++) {
        const Entry *e = &c->e[i];
        json_begin_object(&j);
        json_key(&j, "name");
        json_str(&j, e->def->name);
        if (e->failed) {
            json_key(&j, "error");
            json_str(&j, e->why);
            json_end_object(&j);
            continue;
        }
        json_key(&j, "cost");
        json_begin_array(&j);
        for (int k = 0; k < c->nsizes; k++)
            json_num(&j, e->cost[k]);
        json_end_array(&j);
        json_key(&j, "predicted");
        json_begin_array(&j);
        for (int k = 0; k < c->nsizes; k++)
            if (e->has_pred[k])
                json_num(&j, e->pred[k]);
            else
                json_null(&j);
        json_end_array(&j);
        json_key(&j, "steps");
        json_begin_array(&j);
        for (int k = 0; k < c->nsizes; k++)
            json_int(&j, e->steps[k]);
        json_end_array(&j);
        json_key(&j, "verified");
        json_begin_array(&j);
        for (int k = 0; k < c->nsizes; k++)
            json_bool(&j, e->verified[k]);
        json_end_array(&j);
        json_key(&j, "ok");
        json_begin_array(&j);
        for (int k = 0; k < c->nsizes; k++)
            json_bool(&j, e->ok[k]);
        json_end_array(&j);
        json_end_object(&j);
    }
    json_end_array(&j);
    json_key(&j, "winners");
    json_begin_array(&j);
    for (int k = 0; k < c->nsizes; k++) {
        int w = winner_at(c, k);
        json_str(&j, w >= 0 ? c->e[w].def->name : NULL);
    }
    json_end_array(&j);
    json_key(&j, "crossovers");
    json_begin_array(&j);
    for (size_t i = 0; i < c->nx; i++) {
        char line[256];
        json_begin_object(&j);
        json_key(&j, "winner");
        json_str(&j, c->x[i].winner);
        json_key(&j, "loser");
        json_str(&j, c->x[i].loser);
        json_key(&j, "after");
        json_uint(&j, c->x[i].after);
        json_key(&j, "from");
        json_uint(&j, c->x[i].from);
        json_key(&j, "exact");
        if (c->x[i].exact)
            json_uint(&j, c->x[i].exact);
        else
            json_null(&j);
        json_key(&j, "text");
        crossover_text(&c->x[i], line, sizeof line);
        json_str(&j, line);
        json_end_object(&j);
    }
    json_end_array(&j);
    json_end_object(&j);
}

static void print_csv(const Cmp *c)
{
    char b[64];
    puts("bytes,algo,cost,predicted,steps,ok,winner");
    for (int k = 0; k < c->nsizes; k++) {
        int w = winner_at(c, k);
        for (size_t i = 0; i < c->ne; i++) {
            const Entry *e = &c->e[i];
            if (e->failed)
                continue;
            printf("%llu,", (unsigned long long)c->size[k]);
            csv_field(stdout, e->def->name);
            printf(",%s,", export_format_double(e->cost[k], b, sizeof b));
            if (e->has_pred[k])
                fputs(export_format_double(e->pred[k], b, sizeof b), stdout);
            printf(",%ld,%d,%d\n", (long)e->steps[k], e->ok[k] ? 1 : 0, w == (int)i ? 1 : 0);
        }
    }
}

/* Collect the applicable algorithms and apply the settings.  Returns 0 or 2 (message in
 * err). */
/* One algorithm's entry at c->e[c->ne] (not counted yet): its arguments from the options.
 * False with why when it does not run on the net or with these settings. */
static bool add_entry(Cmp *c, const CliOpts *o, const AlgoDef *d, int32_t source, AlgoFit fit,
                      char *why, size_t whylen)
{
    Entry *e = &c->e[c->ne];
    memset(e, 0, sizeof *e);
    e->def = d;
    algo_args_init(&e->args, d);
    /* a GOAL file broadcasts from its own source (goal.h) */
    e->args.source = goal_is_algo(d) ? goal_algo_source(d) : source;
    e->args.fit = fit;
    e->args.nu = c->cost.nu;
    e->args.cost = c->cost;
    for (size_t s = 0; s < o->nsets; s++) {
        const char *kv = o->sets[s], *eq = strchr(kv, '=');
        char name[64];
        size_t n = (size_t)(eq - kv);
        memcpy(name, kv, n);
        name[n] = '\0';
        if (has_param(d, name) && algo_args_set(&e->args, d, name, eq + 1, why, whylen) == -2)
            return false;   /* a value out of this algorithm's range: not applicable */
    }
    e->args.bytes = c->size[0];
    return algo_check(d, c->net, &e->args, why, whylen);
}

/* --algo a,b,FILE.lua,...: built-in names (resolved on the net), "all", and scripts (loaded
 * once, kept in c->owned). */
static int named_algos(Cmp *c, const char *list, const char *map, const AlgoDef **cand,
                       size_t *ncand, bool *all, bool *any_builtin, char *err, size_t errlen)
{
    char buf[1024];
    if (strlen(list) >= sizeof buf) {
        snprintf(err, errlen, "--algo: the list is too long");
        return 2;
    }
    snprintf(buf, sizeof buf, "%s", list);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (strcmp(tok, "all") == 0) {
            *all = *any_builtin = true;
            continue;
        }
        if (*ncand == COMPARE_MAXNAMED) {
            snprintf(err, errlen, "--algo: at most %d names", COMPARE_MAXNAMED);
            return 2;
        }
        AlgoDef *own = NULL;
        const AlgoDef *d = goal_is_path(tok) ? own = goal_algo(tok, c->net, map, err, errlen)
                                             : script_algo(tok, c->net, &own, err, errlen);
        if (!d)
            return 2;
        if (own)
            c->owned[c->nowned++] = own;
        else
            *any_builtin = true;
        for (size_t k = 0; k < *ncand; k++)
            if (cand[k] == d) {
                snprintf(err, errlen, "--algo names %s twice", d->name);
                return 2;
            }
        cand[(*ncand)++] = d;
    }
    if (*ncand == 0 && !*all) {
        snprintf(err, errlen, "--algo: no algorithm named");
        return 2;
    }
    return 0;
}

static int collect(Cmp *c, const CliOpts *o, char *err, size_t errlen)
{
    int rc;
    c->e = calloc(algo_count() + COMPARE_MAXNAMED, sizeof *c->e);
    if (!c->e) {
        snprintf(err, errlen, "out of memory");
        return 2;
    }
    /* The candidates: every built-in (none named, "all" named, or only scripts named: they
     * are set beside every built-in that fits), then the named ones; a named one that does
     * not run here is an error saying why, an unnamed built-in is left out quietly. */
    const AlgoDef *cand[COMPARE_MAXNAMED];
    size_t ncand = 0;
    bool all = !o->algo, any_builtin = false;
    if (o->map && !o->algo) {
        snprintf(err, errlen, "--map applies to a GOAL file (--algo FILE.goal)");
        return 2;
    }
    if (o->algo && (rc = named_algos(c, o->algo, o->map, cand, &ncand, &all, &any_builtin,
                                     err, errlen)) != 0)
        return rc;
    if (o->algo && !any_builtin)
        all = true;
    /* Validate the settings once: every name must be a cost or some algorithm's parameter. */
    for (size_t s = 0; s < o->nsets; s++) {
        const char *kv = o->sets[s], *eq = strchr(kv, '=');
        if (!eq || eq == kv || !eq[1]) {
            snprintf(err, errlen, "bad --set '%s': expected NAME=VALUE", kv);
            return 2;
        }
        char name[64];
        size_t n = (size_t)(eq - kv);
        if (n >= sizeof name) {
            snprintf(err, errlen, "bad --set '%.40s...': name too long", kv);
            return 2;
        }
        memcpy(name, kv, n);
        name[n] = '\0';
        bool known = false;
        if (cost_is_param(name)) {
            if (!cost_set(&c->cost, name, eq + 1, err, errlen))
                return 2;
            known = true;
        }
        for (size_t i = 0; i < algo_count() && !known; i++)
            known = has_param(algo_at(i), name);
        for (size_t i = 0; i < ncand && !known; i++)
            known = has_param(cand[i], name);
        if (!known) {
            snprintf(err, errlen, "unknown setting '%s' (neither a cost parameter nor a "
                     "parameter of any algorithm)", name);
            return 2;
        }
    }
    int32_t source = 0;
    if (o->source) {
        source = net_parse_node(c->net, o->source);
        c->source = source;
        if (source < 0) {
            snprintf(err, errlen, "bad source '%s' for %s (nodes 0..%ld, or R,C coordinates)",
                     o->source, net_spec(c->net), (long)net_size(c->net) - 1);
            return 2;
        }
    }
    AlgoFit fit = FIT_AUTO;
    if (o->fit && !algo_fit_parse(o->fit, &fit)) {
        snprintf(err, errlen, "unknown fit '%s' (companions, virtual, none, auto)", o->fit);
        return 2;
    }
    for (size_t i = 0; all && i < algo_count(); i++) {
        const AlgoDef *d = algo_at(i);
        /* s-to-p algorithms are compared by compare --sources (compare_stop.c) */
        if (!(d->nets & (1u << net_kind(c->net))) || (d->flags & (ALGO_STOP | ALGO_SEARCH)))
            continue;
        bool dup = false;
        for (size_t k = 0; k < c->ne; k++)
            dup |= strcmp(c->e[k].def->name, d->name) == 0;
        for (size_t k = 0; k < ncand; k++)
            dup |= strcmp(cand[k]->name, d->name) == 0;
        if (dup)
            continue;
        char why[256];
        if (add_entry(c, o, d, source, fit, why, sizeof why))
            c->ne++;
    }
    for (size_t k = 0; k < ncand; k++) {
        char why[256];
        if (cand[k]->flags & ALGO_STOP) {
            snprintf(err, errlen, "%s is an s-to-p algorithm: meshcast compare --sources SPEC "
                     "--algo %s", cand[k]->name, cand[k]->name);
            return 2;
        }
        if (!add_entry(c, o, cand[k], source, fit, why, sizeof why)) {
            snprintf(err, errlen, "%s does not run here: %s", cand[k]->name, why);
            return 2;
        }
        c->ne++;
    }
    err[0] = '\0';
    if (c->ne == 0) {
        snprintf(err, errlen, "no algorithm runs on %s with these settings",
                 net_spec(c->net));
        return 2;
    }
    return 0;
}

/* --exec and its options (exec-opts.h, and --bisect N) out of argv.  Returns -1 or the exit
 * status of a usage error. */
static int take_exec(int *argc, char **argv, bool *exec, ExecOpts *eo, CmpExecOpts *xo)
{
    int out = 0;
    const char *bis = NULL;
    for (int i = 0; i < *argc; i++) {
        if (strcmp(argv[i], "--exec") == 0)
            *exec = true;
        else if (strcmp(argv[i], "--bisect") == 0 && i + 1 < *argc)
            bis = argv[++i];
        else if (strncmp(argv[i], "--bisect=", 9) == 0)
            bis = argv[i] + 9;
        else
            argv[out++] = argv[i];
    }
    *argc = out;
    if (!*exec)
        return bis ? cli_usage_error("--bisect goes with --exec") : -1;
    xo->bisect = 3;
    if (bis && !exec_opts_int(bis, 0, 64, &xo->bisect))
        return cli_usage_error("--bisect takes 0..64 steps");
    return exec_opts_take(argc, argv, 0, eo);
}

/* compare --exec's work budget (EXEC_BUDGET): refuse at once, with what would fit, launches
 * that would start more ranks than that in all.  bis: the bisection runs that may follow.
 * Returns 0, or the usage error's exit status. */
static int exec_within_budget(const Cmp *c, uint64_t bis)
{
    uint64_t nodes = (uint64_t)net_size(c->net);
    uint64_t runs = (uint64_t)c->ne * (uint64_t)c->nsizes + bis;
    if (nodes * runs <= EXEC_BUDGET)
        return 0;
    char err[600], over[200];
    uint64_t per = EXEC_BUDGET / nodes;                   /* launches that fit */
    uint64_t fit = per > bis ? (per - bis) / c->ne : 0;   /* sizes that fit */
    uint64_t fit0 = per / c->ne;                          /* ... with --bisect 0 */
    uint64_t k = fit ? fit : fit0;
    snprintf(over, sizeof over, "compare --exec: %s: (%d size%s x %zu algorithm%s + %llu bisection "
             "runs) x %llu ranks is over the work budget of %llu rank-runs", net_spec(c->net),
             c->nsizes, c->nsizes == 1 ? "" : "s", c->ne, c->ne == 1 ? "" : "s",
             (unsigned long long)bis, (unsigned long long)nodes, (unsigned long long)EXEC_BUDGET);
    if (k == 0)
        snprintf(err, sizeof err, "%s; not one size fits: use meshcast exec --algo NAME on it, "
                 "fewer algorithms (--algo A,B), or a smaller net", over);
    else if (k >= (uint64_t)c->nsizes)   /* (only without the bisections: fit < nsizes) */
        snprintf(err, sizeof err, "%s; with --bisect 0 it fits", over);
    else
        snprintf(err, sizeof err, "%s; %sat most %llu size%s fit (e.g. --bytes %llu:%llu), or "
                 "compare fewer algorithms or a smaller net", over, fit ? "" : "with --bisect 0 ",
                 (unsigned long long)k, k == 1 ? "" : "s", (unsigned long long)c->size[0],
                 (unsigned long long)c->size[k - 1]);
    return cli_usage_error(err);
}

/* compare --exec: the collected algorithms at the sampled sizes, on MPI ranks. */
static int run_exec(Cmp *c, const CliOpts *o, ExecOpts *eo, CmpExecOpts *xo)
{
    int rc;
    if (o->terms)
        return cli_usage_error("--terms and --exec do not go together");
    if ((rc = exec_opts_finish(eo, o->timing)) >= 0 ||
        (rc = exec_opts_np(eo, (int)net_size(c->net))) >= 0)
        return rc;
    /* (bisections only between two algorithms' crossovers) */
    if ((rc = exec_within_budget(c, xo->bisect > 0 && c->ne > 1 ? CMPX_MAX_BISECT_RUNS : 0)) != 0)
        return rc;
    CmpExecAlgo *a = calloc(c->ne, sizeof *a);
    if (!a) {
        cli_error("out of memory");
        return 1;
    }
    for (size_t i = 0; i < c->ne; i++) {
        a[i].def = c->e[i].def;
        a[i].args = c->e[i].args;
    }
    xo->l = eo->l;
    xo->json = o->json;
    xo->csv = o->csv;
    rc = compare_exec(c->net, &c->cost, c->source, a, c->ne, c->size, c->nsizes, xo);
    free(a);
    return rc;
}

/* The net, the cost model and profile, and the sizes: LO, 2LO, 4LO, ... and HI itself if
 * the doubling misses it.  Returns 0, or the usage error's exit status. */
static int compare_setup(Cmp *c, const CliOpts *o, char *err, size_t errlen)
{
    c->net = net_parse(o->net, err, errlen);
    if (!c->net)
        return cli_usage_error(err[0] ? err : "bad net");
    CostModel model = COST_SEIDEL;
    if (o->model && !cost_model_parse(o->model, &model)) {
        snprintf(err, errlen, "unknown model '%s' (seidel, postal, circuit, saf)", o->model);
        return cli_usage_error(err);
    }
    cost_defaults(&c->cost, model);
    if (!setup_profile(o->profile, &c->cost, err, errlen))
        return cli_usage_error(err);
    uint64_t lo = 8, hi = 65536;
    if (o->bytes && !parse_range(o->bytes, &lo, &hi)) {
        snprintf(err, errlen, "bad byte range '%s': expected LO:HI with 1 <= LO <= HI, "
                 "e.g. 8:65536 or 8:64K", o->bytes);
        return cli_usage_error(err);
    }
    /* m > hi/2 is exactly 2m > hi, tested without computing 2m (which could wrap past
     * UINT64_MAX). */
    for (uint64_t m = lo; c->nsizes < MAXSIZES; m *= 2) {
        c->size[c->nsizes++] = m;
        if (m >= hi)
            break;
        if (m > hi / 2) {
            if (c->nsizes < MAXSIZES)
                c->size[c->nsizes++] = hi;
            break;
        }
    }
    return 0;
}

/* --terms / --timing async|both: Peters & Syska's Table 1, measured, at the first size. */
static int compare_terms_of(const Cmp *c, const CliOpts *o, unsigned timing)
{
    if (o->csv)
        return cli_usage_error("--terms and --timing async|both print text or --json, not --csv");
    if ((uint64_t)net_size(c->net) * c->ne > WORK_BUDGET)
        return cli_usage_error("net too big for compare --terms (work budget)");
    const AlgoDef *defs[64];
    AlgoArgs args[64];
    size_t nd = 0;
    for (size_t i = 0; i < c->ne && nd < 64; i++, nd++) {
        defs[nd] = c->e[i].def;
        args[nd] = c->e[i].args;
    }
    int rc = compare_terms(c->net, &c->cost, defs, args, nd, c->source,
                           (const char *const *)o->sets, o->nsets, o->bytes ? c->size[0] : 1024,
                           timing ? timing : TERMS_LOCKSTEP, o->json);
    return cli_out_finish(rc);
}

/* The work budget: refuse at once what would take minutes and gigabytes.  Returns 0, or
 * the usage error's exit status. */
static int within_budget(const Cmp *c, char *err, size_t errlen)
{
    uint64_t nodes = (uint64_t)net_size(c->net), builds = (uint64_t)c->ne * (uint64_t)c->nsizes;
    if (nodes * builds <= WORK_BUDGET)
        return 0;
    uint64_t fit = WORK_BUDGET / (nodes * c->ne);
    if (fit == 0)
        snprintf(err, errlen, "%s has %llu nodes: too big for compare, which builds "
                 "%zu algorithms at every size (work budget %llu node-builds); use "
                 "meshcast run --algo NAME on it, or compare a smaller net", net_spec(c->net),
                 (unsigned long long)nodes, c->ne, (unsigned long long)WORK_BUDGET);
    else
        snprintf(err, errlen, "%s: %d sizes x %zu algorithms x %llu nodes is over "
                 "compare's work budget (%llu node-builds); give at most "
                 "%llu size%s (e.g. --bytes %llu:%llu) or compare a smaller net",
                 net_spec(c->net), c->nsizes, c->ne, (unsigned long long)nodes,
                 (unsigned long long)WORK_BUDGET, (unsigned long long)fit,
                 fit == 1 ? "" : "s", (unsigned long long)c->size[0],
                 (unsigned long long)c->size[fit - 1]);
    return cli_usage_error(err);
}

/* Every algorithm at every size.  Returns 0 all verified, 1 some schedule wrong or not
 * run, 2 settings too large to price (said on stderr: nothing to compare). */
static int eval_all(Cmp *c)
{
    int rc = 0;
    for (size_t i = 0; i < c->ne; i++) {
        Entry *e = &c->e[i];
        for (int k = 0; k < c->nsizes && !e->failed; k++)
            if (!eval(c, e, c->size[k], &e->cost[k], &e->ok[k], &e->verified[k],
                      &e->steps[k], &e->pred[k], &e->has_pred[k], e->why, sizeof e->why)) {
                if (strstr(e->why, SIM_NOT_FINITE)) {
                    /* settings too large to price: nothing to compare, no winner named */
                    cli_error("%s at %llu bytes: %s", e->def->name, (unsigned long long)c->size[k], e->why);
                    return 2;
                }
                e->failed = true;
                rc = 1;
            } else if (!e->verified[k]) {
                rc = 1;   /* a wrong schedule; one that merely breaks the model is marked */
            }
    }
    return rc;
}

/* compare after its options: the net and sizes, the algorithms, then --exec, --terms or
 * the table over the sizes with its crossovers. */
static int compare_run(Cmp *c, const CliOpts *o, bool exec, ExecOpts *eo, CmpExecOpts *xo)
{
    char err[512] = "";
    int rc;
    if (!o->net)
        return cli_usage_error("missing --net SPEC (e.g. --net array:16)");
    if ((rc = compare_setup(c, o, err, sizeof err)) != 0)
        return rc;
    if ((rc = collect(c, o, err, sizeof err)) != 0) {
        cli_usage_error(err);
        return rc;
    }
    if (exec)
        return run_exec(c, o, eo, xo);
    unsigned timing = 0;
    if (o->timing && (timing = strcmp(o->timing, "lockstep") == 0 ? TERMS_LOCKSTEP
                               : strcmp(o->timing, "async") == 0  ? TERMS_ASYNC
                               : strcmp(o->timing, "both") == 0   ? TERMS_LOCKSTEP | TERMS_ASYNC
                                                                  : 0) == 0)
        return cli_usage_error("unknown --timing (lockstep, async, both)");
    if (o->terms || (timing & TERMS_ASYNC))
        return compare_terms_of(c, o, timing);
    if ((rc = within_budget(c, err, sizeof err)) != 0)
        return rc;
    rc = eval_all(c);
    if (rc == 2)
        return rc;
    if (!find_crossovers(c)) {
        cli_error("out of memory");
        return 1;
    }
    if (o->json)
        print_json(c);
    else if (o->csv)
        print_csv(c);
    else
        print_text(c);
    return cli_out_finish(rc);
}

int cmd_compare(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)   /* s-to-p: the paper's figures (compare_stop.c) */
        if (strcmp(argv[i], "--sources") == 0)
            return cmd_compare_stop(argc, argv);
    for (int i = 0; i < argc; i++)   /* Sanders & Sibeyn's tradeoff (compare_sweep.c) */
        if (strcmp(argv[i], "--sweep") == 0 || strncmp(argv[i], "--sweep=", 8) == 0)
            return cmd_compare_sweep(argc, argv);
    CliOpts o;
    Cmp c;
    memset(&c, 0, sizeof c);
    CmpExecOpts xo;
    ExecOpts eo;
    memset(&xo, 0, sizeof xo);
    memset(&eo, 0, sizeof eo);
    bool exec = false;
    int rc = take_exec(&argc, argv, &exec, &eo, &xo);
    if (rc >= 0)
        return rc;
    rc = cli_opts_begin(argc, argv,
                            OPT_NET | OPT_ALGO | OPT_SOURCE | OPT_BYTES | OPT_MODEL | OPT_SET | OPT_PROFILE | OPT_FIT |
                                OPT_JSON | OPT_CSV | OPT_TIMING | OPT_TERMS | OPT_SOURCES | OPT_BY | OPT_MAP,
                            &o, compare_help);
    if (rc >= 0)
        return rc;
    if (o.by) {   /* Cang & Wu: rank by total communication distance (compare_tcd.c) */
        if (strcmp(o.by, "tcd") != 0)
            rc = cli_usage_error("bad --by: only 'tcd' (rank by total communication distance)");
        else if (!o.net)
            rc = cli_usage_error("missing --net SPEC (e.g. --net mesh:8x8)");
        else
            rc = compare_by_tcd(&o);
        cli_opts_free(&o);
        return rc;
    }
    rc = compare_run(&c, &o, exec, &eo, &xo);
    for (size_t i = 0; i < c.nowned; i++)
        algo_release(c.owned[i]);
    free(c.e);
    free(c.x);
    if (c.net)
        net_free(c.net);
    cli_opts_free(&o);
    return rc;
}
