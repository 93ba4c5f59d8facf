#!/bin/sh
# tiling on torus:25x25 under the circuit model, stepped on the screen: every phase shows the
# nodes the engine's schedule informs (marked receiving on the map) and its circuits drawn
# (arrows along their routes), the Step panel's cost terms equal to the engine's, and the
# panel speaks of arcs and all-port conflicts, with the terms and Proposition 1's lower
# bound; with T the knight's-move tiles (tileview.h) are drawn beside the circuits.  The truth
# comes from `schedule --format json` and `run --json`, never hard-coded.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"

"$MESHCAST" schedule --net torus:25x25 --algo tiling --model circuit --format json >"$TMPD/t.json"
"$MESHCAST" run --net torus:25x25 --algo tiling --model circuit --json >"$TMPD/t.run"
tm_start 230 70
mc_start --ascii --net torus:25x25 --algo tiling --model circuit
check_screen "tiling on torus:25x25 opens" "tiling on torus:25x25"
n=$(jq '.steps | length' "$TMPD/t.json")
check_eq "four phases" 4 "$n"
# the map: left of the panel's bar
map() { tm_cap | sed -n '4,60p' | cut -c1-170; }
# the tiles (T): level 1 = the C_0 crosses round the nodes informed before the last phase;
# every node shows its tile's letter a..f or O at a centre (the cursor sits on the source, a
# centre); the number of tiles comes from the engine's informed counts, not a constant
size=$(jq .nodes "$TMPD/t.run")
centres1=$(jq ".informed[$n - 1]" "$TMPD/t.run")
centres2=$(jq ".informed[$n - 2]" "$TMPD/t.run")
check_tiles1 "$TMPD/t.run" 60 170
tm_keys T
check_screen_fixed "T again: the S_1 squares" "tiles of the last 2 informing phases: $centres2 tiles"
check_eq "level 2: a centre O per square" "$((centres2 - 1))" "$(map | tr -cd 'O' | wc -c | tr -d ' ')"
tm_run ":tiles 1"
check_screen_fixed ":tiles 1: the message" "tiles of the last 1 informing phase: $centres1 tiles"
check_eq ":tiles 1: back to the crosses" "$((centres1 - 1))" "$(map | tr -cd 'O' | wc -c | tr -d ' ')"
st=0
while [ "$st" -lt "$n" ]; do
    tm_keys n
    label=$(jq -r ".steps[$st].label" "$TMPD/t.json")
    check_screen_fixed "phase $((st + 1)): counter and label" "Step $((st + 1))/$n  $(printf '%s' "$label" | cut -c1-24)"
    want=$(jq "[.steps[$st].transfers[].dst] | unique | length" "$TMPD/t.json")
    got=$(map | tr -cd '*' | wc -c | tr -d ' ')
    check_eq "phase $((st + 1)): receiving nodes on the map = the engine's" "$want" "$got"
    arrows=$(map | grep -o '=>\|<=\|\^\|v' | wc -l | tr -d ' ')
    hops=$(jq "[.steps[$st].transfers[].hops] | add" "$TMPD/t.json")
    check "phase $((st + 1)): circuits drawn ($arrows arrow marks for $hops hops)" test "$arrows" -ge "$hops"
    # the tiles stay drawn: every node not receiving (nor the cursor) shows a letter or O,
    # unless it is marked ! for its several sends
    tl=$(map | tr -cd 'a-fO!' | wc -c | tr -d ' ')
    check_eq "phase $((st + 1)): the tiles visible beside the circuits" "$((size - want - 1))" "$tl"
    v=$(fmt2 "$(jq ".steps[$st].cost.total" "$TMPD/t.json")")
    check_eq "phase $((st + 1)): step cost" "$v" "$(panel_value "Cost of this step")"
    st=$((st + 1))
done
check_eq "total" "$(fmt2 "$(jq .cost.total "$TMPD/t.run")")" "$(panel_value "Total")"
check_screen "the panel speaks of arcs" "max arc load 1"
check_screen "all-port conflicts" "all-port conflicts"
check_screen_fixed "the terms" "Terms: 4 alpha, 24 delta, 4 L*tau"
check_screen_fixed "the lower bound" "Lower bound 257.00: 4 alpha, 24 delta, L*tau/4"
tm_run ":tiles off"
check_screen_fixed ":tiles off: the message" "tiles off"
check_eq ":tiles off: no tile letters" 0 "$(map | tr -cd 'a-fO' | wc -c | tr -d ' ')"
tm_run ":tiles 4"
check_screen ":tiles past the last level: a clear message" "tiles: levels 1 to 3 here"
tm_keys q
mc_exit_ok "tiling torus:25x25"
finish
