#!/bin/sh
# The map and the step panel show exactly what the engine says, step by step: mesh:8x8 ST
# (the default view), torus:5x5 chain, array:16 BST, and mesh:8x8 RH with overloaded links.
# The truth comes from `meshcast schedule --format json` and `run --json`, never hard-coded.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"

# check_step NAME JSON RUNJSON STEP ROWS COLS ONED CAP — the screen shows step STEP (0-based)
check_step() {
    name=$1; json=$2; runjson=$3; st=$4; rows=$5; cols=$6; oned=$7; cap=$8; wrap=${9:-0}
    n=$(jq '.steps | length' "$json")
    label=$(jq -r ".steps[$st].label" "$json")
    check_screen "$name: counter shows step $((st + 1))/$n" " step $((st + 1))/$n "
    check_screen_fixed "$name: panel names the step and its label" \
        "Step $((st + 1))/$n  $(printf '%s' "$label" | cut -c1-24)"
    want=$(expect_items "$json" "$st" "$rows" "$cols" "$cap")
    got=$(map_items "$cols" "$oned" "$wrap")
    check_eq "$name: receiving nodes, circuits and overloads on the map = engine" "$want" "$got"
    for term in total startup transmission contention permutation; do
        v=$(fmt2 "$(jq ".steps[$st].cost.$term" "$json")")
        case $term in
        total) got=$(panel_value "Cost of this step") ;;
        *) got=$(panel_value "$term") ;;
        esac
        check_eq "$name: step cost $term" "$v" "$got"
    done
    run=$(fmt2 "$(jq "[.steps[0:$((st + 1))][].cost.total] | add" "$json")")
    tot=$(fmt2 "$(jq '.cost.total' "$runjson")")
    check_eq "$name: running total (sum of the steps so far)" "$run" "$(panel_value "Running total")"
    check_eq "$name: total" "$tot" "$(panel_value "Total")"
    pred=$(jq '.predicted' "$runjson")
    if [ "$pred" != null ]; then
        check_eq "$name: the paper's closed form, shown as agreeing" "$(fmt2 "$pred")" \
            "$(panel_value "Predicted (paper) =")"
    fi
}

# 1. mesh:8x8 ST, the default view (no arguments)
"$MESHCAST" schedule --net mesh:8x8 --algo st --format json >"$TMPD/st.json"
"$MESHCAST" run --net mesh:8x8 --algo st --json >"$TMPD/st.run"
tm_start 170 40
mc_start --ascii
check_screen "default view opens on mesh:8x8 st" "st on mesh:8x8"
tm_keys n; tm_keys n; tm_keys n
check_step "mesh st after 3 steps" "$TMPD/st.json" "$TMPD/st.run" 2 8 8 0 1
tm_keys p
check_step "mesh st after 3 steps and 1 back" "$TMPD/st.json" "$TMPD/st.run" 1 8 8 0 1
tm_keys G
last=$(jq '.steps | length' "$TMPD/st.json")
check_step "mesh st last step (G)" "$TMPD/st.json" "$TMPD/st.run" $((last - 1)) 8 8 0 1
tm_keys g
check_screen "g goes back to step 0" " step 0/$last "
tm_keys q
mc_exit_ok "mesh st"

# 2. torus:5x5 chain (wrap-around links drawn at both edges)
"$MESHCAST" schedule --net torus:5x5 --algo chain --format json >"$TMPD/tc.json"
"$MESHCAST" run --net torus:5x5 --algo chain --json >"$TMPD/tc.run"
mc_start --ascii --net torus:5x5 --algo chain
check_screen "torus chain opens" "chain on torus:5x5"
tm_keys n; tm_keys n; tm_keys n; tm_keys p
check_step "torus chain" "$TMPD/tc.json" "$TMPD/tc.run" 1 5 5 0 1 1
# a step whose circuit wraps round a row: find one and jump there
wst=$(jq '[.steps[] | select(any(.transfers[]; (.src % 5 == 4 and .route == "x+1") or (.src % 5 == 0 and .route == "x-1") or (.src >= 20 and .route == "y+1"))) | .step][0] // empty' "$TMPD/tc.json")
if [ -n "$wst" ]; then
    tm_keys : ; tm_run "step $((wst + 1))"
    check_step "torus chain, a wrapping step" "$TMPD/tc.json" "$TMPD/tc.run" "$wst" 5 5 0 1 1
fi
tm_keys q
mc_exit_ok "torus chain"

# 3. array:16 BST (one row on a wide screen)
"$MESHCAST" schedule --net array:16 --algo bst --format json >"$TMPD/ab.json"
"$MESHCAST" run --net array:16 --algo bst --json >"$TMPD/ab.run"
tm_start 260 30
mc_start --ascii --net array:16 --algo bst
check_screen "array bst opens" "bst on array:16"
tm_keys n; tm_keys n; tm_keys n; tm_keys p
check_step "array bst" "$TMPD/ab.json" "$TMPD/ab.run" 1 1 16 1 1
tm_keys q
mc_exit_ok "array bst"

# 3b. ring:16, a 4-nomial tree from a Lua script: one node sends three messages in a step,
#     so port conflicts are marked, on exactly the nodes the engine counts
"$MESHCAST" schedule --net ring:16 --algo "$ROOT/scripts/knomial.lua" --set k=4 --format json >"$TMPD/kn.json"
"$MESHCAST" run --net ring:16 --algo "$ROOT/scripts/knomial.lua" --set k=4 --json >"$TMPD/kn.run"
mc_start --ascii --net ring:16 --algo "$ROOT/scripts/knomial.lua" --set k=4
check_screen "ring knomial opens" "on ring:16"
tm_keys n
check_step "ring knomial step 1" "$TMPD/kn.json" "$TMPD/kn.run" 0 1 16 1 1 1
check_match "ring knomial: port conflicts marked" '^C [0-9]+' "$(map_items 16 1 1)"
tm_keys n
check_step "ring knomial step 2" "$TMPD/kn.json" "$TMPD/kn.run" 1 1 16 1 1 1
tm_keys q
mc_exit_ok "ring knomial"

# 4. mesh:8x8 RH: the exchange steps overload links; the marks sit on exactly those links
"$MESHCAST" schedule --net mesh:8x8 --algo rh --format json >"$TMPD/rh.json"
"$MESHCAST" run --net mesh:8x8 --algo rh --json >"$TMPD/rh.run"
ost=$(jq '[.steps[] | select(.max_link_load > 1) | .step][0] // empty' "$TMPD/rh.json")
tm_start 170 40
mc_start --ascii --net mesh:8x8 --algo rh
check_screen "rh opens" "rh on mesh:8x8"
if [ -n "$ost" ]; then
    tm_keys : ; tm_run "step $((ost + 1))"
    check_step "mesh rh overloaded step" "$TMPD/rh.json" "$TMPD/rh.run" "$ost" 8 8 0 1
    check_match "mesh rh: overload marks present" '^[HV] [0-9]+ D' "$(map_items 8 0)"
    tm_keys n
    check_step "mesh rh next step" "$TMPD/rh.json" "$TMPD/rh.run" $((ost + 1)) 8 8 0 1
else
    bad "mesh rh has an overloaded step" "the engine reports none"
fi
tm_keys q
mc_exit_ok "mesh rh"
finish
