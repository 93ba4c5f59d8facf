#!/bin/sh
# Replay of a stranger's recording (issue 24, findings 1, 2, 4, 5, 9; issue 23 major 6): no
# crash on markers without output or a byte order mark; a recording can only draw (a scroll
# region, insert mode, a hidden cursor, keypad modes, the line-drawing set, the alternate
# screen: quoted as text, never obeyed), and every exit, a signal's too, leaves the terminal as
# it was, read back from tmux's own mode flags; a recording larger than the terminal is
# cropped with a mark, not wrapped; a FIFO, /dev/zero and a sparse 10 GB file are refused fast
# in bounded memory; a bad header is reported at line 1; a trailing blank line is fine.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"

# the terminal's modes as tmux sees them: alternate screen, cursor shown, insert, keypad,
# cursor keys, the scroll region, the origin mode
modes() {
    tm display -p -t t '#{alternate_on} #{cursor_flag} #{insert_flag} #{keypad_flag} #{keypad_cursor_flag} #{scroll_region_upper} #{scroll_region_lower} #{origin_flag}'
}
shell_ok() {   # DESC HEIGHT
    check_eq "$1: modes back (main screen, cursor shown, no insert, no keypad, full scroll region)" \
        "0 1 0 0 0 0 $(($2 - 1)) 0" "$(modes)"
    tm_run "stty -a | tr ' ;' '\\n\\n' | grep -Ex -- '-?(icanon|echo)' | tr '\\n' ' '; echo"
    check_screen "$1: icanon and echo back" '^icanon echo ?$|^echo icanon ?$'
    fresh
}
# clear the pane and wait until it shows only the prompt (a command typed before the clear
# ran would be wiped from the screen)
fresh() {
    tm_run clear
    _n=100
    while [ "$_n" -gt 0 ] && [ "$(tm_cap | grep -v '^ *$' | tr -d '\n')" != '$' ]; do
        sleep 0.1; _n=$((_n - 1)); done
}
hdr() { printf '{"version": 2, "width": %s, "height": %s}\n' "$1" "$2"; }

# --- 1. markers and no output; a byte order mark before the header (UBSan before the fix)
tm_start 100 30
{ hdr 80 24; printf '%s\n' '[0.1, "m", "step 0"]' '[0.2, "m", "step 1"]' ''; } >"$TMPD/marks.cast"
mc_start replay "$TMPD/marks.cast"
check_screen "markers, no output: shown" "marker 1/2: step 0"
tm_keys n
check_screen "markers, no output: n steps (trailing blank line accepted)" "marker 2/2: step 1"
tm_keys q
mc_exit_ok "markers, no output"
fresh
{ printf '\357\273\277'; hdr 80 24; printf '%s\n' '[0.1, "o", "bom-text"]' '[0.2, "m", "step 0"]'; } >"$TMPD/bom.cast"
mc_start replay "$TMPD/bom.cast"
check_screen "a byte order mark before the header: replayed" "^bom-text"
tm_keys q
mc_exit_ok "byte order mark"
fresh

# --- 2. a recording that tries to change the terminal: scroll region, insert mode, hidden
# cursor, keypad and cursor-key modes, origin mode, line drawing, the alternate screen, a
# scrollback wipe, a reset; each shown quoted, none obeyed, during and after
{ hdr 80 24
  printf '%s\n' '[0.1, "o", "\u001b[5;10r\u001b[4h\u001b[?25l\u001b=\u001b[?1h\u001b[?6h\u001b(0qqq\u001b(B\u001b[3J\u001b[?1049hafter-all"]' \
      '[0.2, "m", "step 0"]' '[0.3, "o", "\u001bc\r\nline-two"]' '[0.4, "m", "step 1"]'
} >"$TMPD/modes.cast"
tm_start 100 30
mc_start replay "$TMPD/modes.cast"
check_screen_fixed "hostile modes: quoted as text" '^[[5;10r^[[4h^[[?25l^[=^[[?1h^[[?6h^[(0qqq^[(B^[[3J^[[?1049hafter-all'
check_eq "hostile modes: not obeyed while replaying (insert, keypad, cursor keys, region, origin)" \
    "0 0 0 0 29 0" "$(modes | cut -d' ' -f3-)"
tm_keys n
check_screen_fixed "hostile modes: a reset quoted too" 'after-all^[c'
check_screen "hostile modes: then the next line" '^line-two'
check_screen_fixed "hostile modes: the first frame still there (no reset obeyed)" 'after-all'
tm_keys q
mc_exit_ok "hostile modes"
shell_ok "hostile modes: after q" 30

