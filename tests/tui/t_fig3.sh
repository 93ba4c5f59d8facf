#!/bin/sh
# The Chart panel shows Sanders & Sibeyn's Fig. 3 (`:chart tradeoff [P]`): the T table for P
# and every speedup maximum are the numbers `meshcast tradeoff` prints (read from it here, not
# hard-coded); `:chart cost` goes back; a bad `:chart` is a one-line message.  And an hxbar
# run draws its modules as boxes.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"

"$MESHCAST" tradeoff >"$TMPD/trade" || bad "tradeoff runs"
# the curves are plotted at the 64 values of k/t of `tradeoff --points 64`
"$MESHCAST" tradeoff --points 64 >"$TMPD/dense" || bad "tradeoff --points 64 runs"
# "k/t chain s bintree s fractional r s speedup" rows of P = 1024
awk '/^P = 1024$/ { on = 1; next } /^P = / { on = 0 } on && $1 ~ /^[0-9]+$/' "$TMPD/trade" \
    >"$TMPD/p1024"
tm_start 160 60
mc_start --ascii --net full:64 --algo fractional --model postal
check_screen "fractional on full:64 opens" "fractional on full:64"
tm_run ":chart tradeoff"
check_screen "Fig. 3 in the Chart panel" "Fig\. 3: fractional tree vs chain and bintree" 120   # the exact maxima: seconds under load
check_screen_fixed "the table is for P = 1024" "T for P = 1024"
while read -r kt chain _ bin _ frac r _ sp; do
    check_match "k/t $kt: the tradeoff's row" \
        "^ *$kt +$chain +$bin +$frac +$r +$sp" "$(tm_cap | sed -n 's/.*| *\([0-9][0-9]* .*\)/\1/p')"
done <"$TMPD/p1024"
# the maxima: tradeoff's exact "largest speedup" line (branch and bound over every integer k/t)
for P in 64 1024 16384; do
    max=$(awk -v P="$P" '$0 == "P = " P { on = 1; next } /^P = / { on = 0 }
        on && /^largest speedup/ { for (i = 1; i <= NF; i++) { if ($i == "=") k = $(i + 1)
            if ($i ~ /^[0-9.]+$/ && $(i - 1) ~ /:$/) v = $i }
            printf "%s at k/t %s", v, k }' "$TMPD/trade")
    check_match "P=$P: the tradeoff's maximum is not a power of 4" ' k/t [0-9]+$' "$max"
    check_screen_fixed "P=$P: max speedup $max" "P=$P: max speedup $max"
done
check_screen "the plot's marks" '\| *.*[123].*[123]'
# T against k/t for P = 1024: every mark where the tradeoff's T puts it (T/(k/t) on a log
# scale from the smallest to the largest value; '*' where two coincide)
tplot() {
    tm_cap | cut -d'|' -f2- | sed 's/^ //' | awk -v P="$1" '
        index($0, "T/(k/t) for P = " P " ") == 1 { on = 1; next }
        on && /^ *\+-/ { print "AXIS", length($0) - 6; exit }
        on { print }'
}
want_t() {  # P ROWS PW (plot rows, plot width): the marks "row col char" from `meshcast tradeoff`
    awk -v P="$1" -v pt="$2" -v pw="$3" -v n=0 '
        $0 == "P = " P { on = 1; next } /^P = / { on = 0 }
        on && $1 ~ /^[0-9]+$/ { kt[n] = $1; v[n, 0] = $2; v[n, 1] = $4; v[n, 2] = $6; n++ }
        END {
            lo = 1e300; hi = -1e300
            for (i = 0; i < n; i++) for (a = 0; a < 3; a++) {
                y[i, a] = log(v[i, a] / kt[i]) / log(10)
                if (y[i, a] < lo) lo = y[i, a]; if (y[i, a] > hi) hi = y[i, a] }
            split("c b f", m, " ")
            for (i = 0; i < n; i++) for (a = 0; a < 3; a++) {
                r = int((hi - y[i, a]) / (hi - lo) * (pt - 1) + 0.5)
                c = int(i * (pw - 1) / (n - 1) + 0.5)
                if ((r, c) in g) g[r, c] = "*"; else g[r, c] = m[a + 1] }
            for (k in g) { split(k, rc, SUBSEP); print rc[1], rc[2], g[k] } }' "$TMPD/dense" | sort
}
# check_tplot P — the plot on the screen (row, column after the axis, mark) is want_t's
check_tplot() {
    tplot "$1" >"$TMPD/tp"
    pw=$(awk '$1 == "AXIS" { print $2 }' "$TMPD/tp")
    pt=$(grep -vc '^AXIS' "$TMPD/tp")   # plot rows, the axis apart
    got=$(grep -v '^AXIS' "$TMPD/tp" | awk '{ for (c = 7; c <= length($0); c++) {
        ch = substr($0, c, 1); if (ch != " ") print NR - 1, c - 7, ch } }' | sort)
    check_eq "T/(k/t) plot for P = $1: the tradeoff's T, mark by mark" "$(want_t "$1" "$pt" "$pw")" "$got"
}
check_tplot 1024
check_match "T plot: the chain above at k/t 4" '^0 0 c$' "$got"
tm_run ":chart tradeoff 16384"
check_screen_fixed "the table for P = 16384" "T for P = 16384"
check_tplot 16384
tm_run ":chart tradeoff 64"
check_screen_fixed "the table for P = 64" "T for P = 64"
check_tplot 64
tm_run ":chart tradeoff 7"
check_screen_fixed "a bad P: one line" ":chart tradeoff [64|1024|16384]"
tm_run ":chart cost"
check_screen "back to the cost chart" "Cost vs message size"
tm_keys q
mc_exit_ok "fig3"

# hxbar: a box a module
tm_start 160 50
mc_start --ascii --net hxbar:4x8 --algo fractional-hxbar --model postal
check_screen "fractional-hxbar on hxbar:4x8 opens" "fractional-hxbar on hxbar:4x8"
check_screen "a box a module, m0..m3 (t_hxbar.sh checks the boxes)" '^\+- m3 out [0-9]+/2'
tm_keys G
check_screen "last step" ' step [0-9]+/[0-9]+ '
tm_keys q
mc_exit_ok "hxbar"
finish
