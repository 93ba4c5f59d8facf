/* xfercmp.h — for the tests that build one schedule two ways (test_subsets, test_affine,
 * test_tree_rule, test_rules): transfer i of step st the same in both, field by field as
 * sched_transfer gives it (ends, ranges, bytes, route).  Include after <cmocka.h> and the
 * engine's sched.h. */
#ifndef MESHCAST_TEST_XFERCMP_H
#define MESHCAST_TEST_XFERCMP_H

static inline void xfercmp_same(const Sched *a, const Sched *b, int32_t st, int64_t i)
{
    SchedTransfer x, y;
    sched_transfer(a, st, i, &x);
    sched_transfer(b, st, i, &y);
    assert_int_equal(x.src, y.src);
    assert_int_equal(x.dst, y.dst);
    assert_int_equal(x.nranges, y.nranges);
    if (x.nranges)
        assert_memory_equal(x.ranges, y.ranges, x.nranges * sizeof *x.ranges);
    assert_int_equal(x.bytes, y.bytes);
    assert_int_equal(x.len, y.len);
    assert_int_equal(x.explicit_route, y.explicit_route);
    assert_int_equal(x.nseg, y.nseg);
    if (x.nseg)
        assert_memory_equal(x.seg, y.seg, (size_t)x.nseg * sizeof *x.seg);
}

#endif
