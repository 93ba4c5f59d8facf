/* grade.c — a node's grade by the messages it holds (see grade.h). */
#include "grade.h"

int grade_of(uint64_t k, uint64_t s, bool any)
{
    if (k >= s) return GRADE_N - 1;
    if (k == 0) return any ? 1 : 0;
    return 1 + (int)(3 * (k - 1) / (s - 1));
}

/* The least k of partial grade g (1..3), or s when none. */
static uint64_t lowest(int g, uint64_t s)
{
    if (g > 3) return s;
    uint64_t v = 1 + ((uint64_t)(g - 1) * (s - 1) + 2) / 3;   /* 1 + ceil((g-1)(s-1)/3) */
    return v < s ? v : s;
}

bool grade_range(int g, uint64_t s, uint64_t *lo, uint64_t *hi)
{
    if (g <= 0 || g >= GRADE_N - 1) {
        *lo = *hi = g <= 0 ? 0 : s;
        return true;
    }
    if (s < 2) return false;
    *lo = lowest(g, s);
    *hi = lowest(g + 1, s) - 1;
    return *lo <= *hi;
}
