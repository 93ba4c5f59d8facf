/* fdirect.c — the direct simplex fractional tree (Section 3: "a faster direct implementation
 * which is able to forward a run of r packets in 2r+1 steps ... nontrivial to translate a
 * parallel send|recv into a sequence 'send, recv' or 'recv, send'"): every PU runs Fig. 2's
 * program with each send|recv split into two operations, under rendezvous communication
 * (rendezvous.c), one operation a step.
 *
 * The split.  Per run a PU's program has r pairs and a lone sendDown: pair 0 is
 * sendRight|Recv(packet 0 of the run), pair k >= 1 sendDown(packet k-1)|Recv(packet k).  The
 * PU's "pattern" sigma (r bits) says, pair by pair, which half goes first: 0 send, 1 receive.
 * If nobody waits, a PU takes 2r+1 steps a run, the pairs at offsets 2k, 2k+1 of its period
 * (start t), the lone down at 2r: it receives packet j at t + 2j + 1 - sigma_j, sends down
 * packet j at t + 2j + 2 + sigma_{j+1} (sigma_r := 0) and right at t + sigma_0.  Member i+1 of
 * a group receives what member i sends down: with t_{i+1} = t_i + 2 that holds for every j iff
 * sigma^{i+1}_j = 1 - sigma^i_{j+1} (j < r-1) and sigma^{i+1}_{r-1} = 1; so the head's pattern
 * a fixes the group: sigma^i_j = a_{i+j} xor (i odd) if i+j < r, else 1 xor ((r-1-j) odd).
 * The down head (member r-1 feeds it the same way) always gets A = (..., 0, 1, 0, 1), period
 * start t_0 + 2r.  The right head gets packet j of a run from member j in pair 0 of member j's
 * next period, so its pattern is sigma'_j = K - (a_j xor (j odd)) for a constant K in 0..2,
 * period start t_0 + 2r + K.  The four patterns Z = 0...0, O = 1...1, W = 0101..., and its
 * complement close under these rules (Z -> right NW (K = 1); O -> W; W -> Z (K = 0) or O
 * (K = 1); NW -> Z (K = 1) or O (K = 2); every group's down head: A, W for r even, NW for r
 * odd), and they are the tree's "kinds".
 * r = 1: sigma = 0 is bintree-direct's "receive, send down, send right"; there the down head
 * may also start one step after its parent (K-like choice c = 0, pattern Z).
 *
 * Layout.  A PU's finish offset f is when it receives the last run's last packet j0
 * (s = q r + j0 + 1): member i of a group with head kind a at period start t_0 has
 * f = t_0 + 2i + 2j0 + 1 - sigma^i_{j0}.  N(a, T), the most PUs a subtree with head kind a
 * (t_0 = 0) can hold with every f <= T, satisfies
 *     N(a, T) = m                                          if m < r members have f <= T,
 *     N(a, T) = r + max over the children's choices of N(down, T - 2r) + N(right, T - 2r - K)
 * (the analogue of P_i = r + P_{i-r} + P_{i-r-1}; the root's own f does not count).  The
 * root's kind a and T_0(a) = min{T : N_root(a, T) >= P} are chosen to make T_0(a) - o(a)
 * least, o(a) = 2 + a_1 (r >= 2; 2 for r = 1) the model's first transfer (the root sends
 * packet 0 down).  The tree of that choice is grown from the root, always taking the PU with
 * the least f whose feeders are in (a right head needs all r members of its parent group),
 * until P PUs: the cut tree.  Positions in that order map to nodes as ftree.c's do.
 *
 * Steps.  The periodic model (every PU at its offsets) is a valid schedule, so the rendezvous
 * run (every operation as early as its partner allows) never takes longer than
 *     B(P, r, s) = T_0 - o + q (2r+1) + 1.
 * It takes exactly B when r divides s, s >= 2r and P >= 4 (P >= 6 for r = 1) — the closed
 * form meshcast predicts (tests/unit/test_fdirect.c: every P in 2..300, r in 1..8); below,
 * P = 2 takes s steps, r >= P - 1 (and P = 3) is the simplex chain (chain_tree: P + 2s - 3),
 * r = 1 on 4 and 5 PUs takes 2s and 2s + 1 (nobody sends right, so nobody needs 3 steps a
 * packet).  With one run, or a shorter last run, the
 * model is not exact everywhere: after the last run a sendRight has no receive left in its
 * pair and moves to the period's first step, in a short last run the lone sendDown moves up,
 * and a PU not held by earlier operations (with one run: a right head) gets packets a step
 * earlier than the model says.  No closed form is offered then (B stays an upper bound).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algos-internal.h"
#include "rendezvous.h"

enum { TY_Z, TY_O, TY_W, TY_NW, NTY };

static int tbit(int a, int64_t x)
{
    switch (a) {
    case TY_Z:
        return 0;
    case TY_O:
        return 1;
    case TY_W:
        return (int)(x & 1);
    default:
        return 1 ^ (int)(x & 1);
    }
}

/* sigma^i_j of member i of a group whose head has kind a */
static int sigma(int64_t r, int a, int64_t i, int64_t j)
{
    return i + j < r ? tbit(a, i + j) ^ (int)(i & 1) : 1 ^ (int)((r - 1 - j) & 1);
}

