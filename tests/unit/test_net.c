/* test_net.c — net specs, ids and coordinates, neighbours, distances, default and explicit
 * routes, directed link ids. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/engine/net.h"
#include "../../src/engine/text.h"

static void test_parse_good(void **state)
{
    (void)state;
    struct {
        const char *spec, *canon;
        int ndim;
        int32_t size;
        NetKind kind;
    } ok[] = {
        { "array:16", "array:16", 1, 16, NET_ARRAY },
        { "ring:16", "ring:16", 1, 16, NET_RING },
        { "mesh:16x32", "mesh:16x32", 2, 512, NET_MESH },
        { "torus:25x25", "torus:25x25", 2, 625, NET_TORUS },
        { "mesh:4x4x4", "mesh:4x4x4", 3, 64, NET_MESH },
        { "mesh:16", "array:16", 1, 16, NET_ARRAY },
        { "torus:8", "ring:8", 1, 8, NET_RING },
        { "array:2", "array:2", 1, 2, NET_ARRAY },
        { "mesh:1x2", "mesh:1x2", 2, 2, NET_MESH },
        { "mesh:4096x4096", "mesh:4096x4096", 2, 1 << 24, NET_MESH },
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        char err[128] = "";
        Net *n = net_parse(ok[i].spec, err, sizeof err);
        assert_non_null(n);
        assert_string_equal(net_spec(n), ok[i].canon);
        assert_int_equal(net_ndim(n), ok[i].ndim);
        assert_int_equal(net_size(n), ok[i].size);
        assert_int_equal(net_kind(n), ok[i].kind);
        assert_int_equal(net_nlinks(n), 2 * (int64_t)ok[i].ndim * ok[i].size);
        assert_int_equal(net_wraps(n), ok[i].kind == NET_RING || ok[i].kind == NET_TORUS);
        net_free(n);
    }
    Net *n = net_parse("mesh:16x32", NULL, 0);
    assert_int_equal(net_dim(n, 0), 16);
    assert_int_equal(net_dim(n, 1), 32);
    assert_int_equal(net_dim(n, 2), 0);
    assert_int_equal(net_dim(n, -1), 0);
    net_free(n);
}

static void test_parse_bad(void **state)
{
    (void)state;
    struct {
        const char *spec, *msg;
    } bad[] = {
        { "mesh:0x4", "bad net 'mesh:0x4': every dimension must be at least 1" },
        { "cube:8", "bad net 'cube:8': unknown kind 'cube' (array, ring, mesh, torus, full, hxbar)" },
        { "array:1", "bad net 'array:1': a net needs at least 2 nodes" },
        { "mesh:1x1x1", "bad net 'mesh:1x1x1': a net needs at least 2 nodes" },
        { "mesh:2x2x2x2", "bad net 'mesh:2x2x2x2': at most 3 dimensions" },
        { "mesh:8192x8192", "bad net 'mesh:8192x8192': more than 16777216 nodes" },
        { "array:99999999999999999999", "bad net 'array:99999999999999999999': more than 16777216 nodes" },
        { "mesh", "bad net 'mesh': expected KIND:DIMS, e.g. mesh:16x32" },
        { "mesh:", "bad net 'mesh:': dimensions must be numbers separated by 'x'" },
        { "mesh:4x", "bad net 'mesh:4x': dimensions must be numbers separated by 'x'" },
        { "mesh:4*4", "bad net 'mesh:4*4': dimensions must be numbers separated by 'x'" },
        { "mesh:-4x4", "bad net 'mesh:-4x4': dimensions must be numbers separated by 'x'" },
        { "mesh: 4", "bad net 'mesh: 4': dimensions must be numbers separated by 'x'" },
        { "array:4x4", "bad net 'array:4x4': an array has one dimension (use mesh)" },
        { "ring:4x4", "bad net 'ring:4x4': a ring has one dimension (use torus)" },
        { ":4", "bad net ':4': unknown kind '' (array, ring, mesh, torus, full, hxbar)" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[160] = "";
        Net *n = net_parse(bad[i].spec, err, sizeof err);
        assert_null(n);
        assert_string_equal(err, bad[i].msg);
        assert_null(strchr(err, '\n'));
    }
    char err[8];
    assert_null(net_parse("mesh:0x4", err, sizeof err));   /* truncated, still terminated */
    assert_true(strlen(err) < sizeof err);
    assert_null(net_parse(NULL, NULL, 0));
    assert_null(net_parse("", NULL, 0));

    int32_t dims[3] = { 4, 0, 4 };
    char e2[128];
    assert_null(net_new(NET_MESH, 3, dims, e2, sizeof e2));
    assert_string_equal(e2, "bad net 'mesh:4x0x4': every dimension must be at least 1");
    assert_null(net_new(NET_MESH, 0, dims, e2, sizeof e2));
    assert_null(net_new(NET_MESH, 4, dims, e2, sizeof e2));
    assert_null(net_new(NET_MESH, 2, NULL, e2, sizeof e2));
    assert_null(net_new((NetKind)9, 1, dims, e2, sizeof e2));
    int32_t d1[1] = { 8 };
    Net *n = net_new(NET_TORUS, 1, d1, e2, sizeof e2);
    assert_non_null(n);
    assert_string_equal(net_spec(n), "ring:8");
    net_free(n);
    net_free(NULL);
}

