#!/bin/sh
# Hostile and edge input on every batch command: a usage error exits 2 with exactly one line
# on stderr naming the problem (and nothing on stdout); a legal edge case exits 0 quietly; no
# sanitizer report, no hang (every command runs under a time limit), and big-but-legal sizes
# that would not fit are refused at once.
. "$(dirname "$0")/../lib.sh"

LIMIT=${LIMIT:-60}
# tm CMD...: the program under a time limit (a hang exits 124, not 0/1/2)
tm() { timeout "$LIMIT" "$MESHCAST" "$@"; }

no_san() { check_nomatch "$1: no sanitizer report" 'runtime error|AddressSanitizer|LeakSanitizer' "$ERR"; }

bad_input() {   # bad_input DESC REGEX ARGS...
    d=$1; re=$2; shift 2
    check_exit "$d: exit 2" 2 tm "$@"
    check_eq "$d: one line on stderr" 1 "$(printf '%s\n' "$ERR" | grep -c '')"
    check_match "$d: names the problem" "$re" "$ERR"
    no_san "$d"
    check_eq "$d: nothing on stdout" "" "$OUT"
}

good() {        # good DESC ARGS...
    d=$1; shift
    check_exit "$d: exit 0" 0 tm "$@"
    check_eq "$d: stderr empty" "" "$ERR"
}

