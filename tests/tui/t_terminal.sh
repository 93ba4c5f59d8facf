#!/bin/sh
# The terminal as it is: resizing at any moment, too small a window, NO_COLOR / --no-color,
# and the terminal restored on q, Ctrl-C, SIGTERM, SIGHUP and a crash (shell usable after).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"

# shell_ok DESC — the pane's shell is back in cooked mode with echo, and typing works
shell_ok() {
    tm_run "stty -a | tr ' ;' '\\n\\n' | grep -Ex -- '-?(icanon|echo)' | tr '\\n' ' '; echo"
    check_screen "$1: icanon and echo back" '^icanon echo ?$|^echo icanon ?$'
    tm_run "echo typed-ok-\$((6 * 7))"
    check_screen "$1: typing a command works" '^typed-ok-42$'
    flags=$(tm display -p -t t '#{mouse_any_flag}#{mouse_standard_flag}#{mouse_sgr_flag}#{alternate_on}')
    check_eq "$1: mouse reporting off, alternate screen left" "0000" "$flags"
    tm_run clear
}

# --- not a terminal
check_exit "stdout not a terminal: exit 2" 2 "$MESHCAST" --net mesh:8x8
check_match "stdout not a terminal: one line naming the batch commands" 'batch commands' "$ERR"
check_eq "stdout not a terminal: exactly one line" 1 "$(printf '%s\n' "$ERR" | wc -l | tr -d ' ')"
check_exit "bad option: exit 2 before the screen" 2 "$MESHCAST" --net cube:3
check_match "bad option: setup's message" "bad net|unknown kind" "$ERR"

# --- resizing during a run (playing)
tm_start 100 30
mc_start --net mesh:8x8 --algo st
check_screen "starts at 100x30" "st on mesh:8x8"
tm_keys Space
tm resize-window -t t -x 40 -y 12
check_screen "40x12: says it is too small" "Terminal too small: 40x12"
check_screen "40x12: says what size is needed" "needs at least [0-9]+x[0-9]+"
tm resize-window -t t -x 80 -y 24
check_screen "80x24: map and panel back" "st on mesh:8x8.*step [0-9]+/8"
check_screen "80x24: step panel shown" "Running total"
tm resize-window -t t -x 200 -y 60
check_screen "200x60: map and panel" "Running total"
check_match "200x60: roomy zoom shows the cells" "[0-9]+/4|■" "$SCREEN"
tm resize-window -t t -x 61 -y 16
check_screen "61x16: still drawn" "st on mesh"
tm resize-window -t t -x 100 -y 30
tm_keys Space
tm_keys q
mc_exit_ok "after resizes"
check_nomatch "after resizes: no crash" "EXIT=[1-9]" "$(tm_cap)"
shell_ok "q"

# --- NO_COLOR and --no-color: no colour escapes, everything still marked by glyphs
sgr_colours() {  # the colour parameters in the SGR sequences of a capture -e (39/49: default)
    tm capture-pane -p -e -t t | grep -Eo "$(printf '\033')\\[[0-9;]*m" | tr -d 'm' | cut -c3- |
        tr ';' '\n' | grep -Ex '3[0-8]|4[0-8]|9[0-7]|10[0-7]' | sort -u | tr '\n' ' '
}
tm_start 170 40
tm_run "NO_COLOR=1 $MESHCAST --net mesh:8x8 --algo rh 2>$TMPD/err; echo EXIT=\$?"
check_screen "NO_COLOR: starts" "rh on mesh:8x8"
tm_keys : ; tm_run "step 8"
check_screen "NO_COLOR: at the overloaded step" " step 8/"
check_eq "NO_COLOR: no colour escapes in the screen" "" "$(sgr_colours)"
check_match "NO_COLOR: circuits drawn with arrows" "━▶|◀━" "$SCREEN"
check_match "NO_COLOR: overloaded links show their load" "◀2▶|━2▶|◀2━|^ .* 2 .*" "$SCREEN"
check_match "NO_COLOR: receiving nodes marked" "•" "$SCREEN"
attrs=$(tm capture-pane -p -e -t t | grep -Eo "$(printf '\033')\\[[0-9;]*m" | sort -u | tr '\n' ' ')
check_match "NO_COLOR: attributes still used (bold/reverse)" "\\[(1|7)m|;7m|;1m" "$attrs"
tm_keys q
mc_exit_ok "NO_COLOR"
tm_run "clear"
mc_start --no-color --net mesh:8x8 --algo rh
check_screen "--no-color: starts" "rh on mesh:8x8"
check_eq "--no-color: no colour escapes" "" "$(sgr_colours)"
tm_keys q
mc_exit_ok "--no-color"
tm_run "clear"
mc_start --net mesh:8x8 --algo rh
check_screen "colour: starts" "rh on mesh:8x8"
check_match "colour: colours are used otherwise" "[0-9]" "$(sgr_colours)"
tm_keys q
mc_exit_ok "colour"
tm_run clear

