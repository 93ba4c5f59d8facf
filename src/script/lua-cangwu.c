/* lua-cangwu.c — Cang & Wu in the `meshcast` Lua module (docs/lua-api.md):
 *   net:eyes([level [, node]])  the 2^d eyes (node ids, orthant order) of the submesh of side
 *                               2^level holding node (default: the whole net, node 0)
 *   net:is_eye(node)            an eye of the whole net (every node of a torus)
 *   mc.eye_side(k)              a_k of eq. 2, the side of the eye-square of a 2^k mesh
 *   sched:verdict()             the schedule built so far, simulated (seidel defaults): a table
 *                               {verified, time_step_optimal, contention_free, tcd, steps,
 *                               max_link_load, min_steps, informed = {per step}}
 * On a net that is not a d-D 2^k mesh or torus, eyes/is_eye raise an error naming why. */
#include <lauxlib.h>
#include <lua.h>

#include "../algos/cangwu/cangwu.h"
#include "../engine/sim.h"
#include "../engine/tso.h"
#include "lua-mc.h"

static int shape_or_error(lua_State *L, const Net *net, int *k)
{
    int d;
    if (!cangwu_shape(net, &d, k))
        return luaL_error(L, "eyes: %s is not a d-D 2^k mesh or torus (every extent the same "
                          "power of two)", net_spec(net));
    return d;
}

int mc_net_eyes(lua_State *L)
{
    const Net *net = mc_check_net(L, 1);
    int k;
    shape_or_error(L, net, &k);
    lua_Integer level = luaL_optinteger(L, 2, k);
    int32_t node = lua_isnoneornil(L, 3) ? 0 : mc_check_node(L, 3, net, "eyes");
    if (level < 1 || level > k)
        return luaL_error(L, "eyes: level %d is outside 1..%d", (int)level, k);
    int32_t e[8];
    int n = cangwu_eyes(net, 0, (int)level, node, e);
    lua_createtable(L, n, 0);
    for (int i = 0; i < n; i++) {
        lua_pushinteger(L, e[i]);
        lua_rawseti(L, -2, i + 1);
    }
    return 1;
}

int mc_net_is_eye(lua_State *L)
{
    const Net *net = mc_check_net(L, 1);
    int k;
    shape_or_error(L, net, &k);
    lua_pushboolean(L, cangwu_is_eye(net, mc_check_node(L, 2, net, "is_eye")));
    return 1;
}

int mc_eye_side(lua_State *L)
{
    lua_Integer k = luaL_checkinteger(L, 1);
    if (k < 0 || k > 30)
        return luaL_error(L, "eye_side: k must be 0..30");
    lua_pushinteger(L, cangwu_a((int)k));
    return 1;
}

int mc_sched_verdict(lua_State *L)
{
    const Sched *s = mc_check_sched(L, 1);
    if (sched_error(s))
        return luaL_error(L, "verdict: the schedule is broken: %s", sched_error(s));
    CostParams p;
    cost_defaults(&p, COST_SEIDEL);
    char err[256];
    Sim *sim = sim_run(s, &p, 0, err, sizeof err);
    if (!sim)
        return luaL_error(L, "verdict: %s", err);
    const SimTotals *t = sim_totals(sim);
    TsoVerdict v;
    tso_check(sim, &v);
    lua_createtable(L, 0, 8);
    lua_pushboolean(L, t->verified);
    lua_setfield(L, -2, "verified");
    lua_pushboolean(L, v.optimal);
    lua_setfield(L, -2, "time_step_optimal");
    lua_pushboolean(L, v.contention_free);
    lua_setfield(L, -2, "contention_free");
    lua_pushinteger(L, t->tcd);
    lua_setfield(L, -2, "tcd");
    lua_pushinteger(L, t->nsteps);
    lua_setfield(L, -2, "steps");
    lua_pushinteger(L, v.min_steps);
    lua_setfield(L, -2, "min_steps");
    lua_pushinteger(L, t->max_link_load);
    lua_setfield(L, -2, "max_link_load");
    lua_createtable(L, t->nsteps, 0);
    for (int32_t i = 0; i < t->nsteps; i++) {
        lua_pushinteger(L, sim_step(sim, i)->informed);
        lua_rawseti(L, -2, i + 1);
    }
    lua_setfield(L, -2, "informed");
    sim_free(sim);
    return 1;
}
