/* walkload.h — for test_load_disjoint, test_load_mesh2 and test_loadsym: the load of every
 * directed link in one step of a schedule, found by walking each route hop by hop with
 * net_link and net_route_end (independent of the simulator's route layout and load counting),
 * and its figures; a schedule whose nodes all hold everything; and a 2-D route that turns
 * the other way from the default one (which goes along the last dimension first: net_route).
 * Include after <cmocka.h> and the engine's sched.h and net.h (or a header that includes
 * them). */
#ifndef MESHCAST_TEST_WALKLOAD_H
#define MESHCAST_TEST_WALKLOAD_H

#include <string.h>

/* load[0 .. net_nlinks) = every link's load in step st (by link id). */
static inline void walk_loads(const Sched *s, const Net *net, int32_t st, int32_t *load)
{
    int64_t nl = net_nlinks(net);
    memset(load, 0, (size_t)nl * sizeof *load);
    for (int64_t i = 0; i < sched_ntransfers(s, st); i++) {
        SchedTransfer t;
        sched_transfer(s, st, i, &t);
        int32_t u = t.src;
        for (int g = 0; g < t.nseg; g++) {
            NetSeg one = { t.seg[g].dim, t.seg[g].dir, 1 };
            for (int32_t h = 0; h < t.seg[g].len; h++) {
                int64_t l = net_link(net, u, t.seg[g].dim, t.seg[g].dir);
                assert_true(l >= 0 && l < nl);
                load[l]++;
                u = net_route_end(net, u, &one, 1);
            }
        }
        assert_int_equal(u, t.dst);
    }
}

/* The figures of a step's loads load[0 .. nl): the largest, the overloads (over cap) and the
 * total (tcd). */
static inline void walk_figures(const int32_t *load, int64_t nl, int32_t cap, int32_t *mx,
                                int64_t *over, int64_t *tcd)
{
    *mx = 0;
    *over = *tcd = 0;
    for (int64_t l = 0; l < nl; l++) {
        *mx = load[l] > *mx ? load[l] : *mx;
        *over += load[l] > cap;
        *tcd += load[l];
    }
}

/* A new schedule on net in which every node holds all nchunks chunks from the start (a load
 * test wants routes, not holdings: no send is then of a chunk not held). */
static inline Sched *walk_sched_all_hold(const Net *net, uint32_t nchunks, uint64_t bytes)
{
    Sched *s = sched_new(net, nchunks, bytes);
    assert_non_null(s);
    for (int32_t v = 0; v < net_size(net); v++)
        assert_true(sched_give(s, v, 0, nchunks));
    return s;
}

/* The route from src to dst on a 2-D mesh or torus along dimension 0 first (the column), then
 * dimension 1 (the row), without wrapping: the default goes along the row first.  Returns
 * the number of segments put in seg[2]. */
static inline int walk_route_other_way(const Net *net, int32_t src, int32_t dst, NetSeg *seg)
{
    int32_t C = net_dim(net, 1);
    int32_t dc = dst % C - src % C, dr = dst / C - src / C;
    int ns = 0;
    if (dr)
        seg[ns++] = (NetSeg){ 0, (int8_t)(dr > 0 ? 1 : -1), dr > 0 ? dr : -dr };
    if (dc)
        seg[ns++] = (NetSeg){ 1, (int8_t)(dc > 0 ? 1 : -1), dc > 0 ? dc : -dc };
    return ns;
}

#endif
