/* algo.c — the table of built-in algorithms, their arguments, and the build driver. */
#include "algo.h"
#include "../engine/num.h"
#include "../engine/text.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algos-internal.h"

static const AlgoDef *const table[] = {
    /* Seidel */
    &algo_st_array,  &algo_st_mesh,   &algo_bst_array,  &algo_bst_mesh,
    &algo_rh_array,  &algo_rh_mesh,
    /* Sanders & Sibeyn */
    &algo_chain,     &algo_bintree,   &algo_fractional, &algo_bintree_simplex,
    &algo_fractional_simplex, &algo_fractional_htree, &algo_fractional_hxbar,
    &algo_bintree_direct, &algo_fractional_direct,
    /* Seidel's mesh variants */
    &algo_st_simple, &algo_st_5phase, &algo_bst_rowcol, &algo_bst_snake,
    /* Cang & Wu */
    &algo_tcd,       &algo_tcd_opt,

    /* Peters & Syska */
    &algo_tiling, &algo_dc, &algo_htree, &algo_flood, &algo_saf_trees,
    /* s-to-p */
    &algo_br_lin, &algo_br_xy_source, &algo_br_xy_dim, &algo_xor, &algo_two_step,
    &algo_repos_lin, &algo_repos_xy_source, &algo_part_lin, &algo_part_xy_source,

};

size_t algo_count(void) { return sizeof table / sizeof table[0]; }

const AlgoDef *algo_at(size_t i) { return i < algo_count() ? table[i] : NULL; }

bool algo_exists(const char *name)
{
    for (size_t i = 0; i < algo_count(); i++)
        if (strcmp(table[i]->name, name) == 0)
            return true;
    return false;
}

const AlgoDef *algo_find(const char *name, const Net *net)
{
    for (size_t i = 0; i < algo_count(); i++) {
        if (strcmp(table[i]->name, name) != 0)
            continue;
        if (!net || (table[i]->nets & (1u << net_kind(net))))
            return table[i];
    }
    return NULL;
}

char *algo_nets_text(unsigned nets, char *buf, size_t len)
{
    size_t n = 0;
    if (len == 0)
        return buf;
    buf[0] = '\0';
    for (int k = NET_ARRAY; k < NET_NKINDS; k++) {
        if (!(nets & (1u << k)))
            continue;
        int w = snprintf(buf + n, len - n, "%s%s", n ? ", " : "", net_kind_name((NetKind)k));
        if (w < 0 || (size_t)w >= len - n)
            break;
        n += (size_t)w;
    }
    return buf;
}

bool algo_fit_parse(const char *name, AlgoFit *out)
{
    static const struct { const char *name; AlgoFit fit; } fits[] = {
        {"auto", FIT_AUTO}, {"none", FIT_NONE}, {"companions", FIT_COMPANIONS},
        {"virtual", FIT_VIRTUAL},
    };
    for (size_t i = 0; i < sizeof fits / sizeof fits[0]; i++)
        if (strcmp(name, fits[i].name) == 0) {
            *out = fits[i].fit;
            return true;
        }
    return false;
}

const char *algo_fit_name(AlgoFit f)
{
    switch (f) {
    case FIT_AUTO: return "auto";
    case FIT_NONE: return "none";
    case FIT_COMPANIONS: return "companions";
    case FIT_VIRTUAL: return "virtual";
    }
    return "?";
}

const int32_t *algo_sources(const AlgoArgs *a, int32_t *n)
{
    if (a->sources && a->nsources > 0) {
        *n = a->nsources;
        return a->sources;
    }
    *n = 1;
    return &a->source;
}

void algo_args_init(AlgoArgs *a, const AlgoDef *d)
{
    memset(a, 0, sizeof *a);
    a->source = 0;
    a->dist = -1;
    a->bytes = 1024;
    a->fit = FIT_AUTO;
    a->nu = 0;
    cost_defaults(&a->cost, COST_SEIDEL);
    for (int i = 0; d && i < d->nparams && i < ALGO_MAXPARAM; i++)
        a->param[i] = d->params[i].def;
}

