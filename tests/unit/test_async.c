/* test_async.c — the asynchronous timing (sim-async.c) against a plain reference that follows
 * sim-async.h word for word (a time per chunk per node, a time per arc walked hop by hop), on
 * random schedules of every model and net kind: stored sends with one or two ranges, default
 * and explicit routes, redundant and out-of-order receives, old chunks sent late, local
 * operations, rule blocks and edge blocks.  Times must be equal exactly (the same arithmetic),
 * the total, every step's end and every event.  Also the edge table of sched.h: an edge block
 * reads back as the sends it stands for, and its errors; and the lockstep simulator, which
 * reuses the link loads of a step made of the same edge blocks as a clean step before it,
 * gives every step exactly what it gives the same pipeline sent transfer by transfer. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/engine/sched.h"
#include "../../src/engine/sim-internal.h"
#include "../../src/engine/sim-async.h"
#include "../../src/engine/sim.h"

static uint64_t rng = 88172645463325252ull;

static uint32_t rnd(uint32_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng % n);
}

static double dmax(double a, double b) { return a > b ? a : b; }

/* The reference: sim-async.h's rules, the slow obvious way. */
typedef struct {
    double total;
    double *step_end;
    SimAsyncEvent *ev;
    int64_t nev;
    int64_t chan_waits;   /* hxbar: transfers a channel held back */
} Ref;

static void ref_run(const Sched *s, const CostParams *p, Ref *out)
{
    const Net *net = sched_net(s);
    int32_t n = net_size(net);
    uint32_t nc = sched_nchunks(s);
    int64_t nl = net_nlinks(net);
    int cap = p->model == COST_SEIDEL ? 1 << p->nu : 1;
    bool links = p->model == COST_CIRCUIT || p->model == COST_SAF || p->model == COST_SEIDEL;
    bool ports = p->model == COST_SEIDEL || p->model == COST_POSTAL;
    bool simplex = p->model == COST_POSTAL && !p->duplex;
    double *arr = calloc((size_t)n * nc, sizeof *arr);   /* 0: given or never */
    bool *got = calloc((size_t)n * nc, 1);
    double *arc = calloc((size_t)(nl * cap), sizeof *arc);
    double *sendp = calloc((size_t)n, sizeof *sendp);
    double *recvp = simplex ? sendp : calloc((size_t)n, sizeof *recvp);
    double *local = calloc((size_t)n, sizeof *local), *lastin = calloc((size_t)n, sizeof *lastin);
    double *stepin = calloc((size_t)n, sizeof *stepin);
    /* hxbar: module m's C out channels at [2m*C, 2m*C+C), its in channels after them */
    int32_t hB = net_hxbar_per(net), hC = net_hxbar_channels(net);
    double *chan = calloc((size_t)net_hxbar_modules(net) * 2 * (size_t)(hC > 0 ? hC : 1) + 1,
                          sizeof *chan);
    out->chan_waits = 0;
    int32_t nsteps = sched_nsteps(s);
    out->step_end = calloc((size_t)nsteps + 1, sizeof *out->step_end);
    out->ev = calloc((size_t)sched_total_transfers(s) + 1, sizeof *out->ev);
    out->nev = 0;
    out->total = 0;
    for (int32_t st = 0; st < nsteps; st++) {
        double send_end = 0;
        for (int64_t i = 0; i < sched_nlocals(s, st); i++) {
            SchedLocal lo;
            sched_local_get(s, st, i, &lo);
            for (int32_t v = 0; v < n; v++)
                if (lo.node < 0 || lo.node == v) {
                    local[v] = dmax(local[v], lastin[v]) + p->rho * (double)lo.bytes;
                    send_end = dmax(send_end, local[v]);
                }
        }
        int64_t nt = sched_ntransfers(s, st);
        for (int64_t i = 0; i < nt; i++) {
            SchedTransfer t;
            sched_transfer(s, st, i, &t);
            double start = local[t.src];
            for (uint32_t r = 0; r < t.nranges; r++)
                for (uint32_t c = t.ranges[r].lo; c < t.ranges[r].hi; c++)
                    start = dmax(start, arr[(size_t)t.src * nc + c]);
            if (ports)
                start = dmax(dmax(start, sendp[t.src]), recvp[t.dst]);
            int64_t ids[4096];
            int nid = 0;
            if (links) {
                if (net_pairwise(net)) {
                    ids[nid++] = net_pair_link(net, t.src, t.dst);
                } else {
                    int32_t v = t.src;
                    for (int g = 0; g < t.nseg; g++)
                        for (int32_t h = 0; h < t.seg[g].len; h++) {
                            ids[nid++] = net_link(net, v, t.seg[g].dim, t.seg[g].dir);
                            v = net_neighbor(net, v, t.seg[g].dim, t.seg[g].dir);
                        }
                }
            }
            for (int q = 0; q < nid; q++) {
                double best = arc[ids[q] * cap];
                for (int k = 1; k < cap; k++)
                    best = arc[ids[q] * cap + k] < best ? arc[ids[q] * cap + k] : best;
                start = dmax(start, best);
            }
            int co = -1, ci = -1;
            if (hB > 0 && t.src / hB != t.dst / hB) {
                co = (t.src / hB) * 2 * hC;
                ci = (t.dst / hB * 2 + 1) * hC;
                for (int k = 1, b = co; k < hC; k++)
                    if (chan[b + k] < chan[co])
                        co = b + k;
                for (int k = 1, b = ci; k < hC; k++)
                    if (chan[b + k] < chan[ci])
                        ci = b + k;
                if (dmax(chan[co], chan[ci]) > start) {
                    start = dmax(chan[co], chan[ci]);
                    out->chan_waits++;
                }
            }
            double end = start + cost_transfer(p, (double)t.len, (double)t.bytes, 1);
            if (ports) {
                sendp[t.src] = end;
                recvp[t.dst] = end;
            }
            if (co >= 0)
                chan[co] = chan[ci] = end;
            for (int q = 0; q < nid; q++) {
                int kb = 0;
                for (int k = 1; k < cap; k++)
                    if (arc[ids[q] * cap + k] < arc[ids[q] * cap + kb])
                        kb = k;
                arc[ids[q] * cap + kb] = end;
            }
            for (uint32_t r = 0; r < t.nranges; r++)
                for (uint32_t c = t.ranges[r].lo; c < t.ranges[r].hi; c++)
                    if (!got[(size_t)t.dst * nc + c]) {
                        got[(size_t)t.dst * nc + c] = true;
                        arr[(size_t)t.dst * nc + c] = end;
                    }
            stepin[t.dst] = dmax(stepin[t.dst], end);
            send_end = dmax(send_end, end);
            out->ev[out->nev++] = (SimAsyncEvent){ start, end, st, i };
        }
        for (int64_t i = 0; i < nt; i++) {
            SchedTransfer t;
            sched_transfer(s, st, i, &t);
            lastin[t.dst] = dmax(lastin[t.dst], stepin[t.dst]);
        }
        out->step_end[st] = send_end;
        out->total = dmax(out->total, send_end);
    }
    if (recvp != sendp)
        free(recvp);
    free(sendp);
    free(arr);
    free(got);
    free(arc);
    free(local);
    free(lastin);
    free(stepin);
    free(chan);
}

