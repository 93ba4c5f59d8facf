/* stopcmp.c — the s-to-p comparison and the paper's figures (see stopcmp.h). */
#include "stopcmp.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algos/algo.h"
#include "script.h"
#include "../engine/dist.h"
#include "../engine/progress.h"
#include "../engine/sched.h"
#include "../engine/sim-async.h"
#include "../engine/sim.h"
#include "../engine/text.h"
#include "setup.h"

#define WORK_BUDGET 8388608ull   /* node-builds, as compare's */

struct StopCmp {
    StopCmpSpec spec;
    StopCmpRow *rows;
    int nr, na, relcol;
    char abuf[1024];
    const char *algos[STOPCMP_MAXITEMS];
};

static bool fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return false;
}

/* Split text at ',' into items (copied into buf). */
static int split(const char *text, char *buf, size_t len, char **items, int max)
{
    snprintf(buf, len, "%s", text);
    int n = 0;
    for (char *t = buf; n < max;) {
        items[n++] = t;
        char *c = strchr(t, ',');
        if (!c) break;
        *c = '\0';
        t = c + 1;
    }
    return n;
}

/* The rows of one net: every source spec x s x message length. */
static bool plan_net(StopCmp *c, const Net *net, char **specs, int ns, const int64_t srange[3],
                     const uint64_t brange[2], uint64_t total, uint64_t *work, char *err,
                     size_t errlen)
{
    char q[48];
    int32_t p = net_size(net);
    for (int j = 0; j < ns; j++) {
        const char *colon = strchr(specs[j], ':');
        char kind[16];
        DistKind dk;
        snprintf(kind, sizeof kind, "%.*s", colon ? (int)(colon - specs[j]) : 15, specs[j]);
        if (!dist_kind_parse(kind, &dk))
            return fail(err, errlen, "bad --sources item '%s': expected a distribution such as "
                        "R:30, Dr:10%% or E (meshcast list distributions)",
                        text_quote(specs[j], 24, q, sizeof q));
        int64_t lo = srange[0], hi = srange[1], step = srange[2];
        if (colon) {
            char *e;
            errno = 0;
            long long v = strtoll(colon + 1, &e, 10);
            if (errno || e == colon + 1 || (*e && strcmp(e, "%") != 0) || v < 1)
                return fail(err, errlen, "bad --sources item '%s': s must be a positive number "
                            "or a percentage", text_quote(specs[j], 24, q, sizeof q));
            if (*e == '%') v = (v * p + 50) / 100 < 1 ? 1 : (v * p + 50) / 100;
            lo = hi = v;
            step = 1;
        } else if (!c->spec.s) {
            return fail(err, errlen, "--sources item '%s' has no s: give KIND:S or --s LO:HI",
                        kind);
        }
        uint64_t blo = brange[0], bhi = brange[1];
        for (int64_t s = lo; s <= hi; s += step)
            for (uint64_t m = blo; m <= bhi; m = m > bhi / 2 && m < bhi ? bhi : m * 2) {
                if (c->nr == STOPCMP_MAXROWS)
                    return fail(err, errlen, "too many rows (at most %d)", STOPCMP_MAXROWS);
                StopCmpRow *r = &c->rows[c->nr++];
                int32_t sv = (int32_t)(s > p ? p : s);
                snprintf(r->net, sizeof r->net, "%s", net_spec(net));
                snprintf(r->src, sizeof r->src, "%s:%ld", dist_name(dk), (long)sv);
                r->p = p;
                r->s = sv;
                r->bytes = total ? (total / (uint64_t)sv ? total / (uint64_t)sv : 1) : m;
                for (int k = 0; k < STOPCMP_MAXITEMS; k++) r->state[k] = STOPCMP_TODO;
                *work += (uint64_t)p;
                if (m == bhi) break;
            }
    }
    return true;
}

