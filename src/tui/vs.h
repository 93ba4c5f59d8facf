/* vs.h — side by side: a second broadcast on the same net as the first (another algorithm, or
 * the same with other settings), stepped together with it, drawn in the right half of the map
 * with its own costs (`meshcast --vs bst`, `:vs bst`, `:vs st nu=1`, `:vs off`).
 *
 * The second broadcast takes the first one's words and changes what :vs says: a word K=V is a
 * setting, any other word the algorithm.  It follows the first: a new net, source, size or
 * model rebuilds it.  Position k shows step min(k, its steps) of it.  No curses here.
 *
 * Ownership: the App owns a->vs (vs_close frees it).
 */
#ifndef MESHCAST_TUI_VS_H
#define MESHCAST_TUI_VS_H

#include <stdbool.h>

#include "app.h"

/* `:vs WORDS...` (n words): open, replace or ("off") close the second broadcast. */
bool vs_command(App *a, const char *const *words, int n);
/* Rebuild the second broadcast after the first changed (keeps its words). */
void vs_follow(App *a);
/* Seek the second broadcast to the position the first goes to. */
void vs_sync(App *a, int32_t pos);
void vs_close(App *a);
/* The second broadcast's position (<= its steps). */
int32_t vs_pos(const App *a);

#endif
