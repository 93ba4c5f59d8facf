/* record.h — the screen as a file: asciicast v2 recordings of a session with a marker per step
 * (`meshcast record FILE`) and the
 * current screen exported as text or as an SVG picture (`:export FILE.txt|FILE.svg`).
 *
 * A recording is what asciinema plays: a header line {"version": 2, "width", "height",
 * "timestamp", "title"}, then one event a line: [t, "o", DATA] for a frame (the whole screen,
 * "ESC[H ESC[2J" and its lines with their SGR attributes; written only when it changed) and
 * [t, "m", "step N"] when the position shown becomes N; in a lesson also [t, "m", "page N"]
 * when a page is turned to and [t, "m", "answer right|wrong"] when a question is answered.
 * Replay (replay.h) steps through the markers.
 *
 * The screen functions read curses' virtual screen (stdscr) after a frame is drawn.
 * Ownership: record_open returns a Recorder the caller closes with record_close.
 */
#ifndef MESHCAST_TUI_RECORD_H
#define MESHCAST_TUI_RECORD_H

#include <stdbool.h>
#include <stddef.h>

typedef struct Recorder Recorder;

/* The recording goes to a temporary file renamed to path by record_close (outfile.h): an
 * existing path is replaced only if it is an asciicast (or force), never if it is one of
 * inputs (the files the session reads), never if it is not a regular file. */
Recorder *record_open(const char *path, int w, int h, const char *title, bool force,
                      const char *const *inputs, char *err, size_t errlen);
/* After a frame: write it if the screen changed; a marker "step N" when pos changed. */
void record_frame(Recorder *r, long pos);
/* A marker of its own after the frame it follows: a lesson's "page N", "answer right" or
 * "answer wrong" (replay steps through every marker). */
void record_mark(Recorder *r, const char *label);
/* Close the file and put it in place; false (message in err, path untouched) if a write
 * failed. */
bool record_close(Recorder *r, char *err, size_t errlen);
/* Throw the recording away (the session never started); path untouched. */
void record_abort(Recorder *r);

/* The screen as text (UTF-8, one line a row, trailing blanks dropped) or as SVG, into path:
 * written whole then renamed (outfile.h); an existing path only replaced with force. */
bool export_screen(const char *path, bool force, char *err, size_t errlen);

#endif
