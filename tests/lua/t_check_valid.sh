#!/bin/sh
# t_check_valid.sh — `check` judges each case exactly as `run` does (verified AND valid under
# the model and the timing), exits 1 when any case is invalid and names the rule broken;
# --json/--csv give one record per case; --source/--sources/--timing; a size the script
# refuses is skipped with its reason.  Expected verdicts come from `run` on each case and from
# the model's rules worked out here by hand, never from check's own output.
. "$(dirname "$0")/../lib.sh"
L=$ROOT/tests/lua
cd "$TMPD" || exit 2

# bad_flat.lua: the source sends to every node in one step.  By hand: under circuit on an
# array the circuits leaving the source one way share its out-arc, so a case is valid iff at
# most one node lies each side of the source (N = 2, or N = 3 from the middle); under postal
# the source sends N-1 messages in a step: valid iff N = 2; under seidel always valid.
hand() {   # hand MODEL N SOURCE -> true|false
    awk -v m="$1" -v n="$2" -v s="$3" 'BEGIN {
        l = s; r = n - 1 - s
        if (m == "seidel") v = 1
        else if (m == "postal") v = (n == 2)
        else v = (l <= 1 && r <= 1)
        print v ? "true" : "false" }'
}
for model in seidel circuit postal; do
    for timing in lockstep async; do
        "$MESHCAST" check "$L/bad_flat.lua" --net array:2 --net array:3 --net array:4 \
            --net array:5 --model $model --timing $timing --json >check.json 2>check.err
        crc=$?
        any_bad=0; agree=0; total=0; byhand=0
        for n in 2 3 4 5; do
            s=0
            while [ $s -lt $n ]; do
                "$MESHCAST" run --net array:$n --algo "$L/bad_flat.lua" --source $s \
                    --model $model --timing $timing >/dev/null 2>&1
                rrc=$?
                rverdict=$([ $rrc -eq 0 ] && echo true || echo false)
                [ $rrc -eq 0 ] || any_bad=1
                got=$(jq -r --arg net array:$n --argjson s $s \
                    '.cases[] | select(.net == $net and .source == $s) | .valid' check.json)
                total=$((total + 1))
                [ "$got" = "$rverdict" ] && agree=$((agree + 1))
                [ "$got" = "$(hand $model $n $s)" ] && byhand=$((byhand + 1))
                s=$((s + 1))
            done
        done
        check_eq "$model $timing: check agrees with run on all 14 cases" "14/14" "$agree/$total"
        check_eq "$model $timing: check's verdicts are the model's rules by hand" 14 "$byhand"
        check_eq "$model $timing: exit 1 iff some case invalid" "$any_bad" "$crc"
        check_eq "$model $timing: one JSON object per case" 14 "$(jq '.cases | length' check.json)"
        check_eq "$model $timing: summary counts the invalid cases" \
            "$(jq '[.cases[] | select(.valid == false)] | length' check.json)" \
            "$(jq '.summary.invalid' check.json)"
    done
done

# The table says which rule broke, first where.
check_exit "circuit: flat on array:4 is invalid (exit 1)" 1 "$MESHCAST" check "$L/bad_flat.lua" --net array:4 --model circuit
check_match "circuit: names the arc-disjoint rule and the arc" "^FAIL array:4 source 0: arc-disjoint circuits: phase 1: arc 0->1 is shared by 3 circuits" "$OUT"
check_match "circuit: the valid column 0/4" "^array:4 +4 +4/4 +0/4 " "$OUT"
check_exit "postal: flat on array:3 is invalid (exit 1)" 1 "$MESHCAST" check "$L/bad_flat.lua" --net array:3 --model postal
check_match "postal: names the one-port rule" "^FAIL array:3 source 0: postal one-port: step 1: node 0 sends 2 and receives 0" "$OUT"
check_exit "seidel: flat is valid (exit 0)" 0 "$MESHCAST" check "$L/bad_flat.lua" --net array:5 --net mesh:3x3
check_exit "delivery: not-held still fails first" 1 "$MESHCAST" check "$L/bad_not_held.lua" --net array:4
check_match "delivery: rule named" "^FAIL array:4 source 0: delivery: step 1: node 1 sends chunk 0 it does not hold" "$OUT"

# Cost to 12 significant digits, by hand from the seidel formula and the model's a and b (as
# run prints them).
params=$("$MESHCAST" run --net array:3 --algo "$L/bad_flat.lua" --model seidel | sed -n 's/^model: *seidel (\(.*\))$/\1/p')
a=$(printf '%s\n' "$params" | tr ' ' '\n' | sed -n 's/^a=//p')
b=$(printf '%s\n' "$params" | tr ' ' '\n' | sed -n 's/^b=//p')
"$MESHCAST" check "$L/bad_flat.lua" --net array:3 --source 1 --json >one.json
# from the middle: two transfers of one hop each, one per port, but one-port seidel plays the
# source's two sends in two sub-rounds: 2 * (a*B + b), B = 1024
cost_hand=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.12g", 2 * (a * 1024 + b) }')
check_close "--source 1: cost = 2(aB + b) by hand" "$(jq '.cases[0].cost' one.json)" "$cost_hand"
check_eq "--source 1: one case" 1 "$(jq '.cases | length' one.json)"
check_exit "--source 1 on array:3: table" 0 "$MESHCAST" check "$L/bad_flat.lua" --net array:3 --source 1
check_eq "table: the cost column to 12 digits" "$cost_hand" "$(printf '%s\n' "$OUT" | awk '$1 == "array:3" { print $8 }')"

