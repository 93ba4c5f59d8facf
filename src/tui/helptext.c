/* helptext.c — the help screen's lines (see helptext.h).  No curses here. */
#include "helptext.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app.h"
#include "cmdtab.h"

typedef struct {
    HelpRow *v;
    size_t n, cap;
} Rows;

static HelpRow *row_new(Rows *r)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 64;
        HelpRow *g = realloc(r->v, cap * sizeof *g);
        if (!g) return NULL;
        r->v = g;
        r->cap = cap;
    }
    HelpRow *h = &r->v[r->n++];
    h->keys[0] = h->text[0] = '\0';
    return h;
}

static int cols(const char *s, size_t len)
{
    int c = 0;
    for (size_t i = 0; i < len && s[i]; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80) c++;
    return c;
}

/* Bytes of s that fill at most w columns. */
static size_t fit(const char *s, int w)
{
    size_t i = 0;
    for (int c = 0; s[i] && c < w; c++) {
        i++;
        while (((unsigned char)s[i] & 0xC0) == 0x80) i++;
    }
    return i;
}

/* One entry: keys, then text wrapped at word boundaries to textw columns. */
static void entry(Rows *r, int keyw, int textw, const char *keys, const char *text)
{
    HelpRow *h = row_new(r);
    if (!h) return;
    snprintf(h->keys, sizeof h->keys, "%s", keys);
    if (cols(keys, strlen(keys)) > keyw) {   /* the keys on their own line */
        h = row_new(r);
        if (!h) return;
    }
    const char *s = text;
    for (;;) {
        while (*s == ' ') s++;
        size_t len = strlen(s);
        if (cols(s, len) > textw) {
            size_t cut = fit(s, textw), sp = cut;
            while (sp > 0 && s[sp] != ' ') sp--;
            len = sp > 0 ? sp : cut;   /* a word longer than the column is broken */
        }
        snprintf(h->text, sizeof h->text, "%.*s", (int)len, s);
        s += len;
        while (*s == ' ') s++;
        if (!*s) break;
        h = row_new(r);
        if (!h) return;
    }
}

HelpRow *helptext_rows(int keyw, int textw, size_t *n)
{
    Rows r = {0};
    size_t nk = 0, nc = 0;
    const AppKeyHelp *k = app_key_help(&nk);
    for (size_t i = 0; i < nk; i++) entry(&r, keyw, textw, k[i].keys, k[i].help);
    const CmdtabCmd *c = cmdtab_all(&nc);
    for (size_t i = 0; i < nc; i++)
        for (int j = 0; j < 2 && c[i].help[j].text; j++) {
            char keys[64];
            const char *args = c[i].help[j].args;
            snprintf(keys, sizeof keys, ":%s%s%s", c[i].name, args && *args ? " " : "",
                     args ? args : "");
            entry(&r, keyw, textw, keys, c[i].help[j].text);
        }
    *n = r.n;
    return r.v;
}
