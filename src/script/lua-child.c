/* lua-child.c — script work in a forked child under CPU, address-space and wall-clock limits;
 * its result comes back over a pipe.  See lua-child.h and docs/lua-api.md ("Limits"). */
#include "lua-child.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../engine/progress.h"
#include "lua-sandbox.h"

#if defined(__SANITIZE_ADDRESS__)
#define CHILD_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CHILD_ASAN 1
#endif
#endif

#define WHERE_LEN 512
#define POLL_MS 50
#define READ_MAX ((size_t)1 << 22)   /* bytes per read of an answer */

/* frames on the pipe: one type byte, an 8-byte length, the payload */
enum { FR_PRINT = 'P', FR_RESULT = 'R', FR_ERROR = 'E' };

/* ---------------------------------------------------------------- wire */

void wire_put(Wire *w, const void *p, size_t n)
{
    if (w->oom)
        return;
    if (w->len + n > w->cap) {
        size_t c = w->cap ? w->cap : 256;
        while (c < w->len + n)
            c *= 2;
        unsigned char *q = realloc(w->p, c);
        if (!q) {
            w->oom = true;
            return;
        }
        w->p = q;
        w->cap = c;
    }
    if (n)
        memcpy(w->p + w->len, p, n);
    w->len += n;
}

void wire_reserve(Wire *w, size_t more)
{
    if (w->oom || w->len + more <= w->cap)
        return;
    unsigned char *q = realloc(w->p, w->len + more);
    if (!q) {
        w->oom = true;
        return;
    }
    w->p = q;
    w->cap = w->len + more;
}

void wire_i64(Wire *w, int64_t v) { wire_put(w, &v, sizeof v); }
void wire_f64(Wire *w, double v) { wire_put(w, &v, sizeof v); }

void wire_str(Wire *w, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    wire_i64(w, (int64_t)n);
    wire_put(w, s ? s : "", n + 1);
}

void wire_free(Wire *w)
{
    free(w->p);
    memset(w, 0, sizeof *w);
}

WireIn wire_in(const Wire *w) { return (WireIn){w->p, w->len, w->oom}; }

static const void *get(WireIn *r, size_t n)
{
    if (r->bad || r->left < n) {
        r->bad = true;
        return NULL;
    }
    const void *p = r->p;
    r->p += n;
    r->left -= n;
    return p;
}

static void get_into(WireIn *r, void *v, size_t n)
{
    const void *p = get(r, n);
    if (p)
        memcpy(v, p, n);
}

int64_t wire_get_i64(WireIn *r)
{
    int64_t v = 0;
    get_into(r, &v, sizeof v);
    return v;
}

double wire_get_f64(WireIn *r)
{
    double v = 0;
    get_into(r, &v, sizeof v);
    return v;
}

const char *wire_get_str(WireIn *r)
{
    int64_t n = wire_get_i64(r);
    if (n < 0 || (uint64_t)n >= r->left) {
        r->bad = true;
        return "";
    }
    const char *s = get(r, (size_t)n + 1);
    if (!s || s[n] != '\0') {
        r->bad = true;
        return "";
    }
    return s;
}

/* ---------------------------------------------------------------- the child's side */

static int child_fd = -1;          /* the socket, in a child */
static char *where_page;           /* shared with the parent: the line running last */

bool child_inside(void) { return child_fd >= 0; }

static void write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t k = send(fd, c, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            if (child_fd >= 0)
                _exit(3);   /* the parent is gone or stopped listening */
            return;
        }
        c += k;
        n -= (size_t)k;
    }
}

