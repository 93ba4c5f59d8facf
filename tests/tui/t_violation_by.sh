#!/bin/sh
# The Step panel names the transfers a violation involves (issue 19): the flat broadcast on
# array:4 under circuit shares arc 0->1 among the circuits to 1, 2 and 3 (by hand).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
tm_start 160 50
mc_start --net array:4 --algo "$ROOT/tests/lua/bad_flat.lua" --model circuit
check_screen "opens" "step 0/1" 30
tm_keys n
check_screen "step 1: the violation" "arc 0->1 is shared by 3 circuits" 30
check_screen "step 1: by the three circuits" "by 0->1 chunk 0 route x\\+1; 0->2 chunk 0 route x\\+2;" 30
tm_keys q
mc_exit_ok "quits"
finish
