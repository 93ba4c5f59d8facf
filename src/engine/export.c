/* export.c — JSON and CSV of schedules and runs (see export.h). */
#include "export.h"
#include "bounds.h"
#include "circuit-bounds.h"
#include "tso.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

/* ---- JSON writer ----------------------------------------------------------------------- */

void json_init(JsonOut *j, FILE *f, bool pretty)
{
    memset(j, 0, sizeof *j);
    j->f = f;
    j->pretty = pretty;
    j->first[0] = true;
}

static void indent(JsonOut *j)
{
    fputc('\n', j->f);
    for (int i = 0; i < j->depth; i++)
        fputs("  ", j->f);
}

/* Before any value or key: the separator and, when pretty, the line break. */
static void before_value(JsonOut *j)
{
    if (j->after_key) {
        j->after_key = false;
        return;
    }
    int d = j->depth < JSON_MAXDEPTH ? j->depth : JSON_MAXDEPTH;
    if (!j->first[d])
        fputc(',', j->f);
    j->first[d] = false;
    if (j->pretty && j->depth > 0)
        indent(j);
}

static void open_container(JsonOut *j, char c)
{
    before_value(j);
    fputc(c, j->f);
    j->depth++;
    if (j->depth <= JSON_MAXDEPTH)
        j->first[j->depth] = true;
}

static void close_container(JsonOut *j, char c)
{
    bool empty = j->depth <= JSON_MAXDEPTH ? j->first[j->depth] : false;
    if (j->depth > 0)
        j->depth--;
    if (j->pretty && !empty)
        indent(j);
    fputc(c, j->f);
    if (j->depth == 0)
        fputc('\n', j->f);
}

void json_begin_object(JsonOut *j) { open_container(j, '{'); }
void json_end_object(JsonOut *j) { close_container(j, '}'); }
void json_begin_array(JsonOut *j) { open_container(j, '['); }
void json_end_array(JsonOut *j) { close_container(j, ']'); }


void json_write_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p >= 0x80) {
            /* JSON text is UTF-8: a byte that starts no well-formed sequence (a script's label
             * in Latin-1, say) becomes U+FFFD */
            int n = text_utf8_len(p);
            if (n == 0) {
                fputs("\\ufffd", f);
            } else if (n == 2 && p[0] == 0xC2 && p[1] < 0xA0) {
                fprintf(f, "\\u%04x", p[1]);   /* a C1 control, escaped like C0 */
                p++;
            } else {
                fwrite(p, 1, (size_t)n, f);
                p += n - 1;
            }
            continue;
        }
        switch (*p) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\r': fputs("\\r", f); break;
        case '\t': fputs("\\t", f); break;
        case '\b': fputs("\\b", f); break;
        case '\f': fputs("\\f", f); break;
        default:
            if (*p < 0x20 || *p == 0x7f)
                fprintf(f, "\\u%04x", *p);
            else
                fputc(*p, f);
        }
    }
    fputc('"', f);
}

void json_key(JsonOut *j, const char *key)
{
    before_value(j);
    json_write_string(j->f, key);
    fputs(j->pretty ? ": " : ":", j->f);
    j->after_key = true;
}

void json_str(JsonOut *j, const char *s)
{
    if (!s) {
        json_null(j);
        return;
    }
    before_value(j);
    json_write_string(j->f, s);
}

char *export_format_double(double v, char *buf, size_t len)
{
    if (!isfinite(v)) {
        snprintf(buf, len, "null");
        return buf;
    }
    if (v == 0)
        v = 0;   /* no "-0" */
    snprintf(buf, len, "%.12g", v);
    /* %g may give "1e+06"; JSON allows exponents, but a plain integer reads better. */
    if (strchr(buf, 'e') && fabs(v) < 1e15 && v == floor(v))
        snprintf(buf, len, "%.0f", v);
    return buf;
}

void json_num(JsonOut *j, double v)
{
    char buf[64];
    before_value(j);
    fputs(export_format_double(v, buf, sizeof buf), j->f);
}

