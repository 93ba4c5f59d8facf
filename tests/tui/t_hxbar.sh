#!/bin/sh
# hxbar:AxB on the screen: every module a box of its B processors; the box's top border says
# how many transfers leave and enter the module over its C channels in the step shown ('!'
# past C), the bottom border which modules they go to and come from, each receiver its
# sender.  The truth comes from `meshcast schedule --format json`, never hard-coded.  `:set
# c=C` changes the channels; a few hundred processors scroll by rows of boxes.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"

args="--net hxbar:8x4 --algo bintree --model postal"
# shellcheck disable=SC2086
"$MESHCAST" schedule $args --format json >"$TMPD/h.json"
n=$(jq '.steps | length' "$TMPD/h.json")
# channels MODULES B C STEP — "mM out K/C[!] in K/C[!]" of every module, as the engine says
channels() {
    jq -r --argjson A "$1" --argjson B "$2" --argjson C "$3" --argjson st "$4" '
        [.steps[$st - 1].transfers[] | select((.src / $B | floor) != (.dst / $B | floor))] as $x
        | range(0; $A) as $m
        | ([$x[] | select((.src / $B | floor) == $m)] | length) as $o
        | ([$x[] | select((.dst / $B | floor) == $m)] | length) as $i
        | "m\($m) out \($o)/\($C)\(if $o > $C then "!" else "" end) in \($i)/\($C)\(if $i > $C then "!" else "" end)"' \
        "$TMPD/h.json" | sort
}
shown_channels() { tm_cap | grep -oE 'm[0-9]+ out [0-9]+/[0-9]+!? in [0-9]+/[0-9]+!?' | sort; }
tm_start 150 45
# shellcheck disable=SC2086
mc_start --ascii $args
check_screen "bintree on hxbar:8x4 opens" "bintree on hxbar:8x4"
check_eq "before step 1: every module's channels idle" "$(seq 0 7 | sed 's|.*|m& out 0/2 in 0/2|' | sort)" "$(shown_channels)"
over=0
for st in 1 2 3 4 5 6; do
    tm_keys n
    check_screen "counter shows step $st/$n" " step $st/$n "
    want=$(channels 8 4 2 "$st")
    check_eq "step $st: every module's channel use" "$want" "$(shown_channels)"
    printf '%s\n' "$want" | grep -q '!' && over=1
    # every receiver marked with its sender, inside its module's box
    want_pairs=$(jq -r ".steps[$((st - 1))].transfers[] | \"\(.src)>\(.dst)\"" "$TMPD/h.json" | sort -u)
    got_pairs=$(tm_cap | cut -d'|' -f1-3 | grep -oE '\*[0-9]+:[0-9]+<[0-9]+' | sed 's/\*\([0-9]*\):[0-9]*<\([0-9]*\)/\2>\1/' | sort -u)
    check_eq "step $st: receivers and their senders" "$want_pairs" "$got_pairs"
    # the transfers crossing channels, by module: "->mX" on the sender's box
    want_to=$(jq -r ".steps[$((st - 1))].transfers[] | select((.src / 4 | floor) != (.dst / 4 | floor))
        | \"->m\(.dst / 4 | floor)\"" "$TMPD/h.json" | sort -u)
    got_to=$(tm_cap | grep -oE -- '->m[0-9]+' | sort -u)
    check_eq "step $st: the modules the channels lead to" "$want_to" "$got_to"
done
check_eq "an overloaded channel was met and marked" 1 "$over"
# a click on a processor's cell puts the cursor on it
pos=$(tm_cap | grep -n '^| .*[ *>!]13:' | head -n 1)
line=$(( ${pos%%:*} - 1 ))
col=$(printf '%s\n' "${pos#*:}" | awk '{ print index($0, "13:") - 2 }')
tm_keys -l "$(printf '\033[<0;%d;%dM\033[<0;%d;%dm' $((col + 2)) $((line + 1)) $((col + 2)) $((line + 1)))"
check_screen "click on node 13's cell: cursor 13" "cursor 13 "
tm_run ":set c=4"
check_screen "c=4: the title says so" "hxbar:8x4,c=4"
check_eq "c=4: no channel overloaded" "$(channels 8 4 4 6)" "$(shown_channels)"
check_eq "c=4: no '!'" "" "$(shown_channels | grep '!')"
tm_run ":set c=0"
check_screen "c=0 refused in one line" "c is the channels per module of hxbar, 1..1048576"
tm_keys q
mc_exit_ok "hxbar:8x4"

