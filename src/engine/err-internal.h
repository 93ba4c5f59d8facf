/* err-internal.h — the engine's one-line error messages into a caller's buffer (src/engine
 * only). */
#ifndef MESHCAST_ERR_INTERNAL_H
#define MESHCAST_ERR_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* printf into err[0..errlen); nothing when err is NULL or errlen 0. */
static inline void err_set(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

#endif
