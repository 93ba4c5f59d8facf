/* exec-launch.c — write the schedule, start meshcast-mpi under the launcher, read its report. */
#include "exec-launch.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../engine/schedbin.h"

#define DIRMAX 1024   /* the scratch directory's path (TMPDIR longer: /tmp) */
#define INSTALL_HINT "meshcast exec needs Open MPI and meshcast-mpi: install openmpi-bin and " \
                     "libopenmpi-dev (make deps), then rebuild (make)"

static bool executable(const char *p) { return access(p, X_OK) == 0; }

/* name on PATH into out. */
static bool on_path(const char *name, char *out, size_t len)
{
    const char *path = getenv("PATH");
    if (!path)
        return false;
    while (*path) {
        const char *c = strchr(path, ':');
        size_t n = c ? (size_t)(c - path) : strlen(path);
        if (n > 0 && (size_t)snprintf(out, len, "%.*s/%s", (int)n, path, name) < len &&
            executable(out))
            return true;
        path += n + (c != NULL);
    }
    return false;
}

static bool find_mpi(char *out, size_t len)
{
    const char *e = getenv("MESHCAST_MPI");
    if (e && *e) {
        snprintf(out, len, "%s", e);
        return executable(out);
    }
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = 0;
        char *slash = strrchr(self, '/');
        if (slash) {
            *slash = 0;
            if ((size_t)snprintf(out, len, "%s/meshcast-mpi", self) < len && executable(out))
                return true;
        }
    }
    return on_path("meshcast-mpi", out, len);
}

/* s in single quotes for sh. */
static void quote(char *buf, size_t len, const char *s)
{
    size_t o = strlen(buf);
    if (o + 1 < len)
        buf[o++] = '\'';
    for (; *s && o + 5 < len; s++) {
        if (*s == '\'') {
            memcpy(buf + o, "'\\''", 4);
            o += 4;
        } else {
            buf[o++] = *s;
        }
    }
    if (o + 1 < len)
        buf[o++] = '\'';
    buf[o] = 0;
}

static void append(char *buf, size_t len, const char *fmt, const char *a)
{
    size_t o = strlen(buf);
    snprintf(buf + o, len - o, fmt, a);
}

/* The launcher: CMD with {np} replaced, or mpirun -np N [--oversubscribe]. */
static bool launcher(const ExecLaunch *l, char *out, size_t len, char *err, size_t errlen)
{
    const char *cmd = l->mpirun ? l->mpirun : getenv("MESHCAST_MPIRUN");
    char np[16];
    snprintf(np, sizeof np, "%d", l->np);
    out[0] = 0;
    if (cmd && *cmd) {
        for (const char *p = cmd; *p;) {
            if (strncmp(p, "{np}", 4) == 0) {
                append(out, len, "%s", np);
                p += 4;
            } else {
                char c[2] = {*p++, 0};
                append(out, len, "%s", c);
            }
        }
    } else {
        char path[PATH_MAX];
        if (!on_path("mpirun", path, sizeof path)) {
            snprintf(err, errlen, "%s (no mpirun on PATH)", INSTALL_HINT);
            return false;
        }
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        snprintf(out, len, "mpirun -np %d%s", l->np,
                 cores > 0 && l->np > cores ? " --oversubscribe" : "");
    }
    if (l->hostfile) {
        append(out, len, "%s", " --hostfile ");
        quote(out, len, l->hostfile);
    }
    return true;
}

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *b = malloc(cap);
    for (size_t got; b && (got = fread(b + n, 1, cap - n - 1, f)) > 0;) {
        n += got;
        if (n + 1 == cap) {
            char *g = cap < (64u << 20) ? realloc(b, cap * 2) : NULL;
            if (!g)
                break;
            b = g;
            cap *= 2;
        }
    }
    fclose(f);
    if (b)
        b[n] = 0;
    return b;
}

/* The rank whose reported step is the lowest (status file), if any reported. */
static bool slowest(const char *dir, int np, int *rank, int32_t *step)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%.*s/status", DIRMAX, dir);
    int fd = open(path, O_RDONLY);
    bool found = false;
    for (int r = 0; fd >= 0 && r < np; r++) {
        int32_t v;
        if (pread(fd, &v, sizeof v, (off_t)r * (off_t)sizeof v) != sizeof v)
            break;
        if (v >= 0 && (!found || v < *step)) {
            *rank = r;
            *step = v;
            found = true;
        }
    }
    if (fd >= 0)
        close(fd);
    return found;
}

