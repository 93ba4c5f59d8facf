/* measured.c — a real run beside the simulated one (measured.h). */
#include "measured.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>


/* A running `meshcast exec --json`: its pid, its stdout and stderr (pipes, read as they come). */
struct MeasJob {
    pid_t pid;
    int fd[2];            /* stdout, stderr; -1 once at end of file */
    char *buf[2];
    size_t len[2], cap[2];
    double t0;
    int reps;
    char what[200];
};

/* The App's measurement and its :exec (measured_new; the App keeps it: app_measured). */
struct Measured {
    MeasFile *meas;       /* loaded (NULL: none) */
    struct MeasJob *mjob; /* a running :exec (NULL: none) */
};

Measured *measured_new(void) { return calloc(1, sizeof(Measured)); }

static Measured *ms(const App *a) { return app_measured(a); }

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The reasons m is not for the broadcast shown ("" when it is). */
static void mismatch(const App *a, const MeasFile *m, char *why, size_t len)
{
    why[0] = '\0';
    if (!app_bcast(a)->ready) {
        snprintf(why, len, "no broadcast shown");
        return;
    }
    const char *net = net_spec(app_bcast(a)->setup.net), *algo = app_bcast(a)->setup.def->name;
    uint64_t bytes = app_bcast(a)->setup.args.bytes;
    long long steps = (long long)sched_nsteps(app_bcast(a)->sched);
    if (strcmp(m->net, net) != 0)
        snprintf(why, len, "it is for net %s, the screen shows %s", m->net, net);
    else if (strcmp(m->algo, algo) != 0)
        snprintf(why, len, "it is for algorithm %s, the screen shows %s", m->algo, algo);
    else if (m->bytes != bytes)
        snprintf(why, len, "it is for %llu bytes, the screen shows %llu",
                 (unsigned long long)m->bytes, (unsigned long long)bytes);
    else if (m->nsteps != steps)
        snprintf(why, len, "it has %lld steps, the schedule shown has %lld", (long long)m->nsteps,
                 steps);
}

const MeasFile *measured_shown(const App *a)
{
    if (!ms(a)->meas)
        return NULL;
    char why[300];
    mismatch(a, ms(a)->meas, why, sizeof why);
    return why[0] ? NULL : ms(a)->meas;
}

/* Take m (moved in) as the App's measurement, if it is for the broadcast shown. */
static bool take(App *a, MeasFile *m, const char *from)
{
    char why[300];
    mismatch(a, m, why, sizeof why);
    if (why[0]) {
        app_msg(a, true, "%s: not this broadcast's run: %s", from, why);
        measfile_free(m);
        return false;
    }
    if (ms(a)->meas)
        measfile_free(ms(a)->meas);
    else if (!(ms(a)->meas = malloc(sizeof *ms(a)->meas))) {
        measfile_free(m);
        app_msg(a, true, "out of memory");
        return false;
    }
    *ms(a)->meas = *m;
    app_msg(a, false, "measured %s on %lld ranks: %.6g us (median of %lld reps); Timeline and "
            "Chart show it beside the simulated run", ms(a)->meas->algo, (long long)ms(a)->meas->ranks,
            ms(a)->meas->total, (long long)ms(a)->meas->reps);
    return true;
}

bool measured_load(App *a, const char *path)
{
    MeasFile m;
    char err[400];
    if (!measfile_read(path, &m, err, sizeof err)) {
        app_msg(a, true, "%s", err);
        return false;
    }
    return take(a, &m, path);
}

/* ---- :exec ------------------------------------------------------------------------------ */

static void job_end(App *a)
{
    struct MeasJob *j = ms(a)->mjob;
    for (int k = 0; k < 2; k++) {
        if (j->fd[k] >= 0)
            close(j->fd[k]);
        free(j->buf[k]);
    }
    free(j);
    ms(a)->mjob = NULL;
}

bool measured_busy(const App *a)
{
    return ms(a)->mjob != NULL;
}

bool measured_cancel(App *a)
{
    if (!ms(a)->mjob)
        return false;
    kill(ms(a)->mjob->pid, SIGTERM);   /* exec kills its launcher and ranks on SIGTERM */
    int st;
    waitpid(ms(a)->mjob->pid, &st, 0);
    job_end(a);
    app_msg(a, false, ":exec cancelled (launcher and ranks ended)");
    return true;
}

