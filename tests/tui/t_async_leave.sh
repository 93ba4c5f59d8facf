#!/bin/sh
# Leaving the asynchronous time line (A) keeps the place (issue 23, minor): the position
# becomes the step containing the moment shown (the last step any of whose transfers has
# started by then), not step 0.  st on array:16 under seidel: every transfer costs b + m a
# and a step's senders are free and informed exactly when the step before ends, so the steps
# run one after another and the moments are 0, T, 2T, 3T, 4T: at moment i (0 < i < 4) step
# i+1 is in flight, at the last moment step 4 has ended.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
"$MESHCAST" schedule --net array:16 --algo st --format json >"$TMPD/st.json" ||
    { bad "schedule"; finish; exit 1; }
n=$(jq '.steps | length' "$TMPD/st.json")
check_eq "st on array:16: log2 16 steps" 4 "$n"
check_eq "one cost for every transfer" 1 "$(jq '[.steps[].cost.total] | unique | length' "$TMPD/st.json")"
for size in "80 24" "200 60"; do
    set -- $size
    tm_start "$1" "$2"
    mc_start --ascii --net array:16 --algo st
    check_screen "${1}x$2: steps" "step 0/$n " 20
    tm_keys A
    check_screen "${1}x$2: the time line, $n + 1 moments" "t=0.00  0/$n " 10
    tm_keys n; tm_keys n
    check_screen "${1}x$2: moment 2" " 2/$n " 10
    tm_keys A
    check_screen "${1}x$2: back to steps at step 3 (in flight at moment 2)" "step 3/$n " 10
    tm_keys A; tm_keys n
    check_screen "${1}x$2: moment 1 again" " 1/$n " 10
    tm_keys A
    check_screen "${1}x$2: back at step 2" "step 2/$n " 10
    tm_keys A; tm_keys G
    check_screen "${1}x$2: the last moment" " $n/$n " 10
    tm_keys A
    check_screen "${1}x$2: back at the last step" "step $n/$n " 10
    tm_keys A; tm_keys g
    check_screen "${1}x$2: moment 0" " 0/$n " 10
    tm_keys A
    check_screen "${1}x$2: moment 0 is before the first step" "step 0/$n " 10
    tm_keys q
    mc_exit_ok "${1}x$2"
done
finish
