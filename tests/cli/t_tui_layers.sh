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
for v in tileview figure overview fulltree hxview vs asynctl mapview draw-step draw-timeline draw-asyncnode draw-chart; do
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
for v in tileview figure overview fulltree hxview vs asynctl mapview draw-step draw-timeline draw-asyncnode draw-chart; do
    check_nomatch "$v reaches no app.h through other headers" " app\.h " "$(reach "$v.c" "$v.h")"
done
check_nomatch "draw-figure (draw-chart.h's) reaches no app.h" " app\.h " "$(reach draw-figure.c)"
# no view swaps another broadcast or time line into the App to draw it (side by side once
# did: asynctl_vs_enter): the App's broadcast and time line are set only by the App's files
set_b=$(grep -lE '(a|app)->(b|atl) = ' src/tui/*.c | grep -v '^src/tui/app[-.]' | tr '\n' ' ')
check_eq "only app*.c set the App's broadcast or time line" "" "$set_b"
check_match "... and the check sees where the App sets it" "a->b = " "$(cat src/tui/app*.c)"
# struct App is private to the App module (issue 23, the hub): app.h keeps the opaque type; the
# fields are defined in src/tui/app-core.h alone, which no header includes (it would leak).  The
# .c files that still read or write fields include it, and are listed here: the App's own
# (app*.c), then those still to be given a narrow interface, then white-box tests.  A file
# added to the list is a step back for the hub: give it what it needs through app.h instead.
check_eq "struct App's fields are defined only in app-core.h" "src/tui/app-core.h" \
    "$(grep -lE '^struct App *\{' src/*/*.h src/*/*.c src/*/*/*.h src/*/*/*.c 2>/dev/null | tr '\n' ' ' | sed 's/ $//')"
check_match "app.h keeps App opaque" '^typedef struct App App;$' "$(cat src/tui/app.h)"
check_eq "no header includes app-core.h" "" \
    "$(grep -lE '#include "([./]*src/tui/)?app-core\.h"' src/*/*.h tests/*/*.h bench/*.h 2>/dev/null)"
core_users=$(grep -lE '#include "([./]*src/tui/)?app-core\.h"' src/*/*.c tests/*/*.c bench/*.c 2>/dev/null |
    grep -vE '^src/tui/app(-[a-z0-9]+)?\.c$' | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')
check_eq "the .c files outside app*.c that include app-core.h" \
    "bench/tui_frame.c tests/fuzz/fuzz_input.c tests/unit/test_cmdtab.c tests/unit/test_lesson_predict.c tests/unit/test_lesson_state.c tests/unit/test_tui_classroom.c tests/unit/test_tui_input.c tests/unit/test_tui_split.c" \
    "$core_users"
# no file of the frame's drawing (draw*.c: the frame itself reads the App through app.h's
# app_frame_view and writes back through its three setters) includes it
check_nomatch "no src/tui/draw*.c includes app-core.h" '#include "app-core\.h"' "$(cat src/tui/draw*.c)"
check_match "... and the check reads draw.c (it includes app.h)" '#include "app\.h"' "$(cat src/tui/draw.c)"
check_nomatch "the narrow views include no app-core.h" '#include "app-core\.h"' \
    "$(cat src/tui/tui.c src/tui/cmdtab.c src/tui/draw-map.c src/tui/measured.c src/tui/tileview.c src/tui/figure.c src/tui/overview.c src/tui/fulltree.c src/tui/hxview.c src/tui/asynctl.c src/tui/vs.c src/tui/mapview.c src/tui/draw-step.c src/tui/draw-timeline.c src/tui/draw-asyncnode.c src/tui/draw-chart.c src/tui/draw-figure.c 2>/dev/null)"
# Every function app.h and bcast.h declare is called somewhere in src/ (a definition or a
# declaration, the name at the start of a line with no '(' or '=' before it, is not a call): app_partial_count, bcast_partial_role and app_complete were
# left with no caller when the views got their narrow interfaces.
uncalled=""
for h in src/tui/app.h src/tui/bcast.h; do
    for n in $(grep -oE '^[A-Za-z][A-Za-z0-9_ *]*[ *](app|bcast)_[a-z0-9_]+\(' "$h" |
               grep -oE '(app|bcast)_[a-z0-9_]+\($' | tr -d '('); do
        c=$(grep -rhE "\\b$n\\(" src --include='*.c' --include='*.h' | grep -cvE "^[A-Za-z][^=(]*\\b$n\\(")
        [ "$c" -eq 0 ] && uncalled="$uncalled $n"
    done
done
check_eq "every function app.h and bcast.h declare has a caller in src/" "" "$uncalled"
check "... and the check reads their declarations" \
    [ "$(grep -cE '^[A-Za-z][A-Za-z0-9_ *]*[ *]app_[a-z0-9_]+\(' src/tui/app.h)" -gt 40 ]
finish
