/* assets.h — the asset search path lives in the script layer (src/script/assets.h), which
 * the profile loader shares with the screen's themes. */
#ifndef MESHCAST_TUI_ASSETS_H
#define MESHCAST_TUI_ASSETS_H
#include "../script/assets.h"
#endif
