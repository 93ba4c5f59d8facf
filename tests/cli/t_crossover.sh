#!/bin/sh
# t_crossover.sh — every crossover `meshcast compare` prints for the nets the docs quote
# (README's array:16 and mesh:16x32 tables, docs/errata.md's 3.7 and Fig. 18 entries: nu = 0, 1,
# 2 on 16x32, 64x64) is a true first byte count, not a sampled size: at N the winner's simulated
# cost (`meshcast run`, one build per size, independent of compare's bisection) is below the
# loser's, at N - 1 it is not.  A compare that went back to its sampled sizes (powers of 2)
# fails here.
. "$(dirname "$0")/../lib.sh"

cost() {   # NET ALGO BYTES SETS...: the simulated cost
    _n=$1; _a=$2; _b=$3; shift 3
    "$MESHCAST" run --net "$_n" --algo "$_a" --bytes "$_b" "$@" | sed -n 's/^cost: *\([0-9.e+-]*\) .*/\1/p'
}
lt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }

check_net() {   # NET [--set K=V]
    net=$1; shift
    out=$("$MESHCAST" compare --net "$net" --bytes 8:65536 "$@")
    n=0
    printf '%s\n' "$out" | sed -n 's/^  \([a-z0-9-]*\) beats \([a-z0-9-]*\) from \([0-9]*\) bytes (sampled.*/\1 \2 \3/p' >"$TMPD/x"
    while read -r w l m; do
        n=$((n + 1))
        cw=$(cost "$net" "$w" "$m" "$@"); cl=$(cost "$net" "$l" "$m" "$@")
        pw=$(cost "$net" "$w" $((m - 1)) "$@"); pl=$(cost "$net" "$l" $((m - 1)) "$@")
        if lt "$cw" "$cl" && ! lt "$pw" "$pl"; then ok "$net $*: $w beats $l from $m ($cw < $cl; at $((m - 1)): $pw >= $pl)"
        else bad "$net $*: $w beats $l from $m" "at $m: $cw vs $cl; at $((m - 1)): $pw vs $pl"; fi
    done <"$TMPD/x"
    [ "$n" -gt 0 ] && ok "$net $*: $n crossovers checked" || bad "$net $*: no crossovers printed"
}
check_net array:16
check_net mesh:16x32
check_net mesh:16x32 --set nu=1
check_net mesh:16x32 --set nu=2
check_net mesh:64x64
# the numbers docs/errata.md quotes, from the same output
check_match "errata 3.7: nu = 2, from 40009" 'bst beats st from 40009 bytes' "$("$MESHCAST" compare --net mesh:16x32 --bytes 8:65536 --set nu=2)"
check_match "errata 3.7: nu = 1, from 6001" 'bst beats st from 6001 bytes' "$("$MESHCAST" compare --net mesh:16x32 --bytes 8:65536 --set nu=1)"
check_match "errata 3.7: 64x64, from 837" 'bst beats st from 837 bytes' "$("$MESHCAST" compare --net mesh:64x64 --bytes 8:65536)"
# Fig. 18's "ST gives way to BST between 512 and 1K": the simple ST (eq. 3: 9 start-ups of the
# whole message on 2^4 x 2^5, 9(a m + b)) against BST: between 512 and 1K, and its closed form
# at the printed crossover is above BST's simulated cost there
c18=$("$MESHCAST" compare --net mesh:16x32 --bytes 8:65536)
x=$(printf '%s\n' "$c18" | sed -n 's/^  bst beats st-simple from \([0-9]*\) bytes.*/\1/p')
check "Fig. 18: bst beats st-simple between 512 and 1K ($x)" test "${x:-0}" -gt 512 -a "${x:-0}" -lt 1024
check "Fig. 18: at $x, 9(0.08m + 75) > bst's simulated cost" lt "$(cost mesh:16x32 bst "$x")" "$(awk -v m="$x" 'BEGIN { print 9 * (0.08 * m + 75) }')"
finish