typedef struct {
    int kind;
    int64_t lat;
} Child;

/* The down heads a group with head kind a may feed (into out), and their number. */
static int down_options(int64_t r, Child *out)
{
    int n = 0;
    out[n++] = (Child){ r % 2 == 0 ? TY_W : TY_NW, 2 * r };
    if (r == 1)
        out[n++] = (Child){ TY_Z, 1 };
    return n;
}

static int right_options(int64_t r, int a, Child *out)
{
    /* sigma'_j = K - g_j, g_j = a_j xor (j odd): K = 1 always; K = 0 iff g == 0 (-> Z),
     * K = 2 iff g == 1 (-> O) */
    bool g0 = true, g1 = true;
    for (int64_t j = 0; j < r && j < 2; j++) {
        int g = tbit(a, j) ^ (int)(j & 1);
        g0 &= g == 0;
        g1 &= g == 1;
    }
    static const int k1[NTY] = { TY_NW, TY_W, TY_O, TY_Z };
    int n = 0;
    if (g0)
        out[n++] = (Child){ TY_Z, 2 * r };
    out[n++] = (Child){ k1[a], 2 * r + 1 };
    if (g1)
        out[n++] = (Child){ TY_O, 2 * r + 2 };
    return n;
}

typedef struct {
    int64_t r, j0, P;
    int64_t nT;          /* T = 0..nT-1 tabulated */
    int64_t *N;          /* N[T*NTY + a] (saturating) */
    int8_t *ch;          /* ch[T*NTY + a]: down*3 + right option, -1 none */
} Dp;

#define DP_SAT (INT64_C(1) << 60)

static int64_t f_of(const Dp *p, int a, int64_t i)
{
    return 2 * i + 2 * p->j0 + 1 - sigma(p->r, a, i, p->j0);
}

static int64_t Nof(const Dp *p, int a, int64_t T)
{
    return T < 0 ? 0 : p->N[T * NTY + a];
}

/* members counted at budget T (the root's member 0 always) */
static int64_t members_at(const Dp *p, int a, int64_t T, bool root)
{
    int64_t m = 0;
    while (m < p->r && ((root && m == 0) || f_of(p, a, m) <= T))
        m++;
    return m;
}

/* The best children of a full group with head kind a at budget T: value, choice. */
static int64_t best_children(const Dp *p, int a, int64_t T, int *choice)
{
    Child dn[2], rt[3];
    int nd = down_options(p->r, dn), nr = right_options(p->r, a, rt);
    int64_t best = 0;
    *choice = -1;
    for (int x = 0; x < nd; x++)
        for (int y = 0; y < nr; y++) {
            int64_t v = Nof(p, dn[x].kind, T - dn[x].lat) + Nof(p, rt[y].kind, T - rt[y].lat);
            if (v > DP_SAT)
                v = DP_SAT;
            if (v > best) {
                best = v;
                *choice = x * 3 + y;
            }
        }
    return best;
}

