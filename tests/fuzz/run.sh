#!/bin/sh
# tests/fuzz/run.sh — run the libFuzzer targets (tests/fuzz/fuzz_*.c, built by the Makefile
# into build-fuzz/) on their seed corpora, one after the other (one process at a time).
#
#   sh tests/fuzz/run.sh SECONDS BIN...   each target for SECONDS of wall time (make fuzz);
#                                         new inputs go to build-fuzz/corpus/NAME/, crashes to
#                                         build-fuzz/crash-NAME-*
#   sh tests/fuzz/run.sh --check          make check: build them if clang with libFuzzer is
#                                         there (a clear "skipped" line if not) and run each for
#                                         FUZZ_CHECK_SECONDS (3), new inputs thrown away
# Exit status: 0 if no target found anything.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
FUZZ_CC=${FUZZ_CC:-clang}

if [ "$1" = "--check" ]; then
    probe=$(mktemp -d)
    printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' >"$probe/p.c"
    if ! "$FUZZ_CC" -fsanitize=fuzzer,address,undefined "$probe/p.c" -o "$probe/p" >/dev/null 2>&1; then
        rm -rf "$probe"
        echo "fuzz: skipped: cannot build libFuzzer targets ($FUZZ_CC with -fsanitize=fuzzer;" \
             "'make fuzz' installs clang and libclang-rt-dev)"
        exit 0
    fi
    rm -rf "$probe"
    if ! make --no-print-directory -j2 fuzz-build >"$ROOT/build-fuzz.log" 2>&1; then
        tail -n 20 "$ROOT/build-fuzz.log"
        echo "fuzz: the targets do not build (build-fuzz.log)"
        exit 1
    fi
    secs=${FUZZ_CHECK_SECONDS:-3}
    set -- "$secs" $(ls build-fuzz/fuzz_* 2>/dev/null | grep -v '\.[od]$')
    scratch=$(mktemp -d)
    trap 'rm -rf "$scratch"' EXIT
else
    secs=$1
    scratch=""
fi
shift
pass=0; fail=0; bad=""
for bin in "$@"; do
    name=${bin##*/fuzz_}
    seeds=tests/fuzz/corpus/$name
    # the shipped files are seeds too, read where they are (not copied into the corpus)
    case $name in
        script) more=scripts ;;
        lesson) more=lessons ;;
        theme) more=assets ;;
        *) more="" ;;
    esac
    if [ -n "$scratch" ]; then out=$scratch/$name; else out=build-fuzz/corpus/$name; fi
    mkdir -p "$out" "$seeds"
    log=build-fuzz/$name.log
    start=$(date +%s)
    timer=""
    [ -x /usr/bin/time ] && timer="/usr/bin/time -f %U+%S -o $log.cpu"
    ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 $timer "$bin" \
        -max_total_time="$secs" -timeout=20 -rss_limit_mb=3072 -print_final_stats=1 \
        -artifact_prefix="build-fuzz/crash-$name-" "$out" "$seeds" $more >"$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    if [ -s "$log.cpu" ]; then
        cpu="$(tail -n 1 "$log.cpu" | awk -F+ '{ printf "%.0f", $1 + $2 }') CPU-s"
    else
        cpu="$(( $(date +%s) - start ))s wall"
    fi
    if [ "$rc" -eq 0 ]; then
        pass=$((pass + 1))
        printf '  ok   fuzz %-8s %9s runs in %s\n' "$name" "${runs:-?}" "$cpu"
    else
        fail=$((fail + 1)); bad="$bad $name"
        printf '  FAIL fuzz %-8s (exit %s): see %s and build-fuzz/crash-%s-*\n' "$name" "$rc" "$log" "$name"
        grep -E 'ERROR|property failed|SUMMARY|Test unit written' "$log" | head -n 5 | sed 's/^/       /'
    fi
done
echo "fuzz: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
