/* script.c — resolving --algo: a built-in, a .lua path, or a script on the search path; a
 * Lua algorithm becomes a heap AlgoDef whose callbacks call into its own sandboxed state.
 *
 * The script's table (docs/lua-api.md):
 *   name, summary, ref (strings), nets (list of kinds), params ({k = default} or
 *   {k = {default, min=, max=, help=}}), chunks (number or function(net, p)),
 *   build(sched, net, p, source), and optionally sizes(net, p) -> ok [, message],
 *   predict(net, p, cost) -> number|nil, pow2 (bool: Seidel 5's fits for other sizes),
 *   virtual (bool: --fit virtual allowed), stop (bool: s-to-p), op ("reduce": build writes a
 *   reduction towards `source`, ALGO_REDUCE).
 * `p` holds the parameters plus p.nu, p.bytes and p.cost (the run's model and constants).
 */
#include "script.h"
#include "../engine/dist.h"
#include "../engine/sched-pack.h"
#include "../engine/text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lauxlib.h>

#include "lua-child.h"
#include "lua-mc.h"
#include "lua-sandbox.h"

typedef struct {
    AlgoDef def;
    char *path;
    Child *child;           /* the process the script runs in (lua-child.h) */
    bool loaded;            /* loaded once: a restarted child loads it quietly */
    char *name, *summary, *ref;
    AlgoParam params[ALGO_MAXPARAM];
    char *pnames[ALGO_MAXPARAM], *phelp[ALGO_MAXPARAM];
    int64_t chunks_const;   /* chunks = N in the table; 0: a function (or none: 1) */
    bool chunks_fn;
    int ref_table;          /* in the child that read it: the table, in its registry */
    char pending[512];      /* an error from chunks(), reported by build() */
    char predict_err[512];  /* the error of the last predict() that failed ("": none) */
} ScriptAlgo;

static ScriptAlgo *sa_of(const AlgoDef *d) { return (ScriptAlgo *)d->ud; }

/* One call into the script's table, run whole inside box_call (reading fields may run
 * metamethods; pushing may allocate; either may raise).  Results are copied into C here. */
typedef struct {
    ScriptAlgo *sa;
    LuaBox *box;            /* the child's sandbox */
    int ref_table;          /* the script's table, in its registry */
    const char *field;      /* "sizes", "chunks", "build", "predict" */
    const Net *net;
    Sched *sched;
    const AlgoArgs *a;
    const CostParams *cost;
    /* results */
    bool ok, have, have2;
    lua_Integer n;
    double value, value2;   /* predict's cost, and its optional second result: the TCD */
    char msg[256];
} Call;

static void push_cost(lua_State *L, const CostParams *p);

/* p: the parameters, p.nu, p.bytes, and p.cost (the run's model and constants, as predict's
 * `cost`), so that chunks() and build() can choose their own packet counts. */
static void push_params(lua_State *L, ScriptAlgo *sa, const AlgoArgs *a)
{
    lua_createtable(L, 0, sa->def.nparams + 2);
    lua_pushinteger(L, a->nu);
    lua_setfield(L, -2, "nu");
    lua_pushinteger(L, (lua_Integer)a->bytes);
    lua_setfield(L, -2, "bytes");
    lua_pushinteger(L, a->source);   /* the broadcast's source (a parameter may shadow it) */
    lua_setfield(L, -2, "source");
    /* s-to-p: p.sources (the source nodes, ascending) and p.distribution ("Dr", "list", or
     * nil for a single --source) */
    int32_t ns;
    const int32_t *src = algo_sources(a, &ns);
    lua_createtable(L, ns, 0);
    for (int32_t i = 0; i < ns; i++) {
        lua_pushinteger(L, src[i]);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "sources");
    if (a->dist >= 0) {
        lua_pushstring(L, dist_name((DistKind)a->dist));
        lua_setfield(L, -2, "distribution");
    }
    for (int i = 0; i < sa->def.nparams; i++) {
        double v = a->param[i];
        if (v == floor(v) && fabs(v) < 9e15)
            lua_pushinteger(L, (lua_Integer)v);
        else
            lua_pushnumber(L, v);
        lua_setfield(L, -2, sa->pnames[i]);
    }
    push_cost(L, &a->cost);
    lua_setfield(L, -2, "cost");
}

static void push_cost(lua_State *L, const CostParams *p)
{
    lua_createtable(L, 0, 12);
    lua_pushstring(L, cost_model_name(p->model));
    lua_setfield(L, -2, "model");
#define F(n) lua_pushnumber(L, p->n); lua_setfield(L, -2, #n);
    F(a) F(b) F(rho) F(t) F(beta) F(alpha) F(delta) F(tau) F(gamma)
#undef F
    lua_pushinteger(L, p->nu);
    lua_setfield(L, -2, "nu");
    lua_pushinteger(L, p->duplex);
    lua_setfield(L, -2, "duplex");
}

/* claims = { steps = N or function(net, p), tcd = N or function(net, p), contention_free =
 * bool, time_step_optimal = bool }: evaluated for c's net and parameters.  Results: have,
 * value (steps); have2, value2 (tcd); n's bits 0/1 contention_free given/value, 2/3
 * time_step_optimal given/value. */
