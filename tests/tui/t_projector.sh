#!/bin/sh
# Issue 9, the classroom: projector mode, narration, side by side, the overview zoom, record ->
# replay and the screen exported.  Every number checked against the engine's own output.
# Under load (a sanitized build, a busy machine) every check waits for what it reads to be on
# the screen (W seconds at most; they end as soon as it is), reads the screen it waited for
# ($SCREEN), and a key whose effect the next key depends on is waited for before the next.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
W=60

# --- projector mode: 8x8 at 200x60 uses the rows; tall cells with thick borders
tm_start 200 60
mc_start --big --ascii --net mesh:8x8
check_screen "--big opens" "st on mesh:8x8" $W
# (the map's last row label, then its cells' bottom border: the map is all drawn)
check_screen "--big: the map drawn" "^ *7 " $W
last=$(printf '%s\n' "$SCREEN" | grep -n '^ *7 ' | head -n 1 | cut -d: -f1)
check "--big: the map's last row is far down the screen (row $last of 60)" test "${last:-0}" -ge 40
check_screen "--big: tall cells with borders" '\+=+\+' $W
tm_keys : ; tm_run "big off"
# (the message is on the last line: the map above it is drawn by then)
check_screen "big off: back to one-line cells" "projector mode off" $W
last=$(printf '%s\n' "$SCREEN" | grep -n '^ *7 ' | head -n 1 | cut -d: -f1)
check "big off: the map is compact again (row $last)" test "${last:-99}" -le 32
tm_keys q
mc_exit_ok "--big"

# --- narration: step 3 of st on mesh:8x8 in words, the numbers from the schedule
"$MESHCAST" schedule --net mesh:8x8 --algo st --format json >"$TMPD/st.json"
tm_start 170 40
mc_start --ascii --net mesh:8x8
check_screen "opens" "st on mesh:8x8" $W
tm_keys n; tm_keys n; tm_keys n
check_screen "at step 3" " step 3/" $W
n=$(jq '.steps | length' "$TMPD/st.json")
snd=$(jq '[.steps[2].transfers[].src] | unique | length' "$TMPD/st.json")
tot=$(fmt2 "$(jq '.steps[2].cost.total' "$TMPD/st.json")")
su=$(fmt2 "$(jq '.steps[2].cost.startup' "$TMPD/st.json")")
tr=$(fmt2 "$(jq '.steps[2].cost.transmission' "$TMPD/st.json")")
check_screen_fixed "narration: who sends and what the step costs, from the engine" \
    "Step 3/$n: $snd holders send" $W
check_screen_fixed "narration: the cost terms" "costs b + m*a = $su + $tr = $tot" $W
tm_keys q
mc_exit_ok "narration"

# --- --step N opens at a step
tm_run clear
mc_start --ascii --net mesh:8x8 --algo bst --step 4
check_screen "--step 4 opens at step 4" "bst on mesh:8x8 .* step 4/" $W
tm_keys q
mc_exit_ok "--step"
check_exit "--step x: exit 2" 2 "$MESHCAST" --step x

# --- side by side: st | bst on mesh:8x8, stepped together, each with its running cost
"$MESHCAST" schedule --net mesh:8x8 --algo bst --format json >"$TMPD/bst.json"
tm_run clear
mc_start --ascii --net mesh:8x8 --vs bst
check_screen "--vs bst: both halves" "\\|bst  0/" $W
tm_keys n; tm_keys n; tm_keys n
nb=$(jq '.steps | length' "$TMPD/bst.json")
s1=$(fmt2 "$(jq '[.steps[0:3][].cost.total] | add' "$TMPD/st.json")")
s2=$(fmt2 "$(jq '[.steps[0:3][].cost.total] | add' "$TMPD/bst.json")")
t2=$(fmt2 "$(jq '[.steps[].cost.total] | add' "$TMPD/bst.json")")
# both headers on one line: wait until the right one is drawn beside the left
check_screen "vs: both halves at step 3" "st  3/$n  step .*\\|bst  3/$nb  step" $W
check_match "vs: st so far = its schedule's first three steps" "st  3/$n  step [0-9.]+  so far $s1 of" "$SCREEN"
check_match "vs: bst so far and total = its schedule's" "bst  3/$nb  step [0-9.]+  so far $s2 of $t2" "$SCREEN"
tm_keys : ; tm_run "vs off"
check_screen "vs off" "one broadcast again" $W
tm_keys : ; tm_run "vs st nu=1"
check_screen "vs: the same algorithm with another setting" "\\|st nu=1  3/" $W
tm_keys q
mc_exit_ok "side by side"

