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
/* Append x (growing the array); false when memory runs out. */
bool peters_set_push(PetersSet *v, int32_t x);

/* The route's pieces as NetSegs (zero pieces dropped); returns their number. */
int peters_segs(const PetersRoute *r, NetSeg *seg);
/* Total hops of a route. */
int64_t peters_route_len(const PetersRoute *r);

/* Open a step labelled `label`; every node of from[0..nfrom) sends the whole message along
 * every circuit of pat; every destination is appended to `to` (which may be `from`: only the
 * first nfrom are senders).  False (after sched_fail) on a builder error or no memory. */
bool peters_phase(Sched *s, const char *label, const PetersPattern *pat, PetersSet *from,
                  int64_t nfrom, PetersSet *to);


/* ---- broadcast trees, emitted pipelined ----------------------------------------------------
 * A tree is a list of circuits by level (level 1 first): level i is sent by nodes that
 * received at level < i.  `sub` names the sub-message an edge carries (0, or 1 for the second
 * half of the H-trees).  Emitted with P packets per sub-message: step t holds every edge of
 * level i carrying packet p = t - (i - 1) (0 <= p < P) of its sub-message, chunk sub*P + p. */
typedef struct {
    int32_t src, dst;
    int8_t nseg, sub;
    NetSeg seg[PETERS_MAXSEG];
} PetersEdge;

typedef struct {
    PetersEdge *e;
    int64_t n, cap;
    int nlevels, caplevels;
    int64_t *start;      /* start[i]: first edge of level i+1; start[nlevels] = n */
    int64_t start0;      /* start's storage before the first level */
} PetersTree;

void peters_tree_init(PetersTree *t);
void peters_tree_free(PetersTree *t);
/* Open the next level (levels are added in order, as many as memory allows); false when
 * memory runs out (the level is not opened). */
bool peters_tree_level(PetersTree *t);
/* Add an edge from src along seg (its destination computed) to the level opened last; returns
 * the destination, or -1 (no memory, or a route that leaves the net). */
int32_t peters_tree_edge(PetersTree *t, const Net *net, int32_t src, const NetSeg *seg, int nseg,
                         int sub);
/* The schedule: nlevels + P - 1 steps, packets of every sub-message pipelined level after
 * level; labels "NAME: packets ... level i". */
bool peters_tree_emit(Sched *s, const PetersTree *t, uint32_t npk, const char *name);
/* The number of packets of one sub-message for a packet size (bytes per packet; 0: the whole
 * sub-message in one packet); at least 1, at most the sub-message's bytes. */
uint32_t peters_packets(uint64_t subbytes, double B);
/* The packet size parameter (a->param[0], "B") of a pipelined tree algorithm: auto or a number
 * of bytes >= 0; false with a message in err otherwise. */
bool peters_B_ok(const AlgoDef *d, const AlgoArgs *a, char *err, size_t errlen);

/* The work budget of a pipelined tree algorithm, checked in its fits() before anything is
 * built, priced or allocated: at most PETERS_PACKETS_MAX packets a tree, and at most
 * PETERS_WORK_MAX transfers in all (ntrees trees, each packet sent to the net's other nodes).
 * A packet size B (the one asked for, or B=auto's) whose packet count is over either is
 * refused with the numbers and the smallest B that fits.  The count is computed in floating
 * point, before any 32-bit packet count could wrap. */
enum { PETERS_PACKETS_MAX = 1 << 20 };
#define PETERS_WORK_MAX 16777216.0
bool peters_work_ok(const AlgoDef *d, const Net *net, const AlgoArgs *a, uint64_t subbytes,
                    double B, int ntrees, char *err, size_t errlen);

#endif