static int read_claims(lua_State *L, Call *c, int t)
{
    c->have = c->have2 = false;
    c->n = 0;
    if (t != LUA_TTABLE)
        return 0;
    int tab = lua_gettop(L);
    static const char *const num[2] = {"steps", "tcd"};
    for (int k = 0; k < 2; k++) {
        int ty = lua_getfield(L, tab, num[k]);
        if (ty == LUA_TFUNCTION) {
            mc_push_net(L, c->net);
            push_params(L, c->sa, c->a);
            lua_call(L, 2, 1);
            ty = lua_type(L, -1);
        }
        if (ty == LUA_TNUMBER) {
            *(k ? &c->have2 : &c->have) = true;
            *(k ? &c->value2 : &c->value) = lua_tonumber(L, -1);
        } else if (ty != LUA_TNIL) {
            return luaL_error(L, "claims.%s must be a number or a function(net, p) returning "
                              "one (got %s)", num[k], luaL_typename(L, -1));
        }
        lua_settop(L, tab);
    }
    static const char *const flag[2] = {"contention_free", "time_step_optimal"};
    for (int k = 0; k < 2; k++) {
        int ty = lua_getfield(L, tab, flag[k]);
        if (ty == LUA_TBOOLEAN)
            c->n |= (lua_Integer)(1 | (lua_toboolean(L, -1) ? 2 : 0)) << (2 * k);
        else if (ty != LUA_TNIL)
            return luaL_error(L, "claims.%s must be true or false (got %s)", flag[k],
                              luaL_typename(L, -1));
        lua_settop(L, tab);
    }
    return 0;
}

static int trampoline(lua_State *L)
{
    Call *c = lua_touserdata(L, 1);
    lua_settop(L, 0);
    lua_rawgeti(L, LUA_REGISTRYINDEX, c->ref_table);
    int t = lua_getfield(L, 1, c->field);                       /* 2 */
    bool chunks = strcmp(c->field, "chunks") == 0;
    if (strcmp(c->field, "claims") == 0)
        return read_claims(L, c, t);
    if (t != LUA_TFUNCTION) {
        if (chunks && t == LUA_TNUMBER) {
            int isnum;
            c->n = lua_tointegerx(L, 2, &isnum);
            c->have = isnum != 0;
        }
        return 0;   /* an optional function that is not there */
    }
    if (c->sched) {
        mc_push_net(L, sched_net(c->sched));                       /* 3 */
        mc_push_sched(L, c->sched, 3);                             /* 4 */
        lua_pushvalue(L, 2);
        lua_pushvalue(L, 4);
        lua_pushvalue(L, 3);
        push_params(L, c->sa, c->a);
        lua_pushinteger(L, sched_source(c->sched) >= 0 ? sched_source(c->sched)
                                                       : c->a->source);
        lua_call(L, 4, 0);
        c->ok = true;
        return 0;
    }
    mc_push_net(L, c->net);                                        /* 3 */
    lua_pushvalue(L, 2);
    lua_pushvalue(L, 3);
    push_params(L, c->sa, c->a);
    int nargs = 2;
    if (c->cost) {
        push_cost(L, c->cost);
        lua_pushstring(L, c->a->async ? "async" : "lockstep");   /* --timing */
        lua_setfield(L, -2, "timing");
        nargs++;
    }
    lua_call(L, nargs, 2);
    if (chunks) {
        int isnum;
        c->n = lua_tointegerx(L, -2, &isnum);
        c->have = isnum != 0;
    } else if (strcmp(c->field, "sizes") == 0) {
        /* true, or false [, "why"]: anything else is a mistake, said so (not guessed at) */
        if (lua_type(L, -2) != LUA_TBOOLEAN)
            return luaL_error(L, "sizes must return true, or false and a reason (got %s)",
                              luaL_typename(L, -2));
        c->ok = lua_toboolean(L, -2);
        const char *m = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
        snprintf(c->msg, sizeof c->msg, "%s", m ? m : "its sizes() says no");
    } else {
        c->have = lua_type(L, -2) == LUA_TNUMBER;
        if (c->have)
            c->value = lua_tonumber(L, -2);
        c->have2 = lua_type(L, -1) == LUA_TNUMBER;
        if (c->have2)
            c->value2 = lua_tonumber(L, -1);
    }
    return 0;
}

static int sa_read(lua_State *L);

/* ---- in the script's child process ---- */

static LuaBox *child_box;        /* the child's sandbox, with the script loaded */
static ScriptAlgo child_meta;    /* its table as read there */

/* The start: load the script (quietly when it is a restart: its top level already printed)
 * and describe it. */
static bool serve_load(ScriptAlgo *sa, Wire *out, char *err, size_t errlen)
{
    child_box = box_new(sa->path, err, errlen);
    if (!child_box)
        return false;
    box_set_quiet(child_box, sa->loaded);
    if (!box_dofile(child_box, sa->path, err, errlen))
        return false;
    box_set_quiet(child_box, false);
    ScriptAlgo *m = &child_meta;
    lua_State *L = box_state(child_box);
    lua_pushcfunction(L, sa_read);
    lua_pushlightuserdata(L, m);
    lua_rotate(L, -3, 2);
    if (!box_call(child_box, 2, 0, "load", err, errlen))
        return false;
    wire_str(out, m->name);
    wire_str(out, m->summary);
    wire_str(out, m->ref);
    wire_i64(out, m->def.nets);
    wire_i64(out, m->def.flags);
    wire_i64(out, m->chunks_const);
    wire_i64(out, m->chunks_fn);
    wire_i64(out, m->def.nparams);
    for (int i = 0; i < m->def.nparams; i++) {
        const AlgoParam *p = &m->params[i];
        wire_str(out, p->name);
        wire_str(out, p->help);
        wire_f64(out, p->def);
        wire_f64(out, p->min);
        wire_f64(out, p->max);
    }
    return true;
}

