#!/bin/sh
# t_diff.sh — `meshcast diff A B` and check's "identical to the built-in".  Expected values
# by hand: under seidel a step of one message per node costs a*B + b; knomial (k = 3 by
# default) has its source send 2 messages in step 1, played in 2 one-port sub-rounds.
. "$(dirname "$0")/../lib.sh"
S=$ROOT/scripts
L=$ROOT/tests/lua
cd "$TMPD" || exit 2
params=$("$MESHCAST" run --net array:8 --algo st | sed -n 's/^model: *seidel (\(.*\))$/\1/p')
a=$(printf '%s\n' "$params" | tr ' ' '\n' | sed -n 's/^a=//p')
b=$(printf '%s\n' "$params" | tr ' ' '\n' | sed -n 's/^b=//p')
unit=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.12g", a * 1024 + b }')

check_exit "st vs st.lua: the same schedule (exit 0)" 0 "$MESHCAST" diff st "$S/st.lua" --net array:16
check_match "says the same" "the same schedule" "$OUT"
check_exit "st vs st.lua on every source of array:8 (exit 0 each)" 0 sh -c '
    for s in 0 1 2 3 4 5 6 7; do "$1" diff st "$2" --net array:8 --source $s >/dev/null || exit 1; done' sh "$MESHCAST" "$S/st.lua"
check_exit "st vs knomial.lua: different (exit 1)" 1 "$MESHCAST" diff st "$S/knomial.lua" --net array:8 --json
printf '%s\n' "$OUT" > d.json
check_eq "first difference at step 1" 1 "$(jq '.first_difference' d.json)"
check_close "st's step cost is aB + b" "$(jq '.steps[0].cost_a' d.json)" "$unit"
check_close "knomial's step 1 is 2(aB + b) (two sub-rounds)" "$(jq '.steps[0].cost_b' d.json)" "$(awk -v u="$unit" 'BEGIN { print 2 * u }')"
check_close "per-step difference = b - a" "$(jq '.steps[0].difference' d.json)" "$unit"
check_close "st total = 3(aB + b) on 8 nodes" "$(jq '.cost_a' d.json)" "$(awk -v u="$unit" 'BEGIN { print 3 * u }')"
check_eq "steps of each" "3 2" "$(jq -r '"\(.steps_a) \(.steps_b)"' d.json)"
check_exit "text form" 1 "$MESHCAST" diff st "$S/knomial.lua" --net array:8
check_match "text: names the first step" "^first difference: step 1 \\(st: 1 transfers, knomial: 2\\)" "$OUT"
check_exit "one name only: usage" 2 "$MESHCAST" diff st --net array:8
check_exit "unknown algorithm: usage" 2 "$MESHCAST" diff st nosuch --net array:8

# check says when a script builds exactly a built-in's schedule (sched_equal, not its words)
check_exit "check st.lua" 0 "$MESHCAST" check "$S/st.lua" --net array:8 --net array:16
check_match "st.lua is identical to st" "^identical to the built-in \`st\` .* on array:8, array:16$" "$OUT"
check_exit "check knomial.lua" 0 "$MESHCAST" check "$S/knomial.lua" --net array:8
check_nomatch "knomial (k = 3) is not st" "built-in \`st\`" "$OUT"
finish
