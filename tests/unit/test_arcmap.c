/* test_arcmap.c — the links' private order both simulators share (src/engine/arcmap.h),
 * against the net's own routes and link ids (net.h): for every pair of nodes on small arrays,
 * rings, meshes and tori (2-D, 3-D, power-of-two sides and not), the pieces of the default
 * route are exactly the directed links net_route walks, each inside its line, and the layout
 * index <-> link id maps are inverse. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "../../src/engine/arcmap.h"
#include "mknet.h"

static int cmp64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static void check_net(const char *spec)
{
    Net *net = mknet(spec);
    ArcMap L;
    arcmap_init(&L, net);
    int32_t P = net_size(net);
    int64_t nl = net_nlinks(net);
    for (int64_t i = 0; i < nl; i++)   /* the two maps are inverse */
        assert_int_equal(arcmap_index(&L, arcmap_link(&L, i)), i);
    int64_t want[4 * 64], got[4 * 64];
    for (int32_t s = 0; s < P; s++)
        for (int32_t d = 0; d < P; d++) {
            NetSeg seg[NET_MAXSEG];
            int ns = net_route(net, s, d, seg), nw = 0;
            int32_t at = s;
            for (int g = 0; g < ns; g++)
                for (int32_t k = 0; k < seg[g].len; k++) {
                    int64_t link = net_link(net, at, seg[g].dim, seg[g].dir);
                    want[nw++] = link;
                    at = net_link_head(net, link);
                }
            assert_int_equal(at, d);
            ArcPiece pc[ARCMAP_MAXPIECES];
            int32_t len = -1;
            int np = arcmap_route(&L, NULL, s, d, SCHED_DEFAULT_ROUTE, pc, &len), ng = 0;
            for (int q = 0; q < np; q++) {
                assert_true(pc[q].start <= pc[q].a && pc[q].a <= pc[q].b &&
                            pc[q].b < pc[q].start + pc[q].n);
                for (int64_t i = pc[q].a; i <= pc[q].b; i++)
                    got[ng++] = arcmap_link(&L, i);
            }
            assert_int_equal(len, nw);
            assert_int_equal(ng, nw);
            assert_int_equal(arcmap_len(&L, NULL, s, d, SCHED_DEFAULT_ROUTE), nw);
            assert_int_equal(net_distance(net, s, d), nw);
            qsort(want, (size_t)nw, sizeof *want, cmp64);
            qsort(got, (size_t)ng, sizeof *got, cmp64);
            for (int i = 0; i < nw; i++)
                assert_int_equal(got[i], want[i]);
        }
    net_free(net);
}

static void test_grids(void **state)
{
    (void)state;
    static const char *const nets[] = { "array:7", "array:8", "ring:6", "ring:7", "array:2",
                                        "ring:2", "ring:3", "ring:16", "mesh:3x5",
                                        "mesh:4x4", "mesh:8x2", "mesh:2x16", "mesh:1x6",
                                        "torus:4x5", "torus:5x5", "torus:4x8",
                                        "mesh:2x3x4", "torus:3x3x3", "torus:2x4x2" };
    for (size_t i = 0; i < sizeof nets / sizeof nets[0]; i++)
        check_net(nets[i]);
}

/* Pair nets: the route is the pair's own link. */
static void test_pairs(void **state)
{
    (void)state;
    Net *net = mknet("full:5");
    ArcMap L;
    arcmap_init(&L, net);
    for (int32_t s = 0; s < 5; s++)
        for (int32_t d = 0; d < 5; d++) {
            if (s == d)
                continue;
            ArcPiece pc[ARCMAP_MAXPIECES];
            int32_t len;
            assert_int_equal(arcmap_route(&L, NULL, s, d, SCHED_DEFAULT_ROUTE, pc, &len), 1);
            assert_int_equal(len, 1);
            assert_int_equal(pc[0].a, net_pair_link(net, s, d));
            assert_int_equal(pc[0].b, pc[0].a);
        }
    net_free(net);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grids),
        cmocka_unit_test(test_pairs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