/* The steps a build made, for the parent to replay (sched_replay): the schedule's own compact
 * layout, in bulk (sched-pack.h). */
static void wire_sink(void *ud, const void *p, size_t n) { wire_put(ud, p, n); }

static void put_sched(Wire *w, const Sched *s)
{
    /* room for the transfers at once (16 bytes each as stored), not by doubling */
    wire_reserve(w, (size_t)sched_total_transfers(s) * 16 + (size_t)sched_nsteps(s) * 64);
    if (!sched_pack(s, wire_sink, w))
        w->oom = true;
}

/* One call: the request names the function and carries its arguments. */
static bool serve_call(ScriptAlgo *sa, const Wire *req, Wire *out, char *err, size_t errlen)
{
    WireIn r = wire_in(req);
    /* the parameters as this child read them (the parent's order: it got them from here) */
    Call c = {.sa = &child_meta, .box = child_box, .ref_table = child_meta.ref_table};
    const char *field = wire_get_str(&r);
    static const char *const fields[] = {"sizes", "chunks", "build", "predict", "claims"};
    for (size_t i = 0; i < 5; i++)
        if (strcmp(field, fields[i]) == 0)
            c.field = fields[i];
    /* what a function the script does not have means: fits, 1 chunk, no closed form */
    c.ok = true;
    c.n = 1;
    c.have = c.field == fields[1];
    char nerr[256];
    Net *net = net_parse(wire_get_str(&r), nerr, sizeof nerr);
    AlgoArgs a;
    memset(&a, 0, sizeof a);
    CostParams cost;
    bool have_cost = false, ok = false;
    Sched *s = NULL;
    if (net && c.field && !r.bad) {
        memcpy(&a, r.p, r.left >= sizeof a ? sizeof a : 0);
        r.p += sizeof a, r.left -= r.left >= sizeof a ? sizeof a : r.left;
        int64_t nsrc = wire_get_i64(&r);
        a.sources = NULL;
        if (nsrc > 0 && (uint64_t)nsrc <= r.left / sizeof(int32_t)) {
            int32_t *sv = malloc((size_t)nsrc * sizeof *sv);   /* the child's, till it ends */
            if (sv)
                memcpy(sv, r.p, (size_t)nsrc * sizeof *sv);
            a.sources = sv;
            r.p += (size_t)nsrc * sizeof *sv, r.left -= (size_t)nsrc * sizeof *sv;
        }
        if (!a.sources)
            a.nsources = 0;
        have_cost = wire_get_i64(&r) != 0;
        if (have_cost && r.left >= sizeof cost) {
            memcpy(&cost, r.p, sizeof cost);
            r.p += sizeof cost, r.left -= sizeof cost;
        }
        if (c.field == fields[2]) {
            int64_t nchunks = wire_get_i64(&r), ngiven = wire_get_i64(&r);
            s = sched_new(net, (uint32_t)nchunks, a.bytes);
            for (int64_t i = 0; s && i < ngiven && !r.bad; i++) {
                int64_t node = wire_get_i64(&r), lo = wire_get_i64(&r), hi = wire_get_i64(&r);
                sched_give(s, (int32_t)node, (uint32_t)lo, (uint32_t)hi);
            }
            c.sched = s;
        }
        ok = !r.bad && (c.field != fields[2] || s);
    }
    if (!ok) {
        snprintf(err, errlen, "%s: a malformed request (%s)", sa->path, net ? "" : nerr);
    } else {
        c.net = net;
        c.a = &a;
        c.cost = have_cost ? &cost : NULL;
        lua_State *L = box_state(child_box);
        lua_pushcfunction(L, trampoline);
        lua_pushlightuserdata(L, &c);
        ok = box_call(child_box, 1, 0, c.field, err, errlen);
    }
    if (ok) {
        wire_i64(out, c.ok);
        wire_i64(out, c.have);
        wire_i64(out, c.n);
        wire_f64(out, c.value);
        wire_i64(out, c.have2);
        wire_f64(out, c.value2);
        wire_str(out, c.msg);
        if (s)
            put_sched(out, s);
    }
    sched_free(s);
    net_free(net);
    free((void *)a.sources);
    box_reset_account(child_box);
    return ok;
}

static bool serve(void *ud, const Wire *req, Wire *out, char *err, size_t errlen)
{
    return req ? serve_call(ud, req, out, err, errlen) : serve_load(ud, out, err, errlen);
}

/* ---- in meshcast's process ---- */

static bool sched_replay(Sched *s, WireIn *r)
{
    /* the holdings the parent set are the child's first ones: not given twice */
    size_t used = 0;
    if (!r->bad)
        sched_unpack(s, r->p, r->left, sched_ngiven(s), &used);
    r->p += used;
    r->left -= used;
    if (!sched_error(s) && r->bad)
        sched_fail(s, "the script's schedule came back malformed");
    return !sched_error(s);
}

