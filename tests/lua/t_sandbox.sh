#!/bin/sh
# t_sandbox.sh — scripts that try what the sandbox forbids are refused with a clear message,
# no effect, and no crash or hang: os.execute, io.open, bytecode, endless loops (even behind
# pcall), allocating without end, errors inside build, the wrong shape, stale handles,
# builder misuse; a send of a chunk not held is a verification failure (exit 1).
. "$(dirname "$0")/../lib.sh"
L=$ROOT/tests/lua
cd "$TMPD" || exit 2

# os.execute: refused, and the file it would have made does not exist
check_exit "os.execute is refused (run exits 1)" 1 "$MESHCAST" run --net array:4 --algo "$L/bad_os_execute.lua"
check_match "os.execute: message names the file, line and what" \
    "bad_os_execute.lua:6: in build: os.execute is not available in the meshcast sandbox" "$ERR"
[ ! -e /tmp/meshcast-pwned ] && ok "os.execute had no effect" || bad "os.execute had no effect"

check_exit "io.open is refused (exit 2: the script cannot be loaded)" 2 "$MESHCAST" run --net array:4 --algo "$L/bad_io_open.lua"
check_match "io.open: clear message" "bad_io_open.lua:2: io.open is not available in the meshcast sandbox" "$ERR"

check_exit "string.dump is refused" 2 "$MESHCAST" run --net array:4 --algo "$L/bad_dump.lua"
check_match "string.dump: clear message" "string.dump is not available" "$ERR"
check_exit "load of a binary chunk is refused" 2 "$MESHCAST" run --net array:4 --algo "$L/bad_bytecode.lua"
check_match "binary load: clear message" "binary chunks \\(bytecode\\) are refused" "$ERR"
# a precompiled file given as the script itself
printf '\033LuaT\000\031\223\r\n\032\n' > "$TMPD/pre.lua"
check_exit "a precompiled script file is refused" 2 "$MESHCAST" run --net array:4 --algo "$TMPD/pre.lua"
check_match "precompiled file: clear message" "precompiled \\(binary\\) chunk" "$ERR"

check_exit "require of another module is refused" 2 "$MESHCAST" run --net array:4 --algo "$L/bad_require.lua"
check_match "require: clear message" "only require \"meshcast\"" "$ERR"

# an endless loop, even one that tries to swallow the stop with pcall: stopped, quickly
start=$(date +%s)
MESHCAST_LUA_INSTRUCTIONS=20000000 check_exit "an endless loop is stopped" 1 "$MESHCAST" run --net array:4 --algo "$L/bad_loop.lua"
check_match "endless loop: clear message" "bad_loop.lua:6: in build: stopped: instruction budget" "$ERR"
# the default budget stops it too (a few seconds)
check_exit "an endless loop is stopped under the default budget" 1 "$MESHCAST" run --net array:4 --algo "$L/bad_loop.lua"
el=$(( $(date +%s) - start ))
[ "$el" -lt 60 ] && ok "endless loops stopped in ${el}s" || bad "endless loops took ${el}s"
MESHCAST_LUA_INSTRUCTIONS=1000000 check_exit "an endless metamethod on the returned table is stopped" 2 \
    "$MESHCAST" run --net array:4 --algo "$L/bad_meta_table.lua"
check_match "metamethod loop: clear message" "stopped: instruction budget" "$ERR"

MESHCAST_LUA_INSTRUCTIONS=20000000 check_exit "work done in C counts against the budget" 1 \
    timeout 120 "$MESHCAST" run --net array:20000 --algo "$L/bad_c_loop.lua"
check_match "C work: clear message" "bad_c_loop.lua:8: in build, step 1: stopped: instruction budget" "$ERR"

MESHCAST_LUA_MEMORY=32 check_exit "allocating without end is stopped" 1 "$MESHCAST" run --net array:4 --algo "$L/bad_alloc.lua"
check_match "memory: clear message" "in build: stopped: memory cap of 32 MiB exceeded" "$ERR"

