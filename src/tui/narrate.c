/* narrate.c — a step in words (see narrate.h). */
#include "narrate.h"

#include "../engine/asyncview.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "right", "up", ... for a move along dim in direction dir on a net of nd dimensions. */
static const char *dir_word(int nd, int dim, int dir)
{
    int from_last = nd - 1 - dim;   /* 0: columns, 1: rows, 2: slices */
    if (from_last == 0) return dir > 0 ? "right" : "left";
    if (from_last == 1) return dir > 0 ? "down" : "up";
    return dir > 0 ? "to the next slice" : "to the previous slice";
}

static void cat(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void cat(char *buf, size_t len, const char *fmt, ...)
{
    size_t l = strlen(buf);
    if (l + 1 >= len) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + l, len - l, fmt, ap);
    va_end(ap);
}

static void num(char *buf, size_t len, double v)
{
    if (fabs(v) >= 1e7) snprintf(buf, len, "%.4g", v);
    else snprintf(buf, len, "%.2f", v);
}

/* The step's cost as its terms: "b + m·a = 75.00 + 81.92 = 156.92" (seidel's words; the
 * other models' own). */
static void cost_words(const CostParams *p, const SimStep *S, bool ascii, char *buf, size_t len)
{
    const char *st = "startup", *tr = "transmission";
    switch (p->model) {
    case COST_SEIDEL: st = "b"; tr = ascii ? "m*a" : "m\u00b7a"; break;
    case COST_POSTAL: st = "t"; tr = ascii ? "beta*L" : "\u03b2L"; break;
    case COST_CIRCUIT: st = ascii ? "(alpha + d*delta)" : "(\u03b1 + d\u03b4)"; tr = ascii ? "L*tau" : "L\u03c4"; break;
    case COST_SAF: st = ascii ? "d*beta" : "d\u03b2"; tr = ascii ? "d*L*tau" : "dL\u03c4"; break;
    default: break;
    }
    char a[32], b[32], c[32], d[32], t[32];
    num(a, sizeof a, S->cost.startup);
    num(b, sizeof b, S->cost.transmission);
    num(c, sizeof c, S->cost.contention);
    num(d, sizeof d, S->cost.permutation);
    num(t, sizeof t, S->cost.total);
    char names[96], vals[128];
    snprintf(names, sizeof names, "%s + %s", st, tr);
    snprintf(vals, sizeof vals, "%s + %s", a, b);
    if (S->cost.contention != 0) {
        cat(names, sizeof names, " + contention");
        cat(vals, sizeof vals, " + %s", c);
    }
    if (S->cost.permutation != 0) {
        cat(names, sizeof names, " + local");
        cat(vals, sizeof vals, " + %s", d);
    }
    snprintf(buf, len, "%s = %s = %s", names, vals, t);
}

/* full and hxbar: one hop to any processor, no directions; the ports (and on an hxbar the
 * modules' channels) are what transfers can share. */
static void pairwise_words(const Net *net, const SimStep *S, char *buf, size_t len)
{
    cat(buf, len, ", each straight to its receiver");
    int32_t c = net_hxbar_channels(net);
    if (net_kind(net) == NET_HXBAR && S->max_channel_load > 0)
        cat(buf, len, "; up to %ld transfer%s through one module's %ld channel%s%s",
            (long)S->max_channel_load, S->max_channel_load == 1 ? "" : "s", (long)c,
            c == 1 ? "" : "s", S->max_channel_load > c ? " (overloaded)" : "");
    if (S->port_conflicts > 0)
        cat(buf, len, "; %lld port conflict%s", (long long)S->port_conflicts,
            S->port_conflicts == 1 ? "" : "s");
    else
        cat(buf, len, "; no port used twice");
}

/* arrays, rings, meshes, tori: the routes' directions and lengths, and the links they share */
static void route_words(Sim *sim, const Net *net, const SimStep *S, const SimShape *sh,
                        int64_t nt, char *buf, size_t len)
{
    int nd = net_ndim(net);
    int ndirs = 0;
    for (int k = 0; k < 2 * NET_MAXDIM; k++)
        ndirs += (sh->dirs >> k) & 1;
    if (ndirs == 1) {
        for (int k = 0; k < 2 * NET_MAXDIM; k++)
            if ((sh->dirs >> k) & 1) cat(buf, len, " %s", dir_word(nd, k / 2, (k % 2) ? 1 : -1));
    } else {
        cat(buf, len, " in %d directions", ndirs);
    }
    if (sh->turns) cat(buf, len, " (turning)");
    if (sh->hmin == sh->hmax)
        cat(buf, len, ", %lld hop%s%s", (long long)sh->hmin, sh->hmin == 1 ? "" : "s",
            nt > 1 ? " each" : "");
    else
        cat(buf, len, ", %lld to %lld hops", (long long)sh->hmin, (long long)sh->hmax);
    const CostParams *p = sim_params(sim);
    int cap = p->model == COST_SEIDEL ? (1 << p->nu) : 1;
    if (S->max_link_load <= 1)
        cat(buf, len, "; no link shared");
    else if (S->max_link_load <= cap)
        cat(buf, len, "; links carry up to %ld circuits (capacity %d)",
            (long)S->max_link_load, cap);
    else
        cat(buf, len, "; %lld link%s overloaded, up to %ld circuits (capacity %d)",
            (long long)S->link_overloads, S->link_overloads == 1 ? "" : "s",
            (long)S->max_link_load, cap);
    if (S->port_conflicts > 0)
        cat(buf, len, "; %lld port conflict%s", (long long)S->port_conflicts,
            S->port_conflicts == 1 ? "" : "s");
}

