/* fuzz_text.c — what reaches the terminal: text_quote (messages, labels, names) and
 * text_terminal_safe (a replayed recording).  Properties: text_quote's output is clean text
 * (text_is_clean) within its buffer; text_terminal_safe never grows its input, keeps no BEL,
 * no OSC/DCS/APC/PM/SOS and no C1 control, and is idempotent (filtering twice changes
 * nothing more). */
#include "../../src/engine/text.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *line[1];
    fuzz_lines(data, size, line, 1);
    char q[80];
    text_quote(line[0], size % 70, q, sizeof q);
    FUZZ_ASSERT(strlen(q) < sizeof q && text_is_clean(q));
    free(line[0]);

    char *out = malloc(size + 1), *again = malloc(size + 1);
    FUZZ_ASSERT(out && again);
    size_t n = text_terminal_safe((const char *)data, size, out);
    FUZZ_ASSERT(n <= size);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)out[i];
        FUZZ_ASSERT(c != 0x07 && c != 0x7f && (c >= 0x20 || c == 0x1b || c == '\n' ||
                                                c == '\r' || c == '\t' || c == '\b'));
        if (c == 0x1b && i + 1 < n)
            FUZZ_ASSERT(strchr("]P_^Xc", out[i + 1]) == NULL);
        if (c == 0xC2 && i + 1 < n)
            FUZZ_ASSERT((unsigned char)out[i + 1] >= 0xA0);
    }
    size_t m = text_terminal_safe(out, n, again);
    FUZZ_ASSERT(m == n && memcmp(out, again, n) == 0);
    free(out);
    free(again);
    return 0;
}
