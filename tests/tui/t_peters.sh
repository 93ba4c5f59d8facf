#!/bin/sh
# tiling on torus:25x25 (and torus:7x12, off the paper's family) under the circuit model,
# stepped on the screen: every phase shows the nodes the engine's schedule informs (marked
# receiving on the map) and its circuits drawn (arrows along their routes), the Step panel's cost terms equal to the engine's, and the
# panel speaks of arcs and all-port conflicts, with the terms and Proposition 1's lower
# bound; with T the knight's-move tiles (tileview.h) are drawn beside the circuits.  The truth
# comes from `schedule --format json` and `run --json`, never hard-coded.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"

# tiling_open NET ROWS COLS — the schedule and run JSON of tiling on NET ($TMPD/t.json, t.run),
# NET opened on the screen; n its phases, size its nodes, map() the map (rows 4-ROWS, columns
# 1-COLS)
tiling_open() {
    "$MESHCAST" schedule --net "$1" --algo tiling --model circuit --format json >"$TMPD/t.json"
    "$MESHCAST" run --net "$1" --algo tiling --model circuit --json >"$TMPD/t.run"
    MAPROWS=$2 MAPCOLS=$3
    mc_start --ascii --net "$1" --algo tiling --model circuit
    check_screen "tiling on $1 opens" "tiling on $1"
    n=$(jq '.steps | length' "$TMPD/t.json")
    size=$(jq .nodes "$TMPD/t.run")
}
map() { tm_cap | sed -n "4,${MAPROWS}p" | cut -c1-"$MAPCOLS"; }
# tiling_steps [exact] — step through every phase (tiles on): the engine's receivers marked,
# the circuits drawn, the tiles visible beside them (exact: on every node but the receivers
# and the cursor), the step's cost in the panel; the total
tiling_steps() {
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
        if [ "$1" = exact ]; then
            check_eq "phase $((st + 1)): the tiles visible beside the circuits" "$((size - want - 1))" "$tl"
        else   # wide cells: a receiver's mark and its tile's letter both show
            check "phase $((st + 1)): the tiles visible beside the circuits ($tl marks)" test "$tl" -ge "$((size - want - 1))"
        fi
        v=$(fmt2 "$(jq ".steps[$st].cost.total" "$TMPD/t.json")")
        check_eq "phase $((st + 1)): step cost" "$v" "$(panel_value "Cost of this step")"
        st=$((st + 1))
    done
    check_eq "total" "$(fmt2 "$(jq .cost.total "$TMPD/t.run")")" "$(panel_value "Total")"
}

# check_tiles1 RUNJSON ROWS COLS — key T on a broadcast whose `run --json` is RUNJSON: the
# message names the tiles of the last informing phase (as many as the nodes informed before
# it), the map (rows 4-ROWS, columns 1-COLS) shows one centre O per tile but the cursor's (on
# the source, a centre) and a tile letter a-f on every other node.
check_tiles1() {
    _size=$(jq .nodes "$1")
    _nst=$(jq '.informed | length' "$1")
    _c1=$(jq ".informed[$_nst - 2]" "$1")
    tm_keys T
    check_screen_fixed "T: the tiles of the last phase" "tiles of the last 1 informing phase: $_c1 tiles"
    _map=$(tm_cap | sed -n "4,$2p" | cut -c1-"$3")
    check_eq "level 1: a centre O per tile (the cursor on the source's)" "$((_c1 - 1))" "$(printf '%s' "$_map" | tr -cd 'O' | wc -c | tr -d ' ')"
    check_eq "level 1: every other node shows its tile's letter" "$((_size - _c1))" "$(printf '%s' "$_map" | tr -cd 'a-f' | wc -c | tr -d ' ')"
}

tm_start 230 70
tiling_open torus:25x25 60 170
check_eq "four phases" 4 "$n"
# the tiles (T): level 1 = the C_0 crosses round the nodes informed before the last phase;
# every node shows its tile's letter a..f or O at a centre (the cursor sits on the source, a
# centre); the number of tiles comes from the engine's informed counts, not a constant
centres1=$(jq ".informed[$n - 1]" "$TMPD/t.run")
centres2=$(jq ".informed[$n - 2]" "$TMPD/t.run")
check_tiles1 "$TMPD/t.run" 60 170
tm_keys T
check_screen_fixed "T again: the S_1 squares" "tiles of the last 2 informing phases: $centres2 tiles"
check_eq "level 2: a centre O per square" "$((centres2 - 1))" "$(map | tr -cd 'O' | wc -c | tr -d ' ')"
tm_run ":tiles 1"
check_screen_fixed ":tiles 1: the message" "tiles of the last 1 informing phase: $centres1 tiles"
check_eq ":tiles 1: back to the crosses" "$((centres1 - 1))" "$(map | tr -cd 'O' | wc -c | tr -d ' ')"
tiling_steps exact
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

# a torus off the paper's family: torus:7x12, S_1 on uneven cells then cross splits
tm_start 200 60
tiling_open torus:7x12 50 140
check_eq "7x12: four phases" 4 "$n"
check_tiles1 "$TMPD/t.run" 50 140
tiling_steps
check_screen_fixed "7x12: the terms" "Terms: 4 alpha, 12 delta, 4 L*tau"
tm_keys q
mc_exit_ok "tiling torus:7x12"

# htree on torus:15x15: the paper's T(B) differs by its erratum, and the Step panel says so
tm_start 200 60
mc_start --ascii --net torus:15x15 --algo htree --model circuit --set delta=1
check_screen_fixed "htree 15x15: the prediction differs" "Predicted (paper) !="
check_screen_fixed "... and the Step panel says why" "known: the paper's one final phase"
tm_keys q
mc_exit_ok "htree torus:15x15"

# the map's '!' (port conflict) under circuit is an all-port one: a node that sends its four
# circuits through four ports is not marked; one whose arc two circuits share is (after the
# step's circuits are drawn: the arcs' loads)
bangs() { tm_cap | sed -n '4,30p' | cut -c1-100 | tr -cd '!' | wc -c | tr -d ' '; }
tm_start 160 45
mc_start --ascii --net torus:8x8 --algo saf-trees --model circuit --set B=256 --bytes 2048
tm_keys n n n
check_screen "saf-trees, step 3: its circuits drawn" " step 3/.*|" 10
check_screen "... as links (one circuit each)" "==>"
check_eq "saf-trees, step 3: several circuits per node, one per port: no '!'" 0 "$(bangs)"
tm_run ":model seidel"
check_screen_fixed "under seidel (one-port) ..." "seidel"
tm_keys g n n n
check_screen "... the same sends are port conflicts" "! *==>"
tm_keys q
mc_exit_ok "saf-trees torus:8x8"
tm_start 160 45
mc_start --ascii --net torus:8x8 --algo knomial --model circuit
tm_keys n n
check_screen "knomial under circuit, step 2: a node whose out-arc two circuits share is marked" \
    "#  !=2>"
tm_keys q
mc_exit_ok "knomial torus:8x8 circuit"
finish