static void test_kinds(void **state)
{
    (void)state;
    NetKind k;
    assert_true(net_kind_parse("torus", &k));
    assert_int_equal(k, NET_TORUS);
    assert_false(net_kind_parse("Torus", &k));
    assert_false(net_kind_parse(NULL, &k));
    for (int i = 0; i <= NET_TORUS; i++) {
        assert_true(net_kind_parse(net_kind_name((NetKind)i), &k));
        assert_int_equal(k, i);
    }
}

static void test_coords(void **state)
{
    (void)state;
    const char *specs[] = { "array:7", "mesh:3x5", "torus:4x6", "mesh:2x3x4", "torus:3x3x3" };
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
        Net *n = net_parse(specs[s], NULL, 0);
        assert_non_null(n);
        int nd = net_ndim(n);
        int32_t expect[3] = { 0, 0, 0 };
        for (int32_t id = 0; id < net_size(n); id++) {
            int32_t c[3];
            net_coords(n, id, c);
            /* row-major: last coordinate fastest */
            for (int d = 0; d < nd; d++)
                assert_int_equal(c[d], expect[d]);
            assert_int_equal(net_id(n, c), id);
            for (int d = nd - 1; d >= 0; d--) {
                if (++expect[d] < net_dim(n, d))
                    break;
                expect[d] = 0;
            }
            /* names parse back */
            char buf[32];
            assert_int_equal(net_parse_node(n, net_node_name(n, id, buf, sizeof buf)), id);
        }
        int32_t c[3] = { 0, 0, 0 };
        c[nd - 1] = net_dim(n, nd - 1);
        assert_int_equal(net_id(n, c), -1);
        c[nd - 1] = -1;
        assert_int_equal(net_id(n, c), -1);
        net_coords(n, net_size(n), c);
        assert_int_equal(c[0], -1);
        net_free(n);
    }
}

static void test_parse_node(void **state)
{
    (void)state;
    Net *m = net_parse("mesh:8x10", NULL, 0);
    assert_int_equal(net_parse_node(m, "37"), 37);
    assert_int_equal(net_parse_node(m, "3,4"), 34);
    assert_int_equal(net_parse_node(m, "(3,4)"), 34);
    assert_int_equal(net_parse_node(m, "7,9"), 79);
    assert_int_equal(net_parse_node(m, "0"), 0);
    assert_int_equal(net_parse_node(m, "79"), 79);
    assert_int_equal(net_parse_node(m, "80"), -1);
    assert_int_equal(net_parse_node(m, "8,0"), -1);
    assert_int_equal(net_parse_node(m, "0,10"), -1);
    assert_int_equal(net_parse_node(m, "1,2,3"), -1);
    assert_int_equal(net_parse_node(m, "-1"), -1);
    assert_int_equal(net_parse_node(m, ""), -1);
    assert_int_equal(net_parse_node(m, "3,"), -1);
    assert_int_equal(net_parse_node(m, "3x4"), -1);
    assert_int_equal(net_parse_node(m, "99999999999999"), -1);
    assert_int_equal(net_parse_node(m, NULL), -1);
    assert_int_equal(net_parse_node(NULL, "1"), -1);
    char buf[32];
    assert_string_equal(net_node_name(m, 34, buf, sizeof buf), "(3,4)");
    assert_string_equal(net_node_name(m, 80, buf, sizeof buf), "?");
    net_free(m);
    Net *c = net_parse("mesh:2x3x4", NULL, 0);
    assert_int_equal(net_parse_node(c, "1,2,3"), 23);
    assert_int_equal(net_parse_node(c, "1,2"), -1);
    assert_string_equal(net_node_name(c, 23, buf, sizeof buf), "(1,2,3)");
    net_free(c);
    Net *a = net_parse("array:16", NULL, 0);
    assert_int_equal(net_parse_node(a, "15"), 15);
    assert_int_equal(net_parse_node(a, "16"), -1);
    assert_string_equal(net_node_name(a, 5, buf, sizeof buf), "5");
    net_free(a);
}

