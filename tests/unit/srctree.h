/* srctree.h — for test and bench programs that read the shipped scripts and lessons by
 * relative path: make the source tree the working directory. */
#ifndef MESHCAST_SRCTREE_H
#define MESHCAST_SRCTREE_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* If `probe` (a path relative to the source tree, e.g. "scripts/st.lua") is not readable from
 * here, walk up from the directory of argv0 (build-san/tests/unit/X, build/bench/X) to the
 * first directory that has it and chdir there.  False if chdir fails. */
static inline bool srctree_enter(const char *argv0, const char *probe)
{
    if (access(probe, R_OK) == 0)
        return true;
    char p[4096];
    snprintf(p, sizeof p, "%s", argv0);
    for (int up = 0; up < 4; up++) {
        char *sl = strrchr(p, '/');
        if (!sl)
            break;
        *sl = '\0';
        char path[4200];
        snprintf(path, sizeof path, "%s/%s", p, probe);
        if (access(path, R_OK) == 0)
            return chdir(p) == 0;
    }
    return true;   /* not found: the caller's own checks will say what is missing */
}

#endif
