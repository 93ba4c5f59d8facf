/* compare-terms.c — Table 1 of Peters & Syska, measured (compare-terms.h). */
#include "compare-terms.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/circuit-bounds.h"
#include "../engine/export.h"
#include "../engine/sim-async.h"
#include "../engine/sim.h"
#include "../script/script.h"

typedef struct {
    bool built, verified, valid;
    int32_t phases;
    int64_t hops;
    double ltau, lockstep, async;
    char why[200];
} Row;

static void measure(const Net *net, const CostParams *cost, const AlgoDef *d, AlgoArgs a,
                    uint64_t bytes, unsigned timing, Row *r)
{
    a.bytes = bytes;
    a.cost = *cost;
    a.async = false;
    Sched *s = algo_build(d, net, &a, r->why, sizeof r->why);
    if (!s)
        return;
    Sim *sim = sim_run(s, cost, (timing & TERMS_ASYNC) ? SIM_ASYNC : 0, r->why, sizeof r->why);
    if (sim) {
        const SimTotals *t = sim_totals(sim);
        r->built = true;
        r->verified = t->verified;
        r->valid = t->valid;
        r->phases = t->phases;
        r->hops = t->switch_hops;
        r->ltau = bytes ? (double)t->phase_bytes / (double)bytes : 0;
        r->lockstep = t->cost.total;
        if (timing & TERMS_ASYNC) {
            SimAsync *as = sim_async_take(sim, r->why, sizeof r->why);
            r->built = as != NULL;
            r->async = sim_async_total(as);
            sim_async_free(as);
        }
        sim_free(sim);
    }
    sched_free(s);
}

/* L*tau for the text table: exact when it has at most three decimals (4, 0.25, 78.875),
 * else rounded to three (the JSON keeps every digit). */
static const char *ltau_text(double v, char *buf, size_t n)
{
    export_format_double(v, buf, n);
    const char *dot = strchr(buf, '.');
    if (dot && strlen(dot + 1) > 3)
        snprintf(buf, n, "~%.3f", v);
    return buf;
}

/* One table row, printed without the trailing blanks of its empty columns. */
static void row_print(const char *name, long phases, long long hops, const char *ltau,
                      const char *lockstep, const char *async, const char *note)
{
    char line[512];
    snprintf(line, sizeof line, "%-18s %10ld %14lld %8s %14s %14s  %s", name, phases, hops,
             ltau, lockstep, async, note);
    size_t l = strlen(line);
    while (l && line[l - 1] == ' ')
        line[--l] = '\0';
    puts(line);
}

