/* compare-exec.c — `meshcast compare --exec` (compare-exec.h): measured and predicted costs
 * and crossovers side by side. */
#include "compare-exec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/export.h"
#include "../engine/schedbin.h"
#include "../engine/sim-async.h"
#include "../engine/sim.h"
#include "cli-opts.h"
#include "cli-out.h"

typedef struct {
    double meas, spread, pred;   /* measured median and spread (us); the model's price */
    bool verified;               /* the simulator verifies the schedule (and the run did) */
} Cell;

/* A crossover: `winner` is cheaper than `loser` at `from`, not at `after`.  Measured: the
 * bracket left after `steps` bisection steps (`runs` launches) inside [s_after, s_from]. */
typedef struct {
    const char *winner, *loser;
    uint64_t s_after, s_from, after, from;
    int steps, runs;
    bool unbisected;   /* over CMPX_MAX_BISECT_RUNS: left between its sampled sizes */
} XOver;

typedef struct {
    XOver *v;
    size_t n, cap;
} XList;

typedef struct {
    const Net *net;
    const CostParams *cost;
    int32_t source;
    const CmpExecAlgo *a;
    size_t na;
    const uint64_t *size;
    int nsizes;
    const CmpExecOpts *o;
    Cell *cell;        /* na x nsizes, algorithm-major */
    XList xp, xm;      /* predicted and measured crossovers */
    int table_runs, bisect_runs;
    char launcher[512];
} CX;

static Cell *cell(const CX *c, size_t i, int k)
{
    return &c->cell[i * (size_t)c->nsizes + (size_t)k];
}

/* Build and simulate algorithm a at `bytes`: *s (caller frees) and its price.  Returns 0, or 1
 * with a line printed when it cannot be built. */
static int price(const CX *c, const CmpExecAlgo *a, uint64_t bytes, Sched **s, double *pred,
                 bool *verified)
{
    char err[256];
    AlgoArgs args = a->args;
    args.bytes = bytes;
    args.async = c->o->l.async;
    *s = algo_build(a->def, c->net, &args, err, sizeof err);
    Sim *sim = *s ? sim_run(*s, c->cost, c->o->l.async ? SIM_ASYNC : 0, err, sizeof err) : NULL;
    if (!sim) {
        cli_error("compare --exec: %s at %llu bytes: %s", a->def->name,
                  (unsigned long long)bytes, err);
        sched_free(*s);
        *s = NULL;
        return 1;
    }
    *verified = sim_totals(sim)->verified;
    *pred = sim_totals(sim)->cost.total;
    SimAsync *as = c->o->l.async ? sim_async_take(sim, err, sizeof err) : NULL;
    if (as)
        *pred = sim_async_total(as);
    sim_async_free(as);
    sim_free(sim);
    return 0;
}

/* Run a's schedule at `bytes` on the ranks: median and spread of the total, in us.  Returns
 * 0, or exec_launch's 1/2 (and 1 for a schedule the simulator refuses) with a line printed. */
static int measure(CX *c, const CmpExecAlgo *a, uint64_t bytes, Cell *out)
{
    Sched *s;
    if (price(c, a, bytes, &s, &out->pred, &out->verified))
        return 1;
    if (!out->verified) {
        cli_error("compare --exec: %s at %llu bytes: refused before launch, the simulator "
                  "does not verify the schedule (meshcast run shows where)", a->def->name,
                  (unsigned long long)bytes);
        sched_free(s);
        return 1;
    }
    ExecResult x;
    memset(&x, 0, sizeof x);
    char err[512];
    int rc = exec_launch(s, SCHEDBIN_BROADCAST, (uint32_t)a->args.source, &c->o->l, &x, err,
                         sizeof err);
    sched_free(s);
    if (rc) {
        cli_error("compare --exec: %s at %llu bytes: %s", a->def->name,
                  (unsigned long long)bytes, err);
        exec_result_free(&x);
        return rc;
    }
    snprintf(c->launcher, sizeof c->launcher, "%s", x.launcher);
    for (int r = 0; r < x.reps; r++)
        x.total[r] *= 1e6;
    out->meas = exec_median(x.total, x.reps);
    out->spread = x.total[x.reps - 1] - x.total[0];
    exec_result_free(&x);
    return 0;
}

static XOver *xadd(XList *l)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 8;
        XOver *v = realloc(l->v, cap * sizeof *v);
        if (!v)
            return NULL;
        l->v = v;
        l->cap = cap;
    }
    XOver *x = &l->v[l->n++];
    memset(x, 0, sizeof *x);
    return x;
}