check_exit "an error inside build" 1 "$MESHCAST" run --net array:4 --algo "$L/bad_build_error.lua"
check_match "build error names file, line and step" \
    "bad_build_error.lua:10: in build, step 3: attempt to index a nil value \\(local 'q'\\)" "$ERR"
check_exit "check: an error inside build is a script error (exit 2)" 2 "$MESHCAST" check "$L/bad_build_error.lua"
check_match "check: build error names net and source" "array:2 source 0: .*bad_build_error.lua:10: in build, step 3" "$ERR"

check_exit "builder misuse (node outside the net)" 1 "$MESHCAST" run --net array:8 --algo "$L/bad_send_args.lua"
check_match "builder misuse: clear message" "bad_send_args.lua:6: in build, step 2: send: node 99 is outside array:8" "$ERR"

check_exit "an explicit route that ends elsewhere" 1 "$MESHCAST" run --net ring:8 --algo "$L/bad_route.lua"
check_match "bad route: clear message" "bad_route.lua:5: in build, step 1: send 0->1: the route ends at node 3" "$ERR"

check_exit "wrong shape (a list)" 2 "$MESHCAST" run --net array:4 --algo "$L/bad_shape.lua"
check_match "wrong shape: clear message" "bad_shape.lua: the returned table needs name" "$ERR"
check_exit "wrong shape (nets not a list)" 2 "$MESHCAST" check "$L/bad_shape2.lua"
check_match "wrong shape 2: clear message" "nets must be a list of net kinds" "$ERR"

check_exit "a handle kept past its call fails loudly" 2 "$MESHCAST" check "$L/bad_stale_handle.lua" --net array:4
check_match "stale handle: clear message" "in chunks: this schedule is no longer being built" "$ERR"
check_exit "metatables are locked" 1 "$MESHCAST" run --net array:4 --algo "$L/bad_gmeta.lua"

# a string pattern that would backtrack for hours inside one C call is refused, not run
check_exit "a catastrophic string pattern is refused" 2 timeout 60 "$MESHCAST" run --net array:4 --algo "$L/bad_pattern.lua"
check_match "pattern: clear message" "bad_pattern.lua:3: string.find: pattern refused in the meshcast sandbox" "$ERR"
check_exit "(\"\"):rep(2^60) is stopped at once" 2 timeout 60 "$MESHCAST" run --net array:4 --algo "$L/bad_rep.lua"
check_match "rep: clear message" "bad_rep.lua:3: stopped: instruction budget" "$ERR"
check_exit "table.move over 2^50 slots is stopped at once" 1 timeout 60 "$MESHCAST" run --net array:4 --algo "$L/bad_move.lua"
check_match "move: clear message" "bad_move.lua:5: in build: stopped: instruction budget" "$ERR"
check_exit "table.remove on a table whose __len is 2^60 is stopped at once" 1 timeout 60 "$MESHCAST" run --net array:4 --algo "$L/bad_len.lua"
check_match "__len: clear message" "bad_len.lua:7: in build: stopped: instruction budget" "$ERR"
check_exit "ordinary string, table, math, utf8, load work" 0 "$MESHCAST" check "$L/ok_patterns.lua" --net array:4

# a chunk sent by a node that does not hold it: a verification failure
check_exit "run: a send of a chunk not held exits 1" 1 "$MESHCAST" run --net array:4 --algo "$L/bad_not_held.lua"
check_match "run: names step, node and chunk" "step 1: node 1 sends chunk 0 it does not hold" "$OUT$ERR"
check_exit "check: a send of a chunk not held exits 1" 1 "$MESHCAST" check "$L/bad_not_held.lua" --net mesh:4x4
check_match "check: the first failure exactly" "FAIL mesh:4x4 source 0: delivery: step 1: node \\(0,1\\) sends chunk 0 it does not hold" "$OUT"
check_match "check: the table shows it unverified" "mesh:4x4 +16 +0/16" "$OUT"

finish
