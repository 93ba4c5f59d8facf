/* test_arcsorted.c — the proof that a step's routes share no arc from their order alone
 * (arcmap_sorted, arcmap.h: each piece outside the hull of the pieces of its (dimension,
 * direction) before it; the replay's load_disjoint asks it before setting a bit per arc).
 * Random steps on arrays, rings, meshes and tori (1-, 2- and 3-D): shuffled, in node order,
 * runs of intervals along a line in increasing order (both directions, touching, overlapping by
 * one arc), binomial trees from any source, routes that wrap round a ring or torus, explicit
 * routes.  For each step:
 *   - the first transfer out of order equals the one an oracle finds here by walking every
 *     route hop by hop with net_link and placing each arc by the net's own coordinates (not
 *     the layout's code): each piece (a straight run of a route; one that wraps round is two)
 *     wholly before or wholly after every earlier piece of its (dimension, direction);
 *   - a step proved in order has a largest link load of at most 1, counted hop by hop, and the
 *     summed route length the walk finds;
 *   - both outcomes occur many times, proofs of big steps and wrong orders among them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/engine/arcmap.h"
#include "../../src/engine/net-internal.h"
#include "../../src/engine/sched.h"
#include "mknet.h"

/* The oracle: the first transfer of step st with a piece not wholly before or after the
 * earlier pieces of its (dimension, direction), or n; *tcd the summed length; *mx the largest
 * arc load. */
static int64_t oracle(const Sched *s, const Net *net, int32_t st, int64_t *tcd, int32_t *mx,
                      bool per_line)
{
    int64_t n = sched_ntransfers(s, st), first = n, nl = net_nlinks(net), sum = 0;
    int32_t *load = calloc((size_t)nl, sizeof *load), m = 0;
    assert_non_null(load);
    /* the hull of each block's pieces (per_line: of each line's, at b * P + line) */
    int64_t P = net_size(net), nh = 2 * NET_MAXDIM * P, pline = 0;
    int64_t *hlo = malloc((size_t)nh * sizeof *hlo), *hhi = malloc((size_t)nh * sizeof *hhi);
    assert_true(hlo && hhi);
    for (int64_t k = 0; k < nh; k++) {
        hlo[k] = INT64_MAX;
        hhi[k] = -1;
    }
    for (int64_t i = 0; i < n; i++) {
        SchedTransfer t;
        sched_transfer(s, st, i, &t);
        int32_t u = t.src;
        for (int g = 0; g < t.nseg; g++) {
            int d = t.seg[g].dim, dir = t.seg[g].dir;
            int64_t b = 2 * d + (dir < 0);
            NetSeg one = { d, (int8_t)dir, 1 };
            int64_t lo = INT64_MAX, hi = -1, lastpos = -1;
            for (int32_t h = 0; h <= t.seg[g].len; h++) {
                int64_t ord = -1, pos = -1;
                if (h < t.seg[g].len) {
                    int64_t l = net_link(net, u, d, dir);
                    assert_true(l >= 0 && l < nl);
                    if (++load[l] > m)
                        m = load[l];
                    int32_t c[NET_MAXDIM];
                    net_coords(net, u, c);
                    int64_t line = 0;
                    for (int e = 0; e < net_ndim(net); e++)
                        if (e != d)
                            line = line * net_dim(net, e) + c[e];
                    pos = c[d];
                    ord = line * net_dim(net, d) + pos;
                    pline = line;
                    u = net_route_end(net, u, &one, 1);
                }
                /* a piece ends with its segment, or where the route wraps round */
                bool wrap = h > 0 && h < t.seg[g].len && (dir > 0 ? pos < lastpos : pos > lastpos);
                if (hi >= 0 && (h == t.seg[g].len || wrap)) {
                    b = (2 * d + (dir < 0)) * P + (per_line ? pline : 0);
                    bool before = hi < hlo[b], after = lo > hhi[b];
                    if (!before && !after && first == n)
                        first = i;
                    hlo[b] = lo < hlo[b] ? lo : hlo[b];
                    hhi[b] = hi > hhi[b] ? hi : hhi[b];
                    lo = INT64_MAX;
                    hi = -1;
                }
                if (ord >= 0) {
                    lo = ord < lo ? ord : lo;
                    hi = ord > hi ? ord : hi;
                }
                lastpos = pos;
            }
            sum += t.seg[g].len;
        }
        assert_int_equal(u, t.dst);
    }
    free(load);
    free(hlo);
    free(hhi);
    *tcd = sum;
    *mx = m;
    return first;
}

