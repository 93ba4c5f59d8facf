#!/bin/sh
# The s-to-p paper's figures in the Chart panel (:figure N): the title, the axis legend and
# every curve's label show, and the plot's top value is the largest number
# `meshcast compare --sources` gives for the same figure (one engine, two views).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"

# the largest cell of a compare --json (cost, or with --relative the percentage) as the
# plot's y axis prints it
top_cost() {
    jq '[.rows[].cost[] | select(. != null)] | max' |
        awk '{ v = $1; if (v >= 1e6) printf "%.1fM\n", v / 1e6; else if (v >= 1e4) printf "%.1fk\n", v / 1e3; else printf "%.0f\n", v }'
}
top_percent() { jq '[.rows[].percent[] | select(. != null)] | max' | awk '{ printf "%+.1f%%\n", $1 }'; }

fig5=$("$MESHCAST" compare --net mesh:10x10 --sources R:30,C:30,E:30,Dr:30,Dl:30,B:30,X:30,SB:30 \
    --algos br-lin,br-xy-source,br-xy-dim --json | top_cost)
fig8=$("$MESHCAST" compare --net mesh:16x16 --sources E,X,B,SB --s 16:192:16 --bytes 6K \
    --algos br-xy-source,repos-xy-source --relative br-xy-source --json | top_percent)
fig2=$("$MESHCAST" compare --net mesh:10x10 --sources E --s 1:100:3 --bytes 4K \
    --algos xor,2-step,br-lin,br-xy-source,br-xy-dim --json | top_cost)

for mode in "" "--ascii"; do
    tm_start 170 50
    mc_start $mode --net mesh:10x10 --algo br-xy-source --sources Dr:10
    check_screen "$mode started" "br-xy-source on mesh:10x10"
    tm_keys : "figure 5" Enter
    check_screen_fixed "$mode fig 5: title" "Fig. 5: cost per distribution (10x10, s = 30, 1K)"
    check_screen_fixed "$mode fig 5: the Chart panel is shown" "[Chart]"
    check_screen_fixed "$mode fig 5: axis legend" "x: distribution   y: simulated cost in us"
    check_screen_fixed "$mode fig 5: distributions on the x axis" "R    C    E   Dr   Dl    B    X   SB"
    for l in "1 br-lin" "2 br-xy-source" "3 br-xy-dim"; do
        check_screen_fixed "$mode fig 5: label '$l'" "$l"
    done
    check_screen_fixed "$mode fig 5: the top of the y axis is compare's largest cost ($fig5)" "$fig5 "
    check_screen_fixed "$mode fig 5: the same numbers' command" "the same numbers: meshcast compare --net mesh:10x10"

    tm_keys : "figure 8" Enter
    check_screen_fixed "$mode fig 8: title" "Fig. 8: repos-xy-source vs br-xy-source"
    check_screen_fixed "$mode fig 8: axis legend" "y: % by which repos-xy-source"
    check_screen "$mode fig 8: labels E and X" "[|│] 1 E +2 X *\$"
    check_screen "$mode fig 8: labels B and SB" "[|│] 3 B +4 SB *\$"
    check_screen_fixed "$mode fig 8: the top of the y axis is compare's largest percentage ($fig8)" "$fig8"

    tm_keys : "figure 2" Enter
    check_screen_fixed "$mode fig 2: axis legend" "x: number of sources s   y: simulated cost in us"
    for l in "1 xor" "2 2-step" "3 br-lin" "4 br-xy-source" "5 br-xy-dim"; do
        check_screen_fixed "$mode fig 2: label '$l'" "$l"
    done
    check_screen_fixed "$mode fig 2: top value ($fig2)" "$fig2 "

    tm_keys : "figure 9" Enter
    check_screen_fixed "$mode a figure the paper does not have: one line" \
        ":figure takes a figure of the s-to-p paper, 2..8"
    tm_keys : "figure off" Enter
    check_screen "$mode :figure off: cost vs message size again" "Cost vs message size"
    tm_keys q
    mc_exit_ok "$mode quit"
done

# the help overlay documents it
tm_start 120 60
mc_start --net mesh:4x4
check_screen "started" "mesh:4x4"
tm_keys "?"
check_screen_fixed "help: :figure" ":figure N [async]"
tm_keys Escape
sleep 0.3
tm_keys q
mc_exit_ok "help: quit"
finish
