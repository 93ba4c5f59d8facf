/* circuit-bounds.c — Proposition 1 and Corollary 1 of Peters & Syska. */
#include "circuit-bounds.h"

#include <string.h>

int32_t bounds_ceil_log(int64_t n, int64_t base)
{
    int32_t k = 0;
    for (int64_t p = 1; p < n; p *= base)
        k++;
    return k;
}

static double max2(double a, double b) { return a > b ? a : b; }

bool bounds_circuit(const Net *net, const CostParams *p, uint64_t bytes, CircuitBounds *out)
{
    if (!net || !net_wraps(net))
        return false;
    memset(out, 0, sizeof *out);
    int nd = net_ndim(net);
    for (int d = 0; d < nd; d++) {
        int32_t e = net_dim(net, d);
        out->diameter += e / 2;
        if (e >= 2)
            out->degree += 2;
    }
    out->lambda = out->degree;
    int64_t n = net_size(net);
    double L = (double)bytes;
    out->phases = out->degree ? bounds_ceil_log(n, out->degree + 1) : 0;
    out->startup = out->phases * p->alpha;
    out->switching = (double)out->diameter * p->delta;
    out->propagation = out->lambda ? L * p->tau / out->lambda : 0;
    out->combined = out->degree ? p->alpha + (double)out->diameter * p->delta +
                                      L * p->tau / out->degree
                                : 0;
    out->total = max2(max2(out->startup, out->switching), max2(out->propagation, out->combined));
    if (nd == 2 && net_dim(net, 0) == net_dim(net, 1) && net_dim(net, 0) >= 3) {
        int32_t side = net_dim(net, 0);
        out->corollary = true;
        out->cor_phases = 2 * bounds_ceil_log(side, 5);
        out->cor_startup = out->cor_phases * p->alpha;
        out->cor_rest = p->alpha + 2.0 * (side / 2) * p->delta + L * p->tau / 4;
        out->cor_total = max2(out->cor_startup, out->cor_rest);
    }
    return true;
}
