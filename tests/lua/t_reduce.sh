#!/bin/sh
# A script that declares a reduction (op = "reduce"): run, check, JSON; a reduction that loses
# or doubles a contribution fails with step, node and chunk named; op's misuses are usage
# errors.  And a script sees the cost model's constants in chunks() and build(), and can give
# data to any node (sched:give).
. "$(dirname "$0")/../lib.sh"
S=$ROOT/scripts
L=$ROOT/tests/lua

check_exit "tree-reduce on full:40" 0 "$MESHCAST" run --net full:40 --algo "$S/tree-reduce.lua" --model postal --bytes 4096 --set s=16
check_match "built as a reduction" "reduce to node 0 \\(built as a reduction by the script" "$OUT"
check_match "every contribution exactly once" "verified: +yes, the root ends with every contribution to every chunk exactly once" "$OUT"
check_match "its closed form matches the simulation" "closed form, matches" "$OUT"
check_exit "tree-reduce JSON, mesh:6x6 from node 7, gamma" 0 "$MESHCAST" run --net mesh:6x6 --algo "$S/tree-reduce.lua" --model postal --source 7 --set gamma=0.5 --set s=4 --json
check_eq "JSON: op reduce, verified, combine cost priced" "reduce true true" \
    "$(printf '%s' "$OUT" | jq -r '"\(.op) \(.reduction.verified) \(.reduction.combine > 0)"')"
check_exit "check tree-reduce: every size and source" 0 "$MESHCAST" check "$S/tree-reduce.lua" --model postal
check_match "check says what verified means for a reduction" "a reduction \\(op = \"reduce\"\\)" "$OUT"
check_match "check: all nets verified" "^([0-9]+) of \\1 nets verified and valid in every case" "$OUT"
check_nomatch "check: no prediction disagrees" "[0-9]\\*( |$)" "$OUT"
for k in 1 2 5; do
    check_exit "tree-reduce k=$k: checked on full, array, mesh" 0 "$MESHCAST" check "$S/tree-reduce.lua" --model postal --set k=$k --set s=8 --net full:33 --net array:10 --net mesh:5x7 --max-sources 8
    check_nomatch "tree-reduce k=$k: closed form = simulation" "[0-9]\\*( |$)" "$OUT"
done
check_exit "k=1 is a chain: P - 2 + s steps" 0 "$MESHCAST" run --net full:40 --algo "$S/tree-reduce.lua" --model postal --set k=1 --set s=16 --json
check_eq "k=1: 54 steps" 54 "$(printf '%s' "$OUT" | jq -r '.steps | length')"

# a contribution lost, one counted twice: step, node, chunk
check_exit "a lost contribution fails run" 1 "$MESHCAST" run --net full:4 --algo "$L/bad_reduce_lose.lua"
check_match "lost: named (after the last step, root, contributor, chunk, how far it got)" "end \\(after step 3\\): the root 0 lacks node 3's contribution to chunk 1: node 3 never sent it on" "$OUT"
check_exit "a lost contribution fails check" 1 "$MESHCAST" check "$L/bad_reduce_lose.lua" --net full:4 --net array:4 --max-sources 1
check_match "check names it" "FAIL full:4 source 0: reduction: end \\(after step 3\\): the root 0 lacks node 3's contribution to chunk 1" "$OUT"
check_exit "a doubled contribution fails run" 1 "$MESHCAST" run --net array:4 --algo "$L/bad_reduce_double.lua" --json
check_eq "doubled: JSON names step (0-based), node, chunk, contributor" "false doubled 2 1 0 3" \
    "$(printf '%s' "$OUT" | jq -r '.reduction | "\(.verified) \(.violations[0] | "\(.what) \(.step) \(.node) \(.chunk) \(.contribution)")"')"
check_exit "a doubled contribution fails run (text)" 1 "$MESHCAST" run --net full:4 --algo "$L/bad_reduce_double.lua"
check_match "doubled: step, node, contributor, chunk" "step 3: node 1 combines node 3's contribution to chunk 0 a second time" "$OUT"
check_exit "a doubled contribution fails check" 1 "$MESHCAST" check "$L/bad_reduce_double.lua" --net full:4 --max-sources 1
check_match "check names it" "FAIL full:4 source 0: reduction: step 3: node 1 combines node 3's contribution to chunk 0 a second time" "$OUT"

# misuse
check_exit "--op broadcast on a reduction" 2 "$MESHCAST" run --net full:8 --algo "$S/tree-reduce.lua" --op broadcast
check_match "one line says why" "builds a reduction .*--op broadcast does not apply" "$ERR"
check_exit "--op reduce on a reduction is the same run" 0 "$MESHCAST" run --net full:8 --algo "$S/tree-reduce.lua" --op reduce
cat >"$TMPD/badop.lua" <<'LUA'
return { name = "badop", op = "gather", nets = { "full" }, build = function() end }
LUA
check_exit "op = \"gather\" is refused" 2 "$MESHCAST" run --net full:8 --algo "$TMPD/badop.lua"
check_match "says which ops exist" "op must be \"broadcast\" \\(the default\\) or \"reduce\"" "$ERR"
cat >"$TMPD/badpow2.lua" <<'LUA'
return { name = "badpow2", op = "reduce", pow2 = true, nets = { "array" }, build = function() end }
LUA
check_exit "op = \"reduce\" with pow2 is refused" 2 "$MESHCAST" run --net array:8 --algo "$TMPD/badpow2.lua"
check_match "says why" "cannot be combined with pow2" "$ERR"

# p.cost in chunks() and build(); sched:give to any node
check_exit "cost and give: t=5" 0 "$MESHCAST" run --net full:6 --algo "$L/ok_cost_give.lua" --model postal --set t=5
check_match "chunks() chose floor(t) = 5 packets" "in 5 chunks" "$OUT"
check_match "verified: the given node sent what it was given" "verified: +yes" "$OUT"
check_exit "cost and give: t=3, gamma" 0 "$MESHCAST" schedule --net full:6 --algo "$L/ok_cost_give.lua" --model postal --set t=3 --set gamma=0.25 --source 2
check_match "3 packets" "in 3 chunks" "$OUT"
check_match "build saw t, beta and gamma" "step 1 t=3 beta=1 gamma=0.25" "$OUT"
check_match "the given node sends packets it got only by sched:give" "5 -> 0 +chunks 0-2" "$OUT"
check_exit "cost in chunks(): the seidel model is refused by the script's own assert" 1 "$MESHCAST" run --net full:6 --algo "$L/ok_cost_give.lua"
check_match "the assertion names what chunks() saw" "p.cost.model in chunks: seidel" "$ERR"
finish
