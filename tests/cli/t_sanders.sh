#!/bin/sh
# Sanders & Sibeyn from the command line: the net full:P, the trees, their closed forms, the
# lower bounds beside a postal run on full:P, and the errata's commands.
. "$(dirname "$0")/../lib.sh"

check_exit "list nets" 0 "$MESHCAST" list nets
check_match "list nets names full" '^full:P ' "$OUT"
check_exit "list algorithms" 0 "$MESHCAST" list algorithms
for a in bintree fractional bintree-simplex fractional-simplex; do
    check_match "list algorithms names $a" "^$a .*full" "$OUT"
done
check_exit "full:4x4 refused" 2 "$MESHCAST" run --net full:4x4 --algo chain
check_eq "full:4x4: one line" "meshcast: bad net 'full:4x4': a full net is full:P (P processors)" "$ERR"
check_exit "fractional r=0 refused" 2 "$MESHCAST" run --net full:8 --algo fractional --set r=0

# errata: the binary tree on 18 PUs with 4 packets takes d + 2s - 1 = 11 steps (paper: 12)
check_exit "bintree full:18" 0 "$MESHCAST" run --net full:18 --algo bintree --model postal --set s=4
check_match "bintree full:18: 11 steps" '^steps: +11 ' "$OUT"
check_match "bintree full:18: closed form matches" 'closed form, matches' "$OUT"
check_match "bintree full:18: bounds shown" '^bounds: +\(4\) 1028.1699' "$OUT"
check_exit "fractional full:1024 r=4 s=64" 0 "$MESHCAST" run --net full:1024 --algo fractional --set r=4 --set s=64 --model postal
check_match "fractional full:1024: 113 steps" '^steps: +113 ' "$OUT"
for P in 20 21; do
    check_exit "bintree full:$P s=1" 0 "$MESHCAST" run --net full:$P --algo bintree --model postal --set s=1
done
check_match "P_5 = 20: 21 PUs need a sixth step" '^steps: +6 ' "$OUT"
check_exit "chain full:2 s=1" 0 "$MESHCAST" run --net full:2 --algo chain --set s=1 --model postal
check_match "(6) as printed exceeds the chain on 2 PUs" 'packets 1024 \(as printed 1089\)' "$OUT"

# JSON: the bounds only on full:P under postal
check_exit "run --json full:64" 0 "$MESHCAST" run --net full:64 --algo fractional --model postal --json
check_match "json lower_bounds" '"lower_bounds":\{"eq4_duplex":1030,"eq5_simplex":2018,' "$OUT"
check_exit "run --json array:16" 0 "$MESHCAST" run --net array:16 --algo fractional --model postal --json
check_nomatch "no lower_bounds off full:P" 'lower_bounds' "$OUT"

# simplex: the emulation is valid under simplex ports; the duplex tree is not
check_exit "fractional-simplex simplex" 0 "$MESHCAST" run --net full:64 --algo fractional-simplex --model postal --set duplex=0
check_match "fractional-simplex: closed form" 'closed form, matches' "$OUT"
check_exit "fractional under simplex: violation" 1 "$MESHCAST" run --net full:64 --algo fractional --model postal --set duplex=0
check_match "fractional under simplex: named" 'simplex: one send or one receive' "$OUT"
# on a mesh the embedding's link load is measured
check_exit "fractional on mesh:8x8 (seidel)" 0 "$MESHCAST" run --net mesh:8x8 --algo fractional --set r=2
check_match "fractional on mesh:8x8: no closed form under seidel" 'predicted: +none' "$OUT"

# no closed form for these settings: run and JSON say why
check_exit "chain, s=7 on 1024 bytes" 0 "$MESHCAST" run --net full:64 --algo chain --model postal --set s=7
check_match "why no closed form: unequal packets" '^predicted: +none \(the closed form needs packets of equal size: 1024 bytes do not split into 7 packets\)$' "$OUT"
check_exit "fractional-direct, one run" 0 "$MESHCAST" run --net full:64 --algo fractional-direct --model postal --set duplex=0 --set r=3 --set s=3
check_match "why no closed form: one run" '^predicted: +none \(the closed form needs s a multiple of r and at least 2r \(here r=3 s=3\)' "$OUT"
check_exit "fractional under simplex, JSON" 1 "$MESHCAST" run --net full:64 --algo fractional --model postal --set duplex=0 --json
check_eq "JSON: predicted_none says why" "under duplex=0 the duplex schedule breaks the simplex rule" "$(printf '%s' "$OUT" | jq -r .predicted_none)"
check_exit "fractional with its closed form, JSON" 0 "$MESHCAST" run --net full:64 --algo fractional --model postal --json
check_eq "JSON: no predicted_none beside a prediction" "null" "$(printf '%s' "$OUT" | jq -r .predicted_none)"

