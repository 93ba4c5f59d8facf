# tests/lib.sh — sourced by every tests/*/t_*.sh.  Each check prints "ok" or "FAIL" with its
# description; `finish` prints the file's "N passed, N failed" and sets the exit status.
MESHCAST=${MESHCAST:-$(cd "$(dirname "$0")/../.." && pwd)/build-san/meshcast}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
T_PASS=0; T_FAIL=0; T_SKIP=0
TMPD=$(mktemp -d); trap 'rm -rf "$TMPD"' EXIT

# skip DESC WHY  — a check that cannot run here (counted as skipped, the reason printed)
skip() { T_SKIP=$((T_SKIP + 1)); printf '  skip %s: %s\n' "$1" "$2"; }
ok()   { T_PASS=$((T_PASS + 1)); printf '  ok   %s\n' "$1"; }
bad()  { T_FAIL=$((T_FAIL + 1)); printf '  FAIL %s\n' "$1"; [ -n "${2:-}" ] && printf '       %s\n' "$2"; return 0; }

# check DESC CMD...   — passes if CMD exits 0
check() { d=$1; shift; if "$@" >/dev/null 2>&1; then ok "$d"; else bad "$d" "command failed: $*"; fi; }
# check_eq DESC EXPECTED ACTUAL
check_eq() { if [ "$2" = "$3" ]; then ok "$1"; else bad "$1" "expected [$2] got [$3]"; fi; }
# check_match DESC REGEX TEXT   (grep -E)
check_match() { if printf '%s\n' "$3" | grep -Eq -- "$2"; then ok "$1"; else bad "$1" "no match for /$2/ in: $(printf '%s' "$3" | head -c 400)"; fi; }
check_nomatch() { if printf '%s\n' "$3" | grep -Eq -- "$2"; then bad "$1" "unexpected /$2/ in: $(printf '%s' "$3" | head -c 400)"; else ok "$1"; fi; }
# check_exit DESC CODE CMD...  — passes if CMD exits with CODE (stdout/stderr kept in $OUT/$ERR)
check_exit() {
    d=$1; want=$2; shift 2
    "$@" >"$TMPD/out" 2>"$TMPD/err"; got=$?
    OUT=$(cat "$TMPD/out"); ERR=$(cat "$TMPD/err")
    if [ "$got" = "$want" ]; then ok "$d"; else bad "$d" "exit $got, wanted $want: $(head -c 300 "$TMPD/err")"; fi
}
# A float comparison to a relative tolerance (default 1e-9): check_close DESC A B [TOL]
check_close() {
    if awk -v a="$2" -v b="$3" -v t="${4:-1e-9}" 'BEGIN { d = a - b; if (d < 0) d = -d; m = (a < 0 ? -a : a); if (m < 1) m = 1; exit !(d <= t * m) }'; then
        ok "$1"; else bad "$1" "expected $3 got $2"; fi
}
finish() {
    if [ "$T_SKIP" -gt 0 ]; then
        echo "$(basename "$0"): $T_PASS passed, $T_FAIL failed, $T_SKIP skipped"
    else
        echo "$(basename "$0"): $T_PASS passed, $T_FAIL failed"
    fi
    [ "$T_FAIL" -eq 0 ]
}