# --sources: an s-to-p distribution per row, judged like run --sources
"$MESHCAST" run --net mesh:4x4 --algo br-lin --sources E:3 >/dev/null 2>&1; rrc=$?
check_exit "--sources E:3 on a built-in" $rrc "$MESHCAST" check br-lin --net mesh:4x4 --sources E:3 --sources R:5 --json
check_eq "--sources: the distribution named in the case" "E:3" "$(printf '%s' "$OUT" | jq -r '.cases[0].sources')"
check_eq "--sources: two distributions, two cases" 2 "$(printf '%s' "$OUT" | jq '.cases | length')"
check_exit "--sources on a one-source algorithm: refused (exit 2)" 2 "$MESHCAST" check st --net mesh:4x4 --sources E:3 --json
check_eq "--sources refused: still one JSON document" 2 "$(printf '%s' "$OUT" | jq '.summary.exit')"
check_exit "--source and --sources exclude each other" 2 "$MESHCAST" check st --net array:8 --source 1 --sources E:2
check_exit "bad --timing" 2 "$MESHCAST" check st --net array:8 --timing sometimes

# --timing both: one row per timing; async cost = run --timing async's
check_exit "--timing both" 0 "$MESHCAST" check "$ROOT/scripts/st.lua" --net array:8 --timing both --csv
check_eq "--timing both: 16 case lines + header" 17 "$(printf '%s\n' "$OUT" | grep -c '')"
ra=$("$MESHCAST" run --net array:8 --algo "$ROOT/scripts/st.lua" --source 5 --timing async --json | jq '.async_total')
ca=$(printf '%s\n' "$OUT" | awk -F, '$1 == "array:8" && $2 == 5 && $4 == "async" { print $13 }')
check_close "async cost = run --timing async's" "$ca" "$ra"

# A size the script's `sizes` refuses is listed as skipped with the script's reason.
check_exit "ternary: 3x3 checked, 4x4 skipped" 0 "$MESHCAST" check "$ROOT/scripts/ternary.lua" --net torus:3x3 --net torus:4x4 --model circuit
check_match "skipped with the script's reason" "^torus:4x4 +skipped: .*3\\^a x 3\\^b" "$OUT"

# A misspelled field in the returned table is refused: the field, the line, the nearest name.
check_exit "chunk = 4 (for chunks): refused" 2 "$MESHCAST" check "$L/bad_field.lua" --net array:4
check_match "names the field, file, line and the nearest name" "bad_field.lua: ?line 5: unknown field 'chunk' in the returned table \\(did you mean 'chunks'\\?\\)" "$ERR"
check_exit "run refuses it too" 2 "$MESHCAST" run --net array:4 --algo "$L/bad_field.lua"
sed 's/^  chunks = /  parms = { }, chunks = /' "$ROOT/scripts/st.lua" > parms.lua
check_exit "parms = {...} (for params): refused" 2 "$MESHCAST" check ./parms.lua --net array:4
check_match "parms: nearest is params" "unknown field 'parms'.*did you mean 'params'" "$ERR"
sed 's/^  chunks = /  frobnicate = 1, chunks = /' "$ROOT/scripts/st.lua" > frob.lua
check_exit "a field far from every name: refused" 2 "$MESHCAST" check ./frob.lua --net array:4
check_nomatch "far from every name: no guess" "did you mean" "$ERR"

# ... and in a lesson page (refused at load, before any screen)
check_exit "lesson: modle = (for model): refused" 2 timeout 20 "$MESHCAST" lesson "$L/bad_lesson_field.lua"
check_match "lesson: the page, the field and the nearest name" "page 2: unknown field 'modle' in the page \\(did you mean 'model'\\?\\)" "$ERR"
sed 's/^  title = /  titel = "x", title = /' "$L/bad_lesson_field.lua" > lesson2.lua
check_exit "lesson: titel = in the lesson's table: refused" 2 timeout 20 "$MESHCAST" lesson ./lesson2.lua
check_match "lesson: titel -> title" "unknown field 'titel' in the lesson's table \\(did you mean 'title'\\?\\)" "$ERR"
# ... and in a question and its try = {...} (an `anwser` would leave the question without its
# answer's check; a `sorce` in try would accept any source)
cat > question_typo.lua <<'LUA'
return { title = "q", pages = {
  { text = "one", net = "array:8", algo = "st",
    question = { text = "how many steps?", choices = { "2", "3" }, answer = "b", feedbak = { "no" } } },
} }
LUA
check_exit "lesson: feedbak = in a question: refused" 2 timeout 20 "$MESHCAST" lesson ./question_typo.lua
check_match "... page, field, the question, nearest name" "page 1: unknown field 'feedbak' in the question \\(did you mean 'feedback'\\?\\)" "$ERR"
cat > try_typo.lua <<'LUA'
return { title = "t", pages = {
  { text = "one", net = "array:8", algo = "st",
    question = { text = "pick the source 3", try = { sorce = 3 } } },
} }
LUA
check_exit "lesson: try = { sorce = 3 }: refused" 2 timeout 20 "$MESHCAST" lesson ./try_typo.lua
check_match "... naming try and the nearest name" "page 1: unknown field 'sorce' in try \\(did you mean 'source'\\?\\)" "$ERR"
check_exit "check refuses the question's typo too" 2 "$MESHCAST" check ./question_typo.lua
finish