# --op reduce: the broadcast run backwards, checked contribution by contribution
check_exit "fractional --op reduce" 0 "$MESHCAST" run --net full:64 --algo fractional --model postal --op reduce --set gamma=0.5
check_match "reduce: verified" '^verified: +yes, the root ends with every contribution' "$OUT"
check_match "reduce: combine cost = 22 steps x gamma x 128-byte packets" '^combine: +1408 units +\(total with combining 4246 units\)' "$OUT"
check_exit "rh --op reduce" 0 "$MESHCAST" run --net mesh:8x8 --algo rh --op reduce
check_match "rh: repeated deliveries are not reversed" '192 chunk deliveries' "$OUT"
check_exit "reduce --json" 0 "$MESHCAST" run --net full:16 --algo bintree --model postal --op reduce --json
check_match "reduce json" '"op":"reduce","reduction":\{"verified":true,"exact":true,"combine":0' "$OUT"
check_exit "bad --op" 2 "$MESHCAST" run --net full:16 --algo bintree --op gather
check_eq "bad --op: one line" "meshcast: bad --op: broadcast or reduce" "$ERR"

# s=auto, r=auto: the paper's formulas and the best found by search, both shown; the search
# never does worse than the paper's choice.  P = 1024, k/t = 4096 (the paper's example).
for a in chain bintree bintree-direct fractional; do
    extra=""; [ $a = fractional ] && extra="--set r=auto"
    # shellcheck disable=SC2086
    check_exit "$a s=auto" 0 "$MESHCAST" run --net full:1024 --algo $a --model postal --bytes 4096 --set s=auto $extra
    check_match "$a: params say auto" '^params: .*s=auto' "$OUT"
    paper=$(printf '%s\n' "$OUT" | sed -n "s/^auto: the [a-z ]*'s s=[0-9]*[ r=0-9]* costs \([0-9.]*\) units.*/\1/p")
    best=$(printf '%s\n' "$OUT" | sed -n 's/^auto: .*best found by search, [^)]* costs \([0-9.]*\) units (simulated.*/\1/p')
    check_match "$a: both shown" '^auto: the (paper|corrected formula).s s=[0-9]+.* costs [0-9.]+ units.*; the best found by search, s=[0-9]+' "$OUT"
    check_match "$a: says they are simulated, whole bytes" '\(simulated, whole bytes; with packets of k/s bytes: [0-9.]+, and its best s=[0-9]+' "$OUT"
    check "$a: best found <= the paper's" awk -v b="$best" -v p="$paper" 'BEGIN { exit !(b + 0 <= p + 0 && b > 0) }'
    # the direct simplex tree's s minimises (d + 3s)(t + k/s): sqrt(kd/(3t)), d = 13
    [ $a = bintree-direct ] && check_match "bintree-direct: s = sqrt(kd/(3t))" "the paper's s=133 " "$OUT"
done
check_match "fractional: r=auto picks r=9 by the paper's formula" "the paper's s=482 r=9" "$OUT"
# the worked example stated fairly: r = 9, s = 482 loses to s = 512 only through whole bytes
# (packets of 8 and 9 bytes); in the continuous model it is within 0.2% of that model's best
cont=$(printf '%s\n' "$OUT" | sed -n 's/.*with packets of k\/s bytes: \([0-9.]*\), and its best s=[0-9]* r=[0-9]* \([0-9.]*\))$/\1 \2/p')
check "fractional: continuous paper's within 0.2% of the continuous best, below the whole-byte 5978" \
    awk -v c="$cont" 'BEGIN { split(c, v, " "); exit !(v[1] > 0 && v[1] <= v[2] * 1.002 && v[1] < 5978) }'