static void test_neighbor_distance(void **state)
{
    (void)state;
    Net *m = net_parse("mesh:4x5", NULL, 0);
    assert_int_equal(net_neighbor(m, 0, 1, 1), 1);
    assert_int_equal(net_neighbor(m, 0, 0, 1), 5);
    assert_int_equal(net_neighbor(m, 0, 0, -1), -1);
    assert_int_equal(net_neighbor(m, 4, 1, 1), -1);
    assert_int_equal(net_neighbor(m, 0, 0, 3), 15);
    assert_int_equal(net_neighbor(m, 0, 0, 4), -1);
    assert_int_equal(net_neighbor(m, 0, 2, 1), -1);
    assert_int_equal(net_neighbor(m, 20, 0, 1), -1);
    assert_int_equal(net_distance(m, 0, 19), 3 + 4);
    assert_int_equal(net_distance(m, 19, 0), 7);
    assert_int_equal(net_distance(m, 7, 7), 0);
    net_free(m);
    Net *t = net_parse("torus:4x5", NULL, 0);
    assert_int_equal(net_neighbor(t, 0, 0, -1), 15);
    assert_int_equal(net_neighbor(t, 4, 1, 1), 0);
    assert_int_equal(net_neighbor(t, 0, 1, -6), 4);
    assert_int_equal(net_neighbor(t, 0, 1, 1000001), 1);
    assert_int_equal(net_distance(t, 0, 19), 1 + 1);
    assert_int_equal(net_distance(t, 0, 2), 2);
    assert_int_equal(net_distance(t, 0, 3), 2);
    assert_int_equal(net_distance(t, 0, 10), 2);   /* tie in a dimension of 4 */
    net_free(t);
}

static void expect_route(const Net *n, int32_t a, int32_t b, const NetSeg *want, int nwant)
{
    NetSeg seg[NET_MAXDIM];
    int k = net_route(n, a, b, seg);
    assert_int_equal(k, nwant);
    for (int i = 0; i < k; i++) {
        assert_int_equal(seg[i].dim, want[i].dim);
        assert_int_equal(seg[i].dir, want[i].dir);
        assert_int_equal(seg[i].len, want[i].len);
    }
    assert_int_equal(net_route_end(n, a, seg, k), b);
    assert_int_equal(net_route_len(seg, k), net_distance(n, a, b));
}

static void test_routes(void **state)
{
    (void)state;
    Net *m = net_parse("mesh:4x5", NULL, 0);
    /* (0,0) -> (3,4): along the row first (dim 1), then the column (dim 0) */
    expect_route(m, 0, 19, (NetSeg[]){ { 1, 1, 4 }, { 0, 1, 3 } }, 2);
    expect_route(m, 19, 0, (NetSeg[]){ { 1, -1, 4 }, { 0, -1, 3 } }, 2);
    expect_route(m, 2, 17, (NetSeg[]){ { 0, 1, 3 } }, 1);
    expect_route(m, 9, 6, (NetSeg[]){ { 1, -1, 3 } }, 1);
    expect_route(m, 6, 6, NULL, 0);
    net_free(m);

    Net *t = net_parse("torus:4x5", NULL, 0);
    /* shorter way round: (0,0) -> (3,4) is one hop back in each dimension */
    expect_route(t, 0, 19, (NetSeg[]){ { 1, -1, 1 }, { 0, -1, 1 } }, 2);
    /* (0,0) -> (2,0): exactly half way in a dimension of 4: positive direction */
    expect_route(t, 0, 10, (NetSeg[]){ { 0, 1, 2 } }, 1);
    expect_route(t, 10, 0, (NetSeg[]){ { 0, 1, 2 } }, 1);
    /* dimension of 5: 2 forward, 3 forward = 2 back */
    expect_route(t, 0, 2, (NetSeg[]){ { 1, 1, 2 } }, 1);
    expect_route(t, 0, 3, (NetSeg[]){ { 1, -1, 2 } }, 1);
    expect_route(t, 4, 0, (NetSeg[]){ { 1, 1, 1 } }, 1);
    net_free(t);

    Net *r = net_parse("ring:2", NULL, 0);
    expect_route(r, 1, 0, (NetSeg[]){ { 0, 1, 1 } }, 1);
    net_free(r);

    Net *c = net_parse("mesh:3x3x3", NULL, 0);
    /* fastest dimension first: dim 2, then 1, then 0 */
    expect_route(c, 0, 26, (NetSeg[]){ { 2, 1, 2 }, { 1, 1, 2 }, { 0, 1, 2 } }, 3);
    net_free(c);
}

