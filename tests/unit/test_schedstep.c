/* test_schedstep.c — a schedule's steps as stored (sched-internal.h: the transfers, and the
 * rule blocks and local operations in a SchedMore made for the first) against a plain record
 * of what was added: random stored sends of one or more ranges, rule blocks, edge blocks and
 * local operations, added to random steps (sched_at going back and forth), some steps cut off
 * again (sched_truncate) and refilled; every reader (sched_ntransfers, sched_transfer,
 * sched_nlocals, sched_local_get, sched_total_transfers) must give back what the record says,
 * and two schedules built alike must be equal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/engine/net.h"
#include "../../src/engine/sched.h"

enum { N = 8, CH = 16, MAXSTEPS = 6, MAXX = 96, MAXL = 8 };

static uint32_t rnd(uint32_t n) { return (uint32_t)rand() % n; }

typedef struct {
    int32_t src, dst;
    uint32_t nr;
    ChunkRange r[3];
} RefX;

typedef struct {
    RefX x[MAXX];       /* stored ones first, in order, then the rule blocks' */
    int nstored, nruled;
    RefX ruled[MAXX];
    SchedLocal loc[MAXL];
    int nloc;
} RefStep;

/* A rule: transfer j of a block goes from (j + k) % N to (j + k + 1) % N with chunk (j + k) % CH. */
typedef struct {
    int32_t k;
} RuleCtx;

static void rule_fn(const void *ctx, int64_t j, SchedRuleXfer *out)
{
    int32_t k = ((const RuleCtx *)ctx)->k;
    out->src = (int32_t)((j + k) % N);
    out->dst = (int32_t)((j + k + 1) % N);
    out->nr = 1;
    out->r[0] = (ChunkRange){ (uint32_t)((j + k) % CH), (uint32_t)((j + k) % CH) + 1 };
}

/* The edges: node e -> e + 1 for e < N - 1, tag e. */
static void build(Sched *s, RefStep *ref, int *nsteps, unsigned seed)
{
    srand(seed);
    const Net *net = sched_net(s);
    assert_true(sched_give(s, 0, 0, CH));
    for (int32_t e = 0; e < N - 1; e++) {
        NetSeg seg[NET_MAXSEG];
        int ns = net_route(net, e, e + 1, seg);
        assert_int_equal(sched_edge(s, e, e + 1, seg, ns, (uint32_t)e), e);
    }
    *nsteps = 0;
    memset(ref, 0, sizeof(RefStep) * MAXSTEPS);
    for (int op = 0; op < 60; op++) {
        int32_t st = (int32_t)rnd(MAXSTEPS);
        if (rnd(12) == 0 && *nsteps > 1) {   /* cut the last steps off (not all: that drops
                                              * the edges) */
            int32_t keep = 1 + (int32_t)rnd((uint32_t)*nsteps - 1);
            sched_truncate(s, keep);
            for (int32_t k = keep; k < *nsteps; k++)
                memset(&ref[k], 0, sizeof ref[k]);
            *nsteps = keep;
            continue;
        }
        assert_true(sched_at(s, st));
        if (st + 1 > *nsteps)
            *nsteps = st + 1;
        RefStep *R = &ref[st];
        switch (rnd(5)) {
        case 0:
        case 1: {   /* a stored send of one to three ranges */
            if (R->nstored == MAXX)
                break;
            RefX x = { (int32_t)rnd(N), 0, 1 + rnd(3), { { 0, 0 } } };
            x.dst = (x.src + 1 + (int32_t)rnd(N - 1)) % N;
            uint32_t c = rnd(3);
            for (uint32_t k = 0; k < x.nr; k++) {   /* sorted, not touching */
                x.r[k] = (ChunkRange){ c, c + 1 + rnd(2) };
                c = x.r[k].hi + 1 + rnd(2);
            }
            assert_true(sched_send(s, x.src, x.dst, x.r, x.nr));
            R->x[R->nstored++] = x;
            break;
        }
        case 2: {   /* a rule block */
            int64_t count = 1 + rnd(5);
            if (R->nruled + count > MAXX)
                break;
            RuleCtx c = { (int32_t)rnd(50) };
            assert_true(sched_send_rule(s, count, rule_fn, &c, sizeof c));
            for (int64_t j = 0; j < count; j++) {
                SchedRuleXfer o;
                rule_fn(&c, j, &o);
                R->ruled[R->nruled++] = (RefX){ o.src, o.dst, 1, { o.r[0] } };
            }
            break;
        }
        case 3: {   /* an edge block: edge e sends chunk e * mul + add */
            int64_t first = rnd(N - 1), count = 1 + rnd((uint32_t)(N - 1 - first));
            uint32_t mul = rnd(2), add = rnd(4);
            if (R->nruled + count > MAXX)
                break;
            assert_true(sched_send_edges(s, first, count, mul, add));
            for (int64_t e = first; e < first + count; e++) {
                uint32_t c = (uint32_t)e * mul + add;
                R->ruled[R->nruled++] = (RefX){ (int32_t)e, (int32_t)e + 1, 1, { { c, c + 1 } } };
            }
            break;
        }
        default:    /* a local operation */
            if (R->nloc == MAXL)
                break;
            R->loc[R->nloc] = (SchedLocal){ (int32_t)rnd(N + 1) - 1, 1 + rnd(1000) };
            assert_true(sched_local(s, R->loc[R->nloc].node, R->loc[R->nloc].bytes));
            R->nloc++;
            break;
        }
    }
    assert_null(sched_error(s));
}

