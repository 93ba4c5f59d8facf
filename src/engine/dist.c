/* dist.c — the source distributions of s-to-p broadcasting (definitions in dist.h and
 * docs/algorithms.md). */
#include "dist.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "err-internal.h"
#include "text.h"

static const struct {
    const char *name, *summary;
} kinds[DIST_NKINDS] = {
    [DIST_ROW] = {"R", "rows: ceil(s/c) evenly spaced rows, every row but the last full"},
    [DIST_ROW_IDEAL] = {"Ri", "ideal rows for br-xy-source: R, moved so that no two rows are "
                              "first-level Br_Lin partners"},
    [DIST_COL] = {"C", "columns: ceil(s/r) evenly spaced columns, every column but the last "
                       "full"},
    [DIST_EQUAL] = {"E", "equal: node 0 and every floor(p/s)-th or ceil(p/s)-th node"},
    [DIST_DIAG_R] = {"Dr", "right diagonals: the main diagonal from (0,0), the rest evenly "
                           "spaced"},
    [DIST_DIAG_L] = {"Dl", "left diagonals: the diagonal from (0,c-1), the rest evenly spaced"},
    [DIST_BAND] = {"B", "bands: ceil(sqrt(i)) evenly spaced bands of adjacent diagonals"},
    [DIST_CROSS] = {"X", "cross: a middle row bar and a middle column bar, about s/2 each"},
    [DIST_BLOCK] = {"SB", "square block: ceil(sqrt(s)) x ceil(sqrt(s)) in the top-left corner"},
};

const char *dist_name(DistKind k) { return k < DIST_NKINDS ? kinds[k].name : "list"; }

const char *dist_summary(DistKind k)
{
    return k < DIST_NKINDS ? kinds[k].summary : "an explicit list of nodes";
}

