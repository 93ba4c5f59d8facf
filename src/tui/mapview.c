/* mapview.c — the map of a grid-laid net: nodes, links, labels, pan hints (see mapview.h). */
#include "mapview.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../algos/cangwu/cangwu.h"
#include "../engine/circuit.h"
#include "draw-text.h"
#include "grade.h"
#include "theme.h"

/* The map's state for one frame: what it was given and what the frame derives from it. */
typedef struct {
    const Net *net;
    const Layout *L;
    const Glyphs *g;
    Sim *sim;
    int32_t step;
    const int32_t *sends, *recvs;
    const int32_t *loads;  /* every link's load in the step, when cheap enough (else NULL) */
    int32_t cap;
    uint32_t nchunks;
    const LessonPage *page;
    const int32_t *sources;  /* s-to-p: the sorted source nodes (marked '@'), nsources > 1 */
    int32_t nsources;
    bool eyes;           /* Cang & Wu: mark the eyes (tcd, tcd-opt on a 2^k mesh or torus) */
    bool tiles;          /* the broadcast tree's tiles (tileview.h) */
    TileView *tv;
    TileSrc tsrc;        /* what they are drawn from */
    const AsyncView *av; /* the asynchronous time line's moment (asynctl.h), or NULL */
    bool allport;        /* circuit on a grid: a node may use every port at once */
    const Partials *partials;  /* a reduction's (counted at pos), or NULL */
    int32_t pos;
    int32_t cursor;
    int64_t sel_link;
    PortMarks *pm;       /* all-port: the nodes with a port conflict */
    long gen;
} MapCtx;

/* What the map shows of a link and a node: the lockstep step's, or the moment's. */
static int32_t map_load(const MapCtx *m, int64_t l)
{
    if (l < 0 || m->step < 0) return 0;
    return m->av ? asyncview_link_load(m->av, l) : sim_link_load(m->sim, m->step, l);
}

/* All-port (circuit on a grid): does a port of node n carry more than one circuit (two that
 * start at n through one out-port, or end at n through one in-port: the engine's count)? */
static bool port_shared(const MapCtx *m, int32_t n)
{
    return portmarks_node(m->pm, sim_sched(m->sim), m->gen, m->step, n);
}

static uint64_t map_held(const MapCtx *m, int32_t n)
{
    return m->av ? asyncview_held(m->av, n) : sim_held(m->sim, n);
}

/* What node n holds where its cell tells only empty, partial or full (one column, one source,
 * no reduction, no time line): its count, or 1 for any partial set of two ranges or more
 * (sorted and disjoint, sim.h's holdings: a gap after the first means a chunk missing), so
 * that the ranges between are not counted (a node of rh's distribution holds up to 2^18). */
static uint64_t map_held_role(const MapCtx *m, int32_t n)
{
    size_t nr;
    const ChunkRange *r = sim_holdings(m->sim, n, &nr);
    if (nr >= 2 && r[0].lo < r[0].hi && r[0].hi < r[1].lo) return 1;
    return nr == 1 ? (uint64_t)(r[0].hi - r[0].lo) : nr == 0 ? 0 : sim_held(m->sim, n);
}

static bool map_holds(const MapCtx *m, int32_t n, uint32_t c)
{
    return m->av ? asyncview_holds(m->av, n, c) : sim_holds(m->sim, n, c);
}

static bool map_recv(const MapCtx *m, int32_t n)
{
    return m->av ? asyncview_receiving(m->av, n) > 0 : m->recvs && m->recvs[n] > 0;
}

static bool is_source(const MapCtx *m, int32_t n)
{
    int32_t lo = 0, hi = m->nsources;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (m->sources[mid] < n) lo = mid + 1;
        else hi = mid;
    }
    return lo < m->nsources && m->sources[lo] == n;
}

/* A node's base role: full, partial or empty; with s sources its grade by the messages it
 * holds (grade.h).  *grade gets the grade (-1 without s-to-p). */
