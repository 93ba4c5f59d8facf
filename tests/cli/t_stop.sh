#!/bin/sh
# s-to-p broadcasting from the command line: --sources (distributions and lists), run --json's
# sources and informed counts, list distributions, and bad --sources (exit 2, one line).
. "$(dirname "$0")/../lib.sh"

bad_sources() {   # bad_sources DESC REGEX ARGS...
    d=$1; re=$2; shift 2
    check_exit "$d: exit 2" 2 "$MESHCAST" "$@"
    check_eq "$d: one line on stderr" 1 "$(printf '%s\n' "$ERR" | grep -c .)"
    check_match "$d: names the problem" "$re" "$ERR"
    check_nomatch "$d: no sanitizer report" 'runtime error|AddressSanitizer|LeakSanitizer' "$ERR"
}

bad_sources "s = 0"          "1\.\.100"  run --net mesh:10x10 --algo br-lin --sources R:0
bad_sources "s > p"          "1\.\.100"  run --net mesh:10x10 --algo br-lin --sources E:101
bad_sources "unknown dist"   "unknown distribution" run --net mesh:10x10 --algo br-lin --sources Q:3
bad_sources "duplicate node" "twice"     run --net mesh:10x10 --algo br-lin --sources 3,7,3
bad_sources "outside node"   "'100'"     run --net mesh:10x10 --algo br-lin --sources 5,100
bad_sources "outside coords" "10,1"      run --net mesh:10x10 --algo br-lin --sources "1,1;10,1"
bad_sources "empty item"     "empty"     run --net mesh:10x10 --algo br-lin --sources 1,,2
bad_sources "3-D net"        "1-D and 2-D" run --net mesh:4x4x4 --algo br-lin --sources R:3
bad_sources "one-source algo" "s-to-p"   run --net mesh:10x10 --algo st --sources R:20
bad_sources "both options"   "exclude"   run --net mesh:10x10 --algo br-lin --source 3 --sources R:2

check_exit "run --json with Dr:10" 0 "$MESHCAST" run --net mesh:10x10 --algo br-xy-source \
    --sources Dr:10 --json
check_match "sources are the main diagonal" '"sources":\[0,11,22,33,44,55,66,77,88,99\]' "$OUT"
check_match "distribution named" '"distribution":"Dr:10"' "$OUT"
check_match "informed per step" '"informed":\[10,20,40,80,100,100,100,100,100\]' "$OUT"
check_match "every message --bytes long" '"message_bytes":1024,' "$OUT"

check_exit "R:20 br-xy-source: no new sources in the first iteration" 0 "$MESHCAST" run \
    --net mesh:10x10 --algo br-xy-source --sources R:20 --json
check_match "informed 20 then 20" '"informed":\[20,20,' "$OUT"

check_exit "one source from the list is an ordinary broadcast" 0 "$MESHCAST" run \
    --net mesh:8x8 --algo st --sources 9 --json
check_match "source 9" '"source":9,' "$OUT"

check_exit "text names the sources" 0 "$MESHCAST" run --net mesh:7x13 --algo part-xy-source \
    --sources X:30
check_match "30 sources (X:30)" 'from 30 sources \(X:30\)' "$OUT"

check_exit "list distributions" 0 "$MESHCAST" list distributions
for k in R Ri C E Dr Dl B X SB; do
    check_match "lists $k" "^$k:S " "$OUT"
done
# compare --sources: the paper's figures as tables
check_exit "Fig. 5 table" 0 "$MESHCAST" compare --net mesh:10x10 \
    --sources R:30,X:30,SB:30 --bytes 4K --algos br-lin,br-xy-source --json
check_match "three rows" '"sources":"R:30".*"sources":"X:30".*"sources":"SB:30"' "$OUT"
# Section 4 / Fig. 5: the cross is bad for br-xy-source, and Br_Lin beats it there
xb=$(printf '%s' "$OUT" | jq '.rows[1].cost["br-xy-source"]')
xl=$(printf '%s' "$OUT" | jq '.rows[1].cost["br-lin"]')
rb=$(printf '%s' "$OUT" | jq '.rows[0].cost["br-xy-source"]')
check "cross costs br-xy-source more than rows" awk -v a="$xb" -v b="$rb" 'BEGIN{exit !(a > b)}'
check "br-lin beats br-xy-source on the cross" awk -v a="$xl" -v b="$xb" 'BEGIN{exit !(a < b)}'
check_exit "Fig. 8 relative" 0 "$MESHCAST" compare --net mesh:16x16 --sources X:60,B:60 \
    --bytes 6K --algos br-xy-source,repos-xy-source --relative br-xy-source --json
