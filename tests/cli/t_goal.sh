#!/bin/sh
# GOAL (LogGOPSim's schedule language) in and out: schedgen's own files read, verified and
# priced against the model's formulas; the round trip; --map; malformed files refused with
# their line.  The .goal files under tests/data/goal/ were written by LogGOPSim's schedgen
# (binomialtreebcast -s 16 -d 1024; pipelinedringdep -s 8 -d 4096 --segmentsize 1024;
# binarytreebcast -s 16 -d 1024), built by hand from github.com/spcl/LogGOPSim.
. "$(dirname "$0")/../lib.sh"
D=$ROOT/tests/data/goal
A=0.08; B=75      # Seidel's a (us/byte) and b (us), given explicitly below
K="--set a=$A --set b=$B --set nu=0"

# Binomial broadcast on full:16 (any to any, no contention): log2(16) = 4 rounds, each one
# message of M bytes per sender, so 4 * (a*M + b).
check_exit "binomial16 on full:16 runs" 0 "$MESHCAST" run --net full:16 --algo "$D/binomial16.goal" $K --json
printf '%s\n' "$OUT" >"$TMPD/bin.json"
check_eq "binomial16: verified" true "$(jq -r .verified "$TMPD/bin.json")"
check_eq "binomial16: 4 steps" 4 "$(jq -r .steps "$TMPD/bin.json")"
check_eq "binomial16: 15 transfers" 15 "$(jq -r .transfers "$TMPD/bin.json")"
check_eq "binomial16: the file's 1024 bytes" 1024 "$(jq -r .bytes "$TMPD/bin.json")"
check_close "binomial16: cost 4(aM+b)" "$(jq -r .cost.total "$TMPD/bin.json")" \
    "$(awk -v a=$A -v b=$B 'BEGIN { printf "%.12g\n", 4 * (a * 1024 + b) }')"
# --bytes scales the file's chunks
check_exit "binomial16 --bytes 64K" 0 "$MESHCAST" run --net full:16 --algo "$D/binomial16.goal" $K --bytes 64K --json
check_close "binomial16 at 64K: 4(a*65536+b)" "$(printf '%s' "$OUT" | jq -r .cost.total)" \
    "$(awk -v a=$A -v b=$B 'BEGIN { printf "%.12g\n", 4 * (a * 65536 + b) }')"

# Pipelined ring (schedgen's pipelinedringdep): 8 ranks on array:8, 4 segments of 1024 B:
# a pipelined chain, (P - 1) + (k - 1) = 10 steps of one segment each.
check_exit "ring8 on array:8 runs" 0 "$MESHCAST" run --net array:8 --algo "$D/ring8-dep.goal" $K --json
printf '%s\n' "$OUT" >"$TMPD/ring.json"
check_eq "ring8: verified" true "$(jq -r .verified "$TMPD/ring.json")"
check_eq "ring8: 4 chunks" 4 "$(jq -r .chunks "$TMPD/ring.json")"
check_eq "ring8: 10 steps" 10 "$(jq -r .steps "$TMPD/ring.json")"
check_close "ring8: cost 10(a*1024+b)" "$(jq -r .cost.total "$TMPD/ring.json")" \
    "$(awk -v a=$A -v b=$B 'BEGIN { printf "%.12g\n", 10 * (a * 1024 + b) }')"

# schedgen's binary tree: node i sends to 2i+1, then 2i+2, one send per step, as soon as it
# holds the message: node 2i+1 has it t(i)+1 steps in, 2i+2 at t(i)+2; the steps are the
# largest t over the 16 nodes.
check_exit "bintree16 on full:16 runs" 0 "$MESHCAST" run --net full:16 --algo "$D/bintree16.goal" $K --json
check_eq "bintree16: verified" true "$(printf '%s' "$OUT" | jq -r .verified)"
check_eq "bintree16: steps = max t" \
    "$(awk 'BEGIN { t[0] = 0; m = 0; for (i = 0; i < 16; i++) { if (2*i+1 < 16) t[2*i+1] = t[i] + 1; if (2*i+2 < 16) t[2*i+2] = t[i] + 2 } for (i = 0; i < 16; i++) if (t[i] > m) m = t[i]; print m }')" \
    "$(printf '%s' "$OUT" | jq -r .steps)"

# Round trip: read schedgen's binomial, write it as GOAL, read that back: same cost, both
# verified, on a mesh where contention counts too.
for net in mesh:4x4 full:16 array:16; do
    check_exit "$net: schedule --format goal" 0 "$MESHCAST" schedule --net $net --algo "$D/binomial16.goal" $K --format goal
    printf '%s\n' "$OUT" >"$TMPD/rt.goal"
    check_eq "$net: written file has 15 sends" 15 "$(grep -c ': send ' "$TMPD/rt.goal")"
    check_eq "$net: and 15 recvs" 15 "$(grep -c ': recv ' "$TMPD/rt.goal")"
    c1=$("$MESHCAST" run --net $net --algo "$D/binomial16.goal" $K --json | jq -r .cost.total)
    check_exit "$net: the written file reads back" 0 "$MESHCAST" run --net $net --algo "$TMPD/rt.goal" $K --json
    check_eq "$net: read back verified" true "$(printf '%s' "$OUT" | jq -r .verified)"
    check_close "$net: same cost both ways" "$(printf '%s' "$OUT" | jq -r .cost.total)" "$c1"
