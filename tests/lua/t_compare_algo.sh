#!/bin/sh
# t_compare_algo.sh — compare --algo a,b,FILE.lua: a user's script beside the built-ins across
# message sizes (--bytes), --csv/--json, --terms; expected costs from the closed form worked
# here (Seidel eq. 1 for the binomial tree on array:2^d: d * (a*m + b)).
. "$(dirname "$0")/../lib.sh"
S=$ROOT/scripts
cd "$TMPD" || exit 2

check_exit "compare --algo st,knomial.lua --bytes 8:4096 --csv" 0 "$MESHCAST" compare --net array:16 --algo "st,$S/knomial.lua" --set k=2 --bytes 8:4096 --csv
printf '%s\n' "$OUT" > cmp.csv
check_eq "two algorithms x 10 sizes + header" 21 "$(grep -c '' cmp.csv)"
check_eq "only the named ones" "knomial st" "$(awk -F, 'NR > 1 { print $2 }' cmp.csv | sort -u | tr '\n' ' ' | sed 's/ $//')"
# a = 0.08, b = 75 (seidel defaults, as run prints them); d = 4
params=$("$MESHCAST" run --net array:16 --algo st | sed -n 's/^model: *seidel (\(.*\))$/\1/p')
a=$(printf '%s\n' "$params" | tr ' ' '\n' | sed -n 's/^a=//p')
b=$(printf '%s\n' "$params" | tr ' ' '\n' | sed -n 's/^b=//p')
bad_rows=$(awk -F, -v a="$a" -v b="$b" 'NR > 1 && $2 == "knomial" {
    want = 4 * (a * $1 + b); d = $3 - want; if (d < 0) d = -d
    if (d > 1e-9 * want) print $1 }' cmp.csv)
check_eq "knomial.lua k=2 costs d(am + b) at every size" "" "$bad_rows"
check_eq "knomial.lua k=2 equals st at every size" "" "$(awk -F, 'NR > 1 { c[$1, $2] = $3 } END { for (k in c) { split(k, p, SUBSEP); if (p[2] == "st" && c[p[1], "knomial"] != c[k]) print p[1] } }' cmp.csv)"

# only scripts named: set beside every built-in that fits
check_exit "--algo FILE.lua alone: beside the built-ins" 0 "$MESHCAST" compare --net array:16 --algo "$S/knomial.lua" --bytes 64:64 --csv
n_builtin=$("$MESHCAST" compare --net array:16 --bytes 64:64 --csv | awk -F, 'NR > 1' | grep -c '')
check_eq "every built-in plus the script" $((n_builtin + 1)) "$(printf '%s\n' "$OUT" | awk -F, 'NR > 1' | grep -c '')"
check_exit "--algo FILE.lua --json" 0 "$MESHCAST" compare --net array:16 --algo "st,$S/st.lua" --bytes 64:256 --json
check_match "--json names the script" '"st-lua"' "$OUT"

check_exit "--algo with --terms takes scripts" 0 "$MESHCAST" compare --net array:16 --algo "$S/knomial.lua" --terms
check_match "--terms lists knomial" "^knomial " "$OUT"
check_exit "--algo nosuch: usage error" 2 "$MESHCAST" compare --net array:16 --algo nosuch
check_match "--algo nosuch: says unknown" "unknown algorithm 'nosuch'" "$ERR"
check_exit "--algo a script that does not fit the net: usage error" 2 "$MESHCAST" compare --net mesh:4x4 --algo "$S/st.lua"
check_match "says why" "does not run" "$ERR"
# --sweep bytes=LO:HI with a script: the two-way chain from node 0 of array:16 takes 15 steps
# of one message each, (a*m + b) a step; st takes 4 (eq. 1): both by hand at every m
check_exit "--sweep bytes=8:64 with a script" 0 "$MESHCAST" compare --net array:16 --algo "st,$ROOT/scripts/two-way-chain.lua" --sweep bytes=8:64 --json
printf '%s\n' "$OUT" > sw.json
check_eq "57 byte counts" 57 "$(jq '.values | length' sw.json)"
bad=$(jq -r '.values as $v | .algorithms[] | .name as $n | range(0; $v | length) as $i | "\($n) \($v[$i]) \(.cost[$i])"' sw.json |
    awk -v a="$a" -v b="$b" '{ k = ($1 == "st") ? 4 : 15; want = k * (a * $2 + b); d = $3 - want; if (d < 0) d = -d; if (d > 1e-9 * want) print }')
check_eq "every cell is k(am + b)" "" "$bad"
check_exit "--sweep bytes= with --timing both" 0 "$MESHCAST" compare --net array:16 --algo st --sweep bytes=1024:2048 --timing both --json
check_eq "two columns: lockstep and async" "st|st async" "$(printf '%s' "$OUT" | jq -r '[.algorithms[].name] | join("|")')"
check_close "async st at 1024 bytes: 4(aB + b), no waiting on a tree" "$(printf '%s' "$OUT" | jq '.algorithms[1].cost[0]')" "$(awk -v a="$a" -v b="$b" 'BEGIN { print 4 * (a * 1024 + b) }')"
check_exit "--sweep bytes= with --bytes: usage" 2 "$MESHCAST" compare --net array:16 --algo st --sweep bytes=8:64 --bytes 1024
check_exit "--sweep with a bad --timing: usage" 2 "$MESHCAST" compare --net array:16 --algo st --sweep bytes=8:64 --timing sometimes
# compare --sources takes --algo with user scripts: stop-ring.lua on mesh:4x4 forwards every
# message round the 16-node ring, one message per node a step: 15 steps of (aB + b)
check_exit "compare --sources --algo br-lin,stop-ring.lua" 0 "$MESHCAST" compare --net mesh:4x4 --sources E:3 --algo "br-lin,$ROOT/scripts/stop-ring.lua" --bytes 1024 --csv
check_eq "two algorithms" 2 "$(printf '%s\n' "$OUT" | awk -F, 'NR > 1' | grep -c '')"
check_close "stop-ring.lua: 15(aB + b)" "$(printf '%s\n' "$OUT" | awk -F, '$5 ~ /stop-ring/ { print $6 }')" "$(awk -v a="$a" -v b="$b" 'BEGIN { print 15 * (a * 1024 + b) }')"
n_stop=$("$MESHCAST" compare --net mesh:4x4 --sources E:3 --bytes 1024 --csv | awk -F, 'NR > 1' | grep -c '')
check_exit "compare --sources --algo FILE.lua alone" 0 "$MESHCAST" compare --net mesh:4x4 --sources E:3 --algo "$ROOT/scripts/stop-ring.lua" --bytes 1024 --csv
check_eq "the script beside every s-to-p built-in" $((n_stop + 1)) "$(printf '%s\n' "$OUT" | awk -F, 'NR > 1' | grep -c '')"
check_exit "compare --sources --algo nosuch.lua: usage" 2 "$MESHCAST" compare --net mesh:4x4 --sources E:3 --algo ./nosuch.lua
finish