/* Read what is there without blocking; false at end of file (or an error). */
static bool drain(struct MeasJob *j, int k)
{
    for (;;) {
        if (j->cap[k] - j->len[k] < 4096) {
            size_t cap = j->cap[k] ? 2 * j->cap[k] : 65536;
            char *b = cap <= MEASFILE_MAX + 65536u ? realloc(j->buf[k], cap) : NULL;
            if (!b)
                return false;
            j->buf[k] = b;
            j->cap[k] = cap;
        }
        ssize_t r = read(j->fd[k], j->buf[k] + j->len[k], j->cap[k] - j->len[k] - 1);
        if (r > 0) {
            j->len[k] += (size_t)r;
            continue;
        }
        if (r < 0 && (errno == EAGAIN || errno == EINTR))
            return true;
        return false;
    }
}

/* The child ended with status st: its JSON in, or its last stderr line shown. */
static void finish(App *a, int st)
{
    struct MeasJob *j = ms(a)->mjob;
    char *e = j->buf[1] ? j->buf[1] : (char *)"";
    if (j->buf[1])
        j->buf[1][j->len[1]] = '\0';
    while (j->len[1] > 0 && e[j->len[1] - 1] == '\n')
        e[--j->len[1]] = '\0';
    char *last = strrchr(e, '\n');
    last = last ? last + 1 : e;
    if (strncmp(last, "meshcast: ", 10) == 0)
        last += 10;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        app_msg(a, true, ":exec: %s", *last ? last : "meshcast exec failed");
    } else {
        MeasFile m;
        char err[400];
        if (measfile_parse(j->buf[0] ? j->buf[0] : "", j->len[0], &m, err, sizeof err))
            take(a, &m, ":exec");
        else
            app_msg(a, true, ":exec: its output: %s", err);
    }
    job_end(a);
}

void measured_poll(App *a)
{
    struct MeasJob *j = ms(a)->mjob;
    if (!j)
        return;
    for (int k = 0; k < 2; k++)
        if (j->fd[k] >= 0 && !drain(j, k)) {
            close(j->fd[k]);
            j->fd[k] = -1;
        }
    int st = 0;
    pid_t w = waitpid(j->pid, &st, WNOHANG);
    if (w == j->pid) {
        for (int k = 0, tries = 0; k < 2; k++)
            while (j->fd[k] >= 0 && drain(j, k) && tries++ < 2000) {
                struct timespec nap = {0, 1000000};
                nanosleep(&nap, NULL);   /* the writer is gone: the end comes soon (2 s at most) */
            }
        finish(a, st);
        return;
    }
    app_msg(a, false, ":exec: running %s, %d reps on MPI ranks... %.0f s (Escape cancels)",
            j->what, j->reps, now_s() - j->t0);
}

/* The words of `meshcast exec` for the broadcast shown, into argv (at most max - 1). */
static int exec_argv(const App *a, const char *self, int reps, char *repsbuf, const char **av,
                     int max)
{
    const BSpec *s = &app_bcast(a)->spec;
    int n = 0;
    av[n++] = self;
    av[n++] = "exec";
    const char *opt[] = {"--net", "--algo", "--source", "--bytes", "--model", "--fit",
                         "--sources", "--op", "--profile"};
    const char *val[] = {s->net, s->algo, s->source, s->bytes, s->model, s->fit, s->sources,
                         s->op, s->profile};
    for (int i = 0; i < 9 && n + 2 < max; i++)
        if (val[i]) {
            av[n++] = opt[i];
            av[n++] = val[i];
        }
    for (size_t i = 0; i < s->nsets && n + 2 < max; i++) {
        av[n++] = "--set";
        av[n++] = s->sets[i];
    }
    snprintf(repsbuf, 16, "%d", reps);
    const char *tail[] = {"--reps", repsbuf, "--timing", app_async_timing(a) ? "async" : "lockstep",
                          "--json"};
    for (int i = 0; i < 5 && n + 1 < max; i++)
        av[n++] = tail[i];
    av[n] = NULL;
    return n;
}

