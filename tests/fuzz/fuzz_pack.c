/* fuzz_pack.c — a schedule's packed bytes as a hostile script's child could send them
 * (sched-pack.h: stored transfers, strided blocks, locals), unpacked into a schedule on
 * mesh:4x4 with 8 chunks.  Properties: refused with a message, or read (never more bytes than
 * given); a schedule read packs again into bytes that unpack into the same transfers in the
 * same order (sched_transfer, sched_equal). */
#include "../../src/engine/sched-pack.h"
#include "fuzz.h"

typedef struct {
    unsigned char *p;
    size_t len, cap;
} Buf;

static void put(void *ud, const void *p, size_t n)
{
    Buf *b = ud;
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2 + 64;
        b->p = realloc(b->p, b->cap);
        if (!b->p)
            abort();
    }
    if (n)
        memcpy(b->p + b->len, p, n);
    b->len += n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Net *net;
    if (!net && !(net = net_parse("mesh:4x4", NULL, 0)))
        abort();
    Sched *a = sched_new(net, 8, 8192);
    size_t used = 0;
    if (!sched_unpack(a, data, size, 0, &used)) {
        FUZZ_ASSERT(sched_error(a) != NULL);
        FUZZ_ASSERT(used <= size);
        sched_free(a);
        return 0;
    }
    FUZZ_ASSERT(used <= size);
    if (sched_total_transfers(a) <= 100000) {   /* (a stride-0 block may stand for 2^25) */
        Buf b = { 0 };
        FUZZ_ASSERT(sched_pack(a, put, &b));
        Sched *c = sched_new(net, 8, 8192);
        size_t used2 = 0;
        FUZZ_ASSERT(sched_unpack(c, b.p, b.len, 0, &used2) && used2 == b.len);
        FUZZ_ASSERT(sched_nsteps(c) == sched_nsteps(a));
        for (int32_t st = 0; st < sched_nsteps(a); st++) {
            FUZZ_ASSERT(sched_ntransfers(c, st) == sched_ntransfers(a, st));
            for (int64_t i = 0; i < sched_ntransfers(a, st); i++) {
                SchedTransfer x, y;
                sched_transfer(a, st, i, &x);
                sched_transfer(c, st, i, &y);
                FUZZ_ASSERT(x.src == y.src && x.dst == y.dst && x.nranges == y.nranges &&
                            x.bytes == y.bytes && x.len == y.len);
            }
        }
        FUZZ_ASSERT(sched_equal(a, c));
        sched_free(c);
        free(b.p);
    }
    sched_free(a);
    return 0;
}
