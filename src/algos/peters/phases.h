/* phases.h — what Peters & Syska's algorithms (src/algos/peters/) share: a phase given as a
 * pattern of relative circuits, each with an explicit route, sent from every node of a list.
 *
 * A pattern circuit is a route of up to PETERS_MAXSEG straight pieces (dim, signed length;
 * pieces of length 0 are skipped); its destination is wherever the route ends (torus wrap).
 *
 * Ownership: a PetersSet owns its node array; free it with peters_set_free.
 */
#ifndef MESHCAST_PETERS_PHASES_H
#define MESHCAST_PETERS_PHASES_H

#include <stdbool.h>
#include <stdint.h>

#include "../algos-internal.h"

#define PETERS_MAXSEG 4
#define PETERS_MAXOUT 4

typedef struct {
    int nseg;
    int8_t dim[PETERS_MAXSEG];
    int32_t len[PETERS_MAXSEG];   /* signed: the direction */
} PetersRoute;

typedef struct {
    int nout;                       /* circuits per sender, <= PETERS_MAXOUT */
    PetersRoute out[PETERS_MAXOUT];
} PetersPattern;

/* A growing list of nodes (the informed ones, in order). */
typedef struct {
    int32_t *node;
    int64_t n, cap;
} PetersSet;

bool peters_set_init(PetersSet *v, int64_t cap);
void peters_set_free(PetersSet *v);

/* The route's pieces as NetSegs (zero pieces dropped); returns their number. */
int peters_segs(const PetersRoute *r, NetSeg *seg);
/* Total hops of a route. */
int64_t peters_route_len(const PetersRoute *r);

/* Open a step labelled `label`; every node of from[0..nfrom) sends the whole message along
 * every circuit of pat; every destination is appended to `to` (which may be `from`: only the
 * first nfrom are senders).  False (after sched_fail) on a builder error or no memory. */
bool peters_phase(Sched *s, const char *label, const PetersPattern *pat, PetersSet *from,
                  int64_t nfrom, PetersSet *to);

#endif
