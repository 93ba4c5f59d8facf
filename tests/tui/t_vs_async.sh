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
# The halves are split by a bar, the side panel beyond another: "LEFT|RIGHT|PANEL".
# the header of the right half ("LABEL  t=T  K/N  of TOTAL"), of the screen read last
# ($SCREEN, from check_screen) or, with no argument, of a new capture
right() { { [ "${1:-}" = last ] && printf '%s\n' "$SCREEN" || tm_cap; } | sed -n 2p | cut -d'|' -f2 | sed 's/ *$//'; }
# the chunks the right half's map shows missing ('.'); wait_dots OP N polls (60 s) until that
# count is OP N: the header matched first may be drawn before the map's lines are (under load
# a capture can fall between them)
dots() { tm_cap | sed -n '3,40p' | cut -d'|' -f2 | tr -cd '.' | wc -c | tr -d ' '; }
wait_dots() {
    _n=600
    while [ "$_n" -gt 0 ]; do
        [ "$(dots)" "$1" "$2" ] && return 0
        sleep 0.1; _n=$((_n - 1))
    done
    return 1
}
tm_start 200 50
# shellcheck disable=SC2086
mc_start --ascii $ARGS --set B=256 --timing async
# (the waits are long: a sanitized build on a loaded machine is slow; they end as soon as
# what they wait for is on the screen)
check_screen "opens on the time line" " t=0\\.00  0/[0-9]+ " 60
tm_run ":vs B=128"
check_screen "the first half at t=0" "^dc  t=0\\.00  0/[0-9]+  of $t256 " 60
check_screen "the second half at t=0, with its own total" "\\|B=128  t=0\\.00  0/[0-9]+  of $t128 *(\\||\$)" 60
tm_keys n
# both headers of one frame: the first's moved on, the second's drawn beside it
check_screen "n: the first moves on" "^dc  t=[1-9][0-9.]*  1/.*\\|B=128  t=[0-9.]+  [0-9]+/[0-9]+  of $t128" 60
t1=$(printf '%s\n' "$SCREEN" | sed -n 2p | sed -n 's/^dc  t=\([0-9.]*\) .*/\1/p')
r1=$(right last | sed -n 's/.* t=\([0-9.]*\) .*/\1/p')
check "... and the second shows a moment not after it" \
    awk -v a="$r1" -v b="$t1" 'BEGIN { exit !(a <= b) }'
tm_keys G
check_screen "G: the first at its end" "^dc  t=$t256  ([0-9]+)/\\1  of $t256 " 60
check_screen "the second, done sooner, at its own end" "\\|B=128  t=$t128  ([0-9]+)/\\1  of $t128 *(\\||\$)" 60
check "every node of the second holds everything" wait_dots -eq 0
tm_run ":vs B=1024"
check_screen "the second rebuilt: B=1024, at the first's time" "\\|B=1024  t=[0-9.]+  [0-9]+/[0-9]+  of $t1024 *(\\||\$)" 60
r=$(right last)
rt=$(printf '%s\n' "$r" | sed -n 's/.* t=\([0-9.]*\) .*/\1/p')
rk=$(printf '%s\n' "$r" | sed -n 's/.* \([0-9]*\)\/[0-9]*  of .*/\1/p')
rn=$(printf '%s\n' "$r" | sed -n 's/.* [0-9]*\/\([0-9]*\)  of .*/\1/p')
check "... not after it" awk -v a="$rt" -v b="$t256" 'BEGIN { exit !(a <= b) }'
check "... and short of its own end" test "$rk" -lt "$rn"
check "... with chunks still missing there" wait_dots -gt 0
tm_keys g
check_screen "g: both at t=0" "\\|B=1024  t=0\\.00  0/" 60
tm_run ":timing lockstep"
check_screen ":timing lockstep: both halves in steps" "\\|B=1024  0/[0-9]+  step " 60
tm_keys A
check_screen "A: both on the time line again" "\\|B=1024  t=0\\.00  0/" 60
tm_run ":vs off"
check_screen_fixed "one broadcast again" "one broadcast again" 60
check_screen "the time line stays on" " t=0\\.00  0/[0-9]+ " 60
tm_keys q
mc_exit_ok "side by side on the time line"
finish
