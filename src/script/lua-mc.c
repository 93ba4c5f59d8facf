/* lua-mc.c — the `meshcast` Lua module: nets, schedules being built, their steps, chunk sets,
 * and read access to what the steps built so far deliver.  docs/lua-api.md is its manual.
 *
 * Conventions: node ids and chunk ids are 0-based (as in the engine); dimensions and steps are
 * numbered from 1 (dimension 1 is the slowest coordinate: rows on a mesh; step 1 is the
 * first step, as in the papers' figures and in every message).  mc.range(lo, hi) is
 * inclusive, like Lua's numeric for.
 */
#include "lua-mc.h"
#include "../engine/sched-pack.h"
#include "../engine/sched-strided.h"
#include "../engine/text.h"

#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "lua-sandbox.h"

#define NET_MT "meshcast.net"
#define SCHED_MT "meshcast.sched"
#define STEP_MT "meshcast.step"
#define CHUNKS_MT "meshcast.chunks"

/* A runaway script cannot build more transfers than this into one schedule (nor can the
 * schedule's strided blocks give more when it crosses to meshcast's process). */
#define MC_MAX_TRANSFERS SCHED_PACK_MAX_RULED
/* The most steps a schedule can have (the engine's limit too). */
#define MC_MAX_STEPS (1 << 24)

/* What the C side of a schedule costs, counted against the script's memory cap
 * (box_account) before it is made: a step's record, a transfer (16 bytes stored, more with
 * several ranges or a route), a local operation, a node's holdings — each with room for the
 * arrays' growth.  Labels count their length. */
#define MC_STEP_BYTES 128
#define MC_XFER_BYTES 24
#define MC_LOCAL_BYTES 24
#define MC_HOLD_BYTES 32

static long long xfer_bytes(size_t nr, int nseg)
{
    return MC_XFER_BYTES + (nr > 1 ? 8 + (long long)nr * (long long)sizeof(ChunkRange) : 0) +
           (nseg >= 0 ? 8 + (long long)nseg * (long long)sizeof(NetSeg) : 0);
}

bool mc_strided_rules = true;

struct McNet {
    const Net *net;
    uint64_t gen;           /* valid while the box is still in the call that made it */
};

struct McSched {
    Sched *s;
    const Net *net;
    uint64_t gen;
    int32_t nheld;          /* entries of held */
    int32_t cur;            /* the step sends go to (0-based), -1 unknown */
    int64_t transfers;
    /* what the steps built so far deliver (lazy) */
    ChunkSet **held;
    int64_t *done;          /* transfers of each step already applied to held */
    int32_t ndone;
    bool dirty;
    int32_t dirty_from;     /* the first step sent to since the last update */
};

typedef struct {
    McSched *h;
    int32_t index;          /* 0-based */
} McStep;

typedef struct {
    uint32_t nr;
    ChunkRange r[];
} McChunks;

/* ---------------------------------------------------------------- helpers */

static McNet *check_net(lua_State *L, int idx)
{
    McNet *h = luaL_checkudata(L, idx, NET_MT);
    if (h->gen != box_generation(box_of(L)))
        luaL_error(L, "this net handle is no longer valid (a net is only lent to the call "
                   "that received it)");
    return h;
}

static McSched *check_sched(lua_State *L, int idx)
{
    McSched *h = luaL_checkudata(L, idx, SCHED_MT);
    if (h->gen != box_generation(box_of(L)))
        luaL_error(L, "this schedule is no longer being built (a schedule is only lent to the "
                   "build call that received it)");
    return h;
}

const Net *mc_check_net(lua_State *L, int idx) { return check_net(L, idx)->net; }
const Sched *mc_check_sched(lua_State *L, int idx) { return check_sched(L, idx)->s; }

static McStep *check_step(lua_State *L, int idx)
{
    McStep *st = luaL_checkudata(L, idx, STEP_MT);
    if (!st->h || st->h->gen != box_generation(box_of(L)))
        luaL_error(L, "this step belongs to a schedule that is no longer being built");
    return st;
}

static void set_meta(lua_State *L, const char *name)
{
    luaL_setmetatable(L, name);
}

static int32_t check_dim(lua_State *L, int idx, const Net *net)
{
    lua_Integer d = luaL_checkinteger(L, idx);
    if (d < 1 || d > net_ndim(net))
        luaL_error(L, "dimension %d does not exist on %s (dimensions 1..%d)", (int)d,
                   net_spec(net), net_ndim(net));
    return (int32_t)(d - 1);
}

int32_t mc_check_node(lua_State *L, int idx, const Net *net, const char *what)
{
    int32_t n = net_size(net);
    if (lua_type(L, idx) == LUA_TTABLE) {
        int32_t c[NET_MAXDIM];
        int nd = net_ndim(net);
        if ((int)luaL_len(L, idx) != nd)
            luaL_error(L, "%s: coordinates need %d numbers on %s", what, nd, net_spec(net));
        for (int k = 0; k < nd; k++) {
            lua_geti(L, idx, k + 1);
            int isnum;
            lua_Integer v = lua_tointegerx(L, -1, &isnum);
            lua_pop(L, 1);
            if (!isnum)
                luaL_error(L, "%s: coordinate %d is not an integer", what, k + 1);
            if (v < 0 || v >= net_dim(net, k))
                luaL_error(L, "%s: coordinate %d = %d is outside %s", what, k + 1, (int)v,
                           net_spec(net));
            c[k] = (int32_t)v;
        }
        return net_id(net, c);
    }
    int isnum;
    lua_Integer v = lua_tointegerx(L, idx, &isnum);
    if (!isnum) {
        if (lua_isnoneornil(L, idx))
            luaL_error(L, "%s: missing node (got nil: past the edge of a mesh?)", what);
        luaL_error(L, "%s: node must be an integer id, got %s", what, luaL_typename(L, idx));
    }
    if (v < 0 || v >= n)
        luaL_error(L, "%s: node %I is outside %s (nodes 0..%d)", what, (LUAI_UACINT)v,
                   net_spec(net), (int)n - 1);
    return (int32_t)v;
}

/* ---------------------------------------------------------------- chunk sets */

