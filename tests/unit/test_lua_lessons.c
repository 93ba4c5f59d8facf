/* test_lua_lessons.c — the shipped lessons load, have 6..12 pages with questions, every page's
 * broadcast builds and its step exists, and every question's answer is TRUE of what the engine
 * computes (each answer is derived here from a build + simulation and compared with the
 * lesson's).  Also: malformed lessons are refused with the page named; progress round-trips
 * under $XDG_STATE_HOME; lesson_list finds the shipped lessons. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "../../src/algos/algo.h"
#include "../../src/engine/circuit.h"
#include "../../src/engine/sim.h"
#include "../../src/engine/dist.h"
#include "../../src/algos/cangwu/cangwu.h"
#include "../../src/engine/tso.h"
#include "../../src/script/lesson-state.h"
#include "../../src/script/lesson.h"
#include "../../src/script/script.h"
#include "srctree.h"

/* The broadcast a page shows (settings carried over from page to page). */
typedef struct {
    char net[64], algo[64], source[32], model[16], sources[32];
    uint64_t bytes;
    int nu;
    char B[32];   /* Peters & Syska's packet size (set = { B = ... }), "" if none */
} Show;

typedef struct {
    Net *net;
    const AlgoDef *def;
    AlgoDef *owned;
    Sched *s;
    Sim *sim;
    AlgoArgs a;
    int32_t *src;   /* s-to-p sources (dist_parse) */
} Built;

static Built build(const Show *sh)
{
    Built b = {0};
    char err[512];
    b.net = net_parse(sh->net, err, sizeof err);
    if (!b.net)
        fail_msg("%s", err);
    b.def = script_algo(sh->algo, b.net, &b.owned, err, sizeof err);
    if (!b.def)
        fail_msg("%s", err);
    algo_args_init(&b.a, b.def);
    b.a.source = net_parse_node(b.net, sh->source[0] ? sh->source : "0");
    if (sh->sources[0]) {
        DistKind k;
        if (!dist_parse(b.net, sh->sources, &b.src, &b.a.nsources, &k, err, sizeof err))
            fail_msg("%s", err);
        b.a.sources = b.src;
        b.a.source = b.src[0];
        b.a.dist = (int)k;
    }
    b.a.bytes = sh->bytes;
    b.a.nu = sh->nu;
    if (sh->B[0] && algo_args_set(&b.a, b.def, "B", sh->B, err, sizeof err) != 0)
        fail_msg("B=%s: %s", sh->B, err);
    b.s = algo_build(b.def, b.net, &b.a, err, sizeof err);
    if (!b.s)
        fail_msg("%s on %s: %s", sh->algo, sh->net, err);
    CostParams p;
    CostModel m = COST_SEIDEL;
    cost_model_parse(sh->model[0] ? sh->model : "seidel", &m);
    cost_defaults(&p, m);
    p.nu = sh->nu;
    b.sim = sim_run(b.s, &p, SIM_HISTORY, err, sizeof err);
    assert_non_null(b.sim);
    return b;
}

static void unbuild(Built *b)
{
    sim_free(b->sim);
    sched_free(b->s);
    algo_release(b->owned);
    net_free(b->net);
    free(b->src);
}

/* The simulated cost of what sh shows. */
static double show_cost(const Show *sh)
{
    Built b = build(sh);
    double c = sim_totals(b.sim)->cost.total;
    unbuild(&b);
    return c;
}

static double cost_of(const char *net, const char *algo, uint64_t bytes)
{
    Show sh = {0};
    snprintf(sh.net, sizeof sh.net, "%s", net);
    snprintf(sh.algo, sizeof sh.algo, "%s", algo);
    sh.bytes = bytes;
    Built b = build(&sh);
    double c = sim_totals(b.sim)->cost.total;
    unbuild(&b);
    return c;
}

/* Cost or step count of algo on net from source src ("" = 0) under model with nu. */
static double cost_m(const char *net, const char *algo, uint64_t bytes, const char *model,
                     int nu, const char *src, int32_t *nsteps)
{
    Show sh = {0};
    snprintf(sh.net, sizeof sh.net, "%s", net);
    snprintf(sh.algo, sizeof sh.algo, "%s", algo);
    snprintf(sh.model, sizeof sh.model, "%s", model);
    snprintf(sh.source, sizeof sh.source, "%s", src);
    sh.bytes = bytes;
    sh.nu = nu;
    Built b = build(&sh);
    double c = sim_totals(b.sim)->cost.total;
    if (nsteps) *nsteps = sim_totals(b.sim)->nsteps;
    unbuild(&b);
    return c;
}

/* The cheapest of ST, BST, RH ("ST", ...), checking that it is strictly cheapest. */
static const char *cheapest(const char *net, uint64_t bytes, const char *model, int nu)
{
    static const char *const names[] = {"st", "bst", "rh"}, *const up[] = {"ST", "BST", "RH"};
    int best = 0;
    double c[3];
    for (int i = 0; i < 3; i++) {
        c[i] = cost_m(net, names[i], bytes, model, nu, "", NULL);
        if (c[i] < c[best]) best = i;
    }
    for (int i = 0; i < 3; i++)
        if (i != best && c[i] <= c[best] + 1e-9) fail_msg("%s at %llu: a tie", net,
                                                          (unsigned long long)bytes);
    return up[best];
}

static int32_t steps_of(const char *net, const char *algo, const char *src)
{
    int32_t n;
    cost_m(net, algo, 1024, "seidel", 0, src, &n);
    return n;
}

/* The destination of src's transfer in step `step` (1-based). */
static int32_t dst_of(const Built *b, int32_t step, int32_t src)
{
    for (int64_t i = 0; i < sched_ntransfers(b->s, step - 1); i++) {
        SchedTransfer t;
        sched_transfer(b->s, step - 1, i, &t);
        if (t.src == src) return t.dst;
    }
    fail_msg("no transfer from %d in step %d", src, step);
    return -1;
}

/* Index of the choice that starts with text. */
static int choice(const LessonPage *pg, const char *text)
{
    for (size_t i = 0; i < pg->nchoices; i++)
        if (strncmp(pg->choices[i], text, strlen(text)) == 0)
            return (int)i;
    fail_msg("no choice starts with [%s] (question: %s)", text, pg->question);
    return -1;
}

static int choicef(const LessonPage *pg, const char *fmt, double v)
{
    char buf[64];
    snprintf(buf, sizeof buf, fmt, v);
    return choice(pg, buf);
}

/* The first directed link of the step's transfer from src. */
static int64_t first_link_of(const Built *b, int32_t step, int32_t src)
{
    for (int64_t i = 0; i < sched_ntransfers(b->s, step - 1); i++) {
        SchedTransfer t;
        sched_transfer(b->s, step - 1, i, &t);
        if (t.src == src)
            return net_link(b->net, t.src, t.seg[0].dim, t.seg[0].dir);
    }
    fail_msg("no transfer from %d in step %d", src, step);
    return -1;
}

