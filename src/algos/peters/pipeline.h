/* pipeline.h — the time of packets pipelined through the phases of Peters & Syska's trees
 * (dc, htree), for packets of any sizes.
 *
 * The message of L bytes is cut into nchunks chunks by sched's formula (chunk c has
 * floor((c+1)L/n) - floor(cL/n) bytes, so when P does not divide L some packets are one byte
 * longer).  `ntrees` trees each carry P packets (tree t: chunks t*P .. t*P+P-1) through the
 * same ns stages, stage i a phase whose longest circuit has d[i] hops; packet j runs stage i
 * at lockstep step j + i.
 *   async     packet j's stage i starts when its own stage i-1 has ended (it holds the
 *             packet) and packet j-1's stage i has ended (the same arcs): a flow shop,
 *             C(j,i) = max(C(j-1,i), C(j,i-1)) + alpha + d[i] delta + b_j tau; the time is
 *             the latest C(P-1, ns-1) over the trees.  With equal packets of B bytes this is
 *             the paper's T(B) = sum_i (alpha + d_i delta + B tau) + (P-1) max_i (...).
 *   lockstep  every step costs its costliest circuit: the largest alpha + d[i] delta + b_j tau
 *             over the (stage i, packet j) active in it.
 */
#ifndef MESHCAST_ALGOS_PETERS_PIPELINE_H
#define MESHCAST_ALGOS_PETERS_PIPELINE_H

#include <stdbool.h>
#include <stdint.h>

#include "../../engine/cost.h"

/* NaN when memory runs out. */
double peters_pipe_time(const CostParams *p, bool async, const int64_t *d, int ns, uint64_t L,
                        uint32_t P, int ntrees);

#endif
