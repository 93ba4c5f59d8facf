/* lua-sandbox.c — sandboxed Lua states: trimmed libraries, memory cap, instruction budget,
 * the one protected-call helper, and the script search path.  See lua-sandbox.h. */
#include "lua-sandbox.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../engine/progress.h"
#include "../engine/text.h"

#include <lauxlib.h>
#include <lualib.h>

#ifndef MESHCAST_SHAREDIR
#define MESHCAST_SHAREDIR "/usr/local/share/meshcast"
#endif

#define HOOK_EVERY 10000
#define MAX_SCRIPT_BYTES (4u << 20)

struct LuaBox {
    lua_State *L;
    char *name;
    /* memory cap */
    size_t used, cap;
    bool mem_hit;
    /* instruction budget */
    long long count, budget;
    const char *stopped;     /* set when the budget stopped the script: pcall must not catch */
    /* context for messages */
    const char *phase;
    int32_t step;
    uint64_t gen;
    char *trace;
    void *scratch;
    size_t scratch_len;
};

static BoxPrintFn print_fn;
static void *print_ud;

void box_set_print_handler(BoxPrintFn fn, void *ud)
{
    print_fn = fn;
    print_ud = ud;
}

LuaBox *box_of(lua_State *L) { return *(LuaBox **)lua_getextraspace(L); }
lua_State *box_state(LuaBox *b) { return b->L; }
const char *box_name(const LuaBox *b) { return b->name; }
const char *box_traceback(const LuaBox *b) { return b->trace ? b->trace : ""; }
void box_set_step(LuaBox *b, int32_t step) { b->step = step; }
uint64_t box_generation(const LuaBox *b) { return b->gen; }

void *box_scratch(LuaBox *b, size_t bytes)
{
    if (bytes <= b->scratch_len)
        return b->scratch;
    size_t n = b->scratch_len ? b->scratch_len : 256;
    while (n < bytes)
        n *= 2;
    void *p = realloc(b->scratch, n);
    if (!p)
        return NULL;
    b->scratch = p;
    b->scratch_len = n;
    return p;
}

/* ---- memory cap ---- */

static void *box_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
    LuaBox *b = ud;
    size_t old = ptr ? osize : 0;
    if (nsize == 0) {
        free(ptr);
        b->used -= old;
        return NULL;
    }
    if (nsize > old && b->used + (nsize - old) > b->cap) {
        b->mem_hit = true;
        return NULL;
    }
    void *p = realloc(ptr, nsize);
    if (!p) {
        b->mem_hit = true;
        return NULL;
    }
    b->used = b->used - old + nsize;
    return p;
}

/* ---- instruction budget ---- */

static int budget_stop(lua_State *L, LuaBox *b, lua_Debug *ar)
{
    b->stopped = "instruction budget";
    if (ar && lua_getinfo(L, "Sl", ar) && ar->currentline > 0)
        lua_pushfstring(L, "%s:%d: ", ar->short_src, ar->currentline);
    else
        lua_pushliteral(L, "");
    lua_pushfstring(L, "%sstopped: instruction budget of %I instructions used up (an "
                    "endless loop?  $MESHCAST_LUA_INSTRUCTIONS raises it)",
                    lua_tostring(L, -1), (LUAI_UACINT)b->budget);
    return lua_error(L);
}

static void count_hook(lua_State *L, lua_Debug *ar)
{
    LuaBox *b = box_of(L);
    b->count += HOOK_EVERY;
    if (b->count > b->budget)
        budget_stop(L, b, ar);
    if (progress_cancelled()) {   /* the screen's Escape (engine/progress.h) */
        b->stopped = "cancelled";
        lua_pushliteral(L, "cancelled");
        lua_error(L);
    }
}

void box_charge(lua_State *L, long long work)
{
    LuaBox *b = box_of(L);
    if (work > 0)
        b->count += work;
    if (b->count > b->budget) {
        lua_Debug ar;
        /* name the Lua line that called the C function */
        budget_stop(L, b, lua_getstack(L, 1, &ar) ? &ar : NULL);
    }
}