static bool has_transfer(const Built *b, int32_t step, int32_t src, int32_t dst)
{
    for (int64_t i = 0; i < sched_ntransfers(b->s, step - 1); i++) {
        SchedTransfer t;
        sched_transfer(b->s, step - 1, i, &t);
        if (t.src == src && t.dst == dst)
            return true;
    }
    return false;
}

/* The position right after the step in which node n first holds a chunk. */
static int32_t first_holds(Built *b, int32_t n)
{
    for (int32_t pos = 0; pos <= sim_totals(b->sim)->nsteps; pos++) {
        assert_true(sim_seek(b->sim, pos));
        if (sim_held(b->sim, n) > 0) return pos;
    }
    fail_msg("node %d never holds anything", n);
    return -1;
}

static int32_t rc(const Built *b, int r, int c)
{
    int32_t x[2] = {r, c};
    return net_id(b->net, x);
}

/* Peters & Syska's lessons (lessons/circuit-*.lua). */
static void check_peters_page(const char *lesson, size_t pno, const LessonPage *pg, Built *b,
                              const Show *sh, int *want, int32_t *want_node, int64_t *want_link,
                              int32_t *want_step)
{
    const SimTotals *t = sim_totals(b->sim);
    if (strcmp(lesson, "circuit-tiling") == 0) {
        switch (pno) {
        case 1: *want = choicef(pg, "%g", (double)sched_ntransfers(b->s, 0)); break;
        case 2:
            for (int64_t i = 0; i < sched_ntransfers(b->s, 0); i++) {
                SchedTransfer tr;
                sched_transfer(b->s, 0, i, &tr);
                if (tr.seg[0].dim == 0 && tr.seg[0].dir == 1)
                    *want_node = tr.dst;
            }
            break;
        case 3: *want = choicef(pg, "%g", (double)sim_step(b->sim, 1)->max_len); break;
        case 4: *want_step = first_holds(b, rc(b, 2, 2)); break;
        case 5: *want = choicef(pg, "%g", t->cost.total); break;
        case 6: *want = choicef(pg, "%g", t->phases); break;
        case 7: {
            /* phase 1 again, with the path to (1,2) rows first: the engine names the arc */
            Sched *s2 = sched_new(b->net, 1, sh->bytes);
            sched_give(s2, 0, 0, 1);
            sched_step(s2);
            for (int64_t i = 0; i < sched_ntransfers(b->s, 0); i++) {
                SchedTransfer tr;
                sched_transfer(b->s, 0, i, &tr);
                NetSeg seg[2] = { tr.seg[0], tr.seg[1] };
                if (tr.dst == rc(b, 1, 2)) {
                    seg[0] = tr.seg[1];
                    seg[1] = tr.seg[0];
                }
                ChunkRange all = { 0, 1 };
                assert_true(sched_send_route(s2, 0, tr.dst, &all, 1, seg, 2));
            }
            CostParams p;
            cost_defaults(&p, COST_CIRCUIT);
            char err[256];
            Sim *sim2 = sim_run(s2, &p, 0, err, sizeof err);
            for (size_t i = 0; i < sim_nviolations(sim2); i++)
                if (sim_violation(sim2, i)->kind == SIM_V_LINK)
                    *want_link = sim_violation(sim2, i)->link;
            sim_free(sim2);
            sched_free(s2);
            break;
        }
        case 8: *want = choicef(pg, "%g", t->nsteps); break;
        case 9: *want = choicef(pg, "%g", (double)sim_step(b->sim, 0)->max_len); break;
        case 10: *want_step = first_holds(b, rc(b, 12, 12)); break;
        }
    } else {
        switch (pno) {
        case 1: *want = choicef(pg, "%g", t->nsteps); break;
        case 2: *want = choicef(pg, "%g", (double)sched_ntransfers(b->s, 0)); break;
        case 3: *want_step = first_holds(b, rc(b, 1, 1)); break;
        case 7: {
            int32_t last = -1;
            for (int32_t k = 0; k < sched_nsteps(b->s); k++)
                for (int64_t i = 0; i < sched_ntransfers(b->s, k); i++) {
                    SchedTransfer tr;
                    sched_transfer(b->s, k, i, &tr);
                    if (tr.src == sched_source(b->s))
                        last = k + 1;
                }
            *want_step = last;
            break;
        }
        case 4: *want = choicef(pg, "%g", (double)sim_step(b->sim, 2)->max_len); break;
        case 5: {
            int64_t arc;
            int32_t s1, s2;
            bool oom;
            *want = choice(pg, circuit_tree_shared(b->s, &arc, &s1, &s2, &oom) ? "yes" : "no");
            break;
        }
        case 6: *want = choicef(pg, "%g", t->nsteps); break;
        case 8: {
            Show one = *sh;
            one.B[0] = '\0';
            Built b1 = build(&one);
            *want = choice(pg, sim_totals(b1.sim)->cost.total < t->cost.total ? "one packet"
                                                                            : "eight packets");
            unbuild(&b1);
            break;
        }
        case 9: *want = choicef(pg, "%g", (double)t->port_conflicts); break;
        }
    }
}

/* Cang & Wu's lessons: the TCD of algo on net from source (a built, simulated broadcast). */
static int64_t tcd_from(const char *net, const char *algo, const char *source)
{
    Show sh = {.bytes = 1024};
    snprintf(sh.net, sizeof sh.net, "%s", net);
    snprintf(sh.algo, sizeof sh.algo, "%s", algo);
    snprintf(sh.source, sizeof sh.source, "%s", source);
    Built b = build(&sh);
    int64_t t = sim_totals(b.sim)->tcd;
    unbuild(&b);
    return t;
}

/* The answer each page's question should have, from the engine; -1 choice / node / link
 * fields not used. */