static bool start_child(ScriptAlgo *sa, Wire *desc, char *err, size_t errlen)
{
    sa->child = child_start(sa->path, "load", serve, sa, desc, err, errlen);
    return sa->child != NULL;
}

/* Run one function of the script in its child (restarted if a limit killed it); its results
 * come back into c. */
static bool run_call(Call *c, char *err, size_t errlen)
{
    ScriptAlgo *sa = c->sa;
    if (!child_alive(sa->child)) {
        child_stop(sa->child);
        Wire desc;
        if (!start_child(sa, &desc, err, errlen))
            return false;
        wire_free(&desc);
    }
    Wire q = {0};
    wire_str(&q, c->field);
    const Net *net = c->sched ? sched_net(c->sched) : c->net;
    wire_str(&q, net_spec(net));
    wire_put(&q, c->a, sizeof *c->a);
    /* the sources array AlgoArgs points to crosses by value */
    int64_t nsrc = c->a->sources && c->a->nsources > 0 ? c->a->nsources : 0;
    wire_i64(&q, nsrc);
    wire_put(&q, c->a->sources, (size_t)nsrc * sizeof *c->a->sources);
    wire_i64(&q, c->cost != NULL);
    if (c->cost)
        wire_put(&q, c->cost, sizeof *c->cost);
    if (c->sched) {
        wire_i64(&q, sched_nchunks(c->sched));
        size_t ng = sched_ngiven(c->sched);
        wire_i64(&q, (int64_t)ng);
        for (size_t i = 0; i < ng; i++) {
            int32_t node;
            ChunkRange r;
            sched_given(c->sched, i, &node, &r);
            wire_i64(&q, node);
            wire_i64(&q, r.lo);
            wire_i64(&q, r.hi);
        }
    }
    Wire w;
    bool ok = !q.oom && child_request(sa->child, c->field, &q, &w, err, errlen);
    wire_free(&q);
    if (!ok)
        return false;
    WireIn r = wire_in(&w);
    c->ok = wire_get_i64(&r) != 0;
    c->have = wire_get_i64(&r) != 0;
    c->n = wire_get_i64(&r);
    c->value = wire_get_f64(&r);
    c->have2 = wire_get_i64(&r) != 0;
    c->value2 = wire_get_f64(&r);
    snprintf(c->msg, sizeof c->msg, "%s", wire_get_str(&r));
    ok = !r.bad;
    if (ok && c->sched)
        ok = sched_replay(c->sched, &r);
    wire_free(&w);
    if (!ok && !c->sched)
        snprintf(err, errlen, "%s: the script's answer came back malformed", sa->path);
    else if (!ok)
        snprintf(err, errlen, "%s", sched_error(c->sched));
    return ok;
}

static bool sa_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                    size_t errlen)
{
    Call c = {.sa = sa_of(d), .field = "sizes", .net = net, .a = a, .ok = true};
    char e[1024];
    if (!run_call(&c, e, sizeof e)) {
        snprintf(err, errlen, "%s", e);
        return false;
    }
    if (!c.ok)
        snprintf(err, errlen, "%s does not run on %s: %s", d->name, net_spec(net), c.msg);
    return c.ok;
}

static uint32_t sa_nchunks(const AlgoDef *d, const Net *net, const AlgoArgs *a)
{
    ScriptAlgo *sa = sa_of(d);
    sa->pending[0] = '\0';
    if (!sa->chunks_fn)
        return sa->chunks_const > 0 ? (uint32_t)sa->chunks_const : 1;
    Call c = {.sa = sa, .field = "chunks", .net = net, .a = a, .n = 1, .have = true};
    if (!run_call(&c, sa->pending, sizeof sa->pending))
        return 1;   /* build() reports the error */
    if (!c.have || c.n < 1 || c.n > (lua_Integer)UINT32_MAX - 1) {
        snprintf(sa->pending, sizeof sa->pending,
                 "%s: chunks must be a whole number >= 1 (or a function returning one)",
                 sa->path);
        return 1;
    }
    return (uint32_t)c.n;
}

static bool sa_build(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    ScriptAlgo *sa = sa_of(d);
    if (sa->pending[0]) {
        sched_fail(s, "%s", sa->pending);
        sa->pending[0] = '\0';
        return false;
    }
    Call c = {.sa = sa, .field = "build", .sched = s, .a = a};
    char err[1024];
    if (!run_call(&c, err, sizeof err)) {
        /* a stopped or failed build leaves the sched in any state: make it unusable */
        sched_fail(s, "%s", err);
        return false;
    }
    /* Steps opened by sched:step() and never used are not paid for: trailing empty steps
     * (no transfer, no local operation) are dropped (docs/lua-api.md). */
    int32_t n = sched_nsteps(s);
    while (n > 0 && sched_ntransfers(s, n - 1) == 0 && sched_nlocals(s, n - 1) == 0)
        n--;
    if (sched_error(s) == NULL && n < sched_nsteps(s))
        sched_truncate(s, n);
    return sched_error(s) == NULL;
}