static unsigned seed = 2711;
static int32_t rnd(int32_t n) { return (int32_t)(rand_r(&seed) % (unsigned)n); }

static void send(Sched *s, int32_t src, int32_t dst)
{
    if (src != dst)
        assert_true(sched_send_range(s, src, dst, 0, 1));
}

static int cmp_pair(const void *pa, const void *pb)
{
    const int32_t *a = pa, *b = pb;
    return (a[0] > b[0]) - (a[0] < b[0]);
}

/* Random pairs, shuffled (sorted = false) or by source. */
static void step_pairs(Sched *s, const Net *net, int32_t k, bool sorted)
{
    int32_t P = net_size(net), *pr = malloc(2 * (size_t)k * sizeof *pr);
    for (int32_t i = 0; i < k; i++) {
        pr[2 * i] = rnd(P);
        pr[2 * i + 1] = rnd(P);
    }
    if (sorted)
        qsort(pr, (size_t)k, 2 * sizeof *pr, cmp_pair);
    for (int32_t i = 0; i < k; i++)
        send(s, pr[2 * i], pr[2 * i + 1]);
    free(pr);
}

/* Intervals along lines of dimension d, each one way or the other, with gaps, or touching the
 * one before (sharing no arc), or overlapping it by one arc; sent in increasing order (order
 * 0), decreasing (1) or shuffled (2). */
/* Every node, in node order, exchanging with its neighbour along d that differs in the lowest
 * bit of its coordinate, spread by k (c ^ k when inside the line; k = 1: rh's last steps): on
 * d = 0 of a mesh each column line sees its pieces in increasing order while the block's hull
 * is past them after the first row pair (a proof by line only); k > 1 shares arcs. */
static void step_xor(Sched *s, const Net *net, int d, int32_t k)
{
    int32_t c[NET_MAXDIM];
    for (int32_t v = 0; v < net_size(net); v++) {
        net_coords(net, v, c);
        int32_t p = c[d];
        c[d] = p ^ k;
        if (c[d] < net_dim(net, d))
            send(s, v, net_id(net, c));
    }
}

static void step_runs(Sched *s, const Net *net, int d, int order)
{
    int32_t np = 0, *pr = malloc(8 * (size_t)net_size(net) * sizeof *pr);   /* <= 4 lines */
    int32_t c[NET_MAXDIM], n = net_dim(net, d), P = net_size(net);
    int32_t lines = P / n, nl = 1 + rnd(lines < 4 ? lines : 4);
    int32_t line = rnd(lines - nl + 1);
    for (int32_t q = 0; q < nl; q++, line++) {
        /* line -> the other coordinates, row-major */
        int32_t rest = line;
        for (int e = net_ndim(net) - 1; e >= 0; e--)
            if (e != d) {
                c[e] = rest % net_dim(net, e);
                rest /= net_dim(net, e);
            }
        int32_t p = rnd(3);
        while (p < n - 1) {
            int32_t len = 1 + rnd(n / 3 > 1 ? n / 3 : 1);
            if (p + len > n - 1)
                len = n - 1 - p;
            c[d] = p;
            int32_t a = net_id(net, c);
            c[d] = p + len;
            int32_t b = net_id(net, c);
            pr[2 * np] = rnd(2) ? a : b;
            pr[2 * np + 1] = pr[2 * np] == a ? b : a;
            np++;
            int r = rnd(10);
            p += len + (r == 0 && len > 1 ? -1 : r < 3 ? 0 : rnd(3));   /* overlap, touch, gap */
        }
    }
    for (int32_t i = np - 1; order == 2 && i > 0; i--) {
        int32_t k = rnd(i + 1), t0 = pr[2 * i], t1 = pr[2 * i + 1];
        pr[2 * i] = pr[2 * k];
        pr[2 * i + 1] = pr[2 * k + 1];
        pr[2 * k] = t0;
        pr[2 * k + 1] = t1;
    }
    for (int32_t i = 0; i < np; i++) {
        int32_t q = order == 1 ? np - 1 - i : i;
        send(s, pr[2 * q], pr[2 * q + 1]);
    }
    free(pr);
}

