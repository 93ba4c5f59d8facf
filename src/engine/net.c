/* net.c — arrays, rings, meshes and tori in 1..3 dimensions (see net.h). */
#include "net.h"
#include "err-internal.h"
#include "num.h"
#include "text.h"
#include "net-internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[] = { "array", "ring", "mesh", "torus", "full", "hxbar" };
#define KIND_LIST "array, ring, mesh, torus, full, hxbar"

/* full:P and hxbar:AxB: one hop between any two nodes, a private link per ordered pair. */
static bool pairwise(const Net *net) { return net->kind == NET_FULL || net->kind == NET_HXBAR; }


const char *net_kind_name(NetKind kind)
{
    if ((unsigned)kind >= NET_NKINDS)
        return "?";
    return kind_names[kind];
}

bool net_kind_parse(const char *name, NetKind *out)
{
    if (!name)
        return false;
    for (int k = 0; k < NET_NKINDS; k++) {
        if (strcmp(name, kind_names[k]) == 0) {
            if (out)
                *out = (NetKind)k;
            return true;
        }
    }
    return false;
}

/* Validate and build; `shown` is the spec quoted in messages (NULL: made from the parts). */
static Net *make(NetKind kind, int ndim, const int32_t *dims, int32_t channels,
                 const char *shown, char *err, size_t errlen)
{
    char made[80];
    if (!shown) {
        int n = snprintf(made, sizeof made, "%s:", net_kind_name(kind));
        for (int d = 0; dims && d < ndim && d < NET_MAXDIM && n < (int)sizeof made; d++)
            n += snprintf(made + n, sizeof made - (size_t)n, "%s%ld", d ? "x" : "",
                          (long)dims[d]);
        shown = made;
    }
    if ((unsigned)kind >= NET_NKINDS) {
        err_set(err, errlen, "bad net: unknown kind %d", (int)kind);
        return NULL;
    }
    if (ndim < 1 || ndim > NET_MAXDIM || !dims) {
        err_set(err, errlen, "bad net '%s': a net has 1 to %d dimensions", shown, NET_MAXDIM);
        return NULL;
    }
    if (ndim > 1 && kind == NET_FULL) {
        err_set(err, errlen, "bad net '%s': a full net is full:P (P processors)", shown);
        return NULL;
    }
    if (ndim != 2 && kind == NET_HXBAR) {
        err_set(err, errlen, "bad net '%s': a hierarchical crossbar is hxbar:AxB (A modules "
                "of B processors; hxbar:AxB,c=C for C channels per module)", shown);
        return NULL;
    }
    if (ndim > 1 && (kind == NET_ARRAY || kind == NET_RING)) {
        err_set(err, errlen, "bad net '%s': %s has one dimension (use %s)", shown,
               kind == NET_ARRAY ? "an array" : "a ring", kind == NET_ARRAY ? "mesh" : "torus");
        return NULL;
    }
    int64_t size = 1;
    for (int d = 0; d < ndim; d++) {
        if (dims[d] < 1) {
            err_set(err, errlen, "bad net '%s': every dimension must be at least 1", shown);
            return NULL;
        }
        size *= dims[d];
        if (size > NET_MAXNODES) {
            err_set(err, errlen, "bad net '%s': more than %d nodes", shown, NET_MAXNODES);
            return NULL;
        }
    }
    if (size < 2) {
        err_set(err, errlen, "bad net '%s': a net needs at least 2 nodes", shown);
        return NULL;
    }
    Net *net = calloc(1, sizeof *net);
    if (!net) {
        err_set(err, errlen, "out of memory");
        return NULL;
    }
    if (ndim == 1 && kind == NET_MESH)
        kind = NET_ARRAY;
    if (ndim == 1 && kind == NET_TORUS)
        kind = NET_RING;
    if (kind == NET_HXBAR) {   /* 1-D ids 0..A*B-1; module = id / B */
        net->kind = kind;
        net->ndim = 1;
        net->size = (int32_t)size;
        net->dims[0] = (int32_t)size;
        net->stride[0] = 1;
        net->modules = dims[0];
        net->per = dims[1];
        net->channels = channels;
        if (channels == HXBAR_DEFAULT_C)
            snprintf(net->spec, sizeof net->spec, "hxbar:%ldx%ld", (long)dims[0], (long)dims[1]);
        else
            snprintf(net->spec, sizeof net->spec, "hxbar:%ldx%ld,c=%ld", (long)dims[0],
                     (long)dims[1], (long)channels);
        return net;
    }
    net->kind = kind;
    net->ndim = ndim;
    net->size = (int32_t)size;
    for (int d = 0; d < ndim; d++)
        net->dims[d] = dims[d];
    net->stride[ndim - 1] = 1;
    for (int d = ndim - 2; d >= 0; d--)
        net->stride[d] = net->stride[d + 1] * dims[d + 1];
    int n = snprintf(net->spec, sizeof net->spec, "%s:", kind_names[kind]);
    for (int d = 0; d < ndim; d++)
        n += snprintf(net->spec + n, sizeof net->spec - (size_t)n, "%s%ld", d ? "x" : "",
                      (long)dims[d]);
    return net;
}

