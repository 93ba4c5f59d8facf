/* record.h — the screen as a file: asciicast v2 recordings of a session with a marker per step
 * (`meshcast record FILE`), stepping through one (`meshcast replay FILE [--step N]`), and the
 * current screen exported as text or as an SVG picture (`:export FILE.txt|FILE.svg`).
 *
 * A recording is what asciinema plays: a header line {"version": 2, "width", "height",
 * "timestamp", "title"}, then one event a line: [t, "o", DATA] for a frame (the whole screen,
 * "ESC[H ESC[2J" and its lines with their SGR attributes; written only when it changed) and
 * [t, "m", "step N"] when the position shown becomes N.  Replay reads any asciicast v2 file:
 * it shows the screen as it was at each marker (every output up to it, written to the
 * terminal), n/p/g/G/q step through them.
 *
 * The screen functions read curses' virtual screen (stdscr) after a frame is drawn.
 * Ownership: record_open returns a Recorder the caller closes with record_close.
 */
#ifndef MESHCAST_TUI_RECORD_H
#define MESHCAST_TUI_RECORD_H

#include <stdbool.h>
#include <stddef.h>

typedef struct Recorder Recorder;

Recorder *record_open(const char *path, int w, int h, const char *title, char *err,
                      size_t errlen);
/* After a frame: write it if the screen changed; a marker "step N" when pos changed. */
void record_frame(Recorder *r, long pos);
/* Close the file; false (message in err) if a write failed. */
bool record_close(Recorder *r, char *err, size_t errlen);

/* The screen as text (UTF-8, one line a row, trailing blanks dropped) or as SVG, into path. */
bool export_screen(const char *path, char *err, size_t errlen);

/* `meshcast replay FILE [--step N]` on the terminal; returns the exit status. */
int replay_run(const char *path, long step);

#endif