/* A binomial tree's step: the holders j (of the tree rooted at `src` by XOR) each send to
 * j ^ half, in increasing node order (order 0), decreasing (1), or in the order of the tree's
 * XOR labels (2). */
static void step_tree(Sched *s, const Net *net, int32_t src, int32_t half, int order)
{
    int32_t P = net_size(net);
    for (int32_t v = 0; v < P; v++) {
        int32_t j = order == 0 ? v : order == 1 ? P - 1 - v : v ^ src;
        if (((j ^ src) & (2 * half - 1)) == 0 && (j ^ half) < P)
            send(s, j, j ^ half);
    }
}

/* Explicit routes: along the last dimension first (the default goes the other way). */
static void step_explicit(Sched *s, const Net *net, int32_t k)
{
    int32_t P = net_size(net), nd = net_ndim(net);
    for (int32_t i = 0; i < k; i++) {
        int32_t a = rnd(P), b = rnd(P), ca[NET_MAXDIM], cb[NET_MAXDIM];
        if (a == b)
            continue;
        net_coords(net, a, ca);
        net_coords(net, b, cb);
        NetSeg seg[NET_MAXDIM];
        int ns = 0;
        for (int d = nd - 1; d >= 0; d--) {
            int32_t o = cb[d] - ca[d];
            if (o)
                seg[ns++] = (NetSeg){ d, (int8_t)(o > 0 ? 1 : -1), o > 0 ? o : -o };
        }
        if (ns > 1 && rnd(2)) {   /* the other way round */
            NetSeg t = seg[0];
            seg[0] = seg[ns - 1];
            seg[ns - 1] = t;
        }
        assert_true(sched_send_route(s, a, b, &(ChunkRange){ 0, 1 }, 1, seg, ns));
    }
}

/* Wrap-round routes on a ring or torus: shortest ways past the end of a line, in order. */
static void step_wrap(Sched *s, const Net *net)
{
    int d = rnd(net_ndim(net));
    int32_t n = net_dim(net, d), c[NET_MAXDIM];
    net_coords(net, rnd(net_size(net)), c);
    int32_t k = 1 + rnd(3);
    for (int32_t i = 0; i < k; i++) {
        int32_t p = rnd(n), len = 1 + rnd(n / 2 > 1 ? n / 2 - 1 : 1);
        c[d] = p;
        int32_t a = net_id(net, c);
        c[d] = (p + (rnd(2) ? len : n - len)) % n;
        send(s, a, net_id(net, c));
    }
}

typedef struct {
    int64_t proved, proved_big, refused, wrong_order, overlap;
    int64_t lines_only;   /* proved by line (arcmap_sorted_lines), refused by block */
} Count;

