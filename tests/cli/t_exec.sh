#!/bin/sh
# meshcast exec: schedules run on real MPI ranks (meshcast-mpi under mpirun, oversubscribed on
# this machine).  Every rank checks a checksum of every chunk it ends with against the known
# pattern (the root of a reduction: the combined value), so a run that exits 0 moved the right
# bytes; the fault injections below show the check and the time limits are live.  Skipped (with
# the reason) when mpirun or meshcast-mpi is missing; the missing-MPI message is always checked.
. "$(dirname "$0")/../lib.sh"

# Without meshcast-mpi: one line saying what to install, exit 2, nothing run.
check_exit "no meshcast-mpi: exit 2" 2 env MESHCAST_MPI=/nonexistent/meshcast-mpi \
    "$MESHCAST" exec --net array:4 --algo st --bytes 1K
check_match "no meshcast-mpi: names the packages" '^meshcast: .*openmpi-bin.*libopenmpi-dev' "$ERR"
check_eq "no meshcast-mpi: one line" 1 "$(printf '%s\n' "$ERR" | wc -l)"
check_exit "--np other than the nodes: usage" 2 "$MESHCAST" exec --net mesh:4x4 --algo st --np 5
check_exit "--reps 0: usage" 2 "$MESHCAST" exec --net mesh:4x4 --algo st --reps 0

MPI_BIN=$(dirname "$MESHCAST")/meshcast-mpi
if ! command -v mpirun >/dev/null 2>&1; then
    skip "MPI runs" "no mpirun (install openmpi-bin and libopenmpi-dev: make deps)"
    finish; exit $?
fi
if [ ! -x "$MPI_BIN" ]; then
    skip "MPI runs" "no $MPI_BIN (no mpicc when it was built: make deps, then make)"
    finish; exit $?
