/* sched-internal.h — the compact schedule layout, for the simulator inside src/engine.
 * Callers outside the engine use sched.h. */
#ifndef MESHCAST_SCHED_INTERNAL_H
#define MESHCAST_SCHED_INTERNAL_H

#include "sched.h"

#define SCHED_DEFAULT_ROUTE UINT32_MAX

/* One stored transfer: 24 bytes. */
typedef struct {
    int32_t src, dst;
    uint32_t roff;   /* first range in Sched.ranges */
    uint32_t nr;     /* number of ranges */
    uint32_t route;  /* first segment in Sched.segs, or SCHED_DEFAULT_ROUTE */
    uint32_t nseg;   /* explicit routes: number of segments */
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

#endif
