#!/bin/sh
# Issue 9: keys typed while a lesson page's broadcast is being built queue and apply after the
# build, in order, none lost — a long burst too (more than libtermkey's 256-byte buffer).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
export XDG_STATE_HOME="$TMPD/state"
cat >"$TMPD/slow.lua" <<'LUA'
return {
  title = "Slow pages",
  pages = {
    { text = "A small mesh.", net = "mesh:8x8", algo = "st", step = 0 },
    { text = "A big mesh: its broadcast takes a while to build.", net = "mesh:1024x512",
      algo = "st", step = 0 },
    { text = "Small again.", net = "mesh:8x8", algo = "st", step = 0 },
  },
}
LUA
burst=$(awk 'BEGIN { for (i = 0; i < 200; i++) printf "np"; printf "nnn" }')

tm_start 150 40
tm_run "XDG_STATE_HOME=$XDG_STATE_HOME $MESHCAST lesson $TMPD/slow.lua 2>$TMPD/err; echo EXIT=\$?"
check_screen "the lesson opens at page 1" "page 1/3"
# ] starts page 2's build; a burst of 403 keys comes while it runs
tm_keys ']'
tm_keys -l "$burst"
check_screen "page 2 is built" "st on mesh:1024x512" 60
check_screen "every key of the burst applied, in order: step 3" "st on mesh:1024x512.* step 3/" 30

tm_keys q
mc_exit_ok "keys typed during a build"
finish