/* pcall/xpcall that cannot swallow a stop (budget or memory cap). */
static int finish_pcall(lua_State *L, int status, lua_KContext extra)
{
    if (status != LUA_OK && status != LUA_YIELD) {
        LuaBox *b = box_of(L);
        if (status == LUA_ERRMEM && !b->stopped)
            b->stopped = "memory cap";
        if (b->stopped)
            return lua_error(L);   /* re-raise the stop: the error object is on top */
        lua_pushboolean(L, 0);
        lua_pushvalue(L, -2);
        return 2;
    }
    return lua_gettop(L) - (int)extra;
}

static int safe_pcall(lua_State *L)
{
    luaL_checkany(L, 1);
    lua_pushboolean(L, 1);
    lua_insert(L, 1);
    int status = lua_pcallk(L, lua_gettop(L) - 2, LUA_MULTRET, 0, 0, finish_pcall);
    return finish_pcall(L, status, 0);
}

static int safe_xpcall(lua_State *L)
{
    int n = lua_gettop(L);
    luaL_checktype(L, 2, LUA_TFUNCTION);
    lua_pushboolean(L, 1);
    lua_pushvalue(L, 1);
    lua_rotate(L, 3, 2);
    int status = lua_pcallk(L, n - 2, LUA_MULTRET, 2, 2, finish_pcall);
    return finish_pcall(L, status, 2);
}

/* ---- the trimmed base library ---- */

static int safe_load(lua_State *L)
{
    size_t len;
    const char *s = lua_tolstring(L, 1, &len);
    if (!s || lua_type(L, 1) != LUA_TSTRING)
        return luaL_error(L, "load: only a string of Lua source can be loaded in the meshcast "
                          "sandbox");
    const char *chunkname = luaL_optstring(L, 2, "=(load)");
    const char *mode = luaL_optstring(L, 3, "t");
    if (strcmp(mode, "t") != 0 || (len > 0 && s[0] == LUA_SIGNATURE[0])) {
        lua_pushnil(L);
        lua_pushstring(L, "load: binary chunks (bytecode) are refused in the meshcast sandbox");
        return 2;
    }
    int env = !lua_isnone(L, 4) ? 4 : 0;
    if (luaL_loadbufferx(L, s, len, chunkname, "t") != LUA_OK) {
        lua_pushnil(L);
        lua_insert(L, -2);
        return 2;
    }
    if (env) {
        lua_pushvalue(L, env);
        if (!lua_setupvalue(L, -2, 1))
            lua_pop(L, 1);
    }
    return 1;
}

static int refuse(lua_State *L)
{
    return luaL_error(L, "%s is not available in the meshcast sandbox (%s)",
                      lua_tostring(L, lua_upvalueindex(1)), lua_tostring(L, lua_upvalueindex(2)));
}

static void set_refused(lua_State *L, int table, const char *field, const char *what,
                        const char *why)
{
    lua_pushstring(L, what);
    lua_pushstring(L, why);
    lua_pushcclosure(L, refuse, 2);
    lua_setfield(L, table, field);
}

/* __index of a stub library: any other field is refused with a clear message. */
static int stub_index(lua_State *L)
{
    const char *lib = lua_tostring(L, lua_upvalueindex(1));
    const char *why = lua_tostring(L, lua_upvalueindex(2));
    const char *key = lua_tostring(L, 2);
    return luaL_error(L, "%s.%s is not available in the meshcast sandbox (%s)", lib,
                      key ? key : "?", why);
}

static void stub_library(lua_State *L, const char *lib, const char *why)
{
    lua_newtable(L);
    lua_newtable(L);
    lua_pushstring(L, lib);
    lua_pushstring(L, why);
    lua_pushcclosure(L, stub_index, 2);
    lua_setfield(L, -2, "__index");
    lua_pushstring(L, "locked");
    lua_setfield(L, -2, "__metatable");
    lua_setmetatable(L, -2);
}

static int safe_print(lua_State *L)
{
    LuaBox *b = box_of(L);
    int n = lua_gettop(L);   /* before luaL_buffinit, which may push a placeholder */
    luaL_Buffer buf;
    luaL_buffinit(L, &buf);
    for (int i = 1; i <= n; i++) {
        if (i > 1)
            luaL_addchar(&buf, '\t');
        luaL_tolstring(L, i, NULL);
        luaL_addvalue(&buf);
    }
    luaL_pushresult(&buf);
    const char *text = lua_tostring(L, -1);
    if (print_fn)
        print_fn(b->name, text, print_ud);
    else {
        /* one line on stderr, as text: a script's bytes never reach the terminal raw */
        char name[128], shown[1024];
        fprintf(stderr, "%s: %s\n", text_quote(b->name, 100, name, sizeof name),
                text_quote(text, 1000, shown, sizeof shown));
    }
    return 0;
}

