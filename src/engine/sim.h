/* sim.h — replay a schedule: holdings, verification, link and port contention, cost.
 *
 * Semantics of one step (documented in docs/model.md as well):
 *  1. Every transfer's chunks must be held by its source when the step begins; a chunk that is
 *     not is a SIM_V_NOT_HELD violation (the schedule is then not verified).
 *  2. Link loads: every transfer occupies each directed link of its route; a link's load is the
 *     number of circuits using it in the step.  A link is *overloaded* when its load exceeds the
 *     model's capacity: 2^nu under seidel, 1 under every other model.
 *  3. Ports: a node with s sends and r receives in a step has max(0,s-1) + max(0,r-1) *port
 *     conflicts* (reported under every model).
 *  4. Cost of the step = communication + local, where local = max over nodes of rho * (bytes
 *     of that node's local operations, including operations on every node), and
 *     communication is, by model:
 *       seidel  transfer t costs c_t = ceil(k_t / 2^nu) * a * B_t + b, where k_t is the largest
 *               load on t's route; the step costs max_t c_t.  One-port: a step in which a
 *               node sends or receives more than once is played in sub-rounds (subround.h),
 *               k_t counting only t's sub-round, and costs the sum of its sub-rounds' costs.
 *       postal  t + beta * max_t B_t (0 for a step without transfers).  More than one send or
 *               receive at a node (duplex), or a node that both sends and receives (simplex),
 *               is a SIM_V_PORT violation; port_conflicts counts the sends and receives over
 *               one per node (duplex) or over one in all (simplex: one port both ways).
 *       circuit max_t (alpha + d_t * delta + B_t * tau); all-port: an arc used by two
 *               circuits of the step is a SIM_V_LINK violation, a port (a node's outgoing or
 *               incoming arc) used by two a SIM_V_ALLPORT violation, and port_conflicts counts
 *               the circuits over one per port (not Seidel's one-port conflicts).
 *       saf     max_t d_t * (beta + B_t * tau).
 *     A step without transfers or local operations costs 0.
 *  5. After the step every destination holds what it was sent (even chunks the source lacked,
 *     so that one error does not cascade).
 *  After the last step every node must hold every chunk; a node that does not is a
 *  SIM_V_INCOMPLETE violation.
 *  *verified* = complete and no NOT_HELD;  *valid* = verified and no model violation.
 *
 * Breakdown (SimCost): for seidel, the terms of each sub-round's costliest transfer:
 * startup (b per message), transmission (a*B), contention ((ceil(k/2^nu)-1)*a*B); for postal
 * startup t and transmission beta*L; circuit startup alpha + d*delta, transmission L*tau;
 * saf startup d*beta, transmission d*L*tau.  permutation = the local part.  The terms add up
 * to the total.
 *
 * Speed: link loads are counted per step in time proportional to the transfers plus the
 * links they touch (difference arrays over whole lines when routes are long), never to the
 * sum of route lengths; per-transfer busiest-link loads use a range-maximum structure.
 *
 * Ownership: sim_run borrows the Sched (and its Net), which must outlive the Sim.  The caller
 * frees the Sim with sim_free.  Pointers returned by accessors stay valid until the next call
 * on the same Sim that takes a non-const Sim.
 */
#ifndef MESHCAST_SIM_H
#define MESHCAST_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chunkset.h"
#include "cost.h"
#include "sched.h"

typedef struct Sim Sim;

enum {
    SIM_HISTORY = 1 << 0, /* keep per-step deltas so that sim_seek can go back and forth */
    SIM_ASYNC = 1 << 1,   /* also time the schedule asynchronously (sim-async.h), in the same
                           * pass over its steps (or, for a big schedule of exclusive edges, on
                           * a second thread at the same time): fetch it with sim_async_take */
};

typedef enum {
    SIM_V_NOT_HELD,   /* step, node (the sender), chunk, transfer */
    SIM_V_LINK,       /* step, link, load (circuit model) */
    SIM_V_PORT,       /* step, node, sends, recvs (postal model) */
    SIM_V_INCOMPLETE, /* step = nsteps, node, chunk (the first it lacks) */
    SIM_V_ALLPORT,    /* step, node, link = the port's arc, load = circuits, recvs = 1 for an
                       * in-port (circuit model: one circuit per port per phase) */
} SimViolationKind;

