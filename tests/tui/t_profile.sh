#!/bin/sh
# :profile NAME on the screen's command line: the same loader as --profile (profile.h), the
# cost panel recomputed under the profile's constants, :profile off back to the built-ins, a
# bad profile refused with FILE:LINE on the message line.  Costs derived here: Seidel's simple
# tree on array:8 with one chunk is 3 steps of one message, 3*(a*B + b).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"

export XDG_CONFIG_HOME="$TMPD/cfg"
U="$XDG_CONFIG_HOME/meshcast/profiles"
mkdir -p "$U"
printf 'about = slow start\nseidel.a = 0.5\nseidel.b = 200\n' > "$U/slow.profile"
printf 'seidel.a = 1\nseidl.b = 2\n' > "$U/typo.profile"
cost() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%g", 3 * (a * 100 + b) }'; }

tm_start 150 45
mc_start --ascii --net array:8 --algo st --bytes 100
check_screen "starts" "st on array:8"
check_screen "built-in constants: cost $(cost 0.08 75)" "Total +$(cost 0.08 75).00 us"
tm_keys :
tm_run "profile slow"
check_screen_fixed "the message names the profile" "profile slow: slow start"
check_screen "the profile's constants: cost $(cost 0.5 200)" "Total +$(cost 0.5 200).00 us"
tm_keys :
tm_run "profile typo"
check_screen_fixed "a bad profile: FILE:LINE and the nearest key" "typo.profile:2: unknown key 'seidl.b' (nearest: seidel.b"
check_screen "still the last good profile" "Total +$(cost 0.5 200).00 us"
tm_keys :
tm_run "profile off"
check_screen_fixed "off" "profile off: the built-in constants"
check_screen "back to the built-in cost" "Total +$(cost 0.08 75).00 us"
tm_keys q
mc_exit_ok "quit"

# a figure of the s-to-p paper under the shipped paragon profile: the plot's top value is the
# largest cost `compare --sources ... --profile paragon` gives, the axis and the command say so
fig5=$("$MESHCAST" compare --net mesh:10x10 --sources R:30,C:30,E:30,Dr:30,Dl:30,B:30,X:30,SB:30 \
    --algos br-lin,br-xy-source,br-xy-dim --profile paragon --json |
    jq '[.rows[].cost[] | select(. != null)] | max' |
    awk '{ v = $1; if (v >= 1e6) printf "%.1fM\n", v / 1e6; else if (v >= 1e4) printf "%.1fk\n", v / 1e3; else printf "%.0f\n", v }')
tm_start 170 70
mc_start --ascii --net mesh:10x10 --algo br-xy-source --sources Dr:10
check_screen "s-to-p starts" "br-xy-source on mesh:10x10"
tm_keys :
tm_run "profile paragon"
check_screen_fixed "paragon on" "profile paragon: Intel Paragon"
tm_keys : "figure 5" Enter
check_screen_fixed "fig 5 under paragon: top value ($fig5), compare --profile paragon's" "$fig5 "
check_screen_fixed "fig 5 under paragon: the axis legend" "y: simulated cost in us, profile"
panel=$(tm_cap | sed -n 's/.*| \([^|]*\)$/\1/p' | tr '\n' ' ')
check_match "fig 5 under paragon: the axis names the profile" "y: simulated cost in us, profile +paragon" "$panel"
check_match "fig 5 under paragon: the same numbers' command has --profile paragon" "the same numbers: meshcast compare .*--profile +paragon" "$panel"
tm_keys q
mc_exit_ok "figure under a profile"
finish
