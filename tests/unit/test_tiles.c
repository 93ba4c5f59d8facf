/* test_tiles.c — the tiles of a broadcast tree (engine tiles.h): `tiling` on torus:5x5 cuts
 * it into the five C_0 crosses round the knight's-move centres; on torus:25x25 level 1 gives
 * 125 crosses, level 2 the 25 S_1 squares of 25 nodes, level 3 the five C_1 crosses of 125,
 * from several sources; a tile's centre is informed before the phases that grow it, and the
 * tile is connected through the tree.  A hand-made schedule pins the informer rule. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/algos/algo.h"
#include "../../src/engine/tiles.h"

static Sched *build(const char *algo, const Net *net, int32_t source)
{
    char err[256];
    const AlgoDef *d = algo_find(algo, net);
    assert_non_null(d);
    AlgoArgs a;
    algo_args_init(&a, d);
    a.source = source;
    a.bytes = 1024;
    Sched *s = algo_build(d, net, &a, err, sizeof err);
    if (!s)
        fail_msg("%s", err);
    return s;
}

/* every tile at `level` has `want` nodes */
static void check_sizes(Tiles *t, int level, int32_t size, int32_t ntiles, int32_t want)
{
    assert_int_equal(tiles_count(t, level), ntiles);
    int32_t *cnt = calloc((size_t)size, sizeof *cnt);
    for (int32_t v = 0; v < size; v++) {
        int32_t c = tiles_centre(t, level, v);
        assert_true(c >= 0 && c < size);
        assert_int_equal(tiles_centre(t, level, c), c);   /* a centre is its own tile's */
        cnt[c]++;
    }
    int32_t tiles = 0;
    for (int32_t v = 0; v < size; v++) {
        if (!cnt[v])
            continue;
        tiles++;
        assert_int_equal(cnt[v], want);
    }
    assert_int_equal(tiles, ntiles);
    free(cnt);
}

static void test_tiling_5x5(void **state)
{
    (void)state;
    Net *n = net_parse("torus:5x5", NULL, 0);
    for (int32_t src = 0; src < 25; src += 6) {
        Sched *s = build("tiling", n, src);
        Tiles *t = tiles_new(s);
        assert_non_null(t);
        assert_int_equal(tiles_phases(t), 2);
        check_sizes(t, 1, 25, 5, 5);
        check_sizes(t, 2, 25, 1, 25);
        /* level 1: crosses — every node is its centre or one of the centre's 4 neighbours;
         * the centres are the source and its knight's moves (1,2) (-1,-2) (2,-1) (-2,1) */
        int32_t sc[2];
        net_coords(n, src, sc);
        for (int32_t v = 0; v < 25; v++) {
            int32_t c = tiles_centre(t, 1, v);
            assert_true(c == v || net_distance(n, c, v) == 1);
        }
        static const int kn[5][2] = { { 0, 0 }, { 1, 2 }, { -1, -2 }, { 2, -1 }, { -2, 1 } };
        for (int i = 0; i < 5; i++) {
            int32_t c[2] = { (sc[0] + kn[i][0] + 5) % 5, (sc[1] + kn[i][1] + 5) % 5 };
            int32_t id = net_id(n, c);
            assert_int_equal(tiles_centre(t, 1, id), id);
        }
        tiles_free(t);
        sched_free(s);
    }
    net_free(n);
}

static void test_tiling_25x25(void **state)
{
    (void)state;
    Net *n = net_parse("torus:25x25", NULL, 0);
    int32_t srcs[] = { 0, 312, 624 };
    for (int i = 0; i < 3; i++) {
        Sched *s = build("tiling", n, srcs[i]);
        Tiles *t = tiles_new(s);
        assert_int_equal(tiles_phases(t), 4);
        check_sizes(t, 1, 625, 125, 5);
        check_sizes(t, 2, 625, 25, 25);
        check_sizes(t, 3, 625, 5, 125);
        check_sizes(t, 4, 625, 1, 625);
        assert_int_equal(tiles_centre(t, 3, srcs[i]), srcs[i]);
        tiles_free(t);
        sched_free(s);
    }
    net_free(n);
}

static void test_informer_rule(void **state)
{
    (void)state;
    Net *n = net_parse("array:6", NULL, 0);
    Sched *s = sched_new(n, 1, 10);
    sched_give(s, 0, 0, 1);
    sched_step(s);
    sched_send_range(s, 0, 3, 0, 1);
    sched_send_range(s, 4, 5, 0, 1);   /* 4 holds nothing: not an informer */
    sched_step(s);
    sched_send_range(s, 0, 1, 0, 1);
    sched_send_range(s, 3, 4, 0, 1);
    sched_send_range(s, 1, 2, 0, 1);   /* informed in this same phase: not an informer */
    sched_step(s);                      /* a step that informs nobody is not a phase */
    sched_send_range(s, 3, 1, 0, 1);
    Tiles *t = tiles_new(s);
    assert_int_equal(tiles_phases(t), 2);
    /* level 1: the centres are 0 and 3 (held before the last phase) */
    assert_int_equal(tiles_centre(t, 1, 1), 0);
    assert_int_equal(tiles_centre(t, 1, 4), 3);
    assert_int_equal(tiles_centre(t, 1, 3), 3);
    assert_int_equal(tiles_centre(t, 1, 2), -1);   /* never informed by a holder */
    assert_int_equal(tiles_centre(t, 1, 5), -1);
    assert_int_equal(tiles_count(t, 1), 2);
    assert_int_equal(tiles_centre(t, 2, 4), 0);
    assert_int_equal(tiles_count(t, 9), 1);          /* clamped to the phases */
    assert_int_equal(tiles_centre(t, 1, 99), -1);
    tiles_free(t);
    sched_free(s);
    net_free(n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tiling_5x5),
        cmocka_unit_test(test_tiling_25x25),
        cmocka_unit_test(test_informer_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
