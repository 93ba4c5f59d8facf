/* input.c — terminal bytes to keys and mouse events (see input.h). */
#include "input.h"

#include <stdlib.h>
#include <string.h>
#include <termkey.h>

struct Input {
    TermKey *tk;
    char pend[32];     /* an SGR mouse report cut off at the end of a read */
    size_t npend;
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

/* Parse "ESC [ < b ; x ; y M|m" at s (len bytes).  Returns bytes used, 0 if s is not such a
 * report, -1 if it may be one but is cut off. */
static int sgr_mouse(const char *s, size_t len, int *b, int *x, int *y, bool *press)
{
    static const char lead[3] = {'\033', '[', '<'};
    /* a lone ESC or ESC [ at the end of a read is left to libtermkey (Escape, Alt-[) */
    for (size_t i = 0; i < 3; i++)
        if (i >= len || s[i] != lead[i]) return 0;
    int v[3] = {0, 0, 0}, nv = 0;
    bool digit = false;
    for (size_t i = 3; i < len; i++) {
        char c = s[i];
        if (c >= '0' && c <= '9') {
            if (v[nv] < 100000) v[nv] = v[nv] * 10 + (c - '0');
            digit = true;
        } else if (c == ';' && digit && nv < 2) {
            nv++;
            digit = false;
        } else if ((c == 'M' || c == 'm') && digit && nv == 2) {
            *b = v[0];
            *x = v[1];
            *y = v[2];
            *press = c == 'M';
            return (int)i + 1;
        } else {
            return 0;
        }
        if (i > 24) return 0;
    }
    return -1;
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

bool input_feed(Input *in, App *a, const char *bytes, size_t len)
{
    /* join a cut-off report with the new bytes */
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
            input_feed(in, a, joined, n);
            return input_feed(in, a, bytes + take, len - take);
        }
    }
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '\033') continue;
        int b, x, y;
        bool press;
        int used = sgr_mouse(s + i, n - i, &b, &x, &y, &press);
        if (used == 0) continue;
        /* the keys before it */
        if (i > start) {
            termkey_push_bytes(in->tk, s + start, i - start);
            drain(in, a);
        }
        if (used < 0) {
            size_t rest = n - i;
            if (rest <= sizeof in->pend) {
                memcpy(in->pend, s + i, rest);
                in->npend = rest;
                return false;
            }
            start = i;
            break;
        }
        mouse_event(a, b, x, y, press);
        i += (size_t)used - 1;
        start = i + 1;
    }
    if (start < n) {
        termkey_push_bytes(in->tk, s + start, n - start);
        drain(in, a);
    }
    TermKeyKey k;
    return termkey_getkey(in->tk, &k) == TERMKEY_RES_AGAIN;
}

void input_flush(Input *in, App *a)
{
    TermKeyKey k;
    if (in->npend) {
        termkey_push_bytes(in->tk, in->pend, in->npend);
        in->npend = 0;
        drain(in, a);
    }
    while (termkey_getkey_force(in->tk, &k) == TERMKEY_RES_KEY)
        deliver(in, a, &k);
}
