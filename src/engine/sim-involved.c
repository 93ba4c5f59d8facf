/* sim-involved.c — the transfers a contention or port violation involves (sim.h):
 * sim_violation_transfers finds them in the violation's step, sim_violation_involved_text
 * names them ("0->2 chunk 0 route x+2; 0->3 chunk 0 route x+3"). */
#include <stdio.h>
#include <string.h>

#include "export.h"
#include "sim-core.h"

/* Hops walked per call at most: a violation's step of 65536 circuits of 256 hops is 2^24. */
#define INVOLVED_WORK (1LL << 24)

/* Does transfer t's route use the directed link `link`?  Full nets and crossbars: a pair's
 * link is used by the transfers of that pair only. */
static bool uses_link(const Sim *sim, const SchedTransfer *t, int64_t link, long long *work)
{
    const Net *net = sim->net;
    if (sim->full) {
        int32_t tail;
        net_link_info(net, link, &tail, NULL, NULL);
        return t->src == tail && t->dst == net_link_head(net, link);
    }
    int32_t u = t->src;
    for (int k = 0; k < t->nseg; k++)
        for (int64_t h = 0; h < t->seg[k].len; h++) {
            if (++*work > INVOLVED_WORK)
                return false;
            int64_t l = net_link(net, u, t->seg[k].dim, t->seg[k].dir);
            if (l < 0)
                return false;
            if (l == link)
                return true;
            u = net_link_head(net, l);
        }
    return false;
}

static bool involved(const Sim *sim, const SimViolation *v, const SchedTransfer *t,
                     long long *work)
{
    switch (v->kind) {
    case SIM_V_PORT: return t->src == v->node || t->dst == v->node;
    case SIM_V_LINK:
    case SIM_V_ALLPORT: {
        int64_t pairs = (int64_t)sim->net->size * sim->net->size;
        if (sim->hx && v->link >= pairs)   /* a crossbar module's channels */
            return false;
        return uses_link(sim, t, v->link, work);
    }
    default: return false;
    }
}

int64_t sim_violation_transfers(const Sim *sim, const SimViolation *v, int64_t *out,
                                size_t max)
{
    if (!sim || !v || v->step < 0 || v->step >= sched_nsteps(sim->s))
        return 0;
    if (v->kind != SIM_V_PORT && v->kind != SIM_V_LINK && v->kind != SIM_V_ALLPORT)
        return 0;
    int64_t n = sched_ntransfers(sim->s, v->step), found = 0;
    long long work = 0;
    SchedTransfer t;
    for (int64_t i = 0; i < n && work <= INVOLVED_WORK; i++) {
        work++;
        sched_transfer(sim->s, v->step, i, &t);
        if (involved(sim, v, &t, &work)) {
            if ((size_t)found < max)
                out[found] = i;
            found++;
        }
    }
    return found;
}

char *sim_violation_involved_text(const Sim *sim, const SimViolation *v, char *buf,
                                  size_t len)
{
    if (!buf || len == 0)
        return buf;
    buf[0] = '\0';
    int64_t idx[SIM_INVOLVED_SHOW];
    int64_t n = sim_violation_transfers(sim, v, idx, SIM_INVOLVED_SHOW);
    size_t used = 0;
    const Net *net = sim->net;
    for (int64_t k = 0; k < n && k < SIM_INVOLVED_SHOW; k++) {
        SchedTransfer t;
        sched_transfer(sim->s, v->step, idx[k], &t);
        char a[48], b[48], route[128], chunks[64];
        if (t.nranges == 0)
            snprintf(chunks, sizeof chunks, "no chunk");
        else if (t.ranges[0].lo + 1 == t.ranges[0].hi && t.nranges == 1)
            snprintf(chunks, sizeof chunks, "chunk %lu", (unsigned long)t.ranges[0].lo);
        else
            snprintf(chunks, sizeof chunks, "chunks %lu-%lu%s", (unsigned long)t.ranges[0].lo,
                     (unsigned long)t.ranges[0].hi - 1, t.nranges > 1 ? ",..." : "");
        export_route_text(net, t.seg, t.nseg, route, sizeof route);
        int w = snprintf(buf + used, len - used, "%s%s->%s %s route %s", k ? "; " : "",
                         net_node_name(net, t.src, a, sizeof a),
                         net_node_name(net, t.dst, b, sizeof b), chunks, route);
        if (w < 0 || (size_t)w >= len - used) {
            buf[used] = '\0';
            break;
        }
        used += (size_t)w;
    }
    if (n > SIM_INVOLVED_SHOW && used < len)
        snprintf(buf + used, len - used, "; and %lld more", (long long)(n - SIM_INVOLVED_SHOW));
    return buf;
}
