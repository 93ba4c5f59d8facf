#!/bin/sh
# The course (lessons/course): `meshcast course`, `list lessons` and `check` of a course file;
# and `meshcast progress` read from a progress store written here by hand (the format of
# docs/writing-lessons.md), its counts derived by counting that file, and --reset.
. "$(dirname "$0")/../lib.sh"
export XDG_STATE_HOME="$TMPD/state"
export MESHCAST_PATH="$TMPD/path"
mkdir -p "$MESHCAST_PATH/lessons"
COURSE="$ROOT/lessons/course"
# a lesson the course does not name, on the search path
cp "$ROOT/lessons/any-size.lua" "$MESHCAST_PATH/lessons/zz-extra.lua"

# the course's lessons, in its order, read from the file itself
order=$(grep -v '^#' "$COURSE" | grep -v '^meshcast-course' | grep -v '^track ' | grep -v '^$')
check_eq "the course starts with st-array (ST first)" "st-array" "$(printf '%s\n' "$order" | head -n 1)"
check_eq "the course names every shipped lesson" \
    "$(ls "$ROOT"/lessons/*.lua | sed 's|.*/||; s|\.lua$||' | sort)" "$(printf '%s\n' "$order" | sort)"

check_exit "meshcast course" 0 "$MESHCAST" course
got=$(printf '%s\n' "$OUT" | sed -n 's/^  \([a-z0-9-]*\) .*/\1/p')
check_eq "course: the lessons in the course's order, then the one not in it" \
    "$(printf '%s\nzz-extra' "$order")" "$got"
ntr=$(grep -c '^track ' "$COURSE")
check_eq "course: one numbered heading per track" "$ntr" "$(printf '%s\n' "$OUT" | grep -c '^[0-9]\. ')"
t1=$(grep -m1 '^track ' "$COURSE" | sed 's/^track //')
check_match "course: the first track's title" "^1\\. $t1\$" "$OUT"
check_eq "course: a lesson not in the course is listed after it" "Not in the course" \
    "$(printf '%s\n' "$OUT" | grep -B1 '^  zz-extra' | head -n 1)"
# pages of st-array counted from its file: each page has a text, and so does each question
np=$(( $(grep -c '\btext *=' "$ROOT/lessons/st-array.lua") - $(grep -c '\bquestion *=' "$ROOT/lessons/st-array.lua") ))
check_match "course: st-array's title and pages ($np)" \
    "^  st-array +The ST broadcast on a linear array +$np pages +not started" "$OUT"

check_exit "course --json" 0 "$MESHCAST" course --json
check_eq "course --json: a track per track" "$ntr" "$(printf '%s' "$OUT" | jq '.tracks | length')"
check_eq "course --json: the lessons in order" "$order" \
    "$(printf '%s' "$OUT" | jq -r '.tracks[].lessons[].id')"
check_eq "course --json: st-array's pages" "$np" \
    "$(printf '%s' "$OUT" | jq '.tracks[0].lessons[0].pages')"
check_eq "course --json: zz-extra among the others" "zz-extra" \
    "$(printf '%s' "$OUT" | jq -r '.others[].id')"
check_eq "course --json: the first track's title" "$t1" "$(printf '%s' "$OUT" | jq -r '.tracks[0].title')"

check_exit "list lessons" 0 "$MESHCAST" list lessons
check_eq "list lessons: in the course's order, then the rest" "$(printf '%s\nzz-extra' "$order")" \
    "$(printf '%s\n' "$OUT" | sed 's/  .*//')"
check_match "list lessons: title, pages, progress" \
    "^st-array  The ST broadcast on a linear array  \\($np pages, $np questions; not started\\)" "$OUT"

# check COURSE: the shipped one passes; a missing lesson fails with one line
check_exit "check lessons/course" 0 "$MESHCAST" check "$COURSE"
printf 'meshcast-course 1\ntrack One\nst-array\nno-such-lesson\n' >"$TMPD/bad"
check_exit "check: a course naming a missing lesson fails" 2 "$MESHCAST" check "$TMPD/bad"
check_eq "... with one line" 1 "$(printf '%s\n' "$ERR" | wc -l)"
check_match "... naming it and its line" "bad:4: no lesson 'no-such-lesson'" "$ERR"
# `course` of a course naming a missing lesson: the listing (the lesson marked), then one line
# on stderr and a non-zero exit, as `check` does
check_exit "course: a course naming a missing lesson fails" 1 "$MESHCAST" course "$TMPD/bad"
check_match "... still listing the lessons it has" "^  st-array " "$OUT"
check_match "... marking the missing one" "no-such-lesson +\\(cannot load" "$OUT"
check_eq "... one line on stderr" 1 "$(printf '%s\n' "$ERR" | wc -l)"
check_match "... naming the lesson" "course: .*'no-such-lesson'" "$ERR"
check_exit "course --json: a missing lesson fails too" 1 "$MESHCAST" course --json "$TMPD/bad"
printf 'meshcast-course 1\nst-array\n' >"$TMPD/bad2"
check_exit "check: a lesson before any track fails" 2 "$MESHCAST" check "$TMPD/bad2"
check_match "... saying so" "before the first 'track TITLE'" "$ERR"
printf 'meshcast-course 1\ntrack A\nst-array\ntrack B\nst-array\n' >"$TMPD/bad3"
check_exit "check: a lesson named twice fails" 2 "$MESHCAST" check "$TMPD/bad3"
check_exit "course: a bad option is a usage error" 2 "$MESHCAST" course --frob

