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
