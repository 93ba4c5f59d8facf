#!/bin/sh
# t_violation_transfers.sh — every contention or port violation names the transfers involved
# (src -> dst, chunk, route) in run's text, run --json and check.  Expected sets worked out
# by hand for bad_flat.lua (the source sends to every node in one step) on array:4 from 0:
# arc 0->1 carries the circuits to 1, 2, 3; arc 1->2 those to 2, 3; node 0's out-port all 3.
. "$(dirname "$0")/../lib.sh"
L=$ROOT/tests/lua
cd "$TMPD" || exit 2

check_exit "circuit: run exits 1" 1 "$MESHCAST" run --net array:4 --algo "$L/bad_flat.lua" --model circuit --json
printf '%s\n' "$OUT" > c.json
check_eq "arc 0->1: the circuits to 1, 2, 3" "1 2 3" "$(jq -r '.violations[] | select(.kind == "link" and .from == 0 and .to == 1) | [.transfers[].dst] | map(tostring) | join(" ")' c.json)"
check_eq "arc 1->2: the circuits to 2, 3" "2 3" "$(jq -r '.violations[] | select(.kind == "link" and .from == 1 and .to == 2) | [.transfers[].dst] | map(tostring) | join(" ")' c.json)"
check_eq "every transfer named comes from the source 0" "0" "$(jq -r '[.violations[].transfers[].src] | unique | map(tostring) | join(" ")' c.json)"
check_eq "routes: x+d for the circuit to d" "x+1 x+2 x+3" "$(jq -r '.violations[] | select(.kind == "link" and .from == 0) | [.transfers[].route] | join(" ")' c.json)"
check_eq "counts agree with the loads" "$(jq -c '[.violations[] | select(.kind == "link") | .load]' c.json)" "$(jq -c '[.violations[] | select(.kind == "link") | .transfers_count]' c.json)"

check_exit "circuit: run text" 1 "$MESHCAST" run --net array:4 --algo "$L/bad_flat.lua" --model circuit
check_match "text: the transfers under the arc" "^    transfers: 0->2 chunk 0 route x\\+2; 0->3 chunk 0 route x\\+3$" "$OUT"

# postal from node 1 of array:4: node 1 sends to 0, 2, 3 (3 sends)
check_exit "postal: run exits 1" 1 "$MESHCAST" run --net array:4 --algo "$L/bad_flat.lua" --model postal --source 1 --json
check_eq "postal port: node 1's three sends" "0 2 3" "$(printf '%s' "$OUT" | jq -r '.violations[0].transfers | map(.dst) | sort | map(tostring) | join(" ")')"

check_exit "check names them too" 1 "$MESHCAST" check "$L/bad_flat.lua" --net array:4 --model circuit --source 0
check_match "check: the transfers in the FAIL line" "^FAIL array:4 source 0: arc-disjoint circuits: phase 1: arc 0->1 is shared by 3 circuits .*\\(transfers: 0->1 chunk 0 route x\\+1; 0->2 chunk 0 route x\\+2; 0->3 chunk 0 route x\\+3\\)" "$OUT"
finish