static int64_t root_count(const Dp *p, int a, int64_t T)
{
    int64_t m = members_at(p, a, T, true);
    int c;
    return m < p->r ? m : m + best_children(p, a, T, &c);
}

/* Tabulate N up to the first T where some root kind reaches P, then on until every kind does
 * (T_0(a) for each a into t0[]). */
static bool dp_make(Dp *p, int64_t P, int64_t r, int64_t j0, int64_t t0[NTY])
{
    memset(p, 0, sizeof *p);
    p->r = r;
    p->j0 = j0;
    p->P = P;
    int64_t cap = 64;
    for (int a = 0; a < NTY; a++)
        t0[a] = -1;
    for (int64_t T = 0;; T++) {
        if (T >= p->nT) {
            int64_t nc = p->nT ? p->nT * 2 : cap;
            int64_t *N = realloc(p->N, (size_t)(nc * NTY) * sizeof *N);
            if (!N)
                return false;
            p->N = N;
            int8_t *ch = realloc(p->ch, (size_t)(nc * NTY));
            if (!ch)
                return false;
            p->ch = ch;
            p->nT = nc;
        }
        for (int a = 0; a < NTY; a++) {
            int64_t m = members_at(p, a, T, false);
            int c = -1;
            int64_t v = m < r ? m : m + best_children(p, a, T, &c);
            p->N[T * NTY + a] = v > DP_SAT ? DP_SAT : v;
            p->ch[T * NTY + a] = (int8_t)c;
        }
        bool all = true;
        for (int a = 0; a < NTY; a++) {
            if (t0[a] < 0 && root_count(p, a, T) >= P)
                t0[a] = T;
            all &= t0[a] >= 0;
        }
        if (all)
            return true;
        if (T > 64 * r + 4096)   /* cannot happen: N grows at least by one every 2r+2 */
            return false;
    }
}

static void dp_free(Dp *p)
{
    free(p->N);
    free(p->ch);
}

static int64_t origin(int64_t r, int a)
{
    return r == 1 ? 2 : 2 + tbit(a, 1);
}

/* The root kind and its T_0 (least T_0 - o). */
static int root_kind(int64_t r, const int64_t t0[NTY])
{
    int best = 0;
    for (int a = 1; a < NTY; a++)
        if (t0[a] - origin(r, a) < t0[best] - origin(r, best))
            best = a;
    return best;
}

int64_t sanders_fdirect_latency(int64_t P, int64_t r, int64_t j0)
{
    if (P < 2 || r < 1 || j0 < 0 || j0 >= r)
        return -1;
    Dp p;
    int64_t t0[NTY];
    bool ok = dp_make(&p, P, r, j0, t0);
    dp_free(&p);
    if (!ok)
        return -1;
    int a = root_kind(r, t0);
    return t0[a] - origin(r, a) + 1;
}

int64_t sanders_fdirect_bound(int64_t P, int64_t r, int64_t s)
{
    if (s < 1 || r < 1 || P < 2)
        return -1;
    if (r >= P - 1)   /* the chain */
        return P == 2 ? s : P + 2 * s - 3;
    int64_t c = sanders_fdirect_latency(P, r, (s - 1) % r);
    return c < 0 ? -1 : c + (s - 1) / r * (2 * r + 1);
}

int64_t sanders_fdirect_steps(int64_t P, int64_t r, int64_t s)
{
    if (P < 2 || r < 1 || s < 1)
        return -1;
    if (P == 2)
        return s;
    if (P == 3 || r >= P - 1)   /* a chain */
        return P + 2 * s - 3;
    if (r == 1 && P <= 5)
        return 2 * s + (P == 5);
    if (s % r != 0 || s < 2 * r)
        return -1;
    return sanders_fdirect_bound(P, r, s);
}

/* ---- the tree ------------------------------------------------------------------------------ */

