#!/bin/sh
# Run every shell test file tests/{cli,lua,tui}/t_*.sh; each ends with "FILE: N passed, N failed".
# Prints them all and, last, "shell: N passed, N failed" over every file.
cd "$(dirname "$0")/.." || exit 2
pass=0; fail=0; skipped=0; badfiles=""
for f in tests/cli/t_*.sh tests/lua/t_*.sh tests/tui/t_*.sh; do
    [ -f "$f" ] || continue
    echo "== $f"
    out=$(sh "$f" 2>&1); rc=$?
    printf '%s\n' "$out" | grep -vE '^  ok ' 
    line=$(printf '%s\n' "$out" | grep -E '^[^ ]+: [0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' | tail -n 1)
    p=$(printf '%s' "$line" | sed -n 's/.*: \([0-9]*\) passed.*/\1/p')
    fl=$(printf '%s' "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
    sk=$(printf '%s' "$line" | sed -n 's/.* \([0-9]*\) skipped$/\1/p')
    pass=$((pass + ${p:-0})); fail=$((fail + ${fl:-0})); skipped=$((skipped + ${sk:-0}))
    if [ $rc -ne 0 ]; then
        badfiles="$badfiles $f"
        [ -z "$line" ] && fail=$((fail + 1))
    fi
done
if [ "$skipped" -gt 0 ]; then
    echo "shell: $pass passed, $fail failed, $skipped skipped"
else
    echo "shell: $pass passed, $fail failed"
fi
[ -z "$badfiles" ] || { echo "failing files:$badfiles"; exit 1; }