static bool sa_predict(const AlgoDef *d, const Net *net, const AlgoArgs *a, const CostParams *p,
                       double *total)
{
    ScriptAlgo *sa = sa_of(d);
    Call c = {.sa = sa, .field = "predict", .net = net, .a = a, .cost = p};
    sa->predict_err[0] = '\0';
    if (!run_call(&c, sa->predict_err, sizeof sa->predict_err))
        return false;   /* an error, not "no closed form": algo_predict_error says which */
    if (!c.have)
        return false;
    if (!isfinite(c.value)) {
        snprintf(sa->predict_err, sizeof sa->predict_err, "%s: predict returned %g (a cost "
                 "must be a finite number, or nil when there is no closed form)", sa->path,
                 c.value);
        return false;
    }
    *total = c.value;
    return true;
}

static const char *sa_predict_error(const AlgoDef *d)
{
    ScriptAlgo *sa = sa_of(d);
    return sa->predict_err[0] ? sa->predict_err : NULL;
}

/* predict's second result: the closed form of the TCD (Cang & Wu), asked under the seidel
 * defaults (a TCD does not depend on the cost model). */
static bool sa_predict_tcd(const AlgoDef *d, const Net *net, const AlgoArgs *a, double *tcd)
{
    CostParams p;
    cost_defaults(&p, COST_SEIDEL);
    Call c = {.sa = sa_of(d), .field = "predict", .net = net, .a = a, .cost = &p};
    char err[512];
    if (!run_call(&c, err, sizeof err) || !c.have2 || !isfinite(c.value2))
        return false;
    *tcd = c.value2;
    return true;
}

