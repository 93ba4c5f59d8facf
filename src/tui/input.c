/* input.c — terminal bytes to keys and mouse events (see input.h). */
#include "input.h"

#include <stdlib.h>
#include <string.h>
#include <termkey.h>

struct Input {
    TermKey *tk;
    char pend[32];     /* a CSI sequence cut off at the end of a read */
    size_t npend;
    bool utf8;
    int need;          /* UTF-8 continuation bytes still expected */
};

Input *input_new(const char *term, bool utf8)
{
    Input *in = calloc(1, sizeof *in);
    if (!in) return NULL;
    if (!term || !*term) term = getenv("TERM");
    if (!term || !*term) term = "xterm";
    int flags = TERMKEY_FLAG_NOTERMIOS | TERMKEY_FLAG_SPACESYMBOL | TERMKEY_FLAG_CTRLC |
                (utf8 ? TERMKEY_FLAG_UTF8 : TERMKEY_FLAG_RAW);
    in->tk = termkey_new_abstract(term, flags);
    if (!in->tk) in->tk = termkey_new_abstract("xterm", flags);
    if (!in->tk) {
        free(in);
        return NULL;
    }
    termkey_set_canonflags(in->tk, termkey_get_canonflags(in->tk) | TERMKEY_CANON_DELBS);
    in->utf8 = utf8;
    return in;
}

void input_free(Input *in)
{
    if (!in) return;
    termkey_destroy(in->tk);
    free(in);
}

int input_waittime(const Input *in) { return termkey_get_waittime(in->tk); }

static void deliver(Input *in, App *a, TermKeyKey *k)
{
    char buf[64];
    if (k->type == TERMKEY_TYPE_MOUSE) {
        /* only from a terminal whose terminfo matches libtermkey's idea of mouse reports */
        TermKeyMouseEvent ev;
        int button, line, col;
        termkey_interpret_mouse(in->tk, k, &ev, &button, &line, &col);
        if (ev == TERMKEY_MOUSE_PRESS) app_mouse(a, button, true, line - 1, col - 1);
        return;
    }
    termkey_strfkey(in->tk, buf, sizeof buf, k, TERMKEY_FORMAT_VIM);
    app_key(a, buf);
}

static void drain(Input *in, App *a)
{
    TermKeyKey k;
    TermKeyResult r;
    while ((r = termkey_getkey(in->tk, &k)) == TERMKEY_RES_KEY)
        deliver(in, a, &k);
}

/* Give libtermkey the bytes and the App their keys, in pieces its buffer (256 bytes by
 * default) takes: what it does not take at once would be lost (keys queued during a build
 * come in one long piece). */
static void push(Input *in, App *a, const char *s, size_t n)
{
    while (n > 0) {
        size_t took = termkey_push_bytes(in->tk, s, n);
        if (took == 0 || took == (size_t)-1) {
            /* full: deliver what it has, then try again; nothing to deliver: give up */
            TermKeyKey k;
            if (termkey_getkey_force(in->tk, &k) != TERMKEY_RES_KEY) return;
            deliver(in, a, &k);
            continue;
        }
        drain(in, a);
        s += took;
        n -= took;
    }
}

/* A CSI sequence at s (s[0] == ESC): ESC [ params(0x30-0x3F)* intermediates(0x20-0x2F)*
 * final(0x40-0x7E).  Returns its length; 0 if s does not start one; -1 if it is cut off at the
 * end of the bytes.  *bad is set for one libtermkey must not see: intermediates present,
 * malformed (then the length covers ESC [ and the parameter/intermediate bytes only), or a
 * "CSI codepoint u" key whose parameters do not start with the codepoint's digits (libtermkey
 * 0.22 crashes naming the key of "ESC [ ; 5 u": no key sends it). */
static int csi_len(const char *s, size_t n, bool *bad, char *final)
{
    if (n < 2 || s[1] != '[') return 0;
    size_t j = 2;
    while (j < n && s[j] >= 0x30 && s[j] <= 0x3F) j++;
    size_t k = j;
    while (j < n && s[j] >= 0x20 && s[j] <= 0x2F) j++;
    if (j >= n) {
        if (n <= 24) return -1;
        *bad = true;
        return (int)n;
    }
    unsigned char f = (unsigned char)s[j];
    if (f < 0x40 || f > 0x7E) {
        *bad = true;
        *final = 0;
        return (int)j;
    }
    *bad = j > k || (f == 'u' && k > 2 && !(s[2] >= '0' && s[2] <= '9'));
    *final = (char)f;
    return (int)j + 1;
}

/* "ESC [ < b ; x ; y M|m" (len bytes, complete): false if malformed. */
static bool sgr_mouse(const char *s, size_t len, int *b, int *x, int *y)
{
    int v[3] = {0, 0, 0}, nv = 0;
    bool digit = false;
    for (size_t i = 3; i + 1 < len; i++) {
        char c = s[i];
        if (c >= '0' && c <= '9') {
            if (v[nv] < 100000) v[nv] = v[nv] * 10 + (c - '0');
            digit = true;
        } else if (c == ';' && digit && nv < 2) {
            nv++;
            digit = false;
        } else {
            return false;
        }
    }
    if (nv != 2 || !digit) return false;
    *b = v[0];
    *x = v[1];
    *y = v[2];
    return true;
}