typedef struct {
    int kind;
    bool chain;              /* r >= P - 1: one line of P PUs one step apart, all pattern Z */
    int32_t nmem, first;     /* members: PUs first..first+nmem-1 */
    int32_t down, right;     /* child groups or -1 */
    int32_t parent;          /* -1 for the root */
    bool is_right;           /* the right child of its parent */
} Group;

typedef struct {
    int64_t r, q, j0, nr;    /* nr = q + 1 runs */
    Group *g;
    int32_t ng, gcap;
    int32_t *gid, *mem;      /* per tree PU: group, member index */
    int64_t *f;
    int32_t npu, pcap;
    int32_t *pos;            /* tree PU -> position (-1: cut away) */
    int32_t *pu;             /* position -> tree PU */
    int32_t n;               /* positions */
    int32_t *node;           /* position -> node */
    struct Prog *prog;       /* position -> what its program needs (progs_make) */
} Tree;

static void tree_free(Tree *t)
{
    free(t->g);
    free(t->gid);
    free(t->mem);
    free(t->f);
    free(t->pos);
    free(t->pu);
    free(t->node);
    free(t->prog);
}

static bool grow(Tree *t, int32_t need_g, int32_t need_p)
{
    if (t->ng + need_g > t->gcap) {
        int32_t nc = t->gcap ? t->gcap * 2 : 64;
        while (nc < t->ng + need_g)
            nc *= 2;
        Group *g = realloc(t->g, (size_t)nc * sizeof *g);
        if (!g)
            return false;
        t->g = g;
        t->gcap = nc;
    }
    if (t->npu + need_p > t->pcap) {
        int32_t nc = t->pcap ? t->pcap * 2 : 256;
        while (nc < t->npu + need_p)
            nc *= 2;
        int32_t *a = realloc(t->gid, (size_t)nc * sizeof *a);
        if (!a)
            return false;
        t->gid = a;
        a = realloc(t->mem, (size_t)nc * sizeof *a);
        if (!a)
            return false;
        t->mem = a;
        int64_t *f = realloc(t->f, (size_t)nc * sizeof *f);
        if (!f)
            return false;
        t->f = f;
        t->pcap = nc;
    }
    return true;
}

/* The subtree of a group with head kind a at period start t0 and budget T (depth first:
 * members, then the down subtree, then the right one); returns the group or -1. */
static int32_t build_group(Tree *t, const Dp *p, int a, int64_t t0, int64_t T, bool root,
                           int32_t parent, bool is_right, int depth)
{
    int64_t m = members_at(p, a, T, root);
    if (depth > 100000 || !grow(t, 1, (int32_t)m))
        return -2;
    int32_t g = t->ng++;
    t->g[g] = (Group){ .kind = a, .nmem = (int32_t)m, .first = t->npu, .down = -1,
                       .right = -1, .parent = parent, .is_right = is_right };
    for (int64_t i = 0; i < m; i++) {
        int32_t x = t->npu++;
        t->gid[x] = g;
        t->mem[x] = (int32_t)i;
        t->f[x] = root && i == 0 ? INT64_MIN : t0 + f_of(p, a, i);
    }
    int c = m < p->r ? -1 : p->ch[T * NTY + a];
    if (root && m == p->r) {
        int cc;
        best_children(p, a, T, &cc);
        c = cc;
    }
    if (c < 0)
        return g;
    Child dn[2], rt[3];
    down_options(p->r, dn);
    right_options(p->r, a, rt);
    Child d = dn[c / 3], r = rt[c % 3];
    if (Nof(p, d.kind, T - d.lat) > 0) {
        int32_t x = build_group(t, p, d.kind, t0 + d.lat, T - d.lat, false, g, false, depth + 1);
        if (x < -1)
            return x;
        t->g[g].down = x;
    }
    if (Nof(p, r.kind, T - r.lat) > 0) {
        int32_t x = build_group(t, p, r.kind, t0 + r.lat, T - r.lat, false, g, true, depth + 1);
        if (x < -1)
            return x;
        t->g[g].right = x;
    }
    return g;
}

/* ---- the cut: a heap of (f, PU) ------------------------------------------------------------ */

