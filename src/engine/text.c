/* text.c — quoting a user's text in messages (see text.h). */
#include "text.h"

#include <stdio.h>
#include <string.h>

const char *text_quote(const char *text, size_t max, char *buf, size_t len)
{
    if (!buf || len == 0)
        return buf;
    if (!text)
        text = "";
    size_t tl = strlen(text), cut = tl > max ? max : tl;
    if (cut > len - 1)
        cut = len - 1;
    while (cut < tl && cut > 0 && ((unsigned char)text[cut] & 0xC0) == 0x80)
        cut--;
    for (size_t i = 0; i < cut; i++) {
        unsigned char ch = (unsigned char)text[i];
        buf[i] = ch < 0x20 || ch == 0x7f ? '?' : (char)ch;
    }
    snprintf(buf + cut, len - cut, "%s", cut < tl ? "..." : "");
    return buf;
}