/* One line of the launcher's stderr that says what went wrong. */
static void diagnose(const char *dir, int np, const char *errtext, int status, char *err,
                     size_t errlen)
{
    const char *m = errtext ? strstr(errtext, "meshcast-mpi: ") : NULL;
    if (m) {
        m += strlen("meshcast-mpi: ");
        size_t n = strcspn(m, "\n");
        int rank = -1;
        int32_t step = -1;
        /* a timeout is seen by a rank that waits: name the one furthest behind too */
        char line[320];
        snprintf(line, sizeof line, "%.*s", (int)(n > 300 ? 300 : n), m);
        if (strstr(line, "timed out") && slowest(dir, np, &rank, &step))
            snprintf(err, errlen, "%s (furthest behind: rank %d, at step %ld)", line, rank,
                     (long)step + 1);
        else
            snprintf(err, errlen, "%s", line);
        return;
    }
    const char *p = errtext ? strstr(errtext, "process rank ") : NULL;
    int rank = -1, sig = 0;
    if (p && sscanf(p, "process rank %d", &rank) == 1) {
        const char *s = strstr(p, "signal ");
        if (s)
            sscanf(s, "signal %d", &sig);
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%.*s/status", DIRMAX, dir);
        int32_t step = -1;
        int fd = open(path, O_RDONLY);
        if (fd >= 0) {
            if (pread(fd, &step, sizeof step, (off_t)rank * (off_t)sizeof step) != sizeof step)
                step = -1;
            close(fd);
        }
        char st[48];
        if (step >= 0)
            snprintf(st, sizeof st, "step %ld", (long)step + 1);
        else
            snprintf(st, sizeof st, "before its first step");
        if (sig)
            snprintf(err, errlen, "rank %d: %s: died (signal %d, %s)", rank, st, sig,
                     strsignal(sig));
        else
            snprintf(err, errlen, "rank %d: %s: exited before the run ended", rank, st);
        return;
    }
    const char *line = errtext ? errtext : "";
    while (*line == '\n' || *line == ' ' || *line == '-')
        line++;
    size_t n = strcspn(line, "\n");
    if (WIFSIGNALED(status))
        snprintf(err, errlen, "the launcher died (signal %d)%s%.*s", WTERMSIG(status),
                 n ? ": " : "", (int)(n > 200 ? 200 : n), line);
    else
        snprintf(err, errlen, "the launcher exited with status %d%s%.*s",
                 WIFEXITED(status) ? WEXITSTATUS(status) : -1, n ? ": " : "",
                 (int)(n > 200 ? 200 : n), line);
}

static bool parse_report(const char *text, ExecResult *out, char *err, size_t errlen)
{
    int ranks, nsteps, reps;
    char timing[16];
    const char *p = text ? strstr(text, "meshcast-mpi ranks ") : NULL;
    if (!p || sscanf(p, "meshcast-mpi ranks %d steps %d reps %d timing %15s", &ranks, &nsteps,
                     &reps, timing) != 4 || nsteps != out->nsteps || reps != out->reps) {
        snprintf(err, errlen, "meshcast-mpi's report is not what was asked for");
        return false;
    }
    int got = 0;
    for (const char *l = strchr(p, '\n'); l && *l; l = strchr(l, '\n')) {
        l++;
        int rep, n = 0;
        if (sscanf(l, "rep %d%n", &rep, &n) != 1 || rep < 0 || rep > reps)
            continue;
        const char *q = l + n;
        char *end;
        double v[2] = {0, 0};
        v[0] = strtod(q, &end);
        if (end == q)
            break;
        q = end;
        if (rep > 0)
            out->total[rep - 1] = v[0];
        for (int k = 0; k < nsteps; k++) {
            double e = strtod(q, &end);
            if (end == q)
                break;
            q = end;
            if (rep > 0)
                out->ends[(size_t)(rep - 1) * nsteps + k] = e;
        }
        got += rep > 0;
    }
    int gotb = 0;
    for (const char *l = strstr(p, "\nbcast "); out->bcast && l; l = strstr(l + 1, "\nbcast ")) {
        int rep;
        double v;
        if (sscanf(l + 1, "bcast %d %lf", &rep, &v) == 2 && rep > 0 && rep <= reps) {
            out->bcast[rep - 1] = v;
            gotb++;
        }
    }
    if (out->bcast && gotb != reps) {
        snprintf(err, errlen, "meshcast-mpi's report has %d of %d MPI_Bcast timings", gotb, reps);
        return false;
    }
    if (got != reps || !strstr(p, "\nverified yes")) {
        snprintf(err, errlen, "meshcast-mpi's report is incomplete (%d of %d repetitions)", got,
                 reps);
        return false;
    }
    return true;
}

