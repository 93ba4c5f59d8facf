#!/bin/sh
# Engine loops over counts derived from user numbers are checked before they run (issue 24,
# findings 4 and 5): a packet size that makes more packets than the pipelined tree algorithms'
# work budget (phases.h) is refused at once with the numbers, B=auto with a huge message too,
# before anything is allocated; a 32-bit packet count never wraps.
. "$(dirname "$0")/../lib.sh"
M=18446744073709551615   # 2^64 - 1 bytes
refused() {   # DESC ARGS...: exit 2 within 10 s, "work budget" named
    d=$1; shift
    check_exit "$d: refused" 2 timeout 10 "$MESHCAST" run "$@"
    check_match "$d: says why" "over the work budget of 1048576 packets a tree" "$ERR"
}
refused "saf-trees B=4294967295, 2^64-1 bytes, circuit (a closed form of 2^30 packets)" \
    --net torus:8x8 --algo saf-trees --model circuit --set B=4294967295 --bytes $M
refused "saf-trees B=4294967295, 2^64-1 bytes" --net torus:8x8 --algo saf-trees --set B=4294967295 --bytes $M
refused "saf-trees B=auto, 2^64-1 bytes" --net torus:8x8 --algo saf-trees --set B=auto --bytes $M
refused "htree B=auto, 2^64-1 bytes" --net torus:15x15 --algo htree --set B=auto --bytes $M
refused "dc B=1, 1 GiB" --net torus:16x16 --algo dc --set B=1 --bytes 1G
check_match "the packet count is exact: 2^62 bytes a quarter in 4294967295-byte packets" \
    "makes 1073741825 packets a tree" \
    "$("$MESHCAST" run --net torus:8x8 --algo saf-trees --set B=4294967295 --bytes $M 2>&1)"
# the B it names for dc (1 tree, 255 other nodes, 2^30 bytes) fits the budget and B - 1 does
# not: P = ceil(2^30 / B) <= 2^20 and 255 P <= 2^24
B=$(printf '%s\n' "$ERR" | sed -n 's/.*B >= \([0-9]*\) fits.*/\1/p')
fits() { awk -v b="$1" 'BEGIN { p = int(2^30 / b); if (p * b < 2^30) p++; exit !(p <= 2^20 && 255 * p <= 2^24) }'; }
check "dc: the B named ($B) fits the budget" fits "$B"
check "dc: B - 1 does not" sh -c "! awk -v b=$((B - 1)) 'BEGIN { p = int(2^30 / b); if (p * b < 2^30) p++; exit !(p <= 2^20 && 255 * p <= 2^24) }'"
check_exit "dc: 64 B is accepted and runs" 0 timeout 120 "$MESHCAST" run \
    --net torus:16x16 --algo dc --set B="$((64 * B))" --bytes 1G --model circuit
check_exit "within the budget: runs" 0 timeout 60 "$MESHCAST" run --net torus:8x8 --algo saf-trees \
    --set B=auto --bytes 1M

# one node sends to every node of array:65536 in one step: 65535 one-port sub-rounds whose
# routes total 2^31 links (25 s and more when walked link by link; subround.c counts them from
# their ranges)
check_exit "one node to every node of array:65536 in one step: done within 30 s" 0 \
    timeout 30 "$MESHCAST" run --net array:65536 --algo "$ROOT/tests/lua/star_all.lua"
check_match "... in 65535 sub-rounds" "65535 sub-rounds in all" "$OUT"
finish
