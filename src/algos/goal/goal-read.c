/* goal-read.c — the GOAL text, streamed line by line into operations and dependencies
 * (txt2bin's grammar; goal.h says what is accepted and refused). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "goal-internal.h"

/* Labels of the open rank block: open addressing, a slot is used when its gen is the
 * block's (so a new block empties the table in O(1)). */
typedef struct {
    uint64_t hash;
    uint32_t gen, op, off, len;
} Slot;

typedef struct {
    FILE *f;
    GoalProg *g;
    char *err;
    size_t errlen;
    uint32_t line;
    char buf[GOAL_MAX_LINE + 2];
    const char *p;          /* cursor in buf */
    bool in_comment;        /* inside a block comment */
    int32_t rank;           /* the open block, or -1 */
    bool have_nranks;
    uint8_t *seen;          /* rank blocks given */
    Slot *slots;
    uint32_t nslots, nused, gen;
    char *arena;            /* label text of the open block */
    size_t alen, acap;
} Reader;

static bool fail(Reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(Reader *r, const char *fmt, ...)
{
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(r->err, r->errlen, "%s:%lu: %s", r->g->name, (unsigned long)r->line, msg);
    return false;
}

/* One line into buf (without its "\r\n"); 0 at the end, -1 after an error. */
static int read_line(Reader *r)
{
    size_t n = 0;
    int c;
    while ((c = getc(r->f)) != EOF && c != '\n') {
        if (n == GOAL_MAX_LINE) {
            r->line++;
            fail(r, "line longer than %d bytes", GOAL_MAX_LINE);
            return -1;
        }
        if (c == '\0') {
            r->line++;
            fail(r, "a NUL byte");
            return -1;
        }
        r->buf[n++] = (char)c;
    }
    if (c == EOF && n == 0)
        return ferror(r->f) ? (fail(r, "read error"), -1) : 0;
    if (r->line == UINT32_MAX) {
        fail(r, "more than %lu lines", (unsigned long)UINT32_MAX);
        return -1;
    }
    r->line++;
    if (n && r->buf[n - 1] == '\r')
        n--;
    r->buf[n] = '\0';
    r->p = r->buf;
    return 1;
}

static void skip_ws(Reader *r)
{
    while (*r->p == ' ' || *r->p == '\t')
        r->p++;
}

static bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_ident(char c) { return is_alpha(c) || is_digit(c) || c == '_'; }

/* An identifier at the cursor: its length (0: none); the cursor stays. */
static size_t ident_len(const char *p)
{
    if (!is_alpha(*p))
        return 0;
    size_t n = 1;
    while (is_ident(p[n]))
        n++;
    return n;
}

/* The word at the cursor is exactly kw: take it. */
static bool take_word(Reader *r, const char *kw)
{
    size_t n = strlen(kw);
    if (ident_len(r->p) != n || memcmp(r->p, kw, n) != 0)
        return false;
    r->p += n;
    return true;
}

/* Keyword kw directly at the cursor (txt2bin's lexer takes "to" in "to5"). */
static bool take_kw(Reader *r, const char *kw)
{
    size_t n = strlen(kw);
    if (strncmp(r->p, kw, n) != 0)
        return false;
    r->p += n;
    return true;
}

static bool take_uint(Reader *r, uint64_t max, uint64_t *out, const char *what)
{
    skip_ws(r);
    if (!is_digit(*r->p))
        return fail(r, "expected %s, found '%.20s'", what, r->p);
    uint64_t v = 0;
    while (is_digit(*r->p)) {
        unsigned d = (unsigned)(*r->p++ - '0');
        if (v > (max - d) / 10)
            return fail(r, "%s too large (at most %llu)", what, (unsigned long long)max);
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

static bool end_of_item(Reader *r)
{
    skip_ws(r);
    if (*r->p)
        return fail(r, "unexpected '%.20s' at the end of the operation", r->p);
    return true;
}

static uint64_t hash_label(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h | 1;
}

static Slot *find_slot(Reader *r, const char *s, size_t n, uint64_t h)
{
    uint32_t mask = r->nslots - 1;
    for (uint32_t i = (uint32_t)h & mask;; i = (i + 1) & mask) {
        Slot *sl = &r->slots[i];
        if (sl->gen != r->gen)
            return sl;
        if (sl->hash == h && sl->len == n && memcmp(r->arena + sl->off, s, n) == 0)
            return sl;
    }
}

static bool grow_labels(Reader *r)
{
    uint32_t n = r->nslots ? r->nslots * 2 : 64;
    Slot *old = r->slots;
    uint32_t oldn = r->nslots;
    r->slots = calloc(n, sizeof *r->slots);
    if (!r->slots) {
        r->slots = old;
        return fail(r, "out of memory");
    }
    r->nslots = n;
    for (uint32_t i = 0; i < oldn; i++)
        if (old[i].gen == r->gen)
            *find_slot(r, r->arena + old[i].off, old[i].len, old[i].hash) = old[i];
    free(old);
    return true;
}

static bool define_label(Reader *r, const char *s, size_t n, uint32_t op)
{
    if ((r->nused + 1) * 2 > r->nslots && !grow_labels(r))
        return false;
    uint64_t h = hash_label(s, n);
    Slot *sl = find_slot(r, s, n, h);
    if (sl->gen == r->gen)
        return fail(r, "label '%.*s' defined twice in rank %ld", (int)n, s, (long)r->rank);
    if (r->alen + n > r->acap) {
        size_t cap = (r->acap + n) * 2;
        char *a = realloc(r->arena, cap);
        if (!a)
            return fail(r, "out of memory");
        r->arena = a;
        r->acap = cap;
    }
    memcpy(r->arena + r->alen, s, n);
    *sl = (Slot){h, r->gen, op, (uint32_t)r->alen, (uint32_t)n};
    r->alen += n;
    r->nused++;
    return true;
}

static bool lookup_label(Reader *r, const char *s, size_t n, uint32_t *op)
{
    Slot *sl = r->nslots ? find_slot(r, s, n, hash_label(s, n)) : NULL;
    if (!sl || sl->gen != r->gen)
        return fail(r, "label '%.*s' is not defined (above, in rank %ld)", (int)n, s,
                    (long)r->rank);
    *op = sl->op;
    return true;
}

static bool add_op(Reader *r, const GoalOp *op)
{
    GoalProg *g = r->g;
    if (g->nops == GOAL_MAX_OPS)
        return fail(r, "more than %u operations: refused (meshcast reads at most that many)",
                    GOAL_MAX_OPS);
    if (g->nops == g->capops) {
        uint32_t cap = g->capops ? g->capops * 2 : 1024;
        GoalOp *o = realloc(g->ops, cap * sizeof *o);
        if (!o)
            return fail(r, "out of memory");
        g->ops = o;
        g->capops = cap;
    }
    g->ops[g->nops++] = *op;
    return true;
}

static bool add_dep(Reader *r, uint32_t from, uint32_t to, bool start)
{
    GoalProg *g = r->g;
    if (g->ndeps == GOAL_MAX_OPS)
        return fail(r, "more than %u dependencies: refused", GOAL_MAX_OPS);
    if (g->ndeps == g->capdeps) {
        uint32_t cap = g->capdeps ? g->capdeps * 2 : 1024;
        GoalDep *d = realloc(g->deps, cap * sizeof *d);
        if (!d)
            return fail(r, "out of memory");
        g->deps = d;
        g->capdeps = cap;
    }
    g->deps[g->ndeps++] = (GoalDep){from, to, (uint8_t)start};
    return true;
}

/* "SIZEb to|from PEER [tag T] [cpu C] [nic K]" after send/recv. */
static bool parse_comm(Reader *r, GoalOp *op)
{
    bool send = op->kind == GOP_SEND;
    if (!take_uint(r, UINT64_MAX, &op->size, "a size in bytes"))
        return false;
    skip_ws(r);
    if (!take_kw(r, "b"))
        return fail(r, "expected 'b' after the size");
    skip_ws(r);
    if (!take_kw(r, send ? "to" : "from"))
        return fail(r, "expected '%s'", send ? "to" : "from");
    skip_ws(r);
    if (r->p[0] == '-' && r->p[1] == '1')
        return fail(r, "%s", send ? "expected a rank" : "recv from any source (-1) is not supported");
    uint64_t v;
    if (!take_uint(r, UINT32_MAX, &v, "a rank"))
        return false;
    if (v >= (uint64_t)r->g->nranks)
        return fail(r, "rank %llu out of range (num_ranks %ld)", (unsigned long long)v,
                    (long)r->g->nranks);
    if ((int32_t)v == r->rank)
        return fail(r, "rank %ld %s itself", (long)r->rank, send ? "sends to" : "receives from");
    op->peer = (int32_t)v;
    skip_ws(r);
    if (take_word(r, "tag")) {
        skip_ws(r);
        if (r->p[0] == '-' && r->p[1] == '1')
            return fail(r, "any tag (-1) is not supported");
        if (!take_uint(r, UINT32_MAX - 1, &v, "a tag"))
            return false;
        op->tag = (uint32_t)v;
        skip_ws(r);
    }
    if (take_word(r, "cpu")) {
        if (!take_uint(r, 255, &v, "a cpu number"))
            return false;
        skip_ws(r);
    }
    if (take_word(r, "nic") && !take_uint(r, 255, &v, "a nic number"))
        return false;
    if (send && op->size == 0)
        return fail(r, "a send of 0 bytes (meshcast's transfers carry data)");
    return end_of_item(r);
}

/* An operation, its kind word at the cursor; label (may be NULL) before it. */
static bool parse_op(Reader *r, const char *label, size_t llen)
{
    GoalOp op = {.rank = r->rank, .peer = -1, .line = r->line};
    if (take_word(r, "send"))
        op.kind = GOP_SEND;
    else if (take_word(r, "recv"))
        op.kind = GOP_RECV;
    else if (take_word(r, "calc"))
        op.kind = GOP_CALC;
    else
        return fail(r, "expected send, recv or calc, found '%.20s'", r->p);
    if (r->rank < 0)
        return fail(r, "an operation outside a rank block");
    if (op.kind == GOP_CALC) {
        uint64_t v;
        if (!take_uint(r, UINT64_MAX, &op.size, "a time"))
            return false;
        skip_ws(r);
        if (take_word(r, "cpu") && !take_uint(r, 255, &v, "a cpu number"))
            return false;
        if (!end_of_item(r))
            return false;
    } else if (!parse_comm(r, &op)) {
        return false;
    }
    if (label && !define_label(r, label, llen, r->g->nops))
        return false;
    return add_op(r, &op);
}

/* "LABEL: op" or "LABEL requires|irequires LABEL", the label at the cursor. */
static bool parse_labelled(Reader *r)
{
    const char *label = r->p;
    size_t n = ident_len(r->p);
    r->p += n;
    skip_ws(r);
    if (*r->p == ':') {
        r->p++;
        skip_ws(r);
        return parse_op(r, label, n);
    }
    bool start;
    if (take_word(r, "requires"))
        start = false;
    else if (take_word(r, "irequires"))
        start = true;
    else
        return fail(r, "expected ':', 'requires' or 'irequires' after '%.*s'", (int)n, label);
    if (r->rank < 0)
        return fail(r, "a dependency outside a rank block");
    skip_ws(r);
    size_t m = ident_len(r->p);
    if (m == 0)
        return fail(r, "expected a label after '%s'", start ? "irequires" : "requires");
    uint32_t to, from;
    if (!lookup_label(r, label, n, &to) || !lookup_label(r, r->p, m, &from))
        return false;
    r->p += m;
    if (to == from)
        return fail(r, "'%.*s' requires itself", (int)n, label);
    return end_of_item(r) && add_dep(r, from, to, start);
}

static bool open_rank(Reader *r)
{
    uint64_t v;
    if (!r->have_nranks)
        return fail(r, "'rank' before 'num_ranks'");
    if (r->rank >= 0)
        return fail(r, "'rank' inside rank %ld's block (missing '}')", (long)r->rank);
    if (!take_uint(r, UINT32_MAX, &v, "a rank"))
        return false;
    if (v >= (uint64_t)r->g->nranks)
        return fail(r, "rank %llu out of range (num_ranks %ld)", (unsigned long long)v,
                    (long)r->g->nranks);
    if (r->seen[v])
        return fail(r, "rank %llu's block given twice", (unsigned long long)v);
    skip_ws(r);
    if (*r->p != '{')
        return fail(r, "expected '{' after rank %llu", (unsigned long long)v);
    r->p++;
    r->seen[v] = 1;
    r->rank = (int32_t)v;
    r->gen++;
    r->nused = 0;
    r->alen = 0;
    return true;
}

static bool set_nranks(Reader *r)
{
    uint64_t v;
    if (r->have_nranks)
        return fail(r, "'num_ranks' given twice");
    if (!take_uint(r, (uint64_t)1 << 24, &v, "a number of ranks"))
        return false;
    if (v < 1)
        return fail(r, "num_ranks must be at least 1");
    r->g->nranks = (int32_t)v;
    r->have_nranks = true;
    r->seen = calloc((size_t)v, 1);
    return r->seen ? true : fail(r, "out of memory");
}

/* A line comment; before num_ranks, "// meshcast: chunks N bytes M tag=first-chunk" says
 * that every send's tag is the first chunk it carries (goal.h). */
static bool pragma(Reader *r)
{
    static const char kw[] = "// meshcast: chunks ";
    if (r->have_nranks || strncmp(r->p, kw, sizeof kw - 1) != 0)
        return true;
    r->p += sizeof kw - 1;
    uint64_t n, m;
    if (!take_uint(r, UINT32_MAX - 1, &n, "a number of chunks"))
        return false;
    skip_ws(r);
    if (!take_word(r, "bytes") || !take_uint(r, UINT64_MAX, &m, "a number of bytes"))
        return fail(r, "expected 'bytes M' in the meshcast line");
    skip_ws(r);
    if (strcmp(r->p, "tag=first-chunk") != 0 || n == 0 || m < n)
        return fail(r, "a meshcast line needs N >= 1 chunks of M >= N bytes and "
                    "'tag=first-chunk'");
    r->g->tag_chunks = (uint32_t)n;
    r->g->tag_bytes = m;
    return true;
}

/* The items of one line (txt2bin's state 0, looping until the line is used up). */
static bool parse_line(Reader *r)
{
    for (;;) {
        if (r->in_comment) {
            const char *e = strstr(r->p, "*/");
            if (!e)
                return true;
            r->p = e + 2;
            r->in_comment = false;
        }
        skip_ws(r);
        if (r->p[0] == '/' && r->p[1] == '/')
            return pragma(r);
        if (!*r->p)
            return true;
        if (r->p[0] == '/' && r->p[1] == '*') {
            r->p += 2;
            r->in_comment = true;
        } else if (*r->p == '}') {
            if (r->rank < 0)
                return fail(r, "'}' outside a rank block");
            r->rank = -1;
            r->p++;
        } else if (take_word(r, "num_ranks")) {
            if (!set_nranks(r))
                return false;
        } else if (take_word(r, "rank")) {
            if (!open_rank(r))
                return false;
        } else if (ident_len(r->p) == 4 && (!strncmp(r->p, "send", 4) ||
                   !strncmp(r->p, "recv", 4) || !strncmp(r->p, "calc", 4))) {
            return parse_op(r, NULL, 0);
        } else if (ident_len(r->p)) {
            return parse_labelled(r);
        } else {
            return fail(r, "unexpected '%.20s'", r->p);
        }
    }
}

static bool read_all(Reader *r)
{
    int got;
    while ((got = read_line(r)) > 0)
        if (!parse_line(r))
            return false;
    if (got < 0)
        return false;
    if (r->in_comment)
        return fail(r, "a comment that never ends ('*/' missing)");
    if (r->rank >= 0)
        return fail(r, "rank %ld's block never ends ('}' missing)", (long)r->rank);
    if (!r->have_nranks)
        return fail(r, "no 'num_ranks' line: not a GOAL file");
    return true;
}

GoalProg *goal_read(FILE *f, const char *name, char *err, size_t errlen)
{
    GoalProg *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    snprintf(g->name, sizeof g->name, "%s", name ? name : "GOAL");
    Reader *r = calloc(1, sizeof *r);
    if (!r) {
        free(g);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    *r = (Reader){.f = f, .g = g, .err = err, .errlen = errlen, .rank = -1, .gen = 1};
    bool ok = read_all(r);
    free(r->seen);
    free(r->slots);
    free(r->arena);
    free(r);
    if (ok)
        ok = goal_plan(g, err, errlen);
    if (!ok) {
        goal_free(g);
        return NULL;
    }
    return g;
}

void goal_free(GoalProg *g)
{
    if (!g)
        return;
    free(g->ops);
    free(g->deps);
    free(g->xf);
    free(g->step_first);
    free(g);
}

int32_t goal_nranks(const GoalProg *g) { return g->nranks; }
uint64_t goal_bytes(const GoalProg *g) { return g->bytes; }
uint32_t goal_nchunks(const GoalProg *g) { return g->nchunks; }
int32_t goal_source(const GoalProg *g) { return g->source; }
int32_t goal_nsteps(const GoalProg *g) { return g->nsteps; }
int64_t goal_nsends(const GoalProg *g) { return g->nxf; }
