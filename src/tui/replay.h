/* replay.h — `meshcast replay FILE [--step N]`: step through a recording's markers.
 *
 * The recording (cast.h) is drawn into a virtual terminal of its own size (vt.h) and that grid
 * is written to the terminal with replay's own sequences (position, SGR, text), so nothing in
 * the file reaches the terminal as it is: a stranger's recording can draw, not set a mode.
 * The screen at a marker is drawn from the last full frame before it.  In a terminal smaller
 * than the recording the top-left part is shown, the status line says "cropped" and the
 * arrow keys move the window.  Keys: n/Space next, p previous, g/G first/last, q/Esc/Ctrl-C
 * quit.  Every exit restores the terminal (main screen, cursor shown, attributes, autowrap,
 * the saved tty modes), a signal's too (SIGTERM, SIGHUP, SIGINT, SIGQUIT and the others whose
 * default ends the process: the process then ends as that signal would have), a crash's
 * (SIGSEGV, SIGABRT, ...: restored from the handler with async-signal-safe calls). */
#ifndef MESHCAST_TUI_REPLAY_H
#define MESHCAST_TUI_REPLAY_H

/* Returns the exit status (2 for a file that cannot be replayed, with one line on stderr). */
int replay_run(const char *path, long step);

#endif