static bool plan_algos(StopCmp *c, char *err, size_t errlen)
{
    char q[48];
    const StopCmpSpec *o = &c->spec;
    if (o->algos) {
        char *items[STOPCMP_MAXITEMS];
        c->na = split(o->algos, c->abuf, sizeof c->abuf, items, STOPCMP_MAXITEMS);
        bool any_builtin = false;
        for (int k = 0; k < c->na; k++) {
            if (algo_exists(items[k])) {
                any_builtin = true;
            } else {   /* a user's script (FILE.lua, or a name on the search path) */
                AlgoDef *own = NULL;
                char why[256];
                const AlgoDef *d = script_algo(items[k], NULL, &own, why, sizeof why);
                algo_release(own);
                if (!d)
                    return fail(err, errlen, "%s", why);
            }
            c->algos[k] = items[k];
        }
        /* only scripts named: set beside every s-to-p built-in */
        for (size_t k = 0; !any_builtin && k < algo_count() && c->na < STOPCMP_MAXITEMS; k++) {
            const AlgoDef *d = algo_at(k);
            bool dup = false;
            for (int j = 0; j < c->na; j++) dup |= strcmp(c->algos[j], d->name) == 0;
            if ((d->flags & ALGO_STOP) && !dup) c->algos[c->na++] = d->name;
        }
    } else {
        for (size_t k = 0; k < algo_count() && c->na < STOPCMP_MAXITEMS; k++) {
            const AlgoDef *d = algo_at(k);
            bool dup = false;
            for (int j = 0; j < c->na; j++) dup |= strcmp(c->algos[j], d->name) == 0;
            if ((d->flags & ALGO_STOP) && !dup) c->algos[c->na++] = d->name;
        }
    }
    c->relcol = -1;
    for (int k = 0; o->relative && k < c->na; k++)
        if (strcmp(c->algos[k], o->relative) == 0) c->relcol = k;
    if (o->relative && c->relcol < 0)
        return fail(err, errlen, "--relative '%s' is not one of the compared algorithms",
                    text_quote(o->relative, 24, q, sizeof q));
    return true;
}

static SetupSpec cell_spec(const StopCmp *c, const StopCmpRow *r, const char *algo, char *bytes,
                           size_t blen)
{
    snprintf(bytes, blen, "%llu", (unsigned long long)r->bytes);
    return (SetupSpec){.net = r->net, .algo = algo, .bytes = bytes, .model = c->spec.model,
                       .sets = c->spec.sets, .nsets = c->spec.nsets, .sources = r->src,
                       .profile = c->spec.profile};
}

static bool plan(StopCmp *c, char *err, size_t errlen)
{
    const StopCmpSpec *o = &c->spec;
    if (!o->sources)
        return fail(err, errlen, "missing --sources SPEC[,SPEC...] (e.g. R:30,C:30)");
    if (!o->net == !o->nets)
        return fail(err, errlen, "give one of --net SPEC and --nets SPEC,SPEC,...");
    if (o->total && o->bytes) return fail(err, errlen, "--bytes and --total exclude each other");
    int64_t sr[3] = {0, 0, 1};
    if (o->s) {
        long long a, b, st = 1;
        int got = sscanf(o->s, "%lld:%lld:%lld", &a, &b, &st);
        if (got < 2 || a < 1 || b < a || st < 1)
            return fail(err, errlen, "bad --s '%s': expected LO:HI[:STEP] with 1 <= LO <= HI",
                        o->s);
        sr[0] = a;
        sr[1] = b;
        sr[2] = st;
    }
    uint64_t br[2] = {1024, 1024}, total = 0;
    if (o->bytes) {
        const char *col = strchr(o->bytes, ':');
        char lo[32];
        snprintf(lo, sizeof lo, "%.*s", col ? (int)(col - o->bytes) : (int)strlen(o->bytes),
                 o->bytes);
        if (!setup_parse_bytes(lo, &br[0]) || (col && !setup_parse_bytes(col + 1, &br[1])) ||
            (col && br[1] < br[0]))
            return fail(err, errlen, "bad --bytes '%s': expected M or LO:HI (e.g. 4K or 32:16K)",
                        o->bytes);
        if (!col) br[1] = br[0];
    }
    if (o->total && !setup_parse_bytes(o->total, &total))
        return fail(err, errlen, "bad --total '%s': expected a byte count such as 80K", o->total);

    char nbuf[1024], sbuf[1024];
    char *nets[STOPCMP_MAXITEMS], *specs[STOPCMP_MAXITEMS];
    int nn = split(o->net ? o->net : o->nets, nbuf, sizeof nbuf, nets, STOPCMP_MAXITEMS);
    int ns = split(o->sources, sbuf, sizeof sbuf, specs, STOPCMP_MAXITEMS);
    uint64_t work = 0;
    for (int i = 0; i < nn; i++) {
        Net *net = net_parse(nets[i], err, errlen);
        if (!net) return false;
        bool ok = plan_net(c, net, specs, ns, sr, br, total, &work, err, errlen);
        net_free(net);
        if (!ok) return false;
    }
    if (!plan_algos(c, err, errlen)) return false;
    if (work * (uint64_t)c->na > WORK_BUDGET)
        return fail(err, errlen, "too much work for compare (rows x algorithms x nodes over 8M "
                    "node-builds): fewer rows, algorithms or a smaller net");
    /* a bad model or setting is a usage error, found on the first cell's setup */
    char bytes[32];
    SetupSpec spec = cell_spec(c, &c->rows[0], c->algos[0], bytes, sizeof bytes);
    Setup st;
    if (!setup_make(&spec, &st, err, errlen) &&
        (strstr(err, "model") || strstr(err, "setting") || strstr(err, "--set")))
        return false;
    setup_free(&st);
    err[0] = '\0';
    return true;
}

