#!/bin/sh
# Side by side on the time line (asynctl.h, vs.h): dc on torus:8x8 with B=256 opened with
# --timing async, then `:vs B=128` and `:vs B=1024`: both halves show the same instant, each
# at the latest of its own moments not after the first's time; n/p/g/G move the first, the
# second follows.  The totals come from `run --timing async --json`, never hard-coded.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"

ARGS="--net torus:8x8 --algo dc --model circuit --bytes 2048"
total() {
    # shellcheck disable=SC2086
    fmt2 "$("$MESHCAST" run $ARGS --set B="$1" --timing async --json | jq .async_total)"
}
t256=$(total 256)
t128=$(total 128)
t1024=$(total 1024)
check "the second with B=128 ends first, with B=1024 last" \
    awk -v a="$t128" -v b="$t256" -v c="$t1024" 'BEGIN { exit !(a < b && b < c) }'
# the header of the right half: "LABEL  t=T  K/N  of TOTAL"
right() { tm_cap | sed -n 2p | sed 's/.*|//'; }
# the chunks the right half's map shows missing ('.'); wait_dots OP N polls (15 s) until that
# count is OP N: the header matched first may be drawn before the map's lines are (under load
# a capture can fall between them)
dots() { tm_cap | sed -n '3,40p' | sed 's/^[^|]*|//' | tr -cd '.' | wc -c | tr -d ' '; }
wait_dots() {
    _n=150
    while [ "$_n" -gt 0 ]; do
        [ "$(dots)" "$1" "$2" ] && return 0
        sleep 0.1; _n=$((_n - 1))
    done
    return 1
}
tm_start 200 50
# shellcheck disable=SC2086
mc_start --ascii $ARGS --set B=256 --timing async
check_screen "opens on the time line" " t=0\\.00  0/[0-9]+ "
tm_run ":vs B=128"
check_screen "the first half at t=0" "^dc  t=0\\.00  0/[0-9]+  of $t256 "
check_screen "the second half at t=0, with its own total" "\\|B=128  t=0\\.00  0/[0-9]+  of $t128\$"
tm_keys n
check_screen "n: the first moves on" "^dc  t=[1-9][0-9.]*  1/"
t1=$(tm_cap | sed -n 2p | sed -n 's/^dc  t=\([0-9.]*\) .*/\1/p')
r1=$(right | sed -n 's/.* t=\([0-9.]*\) .*/\1/p')
check "... and the second shows a moment not after it" \
    awk -v a="$r1" -v b="$t1" 'BEGIN { exit !(a <= b) }'
tm_keys G
check_screen "G: the first at its end" "^dc  t=$t256  ([0-9]+)/\\1  of $t256 "
check_screen "the second, done sooner, at its own end" "\\|B=128  t=$t128  ([0-9]+)/\\1  of $t128\$"
check "every node of the second holds everything" wait_dots -eq 0
tm_run ":vs B=1024"
check_screen "the second rebuilt: B=1024, at the first's time" "\\|B=1024  t=[0-9.]+  [0-9]+/[0-9]+  of $t1024\$"
r=$(right)
rt=$(printf '%s\n' "$r" | sed -n 's/.* t=\([0-9.]*\) .*/\1/p')
rk=$(printf '%s\n' "$r" | sed -n 's/.* \([0-9]*\)\/[0-9]*  of .*/\1/p')
rn=$(printf '%s\n' "$r" | sed -n 's/.* [0-9]*\/\([0-9]*\)  of .*/\1/p')
check "... not after it" awk -v a="$rt" -v b="$t256" 'BEGIN { exit !(a <= b) }'
check "... and short of its own end" test "$rk" -lt "$rn"
check "... with chunks still missing there" wait_dots -gt 0
tm_keys g
check_screen "g: both at t=0" "\\|B=1024  t=0\\.00  0/"
tm_run ":timing lockstep"
check_screen ":timing lockstep: both halves in steps" "\\|B=1024  0/[0-9]+  step "
tm_keys A
check_screen "A: both on the time line again" "\\|B=1024  t=0\\.00  0/"
tm_run ":vs off"
check_screen_fixed "one broadcast again" "one broadcast again"
check_screen "the time line stays on" " t=0\\.00  0/[0-9]+ "
tm_keys q
mc_exit_ok "side by side on the time line"
finish
