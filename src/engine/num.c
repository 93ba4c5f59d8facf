/* num.c — the one number parser (see num.h). */
#include "num.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

static bool digit(char c) { return c >= '0' && c <= '9'; }

NumStatus num_u64(const char *text, uint64_t *out, const char **end)
{
    if (!text)
        return NUM_SYNTAX;
    if (text[0] == '-' && digit(text[1]))
        return NUM_NEGATIVE;
    if (!digit(text[0]))
        return NUM_SYNTAX;
    uint64_t v = 0;
    bool over = false;
    const char *p = text;
    for (; digit(*p); p++) {
        unsigned d = (unsigned)(*p - '0');
        if (v > (UINT64_MAX - d) / 10)
            over = true;
        else
            v = v * 10 + d;
    }
    if (end)
        *end = p;
    else if (*p != '\0')
        return NUM_SYNTAX;
    if (over)
        return NUM_TOO_LARGE;
    *out = v;
    return NUM_OK;
}

NumStatus num_i64(const char *text, int64_t *out)
{
    if (!text)
        return NUM_SYNTAX;
    bool neg = text[0] == '-';
    uint64_t v;
    NumStatus st = num_u64(text + neg, &v, NULL);
    if (st != NUM_OK)
        return st == NUM_NEGATIVE ? NUM_SYNTAX : st;   /* "--1" */
    if (v > (uint64_t)INT64_MAX + neg)
        return NUM_TOO_LARGE;
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return NUM_OK;
}

NumStatus num_real(const char *text, double *out)
{
    if (!text)
        return NUM_SYNTAX;
    const char *p = text;
    bool neg = *p == '-';
    p += neg;
    int mant = 0;
    while (digit(*p))
        p++, mant++;
    if (*p == '.') {
        p++;
        while (digit(*p))
            p++, mant++;
    }
    if (mant == 0)
        return NUM_SYNTAX;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!digit(*p))
            return NUM_SYNTAX;
        while (digit(*p))
            p++;
    }
    if (*p != '\0')
        return NUM_SYNTAX;
    /* The syntax is strtod's decimal subset, so strtod reads exactly text, in the C locale
     * (the screen runs under the user's, where the decimal point may be a comma). */
    static locale_t c_locale;
    if (!c_locale)
        c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    locale_t old = c_locale ? uselocale(c_locale) : (locale_t)0;
    errno = 0;
    double v = strtod(text, NULL);
    int e = errno;
    if (old)
        uselocale(old);
    if (!isfinite(v) || (e == ERANGE && fabs(v) > 1))
        return NUM_TOO_LARGE;
    *out = v == 0 ? 0.0 : v;   /* -0 is 0 */
    return NUM_OK;
}

const char *num_status_text(NumStatus st)
{
    switch (st) {
    case NUM_OK: return "a number";
    case NUM_SYNTAX: return "not a number";
    case NUM_TOO_LARGE: return "too large";
    case NUM_NEGATIVE: return "negative";
    }
    return "not a number";
}
