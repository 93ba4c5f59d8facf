/* lesson.c — guided lessons written in Lua (docs/writing-lessons.md).
 *
 * lesson_load runs the file in a sandbox (lua-sandbox.h), then copies its table into C
 * structures — inside the same protected call machinery, since reading a table may run
 * metamethods and copying allocates — and closes the state.  Everything is validated: a
 * malformed lesson is refused with "FILE: page N: what is wrong".
 *
 * Memory: every block the Lesson owns is registered in its arena the moment it is allocated,
 * so a Lua error half-way through copying leaks nothing (lesson_free frees the arena).
 */
#include "lesson.h"
#include "lesson-check.h"

#include "../engine/dist.h"
#include "../engine/text.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lauxlib.h>

#include "../algos/algo.h"
#include "../engine/cost.h"
#include "../engine/net.h"
#include "lua-child.h"
#include "lua-mc.h"
#include "lua-sandbox.h"
#include "setup.h"

#define LESSON_MAXPAGES 256
#define LESSON_MAXITEMS 4096

struct Lesson {
    char *id, *title, *about;
    LessonPage *pages;
    size_t npages;
    void **arena;
    size_t narena, carena;
};

/* ---------------------------------------------------------------- arena */

static void *arena_add(lua_State *L, Lesson *l, void *p)
{
    if (!p)
        luaL_error(L, "out of memory");
    if (l->narena == l->carena) {
        size_t n = l->carena ? l->carena * 2 : 64;
        void **a = realloc(l->arena, n * sizeof *a);
        if (!a) {
            free(p);
            luaL_error(L, "out of memory");
        }
        l->arena = a;
        l->carena = n;
    }
    l->arena[l->narena++] = p;
    return p;
}

static char *arena_str(lua_State *L, Lesson *l, const char *s)
{
    return arena_add(L, l, strdup(s));
}

static void *arena_calloc(lua_State *L, Lesson *l, size_t n, size_t size)
{
    return arena_add(L, l, calloc(n ? n : 1, size));
}

/* ---------------------------------------------------------------- reading */

typedef struct {
    Lesson *l;
    const char *path;
    Net *nets[LESSON_MAXPAGES];   /* parsed while reading; freed by lesson_load afterwards */
    size_t nnets;
} Ctx;

/* Raise "page N: msg" (the message handler prefixes the file). */
static int page_error(lua_State *L, size_t page, const char *fmt, const char *a, const char *b)
{
    char msg[512];
    snprintf(msg, sizeof msg, fmt, a ? a : "", b ? b : "");
    if (page)
        return luaL_error(L, "page %d: %s", (int)page, msg);
    return luaL_error(L, "%s", msg);
}

/* The fields a lesson's table and its pages may have (docs/lessons.md).  A field added to
 * the reader must be added here too: any other is refused with the nearest name. */
static const char *const lesson_fields[] = {"title", "about", "pages", NULL};
static const char *const page_fields[] = {"text", "net", "algo", "model", "fit", "source",
                                          "sources", "bytes", "set", "step", "nodes", "links",
                                          "path", "highlight", "question", NULL};
static const char *const question_fields[] = {"text", "explain", "hint", "click", "predict",
                                              "choices", "answer", "feedback", "try",
                                              "any_direction", NULL};
static const char *const try_fields[] = {"net", "source", "node", "algo", "model", "bytes",
                                         "set", "step", NULL};

/* Refuse a string key of the table at t that is not in names; `what` names the table in the
 * message ("the page", "the question", ...; page 0: the lesson's table). */
static void check_fields_in(lua_State *L, int t, const char *const *names, size_t page,
                            const char *what)
{
    const char *nn, *k = mc_unknown_field(L, t, names, &nn);
    if (!k)
        return;
    char shown[48], near[64] = "";
    text_quote(k, 40, shown, sizeof shown);
    if (nn)
        snprintf(near, sizeof near, " (did you mean '%s'?)", nn);
    char fmt[96];
    snprintf(fmt, sizeof fmt, "unknown field '%%s' in %s%%s",
             page ? what : "the lesson's table");
    page_error(L, page, fmt, shown, near);
}

static void check_fields(lua_State *L, int t, const char *const *names, size_t page)
{
    check_fields_in(L, t, names, page, "the page");
}

/* Optional string field of the table at t; NULL if absent. */
static const char *opt_string(lua_State *L, Lesson *l, int t, const char *field, size_t page)
{
    int ty = lua_getfield(L, t, field);
    const char *r = NULL;
    if (ty == LUA_TSTRING)
        r = arena_str(L, l, lua_tostring(L, -1));
    else if (ty != LUA_TNIL)
        page_error(L, page, "%s must be a string", field, NULL);
    lua_pop(L, 1);
    return r;
}

/* A node: integer id or {r, c[, z]}; checked against net. */
static int32_t read_node(lua_State *L, int idx, const Net *net, size_t page, const char *what)
{
    idx = lua_absindex(L, idx);
    if (!net)
        page_error(L, page, "%s: no net yet (give the page a net = \"...\")", what, NULL);
    if (lua_type(L, idx) == LUA_TTABLE) {
        int32_t c[NET_MAXDIM];
        int nd = net_ndim(net);
        if ((int)lua_rawlen(L, idx) != nd)
            page_error(L, page, "%s: coordinates need as many numbers as %s has dimensions",
                       what, net_spec(net));
        for (int k = 0; k < nd; k++) {
            lua_rawgeti(L, idx, k + 1);
            int isnum;
            lua_Integer v = lua_tointegerx(L, -1, &isnum);
            lua_pop(L, 1);
            if (!isnum || v < 0 || v >= net_dim(net, k))
                page_error(L, page, "%s: coordinates outside %s", what, net_spec(net));
            c[k] = (int32_t)v;
        }
        return net_id(net, c);
    }
    int isnum;
    lua_Integer v = lua_tointegerx(L, idx, &isnum);
    if (!isnum || v < 0 || v >= net_size(net))
        page_error(L, page, "%s: not a node of %s (an id or {r, c})", what, net_spec(net));
    return (int32_t)v;
}

