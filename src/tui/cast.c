/* cast.c — an asciicast v2 recording read and indexed in bounded memory (see cast.h). */
#include "cast.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../engine/text.h"

typedef struct {
    char *label;
    off_t key;    /* where the last full frame before the marker starts */
    off_t at;     /* where the marker's own line starts */
} Mark;

struct Cast {
    FILE *f;
    char name[160];
    int w, h;
    off_t first;  /* the first line after the header */
    Mark *marks;
    size_t nm, cap;
};

typedef struct {
    char *s;
    size_t n, cap;
} Buf;

/* Append n bytes; false when out of memory. */
static bool put(Buf *b, const void *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n + 1) cap *= 2;
        char *g = realloc(b->s, cap);
        if (!g) return false;
        b->s = g;
        b->cap = cap;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
    return true;
}

/* One line (without its '\n') into b: 1, or 0 at the end of the file, -1 when longer than
 * max, -2 out of memory. */
static int read_line(FILE *f, Buf *b, size_t max)
{
    b->n = 0;
    int c;
    bool any = false;
    char chunk[4096];
    size_t k = 0;
    while ((c = getc(f)) != EOF) {
        any = true;
        if (c == '\n') break;
        if (b->n + k >= max) return -1;
        chunk[k++] = (char)c;
        if (k == sizeof chunk) {
            if (!put(b, chunk, k)) return -2;
            k = 0;
        }
    }
    if (k && !put(b, chunk, k)) return -2;
    if (!put(b, "", 0)) return -2;
    return any ? 1 : 0;
}

/* ---- a little JSON, over [p, e) ------------------------------------------------------------ */

typedef struct {
    const char *p, *e;
} Js;

static void ws(Js *j)
{
    while (j->p < j->e && (*j->p == ' ' || *j->p == '\t' || *j->p == '\r' || *j->p == '\n')) j->p++;
}

static bool lit(Js *j, char c)
{
    ws(j);
    if (j->p < j->e && *j->p == c) {
        j->p++;
        return true;
    }
    return false;
}

static int hexval(char h)
{
    return h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
         : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
}

static bool hex4(Js *j, unsigned *v)
{
    if (j->e - j->p < 4) return false;
    *v = 0;
    for (int i = 0; i < 4; i++) {
        int d = hexval(j->p[i]);
        if (d < 0) return false;
        *v = *v * 16 + (unsigned)d;
    }
    j->p += 4;
    return true;
}

/* A JSON string, decoded into out (NULL: checked and skipped). */
static bool jstring(Js *j, Buf *out)
{
    if (!lit(j, '"')) return false;
    while (j->p < j->e) {
        unsigned char c = (unsigned char)*j->p++;
        if (c == '"') return true;
        if (c < 0x20) return false;
        if (c != '\\') {
            if (out && !put(out, &c, 1)) return false;
            continue;
        }
        if (j->p >= j->e) return false;
        char e = *j->p++, one = 0;
        switch (e) {
        case '"': case '\\': case '/': one = e; break;
        case 'b': one = '\b'; break;
        case 'f': one = '\f'; break;
        case 'n': one = '\n'; break;
        case 'r': one = '\r'; break;
        case 't': one = '\t'; break;
        case 'u': {
            unsigned v;
            if (!hex4(j, &v)) return false;
            if (v >= 0xD800 && v <= 0xDBFF && j->e - j->p >= 6 && j->p[0] == '\\' &&
                j->p[1] == 'u') {
                Js k = {j->p + 2, j->e};
                unsigned lo;
                if (hex4(&k, &lo) && lo >= 0xDC00 && lo <= 0xDFFF) {
                    v = 0x10000 + ((v - 0xD800) << 10) + (lo - 0xDC00);
                    j->p = k.p;
                }
            }
            if (v >= 0xD800 && v <= 0xDFFF) v = 0xFFFD;   /* a lone surrogate */
            char u8[4];
            int n = vt_utf8(v, u8);
            if (out && !put(out, u8, (size_t)n)) return false;
            continue;
        }
        default: return false;
        }
        if (out && !put(out, &one, 1)) return false;
    }
    return false;
}

static bool jnumber(Js *j, double *v)
{
    ws(j);
    const char *s = j->p;
    if (j->p < j->e && *j->p == '-') j->p++;
    const char *d = j->p;
    while (j->p < j->e && *j->p >= '0' && *j->p <= '9') j->p++;
    if (j->p == d) return false;
    if (j->p < j->e && *j->p == '.') {
        const char *f = ++j->p;
        while (j->p < j->e && *j->p >= '0' && *j->p <= '9') j->p++;
        if (j->p == f) return false;
    }
    if (j->p < j->e && (*j->p == 'e' || *j->p == 'E')) {
        j->p++;
        if (j->p < j->e && (*j->p == '+' || *j->p == '-')) j->p++;
        const char *x = j->p;
        while (j->p < j->e && *j->p >= '0' && *j->p <= '9') j->p++;
        if (j->p == x) return false;
    }
    char tmp[64];
    size_t n = (size_t)(j->p - s);
    if (n >= sizeof tmp) {
        *v = s[0] == '-' ? -1e300 : 1e300;   /* far out of any range we accept */
        return true;
    }
    memcpy(tmp, s, n);
    tmp[n] = '\0';
    *v = strtod(tmp, NULL);
    return true;
}

