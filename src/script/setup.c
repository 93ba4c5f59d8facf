/* setup.c — a user's words (net, algorithm, source, bytes, model, fit, K=V settings) into a
 * ready broadcast.  The batch commands and the TUI's command line both come through here, so
 * they accept and refuse exactly the same things with the same one-line messages.
 *
 * Order matters and is fixed: the net first (the algorithm and the source are resolved on it),
 * then the model's defaults and the profile's constants, the algorithm and its default parameters, source, bytes, fit,
 * then every --set in the order given (a later one wins), and last algo_check, so that a
 * setting the algorithm cannot take (nu = 9 on a 4-node array) is refused here, before any
 * schedule is built.
 */
#include "setup.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../engine/dist.h"
#include "../engine/num.h"
#include "../engine/text.h"
#include "profile.h"
#include "script.h"
#include "../algos/goal/goal.h"

const char *setup_bytes_problem(const char *text, uint64_t *out)
{
    static const char syntax[] = "expected a number such as 1024, 64K or 1M";
    const char *end;
    uint64_t v;
    NumStatus st = num_u64(text, &v, &end);   /* num.h: digits only, no sign, no blank */
    if (st == NUM_NEGATIVE)
        return "must be at least 1 byte";
    if (st == NUM_SYNTAX)
        return syntax;
    unsigned shift = 0;
    switch (*end) {
    case '\0': break;
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    default: return syntax;
    }
    if (*end != '\0')
        return syntax;
    if (st == NUM_TOO_LARGE || (shift && v > (UINT64_MAX >> shift)))
        return "too large (at most 18446744073709551615 bytes, 17179869183G)";
    if (v == 0)
        return "must be at least 1 byte";
    *out = v << shift;
    return NULL;
}

bool setup_parse_bytes(const char *text, uint64_t *out)
{
    return setup_bytes_problem(text, out) == NULL;
}

static bool parse_source(const Net *net, const char *text, int32_t *out, char *err,
                         size_t errlen)
{
    int32_t id = net_parse_node(net, text);
    if (id >= 0) {
        *out = id;
        return true;
    }
    char q[48];
    uint64_t v;
    NumStatus ns = num_u64(text, &v, NULL);   /* a plain id: outside, or negative, or huge */
    text_quote(text, 40, q, sizeof q);
    if (ns == NUM_OK || ns == NUM_TOO_LARGE)
        snprintf(err, errlen, "source %s is outside %s (nodes 0..%ld)", q, net_spec(net),
                 (long)net_size(net) - 1);
    else if (ns == NUM_NEGATIVE)
        snprintf(err, errlen, "bad source '%s': node ids are not negative (nodes 0..%ld of %s)",
                 q, (long)net_size(net) - 1, net_spec(net));
    else if (net_ndim(net) > 1)
        snprintf(err, errlen, "bad source '%s': expected a node id or %s coordinates inside %s",
                 q, net_ndim(net) == 2 ? "R,C" : "R,C,Z", net_spec(net));
    else
        snprintf(err, errlen, "bad source '%s': expected a node id 0..%ld", q,
                 (long)net_size(net) - 1);
    return false;
}

static bool def_has_param(const AlgoDef *d, const char *name)
{
    for (int i = 0; i < d->nparams && i < ALGO_MAXPARAM; i++)
        if (strcmp(d->params[i].name, name) == 0)
            return true;
    return false;
}

/* One "K=V".  A cost parameter goes to the model, an algorithm parameter to the args; nu is
 * both (and becomes args.nu). */
