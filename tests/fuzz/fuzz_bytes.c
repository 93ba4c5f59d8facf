/* fuzz_bytes.c — byte counts (--bytes: 1024, 64K, 1M).  Properties: an accepted count is at
 * least 1, and its decimal form is accepted back as the same count. */
#include <inttypes.h>

#include "../../src/script/setup.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *line[1];
    fuzz_lines(data, size, line, 1);
    uint64_t v = 0, w = 0;
    if (setup_parse_bytes(line[0], &v)) {
        FUZZ_ASSERT(v >= 1);
        char back[32];
        snprintf(back, sizeof back, "%" PRIu64, v);
        FUZZ_ASSERT(setup_parse_bytes(back, &w) && w == v);
    }
    free(line[0]);
    return 0;
}
