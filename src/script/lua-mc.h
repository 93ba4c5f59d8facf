/* lua-mc.h — the `meshcast` Lua module's handles, for the C side of src/script (private).
 *
 * A handle is a full userdata that points at a C object the caller lends to Lua for one call
 * (a Net, a Sched being built).  It records the box's generation (lua-sandbox.h), which every
 * box_call ends by bumping: a script that kept the handle and uses it in a later call gets a
 * clear error instead of a dangling pointer, and C never has to find the handle again.
 * Call these only inside a protected call (they allocate).
 */
#ifndef MESHCAST_LUA_MC_H
#define MESHCAST_LUA_MC_H

#include <stdbool.h>

#include <lua.h>

#include "../engine/chunkset.h"
#include "../engine/net.h"
#include "../engine/sched.h"

typedef struct McNet McNet;
typedef struct McSched McSched;

/* st:send_strided keeps a block of a default route and at most SCHED_RULE_MAXR ranges as a
 * strided rule (sched-strided.h), a few bytes however many transfers (true, the default); false
 * stores every transfer as as many st:send calls would (the reference the tests compare the
 * rules with: the same transfers in the same order).  A script's child reads it when it is
 * forked: set it before script_algo. */
extern bool mc_strided_rules;

McNet *mc_push_net(lua_State *L, const Net *net);
/* netidx: stack index of the net handle of s's net (kept as the sched's uservalue). */
McSched *mc_push_sched(lua_State *L, Sched *s, int netidx);

/* A chunk set value (a meshcast.chunks userdata, a list of ids, or one integer) at idx as
 * normalised ranges in scratch memory valid until the next call; raises a Lua error if
 * malformed. */
const ChunkRange *mc_check_chunks(lua_State *L, int idx, size_t *nr);

/* A node at idx: an integer id, or a table of coordinates {r, c}; raises a Lua error (naming
 * `what`) if it is not a node of net. */
int32_t mc_check_node(lua_State *L, int idx, const Net *net, const char *what);

/* The net or schedule of a handle at idx (raising a Lua error when it is not one, or stale). */
const Net *mc_check_net(lua_State *L, int idx);
const Sched *mc_check_sched(lua_State *L, int idx);

/* The first string key of the table at t that is not one of names (NULL-terminated), or
 * NULL; *nearest: the closest of names to it (text_nearest), or NULL.  The key stays valid as
 * long as the table holds it.  Scripts' and lessons' tables refuse such a field (a misspelling
 * such as `chunk` for `chunks` would otherwise be silently ignored). */
const char *mc_unknown_field(lua_State *L, int t, const char *const *names,
                             const char **nearest);

/* Cang & Wu (lua-cangwu.c): net:eyes, net:is_eye, mc.eye_side, sched:verdict. */
int mc_net_eyes(lua_State *L);
int mc_net_is_eye(lua_State *L);
int mc_eye_side(lua_State *L);
int mc_sched_verdict(lua_State *L);

#endif
