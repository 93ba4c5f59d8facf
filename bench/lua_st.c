/* lua_st.c — benchmark: building a broadcast schedule from a Lua script against the built-in.
 *
 *   lua_st                 every case below, each side in its own child process
 *   lua_st NET ALGO        one side of one case, in this process (ALGO: a name or a .lua)
 *
 * Cases: the Lua ST (scripts/st.lua) against the built-in `st` on array:1048576, and the Lua
 * mesh ST (scripts/st-mesh.lua: down the column, then along the rows) against the built-in
 * `st-simple` (the same shape) on mesh:1024x1024.  For each side: the best of 3 build times
 * (algo_build, Lua state loading excluded and reported apart), the process's peak resident
 * memory (getrusage; one process per side so that peaks do not mix), transfers; and the
 * schedule is simulated once to check it verifies.  Target: Lua within 3x the native build
 * time and 2x its peak memory.  Exit status 1 if a case fails or misses the target.
 *
 * The native side of the comparison stores the same transfers one by one (ALGO "stored:NAME":
 * the built-in's schedule read back into plain arrays, then timed while sched_send stores every
 * transfer into a new schedule, which must come out sched_equal to the built-in's).  That is the
 * representation a script's sends arrived in until session 10.  Since session 10 the built-ins
 * keep a binomial tree's step as a rule of a few bytes (sched_send_tree), so their own build
 * costs next to nothing: it is printed beside, and the peak memory is compared with it (the
 * stored copy's process holds both schedules at once).  Since session 11 a script's
 * st:send_strided is a rule too (a strided block, src/engine/sched-strided.h, shipped from the
 * child as 40 bytes and kept as a tree step when it is one), and so is a run of 8 or more
 * st:send calls in a progression.
 *
 * Note: the Lua scripts batch their sends with st:send_strided (one call per line of senders
 * per step, documented in docs/lua-api.md); a send-per-transfer script is also timed for the
 * array to show what batching buys (reported, not held to the target).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../src/algos/algo.h"
#include "../src/engine/sim.h"
#include "../src/script/script.h"
#include "../tests/unit/srctree.h"

#define TARGET_TIME 3.0
#define TARGET_MEM 2.0

static const char *const cases[][3] = {
    {"array:1048576", "st", "scripts/st.lua"},
    {"mesh:1024x1024", "st-simple", "scripts/st-mesh.lua"},
};

/* A send-per-transfer ST, to show the cost of one Lua call per transfer. */
static const char plain_st[] =
    "local mc = require 'meshcast'\n"
    "return { name = 'st-plain', nets = { 'array' }, pow2 = true,\n"
    "  build = function(sched, net, p, k)\n"
    "    local d, n, all = mc.log2(net:size()), net:size(), { 0 }\n"
    "    for i = 1, d do\n"
    "      local st, half = sched:step(), 1 << (d - i)\n"
    "      local span = half * 2\n"
    "      for r = 0, n - 1, span do st:send(r ~ k, (r ~ half) ~ k, all) end\n"
    "    end\n"
    "  end }\n";

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One side: prints "RESULT build load transfers kib verified" on stdout's last line. */
/* The built-in's schedule b read back (untimed) into plain arrays, then stored transfer by
 * transfer into a new schedule (timed: the givens, steps, labels, transfers and locals, in
 * order).  Returns the copy (NULL, err set, on failure) and its storing time in *t. */
typedef struct {
    int32_t src, dst;
    uint32_t nr, roff;     /* ranges in the pool */
    int32_t nseg, soff;    /* nseg -1: the default route; else segments in segs */
} Rec;