void json_int(JsonOut *j, int64_t v)
{
    before_value(j);
    fprintf(j->f, "%lld", (long long)v);
}

void json_uint(JsonOut *j, uint64_t v)
{
    before_value(j);
    fprintf(j->f, "%llu", (unsigned long long)v);
}

void json_bool(JsonOut *j, bool v)
{
    before_value(j);
    fputs(v ? "true" : "false", j->f);
}

void json_null(JsonOut *j)
{
    before_value(j);
    fputs("null", j->f);
}

/* ---- CSV ------------------------------------------------------------------------------- */

void csv_field(FILE *f, const char *s)
{
    if (!s)
        return;
    /* Control characters (and broken UTF-8) never reach the file: CSV has no escape for
     * them, and a terminal showing the file would obey them.  Line breaks are kept, quoted. */
    bool quote = strpbrk(s, ",\"\r\n") != NULL;
    if (quote)
        fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"')
            fputc('"', f);
        if (*p == '\n' || *p == '\r' || *p == '"') {
            fputc(*p, f);
            continue;
        }
        char one[8];
        int n = *p < 0x80 ? 1 : text_utf8_len(p);
        size_t k = n > 0 ? (size_t)n : 1;
        memcpy(one, p, k);
        one[k] = '\0';
        char q[16];
        fputs(text_quote(one, k, q, sizeof q), f);
        p += k - 1;
    }
    if (quote)
        fputc('"', f);
}

static void csv_num(FILE *f, double v)
{
    char buf[64];
    export_format_double(v, buf, sizeof buf);
    if (strcmp(buf, "null") != 0)
        fputs(buf, f);
}

/* Chunk ranges as "0-3,7" (inclusive, every range: lossless, unlike chunkset_format). */
static void csv_chunks(FILE *f, const ChunkRange *r, uint32_t n)
{
    if (n > 1)
        fputc('"', f);
    for (uint32_t i = 0; i < n; i++) {
        if (i)
            fputc(',', f);
        if (r[i].hi - r[i].lo == 1)
            fprintf(f, "%lu", (unsigned long)r[i].lo);
        else
            fprintf(f, "%lu-%lu", (unsigned long)r[i].lo, (unsigned long)r[i].hi - 1);
    }
    if (n > 1)
        fputc('"', f);
}

/* ---- shared pieces --------------------------------------------------------------------- */

char *export_route_text(const Net *net, const NetSeg *seg, int nseg, char *buf, size_t len)
{
    static const char axis[] = "xyz";
    size_t used = 0;
    if (len == 0)
        return buf;
    buf[0] = '\0';
    int nd = net_ndim(net);
    for (int i = 0; i < nseg; i++) {
        int a = nd - 1 - seg[i].dim;
        char name = (a >= 0 && a < 3) ? axis[a] : '?';
        int w = snprintf(buf + used, len - used, "%s%c%c%ld", i ? " " : "", name,
                         seg[i].dir < 0 ? '-' : '+', (long)seg[i].len);
        if (w < 0 || (size_t)w >= len - used)
            break;
        used += (size_t)w;
    }
    return buf;
}

static const char *violation_kind(SimViolationKind k)
{
    switch (k) {
    case SIM_V_NOT_HELD: return "not_held";
    case SIM_V_LINK: return "link";
    case SIM_V_PORT: return "port";
    case SIM_V_INCOMPLETE: return "incomplete";
    case SIM_V_ALLPORT: return "allport";
    }
    return "?";
}

static void json_cost_terms(JsonOut *j, const SimCost *c)
{
    json_key(j, "total");
    json_num(j, c->total);
    json_key(j, "startup");
    json_num(j, c->startup);
    json_key(j, "transmission");
    json_num(j, c->transmission);
    json_key(j, "contention");
    json_num(j, c->contention);
    json_key(j, "permutation");
    json_num(j, c->permutation);
}

