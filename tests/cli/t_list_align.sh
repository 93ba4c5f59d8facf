#!/bin/sh
# `meshcast list algorithms` (issue 23, minor): the built-ins' table stays aligned however
# long a name is (fractional-simplex, 18 characters): the nets column and the summary column
# start at the same place on every line.
. "$(dirname "$0")/../lib.sh"
"$MESHCAST" list algorithms >"$TMPD/out" 2>"$TMPD/err" || { bad "list algorithms runs" "$(cat "$TMPD/err")"; finish; exit 1; }
cols=$(sed '/^$/,$d' "$TMPD/out" | awk '
    { match($0, /^[^ ]+ +/); a = RLENGTH; rest = substr($0, a + 1)
      match(rest, /^[a-z0-9-]+(, [a-z0-9-]+)* +/); print a, a + RLENGTH }' | sort -u)
n=$(printf '%s\n' "$cols" | wc -l)
check_eq "every built-in's nets and summary start in one column each" 1 "$n"
long=$(sed '/^$/,$d' "$TMPD/out" | awk '{ if (length($1) > 12) n++ } END { print n + 0 }')
[ "$long" -gt 0 ] && ok "names longer than 12 characters among them ($long)" || bad "names longer than 12 characters among them"
# the scripts' table too: scatter-allgather (17 characters) and "array, ring, mesh, torus,
# full" (30) once ran into the next column
cols=$(sed '1,/^Lua scripts/d' "$TMPD/out" | grep -v ' refused: ' | awk '
    { match($0, /^[^ ]+ +/); a = RLENGTH; rest = substr($0, a + 1)
      match(rest, /^[a-z0-9-]+(, [a-z0-9-]+)* +/); print a, a + RLENGTH }' | sort -u)
check_eq "every script's nets and summary start in one column each" 1 "$(printf '%s\n' "$cols" | wc -l)"
check_match "  (the scripts are there)" "^scatter-allgather " "$(cat "$TMPD/out")"
finish
