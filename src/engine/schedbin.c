/* schedbin.c — the "MCX1" binary schedule format: the untrusting reader (the writer is
 * schedbin-write.c). */
#include "schedbin.h"

#include <stdlib.h>
#include <string.h>

struct SchedBin {
    int op;
    uint32_t nodes, nchunks, root, nsteps;
    uint64_t bytes;
    size_t ngiven;
    uint32_t *given;          /* 3 per entry */
    uint64_t *step_first;     /* nsteps + 1 */
    uint64_t nxfers;
    uint32_t *xf;             /* 3 per transfer: src, dst, nranges */
    uint64_t *xf_range;       /* first range of each transfer */
    ChunkRange *ranges;
    uint64_t nranges;
};

/* ---- reader ---- */

typedef struct {
    const unsigned char *p;
    size_t len, off;
    char *err;
    size_t errlen;
} Rd;

static bool get32(Rd *r, uint32_t *v, const char *what)
{
    if (r->len - r->off < 4) {
        snprintf(r->err, r->errlen, "byte %zu: file ends inside %s", r->off, what);
        return false;
    }
    const unsigned char *q = r->p + r->off;
    *v = (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
    r->off += 4;
    return true;
}

static bool bad(Rd *r, size_t off, const char *msg, uint64_t a, uint64_t b)
{
    char m[160];
    snprintf(m, sizeof m, msg, (unsigned long long)a, (unsigned long long)b);
    snprintf(r->err, r->errlen, "byte %zu: %s", off, m);
    return false;
}

static bool read_header(Rd *r, SchedBin *b, uint32_t max_nodes, uint64_t max_bytes)
{
    if (r->len < SCHEDBIN_HEADER || memcmp(r->p, "MCX1", 4) != 0) {
        snprintf(r->err, r->errlen, "not a meshcast binary schedule (no MCX1 header)");
        return false;
    }
    r->off = 4;
    uint32_t ver, op, lo, hi, ng;
    get32(r, &ver, "the header");
    if (ver != 1)
        return bad(r, 4, "version %llu (this reader knows %llu)", ver, 1);
    get32(r, &op, "the header");
    if (op > 1)
        return bad(r, 8, "op %llu (0 broadcast, 1 reduce)", op, 0);
    b->op = (int)op;
    get32(r, &b->nodes, "the header");
    get32(r, &b->nchunks, "the header");
    get32(r, &b->root, "the header");
    get32(r, &lo, "the header");
    get32(r, &hi, "the header");
    b->bytes = (uint64_t)lo | (uint64_t)hi << 32;
    get32(r, &ng, "the header");
    get32(r, &b->nsteps, "the header");
    if (b->nodes < 1 || (max_nodes && b->nodes > max_nodes))
        return bad(r, 12, "%llu nodes (1 to %llu allowed)", b->nodes, max_nodes);
    if (b->nchunks < 1)
        return bad(r, 16, "no chunks", 0, 0);
    if (b->root != SCHEDBIN_NOROOT && b->root >= b->nodes)
        return bad(r, 20, "root %llu is not a node (%llu nodes)", b->root, b->nodes);
    if (b->op == SCHEDBIN_REDUCE && b->root == SCHEDBIN_NOROOT)
        return bad(r, 20, "a reduction without a root", 0, 0);
    if ((max_bytes && b->bytes > max_bytes) || b->bytes > (UINT64_C(1) << 40))
        return bad(r, 24, "%llu bytes (at most %llu allowed)", b->bytes, max_bytes);
    if ((uint64_t)ng * 12 > r->len - r->off)
        return bad(r, 32, "%llu initial holdings do not fit in the file", ng, 0);
    b->ngiven = ng;
    return true;
}

static bool read_ranges(Rd *r, SchedBin *b, uint32_t n, size_t at)
{
    uint32_t prev_hi = 0;
    for (uint32_t j = 0; j < n; j++) {
        ChunkRange c;
        size_t o = r->off;
        get32(r, &c.lo, "a range");
        if (!get32(r, &c.hi, "a range"))
            return false;
        if (c.lo >= c.hi || c.hi > b->nchunks)
            return bad(r, o, "chunk range [%llu,%llu) is empty or past the last chunk", c.lo,
                       c.hi);
        if (j > 0 && c.lo < prev_hi)
            return bad(r, at, "a transfer's chunk ranges overlap or are not sorted", 0, 0);
        prev_hi = c.hi;
        b->ranges[b->nranges++] = c;
    }
    return true;
}

static bool read_steps(Rd *r, SchedBin *b)
{
    /* Every transfer takes >= 20 bytes and every range 8: the rest of the file bounds both. */
    uint64_t cap_x = (r->len - r->off) / 20 + 1, cap_r = (r->len - r->off) / 8 + 1;
    if ((uint64_t)b->nsteps * 4 > r->len - r->off)
        return bad(r, 36, "%llu steps do not fit in the file", b->nsteps, 0);
    b->step_first = malloc(((size_t)b->nsteps + 1) * sizeof *b->step_first);
    b->xf = malloc((size_t)cap_x * 3 * sizeof *b->xf);
    b->xf_range = malloc((size_t)cap_x * sizeof *b->xf_range);
    b->ranges = malloc((size_t)cap_r * sizeof *b->ranges);
    if (!b->step_first || !b->xf || !b->xf_range || !b->ranges) {
        snprintf(r->err, r->errlen, "out of memory reading the schedule");
        return false;
    }
    for (uint32_t k = 0; k < b->nsteps; k++) {
        uint32_t n;
        size_t o = r->off;
        if (!get32(r, &n, "a step's transfer count"))
            return false;
        if ((uint64_t)n * 20 > r->len - r->off)
            return bad(r, o, "step %llu: %llu transfers do not fit in the file", k, n);
        b->step_first[k] = b->nxfers;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t *x = b->xf + 3 * b->nxfers;
            size_t at = r->off;
            get32(r, &x[0], "a transfer");
            get32(r, &x[1], "a transfer");
            if (!get32(r, &x[2], "a transfer"))
                return false;
            if (x[0] >= b->nodes || x[1] >= b->nodes)
                return bad(r, at, "a transfer between nodes %llu and %llu, not both in the net",
                           x[0], x[1]);
            if (x[0] == x[1])
                return bad(r, at, "a transfer from node %llu to itself", x[0], 0);
            if (x[2] < 1 || (uint64_t)x[2] * 8 > r->len - r->off)
                return bad(r, at, "%llu chunk ranges (at least 1, within the file)", x[2], 0);
            b->xf_range[b->nxfers] = b->nranges;
            if (!read_ranges(r, b, x[2], at))
                return false;
            b->nxfers++;
        }
    }
    b->step_first[b->nsteps] = b->nxfers;
    if (r->off != r->len)
        return bad(r, r->off, "%llu bytes after the last step", r->len - r->off, 0);
    return true;
}