static void json_violation(JsonOut *j, Sim *sim, const SimViolation *v)
{
    const Net *net = sched_net(sim_sched(sim));
    char text[256];
    json_begin_object(j);
    json_key(j, "step");
    json_int(j, v->step);
    json_key(j, "kind");
    json_str(j, violation_kind(v->kind));
    if (v->node >= 0) {
        json_key(j, "node");
        json_int(j, v->node);
    }
    if (v->link >= 0) {
        int32_t from;
        int dim, dir;
        net_link_info(net, v->link, &from, &dim, &dir);
        json_key(j, "link");
        json_int(j, v->link);
        json_key(j, "from");
        json_int(j, from);
        json_key(j, "to");
        json_int(j, net_link_head(net, v->link));
    }
    if (v->kind == SIM_V_NOT_HELD || v->kind == SIM_V_INCOMPLETE) {
        json_key(j, "chunk");
        json_uint(j, v->chunk);
    }
    if (v->transfer >= 0) {
        json_key(j, "transfer");
        json_int(j, v->transfer);
    }
    if (v->kind == SIM_V_ALLPORT) {
        json_key(j, "port");
        json_str(j, v->recvs ? "in" : "out");
    }
    if (v->kind == SIM_V_LINK || v->kind == SIM_V_ALLPORT) {
        json_key(j, "load");
        json_int(j, v->load);
    }
    if (v->kind == SIM_V_PORT) {
        json_key(j, "sends");
        json_int(j, v->load);
        json_key(j, "recvs");
        json_int(j, v->recvs);
    }
    json_key(j, "what");
    json_str(j, sim_violation_text(sim, v, text, sizeof text));
    if (v->kind == SIM_V_LINK || v->kind == SIM_V_ALLPORT || v->kind == SIM_V_PORT) {
        /* the transfers that collide (sim-involved.c): their indices in the step, and named */
        int64_t idx[SIM_INVOLVED_SHOW];
        int64_t n = sim_violation_transfers(sim, v, idx, SIM_INVOLVED_SHOW);
        json_key(j, "transfers");
        json_begin_array(j);
        for (int64_t k = 0; k < n && k < SIM_INVOLVED_SHOW; k++) {
            SchedTransfer t;
            char route[128];
            sched_transfer(sim_sched(sim), v->step, idx[k], &t);
            json_begin_object(j);
            json_key(j, "transfer");
            json_int(j, idx[k]);
            json_key(j, "src");
            json_int(j, t.src);
            json_key(j, "dst");
            json_int(j, t.dst);
            json_key(j, "chunk");
            json_uint(j, t.nranges ? t.ranges[0].lo : 0);
            json_key(j, "route");
            json_str(j, export_route_text(net, t.seg, t.nseg, route, sizeof route));
            json_end_object(j);
        }
        json_end_array(j);
        json_key(j, "transfers_count");
        json_int(j, n);
        char inv[1024];
        json_key(j, "involved");
        json_str(j, sim_violation_involved_text(sim, v, inv, sizeof inv));
    }
    json_end_object(j);
}

/* Circuit and saf models: Peters & Syska's multiples of alpha, delta and L*tau ("terms"),
 * and under circuit on a ring or torus the lower bounds of Proposition 1 and Corollary 1. */
