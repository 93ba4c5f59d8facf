#!/bin/sh
# meshcast schedule: text, JSON and CSV describe the same transfers as run.
. "$(dirname "$0")/../lib.sh"

for case in "array:16 st" "array:16 bst" "mesh:16x32 bst" "mesh:8x8 rh" "array:13 st"; do
    set -- $case
    net=$1; algo=$2
    "$MESHCAST" run --net "$net" --algo "$algo" --bytes 4096 --json >"$TMPD/run.json" 2>/dev/null
    n=$(jq -r .transfers "$TMPD/run.json")
    steps=$(jq -r .steps "$TMPD/run.json")
    check_exit "$net $algo: schedule --format json" 0 "$MESHCAST" schedule --net "$net" --algo "$algo" --bytes 4096 --format json
    printf '%s\n' "$OUT" >"$TMPD/s.json"
    check_eq "$net $algo: json transfers = run's" "$n" "$(jq -r .transfers "$TMPD/s.json")"
    check_eq "$net $algo: json steps sum to transfers" "$n" "$(jq -r '[.steps[].transfers | length] | add // 0' "$TMPD/s.json")"
    check_eq "$net $algo: json step count" "$steps" "$(jq -r '.steps | length' "$TMPD/s.json")"
    check_close "$net $algo: json total = run's" "$(jq -r .total "$TMPD/s.json")" "$(jq -r .cost.total "$TMPD/run.json")"
    check_eq "$net $algo: json bytes carried match chunks" "true" "$(jq -r '[.steps[].transfers[] | .hops >= 1 and .bytes >= 0 and (.chunks | length) >= 1] | all' "$TMPD/s.json")"
    check_exit "$net $algo: schedule --format csv" 0 "$MESHCAST" schedule --net "$net" --algo "$algo" --bytes 4096 --format csv
    printf '%s\n' "$OUT" >"$TMPD/s.csv"
    check_eq "$net $algo: csv header" "step,kind,src,dst,chunks,bytes,hops,route,load,cost" "$(head -n 1 "$TMPD/s.csv")"
    check_eq "$net $algo: csv send rows = transfers" "$n" "$(grep -c '^[0-9]*,send,' "$TMPD/s.csv")"
    check_eq "$net $algo: csv bytes = json bytes" "$(jq -r '[.steps[].transfers[].bytes] | add // 0' "$TMPD/s.json")" \
        "$(awk -F, 'NR > 1 && $2 == "send" { s += $(NF-4) } END { print s + 0 }' "$TMPD/s.csv" 2>/dev/null)"
    check_exit "$net $algo: schedule text" 0 "$MESHCAST" schedule --net "$net" --algo "$algo" --bytes 4096
    check_eq "$net $algo: text lists every transfer" "$n" "$(printf '%s\n' "$OUT" | grep -c ' -> ')"
    check_eq "$net $algo: text lists every step" "$steps" "$(printf '%s\n' "$OUT" | grep -c '^step ')"
    check_exit "$net $algo: --json is --format json" 0 "$MESHCAST" schedule --net "$net" --algo "$algo" --bytes 4096 --json
    check_eq "$net $algo: same output" "$(cat "$TMPD/s.json")" "$OUT"
done
check_exit "run --csv" 0 "$MESHCAST" run --net array:16 --algo st --csv
check_match "run --csv header" '^step,label,transfers,tcd' "$OUT"
check_eq "run --csv: one row per step and a total" 6 "$(printf '%s\n' "$OUT" | grep -c .)"
finish
