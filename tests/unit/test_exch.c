/* test_exch.c — an exchange step replayed pair by pair from its rule (sim-exch.c), never
 * expanded whole: pinned against the flat view's passes (step_exch false) on random exchange
 * rules (partners j ^ flip, the flip picked by a bit of j; one, two or no ranges, most held,
 * some not), on arrays, rings, meshes and tori of 2 to 4096 nodes, under seidel (nu 0-3),
 * postal (duplex and simplex), circuit and saf, with and without SIM_HISTORY: every figure of
 * every step, every violation in order, every holding.  The not-held violations are also
 * replayed here on bitmaps.  A step whose first transfer at the top price lies past the
 * priced prefix (both with and without contention) names the critical node the construction
 * says.  And sched_send_rule_exchange refuses a block that is no exchange. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <stdio.h>

#include "../../src/algos/algo.h"
#include "../../src/engine/net.h"
#include "../../src/engine/sched.h"
#include "../../src/engine/sched-internal.h"
#include "../../src/engine/sim-internal.h"
#include "../../src/engine/sim.h"

static uint32_t rnd(uint32_t n) { return (uint32_t)rand() % n; }

static uint32_t hash(uint32_t a, uint32_t b)
{
    uint32_t h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u);
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    h *= 0x297A2D39u;
    h ^= h >> 15;
    return h;
}

/* Node v's given interval [glo, ghi) (seed g): at least 4 chunks of nch. */
static void given(uint32_t g, int32_t v, uint32_t nch, uint32_t *lo, uint32_t *hi)
{
    uint32_t h = hash((uint32_t)v, g);
    *lo = h % (nch - 4);
    *hi = *lo + 4 + (h >> 8) % (nch - *lo - 3);
    if (*hi > nch)
        *hi = nch;
}

/* An exchange: transfer j is node j's send to j ^ flip[bit sel of j] (neither flip has bit
 * sel, so the partner picks the same flip and sends back); its ranges from a hash of j: most
 * inside the node's given interval (held), some anywhere (often not), some two, a few none.
 * `late` >= 0: every transfer sends chunk 0 only, but transfers late and its partner chunks
 * [0, 2). */
typedef struct {
    int sel;
    int32_t flip[2];
    uint32_t nch, seed, g;
    int64_t late;
    int64_t bad1;   /* > 0: ex_pairs gets the pair of node bad1 - 1 wrong (see there) */
    int badkind;
    int64_t late2;  /* (with late) > 0: transfer late2 - 1 sends chunks [0, 2) too */
} Ex;

static void ex_batch(const void *ctx, int64_t j0, int64_t n, SchedRuleXfer *out)
{
    const Ex *e = ctx;
    for (int64_t i = 0; i < n; i++) {
        int64_t j = j0 + i;
        SchedRuleXfer *x = &out[i];
        x->src = (int32_t)j;
        x->dst = (int32_t)(j ^ e->flip[(j >> e->sel) & 1]);
        if (e->late >= 0) {
            bool big = j == e->late || x->dst == e->late || j == e->late2 - 1;
            x->nr = 1;
            x->r[0] = (ChunkRange){ 0, big ? 2u : 1u };
            continue;
        }
        uint32_t h = hash((uint32_t)j, e->seed), glo, ghi, nch = e->nch;
        given(e->g, (int32_t)j, nch, &glo, &ghi);
        switch (h % 16) {
        case 0:   /* nothing */
            x->nr = 0;
            break;
        case 1:
        case 2: { /* anywhere: often not held */
            uint32_t lo = (h >> 4) % nch;
            x->nr = 1;
            x->r[0] = (ChunkRange){ lo, lo + 1 + (h >> 12) % (nch - lo) };
            break;
        }
        case 3:
        case 4:
        case 5: { /* two ranges inside the given interval */
            x->nr = 2;
            x->r[0] = (ChunkRange){ glo, glo + 1 };
            x->r[1] = (ChunkRange){ glo + 2, glo + 3 + (h >> 4) % (ghi - glo - 2) };
            break;
        }
        case 6: { /* two ranges anywhere */
            uint32_t half = nch / 2, a = (h >> 4) % (half - 1);
            uint32_t b = a + 1 + (h >> 9) % (half - 1 - a);
            uint32_t c = half + (h >> 14) % (half - 1), d = c + 1 + (h >> 20) % (nch - c - 1);
            x->nr = 2;
            x->r[0] = (ChunkRange){ a, b };
            x->r[1] = (ChunkRange){ c, d };
            break;
        }
        default: { /* a part of the given interval */
            uint32_t lo = glo + (h >> 4) % (ghi - glo);
            x->nr = 1;
            x->r[0] = (ChunkRange){ lo, lo + 1 + (h >> 12) % (ghi - lo) };
            break;
        }
        }
    }
}