StopCmp *stopcmp_plan(const StopCmpSpec *spec, char *err, size_t errlen)
{
    StopCmp *c = calloc(1, sizeof *c);
    StopCmpRow *rows = calloc(STOPCMP_MAXROWS, sizeof *rows);
    if (!c || !rows) {
        free(c);
        free(rows);
        fail(err, errlen, "out of memory");
        return NULL;
    }
    c->spec = *spec;
    c->rows = rows;
    if (!plan(c, err, errlen)) {
        stopcmp_free(c);
        return NULL;
    }
    return c;
}

void stopcmp_free(StopCmp *c)
{
    if (!c) return;
    free(c->rows);
    free(c);
}

int stopcmp_nrows(const StopCmp *c) { return c->nr; }
int stopcmp_nalgos(const StopCmp *c) { return c->na; }
const char *stopcmp_algo(const StopCmp *c, int k) { return c->algos[k]; }
const StopCmpRow *stopcmp_row(const StopCmp *c, int i) { return &c->rows[i]; }
int stopcmp_relcol(const StopCmp *c) { return c->relcol; }

bool stopcmp_percent(const StopCmp *c, int i, int k, double *out)
{
    const StopCmpRow *r = &c->rows[i];
    int rc = c->relcol;
    if (rc < 0 || r->state[k] >= STOPCMP_NORUN || r->state[rc] >= STOPCMP_NORUN) return false;
    *out = 100 * (r->cost[rc] - r->cost[k]) / r->cost[rc];
    return true;
}

bool stopcmp_cell(StopCmp *c, int i, int k)
{
    StopCmpRow *r = &c->rows[i];
    char bytes[32], err[512];
    SetupSpec spec = cell_spec(c, r, c->algos[k], bytes, sizeof bytes);
    Setup st;
    r->state[k] = STOPCMP_NORUN;
    if (!setup_make(&spec, &st, err, sizeof err)) return true;
    Sched *sched = algo_build(st.def, st.net, &st.args, err, sizeof err);
    Sim *sim = sched ? sim_run(sched, &st.cost, c->spec.async ? SIM_ASYNC : 0, err, sizeof err)
                     : NULL;
    if (sim) {
        const SimTotals *t = sim_totals(sim);
        r->cost[k] = t->cost.total;
        r->steps[k] = t->nsteps;
        r->state[k] = !t->verified ? STOPCMP_UNVERIFIED : !t->valid ? STOPCMP_INVALID : STOPCMP_OK;
        if (c->spec.async) {
            /* the paper's runs: no synchronisation between iterations (sim-async.h) */
            SimAsync *as = sim_async_take(sim, err, sizeof err);
            if (as) r->cost[k] = sim_async_total(as);
            else r->state[k] = STOPCMP_NORUN;
            sim_async_free(as);
        }
        sim_free(sim);
    }
    sched_free(sched);
    setup_free(&st);
    if (progress_cancelled()) {
        r->state[k] = STOPCMP_TODO;
        return false;
    }
    return true;
}