static bool exec_start(App *a, int reps)
{
    if (ms(a)->mjob) {
        app_msg(a, true, ":exec is running already (:exec cancel, or Escape, ends it)");
        return false;
    }
    if (!app_bcast(a)->ready) {
        app_msg(a, true, ":exec: no broadcast shown");
        return false;
    }
    char self[PATH_MAX];
    ssize_t l = readlink("/proc/self/exe", self, sizeof self - 1);
    if (l <= 0) {
        app_msg(a, true, ":exec: cannot find the meshcast executable (/proc/self/exe)");
        return false;
    }
    self[l] = '\0';
    const char *av[64];
    char repsbuf[16];
    exec_argv(a, self, reps, repsbuf, av, 64);
    int po[2], pe[2];
    if (pipe(po) != 0) {
        app_msg(a, true, ":exec: %s", strerror(errno));
        return false;
    }
    if (pipe(pe) != 0) {
        close(po[0]);
        close(po[1]);
        app_msg(a, true, ":exec: %s", strerror(errno));
        return false;
    }
    pid_t pid = fork();
    if (pid == 0) {
        /* the screen's signal mask and handlers are not the child's: exec must see SIGTERM */
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD, SIGWINCH, SIGTSTP};
        for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++)
            signal(sigs[k], SIG_DFL);
        setpgid(0, 0);
        int fi = open("/dev/null", O_RDONLY);
        if (fi < 0)
            _exit(127);
        dup2(fi, 0);
        dup2(po[1], 1);
        dup2(pe[1], 2);
        close(po[0]);
        close(pe[0]);
        execv(self, (char *const *)av);
        _exit(127);
    }
    close(po[1]);
    close(pe[1]);
    struct MeasJob *j = pid > 0 ? calloc(1, sizeof *j) : NULL;
    if (!j) {
        if (pid > 0) {
            kill(pid, SIGTERM);
            waitpid(pid, NULL, 0);
        }
        close(po[0]);
        close(pe[0]);
        app_msg(a, true, ":exec: cannot start meshcast exec");
        return false;
    }
    j->pid = pid;
    j->fd[0] = po[0];
    j->fd[1] = pe[0];
    fcntl(po[0], F_SETFL, O_NONBLOCK);
    fcntl(pe[0], F_SETFL, O_NONBLOCK);
    j->t0 = now_s();
    j->reps = reps;
    snprintf(j->what, sizeof j->what, "%s on %s (%ld ranks)", app_bcast(a)->setup.def->name,
             net_spec(app_bcast(a)->setup.net), (long)net_size(app_bcast(a)->setup.net));
    ms(a)->mjob = j;
    measured_poll(a);
    return true;
}

bool measured_command(App *a, const char *cmd, const char *const *w, int n)
{
    if (strcmp(cmd, "measured") == 0) {
        if (n != 1) {
            app_msg(a, true, ":measured takes FILE.json (what meshcast exec --json wrote) or off");
            return false;
        }
        if (strcmp(w[0], "off") == 0) {
            if (ms(a)->meas)
                measfile_free(ms(a)->meas);
            free(ms(a)->meas);
            ms(a)->meas = NULL;
            app_msg(a, false, "measured run off");
            return true;
        }
        return measured_load(a, w[0]);
    }
    if (n == 1 && strcmp(w[0], "cancel") == 0) {
        if (!measured_cancel(a))
            app_msg(a, true, ":exec: nothing is running");
        return true;
    }
    long reps = 5;
    char *end = NULL;
    if (n == 1)
        reps = strtol(w[0], &end, 10);
    if (n > 1 || (n == 1 && (*end || reps < 1 || reps > 1000))) {
        app_msg(a, true, ":exec takes the number of repetitions (1..1000, default 5), or cancel");
        return false;
    }
    return exec_start(a, (int)reps);
}

void measured_free(App *a)
{
    if (!ms(a))
        return;
    if (ms(a)->mjob) {
        kill(ms(a)->mjob->pid, SIGTERM);
        waitpid(ms(a)->mjob->pid, NULL, 0);
        job_end(a);
    }
    if (ms(a)->meas)
        measfile_free(ms(a)->meas);
    free(ms(a)->meas);
    free(ms(a));   /* (the App ends: app_free) */
}
