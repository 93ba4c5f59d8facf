#!/bin/sh
# A lesson's header is never cut (issue 23, minor: its lines were cut even at 200 columns):
# for every shipped lesson at 80x24 and 200x60 the pane shows the whole title (wrapped) and
# the score line's every number (page 1/pages, seen 1, right 0, first try 0/questions; the
# pages and questions counted here from the lesson file), with no cut mark in the header.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
export XDG_STATE_HOME="$TMPD/state"
# the pane's lines (right of the last vertical bar) from the tabs down to the score line(s)
header() {
    tm_cap | python3 -c '
import re, sys
out = []
for line in sys.stdin.read().split("\n"):
    if "\u2502" in line:
        out.append(line.rsplit("\u2502", 1)[1][1:].rstrip())
for i, l in enumerate(out):
    if re.match(r"page \d+/\d+", l):
        j = i + 1 if i + 1 < len(out) and re.match(r"right \d+ ", out[i + 1]) else i
        print("\n".join(out[1:j + 1]))
        break'
}
for size in "80 24" "200 60"; do
    set -- $size
    tm_start "$1" "$2"
    for L in "$ROOT"/lessons/*.lua; do
        id=$(basename "$L" .lua)
        title=$(sed -n 's/^ *title *= *"\(.*\)",* *$/\1/p' "$L" | head -n 1)
        nq=$(grep -c '\bquestion *=' "$L")
        np=$(( $(grep -c '\btext *=' "$L") - nq ))
        rm -rf "$XDG_STATE_HOME"
        mc_start lesson "$id"
        if ! tm_wait "page 1/$np" 60; then
            bad "${1}x$2 $id: opens" "$(tm_cap | tail -n 5)"; tm_keys q; continue
        fi
        h=$(header)
        flat=$(printf '%s\n' "$h" | tr '\n' ' ' | tr -s ' ')
        check_match "${1}x$2 $id: the whole title" "$(printf '%s' "$title" | sed 's/[][().*^$+?{}|\\]/\\&/g')" "$flat"
        check_match "${1}x$2 $id: page 1/$np, seen 1" "page 1/$np .*seen 1" "$flat"
        check_match "${1}x$2 $id: right 0, first try 0/$nq" "right 0,? .*(first try|1st) 0/$nq" "$flat"
        check_nomatch "${1}x$2 $id: no cut mark in the header" "…|~ *$" "$h"
        tm_keys q
        check_screen "${1}x$2 $id: quits" "^EXIT=0" 20
        tm_run clear
    done
done
finish
