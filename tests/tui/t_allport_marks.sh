#!/bin/sh
# Under the circuit model the map marks a node with a port conflict (!) exactly when the engine
# counts one (circuit_port_overloads: two circuits leaving the node by one out-port or entering
# it by one in-port), not whenever an arc at the node is shared: a circuit passing through a
# node is no conflict of that node's (it once was, by link load > 1).  tests/lua/bad_ports.lua
# on array:5 gives by hand: step 2 none (2 sends left and right; 1->3 passes through 2 on the
# shared arc 2->3), step 3 node 2 (2->3 and 2->4 by its right port), step 4 node 0 (0->2 and
# 0->3 by its right port; 2 receives by its left and right ports).  Each step is also checked
# against the engine's all-port violations of `run --json`.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
args="--net array:5 --source 2 --algo $ROOT/tests/lua/bad_ports.lua --model circuit"
# shellcheck disable=SC2086
"$MESHCAST" run $args --json >"$TMPD/r.json"
check_eq "the engine counts 2 all-port conflicts" 2 "$(jq .port_conflicts "$TMPD/r.json")"
tm_start 120 30
mc_start --ascii $args
check_screen "opens" "bad-ports on array:5"
for st in 1 2 3 4; do
    tm_keys n
    check_screen "step $st shown" "step $st/4"
    sleep 0.3
    got=$(map_items 5 1 | grep '^C ' | tr '\n' ' ')
    want=$(jq -r "[.violations[] | select(.step == $((st - 1)) and .kind == \"allport\") | .node]
                  | unique | map(\"C \" + tostring) | .[]" "$TMPD/r.json" | tr '\n' ' ')
    check_eq "step $st: the nodes marked ! are the engine's all-port conflicts" "$want" "$got"
    case $st in
    2) check_eq "step 2: none marked (by hand)" "" "$got"
       check_match "step 2: the shared arc 2->3 is drawn with its load" "^H 2 D2$" "$(map_items 5 1)" ;;
    3) check_eq "step 3: node 2 marked (by hand)" "C 2 " "$got" ;;
    4) check_eq "step 4: node 0 marked, not node 2 (by hand)" "C 0 " "$got" ;;
    esac
done
tm_keys q
mc_exit_ok "quits"
finish
