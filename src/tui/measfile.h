/* measfile.h — read what `meshcast exec --json` wrote (docs/exec.md): the run's net, algorithm,
 * message size and step count, and its `measured` object (total, per-step medians, reps,
 * spread, ranks, launcher, timing, verified).  Everything else in the object is skipped.
 *
 * The reader trusts nothing: at most MEASFILE_MAX bytes, nesting at most 64 deep, every number
 * finite and not negative, steps as many as the run's steps (lockstep); a bad file gets one line
 * naming the byte offset and what is wrong.
 *
 * Ownership: measfile_* fill a MeasFile whose steps array the caller frees with measfile_free.
 */
#ifndef MESHCAST_TUI_MEASFILE_H
#define MESHCAST_TUI_MEASFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MEASFILE_MAX (256u << 20)

typedef struct MeasFile {
    char net[128], algo[256], timing[16], launcher[256];
    uint64_t bytes;
    int64_t nsteps;       /* the run's "steps" */
    double total, spread; /* us */
    double *steps;        /* nsteps measured per-step medians (us); NULL under async */
    int64_t nmeas;        /* entries in steps */
    int64_t reps, ranks;
    bool verified;
} MeasFile;

/* Parse text[0..len).  False with one line in err. */
bool measfile_parse(const char *text, size_t len, MeasFile *m, char *err, size_t errlen);
/* Read and parse a file (err starts with the path). */
bool measfile_read(const char *path, MeasFile *m, char *err, size_t errlen);
void measfile_free(MeasFile *m);

#endif
