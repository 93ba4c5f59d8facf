#!/bin/sh
# Progress across a scripted session, and restarting a lesson.  st-array is answered by hand
# in tmux (page 1: b wrong, then a right; page 2 left open; page 3: a right at once), then
# `meshcast progress --json` must count what was done here: 3 pages seen, 2 questions
# answered, 1 right at the first try, 2 right, score floor(100 x 1 / questions).  Then R in
# the lesson asks to confirm; a key other than y keeps the progress, y forgets it (page 1).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
export XDG_STATE_HOME="$TMPD/state"
L="$ROOT/lessons/st-array.lua"
nq=$(grep -c '\bquestion *=' "$L")
np=$(( $(grep -c '\btext *=' "$L") - nq ))
st() { "$MESHCAST" progress --json | jq -r '.lessons[] | select(.id == "st-array") |
    "\(.seen) \(.answered) \(.first_try_right) \(.right) \(.score)"'; }

tm_start 200 50
tm_run "XDG_STATE_HOME=$XDG_STATE_HOME $MESHCAST lesson st-array 2>$TMPD/err; echo EXIT=\$?"
check_screen "the lesson opens on page 1" "page 1/$np"
tm_keys b; check_screen "b: wrong" "Not quite"
tm_keys a; check_screen "a: right" "Right!"
tm_keys ']'; check_screen "page 2" "page 2/$np"
tm_keys ']'; check_screen "page 3" "page 3/$np"
tm_keys a; check_screen "page 3, a: right at the first try" "Right!"
tm_keys q
mc_exit_ok "the session"
check_eq "progress: seen, answered, first try, right, score — as played" \
    "3 2 1 2 $((100 / nq))" "$(st)"
check_eq "progress: page 1 wrong then right, page 2 open, page 3 right" \
    "wrong right|null null|right right" \
    "$("$MESHCAST" progress --json | jq -r '[.lessons[] | select(.id == "st-array") | .answers[0:3][] | "\(.first) \(.last)"] | join("|")')"
check_match "progress (text): the st-array row" "^st-array +$np +3 +$nq +2 +1 +2 +$((100 / nq))%" \
    "$("$MESHCAST" progress)"

tm_run clear
tm_run "XDG_STATE_HOME=$XDG_STATE_HOME $MESHCAST lesson st-array 2>$TMPD/err; echo EXIT=\$?"
check_screen "reopened where it was left" "page 3/$np"
tm_keys R
check_screen "R asks first" "Restart 'st-array' from page 1.*y: restart"
tm_keys n
check_screen "another key keeps the progress" "not restarted"
check_eq "... kept" "3 2 1 2 $((100 / nq))" "$(st)"
tm_keys R; tm_wait "y: restart" 5 >/dev/null
tm_keys y
check_screen "y restarts" "lesson st-array restarted"
check_screen "... on page 1" "page 1/$np +seen 1, answered right 0, first try 0/$nq"
check_eq "progress after the restart: page 1 seen, nothing answered" "1 0 0 0 0" "$(st)"
tm_keys b; check_screen "answering again counts afresh" "Not quite"
tm_keys q
mc_exit_ok "after the restart"
check_eq "progress: the new first try is the wrong one" "1 1 0 0 0" "$(st)"
finish
