#!/bin/sh
# meshcast run: the issue's example, closed forms against the simulation, exit statuses.
. "$(dirname "$0")/../lib.sh"

# The example: ST on a 16-node array, 1024 bytes: 4 steps of m*a + b = 4*(1024*0.08+75).
check_exit "run st array:16 --json exits 0" 0 "$MESHCAST" run --net array:16 --algo st --bytes 1024 --json
J=$OUT
check "run --json is one JSON object" sh -c "printf '%s' '$J' | jq -e 'type == \"object\"'"
check_eq "verified" "true" "$(printf '%s' "$J" | jq -r .verified)"
check_eq "valid" "true" "$(printf '%s' "$J" | jq -r .valid)"
check_eq "4 steps" "4" "$(printf '%s' "$J" | jq -r .steps)"
check_close "total = 4*(1024*0.08+75)" "$(printf '%s' "$J" | jq -r .cost.total)" 627.68
check_close "predicted = total" "$(printf '%s' "$J" | jq -r .predicted)" 627.68
check_eq "model seidel" "seidel" "$(printf '%s' "$J" | jq -r .cost.model)"
check_eq "net, algo, source, nodes, bytes" "array:16 st 0 16 1024" \
    "$(printf '%s' "$J" | jq -r '[.net, .algo, .source, .nodes, .bytes] | map(tostring) | join(" ")')"
check_eq "every contract key present" "true" "$(printf '%s' "$J" | jq -r '[has("net","algo","source","nodes","bytes","steps","verified","tcd","max_link_load","link_overloads","port_conflicts","violations","cost","predicted","valid","chunks","fit","params")] | all')"
check_eq "cost breakdown keys" "true" "$(printf '%s' "$J" | jq -r '.cost | [has("model","total","startup","transmission","contention","permutation")] | all')"
check_close "breakdown adds up" "$(printf '%s' "$J" | jq -r '.cost | .startup + .transmission + .contention + .permutation')" \
    "$(printf '%s' "$J" | jq -r .cost.total)" 1e-9
check_eq "violations is an empty array" "[]" "$(printf '%s' "$J" | jq -c .violations)"
check_eq "params carry Table II" "0.08 75 0.01 0" "$(printf '%s' "$J" | jq -r '[.params.a, .params.b, .params.rho, .params.nu] | map(tostring) | join(" ")')"

check_eq "run --json is one line" 1 "$(printf '%s\n' "$J" | wc -l | tr -d ' ')"

# Sources by coordinates, on 2-D and 3-D nets.
check_exit "source 3,7 on mesh:16x32" 0 "$MESHCAST" run --net mesh:16x32 --algo bst --source 3,7 --json
check_eq "source 3,7 is node 103, named (3,7)" "103 (3,7)" "$(printf '%s' "$OUT" | jq -r '"\(.source) \(.source_name)"')"
check_exit "source 1,2,3 on mesh:4x4x4" 0 "$MESHCAST" run --net mesh:4x4x4 --algo chain --source 1,2,3 --json
check_eq "source 1,2,3 is node 27" 27 "$(printf '%s' "$OUT" | jq -r .source)"
check_exit "--opt=value form" 0 "$MESHCAST" run --net=array:16 --algo=st --bytes=1K --json
check_eq "--bytes=1K is 1024 bytes" 1024 "$(printf '%s' "$OUT" | jq -r .bytes)"

# Text output: a readable summary.
check_exit "run text exits 0" 0 "$MESHCAST" run --net array:16 --algo st --bytes 1024
check_match "text says verified" '^verified: +yes' "$OUT"
check_match "text gives the cost" 'cost: +627\.68 us' "$OUT"
check_match "text compares with the prediction" 'predicted: +627\.68 us.*matches.*difference 0' "$OUT"
check_match "text gives contention" 'max link load 1, 0 overloaded links, 0 port conflicts' "$OUT"

# Simulated cost equals the closed form (Table I, Section 5 companions) across algorithms
# and nets.  Each line: net algo bytes [extra options].
while read -r net algo bytes extra; do
    [ -z "$net" ] && continue
    d="$algo on $net m=$bytes $extra"
    # shellcheck disable=SC2086
    "$MESHCAST" run --net "$net" --algo "$algo" --bytes "$bytes" $extra --json >"$TMPD/r.json" 2>"$TMPD/r.err"
    rc=$?
    if [ $rc -ne 0 ]; then bad "$d: exit 0" "exit $rc: $(head -c 300 "$TMPD/r.err")"; continue; fi
    v=$(jq -r '.verified and .valid' "$TMPD/r.json")
    p=$(jq -r .predicted "$TMPD/r.json")
    t=$(jq -r .cost.total "$TMPD/r.json")
    if [ "$v" != true ]; then bad "$d: verified and valid" "$(jq -c '.violations[:3]' "$TMPD/r.json")"; continue; fi
    if [ "$p" = null ]; then bad "$d: has a closed form"; continue; fi
    check_close "$d: simulated == predicted ($t)" "$t" "$p" 1e-9
