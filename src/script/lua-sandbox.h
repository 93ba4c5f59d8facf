/* lua-sandbox.h — the sandboxed Lua states that run meshcast's scripts (docs/lua-api.md).
 *
 * A LuaBox is one lua_State with:
 *  - only safe libraries: base (without dofile/loadfile; `load` accepts text only), string
 *    (without string.dump), table, math (seeded with a fixed seed), utf8, and a stub `os`
 *    with clock and time.  `io`, `os.execute`, `debug`, `package` and the rest raise
 *    "... is not available in the meshcast sandbox" when touched;
 *  - `require` that knows exactly one module, "meshcast";
 *  - one memory cap for everything the script makes, in Lua (a custom lua_Alloc) and in C
 *    (schedule steps, labels, transfers, local operations, scratch: box_account);
 *    $MESHCAST_LUA_MEMORY MiB, default 256;
 *  - an instruction budget per call into Lua (a count hook; $MESHCAST_LUA_INSTRUCTIONS,
 *    default 1e9 in batch commands, $MESHCAST_LUA_TUI_INSTRUCTIONS, default 1e8, in the
 *    TUI).  When either runs out the script is stopped with a clear message, and a `pcall`
 *    inside the script cannot swallow it;
 *  - a wall-clock limit, enforced from outside: scripts only ever run in a child process
 *    (lua-child.h), never in meshcast's own process;
 *  - ONE protected-call helper, box_call, with a traceback message handler, through which
 *    every call into Lua goes (setup included).
 *
 * Error messages name the file and line and, when a phase and step are set, what was running:
 *     "scripts/x.lua:12: in build, step 3: attempt to index a nil value (local 'q')"
 *
 * Ownership: box_new returns a box the caller frees with box_free (which closes the state and
 * invalidates every handle the script may still hold).
 */
#ifndef MESHCAST_LUA_SANDBOX_H
#define MESHCAST_LUA_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <lua.h>

typedef struct LuaBox LuaBox;

/* The limits a script runs under, read from the environment for the current mode. */
typedef enum { BOX_BATCH, BOX_INTERACTIVE } BoxMode;
typedef struct {
    long long instructions;        /* per call into the script */
    size_t memory;                 /* bytes, Lua and C together */
    double seconds;                /* wall clock, per call */
    const char *instructions_env, *seconds_env;   /* the variables that set them */
} BoxLimits;
void box_set_mode(BoxMode m);      /* the TUI sets BOX_INTERACTIVE; the default is batch */
void box_limits(BoxLimits *out);

/* Count `bytes` (negative: give back) of C memory the script caused against the cap; raises
 * "FILE:LINE: stopped: memory cap ..." when it would pass it.  Call before allocating. */
void box_account(lua_State *L, long long bytes);
/* Forget the C memory counted so far but its scratch (after a call whose C structures were
 * freed, in a child that serves many calls). */
void box_reset_account(LuaBox *b);

/* name: how messages call the script (its path as the user gave it). */
LuaBox *box_new(const char *name, char *err, size_t errlen);
void box_free(LuaBox *b);
lua_State *box_state(LuaBox *b);
LuaBox *box_of(lua_State *L);
const char *box_name(const LuaBox *b);

/* Read a text file (at most 4 MiB; binary chunks refused) and run it under box_call; on
 * success its first result is left on the stack (nil if it returned nothing). */
bool box_dofile(LuaBox *b, const char *path, char *err, size_t errlen);

/* The protected-call helper: calls the function below the nargs arguments on top of the
 * stack, leaving nres results (LUA_MULTRET allowed).  phase ("build", "chunks", ...) names
 * what runs, for messages.  On failure pops everything it was given, writes one line into err
 * (full traceback kept, see box_traceback) and returns false. */
bool box_call(LuaBox *b, int nargs, int nres, const char *phase, char *err, size_t errlen);
/* The traceback of the last failed call ("" if none). */
const char *box_traceback(const LuaBox *b);

/* Bumped at the end of every box_call: handles lent to Lua for one call check it. */
uint64_t box_generation(const LuaBox *b);

/* Charge `work` units (about one per element a C function walks) against the instruction
 * budget of the current call; raises the budget stop if it is used up.  C functions of the
 * module call it so that loops in C count like loops in Lua. */
void box_charge(lua_State *L, long long work);

/* The step being built, for messages (1-based; 0: none). */
void box_set_step(LuaBox *b, int32_t step);

/* Scratch space that lives as long as the box (for C functions that must not leak on a Lua
 * error).  Returns NULL if memory runs out. */
void *box_scratch(LuaBox *b, size_t bytes);

/* Where `print` goes: by default stderr, as "NAME: text".  The TUI may catch it instead.
 * (In a script's child process prints travel to the parent, which calls box_print.) */
typedef void (*BoxPrintFn)(const char *name, const char *text, void *ud);
void box_set_print_handler(BoxPrintFn fn, void *ud);
void box_print(const char *name, const char *text);
/* Silence print (while a child reloads a script to run one of its functions). */
void box_set_quiet(LuaBox *b, bool quiet);

/* Install the `meshcast` module (lua-mc.c); called by box_new. */
int mc_open(lua_State *L);

/* Script search path (docs/lua-api.md): for a bare NAME, the first existing
 *   DIR/SUB/NAME.lua or DIR/NAME.lua
 * over DIR in $MESHCAST_PATH (colon-separated), $XDG_CONFIG_HOME/meshcast (default
 * ~/.config/meshcast), MESHCAST_SHAREDIR, and the source tree the running binary was built in
 * (the directory of the binary or its parent, if it holds SUB/).  Never ./ implicitly.
 * SUB is "scripts" or "lessons".  Returns a malloc'd path or NULL. */
char *box_find(const char *sub, const char *name);
/* The directories searched, in order (malloc'd strings into out, at most max). */
size_t box_search_dirs(char **out, size_t max);
/* The NAME of every SUB/NAME.lua over the search directories (the first of each name), sorted;
 * malloc'd strings into out (at most max), freed by the caller.  Returns how many. */
size_t box_list(const char *sub, char **out, size_t max);

#endif
