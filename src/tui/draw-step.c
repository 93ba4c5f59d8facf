/* draw-step.c — the Step panel (see draw-step.h). */
#include "draw-step.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algos/algo.h"
#include "../algos/cangwu/cangwu.h"
#include "../engine/bounds.h"
#include "../engine/chunkset.h"
#include "../engine/circuit-bounds.h"
#include "../engine/circuit.h"
#include "../engine/text.h"
#include "../engine/tso.h"
#include "theme.h"

/* Under the circuit model on a ring or torus: the run's alpha/delta/L*tau multiples and
 * Peters & Syska's Proposition 1 lower bound beside them. */
static void draw_bounds(Box *b, Sim *sim, int attr)
{
    const CostParams *p = sim_params(sim);
    const Sched *s = sim_sched(sim);
    CircuitBounds bd;
    if (p->model != COST_CIRCUIT || !bounds_circuit(sched_net(s), p, sched_bytes(s), &bd))
        return;
    const SimTotals *T = sim_totals(sim);
    double lt = sched_bytes(s) ? (double)T->phase_bytes / (double)sched_bytes(s) : 0;
    char c1[32];
    draw_box_put(b, attr, "Terms: %ld alpha, %lld delta, %.3g L*tau", (long)T->phases,
            (long long)T->switch_hops, lt);
    draw_fmt_cost(c1, sizeof c1, bd.total);
    draw_box_put(b, attr, "Lower bound %s: %ld alpha, %lld delta, L*tau/%d", c1, (long)bd.phases,
            (long long)bd.diameter, bd.lambda);
}

/* Before the first step: who holds what. */
static void step_before(const Bcast *bc, Box *b)
{
    const Net *net = bc->setup.net;
    Sched *s = bc->sched;
    int32_t n = sched_nsteps(s);
    char nm[48];
    int head = theme_attr(R_HEAD), dim = theme_attr(R_DIM);
    draw_box_put(b, head, "Step 0/%ld  before the first step", (long)n);
    if (bc->reduce)   /* a script's own reduction */
        draw_box_put(b, dim, "every node holds its contribution; root %s combines",
                net_node_name(net, bc->setup.args.source, nm, sizeof nm));
    else if (bc->setup.sources && bc->setup.nsources > 1)
        draw_box_put(b, dim, "%ld sources (@) hold their own messages",
                (long)bc->setup.nsources);
    else
        draw_box_put(b, dim, "the source %s holds the whole message",
                net_node_name(net, sched_source(s), nm, sizeof nm));
    draw_box_put(b, dim, "press n to take the first step");
}

/* The step shown: its label, its transfers (as many as fit), its cost and its overloads. */
/* The kept lines: those of transfers 0..n-1 of step `step` of broadcast `gen`, made with the
 * arrow glyph `arrow` (the glyphs change with --ascii and the theme). */
#define STEPLINES_MAX 64
struct StepLines {
    long gen;
    int32_t step;
    const char *arrow;
    int n;
    bool bad[STEPLINES_MAX];
    char text[STEPLINES_MAX][512];   /* (as long as a Box line) */
};

StepLines *steplines_new(void)
{
    StepLines *l = calloc(1, sizeof *l);
    if (l) l->step = -1;
    return l;
}

void steplines_free(StepLines *l) { free(l); }

/* Transfer i's line (" src>dst [chunks] hops k load #subround cost") into t; bad: contention. */
static void transfer_line(const Bcast *bc, int32_t step, int64_t i, char *t, size_t len,
                          bool *bad)
{
    const Net *net = bc->setup.net;
    SchedTransfer tr;
    sched_transfer(bc->sched, step, i, &tr);
    SimTransferInfo ti;
    sim_transfer_info(bc->sim, step, i, &ti);
    char ch[64], c1[32], nm[48], nm2[48];
    chunkset_format(tr.ranges, tr.nranges, ch, sizeof ch);
    draw_fmt_cost(c1, sizeof c1, ti.cost);
    char sr[16] = "";
    if (ti.subround > 0)
        snprintf(sr, sizeof sr, " #%ld", (long)ti.subround);
    snprintf(t, len, " %s%s%s [%s] %lldh k%ld%s %s", net_node_name(net, tr.src, nm, sizeof nm),
             theme_glyphs()->right, net_node_name(net, tr.dst, nm2, sizeof nm2), ch,
             (long long)tr.len, (long)ti.load, sr, c1);
    *bad = ti.contention > 0;
}

