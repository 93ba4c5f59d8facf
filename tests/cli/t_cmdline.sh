#!/bin/sh
# The command line's minors (issue 23, issue 19's leftovers): check takes --profile and --op
# like run; compare --terms names every row once.
. "$(dirname "$0")/../lib.sh"
cd "$TMPD" || exit 2

# -- check --profile NAME: the profile's constants price every case.  st on array:16 sends the
# whole 1024-byte message in each of its log2(16) = 4 steps: cost = 4 (b + a 1024) (Seidel,
# nu = 0, no contention), with a and b read from the shipped profile file itself.
P="$ROOT/assets/profiles/paragon.profile"
a=$(sed -n 's/^seidel\.a *= *\([0-9.]*\).*/\1/p' "$P"); b=$(sed -n 's/^seidel\.b *= *\([0-9.]*\).*/\1/p' "$P")
cost4=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.10g", 4 * (b + a * 1024) }')
check_exit "check st --profile paragon: verified" 0 "$MESHCAST" check st --net array:16 --profile paragon --json
check_close "  every case costs 4 (b + a 1024) with paragon's a, b" \
    "$(printf '%s' "$OUT" | jq '[.cases[].cost] | max')" "$cost4" 1e-9
check_close "  (and min)" "$(printf '%s' "$OUT" | jq '[.cases[].cost] | min')" "$cost4" 1e-9
check_exit "check --profile nosuch: usage error" 2 "$MESHCAST" check st --net array:16 --profile nosuch
check_eq "  one line, before any table" "meshcast: check: no profile 'nosuch' (meshcast list profiles)" "$ERR"
check_eq "  nothing on stdout" "" "$OUT"
check_exit "check --profile twice: usage error" 2 "$MESHCAST" check st --profile delta --profile paragon

# -- check --op reduce: the broadcast run backwards, judged as a reduction
check_exit "check st --op reduce: verified" 0 "$MESHCAST" check st --net array:16 --op reduce
check_match "  every source" "^array:16 +16 +16/16 +16/16 " "$OUT"
check_exit "check --op bogus: usage error" 2 "$MESHCAST" check st --net array:16 --op bogus
check_eq "  run's message" "meshcast: check: bad --op: broadcast or reduce" "$ERR"
check_exit "check a declared reduction --op broadcast: refused" 2 \
    "$MESHCAST" check "$ROOT/scripts/tree-reduce.lua" --net array:16 --op broadcast
check_match "  says why" "--op broadcast does not apply" "$ERR"
check_match "check --help names --profile and --op" "--profile NAME.*--op broadcast\|reduce" \
    "$("$MESHCAST" check --help)"

# -- compare --terms: one row per algorithm, a shipped script under its own name (st.lua is
# "st-lua", not a second "st")
for args in "--net mesh:8x8 --algo st" "--net mesh:8x8" "--net array:16"; do
    # shellcheck disable=SC2086
    check_exit "compare $args --terms --json" 0 "$MESHCAST" compare $args --model circuit --terms --json
    check_eq "  every row named once" "" "$(printf '%s' "$OUT" | jq -r '.algorithms[].algo' | sort | uniq -d)"
    # shellcheck disable=SC2086
    "$MESHCAST" compare $args --model circuit --terms >t.txt 2>&1
    check_eq "  text: st once" 1 "$(grep -c '^st ' t.txt)"
done
"$MESHCAST" run --net array:16 --algo st.lua --model circuit >/dev/null 2>&1
check_eq "st.lua runs on array:16" 0 $?
check_match "  so it is a row of its own, st-lua" '^st-lua ' "$(cat t.txt)"

