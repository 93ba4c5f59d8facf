#!/bin/sh
# Install what meshcast needs from the Debian archive, only when it is missing.
# Build: a C compiler, make, pkg-config, ncursesw, libtermkey, Lua 5.4.
# Tests: cmocka, tmux, jq, xmllint (libxml2-utils: the SVG export is parsed), rsvg-convert
# (librsvg2-bin: the SVG export is rendered), zsh (its completion script is tested).
# `meshcast exec` (meshcast-mpi): Open MPI (openmpi-bin, libopenmpi-dev).  Fuzzing (`make fuzz` only): clang, libclang-rt-dev.
set -e
missing=""
need() { dpkg -s "$1" >/dev/null 2>&1 || missing="$missing $1"; }
for p in gcc make pkg-config libncurses-dev libtermkey-dev liblua5.4-dev libcmocka-dev tmux jq \
         libxml2-utils librsvg2-bin openmpi-bin libopenmpi-dev zsh; do
    need "$p"
done
# `sh tools/deps.sh fuzz` (make fuzz): clang and its libFuzzer runtime too
if [ "${1:-}" = "fuzz" ]; then
    for p in clang libclang-rt-dev; do need "$p"; done
fi
[ -z "$missing" ] && exit 0
echo "meshcast: installing:$missing" >&2
SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq $missing >/dev/null