/* At most 32 bytes of a user's text for a message (one line). */
static const char *quoted(const char *text, char *buf, size_t len)
{
    return text_quote(text, 32, buf, len);
}

int algo_args_set(AlgoArgs *a, const AlgoDef *d, const char *name, const char *value,
                  char *err, size_t errlen)
{
    char q[40];
    for (int i = 0; d && i < d->nparams && i < ALGO_MAXPARAM; i++) {
        const AlgoParam *p = &d->params[i];
        if (strcmp(p->name, name) != 0)
            continue;
        if (p->min == ALGO_AUTO && strcmp(value, "auto") == 0) {
            a->param[i] = ALGO_AUTO;
            return 0;
        }
        double v;
        NumStatus ns = num_real(value, &v);   /* num.h's one rule */
        if (ns != NUM_OK) {
            snprintf(err, errlen, "bad value '%s' for %s: %s", quoted(value, q, sizeof q), name,
                     num_status_text(ns));
            return -2;
        }
        if (p->min == ALGO_AUTO && (v < 0 || v > p->max)) {   /* -1 means auto: say "auto" */
            snprintf(err, errlen, "bad value %s for %s of %s: must be 0..%.15g or auto",
                     quoted(value, q, sizeof q), name, d->name, p->max);
            return -2;
        }
        if (v < p->min || v > p->max) {
            snprintf(err, errlen, "bad value %s for %s of %s: must be %.15g..%.15g",
                     quoted(value, q, sizeof q), name, d->name, p->min, p->max);
            return -2;
        }
        a->param[i] = v;
        return 0;
    }
    return -1;
}

double algo_param(const AlgoDef *d, const AlgoArgs *a, const char *name)
{
    for (int i = 0; i < d->nparams && i < ALGO_MAXPARAM; i++)
        if (strcmp(d->params[i].name, name) == 0)
            return a->param[i];
    return NAN;
}

int algo_log2(int64_t x)
{
    if (x < 1 || (x & (x - 1)) != 0)
        return -1;
    int k = 0;
    while ((INT64_C(1) << k) < x)
        k++;
    return k;
}

bool algo_check(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err, size_t errlen)
{
    char kinds[64];
    if (!(d->nets & (1u << net_kind(net)))) {
        snprintf(err, errlen, "algorithm '%s' does not run on a %s (it runs on: %s)", d->name,
                 net_kind_name(net_kind(net)), algo_nets_text(d->nets, kinds, sizeof kinds));
        return false;
    }
    int32_t ns;
    const int32_t *src = algo_sources(a, &ns);
    for (int32_t i = 0; i < ns; i++)
        if (src[i] < 0 || src[i] >= net_size(net)) {
            snprintf(err, errlen, "source %ld is outside %s (nodes 0..%ld)", (long)src[i],
                     net_spec(net), (long)net_size(net) - 1);
            return false;
        }
    if (ns > 1 && !(d->flags & ALGO_STOP)) {
        snprintf(err, errlen, "algorithm '%s' broadcasts from one source; %ld sources need an "
                 "s-to-p algorithm (br-lin, br-xy-source, ...: meshcast list algorithms)",
                 d->name, (long)ns);
        return false;
    }
    if (a->bytes == 0) {
        snprintf(err, errlen, "message length must be at least 1 byte");
        return false;
    }
    /* parameters set directly (not through algo_args_set) must still be in range: a NaN or
     * huge count would reach integer conversions in the builders */
    for (int i = 0; i < d->nparams && i < ALGO_MAXPARAM; i++) {
        const AlgoParam *p = &d->params[i];
        if (!(a->param[i] >= p->min && a->param[i] <= p->max)) {
            snprintf(err, errlen, "bad value %.15g for %s of %s: must be %.15g..%.15g",
                     a->param[i], p->name, d->name, p->min, p->max);
            return false;
        }
    }
    if (a->fit == FIT_VIRTUAL && !(d->flags & ALGO_VIRTUAL)) {
        snprintf(err, errlen, "--fit virtual does not apply to '%s' (Seidel 5.1: only linear "
                 "ST and BST, and the simple mesh ST and BST, with nu = 0)", d->name);
        return false;
    }
    if (fit_needed(d, net))
        return fit_check(d, net, a, err, errlen);
    if (d->fits && !d->fits(d, net, a, err, errlen))
        return false;
    return true;
}

