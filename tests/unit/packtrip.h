/* packtrip.h — a schedule through the pack and back (sched-pack.h), for the unit tests that
 * check what crosses from a script's child: packround(a, &n) packs a into memory and unpacks
 * it into a fresh schedule on a's net (the test fails if the unpack refuses the bytes or
 * leaves some unread); n gets the packed size (NULL: not wanted).  The caller frees the
 * result with sched_free.  Include after <cmocka.h> and the engine's sched-pack.h. */
#ifndef MESHCAST_TEST_PACKTRIP_H
#define MESHCAST_TEST_PACKTRIP_H

#include <stdlib.h>
#include <string.h>

typedef struct {
    unsigned char *p;
    size_t n, cap;
} PackBytes;

static inline void packtrip_put(void *ud, const void *p, size_t n)
{
    PackBytes *b = ud;
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->p = realloc(b->p, b->cap);
        assert_non_null(b->p);
    }
    if (n)
        memcpy(b->p + b->n, p, n);
    b->n += n;
}

static inline Sched *packround(const Sched *a, size_t *nbytes)
{
    PackBytes x = { 0 };
    assert_true(sched_pack(a, packtrip_put, &x));
    Sched *c = sched_new(sched_net(a), sched_nchunks(a), sched_bytes(a));
    assert_non_null(c);
    size_t used = 0;
    if (!sched_unpack(c, x.p, x.n, 0, &used))
        fail_msg("unpack: %s", sched_error(c));
    assert_int_equal(used, x.n);
    if (nbytes)
        *nbytes = x.n;
    free(x.p);
    return c;
}

#endif