bool dist_kind_parse(const char *name, DistKind *out)
{
    for (int k = 0; k < DIST_NKINDS; k++)
        if (strcasecmp(name, kinds[k].name) == 0) {
            *out = (DistKind)k;
            return true;
        }
    return false;
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* Rows (or, transposed, columns) at the given positions, filled in order: every line but the
 * last full. */
static void fill_lines(const int32_t *line, int32_t nlines, int32_t r, int32_t c, bool rows,
                       int32_t s, int32_t *out)
{
    int32_t len = rows ? c : r, n = 0;
    for (int32_t k = 0; k < nlines && n < s; k++)
        for (int32_t j = 0; j < len && n < s; j++)
            out[n++] = rows ? line[k] * c + j : j * c + line[k];
}

/* The Br_Lin partner of line x among n lines at the first level (x and x + ceil(n/2); an odd
 * n's middle line sends to the one after it). */
static int32_t first_partner(int32_t x, int32_t n)
{
    int32_t a = (n + 1) / 2;
    if (x < a)
        return x + a < n ? x + a : (a < n ? a : -1);
    return x - a;
}

static void diag_cells(const int32_t *off, int32_t noff, int32_t r, int32_t c, bool left,
                       int32_t s, int32_t *out)
{
    int32_t L = r <= c ? r : c, n = 0;
    for (int32_t k = 0; k < noff && n < s; k++)
        for (int32_t x = 0; x < L && n < s; x++) {
            int32_t row, col;
            if (r <= c) {
                row = x;
                col = (int32_t)(((int64_t)x + off[k]) % c);
            } else {
                row = (int32_t)(((int64_t)x + off[k]) % r);
                col = x;
            }
            if (left)
                col = c - 1 - col;
            out[n++] = row * c + col;
        }
}

bool dist_cells(DistKind k, int32_t r, int32_t c, int32_t s, int32_t *out, char *err,
                size_t errlen)
{
    int64_t p = (int64_t)r * c;
    if (r < 1 || c < 1 || s < 1 || s > p || k >= DIST_NKINDS) {
        err_set(err, errlen, "bad distribution arguments");
        return false;
    }
    int32_t L = r <= c ? r : c, M = r <= c ? c : r;
    int32_t *tmp = NULL;
    unsigned char *used = NULL;
    bool ok = true;
    switch (k) {
    case DIST_ROW:
    case DIST_COL:
    case DIST_ROW_IDEAL: {
        bool rows = k != DIST_COL;
        int32_t len = rows ? c : r, nl = rows ? r : c;
        int32_t i = (int32_t)((s + (int64_t)len - 1) / len);
        tmp = malloc(sizeof *tmp * (size_t)i);
        /* used: bit 1 a source row, bit 2 the first-level partner of one (Ri) */
        used = calloc((size_t)nl, 1);
        if (!tmp || !used) {
            ok = false;
            break;
        }
        for (int32_t j = 0; j < i; j++) {
            int32_t x = (int32_t)((int64_t)j * nl / i);
            if (k == DIST_ROW_IDEAL) {
                /* the next row from x that is free, no source row's partner, and whose
                 * partner is neither a source row nor already another one's partner (an odd
                 * number of rows: the middle row's partner is also row 0's); if none, the
                 * next row that is no source */
                int32_t y = x, t;
                for (t = 0; t < nl; t++, y = (y + 1) % nl) {
                    int32_t q = first_partner(y, nl);
                    if (!used[y] && (q < 0 || !used[q]))
                        break;
                }
                if (t == nl)
                    for (y = x; used[y] & 1; y = (y + 1) % nl) {}
                x = y;
                int32_t q = first_partner(x, nl);
                if (q >= 0)
                    used[q] |= 2;
            }
            used[x] |= 1;
            tmp[j] = x;
        }
        fill_lines(tmp, i, r, c, rows, s, out);
        break;
    }
    case DIST_EQUAL:
        for (int32_t j = 0; j < s; j++)
            out[j] = (int32_t)((int64_t)j * p / s);
        break;
    case DIST_DIAG_R:
    case DIST_DIAG_L:
    case DIST_BAND: {
        int32_t i = (int32_t)((s + (int64_t)L - 1) / L);
        tmp = malloc(sizeof *tmp * (size_t)i);
        used = calloc((size_t)M, 1);
        if (!tmp || !used) {
            ok = false;
            break;
        }
        int32_t n = 0;
        if (k != DIST_BAND) {
            for (int32_t j = 0; j < i; j++)
                tmp[n++] = (int32_t)((int64_t)j * M / i);
        } else {
            int32_t b = (int32_t)ceil(sqrt((double)i));
            while ((int64_t)b * b < i)
                b++;
            while (b > 1 && (int64_t)(b - 1) * (b - 1) >= i)
                b--;
            int32_t w = (i + b - 1) / b;
            for (int32_t j = 0; j < b && n < i; j++) {
                int32_t start = (int32_t)((int64_t)j * M / b);
                for (int32_t t = 0; t < w && n < i; t++) {
                    int32_t o = (int32_t)(((int64_t)start + t) % M);
                    if (!used[o]) {
                        used[o] = 1;
                        tmp[n++] = o;
                    }
                }
            }
            for (int32_t o = 0; o < M && n < i; o++)
                if (!used[o]) {
                    used[o] = 1;
                    tmp[n++] = o;
                }
        }
        diag_cells(tmp, n, r, c, k == DIST_DIAG_L, s, out);
        break;
    }
    case DIST_CROSS: {
        used = calloc((size_t)p, 1);
        if (!used) {
            ok = false;
            break;
        }
        /* bar 0: rows from the middle (mid, mid+1, mid-1, ...); bar 1: columns likewise */
        int64_t pos[2] = {0, 0};   /* cells of each bar consumed */
        int32_t n = 0, bar = 0;
        while (n < s) {
            int32_t nl = bar == 0 ? r : c, len = bar == 0 ? c : r, mid = nl / 2;
            int64_t q = pos[bar];
            if (q >= p) {        /* this bar has covered the grid: take from the other */
                bar ^= 1;
                continue;
            }
            pos[bar]++;
            int32_t li = (int32_t)(q / len), j = (int32_t)(q % len);
            /* the li-th line outward from the middle: mid, mid+1, mid-1, mid+2, ... skipping
             * those outside */
            int32_t line = -1, cnt = -1;
            for (int32_t d = 0; cnt < li; d++) {
                int32_t cand[2] = {mid + d, mid - d};
                for (int e = 0; e < (d ? 2 : 1) && cnt < li; e++)
                    if (cand[e] >= 0 && cand[e] < nl) {
                        cnt++;
                        line = cand[e];
                    }
            }
            int32_t cell = bar == 0 ? line * c + j : j * c + line;
            if (used[cell])
                continue;        /* in both bars: counted once; the same bar takes the next */
            used[cell] = 1;
            out[n++] = cell;
            bar ^= 1;
        }
        break;
    }
    case DIST_BLOCK: {
        int32_t h = (int32_t)ceil(sqrt((double)s));
        while ((int64_t)h * h < s)
            h++;
        if (h > r)
            h = r;
        int32_t w = (int32_t)((s + (int64_t)h - 1) / h);
        if (w > c) {
            w = c;
            h = (int32_t)((s + (int64_t)c - 1) / c);
        }
        int32_t n = 0;
        for (int32_t x = 0; x < h && n < s; x++)
            for (int32_t y = 0; y < w && n < s; y++)
                out[n++] = x * c + y;
        break;
    }
    default:
        ok = false;
    }
    free(tmp);
    free(used);
    if (!ok) {
        err_set(err, errlen, "out of memory");
        return false;
    }
    qsort(out, (size_t)s, sizeof *out, cmp_i32);
    return true;
}

bool dist_grid(const Net *net, int32_t *r, int32_t *c)
{
    if (net_ndim(net) == 1) {
        *r = 1;
        *c = net_dim(net, 0);
        return true;
    }
    if (net_ndim(net) == 2) {
        *r = net_dim(net, 0);
        *c = net_dim(net, 1);
        return true;
    }
    return false;
}

void dist_max_per_line(int32_t r, int32_t c, const int32_t *src, int32_t n, int32_t *maxrow,
                       int32_t *maxcol)
{
    int32_t *rows = calloc((size_t)r, sizeof *rows), *cols = calloc((size_t)c, sizeof *cols);
    int32_t mr = 0, mc = 0;
    if (rows && cols)
        for (int32_t i = 0; i < n; i++) {
            int32_t x = src[i] / c, y = src[i] % c;
            if (++rows[x] > mr)
                mr = rows[x];
            if (++cols[y] > mc)
                mc = cols[y];
        }
    free(rows);
    free(cols);
    *maxrow = mr;
    *maxcol = mc;
}

static bool parse_count(const char *text, int64_t *out)
{
    if (!isdigit((unsigned char)text[0]))
        return false;
    errno = 0;
    char *end;
    long long v = strtoll(text, &end, 10);
    if (errno != 0 || *end != '\0')
        return false;
    *out = v;
    return true;
}

bool dist_parse(const Net *net, const char *spec, int32_t **out, int32_t *n, DistKind *kind,
                char *err, size_t errlen)
{
    char q[48];
    int32_t p = net_size(net);
    *out = NULL;
    *n = 0;
    const char *colon = strchr(spec, ':');
    if (colon) {
        char name[8];
        size_t nl = (size_t)(colon - spec);
        DistKind k;
        if (nl >= sizeof name || (memcpy(name, spec, nl), name[nl] = '\0',
                                  !dist_kind_parse(name, &k))) {
            err_set(err, errlen, "bad --sources '%s': unknown distribution (R, Ri, C, E, Dr, "
                    "Dl, B, X, SB: meshcast list distributions)", text_quote(spec, 32, q, sizeof q));
            return false;
        }
        int64_t s;
        if (!parse_count(colon + 1, &s)) {
            err_set(err, errlen, "bad --sources '%s': expected %s:S with S a number of sources",
                    text_quote(spec, 32, q, sizeof q), dist_name(k));
            return false;
        }
        if (s < 1 || s > p) {
            err_set(err, errlen, "bad --sources '%s': s must be 1..%ld on %s",
                    text_quote(spec, 32, q, sizeof q), (long)p, net_spec(net));
            return false;
        }
        int32_t r, c;
        if (!dist_grid(net, &r, &c)) {
            err_set(err, errlen, "bad --sources '%s': distributions are defined on 1-D and 2-D "
                    "nets (give a list of nodes)", text_quote(spec, 32, q, sizeof q));
            return false;
        }
        int32_t *v = malloc(sizeof *v * (size_t)s);
        if (!v || !dist_cells(k, r, c, (int32_t)s, v, err, errlen)) {
            free(v);
            err_set(err, errlen, "out of memory");
            return false;
        }
        *out = v;
        *n = (int32_t)s;
        *kind = k;
        return true;
    }
    /* an explicit list */
    char sep = strchr(spec, ';') ? ';' : ',';
    size_t cap = 1;
    for (const char *t = spec; *t; t++)
        cap += *t == sep;
    if (cap > (size_t)p) {
        err_set(err, errlen, "bad --sources: %zu nodes on %s of %ld nodes", cap, net_spec(net),
                (long)p);
        return false;
    }
    int32_t *v = malloc(sizeof *v * cap);
    unsigned char *seen = calloc((size_t)p, 1);
    if (!v || !seen) {
        free(v);
        free(seen);
        err_set(err, errlen, "out of memory");
        return false;
    }
    int32_t m = 0;
    const char *t = spec;
    for (;;) {
        const char *e = strchr(t, sep);
        size_t len = e ? (size_t)(e - t) : strlen(t);
        char item[64];
        if (len == 0 || len >= sizeof item) {
            err_set(err, errlen, len ? "bad --sources: item too long" :
                    "bad --sources '%s': an empty item (nodes separated by ',' or ';')",
                    text_quote(spec, 32, q, sizeof q));
            goto fail;
        }
        memcpy(item, t, len);
        item[len] = '\0';
        int32_t id = net_parse_node(net, item);
        if (id < 0) {
            err_set(err, errlen, "bad --sources: node '%s' is not a node of %s (nodes 0..%ld, "
                    "or a distribution such as R:20)", text_quote(item, 24, q, sizeof q),
                    net_spec(net), (long)p - 1);
            goto fail;
        }
        if (seen[id]) {
            err_set(err, errlen, "bad --sources: node %ld given twice", (long)id);
            goto fail;
        }
        seen[id] = 1;
        v[m++] = id;
        if (!e)
            break;
        t = e + 1;
    }
    free(seen);
    qsort(v, (size_t)m, sizeof *v, cmp_i32);
    *out = v;
    *n = m;
    *kind = DIST_LIST;
    return true;
fail:
    free(v);
    free(seen);
    return false;
}