/* Bisect x's bracket: on the model (measured false: to the byte) or on real runs (at most
 * o->bisect steps, within CMPX_MAX_BISECT_RUNS).  Returns 0 or a failed run's status. */
static int bisect(CX *c, XOver *x, const CmpExecAlgo *w, const CmpExecAlgo *l, bool measured)
{
    while (x->from - x->after > 1) {
        if (measured && x->steps >= c->o->bisect)
            break;
        if (measured && c->bisect_runs + 2 > CMPX_MAX_BISECT_RUNS) {
            x->unbisected = true;
            break;
        }
        uint64_t mid = x->after + (x->from - x->after) / 2;
        Cell cw, cl;
        if (measured) {
            int rc = measure(c, w, mid, &cw);
            if (!rc)
                rc = measure(c, l, mid, &cl);
            if (rc)
                return rc;
            c->bisect_runs += 2;
            x->runs += 2;
        } else {
            Sched *s1, *s2;
            if (price(c, w, mid, &s1, &cw.pred, &cw.verified))
                return 1;
            sched_free(s1);
            if (price(c, l, mid, &s2, &cl.pred, &cl.verified))
                return 1;
            sched_free(s2);
        }
        x->steps++;
        bool wins = measured ? cw.meas < cl.meas : cw.pred < cl.pred;
        *(wins ? &x->from : &x->after) = mid;
    }
    return 0;
}

/* Every change of order between two algorithms from one sampled size to the next, bisected. */
static int crossovers(CX *c, bool measured)
{
    for (size_t i = 0; i < c->na; i++)
        for (size_t j = 0; j < c->na; j++)
            for (int k = 1; k < c->nsizes && i != j; k++) {
                const Cell *w0 = cell(c, i, k - 1), *w1 = cell(c, i, k);
                const Cell *l0 = cell(c, j, k - 1), *l1 = cell(c, j, k);
                double a0 = measured ? w0->meas : w0->pred, a1 = measured ? w1->meas : w1->pred;
                double b0 = measured ? l0->meas : l0->pred, b1 = measured ? l1->meas : l1->pred;
                if (!(a1 < b1) || a0 < b0)
                    continue;
                XOver *x = xadd(measured ? &c->xm : &c->xp);
                if (!x) {
                    cli_error("out of memory");
                    return 1;
                }
                x->winner = c->a[i].def->name;
                x->loser = c->a[j].def->name;
                x->s_after = x->after = c->size[k - 1];
                x->s_from = x->from = c->size[k];
                int rc = bisect(c, x, &c->a[i], &c->a[j], measured);
                if (rc)
                    return rc;
            }
    return 0;
}

static int winner(const CX *c, int k, bool measured)
{
    int best = -1;
    for (size_t i = 0; i < c->na; i++) {
        double v = measured ? cell(c, i, k)->meas : cell(c, i, k)->pred;
        if (best < 0 || v < (measured ? cell(c, (size_t)best, k)->meas
                                      : cell(c, (size_t)best, k)->pred))
            best = (int)i;
    }
    return best;
}

static void xtext(const XOver *x, bool measured, int reps, char *buf, size_t len)
{
    if (!measured)
        snprintf(buf, len, "predicted: %s beats %s from %llu bytes (bisected on the model "
                 "between %llu and %llu)", x->winner, x->loser, (unsigned long long)x->from,
                 (unsigned long long)x->s_after, (unsigned long long)x->s_from);
    else if (x->from - x->after == 1)
        snprintf(buf, len, "measured:  %s beats %s from %llu bytes (%d bisection runs of %d "
                 "reps)", x->winner, x->loser, (unsigned long long)x->from, x->runs, reps);
    else
        snprintf(buf, len, "measured:  %s beats %s between %llu and %llu bytes (%d bisection "
                 "runs of %d reps%s)", x->winner, x->loser, (unsigned long long)x->after + 1,
                 (unsigned long long)x->from, x->runs, reps,
                 x->unbisected ? "; the bisection budget was spent" : "");
}