static Role held_role(const MapCtx *m, uint64_t held, int *grade)
{
    uint64_t all = m->nchunks;
    *grade = -1;
    if (m->nsources <= 1) return held >= all ? R_FULL : held > 0 ? R_PARTIAL : R_EMPTY;
    uint64_t s = (uint64_t)m->nsources;
    *grade = grade_of(held * s / all, s, held > 0);
    static const Role roles[GRADE_N] = {R_EMPTY, R_G1, R_G2, R_G3, R_FULL};
    return roles[*grade];
}

static bool page_has_node(const LessonPage *p, int32_t n)
{
    if (!p) return false;
    for (size_t i = 0; i < p->nnodes; i++) if (p->nodes[i] == n) return true;
    return false;
}

static bool page_has_link(const LessonPage *p, int64_t l)
{
    if (!p) return false;
    for (size_t i = 0; i < p->nlinks; i++) if (p->links[i] == l) return true;
    return false;
}

/* Draw a link piece of width w (horizontal) or height 1 at one column (vertical) for the two
 * directed links lp (+ direction: right/down) and lm (- direction). */
static void draw_link(const MapCtx *m, int y, int x, int w, bool vertical, int64_t lp, int64_t lm)
{
    if (w <= 0) return;
    const Glyphs *g = m->g;
    /* one link at a time: nothing proportional to the whole net per frame or step */
    int32_t kp = map_load(m, lp);
    int32_t km = map_load(m, lm);
    bool over = kp > m->cap || km > m->cap;
    int32_t kmax = kp > km ? kp : km;
    /* Cang & Wu: an idle link between two quadrants of the current level is left out, so the
     * quadrants stand apart on the map */
    if (m->eyes && lp >= 0 && !kp && !km) {
        int32_t ln;
        int ld, ldir;
        net_link_info(m->net, lp, &ln, &ld, &ldir);
        if (ldir > 0 && cangwu_quadrant_edge(m->net, sched_source(sim_sched(m->sim)), m->step,
                                             ln, ld)) {
            for (int i = 0; i < w; i++)
                draw_put(y, x + i, 1, theme_attr(R_LINK), " ");
            return;
        }
    }
    Role r = over ? R_OVERLOAD : (kp || km) ? R_CIRCUIT : R_LINK;
    if (page_has_link(m->page, lp) || page_has_link(m->page, lm)) r = R_HILITE;
    if (m->sel_link >= 0 && (m->sel_link == lp || m->sel_link == lm)) r = R_CURSOR;
    if (over && r != R_OVERLOAD) r = R_OVERLOAD;
    char digits[16] = "";   /* the load, written only when it shows (overloaded) */
    if (over) {
        snprintf(digits, sizeof digits, "%ld", (long)kmax);
        if (kmax > 9 && w < 3) snprintf(digits, sizeof digits, "+");
    }
    const char *head_p = vertical ? g->down : g->right;
    const char *head_m = vertical ? g->up : g->left;
    const char *both = vertical ? g->both_v : g->both_h;
    const char *line = vertical ? g->v_idle : g->h_line;
    const char *idle = vertical ? g->v_idle : g->h_idle;
    int attr = theme_attr(r);
    if (vertical || w == 1) {
        const char *s = over ? digits : (kp && km) ? both : kp ? head_p : km ? head_m : idle;
        draw_put(y, x, 1, attr, s);
        return;
    }
    /* horizontal, w >= 2: [tail ... head], digits in the middle when overloaded */
    for (int i = 0; i < w; i++) draw_put(y, x + i, 1, attr, (kp || km) ? line : idle);
    if (kp && km) {
        draw_put(y, x, 1, attr, head_m);
        draw_put(y, x + w - 1, 1, attr, head_p);
    } else if (kp) {
        draw_put(y, x + w - 1, 1, attr, head_p);
    } else if (km) {
        draw_put(y, x, 1, attr, head_m);
    }
    if (over) {
        int dl = (int)strlen(digits);
        if (dl > w - 1) { snprintf(digits, sizeof digits, "+"); dl = 1; }
        int dx = kp && !km ? x + w - 1 - dl : km && !kp ? x + 1 : x + (w - dl) / 2;
        if (w == 2) dx = kp && !km ? x : x + 1;
        draw_put(y, dx, dl, attr, digits);
    }
}

