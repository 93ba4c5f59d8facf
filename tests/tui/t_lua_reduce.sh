#!/bin/sh
# A script's own reduction (op = "reduce") in the UI: it opens and steps like a broadcast, and
# the Step panel says whether the root ends with every contribution once, or names the first
# contribution lost or counted twice (step, node, chunk).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
tm_start 150 45
mc_start --net full:16 --algo "$ROOT/scripts/tree-reduce.lua" --model postal --set s=4
check_screen "the reduction opens" "tree-reduce on full:16"
check_screen "the Step panel: every contribution once" "reduction: the root has every contribution once"
check_screen "before step 1: every node holds its contribution (Step panel)" "every node holds its contribution; root 0 combines"
check_screen "and the narration says so" "Before step 1: every node holds its own contribution \\(4 chunks, 1024 bytes\\); [0-9]+ steps to combine them at 0"
tm_keys n; tm_keys n
check_screen "it steps" " step 2/"
tm_keys q
mc_exit_ok "quit"
tm_start 150 45
mc_start --net full:4 --algo "$ROOT/tests/lua/bad_reduce_double.lua"
check_screen "a reduction that doubles a contribution is counted" "reduction NOT verified: 1 lost or doubled"
check_screen "and named: step, node, contributor" "step 3: node 1 combines node 3's"
check_screen "and chunk" "contribution to chunk( |$)" && check_screen "(wrapped)" "^ .* 0 a second time"
tm_keys q
mc_exit_ok "quit"
finish
