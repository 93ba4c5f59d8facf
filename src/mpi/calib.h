/* calib.h — meshcast-mpi --calibrate: ping-pong over sizes and distances, contention, a
 * local copy; rank 0 prints the medians (calib.c says the lines).  Returns the exit status. */
#ifndef MESHCAST_CALIB_H
#define MESHCAST_CALIB_H

int calib_run(int rank, int size, int reps, int maxbytes);

#endif