static void check_page(const char *lesson, size_t pno, const LessonPage *pg, Built *b,
                       const Show *sh)
{
    const SimTotals *t = sim_totals(b->sim);
    int want = -2;
    int32_t want_node = -2;
    int64_t want_link = -2;
    int32_t want_step = -1, want_source = -1;
    uint64_t want_bytes = 0;
    const char *want_algo = NULL, *want_set = NULL, *want_model = NULL;
    char want_net[32] = "";
    if (strcmp(lesson, "st-array") == 0) {
        switch (pno) {
        case 1: want = choicef(pg, "%g", t->nsteps); break;
        case 2:
        case 7:
            assert_int_equal(sched_ntransfers(b->s, 0), 1);
            {
                SchedTransfer tr;
                sched_transfer(b->s, 0, 0, &tr);
                want_node = tr.dst;
            }
            break;
        case 3: want = choicef(pg, "%g", sim_step(b->sim, 1)->max_link_load); break;
        case 4: want = choicef(pg, "%g", (double)t->ntransfers); break;
        case 5: want_step = first_holds(b, 12); break;
        case 6:
            assert_float_equal(t->cost.total, 4 * (1024 * 0.08 + 75), 1e-9);
            want = choice(pg, "d (ma + b)");
            break;
        case 8: {
            bool left = true, right = true;
            for (int64_t i = 0; i < sched_ntransfers(b->s, 1); i++) {
                SchedTransfer tr;
                sched_transfer(b->s, 1, i, &tr);
                left = left && tr.dst < tr.src;
                right = right && tr.dst > tr.src;
            }
            want = choice(pg, left ? "both to the left" : right ? "both to the right" : "one");
            break;
        }
        case 9: want_link = first_link_of(b, 3, 5); break;
        case 10: {
            /* no link ever carries two circuits, from any source */
            for (int src = 0; src < 16; src++) {
                Show s2 = *sh;
                snprintf(s2.source, sizeof s2.source, "%d", src);
                Built b2 = build(&s2);
                assert_int_equal(sim_totals(b2.sim)->max_link_load, 1);
                unbuild(&b2);
            }
            want = choice(pg, "the messages of a step go the same distance");
            break;
        }
        case 11: {
            /* from node 6: the step in which node 7 first holds the message */
            Show s2 = *sh;
            snprintf(s2.source, sizeof s2.source, "6");
            Built b2 = build(&s2);
            want_source = 6;
            want_step = first_holds(&b2, 7);
            unbuild(&b2);
            break;
        }
        }
    } else if (strcmp(lesson, "bst-crossover") == 0) {
        switch (pno) {
        case 1: want = choicef(pg, "%g us", t->cost.total); break;
        case 2: {
            SchedTransfer tr;
            sched_transfer(b->s, 0, 0, &tr);
            want_node = tr.dst;
            break;
        }
        case 3: want_link = first_link_of(b, 2, 15); break;
        case 4:
            want = choice(pg, t->max_link_load == 1 ? "no" : "yes");
            break;
        case 5:
        case 6: {
            double st = cost_of(sh->net, "st", sh->bytes), bst = cost_of(sh->net, "bst",
                                                                         sh->bytes);
            want = choice(pg, st < bst ? "ST" : "BST");
            if (pno == 5)
                assert_float_equal(bst, t->cost.total, 1e-9);
            break;
        }
        case 7:
            assert_true(cost_of("array:16", "st", 600) < cost_of("array:16", "bst", 600));
            assert_true(cost_of("array:16", "st", 650) > cost_of("array:16", "bst", 650));
            want = choice(pg, "about 625 bytes");
            break;
        case 8:
            assert_true(cost_of("array:64", "st", 350) < cost_of("array:64", "bst", 350));
            assert_true(cost_of("array:64", "st", 400) > cost_of("array:64", "bst", 400));
            want = choice(pg, "down, to about 375 bytes");
            break;
        case 9:
            /* the smallest size of the bytes picker (powers of 4 from 16) at which ST costs
             * more than BST */
            for (uint64_t m = 16; m <= (UINT64_C(1) << 20) && !want_bytes; m *= 4)
                if (cost_of(sh->net, "st", m) > cost_of(sh->net, "bst", m)) want_bytes = m;
            want_algo = "st";
            break;
        case 10: want_step = t->nsteps; break;
        }
    } else if (strcmp(lesson, "rh-contention") == 0) {
        switch (pno) {
        case 1: want = choicef(pg, "%g", t->nsteps); break;
        case 2:
            assert_int_equal(sched_ntransfers(b->s, 0), 0);
            want = choicef(pg, "%g us", sim_step(b->sim, 0)->cost.total);
            break;
        case 3: {
            assert_true(sim_seek(b->sim, 7));
            for (int32_t n = 0; n < net_size(b->net); n++)
                assert_true(sim_held(b->sim, n) >= 1);
            assert_int_equal(sched_nchunks(b->s), 64);
            want = choicef(pg, "%g", (double)sim_held(b->sim, rc(b, 7, 7)));
            break;
        }
        case 5: {
            assert_true(has_transfer(b, 8, rc(b, 0, 0), rc(b, 0, 4)));
            assert_true(has_transfer(b, 8, rc(b, 0, 2), rc(b, 0, 6)));
            /* the first link of (0,2)->(0,6) carries both, and no earlier link of (0,0)'s */
            int64_t l = net_link(b->net, rc(b, 0, 2), 1, 1);
            assert_int_equal(sim_link_loads(b->sim, 7)[l], 2);
            assert_int_equal(sim_link_loads(b->sim, 7)[net_link(b->net, rc(b, 0, 1), 1, 1)], 1);
            want_link = l;
            break;
        }
        case 6: want = choicef(pg, "%g", sim_step(b->sim, 7)->max_link_load); break;
        case 7: want = choicef(pg, "%g", sim_step(b->sim, 9)->max_link_load); break;
        case 8:
            assert_int_equal(sh->nu, 1);
            want = choicef(pg, "%g us", t->cost.contention);
            break;
        case 9:
            want = choicef(pg, "%g", t->max_link_load);
            break;
        case 10: want = choicef(pg, "%g us", t->cost.contention); break;
        case 4:
            /* the first position at which every node holds a chunk */
            for (int32_t pos = 0; pos <= t->nsteps && want_step < 0; pos++) {
                assert_true(sim_seek(b->sim, pos));
                bool all = true;
                for (int32_t n = 0; n < net_size(b->net); n++) all = all && sim_held(b->sim, n) > 0;
                if (all) want_step = pos;
            }
            break;
        case 11: {
            /* with nu = 1: the first step that costs less than at nu = 0 */
            Show s1 = *sh;
            s1.nu = 1;
            Built b1 = build(&s1);
            for (int32_t k = 0; k < t->nsteps && want_step < 0; k++)
                if (sim_step(b1.sim, k)->cost.total < sim_step(b->sim, k)->cost.total - 1e-9)
                    want_step = k + 1;
            unbuild(&b1);
            want_set = "nu=1";
            break;
        }
        }
    } else if (strcmp(lesson, "stop-combining") == 0) {
        switch (pno) {
        case 1: want = choicef(pg, "%.0f", t->informed_before); break;
        case 2: want = choicef(pg, "%.0f", t->nsteps); break;
        case 3: case 4: want = choicef(pg, "%.0f", (double)t->ntransfers); break;
        case 5: want = choicef(pg, "%.0f", (double)t->bytes); break;
        case 6: {
            Show x = *sh;
            snprintf(x.algo, sizeof x.algo, "xor");
            double cx = show_cost(&x);
            assert_string_equal(sh->algo, "br-lin");
            want = t->cost.total < cx ? choice(pg, "Br_Lin") : t->cost.total > cx
                 ? choice(pg, "Xor") : choice(pg, "They");
            break;
        }
        case 7:   /* the first position with more active nodes than sources */
            for (int32_t k = 1; k <= t->nsteps && want_step < 0; k++)
                if (sim_step(b->sim, k - 1)->informed > t->informed_before) want_step = k;
            break;
        case 8: {   /* Xor's last step */
            Show x = *sh;
            snprintf(x.algo, sizeof x.algo, "xor");
            Built bx = build(&x);
            want_algo = "xor";
            want_step = sim_totals(bx.sim)->nsteps;
            unbuild(&bx);
            break;
        }
        }
    } else if (strcmp(lesson, "stop-distributions") == 0) {
        switch (pno) {
        case 1: case 2: case 3: case 4: case 5:
            want = choicef(pg, "%.0f", sim_step(b->sim, pg->step - 1)->informed);
            break;
        case 6: {   /* the task: the engine prices every choice; the dearest is the answer */
            double worst = -1;
            for (size_t i = 0; i < pg->nchoices; i++) {
                Show x = *sh;
                snprintf(x.sources, sizeof x.sources, "%s", pg->choices[i]);
                double c = show_cost(&x);
                if (c > worst) {
                    worst = c;
                    want = (int)i;
                }
            }
            break;
        }
        case 7: {   /* the one algorithm cheaper than br-xy-source on this distribution */
            double base = t->cost.total;
            int n = 0;
            for (size_t i = 0; i < pg->nchoices; i++) {
                Show x = *sh;
                snprintf(x.algo, sizeof x.algo, "%s", pg->choices[i]);
                if (show_cost(&x) < base) {
                    want = (int)i;
                    n++;
                }
            }
            assert_int_equal(n, 1);
            break;
        }
        case 8:   /* the first position with every node active */
            for (int32_t k = 1; k <= t->nsteps && want_step < 0; k++)
                if (sim_step(b->sim, k - 1)->informed == net_size(b->net)) want_step = k;
            break;
        case 9: {   /* the one algorithm cheaper than br-xy-source here, at its last step */
            const char *cand[] = {"br-lin", "br-xy-dim", "xor", "2-step"};
            for (size_t i = 0; i < 4; i++) {
                Show x = *sh;
                snprintf(x.algo, sizeof x.algo, "%s", cand[i]);
                Built bx = build(&x);
                if (sim_totals(bx.sim)->cost.total < t->cost.total) {
                    assert_null(want_algo);
                    want_algo = cand[i];
                    want_step = sim_totals(bx.sim)->nsteps;
                }
                unbuild(&bx);
            }
            break;
        }
        }
    } else if (strcmp(lesson, "tcd-intro") == 0) {
        TsoVerdict v;
        tso_check(b->sim, &v);
        switch (pno) {
        case 1: want = choicef(pg, "%g", v.min_steps); break;
        case 2: want = choicef(pg, "%g", (double)sim_step(b->sim, 0)->tcd); break;
        case 3: want = choicef(pg, "%g", (double)t->tcd); break;
        case 4: want = choice(pg, v.optimal ? "yes" : "no"); break;
        case 5: want = choicef(pg, "%g", (double)t->tcd); break;
        case 6: want = choice(pg, v.optimal ? "yes" : "no"); break;
        case 7:
            assert_int_equal(t->tcd, 108);   /* what the question says of st-simple */
            want = choicef(pg, "%g", (double)tcd_from("mesh:8x8", "tcd", "0,0"));
            break;
        case 8: {
            /* the upper-left node with the least TCD under tcd (the only one there) */
            int64_t best = -1, all[64];
            int count = 0;
            for (int32_t x = 0; x < 64; x++) {
                char sx[16];
                snprintf(sx, sizeof sx, "%d", (int)x);
                all[x] = tcd_from("mesh:8x8", "tcd", sx);
                if (x / 8 < 4 && x % 8 < 4 && (best < 0 || all[x] < best))
                    best = all[x], want_source = x;
            }
            for (int32_t x = 0; x < 64; x++)
                count += x / 8 < 4 && x % 8 < 4 && all[x] == best;
            assert_int_equal(count, 1);
            want_algo = "tcd";
            Show s2 = {.bytes = 1024};
            snprintf(s2.net, sizeof s2.net, "mesh:8x8");
            snprintf(s2.algo, sizeof s2.algo, "tcd");
            snprintf(s2.source, sizeof s2.source, "%d", (int)want_source);
            Built b2 = build(&s2);
            want_step = sim_totals(b2.sim)->nsteps;
            unbuild(&b2);
            break;
        }
        case 9: {
            /* st on the page's net from its source: after the first step short of doubling */
            Show s2 = *sh;
            snprintf(s2.algo, sizeof s2.algo, "st");
            Built b2 = build(&s2);
            TsoVerdict v2;
            tso_check(b2.sim, &v2);
            assert_true(!v2.optimal && v2.first_short >= 0);
            want_step = v2.first_short + 1;
            want_algo = "st";
            unbuild(&b2);
            break;
        }
        }
    } else if (strcmp(lesson, "eyes-8x8") == 0) {
        int32_t src = sched_source(b->s);
        switch (pno) {
        case 1:
            for (int32_t c = 0; c < net_dim(b->net, 1); c++)
                if (rc(b, 2, c) != src && cangwu_is_eye(b->net, rc(b, 2, c)))
                    want_node = rc(b, 2, c);
            assert_int_equal(src, rc(b, 2, 2));
            break;
        case 2: {
            SchedTransfer tr;
            assert_int_equal(sched_ntransfers(b->s, 0), 1);
            sched_transfer(b->s, 0, 0, &tr);
            want = choicef(pg, "%g", (double)tr.len);
            break;
        }
        case 3:
            want = choicef(pg, "%g", (double)(sim_step(b->sim, 0)->tcd + sim_step(b->sim, 1)->tcd));
            break;
        case 4: want = choicef(pg, "%g", (double)t->tcd); break;
        case 5: want_node = dst_of(b, 2, src); break;
        case 6: want = choicef(pg, "%g", (double)t->tcd); break;
        case 7: {
            /* the least TCD over all 64 sources, and the one such source in the upper-left
             * quadrant */
            int64_t best = -1;
            int32_t n = net_size(b->net), at = -1, count = 0;
            int64_t all[64];
            for (int32_t x = 0; x < n && x < 64; x++) {
                char sx[16];
                snprintf(sx, sizeof sx, "%d", (int)x);
                all[x] = tcd_from("mesh:8x8", "tcd", sx);
                if (best < 0 || all[x] < best)
                    best = all[x];
            }
            for (int32_t x = 0; x < n && x < 64; x++)
                if (all[x] == best && x / 8 < 4 && x % 8 < 4)
                    at = x, count++;
            assert_int_equal(count, 1);
            want_node = at;
            break;
        }
        case 8: {
            int64_t opt = tcd_from("mesh:8x8", "tcd-opt", "3,3");
            assert_true(opt <= t->tcd);
            assert_int_equal(t->tcd, 72);
            want = choicef(pg, "%g:", (double)opt);
            break;
        }
        case 9: {
            /* the lower-right node with the largest TCD under tcd (the only one there) */
            int64_t worst = -1, all[64];
            int count = 0;
            for (int32_t x = 0; x < 64; x++) {
                all[x] = -1;
                if (x / 8 < 4 || x % 8 < 4)
                    continue;
                char sx[16];
                snprintf(sx, sizeof sx, "%d", (int)x);
                all[x] = tcd_from("mesh:8x8", "tcd", sx);
                if (all[x] > worst)
                    worst = all[x], want_source = x;
            }
            for (int32_t x = 0; x < 64; x++)
                count += all[x] == worst;
            assert_int_equal(count, 1);
            want_step = t->nsteps;
            break;
        }
        case 10:
            /* right after the first step whose label names level 2 */
            for (int32_t k = 0; k < t->nsteps && want_step < 0; k++)
                if (strncmp(sched_step_label(b->s, k), "level 2", 7) == 0)
                    want_step = k + 1;
            break;
        }
    }
    if (strcmp(lesson, "any-source") == 0) {
        int32_t src = b->a.source;
        switch (pno) {
        case 1:
        case 5: want_node = dst_of(b, 1, src); break;
        case 2:
            want = choice(pg, fabs(t->cost.total - cost_m(sh->net, sh->algo, sh->bytes, "seidel",
                                                          0, "0", NULL)) < 1e-9 ? "the same"
                                                                                : "m");
            break;
        case 3: want = choicef(pg, "%g", t->max_link_load); break;
        case 4: {
            Show s2 = *sh;
            snprintf(s2.source, sizeof s2.source, "9");
            Built b2 = build(&s2);
            want_source = 9;
            want_step = first_holds(&b2, 1);
            unbuild(&b2);
            break;
        }
        case 6:
        case 7: {
            int32_t from0 = steps_of(sh->net, sh->algo, "0");
            if (from0 != t->nsteps) fail_msg("any-source page %zu: %d steps from 0, %d here", pno,
                                             from0, t->nsteps);
            want = choicef(pg, pno == 6 ? "the same: %g either way" : "%g, as from (0,0)",
                           t->nsteps);
            break;
        }
        case 8:
            want_source = rc(b, 7, 7);
            want_step = steps_of(sh->net, sh->algo, "63");
            break;
        }
    } else if (strcmp(lesson, "any-size") == 0) {
        switch (pno) {
        case 1:
        case 5:
        case 6: want = choicef(pg, "%g", t->nsteps); break;
        case 2: want_node = dst_of(b, t->nsteps, 0); break;
        case 3:
            want = choice(pg, fabs(t->cost.total - cost_m("array:16", "st", sh->bytes, "seidel",
                                                          0, "", NULL)) < 1e-9 ? "the same"
                                                                                : "m");
            break;
        case 4: want = choicef(pg, "%g", t->max_link_load); break;
        case 7:
            want_algo = "bst";
            want_step = steps_of(sh->net, "bst", "");
            break;
        case 8:
            for (int n = 17; n < 256 && !want_net[0]; n++) {
                char net[32];
                snprintf(net, sizeof net, "array:%d", n);
                if (steps_of(net, "st", "") == 6) snprintf(want_net, sizeof want_net, "%s", net);
            }
            break;
        }
    } else if (strcmp(lesson, "model-crossovers") == 0) {
        switch (pno) {
        case 1: want = choicef(pg, "%g us", t->cost.total); break;
        case 2: want = choicef(pg, "%g", t->cost.total); break;
        case 3:
        case 4:
        case 5: want = choice(pg, cheapest(sh->net, sh->bytes, "seidel", sh->nu)); break;
        case 6: {
            double st = cost_of(sh->net, "st", sh->bytes), bst = cost_of(sh->net, "bst",
                                                                         sh->bytes);
            want = choice(pg, st < bst ? "ST" : bst < st ? "BST" : "they cost the same");
            break;
        }
        case 7:
            for (uint64_t m = 16; m <= (UINT64_C(1) << 20) && !want_bytes; m *= 4)
                if (cost_of(sh->net, "rh", m) < cost_of(sh->net, "st", m)) want_bytes = m;
            want_algo = "rh";
            break;
        case 8: {
            const char *c = cheapest(sh->net, sh->bytes, "postal", 0);
            want_algo = strcmp(c, "ST") == 0 ? "st" : strcmp(c, "BST") == 0 ? "bst" : "rh";
            want_model = "postal";
            break;
        }
        }
    }
    if (strcmp(lesson, "circuit-tiling") == 0 || strcmp(lesson, "circuit-pipelining") == 0)
        check_peters_page(lesson, pno, pg, b, sh, &want, &want_node, &want_link, &want_step);
    switch (pg->qkind) {
    case LESSON_Q_CHOICE:
        if (want == -2)
            fail_msg("%s page %zu: no check for this question", lesson, pno);
        if (want != pg->answer_choice)
            fail_msg("%s page %zu: the engine says choice %d, the lesson says %d", lesson, pno,
                     want, pg->answer_choice);
        break;
    case LESSON_Q_NODE:
        if (want_node != pg->answer_node)
            fail_msg("%s page %zu: the engine says node %d, the lesson says %d", lesson, pno,
                     want_node, pg->answer_node);
        break;
    case LESSON_Q_LINK:
        if (want_link != pg->answer_link)
            fail_msg("%s page %zu: the engine says link %lld, the lesson says %lld", lesson,
                     pno, (long long)want_link, (long long)pg->answer_link);
        break;
    case LESSON_Q_TRY: {
        /* every field of the task is derived above; none is left unchecked */
        const LessonTry *w = &pg->want;
        if (w->step != want_step || w->source != want_source || w->bytes != want_bytes ||
            (w->algo == NULL) != (want_algo == NULL) ||
            (w->algo && strcmp(w->algo, want_algo) != 0) || w->nset != (want_set ? 1u : 0u) ||
            (want_set && strcmp(w->set[0], want_set) != 0) || w->node >= 0 ||
            (w->net == NULL) != (want_net[0] == 0) || (w->net && strcmp(w->net, want_net) != 0) ||
            (w->model == NULL) != (want_model == NULL) ||
            (w->model && strcmp(w->model, want_model) != 0))
            fail_msg("%s page %zu: the engine says step %d source %d bytes %llu algo %s set %s; "
                     "the lesson's task differs", lesson, pno, want_step, want_source,
                     (unsigned long long)want_bytes, want_algo ? want_algo : "-",
                     want_set ? want_set : "-");
        break;
    }
    case LESSON_Q_NONE:
        break;
    }
}