fi
# Open MPI refuses root unless told; only in this test's environment.
if [ "$(id -u)" = 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
LIMIT=120   # seconds for any one exec below

# exec_ok DESC NODES ARGS...: exit 0, JSON with measured.verified, ranks = NODES, one measured
# step per simulated step, and a positive measured total.
exec_ok() {
    d=$1; n=$2; shift 2
    check_exit "$d" 0 timeout $LIMIT "$MESHCAST" exec "$@" --reps 2 --timeout 30 --json
    if [ -n "$OUT" ] && printf '%s' "$OUT" | jq -e --argjson n "$n" \
        '.measured.verified == true and .measured.ranks == $n and
         (.measured.steps | length) == .steps and .measured.total > 0 and .verified == true' \
        >/dev/null 2>&1; then ok "$d: verified on $n ranks"; else bad "$d: verified on $n ranks" "$OUT $ERR"; fi
}
for t in lockstep async; do
    exec_ok "st mesh:4x4 $t" 16 --net mesh:4x4 --algo st --bytes 8K --timing $t
    exec_ok "bst mesh:4x4 $t" 16 --net mesh:4x4 --algo bst --bytes 8K --timing $t
    exec_ok "rh mesh:2x4 $t" 8 --net mesh:2x4 --algo rh --bytes 8K --timing $t
    exec_ok "chain array:8 $t" 8 --net array:8 --algo chain --bytes 8K --timing $t
    exec_ok "fractional full:16 $t" 16 --net full:16 --algo fractional --bytes 8K --timing $t
    exec_ok "s-to-p br-lin mesh:3x4 $t" 12 --net mesh:3x4 --algo br-lin --sources R:4 --bytes 2K --timing $t
    exec_ok "Lua knomial mesh:2x4 $t" 8 --net mesh:2x4 --algo "$ROOT/scripts/knomial.lua" --bytes 8K --timing $t
    exec_ok "reduce st mesh:2x4 $t" 8 --net mesh:2x4 --algo st --op reduce --bytes 8K --timing $t
done

# The text table: one row per step and a total beside the prediction.
check_exit "text table" 0 timeout $LIMIT "$MESHCAST" exec --net array:8 --algo st --bytes 4K --reps 2
nsteps=$("$MESHCAST" run --net array:8 --algo st --bytes 4K --json | jq .steps)
check_eq "text table: a row per step" "$nsteps" "$(printf '%s\n' "$OUT" | grep -cE '^[0-9]+ +[0-9.]+ +[0-9.]+$')"
check_match "text table: total beside the prediction" '^total +[0-9.]+ +[0-9.]+ us \(model seidel\)' "$OUT"
check_match "text table: verified" '^verified: +yes' "$OUT"
check_exit "csv" 0 timeout $LIMIT "$MESHCAST" exec --net array:4 --algo st --bytes 1K --reps 1 --csv
check_eq "csv: header, a row per step, total" "step,measured_us,predicted_us" "$(printf '%s\n' "$OUT" | head -n 1)"

# --vs-bcast: MPI_Bcast of the same bytes timed too; the ratio is total / bcast.
check_exit "--vs-bcast" 0 timeout $LIMIT "$MESHCAST" exec --net array:4 --algo st --bytes 4K --reps 2 --vs-bcast --json
if printf '%s' "$OUT" | jq -e '.measured.bcast > 0 and ((.measured.ratio - .measured.total / .measured.bcast) | fabs) <= 1e-6 * .measured.ratio' >/dev/null 2>&1; then
    ok "--vs-bcast: bcast timed, ratio = total / bcast"; else bad "--vs-bcast: bcast timed, ratio = total / bcast" "$OUT"; fi

# A schedule that sends a chunk before holding it: refused before anything is launched.
check_exit "send before holding: refused" 1 "$MESHCAST" exec --net array:8 \
    --algo "$ROOT/tests/lua/bad_not_held.lua" --bytes 1K --mpirun "touch $TMPD/launched; mpirun"
check_eq "refused: one line" 1 "$(printf '%s\n' "$ERR" | wc -l)"
check_match "refused: step and node named" '^meshcast: exec: refused before launch.*step 1: node 1 sends chunk 0 it does not hold' "$ERR"
if [ -e "$TMPD/launched" ]; then bad "refused: nothing launched"; else ok "refused: nothing launched"; fi

# Faults (meshcast-mpi --inject through MESHCAST_EXEC_INJECT): one line, non-zero, in time.
fault() {
    d=$1; inj=$2; re=$3; shift 3
    t0=$(date +%s)
    check_exit "$d: exit 1" 1 env MESHCAST_EXEC_INJECT=$inj timeout $LIMIT "$MESHCAST" exec \
        --net mesh:2x4 --algo st --bytes 8K --reps 1 --timeout 4 "$@"
    el=$(( $(date +%s) - t0 ))
    check_eq "$d: one line" 1 "$(printf '%s\n' "$ERR" | wc -l)"
    check_match "$d: says where" "$re" "$ERR"
    if [ "$el" -le 40 ]; then ok "$d: ended in ${el}s"; else bad "$d: ended in ${el}s (limit 40)"; fi
}
fault "rank killed, lockstep" die:3:2 '^meshcast: exec: rank 3: step 2: died \(signal 9'
fault "rank killed, async" die:3:2 '^meshcast: exec: rank 3: step 2: died \(signal 9' --timing async
fault "rank hangs" hang:3:2 '^meshcast: exec: rank [0-9]+: step [0-9]+: timed out after 4 s.*furthest behind: rank 3, at step 2'
fault "wrong bytes" corrupt:0:1 '^meshcast: exec: rank [0-9]+: step [0-9]+: .*(differs|wrong bytes)'

# meshcast-mpi trusts nothing in its input: a real schedule caught on its way (a wrapper that
# keeps a copy), then broken: each refused with one line naming the byte, exit 2.
cat > "$TMPD/keep.sh" <<EOS
#!/bin/sh
for a; do last=\$a; done
cp "\$last" "$TMPD/s.bin"
exec "$MPI_BIN" "\$@"
EOS
chmod +x "$TMPD/keep.sh"
check_exit "schedule kept" 0 env MESHCAST_MPI="$TMPD/keep.sh" timeout $LIMIT "$MESHCAST" exec \
    --net array:4 --algo st --bytes 1K --reps 1
size=$(wc -c < "$TMPD/s.bin")
head -c $((size - 3)) "$TMPD/s.bin" > "$TMPD/cut.bin"
printf 'MCX2 this is not a schedule at all....................' > "$TMPD/junk.bin"
for f in cut junk; do
    check_exit "meshcast-mpi: $f refused" 2 timeout $LIMIT mpirun -np 4 --oversubscribe "$MPI_BIN" "$TMPD/$f.bin"
    check_match "meshcast-mpi: $f: one line" '^meshcast-mpi: ' "$(printf '%s\n' "$ERR" | grep meshcast-mpi)"
done
check_exit "meshcast-mpi: wrong rank count refused" 2 timeout $LIMIT mpirun -np 3 --oversubscribe "$MPI_BIN" "$TMPD/s.bin"
check_match "meshcast-mpi: rank count named" 'has 4 nodes but 3 ranks' "$ERR"
check_exit "meshcast-mpi: from a pipe" 0 sh -c "timeout $LIMIT mpirun -np 4 --oversubscribe '$MPI_BIN' --reps 1 - < '$TMPD/s.bin'"
check_match "meshcast-mpi: from a pipe: verified" '^verified yes$' "$OUT"

# SIGTERM (the screen's :exec cancelled; Ctrl-C sends SIGINT alike) ends the launcher and the
# ranks too, which run in their own process group: one line, exit 1, and the launcher gone.
"$MESHCAST" exec --net array:4 --algo st --bytes 4M --reps 100000 --timeout 600 \
    >"$TMPD/term.out" 2>"$TMPD/term.err" &
epid=$!
n=0; while [ $n -lt 300 ] && ! pgrep -P $epid >/dev/null 2>&1; do sleep 0.1; n=$((n + 1)); done
lpid=$(pgrep -P $epid | head -n 1)
sleep 2
kill -TERM $epid
n=0; while [ $n -lt 200 ] && kill -0 $epid 2>/dev/null; do sleep 0.1; n=$((n + 1)); done
if kill -0 $epid 2>/dev/null; then bad "SIGTERM: exec ends within 20 s"; kill -KILL $epid; else ok "SIGTERM: exec ends within 20 s"; fi
wait $epid; rc=$?
check_eq "SIGTERM: exit 1" 1 "$rc"
check_match "SIGTERM: one line" '^meshcast: exec: cancelled \(Terminated\): launcher and ranks killed$' "$(cat "$TMPD/term.err")"
if [ -n "$lpid" ] && kill -0 "$lpid" 2>/dev/null; then bad "SIGTERM: the launcher ($lpid) is gone"; else ok "SIGTERM: the launcher is gone"; fi

finish