static void print_text(const CX *c)
{
    char b[64], b2[64];
    const char *unit = cost_unit(c->cost->model);
    printf("compare --exec on %s, source %s, %d ranks, %s; model %s (", net_spec(c->net),
           net_node_name(c->net, c->source, b, sizeof b), c->o->l.np,
           c->o->l.async ? "async" : "lockstep", cost_model_name(c->cost->model));
    cli_print_params(c->cost);
    printf(")\nlauncher: %s\n", c->launcher);
    printf("measured: median of %d runs after a warm-up, us, every run verified (each rank "
           "ended with the right bytes); predicted: the model's price, %s\n\n", c->o->l.reps,
           unit);
    printf("%10s", "bytes");
    for (size_t i = 0; i < c->na; i++) {
        snprintf(b, sizeof b, "%s meas", c->a[i].def->name);
        snprintf(b2, sizeof b2, "%s pred", c->a[i].def->name);
        printf(" %12s %12s", b, b2);
    }
    printf("  winner meas/pred\n");
    for (int k = 0; k < c->nsizes; k++) {
        printf("%10llu", (unsigned long long)c->size[k]);
        for (size_t i = 0; i < c->na; i++) {
            printf(" %12s", export_format_double(cell(c, i, k)->meas, b, sizeof b));
            printf(" %12s", export_format_double(cell(c, i, k)->pred, b, sizeof b));
        }
        printf("  %s/%s\n", c->a[winner(c, k, true)].def->name,
               c->a[winner(c, k, false)].def->name);
    }
    printf("\ncrossovers (predicted | measured):\n");
    if (c->xp.n == 0 && c->xm.n == 0)
        printf("  none in this range\n");
    for (size_t i = 0; i < c->na; i++)
        for (size_t j = i + 1; j < c->na; j++) {
            const char *p = c->a[i].def->name, *q = c->a[j].def->name;
            bool head = false;
            for (int m = 0; m < 2; m++) {
                const XList *l = m ? &c->xm : &c->xp;
                for (size_t n = 0; n < l->n; n++) {
                    const XOver *x = &l->v[n];
                    if (!((x->winner == p && x->loser == q) || (x->winner == q && x->loser == p)))
                        continue;
                    if (!head)
                        printf("  %s vs %s:\n", p, q);
                    head = true;
                    char line[256];
                    xtext(x, m == 1, c->o->l.reps, line, sizeof line);
                    printf("    %s\n", line);
                }
            }
            if (head) {
                bool hp = false, hm = false;
                for (size_t n = 0; n < c->xp.n; n++)
                    hp |= (c->xp.v[n].winner == p || c->xp.v[n].winner == q) &&
                          (c->xp.v[n].loser == p || c->xp.v[n].loser == q);
                for (size_t n = 0; n < c->xm.n; n++)
                    hm |= (c->xm.v[n].winner == p || c->xm.v[n].winner == q) &&
                          (c->xm.v[n].loser == p || c->xm.v[n].loser == q);
                if (!hp)
                    printf("    predicted: no crossover in this range\n");
                if (!hm)
                    printf("    measured:  no crossover in this range\n");
            }
        }
    printf("\nmeasurements: %d table runs + %d bisection runs, %d reps each after a warm-up "
           "(launch time excluded); at most %d bisection steps per measured crossover\n",
           c->table_runs, c->bisect_runs, c->o->l.reps, c->o->bisect);
}

static void json_xlist(JsonOut *j, const XList *l, bool measured, int reps)
{
    json_begin_array(j);
    for (size_t n = 0; n < l->n; n++) {
        const XOver *x = &l->v[n];
        char line[256];
        json_begin_object(j);
        json_key(j, "winner");
        json_str(j, x->winner);
        json_key(j, "loser");
        json_str(j, x->loser);
        json_key(j, "sampled_after");
        json_uint(j, x->s_after);
        json_key(j, "sampled_from");
        json_uint(j, x->s_from);
        json_key(j, "after");
        json_uint(j, x->after);
        json_key(j, "from");
        json_uint(j, x->from);
        json_key(j, "exact");
        if (x->from - x->after == 1)
            json_uint(j, x->from);
        else
            json_null(j);
        json_key(j, "bisection_steps");
        json_int(j, x->steps);
        if (measured) {
            json_key(j, "runs");
            json_int(j, x->runs);
            json_key(j, "reps");
            json_int(j, reps);
        }
        json_key(j, "text");
        xtext(x, measured, reps, line, sizeof line);
        json_str(j, line);
        json_end_object(j);
    }
    json_end_array(j);
}

static void json_cells(JsonOut *j, const CX *c, size_t i, int what)
{
    json_begin_array(j);
    for (int k = 0; k < c->nsizes; k++) {
        const Cell *e = cell(c, i, k);
        if (what == 3)
            json_bool(j, e->verified);
        else
            json_num(j, what == 0 ? e->pred : what == 1 ? e->meas : e->spread);
    }
    json_end_array(j);
}