/* Does text hold the number word (digits, maybe a decimal point) as a number of its own, not
 * inside a longer one ("13" is in "5 XOR 8 = 13.", not in "130" nor "1.13")? */
static bool has_number(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = text; n && (p = strstr(p, word)); p++) {
        bool before = p > text && (isdigit((unsigned char)p[-1]) ||
                                   (p[-1] == '.' && p - 1 > text && isdigit((unsigned char)p[-2])));
        bool after = isdigit((unsigned char)p[n]) ||
                     (p[n] == '.' && isdigit((unsigned char)p[n + 1]));
        if (!before && !after) return true;
    }
    return false;
}

/* Does text name node v of net: its id, or on a net of 2+ dimensions its coordinates as the
 * lessons write them ("(2,5)", "2, 5")? */
static bool names_node(const char *text, const Net *net, int32_t v)
{
    char w[64];
    snprintf(w, sizeof w, "%d", v);
    if (has_number(text, w)) return true;
    if (net_ndim(net) < 2) return false;
    int32_t c[8];
    net_coords(net, v, c);
    snprintf(w, sizeof w, "%d,%d", c[0], c[1]);
    if (strstr(text, w)) return true;
    snprintf(w, sizeof w, "%d, %d", c[0], c[1]);
    return strstr(text, w) != NULL;
}

