#!/bin/sh
# Run every cmocka unit-test program given as an argument (one under build/, not build-san/,
# is named NAME(release): full.h); print each program's own cmocka
# summary, then the five slowest programs with their wall seconds ("slowest: test_x 12 s, ..."),
# and, last, one closing line "unit: N passed, N failed" over all of them.
pass=0; fail=0; bad=""; times=""
for t in "$@"; do
    name=$(basename "$t")
    case $t in */build/* | build/*) name="$name(release)" ;; esac   # (full.h's release copies)
    t0=$(date +%s)
    out=$(ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} "$t" 2>&1); rc=$?
    times="$times$(( $(date +%s) - t0 )) $name
"
    printf '%s\n' "$out" | grep -E '^\[  (PASSED|FAILED)  \]|^\[  FAILED  \] [a-z_]' | sed "s|^|$name: |"
    p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9][0-9]*\) test.*/\1/p' | tail -n 1)
    f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9][0-9]*\) test.*/\1/p' | tail -n 1)
    pass=$((pass + ${p:-0})); fail=$((fail + ${f:-0}))
    if [ $rc -ne 0 ]; then
        [ -z "$f" ] && fail=$((fail + 1))   # crashed before cmocka could count
        bad="$bad $name"
        printf '%s\n' "$out" | tail -n 40
    fi
done
[ -n "$times" ] && printf '%s' "$times" | sort -rn | head -n 5 |
    awk '{ s = s (NR > 1 ? ", " : "") $2 " " $1 " s" } END { print "slowest: " s }'
echo "unit: $pass passed, $fail failed"
[ -z "$bad" ] || { echo "failing programs:$bad"; exit 1; }