/* The directed link between neighbours a -> b, or -1. */
static int64_t link_between(const Net *net, int32_t a, int32_t b)
{
    for (int d = 0; d < net_ndim(net); d++)
        for (int dir = 1; dir >= -1; dir -= 2)
            if (net_neighbor(net, a, d, dir) == b)
                return net_link(net, a, d, dir);
    return -1;
}

static int64_t read_link(lua_State *L, int idx, const Net *net, size_t page, const char *what)
{
    idx = lua_absindex(L, idx);
    if (lua_type(L, idx) != LUA_TTABLE || lua_rawlen(L, idx) != 2)
        page_error(L, page, "%s: a link is a pair {from, to} of neighbouring nodes", what, NULL);
    lua_rawgeti(L, idx, 1);
    int32_t a = read_node(L, -1, net, page, what);
    lua_rawgeti(L, idx, 2);
    int32_t b = read_node(L, -1, net, page, what);
    lua_pop(L, 2);
    int64_t link = link_between(net, a, b);
    if (link < 0) {
        char x[48], y[48];
        char m[128];
        snprintf(m, sizeof m, "%s -> %s", net_node_name(net, a, x, sizeof x),
                 net_node_name(net, b, y, sizeof y));
        page_error(L, page, "%s: %s are not neighbours (a link joins neighbours)", what, m);
    }
    return link;
}

/* Growable arrays of highlights, in scratch that lives in the arena. */
typedef struct {
    int32_t *nodes;
    size_t nnodes;
    int64_t *links;
    size_t nlinks;
} Marks;

static void add_link(lua_State *L, Lesson *l, Marks *m, int64_t link)
{
    for (size_t i = 0; i < m->nlinks; i++)
        if (m->links[i] == link)
            return;
    if (m->nlinks >= LESSON_MAXITEMS)
        luaL_error(L, "too many highlighted links");
    if (!m->links)
        m->links = arena_calloc(L, l, LESSON_MAXITEMS, sizeof *m->links);
    m->links[m->nlinks++] = link;
}

