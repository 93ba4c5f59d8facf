# map.awk — read a tmux capture of meshcast --ascii at zoom 0 (cells 8 wide, links 3 wide, one
# line of vertical links) and print what the map shows, one item a line:
#   N id          node id is marked as receiving in this step (the mark "*")
#   C id          node id is marked with a port conflict (more than one send or receive)
#   H id CLASS    the horizontal link from id to its + neighbour (the wrap-around link at the
#                 right edge of a torus row) carries circuits: CLASS "+", "-", "+-" or "D<load>"
#                 (overloaded, with the load shown)
#   V id CLASS    the same for the vertical link from id to the node below it
#   W H|V id      a wrap-around stub disagrees with the one at the opposite edge
# Variables: cols (nodes per row of the net), oned (1 for arrays/rings: row labels are ids),
# wrap (1 on rings and tori: check the stubs at both edges agree).
function hclass(s,   d) {
    if (match(s, /[0-9]+/)) return "D" substr(s, RSTART, RLENGTH)
    d = ""
    if (index(s, ">")) d = d "+"
    if (index(s, "<")) d = d "-"
    return d
}
function vclass(c) {
    if (c ~ /[0-9+]/) return "D" c
    if (c == "v") return "+"
    if (c == "^") return "-"
    if (c == "X") return "+-"
    return ""
}
{ line[NR] = $0 }
END {
    sep = 0
    for (i = 1; i <= NR && !sep; i++) if ((p = index(line[i], "| [")) > 0 || (p = index(line[i], "|  Step")) > 0) sep = p
    if (!sep) { print "E no panel separator"; exit 1 }
    for (i = 1; i <= NR; i++) m[i] = substr(line[i], 1, sep - 1)
    lab = 0
    for (i = 2; i <= NR && !lab; i++) if (m[i] ~ /^ *0( +[0-9]+)* *$/) lab = i
    if (!lab) { print "E no column labels"; exit 1 }
    s = m[lab]; off = 0; nc = 0
    while (match(s, /[0-9]+/)) {
        v = substr(s, RSTART, RLENGTH) + 0
        cx[v] = off + RSTART - int((8 - RLENGTH) / 2)
        nc++
        off += RSTART + RLENGTH - 1
        s = substr(s, RSTART + RLENGTH)
    }
    nr = 0
    for (i = lab + 1; i <= NR; i++) {
        if (match(m[i], /^ *[0-9]+ /) && RSTART + RLENGTH - 1 < cx[0]) {
            rv[nr] = substr(m[i], 1, RLENGTH) + 0; ry[nr] = i; nr++
        }
    }
    for (r = 0; r < nr; r++) {
        y = ry[r]
        for (c = 0; c < nc; c++) {
            id = oned ? rv[r] + c : rv[r] * cols + c
            cell = substr(m[y], cx[c], 8)
            if (substr(cell, 2, 1) == "*") print "N " id
            if (substr(cell, 8, 1) == "!") print "C " id
            h = hclass(substr(m[y], cx[c] + 8, 3))
            if (h != "") print "H " id " " h
            if (c == 0 && wrap) {
                # a left stub: must agree with the right stub of the row's last node
                l = hclass(substr(m[y], cx[0] - 3, 3)); rr = hclass(substr(m[y], cx[nc - 1] + 8, 3))
                if (l != rr) print "W H " id
            }
            v = vclass(substr(m[y + 1], cx[c] + 4, 1))
            if (v != "") print "V " id " " v
            if (r == 0 && wrap && !oned) {
                t = vclass(substr(m[y - 1], cx[c] + 4, 1))
                b = vclass(substr(m[ry[nr - 1] + 1], cx[c] + 4, 1))
                if (t != b) print "W V " id
            }
        }
    }
}
