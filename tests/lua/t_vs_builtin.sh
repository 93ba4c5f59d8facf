#!/bin/sh
# t_vs_builtin.sh — scripts/st.lua and scripts/bst.lua print exactly the built-ins' schedules
# through the CLI (schedule --format csv), under both fits of Seidel 5 and with nu = 1.
# Transfers within a step may come in another order (a step is a set): lines are sorted.
# (tests/unit/test_lua.c compares every size 2..64 and every source with sched_equal.)
. "$(dirname "$0")/../lib.sh"
S=$ROOT/scripts
for a in st bst; do
    for spec in array:8 array:11 array:16 array:23 array:32; do
        for src in 0 5; do
            for fit in companions virtual; do
                "$MESHCAST" schedule --net $spec --algo $a --source $src --fit $fit --format csv 2>&1 | sort >"$TMPD/c"
                "$MESHCAST" schedule --net $spec --algo "$S/$a.lua" --source $src --fit $fit --format csv 2>&1 | sort >"$TMPD/l"
                if cmp -s "$TMPD/c" "$TMPD/l"; then ok "$a.lua = $a on $spec source $src --fit $fit"
                else bad "$a.lua = $a on $spec source $src --fit $fit" "$(diff "$TMPD/c" "$TMPD/l" | head -5)"; fi
            done
        done
    done
    "$MESHCAST" schedule --net array:32 --algo $a --source 7 --set nu=1 --format csv 2>&1 | sort >"$TMPD/c"
    "$MESHCAST" schedule --net array:32 --algo "$S/$a.lua" --source 7 --set nu=1 --format csv 2>&1 | sort >"$TMPD/l"
    if cmp -s "$TMPD/c" "$TMPD/l"; then ok "$a.lua = $a on array:32 nu=1"; else bad "$a.lua = $a on array:32 nu=1"; fi
done
finish
