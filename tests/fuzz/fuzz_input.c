/* fuzz_input.c — bytes from the terminal (keys, escape sequences, SGR mouse reports) into the
 * screen's input filter and key handlers, as tui.c feeds them, on mesh:8x8 st; the first
 * byte picks the screen size.  Property: no crash, and the App stays drawable (layout). */
#include "../../src/tui/app-core.h"
#include "../../src/tui/input.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_dir();   /* lesson progress goes to a private directory */
    Input *in = input_new("xterm-256color", true);
    FUZZ_ASSERT(in != NULL);
    App *a = app_new();
    FUZZ_ASSERT(a != NULL);
    SetupSpec spec = {.net = "mesh:8x8", .algo = "st"};
    FUZZ_ASSERT(app_set_spec(a, &spec));
    int cols = 20 + (size ? data[0] % 200 : 140), rows = 6 + (size > 1 ? data[1] % 60 : 34);
    app_layout(a, cols, rows);
    /* in pieces, as reads would cut them */
    size_t i = size > 2 ? 2 : size;
    while (i < size && !a->quit) {
        size_t chunk = 1 + data[i] % 16;
        if (chunk > size - i)
            chunk = size - i;
        if (input_feed(in, a, (const char *)data + i, chunk))
            input_flush(in, a);
        app_layout(a, cols, rows);
        i += chunk;
    }
    input_flush(in, a);
    input_free(in);
    app_free(a);
    return 0;
}
