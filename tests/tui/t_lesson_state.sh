#!/bin/sh
# Issue 9 defect 1 on the screen: a lesson page shows the broadcast its lesson defines, not
# what was on screen before.  The reproducers of the issue: a finished st-array reopens at
# page 9 on the 16-node array (not the start-up mesh) and [ back to page 6 still shows it;
# rh-contention ] x7 then [ [ shows rh on mesh:8x8 at step 10; after rh-contention page 7
# (nu = 1), o -> bst-crossover page 1 shows the nu = 0 ST (Total 320.48, not 387.80).
# (Every page of every lesson, reached each way, is checked in tests/unit/test_lesson_state.c.)
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
export XDG_STATE_HOME="$TMPD/state"
export MESHCAST_PATH="$ROOT"
P="$XDG_STATE_HOME/meshcast/progress"
mkdir -p "$P"
printf 'meshcast-progress 1\nlast 10\n' >"$P/st-array"

tm_start 200 50
tm_run "XDG_STATE_HOME=$XDG_STATE_HOME MESHCAST_PATH=$ROOT $MESHCAST lesson st-array 2>$TMPD/err; echo EXIT=\$?"
check_screen "st-array reopens at its last page" "page 11/11"
check_screen "the last page shows st on the 16-node array, at step 0" \
    "st on array:16  source 5 .*step 0/4"
for i in 10 9 8 7; do tm_keys '['; tm_wait "page $i/11" 10 >/dev/null; done
check_screen "[ back to page 7 asks about node 5" "page 7/11"
check_screen "page 7 shows st on array:16 from node 5 (before step 1: predict, then see)" \
    "st on array:16  source 5 .*step 0/4"
tm_keys q
mc_exit_ok "st-array reopened"

tm_run clear
tm_run "XDG_STATE_HOME=$XDG_STATE_HOME MESHCAST_PATH=$ROOT $MESHCAST lesson rh-contention 2>$TMPD/err; echo EXIT=\$?"
check_screen "rh-contention opens at page 1" "page 1/11"
# (one key at a time: keys typed while a page's broadcast builds are dropped)
for i in 2 3 4 5 6 7 8 9; do tm_keys ']'; tm_wait "page $i/11" 10 >/dev/null; done
check_screen "] x8: page 9 on the 4x4 mesh, its step counter hidden (a question open)" \
    "rh on mesh:4x4 .*step \\?/\\?"
tm_keys a   # its right answer (1: no contention); then the counter is back
check_screen "page 9 answered: at step 6 of 9" "rh on mesh:4x4 .*step 6/9"
tm_keys '['; tm_wait "page 8/11" 10 >/dev/null; tm_keys '['
check_screen "[ [: page 7" "page 7/11"
check_screen "page 7: rh on mesh:8x8, nu=0" "rh on mesh:8x8 .*nu=0 .*step \\?/\\?"
tm_keys a   # its right answer (load 1)
check_screen "page 7 answered: at step 10 of 13" "rh on mesh:8x8 .*nu=0 .*step 10/13"
tm_keys ']'
check_screen "page 8 sets nu = 1" "page 8/11"
check_screen "page 8: nu=1 on the title line" "rh on mesh:8x8 .*nu=1 "
# the lesson picker: bst-crossover is where `meshcast list lessons` puts it
n=$("$MESHCAST" list lessons | grep -n '^bst-crossover  ' | cut -d: -f1)
tm_keys o; tm_keys g
i=1; while [ "$i" -lt "${n:-1}" ]; do tm_keys j; i=$((i + 1)); done
tm_keys Enter
check_screen "o -> bst-crossover page 1" "BST against ST"
check_screen "its page 1: st on array:16, 64 bytes, nu=0" "st on array:16  source 0  64 B  seidel  nu=0 .*step \\?/\\?"
tm_keys a   # its right answer (320.48 us)
check_screen "answered: step 4 of 4" "st on array:16  source 0  64 B  seidel  nu=0 .*step 4/4"
tm_keys Tab
check_screen "the Step panel: Total 320.48 (nu = 0), not 387.80" "Total +320\\.48"
check_nomatch "no 387.80 on screen" "387\\.80" "$SCREEN"
tm_keys q
mc_exit_ok "after another lesson"
finish
