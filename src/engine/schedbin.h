/* schedbin.h — the compact binary schedule format ("MCX1") that `meshcast exec` writes and
 * meshcast-mpi reads (docs/exec.md describes it byte by byte).  libc only.
 *
 * All integers little-endian:
 *   header  "MCX1", u32 version (1), u32 op (0 broadcast or s-to-p, 1 reduction), u32 nodes,
 *           u32 nchunks, u32 root (the reduction's root; broadcast: the source or 2^32-1),
 *           u64 bytes, u32 ngiven, u32 nsteps                                   (40 bytes)
 *   given   ngiven x (u32 node, u32 lo, u32 hi): node starts with chunks [lo,hi)
 *   steps   nsteps x (u32 ntransfers, ntransfers x (u32 src, u32 dst, u32 nranges,
 *           nranges x (u32 lo, u32 hi)))
 * Chunk i is bytes [i*bytes/nchunks, (i+1)*bytes/nchunks) of the message, as in sched.h.
 *
 * The reader trusts nothing: every count is checked against what is left of the buffer
 * before anything is allocated, every node against nodes, every range against nchunks
 * (sorted, disjoint, non-empty), src != dst, bytes and nodes against the caller's limits,
 * and no byte may follow the last step.  A bad file gets one message naming the byte offset.
 *
 * Ownership: schedbin_read copies what it needs (buf may be freed after); the caller frees
 * the result with schedbin_free.
 */
#ifndef MESHCAST_SCHEDBIN_H
#define MESHCAST_SCHEDBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "chunkset.h"
#include "sched.h"

#define SCHEDBIN_HEADER 40
#define SCHEDBIN_NOROOT UINT32_MAX

enum { SCHEDBIN_BROADCAST = 0, SCHEDBIN_REDUCE = 1 };

typedef struct SchedBin SchedBin;

typedef struct {
    uint32_t src, dst;
    uint32_t nranges;
    const ChunkRange *ranges;   /* into the SchedBin */
} SchedBinXfer;

/* Write s (op, root as above) to f.  False with a message if a write fails. */
bool schedbin_write(FILE *f, const Sched *s, int op, uint32_t root, char *err, size_t errlen);

/* Parse buf[0..len).  max_nodes, max_bytes: refuse more (0: no limit). */
SchedBin *schedbin_read(const unsigned char *buf, size_t len, uint32_t max_nodes,
                        uint64_t max_bytes, char *err, size_t errlen);
void schedbin_free(SchedBin *b);

int schedbin_op(const SchedBin *b);
uint32_t schedbin_nodes(const SchedBin *b);
uint32_t schedbin_nchunks(const SchedBin *b);
uint32_t schedbin_root(const SchedBin *b);
uint64_t schedbin_bytes(const SchedBin *b);
uint32_t schedbin_nsteps(const SchedBin *b);
size_t schedbin_ngiven(const SchedBin *b);
void schedbin_given(const SchedBin *b, size_t i, uint32_t *node, ChunkRange *r);
/* Transfers of step k are xfer(first(k)) .. xfer(first(k) + count(k) - 1). */
uint64_t schedbin_step_first(const SchedBin *b, uint32_t k);
uint64_t schedbin_step_count(const SchedBin *b, uint32_t k);
void schedbin_xfer(const SchedBin *b, uint64_t i, SchedBinXfer *out);
/* First byte of chunk c in the message (c <= nchunks; c == nchunks: bytes). */
uint64_t schedbin_chunk_offset(const SchedBin *b, uint32_t c);

#endif