/* The same exchange's pairs (sched_send_rule_exchange_pairs), written here from ex_batch: for
 * each node j of j0..j0+n-1 below its partner d, transfer j then transfer d.  With bad1, the
 * pair of node bad1 - 1 is wrong: its partner's transfer one chunk short (badkind 0), or
 * left out (1), or its two transfers swapped (2). */
static int64_t ex_pairs(const void *ctx, int64_t j0, int64_t n, SchedRuleXfer *out)
{
    const Ex *e = ctx;
    int64_t np = 0;
    for (int64_t j = j0; j < j0 + n; j++) {
        int64_t d = j ^ e->flip[(j >> e->sel) & 1];
        if (d < j)
            continue;
        SchedRuleXfer *x = &out[2 * np];
        ex_batch(ctx, j, 1, x);
        ex_batch(ctx, d, 1, x + 1);
        if (j == e->bad1 - 1) {
            if (e->badkind == 1)
                continue;
            if (e->badkind == 2) {
                SchedRuleXfer t = x[0];
                x[0] = x[1];
                x[1] = t;
            } else if (x[1].nr > 0 && x[1].r[x[1].nr - 1].hi - x[1].r[x[1].nr - 1].lo > 1) {
                x[1].r[x[1].nr - 1].hi--;
            } else {
                x[1].nr = x[1].nr ? 0 : 1;
                x[1].r[0] = (ChunkRange){ 0, 1 };
            }
        }
        np++;
    }
    return np;
}

/* Proved (as rh's rules are), checked by the sanitized builds' sched_check_proofs. */
static bool ex_prove(const void *ctx, const Net *net, uint32_t nchunks, int64_t count)
{
    (void)ctx;
    (void)nchunks;
    return count == net_size(net);
}

/* Two runs the same: totals, every step's figures, every violation, the holdings. */
static void same_runs(const Sim *a, const Sim *b, int32_t nodes)
{
    const SimTotals *ta = sim_totals(a), *tb = sim_totals(b);
    assert_int_equal(ta->nsteps, tb->nsteps);
    assert_true(memcmp(&ta->cost, &tb->cost, sizeof ta->cost) == 0);
    assert_int_equal(ta->not_held, tb->not_held);
    assert_int_equal(ta->violations, tb->violations);
    assert_int_equal(ta->incomplete_nodes, tb->incomplete_nodes);
    assert_int_equal(ta->port_conflicts, tb->port_conflicts);
    assert_int_equal(ta->link_overloads, tb->link_overloads);
    assert_int_equal(ta->max_link_load, tb->max_link_load);
    assert_int_equal(ta->tcd, tb->tcd);
    assert_int_equal(ta->bytes, tb->bytes);
    assert_int_equal(ta->verified, tb->verified);
    assert_int_equal(ta->valid, tb->valid);
    for (int32_t st = 0; st < ta->nsteps; st++) {
        const SimStep *x = sim_step(a, st), *y = sim_step(b, st);
        assert_true(memcmp(x, y, sizeof *x) == 0 || (
            memcmp(&x->cost, &y->cost, sizeof x->cost) == 0 && x->informed == y->informed &&
            x->violations == y->violations && x->port_conflicts == y->port_conflicts &&
            x->critical_node == y->critical_node && x->subrounds == y->subrounds &&
            x->max_link_load == y->max_link_load && x->link_overloads == y->link_overloads &&
            x->bytes == y->bytes && x->max_bytes == y->max_bytes && x->tcd == y->tcd &&
            x->max_len == y->max_len && x->ntransfers == y->ntransfers &&
            x->max_channel_load == y->max_channel_load));
        assert_int_equal(x->informed, y->informed);
        assert_int_equal(x->critical_node, y->critical_node);
        assert_int_equal(x->link_overloads, y->link_overloads);
        assert_int_equal(x->bytes, y->bytes);
        assert_int_equal(x->max_bytes, y->max_bytes);
        assert_int_equal(x->tcd, y->tcd);
    }
    assert_int_equal(sim_nviolations(a), sim_nviolations(b));
    for (size_t i = 0; i < sim_nviolations(a); i++) {
        const SimViolation *x = sim_violation(a, i), *y = sim_violation(b, i);
        assert_int_equal(x->kind, y->kind);
        assert_int_equal(x->step, y->step);
        assert_int_equal(x->node, y->node);
        assert_int_equal(x->link, y->link);
        assert_int_equal(x->chunk, y->chunk);
        assert_int_equal(x->transfer, y->transfer);
        assert_int_equal(x->load, y->load);
        assert_int_equal(x->recvs, y->recvs);
    }
    for (int32_t v = 0; v < nodes; v++) {
        size_t na, nb;
        const ChunkRange *ra = sim_holdings(a, v, &na), *rb = sim_holdings(b, v, &nb);
        assert_int_equal(na, nb);
        for (size_t j = 0; j < na; j++) {
            assert_int_equal(ra[j].lo, rb[j].lo);
            assert_int_equal(ra[j].hi, rb[j].hi);
        }
    }
}

