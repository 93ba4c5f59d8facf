/* main.c — meshcast-mpi: run a meshcast schedule (the MCX1 binary format, docs/exec.md) on
 * MPI ranks, one rank per node, and report the measured times (rank 0, on stdout).
 *
 *   meshcast-mpi [--reps R] [--timing lockstep|async] [--barrier] [--timeout SEC]
 *                [--max-bytes N] [--status FILE] [--bcast]
 *                [--inject die|hang|corrupt:RANK:STEP] FILE|-
 *
 * Rank 0 reads the schedule (a file, or '-' for standard input) and broadcasts it, so only
 * rank 0 needs to see it.  Output (rank 0):
 *   meshcast-mpi ranks N steps S reps R timing lockstep|async
 *   rep I TOTAL END_1 ... END_S     (I = 0 is the warm-up; seconds; END_k: when the last
 *                                    transfer of step k finished, over all ranks; -1: none)
 *   bcast I SECONDS                 (--bcast: MPI_Bcast of the same bytes, I = 0 warm-up)
 *   verified yes
 * Exit: 0 verified; 1 wrong bytes or a missing chunk; 2 usage or a bad schedule; 3 a rank
 * timed out; 4 an MPI error.  Every failure is one line on stderr:
 *   meshcast-mpi: rank R: step S: what went wrong
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../engine/schedbin.h"
#include "calib.h"
#include "xrun.h"

#define MAX_FILE (UINT64_C(1) << 30)

typedef struct {
    int reps;
    bool bcast;   /* also time MPI_Bcast of the same bytes, for comparison */
    int calibrate;   /* --calibrate MAXBYTES: the measurements of `meshcast calibrate` */
    XRunOpts x;
    uint64_t max_bytes;
    const char *file;
} Opts;

static int usage(int rank, const char *msg)
{
    if (rank == 0)
        fprintf(stderr, "meshcast-mpi: %s (usage: meshcast-mpi [--reps R] [--timing "
                "lockstep|async] [--barrier] [--timeout SEC] [--max-bytes N] [--status FILE] "
                "FILE|-)\n", msg);
    return 2;
}

static int parse(int argc, char **argv, int rank, Opts *o)
{
    memset(o, 0, sizeof *o);
    o->reps = 5;
    o->x.timeout = 60;
    o->max_bytes = UINT64_C(1) << 30;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end;
        if (strcmp(a, "--barrier") == 0) {
            o->x.barrier = true;
            continue;
        }
        if (strcmp(a, "--bcast") == 0) {
            o->bcast = true;
            continue;
        }
        if (a[0] != '-' || strcmp(a, "-") == 0) {
            if (o->file)
                return usage(rank, "more than one schedule file");
            o->file = a;
            continue;
        }
        if (!v)
            return usage(rank, "an option without its value");
        i++;
        if (strcmp(a, "--reps") == 0) {
            long r = strtol(v, &end, 10);
            if (*end || r < 1 || r > 100000)
                return usage(rank, "--reps takes 1..100000");
            o->reps = (int)r;
        } else if (strcmp(a, "--timing") == 0) {
            if (strcmp(v, "async") != 0 && strcmp(v, "lockstep") != 0)
                return usage(rank, "--timing is lockstep or async");
            o->x.async = strcmp(v, "async") == 0;
        } else if (strcmp(a, "--timeout") == 0) {
            double t = strtod(v, &end);
            if (*end || !(t > 0 && t <= 86400))
                return usage(rank, "--timeout takes seconds, 0 < SEC <= 86400");
            o->x.timeout = t;
        } else if (strcmp(a, "--max-bytes") == 0) {
            unsigned long long m = strtoull(v, &end, 10);
            if (*end || m < 1 || m > (UINT64_C(1) << 31) - 1)
                return usage(rank, "--max-bytes takes 1..2^31-1");
            o->max_bytes = m;
        } else if (strcmp(a, "--calibrate") == 0) {
            long m = strtol(v, &end, 10);
            if (*end || m < 1 || m > (1L << 30))
                return usage(rank, "--calibrate takes the largest message, 1..2^30 bytes");
            o->calibrate = (int)m;
        } else if (strcmp(a, "--status") == 0) {
            o->x.status = v;
        } else if (strcmp(a, "--inject") == 0) {
            char kind[16];
            int r, s;
            if (sscanf(v, "%15[a-z]:%d:%d", kind, &r, &s) != 3 || r < 0 || s < 1 ||
                (strcmp(kind, "die") && strcmp(kind, "hang") && strcmp(kind, "corrupt")))
                return usage(rank, "--inject takes die|hang|corrupt:RANK:STEP (STEP from 1)");
            o->x.inject = kind[0] == 'd' ? 'd' : kind[0] == 'h' ? 'h' : 'c';
            o->x.inject_rank = r;
            o->x.inject_step = s - 1;
        } else {
            return usage(rank, "unknown option");
        }
    }
    if (!o->file && !o->calibrate)
        return usage(rank, "no schedule file (give FILE, or - for standard input)");
    return 0;
}