static void read_marks(lua_State *L, Lesson *l, int t, const Net *net, size_t page, Marks *m)
{
    t = lua_absindex(L, t);
    if (lua_getfield(L, t, "nodes") != LUA_TNIL) {
        if (lua_type(L, -1) != LUA_TTABLE)
            page_error(L, page, "nodes must be a list of nodes", NULL, NULL);
        size_t n = lua_rawlen(L, -1);
        if (n > LESSON_MAXITEMS)
            page_error(L, page, "too many nodes", NULL, NULL);
        if (!m->nodes)
            m->nodes = arena_calloc(L, l, LESSON_MAXITEMS, sizeof *m->nodes);
        if (m->nnodes + n > LESSON_MAXITEMS)
            page_error(L, page, "too many nodes", NULL, NULL);
        for (size_t i = 0; i < n; i++) {
            lua_rawgeti(L, -1, (lua_Integer)i + 1);
            m->nodes[m->nnodes++] = read_node(L, -1, net, page, "nodes");
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
    if (lua_getfield(L, t, "links") != LUA_TNIL) {
        if (lua_type(L, -1) != LUA_TTABLE)
            page_error(L, page, "links must be a list of {from, to} pairs", NULL, NULL);
        size_t n = lua_rawlen(L, -1);
        for (size_t i = 0; i < n; i++) {
            lua_rawgeti(L, -1, (lua_Integer)i + 1);
            add_link(L, l, m, read_link(L, -1, net, page, "links"));
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
    if (lua_getfield(L, t, "path") != LUA_TNIL) {
        if (lua_type(L, -1) != LUA_TTABLE || lua_rawlen(L, -1) < 2)
            page_error(L, page, "path must be a list of at least two nodes", NULL, NULL);
        size_t n = lua_rawlen(L, -1);
        lua_rawgeti(L, -1, 1);
        int32_t cur = read_node(L, -1, net, page, "path");
        lua_pop(L, 1);
        for (size_t i = 2; i <= n; i++) {
            lua_rawgeti(L, -1, (lua_Integer)i);
            int32_t to = read_node(L, -1, net, page, "path");
            lua_pop(L, 1);
            /* the directed links of the default route from cur to to */
            NetSeg seg[NET_MAXSEG];
            int ns = net_route(net, cur, to, seg);
            int32_t at = cur;
            for (int s = 0; s < ns; s++)
                for (int32_t h = 0; h < seg[s].len; h++) {
                    add_link(L, l, m, net_link(net, at, seg[s].dim, seg[s].dir));
                    at = net_neighbor(net, at, seg[s].dim, seg[s].dir);
                }
            cur = to;
        }
    }
    lua_pop(L, 1);
}

static bool algo_known(const char *name)
{
    if (algo_exists(name))
        return true;
    size_t n = strlen(name);
    if (strchr(name, '/') || (n > 4 && strcmp(name + n - 4, ".lua") == 0))
        return true;   /* a path: resolved (and refused if wrong) when the page is shown */
    char *p = box_find("scripts", name);
    free(p);
    return p != NULL;
}

/* The `step` field of the table at t: a whole number >= 0, or -1 if absent. */
static int32_t read_step(lua_State *L, int t, size_t page, const char *what)
{
    int32_t step = -1;
    if (lua_getfield(L, t, "step") != LUA_TNIL) {
        int isnum;
        lua_Integer v = lua_tointegerx(L, -1, &isnum);
        if (!isnum || v < 0 || v > (1 << 24))
            page_error(L, page, "%sstep must be a whole number >= 0 (0: before the first step)",
                       what, NULL);
        step = (int32_t)v;
    }
    lua_pop(L, 1);
    return step;
}

/* The `set` field of the table at t: {"nu=1", ...} or { nu = 1, ... }; each checked. */
static void read_sets(lua_State *L, Lesson *l, int t, size_t pno, const char *const **out,
                      size_t *nout)
{
    t = lua_absindex(L, t);
    int ty = lua_getfield(L, t, "set");
    if (ty == LUA_TTABLE) {
        int st = lua_gettop(L);
        size_t n = 0;
        lua_pushnil(L);
        while (lua_next(L, st)) {
            n++;
            lua_pop(L, 1);
        }
        if (n > 64)
            page_error(L, pno, "too many settings", NULL, NULL);
        const char **sets = arena_calloc(L, l, n, sizeof *sets);
        size_t k = 0;
        lua_pushnil(L);
        while (lua_next(L, st)) {
            char buf[256];
            if (lua_type(L, -2) == LUA_TNUMBER && lua_type(L, -1) == LUA_TSTRING) {
                snprintf(buf, sizeof buf, "%s", lua_tostring(L, -1));
            } else if (lua_type(L, -2) == LUA_TSTRING &&
                       (lua_type(L, -1) == LUA_TNUMBER || lua_type(L, -1) == LUA_TSTRING)) {
                lua_pushvalue(L, -1);   /* tostring on a copy: keep lua_next's key */
                snprintf(buf, sizeof buf, "%s=%s", lua_tostring(L, -3), lua_tostring(L, -1));
                lua_pop(L, 1);
            } else {
                page_error(L, pno, "set: entries are \"k=v\" strings or k = value", NULL, NULL);
            }
            const char *eq = strchr(buf, '=');
            if (!eq || eq == buf || !eq[1])
                page_error(L, pno, "set: '%s' is not k=v", buf, NULL);
            char key[64];
            snprintf(key, sizeof key, "%.*s", (int)(eq - buf), buf);
            if (cost_is_param(key)) {
                CostParams cp;
                char err[200];
                cost_defaults(&cp, COST_SEIDEL);
                if (!cost_set(&cp, key, eq + 1, err, sizeof err))
                    page_error(L, pno, "set: %s", err, NULL);
            }
            sets[k++] = arena_str(L, l, buf);
            lua_pop(L, 1);
        }
        *out = sets;
        *nout = k;
    } else if (ty != LUA_TNIL) {
        page_error(L, pno, "set must be a table", NULL, NULL);
    }
    lua_pop(L, 1);
}

/* question.try = { net =, algo =, model =, source =, bytes =, set =, step =, node = }: the
 * state the student is to reach (lesson.h). */
static void read_try(lua_State *L, Lesson *l, int t, const Net *net, size_t page, LessonTry *w)
{
    t = lua_absindex(L, t);
    check_fields_in(L, t, try_fields, page, "try");
    w->source = w->step = w->node = -1;
    w->net = opt_string(L, l, t, "net", page);
    Net *own = NULL;
    if (w->net) {
        char err[256];
        own = net_parse(w->net, err, sizeof err);
        if (!own)
            page_error(L, page, "try: %s", err, NULL);
        /* nodes of the task are nodes of its net; freed before any error can be raised */
    }
    const Net *tn = own ? own : net;
    int32_t ids[2] = {-1, -1};
    const char *f[2] = {"source", "node"};
    char msg[160] = "";
    for (int k = 0; k < 2; k++) {
        int ty = lua_getfield(L, t, f[k]);
        if (ty != LUA_TNIL && tn) {
            int isnum;
            lua_Integer v = lua_tointegerx(L, -1, &isnum);
            if (isnum && v >= 0 && v < net_size(tn))
                ids[k] = (int32_t)v;
            else if (ty == LUA_TTABLE && (int)lua_rawlen(L, -1) == net_ndim(tn)) {
                int32_t c[NET_MAXDIM];
                bool good = true;
                for (int d = 0; d < net_ndim(tn); d++) {
                    lua_rawgeti(L, -1, d + 1);
                    lua_Integer x = lua_tointegerx(L, -1, &isnum);
                    lua_pop(L, 1);
                    good = good && isnum && x >= 0 && x < net_dim(tn, d);
                    c[d] = good ? (int32_t)x : 0;
                }
                if (good) ids[k] = net_id(tn, c);
            }
            if (ids[k] < 0)
                snprintf(msg, sizeof msg, "try: %s: not a node of %s (an id or {r, c})", f[k],
                         net_spec(tn));
        } else if (ty != LUA_TNIL) {
            snprintf(msg, sizeof msg, "try: %s needs a net", f[k]);
        }
        lua_pop(L, 1);
    }
    if (own)
        net_free(own);
    if (msg[0])
        page_error(L, page, "%s", msg, NULL);
    w->source = ids[0];
    w->node = ids[1];
    w->algo = opt_string(L, l, t, "algo", page);
    if (w->algo && !algo_known(w->algo))
        page_error(L, page, "try: algo '%s' is neither a built-in nor a script on the search "
                   "path", w->algo, NULL);
    w->model = opt_string(L, l, t, "model", page);
    CostModel cm;
    if (w->model && !cost_model_parse(w->model, &cm))
        page_error(L, page, "try: model '%s' is not a cost model", w->model, NULL);
    int ty = lua_getfield(L, t, "bytes");
    if (ty == LUA_TNUMBER && lua_tointeger(L, -1) >= 1)
        w->bytes = (uint64_t)lua_tointeger(L, -1);
    else if (ty == LUA_TSTRING && setup_parse_bytes(lua_tostring(L, -1), &w->bytes))
        ;
    else if (ty != LUA_TNIL)
        page_error(L, page, "try: bytes must be a byte count (1024, 64K, 1M)", NULL, NULL);
    lua_pop(L, 1);
    read_sets(L, l, t, page, &w->set, &w->nset);
    w->step = read_step(L, t, page, "try: ");
    if (!w->net && !w->algo && !w->model && w->source < 0 && !w->bytes && !w->nset &&
        w->step < 0 && w->node < 0)
        page_error(L, page, "try: say what to reach (net, algo, model, source, bytes, set, "
                   "step, node)", NULL, NULL);
}

static void read_question(lua_State *L, Lesson *l, int t, const Net *net, size_t page,
                          LessonPage *pg)
{
    int q = lua_absindex(L, t);
    check_fields_in(L, q, question_fields, page, "the question");
    pg->answer_choice = -1;
    pg->answer_node = -1;
    pg->answer_link = -1;
    const char *text = opt_string(L, l, q, "text", page);
    if (!text)
        page_error(L, page, "question: text = \"...\" is missing", NULL, NULL);
    pg->question = text;
    pg->explain = opt_string(L, l, q, "explain", page);
    pg->hint = opt_string(L, l, q, "hint", page);
    const char *click = opt_string(L, l, q, "click", page);
    int pty = lua_getfield(L, q, "predict");
    if (pty != LUA_TNIL && pty != LUA_TBOOLEAN)
        page_error(L, page, "question: predict must be true or false", NULL, NULL);
    pg->predict = lua_toboolean(L, -1);
    lua_pop(L, 1);
    if (lua_getfield(L, q, "choices") != LUA_TNIL) {
        if (click)
            page_error(L, page, "question: choices and click cannot go together", NULL, NULL);
        if (lua_type(L, -1) != LUA_TTABLE)
            page_error(L, page, "question: choices must be a list of strings", NULL, NULL);
        size_t n = lua_rawlen(L, -1);
        if (n < 2 || n > 26)
            page_error(L, page, "question: 2 to 26 choices", NULL, NULL);
        const char **ch = arena_calloc(L, l, n, sizeof *ch);
        for (size_t i = 0; i < n; i++) {
            if (lua_rawgeti(L, -1, (lua_Integer)i + 1) != LUA_TSTRING)
                page_error(L, page, "question: every choice must be a string", NULL, NULL);
            ch[i] = arena_str(L, l, lua_tostring(L, -1));
            lua_pop(L, 1);
        }
        pg->choices = ch;
        pg->nchoices = n;
        pg->qkind = LESSON_Q_CHOICE;
        lua_getfield(L, q, "answer");
        int isnum;
        lua_Integer a = lua_tointegerx(L, -1, &isnum);
        if (!isnum && lua_type(L, -1) == LUA_TSTRING && lua_rawlen(L, -1) == 1) {
            char c = lua_tostring(L, -1)[0];
            a = (c >= 'a' && c <= 'z') ? c - 'a' + 1 : (c >= 'A' && c <= 'Z') ? c - 'A' + 1 : 0;
            isnum = 1;
        }
        if (!isnum || a < 1 || a > (lua_Integer)n)
            page_error(L, page, "question: answer must name one of the choices (1-based, or "
                       "a letter 'a', 'b', ...)", NULL, NULL);
        pg->answer_choice = (int32_t)(a - 1);
        lua_pop(L, 1);
        /* feedback = { "why a is wrong", "why b is wrong", ... } or { b = "...", ... } */
        if (lua_getfield(L, q, "feedback") == LUA_TTABLE) {
            const char **fb = arena_calloc(L, l, n, sizeof *fb);
            for (size_t i = 0; i < n; i++) {
                char letter[2] = {(char)('a' + i), 0};
                if (lua_rawgeti(L, -1, (lua_Integer)i + 1) == LUA_TNIL) {
                    lua_pop(L, 1);
                    lua_getfield(L, -1, letter);
                }
                if (lua_type(L, -1) == LUA_TSTRING)
                    fb[i] = arena_str(L, l, lua_tostring(L, -1));
                else if (lua_type(L, -1) != LUA_TNIL)
                    page_error(L, page, "question: feedback must be strings", NULL, NULL);
                lua_pop(L, 1);
            }
            pg->feedback = fb;
        } else if (lua_type(L, -1) != LUA_TNIL) {
            page_error(L, page, "question: feedback must be a list of strings, one per choice",
                       NULL, NULL);
        }
        lua_pop(L, 1);
    } else if (lua_getfield(L, q, "try"), lua_type(L, -1) == LUA_TTABLE) {
        if (click)
            page_error(L, page, "question: try and click cannot go together", NULL, NULL);
        pg->qkind = LESSON_Q_TRY;
        read_try(L, l, -1, net, page, &pg->want);
        lua_pop(L, 1);
    } else if (lua_pop(L, 1), click) {
        lua_getfield(L, q, "answer");
        if (strcmp(click, "node") == 0) {
            pg->qkind = LESSON_Q_NODE;
            pg->answer_node = read_node(L, -1, net, page, "question: answer");
        } else if (strcmp(click, "link") == 0) {
            pg->qkind = LESSON_Q_LINK;
            pg->answer_link = read_link(L, -1, net, page, "question: answer");
            lua_getfield(L, q, "any_direction");
            pg->link_any_direction = lua_toboolean(L, -1);
            lua_pop(L, 1);
        } else {
            page_error(L, page, "question: click must be \"node\" or \"link\", not \"%s\"", click,
                       NULL);
        }
        lua_pop(L, 1);
    } else {
        page_error(L, page, "question: give choices = {...}, click = \"node\"/\"link\" or "
                   "try = {...}", NULL, NULL);
    }
    lua_pop(L, 1);   /* choices */
}

static int read_lesson(lua_State *L)
{
    Ctx *c = lua_touserdata(L, 1);
    Lesson *l = c->l;
    lua_settop(L, 2);
    if (lua_type(L, 2) != LUA_TTABLE)
        return luaL_error(L, "a lesson must return a table { title =, about =, pages = {...} }");
    check_fields(L, 2, lesson_fields, 0);
    l->title = (char *)opt_string(L, l, 2, "title", 0);
    if (!l->title)
        return luaL_error(L, "the lesson needs title = \"...\"");
    l->about = (char *)opt_string(L, l, 2, "about", 0);
    if (!l->about)
        l->about = arena_str(L, l, "");
    if (lua_getfield(L, 2, "pages") != LUA_TTABLE || lua_rawlen(L, -1) == 0)
        return luaL_error(L, "the lesson needs pages = { {...}, ... } (at least one)");
    size_t np = lua_rawlen(L, -1);
    if (np > LESSON_MAXPAGES)
        return luaL_error(L, "at most %d pages", LESSON_MAXPAGES);
    int pages = lua_gettop(L);
    l->pages = arena_calloc(L, l, np, sizeof *l->pages);
    Net *net = NULL;   /* the page's net (kept from page to page) */
    for (size_t i = 0; i < np; i++) {
        size_t pno = i + 1;
        LessonPage *pg = &l->pages[i];
        if (lua_rawgeti(L, pages, (lua_Integer)pno) != LUA_TTABLE)
            page_error(L, pno, "a page must be a table { text = ..., ... }", NULL, NULL);
        int t = lua_gettop(L);
        check_fields(L, t, page_fields, pno);
        pg->step = -1;
        pg->answer_choice = -1;
        pg->answer_node = -1;
        pg->answer_link = -1;
        pg->text = opt_string(L, l, t, "text", pno);
        if (!pg->text)
            page_error(L, pno, "text = \"...\" is missing", NULL, NULL);
        pg->net = opt_string(L, l, t, "net", pno);
        if (pg->net) {
            char err[256];
            Net *n = net_parse(pg->net, err, sizeof err);
            if (!n)
                page_error(L, pno, "%s", err, NULL);
            c->nets[c->nnets++] = n;   /* at most one per page */
            net = n;
        }
        pg->algo = opt_string(L, l, t, "algo", pno);
        if (pg->algo && !algo_known(pg->algo))
            page_error(L, pno, "algo '%s' is neither a built-in nor a script on the search path",
                       pg->algo, NULL);
        pg->model = opt_string(L, l, t, "model", pno);
        pg->fit = opt_string(L, l, t, "fit", pno);
        AlgoFit fit;
        if (pg->fit && !algo_fit_parse(pg->fit, &fit))
            page_error(L, pno, "fit '%s' is not a fit (companions, virtual, none)", pg->fit,
                       NULL);
        CostModel cm;
        if (pg->model && !cost_model_parse(pg->model, &cm))
            page_error(L, pno, "model '%s' is not a cost model (seidel, postal, circuit, saf)",
                       pg->model, NULL);
        /* source: id, "r,c", or {r, c} */
        int ty = lua_getfield(L, t, "source");
        if (ty != LUA_TNIL) {
            int32_t id = read_node(L, -1, net, pno, "source");
            char buf[24];
            snprintf(buf, sizeof buf, "%ld", (long)id);
            pg->source = arena_str(L, l, buf);
        }
        lua_pop(L, 1);
        /* sources: a --sources spec, checked on the page's net when it names one */
        pg->sources = opt_string(L, l, t, "sources", pno);
        if (pg->sources && net) {
            int32_t *v, nv;
            DistKind k;
            char err[256];
            if (!dist_parse(net, pg->sources, &v, &nv, &k, err, sizeof err))
                page_error(L, pno, "%s", err, NULL);
            free(v);
        }
        ty = lua_getfield(L, t, "bytes");
        if (ty == LUA_TNUMBER) {
            int isnum;
            lua_Integer b = lua_tointegerx(L, -1, &isnum);
            if (!isnum || b < 1)
                page_error(L, pno, "bytes must be a whole number >= 1", NULL, NULL);
            pg->bytes = (uint64_t)b;
        } else if (ty == LUA_TSTRING) {
            if (!setup_parse_bytes(lua_tostring(L, -1), &pg->bytes))
                page_error(L, pno, "bytes '%s' is not a byte count (1024, 64K, 1M)",
                           lua_tostring(L, -1), NULL);
        } else if (ty != LUA_TNIL) {
            page_error(L, pno, "bytes must be a number", NULL, NULL);
        }
        lua_pop(L, 1);
        /* set: {"nu=1", ...} or { nu = 1, ... } */
        read_sets(L, l, t, pno, &pg->set, &pg->nset);
        pg->step = read_step(L, t, pno, "");
        /* highlights: in the page itself or in highlight = {...} */
        Marks m = {0};
        read_marks(L, l, t, net, pno, &m);
        if (lua_getfield(L, t, "highlight") == LUA_TTABLE)
            read_marks(L, l, -1, net, pno, &m);
        else if (lua_type(L, -1) != LUA_TNIL)
            page_error(L, pno, "highlight must be a table { nodes =, links =, path = }", NULL,
                       NULL);
        lua_pop(L, 1);
        pg->nodes = m.nodes;
        pg->nnodes = m.nnodes;
        pg->links = m.links;
        pg->nlinks = m.nlinks;
        ty = lua_getfield(L, t, "question");
        if (ty == LUA_TTABLE)
            read_question(L, l, -1, net, pno, pg);
        else if (ty != LUA_TNIL)
            page_error(L, pno, "question must be a table", NULL, NULL);
        lua_pop(L, 1);
        lua_settop(L, pages);
    }
    l->npages = np;
    return 0;
}

static bool is_path(const char *s)
{
    size_t n = strlen(s);
    return strchr(s, '/') || (n > 4 && strcmp(s + n - 4, ".lua") == 0);
}

/* ---------------------------------------------------------------- the child's side */

/* (Every field of LessonPage crosses: a field added there must be added to put_lesson and
 * lesson_unwire; test_lua_lessons re-derives every lesson's answers through them.) */

/* Nullable strings go as a flag and the text. */
static void put_opt(Wire *w, const char *s)
{
    wire_i64(w, s != NULL);
    wire_str(w, s);
}

static void put_lesson(Wire *w, const Lesson *l)
{
    wire_str(w, l->title);
    wire_str(w, l->about);
    wire_i64(w, (int64_t)l->npages);
    for (size_t i = 0; i < l->npages; i++) {
        const LessonPage *p = &l->pages[i];
        put_opt(w, p->text);
        put_opt(w, p->net);
        put_opt(w, p->algo);
        put_opt(w, p->source);
        wire_i64(w, (int64_t)p->bytes);
        put_opt(w, p->model);
        wire_i64(w, (int64_t)p->nset);
        for (size_t k = 0; k < p->nset; k++)
            wire_str(w, p->set[k]);
        wire_i64(w, p->step);
        wire_i64(w, (int64_t)p->nnodes);
        wire_put(w, p->nodes, p->nnodes * sizeof *p->nodes);
        wire_i64(w, (int64_t)p->nlinks);
        wire_put(w, p->links, p->nlinks * sizeof *p->links);
        wire_i64(w, p->qkind);
        put_opt(w, p->question);
        wire_i64(w, (int64_t)p->nchoices);
        for (size_t k = 0; k < p->nchoices; k++)
            wire_str(w, p->choices[k]);
        wire_i64(w, p->answer_choice);
        wire_i64(w, p->answer_node);
        wire_i64(w, p->answer_link);
        wire_i64(w, p->link_any_direction);
        wire_i64(w, p->feedback != NULL);
        for (size_t k = 0; p->feedback && k < p->nchoices; k++)
            put_opt(w, p->feedback[k]);
        const LessonTry *t = &p->want;
        put_opt(w, t->net);
        put_opt(w, t->algo);
        put_opt(w, t->model);
        wire_i64(w, t->source);
        wire_i64(w, (int64_t)t->bytes);
        wire_i64(w, (int64_t)t->nset);
        for (size_t k = 0; k < t->nset; k++)
            wire_str(w, t->set[k]);
        wire_i64(w, t->step);
        wire_i64(w, t->node);
        put_opt(w, p->sources);
        put_opt(w, p->explain);
        put_opt(w, p->fit);
        wire_i64(w, p->predict);
        put_opt(w, p->hint);
    }
}

/* In the child: run the lesson file, copy its table into a Lesson (the checks are in
 * read_lesson), and send that. */
static bool lesson_serve(void *ud, const Wire *req, Wire *out, char *err, size_t errlen)
{
    const char *path = ud;
    (void)req;
    Lesson *l = calloc(1, sizeof *l);
    LuaBox *b = l ? box_new(path, err, errlen) : NULL;
    if (!l || !b) {
        if (!l)
            snprintf(err, errlen, "out of memory");
        return false;
    }
    if (!box_dofile(b, path, err, errlen))
        return false;
    lua_State *L = box_state(b);
    Ctx c = {.l = l, .path = path};
    lua_pushcfunction(L, read_lesson);
    lua_pushlightuserdata(L, &c);
    lua_rotate(L, -3, 2);
    if (!box_call(b, 2, 0, "load", err, errlen))
        return false;
    put_lesson(out, l);
    return true;   /* the child ends here: nothing to free */
}

/* ---------------------------------------------------------------- back in meshcast */

static void *keep(Lesson *l, void *p, bool *ok)
{
    if (!p) {
        *ok = false;
        return NULL;
    }
    if (l->narena == l->carena) {
        size_t n = l->carena ? l->carena * 2 : 64;
        void **a = realloc(l->arena, n * sizeof *a);
        if (!a) {
            free(p);
            *ok = false;
            return NULL;
        }
        l->arena = a;
        l->carena = n;
    }
    l->arena[l->narena++] = p;
    return p;
}

static char *get_str(Lesson *l, WireIn *r, bool *ok)
{
    return keep(l, strdup(wire_get_str(r)), ok);
}

static char *get_opt(Lesson *l, WireIn *r, bool *ok)
{
    bool have = wire_get_i64(r) != 0;
    char *s = get_str(l, r, ok);
    return have ? s : NULL;
}

/* A count of n items of size each, sane for what is left in r. */
static size_t get_count(WireIn *r, size_t each)
{
    int64_t n = wire_get_i64(r);
    if (n < 0 || (uint64_t)n > r->left / (each ? each : 1)) {
        r->bad = true;
        return 0;
    }
    return (size_t)n;
}

static void *get_array(Lesson *l, WireIn *r, size_t n, size_t each, bool *ok)
{
    void *p = keep(l, calloc(n ? n : 1, each), ok);
    if (p && n) {
        if (r->left < n * each) {
            r->bad = true;
            return p;
        }
        memcpy(p, r->p, n * each);
        r->p += n * each;
        r->left -= n * each;
    }
    return p;
}

static Lesson *lesson_unwire(const Wire *w)
{
    Lesson *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    WireIn r = wire_in(w);
    bool ok = true;
    l->title = get_str(l, &r, &ok);
    l->about = get_str(l, &r, &ok);
    size_t np = get_count(&r, 8);
    l->pages = keep(l, calloc(np ? np : 1, sizeof *l->pages), &ok);
    for (size_t i = 0; ok && !r.bad && i < np; i++) {
        LessonPage *p = &l->pages[i];
        p->text = get_opt(l, &r, &ok);
        p->net = get_opt(l, &r, &ok);
        p->algo = get_opt(l, &r, &ok);
        p->source = get_opt(l, &r, &ok);
        p->bytes = (uint64_t)wire_get_i64(&r);
        p->model = get_opt(l, &r, &ok);
        p->nset = get_count(&r, 9);
        const char **set = keep(l, calloc(p->nset ? p->nset : 1, sizeof *set), &ok);
        for (size_t k = 0; ok && k < p->nset; k++)
            set[k] = get_str(l, &r, &ok);
        p->set = set;
        p->step = (int32_t)wire_get_i64(&r);
        p->nnodes = get_count(&r, sizeof *p->nodes);
        p->nodes = get_array(l, &r, p->nnodes, sizeof *p->nodes, &ok);
        p->nlinks = get_count(&r, sizeof *p->links);
        p->links = get_array(l, &r, p->nlinks, sizeof *p->links, &ok);
        p->qkind = (LessonQKind)wire_get_i64(&r);
        p->question = get_opt(l, &r, &ok);
        p->nchoices = get_count(&r, 9);
        const char **ch = keep(l, calloc(p->nchoices ? p->nchoices : 1, sizeof *ch), &ok);
        for (size_t k = 0; ok && k < p->nchoices; k++)
            ch[k] = get_str(l, &r, &ok);
        p->choices = ch;
        p->answer_choice = (int32_t)wire_get_i64(&r);
        p->answer_node = (int32_t)wire_get_i64(&r);
        p->answer_link = wire_get_i64(&r);
        p->link_any_direction = wire_get_i64(&r) != 0;
        if (wire_get_i64(&r) != 0) {
            const char **fb = keep(l, calloc(p->nchoices ? p->nchoices : 1, sizeof *fb), &ok);
            for (size_t k = 0; ok && k < p->nchoices; k++)
                fb[k] = get_opt(l, &r, &ok);
            p->feedback = fb;
        }
        LessonTry *t = &p->want;
        t->net = get_opt(l, &r, &ok);
        t->algo = get_opt(l, &r, &ok);
        t->model = get_opt(l, &r, &ok);
        t->source = (int32_t)wire_get_i64(&r);
        t->bytes = (uint64_t)wire_get_i64(&r);
        t->nset = get_count(&r, 9);
        const char **ts = keep(l, calloc(t->nset ? t->nset : 1, sizeof *ts), &ok);
        for (size_t k = 0; ok && k < t->nset; k++)
            ts[k] = get_str(l, &r, &ok);
        t->set = ts;
        t->step = (int32_t)wire_get_i64(&r);
        t->node = (int32_t)wire_get_i64(&r);
        p->sources = get_opt(l, &r, &ok);
        p->explain = get_opt(l, &r, &ok);
        p->fit = get_opt(l, &r, &ok);
        p->predict = wire_get_i64(&r) != 0;
        p->hint = get_opt(l, &r, &ok);
    }
    l->npages = np;
    if (!ok || r.bad) {
        lesson_free(l);
        return NULL;
    }
    return l;
}

Lesson *lesson_load(const char *name_or_path, char *err, size_t errlen)
{
    if (!name_or_path || !*name_or_path) {
        snprintf(err, errlen, "no lesson given (meshcast list lessons)");
        return NULL;
    }
    char *path = NULL;
    /* "x.lua" with no '/' that is not in the current directory: a name on the path */
    if (!is_path(name_or_path) || (!strchr(name_or_path, '/') && access(name_or_path, F_OK) != 0))
        path = box_find("lessons", name_or_path);
    if (!path && is_path(name_or_path))
        path = strdup(name_or_path);
    if (!path) {
        char *names[257], hint[96];
        size_t n = box_list("lessons", names, 256);
        names[n] = NULL;
        snprintf(err, errlen, "unknown lesson '%s'%s (meshcast list lessons; lessons are looked "
                 "up as NAME.lua in lessons/ on $MESHCAST_PATH, ~/.config/meshcast, the share "
                 "directory)", name_or_path,
                 text_did_you_mean(name_or_path, (const char *const *)names, hint, sizeof hint));
        for (size_t i = 0; i < n; i++)
            free(names[i]);
        return NULL;
    }
    /* the script runs in a child process under the limits (lua-child.h); the Lesson comes
     * back as bytes */
    Wire w;
    Child *ch = child_start(path, "load", lesson_serve, path, &w, err, errlen);
    child_stop(ch);
    Lesson *l = NULL;
    if (ch) {
        l = lesson_unwire(&w);
        wire_free(&w);
        if (!l)
            snprintf(err, errlen, "%s: out of memory", path);
    }
    if (l) {
        /* id: the file name without .lua */
        const char *base = strrchr(path, '/');
        base = base ? base + 1 : path;
        l->id = strdup(base);
        if (!l->id) {
            lesson_free(l);
            l = NULL;
            snprintf(err, errlen, "out of memory");
        } else {
            size_t n = strlen(l->id);
            if (n > 4 && strcmp(l->id + n - 4, ".lua") == 0)
                l->id[n - 4] = '\0';
        }
    }
    /* the lesson against the engine: every page's step and try task (lesson-check.h) */
    char why[600];
    if (l && !lesson_check(l, why, sizeof why)) {
        snprintf(err, errlen, "%s: %s", path, why);
        lesson_free(l);
        l = NULL;
    }
    free(path);
    return l;
}

void lesson_free(Lesson *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->narena; i++)
        free(l->arena[i]);
    free(l->arena);
    free(l->id);
    free(l);
}

const char *lesson_id(const Lesson *l) { return l ? l->id : ""; }
const char *lesson_title(const Lesson *l) { return l ? l->title : ""; }
const char *lesson_about(const Lesson *l) { return l ? l->about : ""; }
size_t lesson_npages(const Lesson *l) { return l ? l->npages : 0; }

const LessonPage *lesson_page(const Lesson *l, size_t i)
{
    return l && i < l->npages ? &l->pages[i] : NULL;
}

/* ---------------------------------------------------------------- progress */

/* The progress directory into out.  False with the reason in err (a state directory whose
 * path is too long is said to be too long, not unset). */
static bool state_dir(char *out, size_t len, char *err, size_t errlen)
{
    const char *x = getenv("XDG_STATE_HOME");
    const char *home = getenv("HOME");
    bool xdg = x && *x;
    const char *base = xdg ? x : home, *sub = xdg ? "/meshcast/progress"
                                                  : "/.local/state/meshcast/progress";
    if (!base || !*base) {
        snprintf(err, errlen, "cannot save progress: neither $XDG_STATE_HOME nor $HOME is set");
        return false;
    }
    /* room for the subdirectories and a file name in them */
    size_t room = len - 1 - strlen(sub) - 1 - NAME_MAX;
    if (strlen(base) > room) {
        snprintf(err, errlen, "cannot save progress: %s is too long (%zu bytes; at most %zu)",
                 xdg ? "$XDG_STATE_HOME" : "$HOME", strlen(base), room);
        return false;
    }
    snprintf(out, len, "%s%s", base, sub);
    return true;
}

static bool mkdirs(const char *path)
{
    char buf[PATH_MAX];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0700) != 0 && errno != EEXIST)
            return false;
        *p = '/';
    }
    return mkdir(buf, 0700) == 0 || errno == EEXIST;
}