static bool less(const Tree *t, int32_t x, int32_t y)
{
    return t->f[x] < t->f[y] || (t->f[x] == t->f[y] && x < y);
}

static void heap_push(const Tree *t, int32_t *h, int32_t *n, int32_t x)
{
    int32_t i = (*n)++;
    h[i] = x;
    while (i > 0 && less(t, h[i], h[(i - 1) / 2])) {
        int32_t up = (i - 1) / 2, tmp = h[up];
        h[up] = h[i];
        h[i] = tmp;
        i = up;
    }
}

static int32_t heap_pop(const Tree *t, int32_t *h, int32_t *n)
{
    int32_t top = h[0];
    h[0] = h[--*n];
    int32_t i = 0;
    for (;;) {
        int32_t a = 2 * i + 1, b = a + 1, m = i;
        if (a < *n && less(t, h[a], h[m]))
            m = a;
        if (b < *n && less(t, h[b], h[m]))
            m = b;
        if (m == i)
            break;
        int32_t tmp = h[m];
        h[m] = h[i];
        h[i] = tmp;
        i = m;
    }
    return top;
}

static bool cut(Tree *t, int32_t P)
{
    int32_t *need = malloc((size_t)t->npu * sizeof *need), *h = malloc((size_t)t->npu * sizeof *h);
    t->pos = malloc((size_t)t->npu * sizeof *t->pos);
    t->pu = malloc((size_t)P * sizeof *t->pu);
    if (!need || !h || !t->pos || !t->pu) {
        free(need);
        free(h);
        return false;
    }
    for (int32_t x = 0; x < t->npu; x++) {
        const Group *g = &t->g[t->gid[x]];
        t->pos[x] = -1;
        need[x] = t->mem[x] > 0 ? 1 : g->parent < 0 ? 0 : g->is_right ? (int32_t)t->r : 1;
    }
    int32_t nh = 0;
    heap_push(t, h, &nh, 0);
    t->n = 0;
    while (t->n < P && nh > 0) {
        int32_t x = heap_pop(t, h, &nh);
        t->pos[x] = t->n;
        t->pu[t->n++] = x;
        const Group *g = &t->g[t->gid[x]];
        int32_t nxt = -1;
        if (t->mem[x] + 1 < g->nmem)
            nxt = x + 1;
        else if (t->mem[x] == t->r - 1 && g->down >= 0)
            nxt = t->g[g->down].first;
        if (nxt >= 0 && --need[nxt] == 0)
            heap_push(t, h, &nh, nxt);
        if (g->right >= 0 && --need[t->g[g->right].first] == 0)
            heap_push(t, h, &nh, t->g[g->right].first);
    }
    free(need);
    free(h);
    return t->n == P;
}

/* r >= P - 1: one group holds every PU (as the duplex tree is the chain there), and with no
 * right head to feed its members need not be two steps apart: all of pattern Z (send first),
 * one step apart, they alternate receive and send — the simplex chain, P + 2s - 3 steps. */
static bool chain_tree(Tree *t, int32_t P)
{
    if (!grow(t, 1, P))
        return false;
    t->ng = 1;
    t->g[0] = (Group){ .kind = TY_Z, .chain = true, .nmem = P, .first = 0, .down = -1,
                       .right = -1, .parent = -1 };
    t->pos = malloc((size_t)P * sizeof *t->pos);
    t->pu = malloc((size_t)P * sizeof *t->pu);
    if (!t->pos || !t->pu)
        return false;
    for (int32_t x = 0; x < P; x++) {
        t->gid[x] = 0;
        t->mem[x] = x;
        t->f[x] = x;
        t->pos[x] = t->pu[x] = x;
    }
    t->npu = t->n = P;
    return true;
}

/* ---- the programs -------------------------------------------------------------------------- */

static int64_t runlen(const Tree *t, int64_t m)
{
    return m < t->q ? t->r : t->j0 + 1;
}

/* position of tree PU x, -1 if cut away or none */
static int32_t posof(const Tree *t, int32_t x)
{
    return x < 0 ? -1 : t->pos[x];
}

