#!/bin/sh
# scripts/ternary.lua (a circuit-switched broadcast not in Peters & Syska): valid (all-port,
# arc-disjoint) from every source on 3^a x 3^b tori, its closed form equal to the simulation;
# scripts run under either timing, and predict sees which.
. "$(dirname "$0")/../lib.sh"

check_exit "ternary checked on 3x3 .. 27x27 and 9x27 under circuit" 0 "$MESHCAST" check "$ROOT/scripts/ternary.lua" \
    --net torus:3x3 --net torus:9x9 --net torus:27x27 --net torus:9x27 --net torus:27x3 --model circuit --set delta=2
check_nomatch "no failing net" 'FAIL|\*' "$OUT"
check_exit "ternary on 81x81" 0 "$MESHCAST" run --net torus:81x81 --algo "$ROOT/scripts/ternary.lua" --model circuit --json
check_eq "8 phases, valid, = predicted" "8 true 0" "$(printf '%s' "$OUT" | jq -r '"\(.terms.phases) \(.valid) \(.difference)"')"
check_exit "ternary under async" 0 "$MESHCAST" run --net torus:27x27 --algo "$ROOT/scripts/ternary.lua" --model circuit --timing async --json
check_eq "async = lockstep for one packet" "true" "$(printf '%s' "$OUT" | jq -r '.async_total == .cost.total')"
check_exit "ternary refuses 10x10" 2 "$MESHCAST" run --net torus:10x10 --algo "$ROOT/scripts/ternary.lua"
check_match "one-line reason" '3\^a x 3\^b' "$ERR"

# predict is told the timing
check_exit "probe lockstep" 1 "$MESHCAST" run --net torus:4x4 --algo "$ROOT/tests/lua/ok_timing.lua" --model circuit --json
check_eq "lockstep predict" 2 "$(printf '%s' "$OUT" | jq -r .predicted)"
check_exit "probe async" 1 "$MESHCAST" run --net torus:4x4 --algo "$ROOT/tests/lua/ok_timing.lua" --model circuit --timing async --json
check_eq "async predict" 1 "$(printf '%s' "$OUT" | jq -r .predicted)"
check_match "the probe's shared arcs are named" '"kind":"allport"' "$OUT"
finish
