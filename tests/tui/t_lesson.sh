#!/bin/sh
# A lesson in the pane beside the map: open it, answer wrongly and rightly (by key and by
# selecting a node), see the explanation, page on, quit, reopen: the progress is kept
# (XDG_STATE_HOME is a temporary directory).  Also: a mouse click selects a node.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
LESSON="$ROOT/lessons/st-array.lua"
[ -f "$LESSON" ] || { bad "lesson file $LESSON exists"; finish; exit 1; }
export XDG_STATE_HOME="$TMPD/state"
np=$("$MESHCAST" list lessons --json 2>/dev/null | jq -r '.[]? | select(.id? == "st-array") | .pages' 2>/dev/null)

tm_start 240 40
tm_run "XDG_STATE_HOME=$XDG_STATE_HOME $MESHCAST lesson $LESSON 2>$TMPD/err; echo EXIT=\$?"
check_screen "lesson opens beside the map" "\\[Lesson\\]"
check_screen "page 1 shown" "page 1/[0-9]+"
check_screen "the page's broadcast: st on array:16 at step 0, its total hidden (the answer)" \
    "st on array:16 .* step \\?/\\? "
check_nomatch "nor told by the narration" "steps to go" "$SCREEN"
check_screen "the question and its choices" "a\\) 4"
tm_keys b
check_screen "a wrong answer is told so" "Not quite"
check_nomatch "no explanation after a wrong answer" "holders double each step" "$(tm_cap)"
tm_keys a
check_screen "a right answer is told so" "Right!"
check_screen "the explanation follows the answer" "holders double each step"
check_screen "once answered, the total is back" "st on array:16 .* step 0/4 "
check_screen "and the narration" "4 steps to go"
tm_keys ']'
check_screen "] goes to page 2, its step shown" "page 2/.*" 
check_screen "page 2 (a click question) shows the step before: predict, then see" "step 0/4"
check_screen "the pane says so" "Predict, then see"
# page 2 asks for a node: first a wrong one (the cursor on node 0), then node 8
tm_keys Enter
check_screen "a wrong node is told so" "Not quite"
for i in 1 2 3 4 5 6 7 8; do tm_keys l; done
check_screen "the cursor moved to node 8" "cursor 8 "
tm_keys Enter
check_screen "the right node is told so" "Right!"
check_screen "node question: explanation" "XOR 8 = 8"
check_screen "then see: step 1 is shown once answered" "step 1/4"
tm_keys '['
check_screen "[ goes back to page 1" "page 1/"
tm_keys ']'
check_screen "and forward to page 2" "page 2/"
tm_keys q
mc_exit_ok "lesson"
ls "$XDG_STATE_HOME"/meshcast/progress/* >/dev/null 2>&1 && ok "progress saved under XDG_STATE_HOME" ||
    bad "progress saved under XDG_STATE_HOME" "$(find "$XDG_STATE_HOME" 2>/dev/null)"

tm_run clear
tm_run "XDG_STATE_HOME=$XDG_STATE_HOME $MESHCAST lesson $LESSON 2>$TMPD/err; echo EXIT=\$?"
check_screen "reopened on the page left" "page 2/"
check_screen "progress kept: 2 pages seen, 2 answered right" "seen 2, answered right 2"
check_screen "the earlier right answer is remembered" "answered this right before"
tm_keys q
mc_exit_ok "lesson reopened"

# a link question answered from the keyboard: e cycles the links at the cursor, Enter answers
L2="$ROOT/lessons/rh-contention.lua"
if [ -f "$L2" ]; then
    tm_run clear
    tm_run "XDG_STATE_HOME=$XDG_STATE_HOME $MESHCAST lesson $L2 2>$TMPD/err; echo EXIT=\$?"
    check_screen "rh lesson opens" "rh on mesh:8x8"
    for i in 2 3 4 5; do tm_keys ']'; tm_wait "page $i/" 10 >/dev/null; done
    check_screen "page 5: the link question" "Click the first link"
    tm_keys Escape; sleep 0.3
    check_screen "the cursor starts on the page's first node" "cursor \\(0,2\\)"
    tm_keys e; tm_keys Enter
    check_screen "a wrong link is told so" "Not quite"
    tm_keys e; tm_keys e; tm_keys Enter
    check_screen "the right link is told so" "Right!"
    tm_keys q
    mc_exit_ok "rh lesson"
fi

# a mouse click (SGR 1006 report) on a node selects it; the Node panel shows it
tm_start 170 40
mc_start --ascii --net mesh:8x8 --algo st
check_screen "mouse: mesh opens" "st on mesh:8x8"
pos=$(tm_cap | awk '
    lab == 0 && /^ *0( +[0-9]+)+ *\|/ { lab = NR; s = $0; o = 0
        while (match(s, /[0-9]+/)) { v = substr(s, RSTART, RLENGTH); x[v] = o + RSTART; o += RSTART + RLENGTH - 1; s = substr(s, RSTART + RLENGTH) } next }
    lab && $1 == "3" && !done { print x[5], NR; done = 1 }')
set -- $pos
if [ -n "${1:-}" ]; then
    tm send-keys -t t -H 1b 5b 3c 30 3b $(printf '%s' "$1" | od -An -tx1) 3b $(printf '%s' "$2" | od -An -tx1) 4d
    check_screen "mouse: click selects node (3,5)" "cursor \\(3,5\\)"
    tm_keys Tab; tm_keys Tab
    check_screen "mouse: the node panel shows it" "Node \\(3,5\\)"
    # the wheel zooms
    tm send-keys -t t -H 1b 5b 3c 36 35 3b 31 30 3b 31 30 4d
    check_screen "mouse: wheel down zooms out" "zoom 1"
else
    bad "mouse: found node (3,5) on the screen"
fi
tm_keys q
mc_exit_ok "mouse"
finish
