#!/bin/sh
# Hostile scripts in the screen (issue 8, finding 1): while a script that never ends runs, the
# screen stays alive ("running the script"), Escape cancels it and keeps what was shown, q
# quits, SIGTERM ends meshcast, and the terminal is restored every time; the interactive time
# limit ($MESHCAST_LUA_TUI_SECONDS) stops it by itself; a lesson that never loads is stopped.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
L=$ROOT/tests/lua
HANG="$L/hostile_big_calls.lua --bytes 3"   # a plain find in an endless loop, in build
# the terminal is restored: the shell's line discipline is back (echo and icanon on)
tty_ok() {
    tm_run clear
    tm_run "stty -a | tr ' ' '\\n' | grep -Ex 'icanon|echo' | tr '\\n' ' '; echo TTY"
    check_screen "$1: the terminal is restored" "icanon echo TTY|echo icanon TTY" 10
}

tm_start 150 40
export MESHCAST_LUA_TUI_SECONDS=60
# q while a script hangs at start
mc_start --ascii --net array:8 --algo $HANG
check_screen "a hanging script: the screen says it is running" "running the script.*q quits" 15
tm_keys q
mc_exit_ok "q during a hanging script"
tty_ok "q"

# Escape cancels a hanging script chosen on the command line; the broadcast shown stays
tm_run clear
mc_start --ascii --net array:8
check_screen "opens" "st on array:8"
tm_keys : ; tm_run "algo $L/hostile_gc_top.lua"
check_screen "a script whose finalizer hangs: running" "running the script" 15
tm_keys Escape
check_screen "Escape cancels it" "cancelled" 15
check_screen "the broadcast shown stays" "st on array:8" 5
tm_keys n
check_screen "and the screen answers keys" "step 1/" 5
# Ctrl-C cancels too
tm_keys : ; tm_run "algo $L/hostile_close.lua"
check_screen "a __close that hangs: running" "running the script" 15
tm_keys C-c
check_screen "Ctrl-C cancels it" "cancelled" 15
tm_keys q
mc_exit_ok "q after Ctrl-C"
tty_ok "Ctrl-C, q"

# SIGTERM while a script hangs: meshcast ends, the terminal is restored
tm_run clear
mc_start --ascii --net array:8 --algo $HANG
check_screen "hanging again" "running the script" 15
shpid=$(tm list-panes -t t -F '#{pane_pid}')
mcpid=$(ps -o pid= --ppid "$shpid" | head -n 1 | tr -d ' ')
[ -n "$mcpid" ] && kill -TERM "$mcpid"
check_screen "SIGTERM ends meshcast" "^EXIT=" 15
tty_ok "SIGTERM"

# the interactive limit stops it by itself, with the file and what it was doing
tm_run clear
tm_run "export MESHCAST_LUA_TUI_SECONDS=1"
mc_start --ascii --net array:8
check_screen "opens (limit 1 s)" "st on array:8"
tm_keys : ; tm_run "algo $L/hostile_pattern.lua"
check_screen "the interactive limit stops a pattern bomb" "stopped: time limit of 1 s" 15
check_screen "and the broadcast shown stays" "st on array:8" 5
tm_keys q
mc_exit_ok "after the limit"

# a lesson that never finishes loading: stopped at the limit, one line, exit 2
tm_run clear
tm_run "XDG_STATE_HOME=$XDG_STATE_HOME $MESHCAST lesson $L/hostile_lesson.lua 2>$TMPD/err; echo EXIT=\$?"
check_screen "a hanging lesson is stopped (exit 2)" "EXIT=2" 20
check_match "a hanging lesson: the interactive limit, named" "hostile_lesson.lua:?[0-9]*: stopped: time limit of 1 s .*MESHCAST_LUA_TUI_SECONDS" "$(cat "$TMPD/err")"
tty_ok "lesson"
finish