void narrate_step(Sim *sim, int32_t pos, bool ascii, char *buf, size_t len)
{
    const Sched *s = sim_sched(sim);
    const Net *net = sched_net(s);
    int32_t n = sched_nsteps(s);
    buf[0] = '\0';
    char nm[48];
    /* a reduction (every node starts with all of its own contribution) */
    size_t full = 0;
    for (size_t i = 0; i < sched_ngiven(s); i++) {
        int32_t v;
        ChunkRange r;
        sched_given(s, i, &v, &r);
        full += r.lo == 0 && r.hi == sched_nchunks(s);
    }
    bool reduce = full >= (size_t)net_size(net) && net_size(net) > 1;
    if (pos <= 0 && reduce) {
        snprintf(buf, len, "Before step 1: every node holds its own contribution (%lu chunk%s, "
                 "%llu bytes); %ld step%s to combine them at %s.",
                 (unsigned long)sched_nchunks(s), sched_nchunks(s) == 1 ? "" : "s",
                 (unsigned long long)sched_bytes(s), (long)n, n == 1 ? "" : "s",
                 net_node_name(net, sched_source(s), nm, sizeof nm));
        return;
    }
    if (pos <= 0 && sched_ngiven(s) > 1) {
        /* s-to-p: count the nodes that start with a message */
        bool *has = calloc((size_t)net_size(net), 1);
        int64_t holders = 0;
        for (size_t i = 0; has && i < sched_ngiven(s); i++) {
            int32_t v;
            ChunkRange r;
            sched_given(s, i, &v, &r);
            if (!has[v]) holders++;
            has[v] = true;
        }
        free(has);
        if (holders > 1) {
            snprintf(buf, len, "Before step 1: %lld sources hold their own messages (%lu chunks, "
                     "%llu bytes in all); %ld step%s to go.", (long long)holders,
                     (unsigned long)sched_nchunks(s), (unsigned long long)sched_bytes(s),
                     (long)n, n == 1 ? "" : "s");
            return;
        }
    }
    if (pos <= 0) {
        snprintf(buf, len, "Before step 1: %s holds the whole message (%lu chunk%s, %llu bytes); "
                 "%ld step%s to go.", net_node_name(net, sched_source(s), nm, sizeof nm),
                 (unsigned long)sched_nchunks(s), sched_nchunks(s) == 1 ? "" : "s",
                 (unsigned long long)sched_bytes(s), (long)n, n == 1 ? "" : "s");
        return;
    }
    int32_t st = pos - 1;
    const SimStep *S = sim_step(sim, st);
    int64_t nt = sched_ntransfers(s, st);
    snprintf(buf, len, "Step %ld/%ld%s: ", (long)pos, (long)n, reduce ? " (reduce)" : "");
    if (nt == 0) {
        cat(buf, len, "no transfers");
    } else {
        /* who sends: distinct senders, and the directions and lengths of the routes */
        SimShape sh;
        if (!sim_step_shape(sim, st, &sh)) {
            cat(buf, len, "%lld transfers", (long long)nt);
            return;
        }
        int64_t senders = sh.senders;
        int32_t one = sh.one_sender;
        if (senders == 1 && one == sched_source(s) && pos == 1)
            cat(buf, len, "the source sends");
        else if (senders == 1)
            cat(buf, len, "node %s sends", net_node_name(net, one, nm, sizeof nm));
        else if (reduce)   /* every node holds a partial of every chunk */
            cat(buf, len, "%lld nodes send their partials", (long long)senders);
        else
            cat(buf, len, "%lld holders send", (long long)senders);
        if (nt > senders) cat(buf, len, " %lld messages", (long long)nt);
        if (net_pairwise(net))
            pairwise_words(net, S, buf, len);
        else
            route_words(sim, net, S, &sh, nt, buf, len);
        int32_t before = st == 0 ? sim_totals(sim)->informed_before : sim_step(sim, st - 1)->informed;
        int32_t fresh = S->informed - before;
        if (fresh > 0)
            cat(buf, len, "; %ld newly informed", (long)fresh);
    }
    char c[400];
    cost_words(sim_params(sim), S, ascii, c, sizeof c);
    cat(buf, len, "; costs %s %s", c, cost_unit(sim_params(sim)->model));
}

void narrate_moment(struct AsyncView *v, const char *unit, char *buf, size_t len)
{
    int64_t i = asyncview_pos(v), n = asyncview_ntimes(v);
    char t[32], e[32];
    num(t, sizeof t, asyncview_time(v, i));
    num(e, sizeof e, asyncview_time(v, n - 1));
    int64_t st = asyncview_nstarting(v), en = asyncview_nending(v), fl = asyncview_nflight(v);
    snprintf(buf, len, "t = %s of %s %s (moment %lld/%lld): %lld transfer%s start%s, %lld "
             "end%s, %lld in flight%s", t, e, unit, (long long)i, (long long)n - 1,
             (long long)st, st == 1 ? "" : "s", st == 1 ? "s" : "", (long long)en,
             en == 1 ? "s" : "", (long long)fl,
             i == n - 1 ? "; the broadcast is complete" : "");
}