static McChunks *push_chunks(lua_State *L, const ChunkRange *r, size_t nr)
{
    McChunks *c = lua_newuserdatauv(L, sizeof(McChunks) + nr * sizeof(ChunkRange), 0);
    c->nr = (uint32_t)nr;
    if (nr)
        memcpy(c->r, r, nr * sizeof *r);
    set_meta(L, CHUNKS_MT);
    return c;
}

static ChunkRange *scratch_ranges(lua_State *L, size_t n)
{
    ChunkRange *r = box_scratch(box_of(L), (n ? n : 1) * sizeof(ChunkRange));
    if (!r)
        luaL_error(L, "out of memory");
    return r;
}

const ChunkRange *mc_check_chunks(lua_State *L, int idx, size_t *nr)
{
    int t = lua_type(L, idx);
    if (t == LUA_TNUMBER) {
        int isnum;
        lua_Integer v = lua_tointegerx(L, idx, &isnum);
        if (!isnum || v < 0 || v >= UINT32_MAX)
            luaL_error(L, "bad chunk id %s", lua_tostring(L, idx));
        ChunkRange *r = scratch_ranges(L, 1);
        r[0].lo = (uint32_t)v;
        r[0].hi = (uint32_t)v + 1;
        *nr = 1;
        return r;
    }
    if (t == LUA_TUSERDATA) {
        McChunks *c = luaL_testudata(L, idx, CHUNKS_MT);
        if (!c)
            luaL_error(L, "chunks must be a list of chunk ids or mc.range(lo, hi)");
        *nr = c->nr;
        return c->r;
    }
    if (t != LUA_TTABLE)
        luaL_error(L, "chunks must be a list of chunk ids or mc.range(lo, hi), got %s",
                   luaL_typename(L, idx));
    lua_Integer n = luaL_len(L, idx);
    if (n < 0 || n > (lua_Integer)1 << 28)
        luaL_error(L, "chunk list too long");
    box_charge(L, n);
    ChunkRange *r = scratch_ranges(L, (size_t)n);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_geti(L, idx, i);
        int isnum;
        lua_Integer v = lua_tointegerx(L, -1, &isnum);
        lua_pop(L, 1);
        if (!isnum || v < 0 || v >= UINT32_MAX)
            luaL_error(L, "chunk list: entry %I is not a chunk id (an integer >= 0)",
                       (LUAI_UACINT)i);
        r[i - 1].lo = (uint32_t)v;
        r[i - 1].hi = (uint32_t)v + 1;
    }
    *nr = chunkset_normalize(r, (size_t)n);
    return r;
}

static uint64_t ranges_count(const ChunkRange *r, size_t nr)
{
    uint64_t c = 0;
    for (size_t i = 0; i < nr; i++)
        c += r[i].hi - r[i].lo;
    return c;
}

static McChunks *check_chunks_ud(lua_State *L, int idx)
{
    return luaL_checkudata(L, idx, CHUNKS_MT);
}

/* Convert any chunk value at idx to a chunks userdata (in place on the stack). */
static void to_chunks_ud(lua_State *L, int idx)
{
    idx = lua_absindex(L, idx);
    if (luaL_testudata(L, idx, CHUNKS_MT))
        return;
    size_t nr;
    const ChunkRange *r = mc_check_chunks(L, idx, &nr);
    push_chunks(L, r, nr);
    lua_replace(L, idx);
}

static int mc_range(lua_State *L)
{
    lua_Integer lo = luaL_checkinteger(L, 1);
    lua_Integer hi = luaL_checkinteger(L, 2);
    if (lo < 0 || hi >= (lua_Integer)UINT32_MAX)
        return luaL_error(L, "range(%I, %I): chunk ids are 0 .. 2^32-2", (LUAI_UACINT)lo,
                          (LUAI_UACINT)hi);
    ChunkRange r = {(uint32_t)lo, (uint32_t)(hi + 1)};
    push_chunks(L, &r, hi >= lo ? 1 : 0);
    return 1;
}

static int mc_chunks(lua_State *L)
{
    if (lua_gettop(L) == 0) {
        push_chunks(L, NULL, 0);
        return 1;
    }
    if (lua_type(L, 1) != LUA_TTABLE && lua_gettop(L) > 1) {
        /* mc.chunks(0, 3, 5) */
        int n = lua_gettop(L);
        lua_createtable(L, n, 0);
        for (int i = 1; i <= n; i++) {
            lua_pushvalue(L, i);
            lua_seti(L, -2, i);
        }
        lua_replace(L, 1);
        lua_settop(L, 1);
    }
    size_t nr;
    const ChunkRange *r = mc_check_chunks(L, 1, &nr);
    push_chunks(L, r, nr);
    return 1;
}

static void combine(lua_State *L, const McChunks *a, const McChunks *b, int op)
{
    /* op 0 union, 1 minus, 2 intersect: merge sweep over both range lists */
    size_t cap = (size_t)a->nr + b->nr + 1;
    box_charge(L, (long long)cap);
    ChunkRange *out = scratch_ranges(L, cap);
    size_t n = 0;
    if (op == 0) {
        for (uint32_t i = 0; i < a->nr; i++)
            out[n++] = a->r[i];
        for (uint32_t i = 0; i < b->nr; i++)
            out[n++] = b->r[i];
        n = chunkset_normalize(out, n);
    } else {
        size_t j = 0;
        for (uint32_t i = 0; i < a->nr; i++) {
            uint32_t lo = a->r[i].lo, hi = a->r[i].hi;
            while (j < b->nr && b->r[j].hi <= lo)
                j++;
            size_t k = j;
            if (op == 1) {
                uint32_t cur = lo;
                while (k < b->nr && b->r[k].lo < hi) {
                    if (b->r[k].lo > cur && n < cap)
                        out[n++] = (ChunkRange){cur, b->r[k].lo};
                    if (b->r[k].hi > cur)
                        cur = b->r[k].hi;
                    k++;
                }
                if (cur < hi && n < cap)
                    out[n++] = (ChunkRange){cur, hi};
            } else {
                while (k < b->nr && b->r[k].lo < hi) {
                    uint32_t l = b->r[k].lo > lo ? b->r[k].lo : lo;
                    uint32_t h = b->r[k].hi < hi ? b->r[k].hi : hi;
                    if (l < h && n < cap)
                        out[n++] = (ChunkRange){l, h};
                    k++;
                }
            }
        }
        n = chunkset_normalize(out, n);
    }
    push_chunks(L, out, n);
}