static void test_explicit_routes(void **state)
{
    (void)state;
    Net *t = net_parse("torus:5x5", NULL, 0);
    /* a knight's move: 2 along the row, 1 down */
    NetSeg knight[] = { { 1, 1, 2 }, { 0, 1, 1 } };
    assert_int_equal(net_route_end(t, 0, knight, 2), 7);
    assert_int_equal(net_route_end(t, 24, knight, 2), 1);   /* wraps in both dimensions */
    NetSeg bad_dim[] = { { 2, 1, 1 } };
    assert_int_equal(net_route_end(t, 0, bad_dim, 1), -1);
    NetSeg bad_dir[] = { { 0, 0, 1 } };
    assert_int_equal(net_route_end(t, 0, bad_dir, 1), -1);
    NetSeg bad_len[] = { { 0, 1, 0 } };
    assert_int_equal(net_route_end(t, 0, bad_len, 1), -1);
    NetSeg too_long[] = { { 0, 1, 5 } };   /* all the way round: uses a link twice */
    assert_int_equal(net_route_end(t, 0, too_long, 1), -1);
    NetSeg many[NET_MAXSEG + 1];
    for (int i = 0; i <= NET_MAXSEG; i++)
        many[i] = (NetSeg){ 1, 1, 1 };
    assert_int_equal(net_route_end(t, 0, many, NET_MAXSEG), 1);   /* 16 hops round a ring of 5 */
    assert_int_equal(net_route_end(t, 0, many, NET_MAXSEG + 1), -1);
    assert_int_equal(net_route_end(t, 0, NULL, 1), -1);
    assert_int_equal(net_route_end(t, 0, knight, -1), -1);
    assert_int_equal(net_route_end(t, 25, knight, 2), -1);
    assert_int_equal(net_route_end(t, 3, NULL, 0), 3);
    assert_int_equal(net_route_len(knight, 2), 3);
    net_free(t);

    Net *m = net_parse("mesh:5x5", NULL, 0);
    assert_int_equal(net_route_end(m, 0, knight, 2), 7);
    assert_int_equal(net_route_end(m, 3, knight, 2), -1);   /* leaves the mesh */
    NetSeg up[] = { { 0, -1, 1 } };
    assert_int_equal(net_route_end(m, 2, up, 1), -1);
    /* a detour: down, right, up ends where a straight route would */
    NetSeg detour[] = { { 0, 1, 1 }, { 1, 1, 3 }, { 0, -1, 1 } };
    assert_int_equal(net_route_end(m, 0, detour, 3), 3);
    net_free(m);
}

static void test_links(void **state)
{
    (void)state;
    Net *m = net_parse("mesh:3x4", NULL, 0);
    assert_int_equal(net_link(m, 5, 1, 1), (5 * 2 + 1) * 2 + 0);
    assert_int_equal(net_link(m, 5, 0, -1), (5 * 2 + 0) * 2 + 1);
    assert_int_equal(net_link(m, 5, 2, 1), -1);
    assert_int_equal(net_link(m, 5, 1, 0), -1);
    assert_int_equal(net_link(m, 12, 1, 1), -1);
    for (int64_t l = 0; l < net_nlinks(m); l++) {
        int32_t node;
        int dim, dir;
        net_link_info(m, l, &node, &dim, &dir);
        assert_int_equal(net_link(m, node, dim, dir), l);
        assert_int_equal(net_link_head(m, l), net_neighbor(m, node, dim, dir));
    }
    assert_int_equal(net_link_head(m, net_link(m, 3, 1, 1)), -1);   /* leaves the mesh */
    assert_int_equal(net_link_head(m, net_link(m, 3, 1, -1)), 2);
    int32_t node;
    int dim, dir;
    net_link_info(m, net_nlinks(m), &node, &dim, &dir);
    assert_int_equal(node, -1);
    net_link_info(m, -1, &node, NULL, NULL);
    assert_int_equal(node, -1);
    assert_int_equal(net_link_head(m, -5), -1);
    net_free(m);
    Net *r = net_parse("ring:6", NULL, 0);
    assert_int_equal(net_link_head(r, net_link(r, 5, 0, 1)), 0);
    assert_int_equal(net_link_head(r, net_link(r, 0, 0, -1)), 5);
    net_free(r);
}

