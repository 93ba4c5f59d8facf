/* params.h — the settings of a broadcast in words, for the title line: "nu=0", then every
 * cost or algorithm parameter that differs from its default ("nu=1 a=0.1 k=4 fit=none").
 * (Issue 9 defect 10: a setting the screen does not show hid a wrong broadcast.) */
#ifndef MESHCAST_TUI_PARAMS_H
#define MESHCAST_TUI_PARAMS_H

#include <stddef.h>

#include "../script/setup.h"

/* Into out (always terminated); fit: the user's --fit word, NULL for the default. */
void params_text(const Setup *s, const char *fit, char *out, size_t len);

#endif