Net *net_new(NetKind kind, int ndim, const int32_t *dims, char *err, size_t errlen)
{
    return make(kind, ndim, dims, HXBAR_DEFAULT_C, NULL, err, errlen);
}

Net *net_parse(const char *spec, char *err, size_t errlen)
{
    if (!spec) {
        err_set(err, errlen, "bad net: no spec given");
        return NULL;
    }
    /* at most 40 bytes of the spec in messages, on one line */
    char shown[48];
    text_quote(spec, 40, shown, sizeof shown);
    const char *colon = strchr(spec, ':');
    if (!colon) {
        err_set(err, errlen, "bad net '%s': expected KIND:DIMS, e.g. mesh:16x32", shown);
        return NULL;
    }
    char kind[16];
    size_t kl = (size_t)(colon - spec);
    if (kl == 0 || kl >= sizeof kind) {
        err_set(err, errlen, "bad net '%s': unknown kind '%.*s' (" KIND_LIST ")",
                shown, (int)(kl < 16 ? kl : 16), shown);
        return NULL;
    }
    memcpy(kind, spec, kl);
    kind[kl] = '\0';
    NetKind k;
    if (!net_kind_parse(kind, &k)) {
        err_set(err, errlen, "bad net '%s': unknown kind '%.*s' (" KIND_LIST ")",
               shown, (int)kl, shown);
        return NULL;
    }
    int32_t dims[NET_MAXDIM], channels = HXBAR_DEFAULT_C;
    int ndim = 0;
    const char *p = colon + 1;
    for (;;) {
        const char *end;
        uint64_t x;
        NumStatus ns = num_u64(p, &x, &end);   /* num.h: digits only */
        if (ns == NUM_SYNTAX || ns == NUM_NEGATIVE) {
            err_set(err, errlen, "bad net '%s': dimensions must be numbers separated by 'x'",
                   shown);
            return NULL;
        }
        long long v = ns == NUM_TOO_LARGE || x > NET_MAXNODES ? (long long)NET_MAXNODES + 1
                                                              : (long long)x;
        if (ndim == NET_MAXDIM) {
            err_set(err, errlen, "bad net '%s': at most %d dimensions", shown, NET_MAXDIM);
            return NULL;
        }
        dims[ndim++] = (int32_t)v;
        p = end;
        if (*p == '\0')
            break;
        if (*p == ',' && k == NET_HXBAR) {   /* hxbar:AxB,c=C */
            uint64_t c;
            if (strncmp(p, ",c=", 3) != 0 || num_u64(p + 3, &c, &end) != NUM_OK || *end ||
                c < 1 || c > 1 << 20) {
                err_set(err, errlen, "bad net '%s': after hxbar:AxB only ',c=C' (channels per "
                        "module, 1..%d)", shown, 1 << 20);
                return NULL;
            }
            channels = (int32_t)c;
            break;
        }
        if (*p != 'x') {
            err_set(err, errlen, "bad net '%s': dimensions must be numbers separated by 'x'",
                   shown);
            return NULL;
        }
        p++;
    }
    for (int d = 0; d < ndim; d++) {
        if (dims[d] < 1) {
            err_set(err, errlen, "bad net '%s': every dimension must be at least 1", shown);
            return NULL;
        }
        if (dims[d] > NET_MAXNODES) {
            err_set(err, errlen, "bad net '%s': more than %d nodes", shown, NET_MAXNODES);
            return NULL;
        }
    }
    return make(k, ndim, dims, channels, shown, err, errlen);
}

void net_free(Net *net)
{
    free(net);
}

NetKind net_kind(const Net *net) { return net ? net->kind : NET_ARRAY; }
bool net_wraps(const Net *net) { return net && (net->kind == NET_RING || net->kind == NET_TORUS); }
int net_ndim(const Net *net) { return net ? net->ndim : 0; }
int32_t net_dim(const Net *net, int dim)
{
    if (!net || dim < 0 || dim >= net->ndim)
        return 0;
    return net->dims[dim];
}
int32_t net_size(const Net *net) { return net ? net->size : 0; }
int64_t net_nlinks(const Net *net)
{
    if (!net)
        return 0;
    if (net->kind == NET_FULL)
        return (int64_t)net->size * net->size;
    if (net->kind == NET_HXBAR)
        return (int64_t)net->size * net->size + 2 * (int64_t)net->modules;
    return 2 * (int64_t)net->ndim * net->size;
}
const char *net_spec(const Net *net) { return net ? net->spec : ""; }