static int safe_require(lua_State *L)
{
    const char *name = luaL_checkstring(L, 1);
    if (strcmp(name, "meshcast") != 0)
        return luaL_error(L, "require: module '%s' is not available in the meshcast sandbox "
                          "(only require \"meshcast\")", name);
    lua_getfield(L, LUA_REGISTRYINDEX, "meshcast.module");
    return 1;
}


/* ---- string patterns: refuse those whose worst case would hang in C ----
 * Lua's matcher backtracks; inside one C call the count hook cannot stop it.  A pattern with
 * q quantifiers (*, +, -, ?, %b) can take about N^q steps per start position on an N-byte
 * subject, N^(q+1) in all when unanchored.  Such a call is refused when that bound passes
 * 1e10 (docs/lua-api.md). */
#define PATTERN_WORK_MAX 1e10

static int pattern_quantifiers(const char *p, size_t len, bool *anchored)
{
    int q = 0;
    size_t i = 0;
    *anchored = len > 0 && p[0] == '^';
    if (*anchored)
        i = 1;
    while (i < len) {
        char c = p[i];
        if (c == '%') {
            if (i + 1 < len && p[i + 1] == 'b')
                q++;
            i += 2;
            continue;
        }
        if (c == '[') {   /* skip a set, with its escapes and a leading ] or ^] */
            i++;
            if (i < len && p[i] == '^')
                i++;
            if (i < len && p[i] == ']')
                i++;
            while (i < len && p[i] != ']')
                i += p[i] == '%' ? 2 : 1;
            i++;
            continue;
        }
        if (c == '*' || c == '+' || c == '-' || c == '?')
            q++;
        i++;
    }
    return q;
}

static int guarded_pattern(lua_State *L)
{
    size_t n, plen;
    luaL_checklstring(L, 1, &n);
    const char *pat = luaL_checklstring(L, 2, &plen);
    bool plain = lua_toboolean(L, lua_upvalueindex(2)) && lua_toboolean(L, 4);
    if (!plain && n > 0) {
        bool anchored;
        int q = pattern_quantifiers(pat, plen, &anchored);
        double work = pow((double)n, (double)q + (anchored ? 0.0 : 1.0));
        if (q > 0 && work > PATTERN_WORK_MAX)
            return luaL_error(L, "%s: pattern refused in the meshcast sandbox: %d quantifiers "
                              "on a %d-byte subject could backtrack for hours (shorten the "
                              "subject or simplify the pattern)",
                              lua_tostring(L, lua_upvalueindex(3)), q, (int)(n > INT32_MAX ? INT32_MAX : n));
    }
    int nargs = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, nargs, LUA_MULTRET);
    return lua_gettop(L);
}

static void guard_patterns(lua_State *L)
{
    static const char *const fns[] = {"find", "match", "gmatch", "gsub"};
    lua_getglobal(L, LUA_STRLIBNAME);
    int t = lua_gettop(L);
    for (size_t i = 0; i < 4; i++) {
        lua_getfield(L, t, fns[i]);
        lua_pushboolean(L, i == 0);   /* find has a `plain` argument */
        lua_pushfstring(L, "string.%s", fns[i]);
        lua_pushcclosure(L, guarded_pattern, 3);
        lua_setfield(L, t, fns[i]);
    }
    lua_pop(L, 1);
}


/* Some library functions loop in C as many times as asked, without running a VM
 * instruction the count hook could see: ("") : rep(1e18), table.move(t, 1, 1e15, 2), and the
 * table functions on a table whose __len says 2^60 (table.remove shifts that many slots).
 * Each is charged against the instruction budget before it runs. */
enum { CH_REP, CH_MOVE, CH_LEN, CH_SORT, CH_RANGE };

static double len_of(lua_State *L, int idx)
{
    if (lua_type(L, idx) != LUA_TTABLE)
        return 0;   /* the original reports the bad argument */
    lua_Integer n = luaL_len(L, idx);
    return n > 0 ? (double)n : 0;
}