static int32_t down_succ(const Tree *t, int32_t x)
{
    const Group *g = &t->g[t->gid[x]];
    if (t->mem[x] + 1 < g->nmem && (g->chain || t->mem[x] + 1 < t->r))
        return posof(t, x + 1);
    if (t->mem[x] == t->r - 1 && g->down >= 0)
        return posof(t, t->g[g->down].first);
    return -1;
}

static int32_t right_succ(const Tree *t, int32_t x)
{
    const Group *g = &t->g[t->gid[x]];
    return g->right >= 0 ? posof(t, t->g[g->right].first) : -1;
}

/* What next_op needs of the PU at a position, gathered once (one record read per operation
 * instead of the tree's arrays at random). */
enum { PROG_CHAIN = 1, PROG_ROOT = 2, PROG_RIGHT = 4 };
typedef struct Prog {
    int32_t down, right;     /* down_succ, right_succ */
    int32_t feed;            /* feeder: its position, or (PROG_RIGHT) the parent's first PU */
    int32_t i;               /* member index */
    uint8_t a, flags;        /* the group's kind; PROG_* */
} Prog;

static bool progs_make(Tree *t)
{
    t->prog = malloc((size_t)(t->n > 0 ? t->n : 1) * sizeof *t->prog);
    if (!t->prog)
        return false;
    for (int32_t p = 0; p < t->n; p++) {
        int32_t x = t->pu[p];
        const Group *g = &t->g[t->gid[x]];
        Prog *q = &t->prog[p];
        q->down = down_succ(t, x);
        q->right = right_succ(t, x);
        q->i = t->mem[x];
        q->a = (uint8_t)g->kind;
        q->flags = (uint8_t)((g->chain ? PROG_CHAIN : 0) |
                             (t->gid[x] == 0 && t->mem[x] == 0 ? PROG_ROOT : 0));
        q->feed = -1;
        if (t->mem[x] > 0) {
            q->feed = t->pos[x - 1];
        } else if (g->parent >= 0) {
            const Group *par = &t->g[g->parent];
            if (g->is_right) {
                q->feed = par->first;
                q->flags |= PROG_RIGHT;
            } else {
                q->feed = t->pos[par->first + t->r - 1];
            }
        }
    }
    return true;
}

/* Who feeds the PU packet m r + j (j < r): member i-1 of its group, or for a head the
 * parent group's member r-1 (a down head) or member j (a right head). */
static int32_t prog_feeder(const Tree *t, const Prog *q, int64_t j)
{
    return q->flags & PROG_RIGHT ? t->pos[q->feed + j] : q->feed;
}

static bool next_op(const void *ctx, int32_t p, int64_t *cursor, RdvOp *op)
{
    const Tree *t = ctx;
    const Prog *q = &t->prog[p];
    int64_t r = t->r, L = 2 * r + 1, i = q->i;
    bool root = q->flags & PROG_ROOT, chain = q->flags & PROG_CHAIN;
    int a = q->a;
    /* the cursor: run m and slot in it, m << 32 | slot (no division per operation) */
    for (int64_t m = *cursor >> 32, slot = *cursor & UINT32_MAX;;
         slot = slot + 1 < L ? slot + 1 : 0, m += slot == 0) {
        if (m > t->nr)
            return false;
        int32_t to = -1, from = -1;
        int64_t pk = 0;
        if (slot == 2 * r) {   /* the lone sendDown */
            if (m < t->nr) {
                to = q->down;
                pk = m * r + runlen(t, m) - 1;
            }
        } else {
            int64_t k = slot / 2;
            bool send_half = (slot % 2) == (chain ? 0 : sigma(r, a, i, k));   /* 0: send first */
            if (send_half && k == 0) {          /* sendRight, packet i of the last run */
                if (m > 0 && i < runlen(t, m - 1)) {
                    to = q->right;
                    pk = (m - 1) * r + i;
                }
            } else if (send_half) {             /* sendDown packet k-1 */
                if (m < t->nr && k - 1 < runlen(t, m) - 1) {
                    to = q->down;
                    pk = m * r + k - 1;
                }
            } else if (m < t->nr && k < runlen(t, m) && !root) {
                pk = m * r + k;
                from = prog_feeder(t, q, k);   /* (pk mod r = k) */
            }
        }
        if (to >= 0 || from >= 0) {
            *op = (RdvOp){ .send = to >= 0, .peer = to >= 0 ? to : from, .pk = (uint32_t)pk };
            int64_t ns = slot + 1 < L ? slot + 1 : 0;
            *cursor = (m + (ns == 0)) << 32 | ns;
            return true;
        }
    }
}

