/* input.h — bytes from the terminal to actions on the App.
 *
 * libtermkey decodes keys; each key becomes a string with termkey_strfkey(TERMKEY_FORMAT_VIM)
 * ("n", "<Space>", "<C-l>", "<S-Tab>") and goes to app_key().  SGR mouse reports
 * (ESC [ < b ; x ; y M/m, enabled with modes 1000 and 1006) are taken out of the byte stream
 * here, before libtermkey sees them: libtermkey 0.22 misreads them when the terminfo entry's
 * kmous is "\E[<" (xterm-256color), so meshcast parses them itself and calls app_mouse().
 * CSI sequences with intermediate bytes (no key sends one) are dropped here too: libtermkey
 * 0.22 crashes on some of them ("ESC [ SP P").
 *
 * The real loop (tui.c) and the unit tests use the same functions: input_new on an abstract
 * TermKey, input_feed with the bytes read, input_flush after termkey_get_waittime() ms without
 * more input (a lone Escape).
 *
 * Ownership: input_new returns an Input the caller frees with input_free (it owns its TermKey).
 */
#ifndef MESHCAST_TUI_INPUT_H
#define MESHCAST_TUI_INPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "app.h"

typedef struct Input Input;

/* term: the terminal type for libtermkey's terminfo driver (NULL: $TERM or "xterm");
 * utf8: the input is UTF-8. */
Input *input_new(const char *term, bool utf8);
void input_free(Input *in);

/* Feed bytes; every complete key or mouse event goes to the App.  Returns true if a key is
 * waiting to be told apart (a lone Escape): call input_flush after input_waittime() ms. */
bool input_feed(Input *in, App *a, const char *bytes, size_t len);
void input_flush(Input *in, App *a);
int input_waittime(const Input *in);

#endif
