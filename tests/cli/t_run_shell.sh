#!/bin/sh
# tests/run-shell.sh (issue 21, tests): with file arguments it runs only those files (from the
# repository's top or from the current directory), with none every tests/{cli,lua,tui}/t_*.sh;
# its closing "shell: N passed, N failed" line is the one `make check` prints; a bad argument is
# one line on stderr and exit 2.  Run here on a scratch tree of three fake test files (the real
# suite would take minutes): t_a passes 2, t_b fails 1 of 3, t_c (tui) passes 1 in 2 s.
. "$(dirname "$0")/../lib.sh"
tree=$TMPD/tree
mkdir -p "$tree/tests/cli" "$tree/tests/tui" "$tree/tests/lua" "$tree/sub"
cp "$ROOT/tests/run-shell.sh" "$tree/tests/"
fake() { # fake FILE PASSED FAILED: a test file that prints its own summary and exits as lib.sh does
    printf '#!/bin/sh\necho "  ok   one"\necho "$(basename "$0"): %s passed, %s failed"\n[ %s -eq 0 ]\n' \
        "$2" "$3" "$3" >"$tree/$1"
}
fake tests/cli/t_a.sh 2 0
fake tests/cli/t_b.sh 2 1
fake tests/tui/t_c.sh 1 0
sed -i '2i sleep 2' "$tree/tests/tui/t_c.sh"   # the slowest (by 1 s at least, timed in seconds)
runner() { (cd "$1" && shift && MESHCAST_TEST_JOBS=2 sh "$tree/tests/run-shell.sh" "$@") >"$TMPD/out" 2>"$TMPD/err"; echo $?; }

rc=$(runner "$tree" tests/cli/t_a.sh)
check_eq "one file given: exit 0" 0 "$rc"
check_eq "one file given: only that file's total" "shell: 2 passed, 0 failed" "$(tail -n 1 "$TMPD/out")"
check_eq "one file given: only that file is run" "== tests/cli/t_a.sh" "$(grep '^== ' "$TMPD/out")"

rc=$(runner "$tree" tests/cli/t_a.sh tests/tui/t_c.sh)
check_eq "two passing files: exit 0" 0 "$rc"
check_eq "two passing files: their total" "shell: 3 passed, 0 failed" "$(tail -n 1 "$TMPD/out")"
check_eq "two passing files: printed in the order given" "== tests/cli/t_a.sh
== tests/tui/t_c.sh" "$(grep '^== ' "$TMPD/out")"

rc=$(runner "$tree/sub" ../tests/cli/t_b.sh)
check_eq "a failing file given from another directory: exit 1" 1 "$rc"
check_match "  its total" "^shell: 2 passed, 1 failed$" "$(cat "$TMPD/out")"
check_match "  the failing file named" "^failing files: tests/cli/t_b.sh$" "$(cat "$TMPD/out")"

rc=$(runner "$tree" "$tree/tests/cli/t_a.sh" tests/cli/t_a.sh)
check_eq "an absolute path, and a file given twice, runs once" "0 == tests/cli/t_a.sh" "$rc $(grep '^== ' "$TMPD/out")"

rc=$(runner "$tree")
check_eq "no file given: every file, exit 1 (t_b fails)" 1 "$rc"
check_eq "no file given: every file's total" "shell: 5 passed, 1 failed" "$(grep '^shell: ' "$TMPD/out")"
check_match "no file given: the files timed, slowest first" \
    "^slowest: tests/tui/t_c\.sh [2-9] s, tests/cli/t_[ab]\.sh [01] s, tests/cli/t_[ab]\.sh [01] s$" \
    "$(cat "$TMPD/out")"
check_eq "  just before the total" "shell" "$(grep -A1 '^slowest: ' "$TMPD/out" | sed -n '2s/:.*//p')"
check_eq "no file given: cli, lua, tui in that order" "== tests/cli/t_a.sh
== tests/cli/t_b.sh
== tests/tui/t_c.sh" "$(grep '^== ' "$TMPD/out")"

rc=$(runner "$tree" tests/cli/t_nope.sh)
check_eq "a missing file: exit 2" 2 "$rc"
check_eq "  one line on stderr, nothing run" "1 0" "$(wc -l <"$TMPD/err" | tr -d ' ') $(wc -c <"$TMPD/out" | tr -d ' ')"
rc=$(runner "$tree" tests/run-shell.sh)
check_eq "a file that is not a shell test: exit 2" 2 "$rc"
check_match "  one line on stderr" "not a shell test file" "$(cat "$TMPD/err")"
finish
