#!/bin/sh
# Terminal injection (issue 8, finding 3): no byte from a script (its print, labels, name,
# summary, errors), a lesson, a file name or argv reaches the terminal raw.  Every output is
# checked for ESC, BEL, C1 controls (U+0080..U+009F) and, where one line is promised, stray
# line breaks.
. "$(dirname "$0")/../lib.sh"

ESC=$(printf '\033')
BEL=$(printf '\007')
C1=$(printf '\302\233')    # U+009B, CSI to some terminals
# raw FILE: has the file a control byte a terminal would obey?
raw() { LC_ALL=C grep -c "[$ESC$BEL]\|$C1" "$1"; }

S=$TMPD/evil.lua
cat > "$S" <<'LUA'
local mc = require "meshcast"
print("\27]0;pwned\7 and \194\155 31m")
return {
  name = "evil",
  summary = "a summary",
  nets = { "array" },
  build = function(sched, net, p, source)
    local d = mc.log2(net:size())
    for i = 1, d do
      local st, half = sched:step("ST\27[2J\nstep " .. i .. "\194\155"), 1 << (d - i)
      for r = 0, net:size() - 1, 2 * half do
        st:send(r ~ source, (r ~ half) ~ source, { 0 })
      end
    end
  end,
}
LUA

"$MESHCAST" schedule --net array:8 --algo "$S" --format text >"$TMPD/out" 2>"$TMPD/err"
check_eq "schedule text: exit 0" 0 $?
check_eq "schedule text: no control byte on stdout" 0 "$(raw "$TMPD/out")"
check_eq "schedule text: no control byte on stderr (the script's print)" 0 "$(raw "$TMPD/err")"
check_match "schedule text: print is shown, escaped" '\?\]0;pwned\? and \?\? 31m' "$(cat "$TMPD/err")"
check_eq "schedule text: one line per step (1 header, 3 steps, 7 transfers)" 11 \
    "$(grep -c '' "$TMPD/out")"
check_match "schedule text: the label, escaped" '^step 1 ST\?\[2J\?step 1\?\?: ' "$(cat "$TMPD/out")"

"$MESHCAST" schedule --net array:8 --algo "$S" --format json >"$TMPD/out" 2>/dev/null
check_eq "schedule json: no control byte" 0 "$(raw "$TMPD/out")"
check_match "schedule json: ESC, newline and C1 escaped" 'ST\\u001b\[2J\\nstep 1\\u009b' \
    "$(cat "$TMPD/out")"
check "schedule json: valid (jq)" jq -e '.steps | length == 3' "$TMPD/out"

"$MESHCAST" schedule --net array:8 --algo "$S" --format csv >"$TMPD/out" 2>/dev/null
check_eq "schedule csv: no control byte" 0 "$(raw "$TMPD/out")"

for cmd in "run --net array:8" "run --net array:8 --json" "run --net array:8 --csv"; do
    "$MESHCAST" $cmd --algo "$S" >"$TMPD/out" 2>"$TMPD/err"
    check_eq "$cmd: no control byte on stdout" 0 "$(raw "$TMPD/out")"
    check_eq "$cmd: no control byte on stderr" 0 "$(raw "$TMPD/err")"
done

"$MESHCAST" check "$S" --net array:8 >"$TMPD/out" 2>"$TMPD/err"
check_eq "check: no control byte on stdout" 0 "$(raw "$TMPD/out")"
check_eq "check: no control byte on stderr" 0 "$(raw "$TMPD/err")"

# a script whose error quotes bytes of its own
E=$TMPD/err.lua
printf 'error("boom\\27]0;x\\7\\nline two")\n' > "$E"
"$MESHCAST" run --net array:8 --algo "$E" >"$TMPD/out" 2>"$TMPD/err"
check_eq "script error: exit 2" 2 $?
check_eq "script error: no control byte" 0 "$(raw "$TMPD/err")"
check_eq "script error: one line" 1 "$(grep -c '' "$TMPD/err")"

# on the search path: list shows the name, summary and refusals as text
mkdir -p "$TMPD/path/scripts"
cp "$S" "$TMPD/path/scripts/evil$ESC[1m.lua"
cp "$E" "$TMPD/path/scripts/refused.lua"
MESHCAST_PATH=$TMPD/path "$MESHCAST" list algorithms >"$TMPD/out" 2>"$TMPD/err"
check_eq "list: no control byte on stdout" 0 "$(raw "$TMPD/out")"
check_eq "list: no control byte on stderr" 0 "$(raw "$TMPD/err")"
check_match "list: the refused script, on one line" '^refused +refused: .*boom\?\]0;x\?' \
    "$(cat "$TMPD/out")"

# argv quoted back in messages
for args in "lesson $ESC]0;x$BEL" "lesson a $ESC]0;x$BEL" "--bogus$ESC]0;x$BEL" \
            "run --net mesh:4x4 --algo st$ESC[2J" "frob$ESC[2J" "list $ESC[2J" \
            "run --net mesh:4x4$C1"; do
    # shellcheck disable=SC2086
    "$MESHCAST" $args >"$TMPD/out" 2>"$TMPD/err"
    check_eq "argv '$(printf '%s' "$args" | tr -d '\033\007')': exit 2" 2 $?
    check_eq "argv '$(printf '%s' "$args" | tr -d '\033\007')': no control byte" 0 \
        "$(cat "$TMPD/out" "$TMPD/err" > "$TMPD/both"; raw "$TMPD/both")"
done
# a lesson file whose name and content carry escapes
L=$TMPD/evil-lesson.lua
printf 'error("\\27]0;lesson\\7")\n' > "$L"
"$MESHCAST" lesson "$L" >"$TMPD/out" 2>"$TMPD/err"
check_eq "lesson error: exit 2" 2 $?
check_eq "lesson error: no control byte" 0 "$(raw "$TMPD/err")"

finish