/* ---- the algorithm ------------------------------------------------------------------------- */

#define FD_MAX_R 4096
#define FD_MAX_TRANSFERS (INT64_C(1) << 23)
#define FD_MAX_WORK (INT64_C(1) << 31)

static int64_t group_size(const AlgoDef *d, const Net *net, const AlgoArgs *a)
{
    double r = algo_param(d, a, "r");
    if (r == ALGO_AUTO)   /* the duplex paper's r on half as many PUs (simplex: half speed) */
        return sanders_paper_r(net_size(net) < 2 ? 2 : net_size(net),
                               a->cost.beta * (double)a->bytes, a->cost.t);
    return r >= 1 ? (int64_t)r : 1;
}

static uint32_t packets_on(const AlgoDef *d, const Net *net, const AlgoArgs *a)
{
    double v = algo_param(d, a, "s");
    uint64_t s;
    if (v == ALGO_AUTO) {
        /* T = (D + s(2r+1)/r)(t + k/s), D the steps of one run: s = sqrt(k D r / (t(2r+1))) */
        int64_t r = group_size(d, net, a), P = net_size(net) < 2 ? 2 : net_size(net);
        double k = a->cost.beta * (double)a->bytes, t = a->cost.t;
        double D = (double)sanders_fdirect_latency(P, r, r - 1);
        double x = t > 0 ? sqrt(k * D * (double)r / (t * (double)(2 * r + 1))) : (double)a->bytes;
        s = x < 1 ? 1 : x > (1 << 20) ? (1 << 20) : (uint64_t)llround(x);
    } else
        s = v >= 1 ? (uint64_t)v : 1;
    return (uint32_t)(s < a->bytes ? s : a->bytes);
}

static bool fd_fits(const AlgoDef *d, const Net *net, const AlgoArgs *a, char *err,
                    size_t errlen)
{
    if (!sanders_params_whole(d, a, err, errlen))
        return false;
    int64_t P = net_size(net), r = group_size(d, net, a);
    if (r > FD_MAX_R) {
        snprintf(err, errlen, "%s: r=%lld is more than %d", d->name, (long long)r, FD_MAX_R);
        return false;
    }
    int64_t s = packets_on(d, net, a);
    int64_t b = sanders_fdirect_bound(P < 2 ? 2 : P, r, s);
    if ((P - 1) * s > FD_MAX_TRANSFERS || b < 0 || b * P > FD_MAX_WORK) {
        snprintf(err, errlen, "%s on %s with r=%lld s=%lld is too large (%lld transfers, at "
                 "most %lld)", d->name, net_spec(net), (long long)r, (long long)s,
                 (long long)((P - 1) * s), (long long)FD_MAX_TRANSFERS);
        return false;
    }
    return true;
}

static uint32_t fd_nchunks(const AlgoDef *d, const Net *net, const AlgoArgs *a)
{
    return packets_on(d, net, a);
}

static int32_t position_node(const Net *net, int32_t source, int64_t pos)
{
    int32_t dims[NET_MAXDIM];
    int nd = net_kind(net) == NET_FULL ? 1 : net_ndim(net);
    for (int i = 0; i < nd; i++)
        dims[i] = net_dim(net, i);
    int64_t n = net_size(net);
    int64_t sp = nd == 1 ? source : sanders_order_pos(dims, nd, source);
    int64_t q = (sp + pos) % n;
    return nd == 1 ? (int32_t)q : sanders_order_node(dims, nd, q);
}

