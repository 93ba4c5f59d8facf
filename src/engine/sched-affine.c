/* sched-affine.c — affine blocks of transfers as one proved rule (sched-affine.h). */
#include "sched-affine.h"
#include "net-internal.h"
#include "sched-internal.h"

#include <stdlib.h>
#include <string.h>

/* The rule's context, one block of memory: nb, then at[0..nb) (the transfers before each
 * block), then the blocks themselves (none of length 0). */
typedef struct {
    int64_t nb;
    int64_t at[];
} AffineRule;

static const SchedAffine *blocks_of(const AffineRule *R)
{
    return (const SchedAffine *)(const void *)(R->at + R->nb);
}

/* Transfers j0..j0+n-1: the block holding j0 by a binary search, then the blocks in order. */
static void affine_batch(const void *ctx, int64_t j0, int64_t n, SchedRuleXfer *out)
{
    const AffineRule *R = ctx;
    const SchedAffine *B = blocks_of(R);
    int64_t lo = 0, hi = R->nb - 1;
    while (lo < hi) {   /* the last block with at <= j0 */
        int64_t mid = (lo + hi + 1) / 2;
        if (R->at[mid] <= j0)
            lo = mid;
        else
            hi = mid - 1;
    }
    int64_t j = j0, end = j0 + n;
    for (int64_t q = lo; j < end; q++) {
        const SchedAffine *b = &B[q];
        int64_t k = j - R->at[q], kend = end - R->at[q];
        if (kend > b->len)
            kend = b->len;
        for (; k < kend; k++, j++, out++) {
            out->src = b->src + (int32_t)k;
            out->dst = b->dst + (int32_t)k;
            out->nr = 1;
            out->r[0] = b->r;
        }
    }
}

/* Every transfer valid, from the blocks: both runs inside the net (first and last node),
 * src != dst (src + k != dst + k), and the range non-empty and below nchunks. */
static bool affine_proved(const void *ctx, const Net *net, uint32_t nchunks, int64_t count)
{
    const AffineRule *R = ctx;
    const SchedAffine *B = blocks_of(R);
    int64_t total = 0;
    for (int64_t q = 0; q < R->nb; q++) {
        const SchedAffine *b = &B[q];
        if (b->len < 1 || b->src < 0 || b->dst < 0 || b->src == b->dst ||
            (int64_t)b->src + b->len > net->size || (int64_t)b->dst + b->len > net->size ||
            !(b->r.lo < b->r.hi && b->r.hi <= nchunks) || R->at[q] != total)
            return false;
        total += b->len;
    }
    return total == count;
}

bool sched_send_affine(Sched *s, const SchedAffine *b, int64_t nb)
{
    if (!s)
        return false;
    if (nb < 0 || (nb > 0 && !b)) {
        sched_fail(s, "affine send: %lld blocks", (long long)nb);
        return false;
    }
    int64_t keep = 0;
    for (int64_t q = 0; q < nb; q++) {
        if (b[q].len < 0) {
            sched_fail(s, "affine send: block %lld has %ld transfers", (long long)q + 1,
                       (long)b[q].len);
            return false;
        }
        keep += b[q].len != 0;
    }
    size_t size = sizeof(AffineRule) + (size_t)keep * (sizeof(int64_t) + sizeof(SchedAffine));
    AffineRule *R = malloc(size);
    if (!R) {
        sched_fail(s, "out of memory");
        return false;
    }
    R->nb = keep;
    SchedAffine *B = (SchedAffine *)(void *)(R->at + keep);
    int64_t count = 0, i = 0;
    for (int64_t q = 0; q < nb; q++) {
        if (b[q].len == 0)
            continue;
        R->at[i] = count;
        B[i++] = b[q];
        count += b[q].len;
    }
    bool ok = sched_send_rule_proved(s, count, affine_batch, R, size, affine_proved);
    free(R);
    return ok;
}

bool sched_step_affine(const Sched *s, int32_t st, const SchedAffine **b, int64_t *nb,
                       int64_t *count)
{
    if (!s || st < 0 || st >= s->nsteps)
        return false;
    const SchedStep *ss = &s->steps[st];
    if (ss->n != 0 || ss->nrule != 1 || ss->more->rule[0].batch != affine_batch)
        return false;
    const AffineRule *R = ss->more->rule[0].ctx;
    *b = blocks_of(R);
    *nb = R->nb;
    *count = ss->more->rule[0].count;
    return true;
}
