#!/bin/sh
# t_limits.sh — hostile scripts (issue 8, findings 1, 2 and the script messages of 6): a
# script stops within its wall-clock limit whatever it does — a finalizer that never returns
# (at the top level, or on the table build returns), a __close that never returns, a pattern
# that backtracks for hours, utf8.len on 100 MB, == on two 50 MB strings, a plain find in a
# loop, a 50,000-interval send in a loop — through run, check and list; the C memory a script
# causes (labels, local operations, empty steps) counts against its one memory cap, refused
# with file and line; and the messages name the right thing.  The limits are set small here
# ($MESHCAST_LUA_SECONDS, $MESHCAST_LUA_MEMORY) to keep this file fast.
. "$(dirname "$0")/../lib.sh"
L=$ROOT/tests/lua
cd "$TMPD" || exit 2
export MESHCAST_LUA_SECONDS=1
TO="timeout 30"   # a hang (the bug) fails the check instead of the suite

start=$(date +%s)
# --- finding 1: time limits that cannot be escaped
check_exit "__gc loop at the top level: run stops (exit 2)" 2 $TO "$MESHCAST" run --net array:4 --algo "$L/hostile_gc_top.lua"
check_match "__gc loop: the time limit, named with its variable" \
    "hostile_gc_top.lua.*stopped: time limit of 1 s used up .*MESHCAST_LUA_SECONDS" "$ERR"
check_exit "__gc loop on the returned table: run prints its result and ends (exit 0)" 0 $TO "$MESHCAST" run --net array:4 --algo "$L/hostile_gc_build.lua"
check_match "__gc on the table: the result was printed" "verified: +yes" "$OUT"
check_exit "__close loop: stopped (exit 1)" 1 $TO "$MESHCAST" run --net array:4 --algo "$L/hostile_close.lua"
check_match "__close loop: file, line and phase" "hostile_close.lua:5: in build: stopped: time limit" "$ERR"
check_exit "a lazy pattern over 10^5 bytes: stopped" 1 $TO "$MESHCAST" run --net array:4 --algo "$L/hostile_pattern.lua"
check_match "pattern: in build, stopped" "hostile_pattern.lua.* in build: stopped: time limit" "$ERR"
check_exit "a back-reference pattern: stopped" 1 $TO "$MESHCAST" run --net array:4 --bytes 2048 --algo "$L/hostile_pattern.lua"
for b in 1 2 3; do
    what=$(case $b in 1) echo "utf8.len of 100 MB";; 2) echo "== of two 50 MB strings";; 3) echo "a plain find in a loop";; esac)
    check_exit "$what: stopped" 1 $TO "$MESHCAST" run --net array:4 --bytes $b --algo "$L/hostile_big_calls.lua"
    check_match "$what: the time limit" "in build: stopped: time limit of 1 s" "$ERR"
done
check_exit "a 50,000-interval send in a loop: stopped" 1 $TO "$MESHCAST" run --net array:4 --algo "$L/hostile_sends.lua"
check_match "sends: file and line" "hostile_sends.lua:[0-9]+: in build(, step 1)?: stopped" "$ERR"
check_exit "check: __gc loop at the top level (exit 2)" 2 $TO "$MESHCAST" check "$L/hostile_gc_top.lua" --net array:4
check_match "check: the time limit" "stopped: time limit" "$ERR"
check_exit "check: a pattern bomb is a script error (exit 2)" 2 $TO "$MESHCAST" check "$L/hostile_pattern.lua" --net array:4
check_match "check: names the net and the limit" "array:4 source 0: .*stopped: time limit" "$ERR"
mkdir -p "$TMPD/path/scripts" && cp "$L/hostile_gc_top.lua" "$TMPD/path/scripts/zz-gc.lua"
MESHCAST_PATH=$TMPD/path check_exit "list algorithms: a hanging script on the path is listed as refused" 0 $TO "$MESHCAST" list algorithms
check_match "list: says why" "zz-gc +refused: .*stopped: time limit" "$OUT"
MESHCAST_LUA_SECONDS=5 check_exit "ordinary scripts are untouched by the limits" 0 $TO "$MESHCAST" check "$ROOT/scripts/st.lua" --net array:16
el=$(( $(date +%s) - start ))
[ "$el" -lt 60 ] && ok "every hostile script stopped (${el}s in all)" || bad "hostile scripts took ${el}s"

