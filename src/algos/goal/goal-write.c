/* goal-write.c — a meshcast schedule as GOAL text: one rank per node, step k's transfers as
 * sends and recvs with tag k, each send requiring the recvs that brought its chunks (goal.h). */
#include <stdlib.h>
#include <string.h>

#include "goal-internal.h"

typedef struct {
    int32_t step;
    int64_t idx;       /* transfer index in the step */
    bool send;
} Event;

/* Every transfer twice: on its source's list and on its destination's, in step order. */
static Event *events_by_node(const Sched *s, int64_t **first_out)
{
    int32_t n = net_size(sched_net(s));
    int64_t *first = calloc((size_t)n + 1, sizeof *first);
    int64_t total = 2 * sched_total_transfers(s);
    Event *ev = malloc((size_t)(total ? total : 1) * sizeof *ev);
    if (!first || !ev) {
        free(first);
        free(ev);
        return NULL;
    }
    SchedTransfer tr;
    for (int32_t st = 0; st < sched_nsteps(s); st++)
        for (int64_t i = 0; i < sched_ntransfers(s, st); i++) {
            sched_transfer(s, st, i, &tr);
            first[tr.src + 1]++;
            first[tr.dst + 1]++;
        }
    for (int32_t v = 0; v < n; v++)
        first[v + 1] += first[v];
    int64_t *fill = malloc(((size_t)n + 1) * sizeof *fill);
    if (!fill) {
        free(first);
        free(ev);
        return NULL;
    }
    memcpy(fill, first, ((size_t)n + 1) * sizeof *fill);
    for (int32_t st = 0; st < sched_nsteps(s); st++)
        for (int64_t i = 0; i < sched_ntransfers(s, st); i++) {
            sched_transfer(s, st, i, &tr);
            ev[fill[tr.src]++] = (Event){st, i, true};
            ev[fill[tr.dst]++] = (Event){st, i, false};
        }
    free(fill);
    *first_out = first;
    return ev;
}

static bool range_overlaps(const ChunkRange *x, const SchedTransfer *b)
{
    for (uint32_t j = 0; j < b->nranges; j++)
        if (x->lo < b->ranges[j].hi && b->ranges[j].lo < x->hi)
            return true;
    return false;
}

/* Rank v's block: its events e[0..n), one message per chunk range (tag: its first chunk),
 * labels l1.. in that order; lab[k] is event k's first label. */
static bool write_rank(FILE *out, const Sched *s, int32_t v, const Event *e, int64_t n)
{
    SchedTransfer tr, rv;
    int64_t *lab = malloc(((size_t)n + 1) * sizeof *lab);
    if (!lab)
        return false;
    fprintf(out, "\nrank %ld {\n", (long)v);
    int64_t next = 1;
    for (int64_t k = 0; k < n; k++) {
        sched_transfer(s, e[k].step, e[k].idx, &tr);
        lab[k] = next;
        for (uint32_t q = 0; q < tr.nranges; q++, next++) {
            const ChunkRange *c = &tr.ranges[q];
            unsigned long long b = (unsigned long long)sched_range_bytes(s, c->lo, c->hi);
            if (!e[k].send) {
                fprintf(out, "l%lld: recv %llub from %ld tag %lu\n", (long long)next, b,
                        (long)tr.src, (unsigned long)c->lo);
                continue;
            }
            fprintf(out, "l%lld: send %llub to %ld tag %lu\n", (long long)next, b,
                    (long)tr.dst, (unsigned long)c->lo);
            for (int64_t j = 0; j < k && e[j].step < e[k].step; j++) {
                if (e[j].send)
                    continue;
                sched_transfer(s, e[j].step, e[j].idx, &rv);
                for (uint32_t w = 0; w < rv.nranges; w++)
                    if (range_overlaps(&rv.ranges[w], &(SchedTransfer){.ranges = c, .nranges = 1}))
                        fprintf(out, "l%lld requires l%lld\n", (long long)next,
                                (long long)(lab[j] + w));
            }
        }
    }
    fputs("}\n", out);
    free(lab);
    return true;
}

bool goal_write(FILE *out, const Sched *s, const char *comment)
{
    const Net *net = sched_net(s);
    int32_t n = net_size(net);
    int64_t *first = NULL;
    Event *ev = events_by_node(s, &first);
    if (!ev)
        return false;
    if (comment) {
        fputs("// ", out);
        for (const char *c = comment; *c; c++)
            fputc((unsigned char)*c < 0x20 ? '?' : *c, out);
        fputc('\n', out);
    }
    fprintf(out, "// meshcast: chunks %lu bytes %llu tag=first-chunk\n",
            (unsigned long)sched_nchunks(s), (unsigned long long)sched_bytes(s));
    int64_t nlocal = 0;
    for (int32_t st = 0; st < sched_nsteps(s); st++)
        nlocal += sched_nlocals(s, st);
    if (nlocal)
        fprintf(out, "// %lld local operations (in-node copies) not written\n",
                (long long)nlocal);
    fprintf(out, "num_ranks %ld\n", (long)n);
    bool ok = true;
    for (int32_t v = 0; v < n && ok && !ferror(out); v++)
        ok = write_rank(out, s, v, ev + first[v], first[v + 1] - first[v]);
    free(ev);
    free(first);
    return ok && !ferror(out) && fflush(out) == 0;
}
