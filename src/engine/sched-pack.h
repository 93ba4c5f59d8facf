/* sched-pack.h — a whole schedule as one byte string and back, in bulk: how a schedule built
 * in another process (a Lua script's child, src/script/lua-child.h) crosses the socket.
 *
 * The bytes follow the schedule's own compact layout (sched-internal.h), step by step: the
 * initial holdings, then per step its label, its stored transfers (16 bytes each, ends and
 * range slot, whether the step keeps a slot per transfer or one for all; a step of simple
 * transfers — one range, default route — is one array), the ranges and explicit routes of
 * the others, its strided rule blocks (sched-strided.h: a script's send_strided, 40 bytes
 * however many transfers; a step with a rule block of any other kind is shipped as its
 * transfers, expanded), and its local operations.  Both ends run the same binary (the child
 * is a fork), so the layout is the same; but the reader trusts nothing: every transfer is
 * checked as sched_send checks it (nodes in the net, no send to itself, chunks below nchunks,
 * a route that ends at its destination), every strided block whole as sched_send_strided
 * checks it (and kept as a tree step, sched_send_tree, when it is one), every count against
 * the bytes that are there, and the blocks may give at most SCHED_PACK_MAX_RULED transfers
 * in all.  A step of simple transfers that all pass is appended in one pass, straight into
 * the step's arrays; anything else goes through sched_send / sched_send_route one by one, so
 * a bad transfer fails the schedule with sched_send's own message.
 *
 * Ownership: sched_pack writes through put (it keeps nothing); sched_unpack reads p in place. */
#ifndef MESHCAST_SCHED_PACK_H
#define MESHCAST_SCHED_PACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sched.h"

/* The most transfers a packed schedule may give by strided blocks (40 bytes could otherwise
 * stand for billions); a script's cap on its transfers (lua-mc.c) is the same. */
#define SCHED_PACK_MAX_RULED (INT64_C(1) << 25)

typedef void (*SchedPut)(void *ud, const void *p, size_t n);

/* Write s (holdings, steps, labels, transfers, locals) through put.  False when memory runs
 * out (a step made by rules is expanded on the way). */
bool sched_pack(const Sched *s, SchedPut put, void *ud);

/* Append what sched_pack wrote (p, len) to s: its holdings after the first skip_given (the
 * ones s was given already), then its steps, from step 0 (opened with sched_at).  *used (if
 * not NULL) gets how many bytes were read.  False when s records an error (a bad transfer,
 * memory) or the bytes are malformed ("the packed schedule is malformed" recorded in s). */
bool sched_unpack(Sched *s, const unsigned char *p, size_t len, size_t skip_given,
                  size_t *used);

#endif
