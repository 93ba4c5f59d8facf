#!/bin/sh
# t_table1.sh — Peters & Syska's Table 1 live (compare --terms on torus:25x25, circuit model)
# lists every algorithm that runs there: each built-in and shipped script is run on its own
# (`meshcast run`), and one that runs must be a row of the table, one that does not must be
# named under "not run here" with why (s-to-p ones as a group); the store-and-forward
# baseline (flood: one hop per circuit, so switched hops = start-ups) is a row; and the table
# says that no Seidel-style tree runs on 25x25 — while on 16x16 st-mesh.lua is one of its rows.
. "$(dirname "$0")/../lib.sh"
cd "$TMPD" || exit 2
NET=torus:25x25
"$MESHCAST" compare --net $NET --model circuit --terms --json >t.json
check_eq "compare --terms exits 0" 0 $?
"$MESHCAST" compare --net $NET --model circuit --terms >t.txt
rows=$(jq -r '.algorithms[].algo' t.json)
notes=$(jq -r '.not_run[]' t.json)
builtins=$("$MESHCAST" list algorithms | awk 'NF == 0 { exit } { print $1 }' | sort -u)
scripts=$("$MESHCAST" list algorithms | awk '/^Lua scripts/ { f = 1; next } f && NF { print $1 }')
stop=$("$MESHCAST" list algorithms | awk 'NF == 0 { exit } /  s-to-p: / { print $1 }' | sort -u)
for a in $builtins; do
    "$MESHCAST" run --net $NET --model circuit --algo "$a" >/dev/null 2>&1
    rc=$?
    if printf '%s\n' "$stop" | grep -qx -- "$a"; then
        check "s-to-p $a: not a row" sh -c "! printf '%s\n' '$rows' | grep -qx -- '$a'"
        continue
    fi
    if [ "$rc" -le 1 ]; then
        check_match "$a runs on $NET (exit $rc): a row of the table" "^$a\$" "$rows"
    else
        check_match "$a does not run on $NET: named with why" "^$a: .+" "$notes"
    fi
done
for a in $scripts; do
    "$MESHCAST" run --net $NET --model circuit --algo "$a" >/dev/null 2>&1
    rc=$?
    if [ "$rc" -le 1 ] && ! printf '%s\n' "$notes" | grep -q "^$a.lua: s-to-p"; then
        check_match "script $a runs on $NET: a row" "^$a\$" "$rows"
    else
        check_match "script $a not a row: named with why" "^$a.lua: .+" "$notes"
    fi
done
check_match "s-to-p algorithms named as a group" "^s-to-p: [0-9]+ s-to-p algorithms" "$notes"
check_eq "flood (store-and-forward, d = 1): switched hops = start-ups" \
    "$(jq '.algorithms[] | select(.algo == "flood") | .phases' t.json)" \
    "$(jq '.algorithms[] | select(.algo == "flood") | .switch_hops' t.json)"
check_match "no Seidel-style tree on 25x25, said so" "^Seidel-style trees: none runs on $NET" "$notes"
check_match "the text says it too" "^  Seidel-style trees: none runs on $NET" "$(cat t.txt)"
"$MESHCAST" compare --net torus:16x16 --model circuit --terms --json >t16.json
check_match "16x16: st-mesh (Seidel-style) is a row" "^st-mesh\$" "$(jq -r '.algorithms[].algo' t16.json)"
check_nomatch "16x16: no 'none runs' note" "Seidel-style trees: none" "$(jq -r '.not_run[]' t16.json)"
finish
