/* bcast.c — what a view reads of one broadcast beyond its fields (see bcast.h). */
#include "bcast.h"

#include "../engine/partials.h"

bool bcast_partial_count(const Bcast *b, int32_t node, uint64_t *count, uint64_t *full)
{
    if (!b->ready || !b->partials) return false;
    *count = (uint64_t)partials_count(b->partials, b->pos, node);
    *full = (uint64_t)partials_full(b->partials);
    return true;
}