/* Does the hint hold word (case aside) where the question does not? */
static bool hint_adds(const LessonPage *pg, const char *word)
{
    char h[1024], q[1024];
    size_t i;
    for (i = 0; pg->hint[i] && i + 1 < sizeof h; i++) h[i] = (char)tolower((unsigned char)pg->hint[i]);
    h[i] = '\0';
    for (i = 0; pg->question[i] && i + 1 < sizeof q; i++)
        q[i] = (char)tolower((unsigned char)pg->question[i]);
    q[i] = '\0';
    return strstr(h, word) && !strstr(q, word);
}

/* A "now you try" task's hint names none of the values the task asks for (a step, a setting's
 * value, a size, a source or cursor node, an algorithm, a net) unless the question does. */
static void check_try_hint(const char *name, size_t pno, const LessonPage *pg, const Net *net)
{
    const LessonTry *t = &pg->want;
    char w[64];
    snprintf(w, sizeof w, "%d", t->step);
    if (t->step >= 0 && has_number(pg->hint, w) && !has_number(pg->question, w))
        fail_msg("%s page %zu: the hint names the step asked for", name, pno);
    for (size_t k = 0; k < t->nset; k++) {
        const char *v = strchr(t->set[k], '=');
        if (v && has_number(pg->hint, v + 1) && !has_number(pg->question, v + 1))
            fail_msg("%s page %zu: the hint names the value of %s", name, pno, t->set[k]);
    }
    if (t->bytes) {
        snprintf(w, sizeof w, "%llu", (unsigned long long)t->bytes);
        bool named = has_number(pg->hint, w) && !has_number(pg->question, w);
        if (t->bytes % 1024 == 0) {
            snprintf(w, sizeof w, "%lluk", (unsigned long long)(t->bytes / 1024));
            named = named || hint_adds(pg, w);
        }
        if (named) fail_msg("%s page %zu: the hint names the size asked for", name, pno);
    }
    int32_t nodes[2] = {t->source, t->node};
    for (int k = 0; k < 2; k++)
        if (nodes[k] >= 0 && names_node(pg->hint, net, nodes[k]) &&
            !names_node(pg->question, net, nodes[k]))
            fail_msg("%s page %zu: the hint names the node asked for", name, pno);
    if (t->algo && hint_adds(pg, t->algo))
        fail_msg("%s page %zu: the hint names the algorithm asked for", name, pno);
    if (t->net && hint_adds(pg, t->net))
        fail_msg("%s page %zu: the hint names the net asked for", name, pno);
    for (const char *p = t->net ? strchr(t->net, ':') : NULL; p && *p; p++)
        if (isdigit((unsigned char)*p) && !isdigit((unsigned char)p[-1])) {
            size_t k = 0;
            while (isdigit((unsigned char)p[k]) && k + 1 < sizeof w) w[k] = p[k], k++;
            w[k] = '\0';
            if (has_number(pg->hint, w) && !has_number(pg->question, w))
                fail_msg("%s page %zu: the hint names the net's size %s", name, pno, w);
        }
}

