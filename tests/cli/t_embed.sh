#!/bin/sh
# Sanders & Sibeyn's Section 4 from the command line: the mesh embedding `fractional-htree`
# (Fig. 4's measurement, docs/errata.md) and the hierarchical crossbar `hxbar:AxB`, its
# channel contention and `fractional-hxbar`; the one-line errors of bad specs.
. "$(dirname "$0")/../lib.sh"

check_exit "list nets" 0 "$MESHCAST" list nets
check_match "list nets names hxbar" '^hxbar:AxB ' "$OUT"
check_exit "list algorithms" 0 "$MESHCAST" list algorithms
check_match "list: fractional-htree on mesh" '^fractional-htree +mesh +.*params: r=2 s=8 r1=auto' "$OUT"
check_match "list: fractional-hxbar on hxbar" '^fractional-hxbar +hxbar ' "$OUT"

# Fig. 4: r = 2 on 8 x 16 — verified, 28 steps as predicted, busiest link 2 (the paper: 1)
check_exit "fig 4" 0 "$MESHCAST" run --net mesh:8x16 --algo fractional-htree --set r=2 --set s=8 --model postal
check_match "fig 4: 28 steps" '^steps: +28 ' "$OUT"
check_match "fig 4: closed form" 'closed form, matches' "$OUT"
check_match "fig 4: link load 2" '^contention: +max link load 2, 24 overloaded links' "$OUT"
check_exit "node order on 8x16" 0 "$MESHCAST" run --net mesh:8x16 --algo fractional --set r=2 --set s=8 --model postal
check_match "node order: link load 9" '^contention: +max link load 9,' "$OUT"
check_exit "htree schedule routes" 0 "$MESHCAST" schedule --net mesh:8x16 --algo fractional-htree --model postal --format json
check_match "htree: explicit x-y routes" '"route":"x\+7 y\+3","explicit_route":true' "$OUT"
check_exit "htree on 8x12" 2 "$MESHCAST" run --net mesh:8x12 --algo fractional-htree
check_eq "htree on 8x12: one line" "meshcast: fractional-htree on mesh:8x12 with r=2: no r = r1*r2 with 8/r1 and 12/r2 powers of two and at least 2 groups (e.g. mesh:8x16 with r=2)" "$ERR"
check_exit "htree on a torus" 2 "$MESHCAST" run --net torus:8x16 --algo fractional-htree

# hxbar: the paper's 256 x 64 machine, two channels suffice; one does not
check_exit "hxbar 256x64" 0 "$MESHCAST" run --net hxbar:256x64 --algo fractional-hxbar --set r=2 --model postal
check_match "hxbar: verified" '^verified: +yes' "$OUT"
check_match "hxbar: no overload" '^contention: +max link load 1, 0 overloaded links' "$OUT"
check_match "hxbar: channels line" '^channels: +at most 2 transfers over one module.s channel' "$OUT"
check_exit "hxbar c=1" 0 "$MESHCAST" run --net hxbar:256x64,c=1 --algo fractional-hxbar --set r=2 --model postal
check_match "hxbar c=1: overloads" '^contention: +max link load 2, [1-9][0-9]* overloaded links' "$OUT"
check_exit "hxbar c=1 circuit: invalid" 1 "$MESHCAST" run --net hxbar:8x4,c=1 --algo fractional-hxbar --model circuit
check_match "hxbar c=1 circuit: the channel named" 'step 3: more than 1 transfers out of module 0 over its 1 channels \(load 2\)' "$OUT"
check_exit "hxbar json" 0 "$MESHCAST" run --net hxbar:16x4 --algo fractional-hxbar --model postal --json
check_match "hxbar json keys" '"max_link_load":1,"max_channel_load":2,"channels":2,' "$OUT"
# asynchronous timing on hxbar: a transfer between modules waits for a free channel of each
# module; with channels enough for every step (c=64) the time is full:64's
check_exit "hxbar async" 0 "$MESHCAST" run --net hxbar:16x4 --algo bintree --timing async
check_match "hxbar async: channels hold it back" '^timing: +async: 4688.2 us' "$OUT"
check_match "hxbar async: channel waits printed" '^ +async: 341 transfers waited for a free channel, 65890.52 us in all \(longest 596.68\)' "$OUT"
check_exit "hxbar async json" 0 "$MESHCAST" run --net hxbar:16x4 --algo bintree --timing async --json
check_match "hxbar async json: channel waits" '"async_total":4688.2,"channel_waits":341,"channel_wait":65890.52' "$OUT"
check_exit "hxbar c=64 async" 0 "$MESHCAST" run --net hxbar:16x4,c=64 --algo bintree --timing async
check_match "hxbar c=64 async: as on full:64" '^timing: +async: 1875.28 us' "$OUT"
check_match "hxbar c=64 async: no wait" '^ +async: 0 transfers waited' "$OUT"
# the paper's 256 x 64 machine timed asynchronously: 2 channels, no wait; 1 channel, waits
check_exit "hxbar 256x64 async" 0 "$MESHCAST" run --net hxbar:256x64 --algo fractional-hxbar --set r=2 --model postal --timing async
check_match "hxbar 256x64 async: the lockstep time" '^timing: +async: 6063 units +\(event by event; lockstep above: 6063 units\)' "$OUT"
check_match "hxbar 256x64 async: no channel wait" '^ +async: 0 transfers waited' "$OUT"
check_exit "hxbar 256x64 c=1 async" 0 "$MESHCAST" run --net hxbar:256x64,c=1 --algo fractional-hxbar --set r=2 --model postal --timing async
check_match "hxbar 256x64 c=1 async: slower" '^timing: +async: 7869 units' "$OUT"
check_match "hxbar 256x64 c=1 async: channel waits" '^ +async: 1044 transfers waited' "$OUT"
check_exit "full:64 async" 0 "$MESHCAST" run --net full:64 --algo bintree --timing async
check_match "full:64 async: the same" '^timing: +async: 1875.28 us' "$OUT"
check_exit "chain on hxbar async: no wait" 0 "$MESHCAST" run --net hxbar:16x4 --algo chain --timing async --model postal
check_match "chain: one transfer a module at a time" '^ +async: 0 transfers waited' "$OUT"
check_exit "bintree on hxbar" 0 "$MESHCAST" run --net hxbar:16x4 --algo bintree --model postal
check_match "bintree in node order overloads" '^contention: +max link load 2, 231 overloaded' "$OUT"
for spec in hxbar:4 hxbar:4x8,c=0 hxbar:4x8,d=3 hxbar:4x4x4 hxbar:x8; do
    check_exit "bad $spec" 2 "$MESHCAST" run --net "$spec" --algo chain
    check_match "bad $spec: one line" "^meshcast: bad net '$spec': " "$ERR"
done
check_exit "r > B" 2 "$MESHCAST" run --net hxbar:4x2 --algo fractional-hxbar --set r=3
check_match "r > B: says so" 'Section 4 needs b >= r' "$ERR"
finish
