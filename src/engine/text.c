/* text.c — quoting a user's text in messages (see text.h). */
#include "text.h"

#include <stdio.h>
#include <string.h>

int text_utf8_len(const unsigned char *p)
{
    unsigned char c = p[0];
    int n;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
    } else
        return 0;
    if (p[1] < lo || p[1] > hi)
        return 0;
    for (int i = 2; i < n; i++)
        if (p[i] < 0x80 || p[i] > 0xBF)
            return 0;
    return n;
}

/* Bytes of the character at p, and whether it may be shown as it is. */
static size_t char_at(const unsigned char *p, bool *shown)
{
    if (*p < 0x80) {
        *shown = *p >= 0x20 && *p != 0x7f;
        return 1;
    }
    int n = text_utf8_len(p);
    if (n == 0) {
        *shown = false;
        return 1;
    }
    *shown = !(n == 2 && p[0] == 0xC2 && p[1] < 0xA0);   /* C1 controls */
    return (size_t)n;
}

const char *text_quote(const char *text, size_t max, char *buf, size_t len)
{
    if (!buf || len == 0)
        return buf;
    if (!text)
        text = "";
    const unsigned char *p = (const unsigned char *)text;
    size_t room = len - 1 < max ? len - 1 : max, in = 0, out = 0;
    while (p[in]) {
        bool shown;
        size_t n = char_at(p + in, &shown);
        if ((shown ? n : 1) + out > room || n + in > max)
            break;
        if (shown) {
            memcpy(buf + out, p + in, n);
            out += n;
            in += n;
        } else {
            /* one '?' per byte: a C1 control is two */
            for (size_t k = 0; k < n && out < room; k++)
                buf[out++] = '?';
            in += n;
        }
    }
    snprintf(buf + out, len - out, "%s", p[in] ? "..." : "");
    return buf;
}

bool text_is_clean(const char *text)
{
    const unsigned char *p = (const unsigned char *)(text ? text : "");
    while (*p) {
        bool shown;
        p += char_at(p, &shown);
        if (!shown)
            return false;
    }
    return true;
}

/* A CSI sequence's parameters that are safe for its final byte. */
static bool csi_safe(const unsigned char *par, size_t np, unsigned char fin)
{
    bool priv = np > 0 && par[0] == '?';
    for (size_t i = priv; i < np; i++)
        if (!((par[i] >= '0' && par[i] <= '9') || par[i] == ';' || par[i] == ':'))
            return false;   /* '<', '=', '>' private markers: requests and reports */
    if (fin == 'h' || fin == 'l') {
        /* modes: only ?1 (cursor keys), ?7 (autowrap), ?25 (cursor shown), ?1049/?47/?1047
         * (the alternate screen), and 4 (insert) */
        char num[16];
        if (np - priv >= sizeof num)
            return false;
        memcpy(num, par + priv, np - priv);
        num[np - priv] = '\0';
        static const char *const ok_priv[] = {"1", "7", "25", "47", "1047", "1049", NULL};
        if (!priv)
            return strcmp(num, "4") == 0;
        for (int k = 0; ok_priv[k]; k++)
            if (strcmp(num, ok_priv[k]) == 0)
                return true;
        return false;
    }
    if (priv)
        return false;
    return strchr("mHfABCDEFGdJKXLM@PSTr", fin) != NULL;
}

size_t text_terminal_safe(const char *in, size_t n, char *out)
{
    const unsigned char *p = (const unsigned char *)in;
    size_t i = 0, o = 0;
    while (i < n) {
        unsigned char c = p[i];
        if (c >= 0x20 && c < 0x7f) {
            out[o++] = (char)c;
            i++;
        } else if (c == '\n' || c == '\r' || c == '\t' || c == '\b') {
            out[o++] = (char)c;
            i++;
        } else if (c >= 0x80) {
            /* a whole, valid, non-C1 character (the NUL-free check reads only within n) */
            unsigned char tmp[5] = {0, 0, 0, 0, 0};
            size_t k = 0;
            for (; k < 4 && i + k < n; k++)
                tmp[k] = p[i + k];
            int l = text_utf8_len(tmp);
            if (l == 0 || (l == 2 && tmp[0] == 0xC2 && tmp[1] < 0xA0)) {
                i++;
                continue;
            }
            memcpy(out + o, p + i, (size_t)l);
            o += (size_t)l;
            i += (size_t)l;
        } else if (c == 0x1b && i + 1 < n) {
            unsigned char t = p[i + 1];
            if (t == '[') {
                size_t j = i + 2, ps = j;
                while (j < n && p[j] >= 0x30 && p[j] <= 0x3f)
                    j++;
                size_t pe = j;
                while (j < n && p[j] >= 0x20 && p[j] <= 0x2f)
                    j++;
                if (j >= n)
                    break;   /* cut short: dropped */
                unsigned char fin = p[j];
                bool keep = j == pe && fin >= 0x40 && fin <= 0x7e && csi_safe(p + ps, pe - ps, fin);
                if (keep) {
                    memcpy(out + o, p + i, j + 1 - i);
                    o += j + 1 - i;
                }
                i = j + 1;
            } else if (t == ']' || t == 'P' || t == '_' || t == '^' || t == 'X') {
                /* a string: dropped up to its end (ST = ESC \, or BEL after an OSC) */
                size_t j = i + 2;
                while (j < n && !(p[j] == 0x07 && t == ']') &&
                       !(p[j] == 0x1b && j + 1 < n && p[j + 1] == '\\'))
                    j++;
                i = j >= n ? n : p[j] == 0x07 ? j + 1 : j + 2;
            } else if (t == '7' || t == '8' || t == 'M' || t == '=' || t == '>') {
                out[o++] = 0x1b;
                out[o++] = (char)t;
                i += 2;
            } else if (t == '(' && i + 2 < n && (p[i + 2] == 'B' || p[i + 2] == '0')) {
                memcpy(out + o, p + i, 3);
                o += 3;
                i += 3;
            } else {
                i += 2;   /* any other escape (ESC c resets the terminal): dropped */
            }
        } else {
            i++;   /* other C0 controls, DEL, a lone ESC at the end */
        }
    }
    return o;
}

int text_edit_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > 64 || m > 64)
        return 10;
    int row[65];
    for (size_t j = 0; j <= m; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= n; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= m; j++) {
            int up = row[j];
            int best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[m] > 9 ? 10 : row[m];
}

const char *text_nearest(const char *word, const char *const *names)
{
    const char *best = NULL;
    int bd = 3;
    for (size_t i = 0; names && names[i]; i++) {
        int d = text_edit_distance(word, names[i]);
        if (d < bd && (size_t)d < strlen(word)) {
            bd = d;
            best = names[i];
        }
    }
    return best;
}

const char *text_did_you_mean(const char *word, const char *const *names, char *buf, size_t len)
{
    const char *n = word ? text_nearest(word, names) : NULL;
    char q[80];
    if (len)
        buf[0] = '\0';
    if (n && len)
        snprintf(buf, len, " (did you mean '%s'?)", text_quote(n, 64, q, sizeof q));
    return buf;
}