static void print_json(const CX *c)
{
    JsonOut j;
    json_init(&j, stdout, false);
    json_begin_object(&j);
    cli_json_head(&j, c->net, c->source, c->cost);
    json_key(&j, "unit");
    json_str(&j, cost_unit(c->cost->model));
    json_key(&j, "measured_unit");
    json_str(&j, "us");
    json_key(&j, "ranks");
    json_int(&j, c->o->l.np);
    json_key(&j, "launcher");
    json_str(&j, c->launcher);
    json_key(&j, "timing");
    json_str(&j, c->o->l.async ? "async" : "lockstep");
    json_key(&j, "reps");
    json_int(&j, c->o->l.reps);
    json_key(&j, "table_runs");
    json_int(&j, c->table_runs);
    json_key(&j, "bisection_runs");
    json_int(&j, c->bisect_runs);
    json_key(&j, "sizes");
    json_begin_array(&j);
    for (int k = 0; k < c->nsizes; k++)
        json_uint(&j, c->size[k]);
    json_end_array(&j);
    json_key(&j, "algorithms");
    json_begin_array(&j);
    static const char *const keys[] = {"predicted", "measured", "spread", "verified"};
    for (size_t i = 0; i < c->na; i++) {
        json_begin_object(&j);
        json_key(&j, "name");
        json_str(&j, c->a[i].def->name);
        for (int w = 0; w < 4; w++) {
            json_key(&j, keys[w]);
            json_cells(&j, c, i, w);
        }
        json_end_object(&j);
    }
    json_end_array(&j);
    for (int m = 0; m < 2; m++) {
        json_key(&j, m ? "winners_measured" : "winners_predicted");
        json_begin_array(&j);
        for (int k = 0; k < c->nsizes; k++)
            json_str(&j, c->a[winner(c, k, m == 1)].def->name);
        json_end_array(&j);
    }
    json_key(&j, "crossovers");
    json_begin_object(&j);
    json_key(&j, "predicted");
    json_xlist(&j, &c->xp, false, c->o->l.reps);
    json_key(&j, "measured");
    json_xlist(&j, &c->xm, true, c->o->l.reps);
    json_end_object(&j);
    json_end_object(&j);
    fputc('\n', stdout);
}

static void print_csv(const CX *c)
{
    char b[64];
    printf("bytes,algo,measured_us,spread_us,predicted_%s,verified,winner_measured,"
           "winner_predicted\n", cost_unit(c->cost->model));
    for (int k = 0; k < c->nsizes; k++)
        for (size_t i = 0; i < c->na; i++) {
            const Cell *e = cell(c, i, k);
            printf("%llu,", (unsigned long long)c->size[k]);
            csv_field(stdout, c->a[i].def->name);
            printf(",%s", export_format_double(e->meas, b, sizeof b));
            printf(",%s", export_format_double(e->spread, b, sizeof b));
            printf(",%s,%d,%d,%d\n", export_format_double(e->pred, b, sizeof b),
                   e->verified ? 1 : 0, winner(c, k, true) == (int)i ? 1 : 0,
                   winner(c, k, false) == (int)i ? 1 : 0);
        }
}

int compare_exec(const Net *net, const CostParams *cost, int32_t source,
                 const CmpExecAlgo *algos, size_t nalgos, const uint64_t *sizes, int nsizes,
                 const CmpExecOpts *o)
{
    CX c = {.net = net, .cost = cost, .source = source, .a = algos, .na = nalgos,
            .size = sizes, .nsizes = nsizes, .o = o};
    c.cell = calloc(nalgos * (size_t)nsizes, sizeof *c.cell);
    if (!c.cell) {
        cli_error("out of memory");
        return 1;
    }
    int rc = 0;
    for (size_t i = 0; i < nalgos && !rc; i++)
        for (int k = 0; k < nsizes && !rc; k++) {
            rc = measure(&c, &algos[i], sizes[k], cell(&c, i, k));
            c.table_runs++;
        }
    if (!rc)
        rc = crossovers(&c, false);
    if (!rc)
        rc = crossovers(&c, true);
    if (!rc) {
        if (o->json)
            print_json(&c);
        else if (o->csv)
            print_csv(&c);
        else
            print_text(&c);
        rc = cli_out_finish(0);
    }
    free(c.cell);
    free(c.xp.v);
    free(c.xm.v);
    return rc;
}
