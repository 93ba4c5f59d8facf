#!/bin/sh
# t_profile.sh — machine profiles: --profile on the commands that take --model/--set,
# `list profiles`, user before shipped, --set over the profile, refusals with FILE:LINE.
. "$(dirname "$0")/../lib.sh"

export XDG_CONFIG_HOME="$TMPD/cfg"
mkdir -p "$XDG_CONFIG_HOME/meshcast/profiles"
U="$XDG_CONFIG_HOME/meshcast/profiles"

check_exit "list profiles" 0 "$MESHCAST" list profiles
check_match "delta is shipped, Table II" '^delta +Intel Touchstone Delta' "$OUT"
check_match "its constants are listed" 'seidel\.a=0\.08 seidel\.b=75' "$OUT"

# run under a profile: the model line shows the profile's constants and names it
printf 'about = slow start\nseidel.b = 200\nseidel.a = 0.5\npostal.t = 7\n' > "$U/slow.profile"
check_exit "run --profile slow" 0 "$MESHCAST" run --net array:8 --algo st --bytes 100 --profile slow
check_match "run: constants from the profile" '^model: +seidel \(a=0\.5 b=200 .*\), profile slow$' "$OUT"
# Seidel's simple tree on a linear array of 8, one chunk: log2(8) = 3 steps of one message
# a*B + b each: 3 * (0.5*100 + 200) = 750 us.
check_match "run: cost under the profile (3*(a*B+b) = 750)" '^cost: +750 us' "$OUT"
check_exit "--set wins over the profile" 0 "$MESHCAST" run --net array:8 --algo st --bytes 100 --profile slow --set b=0
check_match "run: b from --set" '^model: +seidel \(a=0\.5 b=0 ' "$OUT"
check_exit "postal keys under --model postal" 0 "$MESHCAST" run --net full:8 --algo chain --bytes 8 --model postal --profile slow
check_match "postal t from the profile" '^model: +postal \(t=7 ' "$OUT"

# user before shipped: a user's delta hides the shipped one
printf 'about = my delta\nseidel.a = 1\n' > "$U/delta.profile"
check_exit "list profiles (user delta)" 0 "$MESHCAST" list profiles
check_match "the user's delta is listed" '^delta +my delta' "$OUT"
check_exit "run --profile delta (user's)" 0 "$MESHCAST" run --net array:8 --algo st --profile delta
check_match "the user's delta is used" '^model: +seidel \(a=1 b=75 ' "$OUT"
rm -f "$U/delta.profile"

# the other commands take it
check_exit "schedule --profile" 0 "$MESHCAST" schedule --net array:8 --algo st --profile slow --format json
check_exit "compare --profile" 0 "$MESHCAST" compare --net array:8 --bytes 64:128 --profile slow
check_match "compare: the profile's a and b" 'a=0\.5.*b=200' "$OUT"
check_exit "compare --sources --profile" 0 "$MESHCAST" compare --net mesh:4x4 --sources R:2 --bytes 64 --profile slow
check_exit "tcd-table --profile" 0 "$MESHCAST" tcd-table --net mesh:4x4 --profile slow
check_exit "compare --sweep --profile" 0 "$MESHCAST" compare --net full:16 --algo fractional --sweep r=1:2 --model postal --profile slow

# refusals: one line, exit 2, FILE:LINE and the nearest name
check_exit "unknown profile" 2 "$MESHCAST" run --net array:8 --algo st --profile nosuch
check_match "says no profile" "no profile 'nosuch' \(meshcast list profiles\)" "$ERR"
printf 'seidel.a = 1\nseidl.b = 2\n' > "$U/typo.profile"
check_exit "a typo in a profile" 2 "$MESHCAST" run --net array:8 --algo st --profile typo
check_match "FILE:LINE and the nearest key" "typo\.profile:2: unknown key 'seidl\.b' \(nearest: seidel\.b" "$ERR"
check_eq "one line" 1 "$(printf '%s\n' "$ERR" | wc -l | tr -d ' ')"
check_exit "compare refuses it too" 2 "$MESHCAST" compare --net array:8 --profile typo
check_exit "compare --sources refuses it too" 2 "$MESHCAST" compare --net mesh:4x4 --sources R:2 --profile typo
check_exit "list profiles shows the refused one" 0 "$MESHCAST" list profiles
check_match "typo refused" '^typo +refused: .*:2: unknown key' "$OUT"
check_exit "a bad name" 2 "$MESHCAST" run --net array:8 --algo st --profile 'a b'
check_exit "--profile twice" 2 "$MESHCAST" run --net array:8 --algo st --profile slow --profile slow
finish