/* Rank 0: the whole file, at most MAX_FILE bytes.  NULL with a message. */
static unsigned char *slurp(const char *path, uint64_t *len, char *err, size_t errlen)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open %s", path);
        return NULL;
    }
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        if (n == cap) {
            if (cap >= MAX_FILE) {
                snprintf(err, errlen, "%s: larger than %llu bytes", path,
                         (unsigned long long)MAX_FILE);
                free(buf);
                buf = NULL;
                break;
            }
            unsigned char *g = realloc(buf, cap * 2);
            if (!g) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = g;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            if (ferror(f)) {
                snprintf(err, errlen, "%s: read error", path);
                free(buf);
                buf = NULL;
            }
            break;
        }
    }
    if (!buf && !err[0])
        snprintf(err, errlen, "out of memory reading %s", path);
    if (f != stdin)
        fclose(f);
    *len = n;
    return buf;
}

/* Rank 0 reads, every rank gets the bytes (in pieces below INT_MAX). */
static SchedBin *load(const Opts *o, int rank, int size, char *err, size_t errlen)
{
    uint64_t len = 0;
    unsigned char *buf = NULL;
    long long hdr[1] = {-1};
    if (rank == 0) {
        buf = slurp(o->file, &len, err, errlen);
        if (buf)
            hdr[0] = (long long)len;
    }
    MPI_Bcast(hdr, 1, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
    if (hdr[0] < 0)
        return NULL;
    len = (uint64_t)hdr[0];
    if (rank != 0 && !(buf = malloc(len ? len : 1)))
        MPI_Abort(MPI_COMM_WORLD, 4);
    for (uint64_t off = 0; off < len; off += 1 << 30) {
        uint64_t n = len - off < (1u << 30) ? len - off : (1u << 30);
        MPI_Bcast(buf + off, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD);
    }
    SchedBin *b = schedbin_read(buf, len, 0, o->max_bytes, err, errlen);
    free(buf);
    if (b && schedbin_nodes(b) != (uint32_t)size) {
        snprintf(err, errlen, "the schedule has %lu nodes but %d ranks run it (one rank per "
                 "node)", (unsigned long)schedbin_nodes(b), size);
        schedbin_free(b);
        return NULL;
    }
    if (b && schedbin_nchunks(b) > (1u << 24)) {
        snprintf(err, errlen, "%lu chunks (at most 2^24)", (unsigned long)schedbin_nchunks(b));
        schedbin_free(b);
        return NULL;
    }
    return b;
}

/* The baseline: MPI_Bcast of the schedule's bytes from its source (rank 0 if none), timed
 * like a repetition (a barrier, then the slowest rank's end); "bcast I SECONDS". */
static void time_bcast(const SchedBin *b, const Opts *o, int rank)
{
    uint64_t n = schedbin_bytes(b);
    uint32_t root = schedbin_root(b) == SCHEDBIN_NOROOT ? 0 : schedbin_root(b);
    unsigned char *buf = calloc(n ? n : 1, 1);
    if (!buf || n > INT32_MAX)
        MPI_Abort(MPI_COMM_WORLD, 4);
    for (int rep = 0; rep <= o->reps; rep++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        MPI_Bcast(buf, (int)n, MPI_BYTE, (int)root, MPI_COMM_WORLD);
        double t = MPI_Wtime() - t0, tmax = 0;
        MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank == 0)
            printf("bcast %d %.9g\n", rep, tmax);
    }
    free(buf);
}

