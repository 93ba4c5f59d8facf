#!/bin/sh
# --op reduce with a built-in broadcast in the UI: the broadcast run backwards steps like any
# schedule, the title says "reduce" and "root", and every node's cell shows how many
# contributions its partials combine (id:count, over all chunks), step by step — the counts
# worked out here from `meshcast schedule --op reduce --format json` (each transfer adds the
# sender's partial as the step began), never hard-coded; the root ends with nodes x chunks.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"

# counts FILE NODES CHUNKS STEP — "v:count" of every node after STEP steps
counts() {
    jq -r --argjson P "$2" --argjson K "$3" --argjson st "$4" '
        reduce .steps[0:$st][] as $s ([range(0; $P) | [range(0; $K) | 1]];
            . as $c | reduce $s.transfers[] as $t (.;
                reduce ($t.chunks[] | range(.[0]; .[1])) as $k (.;
                    .[$t.dst][$k] += $c[$t.src][$k])))
        | to_entries[] | "\(.key):\(.value | add)"' "$1" | sort
}
args="--net full:16 --algo bintree --model postal --op reduce"
# shellcheck disable=SC2086
"$MESHCAST" schedule $args --format json >"$TMPD/r.json"
# shellcheck disable=SC2086
"$MESHCAST" run $args --json >"$TMPD/r.run"
K=$(jq .chunks "$TMPD/r.run")
n=$(jq '.steps | length' "$TMPD/r.json")
check_eq "the CLI verifies the reduction" true "$(jq .reduction.verified "$TMPD/r.run")"
tm_start 150 45
# shellcheck disable=SC2086
mc_start --ascii $args
check_screen "the title says reduce, and root" "bintree reduce on full:16  root 0 "
check_screen "the Step panel: every contribution once" "reduction: the root has every contribution once"
cells() { tm_cap | cut -d'|' -f1 | grep -oE '(^| |[*>!])[0-9]+:[0-9]+' | tr -d ' *>!' | sort; }
check_eq "before step 1: every node its own $K chunks" "$(counts "$TMPD/r.json" 16 "$K" 0)" "$(cells)"
for st in 1 2 3 4 5; do
    tm_keys n
    check_screen "counter shows step $st/$n" " step $st/$n "
    check_eq "step $st: every node's partials" "$(counts "$TMPD/r.json" 16 "$K" "$st")" "$(cells)"
    snd=$(jq "[.steps[$((st - 1))].transfers[].src] | unique | length" "$TMPD/r.json")
    if [ "$snd" -gt 1 ]; then
        check_screen_fixed "step $st: the narration says reduce" "Step $st/$n (reduce): $snd nodes send their partials"
    fi
done
# the tree the other way: each node in the row of its first send (the root, which never
# sends, last), its parent — the receiver of that send — in a row below
jq -r '[.steps | to_entries[] | .key as $k | .value.transfers[] | {src, dst, k: ($k + 1)}]
    | group_by(.src) | map(min_by(.k)) | .[] | "\(.k) \(.src) \(.dst)"' "$TMPD/r.json" >"$TMPD/first"
tree_rows >"$TMPD/rows"
rows_ok=$(tree_placed "$TMPD/first" "$TMPD/rows" -gt)
check_eq "every node in the row of its first send, its parent below" 1 "$rows_ok"
check_eq "the root alone in the last row" "999 0" "$(grep '^999 ' "$TMPD/rows")"
check_eq "every node drawn once" 16 "$(sort -u "$TMPD/rows" | wc -l | tr -d ' ')"
tm_keys G
check_screen "at the end" " step $n/$n "
check_eq "the end: every node's partials" "$(counts "$TMPD/r.json" 16 "$K" "$n")" "$(cells)"
check_match "the root combines all 16 x $K" "^0:$((16 * K))\$" "$(cells)"
tm_run ":op broadcast"
check_screen ":op broadcast: the broadcast again" "bintree on full:16  source 0 "
tm_run ":op gather"
check_screen ":op gather: one line" "bad --op: broadcast or reduce"
tm_keys q
mc_exit_ok "reduce full:16"

# hxbar: the modules' cells count partials too; :op reduce switches a broadcast over
"$MESHCAST" schedule --net hxbar:4x4 --algo chain --model postal --op reduce --format json >"$TMPD/h.json"
K=$("$MESHCAST" run --net hxbar:4x4 --algo chain --model postal --json | jq .chunks)
tm_start 150 45
mc_start --ascii --net hxbar:4x4 --algo chain --model postal
check_screen "chain on hxbar:4x4 opens" "chain on hxbar:4x4  source 0 "
tm_run ":op reduce"
check_screen ":op reduce" "chain reduce on hxbar:4x4  root 0 "
tm_run ":step 7"
check_screen "at step 7" " step 7/"
check_eq "hxbar step 7: every node's partials" "$(counts "$TMPD/h.json" 16 "$K" 7)" \
    "$(tm_cap | cut -d'|' -f1-3 | grep -oE '(^| |[*>!])[0-9]+:[0-9]+' | tr -d ' *>!' | sort)"
tm_keys q
mc_exit_ok "reduce hxbar:4x4"

# a bad --op on the command line: one line, exit 2, before any screen
check_exit "--op gather" 2 "$MESHCAST" --net full:16 --algo bintree --op gather
check_eq "--op gather: one line" "meshcast: bad --op: broadcast or reduce" "$ERR"
finish
