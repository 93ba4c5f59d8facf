/* script.c — resolving --algo: a built-in, a .lua path, or a script on the search path; a
 * Lua algorithm becomes a heap AlgoDef whose callbacks call into its own sandboxed state.
 *
 * The script's table (docs/lua-api.md):
 *   name, summary, ref (strings), nets (list of kinds), params ({k = default} or
 *   {k = {default, min=, max=, help=}}), chunks (number or function(net, p)),
 *   build(sched, net, p, source), and optionally sizes(net, p) -> ok [, message],
 *   predict(net, p, cost) -> number|nil, pow2 (bool: Seidel 5's fits for other sizes),
 *   virtual (bool: --fit virtual allowed).
 * `p` holds the parameters plus p.nu and p.bytes.
 */
#include "script.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "lua-mc.h"
#include "lua-sandbox.h"

typedef struct {
    AlgoDef def;
    LuaBox *box;
    char *name, *summary, *ref;
    AlgoParam params[ALGO_MAXPARAM];
    char *pnames[ALGO_MAXPARAM];
    int ref_table;          /* the script's table, in the registry */
    char pending[512];      /* an error from chunks(), reported by build() */
} ScriptAlgo;

static ScriptAlgo *sa_of(const AlgoDef *d) { return (ScriptAlgo *)d->ud; }

/* Push the field `name` of the script's table. */
static int push_field(ScriptAlgo *sa, const char *name)
{
    lua_State *L = box_state(sa->box);
    lua_rawgeti(L, LUA_REGISTRYINDEX, sa->ref_table);
    int t = lua_getfield(L, -1, name);
    lua_remove(L, -2);
    return t;
}

static void push_params(ScriptAlgo *sa, const AlgoArgs *a)
{
    lua_State *L = box_state(sa->box);
    lua_createtable(L, 0, sa->def.nparams + 2);
    lua_pushinteger(L, a->nu);
    lua_setfield(L, -2, "nu");
    lua_pushinteger(L, (lua_Integer)a->bytes);
    lua_setfield(L, -2, "bytes");
    for (int i = 0; i < sa->def.nparams; i++) {
        double v = a->param[i];
        if (v == floor(v) && fabs(v) < 9e15)
            lua_pushinteger(L, (lua_Integer)v);
        else
            lua_pushnumber(L, v);
        lua_setfield(L, -2, sa->pnames[i]);
    }
}

/* Call fn(net, p, extra...) with a net handle lent for the call.  Leaves nres results. */
static bool call_with_net(ScriptAlgo *sa, const char *field, const Net *net, const AlgoArgs *a,
                          int nres, char *err, size_t errlen)
{
    lua_State *L = box_state(sa->box);
    McNet *h = mc_push_net(L, net);
    int hidx = lua_gettop(L);
    push_field(sa, field);
    lua_pushvalue(L, hidx);
    push_params(sa, a);
    bool ok = box_call(sa->box, 2, nres, field, err, errlen);
    mc_net_invalidate(h);
    lua_remove(L, hidx);
    return ok;
}

static bool sa_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                    size_t errlen)
{
    ScriptAlgo *sa = sa_of(d);
    lua_State *L = box_state(sa->box);
    if (push_field(sa, "sizes") != LUA_TFUNCTION) {
        lua_pop(L, 1);
        return true;
    }
    lua_pop(L, 1);
    if (!call_with_net(sa, "sizes", net, a, 2, err, errlen))
        return false;
    bool ok = lua_toboolean(L, -2);
    if (!ok) {
        const char *m = lua_tostring(L, -1);
        if (!m && lua_type(L, -2) == LUA_TSTRING)
            m = lua_tostring(L, -2);
        snprintf(err, errlen, "%s does not run on %s: %s", d->name, net_spec(net),
                 m ? m : "its sizes() says no");
    }
    lua_pop(L, 2);
    return ok;
}

