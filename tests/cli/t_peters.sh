#!/bin/sh
# Peters & Syska under the circuit model: run's terms and lower bounds, JSON keys, errors.
. "$(dirname "$0")/../lib.sh"

check_exit "tiling on torus:25x25 exits 0" 0 "$MESHCAST" run --net torus:25x25 --algo tiling --model circuit --set delta=1
check_match "terms 4/24/4" '^terms: +4 start-ups \(alpha\), 24 switched hops \(delta\), 4 L\*tau' "$OUT"
check_match "lower bound beside" '^lower bound: .*Prop. 1: 4 alpha, 24 delta' "$OUT"
check_match "arcs and all-port words" '^contention: +max arc load 1, 0 shared arcs, 0 all-port conflicts' "$OUT"
check_match "matches Theorem 2" '^predicted: .*matches' "$OUT"

check_exit "tiling --json" 0 "$MESHCAST" run --net torus:10x10 --algo tiling --model circuit --source 3,7 --json
check_eq "terms in JSON" "3 10 3" "$(printf '%s' "$OUT" | jq -r '[.terms.phases, .terms.switch_hops, .terms.ltau] | map(tostring) | join(" ")')"
check_eq "Prop. 1 and Corollary 1 phases" "3 4" "$(printf '%s' "$OUT" | jq -r '[.lower_bound.phases, .lower_bound.corollary1_phases] | map(tostring) | join(" ")')"
check "bound below cost" sh -c "printf '%s' '$OUT' | jq -e '.lower_bound.total <= .cost.total'"

# the errata's command: Corollary 1 as printed is above a valid 10x10 broadcast
check_exit "errata command" 0 "$MESHCAST" run --net torus:10x10 --algo tiling --model circuit --set alpha=100 --set tau=0
check_match "cost 300" '^cost: +300 ' "$OUT"
check_match "corollary 400" '^corollary 1: 400 ' "$OUT"

# every 2-D torus: S_k on uneven cells, then the cells filled by cross splits
check_exit "tiling on torus:7x12" 0 "$MESHCAST" run --net torus:7x12 --algo tiling --model circuit --source 6,11
check_match "7x12 verified" '^verified: +yes' "$OUT"
check_match "7x12 arc-disjoint" '^contention: +max arc load 1, 0 shared arcs, 0 all-port conflicts' "$OUT"
check_match "7x12 terms" '^terms: +4 start-ups \(alpha\), 12 switched hops' "$OUT"
check_match "7x12 no closed form, why" '^predicted: +none \(the paper.s closed forms are for 5\^k x 5\^k' "$OUT"
check_exit "tiling on torus:3x3 --json" 0 "$MESHCAST" run --net torus:3x3 --algo tiling --model circuit --json
check_eq "3x3 meets Prop. 1's phases" "2 2 true" "$(printf '%s' "$OUT" | jq -r '[.terms.phases, .lower_bound.phases, .verified] | map(tostring) | join(" ")')"
check_exit "tiling refuses a 3-D torus" 2 "$MESHCAST" run --net torus:5x5x5 --algo tiling --model circuit
check_match "one-line reason" '^meshcast: tiling runs on 2-D tori of at least 2 nodes \(torus:XxY\), not on torus:5x5x5$' "$ERR"
check_exit "tiling refuses a mesh" 2 "$MESHCAST" run --net mesh:5x5 --algo tiling
check_match "mesh: one line" 'does not run on mesh' "$ERR"
check_exit "blocks=2 refused" 2 "$MESHCAST" run --net torus:5x5 --algo tiling --set blocks=2

# shared arcs are named as arcs of a phase under circuit
check_exit "rh under circuit violates" 1 "$MESHCAST" run --net array:16 --algo rh --model circuit
check_match "arc named" '^  phase [0-9]+: arc [0-9]+->[0-9]+ is shared by 2 circuits' "$OUT"
check_exit "no terms under seidel" 0 "$MESHCAST" run --net torus:5x5 --algo tiling
check_nomatch "no lower bound line under seidel" '^lower bound' "$OUT"

# Table 1, measured
check_exit "compare --terms on torus:25x25" 0 "$MESHCAST" compare --net torus:25x25 --model circuit --terms
check_match "lower bound row" '^lower bound +4 +24 +0.25 ' "$OUT"
check_match "tiling row 4/24/4" '^tiling +4 +24 +4 ' "$OUT"
check_match "flood row 24/24/24" '^flood +24 +24 +24 ' "$OUT"
check_exit "compare --timing both --json" 0 "$MESHCAST" compare --net torus:16x16 --model circuit --timing both --set B=64 --json
check_eq "dc lockstep = async (errata)" "true" "$(printf '%s' "$OUT" | jq -r '.algorithms[] | select(.algo == "dc") | .lockstep == .async')"
check "every valid row at or above the bound" sh -c "printf '%s' '$OUT' | jq -e '[.algorithms[] | select(.valid) | .lockstep >= .lower_bound.total] | all'"
check_exit "compare --timing nonsense" 2 "$MESHCAST" compare --net torus:5x5 --timing never
check_exit "compare --terms --csv refused" 2 "$MESHCAST" compare --net torus:5x5 --terms --csv

