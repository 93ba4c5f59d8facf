#!/bin/sh
# t_paragon.sh — the shipped `paragon` profile is the least-squares fit (b >= 0) of the
# s-to-p paper's two Fig. 6 times (80K on 10x10, Dr, Br_xy_source: 11.4 ms from 5 sources,
# 7.3 ms from 40), re-derived here from the simulator's linear coefficients (runs with
# a = 1, b = 0 and a = 0, b = 1, independent of the profile), and the figures run under it.
. "$(dirname "$0")/../lib.sh"
export XDG_CONFIG_HOME="$TMPD/cfg"   # only the shipped profiles

cost() { "$MESHCAST" run --net mesh:10x10 --algo br-xy-source "$@" | sed -n 's/^cost: *\([0-9.e+-]*\) .*/\1/p'; }
A1=$(cost --sources Dr:5 --bytes 16K --set a=1 --set b=0 --set rho=0)
B1=$(cost --sources Dr:5 --bytes 16K --set a=0 --set b=1 --set rho=0)
A2=$(cost --sources Dr:40 --bytes 2K --set a=1 --set b=0 --set rho=0)
B2=$(cost --sources Dr:40 --bytes 2K --set a=0 --set b=1 --set rho=0)
check_match "coefficients measured" '^[0-9.]+ [0-9.]+ [0-9.]+ [0-9.]+$' "$A1 $B1 $A2 $B2"
# the exact solution of the two equations has a negative b: the bound b >= 0 is active
ub=$(awk -v A1="$A1" -v B1="$B1" -v A2="$A2" -v B2="$B2" 'BEGIN { d = A1 * B2 - A2 * B1; print (A1 * 7300 - A2 * 11400) / d }')
check "the unconstrained fit has b < 0 ($ub)" awk -v b="$ub" 'BEGIN { exit !(b < 0) }'
a=$(awk -v A1="$A1" -v A2="$A2" 'BEGIN { printf "%.6f", (A1 * 11400 + A2 * 7300) / (A1 * A1 + A2 * A2) }')
check_exit "list profiles" 0 "$MESHCAST" list profiles
check_match "paragon shipped, a from the fit ($a), b = 0" "^ +seidel\\.a=$a seidel\\.b=0 " "$(printf '%s\n' "$OUT" | sed -n '/^paragon /,/^[a-z]/p')"
check_match "paragon's about" '^paragon +Intel Paragon' "$OUT"
# the fitted figure: Fig. 6 under --profile paragon prices s = 5 and s = 40 at a*A
check_exit "Fig. 6 under paragon" 0 "$MESHCAST" compare --net mesh:10x10 --sources Dr --s 5:40:35 --total 80K --algos br-xy-source --profile paragon
got=$(printf '%s\n' "$OUT" | awk '$1 == "mesh:10x10" { printf "%s%.1f", n++ ? " " : "", $4 }')
want=$(awk -v a="$a" -v A1="$A1" -v A2="$A2" 'BEGIN { printf "%.1f %.1f", a * A1, a * A2 }')
check_eq "Fig. 6 under paragon: a*A at s = 5 and 40 (paper: 11400, 7300)" "$want" "$got"
check_exit "Fig. 8 under paragon" 0 "$MESHCAST" compare --net mesh:16x16 --sources X --s 16:192:176 --bytes 6K --algos br-xy-source,repos-xy-source --profile paragon
check_exit "run --profile paragon names it" 0 "$MESHCAST" run --net mesh:10x10 --algo br-xy-source --sources Dr:5 --bytes 16K --profile paragon
check_match "model line" "^model: +seidel \\(a=0\\.032522 b=0 nu=0 rho=0\\.01\\), profile paragon$" "$OUT"
check_exit "no t3d: the text gives no T3D times" 2 "$MESHCAST" run --net mesh:4x4 --algo st --profile t3d
finish
