#!/bin/sh
# s-to-p: nodes graded by how many of the s messages they hold (grade.h), on br-xy-source with
# --sources Dr:10 on mesh:10x10.  One character a node (--ascii): the grade digit, '.' none,
# '#' all, and as many graded cells as `run --json` says nodes hold a message, step by step;
# the legend gives each grade's range of messages and explains '@'.  Roomy cells keep the
# "k/s" text and carry the grade's colour, in the default and the contrast theme; without
# colour (NO_COLOR) the shade glyphs tell the grades.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"

"$MESHCAST" run --net mesh:10x10 --algo br-xy-source --sources Dr:10 --json >"$TMPD/run.json"
nsteps=$(jq '.steps' "$TMPD/run.json")
# the map's rows at one character a node: "R cccccccccc"
cells() { tm_cap | grep -E '^ +[0-9] [^ ]{10}( |$)' | awk '{ print $2 }' | tr -d '\n'; }

tm_start 100 30
mc_start --ascii --net mesh:10x10 --algo br-xy-source --sources Dr:10
check_screen "started" "br-xy-source on mesh:10x10"
tm_keys Z Z Z Z
check_screen "one character a node" "zoom 4"
check_screen_fixed "legend: the grades' ranges" ". 0  1 1-3  2 4-6  3 7-9"
check_screen_fixed "legend: all, and the source mark" "# 10 messages  @ source"
check_screen_fixed "narration: the sources hold their own messages" \
    "Before step 1: 10 sources hold their own messages (10 chunks, 10240 bytes in all)"
# step 0: the sources hold their one message (grade 1) on the main diagonal, nobody else
diag=$(i=0; while [ $i -lt 10 ]; do j=0; while [ $j -lt 10 ]; do
    if [ $i = $j ]; then printf 1; else printf .; fi; j=$((j + 1)); done; i=$((i + 1)); done)
check_eq "step 0: grade 1 at the 10 sources (Dr), '.' elsewhere" "$diag" "$(cells)"
seen2=0
i=1
while [ "$i" -le "$nsteps" ]; do
    tm_keys n
    tm_wait "Step $i/$nsteps" 10 >/dev/null
    c=$(cells)
    want=$(jq ".informed[$i]" "$TMPD/run.json")
    check_eq "step $i: graded cells = nodes holding a message (engine)" "$want" \
        "$(printf '%s' "$c" | tr -d '.' | wc -c | tr -d ' ')"
    case "$c" in *2*|*3*) seen2=1 ;; esac
    i=$((i + 1))
done
check_eq "a grade above 1 shows while the columns combine" 1 "$seen2"
check_eq "last step: every node holds all 10 ('#')" "####################################################################################################" "$(cells)"
tm_keys q
mc_exit_ok "ascii quit"

# roomy cells in colour: the k/s text on the grade's background (g1: 224 default, 230 contrast)
for t in "default 224" "contrast 230"; do
    set -- $t
    tm_start 170 45
    mc_start --theme "$1" --net mesh:10x10 --algo br-xy-source --sources Dr:10
    check_screen "$1: started" "br-xy-source on mesh:10x10"
    check_screen_fixed "$1: the sources marked" "@1/10"
    n=$(tm_cap -e | grep -Eo "48;5;$2m ?@1/10" | wc -l | tr -d ' ')
    check_eq "$1: the 10 sources carry grade 1's colour" 10 "$n"
    tm_keys G
    check_screen_fixed "$1: last step" "Step $nsteps/$nsteps"
    n=$(tm_cap -e | grep -o "48;5;$2m" | wc -l | tr -d ' ')
    check_eq "$1: last step: no node left in grade 1" 0 "$n"
    tm_keys q
    mc_exit_ok "$1: quit"
done

# no colour: the shade glyphs
tm_start 100 30
tm_run "export NO_COLOR=1"
mc_start --net mesh:10x10 --algo br-xy-source --sources Dr:10
check_screen "NO_COLOR: started" "br-xy-source on mesh:10x10"
tm_keys Z Z Z Z
check_screen_fixed "NO_COLOR: the legend's shades" "░ 1-3  ▒ 4-6  ▓ 7-9"
check_screen_fixed "NO_COLOR: the legend's full and source" "█ 10 messages  @ source"
check_screen "NO_COLOR: the sources in grade 1's shade" "^ +0 ░·········"
tm_keys q
mc_exit_ok "NO_COLOR: quit"
finish
