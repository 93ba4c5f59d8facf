/* bounds.h — Sanders & Sibeyn's lower bounds (Section 2, eqs. 4-6) on the time to broadcast a
 * message of m bytes (k = beta*m) to P PUs under the postal model (a step costs t + beta *
 * largest packet):
 *
 *   (4) duplex, any algorithm:              k + t log P
 *   (5) simplex, any algorithm:             2(1 - 1/P) k + t (log P - 4)
 *   (6) duplex, s equal packets, best s:    the paper prints k (1 + sqrt(t log P / k))^2, the
 *       minimum over s of (s + log P)(t + k/s); but its own argument gives s - 1 + log P
 *       steps, whose minimum is k (1 + sqrt(t (log P - 1) / k))^2 — the printed form exceeds
 *       what the chain costs on 2 PUs (docs/errata.md).  Both are given; `packets` is the one
 *       that holds.
 *
 * log is log2 (real).  Pure functions of P, m and the model's t and beta. */
#ifndef MESHCAST_BOUNDS_H
#define MESHCAST_BOUNDS_H

#include <stdbool.h>
#include <stdint.h>

#include "cost.h"

typedef struct {
    double duplex;         /* (4) */
    double simplex;        /* (5) */
    double packets;        /* (6) as its argument gives it (log P - 1) */
    double packets_paper;  /* (6) as printed (log P) */
} PostalBounds;

/* The bounds for P >= 2 PUs and m bytes under p's t and beta; false if P < 2. */
bool bounds_postal(int64_t P, uint64_t bytes, const CostParams *p, PostalBounds *out);

/* The largest of the bounds that hold for a schedule that is valid under p's ports: (4) and
 * (6) for duplex, (4), (5) and (6) for simplex (a simplex schedule is a duplex one too). */
double bounds_postal_best(const PostalBounds *b, const CostParams *p);

#endif
