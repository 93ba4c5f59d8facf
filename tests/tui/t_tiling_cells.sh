#!/bin/sh
# tiling on a torus outside the paper's family (torus:7x12: uneven cells, then cross splits),
# stepped on the screen: its phases and circuits drawn, and T draws its tiles — one centre O
# per tile and a letter on every other node, the counts from the engine's informed counts.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"

"$MESHCAST" schedule --net torus:7x12 --algo tiling --model circuit --format json >"$TMPD/t.json"
"$MESHCAST" run --net torus:7x12 --algo tiling --model circuit --json >"$TMPD/t.run"
tm_start 200 60
mc_start --ascii --net torus:7x12 --algo tiling --model circuit
check_screen "tiling on torus:7x12 opens" "tiling on torus:7x12"
n=$(jq '.steps | length' "$TMPD/t.json")
check_eq "four phases" 4 "$n"
map() { tm_cap | sed -n '4,50p' | cut -c1-140; }
check_tiles1 "$TMPD/t.run" 50 140
st=0
while [ "$st" -lt "$n" ]; do
    tm_keys n
    label=$(jq -r ".steps[$st].label" "$TMPD/t.json")
    check_screen_fixed "phase $((st + 1)): counter and label" "Step $((st + 1))/$n  $(printf '%s' "$label" | cut -c1-24)"
    want=$(jq "[.steps[$st].transfers[].dst] | unique | length" "$TMPD/t.json")
    got=$(map | tr -cd '*' | wc -c | tr -d ' ')
    check_eq "phase $((st + 1)): receiving nodes on the map = the engine's" "$want" "$got"
    st=$((st + 1))
done
check_eq "total" "$(fmt2 "$(jq .cost.total "$TMPD/t.run")")" "$(panel_value "Total")"
check_screen_fixed "the terms" "Terms: 4 alpha, 12 delta, 4 L*tau"
tm_keys q
mc_exit_ok "tiling torus:7x12"
finish
