#!/bin/sh
# s-to-p on the screen: br-xy-source with --sources Dr:10 on mesh:10x10 steps with the sources
# marked '@' on the map, every node showing how many of the 10 messages it holds, and the
# active nodes of every step in the Step panel and the Timeline — all as `run --json` says.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"

"$MESHCAST" run --net mesh:10x10 --algo br-xy-source --sources Dr:10 --json >"$TMPD/run.json"
tm_start 170 45
mc_start --ascii --net mesh:10x10 --algo br-xy-source --sources Dr:10
check_screen "title names the sources" "br-xy-source on mesh:10x10  10 sources"
check_screen_fixed "step 0: the sources hold their messages" "10 sources (@) hold their own messages"
# the '@' marks, read off the map rows ("R  cell cell ..."), one per source, at the
# sources' columns: the row number and the column of the mark in that row
marks() {
    tm_cap | awk '/^ *[0-9]+ .*\//{ r = $1; line = $0; n = 0
        for (i = 1; i <= length(line); i++) if (substr(line, i, 1) == "@") {
            print r " " int((i - 4) / 11) } }' | sort -n
}
want=$(jq -r '.sources[] | "\(. / 10 | floor) \(. % 10)"' "$TMPD/run.json" | sort -n)
check_eq "the sources are marked on the map (the main diagonal)" "$want" "$(marks)"
check_eq "ten marks" 10 "$(marks | grep -c .)"
check_screen_fixed "a source holds 1 of the 10 messages" "@1/10"
i=1
while [ $i -le 4 ]; do
    tm_keys n
    inf=$(jq ".informed[$i]" "$TMPD/run.json")
    prev=$(jq ".informed[$((i - 1))]" "$TMPD/run.json")
    check_screen_fixed "step $i: active nodes in the Step panel = engine" \
        "active nodes $inf/100 (holding a message; $prev before)"
    check_eq "step $i: the sources stay marked" 10 "$(marks | grep -c .)"
    i=$((i + 1))
done
check_screen_fixed "after the row phase every node holds its row's 1 message" " 1/10 "
tm_keys G
check_screen_fixed "last step: every node active" "active nodes 100/100"
check_screen "last step: the nodes hold all 10 messages" "10/10"
tm_keys Tab
check_screen "the Timeline shows the active nodes" "step +cost +running +active"
n=$(jq '.steps' "$TMPD/run.json")
tl=$(tm_cap | awk '/\| / { sub(/.*\| /, ""); sub(/^>/, ""); if ($1 ~ /^[0-9]+$/ && NF >= 4) print $4 }' |
    head -n "$n" | tr '\n' ' ')
want=$(jq -r '.informed[1:] | map(tostring) | join(" ")' "$TMPD/run.json")
check_eq "Timeline active column = engine" "$want " "$tl"
tm_keys q
mc_exit_ok "quit"
finish
