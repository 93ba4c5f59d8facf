/* profile.h — machine profiles: a named set of cost-model constants used by every command
 * with `--profile NAME` (and the screen's `:profile NAME`) in place of the built-in defaults
 * (Table II, the papers' unit constants).  An explicit `--set K=V` still wins: setup.c
 * applies the profile right after the model's defaults, before the settings.
 *
 * File NAME.profile, UTF-8 text, one `KEY = VALUE` a line, '#' starts a comment:
 *     name = paragon          optional; defaults to the file's basename
 *     about = free text       one line
 *     seidel.a = 0.0123       MODEL.PARAM = number, for every parameter `--set` takes under
 *                             that model (cost_param_names, and gamma); only the keys of the
 *                             model in use are applied
 *     fit.error = 4.1%        fit.* keys are descriptive: kept and shown, never applied
 * A line over PROFILE_LINE_MAX bytes, a file over PROFILE_FILE_MAX bytes, a key given twice, a
 * value that is not a number in the parameter's range, an unknown key (the message names the
 * nearest valid one), broken UTF-8 or a control character: refused as "FILE:LINE: why".
 *
 * Lookup of NAME: $XDG_CONFIG_HOME/meshcast/profiles/NAME.profile (XDG_CONFIG_HOME defaults
 * to $HOME/.config), then assets/profiles/NAME.profile on the asset path (assets.h).  A NAME
 * with a '/' is a file path.  Otherwise NAME is letters, digits, '_', '-' and '.' (not first).
 *
 * Ownership: profile_load/profile_parse return a Profile the caller frees with profile_free;
 * the strings it hands out live as long as it does.
 */
#ifndef MESHCAST_PROFILE_H
#define MESHCAST_PROFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "../engine/cost.h"

#define PROFILE_LINE_MAX 512
#define PROFILE_FILE_MAX 65536
#define PROFILE_KEYS_MAX 128

typedef struct Profile Profile;

/* Find NAME (see above) and parse it; NULL with a one-line message in err. */
Profile *profile_load(const char *name, char *err, size_t errlen);
/* Parse text (len bytes) read from `file` (used in messages; its basename without
 * ".profile" is the default name). */
Profile *profile_parse(const char *text, size_t len, const char *file, char *err,
                       size_t errlen);
void profile_free(Profile *p);

const char *profile_name(const Profile *p);
const char *profile_about(const Profile *p);      /* "" when not given */
const char *profile_file(const Profile *p);
/* The i-th KEY = VALUE in file order (name and about excluded); false past the last. */
bool profile_entry(const Profile *p, size_t i, const char **key, const char **value);

/* Set every MODEL.PARAM of c's model into c (cost_set).  Returns how many were applied. */
int profile_apply(const Profile *p, CostParams *c);

/* Where NAME would be read from (path), false if nowhere. */
bool profile_find(const char *name, char *path, size_t len);
/* Names of the user's and the shipped profiles (a user's hides a shipped one of the same
 * name), sorted; the caller frees each.  Returns how many (at most max). */
size_t profile_list(char **out, size_t max);

#endif
