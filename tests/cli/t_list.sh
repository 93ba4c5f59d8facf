#!/bin/sh
# meshcast list
. "$(dirname "$0")/../lib.sh"

check_exit "list algorithms" 0 "$MESHCAST" list algorithms
for a in st bst rh chain st-simple st-5phase bst-rowcol bst-snake; do
    check_match "list algorithms names $a" "^$a " "$OUT"
done
check_match "list algorithms gives the nets" '^st +array' "$OUT"
# Lua scripts on the search path are listed with what they declare; a refused one says why.
mkdir -p "$TMPD/mp/scripts"
cat >"$TMPD/mp/scripts/mine.lua" <<'LUA'
return { name = "mine", summary = "my own broadcast", nets = { "ring" },
         build = function(sched, net, p, source) end }
LUA
printf 'return 42\n' >"$TMPD/mp/scripts/broken.lua"
MESHCAST_PATH="$TMPD/mp" check_exit "list algorithms with MESHCAST_PATH" 0 "$MESHCAST" list algorithms
check_match "a script on MESHCAST_PATH is listed with its summary and nets" '^mine +ring +my own broadcast' "$OUT"
check_match "a shipped script is listed" '^knomial ' "$OUT"
check_match "a broken script is listed as refused" '^broken +refused: ' "$OUT"
check_exit "list models" 0 "$MESHCAST" list models
for m in seidel postal circuit saf; do check_match "list models names $m" "^$m " "$OUT"; done
check_match "list models: the --op operations" '^reduce +the broadcast run backwards' "$OUT"
check_match "list models: gamma" 'gamma=V prices combining' "$OUT"
check_match "seidel defaults are Table II" 'a=0\.08.*b=75' "$OUT"
check_exit "list nets" 0 "$MESHCAST" list nets
for n in array ring mesh torus; do check_match "list nets names $n" "^$n:" "$OUT"; done
check_exit "list lessons" 0 "$MESHCAST" list lessons
check_exit "list (everything)" 0 "$MESHCAST" list
for h in algorithms lessons models nets; do check_match "list shows $h" "^$h:\$" "$OUT"; done
finish
