#!/bin/sh
# Lessons that lie are refused when loaded (issue 24 finding 8): a page showing a step its
# broadcast does not have, a try task asking for an unreachable step or an unknown parameter,
# each named by page and field; `meshcast check LESSON.lua` says so (exit 2) and passes every
# shipped lesson.  The step counts are derived here: st on array:2^d is d steps (lg 16 = 4,
# lg 64 = 6).
. "$(dirname "$0")/../lib.sh"

lesson() {   # FILE PAGE2-FIELDS: a two-page lesson, the second page given
    cat >"$1" <<LUA
return {
  title = "t", about = "a",
  pages = {
    { text = "one", net = "array:16", algo = "st", step = 0 },
    { text = "two", $2 },
  },
}
LUA
}
lesson "$TMPD/step999.lua" 'step = 999'
check_exit "a page at step 999 of a 4-step broadcast: refused" 2 "$MESHCAST" check "$TMPD/step999.lua"
check_match "... page and field named, with the steps it has" \
    "step999.lua: page 2: step 999, but st on array:16 has 4 steps" "$ERR"
lesson "$TMPD/step4.lua" 'step = 4'
check_exit "step 4 of the 4-step broadcast: accepted" 0 "$MESHCAST" check "$TMPD/step4.lua"
lesson "$TMPD/step5.lua" 'step = 5'
check_exit "step 5: refused" 2 "$MESHCAST" check "$TMPD/step5.lua"
lesson "$TMPD/mesh.lua" 'net = "array:64", step = 7'
check_match "a new net on the page: its own steps (st on array:64: lg 64 = 6)" \
    "page 2: step 7, but st on array:64 has 6 steps" "$("$MESHCAST" check "$TMPD/mesh.lua" 2>&1)"
lesson "$TMPD/try99.lua" 'question = { text = "q", try = { step = 99 } }'
check_exit "a try task at step 99: refused" 2 "$MESHCAST" check "$TMPD/try99.lua"
check_match "... named" "page 2: try: step 99 cannot be reached: st on array:16 has 4 steps" "$ERR"
lesson "$TMPD/trynet.lua" 'question = { text = "q", try = { net = "array:64", step = 6 } }'
check_exit "a try task on its own net (array:64: 6 steps) at step 6: accepted" 0 \
    "$MESHCAST" check "$TMPD/trynet.lua"
lesson "$TMPD/tryset.lua" 'question = { text = "q", try = { set = { "frobnicate=3" } } }'
check_exit "a try task on an unknown parameter: refused" 2 "$MESHCAST" check "$TMPD/tryset.lua"
check_match "... named" "page 2: try: .*frobnicate" "$ERR"
lesson "$TMPD/pageset.lua" 'set = { "frobnicate=3" }'
check_exit "a page setting an unknown parameter: refused" 2 "$MESHCAST" check "$TMPD/pageset.lua"
check_match "... named" "page 2: .*frobnicate" "$ERR"
for f in "$ROOT"/lessons/*.lua; do
    check_exit "shipped lesson $(basename "$f"): passes the check" 0 "$MESHCAST" check "$f"
done
check_match "check LESSON says what it checked" "lesson \"The ST broadcast on a linear array\", 11 pages" \
    "$("$MESHCAST" check "$ROOT/lessons/st-array.lua")"
finish