bool lesson_progress_load(const Lesson *l, LessonProgress *p)
{
    memset(p, 0, sizeof *p);
    p->npages = lesson_npages(l);
    char dir[PATH_MAX], path[PATH_MAX + 64], err[200];
    if (!l || !state_dir(dir, sizeof dir, err, sizeof err))
        return false;
    snprintf(path, sizeof path, "%s/%s", dir, l->id);
    /* a symlink in its place is not followed */
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
    if (!f) {
        if (fd >= 0)
            close(fd);
        return false;
    }
    /* format: "meshcast-progress 1\nlast N\npage I SEEN ANSWER [FIRST]\n..." */
    char line[128];
    bool ok = fgets(line, sizeof line, f) && strncmp(line, "meshcast-progress 1", 19) == 0;
    while (ok && fgets(line, sizeof line, f)) {
        long a, b, c;
        if (sscanf(line, "last %ld", &a) == 1) {
            if (a >= 0 && (size_t)a < p->npages)
                p->last_page = (size_t)a;
        } else if (sscanf(line, "page %ld %ld %ld", &a, &b, &c) == 3) {
            long d = 0;
            if (sscanf(line, "page %*d %*d %*d %ld", &d) != 1)
                d = 0;   /* written before first tries were kept */
            if (a >= 0 && a < 256 && (size_t)a < p->npages) {
                p->seen[a] = b != 0;
                p->answer[a] = (int8_t)(c > 0 ? 1 : c < 0 ? -1 : 0);
                p->first[a] = (int8_t)(d > 0 ? 1 : d < 0 ? -1 : 0);
            }
        }
    }
    fclose(f);
    if (!ok)
        memset(p, 0, sizeof *p), p->npages = lesson_npages(l);
    return ok;
}