static int chunks_union(lua_State *L)
{
    int n = lua_gettop(L);
    if (n == 0) {
        push_chunks(L, NULL, 0);
        return 1;
    }
    for (int i = 1; i <= n; i++)
        to_chunks_ud(L, i);
    lua_pushvalue(L, 1);
    for (int i = 2; i <= n; i++) {
        combine(L, lua_touserdata(L, -1), lua_touserdata(L, i), 0);
        lua_remove(L, -2);
    }
    return 1;
}

static int chunks_minus(lua_State *L)
{
    to_chunks_ud(L, 1);
    to_chunks_ud(L, 2);
    combine(L, lua_touserdata(L, 1), lua_touserdata(L, 2), 1);
    return 1;
}

static int chunks_intersect(lua_State *L)
{
    to_chunks_ud(L, 1);
    to_chunks_ud(L, 2);
    combine(L, lua_touserdata(L, 1), lua_touserdata(L, 2), 2);
    return 1;
}

static int chunks_count(lua_State *L)
{
    size_t nr;
    const ChunkRange *r = mc_check_chunks(L, 1, &nr);
    lua_pushinteger(L, (lua_Integer)ranges_count(r, nr));
    return 1;
}

static int chunks_contains(lua_State *L)
{
    McChunks *c = check_chunks_ud(L, 1);
    lua_Integer id = luaL_checkinteger(L, 2);
    bool in = false;
    for (uint32_t i = 0; i < c->nr && !in; i++)
        in = id >= c->r[i].lo && id < c->r[i].hi;
    lua_pushboolean(L, in);
    return 1;
}

static int chunks_ranges(lua_State *L)
{
    McChunks *c = check_chunks_ud(L, 1);
    lua_createtable(L, (int)c->nr, 0);
    for (uint32_t i = 0; i < c->nr; i++) {
        lua_createtable(L, 2, 0);
        lua_pushinteger(L, c->r[i].lo);
        lua_seti(L, -2, 1);
        lua_pushinteger(L, (lua_Integer)c->r[i].hi - 1);
        lua_seti(L, -2, 2);
        lua_seti(L, -2, (lua_Integer)i + 1);
    }
    return 1;
}

static int chunks_list(lua_State *L)
{
    McChunks *c = check_chunks_ud(L, 1);
    uint64_t n = ranges_count(c->r, c->nr);
    if (n > (1u << 24))
        return luaL_error(L, "list: %d chunks are too many to list", (int)n);
    box_charge(L, (long long)n);
    lua_createtable(L, (int)n, 0);
    lua_Integer k = 1;
    for (uint32_t i = 0; i < c->nr; i++)
        for (uint32_t id = c->r[i].lo; id < c->r[i].hi; id++) {
            lua_pushinteger(L, id);
            lua_seti(L, -2, k++);
        }
    return 1;
}

static int chunks_tostring(lua_State *L)
{
    McChunks *c = check_chunks_ud(L, 1);
    char buf[256];
    chunkset_format(c->r, c->nr, buf, sizeof buf);
    lua_pushfstring(L, "chunks{%s}", buf);
    return 1;
}

static int chunks_eq(lua_State *L)
{
    McChunks *a = check_chunks_ud(L, 1), *b = check_chunks_ud(L, 2);
    lua_pushboolean(L, a->nr == b->nr && memcmp(a->r, b->r, a->nr * sizeof(ChunkRange)) == 0);
    return 1;
}

static int chunks_index(lua_State *L)
{
    /* methods; integer keys are refused with a hint (chunk sets are not lists) */
    if (lua_type(L, 2) == LUA_TSTRING) {
        lua_pushvalue(L, 2);
        lua_rawget(L, lua_upvalueindex(1));
        return 1;
    }
    return luaL_error(L, "a chunk set is not a list: use :list(), :contains(id) or :count()");
}

/* ---------------------------------------------------------------- nets */

McNet *mc_push_net(lua_State *L, const Net *net)
{
    McNet *h = lua_newuserdatauv(L, sizeof *h, 0);
    h->net = net;
    h->gen = box_generation(box_of(L));
    set_meta(L, NET_MT);
    return h;
}

static int net_size_l(lua_State *L)
{
    lua_pushinteger(L, net_size(check_net(L, 1)->net));
    return 1;
}

static int net_ndim_l(lua_State *L)
{
    lua_pushinteger(L, net_ndim(check_net(L, 1)->net));
    return 1;
}

static int net_dims_l(lua_State *L)
{
    const Net *net = check_net(L, 1)->net;
    lua_createtable(L, net_ndim(net), 0);
    for (int k = 0; k < net_ndim(net); k++) {
        lua_pushinteger(L, net_dim(net, k));
        lua_seti(L, -2, k + 1);
    }
    return 1;
}

static int net_dim_l(lua_State *L)
{
    const Net *net = check_net(L, 1)->net;
    lua_pushinteger(L, net_dim(net, check_dim(L, 2, net)));
    return 1;
}

static int net_wraps_l(lua_State *L)
{
    lua_pushboolean(L, net_wraps(check_net(L, 1)->net));
    return 1;
}

static int net_id_l(lua_State *L)
{
    const Net *net = check_net(L, 1)->net;
    int nd = net_ndim(net);
    int32_t c[NET_MAXDIM];
    bool table = lua_type(L, 2) == LUA_TTABLE;
    for (int k = 0; k < nd; k++) {
        lua_Integer v;
        if (table) {
            lua_geti(L, 2, k + 1);
            int isnum;
            v = lua_tointegerx(L, -1, &isnum);
            lua_pop(L, 1);
            if (!isnum)
                return luaL_error(L, "id: coordinate %d is not an integer", k + 1);
        } else {
            v = luaL_checkinteger(L, 2 + k);
        }
        if (v < 0 || v >= net_dim(net, k)) {
            lua_pushnil(L);
            return 1;
        }
        c[k] = (int32_t)v;
    }
    lua_pushinteger(L, net_id(net, c));
    return 1;
}

static int net_coords_l(lua_State *L)
{
    const Net *net = check_net(L, 1)->net;
    int32_t id = mc_check_node(L, 2, net, "coords");
    int32_t c[NET_MAXDIM];
    net_coords(net, id, c);
    for (int k = 0; k < net_ndim(net); k++)
        lua_pushinteger(L, c[k]);
    return net_ndim(net);
}