static uint32_t sa_nchunks(const AlgoDef *d, const Net *net, const AlgoArgs *a)
{
    ScriptAlgo *sa = sa_of(d);
    lua_State *L = box_state(sa->box);
    sa->pending[0] = '\0';
    int t = push_field(sa, "chunks");
    if (t == LUA_TNIL) {
        lua_pop(L, 1);
        return 1;
    }
    if (t == LUA_TFUNCTION) {
        lua_pop(L, 1);
        if (!call_with_net(sa, "chunks", net, a, 1, sa->pending, sizeof sa->pending))
            return 1;   /* build() reports the error */
    }
    int isnum;
    lua_Integer n = lua_tointegerx(L, -1, &isnum);
    lua_pop(L, 1);
    if (!isnum || n < 1 || n > (lua_Integer)UINT32_MAX - 1) {
        snprintf(sa->pending, sizeof sa->pending,
                 "%s: chunks must be a whole number >= 1 (or a function returning one)",
                 box_name(sa->box));
        return 1;
    }
    return (uint32_t)n;
}

static bool sa_build(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    ScriptAlgo *sa = sa_of(d);
    if (sa->pending[0]) {
        sched_fail(s, "%s", sa->pending);
        sa->pending[0] = '\0';
        return false;
    }
    lua_State *L = box_state(sa->box);
    int top = lua_gettop(L);
    McNet *hn = mc_push_net(L, sched_net(s));
    int nidx = lua_gettop(L);
    McSched *hs = mc_push_sched(L, s, nidx);
    int sidx = lua_gettop(L);
    push_field(sa, "build");
    lua_pushvalue(L, sidx);
    lua_pushvalue(L, nidx);
    push_params(sa, a);
    lua_pushinteger(L, sched_source(s) >= 0 ? sched_source(s) : a->source);
    char err[1024];
    bool ok = box_call(sa->box, 4, 0, "build", err, sizeof err);
    mc_sched_invalidate(hs);
    mc_net_invalidate(hn);
    lua_settop(L, top);
    /* a stopped or failed build leaves the sched in any state: make it unusable */
    if (!ok) {
        sched_fail(s, "%s", err);
        return false;
    }
    /* release what the build left behind */
    lua_gc(L, LUA_GCCOLLECT);
    return sched_error(s) == NULL;
}

static void push_cost(lua_State *L, const CostParams *p)
{
    lua_createtable(L, 0, 12);
    lua_pushstring(L, cost_model_name(p->model));
    lua_setfield(L, -2, "model");
#define F(n) lua_pushnumber(L, p->n); lua_setfield(L, -2, #n);
    F(a) F(b) F(rho) F(t) F(beta) F(alpha) F(delta) F(tau)
#undef F
    lua_pushinteger(L, p->nu);
    lua_setfield(L, -2, "nu");
    lua_pushinteger(L, p->duplex);
    lua_setfield(L, -2, "duplex");
}

static bool sa_predict(const AlgoDef *d, const Net *net, const AlgoArgs *a, const CostParams *p,
                       double *total)
{
    ScriptAlgo *sa = sa_of(d);
    lua_State *L = box_state(sa->box);
    if (push_field(sa, "predict") != LUA_TFUNCTION) {
        lua_pop(L, 1);
        return false;
    }
    McNet *h = mc_push_net(L, net);
    int hidx = lua_gettop(L);
    lua_pushvalue(L, hidx - 1);
    lua_pushvalue(L, hidx);
    push_params(sa, a);
    push_cost(L, p);
    char err[512];
    bool ok = box_call(sa->box, 3, 1, "predict", err, sizeof err);
    mc_net_invalidate(h);
    if (!ok) {
        lua_pop(L, 2);
        return false;
    }
    bool have = lua_type(L, -1) == LUA_TNUMBER;
    if (have)
        *total = lua_tonumber(L, -1);
    lua_pop(L, 3);
    return have && isfinite(*total);
}

