/* assets.h — finding files under assets/: $MESHCAST_ASSETS, the assets/ directory next to
 * (or one above) the running binary, then the install share directory.  Themes are found
 * here (src/tui) and machine profiles under assets/profiles/ (profile.h). */
#ifndef MESHCAST_SCRIPT_ASSETS_H
#define MESHCAST_SCRIPT_ASSETS_H

#include <stdbool.h>
#include <stddef.h>

/* Path of NAME+ext (or NAME itself if it contains '/') into path; false if not found. */
bool assets_find(const char *name, const char *ext, char *path, size_t len);
/* Names (without ext) of every file ending in ext; caller frees each.  Returns how many. */
size_t assets_list(const char *ext, char **out, size_t max);
/* The same in the sub-directory `sub` of each asset directory ("profiles"): */
bool assets_find_in(const char *sub, const char *name, const char *ext, char *path, size_t len);
size_t assets_list_in(const char *sub, const char *ext, char **out, size_t max);

#endif
