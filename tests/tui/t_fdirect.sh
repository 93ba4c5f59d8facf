#!/bin/sh
# fractional-direct (the direct simplex fractional tree) on full:64 in the TUI, simplex ports:
# stepping shows exactly the engine's transfers (sender>receiver and packet), the receivers
# marked on the tree map, no port used twice, and the closed form agreeing.  The truth comes
# from `meshcast schedule --format json`, never hard-coded.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"

args="--net full:64 --algo fractional-direct --set r=4 --set s=8 --model postal --set duplex=0"
# shellcheck disable=SC2086
"$MESHCAST" schedule $args --format json >"$TMPD/f.json"
n=$(jq '.steps | length' "$TMPD/f.json")
tm_start 150 45
# shellcheck disable=SC2086
mc_start --ascii $args
check_screen "fractional-direct on full:64 opens" "fractional-direct on full:64"
for st in 1 2 3 4 5 6 7 8; do
    tm_keys n
    check_screen "counter shows step $st/$n" " step $st/$n "
    check_full_step "$TMPD/f.json" "$st"
    check_eq "step $st: no port used twice (simplex)" 0 "$(grep -c '!' "$TMPD/map")"
done
check_screen_fixed "the panel shows the closed form agreeing" "Predicted (paper) ="
tm_keys q
mc_exit_ok "fractional-direct full:64"
finish
