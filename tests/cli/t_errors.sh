#!/bin/sh
# Bad input: exit 2, exactly one line on stderr naming the problem, no sanitizer report.
. "$(dirname "$0")/../lib.sh"

bad_input() {   # bad_input DESC REGEX ARGS...
    d=$1; re=$2; shift 2
    check_exit "$d: exit 2" 2 "$MESHCAST" "$@"
    check_eq "$d: one line on stderr" 1 "$(printf '%s\n' "$ERR" | grep -c .)"
    check_match "$d: names the problem" "$re" "$ERR"
    check_nomatch "$d: no sanitizer report" 'runtime error|AddressSanitizer|LeakSanitizer' "$ERR"
    check_eq "$d: nothing on stdout" "" "$OUT"
}

bad_input "mesh:0x4"        "mesh:0x4"   run --net mesh:0x4 --algo st
bad_input "cube:8"          "cube"       run --net cube:8 --algo st
bad_input "--algo nosuch"   "nosuch"     run --net array:16 --algo nosuch
bad_input "--bytes -5"      "-5"         run --net array:16 --algo st --bytes -5
bad_input "--bytes 0"       "'0'"        run --net array:16 --algo st --bytes 0
bad_input "--bytes 12Q"     "12Q"        run --net array:16 --algo st --bytes 12Q
bad_input "--source 99"     "99"         run --net mesh:4x4 --algo st --source 99
bad_input "--source 9,9"    "9,9"        run --net mesh:4x4 --algo st --source 9,9
bad_input "--set nu=9 on array:4" "nu"   run --net array:4 --algo st --set nu=9
bad_input "--set nosuch=1"  "nosuch"     run --net array:16 --algo st --set nosuch=1
bad_input "--set without ="  "NAME=VALUE" run --net array:16 --algo st --set nu
bad_input "missing value"   "--net.*value" run --net
bad_input "missing value before option" "--algo.*value" run --net array:16 --algo --json
bad_input "unknown option"  "--frobnicate" run --net array:16 --algo st --frobnicate
bad_input "run takes no --terms (a bit it shared with --sources)" "--terms" run --net array:16 --algo st --terms
bad_input "schedule takes no --terms" "--terms" schedule --net array:16 --algo st --terms
bad_input "stray argument"  "stray"      run --net array:16 --algo st stray
bad_input "unknown command" "frob"       frob
bad_input "--model nosuch"  "nosuch"     run --net array:16 --algo st --model nosuch
bad_input "--format xml"    "xml"        schedule --net array:16 --algo st --format xml
bad_input "--fit sideways"  "sideways"   run --net array:13 --algo st --fit sideways
bad_input "missing --net"   "--net"      run --algo st
bad_input "missing --algo"  "--algo"     run --net array:16
bad_input "st on a ring"    "st"         run --net ring:16 --algo bst-snake
bad_input "option twice"    "twice"      run --net array:16 --net array:8 --algo st
bad_input "compare bad range" "range"    compare --net array:16 --bytes 64:8
bad_input "compare bad net"  "cube"      compare --net cube:8
bad_input "list nosuch"     "nosuch"     list nosuch
bad_input "--json and --csv" "exclude"   run --net array:16 --algo st --json --csv
bad_input "nu out of range" "nu"         run --net array:16 --algo st --set nu=99
bad_input "negative a"      "a"          run --net array:16 --algo st --set a=-1

# Help and version are not errors.
check_exit "--help exits 0" 0 "$MESHCAST" --help
check_match "--help shows the run usage" 'meshcast run --net SPEC' "$OUT"
check_match "--help names --op and --timing" '\[--op broadcast\|reduce\]' "$OUT"
check_match "--help names the full and hxbar nets" 'full:64, hxbar:16x8' "$OUT"
check_exit "help exits 0" 0 "$MESHCAST" help
check_exit "--version exits 0" 0 "$MESHCAST" --version
check_match "--version names meshcast" '^meshcast [0-9]' "$OUT"
check_exit "run --help exits 0" 0 "$MESHCAST" run --help
finish