/* s simulated pair by pair and through the flat view; *steps gets how many steps the first
 * run replayed pair by pair. */
static void run_both(const Sched *s, const CostParams *p, unsigned flags, Sim **pairs,
                     Sim **flat, int64_t *steps)
{
    bool saved = step_exch;
    step_exch = true;
    int64_t before = step_exch_steps;
    *pairs = sim_run(s, p, flags, NULL, 0);
    *steps = step_exch_steps - before;
    step_exch = false;
    *flat = sim_run(s, p, flags, NULL, 0);
    step_exch = saved;
    assert_non_null(*pairs);
    assert_non_null(*flat);
}

#define STEPS 6

/* The not-held violations of the schedule's exchange steps, replayed on bitmaps here: node v
 * holds chunk c (have[v * nch + c]); each step's sends checked against the start of the step
 * in transfer order, then the receives.  Compared with what the run recorded (its first
 * SIM_MAXVIOL violations, all counted). */
static void check_not_held(const Sim *sim, const Ex *ex, const bool *isex, int32_t N,
                           uint32_t nch, uint32_t g)
{
    bool *have = calloc((size_t)N * nch, 1), *start = malloc((size_t)N * nch);
    assert_non_null(have);
    assert_non_null(start);
    for (int32_t v = 0; v < N; v++) {
        uint32_t lo, hi;
        given(g, v, nch, &lo, &hi);
        for (uint32_t c = lo; c < hi; c++)
            have[(size_t)v * nch + c] = true;
    }
    size_t seen = 0, nv = sim_nviolations(sim);
    int64_t count = 0;
    SchedRuleXfer *x = malloc(sizeof *x * (size_t)N);
    assert_non_null(x);
    for (int st = 0; st < STEPS; st++) {
        if (!isex[st])
            break;   /* (the steps after a stored one are not replayed here) */
        memcpy(start, have, (size_t)N * nch);
        ex_batch(&ex[st], 0, N, x);
        for (int32_t j = 0; j < N; j++) {
            for (uint32_t k = 0; k < x[j].nr; k++) {
                uint32_t c = x[j].r[k].lo;
                while (c < x[j].r[k].hi && start[(size_t)j * nch + c])
                    c++;
                if (c < x[j].r[k].hi) {   /* the first chunk missing */
                    count++;
                    while (seen < nv && sim_violation(sim, seen)->kind != SIM_V_NOT_HELD)
                        seen++;
                    if (seen < nv) {
                        const SimViolation *v = sim_violation(sim, seen++);
                        assert_int_equal(v->step, st);
                        assert_int_equal(v->transfer, j);
                        assert_int_equal(v->node, j);
                        assert_int_equal(v->chunk, c);
                    }
                    break;
                }
            }
            for (uint32_t k = 0; k < x[j].nr; k++)
                for (uint32_t c = x[j].r[k].lo; c < x[j].r[k].hi; c++)
                    have[(size_t)x[j].dst * nch + c] = true;
        }
    }
    bool all = true;
    for (int st = 0; st < STEPS; st++)
        all = all && isex[st];
    if (all)
        assert_int_equal(sim_totals(sim)->not_held, count);
    free(x);
    free(have);
    free(start);
}