static int net_distance_l(lua_State *L)
{
    const Net *net = check_net(L, 1)->net;
    int32_t a = mc_check_node(L, 2, net, "distance"), b = mc_check_node(L, 3, net, "distance");
    lua_pushinteger(L, net_distance(net, a, b));
    return 1;
}

static void push_route(lua_State *L, const NetSeg *seg, int nseg)
{
    lua_createtable(L, nseg, 0);
    for (int i = 0; i < nseg; i++) {
        lua_createtable(L, 0, 3);
        lua_pushinteger(L, seg[i].dim + 1);
        lua_setfield(L, -2, "dim");
        lua_pushinteger(L, seg[i].dir);
        lua_setfield(L, -2, "dir");
        lua_pushinteger(L, seg[i].len);
        lua_setfield(L, -2, "len");
        lua_seti(L, -2, i + 1);
    }
}

static int net_route_l(lua_State *L)
{
    const Net *net = check_net(L, 1)->net;
    int32_t a = mc_check_node(L, 2, net, "route"), b = mc_check_node(L, 3, net, "route");
    NetSeg seg[NET_MAXSEG];
    int n = net_route(net, a, b, seg);
    push_route(L, seg, n);
    return 1;
}

static int net_neighbor_l(lua_State *L)
{
    const Net *net = check_net(L, 1)->net;
    int32_t id = mc_check_node(L, 2, net, "neighbor");
    int dim = check_dim(L, 3, net);
    lua_Integer hops = luaL_optinteger(L, 4, 1);
    if (hops < -(lua_Integer)INT32_MAX || hops > INT32_MAX)
        return luaL_error(L, "neighbor: hops out of range");
    int32_t r = net_neighbor(net, id, dim, (int32_t)hops);
    if (r < 0)
        lua_pushnil(L);
    else
        lua_pushinteger(L, r);
    return 1;
}

/* net:link(from, to): the directed link id between two neighbours (for lessons). */
static int net_link_l(lua_State *L)
{
    const Net *net = check_net(L, 1)->net;
    int32_t a = mc_check_node(L, 2, net, "link"), b = mc_check_node(L, 3, net, "link");
    for (int d = 0; d < net_ndim(net); d++)
        for (int dir = -1; dir <= 1; dir += 2)
            if (net_neighbor(net, a, d, dir) == b) {
                lua_pushinteger(L, net_link(net, a, d, dir));
                return 1;
            }
    return luaL_error(L, "link: nodes %d and %d are not neighbours on %s", (int)a, (int)b,
                      net_spec(net));
}

static int net_tostring(lua_State *L)
{
    McNet *h = luaL_checkudata(L, 1, NET_MT);
    lua_pushfstring(L, "net(%s)", h->gen == box_generation(box_of(L)) ? net_spec(h->net)
                                                                       : "no longer valid");
    return 1;
}

static int net_index(lua_State *L)
{
    const char *k = lua_tostring(L, 2);
    if (k && strcmp(k, "kind") == 0) {
        lua_pushstring(L, net_kind_name(net_kind(check_net(L, 1)->net)));
        return 1;
    }
    if (k && strcmp(k, "spec") == 0) {
        lua_pushstring(L, net_spec(check_net(L, 1)->net));
        return 1;
    }
    lua_pushvalue(L, 2);
    lua_rawget(L, lua_upvalueindex(1));
    return 1;
}

/* ---------------------------------------------------------------- schedules */

static void hold_free(McSched *h)
{
    if (h->held) {
        for (int32_t i = 0; i < h->nheld; i++)
            chunkset_free(h->held[i]);
        free(h->held);
        h->held = NULL;
    }
    free(h->done);
    h->done = NULL;
    h->ndone = 0;
}

McSched *mc_push_sched(lua_State *L, Sched *s, int netidx)
{
    netidx = lua_absindex(L, netidx);
    McSched *h = lua_newuserdatauv(L, sizeof *h, 1);
    memset(h, 0, sizeof *h);
    h->s = s;
    h->net = sched_net(s);
    h->gen = box_generation(box_of(L));
    h->cur = -1;
    h->dirty = true;
    h->dirty_from = 0;
    set_meta(L, SCHED_MT);
    lua_pushvalue(L, netidx);
    lua_setiuservalue(L, -2, 1);
    return h;
}

static int sched_gc(lua_State *L)
{
    McSched *h = luaL_checkudata(L, 1, SCHED_MT);
    hold_free(h);
    h->s = NULL;
    return 0;
}

static int push_step(lua_State *L, int schedidx, McSched *h, int32_t index)
{
    McStep *st = lua_newuserdatauv(L, sizeof *st, 1);
    st->h = h;
    st->index = index;
    set_meta(L, STEP_MT);
    lua_pushvalue(L, schedidx);
    lua_setiuservalue(L, -2, 1);
    box_set_step(box_of(L), index + 1);
    return 1;
}

static void sched_check_error(lua_State *L, McSched *h)
{
    const char *e = sched_error(h->s);
    if (e)
        luaL_error(L, "%s", e);
}

/* Count a label against the cap (giving back the one it replaces). */
static void account_label(lua_State *L, McSched *h, int32_t step, int idx)
{
    size_t n;
    lua_tolstring(L, idx, &n);
    box_account(L, (long long)n + 1 - (long long)strlen(sched_step_label(h->s, step)));
}

static int sched_step_l(lua_State *L)
{
    McSched *h = check_sched(L, 1);
    if (sched_nsteps(h->s) >= MC_MAX_STEPS)
        return luaL_error(L, "step: at most %d steps in a schedule", MC_MAX_STEPS);
    box_account(L, MC_STEP_BYTES);
    if (lua_type(L, 2) == LUA_TSTRING)
        box_account(L, (long long)lua_rawlen(L, 2) + 1);
    int32_t i = sched_step(h->s);
    if (i < 0)
        sched_check_error(L, h);
    h->cur = i;
    if (lua_type(L, 2) == LUA_TSTRING && !sched_label(h->s, lua_tostring(L, 2)))
        sched_check_error(L, h);
    return push_step(L, 1, h, i);
}

