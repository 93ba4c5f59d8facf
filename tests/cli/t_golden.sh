#!/bin/sh
# Golden files: `meshcast run ... --json` must reproduce tests/golden/NAME.json byte for byte.
# Regenerate with tests/golden/update.sh (and check each value by hand).
. "$(dirname "$0")/../lib.sh"
G=$ROOT/tests/golden
n=0
while read -r name args; do
    case "$name" in ''|'#'*) continue ;; esac
    [ -f "$G/$name.json" ] || continue
    n=$((n + 1))
    # shellcheck disable=SC2086
    "$MESHCAST" run $args --json >"$TMPD/$name.json" 2>"$TMPD/$name.err"
    rc=$?
    check_eq "$name: exit 0" 0 "$rc"
    if cmp -s "$G/$name.json" "$TMPD/$name.json"; then ok "$name: matches the golden file"
    else bad "$name: matches the golden file" "$(diff "$G/$name.json" "$TMPD/$name.json" | head -c 400)"; fi
    check_close "$name: golden total == predicted" "$(jq -r .cost.total "$G/$name.json")" "$(jq -r .predicted "$G/$name.json")"
done <"$G/cases"
[ "$n" -gt 0 ] && ok "$n golden files" || bad "golden files exist" "none in $G"
finish