static int ilog2(int32_t n)
{
    int k = 0;
    while ((INT32_C(1) << k) < n)
        k++;
    return k;
}

static void test_exch_random(void **state)
{
    (void)state;
    const char *specs[] = { "array:2", "array:16", "ring:32", "mesh:4x4", "mesh:8x16",
                            "torus:8x8", "mesh:16x4", "mesh:32x32", "array:2048", "torus:16x16",
                            "mesh:64x64" };
    int nspecs = (int)(sizeof specs / sizeof *specs);
    int64_t paired = 0;
    for (unsigned seed = 1; seed <= 66; seed++) {
        srand(seed * 7919u);
        Net *net = net_parse(specs[seed % (unsigned)nspecs], NULL, 0);
        assert_non_null(net);
        int32_t N = net_size(net);
        int lg = ilog2(N);
        uint32_t nch = 8 + rnd(40), g = seed * 31u;
        Sched *s = sched_new(net, nch, nch * 3 + seed % 5);
        for (int32_t v = 0; v < N; v++) {
            uint32_t lo, hi;
            given(g, v, nch, &lo, &hi);
            sched_give(s, v, lo, hi);
        }
        Ex ex[STEPS];
        bool isex[STEPS];
        for (int st = 0; st < STEPS; st++) {
            Ex *e = &ex[st];
            e->sel = (int)rnd((uint32_t)lg + 1);
            for (int q = 0; q < 2; q++) {
                int32_t f = (int32_t)rnd((uint32_t)N) & ~(INT32_C(1) << e->sel);
                if (f == 0)
                    f = INT32_C(1) << (e->sel == 0 ? (lg > 1 ? 1 : 0) : e->sel - 1);
                e->flip[q] = f & ~(INT32_C(1) << e->sel) ? f : 1;
            }
            if (lg == 1)
                e->sel = 1, e->flip[0] = e->flip[1] = 1;
            e->nch = nch;
            e->seed = seed * 131u + (unsigned)st;
            e->g = g;
            e->late = -1;
            e->bad1 = 0;
            e->badkind = 0;
            e->late2 = 0;
            sched_step(s);
            /* every other step with its pairs (the replay from them) */
            if ((seed + (unsigned)st) % 2)
                assert_true(sched_send_rule_exchange_pairs(s, N, ex_batch, ex_pairs, e,
                                                           sizeof *e, ex_prove));
            else
                assert_true(sched_send_rule_exchange(s, N, ex_batch, e, sizeof *e, ex_prove));
            isex[st] = true;
            if (st == 3 && seed % 3 == 0) {   /* a stored send too: not an exchange step */
                ChunkRange r = { 0, 1 };
                assert_true(sched_send(s, 0, N - 1, &r, 1));
                isex[st] = false;
            }
        }
        assert_null(sched_error(s));
        CostParams p;
        int m = (int)(seed / 2 % 8);
        cost_defaults(&p, m <= 3 ? COST_SEIDEL : m <= 5 ? COST_POSTAL
                                                 : (m == 6 ? COST_CIRCUIT : COST_SAF));
        if (m <= 3)
            p.nu = m;
        if (m == 5)
            p.duplex = !p.duplex;
        unsigned flags = seed % 5 == 0 ? SIM_HISTORY : 0;
        Sim *a, *b;
        int64_t steps;
        run_both(s, &p, flags, &a, &b, &steps);
        same_runs(a, b, N);
        bool eligible = !flags && (p.model == COST_SEIDEL || (p.model == COST_POSTAL && p.duplex));
        int nex = 0;
        for (int st = 0; st < STEPS; st++)
            nex += isex[st];
        assert_int_equal(steps, eligible ? nex : 0);
        paired += steps;
        check_not_held(a, ex, isex, N, nch, g);
        check_not_held(b, ex, isex, N, nch, g);
        sim_free(a);
        sim_free(b);
        sched_free(s);
        net_free(net);
    }
    assert_true(paired > 100);
}

