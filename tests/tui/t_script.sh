#!/bin/sh
# A Lua script algorithm in the UI: it opens like a built-in, and when the file changes on
# disk it is reloaded at once, keeping the current step.  The command line and pickers on
# the way: a bad command gets setup.h's one-line message, Tab completes.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
cp "$ROOT/scripts/st.lua" "$TMPD/myst.lua"
tm_start 150 40
mc_start --net array:16 --algo "$TMPD/myst.lua"
check_screen "a .lua algorithm opens" "on array:16"
tm_keys n; tm_keys n
check_screen "stepped to 2" " step 2/4 "
# change the file (a comment line is enough to change its mtime and content)
sleep 1
printf '\n-- edited\n' >>"$TMPD/myst.lua"
check_screen "the changed script is reloaded" "reloaded .*myst.lua"
check_screen "the step is kept" " step 2/4 .*|reloaded .*step 2 kept"
# a script that no longer loads: the message says why, the old broadcast stays
sleep 1
printf 'this is not lua(\n' >>"$TMPD/myst.lua"
check_screen "a broken script is reported" "myst.lua"
check_screen "and the broadcast stays on screen" " step 2/4 "

# the command line: bad commands get one clear line, good ones apply
tm_keys : ; tm_run "algo st"
check_screen "back to the built-in st" "st on array:16"
tm_keys : ; tm_run "algo nosuch"
check_screen "bad algorithm: one-line message" "unknown algorithm 'nosuch'"
tm_keys : ; tm_run "bytes lots"
check_screen "bad bytes: setup's message" "bad byte count 'lots'"
tm_keys : ; tm_run "source 99"
check_screen "bad source: setup's message" "source 99 is outside"
tm_keys : ; tm_run "frobnicate"
check_screen "unknown command: listed commands" "unknown command 'frobnicate'"
tm_keys : ; tm_run "net mesh:8x8"
check_screen ":net mesh:8x8 applies" "on mesh:8x8"
tm_keys : ; tm_keys a l Tab
check_screen "Tab completes the command" ":algo ?$"
tm_keys b s Tab
check_screen "Tab completes the algorithm" ":algo bst"
tm_keys Enter
check_screen ":algo bst applies" "bst on mesh:8x8"
tm_keys : ; tm_run "model circuit"
check_screen ":model circuit applies" "circuit +step"
tm_keys : ; tm_run "set nu=1"
check_screen ":set nu=1 applies or says why" "set nu=1|nu"
tm_keys : ; tm_run "source 3,4"
check_screen ":source 3,4 applies" "source \\(3,4\\)"
tm_keys : ; tm_run "bytes 4096"
check_screen ":bytes 4096 applies" "4K B"
tm_keys : ; tm_run "net torus:5x5"
check_screen ":net torus:5x5 applies (an algorithm that runs there)" "on torus:5x5"
tm_keys : ; tm_run "step 3"
check_screen ":step 3" " step 3/"
tm_keys '?'
check_screen "? lists the keys" "meshcast keys"
tm_keys Escape; sleep 0.3   # a lone Escape is told apart after libtermkey's wait time
tm_keys t
check_screen "t opens the net picker" "pick net"
tm_keys Escape; sleep 0.3
tm_keys : ; tm_run "q"
mc_exit_ok ":q"
finish
