/* net-internal.h — the Net struct, for the simulator's and builder's fast paths inside
 * src/engine.  Callers outside the engine use net.h. */
#ifndef MESHCAST_NET_INTERNAL_H
#define MESHCAST_NET_INTERNAL_H

#include "net.h"

struct Net {
    NetKind kind;
    int ndim;
    int32_t dims[NET_MAXDIM];
    int32_t stride[NET_MAXDIM];   /* stride[ndim-1] = 1, stride[d] = stride[d+1]*dims[d+1] */
    int32_t size;
    int32_t modules, per, channels;   /* hxbar:AxB,c=C: A modules of B, C channels each */
    char spec[64];
};

/* Default route without argument checks (src, dst valid); returns the number of segments. */
int net_route_fast(const Net *net, int32_t src, int32_t dst, NetSeg *out);

#endif