/* A step whose largest transfer comes past the priced prefix (transfer 6000 of 8192, and its
 * partner): without contention (flip 1, nu 3) and with (flip 2: every link of the line
 * carries two routes, nu 0), the critical node is 6000, the first transfer at the top price. */
static void test_exch_late(void **state)
{
    (void)state;
    for (int c = 0; c < 2; c++) {
        Net *net = net_parse("array:8192", NULL, 0);
        assert_non_null(net);
        Sched *s = sched_new(net, 4, 4000);
        for (int32_t v = 0; v < 8192; v++)
            sched_give(s, v, 0, 4);
        Ex e = { 14, { c ? 2 : 1, c ? 2 : 1 }, 4, 1, 1, 6000, 0, 0, 0 };
        sched_step(s);
        assert_true(sched_send_rule_exchange(s, 8192, ex_batch, &e, sizeof e, ex_prove));
        sched_step(s);   /* the same from its pairs */
        assert_true(sched_send_rule_exchange_pairs(s, 8192, ex_batch, ex_pairs, &e, sizeof e,
                                                   ex_prove));
        CostParams p;
        cost_defaults(&p, COST_SEIDEL);
        p.nu = c ? 0 : 3;
        Sim *a, *b;
        int64_t steps;
        run_both(s, &p, 0, &a, &b, &steps);
        assert_int_equal(steps, 2);
        same_runs(a, b, 8192);
        for (int st = 0; st < 2; st++) {
            assert_int_equal(sim_step(a, st)->critical_node, 6000);
            assert_int_equal(sim_step(a, st)->max_link_load, c ? 2 : 1);
            assert_int_equal(sim_step(a, st)->max_bytes, 2000);
        }
        sim_free(a);
        sim_free(b);
        sched_free(s);
        net_free(net);
    }
}

/* Ties for the most bytes met out of transfer order: on array:8192 with partners j ^ 4096 the
 * pairs come as 0, 4096, 1, 4097, ...; transfers 4096, 1 and 4097 send two chunks, the others
 * one, so the first at the most bytes is transfer 1, met after 4096.  Every chunk the same
 * size (1000 bytes: the bytes from the chunks counted), none (0 bytes: every transfer at the
 * top, transfer 0 first), or not all the same (4001 bytes); as a plain exchange and from its
 * pairs: the figures are the flat view's, and the critical node is 1 (0 with no bytes). */
static void test_exch_ties(void **state)
{
    (void)state;
    const uint64_t bytes[] = { 4000, 0, 4001 };
    for (int bi = 0; bi < 3; bi++) {
        Net *net = net_parse("array:8192", NULL, 0);
        assert_non_null(net);
        Sched *s = sched_new(net, 4, bytes[bi]);
        for (int32_t v = 0; v < 8192; v++)
            sched_give(s, v, 0, 4);
        Ex e = { 14, { 4096, 4096 }, 4, 1, 1, 4097, 0, 0, 4097 };
        sched_step(s);
        assert_true(sched_send_rule_exchange(s, 8192, ex_batch, &e, sizeof e, ex_prove));
        sched_step(s);
        assert_true(sched_send_rule_exchange_pairs(s, 8192, ex_batch, ex_pairs, &e, sizeof e,
                                                   ex_prove));
        for (int m = 0; m < 2; m++) {   /* seidel without contention; postal, duplex */
            CostParams p;
            cost_defaults(&p, m ? COST_POSTAL : COST_SEIDEL);
            p.nu = 13;
            p.duplex = true;
            Sim *a, *b;
            int64_t steps;
            run_both(s, &p, 0, &a, &b, &steps);
            assert_int_equal(steps, 2);
            same_runs(a, b, 8192);
            for (int st = 0; st < 2; st++) {
                assert_int_equal(sim_step(a, st)->critical_node, bytes[bi] ? 1 : 0);
                assert_int_equal(sim_step(a, st)->max_bytes, bytes[bi] ? 2000 : 0);
            }
            sim_free(a);
            sim_free(b);
        }
        sched_free(s);
        net_free(net);
    }
}