static int sched_at_l(lua_State *L)
{
    McSched *h = check_sched(L, 1);
    lua_Integer k = luaL_checkinteger(L, 2);
    if (k < 1)
        return luaL_error(L, "at(%I): steps are numbered from 1", (LUAI_UACINT)k);
    if (k > MC_MAX_STEPS)
        return luaL_error(L, "at(%I): a schedule has at most %d steps", (LUAI_UACINT)k,
                          MC_MAX_STEPS);
    if (k > sched_nsteps(h->s))   /* the empty steps it opens */
        box_account(L, (k - sched_nsteps(h->s)) * (long long)MC_STEP_BYTES);
    if (!sched_at(h->s, (int32_t)(k - 1)))
        sched_check_error(L, h);
    h->cur = (int32_t)(k - 1);
    return push_step(L, 1, h, (int32_t)(k - 1));
}

static int sched_nsteps_l(lua_State *L)
{
    lua_pushinteger(L, sched_nsteps(check_sched(L, 1)->s));
    return 1;
}

static int sched_nchunks_l(lua_State *L)
{
    lua_pushinteger(L, sched_nchunks(check_sched(L, 1)->s));
    return 1;
}

static int sched_bytes_l(lua_State *L)
{
    lua_pushinteger(L, (lua_Integer)sched_bytes(check_sched(L, 1)->s));
    return 1;
}

static int sched_source_l(lua_State *L)
{
    lua_pushinteger(L, sched_source(check_sched(L, 1)->s));
    return 1;
}

static void hold_add(lua_State *L, McSched *h, int32_t node, uint32_t lo, uint32_t hi);

/* sched:sources() — the nodes given chunks at the start, in the order of their chunks (for an
 * s-to-p schedule: source j holds message j) */
static int sched_sources_l(lua_State *L)
{
    McSched *h = check_sched(L, 1);
    size_t ng = sched_ngiven(h->s);
    lua_createtable(L, (int)ng, 0);
    int k = 0;
    int32_t last = -1;
    for (size_t i = 0; i < ng; i++) {
        int32_t node;
        sched_given(h->s, i, &node, NULL);
        if (node == last)
            continue;
        last = node;
        lua_pushinteger(L, node);
        lua_rawseti(L, -2, ++k);
    }
    return 1;
}

/* sched:give(node, chunks) — node holds chunks from the start (any number of nodes) */
static int sched_give_l(lua_State *L)
{
    McSched *h = check_sched(L, 1);
    int32_t node = mc_check_node(L, 2, h->net, "give");
    size_t nr;
    const ChunkRange *r = mc_check_chunks(L, 3, &nr);
    for (size_t i = 0; i < nr; i++)
        if (r[i].hi > sched_nchunks(h->s) || !sched_give(h->s, node, r[i].lo, r[i].hi))
            return luaL_error(L, "give: chunks %d..%d are not chunks of this schedule (0..%d)",
                              (int)r[i].lo, (int)r[i].hi - 1, (int)sched_nchunks(h->s) - 1);
    if (h->held)
        for (size_t i = 0; i < nr; i++)
            hold_add(L, h, node, r[i].lo, r[i].hi);
    return 0;
}

static int sched_all_l(lua_State *L)
{
    McSched *h = check_sched(L, 1);
    ChunkRange r = {0, sched_nchunks(h->s)};
    push_chunks(L, &r, r.hi > 0 ? 1 : 0);
    return 1;
}

static int sched_net_l(lua_State *L)
{
    check_sched(L, 1);
    lua_getiuservalue(L, 1, 1);
    return 1;
}

static void hold_add(lua_State *L, McSched *h, int32_t node, uint32_t lo, uint32_t hi)
{
    box_account(L, MC_HOLD_BYTES);
    if (!h->held[node] && !(h->held[node] = chunkset_new()))
        luaL_error(L, "out of memory");
    if (!chunkset_add_range(h->held[node], lo, hi))
        luaL_error(L, "out of memory");
}

static void hold_update(lua_State *L, McSched *h)
{
    Sched *s = h->s;
    if (!h->held) {
        int32_t n = net_size(h->net);
        box_account(L, (long long)n * (long long)sizeof *h->held);
        h->held = calloc((size_t)n, sizeof *h->held);
        if (!h->held)
            luaL_error(L, "out of memory");
        h->nheld = n;
        for (size_t i = 0; i < sched_ngiven(s); i++) {
            int32_t node;
            ChunkRange r;
            sched_given(s, i, &node, &r);
            hold_add(L, h, node, r.lo, r.hi);
        }
    }
    if (!h->dirty)
        return;
    int32_t ns = sched_nsteps(s);
    if (ns > h->ndone) {
        box_account(L, (long long)(ns - h->ndone) * (long long)sizeof *h->done);
        int64_t *d = realloc(h->done, (size_t)ns * sizeof *d);
        if (!d)
            luaL_error(L, "out of memory");
        for (int32_t k = h->ndone; k < ns; k++)
            d[k] = 0;
        h->done = d;
        h->ndone = ns;
    }
    SchedTransfer t;
    for (int32_t k = h->dirty_from; k < ns; k++) {
        int64_t nt = sched_ntransfers(s, k);
        box_charge(L, nt - h->done[k] + 1);
        for (int64_t i = h->done[k]; i < nt; i++) {
            sched_transfer(s, k, i, &t);
            for (uint32_t j = 0; j < t.nranges; j++)
                hold_add(L, h, t.dst, t.ranges[j].lo, t.ranges[j].hi);
        }
        h->done[k] = nt;
    }
    h->dirty = false;
    h->dirty_from = ns;
}

/* Holdings of one node after `after` steps, computed afresh (into a new ChunkSet). */
static ChunkSet *hold_after(lua_State *L, McSched *h, int32_t node, int32_t after)
{
    Sched *s = h->s;
    /* charge the walk first: box_charge may raise, and nothing is allocated yet */
    int64_t work = (int64_t)sched_ngiven(s) + 1;
    for (int32_t k = 0; k < after && k < sched_nsteps(s); k++)
        work += sched_ntransfers(s, k) + 1;
    box_charge(L, work);
    ChunkSet *cs = chunkset_new();
    if (!cs)
        luaL_error(L, "out of memory");
    for (size_t i = 0; i < sched_ngiven(s); i++) {
        int32_t n;
        ChunkRange r;
        sched_given(s, i, &n, &r);
        if (n == node)
            chunkset_add_range(cs, r.lo, r.hi);
    }
    SchedTransfer t;
    int32_t ns = sched_nsteps(s);
    for (int32_t k = 0; k < after && k < ns; k++) {
        int64_t nt = sched_ntransfers(s, k);
        for (int64_t i = 0; i < nt; i++) {
            sched_transfer(s, k, i, &t);
            if (t.dst == node)
                for (uint32_t j = 0; j < t.nranges; j++)
                    chunkset_add_range(cs, t.ranges[j].lo, t.ranges[j].hi);
        }
    }
    return cs;
}