/* A rule block: transfer j goes from node (j * 3 + k) % n to its next id, chunk j % nc. */
typedef struct {
    int32_t n, k;
    uint32_t nc;
} RuleCtx;

static void rule_fn(const void *ctx, int64_t j, SchedRuleXfer *out)
{
    const RuleCtx *c = ctx;
    out->src = (int32_t)((j * 3 + c->k) % c->n);
    out->dst = (out->src + 1) % c->n;
    out->nr = 1;
    out->r[0] = (ChunkRange){ (uint32_t)(j % c->nc), (uint32_t)(j % c->nc) + 1 };
}

/* A random path of 1..3 straight pieces from v (explicit route), its end in *end. */
static int random_route(const Net *net, int32_t v, NetSeg *seg, int32_t *end)
{
    int nd = net_ndim(net), ns = 1 + (int)rnd(3);
    int32_t w = v;
    for (int g = 0; g < ns; g++) {
        int d = (int)rnd((uint32_t)nd);
        int dir = rnd(2) ? 1 : -1;
        int32_t len = 1 + (int32_t)rnd((uint32_t)net_dim(net, d) + 1);
        seg[g] = (NetSeg){ (int8_t)d, (int8_t)dir, len };
        int32_t x = net_route_end(net, w, &seg[g], 1);
        if (x < 0)
            return -1;
        w = x;
    }
    *end = w;
    return ns;
}

/* Up to want random edges (random_route's routes, tags 0..1) into s's empty edge table; with
 * from >= 0 about half of them start there.  Returns how many (numbered from 0). */
static int64_t add_edges(Sched *s, const Net *net, int want, int32_t from)
{
    int64_t ne = 0;
    for (int q = 0; q < want; q++) {
        int32_t a = from >= 0 && rnd(2) ? from : (int32_t)rnd((uint32_t)net_size(net)), b;
        NetSeg seg[3];
        int ns = random_route(net, a, seg, &b);
        if (ns < 0 || b == a)
            continue;
        assert_true(sched_edge(s, a, b, seg, ns, rnd(2)) == ne);
        ne++;
    }
    return ne;
}

