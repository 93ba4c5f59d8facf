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
    for cmd in "run --net mesh:1024x1024 --algo bst --bytes 1M" \
               "run --net mesh:1024x1024 --algo tcd --source 341,341" \
               "run --net mesh:1024x1024 --algo rh --bytes 1M" \
               "compare --net array:16 --bytes 8:65536" \
               "compare --net mesh:16x32 --bytes 8:65536"; do
        # shellcheck disable=SC2086
        if command -v /usr/bin/time >/dev/null 2>&1; then
            t=$(mktemp)
            /usr/bin/time -o "$t" -f "   %e s  %M KiB peak  meshcast $cmd" "$MESHCAST" $cmd >/dev/null || rc=1
            grep -v '^Command exited' "$t"; rm -f "$t"
        else
            s=$(date +%s.%N)
            "$MESHCAST" $cmd >/dev/null || rc=1
            echo "   $(awk -v a="$s" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }') s  meshcast $cmd"
        fi
    done
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
exit $rc
