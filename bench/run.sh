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
# Issue 21's targets for the engine: CPU time (user + system, best of 3: the machine may be
# shared) and peak memory of whole runs, each printed beside its target; any missed makes the
# exit status 1.  (The TUI step frame and lua_st have their targets in their own binaries
# above.)
if [ -n "${MESHCAST:-}" ] && [ -x "$MESHCAST" ] && command -v /usr/bin/time >/dev/null 2>&1; then
    echo "== engine targets (issue 21; CPU time best of 3, peak memory; load: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null))"
    # name | nodes | max CPU s | max MiB (0: none) | max bytes per node (0: none) | command
    while IFS='|' read -r name nodes tmax mmax bpn cmd; do
        best=""; peak=0; t=$(mktemp)
        for i in 1 2 3; do
            # shellcheck disable=SC2086
            /usr/bin/time -o "$t" -f "%U %S %M" "$MESHCAST" $cmd </dev/null >/dev/null 2>&1 || { rc=1; echo "   $name: FAILED to run"; }
            set -- $(grep -v '^Command' "$t")
            cpu=$(awk -v u="$1" -v s="$2" 'BEGIN { printf "%.2f", u + s }')
            [ -z "$best" ] || [ "$(awk -v a="$cpu" -v b="$best" 'BEGIN { print (a < b) }')" = 1 ] && best=$cpu
            peak=$3
        done
        rm -f "$t"
        mib=$(awk -v k="$peak" 'BEGIN { printf "%.0f", k / 1024 }')
        per=$(awk -v k="$peak" -v n="$nodes" 'BEGIN { printf "%.1f", k * 1024 / n }')
        met=$(awk -v c="$best" -v t="$tmax" -v m="$mib" -v mm="$mmax" -v p="$per" -v b="$bpn" \
            'BEGIN { print ((t == 0 || c <= t) && (mm == 0 || m <= mm) && (b == 0 || p <= b)) ? "met" : "MISSED" }')
        [ "$met" = met ] || rc=1
        printf '   %-28s %6s s CPU (target %s), %5s MiB (target %s), %6s B/node (target %s)  %s\n' \
            "$name" "$best" "$( [ "$tmax" = 0 ] && echo - || echo "<= $tmax")" "$mib" \
            "$( [ "$mmax" = 0 ] && echo - || echo "<= $mmax")" "$per" \
            "$( [ "$bpn" = 0 ] && echo - || echo "<= $bpn")" "$met"
    done <<'EOF_T'
rh mesh:1024x1024 1M|1048576|0.5|200|0|run --net mesh:1024x1024 --algo rh --bytes 1M
st array:16777216 1M|16777216|0.6|0|40|run --net array:16777216 --algo st --bytes 1M
chain array:1048576 8 chunks|1048576|0|300|0|run --net array:1048576 --algo chain --bytes 1M
EOF_T
fi
# meshcast exec against a plain MPI_Bcast of the same bytes on the same ranks (launch excluded:
# both are timed inside meshcast-mpi from a barrier; medians of 10 repetitions).  Skipped, with
# the reason, without Open MPI.
if [ -n "${MESHCAST:-}" ] && [ -x "$(dirname "$MESHCAST")/meshcast-mpi" ] && command -v mpirun >/dev/null 2>&1; then
    echo "== meshcast exec vs MPI_Bcast (8 ranks on $(nproc 2>/dev/null || echo '?') cores; ratio = exec / MPI_Bcast)"
    for c in "array:8 st 64K" "array:8 bst 64K" "array:8 st 1M" "array:8 bst 1M" "full:8 fractional 1M"; do
        set -- $c
        # Open MPI refuses root unless told; only for these runs
        j=$(env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 300 \
            "$MESHCAST" exec --net "$1" --algo "$2" --bytes "$3" --reps 10 --vs-bcast --json) || { echo "   exec $c FAILED"; rc=1; continue; }
        printf '%s' "$j" | jq -r --arg c "$c" '"   \($c): exec \(.measured.total) us, MPI_Bcast \(.measured.bcast) us, ratio \(.measured.ratio)"'
    done
else
    echo "== meshcast exec vs MPI_Bcast: skipped (no mpirun or meshcast-mpi: make deps, then make)"
fi
[ -n "$goal" ] && rm -rf "$(dirname "$goal")"
exit $rc
