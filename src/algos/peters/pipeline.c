/* pipeline.c — pipelined packets through tree phases: pipeline.h. */
#include "pipeline.h"

#include <math.h>
#include <stdlib.h>

#include "phases.h"

/* Bytes of chunk c of n over L bytes (sched's formula, exact). */
static double chunk_bytes(uint64_t L, uint32_t n, uint64_t c)
{
    unsigned __int128 b = L;
    return (double)(uint64_t)(b * (c + 1) / n - b * c / n);
}

double peters_pipe_time(const CostParams *p, bool async, const int64_t *d, int ns, uint64_t L,
                        uint32_t P, int ntrees)
{
    /* the packets a fits() let through (phases.h's budget); more is no price, not hours */
    if (P == 0 || P > PETERS_PACKETS_MAX || ntrees < 1 || ntrees > 4)
        return NAN;
    uint32_t n = P * (uint32_t)ntrees;
    if (!async) {
        double sum = 0;
        for (int64_t st = 0; st < (int64_t)ns + P - 1; st++) {
            double worst = 0;   /* the costliest circuit of the step */
            for (int i = 0; i < ns; i++) {
                int64_t j = st - i;
                if (j < 0 || j >= (int64_t)P)
                    continue;
                for (int t = 0; t < ntrees; t++) {
                    double c = p->alpha + (double)d[i] * p->delta +
                               chunk_bytes(L, n, (uint64_t)t * P + (uint64_t)j) * p->tau;
                    if (c > worst)
                        worst = c;
                }
            }
            sum += worst;
        }
        return sum;
    }
    double *c = malloc((size_t)ns * sizeof *c);   /* C(j-1, i), then C(j, i) */
    if (!c)
        return NAN;
    double worst = 0;
    for (int t = 0; t < ntrees; t++) {
        for (int i = 0; i < ns; i++)
            c[i] = 0;
        for (uint32_t j = 0; j < P; j++) {
            double b = chunk_bytes(L, n, (uint64_t)t * P + j), prev = 0;
            for (int i = 0; i < ns; i++) {
                double start = c[i] > prev ? c[i] : prev;
                c[i] = start + p->alpha + (double)d[i] * p->delta + b * p->tau;
                prev = c[i];
            }
        }
        if (c[ns - 1] > worst)
            worst = c[ns - 1];
    }
    free(c);
    return worst;
}
