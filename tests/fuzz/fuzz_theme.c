/* fuzz_theme.c — a theme file (lines "ROLE FG BG [bold|dim|reverse|underline]..."), found by
 * name on the asset path as a user's theme is (a theme is a name, never a path: passing the
 * file's path would only ever test the name check).
 * Property: loaded, or refused with a one-line message naming the file. */
#include "../../src/tui/theme.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int init;
    if (!init) {
        init = 1;
        setenv("MESHCAST_ASSETS", fuzz_dir(), 1);
    }
    fuzz_file(data, size, "fuzz.theme");
    char err[512] = "";
    if (!theme_check("fuzz", err, sizeof err)) {
        FUZZ_ASSERT(err[0] != '\0' && !strchr(err, '\n'));
        FUZZ_ASSERT(strstr(err, "fuzz.theme") != NULL);
    }
    return 0;
}
