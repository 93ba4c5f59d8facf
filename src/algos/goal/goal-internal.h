/* goal-internal.h — the parsed GOAL program shared by goal-read.c, goal-plan.c and goal-algo.c
 * (not for callers outside src/algos/goal: they use goal.h). */
#ifndef MESHCAST_GOAL_INTERNAL_H
#define MESHCAST_GOAL_INTERNAL_H

#include "goal.h"

enum { GOP_SEND, GOP_RECV, GOP_CALC };

typedef struct {
    uint64_t size;     /* bytes (send, recv) or time (calc) */
    int32_t rank;      /* whose operation */
    int32_t peer;      /* send: to; recv: from; calc: -1 */
    uint32_t tag;
    uint32_t line;
    uint8_t kind;
} GoalOp;

typedef struct {
    uint32_t from, to; /* op `to` requires op `from` */
    uint8_t start;     /* irequires: `to` may start once `from` has started */
} GoalDep;

typedef struct {
    int32_t src, dst;  /* ranks */
    uint32_t lo, hi;   /* chunks [lo, hi) */
    uint32_t line;     /* of the send */
} GoalXfer;

struct GoalProg {
    char name[256];
    int32_t nranks;
    /* "// meshcast: chunks N bytes M tag=first-chunk" (goal-write.c's own files): each send's
     * tag is the first chunk it carries; 0: the stream rule */
    uint32_t tag_chunks;
    uint64_t tag_bytes;
    GoalOp *ops;
    uint32_t nops, capops;
    GoalDep *deps;
    uint32_t ndeps, capdeps;
    /* the plan */
    uint64_t bytes;
    uint32_t nchunks;
    int32_t source;
    int32_t nsteps;
    GoalXfer *xf;        /* by step */
    int64_t nxf;
    int64_t *step_first; /* nsteps + 1 */
};

/* goal-plan.c: match, cut into chunks, schedule.  False with "NAME:LINE: ..." in err. */
bool goal_plan(GoalProg *g, char *err, size_t errlen);

#endif