static bool jskip(Js *j, int depth)
{
    if (depth > 32) return false;
    ws(j);
    if (j->p >= j->e) return false;
    char c = *j->p;
    if (c == '"') return jstring(j, NULL);
    if (c == '{' || c == '[') {
        char close = c == '{' ? '}' : ']';
        j->p++;
        if (lit(j, close)) return true;
        do {
            if (c == '{' && (!jstring(j, NULL) || !lit(j, ':'))) return false;
            if (!jskip(j, depth + 1)) return false;
        } while (lit(j, ','));
        return lit(j, close);
    }
    static const char *const words[] = {"true", "false", "null"};
    for (int i = 0; i < 3; i++) {
        size_t l = strlen(words[i]);
        if ((size_t)(j->e - j->p) >= l && memcmp(j->p, words[i], l) == 0) {
            j->p += l;
            return true;
        }
    }
    double v;
    return jnumber(j, &v);
}

/* ---- the header and the events ---------------------------------------------------------- */

static bool fail(char *err, size_t errlen, const char *name, long line, const char *why)
{
    snprintf(err, errlen, "%s: not an asciicast v2 file (line %ld: %s)", name, line, why);
    return false;
}

static bool header(Cast *c, const Buf *b, char *err, size_t errlen)
{
    Js j = {b->s, b->s + b->n};
    if (b->n >= 3 && memcmp(b->s, "\xEF\xBB\xBF", 3) == 0) j.p += 3;   /* a byte order mark */
    double version = 0, w = 0, h = 0;
    bool hv = false, hw = false, hh = false;
    if (!lit(&j, '{')) return fail(err, errlen, c->name, 1, "the header is not a JSON object");
    if (!lit(&j, '}')) {
        Buf key = {0};
        bool ok = true;
        do {
            key.n = 0;
            if (!jstring(&j, &key) || !put(&key, "", 0) || !lit(&j, ':')) { ok = false; break; }
            double *slot = NULL;
            bool *seen = NULL;
            if (strcmp(key.s, "version") == 0) { slot = &version; seen = &hv; }
            else if (strcmp(key.s, "width") == 0) { slot = &w; seen = &hw; }
            else if (strcmp(key.s, "height") == 0) { slot = &h; seen = &hh; }
            if (slot ? !jnumber(&j, slot) : !jskip(&j, 0)) { ok = false; break; }
            if (seen) *seen = true;
        } while (lit(&j, ','));
        free(key.s);
        if (!ok || !lit(&j, '}'))
            return fail(err, errlen, c->name, 1, "the header is not a JSON object");
    }
    ws(&j);
    if (j.p != j.e) return fail(err, errlen, c->name, 1, "more after the header's object");
    if (!hv || version != 2) return fail(err, errlen, c->name, 1, "no \"version\": 2");
    if (!hw || !hh || w != (int)w || h != (int)h || w < 1 || h < 1)
        return fail(err, errlen, c->name, 1, "no whole \"width\" and \"height\"");
    if (w > VT_MAX || h > VT_MAX) {
        snprintf(err, errlen, "%s: a %.0fx%.0f recording is larger than replay draws (%dx%d)",
                 c->name, w > 1e9 ? 1e9 : w, h > 1e9 ? 1e9 : h, VT_MAX, VT_MAX);
        return false;
    }
    c->w = (int)w;
    c->h = (int)h;
    return true;
}

/* One event line: its kind ('o', 'i', 'r', 'm') and (for o, i, m) its data in out. */
static bool event(const Buf *b, char *kind, Buf *out, const char **why)
{
    Js j = {b->s, b->s + b->n};
    double t;
    Buf k = {0};
    out->n = 0;
    *why = "not an event [time, kind, data]";
    bool ok = lit(&j, '[') && jnumber(&j, &t) && lit(&j, ',') && jstring(&j, &k) && lit(&j, ',');
    if (ok && (k.n != 1 || !strchr("oirm", k.s[0]))) {
        *why = "an event kind that is not \"o\", \"i\", \"r\" or \"m\"";
        ok = false;
    }
    if (ok) *kind = k.s[0];
    free(k.s);
    if (!ok) return false;
    if (t < 0 || t != t) {
        *why = "a negative time";
        return false;
    }
    if (!jstring(&j, out) || !lit(&j, ']')) return false;
    ws(&j);
    if (j.p != j.e) return false;
    return put(out, "", 0);
}

static bool blank_line(const Buf *b)
{
    for (size_t i = 0; i < b->n; i++)
        if (b->s[i] != ' ' && b->s[i] != '\t' && b->s[i] != '\r') return false;
    return true;
}

static const char frame_start[] = "\033[H\033[2J";