static Sched *random_sched(const Net *net, uint32_t nc, uint64_t bytes)
{
    int32_t n = net_size(net);
    Sched *s = sched_new(net, nc, bytes);
    int32_t src = (int32_t)rnd((uint32_t)n);
    assert_true(sched_give(s, src, 0, nc));
    bool full = net_kind(net) == NET_FULL;
    int64_t e0 = 0, ne = full ? 0 : add_edges(s, net, 6, -1);   /* for edge blocks */
    int32_t nsteps = 3 + (int32_t)rnd(5);
    for (int32_t st = 0; st < nsteps; st++) {
        assert_true(sched_step(s) >= 0);
        if (rnd(4) == 0)
            assert_true(sched_local(s, rnd(3) == 0 ? -1 : (int32_t)rnd((uint32_t)n), 1 + rnd(50)));
        int nx = 1 + (int)rnd(12);
        for (int i = 0; i < nx; i++) {
            int32_t a = (int32_t)rnd((uint32_t)n), b = (int32_t)rnd((uint32_t)n);
            uint32_t lo = rnd(nc), hi = lo + 1 + rnd(nc - lo);
            ChunkRange r[2] = { { lo, hi }, { 0, 0 } };
            size_t nr = 1;
            if (hi + 1 < nc && rnd(3) == 0) {
                r[1] = (ChunkRange){ hi + 1, hi + 1 + rnd(nc - hi - 1) + 1 };
                if (r[1].hi > nc)
                    r[1].hi = nc;
                nr = 2;
            }
            if (!full && rnd(3) == 0) {
                NetSeg seg[3];
                int ns = random_route(net, a, seg, &b);
                if (ns > 0 && b != a)
                    assert_true(sched_send_route(s, a, b, r, nr, seg, ns));
            } else if (a != b) {
                assert_true(sched_send(s, a, b, r, nr));
            }
        }
        if (rnd(3) == 0) {
            RuleCtx c = { n, (int32_t)rnd(5), nc };
            assert_true(sched_send_rule(s, 1 + rnd(6), rule_fn, &c, sizeof c));
        }
        if (ne > 0 && rnd(2) == 0) {
            int64_t first = e0 + rnd((uint32_t)ne);
            int64_t cnt = 1 + rnd((uint32_t)(e0 + ne - first));
            uint32_t mul = nc / 2, add = rnd(nc - mul);
            assert_true(sched_send_edges(s, first, cnt, mul, add));
        }
    }
    assert_null(sched_error(s));
    return s;
}

/* The timing of s under p, alone (with its events) and in the simulator's pass, against the
 * reference, word for word; returns the reference's channel waits. */
static int64_t check_against_ref(const char *what, int rep, const Sched *s, const CostParams *p)
{
    char err[256];
    SimAsync *a = sim_async_run(s, p, SIM_ASYNC_EVENTS, err, sizeof err);
    if (!a)
        fail_msg("%s: %s", what, err);
    Ref r;
    ref_run(s, p, &r);   /* its events in schedule order */
    if (sim_async_total(a) != r.total)
        fail_msg("%s %s rep %d: total %.17g, reference %.17g", what, cost_model_name(p->model),
                 rep, sim_async_total(a), r.total);
    for (int32_t st = 0; st < sched_nsteps(s); st++)
        assert_true(sim_async_step_end(a, st) == r.step_end[st]);
    assert_int_equal(sim_async_nevents(a), r.nev);
    assert_int_equal(sim_async_channel_waits(a), r.chan_waits);
    int64_t *first = calloc((size_t)sched_nsteps(s) + 1, sizeof *first);
    for (int32_t st = 0; st < sched_nsteps(s); st++)
        first[st + 1] = first[st] + sched_ntransfers(s, st);
    for (int64_t i = 0; i < r.nev; i++) {
        const SimAsyncEvent *e = sim_async_event(a, i), *q = e - 1;
        const SimAsyncEvent *w = &r.ev[first[e->step] + e->index];
        assert_true(e->start == w->start && e->end == w->end && e->step == w->step &&
                    e->index == w->index);
        /* sorted by start, ties in schedule order */
        assert_true(i == 0 || q->start < e->start ||
                    (q->start == e->start &&
                     (q->step < e->step || (q->step == e->step && q->index < e->index))));
    }
    free(first);
    /* the same timing made in the simulator's pass (SIM_ASYNC), in turn on the replay's
     * thread and (where the timing reads no step views: exclusive edges) on a second one */
    for (int par = 0; par < 2; par++) {
        sim_par_min = par ? 0 : INT64_MAX;
        Sim *sim = sim_run(s, p, SIM_ASYNC, err, sizeof err);
        sim_par_min = 65536;
        assert_non_null(sim);
        SimAsync *b = sim_async_take(sim, err, sizeof err);
        if (!b)
            fail_msg("%s: fused: %s", what, err);
        if (sim_async_total(b) != r.total)
            fail_msg("%s %s rep %d: fused total %.17g, reference %.17g", what,
                     cost_model_name(p->model), rep, sim_async_total(b), r.total);
        for (int32_t st = 0; st < sched_nsteps(s); st++)
            assert_true(sim_async_step_end(b, st) == r.step_end[st]);
        assert_int_equal(sim_async_nevents(b), 0);
        assert_int_equal(sim_async_channel_waits(b), sim_async_channel_waits(a));
        assert_true(sim_async_channel_wait(b) == sim_async_channel_wait(a));
        assert_true(sim_async_channel_wait_max(b) == sim_async_channel_wait_max(a));
        assert_null(sim_async_take(sim, err, sizeof err));   /* given away */
        sim_async_free(b);
        sim_free(sim);
    }
    int64_t waits = r.chan_waits;
    free(r.step_end);
    free(r.ev);
    sim_async_free(a);
    return waits;
}

