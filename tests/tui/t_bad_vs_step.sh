#!/bin/sh
# A --vs that does not build and a --step past the last step are usage errors like any bad
# option (issue 23, minor): one line on stderr and exit 2, in a terminal too (no screen).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
# clear the pane and wait until the last run's EXIT= is gone (else it would be read again)
clear_pane() {
    tm_run clear; _n=100
    while [ $_n -gt 0 ] && tm_cap | grep -q '^EXIT='; do sleep 0.1; _n=$((_n - 1)); done
}
tm_start 100 30
mc_start --net array:16 --algo st --vs nosuch
check_screen "--vs nosuch: exit 2" "^EXIT=2" 20
check_eq "--vs nosuch: one line on stderr" 1 "$(wc -l < "$TMPD/err")"
check_match "--vs nosuch: says why" "unknown algorithm 'nosuch'" "$(cat "$TMPD/err")"
clear_pane
# st on array:16 has lg 16 = 4 steps
mc_start --net array:16 --algo st --step 9
check_screen "--step 9 of 4: exit 2" "^EXIT=2" 20
check_match "--step 9: past the last step (4)" "--step 9 is past the last step \\(4\\)" "$(cat "$TMPD/err")"
clear_pane
# side by side the position runs to the longer one's end: bst's 5 steps (2 chunks, one more)
mc_start --net array:16 --algo st --vs bst --step 4
check_screen "--vs bst --step 4: opens at step 4 of bst's 5" "step 4/5" 20
tm_keys q
mc_exit_ok "good --vs and --step"
finish
