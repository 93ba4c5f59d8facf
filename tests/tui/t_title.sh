#!/bin/sh
# Issue 9 defect 10: the title line shows nu (under Seidel's model) and every setting that is
# not at its default: cost parameters, the algorithm's parameters, --fit.  A lesson page with
# nu = 1 says so on the title line.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
export XDG_STATE_HOME="$TMPD/state"
tm_start 200 30
mc_start --net mesh:8x8
check_screen "default: nu=0 on the title line" "st on mesh:8x8  source \\(0,0\\)  1K B  seidel  nu=0 "
check_nomatch "default: no other setting shown" "seidel  nu=0 [a-z]" "$SCREEN"
tm_keys q
mc_exit_ok "default"
tm_run clear
mc_start --net mesh:8x8 --algo rh --set nu=1 --set a=0.1
check_screen "--set nu=1 a=0.1: both on the title line" "rh on mesh:8x8 .* seidel  nu=1 a=0\\.1 "
tm_keys q
mc_exit_ok "nu=1"
tm_run clear
mc_start --net array:16 --algo chain --set s=4 --model postal --set t=2
check_screen "postal model, t and the chain's s shown" "chain on array:16 .* postal  t=2 s=4 "
tm_keys q
mc_exit_ok "chain"
tm_run clear
mc_start --net mesh:8x8 --algo st --fit none
check_screen "--fit none shown" "st on mesh:8x8 .* nu=0 fit=none "
tm_keys q
mc_exit_ok "fit"
tm_run clear
tm_run "XDG_STATE_HOME=$XDG_STATE_HOME $MESHCAST lesson $ROOT/lessons/rh-contention.lua 2>$TMPD/err; echo EXIT=\$?"
check_screen "lesson page 1: nu=0" "rh on mesh:8x8 .* nu=0 "
for i in 2 3 4 5 6 7 8; do tm_keys ']'; tm_wait "page $i/" 10 >/dev/null; done
check_screen "lesson page 8: nu=1 on the title line" "rh on mesh:8x8 .* nu=1 "
tm_keys q
mc_exit_ok "lesson"
# defect 7: a line of text cut short ends in an ellipsis (the title line on a narrow screen,
# a lesson pane line); under --ascii a '~'
tm_start 64 30
mc_start --net mesh:8x8 --algo rh --set nu=1 --set a=0.1
check_screen "narrow: the title line ends in an ellipsis before the step counter" "… step 0/13"
tm_keys q
mc_exit_ok "narrow"
tm_run clear
mc_start --ascii --net mesh:8x8 --algo rh --set nu=1 --set a=0.1
check_screen "narrow, --ascii: a '~' instead" "~ step 0/13"
tm_keys q
mc_exit_ok "narrow ascii"
finish