typedef Sched *(*MakeSched)(const Net *net, uint32_t nc, uint64_t bytes);

/* reps random schedules made by make on every net, each timed under every model (seidel with
 * nu < numax) against the reference; returns the channel waits seen, adds the timings to
 * *runs. */
static int64_t sweep(const char *const *nets, size_t nn, int reps, MakeSched make, int numax,
                     int *runs)
{
    static const CostModel models[] = { COST_CIRCUIT, COST_SAF, COST_SEIDEL, COST_POSTAL };
    int64_t waits = 0;
    for (size_t ni = 0; ni < nn; ni++) {
        Net *net = net_parse(nets[ni], NULL, 0);
        assert_non_null(net);
        for (int rep = 0; rep < reps; rep++) {
            uint32_t nc = 2 + rnd(9);
            Sched *s = make(net, nc, rnd(2) ? nc * 100 : 997);
            for (size_t mi = 0; mi < sizeof models / sizeof models[0]; mi++) {
                CostParams p;
                cost_defaults(&p, models[mi]);
                if (models[mi] == COST_SEIDEL)
                    p.nu = (int)rnd((uint32_t)numax);
                if (models[mi] == COST_POSTAL)
                    p.duplex = (int)rnd(2);
                p.rho = 0.5;
                waits += check_against_ref(nets[ni], rep, s, &p);
                (*runs)++;
            }
            sched_free(s);
        }
        net_free(net);
    }
    return waits;
}

static void test_against_reference(void **state)
{
    (void)state;
    static const char *const nets[] = { "array:6", "ring:7", "mesh:4x5", "torus:5x4",
                                        "torus:2x3", "mesh:3x3x2", "torus:3x2x4", "full:5",
                                        "hxbar:3x2,c=1", "hxbar:2x3", "hxbar:4x2,c=3" };
    int runs = 0;
    /* the hxbar nets' channels do hold transfers back */
    assert_true(sweep(nets, sizeof nets / sizeof nets[0], 60, random_sched, 3, &runs) > 0);
    assert_int_equal(runs, 11 * 60 * 4);
}

/* A schedule of edge blocks only (the simulator's per-edge path: an edge whose arcs no other
 * edge uses is timed by one time of its own, the others on the arcs): 3 to 10 random edges,
 * which on a small net often share arcs and on a big one seldom do. */
static Sched *random_edge_sched(const Net *net, uint32_t nc, uint64_t bytes)
{
    int32_t n = net_size(net);
    Sched *s = sched_new(net, nc, bytes);
    int32_t src = (int32_t)rnd((uint32_t)n);
    assert_true(sched_give(s, src, 0, nc));
    int64_t ne = add_edges(s, net, 3 + (int)rnd(8), src);
    int32_t nsteps = 2 + (int32_t)rnd(6);
    for (int32_t st = 0; st < nsteps; st++) {
        assert_true(sched_step(s) >= 0);
        if (rnd(5) == 0)
            assert_true(sched_local(s, rnd(3) == 0 ? -1 : (int32_t)rnd((uint32_t)n), 1 + rnd(50)));
        for (int k = 0, nb = ne > 0 ? (int)rnd(4) : 0; k < nb; k++) {
            int64_t first = rnd((uint32_t)ne);
            int64_t cnt = 1 + rnd((uint32_t)(ne - first));
            uint32_t mul = nc / 2, add = rnd(nc - mul);
            assert_true(sched_send_edges(s, first, cnt, mul, add));
        }
    }
    assert_null(sched_error(s));
    return s;
}

