#!/bin/sh
# Lesson texts say what the screen does (issue 23, minor): the arrow keys move the cursor,
# they do not step; a size named as one of the bytes picker's is one it offers (16 B times
# powers of 4); a TCD is a distance, not a cost.
. "$(dirname "$0")/../lib.sh"
L="$ROOT/lessons"
check_nomatch "no lesson steps with the arrow keys" "(p|step[a-z]*)[^.]*(left|right) arrow" "$(cat "$L"/*.lua)"
# a question asking for a size "in the bytes picker": the sizes its explanation names as
# sizes (not "N bytes", the crossover, nor costs in us) are 16 * 4^k, the ones the picker offers
bad_sizes=$(python3 "$ROOT/tests/tui/lesson_pages.py" "$L"/*.lua | awk -F"$(printf '\037')" '$4 ~ /bytes picker/ { print $7 }' |
    sed 's/[0-9.]* us//g; s/[0-9]* bytes//g' | grep -o "[0-9][0-9]*[KM]\\?\\b" | while read -r s; do
    case $s in *K) v=$(( ${s%K} * 1024 ));; *M) v=$(( ${s%M} * 1048576 ));; *) v=$s;; esac
    ok=0; p=16; while [ $p -le 1048576 ]; do [ "$p" = "$v" ] && ok=1; p=$((p * 4)); done
    [ $ok = 1 ] || echo "$s"; done)
check_eq "sizes named for the bytes picker are the picker's" "" "$bad_sizes"
check_nomatch "a TCD is not called a cost" "\\btcd[^.\"]* costs [0-9]" "$(cat "$L"/*.lua)"
finish
