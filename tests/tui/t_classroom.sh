#!/bin/sh
# Issue 9, the screen: long builds show their progress and cancel on Escape; themes are names.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"

# --- a theme is a name (defect 11)
check_exit "--theme nosuch: exit 2" 2 "$MESHCAST" --theme nosuch
check_match "--theme nosuch: says so" "no theme 'nosuch'" "$ERR"
check_eq "--theme nosuch: one line" 1 "$(printf '%s\n' "$ERR" | wc -l | tr -d ' ')"
check_exit "--theme ../../etc/passwd: exit 2" 2 "$MESHCAST" --theme ../../etc/passwd
check_match "--theme PATH: a theme is a name" "a theme is a name" "$ERR"

tm_start 150 40
mc_start --ascii --net mesh:8x8
check_screen "opens" "st on mesh:8x8"
tm_keys : ; tm_run "theme ../../etc/passwd"
check_screen ":theme PATH refused" "a theme is a name"
tm_keys : ; tm_run "theme contrast"
check_screen ":theme contrast taken" "theme contrast"

# --- the map's glyphs (defect 9): pan hints never look like circuits or cover a node; the
#     receive mark is not an arrowhead; the legend draws what the map draws
tm_keys : ; tm_run "theme default"
tm_keys : ; tm_run "net mesh:32x32"
tm_keys z; tm_keys z; tm_keys z; tm_keys z; tm_keys z
check_screen "zoomed in on mesh:32x32" "zoom 0"
map=$(tm_cap | cut -c1-91 | sed -n '2,39p')
check_nomatch "step 0: no arrowhead on the map (pan hints are not circuits)" "[<>v^]" "$map"
check_match "pan hints shown" "[}_]" "$map"
check_screen_fixed "the legend uses the map's glyphs at this zoom" "## full  #. partial  .. empty  * receiving"
tm_keys : ; tm_run "net array:8"
tm_keys n
check_screen "array:8 step 1" "step 1/"
check_match "--ascii: the receive mark is not an arrowhead" "==> \\* +#" "$(tm_cap)"
check_nomatch "--ascii: no receive mark merged with an arrowhead" ">>" "$(tm_cap | cut -c1-100)"

# --- the Chart (defect 12): equal curves said, the ^ mark explained, crossovers at compare's
#     exact bytes in compare's words
tm_keys : ; tm_run "net mesh:8x8"
tm_keys Tab; tm_keys Tab; tm_keys Tab
check_screen "chart: crossovers bisected" "bst beats st from [0-9]+ bytes" 90
chart=$(tm_cap | sed 's/^.*| //')
"$MESHCAST" compare --net mesh:8x8 --bytes 8:1M >"$TMPD/cmp.txt"
n=0
for x in $(printf '%s\n' "$chart" | sed -n 's/^\([a-z0-9-]* beats [a-z0-9-]* from [0-9]*\) bytes$/\1/p' | tr ' ' '_'); do
    n=$((n + 1))
    check_match "chart crossover $(echo "$x" | tr '_' ' ') = compare's" "$(echo "$x" | tr '_' ' ') bytes" "$(cat "$TMPD/cmp.txt")"
done
check "chart: at least two crossovers in words" test "$n" -ge 2
check_match "chart: the ^ mark explained" "\\^ 1K, the size on the map" "$chart"
check_match "chart: an equal curve is said, not hidden" "costs what [a-z0-9-]+ costs at every size" "$chart"
tm_keys Tab; tm_keys Tab

# --- a long build (defect 5): progress at once, Escape cancels and keeps what was shown
tm_keys : ; tm_run "net mesh:8x8"
check_screen "back on mesh:8x8" "st on mesh:8x8"
tm_keys : ; tm_run "net mesh:1024x1024"
check_screen "a big build shows what it does and how far" \
    "building (st|rh) on mesh:1024x1024\.\.\. .*(Esc or Ctrl-C cancels)" 10
tm_keys Escape
check_screen "Escape cancels it" "cancelled \(Esc\)" 20
check_screen "the broadcast shown stays" "st on mesh:8x8" 5
tm_keys n
check_screen "and steps as before" "step 1/" 5

# a script that loops: its build shows progress, Escape stops it (the Lua hook checks the
# same cancel flag), the broadcast shown stays
cat >"$TMPD/loop.lua" <<'LUA'
return {
  name = "loop", summary = "loops for ever", nets = { "array", "ring", "mesh", "torus" },
  chunks = 1,
  build = function(sched, net, p, source)
    local x = 0
    while true do x = x + 1 end
  end,
}
LUA
tm_keys : ; tm_run "algo $TMPD/loop.lua"
check_screen "a looping script: building, with the way out" "building .*loop.lua on mesh:8x8\.\.\. .*Esc or Ctrl-C cancels" 10
tm_keys Escape
check_screen "Escape stops the script" "cancelled \(Esc\)" 20
check_screen "the broadcast shown stays" "st on mesh:8x8" 5
tm_keys q
mc_exit_ok "looping script"

# a big build at start: the screen comes up with the progress line; Ctrl-C ends it
tm_run clear
mc_start --ascii --net mesh:1024x1024 --algo rh
check_screen "a big net at start: progress drawn at once" "building rh on mesh:1024x1024" 10
tm_keys C-c
mc_exit_ok "Ctrl-C during the first build quits"
finish