static void json_circuit_terms(JsonOut *j, Sim *sim)
{
    const CostParams *p = sim_params(sim);
    const Sched *s = sim_sched(sim);
    const SimTotals *t = sim_totals(sim);
    if (p->model != COST_CIRCUIT && p->model != COST_SAF)
        return;
    uint64_t L = sched_bytes(s);
    json_key(j, "terms");
    json_begin_object(j);
    json_key(j, "phases");
    json_int(j, t->phases);
    json_key(j, "switch_hops");
    json_int(j, t->switch_hops);
    json_key(j, "phase_bytes");
    json_uint(j, t->phase_bytes);
    json_key(j, "ltau");
    json_num(j, L ? (double)t->phase_bytes / (double)L : 0);
    json_end_object(j);
    CircuitBounds b;
    if (p->model != COST_CIRCUIT || !bounds_circuit(sched_net(s), p, L, &b))
        return;
    json_key(j, "lower_bound");
    json_begin_object(j);
    json_key(j, "total");
    json_num(j, b.total);
    json_key(j, "phases");
    json_int(j, b.phases);
    json_key(j, "diameter");
    json_int(j, b.diameter);
    json_key(j, "startup");
    json_num(j, b.startup);
    json_key(j, "switching");
    json_num(j, b.switching);
    json_key(j, "propagation");
    json_num(j, b.propagation);
    json_key(j, "combined");
    json_num(j, b.combined);
    if (b.corollary) {
        json_key(j, "corollary1_as_printed");
        json_num(j, b.cor_total);
        json_key(j, "corollary1_phases");
        json_int(j, b.cor_phases);
    }
    json_end_object(j);
}

double export_difference(double simulated, double predicted)
{
    double d = simulated - predicted;
    return fabs(d) <= 1e-9 * fmax(1, fabs(predicted)) ? 0 : d;
}

/* ---- runs ------------------------------------------------------------------------------ */

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* "sources": the nodes given chunks, ascending; "distribution"; "message_bytes": each
 * source's message (the schedule's bytes over the sources). */
static void json_sources(JsonOut *j, const Sched *s, const char *dist)
{
    size_t ng = sched_ngiven(s), n = 0;
    int32_t *v = malloc(sizeof *v * (ng ? ng : 1));
    for (size_t i = 0; v && i < ng; i++)
        sched_given(s, i, &v[i], NULL);
    if (v) {
        qsort(v, ng, sizeof *v, cmp_i32);
        for (size_t i = 0; i < ng; i++)
            if (n == 0 || v[i] != v[n - 1])
                v[n++] = v[i];
    }
    json_key(j, "sources");
    json_begin_array(j);
    for (size_t i = 0; i < n; i++)
        json_int(j, v[i]);
    json_end_array(j);
    free(v);
    json_key(j, "distribution");
    json_str(j, dist);
    json_key(j, "message_bytes");
    json_uint(j, n ? sched_bytes(s) / n : sched_bytes(s));
}

/* export_run_json's parts, in the order its keys are written. */

/* The run's net, algorithm, source, sizes and step counts. */
static void json_run_head(JsonOut *j, Sim *sim, const ExportRun *info)
{
    const Sched *s = sim_sched(sim);
    const Net *net = sched_net(s);
    const SimTotals *t = sim_totals(sim);
    int32_t src = sched_source(s);
    char buf[64];
    json_key(j, "net");
    json_str(j, net_spec(net));
    json_key(j, "algo");
    json_str(j, info->algo);
    json_key(j, "source");
    json_int(j, src);
    json_key(j, "source_name");
    json_str(j, src >= 0 ? net_node_name(net, src, buf, sizeof buf) : NULL);
    json_sources(j, s, info->dist);
    json_key(j, "nodes");
    json_int(j, net_size(net));
    json_key(j, "bytes");
    json_uint(j, sched_bytes(s));
    json_key(j, "chunks");
    json_uint(j, sched_nchunks(s));
    json_key(j, "fit");
    json_str(j, info->fit);
    json_key(j, "steps");
    json_int(j, t->nsteps);
    /* s-to-p's active nodes: how many hold at least one chunk before the first step and
     * after every step */
    json_key(j, "informed");
    json_begin_array(j);
    json_int(j, t->informed_before);
    for (int32_t i = 0; i < t->nsteps; i++)
        json_int(j, sim_step(sim, i)->informed);
    json_end_array(j);
    json_key(j, "transfers");
    json_int(j, t->ntransfers);
    json_key(j, "verified");
    json_bool(j, t->verified);
    json_key(j, "valid");
    json_bool(j, t->valid);
    json_key(j, "tcd");
    json_int(j, t->tcd);
    json_key(j, "predicted_tcd");   /* Cang & Wu's closed forms */
    if (info->has_predicted_tcd)
        json_num(j, info->predicted_tcd);
    else
        json_null(j);
}