static void test_edges_only(void **state)
{
    (void)state;
    static const char *const nets[] = { "array:6", "ring:7", "mesh:4x5", "torus:5x4",
                                        "torus:2x3", "torus:9x9", "mesh:3x3x2", "torus:5x4x3" };
    int runs = 0;
    sweep(nets, sizeof nets / sizeof nets[0], 40, random_edge_sched, 2, &runs);
    assert_int_equal(runs, 8 * 40 * 4);
}

/* hxbar:2x2: two transfers out of module 0 in one step, 0->2 and 1->3.  With one channel
 * the second waits for the first (one channel wait of a whole transfer); with two, none. */
static void test_hxbar_channels(void **state)
{
    (void)state;
    for (int c = 1; c <= 2; c++) {
        char spec[32];
        snprintf(spec, sizeof spec, "hxbar:2x2,c=%d", c);
        Net *net = net_parse(spec, NULL, 0);
        assert_non_null(net);
        Sched *s = sched_new(net, 1, 100);
        sched_give(s, 0, 0, 1);
        sched_give(s, 1, 0, 1);
        sched_step(s);
        ChunkRange r = { 0, 1 };
        assert_true(sched_send(s, 0, 2, &r, 1));
        assert_true(sched_send(s, 1, 3, &r, 1));
        CostParams p;
        cost_defaults(&p, COST_POSTAL);   /* t = beta = 1: a transfer costs 101 */
        char err[256];
        SimAsync *a = sim_async_run(s, &p, 0, err, sizeof err);
        assert_non_null(a);
        assert_true(sim_async_total(a) == (c == 1 ? 202.0 : 101.0));
        assert_int_equal(sim_async_channel_waits(a), c == 1 ? 1 : 0);
        assert_true(sim_async_channel_wait(a) == (c == 1 ? 101.0 : 0.0));
        assert_true(sim_async_channel_wait_max(a) == (c == 1 ? 101.0 : 0.0));
        sim_async_free(a);
        sched_free(s);
        net_free(net);
    }
}

/* A pipeline in which a node sends the oldest of many chunks last (its arrivals leave the
 * tail for the log, then are read back) and receives a chunk below the newest (list mode). */
static void test_old_chunks(void **state)
{
    (void)state;
    Net *net = net_parse("array:3", NULL, 0);
    Sched *s = sched_new(net, 8, 800);
    assert_true(sched_give(s, 0, 0, 8));
    for (uint32_t c = 0; c < 8; c++) {   /* node 1 gets chunk c at 2 (c + 1) */
        assert_true(sched_step(s) >= 0);
        assert_true(sched_send_range(s, 0, 1, c, c + 1));
    }
    assert_true(sched_step(s) >= 0);
    assert_true(sched_send_range(s, 1, 2, 0, 1));   /* the oldest, from the log: 2..4 */
    assert_true(sched_send_range(s, 1, 2, 7, 8));   /* 16..18 */
    assert_true(sched_send_range(s, 1, 2, 3, 4));   /* below node 2's newest: 18..20 */
    assert_true(sched_step(s) >= 0);
    assert_true(sched_send_range(s, 2, 1, 3, 4));   /* node 2's chunk 3 came at 20: 20..22 */
    CostParams p;
    cost_defaults(&p, COST_CIRCUIT);
    p.alpha = 1, p.delta = 0, p.tau = 0.01;   /* each transfer: 1 + 1 = 2 */
    char err[128];
    SimAsync *a = sim_async_run(s, &p, SIM_ASYNC_EVENTS, err, sizeof err);
    assert_non_null(a);
    Ref r;
    ref_run(s, &p, &r);
    assert_true(sim_async_total(a) == r.total);
    assert_true(r.total == 22);
    int seen = 0;
    for (int64_t i = 0; i < sim_async_nevents(a); i++) {
        const SimAsyncEvent *e = sim_async_event(a, i);
        if (e->step == 8 && e->index == 0)   /* chunk 0 leaves node 1 when it came, at 2 */
            seen += e->start == 2 && e->end == 4;
        if (e->step == 8 && e->index == 2)
            seen += e->start == 18;
    }
    assert_int_equal(seen, 2);
    free(r.step_end);
    free(r.ev);
    sim_async_free(a);
    sched_free(s);
    net_free(net);
}

