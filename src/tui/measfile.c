/* measfile.c — exec --json's output read back (measfile.h): a small JSON reader that keeps
 * the fields the screen draws and skips the rest. */
#include "measfile.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CTX_SKIP, CTX_TOP, CTX_MEASURED, CTX_STEPS };
enum { SEEN_NET = 1, SEEN_ALGO = 2, SEEN_BYTES = 4, SEEN_NSTEPS = 8, SEEN_MEASURED = 16,
       SEEN_TOTAL = 32, SEEN_MSTEPS = 64, SEEN_VERIFIED = 128 };

typedef struct {
    const char *s;
    size_t n, i;
    int depth;
    char *err;
    size_t errlen;
    MeasFile *m;
    unsigned seen;
    size_t cap;   /* of m->steps */
} P;

static bool fail(P *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(P *p, const char *fmt, ...)
{
    char what[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (p->i >= p->n && !strstr(what, "ends early"))
        snprintf(p->err, p->errlen, "byte %zu: the file ends early (%s)", p->i, what);
    else
        snprintf(p->err, p->errlen, "byte %zu: %s", p->i, what);
    return false;
}

static void ws(P *p)
{
    while (p->i < p->n && strchr(" \t\r\n", p->s[p->i]) && p->s[p->i])
        p->i++;
}

static bool lit(P *p, const char *w)
{
    size_t l = strlen(w);
    if (p->n - p->i < l || memcmp(p->s + p->i, w, l) != 0)
        return fail(p, "expected %s", w);
    p->i += l;
    return true;
}

/* A string into out (cut to cap - 1 bytes; NULL: skipped). */
static bool str(P *p, char *out, size_t cap)
{
    if (p->i >= p->n || p->s[p->i] != '"')
        return fail(p, "expected a string");
    p->i++;
    size_t o = 0;
    while (p->i < p->n && p->s[p->i] != '"') {
        char c = p->s[p->i++];
        if ((unsigned char)c < 0x20)
            return fail(p, "a control character in a string");
        if (c == '\\') {
            if (p->i >= p->n)
                break;
            char e = p->s[p->i++];
            const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
            const char *k = strchr(from, e);
            if (e == 'u') {
                for (int h = 0; h < 4; h++, p->i++)
                    if (p->i >= p->n || !strchr("0123456789abcdefABCDEF", p->s[p->i]) ||
                        !p->s[p->i])
                        return fail(p, "a bad \\u escape");
                c = '?';
            } else if (!k || !e) {
                return fail(p, "a bad escape in a string");
            } else {
                c = to[k - from];
            }
        }
        if (out && o + 1 < cap)
            out[o++] = c;
    }
    if (p->i >= p->n)
        return fail(p, "a string without its closing quote");
    p->i++;
    if (out)
        out[o] = '\0';
    return true;
}

static bool num(P *p, double *v)
{
    size_t j = p->i;
    while (j < p->n && p->s[j] && strchr("+-0123456789.eE", p->s[j]))
        j++;
    char buf[64];
    if (j == p->i || j - p->i >= sizeof buf)
        return fail(p, "expected a number");
    memcpy(buf, p->s + p->i, j - p->i);
    buf[j - p->i] = '\0';
    char *end;
    errno = 0;
    *v = strtod(buf, &end);
    if (*end || errno || !isfinite(*v))
        return fail(p, "a bad number '%s'", buf);
    p->i = j;
    return true;
}

static bool value(P *p, int ctx, const char *key);

/* A value the context keeps: which field, by key. */
static bool field(P *p, int ctx, const char *k)
{
    MeasFile *m = p->m;
    double v;
    if (ctx == CTX_TOP) {
        if (strcmp(k, "net") == 0)
            return (p->seen |= SEEN_NET, str(p, m->net, sizeof m->net));
        if (strcmp(k, "algo") == 0)
            return (p->seen |= SEEN_ALGO, str(p, m->algo, sizeof m->algo));
        if (strcmp(k, "bytes") == 0 || strcmp(k, "steps") == 0) {
            if (!num(p, &v))
                return false;
            if (v < 0 || v > 1.8e19 || v != floor(v))
                return fail(p, "\"%s\" must be a whole number", k);
            if (k[0] == 'b')
                m->bytes = (uint64_t)v, p->seen |= SEEN_BYTES;
            else
                m->nsteps = (int64_t)v, p->seen |= SEEN_NSTEPS;
            return true;
        }
        if (strcmp(k, "measured") == 0)
            return (p->seen |= SEEN_MEASURED, value(p, CTX_MEASURED, NULL));
        return value(p, CTX_SKIP, NULL);
    }
    if (strcmp(k, "timing") == 0)
        return str(p, m->timing, sizeof m->timing);
    if (strcmp(k, "launcher") == 0)
        return str(p, m->launcher, sizeof m->launcher);
    if (strcmp(k, "steps") == 0)
        return (p->seen |= SEEN_MSTEPS, value(p, CTX_STEPS, NULL));
    if (strcmp(k, "verified") == 0) {
        p->seen |= SEEN_VERIFIED;
        m->verified = p->i < p->n && p->s[p->i] == 't';
        return lit(p, m->verified ? "true" : "false");
    }
    double *slot[] = {&m->total, &m->spread};
    int64_t *islot[] = {&m->reps, &m->ranks};
    static const char *const dn[] = {"total", "spread"}, *const in[] = {"reps", "ranks"};
    for (int w = 0; w < 2; w++)
        if (strcmp(k, dn[w]) == 0 || strcmp(k, in[w]) == 0) {
            if (!num(p, &v))
                return false;
            if (v < 0 || v > 1e18)
                return fail(p, "\"%s\" out of range", k);
            if (strcmp(k, dn[w]) == 0)
                *slot[w] = v;
            else
                *islot[w] = (int64_t)v;
            p->seen |= w == 0 && strcmp(k, "total") == 0 ? SEEN_TOTAL : 0;
            return true;
        }
    return value(p, CTX_SKIP, NULL);
}

static bool object(P *p, int ctx)
{
    p->i++;
    ws(p);
    if (p->i < p->n && p->s[p->i] == '}')
        return p->i++, true;
    for (;;) {
        char k[64];
        ws(p);
        if (!str(p, k, sizeof k))
            return false;
        ws(p);
        if (p->i >= p->n || p->s[p->i] != ':')
            return fail(p, "expected ':'");
        p->i++;
        ws(p);
        if (!(ctx == CTX_SKIP ? value(p, CTX_SKIP, NULL) : field(p, ctx, k)))
            return false;
        ws(p);
        if (p->i < p->n && p->s[p->i] == ',') {
            p->i++;
            continue;
        }
        if (p->i < p->n && p->s[p->i] == '}')
            return p->i++, true;
        return fail(p, "expected ',' or '}'");
    }
}

static bool array(P *p, int ctx)
{
    p->i++;
    ws(p);
    if (p->i < p->n && p->s[p->i] == ']')
        return p->i++, true;
    for (;;) {
        ws(p);
        if (ctx == CTX_STEPS) {
            double v;
            if (!num(p, &v))
                return false;
            if (v < 0)
                return fail(p, "a negative step time");
            MeasFile *m = p->m;
            if ((size_t)m->nmeas == p->cap) {
                size_t cap = p->cap ? 2 * p->cap : 64;
                double *s = realloc(m->steps, cap * sizeof *s);
                if (!s)
                    return fail(p, "out of memory");
                m->steps = s;
                p->cap = cap;
            }
            m->steps[m->nmeas++] = v;
        } else if (!value(p, CTX_SKIP, NULL)) {
            return false;
        }
        ws(p);
        if (p->i < p->n && p->s[p->i] == ',') {
            p->i++;
            continue;
        }
        if (p->i < p->n && p->s[p->i] == ']')
            return p->i++, true;
        return fail(p, "expected ',' or ']'");
    }
}

static bool value(P *p, int ctx, const char *key)
{
    (void)key;
    ws(p);
    if (p->i >= p->n)
        return fail(p, "the file ends early");
    char c = p->s[p->i];
    if ((c == '{' || c == '[') && ++p->depth > 64)
        return fail(p, "nested more than 64 deep");
    bool ok;
    if (c == '{')
        ok = (ctx == CTX_SKIP || ctx == CTX_TOP || ctx == CTX_MEASURED)
                 ? object(p, ctx)
                 : fail(p, "expected an array of numbers");
    else if (c == '[')
        ok = ctx == CTX_SKIP || ctx == CTX_STEPS ? array(p, ctx) : fail(p, "expected an object");
    else if (ctx != CTX_SKIP)
        return fail(p, "expected %s", ctx == CTX_STEPS ? "an array" : "an object");
    else if (c == '"')
        return str(p, NULL, 0);
    else if (c == 't' || c == 'f' || c == 'n')
        return lit(p, c == 't' ? "true" : c == 'f' ? "false" : "null");
    else {
        double v;
        return num(p, &v);
    }
    if (c == '{' || c == '[')
        p->depth--;
    return ok;
}

bool measfile_parse(const char *text, size_t len, MeasFile *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    P p = {.s = text, .n = len, .err = err, .errlen = errlen, .m = m};
    ws(&p);
    if (p.i >= p.n || text[p.i] != '{')
        return fail(&p, "not exec --json's output (expected an object)"), false;
    bool ok = value(&p, CTX_TOP, NULL);
    if (ok) {
        ws(&p);
        if (p.i < p.n)
            ok = fail(&p, "something after the object");
    }
    static const struct { unsigned bit; const char *name; } need[] = {
        {SEEN_NET, "\"net\""}, {SEEN_ALGO, "\"algo\""}, {SEEN_BYTES, "\"bytes\""},
        {SEEN_NSTEPS, "\"steps\""}, {SEEN_MEASURED, "\"measured\" (meshcast exec --json writes it)"},
        {SEEN_TOTAL, "measured \"total\""}, {SEEN_MSTEPS, "measured \"steps\""},
        {SEEN_VERIFIED, "measured \"verified\""}};
    for (size_t k = 0; ok && k < sizeof need / sizeof need[0]; k++)
        if (!(p.seen & need[k].bit)) {
            snprintf(err, errlen, "no %s", need[k].name);
            ok = false;
        }
    if (ok && m->nmeas != m->nsteps) {
        snprintf(err, errlen, "%lld measured steps for a run of %lld steps",
                 (long long)m->nmeas, (long long)m->nsteps);
        ok = false;
    }
    if (ok && !m->verified) {
        snprintf(err, errlen, "the run was not verified");
        ok = false;
    }
    if (!ok)
        measfile_free(m);
    return ok;
}

bool measfile_read(const char *path, MeasFile *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return false;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    bool ok = buf != NULL, big = false;
    while (ok) {
        if (len == cap) {
            if (cap >= MEASFILE_MAX) {
                big = true;
                break;
            }
            char *b = realloc(buf, cap * 2);
            if (!b) {
                ok = false;
                break;
            }
            buf = b;
            cap *= 2;
        }
        size_t r = fread(buf + len, 1, cap - len, f);
        len += r;
        if (r == 0)
            break;
    }
    ok = ok && !ferror(f);
    fclose(f);
    char e[300] = "";
    if (big)
        snprintf(e, sizeof e, "over %u MiB: not exec --json's output", MEASFILE_MAX >> 20);
    else if (!ok)
        snprintf(e, sizeof e, "cannot read it");
    else if (!measfile_parse(buf, len, m, e, sizeof e))
        ok = false;
    free(buf);
    if (big || !ok)
        snprintf(err, errlen, "%s: %s", path, e);
    return ok && !big;
}

void measfile_free(MeasFile *m)
{
    free(m->steps);
    m->steps = NULL;
    m->nmeas = 0;
}
