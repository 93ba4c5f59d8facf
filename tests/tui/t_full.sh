#!/bin/sh
# fractional on full:64 in the TUI: stepping shows, at each step, exactly the engine's
# transfers (sender>receiver and packet) in the Step panel, the receivers marked on the map,
# packets held per node, and the paper's lower bounds (4)-(6) beside the run.  The truth comes
# from `meshcast schedule --format json` and `run --json`, never hard-coded.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"

args="--net full:64 --algo fractional --model postal"
# shellcheck disable=SC2086
"$MESHCAST" schedule $args --format json >"$TMPD/f.json"
# shellcheck disable=SC2086
"$MESHCAST" run $args --json >"$TMPD/f.run"
n=$(jq '.steps | length' "$TMPD/f.json")
tm_start 150 45
# shellcheck disable=SC2086
mc_start --ascii $args
check_screen "fractional on full:64 opens" "fractional on full:64"
check_eq "bound (4) in the Step panel" "$(fmt2 "$(jq '.lower_bounds.eq4_duplex' "$TMPD/f.run")")" \
    "$(panel_value "Bound (4) k+t lgP")"
check_eq "bound (6) in the Step panel" "$(fmt2 "$(jq '.lower_bounds.eq6_packets' "$TMPD/f.run")")" \
    "$(panel_value "Bound (6) packets")"
for st in 1 2 3 4 5 6; do
    tm_keys n
    check_screen "counter shows step $st/$n" " step $st/$n "
    nt=$(jq ".steps[$((st - 1))].transfers | length" "$TMPD/f.json")
    word=transfers; [ "$nt" = 1 ] && word=transfer
    check_screen_fixed "step $st: panel says $nt $word" "$nt $word, max link load 1"
    jq -r ".steps[$((st - 1))].transfers[] | \" \(.src)>\(.dst) [\(.chunks[0][0])]\"" \
        "$TMPD/f.json" >"$TMPD/want"
    got=$(tm_cap | sed -n 's/.*| \( [0-9]*>[0-9]* \[[0-9]*\]\).*/\1/p' | sort)
    check_eq "step $st: the listed transfers are the engine's" "$(sort "$TMPD/want")" "$got"
    # every receiver is marked '*' on the map (ids in rows of 7: row label, then cells)
    want_recv=$(jq -r ".steps[$((st - 1))].transfers[].dst" "$TMPD/f.json" | sort -n | tr '\n' ' ')
    got_recv=$(tm_cap | awk -F'|' '
        $1 ~ /^ +[0-9]+ / { line = $1; split(line, f, " "); base = f[1]; rest = substr(line, 10)
            for (c = 0; c < 7; c++) { cell = substr(rest, c * 11 + 1, 11)
                if (cell ~ /\*/) print base + c } }' | sort -n | tr '\n' ' ')
    check_eq "step $st: receivers marked on the map" "$want_recv" "$got_recv"
done
check_screen_fixed "the panel shows the closed form agreeing" "Predicted (paper) ="
tm_keys q
mc_exit_ok "fractional full:64"
finish