static int charged_call(lua_State *L)
{
    int kind = (int)lua_tointeger(L, lua_upvalueindex(2));
    double work = 0;
    switch (kind) {
    case CH_REP: {   /* string.rep(s, n [, sep]) */
        lua_Integer n = luaL_checkinteger(L, 2);
        work = n > 0 ? (double)n : 0;
        break;
    }
    case CH_MOVE: {  /* table.move(a1, f, e, t [, a2]) */
        lua_Integer f = luaL_checkinteger(L, 2), e = luaL_checkinteger(L, 3);
        work = e >= f ? (double)e - (double)f + 1 : 0;
        break;
    }
    case CH_LEN:     /* table.insert, table.remove: shift up to #t slots */
        work = len_of(L, 1);
        break;
    case CH_SORT: {  /* n log n comparisons */
        double n = len_of(L, 1);
        work = n > 1 ? n * (log2(n) + 1) : n;
        break;
    }
    case CH_RANGE: { /* table.concat(t, sep, i, j), table.unpack(t, i, j) */
        int first = lua_tointeger(L, lua_upvalueindex(3)) == 1 ? 3 : 2;
        lua_Integer i = luaL_optinteger(L, first, 1);
        double j = lua_isnoneornil(L, first + 1) ? len_of(L, 1)
                                                 : (double)luaL_checkinteger(L, first + 1);
        work = j >= (double)i ? j - (double)i + 1 : 0;
        break;
    }
    }
    box_charge(L, work > 9e18 ? (long long)9e18 : (long long)work);
    int nargs = lua_gettop(L);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_insert(L, 1);
    lua_call(L, nargs, LUA_MULTRET);
    return lua_gettop(L);
}

static void charge_loops(lua_State *L)
{
    static const struct { const char *lib, *fn; int kind, concat; } w[] = {
        {LUA_STRLIBNAME, "rep", CH_REP, 0},    {LUA_TABLIBNAME, "move", CH_MOVE, 0},
        {LUA_TABLIBNAME, "insert", CH_LEN, 0}, {LUA_TABLIBNAME, "remove", CH_LEN, 0},
        {LUA_TABLIBNAME, "sort", CH_SORT, 0},  {LUA_TABLIBNAME, "concat", CH_RANGE, 1},
        {LUA_TABLIBNAME, "unpack", CH_RANGE, 0},
    };
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++) {
        lua_getglobal(L, w[i].lib);
        lua_getfield(L, -1, w[i].fn);
        lua_pushinteger(L, w[i].kind);
        lua_pushinteger(L, w[i].concat);
        lua_pushcclosure(L, charged_call, 3);
        lua_setfield(L, -2, w[i].fn);
        lua_pop(L, 1);
    }
}

static int setup(lua_State *L)
{
    static const luaL_Reg libs[] = {
        {LUA_GNAME, luaopen_base},       {LUA_STRLIBNAME, luaopen_string},
        {LUA_TABLIBNAME, luaopen_table}, {LUA_MATHLIBNAME, luaopen_math},
        {LUA_UTF8LIBNAME, luaopen_utf8}, {NULL, NULL},
    };
    for (const luaL_Reg *lib = libs; lib->func; lib++) {
        luaL_requiref(L, lib->name, lib->func, 1);
        lua_pop(L, 1);
    }
    lua_pushglobaltable(L);
    int g = lua_gettop(L);
    lua_pushcfunction(L, safe_load);
    lua_setfield(L, g, "load");
    lua_pushcfunction(L, safe_pcall);
    lua_setfield(L, g, "pcall");
    lua_pushcfunction(L, safe_xpcall);
    lua_setfield(L, g, "xpcall");
    lua_pushcfunction(L, safe_print);
    lua_setfield(L, g, "print");
    lua_pushcfunction(L, safe_require);
    lua_setfield(L, g, "require");
    set_refused(L, g, "dofile", "dofile", "scripts cannot read files");
    set_refused(L, g, "loadfile", "loadfile", "scripts cannot read files");
    set_refused(L, g, "loadstring", "loadstring", "use load with a string");
    /* string.dump makes bytecode, which nothing here can load */
    lua_getglobal(L, LUA_STRLIBNAME);
    set_refused(L, lua_gettop(L), "dump", "string.dump",
                "bytecode is refused; scripts are loaded from source only");
    lua_pop(L, 1);
    guard_patterns(L);
    charge_loops(L);
    /* a fixed seed: schedules built with math.random are reproducible */
    lua_getglobal(L, LUA_MATHLIBNAME);
    lua_getfield(L, -1, "randomseed");
    lua_pushinteger(L, 42);
    lua_call(L, 1, 0);
    lua_pop(L, 1);
    /* os: clock and time only */
    stub_library(L, "os", "scripts cannot run programs or touch files");
    luaopen_os(L);
    lua_getfield(L, -1, "clock");
    lua_setfield(L, -3, "clock");
    lua_getfield(L, -1, "time");
    lua_setfield(L, -3, "time");
    lua_pop(L, 1);
    lua_setfield(L, g, "os");
    stub_library(L, "io", "scripts cannot open files");
    lua_setfield(L, g, "io");
    stub_library(L, "debug", "the debug library is not loaded");
    lua_setfield(L, g, "debug");
    stub_library(L, "package", "only require \"meshcast\"");
    lua_setfield(L, g, "package");
    stub_library(L, "coroutine", "coroutines are not loaded");
    lua_setfield(L, g, "coroutine");
    /* the meshcast module */
    luaL_requiref(L, "meshcast", mc_open, 0);
    lua_setfield(L, LUA_REGISTRYINDEX, "meshcast.module");
    /* luaL_requiref also put it in package.loaded (a registry table) — harmless. */
    lua_pop(L, 1);
    return 0;
}

