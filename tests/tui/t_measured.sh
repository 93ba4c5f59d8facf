#!/bin/sh
# A measured run beside the simulated one (issue 22): `meshcast --measured FILE.json` with a
# hand-written exec --json file (tests/data/measured/array8-st-4k.json: array:8, st, 4096
# bytes, 3 steps measured 100, 50 and 25 us, total 175 us, 7 reps).  The Timeline draws under
# every simulated bar a measured one, each kind scaled to its own longest step: st's three
# steps cost the same (b + a*m = 75 + 0.08*4096 = 402.68 us), so every simulated bar is the full
# width W, and the measured ones are W, W/2 and W/4 rounded.  The Chart puts an M at the
# measured total.  A file for another broadcast or a broken file is refused with one line;
# :measured off takes it away; :exec runs exec for the broadcast shown (with MPI), or says in one
# line what to install (without), and Escape cancels a running one.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"
F="$ROOT/tests/data/measured/array8-st-4k.json"

# bars W: the length of the run of CHAR after "N s|m VALUE" on the timeline row
bar_len() {   # bar_len ROWREGEX CHAR
    printf '%s\n' "$SCREEN" | grep -E -- "$1" | head -n 1 | sed 's/.*[0-9]\.[0-9][0-9]//' |
        tr -cd "$2" | wc -c | tr -d ' '
}
check_bars() {   # check_bars DESC
    W=$(bar_len '\| +1 s +402\.68' '#')
    if [ "${W:-0}" -ge 8 ]; then ok "$1: simulated bar drawn ($W)"; else bad "$1: simulated bar drawn" "$SCREEN"; fi
    check_eq "$1: steps 2 and 3 simulated bars as long (same cost)" "$W $W" \
        "$(bar_len '\| +2 s +402\.68' '#') $(bar_len '\| +3 s +402\.68' '#')"
    i=1
    for v in 100 50 25; do
        want=$(awk -v w="$W" -v v=$v 'BEGIN{x = w * v / 100; printf "%d", x + 0.5}')
        got=$(printf '%s\n' "$SCREEN" | grep -E -- "\| +m +$v\.00" | head -n 1 |
              sed 's/.*[0-9]\.[0-9][0-9]//' | tr -cd '+' | wc -c | tr -d ' ')
        check_eq "$1: measured bar of step $i ($v us) = round(W*$v/100)" "$want" "$got"
        i=$((i + 1))
    done
}

for size in "80 24" "200 60"; do
    set -- $size
    tm_start "$1" "$2"
    mc_start --ascii --net array:8 --algo st --bytes 4096 --measured "$F"
    check_screen "$1x$2: opens with the run loaded" "measured st on 8 ranks: 175 us"
    tm_keys Tab
    check_screen "$1x$2: Timeline legend says which is which" '# simulated, \+ measured'
    check_screen "$1x$2: Timeline total beside" 'total s 1208\.04 m 175\.00 us'
    check_bars "$1x$2"
    tm_keys Tab Tab
    check_screen "$1x$2: Chart names the measured point" 'M measured st: 175\.00 us'
    if [ "$1" = 200 ]; then
        # the lowest value on the plot is the measured total: its row is labelled 175, M on it
        check_screen "200x60: M plotted on the 175 row" '\| +175 \|.*M'
        check_screen "200x60: Chart legend with reps" 'M measured st: 175\.00 us \(7 reps\); sim 1208\.04'
    fi
    tm_run ":measured off"
    tm_keys Tab Tab
    check_screen "$1x$2: :measured off: the plain Timeline" 'step +cost +running'
    tm_keys q
    mc_exit_ok "$1x$2"
done

tm_start 100 30
mc_start --ascii --net array:8 --algo st --bytes 1024 --measured "$F"
check_screen "another size: refused, one line, exit 2" '^EXIT=2' 20
check_match "another size: says why" "^meshcast: --measured: .*array8-st-4k.json: not this broadcast's run: it is for 4096 bytes, the screen shows 1024$" "$(cat "$TMPD/err")"
tm_run clear
printf '{"net":"array:8","algo":"st","bytes":4096,"steps":3,"measured":{"total":1,' >"$TMPD/bad.json"
# its own marker and error file: the EXIT=2 above may still be on the screen
tm_run "$MESHCAST --ascii --net array:8 --algo st --bytes 4096 --measured $TMPD/bad.json 2>$TMPD/err2; echo BROKEN=\$?"
check_screen "a broken file: exit 2" '^BROKEN=2' 20
check_match "a broken file: byte named" '^meshcast: --measured: .*bad.json: byte [0-9]+: the file ends early' "$(cat "$TMPD/err2")"

# :exec without meshcast-mpi: one line naming what to install
tm_run clear
tm_run "MESHCAST_MPI=/nonexistent $MESHCAST --ascii --net array:4 --algo st --bytes 1K 2>$TMPD/err; echo EXIT=\$?"
check_screen "no MPI: opens" "st on array:4"
tm_run ":exec 2"
check_screen "no MPI: :exec says what to install" ':exec: .*openmpi-bin' 60
tm_keys q
mc_exit_ok "no MPI"

MPI_BIN=$(dirname "$MESHCAST")/meshcast-mpi
if ! command -v mpirun >/dev/null 2>&1 || [ ! -x "$MPI_BIN" ]; then
    skip ":exec runs" "no mpirun or no $MPI_BIN"
    finish; exit $?
fi
tm_run clear
tm_run "export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1"
mc_start --ascii --net array:4 --algo st --bytes 1K
check_screen ":exec: opens" "st on array:4"
tm_keys Tab
tm_run ":exec 2"
check_screen ":exec: progress shown" ':exec: running st on array:4 \(4 ranks\), 2 reps'
check_screen ":exec: the run comes in" 'measured st on 4 ranks: [0-9.]+ us \(median of 2 reps\)' 120
check_screen ":exec: Timeline shows it" '\| +m +[0-9]+\.[0-9][0-9]\+'
# the screen answers while a long run goes on, and Escape ends it
tm_run ":bytes 4M"
check_screen ":exec cancel: 4M shown" 'st on array:4 .*4M B'
tm_run ":exec 1000"
check_screen ":exec cancel: running" ':exec: running st' 30
tm_keys n
check_screen ":exec cancel: the screen steps meanwhile" 'step 1/2'
tm_keys Escape
check_screen ":exec cancel: Escape ends it" ':exec cancelled \(launcher and ranks ended\)' 30
tm_keys q
mc_exit_ok ":exec"
finish
