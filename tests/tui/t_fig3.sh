#!/bin/sh
# The Chart panel shows Sanders & Sibeyn's Fig. 3 (`:chart tradeoff [P]`): the T table for P
# and every speedup maximum are the numbers `meshcast tradeoff` prints (read from it here, not
# hard-coded); `:chart cost` goes back; a bad `:chart` is a one-line message.  And an hxbar
# run draws its modules as boxes.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/tmux.sh"

"$MESHCAST" tradeoff >"$TMPD/trade" || bad "tradeoff runs"
# "k/t chain s bintree s fractional r s speedup" rows of P = 1024
awk '/^P = 1024$/ { on = 1; next } /^P = / { on = 0 } on && $1 ~ /^[0-9]+$/' "$TMPD/trade" \
    >"$TMPD/p1024"
tm_start 160 60
mc_start --ascii --net full:64 --algo fractional --model postal
check_screen "fractional on full:64 opens" "fractional on full:64"
tm_run ":chart tradeoff"
check_screen "Fig. 3 in the Chart panel" "Fig\. 3: fractional tree vs chain and bintree"
check_screen_fixed "the table is for P = 1024" "T for P = 1024"
while read -r kt chain _ bin _ frac r _ sp; do
    check_match "k/t $kt: the tradeoff's row" \
        "^ *$kt +$chain +$bin +$frac +$r +$sp" "$(tm_cap | sed -n 's/.*| *\([0-9][0-9]* .*\)/\1/p')"
done <"$TMPD/p1024"
for P in 64 1024 16384; do
    max=$(awk -v P="$P" '$0 == "P = " P { on = 1; next } /^P = / { on = 0 }
        on && $1 ~ /^[0-9]+$/ && $9 > m { m = $9; k = $1 } END { printf "%.2f at k/t %s", m, k }' \
        "$TMPD/trade")
    check_screen_fixed "P=$P: max speedup $max" "P=$P: max speedup $max"
done
check_screen "the plot's marks" '\| *.*[123].*[123]'
tm_run ":chart tradeoff 16384"
check_screen_fixed "the table for P = 16384" "T for P = 16384"
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
