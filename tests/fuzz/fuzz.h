/* fuzz.h — helpers shared by the libFuzzer targets in tests/fuzz/ (see tests/fuzz/README.md).
 *
 * Each target is one file fuzz_NAME.c defining LLVMFuzzerTestOneInput; `make fuzz` builds
 * them with clang -fsanitize=fuzzer,address,undefined into build-fuzz/ and runs each on its
 * seed corpus tests/fuzz/corpus/NAME/.  A target that finds an input breaking a property
 * aborts (the property is checked with FUZZ_ASSERT, which stays on whatever NDEBUG says).
 */
#ifndef MESHCAST_FUZZ_H
#define MESHCAST_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FUZZ_ASSERT(c)                                                                       \
    do {                                                                                     \
        if (!(c)) {                                                                          \
            fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__, __LINE__, #c);         \
            abort();                                                                         \
        }                                                                                    \
    } while (0)

/* A private directory for the run (files the loaders read, the lesson progress files). */
static inline const char *fuzz_dir(void)
{
    static char dir[64];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/meshcast-fuzz-XXXXXX");
        if (!mkdtemp(dir))
            abort();
        setenv("XDG_STATE_HOME", dir, 1);
        setenv("MESHCAST_PATH", dir, 1);
        /* an endless loop is stopped by the instruction budget: 10^9 by default takes ~5 s
         * (over 20 s under the sanitizers, a libFuzzer timeout); 2*10^7 keeps it a finding of
         * the budget, not of the fuzzer's clock */
        setenv("MESHCAST_LUA_INSTRUCTIONS", "20000000", 0);
    }
    return dir;
}

/* The input as a file NAME in the private directory; returns its path (static). */
static inline const char *fuzz_file(const uint8_t *data, size_t size, const char *name)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", fuzz_dir(), name);
    FILE *f = fopen(path, "wb");
    if (!f)
        abort();
    if (size && fwrite(data, 1, size, f) != size)
        abort();
    if (fclose(f) != 0)
        abort();
    return path;
}

/* The input split at newlines into at most max NUL-terminated strings (a copy, freed with
 * free(lines[0]) — one block).  Returns how many. */
static inline size_t fuzz_lines(const uint8_t *data, size_t size, char **lines, size_t max)
{
    char *copy = malloc(size + 1);
    if (!copy)
        abort();
    memcpy(copy, data, size);
    copy[size] = '\0';
    size_t n = 0;
    char *p = copy;
    lines[n++] = p;
    while (n < max && (p = strchr(p, '\n'))) {
        *p++ = '\0';
        lines[n++] = p;
    }
    return n;
}

#endif