static int sched_holds_l(lua_State *L)
{
    McSched *h = check_sched(L, 1);
    int32_t node = mc_check_node(L, 2, h->net, "holds");
    lua_Integer chunk = luaL_checkinteger(L, 3);
    if (chunk < 0 || chunk >= (lua_Integer)sched_nchunks(h->s)) {
        lua_pushboolean(L, 0);
        return 1;
    }
    if (!lua_isnoneornil(L, 4)) {
        lua_Integer after = luaL_checkinteger(L, 4);
        ChunkSet *cs = hold_after(L, h, node, after < 0 ? 0 : (int32_t)(after > INT32_MAX ? INT32_MAX : after));
        lua_pushboolean(L, chunkset_contains(cs, (uint32_t)chunk));
        chunkset_free(cs);
        return 1;
    }
    hold_update(L, h);
    lua_pushboolean(L, h->held[node] && chunkset_contains(h->held[node], (uint32_t)chunk));
    return 1;
}

static int sched_held_l(lua_State *L)
{
    McSched *h = check_sched(L, 1);
    int32_t node = mc_check_node(L, 2, h->net, "held");
    if (!lua_isnoneornil(L, 3)) {
        lua_Integer after = luaL_checkinteger(L, 3);
        ChunkSet *cs = hold_after(L, h, node, after < 0 ? 0 : (int32_t)(after > INT32_MAX ? INT32_MAX : after));
        /* copy out before anything can raise */
        size_t nr = chunkset_nranges(cs);
        ChunkRange *r = box_scratch(box_of(L), (nr ? nr : 1) * sizeof *r);
        if (r && nr)
            memcpy(r, chunkset_ranges(cs), nr * sizeof *r);
        chunkset_free(cs);
        if (!r)
            return luaL_error(L, "out of memory");
        push_chunks(L, r, nr);
        return 1;
    }
    hold_update(L, h);
    ChunkSet *cs = h->held[node];
    if (!cs)
        push_chunks(L, NULL, 0);
    else
        push_chunks(L, chunkset_ranges(cs), chunkset_nranges(cs));
    return 1;
}

static int sched_tostring(lua_State *L)
{
    McSched *h = luaL_checkudata(L, 1, SCHED_MT);
    if (h->gen != box_generation(box_of(L)))
        lua_pushliteral(L, "sched(no longer being built)");
    else
        lua_pushfstring(L, "sched(%s, %d steps)", net_spec(h->net), (int)sched_nsteps(h->s));
    return 1;
}

/* ---------------------------------------------------------------- steps */

static int parse_route(lua_State *L, int idx, NetSeg *seg)
{
    if (lua_type(L, idx) != LUA_TTABLE)
        luaL_error(L, "route must be a list of segments {dim=, dir=, len=} or {dim, hops}");
    lua_Integer n = luaL_len(L, idx);
    if (n < 1 || n > NET_MAXSEG)
        luaL_error(L, "route: 1..%d segments, got %I", NET_MAXSEG, (LUAI_UACINT)n);
    for (lua_Integer i = 1; i <= n; i++) {
        lua_geti(L, idx, i);
        int t = lua_gettop(L);
        if (lua_type(L, t) != LUA_TTABLE)
            luaL_error(L, "route: segment %I is not a table", (LUAI_UACINT)i);
        lua_Integer dim, dir, len;
        int ok1, ok2, ok3;
        if (lua_getfield(L, t, "dim") != LUA_TNIL) {
            dim = lua_tointegerx(L, -1, &ok1);
            lua_getfield(L, t, "dir");
            dir = lua_tointegerx(L, -1, &ok2);
            lua_getfield(L, t, "len");
            len = lua_tointegerx(L, -1, &ok3);
        } else {
            lua_geti(L, t, 1);
            dim = lua_tointegerx(L, -1, &ok1);
            lua_geti(L, t, 2);
            lua_Integer hops = lua_tointegerx(L, -1, &ok2);
            ok3 = ok2;
            dir = hops < 0 ? -1 : 1;
            len = hops < 0 ? -hops : hops;
        }
        if (!ok1 || !ok2 || !ok3 || dim < 1 || dim > NET_MAXDIM || (dir != 1 && dir != -1) ||
            len < 1 || len > INT32_MAX)
            luaL_error(L, "route: segment %I is malformed (dim 1..ndim, dir +1/-1, len >= 1)",
                       (LUAI_UACINT)i);
        seg[i - 1].dim = (int8_t)(dim - 1);
        seg[i - 1].dir = (int8_t)dir;
        seg[i - 1].len = (int32_t)len;
        lua_settop(L, t - 1);
    }
    return (int)n;
}

static void check_chunk_ids(lua_State *L, McSched *h, const ChunkRange *r, size_t nr)
{
    uint32_t nc = sched_nchunks(h->s);
    if (nr && r[nr - 1].hi > nc)
        luaL_error(L, "chunk %d does not exist (this message has chunks 0..%d)",
                   (int)(r[nr - 1].hi - 1), (int)nc - 1);
}

static void step_select(lua_State *L, McStep *st)
{
    McSched *h = st->h;
    if (h->cur != st->index) {
        if (!sched_at(h->s, st->index))
            sched_check_error(L, h);
        h->cur = st->index;
    }
    box_set_step(box_of(L), st->index + 1);
}

/* Check an explicit route before the engine sees it (so that the message names the script's
 * line: the schedule keeps only its first error). */
static void check_route(lua_State *L, const Net *net, int32_t src, int32_t dst,
                        const NetSeg *seg, int nseg)
{
    int32_t end = net_route_end(net, src, seg, nseg);
    if (end < 0)
        luaL_error(L, "send %d->%d: the route is not a path in %s", (int)src, (int)dst,
                   net_spec(net));
    if (end != dst)
        luaL_error(L, "send %d->%d: the route ends at node %d", (int)src, (int)dst, (int)end);
}