static void test_null_safety(void **state)
{
    (void)state;
    int32_t c[3];
    NetSeg seg[3];
    assert_int_equal(net_size(NULL), 0);
    assert_int_equal(net_ndim(NULL), 0);
    assert_int_equal(net_nlinks(NULL), 0);
    assert_string_equal(net_spec(NULL), "");
    net_coords(NULL, 0, c);
    assert_int_equal(net_id(NULL, c), -1);
    assert_int_equal(net_route(NULL, 0, 1, seg), 0);
    assert_int_equal(net_distance(NULL, 0, 1), -1);
    Net *m = net_parse("mesh:2x2", NULL, 0);
    assert_int_equal(net_route(m, 0, 4, seg), 0);
    assert_int_equal(net_route(m, -1, 3, seg), 0);
    assert_int_equal(net_distance(m, 0, 4), -1);
    net_free(m);
}

/* Garbage never crashes and never parses into something outside the limits. */
static void test_fuzz(void **state)
{
    (void)state;
    const char alphabet[] = "arymeshtoruing:x0123456789,() -";
    srand(4242);
    Net *m = net_parse("mesh:7x9", NULL, 0);
    int parsed = 0;
    for (int i = 0; i < 20000; i++) {
        static const char *const kinds[] = { "array:", "ring:", "mesh:", "torus:" };
        static const char digits[] = "0123456789xx";
        char buf[32];
        int len = 0;
        if (i % 2) {   /* half of them: a kind, then digits and x's */
            len = (int)strlen(strcpy(buf, kinds[rand() % 4]));
            for (int k = rand() % 12; k > 0; k--)
                buf[len++] = digits[rand() % (int)(sizeof digits - 1)];
        } else {
            for (int k = rand() % 20; k > 0; k--)
                buf[len++] = alphabet[rand() % (int)(sizeof alphabet - 1)];
        }
        buf[len] = '\0';
        char err[96];
        Net *n = net_parse(buf, err, sizeof err);
        if (n) {
            parsed++;
            assert_true(net_size(n) >= 2 && net_size(n) <= NET_MAXNODES);
            assert_true(net_ndim(n) >= 1 && net_ndim(n) <= NET_MAXDIM);
            Net *again = net_parse(net_spec(n), NULL, 0);   /* the canonical spec parses back */
            assert_non_null(again);
            assert_string_equal(net_spec(again), net_spec(n));
            net_free(again);
            net_free(n);
        } else {
            assert_true(strncmp(err, "bad net", 7) == 0);
            assert_null(strchr(err, '\n'));
        }
        int32_t v = net_parse_node(m, buf);
        assert_true(v >= -1 && v < 63);
    }
    assert_true(parsed > 1000);   /* the generator does reach valid specs */
    net_free(m);
}

/* Quoting a user's text in a message: cut, on a character boundary, one line. */
static void test_text_quote(void **state)
{
    (void)state;
    char b[16];
    assert_string_equal(text_quote("mesh:4x4", 40, b, sizeof b), "mesh:4x4");
    assert_string_equal(text_quote("abcdefgh", 5, b, sizeof b), "abcde...");
    assert_string_equal(text_quote("a\nb\x7f\tc", 40, b, sizeof b), "a?b??c");
    assert_string_equal(text_quote(NULL, 40, b, sizeof b), "");
    /* "é" is two bytes: a cut after 3 bytes falls inside the second one and moves back */
    assert_string_equal(text_quote("\xc3\xa9\xc3\xa9x", 3, b, sizeof b), "\xc3\xa9...");
    /* the buffer bounds the copy whatever max says */
    char small[6];
    text_quote("abcdefghijkl", 40, small, sizeof small);
    assert_int_equal(strlen(small), 5);
    assert_memory_equal(small, "abcde", 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_good),        cmocka_unit_test(test_parse_bad),
        cmocka_unit_test(test_kinds),             cmocka_unit_test(test_coords),
        cmocka_unit_test(test_parse_node),        cmocka_unit_test(test_neighbor_distance),
        cmocka_unit_test(test_routes),            cmocka_unit_test(test_explicit_routes),
        cmocka_unit_test(test_links),             cmocka_unit_test(test_null_safety),
        cmocka_unit_test(test_fuzz),             cmocka_unit_test(test_text_quote),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
