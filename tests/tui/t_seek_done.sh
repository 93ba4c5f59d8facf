#!/bin/sh
# A long jump (G on a broadcast of more than 2,000,000 transfers goes step by step, drawing
# "going to step N..." as it goes) leaves no progress line once it has arrived (issue 23,
# minor).  st on array:2^22 has 2^22 - 1 transfers in 22 steps (the informed double each step).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
n=4194304
for size in "80 24" "200 60"; do
    set -- $size
    tm_start "$1" "$2"
    mc_start --ascii --net array:$n --algo st
    check_screen "${1}x$2: built" "step 0/22" 120
    tm_keys G
    check_screen "${1}x$2: G arrives at step 22 (the title)" "step 22/22  . [0-9.]+x" 180
    sleep 1   # (a frame or two after arriving)
    SCREEN=$(tm_cap)
    check_nomatch "${1}x$2: no progress line after arriving" "going to step|simulating|Esc or Ctrl-C" "$SCREEN"
    tm_keys g
    check_screen "${1}x$2: g back to step 0 (the title)" "step 0/22  . [0-9.]+x" 180
    sleep 1
    SCREEN=$(tm_cap)
    check_nomatch "${1}x$2: none after the way back either" "going to step|Esc or Ctrl-C" "$SCREEN"
    tm_keys q
    mc_exit_ok "${1}x$2"
done
finish
