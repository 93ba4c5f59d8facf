# bash completion for meshcast (installed by `make install` as
# $PREFIX/share/bash-completion/completions/meshcast).  The candidates come from meshcast
# itself (`meshcast complete -- WORD...`): its subcommands and their options, the net kinds,
# the algorithms and scripts, lessons, themes and profiles it finds; files otherwise.
_meshcast() {
    local line=${COMP_LINE:0:COMP_POINT} cur pre
    local -a words
    # the words split at blanks only, so that "mesh:8x8" and "--net=m" stay one word each
    read -r -a words <<<"$line"
    if [[ -z $line || $line == *[[:space:]] ]]; then words+=(""); fi
    cur=${words[${#words[@]}-1]}
    local IFS=$'\n'
    # shellcheck disable=SC2207
    COMPREPLY=($("${COMP_WORDS[0]}" complete -- "${words[@]:1}" 2>/dev/null))
    # bash replaces only the part of the word after its last ':' or '=' (COMP_WORDBREAKS)
    if [[ ${COMP_WORDBREAKS-:=} == *[:=]* ]]; then
        pre=${cur%"${cur##*[:=]}"}
        if [[ -n $pre ]]; then
            local i
            for i in "${!COMPREPLY[@]}"; do COMPREPLY[i]=${COMPREPLY[i]#"$pre"}; done
        fi
    fi
    # "mesh:" and "--net=" go on: no space after them
    if [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *[:=,] ]]; then
        compopt -o nospace 2>/dev/null
    fi
    return 0
}
complete -o default -o bashdefault -F _meshcast meshcast
