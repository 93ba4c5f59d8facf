/* algo.h — broadcast algorithms: schedule generators registered in one table.
 *
 * An AlgoDef describes one algorithm on some kinds of net: its parameters, how many chunks it
 * cuts the message into, how it builds a schedule, and (where a paper gives one) the closed
 * form of its cost.  Several defs may share a name when they serve different kinds of net (the
 * Table I `st` on arrays and on meshes); algo_find picks the one that fits.
 *
 * Built-in defs are static and never freed.  Defs made elsewhere (Lua scripts) set `release`,
 * and their owner frees them with algo_release (a no-op for built-ins).
 *
 * Sizes: algorithms flagged ALGO_POW2 are defined for 2^d nodes (arrays) or 2^d1 x 2^d2 nodes
 * (meshes).  On other sizes algo_build applies Seidel's Section 5: --fit companions (any
 * algorithm; the default) or --fit virtual (only defs flagged ALGO_VIRTUAL, with nu = 0).
 */
#ifndef MESHCAST_ALGO_H
#define MESHCAST_ALGO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../engine/cost.h"
#include "../engine/net.h"
#include "../engine/sched.h"

#define ALGO_MAXPARAM 8

typedef enum { FIT_AUTO, FIT_NONE, FIT_COMPANIONS, FIT_VIRTUAL } AlgoFit;

typedef struct {
    const char *name;
    double def, min, max;   /* default and allowed range */
    const char *help;
} AlgoParam;

/* A parameter whose min is ALGO_AUTO also takes "--set NAME=auto", stored as ALGO_AUTO (the
 * algorithm computes the value from the run's model: Peters & Syska's B_opt). */
#define ALGO_AUTO (-1.0)

typedef struct {
    int32_t source;        /* node id */
    /* s-to-p broadcasting (the s-to-p paper): the nsources source nodes, sorted ids, each holding its
     * own message of `bytes` bytes.  NULL/0: one source, `source`.  Borrowed (the Setup owns
     * them).  Only ALGO_STOP defs take more than one; with one, every def uses it as `source`. */
    const int32_t *sources;
    int32_t nsources;
    int dist;              /* the DistKind they came from (dist.h; DIST_LIST a list), -1 none */
    uint64_t bytes;        /* message length m */
    AlgoFit fit;
    int nu;                /* the structural nu (seidel's; --set nu=..) */
    double param[ALGO_MAXPARAM]; /* values of def->params, in order */
    CostParams cost;       /* the run's model (setup and compare copy it): what a parameter
                            * set to "auto" is computed from (Peters & Syska's B_opt) */
    bool async;            /* the run is timed asynchronously (sim-async.h): predict gives
                            * the asynchronous closed form where the paper has one */
} AlgoArgs;

enum {
    ALGO_POW2 = 1u << 0,    /* needs power-of-two extents; other sizes go through --fit */
    ALGO_VIRTUAL = 1u << 1, /* virtual nodes (Seidel 5.1) allowed when nu == 0 */
    ALGO_SEARCH = 1u << 2,  /* a search (tcd-opt): slow, and the same schedule at every size,
                             * so compare's cost sweep leaves it out (compare --by tcd keeps it) */
    ALGO_STOP = 1u << 3,    /* s-to-p: any number of sources, each its own message of `bytes`
                             * bytes cut into nchunks() chunks (the schedule has s*nchunks) */
    ALGO_REDUCE = 1u << 4,  /* builds a reduction towards a->source directly (a Lua script's
                             * op = "reduce"): every node holds its own contribution to every
                             * chunk from the start, and the schedule is checked by reduce_run
                             * (reduce.h), not as a broadcast */
};

