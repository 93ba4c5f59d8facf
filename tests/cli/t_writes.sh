#!/bin/sh
# Lost writes (issue 8, finding 4): a write error on stdout is one clear line on stderr and a
# non-zero exit, for every command that prints, and formatting stops at the first failed
# write (checked with strace when it can trace: one or two write()s to stdout, not thousands).
. "$(dirname "$0")/../lib.sh"

[ -w /dev/full ] || { echo "t_writes.sh: no /dev/full, skipped"; finish; exit 0; }

full() {   # full DESC ARGS...: the command with stdout on /dev/full
    d=$1; shift
    "$MESHCAST" "$@" >/dev/full 2>"$TMPD/err"; rc=$?
    ERR=$(cat "$TMPD/err")
    check_eq "$d > /dev/full: exit 2" 2 "$rc"
    check_eq "$d > /dev/full: one line on stderr" 1 "$(printf '%s\n' "$ERR" | grep -c '')"
    check_match "$d > /dev/full: says why" '^meshcast: cannot write the output: No space left on device$' "$ERR"
}
full "check st"            check st --net array:8
full "check bst (sweep)"   check bst
full "run"                 run --net mesh:4x4 --algo st
full "run --json"          run --net mesh:4x4 --algo st --json
full "run --csv"           run --net mesh:4x4 --algo st --csv
full "schedule"            schedule --net mesh:4x4 --algo st
full "schedule --json"     schedule --net mesh:4x4 --algo st --json
full "schedule --csv"      schedule --net mesh:4x4 --algo st --csv
full "compare"             compare --net mesh:4x4
full "compare --json"      compare --net mesh:4x4 --json
full "list"                list
full "list algorithms"     list algorithms
full "list models"         list models
full "run --help"          run --help
full "check --help"        check --help
full "--help"              --help
full "--version"           --version
full "list --help"         list --help

# a failed write does not keep formatting: schedule of 65535 transfers, ~3 MB
if command -v strace >/dev/null 2>&1 && strace -o /dev/null true 2>/dev/null; then
    for fmt in text json csv; do
        strace -e trace=write -o "$TMPD/trace" "$MESHCAST" schedule --net array:65536 --algo st \
            --format $fmt >/dev/full 2>/dev/null
        n=$(grep -c '^write(1,' "$TMPD/trace")
        check "schedule --format $fmt > /dev/full: stops at the first failed write ($n writes)" \
            test "$n" -le 2
    done
else
    echo "  (strace cannot trace here: the stop-at-once check is skipped)"
fi
finish