/* SIGINT / SIGTERM while the launcher runs (Ctrl-C, or the screen's :exec cancelled): the
 * launcher is in its own process group, so it is killed here, not left behind. */
static volatile sig_atomic_t stop_signal;
static void on_stop(int sig)
{
    stop_signal = sig;
}

static int run_child(const char *cmd, const char *dir, double limit, int *status, char *err,
                     size_t errlen);

static int run_child_guarded(const char *cmd, const char *dir, double limit, int *status,
                             char *err, size_t errlen)
{
    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    stop_signal = 0;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    int rc = run_child(cmd, dir, limit, status, err, errlen);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    return rc;
}

static int run_child(const char *cmd, const char *dir, double limit, int *status, char *err,
                     size_t errlen)
{
    char o[PATH_MAX], e[PATH_MAX];
    snprintf(o, sizeof o, "%.*s/out", DIRMAX, dir);
    snprintf(e, sizeof e, "%.*s/err", DIRMAX, dir);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "cannot start the launcher: %s", strerror(errno));
        return 1;
    }
    if (pid == 0) {
        setpgid(0, 0);
        int fo = open(o, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int fe = open(e, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int fi = open("/dev/null", O_RDONLY);
        if (fo < 0 || fe < 0 || fi < 0)
            _exit(127);
        dup2(fi, 0);
        dup2(fo, 1);
        dup2(fe, 2);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid);
    struct timespec t0, now, nap = {0, 20 * 1000 * 1000};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        pid_t w = waitpid(pid, status, WNOHANG);
        if (w == pid)
            return 0;
        if (w < 0 && errno != EINTR) {
            snprintf(err, errlen, "lost the launcher: %s", strerror(errno));
            return 1;
        }
        if (stop_signal) {
            kill(-pid, SIGKILL);
            waitpid(pid, status, 0);
            snprintf(err, errlen, "cancelled (%s): launcher and ranks killed",
                     strsignal(stop_signal));
            return 1;
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
        if ((double)(now.tv_sec - t0.tv_sec) + 1e-9 * (double)(now.tv_nsec - t0.tv_nsec) >
            limit) {
            kill(-pid, SIGKILL);
            waitpid(pid, status, 0);
            snprintf(err, errlen, "the run did not end within %g s: launcher and ranks killed",
                     limit);
            return 1;
        }
        nanosleep(&nap, NULL);
    }
}

static void cleanup(const char *dir)
{
    static const char *const names[] = {"sched.bin", "status", "out", "err"};
    char p[PATH_MAX];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(p, sizeof p, "%.*s/%.16s", DIRMAX, dir, names[i]);
        unlink(p);
    }
    rmdir(dir);
}

static bool write_files(const char *dir, const Sched *s, int op, uint32_t root, int np,
                        char *err, size_t errlen)
{
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%.*s/sched.bin", DIRMAX, dir);
    FILE *f = fopen(p, "wb");
    bool ok = f && schedbin_write(f, s, op, root, err, errlen);
    if (f && fclose(f) != 0 && ok) {
        snprintf(err, errlen, "cannot write %s", p);
        ok = false;
    }
    snprintf(p, sizeof p, "%.*s/status", DIRMAX, dir);
    f = ok ? fopen(p, "wb") : NULL;
    for (int i = 0; f && i < np; i++) {
        int32_t none = -1;
        fwrite(&none, sizeof none, 1, f);
    }
    if (ok && (!f || fclose(f) != 0)) {
        snprintf(err, errlen, "cannot write %s", p);
        ok = false;
    }
    return ok;
}

/* Run the launcher's command line in dir within `limit` seconds: the ranks' stdout (dir/out)
 * into *otext (the caller frees it; NULL when unreadable), 0; or a failure's one line (the
 * rank and step when the ranks said, diagnose) in err, 1 or more. */
static int launch(const char *cmd, const char *dir, int np, double limit, char **otext,
                  char *err, size_t errlen)
{
    char p[PATH_MAX];
    int status = 0;
    int rc = run_child_guarded(cmd, dir, limit, &status, err, errlen);
    snprintf(p, sizeof p, "%.*s/out", DIRMAX, dir);
    *otext = read_all(p);
    snprintf(p, sizeof p, "%.*s/err", DIRMAX, dir);
    char *etext = read_all(p);
    if (rc == 0 && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
        diagnose(dir, np, etext, status, err, errlen);
        rc = 1;
    }
    free(etext);
    return rc;
}