static void check_steps(const Sched *s, const Net *net, Count *cnt)
{
    ArcMap L;
    arcmap_init(&L, net);
    SchedFlatBuf buf;
    memset(&buf, 0, sizeof buf);
    for (int32_t st = 0; st < sched_nsteps(s); st++) {
        SchedFlat f;
        assert_true(sched_flat(s, st, &buf, &f));
        int64_t wt, gt = -7;
        int32_t mx;
        int64_t want = oracle(s, net, st, &wt, &mx, false);
        int64_t got = arcmap_sorted(&L, s, &f, &gt);
        assert_int_equal(got, want);
        /* a hull per line: the first transfer out of its line's order, the oracle's */
        int64_t lt = -7, lwt, lgot = arcmap_sorted_lines(&L, s, &f, &lt);
        int32_t lmx;
        assert_int_equal(lgot, oracle(s, net, st, &lwt, &lmx, true));
        assert_true(lgot >= got);
        if (lgot == f.n && f.n > 0) {
            assert_true(lmx <= 1);
            assert_int_equal(lt, lwt);
            cnt->lines_only += got < f.n;
        }
        if (got == f.n) {
            assert_true(mx <= 1);
            assert_int_equal(gt, wt);
            cnt->proved++;
            cnt->proved_big += f.n >= 8;
        } else {
            cnt->refused++;
            cnt->overlap += mx > 1;
            cnt->wrong_order += mx <= 1;
        }
    }
    sched_flatbuf_free(&buf);
}

static void run_net(const char *spec, Count *cnt)
{
    Net *net = mknet(spec);
    int32_t P = net_size(net);
    for (int round = 0; round < 12; round++) {
        Sched *s = sched_new(net, 1, 1024);
        assert_non_null(s);
        for (int32_t v = 0; v < P; v++)
            assert_true(sched_give(s, v, 0, 1));
        for (int k = 0; k < 12; k++) {
            assert_true(sched_step(s) >= 0);
            switch (rnd(7)) {
            case 0:
                step_pairs(s, net, 1 + rnd(P), false);
                break;
            case 1:
                step_pairs(s, net, 1 + rnd(4), true);
                break;
            case 2:
            case 3:
                step_runs(s, net, rnd(net_ndim(net)), rnd(3));
                break;
            case 4:
                if ((P & (P - 1)) == 0 && net_ndim(net) == 1) {
                    step_tree(s, net, rnd(P), P >> (1 + rnd(__builtin_ctz((unsigned)P))),
                              rnd(3));
                    break;
                }
                step_runs(s, net, rnd(net_ndim(net)), rnd(3));
                break;
            case 5:
                if (rnd(2)) {
                    step_xor(s, net, rnd(net_ndim(net)), rnd(4) ? 1 : 2);
                    break;
                }
                step_explicit(s, net, 1 + rnd(4));
                break;
            default:
                if (net_wraps(net))
                    step_wrap(s, net);
                else
                    step_pairs(s, net, 1 + rnd(3), true);
                break;
            }
        }
        assert_null(sched_error(s));
        check_steps(s, net, cnt);
        sched_free(s);
    }
    net_free(net);
}

static void test_random(void **state)
{
    (void)state;
    static const char *const nets[] = { "array:2",  "array:16",  "array:64",  "array:37",
                                        "ring:2",   "ring:16",   "ring:9",    "ring:64",
                                        "mesh:4x4", "mesh:5x7",  "mesh:8x8",  "mesh:3x20",
                                        "torus:4x4", "torus:5x6", "torus:8x3", "mesh:3x4x5",
                                        "torus:3x4x4" };
    Count cnt = { 0, 0, 0, 0, 0, 0 };
    for (size_t k = 0; k < sizeof nets / sizeof nets[0]; k++)
        run_net(nets[k], &cnt);
    printf("arcmap_sorted: %lld steps proved (%lld of 8+ transfers), %lld refused (%lld out "
           "of order only, %lld sharing an arc)\n",
           (long long)cnt.proved, (long long)cnt.proved_big, (long long)cnt.refused,
           (long long)cnt.wrong_order, (long long)cnt.overlap);
    assert_true(cnt.proved > 200);
    assert_true(cnt.proved_big > 50);
    assert_true(cnt.wrong_order > 50);
    assert_true(cnt.overlap > 50);
    printf("arcmap_sorted_lines: %lld steps proved by line, refused by block\n",
           (long long)cnt.lines_only);
    assert_true(cnt.lines_only > 20);
}

