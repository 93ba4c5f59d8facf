#!/bin/sh
# Usage: sh tests/run-shell.sh [FILE...]
# Run the shell test files given (paths from the repository's top or from the current
# directory), or, with none, every tests/{cli,lua,tui}/t_*.sh; each ends with
# "FILE: N passed, N failed".  Prints them all, in that order, and, last,
# "shell: N passed, N failed" over every file run (just before it, the five slowest files:
# "slowest: tests/tui/t_x.sh 40 s, ...").  A FILE that does not exist or is not a
# tests/{cli,lua,tui}/t_*.sh file: one line on stderr, exit 2, nothing run.
# The files run MESHCAST_TEST_JOBS at a time (default 2, the cores CI has): each has its own
# scratch directory and tmux server, and its output is printed whole when all are done.
top=$(cd "$(dirname "$0")/.." && pwd) || exit 2
files=""
for a in "$@"; do
    # a path given from the current directory or from the top: made relative to the top
    case $a in
        /*) p=$a ;;
        *) if [ -f "$a" ]; then p=$(cd "$(dirname "$a")" && pwd)/$(basename "$a"); else p=$top/$a; fi ;;
    esac
    case $p in
        "$top"/tests/cli/t_*.sh | "$top"/tests/lua/t_*.sh | "$top"/tests/tui/t_*.sh) ;;
        *) echo "run-shell.sh: not a shell test file (tests/{cli,lua,tui}/t_*.sh): $a" >&2; exit 2 ;;
    esac
    [ -f "$p" ] || { echo "run-shell.sh: no such test file: $a" >&2; exit 2; }
    case " $files " in *" ${p#"$top"/} "*) ;; *) files="$files ${p#"$top"/}" ;; esac
done
cd "$top" || exit 2
if [ $# -eq 0 ]; then
    for f in tests/cli/t_*.sh tests/lua/t_*.sh tests/tui/t_*.sh; do
        [ -f "$f" ] && files="$files $f"
    done
fi
JOBS=${MESHCAST_TEST_JOBS:-2}
res=$(mktemp -d) || exit 2
trap 'rm -rf "$res"' EXIT
# the screen tests first: they are the longest, so the two lanes end together
printf '%s\n' $files | awk '/^tests\/tui\//{print; next} {rest[++n]=$0} END{for(i=1;i<=n;i++) print rest[i]}' |
    xargs -P "$JOBS" -I{} sh -c 'n=$(printf %s "$1" | tr / _); t0=$(date +%s); sh "$1" >"$0/$n.out" 2>&1; echo $? >"$0/$n.rc"; echo $(( $(date +%s) - t0 )) "$1" >"$0/$n.sec"' "$res" {}
pass=0; fail=0; skipped=0; badfiles=""
for f in $files; do
    n=$(printf %s "$f" | tr / _)
    echo "== $f"
    out=$(cat "$res/$n.out" 2>/dev/null); rc=$(cat "$res/$n.rc" 2>/dev/null || echo 1)
    printf '%s\n' "$out" | grep -vE '^  ok '
    line=$(printf '%s\n' "$out" | grep -E '^[^ ]+: [0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' | tail -n 1)
    p=$(printf '%s' "$line" | sed -n 's/.*: \([0-9]*\) passed.*/\1/p')
    fl=$(printf '%s' "$line" | sed -n 's/.* \([0-9]*\) failed.*/\1/p')
    sk=$(printf '%s' "$line" | sed -n 's/.* \([0-9]*\) skipped$/\1/p')
    pass=$((pass + ${p:-0})); fail=$((fail + ${fl:-0})); skipped=$((skipped + ${sk:-0}))
    if [ "$rc" != 0 ]; then
        badfiles="$badfiles $f"
        [ -z "$line" ] && fail=$((fail + 1))
    fi
done
# the five slowest files, with their wall seconds (they ran JOBS at a time)
cat "$res"/*.sec 2>/dev/null | sort -rn | head -n 5 |
    awk '{ s = s (NR > 1 ? ", " : "") $2 " " $1 " s" } END { if (NR) print "slowest: " s }'
if [ "$skipped" -gt 0 ]; then
    echo "shell: $pass passed, $fail failed, $skipped skipped"
else
    echo "shell: $pass passed, $fail failed"
fi
[ -z "$badfiles" ] || { echo "failing files:$badfiles"; exit 1; }
