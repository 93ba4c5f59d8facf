/* cost.h — the cost models of the literature and their parameters.
 *
 *   seidel  (default) Seidel, ORNL/TM-12356, Section 2.  a: us/byte node to network;
 *           nu: a link carries 2^nu circuits at full speed (a = 2^nu * a-bar); b: us latency;
 *           rho: us/byte in-node copy.  A transfer of B bytes whose busiest link carries k
 *           circuits costs ceil(k / 2^nu) * a * B + b.  One-port: a node's sends in one step go
 *           one after another, and so do its receives.  Defaults: Table II, the Intel Delta
 *           (a = 0.08, b = 75, rho = 0.01, nu = 0).
 *   postal  Sanders & Sibeyn: every step costs t + (largest packet in bytes) * beta; duplex (at
 *           most one send and one receive per node per step) or simplex (one of the two).
 *           Breaking the port rule is a violation, not a price.  Defaults t = 1, beta = 1,
 *           duplex = 1.
 *   circuit Peters & Syska: all-port; a transfer over d links costs alpha + d*delta + L*tau;
 *           the circuits of one step must be arc-disjoint (a shared directed link is a
 *           violation).  Defaults alpha = 1, delta = 0, tau = 1.
 *   saf     store-and-forward: a transfer over d links costs d*(beta + L*tau); all-port, no
 *           link rule.  Defaults beta = 1, tau = 1.
 *
 * Local operations (in-node permutations of B bytes) cost rho*B under every model.
 * The exact rules for combining transfers into a step's cost are in sim.h.
 */
#ifndef MESHCAST_COST_H
#define MESHCAST_COST_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { COST_SEIDEL, COST_POSTAL, COST_CIRCUIT, COST_SAF, COST_NMODELS } CostModel;

typedef struct {
    CostModel model;
    double a, b, rho;      /* seidel (rho: every model) */
    int nu;                /* seidel; also read by algorithms that exploit nu > 0 */
    double t, beta;        /* postal: t + beta*L;  saf: d*(beta + L*tau) */
    int duplex;            /* postal: 1 duplex, 0 simplex */
    double alpha, delta, tau; /* circuit: alpha + d*delta + L*tau; saf uses tau */
    double gamma;          /* us/byte to combine a received partial (--op reduce, every model;
                            * default 0; set with --set gamma=V, listed only by reductions) */
} CostParams;

#define COST_NU_MAX 16

const char *cost_model_name(CostModel m);      /* "seidel", ... */
bool cost_model_parse(const char *name, CostModel *out);
/* A one-line description of the model, for `meshcast list models`. */
const char *cost_model_summary(CostModel m);
/* The unit costs are in: "us" under seidel (Seidel's a and b are microseconds, Table II);
 * "units" under postal, circuit and saf, whose parameters (t, beta, alpha, delta, tau) are in
 * a time unit of the user's choosing, so a cost in them is in that unit, not in us. */
const char *cost_unit(CostModel m);

/* Fill p with model m and the defaults of every parameter. */
void cost_defaults(CostParams *p, CostModel m);

/* Set a parameter by name ("a", "b", "rho", "nu", "t", "beta", "duplex", "alpha", "delta",
 * "tau", "gamma").  Any parameter may be set whatever the model.  Returns false with a one-line message
 * in err for an unknown name or a bad value (not a number, negative, nu outside 0..16,
 * duplex not 0/1). */
bool cost_set(CostParams *p, const char *name, const char *value, char *err, size_t errlen);
bool cost_is_param(const char *name);

/* One transfer of `bytes` bytes over a route of d links under p's model, its links shared
 * m-fold beyond capacity (seidel's ceil(k / 2^nu); 1 when not shared): seidel m*a*B + b,
 * postal t + beta*B, circuit alpha + d*delta + B*tau, saf d*(beta + B*tau).  Shared by the
 * lockstep (sim.c) and asynchronous (sim-async.c) timings; inline, as the asynchronous timing
 * prices every transfer of a big broadcast with it. */
static inline double cost_transfer(const CostParams *p, double d, double bytes, double m)
{
    switch (p->model) {
    case COST_SEIDEL:
        return m * p->a * bytes + p->b;
    case COST_POSTAL:
        return p->t + p->beta * bytes;
    case COST_CIRCUIT:
        return p->alpha + d * p->delta + bytes * p->tau;
    case COST_SAF:
    default:
        return d * (p->beta + bytes * p->tau);
    }
}

/* The same transfer's price as the lockstep timing splits it (sim-price.c): startup (seidel
 * b, postal t, circuit alpha + d*delta, saf d*beta), transmission (a*B, beta*B, B*tau,
 * d*B*tau) and contention ((m - 1)*a*B under seidel, else 0).  Their sum is cost_transfer's
 * value up to rounding; the lockstep timing adds a step's terms, and picks its costliest
 * transfer by cost_transfer (seidel, postal) or by startup + transmission (circuit, saf). */
typedef struct {
    double startup, trans, cont;
} CostTerms;

static inline CostTerms cost_terms(const CostParams *p, double d, double bytes, double m)
{
    switch (p->model) {
    case COST_SEIDEL: {
        double ab = p->a * bytes;
        return (CostTerms){ p->b, ab, (m - 1) * ab };
    }
    case COST_POSTAL:
        return (CostTerms){ p->t, p->beta * bytes, 0 };
    case COST_CIRCUIT:
        return (CostTerms){ p->alpha + d * p->delta, bytes * p->tau, 0 };
    case COST_SAF:
    default:
        return (CostTerms){ d * p->beta, d * bytes * p->tau, 0 };
    }
}

/* Names of the parameters a model uses, NULL-terminated. */
const char *const *cost_param_names(CostModel m);
double cost_param_get(const CostParams *p, const char *name);

#endif