/* A vertical link h lines high: the line, with the head (or load) at the arrow's end. */
static void draw_vlink(const MapCtx *m, int y, int h, int x, int64_t lp, int64_t lm)
{
    if (h <= 1) {
        draw_link(m, y, x, 1, true, lp, lm);
        return;
    }
    int32_t kp = map_load(m, lp);
    int32_t km = map_load(m, lm);
    int head = km && !kp ? 0 : h - 1;
    Role r = kp > m->cap || km > m->cap ? R_OVERLOAD : (kp || km) ? R_CIRCUIT : R_LINK;
    for (int i = 0; i < h; i++) {
        if (i == head) draw_link(m, y + i, x, 1, true, lp, lm);
        else draw_put(y + i, x, 1, theme_attr(r), (kp || km) ? m->g->v_line : m->g->v_idle);
    }
}

/* Projector mode: the border lines above and below a tall cell, in the node's colours. */
static void draw_cell_border(const MapCtx *m, int32_t n, int x, int y)
{
    const Glyphs *g = m->g;
    uint64_t held = map_held(m, n);
    bool recv = map_recv(m, n);
    int grade;
    Role r = held_role(m, held, &grade);
    if (recv) r = R_RECV;
    if (n == m->cursor) r = R_CURSOR;
    int attr = theme_attr(r), cw = m->L->cw;
    for (int i = 0; i < cw; i++) {
        draw_put(y, x + i, 1, attr, i == 0 ? g->btl : i == cw - 1 ? g->btr : g->bh);
        draw_put(y + 2, x + i, 1, attr, i == 0 ? g->bbl : i == cw - 1 ? g->bbr : g->bh);
    }
}

/* A node's role before the marks: what it holds (a reduction: the contributions its partials
 * combine, of nodes * chunks: *part), a circuit leaving it when no links are drawn, its tile
 * (*tm: the tile's letter a..f, its centre O), receiving, a lesson page's node.  *held and
 * *all: what the cell counts; *grade: s-to-p's grade (held_role). */
static Role node_role(const MapCtx *m, int32_t n, uint64_t *held, uint64_t *all, bool *part,
                      int *grade, const char **tm)
{
    /* the count shows only in cells wider than one column, and in s-to-p's grades */
    bool role_only = !m->av && !m->partials && m->nsources <= 1 && m->L->cw == 1;
    *held = role_only ? map_held_role(m, n) : map_held(m, n);
    *all = m->nchunks;
    *grade = 0;
    *part = !m->av && m->partials;
    Role r;
    if (*part) {
        *held = (uint64_t)partials_count(m->partials, m->pos, n);
        *all = (uint64_t)partials_full(m->partials);
        r = *held >= *all ? R_FULL : *held > m->nchunks ? R_PARTIAL : R_EMPTY;
    } else {
        r = held_role(m, *held, grade);
    }
    if (m->L->hg == 0 && m->step >= 0) {
        /* no links drawn at this zoom: a node a circuit leaves shows the route's colour */
        int per = 2 * net_ndim(m->net);
        if (m->sends && m->sends[n] > 0 && !net_pairwise(m->net)) {
            r = R_CIRCUIT;   /* a sender: its circuit's first arc leaves it (never to itself) */
        } else if (m->loads) {
            for (int k = 0; k < per && r != R_CIRCUIT; k++)
                if (m->loads[(int64_t)n * per + k] > 0) r = R_CIRCUIT;
        } else {
            for (int d = 0; d < net_ndim(m->net) && r != R_CIRCUIT; d++)
                for (int dir = -1; dir <= 1; dir += 2)
                    if (net_neighbor(m->net, n, d, dir) >= 0 &&
                        map_load(m, net_link(m->net, n, d, dir)) > 0)
                        r = R_CIRCUIT;
        }
    }
    /* tiles: the tile's colour and letter (a..f), its centre O */
    int tcol = 0;
    bool tcentre = false;
    bool tile = m->tiles && tileview_node(m->tv, &m->tsrc, n, &tcol, &tcentre);
    static const Role tileroles[6] = {R_C1, R_C2, R_C3, R_C4, R_C5, R_C6};
    static const char *const tilemark[6] = {"a", "b", "c", "d", "e", "f"};
    *tm = tile ? (tcentre ? "O" : tilemark[tcol]) : NULL;
    if (tile) r = tileroles[tcol];
    if (map_recv(m, n)) r = R_RECV;
    if (page_has_node(m->page, n)) r = R_HILITE;
    return r;
}

