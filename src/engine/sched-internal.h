/* sched-internal.h — the compact schedule layout, for the simulator inside src/engine.
 * Callers outside the engine use sched.h. */
#ifndef MESHCAST_SCHED_INTERNAL_H
#define MESHCAST_SCHED_INTERNAL_H

#include "sched.h"

#define SCHED_DEFAULT_ROUTE UINT32_MAX
#define SCHED_SEG_BITS 5            /* explicit routes: route = first segment << 5 | nseg */
#define SCHED_MAX_SEGS (UINT32_C(1) << (32 - SCHED_SEG_BITS))

/* One stored transfer: 24 bytes.  A transfer with at most one range keeps it inline (most
 * sends are single ranges: no range pool, no normalisation); with two or more, r.pool.roff is
 * the first of its nr ranges in Sched.ranges. */
typedef struct {
    int32_t src, dst;
    union {
        ChunkRange one;                    /* nr <= 1 */
        struct {
            uint32_t roff, unused;
        } pool;                            /* nr >= 2 */
    } r;
    uint32_t nr;     /* number of ranges */
    uint32_t route;  /* SCHED_DEFAULT_ROUTE, or first segment in Sched.segs << 5 | nseg */
} SchedXfer;

typedef struct {
    SchedXfer *x;
    int64_t n, cap;
    SchedLocal *loc;
    int64_t nloc, caploc;
    char *label;
} SchedStep;

struct Sched {
    const Net *net;
    uint32_t nchunks;
    uint64_t bytes;
    SchedStep *steps;
    int32_t nsteps, capsteps;
    int32_t cur;            /* current step, -1 if none opened */
    ChunkRange *ranges;     /* shared range pool */
    uint64_t nranges, capranges;
    uint64_t last_roff, last_nr;   /* the ranges appended last (reused by identical sends) */
    NetSeg *segs;           /* explicit-route pool */
    uint64_t nsegs, capsegs;
    int32_t *gnode;         /* initial holdings */
    ChunkRange *grange;
    size_t ngiven, capgiven;
    int64_t total;          /* transfers over all steps */
    char *error;
};

static inline const ChunkRange *sched_xfer_ranges(const Sched *s, const SchedXfer *x)
{
    return x->nr <= 1 ? &x->r.one : s->ranges + x->r.pool.roff;
}

static inline uint32_t sched_xfer_nseg(const SchedXfer *x)
{
    return x->route == SCHED_DEFAULT_ROUTE ? 0 : x->route & ((1u << SCHED_SEG_BITS) - 1);
}

static inline const NetSeg *sched_xfer_segs(const Sched *s, const SchedXfer *x)
{
    return s->segs + (x->route >> SCHED_SEG_BITS);
}

#endif
