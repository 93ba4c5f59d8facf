#!/bin/sh
# compare --algo a,b,... --sweep PARAM=LO:HI (Sanders & Sibeyn's tradeoff, live): the table
# and --json give, for every algorithm and value, the cost `run` gives for the same settings
# (built-ins and a Lua script); an algorithm without the parameter is the same run at every
# value; bad sweeps are one-line usage errors.
. "$(dirname "$0")/../lib.sh"

base="--net full:1024 --model postal --bytes 4096"
check_exit "sweep r=1:16" 0 "$MESHCAST" compare $base --algo chain,bintree,fractional --set s=auto --sweep r=1:16
check_match "sweep: header" '^ +r +chain +bintree +fractional$' "$OUT"
check_match "sweep: r=1 fractional is bintree" '^ +1 +11761 +9082 +9082$' "$OUT"
check_match "sweep: r=8" '^ +8 +11761 +9082 +5689$' "$OUT"
check_match "sweep: best" '^best: fractional at r=8, 5689 \(simulated\)$' "$OUT"
check_match "sweep: chain has no r" '^chain has no parameter r: the same run at every value$' "$OUT"
# every cell is what run prices
for r in 3 8 13; do
    check_exit "run fractional r=$r" 0 "$MESHCAST" run $base --algo fractional --set s=auto --set r=$r --json
    cost=$(printf "%s" "$OUT" | grep -o "\"cost\":{\"model\":\"postal\",\"total\":[0-9.]*" | head -1 | sed "s/.*://")
    check_exit "sweep r=$r:$r" 0 "$MESHCAST" compare $base --algo fractional --set s=auto --sweep r=$r:$r
    check_match "sweep r=$r = run ($cost)" "^ +$r +$cost\$" "$OUT"
done

# --json, a geometric sweep of s, and a Lua script beside the built-ins
check_exit "sweep s json" 0 "$MESHCAST" compare --net full:64 --model postal --bytes 4096 --algo chain,bintree,"$ROOT/scripts/ternary-tree.lua" --sweep s=1:4096 --json
check_match "json: values doubling" '"values":\[1,2,4,8,16,32,64,128,256,512,1024,2048,4096\]' "$OUT"
check_match "json: chain costs" '"name":"chain","has_param":true,"cost":\[258111,131136,67650,' "$OUT"
check_match "json: the script ran" '"name":"ternary-tree","has_param":true,"cost":\[36873,' "$OUT"
check_exit "run chain s=2" 0 "$MESHCAST" run --net full:64 --model postal --bytes 4096 --algo chain --set s=2
check_match "chain s=2 = the sweep's 131136" '^cost: +131136 ' "$OUT"

# a cost parameter reaches every algorithm
check_exit "sweep t" 0 "$MESHCAST" compare --net full:64 --model postal --algo chain,bintree --sweep t=0:2 --json
check_match "sweep t: every algorithm has it" '"name":"bintree","has_param":true' "$OUT"

# errors: one line, exit 2
check_exit "no --algo" 2 "$MESHCAST" compare --net full:64 --sweep s=1:4
check_match "no --algo: says so" '^meshcast: compare --sweep needs --algo' "$ERR"
check_exit "bad range" 2 "$MESHCAST" compare --net full:64 --algo chain --sweep s=4:1
check_match "bad range: says so" "^meshcast: bad --sweep 's=4:1'" "$ERR"
check_exit "unknown param" 2 "$MESHCAST" compare --net full:64 --algo chain --sweep q=1:4
check_match "unknown param: says so" '^meshcast: --sweep q: neither a cost parameter nor' "$ERR"
check_exit "unknown algo" 2 "$MESHCAST" compare --net full:64 --algo chain,nosuch --sweep s=1:4
check_exit "empty name" 2 "$MESHCAST" compare --net full:64 --algo chain,,bintree --sweep s=1:4
check_exit "--sweep without value" 2 "$MESHCAST" compare --net full:64 --algo chain --sweep
check_exit "over the work budget" 2 "$MESHCAST" compare --net full:1048576 --algo chain,bintree --sweep s=1:64
finish
