/* mknet.h — the unit tests' net: net_parse(spec) or the test fails with the parser's message.
 * Include after <cmocka.h> and the engine's net.h (or a header that includes it). */
#ifndef MESHCAST_TEST_MKNET_H
#define MESHCAST_TEST_MKNET_H

static inline Net *mknet(const char *spec)
{
    char err[256];
    Net *n = net_parse(spec, err, sizeof err);
    if (!n)
        fail_msg("%s", err);
    return n;
}

#endif
