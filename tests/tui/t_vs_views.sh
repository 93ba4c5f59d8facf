#!/bin/sh
# Side by side (vs.h) on the nets drawn by views of their own (fulltree.h: a full net as its
# broadcast's tree; hxview.h: a hierarchical crossbar as its modules): the right half draws the
# second broadcast, not the first one again.  Each half is drawn from the broadcast it is
# given (draw-internal.h's Shown), so the right half of `A --vs B` must be what the left half
# of `B --vs A` shows at the same step (the two halves have the same size).  And what the
# chain does is known without meshcast: it forwards along the line, so at step k node k
# receives from node k-1.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"

# half L|R — the map's left or right half of the screen (the lines after the headers' line 2
# with the bar where line 2 has it, split there), trailing blanks dropped
half() {
    tm_cap | awk -v side="$1" '
        NR == 2 { bar = index($0, "|"); next }
        NR > 2 && bar > 0 && substr($0, bar, 1) == "|" {
            s = side == "L" ? substr($0, 1, bar - 1) : substr($0, bar + 1, bar - 1)
            sub(/ +$/, "", s); print s
        }'
}

# views NET FIRST SECOND DESC — step 3 of FIRST --vs SECOND and of SECOND --vs FIRST
views() {
    tm_start 200 50
    mc_start --ascii --net "$1" --algo "$2" --vs "$3" --model postal
    check_screen "$4: $2 | $3 opens" "^$2  0/"
    tm_keys n n n
    check_screen "$4: at step 3" "^$2  3/"
    RIGHT=$(half R)
    LEFT_FIRST=$(half L)
    tm_keys q
    mc_exit_ok "$4: $2 | $3"
    tm_start 200 50
    mc_start --ascii --net "$1" --algo "$3" --vs "$2" --model postal
    check_screen "$4: $3 | $2 opens" "^$3  0/"
    tm_keys n n n
    check_screen "$4: at step 3 (swapped)" "^$3  3/"
    LEFT=$(half L)
    tm_keys q
    mc_exit_ok "$4: $3 | $2"
    check_match "$4: the halves were read" "[0-9]+:[0-9]" "$RIGHT"
    check_eq "$4: the right half of $2 | $3 is $3 as the left half draws it" "$LEFT" "$RIGHT"
    check "$4: ... and not $2 again" test "$LEFT_FIRST" != "$RIGHT"
}

# full:16: the chain's tree is a line (a node a level), bintree's a binary tree
views full:16 bintree chain "full net (tree)"
check_match "full net: the chain's node 3 receives from node 2 at step 3" '\*3:[0-9]+<2' "$RIGHT"
check_match "full net: the chain's tree has a 15th level" '^step 15 ' "$RIGHT"
check_nomatch "full net: bintree's has no 6th level" '^step 6 ' "$LEFT_FIRST"

# hxbar:8x4: 8 modules of 4
views hxbar:8x4 bintree chain "hxbar (modules)"
check_match "hxbar: the chain's node 3 receives from node 2 at step 3" '\*3:[0-9]+<2' "$RIGHT"
finish
