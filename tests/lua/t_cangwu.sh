#!/bin/sh
# Cang & Wu from Lua: the API asserts (tests/lua/cangwu_api.lua), predict's TCD (the '=' of
# check's tcd column), and the shipped scripts/eyes.lua: time-step optimal from every source
# (its build asks sched:verdict), its TCD from an eye = eq. 10, never below tcd's.
. "$(dirname "$0")/../lib.sh"
S=$ROOT/scripts
check_exit "check cangwu_api.lua on 2x2 .. 16x16" 0 "$MESHCAST" check "$ROOT/tests/lua/cangwu_api.lua" --net mesh:2x2 --net mesh:4x4 --net mesh:8x8 --net mesh:16x16 --max-sources 8
check_match "every TCD equals predict's second result" "mesh:8x8 .* 108= *$" "$OUT"
check_exit "check eyes.lua on 2x2 .. 16x16" 0 "$MESHCAST" check "$S/eyes.lua" --net mesh:2x2 --net mesh:4x4 --net mesh:8x8 --net mesh:16x16 --max-sources 16
check_match "all verified" "^4 of 4 nets verified" "$OUT"
check_exit "eyes.lua from an eye of 16x16" 0 "$MESHCAST" run --net mesh:16x16 --algo "$S/eyes.lua" --source 5,5 --json
check_eq "eyes.lua: TCD = predicted = eq. 10 (291)" "291 291 true" "$(printf '%s' "$OUT" | jq -r '[.tcd, .predicted_tcd, .time_step_optimal] | map(tostring) | join(" ")')"
for s in 0 3,3 1,6; do
    e=$("$MESHCAST" run --net mesh:8x8 --algo "$S/eyes.lua" --source $s --json | jq .tcd)
    t=$("$MESHCAST" run --net mesh:8x8 --algo tcd --source $s --json | jq .tcd)
    check "eyes.lua from $s: $e >= tcd's $t" test "$e" -ge "$t"
done
check_exit "eyes.lua refuses a non-square mesh" 2 "$MESHCAST" run --net mesh:4x8 --algo "$S/eyes.lua"
finish
