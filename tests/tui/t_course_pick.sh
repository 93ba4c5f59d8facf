#!/bin/sh
# The lesson picker (o) in the course's order (lessons/course): a heading per track, the
# lessons under it; the cursor never rests on a heading (g, j, k, G skip them) and Enter opens
# the lesson under it.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
export XDG_STATE_HOME="$TMPD/state"
COURSE="$ROOT/lessons/course"
t1=$(grep -m1 '^track ' "$COURSE" | sed 's/^track //')
t2=$(grep '^track ' "$COURSE" | sed -n '2s/^track //p')
# the last lesson of track 1 and the first of track 2, read from the file
last1=$(awk '/^track /{t++; next} /^#|^meshcast|^$/{next} t==1{l=$0} END{print l}' "$COURSE")
first2=$(awk '/^track /{t++; next} /^#|^meshcast|^$/{next} t==2{print; exit}' "$COURSE")
n1=$(awk '/^track /{t++; next} /^#|^meshcast|^$/{next} t==1{n++} END{print n}' "$COURSE")

tm_start 200 60
mc_start --net mesh:8x8
tm_wait "mesh:8x8" 10 >/dev/null
tm_keys o
check_screen "o: the first track's heading" "== $t1"
check_screen "o: the second track's heading" "== $t2"
# the order on screen: headings and lessons as the file has them
# a picker line: "│ ▶ NAME  Title ..." or "│   == Track title   │"
shown=$(tm_cap | sed -n -e 's/.*│   \(== .*[^ ]\) *│.*/\1/p' -e 's/.*│   \(== .*[^ ]\) *$/\1/p' \
    -e 's/.*│ [▶ ] \([a-z][a-z0-9-]*\)  .*/\1/p')
want=$(grep -v '^#\|^meshcast\|^$' "$COURSE" | sed 's/^track /== /')
check_eq "o: headings and lessons in the course's order" "$want" \
    "$(printf '%s\n' "$shown" | head -n "$(printf '%s\n' "$want" | wc -l)")"
check_screen "o: the cursor starts on the first lesson, not its heading" "▶ st-array  "
tm_keys k
check_screen "k at the top stays on st-array" "▶ st-array  "
i=1; while [ "$i" -lt "$n1" ]; do tm_keys j; i=$((i + 1)); done
check_screen "j to the last lesson of track 1 ($last1)" "▶ $last1  "
tm_keys j
check_screen "j past a heading: $first2" "▶ $first2  "
tm_keys k
check_screen "k back past it: $last1" "▶ $last1  "
tm_keys g
check_screen "g: the first lesson" "▶ st-array  "
tm_keys Enter
check_screen "Enter opens it" "The ST broadcast on a linear array"
tm_keys q
mc_exit_ok "picker"

# the end of a track's last lesson leads on to the next track's first: ] on the summary
pages() { echo $(( $(grep -c '\btext *=' "$ROOT/lessons/$1.lua") - $(grep -c '\bquestion *=' "$ROOT/lessons/$1.lua") )); }
np=$(pages "$last1")
title2=$(grep -m1 'title *=' "$ROOT/lessons/$first2.lua" | sed 's/.*title *= *"//; s/".*//')
tm_run clear
tm_run "XDG_STATE_HOME=$XDG_STATE_HOME $MESHCAST lesson $last1 2>$TMPD/err; echo EXIT=\$?"
tm_wait "page 1/" 10 >/dev/null
i=0; while [ $i -lt "$np" ]; do tm_keys ']'; sleep 0.15; i=$((i + 1)); done
check_screen "$last1: the summary names the next lesson, $first2" "Next in the course: $first2"
tm_keys ']'
check_screen "] opens it: $title2" "$title2"
check_screen "... on its page 1" "page 1/"
tm_keys q
mc_exit_ok "next lesson"
# the course's last lesson has no next
lastc=$(grep -v '^#\|^meshcast\|^$\|^track ' "$COURSE" | tail -n 1)
tm_run clear
tm_run "XDG_STATE_HOME=$XDG_STATE_HOME $MESHCAST lesson $lastc 2>$TMPD/err; echo EXIT=\$?"
tm_wait "page 1/" 10 >/dev/null
i=0; while [ $i -lt "$(pages "$lastc")" ]; do tm_keys ']'; sleep 0.15; i=$((i + 1)); done
check_screen "$lastc, the course's last: no next lesson" "No next lesson in the course"
tm_keys q
mc_exit_ok "the last lesson"
finish