/* A send stored into a step that has rule blocks (strided sends) would be read before them:
 * they are stored first, in their order (sched_step_unrule), so that every transfer keeps the
 * place the script gave it. */
static void keep_order(lua_State *L, McSched *h, int32_t step)
{
    if (sched_step_nrules(h->s, step) > 0 && !sched_step_unrule(h->s, step))
        sched_check_error(L, h);
}

static int step_send(lua_State *L)
{
    McStep *st = check_step(L, 1);
    McSched *h = st->h;
    int32_t src = mc_check_node(L, 2, h->net, "send");
    int32_t dst = mc_check_node(L, 3, h->net, "send");
    NetSeg seg[NET_MAXSEG];
    int nseg = lua_isnoneornil(L, 5) ? -1 : parse_route(L, 5, seg);
    size_t nr;
    const ChunkRange *r = mc_check_chunks(L, 4, &nr);
    step_select(L, st);
    if (src == dst)
        return luaL_error(L, "send: node %d sends to itself", (int)src);
    if (nr == 0)
        return luaL_error(L, "send: no chunks to send from node %d to node %d", (int)src,
                          (int)dst);
    check_chunk_ids(L, h, r, nr);
    if (nseg >= 0)
        check_route(L, h->net, src, dst, seg, nseg);
    if (++h->transfers > MC_MAX_TRANSFERS)
        return luaL_error(L, "send: more than %I transfers in one schedule", (LUAI_UACINT)MC_MAX_TRANSFERS);
    box_account(L, xfer_bytes(nr, nseg));
    bool ok;
    if (mc_strided_rules && nseg < 0 && nr <= SCHED_RULE_MAXR) {
        /* stored, or joined to a strided block when it makes a progression with the sends
         * before it (sched_send_compact keeps every transfer's place) */
        ok = sched_send_compact(h->s, src, dst, r, nr);
    } else {
        keep_order(L, h, st->index);
        ok = nseg < 0 ? sched_send(h->s, src, dst, r, nr)
                      : sched_send_route(h->s, src, dst, r, nr, seg, nseg);
    }
    h->dirty = true;
    if (st->index < h->dirty_from)
        h->dirty_from = st->index;
    if (!ok || sched_error(h->s))
        sched_check_error(L, h);
    return 0;
}

/* st:send_strided(first, stride, count, offset, chunks [, route]): for i = 0 .. count-1,
 * node first + i*stride sends the chunks to node first + i*stride + offset.  One call from Lua
 * for a whole row of senders (documented batching; the schedule is the same as count sends). */
static int step_send_strided(lua_State *L)
{
    McStep *st = check_step(L, 1);
    McSched *h = st->h;
    lua_Integer first = luaL_checkinteger(L, 2);
    lua_Integer stride = luaL_checkinteger(L, 3);
    lua_Integer count = luaL_checkinteger(L, 4);
    lua_Integer offset = luaL_checkinteger(L, 5);
    NetSeg seg[NET_MAXSEG];
    int nseg = lua_isnoneornil(L, 7) ? -1 : parse_route(L, 7, seg);
    size_t nr;
    const ChunkRange *r = mc_check_chunks(L, 6, &nr);
    step_select(L, st);
    if (count <= 0)
        return 0;
    int32_t n = net_size(h->net);
    if (count > n || stride < -(lua_Integer)n || stride > n || first < -(lua_Integer)n ||
        first > n)
        return luaL_error(L, "send_strided: nodes outside %s", net_spec(h->net));
    lua_Integer last = first + (count - 1) * stride;
    if (stride < -(lua_Integer)n || stride > n || offset < -(lua_Integer)n || offset > n)
        return luaL_error(L, "send_strided: stride and offset must be within the net's size");
    if (count > n || first < 0 || first >= n || last < 0 || last >= n || first + offset < 0 ||
        first + offset >= n || last + offset < 0 || last + offset >= n)
        return luaL_error(L, "send_strided: nodes outside %s (first %I, stride %I, count %I, "
                          "offset %I)", net_spec(h->net), (LUAI_UACINT)first,
                          (LUAI_UACINT)stride, (LUAI_UACINT)count, (LUAI_UACINT)offset);
    if (offset == 0)
        return luaL_error(L, "send_strided: offset 0 (a node sends to itself)");
    if (nr == 0)
        return luaL_error(L, "send_strided: no chunks");
    check_chunk_ids(L, h, r, nr);
    box_charge(L, count);
    h->transfers += count;
    if (h->transfers > MC_MAX_TRANSFERS)
        return luaL_error(L, "send_strided: more than %I transfers in one schedule",
                          (LUAI_UACINT)MC_MAX_TRANSFERS);
    box_account(L, count * xfer_bytes(nr, nseg));
    h->dirty = true;
    if (st->index < h->dirty_from)
        h->dirty_from = st->index;
    for (lua_Integer i = 0; i < count && nseg >= 0; i++) {
        int32_t src = (int32_t)(first + i * stride);
        check_route(L, h->net, src, (int32_t)(src + offset), seg, nseg);
    }
    if (mc_strided_rules && nseg < 0 && nr <= SCHED_RULE_MAXR) {
        /* the block as a rule of a few bytes, however many transfers (continuing the step's
         * last block when it can: a script's rows of one step become one block) */
        SchedStrided b = { (int32_t)first, (int32_t)stride, (int32_t)offset, (uint32_t)nr, count,
                           { r[0], nr > 1 ? r[1] : (ChunkRange){ 0, 0 } } };
        if (!sched_send_strided(h->s, &b, false))
            sched_check_error(L, h);
        return 0;
    }
    keep_order(L, h, st->index);
    /* room for the whole row at once: the step's array grows once, not by doubling (each
     * doubling copies what is there and touches fresh pages) */
    if (!sched_reserve(h->s, (int64_t)count, nseg < 0 && nr > 1 ? (uint64_t)nr : 0))
        sched_check_error(L, h);
    for (lua_Integer i = 0; i < count; i++) {
        int32_t src = (int32_t)(first + i * stride);
        bool ok = nseg < 0 ? sched_send(h->s, src, (int32_t)(src + offset), r, nr)
                           : sched_send_route(h->s, src, (int32_t)(src + offset), r, nr, seg,
                                              nseg);
        if (!ok || sched_error(h->s))
            sched_check_error(L, h);
    }
    return 0;
}