# the asynchronous time line: the Step panel says how many transfers a channel held back
"$MESHCAST" run --net hxbar:16x4 --algo bintree --timing async --json >"$TMPD/a.run"
tm_start 150 45
mc_start --ascii --net hxbar:16x4 --algo bintree --timing async
check_screen "async hxbar opens on the time line" "Time 0.00 / "
check_eq "the panel's channel waits are the run's" \
    "$(jq -r '"\(.channel_waits), \(.channel_wait)"' "$TMPD/a.run")" \
    "$(tm_cap | sed -n 's/.*| Channel waits  *\([0-9]*, [0-9.]*\) .*/\1/p')"
tm_keys q
mc_exit_ok "async hxbar:16x4"
# ... and the boxes follow the time line: at every moment the channels in use are those of
# the transfers in flight (listed in the Step panel), never more than c
tm_start 150 45
mc_start --ascii --net hxbar:8x4 --algo bintree --model postal --timing async
check_screen "async hxbar:8x4 opens" "Time 0.00 / "
for k in 1 2 3 4 5 6; do
    tm_keys n
    check_screen "moment $k" "\\(moment $k/"
    flying=$(tm_cap | sed -n 's/.*|  \([0-9]*\)>\([0-9]*\) \[.*/\1 \2/p')
    want=$(printf '%s\n' "$flying" | awk -v A=8 -v B=4 -v C=2 '
        NF == 2 { s = int($1 / B); d = int($2 / B); if (s != d) { o[s]++; i[d]++ } }
        END { for (m = 0; m < A; m++) printf "m%d out %d/%d%s in %d/%d%s\n", m, o[m], C,
              (o[m] > C ? "!" : ""), i[m], C, (i[m] > C ? "!" : "") }' | sort)
    check_eq "moment $k: the channels of the transfers in flight" "$want" "$(shown_channels)"
    want_pairs=$(printf '%s\n' "$flying" | awk 'NF == 2 { print $1 ">" $2 }' | sort -u)
    got_pairs=$(tm_cap | cut -d'|' -f1-3 | grep -oE '\*[0-9]+:[0-9]+<[0-9]+' | sed 's/\*\([0-9]*\):[0-9]*<\([0-9]*\)/\2>\1/' | sort -u)
    check_eq "moment $k: the receivers in flight, each with its sender" "$want_pairs" "$got_pairs"
done
check_eq "no channel past c on the time line" "" "$(shown_channels | grep '!')"
tm_keys q
mc_exit_ok "async hxbar:8x4"

# 256 processors: the rows of boxes holding the step's receivers are shown
"$MESHCAST" schedule --net hxbar:16x16 --algo chain --model postal --format json >"$TMPD/c.json"
tm_start 150 45
mc_start --ascii --net hxbar:16x16 --algo chain --model postal
check_screen "chain on hxbar:16x16 opens" "chain on hxbar:16x16"
tm_run ":step 200"
check_screen "at step 200" " step 200/"
want_recv=$(jq -r '.steps[199].transfers[].dst' "$TMPD/c.json" | sort -n | tr '\n' ' ')
got_recv=$(tm_cap | grep -oE '\*[0-9]+:' | tr -d '*:' | sort -n | tr '\n' ' ')
check_eq "hxbar:16x16: the step's receiver shown" "$want_recv" "$got_recv"
check_screen "hxbar:16x16: says which modules" "modules m[0-9]+-m[0-9]+ of 16"
tm_keys q
mc_exit_ok "hxbar:16x16"
finish
