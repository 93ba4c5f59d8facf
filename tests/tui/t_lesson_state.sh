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
printf 'meshcast-progress 1\nlast 8\n' >"$P/st-array"

tm_start 200 50
tm_run "XDG_STATE_HOME=$XDG_STATE_HOME MESHCAST_PATH=$ROOT $MESHCAST lesson st-array 2>$TMPD/err; echo EXIT=\$?"
check_screen "st-array reopens at page 9" "page 9/9"
check_screen "page 9 shows st on the 16-node array from node 5, at step 4" \
    "st on array:16  source 5 .*step 4/4"
for i in 8 7 6; do tm_keys '['; tm_wait "page $i/9" 10 >/dev/null; done
check_screen "[ back to page 6 asks about node 5" "page 6/9"
check_screen "page 6 shows st on array:16 from node 5 at step 1" "st on array:16  source 5 .*step 1/4"
tm_keys q
mc_exit_ok "st-array reopened"

tm_run clear
tm_run "XDG_STATE_HOME=$XDG_STATE_HOME MESHCAST_PATH=$ROOT $MESHCAST lesson rh-contention 2>$TMPD/err; echo EXIT=\$?"
check_screen "rh-contention opens at page 1" "page 1/9"
# (one key at a time: keys typed while a page's broadcast builds are dropped)
for i in 2 3 4 5 6 7 8; do tm_keys ']'; tm_wait "page $i/9" 10 >/dev/null; done
check_screen "] x7: page 8 on the 4x4 mesh" "rh on mesh:4x4 .*step 6/9"
tm_keys '['; tm_wait "page 7/9" 10 >/dev/null; tm_keys '['
check_screen "[ [: page 6" "page 6/9"
check_screen "page 6 shows rh on mesh:8x8 at step 10" "rh on mesh:8x8 .*step 10/13"
check_nomatch "page 6 shows no nu = 1" "nu=1" "$SCREEN"
tm_keys ']'
check_screen "page 7 sets nu = 1" "page 7/9"
# the lesson picker: bst-crossover is where `meshcast list lessons` puts it
n=$("$MESHCAST" list lessons | grep -n '^bst-crossover$' | cut -d: -f1)
tm_keys o; tm_keys g
i=1; while [ "$i" -lt "${n:-1}" ]; do tm_keys j; i=$((i + 1)); done
tm_keys Enter
check_screen "o -> bst-crossover page 1" "BST against ST"
check_screen "its page 1: st on array:16, 64 bytes, step 4" "st on array:16  source 0  64 B .*step 4/4"
tm_keys Tab
check_screen "the Step panel: Total 320.48 (nu = 0), not 387.80" "Total +320\\.48"
check_nomatch "no 387.80 on screen" "387\\.80" "$SCREEN"
tm_keys q
mc_exit_ok "after another lesson"
finish
