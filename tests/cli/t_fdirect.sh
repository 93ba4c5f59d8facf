#!/bin/sh
# fractional-direct from the command line: listed, valid under simplex ports, its closed form
# (where offered), the errata's commands, reduction, s=auto/r=auto, bad input.
. "$(dirname "$0")/../lib.sh"

check_exit "list algorithms" 0 "$MESHCAST" list algorithms
check_match "list algorithms names fractional-direct" '^fractional-direct .*full' "$OUT"

# errata: P = 1024, r = 4, s = 64 under simplex ports: 203 steps, against the two-substep
# emulation's 216 and the duplex tree's 113
check_exit "fractional-direct full:1024 r=4 s=64" 0 "$MESHCAST" run --net full:1024 --algo fractional-direct --set r=4 --set s=64 --model postal --set duplex=0
check_match "fractional-direct: valid under simplex" '^valid: +yes' "$OUT"
check_match "fractional-direct: 203 steps" '^steps: +203 ' "$OUT"
check_match "fractional-direct: closed form matches" 'closed form, matches' "$OUT"
check_exit "fractional-simplex full:1024 r=4 s=64" 0 "$MESHCAST" run --net full:1024 --algo fractional-simplex --set r=4 --set s=64 --model postal --set duplex=0
check_match "fractional-simplex: 216 steps" '^steps: +216 ' "$OUT"
# 2r+1 steps a run: 64 more packets (16 runs of 4) cost 16 * 9 = 144 steps
check_exit "fractional-direct s=128" 0 "$MESHCAST" run --net full:1024 --algo fractional-direct --set r=4 --set s=128 --model postal --set duplex=0
check_match "fractional-direct: 203 + 144 steps" '^steps: +347 ' "$OUT"
# a shorter last run: verified, no closed form offered
check_exit "fractional-direct r=3 s=7" 0 "$MESHCAST" run --net full:64 --algo fractional-direct --set r=3 --set s=7 --model postal --set duplex=0
check_match "r=3 s=7: verified" '^verified: +yes' "$OUT"
check_match "r=3 s=7: no closed form" '^predicted: +none' "$OUT"
# other nets: the tree in node order, the link load measured
check_exit "fractional-direct mesh:8x8" 0 "$MESHCAST" run --net mesh:8x8 --algo fractional-direct --model postal --set duplex=0
check_match "mesh:8x8: verified" '^verified: +yes' "$OUT"

check_exit "fractional-direct --op reduce" 0 "$MESHCAST" run --net full:64 --algo fractional-direct --model postal --set duplex=0 --op reduce
check_match "reduce: verified" '^verified: +yes, the root ends with every contribution' "$OUT"

# s=auto, r=auto: both shown, the search never worse
check_exit "s=auto r=auto" 0 "$MESHCAST" run --net full:1024 --algo fractional-direct --model postal --set duplex=0 --bytes 4096 --set s=auto --set r=auto
paper=$(printf '%s\n' "$OUT" | sed -n "s/^auto: the paper's .* costs \([0-9.]*\) units; .*/\1/p")
best=$(printf '%s\n' "$OUT" | sed -n 's/^auto: .*best found by search, [^)]* costs \([0-9.]*\) units (simulated.*/\1/p')
check_match "auto: both shown" '^auto: the paper.s s=[0-9]+ r=[0-9]+ costs [0-9.]+ units; the best found by search, s=[0-9]+ r=[0-9]+' "$OUT"
check "auto: best found <= the paper's" awk -v b="$best" -v p="$paper" 'BEGIN { exit !(b + 0 <= p + 0 && b > 0) }'

check_exit "r=0 refused" 2 "$MESHCAST" run --net full:8 --algo fractional-direct --set r=0
check_eq "r=0: one line" "meshcast: fractional-direct: r must be at least 1 (or auto)" "$ERR"
check_exit "s=2.5 refused" 2 "$MESHCAST" run --net full:8 --algo fractional-direct --set s=2.5
check_exit "too large refused" 2 "$MESHCAST" run --net full:100000 --algo fractional-direct --set s=1000
check_match "too large: says why" 'too large' "$ERR"
finish