/* Edge blocks read back as the sends they stand for; their errors. */
static void test_edges(void **state)
{
    (void)state;
    Net *net = net_parse("torus:5x5", NULL, 0);
    Sched *a = sched_new(net, 6, 600), *b = sched_new(net, 6, 600);
    NetSeg r1[2] = { { 0, 1, 2 }, { 1, -1, 1 } }, r2[1] = { { 1, 1, 3 } };
    assert_true(sched_give(a, 0, 0, 6) && sched_give(b, 0, 0, 6));
    assert_int_equal(sched_edge(a, 0, 14, r1, 2, 0), 0);      /* (0,0) -> (2,4) */
    assert_int_equal(sched_edge(a, 0, 3, r2, 1, 1), 1);
    for (uint32_t p = 0; p < 3; p++) {
        assert_true(sched_step(a) >= 0 && sched_step(b) >= 0);
        assert_true(sched_send_range(a, 0, 1, 5, 6));           /* a stored send first */
        assert_true(sched_send_edges(a, 0, 2, 3, p));            /* chunks p and 3 + p */
        assert_true(sched_send_range(b, 0, 1, 5, 6));
        ChunkRange c0 = { p, p + 1 }, c1 = { 3 + p, 4 + p };
        assert_true(sched_send_route(b, 0, 14, &c0, 1, r1, 2));
        assert_true(sched_send_route(b, 0, 3, &c1, 1, r2, 1));
    }
    assert_null(sched_error(a));
    assert_true(sched_equal(a, b));
    assert_int_equal(sched_total_transfers(a), 9);
    SchedTransfer t;
    sched_transfer(a, 1, 1, &t);
    assert_int_equal(t.src, 0);
    assert_int_equal(t.dst, 14);
    assert_true(t.explicit_route);
    assert_int_equal(t.nseg, 2);
    assert_int_equal(t.len, 3);
    assert_int_equal(t.ranges[0].lo, 1);
    assert_int_equal(t.bytes, 100);
    sched_transfer(a, 2, 2, &t);
    assert_int_equal(t.dst, 3);
    assert_int_equal(t.ranges[0].lo, 5);
    /* errors: a route that does not end at dst, an edge out of the table, a chunk too big */
    assert_int_equal(sched_edge(a, 0, 13, r1, 2, 0), -1);
    assert_non_null(strstr(sched_error(a), "ends at node 14"));
    Sched *c = sched_new(net, 6, 600);
    assert_int_equal(sched_edge(c, 0, 3, r2, 1, 2), 0);
    assert_false(sched_send_edges(c, 0, 1, 1, 0));   /* no step */
    sched_free(c);
    c = sched_new(net, 6, 600);
    assert_int_equal(sched_edge(c, 0, 3, r2, 1, 2), 0);
    assert_true(sched_step(c) >= 0);
    assert_false(sched_send_edges(c, 0, 2, 1, 0));
    assert_non_null(strstr(sched_error(c), "not in the table"));
    sched_free(c);
    c = sched_new(net, 6, 600);
    assert_int_equal(sched_edge(c, 0, 3, r2, 1, 2), 0);
    assert_true(sched_step(c) >= 0);
    assert_false(sched_send_edges(c, 0, 1, 3, 0));   /* 2 * 3 + 0 = 6: not below 6 */
    assert_non_null(strstr(sched_error(c), "chunk 6"));
    sched_free(c);
    sched_free(a);
    sched_free(b);
    net_free(net);
}

/* A pipeline of P packets down a tree of 3 levels, as edge blocks (a) and as stored sends (b);
 * with clash, two circuits of level 2 share an arc, so no step may reuse the loads. */