# One field of a one-line JSON object (numbers, booleans, null).
jfield() { printf '%s' "$2" | sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p" | head -n 1; }

R="run --algo st"

# ---- net specs -------------------------------------------------------------------------
bad_input "mesh:0x4"            "every dimension must be at least 1" $R --net mesh:0x4
bad_input "mesh:4x"             "numbers separated by 'x'" $R --net mesh:4x
bad_input "mesh:x4"             "numbers separated by 'x'" $R --net mesh:x4
bad_input "mesh:4x4x4x4"        "at most 3 dimensions"     $R --net mesh:4x4x4x4
bad_input "array:1"             "at least 2 nodes"         $R --net array:1
bad_input "torus:1x1"           "at least 2 nodes"         $R --net torus:1x1
bad_input "array:99999999999"   "more than 16777216 nodes" $R --net array:99999999999
bad_input "mesh:100000x100000"  "more than 16777216 nodes" $R --net mesh:100000x100000
bad_input "mesh:4097x4096"      "more than 16777216 nodes" $R --net mesh:4097x4096
bad_input "2^64+1 extent"       "more than 16777216 nodes" $R --net mesh:18446744073709551617x2
bad_input "'array: 8'"          "numbers separated by 'x'" $R --net "array: 8"
bad_input "ARRAY:8"             "unknown kind 'ARRAY'"     $R --net ARRAY:8
bad_input "'mesh:8x8 '"         "'mesh:8x8 '"              $R --net "mesh:8x8 "
bad_input "mesh:"               "numbers separated by 'x'" $R --net mesh:
bad_input "no colon"            "expected KIND:DIMS"       $R --net mesh
bad_input "empty kind"          "unknown kind ''"          $R --net :8
bad_input "empty net"           "--net.*value"             $R --net ""
bad_input "non-ASCII kind"      "unknown kind"             $R --net "méshé:8"
bad_input "full-width digit"    "numbers separated by 'x'" $R --net "mesh:８x8"
long=$(printf '%3000s' '' | tr ' ' 'a')
bad_input "3000-byte spec"      "expected KIND:DIMS"       $R --net "$long"
check_eq "3000-byte spec: message quotes at most 40 bytes of it" 1 \
    "$(printf '%s' "$ERR" | awk '{ print (length($0) < 160) }')"
nl='
'
bad_input "newline inside a spec" "mesh:4\\?4"             $R --net "mesh:4${nl}4"
bad_input "st on a torus"       "does not run on"          $R --net torus:2x2
bad_input "st on a ring"        "does not run on"          $R --net ring:2
bad_input "st on mesh:1x8"      "at least 2 rows"          $R --net mesh:1x8
good "chain on ring:2"          run --net ring:2 --algo chain
good "chain on torus:2x2"       run --net torus:2x2 --algo chain
good "chain on torus:1x8"       run --net torus:1x8 --algo chain
good "chain on mesh:2x1x1"      run --net mesh:2x1x1 --algo chain
good "leading zeros"            $R --net mesh:08x08
good "mesh:2 is an array"       $R --net mesh:2

# ---- sources ---------------------------------------------------------------------------
bad_input "--source -1"         "-1"          $R --net mesh:8x8 --source -1
bad_input "--source 99"         "99 is outside" $R --net mesh:8x8 --source 99
bad_input "--source 3,4,5 on 2-D" "3,4,5"     $R --net mesh:8x8 --source 3,4,5
bad_input "--source 3,"         "'3,'"        $R --net mesh:8x8 --source 3,
bad_input "--source ,4"         "',4'"        $R --net mesh:8x8 --source ,4
bad_input "--source 1e3"        "1e3"         $R --net mesh:8x8 --source 1e3
bad_input "--source 2^64+3"     "outside"     $R --net mesh:8x8 --source 18446744073709551619
bad_input "--source 8,0 (row 8 of 8)" "8,0"   $R --net mesh:8x8 --source 8,0
bad_input "--source 1,2 on an array" "1,2"    $R --net array:8 --source 1,2
good "--source 7,7"             $R --net mesh:8x8 --source 7,7
good "--source 1,2,3 on 3-D"    run --net mesh:4x4x4 --algo chain --source 1,2,3

# ---- bytes -----------------------------------------------------------------------------
for b in 0 -5 1e3 18446744073709551616 1T "8 " 0x10; do
    bad_input "--bytes '$b'" "bad byte count"  $R --net array:16 --bytes "$b"
done
bad_input "--bytes 2^54 G (shift overflow)" "bad byte count" $R --net array:16 --bytes 18014398509481984G
good "--bytes 64K"              $R --net array:16 --bytes 64K
good "--bytes 1M"               $R --net array:16 --bytes 1M
good "--bytes 1G"               $R --net array:16 --bytes 1G
good "--bytes 1 on chain (fewer bytes than packets)" run --net mesh:4x4 --algo chain --bytes 1
check_exit "--bytes 2^64-1 on rh: exit 0" 0 tm run --net array:16 --algo rh --bytes 18446744073709551615 --json
no_san "--bytes 2^64-1 on rh"
check_eq "--bytes 2^64-1: bytes moved saturate, never wrap" 18446744073709551615 "$(jfield bytes_moved "$OUT")"
check_match "--bytes 2^64-1: the source's permutation is priced" '^1\.8446[0-9]*e\+17$' \
    "$(printf '%s' "$OUT" | sed -n 's/.*"permutation":\([^,}]*\).*/\1/p')"

# ---- compare byte ranges ---------------------------------------------------------------
C="compare --net mesh:4x4"
for r in 65536:8 0:8 8: :8 8:65536:9; do
    bad_input "compare --bytes '$r'" "bad byte range" $C --bytes "$r"
done
good "compare --bytes 8:8"      $C --bytes 8:8
good "compare --bytes 1G:16G"   $C --bytes 1G:16G
good "compare --csv"            $C --bytes 8:64 --csv
bad_input "compare --json --csv" "exclude"    $C --json --csv
good "compare --algo st (issue 19: every compare form takes --algo)" $C --algo st --bytes 8:64
bad_input "compare --algo nosuch" "nosuch"    $C --algo nosuch
bad_input "compare bad source"   "9,9"        $C --source 9,9
bad_input "compare unknown --set" "nosuch"    $C --set nosuch=1
bad_input "compare nu=99"        "nu"         $C --set nu=99

# ---- --set -----------------------------------------------------------------------------
S="run --net mesh:8x8 --algo st"
bad_input "--set nu"            "NAME=VALUE"               $S --set nu
bad_input "--set =1"            "NAME=VALUE"               $S --set =1
bad_input "--set nu="           "NAME=VALUE"               $S --set nu=
bad_input "--set nu=-1"         "nu: must not be negative" $S --set nu=-1
bad_input "--set nu=99"         "integer 0\.\.16"          $S --set nu=99
bad_input "--set nu=1.5"        "integer 0\.\.16"          $S --set nu=1.5
bad_input "--set nu=1e300"      "integer 0\.\.16"          $S --set nu=1e300
bad_input "--set a=nan"         "'nan' for a"              $S --set a=nan
bad_input "--set a=1e309"       "'1e309' for a"            $S --set a=1e309
bad_input "--set b=-1"          "b: must not be negative"  $S --set b=-1
bad_input "--set duplex=2"      "duplex"                   $S --set duplex=2
bad_input "--set a==1"          "'=1' for a"               $S --set a==1
bad_input "--set a=<newline>"   "for a: not a number"      $S --set "a=1${nl}"
bad_input "--set s=0 on st"     "unknown setting 's'"      $S --set s=0
bad_input "--set x=1"           "unknown setting 'x'"      $S --set x=1
bad_input "--set 100-byte name" "name too long"            $S --set "$(printf '%100s' '' | tr ' ' a)=1"
bad_input "--set nu=3 on mesh:8x8 st" "nu"                 $S --set nu=3
good "--set b=1e-400 (a tiny number)" $S --set b=1e-400
good "--set a=-0"               $S --set a=-0
good "--set twice: the last wins" $S --set nu=1 --set nu=0
CH="run --net mesh:8x8 --algo chain"
bad_input "chain s=0"           "s must be at least 1 \(or auto\)" $CH --set s=0
bad_input "chain s=1e9"         "0\.\.1048576 or auto"     $CH --set s=1e9
bad_input "chain s=-1"          "0\.\.1048576 or auto"     $CH --set s=-1
bad_input "chain s=1.5"         "whole number"             $CH --set s=1.5
bad_input "chain s=nan"         "'nan' for s"              $CH --set s=nan
good "chain s=1"                $CH --set s=1
good "chain s=1048576 (capped at the bytes)" $CH --set s=1048576

# ---- --model, --fit --------------------------------------------------------------------
bad_input "--model nosuch"      "unknown model 'nosuch'"   $S --model nosuch
bad_input "--model twice"       "twice"                    $S --model seidel --model postal
for m in postal circuit saf; do
    check_exit "--model $m on mesh:8x8 st: exit 0 or 1" 0 sh -c \
        'timeout 60 "$0" "$@" >/dev/null 2>&1; [ $? -le 1 ]' "$MESHCAST" $S --model $m
done
good "--fit companions on array:13"  run --net array:13 --algo st --fit companions
good "--fit virtual on array:13"     run --net array:13 --algo st --fit virtual
good "--fit companions on mesh:5x7"  run --net mesh:5x7 --algo bst --fit companions
good "--fit virtual on a power of two" run --net array:16 --algo st --fit virtual
bad_input "--fit virtual on rh" "does not apply"           run --net array:13 --algo rh --fit virtual
bad_input "--fit none on array:13" "power-of-two"          run --net array:13 --algo st --fit none
bad_input "--fit sideways"      "unknown fit 'sideways'"   run --net array:13 --algo st --fit sideways

# ---- options ---------------------------------------------------------------------------
bad_input "--net twice"         "twice"                    run --net array:8 --net array:8 --algo st
bad_input "positional before options" "stray"              run stray --net array:8 --algo st
bad_input "missing value at the end" "--bytes.*value"      run --net array:8 --algo st --bytes
bad_input "missing value before an option" "--source.*value" run --net array:8 --source --algo st
bad_input "unknown option"      "--frobnicate"             run --net array:8 --algo st --frobnicate
bad_input "bare --"             "'--'"                     run --net array:8 --algo st --
bad_input "--json --csv"        "exclude"                  run --net array:8 --algo st --json --csv
bad_input "--json=1"            "takes no value"           run --net array:8 --algo st --json=1
bad_input "--format on run"     "--format"                 run --net array:8 --algo st --format json
bad_input "--format XML"        "xml"                      schedule --net array:8 --algo st --format xml
bad_input "--format JSON"       "JSON"                     schedule --net array:8 --algo st --format JSON
bad_input "--format text --json" "disagrees"               schedule --net array:8 --algo st --format text --json
bad_input "schedule missing --algo" "--algo"               schedule --net array:8
good "--opt=value"              run --net=array:8 --algo=st --bytes=1K
good "--json twice"             run --net array:8 --algo st --json --json
for f in text json csv; do good "schedule --format $f" schedule --net mesh:4x4 --algo bst --format $f; done

# ---- list, check, unknown commands ------------------------------------------------------
bad_input "list nosuch"         "nosuch"                   list nosuch
bad_input "list ''"             "cannot list ''"           list ""
bad_input "list two words"      "one argument"             list algorithms extra
for w in algorithms models nets; do good "list $w" list $w; done
bad_input "check without a file" "which script"            check
bad_input "check a missing file" "cannot open"             check /nonexistent/x.lua
bad_input "check /dev/null"     "must return a table"      check /dev/null
bad_input "check a directory"   "cannot read"              check /
# (check prints its table's header before it reaches a bad net; stdout is not checked here)
check_exit "check bad net: exit 2" 2 tm check "$ROOT/scripts/st.lua" --net mesh:0x4
check_eq "check bad net: one line on stderr" 1 "$(printf '%s\n' "$ERR" | grep -c '')"
check_match "check bad net: names it" "mesh:0x4" "$ERR"
no_san "check bad net"
bad_input "unknown command"     "frob"                     frob
bad_input "empty command"       "unknown command"          ""

# ---- big but legal: refused at once, before any allocation ------------------------------
bad_input "rh on array:2^24"    "transfers"                run --net array:16777216 --algo rh
bad_input "chain on array:2^24" "transfers"                run --net array:16777216 --algo chain
bad_input "st on mesh:4096x4096" "transfers"               run --net mesh:4096x4096 --algo st
bad_input "rh on mesh:2048x2048" "transfers"               run --net mesh:2048x2048 --algo rh
bad_input "rh on mesh:4095x4095 (fit)" "transfers"         run --net mesh:4095x4095 --algo rh
bad_input "chain on mesh:2048x2048" "transfers"            run --net mesh:2048x2048 --algo chain
bad_input "chain s=100000000 on mesh:1024x1024" "0\.\.1048576 or auto" \
    run --net mesh:1024x1024 --algo chain --set s=100000000
bad_input "chain s=1048576 --bytes 1G on mesh:64x64" "transfers" \
    run --net mesh:64x64 --algo chain --set s=1048576 --bytes 1G
bad_input "schedule rh on array:2^24" "transfers"          schedule --net array:16777216 --algo rh --format json
bad_input "chain s=1 on torus:256x256x256" "steps"          run --net torus:256x256x256 --algo chain --set s=1
bad_input "chain s=1 on array:2^24" "steps"                run --net array:16777216 --algo chain --set s=1
bad_input "st nu=16 on array:2^24" "transfers"             run --net array:16777216 --algo st --set nu=16
bad_input "bst nu=1 on array:2^24" "transfers"             run --net array:16777216 --algo bst --set nu=1
bad_input "st nu=16 on array:2^24-1 (fit)" "transfers"     run --net array:16777215 --algo st --set nu=16

# ---- one line even when the user's text holds a newline (src/cli, src/script: see the
# report; the messages quote argv as given) -------------------------------------------------
bad_input "newline in --algo"   "unknown algorithm"        run --net mesh:4x4 --algo "x${nl}y"
bad_input "newline in --bytes"  "bad byte count"           run --net mesh:4x4 --algo st --bytes "1${nl}"
bad_input "newline in an unknown command" "unknown command" "frob${nl}x"

finish
