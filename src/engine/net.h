/* net.h — interconnection networks: arrays, rings, meshes and tori in 1..3 dimensions.
 *
 * Node ids are row-major (last coordinate fastest): on a 2-D net node (r,c) has id r*cols+c,
 * (0,0) top-left.  Dimension 0 is the slowest coordinate (rows on a 2-D net), dimension
 * ndim-1 the fastest (columns).  Every physical link is a pair of directed links.
 *
 * Directed links have ids 0 .. net_nlinks()-1:
 *     link = (node * ndim + dim) * 2 + (dir < 0)
 * i.e. the link that leaves `node` along `dim` in direction `dir` (+1 or -1).  On a mesh or
 * array the ids of links that would leave the net exist but are never used by a route.
 *
 * Default routing is dimension-ordered from the fastest dimension to the slowest: on a 2-D
 * mesh a message first travels along its row to the destination column, then along that
 * column (Seidel's XY routing).  On a ring or torus each dimension takes the shorter way round;
 * a tie (exactly half way) goes the positive direction.
 *
 * Ownership: net_parse/net_new return a Net the caller owns and frees with net_free.  A Net is
 * immutable after creation; every const accessor is safe to call from many places at once.
 */
#ifndef MESHCAST_NET_H
#define MESHCAST_NET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NET_MAXDIM 3
/* Largest net accepted (nodes).  The simulator keeps a few words per directed link. */
#define NET_MAXNODES (1 << 24)

typedef struct Net Net;

/* NET_FULL ("full:P", Sanders & Sibeyn's machine): P processors, any one reaches any other in
 * one hop.  It is 1-D (node ids 0..P-1, coordinates = ids); every ordered pair (u, v) has a
 * directed link of its own, id u*P + v (net_pair_link), used by the transfers u -> v only, so
 * two transfers share a link only when they join the same pair in the same step; only the
 * ports count.  The default route u -> v is one segment {dim 0, dir sign(v-u), len 1}: one hop
 * (distance 1 for u != v); explicit routes are refused (net_route_end returns -1).
 * net_neighbor walks the ids as on an array (for cursors and drawing). */
/* NET_HXBAR ("hxbar:AxB" or "hxbar:AxB,c=C", Sanders & Sibeyn's Section 4): a two-level
 * hierarchical crossbar, A modules of B processors (node ids 0..A*B-1, module = id / B),
 * a crossbar inside every module and C channels (default 2) from each module to the others.
 * It is a full net for routes and pair links (one hop, a private link per ordered pair, ids
 * u*P + v), plus two channel links per module m: out P*P + 2m, in P*P + 2m + 1
 * (net_channel_link), which every transfer between different modules also uses; a channel
 * carries C transfers in a step at full speed, and the simulator counts its load in units of
 * C (sim.h). */
typedef enum { NET_ARRAY, NET_RING, NET_MESH, NET_TORUS, NET_FULL, NET_HXBAR,
               NET_NKINDS } NetKind;
#define HXBAR_DEFAULT_C 2

/* A straight piece of a route: `len` hops along `dim`, in direction `dir` (+1 or -1). */
typedef struct {
    int8_t dim;
    int8_t dir;
    int32_t len;
} NetSeg;

/* A route is at most this many segments (dimension-ordered routes use at most NET_MAXDIM;
 * explicit routes, e.g. knight's-move paths on a torus, may use more). */
#define NET_MAXSEG 16

/* Parse "array:16", "ring:16", "mesh:16x32", "torus:25x25", "mesh:4x4x4", "full:64",
 * "hxbar:16x8" (or "hxbar:16x8,c=3").  A 1-D mesh is an
 * array and a 1-D torus a ring.  On failure returns NULL and writes a one-line message to err
 * (if errlen > 0), e.g. "bad net 'cube:8': unknown kind 'cube' (array, ring, mesh, torus, full, hxbar)". */