int main(int argc, char **argv)
{
    int rank = 0, size = 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    Opts o;
    int rc = parse(argc, argv, rank, &o);
    if (rc) {
        MPI_Finalize();
        return rc;
    }
    if (o.calibrate) {
        rc = size < 2 ? usage(rank, "--calibrate needs at least 2 ranks")
                      : calib_run(rank, size, o.reps, o.calibrate);
        fflush(stdout);
        MPI_Finalize();
        return rc;
    }
    /* ranks sharing this host: more than its cores, and a spinning rank starves the others */
    MPI_Comm host;
    int local = 1;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host) ==
        MPI_SUCCESS) {
        MPI_Comm_size(host, &local);
        MPI_Comm_free(&host);
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    o.x.yield = cores > 0 && local > cores;
    char err[256] = "";
    SchedBin *b = load(&o, rank, size, err, sizeof err);
    if (!b) {
        if (rank == 0)
            fprintf(stderr, "meshcast-mpi: %s\n", err);
        MPI_Finalize();
        return 2;
    }
    XRun *x = xrun_new(b, rank, &o.x, err, sizeof err);
    int bad = x ? 0 : 1, anybad = 0;
    MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (anybad) {
        if (bad)
            fprintf(stderr, "meshcast-mpi: %s\n", err);
        xrun_free(x);
        schedbin_free(b);
        MPI_Finalize();
        return 4;
    }
    uint32_t ns = schedbin_nsteps(b);
    double *mine = malloc(((size_t)ns + 1) * sizeof *mine);
    double *all = malloc(((size_t)ns + 1) * sizeof *all);
    if (!mine || !all)
        MPI_Abort(MPI_COMM_WORLD, 4);
    if (rank == 0)
        printf("meshcast-mpi ranks %d steps %lu reps %d timing %s\n", size, (unsigned long)ns,
               o.reps, o.x.async ? "async" : "lockstep");
    int exitc = 0;
    for (int rep = 0; rep <= o.reps && !exitc; rep++) {
        rc = xrun_rep(x, mine, &mine[ns]);
        if (rc == XRUN_TIMEOUT || rc == XRUN_MPI || rc == XRUN_FAULT) {
            /* the others may wait for this rank for ever: end the whole run */
            fprintf(stderr, "meshcast-mpi: %s\n", xrun_error(x));
            fflush(stderr);
            MPI_Abort(MPI_COMM_WORLD, rc == XRUN_FAULT ? 1 : rc);
        }
        /* wrong bytes: the lowest rank that saw them says so, every rank exits 1 */
        int who = rc ? rank : size, first = size;
        MPI_Allreduce(&who, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        if (first < size) {
            if (first == rank)
                fprintf(stderr, "meshcast-mpi: %s\n", xrun_error(x));
            exitc = 1;
            break;
        }
        MPI_Reduce(mine, all, (int)ns + 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            printf("rep %d %.9g", rep, all[ns]);
            for (uint32_t k = 0; k < ns; k++)
                printf(" %.9g", all[k]);
            printf("\n");
        }
    }
    if (!exitc && o.bcast)
        time_bcast(b, &o, rank);
    if (rank == 0 && !exitc)
        printf("verified yes\n");
    fflush(stdout);
    free(mine);
    free(all);
    xrun_free(x);
    schedbin_free(b);
    MPI_Finalize();
    return exitc;
}