# -- "did you mean": one helper (text_did_you_mean) for every name a user types
check_exit "algorithm stt" 2 "$MESHCAST" run --net array:16 --algo stt
check_match "  did you mean 'st'" "^meshcast: unknown algorithm 'stt' \(did you mean 'st'\?\)" "$ERR"
check_exit "a script's name, knomal" 2 "$MESHCAST" run --net array:16 --algo knomal
check_match "  did you mean 'knomial' (scripts/knomial.lua)" "did you mean 'knomial'\?" "$ERR"
check_exit "lesson st-arry" 2 "$MESHCAST" lesson st-arry
check_match "  did you mean 'st-array'" "^meshcast: unknown lesson 'st-arry' \(did you mean 'st-array'\?\)" "$ERR"
check_exit "subcommand runn" 2 "$MESHCAST" runn --net array:16
check_match "  did you mean 'run'" "^meshcast: unknown command 'runn' \(did you mean 'run'\?\)" "$ERR"
check_exit "option --byts" 2 "$MESHCAST" run --net array:16 --algo st --byts 1024
check_eq "  did you mean '--bytes'" "meshcast: unknown option '--byts' (did you mean '--bytes'?)" "$ERR"
check_exit "check's option --nte" 2 "$MESHCAST" check st --nte array:4
check_match "  did you mean '--net'" "unknown option '--nte' \(did you mean '--net'\?\)" "$ERR"
check_exit "the screen's option --thme" 2 "$MESHCAST" --thme light </dev/null
check_match "  did you mean '--theme'" "unknown option '--thme' \(did you mean '--theme'\?\)" "$ERR"
check_exit "theme lihgt" 2 "$MESHCAST" --theme lihgt --net array:8 </dev/null
check_match "  did you mean 'light'" "^meshcast: no theme 'lihgt' \(did you mean 'light'\?\)" "$ERR"
check_exit "profile paragn" 2 "$MESHCAST" run --net array:16 --algo st --profile paragn
check_match "  did you mean 'paragon'" "^meshcast: no profile 'paragn' \(did you mean 'paragon'\?\)" "$ERR"
for c in "calibrate --nps 3|'--np'" "tradeoff --point 3|'--points'" "compare --sources R:4 --totl 3|'--total'" \
         "list lesson|'lessons'" "replay f.cast --stp 3|'--step'" "diff st bst --net array:4 --bytse 3|'--bytes'" \
         "exec --np3|'--np'" "exec --net array:4 --rep 3|'--reps'" "exec --net array:4 --barier|'--barrier'"; do
    args=${c%|*}; near=${c#*|}
    # shellcheck disable=SC2086
    check_exit "$args: usage error" 2 "$MESHCAST" $args
    check_match "  did you mean $near" "did you mean $near\\?" "$ERR"
done
check_exit "nothing near: no guess" 2 "$MESHCAST" run --net array:16 --algo zzzzzz
check_nomatch "  no 'did you mean'" "did you mean" "$ERR"

# -- display options before the subcommand: to lesson and record; refused before any other
check_exit "meshcast --big run: refused" 2 "$MESHCAST" --big run --net array:16 --algo st
check_eq "  in one line" "meshcast: --big goes with the screen (meshcast --big [--net ...], lesson, record), not with run" "$ERR"
check_exit "meshcast --net mesh:8x8 run: refused" 2 "$MESHCAST" --net mesh:8x8 run --algo st
check_eq "  the option goes after" "meshcast: --net goes after the subcommand (meshcast run ... --net); only --big, --ascii, --no-color and --theme may come before it" "$ERR"
check_exit "meshcast --big --net=array:8 lesson st-array: refused" 2 "$MESHCAST" --big --net=array:8 lesson st-array </dev/null
check_eq "  lesson takes no --net" "meshcast: lesson does not take --net (meshcast lesson --help)" "$ERR"
check_exit "meshcast --theme light list: refused" 2 "$MESHCAST" --theme light list
check_exit "meshcast --theme light lesson st-array: the lesson's options (no terminal here)" 2 \
    "$MESHCAST" --theme light lesson st-array </dev/null
check_match "  got as far as the terminal" "not a terminal" "$ERR"
check_exit "meshcast --theme nosuch lesson st-array: the theme is checked" 2 \
    "$MESHCAST" --theme nosuch lesson st-array </dev/null
check_match "  no theme 'nosuch'" "no theme 'nosuch'" "$ERR"
check_exit "meshcast --big lessn x: a mistyped command" 2 "$MESHCAST" --big lessn x </dev/null
check_match "  did you mean 'lesson'" "unknown command 'lessn' \(did you mean 'lesson'\?\)" "$ERR"
check_exit "record f.cast lesson nosuch: the lesson is looked up" 2 \
    "$MESHCAST" record "$TMPD/f.cast" lesson nosuch </dev/null
check_match "  unknown lesson" "unknown lesson 'nosuch'" "$ERR"
finish
