#!/bin/sh
# t_knomial.sh — scripts/knomial.lua under seidel's one-port rule played in sub-rounds
# (docs/model.md, "Sub-rounds"): a holder's k-1 sends of one step go one after another, so
# they never raise each other's link load; every sub-round costs a*B + b.
. "$(dirname "$0")/../lib.sh"
S=$ROOT/scripts/knomial.lua
cd "$TMPD" || exit 2

# net, k, steps (ceil(log_k n)): the cost is steps * (k-1) * (a*B + b), a = 0.08, b = 75
for c in "array:16 4 2" "ring:16 4 2" "array:64 4 3" "array:27 3 3" "mesh:4x8 2 5" \
         "torus:5x5 5 2"; do
    set -- $c
    "$MESHCAST" run --net "$1" --algo "$S" --set k="$2" --bytes 1024 --json >kn.json 2>kn.err
    check_eq "knomial k=$2 on $1: exit 0" 0 $?
    want=$(awk -v s="$3" -v k="$2" 'BEGIN { printf "%.6f", s * (k - 1) * (0.08 * 1024 + 75) }')
    check_close "knomial k=$2 on $1: cost = steps*(k-1)*(aB+b)" "$want" "$(jq -r .cost.total kn.json)"
    check_eq "knomial k=$2 on $1: no contention paid" 0 "$(jq -r .cost.contention kn.json)"
    check_eq "knomial k=$2 on $1: max link load 1" 1 "$(jq -r .max_link_load kn.json)"
done

# the schedule says which sub-round each send goes in; run counts the split steps
check_exit "schedule text" 0 "$MESHCAST" schedule --net array:16 --algo "$S" --set k=4 --format text
check_match "a step in 3 sub-rounds" "^step 1 .*3 transfers in 3 one-port sub-rounds, cost 470.76 us, max link load 1" "$OUT"
check_match "0 -> 12 is sub-round 3" "^  0 -> 12 .* load 1  sub-round 3  cost 156.92" "$OUT"
check_exit "run text" 0 "$MESHCAST" run --net array:16 --algo "$S" --set k=4
check_match "run counts the sub-rounds" "one-port: +2 steps played in sub-rounds \\(6 sub-rounds in all\\)" "$OUT"
check_match "run: contention-free" "contention-free: yes" "$OUT"
# k = 2 never sends twice from a node: one sub-round per step, the binomial tree (= st)
check_exit "k=2 run" 0 "$MESHCAST" run --net array:16 --algo "$S" --set k=2
check_nomatch "k=2: no sub-rounds" "one-port:" "$OUT"
finish