done
# Any meshcast schedule goes out and comes back verified (chunks in the tags).
for case in "mesh:8x8 bst" "mesh:8x8 st" "array:16 rh" "mesh:4x4 chain"; do
    set -- $case
    check_exit "$1 $2: --format goal" 0 "$MESHCAST" schedule --net $1 --algo $2 --bytes 4K --format goal
    printf '%s\n' "$OUT" >"$TMPD/x.goal"
    n=$("$MESHCAST" run --net $1 --algo $2 --bytes 4K --json | jq -r .bytes_moved)
    check_exit "$1 $2: read back" 0 "$MESHCAST" run --net $1 --algo "$TMPD/x.goal" --json
    check_eq "$1 $2: read back verified" true "$(printf '%s' "$OUT" | jq -r .verified)"
    check_eq "$1 $2: same bytes moved" "$n" "$(printf '%s' "$OUT" | jq -r .bytes_moved)"
done

# check and compare take the file too
check_exit "check FILE.goal --net full:16" 0 "$MESHCAST" check "$D/binomial16.goal" --net full:16 --net mesh:4x4
check_match "check: full:16 verified, valid, 4 steps" '^full:16 +1 +1/1 +1/1 +4 ' "$OUT"
# the file fixes its source: one case per net, and nothing said to be sampled
check_nomatch "check: a GOAL file's one source is not 'sampled'" 'sampled|a sample of sources' "$OUT"
check_match "check: every case of both nets" '^2 of 2 nets verified and valid in every case$' "$OUT"
check_exit "check FILE.goal without --net: exit 2" 2 "$MESHCAST" check "$D/binomial16.goal"
check_exit "compare --algo FILE.goal" 0 "$MESHCAST" compare --net full:16 --algo "$D/binomial16.goal" $K --bytes 1024:4096 --json
check_close "compare: the GOAL entry's cost at 1024" \
    "$(printf '%s' "$OUT" | jq -r '.algorithms[] | select(.name == "binomial16.goal") | .cost[0]')" \
    "$(awk -v a=$A -v b=$B 'BEGIN { printf "%.12g\n", 4 * (a * 1024 + b) }')"
seq 0 15 >"$TMPD/id.map"
check_exit "compare --map without --algo: exit 2" 2 "$MESHCAST" compare --net full:16 --map "$TMPD/id.map"
check_match "compare --map: says why" 'applies to a GOAL file' "$ERR"

# --map: ranks in reverse on array:16, so rank 0 (the source) is node 15.
seq 15 -1 0 >"$TMPD/rev.map"
check_exit "--map reversed" 0 "$MESHCAST" run --net array:16 --algo "$D/binomial16.goal" --map "$TMPD/rev.map" --json
check_eq "--map: source is node 15" 15 "$(printf '%s' "$OUT" | jq -r .source)"
check_eq "--map: verified" true "$(printf '%s' "$OUT" | jq -r .verified)"
printf '0 1 2\n3 3\n' >"$TMPD/dup.map"
check_exit "--map with a node twice: exit 2" 2 "$MESHCAST" run --net array:16 --algo "$D/binomial16.goal" --map "$TMPD/dup.map"
check_match "--map: names the line" 'dup.map:2: node 3 given twice' "$ERR"
check_exit "--map without a GOAL file: exit 2" 2 "$MESHCAST" run --net array:16 --algo st --map "$TMPD/rev.map"
check_exit "16 ranks on 8 nodes: exit 2" 2 "$MESHCAST" run --net array:8 --algo "$D/binomial16.goal"
check_match "names both sizes" '16 ranks but array:8 has 8 nodes' "$ERR"
check_exit "--source against the file: exit 2" 2 "$MESHCAST" run --net array:16 --algo "$D/binomial16.goal" --source 3

# Malformed files: exit 2 and one line naming the file's line.
bad() { # FILE NRANKS LINE TEXT
    check_exit "$1: exit 2" 2 "$MESHCAST" run --net array:$2 --algo "$D/bad/$1"
    check_match "$1: line $3, $4" "^meshcast: .*$1:$3: .*$4" "$ERR"
    check_eq "$1: one line" 1 "$(printf '%s\n' "$ERR" | grep -c .)"
}
bad no-b.goal 2 4 "expected 'b'"
bad undefined-label.goal 2 8 "label 'l9' is not defined"
bad any-source.goal 2 6 "any source"
bad any-tag.goal 2 3 "any tag"
bad unmatched-send.goal 3 4 "no matching recv"
bad cycle.goal 3 7 "never completes"
bad no-close.goal 2 6 "never ends"
bad rank-range.goal 2 3 "rank 5 out of range"
bad size-mismatch.goal 2 6 "recv of 16 b meets a send of 8 b"
bad rank-twice.goal 2 5 "given twice"
bad two-sources.goal 3 6 "both send in the first step"
bad no-numranks.goal 2 1 "'rank' before 'num_ranks'"
# a line past the limit
awk 'BEGIN { printf "num_ranks 2\n// "; for (i = 0; i < 5000; i++) printf "x"; printf "\n" }' >"$TMPD/long.goal"
check_exit "a 5000-byte line: exit 2" 2 "$MESHCAST" run --net array:2 --algo "$TMPD/long.goal"
check_match "names line 2" 'long.goal:2: line longer than 4096' "$ERR"
check_exit "a missing file: exit 2" 2 "$MESHCAST" run --net array:2 --algo "$TMPD/none.goal"
check_exit "schedule --format bogus lists goal" 2 "$MESHCAST" schedule --net array:4 --algo st --format bogus
check_match "lists goal" 'text, json, csv, goal' "$ERR"
finish