static void same_x(const SchedTransfer *t, const RefX *x)
{
    assert_int_equal(t->src, x->src);
    assert_int_equal(t->dst, x->dst);
    assert_int_equal(t->nranges, x->nr);
    for (uint32_t k = 0; k < x->nr; k++) {
        assert_int_equal(t->ranges[k].lo, x->r[k].lo);
        assert_int_equal(t->ranges[k].hi, x->r[k].hi);
    }
}

static void test_random_steps(void **state)
{
    (void)state;
    Net *net = net_parse("array:8", NULL, 0);
    assert_non_null(net);
    for (unsigned seed = 1; seed <= 40; seed++) {
        Sched *a = sched_new(net, CH, CH * 4), *b = sched_new(net, CH, CH * 4);
        assert_non_null(a);
        assert_non_null(b);
        static RefStep ra[MAXSTEPS], rb[MAXSTEPS];
        int na, nb;
        build(a, ra, &na, seed);
        build(b, rb, &nb, seed);
        assert_int_equal(sched_nsteps(a), na);
        int64_t total = 0;
        for (int32_t st = 0; st < na; st++) {
            const RefStep *R = &ra[st];
            assert_int_equal(sched_ntransfers(a, st), R->nstored + R->nruled);
            total += R->nstored + R->nruled;
            for (int i = 0; i < R->nstored + R->nruled; i++) {
                SchedTransfer t;
                sched_transfer(a, st, i, &t);
                same_x(&t, i < R->nstored ? &R->x[i] : &R->ruled[i - R->nstored]);
            }
            assert_int_equal(sched_nlocals(a, st), R->nloc);
            for (int i = 0; i < R->nloc; i++) {
                SchedLocal l;
                sched_local_get(a, st, i, &l);
                assert_int_equal(l.node, R->loc[i].node);
                assert_int_equal(l.bytes, R->loc[i].bytes);
            }
        }
        assert_int_equal(sched_total_transfers(a), total);
        assert_true(sched_equal(a, b));
        assert_int_equal(sched_first_difference(a, b), -1);
        if (na > 0) {   /* one more local operation in b's last step: they differ there */
            assert_true(sched_at(b, na - 1));
            assert_true(sched_local(b, 3, 7));
            assert_false(sched_equal(a, b));
            assert_int_equal(sched_first_difference(a, b), na - 1);
        }
        sched_free(a);
        sched_free(b);
    }
    net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_steps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
