#!/usr/bin/env python3
"""simplex-slots.py R_MAX — the slot patterns a direct simplex fractional tree could use
(docs/errata.md, Sanders & Sibeyn, "the direct simplex schedule").

In a schedule that forwards a run of r packets in 2r+1 steps, every inner PU is busy every
step: per period of L = 2r+1 steps it receives r packets and sends r down and 1 right.  Its
*pattern* is the set of the r steps (mod L) in which it receives.  In a group (a chain of r
PUs) member i+1 receives in r of member i's r+1 send steps; the one left over is member i's
right send.  The right head of the group receives in the r right-send steps of the members,
the down head in the last member's down steps.  For each pattern T of a group head (up to
rotation) this lists which (right head, down head) patterns the group can produce, and then:
the patterns that reproduce themselves (one pattern for every PU of the tree), and whether
the two patterns "block" (R^r S^(r+1)) and "alternating" ((RS)^r S) close on each other.
Causality is not checked: in a periodic schedule it costs latency (whole steps), not period.
"""
import itertools
import sys


def canon(slots, L):
    return min(tuple(sorted((x - a) % L for x in slots)) for a in range(L))


def outcomes(r):
    L = 2 * r + 1
    types = {canon(c, L) for c in itertools.combinations(range(L), r)}
    outs = {}
    for T in types:
        res = set()

        def walk(i, recv, rights):
            send = [x for x in range(L) if x not in recv]
            for rho in send:
                if rho in rights:
                    continue   # the right head receives once a step
                nxt = frozenset(x for x in send if x != rho)
                if i == r - 1:
                    res.add((canon(rights + [rho], L), canon(nxt, L)))
                else:
                    walk(i + 1, nxt, rights + [rho])

        walk(0, frozenset(T), [])
        outs[T] = res
    return outs


def main():
    rmax = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    for r in range(2, rmax + 1):
        L = 2 * r + 1
        outs = outcomes(r)
        block = tuple(range(r))
        alt = canon([2 * j for j in range(r)], L)
        single = sorted(T for T in outs if (T, T) in outs[T])
        fam = {block, alt}
        closes = all(any(h in fam and d in fam for h, d in outs[T]) for T in fam)
        print("r=%d  L=%d  alternating self-reproducing: %s  self-reproducing patterns: %s"
              "  {block, alternating} closes: %s" % (r, L, (alt, alt) in outs[alt],
                                                      single or "none", closes))
        for T in sorted(fam):
            name = "block" if T == block else "alternating"
            kids = sorted("(%s, %s)" % ("block" if h == block else "alt",
                                        "block" if d == block else "alt")
                          for h, d in outs[T] if h in fam and d in fam)
            print("    %-11s head -> (right, down): %s" % (name, ", ".join(kids)))


if __name__ == "__main__":
    main()