static int at_panic(lua_State *L)
{
    /* Every call goes through box_call, so this cannot happen; if it does, stop loudly. */
    char shown[512];
    fprintf(stderr, "meshcast: unprotected Lua error: %s\n",
            text_quote(lua_tostring(L, -1), 500, shown, sizeof shown));
    abort();
}

static long long env_number(const char *name, long long def, long long min)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return def;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || errno || v < (double)min || v > 9e18)
        return def;
    return (long long)v;
}

LuaBox *box_new(const char *name, char *err, size_t errlen)
{
    LuaBox *b = calloc(1, sizeof *b);
    if (!b || !(b->name = strdup(name ? name : "script"))) {
        free(b);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    b->cap = (size_t)env_number("MESHCAST_LUA_MEMORY", 256, 1) << 20;
    b->budget = env_number("MESHCAST_LUA_INSTRUCTIONS", 1000000000LL, 10000);
    b->L = lua_newstate(box_alloc, b);
    if (!b->L) {
        snprintf(err, errlen, "%s: cannot create a Lua state (memory cap too small?)", name);
        free(b->name);
        free(b);
        return NULL;
    }
    *(LuaBox **)lua_getextraspace(b->L) = b;
    lua_atpanic(b->L, at_panic);
    lua_sethook(b->L, count_hook, LUA_MASKCOUNT, HOOK_EVERY);
    lua_pushcfunction(b->L, setup);
    if (!box_call(b, 0, 0, "setup", err, errlen)) {
        box_free(b);
        return NULL;
    }
    return b;
}

void box_free(LuaBox *b)
{
    if (!b)
        return;
    if (b->L)
        lua_close(b->L);
    free(b->name);
    free(b->trace);
    free(b->scratch);
    free(b);
}

/* ---- the protected call ---- */

/* Find "chunk:LINE: " at the start of msg; returns the length of that prefix or 0. */
static size_t where_prefix(const char *msg)
{
    const char *p = msg;
    /* the chunk name may itself contain ':' (never a ':digits: ' though) */
    while ((p = strchr(p, ':')) != NULL) {
        const char *q = p + 1;
        if (*q >= '0' && *q <= '9') {
            while (*q >= '0' && *q <= '9')
                q++;
            if (q[0] == ':' && q[1] == ' ')
                return (size_t)(q + 2 - msg);
        }
        p++;
        if ((size_t)(p - msg) > 300)
            break;
    }
    return 0;
}

static int msghandler(lua_State *L)
{
    LuaBox *b = box_of(L);
    const char *msg = lua_tostring(L, 1);
    if (!msg) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING)
            msg = lua_tostring(L, -1);
        else
            msg = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
    }
    luaL_Buffer buf;
    luaL_buffinit(L, &buf);
    size_t w = where_prefix(msg);
    if (w)
        luaL_addlstring(&buf, msg, w);
    else {
        luaL_addstring(&buf, b->name);
        luaL_addstring(&buf, ": ");
    }
    if (b->phase && strcmp(b->phase, "load") != 0 && strcmp(b->phase, "setup") != 0) {
        luaL_addstring(&buf, "in ");
        luaL_addstring(&buf, b->phase);
        if (b->step > 0) {
            lua_pushfstring(L, ", step %d", (int)b->step);
            luaL_addvalue(&buf);
        }
        luaL_addstring(&buf, ": ");
    }
    luaL_addstring(&buf, msg + w);
    luaL_pushresult(&buf);
    luaL_traceback(L, L, lua_tostring(L, -1), 1);
    return 1;
}