static bool apply_set(Setup *s, const char *kv, char *err, size_t errlen)
{
    const char *eq = strchr(kv, '=');
    char q[48];
    if (!eq || eq == kv || eq[1] == '\0') {
        snprintf(err, errlen, "bad --set '%s': expected NAME=VALUE", text_quote(kv, 40, q, sizeof q));
        return false;
    }
    char name[64];
    size_t n = (size_t)(eq - kv);
    if (n >= sizeof name) {
        snprintf(err, errlen, "bad --set '%s': name too long", text_quote(kv, 40, q, sizeof q));
        return false;
    }
    memcpy(name, kv, n);
    name[n] = '\0';
    const char *value = eq + 1;

    bool known = false;
    if (strcmp(name, "c") == 0 && net_kind(s->net) == NET_HXBAR)
        known = true;   /* the channels per module: applied to the net first (hxbar_sets) */
    if (cost_is_param(name)) {
        if (!cost_set(&s->cost, name, value, err, errlen))
            return false;
        if (strcmp(name, "nu") == 0)
            s->args.nu = s->cost.nu;
        known = true;
    }
    if (def_has_param(s->def, name)) {
        if (algo_args_set(&s->args, s->def, name, value, err, errlen) != 0) {
            if (!err[0])
                snprintf(err, errlen, "bad value '%s' for %s", value, name);
            return false;
        }
        known = true;
    }
    if (!known && strcmp(name, "c") == 0) {
        snprintf(err, errlen, "--set c=C sets the channels per module of a hierarchical "
                 "crossbar (hxbar:AxB); %s has none", net_spec(s->net));
        return false;
    }
    if (!known) {
        char list[256] = "";
        size_t used = 0;
        for (int i = 0; i < s->def->nparams && i < ALGO_MAXPARAM; i++) {
            int w = snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "",
                             s->def->params[i].name);
            if (w < 0 || (size_t)w >= sizeof list - used)
                break;
            used += (size_t)w;
        }
        snprintf(err, errlen, "unknown setting '%s' (cost parameters: a, b, rho, nu, t, beta, "
                 "duplex, alpha, delta, tau, gamma;%s parameters of %s: %s)",
                 text_quote(name, 40, q, sizeof q),
                 net_kind(s->net) == NET_HXBAR ? " c, the channels per module;" : "",
                 s->def->name, used ? list : "none");
        return false;
    }
    return true;
}

/* hxbar: the last --set c=C rebuilds the net with C channels per module (before anything is
 * resolved on it); false with a message for a bad C.  Other nets are left to apply_set. */
static bool hxbar_sets(const SetupSpec *spec, Net **net, char *err, size_t errlen)
{
    const char *last = NULL;
    for (size_t i = 0; i < spec->nsets; i++)
        if (strncmp(spec->sets[i], "c=", 2) == 0)
            last = spec->sets[i];
    if (!last || net_kind(*net) != NET_HXBAR)
        return true;
    uint64_t c;
    const char *end;
    char q[48];
    if (num_u64(last + 2, &c, &end) != NUM_OK || *end || c < 1 || c > 1 << 20) {
        snprintf(err, errlen, "bad --set '%s': c is the channels per module of hxbar, 1..%d",
                 text_quote(last, 40, q, sizeof q), 1 << 20);
        return false;
    }
    char made[96];
    snprintf(made, sizeof made, "hxbar:%ldx%ld,c=%llu", (long)net_hxbar_modules(*net),
             (long)net_hxbar_per(*net), (unsigned long long)c);
    Net *n = net_parse(made, err, errlen);
    if (!n)
        return false;
    net_free(*net);
    *net = n;
    return true;
}

bool setup_profile(const char *name, CostParams *c, char *err, size_t errlen)
{
    if (!name)
        return true;
    Profile *prof = profile_load(name, err, errlen);
    if (!prof)
        return false;
    profile_apply(prof, c);
    profile_free(prof);
    return true;
}

bool setup_make(const SetupSpec *spec, Setup *out, char *err, size_t errlen)
{
    bool refused;
    return setup_make_def(spec, NULL, out, &refused, err, errlen);
}