typedef struct {
    SimViolationKind kind;
    int32_t step;
    int32_t node;      /* -1 if not applicable */
    int64_t link;      /* -1 if not applicable */
    uint32_t chunk;    /* NOT_HELD, INCOMPLETE */
    int64_t transfer;  /* index within the step, -1 if not applicable */
    int32_t load;      /* LINK: the link's load; PORT: sends */
    int32_t recvs;     /* PORT */
} SimViolation;

typedef struct {
    double total, startup, transmission, contention, permutation;
} SimCost;

typedef struct {
    SimCost cost;
    int64_t ntransfers;
    int64_t tcd;            /* sum of route lengths */
    uint64_t bytes;         /* bytes moved (sum over transfers) */
    int32_t max_link_load;
    int64_t link_overloads; /* links over capacity */
    int32_t max_channel_load; /* hxbar: the most transfers over one module's out or in channel
                               * (its link load is this over C, rounded up; 0 elsewhere) */
    int64_t port_conflicts;
    int64_t violations;     /* model violations and NOT_HELD in this step */
    int32_t critical_node;  /* node whose serialised work set the cost, -1 */
    int32_t informed;       /* nodes holding at least one chunk after the step (Cang & Wu's
                             * informed nodes; s-to-p's active nodes) */
    int64_t max_len;        /* circuit, saf: the longest route of the step (hops) */
    uint64_t max_bytes;     /* the most bytes one transfer of the step carries */
    int32_t subrounds;      /* seidel: the step's one-port sub-rounds (subround.h): 1 when
                             * every node sends and receives at most once, more when some
                             * node's messages go one after another; 0 without transfers and
                             * under the other models */
} SimStep;

typedef struct {
    int32_t nsteps;
    SimCost cost;
    int64_t ntransfers;
    int64_t tcd;
    uint64_t bytes;
    int32_t max_link_load;
    int64_t link_overloads;  /* summed over steps */
    int32_t max_channel_load; /* hxbar: over all steps (SimStep's) */
    int64_t port_conflicts;  /* summed over steps */
    int64_t violations;      /* all kinds, including NOT_HELD and INCOMPLETE */
    int64_t not_held;
    int64_t incomplete_nodes;
    bool verified, valid;
    int32_t informed_before; /* nodes holding at least one chunk before the first step */
    /* Peters & Syska's terms (circuit, saf): a phase costs alpha + d*delta + L*tau with d its
     * longest route and L its largest transfer, so the schedule costs phases*alpha +
     * switch_hops*delta + phase_bytes*tau when one transfer has both (the sum is an upper
     * bound of the total otherwise). */
    int32_t phases;          /* steps with at least one transfer (start-ups, alpha) */
    int64_t switch_hops;     /* sum over steps of max_len (delta) */
    uint64_t phase_bytes;    /* sum over steps of max_bytes (tau) */
    int32_t split_steps;     /* seidel: steps played in more than one sub-round */
    int64_t subrounds;       /* seidel: sub-rounds over all steps */
} SimTotals;

typedef struct {
    int32_t load;          /* k: the largest load on the route */
    double cost;           /* c_t under the model (seidel: ceil(k/2^nu)*a*B + b) */
    double contention;     /* the part of cost due to load over capacity */
    int32_t subround;      /* seidel, a step played in sub-rounds: the transfer's (1-based;
                            * its load counts only that sub-round's circuits); 0 otherwise */
} SimTransferInfo;

/* Simulate s under model p.  Returns NULL only on bad arguments, when memory runs out, or when
 * the cost is not a finite number (cost parameters so large that a sum overflows: the message
 * then holds SIM_NOT_FINITE), with a message in err; a wrong schedule still returns a Sim
 * whose totals say what is wrong. */
#define SIM_NOT_FINITE "is not a finite number"
Sim *sim_run(const Sched *s, const CostParams *p, unsigned flags, char *err, size_t errlen);
/* The first nsteps steps of s only (all of them if s has fewer), for a front end that shows
 * the beginning of a big broadcast while the whole is simulated elsewhere: the Sim then has
 * nsteps steps (sim_step, sim_seek and the per-step detail stop there), its totals add up
 * those steps, and it is never verified (the end, where every node must hold everything, is
 * not reached).  Each step's numbers are the same as sim_run's. */
Sim *sim_run_prefix(const Sched *s, const CostParams *p, unsigned flags, int32_t nsteps,
                    char *err, size_t errlen);
void sim_free(Sim *sim);
/* With SIM_ASYNC: the asynchronous timing of the steps simulated, the same as sim_async_run's
 * without SIM_ASYNC_EVENTS; the caller owns it from then on (frees it with sim_async_free) and
 * a second call gives NULL.  NULL with a message in err when it could not be timed (the
 * messages of sim_async_run) or without SIM_ASYNC. */
