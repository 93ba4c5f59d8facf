#!/bin/sh
# t_check.sh — `meshcast check` on every shipped script: verified on every size and source of
# its default sweep (and more); predictions shown where the script has a closed form and equal
# to the simulation; usage errors exit 2.
. "$(dirname "$0")/../lib.sh"
S=$ROOT/scripts
cd "$TMPD" || exit 2

for f in st bst st-mesh knomial scatter-allgather ring-pipeline; do
    check_exit "check $f.lua: every size and source verified" 0 "$MESHCAST" check "$S/$f.lua"
    check_match "check $f.lua: summary line" "^([0-9]+) of \\1 nets verified from every source" "$OUT"
    check_nomatch "check $f.lua: no prediction disagrees" "[0-9]\\*( |$)" "$OUT"
done
check_exit "check st.lua with nu=1" 0 "$MESHCAST" check "$S/st.lua" --set nu=1
check_exit "check bst.lua with nu=1 on bigger arrays" 0 "$MESHCAST" check "$S/bst.lua" --set nu=1 --net array:128 --net array:100 --max-sources 16
check_exit "check knomial.lua k=4, postal model" 0 "$MESHCAST" check "$S/knomial.lua" --set k=4 --model postal --net ring:17
check_exit "check st-mesh.lua on a 3-D mesh" 0 "$MESHCAST" check "$S/st-mesh.lua" --net mesh:2x4x4
check_exit "check a built-in by name" 0 "$MESHCAST" check st --net array:8 --net mesh:4x4
check_exit "check api.lua (asserts over the module, from Lua)" 0 "$MESHCAST" check "$ROOT/tests/lua/api.lua"

# the table's columns and the predicted closed form
check_exit "check st.lua on array:16" 0 "$MESHCAST" check "$S/st.lua" --net array:16
check_match "st.lua on array:16: 16/16 verified, 4 steps, load 1, cost = eq. 1" \
    "array:16 +16 +16/16 +4 +1 +0 +627.68 +627.68" "$OUT"

check_exit "usage: no file" 2 "$MESHCAST" check
check_exit "usage: unknown option" 2 "$MESHCAST" check "$S/st.lua" --bogus 1
check_exit "usage: bad net" 2 "$MESHCAST" check "$S/st.lua" --net cube:3
check_exit "usage: a net the script does not claim" 2 "$MESHCAST" check "$S/st.lua" --net mesh:4x4
check_match "usage: says why" "does not run on a mesh" "$ERR"
check_exit "usage: missing file" 2 "$MESHCAST" check nosuch.lua
check_match "usage: cannot open" "cannot open 'nosuch.lua'" "$ERR"
check_exit "check --help" 0 "$MESHCAST" check --help

finish
