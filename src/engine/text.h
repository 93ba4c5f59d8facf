/* text.h — a user's text made fit to quote in a one-line message or to show on a terminal.
 *
 * Whatever reaches the terminal from a script, a lesson, a file or argv goes through
 * text_quote (messages, labels, names): no control character survives it, so no escape
 * sequence, no line break, no C1 control (U+0080..U+009F, which some terminals obey as
 * escape sequences too) and no byte of broken UTF-8 reaches the screen. */
#ifndef MESHCAST_TEXT_H
#define MESHCAST_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* Copy at most `max` bytes of text into buf (len bytes), cut at a UTF-8 character boundary,
 * with "..." appended when cut; control characters (C0, DEL, C1) and bytes that start no
 * well-formed UTF-8 sequence are shown as '?' (one per byte), so that the message quoting it
 * stays on one line and the terminal shows it as text.  NULL text gives "".  Returns buf. */
const char *text_quote(const char *text, size_t max, char *buf, size_t len);

/* Length of the well-formed UTF-8 sequence at p (RFC 3629: no overlongs, no surrogates, at
 * most U+10FFFF), or 0. */
int text_utf8_len(const unsigned char *p);

/* True if text holds nothing text_quote would change (no control character, valid UTF-8). */
bool text_is_clean(const char *text);

/* Terminal output from a file (a recording being replayed) made safe to write to the user's
 * terminal: text, line breaks and the sequences that only draw are kept — SGR attributes,
 * cursor movement and erasing (CSI with finals m H f A-G d J K X L M @ P S T r), save and
 * restore cursor, the cursor-visibility, autowrap and cursor-key modes, the line-drawing
 * charset; everything else is dropped: OSC (title, clipboard), DCS/APC/PM/SOS strings, a
 * terminal reset, requests the terminal would answer on our input (DSR, DA, window reports),
 * mouse and paste modes, C1 controls, other C0 controls and broken UTF-8.  in (n bytes) is
 * filtered into out (room for n bytes); returns the bytes written. */
size_t text_terminal_safe(const char *in, size_t n, char *out);

/* Edit distance (Levenshtein: insertions, deletions, substitutions) between a and b, capped:
 * anything over 64 characters or a distance over 9 counts as 10. */
int text_edit_distance(const char *a, const char *b);
/* The name in names (NULL-terminated) nearest to word by text_edit_distance, if it is close
 * enough to be a likely misspelling (distance at most 2, and less than word's length); else
 * NULL.  For "unknown field 'chunk' (did you mean 'chunks'?)" messages. */
const char *text_nearest(const char *word, const char *const *names);
/* The one "did you mean" of every message (an algorithm, lesson, subcommand, option, theme,
 * profile mistyped): " (did you mean 'NAME'?)" with text_nearest's NAME, or "" when none is
 * near; into buf (len bytes).  Returns buf. */
const char *text_did_you_mean(const char *word, const char *const *names, char *buf, size_t len);

#endif
