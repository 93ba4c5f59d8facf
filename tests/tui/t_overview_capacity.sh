#!/bin/sh
# The overview grades a block's overload against the links' capacity C (docs/model.md "Link
# loads": 2^nu under seidel, 1 under every other model), as the engine's link_overloads, the
# map and the narration do: under nu = 1 a link carrying 2 circuits is not overloaded (no
# digit), one carrying k > 2 is drawn as the digit d with ceil(k/2) in 2^d..2^(d+1)-1, and the
# legend gives the grades' peak loads for C = 2 (3-6, 7-14, 15+).  It used to grade the
# absolute load: a digit 1 for a load of 2 under nu = 1.  rh on mesh:64x64: the per-step peak
# loads and contention costs come from `schedule --format json` here.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
"$MESHCAST" schedule --net mesh:64x64 --algo rh --set nu=1 --format json >"$TMPD/rh.json" ||
    { bad "schedule"; finish; exit 1; }
# the first step (1-based) whose peak load is exactly $1
step_peak() { jq --argjson k "$1" \
    '[.steps[] | .max_link_load] | to_entries | map(select(.value == $k)) | .[0].key + 1' "$TMPD/rh.json"; }
s2=$(step_peak 2); s16=$(step_peak 16)
check "rh has a step of peak load 2 and one of 16" [ "${s2:-0}" -gt 0 ] && [ "${s16:-0}" -gt 0 ]
check_eq "the engine: under nu = 1 the peak-2 step prices no contention" 0 \
    "$(jq ".steps[$((s2 - 1))].cost.contention" "$TMPD/rh.json")"
check "the engine: under nu = 1 the peak-16 step prices contention" \
    [ "$(jq ".steps[$((s16 - 1))].cost.contention > 0" "$TMPD/rh.json")" = true ]
# the map's characters (left of the panel bar, the row numbers cut off)
ov_map() { tm_cap | sed -n '3,40p' | cut -d'|' -f1 | sed 's/^ *[0-9]* //'; }
tm_start 200 60
mc_start --ascii --no-color --net mesh:64x64 --algo rh --set nu=1
check_screen "up" "rh on mesh:64x64" 30
tm_keys :; tm_run "overview"
check_screen "the overview" "overview [0-9]+x[0-9]+" 15
check_match "the legend's peak loads for capacity 2" \
    "1 peak load 3-6 +2 7-14 +3\\+ 15\\+ \\(capacity 2\\)" "$(tm_cap)"
tm_keys :; tm_run "step $s2"
check_screen "step $s2" " step $s2/" 15
check_nomatch "step $s2 (peak 2 = capacity 2): no overload digit" "[0-9]" "$(ov_map)"
tm_keys :; tm_run "step $s16"
check_screen "step $s16" " step $s16/" 15
# ceil(16/2) = 8 = 2^3: the digit 3 (by the absolute load it was 4)
dg=$(awk -v p=16 -v c=2 'BEGIN { f = int((p + c - 1) / c); d = 0; while (2 ^ (d + 1) <= f) d++; print d }')
check_eq "ceil(16/2) = 8 is grade 3" 3 "$dg"
check_match "step $s16 (peak 16, capacity 2): the digit $dg" "$dg" "$(ov_map)"
check_nomatch "step $s16: no digit 4 (the absolute grade of 16)" "4" "$(ov_map)"
tm_keys q
mc_exit_ok "nu=1"
finish