SchedBin *schedbin_read(const unsigned char *buf, size_t len, uint32_t max_nodes,
                        uint64_t max_bytes, char *err, size_t errlen)
{
    SchedBin *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(err, errlen, "out of memory reading the schedule");
        return NULL;
    }
    Rd r = {buf, len, 0, err, errlen};
    bool ok = read_header(&r, b, max_nodes, max_bytes);
    if (ok) {
        b->given = malloc((b->ngiven ? b->ngiven : 1) * 3 * sizeof *b->given);
        ok = b->given != NULL;
        if (!ok)
            snprintf(err, errlen, "out of memory reading the schedule");
    }
    for (size_t i = 0; ok && i < b->ngiven; i++) {
        uint32_t *g = b->given + 3 * i;
        size_t o = r.off;
        get32(&r, &g[0], "the holdings");
        get32(&r, &g[1], "the holdings");
        get32(&r, &g[2], "the holdings");
        if (g[0] >= b->nodes)
            ok = bad(&r, o, "initial holding of node %llu, not in the net (%llu nodes)", g[0],
                     b->nodes);
        else if (g[1] >= g[2] || g[2] > b->nchunks)
            ok = bad(&r, o, "initial chunk range [%llu,%llu) is empty or past the last chunk",
                     g[1], g[2]);
    }
    if (ok)
        ok = read_steps(&r, b);
    if (!ok) {
        schedbin_free(b);
        return NULL;
    }
    return b;
}

void schedbin_free(SchedBin *b)
{
    if (!b)
        return;
    free(b->given);
    free(b->step_first);
    free(b->xf);
    free(b->xf_range);
    free(b->ranges);
    free(b);
}

int schedbin_op(const SchedBin *b) { return b->op; }
uint32_t schedbin_nodes(const SchedBin *b) { return b->nodes; }
uint32_t schedbin_nchunks(const SchedBin *b) { return b->nchunks; }
uint32_t schedbin_root(const SchedBin *b) { return b->root; }
uint64_t schedbin_bytes(const SchedBin *b) { return b->bytes; }
uint32_t schedbin_nsteps(const SchedBin *b) { return b->nsteps; }
size_t schedbin_ngiven(const SchedBin *b) { return b->ngiven; }

void schedbin_given(const SchedBin *b, size_t i, uint32_t *node, ChunkRange *r)
{
    const uint32_t *g = b->given + 3 * i;
    *node = g[0];
    r->lo = g[1];
    r->hi = g[2];
}

uint64_t schedbin_step_first(const SchedBin *b, uint32_t k) { return b->step_first[k]; }
uint64_t schedbin_step_count(const SchedBin *b, uint32_t k)
{
    return b->step_first[k + 1] - b->step_first[k];
}

void schedbin_xfer(const SchedBin *b, uint64_t i, SchedBinXfer *out)
{
    const uint32_t *x = b->xf + 3 * i;
    out->src = x[0];
    out->dst = x[1];
    out->nranges = x[2];
    out->ranges = b->ranges + b->xf_range[i];
}

uint64_t schedbin_chunk_offset(const SchedBin *b, uint32_t c)
{
    /* bytes <= 2^40 and c <= 2^32: the product may pass 2^64, so split it. */
    uint64_t q = b->bytes / b->nchunks, rem = b->bytes % b->nchunks;
    return q * c + (rem * c) / b->nchunks;
}