static int step_label(lua_State *L)
{
    McStep *st = check_step(L, 1);
    const char *text = luaL_checkstring(L, 2);
    step_select(L, st);
    account_label(L, st->h, st->index, 2);
    if (!sched_label(st->h->s, text))
        sched_check_error(L, st->h);
    return 0;
}

static int step_permute(lua_State *L)
{
    McStep *st = check_step(L, 1);
    int32_t node = -1;
    if (!(lua_isinteger(L, 2) && lua_tointeger(L, 2) == -1))
        node = mc_check_node(L, 2, st->h->net, "permute");
    lua_Integer bytes = luaL_checkinteger(L, 3);
    if (bytes < 0)
        return luaL_error(L, "permute: bytes must be >= 0");
    step_select(L, st);
    box_account(L, MC_LOCAL_BYTES);
    if (!sched_local(st->h->s, node, (uint64_t)bytes))
        sched_check_error(L, st->h);
    return 0;
}

static int step_index(lua_State *L)
{
    McStep *st = check_step(L, 1);
    lua_pushinteger(L, st->index + 1);
    return 1;
}

static int step_tostring(lua_State *L)
{
    McStep *st = luaL_checkudata(L, 1, STEP_MT);
    lua_pushfstring(L, "step(%d)", (int)st->index + 1);
    return 1;
}

/* ---------------------------------------------------------------- module */

static int mc_log2(lua_State *L)
{
    lua_Integer x = luaL_checkinteger(L, 1);
    if (x < 1 || (x & (x - 1)) != 0) {
        lua_pushnil(L);
        return 1;
    }
    int k = 0;
    while (((lua_Integer)1 << k) < x)
        k++;
    lua_pushinteger(L, k);
    return 1;
}

static int mc_ispow2(lua_State *L)
{
    lua_Integer x = luaL_checkinteger(L, 1);
    lua_pushboolean(L, x >= 1 && (x & (x - 1)) == 0);
    return 1;
}

static void new_class(lua_State *L, const char *name, const luaL_Reg *methods,
                      const luaL_Reg *meta, lua_CFunction index)
{
    luaL_newmetatable(L, name);
    luaL_setfuncs(L, meta, 0);
    lua_pushstring(L, name);
    lua_setfield(L, -2, "__metatable");   /* getmetatable() cannot reach the real one */
    lua_newtable(L);
    luaL_setfuncs(L, methods, 0);
    if (index) {
        lua_pushcclosure(L, index, 1);
        lua_setfield(L, -2, "__index");
    } else {
        lua_setfield(L, -2, "__index");
    }
    lua_pop(L, 1);
}

int mc_open(lua_State *L)
{
    static const luaL_Reg net_m[] = {
        {"size", net_size_l},         {"ndim", net_ndim_l},   {"dims", net_dims_l},
        {"dim", net_dim_l},           {"wraps", net_wraps_l}, {"id", net_id_l},
        {"coords", net_coords_l},     {"distance", net_distance_l},
        {"route", net_route_l},       {"neighbor", net_neighbor_l},
        {"link", net_link_l},         {"eyes", mc_net_eyes},  {"is_eye", mc_net_is_eye},
        {NULL, NULL},
    };
    static const luaL_Reg net_mt[] = {{"__tostring", net_tostring}, {NULL, NULL}};
    static const luaL_Reg sched_m[] = {
        {"step", sched_step_l},     {"at", sched_at_l},         {"nsteps", sched_nsteps_l},
        {"nchunks", sched_nchunks_l}, {"bytes", sched_bytes_l}, {"source", sched_source_l},
        {"all", sched_all_l},       {"net", sched_net_l},       {"holds", sched_holds_l},
        {"held", sched_held_l},     {"verdict", mc_sched_verdict},
        {"sources", sched_sources_l}, {"give", sched_give_l}, {NULL, NULL},
    };
    static const luaL_Reg sched_mt[] = {
        {"__tostring", sched_tostring}, {"__gc", sched_gc}, {NULL, NULL},
    };
    static const luaL_Reg step_m[] = {
        {"send", step_send},     {"send_strided", step_send_strided},
        {"label", step_label},   {"permute", step_permute},
        {"index", step_index},   {NULL, NULL},
    };
    static const luaL_Reg step_mt[] = {{"__tostring", step_tostring}, {NULL, NULL}};
    static const luaL_Reg chunks_m[] = {
        {"count", chunks_count},     {"contains", chunks_contains}, {"ranges", chunks_ranges},
        {"list", chunks_list},       {"union", chunks_union},       {"minus", chunks_minus},
        {"intersect", chunks_intersect}, {NULL, NULL},
    };
    static const luaL_Reg chunks_mt[] = {
        {"__tostring", chunks_tostring}, {"__len", chunks_count}, {"__add", chunks_union},
        {"__sub", chunks_minus},         {"__eq", chunks_eq},     {NULL, NULL},
    };
    new_class(L, NET_MT, net_m, net_mt, net_index);
    new_class(L, SCHED_MT, sched_m, sched_mt, NULL);
    new_class(L, STEP_MT, step_m, step_mt, NULL);
    new_class(L, CHUNKS_MT, chunks_m, chunks_mt, chunks_index);

    static const luaL_Reg mc_f[] = {
        {"range", mc_range},   {"chunks", mc_chunks}, {"union", chunks_union},
        {"minus", chunks_minus}, {"intersect", chunks_intersect}, {"count", chunks_count},
        {"log2", mc_log2},     {"ispow2", mc_ispow2}, {"eye_side", mc_eye_side},
        {NULL, NULL},
    };
    luaL_newlib(L, mc_f);
    lua_pushliteral(L, "1");
    lua_setfield(L, -2, "api");
    return 1;
}

const char *mc_unknown_field(lua_State *L, int t, const char *const *names,
                             const char **nearest)
{
    t = lua_absindex(L, t);
    *nearest = NULL;
    lua_pushnil(L);
    while (lua_next(L, t) != 0) {
        lua_pop(L, 1);
        if (lua_type(L, -1) != LUA_TSTRING)
            continue;
        const char *k = lua_tostring(L, -1);
        bool known = false;
        for (size_t i = 0; names[i] && !known; i++)
            known = strcmp(k, names[i]) == 0;
        if (!known) {
            lua_pop(L, 1);
            *nearest = text_nearest(k, names);
            return k;
        }
    }
    return NULL;
}
