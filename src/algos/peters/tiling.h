/* tiling.h — what the two files of `tiling` share: Section 4's phase patterns (tiling.c) and
 * the broadcast on any torus by uneven cells (tiling-cells.c). */
#ifndef MESHCAST_PETERS_TILING_H
#define MESHCAST_PETERS_TILING_H

#include "phases.h"

/* A knight's-move phase of S_k: (u, v) is (u0, v0) hops along dimension 0 and (u1, v1) along
 * dimension 1 (the same in cells, stretched on blocks); four L-shaped routes turned by 90
 * degrees. */
PetersPattern tiling_knight(int32_t u0, int32_t v0, int32_t u1, int32_t v1);
/* A cross phase of S_k: s0 hops either way along dimension 0, s1 along dimension 1. */
PetersPattern tiling_cross(int32_t s0, int32_t s1);

/* The k tiling uses on a 2-D torus outside the paper's (5^k 2^a) x (5^k 2^b) family: of the
 * two largest with 5^k <= both extents, the one with fewer phases (the larger on a tie; the
 * smaller only when its cells have at most 64 x 64 nodes, so that planning them is quick). */
int tiling_cells_k(const Net *net);
/* The broadcast from source: S_k on the bosses of 5^k x 5^k uneven cells (cells.h), then
 * every cell filled by cross splits (fill.h).  False after sched_fail. */
bool tiling_cells(Sched *s, int k, int32_t source);

#endif