/* Transfer i's line, from the kept ones when it is there (else made, and kept when it can). */
static const char *step_line(const Bcast *bc, StepLines *l, int32_t step, int64_t i, char *t,
                             size_t len, bool *bad)
{
    if (!l || i >= STEPLINES_MAX) {
        transfer_line(bc, step, i, t, len, bad);
        return t;
    }
    if (l->gen != bc->gen || l->step != step || l->arrow != theme_glyphs()->right) {
        l->gen = bc->gen;
        l->step = step;
        l->arrow = theme_glyphs()->right;
        l->n = 0;
    }
    while (l->n <= i) {   /* in order: the panel asks 0, 1, 2, ... */
        transfer_line(bc, step, l->n, l->text[l->n], sizeof l->text[l->n], &l->bad[l->n]);
        l->n++;
    }
    *bad = l->bad[i];
    return l->text[i];
}

static void step_this(const Bcast *bc, StepLines *lines, Box *b, int32_t step, bool full)
{
    const Net *net = bc->setup.net;
    Sim *sim = bc->sim;
    Sched *s = bc->sched;
    int32_t n = sched_nsteps(s);
    const SimTotals *T = sim_totals(sim);
    char c1[32];
    int head = theme_attr(R_HEAD), dim = theme_attr(R_DIM), norm = theme_attr(R_NORMAL);
    const char *label = sched_step_label(s, step);
    draw_box_put(b, head, "Step %ld/%ld%s%s", (long)step + 1, (long)n, label[0] ? "  " : "", label);
    const SimStep *S = sim_step(sim, step);
    int64_t nt = sched_ntransfers(s, step);
    draw_box_put(b, norm, "%lld transfer%s, max %s load %ld", (long long)nt, nt == 1 ? "" : "s",
            circuit_words(sim_params(sim)->model)->link, (long)S->max_link_load);
    if (S->subrounds > 1)   /* seidel: a node's sends one after another */
        draw_box_put(b, theme_attr(R_HILITE), "one-port: %ld sub-rounds (#j), costs added",
                (long)S->subrounds);
    draw_box_put(b, norm, "active nodes %ld/%ld (holding a message; %ld before)",
            (long)S->informed, (long)net_size(net),
            (long)(step > 0 ? sim_step(sim, step - 1)->informed : T->informed_before));
    int listmax = full ? b->h - b->row - 17 : 6;
    if (listmax < 2) listmax = 2;
    for (int64_t i = 0; i < nt && i < listmax && draw_box_line(b); i++) {
        char t[512];
        bool bad;
        const char *line = step_line(bc, lines, step, i, t, sizeof t, &bad);
        draw_box_put(b, bad ? theme_attr(R_BAD) : theme_attr(R_CIRCUIT), "%s", line);
    }
    if (nt > listmax) draw_box_put(b, dim, " ... %lld more", (long long)(nt - listmax));
    draw_fmt_cost(c1, sizeof c1, S->cost.total);
    snprintf(c1 + strlen(c1), sizeof c1 - strlen(c1), " %s", cost_unit(bc->setup.cost.model));
    draw_box_kv(b, head, "Cost of this step", c1);
    draw_fmt_cost(c1, sizeof c1, S->cost.startup);
    draw_box_kv(b, norm, "  startup", c1);
    draw_fmt_cost(c1, sizeof c1, S->cost.transmission);
    draw_box_kv(b, norm, "  transmission", c1);
    draw_fmt_cost(c1, sizeof c1, S->cost.contention);
    draw_box_kv(b, S->cost.contention > 0 ? theme_attr(R_BAD) : norm, "  contention", c1);
    draw_fmt_cost(c1, sizeof c1, S->cost.permutation);
    draw_box_kv(b, norm, "  permutation", c1);
    const CircuitWords *w = circuit_words(sim_params(sim)->model);
    char wk[40];
    snprintf(c1, sizeof c1, "%lld", (long long)S->link_overloads);
    snprintf(wk, sizeof wk, "  %s", w->overloaded);
    draw_box_kv(b, S->link_overloads ? theme_attr(R_BAD) : dim, wk, c1);
    snprintf(c1, sizeof c1, "%lld", (long long)S->port_conflicts);
    snprintf(wk, sizeof wk, "  %s", w->ports);
    draw_box_kv(b, S->port_conflicts ? theme_attr(R_BAD) : dim, wk, c1);
}

