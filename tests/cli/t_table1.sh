#!/bin/sh
# t_table1.sh — Peters & Syska's Table 1 live (compare --terms on torus:25x25, circuit model)
# lists every algorithm that runs there: each built-in and shipped script is run on its own
# (`meshcast run`), and one that runs must be a row of the table, one that does not must be
# named under "not run here" with why (s-to-p ones as a group); the store-and-forward
# baseline (flood: one hop per circuit, so switched hops = start-ups) is a row, and so is the
# pipelined store-and-forward row (saf-trees, L*tau near 1/4 on a long message); and the table
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
# the store-and-forward row, pipelined (saf-trees: four arc-disjoint trees, d = 1): one hop per
# circuit, X + Y - 2 + P start-ups, and with B=auto its L*tau count near Table 1's 1/4
check_eq "saf-trees: switched hops = start-ups (d = 1)" \
    "$(jq '.algorithms[] | select(.algo == "saf-trees") | .phases' t.json)" \
    "$(jq '.algorithms[] | select(.algo == "saf-trees") | .switch_hops' t.json)"
"$MESHCAST" run --net $NET --model circuit --algo saf-trees --bytes 1000000 --json >big.json
check "saf-trees, 1 MB, B=auto: L*tau count in [0.25, 0.26)" \
    jq -e '.terms.ltau >= 0.25 and .terms.ltau < 0.26 and .verified and .valid' big.json
check "flood: L*tau count 24 (not pipelined)" \
    jq -e '.algorithms[] | select(.algo == "flood") | .ltau == 24' t.json
check_exit "saf-trees on torus:2x5: refused" 2 "$MESHCAST" run --net torus:2x5 --algo saf-trees --model circuit
check_match "  with why, on one line" "^meshcast: saf-trees runs on 2-D tori X x Y with X, Y >= 3" "$ERR"
check_eq "  one line" 1 "$(printf '%s\n' "$ERR" | wc -l)"
check_exit "saf-trees --set B=-3: refused" 2 "$MESHCAST" run --net torus:5x5 --algo saf-trees --set B=-3
check_exit "saf-trees on 5x7 from (4,6), B=3, async: verified and as predicted" 0 \
    "$MESHCAST" run --net torus:5x7 --algo saf-trees --model circuit --source 4,6 --set B=3 --timing async
check_match "  predicted matches" "^predicted: .*matches" "$OUT"
check_match "no Seidel-style tree on 25x25, said so" "^Seidel-style trees: none runs on $NET" "$notes"
check_match "the text says it too" "^  Seidel-style trees: none runs on $NET" "$(cat t.txt)"
"$MESHCAST" compare --net torus:16x16 --model circuit --terms --json >t16.json
check_match "16x16: st-mesh (Seidel-style) is a row" "^st-mesh\$" "$(jq -r '.algorithms[].algo' t16.json)"
check_nomatch "16x16: no 'none runs' note" "Seidel-style trees: none" "$(jq -r '.not_run[]' t16.json)"
finish
