#!/bin/sh
# t_search.sh — scripts and lessons by bare name along the search path ($MESHCAST_PATH,
# $XDG_CONFIG_HOME/meshcast, the share directory, the source tree next to the binary); never
# ./ implicitly; an explicit ./x.lua is fine.
. "$(dirname "$0")/../lib.sh"
cd "$TMPD" || exit 2
cat > zz-here.lua <<'LUA'
return { name = "zz-here", nets = { "array" },
  build = function(sched, net, p, source)
    for d = 0, net:size() - 1 do if d ~= source then sched:step():send(source, d, { 0 }) end end
  end }
LUA
unset MESHCAST_PATH
check_exit "a bare name is not looked up in ./" 2 "$MESHCAST" run --net array:4 --algo zz-here
check_match "unknown algorithm message" "unknown algorithm 'zz-here'" "$ERR"
MESHCAST_PATH=. check_exit "'.' on MESHCAST_PATH is ignored" 2 "$MESHCAST" run --net array:4 --algo zz-here
check_exit "an explicit ./ path works" 0 "$MESHCAST" run --net array:4 --algo ./zz-here.lua
MESHCAST_PATH=$TMPD check_exit "found on \$MESHCAST_PATH" 0 "$MESHCAST" run --net array:4 --algo zz-here
mkdir -p cfg/meshcast/scripts && cp zz-here.lua cfg/meshcast/scripts/zz-cfg.lua
XDG_CONFIG_HOME=$TMPD/cfg check_exit "found in \$XDG_CONFIG_HOME/meshcast/scripts" 0 "$MESHCAST" run --net array:4 --algo zz-cfg
# the shipped scripts next to the binary's source tree
check_exit "shipped knomial found by bare name" 0 "$MESHCAST" run --net ring:8 --algo knomial
check_exit "shipped scatter-allgather by bare name" 0 "$MESHCAST" check scatter-allgather --net array:8
check_exit "NAME.lua not in ./ is looked up on the path" 0 "$MESHCAST" run --net ring:8 --algo knomial.lua
check_exit "built-in names win over scripts" 0 "$MESHCAST" run --net array:8 --algo st
check_exit "script through schedule" 0 "$MESHCAST" schedule --net array:8 --algo knomial --format csv
check_exit "--set of a script parameter" 0 "$MESHCAST" run --net array:27 --algo knomial --set k=3
check_match "knomial k=3 on 27 nodes: 3 steps" "steps: +3 " "$OUT"
check_exit "--set out of the script's range" 2 "$MESHCAST" run --net array:8 --algo knomial --set k=99
finish