/* Whether the schedule holds: time step optimality, loads, conflicts, violations. */
static void json_run_checks(JsonOut *j, Sim *sim, const ExportRun *info)
{
    const SimTotals *t = sim_totals(sim);
    TsoVerdict tso;
    tso_check(sim, &tso);
    json_key(j, "time_step_optimal");
    json_bool(j, tso.optimal);
    json_key(j, "contention_free");
    json_bool(j, tso.contention_free);
    json_key(j, "bytes_moved");
    json_uint(j, t->bytes);
    json_key(j, "max_link_load");
    json_int(j, t->max_link_load);
    if (net_kind(sched_net(sim_sched(sim))) == NET_HXBAR) {
        json_key(j, "max_channel_load");
        json_int(j, t->max_channel_load);
        json_key(j, "channels");
        json_int(j, net_hxbar_channels(sched_net(sim_sched(sim))));
    }
    json_key(j, "link_overloads");
    json_int(j, t->link_overloads);
    json_key(j, "port_conflicts");
    json_int(j, t->port_conflicts);
    json_key(j, "violation_count");
    json_int(j, t->violations);
    json_key(j, "violations");
    json_begin_array(j);
    size_t nv = sim_nviolations(sim);
    if (info->max_violations && nv > info->max_violations)
        nv = info->max_violations;
    for (size_t i = 0; i < nv; i++)
        json_violation(j, sim, sim_violation(sim, i));
    json_end_array(j);
}

/* The cost, the asynchronous total, the closed form and the difference from it. */
static void json_run_cost(JsonOut *j, Sim *sim, const ExportRun *info)
{
    const SimTotals *t = sim_totals(sim);
    const CostParams *p = sim_params(sim);
    json_key(j, "cost");
    json_begin_object(j);
    json_key(j, "model");
    json_str(j, cost_model_name(p->model));
    json_cost_terms(j, &t->cost);
    json_end_object(j);
    json_circuit_terms(j, sim);
    if (info->has_async) {   /* (absent under lockstep: the goldens stay byte-identical) */
        json_key(j, "timing");
        json_str(j, "async");
        json_key(j, "async_total");
        json_num(j, info->async_total);
        if (net_kind(sched_net(sim_sched(sim))) == NET_HXBAR) {
            json_key(j, "channel_waits");
            json_num(j, (double)info->async_channel_waits);
            json_key(j, "channel_wait");
            json_num(j, info->async_channel_wait);
        }
    }

    json_key(j, "predicted");
    if (info->has_predicted)
        json_num(j, info->predicted);
    else
        json_null(j);
    /* The difference, with floating-point noise (relative 1e-9) shown as 0: from the time
     * the run was priced by (under --timing async the prediction is the asynchronous one) */
    json_key(j, "difference");
    if (info->has_predicted)
        json_num(j, export_difference(info->has_async ? info->async_total : t->cost.total,
                                       info->predicted));
    else
        json_null(j);
    if (!info->has_predicted && info->predicted_none) {
        json_key(j, "predicted_none");   /* why there is no closed form for these settings */
        json_str(j, info->predicted_none);
    }
    if (info->has_predicted && info->predicted_note) {
        json_key(j, "predicted_note");   /* why the run differs from it (an erratum) */
        json_str(j, info->predicted_note);
    }
}

