#!/bin/sh
# Record and :export never destroy a file (issue 24 finding 3; issue 23 minor ":export
# overwrites a file silently"): the recording goes to a temporary file renamed at the end (the
# old FILE stays as it was while the session runs), a FILE that is not an asciicast is
# replaced only with --force, never the algorithm file the session reads, never a FIFO (not
# waited on); :export refuses an existing file unless --force.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"

# clear the pane and wait until it shows only the prompt (a command typed before the clear
# ran would be wiped from the screen)
fresh() {
    tm_run clear
    _n=100
    while [ "$_n" -gt 0 ] && [ "$(tm_cap | grep -v '^ *$' | tr -d '\n')" != '$' ]; do
        sleep 0.1; _n=$((_n - 1)); done
}
cp "$ROOT/scripts/bst.lua" "$TMPD/my.lua"
tm_start 120 40

# the script it was asked to record: refused, with and without --force, byte for byte kept
mc_start record "$TMPD/my.lua" --net array:8 --algo "$TMPD/my.lua"
check_screen "record over the script: refused" 'EXIT=2' 20
check_match "record over the script: says why" "is a file this session reads, not replaced" "$(cat "$TMPD/err")"
fresh
mc_start record "$TMPD/my.lua" --force --net array:8 --algo "$TMPD/my.lua"
check_screen "record --force over the script it reads: refused" 'EXIT=2' 20
check_match "record --force over the script: says why" "is a file this session reads" "$(cat "$TMPD/err")"
check "the script is untouched" cmp "$TMPD/my.lua" "$ROOT/scripts/bst.lua"
check_eq "no temporary file left" "my.lua" "$(ls -A "$TMPD" | grep my.lua | tr '\n' ' ' | sed 's/ $//')"
fresh

# a FIFO: refused at once
mkfifo "$TMPD/fifo"
mc_start record "$TMPD/fifo" --net array:8
check_screen "record to a FIFO: refused, not waited on" 'EXIT=2' 20
check_match "record to a FIFO: says why" "not a regular file" "$(cat "$TMPD/err")"
fresh

# a notes file: refused; with --force replaced by a recording
printf 'my notes\n' >"$TMPD/notes.txt"
mc_start record "$TMPD/notes.txt" --net array:8
check_screen "record over notes: refused" 'EXIT=2' 20
check_match "record over notes: says why" "notes.txt exists and is not an asciicast; record FILE --force replaces it" "$(cat "$TMPD/err")"
check_eq "record over notes: kept" "my notes" "$(cat "$TMPD/notes.txt")"
fresh
mc_start record "$TMPD/notes.txt" --force --net array:8
check_screen "record --force over notes: runs" "on array:8"
check_eq "while recording, the old file is as it was" "my notes" "$(cat "$TMPD/notes.txt")"
tm_keys q
mc_exit_ok "record --force"
check_eq "record --force: now an asciicast" 2 "$(head -n 1 "$TMPD/notes.txt" | jq .version)"
fresh

# an existing recording is replaced without --force, once the session ends; SIGTERM keeps it
cp "$TMPD/notes.txt" "$TMPD/old.cast"
cat > "$TMPD/run.sh" <<RUN
#!/bin/sh
sh -c 'echo \$\$ >"\$1"; exec "\$2" record "\$3" --net mesh:4x4' sh "$TMPD/pid" "$MESHCAST" "$TMPD/old.cast" 2>"$TMPD/err"
echo EXIT=\$?
RUN
tm_run "sh $TMPD/run.sh"
check_screen "record over a recording: runs" "on mesh:4x4"
check "while recording, the old recording is as it was" cmp "$TMPD/old.cast" "$TMPD/notes.txt"
tm_keys n
check_screen "record: step 1" " step 1/"
kill -TERM "$(cat "$TMPD/pid")"
check_screen "record: SIGTERM ends it with 143" '^EXIT=143' 20
check_eq "record: SIGTERM still leaves the whole recording" "step 0,step 1" \
    "$(tail -n +2 "$TMPD/old.cast" | jq -r 'select(.[1] == "m") | .[2]' | paste -sd, -)"
