#!/bin/sh
# The screen under the inputs that used to hang it (issue 24 finding 4): a packet size that
# wraps a 32-bit packet count is refused before the screen opens (exit 2, one line), and a
# script in which one node sends to every node of array:65536 in one step opens, steps and
# quits on q at once.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"

tm_start 120 40
mc_start --net torus:8x8 --algo saf-trees --model circuit --set B=4294967295 --bytes 18446744073709551615
check_screen "saf-trees B=4294967295, 2^64-1 bytes: refused at once" 'EXIT=2' 20
check_match "... saying why" "over the work budget" "$(cat "$TMPD/err")"
check_eq "... the main screen is back" 0 "$(tm display -p -t t '#{alternate_on}')"
tm_run clear; sleep 0.5

mc_start --net array:65536 --algo "$ROOT/tests/lua/star_all.lua"
check_screen "one node to every node of array:65536: the screen opens" "star.* on array:65536" 60
tm_keys n
check_screen "... n shows the step" "step 1/1" 30
tm_keys q
mc_exit_ok "one node to every node"
finish
