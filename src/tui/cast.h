/* cast.h — reading an asciicast v2 recording for replay, in bounded memory.
 *
 * A recording is a header line (a JSON object with "version": 2, "width" and "height"), then
 * one event a line, [time, kind, data] with kind "o" (output), "i" (input), "r" (resize) or
 * "m" (a marker); blank lines are skipped, a UTF-8 byte order mark before the header too.
 * Reading keeps only the markers: for each, where it is in the file and where the last full
 * frame before it starts (output that begins with ESC[H ESC[2J, as meshcast's frames do), so
 * the screen at a marker is drawn from that frame on, never from the start of the file.
 * Limits, each refused with the line named: a header line of CAST_HEADER_MAX bytes, an event
 * line of CAST_LINE_MAX, a screen over VT_MAX (vt.h) in either direction, CAST_MARKS_MAX
 * markers.  Only a regular file is read (a FIFO, a device such as /dev/zero: refused, never
 * waited on).
 *
 * Ownership: cast_open and cast_read return a Cast the caller frees with cast_free. */
#ifndef MESHCAST_TUI_CAST_H
#define MESHCAST_TUI_CAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "vt.h"

enum {
    CAST_HEADER_MAX = 65536,
    CAST_LINE_MAX = 16 << 20,
    CAST_MARKS_MAX = 1 << 18,
};

typedef struct Cast Cast;

/* Open and index the recording at path; NULL with a one-line message in err. */
Cast *cast_open(const char *path, char *err, size_t errlen);
/* The same from an open stream (which the Cast owns from then on, closed even on failure);
 * name is how messages call it. */
Cast *cast_read(FILE *f, const char *name, char *err, size_t errlen);
void cast_free(Cast *c);

int cast_width(const Cast *c);
int cast_height(const Cast *c);
size_t cast_nmarks(const Cast *c);
/* Marker i's label, as text (quoted: no control characters). */
const char *cast_label(const Cast *c, size_t i);
/* The index of the first marker labelled label, or -1. */
long cast_find(const Cast *c, const char *label);
/* The screen as it was at marker i, drawn into vt (reset first; any size).  False with a
 * message if the file changed under us. */
bool cast_render(Cast *c, size_t i, Vt *vt, char *err, size_t errlen);

#endif