# --- --ascii: no UTF-8 line drawing
mc_start --ascii --net mesh:8x8 --algo st
check_screen "--ascii: starts" "st on mesh:8x8"
tm_keys n; tm_keys n; tm_keys n
check_screen "--ascii: circuits as ==>" "==>"
check_nomatch "--ascii: nothing outside ASCII" "$(printf '[\200-\377]')" "$(tm_cap | LC_ALL=C cat)"
tm_keys q
mc_exit_ok "--ascii"
tm_run clear

# --- Ctrl-Z suspends and fg comes back (the shell is usable in between)
tm_start 100 30
tm_run "exec bash --norc --noprofile"
tm_run "PS1='$ '; $MESHCAST --net mesh:8x8 2>$TMPD/err; echo EXIT=\$?"
check_screen "Ctrl-Z: running" "st on mesh:8x8"
tm_keys C-z
check_screen "Ctrl-Z: stopped, the shell is back" "Stopped"
tm_run "echo typed-while-stopped"
check_screen "Ctrl-Z: typing works while stopped" "^typed-while-stopped$"
tm_run "fg"
check_screen "fg: the screen comes back" "st on mesh:8x8"
tm_keys n
check_screen "fg: keys work again" " step 1/"
tm_keys q
# (wait for meshcast to be gone before typing: under load it could read the next command's
#  bytes together with the q)
_n=150
while [ "$_n" -gt 0 ] && [ "$(tm display-message -p -t t '#{pane_current_command}')" != bash ]; do
    sleep 0.1; _n=$((_n - 1))
done
tm_run "echo after-fg-\$?"
check_screen "Ctrl-Z and fg: quits with status 0" "^after-fg-0$"
shell_ok "Ctrl-Z and fg"
tm_start 100 30

# --- the ways out: Ctrl-C, SIGTERM, SIGHUP, a crash (the signals go to the pid the pane's
#     shell wrote down, never to a process found by name)
mc_start --net mesh:8x8
check_screen "Ctrl-C: running" "st on mesh:8x8"
tm_keys C-c
mc_exit_ok "Ctrl-C"
shell_ok "Ctrl-C"

tm_run "sh -c 'echo \$\$ >$TMPD/pid; exec $MESHCAST --net mesh:8x8' 2>$TMPD/err; echo EXIT=\$?"
check_screen "SIGTERM: running" "st on mesh:8x8"
pid=$(cat "$TMPD/pid" 2>/dev/null)   # exactly the meshcast this test started
[ -n "$pid" ] && kill -TERM "$pid"
check_screen "SIGTERM: exits 128 + 15" '^EXIT=143' 20
shell_ok "SIGTERM"

tm_run "sh -c 'echo \$\$ >$TMPD/pid; exec $MESHCAST --net mesh:8x8' 2>$TMPD/err; echo EXIT=\$?"
check_screen "SIGHUP: running" "st on mesh:8x8"
pid=$(cat "$TMPD/pid" 2>/dev/null)   # exactly the meshcast this test started
[ -n "$pid" ] && kill -HUP "$pid"
check_screen "SIGHUP: exits 128 + 1" '^EXIT=129' 20
shell_ok "SIGHUP"

tm_run "ASAN_OPTIONS=handle_segv=0 sh -c 'echo \$\$ >$TMPD/pid; exec $MESHCAST --net mesh:8x8' 2>$TMPD/err; echo EXIT=\$?"
check_screen "crash: running" "st on mesh:8x8"
pid=$(cat "$TMPD/pid" 2>/dev/null)   # exactly the meshcast this test started
[ -n "$pid" ] && kill -SEGV "$pid"
check_screen "crash: re-raised (killed by SIGSEGV)" '^EXIT=139' 20
shell_ok "crash"
finish
