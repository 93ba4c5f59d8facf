#!/bin/sh
# meshcast compare --exec: every algorithm run on real MPI ranks at every size, measured beside
# the model's price, with the predicted and the measured crossovers side by side.  The
# predicted figures are checked against Seidel's closed forms worked out here (Table I, array:4,
# d = 2, nu = 0: ST d(ma+b) = 2(ma+b); BST (2 + (d-3)/2)ma + (d+1)b = 1.5ma + 3b), so bst beats
# st from the first m with 0.5ma > b: m > b/(0.5a) = 1875 bytes at a = 0.08, b = 75.
. "$(dirname "$0")/../lib.sh"

check_exit "--bisect without --exec: usage" 2 "$MESHCAST" compare --net array:4 --bisect 3
check_exit "--bisect out of range: usage" 2 "$MESHCAST" compare --exec --net array:4 --bisect 99
check_exit "--np other than the nodes: usage" 2 "$MESHCAST" compare --exec --net array:4 --np 5
check_exit "--terms with --exec: usage" 2 "$MESHCAST" compare --exec --net array:4 --terms
check_exit "no meshcast-mpi: exit 2" 2 env MESHCAST_MPI=/nonexistent/meshcast-mpi \
    "$MESHCAST" compare --exec --net array:4 --algo st,bst --bytes 1K
check_match "no meshcast-mpi: names the packages" '^meshcast: .*openmpi-bin.*libopenmpi-dev' "$ERR"
check_eq "no meshcast-mpi: one line" 1 "$(printf '%s\n' "$ERR" | wc -l)"

# The work budget: (algorithms x sizes + 64 bisection runs with --bisect) x nodes rank-runs
# over 262144 is refused at once, before anything is built or launched, with what fits
# (a huge net used to start a build of every algorithm and an MPI run of a rank a node).
check_exit "mesh:1024x1024: refused at once" 2 timeout 10 "$MESHCAST" compare --exec --net mesh:1024x1024
check_match "... over the work budget, in rank-runs" "over the work budget of 262144 rank-runs" "$ERR"
check_match "... and not one size fits" "not one size fits" "$ERR"
check_eq "... in one line" 1 "$(printf '%s\n' "$ERR" | wc -l)"
# mesh:64x32, 4 algorithms, 8:8M (21 sizes): 2048 ranks a launch, 262144 / 2048 = 128 launches,
# 64 for the bisections, (128 - 64) / 4 = 16 sizes: 8 .. 8 * 2^15
fit=$(awk 'BEGIN { print int((int(262144 / 2048) - 64) / 4) }')
last=$(awk -v k="$fit" 'BEGIN { printf "%d", 8 * 2 ^ (k - 1) }')
check_exit "mesh:64x32, 4 algorithms at 21 sizes: refused" 2 env MESHCAST_MPI=/nonexistent/meshcast-mpi \
    "$MESHCAST" compare --exec --net mesh:64x32 --algo st,bst,rh,chain --bytes 8:8M
check_match "... (21 x 4 + 64) x 2048 ranks; at most $fit sizes (--bytes 8:$last)" \
    "\\(21 sizes x 4 algorithms \\+ 64 bisection runs\\) x 2048 ranks .* at most $fit sizes fit \\(e\\.g\\. --bytes 8:$last\\)" "$ERR"
check_exit "... --bytes 8:$last fits (then: no meshcast-mpi)" 2 env MESHCAST_MPI=/nonexistent/meshcast-mpi \
    "$MESHCAST" compare --exec --net mesh:64x32 --algo st,bst,rh,chain --bytes "8:$last"
check_nomatch "... not the budget" "work budget" "$ERR"
check_match "... but the missing meshcast-mpi" "meshcast-mpi" "$ERR"
check_exit "... and 8:$((last * 2)) does not" 2 env MESHCAST_MPI=/nonexistent/meshcast-mpi \
    "$MESHCAST" compare --exec --net mesh:64x32 --algo st,bst,rh,chain --bytes "8:$((last * 2))"
check_match "... over the budget" "work budget" "$ERR"
# mesh:64x64: 4096 ranks, 64 launches, all for the bisections; without them 14 x 3 = 42 fit
check_exit "mesh:64x64, 3 algorithms at 14 sizes: refused" 2 env MESHCAST_MPI=/nonexistent/meshcast-mpi \
    "$MESHCAST" compare --exec --net mesh:64x64 --algo st,bst,rh
check_match "... with --bisect 0 it fits" "with --bisect 0 it fits" "$ERR"

