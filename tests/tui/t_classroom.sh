#!/bin/sh
# Issue 9, the screen: long builds show their progress and cancel on Escape; themes are names.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"

# --- a theme is a name (defect 11)
check_exit "--theme nosuch: exit 2" 2 "$MESHCAST" --theme nosuch
check_match "--theme nosuch: says so" "no theme 'nosuch'" "$ERR"
check_eq "--theme nosuch: one line" 1 "$(printf '%s\n' "$ERR" | wc -l | tr -d ' ')"
check_exit "--theme ../../etc/passwd: exit 2" 2 "$MESHCAST" --theme ../../etc/passwd
check_match "--theme PATH: a theme is a name" "a theme is a name" "$ERR"

tm_start 150 40
mc_start --ascii --net mesh:8x8
check_screen "opens" "st on mesh:8x8"
tm_keys : ; tm_run "theme ../../etc/passwd"
check_screen ":theme PATH refused" "a theme is a name"
tm_keys : ; tm_run "theme contrast"
check_screen ":theme contrast taken" "theme contrast"

# --- a long build (defect 5): progress at once, Escape cancels and keeps what was shown
tm_keys : ; tm_run "net mesh:1024x1024"
check_screen "a big build shows what it does and how far" \
    "building (st|rh) on mesh:1024x1024\.\.\. .*(Esc or Ctrl-C cancels)" 10
tm_keys Escape
check_screen "Escape cancels it" "cancelled \(Esc\)" 20
check_screen "the broadcast shown stays" "st on mesh:8x8" 5
tm_keys n
check_screen "and steps as before" "step 1/" 5
tm_keys q
mc_exit_ok "classroom"

# a big build at start: the screen comes up with the progress line; Ctrl-C ends it
tm_run clear
mc_start --ascii --net mesh:1024x1024 --algo rh
check_screen "a big net at start: progress drawn at once" "building rh on mesh:1024x1024" 10
tm_keys C-c
mc_exit_ok "Ctrl-C during the first build quits"
finish
