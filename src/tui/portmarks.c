/* portmarks.c — a step's nodes with an overloaded port, kept for the map (see portmarks.h). */
#include "portmarks.h"

#include <stdlib.h>

#include "../engine/circuit.h"

typedef struct {
    const Sched *s;
    long gen;
    int32_t st;
    bool used;
    int32_t *nodes;   /* sorted, distinct */
    int64_t n;
} Marks;

struct PortMarks {
    Marks m[2];
    int last;   /* the slot used last */
};

PortMarks *portmarks_new(void)
{
    return calloc(1, sizeof(PortMarks));
}

void portmarks_free(PortMarks *p)
{
    if (!p) return;
    free(p->m[0].nodes);
    free(p->m[1].nodes);
    free(p);
}

/* The step's set into slot k (circuit_port_overloads sorts its ports by node). */
static bool fill(Marks *k, const Sched *s, long gen, int32_t st)
{
    free(k->nodes);
    *k = (Marks){s, gen, st, false, NULL, 0};
    CircuitPort *p;
    int64_t np = circuit_port_overloads(s, st, &p);
    if (np < 0) return false;
    if (np > 0) {
        k->nodes = malloc((size_t)np * sizeof *k->nodes);
        if (!k->nodes) {
            free(p);
            return false;
        }
        for (int64_t i = 0; i < np; i++)
            if (k->n == 0 || k->nodes[k->n - 1] != p[i].node) k->nodes[k->n++] = p[i].node;
    }
    free(p);
    k->used = true;
    return true;
}

bool portmarks_node(PortMarks *p, const Sched *s, long gen, int32_t st, int32_t n)
{
    if (!p || !s || st < 0 || st >= sched_nsteps(s)) return false;
    Marks *k = NULL;
    for (int i = 0; i < 2; i++)
        if (p->m[i].used && p->m[i].s == s && p->m[i].gen == gen && p->m[i].st == st) {
            k = &p->m[i];
            p->last = i;
        }
    if (!k) {
        p->last = 1 - p->last;   /* the slot not used last */
        k = &p->m[p->last];
        if (!fill(k, s, gen, st)) return false;
    }
    int64_t lo = 0, hi = k->n;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (k->nodes[mid] < n) lo = mid + 1;
        else hi = mid;
    }
    return lo < k->n && k->nodes[lo] == n;
}