bool stopcmp_run(StopCmp *c)
{
    for (int i = 0; i < c->nr; i++)
        for (int k = 0; k < c->na; k++)
            if (!stopcmp_cell(c, i, k)) return false;
    return true;
}

/* ---- the paper's figures ---------------------------------------------------------------- */

#define FIG5_SOURCES "R:30,C:30,E:30,Dr:30,Dl:30,B:30,X:30,SB:30"
#define FIG4_NETS "mesh:2x2,mesh:2x4,mesh:4x4,mesh:4x8,mesh:8x8,mesh:8x16,mesh:16x16"
#define FIVE "xor,2-step,br-lin,br-xy-source,br-xy-dim"
#define THREE "br-lin,br-xy-source,br-xy-dim"

static const StopFigure figures[] = {
    {2, "Fig. 2: cost vs the number of sources s (equal distribution, 10x10, 4K)",
     "compare --net mesh:10x10 --sources E --s 1:100:3 --bytes 4K --algos " FIVE,
     {.net = "mesh:10x10", .sources = "E", .s = "1:100:3", .bytes = "4K", .algos = FIVE},
     STOPFIG_S, false, false},
    {3, "Fig. 3: cost vs the message length (Dr:30, 10x10)",
     "compare --net mesh:10x10 --sources Dr:30 --bytes 32:16K --algos " FIVE,
     {.net = "mesh:10x10", .sources = "Dr:30", .bytes = "32:16K", .algos = FIVE},
     STOPFIG_BYTES, false, false},
    {4, "Fig. 4: cost vs the machine size p = 4..256 (Dr, s = p/4, 4K)",
     "compare --nets " FIG4_NETS " --sources Dr:25% --bytes 4K --algos " FIVE,
     {.nets = FIG4_NETS, .sources = "Dr:25%", .bytes = "4K", .algos = FIVE},
     STOPFIG_P, false, false},
    {5, "Fig. 5: cost per distribution (10x10, s = 30, 1K)",
     "compare --net mesh:10x10 --sources " FIG5_SOURCES " --algos " THREE,
     {.net = "mesh:10x10", .sources = FIG5_SOURCES, .algos = THREE},
     STOPFIG_DIST, true, false},
    {6, "Fig. 6: total data fixed at 80K, s varied (Dr, 10x10)",
     "compare --net mesh:10x10 --sources Dr --s 5:40:5 --total 80K --algos " THREE,
     {.net = "mesh:10x10", .sources = "Dr", .s = "5:40:5", .total = "80K", .algos = THREE},
     STOPFIG_S, false, false},
    {7, "Fig. 7: br-lin on mesh shapes with p = 120 (E, 4K)",
     "compare --nets mesh:4x30,mesh:8x15,mesh:10x12 --sources E:10,E:40,E:100 --bytes 4K "
     "--algos br-lin",
     {.nets = "mesh:4x30,mesh:8x15,mesh:10x12", .sources = "E:10,E:40,E:100", .bytes = "4K",
      .algos = "br-lin"},
     STOPFIG_NET, false, true},
    {8, "Fig. 8: repos-xy-source vs br-xy-source, % cheaper (16x16, 6K)",
     "compare --net mesh:16x16 --sources E,X,B,SB --s 16:192:16 --bytes 6K "
     "--algos br-xy-source,repos-xy-source --relative br-xy-source",
     {.net = "mesh:16x16", .sources = "E,X,B,SB", .s = "16:192:16", .bytes = "6K",
      .algos = "br-xy-source,repos-xy-source", .relative = "br-xy-source"},
     STOPFIG_S, false, true},
};

const StopFigure *stopcmp_figure(int n)
{
    for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++)
        if (figures[i].number == n) return &figures[i];
    return NULL;
}

/* The index of key in names (added if new); -1 if full. */
static int slot(char (*names)[24], int *n, int max, const char *key)
{
    for (int i = 0; i < *n; i++)
        if (strcmp(names[i], key) == 0) return i;
    if (*n == max) return -1;
    snprintf(names[*n], 24, "%s", key);
    return (*n)++;
}

