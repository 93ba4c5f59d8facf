#!/bin/sh
# Lessons worth a lecture (issue 9), on the screen: a wrong choice is marked and gets its own
# feedback, the right one is marked once answered; lesson paragraphs keep their blank lines
# (defect 7); a "now you try" task (rh-contention: ":set nu=1 and find the step whose cost
# drops") is refused until the state is reached, then taken; ] past the last page shows the
# score; the first try is kept in the progress file.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
export XDG_STATE_HOME="$TMPD/state"
export MESHCAST_PATH="$ROOT"
tm_start 200 50
tm_run "XDG_STATE_HOME=$XDG_STATE_HOME MESHCAST_PATH=$ROOT $MESHCAST lesson st-array 2>$TMPD/err; echo EXIT=\$?"
check_screen "st-array page 1" "page 1/"
# the pane's text: the line after the first paragraph is blank
para=$(tm_cap | awk -F'│' '/a copy\. *$/ { getline n; sub(/^ +/, "", $2); print (n ~ /│ *$/) ? "blank" : "joined: " n }')
check_eq "paragraphs keep their blank line" "blank" "$para"
tm_keys c
check_screen "a wrong choice is told so" "Not quite"
check_screen "the wrong choice is marked" "-c\\) 15"
check_screen "its own feedback" "15 is how many messages are sent"
tm_keys a
check_screen "the right choice is marked" "\\+a\\) 4"
check_nomatch "the wrong mark is gone" "-c\\) 15" "$SCREEN"
tm_keys q
mc_exit_ok "st-array"

# rh-contention's last page: the nu = 1 task
P="$XDG_STATE_HOME/meshcast/progress"
mkdir -p "$P"
np=11
printf 'meshcast-progress 1\nlast %d\n' $((np - 1)) >"$P/rh-contention"
tm_run clear
tm_run "XDG_STATE_HOME=$XDG_STATE_HOME MESHCAST_PATH=$ROOT $MESHCAST lesson rh-contention 2>$TMPD/err; echo EXIT=\$?"
check_screen "rh-contention reopens at its task page" "page $np/$np"
check_screen "the task says what to do" "now you try"
tm_keys Enter
check_screen "Enter before doing it: not yet, and why" "Not yet: nu is 0"
tm_keys :; tm_run "set nu=1"
check_screen "nu=1 set" "rh on mesh:8x8 .*nu=1 .*step 0/13"
for i in 1 2 3 4 5 6 7; do tm_keys n; done
check_screen "stepped to 7" "step 7/13"
tm_keys Enter
check_screen "the wrong step is refused" "Not yet: step 7 is not the step asked for"
tm_keys n
check_screen "step 8" "step 8/13"
tm_keys Enter
check_screen "the state asked for is taken" "Right!"
check_screen "its explanation" "Steps 8 and 9 lose their contention"
tm_keys ']'
check_screen "] past the last page: the summary" "The end of the lesson"
check_screen "the score: no question right at the first try yet" "Right at the first try: 0 of 11"
check_screen "right in the end: 1" "Right in the end: 1 of 11"
tm_keys '['
check_screen "[ back to the last page" "page $np/$np"
tm_keys q
mc_exit_ok "rh-contention"
check_match "the progress file keeps the first try (wrong) and the last answer (right)" \
    "^page $((np - 1)) 1 1 -1$" "$(cat "$P/rh-contention")"
finish