# --- signals: SIGTERM and SIGHUP end replay with 128 + signal and the terminal restored
cat > "$TMPD/run.sh" <<RUN
#!/bin/sh
sh -c 'echo \$\$ >"\$1"; exec "\$2" replay "\$3"' sh "$TMPD/pid" "$MESHCAST" "$TMPD/modes.cast" 2>"$TMPD/err"
echo EXIT=\$?
RUN
by() {
    rm -f "$TMPD/pid"
    tm_run "sh $TMPD/run.sh"
    check_screen "SIG$1: replaying" "marker 1/2"
    pid=$(cat "$TMPD/pid" 2>/dev/null)   # exactly the meshcast this test started
    [ -n "$pid" ] && kill -"$1" "$pid"
    check_screen "SIG$1: exits with 128 + $2" "^EXIT=$((128 + $2))" 20
    shell_ok "SIG$1" 30
}
by TERM 15
by HUP 1
by INT 2
by ABRT 6     # a crash's signal: restored by the fatal handler, then the default action

# --- a recording larger than the terminal: cropped with a mark, arrows move, no wrapping
{ hdr 120 40
  awk 'BEGIN { s = "\\u001b[H\\u001b[2J"; for (r = 1; r <= 40; r++) { l = sprintf("row%02d", r);
         while (length(l) < 110) l = l "."; l = l "END" r; s = s l (r < 40 ? "\\r\\n" : "") }
         printf "[0.1, \"o\", \"%s\"]\n", s }'
  printf '%s\n' '[0.2, "m", "step 0"]'
} >"$TMPD/big.cast"
tm_start 80 24
mc_start replay "$TMPD/big.cast"
check_screen "120x40 in 80x24: the status line says cropped" "cropped: a 120x40 recording"
check_match "120x40 in 80x24: row 1 on line 1, row 2 on line 2 (no wrapping)" \
    "^row01\\.{75}
row02" "$(tm_cap | head -n 2)"
check_eq "120x40 in 80x24: 23 rows of the recording, then the status line" "row23" \
    "$(tm_cap | sed -n 23p | cut -c1-5)"
tm_keys Right Right Right Right Right
check_screen "120x40 in 80x24: Right shows the right-hand part" "END1 *$"
tm_keys q
mc_exit_ok "cropped"
shell_ok "cropped" 24

# --- files that are not recordings: refused fast, in bounded memory
mkfifo "$TMPD/fifo"
check_exit "a FIFO: refused, not waited on" 2 timeout 10 "$MESHCAST" replay "$TMPD/fifo"
check_match "a FIFO: says why" "not a regular file" "$ERR"
check_exit "/dev/zero: refused" 2 timeout 10 "$MESHCAST" replay /dev/zero
truncate -s 10G "$TMPD/sparse" 2>/dev/null
check_exit "a sparse 10 GB file: refused" 2 timeout 20 "$MESHCAST" replay "$TMPD/sparse"
check_match "a sparse 10 GB file: at line 1" "line 1: a header line over 64 KiB" "$ERR"
hdr 80 24 >"$TMPD/sparse2"
truncate -s 10G "$TMPD/sparse2"
if [ -x /usr/bin/time ]; then
    /usr/bin/time -f %M -o "$TMPD/rss" timeout 20 "$MESHCAST" replay "$TMPD/sparse2" 2>"$TMPD/err"
    check_match "a header, then 10 GB of zeros: refused at line 2" "line 2: a line over 16 MiB" "$(cat "$TMPD/err")"
    check "a header, then 10 GB of zeros: under 300 MB of memory (ASan's included)" \
        [ "$(tail -n 1 "$TMPD/rss")" -lt 300000 ]
fi
{ hdr 80 24 | sed 's/"version": 2/"version": 3/'; printf '%s\n' '[0.1, "o", "x"]' '[0.2, "m", "step 0"]'; } >"$TMPD/v3.cast"
check_exit "a bad header: exit 2" 2 "$MESHCAST" replay "$TMPD/v3.cast"
check_match "a bad header: reported at line 1" "line 1: no \"version\": 2" "$ERR"
{ hdr 80 24; printf '%s\n' '[0.1, "o", "x"]' '[0.2, "m", "step 0"]' '[0.3, "x", "y"]' '[0.4, "m", "step 1"]'; } >"$TMPD/l4.cast"
check_exit "a bad event: exit 2" 2 "$MESHCAST" replay "$TMPD/l4.cast"
check_match "a bad event: reported at its line" "line 4: an event kind" "$ERR"
finish
