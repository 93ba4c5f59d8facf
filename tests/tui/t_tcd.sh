#!/bin/sh
# Cang & Wu on the screen: tcd on mesh:8x8 steps with the eyes marked (E: the mesh's, e: those
# of the quadrants the current level informs) and the TCD shown beside its closed form.  The
# truth comes from `meshcast run --json` and from eq. 2 (computed here), never typed in.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"

"$MESHCAST" run --net mesh:8x8 --algo tcd --source 2,2 --json >"$TMPD/tcd.run"
tcd=$(jq -r .tcd "$TMPD/tcd.run")
ptcd=$(jq -r .predicted_tcd "$TMPD/tcd.run")
# eq. 2: a_k = (2^k - (-1)^k)/3; the eyes of a 2^k block sit at (2^k-1-a_k)/2 and a_k further
eyes() { awk -v k="$1" -v n=8 'BEGIN { a = (2^k - (k % 2 ? -1 : 1)) / 3; lo = (2^k - 1 - a) / 2;
    for (b = 0; b < n; b += 2^k) printf "%d %d ", b + lo, b + lo + a }'; }
# the marks on the map: "ROW: count" of E or e (the map is left of the panel's '|')
marks() { tm_cap | awk -v m="$1" -F'|' '/^ +[0-7] +[.#+]/ { r = $1; sub(/^ +/, "", r); sub(/ .*/, "", r);
    n = gsub(m, "", $1); if (n) printf "%s:%d ", r, n }'; }
want_marks() { # ROWS... each with as many marks as eye columns (minus those that are E)
    for r in $1; do c=0; for x in $2; do c=$((c + 1)); done; printf '%s:%d ' "$r" "$c"; done; }

tm_start 170 40
mc_start --ascii --net mesh:8x8 --algo tcd --source 2,2
check_screen "tcd on mesh:8x8 opens" "tcd on mesh:8x8"
tm_keys j   # the cursor (on the source, an eye) off the eyes: it would cover the mark
check_screen "cursor moved" "cursor \(3,2\)"
check_eq "E marks the 4 eyes of the mesh (eq. 2)" "$(want_marks "$(eyes 3)" "$(eyes 3)")" "$(marks E)"
tm_keys n
check_screen "step 1 of 6" " step 1/6 "
check_screen_fixed "the step's label names the level" "level 3: the eyes of the 4-wide quadrants"
check_screen_fixed "the TCD beside its closed form" "TCD predicted (paper) = $ptcd"
check_screen_fixed "the simulated TCD" "TCD $tcd,"
check_screen_fixed "time-step optimal and contention-free" "time-step optimal: yes, contention-free"
# at level 3 the e marks are the eyes of the 4-wide quadrants (rows 1,2,5,6 x columns 1,2,5,6)
# less the 4 E's: rows 2 and 5 have 2 e's, rows 1 and 6 have 4
check_eq "e marks the eyes of the quadrants (eq. 2, level 2)" "1:4 2:2 5:2 6:4 " "$(marks e)"
# the quadrants stand apart: row 0 (idle at step 1) shows 7 - 1 links, the one between
# columns 3 and 4 (the edge of the 4-wide quadrants) left out
idle_links() { tm_cap | awk -F'|' '/^ +0 +[.#+]/ { print gsub(/---/, "", $1) }' | head -n 1; }
check_eq "the quadrant edge is left out of row 0 (level 3)" 6 "$(idle_links)"
tm_keys n; tm_keys n
check_screen " step 3 of 6" " step 3/6 "
check_screen_fixed "level 2 now" "level 2: the eyes of the 2-wide quadrants"
check_eq "2-wide quadrants: 3 edges left out of row 0" 4 "$(idle_links)"
tm_keys G
check_screen "last step" " step 6/6 "
check_screen_fixed "the TCD still matches" "TCD predicted (paper) = $ptcd"
tm_keys q
mc_exit_ok "tcd mesh:8x8"
finish