/* A wrong answer gets a hint: every question has one (`hint`) but a multiple-choice question
 * whose every wrong choice has its own feedback (that is its hint), and no hint names the
 * answer — the node clicked for, the far end of the link clicked for (its near end too
 * unless the question names it), a number of the right choice, what a task asks for. */
static void check_hint(const char *name, size_t pno, const LessonPage *pg, const Net *net)
{
    bool fed = pg->qkind == LESSON_Q_CHOICE && pg->feedback;
    for (size_t c = 0; fed && c < pg->nchoices; c++)
        fed = (int)c == pg->answer_choice || pg->feedback[c];
    if (pg->qkind != LESSON_Q_NONE && !fed && (!pg->hint || !*pg->hint))
        fail_msg("%s page %zu: a question without a hint (nor feedback for every wrong choice)",
                 name, pno);
    if (!pg->hint) return;
    if (pg->qkind == LESSON_Q_TRY) check_try_hint(name, pno, pg, net);
    if (pg->qkind == LESSON_Q_NODE && names_node(pg->hint, net, pg->answer_node))
        fail_msg("%s page %zu: the hint names the answer node", name, pno);
    if (pg->qkind == LESSON_Q_LINK) {
        int32_t tail; int dim, dir;
        net_link_info(net, pg->answer_link, &tail, &dim, &dir);
        if (names_node(pg->hint, net, net_link_head(net, pg->answer_link)) ||
            (names_node(pg->hint, net, tail) && !names_node(pg->question, net, tail)))
            fail_msg("%s page %zu: the hint names an end of the answer link", name, pno);
    }
    if (pg->qkind == LESSON_Q_CHOICE && pg->answer_choice >= 0) {
        const char *c = pg->choices[pg->answer_choice];
        for (const char *p = c; *p; p++) {
            if (!isdigit((unsigned char)*p) || (p > c && isdigit((unsigned char)p[-1]))) continue;
            char w[32];
            size_t k = 0;
            while (k + 1 < sizeof w && (isdigit((unsigned char)p[k]) ||
                                        (p[k] == '.' && isdigit((unsigned char)p[k + 1]))))
                w[k] = p[k], k++;
            w[k] = '\0';
            if (has_number(pg->hint, w))
                fail_msg("%s page %zu: the hint holds %s, of the right choice", name, pno, w);
        }
    }
}

