/* PLACEHOLDER until the Lua layer lands. */
#include <stdio.h>

#include "commands.h"

int cmd_check(int argc, char **argv)
{
    (void)argc; (void)argv;
    fprintf(stderr, "meshcast: check is not implemented yet\n");
    return 2;
}
