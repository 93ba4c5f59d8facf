#!/bin/sh
# The `:` commands' one table (src/tui/cmdtab.h), on screen (issue 23 minor): at 80x24 the
# help screen shows every entry whole (wrapped, no ellipsis), Tab lists every candidate (no
# ellipsis) and repeated Tab cycles through them, S-Tab back.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
tm_start 80 24
mc_start --net mesh:8x8 --algo st
check_screen "opens" "st on mesh:8x8"
# the help screen, scrolled line by line to its end: every screen on the way kept
tm_keys '?'
check_screen "help opens" "meshcast keys"
: >"$TMPD/help"
i=0; while [ $i -lt 100 ]; do tm_keys j; sleep 0.05; tm_cap >>"$TMPD/help"; i=$((i + 1)); done
check_screen_fixed "help: the last command, whole" "quit (also :q, :q!)"
tm_cap >>"$TMPD/help"
HELP=$(cat "$TMPD/help")
check_match "help: :timing's keys whole" ":timing async\\|lockstep" "$HELP"
check_match "help: :figure's text whole, wrapped" "Chart: Fig. N \\(2..8\\) of the s-to-p paper, as" "$HELP"
check_match "help: ... its end on the next line" "│ +(compare )?--sources +│" "$HELP"
check_match "help: :sources is there (it was not)" ":sources SPEC\\|off" "$HELP"
# (the panels behind the box keep their own cut lines: what counts is inside the box, where a
# cut entry would end in "… │")
check_nomatch "help: nothing cut with an ellipsis" "… *│" "$HELP"
tm_keys Enter   # closes the help (Escape and a key right after it read as Alt-key)
# Tab completion: every algorithm that runs on the mesh, no ellipsis
tm_keys :; tm send-keys -t t -l "algo "; tm_keys Tab
check_screen "Tab lists the algorithms" "part-xy-source"
check_match "... the scripts too" "knomial" "$SCREEN"
# the rows of the list: those just above the command line, names and spaces only
rows=$(printf '%s\n' "$SCREEN" | sed '$d' | tac | awk '/^[a-z0-9. -]+$/ {print; next} {exit}')
check_match "the list stands above the command line" "part-xy-source" "$rows"
check_nomatch "... none cut with an ellipsis" "…" "$(printf '%s\n' "$SCREEN" | sed '$d' | tail -n 4)"
# the built-ins that run on a mesh, from list algorithms: each listed
miss=""
for al in $("$MESHCAST" list algorithms | awk '/^Lua/{exit} $2 ~ /mesh/ || $0 ~ /mesh,/ {print $1}'); do
    printf '%s\n' "$SCREEN" | grep -Eq "(^| )$al( |$)" || miss="$miss $al"
done
check_eq "every built-in that runs on the mesh is listed" "" "$miss"
# the candidate on the command line, once it is not $1 (the screen may lag the key)
cand_after() {
    _n=100
    while [ $_n -gt 0 ]; do
        SCREEN=$(tm_cap)
        c=$(printf '%s\n' "$SCREEN" | sed -n 's/^:algo \([a-z0-9.-]*\)$/\1/p')
        [ -n "$c" ] && [ "$c" != "$1" ] && { printf '%s' "$c"; return; }
        sleep 0.1; _n=$((_n - 1))
    done
}
tm_keys Tab
one=$(cand_after "")
check_match "Tab again: a candidate on the line" "^[a-z0-9.-]+$" "$one"
tm_keys Tab
two=$(cand_after "$one")
check_match "Tab again: the next one" "^[a-z0-9.-]+$" "$two"
SCREEN=$(tm_cap)
check_match "the two are neighbours in the list" "(^| )$one  $two( |$)" "$SCREEN"
tm_keys BTab
check_screen "S-Tab: back to the first" "^:algo $one$"
tm_keys Enter
check_screen ":algo $one applies" "$one on mesh:8x8"
tm_keys q
mc_exit_ok "quit"
finish
