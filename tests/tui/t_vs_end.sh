#!/bin/sh
# Side by side (--vs) with broadcasts of different lengths (issue 23 major 5): the longer one's
# last step is reachable with G, n and :step K; the shorter half shows "done" at its last
# state (its whole total) while the longer goes on.  The lengths and totals come from each
# schedule here, at 80x24 and 200x60.
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
# st informs 16 nodes in log2 16 = 4 steps; bst sends 2 chunks, one step more
check_eq "st takes log2 16 steps" 4 "$n1"
check "bst is the longer" [ "$n2" -gt "$n1" ]
for size in "80 24" "200 60"; do
    set -- $size
    tm_start "$1" "$2"
    mc_start --ascii --net array:16 --algo st --vs bst
    check_screen "${1}x$2: both halves" "bst"
    tm_keys G
    check_screen_fixed "${1}x$2: G goes to the longer one's end: step $n2/$n2" "step $n2/$n2" 10
    check_screen "${1}x$2: st's half done at its last state, whole total" \
        "^[^|]*(done[^|]*$t1 of $t1|$t1 of $t1[^|]*done)[^|]*\\|" 5
    check_match "${1}x$2: bst's half at its last step, whole total" "\\|.*$t2 of $t2" "$SCREEN"
    tm_keys g
    check_screen_fixed "${1}x$2: g back to 0" "step 0/$n2" 10
    i=0; while [ $i -lt "$n2" ]; do tm_keys n; i=$((i + 1)); done
    check_screen_fixed "${1}x$2: n $n2 times reaches step $n2" "step $n2/$n2" 10
    tm_keys n
    sleep 0.3
    check_screen_fixed "${1}x$2: n at the end stays" "step $n2/$n2" 5
    tm_keys p
    check_screen_fixed "${1}x$2: p steps back from the longer's end" "step $n1/$n2" 10
    tm_keys g; tm_keys :; tm_run "step $n2"
    check_screen_fixed "${1}x$2: :step $n2 is allowed" "step $n2/$n2" 10
    tm_keys q
    mc_exit_ok "${1}x$2"
done
mc_start --ascii --net array:16 --algo st --vs bst --step "$n2"
check_screen_fixed "--step $n2 with --vs: the longer one's end" "step $n2/$n2" 10
tm_keys q
mc_exit_ok "--step $n2 --vs bst"
finish