void net_coords(const Net *net, int32_t id, int32_t *c)
{
    if (!net || !c)
        return;
    if (id < 0 || id >= net->size) {
        for (int d = 0; d < net->ndim; d++)
            c[d] = -1;
        return;
    }
    for (int d = 0; d < net->ndim; d++)
        c[d] = (id / net->stride[d]) % net->dims[d];
}

int32_t net_id(const Net *net, const int32_t *c)
{
    if (!net || !c)
        return -1;
    int32_t id = 0;
    for (int d = 0; d < net->ndim; d++) {
        if (c[d] < 0 || c[d] >= net->dims[d])
            return -1;
        id += c[d] * net->stride[d];
    }
    return id;
}

int32_t net_parse_node(const Net *net, const char *text)
{
    if (!net || !text)
        return -1;
    /* num.h's one rule: digits only (no blank, no sign, no hex); "(r,c)" as net_node_name
     * writes it, or "r,c", or an id */
    const char *p = text;
    bool paren = *p == '(';
    if (paren)
        p++;
    int64_t v[NET_MAXDIM + 1];
    int n = 0;
    for (;;) {
        uint64_t x;
        if (num_u64(p, &x, &p) != NUM_OK || x > NET_MAXNODES || n == NET_MAXDIM)
            return -1;
        v[n++] = (int64_t)x;
        if (*p == ',') {
            p++;
            continue;
        }
        break;
    }
    if (paren) {
        if (*p != ')')
            return -1;
        p++;
    }
    if (*p != '\0')
        return -1;
    if (n == 1 && !paren) {
        return v[0] < net->size ? (int32_t)v[0] : -1;
    }
    if (n != net->ndim)
        return -1;
    int32_t c[NET_MAXDIM];
    for (int d = 0; d < n; d++)
        c[d] = (int32_t)v[d];
    return net_id(net, c);
}

char *net_node_name(const Net *net, int32_t id, char *buf, size_t len)
{
    if (!buf || len == 0)
        return buf;
    if (!net || id < 0 || id >= net->size) {
        snprintf(buf, len, "?");
        return buf;
    }
    if (net->ndim == 1) {
        snprintf(buf, len, "%ld", (long)id);
        return buf;
    }
    int32_t c[NET_MAXDIM] = { 0, 0, 0 };
    net_coords(net, id, c);
    if (net->ndim == 2)
        snprintf(buf, len, "(%ld,%ld)", (long)c[0], (long)c[1]);
    else
        snprintf(buf, len, "(%ld,%ld,%ld)", (long)c[0], (long)c[1], (long)c[2]);
    return buf;
}

int32_t net_neighbor(const Net *net, int32_t id, int dim, int32_t hops)
{
    if (!net || id < 0 || id >= net->size || dim < 0 || dim >= net->ndim)
        return -1;
    int32_t n = net->dims[dim];
    int64_t c = (id / net->stride[dim]) % n;
    int64_t nc = c + hops;
    if (net_wraps(net)) {
        nc %= n;
        if (nc < 0)
            nc += n;
    } else if (nc < 0 || nc >= n) {
        return -1;
    }
    return (int32_t)(id + (nc - c) * net->stride[dim]);
}

/* Per-dimension offset of the default route: signed number of hops along dim. */
static inline int32_t dim_offset(const Net *net, int dim, int32_t cs, int32_t cd)
{
    int32_t delta = cd - cs;
    if (net->kind == NET_RING || net->kind == NET_TORUS) {
        int32_t n = net->dims[dim];
        int32_t f = delta < 0 ? delta + n : delta;   /* 0 .. n-1 hops the positive way */
        if (f == 0)
            return 0;
        int32_t back = n - f;
        return f <= back ? f : -back;                /* tie: positive direction */
    }
    return delta;
}

int32_t net_distance(const Net *net, int32_t a, int32_t b)
{
    if (!net || a < 0 || b < 0 || a >= net->size || b >= net->size)
        return -1;
    if (pairwise(net))
        return a != b;
    int32_t dist = 0;
    for (int d = 0; d < net->ndim; d++) {
        int32_t ca = (a / net->stride[d]) % net->dims[d];
        int32_t cb = (b / net->stride[d]) % net->dims[d];
        int32_t o = dim_offset(net, d, ca, cb);
        dist += o < 0 ? -o : o;
    }
    return dist;
}

