/* outfile.h — writing a file the user named without destroying what is there: the new content
 * goes to a temporary file in the same directory (".NAME.XXXXXX") and replaces NAME by
 * rename() only when it is complete, so a failed or interrupted write leaves NAME as it was.
 *
 * An existing NAME is replaced only if it is a regular file (never a FIFO, a device or a
 * directory: refused without waiting on it), is not one of the files the session reads
 * (`inputs`: the algorithm script, lesson, theme; refused even with force), and either
 * `force` is set or `recognized` says its first line is of the kind being written (NULL:
 * nothing is recognized, an existing file needs force).
 *
 * Ownership: outfile_open returns an OutFile ended by exactly one of outfile_commit or
 * outfile_abort (both free it). */
#ifndef MESHCAST_TUI_OUTFILE_H
#define MESHCAST_TUI_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct OutFile OutFile;

/* inputs: NULL-terminated paths (entries may be NULL or name no file); what: how the kind
 * is named in the refusal ("an asciicast"), how to force it in `force_hint`. */
OutFile *outfile_open(const char *path, bool force, bool (*recognized)(const char *first_line),
                      const char *const *inputs, const char *force_hint, char *err,
                      size_t errlen);
FILE *outfile_stream(OutFile *o);
/* Close the temporary file and rename it over path; false with a message (the temporary file
 * removed) if anything failed. */
bool outfile_commit(OutFile *o, char *err, size_t errlen);
/* Throw the temporary file away; path untouched. */
void outfile_abort(OutFile *o);

#endif