static int print_table(const Net *net, const CostParams *cost, const AlgoDef *const *defs,
                       const AlgoArgs *args, size_t n, uint64_t bytes, unsigned timing,
                       bool json, char *const *notes, size_t nnotes)
{
    int rc = 0;
    CircuitBounds bd;
    bool hasb = cost->model == COST_CIRCUIT && bounds_circuit(net, cost, bytes, &bd);
    char b1[64], b2[64], b3[64];
    JsonOut j;
    if (json) {
        json_init(&j, stdout, false);
        json_begin_object(&j);
        json_key(&j, "net");
        json_str(&j, net_spec(net));
        json_key(&j, "model");
        json_str(&j, cost_model_name(cost->model));
        json_key(&j, "bytes");
        json_uint(&j, bytes);
        if (hasb) {
            json_key(&j, "lower_bound");
            json_begin_object(&j);
            json_key(&j, "phases");
            json_int(&j, bd.phases);
            json_key(&j, "switch_hops");
            json_int(&j, bd.diameter);
            json_key(&j, "ltau");
            json_num(&j, 1.0 / bd.lambda);
            json_key(&j, "total");
            json_num(&j, bd.total);
            json_end_object(&j);
        }
        json_key(&j, "algorithms");
        json_begin_array(&j);
    } else {
        printf("Table 1, measured: %s, %s model, %llu bytes\n", net_spec(net),
               cost_model_name(cost->model), (unsigned long long)bytes);
        char head[160];
        size_t l = (size_t)snprintf(head, sizeof head, "%-18s %10s %14s %8s %14s %14s", "",
                                    "start-ups", "switched hops", "L*tau",
                                    (timing & TERMS_LOCKSTEP) ? "lockstep" : "",
                                    (timing & TERMS_ASYNC) ? "async" : "");
        while (l && head[l - 1] == ' ')
            head[--l] = '\0';
        puts(head);
        if (hasb)
            row_print("lower bound", (long)bd.phases, (long long)bd.diameter,
                      ltau_text(1.0 / bd.lambda, b1, sizeof b1),
                      export_format_double(bd.total, b2, sizeof b2), "",
                      "(Prop. 1: each term, and their max as the cost)");
    }
    for (size_t i = 0; i < n; i++) {
        Row r = { 0 };
        measure(net, cost, defs[i], args[i], bytes, timing, &r);
        if (!r.built || !r.verified)
            rc = 1;
        if (json) {
            json_begin_object(&j);
            json_key(&j, "algo");
            json_str(&j, defs[i]->name);
            json_key(&j, "reduction");   /* op = "reduce": towards the root, not a broadcast */
            json_bool(&j, (defs[i]->flags & ALGO_REDUCE) != 0);
            json_key(&j, "built");
            json_bool(&j, r.built);
            if (r.built) {
                json_key(&j, "verified");
                json_bool(&j, r.verified);
                json_key(&j, "valid");
                json_bool(&j, r.valid);
                json_key(&j, "phases");
                json_int(&j, r.phases);
                json_key(&j, "switch_hops");
                json_int(&j, r.hops);
                json_key(&j, "ltau");
                json_num(&j, r.ltau);
                if (timing & TERMS_LOCKSTEP) {
                    json_key(&j, "lockstep");
                    json_num(&j, r.lockstep);
                }
                if (timing & TERMS_ASYNC) {
                    json_key(&j, "async");
                    json_num(&j, r.async);
                }
            } else {
                json_key(&j, "why");
                json_str(&j, r.why);
            }
            json_end_object(&j);
            continue;
        }
        if (!r.built) {
            printf("%-18s %s\n", defs[i]->name, r.why);
            continue;
        }
        char label[96];   /* a reduction (op = "reduce") is marked as one */
        snprintf(label, sizeof label, "%s%s", defs[i]->name,
                 (defs[i]->flags & ALGO_REDUCE) ? " (reduce)" : "");
        row_print(label, (long)r.phases, (long long)r.hops,
                  ltau_text(r.ltau, b1, sizeof b1),
                  (timing & TERMS_LOCKSTEP) ? export_format_double(r.lockstep, b2, sizeof b2) : "",
                  (timing & TERMS_ASYNC) ? export_format_double(r.async, b3, sizeof b3) : "",
                  !r.verified ? "NOT verified" : !r.valid ? "violates the model" : "");
    }
    if (json) {
        json_end_array(&j);
        json_key(&j, "not_run");   /* "NAME: why" for every algorithm that does not run here */
        json_begin_array(&j);
        for (size_t i = 0; i < nnotes; i++)
            json_str(&j, notes[i]);
        json_end_array(&j);
        json_end_object(&j);
        putchar('\n');
    } else if (nnotes) {
        printf("not run here:\n");
        for (size_t i = 0; i < nnotes; i++)
            printf("  %s\n", notes[i]);
    }
    return rc;
}

/* Apply the --set K=V that name one of d's parameters; false if a value is out of range. */
static bool apply_sets(const AlgoDef *d, AlgoArgs *a, const char *const *sets, size_t nsets)
{
    for (size_t i = 0; i < nsets; i++) {
        const char *eq = strchr(sets[i], '=');
        char name[64], err[200];
        size_t l = eq ? (size_t)(eq - sets[i]) : 0;
        if (!eq || l >= sizeof name)
            continue;
        memcpy(name, sets[i], l);
        name[l] = '\0';
        if (algo_args_set(a, d, name, eq + 1, err, sizeof err) == -2)
            return false;
    }
    return true;
}

static bool add_note(char **notes, size_t *n, size_t max, const char *name, const char *why)
{
    if (*n >= max)
        return true;
    size_t l = strlen(name) + strlen(why) + 3;
    if (!(notes[*n] = malloc(l)))
        return false;
    snprintf(notes[*n], l, "%s: %s", name, why);
    (*n)++;
    return true;
}