/* The inner columns of a cell: a glyph per packet when they fit, else the grade's glyph (one
 * column), else "held/all" (s-to-p: messages of s), a percentage, or glyphs full or empty. */
static void node_content(const MapCtx *m, int32_t n, uint64_t held, uint64_t all, bool part,
                         int grade, int inner, char *content, size_t len)
{
    const Glyphs *g = m->g;
    content[0] = '\0';
    if (!part && all <= (uint64_t)inner && inner > 1) {
        /* one glyph per packet */
        size_t o = 0;
        int pad = (inner - (int)all) / 2;
        for (int i = 0; i < pad; i++) content[o++] = ' ';
        for (uint32_t c = 0; c < all; c++) {
            const char *s = map_holds(m, n, c) ? g->pk_have : g->pk_miss;
            size_t l = strlen(s);
            memcpy(content + o, s, l);
            o += l;
        }
        for (int i = pad + (int)all; i < inner; i++) content[o++] = ' ';
        content[o] = '\0';
        return;
    }
    if (inner == 1) {
        /* s-to-p: the grade's glyph (shade or digit), else full, partial or empty */
        const char *c = held >= all ? g->full : held == 0 ? g->empty
                        : grade > 0 ? g->grade[grade - 1] : g->partial;
        size_t l = strlen(c);   /* (a glyph: a few bytes) */
        if (l >= len) l = len - 1;
        memcpy(content, c, l);
        content[l] = '\0';
        return;
    }
    char t[32];
    if (m->nsources > 1)   /* s-to-p: how many of the s messages (held chunks * s / all) */
        snprintf(t, sizeof t, "%llu/%ld", (unsigned long long)(held * (uint64_t)m->nsources / all),
                 (long)m->nsources);
    else
        snprintf(t, sizeof t, "%llu/%llu", (unsigned long long)held, (unsigned long long)all);
    if ((int)strlen(t) > inner) {
        if (held >= all) snprintf(t, sizeof t, "%s", "");
        else if (held == 0) snprintf(t, sizeof t, "%s", "");
        else {
            int pct = (int)(100.0 * (double)held / (double)all);
            if (pct < 1) pct = 1;
            if (pct > 99) pct = 99;
            snprintf(t, sizeof t, "%d%%", pct);
        }
    }
    if (!t[0]) {
        /* full or empty with no room for a fraction: glyphs */
        size_t o = 0;
        for (int i = 0; i < inner; i++) {
            const char *s = held ? g->pk_have : g->pk_miss;
            size_t l = strlen(s);
            memcpy(content + o, s, l);
            o += l;
        }
        content[o] = '\0';
    } else {
        int tl = (int)strlen(t), pad = (inner - tl) / 2;
        snprintf(content, len, "%*s%s%*s", pad, "", t, inner - tl - pad, "");
    }
}

