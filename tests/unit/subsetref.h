/* subsetref.h — for test_submasks and test_subsets: a strided chunk set
 * { fixed | m : m a submask of free } listed by brute force (every chunk id tested), the
 * reference the schedule's own listing (sched_send_submasks, sched_submasks_list) is checked
 * against.  Include after the engine's chunkset header (ChunkRange). */
#ifndef MESHCAST_TEST_SUBSETREF_H
#define MESHCAST_TEST_SUBSETREF_H

#include <stddef.h>
#include <stdint.h>

static inline size_t brute(uint32_t nchunks, uint32_t fixed, uint32_t free_, ChunkRange *out)
{
    size_t n = 0;
    for (uint32_t id = 0; id < nchunks; id++) {
        if ((id & ~free_) != fixed)
            continue;
        if (n > 0 && out[n - 1].hi == id)
            out[n - 1].hi++;
        else
            out[n++] = (ChunkRange){ id, id + 1 };
    }
    return n;
}

#endif