# --- the overview: rh on mesh:64x64 at its most loaded step; :hot finds the peak load
"$MESHCAST" schedule --net mesh:64x64 --algo rh --format json >"$TMPD/rh.json"
hst=$(jq '[.steps[] | .max_link_load] | index(max) + 1' "$TMPD/rh.json")
peak=$(jq '[.steps[] | .max_link_load] | max' "$TMPD/rh.json")
tm_run clear
mc_start --ascii --net mesh:64x64 --algo rh
check_screen "rh on mesh:64x64 opens" "rh on mesh:64x64" $W
tm_keys : ; tm_run "step $hst"
check_screen "at the most loaded step" " step $hst/" $W
check_screen "the smallest zooms keep the column numbers" "^ +0 +10 +20 +30" $W
check_match "... and the row numbers" "^ +10 [^ ]" "$(printf '%s\n' "$SCREEN" | cut -c1-40)"
tm_keys Z; tm_keys Z; tm_keys Z; tm_keys Z; tm_keys Z
check_screen "Z past the smallest zoom: the overview" "overview [0-9]+x[0-9]+" $W
tm_keys : ; tm_run "hot"
check_screen "overview: :hot puts the cursor on the peak load $peak" "peak load $peak( |\$)" $W
d=$(awk -v p="$peak" 'BEGIN { d = 0; while (2 ^ (d + 1) <= p) d++; print d }')
check_match "overview: the hot spot drawn as the digit $d" "^ *[0-9]* .*$d" "$(printf '%s\n' "$SCREEN" | sed -n '2,38p' | cut -c1-100)"
tm_keys q
mc_exit_ok "overview"

# --- record -> replay, and the screen exported
tm_run clear
mc_start record "$TMPD/s.cast" --ascii --net mesh:4x4
check_screen "record: the UI runs" "st on mesh:4x4" $W
# a marker a step shown: step 1 must be shown (a frame) before the next n
tm_keys n
check_screen "record: step 1" " step 1/" $W
tm_keys n
check_screen "record: step 2" " step 2/" $W
tm_keys : ; tm_run "export $TMPD/s.txt"
check_screen "export: text written" "the screen is in .*s.txt" $W
tm_keys : ; tm_run "export $TMPD/s.svg"
check_screen "export: svg written" "the screen is in .*s.svg" $W
tm_keys q
mc_exit_ok "record"
check_eq "record: an asciicast v2 header" 2 "$(head -n 1 "$TMPD/s.cast" | jq .version)"
check_eq "record: a marker per step shown" "step 0,step 1,step 2" \
    "$(tail -n +2 "$TMPD/s.cast" | jq -r 'select(.[1] == "m") | .[2]' | paste -sd, -)"
check_eq "record: every event is [time, kind, data]" 0 \
    "$(tail -n +2 "$TMPD/s.cast" | jq -c 'select((.|length) != 3 or (.[0]|type) != "number")' | wc -l | tr -d ' ')"
check_match "export: the text has the title line" "st on mesh:4x4 .* step 2/" "$(head -n 1 "$TMPD/s.txt")"
check_match "export: the SVG is a picture of it" "^<svg .*" "$(head -n 1 "$TMPD/s.svg")"
check_match "export: the SVG has the title text" "st on mesh:4x4" "$(cat "$TMPD/s.svg")"
tm_run clear
mc_start replay "$TMPD/s.cast" --step 1
check_screen "replay --step 1: opens at that marker" "marker 2/3: step 1" $W
check_screen "replay: the recorded screen" "st on mesh:4x4 .* step 1/" $W
tm_keys n
check_screen "replay: n steps to the next marker" "marker 3/3: step 2" $W
tm_keys p; tm_keys p
check_screen "replay: p back to the first" "marker 1/3: step 0" $W
tm_keys q
check_screen "replay: q ends it" 'EXIT=0' $W
check_exit "replay: no such marker: exit 2" 2 "$MESHCAST" replay "$TMPD/s.cast" --step 9
check_match "replay: says so" "no marker 'step 9'" "$ERR"
printf 'not a cast\n' >"$TMPD/bad.cast"
check_exit "replay: not a cast: exit 2" 2 "$MESHCAST" replay "$TMPD/bad.cast"
check_exit "record without a file: exit 2" 2 "$MESHCAST" record
finish