/* The running total, the total and what the paper predicts: false while the rest of the
 * broadcast is still being simulated (no total yet). */
static bool step_totals(const StepSrc *src, Box *b, int32_t step)
{
    const Bcast *bc = src->b;
    const Net *net = bc->setup.net;
    Sim *sim = bc->sim;
    const SimTotals *T = sim_totals(sim);
    char c1[32];
    int head = theme_attr(R_HEAD), dim = theme_attr(R_DIM), norm = theme_attr(R_NORMAL);
    /* the totals in the model's unit (us under seidel; units under the others) */
    const char *unit = cost_unit(bc->setup.cost.model);
    char cu[48];
    double run = step >= 0 ? sim_cost_until(sim, step) : 0;
    draw_fmt_cost(c1, sizeof c1, run);
    snprintf(cu, sizeof cu, "%s %s", c1, unit);
    draw_box_kv(b, head, "Running total", cu);
    if (src->simulating) {
        /* the rest is being simulated: no total, verdict or bound yet */
        draw_box_put(b, dim, "Total: simulating the rest, step %lld/%lld...", src->rest_done + 1,
                     src->rest_total);
        return false;
    }
    draw_fmt_cost(c1, sizeof c1, T->cost.total);
    snprintf(cu, sizeof cu, "%s %s", c1, unit);
    draw_box_kv(b, norm, "Total", cu);
    if (bc->has_predicted) {
        draw_fmt_cost(c1, sizeof c1, bc->predicted);
        snprintf(c1 + strlen(c1), sizeof c1 - strlen(c1), " %s", unit);
        double d = T->cost.total - bc->predicted;
        bool agree = fabs(d) <= 1e-6 * (fabs(bc->predicted) > 1 ? fabs(bc->predicted) : 1);
        draw_box_kv(b, agree ? theme_attr(R_GOOD) : theme_attr(R_BAD),
               agree ? "Predicted (paper) =" : "Predicted (paper) !=", c1);
        char why[256], line[300];
        if (!agree && algo_predict_note(bc->setup.def, net, &bc->setup.args, &bc->setup.cost,
                                        why, sizeof why)) {
            snprintf(line, sizeof line, "known: %s", why);
            draw_wrap(b, dim, line, 0);
        }
    } else if (algo_predict_error(bc->setup.def)) {
        /* the script's predict raised: an error, not "no closed form" */
        char e[200];
        draw_box_put(b, theme_attr(R_BAD), "Predicted: error: %s",
                text_quote(algo_predict_error(bc->setup.def), 150, e, sizeof e));
    } else {
        char why[256], line[300];
        if (algo_predict_none(bc->setup.def, net, &bc->setup.args, &bc->setup.cost, why,
                              sizeof why)) {
            snprintf(line, sizeof line, "Predicted (paper): none: %s", why);
            draw_wrap(b, dim, line, 0);
        } else {
            draw_box_put(b, dim, "Predicted (paper): no closed form");
        }
    }
    if (bc->auto_note[0]) draw_wrap(b, dim, bc->auto_note, 2);   /* s=auto, r=auto */
    return true;
}

