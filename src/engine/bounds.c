/* bounds.c — Sanders & Sibeyn's lower bounds (see bounds.h). */
#include "bounds.h"

#include <math.h>

bool bounds_postal(int64_t P, uint64_t bytes, const CostParams *p, PostalBounds *out)
{
    if (P < 2 || !p || !out)
        return false;
    double k = p->beta * (double)bytes, t = p->t, lg = log2((double)P);
    out->duplex = k + t * lg;
    out->simplex = 2.0 * (1.0 - 1.0 / (double)P) * k + t * (lg - 4.0);
    /* min over s > 0 of (s - 1 + lg)(t + k/s) = (sqrt k + sqrt(t (lg - 1)))^2 (lg >= 1) */
    double a = sqrt(k) + sqrt(t * (lg - 1.0)), b = sqrt(k) + sqrt(t * lg);
    out->packets = a * a;
    out->packets_paper = b * b;
    return true;
}

double bounds_postal_best(const PostalBounds *b, const CostParams *p)
{
    double m = b->duplex > b->packets ? b->duplex : b->packets;
    if (p && !p->duplex && b->simplex > m)
        m = b->simplex;
    return m;
}