int compare_terms(const Net *net, const CostParams *cost, const AlgoDef *const *defs,
                  const AlgoArgs *args, size_t n, int32_t source, const char *const *sets,
                  size_t nsets, uint64_t bytes, unsigned timing, bool json)
{
    enum { MAXDEF = 96, MAXNOTE = 96 };
    const AlgoDef *all[MAXDEF];
    AlgoArgs aa[MAXDEF];
    AlgoDef *owned[MAXDEF];
    char *notes[MAXNOTE], *names[64], why[256];
    size_t na = 0, nown = 0, nn = 0, nstop = 0;
    bool ok = true;
    for (size_t i = 0; i < n && na < MAXDEF; i++, na++) {
        all[na] = defs[i];
        aa[na] = args[i];
    }
    /* the built-ins that do not run here, and why */
    for (size_t i = 0; i < algo_count() && ok; i++) {
        const AlgoDef *d = algo_at(i);
        bool listed = false;
        for (size_t k = 0; k < n; k++)
            listed |= defs[k] == d;
        /* one note per name (st, bst, rh have an array and a mesh def) */
        bool seen = false;
        unsigned nets = 0;
        for (size_t k = 0; k < algo_count(); k++)
            if (strcmp(algo_at(k)->name, d->name) == 0) {
                seen |= k < i;
                nets |= algo_at(k)->nets;
                for (size_t m = 0; m < n; m++)
                    listed |= defs[m] == algo_at(k);
            }
        if (listed || seen)
            continue;
        if (d->flags & ALGO_STOP) {
            nstop++;
            continue;
        }
        char kinds[64];
        if (!(nets & (1u << net_kind(net)))) {
            snprintf(why, sizeof why, "runs on %s only", algo_nets_text(nets, kinds, sizeof kinds));
        } else {
            AlgoArgs a;
            algo_args_init(&a, d);
            a.source = source;
            a.cost = *cost;
            a.bytes = bytes;
            if (algo_check(d, net, &a, why, sizeof why))
                snprintf(why, sizeof why, "%s", (d->flags & ALGO_SEARCH)
                             ? "a search (meshcast compare --by tcd)"
                             : "not applicable with these settings");
        }
        ok = add_note(notes, &nn, MAXNOTE, d->name, why);
    }
    /* the shipped scripts: those that run here join the table (Seidel-style trees among
     * them: st-mesh), the others are named */
    size_t ns = script_list(names, sizeof names / sizeof names[0]);
    for (size_t i = 0; i < ns; i++) {
        AlgoDef *own = NULL;
        char label[80];
        snprintf(label, sizeof label, "%s.lua", names[i]);
        /* by its file name: a bare "st" would be the built-in st, not scripts/st.lua */
        const AlgoDef *d = ok ? script_algo(label, net, &own, why, sizeof why) : NULL;
        if (ok && d && (d->flags & ALGO_STOP)) {
            snprintf(why, sizeof why, "s-to-p (meshcast compare --sources)");
            d = NULL;
        }
        AlgoArgs a;
        if (ok && d) {
            algo_args_init(&a, d);
            a.source = source;
            a.cost = *cost;
            a.bytes = bytes;
            if (!apply_sets(d, &a, sets, nsets) || !algo_check(d, net, &a, why, sizeof why))
                d = NULL;
        }
        if (ok && d && na < MAXDEF) {
            all[na] = d;
            aa[na++] = a;
            owned[nown++] = own;
        } else {
            if (ok)
                ok = add_note(notes, &nn, MAXNOTE, label, why);
            algo_release(own);
        }
        free(names[i]);
    }
    /* Table 1 asks for Seidel-style trees: say so when none runs here */
    size_t nseidel = 0;
    for (size_t i = 0; i < na; i++)
        nseidel += (all[i]->ref && strncmp(all[i]->ref, "Seidel", 6) == 0) ||
                   (all[i]->summary && strstr(all[i]->summary, "Seidel"));
    if (ok && nseidel == 0) {
        snprintf(why, sizeof why, "none runs on %s (Seidel's st, bst, rh need arrays or "
                 "meshes, st-mesh.lua power-of-two extents); knomial.lua with k=2 is the "
                 "binomial tree (meshcast run --algo knomial --set k=2)", net_spec(net));
        ok = add_note(notes, &nn, MAXNOTE, "Seidel-style trees", why);
    }
    if (ok && nstop) {
        snprintf(why, sizeof why, "%zu s-to-p algorithms (meshcast compare --sources)", nstop);
        ok = add_note(notes, &nn, MAXNOTE, "s-to-p", why);
    }
    int rc = ok ? print_table(net, cost, all, aa, na, bytes, timing, json, notes, nn) : 2;
    if (!ok)
        fprintf(stderr, "meshcast: out of memory\n");
    for (size_t i = 0; i < nn; i++)
        free(notes[i]);
    for (size_t i = 0; i < nown; i++)
        algo_release(owned[i]);
    return rc;
}
