#!/bin/sh
# t_claims.sh — a script's claims (steps, tcd, contention_free, time_step_optimal) verified
# by check on every case, the first counter-example named, exit 1.  ok_claims.lua is the
# binomial tree on array:2^d; by hand: d steps; each step moves the message 2^(d-1) hops in
# all (2^i holders, 2^(d-1-i) hops each), so TCD = d * 2^(d-1); one circuit per link;
# doubling every step, so time-step optimal.
. "$(dirname "$0")/../lib.sh"
L=$ROOT/tests/lua
cd "$TMPD" || exit 2

check_exit "true claims hold on every case (exit 0)" 0 "$MESHCAST" check "$L/ok_claims.lua" --net array:8 --net array:16 --json
check_eq "4 claims checked on each of the 24 cases" "24" "$(printf '%s' "$OUT" | jq '[.cases[] | select(.claims_checked == 4 and .claim_failed == null)] | length')"
# the TCD claimed is d * 2^(d-1): the simulator's TCD agrees on every case (by hand, above)
check_eq "the TCD the claim states is the simulated one" "12 32" "$(printf '%s' "$OUT" | jq -r '[.cases[] | .tcd] | unique | map(tostring) | join(" ")')"

sed 's/steps = function(net, p) return mc.log2(net:size()) end/steps = function(net, p) return mc.log2(net:size()) - 1 end/' "$L/ok_claims.lua" > steps.lua
check_exit "a false steps claim: exit 1" 1 "$MESHCAST" check ./steps.lua --net array:8
check_match "the first counter-example named" "^FAIL CLAIM array:8 source 0: claims steps = 2, the schedule takes 3 \\(8 of 8 cases\\)" "$OUT"

sed 's/contention_free = true/contention_free = true, steps = 3/; s/^    steps = function.*$//' "$L/ok_claims.lua" > fixed.lua
check_exit "steps = 3 (a number) holds on array:8" 0 "$MESHCAST" check ./fixed.lua --net array:8
check_exit "... and fails on array:16 (4 steps)" 1 "$MESHCAST" check ./fixed.lua --net array:8 --net array:16
check_match "names array:16" "^FAIL CLAIM array:16 source 0: claims steps = 3, the schedule takes 4" "$OUT"

# contention_free = true is false for the flat broadcast under circuit (source sends to all:
# arc 0->1 carries N-1 circuits on an array from node 0; under seidel the one-port sub-rounds
# would carry them one at a time)
sed 's/^  name = "bad-flat", nets = { "array", "mesh" },/  name = "bad-flat", nets = { "array", "mesh" }, claims = { contention_free = true },/' "$L/bad_flat.lua" > flatc.lua
check_exit "contention_free claimed wrongly: exit 1" 1 "$MESHCAST" check ./flatc.lua --net array:4 --model circuit
check_match "says the load" "^FAIL CLAIM array:4 source 0: claims contention_free = true, but the max link load is 3" "$OUT"
check_exit "... holds under seidel (sub-rounds): exit 0" 0 "$MESHCAST" check ./flatc.lua --net array:4

sed 's/time_step_optimal = true/time_step_optimal = false/' "$L/ok_claims.lua" > tso.lua
check_exit "time_step_optimal = false on an optimal tree: exit 1" 1 "$MESHCAST" check ./tso.lua --net array:4
check_match "says it is optimal" "claims time_step_optimal = false, but it is optimal" "$OUT"

sed 's/contention_free = true,/contention_fre = true,/' "$L/ok_claims.lua" > typo.lua
check_exit "an unknown claim is refused (exit 2)" 2 "$MESHCAST" check ./typo.lua --net array:4
check_match "with the nearest name" "unknown claim 'contention_fre' \\(did you mean 'contention_free'\\?\\)" "$ERR"
# the worked first script (docs/lua-api.md): its claims hold on every size and source; under
# postal only the two ends are valid sources (an inner one sends twice in step 1): 2 of N
check_exit "two-way-chain.lua: every size and source, claims hold" 0 "$MESHCAST" check "$ROOT/scripts/two-way-chain.lua"
check_exit "two-way-chain.lua under postal: invalid from inner sources" 1 "$MESHCAST" check "$ROOT/scripts/two-way-chain.lua" --model postal --net array:5 --net array:8 --json
check_eq "postal: 2 valid sources of 5, 2 of 8" "2 2" "$(printf '%s' "$OUT" | jq -r '[.cases | group_by(.net)[] | map(select(.valid)) | length] | map(tostring) | join(" ")')"
check_eq "postal: the valid ones are the ends" "array:5:0 array:5:4 array:8:0 array:8:7" "$(printf '%s' "$OUT" | jq -r '[.cases[] | select(.valid) | "\(.net):\(.source)"] | join(" ")')"
finish