int exec_launch(const Sched *s, int op, uint32_t root, const ExecLaunch *l, ExecResult *out,
                char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    char bin[PATH_MAX];
    if (!find_mpi(bin, sizeof bin)) {
        snprintf(err, errlen, "%s (meshcast-mpi not found)", INSTALL_HINT);
        return 2;
    }
    if (!launcher(l, out->launcher, sizeof out->launcher, err, errlen))
        return 2;
    out->reps = l->reps;
    out->nsteps = sched_nsteps(s);
    out->total = calloc((size_t)l->reps, sizeof *out->total);
    out->ends = calloc((size_t)l->reps * (size_t)(out->nsteps ? out->nsteps : 1),
                       sizeof *out->ends);
    const char *tmp = getenv("TMPDIR");
    char dir[DIRMAX];
    if (!tmp || !*tmp || strlen(tmp) > DIRMAX - 32)
        tmp = "/tmp";
    snprintf(dir, sizeof dir, "%.*s/meshcast-exec.XXXXXX", DIRMAX - 32, tmp);
    if (l->bcast)
        out->bcast = calloc((size_t)l->reps, sizeof *out->bcast);
    if (!out->total || !out->ends || (l->bcast && !out->bcast) || !mkdtemp(dir)) {
        snprintf(err, errlen, "cannot make a scratch directory for the run");
        return 1;
    }
    if (!write_files(dir, s, op, root, l->np, err, errlen)) {
        cleanup(dir);
        return 1;
    }
    char cmd[8192], num[128];
    snprintf(cmd, sizeof cmd, "%s ", out->launcher);
    quote(cmd, sizeof cmd, bin);
    snprintf(num, sizeof num, " --reps %d --timing %s%s%s --timeout %g --status ", l->reps,
             l->async ? "async" : "lockstep", l->barrier ? " --barrier" : "",
             l->bcast ? " --bcast" : "", l->timeout);
    append(cmd, sizeof cmd, "%s", num);
    char p[PATH_MAX];
    snprintf(p, sizeof p, "%.*s/status", DIRMAX, dir);
    quote(cmd, sizeof cmd, p);
    if (l->inject) {
        append(cmd, sizeof cmd, "%s", " --inject ");
        quote(cmd, sizeof cmd, l->inject);
    }
    snprintf(p, sizeof p, "%.*s/sched.bin", DIRMAX, dir);
    append(cmd, sizeof cmd, "%s", " ");
    quote(cmd, sizeof cmd, p);
    char *otext;
    /* a hung rank ends its repetition after the timeout; this bounds the launcher too */
    int rc = launch(cmd, dir, l->np, l->timeout * (l->reps + 1) + 60, &otext, err, errlen);
    if (rc == 0 && !parse_report(otext, out, err, errlen))
        rc = 1;
    free(otext);
    cleanup(dir);
    return rc;
}

void exec_result_free(ExecResult *r)
{
    free(r->total);
    free(r->ends);
    free(r->bcast);
    r->total = r->ends = r->bcast = NULL;
}

int exec_run_raw(const ExecLaunch *l, const char *args, char **out, char *launched, size_t ll,
                 char *err, size_t errlen)
{
    char bin[PATH_MAX], lc[512];
    *out = NULL;
    if (!find_mpi(bin, sizeof bin)) {
        snprintf(err, errlen, "%s (meshcast-mpi not found)", INSTALL_HINT);
        return 2;
    }
    if (!launcher(l, lc, sizeof lc, err, errlen))
        return 2;
    snprintf(launched, ll, "%s", lc);
    const char *tmp = getenv("TMPDIR");
    char dir[DIRMAX];
    if (!tmp || !*tmp || strlen(tmp) > DIRMAX - 32)
        tmp = "/tmp";
    snprintf(dir, sizeof dir, "%.*s/meshcast-exec.XXXXXX", DIRMAX - 32, tmp);
    if (!mkdtemp(dir)) {
        snprintf(err, errlen, "cannot make a scratch directory for the run");
        return 1;
    }
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s ", lc);
    quote(cmd, sizeof cmd, bin);
    append(cmd, sizeof cmd, " %s", args);
    char *otext;
    int rc = launch(cmd, dir, l->np, l->timeout + 60, &otext, err, errlen);
    cleanup(dir);
    if (rc == 0)
        *out = otext;
    else
        free(otext);
    return rc;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double exec_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}
