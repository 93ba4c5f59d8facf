#!/bin/sh
# Whole runs beyond Seidel nu = 0 on arrays and meshes (issue 21): a torus, nu > 0 with a
# message that 2^nu does not divide and with a link load that is no multiple of 2^nu, and the
# postal, circuit and saf models.  Every expected value is worked out here from the model's
# formulas (docs/model.md) and the schedule's shape, not copied from meshcast's output.
. "$(dirname "$0")/../lib.sh"

j() { "$MESHCAST" run "$@" --json 2>"$TMPD/err"; }
# arithmetic in awk, printed as jq prints numbers
calc() { awk "BEGIN { printf \"%.10g\", $1 }"; }
field() { printf '%s' "$1" | jq -r "$2"; }

# saf on torus:4x4: flood goes one hop a step, all-port; from node 0 the farthest node is
# 2 + 2 hops away (wrap-around), so 4 steps, each d * (beta + B * tau) with d = 1.
OUT=$(j --net torus:4x4 --algo flood --model saf --bytes 1000)
check_eq "saf, torus:4x4 flood: steps = diameter 4" 4 "$(field "$OUT" .steps)"
check_close "saf: total = 4 * 1 * (beta + B tau)" "$(field "$OUT" .cost.total)" "$(calc '4 * 1 * (1 + 1000 * 1)')"
check_close "saf: startup = 4 * d beta" "$(field "$OUT" .cost.startup)" "$(calc '4 * 1 * 1')"

# circuit on torus:4x4 with delta = 0.5: the same four one-hop steps, alpha + d delta + B tau
OUT=$(j --net torus:4x4 --algo flood --model circuit --set delta=0.5 --bytes 1000)
check_close "circuit, delta 0.5: 4 * (alpha + delta + B tau)" "$(field "$OUT" .cost.total)" "$(calc '4 * (1 + 0.5 + 1000)')"
check_close "circuit: startup 4 * (alpha + delta)" "$(field "$OUT" .cost.startup)" "$(calc '4 * 1.5')"

# circuit on torus:5x5: tiling needs log_5 25 = 2 phases, each alpha + B tau (delta = 0)
OUT=$(j --net torus:5x5 --algo tiling --model circuit --bytes 1000)
check_eq "circuit, torus:5x5 tiling: 2 phases" 2 "$(field "$OUT" .steps)"
check_close "circuit: 2 * (alpha + B tau)" "$(field "$OUT" .cost.total)" "$(calc '2 * (1 + 1000)')"

# postal: a chain of 6 nodes with s = 4 packets takes (6 - 1) + (4 - 1) = 8 steps; every step
# moves whole packets of B/s bytes: t + beta * B/s each
OUT=$(j --net array:6 --algo chain --set s=4 --model postal --bytes 4000)
check_eq "postal chain array:6 s=4: 8 steps" 8 "$(field "$OUT" .steps)"
check_close "postal: 8 * (t + beta * B/4)" "$(field "$OUT" .cost.total)" "$(calc '8 * (1 + 1 * 1000)')"

# seidel nu = 1, B = 1001 (odd: the two packets are chunk j's floor(B(j+1)/2) - floor(Bj/2)
# bytes = 500 and 501).  st on array:16: 1 distribute step, log2(16/2) = 3 tree steps in the
# two interleaved subarrays, 1 exchange step; each step has a transfer of the 501-byte packet
# and no link carries more than 2 = 2^nu circuits: 5 * (a * 501 + b).  The closed form
# (Seidel eq. 2) prices B/2 = 500.5 bytes: 5 * (a * 500.5 + b).
OUT=$(j --net array:16 --algo st --set nu=1 --bytes 1001)
check_eq "st nu=1 array:16: 5 steps" 5 "$(field "$OUT" .steps)"
check_close "st nu=1, B=1001: 5 * (a * 501 + b)" "$(field "$OUT" .cost.total)" "$(calc '5 * (0.08 * 501 + 75)')"
check_close "st nu=1: closed form 5 * (a * B/2 + b)" "$(field "$OUT" .predicted)" "$(calc '5 * (0.08 * 1001 / 2 + 75)')"
check_eq "st nu=1: no contention (2 circuits per link)" "0 2" "$(field "$OUT" '"\(.cost.contention) \(.max_link_load)"')"

# seidel, a link load that is no multiple of 2^nu: step 3 sends 0->4, 1->5, 2->6 on array:8,
# so links 2->3 and 3->4 carry 3 circuits (1->2 and 4->5 carry 2).  A step costs
# ceil(k / 2^nu) * a * B + b for its busiest link's load k.
cat >"$TMPD/three.lua" <<'LUA'
return {
  name = "three-on-a-link", summary = "three circuits over one link in step 3", nets = { "array" },
  build = function(sched, net, p, source)
    local s1 = sched:step(); s1:send(0, 1, { 0 })
    local s2 = sched:step(); s2:send(0, 2, { 0 })
    local s3 = sched:step(); s3:send(0, 4, { 0 }); s3:send(1, 5, { 0 }); s3:send(2, 6, { 0 })
    local s4 = sched:step(); s4:send(2, 3, { 0 }); s4:send(6, 7, { 0 })
  end,
}
LUA
for nu in 0 1 2; do
    OUT=$(j --net array:8 --algo "$TMPD/three.lua" --set nu=$nu --bytes 1000)
    m=$(awk -v nu=$nu 'BEGIN { c = 2 ^ nu; print int((3 + c - 1) / c) }')   # ceil(3 / 2^nu)
    over=$(awk -v nu=$nu 'BEGIN { c = 2 ^ nu; print (3 > c) * 2 + (2 > c) * 2 }')
    check_close "nu=$nu: 3 * (aB + b) + ($m aB + b)" "$(field "$OUT" .cost.total)" "$(calc "3 * (0.08 * 1000 + 75) + ($m * 0.08 * 1000 + 75)")"
    check_close "nu=$nu: contention ($m - 1) aB" "$(field "$OUT" .cost.contention)" "$(calc "($m - 1) * 0.08 * 1000")"
    check_eq "nu=$nu: busiest link 3, links over 2^nu: $over" "3 $over" "$(field "$OUT" '"\(.max_link_load) \(.link_overloads)"')"
    check_eq "nu=$nu: verified" true "$(field "$OUT" .verified)"
done

finish