static void draw_node(const MapCtx *m, int32_t n, int x, int y)
{
    const Glyphs *g = m->g;
    bool recv = map_recv(m, n);
    bool conflict = (m->sends && m->sends[n] > 1) || (m->recvs && m->recvs[n] > 1);
    if (conflict && m->allport)   /* several circuits, one per port: no conflict */
        conflict = port_shared(m, n);
    bool cursor = n == m->cursor;
    uint64_t held, all;
    bool part;
    int grade;
    const char *tm;
    Role r = node_role(m, n, &held, &all, &part, &grade, &tm);
    if (conflict) r = R_CONFLICT;
    int attr = theme_attr(r);
    char content[64];
    int cw = m->L->cw, inner = cw >= 8 ? cw - 3 : cw >= 4 ? cw - 1 : cw;
    node_content(m, n, held, all, part, grade, inner, content, sizeof content);
    bool src = m->nsources > 1 && is_source(m, n);
    /* the eyes: E of the whole mesh, e of the quadrants the current level informs */
    int eye = m->eyes ? cangwu_eye_mark(m->net, sched_source(sim_sched(m->sim)), m->step, n) : 0;
    const char *em = eye == 2 ? "E" : eye == 1 ? "e" : NULL;
    int eattr = theme_attr(R_HEAD);
    if (cw >= 8) {
        /* [0] cursor, [1] receiving, [2..] packets, [cw-1] conflict, cursor or eye */
        int cattr = theme_attr(R_CURSOR);
        draw_put(y, x, 1, cursor ? cattr : attr, cursor ? "[" : " ");
        draw_put(y, x + 1, 1, attr, recv ? g->recv_mark : src ? "@" : " ");
        draw_put_cut(y, x + 2, inner, attr, content);
        draw_put(y, x + cw - 1, 1, conflict ? theme_attr(R_CONFLICT) : cursor ? cattr : em ? eattr : attr,
            conflict ? "!" : cursor ? "]" : em ? em : tm ? tm : " ");
    } else if (cw >= 4) {
        /* [0] cursor, conflict or receiving mark, [1..] content */
        const char *m = cursor ? "[" : conflict ? "!" : recv ? g->recv_mark : em ? em : src ? "@" :
                        tm ? tm : " ";
        draw_put(y, x, 1, cursor ? theme_attr(R_CURSOR) : conflict ? theme_attr(R_CONFLICT) :
                     !recv && em ? eattr : attr, m);
        draw_put_cut(y, x + 1, inner, attr, content);
    } else {
        if (cursor) attr = theme_attr(R_CURSOR) | A_UNDERLINE;
        if (tm && !recv && !conflict) snprintf(content, sizeof content, "%-*s", cw, tm);
        draw_put_cut(y, x, cw, attr, content);
    }
}

/* The map's state for one frame (mapview_draw). */
static void map_ctx(const MapSrc *src, MapCtx *m)
{
    const Layout *L = src->L;
    memset(m, 0, sizeof *m);
    m->net = src->net;
    m->L = L;
    m->g = theme_glyphs();
    m->sim = src->sim;
    m->step = src->step;
    m->nchunks = sched_nchunks(sim_sched(src->sim));
    m->sources = src->sources;
    m->nsources = src->sources ? src->nsources : 0;
    m->eyes = src->eyes;
    m->tv = src->tv;
    m->tiles = src->tv && tileview_level(src->tv) > 0;
    m->tsrc = src->tsrc;
    m->partials = src->partials;
    m->pos = src->pos;
    m->cursor = src->cursor;
    m->sel_link = src->sel_link;
    m->pm = src->pm;
    m->gen = src->gen;
    const CostParams *cp = sim_params(m->sim);
    m->cap = cp->model == COST_SEIDEL ? (1 << cp->nu) : 1;
    m->allport = cp->model == COST_CIRCUIT && !net_pairwise(m->net);
    m->page = src->page;
    m->av = src->av;
    if (m->av) {
        /* the time line: the moment's circuits and holdings, no lockstep step */
        m->step = 0;
    } else if (m->step >= 0) {
        sim_port_counts(m->sim, m->step, &m->sends, &m->recvs);
        const Net *nt = m->net;
        if (L->hg == 0 && net_nlinks(nt) <= (INT64_C(1) << 18) &&
            net_nlinks(nt) == 2 * (int64_t)net_ndim(nt) * net_size(nt))
            m->loads = sim_link_loads(m->sim, m->step);   /* computed once per step */
    }
}

