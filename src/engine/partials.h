/* partials.h — a reduction's partial values step by step, for showing them (the screen's
 * cells during `--op reduce`; reduce.h verifies, this only counts).
 *
 * Every node starts with its own contribution to the chunks it is given (a count of 1 per
 * chunk); a transfer u -> w of chunks R adds u's count of each chunk of R, as it was when the
 * step began, to w's (w combines u's partial into its own; u keeps it).  partials_count is,
 * before step pos (pos = 0 .. nsteps), how many contributions a node's partials combine,
 * summed over its chunks: the root of a verified reduction of P nodes and k chunks ends with
 * P*k, a leaf keeps k.  A contribution combined twice is counted twice here (reduce.h names
 * it).
 *
 * Memory: a count per node and chunk while building, and a total per node and position kept
 * (nodes * (nsteps + 1)); partials_new refuses a schedule past PARTIALS_MAX of either.
 *
 * Ownership: partials_new reads the Sched and keeps nothing of it; the caller frees the
 * result with partials_free. */
#ifndef MESHCAST_PARTIALS_H
#define MESHCAST_PARTIALS_H

#include <stddef.h>
#include <stdint.h>

#include "sched.h"

#define PARTIALS_MAX (INT64_C(1) << 24)

typedef struct Partials Partials;

/* NULL with a message when the schedule is too big to count (PARTIALS_MAX) or memory runs
 * out. */
Partials *partials_new(const Sched *r, char *err, size_t errlen);
void partials_free(Partials *p);

/* Contributions node's partials combine before step pos (clamped to 0..nsteps), over all its
 * chunks; 0 for a node outside the net. */
int64_t partials_count(const Partials *p, int32_t pos, int32_t node);
/* The most a node can combine: nodes * chunks. */
int64_t partials_full(const Partials *p);

#endif
