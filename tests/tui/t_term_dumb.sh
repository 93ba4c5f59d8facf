#!/bin/sh
# A terminal that cannot draw the screen is refused, on purpose, with one line and exit 2
# (issue 23, minor: TERM=dumb used to start and draw only a status line).  The screen needs
# cursor addressing; dumb has none (infocmp says so here), an unknown TERM has no terminfo
# entry at all, an empty TERM names nothing.  A terminal that can (vt100, the test's own)
# still starts.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
clear_pane() {
    tm_run clear; _n=100
    while [ $_n -gt 0 ] && tm_cap | grep -q '^EXIT='; do sleep 0.1; _n=$((_n - 1)); done
}
if infocmp dumb >/dev/null 2>&1; then
    check_nomatch "terminfo: dumb has no cup" "cup=" "$(infocmp dumb)"
fi
check "terminfo: no entry for nosuch-term-42" sh -c '! infocmp nosuch-term-42 >/dev/null 2>&1'
for size in "80 24" "200 60"; do
    set -- $size
    tm_start "$1" "$2"
    for t in dumb nosuch-term-42 ""; do
        clear_pane
        tm_run "TERM='$t' $MESHCAST --net array:16 --algo st 2>$TMPD/err; echo EXIT=\$?"
        check_screen "${1}x$2 TERM='$t': exit 2" "(^|\\$ )EXIT=2" 20
        check_eq "${1}x$2 TERM='$t': one line on stderr" 1 "$(wc -l <"$TMPD/err" | tr -d ' ')"
        case $t in
        dumb) check_match "TERM=dumb: says it cannot move the cursor" \
                  "terminal 'dumb' cannot move the cursor" "$(cat "$TMPD/err")" ;;
        "") check_match "TERM empty: says TERM is not set" "TERM is not set" "$(cat "$TMPD/err")" ;;
        *) check_match "TERM=$t: says it is unknown" "unknown terminal type '$t'" "$(cat "$TMPD/err")" ;;
        esac
        check_match "${1}x$2 TERM='$t': points at the batch commands" "meshcast run" "$(cat "$TMPD/err")"
        check_nomatch "${1}x$2 TERM='$t': no screen drawn" "n/p step|Running total" "$SCREEN"
    done
    clear_pane
    tm_run "TERM=vt100 $MESHCAST --ascii --net array:16 --algo st 2>$TMPD/err; echo EXIT=\$?"
    check_screen "${1}x$2 TERM=vt100: the screen starts" "st on array:16" 20
    tm_keys q
    mc_exit_ok "${1}x$2 TERM=vt100"
done
finish
