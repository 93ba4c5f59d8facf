/* schedbin-write.c — writes a Sched in the "MCX1" binary format (schedbin.h).  Apart from
 * the reader so that meshcast-mpi links the reader alone. */
#include "schedbin.h"

#include <string.h>

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static bool w32(FILE *f, uint32_t v)
{
    unsigned char b[4];
    put32(b, v);
    return fwrite(b, 1, 4, f) == 4;
}

bool schedbin_write(FILE *f, const Sched *s, int op, uint32_t root, char *err, size_t errlen)
{
    unsigned char h[SCHEDBIN_HEADER];
    memcpy(h, "MCX1", 4);
    put32(h + 4, 1);
    put32(h + 8, (uint32_t)op);
    put32(h + 12, (uint32_t)net_size(sched_net(s)));
    put32(h + 16, sched_nchunks(s));
    put32(h + 20, root);
    put64(h + 24, sched_bytes(s));
    put32(h + 32, (uint32_t)sched_ngiven(s));
    put32(h + 36, (uint32_t)sched_nsteps(s));
    bool ok = fwrite(h, 1, sizeof h, f) == sizeof h;
    for (size_t i = 0; ok && i < sched_ngiven(s); i++) {
        int32_t node;
        ChunkRange r;
        sched_given(s, i, &node, &r);
        ok = w32(f, (uint32_t)node) && w32(f, r.lo) && w32(f, r.hi);
    }
    SchedTransfer tr;
    for (int32_t k = 0; ok && k < sched_nsteps(s); k++) {
        int64_t n = sched_ntransfers(s, k);
        ok = n <= (int64_t)UINT32_MAX && w32(f, (uint32_t)n);
        for (int64_t i = 0; ok && i < n; i++) {
            sched_transfer(s, k, i, &tr);
            ok = w32(f, (uint32_t)tr.src) && w32(f, (uint32_t)tr.dst) && w32(f, tr.nranges);
            for (uint32_t j = 0; ok && j < tr.nranges; j++)
                ok = w32(f, tr.ranges[j].lo) && w32(f, tr.ranges[j].hi);
        }
    }
    if (ok)
        ok = fflush(f) == 0 && !ferror(f);
    if (!ok)
        snprintf(err, errlen, "cannot write the schedule");
    return ok;
}

