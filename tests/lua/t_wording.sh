#!/bin/sh
# t_wording.sh — issue 19's wording items: time-step optimality is not judged for multi-chunk
# schedules (Cang & Wu define it for one message); trailing empty steps a script opened and
# never used are dropped (not counted).
. "$(dirname "$0")/../lib.sh"
L=$ROOT/tests/lua
cd "$TMPD" || exit 2
check_exit "bst on array:16" 0 "$MESHCAST" run --net array:16 --algo bst
nch=$(printf '%s\n' "$OUT" | sed -n 's/.* in \([0-9]*\) chunks*$/\1/p' | head -1)
check_eq "bst sends 2 chunks" 2 "$nch"
check_match "multi-chunk: optimality does not apply" "^time steps:  optimal: does not apply \\(2 chunks" "$OUT"
check_nomatch "multi-chunk: no NO verdict" "optimal: NO" "$OUT"
check_exit "st on array:16 (one chunk)" 0 "$MESHCAST" run --net array:16 --algo st
check_match "one chunk: judged" "^time steps:  optimal: yes" "$OUT"

# ok_trailing.lua: the chain on array:5 and one step opened too many: 4 steps, 4 start-ups
check_exit "trailing empty step: run" 0 "$MESHCAST" run --net array:5 --algo "$L/ok_trailing.lua" --json
check_eq "4 steps, not 5" 4 "$(printf '%s' "$OUT" | jq '.steps')"
b=$(printf "%s" "$OUT" | jq ".params.b")
check_close "startup = 4 b" "$(printf '%s' "$OUT" | jq '.cost.startup')" "$(awk -v b="$b" 'BEGIN { print 4 * b }')"

# saf: the summary speaks of beta and hops, not of alpha, delta or one-port conflicts; the
# hops it names times beta is the start-up part of the cost (d_t * beta summed over steps)
check_exit "st on mesh:4x4 under saf" 0 "$MESHCAST" run --net mesh:4x4 --algo st --model saf --set beta=3
check_nomatch "saf: no alpha or delta in the terms" "^terms: .*\\((alpha|delta)\\)" "$OUT"
check_nomatch "saf: no port conflicts" "port conflict" "$OUT"
hops=$(printf '%s\n' "$OUT" | sed -n 's/^terms: .* steps*, \([0-9]*\) hops.*/\1/p')
json=$("$MESHCAST" run --net mesh:4x4 --algo st --model saf --set beta=3 --json)
check_close "hops x beta = the start-up part" "$(printf '%s' "$json" | jq '.cost.startup')" "$(awk -v h="$hops" -v b="$(printf '%s' "$json" | jq '.params.beta')" 'BEGIN { print h * b }')"
# compare --terms marks a reduction (op = "reduce") as one: exactly the scripts that declare it
check_exit "compare --terms --json" 0 "$MESHCAST" compare --net array:16 --model postal --terms --json
declared=$(grep -l '^ *op = "reduce"' "$ROOT"/scripts/*.lua | while read -r f; do sed -n 's/^ *name = "\([^"]*\)".*/\1/p' "$f" | head -1; done | sort | tr '\n' ' ')
marked=$(printf '%s' "$OUT" | jq -r '.. | objects | select(.reduction == true) | .algo' | sort | tr '\n' ' ')
check_eq "the reductions marked are those declared" "$declared" "$marked"
check_exit "compare --terms text" 0 "$MESHCAST" compare --net array:16 --model postal --terms
check_match "text: (reduce) after the name" "^tree-reduce \\(reduce\\) " "$OUT"
finish