bool lesson_progress_save(const Lesson *l, const LessonProgress *p, char *err, size_t errlen)
{
    char dir[PATH_MAX], path[PATH_MAX + 64], tmp[PATH_MAX + 80];
    if (!l) {
        snprintf(err, errlen, "cannot save progress: no lesson");
        return false;
    }
    if (!state_dir(dir, sizeof dir, err, errlen))
        return false;
    if (!mkdirs(dir)) {
        snprintf(err, errlen, "cannot create %s: %s", dir, strerror(errno));
        return false;
    }
    snprintf(path, sizeof path, "%s/%s", dir, l->id);
    /* A temporary file of our own, created exclusively in the same directory (mkstemp:
     * O_CREAT|O_EXCL, mode 0600, never a symlink followed; two screens on one lesson get two),
     * then renamed over the progress file (which replaces a symlink there, not its target). */
    snprintf(tmp, sizeof tmp, "%s/.%s.XXXXXX", dir, l->id);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        snprintf(err, errlen, "cannot save progress in %s: %s", dir, strerror(errno));
        return false;
    }
    FILE *f = fdopen(fd, "w");
    if (!f) {
        snprintf(err, errlen, "cannot save progress in %s: %s", dir, strerror(errno));
        close(fd);
        unlink(tmp);
        return false;
    }
    fprintf(f, "meshcast-progress 1\nlast %zu\n", p->last_page);
    for (size_t i = 0; i < p->npages && i < 256; i++)
        fprintf(f, "page %zu %d %d %d\n", i, p->seen[i] ? 1 : 0, p->answer[i], p->first[i]);
    bool ok = fflush(f) == 0 && !ferror(f);
    int saved = errno;
    ok = (fclose(f) == 0) && ok;
    if (ok && rename(tmp, path) != 0) {
        saved = errno;
        ok = false;
    }
    if (!ok) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(saved ? saved : EIO));
        unlink(tmp);
        return false;
    }
    return true;
}