# progress, from a store written by hand: st-array (11 pages) with pages 1-4 seen;
# page 1 wrong then right, page 2 right at once, page 3 wrong (still), page 4 seen only
mkdir -p "$XDG_STATE_HOME/meshcast/progress"
printf 'meshcast-progress 1\nlast 3\npage 0 1 1 -1\npage 1 1 1 1\npage 2 1 -1 -1\npage 3 1 0 0\n' \
    >"$XDG_STATE_HOME/meshcast/progress/st-array"
# bst-crossover: page 1 right at the first try
printf 'meshcast-progress 1\nlast 0\npage 0 1 1 1\n' >"$XDG_STATE_HOME/meshcast/progress/bst-crossover"
nq=$(grep -c '\bquestion *=' "$ROOT/lessons/st-array.lua")
check_exit "progress" 0 "$MESHCAST" progress
# lesson pages seen questions answered first-try right score: 1 of nq first-try right
sc=$((100 * 1 / nq))
check_match "progress: st-array counted by hand" \
    "^st-array +$np +4 +$nq +3 +1 +2 +$sc%" "$OUT"
nqb=$(grep -c '\bquestion *=' "$ROOT/lessons/bst-crossover.lua")
check_match "progress: bst-crossover" "^bst-crossover +[0-9]+ +1 +$nqb +1 +1 +1 +$((100 / nqb))%" "$OUT"
check_match "progress: a lesson not started" "^rh-contention +[0-9]+ +0 +[0-9]+ +0 +0 +0 +0%" "$OUT"
check_exit "progress --json" 0 env MESHCAST_STUDENT="Ada L." "$MESHCAST" progress --json
J=$OUT
check_eq "progress --json: the student named" "Ada L." "$(printf '%s' "$J" | jq -r .student)"
check_eq "progress --json: the format" "meshcast-progress 1" "$(printf '%s' "$J" | jq -r .format)"
check_eq "progress --json: st-array's counts" "4 3 1 2 $sc" \
    "$(printf '%s' "$J" | jq -r '.lessons[] | select(.id == "st-array") | "\(.seen) \(.answered) \(.first_try_right) \(.right) \(.score)"')"
check_eq "progress --json: each question's first and last answer" \
    "1 wrong right|2 right right|3 wrong wrong|4 null null" \
    "$(printf '%s' "$J" | jq -r '[.lessons[] | select(.id == "st-array") | .answers[0:4][] | "\(.page) \(.first) \(.last)"] | join("|")')"
totq=0; for f in $order zz-extra; do
    p=$(ls "$ROOT/lessons/$f.lua" "$MESHCAST_PATH/lessons/$f.lua" 2>/dev/null | head -n 1)
    totq=$((totq + $(grep -c '\bquestion *=' "$p"))); done
check_eq "progress --json: totals" "5 $totq 4 2 3 $((200 / totq))" \
    "$(printf '%s' "$J" | jq -r '.total | "\(.seen) \(.questions) \(.answered) \(.first_try_right) \(.right) \(.score)"')"
check_eq "progress --json: every lesson, in the course's order" "$(printf '%s\nzz-extra' "$order")" \
    "$(printf '%s' "$J" | jq -r '.lessons[].id')"

check_exit "progress --reset st-array" 0 "$MESHCAST" progress --reset st-array
check "... its file is gone" test ! -e "$XDG_STATE_HOME/meshcast/progress/st-array"
check "... the others kept" test -e "$XDG_STATE_HOME/meshcast/progress/bst-crossover"
check_exit "progress after the reset" 0 "$MESHCAST" progress --json
check_eq "st-array starts afresh" "0 0" \
    "$(printf '%s' "$OUT" | jq -r '.lessons[] | select(.id == "st-array") | "\(.seen) \(.answered)"')"
check_exit "progress --reset (every lesson)" 0 "$MESHCAST" progress --reset
check "... bst-crossover's file is gone too" test ! -e "$XDG_STATE_HOME/meshcast/progress/bst-crossover"
check_exit "progress --reset ../x is refused" 2 "$MESHCAST" progress --reset ../x
check_exit "progress --frob is a usage error" 2 "$MESHCAST" progress --frob
finish
