/* termcheck.c — can this terminal draw the screen (see termcheck.h). */
#include "termcheck.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <term.h>

static bool has_str(const char *cap)
{
    char *s = tigetstr(cap);
    return s != NULL && s != (char *)-1 && *s != '\0';
}

bool termcheck_ok(int fd, char *err, size_t errlen)
{
    static const char batch[] = "set TERM to your terminal's type (e.g. xterm-256color), or use "
                                "the batch commands (meshcast run|schedule|compare; meshcast --help)";
    const char *term = getenv("TERM");
    if (!term || !*term) {
        snprintf(err, errlen, "TERM is not set: the screen needs to know the terminal; %s", batch);
        return false;
    }
    int rc = 0;
    if (setupterm((char *)term, fd, &rc) != OK) {
        /* (0: no entry, or a generic one; -1: no terminfo database) */
        snprintf(err, errlen, "unknown terminal type '%s' (no terminfo entry%s): the screen "
                 "cannot be drawn on it; %s", term, rc == 0 ? ", or a generic one" : "", batch);
        return false;
    }
    bool ok = has_str("cup") && (has_str("clear") || has_str("ed"));
    bool hard = tigetflag("hc") > 0 || tigetflag("gn") > 0;
    del_curterm(cur_term);
    if (!ok || hard) {
        snprintf(err, errlen, "terminal '%s' cannot move the cursor or clear the screen (terminfo "
                 "has no cup or clear): the screen cannot be drawn on it; %s", term, batch);
        return false;
    }
    return true;
}