typedef struct AlgoDef AlgoDef;
struct AlgoDef {
    const char *name;      /* "st", "bst-snake", or a script's name */
    const char *summary;   /* one line */
    const char *ref;       /* where it comes from: "Seidel 3.1, eqs. 1-2; Table I" */
    unsigned nets;         /* bit (1u << NetKind) for every kind it runs on */
    unsigned flags;        /* ALGO_POW2, ALGO_VIRTUAL */
    const AlgoParam *params;
    int nparams;
    /* Can it run on this net with these args (net kind/dimensions/size, nu, params)?  The kind
     * mask and the source range are checked before this is called.  For ALGO_POW2 defs this is
     * called with the power-of-two net the fit maps onto.  NULL: always. */
    bool (*fits)(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err, size_t errlen);
    /* How many chunks the message is cut into.  NULL: 1. */
    uint32_t (*nchunks)(const AlgoDef *d, const Net *net, const AlgoArgs *a);
    /* Add the steps of the broadcast to s (whose givens are already set: a->source holds every
     * chunk; for ALGO_STOP defs source j of the order stop_give chose holds the j-th message,
     * chunks [j*k, (j+1)*k) with k = nchunks()).  On failure return false after sched_fail(s, ...) with a message. */
    bool (*build)(const AlgoDef *d, Sched *s, const AlgoArgs *a);
    /* The paper's closed-form cost under p, into *total.  NULL or false: no closed form for
     * this model/net. */
    bool (*predict)(const AlgoDef *d, const Net *net, const AlgoArgs *a, const CostParams *p,
                    double *total);
    /* When predict gives no closed form for these settings although the paper has one for
     * others: why, as a phrase into why ("the closed form needs ..."), and true.  NULL or
     * false: nothing to say (no closed form for this model/net at all). */
    bool (*predict_none)(const AlgoDef *d, const Net *net, const AlgoArgs *a,
                         const CostParams *p, char *why, size_t len);
    /* When the simulated cost is known to differ from predict's closed form for these
     * settings (an erratum of the paper: docs/errata.md): why, as a phrase into why, and
     * true.  NULL or false: they should agree. */
    bool (*predict_note)(const AlgoDef *d, const Net *net, const AlgoArgs *a,
                         const CostParams *p, char *why, size_t len);
    /* Why the last predict failed when it failed by an error (a script's predict raised),
     * not for want of a closed form; NULL otherwise.  NULL: never. */
    const char *(*predict_error)(const AlgoDef *d);
    /* The paper's closed form of the total communication distance (TCD, the sum of route
     * lengths) for this net and args, into *tcd (Cang & Wu's eqs. 3-14).  NULL or false: none. */
    bool (*predict_tcd)(const AlgoDef *d, const Net *net, const AlgoArgs *a, double *tcd);
    void *ud;              /* owner's data (a script's path and description) */
    void (*release)(AlgoDef *d);
};

/* The built-in table. */
size_t algo_count(void);
const AlgoDef *algo_at(size_t i);
/* The built-in def called name that runs on net (net may be NULL: the first called name).
 * NULL if none; then algo_exists tells whether the name exists for some other net. */
const AlgoDef *algo_find(const char *name, const Net *net);
bool algo_exists(const char *name);
/* "array, mesh" — the kinds a name runs on, into buf. */
char *algo_nets_text(unsigned nets, char *buf, size_t len);

bool algo_fit_parse(const char *name, AlgoFit *out);  /* "companions", "virtual", "none" */
const char *algo_fit_name(AlgoFit f);

/* The sources of a (a->sources, or the one a->source) and how many. */
const int32_t *algo_sources(const AlgoArgs *a, int32_t *n);

/* Defaults for every parameter; source 0 (no list), bytes 1024, fit auto, nu 0. */
void algo_args_init(AlgoArgs *a, const AlgoDef *d);
/* Set parameter `name` of d.  Returns 0 if set, -1 if d has no such parameter, -2 on a bad
 * value (message in err). */
int algo_args_set(AlgoArgs *a, const AlgoDef *d, const char *name, const char *value,
                  char *err, size_t errlen);
double algo_param(const AlgoDef *d, const AlgoArgs *a, const char *name);

/* Can d run on net with a?  Checks kind, source, nu, size and fit; one-line message in err. */
bool algo_check(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err, size_t errlen);

/* Build the whole broadcast schedule (applying --fit where needed).  Returns NULL with a
 * one-line message in err if the def does not fit or its build failed.  The caller owns the
 * Sched; it borrows net. */
Sched *algo_build(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                  size_t errlen);

/* The closed form for this net, args and model (fit costs included); false if none, or if it
 * failed: then algo_predict_error(d) says why (NULL: there is simply no closed form). */
bool algo_predict(const AlgoDef *d, const Net *net, const AlgoArgs *a, const CostParams *p,
                  double *total);
/* After algo_predict gave none: why there is none for these settings, into why (true), or
 * false when the algorithm has nothing to say (predict_none). */
bool algo_predict_none(const AlgoDef *d, const Net *net, const AlgoArgs *a, const CostParams *p,
                       char *why, size_t len);
/* After algo_predict gave a closed form: why the simulated cost differs from it here (a known
 * erratum), into why (true), or false (they should agree: predict_note). */
bool algo_predict_note(const AlgoDef *d, const Net *net, const AlgoArgs *a, const CostParams *p,
                       char *why, size_t len);
const char *algo_predict_error(const AlgoDef *d);

/* The closed form of the TCD (predict_tcd); false if none, or when a fit applies. */
bool algo_predict_tcd(const AlgoDef *d, const Net *net, const AlgoArgs *a, double *tcd);

void algo_release(AlgoDef *d);

#endif
