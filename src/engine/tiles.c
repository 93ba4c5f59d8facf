/* tiles.c — tiles of a broadcast tree: tiles.h. */
#include "tiles.h"

#include <stdbool.h>
#include <stdlib.h>

struct Tiles {
    int32_t size, nphases;
    int32_t *parent;   /* informer, -1 for a given node or one never informed */
    int32_t *phase;    /* 1-based informing phase of the node, 0 given, -1 never */
    int32_t *centre;   /* for `level`: the node's tile centre (-2: not yet computed) */
    int level;
    int32_t count;
};

Tiles *tiles_new(const Sched *s)
{
    const Net *net = sched_net(s);
    Tiles *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->size = net_size(net);
    size_t n = (size_t)t->size;
    t->parent = malloc(n * sizeof *t->parent);
    t->phase = malloc(n * sizeof *t->phase);
    t->centre = malloc(n * sizeof *t->centre);
    if (!t->parent || !t->phase || !t->centre) {
        tiles_free(t);
        return NULL;
    }
    for (size_t v = 0; v < n; v++) {
        t->parent[v] = -1;
        t->phase[v] = -1;
    }
    for (size_t i = 0; i < sched_ngiven(s); i++) {
        int32_t v;
        ChunkRange r;
        sched_given(s, i, &v, &r);
        t->phase[v] = 0;
    }
    for (int32_t st = 0; st < sched_nsteps(s); st++) {
        int64_t nt = sched_ntransfers(s, st);
        bool any = false;
        for (int64_t i = 0; i < nt; i++) {
            SchedTransfer x;
            sched_transfer(s, st, i, &x);
            /* an informer held something before this phase (so the tree has no cycle even
             * in a schedule that sends what it does not hold) */
            if (t->phase[x.dst] >= 0 || x.nranges == 0 || t->phase[x.src] < 0 ||
                t->phase[x.src] > t->nphases)
                continue;
            t->parent[x.dst] = x.src;
            t->phase[x.dst] = t->nphases + 1;
            any = true;
        }
        if (any)
            t->nphases++;
    }
    t->level = -1;
    return t;
}

void tiles_free(Tiles *t)
{
    if (!t)
        return;
    free(t->parent);
    free(t->phase);
    free(t->centre);
    free(t);
}

int32_t tiles_phases(const Tiles *t) { return t->nphases; }

static void set_level(Tiles *t, int level)
{
    if (level < 1)
        level = 1;
    if (level > t->nphases)
        level = t->nphases;
    if (t->level == level)
        return;
    t->level = level;
    int32_t cut = t->nphases - level;   /* nodes informed in phases <= cut are centres */
    for (int32_t v = 0; v < t->size; v++)
        t->centre[v] = -2;
    t->count = 0;
    for (int32_t v = 0; v < t->size; v++) {
        if (t->centre[v] != -2)
            continue;
        /* climb to the nearest centre (or an uninformed node), then set the whole path */
        int32_t u = v;
        while (t->centre[u] == -2 && t->phase[u] > cut && t->parent[u] >= 0)
            u = t->parent[u];
        int32_t c = t->centre[u] != -2 ? t->centre[u] : t->phase[u] < 0 ? -1 : u;
        if (t->centre[u] == -2 && c == u)
            t->count++;
        for (int32_t w = v; t->centre[w] == -2; w = t->parent[w]) {
            t->centre[w] = c;
            if (w == u)
                break;
        }
    }
}

int32_t tiles_centre(Tiles *t, int level, int32_t v)
{
    if (v < 0 || v >= t->size || t->nphases == 0)
        return -1;
    set_level(t, level);
    return t->centre[v];
}

int32_t tiles_count(Tiles *t, int level)
{
    if (t->nphases == 0)
        return 0;
    set_level(t, level);
    return t->count;
}