check_eq "record: no temporary file left" "" "$(ls -A "$TMPD" | grep '^\.old\.cast\.' )"
fresh

# a lesson recorded (issue 23 minor): its page turns and answers are markers, replay steps
# through them
fresh
mc_start record "$TMPD/lesson.cast" --net array:16
check_screen "record a lesson: runs" "on array:16"
tm_keys : ; tm_run "lesson st-array"
check_screen "record a lesson: page 1" "page 1/[0-9]+"
tm_keys b
check_screen "record a lesson: a wrong answer" "Not quite"
tm_keys c   # wrong again: a second marker (the last answer did not change)
sleep 0.5
tm_keys a
check_screen "record a lesson: a right answer" "Right!"
tm_keys ']'
check_screen "record a lesson: page 2" "page 2/[0-9]+"
tm_keys q
mc_exit_ok "record a lesson"
check_eq "record a lesson: page turns and answers are markers" \
    "page 1,answer wrong,answer wrong,answer right,page 2" \
    "$(tail -n +2 "$TMPD/lesson.cast" | jq -r 'select(.[1] == "m") | .[2]' | grep -E '^(page|answer)' | paste -sd, -)"
fresh
mc_start replay "$TMPD/lesson.cast"
check_screen "replay: the lesson's markers listed" "marker 1/"
tm_keys G
check_screen "replay: G to the last marker (page 2 or a step after it)" "marker ([0-9]+)/\\1: "
# n from the first marker reaches the page turn (a marker of its own, not only steps)
# one n at a time, each awaited (marker k+1 on screen) so a slow screen is never overtaken
tm_keys g; tm_wait "marker 1/" 10 >/dev/null; k=1
while [ $k -lt 30 ] && ! tm_cap | grep -Eq "marker [0-9]+/[0-9]+: page 2"; do
    tm_keys n; k=$((k + 1)); tm_wait "marker $k/" 10 >/dev/null || break
done
check_screen "replay: n steps onto the marker 'page 2'" "marker [0-9]+/[0-9]+: page 2"
tm_keys p
check_screen "replay: p back onto the right answer" "marker [0-9]+/[0-9]+: answer right"
tm_keys q
mc_exit_ok "replay a lesson"

# :export: an existing file is kept unless --force
printf 'keep me\n' >"$TMPD/shot.txt"
mc_start --net mesh:4x4
check_screen "export: the UI runs" "on mesh:4x4"
tm_keys : ; tm_run "export $TMPD/shot.txt"
check_screen ":export over a file: refused" "shot.txt exists; :export FILE --force replaces it"
check_eq ":export over a file: kept" "keep me" "$(cat "$TMPD/shot.txt")"
tm_keys : ; tm_run "export $TMPD/shot.txt --force"
check_screen ":export --force: written" "the screen is in .*shot.txt"
tm_keys q
mc_exit_ok "export"
check_match ":export --force: the screen's text" "on mesh:4x4" "$(head -n 1 "$TMPD/shot.txt")"

# :export FILE.svg is well-formed XML whatever the screen holds (issue 24 finding 6): an
# algorithm named with markup and the characters XML forbids (U+FFFF, U+FFFE)
sed 's/name = "bst-lua"/name = "bst<\&>\\u{FFFF}\\u{FFFE}"/' "$ROOT/scripts/bst.lua" >"$TMPD/weird.lua"
fresh
mc_start --net array:8 --algo "$TMPD/weird.lua"
check_screen "svg: the odd name on screen" "bst<&>"
tm_keys : ; tm_run "export $TMPD/odd.svg"
check_screen "svg: written" "the screen is in .*odd.svg"
tm_keys q
mc_exit_ok "svg"
if command -v xmllint >/dev/null; then
    check "svg: xmllint parses it" xmllint --noout "$TMPD/odd.svg"
    check_match "svg: the name's markup escaped, the forbidden characters shown as ?" \
        "bst&lt;&amp;&gt;\\?\\?" "$(cat "$TMPD/odd.svg")"
else
    bad "svg: xmllint (libxml2-utils, tools/deps.sh) is missing"
fi
finish