/* Not an exchange: node j sends to j + 1 (mod n), which does not send back. */
static void ring_batch(const void *ctx, int64_t j0, int64_t n, SchedRuleXfer *out)
{
    const int32_t *N = ctx;
    for (int64_t i = 0; i < n; i++) {
        out[i].src = (int32_t)(j0 + i);
        out[i].dst = (int32_t)((j0 + i + 1) % *N);
        out[i].nr = 1;
        out[i].r[0] = (ChunkRange){ 0, 1 };
    }
}

static bool yes_prove(const void *ctx, const Net *net, uint32_t nchunks, int64_t count)
{
    (void)ctx;
    (void)net;
    (void)nchunks;
    (void)count;
    return true;
}

static void test_exch_refused(void **state)
{
    (void)state;
    bool saved = sched_check_proofs;
    Net *net = net_parse("ring:8", NULL, 0);
    assert_non_null(net);
    int32_t N = 8;
    for (int k = 0; k < 3; k++) {
        sched_check_proofs = k == 2;
        Sched *s = sched_new(net, 1, 8);
        sched_give(s, 0, 0, 1);
        sched_step(s);
        /* unproved: checked, refused; proved wrongly: refused when proofs are checked */
        bool ok = sched_send_rule_exchange(s, N, ring_batch, &N, sizeof N,
                                           k == 0 ? NULL : yes_prove);
        if (k == 1) {
            assert_true(ok);   /* (trusted: proofs not checked) */
        } else {
            assert_false(ok);
            assert_non_null(sched_error(s));
            assert_non_null(strstr(sched_error(s), "not an exchange"));
        }
        sched_free(s);
    }
    /* a count other than the net's size */
    sched_check_proofs = true;
    Sched *s = sched_new(net, 1, 8);
    sched_step(s);
    Ex e = { 3, { 1, 1 }, 8, 1, 1, -1, 0, 0, 0 };
    assert_false(sched_send_rule_exchange(s, 4, ex_batch, &e, sizeof e, NULL));
    sched_free(s);
    sched_check_proofs = saved;
    net_free(net);
}

/* An exchange's pairs that are not its transfers' (one pair's partner transfer one chunk
 * short, a pair left out, a pair's transfers swapped; in the first, a middle or the last run
 * the check generates): refused, naming the pair, whenever the block is checked (unproved, or
 * proved with the proofs checked); trusted when proved and the proofs are not checked.  The
 * right pairs pass. */
static void test_exch_pairs_refused(void **state)
{
    (void)state;
    bool saved = sched_check_proofs;
    Net *net = net_parse("mesh:32x32", NULL, 0);
    assert_non_null(net);
    const int64_t nodes[] = { 0, 516, 990 };   /* (lower ends: partners 1, 517, 991) */
    for (int k = 0; k < 3; k++)
        for (int kind = -1; kind < 3; kind++)
            for (int ni = 0; ni < 3; ni++) {
                sched_check_proofs = k == 2;
                Sched *s = sched_new(net, 64, 64);
                sched_give(s, 0, 0, 64);
                sched_step(s);
                Ex e = { 5, { 1, 66 }, 64, 7, 3, -1, 0, 0, 0 };
                assert_true((nodes[ni] ^ e.flip[(nodes[ni] >> e.sel) & 1]) > nodes[ni]);
                if (kind >= 0) {
                    e.bad1 = nodes[ni] + 1;
                    e.badkind = kind;
                }
                bool ok = sched_send_rule_exchange_pairs(s, 1024, ex_batch, ex_pairs, &e,
                                                         sizeof e, k == 0 ? NULL : ex_prove);
                if (kind < 0 || k == 1) {
                    assert_true(ok);
                } else {
                    assert_false(ok);
                    assert_non_null(strstr(sched_error(s), "pair"));
                }
                sched_free(s);
            }
    Sched *s = sched_new(net, 64, 64);   /* no pairs function */
    sched_step(s);
    Ex e = { 5, { 1, 66 }, 64, 7, 3, -1, 0, 0, 0 };
    assert_false(sched_send_rule_exchange_pairs(s, 1024, ex_batch, NULL, &e, sizeof e, NULL));
    sched_free(s);
    sched_check_proofs = saved;
    net_free(net);
}