/* course: a lesson of the Seidel course (8 to 16 pages, at least 8 questions of which 2 are
 * "try" tasks, every wrong choice with its feedback); other lessons: 6 to 16 pages, at least
 * 6 questions. */
static void check_lesson_as(const char *name, bool course)
{
    char err[512];
    Lesson *l = lesson_load(name, err, sizeof err);
    if (!l)
        fail_msg("%s: %s", name, err);
    assert_true(lesson_npages(l) >= (course ? 8u : 6u) && lesson_npages(l) <= 16);
    assert_true(strlen(lesson_title(l)) > 0);
    Show sh;
    int questions = 0, tries = 0;
    for (size_t i = 0; i < lesson_npages(l); i++) {
        const LessonPage *pg = lesson_page(l, i);
        assert_non_null(pg->text);
        /* the broadcast the page shows (lesson-state.h), as the TUI builds it */
        LessonState st;
        lesson_state(l, i, &st);
        memset(&sh, 0, sizeof sh);
        snprintf(sh.net, sizeof sh.net, "%s", st.net ? st.net : "mesh:8x8");
        snprintf(sh.algo, sizeof sh.algo, "%s", st.algo ? st.algo : "st");
        snprintf(sh.source, sizeof sh.source, "%s", st.source ? st.source : "");
        snprintf(sh.sources, sizeof sh.sources, "%s", st.sources ? st.sources : "");
        snprintf(sh.model, sizeof sh.model, "%s", st.model ? st.model : "");
        sh.bytes = st.bytes ? st.bytes : 1024;
        for (size_t k = 0; k < st.nset; k++)
            if (strncmp(st.set[k], "nu=", 3) == 0)
                sh.nu = atoi(st.set[k] + 3);
            else if (strncmp(st.set[k], "B=", 2) == 0)
                snprintf(sh.B, sizeof sh.B, "%s", st.set[k] + 2);
        Built b = build(&sh);
        if (pg->step > sim_totals(b.sim)->nsteps)
            fail_msg("%s page %zu: step %d but the broadcast has %d steps", name, i + 1,
                     pg->step, sim_totals(b.sim)->nsteps);
        for (size_t k = 0; k < pg->nnodes; k++)
            assert_true(pg->nodes[k] >= 0 && pg->nodes[k] < net_size(b.net));
        for (size_t k = 0; k < pg->nlinks; k++)
            assert_true(net_link_head(b.net, pg->links[k]) >= 0);
        /* predict, then see: a click question's answer is not among the page's highlights */
        for (size_t k = 0; pg->qkind == LESSON_Q_NODE && k < pg->nnodes; k++)
            if (pg->nodes[k] == pg->answer_node)
                fail_msg("%s page %zu: the answer node is highlighted", name, i + 1);
        for (size_t k = 0; k < pg->nlinks; k++)
            if ((pg->qkind == LESSON_Q_LINK && pg->links[k] == pg->answer_link) ||
                (pg->qkind == LESSON_Q_NODE && net_link_head(b.net, pg->links[k]) ==
                                                    pg->answer_node))
                fail_msg("%s page %zu: a highlighted link gives the answer away", name, i + 1);
        tries += pg->qkind == LESSON_Q_TRY;
        /* per-distractor feedback: every wrong choice says why it is wrong */
        for (size_t c = 0; course && pg->qkind == LESSON_Q_CHOICE && c < pg->nchoices; c++)
            if ((int)c != pg->answer_choice && (!pg->feedback || !pg->feedback[c]))
                fail_msg("%s page %zu: choice %c has no feedback", name, i + 1, (char)('a' + c));
        if (pg->qkind != LESSON_Q_NONE) {
            questions++;
            check_page(lesson_id(l), i + 1, pg, &b, &sh);
        }
        unbuild(&b);
    }
    if (course ? questions < 8 || tries < 2 : questions < 6)
        fail_msg("%s: %d questions, %d of them \"now you try\" tasks (a lesson of the course has "
                 "at least 8 and 2)", name, questions, tries);
    lesson_free(l);
}

static void check_lesson(const char *name)
{
    static const char *const course[] = {"st-array", "bst-crossover", "rh-contention",
                                         "any-source", "any-size", "model-crossovers"};
    bool in = false;
    for (size_t i = 0; i < sizeof course / sizeof course[0]; i++) {
        char path[64];
        snprintf(path, sizeof path, "lessons/%s.lua", course[i]);
        in = in || strcmp(name, path) == 0;
    }
    check_lesson_as(name, in);
}

static void test_stop_combining(void **state)
{
    (void)state;
    check_lesson("lessons/stop-combining.lua");
}

static void test_stop_distributions(void **state)
{
    (void)state;
    check_lesson("lessons/stop-distributions.lua");
}

static void test_circuit_tiling(void **state)
{
    (void)state;
    check_lesson("lessons/circuit-tiling.lua");
}

static void test_circuit_pipelining(void **state)
{
    (void)state;
    check_lesson("lessons/circuit-pipelining.lua");
}

static void test_st_array(void **state)
{
    (void)state;
    check_lesson("lessons/st-array.lua");
}

static void test_bst_crossover(void **state)
{
    (void)state;
    check_lesson("lessons/bst-crossover.lua");
}

static void test_tcd_intro(void **state)
{
    (void)state;
    check_lesson("lessons/tcd-intro.lua");
}

static void test_eyes_8x8(void **state)
{
    (void)state;
    check_lesson("lessons/eyes-8x8.lua");
}

static void test_rh_contention(void **state)
{
    (void)state;
    check_lesson("lessons/rh-contention.lua");
}

static void test_any_source(void **state)
{
    (void)state;
    check_lesson("lessons/any-source.lua");
}

static void test_any_size(void **state)
{
    (void)state;
    check_lesson("lessons/any-size.lua");
}

static void test_model_crossovers(void **state)
{
    (void)state;
    check_lesson("lessons/model-crossovers.lua");
}