static bool fd_build(const AlgoDef *d, Sched *s, const AlgoArgs *a)
{
    const Net *net = sched_net(s);
    int64_t P = net_size(net), np = sched_nchunks(s), r = group_size(d, net, a);
    if (P < 2)
        return true;
    Tree t = { .r = r, .q = (np - 1) / r, .j0 = (np - 1) % r };
    t.nr = t.q + 1;
    bool ok;
    if (r >= P - 1) {   /* the chain (chain_tree) */
        ok = chain_tree(&t, (int32_t)P);
    } else {
        Dp p;
        int64_t t0[NTY];
        ok = dp_make(&p, P, r, t.j0, t0);
        if (ok) {
            int kind = root_kind(r, t0);
            ok = build_group(&t, &p, kind, 0, t0[kind], true, -1, false, 0) >= 0 &&
                 cut(&t, (int32_t)P);
        }
        dp_free(&p);
    }
    if (ok) {
        t.node = malloc((size_t)P * sizeof *t.node);
        ok = t.node != NULL;
        for (int64_t x = 0; ok && x < P; x++)
            t.node[x] = position_node(net, a->source, x);
        ok = ok && progs_make(&t);
    }
    if (!ok) {
        tree_free(&t);
        sched_fail(s, "out of memory laying out the tree");
        return false;
    }
    char label[96];
    snprintf(label, sizeof label, "fractional tree r=%lld (simplex, direct)", (long long)r);
    RdvRun run = { .n = (int32_t)P, .node = t.node, .next = next_op, .ctx = &t,
                   .label = label, .max_steps = FD_MAX_WORK / P };
    int64_t steps = rdv_run(s, &run);
    tree_free(&t);
    return steps >= 0;
}

/* The closed form into *total, or false with why there is none into why (when not NULL). */
/* The closed form into *total, or false with why there is none into why (when not NULL). */
static bool fd_closed(const AlgoDef *d, const Net *net, const AlgoArgs *a, const CostParams *p,
                      double *total, char *why, size_t len)
{
    int64_t P = net_size(net), np = packets_on(d, net, a), r = group_size(d, net, a);
    int64_t steps = sanders_fdirect_steps(P, r, np);
    if (steps < 0)
        return sanders_why(why, len, "the closed form needs s a multiple of r and at least 2r "
                           "(here r=%lld s=%lld): with one run or a shorter last run some PUs "
                           "finish a step or two early, docs/errata.md", (long long)r,
                           (long long)np);
    return sanders_price(net, p, a->bytes, np, (double)steps, total, why, len);
}

static bool fd_predict(const AlgoDef *d, const Net *net, const AlgoArgs *a, const CostParams *p,
                       double *total)
{
    return fd_closed(d, net, a, p, total, NULL, 0);
}

static bool fd_predict_none(const AlgoDef *d, const Net *net, const AlgoArgs *a,
                            const CostParams *p, char *why, size_t len)
{
    double t;
    return !fd_closed(d, net, a, p, &t, why, len);
}

static const AlgoParam fd_params[] = {
    {"r", 2, ALGO_AUTO, FD_MAX_R,
     "group size: PUs per group (1: the direct binary tree; auto: the paper's r)"},
    {"s", 8, ALGO_AUTO, 1 << 20, "packets the message is cut into (auto: the paper's s)"},
};

const AlgoDef algo_fractional_direct = {
    .name = "fractional-direct",
    .summary = "fractional tree for simplex ports, directly: Fig. 2 with each send|recv split, "
               "2r+1 steps a run",
    .ref = "Sanders & Sibeyn 3 (the direct simplex implementation, 2r+1 steps per run)",
    .nets = (1u << NET_ARRAY) | (1u << NET_RING) | (1u << NET_MESH) | (1u << NET_TORUS) |
            (1u << NET_FULL) | (1u << NET_HXBAR),
    .params = fd_params,
    .nparams = 2,
    .fits = fd_fits,
    .nchunks = fd_nchunks,
    .build = fd_build,
    .predict = fd_predict,
    .predict_none = fd_predict_none,
};
