#!/bin/sh
# bench/run.sh — called by `make bench` as `sh bench/run.sh BINARY...` with $MESHCAST set.
# Runs every benchmark binary it is given (each prints its own results), then times a few
# whole `meshcast` commands.  Exit status 1 if any benchmark failed.
rc=0
for b in "$@"; do
    echo "== $(basename "$b")"
    "$b" || { echo "   $(basename "$b") FAILED (exit $?)"; rc=1; }
done
if [ -n "${MESHCAST:-}" ] && [ -x "$MESHCAST" ]; then
    echo "== meshcast commands (wall time, peak memory)"
    # a 2^20-rank binomial GOAL file in schedgen's layout (bench/goal_binomial.c writes it)
    goal=""
    for b in "$@"; do
        case $b in */goal_binomial) goal=$(mktemp -d)/binomial.goal; "$b" "$goal" || rc=1 ;; esac
    done
    for cmd in "run --net mesh:1024x1024 --algo bst --bytes 1M" \
               "run --net mesh:1024x1024 --algo tcd --source 341,341" \
               "run --net mesh:1024x1024 --algo rh --bytes 1M" \
               "compare --net array:16 --bytes 8:65536" \
               "compare --net mesh:16x32 --bytes 8:65536" \
               ${goal:+"run --net mesh:1024x1024 --algo $goal"}; do
        # shellcheck disable=SC2086
        if command -v /usr/bin/time >/dev/null 2>&1; then
            t=$(mktemp)
            /usr/bin/time -o "$t" -f "   %e s (%U s user)  %M KiB peak  meshcast $cmd" "$MESHCAST" $cmd >/dev/null || rc=1
            grep -v '^Command exited' "$t"; rm -f "$t"
        else
            s=$(date +%s.%N)
            "$MESHCAST" $cmd >/dev/null || rc=1
            echo "   $(awk -v a="$s" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }') s  meshcast $cmd"
        fi
    done
fi
[ -n "$goal" ] && rm -rf "$(dirname "$goal")"
exit $rc