/* The axis labels: grid columns above the map, rows (or modules) at its left. */
static void map_labels(const Layout *L, const Net *net)
{
    int nd = net_ndim(net);
    int dim_attr = theme_attr(R_DIM);
    if (L->label_h) {
        for (int gc = L->vis_c0; gc < L->vis_c0 + L->vis_cols; gc++) {
            int x = L->ox + (gc - L->vis_c0) * L->px, y = L->oy - L->my - 1;
            if (nd == 3) {
                int sc = L->slice_cols + 1;
                if (gc % sc == 0) draw_putf(y, x, L->px * L->slice_cols, dim_attr, "z=%d", gc / sc);
            } else if (L->cw >= 4) {
                char t[16];
                snprintf(t, sizeof t, "%d", gc);
                int tl = (int)strlen(t);
                draw_put_cut(y, x + (L->cw - tl) / 2, tl, dim_attr, t);
            } else if (gc % 10 == 0) {   /* narrow cells: every 10th column, left-aligned */
                char t[16];
                snprintf(t, sizeof t, "%d", gc);
                draw_put(y, x, (int)strlen(t), dim_attr, t);
            }
        }
    }
    if (L->label_w) {
        for (int gr = L->vis_r0; gr < L->vis_r0 + L->vis_rows; gr++) {
            int y = L->oy + (gr - L->vis_r0) * L->py + L->ch / 2;
            long v = nd == 1 ? (long)gr * L->per_row : gr;
            if (L->per_row > 0 && L->per_row == net_hxbar_per(net))   /* a module a row */
                draw_putf(y, L->ox - L->mx - L->label_w, L->label_w - 1, dim_attr, "%*sm%ld",
                     L->label_w - 2 - (int)snprintf(NULL, 0, "%ld", (long)gr), "", (long)gr);
            else
                draw_putf(y, L->ox - L->mx - L->label_w, L->label_w - 1, dim_attr, "%*ld",
                     L->label_w - 1, v);
        }
    }
}

/* The links of node n (grid row gr, column gc; its cell at x, ytop): to its neighbours along
 * the row, to the next slice of a 3-D net, and up and down the column. */
