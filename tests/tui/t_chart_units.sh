#!/bin/sh
# The Chart panel names its cost unit (issue 23, minor): microseconds under seidel (a and b
# are Intel Delta us), model units under the other models.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
for m in seidel postal; do
    tm_start 200 60
    mc_start --ascii --net array:16 --algo st --model $m
    check_screen "$m: opens" "st on array:16"
    tm_keys Tab; tm_keys Tab; tm_keys Tab
    check_screen "$m: the Chart panel" "\\[Chart\\]"
    if [ $m = seidel ]; then check_screen "seidel: cost in us" "cost in us \\(log\\)"
    else check_screen "$m: cost in model units" "cost in model units \\(log\\)"; fi
    tm_keys q
    mc_exit_ok "$m"
done
finish
