#!/bin/sh
# Options before the subcommand and a lesson recorded from the command line (issue 23 minor):
# `meshcast --theme light lesson X` opens the lesson in the light theme, `meshcast --big
# record f.cast lesson X` records it.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
export XDG_STATE_HOME="$TMPD/state"
tm_start 100 30
fresh() {
    tm_run clear; _n=100
    while [ "$_n" -gt 0 ] && tm_cap | grep -q '^EXIT='; do sleep 0.1; _n=$((_n - 1)); done
}

mc_start lesson st-array
check_screen "lesson st-array: page 1" "page 1/[0-9]+"
sleep 0.5; tm_cap -e >"$TMPD/default.txt"
tm_keys q
mc_exit_ok "lesson st-array"
fresh
mc_start --theme light lesson st-array
check_screen "--theme light lesson st-array: page 1" "page 1/[0-9]+"
sleep 0.5; tm_cap -e >"$TMPD/light.txt"
tm_keys q
mc_exit_ok "--theme light lesson st-array"
if cmp -s "$TMPD/default.txt" "$TMPD/light.txt"; then bad "  drawn in other colours than the default"
else ok "  drawn in other colours than the default"; fi
fresh

mc_start --big record "$TMPD/l.cast" lesson st-array
check_screen "--big record FILE lesson st-array: page 1" "page 1/[0-9]+"
tm_keys ']'
check_screen "  page 2" "page 2/[0-9]+"
tm_keys q
mc_exit_ok "record a lesson from the command line"
check_eq "  the recording's page markers" "page 1,page 2" \
    "$(tail -n +2 "$TMPD/l.cast" | jq -r 'select(.[1] == "m") | .[2]' | grep -E '^page' | paste -sd, -)"
finish
