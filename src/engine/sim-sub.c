/* sim-sub.c — seidel's one-port rule in the lockstep replay: a step in which some node sends
 * or receives more than once is played in sub-rounds (subround.h splits it); here they are
 * priced (sub_price, during the run) and made ready for the questions asked after it
 * (sub_ready: sim-query.c).  sim-core.h has the contracts. */
#include "sim-core.h"

#include <stdlib.h>

/* Seidel, a step in which some node sends or receives more than once: its sub-rounds
 * (subround.h), each priced as a one-port step by its costliest transfer (loads counting only
 * that sub-round's circuits), added up.  The breakdown adds up those transfers' terms; the
 * critical node is the one with the most sends or receives, which forces the sub-rounds
 * (ties: the first in transfer order, senders before receivers).  A link's load is the most
 * circuits on it in one sub-round (max_link_load, link_overloads, sim_link_load). */
bool sub_price(Sim *sim, int32_t st, const SchedFlat *f, int32_t cap, SimStep *out,
                      double *startup, double *trans, double *cont)
{
    const CostParams *p = &sim->p;
    int64_t n = f->n;
    if (!sim->sub && !(sim->sub = subround_new(sim->net)))
        return false;
    int32_t nsub = subround_split(sim->sub, sim->s, st, cap);
    if (nsub < 0)
        return false;
    const int32_t *rd = subround_of(sim->sub), *k = subround_load(sim->sub);
    double *best = calloc((size_t)nsub, sizeof *best);
    int64_t *arg = malloc((size_t)nsub * sizeof *arg);
    if (!best || !arg) {
        free(best);
        free(arg);
        return false;
    }
    for (int32_t r = 0; r < nsub; r++)
        best[r] = -1;
    for (int64_t i = 0; i < n; i++) {
        double c = cost_transfer(p, 0, (double)xfer_bytes(sim, XVP(f, i)), ceil_div(k[i], cap));
        if (c > best[rd[i]]) {
            best[rd[i]] = c;
            arg[rd[i]] = i;
        }
    }
    *startup = *trans = *cont = 0;
    for (int32_t r = 0; r < nsub; r++) {
        int64_t i = arg[r];
        CostTerms t = cost_terms(p, 0, (double)xfer_bytes(sim, XVP(f, i)), ceil_div(k[i], cap));
        *startup += t.startup;
        *trans += t.trans;
        *cont += t.cont;
    }
    int32_t most = 0;
    for (int64_t i = 0; i < n; i++)
        if (port_sends(sim, f->x[i].src) > most) {
            most = port_sends(sim, f->x[i].src);
            out->critical_node = f->x[i].src;
        }
    for (int64_t i = 0; i < n; i++)
        if (port_recvs(sim, f->x[i].dst) > most) {
            most = port_recvs(sim, f->x[i].dst);
            out->critical_node = f->x[i].dst;
        }
    free(best);
    free(arg);
    out->subrounds = nsub;
    out->max_link_load = subround_maxload(sim->sub);
    out->link_overloads = subround_overloads(sim->sub);
    return true;
}

/* Seidel, a step played in sub-rounds: its sub-rounds split in sim->sub (subround.h), whose
 * link loads are the most circuits on a link at once. */
bool sub_ready(Sim *sim, int32_t step)
{
    if (sim->p.model != COST_SEIDEL || steps_kind(&sim->steps, step)->subrounds <= 1)
        return false;
    if (!sim->sub && !(sim->sub = subround_new(sim->net)))
        return false;
    return subround_split(sim->sub, sim->s, step, cap_of(&sim->p)) > 0;
}