bool box_call(LuaBox *b, int nargs, int nres, const char *phase, char *err, size_t errlen)
{
    lua_State *L = b->L;
    int base = lua_gettop(L) - nargs;
    lua_pushcfunction(L, msghandler);
    lua_insert(L, base);
    const char *saved_phase = b->phase;
    b->phase = phase;
    b->count = 0;
    b->stopped = NULL;
    b->mem_hit = false;
    b->step = 0;
    int rc = lua_pcall(L, nargs, nres, base);
    b->gen++;
    b->phase = saved_phase;
    if (rc == LUA_OK) {
        lua_remove(L, base);
        return true;
    }
    const char *msg = lua_tostring(L, -1);
    free(b->trace);
    b->trace = NULL;
    if (rc == LUA_ERRMEM || (b->stopped && strcmp(b->stopped, "memory cap") == 0)) {
        snprintf(err, errlen, "%s: %s%s%sstopped: memory cap of %zu MiB exceeded (allocating "
                 "without end?  $MESHCAST_LUA_MEMORY raises it)", b->name,
                 phase && strcmp(phase, "load") ? "in " : "",
                 phase && strcmp(phase, "load") ? phase : "",
                 phase && strcmp(phase, "load") ? ": " : "", b->cap >> 20);
    } else if (rc == LUA_ERRERR) {
        snprintf(err, errlen, "%s: error while reporting an error (%s)", b->name,
                 msg ? msg : "?");
    } else {
        const char *m = msg ? msg : "unknown error";
        b->trace = strdup(m);
        const char *nl = strchr(m, '\n');
        int n = nl ? (int)(nl - m) : (int)strlen(m);
        snprintf(err, errlen, "%.*s", n, m);
    }
    lua_settop(L, base - 1);
    return false;
}