MPI_BIN=$(dirname "$MESHCAST")/meshcast-mpi
if ! command -v mpirun >/dev/null 2>&1 || [ ! -x "$MPI_BIN" ]; then
    skip "MPI runs" "no mpirun or no $MPI_BIN (make deps, then make)"
    finish; exit $?
fi
if [ "$(id -u)" = 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
LIMIT=300

check_exit "st vs bst on array:4, 3 sizes: exit 0" 0 timeout $LIMIT "$MESHCAST" compare --exec \
    --net array:4 --algo st,bst --bytes 1K:4K --reps 2 --bisect 2 --timeout 30 --json
J=$OUT
check_eq "sizes" "[1024,2048,4096]" "$(printf '%s' "$J" | jq -c .sizes)"
check_eq "algorithms" "st,bst" "$(printf '%s' "$J" | jq -r '[.algorithms[].name] | join(",")')"
check_eq "ranks" 4 "$(printf '%s' "$J" | jq .ranks)"
check_eq "reps" 2 "$(printf '%s' "$J" | jq .reps)"
check_eq "table runs: 2 algorithms x 3 sizes" 6 "$(printf '%s' "$J" | jq .table_runs)"
# Seidel's closed forms, computed here with awk
a=0.08; b=75
for m in 1024 2048 4096; do
    i=$(printf '%s' "$J" | jq "[.sizes[]] | index($m)")
    st=$(awk -v m=$m -v a=$a -v b=$b 'BEGIN{printf "%.6f", 2*(m*a+b)}')
    bst=$(awk -v m=$m -v a=$a -v b=$b 'BEGIN{printf "%.6f", 1.5*m*a+3*b}')
    check_close "st predicted at $m = 2(ma+b)" "$st" "$(printf '%s' "$J" | jq ".algorithms[0].predicted[$i]")"
    check_close "bst predicted at $m = 1.5ma+3b" "$bst" "$(printf '%s' "$J" | jq ".algorithms[1].predicted[$i]")"
    # and run prints the same price
    check_close "st predicted at $m = run's price" "$st" "$("$MESHCAST" run --net array:4 --algo st --bytes $m --json | jq .cost.total)"
done
check_eq "every measured figure positive and verified" true "$(printf '%s' "$J" | jq \
    '[.algorithms[] | (.measured[] > 0), (.verified[] == true), (.spread[] >= 0)] | all')"
first=$(awk -v a=$a -v b=$b 'BEGIN{m=int(b/(0.5*a))+1; print m}')
check_eq "predicted crossover: bst beats st from $first bytes (bisected to the byte)" \
    "bst st $first $first" "$(printf '%s' "$J" | jq -r '.crossovers.predicted[] | select(.winner=="bst") | "\(.winner) \(.loser) \(.from) \(.exact)"')"
# measured crossovers (whatever this loaded machine measures): each inside its sampled bracket,
# at most 2 steps = 4 runs each, the runs counted
check_eq "measured crossovers: bracket inside the samples, runs bounded and counted" true \
    "$(printf '%s' "$J" | jq '[.crossovers.measured[] | (.sampled_after <= .after and .after < .from and .from <= .sampled_from and .bisection_steps <= 2 and .runs == 2 * .bisection_steps)] | all')"
check_eq "bisection runs = the sum over measured crossovers" \
    "$(printf '%s' "$J" | jq '[.crossovers.measured[].runs] | add // 0')" "$(printf '%s' "$J" | jq .bisection_runs)"

check_exit "text" 0 timeout $LIMIT "$MESHCAST" compare --exec --net array:4 --algo st,bst \
    --bytes 1K:2K --reps 1 --bisect 0
check_match "text: header" '^ +bytes +st meas +st pred +bst meas +bst pred +winner meas/pred$' "$OUT"
check_match "text: a row per size" '^ +2048 +[0-9.]+ +477\.68 +[0-9.]+ +470\.76 +[a-z]+/bst$' "$OUT"
check_match "text: predicted crossover" 'predicted: bst beats st from 1876 bytes' "$OUT"
check_match "text: measurements said" '^measurements: 4 table runs \+ 0 bisection runs, 1 reps each' "$OUT"
check_exit "csv" 0 timeout $LIMIT "$MESHCAST" compare --exec --net array:4 --algo st,bst --bytes 1K --reps 1 --csv
check_eq "csv: header" "bytes,algo,measured_us,spread_us,predicted_us,verified,winner_measured,winner_predicted" \
    "$(printf '%s\n' "$OUT" | head -n 1)"
check_match "csv: bst row, its price" '^1024,bst,[0-9.]+,0,347\.88,1,[01],0$' "$OUT"
finish
