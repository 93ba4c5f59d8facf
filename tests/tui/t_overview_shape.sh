#!/bin/sh
# The overview (issue 23, minor): a character is about twice as tall as wide, so a block is
# B rows by ceil(B/2) columns of nodes and a square mesh is drawn twice as many characters
# wide as high (it used to be square in characters, two thirds of the width unused); the
# overloaded blocks are graded, peak load 2-3, 4-7, 8+, by the digit (2^digit) and by the
# attribute, with a legend, in --ascii --no-color too.  rh on mesh:64x64: its per-step peak
# link loads come from the schedule here; at 80x24 and 200x60.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
"$MESHCAST" schedule --net mesh:64x64 --algo rh --format json >"$TMPD/rh.json" ||
    { bad "schedule"; finish; exit 1; }
# the first step whose peak load is in [lo, hi]
step_in() { jq --argjson lo "$1" --argjson hi "$2" \
    '[.steps[] | .max_link_load] | to_entries | map(select(.value >= $lo and .value <= $hi)) | .[0].key + 1' "$TMPD/rh.json"; }
s1=$(step_in 2 3); s2=$(step_in 4 7); s3=$(step_in 8 1000000)
check "rh has steps of every grade" [ "$s1" -gt 0 ] && [ "$s2" -gt 0 ] && [ "$s3" -gt 0 ]
# the SGR attributes (tmux capture -e) of the first character DIGIT in the map (left of the
# panel bar): "b" bold, "r" reverse, "u" underline, sorted; the most common over its blocks
attrs_of() {
    tm capture-pane -e -p -t t | python3 -c '
import re, sys
d = sys.argv[1]
seen = []
for line in sys.stdin.read().split("\n")[2:]:
    cur = set()
    i = 0
    bar = False
    while i < len(line):
        m = re.match(r"\x1b\[([0-9;]*)m", line[i:])
        if m:
            for c in (m.group(1) or "0").split(";"):
                if c in ("0", ""): cur = set()
                elif c == "1": cur.add("b")
                elif c == "7": cur.add("r")
                elif c == "4": cur.add("u")
                elif c in ("22",): cur.discard("b")
                elif c == "27": cur.discard("r")
                elif c == "24": cur.discard("u")
            i += len(m.group(0)); continue
        if line[i] == "|": break
        if line[i] == d and i > 3:
            seen.append("".join(sorted(cur)) or "-")
        i += 1
# the most common (the cursor block is drawn reversed: one block)
print(max(set(seen), key=seen.count) if seen else "none")' "$1"
}
for size in "80 24" "200 60"; do
    set -- $size
    tm_start "$1" "$2"
    mc_start --ascii --no-color --net mesh:64x64 --algo rh
    check_screen "${1}x$2: up" "rh on mesh:64x64" 20
    tm_keys :; tm_run "overview"
    check_screen "${1}x$2: the overview" "overview [0-9]+x[0-9]+" 10
    B=$(printf '%s\n' "$SCREEN" | sed -n 's/.*overview \([0-9]*\)x\([0-9]*\).*/\1/p')
    C=$(printf '%s\n' "$SCREEN" | sed -n 's/.*overview \([0-9]*\)x\([0-9]*\).*/\2/p')
    if [ -z "$B" ]; then tm_keys q; continue; fi
    check_eq "${1}x$2: a block of $B rows spans ceil($B/2) columns" $(( (B + 1) / 2 )) "$C"
    rows=$(( (64 + B - 1) / B )); cols=$(( (64 + C - 1) / C ))
    map=$(tm_cap | sed -n "3,$((rows + 2))p" | cut -d'|' -f1 | sed 's/^ *[0-9]* //; s/ *$//')
    check_eq "${1}x$2: $rows block rows drawn" "$rows" "$(printf '%s\n' "$map" | grep -c .)"
    check_eq "${1}x$2: every row $cols blocks wide" "$cols" \
        "$(printf '%s\n' "$map" | awk '{ print length($0) }' | sort -u | tr '\n' ' ' | sed 's/ $//')"
    check "${1}x$2: twice as wide as high in characters ($cols x $rows)" [ "$cols" -ge $((2 * rows - 1)) ]
    for g in "1 $s1 1" "2 $s2 2" "3 $s3 3"; do
        set -- $size $g
        lvl=$3 st=$4 dig=$5
        tm_keys :; tm_run "step $st"
        check_screen "${1}x$2: step $st" " step $st/" 10
        pk=$(jq ".steps[$((st - 1))].max_link_load" "$TMPD/rh.json")
        dg=$(awk -v p="$pk" 'BEGIN { d = 0; while (2 ^ (d + 1) <= p) d++; print d }')
        check_match "${1}x$2 step $st: peak $pk drawn as the digit $dg" "$dg" \
            "$(tm_cap | sed -n '3,40p' | cut -d'|' -f1 | sed 's/^ *[0-9]* //')"
        eval "at$lvl=\$(attrs_of $dg)"
    done
    set -- $size
    check_eq "${1}x$2: grade 1 (2-3) bold" "b" "$at1"
    check_eq "${1}x$2: grade 2 (4-7) reverse" "r" "$at2"
    check_eq "${1}x$2: grade 3 (8+) reverse, bold, underlined" "bru" "$at3"
    if [ "$1" = 200 ]; then
        check_match "${1}x$2: the legend grades the overload" "1 peak load 2-3 +2 4-7 +3\\+ 8\\+" "$(tm_cap)"
    fi
    tm_keys q
    mc_exit_ok "${1}x$2"
done
finish