/* The whole run's checks: bounds, verification, the reduction, TCD, time-step optimality. */
static void step_checks(const Bcast *bc, Box *b, int32_t step)
{
    const Net *net = bc->setup.net;
    Sim *sim = bc->sim;
    const SimTotals *T = sim_totals(sim);
    char c1[32];
    int dim = theme_attr(R_DIM);
    PostalBounds lb;   /* Sanders & Sibeyn's lower bounds beside a postal run on full:P */
    if (net_kind(net) == NET_FULL && sim_params(sim)->model == COST_POSTAL &&
        bounds_postal(net_size(net), sched_bytes(sim_sched(sim)), sim_params(sim), &lb)) {
        draw_fmt_cost(c1, sizeof c1, lb.duplex);
        draw_box_kv(b, dim, "Bound (4) k+t lgP", c1);
        draw_fmt_cost(c1, sizeof c1, lb.simplex);
        draw_box_kv(b, dim, "Bound (5) simplex", c1);
        draw_fmt_cost(c1, sizeof c1, lb.packets);
        draw_box_kv(b, dim, "Bound (6) packets", c1);
    }
    draw_box_put(b, T->valid ? theme_attr(R_GOOD) : theme_attr(R_BAD), "%s, %s",
            T->verified ? "verified" : "NOT verified", T->valid ? "valid" : "violates the model");
    if (bc->reduce) {   /* a script's own reduction: the root's contributions */
        const Reduce *rd = bc->reduce;
        char rt[200];
        if (reduce_verified(rd))
            draw_box_put(b, theme_attr(R_GOOD), "reduction: the root has every contribution once");
        else
            draw_box_put(b, theme_attr(R_BAD), "reduction NOT verified: %lld lost or doubled",
                    (long long)reduce_violation_count(rd));
        for (size_t i = 0; i < reduce_nviolations(rd) && i < 3; i++)
            draw_wrap(b, theme_attr(R_BAD),
                     reduce_violation_text(rd, reduce_violation(rd, i), rt, sizeof rt), 2);
        uint64_t cnt, full;
        if (bcast_partial_count(bc, bc->setup.args.source, &cnt, &full)) {
            snprintf(rt, sizeof rt, "cells: the contributions each node's partials combine "
                     "(over its chunks); the root has %llu of %llu", (unsigned long long)cnt,
                     (unsigned long long)full);
            draw_wrap(b, dim, rt, 2);
        }
    }
    draw_box_put(b, dim, "TCD %lld, max %s load %ld", (long long)T->tcd,
            circuit_words(sim_params(sim)->model)->link, (long)T->max_link_load);
    if (T->split_steps > 0)   /* seidel's one-port rule, played in sub-rounds */
        draw_box_put(b, dim, "one-port: %ld step%s in sub-rounds (%lld in all)", (long)T->split_steps,
                T->split_steps == 1 ? "" : "s", (long long)T->subrounds);
    draw_bounds(b, sim, dim);
    /* Cang & Wu: the TCD's closed form, the time-step verdict, the level and its eyes */
    double ptcd;
    if (algo_predict_tcd(bc->setup.def, net, &bc->setup.args, &ptcd))
        draw_box_put(b, ptcd == (double)T->tcd ? theme_attr(R_GOOD) : theme_attr(R_BAD),
                "TCD predicted (paper) %s %.0f", ptcd == (double)T->tcd ? "=" : "!=", ptcd);
    TsoVerdict tv;
    tso_check(sim, &tv);
    draw_box_put(b, tv.optimal ? theme_attr(R_GOOD) : dim, "time-step optimal: %s%s",
            sched_nchunks(sim_sched(sim)) > 1 ? "n/a (chunks)" : tv.optimal ? "yes" : "no",
            tv.contention_free ? ", contention-free" : "");
    int lvl = strncmp(bc->setup.def->name, "tcd", 3) == 0
                  ? (step < 0 ? cangwu_step_level(net, 0) : cangwu_step_level(net, step)) : 0;
    if (lvl >= 1)
        draw_box_put(b, dim, "level %d: %ld-wide blocks inform e, the eyes of their quadrants; "
                "E: the mesh's eyes", lvl, (long)1 << lvl);
}

/* The model's violations at the step shown. */
static void step_violations(const Bcast *bc, Box *b, int32_t step)
{
    Sim *sim = bc->sim;
    Sched *s = bc->sched;
    int32_t n = sched_nsteps(s);
    /* the model's violations at this step */
    size_t nv = sim_nviolations(sim);
    int shown = 0;
    for (size_t i = 0; i < nv && draw_box_line(b); i++) {
        const SimViolation *v = sim_violation(sim, i);
        if (v->step != step && !(v->kind == SIM_V_INCOMPLETE && step == n - 1)) continue;
        char t[200];
        sim_violation_text(sim, v, t, sizeof t);
        if (shown++ == 0) draw_box_put(b, theme_attr(R_BAD), "Violations:");
        draw_wrap(b, theme_attr(R_BAD), t, 1);
        /* the transfers that collide, by name (sim-involved.c) */
        char inv[600], line[620];
        if (sim_violation_involved_text(sim, v, inv, sizeof inv)[0] && draw_box_line(b)) {
            snprintf(line, sizeof line, "by %s", inv);
            draw_wrap(b, theme_attr(R_BAD), line, 2);
        }
        if (shown >= 4) break;
    }
}

void draw_step(const StepSrc *src, Box *b, bool full)
{
    const Bcast *bc = src->b;
    int32_t step = bcast_step_shown(bc);
    if (step < 0) step_before(bc, b);
    else step_this(bc, src->lines, b, step, full);
    if (step_totals(src, b, step)) step_checks(bc, b, step);
    step_violations(bc, b, step);
}