/* A path highlight becomes the directed links of its default route. */
static void test_path_links(void **state)
{
    (void)state;
    char err[512];
    Lesson *l = lesson_load("lessons/st-array.lua", err, sizeof err);
    assert_non_null(l);
    const LessonPage *pg = lesson_page(l, 2);   /* path 0 -> 4, links 8 -> 12 */
    assert_int_equal(pg->nlinks, 8);
    Net *net = net_parse("array:16", err, sizeof err);
    for (int c = 0; c < 4; c++) {
        assert_int_equal(pg->links[c], net_link(net, 8 + c, 0, 1));   /* links first */
        assert_int_equal(pg->links[4 + c], net_link(net, c, 0, 1));   /* then the path */
    }
    assert_int_equal(pg->nnodes, 0);
    net_free(net);
    lesson_free(l);
}

static void refused(const char *text, const char *want)
{
    char path[] = "/tmp/meshcast-lesson-XXXXXX.lua";
    int fd = mkstemps(path, 4);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    char err[512] = "";
    Lesson *l = lesson_load(path, err, sizeof err);
    unlink(path);
    if (l) {
        lesson_free(l);
        fail_msg("accepted: %s", text);
    }
    if (!strstr(err, want) || !strstr(err, path))
        fail_msg("message [%s] lacks [%s] or the file", err, want);
}

static void test_malformed(void **state)
{
    (void)state;
    refused("return 42", "must return a table");
    refused("return { pages = { { text = 'x' } } }", "needs title");
    refused("return { title = 't', pages = {} }", "at least one");
    refused("return { title = 't', pages = { { text = 'x', net = 'cube:3' } } }",
            "page 1: bad net");
    refused("return { title = 't', pages = { { text = 'a', net = 'array:4' }, { text = 'b', "
            "nodes = { 9 } } } }",
            "page 2: nodes: not a node of array:4");
    refused("return { title = 't', pages = { { text = 'a', net = 'array:4', links = "
            "{ { 0, 2 } } } } }",
            "page 1: links: 0 -> 2 are not neighbours");
    refused("return { title = 't', pages = { { text = 'a', net = 'array:4', question = { text "
            "= 'q', choices = { 'x', 'y' }, answer = 3 } } } }",
            "page 1: question: answer must name one of the choices");
    refused("return { title = 't', pages = { { text = 'a', algo = 'no-such-algo' } } }",
            "page 1: algo 'no-such-algo'");
    refused("return { title = 't', pages = { { text = 'a', net = 'array:4', question = { text "
            "= 'q', click = 'node', answer = 7 } } } }",
            "page 1: question: answer: not a node");
    refused("return { title = 't', pages = { { text = 'a', set = { nu = 99 } } } }",
            "page 1: set:");
    refused("while true do end", "stopped: instruction budget");
}

static void test_progress(void **state)
{
    (void)state;
    char dir[] = "/tmp/meshcast-state-XXXXXX";
    assert_non_null(mkdtemp(dir));
    setenv("XDG_STATE_HOME", dir, 1);
    char err[512];
    Lesson *l = lesson_load("lessons/st-array.lua", err, sizeof err);
    assert_non_null(l);
    assert_string_equal(lesson_id(l), "st-array");
    LessonProgress p;
    assert_false(lesson_progress_load(l, &p));
    p.seen[0] = p.seen[2] = true;
    p.answer[2] = 1;
    p.answer[3] = -1;
    p.last_page = 3;
    assert_true(lesson_progress_save(l, &p, err, sizeof err));
    LessonProgress q;
    assert_true(lesson_progress_load(l, &q));
    assert_true(q.seen[0] && q.seen[2] && !q.seen[1]);
    assert_int_equal(q.answer[2], 1);
    assert_int_equal(q.answer[3], -1);
    assert_int_equal(q.last_page, 3);
    lesson_free(l);
    char path[600];
    snprintf(path, sizeof path, "%s/meshcast/progress/st-array", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/meshcast/progress", dir);
    rmdir(path);
    snprintf(path, sizeof path, "%s/meshcast", dir);
    rmdir(path);
    rmdir(dir);
    unsetenv("XDG_STATE_HOME");
}

/* Every question of every shipped lesson (on the search path: the Sanders & Sibeyn ones too)
 * has its hint, and no hint gives its answer away (check_hint). */
static void test_hints(void **state)
{
    (void)state;
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    setenv("MESHCAST_PATH", cwd, 1);
    char *names[64];
    size_t n = lesson_list(names, 64), questions = 0, hints = 0;
    assert_true(n >= 14);
    for (size_t i = 0; i < n; i++) {
        char err[512];
        Lesson *l = lesson_load(names[i], err, sizeof err);
        if (!l) fail_msg("%s: %s", names[i], err);
        for (size_t k = 0; k < lesson_npages(l); k++) {
            const LessonPage *pg = lesson_page(l, k);
            LessonState st;
            lesson_state(l, k, &st);
            Net *net = net_parse(st.net ? st.net : "mesh:8x8", err, sizeof err);
            assert_non_null(net);
            check_hint(names[i], k + 1, pg, net);
            questions += pg->qkind != LESSON_Q_NONE;
            hints += pg->hint != NULL;
            net_free(net);
        }
        lesson_free(l);
        free(names[i]);
    }
    assert_true(questions > 0 && hints > 0);
    unsetenv("MESHCAST_PATH");
}

static void test_list(void **state)
{
    (void)state;
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    setenv("MESHCAST_PATH", cwd, 1);
    char *names[64];
    size_t n = lesson_list(names, 64);
    int found = 0;
    for (size_t i = 0; i < n; i++) {
        found += strcmp(names[i], "st-array") == 0 || strcmp(names[i], "bst-crossover") == 0 ||
                 strcmp(names[i], "rh-contention") == 0;
        free(names[i]);
    }
    assert_int_equal(found, 3);
    /* by bare name through the search path */
    char err[512];
    Lesson *l = lesson_load("bst-crossover", err, sizeof err);
    assert_non_null(l);
    lesson_free(l);
    unsetenv("MESHCAST_PATH");
}

int main(int argc, char **argv)
{
    (void)argc;
    if (!srctree_enter(argv[0], "lessons/st-array.lua"))
        return 2;
    unsetenv("MESHCAST_PATH");
    setenv("MESHCAST_LUA_INSTRUCTIONS", "5000000", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_st_array),   cmocka_unit_test(test_bst_crossover),
        cmocka_unit_test(test_rh_contention), cmocka_unit_test(test_any_source),
        cmocka_unit_test(test_any_size),   cmocka_unit_test(test_model_crossovers),
        cmocka_unit_test(test_circuit_tiling), cmocka_unit_test(test_circuit_pipelining),
        cmocka_unit_test(test_path_links),
        cmocka_unit_test(test_stop_combining), cmocka_unit_test(test_stop_distributions),
        cmocka_unit_test(test_malformed),  cmocka_unit_test(test_progress),
        cmocka_unit_test(test_list),       cmocka_unit_test(test_hints),       cmocka_unit_test(test_tcd_intro),
        cmocka_unit_test(test_eyes_8x8),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