static bool index_events(Cast *c, char *err, size_t errlen)
{
    Buf line = {0}, data = {0};
    long lineno = 1;
    off_t key = c->first;
    bool ok = true;
    for (;;) {
        off_t here = ftello(c->f);
        int r = read_line(c->f, &line, CAST_LINE_MAX);
        if (r == 0) break;
        lineno++;
        if (r == -1) {
            char why[80];
            snprintf(why, sizeof why, "a line over %d MiB", CAST_LINE_MAX >> 20);
            ok = fail(err, errlen, c->name, lineno, why);
            break;
        }
        if (r < 0) { ok = fail(err, errlen, c->name, lineno, "out of memory"); break; }
        if (blank_line(&line)) continue;
        char kind;
        const char *why;
        if (!event(&line, &kind, &data, &why)) { ok = fail(err, errlen, c->name, lineno, why); break; }
        if (kind == 'o' && data.n >= sizeof frame_start - 1 &&
            memcmp(data.s, frame_start, sizeof frame_start - 1) == 0)
            key = here;
        if (kind != 'm') continue;
        if (c->nm == CAST_MARKS_MAX) {
            char why2[80];
            snprintf(why2, sizeof why2, "more than %d markers", CAST_MARKS_MAX);
            ok = fail(err, errlen, c->name, lineno, why2);
            break;
        }
        if (c->nm == c->cap) {
            size_t cap = c->cap ? c->cap * 2 : 64;
            Mark *g = realloc(c->marks, cap * sizeof *g);
            if (!g) { ok = fail(err, errlen, c->name, lineno, "out of memory"); break; }
            c->marks = g;
            c->cap = cap;
        }
        char shown[120];
        char *label = strdup(text_quote(data.s, 100, shown, sizeof shown));
        if (!label) { ok = fail(err, errlen, c->name, lineno, "out of memory"); break; }
        c->marks[c->nm++] = (Mark){label, key, here};
    }
    if (ok && ferror(c->f)) {
        snprintf(err, errlen, "cannot read %s: %s", c->name, strerror(errno));
        ok = false;
    }
    free(line.s);
    free(data.s);
    return ok;
}

Cast *cast_read(FILE *f, const char *name, char *err, size_t errlen)
{
    Cast *c = calloc(1, sizeof *c);
    if (!c) {
        fclose(f);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    c->f = f;
    text_quote(name, 150, c->name, sizeof c->name);
    Buf line = {0};
    int r = read_line(f, &line, CAST_HEADER_MAX);
    bool ok;
    if (r == 0) ok = fail(err, errlen, c->name, 1, "an empty file");
    else if (r == -1) ok = fail(err, errlen, c->name, 1, "a header line over 64 KiB");
    else if (r < 0) ok = fail(err, errlen, c->name, 1, "out of memory");
    else ok = header(c, &line, err, errlen);
    free(line.s);
    if (ok) {
        c->first = ftello(f);
        ok = index_events(c, err, errlen);
    }
    if (!ok) {
        cast_free(c);
        return NULL;
    }
    return c;
}

Cast *cast_open(const char *path, char *err, size_t errlen)
{
    char shown[160];
    text_quote(path, 150, shown, sizeof shown);
    /* never wait in open (a FIFO), never read what is not a file (a device, /dev/zero) */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "cannot read %s: %s", shown, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: not a regular file", shown);
        close(fd);
        return NULL;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0) fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    FILE *f = fdopen(fd, "r");
    if (!f) {
        snprintf(err, errlen, "cannot read %s: %s", shown, strerror(errno));
        close(fd);
        return NULL;
    }
    return cast_read(f, path, err, errlen);
}

void cast_free(Cast *c)
{
    if (!c) return;
    for (size_t i = 0; i < c->nm; i++) free(c->marks[i].label);
    free(c->marks);
    if (c->f) fclose(c->f);
    free(c);
}

int cast_width(const Cast *c) { return c->w; }
int cast_height(const Cast *c) { return c->h; }
size_t cast_nmarks(const Cast *c) { return c->nm; }
const char *cast_label(const Cast *c, size_t i) { return i < c->nm ? c->marks[i].label : ""; }

long cast_find(const Cast *c, const char *label)
{
    for (size_t i = 0; i < c->nm; i++)
        if (strcmp(c->marks[i].label, label) == 0) return (long)i;
    return -1;
}

bool cast_render(Cast *c, size_t i, Vt *vt, char *err, size_t errlen)
{
    vt_reset(vt);
    if (i >= c->nm) return true;
    const Mark *m = &c->marks[i];
    if (fseeko(c->f, m->key, SEEK_SET) != 0) {
        snprintf(err, errlen, "cannot read %s: %s", c->name, strerror(errno));
        return false;
    }
    Buf line = {0}, data = {0};
    bool ok = true;
    while (ftello(c->f) < m->at) {
        int r = read_line(c->f, &line, CAST_LINE_MAX);
        char kind;
        const char *why;
        if (r <= 0 || (!blank_line(&line) && !event(&line, &kind, &data, &why))) {
            snprintf(err, errlen, "%s changed while it was replayed", c->name);
            ok = false;
            break;
        }
        if (!blank_line(&line) && kind == 'o') vt_feed(vt, data.s, data.n);
    }
    free(line.s);
    free(data.s);
    return ok;
}
