/* calib.c — meshcast-mpi --calibrate: the measurements `meshcast calibrate` fits.
 *
 * Rank 0 prints (seconds, medians over the repetitions):
 *   pp D M T    ping-pong between ranks 0 and D (a distance in rank order) with M bytes: half
 *               the round trip
 *   ct K M T    K pairs i -> i + P/2 (i < K) each send M bytes at once: from a barrier to the
 *               last arrival
 *   cp M T      a local copy of M bytes (the permutation cost, rho)
 */
#include "calib.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmpd(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double med(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmpd);
    return v[n / 2];
}

static double pingpong(int rank, int peer, unsigned char *buf, int m, int reps, double *t)
{
    for (int r = 0; r <= reps; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        if (rank == 0) {
            MPI_Send(buf, m, MPI_BYTE, peer, 7, MPI_COMM_WORLD);
            MPI_Recv(buf, m, MPI_BYTE, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (rank == peer) {
            MPI_Recv(buf, m, MPI_BYTE, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(buf, m, MPI_BYTE, 0, 7, MPI_COMM_WORLD);
        }
        if (r > 0)
            t[r - 1] = (MPI_Wtime() - t0) / 2;
    }
    return med(t, reps);
}

static double contention(int rank, int size, int k, unsigned char *buf, int m, int reps,
                         double *t)
{
    int half = size / 2;
    for (int r = 0; r <= reps; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        if (rank < k)
            MPI_Send(buf, m, MPI_BYTE, rank + half, 8, MPI_COMM_WORLD);
        else if (rank >= half && rank < half + k)
            MPI_Recv(buf, m, MPI_BYTE, rank - half, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        double mine = MPI_Wtime() - t0, all = 0;
        MPI_Reduce(&mine, &all, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (r > 0)
            t[r - 1] = all;
    }
    return med(t, reps);
}

int calib_run(int rank, int size, int reps, int maxbytes)
{
    unsigned char *buf = calloc((size_t)maxbytes, 1), *two = calloc((size_t)maxbytes, 1);
    double *t = malloc((size_t)reps * sizeof *t);
    if (!buf || !two || !t)
        return 4;
    int sizes[16], ns = 0;
    for (long m = 1; m <= maxbytes && ns < 16; m *= 4)
        sizes[ns++] = (int)m;
    if (sizes[ns - 1] != maxbytes && ns < 16)
        sizes[ns++] = maxbytes;
    for (int d = 1; d < size; d = d * 2 < size ? d * 2 : (d == size - 1 ? size : size - 1))
        for (int i = 0; i < ns; i++) {
            double v = pingpong(rank, d, buf, sizes[i], reps, t);
            if (rank == 0)
                printf("pp %d %d %.9g\n", d, sizes[i], v);
        }
    for (int k = 1; k <= size / 2; k++) {
        double v = contention(rank, size, k, buf, maxbytes, reps, t);
        if (rank == 0)
            printf("ct %d %d %.9g\n", k, maxbytes, v);
    }
    if (rank == 0) {
        for (int r = 0; r <= reps; r++) {
            double t0 = MPI_Wtime();
            memcpy(two, buf, (size_t)maxbytes);
            buf[r % maxbytes] ^= two[(r * 7) % maxbytes];   /* keep the copy observable */
            if (r > 0)
                t[r - 1] = MPI_Wtime() - t0;
        }
        printf("cp %d %.9g\n", maxbytes, med(t, reps));
    }
    free(buf);
    free(two);
    free(t);
    return 0;
}
