#!/bin/sh
# The course, end to end in tmux: every shipped lesson of the Seidel course is opened and every
# page answered the way a student would (a letter, the cursor and Enter on a node, e and Enter
# on a link, or reaching the state of a "now you try" task with commands and keys, then
# Enter); each answer must be taken ("Right!"), and ] past the last page shows the score with
# every question answered right.  (test_lesson_state.c checks the same answers in the App and
# that every task is refused before it is done.)
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
export XDG_STATE_HOME="$TMPD/state"
export MESHCAST_PATH="$ROOT"

# one token of a try task: ":cmd" types a command, "home" puts the cursor on node 0 (or (0,0)),
# anything else is keys, one by one
token() {
    case "$1" in
        :*) tm_keys :; tm_run "${1#:}"; sleep 0.2 ;;
        home) tm_keys h h h h h h h h h h h h h h h h h h h h k k k k k k k k ;;
        *) tm send-keys -t t -l "$1"; sleep 0.2 ;;
    esac
}

# lesson NAME QUESTIONS SPEC... — each SPEC answers one page: "c X" a choice, "n K" the node
# reached from node 0 by keys K, "L K" the link at the node reached by K (e cycles), "t T;T;.."
# a task's tokens
lesson() {
    name=$1; nq=$2; shift 2
    tm_run clear
    tm_run "XDG_STATE_HOME=$XDG_STATE_HOME MESHCAST_PATH=$ROOT $MESHCAST lesson $name 2>$TMPD/err; echo EXIT=\$?"
    tm_wait "page 1/" 10 >/dev/null
    np=$#; pg=1; good=0
    for spec in "$@"; do
        kind=${spec%% *}; arg=${spec#* }
        case "$kind" in
            c) tm_keys "$arg" ;;
            n) token home; [ "$arg" = "-" ] || token "$arg"; tm_keys Enter ;;
            L) token home; [ "$arg" = "-" ] || token "$arg"
               i=0; while [ $i -lt 8 ]; do tm_keys e Enter
                   tm_wait "Right!" 1 && break; i=$((i + 1)); done ;;
            t) rest=$arg
               while [ -n "$rest" ]; do tok=${rest%%;*}; token "$tok"
                   [ "$tok" = "$rest" ] && rest= || rest=${rest#*;}; done
               tm_keys Enter ;;
        esac
        if tm_wait "Right!" 5; then good=$((good + 1)); else
            bad "$name page $pg ($spec) answered" "$(printf '%s\n' "$SCREEN" | head -n 30)"; fi
        tm_keys ']'
        pg=$((pg + 1))
        [ $pg -le $np ] && tm_wait "page $pg/" 5 >/dev/null
    done
    check_eq "$name: every page answered right" "$np" "$good"
    check_screen "$name: ] past the last page shows the score" "Right in the end: $nq of $nq"
    tm_keys q
    mc_exit_ok "$name"
}

tm_start 200 50
lesson st-array 11 "c a" "n llllllll" "c a" "c b" "t pp" "c a" "n lllllllllllll" "c b" \
    "L lllll" "c a" "t home;llllll;s;G"
lesson bst-crossover 10 "c a" "n lllllllllllllll" "L lllllllllllllll" "c b" "c a" "c b" "c b" \
    "c a" "t :algo st;:bytes 1K" "t G"
lesson rh-contention 11 "c c" "c b" "c c" "t :step 7" "L ll" "c b" "c a" "c a" "c a" "c b" \
    "t :set nu=1;:step 8"
lesson any-source 8 "n lll" "c a" "c a" "t :source 9;:step 1" "n llllllllll" "c a" "c a" \
    "t home;jjjjjjjlllllll;s;G"
lesson any-size 8 "c b" "n l" "c a" "c a" "c b" "c b" "t :algo bst;G" "t :net array:33"
lesson model-crossovers 8 "c a" "c b" "c a" "c b" "c b" "c a" "t :algo rh;:bytes 16K" \
    "t :model postal;:algo rh"
# Sanders & Sibeyn: the chain against the tree, and "set r and see" on the fractional tree
lesson chain-vs-tree 10 "c b" "c b" "c b" "c b" "c b" "c a" "c a" "c b" "t :step 31" \
    "t :set s=1;:algo bintree"
lesson fractional-tradeoff 10 "c a" "c b" "c a" "c c" "t :set r=4" "c b" "t :set r=2" "c a" "c a" \
    "c b"

# the picker lists every lesson with its title, page count and progress
tm_run clear
mc_start --net mesh:8x8
tm_keys o
check_screen "o: titles in the lesson picker" "st-array  The ST broadcast on a linear array"
check_screen "o: page counts and progress" "any-size  Any size: companions  \\(8 pages; seen 8, right at the first try"
check_screen "o: the Sanders & Sibeyn lessons are listed" "chain-vs-tree  Chain or tree: latency against bandwidth"
check_screen "o: ... both" "fractional-tradeoff  Fractional trees: set r and see"
tm_keys Escape; sleep 0.3; tm_keys q
mc_exit_ok "picker"
# in a lesson, the picker starts on it
tm_run clear
tm_run "XDG_STATE_HOME=$XDG_STATE_HOME MESHCAST_PATH=$ROOT $MESHCAST lesson rh-contention 2>$TMPD/err; echo EXIT=\$?"
tm_wait "page " 10 >/dev/null
tm_keys o
check_screen "o in a lesson: the picker starts on it" "▶ rh-contention  Contention"
tm_keys Escape; sleep 0.3; tm_keys q
mc_exit_ok "picker in a lesson"
finish
