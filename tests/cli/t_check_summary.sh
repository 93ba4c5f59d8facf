#!/bin/sh
# `meshcast check`'s summary lines under the table (cmd_check.c's check_summary): the sample
# of sources tried per net, the count of nets that held, and the failures, word for word.
# The numbers are the options' own: --max-sources 3 on mesh:4x4 tries 3 of its 4*4 = 16
# sources; array:4 and array:8 are two nets.
. "$(dirname "$0")/../lib.sh"

check_exit "st on mesh:4x4, 3 sources: exit 0" 0 "$MESHCAST" check st --net mesh:4x4 --max-sources 3
check_match "the sample is named: 3 of 16 sources" '^sampled: mesh:4x4 from 3 of 16 sources$' "$OUT"
check_match "the closing count says a sample was tried" \
    '^1 of 1 nets verified and valid in every case tried \(on big nets a sample' "$OUT"
check_exit "one source given: exit 0" 0 "$MESHCAST" check st --net mesh:4x4 --source 2
check_nomatch "... then nothing was sampled" '^sampled:' "$OUT"
check_match "... and the count says so plainly" '^1 of 1 nets verified and valid in every case$' "$OUT"
check_exit "two nets: exit 0" 0 "$MESHCAST" check st --net array:4 --net array:8
check_match "two nets counted" '^2 of 2 nets verified and valid in every case' "$OUT"
finish