static void pipeline(const Net *net, bool clash, uint32_t P, Sched **pa, Sched **pb)
{
    Sched *a = sched_new(net, P, 100 * P), *b = sched_new(net, P, 100 * P);
    assert_true(sched_give(a, 0, 0, P) && sched_give(b, 0, 0, P));
    /* torus:6x6, source 0: level 1 0 -> 2 (right 2), 0 -> 12 (down 2); level 2 2 -> 4,
     * 12 -> 14 (right), 2 -> 20 (down 3) or, clashing, 2 -> 3; level 3 4 -> 5, 14 -> 15 */
    typedef struct {
        int32_t src, dst;
        int nseg;
        NetSeg seg[2];
    } E;
    E lv[3][3] = {
        { { 0, 2, 1, { { 1, 1, 2 } } }, { 0, 12, 1, { { 0, 1, 2 } } }, { 0, 0, 0, { { 0 } } } },
        { { 2, 4, 1, { { 1, 1, 2 } } }, { 12, 14, 1, { { 1, 1, 2 } } },
          { 2, 20, 1, { { 0, 1, 3 } } } },
        { { 4, 5, 1, { { 1, 1, 1 } } }, { 14, 15, 1, { { 1, 1, 1 } } }, { 0, 0, 0, { { 0 } } } },
    };
    if (clash)   /* 2 -> 3 shares the arc (0,2) -> (0,3) with 2 -> 4 */
        lv[1][2] = (E){ 2, 3, 1, { { 1, 1, 1 } } };
    int ne[3] = { 2, 3, 2 };
    int64_t first[3];
    for (int l = 0; l < 3; l++)
        for (int i = 0; i < ne[l]; i++) {
            E *e = &lv[l][i];
            int64_t k = sched_edge(a, e->src, e->dst, e->seg, e->nseg, 0);
            assert_true(k >= 0);
            if (i == 0)
                first[l] = k;
        }
    for (uint32_t st = 0; st < P + 2; st++) {
        assert_true(sched_step(a) >= 0 && sched_step(b) >= 0);
        for (int l = 0; l < 3; l++) {
            int64_t p = (int64_t)st - l;
            if (p < 0 || p >= (int64_t)P)
                continue;
            assert_true(sched_send_edges(a, first[l], ne[l], 0, (uint32_t)p));
            for (int i = 0; i < ne[l]; i++) {
                ChunkRange r = { (uint32_t)p, (uint32_t)p + 1 };
                assert_true(sched_send_route(b, lv[l][i].src, lv[l][i].dst, &r, 1,
                                             lv[l][i].seg, lv[l][i].nseg));
            }
        }
    }
    assert_null(sched_error(a));
    assert_null(sched_error(b));
    *pa = a;
    *pb = b;
}

/* Four quarters of the message down the same tree of 3 levels on torus:6x6 (the edges once
 * per quarter, tags 0..3), packet p of every quarter at level l in step p + l: every node
 * receives four interleaved ascending streams, as saf-trees' nodes do; with more packets
 * than a stream's tail keeps, reads go down the log.  Against the reference. */
static void test_quarters(void **state)
{
    (void)state;
    Net *net = net_parse("torus:6x6", NULL, 0);
    for (uint32_t P = 1; P <= 9; P += 4) {
        Sched *s = sched_new(net, 4 * P, 400 * P);
        assert_true(sched_give(s, 0, 0, 4 * P));
        /* 0 -> 2 (right 2), 0 -> 12 (down 2); 2 -> 4, 12 -> 14; 4 -> 5, 14 -> 15 */
        static const int32_t lv[3][2][2] = { { { 0, 2 }, { 0, 12 } }, { { 2, 4 }, { 12, 14 } },
                                             { { 4, 5 }, { 14, 15 } } };
        int64_t first[3];
        for (int l = 0; l < 3; l++)
            for (uint32_t q = 0; q < 4; q++)
                for (int i = 0; i < 2; i++) {
                    int32_t a = lv[l][i][0], b = lv[l][i][1];
                    bool right = b - a < 6;
                    NetSeg seg = { (int8_t)(right ? 1 : 0), 1, right ? b - a : (b - a) / 6 };
                    int64_t e = sched_edge(s, a, b, &seg, 1, q);
                    assert_true(e >= 0);
                    if (q == 0 && i == 0)
                        first[l] = e;
                }
        for (uint32_t st = 0; st < P + 2; st++) {
            assert_true(sched_step(s) >= 0);
            for (int l = 0; l < 3; l++) {
                int64_t p = (int64_t)st - l;
                if (p >= 0 && p < (int64_t)P)
                    assert_true(sched_send_edges(s, first[l], 8, P, (uint32_t)p));
            }
        }
        assert_null(sched_error(s));
        static const CostModel models[] = { COST_CIRCUIT, COST_SAF, COST_POSTAL };
        for (size_t mi = 0; mi < 3; mi++) {
            CostParams p;
            cost_defaults(&p, models[mi]);
            check_against_ref("quarters", (int)P, s, &p);
        }
        sched_free(s);
    }
    net_free(net);
}

