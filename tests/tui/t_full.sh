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
    # the map is the schedule's tree: every receiver of the step is marked '*', every other
    # sender '>' (cells "id:count" left of the panel)
    check_full_step "$TMPD/f.json" "$st"
    # ... each with its sender: the step's sender>receiver pairs read off the tree
    want_pairs=$(jq -r ".steps[$((st - 1))].transfers[] | \"\(.src)>\(.dst)\"" "$TMPD/f.json" | sort)
    got_pairs=$(grep -oE '\*[0-9]+:[0-9]+<[0-9]+' "$TMPD/map" | sed 's/\*\([0-9]*\):[0-9]*<\([0-9]*\)/\2>\1/' | sort)
    check_eq "step $st: each receiver shows its sender" "$want_pairs" "$got_pairs"
    want_send=$(jq -r "[.steps[$((st - 1))].transfers[].dst] as \$d |
        [.steps[$((st - 1))].transfers[].src | select(. as \$s | \$d | index(\$s) | not)] |
        unique | .[]" "$TMPD/f.json" | sort -n | tr '\n' ' ')
    got_send=$(grep -oE '>[0-9]+:' "$TMPD/map" | tr -d '>:' | sort -n | tr '\n' ' ')
    check_eq "step $st: the other senders marked on the tree" "$want_send" "$got_send"
    # packets held as counts: every node's count is the distinct chunks it got so far
    want_cnt=$(jq -r --argjson st "$st" --argjson all "$(jq .chunks "$TMPD/f.run")" \
        '.steps[0:$st] as $s | range(0; 64) | . as $v | "\($v):\(if $v == 0 then $all else
            [$s[].transfers[] | select(.dst == $v) | .chunks[] | range(.[0]; .[1])] | unique
            | length end)"' "$TMPD/f.json" | sort)
    got_cnt=$(grep -oE '(^| |[*>!])[0-9]+:[0-9]+' "$TMPD/map" | tr -d ' *>!' | sort)
    check_eq "step $st: packets held per node" "$want_cnt" "$got_cnt"
done
check_screen_fixed "the panel shows the closed form agreeing" "Predicted (paper) ="
# the rows are the tree's levels: row "step k" holds the nodes whose first chunk came at step
# k, each below its parent (the sender of that chunk) in a row above
jq -r '[.steps | to_entries[] | .key as $k | .value.transfers[] | {dst, src, k: ($k + 1)}]
    | group_by(.dst) | map(min_by(.k)) | .[] | "\(.k) \(.dst) \(.src)"' "$TMPD/f.json" \
    >"$TMPD/first"
tree_rows >"$TMPD/rows"
rows_ok=$(tree_placed "$TMPD/first" "$TMPD/rows" -lt)
check_eq "every node in the row of its first receive, below its parent" 1 "$rows_ok"
check_eq "every node drawn once" 64 "$(sort -u "$TMPD/rows" | wc -l | tr -d ' ')"
# a click on a cell puts the cursor on that node
pos=$(tm_cap | grep -n '^step 3 ' | head -n 1)
line=$(( ${pos%%:*} - 1 ))
col=$(printf '%s\n' "${pos#*:}" | awk '{ print index($0, $3) - 1 }')
node=$(printf '%s\n' "${pos#*:}" | awk '{ c = $3; gsub(/[*>!]/, "", c); sub(/<.*/, "", c); split(c, q, ":"); print q[1] }')
tm_keys -l "$(printf '\033[<0;%d;%dM\033[<0;%d;%dm' $((col + 2)) $((line + 1)) $((col + 2)) $((line + 1)))"
check_screen "click on node $node's cell: cursor $node" "cursor $node "
tm_keys q
mc_exit_ok "fractional full:64"

# simplex ports: the duplex schedule breaks the rule; the status line counts, at every step,
# the sends and receives over one per node (one port both ways), as the engine does
"$MESHCAST" schedule --net full:16 --algo fractional --model postal --format json >"$TMPD/x.json"
tm_start 200 45
mc_start --ascii --net full:16 --algo fractional --model postal --set duplex=0
check_screen "simplex fractional on full:16 opens" "fractional on full:16"
for st in 1 2 3 4 5; do
    tm_keys n
    check_screen "simplex: step $st" " step $st/"
    want=$(jq "[.steps[$((st - 1))].transfers[] | .src, .dst] | group_by(.) |
        map(length - 1) | add" "$TMPD/x.json")
    if [ "$want" = 0 ]; then words="no port used twice"
    elif [ "$want" = 1 ]; then words="1 port conflict;"
    else words="$want port conflicts;"; fi
    check_screen_fixed "simplex step $st: the status line says '$words'" \
        "Step $st/$(jq ".steps | length" "$TMPD/x.json"): "
    check_screen_fixed "simplex step $st: '$words'" "each straight to its receiver; $words"
done
check_screen_fixed "simplex: the Step panel says why there is no closed form" \
    "Predicted (paper): none: under duplex=0 the duplex"
tm_keys q
mc_exit_ok "simplex fractional full:16"

# full:300: rows wider than the map wrap, the view follows the step's receivers
"$MESHCAST" schedule --net full:300 --algo fractional --model postal --format json >"$TMPD/g.json"
tm_start 150 45
mc_start --ascii --net full:300 --algo fractional --model postal
check_screen "fractional on full:300 opens" "fractional on full:300"
tm_keys G
sleep 0.5
tm_keys p
m=$(jq '.steps | length' "$TMPD/g.json")
check_screen "at the last but one step" " step $((m - 1))/$m "
want_recv=$(jq -r ".steps[$((m - 2))].transfers[].dst" "$TMPD/g.json" | sort -n | tr '\n' ' ')
got_recv=$(tm_cap | cut -d'|' -f1 | grep -oE '\*[0-9]+:' | tr -d '*:' | sort -n | tr '\n' ' ')
check_eq "full:300: the step's receivers shown and marked" "$want_recv" "$got_recv"
check_screen "full:300: a scrolled view says which lines" "lines [0-9]+-[0-9]+ of [0-9]+"
tm_keys q
mc_exit_ok "fractional full:300"
finish
