# tests/tui/tmux.sh — sourced by tests/tui/t_*.sh after tests/lib.sh: drive meshcast in a
# private tmux server (fixed window size, no config) and read its screen with capture-pane.
TUI_DIR="$ROOT/tests/tui"
TM_SOCK="mc$$"
# (LeakSanitizer stays on with no suppressions: ncurses, libtermkey and Lua free what
# meshcast allocates through them.)
export XDG_STATE_HOME="${XDG_STATE_HOME:-$TMPD/state}"
tm() { tmux -L "$TM_SOCK" -f /dev/null "$@"; }
tm_end() { tm kill-server >/dev/null 2>&1; }
trap 'tm_end; rm -rf "$TMPD"' EXIT
trap 'exit 1' HUP INT TERM PIPE

# tm_start W H — a window of W x H running a plain sh (prompt "$ ") with TERM tmux-256color.
TM_N=0
tm_start() {
    tm_end
    TM_N=$((TM_N + 1)); TM_SOCK="mc$$.$TM_N"
    tm new-session -d -x "$1" -y "$2" -s t "exec env TERM=tmux-256color PS1='$ ' ENV= sh"
    tm set-option -t t status off >/dev/null
    tm resize-window -t t -x "$1" -y "$2" >/dev/null 2>&1
    tm_wait '^\$' 15 >/dev/null
}
tm_cap() { tm capture-pane -p -t t "$@"; }
tm_keys() { tm send-keys -t t "$@"; }
# tm_run CMD — type CMD into the pane's shell and press Enter
tm_run() { tm send-keys -t t -l "$1"; tm send-keys -t t Enter; }
# tm_wait REGEX [SECONDS] — poll the screen until REGEX (grep -E; with TM_FIXED=1 a fixed
# string) shows; the last screen read is in $SCREEN.
tm_wait() {
    _n=$(( ${2:-15} * 10 ))
    _g=-Eq; [ "${TM_FIXED:-0}" = 1 ] && _g=-Fq
    while [ "$_n" -gt 0 ]; do
        SCREEN=$(tm_cap 2>/dev/null)
        if printf '%s\n' "$SCREEN" | grep $_g -- "$1"; then return 0; fi
        sleep 0.1; _n=$((_n - 1))
    done
    return 1
}
# check_screen DESC REGEX [SECONDS] — a check that waits for REGEX on the screen
check_screen() {
    if tm_wait "$2" "${3:-15}"; then ok "$1"; else bad "$1" "no /$2/ on screen:
$(printf '%s\n' "$SCREEN" | head -n 60)"; fi
}
check_screen_fixed() { TM_FIXED=1; check_screen "$@"; TM_FIXED=0; }
# mc_start ARGS... — run meshcast with ARGS in the pane; stderr to $TMPD/err, exit status shown
# as EXIT=N when it ends.
mc_start() {
    tm_run "$MESHCAST $* 2>$TMPD/err; echo EXIT=\$?"
}
# mc_quit_ok DESC — after a quit: EXIT=0 on screen and nothing from the sanitizers
mc_exit_ok() {
    check_screen "$1: exits 0" '^EXIT=0' "${MC_EXIT_WAIT:-60}"
    if grep -Eq 'Sanitizer|runtime error' "$TMPD/err" 2>/dev/null; then
        bad "$1: sanitizers quiet" "$(head -c 2000 "$TMPD/err")"
    else ok "$1: sanitizers quiet"; fi
}
# map_items COLS ONED [WRAP] — what map.awk reads off the current screen (sorted)
map_items() { tm_cap | awk -v cols="$1" -v oned="$2" -v wrap="${3:-0}" -f "$TUI_DIR/map.awk" | sort; }
# expect_items JSON STEP ROWS COLS CAP — what the engine says the map should show (sorted)
expect_items() {
    jq -r --argjson step "$2" --argjson rows "$3" --argjson cols "$4" --argjson wrap 0 \
        --argjson cap "$5" -f "$TUI_DIR/expect.jq" "$1" | sort
}
# panel_value LABEL — the number after LABEL in the panel column
panel_value() { tm_cap | sed -n "s/.*| *$1  *\([0-9.][0-9.]*\).*/\1/p" | head -n 1; }
fmt2() { awk -v v="$1" 'BEGIN { printf "%.2f", v }'; }
# tree_rows — the full:P tree on the screen (fulltree.h) as "row node" lines: the row's step,
# 0 for "source", 999 for "root"
tree_rows() {
    tm_cap | cut -d'|' -f1 | awk '/^step / { row = $2 } /^source/ { row = 0 } /^root/ { row = 999 }
        { n = split($0, f, " "); for (i = 1; i <= n; i++) if (f[i] ~ /^[*>!]?[0-9]+:[0-9]+(<[0-9]+)?$/) {
            c = f[i]; gsub(/[*>!]/, "", c); sub(/<.*/, "", c); split(c, q, ":"); print row, q[1] } }'
}
# tree_placed FIRST ROWS CMP — 1 if every "k v p" line of FIRST has v in row k of ROWS
# (tree_rows) and its parent p in a row that is CMP k (-lt: above, -gt: below), else 0 (the
# misplaced are printed)
tree_placed() {
    _ok=1
    while read -r _k _v _p; do
        _got=$(awk -v v="$_v" '$2 == v { print $1 }' "$2")
        _prow=$(awk -v v="$_p" '$2 == v { print $1 }' "$2")
        if [ "$_got" != "$_k" ] || [ -z "$_prow" ] || ! [ "$_prow" "$3" "$_k" ]; then
            _ok=0; echo "node $_v: row '$_got' want $_k, parent $_p in row '$_prow'" >&2; fi
    done <"$1"
    echo "$_ok"
}
# check_full_step JSON ST — a broadcast on full:P drawn as its tree, at step ST: the Step
# panel lists the step's transfers of the schedule JSON (" src>dst [chunk]") and the map marks
# every receiver '*'.  The map (left of the panel) is left in $TMPD/map.
check_full_step() {
    jq -r ".steps[$(($2 - 1))].transfers[] | \" \\(.src)>\\(.dst) [\\(.chunks[0][0])]\"" \
        "$1" >"$TMPD/want"
    _got=$(tm_cap | sed -n 's/.*| \( [0-9]*>[0-9]* \[[0-9]*\]\).*/\1/p' | sort)
    check_eq "step $2: the listed transfers are the engine's" "$(sort "$TMPD/want")" "$_got"
    tm_cap | cut -d'|' -f1 >"$TMPD/map"
    _want=$(jq -r ".steps[$(($2 - 1))].transfers[].dst" "$1" | sort -n | tr '\n' ' ')
    _got=$(grep -oE '\*[0-9]+:' "$TMPD/map" | tr -d '*:' | sort -n | tr '\n' ' ')
    check_eq "step $2: receivers marked on the tree" "$_want" "$_got"
}