int net_route_fast(const Net *net, int32_t src, int32_t dst, NetSeg *out)
{
    int n = 0;
    if (pairwise(net)) {   /* one hop over the pair's own link */
        if (src == dst)
            return 0;
        out[0] = (NetSeg){ .dim = 0, .dir = dst > src ? 1 : -1, .len = 1 };
        return 1;
    }
    for (int d = net->ndim - 1; d >= 0; d--) {
        int32_t ca = (src / net->stride[d]) % net->dims[d];
        int32_t cb = (dst / net->stride[d]) % net->dims[d];
        int32_t o = dim_offset(net, d, ca, cb);
        if (o == 0)
            continue;
        out[n].dim = (int8_t)d;
        out[n].dir = o > 0 ? 1 : -1;
        out[n].len = o > 0 ? o : -o;
        n++;
    }
    return n;
}

int net_route(const Net *net, int32_t src, int32_t dst, NetSeg *out)
{
    if (!net || !out || src < 0 || dst < 0 || src >= net->size || dst >= net->size)
        return 0;
    return net_route_fast(net, src, dst, out);
}

int32_t net_route_end(const Net *net, int32_t src, const NetSeg *seg, int nseg)
{
    if (!net || src < 0 || src >= net->size || nseg < 0 || nseg > NET_MAXSEG ||
        (nseg > 0 && !seg) || pairwise(net))
        return -1;
    int32_t at = src;
    bool wraps = net_wraps(net);
    for (int i = 0; i < nseg; i++) {
        int d = seg[i].dim;
        if (d < 0 || d >= net->ndim || (seg[i].dir != 1 && seg[i].dir != -1) || seg[i].len < 1)
            return -1;
        int32_t n = net->dims[d];
        /* A circuit never uses a directed link twice: a segment is shorter than its line. */
        if (seg[i].len >= n)
            return -1;
        int64_t c = (at / net->stride[d]) % n;
        int64_t nc = c + (int64_t)seg[i].dir * seg[i].len;
        if (wraps) {
            nc %= n;
            if (nc < 0)
                nc += n;
        } else if (nc < 0 || nc >= n) {
            return -1;
        }
        at = (int32_t)(at + (nc - c) * net->stride[d]);
    }
    return at;
}

int64_t net_route_len(const NetSeg *seg, int nseg)
{
    int64_t s = 0;
    for (int i = 0; seg && i < nseg; i++)
        s += seg[i].len;
    return s;
}

int64_t net_pair_link(const Net *net, int32_t u, int32_t v)
{
    if (!net || !pairwise(net) || u < 0 || v < 0 || u >= net->size || v >= net->size ||
        u == v)
        return -1;
    return (int64_t)u * net->size + v;
}

int64_t net_link(const Net *net, int32_t node, int dim, int dir)
{
    if (!net || pairwise(net) || node < 0 || node >= net->size || dim < 0 || dim >= net->ndim ||
        (dir != 1 && dir != -1))
        return -1;
    return ((int64_t)node * net->ndim + dim) * 2 + (dir < 0);
}

void net_link_info(const Net *net, int64_t link, int32_t *node, int *dim, int *dir)
{
    int32_t nd = -1;
    int dm = -1, dr = 0;
    int64_t pairs = net ? (int64_t)net->size * net->size : 0;
    if (net && pairwise(net) && link >= pairs && link < net_nlinks(net)) {
        nd = (int32_t)((link - pairs) / 2 * net->per);   /* a channel: its module's first */
        dm = 0;
        dr = (link - pairs) % 2 ? -1 : 1;
    } else if (net && pairwise(net) && link >= 0 && link < net_nlinks(net)) {
        nd = (int32_t)(link / net->size);
        dm = 0;
        dr = 1;
    } else if (net && link >= 0 && link < net_nlinks(net)) {
        dr = (link & 1) ? -1 : 1;
        int64_t x = link >> 1;
        dm = (int)(x % net->ndim);
        nd = (int32_t)(x / net->ndim);
    }
    if (node)
        *node = nd;
    if (dim)
        *dim = dm;
    if (dir)
        *dir = dr;
}

int32_t net_link_head(const Net *net, int64_t link)
{
    int32_t node;
    int dim, dir;
    net_link_info(net, link, &node, &dim, &dir);
    if (node < 0)
        return -1;
    if (pairwise(net))
        return link < (int64_t)net->size * net->size ? (int32_t)(link % net->size) : -1;
    return net_neighbor(net, node, dim, dir);
}

bool net_pairwise(const Net *net) { return net && pairwise(net); }
int32_t net_hxbar_modules(const Net *net) { return net && net->kind == NET_HXBAR ? net->modules : 0; }
int32_t net_hxbar_per(const Net *net) { return net && net->kind == NET_HXBAR ? net->per : 0; }
int32_t net_hxbar_channels(const Net *net)
{
    return net && net->kind == NET_HXBAR ? net->channels : 0;
}

int64_t net_channel_link(const Net *net, int32_t module, bool in)
{
    if (!net || net->kind != NET_HXBAR || module < 0 || module >= net->modules)
        return -1;
    return (int64_t)net->size * net->size + 2 * (int64_t)module + in;
}