static Sched *store_copy(const Sched *b, double *t, char *err, size_t errlen)
{
    int64_t total = sched_total_transfers(b), nranges = 0;
    Rec *rec = malloc(sizeof *rec * (size_t)(total > 0 ? total : 1));
    ChunkRange *pool = NULL;
    NetSeg *segs = NULL;
    int64_t k = 0, cap = 0, nsegs = 0;
    for (int32_t st = 0; rec && st < sched_nsteps(b); st++)
        for (int64_t i = 0; i < sched_ntransfers(b, st); i++, k++) {
            SchedTransfer x;
            sched_transfer(b, st, i, &x);
            if (nranges + x.nranges > cap) {
                cap = (nranges + x.nranges) * 2 + 1024;
                ChunkRange *q = realloc(pool, sizeof *pool * (size_t)cap);
                if (!q) {
                    free(rec);
                    rec = NULL;
                    break;
                }
                pool = q;
            }
            memcpy(pool + nranges, x.ranges, sizeof *pool * x.nranges);
            rec[k] = (Rec){ x.src, x.dst, x.nranges, (uint32_t)nranges, -1, 0 };
            nranges += x.nranges;
            if (x.explicit_route) {
                NetSeg *q = realloc(segs, sizeof *segs * (size_t)(nsegs + x.nseg));
                if (!q) {
                    free(rec);
                    rec = NULL;
                    break;
                }
                segs = q;
                memcpy(segs + nsegs, x.seg, sizeof *segs * (size_t)x.nseg);
                rec[k].nseg = x.nseg;
                rec[k].soff = (int32_t)nsegs;
                nsegs += x.nseg;
            }
        }
    Sched *s = rec ? sched_new(sched_net(b), sched_nchunks(b), sched_bytes(b)) : NULL;
    if (!s) {
        free(rec);
        free(pool);
        free(segs);
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    double t0 = now();
    for (size_t i = 0; i < sched_ngiven(b); i++) {
        int32_t node;
        ChunkRange r;
        sched_given(b, i, &node, &r);
        sched_give(s, node, r.lo, r.hi);
    }
    k = 0;
    for (int32_t st = 0; st < sched_nsteps(b) && !sched_error(s); st++) {
        sched_at(s, st);
        const char *label = sched_step_label(b, st);
        if (label[0])
            sched_label(s, label);
        int64_t n = sched_ntransfers(b, st);
        sched_reserve(s, n, 0);
        for (int64_t i = 0; i < n; i++, k++) {
            const Rec *x = &rec[k];
            if (x->nseg < 0 && x->nr == 1)   /* the fastest way C stores a transfer */
                sched_send_range(s, x->src, x->dst, pool[x->roff].lo, pool[x->roff].hi);
            else if (x->nseg >= 0)
                sched_send_route(s, x->src, x->dst, pool + x->roff, x->nr, segs + x->soff,
                                 x->nseg);
            else
                sched_send(s, x->src, x->dst, pool + x->roff, x->nr);
        }
        for (int64_t i = 0; i < sched_nlocals(b, st); i++) {
            SchedLocal l;
            sched_local_get(b, st, i, &l);
            sched_local(s, l.node, l.bytes);
        }
    }
    *t = now() - t0;
    free(rec);
    free(pool);
    free(segs);
    if (sched_error(s)) {
        snprintf(err, errlen, "%s", sched_error(s));
        sched_free(s);
        return NULL;
    }
    return s;
}

static int one(const char *spec, const char *name)
{
    char err[1024];
    Net *net = net_parse(spec, err, sizeof err);
    if (!net) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    bool stored = strncmp(name, "stored:", 7) == 0;
    if (stored)
        name += 7;
    double t0 = now();
    AlgoDef *owned = NULL;
    const AlgoDef *d = script_algo(name, net, &owned, err, sizeof err);
    double load = now() - t0;
    if (!d) {
        fprintf(stderr, "%s\n", err);
        net_free(net);
        return 1;
    }
    AlgoArgs a;
    algo_args_init(&a, d);
    a.bytes = 1 << 20;
    double best = 1e30;
    int64_t transfers = 0;
    bool verified = false;
    for (int rep = 0; rep < 3; rep++) {
        t0 = now();
        Sched *s = algo_build(d, net, &a, err, sizeof err);
        double t = now() - t0;
        if (s && stored) {
            /* the same transfers, stored one by one: only the storing is timed */
            Sched *b = s;
            s = store_copy(b, &t, err, sizeof err);
            if (s && !sched_equal(s, b)) {
                snprintf(err, sizeof err, "the stored copy differs from the built-in's");
                sched_free(s);
                s = NULL;
            }
            sched_free(b);
        }
        if (!s) {
            fprintf(stderr, "%s\n", err);
            algo_release(owned);
            net_free(net);
            return 1;
        }
        if (t < best)
            best = t;
        transfers = sched_total_transfers(s);
        if (rep == 2) {
            CostParams p;
            cost_defaults(&p, COST_SEIDEL);
            Sim *sim = sim_run(s, &p, 0, err, sizeof err);
            verified = sim && sim_totals(sim)->verified;
            sim_free(sim);
        }
        sched_free(s);
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("RESULT %.6f %.6f %lld %ld %d\n", best, load, (long long)transfers, ru.ru_maxrss,
           verified);
    algo_release(owned);
    net_free(net);
    return verified ? 0 : 1;
}

typedef struct {
    double build, load;
    long long transfers;
    long kib;
    int verified;
    bool ok;
} Side;

static Side run_child(const char *self, const char *spec, const char *name)
{
    Side r = {0};
    int fd[2];
    if (pipe(fd) != 0)
        return r;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        execl(self, self, spec, name, (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    char buf[4096];
    size_t n = 0;
    ssize_t k;
    while ((k = read(fd[0], buf + n, sizeof buf - 1 - n)) > 0)
        n += (size_t)k;
    buf[n] = '\0';
    close(fd[0]);
    int st;
    waitpid(pid, &st, 0);
    const char *line = strstr(buf, "RESULT ");
    if (line && sscanf(line, "RESULT %lf %lf %lld %ld %d", &r.build, &r.load, &r.transfers,
                       &r.kib, &r.verified) == 5)
        r.ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
    return r;
}

static void print_side(const char *spec, const char *name, const Side *s)
{
    printf("   %-15s %-22s build %7.3f s  (load %.3f s)  peak %7.1f MiB  %9lld transfers  %s\n",
           spec, name, s->build, s->load, s->kib / 1024.0, s->transfers,
           s->ok ? "verified" : "FAILED");
}

int main(int argc, char **argv)
{
    /* run from the source tree (the scripts are found by relative path) */
    if (!srctree_enter(argv[0], "scripts/st.lua"))
        return 1;
    if (argc == 3)
        return one(argv[1], argv[2]);
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0)
        return 1;
    self[len] = '\0';
    /* the send-per-transfer script, written to a temporary file */
    char plain[] = "/tmp/meshcast-bench-st-plain-XXXXXX.lua";
    int fd = mkstemps(plain, 4);
    if (fd >= 0) {
        FILE *f = fdopen(fd, "w");
        fputs(plain_st, f);
        fclose(f);
    }
    int rc = 0;
    printf("Lua schedule building against the built-in (best of 3 builds; target: Lua within "
           "%.0fx time, %.0fx peak memory)\n", TARGET_TIME, TARGET_MEM);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char stored[64];
        snprintf(stored, sizeof stored, "stored:%s", cases[i][1]);
        Side rule = run_child(self, cases[i][0], cases[i][1]);
        Side nat = run_child(self, cases[i][0], stored);
        Side lua = run_child(self, cases[i][0], cases[i][2]);
        print_side(cases[i][0], cases[i][1], &rule);
        print_side(cases[i][0], stored, &nat);
        print_side(cases[i][0], cases[i][2], &lua);
        if (!rule.ok || !nat.ok || !lua.ok || nat.build <= 0 || rule.kib <= 0) {
            printf("   FAILED\n");
            rc = 1;
            continue;
        }
        /* time against the stored copy (the same representation); memory against the
         * built-in on its own (the copy's process holds both schedules at once) */
        double tr = lua.build / nat.build, mr = (double)lua.kib / (double)rule.kib;
        bool hit = tr <= TARGET_TIME && mr <= TARGET_MEM;
        printf("   -> Lua: time %.2fx the stored built-in's, peak memory %.2fx the built-in's  %s\n",
               tr, mr,
               hit ? "(target met)" : "(TARGET MISSED)");
        if (!hit)
            rc = 1;
        if (i == 0 && fd >= 0) {
            Side pl = run_child(self, cases[i][0], plain);
            print_side(cases[i][0], "st-plain (1 call/send)", &pl);
            if (pl.ok)
                printf("   -> unbatched Lua: time %.2fx, peak memory %.2fx (for information)\n",
                       pl.build / nat.build, (double)pl.kib / (double)rule.kib);
        }
    }
    if (fd >= 0)
        unlink(plain);
    return rc;
}
