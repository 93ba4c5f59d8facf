#!/bin/sh
# Bad input, no guard, misleading messages (issue 8, findings 5 and 6, and issue 9 defect 13):
# every refusal is one line on stderr and exit 2, at once (each command under a time limit).
. "$(dirname "$0")/../lib.sh"

tm() { timeout 20 "$MESHCAST" "$@"; }
refused() {   # refused DESC REGEX ARGS...
    d=$1; re=$2; shift 2
    check_exit "$d: exit 2" 2 tm "$@"
    check_eq "$d: one line on stderr" 1 "$(printf '%s\n' "$ERR" | grep -c '')"
    check_match "$d: says so" "$re" "$ERR"
    check_eq "$d: nothing on stdout" "" "$OUT"
}

# ---- finding 5: check has a work budget, like compare ------------------------------------
refused "check --max-sources 16777216 on array:16777216" \
    "over check's work budget of 67108864: --max-sources 4 fits" \
    check st --max-sources 16777216 --net array:16777216
refused "check: many big nets" "over check's work budget.*--max-sources 1 fits" \
    check st --net array:16777216 --net array:16777216 --net array:16777216 --max-sources 2
refused "check: too many nodes even from one source" "even from one source each" \
    check st --net array:16777216 --net array:16777216 --net array:16777216 \
    --net array:16777216 --net array:16777216
check_exit "check within the budget still runs" 0 tm check st --net array:64 --max-sources 64

# ---- finding 6: non-finite results are refused, compare names no winner --------------------
refused "--set a=1e308 (run)"      "not a finite number" run --net mesh:8x8 --algo st --set a=1e308
refused "--set b=1e308 (schedule)" "not a finite number" schedule --net mesh:8x8 --algo st --set b=1e308
refused "--set a=1e308 (compare)"  "not a finite number" compare --net mesh:8x8 --set a=1e308
refused "--set a=1e307 (compare, some sizes)" "at [0-9]+ bytes: the cost on mesh:8x8 is not a finite" \
    compare --net mesh:8x8 --set a=1e307 --json
refused "--set tau=1e308 (circuit)" "not a finite number" run --net mesh:8x8 --algo st \
    --model circuit --set tau=1e308
check_exit "no 'null us' anywhere" 2 tm run --net mesh:8x8 --algo st --set a=1e308
check_nomatch "no 'null'" null "$OUT$ERR"

# ---- finding 6: too large is too large, not "not positive" ----------------------------------
refused "--bytes 2^64"        "too large"          run --net array:8 --algo st --bytes 18446744073709551616
refused "--bytes 99999999999999999999" "too large" run --net array:8 --algo st --bytes 99999999999999999999
refused "--bytes 17179869184G" "too large"         run --net array:8 --algo st --bytes 17179869184G
refused "--bytes 0"           "at least 1 byte"    run --net array:8 --algo st --bytes 0
refused "--bytes -1"          "at least 1 byte"    run --net array:8 --algo st --bytes -1
refused "--set a=1e400"       "'1e400' for a: too large" run --net array:8 --algo st --set a=1e400
refused "--max-sources 1e99"  "expected a number"  check st --max-sources 1e99
refused "--max-sources 99999999999999999999" "too large" check st --max-sources 99999999999999999999
refused "check --bytes 2^64"  "too large"          check st --bytes 18446744073709551616
good() { check_exit "$1: exit 0" 0 tm "$@"; }

# ---- finding 6: --source -0 --------------------------------------------------------------
refused "--source -0"         "'-0': node ids are not negative" run --net array:8 --algo st --source -0
refused "--source -0 (mesh)"  "'-0': node ids are not negative" run --net mesh:4x4 --algo st --source -0

# ---- finding 6: one number parser: blanks and hex refused by every option -----------------
for opt in "--source" "--bytes" "--set a=" "--set s=" "--net array:"; do
    for v in " 3" "3 " "0x10" "+3" "1e1 "; do
        case $opt in
            --set*) set -- run --net array:16 --algo chain "${opt% *}" "${opt#* }$v" ;;
            "--net array:") set -- run --algo st --net "array:$v" ;;
            *) set -- run --net array:16 --algo chain "$opt" "$v" ;;
        esac
        check_exit "$opt'$v': refused" 2 tm "$@"
        check_match "$opt'$v': one line naming it" "'[^']*$(printf '%s' "$v" | sed 's/[+.]/\\&/g')'" "$ERR"
    done
done
for v in " 64" "+64" "0x40" "64 "; do
    check_exit "tradeoff --p '$v': refused" 2 tm tradeoff --p "$v"
done
for v in " 4:8" "+4:8" "4: 8" "4:8 " "0x4:8"; do
    check_exit "tradeoff --kt '$v': refused" 2 tm tradeoff --kt "$v"
done
for v in 3 3.5 .5 1e1 1E+1 0.0; do
    check_exit "--set a=$v accepted" 0 tm run --net array:16 --algo st --set "a=$v"
done
check_exit "--source 3 accepted" 0 tm run --net array:16 --algo st --source 3
check_exit "--source (1,2) accepted" 0 tm run --net mesh:4x4 --algo st --source "(1,2)"
check_exit "--source 1,2 accepted" 0 tm run --net mesh:4x4 --algo st --source 1,2
refused "--source '1, 2'"     "'1, 2'" run --net mesh:4x4 --algo st --source "1, 2"

# ---- issue 9 defect 13: unitless models print costs in model units, not us ----------------
for m in postal circuit saf; do
    check_exit "run --model $m" 0 tm run --net mesh:4x4 --algo st --model $m
    check_match "run --model $m: cost in units" '^cost: +[0-9.]+ units  \(' "$OUT"
    check_nomatch "run --model $m: no 'us'" '[0-9] us' "$OUT"
    check_exit "schedule --model $m" 0 tm schedule --net array:8 --algo st --model $m
    check_match "schedule --model $m: total in units" 'total [0-9.]+ units,' "$OUT"
    check_nomatch "schedule --model $m: no 'us'" '[0-9] us' "$OUT"
    check_exit "compare --model $m" 0 tm compare --net array:8 --model $m
    check_match "compare --model $m: in units" 'simulated cost in units$' "$OUT"
done
check_exit "run --model postal on full:8 (bounds)" 0 tm run --net full:8 --algo bintree --model postal
check_match "run --model postal on full:8: bounds in units" '^bounds: .* units$' "$OUT"
check_exit "run (seidel)" 0 tm run --net mesh:4x4 --algo st
check_match "run (seidel): cost in us" '^cost: +[0-9.]+ us  \(' "$OUT"
check_match "run (seidel): predicted in us" '^predicted: +[0-9.]+ us  \(' "$OUT"

finish