/* The binomial tree from node 0 on array:1024 (st's steps, in node order), and the same tree
 * listed from the far end (decreasing): every step proved, its length the tree's (holders x
 * half).  From node 5 with the holders in the order of their labels v = j ^ 5 (v = 0, 2h, 4h,
 * ...): for h >= 4, j = v + 5 grows with v (proved); for h = 2 the holders are 5, 1, 13, 9
 * (5 -> 7, 1 -> 3, 13 -> 15 use arcs 5..6, 1..2, 13..14 of the + line, each outside the ones
 * before; 9 -> 11 uses 9..10, inside: transfer 3); for h = 1 they are 5, 7, 1, 3 (5 -> 4,
 * 7 -> 6, 1 -> 0, 3 -> 2 use arcs 5, 7, 1, then 3 of the - line: transfer 3). */
static void test_tree(void **state)
{
    (void)state;
    Net *net = mknet("array:1024");
    ArcMap L;
    arcmap_init(&L, net);
    static const int32_t root[3] = { 0, 1023, 5 };
    for (int order = 0; order < 3; order++) {
        int32_t src = root[order];
        Sched *s = sched_new(net, 1, 1024);
        assert_true(sched_give(s, src, 0, 1));
        for (int32_t half = 512; half >= 1; half /= 2) {
            assert_true(sched_step(s) >= 0);
            step_tree(s, net, src, half, order);
        }
        SchedFlatBuf buf;
        memset(&buf, 0, sizeof buf);
        for (int32_t st = 0; st < sched_nsteps(s); st++) {
            SchedFlat f;
            assert_true(sched_flat(s, st, &buf, &f));
            int64_t tcd = -1, got = arcmap_sorted(&L, s, &f, &tcd);
            int32_t half = 512 >> st;
            if (src != 5 || half >= 4) {
                assert_int_equal(got, f.n);
                assert_int_equal(tcd, (int64_t)f.n * half);
            } else {
                assert_int_equal(got, 3);
            }
        }
        sched_flatbuf_free(&buf);
        sched_free(s);
    }
    net_free(net);
}

/* Random steps of tree blocks (sched_send_tree) along lines of arrays, rings, meshes and tori
 * (spacing 1 or more, either way; one to three blocks a step, on one line or several), some
 * with a block across lines or a stored transfer beside them: whenever arcmap_trees proves a
 * step, its largest arc load (walked hop by hop) is at most 1 and its length the walked one;
 * a step of one block along a line of an array or mesh is always proved (its pairs lie in
 * disjoint runs of the line); steps sharing an arc occur and are refused. */
/* Steps of more tree blocks than fit on arcmap_trees' stack (st's column phase on a mesh: one
 * block along every line of a dimension, each from its own root): proved, with the walk's
 * length and no arc loaded twice; the same with one line's block twice (sharing its arcs), or
 * with a block along another line overlapping one, refused. */
