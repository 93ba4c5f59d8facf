#!/bin/sh
# Side by side (--vs) below 200 columns (issue 23 major 5): each half's header keeps its
# running totals ("so far X of Y"), the point of the comparison, at 80x24 and 120x40 as at
# 200x60.  The totals are added up here from each schedule's own per-step costs.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
fmt2() { awk -v v="$1" 'BEGIN { printf "%.2f", v }'; }
for al in st bst; do
    "$MESHCAST" schedule --net array:16 --algo $al --format json >"$TMPD/$al.json" ||
        { bad "schedule $al"; finish; exit 1; }
done
n1=$(jq '.steps | length' "$TMPD/st.json"); n2=$(jq '.steps | length' "$TMPD/bst.json")
t1=$(fmt2 "$(jq '[.steps[].cost.total] | add' "$TMPD/st.json")")
t2=$(fmt2 "$(jq '[.steps[].cost.total] | add' "$TMPD/bst.json")")
s1=$(fmt2 "$(jq '[.steps[0:2][].cost.total] | add' "$TMPD/st.json")")
s2=$(fmt2 "$(jq '[.steps[0:2][].cost.total] | add' "$TMPD/bst.json")")
# Seidel eq. 1 for st: d (m a + b) = 4 (1024 * 0.08 + 75)
check_eq "st's total is Seidel's eq. 1" "627.68" "$t1"
for size in "80 24" "120 40" "200 60"; do
    set -- $size
    tm_start "$1" "$2"
    mc_start --ascii --net array:16 --algo st --vs bst
    check_screen "${1}x$2: both halves" "bst"
    tm_keys n; tm_keys n
    check_screen_fixed "${1}x$2: st's running total after 2 steps: so far $s1 of $t1" "$s1 of $t1" 10
    check_screen_fixed "${1}x$2: bst's: so far $s2 of $t2" "$s2 of $t2" 10
    check_match "${1}x$2: both on the header line" "$s1 of $t1.*\\|.*$s2 of $t2" "$SCREEN"
    tm_keys q
    mc_exit_ok "${1}x$2"
done
finish