int lesson_progress_clear(const char *id, char *err, size_t errlen)
{
    char dir[PATH_MAX], path[PATH_MAX + 64];
    if (!id || !*id || strchr(id, '/') || id[0] == '.') {
        snprintf(err, errlen, "cannot clear progress: '%s' is not a lesson name", id ? id : "");
        return -1;
    }
    if (!state_dir(dir, sizeof dir, err, errlen))
        return -1;
    snprintf(path, sizeof path, "%s/%s", dir, id);
    if (unlink(path) == 0)
        return 1;
    if (errno == ENOENT)
        return 0;
    snprintf(err, errlen, "cannot clear progress: %s: %s", path, strerror(errno));
    return -1;
}

void lesson_score(const Lesson *l, const LessonProgress *p, LessonScore *out)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < lesson_npages(l) && i < LESSON_MAXPAGES; i++) {
        out->seen += p->seen[i];
        if (l->pages[i].qkind == LESSON_Q_NONE)
            continue;
        out->questions++;
        out->tries += l->pages[i].qkind == LESSON_Q_TRY;
        out->first_right += p->first[i] == 1;
        out->right += p->answer[i] == 1;
        out->answered += p->first[i] != 0 || p->answer[i] != 0;
    }
}

/* ---------------------------------------------------------------- listing */

size_t lesson_list(char **out, size_t max) { return box_list("lessons", out, max); }