static void sa_release(AlgoDef *d)
{
    ScriptAlgo *sa = sa_of(d);
    if (!sa)
        return;
    child_stop(sa->child);
    free(sa->path);
    free(sa->name);
    free(sa->summary);
    free(sa->ref);
    for (int i = 0; i < ALGO_MAXPARAM; i++) {
        free(sa->pnames[i]);
        free(sa->phelp[i]);
    }
    free(sa);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool valid_ident(const char *s)
{
    if (!s || !*s || (*s >= '0' && *s <= '9'))
        return false;
    for (const char *p = s; *p; p++)
        if (!(*p == '_' || (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') ||
              (*p >= 'A' && *p <= 'Z')))
            return false;
    return true;
}

/* Copy and check the returned table (run by box_call: errors are Lua errors, which the
 * message handler prefixes with the file name). */
/* Does the string at idx hold a control character (C0, DEL, or an embedded NUL)?  UTF-8
 * bytes (>= 0x80) are fine. */
static bool has_control(lua_State *L, int idx)
{
    size_t n;
    const unsigned char *p = (const unsigned char *)lua_tolstring(L, idx, &n);
    for (size_t i = 0; i < n; i++)
        if (p[i] < 0x20 || p[i] == 0x7f)
            return true;
    return false;
}

/* The fields an algorithm script's table may have (docs/lua-api.md). */
static const char *const script_fields[] = {"name", "summary", "ref", "nets", "params",
                                            "build", "chunks", "sizes", "predict", "pow2",
                                            "virtual", "stop", "op", "claims", NULL};

/* The line of file where `field =` first appears (not `==`), or 0: for the message naming a
 * misspelled field.  The file is read again as text; 0 when it cannot be. */
static int field_line(const char *file, const char *field)
{
    FILE *f = file ? fopen(file, "r") : NULL;
    if (!f)
        return 0;
    char line[1024];
    size_t n = strlen(field);
    int no = 0, found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        no++;
        for (char *p = strstr(line, field); p; p = strstr(p + 1, field)) {
            char before = p == line ? ' ' : p[-1];
            if (before == '_' || (before >= '0' && before <= '9') ||
                (before >= 'a' && before <= 'z') || (before >= 'A' && before <= 'Z'))
                continue;
            const char *q = p + n;
            while (*q == ' ' || *q == '\t')
                q++;
            if (q[0] == '=' && q[1] != '=') {
                found = no;
                break;
            }
        }
    }
    fclose(f);
    return found;
}

/* Refuse a field the table has that meshcast does not know (a misspelling such as `chunk`
 * for `chunks` would otherwise be silently ignored): its name, the line where it seems to be
 * set, and the nearest valid name. */
static void check_fields(lua_State *L, int t, const char *file)
{
    const char *nn, *k = mc_unknown_field(L, t, script_fields, &nn);
    if (!k)
        return;
    char shown[48], near[64] = "", where[32] = "";
    text_quote(k, 40, shown, sizeof shown);
    if (nn)
        snprintf(near, sizeof near, " (did you mean '%s'?)", nn);
    int line = field_line(file, k);
    if (line > 0)
        snprintf(where, sizeof where, "line %d: ", line);
    luaL_error(L, "%sunknown field '%s' in the returned table%s; the fields are name, "
               "summary, ref, nets, params, build, chunks, sizes, predict, pow2, virtual, "
               "stop, op, claims", where, shown, near);
}

static int sa_read(lua_State *L)
{
    ScriptAlgo *sa = lua_touserdata(L, 1);
    const char *file = box_name(box_of(L));
    int t = 2;
    lua_settop(L, 2);
    if (lua_type(L, t) != LUA_TTABLE) {
        return luaL_error(L, "an algorithm script must return a table {name=, nets=, "
                 "build=, ...}, got %s", luaL_typename(L, t));
    }
    if (lua_getfield(L, t, "name") != LUA_TSTRING || lua_rawlen(L, -1) == 0 ||
        lua_rawlen(L, -1) > 64) {
        return luaL_error(L, "the returned table needs name = \"...\" (a non-empty "
                 "string, at most 64 characters)");
    }
    if (has_control(L, -1))
        return luaL_error(L, "name must be printable: no newline, tab or other control "
                 "character (it is printed in one-line tables and schedule lines)");
    sa->name = strdup(lua_tostring(L, -1));
    lua_pop(L, 1);
    int ty = lua_getfield(L, t, "summary");
    if (ty != LUA_TNIL && ty != LUA_TSTRING) {
        return luaL_error(L, "summary must be a string");
    }
    if (ty == LUA_TSTRING && has_control(L, -1))
        return luaL_error(L, "summary must be one printable line: no newline, tab or other "
                 "control character");
    sa->summary = strdup(ty == LUA_TSTRING ? lua_tostring(L, -1) : "");
    lua_pop(L, 1);
    ty = lua_getfield(L, t, "ref");
    if (ty != LUA_TNIL && ty != LUA_TSTRING) {
        return luaL_error(L, "ref must be a string");
    }
    char refbuf[512];
    snprintf(refbuf, sizeof refbuf, "%s%s%s", ty == LUA_TSTRING ? lua_tostring(L, -1) : "",
             ty == LUA_TSTRING ? "; " : "", file);
    sa->ref = strdup(refbuf);
    lua_pop(L, 1);
    if (!sa->name || !sa->summary || !sa->ref) {
        return luaL_error(L, "out of memory");
    }
    /* nets */
    if (lua_getfield(L, t, "nets") != LUA_TTABLE || lua_rawlen(L, -1) == 0) {
        return luaL_error(L, "nets must be a list of net kinds, e.g. nets = { \"array\", "
                 "\"mesh\" }");
    }
    unsigned nets = 0;
    for (lua_Integer i = 1; i <= (lua_Integer)lua_rawlen(L, -1); i++) {
        lua_rawgeti(L, -1, i);
        NetKind k;
        if (lua_type(L, -1) != LUA_TSTRING || !net_kind_parse(lua_tostring(L, -1), &k)) {
            return luaL_error(L, "nets[%d] is not a net kind (array, ring, mesh, torus, full, hxbar)", (int)i);
        }
        nets |= 1u << k;
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    sa->def.nets = nets;
    /* params */
    ty = lua_getfield(L, t, "params");
    if (ty != LUA_TNIL && ty != LUA_TTABLE) {
        return luaL_error(L, "params must be a table { name = default, ... }");
    }
    int np = 0;
    if (ty == LUA_TTABLE) {
        int pt = lua_gettop(L);
        lua_pushnil(L);
        while (lua_next(L, pt)) {
            if (lua_type(L, -2) != LUA_TSTRING || !valid_ident(lua_tostring(L, -2))) {
                return luaL_error(L, "params: every key must be a parameter name");
            }
            const char *pn = lua_tostring(L, -2);
            if (strcmp(pn, "nu") == 0 || strcmp(pn, "bytes") == 0) {
                return luaL_error(L, "params: '%s' is given to every script (p.%s); do "
                         "not declare it", pn, pn);
            }
            if (np == ALGO_MAXPARAM) {
                return luaL_error(L, "params: at most %d parameters",
                         ALGO_MAXPARAM);
            }
            if (!(sa->pnames[np++] = strdup(pn))) {
                return luaL_error(L, "out of memory");
            }
            lua_pop(L, 1);
        }
        qsort(sa->pnames, (size_t)np, sizeof sa->pnames[0], cmp_str);
        for (int i = 0; i < np; i++) {
            AlgoParam *p = &sa->params[i];
            p->name = sa->pnames[i];
            p->min = -HUGE_VAL;
            p->max = HUGE_VAL;
            p->help = "";
            lua_getfield(L, pt, sa->pnames[i]);
            if (lua_type(L, -1) == LUA_TNUMBER) {
                p->def = lua_tonumber(L, -1);
            } else if (lua_type(L, -1) == LUA_TTABLE) {
                lua_rawgeti(L, -1, 1);
                if (lua_type(L, -1) != LUA_TNUMBER) {
                    lua_pop(L, 1);
                    lua_getfield(L, -1, "default");
                }
                if (lua_type(L, -1) != LUA_TNUMBER) {
                    return luaL_error(L, "params.%s needs a default number",
                             sa->pnames[i]);
                }
                p->def = lua_tonumber(L, -1);
                lua_pop(L, 1);
                if (lua_getfield(L, -1, "min") == LUA_TNUMBER)
                    p->min = lua_tonumber(L, -1);
                lua_pop(L, 1);
                if (lua_getfield(L, -1, "max") == LUA_TNUMBER)
                    p->max = lua_tonumber(L, -1);
                lua_pop(L, 1);
                if (lua_getfield(L, -1, "help") == LUA_TSTRING) {
                    if (!(sa->phelp[i] = strdup(lua_tostring(L, -1))))
                        return luaL_error(L, "out of memory");
                    p->help = sa->phelp[i];
                }
                lua_pop(L, 1);
            } else {
                return luaL_error(L, "params.%s must be a number (its default) or "
                         "{default, min=, max=, help=}", sa->pnames[i]);
            }
            if (!isfinite(p->def) || p->def < p->min || p->def > p->max) {
                return luaL_error(L, "params.%s: default outside min..max",
                         sa->pnames[i]);
            }
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
    sa->def.params = sa->params;
    sa->def.nparams = np;
    /* functions */
    if (lua_getfield(L, t, "build") != LUA_TFUNCTION) {
        return luaL_error(L, "the returned table needs build = function(sched, net, p, "
                 "source) ... end");
    }
    lua_pop(L, 1);
    ty = lua_getfield(L, t, "chunks");
    if (ty != LUA_TNIL && ty != LUA_TFUNCTION && ty != LUA_TNUMBER) {
        return luaL_error(L, "chunks must be a number or function(net, p)");
    }
    sa->chunks_fn = ty == LUA_TFUNCTION;
    if (ty == LUA_TNUMBER) {
        int isnum;
        lua_Integer n = lua_tointegerx(L, -1, &isnum);
        if (!isnum || n < 1 || n > (lua_Integer)UINT32_MAX - 1)
            return luaL_error(L, "chunks must be a whole number >= 1 (or a function returning "
                              "one)");
        sa->chunks_const = n;
    }
    lua_pop(L, 1);
    static const char *const optfn[] = {"sizes", "predict"};
    for (size_t i = 0; i < 2; i++) {
        ty = lua_getfield(L, t, optfn[i]);
        lua_pop(L, 1);
        if (ty != LUA_TNIL && ty != LUA_TFUNCTION) {
            return luaL_error(L, "%s must be a function", optfn[i]);
        }
    }
    unsigned flags = 0;
    if (lua_getfield(L, t, "pow2") != LUA_TNIL && lua_toboolean(L, -1))
        flags |= ALGO_POW2;
    lua_pop(L, 1);
    if (lua_getfield(L, t, "virtual") != LUA_TNIL && lua_toboolean(L, -1))
        flags |= ALGO_VIRTUAL;
    lua_pop(L, 1);
    /* stop = true: an s-to-p algorithm (any number of sources, each its own message) */
    if (lua_getfield(L, t, "stop") != LUA_TNIL && lua_toboolean(L, -1))
        flags |= ALGO_STOP;
    lua_pop(L, 1);
    /* op = "reduce": build() writes a reduction towards `source` (every node starts with its
     * contribution to every chunk), checked by the reduction checker, not as a broadcast */
    ty = lua_getfield(L, t, "op");
    if (ty != LUA_TNIL) {
        const char *op = ty == LUA_TSTRING ? lua_tostring(L, -1) : "";
        if (strcmp(op, "reduce") == 0)
            flags |= ALGO_REDUCE;
        else if (strcmp(op, "broadcast") != 0)
            return luaL_error(L, "op must be \"broadcast\" (the default) or \"reduce\"");
    }
    lua_pop(L, 1);
    if ((flags & ALGO_REDUCE) && (flags & (ALGO_POW2 | ALGO_VIRTUAL | ALGO_STOP)))
        return luaL_error(L, "op = \"reduce\" cannot be combined with %s (a reduction is "
                          "built whole, towards one root)", (flags & ALGO_STOP) ? "stop"
                          : (flags & ALGO_POW2) ? "pow2" : "virtual");
    sa->def.flags = flags;
    check_fields(L, t, file);
    ty = lua_getfield(L, t, "claims");
    if (ty != LUA_TNIL && ty != LUA_TTABLE)
        return luaL_error(L, "claims must be a table { contention_free =, steps =, tcd =, "
                          "time_step_optimal = }");
    if (ty == LUA_TTABLE) {
        static const char *const claim_names[] = {"contention_free", "steps", "tcd",
                                                  "time_step_optimal", NULL};
        int ct = lua_gettop(L);
        lua_pushnil(L);
        while (lua_next(L, ct) != 0) {
            lua_pop(L, 1);
            const char *k = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "?";
            bool known = false;
            for (size_t i = 0; claim_names[i]; i++)
                known |= strcmp(k, claim_names[i]) == 0;
            if (!known) {
                const char *nn = text_nearest(k, claim_names);
                char shown[48];
                return luaL_error(L, "unknown claim '%s'%s%s%s (claims: contention_free, "
                                  "steps, tcd, time_step_optimal)",
                                  text_quote(k, 40, shown, sizeof shown),
                                  nn ? " (did you mean '" : "", nn ? nn : "", nn ? "'?)" : "");
            }
        }
    }
    lua_pop(L, 1);
    lua_pushvalue(L, t);
    sa->ref_table = luaL_ref(L, LUA_REGISTRYINDEX);
    return 0;
}

static char *dup_str(WireIn *r)
{
    return strdup(wire_get_str(r));
}

static AlgoDef *script_load(const char *path, char *err, size_t errlen)
{
    ScriptAlgo *sa = calloc(1, sizeof *sa);
    if (!sa || !(sa->path = strdup(path))) {
        free(sa);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    sa->def.ud = sa;
    sa->def.release = sa_release;
    Wire w;
    if (!start_child(sa, &w, err, errlen)) {
        sa_release(&sa->def);
        return NULL;
    }
    sa->loaded = true;
    WireIn r = wire_in(&w);
    sa->name = dup_str(&r);
    sa->summary = dup_str(&r);
    sa->ref = dup_str(&r);
    sa->def.nets = (unsigned)wire_get_i64(&r);
    sa->def.flags = (unsigned)wire_get_i64(&r);
    sa->chunks_const = wire_get_i64(&r);
    sa->chunks_fn = wire_get_i64(&r) != 0;
    int64_t np = wire_get_i64(&r);
    bool ok = !r.bad && np >= 0 && np <= ALGO_MAXPARAM && sa->name && sa->summary && sa->ref;
    for (int i = 0; ok && i < np; i++) {
        AlgoParam *p = &sa->params[i];
        sa->pnames[i] = dup_str(&r);
        sa->phelp[i] = dup_str(&r);
        p->name = sa->pnames[i];
        p->help = sa->phelp[i];
        p->def = wire_get_f64(&r);
        p->min = wire_get_f64(&r);
        p->max = wire_get_f64(&r);
        ok = !r.bad && p->name && p->help;
    }
    wire_free(&w);
    if (!ok) {
        snprintf(err, errlen, "%s: the script's description came back malformed", path);
        sa_release(&sa->def);
        return NULL;
    }
    sa->def.params = sa->params;
    sa->def.nparams = (int)np;
    sa->def.name = sa->name;
    sa->def.summary = sa->summary;
    sa->def.ref = sa->ref;
    sa->def.fits = sa_fits;
    sa->def.nchunks = sa_nchunks;
    sa->def.build = sa_build;
    sa->def.predict = sa_predict;
    sa->def.predict_error = sa_predict_error;
    sa->def.predict_tcd = sa_predict_tcd;
    return &sa->def;
}

static bool looks_like_path(const char *name)
{
    size_t n = strlen(name);
    return strchr(name, '/') != NULL || (n > 4 && strcmp(name + n - 4, ".lua") == 0);
}

/* " (did you mean 'NAME'?)" among the built-ins and the scripts on the path, or "". */
static const char *algo_hint(const char *name, char *buf, size_t len)
{
    enum { MAXN = 512 };
    const char *names[MAXN + 1];
    char *scripts[256];
    size_t n = 0, ns = box_list("scripts", scripts, 256);
    for (size_t i = 0; i < algo_count() && n < MAXN; i++)
        names[n++] = algo_at(i)->name;
    for (size_t i = 0; i < ns && n < MAXN; i++)
        names[n++] = scripts[i];
    names[n] = NULL;
    text_did_you_mean(name, names, buf, len);
    for (size_t i = 0; i < ns; i++)
        free(scripts[i]);
    return buf;
}

const AlgoDef *script_algo(const char *name, const Net *net, AlgoDef **owned, char *err,
                           size_t errlen)
{
    *owned = NULL;
    if (!name || !*name) {
        snprintf(err, errlen, "no algorithm given (meshcast list algorithms)");
        return NULL;
    }
    char *path = NULL;
    if (looks_like_path(name)) {
        /* "x.lua" with no '/' that is not in the current directory: a name on the path */
        if (!strchr(name, '/') && access(name, F_OK) != 0)
            path = box_find("scripts", name);
        if (!path)
            path = strdup(name);
    } else {
        const AlgoDef *d = algo_find(name, net);
        if (d)
            return d;
        if (algo_exists(name)) {
            char kinds[64] = "";
            unsigned all = 0;
            for (size_t i = 0; i < algo_count(); i++)
                if (strcmp(algo_at(i)->name, name) == 0)
                    all |= algo_at(i)->nets;
            snprintf(err, errlen, "algorithm '%s' does not run on %s (it runs on: %s)", name,
                     net ? net_kind_name(net_kind(net)) : "this net",
                     algo_nets_text(all, kinds, sizeof kinds));
            return NULL;
        }
        path = box_find("scripts", name);
        if (!path) {
            char hint[96];
            snprintf(err, errlen, "unknown algorithm '%s'%s (meshcast list algorithms; a script "
                     "is looked up as NAME.lua on $MESHCAST_PATH, ~/.config/meshcast, the "
                     "share directory)", name, algo_hint(name, hint, sizeof hint));
            return NULL;
        }
    }
    if (!path) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    AlgoDef *d = script_load(path, err, errlen);
    free(path);
    if (!d)
        return NULL;
    *owned = d;
    return d;
}

size_t script_list(char **out, size_t max) { return box_list("scripts", out, max); }

bool script_claims(const AlgoDef *d, const Net *net, const AlgoArgs *a, ScriptClaims *out,
                   char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (!d || d->release != sa_release)
        return true;   /* a built-in claims nothing */
    Call c = {.sa = sa_of(d), .field = "claims", .net = net, .a = a};
    if (!run_call(&c, err, errlen))
        return false;
    out->has_steps = c.have;
    out->steps = c.value;
    out->has_tcd = c.have2;
    out->tcd = c.value2;
    out->has_contention_free = c.n & 1;
    out->contention_free = (c.n & 2) != 0;
    out->has_time_step_optimal = (c.n & 4) != 0;
    out->time_step_optimal = (c.n & 8) != 0;
    return true;
}