/* A reduction (--op reduce): whose contributions reached the root (reduce.h). */
static void json_run_reduction(JsonOut *j, const Reduce *rd, const SimTotals *t)
{
    json_key(j, "op");
    json_str(j, "reduce");
    json_key(j, "reduction");
    json_begin_object(j);
    json_key(j, "verified");
    json_bool(j, reduce_verified(rd));
    json_key(j, "exact");
    json_bool(j, reduce_exact(rd));
    json_key(j, "combine");
    json_num(j, reduce_combine_cost(rd));
    json_key(j, "total");
    json_num(j, t->cost.total + reduce_combine_cost(rd));
    json_key(j, "violation_count");
    json_int(j, reduce_violation_count(rd));
    json_key(j, "violations");
    json_begin_array(j);
    for (size_t i = 0; i < reduce_nviolations(rd) && i < 100; i++) {
        const ReduceViolation *v = reduce_violation(rd, i);
        char text[256];
        json_begin_object(j);
        json_key(j, "step");
        json_int(j, v->step);
        json_key(j, "node");
        json_int(j, v->node);
        json_key(j, "chunk");
        json_int(j, v->chunk);
        json_key(j, "contribution");
        json_int(j, v->contribution);
        json_key(j, "what");
        json_str(j, v->doubled ? "doubled" : "lost");
        json_key(j, "text");
        json_str(j, reduce_violation_text(rd, v, text, sizeof text));
        json_end_object(j);
    }
    json_end_array(j);
    json_end_object(j);
}

/* Sanders & Sibeyn's lower bounds (4)-(6) on full:P under postal (bounds.h); the key is
 * there only for such runs. */
static void json_run_lower_bounds(JsonOut *j, Sim *sim)
{
    const CostParams *p = sim_params(sim);
    PostalBounds lb;
    const Sched *lsc = sim_sched(sim);
    if (net_kind(sched_net(lsc)) == NET_FULL && p->model == COST_POSTAL &&
        bounds_postal(net_size(sched_net(lsc)), sched_bytes(lsc), p, &lb)) {
        json_key(j, "lower_bounds");
        json_begin_object(j);
        json_key(j, "eq4_duplex");
        json_num(j, lb.duplex);
        json_key(j, "eq5_simplex");
        json_num(j, lb.simplex);
        json_key(j, "eq6_packets");
        json_num(j, lb.packets);
        json_key(j, "eq6_as_printed");
        json_num(j, lb.packets_paper);
        json_end_object(j);
    }
}

void json_cost_params(JsonOut *j, const CostParams *p)
{
    const char *const *names = cost_param_names(p->model);
    for (size_t i = 0; names && names[i]; i++) {
        json_key(j, names[i]);
        json_num(j, cost_param_get(p, names[i]));
    }
}

/* The model's parameters, then the algorithm's (a name both use — nu — once), and its
 * reference. */
static void json_run_params(JsonOut *j, const CostParams *p, const ExportRun *info)
{
    json_key(j, "params");
    json_begin_object(j);
    json_cost_params(j, p);
    const char *const *names = cost_param_names(p->model);
    for (int i = 0; i < info->nparams; i++) {
        bool dup = false;
        for (size_t k = 0; names && names[k]; k++)
            if (strcmp(names[k], info->param_names[i]) == 0)
                dup = true;
        if (dup)
            continue;
        json_key(j, info->param_names[i]);
        json_num(j, info->param_values[i]);
    }
    json_end_object(j);
    if (info->algo_ref && info->algo_ref[0]) {
        json_key(j, "ref");
        json_str(j, info->algo_ref);
    }
}

void export_run_json(FILE *f, Sim *sim, const ExportRun *info, bool pretty)
{
    JsonOut j;
    json_init(&j, f, pretty);
    json_begin_object(&j);
    json_run_head(&j, sim, info);
    json_run_checks(&j, sim, info);
    json_run_cost(&j, sim, info);
    if (info->reduce) json_run_reduction(&j, info->reduce, sim_totals(sim));
    json_run_lower_bounds(&j, sim);
    json_run_params(&j, sim_params(sim), info);
    json_end_object(&j);
}


/* The counts and cost columns of a run's CSV row (a step's, or the total's), with the running
 * cost last; ends the line. */