struct SimAsync;
struct SimAsync *sim_async_take(Sim *sim, char *err, size_t errlen);

const Sched *sim_sched(const Sim *sim);
const CostParams *sim_params(const Sim *sim);
const SimTotals *sim_totals(const Sim *sim);
/* Step `step`'s figures, put together in *out (the Sim keeps them compactly: sim-steps.c);
 * returns out, or NULL for a step out of range.  sim_step(sim, step) is the same into a
 * SimStep of the caller's block (a compound literal): the pointer it gives is valid until
 * that block ends, and each sim_step written in the source has a SimStep of its own. */
const SimStep *sim_step_get(const Sim *sim, int32_t step, SimStep *out);
#define sim_step(sim, step) sim_step_get((sim), (step), &(SimStep){ .critical_node = 0 })
/* Running total of cost after steps 0..step. */
double sim_cost_until(const Sim *sim, int32_t step);

/* Violations, in order of step.  At most SIM_MAXVIOL are kept (the count in totals is exact). */
#define SIM_MAXVIOL 4096
size_t sim_nviolations(const Sim *sim);
const SimViolation *sim_violation(const Sim *sim, size_t i);
/* "step 2: node 5 sends chunk 3 it does not hold" — one line, into buf; returns buf. */
char *sim_violation_text(const Sim *sim, const SimViolation *v, char *buf, size_t len);
/* The transfers a contention or port violation involves (sim-involved.c): LINK and ALLPORT,
 * those of its step whose route uses the arc; PORT, those its node sends or receives.  Their
 * indices within the step go into out (at most max); returns how many there are (0 for the
 * other kinds; a search stops after 2^24 hops walked). */
int64_t sim_violation_transfers(const Sim *sim, const SimViolation *v, int64_t *out,
                                size_t max);
/* Them as one line: "0->2 chunk 0 route x+2; 0->3 chunk 0 route x+3" (the first
 * SIM_INVOLVED_SHOW, then "; and N more"); "" when none.  Returns buf. */
#define SIM_INVOLVED_SHOW 8
char *sim_violation_involved_text(const Sim *sim, const SimViolation *v, char *buf,
                                  size_t len);

/* Holdings at a position: pos 0 is before the first step, pos k after k steps.  After sim_run
 * the position is nsteps.  sim_seek to another position needs SIM_HISTORY (else returns false);
 * its cost is proportional to the deltas of the steps crossed. */
bool sim_seek(Sim *sim, int32_t pos);
int32_t sim_pos(const Sim *sim);
const ChunkRange *sim_holdings(const Sim *sim, int32_t node, size_t *nranges);
uint64_t sim_held(const Sim *sim, int32_t node);   /* chunks held */
bool sim_holds(const Sim *sim, int32_t node, uint32_t chunk);

/* Per-step detail, computed on demand (the last step asked for is cached). */
/* Loads of every directed link in the step, indexed by link id (net_nlinks entries). */
const int32_t *sim_link_loads(Sim *sim, int32_t step);
/* The load of one directed link in the step: the first call for a step costs what counting
 * that step's loads costs (its transfers plus the links they touch), later calls for the same
 * step O(1) — unlike sim_link_loads, nothing proportional to the whole net, so a front end can
 * ask for just the links it shows.  0 for a bad step or link. */
int32_t sim_link_load(Sim *sim, int32_t step, int64_t link);
void sim_transfer_info(Sim *sim, int32_t step, int64_t i, SimTransferInfo *out);
/* Sends and receives of every node in the step (net_size entries each). */
void sim_port_counts(Sim *sim, int32_t step, const int32_t **sends, const int32_t **recvs);

/* The shape of a step's routes, in words (the TUI's narration): how many nodes send (one of
 * them in one_sender, -1 if none), the directions routes start in (bit 2*dim + (dir > 0) of
 * each route's first hop), whether a route turns (two segments or more), the shortest and
 * longest route in hops.  Read from the step's transfers in place, without making each route
 * (what sched_transfer would give, transfer by transfer).  False for a bad step or when
 * memory runs out. */
typedef struct {
    int64_t senders;
    int32_t one_sender;
    unsigned dirs;
    bool turns;
    int64_t hmin, hmax;    /* 0, 0 for a step without transfers */
} SimShape;
bool sim_step_shape(Sim *sim, int32_t step, SimShape *out);

#endif