static void sa_release(AlgoDef *d)
{
    ScriptAlgo *sa = sa_of(d);
    if (!sa)
        return;
    box_free(sa->box);
    free(sa->name);
    free(sa->summary);
    free(sa->ref);
    for (int i = 0; i < ALGO_MAXPARAM; i++)
        free(sa->pnames[i]);
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

/* Copy and check the returned table; on failure one line in err. */
static bool sa_read(ScriptAlgo *sa, char *err, size_t errlen)
{
    lua_State *L = box_state(sa->box);
    const char *file = box_name(sa->box);
    int t = lua_gettop(L);
    if (lua_type(L, t) != LUA_TTABLE) {
        snprintf(err, errlen, "%s: an algorithm script must return a table {name=, nets=, "
                 "build=, ...}, got %s", file, luaL_typename(L, t));
        return false;
    }
    if (lua_getfield(L, t, "name") != LUA_TSTRING || lua_rawlen(L, -1) == 0 ||
        lua_rawlen(L, -1) > 64) {
        snprintf(err, errlen, "%s: the returned table needs name = \"...\" (a non-empty "
                 "string, at most 64 characters)", file);
        return false;
    }
    sa->name = strdup(lua_tostring(L, -1));
    lua_pop(L, 1);
    int ty = lua_getfield(L, t, "summary");
    if (ty != LUA_TNIL && ty != LUA_TSTRING) {
        snprintf(err, errlen, "%s: summary must be a string", file);
        return false;
    }
    sa->summary = strdup(ty == LUA_TSTRING ? lua_tostring(L, -1) : "");
    lua_pop(L, 1);
    ty = lua_getfield(L, t, "ref");
    if (ty != LUA_TNIL && ty != LUA_TSTRING) {
        snprintf(err, errlen, "%s: ref must be a string", file);
        return false;
    }
    char refbuf[512];
    snprintf(refbuf, sizeof refbuf, "%s%s%s", ty == LUA_TSTRING ? lua_tostring(L, -1) : "",
             ty == LUA_TSTRING ? "; " : "", file);
    sa->ref = strdup(refbuf);
    lua_pop(L, 1);
    if (!sa->name || !sa->summary || !sa->ref) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    /* nets */
    if (lua_getfield(L, t, "nets") != LUA_TTABLE || lua_rawlen(L, -1) == 0) {
        snprintf(err, errlen, "%s: nets must be a list of net kinds, e.g. nets = { \"array\", "
                 "\"mesh\" }", file);
        return false;
    }
    unsigned nets = 0;
    for (lua_Integer i = 1; i <= (lua_Integer)lua_rawlen(L, -1); i++) {
        lua_rawgeti(L, -1, i);
        NetKind k;
        if (lua_type(L, -1) != LUA_TSTRING || !net_kind_parse(lua_tostring(L, -1), &k)) {
            snprintf(err, errlen, "%s: nets[%d] is not a net kind (array, ring, mesh, torus)",
                     file, (int)i);
            return false;
        }
        nets |= 1u << k;
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    sa->def.nets = nets;
    /* params */
    ty = lua_getfield(L, t, "params");
    if (ty != LUA_TNIL && ty != LUA_TTABLE) {
        snprintf(err, errlen, "%s: params must be a table { name = default, ... }", file);
        return false;
    }
    int np = 0;
    if (ty == LUA_TTABLE) {
        int pt = lua_gettop(L);
        lua_pushnil(L);
        while (lua_next(L, pt)) {
            if (lua_type(L, -2) != LUA_TSTRING || !valid_ident(lua_tostring(L, -2))) {
                snprintf(err, errlen, "%s: params: every key must be a parameter name", file);
                return false;
            }
            const char *pn = lua_tostring(L, -2);
            if (strcmp(pn, "nu") == 0 || strcmp(pn, "bytes") == 0) {
                snprintf(err, errlen, "%s: params: '%s' is given to every script (p.%s); do "
                         "not declare it", file, pn, pn);
                return false;
            }
            if (np == ALGO_MAXPARAM) {
                snprintf(err, errlen, "%s: params: at most %d parameters", file,
                         ALGO_MAXPARAM);
                return false;
            }
            if (!(sa->pnames[np++] = strdup(pn))) {
                snprintf(err, errlen, "out of memory");
                return false;
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
                    snprintf(err, errlen, "%s: params.%s needs a default number", file,
                             sa->pnames[i]);
                    return false;
                }
                p->def = lua_tonumber(L, -1);
                lua_pop(L, 1);
                if (lua_getfield(L, -1, "min") == LUA_TNUMBER)
                    p->min = lua_tonumber(L, -1);
                lua_pop(L, 1);
                if (lua_getfield(L, -1, "max") == LUA_TNUMBER)
                    p->max = lua_tonumber(L, -1);
                lua_pop(L, 1);
                /* help strings live in the Lua state, which outlives the def's use */
                if (lua_getfield(L, -1, "help") == LUA_TSTRING) {
                    lua_pushvalue(L, -1);
                    luaL_ref(L, LUA_REGISTRYINDEX);   /* pin the string */
                    p->help = lua_tostring(L, -1);
                }
                lua_pop(L, 1);
            } else {
                snprintf(err, errlen, "%s: params.%s must be a number (its default) or "
                         "{default, min=, max=, help=}", file, sa->pnames[i]);
                return false;
            }
            if (!isfinite(p->def) || p->def < p->min || p->def > p->max) {
                snprintf(err, errlen, "%s: params.%s: default outside min..max", file,
                         sa->pnames[i]);
                return false;
            }
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
    sa->def.params = sa->params;
    sa->def.nparams = np;
    /* functions */
    if (lua_getfield(L, t, "build") != LUA_TFUNCTION) {
        snprintf(err, errlen, "%s: the returned table needs build = function(sched, net, p, "
                 "source) ... end", file);
        return false;
    }
    lua_pop(L, 1);
    ty = lua_getfield(L, t, "chunks");
    if (ty != LUA_TNIL && ty != LUA_TFUNCTION && ty != LUA_TNUMBER) {
        snprintf(err, errlen, "%s: chunks must be a number or function(net, p)", file);
        return false;
    }
    lua_pop(L, 1);
    static const char *const optfn[] = {"sizes", "predict"};
    for (size_t i = 0; i < 2; i++) {
        ty = lua_getfield(L, t, optfn[i]);
        lua_pop(L, 1);
        if (ty != LUA_TNIL && ty != LUA_TFUNCTION) {
            snprintf(err, errlen, "%s: %s must be a function", file, optfn[i]);
            return false;
        }
    }
    unsigned flags = 0;
    if (lua_getfield(L, t, "pow2") != LUA_TNIL && lua_toboolean(L, -1))
        flags |= ALGO_POW2;
    lua_pop(L, 1);
    if (lua_getfield(L, t, "virtual") != LUA_TNIL && lua_toboolean(L, -1))
        flags |= ALGO_VIRTUAL;
    lua_pop(L, 1);
    sa->def.flags = flags;
    lua_pushvalue(L, t);
    sa->ref_table = luaL_ref(L, LUA_REGISTRYINDEX);
    lua_settop(L, t - 1);
    return true;
}

static AlgoDef *script_load(const char *path, char *err, size_t errlen)
{
    ScriptAlgo *sa = calloc(1, sizeof *sa);
    if (!sa) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    sa->def.ud = sa;
    sa->def.release = sa_release;
    sa->box = box_new(path, err, errlen);
    if (!sa->box) {
        free(sa);
        return NULL;
    }
    if (!box_dofile(sa->box, path, err, errlen) || !sa_read(sa, err, errlen)) {
        sa_release(&sa->def);
        return NULL;
    }
    sa->def.name = sa->name;
    sa->def.summary = sa->summary;
    sa->def.ref = sa->ref;
    sa->def.fits = sa_fits;
    sa->def.nchunks = sa_nchunks;
    sa->def.build = sa_build;
    sa->def.predict = sa_predict;
    return &sa->def;
}

static bool looks_like_path(const char *name)
{
    size_t n = strlen(name);
    return strchr(name, '/') != NULL || (n > 4 && strcmp(name + n - 4, ".lua") == 0);
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
        path = strdup(name);
    } else {
        const AlgoDef *d = algo_find(name, net);
        if (d)
            return d;
        if (algo_exists(name)) {
            const AlgoDef *any = algo_find(name, NULL);
            char kinds[64] = "";
            unsigned all = 0;
            for (size_t i = 0; i < algo_count(); i++)
                if (strcmp(algo_at(i)->name, name) == 0)
                    all |= algo_at(i)->nets;
            (void)any;
            snprintf(err, errlen, "algorithm '%s' does not run on %s (it runs on: %s)", name,
                     net ? net_kind_name(net_kind(net)) : "this net",
                     algo_nets_text(all, kinds, sizeof kinds));
            return NULL;
        }
        path = box_find("scripts", name);
        if (!path) {
            snprintf(err, errlen, "unknown algorithm '%s' (meshcast list algorithms; a script "
                     "is looked up as NAME.lua on $MESHCAST_PATH, ~/.config/meshcast, the "
                     "share directory)", name);
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