static void csv_counts_costs(FILE *f, int64_t ntransfers, int64_t tcd, uint64_t bytes,
                             int32_t max_load, int64_t overloads, int64_t conflicts,
                             int64_t violations, const SimCost *c, double cumulative)
{
    fprintf(f, "%lld,%lld,%llu,%ld,%lld,%lld,%lld,", (long long)ntransfers, (long long)tcd,
            (unsigned long long)bytes, (long)max_load, (long long)overloads,
            (long long)conflicts, (long long)violations);
    const double v[] = { c->startup, c->transmission, c->contention, c->permutation, c->total,
                         cumulative };
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) {
        if (k)
            fputc(',', f);
        csv_num(f, v[k]);
    }
    fputc('\n', f);
}

void export_run_csv(FILE *f, Sim *sim)
{
    const Sched *s = sim_sched(sim);
    const SimTotals *t = sim_totals(sim);
    fputs("step,label,transfers,tcd,bytes_moved,max_link_load,link_overloads,port_conflicts,"
          "violations,startup,transmission,contention,permutation,cost,cumulative\n", f);
    for (int32_t i = 0; i < t->nsteps && !ferror(f); i++) {
        const SimStep *st = sim_step(sim, i);
        fprintf(f, "%ld,", (long)i);
        csv_field(f, sched_step_label(s, i));
        fputc(',', f);
        csv_counts_costs(f, st->ntransfers, st->tcd, st->bytes, st->max_link_load,
                         st->link_overloads, st->port_conflicts, st->violations, &st->cost,
                         sim_cost_until(sim, i));
    }
    fputs("total,,", f);
    csv_counts_costs(f, t->ntransfers, t->tcd, t->bytes, t->max_link_load, t->link_overloads,
                     t->port_conflicts, t->violations, &t->cost, t->cost.total);
}

/* ---- schedules ------------------------------------------------------------------------- */

void export_schedule_json(FILE *f, const Sched *s, Sim *sim, bool pretty)
{
    const Net *net = sched_net(s);
    JsonOut j;
    SchedTransfer tr;
    char buf[512];
    json_init(&j, f, pretty);

    json_begin_object(&j);
    json_key(&j, "net");
    json_str(&j, net_spec(net));
    json_key(&j, "nodes");
    json_int(&j, net_size(net));
    json_key(&j, "bytes");
    json_uint(&j, sched_bytes(s));
    json_key(&j, "chunks");
    json_uint(&j, sched_nchunks(s));
    json_key(&j, "source");
    json_int(&j, sched_source(s));
    json_key(&j, "given");
    json_begin_array(&j);
    for (size_t i = 0; i < sched_ngiven(s); i++) {
        int32_t node;
        ChunkRange r;
        sched_given(s, i, &node, &r);
        json_begin_object(&j);
        json_key(&j, "node");
        json_int(&j, node);
        json_key(&j, "chunks");
        json_begin_array(&j);
        json_begin_array(&j);
        json_uint(&j, r.lo);
        json_uint(&j, r.hi);
        json_end_array(&j);
        json_end_array(&j);
        json_end_object(&j);
    }
    json_end_array(&j);
    if (sim) {
        json_key(&j, "model");
        json_str(&j, cost_model_name(sim_params(sim)->model));
        json_key(&j, "total");
        json_num(&j, sim_totals(sim)->cost.total);
    }
    json_key(&j, "transfers");
    json_int(&j, sched_total_transfers(s));
    json_key(&j, "steps");
    json_begin_array(&j);
    for (int32_t st = 0; st < sched_nsteps(s) && !ferror(f); st++) {
        json_begin_object(&j);
        json_key(&j, "step");
        json_int(&j, st);
        json_key(&j, "label");
        json_str(&j, sched_step_label(s, st));
        if (sim) {
            const SimStep *ss = sim_step(sim, st);
            json_key(&j, "cost");
            json_begin_object(&j);
            json_cost_terms(&j, &ss->cost);
            json_end_object(&j);
            json_key(&j, "max_link_load");
            json_int(&j, ss->max_link_load);
            json_key(&j, "port_conflicts");
            json_int(&j, ss->port_conflicts);
        }
        json_key(&j, "transfers");
        json_begin_array(&j);
        int64_t n = sched_ntransfers(s, st);
        for (int64_t i = 0; i < n && !((i & 255) == 255 && ferror(f)); i++) {
            sched_transfer(s, st, i, &tr);
            json_begin_object(&j);
            json_key(&j, "src");
            json_int(&j, tr.src);
            json_key(&j, "dst");
            json_int(&j, tr.dst);
            json_key(&j, "chunks");
            json_begin_array(&j);
            for (uint32_t r = 0; r < tr.nranges; r++) {
                json_begin_array(&j);
                json_uint(&j, tr.ranges[r].lo);
                json_uint(&j, tr.ranges[r].hi);
                json_end_array(&j);
            }
            json_end_array(&j);
            json_key(&j, "bytes");
            json_uint(&j, tr.bytes);
            json_key(&j, "hops");
            json_int(&j, tr.len);
            json_key(&j, "route");
            json_str(&j, export_route_text(net, tr.seg, tr.nseg, buf, sizeof buf));
            if (tr.explicit_route) {
                json_key(&j, "explicit_route");
                json_bool(&j, true);
            }
            if (sim) {
                SimTransferInfo ti;
                sim_transfer_info(sim, st, i, &ti);
                json_key(&j, "load");
                json_int(&j, ti.load);
                json_key(&j, "cost");
                json_num(&j, ti.cost);
                if (ti.subround > 0) {   /* seidel, a step played in one-port sub-rounds */
                    json_key(&j, "subround");
                    json_int(&j, ti.subround);
                }
            }
            json_end_object(&j);
        }
        json_end_array(&j);
        int64_t nl = sched_nlocals(s, st);
        if (nl > 0) {
            json_key(&j, "locals");
            json_begin_array(&j);
            for (int64_t i = 0; i < nl; i++) {
                SchedLocal l;
                sched_local_get(s, st, i, &l);
                json_begin_object(&j);
                json_key(&j, "node");
                json_int(&j, l.node);
                json_key(&j, "bytes");
                json_uint(&j, l.bytes);
                json_end_object(&j);
            }
            json_end_array(&j);
        }
        json_end_object(&j);
    }
    json_end_array(&j);
    json_end_object(&j);
}

