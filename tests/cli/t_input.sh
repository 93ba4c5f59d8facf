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

finish
