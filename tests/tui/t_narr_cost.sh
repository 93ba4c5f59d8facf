#!/bin/sh
# The narration line keeps the step's cost when it is cut (issue 23, minor: at 80x24 it lost
# it): at every step of st on mesh:8x8 and bst on array:16, at 80x24 and 200x60, the line
# under the map ends with the step's total (from the schedule's own per-step costs) and its
# unit; where the whole line fits, with its terms (startup + transmission).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
fmt2() { awk -v v="$1" 'BEGIN { printf "%.2f", v }'; }
for case in "mesh:8x8 st" "array:16 bst"; do
    set -- $case
    net=$1 al=$2
    "$MESHCAST" schedule --net "$net" --algo "$al" --format json >"$TMPD/s.json" ||
        { bad "schedule $al on $net"; continue; }
    n=$(jq '.steps | length' "$TMPD/s.json")
    for size in "80 24" "200 60"; do
        set -- $size
        tm_start "$1" "$2"
        mc_start --ascii --net "$net" --algo "$al"
        check_screen "$al ${1}x$2: up" "step 0/$n " 20
        k=1
        while [ "$k" -le "$n" ]; do
            tm_keys n
            tm_wait "step $k/$n " 10 >/dev/null
            line=$(tm_cap | sed -n "$(($2 - 1))p" | sed 's/ *$//')
            tot=$(fmt2 "$(jq ".steps[$((k - 1))].cost.total" "$TMPD/s.json")")
            check_match "$al on $net ${1}x$2 step $k: the narration ends with its cost $tot us" \
                "^ Step $k/$n: .*; costs .*$tot us$" "$line"
            if [ "$1" = 200 ]; then
                st=$(fmt2 "$(jq ".steps[$((k - 1))].cost.startup" "$TMPD/s.json")")
                tr=$(fmt2 "$(jq ".steps[$((k - 1))].cost.transmission" "$TMPD/s.json")")
                check_match "$al ${1}x$2 step $k: with its terms" "= $st \\+ $tr = $tot us$" "$line"
            fi
            k=$((k + 1))
        done
        tm_keys q
        mc_exit_ok "$al on $net ${1}x$2"
    done
done
finish
