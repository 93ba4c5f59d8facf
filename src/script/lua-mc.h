/* lua-mc.h — the `meshcast` Lua module's handles, for the C side of src/script (private).
 *
 * A handle is a full userdata that points at a C object the caller lends to Lua for one call
 * (a Net, a Sched being built).  After the call the caller invalidates it; a script that kept
 * the handle and uses it later gets a clear error instead of a dangling pointer.
 *
 * GC: the caller must keep the handle on the Lua stack from mc_push_* until mc_*_invalidate
 * (the pointer returned is the userdata's memory).
 */
#ifndef MESHCAST_LUA_MC_H
#define MESHCAST_LUA_MC_H

#include <lua.h>

#include "../engine/chunkset.h"
#include "../engine/net.h"
#include "../engine/sched.h"

typedef struct McNet McNet;
typedef struct McSched McSched;

McNet *mc_push_net(lua_State *L, const Net *net);
void mc_net_invalidate(McNet *h);
/* netidx: stack index of the net handle of s's net (kept as the sched's uservalue). */
McSched *mc_push_sched(lua_State *L, Sched *s, int netidx);
void mc_sched_invalidate(McSched *h);

/* A chunk set value (a meshcast.chunks userdata, a list of ids, or one integer) at idx as
 * normalised ranges in scratch memory valid until the next call; raises a Lua error if
 * malformed. */
const ChunkRange *mc_check_chunks(lua_State *L, int idx, size_t *nr);

/* A node at idx: an integer id, or a table of coordinates {r, c}; raises a Lua error (naming
 * `what`) if it is not a node of net. */
int32_t mc_check_node(lua_State *L, int idx, const Net *net, const char *what);

#endif
