#!/bin/sh
# --set s=auto / r=auto on the screen: the Step panel says, beside the run of the paper's
# formulas, which s and r a search of the cost finds — the line `meshcast run` prints.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"

args="--net full:1024 --algo fractional --model postal --bytes 4096 --set s=auto --set r=auto"
# shellcheck disable=SC2086
want=$("$MESHCAST" run $args | sed -n 's/^auto: //p')
check_match "run prints the auto line" "the paper's s=[0-9]+ r=[0-9]+ costs" "$want"
tm_start 150 45
# shellcheck disable=SC2086
mc_start --ascii $args
check_screen "fractional on full:1024 opens" "fractional on full:1024"
check_screen "the panel's auto line" "\\| +auto: the paper's"
got=$(tm_cap | cut -d'|' -f2- | awk '/^ +auto: / { on = 1 } on && !/^ +(auto:|[a-z(0-9])/ { exit }
    on { sub(/^ +/, ""); printf "%s%s", sep, $0; sep = " " }' | sed 's/^auto: //')
check_eq "the panel says what run says" "$want" "$got"
tm_keys q
mc_exit_ok "auto"
finish