static void test_pipeline_steps(void **state)
{
    (void)state;
    Net *net = net_parse("torus:6x6", NULL, 0);
    static const CostModel models[] = { COST_CIRCUIT, COST_SEIDEL, COST_SAF };
    for (int clash = 0; clash < 2; clash++)
        for (size_t mi = 0; mi < 3; mi++) {
            Sched *a, *b;
            pipeline(net, clash, 7, &a, &b);
            assert_true(sched_equal(a, b));
            CostParams p;
            cost_defaults(&p, models[mi]);
            char err[128];
            Sim *sa = sim_run(a, &p, 0, err, sizeof err), *sb = sim_run(b, &p, 0, err, sizeof err);
            assert_non_null(sa);
            assert_non_null(sb);
            for (int32_t st = 0; st < sched_nsteps(a); st++) {
                const SimStep *x = sim_step(sa, st), *y = sim_step(sb, st);
                assert_true(x->cost.total == y->cost.total && x->tcd == y->tcd &&
                            x->max_link_load == y->max_link_load &&
                            x->link_overloads == y->link_overloads &&
                            x->port_conflicts == y->port_conflicts &&
                            x->violations == y->violations && x->max_len == y->max_len &&
                            x->critical_node == y->critical_node &&
                            x->bytes == y->bytes && x->informed == y->informed);
                if (clash && models[mi] == COST_CIRCUIT && st >= 1 && st <= 7)
                    assert_true(x->link_overloads > 0);   /* every step of level 2 */
            }
            /* the timing of the edge blocks (per edge where no other edge shares their
             * arcs) is the timing of the same sends stored (on the arcs), word for word */
            SimAsync *ta = sim_async_run(a, &p, SIM_ASYNC_EVENTS, err, sizeof err),
                     *tb = sim_async_run(b, &p, SIM_ASYNC_EVENTS, err, sizeof err);
            assert_non_null(ta);
            assert_non_null(tb);
            assert_true(sim_async_total(ta) == sim_async_total(tb));
            assert_int_equal(sim_async_nevents(ta), sim_async_nevents(tb));
            for (int64_t i = 0; i < sim_async_nevents(ta); i++) {
                const SimAsyncEvent *u = sim_async_event(ta, i), *w = sim_async_event(tb, i);
                assert_true(u->start == w->start && u->end == w->end && u->step == w->step &&
                            u->index == w->index);
            }
            sim_async_free(ta);
            sim_async_free(tb);
            check_against_ref(clash ? "pipeline, clash" : "pipeline", 0, a, &p);
            const SimTotals *x = sim_totals(sa), *y = sim_totals(sb);
            assert_true(x->cost.total == y->cost.total && x->violations == y->violations &&
                        x->verified == y->verified && x->valid == y->valid);
            assert_int_equal(sim_nviolations(sa), sim_nviolations(sb));
            assert_true(x->link_overloads == y->link_overloads);
            if (models[mi] == COST_CIRCUIT)   /* (not a broadcast of all nodes: incomplete) */
                assert_true(clash ? x->link_overloads == 7 : x->link_overloads == 0);
            sim_free(sa);
            sim_free(sb);
            sched_free(a);
            sched_free(b);
        }
    net_free(net);
}

/* SIM_ASYNC where the schedule cannot be timed: the replay still runs, sim_async_take says
 * why (sim_async_run's message); without SIM_ASYNC there is nothing to take. */
static void test_fused_errors(void **state)
{
    (void)state;
    Net *net = net_parse("torus:64x64", NULL, 0);
    assert_non_null(net);
    Sched *s = sched_new(net, 1, 100);
    sched_step(s);
    ChunkRange r = { 0, 1 };
    assert_true(sched_send(s, 0, 1, &r, 1));
    CostParams p;
    cost_defaults(&p, COST_SEIDEL);
    p.nu = 7;   /* 128 circuits a link: too many slots to time */
    char err[256] = "", aerr[256] = "";
    Sim *sim = sim_run(s, &p, SIM_ASYNC, err, sizeof err);
    assert_non_null(sim);
    assert_null(sim_async_take(sim, err, sizeof err));
    assert_null(sim_async_run(s, &p, 0, aerr, sizeof aerr));
    assert_string_equal(err, aerr);
    sim_free(sim);
    cost_defaults(&p, COST_CIRCUIT);
    sim = sim_run(s, &p, 0, err, sizeof err);
    assert_non_null(sim);
    assert_null(sim_async_take(sim, err, sizeof err));
    assert_non_null(strstr(err, "not timed"));
    sim_free(sim);
    /* a prefix: the steps it ran, timed as the whole run times them */
    sim = sim_run_prefix(s, &p, SIM_ASYNC, 0, err, sizeof err);
    assert_non_null(sim);
    SimAsync *a = sim_async_take(sim, err, sizeof err);
    assert_non_null(a);
    assert_true(sim_async_total(a) == 0);
    sim_async_free(a);
    sim_free(sim);
    sched_free(s);
    net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_reference),
        cmocka_unit_test(test_edges_only),
        cmocka_unit_test(test_fused_errors),
        cmocka_unit_test(test_hxbar_channels),
        cmocka_unit_test(test_old_chunks),
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_pipeline_steps),
        cmocka_unit_test(test_quarters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