static void test_trees_many(void **state)
{
    (void)state;
    static const char *const nets[] = { "mesh:8x100", "mesh:16x70", "mesh:4x4x8", "mesh:100x8" };
    int64_t proved = 0, refused = 0;
    for (size_t k = 0; k < sizeof nets / sizeof nets[0]; k++) {
        Net *net = mknet(nets[k]);
        int32_t P = net_size(net), nd = net_ndim(net);
        ArcMap L;
        arcmap_init(&L, net);
        for (int round = 0; round < 12; round++) {
            Sched *s = sched_new(net, 1, 1024);
            for (int32_t v = 0; v < P; v++)
                assert_true(sched_give(s, v, 0, 1));
            int d = 0;   /* along d, the longest power-of-two run of members that fits */
            int32_t n = net_dim(net, d), kk = 0;
            while ((INT32_C(2) << kk) <= n)
                kk++;
            int i = rnd(kk), twice = round % 3;   /* 0: proved; 1: a line twice; 2: overlap */
            int32_t dup = rnd(P / n - 1), dupc = 0, c[NET_MAXDIM];
            assert_true(sched_step(s) >= 0);
            for (int32_t line = 0; line < P / n; line++) {
                int32_t rest = line;   /* line -> the other coordinates */
                for (int e = nd - 1; e >= 0; e--)
                    if (e != d) {
                        c[e] = rest % net_dim(net, e);
                        rest /= net_dim(net, e);
                    }
                c[d] = 0;
                int32_t base = net_id(net, c), stride = net->stride[d];
                assert_true(sched_send_tree(s, base, stride, kk, i, rnd(INT32_C(1) << kk), 0, 1));
                if (line == dup)
                    dupc = base;
            }
            /* (the extra block last: not beside its line's) */
            if (twice == 1)
                assert_true(sched_send_tree(s, dupc, net->stride[d], kk, i, 0, 0, 1));
            if (twice == 2 && kk >= 2)   /* the pair of the line's last two members */
                assert_true(sched_send_tree(s, dupc + ((INT32_C(1) << kk) - 2) * net->stride[d],
                                            net->stride[d], 1, 0, 0, 0, 1));
            assert_null(sched_error(s));
            assert_true(s->steps[0].nrule > ARCMAP_TREES_MAX || P / n <= ARCMAP_TREES_MAX);
            int64_t wt, gt = -7;
            int32_t mx;
            oracle(s, net, 0, &wt, &mx, false);
            bool ok = arcmap_trees(&L, s, 0, &gt);
            if (twice == 0) {
                assert_true(ok);
                assert_true(mx <= 1);
                assert_int_equal(gt, wt);
                proved++;
            } else if (twice == 1 || kk >= 2) {
                assert_false(ok);
                refused++;
            }
            sched_free(s);
        }
        net_free(net);
    }
    assert_true(proved >= 12 && refused >= 12);
}

static void test_trees(void **state)
{
    (void)state;
    static const char *const nets[] = { "array:64", "array:37", "ring:64", "ring:24",
                                        "mesh:16x8", "mesh:5x33", "torus:16x16", "torus:6x20",
                                        "mesh:4x4x8", "torus:8x4x4" };
    int64_t proved = 0, must = 0, shared = 0, refused_ok = 0;
    for (size_t k = 0; k < sizeof nets / sizeof nets[0]; k++) {
        Net *net = mknet(nets[k]);
        int32_t P = net_size(net), nd = net_ndim(net);
        ArcMap L;
        arcmap_init(&L, net);
        for (int round = 0; round < 40; round++) {
            Sched *s = sched_new(net, 1, 1024);
            for (int32_t v = 0; v < P; v++)
                assert_true(sched_give(s, v, 0, 1));
            bool single[8];
            int nst = 8;
            for (int st = 0; st < nst; st++) {
                assert_true(sched_step(s) >= 0);
                int nb = 1 + rnd(3);
                bool across = false, stored = rnd(10) == 0;
                for (int b = 0; b < nb; b++) {
                    int d = rnd(nd);
                    int32_t n = net_dim(net, d), c[NET_MAXDIM];
                    net_coords(net, rnd(P), c);
                    int kk = 1;   /* 2^kk members spaced g apart fit in n */
                    while (kk < 5 && (INT32_C(2) << kk) - 1 <= n - 1)
                        kk++;
                    kk = 1 + rnd(kk);
                    int32_t m = INT32_C(1) << kk, gmax = (n - 1) / (m - 1);
                    if (gmax < 1) {
                        kk = 1;
                        m = 2;
                        gmax = n - 1;
                    }
                    int32_t g = 1 + rnd(gmax < 3 ? gmax : 3);
                    int32_t span = (m - 1) * g;
                    bool up = rnd(2);
                    c[d] = up ? rnd(n - span) : span + rnd(n - span);
                    int32_t base = net_id(net, c), stride = (up ? g : -g) * net->stride[d];
                    if (rnd(12) == 0 && nd > 1) {   /* across lines: a diagonal */
                        base = 0;
                        stride = net->stride[0] + net->stride[nd - 1];
                        kk = 1;
                        across = true;
                    }
                    int i = rnd(kk);
                    assert_true(sched_send_tree(s, base, stride, kk, i, rnd(INT32_C(1) << kk), 0, 1));
                }
                if (stored)
                    send(s, 0, P - 1);
                single[st] = nb == 1 && !across && !stored && !net_wraps(net);
            }
            assert_null(sched_error(s));
            for (int32_t st = 0; st < sched_nsteps(s); st++) {
                int64_t wt, gt = -7;
                int32_t mx;
                oracle(s, net, st, &wt, &mx, false);
                bool ok = arcmap_trees(&L, s, st, &gt);
                if (single[st]) {
                    assert_true(ok);
                    must++;
                }
                if (ok) {
                    assert_true(mx <= 1);
                    assert_int_equal(gt, wt);
                    proved++;
                } else {
                    shared += mx > 1;
                    refused_ok += mx <= 1;
                }
            }
            sched_free(s);
        }
        net_free(net);
    }
    printf("arcmap_trees: %lld steps proved (%lld had to be), %lld refused sharing an arc, %lld "
           "refused without\n", (long long)proved, (long long)must, (long long)shared,
           (long long)refused_ok);
    assert_true(proved > 500);
    assert_true(must > 200);
    assert_true(shared > 50);
}