# chain, continuous: (P - 2 + s)(t + k/s) at s = 2046 (eq. after Section 2), computed here
check_exit "chain s=auto" 0 "$MESHCAST" run --net full:1024 --algo chain --model postal --bytes 4096 --set s=auto
check_match "chain: continuous (1022 + 2046)(1 + 4096/2046)" "with packets of k/s bytes: $(awk 'BEGIN { printf "%.6g", 3068 * (1 + 4096 / 2046) }')," "$OUT"
# the binary tree: s = sqrt(kd/(2t)) is the corrected formula, not the paper's; Section 2's
# printed sqrt(2kd/t) is shown beside it (d = 13 on 1024 PUs)
check_exit "bintree s=auto" 0 "$MESHCAST" run --net full:1024 --algo bintree --model postal --bytes 4096 --set s=auto
sc=$(awk 'BEGIN { printf "%d", sqrt(4096 * 13 / 2) + 0.5 }'); sp=$(awk 'BEGIN { printf "%d", sqrt(2 * 4096 * 13) + 0.5 }')
check_match "bintree: the corrected formula's s=$sc, Section 2's printed s=$sp" "^auto: the corrected formula's s=$sc costs [0-9.]+ units \(Section 2's printed s=$sp: [0-9.]+\);" "$OUT"
check_nomatch "bintree: not called the paper's" "the paper's s=$sc" "$OUT"
check_exit "s=0 refused" 2 "$MESHCAST" run --net full:8 --algo fractional --set s=0

# tradeoff: Fig. 3 (the best s, r by exact step counts; --verify simulates the winners)
check_exit "tradeoff" 0 "$MESHCAST" tradeoff
check_match "tradeoff: three machine sizes" '^P = 16384$' "$OUT"
check_match "tradeoff: says its costs are the formulas'" '^costs: formula ' "$OUT"
check_match "tradeoff: P=1024, k/t=4096" '^ +4096 +9210 +2048 +8840 +164 +5679 +9 +512 +1\.557$' "$OUT"
check_exit "tradeoff --verify" 0 "$MESHCAST" tradeoff --p 1024 --kt 4096:4096 --verify
check_match "tradeoff --verify: simulated" '^ +4096 +9210 +2048 +8838 +164 +5679 +9 +512 +1\.556$' "$OUT"
check_exit "tradeoff --verify (header)" 0 "$MESHCAST" tradeoff --p 64 --kt 64:64 --verify
check_match "tradeoff --verify: says its costs are simulated" '^costs: simulated ' "$OUT"
# the largest speedup, searched over every integer k/t: on P = 64 over 150..180 it is the
# largest of the 31 single-point runs (each --kt K:K prints that point's speedup)
check_exit "tradeoff --p 64 --kt 150:180" 0 "$MESHCAST" tradeoff --p 64 --kt 150:180
got=$(printf '%s\n' "$OUT" | sed -n 's/^largest speedup over every integer k\/t in 150..180: \([0-9.]*\) at k\/t = \([0-9]*\) .*/\1 \2/p')
want=$(for k in $(seq 150 180); do "$MESHCAST" tradeoff --p 64 --kt "$k:$k" | awk -v k="$k" '$1 == k { m = $2 < $4 ? $2 : $4; printf "%.12f %s\n", m / $6, k }'; done |
    sort -k1,1nr -k2,2n | head -n 1 | awk '{ printf "%.4f %s", $1, $2 }')
check_eq "tradeoff: the largest speedup is the best single point" "$want" "$got"
check_exit "tradeoff --points 5" 0 "$MESHCAST" tradeoff --p 64 --points 5
check_eq "tradeoff --points 5: five rows, 4 .. 2^20 on a log scale" "4 91 2048 46341 1048576" \
    "$(printf '%s\n' "$OUT" | awk '$1 ~ /^[0-9]+$/ && NF == 9 { printf "%s%s", n++ ? " " : "", $1 }')"
check_exit "tradeoff bad --points" 2 "$MESHCAST" tradeoff --points 1
check_exit "tradeoff bad --p" 2 "$MESHCAST" tradeoff --p 2
check_exit "tradeoff bad --kt" 2 "$MESHCAST" tradeoff --kt 9:3

# Lua: a script sees the cost model (p.cost) in chunks() and build(): the shipped ternary tree
# picks its packet count from it; verified everywhere, its closed form matches
check_exit "ternary-tree.lua: check" 0 "$MESHCAST" check scripts/ternary-tree.lua --model postal
check_exit "ternary-tree.lua t=1" 0 "$MESHCAST" run --net full:200 --algo scripts/ternary-tree.lua --model postal --bytes 4096
check_match "ternary-tree.lua t=1: many packets" 'in 1[0-9][0-9] chunks' "$OUT"
check_match "ternary-tree.lua: closed form matches" 'closed form, matches' "$OUT"
check_exit "ternary-tree.lua t=1000" 0 "$MESHCAST" run --net full:200 --algo scripts/ternary-tree.lua --model postal --bytes 4096 --set t=1000
check_match "ternary-tree.lua t=1000: few packets" 'in [1-9] chunks?$' "$OUT"
check_exit "ternary-tree.lua --op reduce" 0 "$MESHCAST" run --net mesh:6x6 --algo scripts/ternary-tree.lua --model postal --op reduce
finish
