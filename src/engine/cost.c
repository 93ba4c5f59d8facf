/* cost.c — cost models and their parameters (see cost.h). */
#include "cost.h"
#include "num.h"
#include "text.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const model_names[COST_NMODELS] = { "seidel", "postal", "circuit", "saf" };

static const char *const model_summaries[COST_NMODELS] = {
    "Seidel (ORNL/TM-12356): ceil(k/2^nu)*a*B + b per message, one-port; Intel Delta defaults",
    "Sanders & Sibeyn: every step costs t + beta*(largest packet); duplex or simplex ports",
    "Peters & Syska: all-port circuit switching, alpha + d*delta + L*tau, arc-disjoint steps",
    "store-and-forward: d*(beta + L*tau) per message, all-port",
};

static const char *const names_seidel[] = { "a", "b", "nu", "rho", NULL };
static const char *const names_postal[] = { "t", "beta", "duplex", "rho", NULL };
static const char *const names_circuit[] = { "alpha", "delta", "tau", "rho", NULL };
static const char *const names_saf[] = { "beta", "tau", "rho", NULL };
static const char *const names_none[] = { NULL };

static const char *const all_names[] = { "a", "b", "rho", "nu", "t", "beta", "duplex",
                                         "alpha", "delta", "tau", "gamma", NULL };

const char *cost_model_name(CostModel m)
{
    return (unsigned)m < COST_NMODELS ? model_names[m] : "?";
}

bool cost_model_parse(const char *name, CostModel *out)
{
    if (!name)
        return false;
    for (int m = 0; m < COST_NMODELS; m++) {
        if (strcmp(name, model_names[m]) == 0) {
            if (out)
                *out = (CostModel)m;
            return true;
        }
    }
    return false;
}

const char *cost_model_summary(CostModel m)
{
    return (unsigned)m < COST_NMODELS ? model_summaries[m] : "";
}

const char *cost_unit(CostModel m)
{
    return m == COST_SEIDEL ? "us" : "units";
}

void cost_defaults(CostParams *p, CostModel m)
{
    if (!p)
        return;
    memset(p, 0, sizeof *p);
    p->model = (unsigned)m < COST_NMODELS ? m : COST_SEIDEL;
    p->a = 0.08;      /* Table II, Intel Delta: us/byte */
    p->b = 75.0;      /* us */
    p->rho = 0.01;    /* us/byte */
    p->nu = 0;
    p->t = 1.0;
    p->beta = 1.0;
    p->duplex = 1;
    p->alpha = 1.0;
    p->delta = 0.0;
    p->tau = 1.0;
}

bool cost_is_param(const char *name)
{
    if (!name)
        return false;
    for (int i = 0; all_names[i]; i++)
        if (strcmp(name, all_names[i]) == 0)
            return true;
    return false;
}

const char *const *cost_param_names(CostModel m)
{
    switch (m) {
    case COST_SEIDEL: return names_seidel;
    case COST_POSTAL: return names_postal;
    case COST_CIRCUIT: return names_circuit;
    case COST_SAF: return names_saf;
    default: return names_none;
    }
}

static double *param_ptr(CostParams *p, const char *name)
{
    if (!strcmp(name, "a")) return &p->a;
    if (!strcmp(name, "b")) return &p->b;
    if (!strcmp(name, "rho")) return &p->rho;
    if (!strcmp(name, "t")) return &p->t;
    if (!strcmp(name, "beta")) return &p->beta;
    if (!strcmp(name, "alpha")) return &p->alpha;
    if (!strcmp(name, "delta")) return &p->delta;
    if (!strcmp(name, "tau")) return &p->tau;
    if (!strcmp(name, "gamma")) return &p->gamma;
    return NULL;
}

double cost_param_get(const CostParams *p, const char *name)
{
    if (!p || !name)
        return NAN;
    if (!strcmp(name, "nu"))
        return p->nu;
    if (!strcmp(name, "duplex"))
        return p->duplex;
    double *d = param_ptr((CostParams *)p, name);
    return d ? *d : NAN;
}

/* At most 32 bytes of a user's text for a message (one line). */
static const char *quoted(const char *text, char *buf, size_t len)
{
    return text_quote(text, 32, buf, len);
}

bool cost_set(CostParams *p, const char *name, const char *value, char *err, size_t errlen)
{
    char q[40];
    char dummy[1];
    if (!err || errlen == 0) {
        err = dummy;
        errlen = sizeof dummy;
    }
    if (!p || !name) {
        snprintf(err, errlen, "no parameter given");
        return false;
    }
    if (!cost_is_param(name)) {
        snprintf(err, errlen,
                 "unknown parameter '%s' (a, b, rho, nu, t, beta, duplex, alpha, delta, tau, "
                 "gamma)",
                 quoted(name, q, sizeof q));
        return false;
    }
    if (!value || !*value) {
        snprintf(err, errlen, "bad value '' for %s: not a number", name);
        return false;
    }
    /* num.h's one rule: plain decimal, no blank, no hex; too large is said so */
    double v;
    NumStatus ns = num_real(value, &v);
    if (ns != NUM_OK) {
        snprintf(err, errlen, "bad value '%s' for %s: %s", quoted(value, q, sizeof q), name,
                 num_status_text(ns));
        return false;
    }
    if (v < 0) {
        snprintf(err, errlen, "bad value '%s' for %s: must not be negative",
                 quoted(value, q, sizeof q), name);
        return false;
    }
    if (!strcmp(name, "nu")) {
        if (v != floor(v) || v > COST_NU_MAX) {
            snprintf(err, errlen, "bad value '%s' for nu: must be an integer 0..%d",
                     quoted(value, q, sizeof q), COST_NU_MAX);
            return false;
        }
        p->nu = (int)v;
        return true;
    }
    if (!strcmp(name, "duplex")) {
        if (v != 0 && v != 1) {
            snprintf(err, errlen, "bad value '%s' for duplex: must be 0 (simplex) or 1 (duplex)",
                     quoted(value, q, sizeof q));
            return false;
        }
        p->duplex = (int)v;
        return true;
    }
    *param_ptr(p, name) = v;
    return true;
}