done <<'LIST'
array:16 st 1024
array:16 bst 1024
array:16 rh 1024
array:16 st 65536
array:16 bst 8
array:16 rh 65536
array:32 bst 4096
array:16 st 1024 --source 5
array:16 bst 1024 --source 11
array:16 rh 4096 --source 6
array:8 st 1024 --set nu=1
array:8 bst 1024 --set nu=1
array:16 rh 4096 --set nu=1
mesh:16x32 st 1024
mesh:16x32 bst 1024
mesh:16x32 rh 16384
mesh:16x32 st-simple 1024
mesh:16x32 st-5phase 1024
mesh:16x32 bst-rowcol 1024
mesh:16x32 bst-snake 1024
mesh:8x8 st 2048
mesh:8x8 bst 2048
mesh:8x8 rh 8192
mesh:8x8 st 2048 --set nu=1
mesh:8x8 bst 2048 --set nu=1
mesh:4x8 rh 4096 --set nu=1
array:13 st 1024
array:13 bst 1024 --fit companions
array:13 bst 1024 --fit virtual
array:12 st 1024 --fit virtual
mesh:12x20 st 1024
mesh:6x6 bst 512
LIST

# Models other than seidel still verify.
for m in postal circuit saf; do
    check_exit "array:16 st under $m runs" 0 "$MESHCAST" run --net array:16 --algo st --model $m --json
    check_eq "array:16 st under $m: model named" "$m" "$(printf '%s' "$OUT" | jq -r .cost.model)"
done

# A wrong schedule exits 1 and says where (a Lua algorithm through --algo FILE.lua).
cat >"$TMPD/broken.lua" <<'LUA'
-- node 2 forwards before it has the message
return {
    name = "broken", summary = "sends what it does not hold", nets = { "array" },
    build = function(sched, net, p, source)
        local s = sched:step()
        s:send(0, 1, 0)
        s:send(2, 3, 0)
    end,
}
LUA
check_exit "wrong schedule: exit 1" 1 "$MESHCAST" run --net array:4 --algo "$TMPD/broken.lua"
check_match "wrong schedule: text says not verified" '^verified: +NO' "$OUT"
check_match "wrong schedule: text names step, node, chunk" 'step 1: node 2 sends chunk 0 it does not hold' "$OUT"
check_exit "wrong schedule --json: exit 1" 1 "$MESHCAST" run --net array:4 --algo "$TMPD/broken.lua" --json
check_eq "wrong schedule --json: verified false" false "$(printf '%s' "$OUT" | jq -r .verified)"
check_eq "wrong schedule --json: the violations name step, kind, node" \
    '[{"step":0,"kind":"not_held","node":2,"chunk":0},{"step":1,"kind":"incomplete","node":2,"chunk":0}]' \
    "$(printf '%s' "$OUT" | jq -c '[.violations[] | {step, kind, node, chunk}]')"

# A verified schedule that breaks the model's port rule: valid false, exit 1.
cat >"$TMPD/twosends.lua" <<'LUA'
-- node 0 sends twice in one step: fine under seidel (serialised), a violation under postal
return {
    name = "twosends", summary = "two sends from one node in a step", nets = { "array" },
    build = function(sched, net, p, source)
        local s = sched:step()
        s:send(0, 1, 0)
        s:send(0, 2, 0)
        sched:step():send(0, 3, 0)
    end,
}
LUA
check_exit "two sends under seidel: exit 0" 0 "$MESHCAST" run --net array:4 --algo "$TMPD/twosends.lua" --json
check_eq "two sends under seidel: one port conflict, serialised" "1 true" "$(printf '%s' "$OUT" | jq -r '"\(.port_conflicts) \(.valid)"')"
check_exit "two sends under postal: exit 1" 1 "$MESHCAST" run --net array:4 --algo "$TMPD/twosends.lua" --model postal --json
check_eq "two sends under postal: verified but not valid" "true false" "$(printf '%s' "$OUT" | jq -r '"\(.verified) \(.valid)"')"
check_eq "two sends under postal: a port violation at step 0, node 0" '{"step":0,"kind":"port","node":0}' \
    "$(printf '%s' "$OUT" | jq -c '.violations[0] | {step, kind, node}')"

# --algo accepts a file path (through script_algo); a missing file is a usage error.
check_exit "--algo missing.lua is a usage error" 2 "$MESHCAST" run --net array:16 --algo "$TMPD/missing.lua"
finish