# --- finding 2: one memory cap for Lua and C
export MESHCAST_LUA_MEMORY=32 MESHCAST_LUA_SECONDS=20
check_exit "20,000 labels of 1 MB: stopped at the cap" 1 $TO "$MESHCAST" run --net array:4 --algo "$L/hostile_labels.lua"
check_match "labels: file, line, the cap" "hostile_labels.lua:6: in build, step [0-9]+: stopped: memory cap of 32 MiB exceeded" "$ERR"
check_exit "10^8 local operations: stopped at the cap" 1 $TO "$MESHCAST" run --net array:4 --algo "$L/hostile_permute.lua"
check_match "permute: file, line, the cap" "hostile_permute.lua:6: in build, step 1: stopped: memory cap of 32 MiB" "$ERR"
check_exit "2^24 empty steps: stopped at the cap" 1 $TO "$MESHCAST" run --net array:4 --algo "$L/hostile_steps.lua"
check_match "steps: file, line, the cap" "hostile_steps.lua:5: in build: stopped: memory cap of 32 MiB" "$ERR"
unset MESHCAST_LUA_MEMORY

# --- finding 6: the script messages
check_exit "sched:at(1e8)" 1 "$MESHCAST" run --net array:4 --algo "$L/bad_at_huge.lua"
check_match "at: a size limit, not numbering" "bad_at_huge.lua:4: in build: at\\(100000000\\): a schedule has at most 16777216 steps" "$ERR"
check_exit "params = { nu = 3 }" 2 "$MESHCAST" run --net array:4 --algo "$L/bad_params_nu.lua"
check_match "params nu: names the parameter" "params: 'nu' is given to every script \\(p.nu\\)" "$ERR"
check_exit "a predict that raises: run fails (exit 1)" 1 "$MESHCAST" run --net array:4 --algo "$L/bad_predict_error.lua"
check_match "predict error: file, line, phase" "bad_predict_error.lua:9: in predict: attempt to index a nil value" "$ERR"
check_nomatch "predict error: not 'no closed form'" "no closed form" "$OUT$ERR"
check_exit "check: a predict that raises is a script error" 2 "$MESHCAST" check "$L/bad_predict_error.lua" --net array:4
check_match "check: predict error named" "in predict: attempt to index" "$ERR"
check_exit "sizes returns \"yes\"" 2 "$MESHCAST" run --net array:4 --algo "$L/bad_sizes_truthy.lua"
check_match "sizes \"yes\": a mistake, said so" "in sizes: sizes must return true, or false and a reason \\(got string\\)" "$ERR"
check_exit "sizes returns 1: the same" 2 "$MESHCAST" run --net array:4 --bytes 2048 --algo "$L/bad_sizes_truthy.lua"
check_match "sizes 1: the same message" "sizes must return true, or false and a reason \\(got number\\)" "$ERR"
# MESHCAST_PATH entries that mean the current directory are not searched
mkdir -p "$TMPD/here/sub" && cp "$ROOT/scripts/st.lua" "$TMPD/here/zz-here.lua"
cd "$TMPD/here" || exit 2
for e in "." ".//" "./" "$TMPD/here/." "$TMPD/here/sub/.." "sub/.." ""; do
    MESHCAST_PATH=$e check_exit "MESHCAST_PATH='$e' does not search the current directory" 2 "$MESHCAST" run --net array:4 --algo zz-here
done
MESHCAST_PATH=$TMPD/here check_exit "an absolute directory is searched" 0 "$MESHCAST" run --net array:4 --algo zz-here

finish