void export_schedule_csv(FILE *f, const Sched *s, Sim *sim)
{
    const Net *net = sched_net(s);
    SchedTransfer tr;
    char buf[512];
    fputs("step,kind,src,dst,chunks,bytes,hops,route,load,cost\n", f);
    for (int32_t st = 0; st < sched_nsteps(s) && !ferror(f); st++) {
        int64_t n = sched_ntransfers(s, st);
        for (int64_t i = 0; i < n && !((i & 255) == 255 && ferror(f)); i++) {
            sched_transfer(s, st, i, &tr);
            fprintf(f, "%ld,send,%ld,%ld,", (long)st, (long)tr.src, (long)tr.dst);
            csv_chunks(f, tr.ranges, tr.nranges);
            fprintf(f, ",%llu,%lld,", (unsigned long long)tr.bytes, (long long)tr.len);
            csv_field(f, export_route_text(net, tr.seg, tr.nseg, buf, sizeof buf));
            fputc(',', f);
            if (sim) {
                SimTransferInfo ti;
                sim_transfer_info(sim, st, i, &ti);
                fprintf(f, "%ld,", (long)ti.load);
                csv_num(f, ti.cost);
            } else {
                fputc(',', f);
            }
            fputc('\n', f);
        }
        int64_t nl = sched_nlocals(s, st);
        for (int64_t i = 0; i < nl; i++) {
            SchedLocal l;
            sched_local_get(s, st, i, &l);
            fprintf(f, "%ld,local,%ld,,,%llu,0,,,", (long)st, (long)l.node,
                    (unsigned long long)l.bytes);
            if (sim)
                csv_num(f, sim_params(sim)->rho * (double)l.bytes);
            fputc('\n', f);
        }
    }
}
