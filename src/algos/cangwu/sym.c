/* sym.c — the symmetries of a d-D 2^k mesh or torus that tcd-opt and tcd-table use (cangwu.h):
 * a permutation of the dimensions (only between dimensions of the same extent) composed with a
 * reflection of any set of dimensions.  The TCD (a sum of route lengths) is invariant under
 * every one; a schedule's contention under dimension-ordered routing only under those that
 * keep the order of the dimensions (the reflections), and on a torus, where a route of half
 * the ring may go either way, only under the identity. */
#include "cangwu.h"

static const int perm3[6][3] = {{0, 1, 2}, {1, 0, 2}, {0, 2, 1}, {2, 1, 0}, {1, 2, 0}, {2, 0, 1}};

bool cangwu_sym_valid(const Net *net, int g, bool keep_routes)
{
    int d = net_ndim(net);
    if (g < 0 || g >= CANGWU_NSYMS)
        return false;
    int p = g / 8, flips = g % 8;
    if (flips >> d)
        return false;
    if (keep_routes && (p != 0 || (net_wraps(net) && flips != 0)))
        return false;
    for (int i = 0; i < 3; i++) {
        int j = perm3[p][i];
        if (i >= d || j >= d) {
            if (i != j)
                return false;
            continue;
        }
        if (net_dim(net, i) != net_dim(net, j))
            return false;
    }
    return true;
}

int32_t cangwu_sym_apply(const Net *net, int g, int32_t node)
{
    int d = net_ndim(net), p = g / 8, flips = g % 8;
    int32_t c[NET_MAXDIM], o[NET_MAXDIM];
    net_coords(net, node, c);
    for (int i = 0; i < d; i++) {
        int32_t v = c[perm3[p][i]];
        o[i] = (flips >> i) & 1 ? net_dim(net, i) - 1 - v : v;
    }
    return net_id(net, o);
}

int32_t cangwu_orbit_rep(const Net *net, int32_t node, bool keep_routes, int *g_to_node)
{
    int32_t best = node;
    int bg = 0;
    for (int g = 0; g < CANGWU_NSYMS; g++)
        if (cangwu_sym_valid(net, g, keep_routes)) {
            int32_t m = cangwu_sym_apply(net, g, node);
            if (m < best)
                best = m;
        }
    /* the symmetry that carries the representative back to node */
    for (int g = 0; g < CANGWU_NSYMS; g++)
        if (cangwu_sym_valid(net, g, keep_routes) && cangwu_sym_apply(net, g, best) == node) {
            bg = g;
            break;
        }
    if (g_to_node)
        *g_to_node = bg;
    return best;
}

bool cangwu_sched_map(const Sched *src, int g, Sched *dst)
{
    const Net *net = sched_net(src);
    bool ok = true;
    for (int32_t st = 0; ok && st < sched_nsteps(src); st++) {
        ok = sched_at(dst, st) && sched_label(dst, sched_step_label(src, st));
        for (int64_t i = 0; ok && i < sched_ntransfers(src, st); i++) {
            SchedTransfer tr;
            sched_transfer(src, st, i, &tr);
            ok = sched_send_range(dst, cangwu_sym_apply(net, g, tr.src),
                                  cangwu_sym_apply(net, g, tr.dst), 0, 1);
        }
    }
    return ok && !sched_error(dst);
}