static void map_links(const MapCtx *m, int32_t n, int gr, int gc, int x, int ytop)
{
    const Layout *L = m->L;
    const Net *net = m->net;
    int nd = net_ndim(net);
    int hdim = nd - 1, vdim = nd >= 2 ? nd - 2 : -1;
    int y = ytop + L->ch / 2;           /* the node's line */
    if (L->hg > 0 && !net_pairwise(net)) {
        /* the horizontal link to the next node, or a stub when it is not adjacent */
        int32_t nb = nd == 1 ? (n + 1 < net_size(net) ? n + 1 : (net_wraps(net) ? 0 : -1))
                             : net_neighbor(net, n, hdim, 1);
        if (nd == 1 && net_size(net) == 1) nb = -1;
        if (nb >= 0) {
            int br, bc;
            layout_node_grid(L, net, nb, &br, &bc);
            bool adjacent = br == gr && bc == gc + 1;
            bool last_visible = gc + 1 >= L->vis_c0 + L->vis_cols;
            if (adjacent && last_visible) {
                /* the link leaves the window: draw it only if there is room */
                if (x + L->cw + L->hg <= L->map_x + L->map_w)
                    draw_link(m, y, x + L->cw, L->hg, false, net_link(net, n, hdim, 1),
                              net_link(net, nb, hdim, -1));
            } else {
                draw_link(m, y, x + L->cw, L->hg, false, net_link(net, n, hdim, 1),
                          net_link(net, nb, hdim, -1));
            }
        }
        int32_t pb = nd == 1 ? (n > 0 ? n - 1 : (net_wraps(net) ? net_size(net) - 1 : -1))
                             : net_neighbor(net, n, hdim, -1);
        if (nd == 1 && net_size(net) == 1) pb = -1;
        if (pb >= 0) {
            int br, bc;
            layout_node_grid(L, net, pb, &br, &bc);
            if (!(br == gr && bc == gc - 1))
                draw_link(m, y, x - L->hg, L->hg, false, net_link(net, pb, hdim, 1),
                          net_link(net, n, hdim, -1));
        }
    }
    if (nd == 3 && L->vg > 0 && L->cw >= 4 && m->step >= 0) {
        /* the link to the next slice (dim 0), under the cell: "z" and its direction
         * (towards the next slice: right head), or the load when overloaded */
        int32_t nz = net_neighbor(net, n, 0, 1);
        if (nz >= 0) {
            int64_t lp = net_link(net, n, 0, 1), lm = net_link(net, nz, 0, -1);
            if (map_load(m, lp) || map_load(m, lm)) {
                draw_put(ytop + L->ch, x + L->cw - 2, 1, theme_attr(R_CIRCUIT), "z");
                draw_link(m, ytop + L->ch, x + L->cw - 1, 1, false, lp, lm);
            }
        }
    }
    if (L->vg > 0 && vdim >= 0) {
        int vx = x + L->cw / 2;
        int32_t nb = net_neighbor(net, n, vdim, 1);
        if (nb >= 0) {
            int br, bc;
            layout_node_grid(L, net, nb, &br, &bc);
            bool visible_below = gr + 1 < L->vis_r0 + L->vis_rows || br != gr + 1;
            if (visible_below || ytop + L->ch < L->map_y + L->map_h)
                draw_vlink(m, ytop + L->ch, L->vg, vx, net_link(net, n, vdim, 1),
                           net_link(net, nb, vdim, -1));
        }
        int32_t pb = net_neighbor(net, n, vdim, -1);
        if (pb >= 0) {
            int br, bc;
            layout_node_grid(L, net, pb, &br, &bc);
            if (!(br == gr - 1 && bc == gc))
                draw_vlink(m, ytop - L->vg, L->vg, vx, net_link(net, pb, vdim, 1),
                           net_link(net, n, vdim, -1));
        }
    }
}

/* Pan hints: more of the map that way, only on blank cells, in glyphs no circuit uses. */
static void map_pan_hints(const Layout *L)
{
    int dim_attr = theme_attr(R_DIM);
    const Glyphs *g = theme_glyphs();
    if (L->vis_r0 > 0) draw_put_blank(L->map_y, L->map_x + L->map_w / 2, dim_attr, g->more_u);
    if (L->vis_r0 + L->vis_rows < L->grid_rows)
        draw_put_blank(L->map_y + L->map_h - 1, L->map_x + L->map_w / 2, dim_attr, g->more_d);
    if (L->vis_c0 > 0) draw_put_blank(L->map_y + L->map_h / 2, L->map_x, dim_attr, g->more_l);
    if (L->vis_c0 + L->vis_cols < L->grid_cols)
        draw_put_blank(L->map_y + L->map_h / 2, L->map_x + L->map_w - 1, dim_attr, g->more_r);
}

void mapview_draw(const MapSrc *src)
{
    const Layout *L = src->L;
    MapCtx m;
    map_ctx(src, &m);
    const Net *net = m.net;
    map_labels(L, net);
    for (int gr = L->vis_r0; gr < L->vis_r0 + L->vis_rows; gr++) {
        for (int gc = L->vis_c0; gc < L->vis_c0 + L->vis_cols; gc++) {
            int32_t n = layout_grid_node(L, net, gr, gc);
            if (n < 0) continue;
            int x, ytop;
            layout_cell_xy(L, gr, gc, &x, &ytop);
            int y = ytop + L->ch / 2;           /* the node's line */
            if (L->ch == 3) draw_cell_border(&m, n, x, ytop);
            draw_node(&m, n, x, y);
            map_links(&m, n, gr, gc, x, ytop);
        }
    }
    map_pan_hints(L);
}
