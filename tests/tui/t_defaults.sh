#!/bin/sh
# Issue 9 defects 2, 3, 4.  (2) Lua scripts on the search path are offered by the algorithm
# picker (a) and by :algo Tab completion, next to the built-ins that run on the net.  (3) With
# no --algo, meshcast opens on the first algorithm that runs on the net, as :net does, instead
# of refusing st.  (4) st-mesh on torus:5x5 is refused in one straight sentence that names a
# net that works, whatever --fit says, and that net runs.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
export MESHCAST_PATH="$ROOT"

# (4) one refusal, the same with --fit none, and its suggestion runs
msg4="st-mesh on torus:5x5 needs power-of-two extents, and --fit applies to arrays and 2-D meshes only: try torus:4x4"
check_exit "st-mesh on torus:5x5: usage error" 2 "$MESHCAST" run --net torus:5x5 --algo st-mesh
check_eq "st-mesh on torus:5x5: one straight sentence" "meshcast: $msg4" "$ERR"
check_exit "with --fit none: the same" 2 "$MESHCAST" run --net torus:5x5 --algo st-mesh --fit none
check_eq "with --fit none: the same sentence" "meshcast: $msg4" "$ERR"
check_exit "the net it names runs" 0 "$MESHCAST" run --net torus:4x4 --algo st-mesh

tm_start 200 40
# (3) no --algo
for net in ring:16 torus:5x5 mesh:4x4x4; do
    first=""
    for a in $("$MESHCAST" list algorithms | awk 'NF && !/^Lua/ { print $1 } /^Lua/ { exit }' | awk '!seen[$0]++'); do
        if "$MESHCAST" run --net "$net" --algo "$a" >/dev/null 2>&1; then first=$a; break; fi
    done
    tm_run clear
    mc_start --net "$net"
    check_screen "--net $net without --algo opens on $first, the first that runs" \
        " meshcast  $first on $net "
    tm_keys q
    mc_exit_ok "--net $net"
done

# (2) the picker and completion offer the scripts that run here
tm_run clear
mc_start --net torus:5x5 --algo chain
check_screen "torus:5x5 opens" "chain on torus:5x5"
tm_keys a
check_screen "the a picker lists the script knomial" "knomial"
check_screen "and chain, a built-in" "chain"
tm_keys Escape; sleep 0.3
tm_keys :; tm send-keys -t t -l "algo kno"; tm_keys Tab
check_screen ":algo kno<Tab> completes the script's name" ":algo knomial"
tm_keys Enter
check_screen "and it runs" "knomial on torus:5x5"
tm_keys q
mc_exit_ok "scripts offered"
finish
