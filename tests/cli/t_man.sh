#!/bin/sh
# The man page renders cleanly (issue 24 finding 9): no stray control bytes in the source (a
# form feed where "\f" was meant garbled ENVIRONMENT), and the rendered ENVIRONMENT names its
# variables as text.
. "$(dirname "$0")/../lib.sh"
MAN="$ROOT/man/meshcast.1"
check_eq "man page source: no control bytes but newlines and tabs" 0 \
    "$(tr -d '\n\t' <"$MAN" | tr -d '\040-\176\200-\377' | wc -c | tr -d ' ')"
out=$(MANWIDTH=100 LC_ALL=C.UTF-8 groff -man -Tutf8 -P-c -P-b -P-u "$MAN" 2>&1)
check_match "ENVIRONMENT: the script time limits, both named" \
    "^ *MESHCAST_LUA_SECONDS, MESHCAST_LUA_TUI_SECONDS$" "$out"
check_match "ENVIRONMENT: the instruction budgets, both named" \
    "^ *MESHCAST_LUA_INSTRUCTIONS, MESHCAST_LUA_TUI_INSTRUCTIONS$" "$out"
check_nomatch "groff: no warnings" "warning|error" "$(groff -man -Tutf8 -ww -z "$MAN" 2>&1)"
# the man page names every shipped lesson (as `list lessons` lists them), so it cannot drift
export XDG_STATE_HOME="$TMPD/state"
listed=$("$MESHCAST" list lessons | awk '{ print $1 }' | sort)
inman=$(sed -n '/^Shipped, in the course/,/^\.TP/p' "$MAN" | grep '^\.BR' |
        grep -oE '[a-z0-9]+(\\-[a-z0-9]+)+' | sed 's/\\-/-/g' | sort)
check_eq "the man page's shipped lessons are list lessons' (all $(printf '%s\n' "$listed" | wc -l))" "$listed" "$inman"
# the docs name only files in the checkout (no papers/004, STYLE.md, DESIGN.md of the
# developers' machine)
missing=""
for f in "$ROOT/README.md" "$ROOT"/docs/*.md "$MAN"; do
    for r in $(grep -oE '[A-Za-z0-9_./-]+\.md\b|papers/[0-9]+' "$f" | sort -u); do
        [ -e "$ROOT/$r" ] || [ -e "$ROOT/docs/$r" ] || [ -e "$(dirname "$f")/$r" ] ||
            missing="$missing ${f#"$ROOT"/}:$r"
    done
done
check_eq "the docs name only files in the checkout" "" "$missing"
finish
