#!/bin/sh
# Signals and a script's bytes on the screen (issue 8, findings 3 and 6; issue 9 defect 13):
# SIGINT/SIGTERM/SIGHUP end the screen with 128 + signal, SIGQUIT too (no core), and signals
# whose default is to end the process (SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE) leave the terminal
# restored; a script's print() never reaches the terminal (it shows, escaped, on the message
# line).  The signals go to the pid the pane's shell wrote down, never to a process found by
# name.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"

shell_ok() {
    tm_run "stty -a | tr ' ;' '\\n\\n' | grep -Ex -- '-?(icanon|echo)' | tr '\\n' ' '; echo"
    check_screen "$1: icanon and echo back" '^icanon echo ?$|^echo icanon ?$'
    flags=$(tm display -p -t t '#{mouse_any_flag}#{mouse_standard_flag}#{mouse_sgr_flag}#{alternate_on}')
    check_eq "$1: mouse reporting off, alternate screen left" "0000" "$flags"
    tm_run clear
}

# by SIG NUMBER: start, signal, expect EXIT=128+NUMBER and a usable terminal.  The status is
# printed by a non-interactive sh (an interactive one abandons the line when its child dies of
# SIGINT, as it should).
cat > "$TMPD/run.sh" <<RUN
#!/bin/sh
sh -c 'echo \$\$ >"\$1"; exec "\$2" --net mesh:8x8' sh "$TMPD/pid" "$MESHCAST" 2>"$TMPD/err"
echo EXIT=\$?
RUN
by() {
    rm -f "$TMPD/pid"
    tm_run "sh $TMPD/run.sh"
    check_screen "SIG$1: running" "st on mesh:8x8"
    pid=$(cat "$TMPD/pid" 2>/dev/null)   # exactly the meshcast this test started
    [ -n "$pid" ] && kill -"$1" "$pid"
    check_screen "SIG$1: exits with 128 + $2" "^EXIT=$((128 + $2))" 20
    shell_ok "SIG$1"
}

tm_start 100 30
by INT 2
by TERM 15
by HUP 1
by QUIT 3
by USR1 10
by USR2 12
by ALRM 14
by PIPE 13

# a script's print: on the message line, escaped; the window title is not renamed
cat > "$TMPD/noisy.lua" <<'LUA'
local mc = require "meshcast"
return {
  name = "noisy",
  nets = { "array" },
  build = function(sched, net, p, source)
    print("\27]2;pwned\7 hello \27[2J")
    local d = mc.log2(net:size())
    for i = 1, d do
      local st, half = sched:step("ST"), 1 << (d - i)
      for r = 0, net:size() - 1, 2 * half do
        st:send(r ~ source, (r ~ half) ~ source, { 0 })
      end
    end
  end,
}
LUA
tm_start 100 30
before=$(tm display -p -t t '#{pane_title}')
mc_start --net array:8 --algo "$TMPD/noisy.lua"
check_screen "script print: shown on the message line, escaped" 'noisy(\.lua)?: \?\]2;pwned\? hello \?\[2J'
check_eq "script print: the window title is unchanged" "$before" "$(tm display -p -t t '#{pane_title}')"
tm_keys q
mc_exit_ok "script print"
check_nomatch "script print: nothing on stderr" "pwned" "$(cat "$TMPD/err")"

# a hostile recording replayed: what draws is drawn; the title, the clipboard, a reset and a
# request the terminal would answer (DSR: its reply would come back as keys) are shown quoted,
# never sent (tests/tui/t_replay.sh has the terminal's modes)
printf '%s\n' '{"version": 2, "width": 80, "height": 24}' \
    '[0.1, "o", "\u001b]2;pwned\u0007\u001b]52;c;ZXZpbA==\u0007hello-replay \u001b[6n\u001b[1mbold\u001b[0m"]' \
    '[0.2, "m", "step 0\u001b]2;label-pwned\u0007"]' > "$TMPD/evil.cast"
tm_start 100 30
before=$(tm display -p -t t '#{pane_title}')
mc_start replay "$TMPD/evil.cast"
check_screen_fixed "replay: the text is drawn, the rest quoted" '^[]2;pwned^G^[]52;c;ZXZpbA==^Ghello-replay ^[[6nbold'
check_screen "replay: the marker's label as text" "step 0\\?\\]2;label-pwned\\?"
check_eq "replay: the window title is unchanged" "$before" "$(tm display -p -t t '#{pane_title}')"
check_nomatch "replay: no reply to a status request came back" "\\[[0-9]+;[0-9]+R" "$SCREEN"
tm_keys q
mc_exit_ok "replay"

# costs on the screen in the model's unit (issue 9 defect 13): us under seidel only
tm_start 120 40
mc_start --net mesh:8x8 --algo st --model postal
check_screen "postal: running" "st on mesh:8x8"
tm_keys n
check_screen "postal: the step's cost in units" "Cost of this step +[0-9.]+ units"
check_screen "postal: totals in units" "Total +[0-9.]+ units"
check_nomatch "postal: no us on the screen" "[0-9] us" "$SCREEN"
tm_keys q
mc_exit_ok "postal"
mc_start --net mesh:8x8 --algo st
check_screen "seidel: totals in us" "Total +[0-9.]+ us"
check_screen "seidel: predicted in us" "Predicted \\(paper\\) = +[0-9.]+ us"
tm_keys q
mc_exit_ok "seidel"
finish