bool setup_make_def(const SetupSpec *spec, const AlgoDef *def, Setup *out, bool *refused,
                    char *err, size_t errlen)
{
    *refused = false;
    Setup s;
    memset(&s, 0, sizeof s);
    memset(out, 0, sizeof *out);
    char q[48];   /* a user's text in a message: text_quote, 40 bytes */
    if (errlen)
        err[0] = '\0';

    const char *netspec = spec->net ? spec->net : "mesh:8x8";
    s.net = net_parse(netspec, err, errlen);
    if (!s.net) {
        if (errlen && !err[0])
            snprintf(err, errlen, "bad net '%s'", netspec);
        return false;
    }

    if (!hxbar_sets(spec, &s.net, err, errlen))
        goto fail;

    CostModel model = COST_SEIDEL;
    if (spec->model && !cost_model_parse(spec->model, &model)) {
        snprintf(err, errlen, "unknown model '%s' (seidel, postal, circuit, saf)",
                 text_quote(spec->model, 40, q, sizeof q));
        goto fail;
    }
    cost_defaults(&s.cost, model);
    if (!setup_profile(spec->profile, &s.cost, err, errlen))
        goto fail;

    const char *algo = spec->algo ? spec->algo : "st";
    if (def) {
        s.def = def;
    } else if (goal_is_path(algo)) {
        s.owned = goal_algo(algo, s.net, spec->map, err, errlen);
        s.def = s.owned;
        if (!s.def)
            goto fail;
    } else if (spec->map) {
        snprintf(err, errlen, "--map applies to a GOAL file (--algo FILE.goal)");
        goto fail;
    } else {
        s.def = script_algo(algo, s.net, &s.owned, err, errlen);
    }
    if (!s.def) {
        if (errlen && !err[0])
            snprintf(err, errlen, "unknown algorithm '%s' (meshcast list algorithms)",
                     text_quote(algo, 40, q, sizeof q));
        goto fail;
    }
    algo_args_init(&s.args, s.def);
    s.args.nu = s.cost.nu;
    if (goal_is_algo(s.def)) {   /* the file says who broadcasts and how much */
        s.args.source = goal_algo_source(s.def);
        s.args.bytes = goal_algo_bytes(s.def);
    }

    if (spec->source && !parse_source(s.net, spec->source, &s.args.source, err, errlen))
        goto fail;

    if (spec->sources) {
        DistKind kind;
        if (spec->source) {
            snprintf(err, errlen, "--source and --sources exclude each other");
            goto fail;
        }
        if (!dist_parse(s.net, spec->sources, &s.sources, &s.nsources, &kind, err, errlen))
            goto fail;
        s.args.sources = s.sources;
        s.args.nsources = s.nsources;
        s.args.source = s.sources[0];
        s.args.dist = (int)kind;
    }

    const char *why = spec->bytes ? setup_bytes_problem(spec->bytes, &s.args.bytes) : NULL;
    if (why) {
        snprintf(err, errlen, "bad byte count '%s': %s", text_quote(spec->bytes, 40, q, sizeof q),
                 why);
        goto fail;
    }

    if (spec->fit && !algo_fit_parse(spec->fit, &s.args.fit)) {
        snprintf(err, errlen, "unknown fit '%s' (companions, virtual, none, auto)",
                 text_quote(spec->fit, 40, q, sizeof q));
        goto fail;
    }

    if (spec->op && strcmp(spec->op, "reduce") != 0 && strcmp(spec->op, "broadcast") != 0) {
        snprintf(err, errlen, "bad --op: broadcast or reduce");
        goto fail;
    }
    if (spec->op && (s.def->flags & ALGO_REDUCE) && strcmp(spec->op, "broadcast") == 0) {
        snprintf(err, errlen, "%s builds a reduction (op = \"reduce\"): --op broadcast does "
                 "not apply", s.def->name);
        goto fail;
    }
    s.reduce = spec->op && strcmp(spec->op, "reduce") == 0 && !(s.def->flags & ALGO_REDUCE);

    for (size_t i = 0; i < spec->nsets; i++)
        if (!apply_set(&s, spec->sets[i], err, errlen))
            goto fail;
    s.args.cost = s.cost;

    if (!algo_check(s.def, s.net, &s.args, err, errlen)) {
        *refused = true;
        goto fail;
    }

    *out = s;
    return true;

fail:
    setup_free(&s);
    return false;
}

void setup_free(Setup *s)
{
    if (!s)
        return;
    if (s->owned)
        algo_release(s->owned);
    free(s->sources);
    if (s->net)
        net_free(s->net);
    memset(s, 0, sizeof *s);
}
