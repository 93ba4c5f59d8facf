/* fuzz_net.c — net specs and node names: "SPEC\nNODE".  Properties: a parsed net has at
 * least 2 and at most NET_MAXNODES nodes; a node that parses has an id inside the net, and its
 * name (net_node_name) parses back to the same id. */
#include "../../src/engine/net.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *line[2];
    size_t n = fuzz_lines(data, size, line, 2);
    char err[256];
    Net *net = net_parse(line[0], err, sizeof err);
    if (!net) {
        FUZZ_ASSERT(err[0] != '\0' && strchr(err, '\n') == NULL);
        free(line[0]);
        return 0;
    }
    FUZZ_ASSERT(net_size(net) >= 2 && net_size(net) <= NET_MAXNODES);
    if (n > 1) {
        int32_t id = net_parse_node(net, line[1]);
        FUZZ_ASSERT(id >= -1 && id < net_size(net));
        if (id >= 0) {
            char name[64];
            net_node_name(net, id, name, sizeof name);
            FUZZ_ASSERT(net_parse_node(net, name) == id);
        }
    }
    net_free(net);
    free(line[0]);
    return 0;
}
