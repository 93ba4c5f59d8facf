#!/bin/sh
# meshcast advise: the winner found by search is no dearer than any algorithm's default run
# (compare, an independent command, prices those); its cost is what `run` of that algorithm
# with those parameters gives; the margin is (runner-up - best) / best; bad input.
. "$(dirname "$0")/../lib.sh"

for case in "mesh:4x4 65536 seidel" "full:16 1048576 postal" "array:16 1024 seidel"; do
    set -- $case
    check_exit "advise $1 $2 $3" 0 "$MESHCAST" advise --net "$1" --bytes "$2" --model "$3" --json
    a=$OUT
    best=$(printf '%s' "$a" | jq .cost)
    name=$(printf '%s' "$a" | jq -r .best)
    check_exit "compare $1 $2" 0 "$MESHCAST" compare --net "$1" --bytes "$2:$2" --model "$3" --json
    low=$(printf '%s' "$OUT" | jq '[.algorithms[] | select(.ok[0]) | .cost[0]] | min')
    if awk -v b="$best" -v l="$low" 'BEGIN { exit !(b <= l * (1 + 1e-12)) }'; then
        ok "advise $1 $2: best $best <= every default ($low)"; else bad "advise $1 $2: best $best > default $low"; fi
    # run the winner with its parameters: the same cost
    sets=$(printf '%s' "$a" | jq -r '.params | select(. != "(no parameters)")' | tr ' ' '\n' | sed 's/^/--set /' | tr '\n' ' ')
    # shellcheck disable=SC2086
    check_exit "run the winner $name $sets" 0 "$MESHCAST" run --net "$1" --algo "$name" --bytes "$2" --model "$3" $sets --json
    check_close "advise $1 $2: run gives the same cost" "$(printf '%s' "$OUT" | jq .cost.total)" "$best"
    r=$(printf '%s' "$a" | jq .runner_up_cost)
    m=$(printf '%s' "$a" | jq .margin_percent)
    check_close "advise $1 $2: margin" "$m" "$(awk -v b="$best" -v r="$r" 'BEGIN { printf "%.12g", (r - b) / b * 100 }')" 1e-6
done
check_exit "advise: no --net" 2 "$MESHCAST" advise --bytes 1K
check_exit "advise: bad --bytes" 2 "$MESHCAST" advise --net mesh:4x4 --bytes 0
check_exit "advise: algorithm parameter in --set" 2 "$MESHCAST" advise --net mesh:4x4 --set s=4
check_exit "advise: text" 0 "$MESHCAST" advise --net mesh:4x4 --bytes 1K
check_match "advise: text names best and runner-up" '^best: .*\n?' "$OUT"
check_match "advise: runner-up line" '^runner-up: .*% slower\)$' "$OUT"

# --exec: the winner and the runner-up run on MPI ranks; agrees = the measured winner is the
# simulated one (measured medians compared here, independently).
MPI_BIN=$(dirname "$MESHCAST")/meshcast-mpi
if ! command -v mpirun >/dev/null 2>&1 || [ ! -x "$MPI_BIN" ]; then
    skip "advise --exec" "no mpirun or $MPI_BIN (make deps, then make)"
else
    [ "$(id -u)" = 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    check_exit "advise --exec" 0 timeout 120 "$MESHCAST" advise --net array:4 --bytes 1K --exec --reps 2 --json
    if printf '%s' "$OUT" | jq -e '.exec.best_measured > 0 and .exec.runner_up_measured > 0 and
        .exec.agrees == (.exec.best_measured <= .exec.runner_up_measured)' >/dev/null 2>&1; then
        ok "advise --exec: measured both, agreement consistent"; else bad "advise --exec: measured both" "$OUT $ERR"; fi
fi
finish
