/* fuzz_cast.c — a recording for replay (src/tui/cast.h) and the bytes of its output drawn
 * (src/tui/vt.h).  Properties: opened and indexed, or refused with a one-line message; every
 * marker's screen is drawn; no cell of the grid holds a control character (C0, DEL, C1), a
 * surrogate or a code point past U+10FFFF, whatever the bytes — so nothing but text reaches
 * the terminal from a replay. */
#include <locale.h>

#include "../../src/tui/cast.h"
#include "../../src/tui/vt.h"
#include "fuzz.h"

static void grid_clean(const Vt *vt)
{
    for (int y = 0; y < vt_height(vt); y++)
        for (int x = 0; x < vt_width(vt); x++) {
            const VtCell *c = vt_cell(vt, y, x);
            if (c->attr & VT_CONT) {
                FUZZ_ASSERT(x > 0 && c->ch == 0);
                continue;
            }
            FUZZ_ASSERT(c->ch >= 0x20 && c->ch != 0x7f && !(c->ch >= 0x80 && c->ch < 0xA0));
            FUZZ_ASSERT(c->ch < 0xD800 || (c->ch > 0xDFFF && c->ch <= 0x10FFFF));
            FUZZ_ASSERT(c->fg >= -1 && c->fg <= 255 && c->bg >= -1 && c->bg <= 255);
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int init;
    if (!init) {
        init = 1;
        setlocale(LC_CTYPE, "C.UTF-8");
    }
    /* the bytes straight into a small terminal, in two pieces (sequences cut between) */
    Vt *raw = vt_new(7, 3);
    FUZZ_ASSERT(raw);
    vt_feed(raw, (const char *)data, size / 2);
    vt_feed(raw, (const char *)data + size / 2, size - size / 2);
    grid_clean(raw);
    vt_free(raw);

    const char *path = fuzz_file(data, size, "fuzz.cast");
    char err[512] = "";
    Cast *c = cast_open(path, err, sizeof err);
    if (!c) {
        FUZZ_ASSERT(err[0] != '\0' && !strchr(err, '\n'));
        return 0;
    }
    FUZZ_ASSERT(cast_width(c) >= 1 && cast_width(c) <= VT_MAX);
    FUZZ_ASSERT(cast_height(c) >= 1 && cast_height(c) <= VT_MAX);
    Vt *vt = vt_new(cast_width(c), cast_height(c));
    FUZZ_ASSERT(vt);
    for (size_t i = 0; i < cast_nmarks(c) && i < 16; i++) {
        FUZZ_ASSERT(cast_render(c, i, vt, err, sizeof err));
        grid_clean(vt);
        const char *l = cast_label(c, i);
        for (; *l; l++) FUZZ_ASSERT((unsigned char)*l >= 0x20 && *l != 0x7f);
    }
    vt_free(vt);
    cast_free(c);
    return 0;
}
