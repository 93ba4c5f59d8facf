#!/bin/sh
# A Lua script builds pipelined circuit-switched phases (tests/lua/pipe_ring.lua: P packets,
# packet c's phase i at step i + c with sched:at) and runs under either timing: valid (all-port,
# arc-disjoint) from every source on several rings, and its predict — lockstep or the
# asynchronous flow shop, by the timing it is asked under — equal to the simulation, with
# packets that do not divide the message too.
. "$(dirname "$0")/../lib.sh"
S=$ROOT/tests/lua/pipe_ring.lua
cd "$TMPD" || exit 2
check_exit "check: every ring and source, valid, = predicted" 0 "$MESHCAST" check "$S" \
    --net ring:5 --net ring:8 --net ring:13 --model circuit --set P=5 --bytes 1003
check_nomatch "no failing net, no disagreeing prediction" 'FAIL|\*' "$OUT"
for t in lockstep async; do
    for c in "ring:16 4 4096" "ring:9 7 1000" "ring:12 1 500" "ring:30 16 777"; do
        set -- $c
        "$MESHCAST" run --net "$1" --algo "$S" --model circuit --set P="$2" --bytes "$3" \
            --set delta=3 --timing $t --json >r.json 2>r.err
        check_eq "$t on $1, P=$2, L=$3: exit 0 (valid)" 0 $?
        tot=$(jq -r "if \"$t\" == \"async\" then .async_total else .cost.total end" r.json)
        check_close "$t on $1, P=$2, L=$3: predicted = simulated" "$(jq -r .predicted r.json)" "$tot"
        check_eq "$t on $1: $2 packets pipelined into $(($2 + ${1#ring:} / 2 - 1)) steps" \
            "$(($2 + ${1#ring:} / 2 - 1))" "$(jq -r .steps r.json)"
    done
done
finish