static void mouse_event(App *a, int b, int x, int y, bool press)
{
    if (b & 32) return;            /* motion */
    int button;
    if (b & 64) button = (b & 1) ? 5 : 4;
    else button = (b & 3) + 1;
    if (button > 5) return;
    app_mouse(a, button, press, y - 1, x - 1);
}

/* Scan the bytes: keys go to libtermkey, SGR mouse reports to app_mouse, and CSI sequences
 * with intermediate bytes or malformed ones (no key sends them; libtermkey 0.22 crashes on
 * some, e.g. "ESC [ SP P") are dropped.  A sequence cut off at the end waits in in->pend. */
static bool feed_clean(Input *in, App *a, const char *bytes, size_t len);

/* Drop the bytes no key sends and libtermkey may trip on: in UTF-8, stray continuation bytes
 * and invalid lead bytes (they include the 8-bit C1 controls such as 0x9b, CSI); otherwise the
 * C1 controls 0x80-0x9f.  Valid text passes unchanged, even split across reads. */
static size_t clean_bytes(Input *in, const char *src, size_t n, char *dst)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)src[i];
        if (!in->utf8) {
            if (c >= 0x80 && c <= 0x9f) continue;
            dst[o++] = (char)c;
            continue;
        }
        if (c < 0x80) {
            in->need = 0;
        } else if (c <= 0xbf) {
            if (in->need == 0) continue;      /* a stray continuation byte (or C1) */
            in->need--;
        } else if (c >= 0xc2 && c <= 0xf4) {
            in->need = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : 1;
        } else {
            continue;                         /* 0xc0, 0xc1, 0xf5..0xff: never valid */
        }
        dst[o++] = (char)c;
    }
    return o;
}

bool input_feed(Input *in, App *a, const char *bytes, size_t len)
{
    char clean[1024];
    bool pending = false;
    for (size_t off = 0; off < len; off += sizeof clean) {
        size_t take = len - off < sizeof clean ? len - off : sizeof clean;
        size_t m = clean_bytes(in, bytes + off, take, clean);
        pending = feed_clean(in, a, clean, m);
    }
    return pending;
}

static bool feed_clean(Input *in, App *a, const char *bytes, size_t len)
{
    /* join a cut-off sequence with the new bytes */
    char joined[4096 + sizeof in->pend];
    const char *s = bytes;
    size_t n = len;
    if (in->npend) {
        size_t take = len < 4096 ? len : 4096;
        memcpy(joined, in->pend, in->npend);
        memcpy(joined + in->npend, bytes, take);
        s = joined;
        n = in->npend + take;
        in->npend = 0;
        if (take < len) {
            feed_clean(in, a, joined, n);
            return feed_clean(in, a, bytes + take, len - take);
        }
    }
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\033') continue;
        bool inter = false;
        char fin = 0;
        /* an ESC at the very end waits here too (Escape, or the start of a sequence whose
         * rest comes in the next read), so that libtermkey never sees a CSI in pieces */
        int used = i + 1 == n ? -1 : csi_len(s + i, n - i, &inter, &fin);
        if (used == 0) continue;
        bool mouse = used > 0 && !inter && s[i + 2] == '<' && (fin == 'M' || fin == 'm');
        if (used > 0 && !inter && !mouse) {   /* an ordinary key sequence: libtermkey's */
            i += (size_t)used - 1;
            continue;
        }
        /* the keys before it */
        if (i > start) {
            push(in, a, s + start, i - start);
        }
        if (used < 0) {
            memcpy(in->pend, s + i, n - i);   /* n - i <= 24 */
            in->npend = n - i;
            return true;
        }
        int b, x, y;
        if (mouse && sgr_mouse(s + i, (size_t)used, &b, &x, &y))
            mouse_event(a, b, x, y, fin == 'M');
        i += (size_t)used - 1;
        start = i + 1;
    }
    if (start < n) {
        push(in, a, s + start, n - start);
    }
    TermKeyKey k;
    return termkey_getkey(in->tk, &k) == TERMKEY_RES_AGAIN;
}

void input_flush(Input *in, App *a)
{
    TermKeyKey k;
    if (in->npend) {
        /* a sequence that never finished: "ESC [" alone is Alt-[; anything longer that
         * stopped half way (a mouse report, intermediates) is dropped */
        if (in->npend <= 2) {
            push(in, a, in->pend, in->npend);
        }
        in->npend = 0;
    }
    while (termkey_getkey_force(in->tk, &k) == TERMKEY_RES_KEY)
        deliver(in, a, &k);
    in->need = 0;   /* libtermkey dropped any half character: its rest is stray now */
}