Net *net_parse(const char *spec, char *err, size_t errlen);

/* Make a net from its parts; same validation as net_parse. */
Net *net_new(NetKind kind, int ndim, const int32_t *dims, char *err, size_t errlen);

void net_free(Net *net);

NetKind net_kind(const Net *net);
const char *net_kind_name(NetKind kind);   /* "array", "ring", "mesh", "torus", "full", "hxbar" */
bool net_kind_parse(const char *name, NetKind *out);
bool net_wraps(const Net *net);            /* ring or torus */
int net_ndim(const Net *net);
int32_t net_dim(const Net *net, int dim);  /* extent of dimension dim */
int32_t net_size(const Net *net);          /* number of nodes */
int64_t net_nlinks(const Net *net);        /* number of directed link ids (2*ndim*size;
                                              * full:P: P*P, the pair links) */

/* Canonical spec, e.g. "mesh:16x32".  Valid as long as the net lives. */
const char *net_spec(const Net *net);

/* Coordinates of a node (c has net_ndim entries) and back; net_id returns -1 if any
 * coordinate is out of range (no wrapping). */
void net_coords(const Net *net, int32_t id, int32_t *c);
int32_t net_id(const Net *net, const int32_t *c);

/* Parse a node: "37" (an id) or "3,4" / "1,2,3" (coordinates).  Returns -1 if malformed or
 * outside the net. */
int32_t net_parse_node(const Net *net, const char *text);
/* Format a node as "(r,c)" on a 2-D/3-D net or "5" on a 1-D net; returns buf. */
char *net_node_name(const Net *net, int32_t id, char *buf, size_t len);

/* The node `hops` away along dim (hops may be negative); wraps on rings and tori, -1 past the
 * edge of an array or mesh. */
int32_t net_neighbor(const Net *net, int32_t id, int dim, int32_t hops);

/* Hop distance under the default routing (= length of net_route). */
int32_t net_distance(const Net *net, int32_t a, int32_t b);

/* The default dimension-ordered route from src to dst into out[NET_MAXDIM]; returns the number
 * of segments (0 when src == dst).  Segments have len >= 1. */
int net_route(const Net *net, int32_t src, int32_t dst, NetSeg *out);

/* Follow an explicit route from src.  Returns the node where it ends, or -1 if it leaves an
 * array/mesh, has a bad dim/dir/len (len must be >= 1), or has more than NET_MAXSEG segments. */
int32_t net_route_end(const Net *net, int32_t src, const NetSeg *seg, int nseg);

/* Sum of segment lengths. */
int64_t net_route_len(const NetSeg *seg, int nseg);

/* Directed links.  net_link is -1 on a full net (use net_pair_link); net_link_info of a pair
 * link gives its tail, dim 0 and dir +1; net_link_head its head. */
int64_t net_link(const Net *net, int32_t node, int dim, int dir);
/* The private link of the ordered pair u -> v of a full net (u*P + v); -1 on other nets or for
 * u == v or ids outside the net. */
int64_t net_pair_link(const Net *net, int32_t u, int32_t v);
void net_link_info(const Net *net, int64_t link, int32_t *node, int *dim, int *dir);
/* full or hxbar: one hop between any two nodes, pair links. */
bool net_pairwise(const Net *net);
/* hxbar: A (modules), B (processors per module), C (channels per module); 0 on other nets. */
int32_t net_hxbar_modules(const Net *net);
int32_t net_hxbar_per(const Net *net);
int32_t net_hxbar_channels(const Net *net);
/* hxbar: the out (in = false) or in channel link of a module; -1 otherwise.  net_link_info of
 * a channel gives the module's first node, dim 0, dir +1 (out) or -1 (in); its head is -1. */
int64_t net_channel_link(const Net *net, int32_t module, bool in);
/* The node a directed link leads to, or -1 for a link id that leaves an array/mesh. */
int32_t net_link_head(const Net *net, int64_t link);

#endif
