#!/bin/sh
# The screen's sources kept changeable (issue 23, "the screen's hub"): no include cycle among
# src/tui's headers; the `:` commands only in the command table (src/tui/cmdtab.c); the views
# given a narrow interface do not include app.h.  Reads the sources; runs no binary.
. "$(dirname "$0")/../lib.sh"
cd "$ROOT" || exit 2

# edges "includer included" between src/tui headers (a .c is never included: only headers can
# close a cycle)
edges=$(for h in src/tui/*.h; do
    sed -n 's/^#include "\([^"/]*\.h\)".*/\1/p' "$h" | while read -r inc; do
        [ -f "src/tui/$inc" ] && printf '%s %s\n' "$(basename "$h")" "$inc"
    done
    printf '%s %s\n' "$(basename "$h")" "$(basename "$h")"   # every header a node
done)
check_match "the include graph was read" "app\\.h" "$edges"
cyc=$(printf '%s\n' "$edges" | tsort 2>&1 >/dev/null)
check_eq "no include cycle among src/tui's headers" "" "$cyc"
# the check itself catches a cycle (two headers including each other)
cyc=$(printf '%s\n%s\n' "$edges" "layout.h app.h" | tsort 2>&1 >/dev/null)
check_match "... and it would see one (layout.h -> app.h added)" "loop" "$cyc"

# the `:` commands: dispatched, documented and completed only through the table
check_eq "'unknown command' said only by cmdtab.c" "src/tui/cmdtab.c" \
    "$(grep -l 'unknown command' src/tui/*.c | tr '\n' ' ' | sed 's/ $//')"
check_eq "app_command only hands the line to the table" "1" \
    "$(cat src/tui/app*.c | sed -n '/^bool app_command/,/^}/p' | grep -c 'cmdtab_run')"
keys=$(cat src/tui/app*.c | sed -n '/^static const AppKeyHelp key_help/,/^};/p')
check_match "the key help was read" '"q  Ctrl-C"' "$keys"
check_nomatch "no ':command' in the key help (the table lists them)" '\{":[a-z]' "$keys"
check_nomatch "no list of command names beside the table" 'commands\[\] *= *\{' \
    "$(cat src/tui/*.c)"

# the views with a narrow interface: what they draw comes through their own header, not App
# (the list grows as views get theirs)
for v in tileview figure overview fulltree hxview vs asynctl mapview draw-step; do
    check "$v.c and $v.h exist" test -f "src/tui/$v.c" -a -f "src/tui/$v.h"
    check_nomatch "$v includes no app.h" '#include "app\.h"' "$(cat "src/tui/$v.c" "src/tui/$v.h")"
done
# ... nor through another src/tui header (asynctl.h and draw-internal.h include app.h): the
# headers each view's files reach, transitively
reach() {   # reach FILE...: the src/tui headers the files include, transitively
    seen=" " todo="$*"
    while [ -n "$todo" ]; do
        set -- $todo; f=$1; shift; todo="$*"
        for inc in $(sed -n 's/^#include "\([^"/]*\.h\)".*/\1/p' "src/tui/$f" 2>/dev/null); do
            case "$seen" in *" $inc "*) continue ;; esac
            [ -f "src/tui/$inc" ] || continue
            seen="$seen$inc "; todo="$todo $inc"
        done
    done
    printf '%s\n' "$seen"
}
check_match "the reach of draw-map.c was read (it draws through the App)" " app\.h " \
    "$(reach draw-map.c)"
for v in tileview figure overview fulltree hxview vs asynctl mapview draw-step; do
    check_nomatch "$v reaches no app.h through other headers" " app\.h " "$(reach "$v.c" "$v.h")"
done
# no view swaps another broadcast or time line into the App to draw it (side by side once
# did: asynctl_vs_enter): the App's broadcast and time line are set only by the App's files
set_b=$(grep -lE '(a|app)->(b|atl) = ' src/tui/*.c | grep -v '^src/tui/app[-.]' | tr '\n' ' ')
check_eq "only app*.c set the App's broadcast or time line" "" "$set_b"
check_match "... and the check sees where the App sets it" "a->b = " "$(cat src/tui/app*.c)"
finish
