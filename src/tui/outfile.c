/* outfile.c — a file replaced only when complete, and only when it may be (see outfile.h). */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../engine/text.h"

struct OutFile {
    FILE *f;
    char *path, *tmp;
};

/* The first line of the regular file fd (at most 4 KiB), NUL-terminated, in buf. */
static void first_line(int fd, char *buf, size_t len)
{
    ssize_t n = read(fd, buf, len - 1);
    buf[n > 0 ? n : 0] = '\0';
    char *nl = strchr(buf, '\n');
    if (nl) *nl = '\0';
}

OutFile *outfile_open(const char *path, bool force, bool (*recognized)(const char *first_line),
                      const char *const *inputs, const char *force_hint, char *err,
                      size_t errlen)
{
    char shown[200];
    text_quote(path, 150, shown, sizeof shown);
    struct stat st;
    if (stat(path, &st) == 0) {
        if (!S_ISREG(st.st_mode)) {
            snprintf(err, errlen, "%s: not a regular file, not replaced", shown);
            return NULL;
        }
        for (size_t i = 0; inputs && inputs[i]; i++) {
            struct stat in;
            if (stat(inputs[i], &in) == 0 && in.st_dev == st.st_dev && in.st_ino == st.st_ino) {
                snprintf(err, errlen, "%s is a file this session reads, not replaced", shown);
                return NULL;
            }
        }
        if (!force) {
            bool ok = false;
            int fd = recognized ? open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) : -1;
            if (fd >= 0) {
                char line[4096];
                first_line(fd, line, sizeof line);
                close(fd);
                ok = recognized(line);
            }
            if (!ok) {
                snprintf(err, errlen, "%s exists%s; %s", shown,
                         recognized ? " and is not an asciicast" : "", force_hint);
                return NULL;
            }
        }
    } else if (errno != ENOENT) {
        snprintf(err, errlen, "cannot write %s: %s", shown, strerror(errno));
        return NULL;
    }
    OutFile *o = calloc(1, sizeof *o);
    size_t n = strlen(path);
    if (o) o->path = strdup(path);
    if (o) o->tmp = malloc(n + 16);
    if (!o || !o->path || !o->tmp) {
        if (o) { free(o->path); free(o->tmp); free(o); }
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    const char *slash = strrchr(path, '/');
    size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    snprintf(o->tmp, n + 16, "%.*s.%s.XXXXXX", (int)dir, path, path + dir);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        snprintf(err, errlen, "cannot write %s: %s", shown, strerror(errno));
        free(o->path); free(o->tmp); free(o);
        return NULL;
    }
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    o->f = fdopen(fd, "w");
    if (!o->f) {
        snprintf(err, errlen, "cannot write %s: %s", shown, strerror(errno));
        close(fd);
        unlink(o->tmp);
        free(o->path); free(o->tmp); free(o);
        return NULL;
    }
    return o;
}

FILE *outfile_stream(OutFile *o) { return o->f; }

bool outfile_commit(OutFile *o, char *err, size_t errlen)
{
    bool ok = !ferror(o->f);
    ok = fclose(o->f) == 0 && ok;
    int e = errno;
    if (ok && rename(o->tmp, o->path) != 0) {
        ok = false;
        e = errno;
    }
    if (!ok) {
        char shown[200];
        snprintf(err, errlen, "cannot write %s: %s", text_quote(o->path, 150, shown, sizeof shown),
                 strerror(e));
        unlink(o->tmp);
    }
    free(o->path);
    free(o->tmp);
    free(o);
    return ok;
}

void outfile_abort(OutFile *o)
{
    if (!o) return;
    fclose(o->f);
    unlink(o->tmp);
    free(o->path);
    free(o->tmp);
    free(o);
}