bool box_dofile(LuaBox *b, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open '%s': %s", path, strerror(errno));
        return false;
    }
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        size_t n = fread(buf + len, 1, cap - len, f);
        len += n;
        if (n == 0)
            break;
        if (len == cap) {
            if (cap >= MAX_SCRIPT_BYTES) {
                free(buf);
                fclose(f);
                snprintf(err, errlen, "%s: refused: larger than %u MiB", path,
                         MAX_SCRIPT_BYTES >> 20);
                return false;
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    bool rerr = ferror(f);
    fclose(f);
    if (!buf || rerr) {
        free(buf);
        snprintf(err, errlen, "cannot read '%s'", path);
        return false;
    }
    if (len > 0 && buf[0] == LUA_SIGNATURE[0]) {
        free(buf);
        snprintf(err, errlen, "%s: refused: a precompiled (binary) chunk; meshcast loads Lua "
                 "source only", path);
        return false;
    }
    /* skip a #! line, as lua does */
    size_t skip = 0;
    if (len > 0 && buf[0] == '#') {
        while (skip < len && buf[skip] != '\n')
            skip++;
    }
    lua_State *L = b->L;
    char chunkname[PATH_MAX + 2];
    snprintf(chunkname, sizeof chunkname, "@%s", path);
    /* keep line numbers right when a #! line was skipped: replace it by an empty line */
    int rc = luaL_loadbufferx(L, buf + skip, len - skip, chunkname, "t");
    free(buf);
    if (rc != LUA_OK) {
        snprintf(err, errlen, "%s", lua_tostring(L, -1));
        lua_pop(L, 1);
        return false;
    }
    return box_call(b, 0, 1, "load", err, errlen);
}

/* ---- search path ---- */

static bool is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static size_t push_dir(char **out, size_t n, size_t max, const char *dir)
{
    if (n >= max || !dir || !*dir)
        return n;
    for (size_t i = 0; i < n; i++)
        if (strcmp(out[i], dir) == 0)
            return n;
    char *d = strdup(dir);
    if (!d)
        return n;
    out[n] = d;
    return n + 1;
}

size_t box_search_dirs(char **out, size_t max)
{
    size_t n = 0;
    char buf[PATH_MAX];
    const char *mp = getenv("MESHCAST_PATH");
    if (mp) {
        const char *p = mp;
        while (*p) {
            const char *e = strchr(p, ':');
            size_t len = e ? (size_t)(e - p) : strlen(p);
            /* an empty entry or "." never means ./ implicitly: skip it */
            bool cwd = (len == 1 && p[0] == '.') || (len == 2 && p[0] == '.' && p[1] == '/');
            if (len > 0 && len < sizeof buf && !cwd) {
                memcpy(buf, p, len);
                buf[len] = '\0';
                n = push_dir(out, n, max, buf);
            }
            p += len;
            if (*p == ':')
                p++;
        }
    }
    const char *xdg = getenv("XDG_CONFIG_HOME");
    const char *home = getenv("HOME");
    if (xdg && *xdg) {
        snprintf(buf, sizeof buf, "%s/meshcast", xdg);
        n = push_dir(out, n, max, buf);
    } else if (home && *home) {
        snprintf(buf, sizeof buf, "%s/.config/meshcast", home);
        n = push_dir(out, n, max, buf);
    }
    n = push_dir(out, n, max, MESHCAST_SHAREDIR);
    /* uninstalled use: the tree the binary sits in (./meshcast or build-san/meshcast) */
    ssize_t len = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (len > 0) {
        buf[len] = '\0';
        char *slash = strrchr(buf, '/');
        if (slash) {
            *slash = '\0';
            char probe[PATH_MAX + 16];
            snprintf(probe, sizeof probe, "%s/scripts", buf);
            if (is_dir(probe))
                n = push_dir(out, n, max, buf);
            slash = strrchr(buf, '/');
            if (slash && slash != buf) {
                *slash = '\0';
                snprintf(probe, sizeof probe, "%s/scripts", buf);
                if (is_dir(probe))
                    n = push_dir(out, n, max, buf);
            }
        }
    }
    return n;
}

char *box_find(const char *sub, const char *name)
{
    if (!name || !*name || strchr(name, '/') || strcmp(name, ".") == 0 ||
        strcmp(name, "..") == 0)
        return NULL;
    char *dirs[32];
    size_t nd = box_search_dirs(dirs, 32);
    char *found = NULL;
    size_t nl = strlen(name);
    bool has_ext = nl > 4 && strcmp(name + nl - 4, ".lua") == 0;
    for (size_t i = 0; i < nd && !found; i++) {
        char p[PATH_MAX * 2];
        snprintf(p, sizeof p, "%s/%s/%s%s", dirs[i], sub, name, has_ext ? "" : ".lua");
        if (is_file(p)) {
            found = strdup(p);
            break;
        }
        snprintf(p, sizeof p, "%s/%s%s", dirs[i], name, has_ext ? "" : ".lua");
        if (is_file(p))
            found = strdup(p);
    }
    for (size_t i = 0; i < nd; i++)
        free(dirs[i]);
    return found;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

size_t box_list(const char *sub, char **out, size_t max)
{
    char *dirs[32];
    size_t nd = box_search_dirs(dirs, 32), n = 0;
    for (size_t i = 0; i < nd; i++) {
        char d[PATH_MAX + 16];
        snprintf(d, sizeof d, "%s/%s", dirs[i], sub);
        DIR *dh = opendir(d);
        if (!dh)
            continue;
        struct dirent *e;
        while ((e = readdir(dh)) && n < max) {
            size_t len = strlen(e->d_name);
            if (len <= 4 || strcmp(e->d_name + len - 4, ".lua") != 0 || e->d_name[0] == '.')
                continue;
            char name[256];
            snprintf(name, sizeof name, "%.*s", (int)(len - 4), e->d_name);
            bool dup = false;
            for (size_t k = 0; k < n && !dup; k++)
                dup = strcmp(out[k], name) == 0;
            if (!dup && (out[n] = strdup(name)) != NULL)
                n++;
        }
        closedir(dh);
    }
    for (size_t i = 0; i < nd; i++)
        free(dirs[i]);
    qsort(out, n, sizeof *out, cmp_name);
    return n;
}
