#!/bin/sh
# The asynchronous time line on the screen (asynctl.h): htree on torus:7x7 with B=auto, whose
# asynchronous time (2235 at the defaults) is not its lockstep cost, opened with --timing
# async: n/p/g/G move from moment to moment (transfers starting or ending), the title and
# the Step panel show the time, the map the circuits in flight then, the Timeline panel times
# instead of step numbers; :timing lockstep and A switch back and forth.  The times come from
# `run --timing async --json` and the schedule, never hard-coded.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"

ARGS="--net torus:7x7 --algo htree --model circuit --set B=auto --bytes 4096"
# shellcheck disable=SC2086
"$MESHCAST" run $ARGS --timing async --json >"$TMPD/a.run"
# shellcheck disable=SC2086
"$MESHCAST" schedule $ARGS --format json >"$TMPD/a.json"
async=$(fmt2 "$(jq .async_total "$TMPD/a.run")")
lock=$(fmt2 "$(jq .cost.total "$TMPD/a.run")")
check "async differs from lockstep here" test "$async" != "$lock"
first=$(jq '.steps[0].transfers | length' "$TMPD/a.json")
firstdst=$(jq '[.steps[0].transfers[].dst] | unique | length' "$TMPD/a.json")
map() { tm_cap | sed -n '4,40p' | cut -c1-135; }
tm_start 200 50
mc_start --ascii $ARGS --timing async
check_screen "opens on the time line at t=0" " t=0\\.00  0/[0-9]+ "
check_screen_fixed "the Step panel speaks of time" "Time 0.00 / $async units"
check_screen_fixed "at t=0 the first step's transfers start, all in flight" "timing async: $first start, 0 end, $first in flight"
check_eq "the map marks their destinations receiving" "$firstdst" "$(map | tr -cd '*' | wc -c | tr -d ' ')"
check_screen_fixed "the status line narrates the moment" \
    "t = 0.00 of $async units (moment 0/"
check_screen_fixed "... with the Step panel's counts" "): $first transfers start, 0 end, $first in flight"
check_screen_fixed "both totals beside" "Lockstep total"
check_eq "lockstep total" "$lock" "$(panel_value "Lockstep total")"
check_eq "asynchronous total" "$async" "$(panel_value "Asynchronous total")"
tm_keys n
check_screen "n: the next moment, a later time" " t=[1-9][0-9.]*  1/[0-9]+ "
tm_keys G
check_screen "G: the last moment is the asynchronous total" " t=$async  ([0-9]+)/\\1 "
check_screen_fixed "nothing in flight at the end" "0 start, "
check_screen_fixed "... and nothing left flying" " 0 in flight"
check_eq "no node receiving at the end" 0 "$(map | tr -cd '*' | wc -c | tr -d ' ')"
check_eq "every node holds every packet" 0 "$(map | tr -cd '.' | wc -c | tr -d ' ')"
last=$(tm_cap | head -n 1 | sed -n 's/.* t=[0-9.]*  \([0-9]*\)\/.*/\1/p')
tm_keys p
check_screen "p: back one moment, before the end" " t=[0-9.]+  $((last - 1))/$last "
check_nomatch "p: not the total any more" " t=$async " "$(tm_cap | head -n 1)"
# the Node panel on the time line: the cursor node's (the source's) transfers with times
src=$(jq .source "$TMPD/a.json")
nsrc=$(jq "[.steps[].transfers[] | select(.src == $src or .dst == $src)] | length" "$TMPD/a.json")
nsrc0=$(jq "[.steps[0].transfers[] | select(.src == $src)] | length" "$TMPD/a.json")
tm_keys g Tab Tab
check_screen "Node panel at t=0: the source, the moment's time" "Node .*  source  at t=0\.00"
check_screen_fixed "Node panel: start-end of its transfers" " start-end "
# as many of them as the panel has rows for, from the first (the panel follows the moment)
hdr=$(tm_cap | grep -n ' start-end ' | cut -d: -f1)
avail=$(( $(tm_cap | wc -l) - 2 - hdr ))
[ "$nsrc" -lt "$avail" ] && avail=$nsrc
check_eq "Node panel: the source's transfers listed, as many as fit" "$avail" \
    "$(tm_cap | grep -c 'sent \[[0-9-]*\] to ')"
check_eq "Node panel: those of step 1 in flight at t=0" "$nsrc0" \
    "$(tm_cap | grep -c '| >0\.00-[0-9.]*  sent')"
tm_keys G
check_screen_fixed "Node panel at the end: the source holds everything" "holds $(jq .chunks "$TMPD/a.run") of"
check_eq "Node panel at the end: nothing in flight" 0 "$(tm_cap | grep -c '| >[0-9.]*-[0-9.]*  sent')"
tm_keys Tab Tab
check_screen_fixed "back on the Step panel" "Asynchronous total"
tm_keys Tab
check_screen_fixed "the Timeline panel lists times" "time  start  end  in flight"
check_screen_fixed "and ends with the total" "async total $async over"
tm_keys g
check_screen "g: back to t=0" " t=0\\.00  0/"
tm_run ":timing lockstep"
check_screen ":timing lockstep: steps again" " step 0/[0-9]+ "
tm_keys A
check_screen "A: the time line again" " t=0\\.00  0/"
tm_run ":timing sideways"
check_screen_fixed ":timing with a bad word: a clear message" ":timing takes async or lockstep"
tm_keys q
mc_exit_ok "async time line"
finish
