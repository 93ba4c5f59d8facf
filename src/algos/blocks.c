/* blocks.c — Seidel's building blocks on arithmetic-progression groups of 2^k nodes:
 * spanning binomial tree broadcast (3.1.1), distribute along the same tree (3.1.1, "halving
 * it at each step"), and the order-keeping dimensional exchange (3.1.1, Figure 2(a)).
 *
 * Trees are rooted at any member by XOR-ing member numbers with the root (Seidel 4.1): at step
 * i the senders are the members r with (r ^ root) < 2^k a multiple of 2^(k-i), and each sends to
 * r ^ 2^(k-1-i).  On a contiguous or interleaved group every message of a step travels the
 * same distance in the same direction and the routes are link-disjoint (4.1), so the blocks
 * never overload a link by themselves.
 */
#include "blocks.h"

#include <stdio.h>

/* Part j of [lo,hi) cut into 2^k parts: [part_lo(j), part_lo(j+1)). */
static uint32_t part_lo(uint32_t lo, uint32_t hi, int k, uint64_t j)
{
    return lo + (uint32_t)(((uint64_t)(hi - lo) * j) >> k);
}

/* Check the group; on a bad argument record it in s and return false. */
static bool group_ok(Sched *s, const char *what, int32_t first, int32_t base, int32_t stride,
                     int k, int root, uint32_t lo, uint32_t hi)
{
    const Net *net = sched_net(s);
    if (first < 0 || k < 0 || k > 30 || lo > hi || hi > sched_nchunks(s)) {
        sched_fail(s, "%s: bad block (first step %ld, k %d, chunks %lu..%lu)", what,
                   (long)first, k, (unsigned long)lo, (unsigned long)hi);
        return false;
    }
    if (root < 0 || root >= (1 << k)) {
        sched_fail(s, "%s: root member %d is outside a group of %d", what, root, 1 << k);
        return false;
    }
    int64_t last = (int64_t)base + (int64_t)stride * ((INT64_C(1) << k) - 1);
    if (base < 0 || base >= net_size(net) || last < 0 || last >= net_size(net) ||
        (k > 0 && stride == 0)) {
        sched_fail(s, "%s: group base %ld stride %ld of %d members leaves %s", what,
                   (long)base, (long)stride, 1 << k, net_spec(net));
        return false;
    }
    return true;
}

static int32_t member(int32_t base, int32_t stride, int64_t j)
{
    return (int32_t)(base + stride * j);
}

bool blocks_st(Sched *s, int32_t first, int32_t base, int32_t stride, int k, int root,
               uint32_t lo, uint32_t hi)
{
    if (!group_ok(s, "spanning tree", first, base, stride, k, root, lo, hi))
        return false;
    /* step i: the holders are span = 2^(k-i) apart (relative to the root); each sends to the
     * one half a span on: a rule of the schedule (sched_send_tree), nothing stored per
     * transfer */
    for (int i = 0; i < k; i++)
        if (!sched_at(s, first + i) || !sched_send_tree(s, base, stride, k, i, root, lo, hi))
            return false;
    return true;
}

bool blocks_distribute(Sched *s, int32_t first, int32_t base, int32_t stride, int k, int root,
                       uint32_t lo, uint32_t hi)
{
    if (!group_ok(s, "distribute", first, base, stride, k, root, lo, hi))
        return false;
    for (int i = 0; i < k; i++) {
        if (!sched_at(s, first + i))
            return false;
        int64_t span = INT64_C(1) << (k - i);
        int64_t half = span >> 1;
        for (int64_t r = 0; r < (INT64_C(1) << k); r += span) {
            /* The holder (relative r) holds the parts of the members whose relative numbers are
             * r .. r+span-1; it hands on those of r+half .. r+span-1.  In absolute member
             * numbers that is the aligned block of `half` members containing (r+half)^root,
             * a contiguous run of parts. */
            int64_t from = r ^ root, to = (r + half) ^ root;
            int64_t blk = to & ~(half - 1);
            uint32_t plo = part_lo(lo, hi, k, (uint64_t)blk);
            uint32_t phi = part_lo(lo, hi, k, (uint64_t)(blk + half));
            if (plo < phi &&
                !sched_send_range(s, member(base, stride, from), member(base, stride, to), plo,
                                  phi))
                return false;
        }
    }
    return true;
}

bool blocks_exchange(Sched *s, int32_t first, int32_t base, int32_t stride, int k, uint32_t lo,
                     uint32_t hi)
{
    if (!group_ok(s, "exchange", first, base, stride, k, 0, lo, hi))
        return false;
    for (int i = 0; i < k; i++) {
        if (!sched_at(s, first + i))
            return false;
        int64_t w = INT64_C(1) << i;   /* each member holds the aligned block of w parts */
        for (int64_t j = 0; j < (INT64_C(1) << k); j++) {
            int64_t blk = j & ~(w - 1);
            uint32_t plo = part_lo(lo, hi, k, (uint64_t)blk);
            uint32_t phi = part_lo(lo, hi, k, (uint64_t)(blk + w));
            if (plo < phi && !sched_send_range(s, member(base, stride, j),
                                               member(base, stride, j ^ w), plo, phi))
                return false;
        }
    }
    return true;
}