/* rh's exchange steps (rh_mesh.c, rh_array.c): the pairs of any run of nodes (any start, any
 * length, across rows) are exactly the nodes of the run below their partners, in order, each
 * with its transfer and its partner's, as the rule's transfers (generated whole here) say. */
static void test_rh_pairs(void **state)
{
    (void)state;
    static const char *specs[] = { "mesh:2x2", "mesh:2x8", "mesh:8x2", "mesh:4x32",
                                   "mesh:32x4", "mesh:16x16", "mesh:2x1024", "array:2",
                                   "array:64", "array:1024" };
    srand(4242);
    for (size_t si = 0; si < sizeof specs / sizeof *specs; si++) {
        Net *net = net_parse(specs[si], NULL, 0);
        assert_non_null(net);
        const AlgoDef *d = algo_find("rh", net);
        assert_non_null(d);
        AlgoArgs a;
        algo_args_init(&a, d);
        a.source = net_size(net) / 3;
        char err[256];
        Sched *s = algo_build(d, net, &a, err, sizeof err);
        assert_non_null(s);
        int32_t N = net_size(net);
        SchedRuleXfer *all = malloc(sizeof *all * (size_t)N);
        SchedRuleXfer *pr = malloc(sizeof *pr * 2 * (size_t)N);
        assert_non_null(all);
        assert_non_null(pr);
        int nex = 0;
        for (int32_t st = 0; st < sched_nsteps(s); st++) {
            const SchedRule *r = sched_step_exchange(s, st);
            if (!r)
                continue;
            nex++;
            assert_non_null(r->pairs);
            sched_rule_gen(r, 0, N, all);
            for (int t = 0; t < 20; t++) {
                int64_t j0 = t == 0 ? 0 : (int64_t)rnd((uint32_t)N);
                int64_t n = t == 0 ? N : 1 + (int64_t)rnd((uint32_t)(N - j0));
                for (int64_t i = 0; i < 2 * n; i++)
                    pr[i] = (SchedRuleXfer){ -1, -1, 9, { { 1, 0 }, { 1, 0 } } };
                int64_t np = sched_rule_pairs(r, j0, n, pr), k = 0;
                for (int64_t j = j0; j < j0 + n; j++) {
                    if (all[j].dst < j)
                        continue;
                    assert_true(k < np);
                    const SchedRuleXfer *x = &pr[2 * k], *y = x + 1, *w[2] = { &all[j],
                                                                            &all[all[j].dst] };
                    for (int q = 0; q < 2; q++) {
                        const SchedRuleXfer *z = q ? y : x;
                        assert_int_equal(z->src, w[q]->src);
                        assert_int_equal(z->dst, w[q]->dst);
                        assert_int_equal(z->nr, w[q]->nr);
                        for (uint32_t c = 0; c < z->nr; c++) {
                            assert_int_equal(z->r[c].lo, w[q]->r[c].lo);
                            assert_int_equal(z->r[c].hi, w[q]->r[c].hi);
                        }
                    }
                    assert_int_equal(all[all[j].dst].dst, j);
                    k++;
                }
                assert_int_equal(k, np);
            }
        }
        assert_true(nex > 0);
        free(all);
        free(pr);
        sched_free(s);
        net_free(net);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exch_random),
        cmocka_unit_test(test_exch_late),
        cmocka_unit_test(test_exch_ties),
        cmocka_unit_test(test_exch_refused),
        cmocka_unit_test(test_exch_pairs_refused),
        cmocka_unit_test(test_rh_pairs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