# --timing async on run: the paper's T(B) for dc, the extra phase of htree
check_exit "dc async" 0 "$MESHCAST" run --net torus:32x32 --algo dc --model circuit --set alpha=50 --set delta=3 --set B=128 --bytes 4096 --timing async --json
check_eq "async total = predicted T(B)" "true" "$(printf '%s' "$OUT" | jq -r '.async_total == .predicted and .timing == "async"')"
check_exit "run --timing bad" 2 "$MESHCAST" run --net torus:8x8 --algo dc --timing sometimes
check_exit "dc B=-3 refused" 2 "$MESHCAST" run --net torus:8x8 --algo dc --set B=-3
check_exit "dc B=auto" 0 "$MESHCAST" run --net torus:16x16 --algo dc --model circuit --set B=auto --bytes 64K
check_match "B=auto cuts packets" 'in [0-9]+ chunks' "$OUT"
# several k, L and B: T(B) exactly (htree: k = 2, 3, where the paper's final phase suffices)
for c in "dc torus:4x4 1000 250" "dc torus:8x8 6000 100" "dc torus:16x16 2048 32" \
         "htree torus:3x3 1024 64" "htree torus:7x7 4000 250" "htree torus:7x7 512 8"; do
    set -- $c
    check_exit "$1 on $2 L=$3 B=$4 async" 0 "$MESHCAST" run --net "$2" --algo "$1" --model circuit --set alpha=65 --set delta=10 --set tau=0.425 --set B="$4" --bytes "$3" --timing async --json
    check_eq "$1 on $2 L=$3 B=$4: async = T(B)" "true" "$(printf '%s' "$OUT" | jq -r '.async_total == .predicted')"
    check_eq "$1 on $2 L=$3 B=$4: JSON's difference is the async time's" "0 null" \
        "$(printf '%s' "$OUT" | jq -r '"\(.difference) \(.predicted_note)"')"
done
# htree from 15x15: the last phase needs circuits of two hops (2k - 1 phases, + delta);
# hops=1 keeps the one-hop circuits and adds a second last phase (2k phases)
check_exit "htree on 15x15 async" 0 "$MESHCAST" run --net torus:15x15 --algo htree --model circuit --set delta=2 --timing async
check_match "htree differs from T(B) by the two-hop last phase" 'DIFFERS; difference 2\)' "$OUT"
check_match "... and says why (the erratum)" '^ +known: the paper.s one final phase of one hop does not inform every node from 15x15 on: its circuits of up to two hops add delta \(docs/errata.md\)' "$OUT"
check_match "2k - 1 = 7 phases" '^steps: +7 ' "$OUT"
check_exit "htree on 15x15 async, JSON" 0 "$MESHCAST" run --net torus:15x15 --algo htree --model circuit --set B=100 --set delta=3 --bytes 1000 --timing async --json
check_eq "the difference is delta" "true" "$(printf '%s' "$OUT" | jq -r '.difference == .params.delta and .steps == 11')"
check_eq "JSON: predicted_note" "true" \
    "$(printf '%s' "$OUT" | jq -r '.predicted_note | startswith("the paper'"'"'s one final phase")')"
check_exit "htree hops=1 on 15x15 async, JSON" 0 "$MESHCAST" run --net torus:15x15 --algo htree --model circuit --set B=100 --set delta=3 --set hops=1 --bytes 1000 --timing async --json
# (B = 100 of L = 1000: X and Y 5 packets each, the second one-hop phase costs alpha + delta + 100 tau)
check_eq "hops=1: the difference is the extra phase's alpha + delta + B tau" "true" \
    "$(printf '%s' "$OUT" | jq -r '.difference == .params.alpha + .params.delta + 100 * .params.tau and .steps == 12')"
check_exit "htree hops=3 refused" 2 "$MESHCAST" run --net torus:15x15 --algo htree --model circuit --set hops=3
# Fig. 9: 3x3 in two phases when X and Y are one packet each
check_exit "htree 3x3 Fig. 9" 0 "$MESHCAST" run --net torus:3x3 --algo htree --model circuit --set alpha=10 --set delta=2 --bytes 4096 --json
check_eq "Fig. 9: 2 phases of one hop, 2 (alpha + delta + L/2 tau)" "true" \
    "$(printf '%s' "$OUT" | jq -r '.steps == 2 and .cost.total == 2 * (10 + 2 + 2048)')"
finish
