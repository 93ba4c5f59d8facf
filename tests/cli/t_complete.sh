#!/bin/sh
# Shell completion (issue 23): the bash and zsh scripts in completions/ and the table they
# get their candidates from (`meshcast complete`, src/cli/cli-table.c), checked against what
# each command really accepts, its --help and the man page.
. "$(dirname "$0")/../lib.sh"
cd "$TMPD" || exit 2
C="$ROOT/completions"
export XDG_STATE_HOME="$TMPD/state" XDG_CONFIG_HOME="$TMPD/config"

# -- bash: sourced, `complete -p`, and scripted completions through COMP_WORDS/COMP_CWORD
cat >bcomp.sh <<'EOS'
. "$C/meshcast.bash"
complete -p meshcast
# comp LINE: complete at the end of LINE as bash would (COMP_WORDS split at its word breaks)
comp() {
    COMP_LINE="$MESHCAST ${1#meshcast }"; COMP_POINT=${#COMP_LINE}
    local IFS=$' \t\n'
    COMP_WORDS=(); local w=""; local rest="$COMP_LINE"
    # split like readline: blanks separate, ':' and '=' are words of their own
    rest=${rest//:/ : }; rest=${rest//=/ = }
    read -r -a COMP_WORDS <<<"$rest"
    [[ $COMP_LINE == *[\ :=] && $COMP_LINE != *[:=] ]] && COMP_WORDS+=("")
    [[ $COMP_LINE == *[:=] ]] && COMP_WORDS+=("")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    _meshcast
    printf '%s\n' "${COMPREPLY[@]}"
}
echo "== ru";        comp "meshcast ru"
echo "== net";       comp "meshcast run --net m"
echo "== net=";      comp "meshcast run --net=m"
echo "== mesh:";     comp "meshcast run --net mesh:"
echo "== algo";      comp "meshcast run --net array:16 --algo b"
echo "== lesson";    comp "meshcast lesson "
echo "== theme";     comp "meshcast --theme "
echo "== list";      comp "meshcast list "
echo "== all";       comp "meshcast compare --algo a"
echo "== opts";      comp "meshcast check x.lua --pro"
EOS
if command -v bash >/dev/null; then
    out=$(C="$C" MESHCAST="$MESHCAST" bash bcomp.sh 2>&1)
    sec() { printf '%s\n' "$out" | awk -v s="== $1" '$0 == s { f = 1; next } /^== / { f = 0 } f'; }
    check_match "bash: complete -p meshcast" "^complete .*-F _meshcast meshcast$" "$out"
    check_eq "bash: meshcast ru<TAB> -> run" "run" "$(sec ru)"
    check_eq "bash: --net m<TAB> -> mesh:" "mesh:" "$(sec net)"
    check_eq "bash: --net=m<TAB> -> mesh: (after the '=')" "mesh:" "$(sec net=)"
    check_eq "bash: --net mesh:<TAB> -> nothing to add (sizes are typed)" "" "$(sec mesh:)"
    # the algorithms starting with b: the built-ins `list algorithms` prints and the scripts
    # in scripts/ (their file names), each once
    want=$( { "$MESHCAST" list algorithms | awk 'NF == 0 { exit } { print $1 }';
              ls "$ROOT"/scripts/*.lua | sed 's|.*/||; s|\.lua$||'; } | grep '^b' | sort -u)
    check_eq "bash: --algo b<TAB> -> the built-ins and scripts starting with b" "$want" "$(sec algo | sort)"
    check_eq "bash: lesson <TAB> -> every lessons/*.lua" \
        "$(ls "$ROOT"/lessons/*.lua | sed 's|.*/||; s|\.lua$||' | sort)" "$(sec lesson | sort)"
    check_eq "bash: --theme <TAB> -> default and assets/*.theme" \
        "$( { echo default; ls "$ROOT"/assets/*.theme | sed 's|.*/||; s|\.theme$||'; } | sort -u)" "$(sec theme | sort)"
    check_eq "bash: list <TAB> -> what list lists" "algorithms distributions lessons models nets profiles" \
        "$(sec list | sort | tr '\n' ' ' | sed 's/ $//')"
    for t in $(sec list); do
        check_exit "  list $t exits 0" 0 "$MESHCAST" list "$t"
    done
    check_eq "bash: check --pro<TAB> -> --profile" "--profile" "$(sec opts)"
    check_match "bash: compare --algo a<TAB> offers all" "^all$" "$(sec all)"
else
    skip "bash completion" "no bash"
fi

# -- zsh: the script's function with compadd and _files stood in for
if command -v zsh >/dev/null; then
    zc() { zsh -f -c 'compadd() { while [[ $1 != -- ]]; do shift; done; shift; print -l -- "$@"; }
        _files() { print FILES; }; words=("${(@Q)${(z)1}}"); CURRENT=${#words}
        [[ $1 == *" " ]] && { words+=(""); CURRENT=${#words}; }
        source "$2"' zc "$1" "$C/_meshcast"; }
    check_eq "zsh: meshcast ru<TAB> -> run" "run" "$(zc "$MESHCAST ru")"
    check_eq "zsh: --net m<TAB> -> mesh:" "mesh:" "$(zc "$MESHCAST run --net m")"
    check_eq "zsh: lesson <TAB> -> every lesson" \
        "$(ls "$ROOT"/lessons/*.lua | sed 's|.*/||; s|\.lua$||' | sort)" "$(zc "$MESHCAST lesson " | sort)"
    check_eq "zsh: --algo st,b<TAB> after the comma" "st,bst" "$(zc "$MESHCAST compare --algo st,bs" | sort | head -1)"
    check_eq "zsh: record <TAB>: the shell's files" "FILES" "$(zc "$MESHCAST record ")"
else
    skip "zsh completion" "zsh is not installed (tools/deps.sh installs it)"
fi

# -- the table against the commands: every option it lists is one the command accepts (a
# bad value or a stray word may be refused, never the option as unknown), and every option
# a command's --help names is in the table
cmds=$("$MESHCAST" complete -- "")
check_match "the commands: run, lesson, list, ..." "^run$" "$cmds"
check_nomatch "  not the hidden one" "^complete$" "$cmds"
for c in "" $cmds; do
    opts=$("$MESHCAST" complete -- $c -- | grep -v '^--help$\|^--version$')
    for o in $opts; do
        # (compare's s-to-p options go with --sources, its MPI ones with --exec)
        case $c:$o in
            record:*) pre="$TMPD/r.cast";;
            compare:--nets|compare:--s|compare:--total|compare:--relative) pre="--sources R:4";;
            compare:--np|compare:--reps|compare:--mpirun|compare:--hostfile|compare:--timeout) pre="--exec";;
            *) pre="";;
        esac
        # shellcheck disable=SC2086
        err=$(timeout 30 "$MESHCAST" $c $pre "$o" @@bad </dev/null 2>&1 >/dev/null)
        if printf '%s' "$err" | grep -q -- "unknown option '$o'\|unknown option '${o#--}'\|option '$o' for"; then
            bad "${c:-screen}: $o is accepted" "$err"
        else
            T_PASS=$((T_PASS + 1))
        fi
    done
    [ -n "$c" ] || continue
    # lesson and record print the screen's usage (all three); calibrate names the option
    # its profile is used with
    case $c in lesson|record) opts=$(for x in "" lesson record; do "$MESHCAST" complete -- $x --; done);; esac
    for o in $("$MESHCAST" $c --help 2>&1 | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u); do
        case $c:$o in *:--help|calibrate:--profile|lesson:--json|record:--json) continue;; esac
        if printf '%s\n' "$opts" | grep -qx -- "$o"; then T_PASS=$((T_PASS + 1))
        else bad "$c --help names $o: in the completion table"; fi
    done
done
ok "every option of the table accepted; every option of every --help in the table"

# -- item 4: every option the screen (main.c's first word) accepts is in meshcast --help, and
# every option of every command is in the man page
help=$("$MESHCAST" --help)
for o in $("$MESHCAST" complete -- --); do
    check_match "meshcast --help names $o" -- "$o([^a-z-]|$)" "$help"
done
man=$(MANWIDTH=200 LC_ALL=C.UTF-8 groff -man -Tutf8 -P-c -P-b -P-u "$ROOT/man/meshcast.1" 2>/dev/null)
for o in $(for c in "" $cmds; do "$MESHCAST" complete -- $c --; done | sort -u); do
    if printf '%s\n' "$man" | grep -q -- "$o\([^a-z-]\|$\)"; then T_PASS=$((T_PASS + 1))
    else bad "the man page names $o"; fi
done
ok "the man page names every option of every command"
finish
