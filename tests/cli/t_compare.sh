#!/bin/sh
# meshcast compare: Seidel's Figures 16 and 18 (Section 6), with the crossovers named.
. "$(dirname "$0")/../lib.sh"

check_exit "compare array:16" 0 "$MESHCAST" compare --net array:16 --bytes 8:65536
T=$OUT
for a in st bst rh; do check_match "array:16 table has $a" "^ +bytes .* $a( |\$)" "$T"; done
check_match "array:16 rows from 8 to 65536" '^ +65536 ' "$T"
check_match "array:16: st wins at 8 bytes" '^ +8 .* st$' "$T"
check_match "array:16: bst beats st (Table I: from m > 2b/(3a) = 625)" 'bst beats st from 626 bytes' "$T"
check_nomatch "array:16: rh never beats bst" 'rh beats bst' "$T"

check_exit "compare array:16 --json" 0 "$MESHCAST" compare --net array:16 --bytes 8:65536 --json
check_eq "json: 14 sizes" 14 "$(printf '%s' "$OUT" | jq '.sizes | length')"
check_eq "json: bst/st crossover exact 626" 626 "$(printf '%s' "$OUT" | jq '[.crossovers[] | select(.winner == "bst" and .loser == "st")][0].exact')"
check_eq "json: st wins at 8 bytes" st "$(printf '%s' "$OUT" | jq -r '.winners[0]')"
check_eq "json: every schedule ok" true "$(printf '%s' "$OUT" | jq '[.algorithms[] | select(has("ok")) | .ok[]] | all')"
# (RH cuts the message into n pieces: its closed form assumes n divides m, so from m = n on.)
check_eq "json: simulated = predicted for st, bst, rh (m >= n)" true \
    "$(printf '%s' "$OUT" | jq '.sizes as $s | [.algorithms[] | select(.name == "st" or .name == "bst" or .name == "rh") | [$s, .cost, .predicted] | transpose[] | select(.[0] >= 16) | (.[1] - .[2]) | fabs < 1e-6] | all')"
check_eq "json: rh at 8 bytes < 16 nodes differs from its closed form (m/n is not whole)" true \
    "$(printf '%s' "$OUT" | jq '[.algorithms[] | select(.name == "rh") | .cost[0] != .predicted[0]] | all')"

check_exit "compare array:16 --csv" 0 "$MESHCAST" compare --net array:16 --bytes 8:65536 --csv
check_eq "csv header" "bytes,algo,cost,predicted,steps,ok,winner" "$(printf '%s\n' "$OUT" | head -n 1)"
check_eq "csv: one winner per size" 14 "$(printf '%s\n' "$OUT" | awk -F, '$7 == 1' | wc -l | tr -d ' ')"

check_exit "compare mesh:16x32" 0 "$MESHCAST" compare --net mesh:16x32 --bytes 8:65536
M=$OUT
for a in st bst rh st-simple bst-snake; do check_match "mesh table has $a" " $a( |\$)" "$M"; done
# Among all of Seidel's mesh algorithms the simple ST wins the shortest messages, the snake
# BST a few hundred bytes (docs/errata.md); Figure 18's "better" ST, BST, RH cross as follows.
check_match "mesh: st-simple wins at 8 bytes" '^ +8 .* st-simple$' "$M"
check_match "mesh: rh wins at 64K" '^ +65536 .* rh$' "$M"
check_match "mesh: bst beats st near 1K (Table I: m > 75/0.07 = 1071.4)" 'bst beats st from 107[12] bytes \(sampled: st wins at 1024, bst at 2048\)' "$M"
check_match "mesh: rh beats bst above 12K (Table I: 11940; packets of m/512 bytes)" 'rh beats bst from 1(19[4-9][0-9]|20[0-9][0-9]) bytes \(sampled: bst wins at 8192, rh at 16384\)' "$M"
check_nomatch "mesh: nothing failed" '^not run' "$M"
check_match "mesh: crossovers section" '^crossovers:' "$M"
# Under the circuit model (arc-disjoint circuits) RH's shared links are violations: its cells
# are marked and it cannot win, but the comparison itself succeeds.
check_exit "compare under circuit: exit 0" 0 "$MESHCAST" compare --net array:16 --model circuit --bytes 1024:2048
check_match "compare under circuit: rh marked" '^ +1024 .*[0-9]! ' "$OUT"
check_match "compare under circuit: legend" 'violates the circuit model' "$OUT"
check_exit "compare --json under circuit" 0 "$MESHCAST" compare --net array:16 --model circuit --bytes 1024:2048 --json
check_eq "json: rh verified but not ok" "true false" "$(printf '%s' "$OUT" | jq -r '.algorithms[] | select(.name == "rh") | "\(.verified[0]) \(.ok[0])"')"
# Cells are as wide as their numbers: never a cut digit or a lost exponent (QA: chain's
# 120946280705 printed as 12094628070).  Every cost in the JSON appears whole in the table.
check_exit "compare 512G: exit 0" 0 "$MESHCAST" compare --net mesh:4x4 --bytes 512G:512G
T=$OUT
check_match "512G: chain's cost whole" ' 120946280705 ' "$T"
check_exit "compare 512G --json" 0 "$MESHCAST" compare --net mesh:4x4 --bytes 512G:512G --json
missing=""
for v in $(printf '%s' "$OUT" | jq -r '.algorithms[] | select(has("cost")) | .cost[0]'); do
    printf '%s\n' "$T" | grep -q -- " $v[*!# ]" || missing="$missing $v"
done
check_eq "512G: every JSON cost is in the table" "" "$missing"
check_exit "compare 1e18 bytes: exit 0" 0 "$MESHCAST" compare --net array:4 --bytes 1000000000000000000:1000000000000000000
check_match "1e18: costs keep their exponent" ' [0-9.]+e\+1[0-9][*!# ]' "$OUT"
# Sizes end at HI itself, even past 2^63 (QA: the loop stopped at 2^63).
check_exit "compare 1:2^64-1" 0 "$MESHCAST" compare --net array:4 --bytes 1:18446744073709551615 --json
check_match "1:2^64-1 ends at HI" '"sizes":\[1,2,4,.*,9223372036854775808,18446744073709551615\]' "$OUT"
check_exit "compare 1:2^64-1 text" 0 "$MESHCAST" compare --net array:4 --bytes 1:18446744073709551615
check_match "1:2^64-1 text row for HI" '^18446744073709551615 ' "$OUT"
# A work budget: what would take minutes and gigabytes is refused at once, saying what fits
# (QA: mesh:1024x1024 at 8:65536 took 56 s and 1 GB).
check_exit "compare mesh:1024x1024 8:65536: refused" 2 timeout 10 "$MESHCAST" compare --net mesh:1024x1024 --bytes 8:65536
check_eq "refusal: one line on stderr" 1 "$(printf '%s\n' "$ERR" | grep -c '')"
check_match "refusal: says why and what fits" "work budget.*(at most 1 size|too big for compare|use meshcast run)" "$ERR"
check_eq "refusal: nothing on stdout" "" "$OUT"
check_exit "compare mesh:512x512 --json: refused" 2 timeout 10 "$MESHCAST" compare --net mesh:512x512 --json
check_match "refusal: what fits mesh:512x512" "at most [0-9]+ sizes? \(e.g. --bytes 8:[0-9]+\)" "$ERR"
finish