static bool read_all(int fd, void *p, size_t n)
{
    char *c = p;
    while (n > 0) {
        ssize_t k = read(fd, c, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        c += k;
        n -= (size_t)k;
    }
    return true;
}

static void send_frame(int fd, char type, const void *p, size_t n)
{
    uint64_t len = n;
    write_all(fd, &type, 1);
    write_all(fd, &len, sizeof len);
    write_all(fd, p, n);
}

void child_print(const char *name, const char *text)
{
    (void)name;
    if (child_fd >= 0)
        send_frame(child_fd, FR_PRINT, text, strlen(text) + 1);
}

void child_where(const char *where)
{
    if (where_page)
        snprintf(where_page, WHERE_LEN, "%s", where);
}

/* CPU: this request may use a little more than the wall-clock limit from now (the parent's
 * kill normally comes first). */
static void cpu_limit(const BoxLimits *lim)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double used = (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
                  (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
    struct rlimit r = {(rlim_t)ceil(used + lim->seconds) + 1, RLIM_INFINITY};
    setrlimit(RLIMIT_CPU, &r);
}

static void space_limit(const BoxLimits *lim)
{
#ifndef CHILD_ASAN
    /* address space: what the process has mapped now, plus the cap and room for the C
     * structures the cap already counts (AddressSanitizer reserves terabytes: not there) */
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (f) {
        if (fscanf(f, "%lu", &pages) != 1)
            pages = 0;
        fclose(f);
    }
    if (pages) {
        rlim_t as = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + 3 * (rlim_t)lim->memory +
                    ((rlim_t)64 << 20);
        struct rlimit r = {as, as};
        setrlimit(RLIMIT_AS, &r);
    }
#else
    (void)lim;
#endif
}

/* The child ends as soon as meshcast does, even inside a long C call: a timer checks five
 * times a second (PR_SET_PDEATHSIG would fire when the *thread* that forked ends, and the
 * TUI forks from a worker thread). */
static pid_t parent_pid;

static void watchdog(int sig)
{
    (void)sig;
    if (getppid() != parent_pid)
        _exit(9);
}

static void child_main(int fd, pid_t parent, ChildServe serve, void *ud)
{
    parent_pid = parent;
    static const int sigs[] = {SIGTERM, SIGHUP, SIGPIPE, SIGWINCH, SIGUSR1,
                               SIGUSR2, SIGCHLD, SIGTSTP, SIGCONT, SIGQUIT};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        signal(sigs[i], SIG_DFL);
    signal(SIGINT, SIG_IGN);   /* Ctrl-C goes to meshcast, which decides */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = watchdog;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{0, 200000}, {0, 200000}};
    setitimer(ITIMER_REAL, &it, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (getppid() != parent)
        _exit(4);
    child_fd = fd;
    BoxLimits lim;
    box_limits(&lim);
    space_limit(&lim);
    for (bool first = true;; first = false) {
        Wire req = {0};
        if (!first) {
            char type;
            uint64_t len;
            if (!read_all(fd, &type, 1) || !read_all(fd, &len, sizeof len) ||
                len > ((uint64_t)1 << 30))
                _exit(0);   /* meshcast is done with this script */
            req.p = malloc(len ? len : 1);
            if (!req.p || !read_all(fd, req.p, len))
                _exit(0);
            req.len = req.cap = len;
        }
        cpu_limit(&lim);
        Wire out = {0};
        char err[1024] = "";
        bool ok = serve(ud, first ? NULL : &req, &out, err, sizeof err);
        if (ok && out.oom) {
            ok = false;
            snprintf(err, sizeof err, "out of memory");
        }
        if (ok)
            send_frame(fd, FR_RESULT, out.p, out.len);
        else
            send_frame(fd, FR_ERROR, err, strlen(err) + 1);
        wire_free(&out);
        wire_free(&req);
        where_page[0] = '\0';
    }
}

/* ---------------------------------------------------------------- the parent's side */

struct Child {
    pid_t pid;          /* 0: dead */
    int fd;
    char *where;
    char *name;
};

static _Thread_local ChildWaitFn wait_fn;
static _Thread_local void *wait_ud;

void child_set_wait_hook(ChildWaitFn fn, void *ud)
{
    wait_fn = fn;
    wait_ud = ud;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Deliver the prints in all[*pos..] and, once a whole answer frame is there, copy it out:
 * 1 answered ok, -1 answered with an error, 0 not yet. */
/* A whole frame has arrived (type, body): a print is printed (0), an answer moves into result
 * (1), an error is copied into err (-1). */
static int frame_done(unsigned char type, Wire *body, const char *name, Wire *result,
                      char *err, size_t errlen)
{
    const char *p = (const char *)body->p;
    size_t n = body->len;
    bool text = n > 0 && p[n - 1] == '\0';
    int got = 0;
    if (type == FR_PRINT && text) {
        box_print(name, p);
    } else if (type == FR_RESULT) {
        wire_free(result);
        *result = *body;   /* taken over, not copied */
        memset(body, 0, sizeof *body);
        return 1;
    } else if (type == FR_ERROR) {
        snprintf(err, errlen, "%s", text ? p : "?");
        got = -1;
    }
    wire_free(body);
    return got;
}

static void kill_child(Child *c)
{
    if (c->pid > 0) {
        kill(c->pid, SIGKILL);
        while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    c->pid = 0;
}

/* Wait for the answer to the request just sent. */
static bool wait_answer(Child *c, const char *phase, Wire *result, char *err, size_t errlen)
{
    memset(result, 0, sizeof *result);
    BoxLimits lim;
    box_limits(&lim);
    /* a frame is a 9-byte head (type, length) and its body, read straight into a buffer of
     * the body's size: a schedule of many MB arrives in a few large reads, copied once */
    unsigned char head[9];
    size_t hgot = 0;
    Wire body = {0};
    bool inbody = false;
    int got = 0;
    const char *stop = NULL;
    char stopbuf[200];
    double deadline = now_s() + lim.seconds;
    size_t maxout = 3 * lim.memory + ((size_t)1 << 20);
    /* the screen says "running the script" meanwhile */
    Progress *prog = progress_current();
    int old_phase = prog ? atomic_load(&prog->phase) : 0;
    long long old_done = prog ? atomic_load(&prog->done) : 0;
    long long old_total = prog ? atomic_load(&prog->total) : 0;
    progress_report(PROGRESS_SCRIPT, 0, -1);
    while (!got) {
        double left = deadline - now_s();
        if (left <= 0) {
            snprintf(stopbuf, sizeof stopbuf, "stopped: time limit of %g s used up (an endless "
                     "loop, or one slow call?  $%s raises it)", lim.seconds, lim.seconds_env);
            stop = stopbuf;
            break;
        }
        int ms = left * 1000 < POLL_MS ? (int)(left * 1000) + 1 : POLL_MS;
        struct pollfd pf = {c->fd, POLLIN, 0};
        int pr = poll(&pf, 1, ms);
        if (pr < 0 && errno != EINTR) {
            stop = "stopped: cannot read its answer";
            break;
        }
        if (pr > 0) {
            size_t want = body.cap - body.len;
            ssize_t k = inbody ? read(c->fd, body.p + body.len, want < READ_MAX ? want : READ_MAX)
                               : read(c->fd, head + hgot, sizeof head - hgot);
            if (k < 0 && (errno == EINTR || errno == EAGAIN))
                continue;
            if (k <= 0) {
                /* the child is gone: how? */
                int status = 0;
                while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR)
                    ;
                c->pid = 0;
                int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
                if (sig == SIGXCPU || sig == SIGKILL)
                    snprintf(stopbuf, sizeof stopbuf, "stopped: time limit of %g s used up "
                             "(CPU; $%s raises it)", lim.seconds, lim.seconds_env);
                else
                    snprintf(stopbuf, sizeof stopbuf, "stopped: the script's process ended "
                             "(%s; out of memory?  $MESHCAST_LUA_MEMORY is the cap)",
                             sig ? strsignal(sig) : "exit");
                stop = stopbuf;
                break;
            }
            if (inbody) {
                body.len += (size_t)k;
            } else if ((hgot += (size_t)k) == sizeof head) {
                uint64_t n;
                memcpy(&n, head + 1, sizeof n);
                if (n > maxout || !(body.p = malloc(n ? n : 1))) {
                    snprintf(stopbuf, sizeof stopbuf, "stopped: memory cap of %zu MiB exceeded "
                             "(its answer is too large; $MESHCAST_LUA_MEMORY raises it)",
                             lim.memory >> 20);
                    stop = stopbuf;
                    break;
                }
                body.cap = n;
                body.len = 0;
                inbody = true;
            }
            if (inbody && body.len == body.cap) {
                got = frame_done(head[0], &body, c->name, result, err, errlen);
                inbody = false;
                hgot = 0;
            }
        }
        if (!got && (progress_cancelled() || (wait_fn && wait_fn(wait_ud)))) {
            stop = "cancelled";
            break;
        }
    }
    wire_free(&body);
    progress_report((ProgressPhase)old_phase, old_done, old_total);
    if (stop) {
        kill_child(c);
        bool ph = phase && strcmp(phase, "load") != 0;
        snprintf(err, errlen, "%s: %s%s%s%s", c->where[0] ? c->where : c->name,
                 ph ? "in " : "", ph ? phase : "", ph ? ": " : "", stop);
        wire_free(result);
        return false;
    }
    c->where[0] = '\0';
    if (got < 0)
        wire_free(result);
    return got > 0;
}

Child *child_start(const char *name, const char *phase, ChildServe serve, void *ud,
                   Wire *result, char *err, size_t errlen)
{
    memset(result, 0, sizeof *result);
    Child *c = calloc(1, sizeof *c);
    if (!c || !(c->name = strdup(name))) {
        free(c);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    c->where = mmap(NULL, WHERE_LEN, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    int fds[2];
    if (c->where == MAP_FAILED || socketpair(AF_UNIX, SOCK_STREAM, 0, fds) != 0) {
        snprintf(err, errlen, "%s: cannot start the script's process: %s", name,
                 strerror(errno));
        if (c->where != MAP_FAILED)
            munmap(c->where, WHERE_LEN);
        free(c->name);
        free(c);
        return NULL;
    }
    c->where[0] = '\0';
    /* (the child never flushes what stdio holds: it ends with _exit) */
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        where_page = c->where;
        child_main(fds[1], parent, serve, ud);
    }
    close(fds[1]);
    c->fd = fds[0];
    c->pid = pid > 0 ? pid : 0;
    if (pid < 0) {
        snprintf(err, errlen, "%s: cannot start the script's process: %s", name,
                 strerror(errno));
        child_stop(c);
        return NULL;
    }
    if (!wait_answer(c, phase, result, err, errlen)) {
        child_stop(c);
        return NULL;
    }
    return c;
}

bool child_request(Child *c, const char *phase, const Wire *req, Wire *result, char *err,
                   size_t errlen)
{
    memset(result, 0, sizeof *result);
    if (!c || c->pid <= 0) {
        snprintf(err, errlen, "%s: the script's process is not running", c ? c->name : "?");
        return false;
    }
    send_frame(c->fd, 'Q', req->p, req->len);
    return wait_answer(c, phase, result, err, errlen);
}

bool child_alive(const Child *c) { return c && c->pid > 0; }

void child_stop(Child *c)
{
    if (!c)
        return;
    close(c->fd);
    kill_child(c);
    munmap(c->where, WHERE_LEN);
    free(c->name);
    free(c);
}
