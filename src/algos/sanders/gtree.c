/* gtree.c — Fig. 2's schedule on an explicit tree of groups (gtree.h says what and why). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../engine/net.h"
#include "gtree.h"

typedef struct {
    int32_t node;
    int32_t pred;     /* the node it receives from; -1: a right head (member j of parent) */
    int32_t parent;   /* a right head's parent group */
    int64_t x;        /* offset: the step it gets packet 0 */
} Pu;

static int32_t group_len(const SandersGTree *t, int32_t g)
{
    int32_t n = 0;
    while (n < t->r && t->member[(int64_t)g * t->r + n] >= 0)
        n++;
    return n;
}

static int32_t member(const SandersGTree *t, int32_t g, int32_t i)
{
    return t->member[(int64_t)g * t->r + i];
}

/* The PUs of t (*npu of them) with offsets and predecessors, groups in BFS order from the
 * root (the source, at offset -1, is pu[0]); *d gets the largest offset.  NULL with a
 * one-line message in err on a malformed tree or out of memory. */
static Pu *walk(const SandersGTree *t, int32_t nnodes, int64_t *npu, int64_t *d, char *err,
                size_t errlen)
{
    int32_t r = t->r, G = t->ngroups;
    if (r < 1 || G < 1 || t->root < 0 || t->root >= G) {
        snprintf(err, errlen, "fractional tree: bad group tree (r=%d, %d groups)", (int)r,
                 (int)G);
        return NULL;
    }
    int32_t *queue = malloc((size_t)G * sizeof *queue);
    int32_t *parent = malloc((size_t)G * sizeof *parent);
    int8_t *kind = malloc((size_t)G);   /* 0 down child (or the root), 1 right child */
    int64_t *head = malloc((size_t)G * sizeof *head);
    char *seen = calloc((size_t)G + (size_t)nnodes, 1);
    Pu *pu = malloc((size_t)G * (size_t)r * sizeof *pu);
    bool ok = queue && parent && kind && head && seen && pu;
    if (!ok)
        snprintf(err, errlen, "out of memory laying out the tree");
    char *used = seen + G;
    int64_t n = 0, dmax = -1;
    int32_t qh = 0, qt = 0;
    if (ok) {
        queue[qt++] = t->root;
        seen[t->root] = 1;
        head[t->root] = -1;
        parent[t->root] = -1;
        kind[t->root] = 0;
    }
    while (ok && qh < qt) {
        int32_t g = queue[qh++], len = group_len(t, g);
        int32_t kids[2] = { t->down[g], t->right[g] };
        if (len == 0 || ((kids[0] >= 0 || kids[1] >= 0) && len < r)) {
            snprintf(err, errlen, "fractional tree: group %d has %d of %d members%s", (int)g,
                     (int)len, (int)r, len ? " and a child" : "");
            ok = false;
            break;
        }
        for (int32_t i = 0; ok && i < len; i++) {
            int32_t v = member(t, g, i);
            if (v >= nnodes || used[v]) {
                snprintf(err, errlen, "fractional tree: node %d placed twice or outside the net",
                         (int)v);
                ok = false;
                break;
            }
            used[v] = 1;
            Pu *p = &pu[n++];
            p->node = v;
            p->x = head[g] + i;
            p->parent = -1;
            if (i > 0)
                p->pred = member(t, g, i - 1);
            else if (parent[g] < 0)
                p->pred = -1;   /* the source */
            else if (kind[g] == 0)
                p->pred = member(t, parent[g], r - 1);
            else {
                p->pred = -1;
                p->parent = parent[g];
            }
            if (p->x > dmax)
                dmax = p->x;
        }
        for (int k = 0; ok && k < 2; k++) {
            int32_t c = kids[k];
            if (c < 0)
                continue;
            if (c >= G || seen[c]) {
                snprintf(err, errlen, "fractional tree: group %d reached twice", (int)c);
                ok = false;
                break;
            }
            seen[c] = 1;
            head[c] = head[g] + r + k;   /* down: h + r, right: h + r + 1 */
            parent[c] = g;
            kind[c] = (int8_t)k;
            queue[qt++] = c;
        }
    }
    if (ok && qt != G) {
        snprintf(err, errlen, "fractional tree: %d of %d groups not reached from the root",
                 (int)(G - qt), (int)G);
        ok = false;
    }
    free(queue);
    free(parent);
    free(kind);
    free(head);
    free(seen);
    if (!ok) {
        free(pu);
        return NULL;
    }
    *npu = n;
    *d = dmax;
    return pu;
}

bool sanders_gtree_depth(const SandersGTree *t, int32_t nnodes, int64_t *d, char *err,
                         size_t errlen)
{
    int64_t n;
    Pu *pu = walk(t, nnodes, &n, d, err, errlen);
    free(pu);
    return pu != NULL;
}

int64_t sanders_gtree_steps(int64_t d, int64_t r, int64_t s)
{
    if (d < 0 || s < 1 || r < 1)
        return d == -1 ? 0 : -1;
    int64_t q = (s - 1) / r, j = (s - 1) % r;
    return d + q * (r + 1) + j + 1;
}

static int cmp_x(const void *a, const void *b)
{
    const Pu *p = a, *q = b;
    return (p->x > q->x) - (p->x < q->x);
}

bool sanders_gtree_build(const SandersGTree *t, Sched *s, const char *name)
{
    const Net *net = sched_net(s);
    char err[160], label[128];
    int64_t n, d;
    Pu *pu = walk(t, net_size(net), &n, &d, err, sizeof err);
    if (!pu) {
        sched_fail(s, "%s", err);
        return false;
    }
    qsort(pu, (size_t)n, sizeof *pu, cmp_x);   /* by offset: a step's receivers are a window */
    int64_t r = t->r, np = sched_nchunks(s), per = r + 1;
    int64_t ulast = ((np - 1) / r) * per + (np - 1) % r;   /* offset of the last packet */
    int64_t D = sanders_gtree_steps(d, r, np);
    bool ok = true, explicit_routes = !net_pairwise(net);
    int64_t lo = 0;   /* first PU with x + ulast >= tau */
    for (int64_t tau = 0; ok && tau < D; tau++) {
        bool opened = false;
        while (lo < n && pu[lo].x + ulast < tau)
            lo++;
        for (int64_t k = lo; ok && k < n && pu[k].x <= tau; k++) {
            const Pu *p = &pu[k];
            if (p->x < 0)
                continue;   /* the source */
            int64_t u = tau - p->x, m = u / per, j = u % per, pk = m * r + j;
            if (j == r || pk >= np)
                continue;
            int32_t src = p->pred >= 0 ? p->pred : member(t, p->parent, (int32_t)j);
            if (!opened) {
                snprintf(label, sizeof label, "%s r=%lld: step %lld of %lld", name,
                         (long long)r, (long long)tau + 1, (long long)D);
                ok = sched_step(s) >= 0 && sched_label(s, label);
                opened = true;
            }
            ChunkRange cr = { (uint32_t)pk, (uint32_t)pk + 1 };
            if (explicit_routes) {
                NetSeg seg[NET_MAXSEG];
                int nseg = net_route(net, src, p->node, seg);
                ok = ok && sched_send_route(s, src, p->node, &cr, 1, seg, nseg);
            } else {
                ok = ok && sched_send(s, src, p->node, &cr, 1);
            }
        }
    }
    free(pu);
    return ok;
}
