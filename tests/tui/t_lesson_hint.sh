#!/bin/sh
# A wrong click answer gets the question's hint (issue 23: "feedback on a wrong click answer
# has no hint"), at 200x50 and at 80x24 (the response scrolls into view); the right answer
# then shows the explanation, not the hint.  The hint's words are read from the lesson file.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
export XDG_STATE_HOME="$TMPD/state"
L="$ROOT/lessons/st-array.lua"
# page 2's question: click the node that receives the message in step 1 (its hint, 4 words)
hint=$(grep -m1 'hint = ' "$L" | sed 's/.*hint = "//; s/"[,]*$//' | cut -d' ' -f1-4)
[ -n "$hint" ] || bad "st-array has a hint"
for size in "200 50" "80 24"; do
    tm_start $size
    tm_run "XDG_STATE_HOME=$XDG_STATE_HOME $MESHCAST lesson st-array 2>$TMPD/err; echo EXIT=\$?"
    tm_wait "page 1/" 10 >/dev/null
    tm_keys a; tm_wait "Right" 5 >/dev/null; tm_keys ']'
    check_screen "$size: page 2, a node question" "page 2/"
    check_nomatch "$size: no hint before an answer" "Hint:" "$SCREEN"
    tm_keys Enter   # the cursor is on the source, node 0: wrong
    check_screen "$size: a wrong click is told so" "Not quite"
    check_screen_fixed "$size: ... with the hint" "Hint: $hint"
    tm_keys l l l l l l l l Enter   # node 8
    check_screen "$size: the right node" "Right!"
    check_nomatch "$size: the hint is gone" "Hint:" "$(tm_cap)"
    tm_keys q
    mc_exit_ok "$size"
    rm -rf "$XDG_STATE_HOME"
done
finish
