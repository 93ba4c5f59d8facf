/* reduce.h — reductions (Sanders & Sibeyn 1: "by reversing the direction of communication,
 * broadcasting algorithms can usually be turned into reduction algorithms").
 *
 * Every node v starts with its own contribution to every chunk; a transfer u -> w of chunks R
 * sends u's partial of each chunk of R as it was when the step began (u keeps it), and w
 * combines it into its own.  The reduction is verified when the root ends with every node's
 * contribution to every chunk exactly once.  The check tracks, for every node and chunk, whose
 * contributions the partial combines: one by one (a count per contributor) when nodes^2 *
 * chunks is at most REDUCE_EXACT_MAX, so a contribution combined twice is named at the step
 * and node where it happens and one missing at the end is named too; on bigger nets a count and
 * a 64-bit sum of per-contributor keys per partial, so the root's partials are still checked
 * (a wrong one is reported without naming the contributor).  Combining costs gamma per byte:
 * a step's combine cost is gamma * (the most bytes one node receives in it).
 *
 * Ownership: reduce_reverse returns a Sched the caller frees (it borrows b's Net); reduce_run
 * returns a Reduce the caller frees with reduce_free; it does not keep the Sched. */
#ifndef MESHCAST_REDUCE_H
#define MESHCAST_REDUCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cost.h"
#include "sched.h"

#define REDUCE_EXACT_MAX (INT64_C(1) << 26)
#define REDUCE_MAXVIOL 1024

typedef struct Reduce Reduce;

typedef struct {
    int32_t step;          /* 0-based; nsteps: at the end */
    int32_t node;          /* where it happens (the root at the end) */
    uint32_t chunk;
    int32_t contribution;  /* whose contribution, -1 if not known (hashed tracking) */
    bool doubled;          /* combined a second time; false: lost (missing at the end) */
    int64_t count;         /* hashed: how many contributions the root's partial combines */
    int32_t reached;       /* lost (exact): the node that took the contribution in last, the
                            * furthest it got; -1: the contributor never sent it on */
} ReduceViolation;

/* The broadcast b run backwards: its steps in reverse order, every transfer u -> w (chunks R)
 * becoming w -> u (an explicit route reversed), local operations kept; every node is given
 * every chunk (its contribution).  Only what a transfer delivered *first* is reversed: the
 * chunks w did not hold yet (the broadcast's tree for each chunk).  A chunk delivered again to
 * a node that held it (Seidel's exchanges send some back to the source) would, reversed,
 * combine a contribution twice; *dropped (if not NULL) gets how many chunk deliveries were
 * left out.  NULL with a message when memory runs out. */
Sched *reduce_reverse(const Sched *b, int64_t *dropped, char *err, size_t errlen);

/* Does a broadcast's closed form also price its reduction (reduce_reverse) on net under
 * model?  Where links do not count (postal, or a full net): the reversed transfers cost what
 * the broadcast's did.  Elsewhere a reversed route uses other links under dimension-ordered
 * routing, so the prediction is dropped. */
bool reduce_prediction_holds(const Net *net, CostModel model);

/* Check the reduction r towards root, pricing combines at gamma us/byte. */
Reduce *reduce_run(const Sched *r, int32_t root, double gamma, char *err, size_t errlen);
void reduce_free(Reduce *rd);

bool reduce_verified(const Reduce *rd);
bool reduce_exact(const Reduce *rd);               /* contributions tracked one by one */
double reduce_combine_cost(const Reduce *rd);      /* summed over steps */
double reduce_step_combine(const Reduce *rd, int32_t step);
int64_t reduce_violation_count(const Reduce *rd);  /* all (at most REDUCE_MAXVIOL kept) */
size_t reduce_nviolations(const Reduce *rd);
const ReduceViolation *reduce_violation(const Reduce *rd, size_t i);
/* "step 3: node 5 combines node 2's contribution to chunk 0 a second time", "end (after step
 * 4): the root 0 lacks node 3's contribution to chunk 1: it got as far as node 2" — into buf. */
char *reduce_violation_text(const Reduce *rd, const ReduceViolation *v, char *buf, size_t len);

#endif
