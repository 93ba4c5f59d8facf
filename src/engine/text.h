/* text.h — a user's text made fit to quote in a one-line message. */
#ifndef MESHCAST_TEXT_H
#define MESHCAST_TEXT_H

#include <stddef.h>

/* Copy at most `max` bytes of text into buf (len bytes), cut at a UTF-8 character boundary,
 * with "..." appended when cut and control characters (C0, DEL) shown as '?', so that the
 * message quoting it stays on one line.  NULL text gives "".  Returns buf. */
const char *text_quote(const char *text, size_t max, char *buf, size_t len);

#endif
