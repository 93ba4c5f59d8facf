#!/bin/sh
# Every page of every shipped lesson at 80x24 (issue 23, majors 1 and 2): the lesson pane
# scrolls (} and {, a "v" mark while more is below) and the whole question and each of its
# choices can be reached; a right answer's "Right!" and explanation too; and before a
# question is answered, the right choice's number is nowhere on the screen (title, narration,
# panels, the page's text) but in the choices themselves.  The pages, questions and answers
# are read from the lesson files by lesson_pages.py, not from meshcast.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
PAGES="$ROOT/tests/tui/lesson_pages.py"
SCR="$ROOT/tests/tui/lesson_screen.py"
command -v python3 >/dev/null || { bad "python3 for lesson_pages.py"; finish; exit 1; }

# scroll_caps PREFIX — capture the screen, then } while the "v" mark says more is below;
# the capture files' names on stdout
scroll_caps() {
    _k=0
    tm_cap > "$1.$_k"; _files="$1.$_k"
    while grep -q '│ v } more' "$1.$_k" && [ $_k -lt 30 ]; do
        tm_keys '}'
        _prev="$1.$_k"; _k=$((_k + 1))
        _n=50
        while [ $_n -gt 0 ]; do
            tm_cap > "$1.$_k"; cmp -s "$_prev" "$1.$_k" || break
            sleep 0.1; _n=$((_n - 1))
        done
        _files="$_files $1.$_k"
    done
    printf '%s' "$_files"
}
# report LABEL ARGS... — run lesson_screen.py ARGS and turn its lines into checks
report() {
    _l=$1; shift
    python3 "$SCR" "$@" > "$TMPD/rep" 2>&1 || echo "bad lesson_screen.py $1 | $(cat "$TMPD/rep")" >> "$TMPD/rep"
    while IFS= read -r l; do
        case $l in
            ok\ *) ok "$_l: ${l#ok }" ;;
            *) d=${l#bad }; bad "$_l: ${d%% | *}" "${d#* | }" ;;
        esac
    done < "$TMPD/rep"
}

only=${LESSONS:-}
[ -n "$only" ] || only=$(cd "$ROOT/lessons" && ls *.lua | sed 's/\.lua$//')
W=${W:-80}; H=${H:-24}
for les in $only; do
    python3 "$PAGES" "$ROOT/lessons/$les.lua" > "$TMPD/pages" || { bad "$les: read"; continue; }
    tm_start "$W" "$H"
    tm_run "XDG_STATE_HOME=$TMPD/st.$les $MESHCAST lesson $les 2>$TMPD/err; echo EXIT=\$?"
    while IFS="$(printf '\037')" read -r name pg kind q ch ans ex; do
        if ! tm_wait "page $pg/" 30; then bad "$les p$pg: page shown" "$SCREEN"; break; fi
        sleep 0.4
        [ "$kind" = none ] && { tm_keys ']'; continue; }
        files=$(scroll_caps "$TMPD/c")
        report "$les p$pg ${W}x$H" reach "$q" "$ch" $files
        if [ "$kind" = choice ]; then
            report "$les p$pg" hides "$q" "$ch" "$ans" $files
            tm_keys "$(printf "\\$(printf '%03o' $((97 + ans)))")"
            tm_wait 'Right!' 10 >/dev/null
            sleep 0.3
            files=$(scroll_caps "$TMPD/r")
            report "$les p$pg ${W}x$H answered" after "$ex" $files
        fi
        tm_keys ']'
    done < "$TMPD/pages"   # (reads its own copy: the loop's checks count in this shell)
    tm_keys q
    mc_exit_ok "$les"
done
finish
