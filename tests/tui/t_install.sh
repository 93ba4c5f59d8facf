#!/bin/sh
# `make install PREFIX=...` after a plain `make` (issue 23, major 4): the installed binary is
# built for the prefix it is installed under, so that run from another directory it finds its
# lessons, themes and scripts there.  Done on a copy of the tree (built -O0 to be quick) so
# that the checkout's own build is left alone.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
SRC="$TMPD/tree"; P="$TMPD/prefix"; ELSE="$TMPD/elsewhere"
mkdir -p "$SRC" "$ELSE"
(cd "$ROOT" && git ls-files -z Makefile src lessons scripts assets man tools completions | xargs -0 cp --parents -t "$SRC") ||
    { bad "copy the tree"; finish; exit 1; }
if make -C "$SRC" -j2 OPT=-O0 meshcast >"$TMPD/make1" 2>&1; then ok "plain make"; else
    bad "plain make" "$(tail -n 5 "$TMPD/make1")"; finish; exit 1; fi
if make -C "$SRC" -j2 OPT=-O0 install PREFIX="$P" >"$TMPD/make2" 2>&1; then ok "make install PREFIX"; else
    bad "make install PREFIX" "$(tail -n 5 "$TMPD/make2")"; finish; exit 1; fi
make -C "$SRC" -j2 OPT=-O0 install PREFIX="$P" >"$TMPD/make3" 2>&1
check_nomatch "a second install compiles nothing" '(^| )cc .*-c ' "$(cat "$TMPD/make3")"
if grep -aq "$P/share/meshcast" "$P/bin/meshcast"; then ok "the installed binary names its own prefix"
else bad "the installed binary names its own prefix" "no $P/share/meshcast in it"; fi
check "bash completion installed" test -f "$P/share/bash-completion/completions/meshcast"
check "zsh completion installed" test -f "$P/share/zsh/site-functions/_meshcast"
# from another directory, with the source tree out of the way
mv "$SRC" "$TMPD/moved"
n=$(ls "$ROOT"/lessons/*.lua | wc -l)
got=$(cd "$ELSE" && "$P/bin/meshcast" list lessons 2>&1 | grep -c 'st-array\|any-size\|rh-contention')
check_eq "the installed binary lists the installed lessons" 3 "$got"
check_match "the installed course (lessons/course) orders them" \
    "^Course $P/share/meshcast/lessons/course: [0-9]+ tracks" \
    "$(cd "$ELSE" && XDG_CONFIG_HOME="$TMPD/noconf" "$P/bin/meshcast" course 2>&1)"
if command -v bash >/dev/null; then
    got=$(cd "$ELSE" && PATH="$P/bin:$PATH" bash -c '. "$1"; COMP_LINE="meshcast lesson st-a"
        COMP_POINT=${#COMP_LINE}; COMP_WORDS=(meshcast lesson st-a); COMP_CWORD=2; _meshcast
        printf "%s\n" "${COMPREPLY[@]}"' sh "$P/share/bash-completion/completions/meshcast")
    check_eq "the installed bash completion completes the installed lessons" "st-array" "$got"
fi
tm_start 80 24
tm_run "cd $ELSE && $P/bin/meshcast --big --net array:8 --algo st 2>$TMPD/err; echo EXIT=\$?"
check_screen "--big (the contrast theme) opens from another directory" "st on array:8"
tm_keys q
check_screen "and quits" "^EXIT=0" 20
check_nomatch "no 'no theme'" "no theme" "$(cat "$TMPD/err")"
tm_run clear; w=100   # until the first run's EXIT= is gone
while [ $w -gt 0 ] && tm_cap | grep -q '^EXIT='; do sleep 0.1; w=$((w - 1)); done
tm_run "cd $ELSE && XDG_STATE_HOME=$TMPD/st $P/bin/meshcast lesson st-array 2>$TMPD/err; echo EXIT=\$?"
check_screen "a lesson runs from another directory" "page 1/[0-9]+"
tm_keys q
check_screen "and quits" "^EXIT=0" 20
[ "$n" -gt 0 ] && ok "lessons in the checkout: $n" || bad "lessons in the checkout"
finish