static void xkey(const StopFigure *f, const StopCmpRow *r, char *buf, size_t len)
{
    switch (f->x) {
    case STOPFIG_S: snprintf(buf, len, "%ld", (long)r->s); break;
    case STOPFIG_BYTES:
        if (r->bytes >= 1024 && r->bytes % 1024 == 0)
            snprintf(buf, len, "%lluK", (unsigned long long)(r->bytes >> 10));
        else
            snprintf(buf, len, "%llu", (unsigned long long)r->bytes);
        break;
    case STOPFIG_P: snprintf(buf, len, "%ld", (long)r->p); break;
    case STOPFIG_DIST: snprintf(buf, len, "%.*s", (int)strcspn(r->src, ":"), r->src); break;
    case STOPFIG_NET:
        snprintf(buf, len, "%.23s", strchr(r->net, ':') ? strchr(r->net, ':') + 1 : r->net);
        break;
    }
}

bool stopcmp_plot(const StopFigure *f, const StopCmp *c, StopPlot *out)
{
    memset(out, 0, sizeof *out);
    for (int j = 0; j < STOPFIG_MAXSERIES; j++)
        for (int i = 0; i < STOPFIG_MAXX; i++) out->y[j][i] = NAN;
    static const char *const xaxes[] = {"number of sources s", "message length (bytes)",
                                        "machine size p", "distribution", "mesh shape"};
    snprintf(out->xaxis, sizeof out->xaxis, "%s", xaxes[f->x]);
    out->percent = c->relcol >= 0 && c->na > 1;
    int other = c->relcol == 0 ? 1 : 0;   /* the column measured against the relative one */
    if (out->percent)
        snprintf(out->yaxis, sizeof out->yaxis, "%% by which %.20s is cheaper than %.20s",
                 c->algos[other], c->algos[c->relcol]);
    else {
        CostModel cm = COST_SEIDEL;
        if (c->spec.model)
            cost_model_parse(c->spec.model, &cm);
        snprintf(out->yaxis, sizeof out->yaxis, "simulated cost in %s%s%s%.30s", cost_unit(cm),
                 c->spec.async ? " (async)" : "", c->spec.profile ? ", profile " : "",
                 c->spec.profile ? c->spec.profile : "");
    }
    char names[STOPFIG_MAXSERIES][24];
    int ns = 0;
    if (!f->series_by_source) {
        if (c->na > STOPFIG_MAXSERIES) return false;
        for (int k = 0; k < c->na; k++)
            snprintf(out->name[k], sizeof out->name[k], "%.31s", c->algos[k]);
        out->nseries = c->na;
    }
    for (int i = 0; i < c->nr; i++) {
        const StopCmpRow *r = &c->rows[i];
        char key[24];
        xkey(f, r, key, sizeof key);
        int xi = slot(out->xlabel, &out->nx, STOPFIG_MAXX, key);
        if (xi < 0) return false;
        if (!f->series_by_source) {
            for (int k = 0; k < c->na; k++)
                if (r->state[k] < STOPCMP_NORUN) out->y[k][xi] = r->cost[k];
            continue;
        }
        /* one curve per source spec: the kind when s is on the x axis, else kind and s */
        snprintf(key, sizeof key, "%.*s", f->x == STOPFIG_S ? (int)strcspn(r->src, ":") : 23,
                 r->src);
        int j = slot(names, &ns, STOPFIG_MAXSERIES, key);
        if (j < 0) return false;
        int k = out->percent ? other : 0;
        double v;
        if (out->percent ? stopcmp_percent(c, i, k, &v)
                         : (r->state[k] < STOPCMP_NORUN && (v = r->cost[k], true)))
            out->y[j][xi] = v;
    }
    if (f->series_by_source) {
        out->nseries = ns;
        for (int j = 0; j < ns; j++) {
            if (out->percent)
                snprintf(out->name[j], sizeof out->name[j], "%.23s", names[j]);
            else
                snprintf(out->name[j], sizeof out->name[j], "%.15s %.15s", c->algos[0], names[j]);
        }
    }
    return true;
}
