/* lua-child.h — every piece of script work runs in a forked child process, under limits that
 * hold whatever the script does (docs/lua-api.md, "Limits").
 *
 * child_start forks; the child makes its own sandbox and loads the script, then serves
 * requests (call build, call predict, ...) sent over a socket, answering each with bytes (a
 * Wire).  meshcast's own process never runs Lua.  A child ends with SIGKILL or _exit, so no
 * finalizer of the script ever runs outside the limits.  Every request runs under
 * RLIMIT_CPU (and RLIMIT_AS in builds without AddressSanitizer); the parent waits with poll()
 * and kills the child (SIGKILL) when the wall-clock limit passes, when the answer outgrows
 * the memory cap, or when the caller cancels.  A hung __gc, a regex that backtracks
 * for hours, `==` on two 50 MB strings: all end at the limit, with the script's last known
 * line in the message:
 *     "x.lua:3: in build: stopped: time limit of 5 s used up (...)"
 * What the script prints travels over the same pipe and is printed by the parent (box_print).
 *
 * While it waits the parent checks about every 50 ms whether the calling thread's Progress
 * (engine/progress.h) was cancelled, and calls its wait hook (if any), which returns true to
 * cancel; either kills the child (the error is then "... cancelled").  The TUI builds on a
 * worker thread (tui/job.h), so its screen stays alive while a script runs.  The TUI uses it to
 * keep the screen alive ("running...", Escape/Ctrl-C cancel, q quits).
 *
 * Ownership: a Wire owns its bytes (wire_free).  A WireIn reads a Wire's bytes in place.
 */
#ifndef MESHCAST_LUA_CHILD_H
#define MESHCAST_LUA_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A growing byte buffer: what a child sends back. */
typedef struct {
    unsigned char *p;
    size_t len, cap;
    bool oom;            /* a put failed: the buffer is incomplete */
} Wire;

void wire_put(Wire *w, const void *p, size_t n);
void wire_reserve(Wire *w, size_t more);   /* room for `more` bytes (a hint; oom on failure) */
void wire_i64(Wire *w, int64_t v);
void wire_f64(Wire *w, double v);
void wire_str(Wire *w, const char *s);   /* NULL is sent as "" */
void wire_free(Wire *w);

/* Reading it back: every get on a short or malformed buffer returns 0/"" and sets bad. */
typedef struct {
    const unsigned char *p;
    size_t left;
    bool bad;
} WireIn;

WireIn wire_in(const Wire *w);
int64_t wire_get_i64(WireIn *r);
double wire_get_f64(WireIn *r);
const char *wire_get_str(WireIn *r);     /* points into the Wire (NUL-terminated) */

/* Runs in the child: serve one request (req NULL: the start, e.g. loading the script), put
 * the answer into out; on failure write one line into err and return false. */
typedef bool (*ChildServe)(void *ud, const Wire *req, Wire *out, char *err, size_t errlen);

/* A child process serving requests, one at a time. */
typedef struct Child Child;

/* Fork a child that first calls serve(ud, NULL, ...) and answers, then serves requests until
 * child_stop.  name: the script (for messages), phase: what the start does ("load").  On
 * success *result holds the start's answer (the caller frees it with wire_free); NULL with one
 * line in err (the script's error, or the limit that stopped it) on failure. */
Child *child_start(const char *name, const char *phase, ChildServe serve, void *ud,
                   Wire *result, char *err, size_t errlen);
/* One request under the limits.  When a limit stops it (or the wait hook cancels), the child
 * is killed: child_alive is then false and the caller starts a new one if it needs one. */
bool child_request(Child *c, const char *phase, const Wire *req, Wire *result, char *err,
                   size_t errlen);
bool child_alive(const Child *c);
/* Kill the child (if alive) and free c (NULL: nothing). */
void child_stop(Child *c);

/* The calling thread's wait hook (NULL: none). */
typedef bool (*ChildWaitFn)(void *ud);
void child_set_wait_hook(ChildWaitFn fn, void *ud);

/* Inside a child: true; the sandbox then sends prints over the pipe (child_print) and keeps
 * the line it is running at in child_where (read by the parent when it stops the child). */
bool child_inside(void);
void child_print(const char *name, const char *text);
void child_where(const char *where);

#endif
