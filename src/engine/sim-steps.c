/* sim-steps.c — every step's figures (SimStep), compact: a step's own two figures (informed,
 * critical_node) in a 12-byte record, the rest interned in a table of distinct "kinds" (a
 * pipeline's million steps have a handful of kinds: the same transfers, bytes, loads and
 * price, step after step).  sim_step (sim.h) puts a step back together.  Contract: sim-core.h. */
#include "sim-core.h"

#include <stdlib.h>
#include <string.h>

static uint64_t bits_of(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* The figures a kind is made of: everything but informed and critical_node, field by field
 * (doubles by their bits, so that a kind gives back exactly what was stored). */
static void kind_words(const SimStep *s, uint64_t w[KIND_WORDS])
{
    w[0] = bits_of(s->cost.total);
    w[1] = bits_of(s->cost.startup);
    w[2] = bits_of(s->cost.transmission);
    w[3] = bits_of(s->cost.contention);
    w[4] = bits_of(s->cost.permutation);
    w[5] = (uint64_t)s->ntransfers;
    w[6] = (uint64_t)s->tcd;
    w[7] = s->bytes;
    w[8] = (uint64_t)(uint32_t)s->max_link_load;
    w[9] = (uint64_t)s->link_overloads;
    w[10] = (uint64_t)(uint32_t)s->max_channel_load;
    w[11] = (uint64_t)s->port_conflicts;
    w[12] = (uint64_t)s->violations;
    w[13] = (uint64_t)s->max_len;
    w[14] = s->max_bytes;
    w[15] = (uint64_t)(uint32_t)s->subrounds;
}

static uint64_t kind_hash(const uint64_t w[KIND_WORDS])
{
    uint64_t h = 0x9e3779b97f4a7c15u;
    for (int i = 0; i < KIND_WORDS; i++) {
        h ^= w[i];
        h *= 0xff51afd7ed558ccdu;
        h ^= h >> 32;
    }
    return h;
}

bool steps_init(StepTab *t, int32_t nsteps)
{
    memset(t, 0, sizeof *t);
    t->rec = calloc((size_t)nsteps + 1, sizeof *t->rec);
    return t->rec != NULL;
}

void steps_free(StepTab *t)
{
    free(t->rec);
    free(t->kind);
    free(t->slot);
    memset(t, 0, sizeof *t);
}

void steps_done(StepTab *t)
{
    free(t->slot);
    t->slot = NULL;
    t->nslot = 0;
    if (t->nkind < t->capkind) {   /* the exact size: the kinds stay for the Sim's life */
        SimStep *k = realloc(t->kind, (t->nkind ? t->nkind : 1) * sizeof *k);
        if (k) {
            t->kind = k;
            t->capkind = t->nkind ? t->nkind : 1;
        }
    }
}

/* Room for one more kind (and the hash slots to find it).  False: no memory. */
static bool kind_room(StepTab *t)
{
    if (t->nkind == t->capkind) {
        uint32_t c = t->capkind ? 2 * t->capkind : 16;
        SimStep *k = realloc(t->kind, (size_t)c * sizeof *k);
        if (!k)
            return false;
        t->kind = k;
        t->capkind = c;
    }
    if (2 * ((size_t)t->nkind + 1) <= t->nslot)
        return true;
    size_t ns = t->nslot ? 2 * t->nslot : 64;
    uint32_t *sl = calloc(ns, sizeof *sl);
    if (!sl)
        return false;
    for (uint32_t k = 0; k < t->nkind; k++) {   /* rehash */
        uint64_t w[KIND_WORDS];
        kind_words(&t->kind[k], w);
        size_t i = kind_hash(w) & (ns - 1);
        while (sl[i])
            i = (i + 1) & (ns - 1);
        sl[i] = k + 1;
    }
    free(t->slot);
    t->slot = sl;
    t->nslot = ns;
    return true;
}

bool steps_put(StepTab *t, int32_t st, const SimStep *s)
{
    uint64_t w[KIND_WORDS];
    kind_words(s, w);
    t->rec[st].informed = s->informed;
    t->rec[st].critical = s->critical_node;
    if (t->nkind > 0 && !memcmp(w, t->lastw, sizeof w)) {   /* the kind of the step put last */
        t->rec[st].kind = t->last;
        return true;
    }
    memcpy(t->lastw, w, sizeof w);
    uint64_t h = kind_hash(w);
    for (int pass = 0; pass < 2; pass++) {
        if (t->nslot) {
            size_t i = h & (t->nslot - 1);
            for (; t->slot[i]; i = (i + 1) & (t->nslot - 1)) {
                uint64_t v[KIND_WORDS];
                kind_words(&t->kind[t->slot[i] - 1], v);
                if (!memcmp(v, w, sizeof v)) {
                    t->rec[st].kind = t->last = t->slot[i] - 1;
                    return true;
                }
            }
            if (pass == 1) {   /* a new kind, room made below */
                SimStep *k = &t->kind[t->nkind];
                memset(k, 0, sizeof *k);
                *k = *s;
                k->informed = 0;
                k->critical_node = 0;
                t->slot[i] = ++t->nkind;
                t->rec[st].kind = t->last = t->nkind - 1;
                return true;
            }
        }
        if (!kind_room(t))
            return false;
    }
    return false;   /* (not reached) */
}

void steps_get(const StepTab *t, int32_t st, SimStep *out)
{
    memcpy(out, &t->kind[t->rec[st].kind], sizeof *out);
    out->informed = t->rec[st].informed;
    out->critical_node = t->rec[st].critical;
}