xp=$(printf '%s' "$OUT" | jq '.rows[0].percent["repos-xy-source"]')
bp=$(printf '%s' "$OUT" | jq '.rows[1].percent["repos-xy-source"]')
check "repositioning pays on the cross" awk -v a="$xp" 'BEGIN{exit !(a > 10)}'
check "repositioning costs on the band" awk -v a="$bp" 'BEGIN{exit !(a < 0)}'
check_exit "Fig. 6 total fixed" 0 "$MESHCAST" compare --net mesh:10x10 --sources Dr --s 5:40:35 \
    --total 80K --algos br-xy-source --csv
check_match "80K over 5 sources" 'Dr:5,5,16384,' "$OUT"
check_match "80K over 40 sources" 'Dr:40,40,2048,' "$OUT"
# the table's header names the model's unit (us only under seidel)
check_exit "compare --sources, seidel" 0 "$MESHCAST" compare --net mesh:4x4 --sources X:4 \
    --bytes 1K --algos br-lin
check_match "seidel: cost in us" '^s-to-p compare, model seidel, .*simulated cost in us$' "$OUT"
check_exit "compare --sources, postal" 0 "$MESHCAST" compare --net mesh:4x4 --sources X:4 \
    --bytes 1K --algos br-lin --model postal
check_match "postal: cost in units" '^s-to-p compare, model postal, .*simulated cost in units$' "$OUT"
check_exit "compare --timing async" 0 "$MESHCAST" compare --net mesh:10x10 --sources X:30 \
    --bytes 4K --algos br-xy-source,repos-xy-source --timing async --json
ax=$(printf '%s' "$OUT" | jq '.rows[0].cost["br-xy-source"]')
check_exit "the same lockstep" 0 "$MESHCAST" compare --net mesh:10x10 --sources X:30 \
    --bytes 4K --algos br-xy-source --json
lx=$(printf '%s' "$OUT" | jq '.rows[0].cost["br-xy-source"]')
check "async is not lockstep's price" awk -v a="$ax" -v b="$lx" 'BEGIN{exit !(a > 0 && a != b)}'
check_exit "run --timing async with sources" 0 "$MESHCAST" run --net mesh:10x10 \
    --algo br-xy-source --sources Dr:10 --timing async
check_match "async total shown" 'timing: +async: [0-9.]+ us' "$OUT"
bad_sources "compare: bad timing" "timing" compare --net mesh:10x10 --sources R:3 --timing soon
bad_sources "compare: kind without s" "no s" compare --net mesh:10x10 --sources E
bad_sources "compare: bad kind" "distribution" compare --net mesh:10x10 --sources Q:3
# Lua: a script with stop = true reads the sources and the distribution, gives chunks to any
# node with sched:give, and the shipped stop-ring script verifies on every distribution
cat >"$TMPD/give.lua" <<'LUA'
return {
  name = "give-test", summary = "reads p.sources, gives, sends everything directly",
  nets = { "mesh" }, stop = true, chunks = 1,
  build = function(sched, net, p, source)
    assert(#p.sources == 7 and p.distribution == "E", "sources " .. #p.sources)
    local order = sched:sources()
    assert(#order == 7, "sched:sources")
    sched:give(99, { 0 })            -- node 99 holds message 0 from the start too
    local st = sched:step("everyone sends")
    for j, src in ipairs(order) do
      for n = 0, net:size() - 1 do
        if n ~= src and not (n == 99 and j == 1) then st:send(src, n, { j - 1 }) end
      end
    end
  end,
}
LUA
check_exit "a Lua s-to-p script with sched:give" 0 "$MESHCAST" run --net mesh:10x10 \
    --algo "$TMPD/give.lua" --sources E:7 --json
check_match "the given node is a holder at the start" '"sources":\[0,14,28,42,57,71,85,99\]' "$OUT"
check_match "informed from 8" '"informed":\[8,100\]' "$OUT"
for d in R:30 X:30 SB:30 Dl:7 E:91; do
    check_exit "stop-ring.lua on mesh:7x13 $d" 0 "$MESHCAST" run --net mesh:7x13 \
        --algo "$ROOT/scripts/stop-ring.lua" --sources "$d"
done
finish