Sched *algo_build(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err, size_t errlen)
{
    if (!algo_check(d, net, a, err, errlen))
        return NULL;
    if (fit_needed(d, net))
        return fit_build(d, net, a, err, errlen);
    uint32_t nchunks = d->nchunks ? d->nchunks(d, net, a) : 1;
    if (nchunks == 0) {
        snprintf(err, errlen, "%s: cannot cut %llu bytes into chunks on %s", d->name,
                 (unsigned long long)a->bytes, net_spec(net));
        return NULL;
    }
    int32_t ns;
    const int32_t *src = algo_sources(a, &ns);
    /* s-to-p: s messages of a->bytes each, message j chunks [j*k, (j+1)*k): sched's chunk
     * sizes floor((i+1)B/n) - floor(iB/n) with B = s*bytes, n = s*k give every message
     * exactly a->bytes bytes */
    uint64_t total = a->bytes;
    if (d->flags & ALGO_STOP) {
        if ((uint64_t)nchunks * (uint64_t)ns > UINT32_MAX || a->bytes > UINT64_MAX / (uint64_t)ns) {
            snprintf(err, errlen, "%s: %ld messages of %llu bytes are too many chunks or bytes",
                     d->name, (long)ns, (unsigned long long)a->bytes);
            return NULL;
        }
        total = a->bytes * (uint64_t)ns;
    }
    Sched *s = sched_new(net, (d->flags & ALGO_STOP) ? nchunks * (uint32_t)ns : nchunks, total);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    bool given = (d->flags & ALGO_STOP) ? stop_give(s, src, ns, nchunks)
                                        : sched_give(s, src[0], 0, nchunks);
    /* a reduction: every node starts with its own contribution to every chunk */
    for (int32_t v = 0; given && (d->flags & ALGO_REDUCE) && v < net_size(net); v++)
        given = v == src[0] || sched_give(s, v, 0, nchunks);
    if (!given || !d->build(d, s, a) || sched_error(s)) {
        const char *e = sched_error(s);
        snprintf(err, errlen, "%s: %s", d->name, e ? e : "build failed");
        sched_free(s);
        return NULL;
    }
    return s;
}

bool algo_predict(const AlgoDef *d, const Net *net, const AlgoArgs *a, const CostParams *p,
                  double *total)
{
    if (fit_needed(d, net))
        return fit_predict(d, net, a, p, total);
    return d->predict && d->predict(d, net, a, p, total);
}

/* What an algorithm says about its closed form for these settings (predict_none,
 * predict_note): a phrase into why, and true; false when it says nothing. */
typedef bool (*PredictSay)(const AlgoDef *d, const Net *net, const AlgoArgs *a,
                           const CostParams *p, char *why, size_t len);

static bool predict_say(PredictSay say, const AlgoDef *d, const Net *net, const AlgoArgs *a,
                        const CostParams *p, char *why, size_t len)
{
    if (len)
        why[0] = '\0';
    return !fit_needed(d, net) && say && say(d, net, a, p, why, len) && len && why[0];
}

bool algo_predict_none(const AlgoDef *d, const Net *net, const AlgoArgs *a, const CostParams *p,
                       char *why, size_t len)
{
    return predict_say(d->predict_none, d, net, a, p, why, len);
}

bool algo_predict_note(const AlgoDef *d, const Net *net, const AlgoArgs *a, const CostParams *p,
                       char *why, size_t len)
{
    return predict_say(d->predict_note, d, net, a, p, why, len);
}

const char *algo_predict_error(const AlgoDef *d)
{
    return d && d->predict_error ? d->predict_error(d) : NULL;
}

bool algo_predict_tcd(const AlgoDef *d, const Net *net, const AlgoArgs *a, double *tcd)
{
    return !fit_needed(d, net) && d->predict_tcd && d->predict_tcd(d, net, a, tcd);
}

void algo_release(AlgoDef *d)
{
    if (d && d->release)
        d->release(d);
}
