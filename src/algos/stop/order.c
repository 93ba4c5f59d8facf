/* order.c — which chunks each source's message gets (the givens of every s-to-p schedule).
 *
 * Source j of the order gets chunks [j*k, (j+1)*k).  The order is one for all the s-to-p
 * algorithms (so that two of them can be compared step by step with sched_equal): the sources
 * sorted by the position of their snake index in Br_Lin's leaf order, in which every set of
 * sources that Br_Lin combines into one message is a run of consecutive positions.  Then a
 * node's holdings stay one or a few chunk ranges however many sources there are (in row-major
 * order the E:1024 sources on mesh:1024x1024 would end as 512 ranges at half a million nodes).
 * For n = 2^d the leaf order is the bit-reversal of the snake index.  On a 3-D net: id order.
 *
 *   leaf(1) = 0;  leaf(n) = for each q of leaf(ceil(n/2)): q, then q + ceil(n/2) if that
 *   is < n.
 */
#include <stdlib.h>

#include "stop-internal.h"

/* leaf(n) into out[0..n), using tmp[0..n) */
static void leaf(int32_t n, int32_t *out, int32_t *tmp)
{
    if (n == 1) {
        out[0] = 0;
        return;
    }
    int32_t a = (n + 1) / 2;
    leaf(a, tmp, out);   /* out is free scratch at this depth */
    int32_t k = 0;
    /* copy first: tmp is overwritten by nothing below, out is written now */
    for (int32_t i = 0; i < a; i++) {
        int32_t q = tmp[i];
        out[k++] = q;
        if (q + a < n)
            out[k++] = q + a;
    }
}

typedef struct {
    int32_t key, node;
} Keyed;

static int cmp_key(const void *x, const void *y)
{
    int32_t a = ((const Keyed *)x)->key, b = ((const Keyed *)y)->key;
    return (a > b) - (a < b);
}

bool stop_give(Sched *s, const int32_t *src, int32_t ns, uint32_t k)
{
    const Net *net = sched_net(s);
    int32_t p = net_size(net), r, c;
    Keyed *v = malloc(sizeof *v * (size_t)ns);
    int32_t *rank = NULL, *ord = NULL, *tmp = NULL, *pos = NULL;
    bool grid = dist_grid(net, &r, &c);
    if (grid) {
        rank = malloc(sizeof *rank * (size_t)p);
        ord = malloc(sizeof *ord * (size_t)p);
        tmp = malloc(sizeof *tmp * (size_t)p);
    }
    if (!v || (grid && (!rank || !ord || !tmp))) {
        free(v);
        free(rank);
        free(ord);
        free(tmp);
        sched_fail(s, "out of memory");
        return false;
    }
    if (grid) {
        leaf(p, ord, tmp);
        pos = tmp;                   /* pos[ord[t]] = t: the rank of snake index ord[t] */
        for (int32_t t = 0; t < p; t++)
            pos[ord[t]] = t;
        StopRect q = {0, 0, r, c, c};
        stop_snake(&q, ord);         /* ord[snake index] = node id */
        for (int32_t i = 0; i < p; i++)
            rank[ord[i]] = pos[i];   /* node -> leaf position of its snake index */
    }
    for (int32_t j = 0; j < ns; j++)
        v[j] = (Keyed){grid ? rank[src[j]] : src[j], src[j]};
    qsort(v, (size_t)ns, sizeof *v, cmp_key);
    bool ok = true;
    for (int32_t j = 0; j < ns && ok; j++)
        ok = sched_give(s, v[j].node, (uint32_t)j * k, (uint32_t)(j + 1) * k);
    free(v);
    free(rank);
    free(ord);
    free(tmp);
    return ok;
}