/* Blocks whose routes leave their stretch.  A ring's route of half the ring goes the + way
 * round (the tie), out of its block's stretch:
 * on ring:8, block A's members 0 and 4 (root 1: node 4 sends to node 0, over arcs 4..7) and
 * block B's 5 and 6 (5 -> 6, over arc 5) have stretches [0, 4] and [5, 6] apart, yet share arc
 * 5: refused.  On array:8 the same blocks are proved (4 -> 0 goes down, arcs 1..4). */
static void test_trees_leave(void **state)
{
    (void)state;
    for (int ring = 0; ring < 2; ring++) {
        Net *net = mknet(ring ? "ring:8" : "array:8");
        ArcMap L;
        arcmap_init(&L, net);
        Sched *s = sched_new(net, 1, 1024);
        for (int32_t v = 0; v < 8; v++)
            assert_true(sched_give(s, v, 0, 1));
        assert_true(sched_step(s) >= 0);
        assert_true(sched_send_tree(s, 0, 4, 1, 0, 1, 0, 1));
        assert_true(sched_send_tree(s, 5, 1, 1, 0, 0, 0, 1));
        int64_t wt, gt = -7;
        int32_t mx;
        oracle(s, net, 0, &wt, &mx, false);
        assert_int_equal(mx, ring ? 2 : 1);
        assert_int_equal(arcmap_trees(&L, s, 0, &gt), !ring);
        if (!ring)
            assert_int_equal(gt, 5);
        sched_free(s);
        net_free(net);
    }
    /* mesh:4x3, members 0..3 at stride 1: the first (0,0) and the last (1,0) differ in the row
     * only, yet members 1 and 2 are off that column: 2 -> 3 goes along row 0, then down (not
     * a route of the column): refused (the walk: 1 + 3 hops) */
    Net *net = mknet("mesh:4x3");
    ArcMap L;
    arcmap_init(&L, net);
    Sched *s = sched_new(net, 1, 1024);
    for (int32_t v = 0; v < 12; v++)
        assert_true(sched_give(s, v, 0, 1));
    assert_true(sched_step(s) >= 0);
    assert_true(sched_send_tree(s, 0, 1, 2, 1, 0, 0, 1));
    int64_t wt, gt = -7;
    int32_t mx;
    oracle(s, net, 0, &wt, &mx, false);
    assert_int_equal(wt, 4);
    assert_false(arcmap_trees(&L, s, 0, &gt));
    sched_free(s);
    net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_tree),
        cmocka_unit_test(test_trees),
        cmocka_unit_test(test_trees_many),
        cmocka_unit_test(test_trees_leave),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
