/* fuzz_theme.c — a theme file (lines "ROLE FG BG [bold|dim|reverse|underline]...").
 * Property: loaded, or refused with a one-line message. */
#include "../../src/tui/theme.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, "fuzz.theme");
    char err[512] = "";
    if (!theme_init(false, size & 1, path, err, sizeof err))
        FUZZ_ASSERT(err[0] != '\0');
    return 0;
}
