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
